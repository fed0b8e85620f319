/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Job control (SPEC section 10, reference 7.7): report_jctl with
 * CLD_STOPPED and CLD_CONTINUED around SIGSTOP/SIGCONT, the real parent of
 * a traced process sees the same waitpid statuses as untraced, a thread
 * held with UTRACE_STOP stays stopped across SIGCONT, utrace_control(STOP)
 * on a job-control-stopped thread returns 0, and attaching to a stopped
 * process leaves it stopped until SIGCONT.  Interrupting or stopping a
 * group-stopped thread (utrace_control, utrace_queue_stop) is not the end
 * of its group stop, and a thread born into a group stop stays in it.  A
 * step requested in a group stop waits for SIGCONT, as UTRACE_RESUME does.
 */
#include "harness.h"
#include <utrace.h>
#include "sigtlib.h"

#define EV_JS (UTRACE_EVENT_SIGNAL_ALL | UTRACE_EVENT(JCTL) | EV_LIFE)

static int find_jctl(int from, int eng, int type)
{
	for (int i = from; i < tlog_n; i++)
		if (tlog[i].eng == eng && tlog[i].kind == K_JCTL &&
		    (int)tlog[i].arg == type)
			return i;
	return -1;
}

/* Read one tick line ("t") within ms. */
static bool got_tick(struct utrace_tracer *t, int out, int ms)
{
	char line[64];

	return s_readline(t, out, line, sizeof(line), ms);
}

TEST_T(jctl_stop_then_continue, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out, is, ij, ic, ik;
	pid_t pid = t_spawn(t, &out, "sig_prog", "tick", NULL);
	struct teng *a = s_attach(t, pid, EV_JS, NULL);

	CHECK(got_tick(t, out, 3000));
	CHECK_EQ(kill(pid, SIGSTOP), 0);
	CHECK(DISPATCH_UNTIL(t, find_jctl(0, a->id, CLD_STOPPED) >= 0, 3000));
	is = slog_find_sig(0, a->id, SIGSTOP);
	ij = find_jctl(0, a->id, CLD_STOPPED);
	CHECK(is >= 0 && is < ij);
	CHECK_EQ(utrace_signal_action(tlog[is].action), UTRACE_SIGNAL_STOP);
	CHECK_EQ(tlog[ij].arg2, CLD_STOPPED);	/* notify: the only thread */
	/* Stopped: no ticks. */
	s_drain(out);
	CHECK_EQ(s_dispatch_drain(t, out, 200), 0);
	CHECK(t_stopped(pid));
	CHECK_EQ(a->n[K_JCTL], 1);

	CHECK_EQ(kill(pid, SIGCONT), 0);
	CHECK(DISPATCH_UNTIL(t, find_jctl(0, a->id, CLD_CONTINUED) >= 0,
			     3000));
	CHECK(got_tick(t, out, 3000));
	ic = find_jctl(0, a->id, CLD_CONTINUED);
	/* Then the SIGCONT itself, ignored by default. */
	ik = slog_find_sig(0, a->id, SIGCONT);
	if (!(ik > ic))
		tlog_dump(0, 40);
	CHECK(ik > ic);
	CHECK_EQ(utrace_signal_action(tlog[ik].action), UTRACE_SIGNAL_IGN);
	CHECK_EQ(a->n[K_JCTL], 2);
	CHECK_EQ(kill(pid, SIGUSR1), 0);
	t_run(t);
	CHECK(WIFEXITED(s_death_status(a)));
	CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
	utrace_tracer_free(t);
}

/*
 * sig_prog parent: a parent program forks a child; the child is stopped
 * and continued with kill; the parent prints what waitpid(WUNTRACED |
 * WCONTINUED) tells it.  Traced (the tracer is not the parent) it must
 * print the same as untraced.
 */
