/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_REPORT_HTML_H
#define KSERIES_REPORT_HTML_H

/*
 * The dashboard: a static site of what the store and the check results
 * know, for any browser, with no server, no script and no network.
 *
 *   DIR/index.html              series x versions x stages, each cell
 *                               coloured by status, with the summary
 *   DIR/NAME-vN.html            one version: its patches, each stage's
 *                               result and findings (file:line, linked
 *                               to the log), the perf stage's samples
 *                               as SVG box plots, the model's trace
 *                               when it failed, the review items with
 *                               the diff line they quote and the mail
 *   DIR/NAME-vN-perf-KEY.svg    a plot (svgplot.h)
 *   DIR/logs/NAME/vN/STAGE.log.txt   copies of the cached logs
 *   DIR/style.css
 *   DIR/.kseries-site           marks DIR as a site kseries wrote
 *
 * Results come from $KSERIES_CACHE/results/NAME/vN/STAGE.json and
 * STAGE.log (check.h's stage_result_to_json()), review from
 * series/NAME/feedback/ (feedback.h), mail links from lore_base().
 * Every text from mail, patches or results is HTML-escaped.
 */

/*
 * Writes the site of every series of the store into dir: built in a
 * staging directory beside it, then renamed into place (exchanged with
 * the previous site, which is removed), so a reader sees the old site
 * or the new one, never half of either. dir must not be a symbolic
 * link; an existing dir must be empty or a site kseries wrote. Returns
 * 0, or -1 with one error printed (and nothing changed at dir).
 */
int report_html_write(const char *dir);

#endif
