/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libutrace - the utrace engine model over ptrace.
 *
 * Many independent engines attach to one traced thread, each asks for its
 * own event callbacks and each votes on what the thread does next; the most
 * constrained vote wins.  See utrace(7) for the model and its rules.
 */
#ifndef UTRACE_H
#define UTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <time.h>
#include <sys/types.h>
#include <sys/user.h>

#ifdef __cplusplus
extern "C" {
#endif

#define UTRACE_API_VERSION	20091216

struct utrace_tracer;
struct utrace_engine;

/* -- Events (same bits as the kernel API) ------------------------------- */

enum utrace_events {
	_UTRACE_EVENT_QUIESCE,		/* thread is at a safe point */
	_UTRACE_EVENT_REAP,		/* the tracer lets the dead thread go */
	_UTRACE_EVENT_CLONE,		/* successful clone/fork/vfork */
	_UTRACE_EVENT_EXEC,		/* successful execve */
	_UTRACE_EVENT_EXIT,		/* thread is exiting */
	_UTRACE_EVENT_DEATH,		/* thread has died */
	_UTRACE_EVENT_SYSCALL_ENTRY,	/* before a syscall */
	_UTRACE_EVENT_SYSCALL_EXIT,	/* after a syscall */
	_UTRACE_EVENT_SIGNAL,		/* signal that runs a handler */
	_UTRACE_EVENT_SIGNAL_IGN,	/* signal that is ignored */
	_UTRACE_EVENT_SIGNAL_STOP,	/* signal that stops the job */
	_UTRACE_EVENT_SIGNAL_TERM,	/* signal that terminates */
	_UTRACE_EVENT_SIGNAL_CORE,	/* signal that dumps core */
	_UTRACE_EVENT_JCTL,		/* job-control stop or continue */
	_UTRACE_NEVENTS
};
#define UTRACE_EVENT(type)	(1UL << _UTRACE_EVENT_##type)

#define UTRACE_EVENT_SIGNAL_ALL	(UTRACE_EVENT(SIGNAL) | \
				 UTRACE_EVENT(SIGNAL_IGN) | \
				 UTRACE_EVENT(SIGNAL_STOP) | \
				 UTRACE_EVENT(SIGNAL_TERM) | \
				 UTRACE_EVENT(SIGNAL_CORE))
#define UTRACE_EVENT_SYSCALL	(UTRACE_EVENT(SYSCALL_ENTRY) | \
				 UTRACE_EVENT(SYSCALL_EXIT))

/* -- Resume actions: the smallest value prevails ------------------------ */

enum utrace_resume_action {
	UTRACE_STOP,
	UTRACE_INTERRUPT,
	UTRACE_REPORT,
	UTRACE_SINGLESTEP,
	UTRACE_BLOCKSTEP,
	UTRACE_RESUME,
	UTRACE_DETACH,
	UTRACE_RESUME_MAX
};
#define UTRACE_RESUME_BITS	3
#define UTRACE_RESUME_MASK	((1U << UTRACE_RESUME_BITS) - 1)

static inline enum utrace_resume_action utrace_resume_action(uint32_t action)
{
	return (enum utrace_resume_action)(action & UTRACE_RESUME_MASK);
}

/* -- Signal actions (report_signal) ------------------------------------- */

enum utrace_signal_action {
	UTRACE_SIGNAL_DELIVER	= 0x00,
	UTRACE_SIGNAL_IGN	= 0x10,
	UTRACE_SIGNAL_TERM	= 0x20,
	UTRACE_SIGNAL_CORE	= 0x30,
	UTRACE_SIGNAL_STOP	= 0x40,
	UTRACE_SIGNAL_TSTP	= 0x50,
	UTRACE_SIGNAL_REPORT	= 0x60,
	UTRACE_SIGNAL_HANDLER	= 0x70,
	UTRACE_SIGNAL_HOLD	= 0x100,
	/* action argument only: a signal an engine held, reported again */
	UTRACE_SIGNAL_AGAIN	= 0x200
};
#define UTRACE_SIGNAL_MASK	0xf0

static inline enum utrace_signal_action utrace_signal_action(uint32_t action)
{
	return (enum utrace_signal_action)(action & UTRACE_SIGNAL_MASK);
}

/* -- Syscall actions (report_syscall_entry) ----------------------------- */

