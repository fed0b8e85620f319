// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the tracer's SIGCHLD says (si_code CLD_TRAPPED at a ptrace stop,
 * CLD_EXITED at the end, si_pid, si_status) and wait4's rusage of a tracee
 * stopped after using CPU time.
 */
#include "pt_common.h"
#include <time.h>
#include <sys/resource.h>

static volatile siginfo_t got;
static volatile int ngot;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	if (!ngot++)
		memcpy((void *)&got, si, sizeof(*si));
}

static void burn(long ms)
{
	struct timespec ts;

	do
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	while (ts.tv_sec * 1000 + ts.tv_nsec / 1000000 < ms);
}

static void show(const char *what, pid_t pid)
{
	printf("%s: SIGCHLD %d code %d status %d pid-is-tracee %d\n", what,
	       ngot > 0, got.si_code, got.si_status, got.si_pid == pid);
	ngot = 0;
}

int main(void)
{
	struct sigaction sa;
	struct rusage ru;
	pid_t pid;
	long ms;
	int st;

	setvbuf(stdout, NULL, _IONBF, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		burn(200);
		raise(SIGSTOP);
		_exit(3);
	}
	if (wait4(pid, &st, 0, &ru) != pid)
		die("wait4");
	printf("1: %s\n", pt_status(st));
	show("stop", pid);
	ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
	     (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
	printf("rusage: cpu >= 150 ms %d, maxrss > 0 %d\n", ms >= 150,
	       ru.ru_maxrss > 0);
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = pt_wait(pid, 0);
	printf("2: %s\n", pt_status(st));
	show("exit", pid);
	return 0;
}
