// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "mail.h"
#include "review.h"

#define HDR(from, id, irt, subj)                                        \
	"From x@y Thu Jan  1 00:00:00 1970\n"                           \
	"From: " from "\n"                                              \
	"Date: Mon, 2 Sep 2024 10:00:00 +0000\n"                        \
	"Message-ID: <" id ">\n"                                        \
	irt                                                              \
	"Subject: " subj "\n"                                           \
	"Content-Type: text/plain; charset=utf-8\n\n"

static const char base[] =
	HDR("Ann Author <ann@example.org>", "c@x", "", "[PATCH 0/2] k: series")
	"Two patches.\n\n"
	HDR("Ann Author <ann@example.org>", "p1@x", "In-Reply-To: <c@x>\n",
	    "[PATCH 1/2] k: change f")
	"Change f.\n\nSigned-off-by: Ann Author <ann@example.org>\n---\n"
	"diff --git a/k/a.c b/k/a.c\n"
	"--- a/k/a.c\n"
	"+++ b/k/a.c\n"
	"@@ -10,6 +10,7 @@ static int f(void)\n"
	" {\n"
	"-\tint x = 1;\n"
	"+\tint x = 2;\n"
	"+\tint y = 3;\n"
	" \tif (x)\n"
	" \t\treturn y;\n"
	" }\n"
	"-- \n2.43.0\n\n"
	HDR("Ann Author <ann@example.org>", "p2@x", "In-Reply-To: <c@x>\n",
	    "[PATCH 2/2] k: change g")
	"Change g.\n---\n"
	"diff --git a/k/b.c b/k/b.c\n"
	"--- a/k/b.c\n"
	"+++ b/k/b.c\n"
	"@@ -1,2 +1,2 @@\n"
	"-\tint g = 1;\n"
	"+\tint g = 5;\n"
	" }\n\n";

struct fx {
	GPtrArray *mails;
	struct review r;
};

static struct fx *extract(const char *reply)
{
	struct fx *f = g_new0(struct fx, 1);
	char *all = g_strconcat(base, reply, NULL);

	f->mails = mail_array_new();
	assert_int_equal(mail_parse_mbox(all, strlen(all), "test", f->mails), 0);
	g_free(all);
	review_init(&f->r);
	review_extract(&f->r, f->mails);
	return f;
}

static void fx_free(struct fx *f)
{
	review_release(&f->r);
	g_ptr_array_unref(f->mails);
	g_free(f);
}

static const struct review_comment *comment(struct fx *f, guint i)
{
	assert_true(i < f->r.comments->len);
	return f->r.comments->pdata[i];
}

static void test_kinds(void **state)
{
	struct fx *f = extract("");
	const struct review_message *m;

	assert_int_equal(f->r.messages->len, 3);
	m = review_find(&f->r, "c@x");
	assert_int_equal(m->kind, REVIEW_COVER);
	m = review_find(&f->r, "p1@x");
	assert_int_equal(m->kind, REVIEW_PATCH);
	assert_int_equal(m->subj.index, 1);
	fx_free(f);
}

/* Gmail: tabs turned to spaces, "On … wrote:" wrapped on two lines */
static void test_gmail_inline(void **state)
{
	struct fx *f = extract(
		HDR("Rev Iewer <rev@example.org>", "r1@x",
		    "In-Reply-To: <p1@x>\nReferences: <c@x> <p1@x>\n",
		    "Re: [PATCH 1/2] k: change f")
		"Hi Ann,\n\n"
		"On Mon, Sep 2, 2024 at 10:00 AM Ann Author <ann@example.org>\n"
		"wrote:\n"
		">\n> Change f.\n>\n"
		"> @@ -10,6 +10,7 @@ static int f(void)\n"
		">  {\n"
		"> -        int x = 1;\n"
		"> +        int x = 2;\n"
		"\nWhy 2?\n\n"
		"> +        int y = 3;\n"
		">          if (x)\n"
		"\nThis y is never used before the if.\n"
		"        ^^^^^^^^\n\n"
		"Thanks,\nRev\n");
	const struct review_comment *c;

	assert_int_equal(f->r.comments->len, 2);
	c = comment(f, 0);
	assert_true(c->is_inline);
	assert_string_equal(c->file, "k/a.c");
	assert_int_equal(c->side, 'n');
	assert_int_equal(c->line, 11);
	assert_string_equal(c->text, "Why 2?");
	assert_string_equal(c->patch_id, "p1@x");
	c = comment(f, 1);
	assert_int_equal(c->line, 13);
	assert_string_equal(c->text, "This y is never used before the if.");
	fx_free(f);
}

