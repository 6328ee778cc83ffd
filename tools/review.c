// SPDX-License-Identifier: GPL-2.0-only
/*
 * review.c - comments and trailers from review replies (DESIGN.md §5).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "anchor.h"
#include "posting.h"
#include "review.h"
#include "trailer.h"
#include "util.h"
#include "banned.h"

/* A quote deeper than this is treated as this deep. */
#define REVIEW_MAX_DEPTH 64

/* Diffs read again and kept at once (review_add() with a reader). */
#define REVIEW_LOADED_MAX 16

struct rline {
	const char *s;		/* content, quote markers removed */
	size_t len;
	const char *raw;	/* the whole line */
	size_t raw_len;
	int depth;
};

void review_comment_free(struct review_comment *c)
{
	if (!c)
		return;
	g_free(c->file);
	g_free(c->quote);
	g_free(c->text);
	g_free(c->owned_name);
	g_free(c->owned_email);
	g_free(c);
}

void review_trailer_free(struct review_trailer *t)
{
	if (!t)
		return;
	g_free(t->kind);
	g_free(t->name);
	g_free(t->email);
	if (t->applies_to)
		g_ptr_array_unref(t->applies_to);
	g_free(t);
}

static void drop_index(struct review_message *rm);

static void message_free(struct review_message *m)
{
	if (m->comments) {
		for (guint i = 0; i < m->comments->len; i++)
			review_comment_free(m->comments->pdata[i]);
		g_ptr_array_unref(m->comments);
	}
	if (m->trailers) {
		for (guint i = 0; i < m->trailers->len; i++)
			review_trailer_free(m->trailers->pdata[i]);
		g_ptr_array_unref(m->trailers);
	}
	drop_index(m);
	g_free(m->id);
	subject_release(&m->subj);
	patch_release(&m->patch);
	if (m->files)
		g_ptr_array_unref(m->files);
	g_free(m);
}

const char *review_scope_name(enum review_scope s)
{
	return s == SCOPE_PATCH ? "patch" : s == SCOPE_SERIES ? "series" : "other";
}

void review_init(struct review *r)
{
	review_init_flags(r, REVIEW_QUOTED);
}

void review_init_flags(struct review *r, unsigned flags)
{
	memset(r, 0, sizeof(*r));
	r->flags = flags;
	r->senders = g_hash_table_new(g_str_hash, g_str_equal);
	r->in_series = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					     (GDestroyNotify)g_ptr_array_unref);
	r->owned = g_ptr_array_new_with_free_func((GDestroyNotify)mail_free);
	g_queue_init(&r->loaded);
	r->messages = g_ptr_array_new_with_free_func((GDestroyNotify)message_free);
	r->comments = g_ptr_array_new_with_free_func(
		(GDestroyNotify)review_comment_free);
	r->trailers = g_ptr_array_new_with_free_func(
		(GDestroyNotify)review_trailer_free);
	r->quoted = g_ptr_array_new_with_free_func(
		(GDestroyNotify)review_comment_free);
	r->by_id = g_hash_table_new(g_str_hash, g_str_equal);
	thread_init(&r->thread);
}

void review_release(struct review *r)
{
	if (r->by_id)
		g_hash_table_destroy(r->by_id);
	if (r->comments)
		g_ptr_array_unref(r->comments);
	if (r->trailers)
		g_ptr_array_unref(r->trailers);
	if (r->quoted)
		g_ptr_array_unref(r->quoted);
	if (r->messages)
		g_ptr_array_unref(r->messages);
	if (r->senders)
		g_hash_table_destroy(r->senders);
	if (r->in_series)
		g_hash_table_destroy(r->in_series);
	if (r->owned)
		g_ptr_array_unref(r->owned);
	g_queue_clear(&r->loaded);
	thread_release(&r->thread);
	memset(r, 0, sizeof(*r));
}

struct review_message *review_find(const struct review *r, const char *id)
{
	return id ? g_hash_table_lookup(r->by_id, id) : NULL;
}

/* ---- lines ---- */

static bool blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!g_ascii_isspace(s[i]))
			return false;
	return true;
}

/* Lowercased, trimmed copy of a line. */
static char *lower_trim(const char *s, size_t len)
{
	while (len && g_ascii_isspace(*s))
		s++, len--;
	while (len && g_ascii_isspace(s[len - 1]))
		len--;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] >= 0x80 || !s[i])
			return g_utf8_strdown(s, (gssize)len);
	/* ASCII: the same as g_utf8_strdown(), without its Unicode tables */
	return g_ascii_strdown(s, (gssize)len);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !memcmp(s + a - b, suffix, b);
}

static unsigned count_words(const char *s)
{
	unsigned n = 0;
	bool in = false;

	for (; *s; s++) {
		if (g_ascii_isspace(*s)) {
			in = false;
		} else if (!in) {
			in = true;
			n++;
		}
	}
	return n;
}

/*
 * "Compiler output" of a build bot: ">> path:12:5: warning: ..." or a
 * numbered source line ">> 12\t...". These are what the bot flags, not
 * quotes of anyone.
 */
static bool bot_line(const char *s, size_t len)
{
	size_t i = 2;

	if (len < 4 || s[0] != '>' || s[1] != '>' || s[2] == '>')
		return false;
	while (i < len && s[i] == ' ')
		i++;
	if (i < len && g_ascii_isdigit(s[i])) {
		while (i < len && g_ascii_isdigit(s[i]))
			i++;
		return i < len && (s[i] == '\t' || s[i] == ' ');
	}
	/* path:line: */
	while (i < len && !g_ascii_isspace(s[i]) && s[i] != ':')
		i++;
	if (i >= len || s[i] != ':' || i + 1 >= len || !g_ascii_isdigit(s[i + 1]))
		return false;
	return true;
}

static bool from_bot(const struct mail *m)
{
	return (m->from_email && (strstr(m->from_email, "lkp@intel.com") ||
				  strstr(m->from_email, "syzbot"))) ||
	       (m->from_name && strstr(m->from_name, "test robot")) ||
	       (m->body && memmem_str(m->body, m->body_len,
				      "prefixed by >>"));
}

static void quote_depth(struct rline *l, bool bot)
{
	const char *s = l->raw;
	size_t len = l->raw_len, i = 0;
	int depth = 0;

	if (bot && len >= 2 && s[0] == '>' && s[1] == '>') {
		l->s = s, l->len = len, l->depth = 0;
		return;
	}
	if (bot_line(s, len)) {
		l->s = s, l->len = len, l->depth = 0;
		return;
	}
	for (;;) {
		size_t j = i;

		/* "> > x" and ">> x": levels may be spaced apart */
		while (j < len && j - i < 3 && s[j] == ' ' && depth)
			j++;
		if (j < len && s[j] == '>') {
			i = j + 1;
			if (i < len && s[i] == ' ')
				i++;
			if (depth < REVIEW_MAX_DEPTH)
				depth++;
			continue;
		}
		break;
	}
	l->s = s + i;
	l->len = len - i;
	l->depth = depth;
}

/* ---- what is not a comment ---- */

static const char *const attribution_ends[] = {
	"wrote:", "writes:", "wrote :", "said:", "a écrit :", "a écrit:",
	"schrieb:", "escribió:", "ha scritto:", "schreef:", "escreveu:",
	"skrev:", "napisał:", "napisał(a):", "написал:", "написал(а):",
	"kirjoitti:", "írta:", "写道：", "写道:", "のメッセージ:",
	"kirjutas:", "napsal:", "napísal:", "scrisse:", "pisze:",
};

