/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * utrace_control with all seven actions and their return codes,
 * utrace_set_events, utrace_barrier, calls from another thread, and the
 * -ESRCH / -EALREADY interlocks around detach and death.
 */
#include "harness.h"
#include <utrace.h>
#include "tlib.h"

TEST_T(control_bad_actions_einval, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "sleeper", "10", NULL);
	struct teng *a = t_attach(t, pid, EV_LIFE, NULL);

	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME_MAX), -EINVAL);
	CHECK_EQ(utrace_control(a->e, (enum utrace_resume_action)100),
		 -EINVAL);
	/* REPORT, SINGLESTEP and BLOCKSTEP need QUIESCE. */
	CHECK_EQ(utrace_control(a->e, UTRACE_REPORT), -EINVAL);
	CHECK_EQ(utrace_control(a->e, UTRACE_SINGLESTEP), -EINVAL);
	CHECK_EQ(utrace_control(a->e, UTRACE_BLOCKSTEP), -EINVAL);
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	CHECK_EQ(utrace_set_events(a->e, EV_LIFE | UTRACE_EVENT(QUIESCE)), 0);
	CHECK_EQ(utrace_control(a->e, UTRACE_REPORT), 0);
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME_MAX), -EINVAL);

	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	t_check_death_reap(a);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

TEST_T(control_stop_on_held_spawn_returns_0_and_holds, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "print_exit", "late", "0", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(QUIESCE) |
				  UTRACE_EVENT(EXEC) | EV_LIFE, NULL);

	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), 0);
	t_dispatch_for(t, 300);
	CHECK_EQ(a->n[K_EXEC], 0);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), 0);
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	t_run(t);
	CHECK_EQ(a->n[K_EXEC], 1);
	CHECK_STR(t_read_all(out), "late\n");
	t_check_death_reap(a);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

static uint64_t step_ips[64];
static int step_nips;

/*
 * Event-0 reports: user[0] is the mode (0 resume, 1 stop, 2 single-step,
 * 3 block-step), user[2] the steps left; user[1] counts the reports and
 * user[5] the ones where utrace_syscall_get did not say "no syscall".
 */
static uint32_t ctl_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	struct user_regs_struct regs;
	struct utrace_syscall sc;

	if (ev->kind != K_QUIESCE || ev->arg != 0)
		return dflt;
	__atomic_add_fetch(&te->user[1], 1, __ATOMIC_SEQ_CST);
	if (utrace_syscall_get(te->e, &sc) != 0 || sc.nr != -1)
		te->user[5]++;
	if (utrace_regs_get(te->e, &regs) == 0 && step_nips < 64)
		step_ips[step_nips++] = regs.rip;
	switch (__atomic_load_n(&te->user[0], __ATOMIC_SEQ_CST)) {
	case 1:
		return UTRACE_STOP;
	case 2:
		if (te->user[2]-- > 0)
			return UTRACE_SINGLESTEP;
		return UTRACE_STOP;
	case 3:
		if (te->user[2]-- > 0)
			return UTRACE_BLOCKSTEP;
		return UTRACE_STOP;
	}
	return UTRACE_RESUME;
}

