/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers for the signal, job-control and stepping tests, on top of tlib.h:
 * a recording engine that also has report_signal and report_jctl (the
 * siginfo of each signal report is kept beside the log), a passive default
 * that keeps the signal disposition, tracee spawning with a pipe on
 * standard input too, and line reading that keeps the tracer dispatching.
 */
#ifndef UTRACE_TEST_SIGTLIB_H
#define UTRACE_TEST_SIGTLIB_H

#include "tlib.h"

/* siginfo of the K_SIGNAL records, by log index (first S_SIMAX records). */
#define S_SIMAX 16384
static siginfo_t s_si[S_SIMAX];
/* The live siginfo during a report_signal hook (hooks may rewrite it). */
static siginfo_t *s_info;

/*
 * Like t_report(), but a passive engine also keeps the signal action (and
 * HOLD) it was given in a signal pass.  The other callbacks are tlib.h's.
 */
static uint32_t s_report(struct utrace_engine *e, int kind, uint32_t action,
			 unsigned long arg, unsigned long arg2)
{
	struct teng *te = utrace_engine_data(e);
	int idx = tlog_n;
	struct tev *ev = tlog_add(te, kind);
	uint32_t dflt = UTRACE_RESUME;

	ev->tid = utrace_engine_tid(e);
	ev->action = action;
	ev->arg = arg;
	ev->arg2 = arg2;
	if (kind == K_SYSENTRY || kind == K_SYSEXIT ||
	    (kind == K_QUIESCE && (arg & UTRACE_EVENT_SYSCALL))) {
		struct utrace_syscall sc;

		ev->nr = utrace_syscall_get(e, &sc) == 0 ? sc.nr : -1000;
	}
	if (kind == K_SYSENTRY)
		dflt |= utrace_syscall_action(action);
	if (kind == K_SIGNAL) {
		dflt |= action & (UTRACE_SIGNAL_MASK | UTRACE_SIGNAL_HOLD);
		if (idx < S_SIMAX && s_info)
			s_si[idx] = *s_info;
	}
	/* A signal pass with QUIESCE but no report_signal: keep it too. */
	if (kind == K_QUIESCE)
		dflt |= action & (UTRACE_SIGNAL_MASK | UTRACE_SIGNAL_HOLD);
	__atomic_add_fetch(&te->n[kind], 1, __ATOMIC_SEQ_CST);
	ev->ret = te->hook ? te->hook(te, ev, dflt) : dflt;
	return ev->ret;
}

static uint32_t s_quiesce(uint32_t action, struct utrace_engine *e,
			  unsigned long event)
{
	return s_report(e, K_QUIESCE, action, event, 0);
}

static uint32_t s_signal(uint32_t action, struct utrace_engine *e,
			 siginfo_t *info)
{
	uint32_t r;

	s_info = info;
	r = s_report(e, K_SIGNAL, action, info ? (unsigned)info->si_signo : 0,
		     info ? (unsigned)info->si_code : 0);
	s_info = NULL;
	return r;
}

static uint32_t s_jctl(uint32_t action, struct utrace_engine *e, int type,
		       int notify)
{
	return s_report(e, K_JCTL, action, (unsigned)type, (unsigned)notify);
}

/* Every callback, report_signal and report_jctl included. */
static const struct utrace_engine_ops s_ops __attribute__((unused)) = {
	.report_quiesce = s_quiesce,
	.report_signal = s_signal,
	.report_clone = t_clone,
	.report_jctl = s_jctl,
	.report_exec = t_exec,
	.report_syscall_entry = t_sysentry,
	.report_syscall_exit = t_sysexit,
	.report_exit = t_exit,
	.report_death = t_death,
	.report_reap = t_reap,
	.release = t_release,
};

/* The same without report_signal: signal passes go to report_quiesce. */
static const struct utrace_engine_ops s_ops_nosig __attribute__((unused)) = {
	.report_quiesce = s_quiesce,
	.report_clone = t_clone,
	.report_jctl = s_jctl,
	.report_exec = t_exec,
	.report_syscall_entry = t_sysentry,
	.report_syscall_exit = t_sysexit,
	.report_exit = t_exit,
	.report_death = t_death,
	.report_reap = t_reap,
	.release = t_release,
};

