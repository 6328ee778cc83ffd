# tests/lib.sh - a small TAP test library in the manner of git's test-lib.sh.
#
# Source it at the top of tests/tNNNN-area-detail.sh after setting
# test_description. Each test_expect_success runs its body in a subshell
# inside a private scratch directory ($TRASH), and prints one TAP line.

set -u

TEST_DIR=$(cd "$(dirname "$0")" && pwd)
SRC_DIR=$(cd "$TEST_DIR/.." && pwd)
KSERIES=${KSERIES:-$SRC_DIR/kseries}
TEST_NAME=$(basename "$0" .sh)
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/kseries-$TEST_NAME.XXXXXX")
FIXTURES=$TEST_DIR/$(echo "$TEST_NAME" | cut -d- -f1)
export KSERIES SRC_DIR TEST_DIR FIXTURES TRASH
export LC_ALL=C TZ=UTC
export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.invalid
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL=committer@example.invalid
test_count=0
test_failed=0
test_skipped=0
declare -A test_prereq=()

REAL_HOME=${HOME:-/root}
# REAL_CACHE: the workbench cache of the user running the tests (kernel/lib.sh
# says where), not the scratch HOME's.
REAL_CACHE=$(HOME=$REAL_HOME && . "$SRC_DIR/kernel/lib.sh" && printf '%s\n' "$KSERIES_CACHE")
export GIT_CONFIG_NOSYSTEM=1 HOME=$TRASH/home
mkdir -p "$HOME"


trap 'rm -rf "$TRASH"' EXIT

kseries() { "$KSERIES" "$@"; }

# TREE: the Linux 7.2.13 base tree is provisioned (kernel/provision-base).
# The tests use it read-only; kseries' own cache (results, worktrees) is
# private to each test, under $HOME, unless a test sets KSERIES_CACHE.
: "${KSERIES_TREE:=$REAL_CACHE/linux}"
if git -C "$KSERIES_TREE" rev-parse -q --verify refs/tags/v7.2.13 >/dev/null 2>&1; then
	test_prereq[TREE]=1
	export KSERIES_TREE
else
	unset KSERIES_TREE
	SKIP_REASON_TREE="no base tree: run kernel/provision-base"
fi
# KERNEL: the heavy kernel stages (builds, KUnit, VM) were asked for.
if [ "${KSERIES_KERNEL_TESTS:-}" = 1 ]; then
	test_prereq[KERNEL]=1
fi
# WORKBENCH: kernel builds, sparse, Rust and KUnit through the workbench
# (the sid chroot is provisioned on first use), but no VM: make test
# (KSERIES_WORKBENCH_TESTS=1) and make check-kernel.
if [ "${KSERIES_WORKBENCH_TESTS:-}" = 1 ] || [ "${KSERIES_KERNEL_TESTS:-}" = 1 ]; then
	test_prereq[WORKBENCH]=1
fi

say() { printf '# %s\n' "$*"; }
# A test body may write TAP diagnostics ("# ...") to fd 3 (prove -v shows
# them), and figures every run should show to fd 4 (stderr: prove shows it).
exec 3>&1 4>&2

# test_sender [NAME EMAIL]: this scratch HOME's git identity, the sender
# format, send and b4-branch need (never a placeholder address: they
# refuse one).
test_sender() {
	git config --global user.name "${1:-Sam Sender}" &&
	git config --global user.email "${2:-sam@example.org}"
}

# test_synthetic_env: a small synthetic base tree ($BASE, made by the test)
# and store ($STORE) under $TRASH, kseries' cache there too, nothing sent,
# fixed author and committer dates.
test_synthetic_env() {
	BASE=$TRASH/base
	STORE=$TRASH/store
	export KSERIES_NO_SEND=1 KSERIES_TREE=$BASE KSERIES_DIR=$STORE \
		KSERIES_CACHE=$TRASH/cache
	export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' \
		GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
}

# test_commit_file REPO PATH TEXT SUBJECT [BODY]: append TEXT to PATH in
# REPO and commit it with SUBJECT, BODY (default "Some words on why.")
# and the trailer $SOB.
test_commit_file() {
	mkdir -p "$(dirname "$1/$2")"
	printf '%s\n' "$3" >>"$1/$2"
	git -C "$1" add "$2"
	git -C "$1" commit -q -F - <<-EOF
	$4

	${5:-Some words on why.}

	$SOB
	EOF
}

