/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reporting passes with three or more engines: attach order, reverse order
 * at syscall entry (quiesce calls included), quiesce-then-event per engine,
 * the aggregate in the action argument, sticky STOP, engines attached or
 * detached inside a pass, the repeated syscall-entry pass and the syscall
 * action decided by the last engine called.
 */
#include "harness.h"
#include <utrace.h>
#include "tlib.h"

static bool rec_matches(const struct tev *ev, unsigned long event, int kind,
			long nr)
{
	if (nr != -2 && ev->nr != nr)
		return false;
	if (ev->kind == kind)
		return true;
	return ev->kind == K_QUIESCE && ev->arg == event;
}

/*
 * The records for one event (its callbacks and the report_quiesce calls for
 * it; for syscall events only those of syscall nr, or any with nr -2) must
 * come in whole passes: for each engine of order[] in turn, its quiesce
 * call (when quiesce) and then its event callback.  Returns the number of
 * passes.
 */
static int check_passes_from(int from, unsigned long event, int kind,
			     struct teng **order, int n, bool quiesce, long nr)
{
	int per = quiesce ? 2 : 1, pos = 0, passes = 0;

	for (int i = from; i < tlog_n; i++) {
		const struct tev *ev = &tlog[i];
		const struct teng *want = order[pos / per];
		int want_kind = quiesce && pos % per == 0 ? K_QUIESCE : kind;

		if (!rec_matches(ev, event, kind, nr))
			continue;
		if (ev->eng != want->id || ev->kind != want_kind) {
			fprintf(stderr, "# record %d: want engine %d %s\n", i,
				want->id, t_kind_names[want_kind]);
			tlog_dump(i > 8 ? i - 8 : 0, 16);
			CHECK(0);
		}
		if (++pos == n * per) {
			pos = 0;
			passes++;
		}
	}
	CHECK_EQ(pos, 0);
	return passes;
}

static int check_passes(unsigned long event, int kind, struct teng **order,
			int n, bool quiesce, long nr)
{
	return check_passes_from(0, event, kind, order, n, quiesce, nr);
}

/* Hook scripts: user[7] is the engine's index, user[0] a step counter. */
static const uint32_t agg_script[3][3] = {
	{ UTRACE_REPORT, UTRACE_RESUME, UTRACE_DETACH },
	{ UTRACE_RESUME, UTRACE_REPORT, UTRACE_REPORT },
	{ UTRACE_RESUME, UTRACE_RESUME, UTRACE_RESUME },
};

static uint32_t agg_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid &&
	    te->user[0] < 3)
		return agg_script[te->user[7]][te->user[0]++];
	return dflt;
}

static void attach3(struct utrace_tracer *t, pid_t pid, unsigned long ev,
		    thook_t hook, struct teng **e)
{
	for (int i = 0; i < 3; i++) {
		e[i] = t_attach(t, pid, ev, hook);
		e[i]->user[7] = i;
	}
}

static void finish3(struct teng **e, int n)
{
	for (int i = 0; i < n; i++) {
		t_check_death_reap(e[i]);
		utrace_engine_put(e[i]->e);
	}
}

TEST_T(order_attach_order_exec_exit, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "print_exit", "", "0", NULL);
	unsigned long ev = UTRACE_EVENT(QUIESCE) | UTRACE_EVENT(EXEC) |
			   UTRACE_EVENT(EXIT) | EV_LIFE;
	struct teng *e[3];

	attach3(t, pid, ev, NULL, e);
	t_run(t);
	CHECK_EQ(check_passes(UTRACE_EVENT(EXEC), K_EXEC, e, 3, true, -2), 1);
	CHECK_EQ(check_passes(UTRACE_EVENT(EXIT), K_EXIT, e, 3, true, -2), 1);
	CHECK_EQ(check_passes(0, K_REAP, e, 3, false, -2), 1);
	finish3(e, 3);
	utrace_tracer_free(t);
}

TEST_T(order_death_quiesce_then_death_then_reap, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "print_exit", "", "0", NULL);
	struct teng *e[3];
	int last_death;

	attach3(t, pid, UTRACE_EVENT(QUIESCE) | EV_LIFE, NULL, e);
	t_run(t);
	CHECK_EQ(check_passes(UTRACE_EVENT(DEATH), K_DEATH, e, 3, true, -2),
		 1);
	CHECK_EQ(check_passes(0, K_REAP, e, 3, false, -2), 1);
	last_death = tlog_find(0, e[2]->id, K_DEATH);
	CHECK(tlog_find(0, -1, K_REAP) > last_death);
	CHECK_EQ(tlog_count(-1, K_QUIESCE), 3);
	finish3(e, 3);
	utrace_tracer_free(t);
}

