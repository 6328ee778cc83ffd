// SPDX-License-Identifier: GPL-2.0-only
/*
 * ci-gitlab.c - kseries ci --gitlab: the check pipeline as GitLab CI
 * YAML (ci-gitlab.h).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "check-cache.h"
#include "ci-gitlab.h"
#include "series.h"
#include "util.h"
#include "banned.h"

/* Where the jobs keep kseries' cache and their KCIDB files. */
#define CI_CACHE_DIR ".kseries-cache"
#define CI_KCIDB_DIR "kcidb"
#define CI_MERGE_STAGE "results"
#define CI_HEAVY_TAG "kvm"

/* The YAML double-quoted scalar of s, appended to out. */
static void yaml_quote(GString *out, const char *s)
{
	g_string_append_c(out, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			g_string_append_printf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			g_string_append_printf(out, "\\x%02x", *p);
		else
			g_string_append_c(out, *p);
	}
	g_string_append_c(out, '"');
}

/*
 * A series name that is also a safe GitLab job name, path component
 * and shell word: [A-Za-z0-9][A-Za-z0-9._-]*.
 */
static bool ci_name_ok(const char *name)
{
	if (!g_ascii_isalnum(name[0]))
		return false;
	for (const char *p = name; *p; p++)
		if (!g_ascii_isalnum(*p) && !strchr("._-", *p))
			return false;
	return true;
}

static bool stage_heavy(const struct check_stage *st)
{
	return st->inputs & CHECK_IN_KERNEL;
}

/* One job: NAME-vN-STAGE, after prev (NULL for the first), cached by key. */
static void ci_job(GString *y, const char *name, int version,
		   const struct check_stage *st, const char *key,
		   const char *prev)
{
	char *job = g_strdup_printf("%s-v%d-%s", name, version, st->name);
	char *result = g_strdup_printf(CI_CACHE_DIR "/results/%s/v%d/%s.*",
				       name, version, st->name);
	char *kcidb = g_strdup_printf(CI_KCIDB_DIR "/%s.json", job);
	char *script = g_strdup_printf("kseries check '%s@v%d' --stage %s --kcidb %s",
				       name, version, st->name, kcidb);

	g_string_append(y, "\n");
	yaml_quote(y, job);
	g_string_append(y, ":\n  stage: ");
	yaml_quote(y, st->name);
	g_string_append(y, "\n");
	if (prev) {
		g_string_append(y, "  needs:\n    - ");
		yaml_quote(y, prev);
		g_string_append(y, "\n");
	}
	if (stage_heavy(st)) {
		g_string_append(y, "  tags:\n    - ");
		yaml_quote(y, CI_HEAVY_TAG);
		g_string_append(y, "\n");
	}
	if (key) {
		g_string_append(y, "  cache:\n    key: ");
		yaml_quote(y, key);
		g_string_append(y, "\n    paths:\n      - ");
		yaml_quote(y, result);
		g_string_append(y, "\n");
	}
	g_string_append(y, "  script:\n    - ");
	yaml_quote(y, "mkdir -p " CI_KCIDB_DIR);
	g_string_append(y, "\n    - ");
	yaml_quote(y, script);
	g_string_append(y, "\n  artifacts:\n    when: always\n    paths:\n");
	if (key) {
		g_string_append(y, "      - ");
		yaml_quote(y, result);
		g_string_append(y, "\n");
	}
	g_string_append(y, "      - ");
	yaml_quote(y, kcidb);
	g_string_append(y, "\n");
	g_free(job), g_free(result), g_free(kcidb), g_free(script);
}

/* Every stage's job of spec's version into y; its NAME@vN into done. */
static int ci_version(GString *y, const char *spec, GPtrArray *done)
{
	struct series s;
	char *name, *prev = NULL;
	GPtrArray *keys = NULL;
	int version, ret = 0;

	if (series_parse_spec(spec, &name, &version) < 0)
		return -1;
	if (!ci_name_ok(name)) {
		error("series name '%s' cannot be a GitLab job name", name);
		g_free(name);
		return -1;
	}
	if (series_load(name, &s) < 0) {
		g_free(name);
		return -1;
	}
	if (!version)
		version = series_latest_version(&s);
	if (version <= 0) {
		error("series '%s' has no version", name);
		ret = -1;
	}
	/*
	 * Every stage's key at once: the version applied once, each input
	 * hashed once. apply has none: it makes the commits they are of.
	 */
	if (!ret && !(keys = check_version_keys(&s, version)))
		ret = -1;
	for (size_t i = 0; !ret && i < check_nr_stages; i++) {
		ci_job(y, name, version, &check_stages[i], keys->pdata[i], prev);
		g_free(prev);
		prev = g_strdup_printf("%s-v%d-%s", name, version,
				       check_stages[i].name);
	}
	if (!ret)
		g_ptr_array_add(done, g_strdup_printf("'%s@v%d'", name, version));
	if (keys)
		g_ptr_array_unref(keys);
	g_free(prev);
	g_free(name);
	series_release(&s);
	return ret;
}

/* The last job: every version's results from the artifacts, merged. */
static void ci_merge(GString *y, GPtrArray *done)
{
	GString *cmd = g_string_new("kseries check");

	for (guint i = 0; i < done->len; i++)
		g_string_append_printf(cmd, " %s", (char *)done->pdata[i]);
	g_string_append(cmd, " --json --kcidb kcidb.json >results.json");
	g_string_append(y, "\n");
	yaml_quote(y, "kseries-results");
	g_string_append(y, ":\n  stage: ");
	yaml_quote(y, CI_MERGE_STAGE);
	g_string_append(y, "\n  script:\n    - ");
	yaml_quote(y, cmd->str);
	g_string_append(y, "\n  artifacts:\n    when: always\n    paths:\n"
			   "      - \"results.json\"\n      - \"kcidb.json\"\n");
	g_string_free(cmd, TRUE);
}

int ci_gitlab_print(FILE *out, GPtrArray *specs)
{
	GString *y = g_string_new("# kseries ci --gitlab: the check pipeline\n");
	GPtrArray *done = g_ptr_array_new_with_free_func(g_free);
	int ret = 0;

	g_string_append(y, "stages:\n");
	for (size_t i = 0; i < check_nr_stages; i++) {
		g_string_append(y, "  - ");
		yaml_quote(y, check_stages[i].name);
		g_string_append(y, "\n");
	}
	g_string_append(y, "  - \"" CI_MERGE_STAGE "\"\n"
			   "variables:\n"
			   "  KSERIES_DIR: \"$CI_PROJECT_DIR\"\n"
			   "  KSERIES_CACHE: \"$CI_PROJECT_DIR/" CI_CACHE_DIR "\"\n");
	for (guint i = 0; !ret && i < specs->len; i++)
		ret = ci_version(y, specs->pdata[i], done);
	if (!ret && !done->len) {
		error("no series to check");
		ret = -1;
	}
	if (!ret) {
		ci_merge(y, done);
		if (fwrite(y->str, 1, y->len, out) != y->len || fflush(out)) {
			error_errno("writing the pipeline");
			ret = -1;
		}
	}
	g_ptr_array_unref(done);
	g_string_free(y, TRUE);
	return ret;
}
