// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A joiner's requests (docs/PROTOCOL.md), carried out on the connection's
 * local queue with the public queue API, answered on its output.  The
 * server thread calls these with the connection locked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "core/clock.h"
#include "share/serve.h"

/* Answer request @seq (and send the records made before it first). */
static int result(struct sconn *c, uint32_t seq, int64_t ret,
		  const void *payload, size_t plen)
{
	struct w_result r = { ret };

	/* Records made before this answer go first. */
	utrace__sconn_pump(c);
	return utrace__sconn_out(c, W_RESULT, seq, &r, sizeof(r), payload,
				 plen);
}

/* Check an all-stop a STOP request waits for; true when answered. */
/* A whole-process stop or a thread's, looked at without waiting. */
static int stop_now(struct sconn *c, pid_t pid, bool thread)
{
	return thread ? utrace_queue_stop_thread(c->q, pid, 0) :
			utrace_queue_stop(c->q, pid, 0);
}

static bool stop_try(struct sconn *c, struct pstop *s)
{
	int r = stop_now(c, s->pid, s->thread);

	if (r == -ETIMEDOUT &&
	    (s->deadline < 0 || utrace__now_ms() < s->deadline))
		return false;
	if (result(c, s->seq, r, NULL, 0))
		c->closing = true;
	return true;
}

void utrace__sconn_stops_check(struct sconn *c)
{
	struct pstop **pp = &c->stops, *s;

	while ((s = *pp)) {
		if (stop_try(c, s)) {
			*pp = s->next;
			free(s);
		} else {
			pp = &s->next;
		}
	}
}

static int req_stop(struct sconn *c, uint32_t seq, const struct w_stop *w,
		    bool thread)
{
	struct pstop *s;
	int r;

	if (w->timeout_ms < -1)
		return result(c, seq, -EINVAL, NULL, 0);
	r = stop_now(c, w->pid, thread);
	if (r != -ETIMEDOUT || w->timeout_ms == 0)
		return result(c, seq, r, NULL, 0);
	/* Answered later, from the server's loop (stops_check). */
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->seq = seq;
	s->pid = w->pid;
	s->thread = thread;
	s->deadline = w->timeout_ms < 0 ? -1 : utrace__now_ms() + w->timeout_ms;
	s->next = c->stops;
	c->stops = s;
	return 0;
}

static int req_memv(struct sconn *c, uint32_t seq, const uint8_t *body,
		    size_t len, bool write)
{
	const struct w_memv *w = (const void *)body;
	const struct w_range *rg = (const void *)(body + sizeof(*w));
	struct utrace_iov *iov;
	uint64_t total = 0;
	uint8_t *data;
	ssize_t r;
	int err;

	if (len < sizeof(*w) || w->n > W_IOV_MAX ||
	    len < sizeof(*w) + (size_t)w->n * sizeof(*rg))
		return -EPROTO;
	for (uint32_t i = 0; i < w->n; i++) {
		if (rg[i].len > W_MAX)
			return -EPROTO;
		total += rg[i].len;
	}
	if (total > W_MAX - 64)
		return -EPROTO;
	if (write && len != sizeof(*w) + w->n * sizeof(*rg) + total)
		return -EPROTO;
	if (!write && len != sizeof(*w) + w->n * sizeof(*rg))
		return -EPROTO;
	iov = calloc(w->n + 1, sizeof(*iov));
	data = write ? (uint8_t *)(rg + w->n) : malloc(total + 1);
	if (!iov || !data) {
		free(iov);
		if (!write)
			free(data);
		return -ENOMEM;
	}
	for (uint32_t i = 0, off = 0; i < w->n; i++) {
		iov[i].addr = rg[i].addr;
		iov[i].buf = data + off;
		iov[i].len = rg[i].len;
		off += rg[i].len;
	}
	r = write ? utrace_queue_mem_writev(c->q, w->tid, iov, w->n) :
		    utrace_queue_mem_readv(c->q, w->tid, iov, w->n);
	err = result(c, seq, r, data, !write && r > 0 ? (size_t)r : 0);
	free(iov);
	if (!write)
		free(data);
	return err;
}

static int req_regset(struct sconn *c, uint32_t seq, const uint8_t *body,
		      size_t len, bool write)
{
	const struct w_regset *w = (const void *)body;
	uint8_t *data;
	ssize_t r;
	int err;

	if (len < sizeof(*w) || w->zero || !w->len || w->len > W_REGSET_MAX ||
	    len != sizeof(*w) + (write ? w->len : 0))
		return -EPROTO;
	if (write)
		return result(c, seq, utrace_queue_regset_set(c->q, w->tid,
							      w->type,
							      body + sizeof(*w),
							      w->len),
			      NULL, 0);
	data = malloc(w->len);
	if (!data)
		return -ENOMEM;
	r = utrace_queue_regset_get(c->q, w->tid, w->type, data, w->len);
	err = result(c, seq, r, data, r > 0 ? (size_t)r : 0);
	free(data);
	return err;
}

