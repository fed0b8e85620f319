// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reporting-pass logic without ptrace: a fake stopped thread, real engines
 * and passes, asserting order, aggregation, sticky STOP, event bits,
 * detach and attach during a pass.
 */
#include "harness.h"
#include "core/internal.h"

static char log_buf[1024];
static uint32_t ret_of[8];		/* what engine i returns */
static uint32_t seen_action[8];		/* the action engine i was given */
static struct utrace_engine *eng[8];
static struct uthread *th;
static int released;

static int idx(struct utrace_engine *e)
{
	return (int)(intptr_t)utrace_engine_data(e);
}

static void logf_(const char *what, struct utrace_engine *e)
{
	char s[16];

	snprintf(s, sizeof(s), "%s%d ", what, idx(e));
	strcat(log_buf, s);
}

static uint32_t q(uint32_t action, struct utrace_engine *e, unsigned long ev)
{
	logf_("q", e);
	return UTRACE_RESUME;
}

static uint32_t cb(uint32_t action, struct utrace_engine *e)
{
	logf_("e", e);
	seen_action[idx(e)] = action;
	return ret_of[idx(e)];
}

static uint32_t sig(uint32_t action, struct utrace_engine *e, siginfo_t *info)
{
	logf_("s", e);
	seen_action[idx(e)] = action;
	return ret_of[idx(e)];
}

static uint32_t exec_cb(uint32_t action, struct utrace_engine *e, pid_t f)
{
	logf_("x", e);
	seen_action[idx(e)] = action;
	return ret_of[idx(e)];
}

static void rel(void *data)
{
	released++;
}

static const struct utrace_engine_ops ops = {
	.report_quiesce = q,
	.report_syscall_entry = cb,
	.report_syscall_exit = cb,
	.report_signal = sig,
	.report_exec = exec_cb,
	.release = rel,
};

static const struct utrace_engine_ops noquiesce_ops = {
	.report_syscall_exit = cb,
};

/* A stopped thread with @n engines, each with @events. */
static void setup(int n, unsigned long events)
{
	struct utrace_tracer *t;

	CHECK_EQ(utrace_tracer_new(&t), 0);
	th = utrace__thread_new(t, 424242, 424242);
	CHECK(th);
	th->state = TH_STOPPED;
	for (int i = 0; i < n; i++) {
		eng[i] = utrace__engine_new(th, &ops, (void *)(intptr_t)i);
		CHECK(eng[i]);
		eng[i]->events = events;
		ret_of[i] = UTRACE_RESUME;
	}
	utrace__thread_recalc(th);
	log_buf[0] = 0;
}

static uint32_t pass(enum utrace__ev type, uint32_t action)
{
	struct utrace__event ev = { .type = type, .action = action, .nr = 1 };

	log_buf[0] = 0;
	return utrace__report(th, &ev);
}

TEST(attach_order_for_exit)
{
	setup(3, UTRACE_EVENT(SYSCALL_EXIT));
	pass(EV_SYSCALL_EXIT, 0);
	CHECK_STR(log_buf, "e0 e1 e2 ");
}

TEST(reverse_order_for_entry_with_quiesce)
{
	setup(3, UTRACE_EVENT(SYSCALL_ENTRY) | UTRACE_EVENT(QUIESCE));
	pass(EV_SYSCALL_ENTRY, 0);
	CHECK_STR(log_buf, "q2 e2 q1 e1 q0 e0 ");
}

TEST(quiesce_then_event_interleaved)
{
	setup(3, UTRACE_EVENT(EXEC) | UTRACE_EVENT(QUIESCE));
	eng[1]->events = UTRACE_EVENT(QUIESCE);	/* quiesce only */
	pass(EV_EXEC, 0);
	CHECK_STR(log_buf, "q0 x0 q1 q2 x2 ");
}

TEST(action_carries_aggregate_smallest_wins)
{
	uint32_t r;

	setup(4, UTRACE_EVENT(SYSCALL_EXIT));
	ret_of[0] = UTRACE_BLOCKSTEP;
	ret_of[1] = UTRACE_REPORT;
	ret_of[2] = UTRACE_SINGLESTEP;
	ret_of[3] = UTRACE_RESUME;
	r = pass(EV_SYSCALL_EXIT, 0);
	CHECK_EQ(utrace_resume_action(seen_action[0]), UTRACE_RESUME);
	CHECK_EQ(utrace_resume_action(seen_action[1]), UTRACE_BLOCKSTEP);
	CHECK_EQ(utrace_resume_action(seen_action[2]), UTRACE_REPORT);
	CHECK_EQ(utrace_resume_action(seen_action[3]), UTRACE_REPORT);
	CHECK_EQ(utrace_resume_action(r), UTRACE_REPORT);
	CHECK_EQ(th->req, UTRACE_REPORT);
}

TEST(precedence_interrupt_before_report)
{
	uint32_t r;

	setup(2, UTRACE_EVENT(SYSCALL_EXIT));
	ret_of[0] = UTRACE_INTERRUPT;
	ret_of[1] = UTRACE_REPORT;
	r = pass(EV_SYSCALL_EXIT, 0);
	/* A REPORT must not cancel another engine's INTERRUPT. */
	CHECK_EQ(utrace_resume_action(r), UTRACE_INTERRUPT);
}

