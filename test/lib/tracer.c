/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tracer object and its loop: new/free, utrace_run, utrace_break,
 * utrace_fd with poll(), utrace_dispatch with a timeout.
 */
#include "harness.h"
#include <utrace.h>
#include "tlib.h"

static struct utrace_tracer *g_tracer;

TEST_T(tracer_new_free, 5)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_tracer *t2 = t_tracer();

	CHECK(t != t2);
	CHECK(utrace_fd(t) >= 0);
	utrace_tracer_free(t);
	utrace_tracer_free(t2);
}

TEST_T(run_returns_when_nothing_traced, 5)
{
	struct utrace_tracer *t = t_tracer();
	long t0 = t_now_ms();

	t_run(t);
	CHECK(t_now_ms() - t0 < 2000);
	utrace_tracer_free(t);
}

TEST_T(run_returns_after_last_thread_dies, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "print_exit", "x", "4", NULL);
	struct teng *te = t_attach(t, pid, EV_LIFE, NULL);

	t_run(t);
	t_check_death_reap(te);
	CHECK(WIFEXITED(tlog[tlog_find(0, te->id, K_DEATH)].arg));
	CHECK_EQ(WEXITSTATUS(tlog[tlog_find(0, te->id, K_DEATH)].arg), 4);
	CHECK(t_gone(pid));
	/* A second run with nothing left returns at once. */
	t_run(t);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

static void *break_thread(void *arg)
{
	t_msleep(200);
	utrace_break(arg);
	return NULL;
}

TEST_T(break_from_other_thread, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "sleeper", "10", NULL);
	struct teng *te = t_attach(t, pid, EV_LIFE, NULL);
	pthread_t th;
	long t0;

	t0 = t_now_ms();
	CHECK(pthread_create(&th, NULL, break_thread, t) == 0);
	t_run(t);
	pthread_join(th, NULL);
	CHECK(t_now_ms() - t0 >= 150);
	CHECK(t_now_ms() - t0 < 3000);
	CHECK(!t_gone(pid));
	CHECK_EQ(te->n[K_DEATH], 0);

	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	t_check_death_reap(te);
	CHECK(t_gone(pid));
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

static uint32_t break_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid &&
	    ++te->user[0] == 5)
		utrace_break(g_tracer);
	return dflt;
}

TEST_T(break_from_callback, 10)
{
	struct utrace_tracer *t = g_tracer = t_tracer();
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "20", NULL);
	struct teng *te = t_attach(t, pid, UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE,
				   break_hook);

	t_run(t);
	CHECK(te->user[0] >= 5);
	CHECK(te->user[0] < 20);
	CHECK_EQ(te->n[K_DEATH], 0);
	t_run(t);
	CHECK_EQ(te->user[0], 20);
	CHECK_EQ(tlog_count_nr(te->id, K_SYSEXIT, SYS_getppid), 20);
	t_check_death_reap(te);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

TEST_T(fd_poll_then_dispatch, 10)
{
	struct utrace_tracer *t = t_tracer();
	int fd = utrace_fd(t);
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "100", NULL);
	struct teng *te = t_attach(t, pid, UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE,
				   NULL);
	int handled = 0, polls = 0, r;

	CHECK(fd >= 0);
	CHECK_EQ(utrace_fd(t), fd);
	/* The spawn hold ends at the next dispatch. */
	r = utrace_dispatch(t, 0);
	CHECK(r >= 0);
	handled += r;
	while (te->n[K_REAP] == 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		r = poll(&p, 1, 3000);
		CHECK_EQ(r, 1);
		CHECK(p.revents & POLLIN);
		polls++;
		r = utrace_dispatch(t, 0);
		CHECK(r >= 0);
		handled += r;
	}
	CHECK(polls > 0);
	CHECK(handled > 100);
	CHECK_EQ(tlog_count_nr(te->id, K_SYSEXIT, SYS_getppid), 100);
	t_check_death_reap(te);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

static uint32_t stop_first_exit(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid && !te->user[0]++)
		return UTRACE_STOP;
	return dflt;
}

