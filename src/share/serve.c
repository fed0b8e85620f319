// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A serving tracer (utrace(7), "Several programs on one process"): other
 * programs join it over a Unix socket and watch its threads with the
 * queued-event API (docs/PROTOCOL.md).
 *
 * Who serves: one server thread per serving tracer.  It accepts joiners,
 * reads their requests and carries each out on a local queue of its own per
 * joiner (utrace_queue_*, which carry the work to the loop thread), and
 * forwards that queue's records.  So a joiner's watches are ordinary
 * engines among the local ones, attached when its request arrives, and the
 * server thread never runs the loop: the application keeps dispatching as
 * it always does (utrace_run, utrace_dispatch, or utrace_queue_next on the
 * loop thread).  Sockets are non-blocking: a joiner that does not read
 * stops getting records (its local queue fills up and back-pressure holds
 * the threads it watches), never anyone else.
 *
 * Anything the server does not understand closes that connection, and its
 * local queue is freed: every thread the joiner held runs on.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>

#include "core/clock.h"
#include "core/layer.h"
#include "core/proc.h"
#include "share/share.h"
#include "share/wire.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

#define OUT_HIGH	(256u << 10)	/* stop taking records above this */
#define MAX_JOINERS	1024		/* accept no more until some leave */
#define COALESCE_MS	1		/* records gather this long per send */
#define CAP_SYS_PTRACE_BIT 19

struct pstop {
	struct pstop *next;
	uint32_t seq;
	pid_t pid;
	long deadline;		/* CLOCK_MONOTONIC ms; -1: none */
};

struct sconn {
	struct sconn *next;
	/*
	 * The output (out*, sending on fd): the server thread holds it while
	 * it works on the connection; the loop thread only tries it.
	 */
	pthread_mutex_t lock;
	atomic_bool kick;		/* the loop could not send: do it */
	int fd;
	struct utrace_tracer *t;
	struct utrace_queue *q;
	pid_t pid;
	uid_t uid;
	gid_t gid;
	bool cap_ptrace;
	bool hello;
	atomic_bool closing;
	uint8_t *in;
	size_t inlen, incap;
	uint8_t *out;
	size_t outlen, outoff, outcap;
	bool more;			/* pump stopped at OUT_HIGH: records wait */
	struct pstop *stops;
};

struct utrace__server {
	struct utrace_tracer *t;
	int lfd, wfd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	pthread_t th;
	atomic_bool stop;
	pthread_mutex_t lock;		/* conns: the server adds and removes */
	struct sconn *conns;
	atomic_uint nconns;
	atomic_bool urgent;		/* a kick that must not wait */
};

/*
 * The sharing layer's state on a tracer (its hooks' data), registered by
 * the first utrace_tracer_serve: the server while it serves.
 */
struct share_layer {
	struct utrace__server *_Atomic server;
};

static const struct utrace__layer share_layer_ops;

static struct utrace__server *server_of(struct utrace_tracer *t)
{
	struct share_layer *sl = utrace__layer_data(t, &share_layer_ops);

	return sl ? atomic_load(&sl->server) : NULL;
}

/* -- Where the socket lives ---------------------------------------------- */

/**
 * utrace__serve_dir - the directory of the sockets of tracers run by @uid
 * root: /run/utrace; others: /tmp/utrace-UID.  Mode 0700, owned by @uid.
 */
void utrace__serve_dir(uid_t uid, char *buf, size_t size)
{
	if (uid == 0)
		snprintf(buf, size, "/run/utrace");
	else
		snprintf(buf, size, "/tmp/utrace-%u", (unsigned)uid);
}

/* Is @dir a real directory owned by @uid that no one else may enter? */
int utrace__serve_dir_ok(const char *dir, uid_t uid)
{
	struct stat st;

	if (lstat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != uid ||
	    (st.st_mode & 077))
		return -EPERM;
	return 0;
}

/* Remove the sockets of tracers that are gone (killed ones leave theirs). */
static void sweep(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[160], *end;
		long pid = strtol(e->d_name, &end, 10);

		if (pid <= 0 || strcmp(end, ".sock"))
			continue;
		snprintf(path, sizeof(path), "/proc/%ld", pid);
		if (access(path, F_OK) == 0 || errno != ENOENT)
			continue;
		snprintf(path, sizeof(path), "%s/%ld.sock", dir, pid);
		unlink(path);
	}
	closedir(d);
}

static int make_dir(const char *dir)
{
	uid_t uid = geteuid();

	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	return utrace__serve_dir_ok(dir, uid);
}

