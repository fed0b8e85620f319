// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * All-stop (local queue): utrace_queue_stop holds every watched thread of
 * a process and is done once each is in a ptrace stop; the layer's
 * after_dispatch hook looks again at those not stopped yet.
 * utrace_queue_stop_thread does the same for one thread, the others
 * untouched (a debugger's non-stop mode): its hold (qthread.tstop) is
 * the thread's own, so utrace_queue_resume of the process leaves it, and
 * a thread born meanwhile is not held.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/proc.h"
#include "queue/queue.h"

struct stop_scan {
	struct qstop *s;
	int count, missing;
};

/*
 * Bring a thread a stop takes to its ptrace stop: 0 once it is there (its
 * record of type 0 made, once for every stop that holds it), -EAGAIN while
 * it is not yet, -ESRCH when it is gone.
 */
static int stop_reach(struct qthread *qt)
{
	struct utrace_event *ev;
	struct qrec *r;
	int err;

	if (qt->dead)
		return -ESRCH;
	if (qt->allstop_seen)
		return 0;
	/* 0: it is in a ptrace stop, held by our engine. */
	err = utrace_control(qt->e, UTRACE_STOP);
	if (err == -ESRCH)
		return -ESRCH;
	if (err || !utrace__qt_in_stop(qt))
		return -EAGAIN;
	qt->allstop_seen = true;
	ev = utrace__rec_begin(qt, 0, &r);
	if (ev) {
		utrace_syscall_get(qt->e, &ev->syscall);
		utrace__rec_commit(qt, r, false, NULL);
	}
	if (qt->tstop)
		utrace__qt_twake(qt->q, qt->tid, 1);
	return 0;
}

static void stop_scan_one(struct qthread *qt, void *arg)
{
	struct stop_scan *sc = arg;
	int err;

	if (qt->tgid != sc->s->pid || !qt->allstop || qt->dead)
		return;
	err = stop_reach(qt);
	if (err == -ESRCH)
		return;
	if (err) {
		sc->missing++;
		return;
	}
	sc->count++;
}

/* Look again at the threads of an all-stop; true once all are stopped. */
static bool stop_scan(struct lqueue *q, struct qstop *s)
{
	struct stop_scan sc = { s, 0, 0 };

	utrace__qt_each(q, stop_scan_one, &sc);
	pthread_mutex_lock(&q->lock);
	s->count = sc.count;
	if (!sc.missing && !s->done) {
		s->done = true;
		pthread_cond_broadcast(&q->cond);
	}
	pthread_mutex_unlock(&q->lock);
	return !sc.missing;
}

/* Wake the utrace_queue_stop_thread calls waiting for @tid. */
void utrace__qt_twake(struct lqueue *q, pid_t tid, int result)
{
	pthread_mutex_lock(&q->lock);
	for (struct qtwait *w = q->twaits; w; w = w->next) {
		if (w->tid != tid || w->done)
			continue;
		w->done = true;
		w->result = result;
		pthread_cond_broadcast(&q->cond);
	}
	pthread_mutex_unlock(&q->lock);
}

/* Look again at the threads thread stops wait for. */
static void tstop_scan(struct lqueue *q)
{
	q->tstops_pending = 0;
	for (struct qthread *qt = qt_next(q, NULL); qt; qt = qt_next(q, qt)) {
		int err;

		if (!qt->tstop || qt->allstop_seen || qt->dead)
			continue;
		err = stop_reach(qt);
		if (err == -ESRCH)
			utrace__qt_twake(q, qt->tid, -ESRCH);
		else if (err)
			q->tstops_pending++;
	}
}

/* After a dispatch (the layer's hook): which all-stops are complete. */
void utrace__q_after_dispatch(struct utrace_tracer *t, void *data)
{
	struct qlayer *ql = data;

	for (struct lqueue *q = ql->queues; q; q = q->next) {
		if (q->tstops_pending)
			tstop_scan(q);
		if (!q->stops_pending)
			continue;
		q->stops_pending = 0;
		for (struct qstop *s = q->stops; s; s = s->next)
			if (!stop_scan(q, s))
				q->stops_pending++;
	}
}

struct stop_args {
	struct lqueue *q;
	pid_t pid;
	struct qstop *s;
};

static void stop_take(struct qthread *qt, void *arg)
{
	struct stop_args *a = arg;

	if (qt->tgid != a->pid || qt->dead || qt->allstop)
		return;
	qt->allstop = true;
	/* Stopped already by its thread stop: counted, no new record. */
	if (qt->tstop && qt->allstop_seen)
		return;
	qt->allstop_seen = false;
	utrace_control(qt->e, UTRACE_STOP);
}

static int do_stop_begin(void *arg)
{
	struct stop_args *a = arg;
	struct lqueue *q = a->q;
	struct qstop *s = utrace__qstop_find(q, a->pid);

	if (!utrace__q_watches(q, a->pid))
		return -ESRCH;
	if (!s) {
		s = calloc(1, sizeof(*s));
		if (!s)
			return -ENOMEM;
		s->pid = a->pid;
		s->next = q->stops;
		q->stops = s;
	}
	a->s = s;
	pthread_mutex_lock(&q->lock);
	s->users++;
	/* Stopping again: done once every thread watched now is stopped. */
	s->done = false;
	pthread_mutex_unlock(&q->lock);
	utrace__qt_each(q, stop_take, a);
	if (!stop_scan(q, s))
		q->stops_pending++;
	return 0;
}

/*
 * The end of a utrace_queue_stop call (q->lock held, dropped here): its
 * result, and the stop freed if a resume took it away and we were its last
 * waiter.  @err: an error to return instead.
 */
static int stop_put(struct lqueue *q, struct qstop *s, int err)
{
	bool done = s->done, cancelled = s->cancelled;
	int n = s->count;

	if (--s->users == 0 && cancelled)
		free(s);
	pthread_mutex_unlock(&q->lock);
	if (err)
		return err;
	if (done)
		return n;
	return cancelled ? -ECANCELED : -ETIMEDOUT;
}

int utrace__q_stop(struct utrace_queue *uq, pid_t pid, int timeout_ms)
{
	struct lqueue *q = lq(uq);
	struct stop_args a = { q, pid, NULL };
	long deadline;
	int err;

	err = utrace__call(q->t, do_stop_begin, &a);
	if (err)
		return err;
	/*
	 * From here on a.s may be resumed (unlinked) by another thread at
	 * any moment; our use of it keeps it allocated (stop_put).
	 */
	deadline = utrace__now_ms() + timeout_ms;
	if (utrace__on_loop(q->t)) {
		for (;;) {
			pthread_mutex_lock(&q->lock);
			if (a.s->done || a.s->cancelled)
				break;
			pthread_mutex_unlock(&q->lock);
			if (timeout_ms == 0 ||
			    (timeout_ms > 0 && utrace__now_ms() >= deadline)) {
				pthread_mutex_lock(&q->lock);
				break;
			}
			long left = deadline - utrace__now_ms();

			err = utrace_dispatch(q->t, timeout_ms < 0 ? -1 :
					      (int)left);
			if (err < 0) {
				pthread_mutex_lock(&q->lock);
				return stop_put(q, a.s, err);
			}
		}
		return stop_put(q, a.s, 0);
	}
	pthread_mutex_lock(&q->lock);
	if (timeout_ms > 0) {
		struct timespec ts;

		utrace__deadline(&ts, CLOCK_MONOTONIC, timeout_ms);
		q->waiters++;
		while (!a.s->done && !a.s->cancelled &&
		       pthread_cond_timedwait(&q->cond, &q->lock, &ts) == 0)
			;
		q->waiters--;
	} else if (timeout_ms < 0) {
		q->waiters++;
		while (!a.s->done && !a.s->cancelled)
			pthread_cond_wait(&q->cond, &q->lock);
		q->waiters--;
	}
	return stop_put(q, a.s, 0);
}

/* Take the all-stop @s away (loop thread); its threads are not released. */
void utrace__qstop_drop(struct lqueue *q, struct qstop *s)
{
	for (struct qstop **pp = &q->stops; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	/* A utrace_queue_stop call still waiting on it frees it. */
	pthread_mutex_lock(&q->lock);
	if (s->users) {
		s->cancelled = true;
		pthread_cond_broadcast(&q->cond);
	} else {
		free(s);
	}
	pthread_mutex_unlock(&q->lock);
}

static int do_resume(void *arg)
{
	struct stop_args *a = arg;
	struct lqueue *q = a->q;
	struct qstop *s = utrace__qstop_find(q, a->pid);
	int n = 0;

	if (!s)
		return 0;
	utrace__qstop_drop(q, s);
	for (struct qthread *qt = qt_next(q, NULL), *next; qt; qt = next) {
		next = qt_next(q, qt);
		if (qt->tgid != a->pid || !qt->allstop)
			continue;
		qt->allstop = false;
		if (qt->tstop)
			continue;	/* its thread stop holds it still */
		qt->allstop_seen = false;
		n++;
		utrace__qt_release(qt);
	}
	return n;
}

int utrace__q_resume(struct utrace_queue *uq, pid_t pid)
{
	struct lqueue *q = lq(uq);
	struct stop_args a = { q, pid, NULL };
	int n;

	n = utrace__call(q->t, do_resume, &a);
	utrace__settle_now(q->t);
	return n;
}

struct rthread_args {
	struct lqueue *q;
	pid_t tid;
	int action;
};

static int do_resume_thread(void *arg)
{
	struct rthread_args *a = arg;
	struct qthread *qt = utrace__qt_find(a->q, a->tid);

	if (qt && qt->dead)
		return -ESRCH;
	if (!qt)
		return utrace__proc_alive(a->tid) ? -ENOENT : -ESRCH;
	/*
	 * Only a thread a stop has stopped (its type-0 record made); a
	 * thread stop not reached yet is called off.
	 */
	if (!qt->tstop && (!qt->allstop || !qt->allstop_seen))
		return -ENOENT;
	if (qt->tstop && !qt->allstop_seen)
		utrace__qt_twake(a->q, qt->tid, -ECANCELED);
	qt->allstop = qt->tstop = qt->allstop_seen = false;
	/*
	 * Voted when nothing else holds it (utrace__qt_release); a reply
	 * waiting for the stop to end is carried out instead, with its own
	 * action.
	 */
	utrace__qt_set_stepping(qt, a->action == UTRACE_SINGLESTEP ?
				UTRACE_SINGLESTEP : 0);
	utrace__qt_release(qt);
	return 0;
}

int utrace__q_resume_thread(struct utrace_queue *uq, pid_t tid,
			    uint32_t action)
{
	struct lqueue *q = lq(uq);
	struct rthread_args a = { q, tid, (int)action };
	int err;

	err = utrace__call(q->t, do_resume_thread, &a);
	utrace__settle_now(q->t);
	return err;
}


struct tstop_args {
	struct lqueue *q;
	pid_t tid;
	struct qtwait *w;	/* NULL: the caller does not wait */
};

/* 1: stopped already; 0: under way (a->w listed); -ESRCH. */
static int do_stop_thread(void *arg)
{
	struct tstop_args *a = arg;
	struct lqueue *q = a->q;
	struct qthread *qt = utrace__qt_find(q, a->tid);
	int err;

	if (!qt || qt->dead)
		return -ESRCH;
	qt->tstop = true;
	err = stop_reach(qt);
	if (err != -EAGAIN)
		return err ? err : 1;
	q->tstops_pending++;
	if (a->w) {
		pthread_mutex_lock(&q->lock);
		a->w->next = q->twaits;
		q->twaits = a->w;
		pthread_mutex_unlock(&q->lock);
	}
	return 0;
}

/* The end of a wait (q->lock held, dropped here): @w leaves the list. */
static int twait_put(struct lqueue *q, struct qtwait *w, int err)
{
	int r = w->done ? w->result : -ETIMEDOUT;

	for (struct qtwait **pp = &q->twaits; *pp; pp = &(*pp)->next) {
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	}
	pthread_mutex_unlock(&q->lock);
	return err ? err : r;
}

int utrace__q_stop_thread(struct utrace_queue *uq, pid_t tid, int timeout_ms)
{
	struct lqueue *q = lq(uq);
	struct qtwait w = { .tid = tid };
	struct tstop_args a = { q, tid, timeout_ms ? &w : NULL };
	long deadline;
	int err;

	err = utrace__call(q->t, do_stop_thread, &a);
	if (err)
		return err;
	if (!timeout_ms)
		return -ETIMEDOUT;
	deadline = utrace__now_ms() + timeout_ms;
	if (utrace__on_loop(q->t)) {
		for (;;) {
			long left = deadline - utrace__now_ms();

			pthread_mutex_lock(&q->lock);
			if (w.done || (timeout_ms > 0 && left <= 0))
				return twait_put(q, &w, 0);
			pthread_mutex_unlock(&q->lock);
			err = utrace_dispatch(q->t, timeout_ms < 0 ? -1 :
					      (int)left);
			if (err < 0) {
				pthread_mutex_lock(&q->lock);
				return twait_put(q, &w, err);
			}
		}
	}
	pthread_mutex_lock(&q->lock);
	q->waiters++;
	if (timeout_ms > 0) {
		struct timespec ts;

		utrace__deadline(&ts, CLOCK_MONOTONIC, timeout_ms);
		while (!w.done &&
		       pthread_cond_timedwait(&q->cond, &q->lock, &ts) == 0)
			;
	} else {
		while (!w.done)
			pthread_cond_wait(&q->cond, &q->lock);
	}
	q->waiters--;
	return twait_put(q, &w, 0);
}
