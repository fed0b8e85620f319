/*
 * tp_seccomp: a program with its own seccomp filter and SIGSYS handler:
 * getppid -> SECCOMP_RET_TRAP (data 0x42), emulated by the handler, which
 * makes a marker and returns 4242 in rax; getpgid -> SECCOMP_RET_ERRNO
 * (E2BIG); getsid -> SECCOMP_RET_TRACE (with no tracer asking for it, the
 * kernel fails the call with ENOSYS); everything else allowed.  Exit
 * status 3.
 */
#include "tp_common.h"
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <ucontext.h>

#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1
#endif

#define N 30

static volatile sig_atomic_t trapped, wrong_info;

static void on_sys(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;

	if (si->si_code != SYS_SECCOMP || si->si_syscall != SYS_getppid ||
	    si->si_errno != 0x42 || si->si_arch != AUDIT_ARCH_X86_64)
		wrong_info++;
	tp_mark(1701);
	uc->uc_mcontext.gregs[REG_RAX] = 4242;
	trapped++;
}

int main(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP | 0x42),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getpgid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | E2BIG),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getsid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	struct sigaction sa;
	long r, got4242 = 0, e2big = 0, enosys = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sys;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSYS, &sa, NULL);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("seccomp");
		return 1;
	}
	for (int i = 0; i < N; i++) {
		if (syscall(SYS_getppid) == 4242)
			got4242++;
		errno = 0;
		r = syscall(SYS_getpgid, 0);
		if (r == -1 && errno == E2BIG)
			e2big++;
		errno = 0;
		r = syscall(SYS_getsid, 0);
		if (r == -1 && errno == ENOSYS)
			enosys++;
	}
	printf("seccomp: %d traps, %d with a wrong siginfo, %ld emulated "
	       "results, %ld E2BIG, %ld ENOSYS of %d\n", (int)trapped,
	       (int)wrong_info, got4242, e2big, enosys, N);
	tp_expect(N, TP_MARK, 1701L);
	tp_expect(N, "--- SIGSYS \\{si_signo=SIGSYS, si_code=SYS_SECCOMP, "
		  "si_errno=EREMOTE, si_call_addr=0x[0-9a-f]+, "
		  "si_syscall=__NR_getppid, si_arch=AUDIT_ARCH_X86_64\\} ---");
	tp_expect(N, "getppid\\(\\) = .*");
	tp_expect(N, "getpgid\\(0\\) = -1 E2BIG \\(Argument list too long\\)");
	tp_expect(N, "getsid\\(0\\) = -1 ENOSYS \\(Function not implemented\\)");
	tp_expect_write();
	return 3;
}
