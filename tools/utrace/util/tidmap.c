// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The command's map from thread id to a pointer (tidmap.h): chained
 * buckets, twice as many when there are more entries than buckets.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "util/tidmap.h"

struct tidmap_ent {
	pid_t tid;
	void *v;
	struct tidmap_ent *next;
};

static struct tidmap_ent **bucket(const struct tidmap *m, pid_t tid)
{
	return &m->buckets[(unsigned)tid & (m->nbuckets - 1)];
}

void *tidmap_get(const struct tidmap *m, pid_t tid)
{
	const struct tidmap_ent *e;

	if (!m->nbuckets)
		return NULL;
	for (e = *bucket(m, tid); e; e = e->next)
		if (e->tid == tid)
			return e->v;
	return NULL;
}

/* Twice the buckets; the map stays as it was if there is no memory. */
static void grow(struct tidmap *m)
{
	size_t n = m->nbuckets ? m->nbuckets * 2 : 64, i;
	struct tidmap_ent **b = calloc(n, sizeof(*b)), *e;
	struct tidmap old = *m;

	if (!b)
		return;
	m->buckets = b;
	m->nbuckets = n;
	for (i = 0; i < old.nbuckets; i++)
		while ((e = old.buckets[i])) {
			old.buckets[i] = e->next;
			e->next = *bucket(m, e->tid);
			*bucket(m, e->tid) = e;
		}
	free(old.buckets);
}

int tidmap_put(struct tidmap *m, pid_t tid, void *v)
{
	struct tidmap_ent *e;

	if (m->n >= m->nbuckets)
		grow(m);
	if (!m->nbuckets)
		return -ENOMEM;
	for (e = *bucket(m, tid); e; e = e->next)
		if (e->tid == tid) {
			e->v = v;
			return 0;
		}
	e = malloc(sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->tid = tid;
	e->v = v;
	e->next = *bucket(m, tid);
	*bucket(m, tid) = e;
	m->n++;
	return 0;
}

void *tidmap_del(struct tidmap *m, pid_t tid)
{
	struct tidmap_ent **pp, *e;
	void *v;

	if (!m->nbuckets)
		return NULL;
	for (pp = bucket(m, tid); (e = *pp); pp = &e->next)
		if (e->tid == tid) {
			*pp = e->next;
			v = e->v;
			free(e);
			m->n--;
			return v;
		}
	return NULL;
}

void tidmap_filter(struct tidmap *m, bool (*fn)(pid_t tid, void *v,
						void *arg), void *arg)
{
	size_t i;

	for (i = 0; i < m->nbuckets; i++) {
		struct tidmap_ent **pp = &m->buckets[i], *e;

		while ((e = *pp)) {
			if (fn(e->tid, e->v, arg)) {
				*pp = e->next;
				free(e);
				m->n--;
			} else {
				pp = &e->next;
			}
		}
	}
}

void tidmap_clear(struct tidmap *m)
{
	size_t i;

	for (i = 0; i < m->nbuckets; i++)
		while (m->buckets[i]) {
			struct tidmap_ent *e = m->buckets[i];

			m->buckets[i] = e->next;
			free(e);
		}
	free(m->buckets);
	m->buckets = NULL;
	m->nbuckets = 0;
	m->n = 0;
}
