# Sourced by the tests of a stored binder-alloc-spinlock version
# (t8102: v2, t8104: v3), after lib.sh, with VN the version number.
# The tests every version must pass: its mail form, its trailers, that
# it applies to the base, and checkpatch of it as format mails it.

VD=$SRC_DIR/series/binder-alloc-spinlock/v$VN
LINUX=$REAL_CACHE/linux

if git -C "$LINUX" rev-parse -q --verify v7.2.13^{commit} >/dev/null 2>&1; then
	test_set_prereq BASETREE
else
	SKIP_REASON="no base tree with tag v7.2.13 at $LINUX"
fi

test_expect_success "v$VN has a cover letter and five patches" '
	ls "$VD" >list &&
	grep -c "^000[0-5]-.*\.patch$" list >n &&
	echo 6 >expect &&
	test_cmp expect n
'

test_expect_success "subjects carry [RFC PATCH v$VN k/5]" '
	for f in "$VD"/000*.patch; do
		sed -n "s/^Subject: \(\[[^]]*\]\).*/\1/p" "$f"
	done >subjects &&
	for k in 0 1 2 3 4 5; do echo "[RFC PATCH v$VN $k/5]"; done >expect &&
	test_cmp expect subjects
'

test_expect_success 'the cover letter is filled in and names v1, whose Message-ID was reconstructed' '
	c="$VD/0000-cover-letter.patch" &&
	! grep -q "\*\*\* SUBJECT HERE \*\*\*" "$c" &&
	! grep -q "\*\*\* BLURB HERE \*\*\*" "$c" &&
	grep -q "^Changes in v$VN" "$c" &&
	grep -q "^- v1: \"\[RFC PATCH 0/1\] binder: switch alloc->mutex back to spinlock\"" "$c" &&
	! grep -q "seeds\.invalid" "$VD"/*.patch &&
	grep -q "^base-commit: 03cb39b3d0021994d97c4f11eb6a4a7d29c86047$" "$c" &&
	grep -q "^change-id: " "$c"
'

test_expect_success 'no stored sign-off but posted ones; the conversion keeps its author' '
	# the sender authors 1-4 (no From: stored) and signs every patch
	# off at format time; no placeholder identity is stored
	! grep -l -E "kseries\.invalid|@localhost>" "$VD"/*.patch &&
	for f in "$VD"/000[1-4]-*.patch; do
		! sed -n "1,/^$/p" "$f" | grep -q "^From: " &&
		! grep -q "^Signed-off-by: " "$f" || {
			echo "From: or sign-off stored in $f"; exit 1; }
	done &&
	p5=$(ls "$VD"/0005-*.patch) &&
	grep -q "^From: Bo Zhang <zhangbo56@xiaomi.com>$" "$p5" &&
	sed -n "/^Signed-off-by: Bo Zhang/,/^---$/p" "$p5" >chain &&
	head -n 2 chain | sed "s/:.*//" >keys &&
	printf "%s\n" "Signed-off-by" "[sender" >expect &&
	test_cmp expect keys &&
	tail -n 1 chain >last &&
	echo --- >expect &&
	test_cmp expect last &&
	! grep -q "^Co-developed-by:" "$p5"
'

test_expect_success 'Fixes: tags are in the kernel form' '
	grep -h "^Fixes:" "$VD"/000*.patch >fixes &&
	test_line_count = 2 fixes &&
	! grep -v -E "^Fixes: [0-9a-f]{12} \(\"[^\"]+\"\)$" fixes
'

test_expect_success BASETREE 'the series applies to v7.2.13, patch by patch' '
	# into a private index of the base tree: no checkout needed
	GIT_INDEX_FILE=$TRASH/index git -C "$LINUX" read-tree v7.2.13 &&
	for f in "$VD"/000[1-5]-*.patch; do
		GIT_INDEX_FILE=$TRASH/index git -C "$LINUX" apply --cached "$f" || {
			echo "does not apply: $f"; exit 1; }
	done &&
	GIT_INDEX_FILE=$TRASH/index git -C "$LINUX" diff --cached --stat v7.2.13 >stat &&
	grep -q "5 files changed" stat
'

test_expect_success BASETREE 'checkpatch --strict: no errors, only warnings about commits not in the base' '
	# each patch as format mails it: the sender authors the patches
	# stored without From: and signs off every one, last
	sender="Sam Sender <sam@example.org>" &&
	for f in "$VD"/000[1-5]-*.patch; do
		if sed -n "1,/^$/p" "$f" | grep -q "^From: "; then
			cat "$f"
		else
			sed "1a From: $sender" "$f"
		fi | git interpret-trailers --trailer "Signed-off-by: $sender" >mail &&
		"$LINUX/scripts/checkpatch.pl" --strict --no-tree -q mail >cp.out 2>&1 || :
		grep -E "^(ERROR|WARNING|CHECK):" cp.out | grep -v "Unknown commit id" >>bad || :
	done &&
	test_line_count = 0 bad
'

