/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_MAIL_H
#define KSERIES_MAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>

/*
 * Mail, parsed by GMime: an mbox (mboxo or mboxrd; ">From " lines are
 * unescaped as mboxrd) or a single message is split into messages, each
 * with decoded headers and its readable text.
 *
 * What we tolerate, deliberately:
 *  - a file that does not start with a "From " line is one message;
 *  - bare LF and CRLF line ends alike (bodies come out with LF);
 *  - a missing or unknown charset is read as UTF-8, then Latin-1, and the
 *    result is always valid UTF-8 (invalid bytes become U+FFFD);
 *  - a missing Message-ID: the message gets none (callers decide).
 * Limits: one message at most MAIL_MAX_MESSAGE bytes, MIME nesting at
 * most MAIL_MAX_DEPTH levels, MAIL_MAX_PARTS parts, MAIL_MAX_FIELDS lines
 * that could start a header field ("Name:" at column 0, counted in
 * bodies too: MIME parts and attached messages have headers of their
 * own; GMime spends about 500 bytes on each field it parses); past them
 * the mail is refused with an error naming the limit.
 */
#define MAIL_MAX_MESSAGE (64u << 20)
#define MAIL_MAX_FILE (1u << 30)	/* one mbox or patch file */
#define MAIL_MAX_DEPTH 16
#define MAIL_MAX_PARTS 256
#define MAIL_MAX_FIELDS 50000

struct mail {
	char *message_id;	/* without angle brackets; NULL if none */
	char *from_name;	/* decoded display name, "" if none */
	char *from_email;	/* addr-spec, "" if none */
	char *from;		/* "Name <addr>" as git writes it */
	char *date;		/* the Date: header as sent, or NULL */
	gint64 time;		/* seconds since the epoch, 0 if unknown */
	int tz_minutes;		/* the Date: header's offset from UTC */
	char *subject;		/* decoded, unfolded, "" if none */
	char *in_reply_to;	/* first msg-id of In-Reply-To, or NULL */
	GPtrArray *references;	/* char *, without brackets, oldest first */
	char *to;		/* decoded address lists, "" if none */
	char *cc;
	char *body;		/* inline text/plain parts, UTF-8, LF ends;
				 * NULL when read with MAIL_NO_BODY */
	size_t body_len;
	bool flowed;		/* the text was format=flowed (and unflowed) */
	unsigned attachments;	/* parts skipped: attachments, non-text */
	char *reconstructed;	/* X-Kseries-Reconstructed: which headers
				 * of a seed mail were made up, or NULL */
	char *raw;		/* the message as in the mbox, From_ line */
	size_t raw_len;		/* included, mboxrd escaping kept; NULL
				 * and 0 when read with MAIL_NO_RAW */
	gint64 offset;		/* where the message starts in the mbox */
	size_t size;		/* and its length there, From_ line included */
	unsigned nr;		/* its number in the mbox, from 1 */
};

/*
 * Parses every message of the mbox at path into mails (struct mail *,
 * owned by the array, which frees them). Returns 0, or -1 with one error
 * printed (path and message number) and mails left unchanged.
 */
int mail_read_mbox(const char *path, GPtrArray *mails);

/* The same from memory; name is used in messages. */
int mail_parse_mbox(const char *buf, size_t len, const char *name,
		    GPtrArray *mails);

enum mail_flags {
	MAIL_NO_RAW = 1 << 0,	/* leave raw NULL: callers that never write
				 * the message back need not hold it twice */
	MAIL_NO_RECIPIENTS = 1 << 1,	/* to and cc left "": formatting
					 * address lists is costly */
	MAIL_NO_BODY = 1 << 2,	/* body left NULL (and flowed, attachments
				 * 0): only the header block is parsed, for
				 * callers that need a mail's headers and
				 * not its text; the headers and the limits
				 * are those of a full read */
	MAIL_ONLY_IDS = 1 << 3,	/* MAIL_NO_BODY, and of the headers only
				 * message_id, subject, in_reply_to and
				 * references, as a full read gives them;
				 * the others are left as if the mail had
				 * none (""; date NULL, time 0): for callers
				 * that sort and key mail, at a fraction
				 * of the cost */
	MAIL_GMIME = 1 << 4,	/* every mail parsed by GMime: the reference
				 * the light read (below) is held to */
};

