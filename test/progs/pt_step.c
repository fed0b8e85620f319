// SPDX-License-Identifier: LGPL-2.1-or-later
/* PTRACE_SINGLESTEP: each step is a SIGTRAP stop (TRAP_TRACE) that moves. */
#include "pt_common.h"

int main(void)
{
	struct user_regs_struct r;
	unsigned long last = 0;
	siginfo_t si;
	pid_t pid;
	int st, i, moved = 0, traps = 0;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		volatile unsigned long x = 0;

		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		for (i = 0; i < 1000; i++)
			x += (unsigned long)i;
		_exit((int)(x & 0x7f));
	}
	pt_wait(pid, 0);
	for (i = 0; i < 20; i++) {
		ptrace(PTRACE_SINGLESTEP, pid, 0, 0);
		st = pt_wait(pid, 0);
		ptrace(PTRACE_GETSIGINFO, pid, 0, &si);
		traps += WSTOPSIG(st) == SIGTRAP && si.si_code == TRAP_TRACE;
		ptrace(PTRACE_GETREGS, pid, 0, &r);
		moved += r.rip != last;
		last = r.rip;
	}
	printf("steps %d traps %d moved %d\n", i, traps, moved);
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = pt_wait(pid, 0);
	printf("end: %s\n", pt_status(st));
	return 0;
}
