// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ptrace as an engine (ptrace.h): who may trace whom.  The emulation
 * answers for the kernel, and the library (often root) is the real
 * ptracer, so it applies the kernel's rules itself, with the credentials
 * of the traced program that asks, never its own.  The rules are the
 * library's one copy (core/creds.h: ptrace_may_access with
 * PTRACE_MODE_ATTACH_REALCREDS for PTRACE_ATTACH and PTRACE_SEIZE, the
 * capability module's and Yama's checks for PTRACE_TRACEME); what this
 * file adds is what only the emulation knows, learnt from the traced
 * programs' own prctl calls (utrace__pe_prctl): PR_SET_PTRACER, and
 * PR_SET_DUMPABLE for a target whose files /proc shows as root's in any
 * case.  utrace(7), "SECURITY", lists what cannot be known.
 *
 * And at an exec: the kernel grants a set-user-ID or set-group-ID program,
 * or file capabilities, to a traced thread only if the link was made with
 * CAP_SYS_PTRACE (ptracer_capable: the attacher's; for PTRACE_TRACEME,
 * the tracee's own at that moment); otherwise it keeps the caller's ids
 * and no more capabilities than it had.  The real tracer here is the
 * library, so the kernel grants them: the emulation takes back, at the
 * exec's exit and before the program's first instruction, what the
 * kernel would not have given (utrace__pe_exec_*).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include "core/creds.h"
#include "core/proc.h"
#include "ptrace/ptrace.h"

#define CAP_BIT(c)	(1ULL << (c))

/* -- What only the emulation knows ----------------------------------------- */

/* A root process made undumpable by its own prctl since its last exec. */
static bool said_undumpable(struct pe_thread *q)
{
	struct pe_thread *lead = utrace__pe_find(q->pe, q->tgid);

	return lead && lead->dump == PD_NO;
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
	return anc > 0 && utrace__descends(p->tgid, anc);
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
	struct utrace__access a;
	struct utrace_cred caller;

	if (utrace_cred_read(p->tid, &caller) ||
	    utrace__access_read(&caller, q->tid, &a))
		return -ESRCH;
	a.dumpable = a.dumpable && !said_undumpable(q);
	if (a.yama == 1)
		a.exception = ptracer_exception(p, q);
	if (cap_out)
		*cap_out = a.cap_over_target;
	return utrace__may_attach(&a);
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
	struct utrace__access a;

	memset(&a, 0, sizeof(a));
	if (utrace_cred_read(p->tid, &a.caller) ||
	    utrace_cred_read(parent->tid, &a.target))
		return -ESRCH;
	a.cap_over_target = utrace__capable(&a.target, CAP_SYS_PTRACE,
					    p->tid);
	a.yama = utrace__yama_scope();
	if (cap_out)
		*cap_out = utrace__capable(&a.caller, CAP_SYS_PTRACE, p->tid);
	return utrace__may_traceme(&a);
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
			    utrace_cred_read(p->tid, &p->exec_old) == 0;
}

/* Could @c read the file /proc/@tid/exe names (would_dump)? */
static bool exe_readable(pid_t tid, const struct utrace_cred *c)
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
	const struct utrace_cred *old = &p->exec_old;
	struct utrace_cred now, *to = &p->drop_to;

	p->drop = false;
	if (!p->exec_old_valid)
		return;
	p->exec_old_valid = false;
	if (utrace_cred_read(p->tid, &now) ||
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
static long drop_to(struct pe_thread *p, const struct utrace_cred *now,
		    const struct utrace_cred *to, uint64_t scratch)
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
	const struct utrace_cred *to = &p->drop_to;
	struct user_regs_struct r;
	struct utrace_cred now;
	uint64_t scratch;
	char keep[64];
	long err;

	p->drop = false;
	if (!p->e || utrace_regs_get(p->e, &r) ||
	    utrace_cred_read(p->tid, &now))
		goto kill;
	scratch = (r.rsp - 512) & ~15UL;
	if (utrace_mem_read(p->e, scratch, keep, sizeof(keep)) !=
	    (ssize_t)sizeof(keep))
		goto kill;
	err = drop_to(p, &now, to, scratch);
	utrace_mem_write(p->e, scratch, keep, sizeof(keep));
	if (err || utrace_cred_read(p->tid, &now) ||
	    now.uid[1] != to->uid[1] || now.uid[2] != to->uid[2] ||
	    now.gid[1] != to->gid[1] || now.gid[2] != to->gid[2] ||
	    now.cap_prm != to->cap_prm || now.cap_eff != to->cap_eff)
		goto kill;
	return;
kill:
	syscall(SYS_tgkill, p->tgid, p->tid, SIGKILL);
}
