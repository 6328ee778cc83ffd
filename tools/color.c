// SPDX-License-Identifier: GPL-2.0-only
/*
 * color.c - the status words in colour, on a terminal only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "color.h"
#include "parse-options.h"
#include "util.h"
#include "banned.h"

static enum color_mode cmdline = COLOR_UNSET;
static int decided = -1;

void color_set(enum color_mode mode)
{
	cmdline = mode;
	decided = -1;
}

/* "always", "never", "auto" or a boolean; COLOR_UNSET when none */
static enum color_mode config_mode(const char *key)
{
	const char *v;
	int b;

	if (!config_get(key, &v))
		return COLOR_UNSET;
	if (v && !strcmp(v, "always"))
		return COLOR_ALWAYS;
	if (v && !strcmp(v, "never"))
		return COLOR_NEVER;
	if (v && !strcmp(v, "auto"))
		return COLOR_AUTO;
	b = config_bool(v);
	if (b < 0) {
		warning("bad %s '%s': using auto", key, v);
		return COLOR_AUTO;
	}
	return b ? COLOR_AUTO : COLOR_NEVER;	/* git: true is auto */
}

static bool decide(void)
{
	enum color_mode m = cmdline;
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");

	if (m == COLOR_UNSET)
		m = config_mode("kseries.color");
	if (m == COLOR_UNSET)
		m = config_mode("color.ui");
	if (m == COLOR_ALWAYS || m == COLOR_NEVER)
		return m == COLOR_ALWAYS;
	if (no && *no)
		return false;
	return isatty(1) && !(term && !strcmp(term, "dumb"));
}

bool color_stdout(void)
{
	if (decided < 0)
		decided = decide();
	return decided;
}

const char *color_status(const char *status, int width)
{
	static const struct {
		const char *word, *sgr;
	} colors[] = {
		{ "pass", "\033[32m" },		/* green */
		{ "warn", "\033[33m" },		/* yellow */
		{ "fail", "\033[1;31m" },	/* bold red */
		{ "skip", "\033[36m" },		/* cyan */
	};
	static char buf[128];
	const char *sgr = NULL;

	for (size_t i = 0; status && i < sizeof(colors) / sizeof(colors[0]); i++)
		if (!strcmp(status, colors[i].word))
			sgr = colors[i].sgr;
	if (!sgr || !color_stdout())
		snprintf(buf, sizeof(buf), "%-*s", width, status ? status : "");
	else
		snprintf(buf, sizeof(buf), "%s%s\033[m%*s", sgr, status,
			 width > (int)strlen(status) ?
			 width - (int)strlen(status) : 0, "");
	return buf;
}
