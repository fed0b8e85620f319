/*
 * A recorded program that becomes a tracee of its own child.  It calls
 * getppid() through syscall(3) N times (argv[1]): a tracer recording them
 * rewrites that site.  Then a child seizes it (PTRACE_SEIZE, INTERRUPT)
 * while it goes on calling getppid, and single-steps it STEPS times
 * (argv[2]): every step must be at the program's own code (a mapping of
 * a file or the vDSO: no anonymous page, no memfd), and a step at a
 * syscall instruction (0f 05) must land right after it.  The child's
 * exit status (0: all so; else the first check that failed) becomes the
 * program's.  "steps S syscalls Y" is printed on stdout.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_STEPS 20000

/* Is @ip in one of @pid's mappings of a file (not a memfd) or the vDSO? */
static int own_code(pid_t pid, uint64_t ip)
{
	char path[64], line[512];
	FILE *f;
	int ok = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (!ok && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char *name = strchr(line, '/');

		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2 || ip < lo ||
		    ip >= hi)
			continue;
		ok = (name && strncmp(name, "/memfd:", 7) != 0) ||
		     strstr(line, "[vdso]") != NULL;
	}
	fclose(f);
	return ok;
}

static int stepper(pid_t pid, long steps, volatile int *done)
{
	static uint64_t ips[MAX_STEPS];
	struct user_regs_struct r;
	long sys = 0, i;
	int st;

	if (ptrace(PTRACE_SEIZE, pid, 0L, 0L) < 0 ||
	    ptrace(PTRACE_INTERRUPT, pid, 0L, 0L) < 0)
		return 10;
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st) ||
	    st >> 16 != PTRACE_EVENT_STOP)
		return 11;
	for (i = 0; i < steps; i++) {
		long word;

		if (ptrace(PTRACE_GETREGS, pid, 0L, &r) < 0)
			return 12;
		ips[i] = r.rip;
		errno = 0;
		word = ptrace(PTRACE_PEEKTEXT, pid, (void *)r.rip, 0L);
		if (errno)
			return 13;
		if (ptrace(PTRACE_SINGLESTEP, pid, 0L, 0L) < 0 ||
		    waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st) ||
		    WSTOPSIG(st) != SIGTRAP)
			return 14;
		if ((word & 0xffff) == 0x050f) {
			if (ptrace(PTRACE_GETREGS, pid, 0L, &r) < 0)
				return 12;
			if (r.rip != ips[i] + 2)
				return 15;
			sys++;
		}
	}
	for (i = 0; i < steps; i++)
		if (!own_code(pid, ips[i])) {
			fprintf(stderr, "step %ld at %#lx: not the program's\n",
				i, (unsigned long)ips[i]);
			return 16;
		}
	printf("steps %ld syscalls %ld\n", steps, sys);
	fflush(stdout);
	return sys ? 0 : 18;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	long steps = argc > 2 ? atol(argv[2]) : 2000;
	volatile int *done = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t self = getpid(), child;
	int st;

	if (done == MAP_FAILED || steps > MAX_STEPS)
		return 2;
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	child = fork();
	if (child < 0)
		return 3;
	if (child == 0) {
		int r = stepper(self, steps, done);

		/* let the program go whatever happened */
		*done = 1;
		ptrace(PTRACE_DETACH, self, 0L, 0L);
		_exit(r);
	}
	while (!*done)
		syscall(SYS_getppid);
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st))
		return 4;
	return WEXITSTATUS(st);
}
