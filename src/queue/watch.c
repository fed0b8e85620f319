// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Watching (local queue): which threads a watch covers, now and as they
 * clone (utrace__q_follow, through utrace_follow), with which events and holds.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/sched.h>

#include "queue/queue.h"

static int watch_one(const struct watch_args *a, pid_t tid);

int utrace__q_follow(void *arg, pid_t child, pid_t tgid, pid_t parent,
		     unsigned long flags)
{
	struct lqueue *q = arg;
	struct qthread *qt, *c;
	struct qstop *s;
	int err;

	if (!parent)	/* another thread of the process do_watch watches */
		return q->watching ? watch_one(q->watching, child) : -ENOENT;
	qt = utrace__qt_find(q, parent);
	if (!qt || utrace__qt_find(q, child))
		return -EEXIST;
	c = utrace__qt_new(q, child, qt);
	if (!c)
		return -ENOMEM;
	c->ptgid = flags & CLONE_THREAD ? qt->ptgid : qt->tgid;
	err = utrace__qt_attach(c);
	if (err) {
		free(c->nrs);
		free(c);
		return err;
	}
	/*
	 * Born into an all-stop: held from birth, and counted (its type-0
	 * record) once it is in its first stop, which a new thread usually
	 * has not reached yet; the next poll looks again.
	 */
	s = utrace__qstop_find(q, c->tgid);
	if (s) {
		c->allstop = true;
		q->stops_pending++;
		if (utrace_control(c->e, UTRACE_STOP) == 0 &&
		    utrace__qt_in_stop(c)) {
			struct qrec *r;
			struct utrace_event *ev = utrace__rec_begin(c, 0, &r);

			c->allstop_seen = true;
			if (ev)
				utrace__rec_commit(c, r, false, NULL);
		}
	}
	return 0;
}


/* -- Watching ------------------------------------------------------------ */

static void qt_update(struct qthread *qt, const struct watch_args *a)
{
	qt->flags = a->flags;
	qt->events = a->events;
	qt->hold = a->hold;
	utrace__qt_apply(qt);
	utrace__qt_follow(qt);
}

static int watch_one(const struct watch_args *a, pid_t tid)
{
	struct qthread *qt = utrace__qt_find(a->q, tid);
	int err;

	if (qt) {
		qt_update(qt, a);
		return 0;
	}
	qt = utrace__qt_new(a->q, tid, NULL);
	if (!qt)
		return -ENOMEM;
	qt->flags = a->flags;
	qt->events = a->events;
	qt->hold = a->hold;
	err = utrace__qt_attach(qt);
	if (err)
		free(qt);
	return err;
}

/* Is process @tgid @root or forked (followed) from it, recursively? */
static bool descends(struct lqueue *q, pid_t tgid, pid_t root)
{
	for (int depth = 0; depth < 4096 && tgid > 0; depth++) {
		pid_t parent = 0;

		if (tgid == root)
			return true;
		for (struct qthread *qt = qt_next(q, NULL); qt;
		     qt = qt_next(q, qt))
			if (qt->tgid == tgid && qt->ptgid) {
				parent = qt->ptgid;
				break;
			}
		tgid = parent;
	}
	return false;
}

/* The watched threads a watch of @root (with @flags) covers. */
static bool covers(struct lqueue *q, const struct qthread *root,
		   unsigned flags, const struct qthread *qt)
{
	if (qt == root)
		return true;
	if ((flags & UTRACE_WATCH_PROCESS) && qt->tgid == root->tgid)
		return true;
	if ((flags & UTRACE_WATCH_CHILDREN) && qt->tgid != root->tgid &&
	    descends(q, qt->tgid, root->tgid))
		return true;
	return false;
}

static int do_watch(void *arg)
{
	struct watch_args *a = arg;
	struct lqueue *q = a->q;
	struct qthread *root;
	int err;

	err = watch_one(a, a->tid);
	if (err)
		return err;
	if (!(a->flags & UTRACE_WATCH_PROCESS))
		return 0;
	/* Every other thread of the process (utrace__q_follow, parent 0). */
	q->watching = a;
	utrace__follow(q->t, a->tid, a->flags & Q_FOLLOW, utrace__q_follow, q,
		       true);
	q->watching = NULL;
	/* Watching again: what the watch covers takes the masks. */
	root = utrace__qt_find(q, a->tid);
	for (struct qthread *qt = root ? qt_next(q, NULL) : NULL; qt;
	     qt = qt_next(q, qt))
		if (qt != root && covers(q, root, a->flags, qt))
			qt_update(qt, a);
	return 0;
}

int utrace__q_watch(struct utrace_queue *uq, pid_t tid, unsigned flags,
		    unsigned long events, unsigned long hold)
{
	struct lqueue *q = lq(uq);
	struct watch_args a = { q, tid, flags, events, hold, NULL, 0 };

	return utrace__call(q->t, do_watch, &a);
}

static int do_unwatch(void *arg)
{
	struct watch_args *a = arg;
	struct lqueue *q = a->q;
	struct qthread *root = utrace__qt_find(q, a->tid);
	struct qthread **list;
	unsigned n = 0;

	if (!root)
		return -ENOENT;
	list = malloc(q->threads.count * sizeof(*list));
	if (!list)
		return -ENOMEM;
	for (struct qthread *qt = qt_next(q, NULL); qt; qt = qt_next(q, qt))
		if (covers(q, root, a->flags, qt))
			list[n++] = qt;
	for (unsigned i = 0; i < n; i++) {
		utrace__qt_leave_as_found(list[i]);
		utrace__qt_forget(list[i]);
	}
	free(list);
	/*
	 * An all-stop of a process none of whose threads is watched any
	 * more is over: a later watch of it does not find it in force.
	 */
	for (struct qstop *st = q->stops, *next; st; st = next) {
		next = st->next;
		if (!utrace__q_watches(q, st->pid))
			utrace__qstop_drop(q, st);
	}
	return 0;
}

int utrace__q_unwatch(struct utrace_queue *uq, pid_t tid, unsigned flags)
{
	struct lqueue *q = lq(uq);
	struct watch_args a = { q, tid, flags, 0, 0, NULL, 0 };
	int err;

	err = utrace__call(q->t, do_unwatch, &a);
	utrace__settle_now(q->t);
	return err;
}

static int do_set_syscalls(void *arg)
{
	struct watch_args *a = arg;
	struct lqueue *q = a->q;
	struct qthread *root = utrace__qt_find(q, a->tid);
	int ret = 0;

	if (!root)
		return -ENOENT;
	for (struct qthread *qt = qt_next(q, NULL); qt; qt = qt_next(q, qt)) {
		long *copy = NULL;
		int err;

		if (!covers(q, root, root->flags, qt))
			continue;
		if (a->nrs) {
			copy = malloc(a->n * sizeof(long) + 1);
			if (!copy)
				return -ENOMEM;
			memcpy(copy, a->nrs, a->n * sizeof(long));
		}
		free(qt->nrs);
		qt->nrs = copy;
		qt->nnrs = a->n;
		err = utrace_set_syscalls(qt->e, a->nrs, a->n);
		if (err && err != -ESRCH)
			ret = err;
	}
	return ret;
}

int utrace__q_set_syscalls(struct utrace_queue *uq, pid_t tid,
			   const long *nrs, size_t n)
{
	struct lqueue *q = lq(uq);
	struct watch_args a = { q, tid, 0, 0, 0, nrs, n };

	return utrace__call(q->t, do_set_syscalls, &a);
}

