// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * PTRACE_GETSIGINFO and PTRACE_SETSIGINFO at signal-delivery stops (as
 * LTP's and rr's ptrace tests use them): the siginfo as sent (kill,
 * sigqueue, raise), a siginfo the tracer rewrote reaching the handler,
 * one whose si_signo it changed with the signal it resumes with, a
 * different signal given without SETSIGINFO getting the tracer's SI_USER
 * siginfo; at a syscall stop the trap's siginfo, and EINVAL in a group
 * stop.  The child's handler prints what it got.
 */
#include "pt_common.h"

static pid_t pid;

static void handler(int sig, siginfo_t *si, void *uc)
{
	char buf[160];
	int n;

	n = snprintf(buf, sizeof(buf),
		     "child: %s si_code %d si_errno %d si_value %d from %s\n",
		     sig == SIGUSR1 ? "SIGUSR1" : sig == SIGUSR2 ? "SIGUSR2" :
		     "SIGRTMIN", si->si_code, si->si_errno, si->si_value.sival_int,
		     si->si_pid == getppid() ? "parent" :
		     si->si_pid == getpid() ? "self" : "other");
	if (write(STDOUT_FILENO, buf, (size_t)n) != n)
		_exit(1);
}

static siginfo_t get(const char *what)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (ptrace(PTRACE_GETSIGINFO, pid, 0, &si)) {
		printf("%s: getsiginfo: %s\n", what, strerror(errno));
		return si;
	}
	printf("%s: si_signo %d si_code %#x si_errno %d si_value %d from %s\n",
	       what, si.si_signo, si.si_code, si.si_errno,
	       si.si_code <= 0 ? si.si_value.sival_int : 0,
	       si.si_code > 0 ? "kernel" : si.si_pid == pid ? "child" :
	       si.si_pid == getpid() ? "parent" : "other");
	return si;
}

static void set(const char *what, siginfo_t *si)
{
	if (ptrace(PTRACE_SETSIGINFO, pid, 0, si))
		printf("%s: setsiginfo: %s\n", what, strerror(errno));
}

static void resume(int req, int sig, const char *what)
{
	if (ptrace(req, pid, 0, (void *)(long)sig))
		die("resume: %s", strerror(errno));
	printf("%s: %s\n", what, pt_status(pt_wait(pid, 0)));
}

int main(void)
{
	siginfo_t si;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		struct sigaction sa = { .sa_sigaction = handler,
					.sa_flags = SA_SIGINFO };
		union sigval v = { .sival_int = 42 };

		sigaction(SIGUSR1, &sa, NULL);
		sigaction(SIGUSR2, &sa, NULL);
		sigaction(SIGRTMIN, &sa, NULL);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		kill(getpid(), SIGUSR1);
		sigqueue(getpid(), SIGRTMIN, v);
		raise(SIGUSR2);
		syscall(SYS_getppid);
		raise(SIGSTOP);
		_exit(0);
	}
	printf("0: %s\n", pt_status(pt_wait(pid, 0)));
	get("SIGSTOP");
	resume(PTRACE_CONT, 0, "1");
	/* SIGUSR1 from kill: rewritten as a queued one with a value. */
	si = get("SIGUSR1");
	si.si_code = SI_QUEUE;
	si.si_errno = 7;
	si.si_value.sival_int = 1234;
	set("SIGUSR1", &si);
	get("SIGUSR1 set");
	resume(PTRACE_CONT, SIGUSR1, "2");
	/* SIGRTMIN from sigqueue: made SIGUSR2, resumed with SIGUSR2. */
	si = get("SIGRTMIN");
	si.si_signo = SIGUSR2;
	si.si_value.sival_int = 99;
	set("SIGRTMIN", &si);
	resume(PTRACE_CONT, SIGUSR2, "3");
	/* SIGUSR2 from raise, resumed with SIGUSR1: the tracer's siginfo. */
	get("SIGUSR2");
	resume(PTRACE_SYSCALL, SIGUSR1, "4");
	/* Syscall stops until getppid's entry: the trap's siginfo. */
	while (1) {
		struct user_regs_struct r;

		if (ptrace(PTRACE_GETREGS, pid, 0, &r))
			die("getregs: %s", strerror(errno));
		if (r.orig_rax == SYS_getppid)
			break;
		if (ptrace(PTRACE_SYSCALL, pid, 0, 0))
			die("syscall: %s", strerror(errno));
		pt_wait(pid, 0);
	}
	get("getppid entry");
	resume(PTRACE_CONT, 0, "5");
	get("SIGSTOP");
	/* Let it stop, then the group stop's report: no siginfo. */
	resume(PTRACE_CONT, SIGSTOP, "6");
	get("group stop");
	si.si_signo = SIGUSR1;
	set("group stop", &si);
	kill(pid, SIGCONT);
	resume(PTRACE_CONT, 0, "7");
	get("SIGCONT");
	resume(PTRACE_CONT, 0, "end");
	return 0;
}
