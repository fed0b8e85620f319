// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The joined backend of the queue interface (queue/backend.h): a connected
 * queue.  utrace_queue_connect finds the serving tracer of a thread and
 * every utrace_queue_* call on the queue it returns is carried there over
 * the socket (docs/PROTOCOL.md).
 *
 * Any thread of the joiner may call.  Requests are written whole under
 * c->lock; one caller at a time reads the socket (c->reading) and files
 * what comes: records into a FIFO, answers by request number.  Others wait
 * on c->cond for the reader to file what they wait for.  utrace_queue_fd is
 * an epoll descriptor over the socket and an eventfd that is set while
 * records that were already read wait in the FIFO.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "core/clock.h"
#include "core/layer.h"
#include "core/proc.h"
#include "queue/backend.h"
#include "share/share.h"
#include "share/wire.h"

struct rrec {
	struct rrec *next;
	struct utrace_event ev;
};

struct rres {
	struct rres *next;
	uint32_t seq;
	int64_t ret;
	size_t plen;
	uint8_t payload[];
};

/* A joined queue: the connection is the queue. */
struct utrace__conn {
	struct utrace_queue q;		/* first: the interface */
	int fd, efd, epfd;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool reading, eof;
	bool efd_set;		/* efd says records wait in the FIFO */
	uint32_t seq;
	uint8_t *in;
	size_t inlen, incap;
	struct rrec *head, *tail;
	struct rres *results;
};

static inline struct utrace__conn *conn_of(struct utrace_queue *q)
{
	return (struct utrace__conn *)q;
}

/* -- Reading (under c->lock) -------------------------------------------- */

static void get_event(struct utrace_event *ev, const struct w_event *w)
{
	memset(ev, 0, sizeof(*ev));
	ev->size = sizeof(*ev);
	ev->id = w->id;
	ev->tid = w->tid;
	ev->pid = w->pid;
	ev->type = (unsigned long)w->type;
	ev->held = w->held;
	ev->action = w->action;
	ev->syscall.nr = (long)w->nr;
	for (int i = 0; i < 6; i++)
		ev->syscall.args[i] = (unsigned long)w->args[i];
	ev->syscall.ret = (long)w->ret;
	ev->syscall.arch = w->arch;
	ev->syscall.ip = w->ip;
	ev->syscall.sp = w->sp;
	memcpy(&ev->info, w->info, sizeof(ev->info));
	ev->clone_flags = (unsigned long)w->clone_flags;
	ev->child = w->child;
	ev->former_tid = w->former_tid;
	ev->status = w->status;
	ev->group_dead = w->group_dead;
	ev->jctl_type = w->jctl_type;
	ev->time.tv_sec = (time_t)w->sec;
	ev->time.tv_nsec = (long)w->nsec;
}

/* File one whole message; false: the server broke the protocol. */
static bool file_msg(struct utrace__conn *c, const struct w_hdr *h,
		     const uint8_t *body, size_t len)
{
	if (h->type == W_EVENT) {
		struct w_event w;
		struct rrec *r;

		if (len != sizeof(w))
			return false;
		r = malloc(sizeof(*r));
		if (!r)
			return false;
		memcpy(&w, body, sizeof(w));
		get_event(&r->ev, &w);
		r->next = NULL;
		if (c->tail)
			c->tail->next = r;
		else
			c->head = r;
		c->tail = r;
		return true;
	}
	if (h->type == W_RESULT) {
		struct rres *r;

		if (len < sizeof(struct w_result))
			return false;
		r = malloc(sizeof(*r) + len);
		if (!r)
			return false;
		r->seq = h->seq;
		memcpy(&r->ret, body, sizeof(r->ret));
		r->plen = len - sizeof(struct w_result);
		memcpy(r->payload, body + sizeof(struct w_result), r->plen);
		r->next = c->results;
		c->results = r;
		return true;
	}
	return false;
}

