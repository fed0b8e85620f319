/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * utrace_tracer_free with threads held: every engine gets release, every
 * thread runs on untraced and the process finishes normally.
 */
#include "harness.h"
#include <utrace.h>
#include "tlib.h"

static struct utrace_tracer *g_tracer;

/* Not traced, not stopped, within ms. */
static bool t_wait_free(pid_t tid, int ms)
{
	long dl = t_now_ms() + ms;

	while (t_now_ms() < dl) {
		if (t_tracer_pid(tid) == 0 && !t_stopped(tid))
			return true;
		t_msleep(5);
	}
	return false;
}

static uint32_t hold_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_CLONE) {
		struct teng *c = t_attach(g_tracer, ev->arg, te->events,
					  hold_hook);

		utrace_engine_put(c->e);
		return dflt;
	}
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid &&
	    te->user[0]++ == 0)
		return UTRACE_STOP;
	return dflt;
}

TEST_T(free_with_every_thread_held, 10)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	pid_t pid = t_spawn(t, NULL, "threads_idle", "3", "sig", NULL);
	unsigned long ev = UTRACE_EVENT(CLONE) | UTRACE_EVENT(SYSCALL_EXIT) |
			   EV_LIFE;
	struct teng *m = t_attach(t, pid, ev, hold_hook);
	pid_t tids[8];
	int held, n, st;

	utrace_engine_put(m->e);
	CHECK(DISPATCH_UNTIL(t, ({
		held = 0;
		for (int i = m->id; i < tengs_n; i++)
			held += tengs[i].user[0] > 0;
		held == 4; }), 5000));
	t_dispatch_for(t, 100);
	n = t_tasks(pid, tids, 8);
	CHECK_EQ(n, 4);
	for (int i = 0; i < n; i++)
		CHECK(t_stopped(tids[i]));

	utrace_tracer_free(t);
	CHECK_EQ(t_released_total, 4);
	for (int i = 0; i < n; i++)
		CHECK(t_wait_free(tids[i], 1000));
	CHECK(kill(pid, SIGUSR1) == 0);
	st = t_waitpid(pid, 5000);
	CHECK(WIFEXITED(st));
	CHECK_EQ(WEXITSTATUS(st), 0);
}

TEST_T(free_with_spawn_still_held, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out, st;
	pid_t pid = t_spawn(t, &out, "print_exit", "freed", "6", NULL);
	struct teng *a = t_attach(t, pid, EV_LIFE, NULL);

	utrace_engine_put(a->e);
	utrace_tracer_free(t);
	CHECK_EQ(a->released, 1);
	CHECK_STR(t_read_all(out), "freed\n");
	st = t_waitpid(pid, 3000);
	CHECK(WIFEXITED(st));
	CHECK_EQ(WEXITSTATUS(st), 6);
}

TEST_T(free_with_spawn_held_no_engine, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out, st;
	pid_t pid = t_spawn(t, &out, "print_exit", "bare", "9", NULL);

	utrace_tracer_free(t);
	CHECK_STR(t_read_all(out), "bare\n");
	st = t_waitpid(pid, 3000);
	CHECK(WIFEXITED(st));
	CHECK_EQ(WEXITSTATUS(st), 9);
}

static uint32_t entry_stop_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSENTRY && ev->nr == SYS_getppid &&
	    te->user[0]++ == 0)
		return UTRACE_STOP | utrace_syscall_action(ev->action);
	return dflt;
}

TEST_T(free_with_thread_held_at_syscall_entry, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out, st;
	pid_t pid = t_spawn(t, &out, "syscalls", "ppid2", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(SYSCALL_ENTRY) |
				  EV_LIFE, entry_stop_hook);
	struct teng *b = t_attach(t, pid, UTRACE_EVENT(QUIESCE) | EV_LIFE,
				  NULL);
	char want[64];

	CHECK(DISPATCH_UNTIL(t, a->user[0] == 1, 3000));
	t_dispatch_for(t, 100);
	CHECK(t_stopped(pid));
	utrace_engine_put(a->e);
	utrace_engine_put(b->e);
	utrace_tracer_free(t);
	CHECK_EQ(a->released, 1);
	CHECK_EQ(b->released, 1);
	CHECK(t_wait_free(pid, 1000) || t_gone(pid));
	snprintf(want, sizeof(want), "%d\n%d\n", getpid(), getpid());
	CHECK_STR(t_read_all(out), want);
	st = t_waitpid(pid, 3000);
	CHECK(WIFEXITED(st));
	CHECK_EQ(WEXITSTATUS(st), 0);
}

