/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Events: CLONE (child held until report_clone returns, engines attached
 * there follow the child, unwanted children run untraced), EXEC (also from
 * a non-leader thread), EXIT, DEATH then REAP last, and SIGKILL of held
 * threads.
 */
#include "harness.h"
#include <utrace.h>
#include "tlib.h"
#include <sched.h>

static struct utrace_tracer *g_tracer;

/*
 * report_clone: check that the child is held (after 50 ms it sits in a
 * trace stop), then attach an engine to it with the events in user[0] and
 * the same hook.  user[1] counts children found held; user[2] children not
 * held.
 */
static uint32_t follow_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	struct teng *c;
	pid_t child;

	if (ev->kind != K_CLONE)
		return dflt;
	child = ev->arg;
	for (int i = 0; i < 100 && t_state(child) != 't'; i++)
		t_msleep(5);
	if (t_state(child) == 't')
		te->user[1]++;
	else
		te->user[2]++;
	if (!te->user[0])
		return dflt;
	c = t_attach(g_tracer, child, te->user[0], follow_hook);
	c->user[0] = te->user[0];
	c->user[6] = te->id;
	utrace_engine_put(c->e);
	return dflt;
}

TEST_T(clone_threads_followed_from_report_clone, 10)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	pid_t pid = t_spawn(t, NULL, "threads", "5", NULL);
	unsigned long ev = UTRACE_EVENT(CLONE) | UTRACE_EVENT(SYSCALL_EXIT) |
			   EV_LIFE;
	struct teng *m = t_attach(t, pid, ev, follow_hook);
	int d, kids = 0;

	m->user[0] = ev;
	t_run(t);
	CHECK_EQ(m->n[K_CLONE], 5);
	CHECK_EQ(m->user[1], 5);
	CHECK_EQ(m->user[2], 0);
	for (int i = 0; i < tlog_n; i++) {
		if (tlog[i].eng != m->id || tlog[i].kind != K_CLONE)
			continue;
		CHECK(tlog[i].arg2 & CLONE_THREAD);
		CHECK(tlog[i].arg != (unsigned long)pid);
		CHECK_EQ(tlog[i].tid, pid);
	}
	for (int i = m->id + 1; i < tengs_n; i++) {
		struct teng *c = &tengs[i];

		kids++;
		CHECK_EQ(c->user[6], m->id);
		CHECK(tlog_count_nr(c->id, K_SYSEXIT, SYS_getppid) >= 1);
		for (int j = 0; j < tlog_n; j++)
			if (tlog[j].eng == c->id && tlog[j].kind != K_RELEASE)
				CHECK_EQ(tlog[j].tid, c->tid);
		t_check_death_reap(c);
		CHECK_EQ(tlog[tlog_find(0, c->id, K_DEATH)].arg2, 0);
		CHECK_EQ(c->released, 1);
	}
	CHECK_EQ(kids, 5);
	t_check_death_reap(m);
	d = tlog_find(0, m->id, K_DEATH);
	CHECK(WIFEXITED(tlog[d].arg));
	CHECK_EQ(WEXITSTATUS(tlog[d].arg), 0);
	CHECK_EQ(tlog[d].arg2, 1);
	utrace_engine_put(m->e);
	utrace_tracer_free(t);
}

static uint32_t clone_pid_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_CLONE) {
		te->user[3] = ev->arg;
		for (int i = 0; i < 100 && t_state(ev->arg) != 't'; i++)
			t_msleep(5);
		te->user[4] = t_state(ev->arg);
	}
	return dflt;
}

TEST_T(clone_child_nobody_wants_runs_untraced, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "forkchain", "1", "500", NULL);
	struct teng *m = t_attach(t, pid, UTRACE_EVENT(CLONE) | EV_LIFE,
				  clone_pid_hook);
	pid_t child;
	int d;

	CHECK(DISPATCH_UNTIL(t, m->n[K_CLONE] == 1, 3000));
	child = m->user[3];
	CHECK(child > 0 && child != pid);
	CHECK_EQ(m->user[4], 't');
	CHECK(!(tlog[tlog_find(0, m->id, K_CLONE)].arg2 & CLONE_THREAD));
	/* Once the pass is over the child goes on untraced. */
	CHECK(DISPATCH_UNTIL(t, t_tracer_pid(child) == 0, 2000));
	CHECK(!t_stopped(child));
	t_run(t);
	d = tlog_find(0, m->id, K_DEATH);
	CHECK(d >= 0);
	CHECK(WIFEXITED(tlog[d].arg));
	CHECK_EQ(WEXITSTATUS(tlog[d].arg), 8);
	t_check_death_reap(m);
	utrace_engine_put(m->e);
	utrace_tracer_free(t);
}