static inline struct teng *s_attach_ops(struct utrace_tracer *t, pid_t tid,
					const struct utrace_engine_ops *ops,
					unsigned long events, thook_t hook)
{
	struct teng *te = teng_new(hook);

	CHECK_EQ(utrace_attach(t, tid, UTRACE_ATTACH_CREATE, ops, te, &te->e),
		 0);
	CHECK(te->e != NULL);
	te->tid = tid;
	te->events = events;
	if (events)
		CHECK_EQ(utrace_set_events(te->e, events), 0);
	return te;
}

/* Attach a recording engine with report_signal and report_jctl. */
static inline struct teng *s_attach(struct utrace_tracer *t, pid_t tid,
				    unsigned long events, thook_t hook)
{
	return s_attach_ops(t, tid, &s_ops, events, hook);
}

/*
 * A holder: while te->user[7] is set it votes UTRACE_STOP in every
 * callback (a callback returning anything else would release its sticky
 * STOP, as in the kernel), passing the event-specific bits along.
 */
static __attribute__((unused)) uint32_t s_hook_holder(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (te->user[7] && ev->kind != K_DEATH && ev->kind != K_REAP)
		return UTRACE_STOP | (dflt & ~UTRACE_RESUME_MASK);
	return dflt;
}

/* Number of K_SIGNAL records of engine eng (-1: any) for signal sig. */
static inline int slog_count_sig(int eng, int sig)
{
	int n = 0;

	for (int i = 0; i < tlog_n; i++)
		if ((eng < 0 || tlog[i].eng == eng) && tlog[i].kind == K_SIGNAL &&
		    (int)tlog[i].arg == sig &&
		    utrace_signal_action(tlog[i].action) != UTRACE_SIGNAL_REPORT &&
		    utrace_signal_action(tlog[i].action) != UTRACE_SIGNAL_HANDLER)
			n++;
	return n;
}

/* Index of the first K_SIGNAL record of eng for sig at or after from. */
static inline int slog_find_sig(int from, int eng, int sig)
{
	for (int i = from; i < tlog_n; i++)
		if ((eng < 0 || tlog[i].eng == eng) && tlog[i].kind == K_SIGNAL &&
		    (int)tlog[i].arg == sig &&
		    utrace_signal_action(tlog[i].action) != UTRACE_SIGNAL_REPORT &&
		    utrace_signal_action(tlog[i].action) != UTRACE_SIGNAL_HANDLER)
			return i;
	return -1;
}

/* Index of the first K_SIGNAL record of eng with signal action sa. */
static inline int slog_find_sa(int from, int eng, uint32_t sa)
{
	for (int i = from; i < tlog_n; i++)
		if ((eng < 0 || tlog[i].eng == eng) && tlog[i].kind == K_SIGNAL &&
		    utrace_signal_action(tlog[i].action) == sa)
			return i;
	return -1;
}

/*
 * Spawn a test program with pipes on standard input (*in: write end) and
 * standard output (*out: read end); either may be NULL (/dev/null).
 */
