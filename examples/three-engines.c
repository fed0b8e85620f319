// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Three independent engines on one traced program, at once:
 *   counter  - counts syscalls by number (SYSCALL_ENTRY);
 *   printer  - prints execve and openat calls with their results;
 *   holder   - holds the thread at exit for a moment, then releases it.
 * Each follows new threads and children through report_clone.
 *
 *	three-engines ls -l /
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <seccomp.h>
#include <utrace.h>

static struct utrace_tracer *tracer;

static const char *sysname(long nr)
{
	char *n = seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, (int)nr);
	static char buf[64];

	snprintf(buf, sizeof(buf), "%s", n ? n : "?");
	free(n);
	return buf;
}

/* -- counter -------------------------------------------------------------- */

static unsigned long counts[1024], total;

static uint32_t count_entry(uint32_t action, struct utrace_engine *e)
{
	struct utrace_syscall sc;

	/* A repeat of this entry's pass (another engine held it): counted. */
	if (action & UTRACE_SYSCALL_RESUMED)
		return utrace_pass(action, UTRACE_RESUME);
	if (utrace_syscall_get(e, &sc) == 0 && sc.nr >= 0 && sc.nr < 1024)
		counts[sc.nr]++;
	total++;
	/* Only looking: hand on another engine's abort (utrace_pass(3)). */
	return utrace_pass(action, UTRACE_RESUME);
}

static uint32_t follow_clone(uint32_t action, struct utrace_engine *e,
			     unsigned long flags, pid_t child);

static const struct utrace_engine_ops counter_ops = {
	.report_syscall_entry = count_entry,
	.report_clone = follow_clone,
};
static const unsigned long counter_events =
	UTRACE_EVENT(SYSCALL_ENTRY) | UTRACE_EVENT(CLONE);

/* -- printer -------------------------------------------------------------- */

static char pending[256][512];	/* per-thread text of the call in flight */

static uint32_t print_entry(uint32_t action, struct utrace_engine *e)
{
	struct utrace_syscall sc;
	char path[256] = "";
	char *buf = pending[utrace_engine_tid(e) % 256];

	if ((action & UTRACE_SYSCALL_RESUMED) || utrace_syscall_get(e, &sc))
		return utrace_pass(action, UTRACE_RESUME);
	if (sc.nr == SYS_execve)
		utrace_mem_read_string(e, sc.args[0], path, sizeof(path));
	else
		utrace_mem_read_string(e, sc.args[1], path, sizeof(path));
	snprintf(buf, 512, "[printer] %d %s(\"%s\")", utrace_engine_tid(e),
		 sysname(sc.nr), path);
	return utrace_pass(action, UTRACE_RESUME);
}

static uint32_t print_exit(uint32_t action, struct utrace_engine *e)
{
	struct utrace_syscall sc;
	char *buf = pending[utrace_engine_tid(e) % 256];

	if (utrace_syscall_get(e, &sc) || !buf[0])
		return UTRACE_RESUME;
	if (sc.ret < 0 && sc.ret > -4096)
		fprintf(stderr, "%s = -1 %s\n", buf, strerror((int)-sc.ret));
	else
		fprintf(stderr, "%s = %ld\n", buf, sc.ret);
	buf[0] = 0;
	return UTRACE_RESUME;
}

static uint32_t print_exec(uint32_t action, struct utrace_engine *e,
			   pid_t former)
{
	char *buf = pending[utrace_engine_tid(e) % 256];

	if (buf[0])
		fprintf(stderr, "%s = 0\n", buf);
	buf[0] = 0;
	return UTRACE_RESUME;
}

static const struct utrace_engine_ops printer_ops = {
	.report_syscall_entry = print_entry,
	.report_syscall_exit = print_exit,
	.report_exec = print_exec,
	.report_clone = follow_clone,
};
static const unsigned long printer_events =
	UTRACE_EVENT_SYSCALL | UTRACE_EVENT(EXEC) | UTRACE_EVENT(CLONE);
static const long printer_set[] = { SYS_execve, SYS_openat };

/* -- holder --------------------------------------------------------------- */

/*
 * Callbacks never block: the engine returns UTRACE_STOP and another thread
 * of ours releases the thread later with utrace_control (callable from any
 * thread).
 */
static void *release_later(void *arg)
{
	struct utrace_engine *e = arg;
	pid_t tid = utrace_engine_tid(e);

	usleep(100 * 1000);
	fprintf(stderr, "[holder] %d released: %s\n", tid,
		strerror(-utrace_control(e, UTRACE_RESUME)));
	utrace_engine_put(e);
	return NULL;
}

static uint32_t hold_exit(uint32_t action, struct utrace_engine *e, int status)
{
	pthread_t th;

	utrace_engine_get(e);
	if (pthread_create(&th, NULL, release_later, e)) {
		utrace_engine_put(e);
		return UTRACE_RESUME;
	}
	pthread_detach(th);
	fprintf(stderr, "[holder] %d exiting with status %d: held 100 ms\n",
		utrace_engine_tid(e), status);
	return UTRACE_STOP;
}

static const struct utrace_engine_ops holder_ops = {
	.report_exit = hold_exit,
	.report_clone = follow_clone,
};
static const unsigned long holder_events =
	UTRACE_EVENT(EXIT) | UTRACE_EVENT(CLONE);

/* -- wiring ----------------------------------------------------------------- */

static int attach_all(pid_t tid)
{
	struct {
		const struct utrace_engine_ops *ops;
		unsigned long events;
	} engines[] = {
		{ &counter_ops, counter_events },
		{ &printer_ops, printer_events },
		{ &holder_ops, holder_events },
	};

	for (size_t i = 0; i < 3; i++) {
		struct utrace_engine *e;
		int err = utrace_attach(tracer, tid, UTRACE_ATTACH_CREATE,
					engines[i].ops, NULL, &e);

		if (err)
			return err;
		if (engines[i].ops == &printer_ops)
			utrace_set_syscalls(e, printer_set, 2);
		utrace_set_events(e, engines[i].events);
		utrace_engine_put(e);
	}
	return 0;
}

static uint32_t follow_clone(uint32_t action, struct utrace_engine *e,
			     unsigned long flags, pid_t child)
{
	struct utrace_engine *c;

	/* The first engine to hear of the child attaches all three. */
	if (utrace_attach(tracer, child, 0, NULL, NULL, &c) == 0)
		utrace_engine_put(c);
	else
		attach_all(child);
	return UTRACE_RESUME;
}

static int cmp(const void *a, const void *b)
{
	long x = (long)counts[*(const int *)a], y = (long)counts[*(const int *)b];

	return x < y ? 1 : x > y ? -1 : *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv)
{
	struct utrace_spawn_opts opts = { .size = sizeof(opts) };
	int order[1024], err;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: %s program [args...]\n", argv[0]);
		return 2;
	}
	err = utrace_tracer_new(&tracer);
	if (!err)
		err = utrace_spawn(tracer, argv + 1, &opts, &pid);
	if (!err)
		err = attach_all(pid);
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[1], strerror(-err));
		return 1;
	}
	err = utrace_run(tracer);
	utrace_tracer_free(tracer);

	for (int i = 0; i < 1024; i++)
		order[i] = i;
	qsort(order, 1024, sizeof(int), cmp);
	fprintf(stderr, "[counter] %lu syscalls; most frequent:\n", total);
	for (int i = 0; i < 8 && counts[order[i]]; i++)
		fprintf(stderr, "[counter]   %6lu %s\n", counts[order[i]],
			sysname(order[i]));
	return 0;
}
