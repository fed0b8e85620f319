/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the layers built on the core (src/queue, src/share, src/ptrace,
 * src/record) may use of it beside the public engine API.  Layers include
 * this header, never core/internal.h: struct utrace_tracer, struct
 * uthread and struct utrace_engine stay the core's.
 *
 * The core never names a layer.  A layer that needs the core to call it
 * registers a table of hooks on the tracer (utrace__layer_register), once,
 * and finds its own state again with utrace__layer_data.  Tables stay
 * registered until utrace_tracer_free, whose last step is each table's
 * free hook.
 */
#ifndef UTRACE_CORE_LAYER_H
#define UTRACE_CORE_LAYER_H

#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <sys/types.h>
#include <stddef.h>
#include "utrace.h"

#define UTRACE_EXPORT __attribute__((visibility("default")))

/* Syscall numbers an engine's set may hold: 0 to UTRACE__SYSSET_BITS - 1. */
#define UTRACE__SYSSET_BITS	1024

/* -- Hooks ----------------------------------------------------------------- */

/* A traced thread, opaque to layers (the utrace__th_* calls below). */
struct uthread;
struct user_regs_struct;

/*
 * A layer's hooks.  Every one may be NULL.  @data is what the layer gave
 * utrace__layer_register.  Tables run in increasing @order (a layer built
 * on another one has the larger order: its after_dispatch sees what the
 * lower one did), closing hooks in decreasing order.
 */
struct utrace__layer {
	int order;
	/*
	 * Loop thread, at the end of each dispatch and of each
	 * utrace__settle_now, once the threads are settled.
	 */
	void (*after_dispatch)(struct utrace_tracer *t, void *data);
	/*
	 * Loop thread, first thing in utrace_tracer_free: every thread is
	 * still traced and calls from other threads still run
	 * (utrace__run_requests runs them meanwhile).
	 */
	void (*closing)(struct utrace_tracer *t, void *data);
	/* Loop thread, last thing in utrace_tracer_free: no engine is left. */
	void (*free)(struct utrace_tracer *t, void *data);
	/*
	 * Loop thread: thread @tid is at a SECCOMP_RET_TRACE stop of a filter
	 * the program installed itself (@ret_data: its SECCOMP_RET_DATA,
	 * @arch: the syscall's AUDIT_ARCH_*), after any syscall-entry report.
	 * True: the layer made the stop its own.  When no layer does, the
	 * syscall fails with ENOSYS, as the kernel fails it for a thread
	 * whose tracer did not ask for these stops.
	 */
	bool (*foreign_seccomp)(struct utrace_tracer *t, void *data, pid_t tid,
				uint32_t ret_data, uint32_t arch);
	/*
	 * Any thread: the process that traces @tid through this layer (an
	 * emulated ptrace), or 0.
	 */
	pid_t (*tracer_of)(struct utrace_tracer *t, void *data, pid_t tid);
	/*
	 * Loop thread: a wait status of @th, a thread @t traces, before the
	 * core handles it.  True: the layer handled a stop itself and left
	 * it a signal stop with no signal (utrace__th_signal_stop), which
	 * the core settles as usual.  The first layer that says true wins.
	 */
	bool (*status)(struct utrace_tracer *t, void *data, struct uthread *th,
		       int status);
	/*
	 * Loop thread: @th is restarted from its stop with ptrace request
	 * @req, its registers written back.  Returns the request to use, or
	 * -1 when the thread died meanwhile (utrace__th_gone).
	 */
	long (*restart)(struct utrace_tracer *t, void *data,
			struct uthread *th, long req);
	/* Loop thread: @th's engines, masks, sets or observers changed. */
	void (*recalc)(struct utrace_tracer *t, void *data, struct uthread *th);
	/* Loop thread: @th is let go (still stopped and traced). */
	void (*release)(struct utrace_tracer *t, void *data,
			struct uthread *th);
	/* Loop thread: @th is forgotten (dead, or let go). */
	void (*forget)(struct utrace_tracer *t, void *data, struct uthread *th);
	/*
	 * Loop thread, in a pass made from a record (utrace__record_report):
	 * what the record captured of [@addr, @addr + @len), from @addr on;
	 * -ENODATA when it captured nothing there.
	 */
	ssize_t (*rec_read)(struct utrace_tracer *t, void *data,
			    struct uthread *th, uint64_t addr, void *buf,
			    size_t len);
	/*
	 * Loop thread, in each dispatch once the calls of other threads
	 * ran and before the threads are settled: carry out the work that
	 * came on the layer's own descriptors (a server's requests), so
	 * that what it lets go runs in this dispatch.
	 */
	void (*input)(struct utrace_tracer *t, void *data);
	/*
	 * Loop thread, around the waits of a dispatch (UTRACE__SLEEP_*):
	 * before a blocking wait for a status the layer may point its
	 * descriptors' signals at the loop thread (utrace__wake_signal)
	 * and returns UTRACE__SLEEP_ARMED, or UTRACE__SLEEP_READY when its
	 * input is there already (the loop does not block); after it, it
	 * points them away again, so that the application's own system
	 * calls on the loop thread are never interrupted by them.
	 */
	int (*sleep)(struct utrace_tracer *t, void *data, int how);
};