static void test_old_side_and_general(void **state)
{
	struct fx *f = extract(
		HDR("R <r@example.org>", "r2@x", "In-Reply-To: <p1@x>\n",
		    "Re: [PATCH 1/2] k: change f")
		"A general remark before any quote.\n\n"
		"On Mon, 2 Sep 2024, Ann wrote:\n"
		"> -\tint x = 1;\n"
		"Keep the 1.\n");

	assert_int_equal(f->r.comments->len, 2);
	assert_false(comment(f, 0)->is_inline);
	assert_true(comment(f, 1)->is_inline);
	assert_int_equal(comment(f, 1)->side, 'o');
	assert_int_equal(comment(f, 1)->line, 11);
	fx_free(f);
}

static void test_attributions(void **state)
{
	static const char *const attr[] = {
		"Am Mo., 2. Sept. 2024 um 10:00 Uhr schrieb Ann Author <ann@example.org>:",
		"Le lun. 2 sept. 2024 à 10:00, Ann Author <ann@example.org> a écrit :",
		"El lun, 2 sept 2024 a las 10:00, Ann (<ann@example.org>) escribió:",
		"Quoting Ann Author (2024-09-02 10:00:00):",
		"* Ann Author <ann@example.org> [240902 10:00]:",
		"Ann Author <ann@example.org> writes:",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(attr); i++) {
		char *reply = g_strdup_printf(
			HDR("R <r@example.org>", "a@x", "In-Reply-To: <p2@x>\n",
			    "Re: [PATCH 2/2] k: change g")
			"%s\n> +\tint g = 5;\n\nFive is wrong.\n", attr[i]);
		struct fx *f = extract(reply);

		assert_int_equal(f->r.comments->len, 1);
		assert_string_equal(comment(f, 0)->text, "Five is wrong.");
		assert_string_equal(comment(f, 0)->file, "k/b.c");
		fx_free(f);
		g_free(reply);
	}
}

static void test_outlook(void **state)
{
	/* interleaved, with an Outlook header block as attribution */
	struct fx *f = extract(
		HDR("O <o@example.com>", "o1@x", "In-Reply-To: <p2@x>\n",
		    "RE: [PATCH 2/2] k: change g")
		"From: Ann Author <ann@example.org>\n"
		"Sent: Monday, September 2, 2024 10:00 AM\n"
		"To: list@example.org\n"
		"Subject: [PATCH 2/2] k: change g\n\n"
		"> +\tint g = 5;\n\nWhy 5?\n");
	struct fx *g;

	assert_int_equal(f->r.comments->len, 1);
	assert_string_equal(comment(f, 0)->text, "Why 5?");
	assert_true(comment(f, 0)->is_inline);
	fx_free(f);

	/* top-posted: the original below is quoted, unmarked */
	g = extract(
		HDR("O <o@example.com>", "o2@x", "In-Reply-To: <p2@x>\n",
		    "RE: [PATCH 2/2] k: change g")
		"Looks wrong to me, g must stay 1.\n\n"
		"-----Original Message-----\n"
		"From: Ann Author <ann@example.org>\n"
		"Sent: Monday, September 2, 2024 10:00 AM\n"
		"Subject: [PATCH 2/2] k: change g\n\n"
		"Change g.\n"
		"Reviewed-by: Someone Else <se@example.org>\n");
	assert_int_equal(g->r.comments->len, 1);
	assert_string_equal(comment(g, 0)->text,
			    "Looks wrong to me, g must stay 1.");
	assert_false(comment(g, 0)->is_inline);
	assert_int_equal(g->r.trailers->len, 0);
	fx_free(g);
}

