// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tracer and its loop: drain every ready wait status, then dispatch them
 * one by one (next_event -> dispatch_event, as strace does), then run the
 * calls other threads carried here and reconsider the threads they touched.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "core/internal.h"

/*
 * Every tracer of the process.  Tracers created by one thread share its
 * wait queue: a status one of them collects with waitpid(-1) may belong to
 * another, and goes to that one's queue.
 */
static pthread_mutex_t tracers_lock = PTHREAD_MUTEX_INITIALIZER;
static struct utrace_tracer *tracers;
static atomic_int ntracers;

/* Wakes the loop thread out of waitpid for calls from other threads. */
#define WAKE_SIGNAL (SIGRTMAX - 1)

static __thread pid_t my_tid;

static pid_t self_tid(void)
{
	if (!my_tid)
		my_tid = (pid_t)syscall(SYS_gettid);
	return my_tid;
}

bool utrace__on_loop(const struct utrace_tracer *t)
{
	return self_tid() == t->loop_tid;
}

/* -- Calls from other threads ---------------------------------------------------- */

/*
 * A loop thread armed for a wake (sleep_armed): where the handler jumps
 * to, and whether a wake came while it was not armed yet.
 */
static __thread sigjmp_buf *volatile wake_jmp;
static __thread volatile sig_atomic_t wake_seen;
static atomic_bool wake_ours;		/* the handler below is installed */

static void wake_handler(int sig)
{
	sigjmp_buf *j = wake_jmp;

	(void)sig;
	wake_seen = 1;
	if (j) {
		wake_jmp = NULL;
		siglongjmp(*j, 1);
	}
}

static void wake_handler_init(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = wake_handler;	/* no SA_RESTART: waitpid gets EINTR */
	/*
	 * Not blocked in the handler: its jump (sigsetjmp without the mask,
	 * which would cost a syscall per sleep) leaves the mask as it was.
	 */
	sa.sa_flags = SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(WAKE_SIGNAL, NULL, &old) == 0 &&
	    old.sa_handler == SIG_DFL && sigaction(WAKE_SIGNAL, &sa, NULL) == 0)
		atomic_store(&wake_ours, true);
}

static void install_wake_handler(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, wake_handler_init);
}

/* Wake whoever waits for the loop: its eventfd, and its waitpid if asked. */
static void ring(struct utrace_tracer *t, bool wake_loop)
{
	if (t->efd >= 0) {
		uint64_t one = 1;

		if (write(t->efd, &one, sizeof(one)) < 0)
			(void)0;	/* counter full: it is readable anyway */
	}
	if (wake_loop && atomic_load(&t->sleeping)) {
		install_wake_handler();
		syscall(SYS_tgkill, t->pid, t->loop_tid, WAKE_SIGNAL);
	}
}

int utrace__wake_signal(void)
{
	install_wake_handler();
	return atomic_load(&wake_ours) ? WAKE_SIGNAL : -ENOTSUP;
}

/* Wake the loop thread if it blocks in waitpid (any thread may call it). */
void utrace__wake_loop(struct utrace_tracer *t)
{
	ring(t, true);
}

/*
 * Can the loop thread still run the loop?  Not once it has exited (its
 * ptrace attachments ended with it), nor once utrace_tracer_free began.
 * Called with t->lock held.
 */
static bool loop_possible(struct utrace_tracer *t)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	if (t->closing)
		return false;
	if (syscall(SYS_tgkill, t->pid, t->loop_tid, 0) < 0 && errno == ESRCH)
		return false;
	if (t->loop_tid != t->pid)
		return true;
	/* A main thread that called pthread_exit stays a zombie. */
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", t->loop_tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return !(p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'));
}

static void unqueue(struct utrace_tracer *t, struct utrace__req *r)
{
	struct utrace__req **pp;

	for (pp = &t->reqs; *pp; pp = &(*pp)->next) {
		if (*pp == r) {
			*pp = r->next;
			if (!*pp)
				t->reqs_tail = pp;
			break;
		}
	}
	atomic_store(&t->nreqs, t->reqs != NULL);
}

