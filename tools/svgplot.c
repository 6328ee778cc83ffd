// SPDX-License-Identifier: GPL-2.0-only
/*
 * svgplot.c - box and strip plots of benchmark samples, as SVG.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "svgplot.h"
#include "banned.h"

#define PLOT_W 640		/* the document's width */
#define PLOT_LEFT 90		/* room for the labels */
#define PLOT_RIGHT 30
#define PLOT_TOP 34		/* room for the title */
#define ROW_H 56		/* one sample */
#define AXIS_H 50		/* ticks, their numbers and the note */

double svgplot_quantile(const double *sorted, size_t n, double q)
{
	double pos, frac;
	size_t i;

	if (!n)
		return NAN;
	pos = q * (double)(n - 1);
	i = (size_t)pos;
	if (i >= n - 1)
		return sorted[n - 1];
	frac = pos - (double)i;
	return sorted[i] + frac * (sorted[i + 1] - sorted[i]);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The finite values of s, sorted; *n gets their count. */
static double *sorted_finite(const struct svgplot_sample *s, size_t *n)
{
	double *v = g_new(double, s->n ? s->n : 1);

	*n = 0;
	for (size_t i = 0; i < s->n; i++)
		if (isfinite(s->values[i]))
			v[(*n)++] = s->values[i];
	qsort(v, *n, sizeof(*v), cmp_double);
	return v;
}

/* A tick step of 1, 2 or 5 times a power of ten, about five ticks. */
static double tick_step(double range)
{
	double raw = range / 5, mag = pow(10, floor(log10(raw))), f = raw / mag;

	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

static void text(GString *out, double x, double y, const char *anchor,
		 const char *extra, const char *s)
{
	char *esc = g_markup_escape_text(s, -1);

	g_string_append_printf(out,
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>%s</text>\n",
		x, y, anchor, extra, esc);
	g_free(esc);
}

struct axis {
	double lo, hi;		/* the values at the axis' ends */
	double x0, x1;		/* and their x */
};

static double ax_x(const struct axis *a, double v)
{
	return a->x0 + (v - a->lo) / (a->hi - a->lo) * (a->x1 - a->x0);
}

static void draw_axis(GString *out, const struct axis *a, double y)
{
	double step = tick_step(a->hi - a->lo);

	g_string_append_printf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n",
		a->x0, y, a->x1, y);
	for (double t = ceil(a->lo / step) * step; t <= a->hi + step * 1e-9;
	     t += step) {
		double x = ax_x(a, t);
		/* a rounding error would print -0 or 1e-17 */
		char *num = g_strdup_printf("%g", fabs(t) < step * 1e-9 ? 0 : t);

		g_string_append_printf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n",
			x, y, x, y + 5);
		text(out, x, y + 18, "middle", "", num);
		g_free(num);
	}
}

static void draw_sample(GString *out, const struct axis *a, double yc,
			const char *label, const double *v, size_t n)
{
	double q1 = svgplot_quantile(v, n, 0.25);
	double med = svgplot_quantile(v, n, 0.5);
	double q3 = svgplot_quantile(v, n, 0.75);
	double h = ROW_H * 0.5;
	char *caption = g_strdup_printf("n=%zu, median %g", n, med);

	text(out, PLOT_LEFT - 8, yc + 4, "end", " font-weight=\"bold\"", label);
	text(out, a->x1, yc - h / 2 - 4, "end", " font-size=\"10\" fill=\"#555\"",
	     caption);
	g_free(caption);
	g_string_append_printf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
		ax_x(a, v[0]), yc, ax_x(a, v[n - 1]), yc);
	g_string_append_printf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"#cfe0f3\" stroke=\"#335\"/>\n",
		ax_x(a, q1), yc - h / 2, fmax(ax_x(a, q3) - ax_x(a, q1), 1), h);
	g_string_append_printf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"#c00\" stroke-width=\"2.5\"/>\n",
		ax_x(a, med), yc - h / 2, ax_x(a, med), yc + h / 2);
	for (size_t i = 0; i < n; i++) {
		/* a fixed jitter: the same samples draw the same picture */
		double dy = ((double)(i % 7) - 3) * h / 9;

		g_string_append_printf(out,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#124\" "
			"fill-opacity=\"0.6\"/>\n", ax_x(a, v[i]), yc + dy);
	}
}

char *svgplot_box(const char *title, const char *note,
		  const struct svgplot_sample *samples, size_t nsamples)
{
	double **vals = g_new0(double *, nsamples ? nsamples : 1);
	size_t *ns = g_new0(size_t, nsamples ? nsamples : 1);
	struct axis a = { .lo = INFINITY, .hi = -INFINITY,
			  .x0 = PLOT_LEFT, .x1 = PLOT_W - PLOT_RIGHT };
	double height = PLOT_TOP + ROW_H * (double)nsamples + AXIS_H;
	GString *out = NULL;

	for (size_t i = 0; i < nsamples; i++) {
		vals[i] = sorted_finite(&samples[i], &ns[i]);
		if (ns[i]) {
			a.lo = fmin(a.lo, vals[i][0]);
			a.hi = fmax(a.hi, vals[i][ns[i] - 1]);
		}
	}
	if (a.lo > a.hi)
		goto out;
	if (a.hi - a.lo < fabs(a.hi) * 1e-9 + 1e-12) {
		/* one value: give the axis some width around it */
		double pad = fabs(a.lo) * 0.05 + 1;

		a.lo -= pad;
		a.hi += pad;
	} else {
		double pad = (a.hi - a.lo) * 0.05;

		a.lo -= pad;
		a.hi += pad;
	}
	out = g_string_new(NULL);
	g_string_append_printf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
		PLOT_W, height, PLOT_W, height);
	text(out, PLOT_W / 2.0, 20, "middle", " font-size=\"14\"",
	     title ? title : "");
	for (size_t i = 0; i < nsamples; i++)
		if (ns[i])
			draw_sample(out, &a, PLOT_TOP + ROW_H * (i + 0.6),
				    samples[i].label ? samples[i].label : "",
				    vals[i], ns[i]);
	draw_axis(out, &a, PLOT_TOP + ROW_H * (double)nsamples + 4);
	if (note)
		text(out, PLOT_W / 2.0, height - 6, "middle", "", note);
	g_string_append(out, "</svg>\n");
out:
	for (size_t i = 0; i < nsamples; i++)
		g_free(vals[i]);
	g_free(vals);
	g_free(ns);
	return out ? g_string_free(out, FALSE) : NULL;
}
