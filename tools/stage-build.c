// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-build.c - every patch built through kernel/kbuild, and KUnit kernels.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "progress.h"
#include "run.h"
#include "stage.h"
#include "util.h"
#include "banned.h"

/*
 * Touched path prefix -> the kunitconfig (kernel/NAME.kunitconfig) whose
 * suites cover it: the kunit stage runs them at the tip.
 */
static const struct {
	const char *prefix;
	const char *name;
	bool only_kunit;	/* no other config compiles these paths */
} kunit_map[] = {
	{ "drivers/android/binder_alloc", "kunit-binder", false },
	{ "drivers/android/tests/", "kunit-binder", true },
};

/*
 * The kunitconfig covering the touched paths, or NULL; with only_kunit,
 * only one covering paths that no kbuild config compiles.
 */
const char *stage_kunit_config_for(const struct check_ctx *ctx,
				    bool only_kunit)
{
	for (guint i = 0; i < ctx->touched->len; i++)
		for (size_t k = 0; k < G_N_ELEMENTS(kunit_map); k++)
			if ((!only_kunit || kunit_map[k].only_kunit) &&
			    g_str_has_prefix(ctx->touched->pdata[i],
					     kunit_map[k].prefix))
				return kunit_map[k].name;
	return NULL;
}

/*
 * Touched path prefix -> the host-gcc config (kernel/NAME.config) that
 * compiles it, the first row that matches; c-binder for every other path.
 */
static const struct {
	const char *prefix;
	const char *name;
} c_config_map[] = {
	{ "drivers/usb/gadget/udc/max3420_udc.c", "c-usb-drivers" },
	{ "drivers/usb/gadget/", "c-usb-gadget" },
	{ "drivers/usb/host/max3421-hcd.c", "c-usb-drivers" },
	{ "drivers/usb/fotg210/", "c-usb-drivers" },
	{ "drivers/usb/chipidea/", "c-usb-drivers" },
};

const char *const stage_c_configs[] = { "c-binder", "c-usb-gadget",
					"c-usb-drivers", NULL };

/*
 * Touched path prefix -> why no x86_64 config can compile it (the driver
 * depends on another architecture): the build stage says so instead of
 * building it with a config that does not enable it.
 */
static const struct {
	const char *prefix;
	const char *why;
} c_unbuildable[] = {
	{ "drivers/usb/gadget/udc/bcm63xx_udc.c", "depends on BCM63XX (MIPS)" },
	{ "drivers/usb/gadget/udc/fsl_qe_udc.c", "depends on FSL_SOC (PowerPC)" },
	{ "drivers/usb/gadget/udc/atmel_usba_udc.c", "depends on ARCH_AT91 (ARM)" },
};

static const char *c_unbuildable_why(const char *path)
{
	for (size_t k = 0; k < G_N_ELEMENTS(c_unbuildable); k++)
		if (g_str_has_prefix(path, c_unbuildable[k].prefix))
			return c_unbuildable[k].why;
	return NULL;
}

/* The config that compiles path, or NULL when none can. */
static const char *c_config_for(const char *path)
{
	if (c_unbuildable_why(path))
		return NULL;
	for (size_t k = 0; k < G_N_ELEMENTS(c_config_map); k++)
		if (g_str_has_prefix(path, c_config_map[k].prefix))
			return c_config_map[k].name;
	return "c-binder";
}

/* "FILE: WHY; ..." for the touched files no config compiles, or NULL. */
static char *unbuildable_touched(const struct check_ctx *ctx)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < ctx->touched->len; i++) {
		const char *p = ctx->touched->pdata[i];
		const char *why = c_unbuildable_why(p);

		if (why)
			g_string_append_printf(s, "%s%s: %s", s->len ? "; " : "",
					       p, why);
	}
	return g_string_free(s, !s->len);
}

