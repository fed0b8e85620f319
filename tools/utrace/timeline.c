// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The timeline engine behind --timeline: Chrome trace-event JSON (the
 * format Perfetto and chrome://tracing open), one track per thread, each
 * syscall a complete ("X") slice, signals and exits as instant events.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"

struct tthr {
	pid_t tid;
	double t_entry;
	long nr;
};

static FILE *tl;
static bool first_event = true;
static double t0;

int timeline_init(const char *path)
{
	tl = fopen(path, "we");
	if (!tl) {
		fprintf(stderr, "utrace: can't fopen '%s': %s\n", path,
			strerror(errno));
		return -errno;
	}
	setvbuf(tl, NULL, _IOFBF, 1 << 16);
	t0 = now_mono();
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", tl);
	return 0;
}

void timeline_finish(void)
{
	if (!tl)
		return;
	fputs("\n]}\n", tl);
	fclose(tl);
	tl = NULL;
}

static void ev_start(void)
{
	if (!first_event)
		fputs(",\n", tl);
	first_event = false;
}

static double us(double t)
{
	return (t - t0) * 1e6;
}

static uint32_t keep(uint32_t action)
{
	return (action & ~UTRACE_RESUME_MASK) | UTRACE_RESUME;
}

static uint32_t t_entry(uint32_t action, struct utrace_engine *e)
{
	struct tthr *t = utrace_engine_data(e);
	struct utrace_syscall sc;

	if (action & UTRACE_SYSCALL_RESUMED)
		return keep(action);
	t->nr = utrace_syscall_get(e, &sc) < 0 ? -1 : sc.nr;
	if (t->nr >= 0 && hidden(t->tid, t->nr))
		t->nr = -1;
	t->t_entry = now_mono();
	return keep(action);
}

static uint32_t t_exit(uint32_t action, struct utrace_engine *e)
{
	struct tthr *t = utrace_engine_data(e);
	struct utrace_syscall sc;
	const char *name;
	double end = now_mono();

	if (t->nr < 0 || utrace_syscall_get(e, &sc) < 0)
		return keep(action);
	name = sys_name(t->nr);
	ev_start();
	fprintf(tl, "{\"name\":\"%s\",\"cat\":\"syscall\",\"ph\":\"X\","
		"\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%d,"
		"\"args\":{\"ret\":%ld", name ? name : "syscall",
		us(t->t_entry), us(end) - us(t->t_entry), tgid_of(t->tid),
		t->tid, sc.ret);
	if (sc.ret < 0 && sc.ret >= -4095 && strerrorname_np((int)-sc.ret))
		fprintf(tl, ",\"errno\":\"%s\"", strerrorname_np((int)-sc.ret));
	fputs("}}", tl);
	t->nr = -1;
	return keep(action);
}

static void instant(struct tthr *t, const char *name, const char *cat)
{
	ev_start();
	fprintf(tl, "{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"i\",\"s\":\"t\","
		"\"ts\":%.3f,\"pid\":%d,\"tid\":%d}", name, cat,
		us(now_mono()), tgid_of(t->tid), t->tid);
}

static uint32_t t_signal(uint32_t action, struct utrace_engine *e,
			 siginfo_t *info)
{
	enum utrace_signal_action sa = utrace_signal_action(action);

	if (sa != UTRACE_SIGNAL_REPORT && sa != UTRACE_SIGNAL_HANDLER && info)
		instant(utrace_engine_data(e), signame(info->si_signo),
			"signal");
	return keep(action);
}

static uint32_t t_death(struct utrace_engine *e, bool group_dead, int status)
{
	struct tthr *t = utrace_engine_data(e);
	char buf[64];

	if (t->nr >= 0) {
		const char *name = sys_name(t->nr);

		ev_start();
		fprintf(tl, "{\"name\":\"%s\",\"cat\":\"syscall\",\"ph\":\"X\","
			"\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%d}",
			name ? name : "syscall", us(t->t_entry),
			us(now_mono()) - us(t->t_entry), tgid_of(t->tid),
			t->tid);
		t->nr = -1;
	}
	if (WIFSIGNALED(status))
		snprintf(buf, sizeof(buf), "killed by %s",
			 signame(WTERMSIG(status)));
	else
		snprintf(buf, sizeof(buf), "exited with %d",
			 WEXITSTATUS(status));
	instant(t, buf, "exit");
	return UTRACE_RESUME;
}

/* A non-leader thread executed: it goes on in the leader's track. */
static uint32_t t_exec(uint32_t action, struct utrace_engine *e,
		       pid_t former)
{
	struct tthr *t = utrace_engine_data(e);

	t->tid = utrace_engine_tid(e);
	return exec_detaching(t->tid) ? UTRACE_DETACH : UTRACE_RESUME;
}

static const struct utrace_engine_ops timeline_ops = {
	.report_syscall_entry = t_entry,
	.report_syscall_exit = t_exit,
	.report_signal = t_signal,
	.report_exec = t_exec,
	.report_death = t_death,
	.release = free,
};

int timeline_attach(pid_t tid)
{
	struct utrace_engine *e;
	struct tthr *t = calloc(1, sizeof(*t));
	const long *nrs;
	size_t n;
	int err;

	if (!t)
		return -ENOMEM;
	t->tid = tid;
	t->nr = -1;
	err = utrace_attach(tracer, tid, UTRACE_ATTACH_CREATE, &timeline_ops,
			    t, &e);
	if (err) {
		free(t);
		return err;
	}
	ev_start();
	fprintf(tl, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,"
		"\"tid\":%d,\"args\":{\"name\":\"thread %d\"}}", tgid_of(tid),
		tid, tid);
	nrs = trace_nrs(&n);
	utrace_set_syscalls(e, nrs, n);
	err = utrace_set_events(e, UTRACE_EVENT_SYSCALL |
				UTRACE_EVENT_SIGNAL_ALL | UTRACE_EVENT(EXEC) |
				UTRACE_EVENT(DEATH));
	utrace_engine_put(e);
	return err;
}