/*
 * Light reads. A mail whose header block is in its plainest form (every
 * line a "Name:" field or a continuation, LF ends, no CR) and that is one
 * text/plain part (no multipart, no Content-Disposition, none of From,
 * Date, To, Cc, Content-Type, Content-Transfer-Encoding twice; 7bit, 8bit,
 * binary, quoted-printable or base64) is read without building GMime's
 * message: the header values go through the same GMime calls the
 * message would make, the text through the same decoding, and struct
 * mail comes out the same. Every other mail is GMime's to parse. A
 * reader opened with KSERIES_MAIL_GMIME set (non-empty) in the
 * environment reads with MAIL_GMIME: how the tests and the benchmarks
 * compare the two.
 */

/*
 * Reads an mbox message by message: at most one message and one
 * read-ahead chunk are held, whatever the size of the mbox, and each
 * message is split and parsed exactly as mail_parse_mbox() does (which
 * is built on it). The limits above hold per message; a message over
 * MAIL_MAX_MESSAGE is refused before it is read whole.
 *
 *	struct mail_reader rd;
 *	struct mail *m;
 *	int ret;
 *
 *	if (mail_reader_open(&rd, path, MAIL_NO_RAW) < 0)
 *		return -1;
 *	while ((ret = mail_reader_next(&rd, &m)) > 0)
 *		use(m);		(m is the caller's: mail_free() it)
 *	mail_reader_close(&rd);
 *	(ret < 0: an error was printed)
 */
struct mail_reader {
	int fd;			/* the mbox file, or -1: read from mem */
	const char *mem;	/* the mbox in memory (borrowed) */
	size_t mem_len;
	char *name;		/* for messages */
	unsigned flags;		/* enum mail_flags */
	GByteArray *buf;	/* file bytes from offset base on */
	gint64 base;
	size_t pos;		/* where the next message starts, in buf */
	size_t scan;		/* where to look for its end */
	unsigned nr;		/* messages returned */
	bool begun, single, eof, failed;
};

/*
 * Opens the mbox at path (a regular file). Returns 0, or -1 with one
 * error printed.
 */
int mail_reader_open(struct mail_reader *rd, const char *path, unsigned flags);

/* The same over len bytes at buf (borrowed: it must outlive rd). */
void mail_reader_open_mem(struct mail_reader *rd, const char *buf, size_t len,
			  const char *name, unsigned flags);

/*
 * The next message in *out (a new struct mail). Returns 1, 0 at the end
 * of the mbox, or -1 with one error printed (the path and the message's
 * number); after an error or the end it keeps returning the same.
 */
int mail_reader_next(struct mail_reader *rd, struct mail **out);

/*
 * Reads again the message m was read as (by its offset and size), for
 * callers that let go of what they do not need at once and need it
 * later. Returns 0 and a new struct mail in *out, or -1 with one error
 * printed (the file changed under us, or cannot be read).
 */
int mail_reader_reread(struct mail_reader *rd, const struct mail *m,
		       struct mail **out);

/*
 * The bytes of a message as they are in the mbox (From_ line included,
 * mboxrd escaping kept: struct mail's raw), read again by the offset and
 * size it was read at, without parsing it: for callers that copy
 * messages through and do not keep them. *out is new (NUL-terminated,
 * the caller frees it). Returns 0, or -1 with one error printed.
 */
int mail_reader_raw(struct mail_reader *rd, gint64 offset, size_t size,
		    unsigned nr, char **out);

void mail_reader_close(struct mail_reader *rd);

/* A new array whose elements are freed with mail_free(). */
GPtrArray *mail_array_new(void);
void mail_free(struct mail *m);

/*
 * RFC 3676 format=flowed decoding of text: joins soft-broken lines of
 * the same quote depth, removes space-stuffing, and with delsp the
 * soft-break space. Returns a new string.
 */
char *mail_unflow(const char *text, size_t len, bool delsp, size_t *out_len);

/*
 * Writes m as one format-patch style message (From_ line, headers from
 * the mail, UTF-8 8bit text/plain body) into out. Non-ASCII header
 * values are RFC 2047 encoded. The From_ line is
 * "From <commit> Mon Sep 17 00:00:00 2001" as git writes it.
 */
void mail_format_patch(const struct mail *m, const char *commit, GString *out);

/* Initialises GMime once; safe to call repeatedly. */
void mail_init(void);

#endif
