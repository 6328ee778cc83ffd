#!/bin/bash
test_description='binder-alloc-spinlock v2: mail form, trailers, applies and passes checkpatch'

. "$(dirname "$0")/lib.sh"

VN=2
. "$SRC_DIR/tests/lib-spinlock-series.sh"

test_done
