// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Looking at and changing a stopped thread: syscall, registers, memory.
 *
 * Registers are read at most once per stop (cached) and written back once,
 * when the thread is restarted (thread.c, regs_flush), however many engines
 * changed them in between.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <linux/audit.h>

#include "core/internal.h"

static int check(struct utrace_engine *e, struct uthread **out)
{
	struct uthread *th = e->th;

	if ((atomic_load(&e->flags) & ENG_DETACHED) || !th)
		return -ESRCH;
	if (th->dead || th->state == TH_DEAD)
		return -ESRCH;
	/* A callback made from a record: the thread runs (rec_op). */
	if (th->rec_pass) {
		*out = th;
		return 0;
	}
	if (th->state == TH_NEW) {
		/* A new child, stopped from birth: its first stop comes now. */
		utrace__await_first_stop(th);
		th = e->th;
		if ((atomic_load(&e->flags) & ENG_DETACHED) || !th ||
		    th->dead || th->state == TH_DEAD)
			return -ESRCH;
	}
	if (th->state != TH_STOPPED)
		return -EBUSY;
	/* Inside a callback for this thread, or held by this engine. */
	if (!th->in_pass && !(atomic_load(&e->flags) & ENG_STOP))
		return -EBUSY;
	*out = th;
	return 0;
}

static bool at_entry(const struct uthread *th)
{
	return th->stop == STOP_SYSCALL_ENTRY;
}

static bool at_exit(const struct uthread *th)
{
	return th->stop == STOP_SYSCALL_EXIT;
}

/*
 * Every accessor runs on the loop thread (carried there from other
 * threads), after the same check; @fn does the work on the stopped thread.
 */
struct acc {
	struct utrace_engine *e;
	int (*fn)(struct uthread *th, struct acc *a);
	struct utrace_syscall *sc;
	const unsigned long *args;
	long v;
	struct user_regs_struct *out;
	const struct user_regs_struct *in;
	uint64_t addr;
	void *buf;
	size_t len;
	bool write;
	ssize_t ret;
	struct timespec *ts_exit;
};

static int rec_op(struct uthread *th, struct acc *a);

static int run_checked(void *arg)
{
	struct acc *a = arg;
	struct uthread *th;
	int err = check(a->e, &th);

	if (err)
		return err;
	return th->rec_pass ? rec_op(th, a) : a->fn(th, a);
}

static int access_call(struct acc *a)
{
	if (!a->e)
		return -EINVAL;
	return utrace__call(a->e->t, run_checked, a);
}

/* -- Syscall ------------------------------------------------------------------ */

static int op_syscall_get(struct uthread *th, struct acc *a)
{
	int err;

	if (at_entry(th) || at_exit(th)) {
		*a->sc = th->sc;
		return 0;
	}
	memset(a->sc, 0, sizeof(*a->sc));
	a->sc->nr = -1;
	a->sc->arch = AUDIT_ARCH_X86_64;
	err = utrace__regs_load(th);
	if (err)
		return err;
	a->sc->ip = th->regs.rip;
	a->sc->sp = th->regs.rsp;
	return 0;
}

UTRACE_EXPORT int utrace_syscall_get(struct utrace_engine *e,
				     struct utrace_syscall *sc)
{
	struct acc a = { .e = e, .fn = op_syscall_get, .sc = sc };

	return sc ? access_call(&a) : -EINVAL;
}

/* CLOCK_MONOTONIC ns @ns on clock @clk (0 stays 0: not known). */
static void ns_on(int64_t ns, clockid_t clk, struct timespec *out)
{
	if (ns && clk != CLOCK_MONOTONIC)
		ns += utrace__now_ns(clk) - utrace__now_ns(CLOCK_MONOTONIC);
	out->tv_sec = ns ? (time_t)(ns / 1000000000LL) : 0;
	out->tv_nsec = ns ? (long)(ns % 1000000000LL) : 0;
}

static int times_out(const int64_t t[2], struct acc *a)
{
	struct timespec *ts = a->buf;

	if (ts)
		ns_on(t[0], (clockid_t)a->v, ts);
	if (a->ts_exit)
		ns_on(t[1], (clockid_t)a->v, a->ts_exit);
	return 0;
}

static int op_syscall_time(struct uthread *th, struct acc *a)
{
	if (at_entry(th)) {
		int64_t t[2] = { th->sc_time[0], 0 };

		return times_out(t, a);
	}
	if (at_exit(th))
		return times_out(th->sc_time, a);
	return -ENODATA;
}

/**
 * utrace_syscall_time - when the syscall being reported entered and left
 * the kernel, on clock @clock; see utrace_syscall_time(3)
 */
