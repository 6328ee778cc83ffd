#!/bin/bash
test_description='binder-large-handles: the perf stage is the in-kernel timing, base against patched'
. "$(dirname "$0")/lib.sh"

# series/binder-large-handles/check/perf runs measure/run with the check's
# commits (KSERIES_BASE, KSERIES_TIP), then reads the rank tests back and
# prints them as the stage's summary. Here the series' scripts run in a
# copy of the repository's layout whose kernel/kunit-run and
# kernel/chroot-run are stubs: the "kernel" kunit-run builds is a script
# that prints the suite's result lines for the kernel its source says
# (BINDER_HANDLES_KERNEL, BINDER_HANDLES_ENABLE), and chroot-run runs it.
# No kernel is built or booted; kernel/lib.sh and kernel/mann-whitney
# are the real ones.

TOP=$TRASH/top
SERIES=$TOP/series/binder-large-handles
mkdir -p "$TOP/kernel" "$SERIES"
cp "$SRC_DIR/kernel/lib.sh" "$SRC_DIR/kernel/mann-whitney" "$TOP/kernel/"
cp -R "$SRC_DIR/series/binder-large-handles/check" \
	"$SRC_DIR/series/binder-large-handles/measure" "$SERIES/"
rm -rf "$SERIES/measure/log"

cat >"$TOP/kernel/chroot-run" <<'EOF'
#!/bin/sh
# stub: drop the sandbox options, run the command
while [ "$1" != -- ]; do shift; done
shift
exec "$@"
EOF
cat >"$TOP/kernel/kunit-run" <<'EOF'
#!/bin/sh
# stub: --build-only --name NAME KUNITCONFIG SRC; the "kernel" prints the
# suite's lines. STUB_NO_ON: the patched kernel prints no mode=on line;
# STUB_FAIL_BOOT=K: the patched kernel's boot K fails its suite.
name=$3 src=$5
b=$KSERIES_CACHE/build/$name
mkdir -p "$b"
k=$(sed -n 's/^#define BINDER_HANDLES_KERNEL "\(.*\)"$/\1/p' "$src/drivers/android/binder.c")
modes=off
grep -q '^#define BINDER_HANDLES_ENABLE' "$src/drivers/android/binder.c" && modes="off on"
echo "built $k $(git -C "$src" rev-parse HEAD) $(head -n 1 "$src/drivers/android/binder.c")" >>"$KSERIES_CACHE/stub-builds"
cat >"$b/linux" <<EOT
#!/bin/sh
echo "\$0 \$*" >>"$KSERIES_CACHE/stub-boots"
n=\$(wc -l <"$KSERIES_CACHE/stub-boots")
for a; do case \$a in binder_linux.handles_rounds=*) rounds=\${a#*=} ;; esac; done
r=1
while [ \$r -le \$rounds ]; do
	for m in $modes; do
		[ \$m = on ] && [ -n "\${STUB_NO_ON:-}" ] && continue
		case $k.\$m in
		*.on) t=\$((290 + r + n)) f=\$((160000000 + r)) ;;
		*) t=\$((670 + 2 * r + n)) f=\$((230000000 + r)) ;;
		esac
		echo "[0.1] binder_linux: binder-handles-kunit: kernel=$k round=\$r mode=\$m refs=100000 probe=1000 fill_ns=\$f probe_tmean_ns=\$t probe_min_ns=1 probe_med_ns=\$t probe_p90_ns=9 probe_max_ns=99 last_desc=101000 dmap_nbits=131072"
	done
	r=\$((r + 1))
done
if [ "$k" != v7.2.13 ] && [ "\$n" = "\${STUB_FAIL_BOOT:-x}" ]; then
	echo "    not ok 1 binder_handles"
	exit 1
fi
echo "    ok 1 binder_handles"
EOT
chmod +x "$b/linux"
EOF
chmod +x "$TOP/kernel/chroot-run" "$TOP/kernel/kunit-run"

# The base tree: v7.2.13 and a tip commit on it (the series applied).
LINUX=$TRASH/linux
git init -q "$LINUX" &&
mkdir -p "$LINUX/drivers/android" &&
echo "/* base */" >"$LINUX/drivers/android/binder.c" &&
git -C "$LINUX" add . && git -C "$LINUX" commit -q -m base &&
git -C "$LINUX" tag v7.2.13 &&
BASE=$(git -C "$LINUX" rev-parse HEAD) &&
echo "/* tip */" >"$LINUX/drivers/android/binder.c" &&
git -C "$LINUX" commit -q -a -m tip &&
TIP=$(git -C "$LINUX" rev-parse HEAD)