enum utrace_syscall_action {
	UTRACE_SYSCALL_RUN	= 0x00,
	UTRACE_SYSCALL_ABORT	= 0x10,
	UTRACE_SYSCALL_RESUMED	= 0x100
};
#define UTRACE_SYSCALL_MASK	0xf0

static inline enum utrace_syscall_action utrace_syscall_action(uint32_t action)
{
	return (enum utrace_syscall_action)(action & UTRACE_SYSCALL_MASK);
}

/**
 * utrace_pass() - the vote of an engine that leaves the event's outcome alone
 * @action: the @action argument its callback was given
 * @resume: this engine's resume action
 *
 * The event-specific bits of a callback's return (the syscall action at
 * syscall entry, the signal action and %UTRACE_SIGNAL_HOLD in report_signal)
 * replace those of the engines called before it, and the last engine called
 * decides them.  An engine that only looks must hand them on unchanged, or
 * it undoes another engine's %UTRACE_SYSCALL_ABORT or %UTRACE_SIGNAL_IGN:
 * return utrace_pass(action, UTRACE_RESUME), never a bare UTRACE_RESUME.
 * The same holds on the repeated syscall-entry pass (%UTRACE_SYSCALL_RESUMED
 * in @action): an engine that aborted the syscall must return
 * %UTRACE_SYSCALL_ABORT again there; one that did not, utrace_pass().
 * Any thread.  Returns @resume with the event-specific bits of @action.
 */
static inline uint32_t utrace_pass(uint32_t action,
				   enum utrace_resume_action resume)
{
	return (action & ~UTRACE_RESUME_MASK) | (uint32_t)resume;
}

/* -- Attach flags -------------------------------------------------------- */

#define UTRACE_ATTACH_MATCH_OPS		0x0001
#define UTRACE_ATTACH_MATCH_DATA	0x0002
#define UTRACE_ATTACH_MATCH_MASK	0x000f
#define UTRACE_ATTACH_CREATE		0x0010
#define UTRACE_ATTACH_EXCLUSIVE		0x0020

/* -- Callbacks ----------------------------------------------------------- */

struct utrace_engine_ops {
	uint32_t (*report_quiesce)(uint32_t action, struct utrace_engine *e,
				   unsigned long event);
	uint32_t (*report_signal)(uint32_t action, struct utrace_engine *e,
				  siginfo_t *info);
	uint32_t (*report_clone)(uint32_t action, struct utrace_engine *e,
				 unsigned long clone_flags, pid_t child);
	uint32_t (*report_jctl)(uint32_t action, struct utrace_engine *e,
				int type, int notify);
	uint32_t (*report_exec)(uint32_t action, struct utrace_engine *e,
				pid_t former_tid);
	uint32_t (*report_syscall_entry)(uint32_t action,
					 struct utrace_engine *e);
	uint32_t (*report_syscall_exit)(uint32_t action,
					struct utrace_engine *e);
	uint32_t (*report_exit)(uint32_t action, struct utrace_engine *e,
				int status);
	uint32_t (*report_death)(struct utrace_engine *e, bool group_dead,
				 int status);
	void (*report_reap)(struct utrace_engine *e);
	void (*release)(void *data);
};

/* -- The tracer and its loop --------------------------------------------- */

int utrace_tracer_new(struct utrace_tracer **out);
void utrace_tracer_free(struct utrace_tracer *t);
int utrace_run(struct utrace_tracer *t);
int utrace_dispatch(struct utrace_tracer *t, int timeout_ms);
int utrace_fd(struct utrace_tracer *t);
void utrace_break(struct utrace_tracer *t);

/* utrace_tracer_set_options */
#define UTRACE_TRACER_RUSAGE	0x0001	/* keep each stop's resource usage */

int utrace_tracer_set_options(struct utrace_tracer *t, unsigned options);

/* -- Getting threads ----------------------------------------------------- */

#define UTRACE_SPAWN_KILL_ON_EXIT	0x0001	/* the child dies with the tracer */
#define UTRACE_SPAWN_NO_FILTER		0x0002	/* no seccomp filter: see utrace_spawn(3) */

struct utrace_spawn_opts {
	size_t size;		/* sizeof(struct utrace_spawn_opts) */
	char *const *envp;	/* NULL: the tracer's environment */
	const char *cwd;	/* NULL: the tracer's */
	unsigned flags;		/* UTRACE_SPAWN_* */
};

int utrace_spawn(struct utrace_tracer *t, char *const argv[],
		 const struct utrace_spawn_opts *opts, pid_t *pid);

/* -- Engines ------------------------------------------------------------- */

