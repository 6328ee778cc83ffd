#!/bin/bash
# The series made from the real bugs of the drivers/usb triage
# (cocci/TRIAGE.md): each is one patch for one file, stored without a
# From: or a sign-off (the sender adds theirs at format time), with the
# Fixes: id verified for it, and it applies to the base's file and
# removes the finding that run-sleep-check reports there. No kernel
# build: the build and cocci stages of `kseries check` are run by hand
# (each series' NOTES has their verdicts).
test_description='usb triage series: one patch each, no sign-off, applies, the finding gone'
. "$(dirname "$0")/lib.sh"

if command -v "${SPATCH:-spatch}" >/dev/null 2>&1 || test -n "${SPATCH:-}"; then
	test_set_prereq SPATCH
fi

# series | touched file | the finding on the base (a fixed string) |
# Fixes: id (empty: none verified, so none in the patch)
SERIES='usb-max3420-remove-kthread-stop|drivers/usb/gadget/udc/max3420_udc.c|sleeping call '\''kthread_stop'\'' while holding '\''udc->lock'\''|48ba02b2e2b1
usb-max3421-remove-kthread-stop|drivers/usb/host/max3421-hcd.c|sleeping call '\''kthread_stop'\'' while holding '\''max3421_hcd->lock'\''|2d53139f3162
usb-fotg210-udc-stop-delay|drivers/usb/fotg210/fotg210-udc.c|sleeping call '\''fotg210_init'\'' while holding '\''fotg210->lock'\''|c5d4297f0c20
usb-bcm63xx-udc-stop-msleep|drivers/usb/gadget/udc/bcm63xx_udc.c|sleeping call '\''msleep'\'' while holding '\''udc->lock'\''|613065e53cb1
usb-fsl_qe-getstatus-atomic|drivers/usb/gadget/udc/fsl_qe_udc.c|sleeping call '\''rx_irq'\'' while holding '\''udc->lock'\''|
usb-chipidea-bounce-atomic|drivers/usb/chipidea/udc.c|sleeping call '\''_ep_queue'\'' while holding '\''hwep->lock'\''|'

each() {
	local name file finding fixes
	while IFS='|' read -r name file finding fixes; do
		"$@" "$name" "$file" "$finding" "$fixes" || {
			echo "$name: failed"
			return 1
		}
	done <<<"$SERIES"
}

conf_shape() {
	local conf=$SRC_DIR/series/$1/series.conf
	test "$(git config -f "$conf" series.base)" = v7.2.13 &&
	test "$(git config -f "$conf" version.1.origin)" = ours &&
	git config -f "$conf" version.1.assisted-by | grep -q "^Claude:" &&
	test -z "$(git config -f "$conf" version.1.author)" &&
	test -z "$(git config -f "$conf" version.1.message-id)" &&
	git config -f "$conf" --get-all series.cc | grep -qx "linux-usb@vger.kernel.org"
}

test_expect_success 'series.conf: ours, assisted, no stored author, not sent, linux-usb' '
	each conf_shape
'

mail_shape() {
	local vd=$SRC_DIR/series/$1/v1 p cid
	ls "$vd" >list &&
	test "$(wc -l <list)" = 2 &&
	grep -q "^0000-cover-letter.patch$" list &&
	p=$(ls "$vd"/0001-*.patch) &&
	grep "^diff --git " "$p" >diffs &&
	echo "diff --git a/$2 b/$2" >expect &&
	test_cmp expect diffs &&
	for f in "$vd"/*.patch; do
		! sed -n "1,/^$/p" "$f" | grep -q "^From: " &&
		! grep -q "^Signed-off-by:" "$f" || {
			echo "From: or a sign-off stored in $f"
			return 1
		}
	done &&
	{ grep "^Fixes: " "$p" >fixes || true; } &&
	if test -n "$4"; then
		test "$(wc -l <fixes)" = 1 &&
		grep -q "^Fixes: $4 (\"" fixes
	else
		test ! -s fixes
	fi &&
	tr "\n" " " <"$p" | grep -q "Coccinelle sleep-in-atomic *check; compile-tested only" &&
	cid=$(git config -f "$SRC_DIR/series/$1/series.conf" series.change-id) &&
	grep -qx "change-id: $cid" "$vd/0000-cover-letter.patch" &&
	grep -qx "base-commit: 03cb39b3d0021994d97c4f11eb6a4a7d29c86047" "$vd/0000-cover-letter.patch"
}

test_expect_success 'v1: a cover and one patch for one file, no From: or sign-off, the verified Fixes: id only' '
	each mail_shape
'

# before/NAME/FILE: the base's file; after/NAME/FILE: with the patch
applied() {
	mkdir -p "before/$1/$(dirname "$2")" &&
	git -C "$KSERIES_TREE" show "v7.2.13:$2" >"before/$1/$2" &&
	rm -rf "after/$1" && mkdir -p after && cp -R "before/$1" "after/$1" &&
	(cd "after/$1" && git apply --check "$SRC_DIR/series/$1/v1"/0001-*.patch &&
	 git apply "$SRC_DIR/series/$1/v1"/0001-*.patch) &&
	! cmp -s "before/$1/$2" "after/$1/$2"
}

test_expect_success TREE 'each patch applies to its file at v7.2.13' '
	each applied
'

# The rules report the finding on the base's file and nothing in the
# patched one (the file alone: these findings need no other file).
finding_gone() {
	local rc
	(cd "before/$1" && "$SRC_DIR/cocci/run-sleep-check" --cache "" "$2") >"$1.before"
	rc=$?
	test $rc = 1 || { echo "$1: base exit $rc"; cat "$1.before"; return 1; }
	grep -F "$2:" "$1.before" | grep -qF "$3" || {
		echo "$1: not reported on the base"; cat "$1.before"; return 1; }
	(cd "after/$1" && "$SRC_DIR/cocci/run-sleep-check" --cache "" "$2") >"$1.after"
	rc=$?
	test $rc = 0 && test ! -s "$1.after" || {
		echo "$1: still reported (exit $rc)"; cat "$1.after"; return 1; }
}

test_expect_success TREE,SPATCH 'run-sleep-check: the finding on the base, none with the patch' '
	each finding_gone
'

test_done
