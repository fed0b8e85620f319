// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ptrace as an engine (ptrace.h): the inner tracer's ptrace(2) requests,
 * computed at its syscall entry from the tracee's record and registers.
 * Memory and the general registers go through the public engine API;
 * the state the library keeps no copy of (debug registers, other register
 * sets, the signal mask, PEEKSIGINFO, ARCH_PRCTL) through the real
 * request on the held tracee (utrace__engine_ptrace).  Results are written
 * into the inner tracer's memory as the kernel writes them.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <linux/audit.h>
#include <linux/elf.h>

#include "core/proc.h"
#include "ptrace/ptrace.h"

struct preq {
	struct pe_thread *p;		/* the caller */
	long req;
	pid_t pid;
	uint64_t addr, data;
};

/*
 * The inner tracer's memory, as the kernel's copies to and from user
 * memory see it: process_vm_writev/readv respect the page protections (a
 * read-only buffer is EFAULT), where utrace_mem_write would go through
 * /proc/PID/mem and write it anyway.  Only when those calls are refused
 * altogether is the library's access used.
 */
static long user_xfer(struct pe_thread *p, uint64_t addr, void *buf,
		      size_t len, bool write)
{
	struct iovec local = { buf, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };
	ssize_t n;

	if (!len)
		return 0;
	n = write ? process_vm_writev(p->tid, &local, 1, &remote, 1, 0) :
		    process_vm_readv(p->tid, &local, 1, &remote, 1, 0);
	if (n == (ssize_t)len)
		return 0;
	if (n >= 0 || errno == EFAULT)
		return -EFAULT;
	n = write ? utrace_mem_write(p->e, addr, buf, len) :
		    utrace_mem_read(p->e, addr, buf, len);
	return n == (ssize_t)len ? 0 : -EFAULT;
}

long utrace__pe_put(struct pe_thread *p, uint64_t addr, const void *buf,
		    size_t len)
{
	return user_xfer(p, addr, (void *)buf, len, true);
}

long utrace__pe_get(struct pe_thread *p, uint64_t addr, void *buf,
		    size_t len)
{
	return user_xfer(p, addr, buf, len, false);
}

static int regs_of(struct pe_thread *q, struct user_regs_struct *r)
{
	int err = q->e ? utrace_regs_get(q->e, r) : -ESRCH;

	if (err && q->cur.regs_valid) {
		*r = q->cur.regs;
		return 0;
	}
	return err;
}

/*
 * The kernel's struct user on x86_64 ends with error_code and
 * fault_address after u_debugreg[8]; glibc's copy stops before them.
 */
#define PE_USER_SIZE	(offsetof(struct user, u_debugreg) + 10 * 8)
#define PE_DR(n)	(offsetof(struct user, u_debugreg) + (n) * 8)

/* Does the tracee sit in a ptrace stop, where the real requests work? */
static bool held(struct pe_thread *q)
{
	return utrace__engine_stop(q->e) != STOP_NONE;
}

/*
 * The real request on the held tracee, for state the library keeps no
 * copy of.  @regs: it may change the general registers, so the library's
 * copy is written first if changed, and read again after.  0 (with
 * ptrace's value in *@ret when not NULL), -ESRCH or -errno.
 */
static int raw(struct pe_thread *q, long req, void *addr, void *data,
	       bool regs, long *ret)
{
	if (!q->e)
		return -ESRCH;
	return utrace__engine_ptrace(q->e, (int)req, addr, data,
				     regs ? UTRACE__PTRACE_REGS : 0, ret);
}

static long do_peekuser(struct preq *r, struct pe_thread *q)
{
	struct user_regs_struct regs;
	unsigned long off = r->addr, word = 0;

	if (off & 7 || off >= PE_USER_SIZE)
		return -EIO;
	if (off < sizeof(regs)) {
		if (regs_of(q, &regs))
			return -ESRCH;
		memcpy(&word, (char *)&regs + off, 8);
	} else if (off >= PE_DR(0) && off <= PE_DR(7)) {
		/* As the kernel: 0 for DR4, DR5 and the rest of the area. */
		long v;
		int err = raw(q, PTRACE_PEEKUSER, (void *)off, NULL, false,
			      &v);

		if (err)
			return err;
		word = (unsigned long)v;
	}
	return utrace__pe_put(r->p, r->data, &word, 8);
}