TEST_T(control_all_seven_actions, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "spin", "10000", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(QUIESCE) | EV_LIFE,
				  ctl_hook);
	long q;
	int distinct = 0;

	t_dispatch_for(t, 200);
	CHECK(!t_stopped(pid));

	/* INTERRUPT and REPORT on a running thread: one event-0 report. */
	q = a->user[1];
	CHECK_EQ(utrace_control(a->e, UTRACE_INTERRUPT), 0);
	CHECK(DISPATCH_UNTIL(t, a->user[1] > q, 3000));
	q = a->user[1];
	CHECK_EQ(utrace_control(a->e, UTRACE_REPORT), 0);
	CHECK(DISPATCH_UNTIL(t, a->user[1] > q, 3000));
	t_dispatch_for(t, 100);
	CHECK(!t_stopped(pid));

	/* STOP on a running thread is in progress, then done. */
	q = a->user[1];
	a->user[0] = 1;
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), -EINPROGRESS);
	CHECK(DISPATCH_UNTIL(t, a->user[1] > q, 3000));
	t_dispatch_for(t, 200);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), 0);

	/* SINGLESTEP: one event-0 report per step. */
	q = a->user[1];
	step_nips = 0;
	a->user[0] = 2;
	a->user[2] = 3;
	CHECK_EQ(utrace_control(a->e, UTRACE_SINGLESTEP), 0);
	CHECK(DISPATCH_UNTIL(t, a->user[1] >= q + 4, 3000));
	t_dispatch_for(t, 100);
	CHECK_EQ(a->user[1], q + 4);
	CHECK(t_stopped(pid));
	for (int i = 1; i < step_nips; i++)
		distinct += step_ips[i] != step_ips[i - 1];
	CHECK(distinct >= 2);

	/* BLOCKSTEP likewise. */
	q = a->user[1];
	a->user[0] = 3;
	a->user[2] = 2;
	CHECK_EQ(utrace_control(a->e, UTRACE_BLOCKSTEP), 0);
	CHECK(DISPATCH_UNTIL(t, a->user[1] >= q + 3, 3000));
	t_dispatch_for(t, 100);
	CHECK_EQ(a->user[1], q + 3);
	CHECK(t_stopped(pid));
	CHECK_EQ(a->user[5], 0);

	/* RESUME lets it run. */
	a->user[0] = 0;
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	t_dispatch_for(t, 200);
	CHECK(!t_stopped(pid));

	/* DETACH, then the engine is dead to every call. */
	CHECK_EQ(utrace_control(a->e, UTRACE_DETACH), 0);
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), -ESRCH);
	q = a->user[1];
	t_run(t);
	CHECK_EQ(a->user[1], q);
	CHECK_EQ(a->n[K_DEATH], 0);
	CHECK_EQ(t_tracer_pid(pid), 0);
	CHECK(!t_stopped(pid));
	utrace_engine_put(a->e);
	CHECK_EQ(a->released, 1);
	utrace_tracer_free(t);
	t_kill(pid);
}

TEST_T(control_stop_without_quiesce_holds, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "spin", "10000", NULL);
	struct teng *a = t_attach(t, pid, EV_LIFE, NULL);

	t_dispatch_for(t, 200);
	CHECK(!t_stopped(pid));
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), -EINPROGRESS);
	CHECK(DISPATCH_UNTIL(t, t_stopped(pid), 3000));
	t_dispatch_for(t, 300);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), 0);
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	t_dispatch_for(t, 200);
	CHECK(!t_stopped(pid));
	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	t_check_death_reap(a);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

TEST_T(control_after_detach_esrch, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "sleeper", "10", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(QUIESCE) | EV_LIFE,
				  NULL);
	struct teng *b = t_attach(t, pid, EV_LIFE, NULL);
	struct user_regs_struct regs;
	struct utrace_syscall sc;
	unsigned long args[6] = { 0 };
	long nr = SYS_getppid;
	char buf[16];
	int r;

	t_dispatch_for(t, 100);
	CHECK_EQ(utrace_control(a->e, UTRACE_DETACH), 0);
	CHECK_EQ(utrace_set_events(a->e, EV_LIFE), -ESRCH);
	for (int act = UTRACE_STOP; act < UTRACE_RESUME_MAX; act++)
		CHECK_EQ(utrace_control(a->e, act), -ESRCH);
	CHECK_EQ(utrace_syscall_get(a->e, &sc), -ESRCH);
	CHECK_EQ(utrace_syscall_set_nr(a->e, nr), -ESRCH);
	CHECK_EQ(utrace_syscall_set_args(a->e, args), -ESRCH);
	CHECK_EQ(utrace_syscall_set_return(a->e, 0), -ESRCH);
	CHECK_EQ(utrace_regs_get(a->e, &regs), -ESRCH);
	CHECK_EQ(utrace_mem_read(a->e, 0x1000, buf, 4), -ESRCH);
	CHECK_EQ(utrace_mem_write(a->e, 0x1000, buf, 4), -ESRCH);
	CHECK_EQ(utrace_mem_read_string(a->e, 0x1000, buf, sizeof(buf)),
		 -ESRCH);
	CHECK_EQ(utrace_set_syscalls(a->e, &nr, 1), -ESRCH);
	r = utrace_barrier(a->e);
	CHECK(r == 0 || r == -ESRCH);
	CHECK_EQ(a->released, 0);
	utrace_engine_put(a->e);
	CHECK_EQ(a->released, 1);

	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	CHECK_EQ(tlog_count(a->id, -1), 1);	/* only the release */
	t_check_death_reap(b);
	utrace_engine_put(b->e);
	utrace_tracer_free(t);
}

