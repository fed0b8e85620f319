// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The core's side of its seams (core/layer.h): the hooks layers register
 * on a tracer, and what they may see of a stopped thread without the
 * core's structures.
 */
#include <errno.h>
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
