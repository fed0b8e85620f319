/*
 * tp_regs: every register as the program left it across a system call.
 * An assembly routine loads every general register, rflags (CF PF AF ZF
 * SF DF OF, and AC for getppid), mxcsr and the vector registers (ymm0-15
 * with AVX, else xmm0-15) with a pattern, makes the syscall instruction,
 * and stores them all back: the kernel changes rax (the result), rcx (the
 * address after the instruction) and r11 (rflags), nothing else.
 *  - 200 getppid() with new patterns each time;
 *  - a read() from an empty pipe interrupted by a signal whose handler
 *    (SA_RESTART) clobbers registers, restarted by the kernel, then given
 *    a byte: the same registers after it as before.
 * Prints the differences (none natively).  Exit status 3.
 */
#include "tp_common.h"
#include <pthread.h>
#include <signal.h>
#include <stdint.h>

struct regs {
	uint64_t gpr[16];	/* rax rbx rcx rdx rsi rdi rbp r8 ... r15 */
	uint64_t rflags;	/* 128 */
	uint64_t mxcsr;		/* 136 */
	uint64_t rsp;		/* 144: after the syscall */
	uint64_t rsp_before;	/* 152 */
	uint64_t rip_after;	/* 160: the instruction after syscall */
	uint64_t pad;
	uint8_t vec[16][32];	/* 176 */
};

static const char *const gname[16] = {
	"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "r8",
	"r9", "r10", "r11", "r12", "r13", "r14", "r15", "?"
};

/* regs_sse(in, out) and regs_avx(in, out): see the comment above. */
void regs_sse(const struct regs *in, struct regs *out);
void regs_avx(const struct regs *in, struct regs *out);

#define REGS_FN(name, mov, v) \
	".globl " #name "\n" \
	".type " #name ", @function\n" \
	#name ":\n" \
	"	push %rbx\n	push %rbp\n	push %r12\n" \
	"	push %r13\n	push %r14\n	push %r15\n" \
	"	push %rsi\n" \
	"	.irp n,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n" \
	"	" #mov " 176+\\n*32(%rdi), %" #v "\\n\n" \
	"	.endr\n" \
	"	ldmxcsr 136(%rdi)\n" \
	"	mov %rsp, 152(%rsi)\n" \
	"	pushq 128(%rdi)\n" \
	"	popfq\n" \
	"	mov 0(%rdi), %rax\n	mov 8(%rdi), %rbx\n" \
	"	mov 16(%rdi), %rcx\n	mov 24(%rdi), %rdx\n" \
	"	mov 32(%rdi), %rsi\n	mov 48(%rdi), %rbp\n" \
	"	mov 56(%rdi), %r8\n	mov 64(%rdi), %r9\n" \
	"	mov 72(%rdi), %r10\n	mov 80(%rdi), %r11\n" \
	"	mov 88(%rdi), %r12\n	mov 96(%rdi), %r13\n" \
	"	mov 104(%rdi), %r14\n	mov 112(%rdi), %r15\n" \
	"	mov 40(%rdi), %rdi\n" \
	"	syscall\n" \
	"1:	pushfq\n" \
	"	push %rdi\n" \
	"	mov 16(%rsp), %rdi\n" \
	"	mov %rax, 0(%rdi)\n	mov %rbx, 8(%rdi)\n" \
	"	mov %rcx, 16(%rdi)\n	mov %rdx, 24(%rdi)\n" \
	"	mov %rsi, 32(%rdi)\n	mov %rbp, 48(%rdi)\n" \
	"	mov %r8, 56(%rdi)\n	mov %r9, 64(%rdi)\n" \
	"	mov %r10, 72(%rdi)\n	mov %r11, 80(%rdi)\n" \
	"	mov %r12, 88(%rdi)\n	mov %r13, 96(%rdi)\n" \
	"	mov %r14, 104(%rdi)\n	mov %r15, 112(%rdi)\n" \
	"	popq 40(%rdi)\n" \
	"	popq 128(%rdi)\n" \
	"	pushq $0x202\n" \
	"	popfq\n" \
	"	mov %rsp, 144(%rdi)\n" \
	"	lea 1b(%rip), %rax\n" \
	"	mov %rax, 160(%rdi)\n" \
	"	stmxcsr 136(%rdi)\n" \
	"	.irp n,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n" \
	"	" #mov " %" #v "\\n, 176+\\n*32(%rdi)\n" \
	"	.endr\n" \
	"	pop %rsi\n" \
	"	pop %r15\n	pop %r14\n	pop %r13\n" \
	"	pop %r12\n	pop %rbp\n	pop %rbx\n" \
	"	ret\n" \
	".size " #name ", .-" #name "\n"

__asm__(".text\n"
	REGS_FN(regs_sse, movdqu, xmm)
	REGS_FN(regs_avx, vmovdqu, ymm)
	);

/* Flags set before the syscall: CF PF AF ZF SF DF OF, the reserved 1, IF. */
#define FLAGS	(0x1 | 0x4 | 0x10 | 0x40 | 0x80 | 0x400 | 0x800 | 0x202)
#define AC	0x40000

static uint64_t rnd = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rnd ^= rnd << 13;
	rnd ^= rnd >> 7;
	rnd ^= rnd << 17;
	return rnd;
}

static int vec_bytes;
static int shown;	/* differences printed, 20 at most */

