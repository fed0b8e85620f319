/* SPDX-License-Identifier: LGPL-2.1-or-later */
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
 * The layer is built on the public engine API and core/layer.h only; it
 * never calls ptrace(2) itself.  One file a concern:
 *   tracee.c     an inner tracee's state: its stops, how it runs on,
 *                letting it go
 *   requests.c   the inner tracer's ptrace(2) requests
 *   waits.c      its wait4/waitid, and the SIGCHLD it gets
 *   callbacks.c  the engine's callbacks, the layer's hooks and
 *                utrace_emulate_ptrace
 *   creds.c      who may trace whom, with the caller's credentials,
 *                and what an exec under a tracer may keep
 *
 * State lives on the tracer (the layer's data, struct pe): every traced
 * thread with the engine has a struct pe_thread, kept after the thread is
 * gone while its inner tracer has not yet collected its death.  All of it
 * is loop-thread state: callbacks and hooks run there, and the one hook
 * another thread calls (tracer_of) is carried there.
 */
#ifndef UTRACE_PTRACE_H
#define UTRACE_PTRACE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/user.h>
#include <linux/ptrace.h>

#include "core/layer.h"

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
	bool has_si;			/* GETSIGINFO works */
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

/* A process's dumpable flag as its own prctl calls left it. */
enum pe_dump { PD_UNKNOWN, PD_YES, PD_NO };

struct pe_thread {
	struct pe *pe;
	struct pe_thread *next;		/* all of them */
	struct utrace_engine *e;	/* NULL once reaped */
	pid_t tid, tgid;
	bool dead;
	/* as an inner tracee */
	struct pe_thread *tracer;	/* the inner tracer's thread, or NULL */
	pid_t tracer_tgid;
	bool tracer_any;		/* any thread of tracer_tgid (TRACEME) */
	bool seized;
	long opts;
	enum pe_mode mode;
	bool stopped;			/* in an inner stop */
	bool waitable;			/* ...not yet returned by a wait */
	struct pe_stop cur;
	struct pe_stop pend[PE_NPEND];	/* stops due after this one */
	unsigned npend;
	bool want_interrupt;		/* PTRACE_INTERRUPT: EVENT_STOP */
	bool want_attach_stop;		/* PTRACE_ATTACH: a SIGSTOP stop */
	bool want_group_trap;		/* ...after its group-stop trap */
	bool exec_trap;			/* non-seized exec: SIGTRAP after it */
	bool inject;			/* deliver inj at the next report */
	siginfo_t inj;
	int sent_sig;			/* sent after a syscall stop */
	bool real_child;		/* its death is the real parent's */
	bool leader_wait;		/* a leader dead before its group */
	bool replaced;			/* a leader whose tid an exec took */
	bool parent_is_tracer;		/* its real parent traces it */
	bool link_capable;		/* its tracer held CAP_SYS_PTRACE */
	bool exec_old_valid;		/* exec_old read at this execve */
	struct utrace_cred exec_old;	/* ...its credentials before it */
	bool drop;			/* at this execve's exit: drop_to */
	bool drop_dumpable;		/* ...and dumpable again */
	struct utrace_cred drop_to;	/* what the kernel would have made */
	int stop_sig;			/* last stop signal delivered */
	int grp_sig;			/* its process is in a group stop */
	bool cont_trapped;		/* SIGCONT's EVENT_STOP made already */
	bool emu_skip;			/* PTRACE_SYSEMU: this call skipped */
	long emu_nr;			/* ...its number (orig_rax after) */
	struct rusage death_ru;		/* its usage, read at its death */
	/* as an inner tracer's process (its leader's record) */
	bool chld_pending;		/* our SIGCHLD sent, not delivered */
	pid_t ptracer;			/* PR_SET_PTRACER: 0, -1 any, a tid */
	enum pe_dump dump;		/* PR_SET_DUMPABLE since its exec */
	siginfo_t chld_si;		/* ...and what the kernel's would say */
	bool all_syscalls;		/* our syscall set is "all" */
	bool exec_syscalls;		/* ...or the base and the execs */
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


/* tracee.c: an inner tracee's state */
struct pe_thread *utrace__pe_find(struct pe *pe, pid_t tid);
struct pe_thread *utrace__pe_find_any(struct pe *pe, pid_t tid);
void utrace__pe_maybe_free(struct pe_thread *p);
uint32_t utrace__pe_step_act(struct pe_thread *p);
uint32_t utrace__pe_run_vote(struct pe_thread *p, uint32_t action);
void utrace__pe_set_syscalls(struct pe_thread *p);
void utrace__pe_set_events(struct pe_thread *p);
void utrace__pe_set_group_stop(struct pe *pe, pid_t tgid, int sig);
void utrace__pe_trap_info(siginfo_t *si, pid_t tid, int code);
void utrace__pe_stop_signal(struct pe_stop *s, const siginfo_t *info);
void utrace__pe_stop_event(struct pe_stop *s, struct pe_thread *q, int event,
			   int sig, unsigned long msg);
void utrace__pe_stop_syscall(struct pe_stop *s, struct pe_thread *q,
			     bool entry);
void utrace__pe_stop_initial(struct pe_stop *s, struct pe_thread *q);
void utrace__pe_snapshot(struct pe_stop *s, struct pe_thread *q);
void utrace__pe_exit_after_event(struct pe_thread *q);
void utrace__pe_publish(struct pe_thread *q, const struct pe_stop *s);
void utrace__pe_publish_or_queue(struct pe_thread *q,
				 const struct pe_stop *s);
void utrace__pe_forget_tracer(struct pe_thread *q);
void utrace__pe_resume(struct pe_thread *q, enum pe_mode mode, int sig);
void utrace__pe_detach(struct pe_thread *q, int sig);

static inline bool utrace__pe_stepping(const struct pe_thread *p)
{
	return p->mode == PM_STEP || p->mode == PM_SYSEMU_STEP;
}

/* requests.c: the inner tracer's ptrace */
/* utrace__pe_ptrace: not ours, the kernel's (a count or -errno is a result) */
#define PE_KERNEL	LONG_MIN
long utrace__pe_ptrace(struct pe_thread *p, long req, pid_t pid,
		       uint64_t addr, uint64_t data);
long utrace__pe_put(struct pe_thread *p, uint64_t addr, const void *buf,
		    size_t len);
long utrace__pe_get(struct pe_thread *p, uint64_t addr, void *buf,
		    size_t len);

/* waits.c: the inner tracer's waits, and its SIGCHLD */
struct pe_wait {
	bool waitid;
	int idtype;		/* waitid; wait4's pid is mapped to one */
	pid_t id;
	int options;
	uint64_t status, info, rusage;
};

/* utrace__pe_wait: let the kernel do it, or block */
enum { W_PASS = 1, W_HOLD = 2 };

long utrace__pe_wait(struct pe_thread *p, const struct pe_wait *w);
void utrace__pe_wait_args(struct pe_thread *p,
			  const struct user_regs_struct *rg,
			  struct pe_wait *w);
void utrace__pe_sleep_exit(struct pe_thread *p);
void utrace__pe_wake_waiters(struct pe *pe, pid_t tgid, bool emulated);
void utrace__pe_notify_tracer(struct pe_thread *q);
void utrace__pe_chld_deliver(struct pe_thread *p, siginfo_t *info);
uid_t utrace__pe_proc_ruid(pid_t tid);
bool utrace__pe_proc_rusage(pid_t pid, struct rusage *ru);

/* creds.c: who may trace whom, and what an exec may grant */
int utrace__pe_check_attach(struct pe_thread *p, struct pe_thread *q,
			    bool *cap_out);
int utrace__pe_check_traceme(struct pe_thread *p, struct pe_thread *parent,
			     bool *cap_out);
void utrace__pe_prctl(struct pe_thread *p, const uint64_t args[6], long ret);
void utrace__pe_exec_entry(struct pe_thread *p);
void utrace__pe_exec_event(struct pe_thread *p);
void utrace__pe_exec_exit(struct pe_thread *p);

#endif