/*
 * Make the eventfd tell whether records wait in the FIFO, before c->lock
 * is let go for anyone else to see them.  Done lazily, not per record: a
 * consumer that takes each record as it comes never writes the eventfd.
 */
static void efd_sync(struct utrace__conn *c)
{
	uint64_t v = 1;

	if (!c->head == !c->efd_set)
		return;
	if (c->head) {
		if (write(c->efd, &v, sizeof(v)) < 0)
			(void)0;
	} else if (read(c->efd, &v, sizeof(v)) < 0) {
		(void)0;
	}
	c->efd_set = c->head != NULL;
}

/* Read what the socket has without blocking (in bulk), and file it. */
static void take_input(struct utrace__conn *c)
{
	while (!c->eof) {
		size_t off = 0, need = 65536;
		ssize_t n;

		/* Every whole message in the buffer. */
		while (c->inlen - off >= sizeof(struct w_hdr)) {
			struct w_hdr h;

			memcpy(&h, c->in + off, sizeof(h));
			if (h.len < sizeof(h) || h.len > W_MAX) {
				c->eof = true;
				break;
			}
			if (c->inlen - off < h.len) {
				if (h.len > need)
					need = h.len;
				break;
			}
			if (!file_msg(c, &h, c->in + off + sizeof(h),
				      h.len - sizeof(h))) {
				c->eof = true;
				break;
			}
			off += h.len;
		}
		if (off) {
			memmove(c->in, c->in + off, c->inlen - off);
			c->inlen -= off;
		}
		if (c->eof)
			break;
		if (need > c->incap || c->inlen == c->incap) {
			size_t cap = c->incap ? c->incap : 65536;
			uint8_t *p;

			while (cap < need || cap <= c->inlen)
				cap *= 2;
			p = realloc(c->in, cap);
			if (!p) {
				c->eof = true;
				break;
			}
			c->in = p;
			c->incap = cap;
		}
		n = recv(c->fd, c->in + c->inlen, c->incap - c->inlen,
			 MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			c->eof = true;
			break;
		}
		c->inlen += n;
	}
	pthread_cond_broadcast(&c->cond);
}

/*
 * Wait (under c->lock) until @ready(c, arg) holds, the connection ends, or
 * @timeout_ms passes.  Returns 1, -ENOTCONN or 0.
 */
static int wait_for(struct utrace__conn *c,
		    bool (*ready)(struct utrace__conn *c, void *arg),
		    void *arg, int timeout_ms)
{
	long deadline = utrace__now_ms() + timeout_ms;

	for (;;) {
		int left = -1;

		if (ready(c, arg))
			return 1;
		if (c->eof)
			return -ENOTCONN;
		if (timeout_ms >= 0) {
			left = (int)(deadline - utrace__now_ms());
			if (left < 0)
				left = 0;
		}
		if (!c->reading) {
			struct pollfd p = { .fd = c->fd, .events = POLLIN };
			int r;

			c->reading = true;
			efd_sync(c);
			pthread_mutex_unlock(&c->lock);
			r = poll(&p, 1, left);
			pthread_mutex_lock(&c->lock);
			c->reading = false;
			if (r > 0)
				take_input(c);
			else
				pthread_cond_broadcast(&c->cond);
			if (r == 0 && ready(c, arg))
				return 1;
			if (r == 0)
				return 0;
		} else if (left < 0) {
			efd_sync(c);
			pthread_cond_wait(&c->cond, &c->lock);
		} else {
			struct timespec ts;

			efd_sync(c);
			utrace__deadline(&ts, CLOCK_REALTIME, left);
			if (pthread_cond_timedwait(&c->cond, &c->lock, &ts) &&
			    !ready(c, arg))
				return 0;
		}
	}
}

/* -- Requests ----------------------------------------------------------- */

static bool has_result(struct utrace__conn *c, void *arg)
{
	uint32_t seq = *(uint32_t *)arg;

	for (struct rres *r = c->results; r; r = r->next)
		if (r->seq == seq)
			return true;
	return false;
}