int utrace_attach(struct utrace_tracer *t, pid_t tid, int flags,
		  const struct utrace_engine_ops *ops, void *data,
		  struct utrace_engine **engine);
void utrace_engine_get(struct utrace_engine *e);
void utrace_engine_put(struct utrace_engine *e);
pid_t utrace_engine_tid(const struct utrace_engine *e);
void *utrace_engine_data(const struct utrace_engine *e);
int utrace_set_events(struct utrace_engine *e, unsigned long events);
int utrace_control(struct utrace_engine *e, enum utrace_resume_action action);
int utrace_barrier(struct utrace_engine *e);

/* -- Looking at and changing a stopped thread ---------------------------- */

struct utrace_syscall {
	long nr;		/* -1 when not at a syscall stop */
	unsigned long args[6];	/* valid at entry */
	long ret;		/* valid at exit: value or -errno */
	uint32_t arch;		/* AUDIT_ARCH_* of the syscall */
	uint64_t ip, sp;
};

int utrace_syscall_get(struct utrace_engine *e, struct utrace_syscall *sc);
int utrace_syscall_set_nr(struct utrace_engine *e, long nr);
int utrace_syscall_set_args(struct utrace_engine *e,
			    const unsigned long args[6]);
int utrace_syscall_set_return(struct utrace_engine *e, long ret);

/* What wait4(2) said with this stop (needs UTRACE_TRACER_RUSAGE). */
struct rusage;
int utrace_stop_rusage(struct utrace_engine *e, struct rusage *ru);

int utrace_regs_get(struct utrace_engine *e, struct user_regs_struct *regs);
int utrace_regs_set(struct utrace_engine *e,
		    const struct user_regs_struct *regs);
ssize_t utrace_mem_read(struct utrace_engine *e, uint64_t addr, void *buf,
			size_t len);
ssize_t utrace_mem_write(struct utrace_engine *e, uint64_t addr,
			 const void *buf, size_t len);
ssize_t utrace_mem_read_string(struct utrace_engine *e, uint64_t addr,
			       char *buf, size_t size);

/*
 * Other register sets (PTRACE_GETREGSET types: NT_PRFPREG, NT_X86_XSTATE;
 * not NT_PRSTATUS, which is utrace_regs_*) and the x86 debug registers
 * DR0-DR3, DR6 and DR7, of a thread held as for utrace_regs_get.  Not
 * cached: each call is one request to the kernel.  See utrace_regset_get(3).
 */
ssize_t utrace_regset_get(struct utrace_engine *e, unsigned int type,
			  void *buf, size_t len);
ssize_t utrace_regset_set(struct utrace_engine *e, unsigned int type,
			  const void *buf, size_t len);
int utrace_debugreg_get(struct utrace_engine *e, int n, uint64_t *value);
int utrace_debugreg_set(struct utrace_engine *e, int n, uint64_t value);

/* -- Syscall sets (beyond the kernel API) -------------------------------- */

int utrace_set_syscalls(struct utrace_engine *e, const long *nrs, size_t n);

/* -- Engines' view of the tracer (beyond the kernel API) ---------------- */

pid_t utrace_engine_tgid(const struct utrace_engine *e);

/* utrace_syscall_changes(): what engines did to the current syscall */
#define UTRACE_SYSCALL_CHANGED_NR	0x1	/* number set at entry */
#define UTRACE_SYSCALL_CHANGED_ARGS	0x2	/* arguments set at entry */
#define UTRACE_SYSCALL_CHANGED_ABORT	0x4	/* skipped (ABORT at entry) */
#define UTRACE_SYSCALL_CHANGED_RETURN	0x8	/* return value set */

int utrace_syscall_changes(struct utrace_engine *e);

/* -- The queued-event layer (utrace(7), the section of that name) ------- */

struct utrace_queue;

#define UTRACE_WATCH_PROCESS	0x0001	/* every thread of tid's process, now and later */
#define UTRACE_WATCH_CHILDREN	0x0002	/* and every process it forks, recursively */
#define UTRACE_WATCH_FIRST	0x0004	/* the queue's engines go before the others */

