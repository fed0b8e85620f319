// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Engines: attach and look up, reference counts, event masks, control,
 * barrier, syscall sets.
 *
 * Ownership (see utrace(7)):
 *  1. utrace_attach returns a reference owned by the caller; being attached
 *     holds a second one, dropped when the engine is unlinked (after an
 *     explicit detach, or after report_reap).
 *  2. release(data) runs on the last utrace_engine_put, on whichever thread
 *     drops it.
 *  3. Once an engine is marked ENG_DETACHED no callback of it is ever made
 *     again; every call but utrace_barrier and utrace_engine_put returns
 *     -ESRCH.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>

#include "core/internal.h"

struct utrace_engine *utrace__engine_new(struct uthread *th,
					 const struct utrace_engine_ops *ops,
					 void *data)
{
	struct utrace_engine *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->ops = ops;
	e->data = data;
	e->t = th->t;
	e->th = th;
	atomic_init(&e->refs, 2);	/* the caller's and the attachment's */
	atomic_init(&e->flags, 0);
	atomic_init(&e->tid, th->tid);
	atomic_init(&e->tgid, th->tgid);
	if (th->in_pass) {
		/* Joins at the start of the next pass (report.c). */
		struct utrace_engine **pp = &th->ahead;

		while (*pp)
			pp = &(*pp)->next;
		*pp = e;
	} else {
		e->prev = th->tail;
		if (th->tail)
			th->tail->next = e;
		else
			th->head = e;
		th->tail = e;
	}
	return e;
}

/*
 * UTRACE__ATTACH_FIRST: move a new engine from the end of the list to its
 * head.  One attached during a pass waits in th->ahead and goes to the head
 * when it joins (report.c, splice_attaching), so no pass ever sees the
 * list change under it.
 */
static void engine_first(struct utrace_engine *e)
{
	struct uthread *th = e->th;

	e->first = true;
	for (struct utrace_engine *a = th->ahead; a; a = a->next)
		if (a == e)
			return;
	if (th->head == e)
		return;
	/* Off the tail (never the head here: head != e) ... */
	e->prev->next = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		th->tail = e->prev;
	/* ... and in front. */
	e->prev = NULL;
	e->next = th->head;
	th->head->prev = e;
	th->head = e;
	th->sys_dirty = true;
}

void utrace__engine_unlink(struct utrace_engine *e)
{
	struct uthread *th = e->th;
	struct utrace_engine **pp;

	if (!th)
		return;
	for (pp = &th->ahead; *pp; pp = &(*pp)->next) {
		if (*pp == e) {
			*pp = e->next;
			goto unlinked;
		}
	}
	if (e->prev)
		e->prev->next = e->next;
	else
		th->head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		th->tail = e->prev;
unlinked:
	e->next = e->prev = NULL;
	e->th = NULL;
	atomic_fetch_or(&e->flags, ENG_DETACHED | ENG_UNLINKED);
	atomic_fetch_and(&e->flags, ~ENG_STOP);
	utrace__thread_recalc(th);
	utrace__settle_later(th);
	utrace_engine_put(e);
}

/* Mark for detach; unlink now unless a pass is walking the list. */
void utrace__engine_mark_detached(struct utrace_engine *e)
{
	struct uthread *th = e->th;

	atomic_fetch_or(&e->flags, ENG_DETACHED);
	atomic_fetch_and(&e->flags, ~ENG_STOP);
	if (th && !th->in_pass)
		utrace__engine_unlink(e);
	else if (th)
		utrace__settle_later(th);
}

bool utrace__engine_wants_nr(const struct utrace_engine *e, long nr)
{
	if (!e->sysset)
		return true;
	if (nr < 0 || nr >= UTRACE__SYSSET_BITS)
		return false;
	return e->sysset[nr / 64] >> (nr % 64) & 1;
}

static bool engine_dead(const struct utrace_engine *e)
{
	return atomic_load(&e->flags) & ENG_DETACHED;
}

/* -- Attach --------------------------------------------------------------- */

