/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SIGKILL wins (SPEC section 10, reference 7.6) at every kind of stop:
 * syscall entry, syscall exit, signal, group stop, held with
 * utrace_control(STOP), stepping (at a step stop and between steps).
 * Every engine gets report_death then report_reap, nothing stays stopped,
 * utrace_run returns.  (At the exit stop after exit_group the kernel drops
 * the SIGKILL: the documented departure is checked instead.)  Also: detach while held (the thread runs on, its
 * pending signals are delivered, none lost) and detach racing a SIGKILL.
 */
#include "harness.h"
#include <utrace.h>
#include "sigtlib.h"

enum kwhere {
	KW_ENTRY, KW_EXIT, KW_SIGNAL, KW_EXITSTOP, KW_GROUP, KW_CONTROL,
	KW_STEP_HELD, KW_STEPPING, KW_N
};

static const char *const kw_names[KW_N] = {
	"syscall entry", "syscall exit", "signal", "exit", "group stop",
	"utrace_control(STOP)", "held at a step", "while stepping",
};

static pid_t k_pid;

/*
 * The holder: user[0] is the kwhere; user[1] is set once it holds (or,
 * for KW_STEPPING, once it has killed); user[2] counts steps.
 */
static uint32_t hook_kill(struct teng *te, struct tev *ev, uint32_t dflt)
{
	int w = (int)te->user[0];

	if (ev->kind == K_DEATH || ev->kind == K_REAP)
		return dflt;
	if (te->user[1] && w != KW_STEPPING)
		return UTRACE_STOP | (dflt & ~UTRACE_RESUME_MASK);
	switch (w) {
	case KW_ENTRY:
		if (ev->kind == K_SYSENTRY && ev->nr == SYS_getppid)
			goto hold;
		break;
	case KW_EXIT:
		if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid)
			goto hold;
		break;
	case KW_SIGNAL:
		if (ev->kind == K_SIGNAL && (int)ev->arg == SIGUSR1)
			goto hold;
		break;
	case KW_EXITSTOP:
		if (ev->kind == K_EXIT)
			goto hold;
		break;
	case KW_STEP_HELD:
	case KW_STEPPING:
		if (ev->kind == K_QUIESCE && ev->arg == 0 && te->user[3]) {
			if (++te->user[2] == 20) {
				if (w == KW_STEP_HELD)
					goto hold;
				te->user[1] = 1;
				kill(k_pid, SIGKILL);
			}
			return UTRACE_SINGLESTEP;
		}
		if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid &&
		    !te->user[3]) {
			te->user[3] = 1;	/* the first marker: step */
			return UTRACE_SINGLESTEP;
		}
		break;
	}
	return dflt;
hold:
	te->user[1] = 1;
	return UTRACE_STOP | (dflt & ~UTRACE_RESUME_MASK);
}

