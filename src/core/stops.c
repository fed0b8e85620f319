// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Turning one wait status into a utrace event: classify the ptrace stop,
 * gather what the event needs, run the reporting pass, and settle.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <linux/sched.h>

#include "core/internal.h"

static unsigned long event_msg(pid_t tid)
{
	unsigned long msg = 0;

	ptrace(PTRACE_GETEVENTMSG, tid, 0L, &msg);
	return msg;
}

static void event_init(struct utrace__event *ev, enum utrace__ev type)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->nr = -1;
}

/* -- Syscalls ----------------------------------------------------------------- */

static void syscall_entry(struct uthread *th, const struct ptrace_syscall_info *in)
{
	struct utrace__event ev;

	th->stop = STOP_SYSCALL_ENTRY;
	th->sc_time[0] = utrace__now_ns(CLOCK_MONOTONIC);
	th->sc_time[1] = 0;
	th->sc.nr = (long)in->entry.nr;
	for (int i = 0; i < 6; i++)
		th->sc.args[i] = in->entry.args[i];
	th->sc.ret = 0;
	th->sc.arch = in->arch;
	th->sc.ip = in->instruction_pointer;
	th->sc.sp = in->stack_pointer;
	th->abort = th->abort_pending = th->ret_set = false;
	th->changes = 0;
	event_init(&ev, EV_SYSCALL_ENTRY);
	ev.nr = th->sc.nr;
	if (utrace__wants(th, &ev))
		th->abort = utrace_syscall_action(utrace__report(th, &ev)) ==
			    UTRACE_SYSCALL_ABORT;
	/* Asked after the pass: an engine may have changed its mask. */
	th->want_exit = utrace__exit_wanted(th, th->sc.nr);
}

static void syscall_exit(struct uthread *th, const struct ptrace_syscall_info *in)
{
	struct utrace__event ev;

	th->stop = STOP_SYSCALL_EXIT;
	th->sc_time[1] = utrace__now_ns(CLOCK_MONOTONIC);
	th->want_exit = false;
	th->sc.ret = (long)in->exit.rval;
	if (th->sc.nr < 0 && utrace__regs_load(th) == 0)
		th->sc.nr = (long)th->regs.orig_rax;
	if (th->abort_pending) {
		/* An aborted syscall: -ENOSYS unless an engine chose. */
		th->abort_pending = false;
		if (th->ret_set && utrace__regs_load(th) == 0) {
			th->regs.rax = (unsigned long)th->ret_val;
			th->regs_dirty = true;
			th->sc.ret = th->ret_val;
		}
	} else if (th->ret_set) {
		/* Set at an entry that was not aborted: it was not used. */
		th->changes &= ~UTRACE_SYSCALL_CHANGED_RETURN;
	}
	th->ret_set = false;
	event_init(&ev, EV_SYSCALL_EXIT);
	ev.nr = th->sc.nr;
	if (utrace__wants(th, &ev))
		utrace__report(th, &ev);
}

/*
 * While a spawned child installs its filter (th->setup), its syscalls are
 * the library's: none is reported, and the seccomp call's result says
 * whether the filter is in.  The execve entry ends the setup.
 */
static bool setup_stop(struct uthread *th, const struct ptrace_syscall_info *in)
{
	if (in->op == PTRACE_SYSCALL_INFO_EXIT) {
		if (th->sc.nr == SYS_seccomp) {
			th->filtered = in->exit.rval == 0;
			/* Options follow at the next restart (thread.c). */
			utrace__thread_recalc(th);
		}
		th->stop = STOP_SYSCALL_EXIT;
		return true;
	}
	th->sc.nr = (long)in->entry.nr;
	th->stop = STOP_SYSCALL_ENTRY;
	if (th->sc.nr != SYS_execve)
		return true;
	th->setup = false;
	utrace__thread_recalc(th);
	return false;
}

static void syscall_stop(struct uthread *th)
{
	struct ptrace_syscall_info in;

	memset(&in, 0, sizeof(in));
	if (ptrace(PTRACE_GET_SYSCALL_INFO, th->tid, (long)sizeof(in), &in) <= 0) {
		th->stop = STOP_INTERRUPT;
		return;
	}
	if (th->setup && setup_stop(th, &in))
		return;
	switch (in.op) {
	case PTRACE_SYSCALL_INFO_SECCOMP:
		/* Right after a syscall-entry stop: reported there already. */
		if (th->entry_reported && th->sc.nr == (long)in.entry.nr) {
			th->entry_reported = false;
			th->stop = STOP_SYSCALL_ENTRY;
		} else {
			th->entry_reported = false;
			syscall_entry(th, &in);
		}
		/* A filter of the program's own: a layer's, or ENOSYS. */
		if (!th->filtered ||
		    in.seccomp.ret_data != utrace__filter_data(th->t))
			utrace__layers_foreign_seccomp(th,
						       in.seccomp.ret_data);
		break;
	case PTRACE_SYSCALL_INFO_ENTRY:
		th->entry_reported = true;
		syscall_entry(th, &in);
		break;
	case PTRACE_SYSCALL_INFO_EXIT:
		th->entry_reported = false;
		syscall_exit(th, &in);
		break;
	default:
		th->stop = STOP_INTERRUPT;
		break;
	}
}

