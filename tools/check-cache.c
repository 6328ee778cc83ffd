// SPDX-License-Identifier: GPL-2.0-only
/*
 * check-cache.c - the one content-keyed cache of check results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <git2.h>
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

/* documentation is not an input */
static bool not_doc(const char *dir, const char *name, void *data)
{
	(void)dir;
	(void)data;
	return !g_str_has_suffix(name, ".md");
}

/* Hashes every regular file below dir, sorted by name, into sum. */
static void hash_tree(GChecksum *sum, const char *dir)
{
	GPtrArray *names = dir_names_sorted(dir, not_doc, NULL);

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

/* The digest of the one input bit (a CHECK_IN_*) of ctx; new string. */
static char *input_digest(const struct check_ctx *ctx, unsigned bit)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	char *vd, *out;

	switch (bit) {
	case CHECK_IN_KERNEL:
		hash_tree(sum, ctx->kernel_dir);
		break;
	case CHECK_IN_COCCI:
		hash_tree(sum, ctx->cocci_dir);
		break;
	case CHECK_IN_MODEL:
		hash_path(sum, ctx->s->dir, "model");
		break;
	case CHECK_IN_SCRIPTS:
		/*
		 * The series' stage scripts and the programs its VMs run
		 * (check/prog/); what the series share (kernel/prog/,
		 * kernel/vm-stage.sh) is in kernel/, CHECK_IN_KERNEL.
		 */
		hash_path(sum, ctx->s->dir, "check");
		break;
	case CHECK_IN_MAILS:
		/*
		 * The mails themselves: the cover letter and what a patch
		 * carries outside its commit (notes below the "---").
		 */
		vd = series_version_dir(ctx->s, ctx->version);
		if (vd)
			hash_tree(sum, vd);
		g_free(vd);
		break;
	case CHECK_IN_REVIEW:
		hash_path(sum, ctx->s->dir, "feedback");
		hash_file(sum, ctx->s->conf_path);
		break;
	case CHECK_IN_MAINTAINERS:
		hash_path(sum, store_top(), "MAINTAINERS-notes");
		break;
	case CHECK_IN_SERIES:
		hash_series(sum, ctx);
		break;
	}
	out = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	return out;
}

/*
 * The inputs of in, each hashed in its own fixed place in the key (its
 * bit, then its digest), each digest computed once for the version when
 * ctx keeps them (ctx->input_digests).
 */
static void hash_inputs(GChecksum *sum, struct check_ctx *ctx, unsigned in)
{
	for (unsigned bit = CHECK_IN_KERNEL; bit <= CHECK_IN_SERIES; bit <<= 1) {
		gpointer k = GUINT_TO_POINTER(bit);
		char *tag, *d;

		if (!(in & bit))
			continue;
		d = ctx->input_digests ?
		    g_hash_table_lookup(ctx->input_digests, k) : NULL;
		if (!d) {
			d = input_digest(ctx, bit);
			if (ctx->input_digests)
				g_hash_table_insert(ctx->input_digests, k, d);
		}
		tag = g_strdup_printf("\n%x:", bit);
		hash_str(sum, tag);
		hash_str(sum, d);
		g_free(tag);
		if (!ctx->input_digests)
			g_free(d);
	}
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
	else if (st->inputs & CHECK_IN_KUNIT_KERNEL)
		stage_kunit_kernel_key(ctx, sum);
	hash_inputs(sum, ctx, st->inputs);
	out = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	return out;
}

/* ---- the apply stage's cache ---- */

/* repo opened with libgit2 (initialised once), or NULL. */
static git_repository *repo_open(const char *path)
{
	static bool init;
	git_repository *repo = NULL;

	if (!init) {
		git_libgit2_init();
		init = true;
	}
	if (git_repository_open_ext(&repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL) < 0)
		return NULL;
	return repo;
}

