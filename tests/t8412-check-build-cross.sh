#!/bin/bash
# The build stage cross-compiles the drivers that only build on another
# architecture: its path table sends bcm63xx_udc.c to c-cross-mips,
# fsl_qe_udc.c to c-cross-powerpc, tpm_ibmvtpm.c to c-cross-powerpc64,
# amiflop.c and swim.c to c-cross-m68k, atmel_usba_udc.c to
# c-cross-arm and sunvdc.c to c-cross-sparc64, while the ARM UDCs whose
# Kconfig has COMPILE_TEST (aspeed-vhub, aspeed_udc, lpc32xx_udc) and
# renesas_usbhs build on x86_64 in c-usb-drivers.
# A cross config is built when the compiler its fragment's kseries-cross
# line names is in PATH; without it the stage skips (or leaves those
# files out) naming the Debian package, and nothing is cached. A bad
# kseries-cross line fails the stage with one line. Stubbed kernel/
# scripts record what they are asked to build; the fragments are the
# tree's own, the cross compilers stubs in PATH.
test_description='check: the cross configs for the drivers of other architectures'
. "$(dirname "$0")/lib.sh"

test_synthetic_env
export GIT_AUTHOR_NAME="Sam Sender" GIT_AUTHOR_EMAIL=sam@example.org
test_sender
SOB='Signed-off-by: Sam Sender <sam@example.org>'

# touched file | the config that must build it | the target it adds
# (a driver's header builds the driver's objects)
MAP='drivers/usb/gadget/udc/bcm63xx_udc.c c-cross-mips drivers/usb/gadget/udc/bcm63xx_udc.o
drivers/usb/gadget/udc/fsl_qe_udc.c c-cross-powerpc drivers/usb/gadget/udc/fsl_qe_udc.o
drivers/usb/gadget/udc/fsl_qe_udc.h c-cross-powerpc drivers/usb/gadget/udc/fsl_qe_udc.o
drivers/usb/gadget/udc/atmel_usba_udc.c c-cross-arm drivers/usb/gadget/udc/atmel_usba_udc.o
drivers/usb/gadget/udc/atmel_usba_udc.h c-cross-arm drivers/usb/gadget/udc/atmel_usba_udc.o
drivers/usb/gadget/udc/aspeed-vhub/core.c c-usb-drivers drivers/usb/gadget/udc/aspeed-vhub/core.o
drivers/usb/gadget/udc/aspeed-vhub/epn.c c-usb-drivers drivers/usb/gadget/udc/aspeed-vhub/epn.o
drivers/usb/gadget/udc/aspeed-vhub/vhub.h c-usb-drivers drivers/usb/gadget/udc/aspeed-vhub/
drivers/usb/gadget/udc/aspeed_udc.c c-usb-drivers drivers/usb/gadget/udc/aspeed_udc.o
drivers/usb/gadget/udc/lpc32xx_udc.c c-usb-drivers drivers/usb/gadget/udc/lpc32xx_udc.o
drivers/usb/renesas_usbhs/fifo.c c-usb-drivers drivers/usb/renesas_usbhs/fifo.o
drivers/usb/renesas_usbhs/fifo.h c-usb-drivers drivers/usb/renesas_usbhs/
drivers/block/amiflop.c c-cross-m68k drivers/block/amiflop.o
drivers/block/swim.c c-cross-m68k drivers/block/swim.o
drivers/block/swim_asm.S c-cross-m68k drivers/block/swim_asm.o
drivers/block/swim3.c c-binder drivers/block/swim3.o
drivers/char/tpm/tpm_ibmvtpm.c c-cross-powerpc64 drivers/char/tpm/tpm_ibmvtpm.o
drivers/char/tpm/tpm_ibmvtpm.h c-cross-powerpc64 drivers/char/tpm/tpm_ibmvtpm.o
drivers/char/tpm/tpm_tis.c c-binder drivers/char/tpm/tpm_tis.o
drivers/block/sunvdc.c c-cross-sparc64 drivers/block/sunvdc.o'
CROSS='c-cross-mips c-cross-powerpc c-cross-powerpc64 c-cross-m68k c-cross-arm c-cross-sparc64'

# the kseries-cross line of kernel/CONFIG.config: "ARCH PREFIX PACKAGE"
cross_line() { sed -n 's/^# kseries-cross:[[:space:]]*//p' "$SRC_DIR/kernel/$1.config"; }

# fakebin/: a stub of each cross gcc the fragments name
mkdir -p "$TRASH/fakebin"
for c in $CROSS; do
	set -- $(cross_line $c)
	test -n "${2:-}" && printf '#!/bin/sh\nexit 0\n' >"$TRASH/fakebin/${2}gcc" &&
		chmod +x "$TRASH/fakebin/${2}gcc"
done
WITH=$TRASH/fakebin:$PATH