/* -- Credentials -------------------------------------------------------- */

static bool cap_ptrace_of(const char *status)
{
	const char *v = utrace__proc_field(status, "CapEff");

	return v && (strtoull(v, NULL, 16) >> CAP_SYS_PTRACE_BIT) & 1;
}

/* The pid a pidfd refers to, -1 once that process is gone. */
static pid_t pidfd_pid(int pidfd)
{
	char path[64], buf[1024];
	const char *v;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	v = utrace__proc_field(buf, "Pid");
	return v ? atoi(v) : -1;
}

/* The peer's credentials, from the kernel (never from what it says). */
static int peer_creds(struct sconn *c)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);
	char buf[4096];
	int pidfd = -1;

	if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0)
		return -errno;
	c->pid = cr.pid;
	c->uid = cr.uid;
	c->gid = cr.gid;
	/*
	 * CAP_SYS_PTRACE from /proc/PID/status; with a pidfd (Linux 6.5)
	 * we know afterwards that PID was still the peer when we read it.
	 */
	len = sizeof(pidfd);
	if (getsockopt(c->fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &len) < 0)
		pidfd = -1;
	if (utrace__proc_status(c->pid, buf, sizeof(buf)))
		c->cap_ptrace = cap_ptrace_of(buf);
	if (pidfd >= 0) {
		if (pidfd_pid(pidfd) != c->pid)
			c->cap_ptrace = false;	/* gone: PID may be another */
		close(pidfd);
	}
	return 0;
}

static int yama_scope(void)
{
	char b[16] = "";
	int fd = open("/proc/sys/kernel/yama/ptrace_scope", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	return n > 0 ? atoi(b) : 0;
}

static bool ids_all(const char *v, unsigned id)
{
	/* real, effective, saved (and fs): every one must be @id */
	for (int i = 0; i < 3; i++) {
		char *end;
		unsigned long x;

		if (!v)
			return false;
		x = strtoul(v, &end, 10);
		if (end == v || x != id)
			return false;
		v = end;
	}
	return true;
}

/* Is the peer @ancestor an ancestor of process @pid? */
static bool descends_from(pid_t pid, pid_t ancestor)
{
	char buf[4096];

	for (int depth = 0; depth < 4096 && pid > 1; depth++) {
		const char *v;

		if (pid == ancestor)
			return true;
		if (!utrace__proc_status(pid, buf, sizeof(buf)) ||
		    !(v = utrace__proc_field(buf, "PPid")))
			return false;
		pid = atoi(v);
	}
	return false;
}

/*
 * Could the peer ptrace @tid itself?  Same uid and gid as every one of the
 * process's, the process dumpable (else the kernel makes the files of
 * /proc/PID root's),
 * or CAP_SYS_PTRACE; and Yama's ptrace_scope where it is stricter.  A
 * thread that is gone passes: the queue says -ESRCH.
 */
static int may_trace(const struct sconn *c, pid_t tid)
{
	char buf[4096], path[64];
	int scope = yama_scope();
	const char *v;
	struct stat st;
	pid_t tgid;

	if (!utrace__proc_status(tid, buf, sizeof(buf)))
		return 0;
	v = utrace__proc_field(buf, "Tgid");
	tgid = v ? atoi(v) : tid;
	if (scope >= 3)
		return -EPERM;
	if (c->cap_ptrace)
		return 0;
	if (scope == 2)
		return -EPERM;
	if (!ids_all(utrace__proc_field(buf, "Uid"), c->uid) ||
	    !ids_all(utrace__proc_field(buf, "Gid"), c->gid))
		return -EPERM;
	snprintf(path, sizeof(path), "/proc/%d/status", tgid);
	if (stat(path, &st) < 0)
		return 0;
	if (st.st_uid != c->uid)
		return -EPERM;		/* not dumpable */
	if (scope == 1 && !descends_from(tgid, c->pid))
		return -EPERM;
	return 0;
}

/* Every thread of @tid's process must pass for a process-wide watch. */
static int may_trace_all(const struct sconn *c, pid_t tid, unsigned flags)
{
	int err = may_trace(c, tid);
	char buf[4096], path[64];
	const char *v;
	struct dirent *d;
	DIR *dir;

	if (err || !(flags & UTRACE_WATCH_PROCESS))
		return err;
	if (!utrace__proc_status(tid, buf, sizeof(buf)) ||
	    !(v = utrace__proc_field(buf, "Tgid")))
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/task", atoi(v));
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!err && (d = readdir(dir)))
		if (atoi(d->d_name) > 0)
			err = may_trace(c, atoi(d->d_name));
	closedir(dir);
	return err;
}