static struct utrace_engine *match(struct uthread *th, int flags,
				   const struct utrace_engine_ops *ops,
				   void *data)
{
	struct utrace_engine *lists[2] = { th->head, th->ahead };

	for (int i = 0; i < 2; i++) {
		for (struct utrace_engine *e = lists[i]; e; e = e->next) {
			if (engine_dead(e))
				continue;
			if ((flags & UTRACE_ATTACH_MATCH_OPS) && e->ops != ops)
				continue;
			if ((flags & UTRACE_ATTACH_MATCH_DATA) &&
			    e->data != data)
				continue;
			return e;
		}
	}
	return NULL;
}

/* State letter and Tgid of a thread, from /proc; 0 when it is gone. */
static char thread_state(pid_t tid, pid_t *tgid)
{
	char buf[4096];
	const char *v;
	char state = 0;

	if (!utrace__proc_status(tid, buf, sizeof(buf)))
		return 0;
	if ((v = utrace__proc_field(buf, "State")))
		sscanf(v, " %c", &state);
	if ((v = utrace__proc_field(buf, "Tgid")))
		*tgid = atoi(v);
	return state;
}

struct attach_args {
	struct utrace_tracer *t;
	pid_t tid;
	int flags;
	const struct utrace_engine_ops *ops;
	void *data;
	struct utrace_engine **engine;
};

static int seize(struct utrace_tracer *t, pid_t tid, struct uthread **out)
{
	struct uthread *th;
	pid_t tgid = tid;
	char st = thread_state(tid, &tgid);

	if (!st || st == 'Z' || st == 'X')
		return -ESRCH;
	if (ptrace(PTRACE_SEIZE, tid, 0L, utrace__ptrace_opts(false)) < 0)
		return errno == ESRCH ? -ESRCH : -EPERM;
	th = utrace__thread_new(t, tid, tgid);
	if (!th) {
		ptrace(PTRACE_DETACH, tid, 0L, 0L);
		return -ENOMEM;
	}
	th->state = TH_RUNNING;
	th->opts = utrace__ptrace_opts(false);
	*out = th;
	return 0;
}

static int do_attach(void *arg)
{
	struct attach_args *a = arg;
	struct uthread *th = utrace__thread_find(a->t, a->tid);
	struct utrace_engine *e;
	int err;

	if (!(a->flags & UTRACE_ATTACH_CREATE)) {
		if (!th)
			return -ENOENT;
		e = match(th, a->flags, a->ops, a->data);
		if (!e)
			return -ENOENT;
		utrace_engine_get(e);
		*a->engine = e;
		return 0;
	}
	if (!a->ops)
		return -EINVAL;
	if (th) {
		/* Reaping has begun: nothing can be attached any more. */
		if (th->dead >= 2)
			return -ESRCH;
		if ((a->flags & UTRACE_ATTACH_EXCLUSIVE) &&
		    match(th, a->flags, a->ops, a->data))
			return -EEXIST;
	} else {
		err = seize(a->t, a->tid, &th);
		if (err)
			return err;
	}
	e = utrace__engine_new(th, a->ops, a->data);
	if (!e) {
		utrace__settle_later(th);	/* detaches an empty thread */
		return -ENOMEM;
	}
	if (a->flags & UTRACE__ATTACH_FIRST)
		engine_first(e);
	*a->engine = e;
	return 0;
}

/**
 * utrace_attach - attach a new engine to a thread, or look one up
 * Any thread of the tracer process may call it.  See utrace_attach(3).
 */
UTRACE_EXPORT int utrace_attach(struct utrace_tracer *t, pid_t tid, int flags,
				const struct utrace_engine_ops *ops, void *data,
				struct utrace_engine **engine)
{
	struct attach_args a = { t, tid, flags, ops, data, engine };

	if (!t || !engine || tid <= 0)
		return -EINVAL;
	if (flags & ~(UTRACE_ATTACH_MATCH_MASK | UTRACE_ATTACH_CREATE |
		      UTRACE_ATTACH_EXCLUSIVE))
		return -EINVAL;
	return utrace__call(t, do_attach, &a);
}

/* utrace_attach, and UTRACE__ATTACH_FIRST for the library's own use. */
int utrace__attach(struct utrace_tracer *t, pid_t tid, int flags,
		   const struct utrace_engine_ops *ops, void *data,
		   struct utrace_engine **engine)
{
	struct attach_args a = { t, tid, flags, ops, data, engine };

	return utrace__call(t, do_attach, &a);
}

/* -- References ----------------------------------------------------------- */

