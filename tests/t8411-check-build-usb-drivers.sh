#!/bin/bash
# The build stage's path table sends the USB drivers that c-usb-drivers
# compiles to it (max3420_udc.c before the drivers/usb/gadget/ row,
# max3421-hcd.c, drivers/usb/fotg210/ and drivers/usb/chipidea/), the
# rest of drivers/usb/gadget/ to c-usb-gadget, and every other path to
# c-binder (stubbed kernel/ scripts record what they are asked to
# build). The drivers that only build on another architecture
# (bcm63xx_udc.c, ...) are cross-compiled: t8412.
test_description='check: the c-usb-drivers config for the triaged USB drivers'
. "$(dirname "$0")/lib.sh"

test_synthetic_env
export GIT_AUTHOR_NAME="Sam Sender" GIT_AUTHOR_EMAIL=sam@example.org
test_sender
SOB='Signed-off-by: Sam Sender <sam@example.org>'


FILES='drivers/usb/gadget/udc/max3420_udc.c drivers/usb/host/max3421-hcd.c
drivers/usb/fotg210/fotg210-udc.c drivers/usb/chipidea/udc.c
drivers/usb/gadget/function/f_hid.c drivers/usb/host/ehci-hcd.c'

test_expect_success 'setup: a base, a series touching six USB files' '
	git init -q -b master "$BASE" &&
	for f in $FILES; do
		test_commit_file "$BASE" $f "int a;" "add $f" || exit 1
	done &&
	git -C "$BASE" tag v7.2.13 &&
	mkdir -p "$STORE/series" && test_stub_kernel &&
	git clone -q "$BASE" work &&
	git -C work checkout -q -b usb v7.2.13 &&
	for f in $FILES; do
		test_commit_file work $f "int b;" "usb: $f" || exit 1
	done &&
	test_series usb 1 "$STORE" &&
	git -C work format-patch -q --base=v7.2.13 -o "$STORE/series/usb/v1" v7.2.13..HEAD
'

test_expect_success 'build: each file with the config that compiles it' '
	stub_check usb --stage build >out 2>err &&
	grep " build .*pass" out &&
	grep "^kbuild .* c-usb-drivers " ran >drivers &&
	for o in drivers/usb/gadget/udc/max3420_udc.o drivers/usb/host/max3421-hcd.o \
		 drivers/usb/fotg210/fotg210-udc.o drivers/usb/chipidea/udc.o; do
		grep -q " $o" drivers || { echo "$o not built with c-usb-drivers"; exit 1; }
	done &&
	! grep -e f_hid.o -e ehci-hcd.o drivers &&
	grep "^kbuild .* c-usb-gadget .*drivers/usb/gadget/function/f_hid.o" ran &&
	! grep "^kbuild .* c-usb-gadget .*max3420_udc.o" ran &&
	grep "^kbuild .* c-binder .*drivers/usb/host/ehci-hcd.o" ran &&
	! grep "^kbuild .* c-binder .*max3421-hcd.o" ran
'

test_done
