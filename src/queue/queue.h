/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The local queue (utrace(7), "The queued-event layer"): private to
 * src/queue.
 *
 * A queue watches threads through an ordinary engine per thread (q_ops,
 * engine.c) and turns its callbacks into records that any thread of the
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
 * The queue layer's after_dispatch hook (stop.c) looks, after each
 * dispatch, at which threads an all-stop has brought to a stop.
 *
 * Files: watched.c (the watched threads), engine.c (records, callbacks,
 * replies carried out), watch.c, stop.c (all-stop), access.c (registers
 * and memory of held threads), local.c (the backend: records read,
 * replies, the queue itself).
 */
#ifndef UTRACE_QUEUE_H
#define UTRACE_QUEUE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/layer.h"
#include "core/tidmap.h"
#include "queue/backend.h"

#define Q_FREE_KEEP	1024	/* spare records kept for reuse */

struct qrec {
	struct qrec *next;
	struct utrace_event ev;
};

/* One watched thread: the queue's engine on it and why it is held. */
struct qthread {
	struct lqueue *q;
	struct utrace_engine *e;	/* our reference */
	struct utrace__tidnode hnode;	/* in q->threads, by tid */
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
	bool tstop;			/* taken by utrace_queue_stop_thread */
	bool allstop_seen;		/* either: known to be stopped (type 0 made) */
	bool bp;			/* held by back-pressure */
	bool dead;
	bool dr_set;			/* debug registers set through us */
};

/*
 * An address where a consumer wrote an int3 byte through the queue, and
 * what the byte replaced while it stands (found.c).
 */
struct qbp {
	struct qbp *next;
	pid_t tgid;
	uint64_t addr;
	uint8_t orig;
	bool standing;			/* the int3 is there (not taken out) */
};

/*
 * A utrace_queue_stop_thread call waiting for its thread (on the caller's
 * stack, in lqueue.twaits under q->lock until it returns).
 */
