// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A process attaches to its sibling (not its child): PTRACE_ATTACH, then
 * SEIZE + INTERRUPT on a second one; the tracer gets their exits from its
 * wait, their parent gets them too.
 */
#include "pt_common.h"

static int fds[4];

static pid_t sleeper(int fd)
{
	pid_t pid = fork();
	char c;

	if (pid == 0) {
		for (int i = 0; i < 4; i++)
			if (fds[i] != fd)
				close(fds[i]);
		/* Blocks until the pipe closes, then exits 5. */
		while (read(fd, &c, 1) < 0 && errno == EINTR)
			;
		_exit(5);
	}
	return pid;
}

/* Until the thread sleeps in read(2) (/proc/PID/syscall says "0 ..."). */
static void wait_in_read(pid_t pid)
{
	char path[64], buf[64];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	for (i = 0; i < 10000; i++) {
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f) && !strncmp(buf, "0 ", 2)) {
			fclose(f);
			return;
		}
		if (f)
			fclose(f);
		usleep(1000);
	}
	die("%d never sleeps in read", pid);
}

static void trace(pid_t b, bool seize, int wfd)
{
	struct user_regs_struct regs;
	int st;

	if (seize) {
		if (ptrace(PTRACE_SEIZE, b, 0, 0))
			die("SEIZE: %s", strerror(errno));
		if (ptrace(PTRACE_INTERRUPT, b, 0, 0))
			die("INTERRUPT: %s", strerror(errno));
	} else if (ptrace(PTRACE_ATTACH, b, 0, 0)) {
		die("ATTACH: %s", strerror(errno));
	}
	st = pt_wait(b, __WALL);
	printf("%s: %s\n", seize ? "seize" : "attach", pt_status(st));
	if (ptrace(PTRACE_GETREGS, b, 0, &regs))
		die("GETREGS");
	printf("in read: %d\n", (long)regs.orig_rax == SYS_read);
	printf("again: %s\n",
	       ptrace(PTRACE_ATTACH, b, 0, 0) ? strerror(errno) : "ok");
	if (ptrace(PTRACE_CONT, b, 0, 0))
		die("CONT");
	close(wfd);
	st = pt_wait(b, __WALL);
	printf("tracer sees: %s\n", pt_status(st));
}

int main(void)
{
	int p1[2], p2[2];
	pid_t b1, b2, a;
	int st;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (pipe(p1) || pipe(p2))
		die("pipe");
	fds[0] = p1[0];
	fds[1] = p1[1];
	fds[2] = p2[0];
	fds[3] = p2[1];
	b1 = sleeper(p1[0]);
	b2 = sleeper(p2[0]);
	close(p1[0]);
	close(p2[0]);
	wait_in_read(b1);
	wait_in_read(b2);
	a = fork();
	if (a == 0) {
		trace(b1, false, p1[1]);
		trace(b2, true, p2[1]);
		_exit(0);
	}
	close(p1[1]);
	close(p2[1]);
	st = pt_wait(a, 0);
	printf("tracer: %s\n", pt_status(st));
	st = pt_wait(b1, 0);
	printf("parent sees 1: %s\n", pt_status(st));
	st = pt_wait(b2, 0);
	printf("parent sees 2: %s\n", pt_status(st));
	return 0;
}
