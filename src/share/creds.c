// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Who may watch what through a serving tracer: a joiner gets what the
 * kernel's ptrace would give it, judged from its credentials as the kernel
 * knows them (SO_PEERCRED), never from what it says (docs/PROTOCOL.md).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "core/proc.h"
#include "share/serve.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

#define CAP_SYS_PTRACE_BIT 19

static bool cap_ptrace_of(const char *status)
{
	const char *v = utrace__proc_field(status, "CapEff");

	return v && (strtoull(v, NULL, 16) >> CAP_SYS_PTRACE_BIT) & 1;
}

/* CapPrm: what capabilities the kernel weighs for PTRACE_MODE_REALCREDS. */
static uint64_t cap_prm_of(const char *status)
{
	const char *v = utrace__proc_field(status, "CapPrm");

	return v ? strtoull(v, NULL, 16) : 0;
}

static bool same_text(const char *a, const char *b)
{
	char x[1024], y[1024];
	ssize_t n, m;
	int fa = open(a, O_RDONLY | O_CLOEXEC), fb = open(b, O_RDONLY | O_CLOEXEC);

	n = fa >= 0 ? read(fa, x, sizeof(x)) : -1;
	m = fb >= 0 ? read(fb, y, sizeof(y)) : -1;
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return n >= 0 && n == m && !memcmp(x, y, (size_t)n);
}

/*
 * The user namespace of @pid, as /proc/PID/ns/user names it.  Looking
 * there needs ptrace read access; a peer we may not look at (one that is
 * not dumpable) is taken to be in ours when its uid and gid maps, which
 * anyone may read, read the same as ours.
 */
static bool userns_of(pid_t pid, dev_t *dev, ino_t *ino)
{
	char path[64], map[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/user", pid);
	if (stat(path, &st) < 0) {
		snprintf(map, sizeof(map), "/proc/%d/uid_map", pid);
		if (!same_text(map, "/proc/self/uid_map"))
			return false;
		snprintf(map, sizeof(map), "/proc/%d/gid_map", pid);
		if (!same_text(map, "/proc/self/gid_map") ||
		    stat("/proc/self/ns/user", &st) < 0)
			return false;
	}
	*dev = st.st_dev;
	*ino = st.st_ino;
	return true;
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
int utrace__peer_creds(struct sconn *c)
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
	if (utrace__proc_status(c->pid, buf, sizeof(buf))) {
		c->cap_ptrace = cap_ptrace_of(buf);
		c->cap_prm = cap_prm_of(buf);
	}
	userns_of(c->pid, &c->userns_dev, &c->userns_ino);
	if (pidfd >= 0) {
		if (pidfd_pid(pidfd) != c->pid) {
			/* gone: PID may be another */
			c->cap_ptrace = false;
			c->cap_prm = 0;
			c->userns_dev = 0;
			c->userns_ino = 0;
		}
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
	for (int depth = 0; depth < 4096 && pid > 1; depth++) {
		if (pid == ancestor)
			return true;
		pid = utrace__proc_ppid(pid);	/* 0 once gone */
	}
	return false;
}

/*
 * Could the peer ptrace @tid itself?  Same uid and gid as every one of the
 * process's, the process dumpable (else the kernel makes the files of
 * /proc/PID root's), and the thread's permitted capabilities within the
 * peer's in the same user namespace (cap_ptrace_access_check: root
 * without CAP_SYS_PTRACE may not trace root's processes that hold it);
 * or CAP_SYS_PTRACE; and Yama's ptrace_scope where it is stricter.  A
 * thread that is gone passes: the queue says -ESRCH.
 */
static int may_trace(const struct sconn *c, pid_t tid)
{
	char buf[4096], path[64];
	int scope = yama_scope();
	const char *v;
	struct stat st;
	dev_t ns_dev;
	ino_t ns_ino;
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
	if ((cap_prm_of(buf) & ~c->cap_prm) ||
	    !userns_of(tid, &ns_dev, &ns_ino) || ns_dev != c->userns_dev ||
	    ns_ino != c->userns_ino)
		return -EPERM;
	if (scope == 1 && !descends_from(tgid, c->pid))
		return -EPERM;
	return 0;
}

/* Every thread of @tid's process must pass for a process-wide watch. */
int utrace__may_trace_all(const struct sconn *c, pid_t tid, unsigned flags)
{
	int err = may_trace(c, tid);
	char path[64];
	struct dirent *d;
	pid_t tgid;
	DIR *dir;

	if (err || !(flags & UTRACE_WATCH_PROCESS))
		return err;
	tgid = utrace__proc_tgid(tid);
	if (tgid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/task", tgid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!err && (d = readdir(dir)))
		if (atoi(d->d_name) > 0)
			err = may_trace(c, atoi(d->d_name));
	closedir(dir);
	return err;
}
