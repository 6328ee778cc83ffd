// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries send SERIES[@vN] [--dry-run] [--b4] - mail a version.
 *
 * The mails `kseries format` writes go to `git send-email` unchanged,
 * with the user's own sendemail.* configuration (the SMTP server) and
 * the sender of ident.h as --from; they are threaded already
 * (format-patch --thread), so send-email is told --no-thread, and
 * --confirm=never (it reads no terminal). send-email prints a "Result:"
 * line for each message it handed over ("Result: OK", or the SMTP reply
 * code, "Result: 250"); every mail must have one that says it was
 * accepted, and send-email must exit 0, or the send failed (exit 1):
 * its exit status alone is not the truth (it exits 0 when it stops at a
 * prompt it could not ask). After a real send the version is recorded
 * as posted in series.conf (the Message-ID of the cover, or of the one
 * patch, the date, origin = posted), so that fetch finds its replies.
 *
 * With --b4, the version is put on a b4 prep branch (b4.h, as kseries
 * b4-branch makes it) and `b4 send` sends it, with the user's b4 and
 * sendemail configuration; the send is what b4 reports (every message
 * it converted sent, its Message-ID and sent tag recorded), and only
 * that is recorded as posted.
 * KSERIES_NO_SEND=1 in the environment (the tests set it) refuses anything
 * but --dry-run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "b4.h"
#include "builtin.h"
#include "format.h"
#include "ident.h"
#include "mail.h"
#include "parse-options.h"
#include "run.h"
#include "series.h"
#include "util.h"
#include "banned.h"

static const char send_usage[] =
	"kseries send SERIES[@vN] [-d | --dry-run] [--b4 [-w DIR] [--no-sign]]\n"
	"             [--to ADDR]... [--cc ADDR]...";

struct send_opts {
	const char *spec, *wt;
	bool dry_run, b4, no_sign;
	GPtrArray *to, *cc;	/* const char *, borrowed from argv */
};

/* series.conf: the version as posted (DESIGN.md §2). */
static int record_posted(struct series *s, int version, const char *id,
			 const char *date)
{
	if (series_version_set(s, version, "message-id", id) < 0 ||
	    series_version_set(s, version, "date", date) < 0 ||
	    series_version_set(s, version, "origin", "posted") < 0)
		return -1;
	printf("%s v%d recorded as posted: <%s>\n", s->name, version, id);
	return 0;
}

/*
 * The version on a b4 prep branch (b4.h), sent by `b4 send`; after a
 * real send the version is recorded as posted from what b4 reports and
 * records (the cover's Message-ID, the date of its sent tag), never
 * from what we formatted.
 */
static int send_b4(const struct send_opts *so)
{
	struct b4_branch_opts bo = { .spec = so->spec, .worktree = so->wt,
				     .force = true };
	struct b4_send_opts o = { .dry_run = so->dry_run,
				  .no_sign = so->no_sign, .to = so->to,
				  .cc = so->cc };
	struct b4_branch b;
	struct b4_sent r;
	int ret = EXIT_FINDINGS;

	b4_branch_init(&b);
	b4_sent_init(&r);
	if (b4_branch_prepare(&bo, &b) < 0)
		goto out;
	printf("%s\t%s\tv%d\t%s\n", b.worktree, b.branch, b.version,
	       b.change_id ? b.change_id : "");
	if (b4_send(&b, &o, &r) < 0)
		goto out;
	fwrite(r.log->str, 1, r.log->len, stdout);
	printf("%s v%d: %u of %u mails %s (b4)\n", b.series.name, b.version,
	       r.sent, r.converted, so->dry_run ? "would be sent" : "sent");
	if (!so->dry_run &&
	    record_posted(&b.series, b.version, r.message_id, r.date) < 0)
		goto out;
	ret = 0;
out:
	b4_sent_release(&r);
	b4_branch_release(&b);
	return ret;
}

/*
 * Counts the messages git send-email says were accepted: a "Result:"
 * line of "OK" or a 2xx SMTP reply. *date gets the first message's
 * Date: from the log send-email prints, when there is one.
 */
static unsigned count_accepted(const char *out, unsigned *results,
			       char **date)
{
	char **lines = g_strsplit(out, "\n", -1);
	unsigned ok = 0;

	*results = 0;
	for (char **l = lines; *l; l++) {
		const char *v;

		if (!*date && starts_with(*l, "Date: "))
			*date = g_strstrip(g_strdup(*l + 6));
		if (!starts_with(*l, "Result: "))
			continue;
		(*results)++;
		v = *l + 8;
		if (starts_with(v, "OK") ||
		    (v[0] == '2' && g_ascii_isdigit(v[1]) &&
		     g_ascii_isdigit(v[2])))
			ok++;
	}
	g_strfreev(lines);
	return ok;
}

/* The Message-Id of a formatted mail, without brackets; new or NULL. */
static char *mail_msgid(const struct format_file *ff)
{
	GPtrArray *m = mail_array_new();
	char *id = NULL;

	if (mail_parse_mbox(ff->text->str, ff->text->len, ff->name, m) == 0 &&
	    m->len && ((struct mail *)m->pdata[0])->message_id)
		id = g_strdup(((struct mail *)m->pdata[0])->message_id);
	g_ptr_array_unref(m);
	return id;
}

static char *rfc2822_now(void)
{
	GDateTime *now = g_date_time_new_now_local();
	char *d = g_date_time_format(now, "%a, %d %b %Y %H:%M:%S %z");

	g_date_time_unref(now);
	return d;
}

