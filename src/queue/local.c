// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The local backend of the queue interface (backend.h): a queue of records
 * made by engines on this process's tracer (utrace_queue_new).  Records
 * are read by any thread; replies are carried to the loop thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include "core/clock.h"
#include "queue/queue.h"

/* -- Replies ------------------------------------------------------------- */

struct reply_args {
	struct lqueue *q;
	uint64_t id;
	const struct utrace_reply *r;
};

static struct qthread *held_find(struct lqueue *q, uint64_t id)
{
	for (struct qthread *qt = qt_next(q, NULL); qt; qt = qt_next(q, qt))
		if (qt->held_id == id)
			return qt;
	return NULL;
}

/* May the reply's flags go with the held event's type? */
static bool reply_fits(unsigned long type, const struct utrace_reply *r)
{
	unsigned f = r->flags;

	if (type == UTRACE_EVENT(SYSCALL_ENTRY)) {
		if (f & UTRACE_REPLY_SIGINFO)
			return false;
		return !(f & UTRACE_REPLY_RETURN) ||
		       utrace_syscall_action(r->action) == UTRACE_SYSCALL_ABORT;
	}
	if (type == UTRACE_EVENT(SYSCALL_EXIT))
		return !(f & ~(unsigned)UTRACE_REPLY_RETURN);
	if (type & UTRACE_EVENT_SIGNAL_ALL)
		return !(f & ~(unsigned)UTRACE_REPLY_SIGINFO);
	return !f;
}

static int do_reply(void *arg)
{
	struct reply_args *a = arg;
	struct lqueue *q = a->q;
	struct qthread *qt = a->id ? held_find(q, a->id) : NULL;

	if (!qt) {
		for (size_t i = 0; i < q->ndead; i++)
			if (q->dead_ids[i] == a->id)
				return -ESRCH;
		return -ENOENT;
	}
	if (!reply_fits(qt->held_type, a->r))
		return -EINVAL;
	if (utrace_resume_action(a->r->action) == UTRACE_STOP)
		return 0;	/* keeps holding; the id stays to reply to */
	qt->reply = *a->r;
	qt->replied = true;
	qt->held_id = 0;
	utrace__qt_release(qt);
	return 0;
}

static int l_reply(struct utrace_queue *uq, uint64_t id,
		   const struct utrace_reply *r)
{
	struct lqueue *q = lq(uq);
	struct reply_args a = { q, id, r };
	int err;

	err = utrace__call(q->t, do_reply, &a);
	utrace__settle_now(q->t);
	return err;
}

/* -- Consuming ----------------------------------------------------------- */

static void bp_release_one(struct qthread *qt, void *arg)
{
	if (!qt->bp)
		return;
	qt->bp = false;
	utrace__qt_release(qt);
}

static int do_bp_release(void *arg)
{
	struct lqueue *q = arg;

	utrace__qt_each(q, bp_release_one, NULL);
	return 0;
}

/* Take the first record, if any (under q->lock); true if one was taken. */
static bool pop(struct lqueue *q, struct utrace_event *ev,
		bool *release)
{
	struct qrec *r = q->head;

	if (!r)
		return false;
	q->head = r->next;
	if (!q->head)
		q->tail = NULL;
	if (--q->nrec == 0 && q->efd >= 0) {
		uint64_t v;

		if (read(q->efd, &v, sizeof(v)) < 0)
			(void)0;
	}
	memcpy(ev, &r->ev, sizeof(*ev));
	if (q->nspare < Q_FREE_KEEP) {
		r->next = q->spare;
		q->spare = r;
		q->nspare++;
	} else {
		free(r);
	}
	if (q->full && q->nrec <= UTRACE_QUEUE_LIMIT / 2) {
		q->full = false;
		*release = q->bp_held;
		q->bp_held = false;
	}
	return true;
}

static int next_other(struct lqueue *q, struct utrace_event *ev,
		      int timeout_ms)
{
	struct timespec ts;
	bool got, release = false;

	if (timeout_ms > 0)
		utrace__deadline(&ts, CLOCK_MONOTONIC, timeout_ms);
	pthread_mutex_lock(&q->lock);
	while (!(got = pop(q, ev, &release)) && timeout_ms != 0) {
		q->waiters++;
		if (timeout_ms < 0)
			pthread_cond_wait(&q->cond, &q->lock);
		else if (pthread_cond_timedwait(&q->cond, &q->lock, &ts))
			timeout_ms = 0;
		q->waiters--;
	}
	pthread_mutex_unlock(&q->lock);
	if (release)
		utrace__call(q->t, do_bp_release, q);
	return got;
}

static int next_loop(struct lqueue *q, struct utrace_event *ev,
		     int timeout_ms)
{
	long deadline = utrace__now_ms() + timeout_ms;

	for (;;) {
		bool got, release = false;
		int left = -1, err;

		pthread_mutex_lock(&q->lock);
		got = pop(q, ev, &release);
		pthread_mutex_unlock(&q->lock);
		if (release)
			do_bp_release(q);
		if (got)
			return 1;
		/*
		 * A reply given here may be carried out by settling alone,
		 * which can make records (a held signal reported again)
		 * with no new wait status: settle before blocking.  A look
		 * from inside a dispatch (a layer's hook pumps a queue)
		 * finds nothing more: that dispatch settles next.
		 */
		if (timeout_ms == 0 && utrace__dispatching(q->t))
			return 0;
		if (utrace__settle_pending(q->t)) {
			err = utrace_dispatch(q->t, 0);
			if (err < 0)
				return err;
			continue;
		}
		/* Nothing traced: nothing can come (as utrace_run returns). */
		if (timeout_ms == 0 || !utrace__nthreads(q->t))
			return 0;
		if (timeout_ms > 0) {
			left = (int)(deadline - utrace__now_ms());
			if (left <= 0)
				return 0;
		}
		err = utrace_dispatch(q->t, left);
		if (err < 0)
			return err;
	}
}

