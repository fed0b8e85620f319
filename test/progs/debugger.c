// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A tiny debugger, as gdb starts its program: fork, the child asks to be
 * traced (PTRACE_TRACEME) and stops; the parent sets options, reads a
 * word, three words of struct user (a register, one strace's table does not
 * name, a debug register), the registers and the siginfo of the stop,
 * its regsets (all registers, the start of the FPU state) and the event
 * message; single-steps once and
 * lets the child run to its end.  Prints "debugged" when every step
 * worked, else what failed; exits 0 only then.
 *
 *   debugger
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <elf.h>
#include <sys/wait.h>
#include <unistd.h>

static long word = 0x1234;

static int fail(const char *what)
{
	printf("%s: %s\n", what, strerror(errno));
	return 1;
}

int main(void)
{
	struct user_regs_struct regs;
	siginfo_t si;
	struct iovec iov;
	unsigned long msg, fpu[2];
	pid_t pid;
	long v;
	int st;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (!pid) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(fail("child: PTRACE_TRACEME") + 2);
		raise(SIGSTOP);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid)
		return fail("waitpid");
	if (!WIFSTOPPED(st)) {
		printf("child not stopped: status %#x\n", st);
		return 1;
	}
	if (ptrace(PTRACE_SETOPTIONS, pid, NULL,
		   (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL)))
		return fail("PTRACE_SETOPTIONS");
	errno = 0;
	v = ptrace(PTRACE_PEEKDATA, pid, &word, NULL);
	if (errno || v != 0x1234)
		return fail("PTRACE_PEEKDATA");
	errno = 0;
	ptrace(PTRACE_PEEKUSER, pid, offsetof(struct user, regs.rip), NULL);
	ptrace(PTRACE_PEEKUSER, pid, offsetof(struct user, regs.fs_base), NULL);
	ptrace(PTRACE_PEEKUSER, pid, offsetof(struct user, u_debugreg[7]),
	       NULL);
	if (errno)
		return fail("PTRACE_PEEKUSER");
	if (ptrace(PTRACE_GETREGS, pid, NULL, &regs))
		return fail("PTRACE_GETREGS");
	iov.iov_base = &regs;
	iov.iov_len = sizeof(regs);
	if (ptrace(PTRACE_GETREGSET, pid, (void *)NT_PRSTATUS, &iov))
		return fail("PTRACE_GETREGSET");
	/* The first 16 bytes of the FPU state: strace shows what fits. */
	iov.iov_base = fpu;
	iov.iov_len = 16;
	if (ptrace(PTRACE_GETREGSET, pid, (void *)NT_FPREGSET, &iov))
		return fail("PTRACE_GETREGSET NT_FPREGSET");
	if (ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg))
		return fail("PTRACE_GETEVENTMSG");
	if (ptrace(PTRACE_GETSIGINFO, pid, NULL, &si))
		return fail("PTRACE_GETSIGINFO");
	if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL))
		return fail("PTRACE_SINGLESTEP");
	if (waitpid(pid, &st, 0) != pid)
		return fail("waitpid");
	if (ptrace(PTRACE_CONT, pid, NULL, NULL))
		return fail("PTRACE_CONT");
	if (waitpid(pid, &st, 0) != pid)
		return fail("waitpid");
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		printf("child ended with status %#x\n", st);
		return 1;
	}
	puts("debugged");
	return 0;
}
