// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The core's side of its seams (core/layer.h): the hooks layers register
 * on a tracer, and what they may see of a stopped thread without the
 * core's structures.
 */
#include <errno.h>
#include <string.h>
#include <sys/ptrace.h>
#include <linux/audit.h>

#include "core/internal.h"

/* -- Hooks ------------------------------------------------------------------ */

int utrace__layer_register(struct utrace_tracer *t,
			   const struct utrace__layer *ops, void *data)
{
	unsigned n, i;

	if (!t || !ops)
		return -EINVAL;
	n = atomic_load(&t->nlayers);
	for (i = 0; i < n; i++)
		if (t->layers[i].ops == ops)
			return -EEXIST;
	if (n == UTRACE__NLAYERS)
		return -ENOSPC;
	t->layers[n].ops = ops;
	t->layers[n].data = data;
	/* The run order: by order, then registration (loop thread only). */
	for (i = n; i > 0 && t->layers[t->lorder[i - 1]].ops->order >
	     ops->order; i--)
		t->lorder[i] = t->lorder[i - 1];
	t->lorder[i] = (unsigned char)n;
	/* Pairs with the acquire loads of other threads' lookups. */
	atomic_store_explicit(&t->nlayers, n + 1, memory_order_release);
	return 0;
}

void *utrace__layer_data(struct utrace_tracer *t,
			 const struct utrace__layer *ops)
{
	unsigned n;

	if (!t)
		return NULL;
	n = atomic_load_explicit(&t->nlayers, memory_order_acquire);
	for (unsigned i = 0; i < n; i++)
		if (t->layers[i].ops == ops)
			return t->layers[i].data;
	return NULL;
}

pid_t utrace__tracer_of(struct utrace_tracer *t, pid_t tid)
{
	unsigned n = atomic_load_explicit(&t->nlayers, memory_order_acquire);

	for (unsigned i = 0; i < n; i++) {
		const struct utrace__hook *h = &t->layers[i];
		pid_t r;

		if (h->ops->tracer_of &&
		    (r = h->ops->tracer_of(t, h->data, tid)) > 0)
			return r;
	}
	return 0;
}

void utrace__layers_after_dispatch(struct utrace_tracer *t)
{
	unsigned n = atomic_load_explicit(&t->nlayers, memory_order_relaxed);

	for (unsigned i = 0; i < n; i++) {
		const struct utrace__hook *h = &t->layers[t->lorder[i]];

		if (h->ops->after_dispatch)
			h->ops->after_dispatch(t, h->data);
	}
}

void utrace__layers_input(struct utrace_tracer *t)
{
	unsigned n = atomic_load_explicit(&t->nlayers, memory_order_relaxed);

	for (unsigned i = 0; i < n; i++) {
		const struct utrace__hook *h = &t->layers[t->lorder[i]];

		if (h->ops->input)
			h->ops->input(t, h->data);
	}
}

/* The sleep hooks' answers or'ed (UTRACE__SLEEP_ARMED, _READY). */
int utrace__layers_sleep(struct utrace_tracer *t, int how)
{
	unsigned n = atomic_load_explicit(&t->nlayers, memory_order_relaxed);
	int r = 0;

	for (unsigned i = 0; i < n; i++) {
		const struct utrace__hook *h = &t->layers[t->lorder[i]];

		if (h->ops->sleep)
			r |= h->ops->sleep(t, h->data, how);
	}
	return r;
}

void utrace__layers_closing(struct utrace_tracer *t)
{
	unsigned n = atomic_load_explicit(&t->nlayers, memory_order_relaxed);

	for (unsigned i = n; i-- > 0;) {
		const struct utrace__hook *h = &t->layers[t->lorder[i]];

		if (h->ops->closing)
			h->ops->closing(t, h->data);
	}
}

void utrace__layers_free(struct utrace_tracer *t)
{
	unsigned n = atomic_load_explicit(&t->nlayers, memory_order_relaxed);

	for (unsigned i = n; i-- > 0;) {
		const struct utrace__hook *h = &t->layers[t->lorder[i]];

		if (h->ops->free)
			h->ops->free(t, h->data);
	}
	atomic_store(&t->nlayers, 0);
}

/*
 * A SECCOMP_RET_TRACE stop of the program's own filter (stops.c): a layer
 * takes it (an emulated tracer that asked for these stops), or the call
 * fails with ENOSYS as the kernel fails it for a tracee whose tracer did
 * not ask (or that has none).
 */
