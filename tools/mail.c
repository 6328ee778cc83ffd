// SPDX-License-Identifier: GPL-2.0-only
/*
 * mail.c - mbox splitting and GMime-backed message decoding.
 *
 * The mbox is split here (a "From " line at the start of the file or
 * after an empty line begins a message, as git mailsplit and mutt read
 * it); each message is then parsed by GMime on its own, which keeps
 * every message's raw bytes at hand for thread.mbox and bounds the
 * memory one message can take.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gmime/gmime.h>

#include "mail.h"
#include "util.h"
#include "banned.h"

void mail_init(void)
{
	static gsize done;

	if (g_once_init_enter(&done)) {
		g_mime_init();
		g_once_init_leave(&done, 1);
	}
}

void mail_free(struct mail *m)
{
	if (!m)
		return;
	g_free(m->message_id);
	g_free(m->from_name);
	g_free(m->from_email);
	g_free(m->from);
	g_free(m->date);
	g_free(m->subject);
	g_free(m->in_reply_to);
	if (m->references)
		g_ptr_array_unref(m->references);
	g_free(m->to);
	g_free(m->cc);
	g_free(m->body);
	g_free(m->reconstructed);
	g_free(m->raw);
	g_free(m);
}

GPtrArray *mail_array_new(void)
{
	return g_ptr_array_new_with_free_func((GDestroyNotify)mail_free);
}

/*
 * A decoded header value must stay on one line: RFC 2047 lets an
 * encoded-word carry CR or LF, which would let a subject inject headers
 * into every file we write. Control characters become spaces, runs of
 * white space one space, and the result is valid UTF-8.
 */
static char *clean_header(const char *v)
{
	GString *s = g_string_new(NULL);
	char *valid;
	bool space = false;

	if (!v)
		v = "";
	valid = g_utf8_make_valid(v, -1);
	for (const unsigned char *p = (const unsigned char *)valid; *p; p++) {
		if (*p < 0x20 || *p == 0x7f || *p == ' ') {
			space = true;
			continue;
		}
		if (space && s->len)
			g_string_append_c(s, ' ');
		space = false;
		g_string_append_c(s, (char)*p);
	}
	g_free(valid);
	return g_string_free(s, FALSE);
}

/*
 * The lines of p that could start a header field: a field name (printable
 * ASCII but the colon) and a colon at column 0. Stops counting past the
 * limit.
 */
static unsigned count_fields(const char *p, size_t len)
{
	const char *end = p + len;
	unsigned n = 0;

	while (p < end && n <= MAIL_MAX_FIELDS) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		const char *q = p;

		while (q < e && *q > ' ' && *q < 0x7f && *q != ':')
			q++;
		if (q > p && q < e && *q == ':')
			n++;
		p = nl ? nl + 1 : end;
	}
	return n;
}

/* A whole RFC 2047 encoded-word: "=?charset?B?text?=" (or ?Q?). */
static bool encoded_word(const char *w, size_t n)
{
	const char *cs_end, *t_end;

	if (n < 8 || w[0] != '=' || w[1] != '?' || w[n - 2] != '?' ||
	    w[n - 1] != '=')
		return false;
	cs_end = memchr(w + 2, '?', n - 4);
	if (!cs_end || cs_end == w + 2 || cs_end + 3 > w + n - 2 ||
	    !strchr("BbQq", cs_end[1]) || cs_end[2] != '?')
		return false;
	t_end = memchr(cs_end + 3, '?', (size_t)(w + n - 2 - (cs_end + 3)));
	return !t_end;
}

/* An RFC 2047 encoded-word in base64 that ends in padding: "=?cs?B?..=?=" */
static bool padded_b_word(const char *w, size_t n)
{
	const char *q;

	if (!encoded_word(w, n) || w[n - 3] != '=')
		return false;
	q = memchr(w + 2, '?', n - 2);
	return q[1] == 'B' || q[1] == 'b';
}

/*
 * Decodes an unstructured header (the Subject) token by token: GMime 3.2
 * decodes a whole header wrongly in two ways. It joins the payloads of
 * adjacent base64 encoded-words of one charset before decoding, so
 * padding at the end of the first ends the decoding and drops the rest
 * (its own encoder writes such pairs for long non-ASCII subjects); and
 * text that only starts like an encoded-word ("=?U") keeps the real
 * encoded-word after it from being decoded. So runs of whole
 * encoded-words are decoded together (a character may be split across
 * words), a run ends after a padded base64 word, and other text is
 * decoded alone. Adjacent encoded-words are joined without the white
 * space between them (RFC 2047 6.2); other white space becomes a space.
 */
static void flush_run(GString *run, GString *out)
{
	char *d;

	if (!run->len)
		return;
	d = g_mime_utils_header_decode_text(NULL, run->str);
	g_string_append(out, d);
	g_free(d);
	g_string_truncate(run, 0);
}

/*
 * ASCII without "=?": what GMime's decoder gives back unchanged (no
 * encoded-word can start in it, no charset applies), so it need not
 * be asked.
 */
static bool plain_word(const char *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)w[i] >= 0x80 ||
		    (w[i] == '=' && i + 1 < n && w[i + 1] == '?'))
			return false;
	return true;
}

static char *decode_text(const char *raw)
{
	GString *out = g_string_new(NULL);
	GString *run = g_string_new(NULL);
	const char *p = raw ? raw : "";
	const char *last = NULL;
	size_t last_n = 0;
	bool first = true, prev_word = false;

	for (;;) {
		const char *w = p + strspn(p, " \t\r\n");
		size_t n = strcspn(w, " \t\r\n");

		if (!n)
			break;
		if (encoded_word(w, n)) {
			if (prev_word && padded_b_word(last, last_n))
				flush_run(run, out);
			else if (prev_word)
				g_string_append_c(run, ' ');
			else if (!first)
				g_string_append_c(out, ' ');
			g_string_append_len(run, w, (gssize)n);
			last = w;
			last_n = n;
			prev_word = true;
		} else if (plain_word(w, n)) {
			flush_run(run, out);
			if (!first)
				g_string_append_c(out, ' ');
			g_string_append_len(out, w, (gssize)n);
			prev_word = false;
		} else {
			char *t = g_strndup(w, n);
			char *d;

			flush_run(run, out);
			if (!first)
				g_string_append_c(out, ' ');
			d = g_mime_utils_header_decode_text(NULL, t);
			g_string_append(out, d);
			g_free(d);
			g_free(t);
			prev_word = false;
		}
		first = false;
		p = w + n;
	}
	flush_run(run, out);
	g_string_free(run, TRUE);
	return g_string_free(out, FALSE);
}