# nocross/: links to every program in PATH but the cross compilers
mkdir -p "$TRASH/nocross"
(IFS=:
for d in $PATH; do
	for f in "$d"/*; do
		n=${f##*/}
		case $n in *-linux-gnu*-gcc*) continue ;; esac
		[ -x "$f" ] && [ ! -e "$TRASH/nocross/$n" ] && ln -s "$f" "$TRASH/nocross/$n"
	done
done)
WITHOUT=$TRASH/nocross

# series NAME FILE...: a one-patch-per-file series over the base
series() {
	local name=$1 f
	shift
	git -C work checkout -q -B "$name" v7.2.13 &&
	for f; do
		test_commit_file work "$f" "int b;" "drivers: ${f##*/}" || return 1
	done &&
	test_series "$name" 1 "$STORE" &&
	git -C work format-patch -q --base=v7.2.13 -o "$STORE/series/$name/v1" v7.2.13..HEAD
}

# kstub/ with the tree's c-cross-* fragments (the stage reads them)
kstub_fragments() {
	cp "$SRC_DIR"/kernel/c-cross-*.config "$TRASH/kstub/"
}

test_expect_success 'setup: a base with every mapped file, the fragments beside the stubs' '
	git init -q -b master "$BASE" &&
	echo "$MAP" | while read -r f c o; do
		test_commit_file "$BASE" $f "int a;" "add $f" || exit 1
	done &&
	git -C "$BASE" tag v7.2.13 &&
	mkdir -p "$STORE/series" && test_stub_kernel && kstub_fragments &&
	git clone -q "$BASE" work &&
	series all $(echo "$MAP" | cut -d" " -f1) &&
	series mips drivers/usb/gadget/udc/bcm63xx_udc.c &&
	series mixed drivers/usb/gadget/udc/bcm63xx_udc.c drivers/usb/gadget/udc/lpc32xx_udc.c
'

test_expect_success 'fragments: one kseries-base and one kseries-cross line each, the package in ci/setup, the names the table uses' '
	for c in $CROSS; do
		F=$SRC_DIR/kernel/$c.config &&
		test "$(grep -c "^# kseries-base: tinyconfig$" "$F")" = 1 &&
		test "$(grep -c "^# kseries-cross: " "$F")" = 1 &&
		set -- $(cross_line $c) && test $# = 3 &&
		test "$3" = "gcc-${2%-}" &&
		grep -qw -- "$3" "$SRC_DIR/ci/setup" || { echo "$c: $*"; exit 1; }
	done &&
	ls "$SRC_DIR"/kernel/c-cross-*.config | sed "s|.*/||; s|\.config$||" | sort >have &&
	printf "%s\n" $CROSS | sort >want &&
	test_cmp want have
'

test_expect_success 'build: every touched file with the config that compiles it, each config its own objects' '
	PATH=$WITH stub_check all --stage build >out 2>err &&
	cat out &&
	# eight configs (c-binder, c-usb-drivers, six cross), 20 patches
	grep " build .*pass.*160 builds (c-binder, c-usb-drivers, c-cross-mips, c-cross-powerpc, c-cross-powerpc64, c-cross-m68k, c-cross-arm, c-cross-sparc64; every patch)" out &&
	echo "$MAP" | while read -r f c o; do
		grep -q "^kbuild .* $c [^ ]* .*$o\( \|$\)" ran || { echo "$o not built with $c"; exit 1; }
		grep " $o\( \|$\)" ran | grep -v " $c " && { echo "$o built with another config"; exit 1; }
		:
	done &&
	test "$(grep -c "^kbuild " ran)" = 160 &&
	# each target once in a build
	grep "^kbuild .* c-cross-arm " ran | head -n 1 | tr " " "\n" | grep -c "atmel_usba_udc.o" >n &&
	echo 1 >want && test_cmp want n
'

test_expect_success 'no cross gcc in PATH: skipped naming the package, not cached, kbuild not run' '
	PATH=$WITHOUT stub_check mips --stage build >out 2>err &&
	cat out &&
	grep " build .*skip.*drivers/usb/gadget/udc/bcm63xx_udc.c (depends on BCM63XX (MIPS)): mips-linux-gnu-gcc is not installed (Debian package gcc-mips-linux-gnu)" out &&
	grep "not cached" out &&
	test ! -e ran &&
	test ! -e "$KSERIES_CACHE/results/mips/v1/build.json" &&
	PATH=$WITHOUT stub_check mips --stage build --json >json 2>err &&
	python3 -c "
