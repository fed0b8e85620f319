// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The injector engine behind --inject.  error= and retval= abort the
 * syscall at entry (UTRACE_SYSCALL_ABORT) and set its return value;
 * signal= injects the signal after the syscall (a report pass asked for with
 * UTRACE_INTERRUPT fills its siginfo as the kernel's send_sig() from a
 * ptrace restart does, like strace: si_code SI_KERNEL); delay_enter=
 * and delay_exit= hold the thread with UTRACE_STOP and a timer resumes it
 * with utrace_control from the main loop (callbacks never block).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli.h"

struct ithr {
	pid_t tid;
	unsigned count[MAX_INJECT][NR_MAX];
	int active;		/* rule firing for the current syscall, or -1 */
	long nr;
	int sig;		/* signal= to inject at the next report pass */
};

struct timer {
	struct utrace_engine *e;
	double when;
};

static struct timer *timers;
static size_t ntimers, cap_timers;

static bool fires(const struct inject_rule *r, unsigned n)
{
	if (n < r->first || n > r->last)
		return false;
	return r->step ? (n - r->first) % r->step == 0 : n == r->first;
}

static void hold(struct utrace_engine *e, long us)
{
	if (ntimers == cap_timers) {
		size_t cap = cap_timers ? cap_timers * 2 : 16;
		struct timer *p = realloc(timers, cap * sizeof(*p));

		if (!p)
			return;
		timers = p;
		cap_timers = cap;
	}
	utrace_engine_get(e);
	timers[ntimers].e = e;
	timers[ntimers].when = now_mono() + (double)us / 1e6;
	ntimers++;
}

int inject_timeout_ms(void)
{
	double first = -1, now = now_mono();
	size_t i;

	for (i = 0; i < ntimers; i++)
		if (first < 0 || timers[i].when < first)
			first = timers[i].when;
	if (first < 0)
		return -1;
	if (first <= now)
		return 0;
	return (int)((first - now) * 1000) + 1;
}

void inject_run_timers(void)
{
	double now = now_mono();
	size_t i = 0;

	while (i < ntimers) {
		if (timers[i].when > now) {
			i++;
			continue;
		}
		struct ithr *t = utrace_engine_data(timers[i].e);

		utrace_control(timers[i].e,
			       t && t->sig ? UTRACE_INTERRUPT : UTRACE_RESUME);
		utrace_engine_put(timers[i].e);
		timers[i] = timers[--ntimers];
	}
}

static uint32_t i_entry(uint32_t action, struct utrace_engine *e)
{
	struct ithr *t = utrace_engine_data(e);
	struct utrace_syscall sc;
	uint32_t ret = UTRACE_RESUME;
	int i;

	t->active = -1;
	if (action & UTRACE_SYSCALL_RESUMED)
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_RESUME;
	if (utrace_syscall_get(e, &sc) < 0 || sc.nr < 0 || sc.nr >= NR_MAX)
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_RESUME;
	t->nr = sc.nr;
	if (hidden(t->tid, sc.nr))
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_RESUME;
	/* -P: strace tampers only with the syscalls it traces. */
	if (opt.trace_paths.n &&
	    !trace_path_match(&opt.trace_paths, e, t->tid, sc.nr, sc.args))
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_RESUME;
	for (i = 0; i < opt.ninject; i++) {
		const struct inject_rule *r = &opt.inject[i];

		if (!r->set[sc.nr])
			continue;
		if (!fires(r, ++t->count[i][sc.nr]) || t->active >= 0)
			continue;
		t->active = i;
		if (r->error || r->has_retval) {
			ret |= UTRACE_SYSCALL_ABORT;
			utrace_syscall_set_return(e, r->error ? -r->error :
						  r->retval);
			mark_injected(t->tid, true);
		}
		if (r->delay_enter_us) {
			hold(e, r->delay_enter_us);
			mark_delayed(t->tid);
			ret = (ret & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
		}
	}
	if (!(ret & UTRACE_SYSCALL_ABORT))
		ret |= utrace_syscall_action(action);
	return ret;
}

static uint32_t i_exit(uint32_t action, struct utrace_engine *e)
{
	struct ithr *t = utrace_engine_data(e);
	const struct inject_rule *r;

	if (t->active < 0)
		return UTRACE_RESUME;
	r = &opt.inject[t->active];
	t->active = -1;
	if (r->error || r->has_retval)
		utrace_syscall_set_return(e, r->error ? -r->error : r->retval);
	if (r->signal)
		t->sig = r->signal;
	if (r->delay_exit_us) {
		hold(e, r->delay_exit_us);
		mark_delayed(t->tid);
		return UTRACE_STOP;
	}
	return r->signal ? UTRACE_INTERRUPT : UTRACE_RESUME;
}

/*
 * The report pass UTRACE_INTERRUPT asked for: fill in the signal and deliver
 * it, held, so that it is reported (printed) when it arrives, with exactly
 * this siginfo.  Other signals pass unchanged.
 */
static uint32_t i_signal(uint32_t action, struct utrace_engine *e,
			 siginfo_t *info)
{
	struct ithr *t = utrace_engine_data(e);

	if (!t->sig || utrace_signal_action(action) != UTRACE_SIGNAL_REPORT ||
	    info->si_signo)
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_RESUME;
	memset(info, 0, sizeof(*info));
	info->si_signo = t->sig;
	info->si_code = SI_KERNEL;
	t->sig = 0;
	return UTRACE_RESUME | UTRACE_SIGNAL_DELIVER | UTRACE_SIGNAL_HOLD;
}

/* A non-leader thread executed: signal= must go to its new id. */
static uint32_t i_exec(uint32_t action, struct utrace_engine *e,
		       pid_t former)
{
	struct ithr *t = utrace_engine_data(e);

	t->tid = utrace_engine_tid(e);
	return exec_detaching(t->tid) ? UTRACE_DETACH : UTRACE_RESUME;
}

static const struct utrace_engine_ops inject_ops = {
	.report_syscall_entry = i_entry,
	.report_syscall_exit = i_exit,
	.report_signal = i_signal,
	.report_exec = i_exec,
	.release = free,
};

int inject_attach(pid_t tid)
{
	struct utrace_engine *e;
	struct ithr *t = calloc(1, sizeof(*t));
	long *nrs;
	size_t n = 0;
	int err, i, nr;

	if (!t)
		return -ENOMEM;
	t->tid = tid;
	t->active = -1;
	err = utrace_attach(tracer, tid, UTRACE_ATTACH_CREATE, &inject_ops, t,
			    &e);
	if (err) {
		free(t);
		return err;
	}
	nrs = calloc(NR_MAX, sizeof(*nrs));
	for (nr = 0; nrs && nr < NR_MAX; nr++)
		for (i = 0; i < opt.ninject; i++)
			if (opt.inject[i].set[nr]) {
				nrs[n++] = nr;
				break;
			}
	utrace_set_syscalls(e, nrs, n);
	free(nrs);
	err = utrace_set_events(e, UTRACE_EVENT_SYSCALL | UTRACE_EVENT(EXEC) |
				   UTRACE_EVENT(QUIESCE));
	utrace_engine_put(e);
	return err;
}