UTRACE_EXPORT int utrace_syscall_time(struct utrace_engine *e,
				      clockid_t clock, struct timespec *entry,
				      struct timespec *exit)
{
	struct acc a = { .e = e, .fn = op_syscall_time, .v = clock,
			 .buf = entry, .ts_exit = exit };

	if (clock != CLOCK_MONOTONIC && clock != CLOCK_REALTIME &&
	    clock != CLOCK_BOOTTIME)
		return -EINVAL;
	return access_call(&a);
}

static int op_stop_rusage(struct uthread *th, struct acc *a)
{
	if (!th->stop_ru_valid)
		return -ENODATA;
	memcpy(a->buf, &th->stop_ru, sizeof(th->stop_ru));
	return 0;
}

/**
 * utrace_stop_rusage - the resource usage wait4(2) reported with the
 * thread's current stop (UTRACE_TRACER_RUSAGE); see utrace_stop_rusage(3)
 */
UTRACE_EXPORT int utrace_stop_rusage(struct utrace_engine *e,
				     struct rusage *ru)
{
	struct acc a = { .e = e, .fn = op_stop_rusage, .buf = ru };

	return ru ? access_call(&a) : -EINVAL;
}

static void args_to_regs(struct uthread *th)
{
	th->regs.orig_rax = (unsigned long)th->sc.nr;
	th->regs.rdi = th->sc.args[0];
	th->regs.rsi = th->sc.args[1];
	th->regs.rdx = th->sc.args[2];
	th->regs.r10 = th->sc.args[3];
	th->regs.r8 = th->sc.args[4];
	th->regs.r9 = th->sc.args[5];
	th->regs_dirty = true;
}

/* Number (a->args NULL) or arguments, at syscall entry only. */
static int op_set_entry(struct uthread *th, struct acc *a)
{
	int err;

	if (!at_entry(th))
		return -EINVAL;
	err = utrace__regs_load(th);
	if (err)
		return err;
	if (a->args)
		memcpy(th->sc.args, a->args, sizeof(th->sc.args));
	else
		th->sc.nr = a->v;
	th->changes |= a->args ? UTRACE_SYSCALL_CHANGED_ARGS :
				 UTRACE_SYSCALL_CHANGED_NR;
	args_to_regs(th);
	return 0;
}

UTRACE_EXPORT int utrace_syscall_set_nr(struct utrace_engine *e, long nr)
{
	struct acc a = { .e = e, .fn = op_set_entry, .v = nr };

	return access_call(&a);
}

UTRACE_EXPORT int utrace_syscall_set_args(struct utrace_engine *e,
					  const unsigned long args[6])
{
	struct acc a = { .e = e, .fn = op_set_entry, .args = args };

	return args ? access_call(&a) : -EINVAL;
}

static int op_set_return(struct uthread *th, struct acc *a)
{
	int err;

	if (at_entry(th) || at_exit(th))
		th->changes |= UTRACE_SYSCALL_CHANGED_RETURN;
	if (at_entry(th)) {
		/* Used if the entry pass ends in UTRACE_SYSCALL_ABORT. */
		th->ret_set = true;
		th->ret_val = a->v;
		return 0;
	}
	if (!at_exit(th))
		return -EINVAL;
	err = utrace__regs_load(th);
	if (err)
		return err;
	th->regs.rax = (unsigned long)a->v;
	th->regs_dirty = true;
	th->sc.ret = a->v;
	return 0;
}

UTRACE_EXPORT int utrace_syscall_set_return(struct utrace_engine *e, long ret)
{
	struct acc a = { .e = e, .fn = op_set_return, .v = ret };

	return access_call(&a);
}

static int op_changes(struct uthread *th, struct acc *a)
{
	a->ret = at_entry(th) || at_exit(th) ? th->changes : 0;
	return 0;
}

/**
 * utrace_syscall_changes - what engines did to the syscall the thread is at
 * Returns UTRACE_SYSCALL_CHANGED_* bits (0 when not at a syscall stop), or
 * -EBUSY, -ESRCH, -EINVAL.  See utrace_syscall_changes(3).
 */
UTRACE_EXPORT int utrace_syscall_changes(struct utrace_engine *e)
{
	struct acc a = { .e = e, .fn = op_changes };
	int err = access_call(&a);

	return err ? err : (int)a.ret;
}

/* -- Registers ------------------------------------------------------------------ */

static int op_regs_get(struct uthread *th, struct acc *a)
{
	int err = utrace__regs_load(th);

	if (!err)
		*a->out = th->regs;
	return err;
}

