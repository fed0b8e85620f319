/*
 * Helpers for the transparency programs (test/progs/tp_*.c, run by
 * test/cli/transparency.sh): natively and under a tracer they must print
 * the same and end the same, and the trace must hold each of their system
 * calls exactly once.
 *
 * A program says what its trace must hold: tp_expect(N, REGEX) asks for N
 * lines matching REGEX (a whole line, Python syntax, pid prefix removed, an
 * <unfinished ...> call joined with its resumption); tp_vary(REGEX) says
 * which lines may differ between two runs (written as N = -1).
 * tp_expect_write() appends them to the file named by $TP_EXPECT, if set,
 * in one write at the end (its own open/write/close are not counted).
 *
 * Markers: tp_mark(N), close(-N), fails with EBADF at once and shows in the
 * trace as "close(-N) = -1 EBADF (Bad file descriptor)", a line nothing else
 * makes (TP_MARK is its regex).
 * tp_raw*() make a system call with the syscall instruction and no libc
 * (no errno, no TLS): usable on a raw clone's stack and in handlers.
 */
#ifndef TP_COMMON_H
#define TP_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* tp_wait_state()'s polls (see there). */
#define TP_POLL_LEN 251
#define TP_POLL_VARY1 "pread64\\(\\d+, .*, 251, 0\\) = -?\\d+.*"
#define TP_POLL_VARY2 "clock_nanosleep\\(CLOCK_REALTIME, 0, " \
	"\\{tv_sec=0, tv_nsec=1000000\\}, NULL\\) = 0"

static inline long tp_raw0(long nr)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline long tp_raw1(long nr, long a)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline long tp_raw3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline long tp_raw4(long nr, long a, long b, long c, long d)
{
	long ret;
	register long r10 __asm__("r10") = d;

	__asm__ volatile("syscall" : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}

/*
 * tp_clone_raw(flags, stack_top, ptid, ctid, tls, fn, arg): the clone
 * system call itself, no libc: the child starts on @stack_top, calls
 * fn(arg) and makes exit (not exit_group) with its return value.
 * tp_clone3_raw(args, size, fn, arg): the same through clone3, the
 * child's stack being args->stack + args->stack_size (fn and arg are put
 * at its top).  Both return what the system call returned to the parent.
 */
long tp_clone_raw(unsigned long flags, void *stack_top, int *ptid, int *ctid,
		  unsigned long tls, int (*fn)(void *), void *arg);
long tp_clone3_raw(void *args, unsigned long size, int (*fn)(void *),
		   void *arg);
__asm__(".text\n"
	".globl tp_clone_raw\n"
	".type tp_clone_raw, @function\n"
	"tp_clone_raw:\n"
	"	mov 8(%rsp), %rax\n"	/* arg */
	"	sub $16, %rsi\n"
	"	mov %r9, 0(%rsi)\n"	/* fn */
	"	mov %rax, 8(%rsi)\n"
	"	mov %rcx, %r10\n"
	"	mov $56, %eax\n"	/* SYS_clone */
	"	syscall\n"
	"	test %rax, %rax\n"
	"	jnz 1f\n"
	"	xor %ebp, %ebp\n"
	"	pop %rax\n"
	"	pop %rdi\n"
	"	call *%rax\n"
	"	mov %eax, %edi\n"
	"	mov $60, %eax\n"	/* SYS_exit */
	"	syscall\n"
	"	hlt\n"
	"1:	ret\n"
	".size tp_clone_raw, .-tp_clone_raw\n"
	".globl tp_clone3_raw\n"
	".type tp_clone3_raw, @function\n"
	"tp_clone3_raw:\n"
	/* The top of the child's stack: stack + stack_size (struct
	 * clone_args: stack at 40, stack_size at 48). */
	"	mov 40(%rdi), %r8\n"
	"	add 48(%rdi), %r8\n"
	"	mov %rdx, -16(%r8)\n"	/* fn */
	"	mov %rcx, -8(%r8)\n"	/* arg */
	"	subq $16, 48(%rdi)\n"
	"	mov $435, %eax\n"	/* SYS_clone3 */
	"	syscall\n"
	"	test %rax, %rax\n"
	"	jnz 1f\n"
	"	xor %ebp, %ebp\n"
	"	pop %rax\n"
	"	pop %rdi\n"
	"	call *%rax\n"
	"	mov %eax, %edi\n"
	"	mov $60, %eax\n"
	"	syscall\n"
	"	hlt\n"
	"1:	ret\n"
	".size tp_clone3_raw, .-tp_clone3_raw\n");

/* Wait until the CLONE_CHILD_CLEARTID word @w is 0 (the child exited). */
static inline void tp_join_raw(volatile int *w)
{
	int v;

	while ((v = __atomic_load_n(w, __ATOMIC_ACQUIRE)) != 0)
		tp_raw4(SYS_futex, (long)w, 0 /* FUTEX_WAIT */, v, 0);
}

/* close(-tag): one marker line in the trace. */
static inline void tp_mark(long tag)
{
	tp_raw1(SYS_close, -tag);
}

/* The line of tp_mark(tag), for tp_expect(n, TP_MARK, tag). */
#define TP_MARK "close\\(-%ld\\) = -1 EBADF \\(Bad file descriptor\\)"

static char tp_expect_buf[8192];
static size_t tp_expect_len;

__attribute__((format(printf, 2, 3)))
static inline void tp_expect(long count, const char *fmt, ...)
{
	va_list ap;
	size_t room = sizeof(tp_expect_buf) - tp_expect_len;
	int n = snprintf(tp_expect_buf + tp_expect_len, room, "%ld\t", count);

	if (n < 0 || (size_t)n >= room)
		abort();
	tp_expect_len += n;
	room -= n;
	va_start(ap, fmt);
	n = vsnprintf(tp_expect_buf + tp_expect_len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n + 1 >= room)
		abort();
	tp_expect_len += n;
	tp_expect_buf[tp_expect_len++] = '\n';
}

/*
 * Lines matching REGEX may come a different number of times from one run
 * to the next (a timer's signals, a poll): a comparison of two traces of
 * the program leaves them out (they are counted by tp_expect, if at all).
 */
static inline void tp_vary(const char *regex)
{
	tp_expect(-1, "%s", regex);
}

static inline void tp_expect_write(void)
{
	const char *path = getenv("TP_EXPECT");
	int fd;

	if (!path || !tp_expect_len)
		return;
	tp_vary(TP_POLL_VARY1);
	tp_vary(TP_POLL_VARY2);
	/* Waits for other threads: how many, the scheduler decides. */
	tp_vary("futex\\(.*");
	/* Before or after the parent's wait4, as the child's exit falls. */
	tp_vary("--- SIGCHLD .*");
	/* This very write: its counts may differ. */
	tp_vary("write\\(\\d+, \"-?\\d+\\\\t.*\\) = \\d+");
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd < 0 || write(fd, tp_expect_buf, tp_expect_len) !=
		      (ssize_t)tp_expect_len) {
		perror(path);
		exit(99);
	}
	close(fd);
	tp_expect_len = 0;
}