static void parent_run(bool traced, char lines[3][64])
{
	struct utrace_tracer *t = traced ? t_tracer() : NULL;
	int out;
	pid_t par = s_fork_prog(NULL, &out, "sig_prog", "parent", NULL);
	pid_t child;
	struct teng *a = NULL;
	char line[64];

	CHECK(s_readline(NULL, out, line, sizeof(line), 3000));
	CHECK_EQ(sscanf(line, "child %d", &child), 1);
	if (traced)
		a = s_attach(t, child, EV_JS, NULL);
	t_msleep(30);
	CHECK_EQ(kill(child, SIGSTOP), 0);
	CHECK(s_readline(t, out, lines[0], 64, 3000));
	if (traced)
		CHECK(DISPATCH_UNTIL(t, find_jctl(0, a->id, CLD_STOPPED) >= 0,
				     1000));
	CHECK(t_stopped(child));
	CHECK_EQ(kill(child, SIGCONT), 0);
	CHECK(s_readline(t, out, lines[1], 64, 3000));
	if (traced)
		CHECK(DISPATCH_UNTIL(t, find_jctl(0, a->id, CLD_CONTINUED) >=
				     0, 1000));
	CHECK_EQ(kill(child, SIGUSR1), 0);
	CHECK(s_readline(t, out, lines[2], 64, 3000));
	if (traced) {
		t_run(t);
		CHECK_EQ(a->n[K_DEATH], 1);
		utrace_tracer_free(t);
	}
	close(out);
	t_waitpid(par, 1000);
}

TEST_T(jctl_real_parent_sees_same_statuses, 10)
{
	char plain[3][64], traced[3][64];

	parent_run(false, plain);
	parent_run(true, traced);
	CHECK_STR(plain[0], "stopped 19");
	CHECK_STR(plain[1], "continued");
	CHECK_STR(plain[2], "exited 0");
	for (int i = 0; i < 3; i++)
		CHECK_STR(traced[i], plain[i]);
}

TEST_T(jctl_held_thread_stays_stopped_across_sigcont, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "sig_prog", "tick", NULL);
	struct teng *a = s_attach(t, pid, EV_JS, s_hook_holder);
	struct teng *b = s_attach(t, pid, EV_JS | UTRACE_EVENT(QUIESCE),
				  s_hook_holder);

	CHECK(got_tick(t, out, 3000));
	CHECK_EQ(kill(pid, SIGSTOP), 0);
	CHECK(DISPATCH_UNTIL(t, find_jctl(0, a->id, CLD_STOPPED) >= 0, 3000));
	t_dispatch_for(t, 50);
	/* Job-control stopped: STOP takes at once. */
	a->user[7] = b->user[7] = 1;
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), 0);
	CHECK_EQ(utrace_control(b->e, UTRACE_STOP), 0);
	s_drain(out);
	CHECK_EQ(kill(pid, SIGCONT), 0);
	if (s_dispatch_drain(t, out, 300)) {
		tlog_dump(0, 60);
		CHECK(!"ran on after SIGCONT while held");
	}
	CHECK(t_stopped(pid));
	/* One holder lets go: still held by the other. */
	a->user[7] = 0;
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	CHECK_EQ(s_dispatch_drain(t, out, 200), 0);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_control(b->e, UTRACE_STOP), 0);
	b->user[7] = 0;
	CHECK_EQ(utrace_control(b->e, UTRACE_RESUME), 0);
	/* Released: the group stop is over (SIGCONT came), it runs. */
	CHECK(got_tick(t, out, 3000));
	CHECK(got_tick(t, out, 3000));
	CHECK_EQ(kill(pid, SIGUSR1), 0);
	t_run(t);
	CHECK(WIFEXITED(s_death_status(a)));
	CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
	utrace_tracer_free(t);
}

/* Released while the group is still stopped: it stays stopped. */
TEST_T(jctl_release_while_group_still_stopped, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "sig_prog", "tick", NULL);
	struct teng *a = s_attach(t, pid, EV_JS, s_hook_holder);

	CHECK(got_tick(t, out, 3000));
	CHECK_EQ(kill(pid, SIGSTOP), 0);
	CHECK(DISPATCH_UNTIL(t, find_jctl(0, a->id, CLD_STOPPED) >= 0, 3000));
	a->user[7] = 1;
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), 0);
	t_dispatch_for(t, 50);
	a->user[7] = 0;
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	s_drain(out);
	CHECK_EQ(s_dispatch_drain(t, out, 300), 0);
	CHECK(t_stopped(pid));
	CHECK_EQ(kill(pid, SIGCONT), 0);
	CHECK(got_tick(t, out, 3000));
	CHECK(DISPATCH_UNTIL(t, find_jctl(0, a->id, CLD_CONTINUED) >= 0,
			     1000));
	CHECK_EQ(kill(pid, SIGUSR1), 0);
	t_run(t);
	CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
	utrace_tracer_free(t);
}