UTRACE_EXPORT int utrace_regs_get(struct utrace_engine *e,
				  struct user_regs_struct *regs)
{
	struct acc a = { .e = e, .fn = op_regs_get, .out = regs };

	return regs ? access_call(&a) : -EINVAL;
}

static int op_regs_set(struct uthread *th, struct acc *a)
{
	th->regs = *a->in;
	th->regs_valid = th->regs_dirty = true;
	/* Keep the syscall view in step with the registers. */
	if (at_entry(th)) {
		th->sc.nr = (long)th->regs.orig_rax;
		th->sc.args[0] = th->regs.rdi;
		th->sc.args[1] = th->regs.rsi;
		th->sc.args[2] = th->regs.rdx;
		th->sc.args[3] = th->regs.r10;
		th->sc.args[4] = th->regs.r8;
		th->sc.args[5] = th->regs.r9;
	} else if (at_exit(th)) {
		th->sc.ret = (long)th->regs.rax;
	}
	return 0;
}

UTRACE_EXPORT int utrace_regs_set(struct utrace_engine *e,
				  const struct user_regs_struct *regs)
{
	struct acc a = { .e = e, .fn = op_regs_set, .in = regs };

	return regs ? access_call(&a) : -EINVAL;
}

/* -- Memory ------------------------------------------------------------------------ */

