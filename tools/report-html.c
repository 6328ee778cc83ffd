// SPDX-License-Identifier: GPL-2.0-only
/*
 * report-html.c - the dashboard: the store and the check results as a
 * static site (report-html.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib.h>
#include <jansson.h>

#include "check.h"
#include "feedback.h"
#include "lore.h"
#include "mail.h"
#include "report-html.h"
#include "series.h"
#include "svgplot.h"
#include "util.h"
#include "version-status.h"
#include "workbench.h"
#include "banned.h"

#define SITE_MARK ".kseries-site"
#define LOG_MAX (64u << 20)	/* a larger log is linked to nowhere */
#define TRACE_MAX (256u << 10)	/* the model's trace shown in the page */
#define CELL_MAX 160		/* characters of a summary in the matrix */
#define TEXT_MAX 4000		/* characters of a comment in the page */

static const char style_css[] =
	"body { font-family: sans-serif; margin: 1.5em; color: #222; background: #fff; }\n"
	"h1, h2, h3 { font-weight: normal; }\n"
	"table { border-collapse: collapse; margin-bottom: 1.5em; }\n"
	"th, td { border: 1px solid #bbb; padding: 0.3em 0.5em; vertical-align: top; text-align: left; }\n"
	"th { background: #eef; }\n"
	".pass { background: #c6efc6; }\n"
	".warn { background: #ffe7a0; }\n"
	".fail { background: #f7b3b3; }\n"
	".skip { background: #e2e2e2; }\n"
	".none { background: #fff; color: #999; }\n"
	".open { background: #ffe7a0; }\n"
	".addressed { background: #c6efc6; }\n"
	".outdated, .wontfix, .unknown { background: #e2e2e2; }\n"
	".sum { font-size: 0.8em; max-width: 18em; }\n"
	".status { font-weight: bold; }\n"
	"pre { background: #f6f6f6; padding: 0.5em; white-space: pre-wrap; max-width: 100em; }\n"
	"code { background: #f0f0f0; }\n"
	"td pre { max-width: 40em; min-width: 22em; overflow-wrap: break-word; margin: 0.2em 0; }\n"
	"td.mail { max-width: 14em; overflow-wrap: anywhere; font-size: 0.8em; }\n"
	"figure { margin: 1em 0; }\n";

struct site {
	char *dir;		/* the staging directory */
	char *lore;		/* lore_base() */
};

/* Appends s as HTML text (or attribute value), valid UTF-8. */
static void esc(GString *out, const char *s)
{
	char *valid = g_utf8_make_valid(s ? s : "", -1);
	char *e = g_markup_escape_text(valid, -1);

	g_string_append(out, e);
	g_free(e);
	g_free(valid);
}

/* esc() of at most max characters, "…" marking a cut. */
static void esc_cut(GString *out, const char *s, glong max)
{
	char *valid = g_utf8_make_valid(s ? s : "", -1);

	if (g_utf8_strlen(valid, -1) > max) {
		char *cut = g_utf8_substring(valid, 0, max);

		esc(out, cut);
		g_string_append(out, "\u2026");
		g_free(cut);
	} else {
		esc(out, valid);
	}
	g_free(valid);
}

/*
 * Appends a path of the site as an attribute value: percent-encoded
 * (a series may be named "a#b" or "a?b"), then HTML-escaped.
 */
static void esc_href(GString *out, const char *rel)
{
	char *u = g_uri_escape_string(rel, "/", FALSE);

	esc(out, u);
	g_free(u);
}

static void page_begin(GString *out, const char *title)
{
	g_string_append(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
			"<meta charset=\"utf-8\">\n<title>");
	esc(out, title);
	g_string_append(out, "</title>\n<link rel=\"stylesheet\" href=\"style.css\">\n"
			"</head>\n<body>\n");
}

static void page_end(GString *out)
{
	g_string_append(out, "</body>\n</html>\n");
}

static int site_put(struct site *site, const char *rel, const char *buf,
		    size_t len)
{
	return write_file_below(site->dir, rel, buf, len);
}

/* The lore link of a Message-ID (with or without <>); new. */
static char *mail_url(const struct site *site, const char *msgid)
{
	char *url = lore_thread_url(site->lore, msgid);
	size_t n = strlen(url), tail = strlen("t.mbox.gz");

	if (n > tail)
		url[n - tail] = '\0';
	return url;
}

