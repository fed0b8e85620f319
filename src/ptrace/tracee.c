// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ptrace as an engine (ptrace.h): an inner tracee's state.  The table of
 * threads that carry the engine, the engine's vote for a tracee that runs
 * (stepping or not) and the events and syscalls it watches, the inner
 * stops it is held in (made, published to its tracer, queued behind the
 * one in progress), and how it runs on from them or is let go.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <linux/audit.h>

#include "ptrace/ptrace.h"

/* -- The table ------------------------------------------------------------- */

struct pe_thread *utrace__pe_find(struct pe *pe, pid_t tid)
{
	for (struct pe_thread *p = pe->threads; p; p = p->next)
		if (p->tid == tid && !p->dead)
			return p;
	return NULL;
}

/* Any record of tid, also a dead one whose death waits to be collected. */
struct pe_thread *utrace__pe_find_any(struct pe *pe, pid_t tid)
{
	struct pe_thread *p = utrace__pe_find(pe, tid);

	if (p)
		return p;
	for (p = pe->threads; p; p = p->next)
		if (p->tid == tid)
			return p;
	return NULL;
}

static void pe_unlink(struct pe_thread *p)
{
	for (struct pe_thread **pp = &p->pe->threads; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	free(p);
}

/* A dead thread is forgotten once nothing is owed to its inner tracer. */
void utrace__pe_maybe_free(struct pe_thread *p)
{
	if (p->e || (p->tracer && (p->waitable || p->leader_wait)))
		return;
	for (struct pe_thread *q = p->pe->threads; q; q = q->next)
		if (q->tracer == p)
			q->tracer = NULL;
	pe_unlink(p);
}

/* -- Votes and what the engine watches ------------------------------------- */

/* Is the instruction at the tracee's pc a system call? */
static bool at_syscall_insn(struct pe_thread *p)
{
	struct user_regs_struct r;
	unsigned char c[2];

	if (!p->e || utrace_regs_get(p->e, &r) ||
	    utrace_mem_read(p->e, r.rip, c, 2) != 2)
		return false;
	return (c[0] == 0x0f && (c[1] == 0x05 || c[1] == 0x34)) ||
	       (c[0] == 0xcd && c[1] == 0x80);
}

/*
 * How a stepping tracee goes on.  PTRACE_SYSEMU_SINGLESTEP: a system call
 * instruction is not stepped but run to its entry, where the kernel
 * reports it instead of the step (and skips it).
 */
uint32_t utrace__pe_step_act(struct pe_thread *p)
{
	if (p->mode == PM_STEP)
		return UTRACE_SINGLESTEP;
	if (p->mode == PM_SYSEMU_STEP)
		return at_syscall_insn(p) ? UTRACE_RESUME : UTRACE_SINGLESTEP;
	return UTRACE_RESUME;
}

/* The vote of a tracee that runs on: keep stepping if it was told to. */
uint32_t utrace__pe_run_vote(struct pe_thread *p, uint32_t action)
{
	uint32_t r = action & ~UTRACE_RESUME_MASK;

	if (p->tracer && !p->stopped && utrace__pe_stepping(p))
		return r | utrace__pe_step_act(p);
	return r | UTRACE_RESUME;
}

/*
 * pause: what a blocking wait becomes while nothing is there to report;
 * prctl: PR_SET_PTRACER and PR_SET_DUMPABLE (creds.c).  An inner tracee
 * whose tracer could not have let it gain privileges by an exec has its
 * execs watched too (creds.c).
 */
static const long base_nrs[] = { SYS_ptrace, SYS_wait4, SYS_waitid,
				 SYS_pause, SYS_prctl };
static const long exec_nrs[] = { SYS_ptrace, SYS_wait4, SYS_waitid,
				 SYS_pause, SYS_prctl, SYS_execve,
				 SYS_execveat };

#define BASE_EVENTS (UTRACE_EVENT(QUIESCE) | UTRACE_EVENT_SYSCALL | \
		     UTRACE_EVENT(CLONE) | UTRACE_EVENT(DEATH) | \
		     UTRACE_EVENT(REAP) | UTRACE_EVENT_SIGNAL_ALL | \
		     UTRACE_EVENT(JCTL))

