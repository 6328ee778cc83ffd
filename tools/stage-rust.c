// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-rust.c - the Rust binder built with clippy and rustfmtcheck, new findings only.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stage.h"
#include "util.h"
#include "banned.h"

/* rustc and clippy diagnostics: "warning: …" then "--> file:line:col" */
static void parse_rustc(struct check_ctx *ctx, const char *text,
			struct stage_result *into)
{
	char **lines = g_strsplit(text, "\n", -1);
	const char *msg = NULL;
	enum severity sev = SEV_WARNING;

	for (char **l = lines; *l; l++) {
		char *t = g_strstrip(g_strdup(*l));

		if (g_str_has_prefix(t, "warning: ") || g_str_has_prefix(t, "error: ")) {
			sev = t[0] == 'w' ? SEV_WARNING : SEV_ERROR;
			msg = *l + (strstr(*l, ": ") - *l) + 2;
		} else if (g_str_has_prefix(t, "--> ") && msg) {
			char *file = g_strdup(t + 4);
			char *c = strchr(file, ':');
			int line = c ? atoi(c + 1) : 0;

			if (c)
				*c = '\0';
			stage_finding(into, "clippy",
				      AT(stage_tree_relative(ctx, file), line, 0),
				      sev, "%s", msg);
			g_free(file);
			msg = NULL;
		}
		g_free(t);
	}
	g_strfreev(lines);
}

/*
 * rustfmtcheck's "Diff in FILE:N:" lines (rustfmt 1.5 and later; older
 * ones wrote "Diff in FILE at line N:").
 */
static void parse_rustfmt(struct check_ctx *ctx, const char *text,
			  struct stage_result *into)
{
	char **lines = g_strsplit(text, "\n", -1);

	for (char **l = lines; *l; l++) {
		char *file, *at, *end;
		long line;

		if (!g_str_has_prefix(*l, "Diff in "))
			continue;
		file = *l + 8;
		if ((at = strstr(file, " at line "))) {
			*at = '\0';
			line = strtol(at + 9, NULL, 10);
		} else if ((at = strrchr(file, ':')) && at > file) {
			/* FILE:N: ends in a colon: the number is before it */
			*at = '\0';
			at = strrchr(file, ':');
			if (!at)
				continue;
			line = strtol(at + 1, &end, 10);
			if (end == at + 1 || *end)
				continue;
			*at = '\0';
		} else {
			continue;
		}
		file = (char *)stage_tree_relative(ctx, file);
		/* a module file is reported again under its crate root */
		for (guint i = 0; i < into->findings->len && file; i++) {
			const struct finding *f = into->findings->pdata[i];

			if (!strcmp(f->tool, "rustfmt") && f->line == line &&
			    !strcmp(f->file, file))
				file = NULL;
		}
		if (file)
			stage_finding(into, "rustfmt", AT(file, (int)line, 0),
				      SEV_ERROR,
				      "not formatted as rustfmt would");
	}
	g_strfreev(lines);
}

/*
 * The Rust build with clippy and rustfmtcheck at rev, findings into into.
 * Returns 0, or -1 when the build or rustfmtcheck could not be run; sets
 * *build_failed / *fmt_failed from their exit status.
 */
static int rust_run(struct check_ctx *ctx, const char *rev,
		    struct stage_result *into, GString *log,
		    bool *build_failed, bool *fmt_failed)
{
	GPtrArray *targets = g_ptr_array_new_with_free_func(g_free);
	GString *one = g_string_new(NULL);
	int status = 0, ret = -1;

	if (stage_checkout(ctx, rev) < 0)
		goto out;
	g_ptr_array_add(targets, g_strdup("drivers/android/binder/"));
	g_string_append(log, "== build (CLIPPY=1)\n");
	if (stage_kbuild(ctx, "rust-binder", targets, "CLIPPY=1", one, &status) < 0)
		goto out;
	*build_failed = status != 0;
	parse_rustc(ctx, one->str, into);
	g_string_append(log, one->str);
	g_string_truncate(one, 0);
	g_string_append(log, "\n== rustfmtcheck\n");
	g_ptr_array_set_size(targets, 0);
	g_ptr_array_add(targets, g_strdup("rustfmtcheck"));
	if (stage_kbuild(ctx, "rust-binder", targets, NULL, one, &status) < 0)
		goto out;
	*fmt_failed = status != 0;
	parse_rustfmt(ctx, one->str, into);
	g_string_append(log, one->str);
	ret = 0;
out:
	g_string_free(one, TRUE);
	g_ptr_array_unref(targets);
	return ret;
}

/*
 * rust: the Rust binder built with CLIPPY=1 and rustfmtcheck, on the base
 * and on the series; the series' new findings only, as for sparse.
 */
void stage_rust(struct check_ctx *ctx, struct stage_result *r)
{
	GPtrArray *rs = stage_touched_with_suffix(ctx, ".rs", NULL);
	GString *log = g_string_new(NULL);
	struct stage_result before;
	bool base_build = false, base_fmt = false, build = false, fmt = false;

	stage_result_init(&before, "rust");
	if (!rs->len) {
		stage_skip(r, "no Rust file touched");
		goto out;
	}
	g_string_append(log, "==== base\n");
	if (rust_run(ctx, ctx->base, &before, log, &base_build, &base_fmt) < 0) {
		stage_fail(r, "cannot run the Rust build on the base (see log)");
		goto out;
	}
	if (base_build) {
		stage_fail(r, "the Rust build fails on the base (see log)");
		goto out;
	}
	g_string_append(log, "\n==== series\n");
	if (rust_run(ctx, ctx->tip, r, log, &build, &fmt) < 0) {
		stage_fail(r, "cannot run the Rust build (see log)");
		goto out;
	}
	stage_keep_new(r, &before);
	if (build)
		stage_finding(r, "rust", AT("drivers/android/binder/", 0, 0),
			      SEV_ERROR, "the Rust build fails");
	if (fmt && !base_fmt) {
		bool any = false;

		for (guint i = 0; i < r->findings->len; i++)
			any |= !strcmp(((struct finding *)r->findings->pdata[i])->tool,
				       "rustfmt");
		if (!any)
			stage_finding(r, "rustfmt", AT("", 0, 0), SEV_ERROR,
				      "rustfmtcheck failed");
	}
	stage_summary(r, "rust-binder: CLIPPY=1 build and rustfmtcheck, base and series: %u findings before, new ones only",
		    before.findings->len);
out:
	stage_save_log(ctx, r, log->str, log->len);
	stage_result_release(&before);
	g_string_free(log, TRUE);
	g_ptr_array_unref(rs);
}