static void mail_link(GString *out, const struct site *site, const char *msgid)
{
	char *url = mail_url(site, msgid);

	g_string_append(out, "<a href=\"");
	esc(out, url);
	g_string_append(out, "\">");
	esc(out, msgid);
	g_string_append(out, "</a>");
	g_free(url);
}

/* ---- results ---- */

struct version_results {
	guint n;			/* stages */
	struct stage_result *r;		/* one per stage name */
	bool *have;			/* a result was found */
	char **log;			/* its log in the site, or NULL */
	char *last;			/* the summary file's line, or NULL */
};

static char *results_path(const struct series *s, int v, const char *file)
{
	return g_strdup_printf("%s/results/%s/v%d/%s", cache_dir(), s->name,
			       v, file);
}

/* Copies results/NAME/vN/STAGE.log into the site; its path there, or NULL. */
static char *copy_log(struct site *site, const struct series *s, int v,
		      const char *stage)
{
	char *name = g_strdup_printf("%s.log", stage);
	char *path = results_path(s, v, name);
	char *rel = NULL, *buf;
	size_t len;

	if (is_file(path) && read_file(path, LOG_MAX, &buf, &len) == 0) {
		rel = g_strdup_printf("logs/%s/v%d/%s.log.txt", s->name, v, stage);
		if (site_put(site, rel, buf, len) < 0)
			g_clear_pointer(&rel, g_free);
		g_free(buf);
	}
	g_free(path);
	g_free(name);
	return rel;
}

static void results_load(struct site *site, const struct series *s, int v,
			 struct version_results *vr)
{
	char *sum = results_path(s, v, "summary"), *buf;
	struct version_status vs;
	size_t len;

	vr->n = check_nr_stages;
	vr->r = g_new0(struct stage_result, vr->n);
	vr->have = g_new0(bool, vr->n);
	vr->log = g_new0(char *, vr->n);
	vr->last = NULL;
	/* every stage's result from the version's one summary (or files) */
	version_status_load(s->name, v, VERSION_STATUS_FULL | VERSION_STATUS_KEEP,
			    &vs);
	for (guint i = 0; i < vr->n; i++) {
		const char *name = check_stages[i].name;
		json_t *j = vs.st[i].json;

		stage_result_init(&vr->r[i], name);
		if (j && stage_result_from_json(j, &vr->r[i]) == 0) {
			vr->have[i] = true;
			vr->log[i] = copy_log(site, s, v, name);
		}
	}
	version_status_release(&vs);
	if (is_file(sum) && read_file(sum, 4096, &buf, &len) == 0) {
		vr->last = g_strdup(g_strchomp(buf));
		g_free(buf);
	}
	g_free(sum);
}

static void results_release(struct version_results *vr)
{
	for (guint i = 0; i < vr->n; i++) {
		stage_result_release(&vr->r[i]);
		g_free(vr->log[i]);
	}
	g_free(vr->r);
	g_free(vr->have);
	g_free(vr->log);
	g_free(vr->last);
}

static const char *result_class(const struct version_results *vr, guint i)
{
	return vr->have[i] ? stage_status_name(vr->r[i].status) : "none";
}

/* ---- perf: the samples of the perf stage's log ---- */

/*
 * The perf stage (series/NAME/check/perf, HACKING.md) logs, on stderr,
 * each boot's result lines under a header naming the kernel:
 *
 *	check-base (highres yes):
 *	  binder-throughput: workers=2 ... iter_per_s=8123 p50_us=210 ...
 *	check-tip (highres yes):
 *	  ...
 *
 * (check-base, check-base-2: the base kernel; check-tip…: patched), and
 * per figure the comparison kernel/mann-whitney made of them:
 *
 *	iter_per_s: base MED [MIN-MAX] patched MED [MIN-MAX] U=u n=a+b p=P lower=A|B|none
 *
 * The plot shows the samples; its note gives patched/base of the
 * medians and p, as the stage's summary does.
 */
struct perf_figure {
	char *key;
	double base_med, tip_med;
	char *p;
};

struct perf_data {
	GHashTable *base, *tip;		/* key → GArray of double */
	GPtrArray *figures;		/* struct perf_figure * */
};

static void perf_figure_free(gpointer p)
{
	struct perf_figure *f = p;

	g_free(f->key);
	g_free(f->p);
	g_free(f);
}

