// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A threaded program for the gdb thread tests (test/cli/gdb-threads.sh):
 * every thread is at a known place whenever gdb can stop it, so that gdb
 * sessions through gdbserver and through utrace --gdb print the same.
 *   once      one worker calls touch(1); main joins it and prints "hits 1"
 *             (issue 20's first program)
 *   park      two workers, each asleep in read() on its own pipe; main
 *             calls hit() once both sleep, then wakes worker 1, joins it,
 *             wakes worker 2, joins it; each worker, once main sleeps in
 *             its join, calls work(i) and exits; main prints "sum N"
 *   idle      two workers asleep in read(); once both sleep, main creates
 *             the file argv[2] and waits in pause() until killed (-p)
 *   late      creates the file argv[2], waits for the file argv[3] (gdb
 *             attaches or joins meanwhile), then runs as park
 *   count     a worker calls bump() 400 times (0.2 ms apart); main creates
 *             the file argv[2], waits for the file argv[3], starts a
 *             second worker that does the same, joins both and prints
 *             "count 800" (for gdb and joiners killed in the middle)
 *   ticker    (non-stop) a ticker thread appends a byte to the file
 *             argv[2] every millisecond until told to stop; once it has
 *             ticked, (with argv[3] and argv[4]: main creates the file
 *             argv[3] and waits for the file argv[4],) main starts a
 *             worker that calls work(1), then stops the ticker; main
 *             joins the worker, then the ticker, and prints "sum N";
 *             gdb may park the ticker meanwhile (ticker_fn)
 * Variables are volatile so that -O1 keeps them where gdb looks.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

volatile int hits;
volatile int total;
static int pipes[3][2];
static volatile pid_t tids[3];
static pid_t main_tid;

__attribute__((noinline)) void touch(int v)
{
	hits += v;
}

__attribute__((noinline)) int twice(int v)
{
	return 2 * v;
}

__attribute__((noinline)) void work(int i)
{
	int x = i * 10;

	x += twice(x);
	x += 1;
	total += x;
}

volatile int counted;

__attribute__((noinline)) void bump(void)
{
	__atomic_add_fetch(&counted, 1, __ATOMIC_SEQ_CST);
}

static void *count_fn(void *arg)
{
	for (int i = 0; i < 400; i++) {
		bump();
		usleep(200);
	}
	return arg;
}

__attribute__((noinline)) void hit(int v)
{
	hits += v;
}

/* Is the thread asleep in the kernel ('S' in its stat)? */
static int asleep(pid_t tid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

static void wait_asleep(pid_t tid)
{
	while (!asleep(tid))
		usleep(1000);
}

static volatile int ticking = 1, ticks;
static int tick_fd = -1;

/*
 * Ticks while ticking is 1.  gdb sets it to 2 to park the ticker, asleep
 * in read() on pipes[0] (a known place for "interrupt -a" to find it),
 * until main, once the worker (which sets it to 0) has ended, wakes it.
 */
static void *ticker_fn(void *arg)
{
	char c;

	while (ticking) {
		if (ticking == 2) {
			if (read(pipes[0][0], &c, 1) != 1)
				break;
			continue;
		}
		if (write(tick_fd, "t", 1) != 1)
			break;
		ticks++;
		usleep(1000);
	}
	return arg;
}

static void *worker_fn(void *arg)
{
	work(1);
	ticking = 0;
	return arg;
}

static int ticker(int argc, char **argv)
{
	pthread_t t[2];

	tick_fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
	if (tick_fd < 0 || pipe(pipes[0]))
		return 2;
	pthread_create(&t[0], NULL, ticker_fn, NULL);
	while (!ticks)
		usleep(1000);
	if (argc > 4) {
		close(open(argv[3], O_CREAT | O_WRONLY, 0644));
		while (access(argv[4], F_OK))
			usleep(1000);
	}
	pthread_create(&t[1], NULL, worker_fn, NULL);
	pthread_join(t[1], NULL);
	if (write(pipes[0][1], "w", 1) != 1)
		return 2;
	pthread_join(t[0], NULL);
	printf("sum %d\n", total);
	return 0;
}

static void *once_fn(void *arg)
{
	touch(1);
	return arg;
}

static void *park_fn(void *arg)
{
	int i = (int)(long)arg;
	char c;

	tids[i] = (pid_t)syscall(SYS_gettid);
	if (read(pipes[i][0], &c, 1) != 1)
		return NULL;
	wait_asleep(main_tid);	/* main is in its join */
	work(i);
	return arg;
}

static void wake(int i)
{
	if (write(pipes[i][1], "x", 1) != 1)
		exit(3);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "once";
	pthread_t t[3];
	int i;

	main_tid = (pid_t)syscall(SYS_gettid);
	if (!strcmp(mode, "late") && argc > 3) {
		close(open(argv[2], O_CREAT | O_WRONLY, 0644));
		while (access(argv[3], F_OK))
			usleep(1000);
	}
	if (!strcmp(mode, "count") && argc > 3) {
		pthread_create(&t[1], NULL, count_fn, NULL);
		close(open(argv[2], O_CREAT | O_WRONLY, 0644));
		while (access(argv[3], F_OK))
			usleep(1000);
		pthread_create(&t[2], NULL, count_fn, NULL);
		pthread_join(t[1], NULL);
		pthread_join(t[2], NULL);
		printf("count %d\n", counted);
		return 0;
	}
	if (!strcmp(mode, "ticker") && argc > 2)
		return ticker(argc, argv);
	if (!strcmp(mode, "once")) {
		pthread_create(&t[0], NULL, once_fn, NULL);
		pthread_join(t[0], NULL);
		printf("hits %d\n", hits);
		return 0;
	}
	for (i = 1; i <= 2; i++) {
		if (pipe(pipes[i]))
			return 2;
		pthread_create(&t[i], NULL, park_fn, (void *)(long)i);
	}
	for (i = 1; i <= 2; i++) {
		while (!tids[i])
			usleep(1000);
		wait_asleep(tids[i]);
	}
	if (!strcmp(mode, "idle")) {
		if (argc > 2)
			close(open(argv[2], O_CREAT | O_WRONLY, 0644));
		for (;;)
			pause();
	}
	hit(1);
	for (i = 1; i <= 2; i++) {
		wake(i);
		pthread_join(t[i], NULL);
	}
	printf("sum %d hits %d\n", total, hits);
	return 0;
}
