/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Signals (SPEC section 10, reference section 7 and 5.6): classification
 * per disposition, the signal pass (report_quiesce fallback, last engine
 * decides, REPORT/INTERRUPT count as RESUME), rewriting the siginfo and
 * si_signo, UTRACE_SIGNAL_HOLD, INTERRUPT transparency on read, nanosleep
 * and SA_RESTART, injection with an exact siginfo, SIGSEGV by raise and by
 * a real fault, delivered or suppressed by vote.
 */
#include "harness.h"
#include <utrace.h>
#include "sigtlib.h"

#define ALL_SIG (UTRACE_EVENT_SIGNAL_ALL | EV_LIFE)

/* -- Classification ---------------------------------------------------- */

/* The voter: keeps the program alive (ignore anything that would stop,
 * terminate or dump core). */
static uint32_t vote_survive(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind != K_SIGNAL)
		return dflt;
	switch (utrace_signal_action(ev->action)) {
	case UTRACE_SIGNAL_TERM:
	case UTRACE_SIGNAL_CORE:
	case UTRACE_SIGNAL_STOP:
	case UTRACE_SIGNAL_TSTP:
		return UTRACE_RESUME | UTRACE_SIGNAL_IGN;
	default:
		return dflt;
	}
}

struct cls {
	int sig;
	unsigned long bit;
	uint32_t action;
};

TEST_T(classify_each_disposition, 10)
{
	static const unsigned long bits[5] = {
		UTRACE_EVENT(SIGNAL), UTRACE_EVENT(SIGNAL_IGN),
		UTRACE_EVENT(SIGNAL_STOP), UTRACE_EVENT(SIGNAL_TERM),
		UTRACE_EVENT(SIGNAL_CORE),
	};
	const struct cls want[] = {
		{ SIGUSR1, UTRACE_EVENT(SIGNAL), UTRACE_SIGNAL_DELIVER },
		{ SIGUSR2, UTRACE_EVENT(SIGNAL_IGN), UTRACE_SIGNAL_IGN },
		{ SIGWINCH, UTRACE_EVENT(SIGNAL_IGN), UTRACE_SIGNAL_IGN },
		{ SIGCHLD, UTRACE_EVENT(SIGNAL_IGN), UTRACE_SIGNAL_IGN },
		{ SIGCONT, UTRACE_EVENT(SIGNAL_IGN), UTRACE_SIGNAL_IGN },
		{ SIGTSTP, UTRACE_EVENT(SIGNAL_STOP), UTRACE_SIGNAL_TSTP },
		{ SIGTTIN, UTRACE_EVENT(SIGNAL_STOP), UTRACE_SIGNAL_TSTP },
		{ SIGTTOU, UTRACE_EVENT(SIGNAL_STOP), UTRACE_SIGNAL_TSTP },
		{ SIGSTOP, UTRACE_EVENT(SIGNAL_STOP), UTRACE_SIGNAL_STOP },
		{ SIGTERM, UTRACE_EVENT(SIGNAL_TERM), UTRACE_SIGNAL_TERM },
		{ SIGHUP, UTRACE_EVENT(SIGNAL_TERM), UTRACE_SIGNAL_TERM },
		{ SIGQUIT, UTRACE_EVENT(SIGNAL_CORE), UTRACE_SIGNAL_CORE },
		{ SIGSEGV, UTRACE_EVENT(SIGNAL_CORE), UTRACE_SIGNAL_CORE },
		{ SIGABRT, UTRACE_EVENT(SIGNAL_CORE), UTRACE_SIGNAL_CORE },
		{ SIGRTMIN + 1, UTRACE_EVENT(SIGNAL_TERM), UTRACE_SIGNAL_TERM },
	};
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "sig_prog", "classify", NULL);
	struct teng *cls[5], *q, *v;

	for (int i = 0; i < 5; i++)
		cls[i] = s_attach(t, pid, bits[i] | EV_LIFE, NULL);
	/* QUIESCE without report_signal: report_quiesce(event bit). */
	q = s_attach_ops(t, pid, &s_ops_nosig,
			 UTRACE_EVENT(QUIESCE) | EV_LIFE, NULL);
	v = s_attach(t, pid, ALL_SIG, vote_survive);
	t_run(t);
	CHECK_STR(t_read_all(out), "handled 1\n");
	CHECK(WIFEXITED(s_death_status(v)));
	CHECK_EQ(WEXITSTATUS(s_death_status(v)), 0);

	for (unsigned w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
		int sig = want[w].sig, i;

		for (int b = 0; b < 5; b++) {
			int n = slog_count_sig(cls[b]->id, sig);

			if (n != (bits[b] == want[w].bit)) {
				fprintf(stderr, "# signal %d: engine for bit "
					"%#lx saw it %d times\n", sig, bits[b],
					n);
				tlog_dump(0, 200);
			}
			CHECK_EQ(n, bits[b] == want[w].bit);
		}
		i = slog_find_sig(0, v->id, sig);
		CHECK(i >= 0);
		if (utrace_signal_action(tlog[i].action) != want[w].action)
			fprintf(stderr, "# signal %d: action %#x, want %#x\n",
				sig, tlog[i].action, want[w].action);
		CHECK_EQ(utrace_signal_action(tlog[i].action), want[w].action);
		CHECK_EQ(slog_count_sig(v->id, sig), 1);
		/* The siginfo is the real one. */
		CHECK(i < S_SIMAX);
		CHECK_EQ(s_si[i].si_signo, sig);
		CHECK_EQ(s_si[i].si_pid, pid);
	}
	/* The QUIESCE-only engine got report_quiesce with each class bit. */
	CHECK_EQ(q->n[K_SIGNAL], 0);
	for (unsigned w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
		int n = 0;

		for (int i = 0; i < tlog_n; i++)
			if (tlog[i].eng == q->id && tlog[i].kind == K_QUIESCE &&
			    tlog[i].arg == want[w].bit)
				n++;
		CHECK(n >= 1);
	}
	CHECK_EQ(q->n[K_QUIESCE], (int)(sizeof(want) / sizeof(want[0])) + 1);
	utrace_tracer_free(t);
}

