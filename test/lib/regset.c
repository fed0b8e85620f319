// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace_regset_get/set and utrace_debugreg_get/set on a real tracee
 * (test/progs/gdb_prog syscall: two getppid() calls, then exit 0):
 * the XSAVE area read and written back, argument checks, -EBUSY outside a
 * callback, DR0 and DR7 written and read back; then, where the host's
 * debug registers trap (test/progs/hostcap hwbp; many virtual machines
 * take the writes and never trap), an execution breakpoint in DR0 that
 * fires as a SIGTRAP with TRAP_HWBKPT and DR6 bit 0.
 */
#include <elf.h>
#include <string.h>
#include <sys/user.h>
#include <sys/wait.h>
#include "tlib.h"

struct rs_state {
	bool arm;		/* leave the breakpoint armed: it must fire */
	int entries;		/* getppid entries seen */
	int checked;		/* the checks inside the first entry ran */
	uint64_t bp;		/* DR0: the instruction after the syscall */
	int hw_traps;		/* SIGTRAP TRAP_HWBKPT with DR6 bit 0 */
	int other_sigs;
	int status;
	bool dead;
};

static uint32_t rs_entry(uint32_t action, struct utrace_engine *e)
{
	struct rs_state *st = utrace_engine_data(e);
	static unsigned char xs[8192], again[8192];
	struct user_regs_struct regs;
	struct utrace_syscall sc;
	uint64_t v = 1;
	ssize_t n;

	CHECK_EQ(utrace_syscall_get(e, &sc), 0);
	if (sc.nr != SYS_getppid || st->entries++)
		return UTRACE_RESUME;
	/* The XSAVE area: legacy region, header, then AVX if present. */
	n = utrace_regset_get(e, NT_X86_XSTATE, xs, sizeof(xs));
	CHECK(n >= 576);
	/* xmm15 changed and read back. */
	memset(xs + 160 + 16 * 15, 0x5a, 16);
	CHECK_EQ(utrace_regset_set(e, NT_X86_XSTATE, xs, (size_t)n), n);
	CHECK_EQ(utrace_regset_get(e, NT_X86_XSTATE, again, sizeof(again)), n);
	CHECK(!memcmp(again + 160 + 16 * 15, xs + 160 + 16 * 15, 16));
	/* The FXSAVE view agrees. */
	CHECK_EQ(utrace_regset_get(e, NT_PRFPREG, again, 512), 512);
	CHECK(!memcmp(again + 160 + 16 * 15, xs + 160 + 16 * 15, 16));
	/* Bad arguments. */
	CHECK_EQ(utrace_regset_get(e, NT_PRSTATUS, xs, sizeof(xs)), -EINVAL);
	CHECK_EQ(utrace_regset_get(e, NT_X86_XSTATE, NULL, 16), -EINVAL);
	CHECK_EQ(utrace_regset_get(e, NT_X86_XSTATE, xs, 0), -EINVAL);
	CHECK_EQ(utrace_debugreg_get(e, 4, &v), -EINVAL);
	CHECK_EQ(utrace_debugreg_set(e, 5, 0), -EINVAL);
	CHECK_EQ(utrace_debugreg_get(e, 0, NULL), -EINVAL);
	/* The kernel refuses a kernel address. */
	CHECK(utrace_debugreg_set(e, 0, 0xffffffff80000000ULL) < 0);
	/* DR0 = the instruction the syscall returns to, DR7: L0, execute. */
	CHECK_EQ(utrace_regs_get(e, &regs), 0);
	st->bp = regs.rip;
	CHECK_EQ(utrace_debugreg_set(e, 0, st->bp), 0);
	CHECK_EQ(utrace_debugreg_get(e, 0, &v), 0);
	CHECK_EQ(v, st->bp);
	CHECK_EQ(utrace_debugreg_set(e, 7, 1), 0);
	CHECK_EQ(utrace_debugreg_get(e, 7, &v), 0);
	CHECK_EQ(v & 3, 1);
	if (!st->arm) {
		CHECK_EQ(utrace_debugreg_set(e, 7, 0), 0);
		CHECK_EQ(utrace_debugreg_get(e, 7, &v), 0);
		CHECK_EQ(v & 3, 0);
	}
	st->checked = 1;
	return UTRACE_RESUME;
}

static uint32_t rs_signal(uint32_t action, struct utrace_engine *e,
			  siginfo_t *info)
{
	struct rs_state *st = utrace_engine_data(e);
	struct user_regs_struct regs;
	uint64_t dr6 = 0;

	if (!info || utrace_signal_action(action) == UTRACE_SIGNAL_REPORT ||
	    utrace_signal_action(action) == UTRACE_SIGNAL_HANDLER)
		return action | UTRACE_RESUME;
	if (info->si_signo != SIGTRAP || info->si_code != TRAP_HWBKPT) {
		st->other_sigs++;
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_RESUME;
	}
	CHECK_EQ(utrace_debugreg_get(e, 6, &dr6), 0);
	CHECK_EQ(utrace_regs_get(e, &regs), 0);
	if ((dr6 & 1) && regs.rip == st->bp)
		st->hw_traps++;
	/* Off again, and the trap is ours: not delivered. */
	CHECK_EQ(utrace_debugreg_set(e, 7, 0), 0);
	CHECK_EQ(utrace_debugreg_set(e, 6, 0), 0);
	return UTRACE_SIGNAL_IGN | UTRACE_RESUME;
}

static uint32_t rs_death(struct utrace_engine *e, bool group_dead, int status)
{
	struct rs_state *st = utrace_engine_data(e);

	st->status = status;
	st->dead = true;
	return UTRACE_RESUME;
}

static const struct utrace_engine_ops rs_ops = {
	.report_signal = rs_signal,
	.report_syscall_entry = rs_entry,
	.report_death = rs_death,
};

static void regset_debugreg(bool arm)
{
	struct utrace_tracer *t = t_tracer();
	struct rs_state st = { .arm = arm };
	struct utrace_engine *e;
	unsigned char xs[1024];
	uint64_t v;
	int out;
	pid_t pid = t_spawn(t, &out, "gdb_prog", "syscall", NULL);

	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE, &rs_ops, &st,
			       &e), 0);
	/* Held by the spawn, not by this engine, and outside a callback. */
	CHECK_EQ(utrace_regset_get(e, NT_X86_XSTATE, xs, sizeof(xs)),
		 -EBUSY);
	CHECK_EQ(utrace_debugreg_get(e, 7, &v), -EBUSY);
	CHECK_EQ(utrace_set_events(e, UTRACE_EVENT(SYSCALL_ENTRY) |
				   UTRACE_EVENT_SIGNAL_ALL |
				   UTRACE_EVENT(DEATH)), 0);
	t_run(t);
	CHECK_EQ(st.checked, 1);
	CHECK_EQ(st.entries, 2);
	CHECK_EQ(st.hw_traps, arm ? 1 : 0);
	CHECK_EQ(st.other_sigs, 0);
	CHECK(st.dead && WIFEXITED(st.status) && WEXITSTATUS(st.status) == 0);
	CHECK_STR(t_read_all(out), "ppid calls 2\n");
	utrace_engine_put(e);
	utrace_tracer_free(t);
}

/* Everything but the trap: any x86_64 host. */
TEST_T(regset_and_debugreg_on_a_tracee, 20)
{
	regset_debugreg(false);
}

TEST_T(debugreg_breakpoint_fires, 20)
{
	t_need("hwbp");
	regset_debugreg(true);
}

int main(void)
{
	return test_main();
}
