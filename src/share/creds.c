// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Who may watch what through a serving tracer: a joiner gets what the
 * kernel's ptrace would give it (the library's one rule, core/creds.h),
 * judged from its credentials as the kernel knows them (SO_PEERCRED and
 * its /proc), never from what it says (docs/PROTOCOL.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "core/proc.h"
#include "share/serve.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

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

/*
 * The peer's credentials, from the kernel (never from what it says): the
 * pid, uid and gid of SO_PEERCRED, the rest from /proc/PID.  They count
 * (cred_ok) only if /proc shows the same process with the same effective
 * ids, and, with a pidfd (Linux 6.5), if that pid was still the peer's
 * when they were read; else the peer may watch nothing.
 */
int utrace__peer_creds(struct sconn *c)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);
	int pidfd = -1;

	if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0)
		return -errno;
	c->pid = cr.pid;
	c->uid = cr.uid;
	c->gid = cr.gid;
	len = sizeof(pidfd);
	if (getsockopt(c->fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &len) < 0)
		pidfd = -1;
	c->cred_ok = utrace_cred_read(c->pid, &c->cred) == 0 &&
		     c->cred.pid == c->pid && c->cred.uid[1] == c->uid &&
		     c->cred.gid[1] == c->gid;
	if (pidfd >= 0) {
		if (pidfd_pid(pidfd) != c->pid)
			c->cred_ok = false;	/* gone: PID may be another */
		close(pidfd);
	}
	return 0;
}

/*
 * May the peer watch @tid (with UTRACE_WATCH_PROCESS, every thread of its
 * process)?  0 or -EPERM.  A thread that is gone passes: the queue says
 * -ESRCH.
 */
int utrace__may_trace_all(const struct sconn *c, pid_t tid, unsigned flags)
{
	int err;

	if (!c->cred_ok)
		return utrace__proc_alive(tid) ? -EPERM : 0;
	err = utrace_may_ptrace(&c->cred, tid, flags & UTRACE_WATCH_PROCESS ?
				UTRACE_MAY_PROCESS : 0);
	return err == -ESRCH ? 0 : err;
}
