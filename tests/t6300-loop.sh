#!/usr/bin/env bash
test_description='the contributor loop end to end: work, record, check, post, fetch, record again'
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-public-inbox.sh"
. "$(dirname "$0")/lib-smtp.sh"
trap 'smtp_cleanup; pi_stop; rm -rf "$TRASH"' EXIT

# Needs the base tree (checkpatch, the apply stage) and public-inbox.
test_have_prereq TREE || SKIP_REASON=${SKIP_REASON_TREE:-}
export KSERIES_CACHE=$TRASH/cache
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
F=drivers/android/binder_alloc.c

# sparse_clone DIR: a tree of the base repository with only
# drivers/android checked out (the loop does not need the rest).
sparse_clone() {
	git clone -q --shared --no-checkout "$KSERIES_TREE" "$1" &&
	git -C "$1" sparse-checkout set drivers/android &&
	git -C "$1" checkout -q -B master v7.2.13
}

# deliver_dir DIR: each mail file of DIR to the list (without the
# From_ line git format-patch writes: one message per delivery).
deliver_dir() {
	local f
	for f in "$1"/*.patch; do
		sed 1d "$f" >"$f.eml" && pi_deliver "$f.eml" || return 1
	done
}

test_expect_success TREE,PI 'Alice posted v1 on the list; it is in the store' '
	git config --global user.name "Una User" &&
	git config --global user.email una@example.org &&
	pi_init && mkdir -p store/series &&
	sparse_clone alice &&
	(
		cd alice &&
		export GIT_AUTHOR_NAME="Alice Author" GIT_AUTHOR_EMAIL=alice@example.org \
			GIT_COMMITTER_NAME="Alice Author" GIT_COMMITTER_EMAIL=alice@example.org &&
		sed -i "s/failed to find page at offset %lx\\\\n/failed to find page at offset %lx after a race\\\\n/" $F &&
		! git diff --quiet &&
		GIT_AUTHOR_DATE=2026-06-01T10:00:01Z git commit -q -a -m "binder: say when a page lookup lost a race" \
			-m "The lookup fails only when another thread freed the page." \
			-m "Signed-off-by: Alice Author <alice@example.org>" &&
		sed -i "s|^static struct page \*binder_page_lookup|/* Looks up the page installed at addr. */\n&|" $F &&
		GIT_AUTHOR_DATE=2026-06-01T10:00:02Z git commit -q -a -m "binder: explain binder_page_lookup()" \
			-m "Say what the lookup returns, for the next reader." \
			-m "Signed-off-by: Alice Author <alice@example.org>" &&
		git format-patch -q --cover-letter --thread --base=v7.2.13 -o ../v1 v7.2.13 &&
		sed -i -e "s/\*\*\* SUBJECT HERE \*\*\*/binder: page lookup messages/" \
		       -e "s/\*\*\* BLURB HERE \*\*\*/Two small clarifications of the page lookup./" \
		       -e "s/^base-commit: .*/&\nchange-id: 20260601-binder-lookup-0123456789ab/" \
		       ../v1/0000-*.patch
	) &&
	deliver_dir v1 &&
	cat v1/*.patch >v1.mbox &&
	(cd store && kseries import bl ../v1.mbox) &&
	test "$(git config -f store/series/bl/series.conf version.1.origin)" = posted
'

test_have_prereq TREE,PI && pi_start
URL=$(test_have_prereq TREE,PI && pi_url)
export KSERIES_LORE=$URL

test_expect_success TREE,PI 'work, amend a commit, record: v2' '
	sparse_clone linux &&
	(cd store && kseries work bl -w ../linux) &&
	(
		cd linux &&
		sed -i "s|/\* Looks up the page installed at addr. \*/|/* Looks up the page installed at addr, or NULL. */|" $F &&
		git commit -q -a --amend --no-edit
	) &&
	(cd store && kseries record bl -w ../linux >../out) &&
	head -1 out >first && echo "bl v2: recorded from kseries/bl (2 patches)" >expect &&
	test_cmp expect first &&
	grep -x -- "- 2/2 binder: explain binder_page_lookup(): changed" store/series/bl/v2/0000-*.patch &&
	grep -q "or NULL" store/series/bl/v2/0002-*.patch
'

test_expect_success TREE,PI 'check v2: apply, format, checkpatch' '
	cd store &&
	kseries check bl@v2 --stage apply --stage format --stage checkpatch >out || :
	cat out &&
	grep "bl  *v2  apply  *pass" out &&
	grep "bl  *v2  format  *\(pass\|warn\)" out &&
	grep "bl  *v2  checkpatch *pass" out
