/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The queue interface: one table of operations, two backends (as
 * gdbserver's process_stratum_target has one interface and a target per
 * kind of process).  The public utrace_queue_* functions (api.c) check
 * their arguments once and call the queue's backend:
 *
 *  - local (local.c): engines on this process's tracer (utrace_queue_new);
 *  - joined (share/remote.c): each call carried over the socket to a
 *    serving tracer, which carries it out on a local queue of its own
 *    (utrace_queue_connect).
 *
 * A backend embeds struct utrace_queue first in its own queue object.
 * Arguments reach it checked as each operation's comment says; what only
 * the backend can know (a thread's state, a reply's id) it checks itself.
 */
#ifndef UTRACE_QUEUE_BACKEND_H
#define UTRACE_QUEUE_BACKEND_H

#include <stdbool.h>
#include <sys/types.h>
#include "utrace.h"

/* Events a queue can record; DEATH cannot be held. */
#define Q_RECORDABLE	(UTRACE_EVENT(CLONE) | UTRACE_EVENT(EXEC) | \
			 UTRACE_EVENT(EXIT) | UTRACE_EVENT(DEATH) | \
			 UTRACE_EVENT_SYSCALL | UTRACE_EVENT_SIGNAL_ALL | \
			 UTRACE_EVENT(JCTL))
/* What utrace__follow takes of a watch's flags. */
#define Q_FOLLOW	(UTRACE_WATCH_PROCESS | UTRACE_WATCH_CHILDREN)
#define Q_WATCH_FLAGS	(Q_FOLLOW | UTRACE_WATCH_FIRST)

struct utrace_queue;

/*
 * Every pid is > 0, every pointer the public call needs is set, flags and
 * actions are ones the public call takes.
 */
struct utrace__queue_ops {
	int (*watch)(struct utrace_queue *q, pid_t tid, unsigned flags,
		     unsigned long events, unsigned long hold);
	int (*unwatch)(struct utrace_queue *q, pid_t tid, unsigned flags);
	/* @nrs NULL (and @n 0): every syscall; numbers in range */
	int (*set_syscalls)(struct utrace_queue *q, pid_t tid,
			    const long *nrs, size_t n);
	int (*next)(struct utrace_queue *q, struct utrace_event *ev,
		    int timeout_ms);
	int (*reply)(struct utrace_queue *q, uint64_t id,
		     const struct utrace_reply *r);
	int (*stop)(struct utrace_queue *q, pid_t pid, int timeout_ms);
	int (*resume)(struct utrace_queue *q, pid_t pid);
	/* @timeout_ms >= -1 */
	int (*stop_thread)(struct utrace_queue *q, pid_t tid, int timeout_ms);
	/* @action: UTRACE_RESUME or UTRACE_SINGLESTEP */
	int (*resume_thread)(struct utrace_queue *q, pid_t tid,
			     uint32_t action);
	/* one of @out (get) and @in (set) */
	int (*regs)(struct utrace_queue *q, pid_t tid,
		    struct user_regs_struct *out,
		    const struct user_regs_struct *in);
	ssize_t (*memv)(struct utrace_queue *q, pid_t tid,
			const struct utrace_iov *iov, size_t n, bool write);
	/* @len > 0, @type not NT_PRSTATUS */
	ssize_t (*regset)(struct utrace_queue *q, pid_t tid, unsigned int type,
			  void *buf, size_t len, bool write);
	/* @n: 0-3, 6 or 7 */
	int (*debugreg)(struct utrace_queue *q, pid_t tid, int n,
			uint64_t *value, bool write);
	int (*fd)(struct utrace_queue *q);
	void (*free)(struct utrace_queue *q);
};

struct utrace_queue {
	const struct utrace__queue_ops *ops;
};

#endif