static void test_noise(void **state)
{
	struct fx *f = extract(
		HDR("Bob Builder <bob@example.org>", "n1@x", "In-Reply-To: <p1@x>\n",
		    "Re: [PATCH 1/2] k: change f")
		"Hello Ann,\n\n"
		"> Change f.\n\n"
		"Thanks for the patch!\n\n"
		"> +\tint y = 3;\n"
		"[...]\n"
		"Reviewed-by: Bob Builder <bob@example.org>\n\n"
		"Cheers,\n-Bob\n"
		"-- \nBob's signature\nwith a comment-looking line\n"
		"_______________________________________________\n"
		"list mailing list\n");

	assert_int_equal(f->r.comments->len, 0);
	assert_int_equal(f->r.trailers->len, 1);
	fx_free(f);
}

/* Short answers are review, not thanks */
static void test_short_answers(void **state)
{
	struct fx *f = extract(
		HDR("Ann Author <ann@example.org>", "s1@x", "In-Reply-To: <p1@x>\n",
		    "Re: [PATCH 1/2] k: change f")
		"> Is x = 2 needed?\n\nNo.\n\n"
		"> Will you fix it in v2?\n\nSure, in v2.\n\n"
		"> Thanks!\n\nThank you for the review, Bob!\n\nAnn\n");

	assert_int_equal(f->r.comments->len, 2);
	assert_string_equal(comment(f, 0)->text, "No.");
	assert_string_equal(comment(f, 1)->text, "Sure, in v2.");
	fx_free(f);
}

static void test_bot(void **state)
{
	struct fx *f = extract(
		HDR("kernel test robot <lkp@intel.com>", "b1@x",
		    "In-Reply-To: <p1@x>\n", "Re: [PATCH 1/2] k: change f")
		"Hi Ann,\n\n"
		"kernel test robot noticed the following build warnings:\n\n"
		"All warnings (new ones prefixed by >>):\n\n"
		">> k/a.c:12:13: warning: unused variable 'y' [-Wunused-variable]\n"
		"      12 |         int y = 3;\n"
		"         |             ^\n");
	const struct review_comment *c;

	assert_int_equal(f->r.comments->len, 1);
	c = comment(f, 0);
	assert_false(c->is_inline);
	assert_non_null(strstr(c->text, ">> k/a.c:12:13: warning"));
	assert_non_null(strstr(c->text, "noticed the following"));
	fx_free(f);
}

static void test_trailers(void **state)
{
	struct fx *f = extract(
		HDR("Rev <rev@example.org>", "t1@x", "In-Reply-To: <c@x>\n",
		    "Re: [PATCH 0/2] k: series")
		"> Two patches.\n> Reviewed-by: Quoted <q@example.org>\n\n"
		"Acked-by: Rev <rev@example.org>\n\n"
		HDR("Rev <rev@example.org>", "t2@x", "In-Reply-To: <p1@x>\n",
		    "Re: [PATCH 1/2] k: change f")
		"For the series:\n"
		"Tested-by: Rev <rev@example.org>\n\n"
		HDR("Nay Sayer <nay@example.org>", "t3@x", "In-Reply-To: <p2@x>\n",
		    "Re: [PATCH 2/2] k: change g")
		"> +\tint g = 5;\n\nNAK\n\nThis breaks userspace.\n");
	const struct review_trailer *t;

	assert_int_equal(f->r.trailers->len, 3);
	t = f->r.trailers->pdata[0];
	assert_string_equal(t->kind, "Acked-by");
	assert_int_equal(t->scope, SCOPE_SERIES);
	assert_int_equal(t->applies_to->len, 2);
	assert_string_equal(t->given_in, "t1@x");
	t = f->r.trailers->pdata[1];
	assert_string_equal(t->kind, "Tested-by");
	assert_int_equal(t->scope, SCOPE_SERIES);
	assert_int_equal(t->applies_to->len, 2);
	t = f->r.trailers->pdata[2];
	assert_string_equal(t->kind, "Nacked-by");
	assert_string_equal(t->email, "nay@example.org");
	assert_int_equal(t->scope, SCOPE_PATCH);
	assert_int_equal(t->applies_to->len, 1);
	assert_string_equal(t->applies_to->pdata[0], "p2@x");
	/* the NAK's reason is a comment; the NAK line is not */
	assert_int_equal(f->r.comments->len, 1);
	assert_string_equal(comment(f, 0)->text, "This breaks userspace.");
	fx_free(f);
}

