/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library's one table of objects by thread id (the core's threads, a
 * queue's watched threads): a hash of chains, intrusive (the object
 * embeds a struct utrace__tidnode), grown as it fills.  Not thread-safe:
 * its owner says who may touch it.
 */
#ifndef UTRACE_CORE_TIDMAP_H
#define UTRACE_CORE_TIDMAP_H

#include <stddef.h>
#include <sys/types.h>

struct utrace__tidnode {
	struct utrace__tidnode *next;	/* chain */
	pid_t tid;			/* the key */
};

struct utrace__tidmap {
	struct utrace__tidnode **buckets;
	unsigned nbuckets;		/* 0 or a power of two */
	unsigned count;
};

/* The object of type @type whose member @member is node @n. */
#define utrace__tid_entry(n, type, member) \
	((type *)((char *)(n) - offsetof(type, member)))

struct utrace__tidnode *utrace__tidmap_find(const struct utrace__tidmap *m,
					    pid_t tid);
/*
 * Put @n in under @tid (not in yet).  Returns 0, or -ENOMEM when the
 * table has no bucket at all (a table that cannot grow takes it anyway).
 */
int utrace__tidmap_add(struct utrace__tidmap *m, struct utrace__tidnode *n,
		       pid_t tid);
void utrace__tidmap_del(struct utrace__tidmap *m, struct utrace__tidnode *n);
/* @n (in) is known by @tid from now on. */
void utrace__tidmap_rekey(struct utrace__tidmap *m, struct utrace__tidnode *n,
			  pid_t tid);
/*
 * Iteration: the node after @n (NULL: the first), NULL after the last.
 * To take @n out while iterating, get its successor first.
 */
struct utrace__tidnode *utrace__tidmap_next(const struct utrace__tidmap *m,
					    const struct utrace__tidnode *n);
/* Free the buckets (the objects are the owner's). */
void utrace__tidmap_fini(struct utrace__tidmap *m);

#endif