TEST(stop_is_sticky_per_engine)
{
	uint32_t r;

	setup(3, UTRACE_EVENT(SYSCALL_EXIT));
	ret_of[1] = UTRACE_STOP;
	r = pass(EV_SYSCALL_EXIT, 0);
	CHECK_EQ(utrace_resume_action(r), UTRACE_STOP);
	CHECK_EQ(utrace_resume_action(seen_action[2]), UTRACE_STOP);
	CHECK(utrace__thread_held(th));
	/* Next pass: engine 1 does not take part, it still holds. */
	eng[1]->events = 0;
	pass(EV_SYSCALL_EXIT, 0);
	CHECK_STR(log_buf, "e0 e2 ");
	CHECK(utrace__thread_held(th));
	/* It takes part and returns RESUME: released. */
	eng[1]->events = UTRACE_EVENT(SYSCALL_EXIT);
	ret_of[1] = UTRACE_RESUME;
	r = pass(EV_SYSCALL_EXIT, 0);
	/* Its own callback still saw its STOP in the aggregate. */
	CHECK_EQ(utrace_resume_action(seen_action[1]), UTRACE_STOP);
	CHECK(!utrace__thread_held(th));
}

TEST(non_stop_vote_waits_behind_a_stop)
{
	uint32_t r;

	/* The kernel's utrace_stop(resume_action): REPORT is kept. */
	setup(3, UTRACE_EVENT(SYSCALL_EXIT));
	ret_of[0] = UTRACE_REPORT;
	ret_of[1] = UTRACE_STOP;
	ret_of[2] = UTRACE_SINGLESTEP;
	r = pass(EV_SYSCALL_EXIT, 0);
	CHECK_EQ(utrace_resume_action(r), UTRACE_STOP);
	CHECK_EQ(th->req, UTRACE_REPORT);
	/* In a signal pass REPORT counts as RESUME. */
	{
		struct utrace__event ev = { .type = EV_SIGNAL,
					    .bit = UTRACE_EVENT(SIGNAL),
					    .action = UTRACE_SIGNAL_DELIVER };
		siginfo_t si = { .si_signo = SIGUSR1 };

		setup(2, UTRACE_EVENT(SIGNAL));
		ev.info = &si;
		ret_of[0] = UTRACE_REPORT;
		ret_of[1] = UTRACE_STOP;
		r = utrace__report(th, &ev);
		CHECK_EQ(utrace_resume_action(r), UTRACE_STOP);
		CHECK_EQ(th->req, UTRACE_RESUME);
	}
}

TEST(last_engine_decides_syscall_action)
{
	uint32_t r;

	setup(3, UTRACE_EVENT(SYSCALL_ENTRY));
	/* Reverse order: 2, 1, 0; engine 0 is called last. */
	ret_of[2] = UTRACE_RESUME | UTRACE_SYSCALL_ABORT;
	ret_of[1] = UTRACE_RESUME | UTRACE_SYSCALL_ABORT;
	ret_of[0] = UTRACE_RESUME | UTRACE_SYSCALL_RUN;
	r = pass(EV_SYSCALL_ENTRY, 0);
	CHECK_EQ(utrace_syscall_action(seen_action[1]), UTRACE_SYSCALL_ABORT);
	CHECK_EQ(utrace_syscall_action(seen_action[0]), UTRACE_SYSCALL_ABORT);
	CHECK_EQ(utrace_syscall_action(r), UTRACE_SYSCALL_RUN);
	ret_of[0] = UTRACE_RESUME | UTRACE_SYSCALL_ABORT;
	r = pass(EV_SYSCALL_ENTRY, 0);
	CHECK_EQ(utrace_syscall_action(r), UTRACE_SYSCALL_ABORT);
}

TEST(resumed_flag_reaches_entry_callbacks)
{
	setup(2, UTRACE_EVENT(SYSCALL_ENTRY));
	pass(EV_SYSCALL_ENTRY, UTRACE_SYSCALL_RESUMED);
	CHECK(seen_action[1] & UTRACE_SYSCALL_RESUMED);
	CHECK(seen_action[0] & UTRACE_SYSCALL_RESUMED);
}

TEST(signal_pass_report_counts_as_resume_and_bits_chain)
{
	struct utrace__event ev = { .type = EV_SIGNAL,
				    .bit = UTRACE_EVENT(SIGNAL_TERM),
				    .action = UTRACE_SIGNAL_TERM };
	siginfo_t si = { .si_signo = SIGTERM };
	uint32_t r;

	setup(3, UTRACE_EVENT(SIGNAL_TERM));
	ev.info = &si;
	ret_of[0] = UTRACE_REPORT | UTRACE_SIGNAL_IGN;
	ret_of[1] = UTRACE_INTERRUPT | UTRACE_SIGNAL_IGN;
	ret_of[2] = UTRACE_RESUME | UTRACE_SIGNAL_DELIVER;
	r = utrace__report(th, &ev);
	CHECK_EQ(utrace_signal_action(seen_action[0]), UTRACE_SIGNAL_TERM);
	CHECK_EQ(utrace_signal_action(seen_action[1]), UTRACE_SIGNAL_IGN);
	CHECK_EQ(utrace_resume_action(seen_action[1]), UTRACE_RESUME);
	CHECK_EQ(utrace_resume_action(r), UTRACE_RESUME);
	CHECK_EQ(utrace_signal_action(r), UTRACE_SIGNAL_DELIVER);
	CHECK_EQ(th->req, UTRACE_RESUME);
}

