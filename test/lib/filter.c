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
	if (tlog_count_nr(f->id, K_SYSENTRY, SYS_getuid) != 20)
		tlog_dump(f->user[2] - 4, 24);
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
	CHECK(DISPATCH_UNTIL(t, tlog_count_nr(f->id, K_SYSENTRY,
					     SYS_getppid) >= 10, 5000));
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

static int seccomp_mode(pid_t pid)
{
	char path[64], line[256];
	int v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Seccomp: %d", &v) == 1)
			break;
	fclose(f);
	return v;
}

TEST_T(set_syscalls_at_spawn_uses_seccomp_filter, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "threads_idle", "0", "8", NULL);
	struct teng *f = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE, NULL);
	long s[] = { SYS_getppid };

	CHECK_EQ(utrace_set_syscalls(f->e, s, 1), 0);
	CHECK(DISPATCH_UNTIL(t, f->n[K_SYSEXIT] >= 10, 3000));
	CHECK_EQ(seccomp_mode(pid), 2);
	check_only(f, s, 1);
	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	t_check_death_reap(f);
	utrace_engine_put(f->e);
	utrace_tracer_free(t);
}

/* First getppid: return value changed at exit; second: aborted. */
static uint32_t filt_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	struct utrace_syscall sc;

	if (ev->nr != SYS_getppid)
		return dflt;
	CHECK_EQ(utrace_syscall_get(te->e, &sc), 0);
	CHECK_EQ(sc.nr, SYS_getppid);
	CHECK_EQ(sc.arch, AUDIT_ARCH_X86_64);
	if (ev->kind == K_SYSENTRY && ++te->user[0] == 2)
		return UTRACE_RESUME | UTRACE_SYSCALL_ABORT;
	if (ev->kind == K_SYSEXIT && ++te->user[1] == 1) {
		CHECK_EQ(sc.ret, getpid());
		CHECK_EQ(utrace_syscall_set_return(te->e, 4242), 0);
	}
	return dflt;
}

TEST_T(set_syscalls_filtered_stops_can_change_results, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "syscalls", "ppid2", NULL);
	struct teng *f = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE,
				  filt_hook);
	long s[] = { SYS_getppid };
	char want[64];

	CHECK_EQ(utrace_set_syscalls(f->e, s, 1), 0);
	t_run(t);
	snprintf(want, sizeof(want), "4242\n-1 errno %d\n", ENOSYS);
	CHECK_STR(t_read_all(out), want);
	CHECK_EQ(f->user[0], 2);
	CHECK_EQ(f->user[1], 2);
	check_only(f, s, 1);
	t_check_death_reap(f);
	utrace_engine_put(f->e);
	utrace_tracer_free(t);
}

static uint32_t filt_stop_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind != K_SYSENTRY || ev->nr != SYS_getppid)
		return dflt;
	if (!(ev->action & UTRACE_SYSCALL_RESUMED) && te->user[0]++ == 0)
		return UTRACE_STOP;
	if (ev->action & UTRACE_SYSCALL_RESUMED && te->user[1]++ == 0)
		CHECK_EQ(utrace_syscall_set_nr(te->e, SYS_getpid), 0);
	return dflt;
}

TEST_T(set_syscalls_filtered_entry_stop_and_repeat, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "syscalls", "ppid2", NULL);
	struct teng *f = t_attach(t, pid, UTRACE_EVENT_SYSCALL |
				  UTRACE_EVENT(QUIESCE) | EV_LIFE,
				  filt_stop_hook);
	long s[] = { SYS_getppid };
	struct utrace_syscall sc;
	char want[64];

	CHECK_EQ(utrace_set_syscalls(f->e, s, 1), 0);
	CHECK(DISPATCH_UNTIL(t, f->user[0] == 1, 3000));
	t_dispatch_for(t, 200);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_syscall_get(f->e, &sc), 0);
	CHECK_EQ(sc.nr, SYS_getppid);
	CHECK_EQ(utrace_control(f->e, UTRACE_REPORT), 0);
	t_run(t);
	CHECK_EQ(f->user[1], 1);
	snprintf(want, sizeof(want), "%d\n%d\n", pid, getpid());
	CHECK_STR(t_read_all(out), want);
	/* getpid is outside the set: its exit is not reported. */
	CHECK_EQ(tlog_count_nr(f->id, K_SYSEXIT, SYS_getppid), 1);
	check_only(f, s, 1);
	t_check_death_reap(f);
	utrace_engine_put(f->e);
	utrace_tracer_free(t);
}

int main(void)
{
	return test_main();
}
