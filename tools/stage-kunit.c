// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-kunit.c - the KUnit suites that cover the touched paths.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "run.h"
#include "stage.h"
#include "util.h"
#include "banned.h"

/*
 * How many times the suites run: KSERIES_KUNIT_RUNS, else the version's
 * "version.N.kunit" (a series that must show a race gone asks for many
 * runs in a row), else once. NULL when the setting is not a count.
 */
const char *stage_kunit_runs(const struct check_ctx *ctx)
{
	const char *runs = getenv("KSERIES_KUNIT_RUNS");

	if (!runs || !*runs)
		runs = series_version_get(ctx->s, ctx->version, "kunit");
	if (!runs || !*runs)
		return "1";
	if (strspn(runs, "0123456789") != strlen(runs) || strlen(runs) > 4 ||
	    atoi(runs) < 1)
		return NULL;
	return runs;
}

/* The architectures kunit.py runs here: UML, and x86_64 under QEMU. */
static const char *const kunit_arches[] = { "um", "x86_64" };

/*
 * What one version's KUnit run is: the kunitconfig (the kernel/ one that
 * covers the touched paths, or the version's own version.N.kunitconfig,
 * a file in the series directory) and the architecture
 * (version.N.kunit-arch, um by default). Each (arch, kunitconfig) has
 * its own build directory, <cache>/build/NAME; without either key, NAME
 * is the kernel/ config's, as it always was.
 */
struct kunit_run {
	char *config;		/* path of the kunitconfig */
	char *label;		/* how findings name it */
	const char *arch;
	char *build_name;	/* NULL: kunit-run's default */
};

static void kunit_run_release(struct kunit_run *k)
{
	g_free(k->config);
	g_free(k->label);
	g_free(k->build_name);
}

/*
 * rel, a version's kunitconfig: a relative path without "..", naming a
 * regular file (not a symbolic link) in the series directory.
 */
static bool kunitconfig_ok(const struct check_ctx *ctx, const char *rel)
{
	char **parts;
	bool ok = *rel && !g_path_is_absolute(rel);
	char *path;
	struct stat st;

	parts = g_strsplit(rel, "/", -1);
	for (char **p = parts; ok && *p; p++)
		ok = strcmp(*p, "..") && strcmp(*p, ".") && **p;
	g_strfreev(parts);
	if (!ok)
		return false;
	path = g_build_filename(ctx->s->dir, rel, NULL);
	ok = lstat(path, &st) == 0 && S_ISREG(st.st_mode);
	/* no directory on the way is a link out of the series either */
	if (ok) {
		char *real = realpath(path, NULL);
		char *top = realpath(ctx->s->dir, NULL);
		size_t n = top ? strlen(top) : 0;

		ok = real && top && !strncmp(real, top, n) && real[n] == '/';
		free(real);
		free(top);
	}
	g_free(path);
	return ok;
}

/* A name safe as a build directory's: the kunitconfig's, series-wide. */
static char *build_name(const struct check_ctx *ctx, const char *config,
			bool own, const char *arch)
{
	char *bn = g_path_get_basename(config);
	GString *n = g_string_new(NULL);

	if (g_str_has_suffix(bn, ".kunitconfig"))
		bn[strlen(bn) - strlen(".kunitconfig")] = '\0';
	if (own)
		g_string_append_printf(n, "kunit-%s-", ctx->s->name);
	g_string_append(n, bn);
	if (strcmp(arch, "um"))
		g_string_append_printf(n, "-%s", arch);
	for (char *p = n->str; *p; p++)
		if (!g_ascii_isalnum(*p) && *p != '-' && *p != '_' && *p != '.')
			*p = '_';
	g_free(bn);
	return g_string_free(n, FALSE);
}

/*
 * Fills k for ctx's version: 1, 0 when no KUnit suite applies (r
 * skipped), -1 when a key is not valid (r failed, saying which).
 */
static int kunit_run_get(const struct check_ctx *ctx, struct stage_result *r,
			 struct kunit_run *k)
{
	const char *own = series_version_get(ctx->s, ctx->version,
					     "kunitconfig");
	const char *arch = series_version_get(ctx->s, ctx->version,
					      "kunit-arch");
	const char *name;
	bool known = false;

	memset(k, 0, sizeof(*k));
	for (size_t i = 0; arch && i < G_N_ELEMENTS(kunit_arches); i++)
		known |= !strcmp(arch, kunit_arches[i]);
	if (arch && !known) {
		stage_fail(r, "version.%d.kunit-arch '%s' is not one of um, x86_64",
			   ctx->version, arch);
		return -1;
	}
	k->arch = arch ? arch : "um";
	if (own) {
		if (!kunitconfig_ok(ctx, own)) {
			stage_fail(r, "version.%d.kunitconfig '%s' is not a regular file inside the series directory",
				   ctx->version, own);
			return -1;
		}
		k->config = g_build_filename(ctx->s->dir, own, NULL);
		k->label = g_strdup(own);
	} else {
		name = stage_kunit_config_for(ctx, false);
		if (!name) {
			stage_skip(r, "no KUnit suite covers the touched paths");
			return 0;
		}
		k->label = g_strconcat(name, ".kunitconfig", NULL);
		k->config = g_build_filename(ctx->kernel_dir, k->label, NULL);
	}
	if (own || arch)
		k->build_name = build_name(ctx, k->config, own != NULL, k->arch);
	return 1;
}

