#!/usr/bin/env bash
# review-extract.sh - throughput of `kseries review extract` on a large
# mbox, against `git mailsplit` + `git mailinfo` (the C floor: what
# `git am` does to read mail) and b4 (`b4 am -m`, offline, which parses,
# threads and collects the trailers of a whole local mbox).
#
# The mbox is the seed threads (tests/t0001) and the mailer fixtures
# (tests/t1010) concatenated BENCH_COPIES times, every Message-ID,
# In-Reply-To and References made fresh per copy so that each copy is its
# own thread. Reported as throughput and ratios; nothing is asserted.
set -euo pipefail

SRC=$(cd "$(dirname "$0")/../.." && pwd)
KSERIES=${KSERIES:-$SRC/kseries}
COPIES=${BENCH_COPIES:-200}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/kseries-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

seeds=("$SRC"/tests/t0001/seed-*.mbox "$SRC"/tests/t1010/*.mbox)
for ((i = 1; i <= COPIES; i++)); do
	for f in "${seeds[@]}"; do
		awk -v c="$i" '
			/^From mboxrd@z / || /^From [^ ]+ [A-Z][a-z][a-z] / { hdr = 1; ids = 0 }
			hdr && /^$/ { hdr = 0 }
			hdr && /^[^ \t]/ { ids = ($0 ~ /^(Message-I[Dd]|In-Reply-To|References):/) }
			hdr && ids { gsub(/@/, ".c" c "@") }
			{ print }
		' "$f"
		echo
	done
done >"$TMP/big.mbox"

bytes=$(wc -c <"$TMP/big.mbox")
msgs=$(grep -c '^From mboxrd@z ' "$TMP/big.mbox" || true)
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
echo "mbox: $COPIES copies, $msgs messages, $mb MiB"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
rate() { awk -v s="$1" -v n="$msgs" -v b="$bytes" \
	'BEGIN { printf "%8.0f msg/s %7.1f MiB/s", n / s, b / 1048576 / s }'; }

t0=$(now)
"$KSERIES" review extract "$TMP/big.mbox" --json >"$TMP/review.json"
t1=$(now)
k=$(elapsed "$t0" "$t1")
ncomments=$(grep -c '"reply_message_id"' "$TMP/review.json" || true)
printf '%-28s %7.3f s  %s  (%s comments)\n' "kseries review extract" "$k" "$(rate "$k")" "$ncomments"

mkdir "$TMP/split" "$TMP/split0"
t0=$(now)
git mailsplit -o"$TMP/split0" "$TMP/big.mbox" >/dev/null
t1=$(now)
s=$(elapsed "$t0" "$t1")
printf '%-28s %7.3f s  %s\n' "git mailsplit alone" "$s" "$(rate "$s")"
t0=$(now)
git mailsplit -o"$TMP/split" "$TMP/big.mbox" >/dev/null
for m in "$TMP"/split/*; do
	git mailinfo "$TMP/msg" "$TMP/patch" <"$m" >/dev/null 2>&1
done
t1=$(now)
g=$(elapsed "$t0" "$t1")
printf '%-28s %7.3f s  %s\n' "git mailsplit + mailinfo" "$g" "$(rate "$g")"

b=
if command -v b4 >/dev/null; then
	export HOME="$TMP/home" XDG_CACHE_HOME="$TMP/cache"
	mkdir -p "$HOME" "$TMP/b4"
	git config --global user.name bench
	git config --global user.email bench@kseries.invalid
	t0=$(now)
	if (cd "$TMP/b4" && b4 -q am -C -T -m "$TMP/big.mbox" -o - >/dev/null 2>"$TMP/b4.err"); then
		t1=$(now)
		b=$(elapsed "$t0" "$t1")
		printf '%-28s %7.3f s  %s\n' "b4 am -m (offline)" "$b" "$(rate "$b")"
		t0=$(now)
		(cd "$TMP/b4" && b4 -q am -C -m "$TMP/big.mbox" -o - >/dev/null 2>>"$TMP/b4.err") || true
		t1=$(now)
		bt=$(elapsed "$t0" "$t1")
		printf '%-28s %7.3f s  %s\n' "b4 am -m (with trailers)" "$bt" "$(rate "$bt")"
	else
		echo "b4 am failed:"; tail -n 5 "$TMP/b4.err"
	fi
fi

awk -v k="$k" -v g="$g" -v s="$s" 'BEGIN { printf "ratio: kseries is %.1fx the throughput of git mailsplit+mailinfo, %.2fx of mailsplit alone\n", g / k, s / k }'
if [ -n "$b" ]; then
	awk -v k="$k" -v b="$b" -v bt="$bt" 'BEGIN {
		printf "ratio: kseries is %.1fx the throughput of b4 am -T, %.1fx of b4 am\n", b / k, bt / k }'
fi