TEST_T(attach_to_jctl_stopped_process, 10)
{
	int out;
	pid_t pid = s_fork_prog(NULL, &out, "sig_prog", "tick", NULL);
	struct utrace_tracer *t;
	struct teng *a;

	CHECK(got_tick(NULL, out, 3000));
	CHECK_EQ(kill(pid, SIGSTOP), 0);
	{
		/*
		 * Stopped: its real parent's wait says so (the state letter
		 * would too, 'T', but not when this test runs traced: then
		 * a group stop is a ptrace stop, 't').
		 */
		siginfo_t si;

		memset(&si, 0, sizeof(si));
		CHECK_EQ(waitid(P_PID, (id_t)pid, &si, WSTOPPED | WNOWAIT), 0);
		CHECK_EQ(si.si_code, CLD_STOPPED);
		CHECK_EQ(si.si_status, SIGSTOP);
	}
	s_drain(out);
	t = t_tracer();
	a = s_attach(t, pid, EV_JS, NULL);
	/* It stays stopped. */
	CHECK_EQ(s_dispatch_drain(t, out, 300), 0);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), 0);
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	CHECK_EQ(s_dispatch_drain(t, out, 200), 0);
	CHECK(t_stopped(pid));
	/* And goes on with SIGCONT. */
	CHECK_EQ(kill(pid, SIGCONT), 0);
	CHECK(got_tick(t, out, 3000));
	CHECK(got_tick(t, out, 3000));
	CHECK(DISPATCH_UNTIL(t, find_jctl(0, a->id, CLD_CONTINUED) >= 0,
			     1000));
	CHECK_EQ(kill(pid, SIGUSR1), 0);
	t_run(t);
	CHECK(WIFEXITED(s_death_status(a)));
	CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
	utrace_tracer_free(t);
}

/* Detaching from a stopped process leaves it stopped. */
TEST_T(detach_from_jctl_stopped_leaves_it_stopped, 10)
{
	int out;
	pid_t pid = s_fork_prog(NULL, &out, "sig_prog", "tick", NULL);
	struct utrace_tracer *t = t_tracer();
	struct teng *a = s_attach(t, pid, EV_JS, NULL);

	CHECK(got_tick(t, out, 3000));
	CHECK_EQ(kill(pid, SIGSTOP), 0);
	CHECK(DISPATCH_UNTIL(t, find_jctl(0, a->id, CLD_STOPPED) >= 0, 3000));
	CHECK_EQ(utrace_control(a->e, UTRACE_DETACH), 0);
	t_dispatch_for(t, 100);
	utrace_tracer_free(t);
	s_drain(out);
	t_msleep(200);
	CHECK_EQ(s_drain(out), 0);
	/* Untraced and in a group stop ('t' if this test runs traced). */
	CHECK_EQ(t_state(pid), t_group_stop_state());
	CHECK_EQ(t_tracer_pid(pid), 0);
	CHECK_EQ(kill(pid, SIGCONT), 0);
	CHECK(got_tick(NULL, out, 3000));
	CHECK_EQ(kill(pid, SIGUSR1), 0);
	{
		int st = t_waitpid(pid, 3000);

		CHECK(st != -1 && WIFEXITED(st));
	}
}

/* -- Stopping or interrupting a group-stopped process -------------------- */

static int count_jctl(int eng, int type)
{
	int n = 0;

	for (int i = 0; i < tlog_n; i++)
		n += tlog[i].eng == eng && tlog[i].kind == K_JCTL &&
		     (int)tlog[i].arg == type;
	return n;
}

static struct utrace_tracer *follow_t;

/* Every new thread gets an engine like its creator's. */
static uint32_t hook_follow(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_CLONE && (ev->arg2 & CLONE_THREAD))
		s_attach(follow_t, (pid_t)ev->arg, te->events, hook_follow);
	return dflt;
}

static bool all_jctl(int from, int n, int type)
{
	for (int i = from; i < from + n; i++)
		if (count_jctl(i, type) < 1)
			return false;
	return true;
}

/*
 * A PTRACE_INTERRUPT of a thread in a group stop re-traps it while the
 * group is still stopped: that is no CLD_CONTINUED.  utrace_control with
 * UTRACE_INTERRUPT, then UTRACE_STOP, then UTRACE_RESUME, on every thread
 * of a SIGSTOPped process (with @nthr extra threads): no CLD_CONTINUED
 * until SIGCONT, then exactly one for each thread.
 */
