/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Stress: 50 threads that start and exit while followed through
 * report_clone; fork/exec chains three deep; many threads held and
 * resumed one by one from the loop.
 */
#include "harness.h"
#include <utrace.h>
#include "tlib.h"
#include <sched.h>

static struct utrace_tracer *g_tracer;

static uint32_t follow_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_CLONE) {
		struct teng *c = t_attach(g_tracer, ev->arg, te->events,
					  follow_hook);

		c->user[6] = te->id;
		c->user[1] = te->user[1];
		utrace_engine_put(c->e);
	}
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid && te->user[1] &&
	    te->user[0]++ == 0)
		return UTRACE_STOP;
	return dflt;
}

TEST_T(stress_50_threads_followed, 20)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	pid_t pid = t_spawn(t, NULL, "threads", "50", NULL);
	unsigned long ev = UTRACE_EVENT(CLONE) | UTRACE_EVENT(SYSCALL_EXIT) |
			   EV_LIFE;
	struct teng *m = t_attach(t, pid, ev, follow_hook);
	int d;

	t_run(t);
	CHECK_EQ(m->n[K_CLONE], 50);
	CHECK_EQ(tengs_n, m->id + 51);
	for (int i = m->id + 1; i < tengs_n; i++) {
		struct teng *c = &tengs[i];

		CHECK_EQ(c->user[6], m->id);
		CHECK_EQ(c->n[K_CLONE], 0);
		CHECK_EQ(tlog_count_nr(c->id, K_SYSEXIT, SYS_getppid), 1);
		t_check_death_reap(c);
		CHECK_EQ(c->released, 1);
	}
	t_check_death_reap(m);
	d = tlog_find(0, m->id, K_DEATH);
	CHECK(WIFEXITED(tlog[d].arg));
	CHECK_EQ(WEXITSTATUS(tlog[d].arg), 0);
	CHECK_EQ(tlog_lost, 0);
	utrace_engine_put(m->e);
	utrace_tracer_free(t);
}

TEST_T(stress_50_threads_each_held_and_resumed, 20)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	pid_t pid = t_spawn(t, NULL, "threads", "50", NULL);
	unsigned long ev = UTRACE_EVENT(CLONE) | UTRACE_EVENT(SYSCALL_EXIT) |
			   EV_LIFE;
	struct teng *m = t_attach(t, pid, ev, follow_hook);
	int resumed = 0, d;
	long dl = t_now_ms() + 15000;

	/* Every thread stops at its getppid exit; the loop resumes it. */
	m->user[1] = 1;
	while (m->n[K_REAP] == 0 && t_now_ms() < dl) {
		CHECK(utrace_dispatch(t, 20) >= 0);
		for (int i = m->id + 1; i < tengs_n; i++) {
			struct teng *c = &tengs[i];
			struct utrace_engine *x;

			if (c->user[0] != 1 || c->user[2])
				continue;
			c->user[2] = 1;
			CHECK_EQ(utrace_attach(t, c->tid,
					       UTRACE_ATTACH_MATCH_DATA, NULL,
					       c, &x), 0);
			CHECK(x == c->e);
			CHECK_EQ(utrace_control(x, UTRACE_STOP), 0);
			CHECK_EQ(utrace_control(x, UTRACE_RESUME), 0);
			utrace_engine_put(x);
			resumed++;
		}
	}
	CHECK(m->n[K_REAP] == 1);
	CHECK_EQ(m->n[K_CLONE], 50);
	CHECK_EQ(resumed, 50);
	for (int i = m->id + 1; i < tengs_n; i++)
		t_check_death_reap(&tengs[i]);
	d = tlog_find(0, m->id, K_DEATH);
	CHECK(WIFEXITED(tlog[d].arg));
	CHECK_EQ(WEXITSTATUS(tlog[d].arg), 0);
	utrace_engine_put(m->e);
	utrace_tracer_free(t);
}

TEST_T(stress_fork_exec_chain_3_deep, 20)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	pid_t pid = t_spawn(t, NULL, "forkchain", "3", NULL);
	unsigned long ev = UTRACE_EVENT(CLONE) | UTRACE_EVENT(EXEC) | EV_LIFE;
	struct teng *m = t_attach(t, pid, ev, follow_hook);
	struct teng *c = m;

	t_run(t);
	CHECK_EQ(tengs_n, m->id + 4);
	for (int depth = 0; depth < 4; depth++) {
		int d, x;

		c = &tengs[m->id + depth];
		if (depth > 0)
			CHECK_EQ(c->user[6], c->id - 1);
		CHECK_EQ(c->n[K_CLONE], depth < 3 ? 1 : 0);
		if (depth < 3) {
			int k = tlog_find(0, c->id, K_CLONE);

			CHECK(!(tlog[k].arg2 & CLONE_THREAD));
			CHECK_EQ(tlog[k].arg, tengs[c->id + 1].tid);
		}
		CHECK_EQ(c->n[K_EXEC], 1);
		x = tlog_find(0, c->id, K_EXEC);
		CHECK_EQ(tlog[x].arg, c->tid);
		t_check_death_reap(c);
		d = tlog_find(0, c->id, K_DEATH);
		CHECK(WIFEXITED(tlog[d].arg));
		CHECK_EQ(WEXITSTATUS(tlog[d].arg), 10 - depth);
		CHECK_EQ(tlog[d].arg2, 1);
	}
	/* The deepest dies first. */
	for (int depth = 0; depth < 3; depth++)
		CHECK(tlog_find(0, m->id + depth, K_DEATH) >
		      tlog_find(0, m->id + depth + 1, K_DEATH));
	utrace_engine_put(m->e);
	utrace_tracer_free(t);
}

TEST_T(vfork_child_followed, 10)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "vfork_exec", test_prog("print_exit"),
			    "vforked", "4", NULL);
	unsigned long ev = UTRACE_EVENT(CLONE) | UTRACE_EVENT(EXEC) | EV_LIFE;
	struct teng *m = t_attach(t, pid, ev, follow_hook);
	struct teng *c;
	int k;

	t_run(t);
	CHECK_STR(t_read_all(out), "vforked\n");
	CHECK_EQ(tengs_n, m->id + 2);
	c = &tengs[m->id + 1];
	k = tlog_find(0, m->id, K_CLONE);
	CHECK(tlog[k].arg2 & CLONE_VFORK);
	CHECK_EQ(c->n[K_EXEC], 1);
	CHECK_EQ(WEXITSTATUS(tlog[tlog_find(0, c->id, K_DEATH)].arg), 4);
	CHECK_EQ(WEXITSTATUS(tlog[tlog_find(0, m->id, K_DEATH)].arg), 5);
	t_check_death_reap(m);
	t_check_death_reap(c);
	utrace_engine_put(m->e);
	utrace_tracer_free(t);
}

TEST_T(vfork_child_not_followed, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "vfork_exec", test_prog("print_exit"),
			    "vforked", "4", NULL);
	struct teng *m = t_attach(t, pid, UTRACE_EVENT(CLONE) | EV_LIFE, NULL);

	t_run(t);
	CHECK_STR(t_read_all(out), "vforked\n");
	CHECK_EQ(m->n[K_CLONE], 1);
	CHECK_EQ(WEXITSTATUS(tlog[tlog_find(0, m->id, K_DEATH)].arg), 5);
	t_check_death_reap(m);
	utrace_engine_put(m->e);
	utrace_tracer_free(t);
}

int main(void)
{
	return test_main();
}
