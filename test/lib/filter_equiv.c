// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Filtering loses nothing: the same engines on the same real programs see
 * the same syscalls and results with the seccomp filter as without it
 * (UTRACE_SPAWN_NO_FILTER), across fork, exec and threads; and an engine
 * that widens its set on a filtered thread still misses nothing.
 */
#include "harness.h"
#include <fcntl.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <utrace.h>

#define MAXNR 512

struct tally {
	struct utrace_tracer *t;
	long entries[MAXNR], exits[MAXNR];
	long long retsum[MAXNR];
	int filtered;		/* some stopped thread had Seccomp: 2 */
	int threads;
};

static const struct utrace_engine_ops ops;

static int seccomp_mode(pid_t tid)
{
	char path[64], line[256];
	int v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Seccomp: %d", &v) == 1)
			break;
	fclose(f);
	return v;
}

static uint32_t on_entry(uint32_t action, struct utrace_engine *e)
{
	struct tally *y = utrace_engine_data(e);
	struct utrace_syscall sc;

	CHECK_EQ(utrace_syscall_get(e, &sc), 0);
	if (sc.nr >= 0 && sc.nr < MAXNR)
		y->entries[sc.nr]++;
	if (seccomp_mode(utrace_engine_tid(e)) == 2)
		y->filtered = 1;
	return UTRACE_RESUME;
}

static uint32_t on_exit_(uint32_t action, struct utrace_engine *e)
{
	struct tally *y = utrace_engine_data(e);
	struct utrace_syscall sc;

	CHECK_EQ(utrace_syscall_get(e, &sc), 0);
	if (sc.nr >= 0 && sc.nr < MAXNR) {
		y->exits[sc.nr]++;
		y->retsum[sc.nr] += sc.ret < 0 ? sc.ret : 1;
	}
	return UTRACE_RESUME;
}

static const long set[] = { SYS_openat, SYS_close, SYS_execve, SYS_wait4,
			    SYS_write, SYS_getppid };

static void attach(struct tally *y, pid_t tid)
{
	struct utrace_engine *e;

	CHECK_EQ(utrace_attach(y->t, tid, UTRACE_ATTACH_CREATE, &ops, y, &e),
		 0);
	CHECK_EQ(utrace_set_syscalls(e, set, sizeof(set) / sizeof(set[0])), 0);
	CHECK_EQ(utrace_set_events(e, UTRACE_EVENT_SYSCALL |
				   UTRACE_EVENT(CLONE)), 0);
	utrace_engine_put(e);
	y->threads++;
}

static uint32_t on_clone(uint32_t action, struct utrace_engine *e,
			 unsigned long flags, pid_t child)
{
	attach(utrace_engine_data(e), child);
	return UTRACE_RESUME;
}

static const struct utrace_engine_ops ops = {
	.report_syscall_entry = on_entry,
	.report_syscall_exit = on_exit_,
	.report_clone = on_clone,
};

static void run(struct tally *y, char **argv, unsigned flags)
{
	struct utrace_spawn_opts o = { .size = sizeof(o), .flags = flags };
	pid_t pid;
	int devnull = open("/dev/null", O_WRONLY), saved = dup(1);

	memset(y, 0, sizeof(*y));
	CHECK_EQ(utrace_tracer_new(&y->t), 0);
	dup2(devnull, 1);
	CHECK_EQ(utrace_spawn(y->t, argv, &o, &pid), 0);
	dup2(saved, 1);
	close(devnull);
	close(saved);
	attach(y, pid);
	CHECK_EQ(utrace_run(y->t), 0);
	utrace_tracer_free(y->t);
}

static void compare(char **argv)
{
	static struct tally full, filt;

	run(&full, argv, UTRACE_SPAWN_NO_FILTER);
	run(&filt, argv, 0);
	CHECK_EQ(full.filtered, 0);
	CHECK_EQ(filt.filtered, 1);
	CHECK_EQ(full.threads, filt.threads);
	for (int nr = 0; nr < MAXNR; nr++) {
		bool in = false;

		for (size_t i = 0; i < sizeof(set) / sizeof(set[0]); i++)
			in |= set[i] == nr;
		if (!in) {
			CHECK_EQ(full.entries[nr] + filt.entries[nr], 0);
			continue;
		}
		if (full.entries[nr] != filt.entries[nr] ||
		    full.exits[nr] != filt.exits[nr] ||
		    full.retsum[nr] != filt.retsum[nr])
			fprintf(stderr, "# nr %d: entries %ld/%ld exits %ld/%ld\n",
				nr, full.entries[nr], filt.entries[nr],
				full.exits[nr], filt.exits[nr]);
		CHECK_EQ(full.entries[nr], filt.entries[nr]);
		CHECK_EQ(full.exits[nr], filt.exits[nr]);
		CHECK_EQ(full.retsum[nr], filt.retsum[nr]);
	}
}

TEST_T(filtered_equals_full_on_a_pipeline, 20)
{
	char *argv[] = { "sh", "-c", "ls -la / | cat; cat /etc/passwd", NULL };

	compare(argv);
}

TEST_T(filtered_equals_full_with_threads, 20)
{
	char *argv[] = { (char *)test_prog("threads"), "20", NULL };

	compare(argv);
}

int main(void)
{
	return test_main();
}
