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
 * Touched path prefix -> the config (kernel/NAME.config) that compiles it,
 * the first row that matches; c-binder for every other path. A c-cross-*
 * config is another architecture's, for a driver that no x86_64 config
 * can enable (why: what it depends on); kernel/kbuild cross-compiles it
 * with the Debian cross gcc its fragment's kseries-cross line names. A
 * driver whose Kconfig has COMPILE_TEST builds on x86_64 instead
 * (c-usb-drivers sets it).
 */
static const struct {
	const char *prefix;
	const char *name;
	const char *why;	/* c-cross-*: why x86_64 cannot build it */
	const char *other;	/* what a touched file not .c builds, or NULL */
} c_config_map[] = {
	{ "drivers/usb/gadget/udc/bcm63xx_udc.c", "c-cross-mips",
	  "depends on BCM63XX (MIPS)", NULL },
	{ "drivers/usb/gadget/udc/fsl_qe_udc.", "c-cross-powerpc",
	  "depends on FSL_SOC (PowerPC) and !64BIT",
	  "drivers/usb/gadget/udc/fsl_qe_udc.o" },
	{ "drivers/usb/gadget/udc/atmel_usba_udc.", "c-cross-arm",
	  "depends on ARCH_AT91 (ARM)",
	  "drivers/usb/gadget/udc/atmel_usba_udc.o" },
	/* ARCH_ASPEED || COMPILE_TEST, ARCH_LPC32XX || COMPILE_TEST */
	{ "drivers/usb/gadget/udc/aspeed-vhub/", "c-usb-drivers", NULL,
	  "drivers/usb/gadget/udc/aspeed-vhub/" },
	{ "drivers/usb/gadget/udc/aspeed_udc.c", "c-usb-drivers", NULL, NULL },
	{ "drivers/usb/gadget/udc/lpc32xx_udc.c", "c-usb-drivers", NULL, NULL },
	{ "drivers/usb/gadget/udc/max3420_udc.c", "c-usb-drivers", NULL, NULL },
	{ "drivers/usb/gadget/", "c-usb-gadget", NULL, NULL },
	{ "drivers/usb/host/max3421-hcd.c", "c-usb-drivers", NULL, NULL },
	{ "drivers/usb/fotg210/", "c-usb-drivers", NULL, NULL },
	{ "drivers/usb/chipidea/", "c-usb-drivers", NULL, NULL },
	/* SUPERH || ARCH_RENESAS || COMPILE_TEST */
	{ "drivers/usb/renesas_usbhs/", "c-usb-drivers", NULL,
	  "drivers/usb/renesas_usbhs/" },
	{ "drivers/block/amiflop.c", "c-cross-m68k", "depends on AMIGA (m68k)",
	  NULL },
	{ "drivers/block/swim.c", "c-cross-m68k", "depends on MAC (m68k)", NULL },
	{ "drivers/block/swim_asm.S", "c-cross-m68k", "depends on MAC (m68k)",
	  "drivers/block/swim_asm.o" },
	{ "drivers/char/tpm/tpm_ibmvtpm.", "c-cross-powerpc64",
	  "depends on PPC_PSERIES (64-bit PowerPC)",
	  "drivers/char/tpm/tpm_ibmvtpm.o" },
	{ "drivers/block/sunvdc.c", "c-cross-sparc64",
	  "depends on SUN_LDOMS (64-bit SPARC)", NULL },
};

const char *const stage_c_configs[] = { "c-binder", "c-usb-gadget",
					"c-usb-drivers", NULL };

/* The c-cross-* configs (c_config_map's other architectures). */
static const char *const c_cross_configs[] = {
	"c-cross-mips", "c-cross-powerpc", "c-cross-powerpc64",
	"c-cross-m68k", "c-cross-arm", "c-cross-sparc64", NULL
};

/* The c_config_map row of path, or -1 for c-binder. */
static int c_config_row(const char *path)
{
	for (size_t k = 0; k < G_N_ELEMENTS(c_config_map); k++)
		if (g_str_has_prefix(path, c_config_map[k].prefix))
			return (int)k;
	return -1;
}

/* The config that compiles path. */
static const char *c_config_for(const char *path)
{
	int k = c_config_row(path);

	return k < 0 ? "c-binder" : c_config_map[k].name;
}

/*
 * A c-cross-* fragment's "# kseries-cross: ARCH CROSS_COMPILE PACKAGE"
 * line, the rules of kernel/lib.sh's ks_cross (which checks the ARCH
 * against the tree too).
 */
struct cross_toolchain {
	char *arch;	/* make's ARCH= */
	char *prefix;	/* CROSS_COMPILE=, e.g. "mips-linux-gnu-" */
	char *package;	/* the Debian package with PREFIXgcc */
};

static bool word_of(const char *w, const char *alphabet, size_t max)
{
	size_t n = strlen(w);

	return n && n <= max && strspn(w, alphabet) == n;
}

#define CROSS_LOWER "abcdefghijklmnopqrstuvwxyz0123456789"

