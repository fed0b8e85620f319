// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The local queue's engine (utrace__q_ops), one per watched thread: its
 * callbacks turn events into records and vote; a consumer's reply is carried out
 * with the deferred-vote recipe (queue.h).  Loop thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/sched.h>

#include "queue/queue.h"

/* -- Records ------------------------------------------------------------- */

struct utrace_event *utrace__rec_begin(struct qthread *qt, unsigned long type,
				       struct qrec **out)
{
	struct lqueue *q = qt->q;
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
bool utrace__rec_commit(struct qthread *qt, struct qrec *r, bool may_hold,
			uint64_t *id)
{
	struct lqueue *q = qt->q;
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
	if (utrace__rec_commit(qt, r, can_hold, &id))
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
		utrace__qt_set_stepping(qt, resume == UTRACE_SINGLESTEP ||
				    resume == UTRACE_BLOCKSTEP ? resume : 0);
	switch (resume) {
	case UTRACE_STOP:
		break;
	case UTRACE_DETACH:
		utrace__qt_leave_as_found(qt);
		utrace__qt_forget(qt);
		break;
	case UTRACE_REPORT:
	case UTRACE_INTERRUPT:
	case UTRACE_SINGLESTEP:
	case UTRACE_BLOCKSTEP:
		utrace__qt_set_quiesce(qt, true);
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
void utrace__qt_release(struct qthread *qt)
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
		utrace__qt_set_quiesce(qt, true);
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
	utrace__qt_set_quiesce(qt, false);
	if (resume == UTRACE_DETACH) {
		/* As a callback's DETACH: no callback after this one. */
		utrace__qt_leave_as_found(qt);
		utrace__qt_forget(qt);
		return bits | UTRACE_RESUME;
	}
	utrace__qt_set_stepping(qt, resume == UTRACE_SINGLESTEP ||
				resume == UTRACE_BLOCKSTEP ? resume : 0);
	if (qt_holding(qt))
		resume = UTRACE_STOP;
	return bits | (uint32_t)resume;
}

/* -- Callbacks (loop thread) --------------------------------------------- */

/*
 * A syscall event's time: when the syscall entered (@exit: left) the
 * kernel, the record's own stamp when it comes from one; else (not
 * known) when the tracer saw it, as rec_begin set it.
 */
static void syscall_time(struct utrace_engine *e, struct utrace_event *ev,
			 bool exit)
{
	struct timespec ts;

	if (utrace_syscall_time(e, CLOCK_MONOTONIC, exit ? NULL : &ts,
				exit ? &ts : NULL) == 0 &&
	    (ts.tv_sec || ts.tv_nsec))
		ev->time = ts;
}

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
	ev = utrace__rec_begin(qt, UTRACE_EVENT(SYSCALL_ENTRY), &r);
	if (!ev)
		return pass_on(action, UTRACE_STOP);	/* never lose it */
	utrace_syscall_get(e, &ev->syscall);
	syscall_time(e, ev, false);
	return pass_on(action, record_syscall(qt, e, r));
}

static uint32_t q_syscall_exit(uint32_t action, struct utrace_engine *e)
{
	struct qthread *qt = utrace_engine_data(e);
	struct utrace_event *ev;
	struct qrec *r;

	ev = utrace__rec_begin(qt, UTRACE_EVENT(SYSCALL_EXIT), &r);
	if (!ev)
		return pass_on(action, UTRACE_STOP);
	utrace_syscall_get(e, &ev->syscall);
	syscall_time(e, ev, true);
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
	ev = utrace__rec_begin(qt, cls, &r);
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
static uint32_t q_clone(uint32_t action, struct utrace_engine *e,
			unsigned long clone_flags, pid_t child)
{
	struct qthread *qt = utrace_engine_data(e);
	int vote = qt_vote(qt);

	if (qt->events & UTRACE_EVENT(CLONE)) {
		struct qrec *r;
		struct utrace_event *ev;

		ev = utrace__rec_begin(qt, UTRACE_EVENT(CLONE), &r);
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
		struct qthread *old = utrace__qt_find(qt->q, tid);

		if (old && old != qt)
			utrace__qt_forget(old);
		utrace__tidmap_rekey(&qt->q->threads, &qt->hnode, tid);
		qt->tid = tid;
	}
	qt->tgid = utrace_engine_tgid(e);
	if (!(qt->events & UTRACE_EVENT(EXEC)))
		return pass_on(action, qt_vote(qt));
	ev = utrace__rec_begin(qt, UTRACE_EVENT(EXEC), &r);
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

	ev = utrace__rec_begin(qt, UTRACE_EVENT(EXIT), &r);
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

	ev = utrace__rec_begin(qt, UTRACE_EVENT(JCTL), &r);
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

	utrace__qt_set_stepping(qt, 0);
	if (!(qt->events & UTRACE_EVENT(SIGNAL)))
		return qt_vote(qt);
	ev = utrace__rec_begin(qt, UTRACE_EVENT(SIGNAL), &r);
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
		utrace__qt_set_quiesce(qt, false);
	if (qt->stepping && !event && utrace__engine_stop(e) == STOP_STEP)
		return pass_on(action, step_done(qt));
	return pass_on(action, qt_vote(qt));
}

static void qt_died(struct qthread *qt)
{
	struct lqueue *q = qt->q;
	struct qstop *s;

	if (qt->dead)
		return;
	qt->dead = true;
	if (qt->held_id)
		utrace__qt_dead_id(q, qt->held_id);
	qt->held_id = 0;
	qt->replied = false;
	qt->bp = false;
	if (qt->allstop && !qt->allstop_seen &&
	    (s = utrace__qstop_find(q, qt->tgid)) &&
	    !s->done)
		q->stops_pending++;	/* poll re-counts without it */
	if (qt->tstop && !qt->allstop_seen)
		utrace__qt_twake(q, qt->tid, -ESRCH);
}

static uint32_t q_death(struct utrace_engine *e, bool group_dead, int status)
{
	struct qthread *qt = utrace_engine_data(e);

	qt_died(qt);
	if (qt->events & UTRACE_EVENT(DEATH)) {
		struct qrec *r;
		struct utrace_event *ev;

		ev = utrace__rec_begin(qt, UTRACE_EVENT(DEATH), &r);
		if (ev) {
			ev->status = status;
			ev->group_dead = group_dead;
			utrace__rec_commit(qt, r, false, NULL);
		}
	}
	return UTRACE_RESUME;
}

static void q_reap(struct utrace_engine *e)
{
	struct qthread *qt = utrace_engine_data(e);
	struct lqueue *q = qt->q;

	qt_died(qt);
	utrace__qt_unhash(q, qt);
	utrace_engine_put(qt->e);
	free(qt->nrs);
	free(qt);
}

const struct utrace_engine_ops utrace__q_ops = {
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
