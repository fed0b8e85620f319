// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * May this caller ptrace that thread?  The library often runs as root and
 * is the real tracer of everything it traces, so the kernel's own checks
 * between a program and what it reaches through the library never run.
 * Each way in (the emulated ptrace, the sharing socket, the command's gdb
 * port) asks here, with the credentials of the one asking:
 *
 *   ptrace_may_access() with PTRACE_MODE_ATTACH_REALCREDS
 *   (utrace__may_attach): the caller's real uid and gid are the
 *   target's real, effective and saved ones, or the caller holds
 *   CAP_SYS_PTRACE over the target's user namespace; a target that is
 *   not dumpable needs that capability too; the capability module wants
 *   the target's permitted set within the caller's in the same user
 *   namespace (or the capability); Yama, where the kernel has it, adds
 *   its ptrace_scope (1: the target descends from the caller, or named it
 *   with PR_SET_PTRACER, or the capability; 2: the capability; 3: no one).
 *   no_new_privs does not matter.
 *
 *   PTRACE_TRACEME (utrace__may_traceme): the capability module's rule
 *   with the roles swapped, and Yama's 2 and 3.
 *
 * The decisions take what was read and nothing else, so test/unit/
 * ptrace_access checks them for every Yama scope on any host; what they
 * read comes from /proc when the question is asked (utrace__access_read).
 * What /proc does not show (PR_SET_PTRACER, PR_SET_DUMPABLE of a root
 * process) only the emulation learns, from the traced programs' own
 * prctl calls: it adds that to what was read before deciding.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/capability.h>
#include <linux/nsfs.h>

#include "core/creds.h"
#include "core/layer.h"
#include "core/proc.h"

#define CAP_BIT(c)	(1ULL << (c))

/* -- Reading credentials --------------------------------------------------- */

static bool ids(const char *buf, const char *name, unsigned v[4])
{
	const char *s = utrace__proc_field(buf, name);

	return s && sscanf(s, "%u %u %u %u", &v[0], &v[1], &v[2], &v[3]) == 4;
}

