// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tracer dies while its tracee is stopped: without PTRACE_O_EXITKILL
 * the tracee is let go and runs on; with it, the tracee is killed.  The
 * tracee reports through a pipe that outlives both.
 */
#include "pt_common.h"

static void run(bool exitkill)
{
	int fd[2], st;
	pid_t t;
	char buf[16];
	ssize_t n;

	if (pipe(fd))
		die("pipe");
	t = fork();
	if (t == 0) {
		pid_t c = fork();

		if (c == 0) {
			close(fd[0]);
			ptrace(PTRACE_TRACEME, 0, 0, 0);
			raise(SIGSTOP);
			write(fd[1], "alive", 5);
			_exit(0);
		}
		close(fd[1]);
		pt_wait(c, 0);
		if (exitkill)
			ptrace(PTRACE_SETOPTIONS, c, 0, PTRACE_O_EXITKILL);
		raise(SIGKILL);
	}
	close(fd[1]);
	st = pt_wait(t, 0);
	n = read(fd[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	printf("%s: tracer %s, tracee says \"%s\"\n",
	       exitkill ? "EXITKILL" : "plain", pt_status(st), buf);
	close(fd[0]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	run(false);
	run(true);
	return 0;
}
