// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Signal-delivery stops: SIGUSR1 (deadly) suppressed by the tracer, SIGUSR2
 * changed into SIGWINCH (caught), SIGINT passed on (caught, with its
 * siginfo as sent), and a stepped SIGTRAP.
 */
#include "pt_common.h"

static volatile int got;

static void handler(int sig, siginfo_t *si, void *uc)
{
	got = sig * 100 + (si->si_code == SI_TKILL);
}

int main(void)
{
	struct sigaction sa;
	siginfo_t si;
	pid_t pid;
	int st, i;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = handler;
		sa.sa_flags = SA_SIGINFO;
		sigaction(SIGWINCH, &sa, NULL);
		sigaction(SIGINT, &sa, NULL);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGUSR1);
		printf("child: survived SIGUSR1\n");
		raise(SIGUSR2);
		printf("child: got %d\n", got);
		raise(SIGINT);
		printf("child: got %d\n", got);
		_exit(0);
	}
	for (i = 0; ; i++) {
		int sig;

		st = pt_wait(pid, 0);
		if (!WIFSTOPPED(st))
			break;
		ptrace(PTRACE_GETSIGINFO, pid, 0, &si);
		printf("stop %d: %s code-is-tkill %d\n", i, pt_status(st),
		       si.si_code == SI_TKILL);
		sig = WSTOPSIG(st);
		if (sig == SIGUSR1)
			sig = 0;
		else if (sig == SIGUSR2)
			sig = SIGWINCH;
		ptrace(PTRACE_CONT, pid, 0, sig);
	}
	printf("end: %s\n", pt_status(st));
	return 0;
}
