/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * utrace_attach: create, exclusive, lookup with MATCH_OPS/MATCH_DATA, and
 * the errors -ENOENT, -EEXIST, -EINVAL, -ESRCH, -EPERM; seizing a running
 * process without stopping it; every thread of a process by tid; engine
 * reference counts and release().
 */
#include "harness.h"
#include <utrace.h>
#include "tlib.h"
#include <sys/ptrace.h>

/* Fork and exec a test program ourselves (not through utrace_spawn). */
static pid_t fork_prog(int *out, const char *prog, const char *arg1,
		       const char *arg2)
{
	int p[2] = { -1, -1 };
	pid_t pid;

	if (out)
		CHECK(pipe2(p, O_CLOEXEC) == 0);
	fflush(NULL);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		const char *path = test_prog(prog);

		if (out)
			dup2(p[1], 1);
		execl(path, prog, arg1, arg2, (char *)NULL);
		_exit(126);
	}
	if (out) {
		close(p[1]);
		*out = p[0];
	}
	return pid;
}

TEST_T(attach_create_lookup_match, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "sleeper", "10", NULL);
	struct teng *a = teng_new(NULL), *b = teng_new(NULL);
	struct teng *c = teng_new(NULL);
	struct utrace_engine *e1 = NULL, *e2 = NULL, *x = NULL;

	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE, &t_ops, a, &e1),
		 0);
	a->e = e1;
	CHECK_EQ(utrace_engine_tid(e1), pid);
	CHECK(utrace_engine_data(e1) == a);

	/* Lookup: any engine, by ops, by data, by both. */
	CHECK_EQ(utrace_attach(t, pid, 0, NULL, NULL, &x), 0);
	CHECK(x == e1);
	utrace_engine_put(x);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_MATCH_OPS, &t_ops, NULL,
			       &x), 0);
	CHECK(x == e1);
	utrace_engine_put(x);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_MATCH_OPS, &t_ops2, NULL,
			       &x), -ENOENT);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_MATCH_DATA, NULL, a, &x),
		 0);
	CHECK(x == e1);
	utrace_engine_put(x);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_MATCH_DATA, NULL, b, &x),
		 -ENOENT);

	/* Exclusive create. */
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE |
			       UTRACE_ATTACH_EXCLUSIVE |
			       UTRACE_ATTACH_MATCH_OPS, &t_ops, b, &x),
		 -EEXIST);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE |
			       UTRACE_ATTACH_EXCLUSIVE, &t_ops2, b, &x),
		 -EEXIST);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE |
			       UTRACE_ATTACH_EXCLUSIVE |
			       UTRACE_ATTACH_MATCH_DATA, &t_ops, a, &x),
		 -EEXIST);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE |
			       UTRACE_ATTACH_EXCLUSIVE |
			       UTRACE_ATTACH_MATCH_OPS, &t_ops2, b, &e2), 0);
	b->e = e2;
	CHECK(e2 != e1);
	CHECK(utrace_engine_data(e2) == b);

	/* Lookup finds the first match in attach order. */
	CHECK_EQ(utrace_attach(t, pid, 0, NULL, NULL, &x), 0);
	CHECK(x == e1);
	utrace_engine_put(x);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_MATCH_OPS, &t_ops2, NULL,
			       &x), 0);
	CHECK(x == e2);
	utrace_engine_put(x);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_MATCH_OPS |
			       UTRACE_ATTACH_MATCH_DATA, &t_ops2, a, &x),
		 -ENOENT);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_MATCH_OPS |
			       UTRACE_ATTACH_MATCH_DATA, &t_ops2, b, &x), 0);
	CHECK(x == e2);
	utrace_engine_put(x);

	/* Non-exclusive create always adds a new engine. */
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE |
			       UTRACE_ATTACH_MATCH_OPS, &t_ops, c, &x), 0);
	CHECK(x != e1 && x != e2);
	CHECK_EQ(utrace_control(x, UTRACE_DETACH), 0);
	utrace_engine_put(x);
	CHECK_EQ(c->released, 1);

	/* A detached engine is not found any more. */
	CHECK_EQ(utrace_control(e1, UTRACE_DETACH), 0);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_MATCH_DATA, NULL, a, &x),
		 -ENOENT);
	CHECK_EQ(utrace_attach(t, pid, 0, NULL, NULL, &x), 0);
	CHECK(x == e2);
	utrace_engine_put(x);

	CHECK_EQ(utrace_set_events(e2, EV_LIFE), 0);
	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	t_check_death_reap(b);
	CHECK_EQ(a->n[K_DEATH], 0);
	utrace_engine_put(e1);
	utrace_engine_put(e2);
	CHECK_EQ(a->released, 1);
	CHECK_EQ(b->released, 1);
	utrace_tracer_free(t);
}

