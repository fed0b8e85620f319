/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Stepping: UTRACE_SINGLESTEP counts instructions exactly on a known asm
 * loop (sig_prog step N: getppid; mov; N x (dec; jnz); mov; syscall),
 * UTRACE_BLOCKSTEP stops only at branches, the step traps are never the
 * program's, and a handler entered while stepping is reported with
 * UTRACE_SIGNAL_HANDLER at its first instruction, then stepped out through
 * rt_sigreturn.
 */
#include "harness.h"
#include <utrace.h>
#include "sigtlib.h"
#include <sys/ptrace.h>

/*
 * Does PTRACE_SINGLEBLOCK stop only at branches here?  Some virtual CPUs
 * ignore the branch-trap flag and step every instruction.  Raw ptrace on a
 * child running 200 iterations of a loop: compare the two stop counts.
 */
static int raw_steps(long req)
{
	int st, n = 0;
	pid_t c = fork();

	CHECK(c >= 0);
	if (c == 0) {
		long k = 200;

		ptrace(PTRACE_TRACEME, 0, 0L, 0L);
		raise(SIGSTOP);
		asm volatile("1: dec %0\n\tjnz 1b" : "+r"(k));
		_exit(0);
	}
	CHECK_EQ(waitpid(c, &st, 0), c);
	while (WIFSTOPPED(st) && n < 100000) {
		CHECK_EQ(ptrace(req, c, 0L, 0L), 0);
		CHECK_EQ(waitpid(c, &st, 0), c);
		n++;
	}
	if (WIFSTOPPED(st))
		t_kill(c);
	return n;
}

static bool blockstep_works(void)
{
	int single = raw_steps(PTRACE_SINGLESTEP);
	int block = raw_steps(PTRACE_SINGLEBLOCK);

	fprintf(stderr, "# raw ptrace: %d single steps, %d block steps\n",
		single, block);
	return block < single - 200;
}

static unsigned long a_begin, a_loop, a_end;

#define STEP_CAP 200000
static uint64_t ips[STEP_CAP];
static int nips;

static uint64_t cur_ip(struct teng *te)
{
	struct user_regs_struct r;

	CHECK_EQ(utrace_regs_get(te->e, &r), 0);
	return r.rip;
}

/*
 * user[0]: phase (0 before the marker, 1 held at the marker's exit, 2
 * stepping, 3 done); user[1]: the step action to use.
 */
static uint32_t hook_step(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid &&
	    te->user[0] == 0) {
		te->user[0] = 1;
		return UTRACE_STOP;
	}
	if (te->user[0] != 2)
		return dflt;
	/*
	 * Stepping.  A step over a syscall instruction may come as a syscall
	 * exit report (when a seccomp filter makes syscall stops while
	 * stepping, as in the kernel); keep voting for the step there too.
	 */
	if ((ev->kind == K_QUIESCE && ev->arg == 0) || ev->kind == K_SYSEXIT) {
		uint64_t ip = cur_ip(te);

		if (nips < STEP_CAP)
			ips[nips++] = ip;
		if (ip == a_end || nips >= STEP_CAP) {
			te->user[0] = 3;
			return UTRACE_RESUME;
		}
		return (uint32_t)te->user[1];
	}
	if (ev->kind == K_QUIESCE || ev->kind == K_SYSENTRY)
		return (uint32_t)te->user[1] | (dflt & ~UTRACE_RESUME_MASK);
	return dflt;
}

/* user[2]: 1 to narrow the engine to getppid with utrace_set_syscalls. */
static struct teng *step_setup(struct utrace_tracer *t, int *out,
			       const char *n, long action, bool sysset)
{
	static const long nrs[] = { SYS_getppid };
	pid_t pid = t_spawn(t, out, "sig_prog", "step", n, NULL);
	struct teng *a = s_attach(t, pid, UTRACE_EVENT(QUIESCE) |
				  UTRACE_EVENT(SYSCALL_EXIT) |
				  UTRACE_EVENT_SIGNAL_ALL | EV_LIFE, hook_step);
	char line[256];

	if (sysset)
		CHECK_EQ(utrace_set_syscalls(a->e, nrs, 1), 0);
	a->user[1] = action;
	CHECK(DISPATCH_UNTIL(t, a->user[0] == 1, 3000));
	CHECK(s_readline(NULL, *out, line, sizeof(line), 3000));
	CHECK_EQ(sscanf(line, "step %lx %lx %lx", &a_begin, &a_loop, &a_end),
		 3);
	CHECK_EQ(cur_ip(a), a_begin);
	nips = 0;
	a->user[0] = 2;
	return a;
}

