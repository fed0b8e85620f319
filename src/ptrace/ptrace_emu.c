// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ptrace as an engine: a traced program may itself use ptrace(2) and the
 * wait family on threads this tracer traces.  Linux gives a thread one
 * ptracer, and that is us; so an engine of ours (utrace_emulate_ptrace,
 * one per traced thread) performs those calls for the program, as the
 * kernel's ptrace-on-utrace did.  See utrace(7), "ptrace as an engine".
 *
 * Vocabulary: the "inner tracer" is the traced program calling ptrace; its
 * "inner tracees" are threads we trace that it has attached.  An inner
 * tracee's ptrace stop is this engine's UTRACE_STOP vote plus a record (its
 * wait status, siginfo, event message) that the inner tracer's emulated
 * wait returns; its PTRACE_CONT & co become utrace_control calls.  The
 * inner tracer's ptrace, wait4 and waitid are handled at syscall entry and
 * aborted with the emulated result (UTRACE_SYSCALL_ABORT), its results
 * written into its memory; a blocking wait with nothing to report is held
 * at its entry until something comes.  Whatever is not ours to emulate
 * (a process this tracer does not trace, waits for real children) is left
 * to the kernel.
 *
 * State lives on the tracer (the layer's data, pe_layer): every traced
 * thread with the engine
 * has a struct pe_thread, kept after the thread is gone while its inner
 * tracer has not yet collected its death.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sched.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/elf.h>

#include "core/internal.h"

#ifndef PTRACE_EVENTMSG_SYSCALL_ENTRY
#define PTRACE_EVENTMSG_SYSCALL_ENTRY	1
#define PTRACE_EVENTMSG_SYSCALL_EXIT	2
#endif
#ifndef PTRACE_SYSEMU
#define PTRACE_SYSEMU			31
#define PTRACE_SYSEMU_SINGLESTEP	32
#endif
#ifndef __WNOTHREAD
#define __WNOTHREAD	0x20000000
#endif

/* What the options mean (the kernel's PTRACE_O_MASK on x86_64). */
#define PE_O_MASK	(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK | \
			 PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | \
			 PTRACE_O_TRACEEXEC | PTRACE_O_TRACEVFORKDONE | \
			 PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL | \
			 PTRACE_O_TRACESECCOMP | PTRACE_O_SUSPEND_SECCOMP)

/* Kinds of inner stops. */
enum pe_kind {
	PK_NONE,
	PK_SIGNAL,		/* signal-delivery stop */
	PK_SYSCALL_ENTRY,
	PK_SYSCALL_EXIT,
	PK_EVENT,		/* PTRACE_EVENT_* (incl. EVENT_STOP) */
	PK_GROUP,		/* group stop (non-seized: plain stop status) */
	PK_STEP,		/* single-step trap: a SIGTRAP signal stop */
	PK_SECCOMP,		/* PTRACE_EVENT_SECCOMP */
	PK_DEATH,		/* the thread died: its wait status */
};

struct pe_stop {
	enum pe_kind kind;
	int status;			/* the wait status */
	bool has_si;			/* GETSIGINFO works (not a group stop) */
	siginfo_t si;
	unsigned long msg;		/* GETEVENTMSG */
	uint32_t arch;
	bool regs_valid;		/* snapshot for deferred stops */
	struct user_regs_struct regs;
};

/* How the inner tracer last let the tracee run. */
enum pe_mode { PM_CONT, PM_SYSCALL, PM_STEP, PM_LISTEN, PM_SYSEMU,
	       PM_SYSEMU_STEP };

/* Where the thread's current syscall is, on the inner tracer's side. */
enum pe_sys {
	PS_NONE,
	PS_ENTRY_STOP,		/* published as an inner syscall-entry stop */
	PS_DONE,		/* emulated: aborted with our result */
	PS_SLEEP,		/* a blocking wait turned into pause() */
	PS_REAL,		/* passed to the kernel */
};

#define PE_NPEND 4

struct pe_thread {
	struct pe *pe;
	struct pe_thread *next;		/* all of them */
	struct utrace_engine *e;	/* NULL once reaped */
	pid_t tid, tgid;
	bool dead;
	/* as an inner tracee */
	struct pe_thread *tracer;	/* the inner tracer's thread, or NULL */
	pid_t tracer_tgid;
	bool seized;
	long opts;
	enum pe_mode mode;
	bool stopped;			/* in an inner stop */
	bool waitable;			/* ...not yet returned by a wait */
	bool physical;			/* ...and held by us at it */
	struct pe_stop cur;
	struct pe_stop pend[PE_NPEND];	/* stops due after this one */
	unsigned npend;
	bool want_interrupt;		/* PTRACE_INTERRUPT: EVENT_STOP */
	bool want_attach_stop;		/* PTRACE_ATTACH: a SIGSTOP stop */
	bool exec_trap;			/* non-seized exec: SIGTRAP after it */
	bool inject;			/* deliver inj at the next report */
	siginfo_t inj;
	bool real_child;		/* its death is the real parent's */
	bool leader_wait;		/* a leader dead before its group */
	bool replaced;			/* a leader whose tid an exec took */
	bool parent_is_tracer;		/* its real parent is its inner tracer */
	int stop_sig;			/* last stop signal delivered */
	int grp_sig;			/* its process is in a group stop */
	bool cont_trapped;		/* SIGCONT's EVENT_STOP made already */
	bool emu_skip;			/* PTRACE_SYSEMU: this syscall skipped */
	long emu_nr;			/* ...its number (orig_rax after) */
	struct rusage death_ru;		/* its usage, read at its death */
	/* as an inner tracer's process (its leader's record) */
	bool chld_pending;		/* our SIGCHLD sent, not yet delivered */
	siginfo_t chld_si;		/* ...and what the kernel's would say */
	bool all_syscalls;		/* our syscall set is "all" */
	bool exit_watch;		/* ...until this syscall's exit */
	/* as an inner tracer */
	enum pe_sys sys;
	bool fix_echild;		/* WNOHANG passed on, tracees of ours */
	long wait_nr;
	uint64_t wait_info;		/* waitid's infop */
	struct user_regs_struct wait_regs;	/* PS_SLEEP: the wait call */
};

struct pe {
	struct utrace_tracer *t;
	struct pe_thread *threads;
};

/* pause: what a blocking wait becomes while nothing is there to report */
static const long base_nrs[] = { SYS_ptrace, SYS_wait4, SYS_waitid,
				 SYS_pause };
#define BASE_EVENTS (UTRACE_EVENT(QUIESCE) | UTRACE_EVENT_SYSCALL | \
		     UTRACE_EVENT(CLONE) | UTRACE_EVENT(DEATH) | \
		     UTRACE_EVENT(REAP) | UTRACE_EVENT_SIGNAL_ALL | \
		     UTRACE_EVENT(JCTL))
#define TRACEE_EVENTS (BASE_EVENTS | UTRACE_EVENT(EXEC))

static const struct utrace_engine_ops pe_ops;

/* -- Table ------------------------------------------------------------------ */

static struct pe_thread *pe_find(struct pe *pe, pid_t tid)
{
	for (struct pe_thread *p = pe->threads; p; p = p->next)
		if (p->tid == tid && !p->dead)
			return p;
	return NULL;
}

/* Any record of tid, also a dead one whose death waits to be collected. */
static struct pe_thread *pe_find_any(struct pe *pe, pid_t tid)
{
	struct pe_thread *p = pe_find(pe, tid);

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
static void pe_maybe_free(struct pe_thread *p)
{
	if (p->e || (p->tracer && (p->waitable || p->leader_wait)))
		return;
	for (struct pe_thread *q = p->pe->threads; q; q = q->next)
		if (q->tracer == p)
			q->tracer = NULL;
	pe_unlink(p);
}

/* -- Small helpers ------------------------------------------------------------ */

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
static uint32_t step_act(struct pe_thread *p)
{
	if (p->mode == PM_STEP)
		return UTRACE_SINGLESTEP;
	if (p->mode == PM_SYSEMU_STEP)
		return at_syscall_insn(p) ? UTRACE_RESUME : UTRACE_SINGLESTEP;
	return UTRACE_RESUME;
}

static bool stepping(const struct pe_thread *p)
{
	return p->mode == PM_STEP || p->mode == PM_SYSEMU_STEP;
}

/* The vote of a tracee that runs on: keep stepping if it was told to. */
static uint32_t run_vote(struct pe_thread *p, uint32_t action)
{
	uint32_t r = action & ~UTRACE_RESUME_MASK;

	if (p->tracer && !p->stopped && stepping(p))
		return r | step_act(p);
	return r | UTRACE_RESUME;
}

static pid_t proc_pgid(pid_t tid)
{
	pid_t g = getpgid(tid);

	return g < 0 ? 0 : g;
}

static uid_t proc_uid(pid_t tid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", tid);
	return stat(path, &st) ? 0 : st.st_uid;
}

/*
 * A process's resource usage as wait4 reports it (the process and its
 * waited-for children), from /proc/PID/stat and status: times and page
 * faults exactly, in clock ticks; ru_maxrss from VmHWM.  False when gone.
 */
static bool proc_rusage(pid_t pid, struct rusage *ru)
{
	char path[64], buf[2048], *p;
	unsigned long minflt, cminflt, majflt, cmajflt, ut, st;
	long cut, cst, hz = sysconf(_SC_CLK_TCK);
	const char *v;
	FILE *f;
	size_t n;

	memset(ru, 0, sizeof(*ru));
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %lu %lu %lu %lu "
			 "%lu %lu %ld %ld", &minflt, &cminflt, &majflt,
			 &cmajflt, &ut, &st, &cut, &cst) != 8)
		return false;
	if (hz <= 0)
		hz = 100;
	ut += cut;
	st += cst;
	ru->ru_utime.tv_sec = ut / hz;
	ru->ru_utime.tv_usec = (ut % hz) * (1000000 / hz);
	ru->ru_stime.tv_sec = st / hz;
	ru->ru_stime.tv_usec = (st % hz) * (1000000 / hz);
	ru->ru_minflt = minflt + cminflt;
	ru->ru_majflt = majflt + cmajflt;
	if (utrace__proc_status(pid, buf, sizeof(buf)) &&
	    (v = utrace__proc_field(buf, "VmHWM")))
		ru->ru_maxrss = atol(v);
	return true;
}

