#!/usr/bin/env bash
test_description='check --b4 as b4 review runs it: the message on stdin as b4 hands it'
. "$(dirname "$0")/lib.sh"

SKIP_REASON=${SKIP_REASON_TREE:-}
# Results private to this test; the worktree is the one t3000 uses.
export KSERIES_CHECK_WORKTREE=$REAL_CACHE/wt/kseries-test
export KSERIES_CACHE=$TRASH/cache
FORM="python3 $FIXTURES/b4-form.py"

# the b4 tests' patch mails (test_binder_patch): the store's form, 8bit UTF-8
B4=(-u -a "A U Thor <author@example.invalid>" -b "A change to binder_alloc.c for the b4 tests (café).")

# tools FILE: the "tool status" pairs of a b4 check answer
tools() {
	python3 -c "
import json, sys
for x in json.load(open(sys.argv[1])):
    assert set(x) <= {'tool', 'status', 'summary', 'url', 'details'}, x
    assert x['status'] in ('pass', 'warn', 'fail'), x
    print(x['tool'], x['status'])
" "$1"
}

test_expect_success TREE 'setup: a patch with a line ending in "=" and a non-ASCII comment' '
	test_series enc &&
	test_binder_patch "${B4[@]}" store/series/enc/v1/0001-binder-demo.patch "[PATCH] binder: a demo value" \
		"s|^static struct page \*binder_page_lookup|/* A demo value (naïve, café). */\nstatic const int binder_demo_value =\n\t0x3D;\n\n&|" &&
	grep -q "^+static const int binder_demo_value =\$" store/series/enc/v1/0001-binder-demo.patch
'

for enc in "base64 utf-8" "quoted-printable iso-8859-1" "quoted-printable utf-8" "8bit utf-8" \
	"multipart-base64 utf-8" "multipart-quoted-printable iso-8859-1"; do
	set -- $enc
	test_expect_success TREE "a $1 $2 copy from the list, as b4 hands it, is found" '
		'"$FORM"' lore '"$1 $2"' "<enc-'"$1-$2"'@lore.example>" \
			<store/series/enc/v1/0001-binder-demo.patch >lore.eml &&
		grep -i "^Content-Transfer-Encoding: '"${1#multipart-}"'" lore.eml &&
		'"$FORM"' feed <lore.eml >stdin.eml &&
		case '"$1"' in
		multipart-*) grep -i "^Content-Type: multipart/mixed" stdin.eml ;;
		*) grep -i "^Content-Transfer-Encoding: '"$1"'" stdin.eml ;;
		esac &&
		grep "^+static const int binder_demo_value =\$" stdin.eml &&
		cd store &&
		kseries check --b4 --stage format <../stdin.eml >../answer.json &&
		cd .. && tools answer.json >got &&
		printf "%s\n" "kseries-apply pass" "kseries-format pass" >want &&
		test_cmp want got
	'
done

test_expect_success TREE 'a raw copy as the list archives it (not decoded) is found too' '
	'"$FORM"' lore base64 utf-8 "<raw@lore.example>" \
		<store/series/enc/v1/0001-binder-demo.patch >raw.eml &&
	cd store &&
	kseries check --b4 --stage format <../raw.eml >../answer.json &&
	cd .. && tools answer.json >got &&
	printf "%s\n" "kseries-apply pass" "kseries-format pass" >want &&
	test_cmp want got
'

test_expect_success TREE 'setup: three patches, the second does not apply' '
	test_series three &&
	test_binder_patch "${B4[@]}" -m three-1@x store/series/three/v1/0001-a.patch "[PATCH 1/3] binder: a" \
		"s|^static struct page \*binder_page_lookup|/* Looks up the page. */\n&|" &&
	test_binder_patch "${B4[@]}" -m three-2@x store/series/three/v1/0002-b.patch "[PATCH 2/3] binder: b" \
		"s|^static struct page \*binder_page_lookup|/* Finds the page. */\n&|" &&
	sed -i "s/^ static struct page \*binder_page_lookup/ static struct page *no_such_context_line/" \
		store/series/three/v1/0002-b.patch &&
	test_binder_patch "${B4[@]}" -m three-3@x store/series/three/v1/0003-c.patch "[PATCH 3/3] binder: c" \
		"s|^int binder_alloc_get_allocated_count(|/* Counts. */\n&|" &&
	printf "%s\n" "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001" \
		"From: A U Thor <author@example.invalid>" "Message-ID: <three-0@x>" \
		"Subject: [PATCH 0/3] binder: three" "" "Three." \
		>store/series/three/v1/0000-cover-letter.patch
'

test_expect_success TREE 'each patch gets its own apply status' '
	for k in 1 2 3; do
		'"$FORM"' feed <store/series/three/v1/000$k-*.patch >p$k.eml || exit 1
		(cd store && kseries check --b4 --stage format <../p$k.eml) >p$k.json || exit 1
	done &&
	tools p1.json | grep "^kseries-apply " >got1 &&
	tools p2.json | grep "^kseries-apply " >got2 &&
	tools p3.json | grep "^kseries-apply " >got3 &&
	echo "kseries-apply pass" >want1 && test_cmp want1 got1 &&
	echo "kseries-apply fail" >want2 && test_cmp want2 got2 &&
	echo "kseries-apply warn" >want3 && test_cmp want3 got3 &&
	grep "not tried" p3.json &&
	# the cover letter answers for the series
	'"$FORM"' feed <store/series/three/v1/0000-cover-letter.patch >p0.eml &&
	(cd store && kseries check --b4 --stage format <../p0.eml) >p0.json &&
	tools p0.json | grep "^kseries-apply fail"
'

test_expect_success TREE 'without --stage, --b4 runs the per-patch stages, no kernel build' '
	mkdir -p kstub cstub &&
	for s in kbuild kunit-run sparse-check chroot-run stage-vm stage-perf; do
		printf "#!/bin/sh\necho %s >>\"%s/ran\"\nexit 1\n" "$s" "$TRASH" >kstub/$s &&
		chmod +x kstub/$s || exit 1
	done &&
	'"$FORM"' feed <store/series/enc/v1/0001-binder-demo.patch >p1.eml &&
	(cd store && KSERIES_KERNEL_DIR=$TRASH/kstub KSERIES_COCCI_DIR=$TRASH/cstub \
		kseries check --b4 <../p1.eml) >default.json &&
	tools default.json | cut -d" " -f1 | grep -v "^kseries-provenance\$" >got &&
	printf "%s\n" kseries-apply kseries-format kseries-checkpatch >want &&
	test_cmp want got &&
	test ! -e ran &&
	# more when asked: here, the build (stubbed)
	(cd store && KSERIES_KERNEL_DIR=$TRASH/kstub KSERIES_COCCI_DIR=$TRASH/cstub \
		kseries check --b4 --stage checkpatch --stage build <../p1.eml) >more.json &&
	tools more.json | grep "^kseries-build " &&
	grep kbuild ran
'

test_done
