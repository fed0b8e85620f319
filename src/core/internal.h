/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libutrace private definitions.
 *
 * Threading rule: every field below is read and written on the tracer's
 * loop thread only, except where a comment says "atomic".  Public calls made
 * on another thread are carried to the loop thread (loop.c, utrace__call).
 */
#ifndef UTRACE_INTERNAL_H
#define UTRACE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <linux/ptrace.h>
#include "utrace.h"
#include "core/clock.h"
#include "core/layer.h"
#include "core/proc.h"
#include "core/tidmap.h"

#define UTRACE__EVENT_MASK	((1UL << _UTRACE_NEVENTS) - 1)

/* struct utrace_engine.flags (atomic) */
enum {
	ENG_STOP	= 1 << 0,	/* this engine holds the thread stopped */
	ENG_DETACHED	= 1 << 1,	/* detach requested: no more callbacks */
	ENG_UNLINKED	= 1 << 2,	/* fully detached: off the thread's list */
};

struct uthread;

struct utrace_engine {
	const struct utrace_engine_ops *ops;
	void *data;
	unsigned long events;
	atomic_int refs;
	atomic_uint flags;
	atomic_int tid;
	atomic_int tgid;
	struct utrace_tracer *t;
	struct uthread *th;		/* NULL once unlinked */
	struct utrace_engine *prev, *next;
	uint64_t *sysset;		/* NULL: every syscall */
	bool first;			/* linked before the others (loop thread) */
	bool observer;			/* its syscall callbacks only look */
	bool holder;			/* it holds or steps the thread: the
					   thread keeps to stops (layer.h) */
};

enum utrace__thstate {
	TH_NEW,			/* auto-attached child, first stop not seen */
	TH_RUNNING,
	TH_STOPPED,		/* in a ptrace stop, not restarted yet */
	TH_DEAD,		/* death seen, reporting death/reap */
};

/* Holds that keep a stopped thread stopped regardless of engines. */
enum {
	HOLD_SPAWN	= 1 << 0,	/* released at the next dispatch */
	HOLD_CLONE	= 1 << 1,	/* until the parent's report_clone pass */
};

/*
 * A signal the library must make happen later with an exact siginfo: a held
 * one (reported again when it comes) or an injected one (delivered as it
 * is).  Sent as a placeholder that carries a cookie; at the placeholder's
 * delivery stop the real siginfo is put in its place.
 */
struct utrace__pend {
	struct utrace__pend *next;
	siginfo_t info;
	uint64_t cookie;
	bool report;
	bool again;		/* reported before it was held */
	bool sent;
};

