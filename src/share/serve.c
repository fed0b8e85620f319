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
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/syscall.h>
#include <sys/un.h>

#include "core/clock.h"
#include "share/serve.h"
#include "share/share.h"

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

int utrace__sconn_out(struct sconn *c, uint16_t type, uint32_t seq,
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
bool utrace__sconn_pump(struct sconn *c)
{
	struct utrace_event ev;
	struct w_event w;
	bool held = false;

	c->more = false;
	if (!c->q)
		return false;	/* no HELLO yet: nothing is recorded */
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
		if (utrace__sconn_out(c, W_EVENT, 0, &w, sizeof(w), NULL, 0)) {
			c->closing = true;
			break;
		}
	}
	return held;
}


void utrace__sconn_flush(struct sconn *c, bool wait)
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

/* -- Connections -------------------------------------------------------- */

/*
 * Tell @c why it is turned away (a REFUSED message, docs/PROTOCOL.md) and
 * mark it closing.  Its output is empty or nearly (it never said HELLO, or
 * says it now): the message fits the socket's buffer.
 */
void utrace__sconn_refuse(struct sconn *c, int err, const char *why)
{
	struct w_refused r = { err, 0 };
	size_t len = strnlen(why, W_REFUSED_TEXT - 1);
	char text[W_REFUSED_TEXT];

	memcpy(text, why, len);
	text[len] = 0;
	if (!utrace__sconn_out(c, W_REFUSED, 0, &r, sizeof(r), text, len + 1))
		utrace__sconn_flush(c, false);
	c->closing = true;
}

/* How many joined connections (HELLO said) uid @uid has: server thread. */
unsigned utrace__joined_of(struct utrace__server *s, uid_t uid)
{
	unsigned n = 0;

	for (struct sconn *c = s->conns; c; c = c->next)
		if (c->hello && !c->closing && c->uid == uid)
			n++;
	return n;
}

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
	if (atomic_load(&c->fast))
		atomic_fetch_sub(&s->nfast, 1);
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

#define ANY_UID ((uid_t)-1)

/*
 * Turn away the connection of @uid (ANY_UID: of anyone) but @except that
 * has waited longest for its HELLO, told why.  Its HELLO may be there by
 * now: such a one is served instead, and the next oldest looked at.
 * Returns false when no connection waits.  Server thread.
 */
static bool evict_waiting(struct utrace__server *s, uid_t uid,
			  struct sconn *except, const char *why)
{
	for (;;) {
		struct sconn *old = NULL, *c;

		/* New ones go first in the list: the last is the oldest. */
		for (c = s->conns; c; c = c->next)
			if (c != except && !c->hello && !c->closing &&
			    (uid == ANY_UID || c->uid == uid))
				old = c;
		if (!old)
			return false;
		pthread_mutex_lock(&old->lock);
		utrace__sconn_input(old);
		if (!old->hello && !old->closing)
			utrace__sconn_refuse(old, EUSERS, why);
		if (old->closing) {
			conn_close(s, old);
			return true;
		}
		utrace__sconn_flush(old, false);
		pthread_mutex_unlock(&old->lock);
	}
}

/* How many connections of @uid wait for their HELLO. */
static unsigned waiting_of(struct utrace__server *s, uid_t uid)
{
	unsigned n = 0;

	for (struct sconn *c = s->conns; c; c = c->next)
		if (!c->hello && !c->closing && c->uid == uid)
			n++;
	return n;
}

/*
 * Accept every connection waiting, and keep the limits (serve.h): a peer
 * is let in, or turned away and told why, never left in the backlog
 * where it would time out unanswered.  Server thread.
 */
static void conn_accept(struct utrace__server *s)
{
	for (;;) {
		int fd = accept4(s->lfd, NULL, NULL,
				 SOCK_CLOEXEC | SOCK_NONBLOCK);
		struct sconn *c;

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			/* Out of descriptors: one waiting for its HELLO
			 * makes room, or accepting pauses a little. */
			if ((errno == EMFILE || errno == ENFILE) &&
			    evict_waiting(s, ANY_UID, NULL,
					  "the tracer is out of descriptors"))
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				s->accept_again = utrace__now_ms() + 100;
			return;
		}
		c = calloc(1, sizeof(*c));
		if (!c || utrace__peer_creds((c->fd = fd, c))) {
			close(fd);
			free(c);
			continue;
		}
		c->s = s;
		c->t = s->t;
		c->since = utrace__now_ms();
		pthread_mutex_init(&c->lock, NULL);
		pthread_mutex_lock(&s->lock);
		c->next = s->conns;
		s->conns = c;
		s->nconns++;
		pthread_mutex_unlock(&s->lock);
		pthread_mutex_lock(&c->lock);
		/* A joiner sends its HELLO with its connect: often here. */
		utrace__sconn_input(c);
		if (!c->hello && !c->closing &&
		    waiting_of(s, c->uid) > WAITING_PER_UID) {
			char why[96];

			snprintf(why, sizeof(why), "more than %d connections "
				 "of uid %u wait for their HELLO",
				 WAITING_PER_UID, (unsigned)c->uid);
			evict_waiting(s, c->uid, c, why);
		}
		if (!c->closing && atomic_load(&s->nconns) > MAX_JOINERS &&
		    !evict_waiting(s, ANY_UID, c, "the tracer has too many "
				   "connections"))
			utrace__sconn_refuse(c, EUSERS, "the tracer has too "
					     "many connections");
		utrace__sconn_flush(c, false);
		if (c->closing)
			conn_close(s, c);
		else
			pthread_mutex_unlock(&c->lock);
	}
}

