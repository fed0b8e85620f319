// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The queued-event layer (utrace(7), "The queued-event layer").
 *
 * A queue watches threads through an ordinary engine per thread (q_ops
 * below) and turns its callbacks into records that any thread of the
 * tracer process reads with utrace_queue_next.  The only immediate action
 * is holding: a callback for a held event votes UTRACE_STOP, and the
 * consumer's reply is carried out later with the deferred-vote recipe
 * every engine can use:
 *
 *  - syscall entry: on the reply the engine gets UTRACE_EVENT(QUIESCE) and
 *    utrace_control(UTRACE_REPORT); the library repeats the entry pass with
 *    UTRACE_SYSCALL_RESUMED and report_syscall_entry returns the reply's
 *    action there (so UTRACE_SYSCALL_ABORT works as a vote);
 *  - signals: the held callback returned UTRACE_STOP | UTRACE_SIGNAL_HOLD,
 *    so the signal is reported again once the engine lets the thread go,
 *    and report_signal returns the reply's action (and siginfo) then;
 *  - syscall exit and the other events: the reply's changes are made while
 *    the engine still holds the thread, then utrace_control(its action).
 *
 * Threading: records (the FIFO, its count, the eventfd) are shared under
 * q->lock.  Everything else (watched threads, holds, all-stops) lives on the
 * loop thread; calls from other threads are carried there (utrace__call).
 * The queue layer's after_dispatch hook (q_after_dispatch) looks, after
 * each dispatch, at which threads an all-stop has brought to a stop.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <elf.h>
#include <linux/sched.h>

#include "core/layer.h"
#include "core/proc.h"
#include "share/share.h"

/* Events a queue can record; DEATH cannot be held. */
#define Q_RECORDABLE	(UTRACE_EVENT(CLONE) | UTRACE_EVENT(EXEC) | \
			 UTRACE_EVENT(EXIT) | UTRACE_EVENT(DEATH) | \
			 UTRACE_EVENT_SYSCALL | UTRACE_EVENT_SIGNAL_ALL | \
			 UTRACE_EVENT(JCTL))
#define Q_FREE_KEEP	1024	/* spare records kept for reuse */
/* What utrace__follow takes of a watch's flags. */
#define Q_FOLLOW	(UTRACE_WATCH_PROCESS | UTRACE_WATCH_CHILDREN)
#define Q_WATCH_FLAGS	(Q_FOLLOW | UTRACE_WATCH_FIRST)

struct qrec {
	struct qrec *next;
	struct utrace_event ev;
};

/* One watched thread: the queue's engine on it and why it is held. */
struct qthread {
	struct utrace_queue *q;
	struct utrace_engine *e;	/* our reference */
	struct qthread *hnext;
	pid_t tid, tgid;
	pid_t ptgid;			/* process that forked it (followed) */
	unsigned flags;			/* UTRACE_WATCH_* of its watch */
	unsigned long events, hold;
	long *nrs;			/* syscall set, NULL: all */
	size_t nnrs;
	bool quiesce;			/* QUIESCE added to carry out a reply */
	/*
	 * UTRACE_SINGLESTEP or UTRACE_BLOCKSTEP: the queue asked for a step
	 * (a reply, utrace_queue_resume_thread) and votes it until the step's
	 * trap is reported (q_quiesce); 0: no step.
	 */
	int stepping;
	/* holds */
	uint64_t held_id;		/* held event waiting for a reply */
	unsigned long held_type;
	int held_signo;
	bool replied;			/* a reply waits to be carried out */
	struct utrace_reply reply;
	bool allstop;			/* taken by utrace_queue_stop */
	bool allstop_seen;		/* ... and known to be stopped */
	bool bp;			/* held by back-pressure */
	bool dead;
	bool dr_set;			/* debug registers set through us */
};

/*
 * An address where a consumer wrote an int3 byte through the queue, and
 * what the byte replaced while it stands.
 */
struct qbp {
	struct qbp *next;
	pid_t tgid;
	uint64_t addr;
	uint8_t orig;
	bool standing;			/* the int3 is there (not taken out) */
};

struct qstop {
	struct qstop *next;
	pid_t pid;
	bool done;			/* every thread stopped (under q->lock) */
	int count;
	/*
	 * Under q->lock: utrace_queue_stop calls that wait on this stop, and
	 * whether utrace_queue_resume took it away meanwhile.  A stop that
	 * is resumed while someone waits on it is unlinked at once and freed
	 * by its last waiter.
	 */
	unsigned users;
	bool cancelled;
};

struct utrace_queue {
	struct utrace__conn *conn;	/* connected (remote.c): calls go there */
	struct utrace_tracer *t;
	struct utrace_queue *next;	/* qlayer.queues */
	/* loop thread only */
	struct qthread **buckets;
	unsigned nbuckets, nthreads;
	struct qstop *stops;
	unsigned stops_pending;
	uint64_t *dead_ids;		/* held ids of threads that died */
	size_t ndead, dead_cap;
	/* shared, under lock */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct qrec *head, *tail, *spare;
	size_t nrec, nspare;
	uint64_t next_id;
	bool full;			/* back-pressure until half is read */
	bool bp_held;			/* some thread is held for it */
	unsigned waiters;		/* threads in pthread_cond_wait */
	int efd;			/* -1 until utrace_queue_fd */
	const struct watch_args *watching;	/* do_watch in progress */
	struct qbp *bps;		/* loop thread: int3 bytes written */
};

/* The queue layer's state on a tracer (loop thread). */
struct qlayer {
	struct utrace_queue *queues;
};

struct watch_args {
	struct utrace_queue *q;
	pid_t tid;
	unsigned flags;
	unsigned long events, hold;
	const long *nrs;
	size_t n;
};

static const struct utrace_engine_ops q_ops;
static int q_follow(void *arg, pid_t tid, pid_t tgid, pid_t parent,
		    unsigned long clone_flags);
static int watch_one(const struct watch_args *a, pid_t tid);

/* -- Watched threads ------------------------------------------------------ */

static unsigned qbucket(pid_t tid, unsigned n)
{
	return ((uint32_t)tid * 2654435761u) & (n - 1);
}

static struct qthread *qt_find(struct utrace_queue *q, pid_t tid)
{
	if (!q->nbuckets)
		return NULL;
	for (struct qthread *qt = q->buckets[qbucket(tid, q->nbuckets)]; qt;
	     qt = qt->hnext)
		if (qt->tid == tid)
			return qt;
	return NULL;
}

static void qt_unhash(struct utrace_queue *q, struct qthread *qt)
{
	struct qthread **pp = &q->buckets[qbucket(qt->tid, q->nbuckets)];

	for (; *pp; pp = &(*pp)->hnext) {
		if (*pp == qt) {
			*pp = qt->hnext;
			return;
		}
	}
}

static int qt_hash(struct utrace_queue *q, struct qthread *qt)
{
	unsigned b;

	if (q->nthreads >= q->nbuckets) {
		unsigned n = q->nbuckets ? q->nbuckets * 2 : 64;
		struct qthread **nb = calloc(n, sizeof(*nb)), *x, *next;

		if (!nb)
			return -ENOMEM;
		for (unsigned i = 0; i < q->nbuckets; i++) {
			for (x = q->buckets[i]; x; x = next) {
				next = x->hnext;
				b = qbucket(x->tid, n);
				x->hnext = nb[b];
				nb[b] = x;
			}
		}
		free(q->buckets);
		q->buckets = nb;
		q->nbuckets = n;
	}
	b = qbucket(qt->tid, q->nbuckets);
	qt->hnext = q->buckets[b];
	q->buckets[b] = qt;
	q->nthreads++;
	return 0;
}

/* Call @fn on every watched thread (it may forget the one it gets). */
static void qt_each(struct utrace_queue *q,
		    void (*fn)(struct qthread *qt, void *arg), void *arg)
{
	for (unsigned i = 0; i < q->nbuckets; i++) {
		struct qthread *qt, *next;

		for (qt = q->buckets[i]; qt; qt = next) {
			next = qt->hnext;
			fn(qt, arg);
		}
	}
}