/* -- Output ------------------------------------------------------------- */

static int out_reserve(struct sconn *c, size_t n)
{
	if (c->outoff && c->outoff == c->outlen)
		c->outoff = c->outlen = 0;
	if (c->outlen + n > c->outcap) {
		size_t cap = c->outcap ? c->outcap : 4096;
		uint8_t *p;

		if (c->outoff) {
			memmove(c->out, c->out + c->outoff,
				c->outlen - c->outoff);
			c->outlen -= c->outoff;
			c->outoff = 0;
		}
		while (cap < c->outlen + n)
			cap *= 2;
		if (cap != c->outcap) {
			p = realloc(c->out, cap);
			if (!p)
				return -ENOMEM;
			c->out = p;
			c->outcap = cap;
		}
	}
	return 0;
}

static int out_msg(struct sconn *c, uint16_t type, uint32_t seq,
		   const void *a, size_t alen, const void *b, size_t blen)
{
	struct w_hdr h = { (uint32_t)(sizeof(h) + alen + blen), type, 0, seq };

	if (out_reserve(c, h.len))
		return -ENOMEM;
	memcpy(c->out + c->outlen, &h, sizeof(h));
	c->outlen += sizeof(h);
	if (alen)
		memcpy(c->out + c->outlen, a, alen);
	c->outlen += alen;
	if (blen)
		memcpy(c->out + c->outlen, b, blen);
	c->outlen += blen;
	return 0;
}

static void put_event(struct w_event *w, const struct utrace_event *ev)
{
	memset(w, 0, sizeof(*w));
	w->id = ev->id;
	w->tid = ev->tid;
	w->pid = ev->pid;
	w->type = ev->type;
	w->held = ev->held;
	w->action = ev->action;
	w->nr = ev->syscall.nr;
	for (int i = 0; i < 6; i++)
		w->args[i] = ev->syscall.args[i];
	w->ret = ev->syscall.ret;
	w->arch = ev->syscall.arch;
	w->ip = ev->syscall.ip;
	w->sp = ev->syscall.sp;
	memcpy(w->info, &ev->info, sizeof(w->info));
	w->clone_flags = ev->clone_flags;
	w->child = ev->child;
	w->former_tid = ev->former_tid;
	w->status = ev->status;
	w->group_dead = ev->group_dead;
	w->jctl_type = ev->jctl_type;
	w->sec = ev->time.tv_sec;
	w->nsec = ev->time.tv_nsec;
}

/*
 * Move records from the joiner's local queue to its output; true if one
 * of them holds its thread (someone waits for it to be read).
 */
static bool pump(struct sconn *c)
{
	struct utrace_event ev;
	struct w_event w;
	bool held = false;

	c->more = false;
	for (;;) {
		/*
		 * Full: the rest waits in the queue.  The server thread
		 * asks for POLLOUT until it has taken them (more), even
		 * once this output is all sent: the threads may be held
		 * by back-pressure, and then no dispatch comes to kick it.
		 */
		if (c->outlen - c->outoff >= OUT_HIGH) {
			c->more = true;
			break;
		}
		memset(&ev, 0, sizeof(ev));
		ev.size = sizeof(ev);
		if (utrace_queue_next(c->q, &ev, 0) != 1)
			break;
		held |= ev.held;
		put_event(&w, &ev);
		if (out_msg(c, W_EVENT, 0, &w, sizeof(w), NULL, 0)) {
			c->closing = true;
			break;
		}
	}
	return held;
}

static int result(struct sconn *c, uint32_t seq, int64_t ret,
		  const void *payload, size_t plen)
{
	struct w_result r = { ret };

	/* Records made before this answer go first. */
	pump(c);
	return out_msg(c, W_RESULT, seq, &r, sizeof(r), payload, plen);
}

static void flush(struct sconn *c, bool wait)
{
	while (c->outoff < c->outlen) {
		ssize_t n = send(c->fd, c->out + c->outoff,
				 c->outlen - c->outoff,
				 MSG_NOSIGNAL | (wait ? 0 : MSG_DONTWAIT));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (wait || (errno != EAGAIN && errno != EWOULDBLOCK))
				c->closing = true;
			return;
		}
		c->outoff += n;
	}
	c->outoff = c->outlen = 0;
}

/* -- Requests ----------------------------------------------------------- */

