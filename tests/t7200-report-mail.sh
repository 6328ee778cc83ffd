#!/usr/bin/env bash
test_description='report: the check results as a reply mail to the posting'
. "$(dirname "$0")/lib.sh"

export KSERIES_CACHE=$TRASH/cache
unset KSERIES_LORE
BASE=03cb39b3d0021994d97c4f11eb6a4a7d29c86047

# result SERIES VERSION STAGE STATUS SUMMARY [FINDINGS-JSON]: a result as
# check writes it (check.h stage_result_to_json())
result() {
	local d=$KSERIES_CACHE/results/$1/v$2
	mkdir -p "$d"
	cat >"$d/$3.json" <<EOT
{"stage": "$3", "status": "$4", "summary": "$5", "findings": ${6:-[]},
 "log": "$d/$3.log", "seconds": 1.0, "cached": false, "missing": null,
 "key": "0123"}
EOT
}
# finding FILE LINE SEVERITY MESSAGE PATCH
finding() {
	printf '{"id": "x", "tool": "t", "file": "%s", "line": %d, "severity": "%s", "message": "%s", "patch": %d}' "$@"
}

# mail FILE MSGID SUBJECT [DIFF]: a posted mail as the store keeps it
mail() {
	cat >"$1" <<-EOT
	From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
	From: Pat Poster <pat@example.org>
	Date: Tue, 1 Dec 2026 10:00:00 +0000
	Subject: $3
	Message-ID: <$2>
	To: Mai Ntainer <mai@example.org>, Pat Poster <pat@example.org>
	Cc: linux-kernel@vger.kernel.org, Sam Sender <sam@example.org>

	The text.
	EOT
	if [ -n "${4:-}" ]; then
		printf -- '---\n%s\n' "$4" >>"$1"
	else
		printf -- '\nbase-commit: %s\n' "$BASE" >>"$1"
	fi
}

DIFF='diff --git a/drivers/x.c b/drivers/x.c
--- a/drivers/x.c
+++ b/drivers/x.c
@@ -1 +1 @@
-old
+new'

test_expect_success 'a store: alpha v1 posted and checked, v2 a draft; beta v1 a single patch' '
	test_sender &&
	d=store/series/alpha && mkdir -p $d/v1 $d/v2 store/series/beta/v1 &&
	git config -f $d/series.conf series.title "alpha: two patches" &&
	git config -f $d/series.conf series.base v7.2.13 &&
	git config -f $d/series.conf version.1.message-id "<cover-1@example.org>" &&
	git config -f $d/series.conf version.1.origin posted &&
	mail $d/v1/0000-cover-letter.patch cover-1@example.org "[PATCH 0/2] alpha: two patches" &&
	mail $d/v1/0001-one.patch p1@example.org "[PATCH 1/2] alpha: the first" "$DIFF" &&
	mail $d/v1/0002-two.patch p2@example.org "[PATCH 2/2] alpha: the second" "$DIFF" &&
	cp $d/v1/0001-one.patch $d/v2/ &&
	result alpha 1 apply pass "applied on $BASE" &&
	result alpha 1 format pass "3 patch mails" &&
	result alpha 1 checkpatch warn "1 warning" "[$(finding drivers/x.c 12 warning "line over 100 columns" 2)]" &&
	result alpha 1 build fail "1 error" "[$(finding drivers/x.c 3 error "implicit declaration of function foo" 1), $(finding drivers/x.c 3 note "in expansion of macro" 1)]" &&
	result alpha 1 sparse pass "no new warnings" &&
	result alpha 1 model fail "spin: counterexample" "[$(finding model/m.pml 40 error "assertion violated" 0)]" &&
	result alpha 1 feedback warn "1 comment still open" "[$(finding drivers/x.c 1 warning "REVIEW-COMMENT" 1)]" &&
	result alpha 2 format pass "a draft" &&
	b=store/series/beta &&
	git config -f $b/series.conf series.title "beta" &&
	git config -f $b/series.conf version.1.message-id "single-1@example.org" &&
	mail $b/v1/0001-beta.patch single-1@example.org "[PATCH] beta: Ünïcode, and \$(rm -rf) <b>" "$DIFF" &&
	result beta 1 checkpatch pass "clean" &&
	git config -f $b/series.conf version.2.message-id "made-up@seeds.invalid" &&
	mkdir $b/v2 && cp $b/v1/0001-beta.patch $b/v2/ && result beta 2 checkpatch pass "clean"
'

test_expect_success 'report writes one mbox message and names it' '
	cd store &&
	kseries report alpha@v1 -o ../out >path &&
	echo "../out/alpha-v1-report.mbox" >expect && test_cmp expect path &&
	test "$(grep -c "^From " ../out/alpha-v1-report.mbox)" = 1
'

