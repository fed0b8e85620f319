/*
 * Tracee for the queued-event tests.  argv[1] picks a mode:
 *
 *  calls          getppid(), dup(12345), getpid(); prints
 *                 "ppid P", "dup R errno E", "pid P" (R: "ok" when >= 0)
 *  write          write(1, "hello world\n", 12) from a buffer of its own
 *  open N PATH    openat(PATH) N times; prints "open I R errno E" each
 *                 (R: "ok" when >= 0)
 *  spin N MS      N threads and the main thread spin (no syscalls) for MS
 *                 milliseconds; prints "spun"
 *  tree           main makes 2 threads and forks 2 children; each child
 *                 makes 2 threads; every thread and main calls getppid()
 *                 once; prints "tree done"
 *  loop N         getppid() N times, then exit 0 (as getppid_loop)
 *  trapself       queues itself a SIGTRAP as an int3 makes (SI_KERNEL) with
 *                 rt_tgsigqueueinfo: pending at the syscall's exit; prints
 *                 "survived" if it comes back (it kills it otherwise)
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static long spin_ms;

static void *spinner(void *arg)
{
	long end = now_ms() + spin_ms;
	volatile unsigned long x = 0;

	while (now_ms() < end)
		for (int i = 0; i < 1000; i++)
			x++;
	return arg;
}

static void *ppid_thread(void *arg)
{
	syscall(SYS_getppid);
	return arg;
}

static void two_threads_and_ppid(void)
{
	pthread_t th[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, ppid_thread, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	syscall(SYS_getppid);
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(m, "calls")) {
		long r;

		printf("ppid %ld\n", syscall(SYS_getppid));
		errno = 0;
		r = syscall(SYS_dup, 12345);
		printf("dup %s errno %d\n", r >= 0 ? "ok" : "-1", errno);
		printf("pid %ld\n", syscall(SYS_getpid));
		return 0;
	}
	if (!strcmp(m, "write")) {
		static char buf[] = "hello world\n";

		return write(1, buf, 12) == 12 ? 0 : 1;
	}
	if (!strcmp(m, "open") && argc > 3) {
		int n = atoi(argv[2]);

		for (int i = 1; i <= n; i++) {
			int fd;

			errno = 0;
			fd = openat(AT_FDCWD, argv[3], O_RDONLY | O_CLOEXEC);
			printf("open %d %s errno %d\n", i, fd >= 0 ? "ok" : "-1",
			       fd >= 0 ? 0 : errno);
			if (fd >= 0)
				close(fd);
		}
		return 0;
	}
	if (!strcmp(m, "spin") && argc > 3) {
		int n = atoi(argv[2]);
		pthread_t *th = calloc(n, sizeof(*th));

		spin_ms = atol(argv[3]);
		for (int i = 0; i < n; i++)
			if (pthread_create(&th[i], NULL, spinner, NULL))
				return 3;
		spinner(NULL);
		for (int i = 0; i < n; i++)
			pthread_join(th[i], NULL);
		printf("spun\n");
		return 0;
	}
	if (!strcmp(m, "tree")) {
		pid_t kids[2];

		for (int i = 0; i < 2; i++) {
			kids[i] = fork();
			if (kids[i] == 0) {
				two_threads_and_ppid();
				_exit(0);
			}
		}
		two_threads_and_ppid();
		for (int i = 0; i < 2; i++) {
			int st;

			if (waitpid(kids[i], &st, 0) != kids[i] ||
			    !WIFEXITED(st) || WEXITSTATUS(st))
				return 4;
		}
		printf("tree done\n");
		return 0;
	}
	if (!strcmp(m, "loop") && argc > 2) {
		long n = atol(argv[2]);

		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		return 0;
	}
	if (!strcmp(m, "trapself")) {
		siginfo_t si;

		memset(&si, 0, sizeof(si));
		si.si_signo = SIGTRAP;
		si.si_code = SI_KERNEL;	/* allowed to oneself */
		if (syscall(SYS_rt_tgsigqueueinfo, getpid(), gettid(), SIGTRAP,
			    &si) < 0)
			return 3;
		printf("survived\n");
		return 0;
	}
	fprintf(stderr, "queue_prog: unknown mode\n");
	return 2;
}
