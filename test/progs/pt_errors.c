// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * In the manner of LTP's ptrace01, ptrace03, ptrace05 and ptrace06: a
 * PTRACE_TRACEME child that sends itself each signal (1..64, but SIGKILL
 * last) stops for each, and PTRACE_KILL ends one (ptrace01, ptrace05);
 * the errors (ptrace03, ptrace06): ESRCH for a pid not traced or gone,
 * EPERM attaching to itself or twice, EIO for an unknown request or a
 * bad signal, and PEEK/POKE at bad addresses (EIO, EFAULT).
 */
#include "pt_common.h"

static void err(const char *what, long r)
{
	printf("%s: %s\n", what, r == -1 ? strerror(errno) : "0");
}

int main(void)
{
	struct user_regs_struct regs;
	int st, sig, stops = 0, handled = 0;
	pid_t pid, other;

	setvbuf(stdout, NULL, _IONBF, 0);

	/* ptrace05: each signal, in a TRACEME child, is a delivery stop. */
	for (sig = 1; sig <= 64; sig++) {
		if (sig == 32 || sig == 33)
			continue;	/* glibc's own */
		pid = fork();
		if (pid == 0) {
			ptrace(PTRACE_TRACEME, 0, 0, 0);
			kill(getpid(), sig);
			_exit(0);
		}
		st = pt_wait(pid, 0);
		if (sig == SIGKILL) {
			printf("SIGKILL: %s\n", pt_status(st));
			continue;
		}
		if (WIFSTOPPED(st) && WSTOPSIG(st) == sig)
			stops++;
		else
			printf("signal %d: %s\n", sig, pt_status(st));
		/* ptrace01: PTRACE_KILL from the stop. */
		if (ptrace(PTRACE_KILL, pid, 0, 0))
			die("kill: %s", strerror(errno));
		st = pt_wait(pid, 0);
		if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
			handled++;
		else
			printf("signal %d, PTRACE_KILL: %s\n", sig, pt_status(st));
	}
	printf("delivery stops %d, killed %d\n", stops, handled);

	/* ptrace03, ptrace06: errors. */
	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		_exit(0);
	}
	printf("stop: %s\n", pt_status(pt_wait(pid, 0)));
	other = fork();
	if (other == 0) {
		pause();
		_exit(0);
	}
	err("attach self", ptrace(PTRACE_ATTACH, getpid(), 0, 0));
	err("attach traced", ptrace(PTRACE_ATTACH, pid, 0, 0));
	err("seize traced", ptrace(PTRACE_SEIZE, pid, 0, 0));
	err("cont not traced", ptrace(PTRACE_CONT, other, 0, 0));
	err("getregs not traced", ptrace(PTRACE_GETREGS, other, 0, &regs));
	err("unknown request", ptrace((enum __ptrace_request)0x7777, pid, 0, 0));
	err("cont signal 65", ptrace(PTRACE_CONT, pid, 0, (void *)65));
	err("cont signal -1", ptrace(PTRACE_CONT, pid, 0, (void *)-1L));
	errno = 0;
	ptrace(PTRACE_PEEKDATA, pid, (void *)0, 0);
	printf("peekdata NULL: %s\n", strerror(errno));
	errno = 0;
	ptrace(PTRACE_PEEKDATA, pid, (void *)-1L, 0);
	printf("peekdata -1: %s\n", strerror(errno));
	err("pokedata NULL", ptrace(PTRACE_POKEDATA, pid, (void *)0, 0));
	errno = 0;
	ptrace(PTRACE_PEEKUSER, pid, (void *)-1L, 0);
	printf("peekuser -1: %s\n", strerror(errno));
	errno = 0;
	ptrace(PTRACE_PEEKUSER, pid, (void *)(sizeof(struct user) + 8), 0);
	printf("peekuser past user: %s\n", strerror(errno));
	err("pokeuser -1", ptrace(PTRACE_POKEUSER, pid, (void *)-1L, 0));
	err("getregs NULL", ptrace(PTRACE_GETREGS, pid, 0, NULL));
	err("getregs -1", ptrace(PTRACE_GETREGS, pid, 0, (void *)-1L));
	err("setregs NULL", ptrace(PTRACE_SETREGS, pid, 0, NULL));
	err("getfpregs NULL", ptrace(PTRACE_GETFPREGS, pid, 0, NULL));
	err("getsiginfo NULL", ptrace(PTRACE_GETSIGINFO, pid, 0, NULL));
	err("setsiginfo NULL", ptrace(PTRACE_SETSIGINFO, pid, 0, NULL));
	err("geteventmsg NULL", ptrace(PTRACE_GETEVENTMSG, pid, 0, NULL));
	err("setoptions bad", ptrace(PTRACE_SETOPTIONS, pid, 0,
				     (void *)0x80000000L));
	err("cont", ptrace(PTRACE_CONT, pid, 0, 0));
	printf("end: %s\n", pt_status(pt_wait(pid, 0)));
	err("cont gone", ptrace(PTRACE_CONT, pid, 0, 0));
	kill(other, SIGKILL);
	printf("other: %s\n", pt_status(pt_wait(other, 0)));
	return 0;
}
