// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Register sets beyond the general registers, and the x86 debug registers,
 * of a stopped thread: what a debugger (utrace --gdb) needs for the x87,
 * SSE and AVX state and for hardware breakpoints and watchpoints.
 *
 * Unlike the general registers (access.c), these are not cached: each call
 * is one ptrace request on the stopped thread, so a write is in place at
 * once and a read sees what the last write left.
 */
#include <errno.h>
#include <stddef.h>
#include <elf.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>

#include "core/internal.h"

/* As access.c: stopped, and inside a callback or held by this engine. */
static int held(struct utrace_engine *e, struct uthread **out)
{
	struct uthread *th = e->th;

	if ((atomic_load(&e->flags) & ENG_DETACHED) || !th)
		return -ESRCH;
	if (th->dead || th->state == TH_DEAD)
		return -ESRCH;
	/* A record holds the general registers only (utrace_from_record). */
	if (th->rec_pass)
		return -ENODATA;
	if (th->state != TH_STOPPED)
		return -EBUSY;
	if (!th->in_pass && !(atomic_load(&e->flags) & ENG_STOP))
		return -EBUSY;
	*out = th;
	return 0;
}

struct rs {
	struct utrace_engine *e;
	unsigned int type;
	void *buf;
	size_t len;
	bool write;
	int n;
	uint64_t *value;
	ssize_t ret;
};

static int do_regset(void *arg)
{
	struct rs *a = arg;
	struct iovec iov = { a->buf, a->len };
	struct uthread *th;
	int err = held(a->e, &th);

	if (err)
		return err;
	if (ptrace(a->write ? PTRACE_SETREGSET : PTRACE_GETREGSET, th->tid,
		   (void *)(unsigned long)a->type, &iov) < 0)
		return errno == ESRCH ? -ESRCH : -errno;
	a->ret = (ssize_t)iov.iov_len;
	return 0;
}

static ssize_t regset(struct rs *a)
{
	int err;

	if (!a->e || !a->buf || !a->len)
		return -EINVAL;
	/* The general registers go through the cache of utrace_regs_*. */
	if (a->type == NT_PRSTATUS)
		return -EINVAL;
	err = utrace__call(a->e->t, do_regset, a);
	return err ? err : a->ret;
}

/**
 * utrace_regset_get - read a register set (PTRACE_GETREGSET) of a stopped thread
 * @type: NT_PRFPREG, NT_X86_XSTATE, ...; not NT_PRSTATUS (utrace_regs_get)
 * Returns the bytes filled, or -errno.  See utrace_regset_get(3).
 */
UTRACE_EXPORT ssize_t utrace_regset_get(struct utrace_engine *e,
					unsigned int type, void *buf,
					size_t len)
{
	struct rs a = { .e = e, .type = type, .buf = buf, .len = len };

	return regset(&a);
}

/**
 * utrace_regset_set - write a register set (PTRACE_SETREGSET)
 * Returns the bytes the kernel took, or -errno.
 */
UTRACE_EXPORT ssize_t utrace_regset_set(struct utrace_engine *e,
					unsigned int type, const void *buf,
					size_t len)
{
	struct rs a = { .e = e, .type = type, .buf = (void *)buf, .len = len,
			.write = true };

	return regset(&a);
}

static bool dr_valid(int n)
{
	return (n >= 0 && n <= 3) || n == 6 || n == 7;
}

static int do_debugreg(void *arg)
{
	struct rs *a = arg;
	long off = (long)offsetof(struct user, u_debugreg) +
		   a->n * (long)sizeof(long);
	struct uthread *th;
	long v;
	int err = held(a->e, &th);

	if (err)
		return err;
	if (a->write) {
		if (ptrace(PTRACE_POKEUSER, th->tid, off, (long)*a->value) < 0)
			return -errno;
		return 0;
	}
	errno = 0;
	v = ptrace(PTRACE_PEEKUSER, th->tid, off, 0L);
	if (errno)
		return -errno;
	*a->value = (uint64_t)v;
	return 0;
}

/**
 * utrace_debugreg_get - read x86 debug register DR@n (0-3, 6 or 7)
 * See utrace_debugreg_get(3).
 */
UTRACE_EXPORT int utrace_debugreg_get(struct utrace_engine *e, int n,
				      uint64_t *value)
{
	struct rs a = { .e = e, .n = n, .value = value };

	if (!e || !value || !dr_valid(n))
		return -EINVAL;
	return utrace__call(e->t, do_debugreg, &a);
}

/**
 * utrace_debugreg_set - write x86 debug register DR@n (0-3, 6 or 7)
 * The kernel checks the value: an address outside user space, or a DR7
 * that enables a bad length or alignment, gives -EINVAL (or -EIO).
 */
UTRACE_EXPORT int utrace_debugreg_set(struct utrace_engine *e, int n,
				      uint64_t value)
{
	struct rs a = { .e = e, .n = n, .value = &value, .write = true };

	if (!e || !dr_valid(n))
		return -EINVAL;
	return utrace__call(e->t, do_debugreg, &a);
}
