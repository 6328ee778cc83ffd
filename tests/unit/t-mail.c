// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "mail.h"

static GPtrArray *parse(const char *text)
{
	GPtrArray *mails = mail_array_new();

	assert_int_equal(mail_parse_mbox(text, strlen(text), "test", mails), 0);
	return mails;
}

static void test_headers_and_rfc2047(void **state)
{
	GPtrArray *m = parse(
		"From: =?UTF-8?B?QXJ2ZSBIasO4bm5ldsOlZw==?= <arve@android.com>\n"
		"Subject: =?UTF-8?Q?Re=3A_caf=C3=A9?= and\n more\n"
		"Date: Thu, 18 Apr 2024 10:21:49 +0200\n"
		"Message-ID: <abc@x>\n"
		"In-Reply-To: <p3@y> (Carlos's message)\n"
		"References: <p0@y>\n <p3@y>\n"
		"\n"
		"body\n");
	struct mail *x = m->pdata[0];

	assert_string_equal(x->from_name, "Arve Hjønnevåg");
	assert_string_equal(x->from_email, "arve@android.com");
	assert_string_equal(x->subject, "Re: café and more");
	assert_string_equal(x->message_id, "abc@x");
	assert_string_equal(x->in_reply_to, "p3@y");
	assert_int_equal(x->references->len, 2);
	assert_int_equal(x->time, 1713428509);
	assert_int_equal(x->tz_minutes, 120);
	assert_string_equal(x->body, "body\n");
	g_ptr_array_unref(m);
}

static void test_header_injection(void **state)
{
	/* an encoded CR LF must not survive into the decoded subject */
	GPtrArray *m = parse("Subject: =?UTF-8?Q?a=0D=0ABcc:_evil@x?=\n\nb\n");

	assert_null(strchr(((struct mail *)m->pdata[0])->subject, '\n'));
	g_ptr_array_unref(m);
}

static void test_qp_crlf_latin1(void **state)
{
	GPtrArray *m = parse(
		"Subject: x\r\n"
		"Content-Type: text/plain; charset=iso-8859-1\r\n"
		"Content-Transfer-Encoding: quoted-printable\r\n"
		"\r\n"
		"On Wed, Apr 17, 2024 at 9:15=E2=80=AFPM Carlos wrote:\r\n"
		"caf=E9 long=\r\n"
		" line\r\n");
	struct mail *x = m->pdata[0];

	/* the bytes are decoded from Latin-1 as the header says */
	assert_non_null(strstr(x->body, "café long line\n"));
	assert_null(strchr(x->body, '\r'));
	g_ptr_array_unref(m);
}

static void test_base64_multipart(void **state)
{
	GPtrArray *m = parse(
		"Subject: x\n"
		"MIME-Version: 1.0\n"
		"Content-Type: multipart/mixed; boundary=\"b\"\n"
		"\n"
		"--b\n"
		"Content-Type: text/plain; charset=utf-8\n"
		"Content-Transfer-Encoding: base64\n"
		"\n"
		"SGVsbG8gd29ybGQK\n"
		"--b\n"
		"Content-Type: text/x-patch\n"
		"Content-Disposition: attachment; filename=\"a.patch\"\n"
		"\n"
		"diff --git a/x b/x\n"
		"--b\n"
		"Content-Type: text/plain\n"
		"Content-Disposition: attachment; filename=\"log.txt\"\n"
		"\n"
		"not inline\n"
		"--b--\n");
	struct mail *x = m->pdata[0];

	assert_string_equal(x->body, "Hello world\n");
	assert_int_equal(x->attachments, 2);
	g_ptr_array_unref(m);
}

static void test_alternative_prefers_plain(void **state)
{
	GPtrArray *m = parse(
		"Subject: x\nMIME-Version: 1.0\n"
		"Content-Type: multipart/alternative; boundary=z\n\n"
		"--z\nContent-Type: text/html\n\n<p>hi</p>\n"
		"--z\nContent-Type: text/plain\n\nhi\n--z--\n");

	assert_string_equal(((struct mail *)m->pdata[0])->body, "hi\n");
	g_ptr_array_unref(m);
}