struct uthread {
	pid_t tid, tgid;
	struct utrace_tracer *t;
	struct utrace__tidnode hnode;		/* in t->threads */
	struct uthread *snext;			/* settle list */
	bool on_settle;
	struct utrace_engine *head, *tail;	/* attached, in attach order */
	struct utrace_engine *ahead;		/* attached during a pass */
	unsigned long events;			/* union of engines' masks */
	/* engines a syscall pass visits, in attach order (report.c) */
	struct utrace_engine **sys;
	unsigned nsys, sys_cap;
	bool sys_dirty;
	enum utrace__thstate state;
	enum utrace__stop stop;
	unsigned hold;
	int in_pass;
	int dead;		/* 1: death report begun, 2: reap begun */
	bool interrupt_sent;
	bool entry_held;	/* was held at this syscall entry */
	bool parked;		/* held at this stop: reports wait for release */
	bool listening;		/* restarted with PTRACE_LISTEN */
	bool in_group_stop;
	bool regroup;		/* trap back into it at the next restart */
	bool born_stopped;	/* first trap was a group stop's (settle joins it) */
	bool syscall_mode;	/* last restarted with PTRACE_SYSCALL */
	bool step_mode;		/* last restarted with a step request */
	bool kill_on_exit;
	long opts;		/* ptrace options in force */
	bool orphan;		/* first stop seen before the parent's event */
	bool killed;		/* SIGKILL broke in: nothing may hold it */
	bool filtered;		/* our seccomp filter is installed */
	bool no_filter;		/* UTRACE_SPAWN_NO_FILTER */
	bool setup;		/* child installing it: report nothing */
	bool full;		/* must stop at every syscall (recalc) */
	bool entry_reported;	/* this syscall's entry was reported */
	bool want_exit;		/* an engine wants this syscall's exit */
	uint64_t fset[UTRACE__SYSSET_BITS / 64];	/* filter's syscalls */
	int req;		/* pending REPORT/INTERRUPT, or RESUME */
	int pass_vote;		/* smallest non-STOP vote of this pass */
	int step;		/* SINGLESTEP/BLOCKSTEP wanted, or RESUME */
	int last_step;		/* what the last restart used */
	int stop_sig;		/* signal to pass when restarting */
	/* syscall in progress */
	struct utrace_syscall sc;
	bool abort;		/* entry: final action was ABORT */
	bool abort_pending;	/* exit of an aborted syscall comes next */
	bool ret_set;
	long ret_val;
	unsigned changes;	/* UTRACE_SYSCALL_CHANGED_* of this syscall */
	/* signals owed to the program, sent as placeholders (signal.c) */
	struct utrace__pend *pend;
	/* utrace_follow: who takes on this thread's new threads and children */
	struct utrace__follow *follows;
	/* held (HOLD) at this signal-delivery stop: reported again here */
	bool held;
	unsigned held_passes;	/* HOLDs in a row at this stop */
	siginfo_t held_info;
	bool held_again;	/* engines saw it arrive before it was held */
	bool handler_trap;	/* stepping into a handler: HANDLER report */
	/*
	 * Its signal dispositions as /proc last showed them, kept while
	 * every change to them is seen (signal.c, "Dispositions").
	 */
	bool disp_own;		/* no change can escape us (since exec) */
	bool disp_valid;	/* disp_ign/disp_cgt are current */
	uint64_t disp_ign, disp_cgt;
	uint64_t disp_kept;	/* caught ones known not to reset on delivery */
	uint64_t disp_verify;	/* delivered since; flags not known yet */
	/* caches for the current stop */
	bool regs_valid, regs_dirty;
	struct user_regs_struct regs;
	siginfo_t si;
	/* wait4's usage with the status of this stop (UTRACE_TRACER_RUSAGE) */
	bool stop_ru_valid;
	struct rusage stop_ru;
	/* its syscalls reach the tracer through a layer's traps (layer.h) */
	bool sys_trapped;
	/*
	 * Inside a pass made from a record (utrace__record_report): the
	 * callbacks may look (th->sc, rec_regs) but not change or hold.
	 */
	bool rec_pass;
	struct user_regs_struct rec_regs;
	/*
	 * When the syscall in progress entered and left the kernel
	 * (CLOCK_MONOTONIC ns, 0: not known): the tracer's stops, or in a
	 * pass made from a record the record's own (utrace_syscall_time).
	 */
	int64_t sc_time[2], rec_time[2];
	/* each layer's own pointer (utrace__th_data), by registration */
	void *ldata[UTRACE__NLAYERS];
};

struct utrace__status {
	pid_t pid;
	int status;
	bool has_ru;		/* UTRACE_TRACER_RUSAGE: ru came with it */
	struct rusage ru;
};

/*
 * The death of a thread the tracer does not know (stops.c): a new child
 * killed before its parent's clone event was handled, kept for that event.
 */
#define UTRACE__NEARLY	16	/* a power of two */
struct utrace__early {
	pid_t pid;		/* 0: free */
	int status;
};

struct utrace__req {
	int (*fn)(void *arg);
	void *arg;
	int ret;
	bool done;
	bool running;		/* taken off the queue by the loop */
	struct utrace__req *next;
};

