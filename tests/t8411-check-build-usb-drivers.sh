#!/bin/bash
# The build stage's path table sends the USB drivers that c-usb-drivers
# compiles to it (max3420_udc.c before the drivers/usb/gadget/ row,
# max3421-hcd.c, drivers/usb/fotg210/ and drivers/usb/chipidea/), the
# rest of drivers/usb/gadget/ to c-usb-gadget, and every other path to
# c-binder; a driver that only builds on another architecture
# (bcm63xx_udc.c) is not built, and the stage says why (stubbed kernel/
# scripts record what they are asked to build).
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

test_expect_success 'setup: a series touching only bcm63xx_udc.c, one with max3420_udc.c too' '
	f=drivers/usb/gadget/udc/bcm63xx_udc.c &&
	test_commit_file "$BASE" $f "int a;" "add $f" &&
	git -C "$BASE" tag -f v7.2.13 &&
	git -C work fetch -q -f origin tag v7.2.13 &&
	git -C work checkout -q -b mips v7.2.13 &&
	test_commit_file work $f "int b;" "usb: gadget: bcm63xx_udc: b" &&
	test_series mips 1 "$STORE" &&
	git -C work format-patch -q --base=v7.2.13 -o "$STORE/series/mips/v1" v7.2.13..HEAD &&
	test_commit_file work drivers/usb/gadget/udc/max3420_udc.c "int c;" "usb: gadget: max3420_udc: c" &&
	test_series mixed 1 "$STORE" &&
	git -C work format-patch -q --base=v7.2.13 -o "$STORE/series/mixed/v1" v7.2.13..HEAD
'

test_expect_success 'build: an arch-only driver is skipped with why, not built with another config' '
	stub_check mips --stage build >out 2>err &&
	grep " build .*skip.*no x86_64 config builds drivers/usb/gadget/udc/bcm63xx_udc.c: depends on BCM63XX (MIPS)" out &&
	! grep "^kbuild" ran
'

test_expect_success 'build: with a buildable file too, that one is built and the other named' '
	stub_check mixed --stage build >out 2>err &&
	grep " build .*pass.*(c-usb-drivers; every patch); not built: drivers/usb/gadget/udc/bcm63xx_udc.c: depends on BCM63XX (MIPS)" out &&
	grep "^kbuild .* c-usb-drivers .*max3420_udc.o" ran &&
	! grep bcm63xx_udc.o ran
'

test_done