/*
 * Wait until thread @tid of process @pid is in one of the @states of
 * /proc (S: asleep; t and T: in a ptrace or job-control stop) and, unless
 * @nr is -1, inside system call @nr (/proc/.../syscall).  A thread held in
 * a ptrace stop shows t, not S.  Polls every millisecond, 20 s at most: a
 * wait for a state, not for a guessed time.  Returns 0, or -1 on time-out.
 * How often it polls differs from run to run: its polls are pread()s of
 * TP_POLL_LEN bytes and 1 ms sleeps, lines that TP_POLL_VARY* match.
 */

static inline int tp_wait_state(int pid, int tid, const char *states, long nr)
{
	char path[64], buf[TP_POLL_LEN + 1];
	struct timespec ms = { 0, 1000000 };
	int sfd, cfd, ret = -1;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	sfd = open(path, O_RDONLY);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", pid, tid);
	cfd = open(path, O_RDONLY);
	for (int i = 0; sfd >= 0 && cfd >= 0 && i < 20000; i++) {
		int n, state_ok = 0;
		char *p;

		n = pread(sfd, buf, TP_POLL_LEN, 0);
		if (n > 0) {
			buf[n] = 0;
			p = strrchr(buf, ')');
			state_ok = p && p[1] == ' ' && p[2] &&
				   strchr(states, p[2]);
		}
		if (state_ok && nr < 0) {
			ret = 0;
			break;
		}
		if (state_ok) {
			n = pread(cfd, buf, TP_POLL_LEN, 0);
			if (n > 0) {
				buf[n] = 0;
				if (strtol(buf, NULL, 10) == nr &&
				    buf[strspn(buf, "0123456789")] == ' ') {
					ret = 0;
					break;
				}
			}
		}
		nanosleep(&ms, NULL);
	}
	if (sfd >= 0)
		close(sfd);
	if (cfd >= 0)
		close(cfd);
	return ret;
}

/* Wait until thread @tid of this process sleeps in system call @nr. */
static inline int tp_wait_blocked(int tid, long nr)
{
	return tp_wait_state(getpid(), tid, "S", nr);
}

#endif