/* Check an all-stop a STOP request waits for; true when answered. */
static bool stop_try(struct sconn *c, struct pstop *s)
{
	int r = utrace_queue_stop(c->q, s->pid, 0);

	if (r == -ETIMEDOUT && (s->deadline < 0 || utrace__now_ms() < s->deadline))
		return false;
	if (result(c, s->seq, r, NULL, 0))
		c->closing = true;
	return true;
}

static void stops_check(struct sconn *c)
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

static int req_stop(struct sconn *c, uint32_t seq, const struct w_stop *w)
{
	struct pstop *s;
	int r;

	if (w->timeout_ms < -1)
		return result(c, seq, -EINVAL, NULL, 0);
	r = utrace_queue_stop(c->q, w->pid, 0);
	if (r != -ETIMEDOUT || w->timeout_ms == 0)
		return result(c, seq, r, NULL, 0);
	/* Answered later, from the server's loop (stops_check). */
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->seq = seq;
	s->pid = w->pid;
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
				out_msg(c, W_HELLO, seq, &me, sizeof(me),
					NULL, 0);
				flush(c, true);
				return -EXDEV;
			}
		}
		out_msg(c, W_HELLO, seq, &me, sizeof(me), NULL, 0);
		if (w->version != W_VERSION)
			return -EPROTO;	/* it sees our version, then EOF */
		c->hello = true;
		return 0;
	}
	switch (h->type) {
	case W_WATCH: {
		const struct w_watch *w = (const void *)body;
		int r;

		if (len != sizeof(*w))
			return -EPROTO;
		r = may_trace_all(c, w->tid, w->flags);
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
		return req_stop(c, seq, (const void *)body);
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
static void take_input(struct sconn *c)
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

/* -- Connections -------------------------------------------------------- */

/* @c is locked by the caller; it is unlocked and freed here. */
static void conn_close(struct utrace__server *s, struct sconn *c)
{
	struct sconn **pp;

	pthread_mutex_lock(&s->lock);
	for (pp = &s->conns; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	s->nconns--;
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&c->lock);
	pthread_mutex_destroy(&c->lock);
	/* Its watches go: every thread it held runs on. */
	utrace_queue_free(c->q);
	close(c->fd);
	while (c->stops) {
		struct pstop *p = c->stops;

		c->stops = p->next;
		free(p);
	}
	free(c->in);
	free(c->out);
	free(c);
}

static void conn_accept(struct utrace__server *s)
{
	while (atomic_load(&s->nconns) < MAX_JOINERS) {
		int fd = accept4(s->lfd, NULL, NULL,
				 SOCK_CLOEXEC | SOCK_NONBLOCK);
		struct sconn *c;

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			return;
		}
		c = calloc(1, sizeof(*c));
		if (c)
			c->t = s->t;
		if (!c || peer_creds((c->fd = fd, c)) ||
		    utrace_queue_new(s->t, &c->q)) {
			close(fd);
			free(c);
			continue;
		}
		pthread_mutex_init(&c->lock, NULL);
		pthread_mutex_lock(&s->lock);
		c->next = s->conns;
		s->conns = c;
		s->nconns++;
		pthread_mutex_unlock(&s->lock);
	}
}

static void *server_main(void *arg)
{
	struct utrace__server *s = arg;
	struct pollfd *pfd = NULL;
	unsigned cap = 0;

	while (!atomic_load(&s->stop)) {
		unsigned n = 2, i;
		int timeout = -1;
		struct sconn *c, *next;

		if (s->nconns * 2 + 2 > cap) {
			unsigned ncap = s->nconns * 2 + 16;
			struct pollfd *p = realloc(pfd, ncap * sizeof(*p));

			if (!p) {
				usleep(10000);
				continue;
			}
			pfd = p;
			cap = ncap;
		}
		pfd[0] = (struct pollfd){ .fd = s->wfd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = atomic_load(&s->nconns) <
					  MAX_JOINERS ? s->lfd : -1,
					  .events = POLLIN };
		for (c = s->conns; c; c = c->next) {
			bool pending, full;

			pthread_mutex_lock(&c->lock);
			pending = c->outoff < c->outlen || c->more;
			full = c->outlen - c->outoff >= OUT_HIGH;
			pthread_mutex_unlock(&c->lock);

			/*
			 * A joiner that does not read its answers gets no
			 * more of its requests read: the output is bounded.
			 */
			pfd[n++] = (struct pollfd){ .fd = c->fd, .events =
				(full ? 0 : POLLIN) | (pending ? POLLOUT : 0) };
			/*
			 * Records: the loop thread sends them after each
			 * dispatch; here only what it could not (kick).
			 */
			pfd[n++] = (struct pollfd){ .fd = -1 };
			if (c->stops)
				timeout = 10;	/* all-stops are polled */
		}
		if (poll(pfd, n, timeout) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents) {
			uint64_t v;
			bool input = pfd[1].revents;

			if (read(s->wfd, &v, sizeof(v)) < 0)
				(void)0;
			for (i = 2; i < n && !input; i++)
				input = pfd[i].revents;
			/*
			 * Only the loop's kick, for records that hold no
			 * thread (a held one the loop sends itself): let more
			 * gather before sending, so that neither this thread
			 * nor the joiner wakes per record.  The loop does
			 * not kick again meanwhile (kick stays set); a
			 * request cuts the wait short.
			 */
			if (atomic_exchange(&s->urgent, false))
				input = true;
			if (!input && !atomic_load(&s->stop) &&
			    poll(pfd, n, COALESCE_MS) < 0 && errno != EINTR)
				break;
		}
		if (atomic_load(&s->stop))
			break;
		/* The list may have changed order: look at every one. */
		i = 2;
		for (c = s->conns; c; c = next) {
			short ev = i < n ? pfd[i].revents : 0;

			next = c->next;
			i += 2;
			pthread_mutex_lock(&c->lock);
			atomic_store(&c->kick, false);
			if (ev & (POLLIN | POLLHUP | POLLERR))
				take_input(c);
			if (ev & (POLLHUP | POLLERR) && !(ev & POLLIN))
				c->closing = true;
			if (!c->closing) {
				stops_check(c);
				pump(c);
				flush(c, false);
			}
			if (c->closing)
				conn_close(s, c);
			else
				pthread_mutex_unlock(&c->lock);
		}
		if (pfd[1].revents & POLLIN)
			conn_accept(s);
	}
	free(pfd);
	return NULL;
}

/**
 * utrace_tracer_serve - let other programs join this tracer
 * @flags: UTRACE_SERVE_DEFAULT (0)
 *
 * Listens on DIR/PID.sock (DIR: /run/utrace for root, /tmp/utrace-UID for
 * others; mode 0700) and serves joiners from a thread of its own.  The
 * application keeps running the loop as before.  Returns 0, -EINVAL,
 * -EALREADY (already serving), -EPERM (DIR is not ours alone), -ENOMEM,
 * or the socket's error.
 */
UTRACE_EXPORT int utrace_tracer_serve(struct utrace_tracer *t, unsigned flags)
{
	struct utrace__server *s;
	struct share_layer *sl;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[64];
	sigset_t all, old;
	int err;

	if (!t || flags != UTRACE_SERVE_DEFAULT)
		return -EINVAL;
	if (!utrace__on_loop(t))
		return -EPERM;
	sl = utrace__layer_data(t, &share_layer_ops);
	if (sl && atomic_load(&sl->server))
		return -EALREADY;
	if (!sl) {
		sl = calloc(1, sizeof(*sl));
		if (!sl)
			return -ENOMEM;
		err = utrace__layer_register(t, &share_layer_ops, sl);
		if (err) {
			free(sl);
			return err;
		}
	}
	utrace__serve_dir(geteuid(), dir, sizeof(dir));
	err = make_dir(dir);
	if (err)
		return err;
	sweep(dir);
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->t = t;
	pthread_mutex_init(&s->lock, NULL);
	snprintf(s->path, sizeof(s->path), "%s/%d.sock", dir, (int)getpid());
	memcpy(sa.sun_path, s->path, sizeof(s->path));
	s->wfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	s->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			0);
	if (s->wfd < 0 || s->lfd < 0) {
		err = -errno;
		goto fail;
	}
	/* A socket left by a dead process that had our pid. */
	unlink(s->path);
	if (bind(s->lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    chmod(s->path, 0600) < 0 || listen(s->lfd, 128) < 0) {
		err = -errno;
		unlink(s->path);
		goto fail;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = -pthread_create(&s->th, NULL, server_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		unlink(s->path);
		goto fail;
	}
	atomic_store(&sl->server, s);
	return 0;
fail:
	if (s->lfd >= 0)
		close(s->lfd);
	if (s->wfd >= 0)
		close(s->wfd);
	pthread_mutex_destroy(&s->lock);
	free(s);
	return err;
}

/*
 * Send a joiner every record made for it, waiting for it to read them, up
 * to @deadline (CLOCK_MONOTONIC ms, one for all joiners): a joiner that
 * does not read loses the rest, and cannot hold the tracer's end for long.
 */
static void drain(struct sconn *c, long deadline)
{
	int fl = fcntl(c->fd, F_GETFL);

	if (fl < 0 || fcntl(c->fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		return;
	while (!c->closing) {
		long left = deadline - utrace__now_ms();
		struct timeval tv = { left / 1000, (left % 1000) * 1000 };

		pump(c);
		if (c->outoff == c->outlen || left <= 0 ||
		    setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv,
			       sizeof(tv)) < 0)
			break;
		flush(c, true);
	}
}

/*
 * After a dispatch (the layer's hook, loop thread): send the records it
 * made to their joiners at once, without waking the server thread.  A
 * connection the server thread is working on is left to it (kick).
 */
static void serve_poll(struct utrace_tracer *t, void *data)
{
	struct share_layer *sl = data;
	struct utrace__server *s = atomic_load(&sl->server);
	bool wake = false;

	/*
	 * utrace serves by default: with nobody joined, spare every dispatch
	 * the lock.  A joiner's records exist only after its watch request,
	 * which the loop ran after the connection was counted.
	 */
	if (!s || !atomic_load(&s->nconns))
		return;
	pthread_mutex_lock(&s->lock);
	for (struct sconn *c = s->conns; c; c = c->next) {
		bool held = false;

		if (pthread_mutex_trylock(&c->lock)) {
			/* What it missed may hold a thread. */
			atomic_store(&s->urgent, true);
			if (!atomic_exchange(&c->kick, true))
				wake = true;
			continue;
		}
		/*
		 * A held record is sent at once (its thread waits); others
		 * are left to the server thread, which sends them in batches
		 * beside the loop instead of in it.
		 */
		if (!c->closing && (held = pump(c)))
			flush(c, false);
		if (c->closing || c->outoff < c->outlen) {
			if (c->closing || held)
				atomic_store(&s->urgent, true);
			if (!atomic_exchange(&c->kick, true))
				wake = true;
		}
		pthread_mutex_unlock(&c->lock);
	}
	pthread_mutex_unlock(&s->lock);
	if (wake) {
		uint64_t one = 1;

		if (write(s->wfd, &one, sizeof(one)) < 0)
			(void)0;
	}
}

/*
 * Stop serving (the layer's closing hook: utrace_tracer_free, loop thread).
 * Every joiner's connection closes (they see -ENOTCONN after the records
 * already sent) and its watches go.
 */
static void serve_end(struct utrace_tracer *t, void *data)
{
	struct share_layer *sl = data;
	struct utrace__server *s = atomic_load(&sl->server);
	uint64_t one = 1;
	long deadline;

	if (!s)
		return;
	unlink(s->path);
	atomic_store(&s->stop, true);
	if (write(s->wfd, &one, sizeof(one)) < 0)
		(void)0;
	/*
	 * It may be waiting for the loop: run its calls until it is out,
	 * joining it in between (back at once when it ends, where a sleep
	 * would wait its whole length).
	 */
	for (;;) {
		struct timespec ts;

		utrace__run_requests(t);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 200000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		if (pthread_timedjoin_np(s->th, NULL, &ts) == 0)
			break;
	}
	deadline = utrace__now_ms() + 2000;
	while (s->conns) {
		struct sconn *c = s->conns;

		pthread_mutex_lock(&c->lock);
		drain(c, deadline);
		conn_close(s, c);
	}
	close(s->lfd);
	close(s->wfd);
	pthread_mutex_destroy(&s->lock);
	atomic_store(&sl->server, NULL);
	free(s);
}

static void share_layer_free(struct utrace_tracer *t, void *data)
{
	free(data);
}

/*
 * Above the queues it serves joiners with (order 10): its after_dispatch
 * sends the records its queues made (an all-stop's too).
 */
static const struct utrace__layer share_layer_ops = {
	.order = 20,
	.after_dispatch = serve_poll,
	.closing = serve_end,
	.free = share_layer_free,
};

/**
 * utrace_tracer_joiners - how many joiners are connected now
 * Returns the count (0 when @t does not serve), or -EINVAL.  Thread-safe.
 */
UTRACE_EXPORT int utrace_tracer_joiners(struct utrace_tracer *t)
{
	struct utrace__server *s;

	if (!t)
		return -EINVAL;
	s = server_of(t);
	return s ? (int)atomic_load(&s->nconns) : 0;
}
