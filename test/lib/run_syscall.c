/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * utrace__engine_run_syscall (core/layer.h): a system call made in a
 * stopped thread at a syscall exit, as the ptrace emulation makes the
 * drops of a set-user-ID exec (test/progs/vdso_unmap: getpid(), its vDSO
 * unmapped, getpid() again).  The call's result, the thread's registers
 * untouched, its memory untouched without a vDSO (two bytes borrowed at
 * its pc), -EBUSY at an entry, and the program never the wiser.
 */
#include <string.h>
#include <sys/user.h>
#include <sys/wait.h>
#include "tlib.h"
#include "core/layer.h"

struct rs_state {
	int exits;		/* getpid exits seen */
	int calls;		/* calls made and checked */
	pid_t ppid;		/* the tracee's parent: this process */
	int status;
	bool dead;
};

static uint32_t rs_entry(uint32_t action, struct utrace_engine *e)
{
	uint64_t args[6] = { 0 };
	struct utrace_syscall sc;
	long ret;

	CHECK_EQ(utrace_syscall_get(e, &sc), 0);
	if (sc.nr == SYS_getpid)
		CHECK_EQ(utrace__engine_run_syscall(e, SYS_getppid, args,
						    &ret), -EBUSY);
	return UTRACE_RESUME;
}

static uint32_t rs_exit(uint32_t action, struct utrace_engine *e)
{
	struct rs_state *st = utrace_engine_data(e);
	struct user_regs_struct before, after;
	uint64_t args[6] = { 0 };
	struct utrace_syscall sc;
	unsigned char code[16], again[16];
	long ret = 0;

	CHECK_EQ(utrace_syscall_get(e, &sc), 0);
	if (sc.nr != SYS_getpid)
		return UTRACE_RESUME;
	st->exits++;
	CHECK_EQ(utrace_regs_get(e, &before), 0);
	CHECK_EQ(utrace_mem_read(e, before.rip, code, sizeof(code)),
		 (ssize_t)sizeof(code));
	CHECK_EQ(utrace__engine_run_syscall(e, SYS_getppid, args, &ret), 0);
	CHECK_EQ(ret, st->ppid);
	CHECK_EQ(utrace__engine_run_syscall(e, SYS_getpid, args, &ret), 0);
	CHECK_EQ(ret, utrace_engine_tgid(e));
	/* An error comes back as such: close(-1). */
	args[0] = (uint64_t)-1;
	CHECK_EQ(utrace__engine_run_syscall(e, SYS_close, args, &ret), 0);
	CHECK_EQ(ret, -EBADF);
	CHECK_EQ(utrace_regs_get(e, &after), 0);
	CHECK(!memcmp(&before, &after, sizeof(before)));
	CHECK_EQ(utrace_mem_read(e, before.rip, again, sizeof(again)),
		 (ssize_t)sizeof(again));
	CHECK(!memcmp(code, again, sizeof(code)));
	st->calls++;
	return UTRACE_RESUME;
}

static uint32_t rs_death(struct utrace_engine *e, bool group_dead, int status)
{
	struct rs_state *st = utrace_engine_data(e);

	st->status = status;
	st->dead = true;
	return UTRACE_RESUME;
}

static const struct utrace_engine_ops rs_ops = {
	.report_syscall_entry = rs_entry,
	.report_syscall_exit = rs_exit,
	.report_death = rs_death,
};

TEST_T(run_syscall_with_and_without_vdso, 20)
{
	struct utrace_tracer *t = t_tracer();
	struct rs_state st = { .ppid = getpid() };
	struct utrace_engine *e;
	int out;
	pid_t pid = t_spawn(t, &out, "vdso_unmap", NULL);

	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE, &rs_ops, &st,
			       &e), 0);
	CHECK_EQ(utrace_set_events(e, UTRACE_EVENT_SYSCALL |
				   UTRACE_EVENT(DEATH)), 0);
	t_run(t);
	/* Its two getpid calls and glibc's in the check it prints. */
	CHECK_EQ(st.exits, 3);
	CHECK_EQ(st.calls, 3);
	CHECK(st.dead && WIFEXITED(st.status) && WEXITSTATUS(st.status) == 0);
	CHECK_STR(t_read_all(out), "getpid 1 1, vdso unmapped 1\n");
	utrace_engine_put(e);
	utrace_tracer_free(t);
}

int main(void)
{
	return test_main();
}
