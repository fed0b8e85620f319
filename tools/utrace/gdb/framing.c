// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace --gdb: the connection (gdbserver's remote-utils): listening,
 * accepting one gdb and turning others away gently, packet framing
 * ($data#cs, acks, escapes, run lengths, Ctrl-C) and the hex and thread
 * id syntax packets share.  It knows the stub's state but never the
 * library: what a packet asks for is server.c's.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "gdb/gdb.h"

/*
 * A gdb refused while another is served: each packet it sends is answered
 * with an E.errtext reply, so gdb shows the reason, until it hangs up or
 * REFUSE_SECS pass.  Never blocks: its socket is polled with the others.
 */
struct refused {
	int fd;
	char why[160];
	double deadline;	/* on the caller's monotonic clock */
	size_t inlen;
	char in[512];
	struct refused *next;
};

static void gdb_send_raw(struct gdbstub *s, const char *p, size_t n)
{
	while (s->cfd >= 0 && n) {
		ssize_t w = send(s->cfd, p, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;		/* EOF is seen by the next read */
		p += w;
		n -= (size_t)w;
	}
}

/* @lead (a packet's '$', a notification's '%'), the data, '#', checksum. */
static char *frame(char lead, const char *data, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char cs = 0;
	char *p = malloc(n + 4);
	size_t i;

	if (!p)
		return NULL;
	p[0] = lead;
	for (i = 0; i < n; i++)
		cs += (unsigned char)data[i];
	memcpy(p + 1, data, n);
	p[n + 1] = '#';
	p[n + 2] = hex[cs >> 4];
	p[n + 3] = hex[cs & 15];
	return p;
}

void gdb_send_packet_len(struct gdbstub *s, const char *data, size_t n)
{
	char *p = frame('$', data, n);

	if (!p)
		return;
	gdb_send_raw(s, p, n + 4);
	free(s->out);
	s->out = p;
	s->outlen = n + 4;
}

void gdb_send_packet(struct gdbstub *s, const char *data)
{
	gdb_send_packet_len(s, data, strlen(data));
}

void gdb_send_error(struct gdbstub *s, int err)
{
	char buf[8];

	snprintf(buf, sizeof(buf), "E%02x", err & 0xff);
	gdb_send_packet(s, buf);
}

/* A notification (%NAME:data#cs, non-stop): never acked, never resent. */
void gdb_send_notif(struct gdbstub *s, const char *data)
{
	size_t n = strlen(data);
	char *p = frame('%', data, n);

	if (!p)
		return;
	gdb_send_raw(s, p, n + 4);
	free(p);
}

/* Binary data in a reply: escape what framing uses. */
size_t gdb_put_bin(char *dst, const unsigned char *src, size_t n)
{
	size_t i, j = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = src[i];

		if (c == '$' || c == '#' || c == '}' || c == '*') {
			dst[j++] = '}';
			dst[j++] = (char)(c ^ 0x20);
		} else {
			dst[j++] = (char)c;
		}
	}
	return j;
}

void gdb_put_hex(char *dst, const unsigned char *src, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		dst[2 * i] = hex[src[i] >> 4];
		dst[2 * i + 1] = hex[src[i] & 15];
	}
	dst[2 * n] = 0;
}

static int gdb_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Exactly 2 * @n hex digits to @n bytes; returns @n, or -1 if any of
 * them is not a hex digit (the caller checks what follows).
 */
ssize_t gdb_get_hex(unsigned char *dst, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int hi = gdb_hexval(src[2 * i]), lo;

		if (hi < 0)
			return -1;
		lo = gdb_hexval(src[2 * i + 1]);
		if (lo < 0)
			return -1;
		dst[i] = (unsigned char)(hi << 4 | lo);
	}
	return (ssize_t)n;
}

/*
 * A hex number, as gdbserver reads one: at least one digit, no sign, no
 * "0x", no more than 64 bits.  Returns false (and leaves @p) otherwise.
 */