# test_kernel_prereq CACHE [sid] [qemu]: the KERNEL prereq of the tests
# that build and boot kernels (make check-kernel sets
# KSERIES_KERNEL_TESTS=1): the base tree in CACHE/linux, and the sid
# chroot (for Rust) and qemu-system-x86_64 when named; else SKIP_REASON
# says what is missing.
test_kernel_prereq() {
	local cache=$1 need
	shift
	if [ "${KSERIES_KERNEL_TESTS:-}" != 1 ]; then
		SKIP_REASON='set KSERIES_KERNEL_TESTS=1 (make check-kernel)'
		return
	fi
	if [ ! -e "$cache/linux/.git" ]; then
		SKIP_REASON="no base tree in $cache/linux (kernel/provision-base)"
		return
	fi
	for need; do
		case $need in
		sid) [ -s "$cache/sid/.kseries-versions" ] || {
			SKIP_REASON="no sid chroot in $cache/sid (kernel/provision-toolchain): Rust needs it"
			return
		} ;;
		qemu) command -v qemu-system-x86_64 >/dev/null || {
			SKIP_REASON='no qemu-system-x86_64'
			return
		} ;;
		esac
	done
	test_set_prereq KERNEL
}

# test_complete_words WORDS...: what completion/kseries.bash's _kseries
# offers for the last word, sorted, one a line; kseries is the binary
# under test.
test_complete_words() {
	bash -c '
		kseries() { "$KSERIES" "$@"; }
		export -f kseries
		. "$1" || exit 1
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_kseries
		[ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"
	' complete "$SRC_DIR/completion/kseries.bash" "$@" | sort
}

# test_stub_kernel [CMD...]: kstub/ and cstub/ under $TRASH, each kernel/
# script the check stages call (default: kbuild kunit-run sparse-check
# chroot-run) a stub that appends its name and arguments to $TRASH/ran
# and exits 0; stub_check ARGS runs `kseries check ARGS` with them.
test_stub_kernel() {
	local s
	mkdir -p "$TRASH/kstub" "$TRASH/cstub" || return 1
	for s in ${@:-kbuild kunit-run sparse-check chroot-run}; do
		printf '#!/bin/sh\necho "%s $*" >>"%s/ran"\nexit 0\n' "$s" "$TRASH" \
			>"$TRASH/kstub/$s" && chmod +x "$TRASH/kstub/$s" || return 1
	done
}
stub_check() {
	rm -f "$TRASH/ran"
	KSERIES_KERNEL_DIR=$TRASH/kstub KSERIES_COCCI_DIR=$TRASH/cstub \
		"$KSERIES" check "$@"
}

# test_small_tree [DIR]: DIR (default tree) a git repository of one
# commit, drivers/android/binder_alloc.c holding "int binder_alloc_x;",
# tagged v7.2.13: the base of the check tests that need no kernel.
test_small_tree() {
	local t=${1:-tree}
	mkdir -p "$t/drivers/android" &&
	printf 'int binder_alloc_x;\n' >"$t/drivers/android/binder_alloc.c" &&
	git -C "$t" init -q -b master &&
	git -C "$t" add . &&
	git -C "$t" -c user.name=T -c user.email=t@example.org commit -q -m base &&
	git -C "$t" tag v7.2.13
}

# test_series NAME [N [STORE]]: STORE/series/NAME/vN (default store/, v1)
# and a series.conf: title "t", base v7.2.13, prefix PATCH.
test_series() {
	local d=${3:-store}/series/$1
	mkdir -p "$d/v${2:-1}" &&
	printf '[series]\n\ttitle = t\n\tbase = v7.2.13\n\tprefix = PATCH\n' >"$d/series.conf"
}
# test_reply_mail FILE FROM PATCH-FILE BODY: in FILE, a reply from FROM to
# the stored patch mail PATCH-FILE (its Message-ID and Subject), saying BODY
test_reply_mail() {
	local id subj
	id=$(sed -n "s/^Message-ID: <\(.*\)>$/\1/Ip" "$3" | head -1)
	subj=$(sed -n "s/^Subject: //p" "$3" | head -1)
	{
		echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
		echo "From: $2"
		echo "Subject: Re: $subj"
		echo "Date: Tue, 02 Jun 2026 09:00:00 +0000"
		echo "Message-ID: <$(basename "$1")@example.invalid>"
		echo "In-Reply-To: <$id>"
		echo "References: <$id>"
		echo
		printf "%s\n" "$4"
		echo
	} >"$1"
}


# test_patch_mail [-a AUTHOR] [-d DATE] [-m MSGID] [-b BODY] [-u] [-n] [-s]
#	OUT SUBJECT PATH OLD NEW
# Write OUT, a one-patch mail in git format-patch's form whose diff takes
# PATH from the file OLD to the file NEW, signed off by its author.
# Defaults: A U Thor <author@example.org>, Mon, 30 Nov 2026 10:00:00
# +0000, no Message-ID, the body "A change to binder_alloc.c for the
# check tests.". -u: 8bit UTF-8 MIME headers; -n: no Signed-off-by; -s:
# no "-- " signature.
test_patch_mail() {
	local author='A U Thor <author@example.org>' date='Mon, 30 Nov 2026 10:00:00 +0000'
	local msgid='' body='A change to binder_alloc.c for the check tests.'
	local utf8=0 sob=1 sig=1 opt OPTIND=1
	while getopts a:d:m:b:uns opt; do
		case $opt in
		a) author=$OPTARG ;;
		d) date=$OPTARG ;;
		m) msgid=$OPTARG ;;
		b) body=$OPTARG ;;
		u) utf8=1 ;;
		n) sob=0 ;;
		s) sig=0 ;;
		*) echo "test_patch_mail: bad option" >&2; return 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 5 ] || { echo "usage: test_patch_mail [OPTION...] OUT SUBJECT PATH OLD NEW" >&2; return 2; }
	{
		echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
		echo "From: $author"
		echo "Date: $date"
		[ -z "$msgid" ] || echo "Message-ID: <$msgid>"
		echo "Subject: $2"
		if [ "$utf8" = 1 ]; then
			echo "MIME-Version: 1.0"
			echo "Content-Type: text/plain; charset=UTF-8"
			echo "Content-Transfer-Encoding: 8bit"
		fi
		echo
		echo "$body"
		echo
		[ "$sob" = 0 ] || echo "Signed-off-by: $author"
		echo "---"
		diff -u --label "a/$3" --label "b/$3" "$4" "$5"
		[ "$sig" = 0 ] || printf -- '-- \n2.39.5\n'
	} >"$1" || test $? = 1
}

