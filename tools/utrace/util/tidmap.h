/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A map from thread id to a pointer: the one the command keeps its
 * per-thread marks in (the keeper's, a joined trace's threads).  Engines
 * keep theirs on their engine's data and need none.
 */
#ifndef UT_TIDMAP_H
#define UT_TIDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct tidmap_ent;
struct tidmap {
	struct tidmap_ent **buckets;
	size_t nbuckets;	/* a power of two, 0 before the first put */
	size_t n;
};

/* The value of tid, NULL if none. */
void *tidmap_get(const struct tidmap *m, pid_t tid);
/* tid's value is v now (v not NULL); 0 or -ENOMEM. */
int tidmap_put(struct tidmap *m, pid_t tid, void *v);
/* tid is taken out; its value (NULL if none). */
void *tidmap_del(struct tidmap *m, pid_t tid);
/*
 * Calls fn for each entry, in no order; an entry for which fn returns
 * true is taken out (fn frees its value then, if it must).
 */
void tidmap_filter(struct tidmap *m, bool (*fn)(pid_t tid, void *v,
						void *arg), void *arg);
/* Every entry out (not their values); the map is empty and reusable. */
void tidmap_clear(struct tidmap *m);

#endif
