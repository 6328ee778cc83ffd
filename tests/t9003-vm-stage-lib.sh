#!/bin/bash
test_description='kernel/vm-stage.sh: the shell library of the series VM stages, without a kernel'
. "$(dirname "$0")/lib.sh"

# What the series' check/vm and check/perf share lives in kernel/vm-stage.sh:
# the worktree and build dir of a stage, its programs (check/prog/NAME.c)
# built statically and packed into an initramfs, and the summary lines and
# fields read back from a boot's log. Here a fake series stage sources it,
# with a private cache, a small git repository as the base tree and a
# fake kernel builder (-k): nothing builds or boots a kernel.

if command -v gcc >/dev/null && command -v cpio >/dev/null &&
   file /bin/busybox 2>/dev/null | grep -q 'statically linked' &&
   echo 'int main(void){return 0;}' | gcc -static -x c -o "$TRASH/static-probe" - 2>/dev/null; then
	test_set_prereq TOOLS
else
	SKIP_REASON='needs gcc able to link statically, cpio and busybox-static'
fi
if [ -f /usr/include/linux/android/binderfs.h ]; then
	test_set_prereq UAPI
fi

# A fake series: check/stage sources the library and runs the shell
# function named by its arguments, check/prog/ holds its program.
S=$TRASH/series/fake/check
mkdir -p "$S/prog"
cat >"$S/prog/hello.c" <<'EOF'
#include <stdio.h>
int main(void)
{
	printf("hello: mode=on n=3 ratio=-1.25 word=OK\n");
	return 0;
}
EOF
cat >"$S/stage" <<EOF
#!/usr/bin/env bash
. "$SRC_DIR/kernel/vm-stage.sh"
vs_init -k "\$VS_CHECK/builder" fake
"\$@"
EOF
cat >"$S/builder" <<'EOF'
#!/bin/sh
# a fake kernel builder: records its arguments and the checked-out commit
echo "$* $(git -C "$1" rev-parse HEAD)" >>"$KSERIES_LOGDIR/builder.calls"
mkdir -p "$(dirname "$2")" && echo image >"$2"
EOF
chmod +x "$S/stage" "$S/builder"

# The base tree: two commits, the second adding a selftest source.
BASE=$TRASH/linux
git init -q "$BASE" &&
git -C "$BASE" commit -q --allow-empty -m base &&
C1=$(git -C "$BASE" rev-parse HEAD) &&
mkdir -p "$BASE/tools/sel" &&
printf '#include <stdio.h>\nint main(void) { puts("sel: rc=0"); return 0; }\n' \
	>"$BASE/tools/sel/t.c" &&
git -C "$BASE" add tools && git -C "$BASE" commit -q -m "add a selftest" &&
C2=$(git -C "$BASE" rev-parse HEAD)

stage() {
	KSERIES_CACHE=$TRASH/cache KSERIES_TREE=$BASE KSERIES_LOGDIR=$TRASH/logs \
		"$S/stage" "$@"
}

test_expect_success 'the cache default is kernel/lib.sh'"'"'s' '
	(unset KSERIES_CACHE; HOME=/nowhere; . "$SRC_DIR/kernel/vm-stage.sh" &&
	 test "$VS_CACHE" = /nowhere/.cache/kseries &&
	 test "$KSERIES_CACHE" = /nowhere/.cache/kseries) &&
	(KSERIES_CACHE=/elsewhere; . "$SRC_DIR/kernel/vm-stage.sh" &&
	 test "$VS_CACHE" = /elsewhere)
'

test_expect_success 'vs_init: the stage directory, its prog/, worktree and images' '
	stage eval "echo \$VS_CHECK \$VS_PROG \$VS_WT \$VS_IMAGES \$VS_OUT" >out &&
	echo "$S $S/prog $TRASH/cache/wt/fake $TRASH/cache/build/vm-fake/images $TRASH/logs/fake" >expect &&
	test_cmp expect out
'