'

# v2 goes out through kseries send (git send-email) to the SMTP server;
# the server's mails, as it received them, are what the list gets
# (public-inbox-mda on each), and send records the posting itself.
test_expect_success TREE,PI,SMTP 'send v2 to the SMTP server; the list gets what it received; a review reply' '
	start_sink "$TRASH/sink" &&
	(cd store && kseries send bl@v2 </dev/null >../send.out 2>&1) &&
	stop_sink &&
	cat send.out &&
	grep -x "bl v2: 3 of 3 mails sent" send.out &&
	ls "$TRASH/sink"/*.eml >sent &&
	test_line_count = 3 sent &&
	pi_deliver $(cat sent) &&
	for f in $(cat sent); do
		sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$f" || exit 1
	done >sent.ids &&
	test_line_count = 3 sent.ids &&
	id=$(head -n 1 sent.ids) && p1=$(sed -n 2p sent.ids) &&
	grep "^Subject: \[PATCH v2 0/2\]" "$TRASH/sink/1.eml" &&
	test "$(git config -f store/series/bl/series.conf version.2.message-id)" = "$id" &&
	test "$(git config -f store/series/bl/series.conf version.2.origin)" = posted &&
	cat >review.eml <<-EOT &&
	From: Rita Reviewer <rita@example.invalid>
	To: Una User <una@example.org>
	Cc: test@example.invalid
	Subject: Re: [PATCH v2 1/2] binder: say when a page lookup lost a race
	Date: Tue, 01 Dec 2026 09:00:00 +0000
	Message-ID: <review-v2-1@example.invalid>
	In-Reply-To: <$p1>
	References: <$id> <$p1>

	> -			pr_err("%d: failed to find page at offset %lx\\n",
	> +			pr_err("%d: failed to find page at offset %lx after a race\\n",

	"lost a race" says it better than "after a race".
	EOT
	pi_deliver review.eml
'

test_expect_success TREE,PI,SMTP 'fetch: the comment is tracked, anchored' '
	cd store &&
	kseries fetch bl >out &&
	grep -x "bl v2: 1 new reply, 1 comment, 0 trailers" out &&
	# the thread the server has: v1 (v2 answers its cover), what send
	# sent, and the reply
	"$PY" -c "import gzip, re, sys, urllib.request
data = gzip.decompress(urllib.request.urlopen(sys.argv[1]).read())
for m in re.findall(rb\"^Message-I[Dd]: *<([^>]*)>\", data, re.M):
    print(m.decode())" "$URL$(head -n 1 ../sent.ids)/t.mbox.gz" | sort >thread.ids &&
	{ sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" ../v1/*.patch &&
	  cat ../sent.ids && echo review-v2-1@example.invalid; } | sort >want.ids &&
	test_cmp want.ids thread.ids &&
	kseries feedback bl >fb &&
	cat fb &&
	grep "open  *v2 \[1\] drivers/android/binder_alloc.c:340 Rita Reviewer <rita@example.invalid>: \"lost a race\" says it better" fb &&
	f=$(grep -l "^Message-Id: <review-v2-1@example.invalid>" series/bl/feedback/*) &&
	grep -x "File: drivers/android/binder_alloc.c" $f &&
	grep -x "Side: new" $f && grep -x "Line: 340" $f && grep -x "Patch-Index: 1" $f
'

test_expect_success TREE,PI,SMTP 'amend addressing it, record: v3 names the comment as addressed' '
	(
		cd linux &&
		git checkout -q HEAD~1 &&
		sed -i "s/offset %lx after a race/offset %lx: lost a race/" $F &&
		git commit -q -a --amend --no-edit &&
		git cherry-pick kseries/bl >/dev/null &&
		git checkout -q -B kseries/bl
	) &&
	(cd store && kseries record bl -w ../linux >../out) &&
	cat out &&
	head -1 out >first && echo "bl v3: recorded from kseries/bl (2 patches)" >expect &&
	test_cmp expect first &&
	c=$(echo store/series/bl/v3/0000-cover-letter.patch) &&
	grep -x "Changes in v3:" $c &&
	cat $c &&
	grep -x -- "- 1/2 binder: say when a page lookup lost a race: changed" $c &&
	grep -- "^- 1: drivers/android/binder_alloc.c: address Rita Reviewer.s comment .\"lost a race\" says it better" $c &&
	grep -x "  https://lore.kernel.org/r/review-v2-1@example.invalid" $c &&
	grep -x -- "- Link to v2: https://lore.kernel.org/r/$(git config -f store/series/bl/series.conf version.2.message-id)" $c
'

test_done
