#!/bin/bash
test_description='binder-alloc-spinlock check/prog/binder-throughput.c builds statically and keeps its interface'

. "$(dirname "$0")/lib.sh"

PROG_SRC=$SRC_DIR/series/binder-alloc-spinlock/check/prog/binder-throughput.c

# The uapi headers: the installed ones (linux-libc-dev), or those of a
# kernel build dir's headers_install when KSERIES_UAPI names its usr/include.
UAPI=${KSERIES_UAPI:-/usr/include}
if [ -f "$UAPI/linux/android/binder.h" ] && [ -f "$UAPI/linux/android/binderfs.h" ]; then
	test_set_prereq UAPI
else
	SKIP_REASON="no linux/android/binder.h under $UAPI"
fi

build() {
	set -- -static -O2 -Wall -Wextra -Werror -pthread -I "$SRC_DIR/kernel/prog"
	[ -z "${KSERIES_UAPI:-}" ] || set -- "$@" -I "$KSERIES_UAPI"
	gcc "$@" -o binder-throughput "$PROG_SRC"
}

test_expect_success UAPI 'builds as a static binary with -Wall -Wextra -Werror' '
	build &&
	test -x binder-throughput &&
	file binder-throughput | grep -q "statically linked"
'

test_expect_success UAPI 'bad usage exits 2 with the synopsis' '
	build &&
	test_expect_code 2 ./binder-throughput -x 2>err &&
	grep -q "^usage: binder-throughput \[-d DEVICE\]" err &&
	test_expect_code 2 ./binder-throughput -n 0 2>err &&
	test_expect_code 2 ./binder-throughput -w 65 2>err &&
	test_expect_code 2 ./binder-throughput extra 2>err
'

test_expect_success UAPI 'a missing device is a skip (77), not a failure' '
	build &&
	test_expect_code 77 ./binder-throughput -d "$TRASH/no-such-binder" 2>err &&
	grep -q "skip: no binder device" err
'

# Without -d it mounts a private binderfs: 77 where binderfs is missing or
# not permitted (the host), one parseable result line where it runs (a VM).
test_expect_success UAPI 'private binderfs: a skip, or one key=value result line' '
	build &&
	rc=0 &&
	./binder-throughput -n 200 -w 2 >out 2>err || rc=$? &&
	cat out err &&
	case $rc in
	77)
		grep -q "skip: cannot mount binderfs" err ;;
	0)
		test_line_count = 1 out &&
		grep -E "^binder-throughput: workers=2 iterations=400 size=16 iter_per_s=[0-9]+ avg_us=[0-9.]+ p50_us=[0-9.]+ p99_us=[0-9.]+ max_us=[0-9.]+$" out ;;
	*)
		false ;;
	esac
'

test_done