static struct rres *take_result(struct utrace__conn *c, uint32_t seq)
{
	for (struct rres **pp = &c->results; *pp; pp = &(*pp)->next) {
		if ((*pp)->seq == seq) {
			struct rres *r = *pp;

			*pp = r->next;
			return r;
		}
	}
	return NULL;
}

static int send_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -ENOTCONN;
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * Send one request (@a then @b as its body) and wait for its answer; the
 * answer's payload goes to @out (at most @outlen bytes, *@got set).
 */
static int64_t call(struct utrace__conn *c, uint16_t type, const void *a,
		    size_t alen, const void *b, size_t blen, void *out,
		    size_t outlen, size_t *got)
{
	struct w_hdr h = { (uint32_t)(sizeof(h) + alen + blen), type, 0, 0 };
	struct rres *r;
	int64_t ret;
	int err;

	if (h.len > W_MAX)
		return -E2BIG;
	pthread_mutex_lock(&c->lock);
	if (c->eof) {
		pthread_mutex_unlock(&c->lock);
		return -ENOTCONN;
	}
	h.seq = ++c->seq;
	if (!h.seq)
		h.seq = ++c->seq;
	err = send_all(c->fd, &h, sizeof(h));
	if (!err && alen)
		err = send_all(c->fd, a, alen);
	if (!err && blen)
		err = send_all(c->fd, b, blen);
	if (err) {
		c->eof = true;
		pthread_cond_broadcast(&c->cond);
		pthread_mutex_unlock(&c->lock);
		return err;
	}
	err = wait_for(c, has_result, &h.seq, -1);
	efd_sync(c);
	if (err != 1) {
		pthread_mutex_unlock(&c->lock);
		return err ? err : -ENOTCONN;
	}
	r = take_result(c, h.seq);
	pthread_mutex_unlock(&c->lock);
	ret = r->ret;
	if (got)
		*got = r->plen < outlen ? r->plen : outlen;
	if (out && r->plen)
		memcpy(out, r->payload, r->plen < outlen ? r->plen : outlen);
	free(r);
	return ret;
}

static int rq_watch(struct utrace_queue *uq, pid_t tid, unsigned flags,
		    unsigned long events, unsigned long hold)
{
	struct utrace__conn *c = conn_of(uq);
	struct w_watch w = { tid, flags, events, hold };

	return (int)call(c, W_WATCH, &w, sizeof(w), NULL, 0, NULL, 0, NULL);
}

static int rq_unwatch(struct utrace_queue *uq, pid_t tid, unsigned flags)
{
	struct utrace__conn *c = conn_of(uq);
	struct w_watch w = { tid, flags, 0, 0 };

	return (int)call(c, W_UNWATCH, &w, sizeof(w), NULL, 0, NULL, 0, NULL);
}

