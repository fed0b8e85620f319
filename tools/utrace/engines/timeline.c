// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The timeline engine behind --timeline: Chrome trace-event JSON (the
 * format Perfetto and chrome://tracing open), one track per thread, each
 * syscall a complete ("X") slice, signals and exits as instant events.
 * A timeline is an object (timeline_new) writing to its own stream.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"

struct timeline {
	struct timeline_settings s;
	FILE *out;
	bool first_event;
	double t0;
};

struct tthr {
	struct timeline *tl;
	pid_t tid;
	double t_entry;
	long nr;
	bool sig_held;		/* a signal held before us: shown when back */
};

/**
 * timeline_new - a timeline written to @s->out (its start now; the object
 * owns the stream).  NULL when out of memory.
 */
struct timeline *timeline_new(const struct timeline_settings *s)
{
	struct timeline *tl = calloc(1, sizeof(*tl));

	if (!tl)
		return NULL;
	tl->s = *s;
	tl->out = s->out;
	tl->first_event = true;
	tl->t0 = now_mono();
	setvbuf(tl->out, NULL, _IOFBF, 1 << 16);
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", tl->out);
	return tl;
}

/* The end of the JSON, the stream closed; once no engine of it is left. */
void timeline_free(struct timeline *tl)
{
	if (!tl)
		return;
	fputs("\n]}\n", tl->out);
	fclose(tl->out);
	free(tl);
}

static void ev_start(struct timeline *tl)
{
	if (!tl->first_event)
		fputs(",\n", tl->out);
	tl->first_event = false;
}

static double us(const struct timeline *tl, double t)
{
	return (t - tl->t0) * 1e6;
}

/*
 * When the syscall reported to e entered (or, exiting, left) the kernel
 * (utrace_syscall_time(3)): the thread's own time stamp for a record,
 * the stop's otherwise; now when it is not known.
 */
static double ev_time(struct utrace_engine *e, bool exiting)
{
	struct timespec en, ex, *ts = exiting ? &ex : &en;

	if (utrace_syscall_time(e, CLOCK_MONOTONIC, &en, &ex) < 0 ||
	    (!ts->tv_sec && !ts->tv_nsec))
		return now_mono();
	return (double)ts->tv_sec + (double)ts->tv_nsec / 1e9;
}

static uint32_t t_entry(uint32_t action, struct utrace_engine *e)
{
	struct tthr *t = utrace_engine_data(e);
	struct utrace_syscall sc;

	if (action & UTRACE_SYSCALL_RESUMED)
		return utrace_pass(action, UTRACE_RESUME);
	t->nr = utrace_syscall_get(e, &sc) < 0 ? -1 : sc.nr;
	if (t->nr >= 0 && host_hidden(&t->tl->s.host, t->tid, t->nr))
		t->nr = -1;
	t->t_entry = ev_time(e, false);
	return utrace_pass(action, UTRACE_RESUME);
}

static uint32_t t_exit(uint32_t action, struct utrace_engine *e)
{
	struct tthr *t = utrace_engine_data(e);
	struct timeline *tl = t->tl;
	struct utrace_syscall sc;
	const char *name;
	double end = ev_time(e, true);

	if (t->nr < 0 || utrace_syscall_get(e, &sc) < 0)
		return utrace_pass(action, UTRACE_RESUME);
	name = sys_name(t->nr);
	ev_start(tl);
	fprintf(tl->out, "{\"name\":\"%s\",\"cat\":\"syscall\",\"ph\":\"X\","
		"\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%d,"
		"\"args\":{\"ret\":%ld", name ? name : "syscall",
		us(tl, t->t_entry), us(tl, end) - us(tl, t->t_entry),
		utrace_engine_tgid(e), t->tid, sc.ret);
	if (sc.ret < 0 && sc.ret >= -4095 && strerrorname_np((int)-sc.ret))
		fprintf(tl->out, ",\"errno\":\"%s\"",
			strerrorname_np((int)-sc.ret));
	fputs("}}", tl->out);
	t->nr = -1;
	return utrace_pass(action, UTRACE_RESUME);
}