/**
 * utrace__call - run @fn(@arg) on the loop thread and return its result
 *
 * On the loop thread it is a plain call.  From another thread the call is
 * queued, the loop is woken, and this blocks until the loop has run it
 * (between two callbacks, never during one), which happens when the loop
 * thread is in, or next enters, utrace_run or utrace_dispatch.  When the
 * library can tell that it never will (the loop thread has exited, or
 * utrace_tracer_free has begun), the call is dropped and -EDEADLK returned.
 */
int utrace__call(struct utrace_tracer *t, int (*fn)(void *), void *arg)
{
	struct utrace__req r = { .fn = fn, .arg = arg };
	struct timespec ts;

	if (utrace__on_loop(t))
		return fn(arg);
	install_wake_handler();
	pthread_mutex_lock(&t->lock);
	if (t->closing) {
		pthread_mutex_unlock(&t->lock);
		return -EDEADLK;
	}
	*t->reqs_tail = &r;
	t->reqs_tail = &r.next;
	atomic_store(&t->nreqs, true);
	t->ncallers++;
	for (bool first = true; !r.done; first = false) {
		/* Looked at once the loop has not answered at once. */
		if (!r.running && (t->closing || (!first && !loop_possible(t)))) {
			unqueue(t, &r);
			r.ret = -EDEADLK;
			break;
		}
		ring(t, true);
		/* Re-ring: the signal may land just before waitpid blocks. */
		utrace__deadline(&ts, CLOCK_REALTIME, 2);
		pthread_cond_timedwait(&t->cond, &t->lock, &ts);
	}
	if (--t->ncallers == 0 && t->closing)
		pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	return r.ret;
}

static int run_requests(struct utrace_tracer *t)
{
	struct utrace__req *r;
	int n = 0;

	/* The hot path: nothing queued, no lock taken. */
	if (!atomic_load(&t->nreqs))
		return 0;
	pthread_mutex_lock(&t->lock);
	atomic_store(&t->nreqs, false);
	while ((r = t->reqs)) {
		t->reqs = r->next;
		if (!t->reqs)
			t->reqs_tail = &t->reqs;
		r->running = true;
		pthread_mutex_unlock(&t->lock);
		r->ret = r->fn(r->arg);
		pthread_mutex_lock(&t->lock);
		r->done = true;
		n++;
	}
	if (n)
		pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	return n;
}

/* Run the calls other threads carried here (a layer's closing hook). */
int utrace__run_requests(struct utrace_tracer *t)
{
	return run_requests(t);
}

/* -- utrace_fd's helper thread ------------------------------------------------ */

/*
 * Waits (without reaping) until some child or tracee of the process has a
 * state change, tells the eventfd, then waits for a dispatch before looking
 * again.
 */
static void unlock_mutex(void *m)
{
	pthread_mutex_unlock(m);
}

static void *waiter_main(void *arg)
{
	struct utrace_tracer *t = arg;

	for (;;) {
		siginfo_t si;
		unsigned long gen;
		struct timespec ts;
		bool stop;
		int r;

		memset(&si, 0, sizeof(si));
		r = waitid(P_ALL, 0, &si, WEXITED | WNOWAIT | __WALL);
		pthread_mutex_lock(&t->lock);
		/* utrace_tracer_free cancels us, maybe in the wait below. */
		pthread_cleanup_push(unlock_mutex, &t->lock);
		if (!t->waiter_stop) {
			gen = t->gen;
			/*
			 * Only the eventfd: a loop blocked in waitpid wakes
			 * for this status by itself.
			 */
			if (r == 0 && si.si_pid)
				ring(t, false);
			/* Wait for a dispatch (or, with no child, a new one). */
			utrace__deadline(&ts, CLOCK_REALTIME, 5);
			while (t->gen == gen && !t->waiter_stop)
				if (pthread_cond_timedwait(&t->cond, &t->lock,
							   &ts))
					break;
		}
		pthread_cleanup_pop(0);
		stop = t->waiter_stop;
		pthread_mutex_unlock(&t->lock);
		if (stop)
			return NULL;
	}
}