static void garray_unref(gpointer a)
{
	g_array_unref(a);
}

static bool parse_double(const char *s, double *out)
{
	char *end;

	if (!*s)
		return false;
	*out = g_ascii_strtod(s, &end);
	return !*end && isfinite(*out);
}

static bool safe_key(const char *k)
{
	if (!*k || strlen(k) > 64)
		return false;
	for (; *k; k++)
		if (!g_ascii_isalnum(*k) && *k != '_')
			return false;
	return true;
}

/* "  prog: k=v k=v": each numeric k=v joins k's sample in table. */
static void perf_samples(GHashTable *table, const char *line)
{
	char **tok = g_strsplit(line, " ", -1);

	for (guint i = 0; tok[i]; i++) {
		char *eq = strchr(tok[i], '=');
		double d;
		GArray *a;

		if (!eq)
			continue;
		*eq = '\0';
		if (!safe_key(tok[i]) || !parse_double(eq + 1, &d))
			continue;
		a = g_hash_table_lookup(table, tok[i]);
		if (!a) {
			a = g_array_new(FALSE, FALSE, sizeof(double));
			g_hash_table_insert(table, g_strdup(tok[i]), a);
		}
		g_array_append_val(a, d);
	}
	g_strfreev(tok);
}

/* "KEY: base MED [..] patched MED [..] U=.. n=.. p=P lower=X", or NULL. */
static struct perf_figure *perf_comparison(const char *line)
{
	char **t = g_strsplit(line, " ", -1);
	guint n = g_strv_length(t);
	struct perf_figure *f = NULL;
	size_t klen = n ? strlen(t[0]) : 0;
	double b, p;

	if (n < 8 || klen < 2 || t[0][klen - 1] != ':' ||
	    strcmp(t[1], "base") || strcmp(t[4], "patched") ||
	    !parse_double(t[2], &b) || !parse_double(t[5], &p))
		goto out;
	t[0][klen - 1] = '\0';
	if (!safe_key(t[0]))
		goto out;
	for (guint i = 6; i < n; i++) {
		if (!starts_with(t[i], "p=") || !t[i][2])
			continue;
		f = g_new0(struct perf_figure, 1);
		f->key = g_strdup(t[0]);
		f->base_med = b;
		f->tip_med = p;
		f->p = g_strdup(t[i] + 2);
		break;
	}
out:
	g_strfreev(t);
	return f;
}

static void perf_parse(const char *log, struct perf_data *pd)
{
	char **lines = g_strsplit(log, "\n", -1);
	GHashTable *cur = NULL;

	pd->base = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					 garray_unref);
	pd->tip = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					garray_unref);
	pd->figures = g_ptr_array_new_with_free_func(perf_figure_free);
	for (guint i = 0; lines[i]; i++) {
		const char *l = lines[i];
		size_t len = strlen(l);
		struct perf_figure *f;

		if (starts_with(l, "  ") && cur) {
			perf_samples(cur, l);
		} else if (len && l[len - 1] == ':' && !strchr(l, '=')) {
			cur = starts_with(l, "check-base") ? pd->base :
			      starts_with(l, "check-tip") ? pd->tip : NULL;
		} else if ((f = perf_comparison(l))) {
			g_ptr_array_add(pd->figures, f);
			cur = NULL;
		} else {
			cur = NULL;
		}
	}
	g_strfreev(lines);
}

static void perf_release(struct perf_data *pd)
{
	g_hash_table_unref(pd->base);
	g_hash_table_unref(pd->tip);
	g_ptr_array_unref(pd->figures);
}