static void interrupt_in_group_stop(int nthr)
{
	struct utrace_tracer *t = follow_t = t_tracer();
	unsigned long evs = EV_JS | UTRACE_EVENT(QUIESCE) |
			    UTRACE_EVENT(CLONE);
	char arg[16];
	int out = -1, first, n = nthr + 1, round;
	pid_t pid;
	struct teng *a;

	snprintf(arg, sizeof(arg), "%d", nthr);
	if (nthr)
		pid = t_spawn(t, NULL, "threads_idle", arg, "sig", NULL);
	else
		pid = t_spawn(t, &out, "sig_prog", "tick", NULL);
	a = s_attach(t, pid, evs, hook_follow);
	first = a->id;
	if (nthr)
		CHECK(DISPATCH_UNTIL(t, tengs_n == first + n, 8000));
	else
		CHECK(got_tick(t, out, 3000));
	CHECK_EQ(kill(pid, SIGSTOP), 0);
	CHECK(DISPATCH_UNTIL(t, all_jctl(first, n, CLD_STOPPED), 5000));
	t_dispatch_for(t, 50);
	for (round = 0; round < 2; round++) {
		for (int i = first; i < first + n; i++)
			CHECK_EQ(utrace_control(tengs[i].e, UTRACE_INTERRUPT),
				 0);
		t_dispatch_for(t, 100);
		for (int i = first; i < first + n; i++)
			CHECK_EQ(utrace_control(tengs[i].e, UTRACE_STOP), 0);
		t_dispatch_for(t, 100);
		for (int i = first; i < first + n; i++)
			CHECK_EQ(utrace_control(tengs[i].e, UTRACE_RESUME), 0);
		t_dispatch_for(t, 100);
	}
	for (int i = first; i < first + n; i++) {
		if (count_jctl(i, CLD_CONTINUED)) {
			tlog_dump(0, 80);
			CHECK(!"CLD_CONTINUED while the group is stopped");
		}
		CHECK_EQ(count_jctl(i, CLD_STOPPED), 1);
		CHECK(t_stopped(tengs[i].tid));
	}
	if (out >= 0) {
		s_drain(out);
		CHECK_EQ(s_dispatch_drain(t, out, 200), 0);
	}
	CHECK_EQ(kill(pid, SIGCONT), 0);
	CHECK(DISPATCH_UNTIL(t, all_jctl(first, n, CLD_CONTINUED), 3000));
	if (out >= 0)
		CHECK(got_tick(t, out, 3000));
	t_dispatch_for(t, 100);
	for (int i = first; i < first + n; i++) {
		CHECK_EQ(count_jctl(i, CLD_CONTINUED), 1);
		CHECK_EQ(count_jctl(i, CLD_STOPPED), 1);
	}
	CHECK_EQ(kill(pid, SIGUSR1), 0);
	t_run(t);
	CHECK(WIFEXITED(s_death_status(a)));
	CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
	utrace_tracer_free(t);
}

TEST_T(interrupt_in_group_stop_single_thread, 20)
{
	interrupt_in_group_stop(0);
}

TEST_T(interrupt_in_group_stop_threads, 20)
{
	interrupt_in_group_stop(3);
}

/*
 * A thread whose first trap is its process's group stop (the SIGSTOP came
 * between its clone and its first run) stays in the stop, with its
 * CLD_STOPPED report: it is not restarted as from a thread's initial stop.
 * A race each round may or may not hit (about one in three did here); no
 * round may fail.
 */
TEST_T(threads_born_into_group_stop_stay_stopped, 60)
{
	for (int round = 0; round < 5; round++) {
		struct utrace_tracer *t = follow_t = t_tracer();
		pid_t pid = t_spawn(t, NULL, "threads_idle", "3", "sig", NULL);
		struct teng *a = s_attach(t, pid, EV_JS | UTRACE_EVENT(CLONE),
					  hook_follow);
		int first = a->id;

		CHECK(DISPATCH_UNTIL(t, tengs_n == first + 4, 8000));
		CHECK_EQ(kill(pid, SIGSTOP), 0);
		CHECK(DISPATCH_UNTIL(t, all_jctl(first, 4, CLD_STOPPED), 5000));
		t_dispatch_for(t, 50);
		for (int i = first; i < first + 4; i++) {
			CHECK_EQ(count_jctl(i, CLD_STOPPED), 1);
			CHECK(t_stopped(tengs[i].tid));
		}
		CHECK_EQ(kill(pid, SIGKILL), 0);
		t_run(t);
		utrace_tracer_free(t);
	}
}