/*
 * The class follows every change of disposition while the thread stops at
 * each syscall (where the library keeps what /proc said between signals):
 * rt_sigaction, SA_RESETHAND's reset at delivery, a CLONE_SIGHAND child
 * changing its parent's handler.
 */
TEST_T(dispositions_followed, 10)
{
	static const struct {
		int sig;
		uint32_t action;
	} want[] = {
		{ SIGWINCH, UTRACE_SIGNAL_DELIVER },
		{ SIGWINCH, UTRACE_SIGNAL_DELIVER },
		{ SIGWINCH, UTRACE_SIGNAL_DELIVER },
		{ SIGWINCH, UTRACE_SIGNAL_DELIVER },	/* SA_RESETHAND */
		{ SIGWINCH, UTRACE_SIGNAL_IGN },
		{ SIGWINCH, UTRACE_SIGNAL_IGN },
		{ SIGWINCH, UTRACE_SIGNAL_IGN },	/* SIG_IGN */
		{ SIGWINCH, UTRACE_SIGNAL_DELIVER },
		{ SIGWINCH, UTRACE_SIGNAL_DELIVER },
		{ SIGWINCH, UTRACE_SIGNAL_DELIVER },	/* SA_RESETHAND */
		{ SIGWINCH, UTRACE_SIGNAL_IGN },
		{ SIGUSR1, UTRACE_SIGNAL_DELIVER },
		{ SIGUSR1, UTRACE_SIGNAL_DELIVER },
		{ SIGUSR1, UTRACE_SIGNAL_DELIVER },
		{ SIGUSR1, UTRACE_SIGNAL_IGN },		/* the child's SIG_IGN */
		{ SIGUSR1, UTRACE_SIGNAL_DELIVER },
		{ SIGUSR1, UTRACE_SIGNAL_DELIVER },
	};
	struct utrace_tracer *t = t_tracer();
	int out, n = 0;
	pid_t pid = t_spawn(t, &out, "sig_prog", "disp", NULL);
	struct teng *v;

	/* Syscall events: the thread stops at every syscall. */
	v = s_attach(t, pid, ALL_SIG | UTRACE_EVENT(SYSCALL_ENTRY) |
			     UTRACE_EVENT(SYSCALL_EXIT), NULL);
	t_run(t);
	CHECK_STR(t_read_all(out), "handled 12\n");
	CHECK(WIFEXITED(s_death_status(v)));
	CHECK_EQ(WEXITSTATUS(s_death_status(v)), 0);
	for (int i = 0; i < tlog_n; i++) {
		if (tlog[i].eng != v->id || tlog[i].kind != K_SIGNAL ||
		    tlog[i].tid != pid ||
		    ((int)tlog[i].arg != SIGWINCH && (int)tlog[i].arg != SIGUSR1))
			continue;
		CHECK(n < (int)(sizeof(want) / sizeof(want[0])));
		if ((int)tlog[i].arg != want[n].sig ||
		    utrace_signal_action(tlog[i].action) != want[n].action)
			fprintf(stderr, "# signal %d: %d action %#x, want %d "
				"%#x\n", n, (int)tlog[i].arg,
				utrace_signal_action(tlog[i].action),
				want[n].sig, want[n].action);
		CHECK_EQ((int)tlog[i].arg, want[n].sig);
		CHECK_EQ(utrace_signal_action(tlog[i].action), want[n].action);
		n++;
	}
	CHECK_EQ(n, (int)(sizeof(want) / sizeof(want[0])));
	utrace_tracer_free(t);
}

