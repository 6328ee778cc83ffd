// SPDX-License-Identifier: GPL-2.0-only
/*
 * check-cache.c - the one content-keyed cache of check results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "check-cache.h"
#include "ident.h"
#include "mail.h"
#include "series.h"
#include "source-id.h"
#include "stage.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

static gint cmp_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Hashes every regular file below dir, sorted by name, into sum. */
static void hash_tree(GChecksum *sum, const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	const char *n;

	/* documentation is not an input */
	while (d && (n = g_dir_read_name(d)))
		if (!g_str_has_suffix(n, ".md"))
			g_ptr_array_add(names, g_strdup(n));
	if (d)
		g_dir_close(d);
	g_ptr_array_sort(names, cmp_names);
	for (guint i = 0; i < names->len; i++) {
		char *p = g_build_filename(dir, names->pdata[i], NULL);
		char *buf;
		size_t len;

		if (is_dir(p)) {
			hash_tree(sum, p);
		} else if (is_file(p) && read_file(p, 64u << 20, &buf, &len) == 0) {
			g_checksum_update(sum, (const guchar *)names->pdata[i], -1);
			g_checksum_update(sum, (const guchar *)buf, (gssize)len);
			g_free(buf);
		}
		g_free(p);
	}
	g_ptr_array_unref(names);
}

/* hash_tree() of dir/sub */
static void hash_path(GChecksum *sum, const char *dir, const char *sub)
{
	char *p = g_build_filename(dir, sub, NULL);

	hash_tree(sum, p);
	g_free(p);
}

static void hash_file(GChecksum *sum, const char *path)
{
	char *buf;
	size_t len;

	if (read_file(path, 1 << 20, &buf, &len) == 0) {
		g_checksum_update(sum, (const guchar *)buf, (gssize)len);
		g_free(buf);
	}
}

static void hash_str(GChecksum *sum, const char *s)
{
	g_checksum_update(sum, (const guchar *)s, -1);
}

/* every posting and reply: the evidence of provenance */
static void hash_series(GChecksum *sum, const struct check_ctx *ctx)
{
	GArray *vs = series_versions(ctx->s);
	struct ident id;
	GString *why = g_string_new(NULL);

	for (guint i = 0; i < vs->len; i++) {
		char *vd = series_version_dir(ctx->s, g_array_index(vs, int, i));

		hash_tree(sum, vd);
		g_free(vd);
	}
	g_array_unref(vs);
	hash_file(sum, ctx->s->conf_path);
	ident_init(&id);
	if (ident_sender(&id, why) == 0)
		hash_str(sum, id.email);
	ident_release(&id);
	g_string_free(why, TRUE);
}

/* The inputs of in, each hashed in its own fixed place in the key. */
static void hash_inputs(GChecksum *sum, const struct check_ctx *ctx,
			unsigned in)
{
	if (in & CHECK_IN_KERNEL)
		hash_tree(sum, ctx->kernel_dir);
	if (in & CHECK_IN_COCCI)
		hash_tree(sum, ctx->cocci_dir);
	if (in & CHECK_IN_MODEL)
		hash_path(sum, ctx->s->dir, "model");
	if (in & CHECK_IN_SCRIPTS) {
		/*
		 * The series' stage scripts and the programs its VMs run
		 * (check/prog/); what the series share (kernel/prog/,
		 * kernel/vm-stage.sh) is in kernel/, CHECK_IN_KERNEL.
		 */
		hash_path(sum, ctx->s->dir, "check");
	}
	if (in & CHECK_IN_MAILS) {
		/*
		 * The mails themselves: the cover letter and what a patch
		 * carries outside its commit (notes below the "---").
		 */
		char *vd = series_version_dir(ctx->s, ctx->version);

		if (vd)
			hash_tree(sum, vd);
		g_free(vd);
	}
	if (in & CHECK_IN_REVIEW) {
		hash_path(sum, ctx->s->dir, "feedback");
		hash_file(sum, ctx->s->conf_path);
	}
	if (in & CHECK_IN_MAINTAINERS)
		hash_path(sum, store_top(), "MAINTAINERS-notes");
	if (in & CHECK_IN_SERIES)
		hash_series(sum, ctx);
}

