// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries import SERIES MBOX [--version N] [--base REV]
 *
 * Takes a posted version of a series from an mbox (as b4 mbox or lore
 * give it): its cover letter and patches become the vN/ patch files, the rest of
 * the thread vN/thread.mbox, and series.conf records where and when it
 * was posted. Everything is checked before anything is written; a new
 * series or version appears by one rename, so an interrupted import
 * leaves nothing half-made, and importing the same mbox again changes
 * nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "import.h"
#include "parse-options.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

static const char import_usage[] =
	"kseries import SERIES MBOX [--version N] [--base REV]";

int cmd_import(int argc, const char **argv)
{
	const char *name = NULL, *mbox = NULL, *base = WORKBENCH_DEFAULT_BASE;
	struct import_opts o = { 0 };
	struct import_result r;
	int version = 0;
	const char *version_arg = NULL;
	const struct option options[] = {
		OPT_STRING_F('v', "version", &version_arg, "N",
			     "import vN of the mbox (default: the one it holds)",
			     PARSE_OPT_NOCONFIG),
		OPT_STRING(0, "base", &base, "REV",
			   "the base of a new series (default: the base tree's)"),
		OPT_END(),
	};

	if (parse_options(argc, argv, "import", options, import_usage, 0) != 2)
		usage(import_usage);
	name = argv[0];
	mbox = argv[1];
	if (version_arg) {
		char *end;

		version = (int)strtol(version_arg, &end, 10);
		if (*end || version < 1 || version > 9999)
			die("bad version '%s'", version_arg);
	}
	if (!safe_component(name) || name[0] == '.')
		die("bad series name '%s'", name);
	if (!safe_component(base) && !strchr(base, '/'))
		die("bad base '%s'", base);

	o.name = name;
	o.mbox = mbox;
	o.base = base;
	o.version = version;
	if (import_mbox(&o, &r) < 0)
		return EXIT_FATAL;
	printf("%s v%d: %s%d patch%s, %d new repl%s\n", name, r.version,
	       r.cover ? "cover, " : "", r.npatches, r.npatches == 1 ? "" : "es",
	       r.nreplies, r.nreplies == 1 ? "y" : "ies");
	return 0;
}