/* -- Tracer ------------------------------------------------------------------------ */

/**
 * utrace_tracer_new - create a tracer; the calling thread becomes its loop
 * thread, the only one that runs its loop and owns its ptrace attachments.
 */
UTRACE_EXPORT int utrace_tracer_new(struct utrace_tracer **out)
{
	struct utrace_tracer *t;

	if (!out)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->pid = getpid();
	t->loop_tid = self_tid();
	t->efd = -1;
	t->reqs_tail = &t->reqs;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	pthread_mutex_lock(&tracers_lock);
	t->tnext = tracers;
	tracers = t;
	atomic_fetch_add(&ntracers, 1);
	pthread_mutex_unlock(&tracers_lock);
	*out = t;
	return 0;
}

/**
 * utrace_tracer_set_options - choose how the loop collects wait statuses
 * @options: 0 or UTRACE_TRACER_RUSAGE
 *
 * Any thread of the tracer process may call it while @t lives; it takes
 * effect from the loop's next wait.  Returns 0 or -EINVAL.
 */
UTRACE_EXPORT int utrace_tracer_set_options(struct utrace_tracer *t,
					    unsigned options)
{
	if (!t || (options & ~UTRACE_TRACER_RUSAGE))
		return -EINVAL;
	atomic_store(&t->options, options);
	return 0;
}

void utrace__tracer_add_options(struct utrace_tracer *t, unsigned options)
{
	if (~atomic_load(&t->options) & options)
		atomic_fetch_or(&t->options, options);
}

static void bump_gen(struct utrace_tracer *t)
{
	/* Only utrace_fd's helper thread waits for dispatches. */
	if (!t->waiter_started)
		return;
	pthread_mutex_lock(&t->lock);
	t->gen++;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
}

static struct utrace_tracer *sibling_with(struct utrace_tracer *t, pid_t tid)
{
	for (struct utrace_tracer *o = tracers; o; o = o->tnext)
		if (o != t && o->loop_tid == t->loop_tid &&
		    utrace__thread_find(o, tid))
			return o;
	return NULL;
}

/*
 * Which tracer a status for @pid belongs to: the one that traces it, or for
 * a new thread or child not known yet, the one that traces its process or
 * its parent.  @t itself unless a sibling claims it.
 */
static struct utrace_tracer *status_owner(struct utrace_tracer *t, pid_t pid)
{
	struct utrace_tracer *o;

	if (atomic_load(&ntracers) < 2 || utrace__thread_find(t, pid))
		return t;
	pthread_mutex_lock(&tracers_lock);
	o = sibling_with(t, pid);
	if (!o) {
		char buf[4096];
		const char *v;

		if (utrace__proc_status(pid, buf, sizeof(buf))) {
			if ((v = utrace__proc_field(buf, "Tgid")))
				o = sibling_with(t, atoi(v));
			if (!o && (v = utrace__proc_field(buf, "PPid")))
				o = sibling_with(t, atoi(v));
		}
	}
	pthread_mutex_unlock(&tracers_lock);
	return o ? o : t;
}

/*
 * waitpid(2), or wait4(2) with the usage when the tracer keeps it
 * (UTRACE_TRACER_RUSAGE): @out gets the pid, the status and the usage.
 */
pid_t utrace__wait(struct utrace_tracer *t, pid_t pid, int options,
		   struct utrace__status *out)
{
	bool ru = atomic_load_explicit(&t->options, memory_order_relaxed) &
		  UTRACE_TRACER_RUSAGE;
	pid_t r = wait4(pid, &out->status, options, ru ? &out->ru : NULL);

	out->pid = r;
	out->has_ru = ru && r > 0;
	return r;
}

