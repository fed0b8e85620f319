// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * rec_prog MODE ... - tracees of test/lib/record (syscalls observed
 * in-process).  Each prints one line and exits 0 unless said otherwise.
 *
 *   threads T N   getppid once, then T threads call getppid N times each
 *   orphan N      getppid through syscall(3) (a rewritten site) until the
 *                 parent changes (the tracer was killed), then N through
 *                 it and through an inline syscall instruction whose site
 *                 cannot be rewritten (it traps each time); prints
 *                 "done N bad 0" and exits 7
 *   sigsys N      N getppid, its own SIGSYS handler, N getppid
 *   mem           a write and a read through a pipe, an openat, an fstat,
 *                 a write from a bad address; prints the read's and the
 *                 bad write's results
 *   sigread R     a read from a pipe, blocked when SIGALRM comes; the
 *                 handler (SA_RESTART if R is 1) writes a byte to the pipe;
 *                 prints what read returned
 *   naps N MS     N times: getppid, then nanosleep of MS milliseconds
 *   jmpread N     N times: getppid, then a read from an empty pipe that a
 *                 SIGALRM handler leaves with siglongjmp; then N getppid;
 *                 prints "jmpread N"
 *   flood N R     a read from an empty pipe; SIGALRM's handler (SA_RESTART
 *                 if R is 1) calls getppid N times, then writes a byte to
 *                 the pipe; prints what read returned
 * (jmpread and flood: a child sends SIGALRM once the read blocks.)
 *   storm N J     N writes to /dev/null of 1 to 16,384 bytes (the count
 *                 is the call's number modulo 16,384, plus 1) under a
 *                 SIGALRM every 200 us whose handler returns (SA_RESTART),
 *                 or with J 1 leaves with siglongjmp (the write it cut
 *                 short is not made again); prints the writes that
 *                 returned
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <setjmp.h>
#include <unistd.h>

static long n_calls;

static void *worker(void *arg)
{
	for (long i = 0; i < n_calls; i++)
		syscall(SYS_getppid);
	return arg;
}

/* A syscall instruction followed by a jump: no rewrite moves it. */
static long getppid_inline(void)
{
	long r;

	__asm__ volatile("syscall\n\tjmp 1f\n1:"
			 : "=a"(r) : "a"((long)SYS_getppid)
			 : "rcx", "r11", "memory");
	return r;
}

static void on_sigsys(int sig)
{
	(void)sig;
}

static int pipe_w;

static void on_alarm(int sig)
{
	(void)sig;
	if (write(pipe_w, "x", 1) != 1)
		_exit(3);
}

static sigjmp_buf jmp_env;

static void on_alarm_jmp(int sig)
{
	(void)sig;
	siglongjmp(jmp_env, 1);
}

static long flood_n;

static void on_alarm_nop(int sig)
{
	(void)sig;
}

static void on_alarm_flood(int sig)
{
	(void)sig;
	for (long i = 0; i < flood_n; i++)
		syscall(SYS_getppid);
	if (write(pipe_w, "x", 1) != 1)
		_exit(3);
}

/* SIGALRM to @fn (SA_RESTART if @restart). */
static void on_sigalrm(void (*fn)(int), int restart)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigaction(SIGALRM, &sa, NULL);
}

/* @pid's state letter in /proc/PID/stat, or 0. */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *e;
	ssize_t n;
	int f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = open(path, O_RDONLY);
	if (f < 0)
		return 0;
	n = read(f, buf, sizeof(buf) - 1);
	close(f);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	e = strrchr(buf, ')');
	return e && e[1] == ' ' ? e[2] : 0;
}

/*
 * A child that, each time a byte comes on the pipe it returns, waits
 * until this process blocks in read(@fd, ...) (/proc's syscall and stat
 * files) and sends it SIGALRM: the signal comes inside the read, however
 * loaded the machine.  Returns the pipe's write end.
 */
