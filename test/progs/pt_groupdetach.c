// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A tracer and a child in a group stop: PTRACE_DETACH leaves it stopped
 * (SIGCONT lets it go on), PTRACE_CONT from the SIGSTOP stop of
 * PTRACE_ATTACH or from the trap of PTRACE_SEIZE lets it run although its
 * process stays stopped.  The child says each time it runs on a pipe.
 */
#include "pt_common.h"
#include <poll.h>

static int rd;

/* Did the child run (a byte on the pipe) within @ms? */
static const char *ran(int ms)
{
	struct pollfd p = { rd, POLLIN, 0 };
	char c;

	if (poll(&p, 1, ms) == 1 && read(rd, &c, 1) == 1)
		return "ran";
	return "stayed stopped";
}

/* A child that stops itself, then writes a byte each time it runs. */
static pid_t child(void)
{
	int fd[2];
	pid_t pid;

	if (pipe(fd))
		die("pipe");
	pid = fork();
	if (pid == 0) {
		close(fd[0]);
		for (;;) {
			raise(SIGSTOP);
			if (write(fd[1], "r", 1) != 1)
				_exit(1);
		}
	}
	close(fd[1]);
	rd = fd[0];
	printf("stopped: %s\n", pt_status(pt_wait(pid, WUNTRACED)));
	return pid;
}

static void end(pid_t pid)
{
	kill(pid, SIGKILL);
	while (!WIFSIGNALED(pt_wait(pid, __WALL)))
		;
	close(rd);
}

int main(void)
{
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);

	/* SEIZE, its trap, DETACH: still stopped until SIGCONT. */
	pid = child();
	if (ptrace(PTRACE_SEIZE, pid, 0, 0))
		die("seize: %s", strerror(errno));
	printf("seize: %s\n", pt_status(pt_wait(pid, 0)));
	if (ptrace(PTRACE_DETACH, pid, 0, 0))
		die("detach: %s", strerror(errno));
	printf("detached: %s\n", ran(300));
	kill(pid, SIGCONT);
	printf("SIGCONT: %s\n", ran(5000));
	end(pid);

	/* ATTACH, its SIGSTOP stop, CONT: it runs, its process stopped. */
	pid = child();
	if (ptrace(PTRACE_ATTACH, pid, 0, 0))
		die("attach: %s", strerror(errno));
	printf("attach: %s\n", pt_status(pt_wait(pid, 0)));
	if (ptrace(PTRACE_CONT, pid, 0, 0))
		die("cont: %s", strerror(errno));
	printf("continued: %s\n", ran(5000));
	printf("next: %s\n", pt_status(pt_wait(pid, 0)));
	end(pid);

	/* SEIZE, its trap, CONT: it runs. */
	pid = child();
	if (ptrace(PTRACE_SEIZE, pid, 0, 0))
		die("seize: %s", strerror(errno));
	printf("seize: %s\n", pt_status(pt_wait(pid, 0)));
	if (ptrace(PTRACE_CONT, pid, 0, 0))
		die("cont: %s", strerror(errno));
	printf("continued: %s\n", ran(5000));
	printf("next: %s\n", pt_status(pt_wait(pid, 0)));
	end(pid);
	return 0;
}