/* The plots of the version's perf log, as <figure>s into page. */
static void perf_section(struct site *site, const struct series *s, int v,
			 GString *page)
{
	char *path = results_path(s, v, "perf.log"), *log;
	struct perf_data pd;
	size_t len;
	bool any = false;

	if (!is_file(path) || read_file(path, LOG_MAX, &log, &len) < 0) {
		g_free(path);
		return;
	}
	perf_parse(log, &pd);
	for (guint i = 0; i < pd.figures->len; i++) {
		const struct perf_figure *f = pd.figures->pdata[i];
		GArray *b = g_hash_table_lookup(pd.base, f->key);
		GArray *t = g_hash_table_lookup(pd.tip, f->key);
		struct svgplot_sample smp[2];
		char *note, *svg, *rel;

		if (!b || !t)
			continue;
		smp[0] = (struct svgplot_sample){ "base", (double *)b->data, b->len };
		smp[1] = (struct svgplot_sample){ "patched", (double *)t->data, t->len };
		note = g_strdup_printf("patched/base %.2fx, Mann-Whitney p=%s",
				       f->base_med > 0 ? f->tip_med / f->base_med : 0,
				       f->p);
		svg = svgplot_box(f->key, note, smp, 2);
		rel = g_strdup_printf("%s-v%d-perf-%s.svg", s->name, v, f->key);
		if (svg && site_put(site, rel, svg, strlen(svg)) == 0) {
			if (!any)
				g_string_append(page, "<h2>perf: base against patched</h2>\n");
			any = true;
			g_string_append(page, "<figure><img src=\"");
			esc_href(page, rel);
			g_string_append(page, "\" alt=\"");
			esc(page, f->key);
			g_string_append(page, "\"><figcaption>");
			esc(page, f->key);
			g_string_append(page, ": ");
			esc(page, note);
			g_string_append(page, "</figcaption></figure>\n");
		}
		g_free(rel);
		g_free(svg);
		g_free(note);
	}
	perf_release(&pd);
	g_free(log);
	g_free(path);
}

/* ---- the version page ---- */

static void esc_basename(GString *page, const char *path)
{
	char *b = g_path_get_basename(path);

	esc(page, b);
	g_free(b);
}

static void patches_section(const struct series *s, int v, GString *page)
{
	GPtrArray *files = series_patch_files(s, v, true);

	g_string_append(page, "<h2>Patches</h2>\n<ul>\n");
	for (guint i = 0; i < files->len; i++) {
		GPtrArray *mails = mail_array_new();

		g_string_append(page, "<li>");
		if (mail_read_mbox(files->pdata[i], mails) == 0 && mails->len)
			esc(page, ((struct mail *)mails->pdata[0])->subject);
		else
			esc_basename(page, files->pdata[i]);
		g_string_append(page, "</li>\n");
		g_ptr_array_unref(mails);
	}
	if (!files->len)
		g_string_append(page, "<li>(no patches here)</li>\n");
	g_string_append(page, "</ul>\n");
	g_ptr_array_unref(files);
}

static void log_link(GString *page, const char *log)
{
	if (!log)
		return;
	g_string_append(page, " <a href=\"");
	esc_href(page, log);
	g_string_append(page, "\">log</a>");
}

static void findings_list(const struct stage_result *r, const char *log,
			  GString *page)
{
	g_string_append(page, "<ul>\n");
	for (guint k = 0; k < r->findings->len; k++) {
		const struct finding *f = r->findings->pdata[k];

		g_string_append(page, "<li><code>");
		esc(page, f->file && *f->file ? f->file : r->name);
		if (f->line)
			g_string_append_printf(page, ":%d", f->line);
		g_string_append(page, "</code> ");
		esc(page, severity_name(f->sev));
		g_string_append(page, ": ");
		esc(page, f->message);
		if (f->patch)
			g_string_append_printf(page, " (patch %d)", f->patch);
		log_link(page, log);
		g_string_append(page, "</li>\n");
	}
	g_string_append(page, "</ul>\n");
}

static void stages_section(const struct version_results *vr, GString *page)
{
	g_string_append(page, "<h2>Stages</h2>\n<table>\n<tr><th>stage</th>"
			"<th>status</th><th>summary</th><th>findings</th></tr>\n");
	for (guint i = 0; i < vr->n; i++) {
		const struct stage_result *r = &vr->r[i];

		g_string_append_printf(page, "<tr class=\"%s\"><td>%s</td>",
				       result_class(vr, i), r->name);
		if (!vr->have[i]) {
			g_string_append(page, "<td>-</td><td>not checked</td><td></td></tr>\n");
			continue;
		}
		g_string_append_printf(page, "<td class=\"status\">%s</td><td>",
				       stage_status_name(r->status));
		esc(page, r->summary);
		if (r->cached)
			g_string_append(page, " (cached)");
		log_link(page, vr->log[i]);
		g_string_append(page, "</td><td>");
		if (r->findings->len)
			findings_list(r, vr->log[i], page);
		g_string_append(page, "</td></tr>\n");
	}
	g_string_append(page, "</table>\n");
}