/* -- Clone ---------------------------------------------------------------------- */

/*
 * The flags of a clone whose parent cannot be read: SIGKILL woke it out of
 * its clone stop (its process is dying), and ptrace and process_vm_readv
 * fail with ESRCH.  Whether the child is a thread of the parent's process
 * is still in /proc while the child is not reaped; the rest is lost.
 */
static unsigned long clone_flags_lost(struct uthread *th, pid_t child)
{
	if (child > 0 && utrace__proc_tgid(child) == th->tgid)
		return CLONE_VM | CLONE_SIGHAND | CLONE_THREAD;
	return 0;
}

/*
 * The flags the clone was made with: what the call asked (clone(2)'s and
 * clone3(2)'s flags and exit signal, which the event does not carry:
 * CLONE_PTRACE, CLONE_PARENT, CLONE_FILES...), else fork's or vfork's
 * equivalent when the event says which.
 */
static unsigned long clone_flags(struct uthread *th, int event, pid_t child)
{
	unsigned long dflt = 0;

	if (event == PTRACE_EVENT_FORK)
		dflt = SIGCHLD;
	else if (event == PTRACE_EVENT_VFORK)
		dflt = CLONE_VM | CLONE_VFORK | SIGCHLD;
	if (utrace__regs_load(th))
		return dflt ? dflt : clone_flags_lost(th, child);
	if ((long)th->regs.orig_rax == SYS_clone3) {
		struct clone_args ca;
		struct iovec local = { &ca, sizeof(ca) };
		struct iovec remote = { (void *)th->regs.rdi, sizeof(ca) };

		if (process_vm_readv(th->tid, &local, 1, &remote, 1, 0) !=
		    (ssize_t)sizeof(ca))
			return dflt ? dflt : clone_flags_lost(th, child);
		return (unsigned long)(ca.flags | (ca.exit_signal & 0xff));
	}
	if ((long)th->regs.orig_rax == SYS_fork)
		return SIGCHLD;
	if ((long)th->regs.orig_rax == SYS_vfork)
		return CLONE_VM | CLONE_VFORK | SIGCHLD;
	if ((long)th->regs.orig_rax == SYS_clone || !dflt)
		return th->regs.rdi;
	return dflt;
}

/*
 * A death whose thread is not ours, or not yet: a new child killed before
 * its parent's clone event was handled, its first stop seen (an orphan,
 * below) or not (wait4 returns the statuses of different threads in any
 * order; the ptrace emulation of a tracer that traces ours publishes each
 * when it happens, and keeps a killed parent's clone event), or a child of
 * the tracer's own that it does not trace.  The last few are kept for the
 * clone event, which would otherwise enter the child as new (TH_NEW) and
 * wait for a stop or a death that came already.
 */
static void early_death(struct utrace_tracer *t, pid_t pid, int status)
{
	struct utrace__early *d =
		&t->early[t->nearly++ & (UTRACE__NEARLY - 1)];

	d->pid = pid;
	d->status = status;
}

/* The kept death of @pid, a child its parent's clone event names. */
static bool take_early_death(struct utrace_tracer *t, pid_t pid, int *status)
{
	char path[32];

	for (unsigned i = 1; i <= UTRACE__NEARLY; i++) {
		struct utrace__early *d =
			&t->early[(t->nearly - i) & (UTRACE__NEARLY - 1)];

		if (d->pid != pid)
			continue;
		d->pid = 0;
		/* Still there: the id was used again, that death is older. */
		snprintf(path, sizeof(path), "/proc/%d", (int)pid);
		if (access(path, F_OK) == 0)
			return false;
		*status = d->status;
		return true;
	}
	return false;
}

/*
 * A new child at its parent's clone event: its first stop may be drained
 * already; if it has not come yet, the child is entered as new (TH_NEW)
 * rather than waited for, so the parent's event costs no wait for another
 * task to be scheduled.  The child runs no instruction before that stop,
 * which is handled when it comes, or at once when an engine needs the child
 * stopped (utrace__await_first_stop).  A child that died first is entered
 * too, and its death handled after the clone event: its engines (made by
 * follows and report_clone) see it die.
 */