test_expect_success 'the reply threads under the cover, to the author and the list' '
	m=out/alpha-v1-report.mbox &&
	sed -n "/^$/q;p" $m >hdr &&
	grep -x "From: Sam Sender <sam@example.org>" hdr &&
	grep -x "To: Pat Poster <pat@example.org>" hdr &&
	grep -x "Cc: Mai Ntainer <mai@example.org>, linux-kernel@vger.kernel.org" hdr &&
	grep -x "Subject: Re: \[PATCH 0/2\] alpha: two patches" hdr &&
	grep -x "In-Reply-To: <cover-1@example.org>" hdr &&
	grep -x "References: <cover-1@example.org>" hdr &&
	grep -x "Message-ID: <kseries-report-[0-9a-f]*@example.org>" hdr &&
	grep -x "Content-Type: text/plain; charset=UTF-8" hdr &&
	grep "^Date: [A-Z][a-z][a-z], [0-9][0-9] [A-Z][a-z][a-z] 20[0-9][0-9] " hdr &&
	python3 - $m <<-EOF
	import mailbox, sys
	msgs = list(mailbox.mbox(sys.argv[1]))
	assert len(msgs) == 1
	m = msgs[0]
	assert not m.is_multipart(), "an attachment"
	assert m.get_content_type() == "text/plain"
	EOF
'

test_expect_success 'the body: per patch, new findings with file:line, how to reproduce' '
	sed "1,/^$/d" out/alpha-v1-report.mbox >body &&
	grep -x "Hi Pat Poster," body &&
	grep -F "found new problems" body &&
	grep -x "base:   $BASE" body &&
	grep -x "link:   https://lore.kernel.org/all/cover-1@example.org/" body &&
	grep -x "  build       fail  1 error" body &&
	grep -x "  sparse      pass  no new warnings" body &&
	sed -n "/^Per patch:/,/^New findings/p" body >per-patch &&
	grep -A1 -x "  patch 1/2: \[PATCH 1/2\] alpha: the first" per-patch |
		grep -x "        apply: pass format: pass checkpatch: pass build: fail (1)" &&
	grep -A1 -x "  patch 2/2: \[PATCH 2/2\] alpha: the second" per-patch |
		grep -x "        apply: pass format: pass checkpatch: warn (1) build: pass" &&
	sed -n "/^New findings/,/^To reproduce/p" body >new &&
	grep -A1 -x "\[PATCH 1/2\] alpha: the first:" new |
		grep -x ">> drivers/x.c:3: error: implicit declaration of function foo \[build\]" &&
	grep -A1 -x "\[PATCH 2/2\] alpha: the second:" new |
		grep -x ">> drivers/x.c:12: warning: line over 100 columns \[checkpatch\]" &&
	grep -A1 -x "The series as a whole:" new |
		grep -x ">> model/m.pml:40: error: assertion violated \[model\]" &&
	! grep -F "REVIEW-COMMENT" body && ! grep -F "in expansion of macro" body &&
	grep -x "    kseries check alpha@v1" body &&
	grep -x "$BASE and runs the stages above (one of them:" body
'

test_expect_success 'a single patch: the reply to the patch, its subject encoded' '
	cd store &&
	kseries report beta@v1 -o ../out &&
	sed -n "/^$/q;p" ../out/beta-v1-report.mbox >hdr &&
	grep -x "In-Reply-To: <single-1@example.org>" hdr &&
	grep "^Subject: =?" hdr &&
	python3 - ../out/beta-v1-report.mbox <<-EOF
	import mailbox, sys, email.header
	m = list(mailbox.mbox(sys.argv[1]))[0]
	s = str(email.header.make_header(email.header.decode_header(m["Subject"])))
	assert s == "Re: [PATCH] beta: Ünïcode, and \$(rm -rf) <b>", s
	EOF
	grep -F "found no new problems" ../out/beta-v1-report.mbox &&
	! grep "^New findings" ../out/beta-v1-report.mbox
'

test_expect_success 'refuses a version not posted, a record, one never checked' '
	cd store &&
	test_expect_code 1 kseries report alpha@v2 -o ../no 2>err &&
	test_line_count = 1 err && grep -F "alpha v2 was not posted" err &&
	test_expect_code 1 kseries report beta@v2 -o ../no 2>err &&
	test_line_count = 1 err && grep -F "reconstructed" err &&
	rm -r "$KSERIES_CACHE/results/beta" &&
	test_expect_code 1 kseries report beta@v1 -o ../no 2>err &&
	test_line_count = 1 err && grep -F "no check results" err &&
	! test -e ../no &&
	test_expect_code 129 kseries report alpha@v1 &&
	test_expect_code 1 kseries report alpha@v1 -o series/x 2>err && test_line_count = 1 err
'

test_expect_success 'refuses without a sender identity' '
	cd store &&
	git config --global --unset user.email &&
	test_expect_code 1 kseries report alpha@v1 -o ../out2 2>err &&
	test_line_count = 1 err && ! test -e ../out2
'

git send-email --help >/dev/null 2>&1 && test_set_prereq SENDEMAIL
SKIP_REASON='git send-email is not installed'
test_expect_success SENDEMAIL 'git send-email reads it as one reply' '
	git send-email --dry-run --confirm=never --suppress-cc=all \
		--smtp-server=/bin/true out/alpha-v1-report.mbox >se 2>&1 &&
	grep -F "Dry-OK" se &&
	grep -F "In-Reply-To: <cover-1@example.org>" se &&
	grep -F "Subject: Re: [PATCH 0/2] alpha: two patches" se &&
	grep -F "To: Pat Poster <pat@example.org>" se
'

test_done