static int rq_set_syscalls(struct utrace_queue *uq, pid_t tid,
			   const long *nrs, size_t n)
{
	struct utrace__conn *c = conn_of(uq);
	struct w_syscalls w = { tid, !nrs, (uint32_t)n, 0 };
	int64_t *v;
	int ret;

	if (n > UTRACE__SYSSET_BITS)
		return -EINVAL;	/* the most a message carries */
	v = malloc((n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		v[i] = nrs[i];
	ret = (int)call(c, W_SET_SYSCALLS, &w, sizeof(w), v, n * sizeof(*v),
			NULL, 0, NULL);
	free(v);
	return ret;
}

static int rq_reply(struct utrace_queue *uq, uint64_t id,
		    const struct utrace_reply *r)
{
	struct utrace__conn *c = conn_of(uq);
	struct w_reply w;

	memset(&w, 0, sizeof(w));
	w.id = id;
	w.action = r->action;
	w.flags = r->flags;
	w.ret = r->ret;
	for (int i = 0; i < 6; i++)
		w.args[i] = r->args[i];
	memcpy(w.info, &r->info, sizeof(w.info));
	return (int)call(c, W_REPLY, &w, sizeof(w), NULL, 0, NULL, 0, NULL);
}

static int rq_stop(struct utrace_queue *uq, pid_t pid, int timeout_ms)
{
	struct utrace__conn *c = conn_of(uq);
	struct w_stop w = { pid, timeout_ms };

	return (int)call(c, W_STOP, &w, sizeof(w), NULL, 0, NULL, 0, NULL);
}

static int rq_resume(struct utrace_queue *uq, pid_t pid)
{
	struct utrace__conn *c = conn_of(uq);
	struct w_stop w = { pid, 0 };

	return (int)call(c, W_RESUME, &w, sizeof(w), NULL, 0, NULL, 0, NULL);
}

static int rq_regs(struct utrace_queue *uq, pid_t tid,
		   struct user_regs_struct *out,
		   const struct user_regs_struct *in)
{
	struct utrace__conn *c = conn_of(uq);
	struct w_regs w = { tid, sizeof(*out) };
	size_t got = 0;
	int ret;

	if (in)
		return (int)call(c, W_REGS_SET, &w, sizeof(w), in, sizeof(*in),
				 NULL, 0, NULL);
	ret = (int)call(c, W_REGS_GET, &w, sizeof(w), NULL, 0, out,
			sizeof(*out), &got);
	if (ret == 0 && got != sizeof(*out))
		return -EPROTO;
	return ret;
}

/*
 * A register set is far below the message size; a longer buffer is cut to
 * W_REGSET_MAX, as the kernel cuts one longer than the set.
 */
static ssize_t rq_regset(struct utrace_queue *uq, pid_t tid,
			 unsigned int type, void *buf, size_t len,
			 bool write)
{
	struct utrace__conn *c = conn_of(uq);
	struct w_regset w = { tid, type, 0, 0 };
	size_t got = 0;
	int64_t ret;

	if (len > W_REGSET_MAX)
		len = W_REGSET_MAX;
	w.len = (uint32_t)len;
	if (write)
		return (ssize_t)call(c, W_REGSET_SET, &w, sizeof(w), buf, len,
				     NULL, 0, NULL);
	ret = call(c, W_REGSET_GET, &w, sizeof(w), NULL, 0, buf, len, &got);
	if (ret > 0 && (size_t)ret != got)
		return -EPROTO;
	return (ssize_t)ret;
}

static int rq_debugreg(struct utrace_queue *uq, pid_t tid, int n,
		       uint64_t *value, bool write)
{
	struct utrace__conn *c = conn_of(uq);
	struct w_debugreg w = { tid, n, write ? *value : 0 };
	uint64_t v = 0;
	size_t got = 0;
	int ret;

	if (write)
		return (int)call(c, W_DEBUGREG_SET, &w, sizeof(w), NULL, 0,
				 NULL, 0, NULL);
	ret = (int)call(c, W_DEBUGREG_GET, &w, sizeof(w), NULL, 0, &v,
			sizeof(v), &got);
	if (ret == 0 && got != sizeof(v))
		return -EPROTO;
	if (ret == 0)
		*value = v;
	return ret;
}

static int rq_resume_thread(struct utrace_queue *uq, pid_t tid,
			    uint32_t action)
{
	struct utrace__conn *c = conn_of(uq);
	struct w_rthread w = { tid, action };

	return (int)call(c, W_RESUME_THREAD, &w, sizeof(w), NULL, 0, NULL, 0,
			 NULL);
}

static int rq_stop_thread(struct utrace_queue *uq, pid_t tid, int timeout_ms)
{
	struct utrace__conn *c = conn_of(uq);
	struct w_stop w = { tid, timeout_ms };

	return (int)call(c, W_STOP_THREAD, &w, sizeof(w), NULL, 0, NULL, 0,
			 NULL);
}

/* One request: at most W_IOV_MAX ranges and W_CHUNK bytes. */
static ssize_t memv_one(struct utrace__conn *c, pid_t tid,
			const struct utrace_iov *iov, size_t n, bool write)
{
	struct w_memv w = { tid, (uint32_t)n };
	struct w_range *rg;
	uint8_t *msg, *data;
	size_t total = 0, got = 0, off = 0;
	ssize_t ret;

	for (size_t i = 0; i < n; i++)
		total += iov[i].len;
	msg = malloc(n * sizeof(*rg) + (write ? total : 0) + 1);
	data = write ? NULL : malloc(total + 1);
	if (!msg || (!write && !data)) {
		free(msg);
		free(data);
		return -ENOMEM;
	}
	rg = (struct w_range *)msg;
	for (size_t i = 0; i < n; i++) {
		rg[i].addr = iov[i].addr;
		rg[i].len = iov[i].len;
		if (write)
			memcpy(msg + n * sizeof(*rg) + off, iov[i].buf,
			       iov[i].len);
		off += iov[i].len;
	}
	ret = (ssize_t)call(c, write ? W_MEM_WRITEV : W_MEM_READV, &w,
			    sizeof(w), msg, n * sizeof(*rg) +
			    (write ? total : 0), data, total, &got);
	if (!write && ret > 0) {
		/* The bytes of the ranges, in order, up to the count. */
		size_t left = (size_t)ret < got ? (size_t)ret : got;

		off = 0;
		for (size_t i = 0; i < n && left; i++) {
			size_t k = iov[i].len < left ? iov[i].len : left;

			memcpy(iov[i].buf, data + off, k);
			off += k;
			left -= k;
		}
	}
	free(msg);
	free(data);
	return ret;
}

/*
 * Any number of ranges of any size: as many requests as the protocol's
 * message size needs (a large range is cut in pieces), counted as one
 * call.  The count ends at the first range, or piece, not moved whole.
 */
static ssize_t rq_memv(struct utrace_queue *uq, pid_t tid,
		       const struct utrace_iov *iov, size_t n, bool write)
{
	struct utrace__conn *c = conn_of(uq);
	struct utrace_iov *part;
	size_t i = 0, done = 0;	/* iov[i], from byte done of it */
	ssize_t total = 0;

	if (!n)
		return memv_one(c, tid, iov, 0, write);
	part = malloc(W_IOV_MAX * sizeof(*part));
	if (!part)
		return -ENOMEM;
	while (i < n) {
		size_t np = 0, bytes = 0;
		ssize_t r;

		while (i < n && np < W_IOV_MAX && bytes < W_CHUNK) {
			size_t len = iov[i].len - done;

			if (len > W_CHUNK - bytes)
				len = W_CHUNK - bytes;
			part[np].addr = iov[i].addr + done;
			part[np].buf = (uint8_t *)iov[i].buf + done;
			part[np].len = len;
			np++;
			bytes += len;
			done += len;
			if (done == iov[i].len) {
				i++;
				done = 0;
			}
		}
		r = memv_one(c, tid, part, np, write);
		if (r < 0) {
			if (!total)
				total = r;
			break;
		}
		total += r;
		if ((size_t)r < bytes)
			break;
	}
	free(part);
	return total;
}

/* -- Records ------------------------------------------------------------ */

static bool has_record(struct utrace__conn *c, void *arg)
{
	return c->head != NULL;
}

static int rq_next(struct utrace_queue *uq, struct utrace_event *ev,
		   int timeout_ms)
{
	struct utrace__conn *c = conn_of(uq);
	struct rrec *r;
	int err;

	pthread_mutex_lock(&c->lock);
	/* Take what already came before deciding there is nothing. */
	if (!c->head && !c->reading)
		take_input(c);
	err = wait_for(c, has_record, NULL, timeout_ms);
	if (err != 1) {
		efd_sync(c);
		pthread_mutex_unlock(&c->lock);
		return err;
	}
	r = c->head;
	c->head = r->next;
	if (!c->head)
		c->tail = NULL;
	efd_sync(c);
	pthread_mutex_unlock(&c->lock);
	memcpy(ev, &r->ev, sizeof(*ev));
	free(r);
	return 1;
}

static int rq_fd(struct utrace_queue *uq)
{
	struct utrace__conn *c = conn_of(uq);

	return c->epfd;
}

static void conn_free(struct utrace__conn *c)
{
	shutdown(c->fd, SHUT_RDWR);
	close(c->fd);
	if (c->efd >= 0)
		close(c->efd);
	if (c->epfd >= 0)
		close(c->epfd);
	while (c->head) {
		struct rrec *r = c->head;

		c->head = r->next;
		free(r);
	}
	while (c->results) {
		struct rres *r = c->results;

		c->results = r->next;
		free(r);
	}
	free(c->in);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->cond);
	free(c);
}

static void rq_free(struct utrace_queue *uq)
{
	conn_free(conn_of(uq));
}

static const struct utrace__queue_ops joined_ops = {
	.watch = rq_watch,
	.unwatch = rq_unwatch,
	.set_syscalls = rq_set_syscalls,
	.next = rq_next,
	.reply = rq_reply,
	.stop = rq_stop,
	.resume = rq_resume,
	.resume_thread = rq_resume_thread,
	.stop_thread = rq_stop_thread,
	.regs = rq_regs,
	.memv = rq_memv,
	.regset = rq_regset,
	.debugreg = rq_debugreg,
	.fd = rq_fd,
	.free = rq_free,
};

/* -- Connecting --------------------------------------------------------- */

/* Read exactly @len bytes of the handshake by @deadline (ms): 0 or -errno. */
static int recv_all(int fd, void *buf, size_t len, long deadline)
{
	size_t got = 0;

	while (got < len) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long left = deadline - utrace__now_ms();
		ssize_t n;

		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)left) < 0 && errno != EINTR)
			return -ECONNREFUSED;
		n = recv(fd, (uint8_t *)buf + got, len - got, MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return -ECONNREFUSED;
		got += n;
	}
	return 0;
}

