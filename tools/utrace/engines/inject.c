// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The injector engine behind --inject.  error= and retval= abort the
 * syscall at entry (UTRACE_SYSCALL_ABORT) and set its return value;
 * signal= injects the signal after the syscall (a report pass asked for with
 * UTRACE_INTERRUPT fills its siginfo as the kernel's send_sig() from a
 * ptrace restart does, like strace: si_code SI_KERNEL); delay_enter=
 * and delay_exit= hold the thread with UTRACE_STOP and a timer resumes it
 * with utrace_control from the main loop (callbacks never block).
 *
 * An injector is an object (injector_new): its rules, its timers and, per
 * thread, two notes for whoever prints the syscall (injector_take_notes):
 * "this syscall's result is injected" and "it was delayed".  strace prints
 * them as (INJECTED) and (DELAYED).  utrace_syscall_changes(3) tells that
 * some engine aborted a syscall or set its return value, but not that it
 * was this injector: the ptrace-emulation engine aborts the ptrace and wait
 * calls it performs, which are no injection; and a delay changes nothing
 * an engine can see.  So the notes stay here, on the object.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli.h"

struct injector {
	struct injector_settings s;
	struct timer *timers;
	size_t ntimers, cap_timers;
};

struct ithr {
	struct injector *inj;
	pid_t tid;
	unsigned count[MAX_INJECT][NR_MAX];
	int active;		/* rule firing for the current syscall, or -1 */
	bool delaying;		/* held by a delay_enter= timer */
	long nr;
	int sig;		/* signal= to inject at the next report pass */
	unsigned notes;		/* INJ_NOTE_* of the current syscall */
};

struct timer {
	struct utrace_engine *e;
	double when;
};

static bool fires(const struct inject_rule *r, unsigned n)
{
	if (n < r->first || n > r->last)
		return false;
	return r->step ? (n - r->first) % r->step == 0 : n == r->first;
}

static void hold(struct injector *inj, struct utrace_engine *e, long us)
{
	if (inj->ntimers == inj->cap_timers) {
		size_t cap = inj->cap_timers ? inj->cap_timers * 2 : 16;
		struct timer *p = realloc(inj->timers, cap * sizeof(*p));

		if (!p)
			return;
		inj->timers = p;
		inj->cap_timers = cap;
	}
	utrace_engine_get(e);
	inj->timers[inj->ntimers].e = e;
	inj->timers[inj->ntimers].when = now_mono() + (double)us / 1e6;
	inj->ntimers++;
}

/* Milliseconds until a held thread is due (-1: none; 0: now). */
int injector_timeout_ms(const struct injector *inj)
{
	const struct timer *timers = inj->timers;
	double first = -1, now = now_mono();
	size_t i;

	for (i = 0; i < inj->ntimers; i++)
		if (first < 0 || timers[i].when < first)
			first = timers[i].when;
	if (first < 0)
		return -1;
	if (first <= now)
		return 0;
	return (int)((first - now) * 1000) + 1;
}

/* Let the held threads that are due go on (loop thread). */
void injector_run_timers(struct injector *inj)
{
	double now = now_mono();
	size_t i = 0;

	while (i < inj->ntimers) {
		struct utrace_engine *e = inj->timers[i].e;
		struct ithr *t;

		if (inj->timers[i].when > now) {
			i++;
			continue;
		}
		/* Out first: utrace_control may add timers. */
		inj->timers[i] = inj->timers[--inj->ntimers];
		t = utrace_engine_data(e);
		if (t)
			t->delaying = false;
		utrace_control(e, t && t->sig ? UTRACE_INTERRUPT :
					       UTRACE_RESUME);
		utrace_engine_put(e);
	}
}

/* Does rule @i (or -1: none) skip the syscall and set its result? */
static bool aborts(const struct ithr *t, int i)
{
	const struct inject_rule *r = &t->inj->s.rules[i];

	return i >= 0 && (r->error || r->has_retval);
}

/*
 * The entry pass repeated after some engine held this entry (another
 * tool, a joined program, our own delay): vote again what the first pass
 * voted, as every engine must (utrace_engine_ops(3)): the abort, and the
 * hold while our delay lasts.  The return value set then stays set.
 */
static uint32_t i_entry_again(uint32_t action, struct ithr *t)
{
	uint32_t ret = utrace_pass(action, t->delaying ? UTRACE_STOP :
							 UTRACE_RESUME);

	if (aborts(t, t->active))
		ret = (ret & ~UTRACE_SYSCALL_MASK) | UTRACE_SYSCALL_ABORT;
	return ret;
}

