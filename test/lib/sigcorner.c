/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Classic ptrace corner cases with signals (issue #3 item 8): attach while
 * a signal is pending; a signal arriving between syscall entry and exit;
 * SIGSTOP sent during a syscall stop; a storm of 10,000 signals of six
 * kinds to a multi-threaded program, which counts exactly what it counts
 * untraced.
 */
#include "harness.h"
#include <utrace.h>
#include "sigtlib.h"

#define EV_JS (UTRACE_EVENT_SIGNAL_ALL | UTRACE_EVENT(JCTL) | EV_LIFE)

TEST_T(attach_while_signal_pending, 10)
{
	int in, out, st;
	pid_t pid = s_fork_prog(&in, &out, "sig_prog", "count", "blocked",
				NULL);
	struct utrace_tracer *t;
	struct teng *a;
	char line[128];
	union sigval v = { .sival_int = 5 };

	CHECK(s_readline(NULL, out, line, sizeof(line), 3000));
	CHECK_STR(line, "ready");
	/* Pending (blocked) before anyone traces it. */
	CHECK_EQ(kill(pid, SIGUSR1), 0);
	CHECK_EQ(sigqueue(pid, SIGRTMIN + 2, v), 0);
	CHECK_EQ(sigqueue(pid, SIGRTMIN + 2, v), 0);
	t_msleep(20);
	t = t_tracer();
	a = s_attach(t, pid, EV_JS, NULL);
	t_dispatch_for(t, 100);
	CHECK_EQ(a->n[K_SIGNAL], 0);
	CHECK(write(in, "u\np\n", 4) == 4);
	CHECK(s_readline(t, out, line, sizeof(line), 3000));
	CHECK_STR(line, "usr1 1 usr2 0 rt 0 0 2 0");
	/* Each one reported to the engine on its way. */
	CHECK_EQ(slog_count_sig(a->id, SIGUSR1), 1);
	CHECK_EQ(slog_count_sig(a->id, SIGRTMIN + 2), 2);
	{
		int i = slog_find_sig(0, a->id, SIGRTMIN + 2);

		CHECK_EQ(s_si[i].si_code, SI_QUEUE);
		CHECK_EQ(s_si[i].si_value.sival_int, 5);
		CHECK_EQ(s_si[i].si_pid, getpid());
	}
	close(in);
	t_run(t);
	CHECK(WIFEXITED(s_death_status(a)));
	utrace_tracer_free(t);
	close(out);
	st = t_waitpid(pid, 100);
	(void)st;
}

/* -- Between syscall entry and exit --------------------------------------- */

/* Hold at getppid's entry (user[0] == 1) or exit (user[0] == 2). */
static uint32_t hook_hold_getppid(struct teng *te, struct tev *ev,
				  uint32_t dflt)
{
	if (ev->kind == K_DEATH || ev->kind == K_REAP)
		return dflt;
	if (te->user[7])
		return UTRACE_STOP | (dflt & ~UTRACE_RESUME_MASK);
	if (ev->nr == SYS_getppid && !te->user[1] &&
	    ((te->user[0] == 1 && ev->kind == K_SYSENTRY) ||
	     (te->user[0] == 2 && ev->kind == K_SYSEXIT))) {
		te->user[1] = 1;
		te->user[7] = 1;
		return UTRACE_STOP | (dflt & ~UTRACE_RESUME_MASK);
	}
	return dflt;
}

static int find_kind(int from, int eng, int kind, long nr)
{
	for (int i = from; i < tlog_n; i++)
		if (tlog[i].eng == eng && tlog[i].kind == kind &&
		    (nr < 0 || tlog[i].nr == nr))
			return i;
	return -1;
}

TEST_T(signal_between_syscall_entry_and_exit, 10)
{
	for (int where = 1; where <= 2; where++) {
		struct utrace_tracer *t = t_tracer();
		int in, out, ie, ix, is;
		pid_t pid = s_spawn_io(t, &in, &out, "sig_prog", "entrysig",
				       NULL);
		struct teng *a = s_attach(t, pid, EV_JS |
					  UTRACE_EVENT_SYSCALL,
					  hook_hold_getppid);
		char want[64], line[64];

		a->user[0] = where;
		CHECK(s_readline(t, out, line, sizeof(line), 3000));
		CHECK(write(in, "go\n", 3) == 3);
		CHECK(DISPATCH_UNTIL(t, a->user[1], 3000));
		t_dispatch_for(t, 30);
		CHECK(t_stopped(pid));
		CHECK_EQ(kill(pid, SIGUSR1), 0);
		t_dispatch_for(t, 100);
		/* Nothing reported while held. */
		CHECK_EQ(slog_count_sig(a->id, SIGUSR1), 0);
		a->user[7] = 0;
		CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
		t_run(t);
		/* The syscall completed normally, then the handler ran
		 * before the program's next instruction of its own. */
		snprintf(want, sizeof(want), "ppid %d handled 1\n",
			 (int)getpid());
		CHECK_STR(t_read_all(out), want);
		ie = find_kind(0, a->id, K_SYSENTRY, SYS_getppid);
		ix = find_kind(0, a->id, K_SYSEXIT, SYS_getppid);
		is = slog_find_sig(0, a->id, SIGUSR1);
		if (!(ie >= 0 && ix > ie && is > ix))
			tlog_dump(ie > 2 ? ie - 2 : 0, 12);
		CHECK(ie >= 0 && ix > ie && is > ix);
		CHECK_EQ(tlog_count_nr(a->id, K_SYSENTRY, SYS_getppid), 1);
		CHECK_EQ(tlog_count_nr(a->id, K_SYSEXIT, SYS_getppid), 1);
		CHECK_EQ(slog_count_sig(a->id, SIGUSR1), 1);
		close(in);
		utrace_tracer_free(t);
		tlog_n = 0;
	}
}

TEST_T(sigstop_during_syscall_stop, 10)
{
	for (int where = 1; where <= 2; where++) {
		struct utrace_tracer *t = t_tracer();
		int in, out, ix, is, ij;
		pid_t pid = s_spawn_io(t, &in, &out, "sig_prog", "entrysig",
				       NULL);
		struct teng *a = s_attach(t, pid, EV_JS |
					  UTRACE_EVENT_SYSCALL,
					  hook_hold_getppid);
		struct teng *b = s_attach(t, pid, EV_JS, NULL);
		char want[64], line[64];

		a->user[0] = where;
		CHECK(s_readline(t, out, line, sizeof(line), 3000));
		CHECK(write(in, "go\n", 3) == 3);
		CHECK(DISPATCH_UNTIL(t, a->user[1], 3000));
		t_dispatch_for(t, 30);
		CHECK_EQ(kill(pid, SIGSTOP), 0);
		t_dispatch_for(t, 100);
		CHECK(t_stopped(pid));
		CHECK_EQ(a->n[K_JCTL], 0);
		a->user[7] = 0;
		CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
		/* The syscall finishes, then the job stops. */
		CHECK(DISPATCH_UNTIL(t, b->n[K_JCTL] == 1, 3000));
		t_dispatch_for(t, 200);
		CHECK(t_stopped(pid));
		CHECK_EQ(s_drain(out), 0);
		ix = find_kind(0, a->id, K_SYSEXIT, SYS_getppid);
		is = slog_find_sig(0, a->id, SIGSTOP);
		ij = find_kind(0, a->id, K_JCTL, -1);
		if (!(ix >= 0 && is > ix && ij > is))
			tlog_dump(0, 60);
		CHECK(ix >= 0 && is > ix && ij > is);
		CHECK_EQ(tlog[ij].arg, CLD_STOPPED);
		CHECK_EQ(kill(pid, SIGCONT), 0);
		t_run(t);
		snprintf(want, sizeof(want), "ppid %d handled 0\n",
			 (int)getpid());
		CHECK_STR(t_read_all(out), want);
		CHECK_EQ(tlog_count_nr(a->id, K_SYSEXIT, SYS_getppid), 1);
		CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
		close(in);
		utrace_tracer_free(t);
		tlog_n = 0;
	}
}

/* -- Signal storm ----------------------------------------------------------- */

static struct utrace_tracer *storm_t;

/* Follow every new thread with the same kind of engines. */
static uint32_t hook_follow(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_CLONE && (ev->arg2 & CLONE_THREAD)) {
		struct teng *c = s_attach_ops(storm_t, (pid_t)ev->arg,
					      te->ptr ? te->ptr : &s_ops,
					      te->events, hook_follow);

		c->ptr = te->ptr;
	}
	return dflt;
}

