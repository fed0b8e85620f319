/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Looking at and changing a stopped thread: syscall number, arguments and
 * return value, ABORT, registers, memory (also read-only pages), -EBUSY and
 * -ESRCH.
 */
#include <sys/resource.h>
#include "harness.h"
#include <utrace.h>
#include "tlib.h"

/* Run "syscalls MODE" with one engine on the events; return its output. */
static const char *run_syscalls(const char *mode, unsigned long events,
				thook_t hook, struct teng **out_te)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "syscalls", mode, NULL);
	struct teng *te = t_attach(t, pid, events | EV_LIFE, hook);
	const char *s;

	t_run(t);
	s = t_read_all(out);
	t_check_death_reap(te);
	if (out_te)
		*out_te = te;
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
	return s;
}

/* Checks at the first write(2) entry and exit; user[0], user[1] count. */
static uint32_t write_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	struct utrace_syscall sc;
	char buf[64];

	if (ev->nr != SYS_write)
		return dflt;
	CHECK_EQ(utrace_syscall_get(te->e, &sc), 0);
	CHECK_EQ(sc.arch, AUDIT_ARCH_X86_64);
	CHECK_EQ(sc.nr, SYS_write);
	if (ev->kind == K_SYSENTRY && te->user[0]++ == 0) {
		CHECK_EQ(sc.args[0], 1);
		CHECK_EQ(sc.args[2], 6);
		CHECK(sc.ip != 0 && sc.sp != 0);
		CHECK_EQ(utrace_mem_read(te->e, sc.args[1], buf, 6), 6);
		CHECK(!memcmp(buf, "hello\n", 6));
		memset(buf, 'x', sizeof(buf));
		CHECK_EQ(utrace_mem_read_string(te->e, sc.args[1], buf,
						sizeof(buf)), 6);
		CHECK_STR(buf, "hello\n");
	} else if (ev->kind == K_SYSEXIT && te->user[1]++ == 0) {
		CHECK_EQ(sc.ret, 6);
	}
	return dflt;
}

TEST_T(syscall_entry_args_and_exit_value, 10)
{
	struct teng *te;
	const char *s = run_syscalls("write", UTRACE_EVENT_SYSCALL, write_hook,
				     &te);

	CHECK_STR(s, "hello\n6\n");
	CHECK_EQ(te->user[0], 2);
	CHECK_EQ(te->user[1], 2);
}

static uint32_t ret_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid) {
		struct utrace_syscall sc;

		CHECK_EQ(utrace_syscall_get(te->e, &sc), 0);
		CHECK_EQ(sc.ret, getpid());
		CHECK_EQ(utrace_syscall_set_return(te->e, 4242), 0);
		CHECK_EQ(utrace_syscall_get(te->e, &sc), 0);
		CHECK_EQ(sc.ret, 4242);
	}
	return dflt;
}

TEST_T(syscall_set_return_at_exit, 10)
{
	CHECK_STR(run_syscalls("ppid", UTRACE_EVENT(SYSCALL_EXIT), ret_hook,
			       NULL), "4242\n");
}

static uint32_t errno_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid)
		CHECK_EQ(utrace_syscall_set_return(te->e, -EPERM), 0);
	return dflt;
}

TEST_T(syscall_set_error_return_at_exit, 10)
{
	char want[32];

	snprintf(want, sizeof(want), "-1 errno %d\n", EPERM);
	CHECK_STR(run_syscalls("ppid", UTRACE_EVENT(SYSCALL_EXIT), errno_hook,
			       NULL), want);
}

static uint32_t abort_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSENTRY && ev->nr == SYS_getppid) {
		te->user[0]++;
		if (te->user[1])
			CHECK_EQ(utrace_syscall_set_return(te->e, 777), 0);
		return UTRACE_RESUME | UTRACE_SYSCALL_ABORT;
	}
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid) {
		struct utrace_syscall sc;

		CHECK_EQ(utrace_syscall_get(te->e, &sc), 0);
		te->user[2] = sc.ret;
	}
	return dflt;
}