static bool caps(const char *buf, const char *name, uint64_t *v)
{
	const char *s = utrace__proc_field(buf, name);
	unsigned long long x;

	if (!s || sscanf(s, "%llx", &x) != 1)
		return false;
	*v = x;
	return true;
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
 * The user namespace of @tid, as /proc/TID/ns/user names it.  Looking
 * there needs ptrace read access; a process we may not look at (one that
 * is not dumpable, the library unprivileged) is taken to be in ours when
 * its uid and gid maps, which anyone may read, read the same as ours.
 * Left 0 (not known: never the same as another's) otherwise.
 */
static void userns_of(pid_t tid, struct utrace_cred *c)
{
	char path[64], map[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/user", tid);
	if (stat(path, &st) < 0) {
		snprintf(map, sizeof(map), "/proc/%d/uid_map", tid);
		if (!same_text(map, "/proc/self/uid_map"))
			return;
		snprintf(map, sizeof(map), "/proc/%d/gid_map", tid);
		if (!same_text(map, "/proc/self/gid_map") ||
		    stat("/proc/self/ns/user", &st) < 0)
			return;
	}
	c->userns_dev = st.st_dev;
	c->userns_ino = st.st_ino;
}

/**
 * utrace_cred_read - a thread's credentials as the kernel holds them now
 * (ids as this process's namespace sees them).  Public: utrace_may_ptrace(3).
 * Returns 0, -EINVAL, or -ESRCH when the thread is gone.
 */
UTRACE_EXPORT int utrace_cred_read(pid_t tid, struct utrace_cred *c)
{
	char buf[8192];
	unsigned u[4], g[4];
	const char *s;

	if (!c || tid <= 0)
		return c && tid <= 0 ? -ESRCH : -EINVAL;
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	if (!utrace__proc_status(tid, buf, sizeof(buf)) ||
	    !ids(buf, "Uid", u) || !ids(buf, "Gid", g) ||
	    !caps(buf, "CapPrm", &c->cap_prm) ||
	    !caps(buf, "CapEff", &c->cap_eff) ||
	    !caps(buf, "CapInh", &c->cap_inh) ||
	    !(s = utrace__proc_field(buf, "Tgid")))
		return -ESRCH;
	c->pid = (pid_t)atoi(s);
	for (int i = 0; i < 4; i++) {
		c->uid[i] = u[i];
		c->gid[i] = g[i];
	}
	s = utrace__proc_field(buf, "Groups");
	while (s && c->ngroups < UTRACE_CRED_NGROUPS) {
		char *end;
		unsigned long v = strtoul(s, &end, 10);

		if (end == s)
			break;
		c->groups[c->ngroups++] = (gid_t)v;
		s = end;
	}
	userns_of(tid, c);
	return 0;
}

/* -- Namespaces ------------------------------------------------------------ */

static bool in_ns(const struct stat *st, const struct utrace_cred *c)
{
	return c->userns_ino && st->st_dev == c->userns_dev &&
	       st->st_ino == c->userns_ino;
}

/**
 * utrace__capable - does @c hold capability @cap over the user namespace
 * of thread @tid, as the kernel's cap_capable() decides?
 * In its own namespace, if it is effective; in a namespace below its own,
 * if it holds it in its own or owns the namespace just below its own
 * that leads there.
 */
bool utrace__capable(const struct utrace_cred *c, int cap, pid_t tid)
{
	char path[64];
	struct stat st;
	bool r = false;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/ns/user", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		/*
		 * One we may not look at (not dumpable, the library not
		 * privileged): its namespace only as its maps tell.
		 */
		struct utrace_cred t = { .userns_ino = 0 };

		userns_of(tid, &t);
		return t.userns_ino && t.userns_dev == c->userns_dev &&
		       t.userns_ino == c->userns_ino &&
		       (c->cap_eff & CAP_BIT(cap));
	}
	for (;;) {
		int parent;
		uid_t owner;

		if (fstat(fd, &st))
			break;
		if (in_ns(&st, c)) {
			r = c->cap_eff & CAP_BIT(cap);
			break;
		}
		parent = ioctl(fd, NS_GET_PARENT);
		if (parent < 0)
			break;	/* the top, or above ours: not below c's */
		if (fstat(parent, &st) == 0 && in_ns(&st, c) &&
		    ioctl(fd, NS_GET_OWNER_UID, &owner) == 0 &&
		    owner == c->uid[1]) {
			close(parent);
			r = true;
			break;
		}
		close(fd);
		fd = parent;
	}
	close(fd);
	return r;
}

/* -- Dumpable, Yama -------------------------------------------------------- */

/*
 * /proc makes a process's files (not its directory) root's when it is not
 * dumpable (task_dump_owner); so a target whose effective ids are not
 * root's is known.  For one whose are, only its own prctl calls tell.
 */
static bool dumpable(pid_t tid, const struct utrace_cred *t)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	return stat(path, &st) < 0 ||
	       (st.st_uid == t->uid[1] && st.st_gid == t->gid[1]);
}

/* Yama's ptrace_scope, or -1 where the kernel has no Yama. */
int utrace__yama_scope(void)
{
	char buf[16];
	ssize_t n;
	int fd = open("/proc/sys/kernel/yama/ptrace_scope",
		      O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return atoi(buf);
}

/*
 * Is process @pid @anc, or does it descend from it (its real parents:
 * PPid is the real parent's, never the tracer's)?  Yama's
 * task_is_descendant.
 */
bool utrace__descends(pid_t pid, pid_t anc)
{
	for (int depth = 0; pid > 0 && anc > 0 && depth < 4096; depth++) {
		if (pid == anc)
			return true;
		pid = utrace__proc_ppid(pid);
	}
	return false;
}

/* -- The decisions --------------------------------------------------------- */

static bool same_userns(const struct utrace_cred *a,
			const struct utrace_cred *b)
{
	return a->userns_ino && a->userns_dev == b->userns_dev &&
	       a->userns_ino == b->userns_ino;
}

/**
 * utrace__may_attach - ptrace_may_access(PTRACE_MODE_ATTACH_REALCREDS)
 * @a: the caller's and the target's credentials, and what else counts
 * Returns 0 or -EPERM.  Pure: it decides from @a alone.
 */
int utrace__may_attach(const struct utrace__access *a)
{
	const struct utrace_cred *c = &a->caller, *t = &a->target;
	bool ids_ok = c->uid[0] == t->uid[0] && c->uid[0] == t->uid[1] &&
		      c->uid[0] == t->uid[2] && c->gid[0] == t->gid[0] &&
		      c->gid[0] == t->gid[1] && c->gid[0] == t->gid[2];

	/* __ptrace_may_access */
	if (!a->cap_over_target && (!ids_ok || !a->dumpable))
		return -EPERM;
	/* cap_ptrace_access_check: REALCREDS weighs the permitted set */
	if (!a->cap_over_target &&
	    !(same_userns(c, t) && !(t->cap_prm & ~c->cap_prm)))
		return -EPERM;
	/* yama_ptrace_access_check */
	switch (a->yama) {
	case -1:
	case 0:
		return 0;
	case 1:
		return a->descendant || a->exception || a->cap_over_target ?
		       0 : -EPERM;
	case 2:
		return a->cap_over_target ? 0 : -EPERM;
	default:
		return -EPERM;
	}
}

/**
 * utrace__may_traceme - security_ptrace_traceme(parent) for the caller
 * @a: caller (the would-be tracee) and target (its parent, the tracer);
 *     cap_over_target: the parent holds CAP_SYS_PTRACE over the caller's
 *     namespace
 * Returns 0 or -EPERM.  Pure.
 */
int utrace__may_traceme(const struct utrace__access *a)
{
	const struct utrace_cred *c = &a->caller, *parent = &a->target;

	/* cap_ptrace_traceme */
	if (!a->cap_over_target &&
	    !(same_userns(c, parent) && !(c->cap_prm & ~parent->cap_prm)))
		return -EPERM;
	/* yama_ptrace_traceme */
	if (a->yama == 2 && !a->cap_over_target)
		return -EPERM;
	if (a->yama >= 3)
		return -EPERM;
	return 0;
}

/* -- The checks ------------------------------------------------------------ */

/**
 * utrace__access_read - what utrace__may_attach weighs for @caller and
 * thread @tid, read now: the target's credentials, whether @caller holds
 * CAP_SYS_PTRACE over its namespace, whether its process is dumpable (as
 * far as /proc shows), Yama's scope and, for scope 1, whether it
 * descends from @caller's process (@caller->pid).  The exception of
 * PR_SET_PTRACER is left false: /proc does not show it.
 * Returns 0, or -ESRCH when @tid is gone.
 */
int utrace__access_read(const struct utrace_cred *caller, pid_t tid,
			struct utrace__access *a)
{
	memset(a, 0, sizeof(*a));
	a->caller = *caller;
	if (utrace_cred_read(tid, &a->target))
		return -ESRCH;
	a->cap_over_target = utrace__capable(caller, CAP_SYS_PTRACE, tid);
	a->dumpable = dumpable(tid, &a->target);
	a->yama = utrace__yama_scope();
	if (a->yama == 1)
		a->descendant = utrace__descends(a->target.pid, caller->pid);
	return 0;
}

static int may_thread(const struct utrace_cred *c, pid_t tid)
{
	struct utrace__access a;
	int err = utrace__access_read(c, tid, &a);

	return err ? err : utrace__may_attach(&a);
}

/**
 * utrace_may_ptrace - could the holder of @c PTRACE_ATTACH thread @tid
 * (with UTRACE_MAY_PROCESS: every thread of its process)?
 * Returns 0, -EPERM, -EINVAL, or -ESRCH when @tid is gone (threads of
 * its process that end meanwhile do not count).
 */
UTRACE_EXPORT int utrace_may_ptrace(const struct utrace_cred *c, pid_t tid,
				 unsigned flags)
{
	char path[64];
	struct dirent *d;
	pid_t tgid;
	DIR *dir;
	int err;

	if (!c || c->size != sizeof(*c) || (flags & ~UTRACE_MAY_PROCESS) ||
	    c->ngroups < 0 || c->ngroups > UTRACE_CRED_NGROUPS)
		return -EINVAL;
	if (tid <= 0)
		return -ESRCH;
	err = may_thread(c, tid);
	if (err || !(flags & UTRACE_MAY_PROCESS))
		return err;
	tgid = utrace__proc_tgid(tid);
	if (tgid <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/task", tgid);
	dir = opendir(path);
	if (!dir)
		return -ESRCH;
	while (!err && (d = readdir(dir))) {
		pid_t t = (pid_t)atoi(d->d_name);

		if (t <= 0 || t == tid)
			continue;
		err = may_thread(c, t);
		if (err == -ESRCH)
			err = 0;	/* it ended meanwhile */
	}
	closedir(dir);
	return err;
}