/* Selectors and bases: the kernel checks them (EIO), the real POKEUSER. */
static bool seg_off(unsigned long off)
{
	return off == offsetof(struct user_regs_struct, cs) ||
	       off == offsetof(struct user_regs_struct, ss) ||
	       off >= offsetof(struct user_regs_struct, fs_base);
}

static long do_pokeuser(struct preq *r, struct pe_thread *q)
{
	struct user_regs_struct regs;
	unsigned long off = r->addr;

	if (off & 7 || off >= PE_USER_SIZE)
		return -EIO;
	if (off < sizeof(regs) && !(seg_off(off) && held(q))) {
		if (!q->e || utrace_regs_get(q->e, &regs))
			return -ESRCH;
		memcpy((char *)&regs + off, &r->data, 8);
		return utrace_regs_set(q->e, &regs) ? -ESRCH : 0;
	}
	if (off < sizeof(regs) || (off >= PE_DR(0) && off <= PE_DR(7))) {
		return raw(q, PTRACE_POKEUSER, (void *)off, (void *)r->data,
			   true, NULL);
	}
	return -EIO;	/* as the kernel: the rest of the area is not written */
}

/* Requests on state the library does not keep: the real ptrace, here. */
static long raw_out(struct preq *r, struct pe_thread *q, long req, long addr,
		    size_t len)
{
	char buf[1024];
	int err;

	if (len > sizeof(buf) || !held(q))
		return -ESRCH;
	memset(buf, 0, len);
	err = raw(q, req, (void *)addr, buf, false, NULL);
	if (err)
		return err;
	return utrace__pe_put(r->p, r->data, buf, len);
}

static long raw_in(struct preq *r, struct pe_thread *q, long req, long addr,
		   size_t len)
{
	char buf[1024];
	long err;

	if (len > sizeof(buf) || !held(q))
		return -ESRCH;
	err = utrace__pe_get(r->p, r->data, buf, len);
	if (err)
		return err;
	return raw(q, req, (void *)addr, buf, false, NULL);
}

static long do_regset(struct preq *r, struct pe_thread *q, bool set)
{
	struct iovec iov, local;
	struct user_regs_struct regs;
	char *buf;
	long err;

	if (utrace__pe_get(r->p, r->data, &iov, sizeof(iov)))
		return -EFAULT;
	if (r->addr == NT_PRSTATUS) {
		size_t n = iov.iov_len < sizeof(regs) ? iov.iov_len :
			   sizeof(regs);

		if (regs_of(q, &regs))
			return -ESRCH;
		if (set) {
			if (utrace__pe_get(r->p, (uintptr_t)iov.iov_base,
					   &regs, n))
				return -EFAULT;
			if (!q->e || utrace_regs_set(q->e, &regs))
				return -ESRCH;
		} else if (utrace__pe_put(r->p, (uintptr_t)iov.iov_base,
					  &regs, n)) {
			return -EFAULT;
		}
		iov.iov_len = n;
		return utrace__pe_put(r->p, r->data, &iov, sizeof(iov));
	}
	if (!held(q))
		return -ESRCH;
	if (iov.iov_len > 65536)
		iov.iov_len = 65536;
	buf = calloc(1, iov.iov_len ? iov.iov_len : 1);
	if (!buf)
		return -ENOMEM;
	local.iov_base = buf;
	local.iov_len = iov.iov_len;
	err = 0;
	if (set && utrace__pe_get(r->p, (uintptr_t)iov.iov_base, buf,
				  iov.iov_len))
		err = -EFAULT;
	if (!err)
		err = raw(q, set ? PTRACE_SETREGSET : PTRACE_GETREGSET,
			  (void *)r->addr, &local, false, NULL);
	if (!err && !set && utrace__pe_put(r->p, (uintptr_t)iov.iov_base,
					   buf, local.iov_len))
		err = -EFAULT;
	free(buf);
	if (err)
		return err;
	iov.iov_len = local.iov_len;
	return utrace__pe_put(r->p, r->data, &iov, sizeof(iov));
}

