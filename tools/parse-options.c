// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse-options.c - the option table of every command, and git config
 * (parse-options.h says why this and not GOptionContext).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>

#include "parse-options.h"
#include "util.h"
#include "banned.h"

/* key (normalized) -> GPtrArray of values (char *, NULL for no value) */
static GHashTable *config;

/*
 * Git's case rules: "Section.sub.Name" is "section.sub.name"; the
 * subsection (between the first and the last dot) keeps its case.
 */
static char *config_normalize(const char *key, size_t len)
{
	char *k = g_strndup(key, len);
	char *first = strchr(k, '.'), *last = strrchr(k, '.');

	for (char *p = k; *p && (!first || p < first); p++)
		*p = (char)tolower((unsigned char)*p);
	for (char *p = last; p && *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return k;
}

static void config_add(const char *entry, size_t len)
{
	const char *nl = memchr(entry, '\n', len);
	const char *eq = nl ? NULL : memchr(entry, '=', len);
	const char *sep = nl ? nl : eq;
	size_t klen = sep ? (size_t)(sep - entry) : len;
	char *key, *value = NULL;
	GPtrArray *values;

	if (!klen)
		return;
	key = config_normalize(entry, klen);
	if (sep)
		value = g_strndup(sep + 1, len - klen - 1);
	values = g_hash_table_lookup(config, key);
	if (!values) {
		values = g_ptr_array_new_with_free_func(g_free);
		g_hash_table_insert(config, key, values);
	} else {
		g_free(key);
	}
	g_ptr_array_add(values, value);
}

static void config_new(void)
{
	config = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
				       (GDestroyNotify)g_ptr_array_unref);
}

/* Adds the entries of one libgit2 config (its levels in precedence order). */
static int config_add_entry(const git_config_entry *e, void *data)
{
	GString *pair = data;

	/* "key\nvalue", as git config -z --list gives it, or "key" alone */
	g_string_assign(pair, e->name);
	if (e->value) {
		g_string_append_c(pair, '\n');
		g_string_append(pair, e->value);
	}
	config_add(pair->str, pair->len);
	return 0;
}

static bool env_true(const char *name)
{
	const char *v = getenv(name);

	return v && config_bool(v) == 1;
}

/* Adds path at level when it is there (git skips a missing file). */
static void config_add_file(git_config *cfg, const char *path,
			    git_config_level_t level, const git_repository *repo)
{
	if (path && *path && g_file_test(path, G_FILE_TEST_EXISTS))
		git_config_add_file_ondisk(cfg, path, level, repo, 1);
}

/*
 * The files git reads, lowest precedence first (git-config(1) FILES):
 * system ($GIT_CONFIG_SYSTEM, else /etc/gitconfig; none with
 * GIT_CONFIG_NOSYSTEM), then $GIT_CONFIG_GLOBAL alone or else the XDG
 * file and ~/.gitconfig, then the repository's config (found as git
 * finds it: $GIT_DIR, else up from the current directory) and its
 * config.worktree when extensions.worktreeConfig is on.
 */
static void config_add_files(git_config *cfg, git_repository **repo)
{
	const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
	const char *global = getenv("GIT_CONFIG_GLOBAL");
	char *p;

	if (!env_true("GIT_CONFIG_NOSYSTEM"))
		config_add_file(cfg, getenv("GIT_CONFIG_SYSTEM") ?
				getenv("GIT_CONFIG_SYSTEM") : "/etc/gitconfig",
				GIT_CONFIG_LEVEL_SYSTEM, NULL);
	if (global) {
		config_add_file(cfg, global, GIT_CONFIG_LEVEL_GLOBAL, NULL);
	} else {
		p = xdg && *xdg ? g_build_filename(xdg, "git", "config", NULL) :
		    home ? g_build_filename(home, ".config", "git", "config", NULL) :
		    NULL;
		config_add_file(cfg, p, GIT_CONFIG_LEVEL_XDG, NULL);
		g_free(p);
		p = home ? g_build_filename(home, ".gitconfig", NULL) : NULL;
		config_add_file(cfg, p, GIT_CONFIG_LEVEL_GLOBAL, NULL);
		g_free(p);
	}
	if (git_repository_open_ext(repo, NULL, GIT_REPOSITORY_OPEN_FROM_ENV,
				    NULL) < 0) {
		*repo = NULL;	/* not in a repository: no local config */
		return;
	}
	p = g_build_filename(git_repository_commondir(*repo), "config", NULL);
	config_add_file(cfg, p, GIT_CONFIG_LEVEL_LOCAL, *repo);
	g_free(p);
}

