// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * queue - the queued-event layer under load, on the public API only.
 *
 *	queue [-E] [-e SET] [-t] [-H] [-v] [--] PROG [ARGS...]
 *	queue -S N [-r ROUNDS]
 *
 *   -E       entry only (default: syscall entry and exit)
 *   -e SET   comma-separated syscall names (utrace_queue_set_syscalls);
 *            default: every syscall
 *   -t       consume on a thread of its own while the main thread runs
 *            utrace_run (default: the main thread consumes, no utrace_run)
 *   -H       hold every syscall entry and reply UTRACE_RESUME to each
 *            (default: notify-only)
 *   -v       print the record counts and the time per record to stderr
 *
 * PROG, its threads and children are watched (UTRACE_WATCH_PROCESS |
 * UTRACE_WATCH_CHILDREN) and every record is read and counted, as a
 * counting consumer would.  Exits with PROG's exit status.
 *
 * -S N: whole-process stop latency.  Spawns "spinners N" (N threads and
 * main spinning without syscalls), then ROUNDS times (default 20): time
 * utrace_queue_stop until every thread is in a ptrace stop, read the type-0
 * records, utrace_queue_resume, let them spin 20 ms.  Prints
 * "allstop threads=T rounds=R min_us=.. median_us=.. max_us=..".
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <libgen.h>
#include <sys/wait.h>
#include <seccomp.h>
#include <utrace.h>