/* The model stage's log when it failed: its counterexample. */
static void model_section(const struct series *s, int v,
			  const struct version_results *vr, GString *page)
{
	char *path, *buf;
	size_t len;

	for (guint i = 0; i < vr->n; i++) {
		if (strcmp(vr->r[i].name, "model") || !vr->have[i] ||
		    vr->r[i].status != ST_FAIL)
			continue;
		path = results_path(s, v, "model.log");
		g_string_append(page, "<h2>model: the trace</h2>\n");
		if (is_file(path) && read_file(path, LOG_MAX, &buf, &len) == 0) {
			g_string_append(page, "<pre class=\"trace\">");
			esc_cut(page, buf, TRACE_MAX);
			g_string_append(page, "</pre>\n");
			g_free(buf);
		} else {
			g_string_append(page, "<p>(no log)</p>\n");
		}
		g_free(path);
	}
}

static void review_row(const struct site *site, const struct feedback_item *it,
		       enum feedback_status st, GString *page)
{
	const char *name = feedback_status_name(st);

	g_string_append_printf(page, "<tr><td><code>%s</code></td>"
			       "<td class=\"%s\">%s%s</td><td>", it->id, name,
			       name, it->status ? " (set by the author)" : "");
	esc(page, it->from);
	g_string_append_printf(page, "<div class=\"sum\">on v%d</div></td><td>",
			       it->version);
	if (it->patch_index > 0)
		g_string_append_printf(page, "%d: ", it->patch_index);
	esc(page, it->patch_subject);
	g_string_append(page, "</td><td>");
	if (it->file) {
		g_string_append(page, "<code>");
		esc(page, it->file);
		g_string_append_printf(page, ":%d</code> (%s)", it->line,
				       it->side == 'o' ? "old" : "new");
	}
	if (it->quote) {
		g_string_append(page, "<pre>");
		esc(page, it->quote);
		g_string_append(page, "</pre>");
	}
	g_string_append(page, "</td><td>");
	if (it->trailer)
		esc(page, it->trailer);
	else {
		g_string_append(page, "<pre>");
		esc_cut(page, it->text, TEXT_MAX);
		g_string_append(page, "</pre>");
	}
	if (it->note) {
		g_string_append(page, "<p>note: ");
		esc(page, it->note);
		g_string_append(page, "</p>");
	}
	g_string_append(page, "</td><td class=\"mail\">");
	if (it->message_id)
		mail_link(page, site, it->message_id);
	g_string_append(page, "</td></tr>\n");
}

static void review_section(const struct site *site, int v, GPtrArray *items,
			   struct feedback_ctx *fctx, GString *page)
{
	bool any = false;

	g_string_append(page, "<h2>Review</h2>\n");
	for (guint i = 0; i < items->len; i++) {
		const struct feedback_item *it = items->pdata[i];
		int paired;

		if (it->version > v)
			continue;
		if (!any)
			g_string_append(page, "<table>\n<tr><th>id</th><th>status</th>"
					"<th>from</th><th>patch</th><th>quoted line</th>"
					"<th>comment</th><th>mail</th></tr>\n");
		any = true;
		review_row(site, it, feedback_status_at(fctx, it, v, &paired), page);
	}
	g_string_append(page, any ? "</table>\n" : "<p>No review items.</p>\n");
}

static void version_header(const struct site *site, const struct series *s,
			   int v, GString *page)
{
	static const char *const keys[] = { "origin", "date", "author" };
	const char *msgid = series_version_get(s, v, "message-id");

	g_string_append(page, "<p><a href=\"index.html\">all series</a></p>\n<h1>");
	esc(page, s->name);
	g_string_append_printf(page, " v%d</h1>\n<p>", v);
	esc(page, series_get(s, "series.title"));
	g_string_append(page, "</p>\n<ul>\n");
	for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) {
		const char *val = series_version_get(s, v, keys[i]);

		if (!val)
			continue;
		g_string_append_printf(page, "<li>%s: ", keys[i]);
		esc(page, val);
		g_string_append(page, "</li>\n");
	}
	if (msgid) {
		g_string_append(page, "<li>posted as ");
		mail_link(page, site, msgid);
		g_string_append(page, "</li>\n");
	}
	g_string_append(page, "</ul>\n");
}