static bool cross_prefix_ok(const char *c)
{
	size_t n = strlen(c);

	/* word-word-...-: no '/', no "--", no leading '-' */
	return word_of(c, CROSS_LOWER "_-", 64) && c[0] != '-' &&
	       c[n - 1] == '-' && !strstr(c, "--");
}

static bool cross_package_ok(const char *p)
{
	return word_of(p, CROSS_LOWER "+.-", 64) && strlen(p) >= 2 &&
	       strchr(CROSS_LOWER, p[0]);
}

/* One line into why (a value shown with odd bytes as '?'). */
static void cross_bad(GString *why, const char *config, const char *what,
		      const char *value)
{
	g_string_printf(why, "kernel/%s.config: bad %s '", config, what);
	for (const char *v = value; *v; v++)
		g_string_append_c(why, g_ascii_isgraph(*v) ? *v : '?');
	g_string_append_c(why, '\'');
}

static void cross_toolchain_release(struct cross_toolchain *tc)
{
	g_free(tc->arch);
	g_free(tc->prefix);
	g_free(tc->package);
	memset(tc, 0, sizeof(*tc));
}

/* Reads config's line into tc: 0, or -1 with why set (one line). */
static int cross_toolchain_read(const struct check_ctx *ctx,
				const char *config, struct cross_toolchain *tc,
				GString *why)
{
	char *file = g_strconcat(config, ".config", NULL);
	char *path = g_build_filename(ctx->kernel_dir, file, NULL);
	char *buf = NULL, **lines = NULL, **w = NULL;
	const char *line = NULL;
	size_t len;
	int n = 0, ret = -1;

	memset(tc, 0, sizeof(*tc));
	if (read_file(path, 1 << 20, &buf, &len) < 0) {
		g_string_printf(why, "cannot read kernel/%s", file);
		goto out;
	}
	lines = g_strsplit(buf, "\n", -1);
	for (char **l = lines; *l; l++)
		if (g_str_has_prefix(*l, "# kseries-cross:") && n++ == 0)
			line = *l + strlen("# kseries-cross:");
	if (n != 1) {
		g_string_printf(why, "kernel/%s has %d '# kseries-cross: ARCH CROSS_COMPILE PACKAGE' lines: want one",
				file, n);
		goto out;
	}
	w = g_strsplit_set(line, " \t", -1);
	{
		const char *v[4] = { NULL };
		int k = 0;

		for (char **x = w; *x; x++)
			if (**x && k < 4)
				v[k++] = *x;
		if (!v[0] || !word_of(v[0], CROSS_LOWER "_", 32) ||
		    !g_ascii_islower(v[0][0]))
			cross_bad(why, config, "ARCH", v[0] ? v[0] : "");
		else if (!v[1] || !cross_prefix_ok(v[1]))
			cross_bad(why, config, "CROSS_COMPILE", v[1] ? v[1] : "");
		else if (!v[2] || !cross_package_ok(v[2]) || v[3])
			cross_bad(why, config, "PACKAGE", v[2] ? v[2] : "");
		else {
			tc->arch = g_strdup(v[0]);
			tc->prefix = g_strdup(v[1]);
			tc->package = g_strdup(v[2]);
			ret = 0;
		}
	}
out:
	g_strfreev(w);
	g_strfreev(lines);
	g_free(buf);
	g_free(path);
	g_free(file);
	return ret;
}

