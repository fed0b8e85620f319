// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace --gdb: who is on the other end of the connection, and what it
 * may do.  utrace often runs as root, and a gdb connected to it controls
 * the program and reads files through vFile; so a peer is granted what it
 * could take with ptrace(2) itself, with its own credentials, never
 * utrace's (utrace(7), "Security").
 *
 * Who the peer is comes from the kernel, never from what it says:
 *
 *   Unix socket  SO_PEERCRED: the pid that connected; its credentials
 *                from /proc, and with a pidfd (SO_PEERPIDFD, Linux 6.5)
 *                the certainty that the pid was still the peer's when
 *                they were read.  The socket file is its owner's only
 *                (framing.c), as the sharing socket is.
 *   TCP          the connecting socket, looked up by its four-tuple with
 *                NETLINK_SOCK_DIAG (inet_diag): its owner's uid and its
 *                inode; then the processes that hold it (/proc/PID/fd),
 *                every one a peer.  A socket that nothing on this host
 *                holds is a remote peer: never on a loopback address;
 *                with --gdb-any-host it is served unchecked, as gdbserver
 *                serves everyone.
 *
 * What it may do: what ptrace_may_access() with
 * PTRACE_MODE_ATTACH_REALCREDS grants the peer, for every thread of each
 * process gdb debugs: the library's one rule (utrace_may_ptrace(3)), with
 * the peer's credentials as they were when it connected.  The same rule
 * admits a connection, a vAttach of another process, and the process
 * after each of its execs (a set-user-ID program runs privileged under
 * utrace, where it would not under the peer's own ptrace); vRun starts a
 * program with utrace's credentials, so it needs a peer that could ptrace
 * utrace itself.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "gdb/gdb.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

#define DIAG_MS			1000	/* the kernel answers at once */

/* -- Credentials from /proc ------------------------------------------------ */

static bool read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	return true;
}

/* The value of "Key:\t..." in a /proc status text, or NULL. */
static const char *field(const char *buf, const char *key)
{
	size_t kl = strlen(key);
	const char *p = buf;

	while (p && *p) {
		if (!strncmp(p, key, kl) && p[kl] == ':')
			return p + kl + 1;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static bool same_creds(const struct utrace_cred *a,
		       const struct utrace_cred *b)
{
	return !memcmp(a->uid, b->uid, sizeof(a->uid)) &&
	       !memcmp(a->gid, b->gid, sizeof(a->gid)) &&
	       a->cap_eff == b->cap_eff && a->cap_prm == b->cap_prm &&
	       a->ngroups == b->ngroups &&
	       !memcmp(a->groups, b->groups,
		       (size_t)a->ngroups * sizeof(a->groups[0])) &&
	       a->userns_dev == b->userns_dev && a->userns_ino == b->userns_ino;
}

/**
 * gdb_peer_may - may the peer debug process @pid (ptrace every thread)?
 * Returns 0, or -EPERM with @why saying who may not debug what, or
 * -ESRCH when the process is gone.  An unchecked (remote) peer may.
 */
int gdb_peer_may(const struct gpeer *pe, pid_t pid, char *why, size_t n)
{
	int err = 0, i;

	if (!pe->known)
		return 0;
	/* Yama's scope 1 asks whether pid descends from the peer: each one. */
	for (i = 0; !err && i < pe->npids; i++) {
		struct utrace_cred c = pe->cred;

		c.pid = pe->pids[i];
		err = utrace_may_ptrace(&c, pid, UTRACE_MAY_PROCESS);
	}
	if (err == -EPERM)
		snprintf(why, n, "%s may not debug process %d (it could not "
			 "ptrace it)", pe->name, pid);
	else if (err)
		snprintf(why, n, "process %d is gone", pid);
	return err;
}

/* -- Who is on the other end: a Unix socket ------------------------------ */

/* The pid a pidfd refers to, -1 once that process is gone. */
static pid_t pidfd_pid(int pidfd)
{
	char path[64], buf[2048];
	const char *v;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	if (!read_text(path, buf, sizeof(buf)) || !(v = field(buf, "Pid")))
		return -1;
	return (pid_t)atoi(v);
}

static int unix_peer(int fd, struct gpeer *pe, char *why, size_t n)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);
	int pidfd = -1, err;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0) {
		snprintf(why, n, "SO_PEERCRED: %s", strerror(errno));
		return -EPERM;
	}
	len = sizeof(pidfd);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &len) < 0)
		pidfd = -1;
	err = utrace_cred_read(cr.pid, &pe->cred);
	/* With a pidfd: the pid was still the peer's when it was read. */
	if (pidfd >= 0) {
		if (pidfd_pid(pidfd) != cr.pid)
			err = -ESRCH;
		close(pidfd);
	}
	snprintf(pe->name, sizeof(pe->name), "uid %u (pid %d)",
		 (unsigned)cr.uid, cr.pid);
	if (err || pe->cred.uid[1] != cr.uid) {
		/* Gone, or its ids changed since it connected. */
		snprintf(why, n, "%s: its credentials cannot be read",
			 pe->name);
		return -EPERM;
	}
	pe->pids[0] = cr.pid;
	pe->npids = 1;
	pe->known = true;
	return 0;
}