static char *first_msgid(const char *value)
{
	GMimeReferences *refs;
	char *id = NULL;

	if (!value)
		return NULL;
	refs = g_mime_references_parse(NULL, value);
	if (refs && g_mime_references_length(refs) > 0)
		id = clean_header(g_mime_references_get_message_id(refs, 0));
	if (refs)
		g_mime_references_free(refs);
	return id;
}

static GPtrArray *all_msgids(const char *value)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	GMimeReferences *refs;

	if (!value)
		return a;
	refs = g_mime_references_parse(NULL, value);
	if (!refs)
		return a;
	for (int i = 0; i < g_mime_references_length(refs); i++)
		g_ptr_array_add(a, clean_header(
			g_mime_references_get_message_id(refs, i)));
	g_mime_references_free(refs);
	return a;
}

static char *addresses(InternetAddressList *list)
{
	char *s, *c;

	if (!list || internet_address_list_length(list) == 0)
		return g_strdup("");
	s = internet_address_list_to_string(list, NULL, FALSE);
	c = clean_header(s);
	g_free(s);
	return c;
}

/*
 * Bytes in a charset → valid UTF-8, with the fallbacks mail.h names.
 * NUL bytes (a base64 part may decode to anything) are dropped: the text
 * is a C string from here on.
 */
static char *to_utf8_nonul(const char *buf, size_t len, const char *charset);

static char *to_utf8(const char *raw, size_t raw_len, const char *charset)
{
	char *out, *buf;
	size_t len = 0;

	if (!raw_len)
		return g_strdup("");	/* an empty part: no data at all */
	if (!memchr(raw, '\0', raw_len))
		return to_utf8_nonul(raw, raw_len, charset);
	buf = g_malloc(raw_len + 1);
	for (size_t i = 0; i < raw_len; i++)
		if (raw[i])
			buf[len++] = raw[i];
	buf[len] = '\0';
	out = to_utf8_nonul(buf, len, charset);
	g_free(buf);
	return out;
}

/*
 * g_utf8_validate_len() of len bytes without NUL, ASCII a word at a
 * time (most mail is ASCII). In valid UTF-8 an ASCII byte is never part
 * of a longer sequence, so the text is valid exactly when each run of
 * non-ASCII bytes between ASCII ones is.
 */
static bool utf8_valid(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t j;

		for (; i + 8 <= len; i += 8) {
			uint64_t w;

			memcpy(&w, s + i, sizeof(w));
			if (w & 0x8080808080808080ull)
				break;
		}
		while (i < len && !((unsigned char)s[i] & 0x80))
			i++;
		for (j = i; j < len && ((unsigned char)s[j] & 0x80); j++)
			;
		if (j > i && !g_utf8_validate_len(s + i, j - i, NULL))
			return false;
		i = j;
	}
	return true;
}

static char *to_utf8_nonul(const char *buf, size_t len, const char *charset)
{
	char *out;

	if (charset && g_ascii_strcasecmp(charset, "utf-8") &&
	    g_ascii_strcasecmp(charset, "us-ascii")) {
		gsize w;

		out = g_convert(buf, (gssize)len, "UTF-8",
				g_mime_charset_iconv_name(charset),
				NULL, &w, NULL);
		if (out)
			return out;
	}
	if (utf8_valid(buf, len))
		return g_strndup(buf, len);
	if (!charset || !g_ascii_strcasecmp(charset, "us-ascii")) {
		out = g_convert(buf, (gssize)len, "UTF-8", "ISO-8859-1",
				NULL, NULL, NULL);
		if (out)
			return out;
	}
	return g_utf8_make_valid(buf, (gssize)len);
}

char *mail_unflow(const char *text, size_t len, bool delsp, size_t *out_len)
{
	GString *out = g_string_sized_new(len);
	const char *p = text, *end = text + len;
	bool joining = false;
	int join_depth = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *line = p;
		int depth = 0;
		bool soft;

		p += n + (nl ? 1 : 0);
		/* RFC 3676 4.5: quote depth is the count of leading '>' */
		while (depth < (int)n && line[depth] == '>')
			depth++;
		line += depth;
		n -= (size_t)depth;
		/* 4.4: remove space-stuffing */
		if (n && line[0] == ' ') {
			line++;
			n--;
		}
		/* 4.3: the signature separator is never flowed */
		soft = n && line[n - 1] == ' ' &&
		       !(n == 3 && !memcmp(line, "-- ", 3));
		if (joining && depth != join_depth) {
			/* 4.5: a depth change ends the paragraph */
			g_string_append_c(out, '\n');
			joining = false;
		}
		if (!joining)
			for (int i = 0; i < depth; i++)
				g_string_append_c(out, '>');
		if (!joining && depth)
			g_string_append_c(out, ' ');
		g_string_append_len(out, line, (gssize)(soft && delsp ? n - 1 : n));
		if (soft) {
			joining = true;
			join_depth = depth;
		} else {
			joining = false;
			if (nl || p < end)
				g_string_append_c(out, '\n');
		}
	}
	if (joining)
		g_string_append_c(out, '\n');
	if (out_len)
		*out_len = out->len;
	return g_string_free(out, FALSE);
}

struct walk {
	GString *text;
	unsigned parts;
	unsigned attachments;
	bool flowed;
	bool count_only;	/* MAIL_NO_BODY: the limits, not the text */
	const char *err;
};

/*
 * A text/plain part's content, its transfer encoding undone, into
 * w->text: UTF-8 by its charset (ct's parameters; ct NULL: none), LF
 * line ends, format=flowed unflowed, ending in a newline.
 */