TEST_T(exec_leader_former_tid, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "print_exit", "exec", "0", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(EXEC) | EV_LIFE, NULL);
	int x;

	t_run(t);
	CHECK_EQ(a->n[K_EXEC], 1);
	x = tlog_find(0, a->id, K_EXEC);
	CHECK_EQ(tlog[x].arg, pid);
	CHECK_EQ(tlog[x].tid, pid);
	CHECK_STR(t_read_all(out), "exec\n");
	t_check_death_reap(a);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

TEST_T(exec_from_non_leader_thread, 10)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "exec_thread", test_prog("print_exit"),
			    "after exec", "5", NULL);
	unsigned long ev = UTRACE_EVENT(CLONE) | UTRACE_EVENT(EXEC) | EV_LIFE;
	struct teng *l = t_attach(t, pid, ev, follow_hook);
	struct teng *th;
	pid_t thread_tid;
	int x, d;

	l->user[0] = ev;
	t_run(t);
	CHECK_STR(t_read_all(out), "after exec\n");
	CHECK_EQ(l->n[K_CLONE], 1);
	CHECK_EQ(tengs_n, l->id + 2);
	th = &tengs[l->id + 1];
	thread_tid = tlog[tlog_find(0, l->id, K_CLONE)].arg;
	CHECK(thread_tid != pid);
	CHECK_EQ(th->tid, thread_tid);

	/* The thread's engine saw the exec under the leader's id. */
	CHECK_EQ(th->n[K_EXEC], 1);
	x = tlog_find(0, th->id, K_EXEC);
	CHECK_EQ(tlog[x].arg, thread_tid);
	CHECK_EQ(tlog[x].tid, pid);
	t_check_death_reap(th);
	d = tlog_find(0, th->id, K_DEATH);
	CHECK_EQ(tlog[d].tid, pid);
	CHECK(WIFEXITED(tlog[d].arg));
	CHECK_EQ(WEXITSTATUS(tlog[d].arg), 5);
	CHECK_EQ(tlog[d].arg2, 1);

	/*
	 * The old leader's engine: only the exec of exec_thread itself, then
	 * death and reap.
	 */
	CHECK_EQ(l->n[K_EXEC], 1);
	CHECK(tlog_find(0, l->id, K_EXEC) < tlog_find(0, l->id, K_CLONE));
	t_check_death_reap(l);
	CHECK(tlog_find(0, l->id, K_REAP) < d);
	/* Its process lives on: not group_dead, status 0. */
	d = tlog_find(0, l->id, K_DEATH);
	CHECK_EQ(tlog[d].arg2, 0);
	CHECK_EQ(tlog[d].arg, 0);
	utrace_engine_put(l->e);
	utrace_tracer_free(t);
}

TEST_T(exit_death_reap_order, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "print_exit", "", "3", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(EXIT) | EV_LIFE, NULL);
	struct teng *b = t_attach(t, pid, UTRACE_EVENT(EXIT) | EV_LIFE, NULL);
	int x, d;

	utrace_engine_put(b->e);
	t_run(t);
	for (int i = 0; i < 2; i++) {
		struct teng *e = i ? b : a;

		CHECK_EQ(e->n[K_EXIT], 1);
		x = tlog_find(0, e->id, K_EXIT);
		d = tlog_find(0, e->id, K_DEATH);
		CHECK(x >= 0 && d > x);
		CHECK(tlog[x].arg == 3 || tlog[x].arg == 3 << 8);
		CHECK(WIFEXITED(tlog[d].arg));
		CHECK_EQ(WEXITSTATUS(tlog[d].arg), 3);
		CHECK_EQ(tlog[d].arg2, 1);
		CHECK_EQ(tlog[d].tid, pid);
		t_check_death_reap(e);
	}
	CHECK_EQ(b->released, 1);
	CHECK(tlog_find(0, b->id, K_RELEASE) > tlog_find(0, b->id, K_REAP));
	CHECK_EQ(a->released, 0);
	utrace_engine_put(a->e);
	CHECK_EQ(a->released, 1);
	utrace_tracer_free(t);
}

static uint32_t stop_first_entry(struct teng *te, struct tev *ev,
				 uint32_t dflt)
{
	if (ev->kind == K_SYSENTRY && ev->nr == SYS_getppid &&
	    te->user[7] && te->user[0]++ == 0)
		return UTRACE_STOP | utrace_syscall_action(ev->action);
	return dflt;
}

