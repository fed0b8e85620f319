/*
 * Small system call scenarios whose results a tracer can change:
 *   syscalls ppid     print the result of getppid()
 *   syscalls ppid2    the same twice
 *   syscalls write    write(1, "hello\n", 6), then print its result
 *   syscalls poke     getppid(ro, rw) with a read-only and a writable
 *                     string as (ignored) arguments, then print both
 *   syscalls mix N    getppid(), getpid(), getuid(), N times; print "done"
 *   syscalls burnchild MS
 *                     fork a child that runs until it has used MS ms of
 *                     CPU time, reap it with wait4(2); print "done"
 *   syscalls cloneflags
 *                     fork with clone(CLONE_FS|CLONE_FILES|SIGCHLD), then
 *                     with clone3 (CLONE_FILES, exit signal SIGCHLD); reap
 *                     each; print "done"
 * A result r >= 0 prints as "r", a failure as "-1 errno E".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sched.h>
#include <linux/sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char ro_msg[] = "original";

/* Run until this process has used @ms ms of CPU time. */
static void burn(long ms)
{
	struct timespec ts;
	volatile unsigned long x = 0;

	do {
		for (int i = 0; i < 1000000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec * 1000 + ts.tv_nsec / 1000000 < ms);
}

static void show(long r)
{
	if (r < 0)
		printf("-1 errno %d\n", errno);
	else
		printf("%ld\n", r);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "ppid";

	if (!strcmp(mode, "ppid")) {
		show(syscall(SYS_getppid));
	} else if (!strcmp(mode, "ppid2")) {
		show(syscall(SYS_getppid));
		show(syscall(SYS_getppid));
	} else if (!strcmp(mode, "write")) {
		long r = write(1, "hello\n", 6);

		show(r);
	} else if (!strcmp(mode, "poke")) {
		const char *volatile ro = ro_msg;
		char rw[] = "writable";

		syscall(SYS_getppid, ro, rw);
		printf("%s %s\n", ro, rw);
	} else if (!strcmp(mode, "mix")) {
		long n = argc > 2 ? atol(argv[2]) : 10;

		for (long i = 0; i < n; i++) {
			syscall(SYS_getppid);
			syscall(SYS_getpid);
			syscall(SYS_getuid);
		}
		printf("done\n");
	} else if (!strcmp(mode, "burnchild")) {
		long ms = argc > 2 ? atol(argv[2]) : 30;
		pid_t c = fork();
		int st;

		if (c < 0)
			return 1;
		if (c == 0) {
			burn(ms);
			_exit(0);
		}
		if (syscall(SYS_wait4, c, &st, 0, NULL) != c)
			return 1;
		printf("done\n");
	} else if (!strcmp(mode, "cloneflags")) {
		struct clone_args ca = { .flags = CLONE_FILES,
					 .exit_signal = SIGCHLD };
		long c;
		int st;

		c = syscall(SYS_clone, CLONE_FS | CLONE_FILES | SIGCHLD, 0,
			    NULL, NULL, 0);
		if (c == 0)
			_exit(0);
		if (c < 0 || waitpid(c, &st, 0) != c)
			return 1;
		c = syscall(SYS_clone3, &ca, sizeof(ca));
		if (c == 0)
			_exit(0);
		if (c < 0 || waitpid(c, &st, 0) != c)
			return 1;
		printf("done\n");
	} else {
		return 2;
	}
	return 0;
}