static void test_absent_target(void **state)
{
	struct fx *f = extract(
		HDR("A <a@example.org>", "x1@x",
		    "In-Reply-To: <gone-4@x>\nReferences: <gone-1@x> <gone-4@x>\n",
		    "Re: [PATCH 3/4] far away")
		"> text\n\nReviewed-by: A <a@example.org>\n");
	const struct review_trailer *t;

	assert_int_equal(f->r.trailers->len, 1);
	t = f->r.trailers->pdata[0];
	assert_int_equal(t->scope, SCOPE_PATCH);
	assert_string_equal(t->applies_to->pdata[0], "gone-4@x");
	fx_free(f);
}

/* Review that reaches us only quoted: recovered apart, never the replier's */
static void test_quoted_recovery(void **state)
{
	struct fx *f = extract(
		HDR("Ann Author <ann@example.org>", "q3@x",
		    "In-Reply-To: <gone-b@x>\nReferences: <p1@x> <gone-a@x> <gone-b@x>\n"
		    "To: Bea Critic <bea@example.org>\n",
		    "Re: [PATCH 1/2] k: change f")
		"On Tue, 3 Sep 2024 09:00:00 +0200, Bea Critic wrote:\n"
		"> On Mon, Sep 02, 2024 at 11:00:00AM +0000, Carl Checker wrote:\n"
		"> > On Mon, 2 Sep 2024 10:00:00 +0000\n"
		"> > Ann Author <ann@example.org> wrote:\n"
		"> > > +\tint y = 3;\n"
		"> >\n"
		"> > y is unused.\n"
		"> >\n"
		"> > Thanks,\n> > Carl\n"
		">\n"
		"> Agreed, drop it.\n"
		">\n> -- \n> Bea's signature\n\n"
		"Will do.\n");
	const struct review_comment *c;

	/* the replier's own words only */
	assert_int_equal(f->r.comments->len, 1);
	assert_string_equal(comment(f, 0)->text, "Will do.");
	assert_string_equal(comment(f, 0)->author_email, "ann@example.org");
	/* p1 is in the mbox: the target is found through References */
	assert_string_equal(comment(f, 0)->patch_id, "p1@x");
	assert_true(comment(f, 0)->is_inline);
	assert_int_equal(f->r.quoted->len, 2);
	c = f->r.quoted->pdata[0];
	assert_string_equal(c->reply_id, "gone-b@x");
	assert_string_equal(c->author_name, "Bea Critic");
	assert_string_equal(c->author_email, "bea@example.org");
	assert_string_equal(c->text, "Agreed, drop it.");
	assert_string_equal(c->quoted_in, "q3@x");
	c = f->r.quoted->pdata[1];
	assert_string_equal(c->reply_id, "gone-a@x");
	assert_string_equal(c->author_name, "Carl Checker");
	assert_string_equal(c->author_email, "");
	assert_string_equal(c->text, "y is unused.");
	assert_true(c->is_inline);
	assert_string_equal(c->file, "k/a.c");
	assert_int_equal(c->line, 12);
	/* quoted trailers never count */
	assert_int_equal(f->r.trailers->len, 0);
	fx_free(f);
}

static void test_json(void **state)
{
	struct fx *f = extract(
		HDR("R <r@example.org>", "j@x", "In-Reply-To: <p2@x>\n",
		    "Re: [PATCH 2/2] k: change g")
		"> -\tint g = 1;\nold\n");
	json_t *j = review_to_json(&f->r), *c;

	assert_int_equal(json_array_size(json_object_get(j, "messages")), 4);
	assert_int_equal(json_array_size(json_object_get(j, "patches")), 3);
	c = json_array_get(json_object_get(j, "comments"), 0);
	assert_string_equal(json_string_value(json_object_get(c, "side")), "old");
	assert_int_equal(json_integer_value(json_object_get(c, "line")), 1);
	assert_string_equal(json_string_value(json_object_get(c, "kind")), "inline");
	json_decref(j);
	fx_free(f);
}

/*
 * The address of a quoted writer who gave none: the first message in the
 * mbox from that name (looked up once, not by scanning the mbox for every
 * attribution), else the reply's recipients.
 */