/* On the loop thread it dispatches while it waits. */
static int l_next(struct utrace_queue *uq, struct utrace_event *ev,
		  int timeout_ms)
{
	struct lqueue *q = lq(uq);

	if (utrace__on_loop(q->t))
		return next_loop(q, ev, timeout_ms);
	return next_other(q, ev, timeout_ms);
}

/*
 * Made on the first call (records made before it count): a consumer that
 * never polls pays no eventfd write per record.
 */
static int l_fd(struct utrace_queue *uq)
{
	struct lqueue *q = lq(uq);
	int fd;

	pthread_mutex_lock(&q->lock);
	if (q->efd < 0) {
		q->efd = eventfd(q->nrec ? 1 : 0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (q->efd < 0)
			q->efd = -errno;
	}
	fd = q->efd;
	if (fd < 0)
		q->efd = -1;	/* try again next time */
	pthread_mutex_unlock(&q->lock);
	return fd;
}

/* -- The queue ----------------------------------------------------------- */

static void l_free(struct utrace_queue *uq);

static const struct utrace__queue_ops local_ops = {
	.watch = utrace__q_watch,
	.unwatch = utrace__q_unwatch,
	.set_syscalls = utrace__q_set_syscalls,
	.next = l_next,
	.reply = l_reply,
	.stop = utrace__q_stop,
	.resume = utrace__q_resume,
	.resume_thread = utrace__q_resume_thread,
	.stop_thread = utrace__q_stop_thread,
	.regs = utrace__q_regs,
	.memv = utrace__q_memv,
	.regset = utrace__q_regset,
	.debugreg = utrace__q_debugreg,
	.fd = l_fd,
	.free = l_free,
};

static void q_layer_free(struct utrace_tracer *t, void *data)
{
	free(data);
}

/* Below the layers built on queues (sharing): order 10. */
static const struct utrace__layer q_layer = {
	.order = 10,
	.after_dispatch = utrace__q_after_dispatch,
	.free = q_layer_free,
};

static int do_register(void *arg)
{
	struct lqueue *q = arg;
	struct qlayer *ql = utrace__layer_data(q->t, &q_layer);
	int err;

	if (!ql) {
		ql = calloc(1, sizeof(*ql));
		if (!ql)
			return -ENOMEM;
		err = utrace__layer_register(q->t, &q_layer, ql);
		if (err) {
			free(ql);
			return err;
		}
	}
	q->next = ql->queues;
	ql->queues = q;
	return 0;
}

/**
 * utrace_queue_new - a queue of event records on tracer @t
 * Returns 0, -EINVAL, -ENOMEM, or -EDEADLK (the loop can never run).
 */
UTRACE_EXPORT int utrace_queue_new(struct utrace_tracer *t,
				   struct utrace_queue **out)
{
	struct lqueue *q;
	int err;

	if (!t || !out)
		return -EINVAL;
	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->q.ops = &local_ops;
	q->t = t;
	q->efd = -1;
	pthread_mutex_init(&q->lock, NULL);
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&q->cond, &ca);
		pthread_condattr_destroy(&ca);
	}
	err = utrace__call(t, do_register, q);
	if (err) {
		pthread_mutex_destroy(&q->lock);
		pthread_cond_destroy(&q->cond);
		free(q);
		return err;
	}
	*out = &q->q;
	return 0;
}

static void forget_one(struct qthread *qt, void *arg)
{
	utrace__qt_forget(qt);
}

static int do_free(void *arg)
{
	struct lqueue *q = arg;
	struct qlayer *ql = utrace__layer_data(q->t, &q_layer);

	utrace__q_leave_as_found(q);
	utrace__qt_each(q, forget_one, NULL);
	for (struct lqueue **pp = &ql->queues; *pp;
	     pp = &(*pp)->next) {
		if (*pp == q) {
			*pp = q->next;
			break;
		}
	}
	return 0;
}

/* Unwatch everything: no thread stays stopped because of the queue. */
static void l_free(struct utrace_queue *uq)
{
	struct lqueue *q = lq(uq);
	struct qrec *r;

	if (utrace__call(q->t, do_free, q) == 0) {
		utrace__settle_now(q->t);
	} else {
		/*
		 * The loop will never run again (-EDEADLK): nothing can be
		 * detached, and no callback or dispatch comes any more.
		 * Drop our references and memory only.
		 */
		struct qthread *qt, *next;

		for (qt = qt_next(q, NULL); qt; qt = next) {
			next = qt_next(q, qt);
			utrace_engine_put(qt->e);
			free(qt->nrs);
			free(qt);
		}
	}
	while ((r = q->head)) {
		q->head = r->next;
		free(r);
	}
	while ((r = q->spare)) {
		q->spare = r->next;
		free(r);
	}
	while (q->stops) {
		struct qstop *s = q->stops;

		q->stops = s->next;
		free(s);
	}
	if (q->efd >= 0)
		close(q->efd);
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->cond);
	utrace__tidmap_fini(&q->threads);
	free(q->dead_ids);
	free(q);
}
