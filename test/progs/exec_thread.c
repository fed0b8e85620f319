/*
 * exec_thread PROG [ARGS...]: a second thread executes PROG while the
 * main thread (the group leader) waits in pause().
 */
#include <pthread.h>
#include <unistd.h>

static char **args;

static void *thread_fn(void *arg)
{
	execv(args[0], args);
	_exit(126);
}

int main(int argc, char **argv)
{
	pthread_t th;

	if (argc < 2)
		return 2;
	args = argv + 1;
	if (pthread_create(&th, NULL, thread_fn, NULL))
		return 3;
	for (;;)
		pause();
}