TEST_T(syscall_abort_gives_enosys, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "syscalls", "ppid", NULL);
	struct teng *te = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE,
				   abort_hook);
	char want[32];

	t_run(t);
	snprintf(want, sizeof(want), "-1 errno %d\n", ENOSYS);
	CHECK_STR(t_read_all(out), want);
	CHECK_EQ(te->user[0], 1);
	t_check_death_reap(te);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

TEST_T(syscall_abort_with_set_return, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "syscalls", "ppid", NULL);
	struct teng *te = t_attach(t, pid, UTRACE_EVENT(SYSCALL_ENTRY) |
				   EV_LIFE, abort_hook);

	te->user[1] = 1;
	t_run(t);
	CHECK_STR(t_read_all(out), "777\n");
	CHECK_EQ(te->user[0], 1);
	t_check_death_reap(te);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

static uint32_t nr_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSENTRY && ev->nr == SYS_getppid && !te->user[0]++) {
		struct utrace_syscall sc;

		CHECK_EQ(utrace_syscall_set_nr(te->e, SYS_getpid), 0);
		CHECK_EQ(utrace_syscall_get(te->e, &sc), 0);
		CHECK_EQ(sc.nr, SYS_getpid);
	}
	if (ev->kind == K_SYSEXIT && te->user[0] == 1 && !te->user[1]++)
		te->user[2] = ev->nr;
	return dflt;
}

TEST_T(syscall_set_nr_at_entry, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "syscalls", "ppid", NULL);
	struct teng *te = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE,
				   nr_hook);
	char want[32];

	t_run(t);
	snprintf(want, sizeof(want), "%d\n", pid);
	CHECK_STR(t_read_all(out), want);
	CHECK_EQ(te->user[2], SYS_getpid);
	t_check_death_reap(te);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

static uint32_t args_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSENTRY && ev->nr == SYS_write && !te->user[0]++) {
		struct utrace_syscall sc;

		CHECK_EQ(utrace_syscall_get(te->e, &sc), 0);
		sc.args[2] = 3;
		CHECK_EQ(utrace_syscall_set_args(te->e, sc.args), 0);
		CHECK_EQ(utrace_syscall_get(te->e, &sc), 0);
		CHECK_EQ(sc.args[2], 3);
	}
	return dflt;
}

TEST_T(syscall_set_args_at_entry, 10)
{
	CHECK_STR(run_syscalls("write", UTRACE_EVENT(SYSCALL_ENTRY), args_hook,
			       NULL), "hel3\n");
}

static uint32_t regs_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	struct user_regs_struct regs;

	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid) {
		CHECK_EQ(utrace_regs_get(te->e, &regs), 0);
		CHECK_EQ(regs.orig_rax, SYS_getppid);
		CHECK_EQ(regs.rax, getpid());
		regs.rax = 1234;
		CHECK_EQ(utrace_regs_set(te->e, &regs), 0);
		memset(&regs, 0, sizeof(regs));
		CHECK_EQ(utrace_regs_get(te->e, &regs), 0);
		CHECK_EQ(regs.rax, 1234);
	}
	return dflt;
}

TEST_T(regs_get_and_set_at_exit, 10)
{
	CHECK_STR(run_syscalls("ppid", UTRACE_EVENT(SYSCALL_EXIT), regs_hook,
			       NULL), "1234\n");
}

/* Two engines change different registers in one pass; both are kept. */
static uint32_t regs2_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	struct utrace_syscall sc;

	if (ev->kind != K_SYSENTRY || ev->nr != SYS_write || te->user[0]++)
		return dflt;
	CHECK_EQ(utrace_syscall_get(te->e, &sc), 0);
	if (te->user[7] == 1)
		sc.args[2] = 4;	/* called first: length */
	else
		sc.args[1] += 1;	/* called second: buffer */
	CHECK_EQ(utrace_syscall_set_args(te->e, sc.args), 0);
	return dflt;
}

TEST_T(regs_changed_by_two_engines_all_kept, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "syscalls", "write", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(SYSCALL_ENTRY) |
				  EV_LIFE, regs2_hook);
	struct teng *b = t_attach(t, pid, UTRACE_EVENT(SYSCALL_ENTRY) |
				  EV_LIFE, regs2_hook);

	b->user[7] = 1;
	t_run(t);
	CHECK_STR(t_read_all(out), "ello4\n");
	t_check_death_reap(a);
	t_check_death_reap(b);
	utrace_engine_put(a->e);
	utrace_engine_put(b->e);
	utrace_tracer_free(t);
}