/*
 * The handshake: our HELLO (naming the thread we join for), then the
 * server's, or its REFUSED (why it turns us away: its errno).  Returns 0,
 * a negative errno, or the pid of the tracer to join instead: the one
 * that traces @tid through the server's ptrace emulation.
 */
static int hello(struct utrace__conn *c, pid_t server, pid_t tid)
{
	struct w_hello me = { W_MAGIC, W_VERSION, W_MAX, tid };
	union {
		struct w_hello w;
		struct w_refused r;
		uint8_t b[sizeof(struct w_refused) + W_REFUSED_TEXT];
	} m;
	struct w_hdr h = { sizeof(h) + sizeof(me), W_HELLO, 0, 0 };
	/* A serving tracer answers at once; 10 s is a dead one. */
	long deadline = utrace__now_ms() + 10000;
	int err;

	if (send_all(c->fd, &h, sizeof(h)) || send_all(c->fd, &me, sizeof(me)))
		return -ECONNREFUSED;
	err = recv_all(c->fd, &h, sizeof(h), deadline);
	if (err)
		return err;
	if (h.len < sizeof(h) || h.len - sizeof(h) > sizeof(m))
		return -ECONNREFUSED;
	err = recv_all(c->fd, &m, h.len - sizeof(h), deadline);
	if (err)
		return err;
	if (h.type == W_REFUSED && h.len >= sizeof(h) + sizeof(m.r) &&
	    m.r.err > 0 && m.r.err < 4096)
		return -m.r.err;
	if (h.type != W_HELLO || h.len != sizeof(h) + sizeof(m.w) ||
	    m.w.magic != W_MAGIC || m.w.pid <= 0)
		return -ECONNREFUSED;
	if (m.w.version != W_VERSION)
		return -EPROTO;
	return m.w.pid == server ? 0 : m.w.pid;
}