/*
 * The signal pass: the last engine decides the disposition, an engine with
 * QUIESCE and no report_signal keeps it, REPORT and INTERRUPT count as
 * RESUME (the program is not looped back into another report).
 */
static uint32_t hook_ign_usr1(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_SIGNAL && (int)ev->arg == SIGUSR1)
		return UTRACE_INTERRUPT | UTRACE_SIGNAL_IGN;
	return dflt;
}

static uint32_t hook_deliver_usr1(struct teng *te, struct tev *ev,
				  uint32_t dflt)
{
	if (ev->kind == K_SIGNAL && (int)ev->arg == SIGUSR1) {
		te->user[0] = utrace_signal_action(ev->action);
		return UTRACE_REPORT | UTRACE_SIGNAL_DELIVER;
	}
	return dflt;
}

TEST_T(last_engine_decides, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "sig_self", NULL);
	struct teng *a = s_attach(t, pid, ALL_SIG | UTRACE_EVENT(QUIESCE),
				  hook_ign_usr1);
	struct teng *q = s_attach_ops(t, pid, &s_ops_nosig,
				      UTRACE_EVENT(QUIESCE) | EV_LIFE, NULL);
	struct teng *b = s_attach(t, pid, ALL_SIG, hook_deliver_usr1);

	t_run(t);
	/* b saw a's IGN (passed along by q) and delivered: both handled. */
	CHECK_STR(t_read_all(out), "handled 2\n");
	CHECK_EQ(b->user[0], UTRACE_SIGNAL_IGN);
	CHECK_EQ(slog_count_sig(a->id, SIGUSR1), 2);
	CHECK_EQ(slog_count_sig(b->id, SIGUSR1), 2);
	/* INTERRUPT/REPORT returned in the pass: no extra REPORT pass. */
	CHECK_EQ(slog_find_sa(0, a->id, UTRACE_SIGNAL_REPORT), -1);
	CHECK_EQ(tlog_count(q->id, K_QUIESCE),
		 2 + 1 /* death */);
	for (int i = 0; i < tlog_n; i++)
		if (tlog[i].eng == q->id && tlog[i].kind == K_QUIESCE &&
		    tlog[i].arg == UTRACE_EVENT(SIGNAL))
			CHECK_EQ(utrace_signal_action(tlog[i].action),
				 UTRACE_SIGNAL_IGN);
	t_check_death_reap(a);
	t_check_death_reap(b);
	utrace_tracer_free(t);

	/* Reversed: the last engine ignores: nothing delivered. */
	tlog_n = 0;
	t = t_tracer();
	pid = t_spawn(t, &out, "sig_self", NULL);
	b = s_attach(t, pid, ALL_SIG, hook_deliver_usr1);
	a = s_attach(t, pid, ALL_SIG, hook_ign_usr1);
	t_run(t);
	CHECK_STR(t_read_all(out), "handled 0\n");
	CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
	utrace_tracer_free(t);
}