static void test_quoted_sender_address(void **state)
{
	struct fx *f = extract(
		HDR("Carl Checker <carl@one.example>", "c1@x", "In-Reply-To: <p2@x>\n",
		    "Re: [PATCH 2/2] k: change g")
		"Fine.\n\n"
		HDR("Carl Checker <carl@two.example>", "c2@x", "In-Reply-To: <p2@x>\n",
		    "Re: [PATCH 2/2] k: change g")
		"Fine again.\n\n"
		HDR("Ann Author <ann@example.org>", "q4@x",
		    "In-Reply-To: <gone-d@x>\nReferences: <p1@x> <gone-c@x> <gone-d@x>\n"
		    "Cc: Dan Doubter <dan@example.org>\n",
		    "Re: [PATCH 1/2] k: change f")
		"On Tue, 3 Sep 2024 09:00:00 +0200, Dan Doubter wrote:\n"
		"> On Mon, Sep 02, 2024 at 11:00:00AM +0000, Carl Checker wrote:\n"
		"> > > +\tint y = 3;\n"
		"> >\n"
		"> > y is unused.\n"
		">\n"
		"> Agreed.\n\n"
		"Will do.\n");
	const struct review_comment *c;

	assert_int_equal(f->r.quoted->len, 2);
	c = f->r.quoted->pdata[0];
	assert_string_equal(c->author_name, "Dan Doubter");
	assert_string_equal(c->author_email, "dan@example.org");
	c = f->r.quoted->pdata[1];
	assert_string_equal(c->author_name, "Carl Checker");
	assert_string_equal(c->author_email, "carl@one.example");
	fx_free(f);
}

/* Without REVIEW_QUOTED nothing is recovered from quotes, the rest alike. */
static void test_quoted_only_when_asked(void **state)
{
	static const char reply[] =
		HDR("Ann Author <ann@example.org>", "q5@x",
		    "In-Reply-To: <gone-f@x>\nReferences: <p1@x> <gone-e@x> <gone-f@x>\n",
		    "Re: [PATCH 1/2] k: change f")
		"On Tue, 3 Sep 2024 09:00:00 +0200, Bea Critic wrote:\n"
		"> > +\tint y = 3;\n"
		">\n"
		"> Drop it.\n\n"
		"Will do.\n";
	char *all = g_strconcat(base, reply, NULL);
	GPtrArray *mails = mail_array_new();
	struct review r;
	struct fx *f = extract(reply);
	json_t *a, *b;

	assert_int_equal(mail_parse_mbox(all, strlen(all), "test", mails), 0);
	review_init_flags(&r, 0);
	review_extract(&r, mails);
	assert_int_equal(f->r.quoted->len, 1);
	assert_int_equal(r.quoted->len, 0);
	a = review_to_json(&f->r);
	b = review_to_json(&r);
	assert_true(json_equal(a, b));
	json_decref(a);
	json_decref(b);
	review_release(&r);
	g_ptr_array_unref(mails);
	g_free(all);
	fx_free(f);
}

/* review_write_json() into a string. */
static char *written(const struct review *r, bool quoted)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(review_write_json(r, quoted, fp), 0);
	fclose(fp);
	return buf;
}

/* What cmd-review wrote before: the whole tree dumped at once. */
static char *dumped(const struct review *r, bool quoted)
{
	json_t *j = review_to_json(r);
	char *text, *out;

	if (quoted)
		json_object_set_new(j, "quoted", review_quoted_json(r));
	text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	out = g_strconcat(text, "\n", NULL);
	free(text);
	json_decref(j);
	return out;
}

/*
 * An mbox read a message at a time, its diffs let go and read again from
 * the file (more patches than are kept at once, each reply after all of
 * them, one before its patch), gives the review the whole-mbox path
 * gives, with quoted review or without (replies then analysed as they
 * come), and the streamed JSON is byte for byte the dump of the tree.
 */
