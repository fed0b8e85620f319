// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The USER area and PTRACE_ARCH_PRCTL: PEEKUSER of every debug register
 * slot (DR4, DR5 and the error_code, fault_address words after them read
 * 0), POKEUSER where the kernel refuses (EIO), the FS/GS bases through
 * POKEUSER and PTRACE_ARCH_PRCTL (data is the code, addr the value or
 * the answer's address), and the tracee seeing its new GS base.
 */
#include <asm/prctl.h>
#include "pt_common.h"

#define USER_SIZE	(offsetof(struct user, u_debugreg) + 10 * 8)
#define DR(n)		(offsetof(struct user, u_debugreg) + (n) * 8)
#define REG(f)		offsetof(struct user_regs_struct, f)

static pid_t pid;

static void peek(const char *what, unsigned long off)
{
	long v;

	errno = 0;
	v = ptrace(PTRACE_PEEKUSER, pid, (void *)off, 0);
	if (errno)
		printf("peek %s: %s\n", what, strerror(errno));
	else
		printf("peek %s: %#lx\n", what, v);
}

static void poke(const char *what, unsigned long off, unsigned long v)
{
	long r = ptrace(PTRACE_POKEUSER, pid, (void *)off, (void *)v);

	printf("poke %s %#lx: %s\n", what, v, r ? strerror(errno) : "0");
}

static void arch(const char *what, unsigned long addr, int code)
{
	long r = ptrace(PTRACE_ARCH_PRCTL, pid, (void *)addr, (void *)(long)code);

	printf("arch_prctl %s: %s\n", what, r ? strerror(errno) : "0");
}

int main(void)
{
	unsigned long v = 0, fs = 0;
	char name[16];
	int i;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		unsigned long gs = 0;

		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		syscall(SYS_arch_prctl, ARCH_GET_GS, &gs);
		printf("child: gs base %#lx\n", gs);
		_exit(0);
	}
	printf("0: %s\n", pt_status(pt_wait(pid, 0)));
	for (i = 0; i <= 10; i++) {
		snprintf(name, sizeof(name), "dr%d", i);
		peek(name, DR(i));
	}
	peek("u_tsize", offsetof(struct user, u_tsize));
	peek("misaligned", DR(0) + 4);
	poke("dr0", DR(0), 0x1000);
	peek("dr0", DR(0));
	poke("dr0", DR(0), 0);
	poke("dr4", DR(4), 1);
	poke("dr8", DR(8), 1);
	poke("u_tsize", offsetof(struct user, u_tsize), 1);
	poke("end", USER_SIZE, 1);
	poke("gs_base", REG(gs_base), 0x10000);
	peek("gs_base", REG(gs_base));
	arch("GET_GS", (unsigned long)&v, ARCH_GET_GS);
	printf("gs base %#lx\n", v);
	poke("gs_base", REG(gs_base), 1UL << 63);
	poke("fs selector", REG(fs), 0x1234);
	arch("SET_GS", 0x20000, ARCH_SET_GS);
	peek("gs_base", REG(gs_base));
	arch("SET_FS bad", 1UL << 63, ARCH_SET_FS);
	arch("GET_FS", (unsigned long)&fs, ARCH_GET_FS);
	errno = 0;
	v = (unsigned long)ptrace(PTRACE_PEEKUSER, pid, (void *)REG(fs_base), 0);
	printf("fs base as PEEKUSER: %s\n", fs && v == fs ? "same" : "differs");
	arch("unknown code", (unsigned long)&v, 0x7777);
	ptrace(PTRACE_CONT, pid, 0, 0);
	printf("end: %s\n", pt_status(pt_wait(pid, 0)));
	return 0;
}
