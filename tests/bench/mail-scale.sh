#!/usr/bin/env bash
# mail-scale.sh - `kseries review extract` and `kseries import` at mailing
# list scale, side by side with b4 (`b4 am -m`, offline, attestation off)
# and with `git mailsplit` + `git mailinfo` run per message (how git reads
# mail), on the same mboxes, in one run: CPU seconds (user + system,
# children included) and peak RSS (GNU time), and their ratios.
#
# The inputs are made at run time from the repo's own mail
# (tests/bench/mail-corpus.py): for review, copies of every mail the repo
# holds; for import, one posting and copies of the repo's replies; each
# copy with its own Message-IDs. Nothing is asserted: the goals of issue
# 18 are read off the ratios (tests/bench/README); under make bench each
# figure is also recorded for its goals summary (tests/bench/lib,
# bench_result).
#
#   MAIL_SCALE_SIZES="2000 10000 20000 100000"  message counts (the
#                        default; 10000 is there for the growth 100k/10k;
#                        MAIL_SCALE_SIZES=2000 is a quick run)
#   MAIL_SCALE_BASELINES=0                      kseries only
#   MAIL_SCALE_BASELINES=b4                     kseries and b4, no
#                        mailsplit+mailinfo loop (a process per
#                        message: most of the run's time on a busy
#                        machine)
#   MAIL_SCALE_ONLY=review (or import)          one of the two commands
# (BENCH_SIZES and BENCH_BASELINES are the older names, still read.) At
# the default sizes a run takes about 15 minutes of CPU on a 2-core
# machine, most of it b4 and the mailinfo loop at 100k.
set -euo pipefail

SRC=$(cd "$(dirname "$0")/../.." && pwd)
KSERIES=${KSERIES:-$SRC/kseries}
SIZES=${MAIL_SCALE_SIZES:-${BENCH_SIZES:-2000 10000 20000 100000}}
BASELINES=${MAIL_SCALE_BASELINES:-${BENCH_BASELINES:-1}}
ONLY=${MAIL_SCALE_ONLY:-}
TIME=/usr/bin/time
. "$SRC/tests/bench/lib"
[ -x "$TIME" ] || bench_skip mail-scale "no $TIME (GNU time, Debian package time)"
[ -x "$KSERIES" ] || bench_skip mail-scale "no $KSERIES: build it first (make)"
# a sanitized build is several times slower: its figures are not kseries'
if grep -q __asan_init "$KSERIES" 2>/dev/null; then
	echo "mail-scale: warning: $KSERIES is built with SANITIZE: rebuild without it for figures"
	bench_result "mail.sanitized 1"
fi
echo "mail-scale: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)," \
	"$("$KSERIES" --version 2>/dev/null || echo 'kseries ?')"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/kseries-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# b4 gets a scratch identity and no attestation (nothing is signed here)
export HOME="$TMP/home" XDG_CACHE_HOME="$TMP/cache" XDG_CONFIG_HOME="$TMP/config"
mkdir -p "$HOME" "$TMP/b4"
git config --global user.name bench
git config --global user.email bench@kseries.invalid
git config --global b4.attestation-policy off
have_b4= no_b4= no_split=
if [ "$BASELINES" = 0 ]; then
	no_b4="MAIL_SCALE_BASELINES=0"
elif command -v b4 >/dev/null; then
	have_b4=1
else
	no_b4="no b4 (Debian package b4)"
fi
[ "$BASELINES" = 1 ] || no_split="MAIL_SCALE_BASELINES=$BASELINES"

# measure NAME CMD...: "CPU RSS_KB" of CMD (its exit status is not ours:
# b4 gives up on the am mbox of many copies after reading them all)
measure() {
	local name=$1
	shift
	"$TIME" -f "%U %S %M" -o "$TMP/time" "$@" >/dev/null 2>>"$TMP/err.log" || :
	awk -v n="$name" '{ c = $1 + $2; m = $3 } END { printf "%.3f %d\n", c, m }' \
		"$TMP/time"
}