/* -- Rewriting the siginfo ------------------------------------------------ */

static uint32_t hook_rewrite(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind != K_SIGNAL || (int)ev->arg != SIGUSR1 || !s_info)
		return dflt;
	switch (te->user[0]) {
	case 1:		/* another value, same signal */
		s_info->si_value.sival_int = 99;
		break;
	case 2:		/* another signal and value */
		s_info->si_signo = SIGUSR2;
		s_info->si_value.sival_int = 77;
		s_info->si_pid = 4321;
		break;
	case 3:		/* a signal that terminates by default */
		s_info->si_signo = SIGTERM;
		break;
	}
	return UTRACE_RESUME | UTRACE_SIGNAL_DELIVER;
}

TEST_T(rewrite_siginfo_and_signo, 10)
{
	char want[128];
	int out;

	for (int mode = 0; mode <= 3; mode++) {
		struct utrace_tracer *t = t_tracer();
		pid_t pid = t_spawn(t, &out, "sig_prog", "info", NULL);
		struct teng *a = s_attach(t, pid, ALL_SIG, NULL);
		struct teng *b = s_attach(t, pid, ALL_SIG, hook_rewrite);
		struct teng *c = s_attach(t, pid, ALL_SIG, NULL);
		const char *o;
		int i;

		b->user[0] = mode;
		t_run(t);
		o = t_read_all(out);
		switch (mode) {
		case 0:
			snprintf(want, sizeof(want), "sig %d code %d pid %d "
				 "uid %d val 42\n", SIGUSR1, SI_QUEUE, pid,
				 (int)getuid());
			break;
		case 1:
			snprintf(want, sizeof(want), "sig %d code %d pid %d "
				 "uid %d val 99\n", SIGUSR1, SI_QUEUE, pid,
				 (int)getuid());
			break;
		case 2:
			snprintf(want, sizeof(want), "sig %d code %d pid 4321 "
				 "uid %d val 77\n", SIGUSR2, SI_QUEUE,
				 (int)getuid());
			break;
		case 3:
			want[0] = '\0';
			break;
		}
		CHECK_STR(o, want);
		/* The next engine saw the rewritten siginfo. */
		i = slog_find_sig(0, c->id, mode == 2 ? SIGUSR2 :
				  mode == 3 ? SIGTERM : SIGUSR1);
		CHECK(i >= 0);
		if (mode == 1 || mode == 2)
			CHECK_EQ(s_si[i].si_value.sival_int,
				 mode == 1 ? 99 : 77);
		CHECK_EQ(slog_count_sig(a->id, SIGUSR1), 1);
		/* A signal changed in the pass is not reported again. */
		CHECK_EQ(slog_count_sig(a->id, SIGUSR2), 0);
		if (mode == 3) {
			CHECK(WIFSIGNALED(s_death_status(c)));
			CHECK_EQ(WTERMSIG(s_death_status(c)), SIGTERM);
		} else {
			CHECK(WIFEXITED(s_death_status(c)));
		}
		utrace_tracer_free(t);
		tlog_n = 0;
	}
}

/* -- HOLD ------------------------------------------------------------------ */

static uint32_t hook_hold(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind != K_SIGNAL || (int)ev->arg != SIGUSR1)
		return dflt;
	te->user[1]++;
	if (te->user[1] <= te->user[0])
		return UTRACE_RESUME | UTRACE_SIGNAL_IGN | UTRACE_SIGNAL_HOLD;
	return dflt;
}

TEST_T(hold_signal_seen_again, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "sig_prog", "info", NULL);
	struct teng *a = s_attach(t, pid, ALL_SIG, hook_hold);
	char want[128];
	int i, j;

	a->user[0] = 2;		/* held twice, delivered the third time */
	t_run(t);
	snprintf(want, sizeof(want), "sig %d code %d pid %d uid %d val 42\n",
		 SIGUSR1, SI_QUEUE, pid, (int)getuid());
	CHECK_STR(t_read_all(out), want);
	CHECK_EQ(slog_count_sig(a->id, SIGUSR1), 3);
	/* Each time with the same siginfo. */
	i = slog_find_sig(0, a->id, SIGUSR1);
	j = slog_find_sig(i + 1, a->id, SIGUSR1);
	CHECK(i >= 0 && j > i);
	CHECK_EQ(s_si[j].si_code, SI_QUEUE);
	CHECK_EQ(s_si[j].si_pid, pid);
	CHECK_EQ(s_si[j].si_value.sival_int, 42);
	CHECK_EQ(utrace_signal_action(tlog[j].action), UTRACE_SIGNAL_DELIVER);
	t_check_death_reap(a);
	utrace_tracer_free(t);
}

