#!/bin/bash
# The caller's environment does not steer kseries' children: GIT_DIR and
# its kin point git at the base tree kseries names, never at another
# repository (issue 15 item 4), and the user's git config does not
# change the mails format writes (item 11).
test_description='kseries children: a clean, explicit environment'
. "$(dirname "$0")/lib.sh"

export KSERIES_NO_SEND=1
# format needs a sender: this scratch HOME's own
test_sender
BASE=$TRASH/base
STORE=$TRASH/store
OTHER=$TRASH/other
export KSERIES_TREE=$BASE KSERIES_DIR=$STORE KSERIES_CACHE=$TRASH/cache
export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
SOB='Signed-off-by: Kseries Developers <dev@kseries.invalid>'

commit_file() {
	mkdir -p "$(dirname "$1/$2")"
	printf '%s\n' "$3" >>"$1/$2"
	git -C "$1" add "$2"
	git -C "$1" commit -q -m "$4" -m "Some words on why." -m "$SOB"
}

# state REPO: every ref and every object of REPO.
state() {
	git --git-dir="$1/.git" for-each-ref --format='%(refname) %(objectname)'
	find "$1/.git/objects" -type f | sort
}

test_expect_success 'setup: a base tree, a two-patch series, another clone of it' '
	git init -q -b master "$BASE" &&
	commit_file "$BASE" drivers/android/binder.c "int binder;" "Linux 7.2.13" &&
	git -C "$BASE" tag v7.2.13 &&
	git clone -q "$BASE" work &&
	commit_file work drivers/android/binder.c "int a;" "binder: add a" &&
	commit_file work drivers/android/binder.c "int b;" "binder: add b" &&
	mkdir -p "$STORE/series/two/v1" &&
	git -C work format-patch -q --cover-letter --base=v7.2.13 \
		-o "$STORE/series/two/v1" v7.2.13..HEAD &&
	conf="$STORE/series/two/series.conf" &&
	git config -f "$conf" series.title "binder: add a and b" &&
	git config -f "$conf" series.prefix PATCH &&
	git config -f "$conf" series.to "A Maintainer <maint@example.invalid>" &&
	git clone -q "$BASE" "$OTHER" &&
	commit_file "$OTHER" README "other" "an unrelated repository" &&
	state "$OTHER" >other.before
'

test_expect_success 'GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE of the caller do not reach format' '
	GIT_DIR="$OTHER/.git" GIT_WORK_TREE="$OTHER" \
	GIT_INDEX_FILE="$OTHER/.git/index" GIT_OBJECT_DIRECTORY="$OTHER/.git/objects" \
	GIT_COMMON_DIR="$OTHER/.git" GIT_NAMESPACE=ns \
		kseries format two@v1 -o out >written &&
	test_line_count = 3 written &&
	state "$OTHER" >other.after &&
	test_cmp other.before other.after &&
	grep -h "^Subject:" out/*.patch >subjects &&
	cat >expect <<-\EOF &&
	Subject: [PATCH 0/2] binder: add a and b
	Subject: [PATCH 1/2] binder: add a
	Subject: [PATCH 2/2] binder: add b
	EOF
	test_cmp expect subjects
'

test_expect_success 'GIT_CONFIG_PARAMETERS and GIT_CONFIG_COUNT of the caller do not reach format' '
	GIT_CONFIG_PARAMETERS="'"'"'format.headers'"'"'='"'"'Bcc: leak@example.invalid'"'"'" \
	GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=format.signature GIT_CONFIG_VALUE_0=LEAKED \
		kseries format two@v1 -o out2 >written &&
	! grep -l "leak@example.invalid\|LEAKED" out2/*.patch
'

test_expect_success 'the user'"'"'s format.headers and format.signature do not reach the mails' '
	git config --global format.headers "Bcc: leak@example.invalid" &&
	git config --global format.signature "LEAKED SIGNATURE" &&
	git config --global diff.context 1 &&
	git config --global core.abbrev 20 &&
	kseries format two@v1 -o out3 >written &&
	git config --global --remove-section format &&
	git config --global --remove-section diff &&
	git config --global --unset core.abbrev &&
	! grep -l "leak@example.invalid\|LEAKED" out3/*.patch &&
	diff -r -I "^\(Message-Id\|In-Reply-To\|References\): " out out3
'

test_expect_success 'the kernel tree'"'"'s own config does not reach the mails either' '
	git -C "$BASE" config format.headers "X-Leak: yes" &&
	git -C "$BASE" config format.signature "LEAKED SIGNATURE" &&
	kseries format two@v1 -o out4 >written &&
	git -C "$BASE" config --remove-section format &&
	! grep -l "X-Leak\|LEAKED" out4/*.patch &&
	diff -r -I "^\(Message-Id\|In-Reply-To\|References\): " out out4
'

test_expect_success 'the sender is still the user'"'"'s identity' '
	git config --global user.name "Ann User" &&
	git config --global user.email ann@example.org &&
	env -u GIT_COMMITTER_NAME -u GIT_COMMITTER_EMAIL \
		"$KSERIES" format two@v1 -o out5 >written &&
	git config --global --remove-section user &&
	grep "^From: Ann User <ann@example.org>$" out5/0000-cover-letter.patch
'

test_done
