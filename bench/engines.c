// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engines - N counting engines per traced thread, on the public API only.
 *
 *	engines [-n N] [-E] [-e SET] [-F] [-v] [--] PROG [ARGS...]
 *
 *   -n N     attach N engines to every thread (default 1)
 *   -E       entry only: engines want SYSCALL_ENTRY, not SYSCALL_EXIT
 *   -e SET   comma-separated syscall names the engines want
 *            (utrace_set_syscalls); default: every syscall
 *   -F       spawn with UTRACE_SPAWN_NO_FILTER (no seccomp filter)
 *   -v       print the counts to stderr at the end
 *
 * Every engine counts the syscall stops it is told about (reading the
 * syscall number with utrace_syscall_get, as a real counter would) and
 * follows new threads and children in report_clone: the first engine to
 * hear of a child attaches all N to it.  Exits with PROG's exit status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <seccomp.h>
#include <utrace.h>

static struct utrace_tracer *tracer;
static int nengines = 1;
static unsigned long events;
static long *set;
static size_t nset;
static pid_t leader;
static int exit_status;

/* One counter per engine slot (engine i of every thread shares slot i). */
struct counter {
	unsigned long entries, exits, by_nr[512];
};
static struct counter *counters;

static uint32_t on_entry(uint32_t action, struct utrace_engine *e)
{
	struct counter *c = utrace_engine_data(e);
	struct utrace_syscall sc;

	c->entries++;
	if (utrace_syscall_get(e, &sc) == 0 && sc.nr >= 0 && sc.nr < 512)
		c->by_nr[sc.nr]++;
	return UTRACE_RESUME;
}

static uint32_t on_exit_(uint32_t action, struct utrace_engine *e)
{
	struct counter *c = utrace_engine_data(e);
	struct utrace_syscall sc;

	if (utrace_syscall_get(e, &sc) == 0)
		c->exits++;
	return UTRACE_RESUME;
}

static uint32_t on_death(struct utrace_engine *e, bool group_dead, int status)
{
	if (utrace_engine_tid(e) == leader &&
	    utrace_engine_data(e) == &counters[0])
		exit_status = status;
	return UTRACE_RESUME;
}

static uint32_t on_clone(uint32_t action, struct utrace_engine *e,
			 unsigned long flags, pid_t child);

static const struct utrace_engine_ops ops = {
	.report_syscall_entry = on_entry,
	.report_syscall_exit = on_exit_,
	.report_clone = on_clone,
	.report_death = on_death,
};

static int attach_all(pid_t tid)
{
	for (int i = 0; i < nengines; i++) {
		struct utrace_engine *e;
		int err = utrace_attach(tracer, tid, UTRACE_ATTACH_CREATE,
					&ops, &counters[i], &e);

		if (err)
			return err;
		if (set)
			err = utrace_set_syscalls(e, set, nset);
		if (!err)
			err = utrace_set_events(e, events);
		utrace_engine_put(e);
		if (err)
			return err;
	}
	return 0;
}

static uint32_t on_clone(uint32_t action, struct utrace_engine *e,
			 unsigned long flags, pid_t child)
{
	struct utrace_engine *c;

	/* The first engine to hear of the child attaches all of them. */
	if (utrace_attach(tracer, child, 0, NULL, NULL, &c) == 0)
		utrace_engine_put(c);
	else
		attach_all(child);
	return UTRACE_RESUME;
}

static int parse_set(char *arg)
{
	for (char *s = strtok(arg, ","); s; s = strtok(NULL, ",")) {
		int nr = seccomp_syscall_resolve_name(s);

		if (nr < 0) {
			fprintf(stderr, "engines: unknown syscall %s\n", s);
			return -1;
		}
		set = realloc(set, (nset + 1) * sizeof(*set));
		if (!set)
			return -1;
		set[nset++] = nr;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct utrace_spawn_opts opts = { .size = sizeof(opts) };
	bool entry_only = false, verbose = false;
	int c, err;

	opts.flags = UTRACE_SPAWN_KILL_ON_EXIT;
	while ((c = getopt(argc, argv, "+n:Ee:Fv")) != -1) {
		switch (c) {
		case 'n':
			nengines = atoi(optarg);
			break;
		case 'E':
			entry_only = true;
			break;
		case 'e':
			if (parse_set(optarg))
				return 2;
			break;
		case 'F':
			opts.flags |= UTRACE_SPAWN_NO_FILTER;
			break;
		case 'v':
			verbose = true;
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc || nengines < 1)
		goto usage;
	counters = calloc((size_t)nengines, sizeof(*counters));
	if (!counters)
		return 1;
	events = UTRACE_EVENT(SYSCALL_ENTRY) | UTRACE_EVENT(CLONE) |
		 UTRACE_EVENT(DEATH);
	if (!entry_only)
		events |= UTRACE_EVENT(SYSCALL_EXIT);

	err = utrace_tracer_new(&tracer);
	if (!err)
		err = utrace_spawn(tracer, argv + optind, &opts, &leader);
	if (!err)
		err = attach_all(leader);
	if (err) {
		fprintf(stderr, "engines: %s: %s\n", argv[optind],
			strerror(-err));
		return 1;
	}
	err = utrace_run(tracer);
	utrace_tracer_free(tracer);
	if (verbose)
		for (int i = 0; i < nengines; i++)
			fprintf(stderr, "engine %d: %lu entries, %lu exits\n",
				i, counters[i].entries, counters[i].exits);
	if (WIFEXITED(exit_status))
		return WEXITSTATUS(exit_status);
	return 128 + WTERMSIG(exit_status);
usage:
	fprintf(stderr,
		"usage: engines [-n N] [-E] [-e SET] [-F] [-v] [--] PROG [ARGS...]\n");
	return 2;
}