static long do_syscall_info(struct preq *r, struct pe_thread *q)
{
	struct ptrace_syscall_info in;
	struct user_regs_struct regs;
	unsigned long size;

	if (regs_of(q, &regs))
		return -ESRCH;
	memset(&in, 0, sizeof(in));
	in.op = PTRACE_SYSCALL_INFO_NONE;
	in.arch = q->cur.arch ? q->cur.arch : AUDIT_ARCH_X86_64;
	in.instruction_pointer = regs.rip;
	in.stack_pointer = regs.rsp;
	size = offsetof(struct ptrace_syscall_info, entry);
	/*
	 * As the kernel, by the stop's si_code: a syscall stop without
	 * PTRACE_O_TRACESYSGOOD gives PTRACE_SYSCALL_INFO_NONE.
	 */
	if (q->cur.kind == PK_SYSCALL_ENTRY &&
	    q->cur.si.si_code == (SIGTRAP | 0x80)) {
		in.op = PTRACE_SYSCALL_INFO_ENTRY;
		in.entry.nr = regs.orig_rax;
		in.entry.args[0] = regs.rdi;
		in.entry.args[1] = regs.rsi;
		in.entry.args[2] = regs.rdx;
		in.entry.args[3] = regs.r10;
		in.entry.args[4] = regs.r8;
		in.entry.args[5] = regs.r9;
		size = offsetof(struct ptrace_syscall_info, entry.args) +
		       sizeof(in.entry.args);
	} else if (q->cur.kind == PK_SECCOMP) {
		in.op = PTRACE_SYSCALL_INFO_SECCOMP;
		in.seccomp.nr = regs.orig_rax;
		in.seccomp.args[0] = regs.rdi;
		in.seccomp.args[1] = regs.rsi;
		in.seccomp.args[2] = regs.rdx;
		in.seccomp.args[3] = regs.r10;
		in.seccomp.args[4] = regs.r8;
		in.seccomp.args[5] = regs.r9;
		in.seccomp.ret_data = (uint32_t)q->cur.msg;
		size = offsetof(struct ptrace_syscall_info, seccomp.ret_data) +
		       sizeof(in.seccomp.ret_data);
	} else if (q->cur.kind == PK_SYSCALL_EXIT &&
		   q->cur.si.si_code == (SIGTRAP | 0x80)) {
		in.op = PTRACE_SYSCALL_INFO_EXIT;
		in.exit.rval = (long)regs.rax;
		in.exit.is_error = regs.rax >= (unsigned long)-4095;
		size = offsetof(struct ptrace_syscall_info, exit.is_error) +
		       sizeof(in.exit.is_error);
	}
	if (utrace__pe_put(r->p, r->data, &in, r->addr < size ? r->addr : size))
		return -EFAULT;
	return (long)size;
}

static bool valid_sig(uint64_t sig)
{
	return sig <= 64;
}

/*
 * A trace link is made: from now on the loop's waits collect the usage
 * that comes with each stop (UTRACE_TRACER_RUSAGE), for the inner
 * tracer's wait4 (wait_report); a thread stops first after this.
 */
static void trace_link(struct pe *pe)
{
	utrace__tracer_add_options(pe->t, UTRACE_TRACER_RUSAGE);
}

/* TRACEME: the caller's real parent becomes its inner tracer. */
static long do_traceme(struct pe_thread *p)
{
	pid_t ppid = utrace__proc_ppid(p->tgid);
	struct pe_thread *t = ppid > 0 ? utrace__pe_find(p->pe, ppid) : NULL;
	bool cap;
	long err;

	if (p->tracer || !t)
		return -EPERM;	/* as the kernel: already traced */
	/* As security_ptrace_traceme: with the parent's credentials. */
	err = utrace__pe_check_traceme(p, t, &cap);
	if (err)
		return err == -ESRCH ? -EPERM : err;
	p->tracer = t;
	/*
	 * The kernel's tracer is the thread that forked the caller, which
	 * /proc does not name (PPid is its process): requests are taken
	 * from any thread of that process.
	 */
	p->tracer_any = true;
	p->link_capable = cap;
	p->tracer_tgid = t->tgid;
	p->parent_is_tracer = true;
	p->seized = false;
	p->opts = 0;
	p->mode = PM_CONT;
	utrace__pe_set_events(p);
	trace_link(p->pe);
	return 0;
}