/* The repository's config.worktree, when extensions.worktreeConfig is on. */
static void config_add_worktree(git_config *cfg, git_repository *repo)
{
	int on = 0;
	char *p;

	if (!repo || git_config_get_bool(&on, cfg, "extensions.worktreeconfig") < 0 ||
	    !on)
		return;
	p = g_build_filename(git_repository_path(repo), "config.worktree", NULL);
	config_add_file(cfg, p, GIT_CONFIG_LEVEL_APP, repo);
	g_free(p);
}

/* GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n>, GIT_CONFIG_VALUE_<n>: last, as git. */
static void config_add_env(void)
{
	const char *count = getenv("GIT_CONFIG_COUNT");
	long n = count ? strtol(count, NULL, 10) : 0;

	for (long i = 0; i < n && i < 1000; i++) {
		char name[40];
		const char *k, *v;
		char *pair;

		g_snprintf(name, sizeof(name), "GIT_CONFIG_KEY_%ld", i);
		k = getenv(name);
		g_snprintf(name, sizeof(name), "GIT_CONFIG_VALUE_%ld", i);
		v = getenv(name);
		if (!k || !*k || !v)
			break;	/* git refuses the lot: keep what came before */
		pair = g_strdup_printf("%s\n%s", k, v);
		config_add(pair, strlen(pair));
		g_free(pair);
	}
}

/*
 * The user's git config, read in-process with libgit2 (no git config
 * child): the files and precedence git config --list has.
 */
static void config_load(void)
{
	static bool git2;
	git_config *cfg = NULL;
	git_repository *repo = NULL;
	GString *pair = g_string_new(NULL);

	config_new();
	if (!git2) {
		git_libgit2_init();
		git2 = true;
	}
	if (git_config_new(&cfg) == 0) {
		config_add_files(cfg, &repo);
		config_add_worktree(cfg, repo);
		/* an unreadable file: git dies, list what could be read */
		git_config_foreach(cfg, config_add_entry, pair);
		git_config_free(cfg);
	}
	if (repo)
		git_repository_free(repo);
	config_add_env();
	g_string_free(pair, TRUE);
}

void config_set_for_test(const char *const *pairs)
{
	if (config)
		g_hash_table_destroy(config);
	config = NULL;
	if (!pairs)
		return;
	config_new();
	for (; *pairs; pairs++)
		config_add(*pairs, strlen(*pairs));
}

GPtrArray *config_get_all(const char *key)
{
	char *k = config_normalize(key, strlen(key));
	GPtrArray *values;

	if (!config)
		config_load();
	values = g_hash_table_lookup(config, k);
	g_free(k);
	return values;
}

bool config_get(const char *key, const char **value)
{
	GPtrArray *values = config_get_all(key);

	if (!values || !values->len)
		return false;
	*value = values->pdata[values->len - 1];
	return true;
}

int config_bool(const char *value)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0", "" };

	if (!value)
		return 1;	/* "[kseries] color" alone is true */
	for (size_t i = 0; i < G_N_ELEMENTS(yes); i++)
		if (!g_ascii_strcasecmp(value, yes[i]))
			return 1;
	for (size_t i = 0; i < G_N_ELEMENTS(no); i++)
		if (!g_ascii_strcasecmp(value, no[i]))
			return 0;
	return -1;
}

/* The parser's state over one argv. */
struct parse_ctx {
	const struct option *opts;
	const char *usagestr, *cmd;
	const char **argv;
	int argc, i;
	bool *seen;		/* per row: given on the command line */
};

static bool takes_value(const struct option *o)
{
	switch (o->type) {
	case OPTION_STRING:
	case OPTION_STRING_LIST:
		return true;
	case OPTION_CALLBACK:
		return !(o->flags & PARSE_OPT_NOARG);
	default:
		return false;
	}
}

static bool is_flag(const struct option *o)
{
	return !takes_value(o);
}

G_GNUC_NORETURN static void bad_usage(const struct parse_ctx *c)
{
	usage(c->usagestr);
}

