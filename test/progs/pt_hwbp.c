// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Debug registers through PEEKUSER/POKEUSER, as gdb, rr and LTP's
 * ptrace08..ptrace10 use them: a write watchpoint (DR0) and an execution
 * breakpoint (DR1) enabled in DR7 trap the tracee (SIGTRAP, TRAP_HWBKPT)
 * with DR6 saying which; DR6 can be cleared; a kernel address is refused
 * (EINVAL) in an enabled slot, whichever of DR0 and DR7 comes last; DR7
 * bits the kernel rejects (EINVAL); and a cleared DR7 traps no more.
 */
#include "pt_common.h"

#define DR(n)	(offsetof(struct user, u_debugreg) + (n) * 8)
#define KADDR	0xffffffff81000000UL

static pid_t pid;
static volatile int watched;

static void __attribute__((noinline)) target(void)
{
	__asm__ volatile("" ::: "memory");
}

static unsigned long peek(int n)
{
	long v;

	errno = 0;
	v = ptrace(PTRACE_PEEKUSER, pid, (void *)DR(n), 0);
	if (errno)
		die("peek dr%d: %s", n, strerror(errno));
	return (unsigned long)v;
}

static void poke(int n, unsigned long v)
{
	long r = ptrace(PTRACE_POKEUSER, pid, (void *)DR(n), (void *)v);

	printf("poke dr%d %s: %s\n", n, v >= KADDR ? "kernel address" :
	       v == (unsigned long)&watched ? "&watched" :
	       v == (unsigned long)target ? "&target" : "value",
	       r ? strerror(errno) : "0");
}

/* Run to the next stop; say what it is. */
static void cont(const char *what)
{
	struct user_regs_struct regs;
	siginfo_t si;
	int st;

	if (ptrace(PTRACE_CONT, pid, 0, 0))
		die("cont: %s", strerror(errno));
	st = pt_wait(pid, 0);
	if (!WIFSTOPPED(st)) {
		printf("%s: %s\n", what, pt_status(st));
		return;
	}
	if (ptrace(PTRACE_GETSIGINFO, pid, 0, &si) ||
	    ptrace(PTRACE_GETREGS, pid, 0, &regs))
		die("getsiginfo: %s", strerror(errno));
	printf("%s: %s, si_code %d, dr6 %#lx, %s, watched %ld\n", what,
	       pt_status(st), si.si_code, peek(6) & 0xf,
	       regs.rip == (unsigned long)target ? "at target" : "elsewhere",
	       ptrace(PTRACE_PEEKDATA, pid, (void *)&watched, 0) & 0xffffffff);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		watched = 1;
		target();
		watched = 2;
		target();
		_exit(0);
	}
	printf("0: %s\n", pt_status(pt_wait(pid, 0)));

	/* LTP ptrace08: a kernel address in an enabled slot. */
	poke(0, KADDR);
	poke(7, 1);
	poke(0, 0);
	poke(7, 1);
	poke(0, KADDR);
	printf("dr0 %s, dr7 %#lx\n", peek(0) ? "kept" : "0", peek(7));
	poke(7, 0);
	/* Reserved DR7 bits and a 4-byte write watch on an odd address. */
	poke(7, 0x400);
	poke(0, (unsigned long)&watched + 1);
	poke(7, 0xd0001);
	poke(7, 0);

	/* Write watch on watched (DR0), execution breakpoint on target. */
	poke(0, (unsigned long)&watched);
	poke(1, (unsigned long)target);
	poke(7, 0xd0001 | 0x4);
	printf("dr0 %s, dr1 %s, dr7 %#lx\n",
	       peek(0) == (unsigned long)&watched ? "&watched" : "other",
	       peek(1) == (unsigned long)target ? "&target" : "other",
	       peek(7));
	cont("1");
	poke(6, 0);
	cont("2");
	poke(6, 0);
	cont("3");
	poke(6, 0);
	/* No more traps: cleared DR7. */
	poke(7, 0);
	cont("end");
	return 0;
}