/* "On Mon, … Alice wrote:", "Am … schrieb Alice:", "Le … a écrit :" … */
static bool attribution(const char *s, size_t len)
{
	char *l = lower_trim(s, len);
	bool yes = false;

	for (size_t i = 0; i < G_N_ELEMENTS(attribution_ends) && !yes; i++)
		if (ends_with(l, attribution_ends[i]))
			yes = true;
	/* "Quoting Alice (2024-04-17 21:15:00):", "* Alice <a@b> [2024…]:" */
	if (!yes && ends_with(l, ":") &&
	    (g_str_has_prefix(l, "quoting ") ||
	     g_str_has_prefix(l, "excerpts from ") ||
	     (g_str_has_prefix(l, "* ") && strchr(l, '@'))))
		yes = true;
	/* German "Am … schrieb Alice <a@b>:" ends with the name */
	if (!yes && ends_with(l, ":") && (g_str_has_prefix(l, "am ") ||
					  g_str_has_prefix(l, "on ")) &&
	    (strstr(l, " schrieb ") || strstr(l, " wrote ")))
		yes = true;
	/* "Le … a écrit :" with a non-breaking space before the colon */
	if (!yes && g_str_has_prefix(l, "le ") && strstr(l, "a écrit"))
		yes = true;
	g_free(l);
	return yes;
}

static bool attribution_start(const char *s, size_t len)
{
	char *l = lower_trim(s, len);
	bool yes = g_str_has_prefix(l, "on ") || g_str_has_prefix(l, "am ") ||
		   g_str_has_prefix(l, "le ") || g_str_has_prefix(l, "el ") ||
		   g_str_has_prefix(l, "il ") || g_str_has_prefix(l, "op ") ||
		   g_str_has_prefix(l, "em ") || g_str_has_prefix(l, "den ") ||
		   g_str_has_prefix(l, "quoting ");

	g_free(l);
	return yes;
}

static bool snip_mark(const char *s, size_t len)
{
	char *l = lower_trim(s, len);
	bool yes = !strcmp(l, "[...]") || !strcmp(l, "[…]") || !strcmp(l, "...") ||
		   !strcmp(l, "<snip>") || !strcmp(l, "[snip]") ||
		   !strcmp(l, "[ ... ]") || !strcmp(l, "snip") ||
		   !strcmp(l, "<...>") || !strcmp(l, "[..]") ||
		   !strcmp(l, "---8<---") || !strcmp(l, "[ snip ]");

	g_free(l);
	return yes;
}

/* "    ^^^^" (maybe with '~'): points at the quoted line above. */
static bool pointer_line(const char *s, size_t len)
{
	bool caret = false;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '^')
			caret = true;
		else if (s[i] != '~' && s[i] != ' ' && s[i] != '\t' &&
			 s[i] != '|')
			return false;
	}
	return caret;
}

static const char *const greetings[] = {
	"hi", "hello", "hey", "dear", "hallo", "servus", "moin", "bonjour",
	"salut", "hola", "ciao", "greetings", "good morning", "good afternoon",
	"good evening", "morning", "howdy", "hej", "yo",
};

static bool greeting(const char *s, size_t len)
{
	char *l = lower_trim(s, len);
	bool yes = false;

	if (count_words(l) <= 4) {
		for (size_t i = 0; i < G_N_ELEMENTS(greetings) && !yes; i++) {
			size_t gl = strlen(greetings[i]);

			if (!strncmp(l, greetings[i], gl) &&
			    (!l[gl] || l[gl] == ' ' || l[gl] == ',' ||
			     l[gl] == '!' || l[gl] == '.'))
				yes = true;
		}
		if (yes && !(ends_with(l, ",") || ends_with(l, "!") ||
			     count_words(l) <= 2))
			yes = false;
	}
	g_free(l);
	return yes;
}

/*
 * Words that make up thanks and closings. A run made only of these (and
 * the sender's names) says nothing to act on.
 */
static const char *const thanks_words[] = {
	"thanks", "thank", "thx", "ty", "tia", "regards", "cheers", "br",
	"ta", "greetings", "merci", "danke", "dank", "grüße", "gruß",
	"gruesse", "cordialement", "saludos", "grazie", "tack", "bedankt",
	"sincerely", "wishes", "best",
};

/* Words that may go with them without making a line say more. */
static const char *const thanks_filler[] = {
	"you", "for", "the", "this", "patch", "patches", "series", "fix",
	"fixing", "work", "your", "a", "lot", "much", "so", "very", "again",
	"many", "all", "kind", "vielen", "viele", "mit", "freundlichen", "and",
	"in", "advance", "yours", "warm", "looking", "into", "it", "taking",
	"care", "of", "that", "reporting", "the", "review", "reviewing",
	"sending", "-", "--",
};

static bool in_list(const char *w, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w, list[i]))
			return true;
	return false;
}

/*
 * The sender's names, lowercased, cut once per message rather than once
 * per word looked at.
 */
struct sender_names {
	char **parts;		/* the display name's words; NULL if none */
	char *initials;		/* "ar" for Alice Ryhl */
	char *local;		/* the email's local part; NULL if none */
};

static void sender_names_init(struct sender_names *sn, const struct mail *m)
{
	memset(sn, 0, sizeof(*sn));
	if (m->from_name && *m->from_name) {
		char *n = g_utf8_strdown(m->from_name, -1);
		GString *ini = g_string_new(NULL);

		sn->parts = g_strsplit_set(n, " ,.\"'", -1);
		for (char **p = sn->parts; *p; p++)
			if (**p)
				g_string_append_c(ini, (*p)[0]);
		sn->initials = g_string_free(ini, FALSE);
		g_free(n);
	}
	if (m->from_email && *m->from_email) {
		const char *at = strchr(m->from_email, '@');

		sn->local = g_ascii_strdown(m->from_email,
					    at ? at - m->from_email : -1);
	}
}

static void sender_names_release(struct sender_names *sn)
{
	g_strfreev(sn->parts);
	g_free(sn->initials);
	g_free(sn->local);
}

/* Is word one of the sender's names (or its email's local part)? */
static bool name_word(const char *w, const struct sender_names *sn)
{
	if (!*w)
		return true;
	if (sn->parts) {
		for (char **p = sn->parts; *p; p++)
			if (**p && !strcmp(*p, w))
				return true;
		/* initials: "AR" for Alice Ryhl */
		if (strlen(w) <= 3 && !strcmp(sn->initials, w))
			return true;
	}
	return sn->local && !strcmp(sn->local, w);
}

/* Splits a lowercased line into words without punctuation. */
static char **words_of(const char *l)
{
	return g_strsplit_set(l, " \t,.!:;()?", -1);
}

/* "Comments inline.", "See below." — a pointer to the comments, not one. */
static const char *const fillers[] = {
	"comments inline", "comments below", "see inline", "see below",
	"some comments inline", "some comments below", "a few comments inline",
	"a few comments below", "a few nits below", "a few nits inline",
	"some nits below", "some nits inline", "more below", "replies inline",
	"answers inline", "see my comments below", "see my comments inline",
	"one comment below", "one comment inline", "minor comments below",
	"minor comments inline", "inline",
};

static bool filler_line(const char *s, size_t len)
{
	char *l = lower_trim(s, len);
	size_t n = strlen(l);
	bool yes = false;

	while (n && (l[n - 1] == '.' || l[n - 1] == ':' || l[n - 1] == '!' ||
		     l[n - 1] == ','))
		l[--n] = '\0';
	for (size_t i = 0; i < G_N_ELEMENTS(fillers) && !yes; i++)
		yes = !strcmp(l, fillers[i]);
	g_free(l);
	return yes;
}

