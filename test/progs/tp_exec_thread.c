/*
 * tp_exec_thread: execve from a thread that is not the group leader.
 * The leader makes markers and blocks in pause(); a second thread makes
 * markers and executes this program again ("stage2 PID"), which takes
 * over the leader's pid, checks it, makes markers and exits with 4.
 */
#include "tp_common.h"
#include <pthread.h>

extern char **environ;

static char *self;

static void *thread_fn(void *arg)
{
	char pid[16];
	char *args[] = { self, "stage2", pid, NULL };

	snprintf(pid, sizeof(pid), "%d", getpid());
	for (int i = 0; i < 5; i++)
		tp_mark(2002);
	tp_expect(5, TP_MARK, 2001L);
	tp_expect(5, TP_MARK, 2002L);
	/* The leader's, ended by the execve. */
	tp_expect(1, "pause\\(\\) = \\?");
	tp_expect(1, "\\+\\+\\+ superseded by execve in pid %d \\+\\+\\+",
		  gettid());
	tp_expect_write();
	fflush(stdout);
	execve(self, args, environ);
	perror("execve");
	_exit(127);
}

int main(int argc, char **argv)
{
	pthread_t th;

	self = argv[0];
	if (argc == 3) {
		for (int i = 0; i < 5; i++)
			tp_mark(2003);
		printf("stage2: the leader's pid: %s\n",
		       atoi(argv[2]) == getpid() ? "yes" : "no");
		tp_expect(5, TP_MARK, 2003L);
		tp_expect(1, "execve\\(\"[^\"]*/tp_exec_thread\", \\[.*, "
			  "\"stage2\", \"%s\"\\], .*\\) = 0", argv[2]);
		tp_expect_write();
		return 4;
	}
	printf("stage1\n");
	for (int i = 0; i < 5; i++)
		tp_mark(2001);
	if (pthread_create(&th, NULL, thread_fn, NULL))
		return 1;
	for (;;)
		pause();
}
