#!/usr/bin/env bash
test_description='kill -9 at random points of feedback ingest and check leaves consistent records and results'
. "$(dirname "$0")/lib.sh"

SEED=$SRC_DIR/tests/t0001/seed-001-binder-defer-complete-v2.mbox
MAILERS=$SRC_DIR/tests/t1010/t1010-mailers.mbox
export KSERIES_NO_RANGE_DIFF=1

# records DIR: the feedback records of DIR (names and contents), without
# the temporary files a kill may leave (*.tmp.XXXXXX, never read back).
records() { (cd "$1" && find . -type f ! -name '*.tmp.*' | sort | xargs -r sha1sum); }

# A store with v2 of TF_DEFER_COMPLETE and a review thread of 40 copies
# of the mailers' replies (480 records): ingest takes long enough to be
# killed in the middle.
test_expect_success 'setup: a series, a big review thread, reference records' '
	d=store/series/defer && mkdir -p $d/v2 &&
	git config -f $d/series.conf series.title "rust_binder: add TF_DEFER_COMPLETE flag" &&
	git config -f $d/series.conf series.base v7.2.13 &&
	awk "NR > 1 && /^From mboxrd@z/ { exit } { print }" "$SEED" >$d/v2/0001-rust_binder-add-TF_DEFER_COMPLETE.patch &&
	for i in $(seq 1 40); do
		sed -E "s/^(Message-I[Dd]: <)([^>]*)>/\1\2.$i>/" "$MAILERS"
	done >big.mbox &&
	cp -R store ref &&
	(cd ref && kseries feedback ingest defer "$SEED" >/dev/null &&
	 t0=$(date +%s%N) &&
	 kseries feedback ingest defer ../big.mbox >out &&
	 echo $((($(date +%s%N) - t0) / 1000000)) >../ingest.ms &&
	 grep "480 feedback record(s) written" out &&
	 kseries feedback defer --json >../ref.json) &&
	records ref/series/defer/feedback >ref.sum &&
	test_line_count = 484 ref.sum
'

test_expect_success 'kill -9 during feedback ingest, 30 times: whole records, and a re-run finishes the job' '
	# kill anywhere in the time the reference ingest took, and a bit after
	ms=$(($(cat ingest.ms) * 6 / 5 + 10)) &&
	for i in $(seq 1 30); do
		rm -rf st && cp -R store st &&
		(cd st && kseries feedback ingest defer "$SEED" >/dev/null) &&
		(cd st && kill_at_random "$ms" "$KSERIES" feedback ingest defer ../big.mbox) &&
		find st -name "*.tmp.*" >>"$TRASH/litter" &&
		ls st/series/defer/feedback | grep -c "^[0-9a-f]\{12\}$" >>"$TRASH/kept" &&
		# every record there reads back whole: no warning, no error
		(cd st && kseries feedback defer --json >../got.json 2>../err) &&
		test ! -s err || { echo "after kill $i:"; cat err; exit 1; }
		(cd st && kseries feedback ingest defer ../big.mbox >/dev/null &&
		 kseries feedback defer --json >../got.json) &&
		records st/series/defer/feedback >got.sum &&
		test_cmp ref.sum got.sum &&
		test_cmp ref.json got.json || { echo "differs after kill $i"; exit 1; }
		# what a kill leaves is a temporary file, never a record
		! find st/series/defer/feedback -type f ! -name "*.tmp.*" |
			grep -v "/[0-9a-f]\{12\}$" || exit 1
	done
'
test_expect_success 'the next ingest removes what killed writes left (older than ten minutes)' '
	rm -rf st && cp -R store st &&
	d=st/series/defer/feedback && mkdir -p "$d" &&
	echo torn >"$d/0123456789ab.tmp.Ab12Cd" &&
	touch -d "1 hour ago" "$d/0123456789ab.tmp.Ab12Cd" &&
	echo torn >"$d/0123456789ac.tmp.Ef34Gh" &&
	(cd st && kseries feedback ingest defer "$SEED" >/dev/null) &&
	! test -e "$d/0123456789ab.tmp.Ab12Cd" &&
	test -e "$d/0123456789ac.tmp.Ef34Gh"
'

say "ingest: $(grep -c ingest "$TRASH/killed" 2>/dev/null) of 30 kills landed while it ran;" \
	"records left by a kill: $(sort -n "$TRASH/kept" | head -n 1)..$(sort -n "$TRASH/kept" | tail -n 1) of 484;" \
	"temporary files left: $(wc -l <"$TRASH/litter"); reference ingest $(cat "$TRASH/ingest.ms") ms"

# The light stages on a one-patch series in a store and cache of the
# test's own (lib.sh: KSERIES_CACHE under $HOME); no worktree is used.
SKIP_REASON=${SKIP_REASON_TREE:-}

# results DIR: each stage's result JSON without what differs between
# runs (time, cache hit, log path, and the cache key, which changes when
# kseries is rebuilt), then the summary's status.
results() {
	python3 - "$1" <<-\EOP
	import json, os, sys
	d = sys.argv[1]
	for n in sorted(os.listdir(d)):
	    if ".tmp." in n:
	        continue
	    p = os.path.join(d, n)
	    if n.endswith(".json"):
	        j = json.load(open(p))
	        assert len(j.pop("key")) == 64
	        for k in ("seconds", "cached", "log"):
	            j.pop(k, None)
	        print(n, json.dumps(j, sort_keys=True))
	    elif n == "summary":
	        s = open(p).read().split()
	        assert len(s) == 3 and s[0] in ("pass", "fail"), s
	        print(n, s[0])
	    else:
	        print(n)
	EOP
}

test_expect_success TREE 'setup: a clean one-patch series and its reference results' '
	test_series good 1 cstore &&
	test_binder_patch -b "A change to binder_alloc.c for the kill tests." \
		cstore/series/good/v1/0001-binder-comment.patch \
		"[PATCH] binder: explain the lru lock" \
		"s|^static struct page \*binder_page_lookup|/* Looks up the page installed at addr. */\n&|" &&
	(cd cstore && kseries check good --stage apply --stage format --stage checkpatch >../ref.out) &&
	R=$HOME/.cache/kseries/results/good/v1 &&
	results "$R" >ref.res &&
	grep "^checkpatch.json .*\"status\": \"pass\"" ref.res &&
	grep "^summary pass" ref.res &&
	rm -rf "$R"
'

test_expect_success TREE 'kill -9 during check, 20 times: whole results, and a re-run finishes the job' '
	R=$HOME/.cache/kseries/results/good/v1 &&
	for i in $(seq 1 20); do
		# every other round starts from no results, the others from
		# the results of the round before (cached stages)
		if [ $((i % 2)) = 1 ]; then rm -rf "$R"; fi
		(cd cstore && kill_at_random 1200 "$KSERIES" check good --stage apply --stage format --stage checkpatch) &&
		{ find "$R" -name "*.tmp.*" 2>/dev/null || :; } >>"$TRASH/clitter" &&
		{ ! test -d "$R" || results "$R" >/dev/null; } ||
			{ echo "a torn result after kill $i"; exit 1; }
		(cd cstore && kseries check good --stage apply --stage format --stage checkpatch >../got.out) &&
		sed "s/(cached) //" got.out >got.cmp &&
		test_cmp ref.out got.cmp &&
		results "$R" >got.res &&
		test_cmp ref.res got.res || { echo "differs after kill $i"; exit 1; }
	done
'
say "check: $(grep -c check "$TRASH/killed" 2>/dev/null) of 20 kills landed while it ran;" \
	"temporary files left: $(wc -l <"$TRASH/clitter" 2>/dev/null || echo 0)"

test_done