static void instant(struct utrace_engine *e, const char *name,
		    const char *cat)
{
	struct tthr *t = utrace_engine_data(e);
	struct timeline *tl = t->tl;

	ev_start(tl);
	fprintf(tl->out, "{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"i\",\"s\":\"t\","
		"\"ts\":%.3f,\"pid\":%d,\"tid\":%d}", name, cat,
		us(tl, now_mono()), utrace_engine_tgid(e), t->tid);
}

static uint32_t t_signal(uint32_t action, struct utrace_engine *e,
			 siginfo_t *info)
{
	struct tthr *t = utrace_engine_data(e);

	if (signal_arrives(action, info, &t->sig_held))
		instant(e, signame(info->si_signo), "signal");
	return utrace_pass(action, UTRACE_RESUME);
}

static uint32_t t_death(struct utrace_engine *e, bool group_dead, int status)
{
	struct tthr *t = utrace_engine_data(e);
	struct timeline *tl = t->tl;
	char buf[64];

	if (t->nr >= 0) {
		const char *name = sys_name(t->nr);

		ev_start(tl);
		fprintf(tl->out, "{\"name\":\"%s\",\"cat\":\"syscall\",\"ph\":\"X\","
			"\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%d}",
			name ? name : "syscall", us(tl, t->t_entry),
			us(tl, now_mono()) - us(tl, t->t_entry),
			utrace_engine_tgid(e), t->tid);
		t->nr = -1;
	}
	if (WIFSIGNALED(status))
		snprintf(buf, sizeof(buf), "killed by %s",
			 signame(WTERMSIG(status)));
	else
		snprintf(buf, sizeof(buf), "exited with %d",
			 WEXITSTATUS(status));
	instant(e, buf, "exit");
	return UTRACE_RESUME;
}

/* A non-leader thread executed: it goes on in the leader's track. */
static uint32_t t_exec(uint32_t action, struct utrace_engine *e,
		       pid_t former)
{
	struct tthr *t = utrace_engine_data(e);

	t->tid = utrace_engine_tid(e);
	return host_detaching(&t->tl->s.host, t->tid) ? UTRACE_DETACH :
							  UTRACE_RESUME;
}

static const struct utrace_engine_ops timeline_ops = {
	.report_syscall_entry = t_entry,
	.report_syscall_exit = t_exit,
	.report_signal = t_signal,
	.report_exec = t_exec,
	.report_death = t_death,
	.release = free,
};

/**
 * timeline_attach - put thread @tid of @tr on the timeline
 * Returns 0 or -errno (utrace_attach's).
 */
int timeline_attach(struct timeline *tl, struct utrace_tracer *tr, pid_t tid)
{
	struct utrace_engine *e;
	struct tthr *t = calloc(1, sizeof(*t));
	int err;

	if (!t)
		return -ENOMEM;
	t->tl = tl;
	t->tid = tid;
	t->nr = -1;
	err = utrace_attach(tr, tid, UTRACE_ATTACH_CREATE, &timeline_ops, t,
			    &e);
	if (err) {
		free(t);
		return err;
	}
	ev_start(tl);
	fprintf(tl->out, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,"
		"\"tid\":%d,\"args\":{\"name\":\"thread %d\"}}",
		utrace_engine_tgid(e), tid, tid);
	utrace_set_syscalls(e, tl->s.nrs, tl->s.nnrs);
	/* It only looks: its syscalls may come from records (records.c). */
	utrace_set_observer(e, true);
	err = utrace_set_events(e, UTRACE_EVENT_SYSCALL |
				UTRACE_EVENT_SIGNAL_ALL | UTRACE_EVENT(EXEC) |
				UTRACE_EVENT(DEATH));
	utrace_engine_put(e);
	return err;
}