struct utrace_tracer {
	pid_t pid, loop_tid;
	struct utrace_tracer *tnext;		/* all tracers (loop.c) */
	struct utrace__tidmap threads;		/* every struct uthread */
	unsigned norphans;			/* new children, parent unseen */
	struct uthread *settle;			/* threads to reconsider */
	struct uthread **spawned;		/* held at spawn */
	unsigned nspawned, spawned_cap;
	struct utrace__status *q;		/* drained wait statuses */
	size_t qlen, qcap, qpos;
	struct utrace__early early[UTRACE__NEARLY];	/* a ring */
	unsigned nearly;			/* deaths put in it */
	/* shared with other threads (lock) */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct utrace__req *reqs, **reqs_tail;
	atomic_bool brk;
	atomic_bool nreqs;			/* reqs is not empty */
	atomic_bool sleeping;			/* loop blocked in waitpid */
	atomic_uint options;			/* utrace_tracer_set_options */
	bool no_spawn_filter;			/* a layer asked: utrace__no_spawn_filter */
	unsigned long gen;			/* dispatch generation */
	int efd;				/* utrace_fd, -1 until asked */
	/*
	 * One page of a thread's memory, read whole for small reads and
	 * kept for the rest of one report pass only (mc_tid 0: empty).
	 */
	pid_t mc_tid;
	uint64_t mc_addr;
	size_t mc_len;
	char mc_buf[4096];
	bool waiter_started, waiter_stop;
	bool closing;				/* utrace_tracer_free began */
	bool dispatching;			/* loop thread in dispatch_once */
	unsigned ncallers;			/* threads waiting in utrace__call */
	pthread_t waiter;
	/*
	 * The layers' hooks (layer.c): filled in registration order, each
	 * entry written before nlayers counts it, so any thread may read
	 * the first nlayers; the loop thread runs them in lorder's order.
	 */
	struct utrace__hook {
		const struct utrace__layer *ops;
		void *data;
	} layers[UTRACE__NLAYERS];
	atomic_uint nlayers;
	unsigned char lorder[UTRACE__NLAYERS];
};

/* loop.c */

/* thread.c */
struct uthread *utrace__thread_find(struct utrace_tracer *t, pid_t tid);
struct uthread *utrace__thread_new(struct utrace_tracer *t, pid_t tid,
				   pid_t tgid);
void utrace__thread_rehash(struct uthread *th, pid_t tid);
void utrace__thread_free(struct uthread *th);
void utrace__thread_recalc(struct uthread *th);
bool utrace__thread_held(const struct uthread *th);
bool utrace__thread_has_engines(const struct uthread *th);
void utrace__settle_later(struct uthread *th);
void utrace__settle(struct uthread *th);
void utrace__kick(struct utrace_tracer *t);
void utrace__settle_all(struct utrace_tracer *t);
void utrace__interrupt(struct uthread *th);
void utrace__release_thread(struct uthread *th);
void utrace__death(struct uthread *th, int status, bool superseded);
int utrace__regs_load(struct uthread *th);
long utrace__ptrace_opts(bool kill_on_exit);

/* engine.c */
struct utrace_engine *utrace__engine_new(struct uthread *th,
					 const struct utrace_engine_ops *ops,
					 void *data);
void utrace__engine_mark_detached(struct utrace_engine *e);
void utrace__engine_unlink(struct utrace_engine *e);
bool utrace__engine_wants_nr(const struct utrace_engine *e, long nr);

/* report.c: reporting passes (pure logic: callbacks, no ptrace) */
enum utrace__ev {
	EV_QUIESCE,		/* event 0 */
	EV_SIGNAL_REPORT,	/* event 0 as a signal pass (INTERRUPT) */
	EV_SYSCALL_ENTRY,
	EV_SYSCALL_EXIT,
	EV_CLONE,
	EV_EXEC,
	EV_EXIT,
	EV_SIGNAL,
	EV_JCTL,
	EV_DEATH,
	EV_REAP,
};

