// SPDX-License-Identifier: LGPL-2.1-or-later
/* PTRACE_TRACEME + raise(SIGSTOP); PEEK/POKEDATA, GETREGS, GETSIGINFO. */
#include "pt_common.h"

static volatile long value = 11;

int main(void)
{
	struct user_regs_struct regs;
	siginfo_t si;
	long word;
	pid_t pid;
	int st;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(98);
		raise(SIGSTOP);
		_exit((int)value);
	}
	st = pt_wait(pid, 0);
	printf("first stop: %s\n", pt_status(st));
	if (ptrace(PTRACE_GETSIGINFO, pid, 0, &si))
		die("GETSIGINFO");
	printf("siginfo: %s code %d pid-is-child %d\n", strsignal(si.si_signo),
	       si.si_code, si.si_pid == pid);
	errno = 0;
	word = ptrace(PTRACE_PEEKDATA, pid, &value, 0);
	printf("peek: %ld errno %d\n", word, errno);
	if (ptrace(PTRACE_POKEDATA, pid, &value, (void *)42L))
		die("POKEDATA");
	if (ptrace(PTRACE_GETREGS, pid, 0, &regs))
		die("GETREGS");
	printf("regs: orig_rax is tgkill %d\n", (long)regs.orig_rax == SYS_tgkill);
	errno = 0;
	word = ptrace(PTRACE_PEEKUSER, pid,
		      (void *)offsetof(struct user_regs_struct, orig_rax), 0);
	printf("peekuser orig_rax matches %d\n", word == (long)regs.orig_rax);
	errno = 0;
	ptrace(PTRACE_PEEKDATA, pid, (void *)8, 0);
	printf("peek at 8: errno %s\n", strerror(errno));
	printf("not stopped: %s\n",
	       ptrace(PTRACE_CONT, getpid(), 0, 0) ? strerror(errno) : "ok");
	if (ptrace(PTRACE_CONT, pid, 0, 0))
		die("CONT");
	st = pt_wait(pid, 0);
	printf("end: %s\n", pt_status(st));
	return 0;
}