bool gdb_parse_ulong(const char **p, unsigned long *v)
{
	const char *q = *p;
	unsigned long x = 0;
	int d;

	if (gdb_hexval(*q) < 0)
		return false;
	while ((d = gdb_hexval(*q)) >= 0) {
		if (x >> 60)
			return false;	/* more than 64 bits */
		x = x << 4 | (unsigned long)d;
		q++;
	}
	*p = q;
	*v = x;
	return true;
}

/* "ADDR,LEN" and nothing after it. */
bool gdb_parse_addr_len(const char *p, unsigned long *addr,
			unsigned long *len)
{
	return gdb_parse_ulong(&p, addr) && *p++ == ',' &&
	       gdb_parse_ulong(&p, len) && !*p;
}

/* One part of a thread id: hex, "-1" (all, as -1) or "0" (any). */
static bool parse_id(const char **p, pid_t *v)
{
	unsigned long x;

	if (**p == '-' && (*p)[1] == '1') {
		*p += 2;
		*v = -1;
		return true;
	}
	if (!gdb_parse_ulong(p, &x) || x > 0x7fffffff)
		return false;
	*v = (pid_t)x;
	return true;
}

/*
 * A thread id: "p<pid>.<tid>", "p<pid>" (every thread of the process) or
 * "<tid>" (any process).  Returns false when malformed.
 */
bool gdb_parse_ptid(const char **p, pid_t *pid, pid_t *tid)
{
	*pid = 0;
	*tid = 0;
	if (**p != 'p')
		return parse_id(p, tid);
	(*p)++;
	if (!parse_id(p, pid))
		return false;
	if (**p != '.') {
		*tid = -1;
		return true;
	}
	(*p)++;
	return parse_id(p, tid);
}

void gdb_close_client(struct gdbstub *s)
{
	gdb_hostio_close(s);
	if (s->cfd >= 0)
		close(s->cfd);
	s->cfd = -1;
	s->inlen = 0;
	s->skip_pkt = false;
	memset(&s->peer, 0, sizeof(s->peer));
}

/*
 * Undo '}' escapes; returns the new length, or -1 for an escape with
 * nothing after it.  '*' is data: gdb never run-length encodes what it
 * sends (only replies may be), and gdbserver does not expand it either.
 */
ssize_t gdb_unescape(char *p, size_t n)
{
	size_t i, j = 0;

	for (i = 0; i < n; i++) {
		if (p[i] != '}') {
			p[j++] = p[i];
			continue;
		}
		if (++i == n)
			return -1;
		p[j++] = (char)(p[i] ^ 0x20);
	}
	return (ssize_t)j;
}

/*
 * One packet whose checksum matched: acked, unescaped and served, or
 * answered E01 when its escapes are broken (gdbserver's
 * remote_unescape_input refuses the same).
 */
static void serve_packet(struct gdbstub *s, const char *data, size_t n)
{
	char *pkt;
	ssize_t len;

	if (!s->noack)
		gdb_send_raw(s, "+", 1);
	pkt = malloc(n + 1);
	if (!pkt) {
		gdb_send_error(s, 12);
		return;
	}
	memcpy(pkt, data, n);
	len = gdb_unescape(pkt, n);
	if (len < 0)
		gdb_send_error(s, 1);
	else
		gdb_handle_packet(s, pkt, (size_t)len);
	free(pkt);
}

/*
 * The rest of a packet too long for the buffer: dropped up to its
 * checksum, then answered E01 (an error gdb reports, where a '-' would
 * have it send the same packet again).  Returns where parsing goes on,
 * or inlen while the end has not come.
 */
static size_t skip_overlong(struct gdbstub *s)
{
	char *hash = memchr(s->in, '#', s->inlen);
	size_t end;

	if (!hash)
		return s->inlen;
	end = (size_t)(hash - s->in) + 3;
	if (end > s->inlen)
		return (size_t)(hash - s->in);	/* the checksum next time */
	s->skip_pkt = false;
	if (!s->noack)
		gdb_send_raw(s, "+", 1);
	gdb_send_error(s, 1);
	return end;
}