/* utime and stime of a thread's process in clock ticks, as in SIGCHLD. */
static void proc_times(pid_t pid, siginfo_t *si)
{
	struct rusage ru;
	long hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0)
		hz = 100;
	if (!proc_rusage(pid, &ru))
		return;
	si->si_utime = ru.ru_utime.tv_sec * hz +
		       ru.ru_utime.tv_usec / (1000000 / hz);
	si->si_stime = ru.ru_stime.tv_sec * hz +
		       ru.ru_stime.tv_usec / (1000000 / hz);
}

/* The library's thread behind an engine, when it sits in a ptrace stop. */
static struct uthread *stopped_th(struct pe_thread *p)
{
	struct uthread *th = p->e ? p->e->th : NULL;

	return th && th->state == TH_STOPPED && !th->dead ? th : NULL;
}

static void set_syscalls(struct pe_thread *p)
{
	bool all = p->exit_watch ||
		   (p->tracer && (p->mode == PM_SYSCALL ||
				  p->mode == PM_SYSEMU ||
				  p->mode == PM_SYSEMU_STEP ||
				  (p->opts & PTRACE_O_TRACEVFORKDONE)));

	if (!p->e || all == p->all_syscalls)
		return;
	p->all_syscalls = all;
	if (all)
		utrace_set_syscalls(p->e, NULL, 0);
	else
		utrace_set_syscalls(p->e, base_nrs,
				    sizeof(base_nrs) / sizeof(base_nrs[0]));
}

static void set_events(struct pe_thread *p)
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
	set_syscalls(p);
}

/*
 * Its process is in a group stop (@sig), or no longer (0): the kernel's
 * SIGNAL_STOP_STOPPED, which makes a seized tracee's PTRACE_INTERRUPT trap
 * report the stop signal rather than SIGTRAP.
 */
static void set_group_stop(struct pe *pe, pid_t tgid, int sig)
{
	for (struct pe_thread *q = pe->threads; q; q = q->next)
		if (q->tgid == tgid && !q->dead)
			q->grp_sig = sig;
}

/* -- Waking the inner tracer ----------------------------------------------------- */

/*
 * Something its wait may return has happened for a thread of process
 * @tgid's: a sleeping wait is interrupted and looks again at its exit; a
 * wait left to the kernel is interrupted too (it restarts, and we see it
 * again at its entry).
 */
static void wake_waiters(struct pe *pe, pid_t tgid, bool emulated)
{
	for (struct pe_thread *w = pe->threads; w; w = w->next) {
		if (w->dead || !w->e || w->tgid != tgid)
			continue;
		if (w->sys == PS_SLEEP ||
		    (w->sys == PS_REAL && emulated && w->wait_nr))
			utrace_control(w->e, UTRACE_INTERRUPT);
	}
}

/*
 * As the kernel: the tracer's process gets SIGCHLD.  The kernel refuses a
 * siginfo with si_code > 0 (CLD_TRAPPED...) from another process, so we
 * send a plain one (SI_USER, our pid) and rewrite it at its delivery
 * (pe_signal), where a ptracer may set any siginfo: the first one sent
 * while it is pending, since a pending SIGCHLD does not queue twice.
 */
static void notify_tracer(struct pe_thread *q)
{
	struct pe_thread *lead;
	int st = q->cur.status;

	if (!q->tracer_tgid)
		return;
	lead = pe_find(q->pe, q->tracer_tgid);
	if (lead && !lead->chld_pending) {
		siginfo_t *si = &lead->chld_si;

		memset(si, 0, sizeof(*si));
		si->si_signo = SIGCHLD;
		si->si_pid = q->tid;
		si->si_uid = proc_uid(q->tid);
		if (q->cur.kind == PK_DEATH && WIFEXITED(st)) {
			si->si_code = CLD_EXITED;
			si->si_status = WEXITSTATUS(st);
		} else if (q->cur.kind == PK_DEATH) {
			si->si_code = WCOREDUMP(st) ? CLD_DUMPED : CLD_KILLED;
			si->si_status = WTERMSIG(st);
		} else {
			si->si_code = CLD_TRAPPED;
			si->si_status = (st >> 8) & 0x7f;
		}
		if (q->cur.kind == PK_DEATH) {
			long hz = sysconf(_SC_CLK_TCK) > 0 ?
				  sysconf(_SC_CLK_TCK) : 100;
			const struct rusage *ru = &q->death_ru;

			si->si_utime = ru->ru_utime.tv_sec * hz +
				       ru->ru_utime.tv_usec / (1000000 / hz);
			si->si_stime = ru->ru_stime.tv_sec * hz +
				       ru->ru_stime.tv_usec / (1000000 / hz);
		} else {
			proc_times(q->tgid, si);
		}
		lead->chld_pending = true;
	}
	syscall(SYS_kill, q->tracer_tgid, SIGCHLD);
	wake_waiters(q->pe, q->tracer_tgid, true);
}

/* A SIGCHLD for a thread of ours: ours made exact (see notify_tracer). */
static void chld_deliver(struct pe_thread *p, siginfo_t *info)
{
	struct pe_thread *lead = pe_find(p->pe, p->tgid);

	if (!lead || !lead->chld_pending)
		return;
	lead->chld_pending = false;
	if (info->si_code == SI_USER && info->si_pid == getpid())
		*info = lead->chld_si;
}

/* -- Inner stops ---------------------------------------------------------------------- */

static void trap_info(siginfo_t *si, pid_t tid, int code)
{
	memset(si, 0, sizeof(*si));
	si->si_signo = SIGTRAP;
	si->si_code = code;
	si->si_pid = tid;
	si->si_uid = getuid();
}

static void stop_signal(struct pe_stop *s, const siginfo_t *info)
{
	memset(s, 0, sizeof(*s));
	s->kind = PK_SIGNAL;
	s->status = (info->si_signo << 8) | 0x7f;
	s->has_si = true;
	s->si = *info;
}

static void stop_event(struct pe_stop *s, struct pe_thread *q, int event,
		       int sig, unsigned long msg)
{
	int code = sig | (event << 8);

	memset(s, 0, sizeof(*s));
	s->kind = PK_EVENT;
	s->status = (code << 8) | 0x7f;
	s->has_si = true;
	trap_info(&s->si, q->tid, code);
	s->si.si_signo = sig;
	s->msg = msg;
}

static void stop_syscall(struct pe_stop *s, struct pe_thread *q, bool entry)
{
	int code = SIGTRAP | (q->opts & PTRACE_O_TRACESYSGOOD ? 0x80 : 0);
	struct utrace_syscall sc;

	memset(s, 0, sizeof(*s));
	s->kind = entry ? PK_SYSCALL_ENTRY : PK_SYSCALL_EXIT;
	s->status = (code << 8) | 0x7f;
	s->has_si = true;
	trap_info(&s->si, q->tid, code);
	s->msg = entry ? PTRACE_EVENTMSG_SYSCALL_ENTRY :
			 PTRACE_EVENTMSG_SYSCALL_EXIT;
	s->arch = AUDIT_ARCH_X86_64;
	if (q->e && utrace_syscall_get(q->e, &sc) == 0 && sc.arch)
		s->arch = sc.arch;
}

/* The initial stop of a tracee that was attached or auto-attached. */
static void stop_initial(struct pe_stop *s, struct pe_thread *q)
{
	siginfo_t si;

	if (q->seized) {
		stop_event(s, q, PTRACE_EVENT_STOP, SIGTRAP, 0);
		return;
	}
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGSTOP;
	si.si_code = SI_USER;
	stop_signal(s, &si);
}

/* Registers for stops taken in the middle of a syscall (clone, exec). */
static void snapshot(struct pe_stop *s, struct pe_thread *q)
{
	s->regs_valid = q->e && utrace_regs_get(q->e, &s->regs) == 0;
}

/*
 * An event stop in the middle of a syscall (exec, clone): the library
 * holds the thread at the syscall's exit, whose pass comes to us only if
 * we watch that syscall; watched, pe_exit queues the exit stop that
 * PTRACE_SYSCALL from the event stop gives.
 */
static void exit_after_event(struct pe_thread *q)
{
	struct uthread *th = q->e ? q->e->th : NULL;

	if (!th || q->all_syscalls || (th->stop != STOP_EXEC &&
					th->stop != STOP_CLONE))
		return;
	q->exit_watch = true;
	set_syscalls(q);
}

/* Make @s the tracee's current inner stop and tell its tracer. */
static void publish(struct pe_thread *q, const struct pe_stop *s)
{
	q->cur = *s;
	q->stopped = true;
	q->waitable = true;
	notify_tracer(q);
}