static long do_attach(struct preq *r, struct pe_thread *q, bool seize)
{
	struct pe_thread *p = r->p;
	bool cap;
	long err;

	if (seize && (r->addr || (r->data & ~(uint64_t)PE_O_MASK)))
		return -EIO;
	if (q->tgid == p->tgid)
		return -EPERM;
	/*
	 * As ptrace_attach: may the caller, with its own credentials (not
	 * ours), trace the target at all; only then, is it free.
	 */
	err = utrace__pe_check_attach(p, q, &cap);
	if (err)
		return err;
	if (q->tracer)
		return -EPERM;
	if (seize && (r->data & PTRACE_O_SUSPEND_SECCOMP))
		return -EINVAL;	/* not emulated: see utrace(7) */
	q->tracer = p;
	q->tracer_any = false;
	q->link_capable = cap;
	q->tracer_tgid = p->tgid;
	/* Known now: at its death the zombie may be reaped before we look. */
	q->parent_is_tracer = utrace__proc_ppid(q->tgid) == p->tgid;
	q->seized = seize;
	q->opts = seize ? (long)r->data : 0;
	q->mode = PM_CONT;
	q->stopped = q->waitable = false;
	q->npend = 0;
	utrace__pe_set_events(q);
	trace_link(p->pe);
	if (seize) {
		/*
		 * A thread in a group stop traps into it for its new tracer
		 * (PTRACE_EVENT_STOP with the stop signal).  As for
		 * PTRACE_INTERRUPT, the trap is published once the thread
		 * has stopped there (pe_signal), so that a restart finds it
		 * stopped and can take it out of the group stop; published
		 * before, a PTRACE_SYSCALL that came first found nothing to
		 * restart and left it in the group stop for good.
		 */
		if (utrace__engine_in_group_stop(q->e)) {
			if (!q->grp_sig)
				utrace__pe_set_group_stop(p->pe, q->tgid,
							  q->stop_sig ?
							  q->stop_sig :
							  SIGSTOP);
			q->want_interrupt = true;
			utrace_control(q->e, UTRACE_INTERRUPT);
		}
		return 0;
	}
	/*
	 * ATTACH sends SIGSTOP: its delivery stop, made when it stops.  A
	 * thread in a group stop traps into it first (a plain stop status,
	 * no siginfo); the SIGSTOP stop comes when its tracer restarts it.
	 */
	q->want_attach_stop = true;
	q->want_group_trap = utrace__engine_in_group_stop(q->e);
	if (utrace_control(q->e, UTRACE_INTERRUPT) < 0)
		return -ESRCH;
	return 0;
}

/*
 * PTRACE_ARCH_PRCTL: data is the code, addr the value or where the answer
 * goes.  The kernel writes a "get" answer into its caller's memory, so
 * those are read here into ours and copied to the inner tracer; codes that
 * act on the caller itself (ARCH_MAP_VDSO_*) or that we do not know are
 * not passed on (EINVAL, the kernel's answer to an unknown code).
 */
static long do_arch_prctl(struct preq *r, struct pe_thread *q)
{
	unsigned long v = 0;
	int err;

	switch (r->data) {
	case 0x1003: case 0x1004:	/* ARCH_GET_FS, ARCH_GET_GS */
	case 0x4001: case 0x4003:	/* ARCH_GET_UNTAG_MASK, _MAX_TAG_BITS */
	case 0x5005:			/* ARCH_SHSTK_STATUS */
		err = raw(q, PTRACE_ARCH_PRCTL, &v, (void *)r->data, false,
			  NULL);
		if (err)
			return err;
		return utrace__pe_put(r->p, r->addr, &v, sizeof(v));
	case 0x1001: case 0x1002:	/* ARCH_SET_GS, ARCH_SET_FS */
	case 0x4002: case 0x4004:	/* ARCH_ENABLE_TAGGED_ADDR, _FORCE_.. */
	case 0x5001: case 0x5002:	/* ARCH_SHSTK_ENABLE, _DISABLE */
	case 0x5003: case 0x5004:	/* ARCH_SHSTK_LOCK, _UNLOCK */
		return raw(q, PTRACE_ARCH_PRCTL, (void *)r->addr,
			   (void *)r->data, true, NULL);
	default:
		return -EINVAL;	/* ARCH_MAP_VDSO_*: see utrace(7) */
	}
}

