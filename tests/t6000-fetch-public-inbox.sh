#!/usr/bin/env bash
test_description='kseries fetch against a real public-inbox-httpd'
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-public-inbox.sh"

V1=20260601-foo-frob-v1-0-aaaa@example.invalid

# The list: v1 of a two-patch series and one review reply. The store:
# v1 imported from the same mails, as posted.
test_expect_success PI 'an inbox with v1 and a reply; a store with v1' '
	pi_init &&
	pi_deliver "$FIXTURES"/v1-?.eml "$FIXTURES"/reply-1.eml &&
	mkdir -p store/series && cd store &&
	mbox_of "$FIXTURES"/v1-?.eml >../v1.mbox &&
	kseries import foo ../v1.mbox &&
	test "$(git config -f series/foo/series.conf version.1.message-id)" = "$V1" &&
	! test -e series/foo/v1/thread.mbox
'

test_have_prereq PI && pi_start
URL=$(test_have_prereq PI && pi_url)
export KSERIES_LORE=$URL

test_expect_success PI 'a first fetch tracks the reply, anchored' '
	cd store &&
	kseries fetch foo >out &&
	echo "foo v1: 1 new reply, 1 comment, 1 trailer" >expect &&
	test_cmp expect out &&
	grep -c "^Message-ID: <reply-1-rita@example.invalid>" series/foo/v1/thread.mbox >n &&
	echo 1 >expect && test_cmp expect n &&
	! grep -q "^Subject: \[PATCH" series/foo/v1/thread.mbox &&
	f=$(grep -l "^Kind: comment" series/foo/feedback/*) &&
	grep -x "File: drivers/foo/foo.c" $f &&
	grep -x "Side: new" $f && grep -x "Line: 13" $f &&
	grep -x "Patch-Index: 1" $f &&
	grep -q "frob_unlocked() does not exist" $f &&
	grep -lx "Trailer: Reviewed-by: Rita Reviewer <rita@example.invalid>" series/foo/feedback/*
'

test_expect_success PI 'a fetch that learns nothing changes no file' '
	cd store &&
	cp -a series ../before &&
	kseries fetch foo >out &&
	echo "foo: nothing new" >expect &&
	test_cmp expect out &&
	diff -r ../before series
'

test_expect_success PI 'a made-up Message-ID is not fetched' '
	cd store &&
	mkdir series/seed && cp -a series/foo/series.conf series/seed/ &&
	mkdir series/seed/v1 && cp series/foo/v1/0*.patch series/seed/v1/ &&
	git config -f series/seed/series.conf version.1.reconstructed "Message-ID To Cc" &&
	kseries fetch seed >out &&
	echo "seed: nothing new" >expect && test_cmp expect out &&
	! test -e series/seed/v1/thread.mbox && ! test -e series/seed/feedback &&
	rm -rf series/seed
'

test_expect_success PI 'a reply delivered between two fetches is one new item' '
	cd store &&
	ls series/foo/feedback >../ids.before &&
	pi_deliver "$FIXTURES"/reply-2.eml &&
	kseries fetch --all >out &&
	echo "foo v1: 1 new reply, 1 comment, 0 trailers" >expect &&
	test_cmp expect out &&
	ls series/foo/feedback >../ids.after &&
	comm -13 ../ids.before ../ids.after >new && test_line_count = 1 new &&
	grep -x "Message-Id: <reply-2-sam@example.invalid>" series/foo/feedback/$(cat new) &&
	grep -x "Patch-Index: 2" series/foo/feedback/$(cat new) &&
	grep -c "^Message-ID: <reply-" series/foo/v1/thread.mbox >n &&
	echo 2 >expect && test_cmp expect n &&
	kseries fetch foo >out &&
	echo "foo: nothing new" >expect && test_cmp expect out
'

test_expect_success PI 'a newer version posted on the list is found and imported' '
	cd store &&
	pi_deliver "$FIXTURES"/v2-?.eml &&
	kseries fetch foo >out &&
	cat >expect <<-\EOT &&
	foo v2: posted on the list
	foo v2: cover, 2 patches, 0 new replies
	foo v2: 0 new replies, 0 comments, 0 trailers
	EOT
	test_cmp expect out &&
	test "$(git config -f series/foo/series.conf version.2.origin)" = posted &&
	test "$(git config -f series/foo/series.conf version.2.author)" = "Bob Other <bob@example.invalid>" &&
	test "$(git config -f series/foo/series.conf version.2.message-id)" = 20260601-foo-frob-v2-0-aaaa@example.invalid &&
	ls series/foo/v2 >files &&
	printf "%s\n" 0000-cover-letter.patch 0001-foo-drop-the-frob-lock.patch \
		0002-foo-count-the-frobs.patch >expect &&
	test_cmp expect files &&
	grep -q "__frob(f)" series/foo/v2/0001-*.patch &&
	grep -c "^Message-ID: <reply-" series/foo/v1/thread.mbox >n &&
	echo 2 >expect && test_cmp expect n &&
	kseries fetch foo >out &&
	echo "foo: nothing new" >expect && test_cmp expect out
'

test_expect_success PI 'the server down: one error line, exit 1, store unchanged' '
	cd store &&
	rm -rf ../before && cp -a series ../before &&
	pi_stop &&
	test_expect_code 1 kseries fetch --all >out 2>err &&
	test_line_count = 1 err &&
	grep "^kseries: error: cannot fetch .http://127.0.0.1:" err &&
	test_line_count = 0 out &&
	diff -r ../before series
'

# A server that answers wrong: each answer is one error line, exit 1,
# and the store as it was.
test_expect_success PI 'an HTTP error, a truncated answer, bad gzip' '
	cd store &&
	{ python3 "$FIXTURES/bad-server.py" >../port 3>&- 4>&- & } &&
	echo $! >../bad.pid &&
	for i in $(seq 100); do test -s ../port && break; sleep 0.1; done &&
	port=$(cat ../port) &&
	rm -rf ../before && cp -a series ../before &&
	for how in http500 truncated notgzip; do
		{ KSERIES_LORE=http://127.0.0.1:$port/$how/ \
			test_expect_code 1 kseries fetch foo >out 2>../err.$how &&
		  test_line_count = 0 out; } || echo $how >>../failed
	done
	kill $(cat ../bad.pid) &&
	! test -e ../failed &&
	cat ../err.* &&
	for how in http500 truncated notgzip; do
		test_line_count = 1 ../err.$how || exit 1
	done &&
	grep "^kseries: error: cannot fetch .*: HTTP 500$" ../err.http500 &&
	grep "^kseries: error: .*/truncated/.*" ../err.truncated &&
	grep "^kseries: error: .*/notgzip/.*: bad gzip data" ../err.notgzip &&
	diff -r ../before series
'

test_done