/* The @how of the sleep hook; its answers. */
enum {
	UTRACE__SLEEP_BLOCK,	/* about to block in waitid */
	UTRACE__SLEEP_WOKE,	/* back from it */
	/*
	 * This dispatch waits in a poll of utrace_fd, or the application
	 * polls it: input must reach the loop by utrace__call, not signals.
	 */
	UTRACE__SLEEP_POLLED,
};
#define UTRACE__SLEEP_ARMED	1
#define UTRACE__SLEEP_READY	2

/* The most tables one tracer takes. */
#define UTRACE__NLAYERS	8

/*
 * utrace__layer_register - put @ops (with @data) on @t.  Loop thread.
 * Returns 0, -EEXIST (@ops is on @t already), -ENOSPC.
 */
int utrace__layer_register(struct utrace_tracer *t,
			   const struct utrace__layer *ops, void *data);
/* The @data @ops was registered with on @t, or NULL.  Any thread. */
void *utrace__layer_data(struct utrace_tracer *t,
			 const struct utrace__layer *ops);
/* The first tracer_of hook's answer that is not 0, or 0.  Any thread. */
pid_t utrace__tracer_of(struct utrace_tracer *t, pid_t tid);

/* -- The loop ---------------------------------------------------------------- */

bool utrace__on_loop(const struct utrace_tracer *t);
/* Wake the loop thread if it blocks waiting for a status.  Any thread. */
void utrace__wake_loop(struct utrace_tracer *t);
/*
 * The signal that wakes the loop thread out of a blocking wait for a
 * status without a race (F_SETSIG of a descriptor whose F_SETOWN_EX is
 * the loop thread, while a sleep hook has it armed), or -ENOTSUP when the
 * application handles that signal itself.  Any thread.
 */
int utrace__wake_signal(void);
/*
 * Run @fn(@arg) on the loop thread and return its result: a plain call on
 * the loop thread; from another thread, carried there and run between two
 * callbacks, or -EDEADLK when the loop can never run it (loop.c).
 */
int utrace__call(struct utrace_tracer *t, int (*fn)(void *), void *arg);
/* Run the calls other threads carried here (a closing hook waits on them). */
int utrace__run_requests(struct utrace_tracer *t);
/*
 * A call made on the loop thread between two dispatches let threads go
 * (a single-threaded consumer's reply): settle them now and run the
 * after_dispatch hooks, as the next dispatch would first thing, so the
 * threads run at once.  Nothing inside a dispatch or off the loop thread.
 */
void utrace__settle_now(struct utrace_tracer *t);
/* Threads wait to be settled: a dispatch has work without a wait status. */
bool utrace__settle_pending(const struct utrace_tracer *t);
/* The loop thread is inside a dispatch (a hook or callback runs). */
bool utrace__dispatching(const struct utrace_tracer *t);
/* How many threads @t traces (loop thread). */
unsigned utrace__nthreads(const struct utrace_tracer *t);
/*
 * Spawned children get no seccomp filter from now on (loop thread): a
 * layer whose own syscalls must not stop (SPEC 15's records) asks it.
 */
void utrace__no_spawn_filter(struct utrace_tracer *t, bool none);
/* Is @th under the library's seccomp filter (installed at spawn)? */
bool utrace__th_filtered(const struct uthread *th);
/* Add UTRACE_TRACER_* options to @t's (any thread). */
void utrace__tracer_add_options(struct utrace_tracer *t, unsigned options);

