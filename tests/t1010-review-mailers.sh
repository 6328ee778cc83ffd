#!/usr/bin/env bash
test_description='review extract on mail from several mailers'
. "$(dirname "$0")/lib.sh"

# t1010-mailers.mbox: the TF_DEFER_COMPLETE v2 patch (seed 001) and replies
# as Gmail (multipart/alternative, QP, tabs turned into spaces, wrapped
# "On … wrote:", RFC 2047 name), Outlook (base64 windows-1252, a From:/Sent:
# block before '>' quotes; a top-posted reply over "-----Original
# Message-----"), Thunderbird (format=flowed, space-stuffing, French
# attribution), a German mailer (ISO-8859-1 QP, "Am … schrieb …:"),
# multipart/mixed with attachments, the kernel test robot (">>" compiler
# lines) and a reply with thanks, quoted trailers, "^^^" and a bare NAK.
MBOX=$FIXTURES/t1010-mailers.mbox
command -v jq >/dev/null && test_set_prereq JQ
SKIP_REASON='jq is needed to compare the JSON'

test_expect_success JQ 'the whole extraction' '
	kseries review extract "$MBOX" --json >out.json &&
	jq -r -f "$SRC_DIR/tests/t1000/project.jq" out.json >actual &&
	test_cmp "$FIXTURES/t1010-mailers.expect" actual
'

comment_of() {
	jq -r --arg id "$1" '.comments[] | select(.reply_message_id == $id) |
		"\(.kind) \(.file):\(.side):\(.line)"' out.json
}

test_expect_success JQ 'Gmail: tabs became spaces, the quote still anchors' '
	comment_of CAFqZXNuGmail0001@mail.gmail.com | head -n 1 >actual &&
	echo "inline include/uapi/linux/android/binder.h:new:299" >expect &&
	test_cmp expect actual &&
	jq -r ".messages[] | select(.message_id == \"CAFqZXNuGmail0001@mail.gmail.com\") | .from_name" out.json >name &&
	echo "Arve Hjønnevåg" >expect && test_cmp expect name &&
	! jq -r .comments[].text out.json | grep -e "wrote:" -e "&lt;" -e "<br>"
'

test_expect_success JQ 'Outlook: From: block dropped, top-posting is general' '
	comment_of SN6PR02MB1234ABCD@SN6PR02MB1234.namprd02.prod.outlook.com >actual &&
	echo "inline drivers/android/binder/process.rs:new:695" >expect &&
	test_cmp expect actual &&
	comment_of SN6PR02MB5678EFGH@SN6PR02MB5678.namprd02.prod.outlook.com >actual &&
	echo "general null:null:null" >expect &&
	test_cmp expect actual &&
	! jq -r .comments[].text out.json | grep -e "^Sent:" -e "^From:" -e "Original Message" -e "^Regards" &&
	jq -r .comments[].text out.json | grep -F "thread’s own list"
'

test_expect_success JQ 'Thunderbird: format=flowed joined, space-stuffing removed, French attribution' '
	comment_of 3c1f0a2b-tb-brauner@kernel.org >actual &&
	echo "inline drivers/android/binder/defs.rs:old:80" >expect &&
	test_cmp expect actual &&
	jq -r ".comments[] | select(.reply_message_id == \"3c1f0a2b-tb-brauner@kernel.org\") | .text" out.json >text &&
	grep -Fx "Dropping the comma-less TF_UPDATE_TXN line is fine, but the ordering of the list now differs from the C header; keep them in the same order so that a grep finds both." text &&
	grep -Fx " From the C side this is only a new bit, so" text &&
	! grep -e "a écrit" -e "^Christian" text
'

test_expect_success JQ 'German: Am … schrieb, greeting and closing dropped' '
	comment_of 20260723090000.GA1234@example.de >actual &&
	echo "inline drivers/android/binder/thread.rs:new:1438" >expect &&
	test_cmp expect actual &&
	jq -r ".comments[] | select(.reply_message_id == \"20260723090000.GA1234@example.de\") | .text" out.json >text &&
	printf "%s\n" "Das ist schwer zu lesen: bitte ein if/else statt des |= auf einem bool," \
		"dann sieht man sofort, wann der Push nicht verzögert wird." >expect &&
	test_cmp expect text
'

test_expect_success JQ 'multipart: attachments do not count' '
	comment_of 2026072312-attach-gregkh@linuxfoundation.org >actual &&
	echo "inline drivers/android/binder/thread.rs:new:704" >expect &&
	test_cmp expect actual &&
	! jq -r ".trailers[].person_email" out.json | grep mallory &&
	! jq -r .comments[].text out.json | grep "Attachment text"
'

test_expect_success JQ 'bot: ">>" lines are the report, not quotes' '
	jq -r ".comments[] | select(.author_email == \"lkp@intel.com\") | .text" out.json >text &&
	grep -F ">> error[E0425]: cannot find value \`TF_DEFER_COMPLETE\` in module \`uapi\`" text &&
	! grep -e "0-DAY CI" -e "^Hi Alice" text &&
	! jq -r ".trailers[].person_email" out.json | grep lkp
'

test_expect_success JQ 'thanks, quoted trailers and pointers are not comments; NAK is' '
	jq -r ".comments[] | select(.reply_message_id == \"aKD00000-noise@google.com\") | .text" out.json >text &&
	echo "Not needed when wait is true anyway." >expect &&
	test_cmp expect text &&
	jq -r ".trailers[] | \"\(.kind) \(.person_email)\"" out.json >actual &&
	printf "%s\n" "Reviewed-by arve@android.com" "Tested-by tkjos@android.com" \
		"Nacked-by cmllamas@google.com" >expect &&
	test_cmp expect actual
'

test_expect_success JQ 'extract is stateless and deterministic' '
	kseries review extract "$MBOX" >again.json &&
	test_cmp out.json again.json &&
	test ! -e series
'

test_done
