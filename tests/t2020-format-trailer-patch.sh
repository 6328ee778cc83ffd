#!/usr/bin/env bash
# kseries format: a review tag goes to the patch a mail gave it for
# (or, from the cover, to the series), and only while that patch is
# unchanged; a one-patch version is no exception. The mails go
# through kseries import and feedback ingest, the versions through
# kseries work and record.
test_description='kseries format: review tags by patch identity'
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-loop.sh"

export KSERIES_TREE=$TRASH/base KSERIES_CACHE=$TRASH/cache
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
ME='Signed-off-by: Una User <una@example.org>'


# tags FILE: the -by: lines of a formatted patch's message
tags() {
	sed -n "/^$/,/^---$/{p;/^---$/q}" "$1" | grep -e "-by: " || true
}

# version2 NAME SCRIPT: a fresh copy of the store with v1 and its
# review, v2 recorded from the v1 branch after SCRIPT ran in it, and v2
# formatted into out-NAME (the notes in out-NAME.err).
version2() {
	rm -rf store linux "out-$1" &&
	cp -a store.v1 store && git clone -q base linux &&
	(cd store && kseries work foo -w ../linux >/dev/null) &&
	(cd linux && eval "$2") &&
	(cd store && kseries record foo -w ../linux >"../out-$1.record" &&
	 kseries format foo -o "../out-$1" -v 2>"../out-$1.err" >/dev/null)
}