TEST_T(sigkill_thread_held_at_syscall_entry, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "100000000", NULL);
	struct teng *e[3];
	int d;

	for (int i = 0; i < 3; i++)
		e[i] = t_attach(t, pid, UTRACE_EVENT(SYSCALL_ENTRY) | EV_LIFE,
				stop_first_entry);
	e[0]->user[7] = 1;
	CHECK(DISPATCH_UNTIL(t, e[0]->user[0] == 1, 3000));
	t_dispatch_for(t, 200);
	CHECK(t_stopped(pid));
	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	for (int i = 0; i < 3; i++) {
		t_check_death_reap(e[i]);
		d = tlog_find(0, e[i]->id, K_DEATH);
		CHECK(WIFSIGNALED(tlog[d].arg));
		CHECK_EQ(WTERMSIG(tlog[d].arg), SIGKILL);
		utrace_engine_put(e[i]->e);
	}
	CHECK(t_wait_gone(pid, 1000));
	utrace_tracer_free(t);
}

TEST_T(sigkill_thread_held_by_control_stop, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "spin", "10000", NULL);
	struct teng *a = t_attach(t, pid, EV_LIFE, NULL);
	struct teng *b = t_attach(t, pid, UTRACE_EVENT(QUIESCE) | EV_LIFE,
				  NULL);

	t_dispatch_for(t, 200);
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), -EINPROGRESS);
	CHECK(DISPATCH_UNTIL(t, t_stopped(pid), 3000));
	t_dispatch_for(t, 100);
	CHECK(t_stopped(pid));
	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	t_check_death_reap(a);
	t_check_death_reap(b);
	CHECK(t_wait_gone(pid, 1000));
	utrace_engine_put(a->e);
	utrace_engine_put(b->e);
	utrace_tracer_free(t);
}

/* Every thread stops at its first getppid exit; children are followed. */
static uint32_t stop_all_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_CLONE) {
		struct teng *c = t_attach(g_tracer, ev->arg, te->events,
					  stop_all_hook);

		utrace_engine_put(c->e);
		return dflt;
	}
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid &&
	    te->user[0]++ == 0)
		return UTRACE_STOP;
	return dflt;
}

TEST_T(sigkill_process_with_every_thread_held, 10)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	pid_t pid = t_spawn(t, NULL, "threads_idle", "3", "8", NULL);
	unsigned long ev = UTRACE_EVENT(CLONE) | UTRACE_EVENT(SYSCALL_EXIT) |
			   EV_LIFE;
	struct teng *m = t_attach(t, pid, ev, stop_all_hook);
	int held;

	CHECK(DISPATCH_UNTIL(t, ({
		held = 0;
		for (int i = m->id; i < tengs_n; i++)
			held += tengs[i].user[0] > 0;
		held == 4; }), 5000));
	CHECK_EQ(tengs_n, m->id + 4);
	t_dispatch_for(t, 200);
	for (int i = m->id; i < tengs_n; i++) {
		CHECK_EQ(tengs[i].user[0], 1);
		CHECK(t_stopped(tengs[i].tid));
	}
	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	for (int i = m->id; i < tengs_n; i++)
		t_check_death_reap(&tengs[i]);
	CHECK(t_wait_gone(pid, 1000));
	utrace_engine_put(m->e);
	utrace_tracer_free(t);
}

/*
 * user[0] set: hold the thread (STOP from every callback but death/reap);
 * user[1]: 1 to start holding at exec, 2 at clone, 3 at exit.
 */
static uint32_t hold_from_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if ((te->user[1] == 1 && ev->kind == K_EXEC) ||
	    (te->user[1] == 2 && ev->kind == K_CLONE) ||
	    (te->user[1] == 3 && ev->kind == K_EXIT)) {
		te->user[0] = 1;
		te->user[2] = tlog_n;
	}
	if (te->user[0] && ev->kind != K_DEATH && ev->kind != K_REAP)
		return UTRACE_STOP;
	return dflt;
}

