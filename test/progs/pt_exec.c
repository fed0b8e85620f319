// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * exec under ptrace: with PTRACE_O_TRACEEXEC an event stop whose message
 * is the former thread id; without it, the SIGTRAP after a successful exec.
 */
#include "pt_common.h"

static void run(bool opt)
{
	unsigned long msg = 0;
	siginfo_t si;
	pid_t pid;
	int st;

	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		execl("/bin/sh", "sh", "-c", "exit 6", (char *)NULL);
		_exit(97);
	}
	st = pt_wait(pid, 0);
	if (opt && ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACEEXEC))
		die("SETOPTIONS");
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = pt_wait(pid, 0);
	printf("%s: %s\n", opt ? "TRACEEXEC" : "plain", pt_status(st));
	if (opt) {
		ptrace(PTRACE_GETEVENTMSG, pid, 0, &msg);
		printf("message is the pid: %d\n", (pid_t)msg == pid);
	} else {
		ptrace(PTRACE_GETSIGINFO, pid, 0, &si);
		printf("siginfo: %s code %d\n", strsignal(si.si_signo),
		       si.si_code);
	}
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = pt_wait(pid, 0);
	printf("end: %s\n", pt_status(st));
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	run(true);
	run(false);
	return 0;
}