static void add_text(struct walk *w, const char *data, size_t len,
		     GMimeContentType *ct)
{
	const char *charset, *fmt, *delsp;
	char *text, *unflowed;
	size_t tlen;

	charset = ct ? g_mime_content_type_get_parameter(ct, "charset") : NULL;
	text = to_utf8(data, len, charset);
	/* CRLF → LF */
	{
		char *s = strchr(text, '\r'), *d = s;

		for (; s && *s; s++)
			if (!(s[0] == '\r' && s[1] == '\n'))
				*d++ = *s;
		if (d)
			*d = '\0';
		tlen = strlen(text);
	}
	fmt = ct ? g_mime_content_type_get_parameter(ct, "format") : NULL;
	if (fmt && !g_ascii_strcasecmp(fmt, "flowed")) {
		delsp = g_mime_content_type_get_parameter(ct, "delsp");
		unflowed = mail_unflow(text, tlen,
				       delsp && !g_ascii_strcasecmp(delsp, "yes"),
				       &tlen);
		g_free(text);
		text = unflowed;
		w->flowed = true;
	}
	if (w->text->len && w->text->str[w->text->len - 1] != '\n')
		g_string_append_c(w->text, '\n');
	g_string_append_len(w->text, text, (gssize)tlen);
	/* RFC 2046 5.1.1: the CRLF before a boundary is the boundary's */
	if (tlen && text[tlen - 1] != '\n')
		g_string_append_c(w->text, '\n');
	g_free(text);
}

static void walk_part(GMimeObject *obj, int depth, struct walk *w)
{
	GMimeContentType *ct;
	const char *disp;

	if (w->err)
		return;
	if (++w->parts > MAIL_MAX_PARTS) {
		w->err = "too many MIME parts";
		return;
	}
	if (depth > MAIL_MAX_DEPTH) {
		w->err = "MIME nesting too deep";
		return;
	}
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int n = g_mime_multipart_get_count(mp);

		ct = g_mime_object_get_content_type(obj);
		/* RFC 2046 5.1.4: of alternatives, the plain one */
		if (ct && g_mime_content_type_is_type(ct, "multipart",
						       "alternative")) {
			for (int i = 0; i < n; i++) {
				GMimeObject *sub = g_mime_multipart_get_part(mp, i);
				GMimeContentType *sct =
					g_mime_object_get_content_type(sub);

				if (sct && g_mime_content_type_is_type(sct, "text",
								       "plain")) {
					walk_part(sub, depth + 1, w);
					return;
				}
			}
		}
		for (int i = 0; i < n; i++)
			walk_part(g_mime_multipart_get_part(mp, i), depth + 1, w);
		return;
	}
	if (!GMIME_IS_PART(obj)) {
		w->attachments++;	/* message/rfc822 and the like */
		return;
	}
	ct = g_mime_object_get_content_type(obj);
	disp = g_mime_object_get_disposition(obj);
	if (!ct || !g_mime_content_type_is_type(ct, "text", "plain") ||
	    (disp && !g_ascii_strcasecmp(disp, "attachment"))) {
		w->attachments++;
		return;
	}
	if (w->count_only)
		return;
	{
		GMimeDataWrapper *dw = g_mime_part_get_content(GMIME_PART(obj));
		GMimeStream *mem;
		GByteArray *bytes;

		if (!dw)
			return;
		mem = g_mime_stream_mem_new();
		/* decodes the Content-Transfer-Encoding (QP, base64) */
		g_mime_data_wrapper_write_to_stream(dw, mem);
		bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
		add_text(w, (const char *)bytes->data, bytes->len, ct);
		g_object_unref(mem);
	}
}

/*
 * mboxrd (RFC 4155 and the qmail convention): a body line ">From ",
 * ">>From ", … had one '>' added when written; take it away.
 */
static GString *unescape_mboxrd(const char *p, size_t len)
{
	GString *s = g_string_sized_new(len);
	const char *end = p + len, *line = p, *copied = p;

	/* copied in spans: only an escaped line breaks one */
	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *next = nl ? nl + 1 : end;

		if (*line == '>') {
			const char *q = line;

			while (q < next && *q == '>')
				q++;
			if (next - q >= 5 && !memcmp(q, "From ", 5)) {
				g_string_append_len(s, copied,
						    (gssize)(line - copied));
				copied = line + 1;
			}
		}
		line = next;
	}
	g_string_append_len(s, copied, (gssize)(end - copied));
	return s;
}

/* parse_one()'s own flag: the mail is known to be multipart */
#define MULTIPART (1u << 16)

/*
 * The length of the header block at p, the empty line that ends it
 * included: where GMime's parser ends the headers of a message
 * (GMIME_FORMAT_MESSAGE: the first line that is "\n" or "\r\n"), else
 * all of it. mboxrd unescaping keeps empty lines empty, so it is the
 * same before and after it.
 */
static size_t header_block_len(const char *p, size_t len)
{
	const char *q = p, *end = p + len;

	while (q < end) {
		const char *nl;

		if (*q == '\n')
			return (size_t)(q + 1 - p);
		if (*q == '\r' && q + 1 < end && q[1] == '\n')
			return (size_t)(q + 2 - p);
		nl = memchr(q, '\n', (size_t)(end - q));
		if (!nl)
			break;
		q = nl + 1;
	}
	return len;
}

/* GMime's parse of the len bytes at p (a message without its From_ line). */
static GMimeMessage *construct(const char *p, size_t len)
{
	GString *text = unescape_mboxrd(p, len);
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg;

	stream = g_mime_stream_mem_new_with_buffer(text->str, text->len);
	g_string_free(text, TRUE);
	parser = g_mime_parser_new_with_stream(stream);
	g_mime_parser_set_format(parser, GMIME_FORMAT_MESSAGE);
	msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	g_object_unref(stream);
	return msg;
}

/*
 * GMime's parse of a message; with MAIL_NO_BODY of its header block
 * alone, which gives the same headers (the parser reads nothing past
 * the empty line to make them) at a fraction of the cost, unless the
 * mail is multipart: then the whole of it, so that its parts are
 * counted against the limits as they are without the flag (a mail
 * that is not multipart has one part at depth 0). *whole says which.
 */
static GMimeMessage *construct_message(const char *p, size_t len,
				       unsigned flags, bool *whole)
{
	GMimeMessage *msg;
	size_t head;

	*whole = true;
	if (!(flags & MAIL_NO_BODY) || (flags & MULTIPART))
		return construct(p, len);
	head = header_block_len(p, len);
	msg = construct(p, head);
	if (head == len || !msg ||
	    !GMIME_IS_MULTIPART(g_mime_message_get_mime_part(msg))) {
		*whole = head == len;
		return msg;
	}
	g_object_unref(msg);
	return construct(p, len);
}