static bool fd_has_data(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

static void check_deferred_exec_stop(bool quiesce)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "print_exit", "ran", "0", NULL);
	unsigned long ev = UTRACE_EVENT(EXEC) | EV_LIFE;
	struct teng *a = t_attach(t, pid, ev | (quiesce ?
				  UTRACE_EVENT(QUIESCE) : 0), hold_from_hook);

	a->user[1] = 1;
	CHECK(DISPATCH_UNTIL(t, a->user[0], 3000));
	t_dispatch_for(t, 300);
	CHECK(t_stopped(pid));
	CHECK(!fd_has_data(out));
	if (quiesce) {
		int q = tlog_find(a->user[2], a->id, K_QUIESCE);

		CHECK(q >= 0);
		CHECK_EQ(tlog[q].arg, 0);
	}
	a->user[0] = 0;
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	t_run(t);
	CHECK_STR(t_read_all(out), "ran\n");
	t_check_death_reap(a);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

TEST_T(deferred_stop_from_report_exec_with_quiesce, 10)
{
	check_deferred_exec_stop(true);
}

TEST_T(deferred_stop_from_report_exec_without_quiesce, 10)
{
	check_deferred_exec_stop(false);
}

TEST_T(deferred_stop_from_report_clone_parent_only, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "forkchain", "1", "300", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(CLONE) |
				  UTRACE_EVENT(QUIESCE) | EV_LIFE,
				  hold_from_hook);
	pid_t child;
	int d;

	a->user[1] = 2;
	CHECK(DISPATCH_UNTIL(t, a->user[0], 3000));
	child = tlog[tlog_find(0, a->id, K_CLONE)].arg;
	t_dispatch_for(t, 200);
	CHECK(t_stopped(pid));
	CHECK(!t_stopped(child));
	CHECK_EQ(t_tracer_pid(child), 0);
	a->user[0] = 0;
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	t_run(t);
	d = tlog_find(0, a->id, K_DEATH);
	CHECK_EQ(WEXITSTATUS(tlog[d].arg), 8);
	t_check_death_reap(a);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

TEST_T(stop_at_exit_holds_before_death, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "print_exit", "", "3", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(EXIT) | EV_LIFE,
				  hold_from_hook);
	struct user_regs_struct regs;
	int d;

	a->user[1] = 3;
	CHECK(DISPATCH_UNTIL(t, a->user[0], 3000));
	t_dispatch_for(t, 300);
	CHECK(t_stopped(pid));
	CHECK_EQ(a->n[K_DEATH], 0);
	CHECK_EQ(utrace_regs_get(a->e, &regs), 0);
	a->user[0] = 0;
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	t_run(t);
	d = tlog_find(0, a->id, K_DEATH);
	CHECK(WIFEXITED(tlog[d].arg));
	CHECK_EQ(WEXITSTATUS(tlog[d].arg), 3);
	t_check_death_reap(a);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

static uint32_t stop_child_hook(struct teng *te, struct tev *ev,
				uint32_t dflt)
{
	if (ev->kind == K_CLONE) {
		struct teng *c = t_attach(g_tracer, ev->arg,
					  UTRACE_EVENT(SYSCALL_ENTRY) |
					  UTRACE_EVENT(EXEC) | EV_LIFE, NULL);

		te->user[0] = utrace_control(c->e, UTRACE_STOP);
		te->ptr = c;
	}
	return dflt;
}

/*
 * A new child has not necessarily reached its first ptrace stop when its
 * parent's clone event is reported; an engine that stops it there can
 * still read its registers at once (the library waits for that stop).
 */
static uint32_t regs_child_hook(struct teng *te, struct tev *ev,
				uint32_t dflt)
{
	if (ev->kind == K_CLONE && !te->ptr) {
		struct teng *c = t_attach(g_tracer, ev->arg, EV_LIFE, NULL);
		struct user_regs_struct regs;

		te->user[0] = utrace_control(c->e, UTRACE_STOP);
		memset(&regs, 0, sizeof(regs));
		te->user[1] = utrace_regs_get(c->e, &regs);
		te->user[2] = (long)regs.rip;
		te->user[3] = t_stopped(ev->arg);
		te->ptr = c;
	}
	return dflt;
}

TEST_T(child_regs_readable_in_report_clone, 10)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	pid_t pid = t_spawn(t, NULL, "forkchain", "1", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(CLONE) | EV_LIFE,
				  regs_child_hook);
	struct teng *c;

	CHECK(DISPATCH_UNTIL(t, a->ptr != NULL, 3000));
	c = a->ptr;
	CHECK_EQ(a->user[0], 0);
	CHECK_EQ(a->user[1], 0);
	CHECK(a->user[2] != 0);
	CHECK(a->user[3]);
	CHECK_EQ(utrace_control(c->e, UTRACE_RESUME), 0);
	t_run(t);
	CHECK_EQ(c->n[K_DEATH], 1);
	utrace_engine_put(c->e);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

