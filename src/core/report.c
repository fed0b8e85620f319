// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reporting passes: which engines are called, in which order, and how their
 * votes add up.  Pure logic: callbacks only, no ptrace, so test/unit can
 * drive it with a fake thread.
 *
 * The rules are the kernel's (reference section 5):
 *  - attach order; reverse order for syscall entry, including the
 *    report_quiesce calls that precede report_syscall_entry;
 *  - per engine, report_quiesce(event) first if it has QUIESCE, then the
 *    event's callback, with the aggregate so far in @action;
 *  - the smallest resume action wins; STOP is sticky per engine;
 *  - event-specific bits (signal, syscall) are replaced by each engine's
 *    return and the last engine called decides them;
 *  - engines attached during the pass wait for the next one.
 */
#include <stdlib.h>

#include "core/internal.h"

static unsigned long event_bit(const struct utrace__event *ev)
{
	switch (ev->type) {
	case EV_QUIESCE:
	case EV_SIGNAL_REPORT:	return 0;
	case EV_SYSCALL_ENTRY:	return UTRACE_EVENT(SYSCALL_ENTRY);
	case EV_SYSCALL_EXIT:	return UTRACE_EVENT(SYSCALL_EXIT);
	case EV_CLONE:		return UTRACE_EVENT(CLONE);
	case EV_EXEC:		return UTRACE_EVENT(EXEC);
	case EV_EXIT:		return UTRACE_EVENT(EXIT);
	case EV_SIGNAL:		return ev->bit;
	case EV_JCTL:		return UTRACE_EVENT(JCTL);
	case EV_DEATH:		return UTRACE_EVENT(DEATH);
	case EV_REAP:		return UTRACE_EVENT(REAP);
	}
	return 0;
}

static bool is_syscall(const struct utrace__event *ev)
{
	return ev->type == EV_SYSCALL_ENTRY || ev->type == EV_SYSCALL_EXIT;
}

/* Does engine @e take part in this pass at all? */
static bool engine_visited(const struct utrace_engine *e,
			   const struct utrace__event *ev)
{
	unsigned long want = e->events;

	if (atomic_load(&e->flags) & ENG_DETACHED)
		return false;
	if (is_syscall(ev) && !utrace__engine_wants_nr(e, ev->nr))
		return false;
	if (ev->type == EV_REAP)
		return want & UTRACE_EVENT(REAP);
	return want & (event_bit(ev) | UTRACE_EVENT(QUIESCE));
}

/*
 * The engines a syscall pass visits (syscall events or QUIESCE), kept in an
 * array rebuilt after any change of masks or engines (thread.c recalc), so
 * the hot path costs O(engines that want syscalls), not O(all engines).
 * Never rebuilt during a pass: detached engines stay in it, marked, until
 * the pass ends (pairs with utrace__pass_end).
 */
static void sys_update(struct uthread *th)
{
	const unsigned long want = UTRACE_EVENT_SYSCALL | UTRACE_EVENT(QUIESCE);
	struct utrace_engine *e;
	unsigned n = 0;

	if (!th->sys_dirty || th->in_pass)
		return;
	for (e = th->head; e; e = e->next)
		if (!(atomic_load(&e->flags) & ENG_DETACHED) && (e->events & want))
			n++;
	if (n > th->sys_cap) {
		struct utrace_engine **a = realloc(th->sys, n * sizeof(*a));

		if (!a)
			return;		/* keep the old list; try again later */
		th->sys = a;
		th->sys_cap = n;
	}
	n = 0;
	for (e = th->head; e; e = e->next)
		if (!(atomic_load(&e->flags) & ENG_DETACHED) && (e->events & want))
			th->sys[n++] = e;
	th->nsys = n;
	th->sys_dirty = false;
}

static bool any_wants_nr(struct uthread *th, unsigned long bit, long nr)
{
	if (!(th->events & bit))
		return false;
	sys_update(th);
	for (unsigned i = 0; i < th->nsys; i++) {
		const struct utrace_engine *e = th->sys[i];

		if (!(atomic_load(&e->flags) & ENG_DETACHED) &&
		    (e->events & bit) && utrace__engine_wants_nr(e, nr))
			return true;
	}
	return false;
}