/* -- Who is on the other end: TCP --------------------------------------- */

/*
 * The connecting socket, by its four-tuple: it is bound to the peer's
 * address and port, connected to ours.  Returns 0 with its owner's uid
 * and its inode, -ENOENT when no socket of this host's network namespace
 * is that one (the peer is elsewhere), or another -errno.
 */
static int diag_lookup(int family, const void *peer, uint16_t pport,
		       const void *local, uint16_t lport, uid_t *uid,
		       unsigned long *ino)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req = {
		.nlh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST,
		},
		.r = {
			.sdiag_family = (__u8)family,
			.sdiag_protocol = IPPROTO_TCP,
			.idiag_states = ~0U,
			.id = {
				.idiag_sport = pport,
				.idiag_dport = lport,
				.idiag_cookie = { INET_DIAG_NOCOOKIE,
						  INET_DIAG_NOCOOKIE },
			},
		},
	};
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	size_t asize = family == AF_INET ? 4 : 16;
	union {
		struct nlmsghdr h;
		long buf[8192 / sizeof(long)];
	} u;
	struct pollfd pf;
	const struct nlmsghdr *h;
	ssize_t r;
	int fd, err = -ENOENT, len;

	memcpy(req.r.id.idiag_src, peer, asize);
	memcpy(req.r.id.idiag_dst, local, asize);
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return -errno;
	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		err = -errno;
		goto out;
	}
	pf = (struct pollfd){ fd, POLLIN, 0 };
	if (poll(&pf, 1, DIAG_MS) != 1) {
		err = -ETIMEDOUT;
		goto out;
	}
	r = recv(fd, u.buf, sizeof(u), MSG_DONTWAIT);
	if (r < 0) {
		err = -errno;
		goto out;
	}
	len = (int)r;
	for (h = &u.h; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
		const struct inet_diag_msg *m = NLMSG_DATA(h);

		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(h);

			if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(*e)) &&
			    e->error < 0)
				err = e->error;
			break;
		}
		if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
		    h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)))
			break;
		/* The one asked for, not a neighbour. */
		if (m->idiag_family != family || m->id.idiag_sport != pport ||
		    m->id.idiag_dport != lport ||
		    memcmp(m->id.idiag_src, peer, asize) ||
		    memcmp(m->id.idiag_dst, local, asize))
			continue;
		*uid = m->idiag_uid;
		*ino = m->idiag_inode;
		err = 0;
		break;
	}
out:
	close(fd);
	return err;
}