test_expect_success 'vs_kernel: the builder gets the worktree at REV and the image path' '
	KSERIES_TIP=$C2 stage vs_kernel "$C1" check-base &&
	stage vs_kernel "$C2" check-tip &&
	cat >expect <<-EOF &&
	$TRASH/cache/wt/fake $TRASH/cache/build/vm-fake/images/check-base.bzImage $C1
	$TRASH/cache/wt/fake $TRASH/cache/build/vm-fake/images/check-tip.bzImage $C2
	EOF
	test_cmp expect logs/builder.calls &&
	test -f cache/build/vm-fake/images/check-tip.bzImage
'

test_expect_success TOOLS 'vs_initrd_of: the program of prog/, static, alone in the initramfs' '
	stage vs_initrd_of hello -Wextra &&
	! readelf -l logs/fake/hello | grep -q "program interpreter" &&
	mkdir x && (cd x && zcat ../logs/fake/initrd.gz | cpio --quiet -id) &&
	cmp x/tests/hello logs/fake/hello &&
	echo hello >expect && test_cmp expect x/tests/list &&
	cmp x/init "$SRC_DIR/kernel/vm-init"
'

test_expect_success TOOLS 'vs_cc fails on a program that does not build' '
	printf "int main(void) { return missing; }\n" >"$S/prog/broken.c" &&
	test_must_fail stage vs_cc broken 2>err &&
	grep -q "missing" err &&
	rm "$S/prog/broken.c"
'

test_expect_success TOOLS 'vs_tip_cc: a source of the tip, from the tip checked out' '
	KSERIES_TIP=$C2 stage vs_tip_cc tools/sel/t.c sel-t &&
	test -x logs/fake/sel-t &&
	test "$(git -C cache/wt/fake rev-parse HEAD)" = "$C2"
'

test_expect_success TOOLS 'vs_tip_cc: absent at the base, an error when it does not build' '
	export KSERIES_TIP=$C1 &&
	test_expect_code 1 stage vs_tip_cc tools/sel/t.c sel-u &&
	test ! -e logs/fake/sel-u &&
	export KSERIES_TIP=$C2 &&
	test_must_fail stage vs_tip_cc tools/sel/t.c sel-v -DX -include /no/such.h 2>err &&
	grep -q "error: cannot build tools/sel/t.c of the tip" err
'

test_expect_success 'vs_tip_has and vs_tip_grep read the tip commit, not the worktree' '
	git -C cache/wt/fake checkout -q --detach -f "$C1" &&
	KSERIES_TIP=$C2 stage vs_tip_has tools/sel/t.c &&
	KSERIES_TIP=$C2 stage vs_tip_grep "^int main" tools/sel/t.c &&
	KSERIES_TIP=$C2 test_expect_code 1 stage vs_tip_grep "^nothing" tools/sel/t.c &&
	KSERIES_TIP=$C1 test_expect_code 1 stage vs_tip_has tools/sel/t.c &&
	KSERIES_TIP=$C1 test_expect_code 1 stage vs_tip_grep main tools/sel/t.c &&
	KSERIES_TIP=$C2 test_expect_code 1 stage vs_tip_has tools/sel &&
	test "$(git -C cache/wt/fake rev-parse HEAD)" = "$C1"
'

# -b: stages of several names build in one build dir and worktree, each
# keeping its own images and logs.
cat >"$S/shared" <<EOF
#!/usr/bin/env bash
. "$SRC_DIR/kernel/vm-stage.sh"
vs_init -b pool -l "\$@"
echo "\$VS_NAME \$VS_BUILD \$VS_WT \$VS_IMAGES \$VS_OUT \${VS_FRAGS[*]}"
EOF
printf '#!/usr/bin/env bash\n. "%s/kernel/vm-stage.sh"\nvs_init -k /bin/true -b pool x\n' \
	"$SRC_DIR" >"$S/both"
chmod +x "$S/shared" "$S/both"

test_expect_success 'vs_init -b: one build dir and worktree, images and logs per name' '
	KSERIES_CACHE=$TRASH/cache KSERIES_LOGDIR=$TRASH/logs "$S/shared" one one >out &&
	KSERIES_CACHE=$TRASH/cache KSERIES_LOGDIR=$TRASH/logs "$S/shared" l2 two "$S/stage" >>out &&
	cat >expect <<-EOF &&
	one pool $TRASH/cache/wt/pool $TRASH/cache/build/vm-one/images $TRASH/logs/one 
	two pool $TRASH/cache/wt/pool $TRASH/cache/build/vm-two/images $TRASH/logs/l2 -f $S/stage
	EOF
	test_cmp expect out
