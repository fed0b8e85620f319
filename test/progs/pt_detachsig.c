/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * PTRACE_DETACH's parting signal (ptrace(2)): at a signal-delivery stop it
 * replaces the signal (0 drops it), at a syscall stop and after
 * PTRACE_CONT with a signal there it is sent.  Each child prints
 * what it got; the parent prints each child's end.
 */
#include "pt_common.h"

static void on_usr2(int sig, siginfo_t *si, void *uc)
{
	printf("child: SIGUSR2 %s\n", si->si_code == SI_USER ? "SI_USER" :
	       si->si_code == SI_TKILL ? "SI_TKILL" : "other");
	fflush(stdout);
	_exit(7);
}

static pid_t child(int handler)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid)
		return pid;
	if (handler) {
		struct sigaction sa = { .sa_sigaction = on_usr2,
					.sa_flags = SA_SIGINFO };

		sigaction(SIGUSR2, &sa, NULL);
	}
	if (ptrace(PTRACE_TRACEME, 0, 0, 0))
		die("TRACEME: %s", strerror(errno));
	raise(SIGUSR1);
	syscall(SYS_getppid);
	_exit(42);
}

/* Detach at the SIGUSR1 delivery stop with @sig. */
static void at_signal(const char *what, int sig, int handler)
{
	pid_t pid = child(handler);
	int st = pt_wait(pid, 0);

	printf("%s: %s\n", what, pt_status(st));
	if (ptrace(PTRACE_DETACH, pid, 0, (void *)(long)sig))
		die("DETACH: %s", strerror(errno));
	printf("%s: %s\n", what, pt_status(pt_wait(pid, 0)));
}

/* Detach (or continue) at getppid's entry stop with SIGUSR2. */
static void at_syscall(const char *what, int req)
{
	pid_t pid = child(0);
	int st = pt_wait(pid, 0);

	printf("%s: %s\n", what, pt_status(st));
	/* From the SIGUSR1 stop (dropped) to the entry of getppid. */
	if (ptrace(PTRACE_SYSCALL, pid, 0, 0))
		die("SYSCALL: %s", strerror(errno));
	st = pt_wait(pid, 0);
	printf("%s: %s\n", what, pt_status(st));
	if (ptrace(req, pid, 0, (void *)(long)SIGUSR2))
		die("%d: %s", req, strerror(errno));
	/* Still traced after PTRACE_CONT: the signal's delivery stop. */
	while (WIFSTOPPED(st = pt_wait(pid, 0))) {
		siginfo_t si;

		if (ptrace(PTRACE_GETSIGINFO, pid, 0, &si))
			die("GETSIGINFO: %s", strerror(errno));
		printf("%s: %s, si_code %#x si_pid %d\n", what,
		       pt_status(st), si.si_code, si.si_pid);
		if (ptrace(PTRACE_CONT, pid, 0, (void *)(long)WSTOPSIG(st)))
			die("CONT: %s", strerror(errno));
	}
	printf("%s: %s\n", what, pt_status(st));
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	at_signal("detach SIGUSR2", SIGUSR2, 0);
	at_signal("detach 0", 0, 0);
	at_signal("detach SIGUSR1", SIGUSR1, 0);
	at_signal("detach SIGUSR2 to a handler", SIGUSR2, 1);
	at_syscall("detach at syscall entry", PTRACE_DETACH);
	at_syscall("cont at syscall entry", PTRACE_CONT);
	return 0;
}