/*
 * Turn away the connections whose HELLO did not come in time; the ms
 * until the next one's time is up (-1: none waits).  Server thread.
 */
static int hello_deadlines(struct utrace__server *s)
{
	long now = utrace__now_ms(), next = -1;
	struct sconn *c, *nx;

	for (c = s->conns; c; c = nx) {
		long left = c->since + HELLO_MS - now;

		nx = c->next;
		if (c->hello || c->closing)
			continue;
		if (left > 0) {
			if (next < 0 || left < next)
				next = left;
			continue;
		}
		pthread_mutex_lock(&c->lock);
		utrace__sconn_refuse(c, ETIMEDOUT, "no HELLO in time");
		conn_close(s, c);
	}
	return (int)next;
}

static void *server_main(void *arg)
{
	struct utrace__server *s = arg;
	struct pollfd *pfd = NULL;
	unsigned cap = 0;

	while (!atomic_load(&s->stop)) {
		unsigned n = 2, i;
		int timeout = hello_deadlines(s);
		long pause = s->accept_again - utrace__now_ms();
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
		if (pause <= 0)
			s->accept_again = 0;
		else if (timeout < 0 || pause < timeout)
			timeout = (int)pause;
		pfd[1] = (struct pollfd){ .fd = pause > 0 ? -1 : s->lfd,
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
				(full || atomic_load(&c->fast) ? 0 : POLLIN) |
				(pending ? POLLOUT : 0) };
			/*
			 * Records: the loop thread sends them after each
			 * dispatch; here only what it could not (kick).
			 */
			pfd[n++] = (struct pollfd){ .fd = -1 };
			if (c->stops && (timeout < 0 || timeout > 10))
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
				utrace__sconn_input(c);
			if (ev & (POLLHUP | POLLERR) && !(ev & POLLIN))
				c->closing = true;
			if (!c->closing) {
				utrace__sconn_stops_check(c);
				utrace__sconn_pump(c);
				utrace__sconn_flush(c, false);
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
	s->loop_tid = (pid_t)syscall(SYS_gettid);	/* on the loop: above */
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

		utrace__sconn_pump(c);
		if (c->outoff == c->outlen || left <= 0 ||
		    setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv,
			       sizeof(tv)) < 0)
			break;
		utrace__sconn_flush(c, true);
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
		if (!c->closing && (held = utrace__sconn_pump(c)))
			utrace__sconn_flush(c, false);
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

/* -- The loop reads ------------------------------------------------------ */

/*
 * A joiner waits for the answer to each request, and a held record's
 * thread for the answer to a REPLY.  Carried by the server thread, a
 * request costs four wake-ups: the server thread's for the request, the
 * loop thread's to carry it out (utrace__call), the server thread's again
 * for the answer, the joiner's.  So while the loop thread sleeps in a
 * blocking dispatch, the joiners' sockets signal it themselves (O_ASYNC,
 * F_SETOWN_EX to the loop thread, F_SETSIG the core's wake signal, which
 * it takes without a race) and it reads, carries out and answers the
 * requests itself (serve_input): the joiner's wake-up and the loop's.
 * Outside those sleeps the sockets signal nobody (owner 0): the
 * application's own system calls on the loop thread are never
 * interrupted.  A dispatch that polls utrace_fd, or whose application
 * does, hands the sockets back to the server thread, which wakes the
 * loop through utrace_fd.  At most FAST_MAX joiners are read so: each
 * costs two fcntl(2) per sleep; and only those that wait on the tracer
 * (interactive: they replied to a held record or stopped threads), which
 * a joiner that only reads records never does.
 */
#define FAST_MAX	16

static void set_owner(int fd, pid_t tid)
{
	struct f_owner_ex o = { F_OWNER_TID, tid };

	if (fcntl(fd, F_SETOWN_EX, &o) < 0)
		(void)0;	/* then it does not wake the loop: polled */
}

/* Let the loop thread read @c's requests; true if it does now. */
static bool make_fast(struct sconn *c, int sig)
{
	bool ok = false;
	int fl;

	if (pthread_mutex_trylock(&c->lock))
		return false;	/* the server thread works on it */
	if (c->hello && !c->closing && c->q && c->interactive &&
	    fcntl(c->fd, F_SETSIG, sig) == 0 &&
	    (fl = fcntl(c->fd, F_GETFL)) >= 0 &&
	    fcntl(c->fd, F_SETFL, fl | O_ASYNC) == 0) {
		atomic_store(&c->fast, true);
		atomic_fetch_add(&c->s->nfast, 1);
		ok = true;
	}
	pthread_mutex_unlock(&c->lock);
	return ok;
}

/* The server thread reads them all again; true if one changed. */
static bool unfast_all(struct utrace__server *s)
{
	bool changed = false;

	for (struct sconn *c = s->conns; c; c = c->next) {
		int fl;

		if (!atomic_exchange(&c->fast, false))
			continue;
		atomic_fetch_sub(&s->nfast, 1);
		changed = true;
		if ((fl = fcntl(c->fd, F_GETFL)) >= 0)
			fcntl(c->fd, F_SETFL, fl & ~O_ASYNC);
	}
	return changed;
}

static void wake_server(struct utrace__server *s)
{
	uint64_t one = 1;

	if (write(s->wfd, &one, sizeof(one)) < 0)
		(void)0;
}

/* The layer's sleep hook (core/layer.h), loop thread. */
static int serve_sleep(struct utrace_tracer *t, void *data, int how)
{
	struct share_layer *sl = data;
	struct utrace__server *s = atomic_load(&sl->server);
	struct pollfd pfd[FAST_MAX];
	unsigned n = 0;
	pid_t me = 0;
	int sig, r = 0;

	if (!s || !atomic_load(&s->nconns))
		return 0;
	if (how == UTRACE__SLEEP_POLLED) {
		bool changed;

		pthread_mutex_lock(&s->lock);
		changed = unfast_all(s);
		pthread_mutex_unlock(&s->lock);
		if (changed)
			wake_server(s);
		return 0;
	}
	sig = utrace__wake_signal();
	if (sig < 0)
		return 0;
	if (how == UTRACE__SLEEP_BLOCK)
		me = s->loop_tid;
	pthread_mutex_lock(&s->lock);
	for (struct sconn *c = s->conns; c; c = c->next) {
		if (how == UTRACE__SLEEP_WOKE) {
			if (c->armed)
				set_owner(c->fd, 0);
			c->armed = false;
			continue;
		}
		if (atomic_load(&c->closing))
			continue;
		if (!atomic_load(&c->fast) &&
		    (atomic_load(&s->nfast) >= FAST_MAX || !make_fast(c, sig)))
			continue;
		if (n == FAST_MAX)
			break;	/* cannot be: only this thread adds */
		set_owner(c->fd, me);
		c->armed = true;
		pfd[n++] = (struct pollfd){ .fd = c->fd, .events = POLLIN };
	}
	pthread_mutex_unlock(&s->lock);
	if (!n)
		return 0;
	r = UTRACE__SLEEP_ARMED;
	/* What came before the owner was set signalled nobody. */
	if (poll(pfd, n, 0) > 0)
		r |= UTRACE__SLEEP_READY;
	return r;
}

/*
 * The layer's input hook (loop thread, before the threads are settled):
 * carry out the requests of the joiners the loop reads, and send their
 * answers (and the records before them) at once.  What only the server
 * thread does (closing, all-stops it polls, output the socket did not
 * take) is left to it, woken.
 */
static void serve_input(struct utrace_tracer *t, void *data)
{
	struct share_layer *sl = data;
	struct utrace__server *s = atomic_load(&sl->server);
	bool wake = false;

	if (!s || !atomic_load(&s->nconns))
		return;
	pthread_mutex_lock(&s->lock);
	for (struct sconn *c = s->conns; c; c = c->next) {
		if (!atomic_load(&c->fast) || atomic_load(&c->closing))
			continue;
		if (pthread_mutex_trylock(&c->lock))
			continue;	/* the next sleep finds it readable */
		utrace__sconn_input(c);
		if (!c->closing)
			utrace__sconn_flush(c, false);
		if (c->closing || c->stops) {
			atomic_store(&s->urgent, true);
			if (!atomic_exchange(&c->kick, true))
				wake = true;
		}
		pthread_mutex_unlock(&c->lock);
	}
	pthread_mutex_unlock(&s->lock);
	if (wake)
		wake_server(s);
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
		utrace__deadline_ns(&ts, CLOCK_REALTIME, 200000);
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
	.input = serve_input,
	.sleep = serve_sleep,
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