static void queue_push(struct utrace_tracer *t, const struct utrace__status *s)
{
	struct utrace_tracer *o = status_owner(t, s->pid);

	if (o != t) {
		t = o;
		ring(t, false);
	}
	if (t->qlen == t->qcap) {
		size_t cap = t->qcap ? t->qcap * 2 : 64;
		void *q = realloc(t->q, cap * sizeof(*t->q));

		if (!q) {
			/* Handle this one now rather than lose it. */
			utrace__handle_status(t, s->pid, s->status,
					      s->has_ru ? &s->ru : NULL);
			return;
		}
		t->q = q;
		t->qcap = cap;
	}
	t->q[t->qlen++] = *s;
}

/* Queue every wait status that is ready, without blocking. */
static void drain(struct utrace_tracer *t)
{
	struct utrace__status s;

	while (utrace__wait(t, -1, __WALL | __WNOTHREAD | WNOHANG, &s) > 0)
		queue_push(t, &s);
}

bool utrace__take_queued(struct utrace_tracer *t, pid_t pid,
			 struct utrace__status *out)
{
	for (size_t i = t->qpos; i < t->qlen; i++) {
		if (t->q[i].pid == pid) {
			*out = t->q[i];
			t->q[i].pid = 0;
			return true;
		}
	}
	return false;
}

/*
 * Queue @s to be handled after the status being handled now, in the same
 * dispatch (handle_queue goes on until the queue is empty).
 */
void utrace__requeue(struct utrace_tracer *t, const struct utrace__status *s)
{
	queue_push(t, s);
}

static int handle_queue(struct utrace_tracer *t)
{
	int n = 0;

	while (t->qpos < t->qlen) {
		const struct utrace__status *q = &t->q[t->qpos++];
		pid_t pid = q->pid;
		int status = q->status;
		bool has_ru = q->has_ru;
		struct rusage ru;

		if (!pid)
			continue;
		if (has_ru)
			ru = q->ru;	/* copied: handling may use the queue */
		utrace__handle_status(t, pid, status, has_ru ? &ru : NULL);
		utrace__settle_all(t);
		n++;
	}
	t->qpos = t->qlen = 0;
	return n;
}

/*
 * Block until some tracee has a status, a call is queued, or a layer's
 * descriptor signals the loop (a sleep hook armed it): without a race.
 * The handler jumps out of the wait, also from just before it; so the
 * wait only looks (WNOWAIT, a raw syscall: no cancellation state to
 * leave behind) and the dispatch's drain takes the status.
 */
static pid_t sleep_armed(struct utrace_tracer *t)
{
	sigjmp_buf jb;
	siginfo_t si;
	volatile pid_t pid = 0;	/* read after a jump */

	si.si_pid = 0;
	if (sigsetjmp(jb, 0) == 0) {
		wake_jmp = &jb;
		if (!wake_seen && !atomic_load(&t->nreqs) &&
		    syscall(SYS_waitid, P_ALL, 0, &si, WEXITED | WNOWAIT |
			    __WALL | __WNOTHREAD, NULL) == 0)
			pid = si.si_pid;
		wake_jmp = NULL;
	}
	return pid;
}

/* Block until some tracee has a status (-1) or up to @timeout_ms. */
static void wait_for_status(struct utrace_tracer *t, int timeout_ms)
{
	if (timeout_ms < 0) {
		struct utrace__status s;
		pid_t pid = 0;
		int armed;

		wake_seen = 0;
		armed = utrace__layers_sleep(t, UTRACE__SLEEP_BLOCK);
		atomic_store(&t->sleeping, true);
		if (armed & UTRACE__SLEEP_READY)
			;	/* a layer's input is there: no sleep */
		else if (armed && (pid = sleep_armed(t)) > 0)
			/* That one, as the plain wait would have taken it. */
			pid = utrace__wait(t, pid, __WALL | __WNOTHREAD |
					   WNOHANG, &s);
		else if (!armed && !atomic_load(&t->nreqs))
			pid = utrace__wait(t, -1, __WALL | __WNOTHREAD, &s);
		atomic_store(&t->sleeping, false);
		if (armed)
			utrace__layers_sleep(t, UTRACE__SLEEP_WOKE);
		if (pid > 0)
			queue_push(t, &s);
	} else {
		struct pollfd p = { .fd = utrace_fd(t), .events = POLLIN };

		utrace__layers_sleep(t, UTRACE__SLEEP_POLLED);
		poll(&p, 1, timeout_ms);
	}
}

