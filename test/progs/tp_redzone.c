/*
 * tp_redzone: the 128 bytes below the stack pointer (the x86-64 ABI's red
 * zone, which a leaf function may use without moving %rsp) are the same
 * after a system call: an assembly routine writes all 16 quadwords of it,
 * makes the syscall instruction and counts those that changed.  2000
 * getppid() while a 1 ms timer's signal comes (the kernel builds the
 * signal frame below the red zone).  Exit status 3.
 */
#include "tp_common.h"
#include <signal.h>
#include <stdint.h>
#include <sys/time.h>

/* redzone_call(pattern, nr): quadwords of the red zone changed. */
long redzone_call(uint64_t pattern, long nr);

__asm__(".text\n"
	".globl redzone_call\n"
	".type redzone_call, @function\n"
	"redzone_call:\n"
	"	mov %rdi, %rdx\n"
	"	.irp i,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n"
	"	mov %rdx, -\\i*8(%rsp)\n"
	"	rol $5, %rdx\n"
	"	.endr\n"
	"	mov %rsi, %rax\n"
	"	syscall\n"
	"	mov %rdi, %rdx\n"
	"	xor %eax, %eax\n"
	"	.irp i,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n"
	"	cmp %rdx, -\\i*8(%rsp)\n"
	"	setne %cl\n"
	"	movzbl %cl, %ecx\n"
	"	add %rcx, %rax\n"
	"	rol $5, %rdx\n"
	"	.endr\n"
	"	ret\n"
	".size redzone_call, .-redzone_call\n");

static volatile sig_atomic_t handled;

static void on_alarm(int sig)
{
	tp_mark(1501);
	handled++;
}

int main(void)
{
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	struct sigaction sa;
	uint64_t pat = 0x0123456789abcdefull;
	long changed = 0, n = 2000;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	for (long i = 0; i < n; i++) {
		changed += redzone_call(pat, SYS_getppid);
		pat = pat * 6364136223846793005ull + 1442695040888963407ull;
	}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	printf("redzone: %ld getppid, %ld red-zone quadwords changed\n", n,
	       changed);
	tp_expect(n, "getppid\\(\\) = \\d+");
	tp_expect(handled, TP_MARK, 1501L);
	tp_expect(handled, "--- SIGALRM \\{si_signo=SIGALRM, "
		  "si_code=SI_KERNEL\\} ---");
	tp_vary("close\\(-1501\\) = .*");
	tp_vary("--- SIGALRM .*");
	tp_vary("rt_sigreturn\\(.*");
	tp_expect_write();
	return 3;
}