static int send_git(const struct send_opts *so)
{
	GPtrArray *args = g_ptr_array_new_with_free_func(g_free);
	struct format_opts o;
	struct formatted f;
	struct series s;
	struct ident id;
	struct run_opts ro = { .in = "", .capture_out = true,
			       .merge_err = true, .timeout = 3600 };
	struct run_result rr = { 0 };
	char *tmp = NULL, *from = NULL, *date = NULL, *msgid = NULL;
	unsigned results = 0, ok;
	int version, ret = EXIT_FINDINGS;

	ident_init(&id);
	if (ident_sender_or_error(&id) < 0) {
		g_ptr_array_unref(args);
		return EXIT_FINDINGS;
	}
	from = ident_format(&id);
	format_opts_init(&o);
	o.identity = from;
	formatted_init(&f);
	if (format_spec(so->spec, &o, &s, &version, &f) < 0) {
		formatted_release(&f);
		goto out_args;
	}
	if (!f.to->len && !f.cc->len && !so->to->len && !so->cc->len) {
		error("%s v%d has no recipients (series.to, MAINTAINERS-notes, get_maintainer.pl)",
		      s.name, version);
		goto out;
	}
	tmp = g_dir_make_tmp("kseries-send-XXXXXX", NULL);
	if (!tmp || formatted_write(&f, tmp) < 0)
		goto out;
	g_ptr_array_add(args, g_strdup("git"));
	g_ptr_array_add(args, g_strdup("send-email"));
	if (so->dry_run)
		g_ptr_array_add(args, g_strdup("--dry-run"));
	g_ptr_array_add(args, g_strdup("--confirm=never"));
	g_ptr_array_add(args, g_strdup_printf("--from=%s", from));
	/* the sender is the From: already */
	g_ptr_array_add(args, g_strdup("--suppress-cc=self"));
	g_ptr_array_add(args, g_strdup("--no-thread"));
	g_ptr_array_add(args, g_strdup("--no-format-patch"));
	for (guint i = 0; i < so->to->len; i++)
		g_ptr_array_add(args, g_strdup_printf("--to=%s",
					(char *)so->to->pdata[i]));
	for (guint i = 0; i < so->cc->len; i++)
		g_ptr_array_add(args, g_strdup_printf("--cc=%s",
					(char *)so->cc->pdata[i]));
	for (guint i = 0; i < f.files->len; i++)
		g_ptr_array_add(args, g_build_filename(tmp,
			((struct format_file *)f.files->pdata[i])->name, NULL));
	g_ptr_array_add(args, NULL);
	fflush(stdout);
	if (run_argv((const char *const *)args->pdata, &ro, &rr) < 0)
		goto out;
	fwrite(rr.out->str, 1, rr.out->len, stdout);
	ok = count_accepted(rr.out->str, &results, &date);
	if (rr.status || ok != f.files->len) {
		error("git send-email %s: %u of %u mails accepted%s",
		      rr.status ? "failed" : "did not send every mail", ok,
		      f.files->len, rr.timed_out ? " (timed out)" : "");
		goto out;
	}
	printf("%s v%d: %u of %u mails %s\n", s.name, version, ok,
	       f.files->len, so->dry_run ? "would be sent" : "sent");
	if (!so->dry_run) {
		if (!date)
			date = rfc2822_now();
		msgid = mail_msgid(f.files->pdata[0]);
		if (!msgid) {
			error("sent, but %s has no Message-Id to record",
			      ((struct format_file *)f.files->pdata[0])->name);
			goto out;
		}
		if (record_posted(&s, version, msgid, date) < 0)
			goto out;
	}
	ret = 0;
out:
	run_result_release(&rr);
	if (tmp) {
		remove_tree(tmp);
		g_free(tmp);
	}
	formatted_release(&f);
	series_release(&s);
out_args:
	ident_release(&id);
	g_free(from);
	g_free(date);
	g_free(msgid);
	g_ptr_array_unref(args);
	return ret;
}

int cmd_send(int argc, const char **argv)
{
	struct send_opts so = { .to = g_ptr_array_new(),
				.cc = g_ptr_array_new() };
	int ret;
	const struct option options[] = {
		OPT_BOOL('d', "dry-run", &so.dry_run,
			 "show what would be sent, send nothing"),
		OPT_BOOL(0, "b4", &so.b4, "send with b4 send, from a b4 branch"),
		OPT_STRING_F('w', "worktree", &so.wt, "DIR",
			     "the b4 branch's worktree (with --b4)",
			     PARSE_OPT_NOCONFIG),
		OPT_BOOL(0, "no-sign", &so.no_sign,
			 "no patatt signature (with --b4)"),
		OPT_STRING_LIST(0, "to", so.to, "ADDR", "one more To:"),
		OPT_STRING_LIST(0, "cc", so.cc, "ADDR", "one more Cc:"),
		OPT_END(),
	};

	if (parse_options(argc, argv, "send", options, send_usage, 0) != 1)
		usage(send_usage);
	so.spec = argv[0];
	if (!so.dry_run && getenv("KSERIES_NO_SEND") &&
	    *getenv("KSERIES_NO_SEND"))
		die("KSERIES_NO_SEND is set: only --dry-run is allowed");
	if (so.b4 && !have_program("b4"))
		die("b4 is not installed");
	/* a withdrawn series is never mailed */
	if (series_refuse_withdrawn(so.spec, "send") < 0)
		return EXIT_FINDINGS;
	ret = so.b4 ? send_b4(&so) : send_git(&so);
	g_ptr_array_unref(so.to);
	g_ptr_array_unref(so.cc);
	return ret;
}
