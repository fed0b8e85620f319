// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * PTRACE_SYSEMU and PTRACE_SYSEMU_SINGLESTEP: a syscall-entry stop after
 * which the call is skipped (its result is what rax holds, -ENOSYS unless
 * the tracer wrote it; orig_rax keeps the number), with an exit stop only
 * if PTRACE_SYSCALL restarts it; PTRACE_SINGLESTEP from such a stop traps
 * right after the call; SYSEMU_SINGLESTEP steps, stops at a call's entry
 * instead of stepping over it, and from there traps one instruction past
 * it; a call the tracer skipped (orig_rax -1) at a PTRACE_SYSCALL stop.
 */
#include "pt_common.h"

extern char pt_l1[], pt_l2[], pt_l3[], pt_l4[], pt_l5[];
static pid_t pid;

static void show(const char *what, const char *base)
{
	struct user_regs_struct r;
	siginfo_t si;
	int st = pt_wait(pid, 0);

	if (ptrace(PTRACE_GETREGS, pid, 0, &r))
		die("getregs: %s", strerror(errno));
	memset(&si, 0, sizeof(si));
	ptrace(PTRACE_GETSIGINFO, pid, 0, &si);
	printf("%s: %s code %#x pc %+ld orig_rax %ld rax %ld\n", what,
	       pt_status(st), si.si_code, (long)(r.rip - (unsigned long)base),
	       (long)r.orig_rax, (long)r.rax);
}

static void req(int r)
{
	if (ptrace(r, pid, 0, 0))
		die("ptrace %d: %s", r, strerror(errno));
}

static void set_reg(size_t off, long v)
{
	if (ptrace(PTRACE_POKEUSER, pid, (void *)off, (void *)v))
		die("pokeuser: %s", strerror(errno));
}

int main(void)
{
	int i;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		__asm__ volatile(
			"pt_l1: syscall\n\t"	/* exit(6): skipped */
			"nop\n\t"
			"pt_l2: syscall\n\t"	/* nr -ENOSYS: skipped */
			"nop\n\t"
			"nop\n\t"
			"mov %2, %%eax\n\t"
			"pt_l3: syscall\n\t"	/* getppid: result 1234 */
			"nop\n\t"
			"nop\n\t"
			"mov %2, %%eax\n\t"
			"pt_l4: syscall\n\t"	/* getppid: orig_rax -1 */
			"nop\n\t"
			"nop\n\t"
			"pt_l5: int3\n\t"
			: : "a"(SYS_exit), "D"(6), "i"(SYS_getppid)
			: "rcx", "r11", "memory");
		_exit(1);
	}
	printf("0: %s\n", pt_status(pt_wait(pid, 0)));
	if (ptrace(PTRACE_SETOPTIONS, pid, 0, (void *)PTRACE_O_TRACESYSGOOD))
		die("setoptions: %s", strerror(errno));
	req(PTRACE_SYSEMU);
	show("sysemu", pt_l1);
	req(PTRACE_SYSCALL);
	show("syscall", pt_l1);
	req(PTRACE_SYSEMU);
	show("sysemu", pt_l2);
	req(PTRACE_SINGLESTEP);
	show("singlestep", pt_l2);
	for (i = 0; i < 8; i++) {
		char what[32];
		siginfo_t si;

		req(PTRACE_SYSEMU_SINGLESTEP);
		snprintf(what, sizeof(what), "sysemu_singlestep %d", i);
		show(what, pt_l3);
		ptrace(PTRACE_GETSIGINFO, pid, 0, &si);
		if (si.si_code == (SIGTRAP | 0x80))
			break;
	}
	set_reg(offsetof(struct user_regs_struct, rax), 1234);
	req(PTRACE_SYSEMU_SINGLESTEP);
	show("sysemu_singlestep out", pt_l3);
	req(PTRACE_SYSCALL);
	show("syscall", pt_l4);
	set_reg(offsetof(struct user_regs_struct, orig_rax), -1);
	req(PTRACE_SYSEMU_SINGLESTEP);
	show("sysemu_singlestep out", pt_l4);
	req(PTRACE_SYSEMU);
	show("sysemu", pt_l5);
	kill(pid, SIGKILL);
	printf("end: %s\n", pt_status(pt_wait(pid, 0)));
	return 0;
}