TEST_T(attach_lookup_untraced_enoent, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = fork_prog(NULL, "sleeper", "10", NULL);
	struct utrace_engine *x = NULL;

	CHECK_EQ(utrace_attach(t, pid, 0, NULL, NULL, &x), -ENOENT);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_MATCH_OPS, &t_ops, NULL,
			       &x), -ENOENT);
	CHECK_EQ(t_tracer_pid(pid), 0);
	utrace_tracer_free(t);
	t_kill(pid);
}

TEST_T(attach_null_ops_einval, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "sleeper", "10", NULL);
	struct utrace_engine *x = NULL;
	struct teng *te;

	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE, NULL, NULL, &x),
		 -EINVAL);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE |
			       UTRACE_ATTACH_EXCLUSIVE, NULL, NULL, &x),
		 -EINVAL);
	te = t_attach(t, pid, EV_LIFE, NULL);
	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	t_check_death_reap(te);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

TEST_T(attach_dead_tid_esrch, 10)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_engine *x = NULL;
	pid_t pid = fork();
	int st;

	CHECK(pid >= 0);
	if (pid == 0)
		_exit(0);
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE, &t_ops, NULL, &x),
		 -ESRCH);
	utrace_tracer_free(t);
}

/*
 * A helper process runs its own tracer on a sleeper; our tracer must get
 * -EPERM for that thread.
 */
TEST_T(attach_traced_by_other_tracer_eperm, 10)
{
	struct utrace_tracer *t;
	struct utrace_engine *x = NULL;
	int p[2];
	pid_t helper, spid = -1;

	CHECK(pipe(p) == 0);
	helper = fork();
	CHECK(helper >= 0);
	if (helper == 0) {
		struct utrace_tracer *ht;
		pid_t pid;

		close(p[0]);
		if (utrace_tracer_new(&ht))
			_exit(1);
		pid = t_spawn(ht, NULL, "sleeper", "30", NULL);
		t_attach(ht, pid, EV_LIFE, NULL);
		t_dispatch_for(ht, 100);
		if (write(p[1], &pid, sizeof(pid)) != sizeof(pid))
			_exit(1);
		t_run(ht);
		_exit(0);
	}
	close(p[1]);
	CHECK_EQ(read(p[0], &spid, sizeof(spid)), sizeof(spid));
	CHECK(spid > 0);
	CHECK_EQ(t_tracer_pid(spid), helper);

	t = t_tracer();
	CHECK_EQ(utrace_attach(t, spid, UTRACE_ATTACH_CREATE, &t_ops, NULL,
			       &x), -EPERM);
	CHECK_EQ(utrace_attach(t, spid, 0, NULL, NULL, &x), -ENOENT);
	/* The other tracer keeps it: still traced by the helper. */
	CHECK_EQ(t_tracer_pid(spid), helper);
	utrace_tracer_free(t);
	kill(spid, SIGKILL);
	CHECK_EQ(t_waitpid(helper, 3000), 0);
	CHECK(t_wait_gone(spid, 3000));
}

/* A process traced by a plain ptrace(PTRACE_TRACEME) parent. */
TEST_T(attach_traceme_child_eperm, 10)
{
	struct utrace_tracer *t;
	struct utrace_engine *x = NULL;
	int p[2];
	pid_t helper, gpid = -1;

	CHECK(pipe(p) == 0);
	helper = fork();
	CHECK(helper >= 0);
	if (helper == 0) {
		pid_t g = fork();
		int st;

		if (g == 0) {
			ptrace(PTRACE_TRACEME, 0, NULL, NULL);
			execl(test_prog("sleeper"), "sleeper", "30",
			      (char *)NULL);
			_exit(126);
		}
		/* The exec trap; let it run on. */
		if (waitpid(g, &st, 0) != g)
			_exit(1);
		ptrace(PTRACE_CONT, g, NULL, NULL);
		if (write(p[1], &g, sizeof(g)) != sizeof(g))
			_exit(1);
		waitpid(g, &st, 0);
		_exit(0);
	}
	close(p[1]);
	CHECK_EQ(read(p[0], &gpid, sizeof(gpid)), sizeof(gpid));
	CHECK(gpid > 0);
	CHECK_EQ(t_tracer_pid(gpid), helper);
	t = t_tracer();
	CHECK_EQ(utrace_attach(t, gpid, UTRACE_ATTACH_CREATE, &t_ops, NULL,
			       &x), -EPERM);
	utrace_tracer_free(t);
	kill(gpid, SIGKILL);
	CHECK_EQ(t_waitpid(helper, 3000), 0);
}