/* /proc/TID/mem reaches pages process_vm_* cannot (read-only, PROT_NONE). */
static ssize_t proc_mem(pid_t tid, uint64_t addr, void *buf, size_t len,
			bool write)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", tid);
	fd = open(path, (write ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write ? pwrite(fd, buf, len, (off_t)addr) :
		    pread(fd, buf, len, (off_t)addr);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

static ssize_t mem_xfer(pid_t tid, uint64_t addr, void *buf, size_t len,
			bool write)
{
	struct iovec local = { buf, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };
	ssize_t n, m;

	if (!len)
		return 0;
	n = write ? process_vm_writev(tid, &local, 1, &remote, 1, 0) :
		    process_vm_readv(tid, &local, 1, &remote, 1, 0);
	if (n == (ssize_t)len)
		return n;
	if (n < 0)
		n = 0;
	m = proc_mem(tid, addr + (uint64_t)n, (char *)buf + n, len - (size_t)n,
		     write);
	if (m < 0)
		return n ? n : (m == -EIO ? -EFAULT : m);
	return n + m;
}

ssize_t utrace__mem_xfer(pid_t tid, uint64_t addr, void *buf, size_t len,
			 bool write)
{
	return mem_xfer(tid, addr, buf, len, write);
}

/*
 * A read within one page, during a report pass: the whole page is read
 * once and later reads of the same pass are served from it, as strace
 * does per stop.  A decoder walking an array of pointers (execve's argv
 * and envp) then costs one system call per page, not one per pointer.
 * Other threads sharing the memory may run meanwhile: what a pass reads
 * was never more than a snapshot.
 */
static ssize_t mem_read(struct uthread *th, uint64_t addr, void *buf,
			size_t len)
{
	struct utrace_tracer *t = th->t;
	uint64_t page = addr & ~4095ULL;
	size_t off = (size_t)(addr - page);

	if (!th->in_pass || !len || off + len > sizeof(t->mc_buf))
		return mem_xfer(th->tid, addr, buf, len, false);
	if (t->mc_tid != th->tid || t->mc_addr != page) {
		ssize_t n = mem_xfer(th->tid, page, t->mc_buf,
				     sizeof(t->mc_buf), false);

		if (n <= 0) {
			t->mc_tid = 0;
			return mem_xfer(th->tid, addr, buf, len, false);
		}
		t->mc_tid = th->tid;
		t->mc_addr = page;
		t->mc_len = (size_t)n;
	}
	if (off + len > t->mc_len)
		return mem_xfer(th->tid, addr, buf, len, false);
	memcpy(buf, t->mc_buf + off, len);
	return (ssize_t)len;
}

static int op_mem(struct uthread *th, struct acc *a)
{
	if (a->write) {
		th->t->mc_tid = 0;
		a->ret = mem_xfer(th->tid, a->addr, a->buf, a->len, true);
	} else {
		a->ret = mem_read(th, a->addr, a->buf, a->len);
	}
	return 0;
}

/**
 * utrace_mem_read - read the thread's memory
 * Returns the number of bytes read (short only at an unreadable page), or
 * -EFAULT, -EBUSY, -ESRCH, -EINVAL.
 */
UTRACE_EXPORT ssize_t utrace_mem_read(struct utrace_engine *e, uint64_t addr,
				      void *buf, size_t len)
{
	struct acc a = { .e = e, .fn = op_mem, .addr = addr, .buf = buf,
			 .len = len };
	int err;

	if (!buf && len)
		return -EINVAL;
	err = access_call(&a);
	return err ? err : a.ret;
}

UTRACE_EXPORT ssize_t utrace_mem_write(struct utrace_engine *e, uint64_t addr,
				       const void *buf, size_t len)
{
	struct acc a = { .e = e, .fn = op_mem, .addr = addr, .buf = (void *)buf,
			 .len = len, .write = true };
	int err;

	if (!buf && len)
		return -EINVAL;
	err = access_call(&a);
	return err ? err : a.ret;
}

static int op_read_string(struct uthread *th, struct acc *a)
{
	char *buf = a->buf;
	size_t got = 0;

	/* Page by page: a string may end just before an unmapped page. */
	while (got < a->len - 1) {
		uint64_t addr = a->addr + got;
		size_t chunk = 4096 - (addr & 4095);
		ssize_t n;
		char *nul;

		if (chunk > a->len - 1 - got)
			chunk = a->len - 1 - got;
		n = mem_read(th, addr, buf + got, chunk);
		if (n <= 0) {
			buf[got] = 0;
			a->ret = got ? (ssize_t)got : (n < 0 ? n : -EFAULT);
			return 0;
		}
		nul = memchr(buf + got, 0, (size_t)n);
		if (nul) {
			a->ret = nul - buf;
			return 0;
		}
		got += (size_t)n;
	}
	buf[got] = 0;
	a->ret = (ssize_t)a->len;	/* truncated: no NUL within size - 1 */
	return 0;
}

/**
 * utrace_mem_read_string - read a NUL-terminated string
 * Stores at most @size - 1 bytes and a NUL.  Returns the string's length,
 * or @size when it did not fit (truncated), or a negative errno.
 */
UTRACE_EXPORT ssize_t utrace_mem_read_string(struct utrace_engine *e,
					     uint64_t addr, char *buf,
					     size_t size)
{
	struct acc a = { .e = e, .fn = op_read_string, .addr = addr,
			 .buf = buf, .len = size };
	int err;

	if (!buf || !size)
		return -EINVAL;
	err = access_call(&a);
	return err ? err : a.ret;
}

/* -- Inside a callback made from a record ----------------------------------------- */

static ssize_t rec_read(struct uthread *th, uint64_t addr, void *buf,
			size_t len)
{
	return len ? utrace__layers_rec_read(th, addr, buf, len) : 0;
}

/*
 * The syscall has run already and the thread is running: the syscall, the
 * registers and the captured memory are answered from the record; anything
 * else is refused (utrace_set_observer(3)): -EPERM for a change, -ENODATA
 * for what a record does not hold.
 */
static int rec_op(struct uthread *th, struct acc *a)
{
	if (a->fn == op_syscall_get) {
		*a->sc = th->sc;
		return 0;
	}
	if (a->fn == op_regs_get) {
		*a->out = th->rec_regs;
		return 0;
	}
	if (a->fn == op_changes) {
		a->ret = 0;
		return 0;
	}
	if (a->fn == op_mem && !a->write) {
		a->ret = rec_read(th, a->addr, a->buf, a->len);
		return 0;
	}
	if (a->fn == op_read_string) {
		ssize_t n = rec_read(th, a->addr, a->buf, a->len - 1);
		char *buf = a->buf, *nul;

		if (n < 0) {
			buf[0] = 0;
			a->ret = n;
			return 0;
		}
		nul = memchr(buf, 0, (size_t)n);
		if (nul) {
			a->ret = nul - buf;
		} else if ((size_t)n == a->len - 1) {
			buf[n] = 0;
			a->ret = (ssize_t)a->len;	/* truncated */
		} else {
			/* Cut short by the capture: not the whole string. */
			buf[0] = 0;
			a->ret = -ENODATA;
		}
		return 0;
	}
	if (a->fn == op_stop_rusage)
		return -ENODATA;
	if (a->fn == op_syscall_time)
		return times_out(th->rec_time, a);
	return -EPERM;
}

static int do_from_record(void *arg)
{
	struct utrace_engine *e = arg;
	struct uthread *th = e->th;

	if ((atomic_load(&e->flags) & ENG_DETACHED) || !th)
		return -ESRCH;
	return th->rec_pass ? 1 : 0;
}

/**
 * utrace_from_record - is this callback made from a record?
 * See utrace_set_observer(3).
 */
UTRACE_EXPORT int utrace_from_record(struct utrace_engine *e)
{
	if (!e)
		return -EINVAL;
	return utrace__call(e->t, do_from_record, e);
}
