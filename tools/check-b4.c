// SPDX-License-Identifier: GPL-2.0-only
/*
 * check-b4.c - kseries check --b4: the results of a check in b4's
 * review-check protocol.
 */
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "check-b4.h"
#include "mail.h"
#include "series.h"
#include "subject.h"
#include "util.h"
#include "banned.h"

/*
 * The fingerprint of a mail's diff, in the spirit of `git patch-id
 * --stable`: the file names and the added and removed lines with their
 * white space taken out, hashed; line numbers, context, index lines and
 * the mail around the diff do not count. Unlike git patch-id it also
 * reads diffs without "diff --git" headers (quilt, diff -u). New string,
 * NULL when the text holds no diff.
 */
static char *diff_fingerprint(const char *text, size_t len)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA1);
	const char *p = text, *end = text + len;
	bool in_diff = false, any = false;
	char *id = NULL;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		size_t n = (size_t)(le - p);

		if (!in_diff) {
			/* "--- a" followed by "+++ b" starts a diff */
			if (n > 4 && !strncmp(p, "--- ", 4) && nl && end - nl > 5 &&
			    !strncmp(nl + 1, "+++ ", 4))
				in_diff = true;
		} else if (n == 3 && !strncmp(p, "-- ", 3)) {
			break;		/* the signature */
		}
		if (in_diff) {
			if (n > 4 && (!strncmp(p, "--- ", 4) || !strncmp(p, "+++ ", 4))) {
				const char *f = p + 4, *fe = memchr(f, '\t', n - 4);

				fe = fe ? fe : le;
				if (fe - f > 2 && (f[0] == 'a' || f[0] == 'b') && f[1] == '/')
					f += 2;
				g_checksum_update(sum, (const guchar *)p, 4);
				g_checksum_update(sum, (const guchar *)f, fe - f);
			} else if (n && (*p == '+' || *p == '-')) {
				g_checksum_update(sum, (const guchar *)p, 1);
				for (const char *c = p + 1; c < le; c++)
					if (!g_ascii_isspace(*c))
						g_checksum_update(sum, (const guchar *)c, 1);
				any = true;
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (any)
		id = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	return id;
}

/* Does the header field at p (a line of n bytes) have this name? */
static bool field_is(const char *p, size_t n, const char *name)
{
	size_t k = strlen(name);

	return n > k && p[k] == ':' && !g_ascii_strncasecmp(p, name, k);
}

/*
 * The boundary parameter of a Content-Type field (its value from v to
 * end, continuation lines included, RFC 2045 5.1), or NULL. New string.
 */
static char *boundary_of(const char *v, const char *end)
{
	char *field = g_strndup(v, (gsize)(end - v)), *b, *e, *ret = NULL;

	for (b = field; *b; b++)
		if (*b == '\r' || *b == '\n' || *b == '\t')
			*b = ' ';
	b = field;
	while ((b = strchr(b, ';'))) {
		b++;
		while (*b == ' ')
			b++;
		if (g_ascii_strncasecmp(b, "boundary=", 9))
			continue;
		b += 9;
		if (*b == '"') {
			e = strchr(++b, '"');
		} else {
			e = b + strcspn(b, "; ");
		}
		if (e && e > b)
			ret = g_strndup(b, (gsize)(e - b));
		break;
	}
	g_free(field);
	return ret;
}

/*
 * raw in the form b4 hands it, made a message that says what it is: the
 * Content-Transfer-Encoding fields dropped (the body is decoded already)
 * and, under a multipart Content-Type whose body has lost its parts,
 * text/plain in UTF-8 (the text b4 took out of them). The body itself is
 * kept as it is. New string.
 */
static GString *b4_decoded_form(const char *raw, size_t len)
{
	GString *out = g_string_sized_new(len + 64);
	const char *p = raw, *end = raw + len, *ct = NULL, *ct_end = NULL;
	bool drop = false, flattened = false;

	/* the header block: up to the first empty line */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl + 1 : end;
		size_t n = (size_t)(le - p);

		if (n == 1 || (n == 2 && p[0] == '\r'))
			break;
		if (*p != ' ' && *p != '\t') {
			drop = field_is(p, n, "Content-Transfer-Encoding");
			if (field_is(p, n, "Content-Type") && !ct) {
				ct = p + strlen("Content-Type:");
				drop = true;
			} else if (ct && !ct_end) {
				ct_end = p;
			}
		}
		if (!drop)
			g_string_append_len(out, p, (gssize)n);
		p = le;
	}
	if (ct && !ct_end)
		ct_end = p;
	if (ct) {
		const char *v = ct;

		while (v < ct_end && (*v == ' ' || *v == '\t'))
			v++;
		if (ct_end - v > 10 &&
		    !g_ascii_strncasecmp(v, "multipart/", 10)) {
			char *b = boundary_of(v, ct_end);
			char *delim = b ? g_strconcat("--", b, NULL) : NULL;

			/* b4 writes a multipart mail's text alone */
			flattened = !delim || !g_strstr_len(p, end - p, delim);
			g_free(b);
			g_free(delim);
		}
		if (flattened)
			g_string_append(out, "Content-Type: text/plain; charset=utf-8\n");
		else
			g_string_append_len(out, ct - strlen("Content-Type:"),
					    ct_end - ct + strlen("Content-Type:"));
	}
	g_string_append(out, "Content-Transfer-Encoding: 8bit\n");
	g_string_append_len(out, p, (gssize)(end - p));
	return out;
}