/*
 * One round: block for the first status if there is nothing to do and
 * handle it at once (the stop is answered before anything else: with a
 * tracee per CPU, the tracer's reply is what each stop waits for), then
 * drain every other ready status and handle them in order (so one busy
 * thread cannot starve the others).  Two wait4 calls per stop when the
 * tracer keeps up (the blocking one and the draining one that finds
 * nothing more), one with a single traced thread.
 */
static int dispatch_once(struct utrace_tracer *t, int timeout_ms)
{
	int n;

	t->dispatching = true;
	run_requests(t);
	utrace__release_spawned(t);
	utrace__settle_all(t);
	if (t->efd >= 0) {
		uint64_t v;

		if (read(t->efd, &v, sizeof(v)) < 0)
			(void)0;	/* nothing pending */
	}
	/* A poll costs a helper-thread round trip: look first. */
	if (timeout_ms > 0)
		drain(t);
	n = 0;
	if (timeout_ms != 0 && !t->qlen && t->threads.count &&
	    !atomic_load(&t->brk) && !atomic_load(&t->nreqs)) {
		wait_for_status(t, timeout_ms);
		/*
		 * Answer the status we waited for before looking for others:
		 * its thread runs again while we drain.  The others that are
		 * ready are all handled next, in this dispatch, so none is
		 * starved.  One thread has no others: spare the empty drain.
		 */
		n = handle_queue(t);
		if (t->threads.count > 1 || !n)
			drain(t);
	} else {
		/* The application may poll utrace_fd for the next one. */
		if (timeout_ms == 0 && t->efd >= 0)
			utrace__layers_sleep(t, UTRACE__SLEEP_POLLED);
		drain(t);
	}
	n += handle_queue(t);
	run_requests(t);
	utrace__layers_input(t);
	utrace__settle_all(t);
	utrace__layers_after_dispatch(t);
	t->dispatching = false;
	bump_gen(t);
	return n;
}

void utrace__settle_now(struct utrace_tracer *t)
{
	if (!utrace__on_loop(t) || t->dispatching)
		return;
	t->dispatching = true;
	utrace__settle_all(t);
	utrace__layers_after_dispatch(t);
	t->dispatching = false;
}

bool utrace__settle_pending(const struct utrace_tracer *t)
{
	return t->settle != NULL;
}

bool utrace__dispatching(const struct utrace_tracer *t)
{
	return t->dispatching;
}

unsigned utrace__nthreads(const struct utrace_tracer *t)
{
	return t->threads.count;
}

/*
 * Work was left for the next dispatch by a call made on the loop thread
 * outside any dispatch (utrace_control between two utrace_dispatch calls):
 * make utrace_fd readable, so that a poll loop comes back to dispatch it
 * instead of sleeping on it.  Inside a dispatch the work is done before
 * it returns; without utrace_fd nobody polls.
 */
void utrace__kick(struct utrace_tracer *t)
{
	if (!t->dispatching && t->efd >= 0)
		ring(t, false);
}

/**
 * utrace_dispatch - handle what is ready, waiting up to @timeout_ms for it
 * @timeout_ms: 0 never blocks, -1 blocks until something happens
 *
 * Returns the number of wait statuses handled, or -EINVAL, or -EPERM when
 * not called on the loop thread.
 */
UTRACE_EXPORT int utrace_dispatch(struct utrace_tracer *t, int timeout_ms)
{
	int n;

	if (!t)
		return -EINVAL;
	if (!utrace__on_loop(t))
		return -EPERM;
	n = dispatch_once(t, timeout_ms);
	/* A break is for one wait: a dispatch loop of the caller's own. */
	atomic_store(&t->brk, false);
	return n;
}

