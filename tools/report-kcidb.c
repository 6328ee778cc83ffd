// SPDX-License-Identifier: GPL-2.0-only
/*
 * report-kcidb.c - check results as KCIDB v5.3 (report-kcidb.h).
 */
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "mail.h"
#include "report-kcidb.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

/* KCIDB caps every log_excerpt at 16384 characters. */
#define EXCERPT_MAX 16000

#define ORIGIN "kseries"

json_t *kcidb_new(void)
{
	return json_pack("{s:{s:i, s:i}, s:[], s:[], s:[]}", "version",
			 "major", 5, "minor", 3, "checkouts", "builds", "tests");
}

static const char *kcidb_status(json_t *st)
{
	const char *status = json_string_value(json_object_get(st, "status"));
	json_t *f;
	size_t i;

	if (!status || !strcmp(status, "fail")) {
		json_array_foreach(json_object_get(st, "findings"), i, f)
			if (!g_strcmp0(json_string_value(json_object_get(f, "severity")),
				       "error"))
				return "FAIL";
		return "ERROR";
	}
	if (!strcmp(status, "pass"))
		return "PASS";
	if (!strcmp(status, "warn"))
		return "FAIL";
	return json_string_value(json_object_get(st, "missing")) ? "MISS" : "SKIP";
}

/* Sets key to text cut to KCIDB's limit at a line end, made UTF-8. */
static void set_excerpt(json_t *obj, const char *text, size_t len)
{
	char *valid;

	if (!len)
		return;
	if (len > EXCERPT_MAX) {
		/* the end of a log says most about its outcome */
		const char *start = text + len - EXCERPT_MAX;
		const char *nl = memchr(start, '\n', EXCERPT_MAX);

		if (nl)
			start = nl + 1;
		len -= (size_t)(start - text);
		text = start;
	}
	valid = g_utf8_make_valid(text, (gssize)len);
	json_object_set_new(obj, "log_excerpt", json_string(valid));
	g_free(valid);
}

/* The stage's findings, one "file:line: severity: message" line each. */
static void findings_excerpt(json_t *obj, json_t *st)
{
	GString *d = g_string_new(NULL);
	json_t *f;
	size_t i;

	json_array_foreach(json_object_get(st, "findings"), i, f) {
		const char *file = json_string_value(json_object_get(f, "file"));
		int line = (int)json_integer_value(json_object_get(f, "line"));

		g_string_append_printf(d, "%s", file && *file ? file : "series");
		if (line)
			g_string_append_printf(d, ":%d", line);
		g_string_append_printf(d, ": %s: %s\n",
			json_string_value(json_object_get(f, "severity")),
			json_string_value(json_object_get(f, "message")));
	}
	set_excerpt(obj, d->str, d->len);
	g_string_free(d, TRUE);
}

/* The stage as it ran: its own status, summary and time. */
static void describe(json_t *obj, json_t *st)
{
	const char *summary = json_string_value(json_object_get(st, "summary"));
	json_t *secs = json_object_get(st, "seconds");

	json_object_set_new(obj, "status", json_string(kcidb_status(st)));
	if (summary && *summary)
		json_object_set_new(obj, "comment", json_string(summary));
	if (json_is_number(secs))
		json_object_set_new(obj, "duration",
				    json_real(json_number_value(secs)));
	json_object_set_new(obj, "misc", json_pack("{s:s, s:b}", "kseries_status",
		json_string_value(json_object_get(st, "status")), "cached",
		json_is_true(json_object_get(st, "cached"))));
	findings_excerpt(obj, st);
}

/* "https://…/" from $KSERIES_LORE (default lore's), or NULL. New string. */
static char *lore_base(void)
{
	const char *base = getenv("KSERIES_LORE");

	if (!base || !*base)
		base = "https://lore.kernel.org/all/";
	if (!g_str_has_prefix(base, "https://"))
		return NULL;
	return g_str_has_suffix(base, "/") ? g_strdup(base) :
					     g_strconcat(base, "/", NULL);
}

/*
 * patchset_hash, as KCIDB defines it: the sha256 of the patch files'
 * sha256 sums, each newline-terminated, in order ("sha256sum *.patch |
 * cut -c-64 | sha256sum"); "" without patches. And patchset_files, the
 * public copies of the posted mails, when every patch has one.
 */
static void add_patchset(json_t *co, const struct series *s, int version)
{
	GPtrArray *files = series_patch_files(s, version, false);
	GChecksum *all = g_checksum_new(G_CHECKSUM_SHA256);
	json_t *list = json_array();
	char *base = lore_base();
	bool public = base != NULL;

	for (guint i = 0; i < files->len; i++) {
		GPtrArray *mails = mail_array_new();
		char *buf, *sum, *name;
		size_t len;

		if (read_file(files->pdata[i], MAIL_MAX_FILE, &buf, &len) < 0) {
			public = false;
			g_ptr_array_unref(mails);
			continue;
		}
		sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
						  (const guchar *)buf, len);
		g_checksum_update(all, (const guchar *)sum, -1);
		g_checksum_update(all, (const guchar *)"\n", 1);
		name = g_path_get_basename(files->pdata[i]);
		if (public && mail_parse_mbox(buf, len, name, mails) == 0 &&
		    mails->len == 1 &&
		    ((struct mail *)mails->pdata[0])->message_id) {
			const struct mail *m = mails->pdata[0];
			char *id = g_uri_escape_string(m->message_id, "@!$&'()*+,;=:",
						       FALSE);
			char *url = g_strconcat(base, id, "/raw", NULL);

			json_array_append_new(list, json_pack("{s:s, s:s}", "name",
							      name, "url", url));
			g_free(url);
			g_free(id);
		} else {
			public = false;
		}
		g_free(name);
		g_free(sum);
		g_free(buf);
		g_ptr_array_unref(mails);
	}
	json_object_set_new(co, "patchset_hash", json_string(files->len ?
			    g_checksum_get_string(all) : ""));
	if (public && files->len)
		json_object_set_new(co, "patchset_files", list);
	else
		json_decref(list);
	g_checksum_free(all);
	g_ptr_array_unref(files);
	g_free(base);
}

