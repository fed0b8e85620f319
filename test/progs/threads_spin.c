/*
 * Start N threads (argv[1], default 16) that spin on the CPU without system
 * calls for argv[2] milliseconds (default 5000); the main thread joins
 * them and exits 0.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static long end_ms;

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);	/* vDSO: no system call */
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *spin(void *arg)
{
	volatile unsigned long x = 0;

	while (now_ms() < end_ms)
		for (int i = 0; i < 1000; i++)
			x++;
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 16;
	pthread_t *th;

	end_ms = now_ms() + (argc > 2 ? atol(argv[2]) : 5000);
	th = calloc(n > 0 ? n : 1, sizeof(*th));
	if (!th)
		return 2;
	for (int i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, spin, NULL))
			return 3;
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	return 0;
}
