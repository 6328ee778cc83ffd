// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries fetch SERIES... | --all
 *
 * New replies to each posted version, and a newer version someone
 * posted, from a public-inbox server (fetch.h). Every series is fetched
 * before anything is written: a server that is down, an HTTP error or a
 * bad answer leaves the store as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "fetch.h"
#include "lore.h"
#include "parse-options.h"
#include "series.h"
#include "util.h"
#include "banned.h"

static const char fetch_usage[] = "kseries fetch (SERIES... | --all)";

static void print_count(const char *name, const struct fetch_count *c)
{
	printf("%s v%d: %u new repl%s, %u comment%s, %u trailer%s\n", name,
	       c->version, c->replies, c->replies == 1 ? "y" : "ies",
	       c->comments, c->comments == 1 ? "" : "s", c->trailers,
	       c->trailers == 1 ? "" : "s");
}

/* The newer posting through `kseries import`'s code, then its replies. */
static int import_newer(struct fetch_plan *p)
{
	char *tmp = NULL, vbuf[16];
	int fd, ret = -1;
	struct fetch_count c;
	const char *argv[] = { "import", p->s->name, NULL, "--version", vbuf,
			       NULL };

	fd = g_file_open_tmp("kseries-fetch-XXXXXX.mbox", &tmp, NULL);
	if (fd < 0)
		return error_errno("cannot create a temporary file");
	close(fd);
	g_snprintf(vbuf, sizeof(vbuf), "%d", p->newer_version);
	argv[2] = tmp;
	printf("%s v%d: posted on the list\n", p->s->name, p->newer_version);
	fflush(stdout);
	if (write_file_atomic(tmp, p->newer_mbox->str, p->newer_mbox->len) < 0 ||
	    cmd_import(5, argv) != 0)
		goto out;
	/* import wrote series.conf: read it again */
	{
		char *name = g_strdup(p->s->name);

		series_release(p->s);
		ret = series_load(name, p->s);
		g_free(name);
	}
	if (!ret)
		ret = fetch_ingest_version(p->s, p->newer_version, &c);
	if (!ret)
		print_count(p->s->name, &c);
out:
	unlink(tmp);
	g_free(tmp);
	return ret;
}

int cmd_fetch(int argc, const char **argv)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	struct series *ss = NULL;
	struct fetch_plan *plans = NULL;
	char *base = NULL;
	bool all = false;
	int ret = EXIT_FINDINGS;
	guint n = 0;
	const struct option options[] = {
		OPT_BOOL_F(0, "all", &all, "every series of the store",
			   PARSE_OPT_NOCONFIG),
		OPT_END(),
	};

	argc = parse_options(argc, argv, "fetch", options, fetch_usage, 0);
	for (int i = 0; i < argc; i++) {
		if (!safe_component(argv[i]))
			die("bad series name '%s'", argv[i]);
		g_ptr_array_add(names, g_strdup(argv[i]));
	}
	if (all == !!names->len)
		usage(fetch_usage);
	if (all) {
		g_ptr_array_unref(names);
		names = series_list_names();
	}
	base = lore_base();
	if (!base)
		goto out;
	ss = g_new0(struct series, names->len);
	plans = g_new0(struct fetch_plan, names->len);
	for (n = 0; n < names->len; n++) {
		fetch_plan_init(&plans[n]);
		if (series_load(names->pdata[n], &ss[n]) < 0 ||
		    fetch_plan(&ss[n], base, &plans[n]) < 0) {
			n++;
			goto out;
		}
	}
	ret = 0;
	for (guint i = 0; i < n; i++) {
		GArray *counts = g_array_new(FALSE, TRUE,
					     sizeof(struct fetch_count));

		if (fetch_plan_empty(&plans[i]))
			printf("%s: nothing new\n", ss[i].name);
		if (fetch_apply(&plans[i], counts) < 0)
			ret = EXIT_FINDINGS;
		for (guint k = 0; k < counts->len; k++)
			print_count(ss[i].name,
				    &g_array_index(counts, struct fetch_count, k));
		g_array_unref(counts);
		if (plans[i].newer_version && import_newer(&plans[i]) < 0)
			ret = EXIT_FINDINGS;
	}
out:
	for (guint i = 0; i < n; i++) {
		fetch_plan_release(&plans[i]);
		series_release(&ss[i]);
	}
	g_free(plans);
	g_free(ss);
	g_free(base);
	g_ptr_array_unref(names);
	return ret;
}
