// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * exec under ptrace: with PTRACE_O_TRACEEXEC an event stop whose message
 * is the former thread id; without it, the SIGTRAP after a successful exec.
 * PTRACE_SYSCALL from the event stop: the next stop is execve's exit.
 */
#include "pt_common.h"
#include <linux/ptrace.h>

static void run(bool opt, bool sys)
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
	if (opt && ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACEEXEC |
			  (sys ? PTRACE_O_TRACESYSGOOD : 0)))
		die("SETOPTIONS");
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = pt_wait(pid, 0);
	printf("%s: %s\n", opt ? "TRACEEXEC" : "plain", pt_status(st));
	if (opt) {
		ptrace(PTRACE_GETEVENTMSG, pid, 0, &msg);
		printf("message is the pid: %d\n", (pid_t)msg == pid);
	}
	if (sys) {
		struct ptrace_syscall_info in;

		memset(&in, 0, sizeof(in));
		ptrace(PTRACE_SYSCALL, pid, 0, 0);
		st = pt_wait(pid, 0);
		ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(in), &in);
		printf("then: %s op %d rval %lld\n", pt_status(st), in.op,
		       (long long)in.exit.rval);
		/* Without TRACESYSGOOD: no syscall info (op NONE). */
		ptrace(PTRACE_SETOPTIONS, pid, 0, 0);
		ptrace(PTRACE_SYSCALL, pid, 0, 0);
		st = pt_wait(pid, 0);
		memset(&in, 0, sizeof(in));
		ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(in), &in);
		printf("then: %s op %d\n", pt_status(st), in.op);
	} else if (!opt) {
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
	run(true, false);
	run(false, false);
	run(true, true);
	return 0;
}
