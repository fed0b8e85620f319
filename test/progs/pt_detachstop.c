// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A tracee its tracer let run out of its process's group stop is put back
 * in the group stop when it is let go (__ptrace_unlink): after
 * PTRACE_DETACH at the SIGSTOP stop of PTRACE_ATTACH, a parting signal's
 * handler runs only once SIGCONT ends the group stop, and with no signal
 * it stays stopped too; a tracer that dies while its tracee runs out of
 * the group stop leaves it stopped again.  The child answers each byte it
 * reads with one, and its SIGUSR2 handler says so and exits 7.
 */
#include <poll.h>

#include "pt_common.h"

static int cmd, ans;

/* Did the child answer (a byte on its pipe) within @ms? */
static const char *ran(int ms)
{
	struct pollfd p = { ans, POLLIN, 0 };
	char c;

	if (poll(&p, 1, ms) == 1 && read(ans, &c, 1) == 1)
		return c == 'h' ? "handler ran" : "answered";
	return "stayed stopped";
}

static void on_usr2(int sig)
{
	if (write(4, "h", 1) != 1)
		_exit(1);
	_exit(7);
}

/* A child in a group stop, its pipes on fds 3 (commands) and 4. */
static pid_t child(void)
{
	int c[2], a[2];
	pid_t pid;
	char b;

	if (pipe(c) || pipe(a))
		die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		if (dup2(c[0], 3) < 0 || dup2(a[1], 4) < 0)
			_exit(1);
		signal(SIGUSR2, on_usr2);
		raise(SIGSTOP);
		while (read(3, &b, 1) == 1)
			if (write(4, "a", 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(c[0]);
	close(a[1]);
	cmd = c[1];
	ans = a[0];
	printf("stopped: %s\n", pt_status(pt_wait(pid, WUNTRACED)));
	return pid;
}

/* ATTACH, its group-stop trap, CONT out of it to the SIGSTOP stop. */
static void attach(pid_t pid)
{
	if (ptrace(PTRACE_ATTACH, pid, 0, 0))
		die("attach: %s", strerror(errno));
	printf("attach: %s\n", pt_status(pt_wait(pid, 0)));
	if (ptrace(PTRACE_CONT, pid, 0, 0))
		die("cont: %s", strerror(errno));
	printf("cont: %s\n", pt_status(pt_wait(pid, 0)));
}

static void end(pid_t pid)
{
	close(cmd);
	printf("end: %s\n", pt_status(pt_wait(pid, 0)));
	close(ans);
}

int main(void)
{
	pid_t pid, tracer;

	setvbuf(stdout, NULL, _IONBF, 0);

	/* DETACH with SIGUSR2: its handler after SIGCONT only. */
	pid = child();
	attach(pid);
	if (ptrace(PTRACE_DETACH, pid, 0, (void *)SIGUSR2))
		die("detach: %s", strerror(errno));
	printf("detached with SIGUSR2: %s\n", ran(300));
	kill(pid, SIGCONT);
	printf("SIGCONT: %s\n", ran(5000));
	end(pid);

	/* DETACH with no signal: stopped until SIGCONT. */
	pid = child();
	attach(pid);
	if (ptrace(PTRACE_DETACH, pid, 0, 0))
		die("detach: %s", strerror(errno));
	if (write(cmd, "x", 1) != 1)
		die("write: %s", strerror(errno));
	printf("detached: %s\n", ran(300));
	kill(pid, SIGCONT);
	printf("SIGCONT: %s\n", ran(5000));
	end(pid);

	/* Its tracer dies while it runs (blocked reading): stopped again. */
	pid = child();
	tracer = fork();
	if (tracer == 0) {
		attach(pid);
		if (ptrace(PTRACE_CONT, pid, 0, 0))
			die("cont: %s", strerror(errno));
		_exit(0);
	}
	printf("tracer: %s\n", pt_status(pt_wait(tracer, 0)));
	if (write(cmd, "x", 1) != 1)
		die("write: %s", strerror(errno));
	printf("tracer gone: %s\n", ran(300));
	kill(pid, SIGCONT);
	printf("SIGCONT: %s\n", ran(5000));
	end(pid);
	return 0;
}
