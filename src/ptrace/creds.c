// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ptrace as an engine (ptrace.h): who may trace whom.  The emulation
 * answers for the kernel, and the library (often root) is the real
 * ptracer, so it applies the kernel's rules itself, with the credentials
 * of the traced program that asks, never its own:
 *
 *   PTRACE_ATTACH and PTRACE_SEIZE: ptrace_may_access() with
 *   PTRACE_MODE_ATTACH_REALCREDS.  The caller's real uid and gid must be
 *   the target's real, effective and saved ones, or the caller needs
 *   CAP_SYS_PTRACE over the target's user namespace; a target that is
 *   not dumpable needs that capability too; the capability module wants
 *   the target's permitted set within the caller's (or the capability);
 *   Yama, where the kernel has it, adds its ptrace_scope (1: the target
 *   must descend from the caller, or have named it with PR_SET_PTRACER;
 *   2: the capability; 3: nobody).
 *
 *   PTRACE_TRACEME: the capability module's rule with the roles swapped
 *   (the caller's permitted set within its parent's, or the parent holds
 *   CAP_SYS_PTRACE over the caller's namespace), and Yama's 2 and 3.
 *
 * And at an exec: the kernel grants a set-user-ID or set-group-ID program,
 * or file capabilities, to a traced thread only if the link was made with
 * CAP_SYS_PTRACE (ptracer_capable: the attacher's; for PTRACE_TRACEME,
 * the tracee's own at that moment); otherwise it keeps the caller's ids
 * and no more capabilities than it had.  The real tracer here is the
 * library, so the kernel grants them: the emulation takes back, at the
 * exec's exit and before the program's first instruction, what the
 * kernel would not have given (utrace__pe_exec_*).
 *
 * Everything is read from /proc when the request comes.  Two things /proc
 * does not show are learnt from the traced programs' own prctl calls
 * (utrace__pe_prctl): PR_SET_PTRACER, and PR_SET_DUMPABLE for a target
 * whose files /proc shows as root's in any case.  utrace(7), "SECURITY",
 * lists what cannot be known.
 *
 * The decisions (utrace__pe_may_attach, utrace__pe_may_traceme) take what
 * was read and nothing else, so test/unit/ptrace_access checks them for
 * every Yama scope on any host.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <linux/nsfs.h>

#include "core/proc.h"
#include "ptrace/ptrace.h"

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

/**
 * utrace__pe_cred_read - a thread's credentials as the kernel holds them
 * @tid: the thread (credentials are a thread's own)
 * Returns 0, or -ESRCH when it is gone.
 */
int utrace__pe_cred_read(pid_t tid, struct pe_cred *c)
{
	char buf[4096], path[64];
	unsigned u[4], g[4];
	const char *s;
	struct stat st;

	memset(c, 0, sizeof(*c));
	if (!utrace__proc_status(tid, buf, sizeof(buf)) ||
	    !ids(buf, "Uid", u) || !ids(buf, "Gid", g) ||
	    !caps(buf, "CapPrm", &c->cap_prm) ||
	    !caps(buf, "CapEff", &c->cap_eff) ||
	    !caps(buf, "CapInh", &c->cap_inh))
		return -ESRCH;
	for (int i = 0; i < 4; i++) {
		c->uid[i] = u[i];
		c->gid[i] = g[i];
	}
	s = utrace__proc_field(buf, "Groups");
	while (s && c->ngroups < PE_NGROUPS) {
		char *end;
		unsigned long v = strtoul(s, &end, 10);

		if (end == s)
			break;
		c->groups[c->ngroups++] = (gid_t)v;
		s = end;
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/user", tid);
	if (stat(path, &st) == 0) {
		c->userns_dev = st.st_dev;
		c->userns_ino = st.st_ino;
	}
	return 0;
}

/* -- Namespaces ------------------------------------------------------------ */

static bool same_ns(const struct stat *st, const struct pe_cred *c)
{
	return st->st_dev == c->userns_dev && st->st_ino == c->userns_ino;
}

/**
 * utrace__pe_capable - does @c hold capability @cap over the user
 * namespace of thread @tid, as the kernel's cap_capable() decides?
 * In its own namespace, if it is effective; in a namespace below its own,
 * if it holds it in its own or owns the namespace just below its own
 * that leads there.
 */
bool utrace__pe_capable(const struct pe_cred *c, int cap, pid_t tid)
{
	char path[64];
	struct stat st;
	bool r = false;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/ns/user", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	for (;;) {
		int parent;
		uid_t owner;

		if (fstat(fd, &st))
			break;
		if (same_ns(&st, c)) {
			r = c->cap_eff & CAP_BIT(cap);
			break;
		}
		parent = ioctl(fd, NS_GET_PARENT);
		if (parent < 0)
			break;	/* the top, or above ours: not below c's */
		if (fstat(parent, &st) == 0 && same_ns(&st, c) &&
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

/* -- Dumpable -------------------------------------------------------------- */

/*
 * /proc makes a process's files (not its directory) root's when it is not
 * dumpable (task_dump_owner); so a target whose effective ids are not
 * root's is known.  For one whose are, only its own prctl calls tell
 * (pe_prctl, since its last exec).
 */
static bool dumpable(struct pe_thread *q, const struct pe_cred *t)
{
	struct pe_thread *lead = utrace__pe_find(q->pe, q->tgid);
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/status", q->tid);
	if (stat(path, &st) == 0 &&
	    (st.st_uid != t->uid[1] || st.st_gid != t->gid[1]))
		return false;
	return !(lead && lead->dump == PD_NO);
}

/* -- Yama ------------------------------------------------------------------ */

/* Yama's ptrace_scope, or -1 where the kernel has no Yama. */
int utrace__pe_yama_scope(void)
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

/* Is process @pid @anc, or does it descend from it (its real parents)? */
static bool descends(pid_t pid, pid_t anc)
{
	for (int depth = 0; pid > 0 && depth < 4096; depth++) {
		if (pid == anc)
			return true;
		pid = utrace__proc_ppid(pid);
	}
	return false;
}

/*
 * Yama's exception: the target's process named the caller's process, or
 * one it descends from, with PR_SET_PTRACER (or named any).  The
 * relation ends with the named thread.
 */
static bool ptracer_exception(struct pe_thread *p, struct pe_thread *q)
{
	struct pe_thread *lead = utrace__pe_find(q->pe, q->tgid);
	pid_t anc;

	if (!lead || !lead->ptracer)
		return false;
	if (lead->ptracer == -1)
		return true;
	anc = utrace__proc_tgid(lead->ptracer);
	return anc > 0 && descends(p->tgid, anc);
}

/* -- The decisions --------------------------------------------------------- */

/**
 * utrace__pe_may_attach - ptrace_may_access(PTRACE_MODE_ATTACH_REALCREDS)
 * @a: the caller's and the target's credentials, and what else counts
 * Returns 0 or -EPERM.  Pure: it decides from @a alone.
 */
int utrace__pe_may_attach(const struct pe_access *a)
{
	const struct pe_cred *c = &a->caller, *t = &a->target;
	bool ids_ok = c->uid[0] == t->uid[0] && c->uid[0] == t->uid[1] &&
		      c->uid[0] == t->uid[2] && c->gid[0] == t->gid[0] &&
		      c->gid[0] == t->gid[1] && c->gid[0] == t->gid[2];

	/* __ptrace_may_access */
	if (!ids_ok && !a->cap_over_target)
		return -EPERM;
	if (!a->dumpable && !a->cap_over_target)
		return -EPERM;
	/* cap_ptrace_access_check: REALCREDS weighs the permitted set */
	if (!(a->same_userns && !(t->cap_prm & ~c->cap_prm)) &&
	    !a->cap_over_target)
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
 * utrace__pe_may_traceme - security_ptrace_traceme(parent) for the caller
 * @a: caller (the would-be tracee) and target (its parent, the tracer);
 *     cap_over_target: the parent holds CAP_SYS_PTRACE over the caller's
 *     namespace
 * Returns 0 or -EPERM.  Pure.
 */
int utrace__pe_may_traceme(const struct pe_access *a)
{
	const struct pe_cred *c = &a->caller, *parent = &a->target;

	/* cap_ptrace_traceme */
	if (!(a->same_userns && !(c->cap_prm & ~parent->cap_prm)) &&
	    !a->cap_over_target)
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
 * utrace__pe_check_attach - may the traced thread @p attach @q?
 * Reads both credentials now; @cap_out (may be NULL) is set to whether
 * @p holds CAP_SYS_PTRACE over @q's namespace, which the kernel keeps
 * with the link (ptracer_capable) for @q's set-user-ID execs.
 * Returns 0, -EPERM, or -ESRCH when either is gone.
 */
int utrace__pe_check_attach(struct pe_thread *p, struct pe_thread *q,
			    bool *cap_out)
{
	struct pe_access a;

	memset(&a, 0, sizeof(a));
	if (utrace__pe_cred_read(p->tid, &a.caller) ||
	    utrace__pe_cred_read(q->tid, &a.target))
		return -ESRCH;
	a.same_userns = a.caller.userns_dev == a.target.userns_dev &&
			a.caller.userns_ino == a.target.userns_ino;
	a.cap_over_target = utrace__pe_capable(&a.caller, CAP_SYS_PTRACE,
					       q->tid);
	a.dumpable = dumpable(q, &a.target);
	a.yama = utrace__pe_yama_scope();
	if (a.yama == 1) {
		a.descendant = descends(q->tgid, p->tgid);
		a.exception = ptracer_exception(p, q);
	}
	if (cap_out)
		*cap_out = a.cap_over_target;
	return utrace__pe_may_attach(&a);
}

/**
 * utrace__pe_check_traceme - may @p (PTRACE_TRACEME) be traced by @parent?
 * @cap_out: whether the link counts as capable for @p's set-user-ID
 *	execs: for PTRACE_TRACEME Linux keeps the tracee's own credentials
 *	with the link (ptrace_link from the tracee's side), so its own
 *	CAP_SYS_PTRACE decides, not the parent's (seen with
 *	test/progs/pt_perm: a nobody child of a root parent is not granted
 *	a set-user-ID exec; one that called PTRACE_TRACEME as root and
 *	dropped to nobody after is).
 * Returns 0, -EPERM or -ESRCH.
 */
int utrace__pe_check_traceme(struct pe_thread *p, struct pe_thread *parent,
			     bool *cap_out)
{
	struct pe_access a;

	memset(&a, 0, sizeof(a));
	if (utrace__pe_cred_read(p->tid, &a.caller) ||
	    utrace__pe_cred_read(parent->tid, &a.target))
		return -ESRCH;
	a.same_userns = a.caller.userns_dev == a.target.userns_dev &&
			a.caller.userns_ino == a.target.userns_ino;
	a.cap_over_target = utrace__pe_capable(&a.target, CAP_SYS_PTRACE,
					       p->tid);
	a.yama = utrace__pe_yama_scope();
	if (cap_out)
		*cap_out = utrace__pe_capable(&a.caller, CAP_SYS_PTRACE,
					      p->tid);
	return utrace__pe_may_traceme(&a);
}

/* -- What the programs' prctl calls tell ----------------------------------- */

/**
 * utrace__pe_prctl - a traced thread's prctl returned @ret
 * PR_SET_PTRACER (only where Yama takes it: elsewhere it fails) and
 * PR_SET_DUMPABLE are kept on its process's record for the checks above.
 */
void utrace__pe_prctl(struct pe_thread *p, const uint64_t args[6], long ret)
{
	struct pe_thread *lead = utrace__pe_find(p->pe, p->tgid);

	if (ret || !lead)
		return;
	switch (args[0]) {
	case PR_SET_PTRACER:
		lead->ptracer = (int)args[1] == -1 ? -1 : (pid_t)args[1];
		break;
	case PR_SET_DUMPABLE:
		lead->dump = args[1] == 1 ? PD_YES : PD_NO;
		break;
	default:
		break;
	}
}

/* -- What an exec may grant ------------------------------------------------ */

/**
 * utrace__pe_exec_entry - an inner tracee enters execve or execveat
 * Its credentials before the exec, if its tracer could not have let it
 * gain any (set_syscalls watches these calls only then).
 */
void utrace__pe_exec_entry(struct pe_thread *p)
{
	p->exec_old_valid = p->tracer && !p->link_capable &&
			    utrace__pe_cred_read(p->tid, &p->exec_old) == 0;
}

/* Could @c read the file /proc/@tid/exe names (would_dump)? */
static bool exe_readable(pid_t tid, const struct pe_cred *c)
{
	char path[64];
	struct stat st;
	bool group;

	snprintf(path, sizeof(path), "/proc/%d/exe", tid);
	if (stat(path, &st))
		return true;
	group = st.st_gid == c->gid[3];
	if (c->cap_eff & (CAP_BIT(CAP_DAC_OVERRIDE) |
			  CAP_BIT(CAP_DAC_READ_SEARCH)))
		return true;
	if (st.st_uid == c->uid[3])
		return st.st_mode & S_IRUSR;
	for (int i = 0; i < c->ngroups && !group; i++)
		group = st.st_gid == c->groups[i];
	if (group)
		return st.st_mode & S_IRGRP;
	return st.st_mode & S_IROTH;
}

/**
 * utrace__pe_exec_event - the exec event of an inner tracee
 * What it gained by the exec that the kernel would not have granted under
 * its tracer (cap_bprm_creds_from_file's downgrade): its ids back to the
 * real ones unless it held CAP_SETUID, its permitted capabilities cut to
 * what it had.  Noted for the exec's exit (utrace__pe_exec_exit), which
 * the caller makes sure comes to the engine.
 */
void utrace__pe_exec_event(struct pe_thread *p)
{
	const struct pe_cred *old = &p->exec_old;
	struct pe_cred now, *to = &p->drop_to;

	p->drop = false;
	if (!p->exec_old_valid)
		return;
	p->exec_old_valid = false;
	if (utrace__pe_cred_read(p->tid, &now) ||
	    (now.uid[1] == old->uid[1] && now.gid[1] == old->gid[1] &&
	     !(now.cap_prm & ~old->cap_prm)))
		return;
	*to = now;
	if (!(old->cap_eff & CAP_BIT(CAP_SETUID))) {
		to->uid[1] = to->uid[2] = to->uid[3] = old->uid[0];
		to->gid[1] = to->gid[2] = to->gid[3] = old->gid[0];
	}
	to->cap_prm = now.cap_prm & old->cap_prm;
	/* The file's effective bit (or root's) made effective = permitted. */
	to->cap_eff = now.cap_eff == now.cap_prm ? to->cap_prm :
		      now.cap_eff & to->cap_prm;
	/* begin_new_exec and commit_creds: dumpable unless ids moved. */
	p->drop_dumpable = exe_readable(p->tid, old) &&
			   old->uid[1] == old->uid[0] &&
			   old->gid[1] == old->gid[0] &&
			   to->uid[1] == old->uid[1] &&
			   to->gid[1] == old->gid[1] &&
			   to->uid[3] == old->uid[3] &&
			   to->gid[3] == old->gid[3];
	p->drop = true;
}

/* One system call in the tracee: its result, or -ESRCH. */
static long call(struct pe_thread *p, long nr, uint64_t a0, uint64_t a1,
		 uint64_t a2)
{
	uint64_t args[6] = { a0, a1, a2, 0, 0, 0 };
	long ret;
	int err = utrace__engine_run_syscall(p->e, nr, args, &ret);

	return err ? err : ret;
}

/*
 * Drop to @to with the tracee's own calls: the group ids first (while it
 * may still set them), the user ids keeping the permitted set the kernel
 * would have left, then the capability sets.  @scratch: where the capset
 * arguments go (below the stack's red zone).  0 or -errno.
 */
static long drop_to(struct pe_thread *p, const struct pe_cred *now,
		    const struct pe_cred *to, uint64_t scratch)
{
	struct {
		struct __user_cap_header_struct h;
		struct __user_cap_data_struct d[2];
	} cs;
	bool ids = to->uid[1] != now->uid[1] || to->uid[2] != now->uid[2];
	long r = 0;

	if (to->gid[1] != now->gid[1] || to->gid[2] != now->gid[2])
		r = call(p, SYS_setresgid, (uint64_t)-1, to->gid[1],
			 to->gid[2]);
	if (!r && ids && to->cap_prm)
		r = call(p, SYS_prctl, PR_SET_KEEPCAPS, 1, 0);
	if (!r && ids)
		r = call(p, SYS_setresuid, (uint64_t)-1, to->uid[1],
			 to->uid[2]);
	memset(&cs, 0, sizeof(cs));
	cs.h.version = _LINUX_CAPABILITY_VERSION_3;
	for (int i = 0; i < 2; i++) {
		cs.d[i].effective = (uint32_t)(to->cap_eff >> (32 * i));
		cs.d[i].permitted = (uint32_t)(to->cap_prm >> (32 * i));
		cs.d[i].inheritable = (uint32_t)(now->cap_inh >> (32 * i));
	}
	if (!r && utrace_mem_write(p->e, scratch, &cs, sizeof(cs)) !=
	    (ssize_t)sizeof(cs))
		r = -EFAULT;
	if (!r)
		r = call(p, SYS_capset, scratch, scratch + sizeof(cs.h), 0);
	if (!r && ids && to->cap_prm)
		r = call(p, SYS_prctl, PR_SET_KEEPCAPS, 0, 0);
	if (!r && p->drop_dumpable)
		r = call(p, SYS_prctl, PR_SET_DUMPABLE, 1, 0);
	return r;
}

/**
 * utrace__pe_exec_exit - the exit of an execve that gained too much
 * Before the program's first instruction: the drop noted at the exec
 * event.  Should it fail (a filter of the program's own refusing one of
 * these calls), the process is killed rather than left running with
 * privileges its tracer may not hold.
 */
void utrace__pe_exec_exit(struct pe_thread *p)
{
	const struct pe_cred *to = &p->drop_to;
	struct user_regs_struct r;
	struct pe_cred now;
	uint64_t scratch;
	char keep[64];
	long err;

	p->drop = false;
	if (!p->e || utrace_regs_get(p->e, &r) ||
	    utrace__pe_cred_read(p->tid, &now))
		goto kill;
	scratch = (r.rsp - 512) & ~15UL;
	if (utrace_mem_read(p->e, scratch, keep, sizeof(keep)) !=
	    (ssize_t)sizeof(keep))
		goto kill;
	err = drop_to(p, &now, to, scratch);
	utrace_mem_write(p->e, scratch, keep, sizeof(keep));
	if (err || utrace__pe_cred_read(p->tid, &now) ||
	    now.uid[1] != to->uid[1] || now.uid[2] != to->uid[2] ||
	    now.gid[1] != to->gid[1] || now.gid[2] != to->gid[2] ||
	    now.cap_prm != to->cap_prm || now.cap_eff != to->cap_eff)
		goto kill;
	return;
kill:
	syscall(SYS_tgkill, p->tgid, p->tid, SIGKILL);
}