static unsigned long qt_mask(const struct qthread *qt)
{
	unsigned long m = qt->events | UTRACE_EVENT(REAP);

	if (qt->quiesce || qt->stepping)
		m |= UTRACE_EVENT(QUIESCE);
	return m;
}

/*
 * The engine's events, and whether it only observes syscalls (SPEC 15): a
 * watch that holds no syscall event and is not stepping or stopping the
 * thread through QUIESCE may get its syscall records from the thread's own
 * records (utrace_tracer_set_records), without a stop.
 */
static int qt_apply(struct qthread *qt)
{
	int err = utrace_set_events(qt->e, qt_mask(qt));

	if (!err)
		err = utrace_set_observer(qt->e, !(qt->hold & UTRACE_EVENT_SYSCALL) &&
					  !qt->quiesce && !qt->stepping);
	return err;
}

/* Follow the thread's new threads and children as its watch says. */
static void qt_follow(struct qthread *qt)
{
	utrace__follow(qt->q->t, qt->tid, qt->flags & Q_FOLLOW, q_follow, qt->q,
		       false);
}

static void qt_set_quiesce(struct qthread *qt, bool on)
{
	if (qt->quiesce == on)
		return;
	qt->quiesce = on;
	qt_apply(qt);
}

static bool qt_holding(const struct qthread *qt)
{
	return !qt->dead && (qt->held_id || qt->allstop || qt->bp);
}

/* The vote of a callback that carries out no reply. */
static int qt_vote(const struct qthread *qt)
{
	if (qt_holding(qt))
		return UTRACE_STOP;
	return qt->stepping ? qt->stepping : UTRACE_RESUME;
}

static void qt_set_stepping(struct qthread *qt, int step)
{
	if (qt->stepping == step)
		return;
	qt->stepping = step;
	qt_apply(qt);
}

/*
 * Whether the thread an all-stop holds is in its ptrace stop now; call it
 * after utrace_control(UTRACE_STOP) returned 0.  That 0 also covers a
 * thread that is only decided to stop: a new thread whose first stop has
 * not come yet (TH_NEW), one the library lets sit in a group stop, and one
 * in a clone or exec stop, where the engines' STOP is deferred to the
 * syscall's exit (section "Where a stop takes effect" of utrace(7)).  None
 * of them is stopped yet: a later scan (utrace__queue_poll) counts them.
 */
static bool qt_in_stop(const struct qthread *qt)
{
	enum utrace__stop s = utrace__engine_stop(qt->e);

	return s != STOP_NONE && s != STOP_CLONE && s != STOP_EXEC;
}

static void dead_id(struct utrace_queue *q, uint64_t id)
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

static struct qstop *stop_find(struct utrace_queue *q, pid_t pid)
{
	for (struct qstop *s = q->stops; s; s = s->next)
		if (s->pid == pid)
			return s;
	return NULL;
}

/* Detach the queue's engine from the thread and forget it. */
static void qt_forget(struct qthread *qt)
{
	struct utrace_queue *q = qt->q;

	qt_unhash(q, qt);
	q->nthreads--;
	utrace__follow(q->t, qt->tid, 0, q_follow, q, false);
	/* A held thread runs on as if replied UTRACE_RESUME. */
	utrace_control(qt->e, UTRACE_DETACH);
	utrace_engine_put(qt->e);
	free(qt->nrs);
	free(qt);
}