static int connect_to(pid_t server, uid_t uid, int *out)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[64];
	struct ucred cr;
	socklen_t len = sizeof(cr);
	int fd = -1, err;

	utrace__serve_dir(uid, dir, sizeof(dir));
	err = utrace__serve_dir_ok(dir, uid);
	if (err == -EACCES)
		return -EPERM;
	if (err)
		return -ECONNREFUSED;	/* none, or not the tracer's own */
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%d.sock", dir,
		 (int)server);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = errno == EACCES || errno == EPERM ? -EPERM :
		      -ECONNREFUSED;
		close(fd);
		return err;
	}
	/* The one listening must be the tracer itself. */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0 ||
	    cr.pid != server || cr.uid != uid) {
		close(fd);
		return -ECONNREFUSED;
	}
	*out = fd;
	return 0;
}

/* Connect to tracer @tracer and say hello: 0, -errno, or a redirect. */
static int join_one(pid_t tracer, pid_t tid, struct utrace__conn **out)
{
	char buf[4096];
	const char *v;
	uid_t uid;
	struct utrace__conn *c;
	struct epoll_event ee = { .events = EPOLLIN };
	int fd = -1, err;

	if (!utrace__proc_status(tracer, buf, sizeof(buf)) ||
	    !(v = utrace__proc_field(buf, "Uid")))
		return -ECONNREFUSED;
	/* The socket is the tracer's effective uid's: Uid: real effective */
	strtoul(v, (char **)&v, 10);
	uid = (uid_t)strtoul(v, NULL, 10);
	err = connect_to(tracer, uid, &fd);
	if (err)
		return err;
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return -ENOMEM;
	}
	c->q.ops = &joined_ops;
	c->fd = fd;
	c->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	c->epfd = epoll_create1(EPOLL_CLOEXEC);
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->cond, NULL);
	err = c->efd < 0 || c->epfd < 0 ? -EMFILE : 0;
	if (!err) {
		ee.data.fd = c->fd;
		if (epoll_ctl(c->epfd, EPOLL_CTL_ADD, c->fd, &ee) < 0)
			err = -errno;
		ee.data.fd = c->efd;
		if (!err && epoll_ctl(c->epfd, EPOLL_CTL_ADD, c->efd, &ee) < 0)
			err = -errno;
	}
	if (!err)
		err = hello(c, tracer, tid);
	if (err) {
		conn_free(c);
		return err;
	}
	*out = c;
	return 0;
}

