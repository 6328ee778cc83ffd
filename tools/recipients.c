// SPDX-License-Identifier: GPL-2.0-only
/*
 * recipients.c - To/Cc of a version: series.conf, MAINTAINERS-notes/,
 * get_maintainer.pl.
 */
#include <fnmatch.h>
#include <string.h>

#include "mail.h"
#include "recipients.h"
#include "run.h"
#include "util.h"
#include "banned.h"

void recipients_init(struct recipients *r)
{
	r->to = g_ptr_array_new_with_free_func(g_free);
	r->cc = g_ptr_array_new_with_free_func(g_free);
	r->prefixes = g_ptr_array_new_with_free_func(g_free);
	r->trees = g_ptr_array_new_with_free_func(g_free);
	r->matched = g_ptr_array_new_with_free_func(g_free);
	r->notes = g_ptr_array_new_with_free_func(g_free);
}

void recipients_release(struct recipients *r)
{
	g_ptr_array_unref(r->to);
	g_ptr_array_unref(r->cc);
	g_ptr_array_unref(r->prefixes);
	g_ptr_array_unref(r->trees);
	g_ptr_array_unref(r->matched);
	g_ptr_array_unref(r->notes);
	memset(r, 0, sizeof(*r));
}

char *recipients_addr(const char *who)
{
	const char *lt = strrchr(who, '<');
	char *a, *low;

	if (lt) {
		const char *gt = strchr(lt, '>');

		a = gt ? g_strndup(lt + 1, gt - lt - 1) : g_strdup(lt + 1);
	} else {
		a = g_strdup(who);
	}
	g_strstrip(a);
	low = g_ascii_strdown(a, -1);
	g_free(a);
	return low;
}

static bool addr_in(const GPtrArray *list, const char *addr)
{
	for (guint i = 0; list && i < list->len; i++) {
		char *o = recipients_addr(list->pdata[i]);
		bool eq = !strcmp(o, addr);

		g_free(o);
		if (eq)
			return true;
	}
	return false;
}

/* get_maintainer.pl quotes names with non-ASCII letters: unquote them. */
static char *clean_who(const char *who)
{
	char *w = g_strdup(who);
	g_strstrip(w);
	if (w[0] == '"') {
		const char *q = strchr(w + 1, '"');

		if (q && q[1] == ' ' && q[2] == '<' && !memchr(w + 1, ',', q - w - 1)) {
			char *r = g_strdup_printf("%.*s%s", (int)(q - w - 1),
						  w + 1, q + 1);

			g_free(w);
			return r;
		}
	}
	return w;
}

/* An addr-spec as recipients_addr_ok() wants it: p, len bytes. */
static bool addr_spec_ok(const char *p, size_t len)
{
	const char *at = memchr(p, '@', len);

	if (!at || at == p || at == p + len - 1 || *p == '-' ||
	    memchr(at + 1, '@', len - (size_t)(at + 1 - p)) ||
	    at[1] == '-' || at[1] == '.')
		return false;
	for (size_t i = 0; i < len; i++)
		if (strchr(" \t<>()[],;:\\\"", p[i]))
			return false;
	return true;
}

