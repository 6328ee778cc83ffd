#!/usr/bin/env bash
test_description='status --html: the dashboard as a static site, seen in a browser'
. "$(dirname "$0")/lib.sh"

export KSERIES_CACHE=$TRASH/cache KSERIES_NO_RANGE_DIFF=1
unset KSERIES_LORE
R=$KSERIES_CACHE/results/alpha/v1
HOSTILE='<script>alert("x")</script> & more'

# result DIR STAGE STATUS SUMMARY [FINDINGS-JSON]: a result as check
# writes it (check.h stage_result_to_json()), with its log
result() {
	cat >"$R/$2.json" <<EOT
{"stage": "$2", "status": "$3", "summary": "$4", "findings": ${5:-[]},
 "log": "$R/$2.log", "seconds": 1.5, "cached": false, "missing": null,
 "key": "0123"}
EOT
}

test_expect_success 'a store of two series, results and review for one' '
	mkdir -p store/series/alpha/v1 store/series/alpha/feedback store/series/beta/v1 "$R" &&
	c=store/series/alpha/series.conf &&
	git config -f $c series.title "alpha: $HOSTILE" &&
	git config -f $c series.base v7.2.13 &&
	git config -f $c version.1.message-id "<alpha-v1@example.org>" &&
	git config -f $c version.1.origin posted &&
	git config -f store/series/beta/series.conf series.title "beta: a quiet one" &&
	mkdir -p "store/series/g#a?b/v1" &&
	git config -f "store/series/g#a?b/series.conf" series.title "a name a URL would cut" &&
	cat >store/series/alpha/v1/0001-x.patch <<-EOT &&
	From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
	From: Pat Poster <pat@example.org>
	Date: Tue, 1 Dec 2026 10:00:00 +0000
	Subject: [PATCH] $HOSTILE
	Message-ID: <alpha-v1@example.org>

	body
	---
	diff --git a/drivers/x.c b/drivers/x.c
	--- a/drivers/x.c
	+++ b/drivers/x.c
	@@ -1 +1 @@
	-old
	+new
	EOT
	cp store/series/alpha/v1/0001-x.patch store/series/beta/v1/0001-x.patch &&
	result "$R" checkpatch warn "1 warning <b>bold</b>" \
		"[{\"id\": \"i\", \"tool\": \"checkpatch\", \"file\": \"drivers/x.c\", \"line\": 12, \"severity\": \"warning\", \"message\": \"<script>bad()</script> spacing\", \"patch\": 1}]" &&
	echo "drivers/x.c:12: WARNING: spacing" >"$R/checkpatch.log" &&
	result "$R" format pass "1 patch mail" &&
	result "$R" model fail "spin: counterexample" \
		"[{\"id\": \"m\", \"tool\": \"model\", \"file\": \"model/m.pml\", \"line\": 40, \"severity\": \"error\", \"message\": \"assertion violated\", \"patch\": 0}]" &&
	printf "%s\n" "pan:1: assertion violated (x < 2) (at depth 7)" \
		"  1: proc 0 (T1) m.pml:12 <TRACE-MARK>" >"$R/model.log" &&
	result "$R" perf pass "throughput, patched/base 1.25x, p=0.0079" &&
	{
		for n in check-base check-tip check-base-2 check-tip-2; do
			echo "$n (highres yes):"
			for i in 1 2 3 4 5; do
				case $n in
				check-base*) v=$((8000 + i * 10 + ${#n})) ;;
				*) v=$((10000 + i * 10 + ${#n})) ;;
				esac
				echo "  binder-throughput: workers=2 iterations=6000 size=128 iter_per_s=$v avg_us=250 p50_us=$((300 - i)) p99_us=900 max_us=2000"
			done
		done
		echo "iter_per_s: base 8032 [8011-8060] patched 10040 [10021-10062] U=0 n=10+10 p=0.0079 lower=A"
		echo "binder throughput: patched/base 1.25x, p=0.0079"
	} >"$R/perf.log" &&
	echo "pass 2026-12-01 10:00" >"$R/summary" &&
	cat >store/series/alpha/feedback/0123456789ab <<-EOT
	Id: 0123456789ab
	Kind: comment
	Version: 1
	Message-Id: <reply-1@example.org>
	Index: 0
	From: Rev Iewer <rev@example.org>
	Date: 2026-12-01T11:00:00Z
	Patch: <alpha-v1@example.org>
	Patch-Index: 1
	Patch-Kind: patch
	Patch-Subject: $HOSTILE
	File: drivers/x.c
	Side: new
	Line: 1
	Quote: +new <img src=x onerror=alert(1)>

	This <script>steal()</script> is wrong.
	EOT
'

test_expect_success 'status --html writes the index, a page per version, plots and logs' '
	cd store &&
	kseries status --html ../site >out &&
	echo "../site/index.html" >expect && test_cmp expect out &&
	cd ../site &&
	for f in index.html style.css alpha-v1.html beta-v1.html \
		 alpha-v1-perf-iter_per_s.svg logs/alpha/v1/checkpatch.log.txt \
		 logs/alpha/v1/model.log.txt logs/alpha/v1/perf.log.txt; do
		test -f "$f" || { echo "no $f"; exit 1; }
	done &&
	cmp logs/alpha/v1/checkpatch.log.txt "$R/checkpatch.log" &&
	! ls -a .. | grep -q "site.tmp"
'

test_expect_success 'every relative link of the site resolves inside it' '
	cd site &&
	grep -ho "\(href\|src\)=\"[^\"]*\"" *.html | sed "s/^[a-z]*=\"//; s/\"$//" |
		grep -v "^https:" | sort -u |
		python3 -c "import sys, urllib.parse; [print(urllib.parse.unquote(l.strip())) for l in sys.stdin]" >links &&
	grep -Fx "g#a?b-v1.html" links &&
	grep -F "href=\"g%23a%3Fb-v1.html\"" index.html &&
	test_line_count -ge 8 links &&
	while read -r l; do
		test -f "$l" || { echo "dangling $l"; exit 1; }
	done <links
'

test_expect_success 'hostile subjects, summaries and review text arrive escaped' '
	cd site &&
	! grep -l "<script\|<img src=x\|<b>" *.html &&
	grep -F "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more" alpha-v1.html &&
	grep -F "alpha: &lt;script&gt;" index.html &&
	grep -F "&lt;script&gt;steal()&lt;/script&gt;" alpha-v1.html &&
	grep -F "+new &lt;img src=x onerror=alert(1)&gt;" alpha-v1.html &&
	grep -F "1 warning &lt;b&gt;bold&lt;/b&gt;" index.html
'

test_expect_success 'findings with file:line and their log, the review with its mail' '
	cd site &&
	grep -F "<code>drivers/x.c:12</code> warning: &lt;script&gt;bad()&lt;/script&gt; spacing (patch 1) <a href=\"logs/alpha/v1/checkpatch.log.txt\">log</a>" alpha-v1.html &&
	grep -F "<td class=\"open\">open</td>" alpha-v1.html &&
	grep -F "<code>drivers/x.c:1</code> (new)" alpha-v1.html &&
	grep -F "href=\"https://lore.kernel.org/all/reply-1@example.org/\"" alpha-v1.html &&
	grep -F "href=\"https://lore.kernel.org/all/alpha-v1@example.org/\"" alpha-v1.html &&
	grep -F "No review items." beta-v1.html
'

test_expect_success 'the model trace of a failed model stage is on the page' '
	grep -F "&lt;TRACE-MARK&gt;" site/alpha-v1.html &&
	grep -F "model: the trace" site/alpha-v1.html &&
	! grep -F "model: the trace" site/beta-v1.html
'

test_expect_success 'the perf plot: every sample, both boxes, the ratio and p' '
	svg=site/alpha-v1-perf-iter_per_s.svg &&
	python3 - "$svg" <<-EOF &&
	import sys, xml.etree.ElementTree as ET
	ns = "{http://www.w3.org/2000/svg}"
	root = ET.parse(sys.argv[1]).getroot()
	assert root.tag == ns + "svg", root.tag
	assert len(root.findall(ns + "circle")) == 20
	assert len(root.findall(ns + "rect")) == 3     # background, two boxes
	texts = [t.text for t in root.iter(ns + "text")]
	assert "patched/base 1.25x, Mann-Whitney p=0.0079" in texts, texts
	assert "base" in texts and "patched" in texts
	EOF
	grep -F "iter_per_s: patched/base 1.25x, Mann-Whitney p=0.0079" site/alpha-v1.html &&
	! test -e site/alpha-v1-perf-p50_us.svg
'

test_expect_success 'a second run replaces the site whole' '
	touch site/stale &&
	(cd store && kseries status --html ../site) &&
	! test -e site/stale && test -f site/index.html &&
	! ls -a . | grep -q "site.tmp\|site.old"
'

test_expect_success 'refuses a symbolic link, a file and a foreign directory' '
	mkdir real && ln -s real link && echo x >file && mkdir foreign && echo keep >foreign/mine &&
	cd store &&
	test_must_fail kseries status --html ../link 2>err &&
	grep -F "is a symbolic link" err && test_line_count = 1 err &&
	test_must_fail kseries status --html ../link/ 2>err &&
	grep -F "is a symbolic link" err && test_line_count = 1 err &&
	test -z "$(ls -A ../real)" &&
	test_must_fail kseries status --html ../file 2>err && test_line_count = 1 err &&
	test_must_fail kseries status --html ../foreign 2>err && test_line_count = 1 err &&
	echo keep >expect && test_cmp expect ../foreign/mine &&
	test_must_fail kseries status --html series/site 2>err && test_line_count = 1 err &&
	! test -e series/site &&
	test_expect_code 129 kseries status --html
'

# Chromium: a headless browser renders the page (no sandbox: the test may
# run as root; a scratch profile; GPU off for a machine without one).
if command -v chromium >/dev/null; then
	test_set_prereq CHROMIUM
fi
SKIP_REASON='chromium is not installed (ci/setup installs it)'

browser() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TRASH/chromium" --window-size=1280,1000 "$@" \
		2>>"$TRASH/chromium.log"
}

test_expect_success CHROMIUM 'in a browser: the page is not blank' '
	browser --screenshot="$TRASH/shot.png" "file://$TRASH/site/index.html" >/dev/null &&
	python3 - "$TRASH/shot.png" <<-EOF
	import sys, zlib, struct
	data = open(sys.argv[1], "rb").read()
	assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
	pos, idat, hdr = 8, b"", None
	while pos < len(data):
	    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
	    body = data[pos + 8:pos + 8 + n]
	    if kind == b"IHDR":
	        hdr = struct.unpack(">IIBBBBB", body)
	    elif kind == b"IDAT":
	        idat += body
	    pos += 12 + n
	w, h, depth, ctype = hdr[0], hdr[1], hdr[2], hdr[3]
	assert depth == 8 and ctype in (2, 6), hdr
	bpp = 3 if ctype == 2 else 4
	raw = zlib.decompress(idat)
	stride = w * bpp
	prev = bytearray(stride)
	colours = set()
	for y in range(h):
	    f = raw[y * (stride + 1)]
	    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
	    for x in range(stride):
	        a = line[x - bpp] if x >= bpp else 0
	        b = prev[x]
	        c = prev[x - bpp] if x >= bpp else 0
	        if f == 1: line[x] = (line[x] + a) & 255
	        elif f == 2: line[x] = (line[x] + b) & 255
	        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
	        elif f == 4:
	            p = a + b - c
	            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
	            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
	    if y % 10 == 0:
	        for x in range(0, stride, bpp * 5):
	            colours.add(bytes(line[x:x + 3]))
	    prev = line
	print("# %dx%d, %d colours sampled" % (w, h, len(colours)))
	assert len(colours) > 3, colours
	EOF
'

test_expect_success CHROMIUM 'in a browser: the page text names every series and stage' '
	browser --dump-dom "file://$TRASH/site/index.html" >dom &&
	sed "s/<[^>]*>/ /g" dom >text &&
	for w in alpha beta apply format provenance checkpatch build sparse cocci \
		 rust kunit model vm perf feedback mail; do
		grep -qw "$w" text || { echo "no $w in the page"; exit 1; }
	done &&
	grep -F "alpha: &lt;script&gt;" dom &&
	! grep -F "<script>alert" dom &&
	browser --dump-dom "file://$TRASH/site/alpha-v1.html" >dom1 &&
	grep -F "iter_per_s" dom1 && grep -F "Rev Iewer" dom1
'

test_done
