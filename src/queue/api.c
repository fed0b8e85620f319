// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public queue calls: each checks its arguments once, for both
 * backends, and calls the queue's backend (backend.h).  A joined queue's
 * serving tracer checks them again on its own local queue: a joiner is
 * not trusted, but a call that cannot succeed costs no round trip.
 */
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "core/layer.h"
#include "queue/backend.h"

/**
 * utrace_queue_watch - record (and hold) events of a thread, its process,
 * its children.  See utrace_queue_watch(3).
 */
UTRACE_EXPORT int utrace_queue_watch(struct utrace_queue *q, pid_t tid,
				     unsigned flags, unsigned long events,
				     unsigned long hold)
{
	if (!q || tid <= 0)
		return -EINVAL;
	if (flags & ~(unsigned)Q_WATCH_FLAGS)
		return -EINVAL;
	if ((events & ~Q_RECORDABLE) || (hold & ~events) ||
	    (hold & UTRACE_EVENT(DEATH)))
		return -EINVAL;
	return q->ops->watch(q, tid, flags, events, hold);
}

/**
 * utrace_queue_unwatch - stop watching a thread (its process, children)
 * Returns 0, -ENOENT (not watched), -EINVAL.
 */
UTRACE_EXPORT int utrace_queue_unwatch(struct utrace_queue *q, pid_t tid,
				       unsigned flags)
{
	/* UTRACE_WATCH_FIRST says nothing here: taken, and not used. */
	if (!q || tid <= 0 || (flags & ~(unsigned)Q_WATCH_FLAGS))
		return -EINVAL;
	return q->ops->unwatch(q, tid, flags);
}

/**
 * utrace_queue_set_syscalls - utrace_set_syscalls for what a watch covers
 * Returns 0, -ENOENT (@tid not watched), -EINVAL, -ENOMEM.
 */
UTRACE_EXPORT int utrace_queue_set_syscalls(struct utrace_queue *q, pid_t tid,
					    const long *nrs, size_t n)
{
	if (!q || tid <= 0 || (!nrs && n))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (nrs[i] < 0 || nrs[i] >= UTRACE__SYSSET_BITS)
			return -EINVAL;
	return q->ops->set_syscalls(q, tid, nrs, n);
}

/**
 * utrace_queue_next - the next record, waiting up to @timeout_ms for one
 * Returns 1 with a record in *ev, 0 when none came in time, or -EINVAL
 * (a joined queue: -ENOTCONN once the connection is gone).  On the loop
 * thread it dispatches while it waits.
 */
UTRACE_EXPORT int utrace_queue_next(struct utrace_queue *q,
				    struct utrace_event *ev, int timeout_ms)
{
	if (!q || !ev || ev->size < sizeof(*ev) || timeout_ms < -1)
		return -EINVAL;
	return q->ops->next(q, ev, timeout_ms);
}

/**
 * utrace_queue_reply - let a held event go, with the engine's vote
 * Returns 0, -ENOENT (not held, already replied, unknown), -ESRCH (the
 * thread died), -EINVAL.  See utrace_queue_reply(3).
 */
UTRACE_EXPORT int utrace_queue_reply(struct utrace_queue *q, uint64_t id,
				     const struct utrace_reply *r)
{
	struct utrace_reply dflt;

	if (!r) {
		/* NULL: the defaults, a plain UTRACE_RESUME */
		memset(&dflt, 0, sizeof(dflt));
		dflt.size = sizeof(dflt);
		dflt.action = UTRACE_RESUME;
		r = &dflt;
	}
	if (!q || r->size < sizeof(*r) ||
	    (r->flags & ~(unsigned)(UTRACE_REPLY_RETURN | UTRACE_REPLY_ARGS |
				    UTRACE_REPLY_SIGINFO)) ||
	    utrace_resume_action(r->action) >= UTRACE_RESUME_MAX ||
	    (r->action & ~(uint32_t)(UTRACE_RESUME_MASK | UTRACE_SIGNAL_MASK |
				     UTRACE_SIGNAL_HOLD)))
		return -EINVAL;
	return q->ops->reply(q, id, r);
}

/**
 * utrace_queue_stop - hold every watched thread of process @pid
 * Returns the number of threads stopped once all are, -ETIMEDOUT (the stop
 * stays in force), -ECANCELED (utrace_queue_resume of @pid, from another
 * thread, came first), -ESRCH (no watched thread in @pid), -EINVAL.
 */
UTRACE_EXPORT int utrace_queue_stop(struct utrace_queue *q, pid_t pid,
				    int timeout_ms)
{
	if (!q || pid <= 0 || timeout_ms < -1)
		return -EINVAL;
	return q->ops->stop(q, pid, timeout_ms);
}

/**
 * utrace_queue_resume - release what utrace_queue_stop took of @pid
 * Returns the number of threads released (0: @pid was not stopped).
 */
UTRACE_EXPORT int utrace_queue_resume(struct utrace_queue *q, pid_t pid)
{
	if (!q || pid <= 0)
		return -EINVAL;
	return q->ops->resume(q, pid);
}

/**
 * utrace_queue_resume_thread - let one thread an all-stop holds go
 * @action: UTRACE_RESUME or UTRACE_SINGLESTEP
 * Returns 0, -ENOENT (not held by this queue's utrace_queue_stop), -ESRCH,
 * -EINVAL.  See utrace_queue_resume_thread(3).
 */