TEST_T(attach_running_process_keeps_running, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = fork_prog(&out, "counter", "8", NULL);
	struct teng *te;
	char buf[4096];
	ssize_t n;
	long total = 0, dl;
	int st;

	/* Wait until it runs, then seize it. */
	CHECK(read(out, buf, 1) == 1);
	te = t_attach(t, pid, 0, NULL);
	CHECK_EQ(utrace_engine_tid(te->e), pid);
	CHECK_EQ(t_tracer_pid(pid), getpid());

	/* Without any dispatch, it keeps making progress. */
	CHECK(fcntl(out, F_SETFL, O_NONBLOCK) == 0);
	dl = t_now_ms() + 300;
	while (t_now_ms() < dl) {
		n = read(out, buf, sizeof(buf));
		if (n > 0)
			total += n;
		CHECK(!t_stopped(pid));
		t_msleep(10);
	}
	CHECK(total >= 5);

	/* And while the loop dispatches. */
	total = 0;
	dl = t_now_ms() + 300;
	while (t_now_ms() < dl) {
		CHECK(utrace_dispatch(t, 10) >= 0);
		n = read(out, buf, sizeof(buf));
		if (n > 0)
			total += n;
	}
	CHECK(total >= 5);

	utrace_engine_put(te->e);
	utrace_tracer_free(t);
	CHECK_EQ(t_tracer_pid(pid), 0);
	CHECK(!t_stopped(pid));
	kill(pid, SIGKILL);
	st = t_waitpid(pid, 3000);
	CHECK(WIFSIGNALED(st));
	close(out);
}

static uint32_t tid_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSEXIT && ev->tid != te->tid)
		te->user[0]++;
	return dflt;
}

TEST_T(attach_every_thread_by_tid, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = fork_prog(NULL, "threads_idle", "4", "8");
	pid_t tids[16];
	struct teng *te[16];
	int n = 0, done;

	for (int i = 0; i < 200 && n < 5; i++) {
		n = t_tasks(pid, tids, 16);
		t_msleep(5);
	}
	CHECK_EQ(n, 5);
	for (int i = 0; i < n; i++) {
		te[i] = t_attach(t, tids[i], UTRACE_EVENT(SYSCALL_EXIT) |
				 EV_LIFE, tid_hook);
		CHECK_EQ(utrace_engine_tid(te[i]->e), tids[i]);
	}
	for (int i = 0; i < n; i++)
		CHECK_EQ(t_tracer_pid(tids[i]), getpid());
	CHECK(DISPATCH_UNTIL(t, ({
		done = 0;
		for (int i = 0; i < n; i++)
			done += tlog_count_nr(te[i]->id, K_SYSEXIT,
					      SYS_getppid) >= 3;
		done == n; }), 5000));
	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	for (int i = 0; i < n; i++) {
		CHECK_EQ(te[i]->user[0], 0);
		t_check_death_reap(te[i]);
		utrace_engine_put(te[i]->e);
		CHECK_EQ(te[i]->released, 1);
	}
	utrace_tracer_free(t);
	t_kill(pid);
}

TEST_T(refcount_release_once_on_last_put, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "sleeper", "10", NULL);
	struct teng *a = t_attach(t, pid, 0, NULL);
	struct teng *b = t_attach(t, pid, EV_LIFE, NULL);
	struct utrace_engine *x;

	utrace_engine_get(a->e);
	utrace_engine_put(a->e);
	CHECK_EQ(a->released, 0);
	/* A lookup returns one more reference. */
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_MATCH_DATA, NULL, a, &x),
		 0);
	CHECK(x == a->e);
	CHECK_EQ(utrace_control(a->e, UTRACE_DETACH), 0);
	t_dispatch_for(t, 100);
	CHECK_EQ(a->released, 0);
	utrace_engine_put(x);
	CHECK_EQ(a->released, 0);
	utrace_engine_put(a->e);
	CHECK_EQ(a->released, 1);
	t_dispatch_for(t, 100);
	CHECK_EQ(a->released, 1);

	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	t_check_death_reap(b);
	CHECK_EQ(b->released, 0);
	utrace_engine_put(b->e);
	CHECK_EQ(b->released, 1);
	CHECK_EQ(a->released, 1);
	utrace_tracer_free(t);
}