static uint32_t poke_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSENTRY && ev->nr == SYS_getppid && !te->user[0]++) {
		struct utrace_syscall sc;
		char buf[32];

		CHECK_EQ(utrace_syscall_get(te->e, &sc), 0);
		CHECK_EQ(utrace_mem_read_string(te->e, sc.args[0], buf,
						sizeof(buf)), 8);
		CHECK_STR(buf, "original");
		CHECK_EQ(utrace_mem_read_string(te->e, sc.args[1], buf,
						sizeof(buf)), 8);
		CHECK_STR(buf, "writable");
		CHECK_EQ(utrace_mem_write(te->e, sc.args[0], "PATCHED!", 8),
			 8);
		CHECK_EQ(utrace_mem_write(te->e, sc.args[1], "poked", 6), 6);
		CHECK_EQ(utrace_mem_read(te->e, sc.args[0], buf, 8), 8);
		CHECK(!memcmp(buf, "PATCHED!", 8));
	}
	return dflt;
}

TEST_T(mem_write_readonly_and_writable, 10)
{
	CHECK_STR(run_syscalls("poke", UTRACE_EVENT(SYSCALL_ENTRY), poke_hook,
			       NULL), "PATCHED! poked\n");
}

static uint32_t badaddr_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSENTRY && ev->nr == SYS_getppid && !te->user[0]++) {
		char buf[8];

		te->user[1] = utrace_mem_read(te->e, 8, buf, sizeof(buf));
		te->user[2] = utrace_mem_write(te->e, 8, buf, sizeof(buf));
	}
	return dflt;
}

TEST_T(mem_bad_address_fails, 10)
{
	struct teng *te;
	char want[32];

	snprintf(want, sizeof(want), "%d\n", getpid());
	CHECK_STR(run_syscalls("ppid", UTRACE_EVENT(SYSCALL_ENTRY),
			       badaddr_hook, &te), want);
	CHECK(te->user[1] < 0);
	CHECK(te->user[2] < 0);
}

TEST_T(access_ebusy_when_not_stopped_for_engine, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "sleeper", "10", NULL);
	struct teng *a = t_attach(t, pid, EV_LIFE, NULL);
	struct user_regs_struct regs;
	struct utrace_syscall sc;
	unsigned long args[6] = { 0 };
	struct rusage ru;
	char buf[8];

	t_dispatch_for(t, 200);
	CHECK_EQ(utrace_syscall_get(a->e, &sc), -EBUSY);
	CHECK_EQ(utrace_syscall_set_nr(a->e, SYS_getpid), -EBUSY);
	CHECK_EQ(utrace_syscall_set_args(a->e, args), -EBUSY);
	CHECK_EQ(utrace_syscall_set_return(a->e, 0), -EBUSY);
	CHECK_EQ(utrace_regs_get(a->e, &regs), -EBUSY);
	CHECK_EQ(utrace_mem_read(a->e, 0x400000, buf, 4), -EBUSY);
	CHECK_EQ(utrace_mem_write(a->e, 8, buf, 4), -EBUSY);
	CHECK_EQ(utrace_mem_read_string(a->e, 0x400000, buf, sizeof(buf)),
		 -EBUSY);
	CHECK_EQ(utrace_stop_rusage(a->e, &ru), -EBUSY);
	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	t_check_death_reap(a);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

static uint32_t dead_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	struct user_regs_struct regs;
	struct utrace_syscall sc;
	char buf[8];

	if (ev->kind == K_DEATH || ev->kind == K_REAP) {
		int k = ev->kind == K_DEATH ? 0 : 3;

		te->user[k] = utrace_regs_get(te->e, &regs);
		te->user[k + 1] = utrace_syscall_get(te->e, &sc);
		te->user[k + 2] = utrace_mem_read(te->e, 0x400000, buf, 4);
	}
	return dflt;
}