static int count_ip(uint64_t ip)
{
	int n = 0;

	for (int i = 0; i < nips; i++)
		n += ips[i] == ip;
	return n;
}

TEST_T(singlestep_counts_instructions, 10)
{
	const long n = 1000;

	for (int sysset = 0; sysset <= 1; sysset++) {
		struct utrace_tracer *t = t_tracer();
		int out;
		struct teng *a = step_setup(t, &out, "1000", UTRACE_SINGLESTEP,
					    sysset);

		CHECK_EQ(utrace_control(a->e, UTRACE_SINGLESTEP), 0);
		t_run(t);
		CHECK_STR(t_read_all(out), "done\n");
		if (a->user[0] != 3) {
			fprintf(stderr, "# %d step reports\n", nips);
			tlog_dump(tlog_n - 12, 40);
		}
		CHECK_EQ(a->user[0], 3);
		/* mov; n x (dec; jnz); mov; syscall */
		CHECK_EQ(nips, 2 * n + 3);
		CHECK_EQ(count_ip(a_loop), n);
		CHECK_EQ(ips[0], a_loop);
		CHECK_EQ(ips[nips - 1], a_end);
		/* Without syscall stops the syscall instruction is one
		 * step report like the others. */
		if (!sysset)
			CHECK_EQ(tlog_count_nr(a->id, K_SYSEXIT, SYS_getppid),
				 1);
		/* The traps were the library's: no SIGTRAP reported or
		 * delivered. */
		CHECK_EQ(slog_count_sig(a->id, SIGTRAP), 0);
		CHECK(WIFEXITED(s_death_status(a)));
		CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
		utrace_tracer_free(t);
		tlog_n = 0;
	}
}

/* b: once armed (user[0]), keeps voting STOP in its report_quiesce
 * (a callback returning RESUME would release its STOP, as in the kernel). */
static uint32_t hook_armed_stop(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_QUIESCE && te->user[0])
		return UTRACE_STOP;
	return dflt;
}

/* SINGLESTEP returned from report_quiesce while a STOP is voted too:
 * the stop wins; stepping resumes when released with SINGLESTEP. */
TEST_T(singlestep_from_quiesce_and_stop_wins, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	struct teng *a = step_setup(t, &out, "50", UTRACE_SINGLESTEP, false);
	struct teng *b = s_attach(t, a->tid, UTRACE_EVENT(QUIESCE),
				  hook_armed_stop);

	/* b (attached later) holds the thread after 10 steps. */
	CHECK_EQ(utrace_control(a->e, UTRACE_SINGLESTEP), 0);
	CHECK(DISPATCH_UNTIL(t, nips >= 10, 3000));
	/* Running between two steps, or at a step stop. */
	{
		int at = nips, r;

		b->user[0] = 1;
		r = utrace_control(b->e, UTRACE_STOP);

		CHECK(r == 0 || r == -EINPROGRESS);
		t_dispatch_for(t, 100);
		if (nips > at + 1)
			fprintf(stderr, "# STOP at %d steps, %d after\n", at,
				nips);
		CHECK(nips <= at + 1);
	}
	CHECK(t_stopped(a->tid));
	{
		int before = nips;

		t_dispatch_for(t, 100);
		CHECK_EQ(nips, before);
	}
	/*
	 * Released with REPORT: a report_quiesce(0) pass at the same place,
	 * where a votes SINGLESTEP again.  (Released with RESUME, stepping
	 * would end there, as in the kernel: a step is only what the last
	 * report before user mode voted.)
	 */
	b->user[0] = 0;
	CHECK_EQ(utrace_control(b->e, UTRACE_REPORT), 0);
	t_run(t);
	CHECK_STR(t_read_all(out), "done\n");
	{
		int dup = 0;

		for (int i = 1; i < nips; i++)
			dup += ips[i] == ips[i - 1];
		/* Every step once; at the same place, the STOP's report (when
		 * it came by PTRACE_INTERRUPT before the step) and REPORT's. */
		if (nips - dup != 2 * 50 + 3)
			fprintf(stderr, "# %d reports, %d repeated\n", nips, dup);
		CHECK_EQ(nips - dup, 2 * 50 + 3);
		CHECK(dup == 1 || dup == 2);
		/* Loop-head visits, not counting a repeat in place. */
		dup = ips[0] == a_loop;
		for (int i = 1; i < nips; i++)
			dup += ips[i] == a_loop && ips[i - 1] != a_loop;
		CHECK_EQ(dup, 50);
	}
	utrace_tracer_free(t);
}

