// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * manythreads - tracer memory per traced thread.
 *
 *	TRACER [TRACER-ARGS] manythreads [N]
 *
 * Run under a tracer that spawned it (its parent, e.g. bench/engines -n 1):
 * reads the tracer's VmRSS, starts N threads (default 10000) that block in
 * read(2), waits until the tracer has caught up, reads the tracer's VmRSS
 * and VmHWM again, prints one line to stdout
 *
 *	threads=N tracer=PID rss_before=KB rss_after=KB hwm_after=KB
 *	per_thread_rss=BYTES per_thread_hwm=BYTES
 *
 * then releases the threads and exits 0.  Every pthread_create traps to
 * the tracer at the clone event, so when the last one returns the tracer
 * has seen every thread; the short settle wait covers the new threads'
 * first stops.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int pipefd[2];

static long status_kb(pid_t pid, const char *key)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = atol(line + klen + 1);
			break;
		}
	fclose(f);
	return v;
}

static void *blocker(void *arg)
{
	char c;

	while (read(pipefd[0], &c, 1) < 0 && errno == EINTR)
		;
	return arg;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10000;
	pid_t tracer = getppid();
	pthread_t *th = calloc((size_t)n, sizeof(*th));
	pthread_attr_t attr;
	long before, after, hwm, prev = -1;
	int made = 0;

	if (!th || n < 1 || pipe(pipefd))
		return 2;
	/* Let the tracer finish its start-up before the baseline. */
	sleep_ms(200);
	before = status_kb(tracer, "VmRSS");
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN);
	for (; made < n; made++) {
		int err = pthread_create(&th[made], &attr, blocker, NULL);

		if (err) {
			fprintf(stderr, "manythreads: thread %d: %s\n", made,
				strerror(err));
			break;
		}
	}
	/* Wait until the tracer's RSS stops growing. */
	for (int i = 0; i < 50; i++) {
		sleep_ms(100);
		after = status_kb(tracer, "VmRSS");
		if (after == prev)
			break;
		prev = after;
	}
	hwm = status_kb(tracer, "VmHWM");
	printf("threads=%d tracer=%d rss_before=%ld rss_after=%ld "
	       "hwm_after=%ld per_thread_rss=%ld per_thread_hwm=%ld\n",
	       made, (int)tracer, before, after, hwm,
	       made ? (after - before) * 1024 / made : 0,
	       made ? (hwm - before) * 1024 / made : 0);
	fflush(stdout);
	/* Release every thread: EOF on the pipe. */
	close(pipefd[1]);
	for (int i = 0; i < made; i++)
		pthread_join(th[i], NULL);
	return made == n ? 0 : 1;
}