TEST(signal_pass_quiesce_only_engine_keeps_disposition)
{
	struct utrace__event ev = { .type = EV_SIGNAL,
				    .bit = UTRACE_EVENT(SIGNAL_TERM),
				    .action = UTRACE_SIGNAL_TERM };
	struct utrace_tracer *t;
	siginfo_t si = { .si_signo = SIGTERM };
	static const struct utrace_engine_ops qops = { .report_quiesce = q };
	uint32_t r;

	CHECK_EQ(utrace_tracer_new(&t), 0);
	th = utrace__thread_new(t, 1111, 1111);
	th->state = TH_STOPPED;
	eng[0] = utrace__engine_new(th, &qops, (void *)0);
	eng[0]->events = UTRACE_EVENT(QUIESCE);
	ev.info = &si;
	log_buf[0] = 0;
	r = utrace__report(th, &ev);
	CHECK_STR(log_buf, "q0 ");
	CHECK_EQ(utrace_signal_action(r), UTRACE_SIGNAL_TERM);
}

static struct utrace_engine *late;

static uint32_t attach_cb(uint32_t action, struct utrace_engine *e)
{
	logf_("e", e);
	if (!late) {
		late = utrace__engine_new(th, &ops, (void *)7);
		late->events = UTRACE_EVENT(SYSCALL_EXIT);
	}
	return UTRACE_RESUME;
}

TEST(engine_attached_during_pass_waits_for_next)
{
	static const struct utrace_engine_ops aops = {
		.report_syscall_exit = attach_cb,
	};

	setup(1, UTRACE_EVENT(SYSCALL_EXIT));
	eng[0]->ops = &aops;
	ret_of[7] = UTRACE_RESUME;
	pass(EV_SYSCALL_EXIT, 0);
	CHECK_STR(log_buf, "e0 ");
	pass(EV_SYSCALL_EXIT, 0);
	CHECK_STR(log_buf, "e0 e7 ");
}

TEST(detach_from_callback)
{
	setup(3, UTRACE_EVENT(SYSCALL_EXIT) | UTRACE_EVENT(SYSCALL_ENTRY));
	ret_of[1] = UTRACE_DETACH;
	utrace_engine_put(eng[1]);	/* drop the caller's reference */
	pass(EV_SYSCALL_EXIT, 0);
	CHECK_STR(log_buf, "e0 e1 e2 ");
	CHECK_EQ(released, 1);
	pass(EV_SYSCALL_ENTRY, 0);
	CHECK_STR(log_buf, "e2 e0 ");
}

TEST(detach_counts_as_resume)
{
	uint32_t r;

	setup(2, UTRACE_EVENT(SYSCALL_EXIT));
	ret_of[0] = UTRACE_DETACH;
	ret_of[1] = UTRACE_RESUME;
	r = pass(EV_SYSCALL_EXIT, 0);
	CHECK_EQ(utrace_resume_action(seen_action[1]), UTRACE_RESUME);
	CHECK_EQ(utrace_resume_action(r), UTRACE_RESUME);
}

TEST(syscall_set_filters_callbacks)
{
	struct utrace__event ev = { .type = EV_SYSCALL_EXIT, .nr = 5 };

	setup(2, UTRACE_EVENT(SYSCALL_EXIT));
	eng[0]->sysset = calloc(UTRACE__SYSSET_BITS / 64, 8);
	eng[0]->sysset[0] = 1ULL << 3;
	log_buf[0] = 0;
	utrace__report(th, &ev);
	CHECK_STR(log_buf, "e1 ");
	ev.nr = 3;
	log_buf[0] = 0;
	utrace__report(th, &ev);
	CHECK_STR(log_buf, "e0 e1 ");
	/* Nobody wants it: no pass at all. */
	eng[1]->sysset = calloc(UTRACE__SYSSET_BITS / 64, 8);
	ev.nr = 5;
	CHECK(!utrace__wants(th, &ev));
}

TEST(noquiesce_engine_still_contributes_stop)
{
	uint32_t r;

	setup(2, UTRACE_EVENT(SYSCALL_EXIT));
	eng[0]->ops = &noquiesce_ops;
	atomic_fetch_or(&eng[0]->flags, ENG_STOP);	/* utrace_control(STOP) */
	ret_of[0] = UTRACE_STOP;
	r = pass(EV_SYSCALL_EXIT, 0);
	CHECK_EQ(utrace_resume_action(seen_action[1]), UTRACE_STOP);
	CHECK_EQ(utrace_resume_action(r), UTRACE_STOP);
}

int main(void)
{
	return test_main();
}