# perf [ARG]: the stage as kseries check runs it, for v3
perf() {
	rm -rf "$TRASH/cache" "$TRASH/logs" && mkdir -p "$TRASH/logs" &&
	KSERIES_CACHE=$TRASH/cache KSERIES_TREE=$LINUX KSERIES_LOGDIR=$TRASH/logs \
	KSERIES_BASE=$BASE KSERIES_TIP=$TIP KSERIES_VERSION=${V:-3} \
		"$SERIES/check/perf" "$@"
}
L=$TRASH/logs/handles-perf

test_expect_success 'base against patched: the per-call rank tests are the summary' '
	perf "2 3" >out 2>err &&
	test "$(wc -l <out)" = 1 &&
	grep "^binder_get_ref_for_node_olocked() with 100,000 references held (UML KUnit, 2 boots x 3 rounds per kernel, 6 samples each;" out &&
	grep -q "per call v3 off [0-9.]* ns vs on [0-9.]* ns, p=0.0022 (on faster); v7.2.13 off [0-9.]* ns vs v3 off [0-9.]* ns, p=[0-9.]* (no difference);" out &&
	grep -q "the 100,000 calls: v3 off 230.0 ms vs on 160.0 ms, p=0.0022 (on faster)" out &&
	grep -q "^logs: $L " err
'

test_expect_success 'the kernels are the check commits, each with the suite included' '
	test "$(cat "$TRASH/cache/stub-builds")" = "built v7.2.13 $BASE /* base */
built v3 $TIP /* tip */"
'

test_expect_success 'every boot alternates and keeps its log where the stage log points' '
	sed "s/ .*//" "$TRASH/cache/stub-boots" >boots &&
	printf "%s\n" base v3 v3 base | sed "s|.*|$TRASH/cache/build/handles-measure/linux-&|" >expect &&
	test_cmp expect boots &&
	for f in boot-1-base boot-1-v3 boot-2-base boot-2-v3; do
		grep -q "^ *ok 1 binder_handles" "$L/$f.log" || return 1
	done &&
	grep -q "binder_linux.handles_refs=100000 binder_linux.handles_probe=1000 binder_linux.handles_rounds=3" "$TRASH/cache/stub-boots" &&
	test "$(grep -c "^flag: \|^base: " "$L/summary")" = 6 &&
	grep -q "^# base kernel: v7.2.13$" "$L/results" &&
	grep -q "^base: probe_tmean_ns: A=v7.2.13 off" "$L/summary"
'

test_expect_success 'the default is 4 boots of 5 rounds: 20 samples each' '
	perf >out 2>err &&
	grep -q "(UML KUnit, 4 boots x 5 rounds per kernel, 20 samples each;" out &&
	test "$(wc -l <"$TRASH/cache/stub-boots")" = 8
'

test_expect_success 'a missing mode is one error line, exit 1' '
	STUB_NO_ON=1 test_expect_code 1 perf "2 3" >out 2>err &&
	echo "series/binder-large-handles/measure/binder_handles_kunit.c:1: error: 0 of 6 results of kernel=v3 mode=on (logs: $L)" >expect &&
	test_cmp expect out
'

test_expect_success 'a boot whose suite fails is one error line naming its log' '
	STUB_FAIL_BOOT=3 test_expect_code 1 perf "2 3" >out 2>err &&
	test "$(wc -l <out)" = 1 &&
	grep "^series/binder-large-handles/measure/binder_handles_kunit.c:1: error: measure/run failed (exit 1): boot 2 (v3): the suite did not pass (exit 1), log: $L/boot-2-v3.log (logs: $L)$" out &&
	test -f "$L/boot-2-v3.log"
'

test_expect_success 'a version without the flag is not applicable; a bad argument is refused' '
	V=1 test_expect_code 77 perf 2>err &&
	test "$(tail -n 1 err)" = "no in-kernel timing for version '\''1'\'' (measure/run knows v2 and v3)" &&
	test_expect_code 2 perf "2 x" 2>err &&
	grep -q "^perf: bad argument" err &&
	test_expect_code 2 perf "0 5" 2>err &&
	test ! -e "$TRASH/cache/stub-builds"
'

test_expect_success 'measure/run: --base without --tip is a usage error' '
	test_expect_code 129 "$SERIES/measure/run" --base "$BASE" 2>err &&
	grep -q "^usage: measure/run" err &&
	test_expect_code 129 "$SERIES/measure/run" --base "$BASE" --tip "$TIP" --summary-only 2>err
'

test_done
