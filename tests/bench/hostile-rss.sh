#!/usr/bin/env bash
# hostile-rss.sh - peak RSS of `kseries import` and `kseries review
# extract` on hostile mail: a 100 MB message (over the 64 MiB message
# limit), a 60 MB one (under it), a 100 MB mbox of 1000 messages, a
# 60 MB header line, 49000 header fields (under the 50000 limit) and a
# million (over it), MIME nested 10000 deep, and 250 binary parts. Prints the exit status, peak RSS (GNU time's
# maximum resident set size) and its ratio to the input size; asserts
# nothing.
set -euo pipefail

SRC=$(cd "$(dirname "$0")/../.." && pwd)
KSERIES=${KSERIES:-$SRC/kseries}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/kseries-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
TIME=/usr/bin/time
. "$SRC/tests/bench/lib"
[ -x "$TIME" ] || bench_skip hostile-rss "no $TIME (GNU time, Debian package time)"
[ -x "$KSERIES" ] || bench_skip hostile-rss "no $KSERIES: build it first (make)"

cd "$TMP"
python3 - <<'EOP'
import base64, os
HDR = b"From x@y Thu Jan  1 00:00:00 1970\nFrom: A <a@example.invalid>\n"
def msg(name, headers, body, mode="wb"):
    with open(name, mode) as f:
        f.write(HDR + headers + b"\n" + body)
line = b"x" * 99 + b"\n"
msg("big100.mbox", b"Subject: [PATCH] big\n", line * ((100 << 20) // 100))
msg("big60.mbox", b"Subject: [PATCH] big\n", line * ((60 << 20) // 100))
with open("many100.mbox", "wb") as f:
    for i in range(1000):
        f.write(HDR + b"Subject: [PATCH] m%d\nMessage-ID: <m%d@x>\n\n" % (i, i))
        f.write(line * 1048 + b"\n")
msg("hdr60.mbox", b"Subject: [PATCH] h\nX-Big: " + b"a" * (60 << 20) + b"\n", b"b\n")
msg("fields49k.mbox", b"Subject: [PATCH] h\n" + b"X-H: 0123456789\n" * 49000, b"b\n")
msg("fields1m.mbox", b"Subject: [PATCH] h\n" + b"X:\n" * 1000000, b"b\n")
deep = b"Subject: [PATCH] deep\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b0\n"
body = b""
for i in range(1, 10000):
    body += b"--b%d\nContent-Type: multipart/mixed; boundary=b%d\n\n" % (i - 1, i)
msg("deep10k.mbox", deep, body + b"--b9999\nContent-Type: text/plain\n\nx\n")
parts = b"".join(b"--z\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\n" +
                 base64.encodebytes(os.urandom(100000)) for _ in range(250))
msg("binary250.mbox", b"Subject: [PATCH] bin\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=z\n",
    b"--z\nContent-Type: text/plain\n\ntext\n" + parts + b"--z--\n")
EOP

mkdir -p store/series
printf '%-16s %8s  %-16s %5s %10s %7s\n' input MB command exit "peak RSS" "RSS/in"
for f in big100 big60 many100 hdr60 fields49k fields1m deep10k binary250; do
	size=$(stat -c %s "$f.mbox")
	mb=$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1048576 }')
	for cmd in import review; do
		rc=0
		if [ "$cmd" = import ]; then
			(cd store && "$TIME" -f %M -o ../rss "$KSERIES" import "s-$f" "../$f.mbox") \
				>/dev/null 2>err || rc=$?
		else
			"$TIME" -f %M -o rss "$KSERIES" review extract "$f.mbox" --json \
				>/dev/null 2>err || rc=$?
		fi
		kb=$(tail -n 1 rss)
		printf '%-16s %8s  %-16s %5s %7d MB %7s\n' "$f" "$mb" "$cmd" "$rc" \
			$((kb / 1024)) "$(awk -v k="$kb" -v s="$size" 'BEGIN { printf "%.2f", k * 1024 / s }')"
		if [ "$rc" != 0 ]; then
			grep -m1 "^kseries: " err | sed 's/^/    /' || :
		fi
	done
done
