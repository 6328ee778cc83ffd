#!/usr/bin/env bash
test_description='hostile and malformed mail: an error or a result, never a crash'
. "$(dirname "$0")/lib.sh"

# survives CMD...: exit 0, or 1..128 with one error line; never a signal
survives() {
	local rc=0
	"$@" >out 2>err || rc=$?
	if [ $rc -gt 128 ] && [ $rc -ne 129 ]; then
		echo "died with signal $((rc - 128)): $*" >&2
		cat err >&2
		return 1
	fi
	if [ $rc -ne 0 ]; then
		grep -c "^kseries: " err >n && test "$(cat n)" = 1
	fi
}

test_expect_success 'crashes found by fuzzing stay fixed' '
	mkdir -p store/series && cd store &&
	for f in "$FIXTURES"/crash-*.mbox; do
		survives kseries import fz "$f" || exit 1
	done
'

test_expect_success 'huge headers, deep MIME, invalid UTF-8, NUL bytes, binary parts' '
	mkdir -p store/series && cd store &&
	python3 - <<-\EOP &&
	import base64, os
	def msg(name, headers, body):
	    with open(name, "wb") as f:
	        f.write(b"From x@y Thu Jan  1 00:00:00 1970\n" + headers + b"\n" + body)
	msg("hugehdr.mbox", b"Subject: [PATCH] x\nX-Big: " + b"a" * (4 << 20) + b"\n", b"b\n")
	deep = b"Subject: [PATCH] deep\nMIME-Version: 1.0\n"
	for i in range(200):
	    deep += b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (i, i)
	msg("deep.mbox", deep, b"Content-Type: text/plain\n\nx\n")
	msg("badutf8.mbox", b"Subject: [PATCH] \xff\xfe bad\nFrom: \xc3\x28 <a@b>\n", b"\xff\xfe\xfd body\n")
	msg("nul.mbox", b"Subject: x\n", b"a\0b\n")
	bin_part = base64.encodebytes(os.urandom(1 << 16))
	msg("binary.mbox", b"Subject: [PATCH] bin\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=z\n",
	    b"--z\nContent-Type: text/plain\n\ntext\n--z\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\n" + bin_part + b"--z--\n")
	EOP
	for f in hugehdr deep badutf8 nul binary; do
		survives kseries import "s-$f" "$f.mbox" || exit 1
	done &&
	test_must_fail kseries import s-deep deep.mbox 2>err &&
	grep "MIME nesting too deep" err &&
	test ! -e series/s-deep &&
	kseries import s-badutf8 badutf8.mbox >/dev/null &&
	git config -f series/s-badutf8/series.conf series.title >t &&
	iconv -f UTF-8 -t UTF-8 t >/dev/null
'

# Found by fuzz-mail: GMime 3.2 joins adjacent base64 encoded-words of
# one charset before decoding, so padding at the end of the first word
# dropped the second (its own encoder writes such pairs for long
# non-ASCII subjects).
test_expect_success 'a subject in padded base64 encoded-words keeps every word' '
	mkdir -p store/series && cd store &&
	python3 - <<-\EOP &&
	import base64
	def word(b):
	    return "=?iso-8859-1?b?" + base64.b64encode(b).decode() + "?="
	one, two = b"[PATCH] x: " + b"a" * 20 + b"\xe9" * 6, b" \xe9" * 20
	assert base64.b64encode(one).endswith(b"=")
	with open("padded.mbox", "w") as f:
	    f.write("From x@y Thu Jan  1 00:00:00 1970\n"
	            "From: A U Thor <author@example.invalid>\n"
	            "Subject: %s\n %s zz\n"
	            "Message-ID: <padded@example.invalid>\n\nbody\n" % (word(one), word(two)))
	with open("want", "wb") as f:
	    f.write((one[8:] + two + b" zz\n").decode("latin-1").encode())
	EOP
	kseries import padded padded.mbox >/dev/null &&
	git config -f series/padded/series.conf series.title >got &&
	test_cmp want got
'

# imported_title NAME SUBJECT: the series title kseries import makes of
# a one-mail mbox with that Subject: line
imported_title() {
	{
		echo "From x@y Thu Jan  1 00:00:00 1970" &&
		echo "From: A U Thor <author@example.invalid>" &&
		echo "Subject: $2" &&
		echo "Message-ID: <$1@example.invalid>" &&
		echo &&
		echo "body"
	} >"$1.mbox" &&
	kseries import "$1" "$1.mbox" >/dev/null &&
	git config -f "series/$1/series.conf" series.title
}

test_expect_success 'text that only looks like an encoded-word keeps its space' '
	mkdir -p store/series && cd store &&
	imported_title notaword "=?iso-8859-1?b?W1BBVENIXSB4OiBh6Q==?= =?UTF-8?B?QXJ2 z" >got &&
	printf "x: a\303\251 =?UTF-8?B?QXJ2 z\n" >want &&
	test_cmp want got
'

# Found by fuzz-mail: GMime left an encoded-word undecoded after text
# that only starts like one.
test_expect_success 'an encoded-word after a false start is decoded' '
	mkdir -p store/series && cd store &&
	imported_title falsestart "[PATCH] x: =?U =?iso-8859-1?q?a=E9=3F?= z" >got &&
	printf "x: =?U a\303\251? z\n" >want &&
	test_cmp want got
'

test_expect_success 'a message with too many header fields is refused, one under the limit read' '
	mkdir -p store/series && cd store &&
	python3 - <<-\EOP &&
	hdr = b"From x@y Thu Jan  1 00:00:00 1970\nFrom: A <a@b>\nSubject: [PATCH] h\n"
	open("many.mbox", "wb").write(hdr + b"X:\n" * 60000 + b"\nbody\n")
	inner = b"Content-Type: message/rfc822\n\n" + b"X-I: y\n" * 60000
	open("inner.mbox", "wb").write(hdr + b"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=z\n\n--z\n" + inner + b"\nbody\n--z--\n")
	open("fewer.mbox", "wb").write(hdr + b"X-H: 0123456789\n" * 49000 + b"\nbody\n")
	EOP
	for f in many inner; do
		test_must_fail kseries import "s-$f" "$f.mbox" 2>err &&
		test_line_count = 1 err &&
		grep "message 1 has more than 50000 header fields" err &&
		! test -e "series/s-$f" || exit 1
	done &&
	kseries import fewer fewer.mbox >/dev/null &&
	echo h >want &&
	git config -f series/fewer/series.conf series.title >got &&
	test_cmp want got
'

test_expect_success 'a message over the size limit is refused with an error' '
	mkdir -p store/series && cd store &&
	{ printf "From x@y Thu Jan  1 00:00:00 1970\nSubject: big\n\n" &&
	  head -c $((70 << 20)) /dev/zero | tr "\0" "a" && echo; } >big.mbox &&
	test_must_fail kseries import big big.mbox 2>err &&
	grep "larger than 64 MiB" err &&
	test ! -e series/big
'

test_done