static void streaming_same(unsigned flags)
{
	GString *mb = g_string_new(NULL);
	GPtrArray *mails = mail_array_new();
	struct review whole, streamed;
	struct mail_reader rd;
	struct mail *m;
	char *path = NULL, *a, *b;
	bool quoted = flags & REVIEW_QUOTED;
	int fd;

	/* before its patch: analysed only when the whole mbox is read */
	g_string_append(mb,
		"From x@y Thu Jan  1 00:00:00 1970\n"
		"From: Rita Reviewer <rita@example.org>\n"
		"Message-ID: <early@x>\nIn-Reply-To: <s7@x>\n"
		"Subject: Re: [PATCH v2 8/40] k: step 7\n\n"
		"> +\tint s = 8;\n\nEarly.\n\n");
	g_string_append(mb, base);
	for (int i = 0; i < 40; i++)
		g_string_append_printf(mb,
			"From x@y Thu Jan  1 00:00:00 1970\n"
			"From: Ann Author <ann@example.org>\n"
			"Message-ID: <s%d@x>\nIn-Reply-To: <c@x>\n"
			"Subject: [PATCH v2 %d/40] k: step %d\n\n"
			"Step.\n---\ndiff --git a/k/s%d.c b/k/s%d.c\n"
			"--- a/k/s%d.c\n+++ b/k/s%d.c\n@@ -1,2 +1,2 @@\n"
			"-\tint s = %d;\n+\tint s = %d;\n }\n\n",
			i, i + 1, i, i, i, i, i, i, i + 1);
	for (int i = 39; i >= 0; i--)
		g_string_append_printf(mb,
			"From x@y Thu Jan  1 00:00:00 1970\n"
			"From: Rita Reviewer <rita@example.org>\n"
			"Message-ID: <r%d@x>\nIn-Reply-To: <s%d@x>\n"
			"To: Ann Author <ann@example.org>\n"
			"Subject: Re: [PATCH v2 %d/40] k: step %d\n\n"
			"On Mon, 2 Sep 2024, Ann Author wrote:\n"
			"> +\tint s = %d;\n\nWhy %d?\n\n"
			"Reviewed-by: Rita Reviewer <rita@example.org>\n\n",
			i, i, i + 1, i, i + 1, i + 1);
	/* a trailer for the series, given to the cover */
	g_string_append(mb, HDR("Rita Reviewer <rita@example.org>", "rc@x",
				"In-Reply-To: <c@x>\n", "Re: [PATCH 0/2] k: series")
			    "Acked-by: Rita Reviewer <rita@example.org>\n");
	assert_int_equal(mail_parse_mbox(mb->str, mb->len, "test", mails), 0);
	review_init_flags(&whole, flags);
	review_extract(&whole, mails);

	fd = g_file_open_tmp("t-review-XXXXXX", &path, NULL);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, mb->str, mb->len), (ssize_t)mb->len);
	close(fd);
	assert_int_equal(mail_reader_open(&rd, path, MAIL_NO_RAW), 0);
	review_init_flags(&streamed, flags);
	while (mail_reader_next(&rd, &m) > 0)
		review_add(&streamed, m, &rd);
	assert_int_equal(review_finish(&streamed), 0);
	assert_int_equal(streamed.comments->len, 41);
	assert_true(((struct review_comment *)streamed.comments->pdata[0])->is_inline);

	a = dumped(&whole, quoted);
	b = written(&streamed, quoted);
	assert_string_equal(a, b);
	free(b);
	b = written(&whole, quoted);
	assert_string_equal(a, b);
	free(b);
	g_free(a);
	review_release(&streamed);
	mail_reader_close(&rd);
	review_release(&whole);
	unlink(path);
	g_free(path);
	g_ptr_array_unref(mails);
	g_string_free(mb, TRUE);
}

static void test_streaming_same(void **state)
{
	streaming_same(REVIEW_QUOTED);
	streaming_same(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_gmail_inline),
		cmocka_unit_test(test_old_side_and_general),
		cmocka_unit_test(test_attributions),
		cmocka_unit_test(test_outlook),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_short_answers),
		cmocka_unit_test(test_bot),
		cmocka_unit_test(test_trailers),
		cmocka_unit_test(test_absent_target),
		cmocka_unit_test(test_quoted_recovery),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_quoted_sender_address),
		cmocka_unit_test(test_quoted_only_when_asked),
		cmocka_unit_test(test_streaming_same),
	};

	mail_init();
	return cmocka_run_group_tests_name("review", tests, NULL, NULL);
}