GPtrArray *stage_build_targets(const struct check_ctx *ctx, const char *config)
{
	GPtrArray *t = g_ptr_array_new_with_free_func(g_free);
	bool rust = !strcmp(config, "rust-binder");

	for (guint i = 0; i < ctx->touched->len; i++) {
		const char *p = ctx->touched->pdata[i];
		const char *c = c_config_for(p);

		if (!rust && (!c || strcmp(c, config)))
			continue;
		if (rust) {
			if (g_str_has_prefix(p, "drivers/android/binder/") ||
			    g_str_has_prefix(p, "include/uapi/linux/android/")) {
				g_ptr_array_add(t, g_strdup("drivers/android/binder/"));
				break;
			}
			continue;
		}
		if (g_str_has_prefix(p, "drivers/android/binder/") ||
		    g_str_has_prefix(p, "tools/") ||
		    g_str_has_prefix(p, "Documentation/"))
			continue;
		if (g_str_has_suffix(p, ".c") &&
		    !g_str_has_prefix(p, "drivers/android/tests/") &&
		    !strstr(p, "test-ww_mutex"))
			g_ptr_array_add(t, g_strdup_printf("%.*s.o",
				(int)strlen(p) - 2, p));
		else if (g_str_has_prefix(p, "drivers/android/") ||
			 g_str_has_prefix(p, "include/uapi/linux/android/"))
			g_ptr_array_add(t, g_strdup("drivers/android/"));
	}
	/* dedup */
	for (guint i = 0; i < t->len; i++)
		for (guint j = i + 1; j < t->len; j++)
			if (!strcmp(t->pdata[i], t->pdata[j]))
				g_ptr_array_remove_index(t, j--);
	return t;
}

/*
 * The builds every patch gets: kernel/kbuild configs for the objects the
 * series touches, and the KUnit kernel when the series touches code that
 * only a KUnit config compiles (a test's sources).
 */
struct build_config {
	const char *name;	/* kernel/NAME.config or NAME.kunitconfig */
	bool kunit;		/* through kernel/kunit-run --build-only */
};

static GArray *configs_for(struct check_ctx *ctx)
{
	GArray *c = g_array_new(FALSE, TRUE, sizeof(struct build_config));
	struct build_config bc = { .name = stage_kunit_config_for(ctx, true),
				   .kunit = true };
	static const struct build_config rb = { "rust-binder", false };

	for (const char *const *n = stage_c_configs; *n; n++) {
		GPtrArray *t = stage_build_targets(ctx, *n);
		struct build_config cb = { *n, false };

		if (t->len)
			g_array_append_val(c, cb);
		g_ptr_array_unref(t);
	}
	for (guint i = 0; i < ctx->touched->len; i++) {
		if (g_str_has_prefix(ctx->touched->pdata[i],
				     "drivers/android/binder/")) {
			g_array_append_val(c, rb);
			break;
		}
	}
	if (bc.name)
		g_array_append_val(c, bc);
	return c;
}

int stage_kbuild(struct check_ctx *ctx, const char *config,
		 GPtrArray *targets, const char *extra, GString *log,
		 int *status)
{
	char *kb = g_build_filename(ctx->kernel_dir, "kbuild", NULL);
	GPtrArray *argv = g_ptr_array_new();
	struct run_opts o = { .capture_out = true, .merge_err = true,
			      .timeout = 3 * 3600 };
	struct run_result res;
	char *logfile = g_strdup_printf("%s/kbuild-%s.tmp.log", ctx->logdir, config);

	g_ptr_array_add(argv, kb);
	/* make's lines on our pipe feed the status line on a terminal */
	if (progress_active())
		g_ptr_array_add(argv, (char *)"-v");
	g_ptr_array_add(argv, (char *)"--log");
	g_ptr_array_add(argv, logfile);
	g_ptr_array_add(argv, (char *)config);
	g_ptr_array_add(argv, ctx->wt);
	if (extra)
		g_ptr_array_add(argv, (char *)extra);
	for (guint i = 0; i < targets->len; i++)
		g_ptr_array_add(argv, targets->pdata[i]);
	g_ptr_array_add(argv, NULL);
	if (ctx->verbose)
		fprintf(stderr, "kseries: building %s (%u targets)\n", config,
			targets->len);
	if (run_argv((const char *const *)argv->pdata, &o, &res) < 0) {
		g_ptr_array_unref(argv);
		g_free(kb);
		g_free(logfile);
		return -1;
	}
	/* with -v, what kbuild logged also came down the pipe: keep it once */
	if (!progress_active()) {
		char *buf;
		size_t len;

		if (read_file(logfile, 256u << 20, &buf, &len) == 0) {
			g_string_append_len(log, buf, (gssize)len);
			g_free(buf);
		}
	}
	unlink(logfile);
	g_string_append(log, res.out->str);
	*status = res.status;
	run_result_release(&res);
	g_ptr_array_unref(argv);
	g_free(kb);
	g_free(logfile);
	return 0;
}

