#!/usr/bin/env bash
test_description='kernel/kunit-run: the x86_64 path (tinyconfig + kunitconfig, qemu TCG -smp 2) without a kernel build'
. "$(dirname "$0")/lib.sh"

# kunit-run and lib.sh as they are, next to a chroot-run that runs the
# command here (no chroot), with a make, a qemu-system-x86_64 and a
# kunit.py that only act their part: make writes the .config as kconfig
# would (the last line for a symbol wins) and an empty bzImage, qemu
# prints the console of a boot ($FAKE_BOOT: pass, fail, oops, panic),
# kunit.py parse fails on a "not ok". What is checked is kunit-run's own
# work: the make steps, the check of the .config, qemu's command line,
# and the verdict of each run.
setup() {
	mkdir -p kernel bin src/tools/testing/kunit cache &&
	cp "$SRC_DIR/kernel/kunit-run" "$SRC_DIR/kernel/lib.sh" kernel/ &&
	cat >kernel/chroot-run <<-\EOS &&
	#!/bin/bash
	while [ $# -gt 0 ]; do
		case $1 in
		--) shift; break ;;
		-C) cd "$2"; shift 2 ;;
		--env) export "$2"; shift 2 ;;
		--bind|--ro-bind) shift 2 ;;
		--ro-bind-to) shift 3 ;;
		*) shift ;;
		esac
	done
	exec "$@"
	EOS
	cat >bin/make <<-\EOS &&
	#!/bin/bash
	printf "%s\n" "$*" >>"$TRASH/make.log"
	O= t=
	while [ $# -gt 0 ]; do
		case $1 in
		-C) shift ;;
		O=*) O=${1#O=} ;;
		-*|*=*) ;;
		*) t=$1 ;;
		esac
		shift
	done
	case $t in
	tinyconfig)
		printf "CONFIG_64BIT=y\n# CONFIG_SMP is not set\n# CONFIG_PREEMPT is not set\n" >"$O/.config" ;;
	olddefconfig)
		tac "$O/.config" | awk "{ k = \$0; if (k ~ /^# CONFIG_/) k = \$2; else sub(/=.*/, \"\", k);
			if (!(k in seen)) { seen[k] = 1; print } }" | tac |
			grep -v "^${FAKE_DROP:-NONE}=" >"$O/.config.new"
		mv "$O/.config.new" "$O/.config" ;;
	"")
		mkdir -p "$O/arch/x86/boot" && : >"$O/arch/x86/boot/bzImage" ;;
	esac
	EOS
	cat >bin/qemu-system-x86_64 <<-\EOS &&
	#!/bin/bash
	printf "%s\n" "$@" >"$TRASH/qemu.args"
	echo "TAP version 13"
	echo "1..1"
	echo "    # Subtest: binder_alloc"
	echo "    1..1"
	case ${FAKE_BOOT:-pass} in
	pass)
		echo "    # binder_alloc_test_shrink_concurrent: 2000 + 2000 buffers, 150 pages reclaimed concurrently, 80 -EBUSY, 79 waits, 3 waits for a zap"
		echo "    ok 1 binder_alloc_test_shrink_concurrent"
		echo "ok 1 binder_alloc" ;;
	fail)
		echo "    # binder_alloc_test_shrink_concurrent: EXPECTATION FAILED at x.c:1"
		echo "    not ok 1 binder_alloc_test_shrink_concurrent"
		echo "not ok 1 binder_alloc" ;;
	oops)
		echo "BUG: kernel NULL pointer dereference, address: 0000000000000028"
		echo "    not ok 1 binder_alloc_test_shrink_concurrent"
		echo "not ok 1 binder_alloc" ;;
	panic)
		echo "Kernel panic - not syncing: IO-APIC + timer doesnt work!"
		exit 0 ;;
	esac
	EOS
	cat >src/tools/testing/kunit/kunit.py <<-\EOS &&
	#!/usr/bin/env python3
	import sys
	assert sys.argv[1] == "parse"
	log = open(sys.argv[2]).read()
	sys.exit(1 if "not ok" in log or "ok 1 binder_alloc" not in log else 0)
	EOS
	chmod +x kernel/kunit-run kernel/chroot-run bin/make \
		bin/qemu-system-x86_64 src/tools/testing/kunit/kunit.py &&
	printf "CONFIG_KUNIT=y\nCONFIG_SMP=y\nCONFIG_PREEMPT=y\n# CONFIG_SLUB_TINY is not set\n" \
		>alloc.kunitconfig
}

q="'"
# ccache off: with it, the build's PATH is the sandbox's fixed one
# (ccache's masquerade first), which would pass over the stub make;
# t9007 tests kunit-run's ccache path
export KSERIES_CACHE=$TRASH/cache PATH=$TRASH/bin:$PATH KSERIES_CCACHE=0
BUILD=$TRASH/cache/build/kunit-x
run() { "$TRASH/kernel/kunit-run" --arch x86_64 --name kunit-x "$@" alloc.kunitconfig src; }

