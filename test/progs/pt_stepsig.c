// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A signal delivered with PTRACE_SINGLESTEP: the kernel sets up the
 * handler frame and traps at once (SIGTRAP, si_code SIGTRAP) at the
 * handler's first instruction; stepping on runs the handler.
 */
#include "pt_common.h"

static volatile int handled;

static void handler(int sig)
{
	handled++;
}

int main(void)
{
	struct user_regs_struct r;
	siginfo_t si;
	pid_t pid;
	int st;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		signal(SIGUSR1, handler);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		raise(SIGUSR1);
		_exit(handled == 1 ? 7 : 8);
	}
	printf("1: %s\n", pt_status(pt_wait(pid, 0)));
	ptrace(PTRACE_CONT, pid, 0, 0);
	printf("2: %s\n", pt_status(pt_wait(pid, 0)));
	ptrace(PTRACE_SINGLESTEP, pid, 0, SIGUSR1);
	st = pt_wait(pid, 0);
	ptrace(PTRACE_GETSIGINFO, pid, 0, &si);
	ptrace(PTRACE_GETREGS, pid, 0, &r);
	printf("3: %s code %d pid-is-tracee %d at-handler %d\n", pt_status(st),
	       si.si_code, si.si_pid == pid,
	       r.rip == (unsigned long)handler);
	ptrace(PTRACE_SINGLESTEP, pid, 0, 0);
	st = pt_wait(pid, 0);
	ptrace(PTRACE_GETSIGINFO, pid, 0, &si);
	ptrace(PTRACE_GETREGS, pid, 0, &r);
	printf("4: %s code %d in-handler %d\n", pt_status(st), si.si_code,
	       r.rip > (unsigned long)handler &&
	       r.rip < (unsigned long)handler + 64);
	ptrace(PTRACE_CONT, pid, 0, 0);
	printf("end: %s\n", pt_status(pt_wait(pid, 0)));
	return 0;
}