/* Frame what came in: acks, Ctrl-C, $data#cs; bad checksums get '-'. */
void gdb_parse_input(struct gdbstub *s)
{
	size_t i = 0;

	if (s->skip_pkt)
		i = skip_overlong(s);
	while (!s->skip_pkt && i < s->inlen && s->cfd >= 0 && s->active) {
		char c = s->in[i];
		char *hash;
		unsigned cs = 0;
		int hi, lo;
		size_t k, n;

		if (c == '+') {
			i++;
			continue;
		}
		if (c == '-') {
			if (!s->noack && s->out)
				gdb_send_raw(s, s->out, s->outlen);
			i++;
			continue;
		}
		if (c == 0x03) {
			i++;
			gdb_interrupt(s);
			continue;
		}
		if (c != '$') {
			i++;		/* noise between packets */
			continue;
		}
		if (s->waiting)
			break;		/* served once the stop is reported */
		hash = memchr(s->in + i, '#', s->inlen - i);
		if (!hash || (size_t)(hash - s->in) + 3 > s->inlen)
			break;		/* not complete yet */
		n = (size_t)(hash - (s->in + i + 1));
		for (k = 0; k < n; k++)
			cs += (unsigned char)s->in[i + 1 + k];
		cs &= 0xff;
		hi = gdb_hexval(hash[1]);
		lo = gdb_hexval(hash[2]);
		if (hi < 0 || lo < 0 || cs != (unsigned)(hi << 4 | lo)) {
			if (!s->noack)
				gdb_send_raw(s, "-", 1);
			i = (size_t)(hash - s->in) + 3;
			continue;
		}
		serve_packet(s, s->in + i + 1, n);
		i = (size_t)(hash - s->in) + 3;
	}
	if (s->cfd < 0 || !s->active) {
		s->inlen = 0;
		s->skip_pkt = false;
		return;
	}
	memmove(s->in, s->in + i, s->inlen - i);
	s->inlen -= i;
	if (s->inlen == sizeof(s->in) && !s->waiting) {
		/*
		 * A full buffer that starts a packet with no '#': longer
		 * than any gdb sends (PacketSize).  The rest is dropped as
		 * it comes.
		 */
		s->inlen = 0;
		s->skip_pkt = true;
	}
}

void gdb_client_read(struct gdbstub *s)
{
	ssize_t n = recv(s->cfd, s->in + s->inlen, sizeof(s->in) - s->inlen,
			 MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		fprintf(stderr, "utrace: gdb connection closed\n");
		gdb_client_gone(s);
		return;
	}
	s->inlen += (size_t)n;
	gdb_parse_input(s);
}

/* "$E.utrace: <why>#cs", acked first: the answer to every packet of a refused gdb. */
static void refused_answer(struct refused *r)
{
	char pkt[200];
	unsigned cs = 0;
	size_t i;
	int n;

	for (i = 0; r->why[i]; i++)
		cs += (unsigned char)r->why[i];
	for (i = 0; i < 10; i++)
		cs += (unsigned char)"E.utrace: "[i];
	n = snprintf(pkt, sizeof(pkt), "+$E.utrace: %s#%02x", r->why,
		     cs & 0xff);
	if (n > 0 && (size_t)n < sizeof(pkt))
		send(r->fd, pkt, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
}

static void refused_close(struct gdbstub *s, struct refused *r)
{
	struct refused **pp;

	for (pp = &s->refused; *pp; pp = &(*pp)->next)
		if (*pp == r) {
			*pp = r->next;
			break;
		}
	close(r->fd);
	free(r);
}

/* What a refused gdb sent: each complete packet gets the error reply. */
static void refused_read(struct gdbstub *s, struct refused *r)
{
	ssize_t n = recv(r->fd, r->in + r->inlen, sizeof(r->in) - r->inlen,
			 MSG_DONTWAIT);
	size_t i = 0;
	char *dollar, *hash;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		refused_close(s, r);	/* gdb hung up: it has the reason */
		return;
	}
	r->inlen += (size_t)n;
	for (;;) {
		dollar = memchr(r->in + i, '$', r->inlen - i);
		if (!dollar)
			break;
		hash = memchr(dollar, '#', r->inlen - (size_t)(dollar - r->in));
		if (!hash || (size_t)(hash - r->in) + 3 > r->inlen)
			break;
		refused_answer(r);
		i = (size_t)(hash - r->in) + 3;
	}
	if (!memchr(r->in + i, '$', r->inlen - i))
		i = r->inlen;		/* acks and noise */
	else if (i == 0 && r->inlen == sizeof(r->in))
		i = r->inlen;		/* no packet gdb would send */
	memmove(r->in, r->in + i, r->inlen - i);
	r->inlen -= i;
}