/* A line that is only thanks, a closing, or the sender's name. */
static bool closing_line(const char *s, size_t len,
			 const struct sender_names *sn, bool allow_thanks)
{
	char *o = g_strndup(s, len);
	char *t = g_strstrip(o);
	char **w;
	unsigned names = 0;
	bool any_name = false, any_thanks = false, other = false;

	if (!*t || count_words(t) > 8) {
		g_free(o);
		return false;
	}
	/* "-Steve", "-- Alice", "~Alice" */
	w = words_of(t[0] == '-' || t[0] == '~' ? t + strspn(t, "-~ ") : t);
	for (char **p = w; *p; p++) {
		char *lw;

		if (!**p)
			continue;
		lw = g_utf8_strdown(*p, -1);
		if (name_word(lw, sn))
			any_name = true;
		else if (in_list(lw, thanks_words, G_N_ELEMENTS(thanks_words)))
			any_thanks = true;
		else if (in_list(lw, thanks_filler, G_N_ELEMENTS(thanks_filler)))
			;
		else if (g_unichar_isupper(g_utf8_get_char(*p)) && names < 2)
			names++;	/* "Thanks, Bob!": someone's name */
		else
			other = true;
		g_free(lw);
	}
	g_strfreev(w);
	g_free(o);
	if (other || (names && !any_thanks))
		return false;
	return any_name || (allow_thanks && any_thanks);
}

/* Outlook's header block: "From: …" then "Sent:"/"Date:", "To:", "Subject:". */
static bool outlook_block(const struct rline *lines, guint n, guint i,
			  guint *end)
{
	const struct rline *l = &lines[i];
	bool sent = false, subject = false;
	guint j;

	if (l->depth || !(mem_starts_with(l->s, l->len, "From: ") ||
			  mem_starts_with(l->s, l->len, "*From:*") ||
			  mem_starts_with(l->s, l->len, "Von: ") ||
			  mem_starts_with(l->s, l->len, "De : ") ||
			  mem_starts_with(l->s, l->len, "De: ")))
		return false;
	for (j = i + 1; j < n && j < i + 8; j++) {
		const struct rline *k = &lines[j];

		if (k->depth || blank(k->s, k->len))
			break;
		if (mem_starts_with(k->s, k->len, "Sent: ") ||
		    mem_starts_with(k->s, k->len, "Date: ") ||
		    mem_starts_with(k->s, k->len, "*Sent:*") ||
		    mem_starts_with(k->s, k->len, "Gesendet: ") ||
		    mem_starts_with(k->s, k->len, "Envoyé : "))
			sent = true;
		if (mem_starts_with(k->s, k->len, "Subject: ") ||
		    mem_starts_with(k->s, k->len, "*Subject:*") ||
		    mem_starts_with(k->s, k->len, "Betreff: ") ||
		    mem_starts_with(k->s, k->len, "Objet : "))
			subject = true;
	}
	if (!sent || !subject)
		return false;
	*end = j;
	return true;
}

static bool list_footer(const char *s, size_t len)
{
	size_t u = 0;

	for (size_t i = 0; i < len; i++)
		u += s[i] == '_';
	return (len >= 20 && u == len) ||
	       memmem_str(s, len, "You received this message because you are subscribed") ||
	       mem_starts_with(s, len, "To unsubscribe from this list:");
}

/* ---- runs ---- */

struct segmenter {
	const struct mail *m;
	struct sender_names names;	/* of m */
	const struct patch *p;
	const struct anchor_state *shared;	/* p's index, built once, or NULL */
	struct anchor_state st;
	struct anchor last;
	GPtrArray *comments;
	GPtrArray *trailers;
	unsigned index;
	bool first_run;
};

static void add_trailer(struct segmenter *sg, struct trailer *t, bool series)
{
	struct review_trailer *rt = g_new0(struct review_trailer, 1);

	rt->kind = t->kind;
	if (t->bare_nak) {
		g_free(t->name);
		g_free(t->email);
		rt->name = g_strdup(sg->m->from_name ? sg->m->from_name : "");
		rt->email = g_strdup(sg->m->from_email ? sg->m->from_email : "");
	} else {
		rt->name = t->name;
		rt->email = t->email;
	}
	rt->scope = (series || t->for_series) ? SCOPE_SERIES : SCOPE_PATCH;
	rt->applies_to = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(sg->trailers, rt);
	memset(t, 0, sizeof(*t));
}

/*
 * b4 takes a trailer only from the person it names (unless told to be
 * sloppy); so do we: "Reviewed-by: Steven" inside Mathieu's proposed
 * changelog is text, not Mathieu's review.
 */
static bool same_person(const struct trailer *t, const struct mail *m)
{
	if (*t->email && m->from_email && *m->from_email)
		return !g_ascii_strcasecmp(t->email, m->from_email);
	return *t->name && m->from_name && !strcmp(t->name, m->from_name);
}

/* Turns own lines [a, b) into at most one comment. */
static void flush_run(struct segmenter *sg, struct rline *lines, guint a,
		      guint b, bool before_quote)
{
	GArray *keep = g_array_new(FALSE, FALSE, sizeof(guint));
	GString *text;
	guint first, last;
	bool series_hint = false, content = false;

	/* attribution right before the quote: one line or wrapped in two */
	if (before_quote) {
		guint e = b;

		while (e > a && blank(lines[e - 1].s, lines[e - 1].len))
			e--;
		if (e > a && attribution(lines[e - 1].s, lines[e - 1].len)) {
			b = e - 1;
			if (b > a && !blank(lines[b - 1].s, lines[b - 1].len) &&
			    attribution_start(lines[b - 1].s, lines[b - 1].len) &&
			    !attribution_start(lines[e - 1].s, lines[e - 1].len))
				b--;
		}
	}
	for (guint i = a; i < b; i++) {
		struct rline *l = &lines[i];
		struct trailer t;

		if (blank(l->s, l->len)) {
			g_array_append_val(keep, i);
			continue;
		}
		if (trailer_parse_line(l->s, l->len, &t)) {
			if (t.bare_nak || same_person(&t, sg->m)) {
				add_trailer(sg, &t, series_hint);
				continue;
			}
			/* someone else's: text (a proposed changelog), as b4 */
			trailer_release(&t);
		}
		if (trailer_mentions_series(l->s, l->len) && l->len < 60 &&
		    l->s[l->len - 1] == ':') {
			series_hint = true;	/* "For the series:" */
			continue;
		}
		if (pointer_line(l->s, l->len) || snip_mark(l->s, l->len) ||
		    filler_line(l->s, l->len) ||
		    (attribution(l->s, l->len) && attribution_start(l->s, l->len)))
			continue;
		g_array_append_val(keep, i);
	}
	/* greetings open the first run of the message */
	first = 0;
	while (first < keep->len) {
		struct rline *l = &lines[g_array_index(keep, guint, first)];

		if (blank(l->s, l->len) ||
		    (sg->first_run && greeting(l->s, l->len)))
			first++;
		else
			break;
	}
	/* closings and the sender's name end it */
	last = keep->len;
	while (last > first) {
		struct rline *l = &lines[g_array_index(keep, guint, last - 1)];

		if (blank(l->s, l->len) || closing_line(l->s, l->len, &sg->names, true))
			last--;
		else
			break;
	}
	text = g_string_new(NULL);
	for (guint k = first; k < last; k++) {
		struct rline *l = &lines[g_array_index(keep, guint, k)];

		g_string_append_len(text, l->s, (gssize)l->len);
		g_string_append_c(text, '\n');
		/* one line of content is enough: the rest need no look */
		if (!content && !blank(l->s, l->len) &&
		    !closing_line(l->s, l->len, &sg->names, true))
			content = true;
	}
	if (a < b && keep->len)
		sg->first_run = false;
	g_array_free(keep, TRUE);
	if (!content) {
		g_string_free(text, TRUE);
		return;
	}
	while (text->len && text->str[text->len - 1] == '\n')
		g_string_truncate(text, text->len - 1);

	struct review_comment *c = g_new0(struct review_comment, 1);

	c->index = sg->index++;
	c->author_name = sg->m->from_name;
	c->author_email = sg->m->from_email;
	c->text = g_string_free(text, FALSE);
	if (sg->last.set) {
		const struct patch_line *pl = &g_array_index(
			sg->p->lines, struct patch_line, sg->last.line_index);

		c->is_inline = true;
		c->file = g_strdup(sg->last.file);
		c->side = sg->last.side;
		c->line = sg->last.line;
		c->quote = g_strdup_printf("%c%.*s", pl->kind, (int)pl->len,
					   pl->text);
	}
	g_ptr_array_add(sg->comments, c);
}