TEST_T(order_syscall_entry_reverse_with_quiesce, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "4", NULL);
	unsigned long ev = UTRACE_EVENT(QUIESCE) | UTRACE_EVENT_SYSCALL |
			   EV_LIFE;
	struct teng *e[3], *rev[3];

	attach3(t, pid, ev, NULL, e);
	rev[0] = e[2];
	rev[1] = e[1];
	rev[2] = e[0];
	t_run(t);
	CHECK_EQ(check_passes(UTRACE_EVENT(SYSCALL_ENTRY), K_SYSENTRY, rev, 3,
			      true, SYS_getppid), 4);
	CHECK_EQ(check_passes(UTRACE_EVENT(SYSCALL_EXIT), K_SYSEXIT, e, 3,
			      true, SYS_getppid), 4);
	/* Every syscall, execve and exit_group included. */
	CHECK(check_passes(UTRACE_EVENT(SYSCALL_ENTRY), K_SYSENTRY, rev, 3,
			   true, -2) > 5);
	CHECK(check_passes(UTRACE_EVENT(SYSCALL_EXIT), K_SYSEXIT, e, 3,
			   true, -2) > 5);
	CHECK_EQ(tlog[tlog_find(0, -1, K_SYSENTRY)].nr, SYS_execve);
	finish3(e, 3);
	utrace_tracer_free(t);
}

TEST_T(order_action_argument_is_aggregate, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "3", NULL);
	struct teng *e[3];
	static const uint32_t want[3][3] = {
		{ UTRACE_RESUME, UTRACE_REPORT, UTRACE_REPORT },
		{ UTRACE_RESUME, UTRACE_RESUME, UTRACE_REPORT },
		{ UTRACE_RESUME, UTRACE_RESUME, UTRACE_REPORT },
	};
	int k[3] = { 0, 0, 0 };

	attach3(t, pid, UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE, agg_hook, e);
	utrace_engine_put(e[0]->e);
	t_run(t);
	for (int i = 0; i < tlog_n; i++) {
		const struct tev *ev = &tlog[i];

		if (ev->kind != K_SYSEXIT || ev->nr != SYS_getppid)
			continue;
		CHECK(ev->eng < 3);
		if (k[ev->eng] < 3) {
			if (utrace_resume_action(ev->action) !=
			    want[k[ev->eng]][ev->eng])
				tlog_dump(0, tlog_n);
			CHECK_EQ(utrace_resume_action(ev->action),
				 want[k[ev->eng]][ev->eng]);
		}
		k[ev->eng]++;
	}
	/* Engine 0 detached on its third call. */
	CHECK_EQ(k[0], 3);
	CHECK_EQ(e[0]->n[K_DEATH], 0);
	CHECK_EQ(e[0]->released, 1);
	CHECK_EQ(k[1], 3);
	CHECK_EQ(k[2], 3);
	finish3(e + 1, 2);
	utrace_tracer_free(t);
}

/* Engines whose user[1] matches return STOP at that getppid exit. */
static uint32_t sticky_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid &&
	    ++te->user[0] == te->user[1]) {
		te->user[2] = tlog_n - 1;
		return UTRACE_STOP;
	}
	return dflt;
}

TEST_T(order_stop_is_sticky_per_engine, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "5", NULL);
	struct teng *e[3];
	struct user_regs_struct regs;
	int n, i;

	attach3(t, pid, UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE, sticky_hook, e);
	e[0]->user[1] = 2;
	CHECK(DISPATCH_UNTIL(t, e[2]->user[0] == 2, 3000));
	/* B and C saw A's STOP in the aggregate. */
	i = e[0]->user[2];
	CHECK_EQ(tlog[i].ret, UTRACE_STOP);
	i = tlog_find(i, e[1]->id, K_SYSEXIT);
	CHECK(i >= 0);
	CHECK_EQ(utrace_resume_action(tlog[i].action), UTRACE_STOP);
	i = tlog_find(i, e[2]->id, K_SYSEXIT);
	CHECK(i >= 0);
	CHECK_EQ(utrace_resume_action(tlog[i].action), UTRACE_STOP);

	n = tlog_n;
	t_dispatch_for(t, 300);
	CHECK_EQ(tlog_n, n);
	CHECK(t_stopped(pid));
	/* The others letting go does not release A's hold. */
	CHECK_EQ(utrace_control(e[1]->e, UTRACE_RESUME), 0);
	CHECK_EQ(utrace_control(e[2]->e, UTRACE_RESUME), 0);
	t_dispatch_for(t, 300);
	CHECK_EQ(tlog_n, n);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_regs_get(e[0]->e, &regs), 0);
	CHECK_EQ(regs.orig_rax, SYS_getppid);
	CHECK_EQ(regs.rax, getpid());
	CHECK_EQ(utrace_regs_get(e[1]->e, &regs), -EBUSY);

	CHECK_EQ(utrace_control(e[0]->e, UTRACE_RESUME), 0);
	t_run(t);
	for (i = 0; i < 3; i++)
		CHECK_EQ(tlog_count_nr(e[i]->id, K_SYSEXIT, SYS_getppid), 5);
	finish3(e, 3);
	utrace_tracer_free(t);
}