bool utrace__layers_foreign_seccomp(struct uthread *th, uint32_t data)
{
	struct utrace_tracer *t = th->t;
	unsigned n = atomic_load_explicit(&t->nlayers, memory_order_relaxed);
	uint32_t arch = th->sc.arch ? th->sc.arch : AUDIT_ARCH_X86_64;

	for (unsigned i = 0; i < n; i++) {
		const struct utrace__hook *h = &t->layers[t->lorder[i]];

		if (h->ops->foreign_seccomp &&
		    h->ops->foreign_seccomp(t, h->data, th->tid, data, arch))
			return true;
	}
	if (!th->abort) {
		th->abort = true;
		th->ret_set = true;
		th->ret_val = -ENOSYS;
	}
	return false;
}

pid_t utrace__thread_tgid(struct utrace_tracer *t, pid_t tid)
{
	struct uthread *th = utrace__thread_find(t, tid);

	return th ? th->tgid : -ESRCH;
}

/* -- Where a thread is stopped ----------------------------------------------- */

static struct uthread *stopped(const struct utrace_engine *e)
{
	struct uthread *th = e ? e->th : NULL;

	return th && th->state == TH_STOPPED && !th->dead ? th : NULL;
}

enum utrace__stop utrace__engine_stop(const struct utrace_engine *e)
{
	struct uthread *th = stopped(e);

	return th ? th->stop : STOP_NONE;
}

int utrace__engine_siginfo(const struct utrace_engine *e, siginfo_t *info)
{
	struct uthread *th = stopped(e);

	if (!th)
		return -ESRCH;
	*info = th->si;
	return 0;
}

bool utrace__engine_in_group_stop(const struct utrace_engine *e)
{
	const struct uthread *th = e ? e->th : NULL;

	return th && th->in_group_stop;
}

int utrace__engine_leave_group_stop(struct utrace_engine *e)
{
	struct uthread *th = stopped(e);

	if (!th || th->stop != STOP_GROUP)
		return -ESRCH;
	th->stop = STOP_INTERRUPT;
	th->in_group_stop = false;
	return 0;
}

void utrace__engine_regroup(struct utrace_engine *e)
{
	struct uthread *th = e ? e->th : NULL;

	if (!th || th->dead || th->in_group_stop)
		return;
	th->regroup = true;
	utrace__interrupt(th);
}

int utrace__engine_ptrace(struct utrace_engine *e, int req, void *addr,
			  void *data, unsigned flags, long *ret)
{
	struct uthread *th = stopped(e);
	long r;

	if (!th)
		return -ESRCH;
	if (flags & UTRACE__PTRACE_REGS) {
		if (th->regs_dirty)
			ptrace(PTRACE_SETREGS, th->tid, 0L, &th->regs);
		th->regs_dirty = th->regs_valid = false;
	}
	errno = 0;
	r = ptrace((enum __ptrace_request)req, th->tid, addr, data);
	if (r == -1 && errno)
		return -errno;
	if (ret)
		*ret = r;
	return 0;
}

/* -- Thread hooks (a layer that sees threads where engines do not) --------- */

#define EACH_LAYER(t, h)							\
	for (unsigned _i = 0, _n = atomic_load_explicit(&(t)->nlayers,	\
						memory_order_relaxed);	\
	     _i < _n && ((h) = &(t)->layers[(t)->lorder[_i]]); _i++)

bool utrace__layers_status(struct uthread *th, int status)
{
	const struct utrace__hook *h;

	EACH_LAYER(th->t, h)
		if (h->ops->status && h->ops->status(th->t, h->data, th, status))
			return true;
	return false;
}

long utrace__layers_restart(struct uthread *th, long req)
{
	const struct utrace__hook *h;

	EACH_LAYER(th->t, h) {
		if (!h->ops->restart)
			continue;
		req = h->ops->restart(th->t, h->data, th, req);
		if (req < 0)
			return req;
	}
	return req;
}

void utrace__layers_recalc(struct uthread *th)
{
	const struct utrace__hook *h;

	EACH_LAYER(th->t, h)
		if (h->ops->recalc)
			h->ops->recalc(th->t, h->data, th);
}

void utrace__layers_release(struct uthread *th)
{
	const struct utrace__hook *h;

	EACH_LAYER(th->t, h)
		if (h->ops->release)
			h->ops->release(th->t, h->data, th);
}

void utrace__layers_forget(struct uthread *th)
{
	const struct utrace__hook *h;

	EACH_LAYER(th->t, h)
		if (h->ops->forget)
			h->ops->forget(th->t, h->data, th);
}

ssize_t utrace__layers_rec_read(struct uthread *th, uint64_t addr, void *buf,
				size_t len)
{
	const struct utrace__hook *h;

	EACH_LAYER(th->t, h)
		if (h->ops->rec_read)
			return h->ops->rec_read(th->t, h->data, th, addr, buf,
						len);
	return -ENODATA;
}

