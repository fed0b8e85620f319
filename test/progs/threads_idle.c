/*
 * Start N extra threads (argv[1], default 3); every thread, main included,
 * calls getppid() then sleeps 5 ms, over and over, for argv[2] seconds
 * (default 5).  Then the process exits 0.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static time_t end;

static void *thread_fn(void *arg)
{
	while (time(NULL) < end) {
		syscall(SYS_getppid);
		usleep(5000);
	}
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	int secs = argc > 2 ? atoi(argv[2]) : 5;
	pthread_t th;

	end = time(NULL) + secs;
	for (int i = 0; i < n; i++)
		if (pthread_create(&th, NULL, thread_fn, NULL))
			return 3;
	thread_fn(NULL);
	exit(0);
}
