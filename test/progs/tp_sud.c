/*
 * tp_sud: a program that uses syscall user dispatch itself
 * (PR_SET_SYSCALL_USER_DISPATCH): with its selector at BLOCK, every
 * system call made outside its own small code region raises SIGSYS; the
 * handler (selector at ALLOW while it runs) makes the call through a stub
 * inside the region and returns its result.  The handler's own
 * rt_sigreturn is made from the region (its restorer is there), after the
 * selector is back at BLOCK.  N getppid() and N markers go through it.
 * Exit status 3.
 */
#include "tp_common.h"
#include <signal.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <ucontext.h>

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH 59
#define PR_SYS_DISPATCH_OFF 0
#define PR_SYS_DISPATCH_ON 1
#endif
#define SEL_ALLOW 0
#define SEL_BLOCK 1
#ifndef SYS_USER_DISPATCH
#define SYS_USER_DISPATCH 2
#endif

#define N 20

/* The region: a six-argument syscall stub and the signal restorer. */
long sud_syscall6(long nr, long a, long b, long c, long d, long e, long f);
void sud_restorer(void);
extern char sud_start[], sud_end[];

__asm__(".text\n"
	".globl sud_start, sud_end, sud_syscall6, sud_restorer\n"
	"sud_start:\n"
	"sud_syscall6:\n"
	"	mov %rdi, %rax\n"
	"	mov %rsi, %rdi\n"
	"	mov %rdx, %rsi\n"
	"	mov %rcx, %rdx\n"
	"	mov %r8, %r10\n"
	"	mov %r9, %r8\n"
	"	mov 8(%rsp), %r9\n"
	"	syscall\n"
	"	ret\n"
	"sud_restorer:\n"
	"	mov $15, %eax\n"	/* SYS_rt_sigreturn */
	"	syscall\n"
	"	hlt\n"
	"sud_end:\n");

static volatile char selector = SEL_ALLOW;
static volatile sig_atomic_t dispatched, wrong_info;

struct ksigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

static void on_sys(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	greg_t *g = uc->uc_mcontext.gregs;

	selector = SEL_ALLOW;
	if (si->si_code != SYS_USER_DISPATCH || si->si_syscall != g[REG_RAX])
		wrong_info++;
	g[REG_RAX] = sud_syscall6(g[REG_RAX], g[REG_RDI], g[REG_RSI],
				  g[REG_RDX], g[REG_R10], g[REG_R8], g[REG_R9]);
	dispatched++;
	selector = SEL_BLOCK;
}

int main(void)
{
	struct ksigaction ka = {
		.handler = on_sys,
		.flags = SA_SIGINFO | 0x04000000 /* SA_RESTORER */,
		.restorer = sud_restorer,
		.mask = 0,
	};
	long ppid = getppid(), good = 0, d;

	if (syscall(SYS_rt_sigaction, SIGSYS, &ka, NULL, 8))
		return 1;
	if (prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON,
		  (unsigned long)sud_start, sud_end - sud_start, &selector)) {
		/* The same output natively and traced: the test says skip. */
		printf("sud: not in this kernel\n");
		return 3;
	}
	selector = SEL_BLOCK;
	for (int i = 0; i < N; i++) {
		if (tp_raw0(SYS_getppid) == ppid)
			good++;
		tp_mark(1801);
	}
	selector = SEL_ALLOW;
	d = dispatched;
	prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_OFF, 0, 0, 0);
	printf("sud: %ld calls dispatched, %ld getppid results right of %d, "
	       "%d with a wrong siginfo\n", d, good, N, (int)wrong_info);
	/* Each call once, from the handler's stub, and no SIGSYS for the
	 * handler's own calls nor for its rt_sigreturn. */
	tp_expect(N + 1, "getppid\\(\\) = \\d+");
	tp_expect(N, TP_MARK, 1801L);
	tp_expect(2 * N, "--- SIGSYS \\{si_signo=SIGSYS, "
		  "si_code=SYS_USER_DISPATCH, si_call_addr=0x[0-9a-f]+, "
		  "si_syscall=__NR_(getppid|close), "
		  "si_arch=AUDIT_ARCH_X86_64\\} ---");
	tp_expect(2 * N, "rt_sigreturn\\(.*\\) = .*");
	/* Those after getppid return its result: the tracer's pid. */
	tp_vary("rt_sigreturn\\(\\{mask=\\[\\]\\}\\) = \\d+");
	tp_expect_write();
	return 3;
}