/* rev resolved to a commit id in repo, in-process; new string or NULL. */
static char *repo_resolve(git_repository *repo, const char *rev)
{
	char *spec = g_strdup_printf("%s^{commit}", rev);
	git_object *obj = NULL;
	char *id = NULL;

	if (git_revparse_single(&obj, repo, spec) == 0) {
		id = g_strdup(git_oid_tostr_s(git_object_id(obj)));
		git_object_free(obj);
	}
	g_free(spec);
	return id;
}

/*
 * The git that applies the patches (PATH's, as run.c's children find
 * it): its path, size, change time and inode, so that another git makes
 * other commits' keys, without running it.
 */
static void hash_git_program(GChecksum *sum)
{
	char *git = g_find_program_in_path("git");
	char *real = git ? realpath(git, NULL) : NULL;
	const char *exec_path = getenv("GIT_EXEC_PATH");
	struct stat st;

	if (real && stat(real, &st) == 0) {
		char *id = g_strdup_printf("%s\n%lld %lld.%09ld %llu\n", real,
					   (long long)st.st_size,
					   (long long)st.st_mtim.tv_sec,
					   st.st_mtim.tv_nsec,
					   (unsigned long long)st.st_ino);

		hash_str(sum, id);
		g_free(id);
	}
	if (exec_path)
		hash_str(sum, exec_path);
	free(real);
	g_free(git);
}

char *check_cache_apply_key(const char *tree, const char *base_rev,
			    GPtrArray *files)
{
	git_repository *repo = repo_open(tree);
	GChecksum *sum;
	char *base, *conf, *out;

	if (!repo)
		return NULL;
	base = repo_resolve(repo, base_rev);
	if (!base) {
		git_repository_free(repo);
		return NULL;
	}
	sum = g_checksum_new(G_CHECKSUM_SHA256);
	hash_str(sum, "kseries-apply-1\n");
	/* how apply.c makes commits: its steps, the fixed sender */
	hash_str(sum, KSERIES_SOURCE_ID);
	hash_str(sum, base_rev);
	hash_str(sum, "\n");
	hash_str(sum, base);
	hash_git_program(sum);
	/* the only git config its children read (run.c: no global one) */
	conf = g_build_filename(git_repository_commondir(repo), "config", NULL);
	hash_str(sum, "\nconfig:");
	hash_file(sum, conf);
	for (guint i = 0; i < files->len; i++) {
		char *bn = g_path_get_basename(files->pdata[i]);
		char *buf, *head;
		size_t len;

		if (read_file(files->pdata[i], MAIL_MAX_FILE, &buf, &len) < 0) {
			/* unreadable: no key, apply says why */
			g_free(bn);
			g_free(conf);
			g_free(base);
			g_checksum_free(sum);
			git_repository_free(repo);
			return NULL;
		}
		head = g_strdup_printf("\npatch %u %s %zu\n", i, bn, len);
		hash_str(sum, head);
		g_checksum_update(sum, (const guchar *)buf, (gssize)len);
		g_free(head);
		g_free(buf);
		g_free(bn);
	}
	out = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	g_free(conf);
	g_free(base);
	git_repository_free(repo);
	return out;
}

/* The strings of the JSON array a, all of them object ids; or NULL. */
static GPtrArray *json_ids(json_t *a, bool ids)
{
	GPtrArray *out;
	json_t *v;
	size_t i;

	if (!json_is_array(a))
		return NULL;
	out = g_ptr_array_new_with_free_func(g_free);
	json_array_foreach(a, i, v) {
		const char *str = json_string_value(v);
		git_oid oid;

		if (!str || (ids && (strlen(str) != GIT_OID_HEXSZ ||
				     git_oid_fromstr(&oid, str) < 0))) {
			g_ptr_array_unref(out);
			return NULL;
		}
		g_ptr_array_add(out, g_strdup(str));
	}
	return out;
}

/* Whether base and every commit are objects of tree's repository. */
static bool objects_present(const char *tree, const char *base,
			    GPtrArray *commits)
{
	git_repository *repo = repo_open(tree);
	git_odb *odb = NULL;
	bool ok = repo && git_repository_odb(&odb, repo) == 0;

	for (guint i = 0; ok && i <= commits->len; i++) {
		const char *id = i < commits->len ? commits->pdata[i] : base;
		git_oid oid;

		ok = git_oid_fromstr(&oid, id) == 0 && git_odb_exists(odb, &oid);
	}
	git_odb_free(odb);
	git_repository_free(repo);
	return ok;
}