/* Checks made inside report_death; results in user[0..5]. */
static uint32_t death_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	struct user_regs_struct regs;

	if (ev->kind != K_DEATH)
		return dflt;
	te->user[0] = utrace_control(te->e, UTRACE_DETACH);
	te->user[1] = utrace_control(te->e, UTRACE_RESUME);
	te->user[2] = utrace_control(te->e, UTRACE_STOP);
	te->user[3] = utrace_regs_get(te->e, &regs);
	te->user[4] = utrace_set_events(te->e, te->events |
					UTRACE_EVENT(QUIESCE));
	te->user[5] = utrace_set_events(te->e, UTRACE_EVENT(REAP));
	return dflt;
}

TEST_T(control_inside_death_ealready, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "print_exit", "", "0", NULL);
	struct teng *a = t_attach(t, pid, EV_LIFE, death_hook);
	int r;

	t_run(t);
	CHECK_EQ(a->n[K_DEATH], 1);
	CHECK_EQ(a->user[0], -EALREADY);
	CHECK_EQ(a->user[1], -ESRCH);
	CHECK_EQ(a->user[2], -ESRCH);
	CHECK_EQ(a->user[3], -ESRCH);
	CHECK_EQ(a->user[4], -EALREADY);
	CHECK_EQ(a->user[5], -EALREADY);
	/* DETACH failed with -EALREADY: the engine still gets its reap. */
	t_check_death_reap(a);
	CHECK_EQ(utrace_control(a->e, UTRACE_DETACH), -ESRCH);
	CHECK_EQ(utrace_set_events(a->e, EV_LIFE), -ESRCH);
	r = utrace_barrier(a->e);
	CHECK_EQ(r, -ESRCH);
	CHECK_EQ(a->released, 0);
	utrace_engine_put(a->e);
	CHECK_EQ(a->released, 1);
	utrace_tracer_free(t);
}

static uint32_t detach_in_death(struct teng *te, struct tev *ev,
				uint32_t dflt)
{
	return ev->kind == K_DEATH ? UTRACE_DETACH : dflt;
}

TEST_T(detach_from_report_death_skips_reap, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "print_exit", "", "0", NULL);
	struct teng *a = t_attach(t, pid, EV_LIFE, detach_in_death);
	struct teng *b = t_attach(t, pid, EV_LIFE, NULL);

	utrace_engine_put(a->e);
	t_run(t);
	CHECK_EQ(a->n[K_DEATH], 1);
	CHECK_EQ(a->n[K_REAP], 0);
	CHECK_EQ(a->released, 1);
	t_check_death_reap(b);
	utrace_engine_put(b->e);
	utrace_tracer_free(t);
}

static uint32_t unset_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSENTRY && ev->nr == SYS_getppid &&
	    ++te->user[0] == 3) {
		te->user[1] = utrace_set_events(te->e, EV_LIFE);
		te->user[2] = tlog_n;
	}
	return dflt;
}

TEST_T(set_events_remove_in_callback, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "10", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(SYSCALL_ENTRY) |
				  EV_LIFE, unset_hook);

	a->user[1] = 1;
	t_run(t);
	CHECK_EQ(a->user[1], 0);
	CHECK_EQ(tlog_count_nr(a->id, K_SYSENTRY, SYS_getppid), 3);
	CHECK_EQ(tlog_find(a->user[2], a->id, K_SYSENTRY), -1);
	t_check_death_reap(a);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

static uint32_t stop_nth_exit(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid &&
	    ++te->user[0] == te->user[1])
		return UTRACE_STOP;
	return dflt;
}