/* The processes that hold socket inode @ino (at most @max); the count. */
static int holders(unsigned long ino, pid_t *pids, int max)
{
	char want[64], path[300], link[64];
	struct dirent *pd, *fdd;
	DIR *proc = opendir("/proc"), *fds;
	int n = 0, k;

	if (!proc)
		return 0;
	k = snprintf(want, sizeof(want), "socket:[%lu]", ino);
	while ((pd = readdir(proc))) {
		pid_t pid = (pid_t)atoi(pd->d_name);
		bool has = false;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd", pid);
		fds = opendir(path);
		if (!fds)
			continue;
		while (!has && (fdd = readdir(fds))) {
			ssize_t l;

			if (fdd->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%d/fd/%s", pid,
				 fdd->d_name);
			l = readlink(path, link, sizeof(link));
			has = l == k && !memcmp(link, want, (size_t)k);
		}
		closedir(fds);
		if (has) {
			if (n < max)
				pids[n] = pid;
			n++;
		}
	}
	closedir(proc);
	return n;
}

static bool is_loopback(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)ss;

		return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
	}
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)ss;
		const uint8_t *a = in6->sin6_addr.s6_addr;

		if (IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr))
			return true;
		return IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr) && a[12] == 127;
	}
	return false;
}

/**
 * gdb_addr_loopback - is a listening address one only this host reaches?
 */
bool gdb_addr_loopback(const struct sockaddr *sa)
{
	struct sockaddr_storage ss;

	memset(&ss, 0, sizeof(ss));
	memcpy(&ss, sa, sa->sa_family == AF_INET6 ?
	       sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
	return is_loopback(&ss);
}

/* The socket of the other end of TCP connection @fd, as inet_diag keys it. */
static int tcp_diag(int fd, uid_t *uid, unsigned long *ino)
{
	struct sockaddr_storage ps, ls;
	socklen_t pl = sizeof(ps), ll = sizeof(ls);

	if (getpeername(fd, (struct sockaddr *)&ps, &pl) < 0 ||
	    getsockname(fd, (struct sockaddr *)&ls, &ll) < 0)
		return -errno;
	if (ps.ss_family == AF_INET) {
		const struct sockaddr_in *p = (void *)&ps, *l = (void *)&ls;

		return diag_lookup(AF_INET, &p->sin_addr, p->sin_port,
				   &l->sin_addr, l->sin_port, uid, ino);
	}
	if (ps.ss_family == AF_INET6) {
		const struct sockaddr_in6 *p = (void *)&ps, *l = (void *)&ls;
		int err = -ENOENT;

		/* A v4 peer of a v6 listener: its socket may be AF_INET. */
		if (IN6_IS_ADDR_V4MAPPED(&p->sin6_addr) &&
		    IN6_IS_ADDR_V4MAPPED(&l->sin6_addr))
			err = diag_lookup(AF_INET, p->sin6_addr.s6_addr + 12,
					  p->sin6_port,
					  l->sin6_addr.s6_addr + 12,
					  l->sin6_port, uid, ino);
		if (err == -ENOENT)
			err = diag_lookup(AF_INET6, &p->sin6_addr,
					  p->sin6_port, &l->sin6_addr,
					  l->sin6_port, uid, ino);
		return err;
	}
	return -EAFNOSUPPORT;
}

static int tcp_peer(struct gdbstub *s, int fd, struct gpeer *pe, char *why,
		    size_t n)
{
	struct utrace_cred c;
	unsigned long ino = 0;
	uid_t uid = 0;
	int err = tcp_diag(fd, &uid, &ino), i;

	if (err == -ENOENT && s->any_host) {
		/* Not this host's: served as gdbserver serves everyone. */
		snprintf(pe->name, sizeof(pe->name), "a remote peer");
		pe->known = false;
		return 0;
	}
	if (err) {
		snprintf(why, n, "the connecting socket cannot be found "
			 "(NETLINK_SOCK_DIAG: %s)", strerror(-err));
		return -EPERM;
	}
	pe->npids = holders(ino, pe->pids, GPEER_PIDS);
	snprintf(pe->name, sizeof(pe->name), "uid %u", (unsigned)uid);
	if (pe->npids > 0)
		snprintf(pe->name, sizeof(pe->name), "uid %u (pid %d)",
			 (unsigned)uid, pe->pids[0]);
	if (pe->npids == 0 || pe->npids > GPEER_PIDS) {
		snprintf(why, n, "%s: %s", pe->name, pe->npids ?
			 "its socket is held by too many processes" :
			 "no process holds its socket any more");
		return -EPERM;
	}
	for (i = 0; i < pe->npids; i++) {
		if (utrace_cred_read(pe->pids[i], i ? &c : &pe->cred)) {
			snprintf(why, n, "%s: its credentials cannot be read",
				 pe->name);
			return -EPERM;
		}
		/* Several holders: one set of credentials, or none served. */
		if (i && !same_creds(&c, &pe->cred)) {
			snprintf(why, n, "%s: its socket is shared by "
				 "processes with other credentials", pe->name);
			return -EPERM;
		}
	}
	pe->known = true;
	return 0;
}

/**
 * gdb_peer_identify - who connected on @fd, from the kernel
 * Returns 0 with @pe filled (pe->known false: a remote peer that
 * --gdb-any-host lets in unchecked), or -EPERM with @why saying why the
 * peer cannot be known.
 */
int gdb_peer_identify(struct gdbstub *s, int fd, struct gpeer *pe,
		      char *why, size_t n)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	memset(pe, 0, sizeof(*pe));
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0) {
		snprintf(why, n, "getsockname: %s", strerror(errno));
		return -EPERM;
	}
	if (ss.ss_family == AF_UNIX)
		return unix_peer(fd, pe, why, n);
	return tcp_peer(s, fd, pe, why, n);
}