/* Publish now, or after the stop in progress when there is one. */
static void publish_or_queue(struct pe_thread *q, const struct pe_stop *s)
{
	if (!q->stopped) {
		publish(q, s);
		return;
	}
	if (q->npend < PE_NPEND)
		q->pend[q->npend++] = *s;
}

/* -- Letting a tracee go ------------------------------------------------------------ */

static void forget_tracer(struct pe_thread *q)
{
	q->tracer = NULL;
	q->tracer_tgid = 0;
	q->parent_is_tracer = false;
	q->stopped = q->waitable = false;
	q->npend = 0;
	q->want_interrupt = q->want_attach_stop = q->exec_trap = false;
	q->seized = false;
	q->opts = 0;
	q->mode = PM_CONT;
	set_events(q);
}

/*
 * Resume a tracee from its inner stop: with @sig delivered at a signal
 * stop, by @mode.  The next queued stop, if any, is published at once.
 */
static void resume(struct pe_thread *q, enum pe_mode mode, int sig)
{
	enum pe_kind was = q->cur.kind;
	struct uthread *th;
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
			q->inj.si_uid = getuid();
		}
		q->inject = true;
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
		    sig == SIGTTOU)
			q->stop_sig = sig;
	}
	set_syscalls(q);
	while (q->npend) {
		struct pe_stop s = q->pend[0];

		memmove(q->pend, q->pend + 1, --q->npend * sizeof(q->pend[0]));
		if (s.kind == PK_SYSCALL_EXIT && mode != PM_SYSCALL)
			continue;
		publish(q, &s);
		return;
	}
	if (!q->e)
		return;
	th = stopped_th(q);
	if (th && th->stop == STOP_GROUP && mode != PM_LISTEN &&
	    was == PK_GROUP) {
		/*
		 * Restarted from a group stop other than by PTRACE_LISTEN:
		 * the kernel lets the tracee run although its process stays
		 * stopped.  The library would keep the group stop
		 * (PTRACE_LISTEN): it restarts this thread as from a trap.
		 */
		th->stop = STOP_INTERRUPT;
		th->in_group_stop = false;
	}
	if (q->inject)
		act = UTRACE_INTERRUPT;
	else if (th && th->stop == STOP_SYSCALL_ENTRY)
		act = UTRACE_REPORT;	/* the entry pass again: its own ptrace,
					   PTRACE_SYSEMU's skip, the step */
	else
		act = step_act(q);
	utrace_control(q->e, act);
}

/* The inner tracer lets go (PTRACE_DETACH, or it died). */
static void detach(struct pe_thread *q, int sig)
{
	bool was = q->stopped;

	if (was) {
		q->npend = 0;
		resume(q, PM_CONT, sig);
	}
	forget_tracer(q);
	if (!was && q->e)
		utrace_control(q->e, UTRACE_RESUME);
	if (q->dead)
		pe_maybe_free(q);
}

/* -- The inner tracer's ptrace --------------------------------------------------------- */

struct preq {
	struct pe_thread *p;		/* the caller */
	long req;
	pid_t pid;
	uint64_t addr, data;
};

/*
 * The inner tracer's memory, as the kernel's copies to and from user
 * memory see it: process_vm_writev/readv respect the page protections (a
 * read-only buffer is EFAULT), where utrace_mem_write would go through
 * /proc/PID/mem and write it anyway.  Only when those calls are refused
 * altogether is the library's access used.
 */
static long user_xfer(struct pe_thread *p, uint64_t addr, void *buf,
		      size_t len, bool write)
{
	struct iovec local = { buf, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };
	ssize_t n;

	if (!len)
		return 0;
	n = write ? process_vm_writev(p->tid, &local, 1, &remote, 1, 0) :
		    process_vm_readv(p->tid, &local, 1, &remote, 1, 0);
	if (n == (ssize_t)len)
		return 0;
	if (n >= 0 || errno == EFAULT)
		return -EFAULT;
	n = write ? utrace_mem_write(p->e, addr, buf, len) :
		    utrace_mem_read(p->e, addr, buf, len);
	return n == (ssize_t)len ? 0 : -EFAULT;
}

static long put(struct pe_thread *p, uint64_t addr, const void *buf,
		size_t len)
{
	return user_xfer(p, addr, (void *)buf, len, true);
}

static long get(struct pe_thread *p, uint64_t addr, void *buf, size_t len)
{
	return user_xfer(p, addr, buf, len, false);
}

static int regs_of(struct pe_thread *q, struct user_regs_struct *r)
{
	int err = q->e ? utrace_regs_get(q->e, r) : -ESRCH;

	if (err && q->cur.regs_valid) {
		*r = q->cur.regs;
		return 0;
	}
	return err;
}

/*
 * The kernel's struct user on x86_64 ends with error_code and
 * fault_address after u_debugreg[8]; glibc's copy stops before them.
 */
#define PE_USER_SIZE	(offsetof(struct user, u_debugreg) + 10 * 8)
#define PE_DR(n)	(offsetof(struct user, u_debugreg) + (n) * 8)

/*
 * Write the library's registers of a held thread now if they changed, and
 * forget them: a request that the real ptrace performs comes next.
 */
static struct uthread *raw_regs(struct pe_thread *q)
{
	struct uthread *th = stopped_th(q);

	if (!th)
		return NULL;
	if (th->regs_dirty)
		ptrace(PTRACE_SETREGS, th->tid, 0L, &th->regs);
	th->regs_dirty = th->regs_valid = false;
	return th;
}

static long do_peekuser(struct preq *r, struct pe_thread *q)
{
	struct user_regs_struct regs;
	unsigned long off = r->addr, word = 0;

	if (off & 7 || off >= PE_USER_SIZE)
		return -EIO;
	if (off < sizeof(regs)) {
		if (regs_of(q, &regs))
			return -ESRCH;
		memcpy(&word, (char *)&regs + off, 8);
	} else if (off >= PE_DR(0) && off <= PE_DR(7)) {
		/* As the kernel: 0 for DR4, DR5 and the rest of the area. */
		if (!stopped_th(q))
			return -ESRCH;
		errno = 0;
		word = (unsigned long)ptrace(PTRACE_PEEKUSER, q->tid,
					     (void *)off, 0L);
		if (errno)
			return -errno;
	}
	return put(r->p, r->data, &word, 8);
}

/* Selectors and bases: the kernel checks them (EIO), the real POKEUSER. */
static bool seg_off(unsigned long off)
{
	return off == offsetof(struct user_regs_struct, cs) ||
	       off == offsetof(struct user_regs_struct, ss) ||
	       off >= offsetof(struct user_regs_struct, fs_base);
}

static long do_pokeuser(struct preq *r, struct pe_thread *q)
{
	struct user_regs_struct regs;
	unsigned long off = r->addr;

	if (off & 7 || off >= PE_USER_SIZE)
		return -EIO;
	if (off < sizeof(regs) && !(seg_off(off) && stopped_th(q))) {
		if (!q->e || utrace_regs_get(q->e, &regs))
			return -ESRCH;
		memcpy((char *)&regs + off, &r->data, 8);
		return utrace_regs_set(q->e, &regs) ? -ESRCH : 0;
	}
	if (off < sizeof(regs) || (off >= PE_DR(0) && off <= PE_DR(7))) {
		if (!raw_regs(q))
			return -ESRCH;
		if (ptrace(PTRACE_POKEUSER, q->tid, (void *)off,
			   (void *)r->data) < 0)
			return -errno;
		return 0;
	}
	return -EIO;	/* as the kernel: the rest of the area is not written */
}

/* Requests on state the library does not keep: the real ptrace, here. */
static long raw_out(struct preq *r, struct pe_thread *q, long req, long addr,
		    size_t len)
{
	char buf[1024];

	if (len > sizeof(buf) || !stopped_th(q))
		return -ESRCH;
	memset(buf, 0, len);
	if (ptrace(req, q->tid, (void *)addr, buf) < 0)
		return -errno;
	return put(r->p, r->data, buf, len);
}

static long raw_in(struct preq *r, struct pe_thread *q, long req, long addr,
		   size_t len)
{
	char buf[1024];
	long err;

	if (len > sizeof(buf) || !stopped_th(q))
		return -ESRCH;
	err = get(r->p, r->data, buf, len);
	if (err)
		return err;
	if (ptrace(req, q->tid, (void *)addr, buf) < 0)
		return -errno;
	return 0;
}

static long do_regset(struct preq *r, struct pe_thread *q, bool set)
{
	struct iovec iov, local;
	struct user_regs_struct regs;
	char *buf;
	long err;

	if (get(r->p, r->data, &iov, sizeof(iov)))
		return -EFAULT;
	if (r->addr == NT_PRSTATUS) {
		size_t n = iov.iov_len < sizeof(regs) ? iov.iov_len :
			   sizeof(regs);

		if (regs_of(q, &regs))
			return -ESRCH;
		if (set) {
			if (get(r->p, (uint64_t)(uintptr_t)iov.iov_base, &regs,
				n))
				return -EFAULT;
			if (!q->e || utrace_regs_set(q->e, &regs))
				return -ESRCH;
		} else if (put(r->p, (uint64_t)(uintptr_t)iov.iov_base, &regs,
			       n)) {
			return -EFAULT;
		}
		iov.iov_len = n;
		return put(r->p, r->data, &iov, sizeof(iov));
	}
	if (!stopped_th(q))
		return -ESRCH;
	if (iov.iov_len > 65536)
		iov.iov_len = 65536;
	buf = calloc(1, iov.iov_len ? iov.iov_len : 1);
	if (!buf)
		return -ENOMEM;
	local.iov_base = buf;
	local.iov_len = iov.iov_len;
	err = 0;
	if (set && get(r->p, (uint64_t)(uintptr_t)iov.iov_base, buf,
		       iov.iov_len))
		err = -EFAULT;
	if (!err && ptrace(set ? PTRACE_SETREGSET : PTRACE_GETREGSET, q->tid,
			   (void *)r->addr, &local) < 0)
		err = -errno;
	if (!err && !set && put(r->p, (uint64_t)(uintptr_t)iov.iov_base, buf,
				local.iov_len))
		err = -EFAULT;
	free(buf);
	if (err)
		return err;
	iov.iov_len = local.iov_len;
	return put(r->p, r->data, &iov, sizeof(iov));
}