static struct uthread *await_child(struct utrace_tracer *t, pid_t child)
{
	struct uthread *c = utrace__thread_find(t, child);
	struct utrace__status s;

	if (c)
		return c;
	if (utrace__take_queued(t, child, &s)) {
		utrace__handle_status(t, child, s.status,
				      s.has_ru ? &s.ru : NULL);
		return utrace__thread_find(t, child);
	}
	c = utrace__thread_new(t, child, child);
	memset(&s, 0, sizeof(s));
	if (c && take_early_death(t, child, &s.status)) {
		s.pid = child;
		utrace__requeue(t, &s);
	}
	return c;
}

/**
 * utrace__await_first_stop - block until a new child (TH_NEW) reaches its
 * first stop, and handle it; the child may be gone (dead) on return.
 */
void utrace__await_first_stop(struct uthread *th)
{
	struct utrace_tracer *t = th->t;
	pid_t tid = th->tid;
	struct utrace__status s;

	if (!utrace__take_queued(t, tid, &s)) {
		while (utrace__wait(t, tid, __WALL, &s) < 0)
			if (errno != EINTR)
				return;
	}
	utrace__handle_status(t, tid, s.status, s.has_ru ? &s.ru : NULL);
}

static void clone_stop(struct uthread *th, int event)
{
	struct utrace_tracer *t = th->t;
	pid_t child = (pid_t)event_msg(th->tid);
	unsigned long flags = clone_flags(th, event, child);
	struct utrace__event ev;
	struct uthread *c;

	th->stop = STOP_CLONE;
	c = child > 0 ? await_child(t, child) : NULL;
	if (c) {
		if (c->orphan) {
			c->orphan = false;	/* its parent's event came */
			t->norphans--;
		}
		c->tgid = flags & CLONE_THREAD ? th->tgid : child;
		c->kill_on_exit = th->kill_on_exit;
		c->opts = th->opts;	/* the kernel copied them */
		c->filtered = th->filtered;	/* filters are inherited */
		memcpy(c->fset, th->fset, sizeof(c->fset));
		c->hold |= HOLD_CLONE;
	}
	/*
	 * Follows (utrace_follow) take the child on before it runs, and
	 * before the parent's engines see the event: their report_clone
	 * finds the child's engines in place.
	 */
	if (th->follows && c)
		utrace__follow_clone(th, child, flags);
	event_init(&ev, EV_CLONE);
	ev.clone_flags = flags;
	ev.child = child;
	if (utrace__wants(th, &ev))
		utrace__report(th, &ev);
	/* The child was held until here; it may be freed by this. */
	c = child > 0 ? utrace__thread_find(t, child) : NULL;
	if (c) {
		c->hold &= ~HOLD_CLONE;
		utrace__settle_later(c);
	}
}

/* -- Exec ----------------------------------------------------------------------- */

static void note_usage(struct uthread *th, const struct rusage *ru)
{
	th->stop_ru_valid = ru != NULL;
	if (ru)
		th->stop_ru = *ru;
}

static struct uthread *exec_stop(struct utrace_tracer *t, pid_t pid,
				 const struct rusage *ru)
{
	pid_t former = (pid_t)event_msg(pid);
	struct uthread *th, *old;
	struct utrace__event ev;

	if (former > 0 && former != pid) {
		/*
		 * A non-leader thread executed: it takes the leader's id and
		 * its engines move with it; the old leader is gone.
		 */
		th = utrace__thread_find(t, former);
		old = utrace__thread_find(t, pid);
		if (old && old != th)
			utrace__death(old, 0, true);
		if (th)
			utrace__thread_rehash(th, pid);
	} else {
		former = pid;
		th = utrace__thread_find(t, pid);
	}
	if (!th) {
		th = utrace__thread_new(t, pid, pid);
		if (!th) {
			ptrace(PTRACE_DETACH, pid, 0L, 0L);
			return NULL;
		}
	}
	th->tgid = pid;
	th->state = TH_STOPPED;
	th->stop = STOP_EXEC;
	note_usage(th, ru);
	utrace__disp_exec(th);
	th->regs_valid = false;
	event_init(&ev, EV_EXEC);
	ev.former = former;
	if (utrace__wants(th, &ev))
		utrace__report(th, &ev);
	return th;
}

/* -- Signals and job control ------------------------------------------------------ */