static void kill_at(enum kwhere w)
{
	struct utrace_tracer *t = t_tracer();
	int in = -1, out, st;
	pid_t pid;
	struct teng *h, *p, *q;
	unsigned long ev = EV_LIFE | UTRACE_EVENT(QUIESCE) |
			   UTRACE_EVENT_SIGNAL_ALL | UTRACE_EVENT(JCTL);

	switch (w) {
	case KW_ENTRY:
	case KW_EXIT:
		pid = s_spawn_io(t, &in, &out, "sig_prog", "entrysig", NULL);
		ev |= UTRACE_EVENT_SYSCALL;
		break;
	case KW_SIGNAL:
		pid = s_spawn_io(t, NULL, &out, "sig_prog", "info", NULL);
		break;
	case KW_EXITSTOP:
		pid = s_spawn_io(t, NULL, &out, "sig_self", NULL);
		ev |= UTRACE_EVENT(EXIT);
		break;
	case KW_STEP_HELD:
	case KW_STEPPING:
		pid = s_spawn_io(t, NULL, &out, "sig_prog", "step", "100000",
				 NULL);
		ev |= UTRACE_EVENT(SYSCALL_EXIT);
		break;
	default:
		pid = s_spawn_io(t, NULL, &out, "sig_prog", "tick", NULL);
		break;
	}
	k_pid = pid;
	p = s_attach(t, pid, EV_LIFE, NULL);
	h = s_attach(t, pid, ev, hook_kill);
	q = s_attach(t, pid, EV_LIFE | UTRACE_EVENT(QUIESCE) |
		     UTRACE_EVENT_SYSCALL | UTRACE_EVENT_SIGNAL_ALL, NULL);
	h->user[0] = w;
	if (in >= 0)
		CHECK(write(in, "go\n", 3) == 3);
	switch (w) {
	case KW_GROUP:
		{
			char line[16];

			CHECK(s_readline(t, out, line, sizeof(line), 3000));
		}
		CHECK_EQ(kill(pid, SIGSTOP), 0);
		CHECK(DISPATCH_UNTIL(t, h->n[K_JCTL] == 1, 3000));
		break;
	case KW_CONTROL:
		{
			char line[16];
			int r;

			CHECK(s_readline(t, out, line, sizeof(line), 3000));
			h->user[1] = 1;
			r = utrace_control(h->e, UTRACE_STOP);
			CHECK(r == -EINPROGRESS || r == 0);
		}
		break;
	default:
		CHECK(DISPATCH_UNTIL(t, h->user[1], 3000));
		break;
	}
	if (w != KW_STEPPING) {
		t_dispatch_for(t, 50);
		CHECK(t_stopped(pid));
		CHECK(!t_gone(pid));
		CHECK_EQ(kill(pid, SIGKILL), 0);
	}
	if (w == KW_EXITSTOP) {
		/*
		 * Documented departure (utrace(7), "Signals and SIGKILL"):
		 * the kernel drops SIGKILL sent to a process already in
		 * exit_group, so the thread stays held until released, then
		 * dies at once.
		 */
		t_dispatch_for(t, 200);
		CHECK(t_stopped(pid));
		h->user[1] = 0;
		CHECK_EQ(utrace_control(h->e, UTRACE_RESUME), 0);
	}
	t_run(t);
	CHECK(t_wait_gone(pid, 2000));
	t_check_death_reap(p);
	t_check_death_reap(h);
	t_check_death_reap(q);
	st = s_death_status(h);
	if (w != KW_EXITSTOP) {
		if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
			fprintf(stderr, "# at %s: death status %#x\n",
				kw_names[w], st);
		CHECK(WIFSIGNALED(st));
		CHECK_EQ(WTERMSIG(st), SIGKILL);
	}
	/* SIGKILL is never reported. */
	CHECK_EQ(slog_count_sig(-1, SIGKILL), 0);
	/* The killed program ran no more user code after the hold. */
	if (w == KW_ENTRY || w == KW_EXIT) {
		const char *o = t_read_all(out);

		CHECK_STR(o, "ready\n");
	} else {
		close(out);
	}
	if (in >= 0)
		close(in);
	utrace_tracer_free(t);
	tlog_n = 0;
}

TEST_T(sigkill_at_syscall_entry, 10) { kill_at(KW_ENTRY); }
TEST_T(sigkill_at_syscall_exit, 10) { kill_at(KW_EXIT); }
TEST_T(sigkill_at_signal, 10) { kill_at(KW_SIGNAL); }
TEST_T(sigkill_at_exit, 10) { kill_at(KW_EXITSTOP); }
TEST_T(sigkill_at_group_stop, 10) { kill_at(KW_GROUP); }
TEST_T(sigkill_held_by_control_stop, 10) { kill_at(KW_CONTROL); }
TEST_T(sigkill_held_at_step, 10) { kill_at(KW_STEP_HELD); }
TEST_T(sigkill_while_stepping, 10) { kill_at(KW_STEPPING); }

/* -- Detach while held ---------------------------------------------------- */

/*
 * user[0]: 1 hold at USR1's signal stop (keep the signal), 2 hold it with
 * HOLD (signal put back), 0 hold at the first event-0 report (after STOP).
 */
static uint32_t hook_hold_sig(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_DEATH || ev->kind == K_REAP)
		return dflt;
	if (te->user[1])
		return UTRACE_STOP | (dflt & ~UTRACE_RESUME_MASK);
	if (ev->kind == K_SIGNAL && (int)ev->arg == SIGUSR1 && te->user[0]) {
		te->user[1] = 1;
		if (te->user[0] == 2)
			return UTRACE_STOP | UTRACE_SIGNAL_IGN |
			       UTRACE_SIGNAL_HOLD;
		return UTRACE_STOP | UTRACE_SIGNAL_DELIVER;
	}
	return dflt;
}

