/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a debugger needs from a queue: other register sets and the debug
 * registers of a held thread (utrace_queue_regset_*, _debugreg_*), a real
 * hardware watchpoint, one thread of an all-stopped process let go or
 * single-stepped while the others stay stopped
 * (utrace_queue_resume_thread), and the step's trap as a SIGNAL record.
 *
 * Every case runs twice: on a local queue (utrace_queue_new, the test
 * process is the tracer) and on a joined one (utrace_queue_connect to a
 * forked serving tracer, over the wire).  A joined tracee is started
 * through "sh -c 'read x; exec PROG ARGS'" so that it waits, making no
 * system call we watch, until the joiner has watched it.
 */
#include <elf.h>
#include <sys/user.h>
#include <sys/wait.h>
#include "tlib.h"

struct fx {
	bool joined;
	struct utrace_tracer *t;	/* local */
	struct utrace_queue *q;
	pid_t pid;			/* the tracee */
	pid_t helper;			/* joined: the serving tracer */
	int in, out, ctl;
};

static void fx_start(struct fx *f, bool joined, const char *prog,
		     const char *a1, const char *a2, const char *a3)
{
	char *argv[8];
	int n = 0;

	memset(f, 0, sizeof(*f));
	f->joined = joined;
	f->in = f->out = f->ctl = -1;
	if (!joined) {
		argv[n++] = (char *)test_prog(prog);
		if (a1)
			argv[n++] = (char *)a1;
		if (a2)
			argv[n++] = (char *)a2;
		if (a3)
			argv[n++] = (char *)a3;
		argv[n] = NULL;
		f->t = t_tracer();
		CHECK_EQ(utrace_queue_new(f->t, &f->q), 0);
		CHECK_EQ(t_spawn_opts(f->t, &f->out, NULL, &f->pid, argv), 0);
		return;
	}
	{
		int in[2], out[2], ctl[2];

		CHECK(pipe2(in, O_CLOEXEC) == 0);
		CHECK(pipe2(out, O_CLOEXEC) == 0);
		CHECK(pipe2(ctl, O_CLOEXEC) == 0);
		argv[n++] = "/bin/sh";
		argv[n++] = "-c";
		argv[n++] = "read x; exec \"$0\" \"$@\"";
		argv[n++] = (char *)test_prog(prog);
		if (a1)
			argv[n++] = (char *)a1;
		if (a2)
			argv[n++] = (char *)a2;
		if (a3)
			argv[n++] = (char *)a3;
		argv[n] = NULL;
		fflush(NULL);
		f->helper = fork();
		CHECK(f->helper >= 0);
		if (f->helper == 0) {
			struct utrace_spawn_opts o = {
				sizeof(o), NULL, NULL,
				UTRACE_SPAWN_KILL_ON_EXIT };
			static const struct utrace_engine_ops none = { 0 };
			struct utrace_tracer *t;
			struct utrace_engine *e;
			pid_t pid;

			CHECK(dup2(in[0], 0) == 0);
			CHECK(dup2(out[1], 1) == 1);
			CHECK_EQ(utrace_tracer_new(&t), 0);
			CHECK_EQ(utrace_spawn(t, argv, &o, &pid), 0);
			close(0);
			close(1);
			/* An engine of its own keeps the tracee traced. */
			CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE,
					       &none, NULL, &e), 0);
			CHECK_EQ(utrace_tracer_serve(t, UTRACE_SERVE_DEFAULT), 0);
			CHECK(write(ctl[1], &pid, sizeof(pid)) == sizeof(pid));
			CHECK_EQ(utrace_run(t), 0);
			utrace_engine_put(e);
			utrace_tracer_free(t);
			_exit(0);
		}
		close(in[0]);
		close(out[1]);
		close(ctl[1]);
		f->in = in[1];
		f->out = out[0];
		f->ctl = ctl[0];
		CHECK(read(f->ctl, &f->pid, sizeof(f->pid)) ==
		      sizeof(f->pid));
		CHECK_EQ(utrace_queue_connect(f->pid, &f->q), 0);
	}
}

