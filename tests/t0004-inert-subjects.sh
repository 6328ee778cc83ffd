#!/usr/bin/env bash
# Subjects are data: kseries runs no shell, so "$(...)", backticks and
# ";" in a patch subject or a series title are carried verbatim (RFC 2047
# encoded where needed), and file names are slugged as git does.
test_description='hostile subjects are inert text through import and format'
. "$(dirname "$0")/lib.sh"

test_synthetic_env
SOB='Signed-off-by: Kseries Developers <dev@kseries.invalid>'
# format needs a sender: this scratch HOME's own
test_sender
PWNED=/tmp/pwned-kseries-t0004
# shellcheck disable=SC2016
HOSTILE='binder: $(touch '$PWNED') `touch '$PWNED'-bt`; touch '$PWNED'-semi'
# shellcheck disable=SC2016
HOSTILE8='binder: naïve “quotes” $(id) `id`; id'

# subjects DIR: the decoded, unfolded Subject of each mail in DIR
subjects() {
	python3 -c '
import email, email.header, email.policy, sys
for p in sys.argv[1:]:
    m = email.message_from_binary_file(open(p, "rb"), policy=email.policy.default)
    print(str(m["Subject"]))
' "$1"/*.patch
}

no_pwned() { ! ls "$PWNED"* 2>/dev/null; }

test_expect_success 'setup: a base tree, a series whose subjects hold shell syntax' '
	rm -f "$PWNED"* &&
	git init -q -b master "$BASE" &&
	test_commit_file "$BASE" drivers/android/binder.c "int binder;" "Linux 7.2.13" &&
	git -C "$BASE" tag v7.2.13 &&
	mkdir -p "$STORE/series" &&
	git clone -q "$BASE" work &&
	git -C work checkout -q -b hostile v7.2.13 &&
	test_commit_file work drivers/android/binder.c "int a;" "$HOSTILE" &&
	test_commit_file work drivers/android/binder.c "int b;" "$HOSTILE8" &&
	git -C work format-patch -q --cover-letter -o "$TRASH/git-out" v7.2.13..HEAD &&
	mkdir -p "$STORE/series/hostile/v1" &&
	git -C work format-patch -q -o "$STORE/series/hostile/v1" v7.2.13..HEAD &&
	git config -f "$STORE/series/hostile/series.conf" series.title "binder: \$(touch $PWNED-title); \`id\`" &&
	no_pwned
'

test_expect_success 'format succeeds and runs nothing' '
	kseries format hostile@v1 --cover-letter -o out >written &&
	test_line_count = 3 written &&
	no_pwned
'

test_expect_success 'file names are slugged as git format-patch slugs them' '
	ls out >got &&
	ls "$TRASH/git-out" >want &&
	test_cmp want got
'

test_expect_success 'the subjects survive verbatim (RFC 2047 where needed)' '
	{
		echo "[PATCH 0/2] binder: \$(touch $PWNED-title); \`id\`" &&
		echo "[PATCH 1/2] $HOSTILE" &&
		echo "[PATCH 2/2] $HOSTILE8"
	} >want &&
	subjects out >got &&
	test_cmp want got &&
	grep -i "^Subject: .*=?UTF-8?" out/0002-*.patch &&
	grep -F "\$(touch $PWNED)" out/0001-*.patch
'

test_expect_success 'the mails round-trip through git am' '
	git clone -q "$BASE" am &&
	git -C am checkout -q --detach v7.2.13 &&
	git -C am am -q "$TRASH"/out/000[12]-*.patch &&
	git -C work log --reverse --format=%s v7.2.13..HEAD >want &&
	git -C am log --reverse --format=%s v7.2.13..HEAD >got &&
	test_cmp want got &&
	no_pwned
'

test_expect_success 'import stores the hostile subjects verbatim, runs nothing' '
	cat out/*.patch >thread.mbox &&
	kseries import again thread.mbox >/dev/null &&
	ls "$STORE/series/again/v1" >names &&
	! grep -v "^[-A-Za-z0-9._]*$" names &&
	echo "binder: \$(touch $PWNED-title); \`id\`" >want &&
	git config -f "$STORE/series/again/series.conf" series.title >got &&
	test_cmp want got &&
	subjects "$STORE/series/again/v1" | sed 1d >got &&
	subjects out | sed 1d >want &&
	test_cmp want got &&
	kseries show again >show &&
	no_pwned
'

test_expect_success 'subjects and diff paths that climb or are absolute write nothing outside' '
	touch marker &&
	sleep 1 &&
	for p in "../../../../escape-rel" "/tmp/kseries-t0004-escape-abs"; do
		cat <<-EOF
		From mboxrd@z Thu Jan  1 00:00:00 1970
		From: A U Thor <author@example.invalid>
		Date: Mon, 30 Nov 2026 10:00:00 +0000
		Subject: [PATCH] ../../../../escape-subject/\$(id)
		Message-ID: <esc-${#p}@x>

		climb

		Signed-off-by: A U Thor <author@example.invalid>
		---
		diff --git a/$p b/$p
		new file mode 100644
		--- /dev/null
		+++ b/$p
		@@ -0,0 +1 @@
		+x
		-- 
		2.39.5

		EOF
	done >climb.mbox &&
	awk "/^From mboxrd/ { n++ } n == 1" climb.mbox >climb1.mbox &&
	awk "/^From mboxrd/ { n++ } n == 2" climb.mbox >climb2.mbox &&
	kseries import climb1 climb1.mbox >/dev/null &&
	kseries import climb2 climb2.mbox >/dev/null &&
	kseries review extract climb.mbox --json >/dev/null &&
	{ kseries format climb1 -o climb-out 2>err || grep "^kseries: " err; } &&
	ls "$STORE/series/climb1/v1" "$STORE/series/climb2/v1" >names &&
	! grep "\.\./\|escape-subject/" names &&
	{ find "$TRASH" /tmp -maxdepth 6 -newer marker -name "escape-*" 2>/dev/null || :; } >found &&
	{ ! test -s found || { cat found; false; }; } &&
	! test -e /tmp/kseries-t0004-escape-abs
'

test_expect_success 'cleanup' 'rm -f "$PWNED"*'

test_done
