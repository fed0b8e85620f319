/*
 * tp_vfork: children that share the parent's memory until they exit or
 * exec: vfork() (on the parent's stack) making markers then _exit(7);
 * vfork() then execve of this program; clone(CLONE_VM | CLONE_VFORK) on a
 * stack of its own (raw, no libc in the child); posix_spawn of this
 * program.  Each child's exit status is printed; exit status 3.
 * tp_vfork child TAG STATUS: TAG markers, exit STATUS.
 */
#include "tp_common.h"
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>

extern char **environ;

#define N 5

static int clone_child(void *arg)
{
	for (int i = 0; i < N; i++)
		tp_mark(1903);
	return 9;
}

static int reap(pid_t pid)
{
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
	char *args2[] = { argv[0], "child", "1902", "8", NULL };
	char *args4[] = { argv[0], "child", "1904", "10", NULL };
	pid_t pid;
	char *stk;

	if (argc == 4) {
		for (int i = 0; i < N; i++)
			tp_mark(atol(argv[2]));
		return atoi(argv[3]);
	}
	fflush(stdout);
	pid = vfork();
	if (pid == 0) {
		for (int i = 0; i < N; i++)
			tp_mark(1901);
		_exit(7);
	}
	printf("vfork, _exit: %d\n", reap(pid));

	fflush(stdout);
	pid = vfork();
	if (pid == 0) {
		execve(argv[0], args2, environ);
		_exit(127);
	}
	printf("vfork, execve: %d\n", reap(pid));

	stk = mmap(NULL, 65536, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stk == MAP_FAILED)
		return 1;
	pid = tp_clone_raw(CLONE_VM | CLONE_VFORK | SIGCHLD, stk + 65536,
			   NULL, NULL, 0, clone_child, NULL);
	printf("clone(CLONE_VM|CLONE_VFORK) on its own stack: %d\n", reap(pid));

	fflush(stdout);
	if (posix_spawn(&pid, argv[0], NULL, NULL, args4, environ))
		return 1;
	printf("posix_spawn: %d\n", reap(pid));

	for (long t = 1901; t <= 1904; t++)
		tp_expect(N, TP_MARK, t);
	tp_expect(2, "vfork\\(\\) = \\d+");
	/* Ours, and posix_spawn's (clone or clone3, by glibc's version). */
	tp_expect(2, "(clone\\(child_stack=0x[0-9a-f]+, flags=CLONE_VM\\|"
		  "CLONE_VFORK\\|SIGCHLD|clone3\\(\\{flags=CLONE_VM\\|"
		  "CLONE_VFORK, exit_signal=SIGCHLD, .*)\\) = \\d+");
	tp_expect(1, "execve\\(\"[^\"]*/tp_vfork\", \\[.*, \"child\", "
		  "\"1902\", \"8\"\\], .*\\) = 0");
	tp_expect(1, "execve\\(\"[^\"]*/tp_vfork\", \\[.*, \"child\", "
		  "\"1904\", \"10\"\\], .*\\) = 0");
	for (int st = 7; st <= 10; st++)
		tp_expect(1, "\\+\\+\\+ exited with %d \\+\\+\\+", st);
	tp_expect_write();
	return 3;
}