#define TRACEE_EVENTS (BASE_EVENTS | UTRACE_EVENT(EXEC))

void utrace__pe_set_syscalls(struct pe_thread *p)
{
	bool all = p->exit_watch ||
		   (p->tracer && (p->mode == PM_SYSCALL ||
				  p->mode == PM_SYSEMU ||
				  p->mode == PM_SYSEMU_STEP ||
				  (p->opts & PTRACE_O_TRACEVFORKDONE)));

	bool ex = p->tracer && !p->link_capable;

	if (!p->e || (all == p->all_syscalls &&
		      (all || ex == p->exec_syscalls)))
		return;
	p->all_syscalls = all;
	p->exec_syscalls = ex;
	if (all)
		utrace_set_syscalls(p->e, NULL, 0);
	else if (ex)
		utrace_set_syscalls(p->e, exec_nrs,
				    sizeof(exec_nrs) / sizeof(exec_nrs[0]));
	else
		utrace_set_syscalls(p->e, base_nrs,
				    sizeof(base_nrs) / sizeof(base_nrs[0]));
}

void utrace__pe_set_events(struct pe_thread *p)
{
	unsigned long ev = BASE_EVENTS;

	if (!p->e)
		return;
	if (p->tracer) {
		ev |= TRACEE_EVENTS;
		if (p->opts & PTRACE_O_TRACEEXIT)
			ev |= UTRACE_EVENT(EXIT);
	}
	utrace_set_events(p->e, ev);
	utrace__pe_set_syscalls(p);
	/* a tracee is the emulated tracer's: no record path under it */
	utrace__engine_set_holder(p->e, p->tracer != NULL);
}

/*
 * Its process is in a group stop (@sig), or no longer (0): the kernel's
 * SIGNAL_STOP_STOPPED, which makes a seized tracee's PTRACE_INTERRUPT trap
 * report the stop signal rather than SIGTRAP.
 */
void utrace__pe_set_group_stop(struct pe *pe, pid_t tgid, int sig)
{
	for (struct pe_thread *q = pe->threads; q; q = q->next)
		if (q->tgid == tgid && !q->dead)
			q->grp_sig = sig;
}

/* -- Inner stops ----------------------------------------------------------- */

void utrace__pe_trap_info(siginfo_t *si, pid_t tid, int code)
{
	memset(si, 0, sizeof(*si));
	si->si_signo = SIGTRAP;
	si->si_code = code;
	si->si_pid = tid;
	/* The tracee's real uid, as ptrace_notify puts it. */
	si->si_uid = utrace__pe_proc_ruid(tid);
}

void utrace__pe_stop_signal(struct pe_stop *s, const siginfo_t *info)
{
	memset(s, 0, sizeof(*s));
	s->kind = PK_SIGNAL;
	s->status = (info->si_signo << 8) | 0x7f;
	s->has_si = true;
	s->si = *info;
}

void utrace__pe_stop_event(struct pe_stop *s, struct pe_thread *q, int event,
		       int sig, unsigned long msg)
{
	int code = sig | (event << 8);

	memset(s, 0, sizeof(*s));
	s->kind = PK_EVENT;
	s->status = (code << 8) | 0x7f;
	s->has_si = true;
	utrace__pe_trap_info(&s->si, q->tid, code);
	s->si.si_signo = sig;
	s->msg = msg;
}