static long do_syscall_info(struct preq *r, struct pe_thread *q)
{
	struct ptrace_syscall_info in;
	struct user_regs_struct regs;
	unsigned long size;

	if (regs_of(q, &regs))
		return -ESRCH;
	memset(&in, 0, sizeof(in));
	in.op = PTRACE_SYSCALL_INFO_NONE;
	in.arch = q->cur.arch ? q->cur.arch : AUDIT_ARCH_X86_64;
	in.instruction_pointer = regs.rip;
	in.stack_pointer = regs.rsp;
	size = offsetof(struct ptrace_syscall_info, entry);
	/*
	 * As the kernel, by the stop's si_code: a syscall stop without
	 * PTRACE_O_TRACESYSGOOD gives PTRACE_SYSCALL_INFO_NONE.
	 */
	if (q->cur.kind == PK_SYSCALL_ENTRY &&
	    q->cur.si.si_code == (SIGTRAP | 0x80)) {
		in.op = PTRACE_SYSCALL_INFO_ENTRY;
		in.entry.nr = regs.orig_rax;
		in.entry.args[0] = regs.rdi;
		in.entry.args[1] = regs.rsi;
		in.entry.args[2] = regs.rdx;
		in.entry.args[3] = regs.r10;
		in.entry.args[4] = regs.r8;
		in.entry.args[5] = regs.r9;
		size = offsetof(struct ptrace_syscall_info, entry.args) +
		       sizeof(in.entry.args);
	} else if (q->cur.kind == PK_SECCOMP) {
		in.op = PTRACE_SYSCALL_INFO_SECCOMP;
		in.seccomp.nr = regs.orig_rax;
		in.seccomp.args[0] = regs.rdi;
		in.seccomp.args[1] = regs.rsi;
		in.seccomp.args[2] = regs.rdx;
		in.seccomp.args[3] = regs.r10;
		in.seccomp.args[4] = regs.r8;
		in.seccomp.args[5] = regs.r9;
		in.seccomp.ret_data = (uint32_t)q->cur.msg;
		size = offsetof(struct ptrace_syscall_info, seccomp.ret_data) +
		       sizeof(in.seccomp.ret_data);
	} else if (q->cur.kind == PK_SYSCALL_EXIT &&
		   q->cur.si.si_code == (SIGTRAP | 0x80)) {
		in.op = PTRACE_SYSCALL_INFO_EXIT;
		in.exit.rval = (long)regs.rax;
		in.exit.is_error = regs.rax >= (unsigned long)-4095;
		size = offsetof(struct ptrace_syscall_info, exit.is_error) +
		       sizeof(in.exit.is_error);
	}
	if (put(r->p, r->data, &in, r->addr < size ? r->addr : size))
		return -EFAULT;
	return (long)size;
}

static bool valid_sig(uint64_t sig)
{
	return sig <= 64;
}

/*
 * A trace link is made: from now on the loop's waits collect the usage
 * that comes with each stop (UTRACE_TRACER_RUSAGE), for the inner
 * tracer's wait4 (wait_report); a thread stops first after this.
 */
static void trace_link(struct pe *pe)
{
	struct utrace_tracer *t = pe->t;

	if (!(atomic_load(&t->options) & UTRACE_TRACER_RUSAGE))
		atomic_fetch_or(&t->options, UTRACE_TRACER_RUSAGE);
}

/* TRACEME: the caller's real parent becomes its inner tracer. */
static long do_traceme(struct pe_thread *p)
{
	pid_t ppid = utrace__proc_ppid(p->tgid);
	struct pe_thread *t = ppid > 0 ? pe_find(p->pe, ppid) : NULL;

	if (p->tracer || !t)
		return -EPERM;	/* as the kernel: already traced */
	p->tracer = t;
	p->tracer_tgid = t->tgid;
	p->parent_is_tracer = true;
	p->seized = false;
	p->opts = 0;
	p->mode = PM_CONT;
	set_events(p);
	trace_link(p->pe);
	return 0;
}

static long do_attach(struct preq *r, struct pe_thread *q, bool seize)
{
	struct pe_thread *p = r->p;
	struct uthread *th;

	if (seize && (r->addr || (r->data & ~(uint64_t)PE_O_MASK)))
		return -EIO;
	if (q->tracer || q->tgid == p->tgid)
		return -EPERM;
	if (seize && (r->data & PTRACE_O_SUSPEND_SECCOMP))
		return -EINVAL;	/* not emulated: see utrace(7) */
	q->tracer = p;
	q->tracer_tgid = p->tgid;
	/* Known now: at its death the zombie may be reaped before we look. */
	q->parent_is_tracer = utrace__proc_ppid(q->tgid) == p->tgid;
	q->seized = seize;
	q->opts = seize ? (long)r->data : 0;
	q->mode = PM_CONT;
	q->stopped = q->waitable = false;
	q->npend = 0;
	set_events(q);
	trace_link(p->pe);
	th = q->e ? q->e->th : NULL;
	if (seize) {
		/* A thread in a group stop traps into it for its new tracer. */
		if (th && th->in_group_stop) {
			struct pe_stop s;

			stop_event(&s, q, PTRACE_EVENT_STOP,
				   q->stop_sig ? q->stop_sig : SIGSTOP, 0);
			/* A group stop: a restart but LISTEN lets it run. */
			s.kind = PK_GROUP;
			utrace_control(q->e, UTRACE_STOP);
			publish(q, &s);
		}
		return 0;
	}
	/* ATTACH sends SIGSTOP: its delivery stop, made when it stops. */
	q->want_attach_stop = true;
	if (utrace_control(q->e, UTRACE_INTERRUPT) < 0)
		return -ESRCH;
	return 0;
}

/*
 * PTRACE_ARCH_PRCTL: data is the code, addr the value or where the answer
 * goes.  The kernel writes a "get" answer into its caller's memory, so
 * those are read here into ours and copied to the inner tracer; codes that
 * act on the caller itself (ARCH_MAP_VDSO_*) or that we do not know are
 * not passed on (EINVAL, the kernel's answer to an unknown code).
 */
static long do_arch_prctl(struct preq *r, struct pe_thread *q)
{
	unsigned long v = 0;

	switch (r->data) {
	case 0x1003: case 0x1004:	/* ARCH_GET_FS, ARCH_GET_GS */
	case 0x4001: case 0x4003:	/* ARCH_GET_UNTAG_MASK, _MAX_TAG_BITS */
	case 0x5005:			/* ARCH_SHSTK_STATUS */
		if (!stopped_th(q))
			return -ESRCH;
		if (ptrace(PTRACE_ARCH_PRCTL, q->tid, &v, (void *)r->data) < 0)
			return -errno;
		return put(r->p, r->addr, &v, sizeof(v));
	case 0x1001: case 0x1002:	/* ARCH_SET_GS, ARCH_SET_FS */
	case 0x4002: case 0x4004:	/* ARCH_ENABLE_TAGGED_ADDR, _FORCE_.. */
	case 0x5001: case 0x5002:	/* ARCH_SHSTK_ENABLE, _DISABLE */
	case 0x5003: case 0x5004:	/* ARCH_SHSTK_LOCK, _UNLOCK */
		if (!raw_regs(q))
			return -ESRCH;
		if (ptrace(PTRACE_ARCH_PRCTL, q->tid, (void *)r->addr,
			   (void *)r->data) < 0)
			return -errno;
		return 0;
	default:
		return -EINVAL;	/* ARCH_MAP_VDSO_*: see utrace(7) */
	}
}

/*
 * PTRACE_PEEKSIGINFO: the real one on the held thread, into our memory,
 * then copied out one siginfo at a time as the kernel copies them (a
 * count once some are written, EFAULT if none could be).
 */
static long do_peeksiginfo(struct preq *r, struct pe_thread *q)
{
	struct __ptrace_peeksiginfo_args a, b;
	siginfo_t buf[32];
	long done = 0, n;

	if (get(r->p, r->addr, &a, sizeof(a)))
		return -EFAULT;
	if ((a.flags & ~(uint32_t)PTRACE_PEEKSIGINFO_SHARED) || a.nr < 0)
		return -EINVAL;
	if (!stopped_th(q))
		return -ESRCH;
	while (done < a.nr) {
		b = a;
		b.off = a.off + (uint64_t)done;
		b.nr = a.nr - done < 32 ? (int32_t)(a.nr - done) : 32;
		n = ptrace(PTRACE_PEEKSIGINFO, q->tid, &b, buf);
		if (n < 0)
			return done ? done : -errno;
		for (long i = 0; i < n; i++, done++)
			if (put(r->p, r->data + (uint64_t)done * sizeof(buf[0]),
				&buf[i], sizeof(buf[0])))
				return done ? done : -EFAULT;
		if (n < b.nr)
			break;
	}
	return done;
}