static uint32_t i_entry(uint32_t action, struct utrace_engine *e)
{
	struct ithr *t = utrace_engine_data(e);
	const struct injector_settings *is = &t->inj->s;
	struct utrace_syscall sc;
	uint32_t ret = UTRACE_RESUME;
	int i;

	if (action & UTRACE_SYSCALL_RESUMED)
		return i_entry_again(action, t);
	t->active = -1;
	t->notes = 0;		/* a new syscall */
	if (utrace_syscall_get(e, &sc) < 0 || sc.nr < 0 || sc.nr >= NR_MAX)
		return utrace_pass(action, UTRACE_RESUME);
	t->nr = sc.nr;
	if (host_hidden(&is->host, t->tid, sc.nr))
		return utrace_pass(action, UTRACE_RESUME);
	/* -P: strace tampers only with the syscalls it traces. */
	if (is->paths && is->paths->n &&
	    !trace_path_match(is->paths, e, t->tid, sc.nr, sc.args))
		return utrace_pass(action, UTRACE_RESUME);
	for (i = 0; i < is->nrules; i++) {
		const struct inject_rule *r = &is->rules[i];

		if (!r->set[sc.nr])
			continue;
		if (!fires(r, ++t->count[i][sc.nr]) || t->active >= 0)
			continue;
		t->active = i;
		if (aborts(t, i)) {
			ret |= UTRACE_SYSCALL_ABORT;
			utrace_syscall_set_return(e, r->error ? -r->error :
						  r->retval);
		}
		if (r->delay_enter_us) {
			hold(t->inj, e, r->delay_enter_us);
			t->delaying = true;
			t->notes |= INJ_NOTE_DELAYED;
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
	r = &t->inj->s.rules[t->active];
	/*
	 * (INJECTED) only if the call was really skipped: a syscall that ran
	 * after all keeps its own result (what it did cannot be undone by
	 * a return value), and the log says so.
	 */
	if (aborts(t, t->active) &&
	    (utrace_syscall_changes(e) & UTRACE_SYSCALL_CHANGED_ABORT)) {
		utrace_syscall_set_return(e, r->error ? -r->error : r->retval);
		t->notes |= INJ_NOTE_INJECTED;
	}
	t->active = -1;
	if (r->signal)
		t->sig = r->signal;
	if (r->delay_exit_us) {
		hold(t->inj, e, r->delay_exit_us);
		t->notes |= INJ_NOTE_DELAYED;
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
		return utrace_pass(action, UTRACE_RESUME);
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
	return host_detaching(&t->inj->s.host, t->tid) ? UTRACE_DETACH :
							   UTRACE_RESUME;
}

static const struct utrace_engine_ops inject_ops = {
	.report_syscall_entry = i_entry,
	.report_syscall_exit = i_exit,
	.report_signal = i_signal,
	.report_exec = i_exec,
	.release = free,
};

/**
 * injector_new - an injector with these settings (copied; the rules and
 * paths they point to must outlive it).  NULL when out of memory.
 */
struct injector *injector_new(const struct injector_settings *s)
{
	struct injector *inj = calloc(1, sizeof(*inj));

	if (inj)
		inj->s = *s;
	return inj;
}

/* Free it once no engine of it is left (after utrace_tracer_free). */
void injector_free(struct injector *inj)
{
	if (!inj)
		return;
	for (size_t i = 0; i < inj->ntimers; i++)
		utrace_engine_put(inj->timers[i].e);
	free(inj->timers);
	free(inj);
}

/**
 * injector_take_notes - the INJ_NOTE_* of thread @tid's current syscall
 * (at its exit), cleared: what the printer marks (INJECTED), (DELAYED).
 */
unsigned injector_take_notes(struct injector *inj, struct utrace_tracer *tr,
			     pid_t tid)
{
	struct utrace_engine *e;
	struct ithr *t;
	unsigned notes = 0;

	if (!inj || utrace_attach(tr, tid, UTRACE_ATTACH_MATCH_OPS,
				  &inject_ops, NULL, &e))
		return 0;
	/* The thread's first injector; another one's notes are its own. */
	t = utrace_engine_data(e);
	if (t && t->inj == inj) {
		notes = t->notes;
		t->notes = 0;
	}
	utrace_engine_put(e);
	return notes;
}

/**
 * injector_attach - apply the rules to thread @tid of @tr
 * Returns 0 or -errno (utrace_attach's).
 */
int injector_attach(struct injector *inj, struct utrace_tracer *tr, pid_t tid)
{
	struct utrace_engine *e;
	struct ithr *t = calloc(1, sizeof(*t));
	long *nrs;
	size_t n = 0;
	int err, i, nr;

	if (!t)
		return -ENOMEM;
	t->inj = inj;
	t->tid = tid;
	t->active = -1;
	err = utrace_attach(tr, tid, UTRACE_ATTACH_CREATE, &inject_ops, t,
			    &e);
	if (err) {
		free(t);
		return err;
	}
	nrs = calloc(NR_MAX, sizeof(*nrs));
	for (nr = 0; nrs && nr < NR_MAX; nr++)
		for (i = 0; i < inj->s.nrules; i++)
			if (inj->s.rules[i].set[nr]) {
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