/*
 * Carry out one message.  Returns 0, or a negative value to close the
 * connection (malformed, unknown, out of order, out of memory).
 */
static int handle(struct sconn *c, const struct w_hdr *h, const uint8_t *body,
		  size_t len)
{
	uint32_t seq = h->seq;

	if (!c->hello) {
		const struct w_hello *w = (const void *)body;
		struct w_hello me = { W_MAGIC, W_VERSION, W_MAX, getpid() };
		int err;

		if (h->type != W_HELLO || len != sizeof(*w) ||
		    w->magic != W_MAGIC)
			return -EPROTO;
		if (w->pid > 0) {
			/*
			 * The thread it joins for is traced, through our
			 * ptrace emulation, by a program we trace: that
			 * program is its tracer; our HELLO names it and the
			 * client goes there (remote.c).
			 */
			pid_t inner = utrace__tracer_of(c->t, w->pid);

			if (inner > 0) {
				me.pid = inner;
				utrace__sconn_out(c, W_HELLO, seq, &me,
						  sizeof(me), NULL, 0);
				utrace__sconn_flush(c, true);
				return -EXDEV;
			}
		}
		if (w->version != W_VERSION) {
			/* It sees our version, then EOF. */
			utrace__sconn_out(c, W_HELLO, seq, &me, sizeof(me),
					  NULL, 0);
			return -EPROTO;
		}
		if (utrace__joined_of(c->s, c->uid) >= JOINERS_PER_UID) {
			char why[96];

			snprintf(why, sizeof(why), "uid %u has %d joined "
				 "connections, the most one uid may have",
				 (unsigned)c->uid, JOINERS_PER_UID);
			utrace__sconn_refuse(c, EUSERS, why);
			return -EUSERS;
		}
		/* Its queue, now that it is one (a flood makes none). */
		err = utrace_queue_new(c->t, &c->q);
		if (err) {
			utrace__sconn_refuse(c, -err, "the tracer cannot "
					     "take a joiner now");
			return err;
		}
		utrace__sconn_out(c, W_HELLO, seq, &me, sizeof(me), NULL, 0);
		c->hello = true;
		return 0;
	}
	/* It waits on the tracer: the loop thread may read it (serve.c). */
	if (h->type == W_REPLY || h->type == W_STOP ||
	    h->type == W_STOP_THREAD)
		c->interactive = true;
	switch (h->type) {
	case W_WATCH: {
		const struct w_watch *w = (const void *)body;
		int r;

		if (len != sizeof(*w))
			return -EPROTO;
		r = utrace__may_trace_all(c, w->tid, w->flags);
		if (!r)
			r = utrace_queue_watch(c->q, w->tid, w->flags,
					       (unsigned long)w->events,
					       (unsigned long)w->hold);
		return result(c, seq, r, NULL, 0);
	}
	case W_UNWATCH: {
		const struct w_watch *w = (const void *)body;

		if (len != sizeof(*w))
			return -EPROTO;
		return result(c, seq, utrace_queue_unwatch(c->q, w->tid,
							   w->flags), NULL, 0);
	}
	case W_SET_SYSCALLS: {
		const struct w_syscalls *w = (const void *)body;
		const int64_t *nr = (const void *)(body + sizeof(*w));
		long *nrs;
		int r;

		if (len < sizeof(*w) || w->n > UTRACE__SYSSET_BITS ||
		    len != sizeof(*w) + (size_t)w->n * sizeof(int64_t) ||
		    (w->all && w->n))
			return -EPROTO;
		nrs = malloc((w->n + 1) * sizeof(long));
		if (!nrs)
			return -ENOMEM;
		for (uint32_t i = 0; i < w->n; i++)
			nrs[i] = (long)nr[i];
		r = utrace_queue_set_syscalls(c->q, w->tid,
					      w->all ? NULL : nrs, w->n);
		free(nrs);
		return result(c, seq, r, NULL, 0);
	}
	case W_REPLY: {
		const struct w_reply *w = (const void *)body;
		struct utrace_reply r;

		if (len != sizeof(*w))
			return -EPROTO;
		memset(&r, 0, sizeof(r));
		r.size = sizeof(r);
		r.action = w->action;
		r.flags = w->flags;
		r.ret = (long)w->ret;
		for (int i = 0; i < 6; i++)
			r.args[i] = (unsigned long)w->args[i];
		memcpy(&r.info, w->info, sizeof(r.info));
		return result(c, seq, utrace_queue_reply(c->q, w->id, &r),
			      NULL, 0);
	}
	case W_STOP:
		if (len != sizeof(struct w_stop))
			return -EPROTO;
		return req_stop(c, seq, (const void *)body, false);
	case W_RESUME: {
		const struct w_stop *w = (const void *)body;

		if (len != sizeof(*w))
			return -EPROTO;
		return result(c, seq, utrace_queue_resume(c->q, w->pid),
			      NULL, 0);
	}
	case W_REGS_GET: {
		const struct w_regs *w = (const void *)body;
		struct user_regs_struct regs;
		int r;

		if (len != sizeof(*w) || w->size != sizeof(regs))
			return -EPROTO;
		r = utrace_queue_regs_get(c->q, w->tid, &regs);
		return result(c, seq, r, &regs, r ? 0 : sizeof(regs));
	}
	case W_REGS_SET: {
		const struct w_regs *w = (const void *)body;
		struct user_regs_struct regs;

		if (len != sizeof(*w) + sizeof(regs) ||
		    w->size != sizeof(regs))
			return -EPROTO;
		memcpy(&regs, body + sizeof(*w), sizeof(regs));
		return result(c, seq, utrace_queue_regs_set(c->q, w->tid,
							    &regs), NULL, 0);
	}
	case W_MEM_READV:
	case W_MEM_WRITEV:
		return req_memv(c, seq, body, len, h->type == W_MEM_WRITEV);
	case W_REGSET_GET:
	case W_REGSET_SET:
		return req_regset(c, seq, body, len,
				  h->type == W_REGSET_SET);
	case W_DEBUGREG_GET: {
		const struct w_debugreg *w = (const void *)body;
		uint64_t v = 0;
		int r;

		if (len != sizeof(*w))
			return -EPROTO;
		r = utrace_queue_debugreg_get(c->q, w->tid, w->n, &v);
		return result(c, seq, r, &v, r ? 0 : sizeof(v));
	}
	case W_DEBUGREG_SET: {
		const struct w_debugreg *w = (const void *)body;

		if (len != sizeof(*w))
			return -EPROTO;
		return result(c, seq, utrace_queue_debugreg_set(c->q, w->tid,
								w->n,
								w->value),
			      NULL, 0);
	}
	case W_STOP_THREAD:
		if (len != sizeof(struct w_stop))
			return -EPROTO;
		return req_stop(c, seq, (const void *)body, true);
	case W_RESUME_THREAD: {
		const struct w_rthread *w = (const void *)body;

		if (len != sizeof(*w))
			return -EPROTO;
		return result(c, seq, utrace_queue_resume_thread(c->q, w->tid,
								 w->action),
			      NULL, 0);
	}
	default:
		return -EPROTO;
	}
}

