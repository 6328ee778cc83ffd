#!/bin/bash
# kseries send --b4 against a real SMTP server on 127.0.0.1: the real b4
# (b4 send, with the scratch HOME's sendemail settings) sends the b4 prep
# branch, and the version is recorded as posted from what b4 reports and
# records (the cover's Message-ID in its tracking data, the date of its
# sent/NAME-vN tag), never from the mails we formatted. b4 failing (the
# server down) records nothing: exit 1 and one error line.
test_description='kseries send --b4: b4 send to a real SMTP server'
. "$(dirname "$0")/lib.sh"

. "$TEST_DIR/lib-smtp.sh"
send_test_env
if test_have_prereq SMTP && command -v b4 >/dev/null &&
   /usr/bin/python3 -c 'import git_filter_repo' 2>/dev/null; then
	test_set_prereq B4
else
	SKIP_REASON='no b4, git-filter-repo or python3-aiosmtpd'
fi

msgid() { sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$1"; }

test_expect_success B4 'setup: base tree, sender identity, two series' '
	git init -q -b master "$BASE" &&
	mkdir -p "$BASE/drivers/demo" &&
	echo "int a;" >"$BASE/drivers/demo/demo.c" &&
	git -C "$BASE" add . &&
	git -C "$BASE" commit -q -m base &&
	git -C "$BASE" tag v7.2.13 &&
	test_sender &&
	make_series two 2 &&
	make_series down 2
'

test_expect_success B4 'send --b4: b4 sends the branch, the server receives it' '
	start_sink "$TRASH/sink" &&
	kseries send two --b4 --no-sign -w "$TRASH/k" </dev/null >out 2>err &&
	stop_sink &&
	cat out err &&
	grep "^Sent 3 messages$" out &&
	grep "^two v1: 3 of 3 mails sent (b4)$" out &&
	ls "$TRASH/sink"/*.eml >got &&
	test_line_count = 3 got &&
	for f in "$TRASH/sink"/*.eml; do
		grep "^From: Sam Sender <sam@example.org>" "$f" &&
		grep "^X-Mailer: b4 " "$f" || exit 1
	done &&
	grep "^Subject: \[PATCH 0/2\] demo: add two" "$TRASH/sink/1.eml" &&
	grep "^Subject: \[PATCH 2/2\] demo: add two 2" "$TRASH/sink/3.eml" &&
	grep "RCPT TO:<list@example.org>" "$TRASH/sink/1.env" &&
	grep "RCPT TO:<rex@example.org>" "$TRASH/sink/1.env"
'

test_expect_success B4 'the version is recorded from what b4 recorded' '
	conf=$STORE/series/two/series.conf &&
	cover=$(msgid "$TRASH/sink/1.eml") &&
	test -n "$cover" &&
	test "$(git config -f "$conf" version.1.message-id)" = "$cover" &&
	test "$(git config -f "$conf" version.1.origin)" = posted &&
	grep -x "two v1 recorded as posted: <$cover>" out &&
	# b4 named the cover (its own Message-ID form, not format'"'"'s) and
	# tagged the send; the date is the tag'"'"'s
	c=$(git -C "$BASE" rev-list --reverse v7.2.13..b4/two | head -n 1) &&
	git -C "$BASE" log -1 --format=%B "$c" >cover.msg &&
	grep "\"v1\": \[" -A1 cover.msg | grep -F "\"$cover\"" &&
	git -C "$BASE" for-each-ref --format="%(taggerdate:rfc2822)" \
		refs/tags/sent/two-v1 >date.want &&
	test -s date.want &&
	git config -f "$conf" version.1.date >date.got &&
	test_cmp date.want date.got &&
	kseries format two -o fmt >/dev/null &&
	test "$(msgid fmt/0000-cover-letter.patch)" != "$cover"
'

test_expect_success B4 'the same version again: refused before anything is sent' '
	start_sink "$TRASH/sink2" &&
	cp "$STORE/series/two/series.conf" conf.before &&
	test_expect_code 1 kseries send two --b4 --no-sign -w "$TRASH/k" \
		</dev/null >out 2>err &&
	stop_sink &&
	test_line_count = 1 err &&
	grep "kseries: error: tag sent/two-v1 exists" err &&
	! ls "$TRASH/sink2"/*.eml 2>/dev/null &&
	test_cmp conf.before "$STORE/series/two/series.conf"
'

test_expect_success B4 'the server down: b4 fails, one error line, nothing recorded' '
	git config --global sendemail.smtpServer 127.0.0.1 &&
	git config --global sendemail.smtpServerPort "$(free_port)" &&
	cp "$STORE/series/down/series.conf" conf.before &&
	test_expect_code 1 kseries send down --b4 --no-sign -w "$TRASH/k2" \
		</dev/null >out 2>err &&
	cat err &&
	test_line_count = 1 err &&
	grep "^kseries: error: b4 send failed (exit 1): .*[Cc]onnection refused" err &&
	test_cmp conf.before "$STORE/series/down/series.conf" &&
	test_must_fail git -C "$BASE" rev-parse -q --verify refs/tags/sent/down-v1
'

test_expect_success B4 'send --b4 --dry-run: b4 says what it would send, nothing recorded' '
	start_sink "$TRASH/sink3" &&
	cp "$STORE/series/down/series.conf" conf.before &&
	kseries send down --b4 --dry-run --no-sign -w "$TRASH/k2" \
		</dev/null >out 2>err &&
	stop_sink &&
	grep "^DRYRUN: Would have sent 3 messages$" out &&
	grep "^down v1: 3 of 3 mails would be sent (b4)$" out &&
	! ls "$TRASH/sink3"/*.eml 2>/dev/null &&
	test_cmp conf.before "$STORE/series/down/series.conf"
'

test_done