TEST_T(refcount_release_after_reap_without_caller_ref, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "print_exit", "", "0", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(EXIT) | EV_LIFE, NULL);
	int rp, rl;

	utrace_engine_put(a->e);
	CHECK_EQ(a->released, 0);
	t_run(t);
	t_check_death_reap(a);
	CHECK_EQ(a->released, 1);
	rp = tlog_find(0, a->id, K_REAP);
	rl = tlog_find(0, a->id, K_RELEASE);
	CHECK(rl > rp);
	utrace_tracer_free(t);
	CHECK_EQ(a->released, 1);
}

static uint32_t detach_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid &&
	    ++te->user[0] == 3)
		return UTRACE_DETACH;
	return dflt;
}

TEST_T(refcount_detach_from_callback_releases, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "10", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE,
				  detach_hook);
	struct teng *b = t_attach(t, pid, UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE,
				  NULL);
	int last, rel;

	utrace_engine_put(a->e);
	t_run(t);
	CHECK_EQ(a->user[0], 3);
	CHECK_EQ(a->released, 1);
	CHECK_EQ(a->n[K_DEATH], 0);
	CHECK_EQ(a->n[K_REAP], 0);
	last = tlog_last(a->id, K_RELEASE);
	CHECK_EQ(tlog[last].kind, K_SYSEXIT);
	rel = tlog_find(0, a->id, K_RELEASE);
	CHECK(rel > last);
	CHECK_EQ(tlog_count_nr(b->id, K_SYSEXIT, SYS_getppid), 10);
	t_check_death_reap(b);
	utrace_engine_put(b->e);
	utrace_tracer_free(t);
}

int main(void)
{
	return test_main();
}

/*
 * Take over a thread asleep in read(2), then turn on syscall events: ptrace
 * can start syscall stops only from a stop, so the library interrupts the
 * thread once; it must then go back to sleep in its read, never stay in a
 * tracing stop.  Repeated: the interrupt can land at several points.
 */
TEST_T(takeover_in_blocking_read_then_syscall_events, 60)
{
	for (int round = 0; round < 30; round++) {
		struct utrace_tracer *t = t_tracer();
		struct teng *a = teng_new(NULL);
		struct utrace_engine *e = NULL;
		siginfo_t si;
		int p[2];
		pid_t child;

		CHECK(pipe(p) == 0);
		child = fork();
		CHECK(child >= 0);
		if (child == 0) {
			char c;

			close(p[1]);
			_exit(read(p[0], &c, 1) == 1 ? 0 : 1);
		}
		close(p[0]);
		while (t_state(child) != 'S')
			t_msleep(1);
		CHECK_EQ(utrace_attach(t, child, UTRACE_ATTACH_CREATE, &t_ops,
				       a, &e), 0);
		a->e = e;
		CHECK_EQ(utrace_set_events(e, EV_LIFE), 0);
		if (round & 1)
			t_dispatch_for(t, 20);
		if (round & 2) {
			const long nr = SYS_getppid;

			CHECK_EQ(utrace_set_syscalls(e, &nr, 1), 0);
		}
		CHECK_EQ(utrace_set_events(e, UTRACE_EVENT_SYSCALL | EV_LIFE),
			 0);
		/*
		 * PTRACE_INTERRUPT is asynchronous: the thread may show S
		 * for a while yet.  Its stop is seen first, left to the
		 * library (WNOWAIT); then it must be back in its read.
		 */
		memset(&si, 0, sizeof(si));
		CHECK(waitid(P_PID, child, &si, WSTOPPED | WNOWAIT | __WALL) ==
		      0);
		CHECK_EQ(si.si_code, CLD_TRAPPED);
		if (!DISPATCH_UNTIL(t, t_state(child) == 'S', 3000)) {
			fprintf(stderr, "# round %d: state %c\n", round,
				t_state(child));
			CHECK(0);
		}
		CHECK(write(p[1], "x", 1) == 1);
		close(p[1]);
		t_run(t);
		t_check_death_reap(a);
		CHECK_EQ(WEXITSTATUS(tlog[tlog_find(0, a->id, K_DEATH)].arg),
			 0);
		utrace_engine_put(e);
		utrace_tracer_free(t);
		tlog_n = 0;
	}
}
