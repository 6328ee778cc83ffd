#!/usr/bin/env bash
test_description='review extract never crashes on malformed mail'
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null && test_set_prereq JQ
SKIP_REASON='jq is needed to check the JSON'

# Exit 0 with valid JSON, or 128 with one error; never a signal.
survives() {
	local rc=0
	kseries review extract "$1" >out.json 2>err || rc=$?
	case $rc in
	0) jq -e 'has("messages") and has("patches") and has("comments") and has("trailers")' out.json >/dev/null ;;
	128) test "$(wc -l <err)" -ge 1 ;;
	*) echo "exit $rc on $1" >&2; cat err >&2; return 1 ;;
	esac
}

test_expect_success JQ 'empty file, headers only, no From_ line' '
	: >empty && survives empty &&
	printf "Subject: x\n" >headers && survives headers &&
	printf "just text\nno headers\n> quoted\n" >text && survives text
'

test_expect_success JQ 'random bytes and NULs' '
	awk "BEGIN { srand(7); for (i = 0; i < 65536; i++) printf \"%c\", int(rand() * 256) }" >noise &&
	survives noise &&
	{ printf "From x@y Thu Jan  1 00:00:00 1970\nSubject: Re: [PATCH] a\n\n> +a\0b\n\0\n"; } >nul &&
	survives nul
'

test_expect_success JQ 'reference loops, self-replies, duplicate Message-IDs' '
	survives "$FIXTURES/loop.mbox" &&
	jq -e ".messages | length == 2" out.json
'

test_expect_success JQ 'hostile diffs: huge numbers, bad quoting, paths, charsets' '
	survives "$FIXTURES/badpatch.mbox" &&
	test ! -e etc
'

test_expect_success JQ 'deep quotes and a megabyte line' '
	{
		printf "From x@y Thu Jan  1 00:00:00 1970\nSubject: Re: [PATCH] a\nMessage-ID: <d@x>\n\n"
		awk "BEGIN { for (i = 0; i < 3000; i++) printf \">\"; print \" +x\" }"
		awk "BEGIN { for (i = 0; i < 1048576; i++) printf \"a\"; print \"\" }"
		echo "reply"
	} >deep && survives deep
'

test_done
