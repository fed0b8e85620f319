/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CLONE_PTRACE (clone(2)): a traced child's clone with it makes a child
 * that its tracer traces too, from a SIGSTOP stop, though no
 * PTRACE_O_TRACE* option is set (so no event stop in the parent).
 */
#include "pt_common.h"
#include <sched.h>

int main(void)
{
	char cs[96] = "", gs[96] = "";
	pid_t pid, gc = 0;
	sigset_t chld;
	int st;

	setvbuf(stdout, NULL, _IOLBF, 0);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		/* Its child's death must not make a stop of its own. */
		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		sigprocmask(SIG_BLOCK, &chld, NULL);
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			die("TRACEME: %s", strerror(errno));
		raise(SIGSTOP);
		if (syscall(SYS_clone, CLONE_PTRACE | SIGCHLD, 0, NULL, NULL,
			    0) == 0)
			_exit(5);
		_exit(6);
	}
	printf("child: %s\n", pt_status(pt_wait(pid, 0)));
	if (ptrace(PTRACE_CONT, pid, 0, 0))
		die("CONT: %s", strerror(errno));
	/* The child's exit and the new child's stop, in either order. */
	while (!cs[0] || !gs[0]) {
		pid_t w = waitpid(-1, &st, __WALL);

		if (w <= 0)
			die("wait: %s", strerror(errno));
		if (w == pid) {
			snprintf(cs, sizeof(cs), "%s", pt_status(st));
		} else {
			gc = w;
			snprintf(gs, sizeof(gs), "%s", pt_status(st));
		}
	}
	printf("child: %s\ngrandchild: %s\n", cs, gs);
	if (ptrace(PTRACE_CONT, gc, 0, 0))
		die("CONT grandchild: %s", strerror(errno));
	printf("grandchild: %s\n", pt_status(pt_wait(gc, __WALL)));
	return 0;
}
