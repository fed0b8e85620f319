// SPDX-License-Identifier: LGPL-2.1-or-later
/* vfork: PTRACE_O_TRACEVFORK and VFORK_DONE, GETEVENTMSG for both. */
#include "pt_common.h"

static char clog[512], glog[512];

static void note(char *log, const char *what)
{
	strncat(log, what, 500 - strlen(log));
	strncat(log, "; ", 500 - strlen(log));
}

int main(void)
{
	unsigned long msg = 0;
	pid_t pid, gc = 0, w;
	int st, events = 0, live = 2;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		if (vfork() == 0)
			_exit(4);
		wait(&st);
		_exit(WEXITSTATUS(st) + 1);
	}
	st = pt_wait(pid, 0);
	printf("first: %s\n", pt_status(st));
	if (ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACEVFORK | PTRACE_O_TRACEVFORKDONE))
		die("SETOPTIONS");
	ptrace(PTRACE_CONT, pid, 0, 0);
	while (live) {
		w = waitpid(-1, &st, __WALL);
		if (w < 0)
			die("wait: %s", strerror(errno));
		if (w == pid && st >> 16 == PTRACE_EVENT_VFORK_DONE) {
			unsigned long done = 0;

			ptrace(PTRACE_GETEVENTMSG, pid, 0, &done);
			if ((pid_t)done != gc)
				die("VFORK_DONE message %lu", done);
		}
		if (w == pid && st >> 16 == PTRACE_EVENT_VFORK) {
			ptrace(PTRACE_GETEVENTMSG, pid, 0, &msg);
			if (gc && gc != (pid_t)msg)
				die("event message %lu", msg);
			gc = (pid_t)msg;
			events++;
		}
		if (w != pid && gc && w != gc)
			die("unexpected pid");
		if (w != pid)
			gc = w;		/* its first stop may come first */
		note(w == pid ? clog : glog, pt_status(st));
		if (WIFEXITED(st) || WIFSIGNALED(st))
			live--;
		else
			ptrace(PTRACE_CONT, w, 0, 0);
	}
	printf("child: %s\ngrandchild: %s\n", clog, glog);
	printf("vfork events %d\n", events);
	return 0;
}