/* At a syscall's entry: will an engine want its exit? */
bool utrace__exit_wanted(struct uthread *th, long nr)
{
	return any_wants_nr(th, UTRACE_EVENT(SYSCALL_EXIT), nr);
}

/*
 * Is there a pass to make at all?  Only when some engine asked for the event
 * itself: QUIESCE alone does not cause event reports, except for death and
 * signals, where the kernel reports to QUIESCE engines too (reference 2.1,
 * 7.1), and event 0, which is QUIESCE's own.
 */
bool utrace__wants(struct uthread *th, const struct utrace__event *ev)
{
	unsigned long bit = event_bit(ev);

	switch (ev->type) {
	case EV_QUIESCE:
	case EV_SIGNAL_REPORT:
		return th->events & UTRACE_EVENT(QUIESCE);
	case EV_DEATH:
	case EV_SIGNAL:
		return th->events & (bit | UTRACE_EVENT(QUIESCE));
	case EV_SYSCALL_ENTRY:
	case EV_SYSCALL_EXIT:
		return any_wants_nr(th, bit, ev->nr);
	default:
		return th->events & bit;
	}
}

/*
 * Fold one callback's return into the aggregate.  @bits_mask selects the
 * event-specific bits the return may replace (0: none).
 */
static uint32_t fold(struct uthread *th, struct utrace_engine *e,
		     uint32_t agg, uint32_t ret, uint32_t bits_mask,
		     bool signal_pass)
{
	int r = ret & UTRACE_RESUME_MASK;

	if (r >= UTRACE_RESUME_MAX)
		r = UTRACE_RESUME;
	/*
	 * A pass made from a record: the syscall has run already, so the
	 * engines only look; every vote but DETACH counts as RESUME and
	 * the event-specific bits are not taken.
	 */
	if (th->rec_pass && r != UTRACE_DETACH) {
		r = UTRACE_RESUME;
		bits_mask = 0;
	}
	if (r == UTRACE_DETACH) {
		utrace__engine_mark_detached(e);
		r = UTRACE_RESUME;
	} else if (r == UTRACE_STOP) {
		atomic_fetch_or(&e->flags, ENG_STOP);
	} else {
		atomic_fetch_and(&e->flags, ~ENG_STOP);
	}
	/* Inside a signal pass these would loop: they count as RESUME. */
	if (signal_pass && (r == UTRACE_REPORT || r == UTRACE_INTERRUPT))
		r = UTRACE_RESUME;
	/* Applied after the stop if another engine stops the thread. */
	if (r != UTRACE_STOP)
		th->pass_vote = utrace__min(th->pass_vote, r);
	if (bits_mask)
		agg = (agg & ~bits_mask) | (ret & bits_mask);
	return (agg & ~UTRACE_RESUME_MASK) |
	       (uint32_t)utrace__min(agg & UTRACE_RESUME_MASK, r);
}

static uint32_t call_event(struct utrace_engine *e, struct utrace__event *ev,
			   uint32_t action, bool *called)
{
	const struct utrace_engine_ops *ops = e->ops;

	*called = true;
	switch (ev->type) {
	case EV_SYSCALL_ENTRY:
		if (ops->report_syscall_entry)
			return ops->report_syscall_entry(action, e);
		break;
	case EV_SYSCALL_EXIT:
		if (ops->report_syscall_exit)
			return ops->report_syscall_exit(action, e);
		break;
	case EV_CLONE:
		if (ops->report_clone)
			return ops->report_clone(action, e, ev->clone_flags,
						 ev->child);
		break;
	case EV_EXEC:
		if (ops->report_exec)
			return ops->report_exec(action, e, ev->former);
		break;
	case EV_EXIT:
		if (ops->report_exit)
			return ops->report_exit(action, e, ev->status);
		break;
	case EV_JCTL:
		if (ops->report_jctl)
			return ops->report_jctl(action, e, ev->type_arg,
						ev->notify);
		break;
	default:
		break;
	}
	*called = false;
	return action;
}

