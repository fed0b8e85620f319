// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The counter engine behind -c/-C: calls, errors and time per syscall.
 * Time is the thread's on-CPU time between the entry and exit stops (the
 * system time of the call, as strace -c reports), or the wall-clock time
 * between the stops with -w.  The thread's time is read from
 * /proc/TID/schedstat; while its process has only this thread, from the
 * process's usage instead (the same sum_exec_runtime), which needs every
 * thread of the process to be counted, so only with -f, which traces them
 * all (counter_settings.all_threads).  The process's usage comes with each
 * stop's wait status, as strace takes it (the tracer's
 * UTRACE_TRACER_RUSAGE, utrace_stop_rusage: no system call of ours per
 * stop), except around the calls that reap children (wait4, waitid),
 * whose usage grows by the children's: those are timed on the process's
 * CPU clock (a clock_gettime at entry and exit).
 *
 * A syscall that comes from a record (records.c) is timed in the thread:
 * from the time stamp it took at the entry to the one at the exit
 * (utrace_syscall_time(3)), its time in the kernel; the calls that wait
 * (records.c's waits()) take the stop path without -w, so that their
 * sleep is not counted.
 *
 * A counter is an object (counter_new): its settings, its table, the
 * processes it counts; any number of them may count the same threads.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "cli.h"

/* A process: its counted threads share it. */
struct cproc {
	pid_t tgid;
	int nthreads;
};

struct syscall_stats {
	unsigned long calls, errors;
	double time, min, max;
};

struct counter {
	struct counter_settings s;
	struct syscall_stats stats[NR_MAX];
};

/* Where a syscall's time is read: the exit reads the entry's. */
enum csrc {
	SRC_THREAD,		/* /proc/TID/schedstat (or -w: the clock) */
	SRC_PROC_CLOCK,		/* the process's CPU clock */
	SRC_USAGE,		/* the process's usage at the stop */
	SRC_RECORD,		/* the record's time stamps */
};

struct cthr {
	struct counter *c;
	pid_t tid;
	int schedfd;		/* -1 until needed */
	struct cproc *proc;
	enum csrc src;		/* of the entry's time */
	double t_entry;
	long nr;
};

static int open_schedstat(pid_t tid);
static double cpu_time(struct cthr *t, bool by_proc);

/* CPUCLOCK_SCHED of process @pid, as clock_getcpuclockid(3) makes it. */
static double proc_clock(pid_t pid)
{
	struct timespec ts;

	if (clock_gettime((clockid_t)((~(unsigned)pid << 3) | 2), &ts))
		return -1;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool single(const struct cthr *t)
{
	return t->c->s.all_threads && t->proc && t->proc->nthreads == 1;
}

/*
 * The process's user + system time as wait4 reported it with this stop
 * (the kernel's sum_exec_runtime split in two, to the microsecond), or
 * -1 when the stop came without it.
 */
static double stop_usage(struct utrace_engine *e)
{
	struct rusage ru;

	if (utrace_stop_rusage(e, &ru))
		return -1;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * The time stamp a syscall event that comes from the thread's own record
 * took in the thread (CLOCK_MONOTONIC seconds): at the call's entry, or
 * at its exit; -1 at a stop, or when the record has none.
 */
static double rec_stamp(struct utrace_engine *e, bool exiting)
{
	struct timespec en, ex, *ts = exiting ? &ex : &en;

	if (utrace_from_record(e) != 1 ||
	    utrace_syscall_time(e, CLOCK_MONOTONIC, &en, &ex) < 0 ||
	    (!ts->tv_sec && !ts->tv_nsec))
		return -1;
	return (double)ts->tv_sec + (double)ts->tv_nsec / 1e9;
}

/* Which source times syscall @nr of @t, and its time now (-1: none). */
static double entry_time(struct cthr *t, struct utrace_engine *e, long nr)
{
	double rt = rec_stamp(e, false);

	if (rt >= 0) {
		t->src = SRC_RECORD;
		return rt;
	}
	if (!t->c->s.wall_clock && single(t)) {
		if (nr != SYS_wait4 && nr != SYS_waitid) {
			double v = stop_usage(e);

			if (v >= 0) {
				t->src = SRC_USAGE;
				return v;
			}
		}
		t->src = SRC_PROC_CLOCK;
	} else {
		t->src = SRC_THREAD;
	}
	return cpu_time(t, t->src == SRC_PROC_CLOCK);
}

static double cpu_time(struct cthr *t, bool by_proc)
{
	char buf[128];
	ssize_t n;

	if (t->c->s.wall_clock)
		return now_mono();
	if (by_proc) {
		double v = proc_clock(t->proc->tgid);

		if (v >= 0)
			return v;
	}
	if (t->schedfd < 0)
		t->schedfd = open_schedstat(t->tid);
	if (t->schedfd < 0)
		return now_mono();
	n = pread(t->schedfd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return now_mono();
	buf[n] = '\0';
	return strtod(buf, NULL) / 1e9;
}

static uint32_t c_entry(uint32_t action, struct utrace_engine *e)
{
	struct cthr *t = utrace_engine_data(e);
	const struct counter_settings *cs = &t->c->s;
	struct utrace_syscall sc;

	if (action & UTRACE_SYSCALL_RESUMED)
		return utrace_pass(action, UTRACE_RESUME);
	if (utrace_syscall_get(e, &sc) < 0 || sc.nr < 0 || sc.nr >= NR_MAX) {
		t->nr = -1;
		return utrace_pass(action, UTRACE_RESUME);
	}
	/* -P: strace counts only the syscalls that touch the paths. */
	if (host_hidden(&cs->host, t->tid, sc.nr) ||
	    (cs->paths && cs->paths->n &&
	     !trace_path_match(cs->paths, e, t->tid, sc.nr, sc.args))) {
		t->nr = -1;
		return utrace_pass(action, UTRACE_RESUME);
	}
	t->nr = sc.nr;
	t->t_entry = entry_time(t, e, sc.nr);
	return utrace_pass(action, UTRACE_RESUME);
}

/* Syscall t->nr took d seconds and returned ret: into the table. */
static void count_call(struct cthr *t, double d, long ret)
{
	struct syscall_stats *st;

	/* -O: what tracing adds to each call, as strace takes it off. */
	d -= t->c->s.overhead;
	if (d < 0)
		d = 0;
	st = &t->c->stats[t->nr];
	if (!st->calls++ || d < st->min)
		st->min = d;
	if (d > st->max)
		st->max = d;
	st->time += d;
	if (ret < 0 && ret >= -4095)
		st->errors++;
	t->nr = -1;
}

static uint32_t c_exit(uint32_t action, struct utrace_engine *e)
{
	struct cthr *t = utrace_engine_data(e);
	struct utrace_syscall sc;
	double d;

	if (t->nr < 0 || utrace_syscall_get(e, &sc) < 0)
		return utrace_pass(action, UTRACE_RESUME);
	if (t->src == SRC_USAGE) {
		double v = stop_usage(e);

		d = v >= 0 ? v - t->t_entry : 0;
	} else if (t->src == SRC_RECORD) {
		double v = rec_stamp(e, true);

		/* an exit reported at the stop that interrupted it: now */
		d = (v >= 0 ? v : now_mono()) - t->t_entry;
	} else {
		d = cpu_time(t, t->src == SRC_PROC_CLOCK) - t->t_entry;
	}
	count_call(t, d, sc.ret);
	return utrace_pass(action, UTRACE_RESUME);
}

static void c_release(void *data)
{
	struct cthr *t = data;

	if (t->schedfd >= 0)
		close(t->schedfd);
	if (t->proc && --t->proc->nthreads == 0)
		free(t->proc);
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

	if (host_detaching(&t->c->s.host, tid))
		return UTRACE_DETACH;
	if (t->tid == tid)
		return UTRACE_RESUME;
	t->tid = tid;
	if (t->schedfd >= 0)
		close(t->schedfd);
	t->schedfd = -1;	/* reopened for the new id when needed */
	return UTRACE_RESUME;
}

static const struct utrace_engine_ops counter_ops = {
	.report_syscall_entry = c_entry,
	.report_syscall_exit = c_exit,
	.report_exec = c_exec,
	.release = c_release,
};

/**
 * counter_new - a counter with these settings (copied; what they point to
 * must outlive the counter).  NULL when out of memory.
 */
struct counter *counter_new(const struct counter_settings *s)
{
	struct counter *c = calloc(1, sizeof(*c));

	if (c)
		c->s = *s;
	return c;
}

/* Free it once no engine of it is left (after utrace_tracer_free). */
void counter_free(struct counter *c)
{
	free(c);
}

/* The process of @tgid as this counter counts it, from its leader. */
static struct cproc *leader_proc(struct counter *c, struct utrace_tracer *tr,
				 pid_t tgid)
{
	struct utrace_engine *le;
	struct cproc *p = NULL;

	if (utrace_attach(tr, tgid, UTRACE_ATTACH_MATCH_OPS, &counter_ops,
			  NULL, &le) == 0) {
		struct cthr *lt = utrace_engine_data(le);

		/*
		 * Another counter's: the process clock is not used (this
		 * counter does not know how many threads it has).
		 */
		p = lt->c == c ? lt->proc : NULL;
		utrace_engine_put(le);
	}
	return p;
}

/**
 * counter_attach - count the syscalls of thread @tid of @tr
 * Returns 0 or -errno (utrace_attach's).
 */
int counter_attach(struct counter *c, struct utrace_tracer *tr, pid_t tid)
{
	struct utrace_engine *e;
	struct cthr *t = calloc(1, sizeof(*t));
	pid_t tgid;
	int err;

	if (!t)
		return -ENOMEM;
	t->c = c;
	t->tid = tid;
	t->nr = -1;
	t->schedfd = -1;
	err = utrace_attach(tr, tid, UTRACE_ATTACH_CREATE, &counter_ops, t,
			    &e);
	if (err) {
		free(t);
		return err;
	}
	tgid = utrace_engine_tgid(e);
	if (tgid != tid) {
		/* A thread: it shares its leader's process, when counted. */
		t->proc = leader_proc(c, tr, tgid);
	} else {
		t->proc = calloc(1, sizeof(*t->proc));
		if (t->proc)
			t->proc->tgid = tgid;
	}
	if (t->proc)
		t->proc->nthreads++;
	utrace_set_syscalls(e, c->s.nrs, c->s.nnrs);
	/* It only looks: its syscalls may come from records (records.c). */
	utrace_set_observer(e, true);
	err = utrace_set_events(e, UTRACE_EVENT_SYSCALL | UTRACE_EVENT(EXEC));
	utrace_engine_put(e);
	return err;
}

/* Microseconds per call, as strace truncates them. */
static unsigned long avg_us(const struct syscall_stats *stats, int nr)
{
	return (unsigned long)(stats[nr].time / stats[nr].calls * 1e6);
}

static int by(double x, double y)
{
	return x < y ? 1 : x > y ? -1 : 0;
}

static int cmp(const void *a, const void *b, void *arg)
{
	const struct counter *c = arg;
	const struct syscall_stats *stats = c->stats;
	int x = *(const int *)a, y = *(const int *)b, r = 0;

	switch (c->s.sort) {
	case COL_PERCENT:
	case COL_TOTAL:
		r = by(stats[x].time, stats[y].time);
		break;
	case COL_MIN:
		r = by(stats[x].min, stats[y].min);
		break;
	case COL_MAX:
		r = by(stats[x].max, stats[y].max);
		break;
	case COL_AVG:
		r = by(stats[x].time / stats[x].calls,
		       stats[y].time / stats[y].calls);
		break;
	case COL_CALLS:
		r = by((double)stats[x].calls, (double)stats[y].calls);
		break;
	case COL_ERRORS:
		r = by((double)stats[x].errors, (double)stats[y].errors);
		break;
	case COL_NAME:
		r = strcmp(sys_name(x) ? sys_name(x) : "",
			   sys_name(y) ? sys_name(y) : "");
		break;
	default:
		break;
	}
	return r ? r : x - y;
}

static int width(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int width(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	return n > 0 ? n : 0;
}

static const char *const heads[COL_MAX_] = {
	[COL_PERCENT] = "% time", [COL_TOTAL] = "seconds",
	[COL_MIN] = "shortest", [COL_MAX] = "longest",
	[COL_AVG] = "usecs/call", [COL_CALLS] = "calls",
	[COL_ERRORS] = "errors", [COL_NAME] = "syscall",
};

/* One cell; nr < 0: the total row. */
static void cell(FILE *f, const struct syscall_stats *stats, enum sum_col c,
		 int w, bool last, int nr,
		 double total, unsigned long calls, unsigned long errors,
		 double min, double max)
{
	switch (c) {
	case COL_PERCENT:
		fprintf(f, "%*.2f", w, nr < 0 ? 100.0 : stats[nr].time > 0 ?
			stats[nr].time * 100 / total : 0.0);
		break;
	case COL_TOTAL:
		fprintf(f, "%*.6f", w, nr < 0 ? total : stats[nr].time);
		break;
	case COL_MIN:
		fprintf(f, "%*.6f", w, nr < 0 ? min : stats[nr].min);
		break;
	case COL_MAX:
		fprintf(f, "%*.6f", w, nr < 0 ? max : stats[nr].max);
		break;
	case COL_AVG:
		fprintf(f, "%*lu", w, nr >= 0 ? avg_us(stats, nr) : calls ?
			(unsigned long)(total / calls * 1e6) : 0UL);
		break;
	case COL_CALLS:
		fprintf(f, "%*lu", w, nr < 0 ? calls : stats[nr].calls);
		break;
	case COL_ERRORS:
		fprintf(f, "%*.0lu", w, nr < 0 ? errors : stats[nr].errors);
		break;
	case COL_NAME: {
		const char *name = nr < 0 ? "total" : sys_name(nr);

		if (last)
			fputs(name ? name : "?", f);
		else
			fprintf(f, "%-*s", w, name ? name : "?");
		break;
	}
	default:
		break;
	}
}

static void rule(FILE *f, const enum sum_col *cols, const int *w)
{
	int i, j;

	for (i = 0; cols[i]; i++) {
		if (i)
			fputc(' ', f);
		for (j = 0; j < w[cols[i]]; j++)
			fputc('-', f);
	}
	fputc('\n', f);
}

/*
 * strace's table: the -U columns (default % time, seconds, usecs/call,
 * calls, errors, syscall), each as wide as its header or its widest
 * value, the syscall column at least 16 and left-aligned.
 */
void counter_report(const struct counter *c, FILE *f)
{
	static const enum sum_col deflt[] = {
		COL_PERCENT, COL_TOTAL, COL_AVG, COL_CALLS, COL_ERRORS,
		COL_NAME, COL_NONE,
	};
	const struct syscall_stats *stats = c->stats;
	const enum sum_col *cols = c->s.cols && c->s.cols[0] ? c->s.cols :
				   deflt;
	int order[NR_MAX], n = 0, i, w[COL_MAX_];
	unsigned long calls = 0, errors = 0, avg_max = 0;
	double total = 0, min = 0, min_max = 0, max = 0;
	size_t name_max = 0;

	for (i = 0; i < NR_MAX; i++) {
		const char *name = sys_name(i);

		if (!stats[i].calls)
			continue;
		order[n++] = i;
		calls += stats[i].calls;
		errors += stats[i].errors;
		total += stats[i].time;
		if (n == 1 || stats[i].min < min)
			min = stats[i].min;
		if (stats[i].min > min_max)
			min_max = stats[i].min;
		if (stats[i].max > max)
			max = stats[i].max;
		if (avg_us(stats, i) > avg_max)
			avg_max = avg_us(stats, i);
		if (name && strlen(name) > name_max)
			name_max = strlen(name);
	}
	if (c->s.sort != COL_NONE)
		qsort_r(order, (size_t)n, sizeof(order[0]), cmp,
			(void *)c);
	w[COL_PERCENT] = 6;
	w[COL_TOTAL] = width("%.6f", total);
	w[COL_MIN] = width("%ld.000000", (long)min_max);
	w[COL_MAX] = width("%ld.000000", (long)max);
	w[COL_AVG] = width("%lu", avg_max);
	w[COL_CALLS] = width("%lu", calls);
	w[COL_ERRORS] = width("%lu", errors);
	w[COL_NAME] = (int)name_max + 1;
	for (i = COL_PERCENT; i < COL_MAX_; i++) {
		static const int hist[COL_MAX_] = {
			[COL_TOTAL] = 11, [COL_AVG] = 11, [COL_CALLS] = 9,
			[COL_ERRORS] = 9, [COL_NAME] = 16,
		};
		int h = hist[i] ? hist[i] : (int)strlen(heads[i]);

		if (w[i] < h)
			w[i] = h;
	}
	for (i = 0; cols[i]; i++) {
		bool last = !cols[i + 1];

		if (i)
			fputc(' ', f);
		if (cols[i] == COL_NAME && last)
			fputs(heads[COL_NAME], f);
		else if (cols[i] == COL_NAME)
			fprintf(f, "%-*s", w[COL_NAME], heads[COL_NAME]);
		else
			fprintf(f, "%*s", w[cols[i]], heads[cols[i]]);
	}
	fputc('\n', f);
	rule(f, cols, w);
	for (int r = 0; r < n; r++) {
		for (i = 0; cols[i]; i++) {
			if (i)
				fputc(' ', f);
			cell(f, stats, cols[i], w[cols[i]], !cols[i + 1],
			     order[r], total, calls, errors, min, max);
		}
		fputc('\n', f);
	}
	rule(f, cols, w);
	for (i = 0; cols[i]; i++) {
		if (i)
			fputc(' ', f);
		cell(f, stats, cols[i], w[cols[i]], !cols[i + 1], -1, total,
		     calls, errors, min, max);
	}
	fputc('\n', f);
	fflush(f);
}

/*
 * -c/-C through a join (join.c): a thread counted from a queue's records.
 * Each entry and exit record is held while it is read, so the thread's
 * CPU time (/proc/TID/schedstat) read then is the one at that stop; with
 * -w, the records' times (when the serving tracer saw the stops).
 */
struct cthr *counter_thread_new(struct counter *c, pid_t tid)
{
	struct cthr *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->c = c;
	t->tid = tid;
	t->nr = -1;
	t->schedfd = -1;
	t->src = SRC_THREAD;
	return t;
}

void counter_thread_end(struct cthr *t)
{
	if (t)
		c_release(t);
}

static double record_time(struct cthr *t, const struct timespec *at)
{
	if (t->c->s.wall_clock && at)
		return (double)at->tv_sec + (double)at->tv_nsec / 1e9;
	return cpu_time(t, false);
}

/* The caller counts only the syscalls of the counter's set. */
void counter_entry(struct cthr *t, long nr, const struct timespec *at)
{
	if (nr < 0 || nr >= NR_MAX) {
		t->nr = -1;
		return;
	}
	t->nr = nr;
	t->t_entry = record_time(t, at);
}

void counter_exit(struct cthr *t, long ret, const struct timespec *at)
{
	if (t->nr < 0)
		return;
	count_call(t, record_time(t, at) - t->t_entry, ret);
}

void counter_exec(struct cthr *t, pid_t tid)
{
	if (t->tid == tid)
		return;
	t->tid = tid;
	if (t->schedfd >= 0)
		close(t->schedfd);
	t->schedfd = -1;
}