/* Watched: let the joined tracee start (a local one runs already). */
static void fx_go(struct fx *f)
{
	if (f->joined)
		CHECK(write(f->in, "go\n", 3) == 3);
}

/* Wait for @cond: a local tracer dispatches, a joined one runs itself. */
#define FX_UNTIL(f, cond, ms) ({					\
	bool _ok;							\
	if (!(f)->joined) {						\
		_ok = DISPATCH_UNTIL((f)->t, (cond), (ms));		\
	} else {							\
		long _dl = t_now_ms() + (ms);				\
		while (!(cond) && t_now_ms() < _dl)			\
			usleep(5000);					\
		_ok = (cond);						\
	}								\
	_ok;								\
})

/* The tracee's output, once it has ended; then everything goes. */
static const char *fx_end(struct fx *f)
{
	const char *out = f->out >= 0 ? t_read_all(f->out) : "";

	utrace_queue_free(f->q);
	if (!f->joined) {
		utrace_tracer_free(f->t);
	} else {
		int st;

		close(f->in);
		CHECK(waitpid(f->helper, &st, 0) == f->helper);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		close(f->ctl);
	}
	return out;
}

static int q_next(struct utrace_queue *q, struct utrace_event *ev, int ms)
{
	memset(ev, 0, sizeof(*ev));
	ev->size = sizeof(*ev);
	return utrace_queue_next(q, ev, ms);
}

static void reply(struct utrace_queue *q, uint64_t id, uint32_t action)
{
	struct utrace_reply r;

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.action = action;
	CHECK_EQ(utrace_queue_reply(q, id, &r), 0);
}

/* Every record until the tracee is gone (a joined queue: disconnected). */
static void drain(struct fx *f)
{
	struct utrace_event ev;

	while (q_next(f->q, &ev, 20000) == 1)
		if (ev.held)
			reply(f->q, ev.id, UTRACE_RESUME);
}

/* A thread id that belonged to a process that is gone (reaped). */
static pid_t dead_tid(void)
{
	pid_t p;
	int st;

	fflush(NULL);
	p = fork();
	CHECK(p >= 0);
	if (p == 0)
		_exit(0);
	CHECK(waitpid(p, &st, 0) == p);
	return p;
}

static int count_stopped(pid_t pid)
{
	pid_t tids[16];
	int n = t_tasks(pid, tids, 16), k = 0;

	for (int i = 0; i < n; i++)
		k += t_state(tids[i]) == 't';
	return k;
}

/* queue_prog spin 1 60000, watched, all-stopped: main and @other. */
static void spin_stopped(struct fx *f, bool joined, unsigned long events,
			 unsigned long hold, pid_t *other)
{
	struct utrace_event ev;
	pid_t tids[4];
	int n = 0;

	fx_start(f, joined, "queue_prog", "spin", "1", "60000");
	CHECK_EQ(utrace_queue_watch(f->q, f->pid, UTRACE_WATCH_PROCESS,
				    events, hold), 0);
	fx_go(f);
	CHECK(FX_UNTIL(f, t_tasks(f->pid, tids, 4) == 2, 20000));
	CHECK_EQ(utrace_queue_stop(f->q, f->pid, 30000), 2);
	*other = tids[0] == f->pid ? tids[1] : tids[0];
	while (n < 2 && q_next(f->q, &ev, 10000) == 1) {
		if (ev.type == 0)
			n++;
		else if (ev.held)
			reply(f->q, ev.id, UTRACE_RESUME);
	}
	CHECK_EQ(n, 2);
	CHECK_EQ(count_stopped(f->pid), 2);
}

/* -- Register sets and debug registers of a held thread ----------------- */

