// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-kunit.c - the KUnit suites that cover the touched paths.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "apply.h"
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

void stage_kunit_run_release(struct kunit_run *k)
{
	g_free(k->config);
	g_free(k->label);
	g_free(k->build_name);
	memset(k, 0, sizeof(*k));
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

int stage_kunit_run_get(const struct check_ctx *ctx, struct stage_result *r,
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

/*
 * version.N.kunit-against = M:A-B (or M:A): the suites also run on a
 * comparison tree, the base with this version's patches A to B (the
 * test and what it needs) and then version M's patches (an earlier
 * version, without this one's fix), which must fail where this version
 * passes. A-B must leave out at least one of this version's patches.
 */
struct kunit_against {
	const char *value;	/* the setting, borrowed */
	int version;		/* M */
	int first, last;	/* A, B: 1-based, inclusive */
};

/* s as a decimal from 1 to 9999, else -1; *end after its digits. */
static int small_number(const char *s, const char **end)
{
	size_t n = strspn(s, "0123456789");

	*end = s + n;
	if (!n || n > 4 || *s == '0')
		return -1;
	return atoi(s);
}

/* Parses value as M:A-B or M:A; 0, or -1 when it is neither. */
static int against_parse(const char *value, struct kunit_against *a)
{
	const char *p;

	a->value = value;
	a->version = small_number(value, &p);
	if (a->version < 0 || *p != ':')
		return -1;
	a->first = a->last = small_number(p + 1, &p);
	if (a->first < 0)
		return -1;
	if (*p == '-')
		a->last = small_number(p + 1, &p);
	return a->last < a->first || *p ? -1 : 0;
}

/*
 * The version's kunit-against into a: 0 when not set, 1 when valid, -1
 * when not (r failed, saying why, in one line).
 */
static int kunit_against_get(const struct check_ctx *ctx,
			     struct stage_result *r, struct kunit_against *a)
{
	const char *value = series_version_get(ctx->s, ctx->version,
					       "kunit-against");
	unsigned n = ctx->files ? ctx->files->len : 0;
	GPtrArray *old;

	memset(a, 0, sizeof(*a));
	if (!value)
		return 0;
	if (against_parse(value, a) < 0 || (unsigned)a->last >= n) {
		stage_fail(r, "version.%d.kunit-against '%s' is not M:A-B (M an earlier version, A-B this version's test patches, from 1 to at most %u)",
			   ctx->version, value, n ? n - 1 : 0);
		return -1;
	}
	old = a->version < ctx->version ?
	      series_patch_files(ctx->s, a->version, false) : NULL;
	if (!old || !old->len) {
		stage_fail(r, "version.%d.kunit-against '%s': v%d is not an earlier version with patches in the store",
			   ctx->version, value, a->version);
		if (old)
			g_ptr_array_unref(old);
		return -1;
	}
	g_ptr_array_unref(old);
	return 1;
}

/* The comparison's inputs the commits do not give: M's mails. */
static void against_key(const struct check_ctx *ctx, GChecksum *sum,
			const char *value)
{
	struct kunit_against a;
	GPtrArray *old;

	g_checksum_update(sum, (const guchar *)"\nkunit-against=", -1);
	g_checksum_update(sum, (const guchar *)value, -1);
	if (against_parse(value, &a) < 0 || a.version >= ctx->version)
		return;
	old = series_patch_files(ctx->s, a.version, false);
	for (guint i = 0; i < old->len; i++) {
		char *bn = g_path_get_basename(old->pdata[i]);
		char *buf;
		size_t len;

		g_checksum_update(sum, (const guchar *)"\n", 1);
		g_checksum_update(sum, (const guchar *)bn, -1);
		if (read_file(old->pdata[i], 16 << 20, &buf, &len) == 0) {
			g_checksum_update(sum, (const guchar *)buf, (gssize)len);
			g_free(buf);
		}
		g_free(bn);
	}
	g_ptr_array_unref(old);
}

void stage_kunit_kernel_key(const struct check_ctx *ctx, GChecksum *sum)
{
	const char *own = series_version_get(ctx->s, ctx->version,
					     "kunitconfig");
	const char *arch = series_version_get(ctx->s, ctx->version,
					      "kunit-arch");

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

void stage_kunit_key(const struct check_ctx *ctx, GChecksum *sum)
{
	const char *runs = stage_kunit_runs(ctx);
	const char *against = series_version_get(ctx->s, ctx->version,
						 "kunit-against");

	if (runs)
		g_checksum_update(sum, (const guchar *)runs, -1);
	stage_kunit_kernel_key(ctx, sum);
	if (against)
		against_key(ctx, sum, against);
}

/* The CONFIG_ lines of the kunitconfig at path; NULL when unreadable. */
static GHashTable *config_lines(const char *path)
{
	GHashTable *set;
	char *buf, **lines;
	size_t len;

	if (read_file(path, 1 << 20, &buf, &len) < 0)
		return NULL;
	set = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	lines = g_strsplit(buf, "\n", -1);
	for (char **l = lines; *l; l++) {
		g_strstrip(*l);
		if (g_str_has_prefix(*l, "CONFIG_") ||
		    g_str_has_prefix(*l, "# CONFIG_"))
			g_hash_table_add(set, g_strdup(*l));
	}
	g_strfreev(lines);
	g_free(buf);
	return set;
}

/* Whether every option the kunitconfig at sub sets is in the one at sup. */
static bool config_covers(const char *sup, const char *sub)
{
	GHashTable *a = config_lines(sup), *b = config_lines(sub);
	GHashTableIter it;
	gpointer line;
	bool ok = a && b;

	if (ok) {
		g_hash_table_iter_init(&it, b);
		while (ok && g_hash_table_iter_next(&it, &line, NULL))
			ok = g_hash_table_contains(a, line);
	}
	if (a)
		g_hash_table_unref(a);
	if (b)
		g_hash_table_unref(b);
	return ok;
}

bool stage_kunit_own(const struct check_ctx *ctx, const char *name,
		     struct kunit_run *k)
{
	struct stage_result scratch;
	char *file = g_strconcat(name, ".kunitconfig", NULL);
	char *kc = g_build_filename(ctx->kernel_dir, file, NULL);
	bool own = false;

	memset(k, 0, sizeof(*k));
	if (!series_version_get(ctx->s, ctx->version, "kunitconfig") &&
	    !series_version_get(ctx->s, ctx->version, "kunit-arch"))
		goto out;
	/* a setting that is not valid: the kunit stage says so */
	stage_result_init(&scratch, "build");
	own = stage_kunit_run_get(ctx, &scratch, k) == 1 &&
	      config_covers(k->config, kc);
	stage_result_release(&scratch);
	if (!own)
		stage_kunit_run_release(k);
out:
	g_free(file);
	g_free(kc);
	return own;
}

void stage_kunit_run_args(const struct kunit_run *k, GPtrArray *argv)
{
	if (strcmp(k->arch, "um")) {
		g_ptr_array_add(argv, (char *)"--arch");
		g_ptr_array_add(argv, (char *)k->arch);
	}
	if (k->build_name) {
		g_ptr_array_add(argv, (char *)"--name");
		g_ptr_array_add(argv, k->build_name);
	}
}

/* What one kunit-run of a tree gave. */
struct kunit_outcome {
	int status;		/* kunit-run's exit */
	int runs, bad;		/* its run lines, those not a pass */
};

/*
 * kunit-run's "run K: pass|fail|crash…" lines, counted into o; each
 * whose verdict is not the wanted one (a pass on the version, a failure
 * on the comparison tree) is an error of r, prefixed by who.
 */
static void parse_runs(struct stage_result *r, const char *label,
		       const char *who, bool want_pass, const char *out,
		       struct kunit_outcome *o)
{
	char **lines = g_strsplit(out, "\n", -1);

	for (char **l = lines; *l; l++) {
		char *colon, *end;
		bool pass;

		if (!g_str_has_prefix(*l, "run "))
			continue;
		o->runs++;
		colon = strstr(*l, ": ");
		pass = !colon || g_str_has_prefix(colon + 2, "pass");
		if (!pass)
			o->bad++;
		if (pass == want_pass)
			continue;
		end = strstr(*l, "  log: ");
		if (end)
			*end = '\0';
		stage_finding(r, "kunit", AT(label, 0, 0), SEV_ERROR, "%s%s%s",
			      who, *l, want_pass ? "" : " (it must fail there)");
	}
	g_strfreev(lines);
}

/*
 * kernel/kunit-run of k at the checkout, runs times: its exit and output
 * into log, its runs into o (parse_runs()); -1 when it could not be run
 * (r failed).
 */
static int kunit_exec(struct check_ctx *ctx, struct stage_result *r,
		      const struct kunit_run *k, const char *runs,
		      const char *who, bool want_pass, GString *log,
		      struct kunit_outcome *o)
{
	char *kr = g_build_filename(ctx->kernel_dir, "kunit-run", NULL);
	GPtrArray *argv = g_ptr_array_new();
	struct run_opts opts = { .capture_out = true, .capture_err = true,
				 .timeout = 3 * 3600 };
	struct run_result res;
	int ret = 0;

	memset(o, 0, sizeof(*o));
	g_ptr_array_add(argv, kr);
	g_ptr_array_add(argv, (char *)"--runs");
	g_ptr_array_add(argv, (char *)runs);
	stage_kunit_run_args(k, argv);
	g_ptr_array_add(argv, k->config);
	g_ptr_array_add(argv, ctx->wt);
	g_ptr_array_add(argv, NULL);
	if (run_argv((const char *const *)argv->pdata, &opts, &res) < 0) {
		stage_fail(r, "cannot run kernel/kunit-run");
		ret = -1;
	} else {
		o->status = res.status;
		g_string_append_printf(log, "(exit %d)\n%s%s", res.status,
				       res.out->str, res.err->str);
		parse_runs(r, k->label, who, want_pass, res.out->str, o);
		run_result_release(&res);
	}
	g_ptr_array_unref(argv);
	g_free(kr);
	return ret;
}

/* The version's own runs: 0 when kunit-run ran them all; else r failed. */
static int kunit_verdict(struct stage_result *r, const struct kunit_run *k,
			 const struct kunit_outcome *o)
{
	if (o->status == 3) {
		stage_fail(r, "the KUnit kernel does not build (see log)");
		return -1;
	}
	if (o->status && !o->bad) {
		stage_fail(r, "kunit-run failed (exit %d, see log)", o->status);
		return -1;
	}
	if (!strcmp(k->arch, "um"))
		stage_summary(r, "%s: %d of %d runs clean (UML, lockdep, atomic-sleep)",
			      k->label, o->runs - o->bad, o->runs);
	else
		stage_summary(r, "%s: %d of %d runs clean (%s under QEMU, lockdep, atomic-sleep)",
			      k->label, o->runs - o->bad, o->runs, k->arch);
	return 0;
}

/*
 * The comparison tree of a (kunit_against_get()) as commits on the
 * version's base: 0 with its tip in *tip, or -1 (r failed, and why in
 * one line, git's words in log).
 */
static int against_apply(struct check_ctx *ctx, struct stage_result *r,
			 const struct kunit_against *a, GString *log,
			 char **tip)
{
	GPtrArray *old = series_patch_files(ctx->s, a->version, false);
	GPtrArray *files = g_ptr_array_new();
	struct applied ap;
	int ret = 0;

	for (int i = a->first; i <= a->last; i++)
		g_ptr_array_add(files, ctx->files->pdata[i - 1]);
	for (guint i = 0; i < old->len; i++)
		g_ptr_array_add(files, old->pdata[i]);
	applied_init(&ap);
	if (apply_series(ctx->tree, ctx->base, files, true, &ap) < 0) {
		char *bn = ap.failed >= 0 && (guint)ap.failed < files->len ?
			   g_path_get_basename(files->pdata[ap.failed]) :
			   g_strdup("?");

		g_string_append(log, ap.log->str);
		stage_fail(r, "the comparison tree (v%d on patches %d-%d of v%d) does not apply: %s of v%d",
			   a->version, a->first, a->last, ctx->version, bn,
			   (guint)ap.failed < files->len - old->len ?
			   ctx->version : a->version);
		g_free(bn);
		ret = -1;
	} else {
		*tip = g_strdup(ap.commits->pdata[ap.commits->len - 1]);
		g_string_append_printf(log, "applied: %u patches on %s%s, tip %s\n",
				       files->len, ctx->base,
				       ap.three_way ? " (3-way fallback)" : "",
				       *tip);
	}
	applied_release(&ap);
	g_ptr_array_unref(files);
	g_ptr_array_unref(old);
	return ret;
}

/*
 * The same suites, run as many times, on the comparison tree of a, in
 * the same build directory (only what differs is built again). The stage
 * fails unless every run fails there: the test must tell the version
 * from the one it is compared against.
 */
static void against_run(struct check_ctx *ctx, struct stage_result *r,
			const struct kunit_run *k,
			const struct kunit_against *a, const char *runs,
			GString *log)
{
	char *who = g_strdup_printf("against v%d: ", a->version);
	struct kunit_outcome o;
	char *tip = NULL;
	char *mine = g_strdup(r->summary);

	g_string_append_printf(log, "\n== against v%d: %s with patches %d-%d of v%d, then v%d's (version.%d.kunit-against = %s); run-K.log in the build directory is this tree's from here on\n",
			       a->version, ctx->base, a->first, a->last,
			       ctx->version, a->version, ctx->version,
			       a->value);
	if (against_apply(ctx, r, a, log, &tip) < 0)
		goto out;
	if (stage_checkout(ctx, tip) < 0) {
		stage_fail(r, "cannot check out the comparison tree");
		goto out;
	}
	if (kunit_exec(ctx, r, k, runs, who, false, log, &o) < 0)
		goto out;
	if (o.status == 3)
		stage_fail(r, "the comparison tree (v%d on patches %d-%d of v%d) does not build (see log)",
			   a->version, a->first, a->last, ctx->version);
	else if (o.status && !o.bad)
		stage_fail(r, "kunit-run failed on the comparison tree (exit %d, see log)",
			   o.status);
	else if (!o.runs)
		stage_fail(r, "kunit-run reported no run on the comparison tree (see log)");
	else
		stage_summary(r, "%s; against v%d (on patches %d-%d): %d of %d runs failed",
			      mine, a->version, a->first, a->last, o.bad,
			      o.runs);
out:
	g_free(mine);
	g_free(tip);
	g_free(who);
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
	struct kunit_against a;
	struct kunit_outcome o;
	struct kunit_run k;

	if (stage_kunit_run_get(ctx, r, &k) <= 0)
		goto out;
	if (!runs) {
		stage_fail(r, "the KUnit run count (KSERIES_KUNIT_RUNS or version.%d.kunit) is not a number from 1 to 9999",
			   ctx->version);
		goto out;
	}
	if (kunit_against_get(ctx, r, &a) < 0)
		goto out;
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
	if (a.value)
		g_string_append_printf(log, "== v%d: tip %s\n", ctx->version,
				       ctx->tip);
	if (kunit_exec(ctx, r, &k, runs, "", true, log, &o) < 0 ||
	    kunit_verdict(r, &k, &o) < 0 || !a.value)
		goto out;
	if (o.bad)
		g_string_append_printf(log, "\n== against v%d: not run, the version's own runs were not all clean\n",
				       a.version);
	else
		against_run(ctx, r, &k, &a, runs, log);
out:
	stage_save_log(ctx, r, log->str, log->len);
	g_string_free(log, TRUE);
	stage_kunit_run_release(&k);
}

void stage_kunit(struct check_ctx *ctx, struct stage_result *r)
{
	if (stage_need_tools(r, kunit_tools, G_N_ELEMENTS(kunit_tools)))
		kunit_run(ctx, r);
}
