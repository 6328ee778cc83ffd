#!/bin/bash
# kseries format and the sender's identity (DESIGN.md §6), on a small
# synthetic base tree under a scratch HOME: the sender is sendemail.from,
# else user.name/user.email of the user's configuration (never the base
# repository's); it writes the cover, authors its own patches and those
# of a placeholder author, names the Message-Ids and signs off every
# patch at format time; Assisted-by comes from version.N.assisted-by; a
# record is never mailed; one patch goes without a cover.
test_description='kseries format: the sender everywhere it belongs'
. "$(dirname "$0")/lib.sh"

test_synthetic_env
SAM='Sam Sender <sam@example.org>'

# commit AUTHOR-NAME AUTHOR-EMAIL TEXT SUBJECT [TRAILER]
commit() {
	echo "$3" >>"$TRASH/work/drivers/demo/demo.c" &&
	git -C "$TRASH/work" add . &&
	GIT_AUTHOR_NAME="$1" GIT_AUTHOR_EMAIL="$2" git -C "$TRASH/work" commit -q -F - <<-EOF
	$4

	Why: $3.
	${5:+
$5}
	EOF
}

# version NAME N [cover]: v7.2.13..HEAD of the work repo as version N
version() {
	local d=$STORE/series/$1/v$2
	mkdir -p "$d" &&
	git -C "$TRASH/work" format-patch -q ${3:+--cover-letter} --base=v7.2.13 \
		-o "$d" v7.2.13..HEAD &&
	git config -f "$STORE/series/$1/series.conf" series.title "demo: $1" &&
	git config -f "$STORE/series/$1/series.conf" series.to "Demo List <list@example.org>" &&
	git config -f "$STORE/series/$1/series.conf" "version.$2.origin" ours
}

test_expect_success 'setup: base, a series of three patches, one of one' '
	git init -q -b master "$BASE" &&
	mkdir -p "$BASE/drivers/demo" &&
	echo "int a;" >"$BASE/drivers/demo/demo.c" &&
	git -C "$BASE" add . &&
	git -C "$BASE" commit -q -m base &&
	git -C "$BASE" tag v7.2.13 &&
	git clone -q "$BASE" "$TRASH/work" &&
	git -C "$TRASH/work" checkout -q -b three v7.2.13 &&
	commit "Kseries Developers" dev@kseries.invalid "int b;" "demo: add b" \
		"Signed-off-by: Kseries Developers <dev@kseries.invalid>" &&
	commit "Ann Author" ann@example.org "int c;" "demo: add c" \
		"Signed-off-by: Ann Author <ann@example.org>" &&
	commit "Sam Sender" sam@example.org "int d;" "demo: add d" &&
	version three 1 cover &&
	sed -i -e "s/\*\*\* SUBJECT HERE \*\*\*/demo: add b, c, d/" \
		-e "s/\*\*\* BLURB HERE \*\*\*/Three lines./" \
		"$STORE/series/three/v1/0000-cover-letter.patch" &&
	git -C "$TRASH/work" checkout -q -b one v7.2.13 &&
	commit "Sam Sender" sam@example.org "int e;" "demo: add e" &&
	version one 1 cover &&
	sed -i -e "s/\*\*\* SUBJECT HERE \*\*\*/demo: add e/" \
		-e "s/\*\*\* BLURB HERE \*\*\*/Why e, in the cover./" \
		"$STORE/series/one/v1/0000-cover-letter.patch" &&
	# the base repository has an identity of its own (as provision-base
	# gives it): it must never be the sender
	git -C "$BASE" config user.name "Work Bench" &&
	git -C "$BASE" config user.email bench@example.org
'

test_expect_success 'no identity: one error line, exit 1, nothing written' '
	test_expect_code 1 kseries format three -o out0 2>err &&
	test_line_count = 1 err &&
	grep "no sender identity" err &&
	! test -e out0
'

test_expect_success 'a placeholder identity is refused the same way' '
	git config --global user.name "Kseries Developers" &&
	git config --global user.email dev@kseries.invalid &&
	test_expect_code 1 kseries format three -o out0 2>err &&
	test_line_count = 1 err &&
	grep "is a placeholder" err &&
	git config --global user.email me@localhost &&
	test_expect_code 1 kseries format three -o out0 2>err &&
	grep "is a placeholder" err &&
	! test -e out0
'

