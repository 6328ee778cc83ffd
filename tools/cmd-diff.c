// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries diff SERIES vA vB - what changed between two versions.
 *
 * With the base tree at hand, both versions are applied to their base as
 * commits (apply.h) and `git range-diff` compares them. Without it, the
 * patches are paired by their place and subject and their texts are
 * compared after the parts that change on every rebase (index lines,
 * hunk positions, mail headers, the signature) are set aside.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "builtin.h"
#include "mail.h"
#include "parse-options.h"
#include "rangediff.h"
#include "run.h"
#include "series.h"
#include "subject.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

static const char diff_usage[] =
	"kseries diff SERIES vA vB [--patches-only]";

static int parse_v(const char *s)
{
	char *end;
	long v;

	if (*s == 'v' || *s == 'V')
		s++;
	v = strtol(s, &end, 10);
	if (*end || v < 1 || v > 9999)
		return 0;
	return (int)v;
}

/* The text of a patch mail that a reviewer compares: subject, message, diff. */
static char *normalized(const char *path, char **title)
{
	GPtrArray *mails = mail_array_new();
	GString *out = g_string_new(NULL);
	struct subject subj;
	char **lines;

	*title = NULL;
	if (mail_read_mbox(path, mails) < 0 || !mails->len) {
		g_ptr_array_unref(mails);
		g_string_free(out, TRUE);
		return NULL;
	}
	subject_parse(((struct mail *)mails->pdata[0])->subject, &subj);
	*title = g_strdup(subj.title);
	g_string_append_printf(out, "%s\n\n", subj.title);
	subject_release(&subj);
	lines = g_strsplit(((struct mail *)mails->pdata[0])->body, "\n", -1);
	for (char **l = lines; *l; l++) {
		if (starts_with(*l, "index ") || !strcmp(*l, "-- "))
			continue;
		if (starts_with(*l, "@@ ")) {
			/* keep the function context, not the positions */
			const char *ctx = strstr(*l + 3, "@@");

			g_string_append_printf(out, "@@%s\n", ctx ? ctx + 2 : "");
			continue;
		}
		g_string_append_printf(out, "%s\n", *l);
	}
	g_strfreev(lines);
	g_ptr_array_unref(mails);
	return g_string_free(out, FALSE);
}

static int diff_patches(GPtrArray *fa, GPtrArray *fb, int va, int vb)
{
	char *tmp = g_dir_make_tmp("kseries-diff-XXXXXX", NULL);
	guint n = MAX(fa->len, fb->len);
	int ret = 0;

	if (!tmp)
		return error_errno("cannot create a temporary directory");
	for (guint i = 0; i < n; i++) {
		char *ta = NULL, *tb = NULL, *na = NULL, *nb = NULL;
		char *pa = g_build_filename(tmp, "a", NULL);
		char *pb = g_build_filename(tmp, "b", NULL);

		if (i < fa->len)
			na = normalized(fa->pdata[i], &ta);
		if (i < fb->len)
			nb = normalized(fb->pdata[i], &tb);
		if ((i < fa->len && !na) || (i < fb->len && !nb)) {
			ret = -1;
		} else if (!na) {
			printf("-:  ------- > %u:  %s\n", i + 1, tb);
		} else if (!nb) {
			printf("%u:  %s < -:  -------\n", i + 1, ta);
		} else if (!strcmp(na, nb)) {
			printf("%u:  %s = %u:  %s\n", i + 1, ta, i + 1, tb);
		} else {
			const char *argv[] = { "git", "diff", "--no-index",
					       "--no-color", "-U3", "--",
					       pa, pb, NULL };
			struct run_opts o = { .capture_out = true,
					      .capture_err = true };
			struct run_result r;

			printf("%u:  %s ! %u:  %s\n", i + 1, ta, i + 1, tb);
			if (write_file_atomic(pa, na, strlen(na)) < 0 ||
			    write_file_atomic(pb, nb, strlen(nb)) < 0 ||
			    run_argv(argv, &o, &r) < 0) {
				ret = -1;
			} else {
				char **lines = g_strsplit(r.out->str, "\n", -1);
				bool body = false;

				/* the diff of the two texts, without its header */
				for (char **l = lines; *l; l++) {
					if (starts_with(*l, "@@"))
						body = true;
					if (body && **l)
						printf("    %s\n", *l);
				}
				g_strfreev(lines);
				run_result_release(&r);
			}
		}
		g_free(ta);
		g_free(tb);
		g_free(na);
		g_free(nb);
		g_free(pa);
		g_free(pb);
	}
	remove_tree(tmp);
	g_free(tmp);
	(void)va;
	(void)vb;
	return ret;
}

static int range_diff(const char *tree, const char *base, GPtrArray *fa,
		      GPtrArray *fb, int va, int vb)
{
	struct applied a, b;
	int ret = -1;

	applied_init(&a);
	applied_init(&b);
	/*
	 * A version posted against another tree may not apply to ours: then
	 * the patches alone are compared, and the user is told why.
	 */
	if (rangediff_apply(tree, base, fa, fb, &a, &b) < 0) {
		fprintf(stderr, "kseries: v%d does not apply to %s: comparing the patches alone\n",
			a.failed >= 0 ? va : vb, base);
		ret = diff_patches(fa, fb, va, vb);
		goto out;
	}
	ret = rangediff_print(tree, &a, &b);
out:
	applied_release(&a);
	applied_release(&b);
	return ret;
}

int cmd_diff(int argc, const char **argv)
{
	const char *spec = NULL, *sa = NULL, *sb = NULL;
	bool patches_only = false;
	struct series s;
	GPtrArray *fa, *fb;
	int va, vb, ret;
	const struct option options[] = {
		OPT_BOOL(0, "patches-only", &patches_only,
			 "compare the patch texts, not a range-diff on the base"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, "diff", options, diff_usage, 0);
	if (argc != 3)
		usage(diff_usage);
	spec = argv[0];
	sa = argv[1];
	sb = argv[2];
	va = parse_v(sa);
	vb = parse_v(sb);
	if (!va || !vb)
		die("bad version '%s': want vN", !va ? sa : sb);
	if (series_load(spec, &s) < 0)
		return EXIT_FINDINGS;
	fa = series_patch_files(&s, va, false);
	fb = series_patch_files(&s, vb, false);
	if (!fa->len || !fb->len) {
		ret = error("%s v%d has no patches here", s.name, !fa->len ? va : vb);
	} else if (!patches_only && kernel_tree()) {
		const char *base = series_get(&s, "series.base");

		ret = range_diff(kernel_tree(), base ? base : WORKBENCH_DEFAULT_BASE, fa, fb,
				 va, vb);
	} else {
		ret = diff_patches(fa, fb, va, vb);
	}
	g_ptr_array_unref(fa);
	g_ptr_array_unref(fb);
	series_release(&s);
	return ret < 0 ? EXIT_FINDINGS : 0;
}
