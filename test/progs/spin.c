/*
 * Spin on the CPU without making system calls (clock_gettime goes through
 * the vDSO) for argv[1] milliseconds (default 5000), then exit 0.
 */
#include <stdlib.h>
#include <time.h>

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	long end = now_ms() + (argc > 1 ? atol(argv[1]) : 5000);
	volatile unsigned long x = 0;

	while (now_ms() < end)
		for (int i = 0; i < 1000; i++)
			x++;
	return 0;
}