static bool step_trap(const struct uthread *th, int sig)
{
	if (!th->step_mode || sig != SIGTRAP)
		return false;
	return th->si.si_code == TRAP_TRACE || th->si.si_code == TRAP_BRKPT ||
	       th->si.si_code == TRAP_BRANCH;
}

/* The trap ptrace makes after setting up a handler frame while stepping. */
static bool handler_trap(const struct uthread *th, int sig)
{
	return th->handler_trap && sig == SIGTRAP &&
	       th->si.si_code == SIGTRAP;
}

/**
 * utrace__signal_pass - the signal pass for th->si at a signal-delivery stop
 * @set_info: the kernel's siginfo for this stop is not th->si
 * @again: it is a signal an engine held (UTRACE_SIGNAL_HOLD), back
 *
 * Sets th->stop_sig to what the engines decided, and the kernel's siginfo
 * to th->si when that signal is delivered and differs.
 */
void utrace__signal_pass(struct uthread *th, bool set_info, bool again)
{
	struct utrace__event ev;
	uint32_t action;
	siginfo_t orig = th->si;

	event_init(&ev, EV_SIGNAL);
	ev.bit = utrace__signal_class(th, th->si.si_signo, &action);
	ev.action = action | (again ? UTRACE_SIGNAL_AGAIN : 0);
	ev.info = &th->si;
	th->stop_sig = th->si.si_signo;
	if (utrace__wants(th, &ev))
		th->stop_sig = utrace__signal_final(th,
						    utrace__report(th, &ev),
						    true);
	if (th->stop_sig && th->stop_sig == th->si.si_signo &&
	    (set_info || memcmp(&orig, &th->si, sizeof(orig))))
		ptrace(PTRACE_SETSIGINFO, th->tid, 0L, &th->si);
}

static void signal_stop(struct uthread *th, int sig)
{
	struct utrace__event ev;
	bool report, handler, again;

	if (ptrace(PTRACE_GETSIGINFO, th->tid, 0L, &th->si) < 0) {
		th->stop = STOP_INTERRUPT;
		return;
	}
	handler = handler_trap(th, sig);
	if (!handler && step_trap(th, sig)) {
		/* Our own trap: an event-0 report, never the program's. */
		th->stop = STOP_STEP;
		th->handler_trap = false;
		th->req = utrace__min(th->req, UTRACE_REPORT);
		return;
	}
	th->stop = STOP_SIGNAL;
	th->stop_sig = sig;
	if (handler) {
		/* Not a signal: the HANDLER report (reference 7.3). */
		th->handler_trap = false;
		th->stop_sig = 0;
		event_init(&ev, EV_SIGNAL_REPORT);
		ev.action = UTRACE_SIGNAL_HANDLER;
		memset(&th->si, 0, sizeof(th->si));
		ev.info = &th->si;
		if (utrace__wants(th, &ev))
			utrace__signal_report_final(th,
						    utrace__report(th, &ev));
		return;
	}
	th->handler_trap = false;
	if (utrace__signal_placeholder(th, sig, &report, &again)) {
		/*
		 * Injected: delivered as decided, with the step decided with
		 * it.  The step that restarted the thread made no instruction
		 * (the placeholder came first): the delivery is stepped, so
		 * its handler frame traps (reference 7.3).
		 */
		if (!report) {
			if (th->step_mode && th->step == UTRACE_RESUME)
				th->step = th->last_step;
			return;
		}
		utrace__signal_pass(th, false, again);	/* held, back */
		return;
	}
	utrace__signal_pass(th, false, false);
}

static bool stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
	       sig == SIGTTOU;
}

static void jctl(struct uthread *th, int type)
{
	struct utrace__event ev;

	event_init(&ev, EV_JCTL);
	ev.type_arg = type;
	ev.notify = th->tid == th->tgid ? type : 0;
	if (utrace__wants(th, &ev))
		utrace__report(th, &ev);
}

/**
 * utrace__group_stop - the thread is in its process's group stop
 * At its PTRACE_EVENT_STOP trap with a stop signal; restarted with
 * PTRACE_LISTEN from there.  report_jctl(CLD_STOPPED) once per group stop.
 */
void utrace__group_stop(struct uthread *th)
{
	th->stop = STOP_GROUP;
	th->regroup = false;
	if (!th->in_group_stop) {
		th->in_group_stop = true;
		jctl(th, CLD_STOPPED);
	}
}

