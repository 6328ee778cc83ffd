#!/bin/bash
# The build and sparse stages pick the kernel config by touched path:
# drivers/usb/gadget/ is built with c-usb-gadget, the rest with c-binder
# (stubbed kernel/ scripts record what they are asked to build).
test_description='check: build and sparse configs chosen by touched path'
. "$(dirname "$0")/lib.sh"

test_synthetic_env
export GIT_AUTHOR_NAME="Sam Sender" GIT_AUTHOR_EMAIL=sam@example.org
test_sender
SOB='Signed-off-by: Sam Sender <sam@example.org>'


test_expect_success 'setup: a base, a series touching binder and f_hid' '
	git init -q -b master "$BASE" &&
	test_commit_file "$BASE" drivers/android/binder.c "int binder;" "Linux 7.2.13" &&
	test_commit_file "$BASE" drivers/usb/gadget/function/f_hid.c "int hid;" "usb" &&
	git -C "$BASE" tag v7.2.13 &&
	mkdir -p "$STORE/series" && test_stub_kernel &&
	git clone -q "$BASE" work &&
	git -C work checkout -q -b two v7.2.13 &&
	test_commit_file work drivers/usb/gadget/function/f_hid.c "int a;" "usb: gadget: f_hid: a" &&
	test_commit_file work drivers/android/binder.c "int b;" "binder: b" &&
	test_series two 1 "$STORE" &&
	git -C work format-patch -q --base=v7.2.13 -o "$STORE/series/two/v1" v7.2.13..HEAD
'

test_expect_success 'build: each touched object with the config that compiles it' '
	stub_check two --stage build >out 2>err &&
	grep " build .*pass" out &&
	grep "^kbuild .*c-binder [^ ]* drivers/android/binder.o\$" ran >binder &&
	grep "^kbuild .*c-usb-gadget [^ ]* drivers/usb/gadget/function/f_hid.o\$" ran >usb &&
	test_line_count = 2 binder &&
	test_line_count = 2 usb &&
	! grep "c-binder.*f_hid.o" ran &&
	! grep "c-usb-gadget.*binder.o" ran
'

test_expect_success 'sparse: one sparse-check per config, base and series' '
	stub_check two --stage sparse >out 2>err &&
	grep " sparse .*pass.*C=2 on 2 objects" out &&
	grep -c "^sparse-check .*c-binder [^ ]* drivers/android/binder.o\$" ran >n1 &&
	grep -c "^sparse-check .*c-usb-gadget [^ ]* drivers/usb/gadget/function/f_hid.o\$" ran >n2 &&
	echo 2 >want && test_cmp want n1 && test_cmp want n2
'

test_done