TEST_T(free_with_thread_stopped_by_control, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "spin", "700", NULL);
	struct teng *a = t_attach(t, pid, EV_LIFE, NULL);
	int st;

	t_dispatch_for(t, 100);
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), -EINPROGRESS);
	CHECK(DISPATCH_UNTIL(t, t_stopped(pid), 3000));
	t_dispatch_for(t, 100);
	CHECK(t_stopped(pid));
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
	CHECK(t_wait_free(pid, 1000));
	st = t_waitpid(pid, 5000);
	CHECK(WIFEXITED(st));
	CHECK_EQ(WEXITSTATUS(st), 0);
}

TEST_T(free_with_seized_process, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = fork();
	struct teng *a;
	int st;

	CHECK(pid >= 0);
	if (pid == 0) {
		execl(test_prog("threads_idle"), "threads_idle", "0", "2",
		      (char *)NULL);
		_exit(126);
	}
	t_msleep(50);
	a = t_attach(t, pid, UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE, NULL);
	CHECK(DISPATCH_UNTIL(t, a->n[K_SYSEXIT] >= 10, 3000));
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
	CHECK(t_wait_free(pid, 1000) || t_gone(pid));
	st = t_waitpid(pid, 8000);
	CHECK(WIFEXITED(st));
	CHECK_EQ(WEXITSTATUS(st), 0);
}

/*
 * Every thread of a spinning process held by an engine (QUIESCE, CLONE),
 * then the process killed, then the tracer freed without another dispatch:
 * the threads die under it while it lets them go.  It must return, and
 * nothing may stay stopped or traced.  Repeated: the order in which the
 * dying threads are seen varies from run to run.
 */
#define SK_THREADS 16
#define SK_ROUNDS 50

static uint32_t sk_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_CLONE) {
		struct teng *c = t_attach(g_tracer, ev->arg, te->events,
					  sk_hook);

		c->user[1] = te->user[1];
		utrace_engine_put(c->e);
		return dflt;
	}
	if (ev->kind == K_QUIESCE && te->user[1]) {
		te->user[0]++;
		return UTRACE_STOP;
	}
	return dflt;
}

static void sk_round(int round)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	char nthreads[16];
	pid_t pid, tids[SK_THREADS + 8];
	struct teng *m;
	int n, st, first;

	snprintf(nthreads, sizeof(nthreads), "%d", SK_THREADS);
	tengs_n = tlog_n = 0;
	pid = t_spawn(t, NULL, "threads_spin", nthreads, "20000", NULL);
	m = t_attach(t, pid, UTRACE_EVENT(QUIESCE) | UTRACE_EVENT(CLONE),
		     sk_hook);
	first = m->id;
	if (!DISPATCH_UNTIL(t, tengs_n - first == SK_THREADS + 1, 5000)) {
		fprintf(stderr, "# round %d: %d engines\n", round,
			tengs_n - first);
		CHECK(0);
	}
	for (int i = first; i < tengs_n; i++) {
		int r;

		tengs[i].user[1] = 1;
		r = utrace_control(tengs[i].e, UTRACE_STOP);
		CHECK(r == 0 || r == -EINPROGRESS);
		/* 0: stopped already (a new thread not run yet): no report. */
		if (r == 0)
			tengs[i].user[0]++;
	}
	if (!DISPATCH_UNTIL(t, ({
		bool all = true;
		for (int i = first; i < tengs_n; i++)
			all = all && tengs[i].user[0] > 0 &&
			      t_stopped(tengs[i].tid);
		all; }), 5000)) {
		for (int i = first; i < tengs_n; i++)
			fprintf(stderr, "# round %d: tid %d quiesce %ld state %c\n",
				round, tengs[i].tid, tengs[i].user[0],
				t_state(tengs[i].tid));
		CHECK(0);
	}
	/* First stops of new threads still queued are handled too. */
	t_dispatch_for(t, 20);
	for (int i = first; i < tengs_n; i++)
		CHECK(t_stopped(tengs[i].tid));
	n = t_tasks(pid, tids, SK_THREADS + 8);
	CHECK_EQ(n, SK_THREADS + 1);

	utrace_engine_put(m->e);
	CHECK_EQ(kill(pid, SIGKILL), 0);
	utrace_tracer_free(t);
	CHECK_EQ(t_released_total, (round + 1) * (SK_THREADS + 1));
	/* Untraced now: the zombie is ours to reap, and nothing is left. */
	for (int i = 0; i < n; i++) {
		int tp = t_tracer_pid(tids[i]);

		CHECK(tp <= 0 || t_gone(tids[i]));
		CHECK(!t_stopped(tids[i]));
	}
	st = t_waitpid(pid, 5000);
	/* -1: the tracer reaped its own killed child already. */
	if (st != -1 && (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)) {
		fprintf(stderr, "# round %d: wait status %#x\n", round, st);
		CHECK(0);
	}
	for (int i = 0; i < n; i++)
		CHECK(t_gone(tids[i]));
}

TEST_T(free_after_sigkill_of_held_threads, 120)
{
	for (int round = 0; round < SK_ROUNDS; round++)
		sk_round(round);
}

int main(void)
{
	return test_main();
}