TEST_T(access_esrch_when_dead, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "print_exit", "", "0", NULL);
	struct teng *a = t_attach(t, pid, EV_LIFE, dead_hook);
	struct user_regs_struct regs;
	struct utrace_syscall sc;
	char buf[8];

	t_run(t);
	t_check_death_reap(a);
	for (int i = 0; i < 6; i++)
		CHECK_EQ(a->user[i], -ESRCH);
	CHECK_EQ(utrace_regs_get(a->e, &regs), -ESRCH);
	CHECK_EQ(utrace_syscall_get(a->e, &sc), -ESRCH);
	CHECK_EQ(utrace_mem_read(a->e, 0x400000, buf, 4), -ESRCH);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

static uint32_t quiesce_stop_hook(struct teng *te, struct tev *ev,
				  uint32_t dflt)
{
	return ev->kind == K_QUIESCE && ev->arg == 0 ? UTRACE_STOP : dflt;
}

TEST_T(access_while_held_outside_callbacks, 10)
{
	struct utrace_tracer *t = t_tracer();
	pid_t pid = t_spawn(t, NULL, "spin", "10000", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(QUIESCE) | EV_LIFE,
				  quiesce_stop_hook);
	struct teng *b = t_attach(t, pid, EV_LIFE, NULL);
	struct user_regs_struct regs, regs2;
	struct utrace_syscall sc;
	uint64_t word;

	t_dispatch_for(t, 200);
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), -EINPROGRESS);
	CHECK(DISPATCH_UNTIL(t, a->n[K_QUIESCE] > 0, 3000));
	t_dispatch_for(t, 100);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_syscall_get(a->e, &sc), 0);
	CHECK_EQ(sc.nr, -1);
	CHECK_EQ(utrace_regs_get(a->e, &regs), 0);
	CHECK(regs.rip != 0);
	CHECK_EQ(sc.ip, regs.rip);
	CHECK_EQ(sc.sp, regs.rsp);
	CHECK_EQ(utrace_mem_read(a->e, regs.rip, &word, sizeof(word)),
		 sizeof(word));
	CHECK_EQ(utrace_regs_set(a->e, &regs), 0);
	CHECK_EQ(utrace_regs_get(a->e, &regs2), 0);
	CHECK(!memcmp(&regs, &regs2, sizeof(regs)));
	/* b does not hold the thread. */
	CHECK_EQ(utrace_regs_get(b->e, &regs), -EBUSY);
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	t_dispatch_for(t, 100);
	CHECK_EQ(utrace_regs_get(a->e, &regs), -EBUSY);
	CHECK(kill(pid, SIGKILL) == 0);
	t_run(t);
	t_check_death_reap(a);
	t_check_death_reap(b);
	utrace_engine_put(a->e);
	utrace_engine_put(b->e);
	utrace_tracer_free(t);
}

static uint32_t hold_entry_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSENTRY && ev->nr == SYS_getppid &&
	    te->user[0]++ == 0)
		return UTRACE_STOP | utrace_syscall_action(ev->action);
	if (ev->kind == K_SYSEXIT && te->user[0] == 1 && !te->user[1]++)
		te->user[2] = ev->nr;
	return dflt;
}

TEST_T(syscall_changed_while_held_at_entry, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "syscalls", "ppid", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE,
				  hold_entry_hook);
	struct utrace_syscall sc;
	char want[32];

	CHECK(DISPATCH_UNTIL(t, a->user[0] == 1, 3000));
	t_dispatch_for(t, 100);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_syscall_get(a->e, &sc), 0);
	CHECK_EQ(sc.nr, SYS_getppid);
	CHECK_EQ(utrace_syscall_set_nr(a->e, SYS_getpid), 0);
	CHECK_EQ(utrace_syscall_get(a->e, &sc), 0);
	CHECK_EQ(sc.nr, SYS_getpid);
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	t_run(t);
	snprintf(want, sizeof(want), "%d\n", pid);
	CHECK_STR(t_read_all(out), want);
	CHECK_EQ(a->user[2], SYS_getpid);
	t_check_death_reap(a);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

static uint32_t hold_exit_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid &&
	    te->user[0]++ == 0)
		return UTRACE_STOP;
	return dflt;
}