/* -- A traced thread, for the layers ------------------------------------------ */

pid_t utrace__th_tid(const struct uthread *th)
{
	return th->tid;
}

pid_t utrace__th_tgid(const struct uthread *th)
{
	return th->tgid;
}

enum utrace__stop utrace__th_stop(const struct uthread *th)
{
	return th->state == TH_STOPPED ? th->stop : STOP_NONE;
}

int utrace__th_stop_sig(const struct uthread *th)
{
	return th->state == TH_STOPPED && th->stop == STOP_SIGNAL ?
	       th->stop_sig : 0;
}

void **utrace__th_data(struct uthread *th, const struct utrace__layer *ops)
{
	unsigned n = atomic_load(&th->t->nlayers);

	for (unsigned i = 0; i < n; i++)
		if (th->t->layers[i].ops == ops)
			return &th->ldata[i];
	return NULL;
}

bool utrace__th_stepping(const struct uthread *th)
{
	return th->step_mode;
}

bool utrace__th_held(const struct uthread *th)
{
	for (const struct utrace_engine *e = th->head; e; e = e->next)
		if (e->holder && !(atomic_load(&e->flags) & ENG_DETACHED))
			return true;
	return false;
}

void utrace__th_signal_stop(struct uthread *th)
{
	th->state = TH_STOPPED;
	th->stop = STOP_SIGNAL;
	th->stop_sig = 0;
	th->interrupt_sent = false;	/* any trap consumes PTRACE_INTERRUPT */
	th->regs_valid = false;
}

struct user_regs_struct *utrace__th_regs(struct uthread *th)
{
	return utrace__regs_load(th) ? NULL : &th->regs;
}

void utrace__th_regs_changed(struct uthread *th)
{
	th->regs_dirty = th->regs_valid;
}

void utrace__th_regs_drop(struct uthread *th)
{
	th->regs_valid = th->regs_dirty = false;
}

void utrace__th_set_trapped(struct uthread *th, bool trapped)
{
	th->sys_trapped = trapped;
}

void utrace__th_gone(struct uthread *th, int status)
{
	struct utrace__status s = { .pid = th->tid, .status = status };

	utrace__requeue(th->t, &s);
	th->state = TH_RUNNING;
	th->stop = STOP_NONE;
	th->regs_valid = th->regs_dirty = false;
}

/* -- Syscalls observed in-process ------------------------------------------------ */

static bool set_bit(const uint64_t *set, long nr)
{
	return set[nr / 64] >> (nr % 64) & 1;
}

void utrace__th_observed(struct uthread *th, const uint64_t *capture,
			 uint64_t *want, uint64_t *stop)
{
	const unsigned long sys = UTRACE_EVENT_SYSCALL;

	memset(want, 0, UTRACE__SYSSET_BITS / 8);
	memset(stop, 0, UTRACE__SYSSET_BITS / 8);
	if (!(th->events & sys))
		return;
	for (long nr = 0; nr < UTRACE__SYSSET_BITS; nr++) {
		bool any = false, all_obs = true;

		for (const struct utrace_engine *e = th->head; e; e = e->next) {
			if (atomic_load(&e->flags) & ENG_DETACHED)
				continue;
			/* a pass for nr visits it (report.c) */
			if (!(e->events & (sys | UTRACE_EVENT(QUIESCE))) ||
			    !utrace__engine_wants_nr(e, nr))
				continue;
			any |= (e->events & sys) != 0;
			all_obs &= e->observer;
		}
		if (!any)
			continue;
		if (all_obs && set_bit(capture, nr))
			want[nr / 64] |= 1ULL << (nr % 64);
		else
			stop[nr / 64] |= 1ULL << (nr % 64);
	}
}

void utrace__record_report(struct uthread *th, bool exit,
			   const struct utrace_syscall *sc,
			   const struct user_regs_struct *regs,
			   const int64_t times[2])
{
	struct utrace_syscall keep = th->sc;
	struct utrace__event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = exit ? EV_SYSCALL_EXIT : EV_SYSCALL_ENTRY;
	ev.nr = sc->nr;
	if (!utrace__wants(th, &ev))
		return;
	th->sc = *sc;
	th->rec_regs = *regs;
	th->rec_time[0] = times[0];
	th->rec_time[1] = exit ? times[1] : 0;
	th->rec_pass = true;
	utrace__report(th, &ev);
	th->rec_pass = false;
	th->sc = keep;
}

void utrace__no_spawn_filter(struct utrace_tracer *t, bool none)
{
	t->no_spawn_filter = none;
}

bool utrace__th_filtered(const struct uthread *th)
{
	return th->filtered || th->setup;
}
