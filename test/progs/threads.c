/*
 * Start N threads (argv[1], default 50) that each call getppid() and exit;
 * join them all and exit 0.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static void *thread_fn(void *arg)
{
	syscall(SYS_getppid);
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 50;
	pthread_t *th = calloc(n, sizeof(*th));

	if (!th)
		return 2;
	for (int i = 0; i < n; i++) {
		if (pthread_create(&th[i], NULL, thread_fn, NULL)) {
			fprintf(stderr, "threads: pthread_create failed\n");
			return 3;
		}
	}
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	return 0;
}
