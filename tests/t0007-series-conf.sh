#!/bin/bash
# series.conf, read and written in-process: a value that would reach a
# mail header with a line break or another control character is refused
# at the one place values are read, naming the key (issue 15 item 5);
# values past git's 128 KiB argument limit are stored, and errors never
# repeat a value (item 10); the file stays what git config -f reads.
test_description='series.conf: header-safe values, no size limit, git syntax'
. "$(dirname "$0")/lib.sh"

export KSERIES_NO_SEND=1
# format needs a sender: this scratch HOME's own
test_sender
BASE=$TRASH/base
STORE=$TRASH/store
export KSERIES_TREE=$BASE KSERIES_DIR=$STORE KSERIES_CACHE=$TRASH/cache
export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'

test_expect_success 'setup: a base tree and a one-patch series' '
	git init -q -b master "$BASE" &&
	echo "int binder;" >"$BASE/binder.c" &&
	git -C "$BASE" add binder.c &&
	git -C "$BASE" commit -q -m "Linux 7.2.13" &&
	git -C "$BASE" tag v7.2.13 &&
	git clone -q "$BASE" work &&
	echo "int a;" >>work/binder.c &&
	git -C work commit -q -a -m "binder: add a" -m "Why." \
		-m "Signed-off-by: Kseries Developers <dev@kseries.invalid>" &&
	mkdir -p "$STORE/series/one/v1" &&
	git -C work format-patch -q --base=v7.2.13 -o "$STORE/series/one/v1" v7.2.13..HEAD &&
	conf="$STORE/series/one/series.conf" &&
	git config -f "$conf" series.title "binder: add a" &&
	git config -f "$conf" series.prefix PATCH &&
	git config -f "$conf" series.to "A Maintainer <maint@example.invalid>" &&
	cp "$conf" good.conf &&
	kseries format one@v1 -o good >/dev/null
'

# injected KEY VALUE: with series.conf's KEY set to VALUE (by git config,
# which escapes a newline as \n), format fails with one error line naming
# KEY and writes no mail.
injected() {
	cp good.conf "$STORE/series/one/series.conf" &&
	git config -f "$STORE/series/one/series.conf" "$1" "$2" &&
	rm -rf out &&
	test_must_fail kseries format one@v1 -o out >written 2>err &&
	cat err &&
	test_line_count = 1 err &&
	grep "^kseries: error: .*series.conf: the value of .$1. has " err &&
	! test -e out &&
	test_line_count = 0 written
}

test_expect_success 'a newline in series.prefix: no Bcc: header, one error' '
	injected series.prefix "PATCH
Bcc: victim@example.invalid"
'

test_expect_success 'a newline in series.to, series.cc, series.title, series.change-id' '
	injected series.to "A <a@example.invalid>
Bcc: victim@example.invalid" &&
	injected series.cc "c@example.invalid
X-Injected: yes" &&
	injected series.title "binder: add a
Subject: something else" &&
	injected series.change-id "20260101-one-0123456789ab
Bcc: victim@example.invalid"
'

test_expect_success 'a carriage return, an escape, a C1 control' '
	injected series.title "$(printf "binder\rBcc: x@example.invalid")" &&
	injected series.title "$(printf "binder \033[2J")" &&
	injected series.title "$(printf "binder \302\205 next")"
'

test_expect_success 'a hostile series.conf is not read through an include' '
	cp good.conf "$STORE/series/one/series.conf" &&
	mkfifo "$TRASH/fifo" &&
	printf "[include]\n\tpath = %s\n" "$TRASH/fifo" >>"$STORE/series/one/series.conf" &&
	test_must_fail timeout 20 "$KSERIES" format one@v1 -o out 2>err &&
	test_line_count = 1 err &&
	grep "include directives are not allowed" err
'

test_expect_success 'the good series.conf still formats the same mail' '
	cp good.conf "$STORE/series/one/series.conf" &&
	rm -rf again && kseries format one@v1 -o again >/dev/null &&
	diff -r -I "^Message-Id: " good again
'

test_expect_success 'import stores a value over 128 KiB; git config -f reads it' '
	mkdir -p big/series &&
	{
		printf "From a@b Thu Jan  1 00:00:00 1970\n"
		printf "From: A U Thor <a@example.invalid>\nTo: B <b@example.invalid>\n"
		printf "Subject: [PATCH] binder: %0204800d\n" 0
		printf "Date: Thu, 01 Jan 2026 00:00:00 +0000\nMessage-Id: <big@example.invalid>\n\n"
		printf "Why.\n\nSigned-off-by: A U Thor <a@example.invalid>\n---\n"
		git -C work diff v7.2.13 HEAD
	} >big.mbox &&
	(cd big && KSERIES_DIR= kseries import big ../big.mbox >../out 2>../err) &&
	test_line_count = 0 err &&
	git config -f big/series/big/series.conf series.title >title &&
	printf "binder: %0204800d\n" 0 >expect &&
	test_cmp expect title
'

test_expect_success 'an error about a value does not repeat it' '
	cp good.conf "$STORE/series/one/series.conf" &&
	printf "\ttitle = binder: %0204800d\\\\nBcc: victim@example.invalid\n" 0 \
		>>"$STORE/series/one/series.conf" &&
	git config -f "$STORE/series/one/series.conf" series.title | grep -c "^Bcc: victim" &&
	test_must_fail kseries format one@v1 -o out 2>err &&
	test_line_count = 1 err &&
	test $(wc -c <err) -lt 300
'

test_done