import json
s = [x for x in json.load(open(\"json\"))[0][\"stages\"] if x[\"stage\"] == \"build\"][0]
assert s[\"status\"] == \"skip\" and s[\"missing\"] == \"mips-linux-gnu-gcc\" and not s[\"cached\"], s
"
'

test_expect_success 'the cross gcc installed: the next check builds it, not the answer of before' '
	PATH=$WITH stub_check mips --stage build >out 2>err &&
	cat out &&
	grep " build .*pass.*1 builds (c-cross-mips; every patch)" out &&
	! grep "(cached)" out &&
	grep "^kbuild .* c-cross-mips [^ ]* drivers/usb/gadget/udc/bcm63xx_udc.o$" ran
'

test_expect_success 'a buildable file too: built, the other named, and that result not cached' '
	PATH=$WITHOUT stub_check mixed --stage build >out 2>err &&
	cat out &&
	grep " build .*pass.*(c-usb-drivers; every patch); not built: drivers/usb/gadget/udc/bcm63xx_udc.c (depends on BCM63XX (MIPS)): mips-linux-gnu-gcc is not installed (Debian package gcc-mips-linux-gnu)" out &&
	grep "^kbuild .* c-usb-drivers .*lpc32xx_udc.o" ran &&
	! grep c-cross-mips ran &&
	test ! -e "$KSERIES_CACHE/results/mixed/v1/build.json" &&
	PATH=$WITH stub_check mixed --stage build >out 2>err &&
	grep " build .*pass.*(c-usb-drivers, c-cross-mips; every patch)$" out &&
	grep "^kbuild .* c-cross-mips .*bcm63xx_udc.o" ran &&
	test -e "$KSERIES_CACHE/results/mixed/v1/build.json"
'

# hostile LINE: c-cross-mips.config with LINE as its kseries-cross line
hostile() {
	kstub_fragments &&
	sed "s|^# kseries-cross:.*|$1|" "$SRC_DIR/kernel/c-cross-mips.config" >"$TRASH/kstub/c-cross-mips.config" &&
	rm -rf "$KSERIES_CACHE/results/mips" &&
	test_expect_code 1 env PATH="$WITH" KSERIES_KERNEL_DIR="$TRASH/kstub" \
		KSERIES_COCCI_DIR="$TRASH/cstub" "$KSERIES" check mips --stage build >out 2>err
}

test_expect_success 'a bad kseries-cross line fails the stage with one line, nothing built' '
	while IFS="|" read -r line want; do
		rm -f ran &&
		hostile "$line" &&
		grep " build .*fail.*$want" out || { echo "not refused: $line"; cat out; exit 1; }
		test ! -e ran || { echo "built with: $line"; exit 1; }
	done <<-\EOF
	# kseries-cross: mips /tmp/evil- gcc-mips-linux-gnu|bad CROSS_COMPILE .\/tmp\/evil-.
	# kseries-cross: mips ../mips-linux-gnu- gcc-mips-linux-gnu|bad CROSS_COMPILE .\.\.\/mips-linux-gnu-.
	# kseries-cross: mips mips-linux-gnu gcc-mips-linux-gnu|bad CROSS_COMPILE .mips-linux-gnu.
	# kseries-cross: mips -mips-linux-gnu- gcc-mips-linux-gnu|bad CROSS_COMPILE .-mips-linux-gnu-.
	# kseries-cross: mips mips--linux-gnu- gcc-mips-linux-gnu|bad CROSS_COMPILE .mips--linux-gnu-.
	# kseries-cross: mips mips-linux-gnu-;sh- gcc-mips-linux-gnu|bad CROSS_COMPILE .mips-linux-gnu-;sh-.
	# kseries-cross: ../mips mips-linux-gnu- gcc-mips-linux-gnu|bad ARCH .\.\.\/mips.
	# kseries-cross: MIPS mips-linux-gnu- gcc-mips-linux-gnu|bad ARCH .MIPS.
	# kseries-cross: mips mips-linux-gnu- gcc-mips$(id)|bad PACKAGE .gcc-mips\$(id).
	# kseries-cross: mips mips-linux-gnu- gcc-mips-linux-gnu extra|bad PACKAGE .gcc-mips-linux-gnu.
	# kseries-cross: mips mips-linux-gnu-|bad PACKAGE ..
	# kseries-cross:|bad ARCH ..
	# kseries-base: tinyconfig|has 0 .# kseries-cross: ARCH CROSS_COMPILE PACKAGE. lines: want one
	EOF
'

test_expect_success 'two kseries-cross lines, or no fragment: one line, nothing built' '
	kstub_fragments && rm -f ran &&
	cp "$SRC_DIR/kernel/c-cross-mips.config" "$TRASH/kstub/c-cross-mips.config" &&
	echo "# kseries-cross: mips mips-linux-gnu- gcc-mips-linux-gnu" >>"$TRASH/kstub/c-cross-mips.config" &&
	test_expect_code 1 env PATH="$WITH" KSERIES_KERNEL_DIR="$TRASH/kstub" \
		KSERIES_COCCI_DIR="$TRASH/cstub" "$KSERIES" check mips --stage build >out 2>err &&
	grep " build .*fail.*kernel/c-cross-mips.config has 2 .# kseries-cross" out &&
	rm "$TRASH/kstub/c-cross-mips.config" &&
	test_expect_code 1 env PATH="$WITH" KSERIES_KERNEL_DIR="$TRASH/kstub" \
		KSERIES_COCCI_DIR="$TRASH/cstub" "$KSERIES" check mips --stage build >out 2>err &&
	grep " build .*fail.*cannot read kernel/c-cross-mips.config" out &&
	test ! -e ran &&
	kstub_fragments
'

test_done
