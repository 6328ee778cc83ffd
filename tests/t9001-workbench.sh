#!/usr/bin/env bash
test_description='kernel/ workbench scripts: provisioning, chroot-run, kbuild, sparse-check, kunit-run'
. "$(dirname "$0")/lib.sh"

K=$SRC_DIR/kernel
export REAL_CACHE K
# Every test that does not say otherwise runs on a fake cache of its own.
fresh_cache() {
	KSERIES_CACHE=$TRASH/cache-$test_count
	export KSERIES_CACHE
	mkdir -p "$KSERIES_CACHE" "$TRASH/w-$test_count"
	cd "$TRASH/w-$test_count"
}
BASE_COMMIT=03cb39b3d0021994d97c4f11eb6a4a7d29c86047
export BASE_COMMIT

if [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2>/dev/null; then
	test_set_prereq ROOT
fi
if [ "${KSERIES_KERNEL_TESTS:-}" = 1 ]; then
	test_set_prereq KERNEL
else
	SKIP_REASON="set KSERIES_KERNEL_TESTS=1 (make check-kernel)"
fi

for s in provision-base provision-toolchain chroot-run kbuild sparse-check kunit-run; do
	test_expect_success "$s -h prints its usage, a bad option exits 129" '
		"$K/'"$s"'" -h >out &&
		grep -q "^usage: '"$s"'" out &&
		test_expect_code 129 "$K/'"$s"'" --no-such-option 2>err &&
		grep -q "usage" err
	'
done

test_expect_success 'usage errors exit 129' '
	fresh_cache &&
	test_expect_code 129 "$K/chroot-run" --bind &&
	test_expect_code 129 "$K/chroot-run" -- &&
	test_expect_code 129 "$K/chroot-run" --env NOEQUALS -- true &&
	test_expect_code 129 "$K/chroot-run" --ro-bind-to /tmp /etc/x -- true &&
	test_expect_code 129 "$K/kbuild" c-binder &&
	test_expect_code 129 "$K/sparse-check" c-binder /tmp &&
	test_expect_code 129 "$K/kunit-run" --runs 0 a b &&
	test_expect_code 129 "$K/kunit-run" a &&
	test_expect_code 129 "$K/provision-base" extra
'

test_expect_success 'mirror comes from the deb822 sources, skipping -security' '
	fresh_cache &&
	cat >src.sources <<-\EOS &&
	Types: deb
	URIs: http://security.example.invalid/debian-security
	Suites: bookworm-security
	Components: main

	Types: deb
	URIs: http://mirror.example.invalid/debian/
	Suites: bookworm bookworm-updates
	Components: main
	EOS
	KSERIES_APT_SOURCES=$PWD/src.sources bash -c ". \"$K/lib.sh\"; ks_mirror" >out &&
	echo http://mirror.example.invalid/debian >expect &&
	test_cmp expect out &&
	: >empty.sources &&
	test_must_fail env KSERIES_APT_SOURCES=$PWD/empty.sources bash -c ". \"$K/lib.sh\"; ks_mirror" 2>err &&
	grep -q "cannot find a Debian mirror" err
'

test_expect_success 'provision-base --check fails on an empty cache' '
	fresh_cache &&
	test_expect_code 1 "$K/provision-base" --check 2>err &&
	grep -q "not provisioned" err &&
	test_path=$KSERIES_CACHE/linux && ! test -e "$test_path"
'

test_expect_success 'provision-base refuses a linux/ without the right tag' '
	fresh_cache &&
	git init -q "$KSERIES_CACHE/linux" &&
	test_expect_code 1 "$K/provision-base" 2>err &&
	grep -q "tag v7.2.13 is not $BASE_COMMIT" err
'

# fake_deb VERSION: a linux-source-7.2 .deb holding a tiny "kernel" tarball.
fake_deb() {
	rm -rf pkg && mkdir -p pkg/DEBIAN pkg/usr/src t/linux-source-7.2 &&
	printf "Package: linux-source-7.2\nVersion: %s\nArchitecture: all\nMaintainer: t <t@example.invalid>\nDescription: fake\n" "$1" >pkg/DEBIAN/control &&
	echo "VERSION = 7" >t/linux-source-7.2/Makefile &&
	tar -C t -cJf pkg/usr/src/linux-source-7.2.tar.xz linux-source-7.2 &&
	mkdir -p "$KSERIES_CACHE/apt/debs" &&
	dpkg-deb -b -Zxz pkg "$KSERIES_CACHE/apt/debs/linux-source-7.2_7.2.13-1_all.deb" >/dev/null
}

test_expect_success 'provision-base fails loudly when the commit id is not reproduced' '
	fresh_cache &&
	fake_deb 7.2.13-1 &&
	test_expect_code 1 "$K/provision-base" >out 2>err &&
	grep -q "MISMATCH: commit" err &&
	grep -q "the base commit is not reproduced: want commit $BASE_COMMIT" err &&
	! test -e "$KSERIES_CACHE/linux" &&
	! test -s out
'

test_expect_success 'provision-base checks the cached .deb version' '
	fresh_cache &&
	fake_deb 7.2.12-1 &&
	test_expect_code 1 "$K/provision-base" 2>err &&
	grep -q "is linux-source-7.2 7.2.12-1, want linux-source-7.2 7.2.13-1" err
'

test_expect_success 'provision-toolchain fast path: a provisioned cache prints the path' '
	fresh_cache &&
	mkdir -p "$KSERIES_CACHE/sid" &&
	echo "clang 1:21" >"$KSERIES_CACHE/sid/.kseries-versions" &&
	echo 2 >"$KSERIES_CACHE/sid/.kseries-level" &&
	"$K/provision-toolchain" >out &&
	echo "$KSERIES_CACHE/sid" >expect &&
	test_cmp expect out
'

test_expect_success ROOT 'provision-toolchain restores sid/ from sid.tar.zst' '
	fresh_cache &&
	mkdir -p img/usr/bin &&
	printf "clang 1:21\nrustc 1.97\n" >img/.kseries-versions &&
	echo 2 >img/.kseries-level &&
	echo hello >img/usr/bin/marker &&
	mkdir -p "$KSERIES_CACHE" &&
	tar -C img -I zstd -cf "$KSERIES_CACHE/sid.tar.zst" . &&
	"$K/provision-toolchain" >out 2>err &&
	grep -q "restoring" err &&
	test_cmp img/.kseries-versions "$KSERIES_CACHE/sid/.kseries-versions" &&
	test_cmp img/usr/bin/marker "$KSERIES_CACHE/sid/usr/bin/marker" &&
	! test -e "$KSERIES_CACHE/sid.tmp"
'

test_expect_success ROOT 'provision-toolchain rejects a tarball without .kseries-versions' '
	fresh_cache &&
	mkdir -p img && echo x >img/file &&
	mkdir -p "$KSERIES_CACHE" &&
	tar -C img -I zstd -cf "$KSERIES_CACHE/sid.tar.zst" . &&
	test_expect_code 1 "$K/provision-toolchain" 2>err &&
	grep -q "holds no .kseries-versions" err &&
	! test -e "$KSERIES_CACHE/sid"
'

test_expect_success 'chroot-run without a chroot (and told not to provision) says how to make one' '
	fresh_cache &&
	KSERIES_NO_PROVISION=1 test_expect_code 1 "$K/chroot-run" -- true 2>err &&
	grep -q "run kernel/provision-toolchain" err
'

# mounts: the number of mounts this shell sees (nothing may leak).
mounts() { wc -l </proc/self/mountinfo; }

test_expect_success ROOT 'chroot-run --host: kbuild uid, binds, read-only source, exit status, no leaks' '
	fresh_cache &&
	before=$(mounts) &&
	mkdir -p src build && echo s >src/file &&
	chown 7213:7213 build &&
	"$K/chroot-run" --host --ro-bind-to "$PWD/src" /mnt/linux --bind "$PWD/build" \
		--env FOO=bar -C /mnt/linux -- \
		sh -c "id -u; echo \$FOO; cat file; touch file 2>/dev/null && echo WRITABLE; touch $PWD/build/out; ls -A /root | wc -l" >out &&
	printf "7213\nbar\ns\n0\n" >expect &&
	test_cmp expect out &&
	test -f build/out &&
	test "$(stat -c %u build/out)" = 7213 &&
	test_expect_code 7 "$K/chroot-run" --host -- sh -c "exit 7" &&
	test "$(mounts)" = "$before"
'

test_expect_success ROOT 'chroot-run --host unmounts when the command is killed' '
	fresh_cache &&
	before=$(mounts) &&
	mkdir -p b && chown 7213:7213 b &&
	{ "$K/chroot-run" --host --bind "$PWD/b" -- sleep 4711.5 & } &&
	pid=$! &&
	for i in $(seq 50); do pgrep -f "^sleep 4711.5" >/dev/null && break; sleep 0.1; done &&
	kill -TERM "$pid" &&
	rc=0 && wait "$pid" || rc=$? &&
	test "$rc" != 0 &&
	! pgrep -f "^sleep 4711.5" &&
	test "$(mounts)" = "$before"
'

# A fake kernel tree: enough Makefile for kbuild to configure and build.
fake_tree() {
	mkdir -p tree/scripts/kconfig &&
	cat >tree/Makefile <<-\EOF &&
	tinyconfig: ; @printf "CONFIG_64BIT=y\n" >$(O)/.config
	olddefconfig: ; @if [ -e $(O)/drop ]; then grep -v ANDROID_BINDER_IPC= $(O)/.config >$(O)/.c; mv $(O)/.c $(O)/.config; fi
	ok: ; @echo "  CC      ok.o"
	broken: ; @echo "broken.c:1:1: error: broken"; exit 2
	nosparse: ; @echo "Makefile:1305: C=$(C) specified, but sparse is not available or not up to date"
	EOF
	cat >tree/scripts/kconfig/merge_config.sh <<-\EOF &&
	#!/bin/sh
	# merge_config.sh -m -O DIR BASE FRAGMENT
	cat "$5" >>"$3/.config"
	EOF
	chmod +x tree/scripts/kconfig/merge_config.sh
}

test_expect_success 'kbuild refuses a non-kernel tree, a dirty tree and unknown configs' '
	fresh_cache &&
	mkdir notkernel &&
	test_expect_code 1 "$K/kbuild" c-binder notkernel 2>err &&
	grep -q "is not a kernel source tree" err &&
	fake_tree && touch tree/.config &&
	test_expect_code 1 "$K/kbuild" c-binder tree 2>err &&
	grep -q "O= builds need a clean source tree" err &&
	rm tree/.config &&
	test_expect_code 1 "$K/kbuild" no-such tree 2>err &&
	grep -q "no fragment" err &&
	test_expect_code 1 "$K/kbuild" ../x tree 2>err
'

test_expect_success ROOT 'kbuild configures from the fragment and reports make status and log' '
	fresh_cache &&
	fake_tree &&
	"$K/kbuild" c-binder tree ok >out 2>err &&
	B=$KSERIES_CACHE/build/c-binder &&
	echo "$B/kbuild.log" >expect && test_cmp expect out &&
	grep -q "kbuild: c-binder: ok" err &&
	grep -q "^CONFIG_ANDROID_BINDER_IPC=y" "$B/.config" &&
	test_cmp "$K/c-binder.config" "$B/.kseries-fragment" &&
	grep -q "CC      ok.o" "$B/kbuild.log" &&
	test "$(stat -c %u "$B")" = 7213 &&
	test_expect_code 2 "$K/kbuild" --log "$PWD/b.log" c-binder tree broken >out 2>err &&
	grep -q "kbuild: c-binder: FAILED (exit 2)" err &&
	echo "$PWD/b.log" >expect && test_cmp expect out &&
	grep -q "error: broken" b.log
'

test_expect_success ROOT 'kbuild fails when the fragment does not hold in .config' '
	fresh_cache &&
	fake_tree &&
	B=$KSERIES_CACHE/build/c-binder && mkdir -p "$B" && touch "$B/drop" &&
	test_expect_code 1 "$K/kbuild" c-binder tree ok 2>err &&
	grep -q "CONFIG_ANDROID_BINDER_IPC=y wanted, .config has \"nothing\"" err &&
	! test -e "$B/.kseries-fragment"
'

test_expect_success 'sparse-check --check-log judges build logs' '
	fresh_cache &&
	printf "  CC      a.o\n  CHECK   /mnt/linux/a.c\n" >clean.log &&
	"$K/sparse-check" --check-log clean.log >out &&
	! test -s out &&
	cat >warn.log <<-\EOF &&
	  CC      drivers/android/binder_alloc.o
	/mnt/linux/drivers/android/binder_alloc.c:10:5: warning: unused variable [-Wunused-variable]
	/mnt/linux/drivers/android/binder_alloc.c:9:1: note: declared here
	  CHECK   /mnt/linux/drivers/android/binder_alloc.c
	/mnt/linux/drivers/android/binder_alloc.c:12:34: warning: context imbalance in foo - wrong count at exit
	EOF
	test_expect_code 1 "$K/sparse-check" --check-log warn.log >out &&
	echo "drivers/android/binder_alloc.c:12:34: warning: context imbalance in foo - wrong count at exit" >expect &&
	test_cmp expect out &&
	printf "  CC      a.o\n" >nocheck.log &&
	test_expect_code 2 "$K/sparse-check" --check-log nocheck.log 2>err &&
	grep -q "no CHECK line" err
'

test_expect_success 'sparse-check: "sparse is not available or not up to date" is a failure' '
	fresh_cache &&
	cat >old.log <<-\EOF &&
	Makefile:1305: C=2 specified, but sparse is not available or not up to date
	  CC      drivers/android/binder_alloc.o
	EOF
	test_expect_code 2 "$K/sparse-check" --check-log old.log >out 2>err &&
	grep -q "sparse did not run" err &&
	grep -q "not available or not up to date" err &&
	! test -s out
'

test_expect_success ROOT 'sparse-check through kbuild: a tree that skips sparse fails it' '
	fresh_cache &&
	fake_tree &&
	test_expect_code 2 "$K/sparse-check" --host c-binder tree nosparse 2>err &&
	grep -q "sparse did not run: the kernel tree skipped it" err
'

# ---- real builds on the real cache (make check-kernel) ----
if test_have_prereq KERNEL; then
	export KSERIES_CACHE=$REAL_CACHE
	export WT=$REAL_CACHE/wt/t9001
fi

test_expect_success KERNEL,ROOT 'provision-base: the real base tree, tag v7.2.13 = the reproducible commit' '
	"$K/provision-base" >out &&
	echo "$KSERIES_CACHE/linux" >expect && test_cmp expect out &&
	test "$(git -C "$KSERIES_CACHE/linux" rev-parse "v7.2.13^{commit}")" = "$BASE_COMMIT" &&
	test "$(git -C "$KSERIES_CACHE/linux" rev-parse "v7.2.13^{tree}")" = 084e828a933e69b0f172583c8e478dfde7b38157
'

test_expect_success KERNEL,ROOT 'provision-toolchain: the sid chroot with its tools' '
	"$K/provision-toolchain" >out &&
	for p in clang lld rustc rust-src rustfmt rust-clippy bindgen sparse coccinelle b4; do
		grep -q "^$p " "$KSERIES_CACHE/sid/.kseries-versions" || return 1
	done &&
	"$K/chroot-run" -- id -un >out && echo kbuild >expect && test_cmp expect out &&
	"$K/chroot-run" -- sh -c "rustc --version && clang --version && sparse --version" >out &&
	grep -q "^rustc " out
'

test_expect_success KERNEL,ROOT 'a scratch worktree of v7.2.13' '
	if ! test -d "$WT"; then
		git -C "$KSERIES_CACHE/linux" worktree add -q --detach "$WT" v7.2.13
	fi &&
	test "$(git -C "$WT" rev-parse HEAD)" = "$BASE_COMMIT"
'

test_expect_success KERNEL,ROOT 'kbuild c-binder: binder_alloc.o with the host gcc' '
	"$K/kbuild" c-binder "$WT" drivers/android/binder_alloc.o &&
	test -s "$KSERIES_CACHE/build/c-binder/drivers/android/binder_alloc.o"
'

test_expect_success KERNEL,ROOT 'kbuild rust-binder: the Rust binder with LLVM=1, rustfmt and clippy' '
	"$K/kbuild" rust-binder "$WT" drivers/android/binder/ &&
	test -s "$KSERIES_CACHE/build/rust-binder/drivers/android/binder/rust_binder.o" &&
	"$K/kbuild" rust-binder "$WT" rustfmtcheck &&
	"$K/kbuild" rust-binder "$WT" CLIPPY=1 drivers/android/binder/
'

test_expect_success KERNEL,ROOT 'sparse-check in the chroot runs sparse 0.6.5 on binder_alloc.o' '
	rc=0 && "$K/sparse-check" c-binder "$WT" drivers/android/binder_alloc.o >out || rc=$? &&
	test "$rc" = 0 -o "$rc" = 1 &&
	grep -q "CHECK.*drivers/android/binder_alloc.c" "$KSERIES_CACHE/build/c-binder-sid/kbuild.log"
'

test_expect_success KERNEL,ROOT 'sparse-check --host: bookworm has no usable sparse, and that fails' '
	if command -v sparse >/dev/null &&
	   sh "$WT/scripts/checker-valid.sh" sparse -m64 | grep -q 1; then
		say "the host sparse is new enough; nothing to show"; exit 0
	fi &&
	test_expect_code 2 "$K/sparse-check" --host c-binder "$WT" drivers/android/binder_alloc.o 2>err &&
	grep -q "not available or not up to date" err
'

test_expect_success KERNEL,ROOT 'kunit-run: the binder KUnit suite under UML (with the tests/ obj- fix)' '
	KWT=$KSERIES_CACHE/wt/t9001-kunit &&
	if ! test -d "$KWT"; then
		git -C "$KSERIES_CACHE/linux" worktree add -q --detach "$KWT" v7.2.13
	fi &&
	sed -i "s|^binder_linux-\$(CONFIG_ANDROID_BINDER_ALLOC_KUNIT_TEST)\t+= tests/|obj-\$(CONFIG_ANDROID_BINDER_ALLOC_KUNIT_TEST)\t+= tests/|" \
		"$KWT/drivers/android/Makefile" &&
	grep -q "^obj-\$(CONFIG_ANDROID_BINDER_ALLOC_KUNIT_TEST)" "$KWT/drivers/android/Makefile" &&
	rc=0 && "$K/kunit-run" "$K/kunit-binder.kunitconfig" "$KWT" >out || rc=$? &&
	cat out &&
	test "$rc" = 0 -o "$rc" = 1 &&
	grep -E "^run 1: (pass|crash: .*|fail.*)  log: " out
'

test_done