static void event_stop(struct uthread *th, int sig)
{
	if (stop_signal(sig)) {
		utrace__group_stop(th);
		return;
	}
	/*
	 * Not a stop signal: a PTRACE_INTERRUPT trap, or LISTEN's re-trap.
	 * A thread interrupted in a group stop traps with the stop signal
	 * (above) while its process stays stopped (SIGNAL_STOP_STOPPED):
	 * SIGTRAP here means that group stop is over.
	 */
	th->stop = STOP_INTERRUPT;
	th->regroup = false;	/* no group stop to go back to */
	/*
	 * A PTRACE_INTERRUPT left pending trapped before the step was made:
	 * no step happened, keep stepping (a report pass may still decide
	 * otherwise).
	 */
	if (th->step_mode && th->step == UTRACE_RESUME)
		th->step = th->last_step;
	if (th->in_group_stop && th->listening) {
		/* LISTEN re-trapped after SIGCONT: the group stop is over. */
		th->in_group_stop = false;
		jctl(th, CLD_CONTINUED);
	}
}

/* -- Dispatch --------------------------------------------------------------------- */

/**
 * utrace__handle_status - act on one wait status of a traced thread
 * Loop thread only.
 */
void utrace__handle_status(struct utrace_tracer *t, pid_t pid, int status,
			   const struct rusage *ru)
{
	struct uthread *th;
	int event = status >> 16, sig;

	th = utrace__thread_find(t, pid);
	if (th && utrace__layers_status(th, status)) {
		th->listening = false;
		utrace__settle(th);
		return;
	}
	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		/* A new child's death before its parent's clone event. */
		if (!th || th->orphan)
			early_death(t, pid, status);
		if (th)
			utrace__death(th, status, false);
		return;
	}
	if (!WIFSTOPPED(status))
		return;
	sig = WSTOPSIG(status);
	if (event == PTRACE_EVENT_EXEC) {
		th = exec_stop(t, pid, ru);
		if (th) {
			th->interrupt_sent = false;
			th->listening = false;
			utrace__settle(th);
		}
		return;
	}
	if (!th && event != PTRACE_EVENT_STOP) {
		/* Not a new child: a thread we forgot (let go as it died). */
		ptrace(PTRACE_DETACH, pid, 0L, event ? 0L : (long)sig);
		return;
	}
	if (!th) {
		/* A new child whose parent's clone event is still to come. */
		th = utrace__thread_new(t, pid, pid);
		if (!th) {
			ptrace(PTRACE_DETACH, pid, 0L, 0L);
			return;
		}
		th->state = TH_STOPPED;
		th->stop = STOP_INITIAL;
		th->born_stopped = stop_signal(sig);
		note_usage(th, ru);
		th->hold = HOLD_CLONE;
		th->orphan = true;
		t->norphans++;
		return;
	}
	/*
	 * A thread we left stopped moved on by itself: only SIGKILL does
	 * that, and it breaks every engine's STOP (reference 7.6).
	 */
	if (th->state == TH_STOPPED && th->stop != STOP_INITIAL &&
	    th->stop != STOP_SPAWN)
		th->killed = true;
	th->interrupt_sent = false;	/* any trap consumes PTRACE_INTERRUPT */
	th->regs_valid = false;
	note_usage(th, ru);
	if (th->state == TH_NEW && event == PTRACE_EVENT_STOP) {
		/*
		 * Its first trap.  With a stop signal it is born into a group
		 * stop (the group stop's trap is also its first): restarted
		 * as from the initial stop it would run while its process
		 * stays stopped.  It joins the stop once its engines are in
		 * place (utrace__settle).
		 */
		th->state = TH_STOPPED;
		th->stop = STOP_INITIAL;
		th->born_stopped = stop_signal(sig);
		th->listening = false;
		utrace__settle(th);
		return;
	}
	th->state = TH_STOPPED;
	switch (event) {
	case 0:
		if (sig == (SIGTRAP | 0x80))
			syscall_stop(th);
		else
			signal_stop(th, sig);
		break;
	case PTRACE_EVENT_SECCOMP:
		syscall_stop(th);
		break;
	case PTRACE_EVENT_CLONE:
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
		clone_stop(th, event);
		break;
	case PTRACE_EVENT_EXIT: {
		struct utrace__event ev;

		th->stop = STOP_EXIT;
		event_init(&ev, EV_EXIT);
		ev.status = (int)event_msg(th->tid);
		if (WIFSIGNALED(ev.status) && WTERMSIG(ev.status) == SIGKILL)
			th->killed = true;
		if (utrace__wants(th, &ev))
			utrace__report(th, &ev);
		break;
	}
	case PTRACE_EVENT_STOP:
		event_stop(th, sig);
		break;
	default:
		th->stop = STOP_INTERRUPT;
		break;
	}
	th->listening = false;
	/* @th may have been freed by a report: look it up again. */
	th = utrace__thread_find(t, pid);
	if (th)
		utrace__settle(th);
}