/*
 * The lines of m's body with their quote depth; the signature and list
 * footers cut, Outlook header blocks dropped or turned into a quote.
 */
static GArray *body_lines(const struct mail *m)
{
	GArray *arr = g_array_new(FALSE, FALSE, sizeof(struct rline));
	struct rline *lines;
	const char *s = m->body ? m->body : "", *end = s + m->body_len;
	bool bot = from_bot(m);
	guint n;
	int forced_depth = 0;

	while (s < end) {
		const char *nl = memchr(s, '\n', end - s);
		struct rline l = { 0 };

		l.raw = s;
		l.raw_len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		if (l.raw_len && s[l.raw_len - 1] == '\r')
			l.raw_len--;
		quote_depth(&l, bot);
		g_array_append_val(arr, l);
		s = nl ? nl + 1 : end;
	}
	lines = (struct rline *)(void *)arr->data;
	n = arr->len;

	for (guint i = 0; i < n; i++) {
		struct rline *l = &lines[i];
		guint e;

		if (forced_depth) {
			if (!l->depth)
				l->depth = forced_depth;
			continue;
		}
		if (!l->depth && ((l->raw_len == 3 && !memcmp(l->raw, "-- ", 3)) ||
				  (l->raw_len == 2 && !memcmp(l->raw, "--", 2)) ||
				  list_footer(l->raw, l->raw_len))) {
			g_array_set_size(arr, i);
			break;
		}
		if (!l->depth && mem_starts_with(l->s, l->len, "-----") &&
		    (memmem_str(l->s, l->len, "Original Message") ||
		     memmem_str(l->s, l->len, "Ursprüngliche Nachricht") ||
		     memmem_str(l->s, l->len, "Message d'origine"))) {
			l->len = 0;	/* dropped */
			l->s = l->raw;
			forced_depth = 1;
			if (i + 1 < n && outlook_block(lines, n, i + 1, &e))
				for (guint k = i + 1; k < e; k++)
					lines[k].len = 0, lines[k].depth = 0;
			continue;
		}
		if (outlook_block(lines, n, i, &e)) {
			guint k = e;

			while (k < n && blank(lines[k].s, lines[k].len))
				k++;
			for (guint j = i; j < e; j++)
				lines[j].len = 0;
			if (k < n && lines[k].depth)
				continue;	/* an attribution before '>' quotes */
			forced_depth = 1;	/* top-posting: the original follows */
			i = e - 1;
		}
	}
	return arr;
}

/*
 * The runs written at quote depth d: lines deeper are what that writer
 * quoted (they move the anchor), shallower ones are later writers'.
 */
static void segment_at(struct segmenter *sg, struct rline *lines, guint n,
		       int d)
{
	guint run_start = 0;

	sender_names_init(&sg->names, sg->m);
	if (sg->p && sg->shared) {
		sg->st = *sg->shared;	/* the index is shared, the cursor ours */
		anchor_reset(&sg->st);
	} else if (sg->p) {
		anchor_init(&sg->st, sg->p);
	}
	for (guint i = 0; i < n; i++) {
		struct rline *l = &lines[i];

		if (l->depth == d)
			continue;
		if (run_start < i)
			flush_run(sg, lines, run_start, i, l->depth > d);
		run_start = i + 1;
		if (sg->p && l->depth > d) {
			struct anchor a;

			if (anchor_feed(&sg->st, l->s, l->len, &a))
				sg->last = a;
		}
	}
	if (run_start < n)
		flush_run(sg, lines, run_start, n, false);
	if (sg->p && !sg->shared)
		anchor_release(&sg->st);
	sender_names_release(&sg->names);
}

static void segment_lines(const struct mail *m, GArray *arr,
			  const struct patch *p, const struct anchor_state *index,
			  GPtrArray *comments, GPtrArray *trailers)
{
	struct segmenter sg = { 0 };

	sg.m = m;
	sg.p = p && p->lines->len ? p : NULL;
	sg.shared = index;
	sg.comments = comments;
	sg.trailers = trailers;
	sg.first_run = true;
	segment_at(&sg, (struct rline *)(void *)arr->data, arr->len, 0);
}

void review_segment(const struct mail *m, const struct patch *p,
		    GPtrArray *comments, GPtrArray *trailers)
{
	GArray *arr = body_lines(m);

	segment_lines(m, arr, p, NULL, comments, trailers);
	g_array_free(arr, TRUE);
}

/* ---- quoted review of messages we do not have ---- */

static int max_depth(const GArray *arr)
{
	int d = 0;

	for (guint i = 0; i < arr->len; i++)
		d = MAX(d, g_array_index(arr, struct rline, i).depth);
	return d;
}

/* The reply's chain, oldest first: References, then In-Reply-To. */
static GPtrArray *chain_of(const struct mail *m)
{
	GPtrArray *c = g_ptr_array_new();

	if (m->references)
		for (guint i = 0; i < m->references->len; i++)
			g_ptr_array_add(c, m->references->pdata[i]);
	if (m->in_reply_to &&
	    (!c->len || strcmp(c->pdata[c->len - 1], m->in_reply_to)))
		g_ptr_array_add(c, m->in_reply_to);
	return c;
}

/*
 * The name in an attribution line: "On …, Peter Zijlstra wrote:",
 * "On … Mathieu Desnoyers <m@x> wrote:", "Am … schrieb Jörg:". New
 * strings; *email is "" when the line gives none.
 */