static void send_batch(pid_t pid, bool usr1)
{
	union sigval v = { .sival_int = 0 };

	if (usr1)
		CHECK_EQ(kill(pid, SIGUSR1), 0);
	CHECK_EQ(kill(pid, SIGUSR2), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(sigqueue(pid, SIGRTMIN, v), 0);
	for (int i = 0; i < 2; i++)
		CHECK_EQ(sigqueue(pid, SIGRTMIN + 1, v), 0);
}

TEST_T(detach_while_held_delivers_pending_signals, 10)
{
	for (int mode = 0; mode <= 2; mode++) {
		struct utrace_tracer *t = t_tracer();
		int in, out, st;
		pid_t pid = s_spawn_io(t, &in, &out, "sig_prog", "count", NULL);
		struct teng *h = s_attach(t, pid, UTRACE_EVENT(QUIESCE) |
					  UTRACE_EVENT_SIGNAL_ALL | EV_LIFE,
					  hook_hold_sig);
		struct teng *p = s_attach(t, pid, UTRACE_EVENT_SIGNAL_ALL |
					  EV_LIFE, NULL);
		char line[128];

		h->user[0] = mode;
		CHECK(s_readline(t, out, line, sizeof(line), 3000));
		CHECK_STR(line, "ready");
		if (mode == 0) {
			h->user[1] = 1;
			CHECK_EQ(utrace_control(h->e, UTRACE_STOP),
				 -EINPROGRESS);
		} else {
			CHECK_EQ(kill(pid, SIGUSR1), 0);
		}
		CHECK(DISPATCH_UNTIL(t, t_stopped(pid) && h->user[1], 3000));
		t_dispatch_for(t, 50);
		CHECK(t_stopped(pid));
		/* More signals while held. */
		send_batch(pid, mode == 0);
		t_dispatch_for(t, 100);
		CHECK(t_stopped(pid));
		CHECK_EQ(utrace_control(p->e, UTRACE_DETACH), 0);
		CHECK_EQ(utrace_control(h->e, UTRACE_DETACH), 0);
		t_dispatch_for(t, 100);
		utrace_engine_put(h->e);
		utrace_engine_put(p->e);
		CHECK_EQ(h->released, 1);
		CHECK_EQ(p->released, 1);
		utrace_tracer_free(t);
		CHECK_EQ(t_tracer_pid(pid), 0);
		CHECK(!t_stopped(pid));
		CHECK(write(in, "p\n", 2) == 2);
		CHECK(s_readline(NULL, out, line, sizeof(line), 3000));
		if (strcmp(line, "usr1 1 usr2 1 rt 3 2 0 0"))
			fprintf(stderr, "# mode %d\n", mode);
		CHECK_STR(line, "usr1 1 usr2 1 rt 3 2 0 0");
		close(in);
		st = t_waitpid(pid, 3000);
		CHECK(st != -1 && WIFEXITED(st));
		CHECK_EQ(WEXITSTATUS(st), 0);
		close(out);
		tlog_n = 0;
	}
}

/* -- Detach racing SIGKILL ------------------------------------------------ */

struct racer {
	pid_t pid;
	int delay_us;
};

static void *kill_thread(void *arg)
{
	struct racer *r = arg;

	if (r->delay_us)
		usleep(r->delay_us);
	kill(r->pid, SIGKILL);
	return NULL;
}

TEST_T(detach_racing_sigkill, 20)
{
	for (int i = 0; i < 24; i++) {
		struct utrace_tracer *t = t_tracer();
		int out, r;
		pid_t pid = s_spawn_io(t, NULL, &out, "sig_prog", "tick", NULL);
		struct teng *h = s_attach(t, pid, UTRACE_EVENT(QUIESCE) |
					  UTRACE_EVENT_SIGNAL_ALL | EV_LIFE,
					  s_hook_holder);
		struct racer rc = { pid, (i % 4) * 50 };
		pthread_t th;
		char line[16];

		CHECK(s_readline(t, out, line, sizeof(line), 3000));
		if (i & 4) {
			/* Held first. */
			h->user[7] = 1;
			r = utrace_control(h->e, UTRACE_STOP);
			CHECK(r == 0 || r == -EINPROGRESS);
			CHECK(DISPATCH_UNTIL(t, t_stopped(pid), 3000));
		}
		if (i % 3 == 0) {
			/* Killed first, not yet seen by the tracer. */
			CHECK_EQ(kill(pid, SIGKILL), 0);
			r = utrace_control(h->e, UTRACE_DETACH);
		} else {
			CHECK_EQ(pthread_create(&th, NULL, kill_thread, &rc),
				 0);
			r = utrace_control(h->e, UTRACE_DETACH);
			pthread_join(th, NULL);
		}
		if (!(r == 0 || r == -EALREADY || r == -ESRCH))
			fprintf(stderr, "# round %d: detach %d\n", i, r);
		CHECK(r == 0 || r == -EALREADY || r == -ESRCH);
		t_run(t);
		if (!t_wait_gone(pid, 2000))
			fprintf(stderr, "# round %d: detach returned %d; after "
				"utrace_run the killed process is in state %c, "
				"still traced by %d\n", i, r, t_state(pid),
				t_tracer_pid(pid));
		CHECK(t_wait_gone(pid, 10));
		utrace_engine_put(h->e);
		CHECK_EQ(h->released, 1);
		/* Either detached first (no final callbacks) or both. */
		CHECK_EQ(h->n[K_DEATH], h->n[K_REAP]);
		CHECK(h->n[K_DEATH] <= 1);
		utrace_tracer_free(t);
		close(out);
		t_waitpid(pid, 100);
		tlog_n = 0;
	}
}

int main(void)
{
	return test_main();
}