/*
 * utrace_control on the loop thread between two dispatches leaves work for
 * the next dispatch: utrace_fd must poll readable for it, or a poll loop
 * sleeps with the thread held forever.
 */
TEST_T(fd_readable_after_control_outside_dispatch, 10)
{
	struct utrace_tracer *t = t_tracer();
	int fd = utrace_fd(t);
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "3", NULL);
	struct teng *te = t_attach(t, pid, UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE,
				   stop_first_exit);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t v;

	CHECK(fd >= 0);
	CHECK(DISPATCH_UNTIL(t, te->user[0] == 1 && t_stopped(pid), 3000));
	/* Nothing else can come: the only thread is held. */
	CHECK(utrace_dispatch(t, 0) >= 0);
	while (read(fd, &v, sizeof(v)) > 0)
		;
	CHECK_EQ(poll(&p, 1, 100), 0);
	CHECK_EQ(utrace_control(te->e, UTRACE_RESUME), 0);
	CHECK_EQ(poll(&p, 1, 3000), 1);
	t_run(t);
	CHECK_EQ(tlog_count_nr(te->id, K_SYSEXIT, SYS_getppid), 3);
	t_check_death_reap(te);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

TEST_T(dispatch_timeout_and_fd_idle, 10)
{
	struct utrace_tracer *t = t_tracer();
	int fd = utrace_fd(t);
	pid_t pid = t_spawn(t, NULL, "sleeper", "10", NULL);
	struct teng *te = t_attach(t, pid, EV_LIFE, NULL);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	long t0;
	int r;

	t_dispatch_for(t, 300);
	t0 = t_now_ms();
	r = utrace_dispatch(t, 300);
	CHECK_EQ(r, 0);
	CHECK(t_now_ms() - t0 >= 250);
	CHECK(t_now_ms() - t0 < 2000);
	CHECK_EQ(poll(&p, 1, 200), 0);

	CHECK(kill(pid, SIGKILL) == 0);
	CHECK_EQ(poll(&p, 1, 3000), 1);
	CHECK(DISPATCH_UNTIL(t, te->n[K_REAP] == 1, 3000));
	t_check_death_reap(te);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

/* Two tracers, each owned and run by its own thread, side by side. */
struct solo {
	int code;
	int death_status;
	int reaps;
	int released;
	int result;
};

static uint32_t solo_death(struct utrace_engine *e, bool group_dead,
			   int status)
{
	struct solo *s = utrace_engine_data(e);

	s->death_status = status;
	return UTRACE_RESUME;
}

static void solo_reap(struct utrace_engine *e)
{
	struct solo *s = utrace_engine_data(e);

	s->reaps++;
}

static void solo_release(void *data)
{
	struct solo *s = data;

	s->released++;
}

static const struct utrace_engine_ops solo_ops = {
	.report_death = solo_death,
	.report_reap = solo_reap,
	.release = solo_release,
};

static void *solo_thread(void *arg)
{
	struct solo *s = arg, other = { 0 };
	struct utrace_tracer *t;
	struct utrace_engine *e;
	char code[16];
	char *argv[] = { (char *)test_prog("getppid_loop"), "20000", NULL };
	char *argv2[] = { (char *)test_prog("print_exit"), "", code, NULL };
	pid_t pid, pid2;

	snprintf(code, sizeof(code), "%d", s->code);
	s->result = -1;
	if (utrace_tracer_new(&t))
		return NULL;
	if (utrace_spawn(t, argv, NULL, &pid) ||
	    utrace_spawn(t, argv2, NULL, &pid2))
		return NULL;
	if (utrace_attach(t, pid2, UTRACE_ATTACH_CREATE, &solo_ops, s, &e) ||
	    utrace_set_events(e, EV_LIFE))
		return NULL;
	utrace_engine_put(e);
	if (utrace_attach(t, pid, UTRACE_ATTACH_CREATE, &solo_ops, &other,
			  &e) ||
	    utrace_set_events(e, UTRACE_EVENT_SYSCALL))
		return NULL;
	utrace_engine_put(e);
	if (utrace_run(t) < 0)
		return NULL;
	utrace_tracer_free(t);
	s->result = other.reaps == 0 && other.released == 1 ? 0 : -2;
	return NULL;
}

TEST_T(two_tracers_in_two_threads, 10)
{
	struct solo s[2] = { { .code = 11 }, { .code = 22 } };
	pthread_t th[2];

	for (int i = 0; i < 2; i++)
		CHECK(pthread_create(&th[i], NULL, solo_thread, &s[i]) == 0);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(s[i].result, 0);
		CHECK(WIFEXITED(s[i].death_status));
		CHECK_EQ(WEXITSTATUS(s[i].death_status), s[i].code);
		CHECK_EQ(s[i].reaps, 1);
		CHECK_EQ(s[i].released, 1);
	}
}

