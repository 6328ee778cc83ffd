#!/usr/bin/env bash
# tests/fuzz/coverage.sh [HARNESS...] - edge coverage of each parser file.
#
# Replays each harness' working corpus (tests/fuzz/corpus-NAME, else its
# committed tests/fuzz/regress-NAME) once with -print_coverage=1 and
# prints, per library file, the edges covered out of its instrumented
# edges (libFuzzer's COVERED_FUNC/UNCOVERED_FUNC lines). No fuzzing.
set -euo pipefail

cd "$(dirname "$0")/../.."
files="mail.c patch.c anchor.c trailer.c review.c subject.c series.c feedback.c recipients.c util.c thread.c"
if [ $# -eq 0 ]; then
	set -- mail review subject patch anchor trailer conf store
fi
printf '%-8s' harness
for f in $files; do printf ' %12s' "$f"; done
echo
for h in "$@"; do
	h=${h#fuzz-}
	c=tests/fuzz/corpus-$h
	[ -d "$c" ] || c=tests/fuzz/regress-$h
	nice -n 19 "tests/fuzz/fuzz-$h" -runs=0 -print_coverage=1 -rss_limit_mb=2048 "$c" 2>&1 |
		awk -v h="$h" -v files="$files" '
		/^(UN)?COVERED_FUNC:/ {
			split($5, e, "/"); n = split($7, p, "/"); f = p[n]; sub(/:.*/, "", f)
			cov[f] += e[1]; tot[f] += e[2]
		}
		END {
			printf "%-8s", h
			n = split(files, fs, " ")
			for (i = 1; i <= n; i++)
				if (tot[fs[i]])
					printf " %5d/%-6d", cov[fs[i]], tot[fs[i]]
				else
					printf " %12s", "-"
			printf "\n"
		}'
done