static int alarm_in_read(int fd)
{
	pid_t parent = getpid();
	char want[32];
	int go[2];

	snprintf(want, sizeof(want), "0 %#x ", fd);
	if (pipe(go) || fork() != 0) {
		close(go[0]);
		return go[1];
	}
	close(go[1]);
	for (char c; read(go[0], &c, 1) == 1;) {
		char path[64], buf[256];

		snprintf(path, sizeof(path), "/proc/%d/syscall", (int)parent);
		for (;;) {
			int f = open(path, O_RDONLY);
			ssize_t n = f < 0 ? -1 : read(f, buf, sizeof(buf) - 1);

			if (f >= 0)
				close(f);
			if (n <= 0)
				_exit(0);
			buf[n] = 0;
			/*
			 * In the read, asleep there: not stopped with the
			 * read as its number (a dispatch trap shows it too,
			 * before the read is made).
			 */
			if (!strncmp(buf, want, strlen(want)) &&
			    proc_state(parent) == 'S')
				break;
			usleep(200);
		}
		kill(parent, SIGALRM);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "threads") && argc > 3) {
		int t = atoi(argv[2]);
		pthread_t th[64];

		n_calls = atol(argv[3]);
		syscall(SYS_getppid);
		for (int i = 0; i < t && i < 64; i++)
			pthread_create(&th[i], NULL, worker, NULL);
		for (int i = 0; i < t && i < 64; i++)
			pthread_join(th[i], NULL);
		printf("threads done\n");
		return 0;
	}
	if (!strcmp(mode, "orphan") && argc > 2) {
		long n = atol(argv[2]), p0 = syscall(SYS_getppid), bad = 0;
		long ba = 0, bb = 0, ea, it = 0;

		getppid_inline();	/* its first trap: a stub */
		printf("ready\n");
		fflush(stdout);
		while ((ea = syscall(SYS_getppid)) == p0)
			it++;
		for (long i = 0; i < n; i++) {
			long a = syscall(SYS_getppid), b = getppid_inline();

			if ((a != b || a == p0) && !bad++) {
				ba = a;
				bb = b;
			}
		}
		if (bad)
			fprintf(stderr, "rec_prog: first bad %ld %ld (was %ld, "
				"left the wait on %ld after %ld)\n", ba, bb, p0,
				ea, it);
		printf("done %ld bad %ld\n", n, bad);
		return 7;
	}
	if (!strcmp(mode, "sigsys") && argc > 2) {
		long n = atol(argv[2]);
		struct sigaction sa;

		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sigsys;
		sigaction(SIGSYS, &sa, NULL);
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		printf("sigsys done\n");
		return 0;
	}
	if (!strcmp(mode, "mem")) {
		char buf[64];
		struct stat st;
		long n, e;
		int p[2], fd;

		if (pipe(p) || write(p[1], "pipe-data", 9) != 9)
			return 3;
		n = read(p[0], buf, sizeof(buf));
		fd = openat(AT_FDCWD, "/dev/null", O_RDONLY);
		if (fd < 0 || fstat(fd, &st))
			return 3;
		e = syscall(SYS_write, p[1], (void *)8, 5);
		printf("mem %ld %ld\n", n, e);
		return 0;
	}
	if (!strcmp(mode, "bigread")) {
		/* 1000 then 40000 bytes of a pattern, read from a pipe */
		static char out[41000], in[40000];
		int p[2];
		long a, b;

		for (size_t i = 0; i < sizeof(out); i++)
			out[i] = (char)('a' + i % 26);
		if (pipe(p) || write(p[1], out, sizeof(out)) != sizeof(out))
			return 3;
		a = read(p[0], in, 1000);
		b = read(p[0], in, sizeof(in));
		printf("bigread %ld %ld\n", a, b);
		return 0;
	}
	if (!strcmp(mode, "sleep")) {
		/* a sleep SIGALRM interrupts: the time left, as -EINTR */
		struct itimerval it = { { 0, 0 }, { 0, 50000 } };
		struct timespec req = { 5, 0 }, rem = { 0, 0 };
		struct sigaction sa;
		int p[2];
		long r;

		if (pipe(p))
			return 3;
		pipe_w = p[1];
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;
		sigaction(SIGALRM, &sa, NULL);
		setitimer(ITIMER_REAL, &it, NULL);
		r = syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &req, &rem);
		printf("sleep %ld %d\n", r, rem.tv_sec >= 4);
		return 0;
	}
	if (!strcmp(mode, "sigread") && argc > 2) {
		struct itimerval it = { { 0, 0 }, { 0, 100000 } };
		struct sigaction sa;
		int p[2];
		char c;
		long r;

		if (pipe(p))
			return 3;
		pipe_w = p[1];
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;
		sa.sa_flags = atoi(argv[2]) ? SA_RESTART : 0;
		sigaction(SIGALRM, &sa, NULL);
		setitimer(ITIMER_REAL, &it, NULL);
		r = read(p[0], &c, 1);
		printf("read %ld\n", r);
		return 0;
	}
	if (!strcmp(mode, "naps") && argc > 3) {
		long n = atol(argv[2]), ms = atol(argv[3]);
		struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

		for (long i = 0; i < n; i++) {
			syscall(SYS_getppid);
			syscall(SYS_nanosleep, &ts, NULL);
		}
		printf("naps done\n");
		return 0;
	}
	if (!strcmp(mode, "jmpread") && argc > 2) {
		long n = atol(argv[2]);
		volatile long jumps = 0;
		int p[2];
		char c;

		int go;

		if (pipe(p))
			return 3;
		go = alarm_in_read(p[0]);
		on_sigalrm(on_alarm_jmp, 0);
		for (long i = 0; i < n; i++) {
			syscall(SYS_getppid);
			if (sigsetjmp(jmp_env, 1)) {
				jumps++;
				continue;
			}
			if (write(go, "x", 1) != 1 || read(p[0], &c, 1) >= 0)
				return 4;
		}
		close(go);
		wait(NULL);
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		printf("jmpread %ld\n", (long)jumps);
		return 0;
	}
	if (!strcmp(mode, "storm") && argc > 3) {
		struct itimerval it = { { 0, 200 }, { 0, 200 } };
		static char buf[16384];
		long n = atol(argv[2]), jmp = atol(argv[3]);
		volatile long done = 0, i = 0;
		struct sigaction sa;
		int fd = open("/dev/null", O_WRONLY);

		if (fd < 0)
			return 3;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = jmp ? on_alarm_jmp : on_alarm_nop;
		sa.sa_flags = jmp ? 0 : SA_RESTART;
		sigaction(SIGALRM, &sa, NULL);
		setitimer(ITIMER_REAL, &it, NULL);
		for (; i < n; i++) {
			if (jmp && sigsetjmp(jmp_env, 1))
				continue;
			if (write(fd, buf, (size_t)(i % 16384 + 1)) ==
			    i % 16384 + 1)
				done++;
		}
		memset(&it, 0, sizeof(it));
		setitimer(ITIMER_REAL, &it, NULL);
		printf("storm %ld\n", (long)done);
		return 0;
	}
	if (!strcmp(mode, "flood") && argc > 3) {
		int p[2];
		char c;
		long r;

		int go;

		flood_n = atol(argv[2]);
		if (pipe(p))
			return 3;
		pipe_w = p[1];
		go = alarm_in_read(p[0]);
		on_sigalrm(on_alarm_flood, atoi(argv[3]));
		if (write(go, "x", 1) != 1)
			return 3;
		r = read(p[0], &c, 1);
		close(go);
		wait(NULL);
		printf("flood read %ld\n", r);
		return 0;
	}
	fprintf(stderr, "usage: rec_prog threads T N | orphan N | sigsys N | "
		"mem | bigread | sleep | sigread R | naps N MS | jmpread N |\n"
		"flood N R\n");
	return 2;
}