/* Read what is there and carry out every whole message. */
void utrace__sconn_input(struct sconn *c)
{
	for (;;) {
		struct w_hdr h = { 0 };
		size_t want = sizeof(h);
		ssize_t n;

		if (c->inlen >= sizeof(h)) {
			memcpy(&h, c->in, sizeof(h));
			if (h.len < sizeof(h) || h.len > W_MAX || h.zero ||
			    h.type == 0 || h.type >= W_TYPE_MAX) {
				c->closing = true;
				return;
			}
			want = h.len;
		}
		if (c->inlen == want && want == sizeof(h) &&
		    c->inlen >= sizeof(h) && h.len == sizeof(h)) {
			c->closing = true;	/* no message has an empty body */
			return;
		}
		if (c->inlen == want && want > sizeof(h)) {
			/* whole: body is aligned (the buffer is malloc'd) */
			uint8_t *body = malloc(want - sizeof(h) + 1);

			if (!body) {
				c->closing = true;
				return;
			}
			memcpy(body, c->in + sizeof(h), want - sizeof(h));
			c->inlen = 0;
			if (c->incap > 65536) {	/* a big one is done */
				free(c->in);
				c->in = NULL;
				c->incap = 0;
			}
			if (handle(c, &h, body, want - sizeof(h)))
				c->closing = true;
			free(body);
			if (c->closing)
				return;
			continue;
		}
		if (want > c->incap) {
			size_t cap = c->incap ? c->incap : 256;
			uint8_t *p;

			while (cap < want)
				cap *= 2;
			p = realloc(c->in, cap);
			if (!p) {
				c->closing = true;
				return;
			}
			c->in = p;
			c->incap = cap;
		}
		n = recv(c->fd, c->in + c->inlen, want - c->inlen,
			 MSG_DONTWAIT);
		if (n == 0) {
			c->closing = true;
			return;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				c->closing = true;
			return;
		}
		c->inlen += n;
	}
}

