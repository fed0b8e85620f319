// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A program for the gdb tests (test/cli/gdb.sh): each mode exercises what
 * one gdb batch script looks at.
 *   basic     functions to break in, a global to watch, an AVX value
 *   threads   two threads meeting in one function
 *   signal    SIGUSR1 to a handler, then SIGUSR2 (ignored by the program)
 *   crash     a write through a null pointer
 *   syscall   a few getppid() calls
 *   tree      a child loops on getppid() (dying with its parent) while
 *             the parent calls touch()
 *   forkcall  a child calls add() (where gdb's breakpoint is) and exits
 *   exec      executes itself in mode basic
 *   vforkcall a vfork child executes this program in mode syscall; the
 *             parent calls add() once it has waited for the child
 *   pause     sets counter to 7, creates the file argv[2], then waits in
 *             pause() until killed (for attach)
 *   join      creates the file argv[2], waits for the file argv[3] (gdb
 *             joins meanwhile), then calls add() three times and exits
 *   forever   getppid() in a loop until killed (for detach, Ctrl-C, kill);
 *             after 100 rounds it creates the file argv[2], if given
 * Variables are volatile so that -O1 keeps them where gdb looks.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

volatile int counter;
volatile int watched;
volatile int got_sig;
volatile int thread_hits;

__attribute__((noinline)) int add(int a, int b)
{
	counter += a;
	return a + b;
}

__attribute__((noinline)) void touch(int v)
{
	watched = v;
}

__attribute__((noinline)) void in_thread(int n)
{
	__sync_fetch_and_add(&thread_hits, n);
}

__attribute__((noinline)) void vector_value(void)
{
	/* ymm1 = {1, 2, 3, 4, 5, 6, 7, 8} while stopped in the marker. */
	__asm__ volatile(
		"mov $1, %%eax\n\t"
		"vmovd %%eax, %%xmm0\n\t"
		"vpbroadcastd %%xmm0, %%ymm1\n\t"
		"mov $0x10, %%eax\n\t"
		"vmovd %%eax, %%xmm2\n\t"
		"vpbroadcastd %%xmm2, %%ymm2\n\t"
		"vpaddd %%ymm2, %%ymm1, %%ymm1\n\t"
		".globl vector_marker\n"
		"vector_marker:\n\t"
		"nop\n\t"
		"vzeroupper\n\t"
		::: "eax", "xmm0", "xmm1", "xmm2", "memory");
}

static void *worker(void *arg)
{
	in_thread((int)(long)arg);
	return NULL;
}

static void on_usr1(int sig)
{
	got_sig = sig;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "basic";
	int i, sum = 0;

	if (!strcmp(mode, "basic")) {
		for (i = 0; i < 3; i++)
			sum += add(i, 10);
		touch(42);
		touch(43);
		vector_value();
		printf("sum %d counter %d watched %d\n", sum, counter, watched);
		return sum == 33 ? 0 : 1;
	}
	if (!strcmp(mode, "threads")) {
		pthread_t t[2];

		/* One after the other: the same stops under any scheduler. */
		for (i = 0; i < 2; i++) {
			pthread_create(&t[i], NULL, worker, (void *)(long)(i + 1));
			pthread_join(t[i], NULL);
		}
		printf("hits %d\n", thread_hits);
		return 0;
	}
	if (!strcmp(mode, "signal")) {
		signal(SIGUSR1, on_usr1);
		signal(SIGUSR2, SIG_IGN);
		kill(getpid(), SIGUSR1);
		kill(getpid(), SIGUSR2);
		printf("got %d\n", got_sig);
		return 0;
	}
	if (!strcmp(mode, "crash")) {
		volatile int *p = NULL;

		touch(1);
		*p = 1;
		return 0;
	}
	if (!strcmp(mode, "syscall")) {
		for (i = 0; i < 2; i++)
			sum += getppid() > 0;
		printf("ppid calls %d\n", sum);
		return 0;
	}
	if (!strcmp(mode, "tree")) {
		pid_t child = fork();

		if (child == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (;;) {
				getppid();
				usleep(1000);
			}
		}
		usleep(100000);
		touch(5);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		return 0;
	}
	if (!strcmp(mode, "forkcall")) {
		pid_t child = fork();
		int st = 0;

		if (child == 0) {
			add(1, 2);
			printf("child ok\n");
			return 0;
		}
		waitpid(child, &st, 0);
		printf("parent ok, child %s\n", WIFEXITED(st) &&
		       !WEXITSTATUS(st) ? "exited 0" : "failed");
		return 0;
	}
	if (!strcmp(mode, "pause")) {
		counter = 7;
		if (argc > 2)
			fclose(fopen(argv[2], "w"));
		for (;;)
			pause();
	}
	if (!strcmp(mode, "join") && argc > 3) {
		fclose(fopen(argv[2], "w"));
		while (access(argv[3], F_OK))
			usleep(10000);
		for (i = 0; i < 3; i++)
			sum += add(i, 10);
		printf("join sum %d counter %d\n", sum, counter);
		return 0;
	}
	if (!strcmp(mode, "vforkcall")) {
		pid_t child = vfork();
		int st = 0;

		if (child == 0) {
			execl("/proc/self/exe", argv[0], "syscall", (char *)NULL);
			_exit(127);
		}
		waitpid(child, &st, 0);
		sum = add(1, 2);
		printf("parent ok, child %s\n", WIFEXITED(st) &&
		       !WEXITSTATUS(st) ? "exited 0" : "failed");
		return sum == 3 ? 0 : 1;
	}
	if (!strcmp(mode, "exec")) {
		execl("/proc/self/exe", argv[0], "basic", (char *)NULL);
		return 3;
	}
	if (!strcmp(mode, "forever")) {
		for (;;) {
			getppid();
			usleep(1000);
			if (++counter == 100 && argc > 2)
				fclose(fopen(argv[2], "w"));
		}
	}
	return 2;
}