struct utrace_event {
	size_t size;			/* caller sets sizeof(struct utrace_event) */
	uint64_t id;			/* unique within the queue, increasing */
	pid_t tid;			/* the thread */
	pid_t pid;			/* its process (thread group id) */
	unsigned long type;		/* one UTRACE_EVENT() bit; 0: stopped by utrace_queue_stop */
	bool held;			/* the thread waits for utrace_queue_reply(id) */
	uint32_t action;		/* SIGNAL_*: the disposition bits report_signal gets */
	struct utrace_syscall syscall;	/* SYSCALL_ENTRY, SYSCALL_EXIT */
	siginfo_t info;			/* SIGNAL_* */
	unsigned long clone_flags;	/* CLONE */
	pid_t child;			/* CLONE: the new thread or process */
	pid_t former_tid;		/* EXEC */
	int status;			/* EXIT: exit code; DEATH: wait status */
	bool group_dead;		/* DEATH */
	int jctl_type;			/* JCTL: CLD_STOPPED or CLD_CONTINUED */
	struct timespec time;		/* CLOCK_MONOTONIC: when the tracer saw
					   it (a syscall's: utrace_syscall_time(3)) */
};

#define UTRACE_REPLY_RETURN	0x1	/* set the syscall's return value (exit; entry with ABORT) */
#define UTRACE_REPLY_ARGS	0x2	/* set the syscall's arguments (entry) */
#define UTRACE_REPLY_SIGINFO	0x4	/* deliver this siginfo instead (signal events) */

struct utrace_reply {
	size_t size;			/* sizeof(struct utrace_reply) */
	uint32_t action;		/* as a callback returns: resume action | syscall or signal action */
	unsigned flags;			/* UTRACE_REPLY_* */
	long ret;
	unsigned long args[6];
	siginfo_t info;
};

struct utrace_iov {
	uint64_t addr;
	void *buf;
	size_t len;
};

/* Records waiting unread above which events hold their threads. */
#define UTRACE_QUEUE_LIMIT	65536

int utrace_queue_new(struct utrace_tracer *t, struct utrace_queue **out);
void utrace_queue_free(struct utrace_queue *q);
int utrace_queue_fd(struct utrace_queue *q);
int utrace_queue_watch(struct utrace_queue *q, pid_t tid, unsigned flags,
		       unsigned long events, unsigned long hold);
int utrace_queue_unwatch(struct utrace_queue *q, pid_t tid, unsigned flags);
int utrace_queue_set_syscalls(struct utrace_queue *q, pid_t tid,
			      const long *nrs, size_t n);
int utrace_queue_next(struct utrace_queue *q, struct utrace_event *ev,
		      int timeout_ms);
int utrace_queue_reply(struct utrace_queue *q, uint64_t id,
		       const struct utrace_reply *r);
int utrace_queue_stop(struct utrace_queue *q, pid_t pid, int timeout_ms);
int utrace_queue_resume(struct utrace_queue *q, pid_t pid);
int utrace_queue_regs_get(struct utrace_queue *q, pid_t tid,
			  struct user_regs_struct *regs);
int utrace_queue_regs_set(struct utrace_queue *q, pid_t tid,
			  const struct user_regs_struct *regs);
ssize_t utrace_queue_mem_readv(struct utrace_queue *q, pid_t tid,
			       const struct utrace_iov *iov, size_t n);
ssize_t utrace_queue_mem_writev(struct utrace_queue *q, pid_t tid,
				const struct utrace_iov *iov, size_t n);
/*
 * Register sets other than the general ones (NT_PRFPREG, NT_X86_XSTATE)
 * and the x86 debug registers DR0-DR3, DR6, DR7, of a thread this queue
 * holds (as utrace_regset_get/set, utrace_debugreg_get/set).
 */
ssize_t utrace_queue_regset_get(struct utrace_queue *q, pid_t tid,
				unsigned int type, void *buf, size_t len);
ssize_t utrace_queue_regset_set(struct utrace_queue *q, pid_t tid,
				unsigned int type, const void *buf,
				size_t len);
int utrace_queue_debugreg_get(struct utrace_queue *q, pid_t tid, int n,
			      uint64_t *value);
int utrace_queue_debugreg_set(struct utrace_queue *q, pid_t tid, int n,
			      uint64_t value);
/*
 * Let one thread that utrace_queue_stop holds go (UTRACE_RESUME or
 * UTRACE_SINGLESTEP); the process's other threads stay stopped.
 */
int utrace_queue_resume_thread(struct utrace_queue *q, pid_t tid,
			       uint32_t action);
/*
 * Hold one watched thread as utrace_queue_stop holds each thread of a
 * process, the others running on (a debugger's non-stop mode): 1 once it
 * is stopped (a record of type 0 says so), -ETIMEDOUT.  Its threads born
 * meanwhile are not held; utrace_queue_resume_thread lets it go.
 */