# kunit-run runs the build as the kbuild user: it chowns the build
# directory to it, which needs root.
[ "$(id -u)" = 0 ] && test_set_prereq ROOT

test_expect_success ROOT 'setup' 'setup'

test_expect_success ROOT 'x86_64: built from tinyconfig plus the kunitconfig, booted once, passes' '
	run --runs 1 >out 2>err &&
	cat out &&
	grep -q "ARCH=x86_64 tinyconfig$" make.log &&
	grep -q "ARCH=x86_64 olddefconfig$" make.log &&
	grep -q "ARCH=x86_64$" make.log &&
	test $(wc -l <make.log) = 3 &&
	# the kunitconfig, appended, wins over tinyconfig
	grep -qx "CONFIG_SMP=y" "$BUILD/.config" &&
	grep -qx "CONFIG_PREEMPT=y" "$BUILD/.config" &&
	! grep -q "CONFIG_SMP is not set" "$BUILD/.config" &&
	grep -q "^run 1: pass  log: $BUILD/run-1.log$" out &&
	grep -q "^  # binder_alloc_test_shrink_concurrent: 2000 + 2000 buffers, .* 3 waits for a zap$" out &&
	grep -q "^---- kernel log" "$BUILD/run-1.log"
'

test_expect_success ROOT 'qemu: TCG only, two CPUs, slow cases out, no timer check, a panic or an oops ends the boot' '
	grep -qx -- "-smp" qemu.args && grep -A1 -x -- "-smp" qemu.args | grep -qx 2 &&
	grep -A1 -x -- "-accel" qemu.args | grep -qx tcg &&
	test $(grep -cx -- "-accel" qemu.args) = 1 &&
	grep -qx -- "-no-reboot" qemu.args &&
	append=$(grep -A1 -x -- "-append" qemu.args | tail -n 1) &&
	echo "$append" &&
	for w in kunit.enable=1 "kunit.filter=speed>slow" console=ttyS0 \
		no_timer_check panic=-1 oops=panic; do
		case " $append " in *" $w "*) ;; *) echo "missing $w"; false ;; esac || return 1
	done
'

test_expect_success ROOT 'the same kunitconfig again: no new config, N runs' '
	: >make.log &&
	run --runs 3 >out &&
	test "$(cat make.log)" = "-C $(readlink -f "$TRASH/src") O=$BUILD -j2 ARCH=x86_64" &&
	test $(grep -c "^run [123]: pass" out) = 3
'

test_expect_success ROOT 'a changed kunitconfig makes the config again' '
	: >make.log &&
	echo "CONFIG_PROVE_LOCKING=y" >>alloc.kunitconfig &&
	run --runs 1 >out &&
	grep -q "tinyconfig$" make.log &&
	grep -qx "CONFIG_PROVE_LOCKING=y" "$BUILD/.config"
'

test_expect_success ROOT 'an option the .config does not keep fails the build, naming it' '
	echo "CONFIG_DEBUG_KERNEL=y" >>alloc.kunitconfig &&
	test_expect_code 3 env FAKE_DROP=CONFIG_DEBUG_KERNEL \
		"$TRASH/kernel/kunit-run" --arch x86_64 --name kunit-x --runs 1 \
		alloc.kunitconfig src >out 2>err &&
	grep -q "not in the .config made from tinyconfig + alloc.kunitconfig: CONFIG_DEBUG_KERNEL=y" err &&
	! test -e "$BUILD/.kseries-configured"
'

test_expect_success ROOT 'a failed case: fail, exit 1' '
	run --runs 1 >/dev/null &&
	test_expect_code 1 env FAKE_BOOT=fail "$TRASH/kernel/kunit-run" --arch x86_64 \
		--name kunit-x --runs 1 alloc.kunitconfig src >out &&
	grep -q "^run 1: fail (kunit.py exit 1)  log: " out
'

test_expect_success ROOT 'an oops or a panic: crash, quoting the line' '
	test_expect_code 1 env FAKE_BOOT=oops "$TRASH/kernel/kunit-run" --arch x86_64 \
		--name kunit-x --runs 1 alloc.kunitconfig src >out &&
	grep -q "^run 1: crash: BUG: kernel NULL pointer dereference, address: 0000000000000028  log: " out &&
	test_expect_code 1 env FAKE_BOOT=panic "$TRASH/kernel/kunit-run" --arch x86_64 \
		--name kunit-x --runs 1 alloc.kunitconfig src >out &&
	grep -q "^run 1: crash: Kernel panic - not syncing: IO-APIC" out
'

test_done