/**
 * gdb_peer_admit - may the gdb that connected on @fd debug what the stub
 * debugs now (the processes it holds, or those the last gdb left)?
 * On success the peer is the stub's (s->peer); else @why says why not.
 */
bool gdb_peer_admit(struct gdbstub *s, int fd, char *why, size_t n)
{
	struct gpeer pe;
	struct gproc *p;
	int i;

	if (gdb_peer_identify(s, fd, &pe, why, n))
		return false;
	for (p = s->procs; p; p = p->next)
		if (p->active && !p->gone &&
		    gdb_peer_may(&pe, p->pid, why, n) == -EPERM)
			return false;
	for (i = 0; !s->active && i < s->nreleased; i++)
		if (gdb_peer_may(&pe, s->released[i].pid, why, n) == -EPERM)
			return false;
	s->peer = pe;
	return true;
}

/**
 * gdb_peer_may_run - vRun starts a program with utrace's credentials: the
 * peer must be one that could ptrace utrace itself (and so make it do
 * anything).  Returns 0 or -EPERM with @why.
 */
int gdb_peer_may_run(struct gdbstub *s, char *why, size_t n)
{
	int err = gdb_peer_may(&s->peer, getpid(), why, n);

	if (err)
		snprintf(why, n, "%s may not start programs as utrace (it "
			 "could not ptrace utrace)", s->peer.name);
	return err ? -EPERM : 0;
}

/**
 * gdb_peer_refuse - answer a request the peer may not make: E.errtext
 * (gdb prints it), and the reason on utrace's stderr.
 */
void gdb_peer_refuse(struct gdbstub *s, const char *why)
{
	char buf[240];

	fprintf(stderr, "utrace: gdb: refused: %s\n", why);
	snprintf(buf, sizeof(buf), "E.utrace: %s", why);
	gdb_send_packet(s, buf);
}

/**
 * gdb_peer_exec_ok - after an exec of process @p: may the connected peer
 * still debug it?  A set-user-ID or file-capability program runs with
 * its privileges under utrace's ptrace where it would not under the
 * peer's; then the peer loses the connection, the process runs on under
 * the other engines and utrace says so.  Returns false when it did that.
 */
bool gdb_peer_exec_ok(struct gdbstub *s, struct gproc *p)
{
	char why[200];

	if (s->cfd < 0 || gdb_peer_may(&s->peer, p->pid, why, sizeof(why)) !=
	    -EPERM)
		return true;
	fprintf(stderr, "utrace: gdb: process %d executed a program that %s "
		"may not debug: closing the connection\n", p->pid,
		s->peer.name);
	gdb_client_gone(s);
	return false;
}