/**
 * utrace_run - dispatch until no thread is traced or utrace_break is called
 * Loop thread only.  Returns 0, or -EINVAL / -EPERM.
 */
UTRACE_EXPORT int utrace_run(struct utrace_tracer *t)
{
	if (!t)
		return -EINVAL;
	if (!utrace__on_loop(t))
		return -EPERM;
	for (;;) {
		if (atomic_exchange(&t->brk, false))
			break;
		if (!t->threads.count && !atomic_load(&t->nreqs))
			break;
		dispatch_once(t, -1);
	}
	return 0;
}

/**
 * utrace_break - make utrace_run return (thread-safe)
 */
UTRACE_EXPORT void utrace_break(struct utrace_tracer *t)
{
	if (!t)
		return;
	atomic_store(&t->brk, true);
	if (!utrace__on_loop(t)) {
		install_wake_handler();
		ring(t, true);
	}
}

/**
 * utrace_fd - a file descriptor that polls readable when dispatch has work
 * Returns the descriptor (owned by the tracer), or a negative errno.
 */
UTRACE_EXPORT int utrace_fd(struct utrace_tracer *t)
{
	if (!t)
		return -EINVAL;
	pthread_mutex_lock(&t->lock);
	if (t->efd < 0) {
		t->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (t->efd < 0) {
			int err = -errno;

			pthread_mutex_unlock(&t->lock);
			return err;
		}
	}
	if (!t->waiter_started) {
		sigset_t all, old;

		/* The helper must not take the application's signals. */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		if (pthread_create(&t->waiter, NULL, waiter_main, t) == 0)
			t->waiter_started = true;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	pthread_mutex_unlock(&t->lock);
	return t->waiter_started ? t->efd : -EAGAIN;
}

/* -- Tear-down ------------------------------------------------------------------------ */

/*
 * Tear-down runs without the loop: it waits for each thread itself.  Three
 * ptrace rules shape it.  A thread woken out of its stop by SIGKILL can no
 * longer be detached (PTRACE_DETACH fails with ESRCH): it is ours until its
 * zombie is reaped.  A traced thread's zombie is reaped by its tracer only.
 * And a group leader's exit is not reported while any other thread of its
 * process is unreaped, so waiting for a dying leader before its threads
 * blocks forever.  Hence non-leaders are let go first, and waiting for a
 * leader also lets go (or reaps) the other threads of its process.
 */
struct killed {
	pid_t *tids;
	int n;
};

static void let_go(struct utrace_tracer *t, struct uthread *th,
		   struct killed *killed);

/* Is @th a group leader?  A new child's tgid is known from /proc only. */
static bool is_leader(struct uthread *th)
{
	pid_t tgid;

	if (th->tid != th->tgid)
		return false;
	if ((th->orphan || th->state == TH_NEW) &&
	    (tgid = utrace__proc_tgid(th->tid)) > 0)
		th->tgid = tgid;
	return th->tid == th->tgid;
}

/*
 * The other threads of @tgid's process that hold its exit back: let go the
 * ones we know (with @killed) and reap or detach those we trace unknowingly
 * (new threads whose first stop never came to the loop).
 */
static void free_group(struct utrace_tracer *t, pid_t tgid,
		       struct killed *killed)
{
	char path[64];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", tgid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		pid_t tid = atoi(d->d_name);
		struct uthread *th;
		bool other;
		int st;

		if (tid <= 0 || tid == tgid)
			continue;
		th = utrace__thread_find(t, tid);
		if (th) {
			if (killed)
				let_go(t, th, killed);
			continue;
		}
		pthread_mutex_lock(&tracers_lock);
		other = sibling_with(t, tid) != NULL;
		pthread_mutex_unlock(&tracers_lock);
		if (other || waitpid(tid, &st, __WALL | __WNOTHREAD | WNOHANG) <= 0)
			continue;
		/* Stopped: let it run on (ESRCH: dying, reaped next time). */
		if (WIFSTOPPED(st))
			ptrace(PTRACE_DETACH, tid, 0L, 0L);
	}
	closedir(dir);
}