TEST_T(set_events_while_stopped, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "10", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(SYSCALL_EXIT) |
				  UTRACE_EVENT(SYSCALL_ENTRY) | EV_LIFE,
				  stop_nth_exit);
	int n;

	a->user[1] = 2;
	CHECK(DISPATCH_UNTIL(t, a->user[0] == 2, 3000));
	t_dispatch_for(t, 100);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_set_events(a->e, UTRACE_EVENT(SYSCALL_ENTRY) |
				   EV_LIFE), 0);
	n = a->n[K_SYSEXIT];
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	t_run(t);
	CHECK_EQ(a->n[K_SYSEXIT], n);
	CHECK_EQ(tlog_count_nr(a->id, K_SYSENTRY, SYS_getppid), 10);
	t_check_death_reap(a);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

static uint32_t barrier_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSEXIT && te->user[0]++ == 0)
		te->user[1] = utrace_barrier(te->e);
	return dflt;
}

TEST_T(barrier_returns, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "5", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE,
				  barrier_hook);

	a->user[1] = 1;
	CHECK_EQ(utrace_barrier(a->e), 0);
	t_run(t);
	CHECK_EQ(a->user[1], 0);
	t_check_death_reap(a);
	CHECK_EQ(utrace_barrier(a->e), -ESRCH);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

struct xthread {
	struct teng *a;
	pid_t pid;
	int r[8];
};

static uint32_t xthread_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_QUIESCE && ev->arg == 0 &&
	    __atomic_load_n(&te->user[0], __ATOMIC_SEQ_CST))
		return UTRACE_STOP;
	return dflt;
}

static void *xthread_fn(void *arg)
{
	struct xthread *x = arg;
	struct teng *a = x->a;
	long dl;

	t_msleep(200);
	__atomic_store_n(&a->user[0], 1, __ATOMIC_SEQ_CST);
	x->r[0] = utrace_control(a->e, UTRACE_STOP);
	dl = t_now_ms() + 3000;
	while (!__atomic_load_n(&a->n[K_QUIESCE], __ATOMIC_SEQ_CST) &&
	       t_now_ms() < dl)
		t_msleep(5);
	t_msleep(200);
	x->r[1] = t_stopped(x->pid);
	x->r[2] = utrace_control(a->e, UTRACE_STOP);
	x->r[3] = utrace_set_events(a->e, UTRACE_EVENT(QUIESCE) | EV_LIFE |
				    UTRACE_EVENT(EXIT));
	__atomic_store_n(&a->user[0], 0, __ATOMIC_SEQ_CST);
	x->r[4] = utrace_control(a->e, UTRACE_RESUME);
	t_msleep(200);
	x->r[5] = !t_stopped(x->pid);
	x->r[6] = utrace_barrier(a->e);
	kill(x->pid, SIGKILL);
	return NULL;
}

TEST_T(control_from_another_thread, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "spin", "10000", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(QUIESCE) | EV_LIFE,
				  xthread_hook);
	struct xthread x = { .a = a, .pid = pid };
	pthread_t th;

	CHECK(pthread_create(&th, NULL, xthread_fn, &x) == 0);
	t_run(t);
	pthread_join(th, NULL);
	CHECK_EQ(x.r[0], -EINPROGRESS);
	CHECK_EQ(x.r[1], 1);
	CHECK_EQ(x.r[2], 0);
	CHECK_EQ(x.r[3], 0);
	CHECK_EQ(x.r[4], 0);
	CHECK_EQ(x.r[5], 1);
	CHECK_EQ(x.r[6], 0);
	t_check_death_reap(a);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

static uint32_t read_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_QUIESCE && ev->arg == 0 && te->user[0])
		return UTRACE_STOP;
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_read) {
		struct utrace_syscall sc;

		CHECK_EQ(utrace_syscall_get(te->e, &sc), 0);
		te->user[1] = sc.ret;
		te->user[2]++;
	}
	return dflt;
}