# test_binder_patch [test_patch_mail OPTION...] OUT SUBJECT SED: that mail
# for v7.2.13's drivers/android/binder_alloc.c (the TREE prerequisite)
# edited by the sed script SED; old.c and new.c stay in the directory.
test_binder_patch() {
	local n=$#
	[ "$n" -ge 3 ] || { echo "usage: test_binder_patch [OPTION...] OUT SUBJECT SED" >&2; return 2; }
	git -C "$KSERIES_TREE" show v7.2.13:drivers/android/binder_alloc.c >old.c &&
	sed "${!n}" old.c >new.c &&
	test_patch_mail "${@:1:n-1}" drivers/android/binder_alloc.c old.c new.c
}

# test_set_prereq NAME: mark a prerequisite as satisfied.
test_set_prereq() { test_prereq[$1]=1; }

# test_have_prereq A,B: true when every named prerequisite is set.
test_have_prereq() {
	local p
	for p in ${1//,/ }; do
		[ -n "${test_prereq[$p]:-}" ] || return 1
	done
}

# test_expect_success [PREREQ] 'title' 'body'
test_expect_success() {
	local prereq='' title body
	if [ $# -eq 3 ]; then prereq=$1; shift; fi
	title=$1 body=$2
	test_count=$((test_count + 1))
	if [ -n "$prereq" ] && ! test_have_prereq "$prereq"; then
		test_skipped=$((test_skipped + 1))
		echo "ok $test_count # SKIP $title (missing $prereq${SKIP_REASON:+: $SKIP_REASON})"
		return 0
	fi
	if (cd "$TRASH" && set -e && eval "$body") >"$TRASH/.out" 2>&1; then
		echo "ok $test_count - $title"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $title"
		sed 's/^/#   /' "$TRASH/.out" | head -n 60
	fi
}

# test_must_fail CMD...: CMD must exit non-zero but not by a signal.
test_must_fail() {
	local rc=0
	"$@" || rc=$?
	if [ $rc -eq 0 ]; then
		echo "test_must_fail: command succeeded: $*" >&2
		return 1
	elif [ $rc -gt 128 ] && [ $rc -ne 128 ] && [ $rc -ne 129 ]; then
		echo "test_must_fail: died by signal $((rc - 128)): $*" >&2
		return 1
	fi
	return 0
}

# test_expect_code N CMD...
test_expect_code() {
	local want=$1 rc=0
	shift
	"$@" || rc=$?
	if [ $rc -ne "$want" ]; then
		echo "test_expect_code: want $want, got $rc: $*" >&2
		return 1
	fi
}

# kill_at_random MAXMS CMD...: runs CMD (a program: the kseries shell
# function would put a subshell between the kill and kseries) in a
# session of its own and kills it and its children (git, checkpatch)
# with SIGKILL after 0..MAXMS milliseconds, or lets it finish first.
# A kill that landed appends CMD to $TRASH/killed.
kill_at_random() {
	local max=$1 ms pid
	shift
	ms=$((RANDOM % max))
	setsid "$@" >/dev/null 2>&1 &
	pid=$!
	sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
	if kill -9 -- "-$pid" 2>/dev/null; then
		echo "$*" >>"$TRASH/killed"
	fi
	wait "$pid" 2>/dev/null || :
}

# test_cmp EXPECTED ACTUAL
test_cmp() { diff -u "$1" "$2"; }

# test_line_count OP N FILE
test_line_count() {
	local n
	n=$(wc -l <"$3")
	if ! [ "$n" "$1" "$2" ]; then
		echo "test_line_count: $3 has $n lines, want $1 $2" >&2
		return 1
	fi
}

test_done() {
	echo "1..$test_count"
	say "passed $((test_count - test_failed - test_skipped)), failed $test_failed, skipped $test_skipped"
	[ "$test_failed" -eq 0 ]
	exit $?
}
