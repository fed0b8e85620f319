// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The threads a local queue watches: its table of them (loop thread), each
 * one's engine and what it is held for.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "queue/queue.h"

struct qthread *utrace__qt_find(struct lqueue *q, pid_t tid)
{
	struct utrace__tidnode *n = utrace__tidmap_find(&q->threads, tid);

	return n ? utrace__tid_entry(n, struct qthread, hnode) : NULL;
}

void utrace__qt_unhash(struct lqueue *q, struct qthread *qt)
{
	utrace__tidmap_del(&q->threads, &qt->hnode);
}

int utrace__qt_hash(struct lqueue *q, struct qthread *qt)
{
	return utrace__tidmap_add(&q->threads, &qt->hnode, qt->tid);
}

/* Does @q watch a live thread of process @tgid? */
bool utrace__q_watches(struct lqueue *q, pid_t tgid)
{
	for (struct qthread *qt = qt_next(q, NULL); qt; qt = qt_next(q, qt))
		if (qt->tgid == tgid && !qt->dead)
			return true;
	return false;
}

/* Call @fn on every watched thread (it may forget the one it gets). */
void utrace__qt_each(struct lqueue *q,
		     void (*fn)(struct qthread *qt, void *arg), void *arg)
{
	struct qthread *qt, *next;

	for (qt = qt_next(q, NULL); qt; qt = next) {
		next = qt_next(q, qt);
		fn(qt, arg);
	}
}

/*
 * The engine's events, and whether it only observes syscalls (utrace(7),
 * SYSCALLS OBSERVED IN-PROCESS): a watch that holds no syscall event and
 * is not stepping or stopping the thread through QUIESCE may get its
 * syscall records from the thread's own records
 * (utrace_tracer_set_records), without a stop.
 */
int utrace__qt_apply(struct qthread *qt)
{
	int err = utrace_set_events(qt->e, qt_mask(qt));

	if (!err)
		err = utrace_set_observer(qt->e,
					  !(qt->hold & UTRACE_EVENT_SYSCALL) &&
					  !qt->quiesce && !qt->stepping);
	return err;
}

/* Follow the thread's new threads and children as its watch says. */
void utrace__qt_follow(struct qthread *qt)
{
	utrace__follow(qt->q->t, qt->tid, qt->flags & Q_FOLLOW,
		       utrace__q_follow, qt->q, false);
}

void utrace__qt_set_quiesce(struct qthread *qt, bool on)
{
	if (qt->quiesce == on)
		return;
	qt->quiesce = on;
	utrace__qt_apply(qt);
}

void utrace__qt_set_stepping(struct qthread *qt, int step)
{
	if (qt->stepping == step)
		return;
	qt->stepping = step;
	utrace__qt_apply(qt);
}

/*
 * Whether the thread an all-stop holds is in its ptrace stop now; call it
 * after utrace_control(UTRACE_STOP) returned 0.  That 0 also covers a
 * thread that is only decided to stop: a new thread whose first stop has
 * not come yet (TH_NEW), one the library lets sit in a group stop, and one
 * in a clone or exec stop, where the engines' STOP is deferred to the
 * syscall's exit (section "Where a stop takes effect" of utrace(7)).  None
 * of them is stopped yet: a later scan (stop.c) counts them.
 */
bool utrace__qt_in_stop(const struct qthread *qt)
{
	enum utrace__stop s = utrace__engine_stop(qt->e);

	return s != STOP_NONE && s != STOP_CLONE && s != STOP_EXEC;
}

void utrace__qt_dead_id(struct lqueue *q, uint64_t id)
{
	if (q->ndead == q->dead_cap) {
		size_t cap = q->dead_cap ? q->dead_cap * 2 : 16;
		uint64_t *d = realloc(q->dead_ids, cap * sizeof(*d));

		if (!d)
			return;
		q->dead_ids = d;
		q->dead_cap = cap;
	}
	q->dead_ids[q->ndead++] = id;
}

struct qstop *utrace__qstop_find(struct lqueue *q, pid_t pid)
{
	for (struct qstop *s = q->stops; s; s = s->next)
		if (s->pid == pid)
			return s;
	return NULL;
}

/* Detach the queue's engine from the thread and forget it. */
void utrace__qt_forget(struct qthread *qt)
{
	struct lqueue *q = qt->q;

	utrace__qt_unhash(q, qt);
	/* A utrace_queue_stop_thread call waiting for it: not watched now. */
	if (qt->tstop && !qt->allstop_seen && !qt->dead)
		utrace__qt_twake(q, qt->tid, -ESRCH);
	utrace__follow(q->t, qt->tid, 0, utrace__q_follow, q, false);
	/* A held thread runs on as if replied UTRACE_RESUME. */
	utrace_control(qt->e, UTRACE_DETACH);
	utrace_engine_put(qt->e);
	free(qt->nrs);
	free(qt);
}

struct qthread *utrace__qt_new(struct lqueue *q, pid_t tid,
			       const struct qthread *like)
{
	struct qthread *qt = calloc(1, sizeof(*qt));

	if (!qt)
		return NULL;
	qt->q = q;
	qt->tid = tid;
	if (like) {
		qt->flags = like->flags;
		qt->events = like->events;
		qt->hold = like->hold;
		if (like->nrs) {
			qt->nrs = malloc(like->nnrs * sizeof(long) + 1);
			if (!qt->nrs) {
				free(qt);
				return NULL;
			}
			memcpy(qt->nrs, like->nrs, like->nnrs * sizeof(long));
			qt->nnrs = like->nnrs;
		}
	}
	return qt;
}

/* Attach the queue's engine to @qt->tid (loop thread). */
int utrace__qt_attach(struct qthread *qt)
{
	struct lqueue *q = qt->q;
	int err;

	err = utrace__attach(q->t, qt->tid, UTRACE_ATTACH_CREATE |
			     (qt->flags & UTRACE_WATCH_FIRST ?
			      UTRACE__ATTACH_FIRST : 0), &utrace__q_ops, qt,
			     &qt->e);
	if (err)
		return err;
	qt->tgid = utrace_engine_tgid(qt->e);
	err = utrace__qt_hash(q, qt);
	if (!err)
		err = utrace__qt_apply(qt);
	if (!err && qt->nrs)
		err = utrace_set_syscalls(qt->e, qt->nrs, qt->nnrs);
	if (!err && (qt->flags & Q_FOLLOW))
		err = utrace__follow(q->t, qt->tid, qt->flags & Q_FOLLOW,
				     utrace__q_follow, q, false);
	if (err) {
		if (utrace__qt_find(q, qt->tid) == qt) {
			utrace__qt_unhash(q, qt);
		}
		utrace_control(qt->e, UTRACE_DETACH);
		utrace_engine_put(qt->e);
		return err;
	}
	return 0;
}