static void regsets(bool joined)
{
	static unsigned char xs[16384], again[16384], orig[16384];
	struct user_regs_struct regs;
	struct fx f;
	uint64_t v = 1;
	pid_t other, dead = dead_tid();
	ssize_t n;

	spin_stopped(&f, joined, UTRACE_EVENT(DEATH), 0, &other);
	n = utrace_queue_regset_get(f.q, other, NT_X86_XSTATE, xs, sizeof(xs));
	CHECK(n >= 576);
	memcpy(orig, xs, (size_t)n);
	/* xmm15 changed, read back through both views, then restored. */
	memset(xs + 160 + 16 * 15, 0x5a, 16);
	CHECK_EQ(utrace_queue_regset_set(f.q, other, NT_X86_XSTATE, xs,
					 (size_t)n), n);
	CHECK_EQ(utrace_queue_regset_get(f.q, other, NT_X86_XSTATE, again,
					 sizeof(again)), n);
	CHECK(!memcmp(again + 160 + 16 * 15, xs + 160 + 16 * 15, 16));
	CHECK_EQ(utrace_queue_regset_get(f.q, other, NT_PRFPREG, again, 512),
		 512);
	CHECK(!memcmp(again + 160 + 16 * 15, xs + 160 + 16 * 15, 16));
	CHECK_EQ(utrace_queue_regset_set(f.q, other, NT_PRFPREG, orig, 512),
		 512);
	CHECK_EQ(utrace_queue_regset_get(f.q, other, NT_PRFPREG, again, 512),
		 512);
	CHECK(!memcmp(again + 160, orig + 160, 256));
	/* The other thread's set is its own. */
	CHECK_EQ(utrace_queue_regset_get(f.q, f.pid, NT_PRFPREG, again, 512),
		 512);
	/* Debug registers: DR0 to an address of the program, and back. */
	CHECK_EQ(utrace_queue_regs_get(f.q, other, &regs), 0);
	CHECK_EQ(utrace_queue_debugreg_set(f.q, other, 0, regs.rip), 0);
	CHECK_EQ(utrace_queue_debugreg_get(f.q, other, 0, &v), 0);
	CHECK_EQ(v, regs.rip);
	CHECK_EQ(utrace_queue_debugreg_get(f.q, f.pid, 0, &v), 0);
	CHECK_EQ(v, 0);
	CHECK_EQ(utrace_queue_debugreg_get(f.q, other, 7, &v), 0);
	CHECK_EQ(v & 0xff, 0);
	CHECK_EQ(utrace_queue_debugreg_set(f.q, other, 0, 0), 0);
	/* The kernel refuses a kernel address. */
	CHECK(utrace_queue_debugreg_set(f.q, other, 0,
					0xffffffff80000000ULL) < 0);
	/* Bad arguments. */
	CHECK_EQ(utrace_queue_regset_get(f.q, other, NT_PRSTATUS, xs,
					 sizeof(xs)), -EINVAL);
	CHECK_EQ(utrace_queue_regset_get(f.q, other, NT_PRFPREG, NULL, 512),
		 -EINVAL);
	CHECK_EQ(utrace_queue_regset_set(f.q, other, NT_PRFPREG, xs, 0),
		 -EINVAL);
	CHECK_EQ(utrace_queue_regset_get(f.q, 0, NT_PRFPREG, xs, 512),
		 -EINVAL);
	CHECK_EQ(utrace_queue_regset_get(NULL, other, NT_PRFPREG, xs, 512),
		 -EINVAL);
	CHECK_EQ(utrace_queue_debugreg_get(f.q, other, 4, &v), -EINVAL);
	CHECK_EQ(utrace_queue_debugreg_set(f.q, other, 5, 0), -EINVAL);
	CHECK_EQ(utrace_queue_debugreg_get(f.q, other, 8, &v), -EINVAL);
	CHECK_EQ(utrace_queue_debugreg_get(f.q, other, 0, NULL), -EINVAL);
	CHECK_EQ(utrace_queue_debugreg_set(NULL, other, 0, 0), -EINVAL);
	/* Not held by this queue: a live thread nobody here watches. */
	CHECK_EQ(utrace_queue_regset_get(f.q, getpid(), NT_PRFPREG, xs, 512),
		 -EBUSY);
	CHECK_EQ(utrace_queue_debugreg_get(f.q, getpid(), 7, &v), -EBUSY);
	/* Gone. */
	CHECK_EQ(utrace_queue_regset_get(f.q, dead, NT_PRFPREG, xs, 512),
		 -ESRCH);
	CHECK_EQ(utrace_queue_debugreg_set(f.q, dead, 7, 0), -ESRCH);
	/* Released: watched, but held no more. */
	CHECK_EQ(utrace_queue_resume(f.q, f.pid), 2);
	CHECK(FX_UNTIL(&f, count_stopped(f.pid) == 0, 10000));
	CHECK_EQ(utrace_queue_regset_get(f.q, other, NT_PRFPREG, xs, 512),
		 -EBUSY);
	CHECK_EQ(utrace_queue_regset_set(f.q, other, NT_PRFPREG, orig, 512),
		 -EBUSY);
	CHECK_EQ(utrace_queue_debugreg_get(f.q, other, 7, &v), -EBUSY);
	CHECK_EQ(utrace_queue_debugreg_set(f.q, other, 7, 0), -EBUSY);
	kill(f.pid, SIGKILL);
	drain(&f);
	fx_end(&f);
}