/* The one message of raw, parsed, into *out (new); -1 with an error. */
static int parse_one_message(const char *raw, size_t len, GPtrArray **out)
{
	GPtrArray *mails = mail_array_new();

	*out = mails;
	if (mail_parse_mbox(raw, len, "<stdin>", mails) < 0)
		return -1;
	if (mails->len != 1)
		return error("<stdin>: want one message, got %u", mails->len);
	return 0;
}

int b4_message_parse(const char *raw, size_t len, struct b4_message *m)
{
	GString *decoded = b4_decoded_form(raw, len);
	GPtrArray *as_sent = NULL, *as_b4 = NULL;
	const struct mail *mb, *ms;
	int ret = -1;

	memset(m, 0, sizeof(*m));
	subject_parse("", &m->subj);
	if (parse_one_message(raw, len, &as_sent) < 0)
		goto out;
	ms = as_sent->pdata[0];
	/* what the headers say is the same either way */
	m->message_id = g_strdup(ms->message_id);
	subject_release(&m->subj);
	subject_parse(ms->subject, &m->subj);
	if (parse_one_message(decoded->str, decoded->len, &as_b4) == 0) {
		mb = as_b4->pdata[0];
		m->fingerprint[0] = diff_fingerprint(mb->body, mb->body_len);
	}
	m->fingerprint[1] = diff_fingerprint(ms->body, ms->body_len);
	if (!m->fingerprint[0]) {
		m->fingerprint[0] = m->fingerprint[1];
		m->fingerprint[1] = NULL;
	} else if (m->fingerprint[1] &&
		   !strcmp(m->fingerprint[0], m->fingerprint[1])) {
		g_free(m->fingerprint[1]);
		m->fingerprint[1] = NULL;
	}
	ret = 0;
out:
	if (as_sent)
		g_ptr_array_unref(as_sent);
	if (as_b4)
		g_ptr_array_unref(as_b4);
	g_string_free(decoded, TRUE);
	return ret;
}

void b4_message_release(struct b4_message *m)
{
	g_free(m->message_id);
	subject_release(&m->subj);
	g_free(m->fingerprint[0]);
	g_free(m->fingerprint[1]);
	memset(m, 0, sizeof(*m));
}

bool b4_message_matches(const struct b4_message *m, const struct mail *stored,
			int index)
{
	struct subject fs;
	bool same = false;

	if (m->message_id && stored->message_id &&
	    !strcmp(m->message_id, stored->message_id))
		return true;
	subject_parse(stored->subject, &fs);
	if (fs.version == m->subj.version) {
		if (m->fingerprint[0] && index) {
			char *pid = diff_fingerprint(stored->body,
						     stored->body_len);

			same = pid && (!strcmp(pid, m->fingerprint[0]) ||
				       (m->fingerprint[1] &&
					!strcmp(pid, m->fingerprint[1])));
			g_free(pid);
		} else if (!m->fingerprint[0] && !index && !m->subj.index) {
			same = !strcmp(fs.title, m->subj.title);
		}
	}
	subject_release(&fs);
	return same;
}

/* Is the stored mail at path the message m? */
static bool stored_is(const struct b4_message *m, const char *path, int index)
{
	GPtrArray *mails = mail_array_new();
	bool same = mail_read_mbox(path, mails) == 0 && mails->len == 1 &&
		    b4_message_matches(m, mails->pdata[0], index);

	g_ptr_array_unref(mails);
	return same;
}

int b4_locate(const char *raw, size_t len, char **name, int *version,
	      int *index)
{
	GPtrArray *names;
	struct b4_message m;
	int found = 0;

	if (b4_message_parse(raw, len, &m) < 0) {
		b4_message_release(&m);
		return -1;
	}
	names = series_list_names();
	for (guint i = 0; i < names->len && !found; i++) {
		struct series s;
		GArray *versions;

		if (series_load(names->pdata[i], &s) < 0)
			continue;
		versions = series_versions(&s);
		for (guint k = 0; k < versions->len && !found; k++) {
			int v = g_array_index(versions, int, k);
			GPtrArray *files = series_patch_files(&s, v, true);

			for (guint f = 0; f < files->len && !found; f++) {
				char *bn = g_path_get_basename(files->pdata[f]);
				int idx = atoi(bn);

				if (stored_is(&m, files->pdata[f], idx)) {
					*name = g_strdup(s.name);
					*version = v;
					*index = idx;
					found = 1;
				}
				g_free(bn);
			}
			g_ptr_array_unref(files);
		}
		g_array_unref(versions);
		series_release(&s);
	}
	g_ptr_array_unref(names);
	b4_message_release(&m);
	return found;
}