/* A held signal sent with kill() (SI_USER) comes back as it was. */
TEST_T(hold_kill_sent_signal, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out, i;
	pid_t pid = t_spawn(t, &out, "sig_self", NULL);
	struct teng *a = s_attach(t, pid, ALL_SIG, hook_hold);

	a->user[0] = 1;		/* the first one held once */
	t_run(t);
	CHECK_STR(t_read_all(out), "handled 2\n");
	CHECK_EQ(slog_count_sig(a->id, SIGUSR1), 3);
	i = slog_find_sig(0, a->id, SIGUSR1);
	i = slog_find_sig(i + 1, a->id, SIGUSR1);
	CHECK_EQ(s_si[i].si_code, SI_USER);
	CHECK_EQ(s_si[i].si_pid, pid);
	utrace_tracer_free(t);
}

/* HOLD with STOP: the thread stays at the signal; on resume, seen again. */
static uint32_t hook_hold_stop(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind != K_SIGNAL || (int)ev->arg != SIGUSR1)
		return dflt;
	if (++te->user[1] == 1)
		return UTRACE_STOP | UTRACE_SIGNAL_IGN | UTRACE_SIGNAL_HOLD;
	return dflt;
}

TEST_T(hold_with_stop_then_resume, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "sig_prog", "info", NULL);
	struct teng *a = s_attach(t, pid, ALL_SIG, hook_hold_stop);
	char want[128];

	CHECK(DISPATCH_UNTIL(t, a->user[1] == 1, 3000));
	t_dispatch_for(t, 100);
	CHECK(t_stopped(pid));
	CHECK_EQ(a->user[1], 1);
	CHECK_EQ(utrace_control(a->e, UTRACE_STOP), 0);
	CHECK_EQ(utrace_control(a->e, UTRACE_RESUME), 0);
	t_run(t);
	snprintf(want, sizeof(want), "sig %d code %d pid %d uid %d val 42\n",
		 SIGUSR1, SI_QUEUE, pid, (int)getuid());
	CHECK_STR(t_read_all(out), want);
	CHECK_EQ(a->user[1], 2);
	utrace_tracer_free(t);
}

/*
 * Three instances of one RT signal queued to the thread, each held once:
 * every one is reported again with its own siginfo, right after itself
 * (a held signal goes back at the head of the queue, reference 7.2).
 */
static uint32_t hook_hold_rt(struct teng *te, struct tev *ev, uint32_t dflt)
{
	int v;

	if (ev->kind != K_SIGNAL || (int)ev->arg != SIGRTMIN || !s_info)
		return dflt;
	v = s_info->si_value.sival_int;
	if (v >= 1 && v <= 3 && v <= te->user[0] && te->user[v]++ == 0)
		return UTRACE_RESUME | UTRACE_SIGNAL_IGN | UTRACE_SIGNAL_HOLD;
	return dflt;
}

static void rt_reports(struct teng *a, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < tlog_n && i < S_SIMAX; i++)
		if (tlog[i].eng == a->id && tlog[i].kind == K_SIGNAL &&
		    (int)tlog[i].arg == SIGRTMIN && len + 4 < size)
			len += snprintf(buf + len, size - len, "%s%d",
					len ? " " : "",
					s_si[i].si_value.sival_int);
}