/*
 * Two tracers made by one thread share its wait queue: each must get its
 * own threads' statuses, including the first stops of new children, when
 * the other one's waitpid(-1) collects them.
 */
static uint32_t follow_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_CLONE) {
		struct teng *c = t_attach((struct utrace_tracer *)te->user[5],
					  (pid_t)ev->arg, te->events,
					  follow_hook);

		c->user[5] = te->user[5];
		c->user[6] = te->user[6];
	}
	return dflt;
}

TEST_T(two_tracers_on_one_thread, 15)
{
	struct utrace_tracer *t[2] = { t_tracer(), t_tracer() };
	struct teng *a[2];
	long dl = t_now_ms() + 10000;

	for (int i = 0; i < 2; i++) {
		pid_t pid = t_spawn(t[i], NULL, "forkchain", "2", "100", NULL);

		a[i] = t_attach(t[i], pid, UTRACE_EVENT(CLONE) |
				UTRACE_EVENT_SYSCALL | EV_LIFE, follow_hook);
		a[i]->user[5] = (long)t[i];
		a[i]->user[6] = i;
	}
	while ((!a[0]->n[K_REAP] || !a[1]->n[K_REAP]) && t_now_ms() < dl)
		for (int i = 0; i < 2; i++)
			CHECK(utrace_dispatch(t[i], 5) >= 0);
	for (int i = 0; i < 2; i++) {
		int d = tlog_find(0, a[i]->id, K_DEATH);

		CHECK(d >= 0);
		CHECK(WIFEXITED(tlog[d].arg));
		CHECK_EQ(WEXITSTATUS(tlog[d].arg), 9);
		t_check_death_reap(a[i]);
	}
	/* Three processes per tree, each followed by its own tracer. */
	CHECK_EQ(tlog_count(-1, K_CLONE), 4);
	CHECK_EQ(tlog_count(-1, K_REAP), 6);
	for (int i = 0; i < 2; i++)
		utrace_tracer_free(t[i]);
}

/* A second tracer of the same thread: -EPERM, and freeing it is harmless. */
TEST_T(second_tracer_on_one_thread_eperm_then_free, 10)
{
	struct utrace_tracer *t = t_tracer(), *t2;
	pid_t pid = t_spawn(t, NULL, "spin", "3000", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(QUIESCE), NULL);
	struct utrace_engine *e = NULL;

	t_dispatch_for(t, 50);
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), -EINPROGRESS);
	t2 = t_tracer();
	CHECK_EQ(utrace_attach(t2, pid, UTRACE_ATTACH_CREATE, &t_ops, NULL,
			       &e), -EPERM);
	t_msleep(50);		/* the stop is reported by now */
	utrace_tracer_free(t2);
	utrace_tracer_free(t);
	CHECK_EQ(t_tracer_pid(pid), 0);
	CHECK(!t_stopped(pid));
	t_kill(pid);
}

/*
 * Calls from another thread while nothing runs the loop.  They wait for
 * the loop thread to dispatch; once it has exited (or utrace_tracer_free
 * has begun) nothing ever will, and they return -EDEADLK instead.
 */
struct noloop {
	struct utrace_tracer *t;
	struct teng *te;
	pid_t pid;
	int ready, calling, ret;
	pid_t caller_tid;
};