TEST_T(blockstep_stops_at_branches, 10)
{
	const long n = 100;
	bool hw = blockstep_works();
	struct utrace_tracer *t = t_tracer();
	int out, k;
	struct teng *a = step_setup(t, &out, "100", UTRACE_BLOCKSTEP, false);

	CHECK_EQ(utrace_control(a->e, UTRACE_BLOCKSTEP), 0);
	t_run(t);
	CHECK_STR(t_read_all(out), "done\n");
	CHECK_EQ(a->user[0], 3);
	k = count_ip(a_loop);
	if (!hw) {
		/* No branch trapping here: block steps degrade to single
		 * steps (reference 6), still exact. */
		fprintf(stderr, "# block stepping not supported by this CPU: "
			"checked as single steps\n");
		CHECK_EQ(nips, 2 * n + 3);
		CHECK_EQ(k, n);
	} else {
		/* One stop per taken jnz (n - 1), then a few to the end;
		 * never one per instruction. */
		if (k != n - 1 || nips > n + 3) {
			fprintf(stderr, "# %d reports, %d at the loop head:",
				nips, k);
			for (int i = 0; i < nips && i < 8; i++)
				fprintf(stderr, " %#lx", (unsigned long)ips[i]);
			fprintf(stderr, " ... %#lx\n",
				(unsigned long)ips[nips - 1]);
		}
		CHECK_EQ(k, n - 1);
		CHECK(nips <= n + 3);
	}
	CHECK_EQ(slog_count_sig(a->id, SIGTRAP), 0);
	CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
	utrace_tracer_free(t);
}

/* -- HANDLER --------------------------------------------------------------- */

/*
 * user[0]: 1 once USR1 was seen and stepping asked; user[2]: ip at the
 * HANDLER report; user[3]: steps taken after it; user[4]: steps to take.
 */
static uint32_t hook_handler(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SIGNAL && (int)ev->arg == SIGUSR1 &&
	    utrace_signal_action(ev->action) == UTRACE_SIGNAL_DELIVER &&
	    !te->user[0]) {
		te->user[0] = 1;
		return UTRACE_SINGLESTEP | UTRACE_SIGNAL_DELIVER;
	}
	if (ev->kind == K_SIGNAL &&
	    utrace_signal_action(ev->action) == UTRACE_SIGNAL_HANDLER) {
		te->user[2] = (long)cur_ip(te);
		nips = 0;
		return te->user[4] ? UTRACE_SINGLESTEP : UTRACE_RESUME;
	}
	if (ev->kind == K_QUIESCE && ev->arg == 0 && te->user[2]) {
		if (nips < STEP_CAP)
			ips[nips++] = cur_ip(te);
		if (++te->user[3] < te->user[4])
			return UTRACE_SINGLESTEP;
		return UTRACE_RESUME;
	}
	return dflt;
}

