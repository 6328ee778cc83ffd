// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries withdraw NAME --reason TEXT - records a series as withdrawn
 * (series.h: series_withdraw()).
 */
#include <stdio.h>

#include "builtin.h"
#include "parse-options.h"
#include "series.h"
#include "util.h"
#include "banned.h"

static const char withdraw_usage[] = "kseries withdraw NAME --reason TEXT";

int cmd_withdraw(int argc, const char **argv)
{
	const char *reason = NULL;
	const struct option options[] = {
		/* a reason is about one series: the command line only */
		OPT_STRING_F(0, "reason", &reason, "TEXT",
			     "why it is withdrawn (series.state-reason)",
			     PARSE_OPT_NOCONFIG),
		OPT_END(),
	};
	struct series s;
	int ret;

	argc = parse_options(argc, argv, "withdraw", options, withdraw_usage, 0);
	if (argc != 1 || !reason)
		usage(withdraw_usage);
	if (series_load(argv[0], &s) < 0)
		return EXIT_FINDINGS;
	ret = series_withdraw(&s, reason) < 0 ? EXIT_FINDINGS : 0;
	if (!ret)
		printf("%s: withdrawn: %s\n", s.name, series_state_reason(&s));
	series_release(&s);
	return ret;
}