/* do_ptrace: not ours, the kernel's (any count or -errno is a result). */
#define PE_KERNEL	LONG_MIN

/* Run the inner tracer's ptrace(2): the result, or PE_KERNEL. */
static long do_ptrace(struct preq *r)
{
	struct pe_thread *p = r->p, *q;
	unsigned long word;
	long err;

	if (r->req == PTRACE_TRACEME)
		return do_traceme(p);
	q = pe_find_any(p->pe, r->pid);
	if (!q)
		return PE_KERNEL;	/* not ours: the kernel's business */
	if (r->req == PTRACE_ATTACH || r->req == PTRACE_SEIZE)
		return q->dead ? -ESRCH : do_attach(r, q, r->req == PTRACE_SEIZE);
	if (!q->tracer || q->tracer_tgid != p->tgid)
		return -ESRCH;
	if (q->dead)
		return -ESRCH;
	/* Requests that do not need the tracee stopped. */
	switch (r->req) {
	case PTRACE_KILL:
		syscall(SYS_tgkill, q->tgid, q->tid, SIGKILL);
		return 0;
	case PTRACE_INTERRUPT:
		if (!q->seized)
			return -EIO;
		if (q->stopped && q->mode != PM_LISTEN)
			return 0;
		q->want_interrupt = true;
		if (q->e)
			utrace_control(q->e, UTRACE_INTERRUPT);
		return 0;
	default:
		break;
	}
	if (!q->stopped)
		return -ESRCH;
	switch (r->req) {
	case PTRACE_PEEKTEXT:
	case PTRACE_PEEKDATA:
		if (!q->e || utrace_mem_read(q->e, r->addr, &word, 8) != 8)
			return -EIO;
		return put(p, r->data, &word, 8);
	case PTRACE_POKETEXT:
	case PTRACE_POKEDATA:
		word = r->data;
		if (!q->e || utrace_mem_write(q->e, r->addr, &word, 8) != 8)
			return -EIO;
		return 0;
	case PTRACE_PEEKUSER:
		return do_peekuser(r, q);
	case PTRACE_POKEUSER:
		return do_pokeuser(r, q);
	case PTRACE_GETREGS: {
		struct user_regs_struct regs;

		if (regs_of(q, &regs))
			return -ESRCH;
		return put(p, r->data, &regs, sizeof(regs));
	}
	case PTRACE_SETREGS: {
		struct user_regs_struct regs;

		if (get(p, r->data, &regs, sizeof(regs)))
			return -EFAULT;
		return q->e && utrace_regs_set(q->e, &regs) == 0 ? 0 : -ESRCH;
	}
	case PTRACE_GETFPREGS:
		return raw_out(r, q, PTRACE_GETFPREGS, 0,
			       sizeof(struct user_fpregs_struct));
	case PTRACE_SETFPREGS:
		return raw_in(r, q, PTRACE_SETFPREGS, 0,
			      sizeof(struct user_fpregs_struct));
	case PTRACE_GETREGSET:
		return do_regset(r, q, false);
	case PTRACE_SETREGSET:
		return do_regset(r, q, true);
	case PTRACE_GETSIGMASK:
		if (r->addr != 8)
			return -EINVAL;
		return raw_out(r, q, PTRACE_GETSIGMASK, 8, 8);
	case PTRACE_SETSIGMASK:
		if (r->addr != 8)
			return -EINVAL;
		return raw_in(r, q, PTRACE_SETSIGMASK, 8, 8);
	case PTRACE_ARCH_PRCTL:
		return do_arch_prctl(r, q);
	case PTRACE_GETEVENTMSG:
		word = q->cur.msg;
		return put(p, r->data, &word, sizeof(word));
	case PTRACE_GETSIGINFO:
		if (!q->cur.has_si)
			return -EINVAL;
		return put(p, r->data, &q->cur.si, sizeof(q->cur.si));
	case PTRACE_SETSIGINFO:
		if (!q->cur.has_si)
			return -EINVAL;
		return get(p, r->data, &q->cur.si, sizeof(q->cur.si));
	case PTRACE_SETOPTIONS:
		if (r->data & ~(uint64_t)PE_O_MASK)
			return -EINVAL;
		if (r->data & PTRACE_O_SUSPEND_SECCOMP)
			return -EINVAL;
		q->opts = (long)r->data;
		set_events(q);
		return 0;
	case PTRACE_GET_SYSCALL_INFO:
		return do_syscall_info(r, q);
	case PTRACE_PEEKSIGINFO:
		return do_peeksiginfo(r, q);
	case PTRACE_CONT:
	case PTRACE_SYSCALL:
	case PTRACE_SINGLESTEP:
	case PTRACE_SINGLEBLOCK:
		if (!valid_sig(r->data))
			return -EIO;
		resume(q, r->req == PTRACE_SYSCALL ? PM_SYSCALL :
			  r->req == PTRACE_CONT ? PM_CONT : PM_STEP,
		       (int)r->data);
		return 0;
	case PTRACE_SYSEMU:
	case PTRACE_SYSEMU_SINGLESTEP:
		if (!valid_sig(r->data))
			return -EIO;
		resume(q, r->req == PTRACE_SYSEMU ? PM_SYSEMU : PM_SYSEMU_STEP,
		       (int)r->data);
		return 0;
	case PTRACE_LISTEN:
		if (!q->seized || (q->cur.kind != PK_EVENT &&
				   q->cur.kind != PK_GROUP) ||
		    (q->cur.status >> 16) != PTRACE_EVENT_STOP)
			return -EINVAL;
		resume(q, PM_LISTEN, 0);
		return 0;
	case PTRACE_DETACH:
		if (!valid_sig(r->data))
			return -EIO;
		detach(q, (int)r->data);
		return 0;
	default:
		return -EIO;	/* not emulated: see utrace(7) */
	}
	err = -EIO;
	return err;
}

/* -- The inner tracer's waits --------------------------------------------------------------- */

struct pwait {
	bool waitid;
	int idtype;		/* waitid; wait4's pid is mapped to one */
	pid_t id;
	int options;
	uint64_t status, info, rusage;
};

static bool wait_match(struct pe_thread *p, const struct pwait *w,
		       struct pe_thread *q)
{
	if (!q->tracer || q->tracer_tgid != p->tgid)
		return false;
	if ((w->options & __WNOTHREAD) && q->tracer != p)
		return false;
	switch (w->idtype) {
	case P_ALL:
		return true;
	case P_PID:
		return q->tid == w->id;
	case P_PGID:
		return proc_pgid(q->tgid) == (w->id ? w->id :
					      proc_pgid(p->tgid));
	default:
		return false;
	}
}

static long wait_report(struct pe_thread *p, const struct pwait *w,
			struct pe_thread *q)
{
	int st = q->cur.status;
	long err = 0;

	if (w->waitid) {
		siginfo_t si;

		memset(&si, 0, sizeof(si));
		si.si_signo = SIGCHLD;
		si.si_pid = q->tid;
		si.si_uid = proc_uid(q->tid);
		if (WIFEXITED(st)) {
			si.si_code = CLD_EXITED;
			si.si_status = WEXITSTATUS(st);
		} else if (WIFSIGNALED(st)) {
			si.si_code = WCOREDUMP(st) ? CLD_DUMPED : CLD_KILLED;
			si.si_status = WTERMSIG(st);
		} else {
			si.si_code = CLD_TRAPPED;
			si.si_status = (st >> 8) & 0xffff;
		}
		if (w->info)
			err = put(p, w->info, &si, sizeof(si));
	} else if (w->status) {
		err = put(p, w->status, &st, sizeof(st));
	}
	if (!err && w->rusage) {
		struct rusage ru;

		/*
		 * A stop: the usage the real wait4 returned with the real stop
		 * the tracee is held in (what the kernel gives: the times to
		 * the microsecond, which strace -c subtracts), /proc's clock
		 * ticks only if that stop came without it (see trace_link).
		 */
		if (q->cur.kind == PK_DEATH)
			ru = q->death_ru;
		else if (utrace_stop_rusage(q->e, &ru))
			proc_rusage(q->tgid, &ru);
		err = put(p, w->rusage, &ru, sizeof(ru));
	}
	/* As the kernel: what the wait took is taken, written or not. */
	if (!(w->options & WNOWAIT)) {
		q->waitable = false;
		if (q->cur.kind == PK_DEATH) {
			pid_t tid = q->tid;

			forget_tracer(q);
			pe_maybe_free(q);
			return err ? err : w->waitid ? 0 : tid;
		}
	}
	return err ? err : w->waitid ? 0 : q->tid;
}

enum { W_PASS = 1, W_HOLD = 2 };

/* The result, or W_PASS (let the kernel do it), or W_HOLD (block). */
static long do_wait(struct pe_thread *p, const struct pwait *w)
{
	bool have = false, real = false;

	if (w->idtype == P_PIDFD || (w->waitid && !(w->options &
			(WEXITED | WSTOPPED | WCONTINUED))))
		return W_PASS;
	for (struct pe_thread *q = p->pe->threads; q; q = q->next) {
		if (!wait_match(p, w, q))
			continue;
		if (q->waitable && (q->cur.kind != PK_DEATH || !w->waitid ||
				    (w->options & WEXITED)))
			return wait_report(p, w, q);
		if (q->dead && q->real_child)
			real = true;
		else
			have = true;
	}
	if (real || !have)
		return W_PASS;
	if (w->options & WNOHANG) {
		p->fix_echild = true;
		return W_PASS;
	}
	return W_HOLD;
}

