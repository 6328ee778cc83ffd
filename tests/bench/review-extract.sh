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
# b4 runs offline (-n --offline-mode) with attestation off, in a scratch
# HOME, as in mail-scale.sh: no network, no key lookups in its time.
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

# CPU seconds (user + system, children included) of a command: the
# machine is shared, so wall time says more about the neighbours.
cpu() {
	local f="$TMP/cpu.$RANDOM"
	TIMEFORMAT='%3U %3S %3R'
	{ time "$@" >/dev/null 2>>"$TMP/err.log"; } 2>"$f"
	awk '{ printf "%.3f %.3f", $1 + $2, $3 }' "$f"
}
report() {	# NAME "CPU WALL"
	local c=${2% *} w=${2#* }
	awk -v name="$1" -v c="$c" -v w="$w" -v n="$msgs" -v b="$bytes" 'BEGIN {
		printf "%-26s cpu %7.3f s  wall %7.3f s  %7.0f msg/s  %6.1f MiB/s (cpu)\n",
			name, c, w, n / c, b / 1048576 / c }'
}

extract() { "$KSERIES" review extract "$TMP/big.mbox" --json >"$TMP/review.json"; }
split_only() { rm -rf "$TMP/s0"; mkdir "$TMP/s0"; git mailsplit -o"$TMP/s0" "$TMP/big.mbox"; }
split_info() {
	rm -rf "$TMP/s1"; mkdir "$TMP/s1"
	git mailsplit -o"$TMP/s1" "$TMP/big.mbox" >/dev/null
	for m in "$TMP"/s1/*; do
		git mailinfo "$TMP/msg" "$TMP/patch" <"$m" >/dev/null 2>&1
	done
}
b4_am() { (cd "$TMP/b4" && b4 -n -q --offline-mode am -C "$@" -m "$TMP/big.mbox" -o -); }

k=$(cpu extract)
report "kseries review extract" "$k"
echo "  ($(grep -c '"reply_message_id"' "$TMP/review.json") comments, $(grep -c '"given_in"' "$TMP/review.json") trailers)"
s=$(cpu split_only)
report "git mailsplit alone" "$s"
g=$(cpu split_info)
report "git mailsplit + mailinfo" "$g"

b=
if command -v b4 >/dev/null; then
	export HOME="$TMP/home" XDG_CACHE_HOME="$TMP/cache" XDG_CONFIG_HOME="$TMP/config"
	mkdir -p "$HOME" "$TMP/b4"
	git config --global user.name bench
	git config --global user.email bench@kseries.invalid
	git config --global b4.attestation-policy off
	b=$(cpu b4_am -T)
	report "b4 am -m -T (no trailers)" "$b"
	bt=$(cpu b4_am)
	report "b4 am -m (trailers)" "$bt"
fi

ratio() { awk -v a="${1% *}" -v b="${2% *}" 'BEGIN { printf "%.1f", a / b }'; }
echo "ratio (cpu): kseries is $(ratio "$g" "$k")x the throughput of git mailsplit+mailinfo," \
	"$(ratio "$s" "$k")x of mailsplit alone"
if [ -n "$b" ]; then
	echo "ratio (cpu): kseries is $(ratio "$bt" "$k")x the throughput of b4 am -m," \
		"$(ratio "$b" "$k")x of b4 am -m -T"
fi