bool recipients_addr_ok(const char *who)
{
	const char *lt, *gt, *s = who, *e = who + strlen(who);
	bool quoted = false;

	for (const char *c = who; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return false;
	while (s < e && *s == ' ')
		s++;
	while (e > s && e[-1] == ' ')
		e--;
	lt = memchr(s, '<', (size_t)(e - s));
	if (!lt)
		return addr_spec_ok(s, (size_t)(e - s));
	gt = memchr(lt, '>', (size_t)(e - lt));
	if (!gt || gt != e - 1 || memchr(lt + 1, '<', (size_t)(e - lt - 1)))
		return false;
	for (const char *c = s; c < lt; c++) {
		if (*c == '"')
			quoted = !quoted;
		else if (!quoted && strchr(",;<>", *c))
			return false;
	}
	return !quoted && addr_spec_ok(lt + 1, (size_t)(gt - lt - 1));
}

bool recipients_add(GPtrArray *list, const GPtrArray *also, const char *who)
{
	char *w = clean_who(who);
	char *addr = recipients_addr(w);
	bool added = false;

	if (recipients_addr_ok(w) && !addr_in(list, addr) &&
	    !addr_in(also, addr)) {
		g_ptr_array_add(list, w);
		w = NULL;
		added = true;
	}
	g_free(w);
	g_free(addr);
	return added;
}

void maint_note_free(struct maint_note *n)
{
	if (!n)
		return;
	g_free(n->name);
	g_ptr_array_unref(n->to);
	g_ptr_array_unref(n->cc);
	g_ptr_array_unref(n->lists);
	g_ptr_array_unref(n->trees);
	g_ptr_array_unref(n->prefixes);
	g_ptr_array_unref(n->paths);
	g_free(n);
}

struct maint_note *maint_note_parse(const char *buf, size_t len,
				    const char *name)
{
	struct maint_note *n = g_new0(struct maint_note, 1);
	char *text = g_strndup(buf, len);
	char **lines = g_strsplit(text, "\n", -1);

	n->name = g_strdup(name);
	n->to = g_ptr_array_new_with_free_func(g_free);
	n->cc = g_ptr_array_new_with_free_func(g_free);
	n->lists = g_ptr_array_new_with_free_func(g_free);
	n->trees = g_ptr_array_new_with_free_func(g_free);
	n->prefixes = g_ptr_array_new_with_free_func(g_free);
	n->paths = g_ptr_array_new_with_free_func(g_free);
	for (char **l = lines; *l && **l; l++) {
		char *colon = strchr(*l, ':');
		char *key, *val;

		if (!colon)
			continue;
		key = g_ascii_strdown(*l, colon - *l);
		val = g_strstrip(g_strdup(colon + 1));
		if (!strcmp(key, "to"))
			g_ptr_array_add(n->to, g_strdup(val));
		else if (!strcmp(key, "cc"))
			g_ptr_array_add(n->cc, g_strdup(val));
		else if (!strcmp(key, "list"))
			g_ptr_array_add(n->lists, g_strdup(val));
		else if (!strcmp(key, "tree"))
			g_ptr_array_add(n->trees, g_strdup(val));
		else if (!strcmp(key, "prefix"))
			g_ptr_array_add(n->prefixes, g_strdup(val));
		else if (!strcmp(key, "paths")) {
			char **globs = g_strsplit_set(val, " \t", -1);

			for (char **g = globs; *g; g++)
				if (**g)
					g_ptr_array_add(n->paths, g_strdup(*g));
			g_strfreev(globs);
		}
		g_free(key);
		g_free(val);
	}
	g_strfreev(lines);
	g_free(text);
	return n;
}

bool maint_note_matches(const struct maint_note *n, const char *path)
{
	for (guint i = 0; i < n->paths->len; i++) {
		const char *g = n->paths->pdata[i];
		size_t gl = strlen(g);

		/* "dir/" as in MAINTAINERS' F: covers the whole directory */
		if (gl && g[gl - 1] == '/' && !strncmp(path, g, gl))
			return true;
		/* no FNM_PATHNAME: '*' also matches '/' */
		if (!fnmatch(g, path, 0))
			return true;
	}
	return false;
}

/* Adds path (taken) to out unless already there. */
static void add_path(GPtrArray *out, char *path)
{
	for (guint i = 0; i < out->len; i++) {
		if (!strcmp(out->pdata[i], path)) {
			g_free(path);
			return;
		}
	}
	g_ptr_array_add(out, path);
}

bool maint_prefix_ok(const GPtrArray *prefixes, const char *title)
{
	size_t tl = strlen(title);

	for (guint i = 0; i < prefixes->len; i++) {
		const char *p = prefixes->pdata[i];
		size_t pl = strlen(p);

		if (pl && p[pl - 1] == ':')
			pl--;
		if (!pl || tl <= pl || g_ascii_strncasecmp(title, p, pl))
			continue;
		/* the prefix ends a component: "usb: gadget" in "usb: gadget: x" */
		if (title[pl] == '/' || (title[pl] == ':' && title[pl + 1] == ' '))
			return true;
	}
	return false;
}

void recipients_touched(const char *mail, size_t len, GPtrArray *out)
{
	char *text = g_strndup(mail, len);
	char **lines = g_strsplit(text, "\n", -1);

	for (char **l = lines; *l; l++) {
		const char *p;

		if (!starts_with(*l, "diff --git a/"))
			continue;
		p = strstr(*l, " b/");
		if (!p)
			continue;
		add_path(out, g_strndup(*l + 13, p - (*l + 13)));
		add_path(out, g_strdup(p + 3));
	}
	g_strfreev(lines);
	g_free(text);
}

/* a note: no dotfile, not the README */
static bool note_name(const char *dir, const char *name, void *data)
{
	(void)dir;
	(void)data;
	return name[0] != '.' && strcmp(name, "README");
}

int maint_notes_read(GPtrArray *notes)
{
	const char *top = store_top();
	char *dir;
	GPtrArray *names;
	int ret = 0;

	if (!top)
		return 0;
	dir = g_build_filename(top, "MAINTAINERS-notes", NULL);
	names = dir_names_sorted(dir, note_name, NULL);
	for (guint i = 0; i < names->len; i++) {
		char *p = g_build_filename(dir, names->pdata[i], NULL);
		char *buf;
		size_t len;

		if (is_file(p)) {
			if (read_file(p, 1u << 20, &buf, &len) < 0) {
				ret = -1;
			} else {
				g_ptr_array_add(notes,
						maint_note_parse(buf, len,
								 names->pdata[i]));
				g_free(buf);
			}
		}
		g_free(p);
	}
	g_ptr_array_unref(names);
	g_free(dir);
	return ret;
}

/*
 * recipients_add(), and a note in r when who is not one recipient (from
 * says where it came from); the note shows who escaped.
 */
static void add_noted(struct recipients *r, GPtrArray *list,
		      const GPtrArray *also, const char *who, const char *from)
{
	char *esc;

	if (recipients_add(list, also, who) || recipients_addr_ok(who))
		return;
	if (!strchr(who, '@'))
		return;
	esc = g_strescape(who, NULL);
	g_ptr_array_add(r->notes, g_strdup_printf(
		"left out a malformed address from %s: '%s'", from, esc));
	g_free(esc);
}

static void run_get_maintainer(GPtrArray *files, const char *tree,
			       struct recipients *r)
{
	char *script = g_build_filename(tree, "scripts", "get_maintainer.pl",
					NULL);
	char *maint = g_build_filename(tree, "MAINTAINERS", NULL);
	GPtrArray *argv;
	struct run_opts o = { .dir = tree, .capture_out = true,
			      .capture_err = true, .timeout = 120 };
	struct run_result res;

	if (!is_file(script) || !is_file(maint)) {
		g_ptr_array_add(r->notes, g_strdup_printf(
			"get_maintainer.pl not run: no %s in %s",
			is_file(script) ? "MAINTAINERS" :
					  "scripts/get_maintainer.pl", tree));
		goto out;
	}
	argv = g_ptr_array_new();
	g_ptr_array_add(argv, (char *)"perl");
	g_ptr_array_add(argv, script);
	g_ptr_array_add(argv, (char *)"--no-rolestats");
	g_ptr_array_add(argv, (char *)"--no-git");
	g_ptr_array_add(argv, (char *)"--no-git-fallback");
	for (guint i = 0; i < files->len; i++)
		g_ptr_array_add(argv, files->pdata[i]);
	g_ptr_array_add(argv, NULL);
	if (run_argv((const char *const *)argv->pdata, &o, &res) == 0) {
		if (res.status == 0) {
			char **lines = g_strsplit(res.out->str, "\n", -1);

			for (char **l = lines; *l; l++) {
				g_strstrip(*l);
				if (!**l || !strchr(*l, '@'))
					continue;
				if (strchr(*l, '<'))
					add_noted(r, r->to, NULL, *l,
						  "get_maintainer.pl");
				else
					add_noted(r, r->cc, r->to, *l,
						  "get_maintainer.pl");
			}
			g_strfreev(lines);
		} else {
			g_strchomp(res.err->str);
			g_ptr_array_add(r->notes, g_strdup_printf(
				"get_maintainer.pl failed: %s", res.err->str));
		}
	}
	run_result_release(&res);
	g_ptr_array_unref(argv);
out:
	g_free(script);
	g_free(maint);
}

int recipients_collect(const struct series *s, GPtrArray *files,
		       const char *tree, struct recipients *r)
{
	GPtrArray *notes = g_ptr_array_new_with_free_func(
		(GDestroyNotify)maint_note_free);
	GPtrArray *touched = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *v;
	int ret = 0;

	v = series_get_all(s, "series.to");
	for (guint i = 0; v && i < v->len; i++)
		add_noted(r, r->to, NULL, v->pdata[i], "series.to");
	v = series_get_all(s, "series.cc");
	for (guint i = 0; v && i < v->len; i++)
		add_noted(r, r->cc, r->to, v->pdata[i], "series.cc");

	for (guint i = 0; i < files->len; i++) {
		char *buf;
		size_t len;

		if (read_file(files->pdata[i], MAIL_MAX_FILE, &buf, &len) < 0) {
			ret = -1;
			goto out;
		}
		recipients_touched(buf, len, touched);
		g_free(buf);
	}
	if (maint_notes_read(notes) < 0) {
		ret = -1;
		goto out;
	}
	for (guint i = 0; i < notes->len; i++) {
		struct maint_note *n = notes->pdata[i];
		bool match = false;

		for (guint k = 0; !match && k < touched->len; k++)
			match = maint_note_matches(n, touched->pdata[k]);
		if (!match)
			continue;
		g_ptr_array_add(r->matched, g_strdup(n->name));
		for (guint k = 0; k < n->to->len; k++)
			add_noted(r, r->to, NULL, n->to->pdata[k], n->name);
		for (guint k = 0; k < n->cc->len; k++)
			add_noted(r, r->cc, r->to, n->cc->pdata[k], n->name);
		for (guint k = 0; k < n->prefixes->len; k++)
			g_ptr_array_add(r->prefixes,
					g_strdup(n->prefixes->pdata[k]));
		for (guint k = 0; k < n->trees->len; k++)
			g_ptr_array_add(r->trees, g_strdup(n->trees->pdata[k]));
	}
	if (tree)
		run_get_maintainer(files, tree, r);
	else
		g_ptr_array_add(r->notes, g_strdup(
			"get_maintainer.pl not run: no base tree"));
	/* a person first met in Cc and later in To stays in To only */
	for (guint i = 0; i < r->cc->len; i++) {
		char *a = recipients_addr(r->cc->pdata[i]);

		if (addr_in(r->to, a))
			g_ptr_array_remove_index(r->cc, i--);
		g_free(a);
	}
out:
	g_ptr_array_unref(notes);
	g_ptr_array_unref(touched);
	return ret;
}