void utrace__pe_stop_syscall(struct pe_stop *s, struct pe_thread *q, bool entry)
{
	int code = SIGTRAP | (q->opts & PTRACE_O_TRACESYSGOOD ? 0x80 : 0);
	struct utrace_syscall sc;

	memset(s, 0, sizeof(*s));
	s->kind = entry ? PK_SYSCALL_ENTRY : PK_SYSCALL_EXIT;
	s->status = (code << 8) | 0x7f;
	s->has_si = true;
	utrace__pe_trap_info(&s->si, q->tid, code);
	s->msg = entry ? PTRACE_EVENTMSG_SYSCALL_ENTRY :
			 PTRACE_EVENTMSG_SYSCALL_EXIT;
	s->arch = AUDIT_ARCH_X86_64;
	if (q->e && utrace_syscall_get(q->e, &sc) == 0 && sc.arch)
		s->arch = sc.arch;
}

/* The initial stop of a tracee that was attached or auto-attached. */
void utrace__pe_stop_initial(struct pe_stop *s, struct pe_thread *q)
{
	siginfo_t si;

	if (q->seized) {
		utrace__pe_stop_event(s, q, PTRACE_EVENT_STOP, SIGTRAP, 0);
		return;
	}
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGSTOP;
	si.si_code = SI_USER;
	utrace__pe_stop_signal(s, &si);
}

/* Registers for stops taken in the middle of a syscall (clone, exec). */
void utrace__pe_snapshot(struct pe_stop *s, struct pe_thread *q)
{
	s->regs_valid = q->e && utrace_regs_get(q->e, &s->regs) == 0;
}

/*
 * An event stop in the middle of a syscall (exec, clone): the library
 * holds the thread at the syscall's exit, whose pass comes to us only if
 * we watch that syscall; watched, pe_exit queues the exit stop that
 * PTRACE_SYSCALL from the event stop gives.
 */
void utrace__pe_exit_after_event(struct pe_thread *q)
{
	enum utrace__stop st = utrace__engine_stop(q->e);

	if (q->all_syscalls || (st != STOP_EXEC && st != STOP_CLONE))
		return;
	q->exit_watch = true;
	utrace__pe_set_syscalls(q);
}

/* Make @s the tracee's current inner stop and tell its tracer. */
void utrace__pe_publish(struct pe_thread *q, const struct pe_stop *s)
{
	q->cur = *s;
	q->stopped = true;
	q->waitable = true;
	utrace__pe_notify_tracer(q);
}

/* Publish now, or after the stop in progress when there is one. */
void utrace__pe_publish_or_queue(struct pe_thread *q, const struct pe_stop *s)
{
	if (!q->stopped) {
		utrace__pe_publish(q, s);
		return;
	}
	if (q->npend < PE_NPEND)
		q->pend[q->npend++] = *s;
}

/* -- Letting a tracee go --------------------------------------------------- */

void utrace__pe_forget_tracer(struct pe_thread *q)
{
	q->tracer = NULL;
	q->tracer_tgid = 0;
	q->tracer_any = false;
	q->parent_is_tracer = false;
	q->link_capable = false;
	q->exec_old_valid = false;
	q->stopped = q->waitable = false;
	q->npend = 0;
	q->want_interrupt = q->want_attach_stop = q->exec_trap = false;
	q->want_group_trap = false;
	q->seized = false;
	q->opts = 0;
	q->mode = PM_CONT;
	utrace__pe_set_events(q);
}

/*
 * Let a tracee go on from its inner stop: with @sig delivered at a signal
 * stop, by @mode; the next queued stop, if any, is published at once.
 * @detach: its tracer lets it go (PTRACE_DETACH, or the tracer died).
 */