static int version_page(struct site *site, const struct series *s, int v,
			const struct version_results *vr, GPtrArray *items,
			struct feedback_ctx *fctx)
{
	GString *page = g_string_new(NULL);
	char *title = g_strdup_printf("%s v%d", s->name, v);
	char *rel = g_strdup_printf("%s-v%d.html", s->name, v);
	int ret;

	page_begin(page, title);
	version_header(site, s, v, page);
	patches_section(s, v, page);
	stages_section(vr, page);
	perf_section(site, s, v, page);
	model_section(s, v, vr, page);
	review_section(site, v, items, fctx, page);
	page_end(page);
	ret = site_put(site, rel, page->str, page->len);
	g_string_free(page, TRUE);
	g_free(rel);
	g_free(title);
	return ret;
}

/* ---- the index ---- */

static void index_row(GString *index, const struct series *s, int v,
		      const struct version_results *vr)
{
	char *page = g_strdup_printf("%s-v%d.html", s->name, v);

	g_string_append(index, "<tr><td><a href=\"");
	esc_href(index, page);
	g_string_append_printf(index, "\">v%d</a>", v);
	g_free(page);
	if (series_version_get(s, v, "origin")) {
		g_string_append(index, "<div class=\"sum\">");
		esc(index, series_version_get(s, v, "origin"));
		g_string_append(index, "</div>");
	}
	if (vr->last) {
		g_string_append(index, "<div class=\"sum\">last check: ");
		esc(index, vr->last);
		g_string_append(index, "</div>");
	}
	g_string_append(index, "</td>");
	for (guint i = 0; i < vr->n; i++) {
		const struct stage_result *r = &vr->r[i];

		g_string_append_printf(index, "<td class=\"%s\">", result_class(vr, i));
		if (vr->have[i]) {
			g_string_append_printf(index, "<span class=\"status\">%s</span>",
					       stage_status_name(r->status));
			if (r->findings->len)
				g_string_append_printf(index, " (%u)", r->findings->len);
			g_string_append(index, "<div class=\"sum\" title=\"");
			esc(index, r->summary);
			g_string_append(index, "\">");
			esc_cut(index, r->summary, CELL_MAX);
			g_string_append(index, "</div>");
		} else {
			g_string_append(index, "-");
		}
		g_string_append(index, "</td>");
	}
	g_string_append(index, "</tr>\n");
}

static int series_site(struct site *site, const char *name, GString *index)
{
	struct series s;
	GArray *versions;
	GPtrArray *items;
	struct feedback_ctx *fctx;
	int ret = 0;

	if (series_load(name, &s) < 0)
		return -1;
	items = g_ptr_array_new_with_free_func((GDestroyNotify)feedback_item_free);
	if (feedback_load(&s, items) < 0)
		ret = -1;
	fctx = feedback_ctx_new(&s);
	versions = series_versions(&s);
	g_string_append(index, "<h2>");
	esc(index, s.name);
	g_string_append(index, "</h2>\n<p>");
	esc(index, series_get(&s, "series.title"));
	if (series_state(&s) == SERIES_WITHDRAWN) {
		g_string_append(index, "</p>\n<p class=\"withdrawn\"><b>withdrawn</b>: ");
		esc(index, series_state_reason(&s));
	}
	g_string_append(index, "</p>\n<table>\n<tr><th>version</th>");
	for (size_t i = 0; i < check_nr_stages; i++)
		g_string_append_printf(index, "<th>%s</th>", check_stages[i].name);
	g_string_append(index, "</tr>\n");
	for (guint k = 0; k < versions->len && ret == 0; k++) {
		int v = g_array_index(versions, int, k);
		struct version_results vr;

		results_load(site, &s, v, &vr);
		index_row(index, &s, v, &vr);
		ret = version_page(site, &s, v, &vr, items, fctx);
		results_release(&vr);
	}
	g_string_append(index, "</table>\n");
	g_array_unref(versions);
	feedback_ctx_free(fctx);
	g_ptr_array_unref(items);
	series_release(&s);
	return ret;
}