static void *noloop_owner(void *arg)
{
	struct noloop *n = arg;

	n->t = t_tracer();
	n->pid = t_spawn(n->t, NULL, "sleeper", "10", NULL);
	n->te = t_attach(n->t, n->pid, EV_LIFE, NULL);
	t_dispatch_for(n->t, 50);
	__atomic_store_n(&n->ready, 1, __ATOMIC_SEQ_CST);
	/* Exit, never to dispatch again, while the caller may be waiting. */
	while (!__atomic_load_n(&n->calling, __ATOMIC_SEQ_CST))
		t_msleep(1);
	t_msleep(20);
	return NULL;
}

static void *noloop_caller(void *arg)
{
	struct noloop *n = arg;

	while (!__atomic_load_n(&n->ready, __ATOMIC_SEQ_CST))
		t_msleep(1);
	__atomic_store_n(&n->caller_tid, (pid_t)syscall(SYS_gettid),
			 __ATOMIC_SEQ_CST);
	__atomic_store_n(&n->calling, 1, __ATOMIC_SEQ_CST);
	n->ret = utrace_control(n->te->e, UTRACE_STOP);
	return NULL;
}

TEST_T(call_after_loop_thread_exited_edeadlk, 10)
{
	struct noloop n;
	pthread_t owner, caller;
	struct user_regs_struct regs;

	memset(&n, 0, sizeof(n));
	CHECK(pthread_create(&owner, NULL, noloop_owner, &n) == 0);
	CHECK(pthread_create(&caller, NULL, noloop_caller, &n) == 0);
	pthread_join(caller, NULL);
	pthread_join(owner, NULL);
	/* Waiting when the loop thread went away: dropped, not hung. */
	CHECK_EQ(n.ret, -EDEADLK);
	/* And every call made afterwards fails at once. */
	CHECK_EQ(utrace_control(n.te->e, UTRACE_RESUME), -EDEADLK);
	CHECK_EQ(utrace_barrier(n.te->e), -EDEADLK);
	CHECK_EQ(utrace_set_events(n.te->e, EV_LIFE), -EDEADLK);
	CHECK_EQ(utrace_regs_get(n.te->e, &regs), -EDEADLK);
	/* The loop thread's exit ended the tracing (or killed the child). */
	for (int i = 0; i < 400 && t_tracer_pid(n.pid) > 0 && !t_gone(n.pid);
	     i++)
		t_msleep(5);
	CHECK(t_tracer_pid(n.pid) <= 0 || t_gone(n.pid));
	t_kill(n.pid);
}

static void *free_caller(void *arg)
{
	struct noloop *n = arg;

	__atomic_store_n(&n->caller_tid, (pid_t)syscall(SYS_gettid),
			 __ATOMIC_SEQ_CST);
	n->ret = utrace_control(n->te->e, UTRACE_STOP);
	__atomic_store_n(&n->calling, 2, __ATOMIC_SEQ_CST);
	return NULL;
}

TEST_T(call_waiting_when_tracer_freed_returns, 10)
{
	struct noloop n;
	pthread_t caller;
	pid_t tid;

	memset(&n, 0, sizeof(n));
	n.t = t_tracer();
	n.pid = t_spawn(n.t, NULL, "sleeper", "10", NULL);
	n.te = t_attach(n.t, n.pid, EV_LIFE, NULL);
	t_dispatch_for(n.t, 50);
	CHECK(pthread_create(&caller, NULL, free_caller, &n) == 0);
	/* The caller sleeps in the library, its call queued: no dispatch. */
	while (!(tid = __atomic_load_n(&n.caller_tid, __ATOMIC_SEQ_CST)))
		t_msleep(1);
	while (t_state(tid) != 'S')
		t_msleep(1);
	t_msleep(20);
	CHECK_EQ(__atomic_load_n(&n.calling, __ATOMIC_SEQ_CST), 0);
	utrace_tracer_free(n.t);
	pthread_join(caller, NULL);
	/* Run by the tear-down, or dropped by it: either way it returned. */
	CHECK(n.ret == 0 || n.ret == -EINPROGRESS || n.ret == -EDEADLK);
	CHECK(t_tracer_pid(n.pid) == 0 || t_gone(n.pid));
	utrace_engine_put(n.te->e);
	t_kill(n.pid);
}

int main(void)
{
	return test_main();
}