/*
 * Block for @tid's next wait status.  For a leader, poll, letting its
 * process's other threads go meanwhile (see above).  Returns the pid, or
 * -1 (ECHILD: reaped by someone else, or gone by execve).
 */
static pid_t wait_thread(struct utrace_tracer *t, pid_t tid, bool leader,
			 int *status, struct killed *killed)
{
	long ns = 100000;
	pid_t r;

	if (!leader) {
		while ((r = waitpid(tid, status, __WALL)) < 0 && errno == EINTR)
			;
		return r;
	}
	for (;;) {
		struct timespec ts = { 0, ns };

		r = waitpid(tid, status, __WALL | WNOHANG);
		if (r != 0 && !(r < 0 && errno == EINTR))
			return r;
		free_group(t, tid, killed);
		r = waitpid(tid, status, __WALL | WNOHANG);
		if (r != 0 && !(r < 0 && errno == EINTR))
			return r;
		nanosleep(&ts, NULL);
		if (ns < 5000000)
			ns *= 2;
	}
}

/* Wait for a running thread's next stop; false if it died instead. */
static bool stop_now(struct utrace_tracer *t, struct uthread *th, int *status,
		     struct killed *killed)
{
	struct utrace__status s;

	if (utrace__take_queued(t, th->tid, &s)) {
		*status = s.status;
		return WIFSTOPPED(*status);
	}
	if (th->state == TH_RUNNING)
		ptrace(PTRACE_INTERRUPT, th->tid, 0L, 0L);
	if (wait_thread(t, th->tid, is_leader(th), status, killed) < 0)
		return false;
	return WIFSTOPPED(*status);
}

/* Let one thread go, untraced and running (or killed, for KILL_ON_EXIT). */
static void let_go(struct utrace_tracer *t, struct uthread *th,
		   struct killed *killed)
{
	struct utrace_engine *e;
	int st = 0;
	bool stopped = th->state == TH_STOPPED;

	while ((e = th->head) || (e = th->ahead))
		utrace__engine_unlink(e);
	if (th->kill_on_exit || th->filtered) {
		/*
		 * Reaped by reap_killed() once every thread is dealt with.  A
		 * filtered thread would see ENOSYS once untraced (filter.c).
		 */
		pid_t *k = realloc(killed->tids, (killed->n + 1) * sizeof(pid_t));

		kill(th->tid, SIGKILL);
		if (k) {
			/* Leaders are stored negated: they are waited for last. */
			k[killed->n++] = is_leader(th) ? -th->tid : th->tid;
			killed->tids = k;
		}
		utrace__thread_free(th);
		return;
	}
	if (!stopped && stop_now(t, th, &st, killed)) {
		int event = st >> 16;

		th->state = TH_STOPPED;
		th->stop = STOP_INTERRUPT;
		if (event == 0 && WSTOPSIG(st) != (SIGTRAP | 0x80)) {
			th->stop = STOP_SIGNAL;
			th->stop_sig = WSTOPSIG(st);
		}
		if (event == PTRACE_EVENT_CLONE || event == PTRACE_EVENT_FORK ||
		    event == PTRACE_EVENT_VFORK) {
			/* Its new child is ours too: let it go as well. */
			unsigned long child = 0;

			ptrace(PTRACE_GETEVENTMSG, th->tid, 0L, &child);
			if (child && !utrace__thread_find(t, (pid_t)child)) {
				struct uthread *c =
					utrace__thread_new(t, (pid_t)child,
							   (pid_t)child);
				if (c)
					c->state = TH_NEW;
			}
		}
		stopped = true;
	} else if (!stopped && th->state != TH_NEW) {
		utrace__thread_free(th);	/* it died */
		return;
	}
	if (stopped) {
		/*
		 * ESRCH (SIGKILL woke it): it stays in the table as running,
		 * and the next let_go waits for its death.
		 */
		utrace__release_thread(th);
		return;
	}
	/* TH_NEW: its first stop is on its way, or its death. */
	if (wait_thread(t, th->tid, is_leader(th), &st, killed) > 0 &&
	    WIFSTOPPED(st))
		ptrace(PTRACE_DETACH, th->tid, 0L, 0L);
	utrace__thread_free(th);
}