/*
 * Turn a gdb away gently, as gdbserver answers what it cannot serve: its
 * first packets are read and answered with the reason, so gdb prints it
 * ("Remote failure reply: E.utrace: another gdb is already attached");
 * closing at once would leave gdb a reset connection and no reason.
 */
static void refuse(struct gdbstub *s, int fd, const char *why, double now)
{
	struct refused *r = NULL, *x;
	unsigned n = 0;

	fprintf(stderr, "utrace: refused a gdb connection: %s\n", why);
	for (x = s->refused; x; x = x->next)
		n++;
	if (n < REFUSE_MAX)
		r = calloc(1, sizeof(*r));
	if (!r) {
		struct refused tmp = { .fd = fd };

		snprintf(tmp.why, sizeof(tmp.why), "%s", why);
		refused_answer(&tmp);	/* too many at once: no waiting */
		close(fd);
		return;
	}
	r->fd = fd;
	snprintf(r->why, sizeof(r->why), "%s", why);
	r->deadline = now + REFUSE_SECS;
	r->next = s->refused;
	s->refused = r;
}

void gdb_accept(struct gdbstub *s, double now)
{
	int fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC), one = 1;
	char why[160];

	if (fd < 0)
		return;
	/*
	 * Who it is first, against what it would get (the processes held,
	 * or those the last gdb left): another uid learns nothing more.
	 */
	if (!gdb_peer_admit(s, fd, why, sizeof(why))) {
		refuse(s, fd, why, now);
		return;
	}
	/* The processes the last gdb left, stopped again for this one. */
	if (s->cfd < 0 && !s->active && s->nreleased)
		gdb_revive(s);
	if (s->cfd >= 0 || !s->active) {
		refuse(s, fd, s->cfd >= 0 ?
		       "another gdb is already attached" :
		       "no process to debug", now);
		return;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	s->cfd = fd;
	s->noack = false;
	s->intr_pending = false;
	s->inlen = 0;
	if (s->peer.known)
		fprintf(stderr, "utrace: gdb connected to process %d: %s\n",
			s->procs ? s->procs->pid : 0, s->peer.name);
	else
		fprintf(stderr, "utrace: gdb connected to process %d: %s, "
			"unchecked (--gdb-any-host)\n",
			s->procs ? s->procs->pid : 0, s->peer.name);
}