/* From (its first address), To and Cc of struct mail, from GMime's lists. */
static void read_people(struct mail *m, InternetAddressList *from,
			InternetAddressList *to, InternetAddressList *cc,
			unsigned flags)
{
	InternetAddress *ia = from && internet_address_list_length(from) ?
			      internet_address_list_get_address(from, 0) : NULL;

	m->from_name = clean_header(ia ? internet_address_get_name(ia) : "");
	m->from_email = clean_header(ia && INTERNET_ADDRESS_IS_MAILBOX(ia) ?
		internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia)) :
		"");
	if (*m->from_name)
		m->from = g_strdup_printf("%s <%s>", m->from_name, m->from_email);
	else
		m->from = g_strdup(m->from_email);
	if (flags & MAIL_NO_RECIPIENTS) {
		m->to = g_strdup("");
		m->cc = g_strdup("");
	} else {
		m->to = addresses(to);
		m->cc = addresses(cc);
	}
}

/* The Date: as sent (value, decoded, or NULL) and as a time (dt, or NULL). */
static void read_date(struct mail *m, const char *value, GDateTime *dt)
{
	m->date = value ? clean_header(value) : NULL;
	if (dt) {
		m->time = g_date_time_to_unix(dt);
		m->tz_minutes = (int)(g_date_time_get_utc_offset(dt) /
				      G_TIME_SPAN_MINUTE);
	}
}

/* The header fields of struct mail, from GMime's message. */
static void read_headers(struct mail *m, GMimeMessage *msg, unsigned flags)
{
	GMimeObject *obj = GMIME_OBJECT(msg);
	GMimeHeader *h;
	const char *v;
	char *subj;

	if (g_mime_message_get_message_id(msg))
		m->message_id = clean_header(g_mime_message_get_message_id(msg));
	if (m->message_id && !*m->message_id)
		g_clear_pointer(&m->message_id, g_free);
	read_people(m, g_mime_message_get_from(msg), g_mime_message_get_to(msg),
		    g_mime_message_get_cc(msg), flags);
	read_date(m, g_mime_object_get_header(obj, "Date"),
		  g_mime_message_get_date(msg));
	h = g_mime_header_list_get_header(g_mime_object_get_header_list(obj),
					  "Subject");
	subj = decode_text(h ? g_mime_header_get_raw_value(h) : NULL);
	m->subject = clean_header(subj);
	g_free(subj);
	m->in_reply_to = first_msgid(g_mime_object_get_header(obj,
							      "In-Reply-To"));
	m->references = all_msgids(g_mime_object_get_header(obj, "References"));
	v = g_mime_object_get_header(obj, "X-Kseries-Reconstructed");
	if (v)
		m->reconstructed = clean_header(v);
}

/* A header field of a plain header block (below): name and raw value. */
struct plain_field {
	const char *name;
	size_t name_len;
	const char *value;	/* after the colon, to the end of the field's */
	size_t value_len;	/* last line, its LF included (GMime's raw value) */
};

/*
 * The fields of a header block in its plainest form: every line a field
 * start ("Name:", the name printable ASCII but the colon, no space
 * before the colon) or the continuation of one (a space or a tab
 * first), LF line ends and no CR, an empty line at the end. How GMime
 * splits such a block into fields is beyond doubt (gmime-parser.c
 * step_headers, header_buffer_parse), so its few headers can be read
 * without building GMime's objects. Returns false for any other block
 * (CR, a line that is neither, no empty line), which GMime reads.
 */
static bool plain_fields(const char *p, size_t len, GArray *fields)
{
	const char *end = p + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *q = p;

		if (!nl || memchr(p, '\r', (size_t)(nl - p)))
			return false;
		if (nl == p)
			return fields->len > 0 && nl + 1 == end;
		if (*p == ' ' || *p == '\t') {
			struct plain_field *f;

			if (!fields->len)
				return false;
			f = &g_array_index(fields, struct plain_field,
					   fields->len - 1);
			f->value_len = (size_t)(nl + 1 - f->value);
		} else {
			struct plain_field f;

			while (q < nl && *q > ' ' && *q < 0x7f && *q != ':')
				q++;
			if (q == p || q == nl || *q != ':')
				return false;
			f.name = p;
			f.name_len = (size_t)(q - p);
			f.value = q + 1;
			f.value_len = (size_t)(nl - q);
			g_array_append_val(fields, f);
		}
		p = nl + 1;
	}
	return false;
}

static bool field_is(const struct plain_field *f, const char *name)
{
	return f->name_len == strlen(name) &&
	       !g_ascii_strncasecmp(f->name, name, f->name_len);
}

/*
 * Whether a Content-Type value could be multipart/…: it holds the word
 * in any case (the type is one token: gmime-parse-utils.c).
 */
static bool says_multipart(const char *v, size_t len)
{
	for (size_t i = 0; i + 9 <= len; i++)
		if (!g_ascii_strncasecmp(v + i, "multipart", 9))
			return true;
	return false;
}

/* GMime's g_mime_header_get_value(): the raw value unfolded, decoded. */
static char *plain_value(const struct plain_field *f)
{
	char *raw, *unfolded, *v;

	if (!f)
		return NULL;
	raw = g_strndup(f->value, f->value_len);
	unfolded = g_mime_utils_header_unfold(raw);
	g_free(raw);
	if (plain_word(unfolded, strlen(unfolded)))
		return unfolded;
	v = g_mime_utils_header_decode_text(NULL, unfolded);
	g_free(unfolded);
	return v;
}

enum plain {
	PLAIN_READ,
	PLAIN_NOT,		/* GMime reads the headers */
	PLAIN_MULTIPART,	/* and all of it: its parts are counted */
};

/*
 * The fields of a plain header block that struct mail is made of, as
 * GMime would take them: the last Message-Id (GMime keeps the last),
 * the first of the others; the fields GMime would take from several
 * when there are several (From, Date, To, Cc: each one replaces the
 * last; Content-Type and -Transfer-Encoding: the part's), counted.
 */
struct plain_head {
	const struct plain_field *id, *subj, *irt, *refs, *recon;
	const struct plain_field *from, *date, *to, *cc, *type, *encoding;
	unsigned several;	/* of from … encoding, seen twice */
	bool multipart;		/* a Content-Type could say multipart */
	bool disposition;	/* a Content-Disposition */
};

static void plain_take(const struct plain_field **slot,
		       const struct plain_field *f, unsigned *several)
{
	if (*slot && several)
		(*several)++;
	if (!*slot)
		*slot = f;
}