/* The checkout: the base, the patches, whether they applied. */
static json_t *checkout(const struct series *s, int version, json_t *checked,
			const char *cid, json_t *apply)
{
	const char *base = json_string_value(json_object_get(checked, "base"));
	const char *tag = series_get(s, "series.base");
	const char *title = series_get(s, "series.title");
	const char *posted = series_version_get(s, version, "message-id");
	char *msgid, *comment;
	json_t *co = json_pack("{s:s, s:s}", "id", cid, "origin", ORIGIN);

	if (base)
		json_object_set_new(co, "git_commit_hash", json_string(base));
	json_object_set_new(co, "git_commit_name", json_string(tag ? tag : WORKBENCH_DEFAULT_BASE));
	add_patchset(co, s, version);
	if (posted) {
		msgid = g_strdup(posted);
		g_strstrip(msgid);
		if (*msgid == '<' && g_str_has_suffix(msgid, ">")) {
			memmove(msgid, msgid + 1, strlen(msgid) - 2);
			msgid[strlen(msgid) - 2] = '\0';
		}
		if (*msgid && strchr(msgid, '@'))
			json_object_set_new(co, "message_id", json_string(msgid));
		g_free(msgid);
	}
	comment = g_strdup_printf("%s v%d%s%s", s->name, version,
				  title ? ": " : "", title ? title : "");
	json_object_set_new(co, "comment", json_string(comment));
	g_free(comment);
	json_object_set_new(co, "misc", json_pack("{s:s, s:i}", "series", s->name,
						  "version", version));
	/* apply is reported when it did not pass, or was asked for */
	if (!apply) {
		json_object_set_new(co, "valid", json_true());
	} else {
		bool ok = strcmp(json_string_value(json_object_get(apply, "status")),
				 "fail") != 0;
		const char *log = json_string_value(json_object_get(apply, "log"));
		char *buf;
		size_t len;

		json_object_set_new(co, "valid", json_boolean(ok));
		if (!ok && log && read_file(log, 64u << 20, &buf, &len) == 0) {
			set_excerpt(co, buf, len);
			g_free(buf);
		} else if (!ok) {
			findings_excerpt(co, apply);
		}
	}
	return co;
}

void kcidb_add_version(json_t *report, const struct series *s, int version,
		       json_t *checked)
{
	char *cid = g_strdup_printf(ORIGIN ":%s-v%d", s->name, version);
	char *bid = g_strdup_printf("%s-build", cid);
	json_t *stages = json_object_get(checked, "stages"), *st, *apply = NULL,
	       *build = NULL, *co;
	GPtrArray *tests = g_ptr_array_new();
	size_t i;

	json_array_foreach(stages, i, st) {
		const char *name = json_string_value(json_object_get(st, "stage"));

		if (!g_strcmp0(name, "apply"))
			apply = st;
		else if (!g_strcmp0(name, "build"))
			build = st;
		else if (name)
			g_ptr_array_add(tests, st);
	}
	/* no patches here (posted elsewhere): nothing was checked out */
	if (apply && !g_strcmp0(json_string_value(json_object_get(apply, "status")),
				"skip"))
		goto out;
	co = checkout(s, version, checked, cid, apply);
	json_array_append_new(json_object_get(report, "checkouts"), co);
	/* the stages ran on an applied series: one build, the tests on it */
	if (json_is_true(json_object_get(co, "valid")) && (build || tests->len)) {
		json_t *b = json_pack("{s:s, s:s, s:s}", "id", bid, "checkout_id",
				      cid, "origin", ORIGIN);

		if (build)
			describe(b, build);
		else
			json_object_set_new(b, "comment", json_string(
				"no kernel build in this check: the stages that ran read the patches and sources"));
		json_array_append_new(json_object_get(report, "builds"), b);
		for (guint k = 0; k < tests->len; k++) {
			const char *name = json_string_value(
				json_object_get(tests->pdata[k], "stage"));
			char *tid = g_strdup_printf("%s-%s", bid, name);
			json_t *t = json_pack("{s:s, s:s, s:s, s:s}", "id", tid,
					      "build_id", bid, "origin", ORIGIN,
					      "path", name);

			describe(t, tests->pdata[k]);
			json_array_append_new(json_object_get(report, "tests"), t);
			g_free(tid);
		}
	}
out:
	g_ptr_array_unref(tests);
	g_free(cid);
	g_free(bid);
}