static void test_format_flowed(void **state)
{
	GPtrArray *m = parse(
		"Subject: x\n"
		"Content-Type: text/plain; charset=utf-8; format=flowed; delsp=no\n"
		"\n"
		"> quoted text that \n"
		"> goes on\n"
		"own text that is \n"
		"flowed\n"
		" >From space-stuffed\n"
		"-- \n"
		"sig\n");
	struct mail *x = m->pdata[0];

	assert_true(x->flowed);
	assert_string_equal(x->body,
			    "> quoted text that goes on\n"
			    "own text that is flowed\n"
			    ">From space-stuffed\n"
			    "-- \n"
			    "sig\n");
	g_ptr_array_unref(m);
}

static void test_unflow_delsp(void **state)
{
	size_t n;
	char *s = mail_unflow("ab \ncd\n", 7, true, &n);

	assert_string_equal(s, "abcd\n");
	assert_int_equal(n, 5);
	g_free(s);
}

static void test_mbox_split_and_mboxrd(void **state)
{
	GPtrArray *m = parse(
		"From a@b Thu Jan  1 00:00:00 1970\n"
		"Subject: one\n"
		"\n"
		">From the start\n"
		">>From deeper\n"
		"From me, not a separator: no empty line before\n"
		"\n"
		"From a@b Thu Jan  1 00:00:00 1970\n"
		"Subject: two\n"
		"\n"
		"second\n");
	struct mail *a = m->pdata[0], *b = m->pdata[1];

	assert_int_equal(m->len, 2);
	assert_string_equal(a->subject, "one");
	assert_string_equal(a->body,
			    "From the start\n>From deeper\n"
			    "From me, not a separator: no empty line before\n\n");
	/* the raw bytes keep the escaping, for thread.mbox */
	assert_true(g_str_has_prefix(a->raw, "From a@b"));
	assert_non_null(strstr(a->raw, ">From the start"));
	assert_string_equal(b->subject, "two");
	g_ptr_array_unref(m);
}

static void test_malformed(void **state)
{
	GPtrArray *mails = mail_array_new();
	GString *deep = g_string_new("Subject: deep\nMIME-Version: 1.0\n");

	assert_int_equal(mail_parse_mbox("", 0, "empty", mails), -1);
	assert_int_equal(mail_parse_mbox("a\0b", 3, "nul", mails), -1);
	assert_int_equal(mails->len, 0);
	/* MIME nested past the cap is refused, not recursed into */
	for (int i = 0; i < 40; i++)
		g_string_append_printf(deep,
			"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n", i, i);
	g_string_append(deep, "Content-Type: text/plain\n\nx\n");
	assert_int_equal(mail_parse_mbox(deep->str, deep->len, "deep", mails), -1);
	g_string_free(deep, TRUE);
	/* garbage is refused with an error, not a crash */
	assert_int_equal(mail_parse_mbox("\x01\x02 garbage", 10, "g", mails), -1);
	assert_int_equal(mails->len, 0);
	g_ptr_array_unref(mails);
}

static void test_format_patch_roundtrip(void **state)
{
	GPtrArray *m = parse(
		"From: =?UTF-8?B?QXJ2ZSBIasO4bm5ldsOlZw==?= <arve@android.com>\n"
		"Subject: [PATCH] a very long subject line that goes on and on until it has to be folded\n"
		"Date: Thu, 18 Apr 2024 10:21:49 +0200\n"
		"Message-ID: <abc@x>\n"
		"\nbody\n");
	GString *out = g_string_new(NULL);
	GPtrArray *again = mail_array_new();
	struct mail *a, *b;

	a = m->pdata[0];
	mail_format_patch(a, NULL, out);
	assert_true(g_str_has_prefix(out->str,
		"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"));
	assert_int_equal(mail_parse_mbox(out->str, out->len, "out", again), 0);
	b = again->pdata[0];
	assert_string_equal(a->subject, b->subject);
	assert_string_equal(a->from, b->from);
	assert_string_equal(a->message_id, b->message_id);
	assert_string_equal(a->body, b->body);
	for (char *l = out->str; l; l = strchr(l, '\n')) {
		char *e;

		l += *l == '\n';
		e = strchr(l, '\n');
		if (!e || e == l)
			break;
		assert_true(e - l <= 78);	/* headers folded */
	}
	g_string_free(out, TRUE);
	g_ptr_array_unref(again);
	g_ptr_array_unref(m);
}