static void plain_head_scan(const GArray *fields, struct plain_head *h)
{
	memset(h, 0, sizeof(*h));
	for (guint i = 0; i < fields->len; i++) {
		const struct plain_field *f = &g_array_index(fields,
			struct plain_field, i);

		if (field_is(f, "Content-Type")) {
			if (says_multipart(f->value, f->value_len))
				h->multipart = true;
			plain_take(&h->type, f, &h->several);
		} else if (field_is(f, "Message-Id")) {
			h->id = f;
		} else if (field_is(f, "Subject")) {
			plain_take(&h->subj, f, NULL);
		} else if (field_is(f, "In-Reply-To")) {
			plain_take(&h->irt, f, NULL);
		} else if (field_is(f, "References")) {
			plain_take(&h->refs, f, NULL);
		} else if (field_is(f, "X-Kseries-Reconstructed")) {
			plain_take(&h->recon, f, NULL);
		} else if (field_is(f, "From")) {
			plain_take(&h->from, f, &h->several);
		} else if (field_is(f, "Date")) {
			plain_take(&h->date, f, &h->several);
		} else if (field_is(f, "To")) {
			plain_take(&h->to, f, &h->several);
		} else if (field_is(f, "Cc")) {
			plain_take(&h->cc, f, &h->several);
		} else if (field_is(f, "Content-Transfer-Encoding")) {
			plain_take(&h->encoding, f, &h->several);
		} else if (field_is(f, "Content-Disposition")) {
			h->disposition = true;
		}
	}
}

/* Message-ID, Subject, In-Reply-To, References, as read_headers(). */
static void plain_ids(struct mail *m, const struct plain_head *h)
{
	char *v = plain_value(h->id);

	if (v) {
		char *d = g_mime_utils_decode_message_id(v);

		if (d)
			m->message_id = clean_header(d);
		if (m->message_id && !*m->message_id)
			g_clear_pointer(&m->message_id, g_free);
		g_free(d);
		g_free(v);
	}
	v = h->subj ? g_strndup(h->subj->value, h->subj->value_len) : NULL;
	{
		char *d = decode_text(v);

		m->subject = clean_header(d);
		g_free(d);
	}
	g_free(v);
	v = plain_value(h->irt);
	m->in_reply_to = first_msgid(v);
	g_free(v);
	v = plain_value(h->refs);
	m->references = all_msgids(v);
	g_free(v);
}

/*
 * MAIL_ONLY_IDS: the Message-ID, the Subject, In-Reply-To and
 * References of a plain header block, read as read_headers() reads
 * them from GMime's message. Leaves m untouched when GMime must read
 * the mail: the block is not plain, or a Content-Type could say
 * multipart (its parts are then counted against the limits).
 */
static enum plain read_plain_ids(struct mail *m, const char *p, size_t len)
{
	GArray *fields = g_array_new(FALSE, FALSE, sizeof(struct plain_field));
	struct plain_head h;
	enum plain plain = PLAIN_NOT;

	if (plain_fields(p, header_block_len(p, len), fields)) {
		plain_head_scan(fields, &h);
		plain = h.multipart ? PLAIN_MULTIPART : PLAIN_READ;
	}
	if (plain == PLAIN_READ)
		plain_ids(m, &h);
	g_array_unref(fields);
	return plain;
}

/*
 * GMime's address list of a field (its raw value), as a message's: an
 * empty one for no field or no address. False when GMime's parser gives
 * up on the value part way (the message would keep what it read before
 * that; internet_address_list_parse() gives nothing): GMime decides.
 */
static bool plain_addresses(const struct plain_field *f,
			    InternetAddressList **out)
{
	char *raw;

	*out = NULL;
	if (!f)
		return true;
	raw = g_strndup(f->value, f->value_len);
	*out = internet_address_list_parse(NULL, raw);
	if (!*out && raw[strspn(raw, " \t\n")]) {
		g_free(raw);
		return false;
	}
	g_free(raw);
	return true;
}

/*
 * Whether a Content-Type raw value names text/plain beyond doubt: the
 * type and subtype first, in ASCII without encoded-words (so GMime's
 * decoded value, which the part's type is parsed from, is the raw one
 * unfolded, and the parser's own look at the raw value agrees).
 */
static bool says_text_plain(const struct plain_field *f)
{
	const char *v = f->value, *end = f->value + f->value_len;

	if (!plain_word(f->value, f->value_len))
		return false;
	while (v < end && (*v == ' ' || *v == '\t' || *v == '\n'))
		v++;
	if ((size_t)(end - v) < 10 || g_ascii_strncasecmp(v, "text/plain", 10))
		return false;
	v += 10;
	return v == end || *v == ';' || *v == ' ' || *v == '\t' || *v == '\n';
}

/*
 * The content of a plain mail's one part, its transfer encoding
 * undone as GMime's data wrapper undoes it. False for an encoding
 * read here (uuencode, which GMime looks for a "begin" line in).
 */
static bool plain_content(const struct plain_field *encoding, GString *body)
{
	GMimeContentEncoding enc = GMIME_CONTENT_ENCODING_DEFAULT;
	GMimeEncoding state;
	char *v, *out;
	size_t n;

	if (encoding) {
		v = plain_value(encoding);
		enc = g_mime_content_encoding_from_string(v);
		g_free(v);
	}
	switch (enc) {
	case GMIME_CONTENT_ENCODING_BASE64:
	case GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE:
		break;
	case GMIME_CONTENT_ENCODING_UUENCODE:
		return false;
	default:
		return true;
	}
	g_mime_encoding_init_decode(&state, enc);
	out = g_malloc(g_mime_encoding_outlen(&state, body->len) + 1);
	n = g_mime_encoding_step(&state, body->str, body->len, out);
	g_string_truncate(body, 0);
	g_string_append_len(body, out, (gssize)n);
	g_free(out);
	return true;
}

/*
 * A whole mail read without GMime's message: its header block is plain
 * (plain_fields()) and says no more than one text/plain part (no
 * multipart, no Content-Disposition, no field GMime would take from
 * several), encoded in 7bit, 8bit, binary, quoted-printable or base64.
 * Gives struct mail as parse_one() gives it from GMime's message (the
 * header values through the same GMime calls, the text through
 * add_text()); PLAIN_NOT for any other mail, m untouched.
 */