TEST_T(hold_queued_instances_keep_order_and_siginfo, 10)
{
	static const int held_upto[] = { 0, 1, 3 };
	static const char *const want[] = { "1 2 3", "1 1 2 3",
					    "1 1 2 2 3 3" };

	for (int m = 0; m < 3; m++) {
		struct utrace_tracer *t = t_tracer();
		int out;
		pid_t pid = t_spawn(t, &out, "sig_prog", "rtq", NULL);
		struct teng *a = s_attach(t, pid, ALL_SIG, hook_hold_rt);
		char got[64];

		a->user[0] = held_upto[m];	/* these values held once */
		t_run(t);
		CHECK_STR(t_read_all(out), "rt 1 2 3\n");
		rt_reports(a, got, sizeof(got));
		CHECK_STR(got, want[m]);
		utrace_tracer_free(t);
		tlog_n = 0;
	}
}

/*
 * The pattern of reference 7.4: stop with the signal dropped
 * (STOP | SIGNAL_IGN), then resume with INTERRUPT or REPORT; the REPORT
 * pass sees *info as the last callback left it, and delivering it runs the
 * handler with that very siginfo.
 */
static uint32_t hook_hold_later(struct teng *te, struct tev *ev,
				uint32_t dflt)
{
	if (ev->kind != K_SIGNAL || !s_info)
		return dflt;
	if (utrace_signal_action(ev->action) == UTRACE_SIGNAL_REPORT) {
		te->user[2]++;
		te->user[3] = s_info->si_signo;
		te->user[4] = s_info->si_value.sival_int;
		return UTRACE_RESUME | UTRACE_SIGNAL_DELIVER;
	}
	if ((int)ev->arg == SIGUSR1 && te->user[1]++ == 0)
		return UTRACE_STOP | UTRACE_SIGNAL_IGN;
	return dflt;
}

TEST_T(stop_ignored_signal_then_deliver_from_report_pass, 10)
{
	static const int how[] = { UTRACE_INTERRUPT, UTRACE_REPORT };

	for (int m = 0; m < 2; m++) {
		struct utrace_tracer *t = t_tracer();
		int out;
		pid_t pid = t_spawn(t, &out, "sig_prog", "info", NULL);
		struct teng *a = s_attach(t, pid, ALL_SIG |
					  UTRACE_EVENT(QUIESCE),
					  hook_hold_later);
		char want[128];

		CHECK(DISPATCH_UNTIL(t, a->user[1] == 1, 3000));
		t_dispatch_for(t, 50);
		CHECK(t_stopped(pid));
		CHECK_EQ(a->user[2], 0);
		CHECK_EQ(utrace_control(a->e, how[m]), 0);
		t_run(t);
		CHECK_EQ(a->user[2], 1);
		CHECK_EQ(a->user[3], SIGUSR1);
		CHECK_EQ(a->user[4], 42);
		snprintf(want, sizeof(want),
			 "sig %d code %d pid %d uid %d val 42\n", SIGUSR1,
			 SI_QUEUE, pid, (int)getuid());
		CHECK_STR(t_read_all(out), want);
		utrace_tracer_free(t);
		tlog_n = 0;
	}
}

/* -- INTERRUPT ------------------------------------------------------------- */

/* Wait for "ready" and for the thread to sleep in its syscall. */
static void wait_ready_blocked(struct utrace_tracer *t, int out, pid_t pid)
{
	char line[256];

	CHECK(s_readline(t, out, line, sizeof(line), 3000));
	CHECK_STR(line, "ready");
	CHECK(DISPATCH_UNTIL(t, t_state(pid) == 'S', 5000));
}

static void interrupt_and_wait(struct utrace_tracer *t, struct teng *a,
			       struct teng *q)
{
	CHECK_EQ(utrace_control(a->e, UTRACE_INTERRUPT), 0);
	CHECK(DISPATCH_UNTIL(t, slog_find_sa(0, a->id,
					     UTRACE_SIGNAL_REPORT) >= 0, 3000));
	if (q)
		CHECK(DISPATCH_UNTIL(t, tlog_find(0, q->id, K_QUIESCE) >= 0,
				     1000));
}

