#!/bin/bash
# kill -9 during format: the scratch branch and directories it leaves
# are swept by the next run (issue 15 item 9). format's branch lives in
# a scratch repository inside its scratch directory, never in the base
# tree; a scratch directory is held by a flock while its run lives.
test_description='format: what a killed run leaves, the next one sweeps'
. "$(dirname "$0")/lib.sh"

export KSERIES_NO_SEND=1
# format needs a sender: this scratch HOME's own
test_sender
BASE=$TRASH/base
STORE=$TRASH/store
export KSERIES_TREE=$BASE KSERIES_DIR=$STORE KSERIES_CACHE=$TRASH/cache
export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
REAL_GIT=$(command -v git)

# kill_group OUT: SIGKILL to the process group of the format writing to
# OUT (setsid may have forked: $! is not always its leader).
kill_group() {
	local pgid
	pgid=$(ps -eo pgid=,args= | awk -v o="$1" '''$0 ~ "kseries format three -o " o "$" { print $1; exit }''')
	test -n "$pgid" && kill -9 -- "-$pgid"
}

# leftovers: what format runs left in the base tree and in $TMPDIR.
leftovers() {
	git -C "$BASE" for-each-ref --format='%(refname)' | grep kseries
	ls -a "$TRASH/tmp" | grep '^kseries-'
	return 0
}

test_expect_success 'setup: a base tree, a series with a cover, a git that can hang' '
	git init -q -b master "$BASE" &&
	echo "int binder;" >"$BASE/binder.c" &&
	git -C "$BASE" add binder.c &&
	git -C "$BASE" commit -q -m "Linux 7.2.13" &&
	git -C "$BASE" tag v7.2.13 &&
	git clone -q "$BASE" work &&
	for x in a b c; do
		echo "int $x;" >>work/binder.c &&
		git -C work commit -q -a -m "binder: add $x" -m "Why." \
			-m "Signed-off-by: Kseries Developers <dev@kseries.invalid>" || exit 1
	done &&
	mkdir -p "$STORE/series/three/v1" &&
	git -C work format-patch -q --cover-letter --base=v7.2.13 \
		-o "$STORE/series/three/v1" v7.2.13..HEAD &&
	git config -f "$STORE/series/three/series.conf" series.title "binder: add a, b, c" &&
	mkdir bin tmp &&
	cat >bin/git <<-EOF &&
	#!/bin/sh
	# hangs in format-patch while \$TRASH/hang exists
	case " \$* " in
	*" format-patch "*)
		if test -e "$TRASH/hang"; then
			: >"$TRASH/hang.reached"
			sleep 300
		fi;;
	esac
	exec "$REAL_GIT" "\$@"
	EOF
	chmod +x bin/git &&
	TMPDIR=$TRASH/tmp kseries format three -o out >/dev/null &&
	leftovers >left && test_line_count = 0 left
'

test_expect_success 'killed in format-patch: the next run sweeps its branch and directories' '
	: >hang &&
	PATH=$TRASH/bin:$PATH TMPDIR=$TRASH/tmp setsid "$KSERIES" format three -o out1 >/dev/null 2>&1 &
	pid=$! &&
	for i in $(seq 1 1200); do
		test -e hang.reached && break
		sleep 0.1
	done &&
	test -e hang.reached &&
	kill_group out1 &&
	wait $pid || :
	rm -f hang &&
	leftovers >left.killed &&
	cat left.killed &&
	test_line_count -gt 0 left.killed &&
	TMPDIR=$TRASH/tmp kseries format three -o out2 >/dev/null &&
	leftovers >left &&
	test_line_count = 0 left
'

test_expect_success 'a run does not sweep the directories of a live one' '
	: >hang && rm -f hang.reached &&
	PATH=$TRASH/bin:$PATH TMPDIR=$TRASH/tmp setsid "$KSERIES" format three -o out3 >/dev/null 2>&1 &
	pid=$! &&
	for i in $(seq 1 1200); do
		test -e hang.reached && break
		sleep 0.1
	done &&
	ls tmp | grep "^kseries-format-" >live &&
	test_line_count = 1 live &&
	TMPDIR=$TRASH/tmp kseries format three -o out4 >/dev/null &&
	test -d "tmp/$(cat live)" &&
	kill_group out3 &&
	wait $pid || :
	rm -f hang
'

test_expect_success 'killed between mkdir and .owner: swept once its maker is gone' '
	sh -c "exit 0" & dead=$! && wait $dead &&
	mkdir "tmp/kseries-format-p$dead-abcdef" "tmp/kseries-format-p$$-ghijkl" &&
	: >"tmp/kseries-format-p$dead-abcdef/patch" &&
	TMPDIR=$TRASH/tmp kseries format three -o out5 >/dev/null &&
	test ! -e "tmp/kseries-format-p$dead-abcdef" &&
	test -d "tmp/kseries-format-p$$-ghijkl" &&
	rmdir "tmp/kseries-format-p$$-ghijkl"
'

test_expect_success 'kill -9 at random points: every next run leaves the tree and $TMPDIR clean' '
	for i in $(seq 1 12); do
		(export TMPDIR=$TRASH/tmp && kill_at_random 600 "$KSERIES" format three -o "r$i") &&
		TMPDIR=$TRASH/tmp kseries format three -o "ok$i" >/dev/null &&
		leftovers >left &&
		test_line_count = 0 left || exit 1
	done &&
	test -s killed
'

test_done
