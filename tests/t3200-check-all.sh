#!/usr/bin/env bash
test_description='the main job: kseries check --all over the four series, then again from the cache'
. "$(dirname "$0")/lib.sh"

# The repository's own store, checked as the README's main job does, with
# every stage that builds (apply … kunit, model, feedback, mail); the VM
# stages (vm, perf) boot kernels under TCG and belong to make
# check-kernel (t3201). On a fresh machine this provisions the base tree
# and the sid chroot and builds everything: tens of minutes; afterwards
# a re-check is served from the cache.
SKIP_REASON=${SKIP_REASON_TREE:-"kernel builds: make test or make check-kernel"}
export KSERIES_CACHE=$REAL_CACHE
unset KSERIES_CHECK_WORKTREE
# binder-alloc-spinlock v2 asks for 20 KUnit runs in a row (version.2.kunit),
# about 18 minutes under UML; CI shows that repeated runs work with two.
export KSERIES_KUNIT_RUNS=${KSERIES_KUNIT_RUNS:-2}

STAGES="--stage apply --stage format --stage checkpatch --stage build
	--stage sparse --stage cocci --stage rust --stage kunit --stage model
	--stage feedback --stage mail"

test_expect_success TREE,WORKBENCH 'check --all: the latest version of every series passes' '
	# shellcheck disable=SC2086
	kseries -C "$SRC_DIR" check --all $STAGES >out 2>err || rc=$?
	sed "s/^/# /" out >&3
	test "${rc:-0}" = 0 &&
	! grep -E "^[^ ]+ +v[0-9]+ +[a-z]+ +fail" out &&
	for s in binder-alloc-spinlock binder-defer-complete binder-large-handles rtmutex-wake-check; do
		grep -q "^$s " out || { echo "no result for $s"; exit 1; }
	done
'

test_expect_success TREE,WORKBENCH 'a second run with nothing changed is served from the cache' '
	# shellcheck disable=SC2086
	kseries -C "$SRC_DIR" check --all $STAGES >out &&
	grep -E "^[^ ]+ +v[0-9]+ +[a-z]+ " out | grep -v " apply " >stages &&
	test_line_count -gt 20 stages &&
	! grep -v "(cached)" stages
'

test_done
