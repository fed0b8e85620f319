/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Acceptance checks written from the contract (utrace(7)) alone: return
 * codes of sections 6 and 8 after detach and around death.
 */
#include "harness.h"
#include <sched.h>
#include <utrace.h>
#include "tlib.h"

/* After UTRACE_DETACH every call on the engine but barrier and put: -ESRCH. */
TEST_T(detached_engine_every_call_esrch, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "sleeper", "10", NULL);
	struct teng *a = t_attach(t, pid, EV_LIFE | UTRACE_EVENT(QUIESCE), NULL);
	struct teng *b = t_attach(t, pid, EV_LIFE, NULL);
	struct user_regs_struct regs;
	struct utrace_syscall sc;
	unsigned long args[6] = { 0 };
	long nr = SYS_getpid;
	char buf[8];
	int r;

	/* The spawn hold: the thread is stopped, the engine may look. */
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), 0);
	CHECK_EQ(utrace_regs_get(a->e, &regs), 0);
	CHECK_EQ(utrace_control(a->e, UTRACE_DETACH), 0);

	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), -ESRCH);
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), -ESRCH);
	CHECK_EQ(utrace_control(a->e, UTRACE_DETACH), -ESRCH);
	CHECK_EQ(utrace_control(a->e, UTRACE_INTERRUPT), -ESRCH);
	CHECK_EQ(utrace_set_events(a->e, UTRACE_EVENT(EXEC)), -ESRCH);
	CHECK_EQ(utrace_set_events(a->e, 0), -ESRCH);
	CHECK_EQ(utrace_regs_get(a->e, &regs), -ESRCH);
	CHECK_EQ(utrace_regs_set(a->e, &regs), -ESRCH);
	CHECK_EQ(utrace_syscall_get(a->e, &sc), -ESRCH);
	CHECK_EQ(utrace_syscall_set_nr(a->e, 1), -ESRCH);
	CHECK_EQ(utrace_syscall_set_args(a->e, args), -ESRCH);
	CHECK_EQ(utrace_syscall_set_return(a->e, 1), -ESRCH);
	CHECK_EQ(utrace_mem_read(a->e, regs.rsp, buf, sizeof(buf)), -ESRCH);
	CHECK_EQ(utrace_mem_write(a->e, regs.rsp, buf, sizeof(buf)), -ESRCH);
	CHECK_EQ(utrace_mem_read_string(a->e, regs.rsp, buf, sizeof(buf)),
		 -ESRCH);
	CHECK_EQ(utrace_set_syscalls(a->e, &nr, 1), -ESRCH);
	r = utrace_barrier(a->e);
	CHECK(r == 0 || r == -ESRCH);
	/* A lookup never finds a detached engine. */
	{
		struct utrace_engine *e = NULL;

		r = utrace_attach(t, pid, UTRACE_ATTACH_MATCH_OPS |
				  UTRACE_ATTACH_MATCH_DATA, &t_ops, a, &e);
		CHECK_EQ(r, -ENOENT);
	}
	CHECK_EQ(a->released, 0);
	utrace_engine_put(a->e);
	CHECK_EQ(a->released, 1);

	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	t_check_death_reap(b);
	utrace_engine_put(b->e);
	utrace_tracer_free(t);
}

/* Lookup and create modes: -ENOENT, -EEXIST, MATCH_* (reference 3.1). */
TEST_T(attach_modes, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "sleeper", "10", NULL);
	struct utrace_engine *e = NULL, *f = NULL;
	struct teng *a;
	/* the second engine's data: its release (t_release) writes there */
	struct teng *x = teng_new(NULL);

	/* Traced, no engine: lookup finds nothing. */
	CHECK_EQ(utrace_attach(t, pid, 0, NULL, NULL, &e), -ENOENT);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_MATCH_OPS, &t_ops, NULL,
			       &e), -ENOENT);
	/* EXCLUSIVE without a match bit on a thread with no engine: fine. */
	a = teng_new(NULL);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE |
			       UTRACE_ATTACH_EXCLUSIVE, &t_ops, a, &a->e), 0);
	/* ... and -EEXIST when any engine is there. */
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE |
			       UTRACE_ATTACH_EXCLUSIVE, &t_ops2, x, &e),
		 -EEXIST);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE |
			       UTRACE_ATTACH_EXCLUSIVE |
			       UTRACE_ATTACH_MATCH_OPS, &t_ops, x, &e),
		 -EEXIST);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE |
			       UTRACE_ATTACH_EXCLUSIVE |
			       UTRACE_ATTACH_MATCH_DATA, &t_ops2, a, &e),
		 -EEXIST);
	/* Another ops: EXCLUSIVE|MATCH_OPS creates. */
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE |
			       UTRACE_ATTACH_EXCLUSIVE |
			       UTRACE_ATTACH_MATCH_OPS, &t_ops2, x, &e), 0);
	CHECK(e != a->e);
	/* With neither match bit, lookup gives the first live engine. */
	CHECK_EQ(utrace_attach(t, pid, 0, NULL, NULL, &f), 0);
	CHECK(f == a->e);
	utrace_engine_put(f);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_MATCH_OPS, &t_ops2, NULL,
			       &f), 0);
	CHECK(f == e);
	utrace_engine_put(f);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_MATCH_DATA, NULL, x,
			       &f), 0);
	CHECK(f == e);
	utrace_engine_put(f);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_MATCH_OPS |
			       UTRACE_ATTACH_MATCH_DATA, &t_ops, x, &f),
		 -ENOENT);
	/* Create with NULL ops. */
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE, NULL, NULL, &f),
		 -EINVAL);
	/* Detach the first; lookup without match now finds the second. */
	CHECK_EQ(utrace_control(a->e, UTRACE_DETACH), 0);
	CHECK_EQ(utrace_attach(t, pid, 0, NULL, NULL, &f), 0);
	CHECK(f == e);
	utrace_engine_put(f);
	CHECK_EQ(utrace_control(e, UTRACE_DETACH), 0);
	CHECK_EQ(utrace_attach(t, pid, 0, NULL, NULL, &f), -ENOENT);
	utrace_engine_put(e);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
	CHECK(t_wait_gone(pid, 1000) || !t_stopped(pid));
	t_kill(pid);
}