/*
 * PTRACE_PEEKSIGINFO: the real one on the held thread, into our memory,
 * then copied out one siginfo at a time as the kernel copies them (a
 * count once some are written, EFAULT if none could be).
 */
static long do_peeksiginfo(struct preq *r, struct pe_thread *q)
{
	struct __ptrace_peeksiginfo_args a, b;
	siginfo_t buf[32];
	long done = 0, n;
	int err;

	if (utrace__pe_get(r->p, r->addr, &a, sizeof(a)))
		return -EFAULT;
	if ((a.flags & ~(uint32_t)PTRACE_PEEKSIGINFO_SHARED) || a.nr < 0)
		return -EINVAL;
	if (!held(q))
		return -ESRCH;
	while (done < a.nr) {
		b = a;
		b.off = a.off + (uint64_t)done;
		b.nr = a.nr - done < 32 ? (int32_t)(a.nr - done) : 32;
		err = raw(q, PTRACE_PEEKSIGINFO, &b, buf, false, &n);
		if (err)
			return done ? done : err;
		for (long i = 0; i < n; i++, done++)
			if (utrace__pe_put(r->p, r->data +
					   (uint64_t)done * sizeof(buf[0]),
					   &buf[i], sizeof(buf[0])))
				return done ? done : -EFAULT;
		if (n < b.nr)
			break;
	}
	return done;
}