TEST_T(order_stop_held_until_every_holder_resumes, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "5", NULL);
	struct teng *e[3];
	int n;

	attach3(t, pid, UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE, sticky_hook, e);
	e[0]->user[1] = 2;
	e[2]->user[1] = 2;
	CHECK(DISPATCH_UNTIL(t, e[2]->user[0] == 2, 3000));
	n = tlog_n;
	CHECK_EQ(utrace_control(e[2]->e, UTRACE_RESUME), 0);
	t_dispatch_for(t, 300);
	CHECK_EQ(tlog_n, n);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_control(e[1]->e, UTRACE_STOP), 0);
	CHECK_EQ(utrace_control(e[0]->e, UTRACE_RESUME), 0);
	t_dispatch_for(t, 300);
	CHECK_EQ(tlog_n, n);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_control(e[1]->e, UTRACE_RESUME), 0);
	t_run(t);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(tlog_count_nr(e[i]->id, K_SYSEXIT, SYS_getppid), 5);
	finish3(e, 3);
	utrace_tracer_free(t);
}

static struct utrace_tracer *g_tracer;
static struct teng *g_late;

static uint32_t attach_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid &&
	    ++te->user[0] == 2) {
		g_late = t_attach(g_tracer, ev->tid, UTRACE_EVENT(SYSCALL_EXIT) |
				  EV_LIFE, NULL);
		g_late->user[0] = tlog_n;
	}
	return dflt;
}

TEST_T(order_engine_attached_in_callback_misses_current_event, 10)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "5", NULL);
	struct teng *e[4];
	int first;

	attach3(t, pid, UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE, NULL, e);
	e[0]->hook = attach_hook;
	t_run(t);
	CHECK(g_late != NULL);
	e[3] = g_late;
	CHECK_EQ(tlog_count_nr(e[3]->id, K_SYSEXIT, SYS_getppid), 3);
	/* Not in the pass it was attached in (B and C still follow A). */
	first = tlog_find(0, e[3]->id, K_SYSEXIT);
	CHECK(first > g_late->user[0] + 1);
	CHECK_EQ(tlog[g_late->user[0]].eng, e[1]->id);
	CHECK_EQ(tlog[g_late->user[0] + 1].eng, e[2]->id);
	/* Afterwards it is called last, in attach order. */
	CHECK_EQ(check_passes_from(first - 3, UTRACE_EVENT(SYSCALL_EXIT),
				   K_SYSEXIT, e, 4, false, -2),
		 tlog_count(e[3]->id, K_SYSEXIT));
	finish3(e, 3);
	t_check_death_reap(e[3]);
	utrace_engine_put(e[3]->e);
	utrace_tracer_free(t);
}

static uint32_t resumed_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSENTRY && ev->nr == SYS_getppid &&
	    !(ev->action & UTRACE_SYSCALL_RESUMED) && te->user[7] == 0 &&
	    ++te->user[0] == 1)
		return UTRACE_STOP | utrace_syscall_action(ev->action);
	return dflt;
}