static int site_build(struct site *site)
{
	GPtrArray *names = series_list_names();
	GString *index = g_string_new(NULL);
	int ret = 0;

	page_begin(index, "kseries: the series");
	g_string_append(index, "<h1>kseries: the series</h1>\n"
			"<p>Each cell: a stage's last result for the version "
			"(pass, warn, fail, skip; - not checked), with its "
			"summary. A version's page has the findings, the logs, "
			"the perf plots and the review.</p>\n");
	for (guint i = 0; i < names->len && ret == 0; i++)
		ret = series_site(site, names->pdata[i], index);
	if (!names->len)
		g_string_append(index, "<p>No series in the store.</p>\n");
	page_end(index);
	if (ret == 0)
		ret = site_put(site, "style.css", style_css, strlen(style_css));
	if (ret == 0)
		ret = site_put(site, SITE_MARK, "kseries status --html\n",
			       strlen("kseries status --html\n"));
	if (ret == 0)
		ret = site_put(site, "index.html", index->str, index->len);
	g_string_free(index, TRUE);
	g_ptr_array_unref(names);
	return ret;
}

/* ---- into place ---- */

/* 1: dir is a site to replace, 0: absent, -1: refused (error printed). */
static int site_target(const char *dir)
{
	struct stat st;
	char *mark;
	GDir *d;
	bool empty;
	int ret;

	if (lstat(dir, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		return error_errno("cannot read '%s'", dir);
	}
	if (S_ISLNK(st.st_mode))
		return error("'%s' is a symbolic link: not writing through it", dir);
	if (!S_ISDIR(st.st_mode))
		return error("'%s' exists and is not a directory", dir);
	d = g_dir_open(dir, 0, NULL);
	if (!d)
		return error("cannot read '%s'", dir);
	empty = !g_dir_read_name(d);
	g_dir_close(d);
	mark = g_build_filename(dir, SITE_MARK, NULL);
	ret = empty || is_file(mark) ? 1 :
	      error("'%s' is not empty and holds no site kseries wrote: not replacing it",
		    dir);
	g_free(mark);
	return ret;
}

static int site_install(const char *staging, const char *dir, bool replace)
{
	char *old;
	int ret = 0;

	if (!replace) {
		if (rename(staging, dir) < 0)
			return error_errno("cannot rename '%s' to '%s'", staging, dir);
		return 0;
	}
	if (renameat2(AT_FDCWD, staging, AT_FDCWD, dir, RENAME_EXCHANGE) == 0) {
		/* staging is the old site now */
		if (remove_tree(staging) < 0)
			warning("the old site stays at '%s'", staging);
		return 0;
	}
	if (errno != EINVAL && errno != ENOSYS)
		return error_errno("cannot exchange '%s' and '%s'", staging, dir);
	/* no RENAME_EXCHANGE here: a moment without dir, never a mixed one */
	old = g_strdup_printf("%s.old", staging);
	if (rename(dir, old) < 0)
		ret = error_errno("cannot rename '%s'", dir);
	else if (rename(staging, dir) < 0) {
		ret = error_errno("cannot rename '%s' to '%s'", staging, dir);
		if (rename(old, dir) < 0)
			warning("the old site stays at '%s'", old);
	}
	if (ret == 0 && remove_tree(old) < 0)
		warning("the old site stays at '%s'", old);
	g_free(old);
	return ret;
}

int report_html_write(const char *path)
{
	struct site site = { 0 };
	char *dir = g_strdup(path), *parent, *base, *tmpl = NULL;
	size_t n = strlen(dir);
	int exists, ret = -1;

	/* "link/" would resolve the link: the name itself is checked */
	while (n > 1 && dir[n - 1] == '/')
		dir[--n] = '\0';
	parent = g_path_get_dirname(dir);
	base = g_path_get_basename(dir);
	exists = site_target(dir);
	if (exists < 0)
		goto out;
	if (!is_dir(parent)) {
		error("no directory '%s' to write '%s' in", parent, dir);
		goto out;
	}
	site.lore = lore_base();
	if (!site.lore)
		goto out;
	tmpl = g_strdup_printf("%s/.%s.tmp-XXXXXX", parent, base);
	if (!g_mkdtemp_full(tmpl, 0777)) {
		error_errno("cannot make a directory in '%s'", parent);
		goto out;
	}
	site.dir = tmpl;
	ret = site_build(&site);
	if (ret == 0)
		ret = site_install(site.dir, dir, exists);
	if (ret < 0)
		remove_tree(site.dir);
out:
	g_free(site.lore);
	g_free(tmpl);
	g_free(parent);
	g_free(base);
	g_free(dir);
	return ret;
}
