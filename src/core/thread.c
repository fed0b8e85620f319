// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Traced threads: the table, and "settling" a stopped thread: deciding from
 * the engines' votes and pending requests whether it stays stopped, gets
 * another report, is restarted (and how), or is let go.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "core/internal.h"

/*
 * The ptrace options a thread needs.  PTRACE_O_TRACEEXIT only while an
 * engine wants EXIT: it costs a stop per exiting thread.
 */
long utrace__ptrace_opts(bool kill_on_exit)
{
	long o = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACECLONE |
		 PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
		 PTRACE_O_TRACEEXEC;

	return kill_on_exit ? o | PTRACE_O_EXITKILL : o;
}

static long thread_opts(const struct uthread *th)
{
	long o = utrace__ptrace_opts(th->kill_on_exit || th->filtered ||
				     th->setup);

	/*
	 * Always: a program's own SECCOMP_RET_TRACE filter stops here, and a
	 * layer's foreign_seccomp hook takes it (the ptrace emulation, for
	 * an inner tracer), or the call fails with ENOSYS, as the kernel
	 * fails it for a tracee whose tracer did not ask.
	 */
	o |= PTRACE_O_TRACESECCOMP;
	if (th->events & UTRACE_EVENT(EXIT))
		o |= PTRACE_O_TRACEEXIT;
	return o;
}

/* -- Table ---------------------------------------------------------------- */

struct uthread *utrace__thread_find(struct utrace_tracer *t, pid_t tid)
{
	struct utrace__tidnode *n = utrace__tidmap_find(&t->threads, tid);

	return n ? utrace__tid_entry(n, struct uthread, hnode) : NULL;
}

struct uthread *utrace__thread_new(struct utrace_tracer *t, pid_t tid,
				   pid_t tgid)
{
	struct uthread *th;

	th = calloc(1, sizeof(*th));
	if (!th)
		return NULL;
	if (utrace__tidmap_add(&t->threads, &th->hnode, tid)) {
		free(th);
		return NULL;
	}
	th->tid = tid;
	th->tgid = tgid;
	th->t = t;
	th->state = TH_NEW;
	th->req = UTRACE_RESUME;
	th->pass_vote = UTRACE_RESUME;
	th->step = UTRACE_RESUME;
	th->sc.nr = -1;
	t->gen++;
	return th;
}

void utrace__thread_rehash(struct uthread *th, pid_t tid)
{
	utrace__tidmap_rekey(&th->t->threads, &th->hnode, tid);
	th->tid = tid;
	for (struct utrace_engine *e = th->head; e; e = e->next) {
		atomic_store(&e->tid, tid);
		atomic_store(&e->tgid, tid);	/* only an exec moves a thread */
	}
	for (struct utrace_engine *e = th->ahead; e; e = e->next) {
		atomic_store(&e->tid, tid);
		atomic_store(&e->tgid, tid);
	}
}

void utrace__thread_free(struct uthread *th)
{
	struct utrace_tracer *t = th->t;

	utrace__tidmap_del(&t->threads, &th->hnode);
	if (th->orphan)
		t->norphans--;
	if (th->on_settle) {
		for (struct uthread **pp = &t->settle; *pp; pp = &(*pp)->snext) {
			if (*pp == th) {
				*pp = th->snext;
				break;
			}
		}
	}
	for (unsigned i = 0; i < t->nspawned; i++)
		if (t->spawned[i] == th)
			t->spawned[i] = t->spawned[--t->nspawned];
	utrace__signal_release(th, false);
	utrace__follow_free(th);
	utrace__layers_forget(th);
	free(th->sys);
	free(th);
}

/* -- Engines' view ---------------------------------------------------------- */

static bool live(const struct utrace_engine *e)
{
	return !(atomic_load(&e->flags) & ENG_DETACHED);
}

bool utrace__thread_has_engines(const struct uthread *th)
{
	for (const struct utrace_engine *e = th->head; e; e = e->next)
		if (live(e))
			return true;
	for (const struct utrace_engine *e = th->ahead; e; e = e->next)
		if (live(e))
			return true;
	return false;
}

bool utrace__thread_held(const struct uthread *th)
{
	for (const struct utrace_engine *e = th->head; e; e = e->next)
		if (live(e) && (atomic_load(&e->flags) & ENG_STOP))
			return true;
	for (const struct utrace_engine *e = th->ahead; e; e = e->next)
		if (live(e) && (atomic_load(&e->flags) & ENG_STOP))
			return true;
	return false;
}

