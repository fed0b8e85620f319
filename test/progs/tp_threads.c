/*
 * tp_threads [N]: 16 threads each make N getppid() (default 2000), then
 * the process exits with status 5.  Run with a slow trace reader, every
 * one of the 16 * N calls must still be in the trace.
 */
#include "tp_common.h"
#include <pthread.h>

#define NTHREADS 16

static long n = 2000;

static void *thread_fn(void *arg)
{
	long *bad = arg;
	long ppid = getppid();

	for (long i = 0; i < n; i++)
		if (syscall(SYS_getppid) != ppid)
			++*bad;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[NTHREADS];
	long bad[NTHREADS] = { 0 }, sum = 0;

	if (argc > 1)
		n = atol(argv[1]);
	for (int i = 0; i < NTHREADS; i++)
		if (pthread_create(&th[i], NULL, thread_fn, &bad[i]))
			return 1;
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], NULL);
		sum += bad[i];
	}
	printf("threads: %d x %ld getppid, %ld wrong results\n", NTHREADS, n,
	       sum);
	/* Each thread's loop and its getppid() before it. */
	tp_expect(NTHREADS * (n + 1), "getppid\\(\\) = \\d+");
	tp_expect_write();
	return 5;
}
