// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * PTRACE_PEEKSIGINFO: the tracee's pending signals, private and shared
 * queues, from an offset, a few at a time or all at once, without taking
 * them; EINVAL for unknown flags; a buffer partly read-only gets what fits
 * (a count), a read-only one EFAULT.  Also a wait status written to a
 * read-only page: EFAULT, as the kernel's copy to user memory, and the
 * stop is taken all the same.
 */
#include <stdint.h>
#include <sys/mman.h>
#include "pt_common.h"

#define NPRIV	5
#define NSHARED	3

static pid_t pid;

static void peek(const char *what, unsigned long off, int flags, int nr,
		 void *buf)
{
	struct __ptrace_peeksiginfo_args a = { off, (uint32_t)flags, nr };
	siginfo_t *si = buf;
	long n = ptrace(PTRACE_PEEKSIGINFO, pid, &a, buf);
	int i;

	if (n < 0) {
		printf("%s: %s\n", what, strerror(errno));
		return;
	}
	printf("%s: %ld:", what, n);
	for (i = 0; i < n && (char *)buf != NULL; i++)
		printf(" %d/%d/%d", si[i].si_signo - SIGRTMIN, si[i].si_code,
		       si[i].si_int);
	printf("\n");
}

int main(void)
{
	siginfo_t buf[16];
	long page = sysconf(_SC_PAGESIZE);
	char *rw, *ro;
	sigset_t set;
	int i, st;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		union sigval v;

		sigemptyset(&set);
		sigaddset(&set, SIGRTMIN);
		sigprocmask(SIG_BLOCK, &set, NULL);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		for (i = 0; i < NPRIV; i++) {
			siginfo_t si;

			memset(&si, 0, sizeof(si));
			si.si_signo = SIGRTMIN;
			si.si_code = -10;
			si.si_int = i;
			syscall(SYS_rt_tgsigqueueinfo, getpid(), getpid(),
				SIGRTMIN, &si);
		}
		for (i = 0; i < NSHARED; i++) {
			v.sival_int = 100 + i;
			sigqueue(getpid(), SIGRTMIN, v);
		}
		raise(SIGSTOP);
		raise(SIGSTOP);
		_exit(0);
	}
	printf("0: %s\n", pt_status(pt_wait(pid, 0)));
	for (i = 0; i <= NPRIV; i++) {
		char what[32];

		snprintf(what, sizeof(what), "private off %d", i);
		peek(what, i, 0, 1, buf);
	}
	peek("private all", 0, 0, 16, buf);
	peek("private from 3", 3, 0, 16, buf);
	peek("shared by 2", 0, PTRACE_PEEKSIGINFO_SHARED, 2, buf);
	peek("shared from 2", 2, PTRACE_PEEKSIGINFO_SHARED, 2, buf);
	peek("none asked", 0, 0, 0, buf);
	peek("bad flags", 0, ~0, 1, buf);
	peek("bad nr", 0, 0, -1, buf);
	rw = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rw == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	ro = rw + page;
	mprotect(ro, page, PROT_READ);
	peek("partly read-only", 0, 0, 4, ro - 2 * sizeof(siginfo_t));
	peek("read-only", 0, 0, 4, ro);
	peek("again, all", 0, 0, 16, buf);
	ptrace(PTRACE_CONT, pid, 0, 0);
	/* The stop is taken although its status cannot be written. */
	if (waitpid(pid, (int *)ro, 0) < 0)
		printf("wait into read-only: %s\n", strerror(errno));
	printf("wait again: %d\n", waitpid(pid, &st, WNOHANG));
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = pt_wait(pid, 0);
	printf("end: %s\n", pt_status(st));
	return 0;
}