struct utrace__event {
	enum utrace__ev type;
	unsigned long bit;	/* UTRACE_EVENT() of a signal's class */
	uint32_t action;	/* initial event-specific bits */
	long nr;		/* syscall number, for syscall sets */
	unsigned long clone_flags;
	pid_t child, former;
	int status, type_arg, notify;
	bool group_dead;
	siginfo_t *info;
};

uint32_t utrace__report(struct uthread *th, struct utrace__event *ev);
bool utrace__wants(struct uthread *th, const struct utrace__event *ev);
bool utrace__exit_wanted(struct uthread *th, long nr);
void utrace__pass_end(struct uthread *th);

/* follow.c */
struct utrace__follow {
	struct utrace__follow *next;
	utrace_follow_fn fn;
	void *arg;
	unsigned flags;			/* UTRACE_WATCH_* */
};
void utrace__follow_clone(struct uthread *th, pid_t child,
			  unsigned long clone_flags);
void utrace__follow_free(struct uthread *th);

/* stops.c */
void utrace__handle_status(struct utrace_tracer *t, pid_t pid, int status,
			   const struct rusage *ru);
bool utrace__take_queued(struct utrace_tracer *t, pid_t pid,
			 struct utrace__status *out);
void utrace__requeue(struct utrace_tracer *t, const struct utrace__status *s);
pid_t utrace__wait(struct utrace_tracer *t, pid_t pid, int options,
		   struct utrace__status *out);
void utrace__signal_pass(struct uthread *th, bool set_info, bool again);
void utrace__group_stop(struct uthread *th);
void utrace__await_first_stop(struct uthread *th);

/* layer.c: the hooks */
void utrace__layers_after_dispatch(struct utrace_tracer *t);
void utrace__layers_input(struct utrace_tracer *t);
int utrace__layers_sleep(struct utrace_tracer *t, int how);
void utrace__layers_closing(struct utrace_tracer *t);
void utrace__layers_free(struct utrace_tracer *t);
bool utrace__layers_foreign_seccomp(struct uthread *th, uint32_t data);
bool utrace__layers_status(struct uthread *th, int status);
long utrace__layers_restart(struct uthread *th, long req);
void utrace__layers_recalc(struct uthread *th);
void utrace__layers_release(struct uthread *th);
void utrace__layers_forget(struct uthread *th);
ssize_t utrace__layers_rec_read(struct uthread *th, uint64_t addr, void *buf,
				size_t len);


/* signal.c */
unsigned long utrace__signal_class(struct uthread *th, int sig,
				  uint32_t *action);
void utrace__disp_exec(struct uthread *th);
void utrace__disp_restart(struct uthread *th, long req, int sig);
int utrace__signal_final(struct uthread *th, uint32_t result, bool seen);
void utrace__signal_report_final(struct uthread *th, uint32_t result);
void utrace__signal_pend(struct uthread *th, const siginfo_t *info,
			 bool report, bool again);
void utrace__signal_queue(struct uthread *th);
bool utrace__signal_placeholder(struct uthread *th, int sig, bool *report,
				bool *again);
void utrace__signal_release(struct uthread *th, bool send);

/* spawn.c */
#define UTRACE__FILTER_MAX 4096	/* BPF_MAXINSNS */
void utrace__release_spawned(struct utrace_tracer *t);
struct sock_filter *utrace__spawn_filter_buf(void);
unsigned short *utrace__spawn_filter_len(void);

/*
 * SECCOMP_RET_DATA of our filter's RET_TRACE (filter.c), from the tracer's
 * pid so that a tracer traced by another (nested) marks its filter apart:
 * a seccomp stop with other data, or on a thread we did not filter, is
 * from a filter the program installed itself.
 */
static inline uint32_t utrace__filter_data(const struct utrace_tracer *t)
{
	return (uint32_t)t->pid % 0xfffe + 1;
}

/* filter.c */
void utrace__filter_setup(struct uthread *th);
bool utrace__filter_covers(const struct uthread *th);

static inline int utrace__min(int a, int b)
{
	return a < b ? a : b;
}

#endif
