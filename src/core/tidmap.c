// SPDX-License-Identifier: LGPL-2.1-or-later
/* The table of objects by thread id (tidmap.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/tidmap.h"

static unsigned bucket(pid_t tid, unsigned n)
{
	return ((uint32_t)tid * 2654435761u) & (n - 1);
}

struct utrace__tidnode *utrace__tidmap_find(const struct utrace__tidmap *m,
					    pid_t tid)
{
	struct utrace__tidnode *n;

	if (!m->nbuckets)
		return NULL;
	for (n = m->buckets[bucket(tid, m->nbuckets)]; n; n = n->next)
		if (n->tid == tid)
			return n;
	return NULL;
}

static void insert(struct utrace__tidmap *m, struct utrace__tidnode *n)
{
	unsigned b = bucket(n->tid, m->nbuckets);

	n->next = m->buckets[b];
	m->buckets[b] = n;
}

/* Twice the buckets (64 the first time); false when out of memory. */
static bool grow(struct utrace__tidmap *m)
{
	unsigned n = m->nbuckets ? m->nbuckets * 2 : 64, oldn = m->nbuckets;
	struct utrace__tidnode **old = m->buckets, *x, *next;

	m->buckets = calloc(n, sizeof(*m->buckets));
	if (!m->buckets) {
		m->buckets = old;
		return false;
	}
	m->nbuckets = n;
	for (unsigned i = 0; i < oldn; i++) {
		for (x = old[i]; x; x = next) {
			next = x->next;
			insert(m, x);
		}
	}
	free(old);
	return true;
}

int utrace__tidmap_add(struct utrace__tidmap *m, struct utrace__tidnode *n,
		       pid_t tid)
{
	if (m->count >= m->nbuckets && !grow(m) && !m->nbuckets)
		return -ENOMEM;
	n->tid = tid;
	insert(m, n);
	m->count++;
	return 0;
}

static void unlink_node(struct utrace__tidmap *m, struct utrace__tidnode *n)
{
	struct utrace__tidnode **pp = &m->buckets[bucket(n->tid, m->nbuckets)];

	for (; *pp; pp = &(*pp)->next) {
		if (*pp == n) {
			*pp = n->next;
			return;
		}
	}
}

void utrace__tidmap_del(struct utrace__tidmap *m, struct utrace__tidnode *n)
{
	unlink_node(m, n);
	m->count--;
}

void utrace__tidmap_rekey(struct utrace__tidmap *m, struct utrace__tidnode *n,
			  pid_t tid)
{
	unlink_node(m, n);
	n->tid = tid;
	insert(m, n);
}

struct utrace__tidnode *utrace__tidmap_next(const struct utrace__tidmap *m,
					    const struct utrace__tidnode *n)
{
	unsigned b = 0;

	if (n) {
		if (n->next)
			return n->next;
		b = bucket(n->tid, m->nbuckets) + 1;
	}
	for (; b < m->nbuckets; b++)
		if (m->buckets[b])
			return m->buckets[b];
	return NULL;
}

void utrace__tidmap_fini(struct utrace__tidmap *m)
{
	free(m->buckets);
	m->buckets = NULL;
	m->nbuckets = m->count = 0;
}