TEST_T(interrupt_blocked_read_transparent, 10)
{
	const char *modes[] = { NULL, "restart", "nores" };

	for (int m = 0; m < 3; m++) {
		struct utrace_tracer *t = t_tracer();
		int in, out, i;
		pid_t pid = s_spawn_io(t, &in, &out, "sig_prog", "read",
				       modes[m], NULL);
		struct teng *a = s_attach(t, pid, UTRACE_EVENT(QUIESCE) |
					  UTRACE_EVENT_SIGNAL_ALL | EV_LIFE,
					  NULL);
		struct teng *q = s_attach_ops(t, pid, &s_ops_nosig,
					      UTRACE_EVENT(QUIESCE) | EV_LIFE,
					      NULL);
		struct teng *n = s_attach(t, pid, UTRACE_EVENT_SIGNAL_ALL |
					  EV_LIFE, NULL);

		wait_ready_blocked(t, out, pid);
		interrupt_and_wait(t, a, q);
		/* The QUIESCE engine without report_signal: event 0. */
		i = tlog_find(0, q->id, K_QUIESCE);
		CHECK_EQ(tlog[i].arg, 0);
		/* Nothing for the engine without QUIESCE. */
		CHECK_EQ(n->n[K_SIGNAL], 0);
		i = slog_find_sa(0, a->id, UTRACE_SIGNAL_REPORT);
		CHECK_EQ(a->n[K_SIGNAL], 1);
		/* Still blocked in read, then it reads what comes. */
		CHECK(DISPATCH_UNTIL(t, t_state(pid) == 'S', 3000));
		CHECK(write(in, "hello\n", 6) == 6);
		close(in);
		t_run(t);
		CHECK_STR(t_read_all(out), "read 6 errno 0 data hello handled 0\n");
		CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
		CHECK_EQ(a->n[K_SIGNAL], 1);
		utrace_tracer_free(t);
		tlog_n = 0;
	}
}

TEST_T(interrupt_nanosleep_transparent, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	long t0;
	pid_t pid = s_spawn_io(t, NULL, &out, "sig_prog", "sleep", "600",
			       NULL);
	struct teng *a = s_attach(t, pid, UTRACE_EVENT(QUIESCE) |
				  UTRACE_EVENT_SIGNAL_ALL |
				  UTRACE_EVENT_SYSCALL | EV_LIFE, NULL);

	wait_ready_blocked(t, out, pid);
	t0 = t_now_ms();
	interrupt_and_wait(t, a, NULL);
	/* Twice more: each time it goes back to sleep. */
	t_dispatch_for(t, 50);
	interrupt_and_wait(t, a, NULL);
	CHECK(t_now_ms() - t0 < 500);
	t_run(t);
	CHECK_STR(t_read_all(out), "sleep 0 errno 0 ok 1\n");
	/* The interrupted nanosleep exited with -ERESTART_RESTARTBLOCK and
	 * restarted (through restart_syscall or nanosleep again). */
	CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
	utrace_tracer_free(t);
}

/* -- Injection ------------------------------------------------------------- */

static uint32_t hook_inject(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind != K_SIGNAL ||
	    utrace_signal_action(ev->action) != UTRACE_SIGNAL_REPORT ||
	    !s_info || te->user[0]++)
		return dflt;
	memset(s_info, 0, sizeof(*s_info));
	s_info->si_signo = (int)te->user[1];
	s_info->si_code = SI_QUEUE;
	s_info->si_pid = 4242;
	s_info->si_uid = 777;
	s_info->si_value.sival_int = 0x1234;
	return UTRACE_RESUME | UTRACE_SIGNAL_DELIVER;
}