TEST_T(child_stopped_from_report_clone_never_runs, 10)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	pid_t pid = t_spawn(t, NULL, "forkchain", "1", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(CLONE) | EV_LIFE,
				  stop_child_hook);
	struct teng *c;
	int d;

	CHECK(DISPATCH_UNTIL(t, a->ptr != NULL, 3000));
	c = a->ptr;
	CHECK(a->user[0] == 0 || a->user[0] == -EINPROGRESS);
	t_dispatch_for(t, 300);
	CHECK(t_stopped(c->tid));
	CHECK_EQ(c->n[K_SYSENTRY], 0);
	CHECK_EQ(c->n[K_EXEC], 0);
	CHECK_EQ(utrace_control(c->e, UTRACE_STOP), 0);
	CHECK_EQ(utrace_control(c->e, UTRACE_RESUME), 0);
	t_run(t);
	CHECK_EQ(c->n[K_EXEC], 1);
	CHECK(c->n[K_SYSENTRY] > 0);
	d = tlog_find(0, c->id, K_DEATH);
	CHECK_EQ(WEXITSTATUS(tlog[d].arg), 7);
	d = tlog_find(0, a->id, K_DEATH);
	CHECK_EQ(WEXITSTATUS(tlog[d].arg), 8);
	t_check_death_reap(a);
	t_check_death_reap(c);
	utrace_engine_put(a->e);
	utrace_engine_put(c->e);
	utrace_tracer_free(t);
}

TEST_T(signals_delivered_normally_while_traced, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "sig_self", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE, NULL);
	int d;

	t_run(t);
	CHECK_STR(t_read_all(out), "handled 2\n");
	d = tlog_find(0, a->id, K_DEATH);
	CHECK(WIFEXITED(tlog[d].arg));
	CHECK_EQ(WEXITSTATUS(tlog[d].arg), 0);
	t_check_death_reap(a);
	utrace_engine_put(a->e);

	pid = t_spawn(t, &out, "sig_self", "term", NULL);
	a = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE, NULL);
	t_run(t);
	CHECK_STR(t_read_all(out), "handled 2\n");
	d = tlog_find(0, a->id, K_DEATH);
	CHECK(WIFSIGNALED(tlog[d].arg));
	CHECK_EQ(WTERMSIG(tlog[d].arg), SIGTERM);
	t_check_death_reap(a);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

/* Threads other than the leader stop at their first getppid exit. */
static uint32_t hold_others_hook(struct teng *te, struct tev *ev,
				 uint32_t dflt)
{
	if (ev->kind == K_CLONE) {
		struct teng *c = t_attach(g_tracer, ev->arg, te->events,
					  hold_others_hook);

		c->user[7] = 1;
		utrace_engine_put(c->e);
		return dflt;
	}
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid && te->user[7] &&
	    te->user[0]++ == 0)
		return UTRACE_STOP;
	return dflt;
}

TEST_T(exit_group_by_other_thread_kills_held_threads, 20)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	pid_t pid = t_spawn(t, NULL, "threads_idle", "2", "sig", NULL);
	unsigned long ev = UTRACE_EVENT(CLONE) | UTRACE_EVENT(SYSCALL_EXIT) |
			   EV_LIFE;
	struct teng *m = t_attach(t, pid, ev, hold_others_hook);
	int d;

	CHECK(DISPATCH_UNTIL(t, tengs_n == m->id + 3 &&
			     tengs[m->id + 1].user[0] &&
			     tengs[m->id + 2].user[0], 8000));
	/* The main thread exits the process; the held ones die too. */
	CHECK(kill(pid, SIGUSR1) == 0);
	t_run(t);
	for (int i = m->id; i < tengs_n; i++)
		t_check_death_reap(&tengs[i]);
	CHECK_EQ(tengs[m->id + 1].user[0], 1);
	CHECK_EQ(tengs[m->id + 2].user[0], 1);
	d = tlog_find(0, m->id, K_DEATH);
	CHECK(WIFEXITED(tlog[d].arg));
	CHECK_EQ(WEXITSTATUS(tlog[d].arg), 0);
	CHECK(t_wait_gone(pid, 1000));
	utrace_engine_put(m->e);
	utrace_tracer_free(t);
}