struct qtwait {
	struct qtwait *next;
	pid_t tid;
	bool done;
	int result;			/* 1, or -ESRCH: it died first */
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

/* A local queue: the backend's object behind struct utrace_queue. */
struct lqueue {
	struct utrace_queue q;		/* first: the interface */
	struct utrace_tracer *t;
	struct lqueue *next;		/* qlayer.queues */
	/* loop thread only */
	struct utrace__tidmap threads;	/* struct qthread by tid */
	struct qstop *stops;
	unsigned stops_pending;
	unsigned tstops_pending;	/* threads a thread stop waits for */
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
	struct qtwait *twaits;		/* utrace_queue_stop_thread calls */
	int efd;			/* -1 until utrace_queue_fd */
	const struct watch_args *watching;	/* do_watch in progress */
	struct qbp *bps;		/* loop thread: int3 bytes written */
};

/* The queue layer's state on a tracer (loop thread). */
struct qlayer {
	struct lqueue *queues;
};

struct watch_args {
	struct lqueue *q;
	pid_t tid;
	unsigned flags;
	unsigned long events, hold;
	const long *nrs;
	size_t n;
};

static inline struct lqueue *lq(struct utrace_queue *q)
{
	return (struct lqueue *)q;
}

static inline bool qt_holding(const struct qthread *qt)
{
	return !qt->dead && (qt->held_id || qt->allstop || qt->tstop ||
			     qt->bp);
}

/*
 * The watched thread after @qt (NULL: the first), NULL after the last.
 * To forget @qt while iterating, get its successor first.
 */
static inline struct qthread *qt_next(struct lqueue *q, struct qthread *qt)
{
	struct utrace__tidnode *n;

	n = utrace__tidmap_next(&q->threads, qt ? &qt->hnode : NULL);
	return n ? utrace__tid_entry(n, struct qthread, hnode) : NULL;
}

static inline unsigned long qt_mask(const struct qthread *qt)
{
	unsigned long m = qt->events | UTRACE_EVENT(REAP);

	if (qt->quiesce || qt->stepping)
		m |= UTRACE_EVENT(QUIESCE);
	return m;
}

/* The vote of a callback that carries out no reply. */
static inline int qt_vote(const struct qthread *qt)
{
	if (qt_holding(qt))
		return UTRACE_STOP;
	return qt->stepping ? qt->stepping : UTRACE_RESUME;
}

/* watched.c */
struct qthread *utrace__qt_find(struct lqueue *q, pid_t tid);
void utrace__qt_unhash(struct lqueue *q, struct qthread *qt);
int utrace__qt_hash(struct lqueue *q, struct qthread *qt);
bool utrace__q_watches(struct lqueue *q, pid_t tgid);
void utrace__qt_each(struct lqueue *q,
		     void (*fn)(struct qthread *qt, void *arg), void *arg);
int utrace__qt_apply(struct qthread *qt);
void utrace__qt_follow(struct qthread *qt);
void utrace__qt_set_quiesce(struct qthread *qt, bool on);
void utrace__qt_set_stepping(struct qthread *qt, int step);
bool utrace__qt_in_stop(const struct qthread *qt);
void utrace__qt_dead_id(struct lqueue *q, uint64_t id);
struct qstop *utrace__qstop_find(struct lqueue *q, pid_t pid);
void utrace__qt_forget(struct qthread *qt);
struct qthread *utrace__qt_new(struct lqueue *q, pid_t tid,
			       const struct qthread *like);
int utrace__qt_attach(struct qthread *qt);

/* engine.c */
extern const struct utrace_engine_ops utrace__q_ops;
struct utrace_event *utrace__rec_begin(struct qthread *qt, unsigned long type,
				       struct qrec **out);
bool utrace__rec_commit(struct qthread *qt, struct qrec *r, bool may_hold,
			uint64_t *id);
void utrace__qt_release(struct qthread *qt);

/* watch.c */
int utrace__q_follow(void *arg, pid_t tid, pid_t tgid, pid_t parent,
		     unsigned long clone_flags);
int utrace__q_watch(struct utrace_queue *uq, pid_t tid, unsigned flags,
		    unsigned long events, unsigned long hold);
int utrace__q_unwatch(struct utrace_queue *uq, pid_t tid, unsigned flags);
int utrace__q_set_syscalls(struct utrace_queue *uq, pid_t tid,
			   const long *nrs, size_t n);

/* stop.c */
void utrace__q_after_dispatch(struct utrace_tracer *t, void *data);
void utrace__qstop_drop(struct lqueue *q, struct qstop *s);
int utrace__q_stop(struct utrace_queue *uq, pid_t pid, int timeout_ms);
int utrace__q_resume(struct utrace_queue *uq, pid_t pid);
int utrace__q_resume_thread(struct utrace_queue *uq, pid_t tid,
			    uint32_t action);
int utrace__q_stop_thread(struct utrace_queue *uq, pid_t tid, int timeout_ms);
void utrace__qt_twake(struct lqueue *q, pid_t tid, int result);

/* found.c: leaving the program as found */
void utrace__qbp_note(struct qthread *qt, const struct utrace_iov *v);
void utrace__q_leave_as_found(struct lqueue *q);
void utrace__qt_leave_as_found(struct qthread *qt);

/* access.c */
int utrace__q_regs(struct utrace_queue *uq, pid_t tid,
		   struct user_regs_struct *out,
		   const struct user_regs_struct *in);
ssize_t utrace__q_memv(struct utrace_queue *uq, pid_t tid,
		       const struct utrace_iov *iov, size_t n, bool write);
ssize_t utrace__q_regset(struct utrace_queue *uq, pid_t tid,
			 unsigned int type, void *buf, size_t len, bool write);
int utrace__q_debugreg(struct utrace_queue *uq, pid_t tid, int n,
		       uint64_t *value, bool write);

#endif
