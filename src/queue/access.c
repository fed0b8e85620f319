// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Looking at and changing a thread the local queue holds: registers,
 * memory, register sets, debug registers (the engine API's accessors on
 * the queue's engine, on the loop thread).
 */
#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/proc.h"
#include "queue/queue.h"

struct acc_args {
	struct lqueue *q;
	pid_t tid;
	struct user_regs_struct *out;
	const struct user_regs_struct *in;
	const struct utrace_iov *iov;
	size_t n;
	bool write;
	ssize_t ret;
	/* regset, debugreg */
	unsigned int type;
	void *buf;
	size_t len;
	int dr;
	uint64_t *value;
};

static int held_thread(struct acc_args *a, struct qthread **out)
{
	struct qthread *qt = utrace__qt_find(a->q, a->tid);

	if (qt && qt->dead)
		return -ESRCH;
	if (!qt)
		return utrace__proc_alive(a->tid) ? -EBUSY : -ESRCH;
	if (!qt->held_id && !qt->allstop_seen)
		return -EBUSY;
	*out = qt;
	return 0;
}

static int do_regs(void *arg)
{
	struct acc_args *a = arg;
	struct qthread *qt;
	int err = held_thread(a, &qt);

	if (err)
		return err;
	return a->out ? utrace_regs_get(qt->e, a->out) :
			utrace_regs_set(qt->e, a->in);
}

int utrace__q_regs(struct utrace_queue *uq, pid_t tid,
		   struct user_regs_struct *out,
		   const struct user_regs_struct *in)
{
	struct lqueue *q = lq(uq);
	struct acc_args a = { .q = q, .tid = tid, .out = out, .in = in };

	return utrace__call(q->t, do_regs, &a);
}

static int do_memv(void *arg)
{
	struct acc_args *a = arg;
	struct qthread *qt;
	int err = held_thread(a, &qt);
	ssize_t total = 0;

	if (err)
		return err;
	for (size_t i = 0; i < a->n; i++) {
		const struct utrace_iov *v = &a->iov[i];
		ssize_t n;

		if (a->write)
			utrace__qbp_note(qt, v);
		n = a->write ?
			utrace_mem_write(qt->e, v->addr, v->buf, v->len) :
			utrace_mem_read(qt->e, v->addr, v->buf, v->len);

		if (n < 0) {
			if (!total)
				total = n;
			break;
		}
		total += n;
		if ((size_t)n < v->len)
			break;
	}
	a->ret = total;
	return 0;
}

ssize_t utrace__q_memv(struct utrace_queue *uq, pid_t tid,
		       const struct utrace_iov *iov, size_t n, bool write)
{
	struct lqueue *q = lq(uq);
	struct acc_args a = { .q = q, .tid = tid, .iov = iov, .n = n,
			      .write = write };
	int err;

	err = utrace__call(q->t, do_memv, &a);
	return err ? err : a.ret;
}

static int do_regset(void *arg)
{
	struct acc_args *a = arg;
	struct qthread *qt;
	int err = held_thread(a, &qt);

	if (err)
		return err;
	a->ret = a->write ? utrace_regset_set(qt->e, a->type, a->buf, a->len) :
			    utrace_regset_get(qt->e, a->type, a->buf, a->len);
	return 0;
}

ssize_t utrace__q_regset(struct utrace_queue *uq, pid_t tid,
			 unsigned int type, void *buf, size_t len, bool write)
{
	struct lqueue *q = lq(uq);
	struct acc_args a = { .q = q, .tid = tid, .type = type, .buf = buf,
			      .len = len, .write = write };
	int err;

	err = utrace__call(q->t, do_regset, &a);
	return err ? err : a.ret;
}

static int do_debugreg(void *arg)
{
	struct acc_args *a = arg;
	struct qthread *qt;
	int err = held_thread(a, &qt);

	if (err)
		return err;
	if (a->write && a->dr != 6) {
		err = utrace_debugreg_set(qt->e, a->dr, *a->value);
		if (!err && *a->value)
			qt->dr_set = true;
		else if (!err && a->dr == 7)
			qt->dr_set = false;	/* every one disabled */
		return err;
	}
	return a->write ? utrace_debugreg_set(qt->e, a->dr, *a->value) :
			  utrace_debugreg_get(qt->e, a->dr, a->value);
}

int utrace__q_debugreg(struct utrace_queue *uq, pid_t tid, int n,
		       uint64_t *value, bool write)
{
	struct lqueue *q = lq(uq);
	struct acc_args a = { .q = q, .tid = tid, .dr = n, .value = value,
			      .write = write };

	return utrace__call(q->t, do_debugreg, &a);
}