struct bench {
	struct utrace_tracer *t;
	struct utrace_queue *q;
	pid_t leader;
	int status;
	bool hold;
	unsigned long records, held, entries, exits;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Read every record until the leader's death; 0, or a negative errno. */
static int consume(struct bench *b)
{
	struct utrace_event ev = { .size = sizeof(ev) };
	struct utrace_reply r = { .size = sizeof(r), .action = UTRACE_RESUME };
	int n;

	while ((n = utrace_queue_next(b->q, &ev, -1)) == 1) {
		b->records++;
		if (ev.type == UTRACE_EVENT(SYSCALL_ENTRY))
			b->entries++;
		else if (ev.type == UTRACE_EVENT(SYSCALL_EXIT))
			b->exits++;
		if (ev.held) {
			b->held++;
			n = utrace_queue_reply(b->q, ev.id, &r);
			if (n)
				return n;
		}
		if (ev.type == UTRACE_EVENT(DEATH) && ev.tid == b->leader) {
			b->status = ev.status;
			break;
		}
	}
	return n < 0 ? n : 0;
}

static void *consumer(void *arg)
{
	struct bench *b = arg;

	if (consume(b))
		fprintf(stderr, "queue: consumer failed\n");
	return NULL;
}

static int parse_set(char *arg, long **set, size_t *nset)
{
	for (char *s = strtok(arg, ","); s; s = strtok(NULL, ",")) {
		int nr = seccomp_syscall_resolve_name(s);
		long *n;

		if (nr < 0) {
			fprintf(stderr, "queue: unknown syscall %s\n", s);
			return -1;
		}
		n = realloc(*set, (*nset + 1) * sizeof(**set));
		if (!n)
			return -1;
		*set = n;
		(*set)[(*nset)++] = nr;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int count_tasks(pid_t pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		n += d->d_name[0] != '.';
	closedir(dir);
	return n;
}

static int allstop(const char *self, int nthreads, int rounds)
{
	struct utrace_spawn_opts opts = { .size = sizeof(opts),
					  .flags = UTRACE_SPAWN_KILL_ON_EXIT };
	struct utrace_event ev = { .size = sizeof(ev) };
	struct utrace_tracer *t;
	struct utrace_queue *q;
	char prog[4096], nbuf[16];
	char *argv[] = { prog, nbuf, NULL };
	double *lat = calloc((size_t)rounds, sizeof(double));
	pid_t pid;
	int err;

	snprintf(prog, sizeof(prog), "%s/spinners", self);
	snprintf(nbuf, sizeof(nbuf), "%d", nthreads - 1);
	if (!lat || utrace_tracer_new(&t) || utrace_queue_new(t, &q))
		return 1;
	err = utrace_spawn(t, argv, &opts, &pid);
	if (!err)
		err = utrace_queue_watch(q, pid, UTRACE_WATCH_PROCESS,
					 UTRACE_EVENT(DEATH), 0);
	if (err) {
		fprintf(stderr, "queue: %s: %s\n", prog, strerror(-err));
		return 1;
	}
	while (count_tasks(pid) < nthreads)
		utrace_dispatch(t, 10);
	for (int r = 0; r < rounds; r++) {
		double t0 = now_s(), t1;
		int n = utrace_queue_stop(q, pid, 60000);

		t1 = now_s();
		if (n != nthreads) {
			fprintf(stderr, "queue: stop: %d of %d\n", n, nthreads);
			return 1;
		}
		lat[r] = (t1 - t0) * 1e6;
		while (utrace_queue_next(q, &ev, 0) == 1)
			;
		utrace_queue_resume(q, pid);
		for (double end = now_s() + 0.02; now_s() < end;)
			utrace_dispatch(t, 5);
	}
	qsort(lat, (size_t)rounds, sizeof(double), cmp_double);
	printf("allstop threads=%d rounds=%d min_us=%.0f median_us=%.0f "
	       "max_us=%.0f\n", nthreads, rounds, lat[0], lat[rounds / 2],
	       lat[rounds - 1]);
	utrace_queue_free(q);
	utrace_tracer_free(t);	/* kills the spinners */
	free(lat);
	return 0;
}

int main(int argc, char **argv)
{
	struct utrace_spawn_opts opts = { .size = sizeof(opts),
					  .flags = UTRACE_SPAWN_KILL_ON_EXIT };
	struct bench b = { 0 };
	unsigned long events;
	bool entry_only = false, verbose = false, thread = false;
	long *set = NULL;
	size_t nset = 0;
	int c, err, spin = 0, rounds = 20;
	double t0;
	pthread_t th;

	while ((c = getopt(argc, argv, "+Ee:tHvS:r:")) != -1) {
		switch (c) {
		case 'E':
			entry_only = true;
			break;
		case 'e':
			if (parse_set(optarg, &set, &nset))
				return 2;
			break;
		case 't':
			thread = true;
			break;
		case 'H':
			b.hold = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'S':
			spin = atoi(optarg);
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (spin > 0 && rounds > 0)
		return allstop(dirname(argv[0]), spin, rounds);
	if (optind >= argc)
		goto usage;
	events = UTRACE_EVENT(SYSCALL_ENTRY) | UTRACE_EVENT(DEATH);
	if (!entry_only)
		events |= UTRACE_EVENT(SYSCALL_EXIT);
	err = utrace_tracer_new(&b.t);
	if (!err)
		err = utrace_queue_new(b.t, &b.q);
	if (!err)
		err = utrace_spawn(b.t, argv + optind, &opts, &b.leader);
	if (!err)
		err = utrace_queue_watch(b.q, b.leader, UTRACE_WATCH_PROCESS |
					 UTRACE_WATCH_CHILDREN, events,
					 b.hold ? UTRACE_EVENT(SYSCALL_ENTRY) : 0);
	if (!err && set)
		err = utrace_queue_set_syscalls(b.q, b.leader, set, nset);
	if (err) {
		fprintf(stderr, "queue: %s: %s\n", argv[optind], strerror(-err));
		return 1;
	}
	t0 = now_s();
	if (thread) {
		if (pthread_create(&th, NULL, consumer, &b))
			return 1;
		utrace_run(b.t);
		pthread_join(th, NULL);
	} else if (consume(&b)) {
		fprintf(stderr, "queue: consume failed\n");
	}
	if (verbose)
		fprintf(stderr, "queue: %lu records (%lu entries, %lu exits, "
			"%lu held) in %.3f s: %.2f us/record\n", b.records,
			b.entries, b.exits, b.held, now_s() - t0,
			b.records ? (now_s() - t0) * 1e6 / b.records : 0.0);
	utrace_queue_free(b.q);
	utrace_tracer_free(b.t);
	free(set);
	if (WIFEXITED(b.status))
		return WEXITSTATUS(b.status);
	return 128 + WTERMSIG(b.status);
usage:
	fprintf(stderr,
		"usage: queue [-E] [-e SET] [-t] [-H] [-v] [--] PROG [ARGS...]\n"
		"       queue -S NTHREADS [-r ROUNDS]\n");
	return 2;
}