TEST_T(syscall_return_changed_while_held_at_exit, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "syscalls", "ppid", NULL);
	struct teng *a = t_attach(t, pid, UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE,
				  hold_exit_hook);
	struct utrace_syscall sc;

	CHECK(DISPATCH_UNTIL(t, a->user[0] == 1, 3000));
	t_dispatch_for(t, 100);
	CHECK(t_stopped(pid));
	CHECK_EQ(utrace_syscall_get(a->e, &sc), 0);
	CHECK_EQ(sc.nr, SYS_getppid);
	CHECK_EQ(sc.ret, getpid());
	CHECK_EQ(utrace_syscall_set_return(a->e, 31337), 0);
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	t_run(t);
	CHECK_STR(t_read_all(out), "31337\n");
	t_check_death_reap(a);
	utrace_engine_put(a->e);
	utrace_tracer_free(t);
}

/* -- The usage that came with each stop (UTRACE_TRACER_RUSAGE) ----------- */

static double ru_secs(const struct rusage *ru)
{
	return (double)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) +
	       (double)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1e6;
}

/* Without the option: -ENODATA; user[0] counts the calls. */
static uint32_t nousage_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	struct rusage ru;

	if (ev->kind != K_SYSENTRY && ev->kind != K_SYSEXIT)
		return dflt;
	CHECK_EQ(utrace_stop_rusage(te->e, NULL), -EINVAL);
	CHECK_EQ(utrace_stop_rusage(te->e, &ru), -ENODATA);
	te->user[0]++;
	return dflt;
}

TEST_T(stop_rusage_needs_the_option, 10)
{
	struct teng *te;
	char want[32];

	snprintf(want, sizeof(want), "%d\n", getpid());
	CHECK_STR(run_syscalls("ppid", UTRACE_EVENT(SYSCALL_ENTRY),
			       nousage_hook, &te), want);
	CHECK(te->user[0] > 0);
}

/*
 * At every syscall stop: a usage of the live process (maxrss), its time
 * never going back; wait4's exit adds the reaped child's time (>= 100 ms
 * of CPU by construction).  user[0]: stops seen, ptr: last time;
 * user[1]/user[2]: wait4's entry and exit time in microseconds, user[3]:
 * wait4 stops seen.
 */
static uint32_t usage_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	struct rusage ru;
	double *last = te->ptr, v;

	if (ev->kind != K_SYSENTRY && ev->kind != K_SYSEXIT)
		return dflt;
	CHECK_EQ(utrace_stop_rusage(te->e, &ru), 0);
	CHECK(ru.ru_maxrss > 0);
	v = ru_secs(&ru);
	CHECK(v >= *last);
	*last = v;
	te->user[0]++;
	if (ev->nr == SYS_wait4) {
		te->user[ev->kind == K_SYSENTRY ? 1 : 2] = (long)(v * 1e6);
		te->user[3]++;
	}
	return dflt;
}

TEST_T(stop_rusage_at_each_stop, 20)
{
	struct utrace_tracer *t = t_tracer();
	double last = 0;
	struct teng *te;
	int out;
	pid_t pid;

	CHECK_EQ(utrace_tracer_set_options(NULL, 0), -EINVAL);
	CHECK_EQ(utrace_tracer_set_options(t, 0x100), -EINVAL);
	CHECK_EQ(utrace_tracer_set_options(t, UTRACE_TRACER_RUSAGE), 0);
	pid = t_spawn(t, &out, "syscalls", "burnchild", "100", NULL);
	te = t_attach(t, pid, UTRACE_EVENT(SYSCALL_ENTRY) |
		      UTRACE_EVENT(SYSCALL_EXIT) | EV_LIFE, usage_hook);
	te->ptr = &last;
	t_run(t);
	CHECK_STR(t_read_all(out), "done\n");
	t_check_death_reap(te);
	CHECK(te->user[0] > 2);
	CHECK_EQ(te->user[3], 2);
	/*
	 * The kernel's usage is to the microsecond; under utrace -f's ptrace
	 * emulation it comes from /proc in clock ticks, four fields each cut
	 * short by up to 10 ms: 50 ms is still far above a usage without the
	 * child's.
	 */
	CHECK(te->user[2] - te->user[1] >= 50000);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

int main(void)
{
	return test_main();
}