static void wait_args(struct pe_thread *p, const struct user_regs_struct *rg,
		      struct pwait *w)
{
	memset(w, 0, sizeof(*w));
	if ((long)rg->orig_rax == SYS_waitid) {
		w->waitid = true;
		w->idtype = (int)rg->rdi;
		w->id = (pid_t)rg->rsi;
		w->info = rg->rdx;
		w->options = (int)rg->r10;
		w->rusage = rg->r8;
		return;
	}
	w->id = (pid_t)rg->rdi;
	w->status = rg->rsi;
	w->options = (int)rg->rdx | WEXITED;
	w->rusage = rg->r10;
	if (w->id == -1) {
		w->idtype = P_ALL;
	} else if (w->id > 0) {
		w->idtype = P_PID;
	} else {
		w->idtype = P_PGID;
		w->id = w->id ? -w->id : 0;
	}
}

/*
 * The inner tracer's side of a syscall entry.  Returns the entry vote.
 */
static uint32_t tracer_entry(struct pe_thread *p, uint32_t action)
{
	struct user_regs_struct rg;
	struct utrace_syscall sc;
	long nr, ret;

	if (utrace_syscall_get(p->e, &sc) || sc.arch != AUDIT_ARCH_X86_64)
		return run_vote(p, action);
	/*
	 * Another engine skips this call (it was called first: attached
	 * after us): the kernel would never see it, so neither does the
	 * emulation; its abort and return value are handed on.
	 */
	if (utrace_syscall_action(action) == UTRACE_SYSCALL_ABORT)
		return run_vote(p, action);
	nr = sc.nr;
	p->wait_nr = 0;
	if (nr != SYS_ptrace && nr != SYS_wait4 && nr != SYS_waitid)
		return run_vote(p, action);
	/* The call's registers as the syscall view has them (no GETREGS). */
	memset(&rg, 0, sizeof(rg));
	rg.orig_rax = (unsigned long)sc.nr;
	rg.rdi = sc.args[0];
	rg.rsi = sc.args[1];
	rg.rdx = sc.args[2];
	rg.r10 = sc.args[3];
	rg.r8 = sc.args[4];
	rg.r9 = sc.args[5];
	if (nr == SYS_ptrace) {
		struct preq r = { p, (long)rg.rdi, (pid_t)rg.rsi, rg.rdx,
				  rg.r10 };

		ret = do_ptrace(&r);
		if (ret == PE_KERNEL) {
			p->sys = PS_REAL;
			return run_vote(p, action & ~UTRACE_SYSCALL_MASK);
		}
	} else if (nr == SYS_wait4 || nr == SYS_waitid) {
		struct pwait w;

		wait_args(p, &rg, &w);
		p->fix_echild = false;
		ret = do_wait(p, &w);
		if (ret == W_HOLD) {
			/*
			 * Block as the kernel would, interruptibly: as pause(),
			 * which a signal ends as it ends a wait, and which
			 * wake_waiters interrupts; its exit completes the wait
			 * or restarts it (pe_exit).
			 */
			p->sys = PS_SLEEP;
			p->wait_nr = nr;
			p->wait_regs = rg;
			utrace_syscall_set_nr(p->e, SYS_pause);
			return run_vote(p, action & ~UTRACE_SYSCALL_MASK);
		}
		if (ret == W_PASS) {
			p->sys = PS_REAL;
			p->wait_nr = nr;
			p->wait_info = w.waitid ? w.info : 0;
			return run_vote(p, action & ~UTRACE_SYSCALL_MASK);
		}
	} else {
		return run_vote(p, action);
	}
	p->sys = PS_DONE;
	utrace_syscall_set_return(p->e, ret);
	return run_vote(p, (action & ~UTRACE_SYSCALL_MASK) |
			   UTRACE_SYSCALL_ABORT);
}

/* -- Callbacks ---------------------------------------------------------------------------- */

/*
 * Restarted from a syscall-entry stop by PTRACE_SYSEMU_SINGLESTEP: the
 * kernel makes no step report at the call's exit; the step after it comes
 * from its exit (pe_exit), one instruction on.
 */
static uint32_t sysemu_step_exit(struct pe_thread *p, uint32_t action)
{
	if (p->tracer && !p->stopped && p->mode == PM_SYSEMU_STEP &&
	    (action & UTRACE_RESUME_MASK) == UTRACE_SINGLESTEP)
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_RESUME;
	return action;
}

/*
 * A syscall skipped for PTRACE_SYSEMU: the library aborted it with
 * orig_rax -1; the kernel skips it and leaves orig_rax alone.
 */
static void emu_restore(struct pe_thread *p)
{
	struct user_regs_struct r;

	if (!p->emu_skip)
		return;
	p->emu_skip = false;
	if (p->e && utrace_regs_get(p->e, &r) == 0 &&
	    r.orig_rax == (unsigned long)-1) {
		r.orig_rax = (unsigned long)p->emu_nr;
		utrace_regs_set(p->e, &r);
	}
}

static uint32_t pe_entry(uint32_t action, struct utrace_engine *e)
{
	struct pe_thread *p = utrace_engine_data(e);
	bool resumed = action & UTRACE_SYSCALL_RESUMED;
	uint32_t r;

	if (!resumed) {
		p->sys = PS_NONE;
		p->emu_skip = false;
		if (p->tracer && !p->stopped &&
		    (p->mode == PM_SYSCALL || p->mode == PM_SYSEMU ||
		     p->mode == PM_SYSEMU_STEP)) {
			struct pe_stop s;
			struct utrace_syscall sc;

			stop_syscall(&s, p, true);
			publish(p, &s);
			p->sys = PS_ENTRY_STOP;
			/*
			 * PTRACE_SYSEMU: the kernel skips the call after this
			 * stop, whatever restarts it; no exit stop follows
			 * unless that is PTRACE_SYSCALL.
			 */
			if (p->mode != PM_SYSCALL &&
			    utrace_syscall_get(e, &sc) == 0) {
				p->emu_skip = true;
				p->emu_nr = sc.nr;
				/* its exit, whatever mode: emu_restore */
				p->exit_watch = true;
				set_syscalls(p);
			}
			return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
		}
	} else {
		if (p->stopped)
			return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
		if (p->inject)	/* deliver it at the next stop point */
			action = (action & ~UTRACE_RESUME_MASK) |
				 UTRACE_INTERRUPT;
		if (p->emu_skip) {
			p->sys = PS_DONE;
			action = (action & ~UTRACE_SYSCALL_MASK) |
				 UTRACE_SYSCALL_ABORT;
			if (!p->inject)
				action = run_vote(p, action);
			return sysemu_step_exit(p, action);
		}
		/*
		 * Decided in the first pass: say it again (an engine called
		 * before us on this repeat may have handed on a RUN).
		 */
		if (p->sys == PS_DONE)
			return (action & ~UTRACE_SYSCALL_MASK) |
			       UTRACE_SYSCALL_ABORT;
		if (p->sys == PS_REAL)
			return action;
	}
	r = tracer_entry(p, action);
	return resumed ? sysemu_step_exit(p, r) : r;
}

/* Was the syscall now at its exit a vfork (CLONE_VFORK)? */
static bool vfork_call(struct pe_thread *p, const struct utrace_syscall *sc)
{
	uint64_t flags;

	if (sc->arch != AUDIT_ARCH_X86_64)
		return false;
	if (sc->nr == SYS_vfork)
		return true;
	if (sc->nr == SYS_clone)
		return sc->args[0] & CLONE_VFORK;
	if (sc->nr == SYS_clone3 &&
	    utrace_mem_read(p->e, sc->args[0], &flags, 8) == 8)
		return flags & CLONE_VFORK;
	return false;
}

/* The exit of a wait that slept as pause(): complete it, or restart it. */
static void sleep_exit(struct pe_thread *p)
{
	struct user_regs_struct cur;
	struct pwait w;
	long ret;

	wait_args(p, &p->wait_regs, &w);
	ret = do_wait(p, &w);
	if (utrace_regs_get(p->e, &cur))
		return;
	cur.orig_rax = p->wait_regs.orig_rax;
	cur.rdi = p->wait_regs.rdi;
	cur.rsi = p->wait_regs.rsi;
	cur.rdx = p->wait_regs.rdx;
	cur.r10 = p->wait_regs.r10;
	cur.r8 = p->wait_regs.r8;
	cur.r9 = p->wait_regs.r9;
	/*
	 * Nothing (a signal came, or we were woken for a real child): the
	 * wait is restarted after the signal, as the kernel restarts an
	 * interrupted wait (or fails it with EINTR for a handler without
	 * SA_RESTART); it comes back to its entry.
	 */
	cur.rax = ret == W_PASS || ret == W_HOLD ? (unsigned long)-512L :
		  (unsigned long)ret;
	utrace_regs_set(p->e, &cur);
}

