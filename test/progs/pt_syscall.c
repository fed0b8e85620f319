// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Syscall stops (PTRACE_SYSCALL, PTRACE_O_TRACESYSGOOD) and
 * PTRACE_GET_SYSCALL_INFO; and syscall injection by the tracer: getppid is
 * skipped at entry (orig_rax = -1) and given a return value at exit, and
 * getuid's return value is changed at exit.
 */
#include "pt_common.h"

int main(void)
{
	struct __ptrace_syscall_info in;
	struct user_regs_struct regs;
	pid_t pid;
	int st, n = 0, seen = 0;
	long size;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		long a, b;

		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		a = syscall(SYS_getppid);
		b = syscall(SYS_getuid);
		printf("child: getppid %ld getuid %ld\n", a, b);
		_exit(0);
	}
	st = pt_wait(pid, 0);
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD);
	for (;;) {
		ptrace(PTRACE_SYSCALL, pid, 0, 0);
		st = pt_wait(pid, 0);
		if (WIFEXITED(st))
			break;
		if (WSTOPSIG(st) != (SIGTRAP | 0x80))
			continue;
		n++;
		memset(&in, 0, sizeof(in));
		size = ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(in), &in);
		if (size <= 0)
			die("GET_SYSCALL_INFO");
		if (in.op == PTRACE_SYSCALL_INFO_ENTRY &&
		    in.entry.nr == SYS_getppid) {
			printf("getppid entry: size %ld\n", size);
			ptrace(PTRACE_GETREGS, pid, 0, &regs);
			regs.orig_rax = -1;
			ptrace(PTRACE_SETREGS, pid, 0, &regs);
			seen = 1;
		} else if (in.op == PTRACE_SYSCALL_INFO_EXIT && seen == 1) {
			printf("skipped exit: size %ld rval %lld error %d\n",
			       size, (long long)in.exit.rval, in.exit.is_error);
			ptrace(PTRACE_POKEUSER, pid,
			       offsetof(struct user_regs_struct, rax), 777);
			seen = 2;
		} else if (in.op == PTRACE_SYSCALL_INFO_ENTRY &&
			   in.entry.nr == SYS_getuid) {
			seen = 3;
		} else if (in.op == PTRACE_SYSCALL_INFO_EXIT && seen == 3) {
			printf("getuid exit: rval %lld\n",
			       (long long)in.exit.rval);
			ptrace(PTRACE_GETREGS, pid, 0, &regs);
			regs.rax = 4242;
			ptrace(PTRACE_SETREGS, pid, 0, &regs);
			seen = 4;
		}
	}
	printf("end: %s, stops %s\n", pt_status(st), n > 6 ? "many" : "few");
	return 0;
}