static bool attribution_person(const char *line, char **name, char **email)
{
	char *l = g_strstrip(g_strdup(line));
	char *lt = strchr(l, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	char *end = NULL, *comma;
	static const char *const verbs[] = {
		" wrote:", " writes:", " a écrit :", " a écrit:", " schrieb:",
		" said:",
	};

	*name = *email = NULL;
	if (lt && gt && memchr(lt, '@', gt - lt)) {
		*email = g_strndup(lt + 1, gt - lt - 1);
		end = lt;
	} else {
		for (size_t i = 0; i < G_N_ELEMENTS(verbs) && !end; i++)
			end = strstr(l, verbs[i]);
		if (!end && g_str_has_prefix(l, "Am ") && (end = strstr(l, " schrieb "))) {
			/* German: the name follows the verb */
			char *n = end + 9, *c = strrchr(n, ':');

			if (c)
				*c = '\0';
			*name = g_strstrip(g_strdup(n));
			g_free(l);
			*email = g_strdup("");
			return **name != '\0';
		}
	}
	if (!end) {
		g_free(*email);
		*email = NULL;
		g_free(l);
		return false;
	}
	*end = '\0';
	/* the name is what follows the date: after the last comma, or the
	 * trailing capitalized words */
	comma = strrchr(l, ',');
	if (comma && !lt) {
		*name = g_strstrip(g_strdup(comma + 1));
	} else {
		char **w = g_strsplit(g_strstrip(l), " ", -1);
		guint n = g_strv_length(w), k = n;
		GString *nm = g_string_new(NULL);

		while (k > 0 && n - k < 4 && g_unichar_isupper(g_utf8_get_char(w[k - 1])) &&
		       !strchr(w[k - 1], ':'))
			k--;
		for (guint i = k; i < n; i++)
			g_string_append_printf(nm, "%s%s", i > k ? " " : "", w[i]);
		*name = g_string_free(nm, FALSE);
		g_strfreev(w);
	}
	if (!*email)
		*email = g_strdup("");
	g_free(l);
	if (!**name && !**email) {
		g_free(*name);
		g_free(*email);
		*name = *email = NULL;
		return false;
	}
	return true;
}

/*
 * The address of name among the mbox's senders (the first message from a
 * sender of that name), else the reply's recipients.
 */
static char *email_of(const struct review *r, const struct mail *m,
		      const char *name)
{
	const char *lists[] = { m->to, m->cc };
	const char *email = g_hash_table_lookup(r->senders, name);

	if (email)
		return g_strdup(email);
	for (size_t k = 0; k < G_N_ELEMENTS(lists); k++) {
		const char *p = lists[k] ? strstr(lists[k], name) : NULL;
		const char *lt, *gt;

		if (!p)
			continue;
		lt = strchr(p, '<');
		gt = lt ? strchr(lt, '>') : NULL;
		if (lt && gt && !memchr(p, ',', lt - p))
			return g_strndup(lt + 1, gt - lt - 1);
	}
	return g_strdup("");
}

static void recover(struct review *r, const struct review_message *rm,
		    GArray *arr, const struct patch *p,
		    const struct anchor_state *index, GPtrArray *out)
{
	struct rline *lines = (struct rline *)(void *)arr->data;
	GPtrArray *chain = chain_of(rm->mail);
	int D = max_depth(arr);

	/* depth d holds the words of chain[len - d]; it is a reply (and its
	 * words review) only when it quotes deeper still */
	for (int d = 1; d < D && d <= (int)chain->len; d++) {
		const char *id = chain->pdata[chain->len - d];
		struct mail who = { 0 };
		char *name = NULL, *email = NULL;
		struct segmenter sg = { 0 };
		GPtrArray *comments, *trailers;
		GArray *copy;
		struct rline *cl;
		guint first = 0;

		if (review_find(r, id))
			continue;	/* we have it: its own words count */
		while (first < arr->len && lines[first].depth < d)
			first++;
		/* the attribution: the last non-blank line above, one level up */
		for (guint k = first; k-- > 0;) {
			if (blank(lines[k].s, lines[k].len))
				continue;
			if (lines[k].depth != d - 1)
				break;
			if (attribution(lines[k].s, lines[k].len)) {
				GString *a = g_string_new(NULL);

				if (k > 0 && lines[k - 1].depth == d - 1 &&
				    attribution_start(lines[k - 1].s, lines[k - 1].len) &&
				    !attribution_start(lines[k].s, lines[k].len))
					g_string_append_len(a, lines[k - 1].s,
							    (gssize)lines[k - 1].len),
					g_string_append_c(a, ' ');
				g_string_append_len(a, lines[k].s, (gssize)lines[k].len);
				attribution_person(a->str, &name, &email);
				g_string_free(a, TRUE);
			}
			break;
		}
		if (!name)
			continue;	/* whose words these are is unknown */
		if (!*email) {
			g_free(email);
			email = email_of(r, rm->mail, name);
		}
		/* its signature, quoted, is not review either */
		copy = g_array_copy(arr);
		cl = (struct rline *)(void *)copy->data;
		for (guint k = 0, sig = 0; k < copy->len; k++) {
			if (cl[k].depth < d)
				sig = 0;
			else if (cl[k].depth == d &&
				 ((cl[k].len == 3 && !memcmp(cl[k].s, "-- ", 3)) ||
				  (cl[k].len == 2 && !memcmp(cl[k].s, "--", 2))))
				sig = 1;
			if (sig && cl[k].depth == d)
				cl[k].len = 0;
		}
		who.from_name = name;
		who.from_email = email;
		sg.m = &who;
		sg.p = p && p->lines->len ? p : NULL;
		sg.shared = index;
		sg.comments = comments = g_ptr_array_new();
		sg.trailers = trailers = g_ptr_array_new_with_free_func(
			(GDestroyNotify)review_trailer_free);
		sg.first_run = true;
		segment_at(&sg, cl, copy->len, d);
		for (guint k = 0; k < comments->len; k++) {
			struct review_comment *c = comments->pdata[k];

			c->reply_id = id;
			c->quoted_in = rm->id;
			c->owned_name = g_strdup(name);
			c->owned_email = g_strdup(email);
			c->author_name = c->owned_name;
			c->author_email = c->owned_email;
			c->patch_id = rm->target;
			g_ptr_array_add(out, c);
		}
		g_ptr_array_free(comments, TRUE);
		g_ptr_array_unref(trailers);	/* quoted trailers never count */
		g_array_free(copy, TRUE);
		g_free(name);
		g_free(email);
	}
	g_ptr_array_free(chain, TRUE);
}

/*
 * Nothing of the chain is here: the innermost quote is the start of the
 * discussion, the patch, and sits as far up the chain as it is deep.
 */
static void infer_target(struct review_message *rm, const GArray *arr)
{
	GPtrArray *chain;
	int D;

	if (rm->target_present || !rm->target || !rm->subj.patch)
		return;
	D = max_depth(arr);
	chain = chain_of(rm->mail);
	if (D >= 2 && D <= (int)chain->len)
		rm->target = chain->pdata[chain->len - D];
	g_ptr_array_free(chain, TRUE);
}

/* ---- the whole mbox ---- */

/* posting.h decides; review keeps the files a patch touches */
static enum review_kind classify(const struct mail *m, struct review_message *rm)
{
	enum posting_kind k = posting_classify(m->subject, m->body, m->body_len,
					       &rm->subj, &rm->patch);

	if (k == POSTING_REPLY)
		return REVIEW_REPLY;
	if (k == POSTING_COVER)
		return REVIEW_COVER;
	rm->files = g_ptr_array_new_with_free_func(g_free);
	for (guint f = 0; f < rm->patch.files->len; f++) {
		const struct patch_file *pf = rm->patch.files->pdata[f];

		g_ptr_array_add(rm->files, g_strdup(pf->path));
	}
	return REVIEW_PATCH;
}

/*
 * Patch p is one of the series of every message its In-Reply-To or
 * References name: indexed once, so that a trailer for the series does
 * not scan the mbox.
 */
static void index_series(struct review *r, struct review_message *p)
{
	const struct mail *m = p->mail;
	guint n = m->references ? m->references->len : 0;

	for (guint i = 0; i <= n; i++) {
		const char *id = i < n ? m->references->pdata[i] : m->in_reply_to;
		GPtrArray *a;

		if (!id)
			continue;
		a = g_hash_table_lookup(r->in_series, id);
		if (!a) {
			a = g_ptr_array_new();
			g_hash_table_insert(r->in_series, (gpointer)id, a);
		}
		if (!a->len || a->pdata[a->len - 1] != p)
			g_ptr_array_add(a, p);
	}
}

/* The patches a trailer for target's series applies to, in mbox order. */
static void series_patches(const struct review *r,
			   const struct review_message *target, GPtrArray *out)
{
	const struct review_message *cover = NULL;
	const GPtrArray *in = NULL;
	bool target_done = target->kind != REVIEW_PATCH;

	if (target->kind == REVIEW_COVER) {
		cover = target;
	} else {
		/* the cover this patch was sent under, if present */
		const char *parent = target->mail->in_reply_to;
		struct review_message *pm = review_find(r, parent);

		if (pm && pm->kind == REVIEW_COVER)
			cover = pm;
	}
	if (cover)
		in = g_hash_table_lookup(r->in_series, cover->id);
	for (guint i = 0; in && i < in->len; i++) {
		const struct review_message *p = in->pdata[i];

		if (!target_done && target->index < p->index) {
			g_ptr_array_add(out, g_strdup(target->id));
			target_done = true;
		}
		if (p == target)
			target_done = true;
		if (p == target || p->subj.version == cover->subj.version)
			g_ptr_array_add(out, g_strdup(p->id));
	}
	if (!target_done)
		g_ptr_array_add(out, g_strdup(target->id));
}

static void drop_index(struct review_message *rm)
{
	if (rm->anchors) {
		anchor_release(rm->anchors);
		g_clear_pointer(&rm->anchors, g_free);
	}
}

/* The anchor index of p (target's diff), built at its first reply. */
static const struct anchor_state *target_index(struct review_message *t,
					       const struct patch *p)
{
	if (!p || !p->lines->len)
		return NULL;
	if (!t->anchors) {
		t->anchors = g_new0(struct anchor_state, 1);
		anchor_init(t->anchors, p);
	}
	return t->anchors;
}

static void unload(struct review_message *rm)
{
	drop_index(rm);
	patch_release(&rm->patch);	/* zeroed: target_patch() inits it */
	rm->unloaded = true;
}

/*
 * The diff of target, read again from the mbox when it was let go; the
 * last REVIEW_LOADED_MAX read are kept (replies follow their patch).
 */
static const struct patch *target_patch(struct review *r,
					struct review_message *t)
{
	struct mail *m;

	if (!t || t->kind != REVIEW_PATCH)
		return NULL;
	if (!t->unloaded)
		return &t->patch;
	if (mail_reader_reread(r->reader, t->mail, &m) < 0) {
		r->failed = true;
		return NULL;	/* no anchors */
	}
	patch_init(&t->patch);
	patch_parse(&t->patch, m->body ? m->body : "", m->body_len);
	mail_free(m);
	t->unloaded = false;
	g_queue_push_tail(&r->loaded, t);
	if (g_queue_get_length(&r->loaded) > REVIEW_LOADED_MAX)
		unload(g_queue_pop_head(&r->loaded));
	return &t->patch;
}

static void add_message(struct review *r, const struct mail *m, guint nr)
{
	struct review_message *rm;

	if (m->message_id && g_hash_table_contains(r->by_id, m->message_id))
		return;
	rm = g_new0(struct review_message, 1);
	rm->mail = m;
	rm->id = m->message_id ? g_strdup(m->message_id)
			       : g_strdup_printf("<none-%u>", nr);
	rm->index = r->messages->len;
	rm->kind = classify(m, rm);
	g_ptr_array_add(r->messages, rm);
	g_hash_table_insert(r->by_id, rm->id, rm);
	if (m->from_name && !g_hash_table_contains(r->senders, m->from_name))
		g_hash_table_insert(r->senders, m->from_name,
				    (gpointer)(m->from_email ? m->from_email : ""));
	thread_add(&r->thread, rm->id,
		   rm->kind == REVIEW_PATCH ? THREAD_PATCH :
		   rm->kind == REVIEW_COVER ? THREAD_COVER : THREAD_REPLY,
		   m->in_reply_to, m->references);
	if (rm->kind == REVIEW_PATCH)
		index_series(r, rm);
}

/* Keeps of an owned mail what the analysis still needs. */
static void slim(struct review *r, struct mail *m, struct review_message *rm)
{
	g_clear_pointer(&m->raw, g_free);
	m->raw_len = 0;
	g_clear_pointer(&m->from, g_free);
	g_clear_pointer(&m->reconstructed, g_free);
	if (!(r->flags & REVIEW_QUOTED)) {
		g_clear_pointer(&m->to, g_free);
		g_clear_pointer(&m->cc, g_free);
	}
	if (m->time)
		g_clear_pointer(&m->date, g_free);	/* the JSON's is m->time */
	if (!rm)
		return;
	/* the JSON's subject is the mail's; the parts kept are numbers */
	g_clear_pointer(&rm->subj.prefix, g_free);
	g_clear_pointer(&rm->subj.title, g_free);
	if (rm->kind != REVIEW_REPLY) {
		g_clear_pointer(&m->body, g_free);
		m->body_len = 0;
	}
	if (rm->kind == REVIEW_PATCH && r->reader)
		unload(rm);
	else if (rm->kind != REVIEW_PATCH)
		patch_release(&rm->patch);	/* an empty diff: nothing kept */
}

static void add_trailers(struct review *r, struct review_message *rm,
			 struct review_message *target, GPtrArray *trailers)
{
	for (guint k = 0; k < trailers->len; k++) {
		struct review_trailer *t = trailers->pdata[k];

		t->given_in = rm->id;
		if (target && target->kind == REVIEW_COVER)
			t->scope = SCOPE_SERIES;
		else if (!rm->target)
			t->scope = SCOPE_OTHER;
		else if (!target && t->scope != SCOPE_SERIES &&
			 !(rm->subj.patch && rm->subj.index > 0))
			/* an absent target the subject does not name */
			t->scope = rm->subj.patch && rm->subj.total > 1 ?
					   SCOPE_SERIES : SCOPE_OTHER;
		if (target && target->kind != REVIEW_REPLY &&
		    t->scope == SCOPE_SERIES)
			series_patches(r, target, t->applies_to);
		else if (rm->target)
			g_ptr_array_add(t->applies_to, g_strdup(rm->target));
		g_ptr_array_add(r->trailers, t);
	}
}

/* A reply's comments and trailers, kept with it until collect(). */
static void analyse_reply(struct review *r, struct review_message *rm)
{
	struct review_message *target;
	const struct patch *p;
	const struct anchor_state *index;
	GArray *arr;

	rm->target = thread_target(&r->thread, rm->id, &rm->target_present);
	arr = body_lines(rm->mail);
	infer_target(rm, arr);
	target = rm->target_present ? review_find(r, rm->target) : NULL;
	p = target_patch(r, target);
	index = target_index(target, p);
	rm->comments = g_ptr_array_new();
	rm->trailers = g_ptr_array_new();
	segment_lines(rm->mail, arr, p, index, rm->comments, rm->trailers);
	if (r->flags & REVIEW_QUOTED)
		recover(r, rm, arr, p, index, r->quoted);
	g_array_free(arr, TRUE);
	rm->analysed = true;
	if (r->reader) {
		/* the JSON needs no body: let it go */
		struct mail *m = (struct mail *)rm->mail;

		g_clear_pointer(&m->body, g_free);
		m->body_len = 0;
	}
}

/*
 * The reply's comments and trailers join the review's, in mbox order;
 * a trailer's scope needs every patch of the series, so it waits until
 * the whole mbox is read.
 */
static void collect(struct review *r, struct review_message *rm)
{
	struct review_message *target =
		rm->target_present ? review_find(r, rm->target) : NULL;

	for (guint k = 0; k < rm->comments->len; k++) {
		struct review_comment *c = rm->comments->pdata[k];

		c->reply_id = rm->id;
		c->patch_id = rm->target;
		g_ptr_array_add(r->comments, c);
	}
	add_trailers(r, rm, target, rm->trailers);
	g_clear_pointer(&rm->comments, g_ptr_array_unref);
	g_clear_pointer(&rm->trailers, g_ptr_array_unref);
}

/*
 * Is rm's target settled? When its parents lead to a patch or cover
 * through messages already here, no later message changes it (the first
 * of an id wins): it can be analysed, and its body let go, at once.
 */
static bool target_settled(const struct review *r,
			   const struct review_message *rm)
{
	const struct review_message *x = rm;

	for (int depth = 0; depth < THREAD_MAX_DEPTH; depth++) {
		const struct mail *m = x->mail;
		const char *parent = NULL;

		/* the parent as thread.c takes it */
		if (m->in_reply_to && *m->in_reply_to &&
		    strcmp(m->in_reply_to, x->id))
			parent = m->in_reply_to;
		for (guint i = m->references ? m->references->len : 0;
		     !parent && i-- > 0;)
			if (strcmp(m->references->pdata[i], x->id))
				parent = m->references->pdata[i];
		if (!parent || !strcmp(parent, rm->id))
			return false;
		x = review_find(r, parent);
		if (!x)
			return false;
		if (x->kind != REVIEW_REPLY)
			return true;
	}
	return false;
}

void review_add(struct review *r, struct mail *m, struct mail_reader *reader)
{
	guint n = r->messages->len;
	struct review_message *rm;

	if (reader)
		r->reader = reader;
	if (m->message_id && g_hash_table_contains(r->by_id, m->message_id)) {
		mail_free(m);	/* a duplicate: ignored */
		r->seen++;
		return;
	}
	g_ptr_array_add(r->owned, m);
	add_message(r, m, r->seen++);
	if (r->messages->len == n)
		return;
	rm = r->messages->pdata[n];
	slim(r, m, rm);
	/* quoted review waits for every sender: it is analysed at the end */
	if (r->reader && rm->kind == REVIEW_REPLY &&
	    !(r->flags & REVIEW_QUOTED) && target_settled(r, rm))
		analyse_reply(r, rm);
}

int review_finish(struct review *r)
{
	for (guint i = 0; i < r->messages->len; i++) {
		struct review_message *rm = r->messages->pdata[i];

		if (rm->kind != REVIEW_REPLY)
			continue;
		if (!rm->analysed)
			analyse_reply(r, rm);
		collect(r, rm);
	}
	while (!g_queue_is_empty(&r->loaded))
		unload(g_queue_pop_head(&r->loaded));
	for (guint i = 0; i < r->messages->len; i++)
		drop_index(r->messages->pdata[i]);
	return r->failed ? -1 : 0;
}

void review_extract(struct review *r, const GPtrArray *mails)
{
	for (guint i = 0; i < mails->len; i++)
		add_message(r, mails->pdata[i], i);
	review_finish(r);
}

/* ---- JSON ---- */

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* json_string() refuses invalid UTF-8; mail.c promises valid, but be safe. */
static json_t *jstr(const char *s)
{
	json_t *j;
	char *v;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	v = g_utf8_make_valid(s, -1);
	j = json_string(v);
	g_free(v);
	return j ? j : json_null();
}

static json_t *id_json(const struct review_message *rm)
{
	return rm->mail->message_id ? jstr(rm->mail->message_id) : json_null();
}

/* The date in ISO 8601 with the sender's offset, else as sent; NULL if none. */
static char *iso_date_text(const struct mail *m)
{
	GDateTime *utc, *local;
	GTimeZone *tz;
	char *s;

	if (!m->time)
		return g_strdup(m->date);
	utc = g_date_time_new_from_unix_utc(m->time);
	if (!utc)
		return g_strdup(m->date);
	tz = g_time_zone_new_offset(m->tz_minutes * 60);
	local = g_date_time_to_timezone(utc, tz);
	s = g_date_time_format(local ? local : utc, "%Y-%m-%dT%H:%M:%S%:z");
	if (local)
		g_date_time_unref(local);
	g_date_time_unref(utc);
	g_time_zone_unref(tz);
	return s;
}

static json_t *iso_date(const struct mail *m)
{
	char *s = iso_date_text(m);
	json_t *j = m->time ? jstr(s) : str_or_null(s);

	g_free(s);
	return j;
}

static const char *kind_name(enum review_kind k)
{
	return k == REVIEW_PATCH ? "patch" : k == REVIEW_COVER ? "cover" : "reply";
}

static json_t *comment_json(const struct review *r,
			    const struct review_comment *c)
{
	const struct review_message *rm = review_find(r, c->reply_id);

	return json_pack(
		"{s:o, s:o, s:o, s:s, s:o, s:o, s:o, s:o}",
		"reply_message_id", rm ? id_json(rm) : jstr(c->reply_id),
		"author_email", jstr(c->author_email ? c->author_email : ""),
		"patch_message_id", jstr(c->patch_id),
		"kind", c->is_inline ? "inline" : "general",
		"file", c->is_inline ? jstr(c->file) : json_null(),
		"side", c->is_inline ? json_string(c->side == 'o' ? "old" : "new")
				     : json_null(),
		"line", c->is_inline ? json_integer(c->line) : json_null(),
		"text", jstr(c->text));
}

static json_t *quoted_json(const struct review *r,
			   const struct review_comment *c)
{
	json_t *o = comment_json(r, c);

	json_object_set_new(o, "author_name", jstr(c->author_name));
	json_object_set_new(o, "quoted_in", jstr(c->quoted_in));
	return o;
}

json_t *review_quoted_json(const struct review *r)
{
	json_t *a = json_array();

	for (guint i = 0; i < r->quoted->len; i++)
		json_array_append_new(a, quoted_json(r, r->quoted->pdata[i]));
	return a;
}

static json_t *message_json(const struct review_message *rm)
{
	const struct mail *m = rm->mail;

	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:s}",
			 "message_id", id_json(rm),
			 "from_name", jstr(m->from_name ? m->from_name : ""),
			 "from_email", jstr(m->from_email ? m->from_email : ""),
			 "date", iso_date(m),
			 "subject", jstr(m->subject ? m->subject : ""),
			 "in_reply_to", jstr(m->in_reply_to),
			 "kind", kind_name(rm->kind));
}