TEST_T(order_syscall_entry_repeated_after_report, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "3", NULL);
	struct teng *e[3];
	struct utrace_syscall sc;
	int n, i, first_resumed = -1, order[3], k = 0;

	attach3(t, pid, UTRACE_EVENT(QUIESCE) | UTRACE_EVENT_SYSCALL | EV_LIFE,
		resumed_hook, e);
	CHECK(DISPATCH_UNTIL(t, e[0]->user[0] == 1, 3000));
	n = tlog_n;
	t_dispatch_for(t, 200);
	CHECK_EQ(tlog_n, n);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_syscall_get(e[0]->e, &sc), 0);
	CHECK_EQ(sc.nr, SYS_getppid);
	CHECK_EQ(tlog_count_nr(e[0]->id, K_SYSEXIT, SYS_getppid), 0);

	CHECK_EQ(utrace_control(e[0]->e, UTRACE_REPORT), 0);
	t_run(t);
	for (i = 0; i < 3; i++) {
		CHECK_EQ(tlog_count_nr(e[i]->id, K_SYSENTRY, SYS_getppid), 4);
		CHECK_EQ(tlog_count_nr(e[i]->id, K_SYSEXIT, SYS_getppid), 3);
	}
	for (i = n; i < tlog_n; i++) {
		if (tlog[i].kind != K_SYSENTRY ||
		    !(tlog[i].action & UTRACE_SYSCALL_RESUMED))
			continue;
		if (first_resumed < 0)
			first_resumed = i;
		CHECK(k < 3);
		CHECK_EQ(tlog[i].nr, SYS_getppid);
		order[k++] = tlog[i].eng;
	}
	CHECK_EQ(k, 3);
	CHECK_EQ(order[0], e[2]->id);
	CHECK_EQ(order[1], e[1]->id);
	CHECK_EQ(order[2], e[0]->id);
	/* The repeat comes before the syscall exit. */
	CHECK(tlog_find(n, -1, K_SYSEXIT) > first_resumed);
	for (i = 0; i < n; i++)
		CHECK(!(tlog[i].action & UTRACE_SYSCALL_RESUMED));
	finish3(e, 3);
	utrace_tracer_free(t);
}

/*
 * The non-STOP part of a vote waits for the release (reference 4.4): at
 * the first getppid entry B votes REPORT (or INTERRUPT) and A, called
 * after it, STOP.  While A holds the thread nothing is reported; when A
 * lets it go, the entry pass is repeated with UTRACE_SYSCALL_RESUMED.
 */
static uint32_t vote_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSENTRY && ev->nr == SYS_getppid &&
	    !(ev->action & UTRACE_SYSCALL_RESUMED) && ++te->user[0] == 1)
		return (uint32_t)te->user[6] | utrace_syscall_action(ev->action);
	return dflt;
}

TEST_T(order_report_vote_kept_across_another_engines_stop, 10)
{
	static const int votes[] = { UTRACE_REPORT, UTRACE_INTERRUPT };

	for (int v = 0; v < 2; v++) {
		struct utrace_tracer *t = t_tracer();
		pid_t pid = t_spawn(t, NULL, "getppid_loop", "3", NULL);
		struct teng *e[3];
		int n;

		attach3(t, pid, UTRACE_EVENT(QUIESCE) | UTRACE_EVENT_SYSCALL |
			EV_LIFE, vote_hook, e);
		e[0]->user[6] = UTRACE_STOP;
		e[1]->user[6] = votes[v];
		e[2]->user[6] = UTRACE_RESUME;
		CHECK(DISPATCH_UNTIL(t, e[0]->user[0] == 1, 3000));
		n = tlog_n;
		t_dispatch_for(t, 200);
		CHECK_EQ(tlog_n, n);	/* held: nothing reported */
		CHECK(t_stopped(pid));
		CHECK_EQ(utrace_control(e[0]->e, UTRACE_RESUME), 0);
		t_run(t);
		for (int i = 0; i < 3; i++) {
			CHECK_EQ(tlog_count_nr(e[i]->id, K_SYSENTRY,
					       SYS_getppid), 4);
			CHECK_EQ(tlog_count_nr(e[i]->id, K_SYSEXIT,
					       SYS_getppid), 3);
		}
		n = 0;
		for (int i = 0; i < tlog_n; i++)
			if (tlog[i].kind == K_SYSENTRY &&
			    tlog[i].action & UTRACE_SYSCALL_RESUMED)
				n++;
		CHECK_EQ(n, 3);
		finish3(e, 3);
		utrace_tracer_free(t);
		tlog_n = 0;
	}
}

/*
 * Syscall entry goes C, B, A.  First getppid: C aborts, B passes it on, A
 * (called last) runs it.  Second: C and B run it, A aborts it.
 */