/**
 * utrace_queue_connect - join the serving tracer that traces @tid
 * Returns 0 with a queue in *@out, -EINVAL, -ESRCH (no such thread),
 * -ECONNREFUSED (not traced, or traced by something that does not serve),
 * -EPERM (its socket is not ours to reach), -EPROTO (another protocol
 * version), -ETIMEDOUT, -ENOMEM.  See utrace_queue_connect(3).
 */
UTRACE_EXPORT int utrace_queue_connect(pid_t tid, struct utrace_queue **out)
{
	pid_t tracer;
	struct utrace__conn *c = NULL;
	int err = -ECONNREFUSED;

	if (tid <= 0 || !out)
		return -EINVAL;
	tracer = utrace__proc_tracer(tid);
	if (tracer < 0)
		return -ESRCH;
	if (tracer == 0)
		return -ECONNREFUSED;
	/*
	 * TracerPid is the kernel's tracer; a program it traces may trace
	 * @tid through its ptrace emulation (utrace(7)), and that server
	 * names the program instead: a few hops for tracers in tracers.
	 */
	for (int hop = 0; hop < 8; hop++) {
		err = join_one(tracer, tid, &c);
		if (err <= 0)
			break;
		tracer = err;
		err = -ECONNREFUSED;
	}
	if (err)
		return err;
	*out = &c->q;
	return 0;
}