/* Covers and patches; NULL for a reply. */
static json_t *patch_json(const struct review_message *rm)
{
	const struct mail *m = rm->mail;
	json_t *files;

	if (rm->kind == REVIEW_REPLY)
		return NULL;
	files = json_array();
	for (guint f = 0; rm->files && f < rm->files->len; f++)
		json_array_append_new(files, jstr(rm->files->pdata[f]));
	return json_pack("{s:o, s:s, s:o, s:i, s:i, s:i, s:o}",
			 "message_id", id_json(rm),
			 "kind", kind_name(rm->kind),
			 "subject", jstr(m->subject ? m->subject : ""),
			 "version", rm->subj.version,
			 "index", rm->subj.index,
			 "total", rm->subj.total,
			 "files", files);
}

static json_t *trailer_json(const struct review *r,
			    const struct review_trailer *t)
{
	const struct review_message *rm = review_find(r, t->given_in);
	json_t *to = json_array();

	for (guint k = 0; k < t->applies_to->len; k++)
		json_array_append_new(to, jstr(t->applies_to->pdata[k]));
	return json_pack("{s:o, s:o, s:o, s:o, s:s, s:o}",
			 "kind", jstr(t->kind),
			 "person_name", jstr(t->name),
			 "person_email", jstr(t->email),
			 "given_in", id_json(rm),
			 "scope", review_scope_name(t->scope),
			 "applies_to", to);
}