UTRACE_EXPORT void utrace_engine_get(struct utrace_engine *e)
{
	if (e)
		atomic_fetch_add(&e->refs, 1);
}

UTRACE_EXPORT void utrace_engine_put(struct utrace_engine *e)
{
	if (!e || atomic_fetch_sub(&e->refs, 1) != 1)
		return;
	if (e->ops && e->ops->release)
		e->ops->release(e->data);
	free(e->sysset);
	free(e);
}

UTRACE_EXPORT pid_t utrace_engine_tid(const struct utrace_engine *e)
{
	return e ? atomic_load(&((struct utrace_engine *)e)->tid) : -1;
}

/**
 * utrace_engine_tgid - the thread group id (process id) of the engine's thread
 * Any thread may call it; -1 for NULL.  See utrace_engine_tgid(3).
 */
UTRACE_EXPORT pid_t utrace_engine_tgid(const struct utrace_engine *e)
{
	return e ? atomic_load(&((struct utrace_engine *)e)->tgid) : -1;
}

UTRACE_EXPORT void *utrace_engine_data(const struct utrace_engine *e)
{
	return e ? e->data : NULL;
}

/* -- Events --------------------------------------------------------------- */

struct ev_args {
	struct utrace_engine *e;
	unsigned long events;
};

static int do_set_events(void *arg)
{
	struct ev_args *a = arg;
	struct utrace_engine *e = a->e;
	struct uthread *th = e->th;
	unsigned long old = e->events, events = a->events;
	const unsigned long dq = UTRACE_EVENT(DEATH) | UTRACE_EVENT(QUIESCE);

	if (engine_dead(e) || !th)
		return -ESRCH;
	if (th->dead >= 2 && (old & ~events & UTRACE_EVENT(REAP)))
		return -EALREADY;
	if (th->dead && ((events & ~old & dq) || (old & ~events & dq)))
		return -EALREADY;
	e->events = events;
	utrace__thread_recalc(th);
	return 0;
}

/**
 * utrace_set_events - replace an engine's event mask
 * Any thread of the tracer process may call it.  See utrace_set_events(3).
 */
UTRACE_EXPORT int utrace_set_events(struct utrace_engine *e,
				    unsigned long events)
{
	struct ev_args a = { e, events & UTRACE__EVENT_MASK };

	if (!e)
		return -EINVAL;
	if (engine_dead(e))
		return -ESRCH;
	return utrace__call(e->t, do_set_events, &a);
}

/* -- Control -------------------------------------------------------------- */

struct ctl_args {
	struct utrace_engine *e;
	int action;
};

static bool thread_stopped(const struct uthread *th)
{
	return th->state == TH_STOPPED || th->state == TH_NEW ||
	       th->in_group_stop;
}

static int do_control(void *arg)
{
	struct ctl_args *a = arg;
	struct utrace_engine *e = a->e;
	struct uthread *th = e->th;
	int action = a->action;

	if (engine_dead(e) || !th)
		return -ESRCH;
	if (action >= UTRACE_REPORT && action <= UTRACE_BLOCKSTEP &&
	    !(e->events & UTRACE_EVENT(QUIESCE)))
		return -EINVAL;
	if (th->dead) {
		if (action != UTRACE_DETACH || th->dead >= 2)
			return -ESRCH;
		return -EALREADY;
	}

	switch (action) {
	case UTRACE_STOP:
		atomic_fetch_or(&e->flags, ENG_STOP);
		if (thread_stopped(th)) {
			if (th->state == TH_RUNNING)	/* group stop: trap it */
				utrace__interrupt(th);
			return 0;
		}
		th->req = utrace__min(th->req, UTRACE_REPORT);
		utrace__interrupt(th);
		return -EINPROGRESS;
	case UTRACE_DETACH:
		utrace__engine_mark_detached(e);
		return 0;
	case UTRACE_REPORT:
	case UTRACE_INTERRUPT:
		th->req = utrace__min(th->req, action);
		break;
	case UTRACE_SINGLESTEP:
	case UTRACE_BLOCKSTEP:
		th->step = utrace__min(th->step, action);
		break;
	default:
		break;
	}
	atomic_fetch_and(&e->flags, ~ENG_STOP);
	if (th->state == TH_RUNNING && action != UTRACE_RESUME)
		utrace__interrupt(th);
	utrace__settle_later(th);
	return 0;
}

