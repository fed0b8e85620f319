// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * mt_loop - a multi-threaded syscall loop: T threads (argv[2], default 4)
 * each call getppid() N times (argv[1], default 10000), then exit 0.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static long n = 10000;

static void *loop(void *arg)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return arg;
}

int main(int argc, char **argv)
{
	int t = argc > 2 ? atoi(argv[2]) : 4;
	pthread_t th[256];

	if (argc > 1)
		n = atol(argv[1]);
	if (t < 1 || t > 256)
		return 2;
	for (int i = 0; i < t; i++)
		if (pthread_create(&th[i], NULL, loop, NULL)) {
			fprintf(stderr, "mt_loop: pthread_create failed\n");
			return 3;
		}
	for (int i = 0; i < t; i++)
		pthread_join(th[i], NULL);
	return 0;
}
