// SPDX-License-Identifier: GPL-2.0-only
/*
 * ident.c - who sends the mails: the user's git identity (ident.h).
 */
#include <string.h>

#include "ident.h"
#include "run.h"
#include "trailer.h"
#include "util.h"
#include "banned.h"

void ident_init(struct ident *id)
{
	id->name = NULL;
	id->email = NULL;
}

void ident_release(struct ident *id)
{
	g_free(id->name);
	g_free(id->email);
	ident_init(id);
}

bool ident_is_placeholder(const char *email)
{
	const char *at = email ? strrchr(email, '@') : NULL;
	char *d;
	bool bad;

	if (!at || at == email || !at[1])
		return true;
	d = g_ascii_strdown(at + 1, -1);
	g_strstrip(d);
	/* a one-label domain (localhost, invalid) takes no mail either */
	bad = !strchr(d, '.') || g_str_has_suffix(d, ".localhost") ||
	      g_str_has_suffix(d, ".invalid") ||
	      g_str_has_suffix(d, ".localdomain");
	g_free(d);
	return bad;
}

bool ident_text_has_placeholder(const char *text, size_t len)
{
	static GRegex *re;
	GMatchInfo *mi = NULL;
	bool found = false;

	if (!re)
		re = g_regex_new("[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+\\.)*"
				 "(localhost|invalid|localdomain)\\b",
				 G_REGEX_CASELESS, 0, NULL);
	found = g_regex_match_full(re, text, (gssize)len, 0, 0, &mi, NULL);
	g_match_info_free(mi);
	return found;
}

/*
 * The values of sendemail.from, user.name and user.email outside the
 * local and worktree scopes; `git config --show-scope -z` prints
 * "scope\0key\nvalue\0" for each.
 */
static void read_config(char **from, char **name, char **email)
{
	const char *argv[] = { "git", "config", "--show-scope", "-z",
			       "--get-regexp",
			       "^(sendemail\\.from|user\\.name|user\\.email)$",
			       NULL };
	struct run_opts o = { .dir = NULL };
	GString *out = g_string_new(NULL);
	const char *p, *end;

	if (run_output(&o, argv, out, NULL) != 0)
		goto out;
	p = out->str;
	end = out->str + out->len;
	while (p < end) {
		const char *scope = p, *kv = memchr(p, 0, end - p), *nl;
		const char *next;
		char **dst;

		if (!kv)
			break;
		kv++;
		next = memchr(kv, 0, end - kv);
		if (!next)
			break;
		nl = memchr(kv, '\n', next - kv);
		p = next + 1;
		if (!nl || !strcmp(scope, "local") || !strcmp(scope, "worktree"))
			continue;
		if (!g_ascii_strncasecmp(kv, "sendemail.from\n", nl - kv + 1))
			dst = from;
		else if (!g_ascii_strncasecmp(kv, "user.name\n", nl - kv + 1))
			dst = name;
		else
			dst = email;
		/* the last value wins, as git reads it */
		g_free(*dst);
		*dst = g_strndup(nl + 1, next - nl - 1);
		g_strstrip(*dst);
	}
out:
	g_string_free(out, TRUE);
}

int ident_sender(struct ident *id, GString *why)
{
	char *from = NULL, *name = NULL, *email = NULL;
	const char *how;

	ident_release(id);
	read_config(&from, &name, &email);
	if (from && *from) {
		trailer_split_person(from, strlen(from), &id->name, &id->email);
		how = "sendemail.from";
	} else {
		id->name = g_strdup(name ? name : "");
		id->email = g_strdup(email ? email : "");
		how = "user.email";
	}
	g_free(from);
	g_free(name);
	g_free(email);
	if (!*id->email) {
		g_string_assign(why, "no sender identity: set sendemail.from, or user.name and user.email, with git config --global");
		goto err;
	}
	if (ident_is_placeholder(id->email)) {
		g_string_printf(why, "sender identity '%s' (%s) is a placeholder, not an address that takes mail: set your own with git config --global",
				id->email, how);
		goto err;
	}
	if (!*id->name) {
		g_string_printf(why, "sender '%s' has no name: set user.name with git config --global",
				id->email);
		goto err;
	}
	return 0;
err:
	ident_release(id);
	return -1;
}

int ident_sender_or_error(struct ident *id)
{
	GString *why = g_string_new(NULL);
	int r = ident_sender(id, why);

	if (r < 0)
		error("%s", why->str);
	g_string_free(why, TRUE);
	return r;
}

char *ident_format(const struct ident *id)
{
	if (!id->name || !*id->name)
		return g_strdup_printf("<%s>", id->email);
	return g_strdup_printf("%s <%s>", id->name, id->email);
}

const char *ident_domain(const struct ident *id)
{
	const char *at = id->email ? strrchr(id->email, '@') : NULL;

	return at ? at + 1 : "";
}

bool ident_same_email(const char *a, const char *b)
{
	return a && b && *a && !g_ascii_strcasecmp(a, b);
}

bool ident_assisted_by_ok(const char *value)
{
	static GRegex *re;

	if (!re)
		re = g_regex_new("^[A-Za-z0-9][A-Za-z0-9._+-]*:"
				 "[A-Za-z0-9][A-Za-z0-9._+-]*"
				 "( [A-Za-z0-9][A-Za-z0-9._+-]*)*$", 0, 0, NULL);
	return value && g_regex_match(re, value, 0, NULL);
}