TEST_T(stop_on_blocked_read_then_read_completes, 10)
{
	struct utrace_tracer *t = t_tracer();
	int in[2], saved, out;
	pid_t pid;
	struct teng *a;

	CHECK(pipe2(in, O_CLOEXEC) == 0);
	saved = fcntl(0, F_DUPFD_CLOEXEC, 10);
	CHECK(saved >= 0);
	CHECK(dup2(in[0], 0) == 0);
	pid = t_spawn(t, &out, "block_read", NULL);
	CHECK(dup2(saved, 0) == 0);
	close(saved);
	close(in[0]);
	a = t_attach(t, pid, UTRACE_EVENT(QUIESCE) | UTRACE_EVENT(SYSCALL_EXIT) |
		     EV_LIFE, read_hook);

	/* Asleep in read(2), not stopped: however loaded the machine is. */
	CHECK(DISPATCH_UNTIL(t, t_state(pid) == 'S', 5000));
	a->user[0] = 1;
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), -EINPROGRESS);
	CHECK(DISPATCH_UNTIL(t, t_stopped(pid), 3000));
	t_dispatch_for(t, 200);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), 0);
	a->user[0] = 0;
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	CHECK(DISPATCH_UNTIL(t, t_state(pid) == 'S', 5000));
	CHECK_EQ(write(in[1], "data\n", 5), 5);
	close(in[1]);
	t_run(t);
	CHECK_STR(t_read_all(out), "got:data\n");
	CHECK_EQ(a->user[1], 5);
	t_check_death_reap(a);
	CHECK_EQ(WEXITSTATUS(tlog[tlog_find(0, a->id, K_DEATH)].arg), 0);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

TEST_T(detach_releases_its_stop, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "syscalls", "mix", "5", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE,
				  stop_nth_exit);
	struct teng *b = t_attach(t, pid, UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE,
				  NULL);

	a->user[1] = 2;
	CHECK(DISPATCH_UNTIL(t, a->user[0] == 2 && b->n[K_SYSEXIT] > 0 &&
			     tlog[tlog_n - 1].eng == b->id, 3000));
	t_dispatch_for(t, 200);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_control(a->e, UTRACE_DETACH), 0);
	t_run(t);
	CHECK_STR(t_read_all(out), "done\n");
	CHECK_EQ(tlog_count_nr(b->id, K_SYSEXIT, SYS_getppid), 5);
	CHECK_EQ(tlog_count_nr(a->id, K_SYSEXIT, SYS_getppid), 2);
	CHECK_EQ(a->n[K_DEATH], 0);
	t_check_death_reap(b);
	utrace_engine_put(a->e);
	utrace_engine_put(b->e);
	utrace_tracer_free(t);
}

TEST_T(detach_last_engine_while_held_lets_it_finish, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "syscalls", "mix", "5", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE,
				  stop_nth_exit);

	a->user[1] = 2;
	CHECK(DISPATCH_UNTIL(t, a->user[0] == 2, 3000));
	t_dispatch_for(t, 200);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_control(a->e, UTRACE_DETACH), 0);
	t_run(t);
	CHECK_STR(t_read_all(out), "done\n");
	CHECK_EQ(a->n[K_DEATH], 0);
	utrace_engine_put(a->e);
	CHECK_EQ(a->released, 1);
	utrace_tracer_free(t);
	t_kill(pid);
}

TEST_T(set_events_zero_means_no_callbacks, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "5", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT_SYSCALL |
				  UTRACE_EVENT(QUIESCE) | UTRACE_EVENT(EXEC) |
				  UTRACE_EVENT(EXIT) | EV_LIFE, NULL);
	struct teng *b = t_attach(t, pid, UTRACE_EVENT_SYSCALL |
				  UTRACE_EVENT(EXEC) | UTRACE_EVENT(EXIT) |
				  EV_LIFE, NULL);

	CHECK_EQ(utrace_set_events(a->e, 0), 0);
	t_run(t);
	CHECK_EQ(tlog_count(a->id, -1), 0);
	CHECK(b->n[K_SYSENTRY] > 5);
	CHECK_EQ(b->n[K_EXEC], 1);
	CHECK_EQ(b->n[K_EXIT], 1);
	t_check_death_reap(b);
	utrace_engine_put(a->e);
	utrace_engine_put(b->e);
	CHECK_EQ(a->released, 1);
	utrace_tracer_free(t);
}

int main(void)
{
	return test_main();
}
