/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers of the pt_* programs: each uses ptrace(2) itself and prints what
 * it saw, the same natively and under utrace -f (test/cli/ptrace.sh).
 */
#ifndef PT_COMMON_H
#define PT_COMMON_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>

#define die(...) do { printf("FAIL: " __VA_ARGS__); printf("\n"); \
		       fflush(stdout); exit(99); } while (0)

/* A wait status in words that do not depend on pids. */
static inline const char *pt_status(int st)
{
	static char buf[96];

	if (WIFEXITED(st))
		snprintf(buf, sizeof(buf), "exited %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, sizeof(buf), "killed %s", strsignal(WTERMSIG(st)));
	else if (WIFSTOPPED(st) && st >> 16)
		snprintf(buf, sizeof(buf), "stopped %s event %d",
			 strsignal(WSTOPSIG(st) & 0x7f), st >> 16);
	else if (WIFSTOPPED(st))
		snprintf(buf, sizeof(buf), "stopped %s%s",
			 strsignal(WSTOPSIG(st) & 0x7f),
			 WSTOPSIG(st) & 0x80 ? " |0x80" : "");
	else
		snprintf(buf, sizeof(buf), "status %#x", st);
	return buf;
}

static inline int pt_wait(pid_t pid, int flags)
{
	int st;

	if (waitpid(pid, &st, flags) != pid)
		die("waitpid(%d): %s", pid, strerror(errno));
	return st;
}

#endif