int utrace_queue_stop_thread(struct utrace_queue *q, pid_t tid,
			     int timeout_ms);
/* -- ptrace as an engine (beyond the kernel API) ------------------------- */

int utrace_emulate_ptrace(struct utrace_tracer *t, pid_t tid);

/* -- Following a process and its children (utrace_follow(3)) ----------- */

/*
 * Called on the loop thread for each thread a follow takes on, before it
 * runs: attach its engines there.  @parent is the thread whose clone made
 * it (0: an existing thread of the process found by utrace_follow).
 */
typedef int (*utrace_follow_fn)(void *arg, pid_t tid, pid_t tgid,
				pid_t parent, unsigned long clone_flags);

int utrace_follow(struct utrace_tracer *t, pid_t tid, unsigned flags,
		  utrace_follow_fn fn, void *arg);

/* -- Several programs on one process (utrace(7), the same section) ----- */

#define UTRACE_SERVE_DEFAULT	0

int utrace_tracer_serve(struct utrace_tracer *t, unsigned flags);
int utrace_queue_connect(pid_t tid, struct utrace_queue **out);
int utrace_tracer_joiners(struct utrace_tracer *t);

/* -- Syscalls observed in-process (utrace(7), the same section) -------- */

/* utrace_tracer_set_records */
#define UTRACE_RECORDS_OFF	0	/* stops only: the kernel vouches for each */
#define UTRACE_RECORDS_ON	1	/* observers' syscalls from in-process records */

int utrace_tracer_set_records(struct utrace_tracer *t, unsigned mode);
int utrace_set_observer(struct utrace_engine *e, bool observer);
int utrace_from_record(struct utrace_engine *e);
int utrace_syscall_time(struct utrace_engine *e, clockid_t clock,
			struct timespec *entry, struct timespec *exit);

/* What a record of a syscall holds besides its registers (utrace_set_capture(3)). */
#define UTRACE_CAPTURE_ENTRY	0x1	/* read at the syscall's entry */
#define UTRACE_CAPTURE_EXIT	0x2	/* read at its exit */
#define UTRACE_CAPTURE_WHOLE	0x4	/* in when: all of it, or the stop path */
#define UTRACE_CAPTURE_FIXED	0	/* len bytes */
#define UTRACE_CAPTURE_ARGLEN	1	/* argument len_arg bytes, at most len */
#define UTRACE_CAPTURE_RETLEN	2	/* the return value's bytes, at most len */
#define UTRACE_CAPTURE_STRING	3	/* up to a NUL, at most len bytes */

struct utrace_capture {
	size_t size;		/* sizeof(struct utrace_capture) */
	unsigned arg;		/* the argument (0-5) that holds the address */
	unsigned when;		/* UTRACE_CAPTURE_ENTRY and/or _EXIT (| _WHOLE) */
	unsigned kind;		/* UTRACE_CAPTURE_FIXED ... _STRING */
	unsigned len_arg;	/* for _ARGLEN; with _WHOLE: the bound */
	size_t len;		/* bytes, or the limit */
};

int utrace_set_capture(struct utrace_tracer *t, long nr,
		       const struct utrace_capture *rules, size_t n);
/* records delivered, traps taken, sites rewritten, traps sent to stops */
int utrace_tracer_record_stats(struct utrace_tracer *t, uint64_t *out,
			       size_t n);

/* Credentials as ptrace's permission rule weighs them (utrace_may_ptrace(3)). */
#define UTRACE_CRED_NGROUPS	64

struct utrace_cred {
	size_t size;			/* sizeof(struct utrace_cred) */
	pid_t pid;			/* the process (thread group) they are of */
	uid_t uid[4];			/* real, effective, saved, filesystem */
	gid_t gid[4];
	uint64_t cap_eff, cap_prm, cap_inh;
	uint64_t userns_dev, userns_ino;	/* its user namespace (0: not known) */
	int ngroups;
	gid_t groups[UTRACE_CRED_NGROUPS];	/* supplementary (the first 64) */
};

#define UTRACE_MAY_PROCESS	0x1	/* every thread of the target's process */

int utrace_cred_read(pid_t tid, struct utrace_cred *c);
int utrace_may_ptrace(const struct utrace_cred *c, pid_t tid, unsigned flags);

#ifdef __cplusplus
}
#endif

#endif /* UTRACE_H */