test_expect_success 'setup: v1, three patches, posted; a tag on each and one on the cover' '
	git config --global user.name "Una User" &&
	git config --global user.email una@example.org &&
	loop_base base && mkdir -p store/series &&
	git clone -q base w &&
	(
		cd w &&
		export GIT_AUTHOR_NAME="Alice Author" GIT_AUTHOR_EMAIL=alice@example.org &&
		sed -i "s/ret = frob(f);/ret = __frob(f);/" drivers/foo/foo.c &&
		GIT_AUTHOR_DATE="2026-06-01T10:00:01Z" git commit -q -a -m "foo: call __frob" \
			-m "Body one." -m "Signed-off-by: Alice Author <alice@example.org>" &&
		sed -i "s/int frobs;/&\n\tint extra;/" drivers/foo/foo.c &&
		GIT_AUTHOR_DATE="2026-06-01T10:00:02Z" git commit -q -a -m "foo: add extra" \
			-m "Body two." -m "Signed-off-by: Alice Author <alice@example.org>" &&
		sed -i "s/wake_up(&f->wait);/wake_up_all(\&f->wait);/" drivers/foo/foo.c &&
		GIT_AUTHOR_DATE="2026-06-01T10:00:03Z" git commit -q -a -m "foo: wake all" \
			-m "Body three." -m "Signed-off-by: Alice Author <alice@example.org>" &&
		git format-patch -q --cover-letter --thread --base=v7.2.13 -o out v7.2.13 &&
		sed -i -e "s/\*\*\* SUBJECT HERE \*\*\*/foo: three things/" \
			-e "s/\*\*\* BLURB HERE \*\*\*/Three things./" out/0000-*.patch &&
		cat out/*.patch >"$TRASH/v1.mbox"
	) &&
	(cd store && kseries import foo ../v1.mbox >/dev/null) &&
	git config -f store/series/foo/series.conf series.title "foo: three things" &&
	d=store/series/foo/v1 &&
	test_reply_mail r1 "R One <r1@example.invalid>" $d/0001-*.patch "Reviewed-by: R One <r1@example.invalid>" &&
	test_reply_mail r2 "R Two <r2@example.invalid>" $d/0002-*.patch "Reviewed-by: R Two <r2@example.invalid>" &&
	test_reply_mail r3 "R Three <r3@example.invalid>" $d/0003-*.patch "Reviewed-by: R Three <r3@example.invalid>" &&
	test_reply_mail rc "C Cover <c@example.invalid>" $d/0000-*.patch "Acked-by: C Cover <c@example.invalid>" &&
	cat r1 r2 r3 rc >review.mbox &&
	(cd store && kseries feedback ingest foo ../review.mbox >/dev/null) &&
	cp -a store store.v1
'

test_expect_success 'v2 is v1 3/3 alone: its own tag and the cover'"'"'s, not 1/3'"'"'s or 2/3'"'"'s' '
	version2 third "git reset -q --hard HEAD~3 && git cherry-pick kseries/foo@{1} >/dev/null" &&
	ls out-third >files && echo 0001-foo-wake-all.patch >expect && test_cmp expect files &&
	tags out-third/0001-*.patch >got &&
	cat >expect <<-EOF &&
	Signed-off-by: Alice Author <alice@example.org>
	Reviewed-by: R Three <r3@example.invalid>
	Acked-by: C Cover <c@example.invalid>
	$ME
	EOF
	test_cmp expect got
'

test_expect_success 'v2 squashes v1 into one patch: no v1 tag is its own' '
	version2 squash "git reset -q --soft HEAD~3 && git commit -q -m \"foo: three in one\" -m \"All of it.\"" &&
	tags out-squash/0001-*.patch >got &&
	echo "$ME" >expect &&
	test_cmp expect got &&
	grep "^note: not applied: Reviewed-by: R Two <r2@example.invalid> (v1): no patch of v2 is patch 2 of v1 unchanged$" out-squash.err &&
	grep "^note: not applied: Acked-by: C Cover <c@example.invalid> (v1): 1/1 changed since v1$" out-squash.err &&
	! grep "collect" out-squash/0001-*.patch store/series/foo/v2/0000-*.patch
'

test_expect_success 'v2 changes v1 1/3 and keeps its title: record and format both drop its tags' '
	version2 changed "git reset -q --soft HEAD~3 && git commit -q -m \"foo: call __frob\" -m \"All of it.\"" &&
	grep -x -- "- 1/1 foo: call __frob: changed; review tags dropped: Reviewed-by: R One <r1@example.invalid>, Acked-by: C Cover <c@example.invalid>" out-changed.record &&
	tags out-changed/0001-*.patch >got &&
	echo "$ME" >expect &&
	test_cmp expect got
'

test_expect_success 'on v2, a reply to a 3/5 that one-patch v2 does not have' '
	version2 reply3 "git reset -q --hard HEAD~2" &&
	cat >rx <<-\EOF &&
	From mboxrd@z Thu Jan  1 00:00:00 1970
	From: R Five <r5@example.invalid>
	Subject: Re: [PATCH v2 3/5] foo: something else
	Date: Wed, 03 Jun 2026 09:00:00 +0000
	Message-ID: <r5@example.invalid>
	In-Reply-To: <absent-3@example.invalid>

	Reviewed-by: R Five <r5@example.invalid>

	EOF
	(cd store && kseries feedback ingest foo ../rx >/dev/null &&
	 kseries format foo -o ../out-r5 -v 2>../out-r5.err >/dev/null) &&
	tags out-r5/0001-*.patch >got &&
	cat >expect <<-EOF &&
	Signed-off-by: Alice Author <alice@example.org>
	Reviewed-by: R One <r1@example.invalid>
	Acked-by: C Cover <c@example.invalid>
	$ME
	EOF
	test_cmp expect got &&
	grep "^note: not applied: Reviewed-by: R Five <r5@example.invalid> (v2): no such patch in v2$" out-r5.err
'

test_expect_success 'v1 known only from a reply: its tag does not go to one-patch v2' '
	mkdir -p s2/series/bar/v2 &&
	p=s2/series/bar/v2/0001-foo-wake-all.patch &&
	sed -e "s/^Subject: .*/Subject: [PATCH v2] foo: wake all/" \
	    -e "/^Message-I[Dd]:/Id; /^In-Reply-To:/d; /^References:/d" \
	    store.v1/series/foo/v1/0003-*.patch >$p &&
	printf "[series]\n\ttitle = foo: wake all\n\tbase = v7.2.13\n\tprefix = PATCH\n[version \"1\"]\n\torigin = replies-only\n[version \"2\"]\n\torigin = ours\n" \
		>s2/series/bar/series.conf &&
	cat >r6 <<-\EOF &&
	From mboxrd@z Thu Jan  1 00:00:00 1970
	From: R Six <r6@example.invalid>
	Subject: Re: [PATCH 3/5] foo: wake all
	Date: Tue, 02 Jun 2026 09:00:00 +0000
	Message-ID: <r6@example.invalid>
	In-Reply-To: <absent-v1-3@example.invalid>

	Reviewed-by: R Six <r6@example.invalid>

	EOF
	(cd s2 && kseries feedback ingest bar ../r6 >/dev/null &&
	 kseries format bar -o ../out-r6 -v 2>../out-r6.err >/dev/null) &&
	tags out-r6/0001-*.patch >got &&
	printf "%s\n" "Signed-off-by: Alice Author <alice@example.org>" "$ME" >expect &&
	test_cmp expect got &&
	grep "^note: not applied: Reviewed-by: R Six <r6@example.invalid> (v1): v1.s patches are not in the store" out-r6.err
'

test_expect_success 'v3 is v2 unchanged, but v2 changed v1 2/3: v1 2/3'"'"'s tag stays off' '
	version2 chain "git reset -q --hard HEAD~1 && sed -i \"s/int extra;/int extra2;/\" drivers/foo/foo.c && git commit -q -a --amend --no-edit" &&
	tags out-chain/0002-*.patch >got &&
	echo "Signed-off-by: Alice Author <alice@example.org>" >expect && echo "$ME" >>expect &&
	test_cmp expect got &&
	git config -f store/series/foo/series.conf version.2.message-id v2-cover@example.invalid &&
	(cd store && kseries record foo -w ../linux >../out-chain3.record &&
	 kseries format foo -o ../out-chain3 -v 2>../out-chain3.err >/dev/null) &&
	grep "^foo v3: recorded" out-chain3.record &&
	tags out-chain3/0001-*.patch >got1 &&
	cat >expect1 <<-EOF &&
	Signed-off-by: Alice Author <alice@example.org>
	Reviewed-by: R One <r1@example.invalid>
	Acked-by: C Cover <c@example.invalid>
	$ME
	EOF
	test_cmp expect1 got1 &&
	tags out-chain3/0002-*.patch >got2 &&
	test_cmp expect got2 &&
	! grep "R Two" store/series/foo/v3/*.patch
'

test_done
