/*
 * tp_static: built with -static by test/cli/transparency.sh (no dynamic
 * loader, libc inside the binary): getppid() through syscall(2), close()
 * through libc's wrapper, a thread, and a fork.  Exit status 3.
 */
#include "../tp_common.h"
#include <pthread.h>
#include <sys/wait.h>

static void *thread_fn(void *arg)
{
	for (int i = 0; i < 50; i++)
		close(-1101);
	return arg;
}

int main(void)
{
	pthread_t th;
	pid_t pid;
	int st;

	for (int i = 0; i < 200; i++)
		syscall(SYS_getppid);
	for (int i = 0; i < 50; i++)
		close(-1100);
	if (pthread_create(&th, NULL, thread_fn, NULL) ||
	    pthread_join(th, NULL))
		return 1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 20; i++)
			close(-1102);
		_exit(4);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 1;
	printf("static: child exited with %d\n", WEXITSTATUS(st));
	tp_expect(200, "getppid\\(\\) = \\d+");
	tp_expect(50, TP_MARK, 1100L);
	tp_expect(50, TP_MARK, 1101L);
	tp_expect(20, TP_MARK, 1102L);
	tp_expect(1, "\\+\\+\\+ exited with 4 \\+\\+\\+");
	tp_expect_write();
	return 3;
}