UTRACE_EXPORT int utrace_queue_resume_thread(struct utrace_queue *q,
					     pid_t tid, uint32_t action)
{
	if (!q || tid <= 0 ||
	    (action != UTRACE_RESUME && action != UTRACE_SINGLESTEP))
		return -EINVAL;
	return q->ops->resume_thread(q, tid, action);
}

/**
 * utrace_queue_stop_thread - hold one watched thread, the others untouched
 * Returns 1 once it is stopped, -ETIMEDOUT (the stop stays in force),
 * -ESRCH (not a live thread this queue watches), -ECANCELED
 * (utrace_queue_resume_thread called it off), -EINVAL.  See
 * utrace_queue_stop_thread(3).
 */
UTRACE_EXPORT int utrace_queue_stop_thread(struct utrace_queue *q, pid_t tid,
					   int timeout_ms)
{
	if (!q || tid <= 0 || timeout_ms < -1)
		return -EINVAL;
	return q->ops->stop_thread(q, tid, timeout_ms);
}

UTRACE_EXPORT int utrace_queue_regs_get(struct utrace_queue *q, pid_t tid,
					struct user_regs_struct *regs)
{
	if (!q || !regs || tid <= 0)
		return -EINVAL;
	return q->ops->regs(q, tid, regs, NULL);
}

UTRACE_EXPORT int utrace_queue_regs_set(struct utrace_queue *q, pid_t tid,
					const struct user_regs_struct *regs)
{
	if (!q || !regs || tid <= 0)
		return -EINVAL;
	return q->ops->regs(q, tid, NULL, regs);
}

static ssize_t memv(struct utrace_queue *q, pid_t tid,
		    const struct utrace_iov *iov, size_t n, bool write)
{
	if (!q || tid <= 0 || (!iov && n))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!iov[i].buf && iov[i].len)
			return -EINVAL;
	return q->ops->memv(q, tid, iov, n, write);
}

UTRACE_EXPORT ssize_t utrace_queue_mem_readv(struct utrace_queue *q, pid_t tid,
					     const struct utrace_iov *iov,
					     size_t n)
{
	return memv(q, tid, iov, n, false);
}

UTRACE_EXPORT ssize_t utrace_queue_mem_writev(struct utrace_queue *q,
					      pid_t tid,
					      const struct utrace_iov *iov,
					      size_t n)
{
	return memv(q, tid, iov, n, true);
}

static ssize_t regset(struct utrace_queue *q, pid_t tid, unsigned int type,
		      void *buf, size_t len, bool write)
{
	/* The general registers are utrace_queue_regs_*. */
	if (!q || tid <= 0 || !buf || !len || type == NT_PRSTATUS)
		return -EINVAL;
	return q->ops->regset(q, tid, type, buf, len, write);
}

/**
 * utrace_queue_regset_get - utrace_regset_get on a thread the queue holds
 * Returns the bytes filled, -EBUSY (not held by this queue), -ESRCH,
 * -EINVAL.  See utrace_queue_regset_get(3).
 */
UTRACE_EXPORT ssize_t utrace_queue_regset_get(struct utrace_queue *q,
					      pid_t tid, unsigned int type,
					      void *buf, size_t len)
{
	return regset(q, tid, type, buf, len, false);
}

/**
 * utrace_queue_regset_set - utrace_regset_set on a thread the queue holds
 * Returns the bytes the kernel took, or as utrace_queue_regset_get.
 */
UTRACE_EXPORT ssize_t utrace_queue_regset_set(struct utrace_queue *q,
					      pid_t tid, unsigned int type,
					      const void *buf, size_t len)
{
	return regset(q, tid, type, (void *)buf, len, true);
}

static bool dr_valid(int n)
{
	return (n >= 0 && n <= 3) || n == 6 || n == 7;
}

/**
 * utrace_queue_debugreg_get - utrace_debugreg_get on a thread the queue holds
 * Returns 0, -EBUSY, -ESRCH, -EINVAL.  See utrace_queue_debugreg_get(3).
 */
UTRACE_EXPORT int utrace_queue_debugreg_get(struct utrace_queue *q, pid_t tid,
					    int n, uint64_t *value)
{
	if (!q || tid <= 0 || !value || !dr_valid(n))
		return -EINVAL;
	return q->ops->debugreg(q, tid, n, value, false);
}

/**
 * utrace_queue_debugreg_set - utrace_debugreg_set on a thread the queue holds
 * Returns 0, -EBUSY, -ESRCH, -EINVAL (also a value the kernel refuses).
 */
UTRACE_EXPORT int utrace_queue_debugreg_set(struct utrace_queue *q, pid_t tid,
					    int n, uint64_t value)
{
	if (!q || tid <= 0 || !dr_valid(n))
		return -EINVAL;
	return q->ops->debugreg(q, tid, n, &value, true);
}

/**
 * utrace_queue_fd - readable while a record waits
 * Returns the descriptor (owned by the queue) or a negative errno.
 */
UTRACE_EXPORT int utrace_queue_fd(struct utrace_queue *q)
{
	if (!q)
		return -EINVAL;
	return q->ops->fd(q);
}

/**
 * utrace_queue_free - unwatch everything and free the queue
 * No thread stays stopped because of it.  Free local queues before their
 * tracer.
 */
UTRACE_EXPORT void utrace_queue_free(struct utrace_queue *q)
{
	if (q)
		q->ops->free(q);
}
