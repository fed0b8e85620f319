// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tracer is a thread, not a process (rr's ptrace_waiter_thread and
 * ptrace_attach_thread_running): another thread of the tracer's process
 * may wait for the tracee, but its ptrace requests fail with ESRCH; the
 * attaching thread's succeed.
 */
#include <pthread.h>

#include "pt_common.h"

static pid_t pid;

static void *other(void *arg)
{
	struct user_regs_struct r;
	long x;

	printf("thread: wait: %s\n", pt_status(pt_wait(pid, 0)));
	x = ptrace(PTRACE_GETREGS, pid, 0, &r);
	printf("thread: getregs: %s\n", x ? strerror(errno) : "0");
	x = ptrace(PTRACE_CONT, pid, 0, 0);
	printf("thread: cont: %s\n", x ? strerror(errno) : "0");
	x = ptrace(PTRACE_DETACH, pid, 0, 0);
	printf("thread: detach: %s\n", x ? strerror(errno) : "0");
	return NULL;
}

int main(void)
{
	struct user_regs_struct r;
	pthread_t t;
	long x;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	if (ptrace(PTRACE_ATTACH, pid, 0, 0))
		die("attach: %s", strerror(errno));
	if (pthread_create(&t, NULL, other, NULL))
		die("pthread_create");
	pthread_join(t, NULL);
	x = ptrace(PTRACE_GETREGS, pid, 0, &r);
	printf("main: getregs: %s\n", x ? strerror(errno) : "0");
	x = ptrace(PTRACE_CONT, pid, 0, 0);
	printf("main: cont: %s\n", x ? strerror(errno) : "0");
	kill(pid, SIGKILL);
	printf("end: %s\n", pt_status(pt_wait(pid, 0)));
	return 0;
}
