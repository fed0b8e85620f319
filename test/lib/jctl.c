/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Job control (SPEC section 10, reference 7.7): report_jctl with
 * CLD_STOPPED and CLD_CONTINUED around SIGSTOP/SIGCONT, the real parent of
 * a traced process sees the same waitpid statuses as untraced, a thread
 * held with UTRACE_STOP stays stopped across SIGCONT, utrace_control(STOP)
 * on a job-control-stopped thread returns 0, and attaching to a stopped
 * process leaves it stopped until SIGCONT.
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

int main(void)
{
	return test_main();
}
