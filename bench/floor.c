// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * floor - the raw-ptrace floor: the least a ptrace(2) syscall tracer can do.
 *
 *	floor [-i] [--] PROG [ARGS...]
 *
 * PTRACE_TRACEME + PTRACE_SYSCALL + waitpid(-1), following forks, vforks
 * and threads (PTRACE_O_TRACECLONE/FORK/VFORK), stopping at every syscall
 * entry and exit, and nothing else: no register read, no memory read, no
 * output.  Signals are passed on; the first SIGSTOP of each new child is
 * swallowed.  -i adds one PTRACE_GET_SYSCALL_INFO per syscall stop (what
 * any real tracer needs at least), to split the floor from the rest.
 *
 * Exits with PROG's status.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <linux/ptrace.h>

#define PID_BITS (1 << 22)	/* pid_max limit on 64-bit */

static uint64_t seen[PID_BITS / 64];	/* pids whose first stop we saw */

static int seen_test_set(pid_t pid)
{
	uint64_t bit = 1ULL << (pid % 64);
	int was = !!(seen[pid / 64] & bit);

	seen[pid / 64] |= bit;
	return was;
}

static void seen_clear(pid_t pid)
{
	seen[pid / 64] &= ~(1ULL << (pid % 64));
}

int main(int argc, char **argv)
{
	int info = 0, status, exit_code = 0;
	long opts = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACECLONE |
		    PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
		    PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL;
	pid_t child, pid;

	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "-i"))
			info = 1;
		else if (!strcmp(argv[1], "--")) {
			argv++, argc--;
			break;
		} else {
			fprintf(stderr, "usage: floor [-i] [--] PROG [ARGS...]\n");
			return 2;
		}
		argv++, argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: floor [-i] [--] PROG [ARGS...]\n");
		return 2;
	}
	child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (child == 0) {
		ptrace(PTRACE_TRACEME, 0L, 0L, 0L);
		raise(SIGSTOP);
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (waitpid(child, &status, 0) < 0 || !WIFSTOPPED(status)) {
		fprintf(stderr, "floor: child did not stop\n");
		return 1;
	}
	seen_test_set(child);
	ptrace(PTRACE_SETOPTIONS, child, 0L, opts);
	ptrace(PTRACE_SYSCALL, child, 0L, 0L);

	for (;;) {
		int sig = 0;

		pid = waitpid(-1, &status, __WALL);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			seen_clear(pid);
			if (pid == child)
				exit_code = WIFEXITED(status) ?
					    WEXITSTATUS(status) :
					    128 + WTERMSIG(status);
			continue;
		}
		if (!WIFSTOPPED(status))
			continue;
		if (!seen_test_set(pid)) {
			/* A new child's first stop (SIGSTOP): swallowed. */
		} else if (status >> 16) {
			/* PTRACE_EVENT_*: nothing to pass on. */
		} else if (WSTOPSIG(status) == (SIGTRAP | 0x80)) {
			if (info) {
				struct ptrace_syscall_info in;

				ptrace(PTRACE_GET_SYSCALL_INFO, pid,
				       (long)sizeof(in), &in);
			}
		} else {
			sig = WSTOPSIG(status);
		}
		ptrace(PTRACE_SYSCALL, pid, 0L, (long)sig);
	}
	return exit_code;
}