/*
 * The queued-event layer: a whole-process stop (utrace_queue_stop) of a
 * SIGSTOPped process and its resume are not the end of its group stop: no
 * JCTL record of CLD_CONTINUED until SIGCONT, then one for each thread.
 */
struct qjctl {
	int stopped, cont, other;
};

static void q_drain(struct utrace_queue *q, struct qjctl *c, int ms)
{
	struct utrace_event ev;

	for (;;) {
		memset(&ev, 0, sizeof(ev));
		ev.size = sizeof(ev);
		if (utrace_queue_next(q, &ev, ms) != 1)
			return;
		if (ev.type != UTRACE_EVENT(JCTL))
			continue;
		if (ev.jctl_type == CLD_STOPPED)
			c->stopped++;
		else if (ev.jctl_type == CLD_CONTINUED)
			c->cont++;
		else
			c->other++;
	}
}

static void queue_stop_in_group_stop(int nthr)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = NULL;
	struct qjctl c = { 0, 0, 0 };
	char arg[16];
	pid_t pid, tids[16];
	int n = nthr + 1, i;

	snprintf(arg, sizeof(arg), "%d", nthr);
	pid = t_spawn(t, NULL, "threads_idle", arg, "sig", NULL);
	CHECK_EQ(utrace_queue_new(t, &q), 0);
	CHECK_EQ(utrace_queue_watch(q, pid, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT(JCTL) | UTRACE_EVENT(DEATH),
				    0), 0);
	CHECK(DISPATCH_UNTIL(t, t_tasks(pid, tids, 16) == n, 8000));
	CHECK_EQ(kill(pid, SIGSTOP), 0);
	for (i = 0; i < 100 && c.stopped < n; i++)
		q_drain(q, &c, 50);
	CHECK_EQ(c.stopped, n);
	for (int round = 0; round < 2; round++) {
		CHECK_EQ(utrace_queue_stop(q, pid, 10000), n);
		q_drain(q, &c, 100);
		CHECK_EQ(utrace_queue_resume(q, pid), n);
		q_drain(q, &c, 100);
	}
	CHECK_EQ(c.cont, 0);
	CHECK_EQ(c.stopped, n);
	CHECK_EQ(t_tasks(pid, tids, 16), n);
	for (i = 0; i < n; i++)
		CHECK(t_stopped(tids[i]));
	CHECK_EQ(kill(pid, SIGCONT), 0);
	for (i = 0; i < 100 && c.cont < n; i++)
		q_drain(q, &c, 50);
	q_drain(q, &c, 100);
	CHECK_EQ(c.cont, n);
	CHECK_EQ(c.stopped, n);
	CHECK_EQ(c.other, 0);
	CHECK_EQ(kill(pid, SIGUSR1), 0);
	for (i = 0; i < n;) {
		struct utrace_event ev;

		memset(&ev, 0, sizeof(ev));
		ev.size = sizeof(ev);
		if (utrace_queue_next(q, &ev, 10000) != 1)
			break;
		if (ev.type != UTRACE_EVENT(DEATH))
			continue;
		i++;
		if (ev.tid == pid)
			CHECK(WIFEXITED(ev.status) && !WEXITSTATUS(ev.status));
	}
	CHECK_EQ(i, n);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

TEST_T(queue_stop_in_group_stop_single_thread, 20)
{
	queue_stop_in_group_stop(0);
}

TEST_T(queue_stop_in_group_stop_threads, 20)
{
	queue_stop_in_group_stop(3);
}

/* -- A step request in a group stop ---------------------------------------- */

static int count_quiesce0(int eng)
{
	int n = 0;

	for (int i = 0; i < tlog_n; i++)
		n += tlog[i].eng == eng && tlog[i].kind == K_QUIESCE &&
		     !tlog[i].arg;
	return n;
}

static int find_quiesce0(int from, int eng)
{
	for (int i = from; i < tlog_n; i++)
		if (tlog[i].eng == eng && tlog[i].kind == K_QUIESCE &&
		    !tlog[i].arg)
			return i;
	return -1;
}

/*
 * user[0] set: reply UTRACE_SINGLESTEP to report_jctl(CLD_STOPPED);
 * user[1] set: to SIGCONT's report_signal.
 */
