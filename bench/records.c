// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * records - one observer engine on every syscall of a command, from stops
 * or from in-process records (utrace_tracer_set_records(3)); prints the
 * wall time and what the engine saw.
 *
 *	records stops|records PROG [ARGS...]
 *
 * getppid is the one syscall captured (registers only), so
 * `records records $O/bench/getppid_loop 100000` is the record path's
 * floor and `records stops ...` the stop path's on the same work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/syscall.h>
#include <utrace.h>

struct seen {
	long entries, exits, from_records;
};

static uint32_t entry(uint32_t action, struct utrace_engine *e)
{
	struct seen *s = utrace_engine_data(e);

	s->entries++;
	s->from_records += utrace_from_record(e) == 1;
	return UTRACE_RESUME;
}

static uint32_t sys_exit(uint32_t action, struct utrace_engine *e)
{
	struct seen *s = utrace_engine_data(e);

	s->exits++;
	return UTRACE_RESUME;
}

static const struct utrace_engine_ops ops = {
	.report_syscall_entry = entry,
	.report_syscall_exit = sys_exit,
};

int main(int argc, char **argv)
{
	struct utrace_tracer *t;
	struct utrace_engine *e;
	struct seen s = { 0 };
	struct timespec a, b;
	uint64_t st[4] = { 0 };
	bool rec;
	pid_t pid;
	int r;

	if (argc < 3 || (strcmp(argv[1], "stops") && strcmp(argv[1], "records"))) {
		fprintf(stderr, "usage: records stops|records PROG [ARGS...]\n");
		return 2;
	}
	rec = !strcmp(argv[1], "records");
	if (utrace_tracer_new(&t))
		return 1;
	if (rec) {
		r = utrace_tracer_set_records(t, UTRACE_RECORDS_ON);
		if (!r)
			r = utrace_set_capture(t, SYS_getppid, NULL, 0);
		if (r) {
			fprintf(stderr, "records: %s\n", strerror(-r));
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	r = utrace_spawn(t, argv + 2, NULL, &pid);
	if (!r)
		r = utrace_attach(t, pid, UTRACE_ATTACH_CREATE, &ops, &s, &e);
	if (!r && rec)
		r = utrace_set_observer(e, true);
	if (!r)
		r = utrace_set_events(e, UTRACE_EVENT_SYSCALL);
	if (r) {
		fprintf(stderr, "records: %s\n", strerror(-r));
		return 1;
	}
	utrace_run(t);
	clock_gettime(CLOCK_MONOTONIC, &b);
	utrace_tracer_record_stats(t, st, 4);
	printf("%s %.3f s: %ld entries, %ld exits, %ld from records; "
	       "%llu traps, %llu sites rewritten\n", argv[1],
	       (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9,
	       s.entries, s.exits, s.from_records, (unsigned long long)st[1],
	       (unsigned long long)st[2]);
	utrace_tracer_free(t);
	return 0;
}
