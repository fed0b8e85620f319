/*
 * tp_jit: system calls from code written at run time, as a JIT does.
 * A page mapped read-write-execute gets, in turn (each run N times):
 *  1. close(-1901): mov $-1901, %edi; mov $3, %eax; syscall; ret
 *  2. the same with only the immediate rewritten: close(-1902);
 *  3. other code, the syscall instruction elsewhere and the old one's
 *     bytes now nops: getppid;
 *  4. code with no syscall at all, whose immediate holds the bytes 0f 05
 *     where the first syscall instruction was: returns 0x050f050f;
 *  5. the page unmapped, a new one mapped at the same address, code 1 with
 *     close(-1905), then made read-execute only (W^X, as JITs do).
 * Every signal is blocked while the first code runs (its syscall
 * instruction is new to any tracer): the program prints the signals that
 * were no longer blocked after it (none natively).  Exit status 3.
 */
#include "tp_common.h"
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>

#define N 10

typedef long (*fn_t)(void);

static const uint8_t code_close[] = {
	0xbf, 0, 0, 0, 0,		/* mov $imm32, %edi */
	0xb8, 0x03, 0, 0, 0,		/* mov $3, %eax */
	0x0f, 0x05,			/* syscall (at 10) */
	0xc3,				/* ret */
};

static const uint8_t code_getppid[] = {
	0xb8, 110, 0, 0, 0,		/* mov $SYS_getppid, %eax */
	0x90, 0x90, 0x90, 0x90, 0x90,	/* nops */
	0x90, 0x90,			/* nops where syscall was */
	0x90, 0x90,
	0x0f, 0x05,			/* syscall (at 14) */
	0xc3,
};

static const uint8_t code_nosys[] = {
	0x90, 0x90, 0x90, 0x90, 0x90,
	0x90, 0x90, 0x90, 0x90,
	0xb8, 0x0f, 0x05, 0x0f, 0x05,	/* mov $0x050f050f, %eax: 0f 05 at 10 */
	0xc3,
};

static void put(uint8_t *page, const uint8_t *code, size_t n, int32_t imm)
{
	memset(page, 0xcc, 4096);	/* int3 everywhere else */
	memcpy(page, code, n);
	if (imm)
		memcpy(page + 1, &imm, 4);
	__builtin___clear_cache((char *)page, (char *)page + n);
}

static long run(uint8_t *page)
{
	long r = 0;

	for (int i = 0; i < N; i++)
		r = ((fn_t)(uintptr_t)page)();
	return r;
}

int main(void)
{
	const int prot = PROT_READ | PROT_WRITE | PROT_EXEC;
	uint8_t *page, *again;
	long r1, r2, r3, r4, r5;
	sigset_t all, old, during;
	char unblocked[256] = "";

	page = mmap(NULL, 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return 1;
	put(page, code_close, sizeof(code_close), -1901);
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	r1 = run(page);
	sigprocmask(SIG_SETMASK, &old, &during);
	/* Not SIGKILL, SIGSTOP, nor glibc's own 32 and 33: never blocked. */
	for (int sig = 1; sig < 65; sig++)
		if (sig != SIGKILL && sig != SIGSTOP && sig != 32 && sig != 33 &&
		    !sigismember(&during, sig))
			snprintf(unblocked + strlen(unblocked),
				 sizeof(unblocked) - strlen(unblocked), " %d",
				 sig);
	memcpy(page + 1, &(int32_t){ -1902 }, 4);
	r2 = run(page);
	put(page, code_getppid, sizeof(code_getppid), 0);
	r3 = run(page);
	put(page, code_nosys, sizeof(code_nosys), 0);
	r4 = run(page);
	munmap(page, 4096);
	again = mmap(page, 4096, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (again != page)
		return 1;
	put(page, code_close, sizeof(code_close), -1905);
	if (mprotect(page, 4096, PROT_READ | PROT_EXEC))
		return 1;
	r5 = run(page);
	printf("jit: %ld %ld %s %#lx %ld\n", r1, r2,
	       r3 == getppid() ? "ppid" : "not-ppid", r4, r5);
	printf("jit: signals unblocked behind the program's back:%s\n",
	       unblocked[0] ? unblocked : " none");
	tp_expect(N, TP_MARK, 1901L);
	tp_expect(N, TP_MARK, 1902L);
	tp_expect(N + 1, "getppid\\(\\) = \\d+");
	tp_expect(N, TP_MARK, 1905L);
	tp_expect_write();
	return 3;
}