static uint32_t leader_q_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_CLONE) {
		struct teng *c = t_attach(g_tracer, ev->arg,
					  UTRACE_EVENT(EXEC) | EV_LIFE, NULL);

		te->user[1] = utrace_control(c->e, UTRACE_STOP);
		te->ptr = c;
		return dflt;
	}
	if (ev->kind == K_QUIESCE && ev->arg == 0 && te->user[0])
		return UTRACE_STOP;
	return dflt;
}

TEST_T(exec_by_thread_while_leader_held, 10)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "exec_thread", test_prog("print_exit"),
			    "exec while held", "5", NULL);
	struct teng *l = t_attach(t, pid, UTRACE_EVENT(CLONE) |
				  UTRACE_EVENT(QUIESCE) | EV_LIFE,
				  leader_q_hook);
	struct teng *th;
	int d;

	CHECK(DISPATCH_UNTIL(t, l->ptr != NULL, 3000));
	th = l->ptr;
	t_dispatch_for(t, 100);
	l->user[0] = 1;
	CHECK_EQ(utrace_control(l->e, UTRACE_STOP), -EINPROGRESS);
	CHECK(DISPATCH_UNTIL(t, t_stopped(pid) && t_stopped(th->tid), 3000));
	t_dispatch_for(t, 100);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_control(l->e, UTRACE_STOP), 0);
	CHECK_EQ(th->n[K_EXEC], 0);

	CHECK_EQ(utrace_control(th->e, UTRACE_RESUME), 0);
	t_run(t);
	CHECK_STR(t_read_all(out), "exec while held\n");
	CHECK_EQ(th->n[K_EXEC], 1);
	CHECK_EQ(tlog[tlog_find(0, th->id, K_EXEC)].tid, pid);
	t_check_death_reap(l);
	t_check_death_reap(th);
	d = tlog_find(0, th->id, K_DEATH);
	CHECK_EQ(WEXITSTATUS(tlog[d].arg), 5);
	utrace_engine_put(l->e);
	utrace_engine_put(th->e);
	utrace_tracer_free(t);
}

/* Follow clones; hold every new thread at its exit stop. */
static uint32_t hold_child_exit_hook(struct teng *te, struct tev *ev,
				     uint32_t dflt)
{
	if (ev->kind == K_CLONE) {
		struct teng *c = t_attach(g_tracer, ev->arg, te->events,
					  hold_child_exit_hook);

		c->user[5] = 1;
		utrace_engine_put(c->e);
		return dflt;
	}
	if (ev->kind == K_EXIT && te->user[5]) {
		te->user[0] = 1;
		return UTRACE_STOP;
	}
	return dflt;
}

/*
 * A thread that leaves by itself (SYS_exit, not exit_group) is held at its
 * exit stop; SIGKILL to the process wins: death and reap everywhere.
 */
TEST_T(sigkill_thread_held_at_exit, 10)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	pid_t pid = t_spawn(t, NULL, "threads", "1", NULL);
	struct teng *m = t_attach(t, pid, UTRACE_EVENT(CLONE) |
				  UTRACE_EVENT(EXIT) | EV_LIFE,
				  hold_child_exit_hook);
	struct teng *c;

	CHECK(DISPATCH_UNTIL(t, tengs_n == m->id + 2 &&
			     tengs[m->id + 1].user[0], 3000));
	c = &tengs[m->id + 1];
	t_dispatch_for(t, 100);
	CHECK(t_stopped(c->tid));
	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	t_check_death_reap(m);
	t_check_death_reap(c);
	CHECK(t_wait_gone(pid, 1000));
	utrace_engine_put(m->e);
	utrace_tracer_free(t);
}

/*
 * After exit_group() the kernel drops every signal sent to the process,
 * SIGKILL too (documented in utrace(7)): a thread held at its exit stop
 * then stays until released, and dies at once when it is.
 */
TEST_T(exit_group_held_at_exit_dies_when_released, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "print_exit", "", "3", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(EXIT) | EV_LIFE,
				  hold_from_hook);

	a->user[1] = 3;
	CHECK(DISPATCH_UNTIL(t, a->user[0], 3000));
	CHECK(kill(pid, SIGKILL) == 0);
	t_dispatch_for(t, 200);
	CHECK(t_stopped(pid));
	CHECK_EQ(a->n[K_DEATH], 0);
	a->user[0] = 0;
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	t_run(t);
	t_check_death_reap(a);
	CHECK(WIFEXITED(tlog[tlog_find(0, a->id, K_DEATH)].arg));
	CHECK_EQ(WEXITSTATUS(tlog[tlog_find(0, a->id, K_DEATH)].arg), 3);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

int main(void)
{
	return test_main();
}
