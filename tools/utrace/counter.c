// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The counter engine behind -c/-C: calls, errors and time per syscall.
 * Time is the thread's on-CPU time between the entry and exit stops, read
 * from /proc/TID/schedstat (the system time of the call, as strace -c
 * reports), or the wall-clock time between the stops with -w.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

struct cthr {
	pid_t tid;
	int schedfd;
	double t_entry;
	long nr;
};

static struct {
	unsigned long calls, errors;
	double time;
} stats[NR_MAX];

static double cpu_time(struct cthr *t)
{
	char buf[128];
	ssize_t n;

	if (opt.wall_clock || t->schedfd < 0)
		return now_mono();
	n = pread(t->schedfd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return now_mono();
	buf[n] = '\0';
	return strtod(buf, NULL) / 1e9;
}

static uint32_t keep(uint32_t action)
{
	return (action & ~UTRACE_RESUME_MASK) | UTRACE_RESUME;
}

static uint32_t c_entry(uint32_t action, struct utrace_engine *e)
{
	struct cthr *t = utrace_engine_data(e);
	struct utrace_syscall sc;

	if (action & UTRACE_SYSCALL_RESUMED)
		return keep(action);
	if (utrace_syscall_get(e, &sc) < 0 || sc.nr < 0 || sc.nr >= NR_MAX) {
		t->nr = -1;
		return keep(action);
	}
	/* -P: strace counts only the syscalls that touch the paths. */
	if (opt.trace_paths.n &&
	    !trace_path_match(&opt.trace_paths, e, t->tid, sc.nr, sc.args)) {
		t->nr = -1;
		return keep(action);
	}
	t->nr = sc.nr;
	t->t_entry = cpu_time(t);
	return keep(action);
}

static uint32_t c_exit(uint32_t action, struct utrace_engine *e)
{
	struct cthr *t = utrace_engine_data(e);
	struct utrace_syscall sc;
	double d;

	if (t->nr < 0 || utrace_syscall_get(e, &sc) < 0)
		return keep(action);
	d = cpu_time(t) - t->t_entry;
	stats[t->nr].calls++;
	stats[t->nr].time += d > 0 ? d : 0;
	if (sc.ret < 0 && sc.ret >= -4095)
		stats[t->nr].errors++;
	t->nr = -1;
	return keep(action);
}

static void c_release(void *data)
{
	struct cthr *t = data;

	if (t->schedfd >= 0)
		close(t->schedfd);
	free(t);
}

static int open_schedstat(pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/schedstat", tid);
	return open(path, O_RDONLY | O_CLOEXEC);
}

/*
 * A non-leader thread executed and took the leader's id: its old
 * /proc/TID is gone, and execve's exit must be timed on the same clock.
 */
static uint32_t c_exec(uint32_t action, struct utrace_engine *e,
		       pid_t former)
{
	struct cthr *t = utrace_engine_data(e);
	pid_t tid = utrace_engine_tid(e);

	if (t->tid == tid)
		return UTRACE_RESUME;
	t->tid = tid;
	if (t->schedfd >= 0)
		close(t->schedfd);
	t->schedfd = open_schedstat(tid);
	return UTRACE_RESUME;
}

static const struct utrace_engine_ops counter_ops = {
	.report_syscall_entry = c_entry,
	.report_syscall_exit = c_exit,
	.report_exec = c_exec,
	.release = c_release,
};

int counter_attach(pid_t tid)
{
	struct utrace_engine *e;
	struct cthr *t = calloc(1, sizeof(*t));
	const long *nrs;
	size_t n;
	int err;

	if (!t)
		return -ENOMEM;
	t->tid = tid;
	t->nr = -1;
	t->schedfd = open_schedstat(tid);
	err = utrace_attach(tracer, tid, UTRACE_ATTACH_CREATE, &counter_ops,
			    t, &e);
	if (err) {
		c_release(t);
		return err;
	}
	nrs = trace_nrs(&n);
	utrace_set_syscalls(e, nrs, n);
	err = utrace_set_events(e, UTRACE_EVENT_SYSCALL | UTRACE_EVENT(EXEC));
	utrace_engine_put(e);
	return err;
}

static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	switch (opt.sort) {
	case SORT_TIME:
		if (stats[x].time != stats[y].time)
			return stats[x].time < stats[y].time ? 1 : -1;
		break;
	case SORT_CALLS:
		if (stats[x].calls != stats[y].calls)
			return stats[x].calls < stats[y].calls ? 1 : -1;
		break;
	case SORT_ERRORS:
		if (stats[x].errors != stats[y].errors)
			return stats[x].errors < stats[y].errors ? 1 : -1;
		break;
	case SORT_NAME:
		return strcmp(sys_name(x) ? sys_name(x) : "",
			      sys_name(y) ? sys_name(y) : "");
	case SORT_NOTHING:
		break;
	}
	return x - y;
}

static const char dashes[] =
	"------ ----------- ----------- --------- --------- ----------------\n";

void counter_report(FILE *f)
{
	int order[NR_MAX], n = 0, i;
	unsigned long calls = 0, errors = 0;
	double total = 0;

	for (i = 0; i < NR_MAX; i++) {
		if (!stats[i].calls)
			continue;
		order[n++] = i;
		calls += stats[i].calls;
		errors += stats[i].errors;
		total += stats[i].time;
	}
	qsort(order, (size_t)n, sizeof(order[0]), cmp);
	fprintf(f, "%% time     seconds  usecs/call     calls    errors "
		"syscall\n");
	fputs(dashes, f);
	for (i = 0; i < n; i++) {
		int nr = order[i];
		const char *name = sys_name(nr);

		fprintf(f, "%6.2f %11.6f %11lu %9lu %9.lu %s\n",
			total > 0 ? stats[nr].time * 100 / total : 0.0,
			stats[nr].time,
			(unsigned long)(stats[nr].time * 1e6 / stats[nr].calls),
			stats[nr].calls, stats[nr].errors,
			name ? name : "?");
	}
	fputs(dashes, f);
	fprintf(f, "%6.2f %11.6f %11lu %9lu %9.lu total\n", 100.0, total,
		calls ? (unsigned long)(total * 1e6 / calls) : 0UL, calls,
		errors);
	fflush(f);
}