/*
 * Must the thread stop at this syscall's exit, or the next stop point,
 * whatever the engines' masks?  (A pending report, an aborted syscall's
 * return value, a deferred stop.)
 */
static bool need_exit(const struct uthread *th)
{
	return th->want_exit || th->req != UTRACE_RESUME ||
	       th->abort_pending || th->abort || utrace__thread_held(th);
}

/* Restart with PTRACE_SYSCALL (rather than PTRACE_CONT)? */
static bool need_syscall(const struct uthread *th)
{
	return th->full || need_exit(th);
}

void utrace__interrupt(struct uthread *th)
{
	if (th->state != TH_RUNNING || th->interrupt_sent)
		return;
	if (ptrace(PTRACE_INTERRUPT, th->tid, 0L, 0L) == 0)
		th->interrupt_sent = true;
}

void utrace__thread_recalc(struct uthread *th)
{
	unsigned long ev = 0;

	for (const struct utrace_engine *e = th->head; e; e = e->next)
		if (live(e))
			ev |= e->events;
	for (const struct utrace_engine *e = th->ahead; e; e = e->next)
		if (live(e))
			ev |= e->events;
	th->events = ev;
	th->sys_dirty = true;
	/* Every syscall must stop, unless our filter stops the wanted ones. */
	th->full = th->setup || ((ev & UTRACE_EVENT_SYSCALL) &&
				 (!th->filtered || !utrace__filter_covers(th)));
	/*
	 * A running thread restarted without the syscall stops it now needs
	 * (or with nobody left to trace it) is brought to a stop so settle()
	 * can fix that.
	 */
	utrace__layers_recalc(th);
	if (th->state == TH_RUNNING && !th->listening && !th->step_mode &&
	    ((th->full && !th->syscall_mode && !th->sys_trapped) ||
	     ((ev & UTRACE_EVENT(EXIT)) && !(th->opts & PTRACE_O_TRACEEXIT)) ||
	     (!th->filtered && !utrace__thread_has_engines(th))))
		utrace__interrupt(th);
}

int utrace__regs_load(struct uthread *th)
{
	if (th->regs_valid)
		return 0;
	if (ptrace(PTRACE_GETREGS, th->tid, 0L, &th->regs) < 0)
		return -errno;
	th->regs_valid = true;
	return 0;
}

static void regs_flush(struct uthread *th)
{
	if (th->stop == STOP_SYSCALL_ENTRY && th->abort &&
	    utrace__regs_load(th) == 0) {
		th->regs.orig_rax = (unsigned long)-1;
		th->regs_dirty = true;
		th->abort_pending = true;
		th->changes |= UTRACE_SYSCALL_CHANGED_ABORT;
	}
	if (th->regs_dirty)
		ptrace(PTRACE_SETREGS, th->tid, 0L, &th->regs);
	th->regs_dirty = false;
	th->regs_valid = false;
	th->abort = false;
}

/* -- Settling --------------------------------------------------------------- */

void utrace__settle_later(struct uthread *th)
{
	if (th->on_settle)
		return;
	th->on_settle = true;
	th->snext = th->t->settle;
	th->t->settle = th;
	utrace__kick(th->t);
}

void utrace__settle_all(struct utrace_tracer *t)
{
	struct uthread *th;

	while ((th = t->settle)) {
		t->settle = th->snext;
		th->on_settle = false;
		utrace__settle(th);
	}
}

/* The nobody-traces-it-any-more case: let the thread go, untraced. */
void utrace__release_thread(struct uthread *th)
{
	int sig = th->stop == STOP_SIGNAL ? th->stop_sig : 0;

	if (th->held && th->stop == STOP_SIGNAL && !sig) {
		/* A held signal, at its own delivery stop: deliver it as is. */
		th->held = false;
		th->si = th->held_info;
		sig = th->si.si_signo;
		ptrace(PTRACE_SETSIGINFO, th->tid, 0L, &th->si);
	}
	regs_flush(th);
	utrace__layers_release(th);
	if (ptrace(PTRACE_DETACH, th->tid, 0L, (long)sig) < 0 &&
	    errno == ESRCH) {
		/*
		 * SIGKILL woke it first: it is dying, still ours.  Its next
		 * status (exit stop or death) comes back here or to death.
		 */
		th->state = TH_RUNNING;
		th->stop = STOP_NONE;
		return;
	}
	/* Held or injected signals are owed to the program: send them. */
	utrace__signal_release(th, true);
	utrace__thread_free(th);
}