/* Run the inner tracer's ptrace(2): the result, or PE_KERNEL. */
long utrace__pe_ptrace(struct pe_thread *p, long req, pid_t pid,
		       uint64_t addr, uint64_t data)
{
	struct preq rq = { p, req, pid, addr, data }, *r = &rq;
	struct pe_thread *q;
	unsigned long word;
	long err;

	if (r->req == PTRACE_TRACEME)
		return do_traceme(p);
	q = utrace__pe_find_any(p->pe, r->pid);
	if (!q)
		return PE_KERNEL;	/* not ours: the kernel's business */
	if (r->req == PTRACE_ATTACH || r->req == PTRACE_SEIZE)
		return q->dead ? -ESRCH :
		       do_attach(r, q, r->req == PTRACE_SEIZE);
	/*
	 * ptrace requests come from the tracer thread itself (the kernel's
	 * ptrace_check_attach: child->parent == current); its process's
	 * other threads may wait for the tracee, not resume or read it.
	 */
	if (!q->tracer || q->tracer_tgid != p->tgid ||
	    (q->tracer != p && !q->tracer_any))
		return -ESRCH;
	if (q->dead)
		return -ESRCH;
	/* Requests that do not need the tracee stopped. */
	switch (r->req) {
	case PTRACE_KILL:
		syscall(SYS_tgkill, q->tgid, q->tid, SIGKILL);
		return 0;
	case PTRACE_INTERRUPT:
		if (!q->seized)
			return -EIO;
		if (q->stopped && q->mode != PM_LISTEN)
			return 0;
		q->want_interrupt = true;
		if (q->e)
			utrace_control(q->e, UTRACE_INTERRUPT);
		return 0;
	default:
		break;
	}
	if (!q->stopped)
		return -ESRCH;
	switch (r->req) {
	case PTRACE_PEEKTEXT:
	case PTRACE_PEEKDATA:
		if (!q->e || utrace_mem_read(q->e, r->addr, &word, 8) != 8)
			return -EIO;
		return utrace__pe_put(p, r->data, &word, 8);
	case PTRACE_POKETEXT:
	case PTRACE_POKEDATA:
		word = r->data;
		if (!q->e || utrace_mem_write(q->e, r->addr, &word, 8) != 8)
			return -EIO;
		return 0;
	case PTRACE_PEEKUSER:
		return do_peekuser(r, q);
	case PTRACE_POKEUSER:
		return do_pokeuser(r, q);
	case PTRACE_GETREGS: {
		struct user_regs_struct regs;

		if (regs_of(q, &regs))
			return -ESRCH;
		return utrace__pe_put(p, r->data, &regs, sizeof(regs));
	}
	case PTRACE_SETREGS: {
		struct user_regs_struct regs;

		if (utrace__pe_get(p, r->data, &regs, sizeof(regs)))
			return -EFAULT;
		return q->e && utrace_regs_set(q->e, &regs) == 0 ? 0 : -ESRCH;
	}
	case PTRACE_GETFPREGS:
		return raw_out(r, q, PTRACE_GETFPREGS, 0,
			       sizeof(struct user_fpregs_struct));
	case PTRACE_SETFPREGS:
		return raw_in(r, q, PTRACE_SETFPREGS, 0,
			      sizeof(struct user_fpregs_struct));
	case PTRACE_GETREGSET:
		return do_regset(r, q, false);
	case PTRACE_SETREGSET:
		return do_regset(r, q, true);
	case PTRACE_GETSIGMASK:
		if (r->addr != 8)
			return -EINVAL;
		return raw_out(r, q, PTRACE_GETSIGMASK, 8, 8);
	case PTRACE_SETSIGMASK:
		if (r->addr != 8)
			return -EINVAL;
		return raw_in(r, q, PTRACE_SETSIGMASK, 8, 8);
	case PTRACE_ARCH_PRCTL:
		return do_arch_prctl(r, q);
	case PTRACE_GETEVENTMSG:
		word = q->cur.msg;
		return utrace__pe_put(p, r->data, &word, sizeof(word));
	case PTRACE_GETSIGINFO:
		if (!q->cur.has_si)
			return -EINVAL;
		return utrace__pe_put(p, r->data, &q->cur.si,
				      sizeof(q->cur.si));
	case PTRACE_SETSIGINFO:
		if (!q->cur.has_si)
			return -EINVAL;
		return utrace__pe_get(p, r->data, &q->cur.si,
				      sizeof(q->cur.si));
	case PTRACE_SETOPTIONS:
		if (r->data & ~(uint64_t)PE_O_MASK)
			return -EINVAL;
		if (r->data & PTRACE_O_SUSPEND_SECCOMP)
			return -EINVAL;
		q->opts = (long)r->data;
		utrace__pe_set_events(q);
		return 0;
	case PTRACE_GET_SYSCALL_INFO:
		return do_syscall_info(r, q);
	case PTRACE_PEEKSIGINFO:
		return do_peeksiginfo(r, q);
	case PTRACE_CONT:
	case PTRACE_SYSCALL:
	case PTRACE_SINGLESTEP:
	case PTRACE_SINGLEBLOCK:
		if (!valid_sig(r->data))
			return -EIO;
		utrace__pe_resume(q, r->req == PTRACE_SYSCALL ? PM_SYSCALL :
				  r->req == PTRACE_CONT ? PM_CONT : PM_STEP,
				  (int)r->data);
		return 0;
	case PTRACE_SYSEMU:
	case PTRACE_SYSEMU_SINGLESTEP:
		if (!valid_sig(r->data))
			return -EIO;
		utrace__pe_resume(q, r->req == PTRACE_SYSEMU ? PM_SYSEMU :
				  PM_SYSEMU_STEP, (int)r->data);
		return 0;
	case PTRACE_LISTEN:
		/*
		 * The kernel's test: a seized tracee at a PTRACE_EVENT_STOP
		 * trap (a group stop's, or PTRACE_INTERRUPT's also outside
		 * one), else ptrace_request's default, EIO.
		 */
		if (!q->seized || (q->cur.status >> 16) != PTRACE_EVENT_STOP)
			return -EIO;
		utrace__pe_resume(q, PM_LISTEN, 0);
		return 0;
	case PTRACE_DETACH:
		if (!valid_sig(r->data))
			return -EIO;
		utrace__pe_detach(q, (int)r->data);
		return 0;
	default:
		return -EIO;	/* not emulated: see utrace(7) */
	}
	err = -EIO;
	return err;
}