/**
 * utrace_control - resume, stop, step, interrupt or detach through an engine
 * Any thread of the tracer process may call it.  See utrace_control(3).
 */
UTRACE_EXPORT int utrace_control(struct utrace_engine *e,
				 enum utrace_resume_action action)
{
	struct ctl_args a = { e, (int)action };

	if (!e || (unsigned)action >= UTRACE_RESUME_MAX)
		return -EINVAL;
	if (engine_dead(e))
		return -ESRCH;
	return utrace__call(e->t, do_control, &a);
}

static int do_barrier(void *arg)
{
	struct utrace_engine *e = arg;

	return atomic_load(&e->flags) & ENG_UNLINKED ? -ESRCH : 0;
}

/**
 * utrace_barrier - wait until no callback to @e is in progress
 * Any thread of the tracer process may call it.  Callbacks run on the loop
 * thread and calls from other threads run between callbacks, so by the time
 * this returns no callback to @e is running.
 */
UTRACE_EXPORT int utrace_barrier(struct utrace_engine *e)
{
	if (!e)
		return -EINVAL;
	if (atomic_load(&e->flags) & ENG_UNLINKED)
		return -ESRCH;
	return utrace__call(e->t, do_barrier, e);
}

/* -- Syscall sets --------------------------------------------------------- */

struct sys_args {
	struct utrace_engine *e;
	uint64_t *set;
};

static int do_set_syscalls(void *arg)
{
	struct sys_args *a = arg;
	struct utrace_engine *e = a->e;

	if (engine_dead(e) || !e->th)
		return -ESRCH;
	free(e->sysset);
	e->sysset = a->set;
	a->set = NULL;
	utrace__thread_recalc(e->th);
	return 0;
}

/**
 * utrace_set_syscalls - limit an engine's syscall callbacks to a set
 * @nrs: x86_64 syscall numbers (0 to 1023), or NULL with @n 0 for all
 * Any thread of the tracer process may call it.
 */
UTRACE_EXPORT int utrace_set_syscalls(struct utrace_engine *e, const long *nrs,
				      size_t n)
{
	struct sys_args a = { e, NULL };
	int err;

	if (!e || (!nrs && n))
		return -EINVAL;
	if (nrs) {
		a.set = calloc(UTRACE__SYSSET_BITS / 64, sizeof(uint64_t));
		if (!a.set)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++) {
			if (nrs[i] < 0 || nrs[i] >= UTRACE__SYSSET_BITS) {
				free(a.set);
				return -EINVAL;
			}
			a.set[nrs[i] / 64] |= 1ULL << (nrs[i] % 64);
		}
	}
	if (engine_dead(e)) {
		free(a.set);
		return -ESRCH;
	}
	err = utrace__call(e->t, do_set_syscalls, &a);
	free(a.set);
	return err;
}

struct observer_args {
	struct utrace_engine *e;
	bool on;
};

static int do_set_observer(void *arg)
{
	struct observer_args *a = arg;
	struct utrace_engine *e = a->e;

	if ((atomic_load(&e->flags) & ENG_DETACHED) || !e->th)
		return -ESRCH;
	e->observer = a->on;
	utrace__thread_recalc(e->th);
	return 0;
}

static int do_set_holder(void *arg)
{
	struct observer_args *a = arg;
	struct utrace_engine *e = a->e;

	if ((atomic_load(&e->flags) & ENG_DETACHED) || !e->th)
		return -ESRCH;
	if (e->holder == a->on)
		return 0;
	e->holder = a->on;
	utrace__thread_recalc(e->th);
	return 0;
}

/* See layer.h. */
int utrace__engine_set_holder(struct utrace_engine *e, bool on)
{
	struct observer_args a = { e, on };

	return utrace__call(e->t, do_set_holder, &a);
}

/**
 * utrace_set_observer - declare that an engine only looks at syscalls
 * See utrace_set_observer(3).
 */
UTRACE_EXPORT int utrace_set_observer(struct utrace_engine *e, bool observer)
{
	struct observer_args a = { e, observer };

	if (!e)
		return -EINVAL;
	return utrace__call(e->t, do_set_observer, &a);
}
