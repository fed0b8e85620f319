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

#include "internal.h"

static int check(struct utrace_engine *e, struct uthread **out)
{
	struct uthread *th = e->th;

	if ((atomic_load(&e->flags) & ENG_DETACHED) || !th)
		return -ESRCH;
	if (th->dead || th->state == TH_DEAD)
		return -ESRCH;
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

/* -- Syscall ------------------------------------------------------------------ */

struct sc_args {
	struct utrace_engine *e;
	struct utrace_syscall *sc;
	const unsigned long *args;
	long v;
};

static int do_syscall_get(void *arg)
{
	struct sc_args *a = arg;
	struct uthread *th;
	int err = check(a->e, &th);

	if (err)
		return err;
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
	struct sc_args a = { .e = e, .sc = sc };

	if (!e || !sc)
		return -EINVAL;
	return utrace__call(e->t, do_syscall_get, &a);
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

static int do_set_nr(void *arg)
{
	struct sc_args *a = arg;
	struct uthread *th;
	int err = check(a->e, &th);

	if (err)
		return err;
	if (!at_entry(th))
		return -EINVAL;
	err = utrace__regs_load(th);
	if (err)
		return err;
	th->sc.nr = a->v;
	args_to_regs(th);
	return 0;
}

UTRACE_EXPORT int utrace_syscall_set_nr(struct utrace_engine *e, long nr)
{
	struct sc_args a = { .e = e, .v = nr };

	if (!e)
		return -EINVAL;
	return utrace__call(e->t, do_set_nr, &a);
}

static int do_set_args(void *arg)
{
	struct sc_args *a = arg;
	struct uthread *th;
	int err = check(a->e, &th);

	if (err)
		return err;
	if (!at_entry(th))
		return -EINVAL;
	err = utrace__regs_load(th);
	if (err)
		return err;
	memcpy(th->sc.args, a->args, sizeof(th->sc.args));
	args_to_regs(th);
	return 0;
}

UTRACE_EXPORT int utrace_syscall_set_args(struct utrace_engine *e,
					  const unsigned long args[6])
{
	struct sc_args a = { .e = e, .args = args };

	if (!e || !args)
		return -EINVAL;
	return utrace__call(e->t, do_set_args, &a);
}

static int do_set_return(void *arg)
{
	struct sc_args *a = arg;
	struct uthread *th;
	int err = check(a->e, &th);

	if (err)
		return err;
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
	struct sc_args a = { .e = e, .v = ret };

	if (!e)
		return -EINVAL;
	return utrace__call(e->t, do_set_return, &a);
}

/* -- Registers ------------------------------------------------------------------ */

struct regs_args {
	struct utrace_engine *e;
	struct user_regs_struct *out;
	const struct user_regs_struct *in;
};

static int do_regs_get(void *arg)
{
	struct regs_args *a = arg;
	struct uthread *th;
	int err = check(a->e, &th);

	if (err)
		return err;
	err = utrace__regs_load(th);
	if (err)
		return err == -ESRCH ? -ESRCH : err;
	*a->out = th->regs;
	return 0;
}

UTRACE_EXPORT int utrace_regs_get(struct utrace_engine *e,
				  struct user_regs_struct *regs)
{
	struct regs_args a = { .e = e, .out = regs };

	if (!e || !regs)
		return -EINVAL;
	return utrace__call(e->t, do_regs_get, &a);
}

static int do_regs_set(void *arg)
{
	struct regs_args *a = arg;
	struct uthread *th;
	int err = check(a->e, &th);

	if (err)
		return err;
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
	struct regs_args a = { .e = e, .in = regs };

	if (!e || !regs)
		return -EINVAL;
	return utrace__call(e->t, do_regs_set, &a);
}

/* -- Memory ------------------------------------------------------------------------ */

struct mem_args {
	struct utrace_engine *e;
	uint64_t addr;
	void *buf;
	size_t len;
	bool write;
	ssize_t ret;
};

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

static int do_mem(void *arg)
{
	struct mem_args *a = arg;
	struct uthread *th;
	int err = check(a->e, &th);

	if (err)
		return err;
	a->ret = mem_xfer(th->tid, a->addr, a->buf, a->len, a->write);
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
	struct mem_args a = { e, addr, buf, len, false, 0 };
	int err;

	if (!e || (!buf && len))
		return -EINVAL;
	err = utrace__call(e->t, do_mem, &a);
	return err ? err : a.ret;
}

UTRACE_EXPORT ssize_t utrace_mem_write(struct utrace_engine *e, uint64_t addr,
				       const void *buf, size_t len)
{
	struct mem_args a = { e, addr, (void *)buf, len, true, 0 };
	int err;

	if (!e || (!buf && len))
		return -EINVAL;
	err = utrace__call(e->t, do_mem, &a);
	return err ? err : a.ret;
}

static int do_read_string(void *arg)
{
	struct mem_args *a = arg;
	struct uthread *th;
	char *buf = a->buf;
	size_t got = 0;
	int err = check(a->e, &th);

	if (err)
		return err;
	/* Page by page: a string may end just before an unmapped page. */
	while (got < a->len - 1) {
		uint64_t addr = a->addr + got;
		size_t chunk = 4096 - (addr & 4095);
		ssize_t n;
		char *nul;

		if (chunk > a->len - 1 - got)
			chunk = a->len - 1 - got;
		n = mem_xfer(th->tid, addr, buf + got, chunk, false);
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
	struct mem_args a = { e, addr, buf, size, false, 0 };
	int err;

	if (!e || !buf || !size)
		return -EINVAL;
	err = utrace__call(e->t, do_read_string, &a);
	return err ? err : a.ret;
}
