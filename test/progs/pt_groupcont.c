// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A non-seized tracee in a group stop: PTRACE_CONT resumes it (the kernel
 * lets it run although its process is stopped), and it ends.
 */
#include "pt_common.h"

int main(void)
{
	pid_t pid;
	int st;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		printf("child runs on\n");
		_exit(4);
	}
	/* The SIGSTOP's delivery stop; delivered, it makes a group stop. */
	printf("1: %s\n", pt_status(pt_wait(pid, 0)));
	ptrace(PTRACE_CONT, pid, 0, SIGSTOP);
	st = pt_wait(pid, 0);
	printf("2: %s\n", pt_status(st));
	/* Stopped, not a signal-delivery stop: no siginfo (EINVAL). */
	{
		siginfo_t si;
		long r;

		errno = 0;
		r = ptrace(PTRACE_GETSIGINFO, pid, 0, &si);
		printf("group stop: GETSIGINFO %ld %s\n", r, strerror(errno));
	}
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = pt_wait(pid, 0);
	printf("3: %s\n", pt_status(st));
	return 0;
}