/* Signal passes: report_signal instead of report_quiesce + callback. */
static uint32_t signal_pass(struct uthread *th, struct utrace__event *ev)
{
	unsigned long bit = event_bit(ev);
	uint32_t action = UTRACE_RESUME | ev->action;
	const uint32_t bits = UTRACE_SIGNAL_MASK | UTRACE_SIGNAL_HOLD;

	for (struct utrace_engine *e = th->head; e; e = e->next) {
		uint32_t ret;

		if (atomic_load(&e->flags) & ENG_DETACHED)
			continue;
		/* Event 0: only QUIESCE engines are called. */
		if (!(e->events & (bit | UTRACE_EVENT(QUIESCE))))
			continue;
		if (e->ops->report_signal) {
			ret = e->ops->report_signal(action, e, ev->info);
			action = fold(th, e, action, ret, bits, true);
		} else if (e->events & UTRACE_EVENT(QUIESCE) &&
			   e->ops->report_quiesce) {
			/* The previous disposition is kept. */
			ret = e->ops->report_quiesce(action, e, bit);
			action = fold(th, e, action, ret, 0, true);
		} else {
			continue;
		}
		if (atomic_load(&e->flags) & ENG_STOP)
			action &= ~UTRACE_RESUME_MASK;
	}
	return action;
}

static uint32_t death_pass(struct uthread *th, struct utrace__event *ev)
{
	for (struct utrace_engine *e = th->head; e; e = e->next) {
		uint32_t ret = UTRACE_RESUME;

		if (atomic_load(&e->flags) & ENG_DETACHED)
			continue;
		if (e->events & UTRACE_EVENT(QUIESCE) && e->ops->report_quiesce)
			ret = e->ops->report_quiesce(UTRACE_RESUME, e,
						     UTRACE_EVENT(DEATH));
		if (utrace_resume_action(ret) == UTRACE_DETACH) {
			utrace__engine_mark_detached(e);
			continue;
		}
		if (!(e->events & UTRACE_EVENT(DEATH)) || !e->ops->report_death)
			continue;
		ret = e->ops->report_death(e, ev->group_dead, ev->status);
		/* Only DETACH means anything here. */
		if (utrace_resume_action(ret) == UTRACE_DETACH)
			utrace__engine_mark_detached(e);
	}
	return UTRACE_RESUME;
}

static void reap_pass(struct uthread *th)
{
	for (struct utrace_engine *e = th->head; e; e = e->next) {
		if (atomic_load(&e->flags) & ENG_DETACHED)
			continue;
		if (e->events & UTRACE_EVENT(REAP) && e->ops->report_reap)
			e->ops->report_reap(e);
	}
}

/*
 * Engines attached while a pass ran join now, in attach order: at the end,
 * or at the head for UTRACE__ATTACH_FIRST ones (the last of them first).
 */
static void splice_attaching(struct uthread *th)
{
	struct utrace_engine *e;

	while ((e = th->ahead)) {
		th->ahead = e->next;
		th->sys_dirty = true;
		if (e->first) {
			e->prev = NULL;
			e->next = th->head;
			if (th->head)
				th->head->prev = e;
			else
				th->tail = e;
			th->head = e;
			continue;
		}
		e->next = NULL;
		e->prev = th->tail;
		if (th->tail)
			th->tail->next = e;
		else
			th->head = e;
		th->tail = e;
	}
}

/*
 * End of a pass: unlink engines detached during it and let newly attached
 * ones join.  Pairs with the ENG_DETACHED checks in the walks above, which
 * keep the list intact while it is being walked.
 */
void utrace__pass_end(struct uthread *th)
{
	struct utrace_engine *e, *next;
	bool joined = th->ahead != NULL;

	if (th->in_pass)
		return;
	for (e = th->head; e; e = next) {
		next = e->next;
		if (atomic_load(&e->flags) & ENG_DETACHED)
			utrace__engine_unlink(e);	/* recalculates */
	}
	splice_attaching(th);
	if (joined)
		utrace__thread_recalc(th);
}