/*
 * Around death: every action but DETACH on a dead thread is -ESRCH; DETACH
 * once the death report began is -EALREADY; setting DEATH or QUIESCE anew
 * on a dying thread, or clearing DEATH after the death report began, is
 * -EALREADY (reference 3.4, 3.5).
 */
static int death_codes[8];
static struct teng *death_other;

static uint32_t death_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_DEATH) {
		struct utrace_engine *o = death_other->e;

		death_codes[0] = utrace_control(o, UTRACE_RESUME);
		death_codes[1] = utrace_control(o, UTRACE_STOP);
		death_codes[2] = utrace_set_events(o, EV_LIFE |
						   UTRACE_EVENT(QUIESCE));
		death_codes[3] = utrace_set_events(o, UTRACE_EVENT(REAP));
		death_codes[4] = utrace_control(o, UTRACE_DETACH);
		death_codes[5] = utrace_set_events(te->e, EV_LIFE);
	}
	if (ev->kind == K_REAP)
		death_codes[6] = utrace_set_events(te->e, UTRACE_EVENT(DEATH));
	return dflt;
}

TEST_T(control_and_set_events_on_a_dying_thread, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "print_exit", "x", "3", NULL);
	struct teng *a = t_attach(t, pid, EV_LIFE, death_hook);

	death_other = t_attach(t, pid, EV_LIFE, NULL);
	t_run(t);
	CHECK_EQ(a->n[K_DEATH], 1);
	CHECK_EQ(death_codes[0], -ESRCH);
	CHECK_EQ(death_codes[1], -ESRCH);
	CHECK_EQ(death_codes[2], -EALREADY);
	CHECK_EQ(death_codes[3], -EALREADY);
	CHECK_EQ(death_codes[4], -EALREADY);
	CHECK_EQ(death_codes[5], 0);
	/* Clearing REAP once report_reap began. */
	CHECK_EQ(death_codes[6], -EALREADY);
	t_check_death_reap(a);
	t_check_death_reap(death_other);
	/* After reap the engine is detached. */
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), -ESRCH);
	CHECK_EQ(utrace_control(a->e, UTRACE_DETACH), -ESRCH);
	CHECK_EQ(utrace_set_events(a->e, 0), -ESRCH);
	CHECK_EQ(utrace_barrier(a->e), -ESRCH);
	utrace_engine_put(a->e);
	utrace_engine_put(death_other->e);
	utrace_tracer_free(t);
}

/*
 * report_clone gets the flags the call was made with (reference 4.2), also
 * for a clone that the kernel reports as a fork: clone(2) with
 * CLONE_FS|CLONE_FILES|SIGCHLD, clone3(2) with CLONE_FILES.
 */
TEST_T(clone_flags_of_a_fork_made_by_clone, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "syscalls", "cloneflags", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(CLONE) | EV_LIFE, NULL);
	int i, n = 0;

	t_run(t);
	CHECK_STR(t_read_all(out), "done\n");
	for (i = 0; i < tlog_n; i++) {
		if (tlog[i].eng != a->id || tlog[i].kind != K_CLONE)
			continue;
		if (n == 0)
			CHECK_EQ(tlog[i].arg2, CLONE_FS | CLONE_FILES | SIGCHLD);
		else
			CHECK_EQ(tlog[i].arg2, CLONE_FILES | SIGCHLD);
		n++;
	}
	CHECK_EQ(n, 2);
	t_check_death_reap(a);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

int main(void)
{
	return test_main();
}