void stage_kunit_key(const struct check_ctx *ctx, GChecksum *sum)
{
	const char *runs = stage_kunit_runs(ctx);
	const char *own = series_version_get(ctx->s, ctx->version,
					     "kunitconfig");
	const char *arch = series_version_get(ctx->s, ctx->version,
					      "kunit-arch");

	if (runs)
		g_checksum_update(sum, (const guchar *)runs, -1);
	/* only when set: a version without them keeps the key it had */
	if (own) {
		char *path = g_build_filename(ctx->s->dir, own, NULL);
		char *buf;
		size_t len;

		g_checksum_update(sum, (const guchar *)"\nkunitconfig=", -1);
		g_checksum_update(sum, (const guchar *)own, -1);
		if (kunitconfig_ok(ctx, own) &&
		    read_file(path, 1 << 20, &buf, &len) == 0) {
			g_checksum_update(sum, (const guchar *)buf, (gssize)len);
			g_free(buf);
		}
		g_free(path);
	}
	if (arch) {
		g_checksum_update(sum, (const guchar *)"\nkunit-arch=", -1);
		g_checksum_update(sum, (const guchar *)arch, -1);
	}
}

/* kunit-run's "run K: pass|fail|crash…" lines into r; their counts. */
static void parse_runs(struct stage_result *r, const char *label,
		       const char *out, int *runs_n, int *bad)
{
	char **lines = g_strsplit(out, "\n", -1);

	for (char **l = lines; *l; l++) {
		char *colon, *end;

		if (!g_str_has_prefix(*l, "run "))
			continue;
		(*runs_n)++;
		colon = strstr(*l, ": ");
		if (!colon || g_str_has_prefix(colon + 2, "pass"))
			continue;
		(*bad)++;
		end = strstr(colon + 2, "  log: ");
		if (end)
			*end = '\0';
		stage_finding(r, "kunit", AT(label, 0, 0), SEV_ERROR, "%s", *l);
	}
	g_strfreev(lines);
}

static void kunit_exec(struct check_ctx *ctx, struct stage_result *r,
		       const struct kunit_run *k, const char *runs,
		       GString *log)
{
	char *kr = g_build_filename(ctx->kernel_dir, "kunit-run", NULL);
	GPtrArray *argv = g_ptr_array_new();
	struct run_opts o = { .capture_out = true, .capture_err = true,
			      .timeout = 3 * 3600 };
	struct run_result res;
	int runs_n = 0, bad = 0;

	g_ptr_array_add(argv, kr);
	g_ptr_array_add(argv, (char *)"--runs");
	g_ptr_array_add(argv, (char *)runs);
	if (strcmp(k->arch, "um")) {
		g_ptr_array_add(argv, (char *)"--arch");
		g_ptr_array_add(argv, (char *)k->arch);
	}
	if (k->build_name) {
		g_ptr_array_add(argv, (char *)"--name");
		g_ptr_array_add(argv, k->build_name);
	}
	g_ptr_array_add(argv, k->config);
	g_ptr_array_add(argv, ctx->wt);
	g_ptr_array_add(argv, NULL);
	if (run_argv((const char *const *)argv->pdata, &o, &res) < 0) {
		stage_fail(r, "cannot run kernel/kunit-run");
		goto out;
	}
	g_string_append_printf(log, "(exit %d)\n%s%s", res.status,
			       res.out->str, res.err->str);
	parse_runs(r, k->label, res.out->str, &runs_n, &bad);
	if (res.status == 3)
		stage_fail(r, "the KUnit kernel does not build (see log)");
	else if (res.status && !bad)
		stage_fail(r, "kunit-run failed (exit %d, see log)", res.status);
	else if (!strcmp(k->arch, "um"))
		stage_summary(r, "%s: %d of %d runs clean (UML, lockdep, atomic-sleep)",
			      k->label, runs_n - bad, runs_n);
	else
		stage_summary(r, "%s: %d of %d runs clean (%s under QEMU, lockdep, atomic-sleep)",
			      k->label, runs_n - bad, runs_n, k->arch);
	run_result_release(&res);
out:
	g_ptr_array_unref(argv);
	g_free(kr);
}

static const struct stage_tool kunit_tools[] = {
	{ "python3", NULL, "python3" },
	{ "make", NULL, "make" },
	{ "gcc", NULL, "gcc" },
};

static void kunit_run(struct check_ctx *ctx, struct stage_result *r)
{
	const char *runs = stage_kunit_runs(ctx);
	GString *log = g_string_new(NULL);
	struct kunit_run k;

	if (kunit_run_get(ctx, r, &k) <= 0)
		goto out;
	if (!runs) {
		stage_fail(r, "the KUnit run count (KSERIES_KUNIT_RUNS or version.%d.kunit) is not a number from 1 to 9999",
			   ctx->version);
		goto out;
	}
	if (strcmp(k.arch, "um") && !have_program("qemu-system-x86_64")) {
		stage_tool_missing(r, "qemu-system-x86_64",
				   "qemu-system-x86_64 is not installed (Debian package qemu-system-x86), for version.N.kunit-arch x86_64");
		goto out;
	}
	if (!stage_has_script(ctx->kernel_dir, "kunit-run")) {
		stage_fail(r, "kernel/kunit-run is missing");
		goto out;
	}
	if (stage_checkout(ctx, ctx->tip) < 0) {
		stage_fail(r, "cannot check out the series");
		goto out;
	}
	kunit_exec(ctx, r, &k, runs, log);
out:
	stage_save_log(ctx, r, log->str, log->len);
	g_string_free(log, TRUE);
	kunit_run_release(&k);
}

void stage_kunit(struct check_ctx *ctx, struct stage_result *r)
{
	if (stage_need_tools(r, kunit_tools, G_N_ELEMENTS(kunit_tools)))
		kunit_run(ctx, r);
}
