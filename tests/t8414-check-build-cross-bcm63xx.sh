#!/usr/bin/env bash
test_description='check: bcm63xx_udc.c really cross-compiled for MIPS, at the base and with its series'
. "$(dirname "$0")/lib.sh"

# A real cross build through kernel/kbuild in the workbench cache (the
# base tree, build/c-cross-mips, the check worktree): make test and make
# check-kernel run it. Cold, c-cross-mips costs its config, prepare and
# one object (kernel/README.md, "Cross builds", has the figure); warm, a
# compile of bcm63xx_udc.c per build. The series live in a store private
# to the test, under t8414-* names whose results are removed again.
SKIP_REASON=${SKIP_REASON_TREE:-"kernel builds: make test or make check-kernel"}
export KSERIES_CACHE=$REAL_CACHE
unset KSERIES_CHECK_WORKTREE
if PATH=/usr/local/bin:/usr/bin:/bin command -v mips-linux-gnu-gcc >/dev/null; then
	test_set_prereq MIPS_GCC
elif test_have_prereq TREE,WORKBENCH; then
	SKIP_REASON='no mips-linux-gnu-gcc (Debian package gcc-mips-linux-gnu; ci/setup installs it)'
fi
if test_have_prereq TREE,WORKBENCH; then
	rm -rf "$KSERIES_CACHE"/results/t8414-*
	trap 'rm -rf "$KSERIES_CACHE"/results/t8414-* "$TRASH"' EXIT
fi
F=drivers/usb/gadget/udc/bcm63xx_udc.c
B=$KSERIES_CACHE/build/c-cross-mips
WT=$KSERIES_CACHE/wt/kseries-check

# mips_object FILE: FILE is a 32-bit big-endian MIPS ELF object
mips_object() {
	od -An -tx1 -N20 "$1" | tr -s " \n" " " >hdr &&
	grep -q "^ 7f 45 4c 46 01 02 .* 00 01 00 08 $" hdr || { cat hdr; return 1; }
}

test_expect_success TREE,WORKBENCH,MIPS_GCC 'the base: bcm63xx_udc.o built with mips-linux-gnu-gcc in build/c-cross-mips' '
	mkdir -p "$KSERIES_CACHE/wt" &&
	t0=$(date +%s) &&
	# the check worktree, under its lock, as the build stage takes it
	flock "$WT.lock" sh -c "
		if [ -d \"$WT\" ]; then
			git -C \"$WT\" checkout --detach -q -f v7.2.13
		else
			git -C \"$KSERIES_TREE\" worktree add --detach -f \"$WT\" v7.2.13 >/dev/null 2>&1
		fi && \"$SRC_DIR/kernel/kbuild\" --log \"$TRASH/base.log\" c-cross-mips \"$WT\" ${F%.c}.o >/dev/null" 2>err ||
		{ cat err "$TRASH/base.log"; exit 1; }
	say "c-cross-mips at v7.2.13: $(($(date +%s) - t0))s" >&4 &&
	grep -q "kbuild: c-cross-mips: ok" err &&
	grep -qx "+ make ${F%.c}.o" base.log &&
	grep -q "^# kseries-cross: mips mips-linux-gnu- " "$B/.kseries-fragment" &&
	grep -qx "CONFIG_USB_BCM63XX_UDC=y" "$B/.config" &&
	grep -qx "# CONFIG_WERROR is not set" "$B/.config" &&
	mips_object "$B/${F%.c}.o" &&
	! grep -q "warning:" base.log
'

test_expect_success TREE,WORKBENCH,MIPS_GCC 'usb-bcm63xx-udc-stop-msleep: the build stage compiles its patch for MIPS and passes' '
	mkdir -p store/series &&
	cp -R "$SRC_DIR/series/usb-bcm63xx-udc-stop-msleep" store/series/t8414-bcm63xx &&
	cd store &&
	kseries check t8414-bcm63xx --stage build >out 2>err ||
		{ cat out err "$KSERIES_CACHE/results/t8414-bcm63xx/v1/build.log"; exit 1; }
	cat out &&
	grep "t8414-bcm63xx .* build  *pass .*1 builds (c-cross-mips; every patch)" out &&
	L=$KSERIES_CACHE/results/t8414-bcm63xx/v1/build.log &&
	grep -q "^== c-cross-mips 0001-.* (exit 0)" "$L" &&
	# the patched file compiled (its source changed since the base build)
	grep -q "^  CC      ${F%.c}.o$" "$L" &&
	! grep -q "warning:" "$L" &&
	mips_object "$B/${F%.c}.o"
'

test_expect_success TREE,WORKBENCH,MIPS_GCC 'a patch that does not compile for MIPS fails the stage at that patch, the error a finding' '
	test_series t8414-broken &&
	git -C "$KSERIES_TREE" show "v7.2.13:$F" >old.c &&
	sed "/^static void bcm63xx_udc_remove(/,/^}/ s|^\tbcm63xx_udc_cleanup_debugfs(udc);|&\n\tkseries_t8414_undefined();|" old.c >new.c &&
	! cmp -s old.c new.c &&
	test_patch_mail -a "A U Thor <author@example.invalid>" -d "Tue, 1 Dec 2026 10:00:00 +0000" \
		-b "A change for the cross build test." \
		store/series/t8414-broken/v1/0001-usb-gadget-bcm63xx_udc-break.patch \
		"[PATCH] usb: gadget: bcm63xx_udc: break" $F old.c new.c &&
	cd store &&
	test_expect_code 1 kseries check t8414-broken --stage build --json >json &&
	python3 -c "
import json, sys
s = [x for x in json.load(open(\"json\"))[0][\"stages\"] if x[\"stage\"] == \"build\"][0]
assert s[\"status\"] == \"fail\", s
f = [\"%s:%d: %s\" % (x[\"file\"], x[\"line\"], x[\"message\"]) for x in s[\"findings\"]]
print(\"\n\".join(f))
assert any(x.startswith(\"$F:\") and \"kseries_t8414_undefined\" in x for x in f), f
assert any(\"c-cross-mips: the build fails after this patch\" in x for x in f), f
" &&
	grep -q "^  CC      ${F%.c}.o$" "$KSERIES_CACHE/results/t8414-broken/v1/build.log"
'

test_done