static enum plain read_plain(struct mail *m, const char *p, size_t len,
			     unsigned flags, struct walk *w)
{
	GArray *fields = g_array_new(FALSE, FALSE, sizeof(struct plain_field));
	size_t head = header_block_len(p, len);
	InternetAddressList *from = NULL, *to = NULL, *cc = NULL;
	bool recipients = !(flags & MAIL_NO_RECIPIENTS);
	GMimeContentType *ct = NULL;
	GString *body = NULL;
	struct plain_head h;
	enum plain plain = PLAIN_NOT;
	GDateTime *dt = NULL;
	char *v;

	if (!plain_fields(p, head, fields))
		goto out;
	plain_head_scan(fields, &h);
	if (h.multipart || h.disposition || h.several ||
	    (h.type && !says_text_plain(h.type)))
		goto out;
	if (h.type) {
		v = plain_value(h.type);
		ct = g_mime_content_type_parse(NULL, v);
		g_free(v);
		if (!ct || !g_mime_content_type_is_type(ct, "text", "plain"))
			goto out;
	}
	if (!plain_addresses(h.from, &from) ||
	    (recipients && (!plain_addresses(h.to, &to) ||
			    !plain_addresses(h.cc, &cc))))
		goto out;
	if (!(flags & MAIL_NO_BODY)) {
		/* a plain block is the same mboxrd-unescaped: the body */
		body = unescape_mboxrd(p + head, len - head);
		if (!plain_content(h.encoding, body))
			goto out;
		add_text(w, body->str, body->len, ct);
	}
	plain = PLAIN_READ;
	plain_ids(m, &h);
	read_people(m, from, to, cc, flags);
	v = plain_value(h.date);
	if (v)
		dt = g_mime_utils_header_decode_date(v);
	read_date(m, v, dt);
	if (dt)
		g_date_time_unref(dt);
	g_free(v);
	v = plain_value(h.recon);
	if (v)
		m->reconstructed = clean_header(v);
	g_free(v);
out:
	g_clear_object(&from);
	g_clear_object(&to);
	g_clear_object(&cc);
	if (body)
		g_string_free(body, TRUE);
	g_clear_object(&ct);
	g_array_unref(fields);
	return plain;
}

/* MAIL_ONLY_IDS: what it leaves out, as if the mail did not say it. */
static void only_ids(struct mail *m)
{
	g_free(m->from_name);
	g_free(m->from_email);
	g_free(m->from);
	g_free(m->to);
	g_free(m->cc);
	m->from_name = g_strdup("");
	m->from_email = g_strdup("");
	m->from = g_strdup("");
	m->to = g_strdup("");
	m->cc = g_strdup("");
	g_clear_pointer(&m->date, g_free);
	g_clear_pointer(&m->reconstructed, g_free);
	m->time = 0;
	m->tz_minutes = 0;
}

static int parse_one(const char *raw, size_t len, const char *name,
		     unsigned nr, unsigned flags, struct mail **out)
{
	GMimeMessage *msg;
	struct mail *m;
	struct walk w = { 0 };
	const char *body = raw;
	size_t body_len = len;
	bool whole;

	if (flags & MAIL_ONLY_IDS)
		flags |= MAIL_NO_BODY | MAIL_NO_RECIPIENTS;
	if (len > MAIL_MAX_MESSAGE)
		return error("%s: message %u is larger than %u MiB", name, nr,
			     MAIL_MAX_MESSAGE >> 20);
	if (count_fields(raw, len) > MAIL_MAX_FIELDS)
		return error("%s: message %u has more than %u header fields",
			     name, nr, MAIL_MAX_FIELDS);
	/* skip the From_ line: it is the mbox's, not the message's */
	if (mem_starts_with(body, body_len, "From ")) {
		const char *nl = memchr(body, '\n', body_len);

		body_len -= nl ? (size_t)(nl + 1 - body) : body_len;
		body = nl ? nl + 1 : body + len;
	}
	m = g_new0(struct mail, 1);
	w.text = g_string_new(NULL);
	w.count_only = flags & MAIL_NO_BODY;
	if ((flags & (MAIL_ONLY_IDS | MAIL_GMIME)) == MAIL_ONLY_IDS) {
		enum plain plain = read_plain_ids(m, body, body_len);

		if (plain == PLAIN_READ) {
			only_ids(m);
			goto text;
		}
		if (plain == PLAIN_MULTIPART)
			flags |= MULTIPART;
	} else if (!(flags & MAIL_GMIME) &&
		   read_plain(m, body, body_len, flags, &w) == PLAIN_READ) {
		goto text;
	}
	msg = construct_message(body, body_len, flags, &whole);
	if (!msg) {
		g_string_free(w.text, TRUE);
		g_free(m);
		return error("%s: message %u is not a mail message", name, nr);
	}
	read_headers(m, msg, flags);
	if (flags & MAIL_ONLY_IDS)
		only_ids(m);
	if (whole && g_mime_message_get_mime_part(msg))
		walk_part(g_mime_message_get_mime_part(msg), 0, &w);
	g_object_unref(msg);
text:
	if (w.err) {
		g_string_free(w.text, TRUE);
		mail_free(m);
		return error("%s: message %u: %s (limit %d levels, %d parts)",
			     name, nr, w.err, MAIL_MAX_DEPTH, MAIL_MAX_PARTS);
	}
	if (flags & MAIL_NO_BODY) {
		g_string_free(w.text, TRUE);
	} else {
		m->body_len = w.text->len;
		m->body = g_string_free(w.text, FALSE);
		m->flowed = w.flowed;
		m->attachments = w.attachments;
	}
	if (!(flags & MAIL_NO_RAW)) {
		m->raw = g_strndup(raw, len);
		m->raw_len = len;
	}
	m->size = len;
	m->nr = nr;
	*out = m;
	return 0;
}

static bool from_line_at(const char *buf, size_t len, size_t off)
{
	return len - off >= 5 && !memcmp(buf + off, "From ", 5) &&
	       (off == 0 || (buf[off - 1] == '\n' &&
			     (off == 1 || buf[off - 2] == '\n' ||
			      (off >= 3 && buf[off - 2] == '\r' &&
			       buf[off - 3] == '\n'))));
}

/* ---- reading an mbox message by message ---- */

#define READ_CHUNK (256u << 10)

static void reader_init(struct mail_reader *rd, const char *name,
			unsigned flags)
{
	mail_init();
	memset(rd, 0, sizeof(*rd));
	rd->fd = -1;
	rd->name = g_strdup(name);
	rd->flags = flags;
	if (getenv("KSERIES_MAIL_GMIME") && *getenv("KSERIES_MAIL_GMIME"))
		rd->flags |= MAIL_GMIME;
}