/* -- Engines ------------------------------------------------------------------ */

/*
 * utrace__attach flag: the new engine goes before every engine attached to
 * the thread so far instead of after them (a queue's UTRACE_WATCH_FIRST).
 */
#define UTRACE__ATTACH_FIRST	0x10000

/*
 * Memory of any thread the tracer traces, stopped or not (process_vm_*,
 * then /proc/TID/mem): for a layer putting back what a consumer wrote.
 */
ssize_t utrace__mem_xfer(pid_t tid, uint64_t addr, void *buf, size_t len,
			 bool write);

/* utrace_attach with UTRACE__ATTACH_FIRST, on the loop thread. */
int utrace__attach(struct utrace_tracer *t, pid_t tid, int flags,
		   const struct utrace_engine_ops *ops, void *data,
		   struct utrace_engine **engine);

/*
 * utrace_follow's work on the loop thread; @threads: also call @fn (with
 * parent 0) for each thread of @tid's process traced now.
 */
int utrace__follow(struct utrace_tracer *t, pid_t tid, unsigned flags,
		   utrace_follow_fn fn, void *arg, bool threads);

/*
 * The process of thread @tid, which @t traces (new and not yet stopped
 * included), or -ESRCH when @t does not trace it.  Loop thread.
 */
pid_t utrace__thread_tgid(struct utrace_tracer *t, pid_t tid);

/* -- Where a thread is stopped ----------------------------------------------- */

/* Where a stopped thread sits, which decides how it is restarted. */
enum utrace__stop {
	STOP_NONE,		/* running */
	STOP_SPAWN,		/* SIGSTOP before execve of utrace_spawn */
	STOP_INITIAL,		/* first stop of an auto-attached child */
	STOP_SYSCALL_ENTRY,
	STOP_SYSCALL_EXIT,
	STOP_SIGNAL,		/* signal-delivery stop */
	STOP_STEP,		/* trap after a single/block step */
	STOP_GROUP,		/* job-control stop (restart with LISTEN) */
	STOP_INTERRUPT,		/* PTRACE_INTERRUPT or LISTEN re-trap */
	STOP_CLONE,		/* PTRACE_EVENT_CLONE/FORK/VFORK */
	STOP_EXEC,
	STOP_EXIT,
};

/*
 * The ptrace stop the thread of @e sits in, or STOP_NONE (running, new,
 * dying, or @e detached).  A thread at STOP_CLONE or STOP_EXEC runs on to
 * the syscall's exit before an engine's UTRACE_STOP holds it.  Loop thread.
 */
enum utrace__stop utrace__engine_stop(const struct utrace_engine *e);
/* The siginfo of that stop (a signal, a step's trap): 0 or -ESRCH. */
int utrace__engine_siginfo(const struct utrace_engine *e, siginfo_t *info);
/*
 * Is the thread of @e in its process's group stop (stopped there, or
 * restarted with PTRACE_LISTEN and still in it)?  Loop thread.
 */
bool utrace__engine_in_group_stop(const struct utrace_engine *e);
/*
 * The thread of @e sits in a group stop (STOP_GROUP): when restarted,
 * let it run as from a trap although its process stays stopped (what a
 * ptrace restart other than PTRACE_LISTEN does).  0, or -ESRCH when it is
 * not in a group stop.  Loop thread.
 */
int utrace__engine_leave_group_stop(struct utrace_engine *e);
/*
 * The thread of @e left its process's group stop (above) and the process
 * is still stopped: put it back, as the kernel puts back a tracee that is
 * detached there (__ptrace_unlink's JOBCTL_STOP_PENDING).  A stopped
 * thread traps back into the group stop when next restarted, before it
 * reaches user mode (a signal it is given has its handler frame set up
 * first); a running one is interrupted now, and again after each other
 * stop it reaches first.  Loop thread.
 */
void utrace__engine_regroup(struct utrace_engine *e);

/* utrace__engine_ptrace flags */
#define UTRACE__PTRACE_REGS	0x1	/* may change the general registers */