/* Builds the KUnit kernel of kernel/NAME.kunitconfig at the checkout. */
static int kunit_build(struct check_ctx *ctx, const char *name, GString *log,
		       int *status)
{
	char *kr = g_build_filename(ctx->kernel_dir, "kunit-run", NULL);
	char *file = g_strconcat(name, ".kunitconfig", NULL);
	char *kc = g_build_filename(ctx->kernel_dir, file, NULL);
	const char *argv[] = { kr, "--build-only", kc, ctx->wt, NULL };
	struct run_opts o = { .capture_out = true, .merge_err = true,
			      .timeout = 3 * 3600 };
	struct run_result res;
	int ret = run_argv(argv, &o, &res);

	if (ret == 0) {
		g_string_append(log, res.out->str);
		*status = res.status;
		run_result_release(&res);
	}
	g_free(kr);
	g_free(file);
	g_free(kc);
	return ret < 0 ? -1 : 0;
}

/* A failed build's compiler errors, and the patch it failed at. */
static void build_failed(struct check_ctx *ctx, struct stage_result *r,
			 const char *config, const char *output,
			 const char *patch, int n)
{
	struct stage_result tmp;
	char *msg;

	stage_result_init(&tmp, "build");
	stage_parse_compiler_lines(ctx, &tmp, "build", output);
	for (guint k = 0; k < tmp.findings->len; k++) {
		struct finding *f = tmp.findings->pdata[k];

		if (f->sev == SEV_ERROR)
			stage_finding(r, "build", AT(f->file, f->line, n),
				      SEV_ERROR, "%s", f->message);
	}
	stage_result_release(&tmp);
	msg = g_strdup_printf("%s: the build fails after this patch", config);
	stage_finding(r, "build", AT(patch, 0, n), SEV_ERROR, "%s", msg);
	g_free(msg);
}

static const struct stage_tool build_tools[] = {
	{ "make", NULL, "make" },
	{ "gcc", NULL, "gcc" },
};

static void build_run(struct check_ctx *ctx, struct stage_result *r)
{
	GArray *configs = configs_for(ctx);
	GString *log = g_string_new(NULL), *names = g_string_new(NULL);
	unsigned builds = 0, failed = 0;
	char *arch_only = unbuildable_touched(ctx);

	if (!configs->len) {
		char *why = arch_only ?
			g_strdup_printf("no x86_64 config builds %s", arch_only) :
			g_strdup("the series touches no kernel object this workbench builds");

		stage_skip(r, why);
		g_free(why);
		goto out;
	}
	if (!stage_has_script(ctx->kernel_dir, "kbuild") ||
	    !stage_has_script(ctx->kernel_dir, "kunit-run")) {
		stage_fail(r, "kernel/kbuild or kernel/kunit-run is missing");
		goto out;
	}
	for (guint c = 0; c < configs->len && r->status != ST_FAIL; c++) {
		const struct build_config *bc =
			&g_array_index(configs, struct build_config, c);
		GPtrArray *targets =
			bc->kunit ? NULL : stage_build_targets(ctx, bc->name);

		g_string_append_printf(names, "%s%s", c ? ", " : "", bc->name);
		for (guint i = 0; i < ctx->commits->len; i++) {
			int status = 0;
			GString *one = g_string_new(NULL);
			char *base = g_path_get_basename(ctx->files->pdata[i]);
			int ran = stage_checkout(ctx, ctx->commits->pdata[i]);

			if (ran == 0)
				ran = bc->kunit ?
				      kunit_build(ctx, bc->name, one, &status) :
				      stage_kbuild(ctx, bc->name, targets, NULL, one, &status);
			if (ran < 0) {
				stage_fail(r, "cannot run the %s build at %s", bc->name, base);
				g_string_free(one, TRUE);
				g_free(base);
				break;
			}
			builds++;
			g_string_append_printf(log, "== %s %s (exit %d)\n%s", bc->name,
					       base, status, one->str);
			if (status) {
				failed++;
				build_failed(ctx, r, bc->name, one->str, base, (int)i + 1);
			}
			g_string_free(one, TRUE);
			g_free(base);
		}
		if (targets)
			g_ptr_array_unref(targets);
	}
	if (r->status == ST_FAIL)
		;	/* stage_fail() said why */
	else if (failed)
		stage_summary(r, "%u of %u builds fail (%s; every patch)", failed,
			    builds, names->str);
	else
		stage_summary(r, "%u builds (%s; every patch)%s%s", builds,
			      names->str, arch_only ? "; not built: " : "",
			      arch_only ? arch_only : "");
out:
	stage_save_log(ctx, r, log->str, log->len);
	g_string_free(log, TRUE);
	g_string_free(names, TRUE);
	g_array_unref(configs);
	g_free(arch_only);
}

void stage_build(struct check_ctx *ctx, struct stage_result *r)
{
	if (stage_need_tools(r, build_tools, G_N_ELEMENTS(build_tools)))
		build_run(ctx, r);
}
