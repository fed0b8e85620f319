// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * spinners - N threads (argv[1], default 15) and the main thread spin on
 * the CPU without system calls until killed (bench/queue -S).
 */
#include <pthread.h>
#include <stdlib.h>

static void *spin(void *arg)
{
	volatile unsigned long x = 0;

	for (;;)
		x++;
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 15;

	for (int i = 0; i < n; i++) {
		pthread_t th;

		if (pthread_create(&th, NULL, spin, NULL))
			return 3;
	}
	spin(NULL);
	return 0;
}