/*
 * ptrace(@req, tid, @addr, @data) on the thread of @e, which must sit in
 * a ptrace stop (utrace__engine_stop), for what the library keeps no
 * state of (debug registers, extended register sets, PEEKSIGINFO,
 * ARCH_PRCTL).  With UTRACE__PTRACE_REGS the library's copy of the
 * general registers is written back first and read again afterwards.
 * Returns 0 with ptrace's value in *@ret (may be NULL), -ESRCH when the
 * thread is not in a stop, or ptrace's -errno.  Loop thread.
 */
int utrace__engine_ptrace(struct utrace_engine *e, int req, void *addr,
			  void *data, unsigned flags, long *ret);

/*
 * System call @nr with @args, made by the thread of @e as if it had made
 * it itself, its return value (a negative errno) in *@ret; the thread
 * must sit at a syscall-exit stop, where it stays with the registers it
 * had.  Engines see nothing of it; a signal that comes meanwhile is sent
 * again when the thread is restarted.  0, -EBUSY (not at a syscall exit)
 * or -ESRCH (gone, or SIGKILL came).  Loop thread, in a callback for the
 * thread or while an engine holds it (core/syscall_run.c).
 */
int utrace__engine_run_syscall(struct utrace_engine *e, long nr,
			       const uint64_t args[6], long *ret);

/*
 * Engine @e holds its thread at stops or steps it for a tracer of its own
 * (a tracee of the ptrace emulation): the thread's process leaves the
 * record path, so that nothing of it shows (utrace(7)).  Any thread.
 */
int utrace__engine_set_holder(struct utrace_engine *e, bool on);

/* -- A traced thread, for the hooks that get one (loop thread) ----------------- */

pid_t utrace__th_tid(const struct uthread *th);
pid_t utrace__th_tgid(const struct uthread *th);
/* Where it is stopped (STOP_NONE: not stopped), and the signal it stops for. */
enum utrace__stop utrace__th_stop(const struct uthread *th);
int utrace__th_stop_sig(const struct uthread *th);
/* The layer @ops's own pointer on the thread (NULL until it sets it). */
void **utrace__th_data(struct uthread *th, const struct utrace__layer *ops);
/* Was it last restarted with a step request (PTRACE_SINGLESTEP/BLOCK)? */
bool utrace__th_stepping(const struct uthread *th);
/* Does an engine hold it for a tracer of its own (utrace__engine_set_holder)? */
bool utrace__th_held(const struct uthread *th);
/* Stopped at a signal stop whose signal the layer took: none is delivered. */
void utrace__th_signal_stop(struct uthread *th);
/*
 * The library's copy of the stopped thread's general registers (NULL:
 * unreadable); after changing it, utrace__th_regs_changed writes it back
 * at the restart.  utrace__th_regs_drop: the layer changed the registers
 * itself with ptrace, the copy is stale.
 */
struct user_regs_struct *utrace__th_regs(struct uthread *th);
void utrace__th_regs_changed(struct uthread *th);
void utrace__th_regs_drop(struct uthread *th);
/*
 * Its syscalls reach the tracer through the layer's traps, not
 * PTRACE_SYSCALL: the core does not interrupt it for running without.
 */
void utrace__th_set_trapped(struct uthread *th, bool trapped);
/* It died while the layer waited for it: @status goes back to the loop. */
void utrace__th_gone(struct uthread *th, int status);

/* -- Syscalls observed in-process (utrace(7), the same section) ------------ */

/*
 * Which syscalls of @th may come from records: those in @capture that
 * some engine wants and every engine a pass for them visits observes
 * (@want); those some engine wants otherwise (@stop).  1024-bit sets.
 */
void utrace__th_observed(struct uthread *th, const uint64_t *capture,
			 uint64_t *want, uint64_t *stop);
/*
 * The syscall-entry (or -exit, @exit) callbacks of @th's engines made
 * from a record: @sc and @regs are what utrace_syscall_get and
 * utrace_regs_get answer, @times (CLOCK_MONOTONIC ns of the syscall's
 * entry and exit, 0: not known) what utrace_syscall_time answers; votes
 * count as UTRACE_RESUME, changes are refused (utrace_set_observer(3)).
 * The thread may be running.
 */
void utrace__record_report(struct uthread *th, bool exit,
			   const struct utrace_syscall *sc,
			   const struct user_regs_struct *regs,
			   const int64_t times[2]);

#endif