static struct qthread *qt_new(struct utrace_queue *q, pid_t tid,
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
static int qt_attach(struct qthread *qt)
{
	struct utrace_queue *q = qt->q;
	int err;

	err = utrace__attach(q->t, qt->tid, UTRACE_ATTACH_CREATE |
			     (qt->flags & UTRACE_WATCH_FIRST ?
			      UTRACE__ATTACH_FIRST : 0), &q_ops, qt, &qt->e);
	if (err)
		return err;
	qt->tgid = utrace_engine_tgid(qt->e);
	err = qt_hash(q, qt);
	if (!err)
		err = qt_apply(qt);
	if (!err && qt->nrs)
		err = utrace_set_syscalls(qt->e, qt->nrs, qt->nnrs);
	if (!err && (qt->flags & Q_FOLLOW))
		err = utrace__follow(q->t, qt->tid, qt->flags & Q_FOLLOW,
				     q_follow, q, false);
	if (err) {
		if (qt_find(q, qt->tid) == qt) {
			qt_unhash(q, qt);
			q->nthreads--;
		}
		utrace_control(qt->e, UTRACE_DETACH);
		utrace_engine_put(qt->e);
		return err;
	}
	return 0;
}

/* -- Records ------------------------------------------------------------- */

static struct utrace_event *rec_begin(struct qthread *qt, unsigned long type,
				      struct qrec **out)
{
	struct utrace_queue *q = qt->q;
	struct qrec *r;

	pthread_mutex_lock(&q->lock);
	r = q->spare;
	if (r) {
		q->spare = r->next;
		q->nspare--;
	}
	pthread_mutex_unlock(&q->lock);
	if (!r) {
		r = malloc(sizeof(*r));
		if (!r)
			return NULL;
	}
	memset(&r->ev, 0, sizeof(r->ev));
	r->ev.size = sizeof(r->ev);
	r->ev.tid = qt->tid;
	r->ev.pid = qt->tgid;
	r->ev.type = type;
	r->ev.syscall.nr = -1;
	clock_gettime(CLOCK_MONOTONIC, &r->ev.time);
	*out = r;
	return &r->ev;
}

/*
 * Append a record; it gets its id here.  Returns true when back-pressure
 * holds the thread that made it (@may_hold).
 */
static bool rec_commit(struct qthread *qt, struct qrec *r, bool may_hold,
		       uint64_t *id)
{
	struct utrace_queue *q = qt->q;
	bool bp = false;

	r->next = NULL;
	pthread_mutex_lock(&q->lock);
	r->ev.id = ++q->next_id;
	if (id)
		*id = r->ev.id;
	if (q->nrec >= UTRACE_QUEUE_LIMIT)
		q->full = true;
	if (q->full && may_hold) {
		bp = true;
		q->bp_held = true;
	}
	if (q->tail)
		q->tail->next = r;
	else
		q->head = r;
	q->tail = r;
	if (q->nrec++ == 0 && q->efd >= 0) {
		uint64_t one = 1;

		if (write(q->efd, &one, sizeof(one)) < 0)
			(void)0;	/* counter full: readable anyway */
	}
	if (q->waiters)
		pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
	return bp;
}

/*
 * Record a held or notify-only event; returns the vote for the thread.
 * Once committed the record is the consumer's: @r is not touched again.
 */
static int record(struct qthread *qt, struct qrec *r, bool can_hold)
{
	bool held = can_hold && (qt->hold & r->ev.type);
	uint64_t id;

	r->ev.held = held;
	if (held) {
		qt->held_type = r->ev.type;
		qt->held_signo = r->ev.info.si_signo;
	}
	if (rec_commit(qt, r, can_hold, &id))
		qt->bp = true;
	if (held)
		qt->held_id = id;
	return qt_vote(qt);
}

/*
 * A syscall event, from a stop or from the thread's own record.  A vote
 * made in a callback from a record counts as RESUME (the syscall ran
 * already): back-pressure (or a record that could not be made) holds the
 * thread at its next stop with utrace_control instead, so the queue stays
 * bounded; the records its ring holds meanwhile are delivered.
 */
static int record_syscall(struct qthread *qt, struct utrace_engine *e,
			  struct qrec *r)
{
	int vote = record(qt, r, true);

	if (vote == UTRACE_STOP && utrace_from_record(e) == 1)
		utrace_control(e, UTRACE_STOP);
	return vote;
}

static uint32_t pass_on(uint32_t action, int vote)
{
	return (action & ~UTRACE_RESUME_MASK) | (uint32_t)vote;
}

/* -- Carrying out replies ------------------------------------------------ */

static void apply_resume(struct qthread *qt, int resume)
{
	if (resume != UTRACE_STOP && resume != UTRACE_DETACH)
		qt_set_stepping(qt, resume == UTRACE_SINGLESTEP ||
				    resume == UTRACE_BLOCKSTEP ? resume : 0);
	switch (resume) {
	case UTRACE_STOP:
		break;
	case UTRACE_DETACH:
		qt_forget(qt);
		break;
	case UTRACE_REPORT:
	case UTRACE_INTERRUPT:
	case UTRACE_SINGLESTEP:
	case UTRACE_BLOCKSTEP:
		qt_set_quiesce(qt, true);
		utrace_control(qt->e, (enum utrace_resume_action)resume);
		break;
	default:
		utrace_control(qt->e, UTRACE_RESUME);
		break;
	}
}

/*
 * A hold on @qt ended: keep holding for another reason, or carry out the
 * reply that waits, or let the thread run.  Loop thread.  @qt may be freed.
 */
static void qt_release(struct qthread *qt)
{
	struct utrace_reply *r = &qt->reply;

	if (qt->dead || qt_holding(qt))
		return;
	if (!qt->replied) {
		/* A step utrace_queue_resume_thread asked for, or none. */
		apply_resume(qt, qt->stepping ? qt->stepping : UTRACE_RESUME);
		return;
	}
	if (qt->held_type == UTRACE_EVENT(SYSCALL_ENTRY)) {
		/* Done in the entry pass that REPORT repeats. */
		qt_set_quiesce(qt, true);
		utrace_control(qt->e, UTRACE_REPORT);
		return;
	}
	if (qt->held_type & UTRACE_EVENT_SIGNAL_ALL) {
		/* The held signal comes back to report_signal. */
		utrace_control(qt->e, UTRACE_RESUME);
		return;
	}
	qt->replied = false;
	if (qt->held_type == UTRACE_EVENT(SYSCALL_EXIT) &&
	    (r->flags & UTRACE_REPLY_RETURN))
		utrace_syscall_set_return(qt->e, r->ret);
	apply_resume(qt, (int)utrace_resume_action(r->action));
}

/*
 * The event-specific bits a reply votes at a syscall entry or a signal:
 * the reply's own where it changes the outcome (UTRACE_SYSCALL_ABORT, a
 * signal action other than DELIVER, HOLD), else @action's, handed on as
 * they came.  A consumer that replies a plain UTRACE_RESUME (a printer)
 * must not undo another engine's abort or dropped signal, whether that
 * engine was called before or after the queue's (utrace_pass(3)).
 */
static uint32_t reply_bits(uint32_t reply, uint32_t action, uint32_t mask)
{
	return (reply & mask) ? (reply & mask) : (action & mask);
}

/* The vote of a callback that carries out a reply (entry, signal). */
static uint32_t reply_vote(struct qthread *qt, uint32_t bits)
{
	int resume = (int)utrace_resume_action(qt->reply.action);

	qt->replied = false;
	qt_set_quiesce(qt, false);
	if (resume == UTRACE_DETACH) {
		/* As a callback's DETACH: no callback after this one. */
		qt_forget(qt);
		return bits | UTRACE_RESUME;
	}
	qt_set_stepping(qt, resume == UTRACE_SINGLESTEP ||
			    resume == UTRACE_BLOCKSTEP ? resume : 0);
	if (qt_holding(qt))
		resume = UTRACE_STOP;
	return bits | (uint32_t)resume;
}

/* -- Callbacks (loop thread) --------------------------------------------- */

static uint32_t q_syscall_entry(uint32_t action, struct utrace_engine *e)
{
	struct qthread *qt = utrace_engine_data(e);
	struct utrace_event *ev;
	struct qrec *r;

	if (action & UTRACE_SYSCALL_RESUMED) {
		if (qt->replied &&
		    qt->held_type == UTRACE_EVENT(SYSCALL_ENTRY) &&
		    !qt_holding(qt)) {
			struct utrace_reply *rp = &qt->reply;

			if (rp->flags & UTRACE_REPLY_ARGS)
				utrace_syscall_set_args(e, rp->args);
			if (rp->flags & UTRACE_REPLY_RETURN)
				utrace_syscall_set_return(e, rp->ret);
			return reply_vote(qt, reply_bits(rp->action, action,
							 UTRACE_SYSCALL_MASK));
		}
		return pass_on(action & ~(uint32_t)UTRACE_SYSCALL_RESUMED,
			       qt_vote(qt));
	}
	if (!(qt->events & UTRACE_EVENT(SYSCALL_ENTRY)))
		return pass_on(action, qt_vote(qt));
	ev = rec_begin(qt, UTRACE_EVENT(SYSCALL_ENTRY), &r);
	if (!ev)
		return pass_on(action, UTRACE_STOP);	/* never lose it */
	utrace_syscall_get(e, &ev->syscall);
	return pass_on(action, record_syscall(qt, e, r));
}

static uint32_t q_syscall_exit(uint32_t action, struct utrace_engine *e)
{
	struct qthread *qt = utrace_engine_data(e);
	struct utrace_event *ev;
	struct qrec *r;

	ev = rec_begin(qt, UTRACE_EVENT(SYSCALL_EXIT), &r);
	if (!ev)
		return pass_on(action, UTRACE_STOP);
	utrace_syscall_get(e, &ev->syscall);
	return pass_on(action, record_syscall(qt, e, r));
}

static unsigned long signal_class(uint32_t action)
{
	switch (utrace_signal_action(action)) {
	case UTRACE_SIGNAL_IGN:		return UTRACE_EVENT(SIGNAL_IGN);
	case UTRACE_SIGNAL_STOP:
	case UTRACE_SIGNAL_TSTP:	return UTRACE_EVENT(SIGNAL_STOP);
	case UTRACE_SIGNAL_TERM:	return UTRACE_EVENT(SIGNAL_TERM);
	case UTRACE_SIGNAL_CORE:	return UTRACE_EVENT(SIGNAL_CORE);
	case UTRACE_SIGNAL_DELIVER:	return UTRACE_EVENT(SIGNAL);
	default:			return 0;
	}
}

static uint32_t q_signal(uint32_t action, struct utrace_engine *e,
			 siginfo_t *info)
{
	struct qthread *qt = utrace_engine_data(e);
	const uint32_t sigbits = UTRACE_SIGNAL_MASK | UTRACE_SIGNAL_HOLD;
	unsigned long cls = signal_class(action);
	struct utrace_event *ev;
	struct qrec *r;
	int vote;

	if (qt->replied && (qt->held_type & UTRACE_EVENT_SIGNAL_ALL) && cls &&
	    info->si_signo == qt->held_signo && !qt_holding(qt)) {
		/* The held signal, back: the reply is the vote. */
		if (qt->reply.flags & UTRACE_REPLY_SIGINFO)
			*info = qt->reply.info;
		return reply_vote(qt, reply_bits(qt->reply.action, action,
						 sigbits));
	}
	vote = qt_vote(qt);
	if (!cls || !(qt->events & cls))
		return pass_on(action, vote);
	ev = rec_begin(qt, cls, &r);
	if (!ev)
		return pass_on(action, UTRACE_STOP);
	ev->info = *info;
	ev->action = action & (sigbits | UTRACE_SIGNAL_AGAIN);
	vote = record(qt, r, true);
	if (qt->hold & cls)
		/* Reported again when the thread goes on (the reply). */
		return UTRACE_STOP | UTRACE_SIGNAL_HOLD |
		       utrace_signal_action(action);
	return pass_on(action, vote);
}

/* A new thread of a watch with UTRACE_WATCH_* (utrace_follow). */
static int q_follow(void *arg, pid_t child, pid_t tgid, pid_t parent,
		    unsigned long flags)
{
	struct utrace_queue *q = arg;
	struct qthread *qt, *c;
	struct qstop *s;
	int err;

	if (!parent)	/* another thread of the process do_watch watches */
		return q->watching ? watch_one(q->watching, child) : -ENOENT;
	qt = qt_find(q, parent);
	if (!qt || qt_find(q, child))
		return -EEXIST;
	c = qt_new(q, child, qt);
	if (!c)
		return -ENOMEM;
	c->ptgid = flags & CLONE_THREAD ? qt->ptgid : qt->tgid;
	err = qt_attach(c);
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
	s = stop_find(q, c->tgid);
	if (s) {
		c->allstop = true;
		q->stops_pending++;
		if (utrace_control(c->e, UTRACE_STOP) == 0 && qt_in_stop(c)) {
			struct qrec *r;
			struct utrace_event *ev = rec_begin(c, 0, &r);

			c->allstop_seen = true;
			if (ev)
				rec_commit(c, r, false, NULL);
		}
	}
	return 0;
}

static uint32_t q_clone(uint32_t action, struct utrace_engine *e,
			unsigned long clone_flags, pid_t child)
{
	struct qthread *qt = utrace_engine_data(e);
	int vote = qt_vote(qt);

	if (qt->events & UTRACE_EVENT(CLONE)) {
		struct qrec *r;
		struct utrace_event *ev = rec_begin(qt, UTRACE_EVENT(CLONE), &r);

		if (ev) {
			ev->clone_flags = clone_flags;
			ev->child = child;
			vote = record(qt, r, true);
		}
	}
	return pass_on(action, vote);
}

static uint32_t q_exec(uint32_t action, struct utrace_engine *e,
		       pid_t former_tid)
{
	struct qthread *qt = utrace_engine_data(e);
	pid_t tid = utrace_engine_tid(e);
	struct utrace_event *ev;
	struct qrec *r;

	if (tid != qt->tid) {
		/* A non-leader executed: it is the leader now. */
		struct qthread *old = qt_find(qt->q, tid);

		if (old && old != qt)
			qt_forget(old);
		qt_unhash(qt->q, qt);
		qt->q->nthreads--;
		qt->tid = tid;
		qt_hash(qt->q, qt);
	}
	qt->tgid = utrace_engine_tgid(e);
	if (!(qt->events & UTRACE_EVENT(EXEC)))
		return pass_on(action, qt_vote(qt));
	ev = rec_begin(qt, UTRACE_EVENT(EXEC), &r);
	if (!ev)
		return pass_on(action, UTRACE_STOP);
	ev->former_tid = former_tid;
	return pass_on(action, record(qt, r, true));
}

static uint32_t q_exit(uint32_t action, struct utrace_engine *e, int status)
{
	struct qthread *qt = utrace_engine_data(e);
	bool killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
	struct utrace_event *ev;
	struct qrec *r;

	ev = rec_begin(qt, UTRACE_EVENT(EXIT), &r);
	if (!ev)
		return pass_on(action, killed ? UTRACE_RESUME : UTRACE_STOP);
	ev->status = status;
	/* SIGKILL wins: nothing waits for a reply at its exit. */
	return pass_on(action, record(qt, r, !killed));
}

static uint32_t q_jctl(uint32_t action, struct utrace_engine *e, int type,
		       int notify)
{
	struct qthread *qt = utrace_engine_data(e);
	struct utrace_event *ev;
	struct qrec *r;

	ev = rec_begin(qt, UTRACE_EVENT(JCTL), &r);
	if (!ev)
		return pass_on(action, UTRACE_STOP);
	ev->jctl_type = type;
	return pass_on(action, record(qt, r, true));
}

/*
 * The step the queue asked for is made: its trap (the library's own, never
 * delivered) is recorded as a SIGNAL record, and held as one.  Replying to
 * it is replying to a plain event: the resume action is used, the signal
 * bits are not (there is no signal to deliver).
 */
static int step_done(struct qthread *qt)
{
	bool held = qt->hold & UTRACE_EVENT(SIGNAL);
	struct utrace_event *ev;
	struct qrec *r;
	int vote;

	qt_set_stepping(qt, 0);
	if (!(qt->events & UTRACE_EVENT(SIGNAL)))
		return qt_vote(qt);
	ev = rec_begin(qt, UTRACE_EVENT(SIGNAL), &r);
	if (!ev)
		return UTRACE_STOP;
	utrace__engine_siginfo(qt->e, &ev->info);
	ev->action = UTRACE_SIGNAL_REPORT;
	vote = record(qt, r, true);
	if (held)
		qt->held_type = UTRACE_EVENT(QUIESCE);
	return vote;
}

static uint32_t q_quiesce(uint32_t action, struct utrace_engine *e,
			  unsigned long event)
{
	struct qthread *qt = utrace_engine_data(e);

	/* Only asked for to carry out a reply; the entry pass drops it. */
	if (!qt->replied)
		qt_set_quiesce(qt, false);
	if (qt->stepping && !event && utrace__engine_stop(e) == STOP_STEP)
		return pass_on(action, step_done(qt));
	return pass_on(action, qt_vote(qt));
}

static void qt_died(struct qthread *qt)
{
	struct utrace_queue *q = qt->q;
	struct qstop *s;

	if (qt->dead)
		return;
	qt->dead = true;
	if (qt->held_id)
		dead_id(q, qt->held_id);
	qt->held_id = 0;
	qt->replied = false;
	qt->bp = false;
	if (qt->allstop && !qt->allstop_seen && (s = stop_find(q, qt->tgid)) &&
	    !s->done)
		q->stops_pending++;	/* poll re-counts without it */
}

static uint32_t q_death(struct utrace_engine *e, bool group_dead, int status)
{
	struct qthread *qt = utrace_engine_data(e);

	qt_died(qt);
	if (qt->events & UTRACE_EVENT(DEATH)) {
		struct qrec *r;
		struct utrace_event *ev = rec_begin(qt, UTRACE_EVENT(DEATH), &r);

		if (ev) {
			ev->status = status;
			ev->group_dead = group_dead;
			rec_commit(qt, r, false, NULL);
		}
	}
	return UTRACE_RESUME;
}

static void q_reap(struct utrace_engine *e)
{
	struct qthread *qt = utrace_engine_data(e);
	struct utrace_queue *q = qt->q;

	qt_died(qt);
	qt_unhash(q, qt);
	q->nthreads--;
	utrace_engine_put(qt->e);
	free(qt->nrs);
	free(qt);
}

static const struct utrace_engine_ops q_ops = {
	.report_quiesce = q_quiesce,
	.report_signal = q_signal,
	.report_clone = q_clone,
	.report_jctl = q_jctl,
	.report_exec = q_exec,
	.report_syscall_entry = q_syscall_entry,
	.report_syscall_exit = q_syscall_exit,
	.report_exit = q_exit,
	.report_death = q_death,
	.report_reap = q_reap,
};

/* -- All-stop ------------------------------------------------------------ */

struct stop_scan {
	struct qstop *s;
	int count, missing;
};

static void stop_scan_one(struct qthread *qt, void *arg)
{
	struct stop_scan *sc = arg;

	if (qt->tgid != sc->s->pid || !qt->allstop || qt->dead)
		return;
	if (!qt->allstop_seen) {
		/* 0: it is in a ptrace stop, held by our engine. */
		int err = utrace_control(qt->e, UTRACE_STOP);

		if (err == -ESRCH)
			return;
		if (err || !qt_in_stop(qt)) {
			sc->missing++;
			return;
		}
		qt->allstop_seen = true;
		struct qrec *r;
		struct utrace_event *ev = rec_begin(qt, 0, &r);

		if (ev) {
			utrace_syscall_get(qt->e, &ev->syscall);
			rec_commit(qt, r, false, NULL);
		}
	}
	sc->count++;
}

/* Look again at the threads of an all-stop; true once all are stopped. */
static bool stop_scan(struct utrace_queue *q, struct qstop *s)
{
	struct stop_scan sc = { s, 0, 0 };

	qt_each(q, stop_scan_one, &sc);
	pthread_mutex_lock(&q->lock);
	s->count = sc.count;
	if (!sc.missing && !s->done) {
		s->done = true;
		pthread_cond_broadcast(&q->cond);
	}
	pthread_mutex_unlock(&q->lock);
	return !sc.missing;
}

/* After a dispatch (the layer's hook): which all-stops are complete. */
static void q_after_dispatch(struct utrace_tracer *t, void *data)
{
	struct qlayer *ql = data;

	for (struct utrace_queue *q = ql->queues; q; q = q->next) {
		if (!q->stops_pending)
			continue;
		q->stops_pending = 0;
		for (struct qstop *s = q->stops; s; s = s->next)
			if (!stop_scan(q, s))
				q->stops_pending++;
	}
}

struct stop_args {
	struct utrace_queue *q;
	pid_t pid;
	struct qstop *s;
};

static void stop_take(struct qthread *qt, void *arg)
{
	struct stop_args *a = arg;

	if (qt->tgid != a->pid || qt->dead || qt->allstop)
		return;
	qt->allstop = true;
	qt->allstop_seen = false;
	utrace_control(qt->e, UTRACE_STOP);
}

static int do_stop_begin(void *arg)
{
	struct stop_args *a = arg;
	struct utrace_queue *q = a->q;
	struct qstop *s = stop_find(q, a->pid);
	bool any = false;

	for (unsigned i = 0; i < q->nbuckets && !any; i++)
		for (struct qthread *qt = q->buckets[i]; qt; qt = qt->hnext)
			if (qt->tgid == a->pid && !qt->dead)
				any = true;
	if (!any)
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
	qt_each(q, stop_take, a);
	if (!stop_scan(q, s))
		q->stops_pending++;
	return 0;
}

static void abs_deadline(struct timespec *ts, long ms)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

/*
 * The end of a utrace_queue_stop call (q->lock held, dropped here): its
 * result, and the stop freed if a resume took it away and we were its last
 * waiter.  @err: an error to return instead.
 */
static int stop_put(struct utrace_queue *q, struct qstop *s, int err)
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

/**
 * utrace_queue_stop - hold every watched thread of process @pid
 * Returns the number of threads stopped once all are, -ETIMEDOUT (the stop
 * stays in force), -ECANCELED (utrace_queue_resume of @pid, from another
 * thread, came first), -ESRCH (no watched thread in @pid), -EINVAL.
 */
UTRACE_EXPORT int utrace_queue_stop(struct utrace_queue *q, pid_t pid,
				    int timeout_ms)
{
	struct stop_args a = { q, pid, NULL };
	long deadline;
	int err;

	if (q && q->conn)
		return utrace__rq_stop(q->conn, pid, timeout_ms);

	if (!q || pid <= 0 || timeout_ms < -1)
		return -EINVAL;
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
			err = utrace_dispatch(q->t, timeout_ms < 0 ? -1 :
					      (int)(deadline - utrace__now_ms()));
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

		abs_deadline(&ts, timeout_ms);
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
static void stop_drop(struct utrace_queue *q, struct qstop *s)
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
	struct utrace_queue *q = a->q;
	struct qstop *s = stop_find(q, a->pid);
	int n = 0;

	if (!s)
		return 0;
	stop_drop(q, s);
	for (unsigned i = 0; i < q->nbuckets; i++) {
		struct qthread *qt, *next;

		for (qt = q->buckets[i]; qt; qt = next) {
			next = qt->hnext;
			if (qt->tgid != a->pid || !qt->allstop)
				continue;
			qt->allstop = qt->allstop_seen = false;
			n++;
			qt_release(qt);
		}
	}
	return n;
}

/**
 * utrace_queue_resume - release what utrace_queue_stop took of @pid
 * Returns the number of threads released (0: @pid was not stopped).
 */
UTRACE_EXPORT int utrace_queue_resume(struct utrace_queue *q, pid_t pid)
{
	struct stop_args a = { q, pid, NULL };
	int n;

	if (q && q->conn)
		return utrace__rq_resume(q->conn, pid);

	if (!q || pid <= 0)
		return -EINVAL;
	n = utrace__call(q->t, do_resume, &a);
	utrace__settle_now(q->t);
	return n;
}

/* -- Watching ------------------------------------------------------------ */

static void qt_update(struct qthread *qt, const struct watch_args *a)
{
	qt->flags = a->flags;
	qt->events = a->events;
	qt->hold = a->hold;
	qt_apply(qt);
	qt_follow(qt);
}

static int watch_one(const struct watch_args *a, pid_t tid)
{
	struct qthread *qt = qt_find(a->q, tid);
	int err;

	if (qt) {
		qt_update(qt, a);
		return 0;
	}
	qt = qt_new(a->q, tid, NULL);
	if (!qt)
		return -ENOMEM;
	qt->flags = a->flags;
	qt->events = a->events;
	qt->hold = a->hold;
	err = qt_attach(qt);
	if (err)
		free(qt);
	return err;
}

/* Is process @tgid @root or forked (followed) from it, recursively? */
static bool descends(struct utrace_queue *q, pid_t tgid, pid_t root)
{
	for (int depth = 0; depth < 4096 && tgid > 0; depth++) {
		pid_t parent = 0;

		if (tgid == root)
			return true;
		for (unsigned i = 0; i < q->nbuckets && !parent; i++)
			for (struct qthread *qt = q->buckets[i]; qt;
			     qt = qt->hnext)
				if (qt->tgid == tgid && qt->ptgid) {
					parent = qt->ptgid;
					break;
				}
		tgid = parent;
	}
	return false;
}

/* The watched threads a watch of @root (with @flags) covers. */
static bool covers(struct utrace_queue *q, const struct qthread *root,
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
	struct utrace_queue *q = a->q;
	struct qthread *root;
	int err;

	err = watch_one(a, a->tid);
	if (err)
		return err;
	if (!(a->flags & UTRACE_WATCH_PROCESS))
		return 0;
	/* Every other thread of the process (q_follow, parent 0). */
	q->watching = a;
	utrace__follow(q->t, a->tid, a->flags & Q_FOLLOW, q_follow, q, true);
	q->watching = NULL;
	/* Watching again: what the watch covers takes the masks. */
	root = qt_find(q, a->tid);
	for (unsigned i = 0; root && i < q->nbuckets; i++)
		for (struct qthread *qt = q->buckets[i]; qt; qt = qt->hnext)
			if (qt != root && covers(q, root, a->flags, qt))
				qt_update(qt, a);
	return 0;
}

/**
 * utrace_queue_watch - record (and hold) events of a thread, its process,
 * its children.  See utrace_queue_watch(3).
 */
UTRACE_EXPORT int utrace_queue_watch(struct utrace_queue *q, pid_t tid,
				     unsigned flags, unsigned long events,
				     unsigned long hold)
{
	struct watch_args a = { q, tid, flags, events, hold, NULL, 0 };

	if (q && q->conn)
		return utrace__rq_watch(q->conn, tid, flags, events, hold);

	if (!q || tid <= 0)
		return -EINVAL;
	if (flags & ~(unsigned)Q_WATCH_FLAGS)
		return -EINVAL;
	if ((events & ~Q_RECORDABLE) || (hold & ~events) ||
	    (hold & UTRACE_EVENT(DEATH)))
		return -EINVAL;
	return utrace__call(q->t, do_watch, &a);
}

static int do_unwatch(void *arg)
{
	struct watch_args *a = arg;
	struct utrace_queue *q = a->q;
	struct qthread *root = qt_find(q, a->tid);
	struct qthread **list;
	unsigned n = 0;

	if (!root)
		return -ENOENT;
	list = malloc(q->nthreads * sizeof(*list));
	if (!list)
		return -ENOMEM;
	for (unsigned i = 0; i < q->nbuckets; i++)
		for (struct qthread *qt = q->buckets[i]; qt; qt = qt->hnext)
			if (covers(q, root, a->flags, qt))
				list[n++] = qt;
	for (unsigned i = 0; i < n; i++)
		qt_forget(list[i]);
	free(list);
	/*
	 * An all-stop of a process none of whose threads is watched any
	 * more is over: a later watch of it does not find it in force.
	 */
	for (struct qstop *st = q->stops, *next; st; st = next) {
		bool any = false;

		next = st->next;
		for (unsigned i = 0; i < q->nbuckets && !any; i++)
			for (struct qthread *qt = q->buckets[i]; qt;
			     qt = qt->hnext)
				if (qt->tgid == st->pid && !qt->dead)
					any = true;
		if (!any)
			stop_drop(q, st);
	}
	return 0;
}

/**
 * utrace_queue_unwatch - stop watching a thread (its process, children)
 * Returns 0, -ENOENT (not watched), -EINVAL.
 */
UTRACE_EXPORT int utrace_queue_unwatch(struct utrace_queue *q, pid_t tid,
				       unsigned flags)
{
	struct watch_args a = { q, tid, flags, 0, 0, NULL, 0 };
	int err;

	if (q && q->conn)
		return utrace__rq_unwatch(q->conn, tid, flags);

	/* UTRACE_WATCH_FIRST says nothing here: taken, and not used. */
	if (!q || tid <= 0 || (flags & ~(unsigned)Q_WATCH_FLAGS))
		return -EINVAL;
	err = utrace__call(q->t, do_unwatch, &a);
	utrace__settle_now(q->t);
	return err;
}

static int do_set_syscalls(void *arg)
{
	struct watch_args *a = arg;
	struct utrace_queue *q = a->q;
	struct qthread *root = qt_find(q, a->tid);
	int ret = 0;

	if (!root)
		return -ENOENT;
	for (unsigned i = 0; i < q->nbuckets; i++) {
		for (struct qthread *qt = q->buckets[i]; qt; qt = qt->hnext) {
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
	}
	return ret;
}

/**
 * utrace_queue_set_syscalls - utrace_set_syscalls for what a watch covers
 * Returns 0, -ENOENT (@tid not watched), -EINVAL, -ENOMEM.
 */
UTRACE_EXPORT int utrace_queue_set_syscalls(struct utrace_queue *q, pid_t tid,
					    const long *nrs, size_t n)
{
	struct watch_args a = { q, tid, 0, 0, 0, nrs, n };

	if (q && q->conn && (nrs || !n))
		return utrace__rq_set_syscalls(q->conn, tid, nrs, n);

	if (!q || tid <= 0 || (!nrs && n))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (nrs[i] < 0 || nrs[i] >= UTRACE__SYSSET_BITS)
			return -EINVAL;
	return utrace__call(q->t, do_set_syscalls, &a);
}

/* -- Replies ------------------------------------------------------------- */

struct reply_args {
	struct utrace_queue *q;
	uint64_t id;
	const struct utrace_reply *r;
};

static struct qthread *held_find(struct utrace_queue *q, uint64_t id)
{
	for (unsigned i = 0; i < q->nbuckets; i++)
		for (struct qthread *qt = q->buckets[i]; qt; qt = qt->hnext)
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
	struct utrace_queue *q = a->q;
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
	qt_release(qt);
	return 0;
}

/**
 * utrace_queue_reply - let a held event go, with the engine's vote
 * Returns 0, -ENOENT (not held, already replied, unknown), -ESRCH (the
 * thread died), -EINVAL.  See utrace_queue_reply(3).
 */
UTRACE_EXPORT int utrace_queue_reply(struct utrace_queue *q, uint64_t id,
				     const struct utrace_reply *r)
{
	struct utrace_reply dflt;
	struct reply_args a;
	int err;

	if (!r) {
		/* NULL: the defaults, a plain UTRACE_RESUME */
		memset(&dflt, 0, sizeof(dflt));
		dflt.size = sizeof(dflt);
		dflt.action = UTRACE_RESUME;
		r = &dflt;
	}
	a = (struct reply_args){ q, id, r };
	if (q && q->conn && r->size >= sizeof(*r))
		return utrace__rq_reply(q->conn, id, r);

	if (!q || r->size < sizeof(*r) ||
	    (r->flags & ~(unsigned)(UTRACE_REPLY_RETURN | UTRACE_REPLY_ARGS |
				    UTRACE_REPLY_SIGINFO)) ||
	    utrace_resume_action(r->action) >= UTRACE_RESUME_MAX ||
	    (r->action & ~(uint32_t)(UTRACE_RESUME_MASK | UTRACE_SIGNAL_MASK |
				     UTRACE_SIGNAL_HOLD)))
		return -EINVAL;
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
	qt_release(qt);
}

static int do_bp_release(void *arg)
{
	struct utrace_queue *q = arg;

	qt_each(q, bp_release_one, NULL);
	return 0;
}

/* Take the first record, if any (under q->lock); true if one was taken. */
static bool pop(struct utrace_queue *q, struct utrace_event *ev,
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

static int next_other(struct utrace_queue *q, struct utrace_event *ev,
		      int timeout_ms)
{
	struct timespec ts;
	bool got, release = false;

	if (timeout_ms > 0)
		abs_deadline(&ts, timeout_ms);
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

static int next_loop(struct utrace_queue *q, struct utrace_event *ev,
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
		 * with no new wait status: settle before blocking.
		 */
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

/**
 * utrace_queue_next - the next record, waiting up to @timeout_ms for one
 * Returns 1 with a record in *ev, 0 when none came in time, or -EINVAL.
 * On the loop thread it dispatches while it waits.
 */
UTRACE_EXPORT int utrace_queue_next(struct utrace_queue *q,
				    struct utrace_event *ev, int timeout_ms)
{
	if (q && q->conn && ev && ev->size >= sizeof(*ev) && timeout_ms >= -1)
		return utrace__rq_next(q->conn, ev, timeout_ms);
	if (!q || !ev || ev->size < sizeof(*ev) || timeout_ms < -1)
		return -EINVAL;
	if (utrace__on_loop(q->t))
		return next_loop(q, ev, timeout_ms);
	return next_other(q, ev, timeout_ms);
}

/**
 * utrace_queue_fd - readable while a record waits
 * Made on the first call (records made before it count): a consumer that
 * never polls pays no eventfd write per record.
 */
UTRACE_EXPORT int utrace_queue_fd(struct utrace_queue *q)
{
	int fd;

	if (!q)
		return -EINVAL;
	if (q->conn)
		return utrace__rq_fd(q->conn);
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

/* -- Looking and changing ------------------------------------------------ */

struct acc_args {
	struct utrace_queue *q;
	pid_t tid;
	struct user_regs_struct *out;
	const struct user_regs_struct *in;
	const struct utrace_iov *iov;
	size_t n;
	bool write;
	ssize_t ret;
	/* regset, debugreg */
	unsigned int type;
	void *buf;
	size_t len;
	int dr;
	uint64_t *value;
};

static pid_t tgid_of(pid_t tid)
{
	char buf[4096];
	const char *v;

	if (!utrace__proc_status(tid, buf, sizeof(buf)))
		return -1;
	v = utrace__proc_field(buf, "Tgid");
	return v ? atoi(v) : -1;
}

static bool alive(pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d", tid, tid);
	return access(path, F_OK) == 0 || tgid_of(tid) > 0;
}

static int held_thread(struct acc_args *a, struct qthread **out)
{
	struct qthread *qt = qt_find(a->q, a->tid);

	if (qt && qt->dead)
		return -ESRCH;
	if (!qt)
		return alive(a->tid) ? -EBUSY : -ESRCH;
	if (!qt->held_id && !qt->allstop_seen)
		return -EBUSY;
	*out = qt;
	return 0;
}

static int do_regs(void *arg)
{
	struct acc_args *a = arg;
	struct qthread *qt;
	int err = held_thread(a, &qt);

	if (err)
		return err;
	return a->out ? utrace_regs_get(qt->e, a->out) :
			utrace_regs_set(qt->e, a->in);
}

UTRACE_EXPORT int utrace_queue_regs_get(struct utrace_queue *q, pid_t tid,
					struct user_regs_struct *regs)
{
	struct acc_args a = { .q = q, .tid = tid, .out = regs };

	if (q && q->conn && regs)
		return utrace__rq_regs(q->conn, tid, regs, NULL);

	if (!q || !regs || tid <= 0)
		return -EINVAL;
	return utrace__call(q->t, do_regs, &a);
}

UTRACE_EXPORT int utrace_queue_regs_set(struct utrace_queue *q, pid_t tid,
					const struct user_regs_struct *regs)
{
	struct acc_args a = { .q = q, .tid = tid, .in = regs };

	if (q && q->conn && regs)
		return utrace__rq_regs(q->conn, tid, NULL, regs);

	if (!q || !regs || tid <= 0)
		return -EINVAL;
	return utrace__call(q->t, do_regs, &a);
}

/*
 * Int3 bytes a consumer writes are noted with the bytes they replace, so
 * that a queue freed while they stand (a joined debugger that died) puts
 * them back: the program is left as found.  Another byte written over one
 * means the consumer took its breakpoint out; the address is kept, for a
 * trap of it that comes late (leave_as_found).
 */
static void bp_note(struct qthread *qt, const struct utrace_iov *v)
{
	struct utrace_queue *q = qt->q;
	const uint8_t *buf = v->buf;

	for (size_t i = 0; i < v->len; i++) {
		uint64_t addr = v->addr + i;
		struct qbp **pp, *b;
		uint8_t cur;

		for (pp = &q->bps; (b = *pp); pp = &b->next)
			if (b->tgid == qt->tgid && b->addr == addr)
				break;
		if (buf[i] != 0xcc) {
			if (b)
				b->standing = false;
			continue;
		}
		if ((b && b->standing) ||
		    utrace_mem_read(qt->e, addr, &cur, 1) != 1 || cur == 0xcc)
			continue;
		if (!b) {
			b = calloc(1, sizeof(*b));
			if (!b)
				continue;
			b->tgid = qt->tgid;
			b->addr = addr;
			b->next = q->bps;
			q->bps = b;
		}
		b->orig = cur;
		b->standing = true;
	}
}

static int do_memv(void *arg)
{
	struct acc_args *a = arg;
	struct qthread *qt;
	int err = held_thread(a, &qt);
	ssize_t total = 0;

	if (err)
		return err;
	for (size_t i = 0; i < a->n; i++) {
		const struct utrace_iov *v = &a->iov[i];
		ssize_t n;

		if (a->write)
			bp_note(qt, v);
		n = a->write ?
			utrace_mem_write(qt->e, v->addr, v->buf, v->len) :
			utrace_mem_read(qt->e, v->addr, v->buf, v->len);

		if (n < 0) {
			if (!total)
				total = n;
			break;
		}
		total += n;
		if ((size_t)n < v->len)
			break;
	}
	a->ret = total;
	return 0;
}

static ssize_t memv(struct utrace_queue *q, pid_t tid,
		    const struct utrace_iov *iov, size_t n, bool write)
{
	struct acc_args a = { .q = q, .tid = tid, .iov = iov, .n = n,
			      .write = write };
	int err;

	if (q && q->conn && (iov || !n))
		return utrace__rq_memv(q->conn, tid, iov, n, write);

	if (!q || tid <= 0 || (!iov && n))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!iov[i].buf && iov[i].len)
			return -EINVAL;
	err = utrace__call(q->t, do_memv, &a);
	return err ? err : a.ret;
}

UTRACE_EXPORT ssize_t utrace_queue_mem_readv(struct utrace_queue *q, pid_t tid,
					     const struct utrace_iov *iov,
					     size_t n)
{
	return memv(q, tid, iov, n, false);
}

UTRACE_EXPORT ssize_t utrace_queue_mem_writev(struct utrace_queue *q,
					      pid_t tid,
					      const struct utrace_iov *iov,
					      size_t n)
{
	return memv(q, tid, iov, n, true);
}

static int do_regset(void *arg)
{
	struct acc_args *a = arg;
	struct qthread *qt;
	int err = held_thread(a, &qt);

	if (err)
		return err;
	a->ret = a->write ? utrace_regset_set(qt->e, a->type, a->buf, a->len) :
			    utrace_regset_get(qt->e, a->type, a->buf, a->len);
	return 0;
}

static ssize_t regset(struct utrace_queue *q, pid_t tid, unsigned int type,
		      void *buf, size_t len, bool write)
{
	struct acc_args a = { .q = q, .tid = tid, .type = type, .buf = buf,
			      .len = len, .write = write };
	int err;

	if (q && q->conn && buf && len)
		return utrace__rq_regset(q->conn, tid, type, buf, len, write);

	/* The general registers are utrace_queue_regs_*. */
	if (!q || tid <= 0 || !buf || !len || type == NT_PRSTATUS)
		return -EINVAL;
	err = utrace__call(q->t, do_regset, &a);
	return err ? err : a.ret;
}

/**
 * utrace_queue_regset_get - utrace_regset_get on a thread the queue holds
 * Returns the bytes filled, -EBUSY (not held by this queue), -ESRCH,
 * -EINVAL.  See utrace_queue_regset_get(3).
 */
UTRACE_EXPORT ssize_t utrace_queue_regset_get(struct utrace_queue *q,
					      pid_t tid, unsigned int type,
					      void *buf, size_t len)
{
	return regset(q, tid, type, buf, len, false);
}

/**
 * utrace_queue_regset_set - utrace_regset_set on a thread the queue holds
 * Returns the bytes the kernel took, or as utrace_queue_regset_get.
 */
UTRACE_EXPORT ssize_t utrace_queue_regset_set(struct utrace_queue *q,
					      pid_t tid, unsigned int type,
					      const void *buf, size_t len)
{
	return regset(q, tid, type, (void *)buf, len, true);
}

static bool dr_valid(int n)
{
	return (n >= 0 && n <= 3) || n == 6 || n == 7;
}

static int do_debugreg(void *arg)
{
	struct acc_args *a = arg;
	struct qthread *qt;
	int err = held_thread(a, &qt);

	if (err)
		return err;
	if (a->write && a->dr != 6) {
		err = utrace_debugreg_set(qt->e, a->dr, *a->value);
		if (!err && *a->value)
			qt->dr_set = true;
		else if (!err && a->dr == 7)
			qt->dr_set = false;	/* every one disabled */
		return err;
	}
	return a->write ? utrace_debugreg_set(qt->e, a->dr, *a->value) :
			  utrace_debugreg_get(qt->e, a->dr, a->value);
}

/**
 * utrace_queue_debugreg_get - utrace_debugreg_get on a thread the queue holds
 * Returns 0, -EBUSY, -ESRCH, -EINVAL.  See utrace_queue_debugreg_get(3).
 */
UTRACE_EXPORT int utrace_queue_debugreg_get(struct utrace_queue *q, pid_t tid,
					    int n, uint64_t *value)
{
	struct acc_args a = { .q = q, .tid = tid, .dr = n, .value = value };

	if (q && q->conn && value && dr_valid(n))
		return utrace__rq_debugreg(q->conn, tid, n, value, false);
	if (!q || tid <= 0 || !value || !dr_valid(n))
		return -EINVAL;
	return utrace__call(q->t, do_debugreg, &a);
}

/**
 * utrace_queue_debugreg_set - utrace_debugreg_set on a thread the queue holds
 * Returns 0, -EBUSY, -ESRCH, -EINVAL (also a value the kernel refuses).
 */
UTRACE_EXPORT int utrace_queue_debugreg_set(struct utrace_queue *q, pid_t tid,
					    int n, uint64_t value)
{
	struct acc_args a = { .q = q, .tid = tid, .dr = n, .value = &value,
			      .write = true };

	if (q && q->conn && dr_valid(n))
		return utrace__rq_debugreg(q->conn, tid, n, &value, true);
	if (!q || tid <= 0 || !dr_valid(n))
		return -EINVAL;
	return utrace__call(q->t, do_debugreg, &a);
}

struct rthread_args {
	struct utrace_queue *q;
	pid_t tid;
	int action;
};

static int do_resume_thread(void *arg)
{
	struct rthread_args *a = arg;
	struct qthread *qt = qt_find(a->q, a->tid);

	if (qt && qt->dead)
		return -ESRCH;
	if (!qt)
		return alive(a->tid) ? -ENOENT : -ESRCH;
	/* Only a thread the stop has stopped (its type-0 record made). */
	if (!qt->allstop || !qt->allstop_seen)
		return -ENOENT;
	qt->allstop = qt->allstop_seen = false;
	/*
	 * Voted when nothing else holds it (qt_release); a reply waiting for
	 * the stop to end is carried out instead, with its own action.
	 */
	qt_set_stepping(qt, a->action == UTRACE_SINGLESTEP ?
			    UTRACE_SINGLESTEP : 0);
	qt_release(qt);
	return 0;
}

/**
 * utrace_queue_resume_thread - let one thread an all-stop holds go
 * @action: UTRACE_RESUME or UTRACE_SINGLESTEP
 * Returns 0, -ENOENT (not held by this queue's utrace_queue_stop), -ESRCH,
 * -EINVAL.  See utrace_queue_resume_thread(3).
 */
UTRACE_EXPORT int utrace_queue_resume_thread(struct utrace_queue *q,
					     pid_t tid, uint32_t action)
{
	struct rthread_args a = { q, tid, (int)action };
	int err;

	if (q && q->conn && (action == UTRACE_RESUME ||
			     action == UTRACE_SINGLESTEP))
		return utrace__rq_resume_thread(q->conn, tid, action);
	if (!q || tid <= 0 ||
	    (action != UTRACE_RESUME && action != UTRACE_SINGLESTEP))
		return -EINVAL;
	err = utrace__call(q->t, do_resume_thread, &a);
	utrace__settle_now(q->t);
	return err;
}

/* -- The queue ----------------------------------------------------------- */

static void q_layer_free(struct utrace_tracer *t, void *data)
{
	free(data);
}

/* Below the layers built on queues (sharing): order 10. */
static const struct utrace__layer q_layer = {
	.order = 10,
	.after_dispatch = q_after_dispatch,
	.free = q_layer_free,
};

static int do_register(void *arg)
{
	struct utrace_queue *q = arg;
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
	struct utrace_queue *q;
	int err;

	if (!t || !out)
		return -EINVAL;
	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
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
	*out = q;
	return 0;
}

/* A connected queue (remote.c): its calls go to @c. */
struct utrace_queue *utrace__queue_remote(struct utrace__conn *c)
{
	struct utrace_queue *q = calloc(1, sizeof(*q));

	if (q) {
		q->conn = c;
		q->efd = -1;
	}
	return q;
}

/* -- Leaving as found ------------------------------------------------------ */

/*
 * What a freed queue's consumer (a joined debugger that died) may have
 * left in motion on a thread: a trap of a breakpoint byte put back since,
 * of its single-step, of its debug registers.  A small engine, first on
 * the thread, takes such a SIGTRAP for it (the pc back on the instruction
 * for a breakpoint), so that the program never gets it; it stays until
 * the thread is reaped.
 */
struct qghost {
	uint64_t *addrs;		/* breakpoints put back */
	size_t n;
	bool step;			/* a step was asked or held */
	bool dr;			/* debug registers may be set */
};

static uint32_t ghost_signal(uint32_t action, struct utrace_engine *e,
			     siginfo_t *info)
{
	struct qghost *g = utrace_engine_data(e);
	struct user_regs_struct regs;
	uint8_t byte;

	if (info->si_signo != SIGTRAP)
		return utrace_pass(action, UTRACE_RESUME);
	if (info->si_code == SI_KERNEL &&
	    utrace_regs_get(e, &regs) == 0) {
		for (size_t i = 0; i < g->n; i++) {
			/* Its consumer may have moved the pc back already. */
			if (g->addrs[i] == regs.rip)
				return UTRACE_SIGNAL_REPORT | UTRACE_RESUME;
			if (g->addrs[i] == regs.rip - 1 &&
			    utrace_mem_read(e, regs.rip - 1, &byte, 1) == 1 &&
			    byte != 0xcc) {
				regs.rip--;
				utrace_regs_set(e, &regs);
				return UTRACE_SIGNAL_REPORT | UTRACE_RESUME;
			}
		}
	}
	if (info->si_code == TRAP_HWBKPT && g->dr) {
		utrace_debugreg_set(e, 7, 0);
		utrace_debugreg_set(e, 6, 0);
		g->dr = false;
		return UTRACE_SIGNAL_REPORT | UTRACE_RESUME;
	}
	if ((info->si_code == TRAP_TRACE || info->si_code == TRAP_BRKPT) &&
	    g->step) {
		g->step = false;
		return UTRACE_SIGNAL_REPORT | UTRACE_RESUME;
	}
	return utrace_pass(action, UTRACE_RESUME);
}

static void ghost_release(void *data)
{
	struct qghost *g = data;

	free(g->addrs);
	free(g);
}

static const struct utrace_engine_ops ghost_ops = {
	.report_signal = ghost_signal,
	.release = ghost_release,
};

static void ghost_attach(struct qthread *qt)
{
	struct utrace_queue *q = qt->q;
	struct utrace_engine *e;
	struct qghost *g = calloc(1, sizeof(*g));
	size_t n = 0;

	if (!g)
		return;
	for (struct qbp *b = q->bps; b; b = b->next)
		n += b->tgid == qt->tgid;
	g->addrs = calloc(n + 1, sizeof(*g->addrs));
	if (!g->addrs) {
		free(g);
		return;
	}
	for (struct qbp *b = q->bps; b; b = b->next)
		if (b->tgid == qt->tgid)
			g->addrs[g->n++] = b->addr;
	g->step = qt->stepping || (qt->held_id && qt->held_signo == SIGTRAP);
	g->dr = qt->dr_set;
	if (utrace__attach(q->t, qt->tid, UTRACE_ATTACH_CREATE |
			   UTRACE__ATTACH_FIRST, &ghost_ops, g, &e)) {
		ghost_release(g);
		return;
	}
	utrace_set_events(e, UTRACE_EVENT_SIGNAL_ALL);
	utrace_engine_put(e);
}

static void leave_one(struct qthread *qt, void *arg)
{
	bool mine = false;

	if (qt->dead)
		return;
	for (struct qbp *b = qt->q->bps; b && !mine; b = b->next)
		mine = b->tgid == qt->tgid;
	/* Held, so stopped: its debug registers can go now. */
	if (qt->dr_set && (qt->held_id || qt->allstop_seen) &&
	    utrace_debugreg_set(qt->e, 7, 0) == 0)
		qt->dr_set = false;
	if (mine || qt->dr_set || qt->stepping ||
	    (qt->held_id && qt->held_signo == SIGTRAP))
		ghost_attach(qt);
}

/*
 * The queue goes (its consumer freed it, or died): its int3 bytes still
 * in memory are replaced by what they hid, and the traps it may have
 * caused are taken by a ghost engine instead of being delivered.
 */
static void leave_as_found(struct utrace_queue *q)
{
	struct qbp *b;
	uint8_t cur;

	for (b = q->bps; b; b = b->next)
		if (b->standing &&
		    utrace__mem_xfer(b->tgid, b->addr, &cur, 1, false) == 1 &&
		    cur == 0xcc)
			utrace__mem_xfer(b->tgid, b->addr, &b->orig, 1, true);
	qt_each(q, leave_one, NULL);
	while ((b = q->bps)) {
		q->bps = b->next;
		free(b);
	}
}

static void forget_one(struct qthread *qt, void *arg)
{
	qt_forget(qt);
}

static int do_free(void *arg)
{
	struct utrace_queue *q = arg;
	struct qlayer *ql = utrace__layer_data(q->t, &q_layer);

	leave_as_found(q);
	qt_each(q, forget_one, NULL);
	for (struct utrace_queue **pp = &ql->queues; *pp;
	     pp = &(*pp)->next) {
		if (*pp == q) {
			*pp = q->next;
			break;
		}
	}
	return 0;
}

/**
 * utrace_queue_free - unwatch everything and free the queue
 * No thread stays stopped because of it.  Free queues before their tracer.
 */
UTRACE_EXPORT void utrace_queue_free(struct utrace_queue *q)
{
	struct qrec *r;

	if (!q)
		return;
	if (q->conn) {
		utrace__rq_free(q->conn);
		free(q);
		return;
	}
	if (utrace__call(q->t, do_free, q) == 0) {
		utrace__settle_now(q->t);
	} else {
		/*
		 * The loop will never run again (-EDEADLK): nothing can be
		 * detached, and no callback or dispatch comes any more.
		 * Drop our references and memory only.
		 */
		for (unsigned i = 0; i < q->nbuckets; i++) {
			struct qthread *qt, *next;

			for (qt = q->buckets[i]; qt; qt = next) {
				next = qt->hnext;
				utrace_engine_put(qt->e);
				free(qt->nrs);
				free(qt);
			}
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
	free(q->buckets);
	free(q->dead_ids);
	free(q);
}
