// SPDX-License-Identifier: GPL-2.0-only
/*
 * progress.c - the status line of long stages on a terminal.
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "run.h"

static struct {
	bool active;		/* drawing */
	bool fed;		/* collecting lines (also when not drawing) */
	char *label;
	double t0, drawn;
	GString *partial;	/* the line being received */
	char *last;		/* the last complete non-empty line */
} P;

static void (*sink_fn)(const char *line);

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned columns(void)
{
	struct winsize ws;

	if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

char *progress_format(const char *label, double seconds, const char *last,
		      unsigned width)
{
	GString *s = g_string_new(NULL);
	unsigned secs = seconds > 0 ? (unsigned)seconds : 0;

	g_string_append_printf(s, "kseries: %s %um%02us", label, secs / 60,
			       secs % 60);
	if (last && *last) {
		g_string_append(s, ": ");
		while (*last == ' ' || *last == '\t')
			last++;
		for (const char *p = last; *p; p++) {
			unsigned char c = (unsigned char)*p;

			if (c == '\t')
				c = ' ';
			if (c >= 0x20 && c < 0x7f)
				g_string_append_c(s, (char)c);
		}
	}
	if (width && s->len > width - 1)
		g_string_truncate(s, width - 1);
	/* the label may have carried a control byte too */
	for (gsize i = 0; i < s->len; i++)
		if ((unsigned char)s->str[i] < 0x20 || s->str[i] == 0x7f)
			s->str[i] = '?';
	return g_string_free(s, FALSE);
}

static void draw(bool force)
{
	double t = mono();
	char *line;

	if (!P.active || (!force && t - P.drawn < 0.25))
		return;
	P.drawn = t;
	line = progress_format(P.label, t - P.t0, P.last,
			       sink_fn ? 0 : columns());
	if (sink_fn) {
		sink_fn(line);
	} else {
		fprintf(stderr, "\r\033[K%s", line);
		fflush(stderr);
	}
	g_free(line);
}

void progress_set_sink(void (*sink)(const char *line))
{
	sink_fn = sink;
}

bool progress_wanted(void)
{
	const char *env = getenv("KSERIES_PROGRESS");

	return env ? !strcmp(env, "1") : isatty(2);
}

void progress_show(const char *line)
{
	char *cut;

	if (!progress_wanted())
		return;
	cut = g_strndup(line, columns() - 1);
	fprintf(stderr, "\r\033[K%s", cut);
	fflush(stderr);
	g_free(cut);
}

void progress_set_label(const char *label)
{
	if (!P.fed)
		return;
	g_free(P.label);
	P.label = g_strdup(label);
	draw(true);
}

static void hook(const char *buf, size_t len)
{
	progress_feed(buf, len);
}

void progress_begin(const char *label)
{
	progress_end();
	P.fed = true;
	P.active = sink_fn || progress_wanted();
	P.label = g_strdup(label);
	P.t0 = mono();
	P.drawn = 0;
	P.partial = g_string_new(NULL);
	P.last = NULL;
	run_progress_hook = hook;
	draw(true);
}

void progress_end(void)
{
	if (!P.fed)
		return;
	if (P.active && sink_fn) {
		sink_fn("");
	} else if (P.active) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
	}
	run_progress_hook = NULL;
	g_free(P.label);
	g_free(P.last);
	g_string_free(P.partial, TRUE);
	memset(&P, 0, sizeof(P));
}

bool progress_active(void)
{
	return P.active;
}

void progress_feed(const char *buf, size_t len)
{
	if (!P.fed)
		return;
	for (size_t i = 0; buf && i < len; i++) {
		if (buf[i] == '\n' || buf[i] == '\r') {
			const char *l = P.partial->str;

			while (*l == ' ' || *l == '\t')
				l++;
			if (*l) {
				g_free(P.last);
				P.last = g_strdup(l);
			}
			g_string_truncate(P.partial, 0);
		} else if (P.partial->len < 4096) {
			g_string_append_c(P.partial, buf[i]);
		}
	}
	draw(false);
}