static uint32_t pe_exit(uint32_t action, struct utrace_engine *e)
{
	struct pe_thread *p = utrace_engine_data(e);
	struct utrace_syscall sc;

	emu_restore(p);
	if (p->sys == PS_SLEEP)
		sleep_exit(p);
	if (p->sys == PS_REAL && p->wait_nr &&
	    utrace_syscall_get(e, &sc) == 0) {
		if (sc.ret == -ECHILD && p->fix_echild) {
			/* Only tracees of ours, none ready: 0, as WNOHANG. */
			utrace_syscall_set_return(e, 0);
			if (p->wait_info) {
				siginfo_t si;

				memset(&si, 0, sizeof(si));
				put(p, p->wait_info, &si, sizeof(si));
			}
		} else if (sc.ret > 0 && p->wait_nr == SYS_wait4) {
			/* A real child reaped: its tracer link ends. */
			struct pe_thread *q = pe_find_any(p->pe, (pid_t)sc.ret);

			if (q && q->dead && q->tracer_tgid == p->tgid) {
				forget_tracer(q);
				pe_maybe_free(q);
			}
		}
	}
	p->sys = PS_NONE;
	p->wait_nr = 0;
	if (p->exit_watch) {
		p->exit_watch = false;
		set_syscalls(p);
	}
	if (p->tracer && (p->opts & PTRACE_O_TRACEVFORKDONE) &&
	    utrace_syscall_get(e, &sc) == 0 && sc.ret > 0 && vfork_call(p, &sc)) {
		/* The child released the parent's memory: VFORK_DONE. */
		struct pe_stop s;

		stop_event(&s, p, PTRACE_EVENT_VFORK_DONE, SIGTRAP,
			   (unsigned long)sc.ret);
		publish_or_queue(p, &s);
		if (p->mode != PM_SYSCALL)
			return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
	}
	if (p->tracer && (p->mode == PM_SYSCALL || p->stopped)) {
		/* In a stop (an event of this syscall): due if it resumes
		 * with PTRACE_SYSCALL (resume drops it otherwise). */
		struct pe_stop s;

		stop_syscall(&s, p, false);
		publish_or_queue(p, &s);
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
	}
	if (p->tracer && p->stopped)
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
	return run_vote(p, action);
}

static uint32_t pe_quiesce(uint32_t action, struct utrace_engine *e,
			   unsigned long event)
{
	struct pe_thread *p = utrace_engine_data(e);
	struct uthread *th;
	struct pe_stop s;

	if (event == UTRACE_EVENT(SYSCALL_ENTRY))
		return sysemu_step_exit(p, run_vote(p, action));
	if (event || !p->tracer)
		return run_vote(p, action);
	if (p->stopped)
		return UTRACE_STOP;
	th = stopped_th(p);
	if (th && th->stop == STOP_STEP && stepping(p)) {
		siginfo_t si = th->si;

		emu_restore(p);

		stop_signal(&s, &si);
		s.kind = PK_STEP;
		publish(p, &s);
		return UTRACE_STOP;
	}
	if (p->exec_trap) {
		siginfo_t si;

		p->exec_trap = false;
		memset(&si, 0, sizeof(si));
		si.si_signo = SIGTRAP;
		si.si_code = SI_USER;
		si.si_pid = p->tgid;
		si.si_uid = getuid();
		stop_signal(&s, &si);
		publish(p, &s);
		return UTRACE_STOP;
	}
	return run_vote(p, action);
}

static uint32_t pe_signal(uint32_t action, struct utrace_engine *e,
			  siginfo_t *info)
{
	struct pe_thread *p = utrace_engine_data(e);
	enum utrace_signal_action sa = utrace_signal_action(action);
	uint32_t rest = action & ~(UTRACE_RESUME_MASK | UTRACE_SIGNAL_MASK |
				   UTRACE_SIGNAL_HOLD);
	struct pe_stop s;

	if (info && info->si_signo == SIGCHLD && sa != UTRACE_SIGNAL_REPORT &&
	    sa != UTRACE_SIGNAL_HANDLER)
		chld_deliver(p, info);
	if (!p->tracer)
		return utrace_pass(action, UTRACE_RESUME);
	if (sa == UTRACE_SIGNAL_REPORT || sa == UTRACE_SIGNAL_HANDLER) {
		if (p->inject) {
			p->inject = false;
			*info = p->inj;
			return rest | UTRACE_SIGNAL_DELIVER | step_act(p);
		}
		if (p->stopped)
			return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
		if (sa == UTRACE_SIGNAL_HANDLER && stepping(p)) {
			/*
			 * A signal delivered while stepping: the kernel traps
			 * once the handler frame is set up, before its first
			 * instruction (ptrace_notify(SIGTRAP): si_code SIGTRAP).
			 */
			siginfo_t si;

			trap_info(&si, p->tid, SIGTRAP);
			stop_signal(&s, &si);
			publish(p, &s);
			return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
		}
		if (p->want_attach_stop) {
			siginfo_t si;

			p->want_attach_stop = false;
			p->want_interrupt = false;
			memset(&si, 0, sizeof(si));
			si.si_signo = SIGSTOP;
			si.si_code = SI_KERNEL;
			stop_signal(&s, &si);
			publish(p, &s);
			return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
		}
		if (p->want_interrupt) {
			p->want_interrupt = false;
			stop_event(&s, p, PTRACE_EVENT_STOP,
				   p->grp_sig ? p->grp_sig : SIGTRAP, 0);
			publish(p, &s);
			return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
		}
		return run_vote(p, action);
	}
	/* A real signal. */
	if (p->stopped)	/* a stop is in progress: after it */
		return rest | UTRACE_SIGNAL_HOLD | UTRACE_STOP |
		       (action & UTRACE_SIGNAL_MASK);
	if (info->si_signo == SIGCONT) {
		/*
		 * SIGCONT ends the group stop, and traps a seized tracee
		 * (PTRACE_EVENT_STOP) before its delivery stop; a listening
		 * one trapped already (pe_jctl).
		 */
		set_group_stop(p->pe, p->tgid, 0);
		if (p->seized && !p->cont_trapped) {
			stop_event(&s, p, PTRACE_EVENT_STOP, SIGTRAP, 0);
			publish(p, &s);
		}
		p->cont_trapped = false;
	}
	stop_signal(&s, info);
	publish_or_queue(p, &s);
	return rest | UTRACE_SIGNAL_IGN | UTRACE_STOP;
}

static uint32_t pe_clone(uint32_t action, struct utrace_engine *e,
			 unsigned long flags, pid_t child)
{
	struct pe_thread *p = utrace_engine_data(e), *c;
	int event;
	long opt;
	struct pe_stop s;

	if (!p->tracer)
		return run_vote(p, action);
	if (flags & CLONE_VFORK) {
		event = PTRACE_EVENT_VFORK;
		opt = PTRACE_O_TRACEVFORK;
	} else if ((flags & 0xff) != SIGCHLD) {
		event = PTRACE_EVENT_CLONE;
		opt = PTRACE_O_TRACECLONE;
	} else {
		event = PTRACE_EVENT_FORK;
		opt = PTRACE_O_TRACEFORK;
	}
	if (!(p->opts & opt) || (flags & CLONE_UNTRACED))
		return run_vote(p, action);
	c = pe_find(p->pe, child);
	if (!c && utrace_emulate_ptrace(p->pe->t, child) == 0)
		c = pe_find(p->pe, child);
	if (c && !c->tracer) {
		c->tracer = p->tracer;
		c->tracer_tgid = p->tracer_tgid;
		/* Its parent is p's process, or p's parent with CLONE_PARENT. */
		c->parent_is_tracer = (flags & CLONE_PARENT) &&
				      p->parent_is_tracer;
		c->seized = p->seized;
		c->opts = p->opts;
		c->mode = PM_CONT;
		set_events(c);
		utrace_control(c->e, UTRACE_STOP);
		stop_initial(&s, c);
		publish(c, &s);
	}
	stop_event(&s, p, event, SIGTRAP, (unsigned long)child);
	snapshot(&s, p);
	publish_or_queue(p, &s);
	exit_after_event(p);
	return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
}

static uint32_t pe_exec(uint32_t action, struct utrace_engine *e,
			pid_t former)
{
	struct pe_thread *p = utrace_engine_data(e);
	struct pe_stop s;

	p->tid = utrace_engine_tid(e);
	if (former != p->tid) {
		/*
		 * A thread other than the leader exec'd and took the leader's
		 * tid: the kernel reports no death of the former leader.
		 */
		for (struct pe_thread *q = p->pe->threads, *next; q; q = next) {
			next = q->next;
			if (q == p || q->tid != p->tid)
				continue;
			q->replaced = true;
			q->leader_wait = false;
			if (q->dead) {
				q->waitable = false;
				forget_tracer(q);
				pe_maybe_free(q);
			}
		}
	}
	if (!p->tracer)
		return run_vote(p, action);
	if (p->opts & PTRACE_O_TRACEEXEC) {
		stop_event(&s, p, PTRACE_EVENT_EXEC, SIGTRAP,
			   (unsigned long)former);
		snapshot(&s, p);
		publish_or_queue(p, &s);
		exit_after_event(p);
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
	}
	if (!p->seized) {
		/* The kernel sends SIGTRAP after exec; at the next stop. */
		p->exec_trap = true;
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
	}
	return run_vote(p, action);
}

