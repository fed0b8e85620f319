// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * wait4's usage with each ptrace stop, as strace -c reads it: the
 * tracee's user + system time, the kernel's runtime to the microsecond
 * (not in whole clock ticks), never going back.
 */
#include <sys/resource.h>

#include "pt_common.h"

#define CALLS 2000

int main(void)
{
	long tick = sysconf(_SC_CLK_TCK) > 0 ? 1000000 / sysconf(_SC_CLK_TCK) :
		    10000;
	long long last = -1, t;
	int stops = 0, fine = 0, back = 0;
	struct rusage ru;
	pid_t pid;
	int st;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(98);
		raise(SIGSTOP);
		for (int i = 0; i < CALLS; i++)
			syscall(SYS_getppid);
		_exit(0);
	}
	for (;;) {
		if (wait4(pid, &st, 0, &ru) != pid)
			die("wait4: %s", strerror(errno));
		if (!WIFSTOPPED(st))
			break;
		t = (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
		    1000000 + ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
		if (t < last)
			back++;
		last = t;
		/* The first stop's may come another way (utrace(7)). */
		if (++stops > 1 && t % tick)
			fine++;
		if (ptrace(PTRACE_SYSCALL, pid, 0, 0))
			die("PTRACE_SYSCALL: %s", strerror(errno));
	}
	printf("end: %s\n", pt_status(st));
	printf("stops: %d\n", stops);
	printf("usage never goes back: %d\n", back == 0);
	/* Nearly all, but a real time can fall on a tick. */
	printf("finer than a tick: %d\n", fine > stops / 2);
	return 0;
}