#define STORM_N 10000

/*
 * Send STORM_N signals: per round USR1 and USR2 one at a time (they would
 * coalesce), then 8 realtime signals in a burst (they queue); wait for
 * every acknowledgement byte (the handler writes one per signal).
 */
static void storm_send(struct utrace_tracer *t, pid_t pid, int in, int out,
		       int sent[6], char *final, size_t fsize)
{
	union sigval v = { .sival_int = 0 };
	int total = 0, acked = 0;
	char c;

	/* The program writes 'r' when its handlers and threads are set. */
	{
		long dl = t_now_ms() + 3000;

		for (;;) {
			struct pollfd pfd = { out, POLLIN, 0 };

			CHECK(t_now_ms() < dl);
			if (t)
				CHECK(utrace_dispatch(t, 0) >= 0);
			if (poll(&pfd, 1, 5) == 1 && read(out, &c, 1) == 1) {
				CHECK_EQ(c, 'r');
				break;
			}
		}
	}
	while (total < STORM_N) {
		int want;

		for (int k = 0; k < 10 && total < STORM_N; k++) {
			int idx = k < 2 ? k : 2 + (k % 4);

			if (idx < 2)
				CHECK_EQ(kill(pid, idx ? SIGUSR2 : SIGUSR1), 0);
			else
				CHECK_EQ(sigqueue(pid, SIGRTMIN + idx - 2, v),
					 0);
			sent[idx]++;
			total++;
			if (idx < 2 || k == 9 || total == STORM_N) {
				long dl = t_now_ms() + 3000;

				want = total;
				while (acked < want) {
					struct pollfd pfd = { out, POLLIN, 0 };
					char buf[64];
					ssize_t n;

					if (t_now_ms() > dl) {
						fprintf(stderr, "# storm: %d "
							"sent, %d acked\n",
							total, acked);
						CHECK(acked == want);
					}
					if (t)
						CHECK(utrace_dispatch(t, 0) >=
						      0);
					if (poll(&pfd, 1, t ? 1 : 50) != 1)
						continue;
					n = read(out, buf, (size_t)(want -
								    acked) <
						 sizeof(buf) ? (size_t)(want -
									acked) :
						 sizeof(buf));
					CHECK(n > 0);
					acked += (int)n;
				}
			}
		}
	}
	close(in);
	CHECK(s_readline(t, out, final, fsize, 3000));	/* empty line */
	CHECK(s_readline(t, out, final, fsize, 3000));
}

