// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * PTRACE_SEIZE of a child already in a group stop: the tracee traps into
 * it for its new tracer (PTRACE_EVENT_STOP), and a PTRACE_SYSCALL from
 * there lets it run on (the kernel ends this thread's group stop) to its
 * syscall stops and its exec event.
 */
#include "pt_common.h"

int main(int argc, char **argv)
{
	pid_t pid;
	int st, n;

	if (argc > 1)
		return 5;	/* the exec'd child */
	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		kill(getpid(), SIGSTOP);
		execl(argv[0], argv[0], "again", (char *)NULL);
		_exit(1);
	}
	/* Stopped by its own SIGSTOP, as its parent sees it. */
	printf("0: %s\n", pt_status(pt_wait(pid, WUNTRACED)));
	if (ptrace(PTRACE_SEIZE, pid, 0, (void *)PTRACE_O_TRACEEXEC))
		die("seize: %s", strerror(errno));
	printf("1: %s\n", pt_status(pt_wait(pid, 0)));
	for (n = 2; n < 12; n++) {
		if (ptrace(PTRACE_SYSCALL, pid, 0, 0))
			die("syscall: %s", strerror(errno));
		st = pt_wait(pid, 0);
		printf("%d: %s\n", n, pt_status(st));
		if (st >> 16 == PTRACE_EVENT_EXEC || !WIFSTOPPED(st))
			break;
	}
	ptrace(PTRACE_CONT, pid, 0, 0);
	printf("end: %s\n", pt_status(pt_wait(pid, 0)));
	return 0;
}
