/*
 * For -k: known call chains in this program's own functions, each ending
 * in a write() of a short tag to fd 1 (redirect it to /dev/null):
 *   main -> stk_outer -> stk_inner -> write("main")
 *   a thread: stk_thread -> stk_thread_leaf -> write("thread")
 *   a child (fork): stk_child -> write("child"), _exit
 *   execve of itself with "again": stk_again -> write("again"), exit
 * SIGCHLD is blocked (its arrival would race with the fork's return);
 * after the child: stk_signal -> raise(SIGUSR1), ignored.
 * With "cplus" only: main -> stk_cplus(int) (a C function under the C++
 * name _Z9stk_cplusi, which strace prints demangled) -> write("cplus").
 * Each step waits for the previous one, so the order is fixed.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
/* Keeps a call from becoming a jump, so each function has its frame. */
#define KEEP() __asm__ volatile("" ::: "memory")

NOINLINE static void stk_inner(const char *tag)
{
	if (write(1, tag, strlen(tag)) < 0)
		exit(2);
	KEEP();
}

NOINLINE static void stk_outer(const char *tag)
{
	stk_inner(tag);
	KEEP();
}

NOINLINE static void stk_thread_leaf(void)
{
	if (write(1, "thread", 6) < 0)
		exit(2);
	KEEP();
}

NOINLINE static void *stk_thread(void *arg)
{
	stk_thread_leaf();
	KEEP();
	return arg;
}

NOINLINE static void stk_child(void)
{
	if (write(1, "child", 5) < 0)
		_exit(2);
	KEEP();
	_exit(0);
}

NOINLINE static int stk_again(void)
{
	if (write(1, "again", 5) < 0)
		return 2;
	KEEP();
	return 0;
}

NOINLINE static void stk_signal(void)
{
	signal(SIGUSR1, SIG_IGN);
	raise(SIGUSR1);
	KEEP();
}

/* The assembler name of the C++ function stk_cplus(int). */
NOINLINE int stk_cplus(int n) __asm__("_Z9stk_cplusi");
NOINLINE int stk_cplus(int n)
{
	if (write(1, "cplus", 5) < 0)
		return 2;
	KEEP();
	return n;
}

int main(int argc, char **argv)
{
	pthread_t th;
	pid_t pid;
	sigset_t chld;

	if (argc > 1 && !strcmp(argv[1], "again"))
		return stk_again();
	if (argc > 1 && !strcmp(argv[1], "cplus"))
		return stk_cplus(0);
	stk_outer("main");
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	if (pthread_create(&th, NULL, stk_thread, NULL) ||
	    pthread_join(th, NULL))
		return 3;
	pid = fork();
	if (pid < 0)
		return 4;
	if (pid == 0)
		stk_child();
	if (waitpid(pid, NULL, 0) != pid)
		return 5;
	stk_signal();
	execl("/proc/self/exe", argv[0], "again", (char *)NULL);
	return 6;
}