TEST_T(signal_storm_counts_exactly, 60)
{
	char plain[128], traced[128], want[128];
	int sent[6] = { 0 }, sent2[6] = { 0 };
	int in, out;
	pid_t pid;

	/* Untraced. */
	pid = s_fork_prog(&in, &out, "sig_prog", "storm", "3", NULL);
	storm_send(NULL, pid, in, out, sent, plain, sizeof(plain));
	close(out);
	CHECK(t_waitpid(pid, 3000) != -1);
	snprintf(want, sizeof(want), "counts usr1 %d usr2 %d rt %d %d %d %d",
		 sent[0], sent[1], sent[2], sent[3], sent[4], sent[5]);
	CHECK_STR(plain, want);

	/* Traced: engines on every thread, one with report_signal and one
	 * with QUIESCE only, plus one that rewrites nothing but votes
	 * DELIVER explicitly. */
	{
		struct utrace_tracer *t = t_tracer();
		struct teng *a, *q;

		storm_t = t;
		pid = s_spawn_io(t, &in, &out, "sig_prog", "storm", "3", NULL);
		a = s_attach(t, pid, UTRACE_EVENT_SIGNAL_ALL |
			     UTRACE_EVENT(CLONE) | EV_LIFE, hook_follow);
		q = s_attach_ops(t, pid, &s_ops_nosig, UTRACE_EVENT(QUIESCE) |
				 UTRACE_EVENT(CLONE) | EV_LIFE, hook_follow);
		q->ptr = (void *)&s_ops_nosig;
		storm_send(t, pid, in, out, sent2, traced, sizeof(traced));
		t_run(t);
		CHECK_STR(traced, plain);
		CHECK(WIFEXITED(s_death_status(a)));
		CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
		/* Every signal was seen by an engine with report_signal. */
		{
			int n = 0;

			for (int i = 0; i < tlog_n; i++)
				if (tlog[i].kind == K_SIGNAL &&
				    tengs[tlog[i].eng].ptr == NULL)
					n++;
			CHECK_EQ(n, STORM_N);
			CHECK_EQ(tlog_lost, 0);
		}
		close(out);
		utrace_tracer_free(t);
	}
}

int main(void)
{
	return test_main();
}