static uint32_t pe_jctl(uint32_t action, struct utrace_engine *e, int type,
			int notify)
{
	struct pe_thread *p = utrace_engine_data(e);
	struct pe_stop s;
	int sig = p->stop_sig ? p->stop_sig : SIGSTOP;

	set_group_stop(p->pe, p->tgid, type == CLD_STOPPED ? sig : 0);
	if (!p->tracer)
		return run_vote(p, action);
	if (type == CLD_STOPPED) {
		if (p->seized) {
			stop_event(&s, p, PTRACE_EVENT_STOP, sig, 0);
			s.kind = PK_GROUP;
		} else {
			memset(&s, 0, sizeof(s));
			s.kind = PK_GROUP;
			s.status = (sig << 8) | 0x7f;
		}
		publish_or_queue(p, &s);
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
	}
	if (p->seized && p->mode == PM_LISTEN) {
		/* SIGCONT re-traps a listening tracee (EVENT_STOP, SIGTRAP). */
		p->cont_trapped = true;
		stop_event(&s, p, PTRACE_EVENT_STOP, SIGTRAP, 0);
		publish_or_queue(p, &s);
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
	}
	return run_vote(p, action);
}

static uint32_t pe_exitev(uint32_t action, struct utrace_engine *e,
			  int status)
{
	struct pe_thread *p = utrace_engine_data(e);
	struct pe_stop s;

	if (!p->tracer || !(p->opts & PTRACE_O_TRACEEXIT))
		return run_vote(p, action);
	stop_event(&s, p, PTRACE_EVENT_EXIT, SIGTRAP, (unsigned long)status);
	publish_or_queue(p, &s);
	return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
}

/*
 * A traced thread's death for its tracer: its real parent (the tracer
 * itself) reaps it with a real wait, or the emulation hands its tracer
 * the wait status.
 */
static void tracee_gone(struct pe_thread *q, int status, bool real_wait)
{
	struct pe_stop s;

	if (real_wait) {
		q->real_child = true;
		q->waitable = false;
		wake_waiters(q->pe, q->tracer_tgid, false);
		return;
	}
	memset(&s, 0, sizeof(s));
	s.kind = PK_DEATH;
	s.status = status;
	publish(q, &s);
}

static uint32_t pe_death(struct utrace_engine *e, bool group_dead, int status)
{
	struct pe_thread *p = utrace_engine_data(e);
	struct pe *pe = p->pe;
	bool sleepers = false;
	pid_t ppid = 0;

	/*
	 * The real parent matters only to a wait we hold as pause(); most
	 * deaths have none, and spare the /proc read (which also fails
	 * once the parent has reaped the zombie).
	 */
	for (struct pe_thread *q = pe->threads; q && !sleepers; q = q->next)
		sleepers = q->sys == PS_SLEEP;
	if (group_dead && sleepers)
		ppid = utrace__proc_ppid(p->tid);
	/* Its usage for the wait (zeros once its zombie is reaped). */
	if (p->tracer)
		proc_rusage(group_dead ? p->tgid : p->tid, &p->death_ru);

	p->dead = true;
	/* Its inner tracees are let go, or killed (PTRACE_O_EXITKILL). */
	for (struct pe_thread *q = pe->threads, *next; q; q = next) {
		next = q->next;
		if (q->tracer != p)
			continue;
		if (q->opts & PTRACE_O_EXITKILL && !q->dead)
			syscall(SYS_tgkill, q->tgid, q->tid, SIGKILL);
		detach(q, 0);
	}
	if (p->tracer && (p->replaced || (!group_dead && p->tid == p->tgid))) {
		/*
		 * The leader: the kernel reports its death when its whole
		 * process is gone (with the group's status), and not at all
		 * when an exec by another thread took its place.
		 */
		p->stopped = p->waitable = false;
		p->npend = 0;
		p->leader_wait = !p->replaced;
	} else if (p->tracer) {
		p->stopped = false;
		p->npend = 0;
		tracee_gone(p, status, group_dead && p->parent_is_tracer);
	}
	/* The process is gone: a leader that died before it is reported. */
	for (struct pe_thread *q = pe->threads, *next; group_dead && q;
	     q = next) {
		next = q->next;
		if (q == p || q->tgid != p->tgid || !q->leader_wait)
			continue;
		q->leader_wait = false;
		if (q->tracer)
			tracee_gone(q, status, q->parent_is_tracer);
	}
	/* A real parent blocked in a wait we hold may reap it now. */
	if (ppid > 0 && ppid != p->tracer_tgid)
		wake_waiters(pe, ppid, false);
	return UTRACE_RESUME;
}

static void pe_reap(struct utrace_engine *e)
{
	struct pe_thread *p = utrace_engine_data(e);

	p->e = NULL;
	p->dead = true;
	pe_maybe_free(p);
}

static const struct utrace_engine_ops pe_ops = {
	.report_quiesce = pe_quiesce,
	.report_signal = pe_signal,
	.report_clone = pe_clone,
	.report_jctl = pe_jctl,
	.report_exec = pe_exec,
	.report_syscall_entry = pe_entry,
	.report_syscall_exit = pe_exit,
	.report_exit = pe_exitev,
	.report_death = pe_death,
	.report_reap = pe_reap,
};

/* -- Public entry ------------------------------------------------------------------------- */

static const struct utrace__layer pe_layer;

static int do_emulate(void *arg)
{
	struct { struct utrace_tracer *t; pid_t tid; } *a = arg;
	struct utrace_tracer *t = a->t;
	struct pe *pe = utrace__layer_data(t, &pe_layer);
	struct pe_thread *p;
	struct uthread *th;
	int err;

	if (!pe) {
		pe = calloc(1, sizeof(*pe));
		if (!pe)
			return -ENOMEM;
		pe->t = t;
		err = utrace__layer_register(t, &pe_layer, pe);
		if (err) {
			free(pe);
			return err;
		}
	}
	p = pe_find(pe, a->tid);
	if (p && p->e)
		return -EEXIST;
	th = utrace__thread_find(t, a->tid);
	if (!th)
		return -ESRCH;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->pe = pe;
	p->tid = a->tid;
	p->tgid = th->tgid;
	err = utrace_attach(t, a->tid, UTRACE_ATTACH_CREATE |
			    UTRACE_ATTACH_EXCLUSIVE | UTRACE_ATTACH_MATCH_OPS,
			    &pe_ops, p, &p->e);
	if (err) {
		free(p);
		return err;
	}
	p->next = pe->threads;
	pe->threads = p;
	p->all_syscalls = true;		/* so that set_events sets it */
	set_events(p);
	utrace_engine_put(p->e);	/* the thread's reference remains */
	return 0;
}

/**
 * utrace_emulate_ptrace - attach the ptrace-emulation engine to a thread
 * @t: the tracer
 * @tid: a thread @t traces
 *
 * From then on, the thread's ptrace(2), wait4(2) and waitid(2) calls on
 * threads that carry the engine too are performed by the engine.  Attach
 * it to every thread a program may trace or be traced from (a tool that
 * follows clones calls it in report_clone).  Returns 0, -EEXIST if the
 * thread has it already, -ESRCH if @t does not trace @tid, -ENOMEM.
 */
UTRACE_EXPORT int utrace_emulate_ptrace(struct utrace_tracer *t, pid_t tid)
{
	struct { struct utrace_tracer *t; pid_t tid; } a = { t, tid };

	if (!t || tid <= 0)
		return -EINVAL;
	return utrace__call(t, do_emulate, &a);
}

/*
 * A SECCOMP_RET_TRACE stop of the program's filter (the layer's hook, after
 * any syscall-entry report; @data: the filter's SECCOMP_RET_DATA): an
 * inner tracer with PTRACE_O_TRACESECCOMP gets a PTRACE_EVENT_SECCOMP
 * stop; otherwise the core fails the call with ENOSYS, as the kernel does
 * for a thread whose tracer did not ask for these stops (or that has none).
 */
static bool pe_foreign_seccomp(struct utrace_tracer *t, void *arg, pid_t tid,
			       uint32_t data, uint32_t arch)
{
	struct pe *pe = arg;
	struct pe_thread *p = pe_find(pe, tid);

	if (p && p->e && p->tracer && (p->opts & PTRACE_O_TRACESECCOMP)) {
		int code = SIGTRAP | (PTRACE_EVENT_SECCOMP << 8);
		struct pe_stop s;

		stop_event(&s, p, PTRACE_EVENT_SECCOMP, SIGTRAP, data);
		s.kind = PK_SECCOMP;
		s.status = (code << 8) | 0x7f;
		s.arch = arch;
		publish_or_queue(p, &s);
		utrace_control(p->e, UTRACE_STOP);
		return true;
	}
	return false;
}

/* utrace_tracer_free: after every engine is gone. */
static void pe_free(struct utrace_tracer *t, void *arg)
{
	struct pe *pe = arg;

	while (pe->threads) {
		struct pe_thread *p = pe->threads;

		pe->threads = p->next;
		free(p);
	}
	free(pe);
}

static int do_tracer_of(void *arg)
{
	struct { struct pe *pe; pid_t tid; } *a = arg;
	struct pe_thread *q = pe_find(a->pe, a->tid);

	return q && q->tracer ? q->tracer_tgid : 0;
}

/*
 * The program that traces @tid through the emulation (the layer's hook):
 * its process id, or 0 when no traced program ptraces @tid.  Any thread
 * (the server's, at a joiner's HELLO).
 */
static pid_t pe_tracer_of(struct utrace_tracer *t, void *arg, pid_t tid)
{
	struct { struct pe *pe; pid_t tid; } a = { arg, tid };
	int r;

	if (tid <= 0)
		return 0;
	r = utrace__call(t, do_tracer_of, &a);
	return r > 0 ? r : 0;
}

/* A layer on the core alone: its hooks. */
static const struct utrace__layer pe_layer = {
	.order = 10,
	.free = pe_free,
	.foreign_seccomp = pe_foreign_seccomp,
	.tracer_of = pe_tracer_of,
};
