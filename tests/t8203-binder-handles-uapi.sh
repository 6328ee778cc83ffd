#!/bin/bash
test_description='binder-large-handles: the latest version'"'"'s uapi (one binder-specific ioctl, the test programs agree with it)'
. "$(dirname "$0")/lib.sh"

# Issue 22 asked for a binder-specific uapi name (not PF_*, which reads as
# the task flags of sched.h), a way to clear the flag and as few new
# ioctls as possible. What the latest version adds to
# include/uapi/linux/android/binder.h is read from its patches:
#  - every name it adds is BINDER_-prefixed, none is PF_* or proc_flags;
#  - it adds one ioctl, _IOW('b', N, __u32): a value, 0 to clear;
#  - check/prog/binder-handles-bench.c's private copy of the ioctl (the
#    host's headers do not have it) is the same number, and so is what
#    measure/binder_handles_kunit.c's BINDER_HANDLES_ENABLE stands for.
# Fast: patches and gcc only, no kernel.

SERIES=$SRC_DIR/series/binder-large-handles
latest=$(ls -d "$SERIES"/v[0-9]* 2>/dev/null | sed 's/.*\/v//' | sort -n | tail -n 1)
PROG=$SERIES/check/prog/binder-handles-bench.c

# the lines the latest version adds to the uapi header, without the "+"
uapi_added() {
	cat "$SERIES/v$latest"/0[0-9][0-9][1-9]-*.patch |
	awk '/^diff --git / { f = ($0 ~ / b\/include\/uapi\/linux\/android\/binder\.h$/) ; next }
	     f && /^\+[^+]/ { print substr($0, 2) }'
}

test_expect_success 'the latest version adds to the binder uapi header' '
	test -n "$latest" &&
	uapi_added >added &&
	test -s added
'

test_expect_success 'no PF_ prefix, no proc_flags: every name added is BINDER_' '
	! grep -E "\bPF_[A-Z_]+|\bproc_flags\b" added &&
	grep -oE "^[[:space:]]*[A-Z][A-Z0-9_]+[[:space:]]*=" added |
		tr -d " \t=" >names &&
	test -s names &&
	! grep -v "^BINDER_" names
'

test_expect_success 'one new ioctl, and it takes a value (_IOW, __u32)' '
	grep -E "=[[:space:]]*_IO(W|R|WR)?\(" added >ioctls &&
	test_line_count = 1 ioctls &&
	grep -E "^[[:space:]]*BINDER_[A-Z_]+[[:space:]]*=[[:space:]]*_IOW\(.b., [0-9]+, __u32\),$" ioctls
'

test_expect_success 'the uapi comment says what clearing does to the handles held' '
	grep -qi "zero" added &&
	grep -qi "do not change" added
'

if command -v gcc >/dev/null; then
	test_set_prereq CC
else
	SKIP_REASON='no gcc'
fi

test_expect_success CC 'binder-handles-bench uses the same ioctl number as the series' '
	name=$(sed -n "s/^[[:space:]]*\(BINDER_[A-Z_]*\)[[:space:]]*=.*/\1/p" ioctls) &&
	expr=$(sed -n "s/^[[:space:]]*BINDER_[A-Z_]*[[:space:]]*=[[:space:]]*\(_IOW(.*)\),$/\1/p" ioctls) &&
	test -n "$expr" &&
	grep -q "^#define ${name}_[[:space:]]" "$PROG" &&
	sed -n "/^#define ${name}_[[:space:]]/p" "$PROG" >prog-define &&
	{
		echo "#include <linux/types.h>" &&
		echo "#include <linux/ioctl.h>" &&
		cat prog-define &&
		echo "_Static_assert(($expr) == ${name}_, \"the program and the series disagree\");" &&
		echo "int main(void) { return 0; }"
	} >agree.c &&
	gcc -Wall -Werror -o agree agree.c
'

test_expect_success CC 'and the check fails when they disagree' '
	sed "s/^\(#define [A-Z_]*[[:space:]]*_IOW(.b., \)[0-9]*/\199/" prog-define >bad-define &&
	! cmp -s prog-define bad-define &&
	sed "s/^#define .*/$(sed "s/[&/\\]/\\\\&/g" bad-define)/" agree.c >disagree.c &&
	test_must_fail gcc -Wall -Werror -o disagree disagree.c 2>err &&
	grep -q "disagree" err
'

test_expect_success 'measure/run maps the latest version to its ioctl'"'"'s field' '
	grep -q "^			v$latest) printf .#define BINDER_HANDLES_ENABLE(p, on) ((p)->large_handles = (on))" \
		"$SERIES/measure/run" &&
	grep -q "^+	bool large_handles;" "$SERIES/v$latest"/0001-*.patch
'

test_expect_success 'Alice'"'"'s Reviewed-by of v1 3/4 is outdated: the single-patch v3 must not get it' '
	f=$(grep -l "^Trailer: Reviewed-by: Alice Ryhl" "$SERIES"/feedback/*) &&
	grep -q "^Applies-To: <20240417191418.1341988-4-cmllamas@google.com>$" $f &&
	grep -q "^Status: outdated$" $f &&
	! grep -q "^Reviewed-by:" "$SERIES/v$latest"/0001-*.patch
'

test_done