static void restart(struct uthread *th)
{
	int sig = th->stop == STOP_SIGNAL ? th->stop_sig : 0;
	long req;

	regs_flush(th);
	if (thread_opts(th) != th->opts &&
	    ptrace(PTRACE_SETOPTIONS, th->tid, 0L, thread_opts(th)) == 0)
		th->opts = thread_opts(th);
	/*
	 * A step out of a group stop is like UTRACE_RESUME there, for one
	 * instruction (reference 6, 7.7): the thread stays in the group stop
	 * (PTRACE_LISTEN) and th->step waits for its end, unless a later
	 * round of callbacks decides otherwise (as SIGCONT's report_signal
	 * does for an engine with QUIESCE).
	 */
	if (th->stop == STOP_GROUP)
		req = PTRACE_LISTEN;
	else if (th->step == UTRACE_SINGLESTEP)
		req = PTRACE_SINGLESTEP;
	else if (th->step == UTRACE_BLOCKSTEP)
		req = PTRACE_SINGLEBLOCK;
	else if (need_syscall(th))
		req = PTRACE_SYSCALL;
	else
		req = PTRACE_CONT;
	req = utrace__layers_restart(th, req);
	if (req < 0)
		return;		/* it died: its status follows */
	utrace__disp_restart(th, req, sig);
	th->step_mode = req == PTRACE_SINGLESTEP || req == PTRACE_SINGLEBLOCK;
	/* Delivering a signal while stepping: the handler frame traps. */
	th->handler_trap = th->step_mode && sig;
	th->syscall_mode = req == PTRACE_SYSCALL;
	th->listening = req == PTRACE_LISTEN;
	th->last_step = th->step;
	if (req != PTRACE_LISTEN)
		th->step = UTRACE_RESUME;
	th->state = TH_RUNNING;
	th->stop = STOP_NONE;
	th->stop_sig = 0;
	th->held = false;
	th->held_passes = 0;
	th->entry_held = false;
	th->parked = false;
	/*
	 * Queued while still stopped, so it is pending at the thread's first
	 * signal check, where the kernel would have delivered it.
	 */
	utrace__signal_queue(th);
	/*
	 * Back into the group stop its process still holds (regroup): a
	 * PTRACE_INTERRUPT made while it is stopped traps once it has left
	 * this stop, before user mode, reporting the stop signal.  Any other
	 * stop on the way cancels it (ptrace_stop): made again from there,
	 * until the group stop's trap (or SIGTRAP's: the stop is over).
	 */
	if (th->regroup && req != PTRACE_LISTEN &&
	    ptrace(PTRACE_INTERRUPT, th->tid, 0L, 0L) == 0)
		th->interrupt_sent = true;
	/* ESRCH: SIGKILL got there first; its death status follows. */
	if (ptrace(req, th->tid, 0L, (long)sig) < 0 && req == PTRACE_LISTEN) {
		/* The group stop ended while we held it: run on. */
		th->listening = false;
		ptrace(need_syscall(th) ? PTRACE_SYSCALL : PTRACE_CONT,
		       th->tid, 0L, 0L);
	}
}

/* Stops reached in the middle of a syscall, where a report or a deferred
 * stop waits for the syscall's exit (the return-to-user point). */
static bool mid_syscall(enum utrace__stop s)
{
	return s == STOP_SYSCALL_ENTRY || s == STOP_CLONE || s == STOP_EXEC;
}

/**
 * utrace__settle - decide what a stopped thread does next
 *
 * Runs the event-0 reports and the syscall-entry repeat that pending
 * REPORT/INTERRUPT requests call for, then keeps the thread stopped while an
 * engine holds it, or restarts it, or lets it go when no engine is left.
 * @th may be freed on return.
 */