enum section { S_MESSAGES, S_PATCHES, S_COMMENTS, S_TRAILERS, S_QUOTED };

static const char *const section_names[] = {
	"messages", "patches", "comments", "trailers", "quoted",
};

static guint section_len(const struct review *r, enum section s)
{
	switch (s) {
	case S_MESSAGES:
	case S_PATCHES:
		return r->messages->len;
	case S_COMMENTS:
		return r->comments->len;
	case S_TRAILERS:
		return r->trailers->len;
	default:
		return r->quoted->len;
	}
}

/* Element i of a section, or NULL when it has none there. */
static json_t *section_elem(const struct review *r, enum section s, guint i)
{
	switch (s) {
	case S_MESSAGES:
		return message_json(r->messages->pdata[i]);
	case S_PATCHES:
		return patch_json(r->messages->pdata[i]);
	case S_COMMENTS:
		return comment_json(r, r->comments->pdata[i]);
	case S_TRAILERS:
		return trailer_json(r, r->trailers->pdata[i]);
	default:
		return quoted_json(r, r->quoted->pdata[i]);
	}
}

json_t *review_to_json(const struct review *r)
{
	json_t *root = json_object();

	for (enum section s = S_MESSAGES; s <= S_TRAILERS; s++) {
		json_t *a = json_array();

		for (guint i = 0; i < section_len(r, s); i++) {
			json_t *e = section_elem(r, s, i);

			if (e)
				json_array_append_new(a, e);
		}
		json_object_set_new(root, section_names[s], a);
	}
	return root;
}