test_expect_success 'the sender is in every header and sign-off it belongs in' '
	test_sender &&
	kseries format three -o out1 >written &&
	test_line_count = 4 written &&
	grep "^From: $SAM$" out1/0000-cover-letter.patch &&
	grep "^From: $SAM$" out1/0001-demo-add-b.patch &&
	grep "^From: Ann Author <ann@example.org>$" out1/0002-demo-add-c.patch &&
	grep "^From: $SAM$" out1/0003-demo-add-d.patch &&
	for f in out1/*.patch; do
		grep "^Message-Id: <.*\.git\.sam@example\.org>$" "$f" || exit 1
	done &&
	! grep -i "localhost\|\.invalid\|Work Bench\|bench@" out1/*.patch
'

test_expect_success 'every patch ends with the sender'"'"'s sign-off, once' '
	for f in out1/000[123]-*.patch; do
		sed -n "/^$/,/^---$/p" "$f" | grep "^[A-Za-z-]*: " >t &&
		tail -n 1 t >last &&
		echo "Signed-off-by: $SAM" >want &&
		test_cmp want last &&
		test "$(grep -c "^Signed-off-by: $SAM$" t)" = 1 || exit 1
	done &&
	sed -n "/^$/,/^---$/p" out1/0002-demo-add-c.patch | grep "^Signed-off-by:" >sobs &&
	printf "%s\n" "Signed-off-by: Ann Author <ann@example.org>" "Signed-off-by: $SAM" >want &&
	test_cmp want sobs
'

test_expect_success 'the mails round-trip through git am' '
	rm -rf am && git clone -q "$BASE" am &&
	git -C am am -q "$TRASH"/out1/000[123]-*.patch &&
	git -C am log --reverse --format="%an <%ae>" v7.2.13..HEAD >authors &&
	printf "%s\n" "$SAM" "Ann Author <ann@example.org>" "$SAM" >want &&
	test_cmp want authors
'

test_expect_success 'sendemail.from wins over user.name/user.email' '
	git config --global sendemail.from "Sue From <sue@example.com>" &&
	kseries format three -o out2 >/dev/null &&
	git config --global --unset sendemail.from &&
	grep "^From: Sue From <sue@example.com>$" out2/0000-cover-letter.patch &&
	grep "^Message-Id: <.*@example\.com>$" out2/0001-demo-add-b.patch &&
	grep "^Signed-off-by: Sue From <sue@example.com>$" out2/0003-demo-add-d.patch
'

test_expect_success 'Assisted-by from version.N.assisted-by, just above the sign-off' '
	conf=$STORE/series/three/series.conf &&
	git config -f "$conf" version.1.assisted-by "Claude:claude-opus-4 coccinelle sparse" &&
	kseries format three -o out3 >/dev/null &&
	for f in out3/000[123]-*.patch; do
		sed -n "/^$/,/^---$/p" "$f" | grep "^[A-Za-z-]*: " | tail -n 2 >t &&
		printf "%s\n" "Assisted-by: Claude:claude-opus-4 coccinelle sparse" \
			"Signed-off-by: $SAM" >want &&
		test_cmp want t || exit 1
	done &&
	git config -f "$conf" version.1.assisted-by "Claude with sparse" &&
	test_expect_code 1 kseries format three -o out3b 2>err &&
	test_line_count = 1 err &&
	grep "AGENT_NAME:MODEL_VERSION" err &&
	! test -e out3b &&
	git config -f "$conf" --unset version.1.assisted-by
'

test_expect_success 'one patch goes without a cover; the cover text goes below ---' '
	kseries format one -o out4 >written &&
	test_line_count = 1 written &&
	! test -e out4/0000-cover-letter.patch &&
	grep "^Subject: \[PATCH\] demo: add e$" out4/0001-demo-add-e.patch &&
	sed -n "/^---$/,/^ drivers/p" out4/0001-demo-add-e.patch >notes &&
	grep "^Why e, in the cover.$" notes
'

test_expect_success 'a reconstructed version is a record: format and send refuse it' '
	conf=$STORE/series/three/series.conf &&
	git config -f "$conf" version.1.origin reconstructed &&
	test_expect_code 1 kseries format three -o out5 2>err &&
	test_line_count = 1 err &&
	grep "reconstructed record" err &&
	! test -e out5 &&
	test_expect_code 1 kseries send three --dry-run </dev/null >out 2>err &&
	test_line_count = 1 err &&
	grep "reconstructed record" err &&
	git config -f "$conf" version.1.origin posted &&
	git config -f "$conf" version.1.message-id "20260101.1-ann@seeds.invalid" &&
	test_expect_code 1 kseries format three -o out5 2>err &&
	grep "Message-ID <20260101.1-ann@seeds.invalid> was reconstructed" err &&
	git config -f "$conf" version.1.message-id "v1-cover@example.org" &&
	git config -f "$conf" version.1.reconstructed "Message-ID To Cc" &&
	test_expect_code 1 kseries format three -o out5 2>err &&
	grep "was reconstructed, not posted" err &&
	! test -e out5
'

test_expect_success 'v2 never threads under a reconstructed Message-ID' '
	commit "Sam Sender" sam@example.org "int f;" "demo: add f" &&
	git -C "$TRASH/work" checkout -q three &&
	commit "Sam Sender" sam@example.org "int g;" "demo: add g" &&
	version three 2 cover &&
	kseries format three@v2 -o out6 -v 2>err >/dev/null &&
	! grep "^In-Reply-To:" out6/0000-cover-letter.patch &&
	! grep "v1-cover@example.org" out6/*.patch &&
	grep "not threaded under v1" err &&
	git config -f "$STORE/series/three/series.conf" --unset version.1.reconstructed &&
	kseries format three@v2 -o out7 >/dev/null &&
	grep "^In-Reply-To: <v1-cover@example.org>$" out7/0000-cover-letter.patch
'

test_done