static uint32_t abort_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	int k;

	if (ev->kind != K_SYSENTRY || ev->nr != SYS_getppid)
		return dflt;
	k = te->user[0]++;
	te->user[1 + k] = utrace_syscall_action(ev->action);
	switch (te->user[7] * 10 + k) {
	case 20:
		return UTRACE_RESUME | UTRACE_SYSCALL_ABORT;
	case 10:
		return dflt;
	case 0:
		return UTRACE_RESUME | UTRACE_SYSCALL_RUN;
	case 1:
		return UTRACE_RESUME | UTRACE_SYSCALL_ABORT;
	}
	return UTRACE_RESUME | UTRACE_SYSCALL_RUN;
}

TEST_T(order_last_engine_decides_syscall_action, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "syscalls", "ppid2", NULL);
	struct teng *e[3];
	char want[64];

	attach3(t, pid, UTRACE_EVENT(SYSCALL_ENTRY) | EV_LIFE, abort_hook, e);
	t_run(t);
	snprintf(want, sizeof(want), "%d\n-1 errno %d\n", getpid(), ENOSYS);
	CHECK_STR(t_read_all(out), want);
	/* What each engine saw from the one called before it. */
	CHECK_EQ(e[2]->user[1], UTRACE_SYSCALL_RUN);
	CHECK_EQ(e[1]->user[1], UTRACE_SYSCALL_ABORT);
	CHECK_EQ(e[0]->user[1], UTRACE_SYSCALL_ABORT);
	CHECK_EQ(e[1]->user[2], UTRACE_SYSCALL_RUN);
	CHECK_EQ(e[0]->user[2], UTRACE_SYSCALL_RUN);
	finish3(e, 3);
	utrace_tracer_free(t);
}

TEST_T(order_event0_pass_visits_every_quiesce_engine, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "spin", "10000", NULL);
	struct teng *e[3];
	int n;

	attach3(t, pid, UTRACE_EVENT(QUIESCE) | EV_LIFE, NULL, e);
	t_dispatch_for(t, 200);
	n = tlog_n;
	CHECK_EQ(utrace_control(e[1]->e, UTRACE_REPORT), 0);
	CHECK(DISPATCH_UNTIL(t, tlog_n >= n + 3, 3000));
	t_dispatch_for(t, 100);
	CHECK_EQ(tlog_n, n + 3);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(tlog[n + i].eng, e[i]->id);
		CHECK_EQ(tlog[n + i].kind, K_QUIESCE);
		CHECK_EQ(tlog[n + i].arg, 0);
	}
	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	finish3(e, 3);
	utrace_tracer_free(t);
}

static uint32_t report_ret_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid &&
	    te->user[0]++ == 0) {
		te->user[1] = tlog_n;
		return UTRACE_REPORT;
	}
	return dflt;
}

TEST_T(order_report_return_gives_event0_quiesce, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "3", NULL);
	struct teng *e[3];
	int next, q0 = 0;

	attach3(t, pid, UTRACE_EVENT(QUIESCE) | UTRACE_EVENT(SYSCALL_EXIT) |
		EV_LIFE, NULL, e);
	e[1]->hook = report_ret_hook;
	t_run(t);
	/* Between that pass and the next syscall exit: event-0 quiesce. */
	next = tlog_find(e[1]->user[1], e[0]->id, K_SYSEXIT);
	CHECK(next > 0);
	for (int i = e[1]->user[1]; i < next; i++)
		if (tlog[i].kind == K_QUIESCE && tlog[i].arg == 0) {
			CHECK_EQ(tlog[i].eng, e[q0]->id);
			q0++;
		}
	CHECK_EQ(q0, 3);
	/* Nothing else asked for one. */
	CHECK_EQ(tlog_count(-1, K_QUIESCE) - tlog_count(-1, K_SYSEXIT) -
		 tlog_count(-1, K_DEATH), 3);
	finish3(e, 3);
	utrace_tracer_free(t);
}

TEST_T(order_attach_order_clone, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "forkchain", "1", NULL);
	struct teng *e[3];

	attach3(t, pid, UTRACE_EVENT(QUIESCE) | UTRACE_EVENT(CLONE) | EV_LIFE,
		NULL, e);
	t_run(t);
	CHECK_EQ(check_passes(UTRACE_EVENT(CLONE), K_CLONE, e, 3, true, -2),
		 1);
	for (int i = 0; i < 3; i++) {
		int k = tlog_find(0, e[i]->id, K_CLONE);

		CHECK_EQ(tlog[k].arg, tlog[tlog_find(0, e[0]->id,
						     K_CLONE)].arg);
		CHECK_EQ(utrace_resume_action(tlog[k].action), UTRACE_RESUME);
	}
	finish3(e, 3);
	utrace_tracer_free(t);
}

int main(void)
{
	return test_main();
}
