/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_BUILTIN_H
#define KSERIES_BUILTIN_H

/*
 * One function per subcommand, one file each (tools/cmd-NAME.c).
 * argv[0] is the subcommand's name; the global options are gone.
 * Returns the exit code (DESIGN.md §3): 0 ok, 1 failure or findings,
 * 128 fatal, 129 usage.
 *
 * To add a command: write tools/cmd-NAME.c, declare cmd_NAME() here,
 * add a row to the table in kseries.c (kept sorted), add its object to
 * BUILTIN_OBJS in the Makefile, and a tests/tNNNN-NAME-*.sh.
 */
int cmd_b4_branch(int argc, const char **argv);
int cmd_check(int argc, const char **argv);
int cmd_ci(int argc, const char **argv);
int cmd_diff(int argc, const char **argv);
int cmd_feedback(int argc, const char **argv);
int cmd_fetch(int argc, const char **argv);
int cmd_format(int argc, const char **argv);
int cmd_import(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_review(int argc, const char **argv);
int cmd_send(int argc, const char **argv);
int cmd_show(int argc, const char **argv);
int cmd_status(int argc, const char **argv);
int cmd_withdraw(int argc, const char **argv);
int cmd_work(int argc, const char **argv);

#endif