/* Applies one value; unset for --no-NAME. Returns 0 or -1. */
static int apply(const struct option *o, const char *arg, bool unset)
{
	switch (o->type) {
	case OPTION_BOOL:
		*(bool *)o->value = !unset;
		return 0;
	case OPTION_SET_INT:
		*(int *)o->value = unset ? 0 : (int)o->defval;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = unset ? NULL : arg;
		return 0;
	case OPTION_STRING_LIST:
		if (unset)
			g_ptr_array_set_size(o->value, 0);
		else
			g_ptr_array_add(o->value, (char *)arg);
		return 0;
	case OPTION_CALLBACK:
		return o->callback(o, unset ? NULL : arg, unset);
	case OPTION_END:
		break;
	}
	return -1;
}

static const char *opt_name(const struct option *o, bool is_short,
			    char buf[4])
{
	if (!is_short)
		return o->long_name;
	buf[0] = '-';
	buf[1] = (char)o->short_name;
	buf[2] = '\0';
	return buf;
}

static bool has_help(const struct option *opts, bool is_short)
{
	for (const struct option *o = opts; o->type != OPTION_END; o++)
		if (is_short ? o->short_name == 'h' :
		    o->long_name && !strcmp(o->long_name, "help"))
			return true;
	return false;
}

G_GNUC_NORETURN static void show_help(const struct parse_ctx *c)
{
	parse_options_help(stdout, c->cmd, c->opts, c->usagestr);
	exit(0);
}

/*
 * The value of an option that wants one: what follows "=" or the rest of
 * a short bundle (inline), else the next argument.
 */
static const char *get_value(struct parse_ctx *c, const struct option *o,
			     const char *inline_val, const char *name)
{
	if (inline_val)
		return inline_val;
	if (c->i + 1 >= c->argc) {
		error("option '%s%s' requires a value",
		      name[0] == '-' ? "" : "--", name);
		bad_usage(c);
	}
	return c->argv[++c->i];
}

static void run_opt(struct parse_ctx *c, const struct option *o,
		    const char *arg, bool unset)
{
	c->seen[o - c->opts] = true;
	if (apply(o, arg, unset) < 0)
		bad_usage(c);
}

static void parse_long(struct parse_ctx *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const char *val = eq ? eq + 1 : NULL;

	if (len == 4 && !memcmp(arg, "help", 4) && !has_help(c->opts, false))
		show_help(c);
	for (const struct option *o = c->opts; o->type != OPTION_END; o++) {
		const char *l = o->long_name;
		bool unset;

		if (!l)
			continue;
		if (strlen(l) == len && !memcmp(arg, l, len))
			unset = false;
		else if (len > 3 && !memcmp(arg, "no-", 3) &&
			 strlen(l) == len - 3 && !memcmp(arg + 3, l, len - 3) &&
			 !(o->flags & PARSE_OPT_NONEG))
			unset = true;
		else if (starts_with(l, "no-") && strlen(l) - 3 == len &&
			 !memcmp(arg, l + 3, len) && is_flag(o))
			unset = true;	/* --cache for --no-cache */
		else
			continue;
		if (val && (unset || is_flag(o))) {
			error("option '--%.*s' takes no value", (int)len, arg);
			bad_usage(c);
		}
		if (!unset && takes_value(o))
			val = get_value(c, o, val, l);
		run_opt(c, o, val, unset);
		return;
	}
	error("unknown option '--%.*s'", (int)len, arg);
	bad_usage(c);
}

static void parse_short(struct parse_ctx *c, const char *arg)
{
	for (const char *p = arg; *p; p++) {
		const struct option *o;
		char buf[4];

		if (*p == 'h' && !has_help(c->opts, true))
			show_help(c);
		for (o = c->opts; o->type != OPTION_END; o++)
			if (o->short_name == *p)
				break;
		if (o->type == OPTION_END) {
			error("unknown option '-%c'", *p);
			bad_usage(c);
		}
		if (takes_value(o)) {
			const char *val = get_value(c, o, p[1] ? p + 1 : NULL,
						    opt_name(o, true, buf));

			run_opt(c, o, val, false);
			return;
		}
		run_opt(c, o, NULL, false);
	}
}