/* The next thread to let go: every non-leader before any leader. */
static struct uthread *next_to_let_go(struct utrace_tracer *t)
{
	struct uthread *leader = NULL;

	struct utrace__tidnode *n = NULL;

	while ((n = utrace__tidmap_next(&t->threads, n))) {
		struct uthread *th = utrace__tid_entry(n, struct uthread, hnode);

		if (!is_leader(th))
			return th;
		if (!leader)
			leader = th;
	}
	return leader;
}

/*
 * Collect the threads killed for UTRACE_SPAWN_KILL_ON_EXIT, so no zombie of
 * ours is left behind.  A group leader is reported only after its other
 * threads, so leaders are waited for last.
 */
static void reap_killed(struct utrace_tracer *t, pid_t *tids, int n)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < n; i++) {
			int st;

			if ((tids[i] > 0) != (pass == 0))
				continue;
			while (wait_thread(t, abs(tids[i]), pass == 1, &st,
					   NULL) > 0 && WIFSTOPPED(st))
				ptrace(PTRACE_CONT, abs(tids[i]), 0L, 0L);
		}
	}
}

/**
 * utrace_tracer_free - detach every engine and let every thread go
 *
 * Every engine is detached (release runs on its last put); every thread is
 * restarted and detached, with any signal it was stopped for delivered, so
 * nothing is left stopped or traced.  Children spawned with
 * UTRACE_SPAWN_KILL_ON_EXIT are killed.  Loop thread only.
 */
UTRACE_EXPORT void utrace_tracer_free(struct utrace_tracer *t)
{
	struct killed killed = { NULL, 0 };

	if (!t)
		return;
	/*
	 * Layers first (joiners: their queues need the loop to go), while
	 * every thread is traced and calls from other threads still run.
	 */
	utrace__layers_closing(t);
	if (t->waiter_started) {
		pthread_mutex_lock(&t->lock);
		t->waiter_stop = true;
		pthread_cond_broadcast(&t->cond);
		pthread_mutex_unlock(&t->lock);
		pthread_cancel(t->waiter);
		pthread_join(t->waiter, NULL);
	}
	run_requests(t);
	/* From here on calls from other threads fail with -EDEADLK. */
	pthread_mutex_lock(&t->lock);
	t->closing = true;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	run_requests(t);	/* any queued just before */
	drain(t);
	for (size_t i = 0; i < t->qlen; i++) {
		/* Exits already drained: those threads are gone. */
		struct uthread *th = utrace__thread_find(t, t->q[i].pid);

		if (th && !WIFSTOPPED(t->q[i].status)) {
			th->state = TH_DEAD;
			utrace__death(th, t->q[i].status, false);
			t->q[i].pid = 0;
		}
	}
	while (t->threads.count)
		let_go(t, next_to_let_go(t), &killed);
	/* Whatever is left in the queue is for threads now gone. */
	t->qlen = t->qpos = 0;
	reap_killed(t, killed.tids, killed.n);
	pthread_mutex_lock(&tracers_lock);
	for (struct utrace_tracer **pp = &tracers; *pp; pp = &(*pp)->tnext) {
		if (*pp == t) {
			*pp = t->tnext;
			break;
		}
	}
	atomic_fetch_sub(&ntracers, 1);
	pthread_mutex_unlock(&tracers_lock);
	free(killed.tids);
	utrace__layers_free(t);
	if (t->efd >= 0)
		close(t->efd);
	/* Threads still in utrace__call leave it before the lock goes. */
	pthread_mutex_lock(&t->lock);
	while (t->ncallers)
		pthread_cond_wait(&t->cond, &t->lock);
	pthread_mutex_unlock(&t->lock);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->cond);
	utrace__tidmap_fini(&t->threads);
	free(t->q);
	free(t->spawned);
	free(t);
}
