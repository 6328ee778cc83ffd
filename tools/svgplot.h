/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_SVGPLOT_H
#define KSERIES_SVGPLOT_H

#include <stddef.h>

/*
 * Plots of benchmark samples as standalone SVG 1.1 documents, no script,
 * no external reference: what a browser, an image viewer or a mail
 * client shows as it is.
 */

/* One sample: its label ("base", "patched") and values (borrowed). */
struct svgplot_sample {
	const char *label;
	const double *values;
	size_t n;
};

/*
 * A horizontal box plot per sample on one shared value axis: the box
 * spans the quartiles, a bar marks the median, the whiskers reach the
 * smallest and largest value, and every value is drawn over it as a
 * point (a strip plot), so that a few runs are seen as what they are.
 * title and note (e.g. "patched/base 1.21x, p=0.008") are printed
 * above and below; every text is XML-escaped. Returns the document (a
 * new string), or NULL when no sample has a finite value.
 */
char *svgplot_box(const char *title, const char *note,
		  const struct svgplot_sample *samples, size_t nsamples);

/*
 * The q-quantile (0 <= q <= 1) of n values sorted ascending, linear
 * between the two nearest ranks (R's type 7).
 */
double svgplot_quantile(const double *sorted, size_t n, double q);

#endif
