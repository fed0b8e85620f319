/*
 * tp_threads [N [T [wait|until]]]: T threads (default 16, at most 64) each
 * make N getppid() (default 2000), then the process exits with status 5.
 * Run with a slow trace reader, every one of the T * N calls must still be
 * in the trace.  With "wait", a byte (or the end) is read from standard
 * input first (a tracer attaches meanwhile); with "until", the threads
 * call getppid() until a byte (or the end) comes on standard input (a
 * tracer is killed meanwhile), and the output does not say how many.
 */
#include "tp_common.h"
#include <pthread.h>

#define MAXTHREADS 64

static long n = 2000;
static int until, stop;

struct th {
	pthread_t th;
	long bad, calls;
};

static void *thread_fn(void *arg)
{
	struct th *t = arg;
	long ppid = getppid();

	for (long i = 0; until ? !__atomic_load_n(&stop, __ATOMIC_RELAXED) :
	     i < n; i++) {
		if (syscall(SYS_getppid) != ppid)
			t->bad++;
		t->calls++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct th th[MAXTHREADS];
	long bad = 0, calls = 0;
	int nt = 16;
	char c;

	if (argc > 1)
		n = atol(argv[1]);
	if (argc > 2)
		nt = atoi(argv[2]);
	if (nt < 1 || nt > MAXTHREADS)
		return 2;
	if (argc > 3 && !strcmp(argv[3], "wait") && read(0, &c, 1) < 0)
		return 2;
	until = argc > 3 && !strcmp(argv[3], "until");
	memset(th, 0, sizeof(th));
	for (int i = 0; i < nt; i++)
		if (pthread_create(&th[i].th, NULL, thread_fn, &th[i]))
			return 1;
	if (until) {
		if (read(0, &c, 1) < 0)
			return 2;
		__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	}
	for (int i = 0; i < nt; i++) {
		pthread_join(th[i].th, NULL);
		bad += th[i].bad;
		calls += th[i].calls;
	}
	if (until)
		printf("threads: %d calling getppid until told, %ld wrong "
		       "results\n", nt, bad);
	else
		printf("threads: %d x %ld getppid, %ld wrong results\n", nt, n,
		       bad);
	/* Each thread's loop and its getppid() before it. */
	tp_expect(calls + nt, "getppid\\(\\) = \\d+");
	tp_expect_write();
	return 5;
}
