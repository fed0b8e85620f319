// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A system call made in a stopped thread on the library's behalf, as if
 * the thread had made it itself (core/layer.h, utrace__engine_run_syscall):
 * what the ptrace emulation needs to drop privileges the kernel would not
 * have granted (a set-user-ID exec under a tracer without CAP_SYS_PTRACE).
 *
 * At a syscall-exit stop the registers are final: they are saved, the
 * thread is pointed at a syscall instruction with the call's number and
 * arguments and single-stepped over it, and the registers are put back.
 * The instruction is one in the vDSO (its system call fallbacks), so no
 * memory is written; without a vDSO the two bytes at the thread's pc are
 * borrowed and put back.  Engines see nothing of it: a single step makes
 * no syscall stops.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "core/internal.h"

/* A syscall instruction (0f 05) in the thread's vDSO, or 0. */
static uint64_t vdso_syscall(pid_t tid)
{
	char path[64], line[256], *buf = NULL;
	uint64_t lo = 0, hi = 0, r = 0;
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/maps", tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") &&
		    sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			break;
	fclose(f);
	if (!lo || hi <= lo || hi - lo > (1 << 20))
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/mem", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	buf = malloc(hi - lo);
	if (fd >= 0 && buf && pread(fd, buf, hi - lo, (off_t)lo) ==
	    (ssize_t)(hi - lo)) {
		for (uint64_t i = 0; i + 1 < hi - lo; i++)
			if ((unsigned char)buf[i] == 0x0f &&
			    (unsigned char)buf[i + 1] == 0x05) {
				r = lo + i;
				break;
			}
	}
	free(buf);
	if (fd >= 0)
		close(fd);
	return r;
}

/*
 * Step the thread over the instruction at its pc, to the trap after it.
 * Stops on the way are the thread's: a seccomp stop (a filter's
 * RET_TRACE) goes on; a signal is owed to the program (sent again when
 * the thread is restarted, and reported then) and the step goes on; a
 * PTRACE_INTERRUPT trap is consumed.  0, or -ESRCH when the thread died
 * or left by SIGKILL (its status is put back for the loop).
 */
static int step_over(struct uthread *th)
{
	struct utrace__status s;
	int sig;

	for (;;) {
		if (ptrace(PTRACE_SINGLESTEP, th->tid, 0L, 0L) < 0)
			return -ESRCH;
		while (utrace__wait(th->t, th->tid, __WALL, &s) < 0)
			if (errno != EINTR)
				return -ESRCH;
		if (!WIFSTOPPED(s.status) ||
		    s.status >> 16 == PTRACE_EVENT_EXIT) {
			utrace__requeue(th->t, &s);
			return -ESRCH;
		}
		sig = WSTOPSIG(s.status);
		if (s.status >> 16) {
			th->interrupt_sent = false;
			continue;	/* seccomp stop, interrupt trap */
		}
		if (sig == SIGTRAP)
			return 0;
		{
			siginfo_t si;

			if (ptrace(PTRACE_GETSIGINFO, th->tid, 0L, &si) < 0)
				return -ESRCH;
			utrace__signal_pend(th, &si, true, false);
		}
	}
}

/**
 * utrace__engine_run_syscall - make system call @nr in the thread of @e
 * @args: its six arguments
 * @ret: its return value (a negative errno)
 *
 * The thread must sit at a syscall-exit stop (utrace__engine_stop), where
 * it is left afterwards with the registers it had (the library's copy and
 * the engines' changes included).  Loop thread, inside a callback for the
 * thread or while an engine holds it.  Returns 0, -EBUSY (not at a
 * syscall-exit stop), or -ESRCH (gone, or SIGKILL came).
 */
int utrace__engine_run_syscall(struct utrace_engine *e, long nr,
			       const uint64_t args[6], long *ret)
{
	struct uthread *th = e ? e->th : NULL;
	struct user_regs_struct saved, r;
	uint64_t at;
	long word = 0;
	bool borrowed = false;
	int err;

	if (!th || th->dead || th->state != TH_STOPPED)
		return -ESRCH;
	if (th->stop != STOP_SYSCALL_EXIT)
		return -EBUSY;
	err = utrace__regs_load(th);
	if (err)
		return err;
	saved = th->regs;	/* with the engines' changes */
	at = vdso_syscall(th->tid);
	if (!at) {
		/* No vDSO: borrow the two bytes at the pc. */
		errno = 0;
		word = ptrace(PTRACE_PEEKTEXT, th->tid, (void *)saved.rip, 0L);
		if (errno)
			return -ESRCH;
		at = saved.rip;
		if (ptrace(PTRACE_POKETEXT, th->tid, (void *)at,
			   (void *)((word & ~0xffffL) | 0x050f)) < 0)
			return -ESRCH;
		borrowed = true;
	}
	r = saved;
	r.rip = at;
	r.rax = (uint64_t)nr;
	r.orig_rax = (uint64_t)-1;	/* no restart logic on the way out */
	r.rdi = args[0];
	r.rsi = args[1];
	r.rdx = args[2];
	r.r10 = args[3];
	r.r8 = args[4];
	r.r9 = args[5];
	if (ptrace(PTRACE_SETREGS, th->tid, 0L, &r) < 0)
		err = -ESRCH;
	if (!err)
		err = step_over(th);
	if (!err && ptrace(PTRACE_GETREGS, th->tid, 0L, &r) < 0)
		err = -ESRCH;
	if (!err && ret)
		*ret = (long)r.rax;
	/* Put back what the thread had (gone, these fail harmlessly). */
	if (borrowed)
		ptrace(PTRACE_POKETEXT, th->tid, (void *)at, (void *)word);
	ptrace(PTRACE_SETREGS, th->tid, 0L, &saved);
	th->regs = saved;
	th->regs_valid = true;
	th->regs_dirty = false;
	return err;
}