'

test_expect_success 'vs_init -b is refused with -k (a builder names its own build dir)' '
	test_expect_code 2 env KSERIES_CACHE=$TRASH/cache KSERIES_LOGDIR=$TRASH/logs "$S/both" 2>err &&
	grep -q "^vs_init: -b is for kernel/vm-build" err
'

test_expect_success TOOLS 'vs_initramfs: several programs in order, an --extra one unlisted' '
	stage vs_cc hello &&
	cp logs/fake/hello logs/fake/second &&
	stage vs_initramfs --extra hello second &&
	mkdir y && (cd y && zcat ../logs/fake/initrd.gz | cpio --quiet -id) &&
	test -x y/tests/hello &&
	echo second >expect && test_cmp expect y/tests/list
'

test_expect_success 'vs_line and vs_field: the last summary line, its fields' '
	mkdir -p logs/fake &&
	printf "%s\r\n" "boot noise" "prog: mode=off n=1 x=7" \
		"prog: mode=on n=2 ratio=-0.5 v=OK.1" "prog: mode=off n=3 x=8" \
		"prog: error: late" >logs/fake/lab.log &&
	test "$(stage vs_line lab "prog: mode=off ")" = "$(printf "prog: mode=off n=3 x=8\r")" &&
	test "$(stage vs_field n lab "prog: mode=off ")" = 3 &&
	test "$(stage vs_field ratio lab "prog: mode=on ")" = -0.5 &&
	test "$(stage vs_field v lab "prog: mode=on ")" = OK.1 &&
	test -z "$(stage vs_field n lab "prog: ")" &&
	test -z "$(stage vs_field n lab "absent: ")" &&
	test -z "$(stage vs_line nolog "prog: ")"
'

# A stage that boots a VM does it through kernel/vm-stage.sh (never qemu
# itself); one that boots none (binder-large-handles' perf: UML KUnit
# through its measure/run) uses none of the library.
test_expect_success 'the series keep their stages and prog/, no lib.sh, no tests/kernel/' '
	test ! -e "$SRC_DIR/tests/kernel" &&
	for d in "$SRC_DIR"/series/*/check; do
		test ! -e "$d/lib.sh" || { echo "$d/lib.sh"; exit 1; }
		for f in "$d"/vm "$d"/perf; do
			[ -e "$f" ] || continue
			bash -n "$f" || exit 1
			! grep -q "qemu-system" "$f" || { echo "$f: runs qemu itself"; exit 1; }
			if grep -q "^[^#]*\bvs_[a-z_]*" "$f"; then
				grep -q "kernel/vm-stage.sh" "$f" || { echo "$f: no vm-stage.sh"; exit 1; }
			fi
			# every program a stage builds is in its prog/
			for p in $(sed -n "s/^[[:space:]]*vs_\(cc\|initrd_of\) \([-a-z0-9_]*\).*/\2/p" "$f"); do
				test -f "$d/prog/$p.c" || { echo "$f: no prog/$p.c"; exit 1; }
			done
		done
	done
'

test_expect_success TOOLS,UAPI 'every series program builds through vs_cc with the shared header' '
	for c in "$SRC_DIR"/series/*/check/prog/*.c; do
		p=$(basename "$c" .c) &&
		VS_PROG=$(dirname "$c") stage vs_cc "$p" -pthread -Wextra -Werror ||
			{ echo "$c does not build"; exit 1; }
		test -x "logs/fake/$p" || exit 1
	done
'

test_expect_success 'shellcheck finds nothing in the library and the stages' '
	if ! command -v shellcheck >/dev/null; then
		say "no shellcheck: skipped inside the test"
		exit 0
	fi
	shellcheck -S warning -x "$SRC_DIR/kernel/vm-stage.sh" "$SRC_DIR/kernel/lib.sh" \
		"$SRC_DIR"/series/*/check/vm "$SRC_DIR"/series/*/check/perf \
		"$SRC_DIR"/series/*/check/vmkernel
'

test_done