TEST_T(regset_debugreg_held_local, 60)
{
	regsets(false);
}

TEST_T(regset_debugreg_held_joined, 60)
{
	regsets(true);
}

/* -- A hardware watchpoint ------------------------------------------------ */

/*
 * gdb_prog syscall: two getppid() calls from main.  Held at the first
 * entry, DR0 watches for writes the 8 bytes the stack pointer points at
 * there (the return address of the call into getppid): main's next call
 * writes its return address in the same place, and the trap comes as a
 * SIGTRAP record with TRAP_HWBKPT and DR6 bit 0, held; dropped, the
 * program goes on.
 */
static void watchpoint(bool joined)
{
	static const long nrs[] = { SYS_getppid };
	const unsigned long sigs = UTRACE_EVENT_SIGNAL_ALL;
	struct utrace_event ev;
	struct user_regs_struct regs;
	struct fx f;
	int entries = 0, traps = 0, deaths = 0, execs = 0;
	uint64_t slot = 0, v;

	fx_start(&f, joined, "gdb_prog", "syscall", NULL, NULL);
	/* The syscall set first, then the syscall events. */
	CHECK_EQ(utrace_queue_watch(f.q, f.pid, 0, sigs | UTRACE_EVENT(DEATH),
				    sigs), 0);
	CHECK_EQ(utrace_queue_set_syscalls(f.q, f.pid, nrs, 1), 0);
	CHECK_EQ(utrace_queue_watch(f.q, f.pid, 0, sigs | UTRACE_EVENT(DEATH) |
				    UTRACE_EVENT(SYSCALL_ENTRY) |
				    UTRACE_EVENT(EXEC),
				    sigs | UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	fx_go(&f);
	while (q_next(f.q, &ev, 20000) == 1) {
		if (ev.type == UTRACE_EVENT(EXEC)) {
			/* gdb_prog from here on (joined: sh before it). */
			execs++;
			continue;
		}
		if (!execs) {
			CHECK_EQ(ev.type, UTRACE_EVENT(SYSCALL_ENTRY));
			reply(f.q, ev.id, UTRACE_RESUME);
			continue;
		}
		if (ev.type == UTRACE_EVENT(DEATH)) {
			CHECK(WIFEXITED(ev.status) && !WEXITSTATUS(ev.status));
			deaths++;
			continue;
		}
		CHECK(ev.held);
		if (ev.type == UTRACE_EVENT(SYSCALL_ENTRY)) {
			CHECK_EQ(ev.syscall.nr, SYS_getppid);
			if (!entries++) {
				CHECK_EQ(utrace_queue_regs_get(f.q, ev.tid,
							       &regs), 0);
				slot = regs.rsp;
				CHECK_EQ(slot % 8, 0);
				CHECK_EQ(utrace_queue_debugreg_set(f.q, ev.tid,
								   0, slot), 0);
				/* L0, RW0 = 01 (writes), LEN0 = 11 (8). */
				CHECK_EQ(utrace_queue_debugreg_set(f.q, ev.tid,
						7, 1 | 1 << 16 | 3 << 18), 0);
				CHECK_EQ(utrace_queue_debugreg_get(f.q, ev.tid,
								   7, &v), 0);
				CHECK_EQ(v & 0xf0003, 0xd0001);
			}
			reply(f.q, ev.id, UTRACE_RESUME);
			continue;
		}
		CHECK(ev.type & sigs);
		CHECK_EQ(ev.info.si_signo, SIGTRAP);
		CHECK_EQ(ev.info.si_code, TRAP_HWBKPT);
		CHECK_EQ(entries, 1);
		CHECK_EQ(utrace_queue_debugreg_get(f.q, ev.tid, 6, &v), 0);
		CHECK(v & 1);
		traps++;
		/* Off, and the trap is ours: dropped. */
		CHECK_EQ(utrace_queue_debugreg_set(f.q, ev.tid, 7, 0), 0);
		CHECK_EQ(utrace_queue_debugreg_set(f.q, ev.tid, 6, 0), 0);
		reply(f.q, ev.id, UTRACE_RESUME | UTRACE_SIGNAL_IGN);
	}
	CHECK_EQ(execs, 1);
	CHECK_EQ(entries, 2);
	CHECK_EQ(traps, 1);
	CHECK_EQ(deaths, 1);
	CHECK_STR(fx_end(&f), "ppid calls 2\n");
}

TEST_T(hw_watchpoint_signal_record_local, 60)
{
	watchpoint(false);
}

TEST_T(hw_watchpoint_signal_record_joined, 60)
{
	watchpoint(true);
}

/* -- One thread of an all-stop let go ------------------------------------- */

/* The step's trap: a held SIGNAL record of @tid, SIGTRAP, TRAP_TRACE. */
static uint64_t step_record(struct fx *f, pid_t tid)
{
	struct utrace_event ev;

	CHECK_EQ(q_next(f->q, &ev, 20000), 1);
	CHECK_EQ(ev.type, UTRACE_EVENT(SIGNAL));
	CHECK_EQ(ev.tid, tid);
	CHECK(ev.held);
	CHECK_EQ(ev.info.si_signo, SIGTRAP);
	CHECK_EQ(ev.info.si_code, TRAP_TRACE);
	CHECK_EQ(utrace_signal_action(ev.action), UTRACE_SIGNAL_REPORT);
	return ev.id;
}

static void resume_thread(bool joined)
{
	struct user_regs_struct r0, r1, r2;
	struct utrace_event ev;
	struct fx f;
	pid_t other, dead = dead_tid();
	uint64_t id;
	int n;

	spin_stopped(&f, joined, UTRACE_EVENT_SIGNAL_ALL | UTRACE_EVENT(DEATH),
		     UTRACE_EVENT(SIGNAL), &other);
	/* Bad arguments. */
	CHECK_EQ(utrace_queue_resume_thread(f.q, other, UTRACE_STOP), -EINVAL);
	CHECK_EQ(utrace_queue_resume_thread(f.q, other, UTRACE_BLOCKSTEP),
		 -EINVAL);
	CHECK_EQ(utrace_queue_resume_thread(f.q, other, UTRACE_SINGLESTEP |
					    UTRACE_SIGNAL_IGN), -EINVAL);
	CHECK_EQ(utrace_queue_resume_thread(f.q, 0, UTRACE_RESUME), -EINVAL);
	CHECK_EQ(utrace_queue_resume_thread(NULL, other, UTRACE_RESUME),
		 -EINVAL);
	/* Not this queue's, or gone. */
	CHECK_EQ(utrace_queue_resume_thread(f.q, getpid(), UTRACE_RESUME),
		 -ENOENT);
	CHECK_EQ(utrace_queue_resume_thread(f.q, dead, UTRACE_RESUME), -ESRCH);

	/* One step of one thread: its trap is a held SIGNAL record. */
	CHECK_EQ(utrace_queue_regs_get(f.q, other, &r0), 0);
	CHECK_EQ(utrace_queue_resume_thread(f.q, other, UTRACE_SINGLESTEP), 0);
	id = step_record(&f, other);
	CHECK_EQ(utrace_queue_regs_get(f.q, other, &r1), 0);
	CHECK(r1.rip != r0.rip);
	/* Held by its record now, not by the stop. */
	CHECK_EQ(utrace_queue_resume_thread(f.q, other, UTRACE_RESUME),
		 -ENOENT);
	/* A reply with UTRACE_SINGLESTEP: one more step, one more record. */
	reply(f.q, id, UTRACE_SINGLESTEP | UTRACE_SIGNAL_REPORT);
	id = step_record(&f, other);
	CHECK_EQ(utrace_queue_regs_get(f.q, other, &r2), 0);
	CHECK(r2.rip != r1.rip);
	/* Main stayed stopped all along. */
	CHECK_EQ(t_state(f.pid), 't');
	CHECK_EQ(utrace_queue_regs_get(f.q, f.pid, &r0), 0);
	/* Dropped: the thread runs, main stays stopped. */
	reply(f.q, id, UTRACE_RESUME | UTRACE_SIGNAL_IGN);
	CHECK(FX_UNTIL(&f, t_state(other) != 't', 10000));
	CHECK_EQ(t_state(f.pid), 't');
	CHECK_EQ(utrace_queue_regs_get(f.q, other, &r1), -EBUSY);
	CHECK_EQ(utrace_queue_resume_thread(f.q, other, UTRACE_RESUME),
		 -ENOENT);
	CHECK_EQ(q_next(f.q, &ev, 0), 0);
	/* utrace_queue_resume lets only main go. */
	CHECK_EQ(utrace_queue_resume(f.q, f.pid), 1);
	CHECK(FX_UNTIL(&f, count_stopped(f.pid) == 0, 10000));
	CHECK_EQ(utrace_queue_resume_thread(f.q, f.pid, UTRACE_RESUME),
		 -ENOENT);

	/* Stopped again, both are taken; one let go with UTRACE_RESUME. */
	CHECK_EQ(utrace_queue_stop(f.q, f.pid, 30000), 2);
	for (n = 0; n < 2; n++) {
		CHECK_EQ(q_next(f.q, &ev, 10000), 1);
		CHECK_EQ(ev.type, 0);
	}
	CHECK_EQ(utrace_queue_resume_thread(f.q, other, UTRACE_RESUME), 0);
	CHECK(FX_UNTIL(&f, t_state(other) != 't', 10000));
	CHECK_EQ(t_state(f.pid), 't');
	CHECK_EQ(q_next(f.q, &ev, 0), 0);
	CHECK_EQ(utrace_queue_resume(f.q, f.pid), 1);
	CHECK(FX_UNTIL(&f, count_stopped(f.pid) == 0, 10000));
	kill(f.pid, SIGKILL);
	drain(&f);
	fx_end(&f);
}

TEST_T(resume_thread_step_one_of_two_local, 60)
{
	resume_thread(false);
}

TEST_T(resume_thread_step_one_of_two_joined, 60)
{
	resume_thread(true);
}

int main(void)
{
	return test_main();
}
