// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * PTRACE_LISTEN (ptrace(2)): from a seized tracee's group stop it waits,
 * not waitable, for SIGCONT, which re-traps it (PTRACE_EVENT_STOP,
 * SIGTRAP); from a PTRACE_INTERRUPT trap outside a group stop the kernel
 * accepts it too and the tracee still never runs (ptrace requests fail
 * with ESRCH, a byte it would read stays in its pipe) until
 * PTRACE_INTERRUPT re-traps it; at any other stop, or on a tracee not
 * seized, it fails with EIO.  The child echoes each byte it reads.
 */
#include <sys/ioctl.h>

#include "pt_common.h"

static pid_t pid;

static void req(const char *what, int r, void *data)
{
	long ret;

	errno = 0;
	ret = ptrace(r, pid, 0, data);
	printf("%s: %s\n", what, ret ? strerror(errno) : "0");
}

/* What the pipe to the child holds, unread. */
static int unread(int fd)
{
	int n = -1;

	if (ioctl(fd, FIONREAD, &n))
		die("FIONREAD: %s", strerror(errno));
	return n;
}

int main(void)
{
	struct user_regs_struct regs;
	int to[2], from[2], st;
	char c;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (pipe(to) || pipe(from))
		die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		close(to[1]);
		close(from[0]);
		while (read(to[0], &c, 1) == 1)
			if (write(from[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(to[0]);
	close(from[1]);

	/* Not seized: EIO. */
	if (ptrace(PTRACE_ATTACH, pid, 0, 0))
		die("attach: %s", strerror(errno));
	printf("1: %s\n", pt_status(pt_wait(pid, 0)));
	req("listen, attached", PTRACE_LISTEN, NULL);
	req("detach", PTRACE_DETACH, NULL);

	if (ptrace(PTRACE_SEIZE, pid, 0, 0))
		die("seize: %s", strerror(errno));
	/* A signal-delivery stop: EIO, and it still is one. */
	kill(pid, SIGWINCH);
	printf("2: %s\n", pt_status(pt_wait(pid, 0)));
	req("listen at a signal stop", PTRACE_LISTEN, NULL);
	req("getregs", PTRACE_GETREGS, &regs);
	req("cont", PTRACE_CONT, NULL);

	/* The group stop: listening, then SIGCONT re-traps it. */
	kill(pid, SIGSTOP);
	printf("3: %s\n", pt_status(pt_wait(pid, 0)));
	req("cont SIGSTOP", PTRACE_CONT, (void *)SIGSTOP);
	printf("4: %s\n", pt_status(pt_wait(pid, 0)));
	req("listen in the group stop", PTRACE_LISTEN, NULL);
	printf("waitable: %d\n", waitpid(pid, &st, WNOHANG));
	req("getregs", PTRACE_GETREGS, &regs);
	kill(pid, SIGCONT);
	printf("5: %s\n", pt_status(pt_wait(pid, 0)));
	req("cont", PTRACE_CONT, NULL);
	printf("6: %s\n", pt_status(pt_wait(pid, 0)));
	req("cont", PTRACE_CONT, NULL);

	/* An INTERRUPT trap outside a group stop: accepted, never runs. */
	if (write(to[1], "a", 1) != 1 || read(from[0], &c, 1) != 1)
		die("echo: %s", strerror(errno));
	printf("echo %c\n", c);
	req("interrupt", PTRACE_INTERRUPT, NULL);
	printf("7: %s\n", pt_status(pt_wait(pid, 0)));
	req("listen at an interrupt trap", PTRACE_LISTEN, NULL);
	printf("waitable: %d\n", waitpid(pid, &st, WNOHANG));
	req("getregs", PTRACE_GETREGS, &regs);
	if (write(to[1], "b", 1) != 1)
		die("write: %s", strerror(errno));
	req("interrupt", PTRACE_INTERRUPT, NULL);
	printf("8: %s\n", pt_status(pt_wait(pid, 0)));
	printf("unread: %d\n", unread(to[1]));
	req("getregs", PTRACE_GETREGS, &regs);
	req("cont", PTRACE_CONT, NULL);
	if (read(from[0], &c, 1) != 1)
		die("read: %s", strerror(errno));
	printf("echo %c\n", c);
	close(to[1]);
	printf("end: %s\n", pt_status(pt_wait(pid, 0)));
	return 0;
}
