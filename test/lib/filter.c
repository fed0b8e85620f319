/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * utrace_set_syscalls: an engine never gets syscall callbacks for syscalls
 * outside its set, whatever the other engines ask for.
 */
#include "harness.h"
#include <utrace.h>
#include "tlib.h"

/* Every syscall record of engine te has a number in nrs. */
static void check_only(struct teng *te, const long *nrs, int n)
{
	for (int i = 0; i < tlog_n; i++) {
		bool ok = false;

		if (tlog[i].eng != te->id || (tlog[i].kind != K_SYSENTRY &&
					      tlog[i].kind != K_SYSEXIT))
			continue;
		for (int j = 0; j < n; j++)
			ok |= tlog[i].nr == nrs[j];
		if (!ok)
			tlog_dump(i, 1);
		CHECK(ok);
	}
}

TEST_T(set_syscalls_only_listed, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "syscalls", "mix", "20", NULL);
	unsigned long ev = UTRACE_EVENT_SYSCALL | EV_LIFE;
	struct teng *f1 = t_attach(t, pid, ev, NULL);
	struct teng *all = t_attach(t, pid, ev, NULL);
	struct teng *f2 = t_attach(t, pid, ev, NULL);
	long s1[] = { SYS_getppid };
	long s2[] = { SYS_getuid, SYS_write };

	CHECK_EQ(utrace_set_syscalls(f1->e, s1, 1), 0);
	CHECK_EQ(utrace_set_syscalls(f2->e, s2, 2), 0);
	t_run(t);
	CHECK_STR(t_read_all(out), "done\n");
	check_only(f1, s1, 1);
	check_only(f2, s2, 2);
	CHECK_EQ(tlog_count_nr(f1->id, K_SYSENTRY, SYS_getppid), 20);
	CHECK_EQ(tlog_count_nr(f1->id, K_SYSEXIT, SYS_getppid), 20);
	CHECK_EQ(tlog_count_nr(f2->id, K_SYSENTRY, SYS_getuid), 20);
	CHECK_EQ(tlog_count_nr(f2->id, K_SYSEXIT, SYS_getuid), 20);
	CHECK_EQ(tlog_count_nr(f2->id, K_SYSENTRY, SYS_write), 1);
	CHECK_EQ(tlog_count_nr(all->id, K_SYSENTRY, SYS_getppid), 20);
	CHECK_EQ(tlog_count_nr(all->id, K_SYSENTRY, SYS_getpid), 20);
	CHECK_EQ(tlog_count_nr(all->id, K_SYSENTRY, SYS_getuid), 20);
	CHECK_EQ(tlog_count_nr(all->id, K_SYSENTRY, SYS_execve), 1);
	t_check_death_reap(f1);
	t_check_death_reap(f2);
	t_check_death_reap(all);
	utrace_engine_put(f1->e);
	utrace_engine_put(f2->e);
	utrace_engine_put(all->e);
	utrace_tracer_free(t);
}

TEST_T(set_syscalls_alone_with_quiesce, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "syscalls", "mix", "20", NULL);
	struct teng *f = t_attach(t, pid, UTRACE_EVENT_SYSCALL |
				  UTRACE_EVENT(QUIESCE) | EV_LIFE, NULL);
	long s[] = { SYS_getpid };

	CHECK_EQ(utrace_set_syscalls(f->e, s, 1), 0);
	t_run(t);
	check_only(f, s, 1);
	CHECK_EQ(tlog_count_nr(f->id, K_SYSENTRY, SYS_getpid), 20);
	CHECK_EQ(tlog_count_nr(f->id, K_SYSEXIT, SYS_getpid), 20);
	/* No report_quiesce for the syscalls left out either. */
	for (int i = 0; i < tlog_n; i++)
		if (tlog[i].kind == K_QUIESCE &&
		    (tlog[i].arg & UTRACE_EVENT_SYSCALL))
			CHECK_EQ(tlog[i].nr, SYS_getpid);
	t_check_death_reap(f);
	utrace_engine_put(f->e);
	utrace_tracer_free(t);
}

static uint32_t widen_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getuid && ++te->user[0] == 5) {
		te->user[1] = utrace_set_syscalls(te->e, NULL, 0);
		te->user[2] = tlog_n;
	}
	return dflt;
}

TEST_T(set_syscalls_back_to_all, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "syscalls", "mix", "20", NULL);
	struct teng *f = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE,
				  widen_hook);
	long s[] = { SYS_getuid };

	f->user[1] = 1;
	CHECK_EQ(utrace_set_syscalls(f->e, s, 1), 0);
	t_run(t);
	CHECK_EQ(f->user[1], 0);
	for (int i = 0; i < f->user[2]; i++)
		if (tlog[i].kind == K_SYSENTRY || tlog[i].kind == K_SYSEXIT)
			CHECK_EQ(tlog[i].nr, SYS_getuid);
	CHECK_EQ(tlog_count_nr(f->id, K_SYSENTRY, SYS_getuid), 20);
	CHECK_EQ(tlog_count_nr(f->id, K_SYSENTRY, SYS_getppid), 15);
	CHECK_EQ(tlog_count_nr(f->id, K_SYSENTRY, SYS_getpid), 15);
	CHECK_EQ(tlog_count_nr(f->id, K_SYSENTRY, SYS_exit_group), 1);
	t_check_death_reap(f);
	utrace_engine_put(f->e);
	utrace_tracer_free(t);
}

TEST_T(set_syscalls_on_seized_process, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = fork();
	struct teng *f, *g;
	long s[] = { SYS_getppid };

	CHECK(pid >= 0);
	if (pid == 0) {
		execl(test_prog("threads_idle"), "threads_idle", "0", "8",
		      (char *)NULL);
		_exit(126);
	}
	t_msleep(100);
	f = t_attach(t, pid, UTRACE_EVENT(SYSCALL_ENTRY) | EV_LIFE, NULL);
	g = t_attach(t, pid, UTRACE_EVENT(SYSCALL_ENTRY) | EV_LIFE, NULL);
	CHECK_EQ(utrace_set_syscalls(f->e, s, 1), 0);
	t_dispatch_for(t, 400);
	CHECK(tlog_count_nr(f->id, K_SYSENTRY, SYS_getppid) >= 10);
	CHECK_EQ(tlog_count(f->id, K_SYSENTRY),
		 tlog_count_nr(f->id, K_SYSENTRY, SYS_getppid));
	CHECK(tlog_count(g->id, K_SYSENTRY) >
	      tlog_count_nr(g->id, K_SYSENTRY, SYS_getppid));
	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	t_check_death_reap(f);
	t_check_death_reap(g);
	utrace_engine_put(f->e);
	utrace_engine_put(g->e);
	utrace_tracer_free(t);
}

int main(void)
{
	return test_main();
}
