// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries send SERIES[@vN] [--dry-run] [--b4] - mail a version.
 *
 * The mails `kseries format` writes go to `git send-email` unchanged,
 * with the user's own sendemail.* configuration; they are threaded
 * already (format-patch --thread), so send-email is told --no-thread.
 * With --b4, the version is put on a b4 prep branch (kseries b4-branch)
 * and `b4 send` sends it, with the user's b4 configuration.
 * KSERIES_NO_SEND=1 in the environment (the tests set it) refuses anything
 * but --dry-run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "builtin.h"
#include "format.h"
#include "run.h"
#include "series.h"
#include "util.h"
#include "banned.h"

static const char send_usage[] =
	"kseries send SERIES[@vN] [-d | --dry-run] [--b4 [-w DIR] [--no-sign]]\n"
	"             [--to ADDR]... [--cc ADDR]...";

int cmd_send(int argc, const char **argv)
{
	const char *spec = NULL, *wt_opt = NULL;
	bool dry_run = false, b4 = false, no_sign = false;
	GPtrArray *extra_to = g_ptr_array_new(), *extra_cc = g_ptr_array_new();
	GPtrArray *args = g_ptr_array_new_with_free_func(g_free);
	struct format_opts o;
	struct formatted f;
	struct series s;
	char *tmp = NULL;
	int version, ret = EXIT_FINDINGS;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf("usage: %s\n", send_usage);
			return 0;
		} else if (!strcmp(a, "-d") || !strcmp(a, "--dry-run")) {
			dry_run = true;
		} else if (!strcmp(a, "--b4")) {
			b4 = true;
		} else if (!strcmp(a, "--no-sign")) {
			no_sign = true;
		} else if (!strcmp(a, "-w") || !strcmp(a, "--worktree")) {
			if (++i >= argc)
				usage(send_usage);
			wt_opt = argv[i];
		} else if (!strcmp(a, "--to") || !strcmp(a, "--cc")) {
			if (++i >= argc)
				usage(send_usage);
			g_ptr_array_add(a[2] == 't' ? extra_to : extra_cc,
					(char *)argv[i]);
		} else if (a[0] == '-' || spec) {
			usage(send_usage);
		} else {
			spec = a;
		}
	}
	if (!spec)
		usage(send_usage);
	if (!dry_run && getenv("KSERIES_NO_SEND") && *getenv("KSERIES_NO_SEND"))
		die("KSERIES_NO_SEND is set: only --dry-run is allowed");
	if (b4 && !have_program("b4"))
		die("b4 is not installed");

	if (b4) {
		/* the prep branch first, then b4 send in it */
		const char *bargv[8];
		int n = 0, r;
		char *name = NULL, *wt;
		int v;

		bargv[n++] = "b4-branch";
		bargv[n++] = spec;
		if (wt_opt) {
			bargv[n++] = "-w";
			bargv[n++] = wt_opt;
		}
		bargv[n++] = "--force";
		bargv[n] = NULL;
		r = cmd_b4_branch(n, bargv);
		if (r) {
			ret = r;
			goto out_args;
		}
		if (series_parse_spec(spec, &name, &v) < 0)
			goto out_args;
		wt = wt_opt ? g_canonicalize_filename(wt_opt, NULL) :
			      g_strdup_printf("%s/wt/b4-%s", cache_dir(), name);
		g_ptr_array_add(args, g_strdup("b4"));
		g_ptr_array_add(args, g_strdup("send"));
		if (dry_run)
			g_ptr_array_add(args, g_strdup("--dry-run"));
		if (no_sign)
			g_ptr_array_add(args, g_strdup("--no-sign"));
		if (extra_to->len) {
			g_ptr_array_add(args, g_strdup("--to"));
			for (guint i = 0; i < extra_to->len; i++)
				g_ptr_array_add(args, g_strdup(extra_to->pdata[i]));
		}
		if (extra_cc->len) {
			g_ptr_array_add(args, g_strdup("--cc"));
			for (guint i = 0; i < extra_cc->len; i++)
				g_ptr_array_add(args, g_strdup(extra_cc->pdata[i]));
		}
		g_ptr_array_add(args, NULL);
		fflush(stdout);
		r = run_passthrough(wt, (const char *const *)args->pdata);
		g_free(wt);
		g_free(name);
		ret = r ? EXIT_FINDINGS : 0;
		goto out_args;
	}

	format_opts_init(&o);
	formatted_init(&f);
	if (format_spec(spec, &o, &s, &version, &f) < 0) {
		formatted_release(&f);
		goto out_args;
	}
	if (!f.to->len && !f.cc->len && !extra_to->len && !extra_cc->len) {
		error("%s v%d has no recipients (series.to, MAINTAINERS-notes, get_maintainer.pl)",
		      s.name, version);
		goto out;
	}
	tmp = g_dir_make_tmp("kseries-send-XXXXXX", NULL);
	if (!tmp || formatted_write(&f, tmp) < 0)
		goto out;
	g_ptr_array_add(args, g_strdup("git"));
	g_ptr_array_add(args, g_strdup("send-email"));
	if (dry_run) {
		g_ptr_array_add(args, g_strdup("--dry-run"));
		g_ptr_array_add(args, g_strdup("--confirm=never"));
	}
	g_ptr_array_add(args, g_strdup("--no-thread"));
	g_ptr_array_add(args, g_strdup("--no-format-patch"));
	for (guint i = 0; i < extra_to->len; i++)
		g_ptr_array_add(args, g_strdup_printf("--to=%s",
					(char *)extra_to->pdata[i]));
	for (guint i = 0; i < extra_cc->len; i++)
		g_ptr_array_add(args, g_strdup_printf("--cc=%s",
					(char *)extra_cc->pdata[i]));
	for (guint i = 0; i < f.files->len; i++)
		g_ptr_array_add(args, g_build_filename(tmp,
			((struct format_file *)f.files->pdata[i])->name, NULL));
	g_ptr_array_add(args, NULL);
	fflush(stdout);
	ret = run_passthrough(NULL, (const char *const *)args->pdata) ?
		      EXIT_FINDINGS : 0;
out:
	if (tmp) {
		remove_tree(tmp);
		g_free(tmp);
	}
	formatted_release(&f);
	series_release(&s);
out_args:
	g_ptr_array_unref(args);
	g_ptr_array_unref(extra_to);
	g_ptr_array_unref(extra_cc);
	return ret;
}