static uint32_t hook_step_in_stop(struct teng *te, struct tev *ev,
				  uint32_t dflt)
{
	if (te->user[0] && ev->kind == K_JCTL && ev->arg == CLD_STOPPED)
		return UTRACE_SINGLESTEP;
	if (te->user[1] && ev->kind == K_SIGNAL && ev->arg == SIGCONT)
		return (dflt & ~UTRACE_RESUME_MASK) | UTRACE_SINGLESTEP;
	return dflt;
}

/*
 * A step requested while the thread is in a group stop (by utrace_control,
 * or as report_jctl(CLD_STOPPED)'s reply) is like UTRACE_RESUME, for one
 * instruction (reference 6, 7.7): the thread does not leave the group
 * stop.  It stays stopped with no step report, utrace_control(UTRACE_STOP)
 * returns 0 and UTRACE_RESUME keeps it in the stop.  SIGCONT brings its
 * one CLD_CONTINUED, then SIGCONT's report_signal: the last round of
 * callbacks before user mode, whose reply decides; SINGLESTEP there makes
 * the step (its report_quiesce(0)), and the thread runs on.
 */
static void step_in_group_stop(bool from_jctl)
{
	struct utrace_tracer *t = t_tracer();
	int out, n0, ic, ik, iq;
	pid_t pid = t_spawn(t, &out, "sig_prog", "tick", NULL);
	struct teng *a = s_attach(t, pid, EV_JS | UTRACE_EVENT(QUIESCE),
				  hook_step_in_stop);

	CHECK(got_tick(t, out, 3000));
	a->user[0] = from_jctl;
	CHECK_EQ(kill(pid, SIGSTOP), 0);
	CHECK(DISPATCH_UNTIL(t, count_jctl(a->id, CLD_STOPPED) == 1, 3000));
	t_dispatch_for(t, 50);
	n0 = count_quiesce0(a->id);
	if (!from_jctl)
		CHECK_EQ(utrace_control(a->e, UTRACE_SINGLESTEP), 0);
	t_dispatch_for(t, 200);
	s_drain(out);
	CHECK_EQ(s_dispatch_drain(t, out, 200), 0);	/* no ticks */
	CHECK(t_stopped(pid));
	if (count_quiesce0(a->id) != n0 ||
	    count_jctl(a->id, CLD_CONTINUED)) {
		tlog_dump(0, 80);
		CHECK(!"stepped while the group is stopped");
	}
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), 0);
	t_dispatch_for(t, 50);
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	t_dispatch_for(t, 100);
	CHECK_EQ(s_dispatch_drain(t, out, 100), 0);
	CHECK(t_stopped(pid));
	CHECK_EQ(count_quiesce0(a->id), n0);
	CHECK_EQ(count_jctl(a->id, CLD_CONTINUED), 0);

	a->user[1] = 1;
	CHECK_EQ(kill(pid, SIGCONT), 0);
	if (!DISPATCH_UNTIL(t, count_quiesce0(a->id) > n0, 3000))
		tlog_dump(0, 80);
	CHECK(count_quiesce0(a->id) > n0);
	CHECK(got_tick(t, out, 3000));
	t_dispatch_for(t, 100);
	ic = find_jctl(0, a->id, CLD_CONTINUED);
	ik = slog_find_sig(0, a->id, SIGCONT);
	iq = find_quiesce0(0, a->id);
	for (int i = 0; i < n0; i++)
		iq = find_quiesce0(iq + 1, a->id);
	if (!(ic >= 0 && ic < ik && ik < iq))
		tlog_dump(0, 80);
	/* Continued, SIGCONT's report, then the step. */
	CHECK(ic >= 0 && ic < ik && ik < iq);
	CHECK_EQ(count_jctl(a->id, CLD_CONTINUED), 1);
	CHECK_EQ(count_jctl(a->id, CLD_STOPPED), 1);
	CHECK_EQ(kill(pid, SIGUSR1), 0);
	t_run(t);
	CHECK(WIFEXITED(s_death_status(a)));
	CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
	utrace_tracer_free(t);
}

TEST_T(control_step_in_group_stop_waits_for_sigcont, 20)
{
	step_in_group_stop(false);
}

TEST_T(jctl_step_reply_waits_for_sigcont, 20)
{
	step_in_group_stop(true);
}

int main(void)
{
	return test_main();
}