split_info() {	# MBOX: git mailsplit, then git mailinfo on every message
	rm -rf "$1.split" && mkdir "$1.split"
	git mailsplit -o"$1.split" "$1" >/dev/null
	for m in "$1.split"/*; do
		git mailinfo "$1.msg" "$1.patch" <"$m" >/dev/null 2>&1 || :
	done
	rm -rf "$1.split"
}
export -f split_info

review() { "$KSERIES" review extract "$1" --json; }
import() { rm -rf "$TMP/store" && mkdir -p "$TMP/store/series" &&
	   (cd "$TMP/store" && "$KSERIES" import bench "$1"); }
b4am() { (cd "$TMP/b4" && rm -rf out && b4 -n -q --offline-mode am -C -m "$1" -o out); }
export KSERIES TMP
export -f review import b4am

row() {	# WHAT N MBOX POSTING: the four tools' figures and the ratios
	local what=$1 n=$2 mbox=$3 posting=$4 k b=- g=- bytes
	bytes=$(stat -c %s "$mbox")
	k=$(measure "$what" bash -c "$what \"\$0\"" "$mbox")
	if [ "$BASELINES" = 1 ]; then
		g=$(measure split bash -c 'split_info "$0"' "$mbox")
	fi
	if [ -n "$have_b4" ]; then
		b=$(measure b4 bash -c 'b4am "$0"' "$mbox")
	fi
	echo "$what $n $bytes $k ${b% *} ${b#* } ${g% *} ${g#* } $posting" >>"$TMP/results"
	bench_result "mail.$what.$n.bytes $bytes"
	bench_result "mail.$what.$n.posting_bytes $posting"
	bench_result "mail.$what.$n.cpu ${k% *}"
	bench_result "mail.$what.$n.rss_kb ${k#* }"
	bench_result "mail.$what.$n.b4_cpu ${have_b4:+${b% *}}${no_b4:+? $no_b4}"
	bench_result "mail.$what.$n.split_cpu ${no_split:+? $no_split}${no_split:-${g% *}}"
	awk -v w="$what" -v n="$n" -v by="$bytes" -v k="$k" -v b="$b" -v g="$g" 'BEGIN {
		split(k, K, " "); split(b, B, " "); split(g, G, " ")
		printf "%-7s %7d %7.1f | %7.2f s %6.0f MB | %7s %6s | %7s %6s |",
			w, n, by / 1048576, K[1], K[2] / 1024,
			B[1] == "-" ? "-" : sprintf("%.2f s", B[1]),
			B[1] == "-" ? "-" : sprintf("%.0f MB", B[2] / 1024),
			G[1] == "-" ? "-" : sprintf("%.2f s", G[1]),
			G[1] == "-" ? "-" : sprintf("%.0f MB", G[2] / 1024)
		printf " %6s %6s | %5.2f\n",
			B[1] == "-" ? "-" : sprintf("%.1fx", B[1] / K[1]),
			G[1] == "-" ? "-" : sprintf("%.1fx", G[1] / K[1]),
			K[2] * 1024 / by
	}'
}

printf '%-7s %7s %7s | %-17s | %-14s | %-14s | %-13s | %s\n' \
	"" messages MiB "kseries cpu, rss" "b4 am -m" "mailsplit+info" \
	"b4/k  split/k" "rss/mbox"
bench_result "mail.sizes $SIZES"
bench_result "mail.only ${ONLY:-review import}"
for n in $SIZES; do
	for what in review import; do
		[ -z "$ONLY" ] || [ "$ONLY" = "$what" ] || continue
		posting=$(python3 "$SRC/tests/bench/mail-corpus.py" "$what" "$n" "$TMP/$what.mbox" |
			  awk '$1 == "messages" && $3 == "posting" { print $4 }')
		row "$what" "$n" "$TMP/$what.mbox" "$posting"
	done
	rm -f "$TMP/review.mbox" "$TMP/import.mbox"
done

# growth: CPU at a size against the one a tenth of it, if both were run,
# for kseries and the baselines; then the goals of issue 18, size by size
awk '{ cpu[$1 " " $2] = $4; rss[$1 " " $2] = $5; by[$1 " " $2] = $3;
       b4[$1 " " $2] = $6; sp[$1 " " $2] = $8; po[$1 " " $2] = $10 }
END {
	for (w in cpu) {
		split(w, a, " ")
		t = a[1] " " a[2] / 10
		if (!(t in cpu) || cpu[t] <= 0)
			continue
		printf "%s: CPU at %d messages is %.1fx CPU at %d (linear: 10x; goal <= 11x)\n",
			a[1], a[2], cpu[w] / cpu[t], a[2] / 10
		if (b4[w] != "-" && b4[t] != "-" && b4[t] > 0)
			printf "%s: b4 at %d messages is %.1fx b4 at %d\n",
				a[1], a[2], b4[w] / b4[t], a[2] / 10
		if (sp[w] != "-" && sp[t] != "-" && sp[t] > 0)
			printf "%s: mailsplit+mailinfo at %d messages is %.1fx at %d\n",
				a[1], a[2], sp[w] / sp[t], a[2] / 10
	}
	for (w in cpu) {
		if (cpu[w] <= 0)
			continue
		if (b4[w] != "-")
			printf "%s: %.1fx faster than b4 am -m at %d messages%s\n",
				substr(w, 1, index(w, " ") - 1), b4[w] / cpu[w],
				substr(w, index(w, " ") + 1),
				(substr(w, index(w, " ") + 1) + 0 >= 10000 ? " (goal >= 10x)" : "")
		if (sp[w] != "-")
			printf "%s: %.1fx faster than mailsplit+mailinfo at %d messages (goal >= 3x)\n",
				substr(w, 1, index(w, " ") - 1), sp[w] / cpu[w],
				substr(w, index(w, " ") + 1)
	}
	for (w in rss)
		if (w ~ /^import /)
			printf "import at %s messages: peak RSS %.0f MB, %s 64 MiB + the %.2f MB posting (the mbox: %.0f MB)\n",
				substr(w, 8), rss[w] / 1024,
				rss[w] * 1024 <= 64 * 1048576 + po[w] ? "within" : "over",
				po[w] / 1048576, by[w] / 1048576
}' "$TMP/results" | sort
