#!/bin/bash
# kseries send against a real SMTP server on 127.0.0.1 (aiosmtpd, started
# and stopped here on a free port): the server receives exactly the mails
# send reports, from the sender of this scratch HOME, threaded; a refused
# recipient makes send exit 1 and records nothing; a real send records
# the version as posted.
test_description='kseries send: git send-email to a real SMTP server'
. "$(dirname "$0")/lib.sh"

. "$TEST_DIR/lib-smtp.sh"
send_test_env

test_expect_success SMTP 'setup: base tree, sender identity, two series' '
	git init -q -b master "$BASE" &&
	mkdir -p "$BASE/drivers/demo" &&
	echo "int a;" >"$BASE/drivers/demo/demo.c" &&
	git -C "$BASE" add . &&
	git -C "$BASE" commit -q -m base &&
	git -C "$BASE" tag v7.2.13 &&
	test_sender &&
	make_series two 2 &&
	make_series one 1 &&
	make_series bad 2
'

test_expect_success SMTP 'send: the server receives exactly the mails send reports' '
	start_sink "$TRASH/sink" &&
	kseries send two </dev/null >out 2>err &&
	stop_sink &&
	grep "^two v1: 3 of 3 mails sent$" out &&
	test "$(grep -c "^Result: 250" out)" = 3 &&
	ls "$TRASH/sink"/*.eml >got &&
	test_line_count = 3 got &&
	for f in "$TRASH/sink"/*.eml; do
		grep "^From: Sam Sender <sam@example.org>" "$f" &&
		grep "^Message-Id: <.*@example.org>" "$f" &&
		! grep -i "localhost\|\.invalid" "$f" || exit 1
	done &&
	for e in "$TRASH/sink"/*.env; do
		printf "%s\n" "MAIL FROM:<sam@example.org>" "RCPT TO:<list@example.org>" \
			"RCPT TO:<rex@example.org>" >want.env &&
		test_cmp want.env "$e" || exit 1
	done &&
	grep "^Subject: \[PATCH 0/2\] demo: add two" "$TRASH/sink/1.eml" &&
	grep "^Subject: \[PATCH 1/2\] demo: add two 1" "$TRASH/sink/2.eml" &&
	cover=$(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$TRASH/sink/1.eml") &&
	grep "^In-Reply-To: <$cover>" "$TRASH/sink/2.eml" &&
	grep "^In-Reply-To: <$cover>" "$TRASH/sink/3.eml" &&
	grep "Signed-off-by: Sam Sender <sam@example.org>" "$TRASH/sink/2.eml"
'

test_expect_success SMTP 'a real send records the version as posted' '
	conf=$STORE/series/two/series.conf &&
	cover=$(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$TRASH/sink/1.eml") &&
	test "$(git config -f "$conf" version.1.message-id)" = "$cover" &&
	test "$(git config -f "$conf" version.1.origin)" = posted &&
	git config -f "$conf" version.1.date >date &&
	test -s date
'

test_expect_success SMTP 'a single patch goes alone, without a cover letter' '
	start_sink "$TRASH/sink1" &&
	kseries send one </dev/null >out 2>err &&
	stop_sink &&
	grep "^one v1: 1 of 1 mails sent$" out &&
	ls "$TRASH/sink1"/*.eml >got &&
	test_line_count = 1 got &&
	grep "^Subject: \[PATCH\] demo: add one 1$" "$TRASH/sink1/1.eml" &&
	id=$(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$TRASH/sink1/1.eml") &&
	test "$(git config -f "$STORE/series/one/series.conf" version.1.message-id)" = "$id"
'

test_expect_success SMTP 'a refused recipient: send exits 1 and records nothing' '
	start_sink "$TRASH/sink2" rex@example.org &&
	test_expect_code 1 kseries send bad </dev/null >out 2>err &&
	stop_sink &&
	grep "kseries: error: git send-email failed: 0 of 3 mails accepted" err &&
	! ls "$TRASH/sink2"/*.eml 2>/dev/null &&
	test_must_fail git config -f "$STORE/series/bad/series.conf" version.1.message-id &&
	test "$(git config -f "$STORE/series/bad/series.conf" version.1.origin)" = ours
'

test_expect_success SMTP '--dry-run sends nothing and records nothing' '
	start_sink "$TRASH/sink3" &&
	kseries send bad --dry-run </dev/null >out 2>err &&
	stop_sink &&
	grep "^bad v1: 3 of 3 mails would be sent$" out &&
	! ls "$TRASH/sink3"/*.eml 2>/dev/null &&
	test_must_fail git config -f "$STORE/series/bad/series.conf" version.1.message-id
'

test_expect_success SMTP 'no sender identity: one error line, exit 1, nothing sent' '
	start_sink "$TRASH/sink4" &&
	git config --global --unset user.email &&
	test_expect_code 1 kseries send bad </dev/null >out 2>err &&
	git config --global user.email dev@kseries.invalid &&
	test_expect_code 1 kseries send bad </dev/null >out2 2>err2 &&
	git config --global user.email sam@example.org &&
	stop_sink &&
	test_line_count = 1 err &&
	grep "no sender identity" err &&
	test_line_count = 1 err2 &&
	grep "is a placeholder" err2 &&
	! ls "$TRASH/sink4"/*.eml 2>/dev/null
'

test_done