static void fill(struct regs *in, long nr, uint64_t flags)
{
	memset(in, 0, sizeof(*in));
	for (int i = 0; i < 15; i++)
		in->gpr[i] = next();
	in->gpr[0] = nr;
	in->rflags = flags;
	/* Round toward zero, flush to zero, all exceptions masked. */
	in->mxcsr = 0x1f80 | 0x6000 | 0x8000;
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < vec_bytes; j += 8) {
			uint64_t x = next();

			memcpy(&in->vec[i][j], &x, 8);
		}
}

static void call(const struct regs *in, struct regs *out)
{
	memset(out, 0, sizeof(*out));
	if (vec_bytes == 32)
		regs_avx(in, out);
	else
		regs_sse(in, out);
}

/* Differences from what the kernel must leave; @ret the expected rax. */
static int compare(const char *what, const struct regs *in,
		   const struct regs *out, uint64_t ret)
{
	int bad = 0;

#define DIFF(fmt, ...) do { \
		bad++; \
		if (shown++ < 20) \
			printf("%s: " fmt "\n", what, __VA_ARGS__); \
	} while (0)
	if (out->gpr[0] != ret)
		DIFF("rax %#llx, not %#llx", (unsigned long long)out->gpr[0],
		     (unsigned long long)ret);
	if (out->gpr[2] != out->rip_after)
		DIFF("rcx %#llx, not the address after syscall",
		     (unsigned long long)out->gpr[2]);
	if (out->gpr[10] != in->rflags)
		DIFF("r11 %#llx, not rflags %#llx",
		     (unsigned long long)out->gpr[10],
		     (unsigned long long)in->rflags);
	for (int i = 1; i < 15; i++)
		if (i != 2 && i != 10 && out->gpr[i] != in->gpr[i])
			DIFF("%s %#llx, not %#llx", gname[i],
			     (unsigned long long)out->gpr[i],
			     (unsigned long long)in->gpr[i]);
	if (out->rflags != in->rflags)
		DIFF("rflags %#llx, not %#llx", (unsigned long long)out->rflags,
		     (unsigned long long)in->rflags);
	if (out->mxcsr != in->mxcsr)
		DIFF("mxcsr %#llx, not %#llx", (unsigned long long)out->mxcsr,
		     (unsigned long long)in->mxcsr);
	if (out->rsp != out->rsp_before)
		DIFF("rsp %#llx, not %#llx", (unsigned long long)out->rsp,
		     (unsigned long long)out->rsp_before);
	for (int i = 0; i < 16; i++)
		if (memcmp(in->vec[i], out->vec[i], vec_bytes))
			DIFF("%smm%d changed", vec_bytes == 32 ? "y" : "x", i);
#undef DIFF
	return bad;
}

/* -- The restarted read -------------------------------------------------- */

static volatile sig_atomic_t handled;
static int main_tid, wfd;

static void on_usr1(int sig)
{
	volatile double x = 1.5;

	/* Clobber what the compiler lets us: vector and general registers. */
	for (int i = 0; i < 8; i++)
		x = x * 3.25 + i;
	tp_mark(1403);
	handled++;
}

static void *helper(void *arg)
{
	struct timespec ms = { 0, 1000000 };

	if (tp_wait_blocked(main_tid, SYS_read))
		return "read never blocked";
	syscall(SYS_tgkill, getpid(), main_tid, SIGUSR1);
	for (int i = 0; !handled && i < 20000; i++)
		nanosleep(&ms, NULL);
	if (tp_wait_blocked(main_tid, SYS_read))
		return "read never restarted";
	if (write(wfd, "r", 1) != 1)
		return "write failed";
	return NULL;
}

int main(void)
{
	struct regs in, out;
	struct sigaction sa;
	pthread_t th;
	long ppid = getppid();
	int bad = 0, p[2];
	char buf[8] = "";
	void *err;

	__builtin_cpu_init();
	vec_bytes = __builtin_cpu_supports("avx") ? 32 : 16;
	for (int i = 0; i < 200; i++) {
		fill(&in, SYS_getppid, i % 2 ? FLAGS | AC : FLAGS);
		call(&in, &out);
		bad += compare("getppid", &in, &out, ppid);
	}
	printf("getppid: %s\n", bad ? "registers changed" :
	       "every register as before");

	if (pipe(p))
		return 1;
	wfd = p[1];
	main_tid = gettid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	if (pthread_create(&th, NULL, helper, NULL))
		return 1;
	fill(&in, SYS_read, FLAGS);
	in.gpr[5] = p[0];		/* rdi */
	in.gpr[4] = (uintptr_t)buf;	/* rsi */
	in.gpr[3] = 1;			/* rdx */
	call(&in, &out);
	pthread_join(th, &err);
	if (err)
		printf("helper: %s\n", (char *)err);
	bad = compare("restarted read", &in, &out, 1);
	printf("restarted read: '%s', handled %d, %s\n", buf, (int)handled,
	       bad ? "registers changed" : "every register as before");

	tp_expect(200 + 1, "getppid\\(\\) = \\d+");
	tp_expect(1, "read\\(%d, 0x[0-9a-f]+, 1\\) = \\? ERESTARTSYS \\(To be "
		  "restarted if SA_RESTART is set\\)", p[0]);
	tp_expect(1, "read\\(%d, \"r\", 1\\) = 1", p[0]);
	tp_expect(1, TP_MARK, 1403L);
	tp_expect_write();
	return 3;
}