char *check_cache_key(struct check_ctx *ctx, const struct check_stage *st)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	const char *setting = series_version_get(ctx->s, ctx->version,
						 st->name);
	char *versions, *out;
	size_t len;

	hash_str(sum, "kseries-check-1\n");
	/* the checker itself: kseries built from other sources re-checks */
	hash_str(sum, KSERIES_SOURCE_ID);
	hash_str(sum, st->name);
	hash_str(sum, ctx->base);
	for (guint i = 0; i < ctx->commits->len; i++)
		hash_str(sum, ctx->commits->pdata[i]);
	versions = workbench_toolchain_versions(&len);
	if (versions)
		g_checksum_update(sum, (const guchar *)versions, (gssize)len);
	g_free(versions);
	if (setting)
		hash_str(sum, setting);
	if (st->inputs & CHECK_IN_KUNIT)
		stage_kunit_key(ctx, sum);
	hash_inputs(sum, ctx, st->inputs);
	out = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	return out;
}

char *check_version_stage_key(struct series *s, int version,
			      const char *stage)
{
	const struct check_stage *st = check_stage_find(stage);
	struct check_ctx ctx;
	struct stage_result r;
	char *key = NULL;

	if (!st) {
		error("unknown stage '%s'", stage);
		return NULL;
	}
	check_ctx_init(&ctx, s, version);
	stage_result_init(&r, check_stages[0].name);
	check_stages[0].fn(&ctx, &r);
	if (r.status == ST_FAIL || r.status == ST_SKIP)
		error("%s v%d: %s", s->name, version,
		      r.summary ? r.summary : "not applied");
	else
		key = check_cache_key(&ctx, st);
	stage_result_release(&r);
	check_ctx_release(&ctx);
	return key;
}

bool check_cache_load(const struct check_ctx *ctx, const char *key,
		      struct stage_result *r)
{
	char *path = g_strdup_printf("%s/%s.json", ctx->logdir, r->name);
	json_t *j = json_load_file(path, 0, NULL);
	bool ok = false;

	if (j && json_is_string(json_object_get(j, "key")) &&
	    !strcmp(json_string_value(json_object_get(j, "key")), key) &&
	    stage_result_from_json(j, r) == 0) {
		r->cached = true;
		ok = true;
	}
	if (j)
		json_decref(j);
	g_free(path);
	return ok;
}

void check_cache_store(const struct check_ctx *ctx, const char *key,
		       const struct stage_result *r)
{
	char *path, *text;
	json_t *j;

	if (!stage_result_cacheable(r))
		return;
	path = g_strdup_printf("%s/%s.json", ctx->logdir, r->name);
	j = stage_result_to_json(r);
	json_object_set_new(j, "key", json_string(key));
	text = json_dumps(j, JSON_INDENT(1) | JSON_SORT_KEYS);
	if (text)
		write_file_atomic(path, text, strlen(text));
	free(text);
	json_decref(j);
	g_free(path);
}

char *check_cache_patches_key(const char *base, GPtrArray *fa,
			      GPtrArray *fb)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA1);
	char *buf, *key;
	size_t len;

	g_checksum_update(sum, (const guchar *)base, (gssize)strlen(base) + 1);
	for (int k = 0; k < 2; k++) {
		GPtrArray *f = k ? fb : fa;

		for (guint i = 0; i < f->len; i++) {
			if (read_file(f->pdata[i], MAIL_MAX_FILE, &buf, &len) < 0)
				continue;
			g_checksum_update(sum, (const guchar *)buf, (gssize)len);
			g_checksum_update(sum, (const guchar *)"\n\1\n", 3);
			g_free(buf);
		}
		g_checksum_update(sum, (const guchar *)"\n\2\n", 3);
	}
	key = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	return key;
}

static char *blob_path(const char *area, const char *key)
{
	return g_build_filename(cache_dir(), "results", area, key, NULL);
}

int check_cache_blob_get(const char *area, const char *key, char **buf,
			 size_t *len)
{
	char *path = blob_path(area, key);
	int ret = -1;

	if (is_file(path) && read_file(path, 1 << 20, buf, len) == 0)
		ret = 0;
	g_free(path);
	return ret;
}

int check_cache_blob_put(const char *area, const char *key, const char *buf,
			 size_t len)
{
	char *dir = g_build_filename(cache_dir(), "results", area, NULL);
	char *path = blob_path(area, key);
	int ret = mkdir_p(dir);

	if (ret == 0)
		ret = write_file_atomic(path, buf, len);
	g_free(dir);
	g_free(path);
	return ret;
}