static void from_config(const struct parse_ctx *c, const struct option *o)
{
	char *key = g_strdup_printf("kseries.%s.%s", c->cmd, o->long_name);
	GPtrArray *values = config_get_all(key);
	bool foreign = false;

	if (!values && o->config) {
		values = config_get_all(o->config);
		foreign = true;
		g_free(key);
		key = g_strdup(o->config);
	}
	for (guint k = 0; values && k < values->len; k++) {
		const char *v = values->pdata[k];
		int b = 1;

		/* only lists and callbacks want every value */
		if (k + 1 < values->len && o->type != OPTION_STRING_LIST &&
		    o->type != OPTION_CALLBACK)
			continue;
		if (is_flag(o)) {
			b = config_bool(v);
			if (b < 0 && foreign)
				continue;	/* another tool's word ("auto") */
			if (b < 0)
				die("bad boolean config value '%s' for '%s'",
				    v, key);
		} else if (!v) {
			die("missing value for '%s'", key);
		}
		if (apply(o, is_flag(o) ? NULL : v, !b) < 0)
			exit(EXIT_FATAL);
	}
	g_free(key);
}

int parse_options(int argc, const char **argv, const char *cmd,
		  const struct option *opts, const char *usagestr,
		  unsigned flags)
{
	struct parse_ctx c = { .opts = opts, .usagestr = usagestr,
			       .cmd = cmd, .argv = argv, .argc = argc };
	size_t nopts = 0;
	int out = 0;

	while (opts[nopts].type != OPTION_END)
		nopts++;
	c.seen = g_new0(bool, nopts + 1);
	for (c.i = 1; c.i < argc; c.i++) {
		const char *arg = argv[c.i];

		if (arg[0] != '-' || !arg[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[out++] = arg;
		} else if (!strcmp(arg, "--")) {
			c.i++;
			break;
		} else if (arg[1] == '-') {
			parse_long(&c, arg + 2);
		} else {
			parse_short(&c, arg + 1);
		}
	}
	while (c.i < argc)
		argv[out++] = argv[c.i++];
	if (out < argc)
		argv[out] = NULL;
	for (size_t k = 0; cmd && k < nopts; k++)
		if (!c.seen[k] && opts[k].long_name &&
		    !(opts[k].flags & PARSE_OPT_NOCONFIG))
			from_config(&c, &opts[k]);
	g_free(c.seen);
	return out;
}

static bool negatable(const struct option *o)
{
	return is_flag(o) && !(o->flags & PARSE_OPT_NONEG) &&
	       o->type != OPTION_CALLBACK && !starts_with(o->long_name, "no-");
}

void parse_options_help(FILE *fp, const char *cmd,
			const struct option *opts, const char *usagestr)
{
	GString *config_names = g_string_new(NULL);

	fprintf(fp, "usage: %s\n", usagestr);
	if (opts->type != OPTION_END)
		fputc('\n', fp);
	for (const struct option *o = opts; o->type != OPTION_END; o++) {
		GString *left;

		if (o->flags & PARSE_OPT_HIDDEN)
			continue;
		left = g_string_new("    ");
		if (o->short_name)
			g_string_append_printf(left, "-%c", o->short_name);
		if (o->short_name && o->long_name)
			g_string_append(left, ", ");
		if (o->long_name)
			g_string_append_printf(left, "--%s%s",
					       negatable(o) ? "[no-]" : "",
					       o->long_name);
		if (takes_value(o))
			g_string_append_printf(left, " %s",
					       o->argh ? o->argh : "VALUE");
		if (left->len >= 26)
			g_string_append_printf(left, "\n%26s", "");
		else
			g_string_append_printf(left, "%*s",
					       (int)(26 - left->len), "");
		fprintf(fp, "%s%s\n", left->str, o->help ? o->help : "");
		g_string_free(left, TRUE);
		if (o->long_name && !(o->flags & PARSE_OPT_NOCONFIG)) {
			const char *nl = strrchr(config_names->str, '\n');
			size_t col = config_names->len -
				     (nl ? (size_t)(nl + 1 - config_names->str) : 0);

			if (config_names->len)
				g_string_append(config_names, ",");
			g_string_append(config_names,
					col + strlen(o->long_name) > 72 ?
					"\n    " : " ");
			g_string_append(config_names, o->long_name);
		}
	}
	if (cmd && config_names->len)
		fprintf(fp, "\nRead from git config kseries.%s.<option> when not "
			"given:\n   %s\n", cmd, config_names->str);
	g_string_free(config_names, TRUE);
}
