// SPDX-License-Identifier: GPL-2.0-only
/*
 * thread.c - which patch a reply is about, from In-Reply-To/References.
 */
#include <string.h>

#include "thread.h"
#include "banned.h"

struct thread_node {
	char *id;
	enum thread_kind kind;
	char *parent;		/* In-Reply-To, else the last reference */
	GPtrArray *refs;	/* char *, oldest first */
};

static void node_free(gpointer data)
{
	struct thread_node *n = data;

	g_free(n->id);
	g_free(n->parent);
	g_ptr_array_unref(n->refs);
	g_free(n);
}

void thread_init(struct thread *t)
{
	t->nodes = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					 node_free);
}

void thread_release(struct thread *t)
{
	if (t->nodes)
		g_hash_table_destroy(t->nodes);
	t->nodes = NULL;
}

bool thread_add(struct thread *t, const char *id, enum thread_kind kind,
		const char *in_reply_to, const GPtrArray *references)
{
	struct thread_node *n;

	if (!id || !*id || g_hash_table_contains(t->nodes, id))
		return false;
	n = g_new0(struct thread_node, 1);
	n->id = g_strdup(id);
	n->kind = kind;
	n->refs = g_ptr_array_new_with_free_func(g_free);
	if (references)
		for (guint i = 0; i < references->len; i++)
			if (strcmp(references->pdata[i], id))
				g_ptr_array_add(n->refs,
						g_strdup(references->pdata[i]));
	if (in_reply_to && *in_reply_to && strcmp(in_reply_to, id))
		n->parent = g_strdup(in_reply_to);
	else if (n->refs->len)
		n->parent = g_strdup(n->refs->pdata[n->refs->len - 1]);
	g_hash_table_insert(t->nodes, n->id, n);
	return true;
}

/*
 * Walks up from start; returns the first patch/cover found, or NULL.
 * seen guards against loops across calls.
 */
static const char *walk(const struct thread *t, const char *start,
			GHashTable *seen)
{
	const char *id = start;

	for (int depth = 0; id && depth < THREAD_MAX_DEPTH; depth++) {
		struct thread_node *n;

		if (g_hash_table_contains(seen, id))
			return NULL;
		g_hash_table_add(seen, (gpointer)id);
		n = g_hash_table_lookup(t->nodes, id);
		if (!n)
			return NULL;
		if (n->kind != THREAD_REPLY)
			return n->id;
		id = n->parent;
	}
	return NULL;
}

const char *thread_target(const struct thread *t, const char *id,
			  bool *present)
{
	struct thread_node *n = g_hash_table_lookup(t->nodes, id);
	GHashTable *seen;
	const char *found = NULL;

	*present = false;
	if (!n || !n->parent)
		return NULL;
	seen = g_hash_table_new(g_str_hash, g_str_equal);
	g_hash_table_add(seen, n->id);
	found = walk(t, n->parent, seen);
	/* the chain left the mbox: try the older references, newest first */
	for (guint i = n->refs->len; !found && i-- > 0;) {
		const char *r = n->refs->pdata[i];

		if (g_hash_table_contains(seen, r))
			continue;
		found = walk(t, r, seen);
	}
	g_hash_table_destroy(seen);
	if (found) {
		*present = true;
		return found;
	}
	return n->parent;
}