int mail_reader_open(struct mail_reader *rd, const char *path, unsigned flags)
{
	reader_init(rd, path, flags);
	/* a FIFO or a device would hang the read: regular files only */
	rd->fd = open_regular(path, NULL);
	if (rd->fd < 0) {
		mail_reader_close(rd);
		return -1;
	}
	rd->buf = g_byte_array_sized_new(READ_CHUNK);
	return 0;
}

void mail_reader_open_mem(struct mail_reader *rd, const char *buf, size_t len,
			  const char *name, unsigned flags)
{
	reader_init(rd, name, flags);
	rd->mem = buf;
	rd->mem_len = len;
	rd->eof = true;
}

void mail_reader_close(struct mail_reader *rd)
{
	if (rd->fd >= 0)
		close(rd->fd);
	if (rd->buf)
		g_byte_array_unref(rd->buf);
	g_free(rd->name);
	memset(rd, 0, sizeof(*rd));
	rd->fd = -1;
}

static const char *window(const struct mail_reader *rd, size_t *len)
{
	if (rd->fd < 0) {
		*len = rd->mem_len;
		return rd->mem;
	}
	*len = rd->buf->len;
	return (const char *)rd->buf->data;
}

/* Reads one more chunk, dropping what was consumed. -1 on error. */
static int fill(struct mail_reader *rd)
{
	ssize_t n;
	guint old;

	if (rd->fd < 0 || rd->eof)
		return 0;
	if (rd->pos) {
		g_byte_array_remove_range(rd->buf, 0, (guint)rd->pos);
		rd->base += (gint64)rd->pos;
		rd->scan -= rd->pos;
		rd->pos = 0;
	}
	old = rd->buf->len;
	g_byte_array_set_size(rd->buf, old + READ_CHUNK);
	do
		n = read(rd->fd, rd->buf->data + old, READ_CHUNK);
	while (n < 0 && errno == EINTR);
	g_byte_array_set_size(rd->buf, old + (n > 0 ? (guint)n : 0));
	if (n < 0)
		return error_errno("cannot read '%s'", rd->name);
	if (n == 0)
		rd->eof = true;
	else if (memchr(rd->buf->data + old, '\0', (size_t)n))
		return error("%s: contains NUL bytes: not a mailbox", rd->name);
	return 0;
}

/* The first read: an empty file, NUL bytes, and whether it is an mbox. */
static int begin(struct mail_reader *rd)
{
	const char *data;
	size_t len;

	rd->begun = true;
	if (rd->fd < 0 && rd->mem_len && memchr(rd->mem, '\0', rd->mem_len))
		return error("%s: contains NUL bytes: not a mailbox", rd->name);
	do {
		if (fill(rd) < 0)
			return -1;
		data = window(rd, &len);
	} while (len < 5 && !rd->eof);
	if (!len)
		return error("%s: empty: no messages", rd->name);
	/* a single message without a From_ line */
	rd->single = !from_line_at(data, len, 0);
	return 0;
}

/*
 * The end of the message at rd->pos: the next From_ line (at the start of
 * a line after an empty one), else the end of the mbox. Reads as needed,
 * and refuses a message over the size limit before reading it whole.
 */
static int message_end(struct mail_reader *rd, size_t *end)
{
	for (;;) {
		size_t len;
		const char *data = window(rd, &len);

		if (!rd->single) {
			const char *c;

			if (rd->scan < rd->pos + 1)
				rd->scan = rd->pos + 1;
			while (rd->scan < len &&
			       (c = memmem(data + rd->scan - 1, len - rd->scan + 1,
					   "\nFrom ", 6))) {
				size_t off = (size_t)(c - data) + 1;

				if (from_line_at(data, len, off)) {
					*end = off;
					return 0;
				}
				rd->scan = off + 1;
			}
			rd->scan = len > rd->pos + 6 ? len - 5 : rd->pos + 1;
		}
		if (rd->eof) {
			*end = len;
			return 0;
		}
		if (len - rd->pos > MAIL_MAX_MESSAGE)
			return error("%s: message %u is larger than %u MiB",
				     rd->name, rd->nr + 1, MAIL_MAX_MESSAGE >> 20);
		if (fill(rd) < 0)
			return -1;
	}
}

int mail_reader_next(struct mail_reader *rd, struct mail **out)
{
	const char *data;
	size_t len, end = 0;
	struct mail *m;

	if (rd->failed)
		return -1;
	if (!rd->begun && begin(rd) < 0)
		goto fail;
	data = window(rd, &len);
	if (rd->pos >= len && rd->eof)
		return 0;
	if (message_end(rd, &end) < 0)
		goto fail;
	data = window(rd, &len);
	if (parse_one(data + rd->pos, end - rd->pos, rd->name, ++rd->nr,
		      rd->flags, &m) < 0)
		goto fail;
	m->offset = rd->base + (gint64)rd->pos;
	rd->pos = end;
	rd->scan = end + 1;
	*out = m;
	return 1;
fail:
	rd->failed = true;
	return -1;
}

int mail_reader_raw(struct mail_reader *rd, gint64 offset, size_t size,
		    unsigned nr, char **out)
{
	char *buf;
	ssize_t n;

	if (rd->fd < 0) {
		if (offset < 0 || (size_t)offset > rd->mem_len ||
		    size > rd->mem_len - (size_t)offset)
			return error("%s: message %u is gone", rd->name, nr);
		*out = g_strndup(rd->mem + offset, size);
		return 0;
	}
	buf = g_malloc(size + 1);
	do
		n = pread(rd->fd, buf, size, (off_t)offset);
	while (n < 0 && errno == EINTR);
	if (n < 0 || (size_t)n != size) {
		g_free(buf);
		return n < 0 ? error_errno("cannot read '%s'", rd->name) :
			       error("%s: message %u is gone: the file changed",
				     rd->name, nr);
	}
	buf[size] = '\0';
	*out = buf;
	return 0;
}

int mail_reader_reread(struct mail_reader *rd, const struct mail *m,
		       struct mail **out)
{
	char *buf;
	ssize_t n;
	int ret;