/*
 * The same JSON as text, without building the tree: what jansson's
 * json_dumps() writes with JSON_INDENT(2) | JSON_PRESERVE_ORDER for an
 * element of a top-level array (two levels deep), jstr()'s strings
 * included: invalid UTF-8 made valid; '"', '\\' and the control
 * characters escaped (\b \f \n \r \t, else \u00XX), nothing else.
 */
static void put_str(GString *o, const char *s)
{
	char *valid = NULL;

	if (!s) {
		g_string_append(o, "null");
		return;
	}
	if (!g_utf8_validate(s, -1, NULL))
		s = valid = g_utf8_make_valid(s, -1);
	g_string_append_c(o, '"');
	while (*s) {
		const char *q = s;
		unsigned char c;

		while ((unsigned char)*q >= 0x20 && *q != '"' && *q != '\\')
			q++;
		g_string_append_len(o, s, (gssize)(q - s));
		if (!*q)
			break;
		c = (unsigned char)*q;
		switch (c) {
		case '"': g_string_append(o, "\\\""); break;
		case '\\': g_string_append(o, "\\\\"); break;
		case '\b': g_string_append(o, "\\b"); break;
		case '\f': g_string_append(o, "\\f"); break;
		case '\n': g_string_append(o, "\\n"); break;
		case '\r': g_string_append(o, "\\r"); break;
		case '\t': g_string_append(o, "\\t"); break;
		default: g_string_append_printf(o, "\\u%04X", c); break;
		}
		s = q + 1;
	}
	g_string_append_c(o, '"');
	g_free(valid);
}

/* A member's key: the element's first member opens the object. */
static void put_key(GString *o, const char *key)
{
	g_string_append(o, o->len ? ",\n      \"" : "{\n      \"");
	g_string_append(o, key);
	g_string_append(o, "\": ");
}

static void put_strs(GString *o, const GPtrArray *a)
{
	if (!a || !a->len) {
		g_string_append(o, "[]");
		return;
	}
	g_string_append_c(o, '[');
	for (guint i = 0; i < a->len; i++) {
		g_string_append(o, i ? ",\n        " : "\n        ");
		put_str(o, a->pdata[i]);
	}
	g_string_append(o, "\n      ]");
}

static const char *msg_id(const struct review_message *rm)
{
	return rm ? rm->mail->message_id : NULL;
}

static void put_comment(GString *o, const struct review *r,
			const struct review_comment *c, bool quoted)
{
	const struct review_message *rm = review_find(r, c->reply_id);

	put_key(o, "reply_message_id");
	put_str(o, rm ? msg_id(rm) : c->reply_id);
	put_key(o, "author_email");
	put_str(o, c->author_email ? c->author_email : "");
	put_key(o, "patch_message_id");
	put_str(o, c->patch_id);
	put_key(o, "kind");
	put_str(o, c->is_inline ? "inline" : "general");
	put_key(o, "file");
	put_str(o, c->is_inline ? c->file : NULL);
	put_key(o, "side");
	put_str(o, !c->is_inline ? NULL : c->side == 'o' ? "old" : "new");
	put_key(o, "line");
	if (c->is_inline)
		g_string_append_printf(o, "%d", c->line);
	else
		g_string_append(o, "null");
	put_key(o, "text");
	put_str(o, c->text);
	if (quoted) {
		put_key(o, "author_name");
		put_str(o, c->author_name);
		put_key(o, "quoted_in");
		put_str(o, c->quoted_in);
	}
}

/* Element i of section s into o (left empty when it has none there). */
static void put_elem(GString *o, const struct review *r, enum section s,
		     guint i)
{
	const struct review_message *rm;
	const struct review_trailer *t;
	char *date;

	g_string_truncate(o, 0);
	switch (s) {
	case S_MESSAGES:
		rm = r->messages->pdata[i];
		put_key(o, "message_id");
		put_str(o, msg_id(rm));
		put_key(o, "from_name");
		put_str(o, rm->mail->from_name ? rm->mail->from_name : "");
		put_key(o, "from_email");
		put_str(o, rm->mail->from_email ? rm->mail->from_email : "");
		put_key(o, "date");
		date = iso_date_text(rm->mail);
		put_str(o, date);
		g_free(date);
		put_key(o, "subject");
		put_str(o, rm->mail->subject ? rm->mail->subject : "");
		put_key(o, "in_reply_to");
		put_str(o, rm->mail->in_reply_to);
		put_key(o, "kind");
		put_str(o, kind_name(rm->kind));
		break;
	case S_PATCHES:
		rm = r->messages->pdata[i];
		if (rm->kind == REVIEW_REPLY)
			return;
		put_key(o, "message_id");
		put_str(o, msg_id(rm));
		put_key(o, "kind");
		put_str(o, kind_name(rm->kind));
		put_key(o, "subject");
		put_str(o, rm->mail->subject ? rm->mail->subject : "");
		put_key(o, "version");
		g_string_append_printf(o, "%d", rm->subj.version);
		put_key(o, "index");
		g_string_append_printf(o, "%d", rm->subj.index);
		put_key(o, "total");
		g_string_append_printf(o, "%d", rm->subj.total);
		put_key(o, "files");
		put_strs(o, rm->files);
		break;
	case S_COMMENTS:
		put_comment(o, r, r->comments->pdata[i], false);
		break;
	case S_TRAILERS:
		t = r->trailers->pdata[i];
		put_key(o, "kind");
		put_str(o, t->kind);
		put_key(o, "person_name");
		put_str(o, t->name);
		put_key(o, "person_email");
		put_str(o, t->email);
		put_key(o, "given_in");
		put_str(o, msg_id(review_find(r, t->given_in)));
		put_key(o, "scope");
		put_str(o, review_scope_name(t->scope));
		put_key(o, "applies_to");
		put_strs(o, t->applies_to);
		break;
	default:
		put_comment(o, r, r->quoted->pdata[i], true);
		break;
	}
	g_string_append(o, "\n    }");
}

int review_write_json(const struct review *r, bool quoted, FILE *out)
{
	enum section last = quoted ? S_QUOTED : S_TRAILERS;
	GString *o = g_string_new(NULL);
	int ret = -1;

	if (fputs("{", out) == EOF)
		goto out;
	for (enum section s = S_MESSAGES; s <= last; s++) {
		bool first = true;

		if (fprintf(out, "%s\n  \"%s\": [", s ? "," : "",
			    section_names[s]) < 0)
			goto out;
		for (guint i = 0; i < section_len(r, s); i++) {
			put_elem(o, r, s, i);
			if (!o->len)
				continue;
			if (fputs(first ? "\n    " : ",\n    ", out) == EOF ||
			    fwrite(o->str, 1, o->len, out) != o->len)
				goto out;
			first = false;
		}
		if (fputs(first ? "]" : "\n  ]", out) == EOF)
			goto out;
	}
	ret = fputs("\n}\n", out) == EOF ? -1 : 0;
out:
	g_string_free(o, TRUE);
	return ret;
}