/* One engine's turn in an ordinary pass: quiesce, then its event. */
static uint32_t visit(struct uthread *th, struct utrace_engine *e,
		      struct utrace__event *ev, unsigned long bit,
		      uint32_t bits, uint32_t action)
{
	bool called;
	uint32_t ret;

	if (!engine_visited(e, ev))
		return action;
	if (e->events & UTRACE_EVENT(QUIESCE) && e->ops->report_quiesce) {
		ret = e->ops->report_quiesce(action, e, bit);
		action = fold(th, e, action, ret, 0, false);
		if (atomic_load(&e->flags) & ENG_DETACHED)
			return action;
	}
	if (atomic_load(&e->flags) & ENG_STOP)
		action &= ~UTRACE_RESUME_MASK;
	/* The mask is read again: report_quiesce may have set it. */
	if (!(e->events & bit))
		return action;
	ret = call_event(e, ev, action, &called);
	if (called)
		action = fold(th, e, action, ret, bits, false);
	return action;
}

/**
 * utrace__report - run one reporting pass over @th's engines
 * @th: the thread, stopped (or dead) on the loop thread
 * @ev: the event; ev->action holds the initial event-specific bits
 *
 * Returns the aggregate: the smallest resume action returned (STOP if any
 * engine visited holds the thread) ORed with the event-specific bits the
 * last engine called left.  Sticky STOP marks are left on the engines; a
 * REPORT or INTERRUPT vote is left in th->req and a step vote in th->step.
 */
uint32_t utrace__report(struct uthread *th, struct utrace__event *ev)
{
	unsigned long bit = event_bit(ev);
	bool reverse = ev->type == EV_SYSCALL_ENTRY;
	uint32_t bits = 0, action;
	int outer_vote = th->pass_vote;
	struct utrace_engine *e;

	th->pass_vote = UTRACE_RESUME;
	splice_attaching(th);
	if (is_syscall(ev))
		sys_update(th);		/* before in_pass: may rebuild */
	th->in_pass++;
	th->t->mc_tid = 0;	/* memory read before this pass is stale */
	switch (ev->type) {
	case EV_SIGNAL:
	case EV_SIGNAL_REPORT:
		action = signal_pass(th, ev);
		goto out;
	case EV_DEATH:
		action = death_pass(th, ev);
		goto out;
	case EV_REAP:
		reap_pass(th);
		action = UTRACE_RESUME;
		goto out;
	case EV_SYSCALL_ENTRY:
		bits = UTRACE_SYSCALL_MASK;
		break;
	default:
		break;
	}

	action = UTRACE_RESUME | ev->action;
	if (is_syscall(ev)) {
		sys_update(th);
		for (unsigned i = 0; i < th->nsys; i++) {
			e = th->sys[reverse ? th->nsys - 1 - i : i];
			action = visit(th, e, ev, bit, bits, action);
		}
	} else {
		for (e = th->head; e; e = e->next)
			action = visit(th, e, ev, bit, bits, action);
	}
out:
	th->in_pass--;
	th->t->mc_tid = 0;
	if (ev->type != EV_DEATH && ev->type != EV_REAP && !th->rec_pass) {
		int r = utrace_resume_action(action);

		/*
		 * When an engine stops the thread, the others' smallest vote
		 * waits for the release (the kernel's utrace_stop(resume)):
		 * a REPORT from one engine brings the repeat of an entry pass
		 * after another engine's STOP (reference 4.4).
		 */
		if (r == UTRACE_STOP)
			r = th->pass_vote;
		if (r == UTRACE_REPORT || r == UTRACE_INTERRUPT)
			th->req = utrace__min(th->req, r);
		th->step = r == UTRACE_SINGLESTEP || r == UTRACE_BLOCKSTEP ?
			   r : UTRACE_RESUME;
	}
	th->pass_vote = outer_vote;
	utrace__pass_end(th);
	/* RESUMED is an input flag of syscall-entry passes only. */
	if (ev->type == EV_SYSCALL_ENTRY)
		action &= ~(uint32_t)UTRACE_SYSCALL_RESUMED;
	return action;
}
