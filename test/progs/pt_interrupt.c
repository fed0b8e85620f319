// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * PTRACE_INTERRUPT of a seized tracee whose process is in a group stop
 * (restarted by PTRACE_CONT, running while its process stays stopped):
 * the trap is PTRACE_EVENT_STOP with the stop signal, not SIGTRAP, until a
 * SIGCONT ends the group stop, and traps the seized tracee
 * (PTRACE_EVENT_STOP, SIGTRAP) before its own delivery stop.
 */
#include "pt_common.h"

static pid_t pid;

static void step(const char *what, int req, int sig)
{
	if (req >= 0 && ptrace(req, pid, 0, (void *)(long)sig))
		die("%s: %s", what, strerror(errno));
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	if (ptrace(PTRACE_SEIZE, pid, 0, 0))
		die("seize: %s", strerror(errno));
	kill(pid, SIGSTOP);
	printf("1: %s\n", pt_status(pt_wait(pid, 0)));
	step("cont SIGSTOP", PTRACE_CONT, SIGSTOP);
	printf("2: %s\n", pt_status(pt_wait(pid, 0)));
	step("cont", PTRACE_CONT, 0);
	step("interrupt", PTRACE_INTERRUPT, 0);
	printf("3: %s\n", pt_status(pt_wait(pid, 0)));
	step("cont", PTRACE_CONT, 0);
	usleep(10000);
	step("interrupt", PTRACE_INTERRUPT, 0);
	printf("4: %s\n", pt_status(pt_wait(pid, 0)));
	/* SIGCONT ends the group stop: its delivery stop, then SIGTRAP. */
	kill(pid, SIGCONT);
	step("cont", PTRACE_CONT, 0);
	printf("5: %s\n", pt_status(pt_wait(pid, 0)));
	step("cont", PTRACE_CONT, 0);
	printf("6: %s\n", pt_status(pt_wait(pid, 0)));
	step("cont", PTRACE_CONT, 0);
	step("interrupt", PTRACE_INTERRUPT, 0);
	printf("7: %s\n", pt_status(pt_wait(pid, 0)));
	kill(pid, SIGKILL);
	printf("end: %s\n", pt_status(pt_wait(pid, 0)));
	return 0;
}
