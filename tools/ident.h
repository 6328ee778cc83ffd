/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_IDENT_H
#define KSERIES_IDENT_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>

/*
 * The sender of the mails we write (DESIGN.md §6), found as git
 * send-email finds it: `sendemail.from`, else `user.name` and
 * `user.email`, from the user's git configuration: the system and
 * global files and GIT_CONFIG_COUNT/GIT_CONFIG_PARAMETERS ("command"
 * scope). A repository's local or worktree configuration never counts:
 * kernel/provision-base gives the base tree a local identity of its own,
 * the workbench's, which is nobody's.
 */
struct ident {
	char *name;		/* may be "" */
	char *email;		/* addr-spec */
};

/*
 * The author of a commit that apply makes from a stored patch with no
 * From: line (the sender's own patch, stored without identity): fixed,
 * so that the applied commit ids, which key check's cache, do not
 * depend on who runs check. It is a placeholder (ident_is_placeholder()),
 * so format's re-commit turns it into the sender; it is never mailed.
 */
#define IDENT_APPLY_NAME "kseries sender"
#define IDENT_APPLY_EMAIL "sender@sender.invalid"
#define IDENT_APPLY_DATE "@0 +0000"

void ident_init(struct ident *id);
void ident_release(struct ident *id);

/*
 * Fills id with the sender. Returns 0, or -1 with why set to one line
 * (nothing printed): no identity is configured, or it is a placeholder
 * (ident_is_placeholder()).
 */
int ident_sender(struct ident *id, GString *why);

/* ident_sender() that prints why with error(); returns 0 or -1. */
int ident_sender_or_error(struct ident *id);

/*
 * True if email is no one's address: empty, without '@' or a domain,
 * or in a domain that cannot receive mail: localhost, *.localhost,
 * *.invalid, *.localdomain (RFC 2606, RFC 6761).
 */
bool ident_is_placeholder(const char *email);

/* True if the text holds an address ident_is_placeholder() refuses. */
bool ident_text_has_placeholder(const char *text, size_t len);

/* "Name <email>" (or "<email>" without a name); new string. */
char *ident_format(const struct ident *id);

/* The domain part of id's address; borrowed. */
const char *ident_domain(const struct ident *id);

/* True if the two addresses are the same mailbox (case-insensitive). */
bool ident_same_email(const char *a, const char *b);

/*
 * True if value is an Assisted-by value in the form of the base tree's
 * Documentation/process/coding-assistants.rst:
 * "AGENT_NAME:MODEL_VERSION [TOOL1] [TOOL2]".
 */
bool ident_assisted_by_ok(const char *value);

#endif