	if (rd->fd < 0) {
		if (m->offset < 0 || (size_t)m->offset > rd->mem_len ||
		    m->size > rd->mem_len - (size_t)m->offset)
			return error("%s: message %u is gone", rd->name, m->nr);
		ret = parse_one(rd->mem + m->offset, m->size, rd->name, m->nr,
				rd->flags, out);
	} else {
		buf = g_malloc(m->size + 1);
		do
			n = pread(rd->fd, buf, m->size, (off_t)m->offset);
		while (n < 0 && errno == EINTR);
		if (n < 0 || (size_t)n != m->size) {
			g_free(buf);
			return n < 0 ? error_errno("cannot read '%s'", rd->name) :
				       error("%s: message %u is gone: the file changed",
					     rd->name, m->nr);
		}
		ret = parse_one(buf, m->size, rd->name, m->nr, rd->flags, out);
		g_free(buf);
	}
	if (ret < 0)
		return -1;
	(*out)->offset = m->offset;
	if (g_strcmp0((*out)->message_id, m->message_id)) {
		mail_free(*out);
		*out = NULL;
		return error("%s: message %u is gone: the file changed",
			     rd->name, m->nr);
	}
	return 0;
}

int mail_parse_mbox(const char *buf, size_t len, const char *name,
		    GPtrArray *mails)
{
	GPtrArray *got = mail_array_new();
	struct mail_reader rd;
	struct mail *m;
	int ret;

	mail_init();
	mail_reader_open_mem(&rd, buf, len, name, 0);
	while ((ret = mail_reader_next(&rd, &m)) > 0)
		g_ptr_array_add(got, m);
	mail_reader_close(&rd);
	if (ret < 0) {
		g_ptr_array_unref(got);
		return -1;
	}
	for (guint i = 0; i < got->len; i++)
		g_ptr_array_add(mails, got->pdata[i]);
	g_ptr_array_set_free_func(got, NULL);
	g_ptr_array_unref(got);
	return 0;
}

int mail_read_mbox(const char *path, GPtrArray *mails)
{
	GMappedFile *mf;
	GError *gerr = NULL;
	int ret, fd;

	/* a FIFO or a device would hang the read: regular files only */
	fd = open_regular(path, NULL);
	if (fd < 0)
		return -1;
	mf = g_mapped_file_new_from_fd(fd, FALSE, &gerr);
	close(fd);
	if (!mf) {
		error("cannot read '%s': %s", path, gerr->message);
		g_error_free(gerr);
		return -1;
	}
	ret = mail_parse_mbox(g_mapped_file_get_contents(mf),
			      g_mapped_file_get_length(mf), path, mails);
	g_mapped_file_unref(mf);
	return ret;
}

static bool is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/*
 * git folds long subjects at 78 columns with a one-space continuation;
 * unfolding (RFC 5322 2.2.3) takes the line break away and keeps the
 * space, so words are split only where a space was.
 */
static void add_folded(GString *out, const char *name, const char *value)
{
	size_t col = strlen(name) + 2;
	const char *p = value;
	bool first = true;

	g_string_append_printf(out, "%s: ", name);
	while (*p) {
		const char *sp = strchr(p, ' ');
		size_t w = sp ? (size_t)(sp - p) : strlen(p);

		if (!first) {
			if (col + 1 + w > 78) {
				g_string_append(out, "\n ");
				col = 1;
			} else {
				g_string_append_c(out, ' ');
				col++;
			}
		}
		g_string_append_len(out, p, (gssize)w);
		col += w;
		first = false;
		p += w;
		while (*p == ' ')
			p++;
	}
	g_string_append_c(out, '\n');
}

static void add_header(GString *out, const char *name, const char *value,
		       bool phrase)
{
	char *enc;

	if (!value || !*value)
		return;
	if (is_ascii(value)) {
		add_folded(out, name, value);
		return;
	}
	enc = phrase ? g_mime_utils_header_encode_phrase(NULL, value, NULL) :
		       g_mime_utils_header_encode_text(NULL, value, NULL);
	g_string_append_printf(out, "%s: %s\n", name, enc);
	g_free(enc);
}

/* An address list, RFC 2047-encoded and folded by GMime where needed. */
static void add_addresses(GString *out, const char *name, const char *list)
{
	InternetAddressList *l;
	char *enc;

	if (!list || !*list)
		return;
	l = internet_address_list_parse(NULL, list);
	if (!l || internet_address_list_length(l) == 0) {
		if (l)
			g_object_unref(l);
		return;
	}
	enc = internet_address_list_to_string(l, NULL, TRUE);
	g_string_append_printf(out, "%s: %s", name, enc);
	if (!*enc || enc[strlen(enc) - 1] != '\n')
		g_string_append_c(out, '\n');
	g_free(enc);
	g_object_unref(l);
}

void mail_format_patch(const struct mail *m, const char *commit, GString *out)
{
	mail_init();
	g_string_append_printf(out, "From %s Mon Sep 17 00:00:00 2001\n",
			       commit ? commit :
			       "0000000000000000000000000000000000000000");
	if (*m->from_name && !is_ascii(m->from_name)) {
		char *enc = g_mime_utils_header_encode_phrase(NULL, m->from_name,
							      NULL);

		g_string_append_printf(out, "From: %s <%s>\n", enc,
				       m->from_email);
		g_free(enc);
	} else {
		add_header(out, "From", m->from, false);
	}
	add_header(out, "Date", m->date, false);
	add_header(out, "Subject", m->subject, false);
	if (m->message_id)
		g_string_append_printf(out, "Message-ID: <%s>\n", m->message_id);
	if (m->in_reply_to)
		g_string_append_printf(out, "In-Reply-To: <%s>\n", m->in_reply_to);
	if (m->references && m->references->len) {
		g_string_append(out, "References:");
		for (guint i = 0; i < m->references->len; i++)
			g_string_append_printf(out, "%s<%s>\n",
					       i ? " " : " ",
					       (char *)m->references->pdata[i]);
	}
	add_addresses(out, "To", m->to);
	add_addresses(out, "Cc", m->cc);
	add_header(out, "X-Kseries-Reconstructed", m->reconstructed, false);
	g_string_append(out, "MIME-Version: 1.0\n"
			"Content-Type: text/plain; charset=UTF-8\n"
			"Content-Transfer-Encoding: 8bit\n\n");
	g_string_append_len(out, m->body, (gssize)m->body_len);
	if (!m->body_len || m->body[m->body_len - 1] != '\n')
		g_string_append_c(out, '\n');
}