static void run_on(struct pe_thread *q, enum pe_mode mode, int sig,
		   bool detach)
{
	enum utrace__stop st;
	int act;

	q->mode = mode;
	q->stopped = q->waitable = false;
	if (sig && (q->cur.kind == PK_SIGNAL || q->cur.kind == PK_STEP)) {
		q->inj = q->cur.si;
		if (sig != q->inj.si_signo) {
			/* The kernel's rule: a new signal from the tracer. */
			memset(&q->inj, 0, sizeof(q->inj));
			q->inj.si_signo = sig;
			q->inj.si_code = SI_USER;
			q->inj.si_pid = q->tracer_tgid;
			q->inj.si_uid = utrace__pe_proc_ruid(q->tracer_tgid);
		}
		q->inject = true;
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
		    sig == SIGTTOU)
			q->stop_sig = sig;
	}
	if (sig && (q->cur.kind == PK_SYSCALL_ENTRY ||
		    q->cur.kind == PK_SYSCALL_EXIT)) {
		/*
		 * After a syscall stop the kernel sends the signal
		 * (ptrace_report_syscall: send_sig(sig, current, 1)): an
		 * ordinary pending signal, which the thread's mask holds
		 * back and which a tracer still there sees at its delivery
		 * stop.  Its siginfo becomes the kernel's there (pe_signal).
		 */
		q->sent_sig = sig;
		syscall(SYS_tgkill, q->tgid, q->tid, sig);
	}
	utrace__pe_set_syscalls(q);
	while (q->npend) {
		struct pe_stop s = q->pend[0];

		memmove(q->pend, q->pend + 1, --q->npend * sizeof(q->pend[0]));
		if (s.kind == PK_SYSCALL_EXIT && mode != PM_SYSCALL)
			continue;
		utrace__pe_publish(q, &s);
		return;
	}
	if (!q->e)
		return;
	st = utrace__engine_stop(q->e);
	if (st == STOP_GROUP && mode != PM_LISTEN && !detach) {
		/*
		 * Restarted from a group stop other than by PTRACE_LISTEN:
		 * the kernel lets the tracee run although its process stays
		 * stopped, whichever trap its tracer saw there (the group
		 * stop's, a PTRACE_INTERRUPT or PTRACE_SEIZE trap, the
		 * SIGSTOP of PTRACE_ATTACH).  The library would keep the
		 * group stop (PTRACE_LISTEN): it restarts this thread as from
		 * a trap.  Not when its tracer lets it go: the kernel puts a
		 * tracee detached while its process is stopped back in the
		 * group stop (__ptrace_unlink), so there it stays.
		 */
		utrace__engine_leave_group_stop(q->e);
		st = STOP_INTERRUPT;
	}
	if (mode == PM_LISTEN && st != STOP_GROUP && !q->grp_sig) {
		/*
		 * PTRACE_LISTEN at a trap while its process is not stopped
		 * (a PTRACE_INTERRUPT's): the kernel leaves the tracee in
		 * its trap, listening, not waitable, until PTRACE_INTERRUPT
		 * re-traps it.  The engine's stop stays: it never runs.
		 * (While the process is stopped, the library's group stop
		 * is where SIGCONT is seen: the restart below goes there.)
		 */
		return;
	}
	if (q->inject || q->want_attach_stop)
		act = UTRACE_INTERRUPT;	/* the signal, or ATTACH's SIGSTOP */
	else if (st == STOP_SYSCALL_ENTRY)
		act = UTRACE_REPORT;	/* the entry pass again: its own ptrace,
					   PTRACE_SYSEMU's skip, the step */
	else
		act = utrace__pe_step_act(q);
	utrace_control(q->e, act);
}

/* Resume a tracee from its inner stop (PTRACE_CONT & co). */
void utrace__pe_resume(struct pe_thread *q, enum pe_mode mode, int sig)
{
	run_on(q, mode, sig, false);
}

/* The inner tracer lets go (PTRACE_DETACH, or it died). */
void utrace__pe_detach(struct pe_thread *q, int sig)
{
	bool was = q->stopped;

	/*
	 * Let run out of a group stop its process is still in: the kernel
	 * puts it back there (__ptrace_unlink), after the parting signal's
	 * handler frame is set up, before it runs.
	 */
	if (q->grp_sig && q->e)
		utrace__engine_regroup(q->e);
	if (was) {
		q->npend = 0;
		run_on(q, PM_CONT, sig, true);
	}
	utrace__pe_forget_tracer(q);
	if (!was && q->e)
		utrace_control(q->e, UTRACE_RESUME);
	if (q->dead)
		utrace__pe_maybe_free(q);
}