TEST_T(handler_reported_when_stepping_into_it, 10)
{
	for (int steps = 0; steps <= 400; steps += 400) {
		struct utrace_tracer *t = t_tracer();
		int out, i;
		pid_t pid = t_spawn(t, &out, "sig_prog", "handler", NULL);
		struct teng *a = s_attach(t, pid, UTRACE_EVENT(QUIESCE) |
					  UTRACE_EVENT_SIGNAL_ALL | EV_LIFE,
					  hook_handler);
		unsigned long haddr = 0;
		const char *o;

		a->user[4] = steps;
		t_run(t);
		o = t_read_all(out);
		CHECK_EQ(sscanf(o, "%lx", &haddr), 1);
		CHECK(strstr(o, "\nhandled 1\n") != NULL);
		i = slog_find_sig(0, a->id, SIGUSR1);
		CHECK(i >= 0);
		/* The next report is the HANDLER one, no step in between. */
		CHECK_EQ(tlog[i + 1].eng, a->id);
		CHECK_EQ(tlog[i + 1].kind, K_SIGNAL);
		CHECK_EQ(utrace_signal_action(tlog[i + 1].action),
			 UTRACE_SIGNAL_HANDLER);
		CHECK_EQ((unsigned long)a->user[2], haddr);
		CHECK_EQ(slog_find_sa(0, a->id, UTRACE_SIGNAL_HANDLER), i + 1);
		CHECK_EQ(tlog_count(a->id, K_SIGNAL), 2);
		if (steps) {
			/* Stepped through the handler and rt_sigreturn:
			 * the handler ran once, no SIGTRAP leaked. */
			CHECK_EQ(a->user[3], steps);
			CHECK(count_ip(haddr) == 0 || ips[0] != haddr);
			CHECK_EQ(slog_count_sig(a->id, SIGTRAP), 0);
		}
		CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
		utrace_tracer_free(t);
		tlog_n = 0;
	}
}

/*
 * A signal injected at a step trap (its event-0 report, then the REPORT
 * pass that UTRACE_INTERRUPT asks for) and delivered with
 * UTRACE_SINGLESTEP: the handler frame traps too, as after a delivery
 * stepped from a real signal (reference 7.3, 7.4).  user[0]: phase.
 */
static uint32_t hook_inject_step(struct teng *te, struct tev *ev,
				 uint32_t dflt)
{
	if (ev->kind == K_SIGNAL && (int)ev->arg == SIGUSR1 &&
	    utrace_signal_action(ev->action) == UTRACE_SIGNAL_DELIVER &&
	    te->user[0] == 0) {
		/* Drop the program's own SIGUSR1 and step once. */
		te->user[0] = 1;
		return UTRACE_SINGLESTEP | UTRACE_SIGNAL_IGN;
	}
	if (ev->kind == K_QUIESCE && ev->arg == 0 && te->user[0] == 1) {
		te->user[0] = 2;
		return UTRACE_INTERRUPT;
	}
	if (ev->kind == K_SIGNAL && te->user[0] == 2 &&
	    utrace_signal_action(ev->action) == UTRACE_SIGNAL_REPORT) {
		te->user[0] = 3;
		memset(s_info, 0, sizeof(*s_info));
		s_info->si_signo = SIGUSR1;
		s_info->si_code = SI_USER;
		s_info->si_pid = getpid();
		return UTRACE_SINGLESTEP | UTRACE_SIGNAL_DELIVER;
	}
	if (ev->kind == K_SIGNAL && te->user[0] == 3 &&
	    utrace_signal_action(ev->action) == UTRACE_SIGNAL_HANDLER) {
		te->user[0] = 4;
		te->user[2] = (long)cur_ip(te);
	}
	return dflt;
}

TEST_T(signal_injected_at_step_trap_stepped_into_handler, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "sig_prog", "handler", NULL);
	struct teng *a = s_attach(t, pid, UTRACE_EVENT(QUIESCE) |
				  UTRACE_EVENT_SIGNAL_ALL | EV_LIFE,
				  hook_inject_step);
	unsigned long haddr = 0;
	const char *o;

	t_run(t);
	o = t_read_all(out);
	CHECK_EQ(sscanf(o, "%lx", &haddr), 1);
	/* The injected one ran the handler, the program's was dropped. */
	CHECK(strstr(o, "\nhandled 1\n") != NULL);
	if (a->user[0] != 4)
		tlog_dump(0, 40);
	CHECK_EQ(a->user[0], 4);
	CHECK_EQ((unsigned long)a->user[2], haddr);
	CHECK_EQ(slog_count_sig(a->id, SIGTRAP), 0);
	CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
	utrace_tracer_free(t);
}

int main(void)
{
	return test_main();
}