static inline pid_t s_spawn_io(struct utrace_tracer *t, int *in, int *out,
			       const char *prog, ...)
{
	char *argv[T_MAXARGS + 2];
	int n = 0, p[2] = { -1, -1 }, saved;
	const char *a;
	pid_t pid = -1;
	va_list ap;

	argv[n++] = (char *)test_prog(prog);
	va_start(ap, prog);
	while ((a = va_arg(ap, const char *)) && n <= T_MAXARGS)
		argv[n++] = (char *)a;
	va_end(ap);
	argv[n] = NULL;
	if (in) {
		CHECK(pipe2(p, O_CLOEXEC) == 0);
	} else {
		p[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		CHECK(p[0] >= 0);
	}
	saved = fcntl(0, F_DUPFD_CLOEXEC, 10);
	CHECK(saved >= 0);
	CHECK(dup2(p[0], 0) == 0);
	CHECK_EQ(t_spawn_opts(t, out, NULL, &pid, argv), 0);
	CHECK(dup2(saved, 0) == 0);
	close(saved);
	close(p[0]);
	if (in)
		*in = p[1];
	CHECK(pid > 0);
	return pid;
}

/*
 * Fork and exec a test program ourselves, untraced (stdout to a pipe when
 * out is given, stdin from a pipe when in is given).
 */
static inline pid_t s_fork_prog(int *in, int *out, const char *prog, ...)
{
	char *argv[T_MAXARGS + 2];
	int n = 0, po[2] = { -1, -1 }, pi[2] = { -1, -1 };
	const char *a;
	pid_t pid;
	va_list ap;

	argv[n++] = (char *)test_prog(prog);
	va_start(ap, prog);
	while ((a = va_arg(ap, const char *)) && n <= T_MAXARGS)
		argv[n++] = (char *)a;
	va_end(ap);
	argv[n] = NULL;
	if (out)
		CHECK(pipe2(po, O_CLOEXEC) == 0);
	if (in)
		CHECK(pipe2(pi, O_CLOEXEC) == 0);
	fflush(NULL);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		if (out)
			dup2(po[1], 1);
		if (in)
			dup2(pi[0], 0);
		execv(argv[0], argv);
		_exit(126);
	}
	if (out) {
		close(po[1]);
		*out = po[0];
	}
	if (in) {
		close(pi[0]);
		*in = pi[1];
	}
	return pid;
}

/*
 * Read one line from fd into buf (without the newline), dispatching t (when
 * not NULL) while waiting; false on end of file or after ms milliseconds
 * (made longer by TEST_TIMEOUT_SCALE, as DISPATCH_UNTIL's).  Reads one
 * byte at a time so nothing past the line is consumed.
 *
 * The dispatch waits for the tracees' stops (up to 10 ms) and the output
 * is then looked at without waiting: a tracee that stops at each of its
 * system calls on its way to the line (a program starting, with syscall
 * events on) is let go at once at each stop, not after a 10 ms poll of
 * an output that is not coming yet.  On a loaded machine such a start
 * took most of a 3 s deadline that way.
 */
static inline bool s_readline(struct utrace_tracer *t, int fd, char *buf,
			      size_t size, int ms)
{
	long dl = t_now_ms() + ms * (long)test_timeout_scale();
	size_t n = 0;

	while (t_now_ms() < dl) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		int r;

		if (t)
			CHECK(utrace_dispatch(t, 10) >= 0);
		r = poll(&pfd, 1, t ? 0 : 50);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		char c;
		ssize_t k = read(fd, &c, 1);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		if (c == '\n') {
			buf[n] = '\0';
			return true;
		}
		if (n + 1 < size)
			buf[n++] = c;
	}
	buf[n] = '\0';
	return false;
}

/* Bytes readable on fd right now, without blocking (reads and drops them). */
static inline int s_drain(int fd)
{
	char buf[4096];
	int n = 0;

	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };

		if (poll(&pfd, 1, 0) <= 0 || !(pfd.revents & POLLIN))
			return n;
		ssize_t k = read(fd, buf, sizeof(buf));

		if (k <= 0)
			return n;
		n += (int)k;
	}
}

/* Dispatch for ms, counting bytes that show up on fd (dropped). */
static inline int s_dispatch_drain(struct utrace_tracer *t, int fd, int ms)
{
	long dl = t_now_ms() + ms;
	int n = 0;

	while (t_now_ms() < dl) {
		if (t)
			CHECK(utrace_dispatch(t, 10) >= 0);
		else
			t_msleep(10);
		n += s_drain(fd);
	}
	return n;
}

/* Wait (without dispatching) until tid's state letter is one of states. */
static inline bool s_wait_state(pid_t tid, const char *states, int ms)
{
	long dl = t_now_ms() + ms;

	while (t_now_ms() < dl) {
		char s = t_state(tid);

		if (strchr(states, s))
			return true;
		t_msleep(2);
	}
	return strchr(states, t_state(tid)) != NULL;
}

/* The wait status of death as seen by engine te (the first record). */
static inline int s_death_status(struct teng *te)
{
	int d = tlog_find(0, te->id, K_DEATH);

	CHECK(d >= 0);
	return (int)tlog[d].arg;
}

#endif