TEST_T(inject_exact_siginfo, 10)
{
	static const char *const progs[][2] = {
		{ "wait", NULL }, { "read", "restart" }, { "read", "nores" },
	};

	for (int m = 0; m < 3; m++) {
		struct utrace_tracer *t = t_tracer();
		int in, out;
		pid_t pid = s_spawn_io(t, &in, &out, "sig_prog", progs[m][0],
				       progs[m][1], NULL);
		struct teng *a = s_attach(t, pid, UTRACE_EVENT(QUIESCE) |
					  UTRACE_EVENT_SIGNAL_ALL | EV_LIFE,
					  hook_inject);
		struct teng *b = s_attach(t, pid, UTRACE_EVENT_SIGNAL_ALL |
					  EV_LIFE, NULL);
		char want[128], line[256];

		signal(SIGPIPE, SIG_IGN);
		a->user[1] = m == 0 ? SIGUSR2 : SIGUSR1;
		wait_ready_blocked(t, out, pid);
		interrupt_and_wait(t, a, NULL);
		if (m == 0) {
			CHECK(s_readline(t, out, line, sizeof(line), 3000));
			snprintf(want, sizeof(want), "sig %d code %d pid 4242 "
				 "uid 777 val 4660", SIGUSR2, SI_QUEUE);
			CHECK_STR(line, want);
		} else {
			t_dispatch_for(t, 100);
			/* Without SA_RESTART the read may be over already. */
			if (write(in, "data\n", 5) != 5)
				CHECK(m == 2);
			CHECK(s_readline(t, out, line, sizeof(line), 3000));
			/* SA_RESTART: the read goes on; otherwise EINTR. */
			CHECK_STR(line, m == 1 ?
				  "read 5 errno 0 data data handled 1" :
				  "read -1 errno 4 data  handled 1");
		}
		close(in);
		t_run(t);
		/* Injected signals are not reported as signals again. */
		CHECK_EQ(slog_count_sig(a->id, (int)a->user[1]), 0);
		CHECK_EQ(b->n[K_SIGNAL], 0);
		CHECK_EQ(WEXITSTATUS(s_death_status(a)), 0);
		utrace_tracer_free(t);
		tlog_n = 0;
	}
}

/* -- SIGSEGV: raise and a real fault, by vote --------------------------- */

static uint32_t hook_segv(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind != K_SIGNAL || (int)ev->arg != SIGSEGV)
		return dflt;
	te->user[1]++;
	if (te->user[0] == 1)		/* suppress */
		return UTRACE_RESUME | UTRACE_SIGNAL_IGN;
	if (te->user[0] == 2)		/* insist on the default action */
		return UTRACE_RESUME | UTRACE_SIGNAL_CORE;
	if (te->user[0] == 3 && te->user[1] == 1)	/* suppress once */
		return UTRACE_RESUME | UTRACE_SIGNAL_IGN;
	return dflt;
}

static void segv_case(const char *how, int va, int vb, bool dies,
		      int seen)
{
	struct utrace_tracer *t = t_tracer();
	int out, i, st;
	pid_t pid = t_spawn(t, &out, "sig_prog", "segv", how, NULL);
	struct teng *a = s_attach(t, pid, UTRACE_EVENT(SIGNAL_CORE) | EV_LIFE,
				  hook_segv);
	struct teng *b = s_attach(t, pid, UTRACE_EVENT(SIGNAL_CORE) | EV_LIFE,
				  hook_segv);
	const char *o;

	a->user[0] = va;
	b->user[0] = vb;
	t_run(t);
	o = t_read_all(out);
	st = s_death_status(b);
	if (dies) {
		CHECK_STR(o, "");
		CHECK(WIFSIGNALED(st));
		CHECK_EQ(WTERMSIG(st), SIGSEGV);
	} else {
		CHECK_STR(o, "survived\n");
		CHECK(WIFEXITED(st));
	}
	CHECK_EQ(a->user[1], seen);
	CHECK_EQ(b->user[1], seen);
	i = slog_find_sig(0, a->id, SIGSEGV);
	CHECK(i >= 0);
	CHECK_EQ(utrace_signal_action(tlog[i].action), UTRACE_SIGNAL_CORE);
	if (!strcmp(how, "fault")) {
		CHECK_EQ(s_si[i].si_code, SEGV_MAPERR);
		CHECK_EQ((long)s_si[i].si_addr, 8);
	} else {
		CHECK_EQ(s_si[i].si_code, SI_TKILL);
	}
	t_check_death_reap(a);
	t_check_death_reap(b);
	utrace_tracer_free(t);
	tlog_n = 0;
}

TEST_T(segv_raise_and_fault_by_vote, 10)
{
	segv_case("raise", 0, 0, true, 1);	/* nobody objects: dies */
	segv_case("raise", 0, 1, false, 1);	/* the last engine ignores */
	segv_case("raise", 1, 0, false, 1);	/* IGN passed along */
	segv_case("raise", 1, 2, true, 1);	/* the last engine insists */
	segv_case("fault", 0, 0, true, 1);
	/* A suppressed fault faults again; the second time it is fatal. */
	segv_case("fault", 3, 0, true, 2);
}

int main(void)
{
	return test_main();
}