static int unix_listen(struct gdbstub *s, const char *addr, char *why,
		       size_t n)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	int fd, err;

	if (strlen(addr) >= sizeof(un.sun_path)) {
		snprintf(why, n, "a socket path has at most %zu bytes",
			 sizeof(un.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	strcpy(un.sun_path, addr);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&un, sizeof(un)) < 0) {
		err = -errno;
		snprintf(why, n, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return err;
	}
	/*
	 * Its owner's only, as the sharing socket is, before anyone can
	 * connect (listen): others are refused by the kernel, and each
	 * connection's SO_PEERCRED decides the rest (peer.c).
	 */
	if (chmod(addr, 0600) < 0 || listen(fd, 4) < 0) {
		err = -errno;
		snprintf(why, n, "%s", strerror(errno));
		close(fd);
		unlink(addr);
		return err;
	}
	s->upath = strdup(addr);
	snprintf(s->listening, sizeof(s->listening), "listening on %s", addr);
	s->lfd = fd;
	return 0;
}

/*
 * Listen on @addr: ":PORT" (127.0.0.1), "HOST:PORT" or a Unix socket
 * path (any '/').  On failure @why says what is wrong with it, in words
 * the user can act on.  What gdb connects to is announced later
 * (gdb_announce), once there is a process to debug.
 */
int gdb_listen(struct gdbstub *s, const char *addr, char *why, size_t n)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE }, *ai;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	const char *colon = strrchr(addr, ':');
	char host[256];
	unsigned long port;
	int fd, one = 1, err, gai;

	if (strchr(addr, '/'))
		return unix_listen(s, addr, why, n);
	if (!colon) {
		snprintf(why, n, "not :PORT, HOST:PORT or a socket path");
		return -EINVAL;
	}
	if (!colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1)) {
		snprintf(why, n, "the port '%s' is not a number", colon + 1);
		return -EINVAL;
	}
	port = strlen(colon + 1) > 5 ? 65536 : strtoul(colon + 1, NULL, 10);
	if (port > 65535) {
		snprintf(why, n, "port %s is out of range (0 to 65535)",
			 colon + 1);
		return -EINVAL;
	}
	if (colon - addr >= (long)sizeof(host)) {
		snprintf(why, n, "the host name is too long");
		return -EINVAL;
	}
	memcpy(host, addr, (size_t)(colon - addr));
	host[colon - addr] = 0;
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		/* [::1]:PORT */
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = 0;
	}
	if (!host[0])
		strcpy(host, "127.0.0.1");
	gai = getaddrinfo(host, colon + 1, &hints, &ai);
	if (gai) {
		snprintf(why, n, "unknown host '%s': %s", host,
			 gai == EAI_SYSTEM ? strerror(errno) : gai_strerror(gai));
		return -EADDRNOTAVAIL;
	}
	/*
	 * Only this host's processes reach a loopback address, and the
	 * kernel tells who each one is (peer.c).  Elsewhere anyone who can
	 * reach the port gets the program and the files utrace can read.
	 */
	if (!s->any_host && !gdb_addr_loopback(ai->ai_addr)) {
		snprintf(why, n, "'%s' is not a loopback address: anyone who "
			 "can reach it could debug the program and read the "
			 "files utrace can read (--gdb-any-host allows it)",
			 host);
		freeaddrinfo(ai);
		return -EPERM;
	}
	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 ||
	    listen(fd, 4) < 0) {
		err = -errno;
		snprintf(why, n, "%s", strerror(errno));
		freeaddrinfo(ai);
		if (fd >= 0)
			close(fd);
		return err;
	}
	freeaddrinfo(ai);
	getsockname(fd, (struct sockaddr *)&ss, &sl);
	port = ntohs(ss.ss_family == AF_INET6 ?
		     ((struct sockaddr_in6 *)&ss)->sin6_port :
		     ((struct sockaddr_in *)&ss)->sin_port);
	snprintf(s->listening, sizeof(s->listening), "listening on port %lu",
		 port);
	s->lfd = fd;
	return 0;
}

/* Where gdb connects, said once (gdbstub_start: there is a process). */
void gdb_announce(struct gdbstub *s)
{
	if (s->listening[0] && s->lfd >= 0)
		fprintf(stderr, "utrace: gdb: %s\n", s->listening);
	s->listening[0] = 0;
}

/*
 * The refused gdbs' sockets for the loop's poll (at most REFUSE_MAX,
 * noted in @rf), the timeout shortened to the nearest deadline.
 */
int gdb_refused_poll(struct gdbstub *s, struct pollfd *pf,
		     struct refused **rf, double now, int *timeout_ms)
{
	struct refused *x;
	int nr = 0;

	for (x = s->refused; x && nr < REFUSE_MAX; x = x->next) {
		int left = (int)((x->deadline - now) * 1000) + 1;

		if (left < 1)
			left = 0;
		if (*timeout_ms < 0 || left < *timeout_ms)
			*timeout_ms = left;
		rf[nr] = x;
		pf[nr++] = (struct pollfd){ x->fd, POLLIN, 0 };
	}
	return nr;
}

/* After the poll: answer what they sent, close those past their time. */
void gdb_refused_serve(struct gdbstub *s, const struct pollfd *pf,
		       struct refused **rf, int nr, double now)
{
	int i;

	for (i = 0; i < nr; i++) {
		if (pf[i].revents)
			refused_read(s, rf[i]);	/* may close it */
		else if (now >= rf[i]->deadline)
			refused_close(s, rf[i]);
	}
}

void gdb_refused_free(struct gdbstub *s)
{
	while (s->refused)
		refused_close(s, s->refused);
}