/* A temporary file holding text; the name is new. */
static char *temp_mbox(const char *text, size_t len)
{
	char *path = NULL;
	int fd = g_file_open_tmp("t-mail-XXXXXX", &path, NULL);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

/*
 * The reader over a file splits and parses as mail_parse_mbox() does,
 * across its read chunks (a body longer than one), and can read a message
 * again by its place in the file.
 */
static void test_reader_file(void **state)
{
	GString *mb = g_string_new(NULL);
	GPtrArray *want = mail_array_new();
	struct mail_reader rd;
	struct mail *m, *again;
	char *path;
	guint n = 0;

	for (int i = 0; i < 40; i++) {
		g_string_append_printf(mb, "From x@y Thu Jan  1 00:00:00 1970\n"
				       "Subject: [PATCH] m%d\n"
				       "Message-ID: <m%d@x>\n\n"
				       ">From here, escaped\nFrom not after an empty line\n",
				       i, i);
		for (int k = 0; k < (i % 7 == 3 ? 9000 : 3); k++)
			g_string_append(mb, "0123456789abcdef0123456789abcdef\n");
		g_string_append_c(mb, '\n');
	}
	assert_int_equal(mail_parse_mbox(mb->str, mb->len, "mem", want), 0);
	assert_int_equal(want->len, 40);
	path = temp_mbox(mb->str, mb->len);
	assert_int_equal(mail_reader_open(&rd, path, MAIL_NO_RAW), 0);
	while (mail_reader_next(&rd, &m) > 0) {
		struct mail *w = want->pdata[n++];

		assert_string_equal(m->subject, w->subject);
		assert_string_equal(m->body, w->body);
		assert_null(m->raw);
		assert_int_equal(m->nr, n);
		assert_int_equal(m->size, w->raw_len);
		assert_memory_equal(mb->str + m->offset, w->raw, w->raw_len);
		if (n == 11) {
			assert_int_equal(mail_reader_reread(&rd, m, &again), 0);
			assert_string_equal(again->body, m->body);
			mail_free(again);
		}
		mail_free(m);
	}
	assert_int_equal(n, 40);
	assert_int_equal(mail_reader_next(&rd, &m), 0);
	mail_reader_close(&rd);
	unlink(path);
	g_free(path);
	g_string_free(mb, TRUE);
	g_ptr_array_unref(want);
}

/* A file that changed under the reader is an error, not another mail. */
static void test_reader_reread_changed(void **state)
{
	static const char text[] =
		"From x@y Thu Jan  1 00:00:00 1970\nMessage-ID: <a@x>\n\na\n\n"
		"From x@y Thu Jan  1 00:00:00 1970\nMessage-ID: <b@x>\n\nb\n";
	char *path = temp_mbox(text, sizeof(text) - 1);
	struct mail_reader rd;
	struct mail *m, *again = NULL;
	FILE *fp;

	assert_int_equal(mail_reader_open(&rd, path, 0), 0);
	assert_int_equal(mail_reader_next(&rd, &m), 1);
	fp = fopen(path, "r+");
	assert_non_null(fp);
	fputs("From x@y Thu Jan  1 00:00:00 1970\nMessage-ID: <z@x>\n", fp);
	fclose(fp);
	assert_int_equal(mail_reader_reread(&rd, m, &again), -1);
	assert_null(again);
	mail_free(m);
	mail_reader_close(&rd);
	unlink(path);
	g_free(path);
}

/* NUL bytes past the first read chunk; a directory; an empty file. */
static void test_reader_refuses(void **state)
{
	GString *mb = g_string_new("From x@y Thu Jan  1 00:00:00 1970\n\n");
	struct mail_reader rd;
	struct mail *m;
	char *path;
	int ret;

	while (mb->len < (1u << 20))
		g_string_append(mb, "text line\n");
	g_string_append_len(mb, "a\0b\n", 4);
	path = temp_mbox(mb->str, mb->len);
	assert_int_equal(mail_reader_open(&rd, path, 0), 0);
	while ((ret = mail_reader_next(&rd, &m)) > 0)
		mail_free(m);
	assert_int_equal(ret, -1);
	assert_int_equal(mail_reader_next(&rd, &m), -1);
	mail_reader_close(&rd);
	unlink(path);
	g_free(path);
	g_string_free(mb, TRUE);

	assert_int_equal(mail_reader_open(&rd, "/", 0), -1);
	path = temp_mbox("", 0);
	assert_int_equal(mail_reader_open(&rd, path, 0), 0);
	assert_int_equal(mail_reader_next(&rd, &m), -1);
	mail_reader_close(&rd);
	unlink(path);
	g_free(path);
}

/* MAIL_NO_RECIPIENTS leaves To and Cc empty, and the rest as it was. */
static void test_reader_no_recipients(void **state)
{
	static const char text[] =
		"From x@y Thu Jan  1 00:00:00 1970\nMessage-ID: <a@x>\n"
		"To: Ann <ann@example.org>\nCc: Bob <bob@example.org>\n"
		"Subject: =?UTF-8?Q?caf=C3=A9?=\n\nbody\n";
	struct mail_reader rd;
	struct mail *m, *full;

	mail_reader_open_mem(&rd, text, sizeof(text) - 1, "mem", MAIL_NO_RECIPIENTS);
	assert_int_equal(mail_reader_next(&rd, &m), 1);
	assert_string_equal(m->to, "");
	assert_string_equal(m->cc, "");
	assert_string_equal(m->subject, "café");
	assert_string_equal(m->body, "body\n");
	rd.flags = 0;
	assert_int_equal(mail_reader_reread(&rd, m, &full), 0);
	assert_string_equal(full->to, "Ann <ann@example.org>");
	assert_string_equal(full->cc, "Bob <bob@example.org>");
	mail_free(full);
	mail_free(m);
	mail_reader_close(&rd);
}

static void assert_same_str(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

/* What MAIL_ONLY_IDS reads is what a full read gives. */
static void assert_same_ids(const struct mail *a, const struct mail *b)
{
	assert_same_str(a->message_id, b->message_id);
	assert_same_str(a->subject, b->subject);
	assert_same_str(a->in_reply_to, b->in_reply_to);
	assert_int_equal(a->references->len, b->references->len);
	for (guint i = 0; i < a->references->len; i++)
		assert_string_equal(a->references->pdata[i],
				    b->references->pdata[i]);
	assert_int_equal(a->offset, b->offset);
	assert_int_equal(a->size, b->size);
	assert_int_equal(a->nr, b->nr);
}

/*
 * Reads buf (named name) twice, fully and with flags, and compares
 * message by message: the same mails, or the same error at the same
 * message. Returns the number of messages.
 */
static unsigned compare_reads(const char *buf, size_t len, const char *name,
			      unsigned flags)
{
	struct mail_reader full, light;
	struct mail *a, *b;
	int ra, rb;
	unsigned n = 0;

	mail_reader_open_mem(&full, buf, len, name, MAIL_GMIME);
	mail_reader_open_mem(&light, buf, len, name, flags);
	for (;;) {
		ra = mail_reader_next(&full, &a);
		rb = mail_reader_next(&light, &b);
		assert_int_equal(ra, rb);
		if (ra <= 0)
			break;
		n++;
		assert_same_ids(a, b);
		assert_null(b->body);
		if (flags & MAIL_ONLY_IDS) {
			assert_string_equal(b->from, "");
			assert_null(b->date);
		} else {
			assert_string_equal(a->from, b->from);
			assert_same_str(a->date, b->date);
			assert_int_equal(a->time, b->time);
		}
		assert_memory_equal(a->raw, b->raw, a->raw_len);
		mail_free(a);
		mail_free(b);
	}
	mail_reader_close(&full);
	mail_reader_close(&light);
	return n;
}

/* Every field of struct mail alike. */
static void assert_same_mail(const struct mail *a, const struct mail *b)
{
	assert_same_ids(a, b);
	assert_same_str(a->from_name, b->from_name);
	assert_same_str(a->from_email, b->from_email);
	assert_same_str(a->from, b->from);
	assert_same_str(a->date, b->date);
	assert_int_equal(a->time, b->time);
	assert_int_equal(a->tz_minutes, b->tz_minutes);
	assert_same_str(a->to, b->to);
	assert_same_str(a->cc, b->cc);
	assert_int_equal(a->body_len, b->body_len);
	if (a->body && b->body)
		assert_memory_equal(a->body, b->body, a->body_len);
	else
		assert_ptr_equal(a->body, b->body);
	assert_int_equal(a->flowed, b->flowed);
	assert_int_equal(a->attachments, b->attachments);
	assert_same_str(a->reconstructed, b->reconstructed);
	assert_int_equal(a->raw_len, b->raw_len);
	if (a->raw_len)
		assert_memory_equal(a->raw, b->raw, a->raw_len);
}

/*
 * Reads buf with flags and with flags | MAIL_GMIME (every mail GMime's)
 * and compares every field of every mail, or the error. Returns the
 * number of messages.
 */
static unsigned compare_light(const char *buf, size_t len, const char *name,
			      unsigned flags)
{
	struct mail_reader ref, light;
	struct mail *a, *b;
	int ra, rb;
	unsigned n = 0;

	mail_reader_open_mem(&ref, buf, len, name, flags | MAIL_GMIME);
	mail_reader_open_mem(&light, buf, len, name, flags);
	for (;;) {
		ra = mail_reader_next(&ref, &a);
		rb = mail_reader_next(&light, &b);
		assert_int_equal(ra, rb);
		if (ra <= 0)
			break;
		n++;
		assert_same_mail(a, b);
		mail_free(a);
		mail_free(b);
	}
	mail_reader_close(&ref);
	mail_reader_close(&light);
	return n;
}

#define M "From x@y Thu Jan  1 00:00:00 1970\n"

/*
 * A plain mail is read without GMime's message (mail.h): every form the
 * light read takes, and the ones it must leave to GMime, give what
 * GMime gives.
 */
static void test_light_as_gmime(void **state)
{
	static const char text[] =
		/* the light read: addresses, RFC 2047, a folded Date */
		M "From: =?UTF-8?Q?Ren=C3=A9?= \"Q.\" Roe <rene@x>\n"
		"To: Ann <ann@x>, bob@y (Bob), =?ISO-8859-1?Q?J=F6rg?= <j@z>\n"
		"Cc: undisclosed-recipients:;\n"
		"Date: Tue, 3 Sep 2024\n 09:00:00 +0200\n"
		"Subject: Re: [PATCH v2 1/2] k: x\n"
		"Message-ID: <a@x>\nIn-Reply-To: <p@x>\nReferences: <c@x> <p@x>\n"
		"Content-Type: text/plain; charset=UTF-8\n"
		"Content-Transfer-Encoding: 8bit\n\n"
		"> quoted\nsome caf\xc3\xa9\n>From here\n>>From there\n> From not\n\n"
		/* quoted-printable Latin-1, CRLF in the body */
		M "From: b@x\nDate: garbage\nSubject: qp\n"
		"Content-Type: TEXT/PLAIN; charset=\"iso-8859-1\"\n"
		"Content-Transfer-Encoding: Quoted-Printable\n\n"
		"caf=E9 soft=\r\nbreak\r\n=3D end\n\n"
		/* base64 UTF-8, with a NUL in it, no final newline */
		M "From: c@x\nSubject: b64\n"
		"Content-Type: text/plain; charset=utf-8\n"
		"Content-Transfer-Encoding: base64\n\n"
		"aGkgdGhlcmUKw6kAeA==\n\n"
		/* format=flowed, delsp */
		M "From: d@x\nSubject: flowed\n"
		"Content-Type: text/plain; charset=us-ascii; format=Flowed; delsp=yes\n\n"
		"a soft \nbreak\n> q1 \n> q2\n\n"
		/* no Content-Type; 8-bit bytes that are not UTF-8; a seed's */
		M "From: e@x\nSubject: latin\nX-Kseries-Reconstructed: Date\n\n"
		"caf\xe9\n\n"
		/* empty body */
		M "From: f@x\nSubject: empty\n\n"
		/* for GMime: two From fields, a disposition, a comment that
		 * does not end, an encoded charset, HTML, uuencode, a type
		 * that only starts like text/plain, two Content-Types */
		M "From: g@x\nFrom: h@x\nSubject: two from\n\nb\n\n"
		M "From: i@x\nSubject: disp\nContent-Disposition: attachment\n\nb\n\n"
		M "From: Jo (oops <j@x>\nTo: k@x, (open\nSubject: comment\n\nb\n\n"
		M "From: l@x\nSubject: cs\n"
		"Content-Type: text/plain; charset==?utf-8?q?latin1?=\n\nb\n\n"
		M "From: m@x\nSubject: html\nContent-Type: text/html\n\n<p>b</p>\n\n"
		M "From: n@x\nSubject: uu\nContent-Transfer-Encoding: x-uuencode\n\n"
		"begin 644 f\n#86)C\n`\nend\n\n"
		M "From: o@x\nSubject: plainx\nContent-Type: text/plainx\n\nb\n\n"
		M "From: p@x\nSubject: two types\nContent-Type: text/plain\n"
		"Content-Type: text/html\n\nb\n\n"
		M "From: q@x\nSubject: 7bit\nContent-Type: text/plain;\n"
		" charset=\"windows-1252\"\nContent-Transfer-Encoding: 7bit\n\n"
		"\x93quoted\x94\n\n";

	assert_int_equal(compare_light(text, sizeof(text) - 1, "mem", 0), 15);
	assert_int_equal(compare_light(text, sizeof(text) - 1, "mem",
				       MAIL_NO_RAW | MAIL_NO_RECIPIENTS), 15);
	assert_int_equal(compare_light(text, sizeof(text) - 1, "mem",
				       MAIL_NO_BODY), 15);
}

/*
 * MAIL_ONLY_IDS reads plain header blocks itself and leaves the rest to
 * GMime; MAIL_NO_BODY parses the header block alone: both must give
 * what a full read gives, on every form a header block takes.
 */
static void test_only_ids_as_full(void **state)
{
	static const char text[] =
		"From x@y Thu Jan  1 00:00:00 1970\n"
		"Subject: Re: [PATCH v2 3/7] a\n\tfolded  subject\n"
		"Message-ID: <first@x>\n"
		"In-Reply-To: <p3@y> (Carlos's message of Wed)\n"
		"References: <p0@y>\n <p1@y>\n\t<p3@y>\n"
		"Message-Id:\n <second@x>\n"
		"From: Ann <ann@x>\n\nbody\n\n"
		"From x@y Thu Jan  1 00:00:00 1970\n"
		"subject: =?UTF-8?B?UmU6IFtQQVRDSF0gY2Fmw6k=?= =?UTF-8?Q?_=C3=A9t=C3=A9?=\n"
		"SUBJECT: second subject\n"
		"message-id: <lower@x>\n\nb\n\n"
		"From x@y Thu Jan  1 00:00:00 1970\n"
		"Subject: raw UTF-8 caf\xc3\xa9 and Latin-1 caf\xe9 =?x\n"
		"Message-ID: <>\n\nb\n\n"
		"From x@y Thu Jan  1 00:00:00 1970\n"
		"Subject: [PATCH] crlf\r\n"
		"Message-ID: <crlf@x>\r\n\r\nb\r\n\n"
		"From x@y Thu Jan  1 00:00:00 1970\n"
		"Subject: no empty line\n"
		"Message-ID: <noend@x>\n\n"
		"From x@y Thu Jan  1 00:00:00 1970\n"
		"Subject : blank before the colon\n"
		"Message-ID: <blank@x>\n"
		"not a header line\n"
		"In-Reply-To: <late@x>\n\nb\n\n"
		"From x@y Thu Jan  1 00:00:00 1970\n"
		"Subject: Re: [PATCH] multipart\n"
		"Message-ID: <mp@x>\n"
		"Content-Type: MultiPart/Mixed; boundary=b\n\n"
		"--b\nContent-Type: text/plain\n\nhi\n--b--\n\n"
		"From x@y Thu Jan  1 00:00:00 1970\n"
		"Subject: Re: no ids, a message/rfc822\n"
		"Content-Type: message/rfc822\n\n"
		"Subject: inner\nMessage-ID: <inner@x>\n\ninner body\n\n"
		"From x@y Thu Jan  1 00:00:00 1970\n"
		"\n"
		"Subject: in the body\n\n"
		"From x@y Thu Jan  1 00:00:00 1970\n"
		">From: escaped\n"
		"Subject: =?utf-8?q?encoded_word?=junk =?ISO-8859-1?Q?caf=E9?=\n"
		"References: =?us-ascii?q?<enc@x>?=\n\n";

	static const char bad[] = " folded first line\nSubject: x\n\nb\n";

	assert_int_equal(compare_reads(text, sizeof(text) - 1, "mem",
				       MAIL_ONLY_IDS), 10);
	assert_int_equal(compare_reads(text, sizeof(text) - 1, "mem",
				       MAIL_NO_BODY), 10);
	/* not a mail message, either way */
	assert_int_equal(compare_reads(bad, sizeof(bad) - 1, "mem",
				       MAIL_ONLY_IDS), 0);
}

/*
 * The same over every mail the repository holds (run from its top), and
 * the light read of whole mails against GMime's.
 */
static void test_only_ids_corpus(void **state)
{
	static const char *const globs[] = {
		"tests/t0001/*.mbox", "tests/t0003/*.mbox", "tests/t1010/*.mbox",
		"tests/t1020/*.mbox", "series/*/v*/*.patch",
		"series/*/v*/thread.mbox", "tests/fuzz/regress-mail/*",
		"tests/fuzz/regress-review/*",
	};
	unsigned files = 0, mails = 0;

	for (size_t g = 0; g < G_N_ELEMENTS(globs); g++) {
		glob_t gl;

		if (glob(globs[g], 0, NULL, &gl))
			continue;
		for (size_t i = 0; i < gl.gl_pathc; i++) {
			char *buf;
			gsize len;

			if (!g_file_get_contents(gl.gl_pathv[i], &buf, &len,
						 NULL))
				continue;
			files++;
			mails += compare_reads(buf, len, gl.gl_pathv[i],
					       MAIL_ONLY_IDS);
			compare_reads(buf, len, gl.gl_pathv[i], MAIL_NO_BODY);
			compare_light(buf, len, gl.gl_pathv[i], 0);
			compare_light(buf, len, gl.gl_pathv[i],
				      MAIL_NO_RAW | MAIL_NO_RECIPIENTS);
			g_free(buf);
		}
		globfree(&gl);
	}
	/* the repository's mail is there: the test compared something */
	assert_true(files >= 20);
	assert_true(mails >= 100);
}

/* Past the MIME limits a mail is refused by a light read too. */
static void test_only_ids_limits(void **state)
{
	GString *mb = g_string_new("From x@y Thu Jan  1 00:00:00 1970\n"
				   "Subject: Re: many parts\n"
				   "Content-Type: multipart/mixed; boundary=b\n\n");
	unsigned flags[] = { MAIL_ONLY_IDS, MAIL_NO_BODY, 0 };

	for (int i = 0; i <= MAIL_MAX_PARTS; i++)
		g_string_append(mb, "--b\nContent-Type: text/plain\n\nx\n");
	g_string_append(mb, "--b--\n");
	for (size_t f = 0; f < G_N_ELEMENTS(flags); f++) {
		struct mail_reader rd;
		struct mail *m;

		mail_reader_open_mem(&rd, mb->str, mb->len, "mem", flags[f]);
		assert_int_equal(mail_reader_next(&rd, &m), -1);
		mail_reader_close(&rd);
	}
	g_string_free(mb, TRUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headers_and_rfc2047),
		cmocka_unit_test(test_header_injection),
		cmocka_unit_test(test_qp_crlf_latin1),
		cmocka_unit_test(test_base64_multipart),
		cmocka_unit_test(test_alternative_prefers_plain),
		cmocka_unit_test(test_format_flowed),
		cmocka_unit_test(test_unflow_delsp),
		cmocka_unit_test(test_mbox_split_and_mboxrd),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_format_patch_roundtrip),
		cmocka_unit_test(test_reader_file),
		cmocka_unit_test(test_reader_reread_changed),
		cmocka_unit_test(test_reader_refuses),
		cmocka_unit_test(test_reader_no_recipients),
		cmocka_unit_test(test_only_ids_as_full),
		cmocka_unit_test(test_only_ids_corpus),
		cmocka_unit_test(test_light_as_gmime),
		cmocka_unit_test(test_only_ids_limits),
	};

	return cmocka_run_group_tests_name("mail", tests, NULL, NULL);
}