void utrace__settle(struct uthread *th)
{
	struct utrace__event ev;

	for (;;) {
		if (th->state != TH_STOPPED || th->in_pass || th->hold ||
		    th->dead)
			return;
		/*
		 * A thread that stopped for an engine reports nothing more
		 * until every engine has let it go, as in the kernel, where
		 * it sleeps in utrace_stop() until then.
		 */
		if (th->parked && utrace__thread_held(th) && !th->killed)
			return;
		if (!utrace__thread_has_engines(th) && !th->filtered &&
		    !th->setup) {
			utrace__release_thread(th);
			return;
		}
		if (th->stop == STOP_INITIAL && th->born_stopped) {
			/* Born into a group stop: its report, then LISTEN. */
			th->born_stopped = false;
			utrace__group_stop(th);
			continue;
		}
		if (th->req != UTRACE_RESUME && th->stop == STOP_SYSCALL_ENTRY &&
		    th->entry_held) {
			/* Resumed with REPORT/INTERRUPT: the entry pass again. */
			th->req = UTRACE_RESUME;
			th->entry_held = false;
			memset(&ev, 0, sizeof(ev));
			ev.type = EV_SYSCALL_ENTRY;
			ev.action = UTRACE_SYSCALL_RESUMED |
				    (th->abort ? UTRACE_SYSCALL_ABORT : 0);
			ev.nr = th->sc.nr;
			th->abort = utrace_syscall_action(
				utrace__report(th, &ev)) == UTRACE_SYSCALL_ABORT;
			continue;
		}
		if (th->req != UTRACE_RESUME && !mid_syscall(th->stop)) {
			memset(&ev, 0, sizeof(ev));
			if (th->stop == STOP_SIGNAL && !th->stop_sig) {
				/*
				 * Back at the signal point after dropping or
				 * holding a signal: *info is left as the last
				 * callback left it (reference 7.4).
				 */
				ev.type = EV_SIGNAL_REPORT;
			} else if (th->req == UTRACE_INTERRUPT) {
				ev.type = EV_SIGNAL_REPORT;
				/* No signal: an engine fills it to inject one. */
				memset(&th->si, 0, sizeof(th->si));
			} else {
				ev.type = EV_QUIESCE;
			}
			ev.action = ev.type == EV_SIGNAL_REPORT ?
				    UTRACE_SIGNAL_REPORT : 0;
			ev.info = &th->si;
			th->req = UTRACE_RESUME;
			if (utrace__wants(th, &ev)) {
				uint32_t r = utrace__report(th, &ev);

				if (ev.type == EV_SIGNAL_REPORT)
					utrace__signal_report_final(th, r);
			}
			/*
			 * The last report before user mode: no loop.  But an
			 * INTERRUPT from an event-0 report still asks for the
			 * signal pass before user mode (reference 6), where it
			 * counts as RESUME.
			 */
			th->req = ev.type == EV_QUIESCE &&
				  th->req == UTRACE_INTERRUPT ?
				  UTRACE_INTERRUPT : UTRACE_RESUME;
			continue;
		}
		if (th->held && !utrace__thread_held(th) && !th->killed) {
			/* A held signal, first in line (reference 7.2). */
			th->held = false;
			th->si = th->held_info;
			utrace__signal_pass(th, true, th->held_again);
			continue;
		}
		if (utrace__thread_held(th) && !th->killed) {
			if (!mid_syscall(th->stop) ||
			    th->stop == STOP_SYSCALL_ENTRY) {
				th->entry_held = th->stop == STOP_SYSCALL_ENTRY;
				th->parked = true;
				return;
			}
			/* Deferred stop: at the exit of this syscall. */
			th->req = utrace__min(th->req, UTRACE_REPORT);
		}
		restart(th);
		return;
	}
}

/* -- Death -------------------------------------------------------------------- */

/*
 * A process died between creating a child and reporting it (SIGKILL): its
 * new children, held for a clone event that will never come, are let go.
 */
static void release_orphans(struct utrace_tracer *t, pid_t tgid)
{
	struct utrace__tidnode *n = NULL;

	while (t->norphans && (n = utrace__tidmap_next(&t->threads, n))) {
		struct uthread *c = utrace__tid_entry(n, struct uthread, hnode);

		if (!c->orphan || utrace__proc_ppid(c->tid) != tgid)
			continue;
		c->hold &= ~HOLD_CLONE;
		c->orphan = false;
		t->norphans--;
		utrace__settle_later(c);
	}
}

/**
 * utrace__death - report a thread's death and reap, then forget it
 * @status: the wait status
 * @superseded: an old leader replaced by a thread that called execve (its
 *	process lives on)
 */
void utrace__death(struct uthread *th, int status, bool superseded)
{
	struct utrace__event ev;
	struct utrace_engine *e;
	bool group_dead = th->tid == th->tgid && !superseded;

	if (th->t->norphans && group_dead)
		release_orphans(th->t, th->tgid);

	th->state = TH_DEAD;
	th->stop = STOP_NONE;
	th->dead = 1;
	memset(&ev, 0, sizeof(ev));
	ev.type = EV_DEATH;
	ev.status = status;
	ev.group_dead = group_dead;
	utrace__report(th, &ev);
	th->dead = 2;
	ev.type = EV_REAP;
	utrace__report(th, &ev);
	/* After report_reap every engine is detached. */
	while ((e = th->head) || (e = th->ahead))
		utrace__engine_unlink(e);
	utrace__thread_free(th);
}