bool check_cache_apply_load(struct check_ctx *ctx, const char *key,
			    struct stage_result *r)
{
	struct stage_result got;
	GPtrArray *commits = NULL, *touched = NULL;
	const char *base;
	char *buf;
	size_t len;
	json_t *j;
	bool ok = false;

	if (check_cache_blob_get("apply", key, &buf, &len) < 0)
		return false;
	j = json_loadb(buf, len, 0, NULL);
	g_free(buf);
	stage_result_init(&got, r->name);
	base = json_string_value(json_object_get(j, "base"));
	if (!j || !base || strlen(base) != GIT_OID_HEXSZ ||
	    !(commits = json_ids(json_object_get(j, "commits"), true)) ||
	    commits->len != ctx->files->len ||
	    !(touched = json_ids(json_object_get(j, "touched"), false)) ||
	    stage_result_from_json(json_object_get(j, "result"), &got) < 0 ||
	    !objects_present(ctx->tree, base, commits))
		goto out;
	stage_result_release(r);
	*r = got;
	r->cached = true;
	stage_result_init(&got, r->name);
	g_free(ctx->base);
	ctx->base = g_strdup(base);
	ctx->commits = commits;
	ctx->tip = g_strdup(commits->len ? commits->pdata[commits->len - 1] :
			    base);
	ctx->touched = touched;
	commits = touched = NULL;
	ok = true;
out:
	stage_result_release(&got);
	if (commits)
		g_ptr_array_unref(commits);
	if (touched)
		g_ptr_array_unref(touched);
	json_decref(j);
	return ok;
}

void check_cache_apply_store(const struct check_ctx *ctx, const char *key,
			     const struct stage_result *r)
{
	json_t *j, *commits, *touched;
	char *text;

	/*
	 * A failure may be the tree's or the disk's, and what the 3-way
	 * fallback finds depends on the objects the repository holds (not
	 * in the key): both are applied again next time.
	 */
	if (r->status != ST_PASS)
		return;
	commits = json_array();
	touched = json_array();
	for (guint i = 0; i < ctx->commits->len; i++)
		json_array_append_new(commits,
				      json_string(ctx->commits->pdata[i]));
	for (guint i = 0; i < ctx->touched->len; i++) {
		json_t *p = json_string(ctx->touched->pdata[i]);

		/* a path JSON cannot hold: not kept, applied again next time */
		if (!p) {
			json_decref(commits);
			json_decref(touched);
			return;
		}
		json_array_append_new(touched, p);
	}
	j = json_pack("{s:s, s:o, s:o, s:o}", "base", ctx->base,
		      "commits", commits, "touched", touched,
		      "result", stage_result_to_json(r));
	text = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	if (text)
		check_cache_blob_put("apply", key, text, strlen(text));
	free(text);
	json_decref(j);
}

GPtrArray *check_version_keys(struct series *s, int version)
{
	struct check_ctx ctx;
	struct stage_result r;
	GPtrArray *keys = NULL;

	check_ctx_init(&ctx, s, version);
	ctx.input_digests = check_input_digests_new();
	stage_result_init(&r, check_stages[0].name);
	check_stages[0].fn(&ctx, &r);
	if (r.status == ST_FAIL || r.status == ST_SKIP) {
		error("%s v%d: %s", s->name, version,
		      r.summary ? r.summary : "not applied");
	} else {
		keys = g_ptr_array_new_with_free_func(g_free);
		for (size_t i = 0; i < check_nr_stages; i++)
			g_ptr_array_add(keys,
					check_stages[i].flags & CHECK_F_FIRST ?
					NULL :
					check_cache_key(&ctx, &check_stages[i]));
	}
	stage_result_release(&r);
	check_ctx_release(&ctx);
	return keys;
}

GHashTable *check_input_digests_new(void)
{
	return g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
				     g_free);
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
