#!/bin/bash
test_description='VM harness: the initramfs builder, the init, the test program, usage'
. "$(dirname "$0")/lib.sh"

KDIR=$SRC_DIR/kernel

if command -v gcc >/dev/null && command -v cpio >/dev/null &&
   file /bin/busybox 2>/dev/null | grep -q 'statically linked'; then
	test_set_prereq TOOLS
else
	SKIP_REASON='needs gcc, cpio and busybox-static'
fi

test_expect_success TOOLS 'rtmutex-timedlock builds as a static program' '
	gcc -static -O2 -Wall -Wextra -Werror -pthread \
		-o rtmutex-timedlock "$SRC_DIR/series/rtmutex-wake-check/check/prog/rtmutex-timedlock.c" &&
	! readelf -l rtmutex-timedlock | grep -q "program interpreter"
'

test_expect_success TOOLS 'rtmutex-timedlock refuses bad usage with 2' '
	test_expect_code 2 ./rtmutex-timedlock -x &&
	test_expect_code 2 ./rtmutex-timedlock -n 0 &&
	test_expect_code 2 ./rtmutex-timedlock extra
'

test_expect_success TOOLS 'rtmutex-timedlock: a round past the cap gets the lock released' '
	# A 1 s timeout and a 0.2 s cap: the owner unlocks first, every
	# round takes the lock (returned0) and counts as capped.
	test_expect_code 1 ./rtmutex-timedlock -n 2 -t 1000000 -c 200000 >cap.out &&
	grep "^rtmutex-timedlock: rounds=2 etimedout=0 returned0=2 other=0 .* verdict=fail cap_us=200000 capped=2$" cap.out &&
	test_expect_code 2 ./rtmutex-timedlock -c x
'

test_expect_success TOOLS 'the init script parses' '
	busybox sh -n "$KDIR/vm-init"
'

test_expect_success TOOLS 'vm-initramfs packs busybox, init and the programs in order' '
	printf "#!/bin/sh\necho hi\n" >second.sh && chmod +x second.sh &&
	"$KDIR/vm-initramfs" out/initrd.gz rtmutex-timedlock second.sh &&
	mkdir x && (cd x && zcat ../out/initrd.gz | cpio --quiet -id) &&
	test -x x/init && test -x x/bin/busybox &&
	cmp x/init "$KDIR/vm-init" &&
	cmp x/tests/rtmutex-timedlock rtmutex-timedlock &&
	printf "rtmutex-timedlock\nsecond.sh\n" >expect &&
	test_cmp expect x/tests/list
'

test_expect_success TOOLS 'vm-initramfs output is reproducible' '
	"$KDIR/vm-initramfs" a.gz rtmutex-timedlock &&
	touch rtmutex-timedlock &&
	"$KDIR/vm-initramfs" b.gz rtmutex-timedlock &&
	cmp a.gz b.gz
'

test_expect_success TOOLS 'vm-initramfs refuses a dynamic program and a missing one' '
	printf "int main(void) { return 0; }\n" >dyn.c &&
	gcc -o dyn dyn.c &&
	test_expect_code 128 "$KDIR/vm-initramfs" d.gz dyn &&
	test_expect_code 128 "$KDIR/vm-initramfs" d.gz no-such-program &&
	test ! -e d.gz
'

test_expect_success TOOLS 'vm-initramfs --extra packs a file without listing it' '
	printf "#!/bin/sh\nrtmutex-timedlock -n 1\n" >runs.sh && chmod +x runs.sh &&
	"$KDIR/vm-initramfs" --extra rtmutex-timedlock e.gz runs.sh &&
	mkdir e && (cd e && zcat ../e.gz | cpio --quiet -id) &&
	cmp e/tests/rtmutex-timedlock rtmutex-timedlock &&
	echo runs.sh >expect &&
	test_cmp expect e/tests/list &&
	test_expect_code 129 "$KDIR/vm-initramfs" --extra
'

test_expect_success 'vm-stage.sh: the median of a column' '
	. "$KDIR/vm-stage.sh" &&
	test "$(printf "5\n1\n3\n" | vs_median)" = 3 &&
	test "$(printf "4\n1\n2\n10\n" | vs_median)" = 3 &&
	test_must_fail vs_median </dev/null
'

test_expect_success 'vm-run and vm-build check their usage' '
	test_expect_code 129 "$KDIR/vm-run" &&
	test_expect_code 129 "$KDIR/vm-run" --timeout x a b &&
	test_expect_code 128 "$KDIR/vm-run" no-kernel no-initrd &&
	test_expect_code 129 "$KDIR/vm-build" &&
	test_expect_code 129 "$KDIR/vm-build" . a/b &&
	test_expect_code 128 "$KDIR/vm-build" . name &&
	test_expect_code 129 "$KDIR/vm-build" -f no-such-fragment . name
'

test_expect_success 'the VM config asks for what the harness and the series need' '
	for opt in SMP PREEMPT HIGH_RES_TIMERS FUTEX FUTEX_PI RT_MUTEXES \
		   X86_MPPARSE SERIAL_8250_CONSOLE BLK_DEV_INITRD DEVTMPFS \
		   ANDROID_BINDER_IPC ANDROID_BINDERFS; do
		grep -qx "CONFIG_$opt=y" "$KDIR/vm.config" ||
			{ echo "missing CONFIG_$opt=y"; exit 1; }
	done
'

test_done