GPtrArray *stage_build_targets(const struct check_ctx *ctx, const char *config)
{
	GPtrArray *t = g_ptr_array_new_with_free_func(g_free);
	bool rust = !strcmp(config, "rust-binder");

	for (guint i = 0; i < ctx->touched->len; i++) {
		const char *p = ctx->touched->pdata[i];
		const char *c = c_config_for(p);
		int k = c_config_row(p);

		if (!rust && strcmp(c, config))
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
		/* a driver's header (or assembly): the objects that use it */
		if (!g_str_has_suffix(p, ".c") && k >= 0 && c_config_map[k].other)
			g_ptr_array_add(t, g_strdup(c_config_map[k].other));
		else if (g_str_has_suffix(p, ".c") &&
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
	const struct kunit_run *own;	/* kunit: the version's kernel */
};

/*
 * The cross config's compiler, when installed: 1. When it is not: 0, and
 * "FILE (WHY): GCC is not installed (Debian package P)" for each touched
 * FILE it builds, appended to missing, the first such compiler in *tool.
 * -1 for a bad fragment, why saying what is wrong.
 */
static int cross_usable(const struct check_ctx *ctx, const char *config,
			GString *missing, char **tool, GString *why)
{
	struct cross_toolchain tc;
	char *gcc;
	int ret;

	if (cross_toolchain_read(ctx, config, &tc, why) < 0)
		return -1;
	gcc = g_strconcat(tc.prefix, "gcc", NULL);
	ret = have_program(gcc);
	for (guint i = 0; !ret && i < ctx->touched->len; i++) {
		const char *p = ctx->touched->pdata[i];
		int k = c_config_row(p);

		if (k < 0 || strcmp(c_config_map[k].name, config))
			continue;
		g_string_append_printf(missing, "%s%s (%s): %s is not installed (Debian package %s)",
				       missing->len ? "; " : "", p,
				       c_config_map[k].why, gcc, tc.package);
	}
	if (!ret && !*tool)
		*tool = g_strdup(gcc);
	g_free(gcc);
	cross_toolchain_release(&tc);
	return ret;
}

/*
 * The configs to build (the host's, the cross configs whose compiler is
 * installed, rust-binder, the KUnit kernel: the version's own when
 * stage_kunit_own() takes it, filled into own); the touched files of the
 * others in missing (cross_usable()). NULL, why set, on a bad fragment.
 */
static GArray *configs_for(struct check_ctx *ctx, GString *missing, char **tool,
			   GString *why, struct kunit_run *own)
{
	GArray *c = g_array_new(FALSE, TRUE, sizeof(struct build_config));
	struct build_config bc = { .name = stage_kunit_config_for(ctx, true),
				   .kunit = true };
	static const struct build_config rb = { .name = "rust-binder" };
	static const char *const *const lists[] = { stage_c_configs,
						    c_cross_configs };

	for (size_t l = 0; l < G_N_ELEMENTS(lists); l++) {
		for (const char *const *n = lists[l]; *n; n++) {
			GPtrArray *t = stage_build_targets(ctx, *n);
			struct build_config cb = { .name = *n };
			int use = t->len ? 1 : 0;

			g_ptr_array_unref(t);
			if (use && lists[l] == c_cross_configs)
				use = cross_usable(ctx, *n, missing, tool, why);
			if (use < 0) {
				g_array_unref(c);
				return NULL;
			}
			if (use)
				g_array_append_val(c, cb);
		}
	}
	for (guint i = 0; i < ctx->touched->len; i++) {
		if (g_str_has_prefix(ctx->touched->pdata[i],
				     "drivers/android/binder/")) {
			g_array_append_val(c, rb);
			break;
		}
	}
	if (bc.name) {
		if (stage_kunit_own(ctx, bc.name, own)) {
			bc.name = own->label;
			bc.own = own;
		}
		g_array_append_val(c, bc);
	}
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

/*
 * Builds bc's KUnit kernel at the checkout: kernel/NAME.kunitconfig, or
 * the version's own (its kunitconfig, architecture and build dir).
 */
static int kunit_build(struct check_ctx *ctx, const struct build_config *bc,
		       GString *log, int *status)
{
	char *kr = g_build_filename(ctx->kernel_dir, "kunit-run", NULL);
	char *file = g_strconcat(bc->name, ".kunitconfig", NULL);
	char *kc = g_build_filename(ctx->kernel_dir, file, NULL);
	GPtrArray *argv = g_ptr_array_new();
	struct run_opts o = { .capture_out = true, .merge_err = true,
			      .timeout = 3 * 3600 };
	struct run_result res;
	int ret;

	g_ptr_array_add(argv, kr);
	g_ptr_array_add(argv, (char *)"--build-only");
	if (bc->own)
		stage_kunit_run_args(bc->own, argv);
	g_ptr_array_add(argv, bc->own ? bc->own->config : kc);
	g_ptr_array_add(argv, ctx->wt);
	g_ptr_array_add(argv, NULL);
	ret = run_argv((const char *const *)argv->pdata, &o, &res);
	g_ptr_array_unref(argv);

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
	GString *log = g_string_new(NULL), *names = g_string_new(NULL);
	GString *missing = g_string_new(NULL), *why = g_string_new(NULL);
	char *tool = NULL;
	struct kunit_run own = { 0 };
	GArray *configs = configs_for(ctx, missing, &tool, why, &own);
	unsigned builds = 0, failed = 0;

	if (!configs) {
		stage_fail(r, "%s", why->str);
		goto out;
	}
	if (!configs->len) {
		/* a cross compiler is missing: said, and not cached */
		if (tool)
			stage_tool_missing(r, tool, missing->str);
		else
			stage_skip(r, "the series touches no kernel object this workbench builds");
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
				      kunit_build(ctx, bc, one, &status) :
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
	else if (tool) {
		stage_summary(r, "%u builds (%s; every patch); not built: %s (not cached: the next check builds them)",
			      builds, names->str, missing->str);
		/* what was not built is checked again next time */
		g_free(r->missing);
		r->missing = g_strdup(tool);
	} else
		stage_summary(r, "%u builds (%s; every patch)", builds,
			      names->str);
out:
	stage_save_log(ctx, r, log->str, log->len);
	g_string_free(log, TRUE);
	g_string_free(names, TRUE);
	g_string_free(missing, TRUE);
	g_string_free(why, TRUE);
	g_free(tool);
	if (configs)
		g_array_unref(configs);
	stage_kunit_run_release(&own);
}



void stage_build(struct check_ctx *ctx, struct stage_result *r)
{
	if (stage_need_tools(r, build_tools, G_N_ELEMENTS(build_tools)))
		build_run(ctx, r);
}
