/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a debugger needs from a queue: other register sets and the debug
 * registers of a held thread (utrace_queue_regset_*, _debugreg_*), a real
 * hardware watchpoint, one thread of an all-stopped process let go or
 * single-stepped while the others stay stopped
 * (utrace_queue_resume_thread), one thread stopped while the other runs
 * (utrace_queue_stop_thread), and the step's trap as a SIGNAL record.
 *
 * Every case runs twice: on a local queue (utrace_queue_new, the test
 * process is the tracer) and on a joined one (utrace_queue_connect to a
 * forked serving tracer, over the wire).  A joined tracee is started
 * through "sh -c 'read x; exec PROG ARGS'" so that it waits, making no
 * system call we watch, until the joiner has watched it.
 */
#include <elf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/user.h>
#include <sys/wait.h>
#include "tlib.h"

/*
 * A spy engine in the tracer, attached (and following new threads) before
 * the queue watches: what an engine such as the printer sees of SIGUSR1 in
 * each report_signal pass.  @logged: the passes a printer logs (it skips
 * UTRACE_SIGNAL_REPORT and HANDLER passes and held ones).
 */
struct spy {
	int calls, hold, deliver, ign, report, logged;
	struct utrace_tracer *t;	/* where new threads are */
};

static uint32_t spy_signal(uint32_t action, struct utrace_engine *e,
			   siginfo_t *info)
{
	struct spy *sp = utrace_engine_data(e);
	enum utrace_signal_action sa = utrace_signal_action(action);

	if (!info || info->si_signo != SIGUSR1)
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_RESUME;
	sp->calls++;
	if (action & UTRACE_SIGNAL_HOLD)
		sp->hold++;
	else if (sa == UTRACE_SIGNAL_DELIVER || sa == UTRACE_SIGNAL_TERM)
		sp->deliver++;
	else if (sa == UTRACE_SIGNAL_IGN)
		sp->ign++;
	else if (sa == UTRACE_SIGNAL_REPORT)
		sp->report++;
	if (sa != UTRACE_SIGNAL_REPORT && sa != UTRACE_SIGNAL_HANDLER &&
	    !(action & UTRACE_SIGNAL_HOLD))
		sp->logged++;
	return (action & ~UTRACE_RESUME_MASK) | UTRACE_RESUME;
}

static const struct utrace_engine_ops spy_ops = {
	.report_signal = spy_signal,
};

static int spy_attach(void *arg, pid_t tid, pid_t tgid, pid_t parent,
		      unsigned long clone_flags)
{
	struct spy *sp = arg;
	struct utrace_engine *e;
	int err = utrace_attach(sp->t, tid, UTRACE_ATTACH_CREATE, &spy_ops, sp,
				&e);

	if (!err) {
		err = utrace_set_events(e, UTRACE_EVENT_SIGNAL_ALL);
		utrace_engine_put(e);
	}
	return err;
}

/* The spy on @pid and, before they run, its new threads. */
static struct utrace_engine *spy_start(struct utrace_tracer *t, pid_t pid,
				       struct spy *sp)
{
	struct utrace_engine *e;

	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE, &spy_ops, sp,
			       &e), 0);
	CHECK_EQ(utrace_set_events(e, UTRACE_EVENT_SIGNAL_ALL), 0);
	sp->t = t;
	CHECK(utrace_follow(t, pid, UTRACE_WATCH_PROCESS, spy_attach, sp) >= 0);
	return e;
}

struct fx {
	bool joined;
	struct spy spy;			/* local; joined: read at the end */
	struct utrace_engine *spy_e;	/* local */
	struct utrace_tracer *t;	/* local */
	struct utrace_queue *q;
	pid_t pid;			/* the tracee */
	pid_t helper;			/* joined: the serving tracer */
	int in, out, ctl;
};

/*
 * Wait until process @pid blocks in read(0, ...): the shell's "read x".
 * It got there by running on from its execve's stop, so the serving
 * tracer has reported that exec before any watch made from here on.
 * (Its /proc/PID/exe changes inside execve, before that stop: a watch
 * made once exe was the shell's could still see the shell's exec.)
 */
static bool wait_read_stdin(pid_t pid, long ms)
{
	char path[64], buf[256];
	long dl = t_now_ms() + ms, nr;
	unsigned long fd;
	ssize_t n;
	int sfd;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	do {
		sfd = open(path, O_RDONLY | O_CLOEXEC);
		if (sfd < 0)
			return false;
		n = read(sfd, buf, sizeof(buf) - 1);
		close(sfd);
		if (n > 0) {
			buf[n] = 0;
			if (sscanf(buf, "%ld 0x%lx", &nr, &fd) == 2 &&
			    nr == SYS_read && fd == 0)
				return true;
		}
		usleep(2000);
	} while (t_now_ms() < dl);
	return false;
}

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
		f->spy_e = spy_start(f->t, f->pid, &f->spy);
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
			static struct spy sp;
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
			e = spy_start(t, pid, &sp);
			CHECK_EQ(utrace_tracer_serve(t, UTRACE_SERVE_DEFAULT), 0);
			CHECK(write(ctl[1], &pid, sizeof(pid)) == sizeof(pid));
			CHECK_EQ(utrace_run(t), 0);
			utrace_engine_put(e);
			utrace_tracer_free(t);
			CHECK(write(ctl[1], &sp, sizeof(sp)) == sizeof(sp));
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
		/*
		 * Watched from the shell's read on: a watch made before its
		 * execve was reported would also see that exec, not only the
		 * program's.
		 */
		CHECK(wait_read_stdin(f->pid, 20000));
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
		while (!(_ok = (cond)) && t_now_ms() < _dl)		\
			usleep(5000);					\
	}								\
	_ok;								\
})

/* The tracee's output, once it has ended; then everything goes. */
static const char *fx_end(struct fx *f)
{
	const char *out = f->out >= 0 ? t_read_all(f->out) : "";

	utrace_queue_free(f->q);
	if (!f->joined) {
		utrace_engine_put(f->spy_e);
		utrace_tracer_free(f->t);
	} else {
		int st;

		close(f->in);
		CHECK(read(f->ctl, &f->spy, sizeof(f->spy)) ==
		      sizeof(f->spy));
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
 * program goes on.  Only where the host's debug registers trap
 * (test/progs/hostcap hwbp): a visible SKIP elsewhere.
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

	t_need("hwbp");
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

/* -- One thread stopped, the other running (non-stop) ---------------------- */

struct tstop_waiter {
	struct utrace_queue *q;
	pid_t tid;
	int ret;
	atomic_bool done;
};

static void *tstop_wait(void *arg)
{
	struct tstop_waiter *w = arg;

	w->ret = utrace_queue_stop_thread(w->q, w->tid, 30000);
	atomic_store(&w->done, true);
	return NULL;
}

/* The next record: @tid's of type 0 (held ones of others replied). */
static void type0_record(struct fx *f, pid_t tid)
{
	struct utrace_event ev;

	CHECK_EQ(q_next(f->q, &ev, 20000), 1);
	CHECK_EQ(ev.type, 0);
	CHECK_EQ(ev.tid, tid);
	CHECK(!ev.held);
}

static void stop_thread(bool joined)
{
	struct user_regs_struct r0;
	struct utrace_event ev;
	struct fx f;
	pid_t tids[4], other, dead = dead_tid();
	uint64_t id;
	int r;

	fx_start(&f, joined, "queue_prog", "spin", "1", "60000");
	CHECK_EQ(utrace_queue_watch(f.q, f.pid, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT_SIGNAL_ALL |
				    UTRACE_EVENT(DEATH),
				    UTRACE_EVENT(SIGNAL)), 0);
	fx_go(&f);
	CHECK(FX_UNTIL(&f, t_tasks(f.pid, tids, 4) == 2, 20000));
	other = tids[0] == f.pid ? tids[1] : tids[0];
	/* Bad arguments; not this queue's; gone. */
	CHECK_EQ(utrace_queue_stop_thread(NULL, other, 0), -EINVAL);
	CHECK_EQ(utrace_queue_stop_thread(f.q, 0, 0), -EINVAL);
	CHECK_EQ(utrace_queue_stop_thread(f.q, other, -2), -EINVAL);
	CHECK_EQ(utrace_queue_stop_thread(f.q, getpid(), 0), -ESRCH);
	CHECK_EQ(utrace_queue_stop_thread(f.q, dead, 0), -ESRCH);

	/* One thread stops, with its record; main spins on. */
	CHECK_EQ(utrace_queue_stop_thread(f.q, other, 30000), 1);
	type0_record(&f, other);
	CHECK_EQ(t_state(other), 't');
	CHECK(FX_UNTIL(&f, t_state(f.pid) == 'R', 10000));
	CHECK_EQ(utrace_queue_regs_get(f.q, other, &r0), 0);
	CHECK_EQ(utrace_queue_regs_get(f.q, f.pid, &r0), -EBUSY);
	/* Again: 1 at once, no second record. */
	CHECK_EQ(utrace_queue_stop_thread(f.q, other, 0), 1);
	CHECK_EQ(q_next(f.q, &ev, 0), 0);

	/*
	 * A whole-process stop takes main (one record) and counts both; its
	 * resume lets main go and leaves the thread stop in force.
	 */
	CHECK_EQ(utrace_queue_stop(f.q, f.pid, 30000), 2);
	type0_record(&f, f.pid);
	CHECK_EQ(q_next(f.q, &ev, 0), 0);
	CHECK_EQ(utrace_queue_resume(f.q, f.pid), 1);
	CHECK(FX_UNTIL(&f, t_state(f.pid) == 'R', 10000));
	CHECK_EQ(t_state(other), 't');
	CHECK_EQ(utrace_queue_regs_get(f.q, other, &r0), 0);

	/* utrace_queue_resume_thread lets it go, once. */
	CHECK_EQ(utrace_queue_resume_thread(f.q, other, UTRACE_RESUME), 0);
	CHECK(FX_UNTIL(&f, t_state(other) == 'R', 10000));
	CHECK_EQ(utrace_queue_resume_thread(f.q, other, UTRACE_RESUME),
		 -ENOENT);
	CHECK_EQ(utrace_queue_regs_get(f.q, other, &r0), -EBUSY);

	/* Without waiting: the record says when; then 1. */
	r = utrace_queue_stop_thread(f.q, other, 0);
	CHECK(r == 1 || r == -ETIMEDOUT);
	type0_record(&f, other);
	CHECK_EQ(utrace_queue_stop_thread(f.q, other, 0), 1);
	/* A step from it: the trap is a held SIGNAL record. */
	CHECK_EQ(utrace_queue_resume_thread(f.q, other, UTRACE_SINGLESTEP), 0);
	id = step_record(&f, other);
	reply(f.q, id, UTRACE_RESUME | UTRACE_SIGNAL_IGN);
	CHECK(FX_UNTIL(&f, t_state(other) == 'R', 10000));

	if (!joined) {
		struct tstop_waiter w = { f.q, other, 0, false };
		pthread_t th;

		/*
		 * Called off before it is reached (locally the loop sees the
		 * stop only in a dispatch): no record; the next stop of the
		 * process makes one per thread, none left over.
		 */
		CHECK_EQ(utrace_queue_stop_thread(f.q, other, 0), -ETIMEDOUT);
		CHECK_EQ(utrace_queue_resume_thread(f.q, other, UTRACE_RESUME),
			 0);
		CHECK_EQ(utrace_queue_stop(f.q, f.pid, 30000), 2);
		for (int n = 0; n < 2; n++) {
			CHECK_EQ(q_next(f.q, &ev, 0), 1);
			CHECK_EQ(ev.type, 0);
		}
		CHECK_EQ(q_next(f.q, &ev, 0), 0);
		CHECK_EQ(utrace_queue_resume(f.q, f.pid), 2);
		/* Waited for from another thread while the loop runs. */
		CHECK_EQ(pthread_create(&th, NULL, tstop_wait, &w), 0);
		CHECK(DISPATCH_UNTIL(f.t, atomic_load(&w.done), 30000));
		CHECK_EQ(pthread_join(th, NULL), 0);
		CHECK_EQ(w.ret, 1);
		type0_record(&f, other);
		CHECK_EQ(utrace_queue_resume_thread(f.q, other, UTRACE_RESUME),
			 0);
	}
	kill(f.pid, SIGKILL);
	drain(&f);
	fx_end(&f);
}

TEST_T(stop_thread_one_of_two_local, 60)
{
	stop_thread(false);
}

TEST_T(stop_thread_one_of_two_joined, 60)
{
	stop_thread(true);
}

/* -- UTRACE_WATCH_FIRST ---------------------------------------------------- */

/*
 * sig_prog info: SIGUSR1 (sigqueue, value 42) to its handler, which prints
 * what it got.  The queue holds it and replies @sa; the spy was attached
 * before the queue's engine.
 */
static void first_signal(bool joined, bool first, uint32_t sa,
			 struct spy *out, const char **printed)
{
	const unsigned long sigs = UTRACE_EVENT_SIGNAL_ALL;
	struct utrace_event ev;
	struct fx f;
	int held = 0;

	fx_start(&f, joined, "sig_prog", "info", NULL, NULL);
	CHECK_EQ(utrace_queue_watch(f.q, f.pid, first ? UTRACE_WATCH_FIRST : 0,
				    sigs, UTRACE_EVENT(SIGNAL)), 0);
	fx_go(&f);
	while (q_next(f.q, &ev, 20000) == 1) {
		if (ev.info.si_signo != SIGUSR1) {
			if (ev.held)
				reply(f.q, ev.id, UTRACE_RESUME);
			continue;
		}
		CHECK_EQ(ev.type, UTRACE_EVENT(SIGNAL));
		CHECK(ev.held);
		/* No engine before ours decided anything. */
		CHECK_EQ(ev.action, UTRACE_SIGNAL_DELIVER);
		held++;
		reply(f.q, ev.id, UTRACE_RESUME | sa);
	}
	CHECK_EQ(held, 1);
	*printed = fx_end(&f);
	*out = f.spy;
}

static void watch_first(bool joined)
{
	const char *none = "sig 0 code 0 pid 0 uid 0 val 0\n";
	const char *out;
	struct spy sp;

	/*
	 * First, replied UTRACE_SIGNAL_REPORT: the spy sees the hold pass
	 * (HOLD), then a REPORT pass; a printer logs nothing.
	 */
	first_signal(joined, true, UTRACE_SIGNAL_REPORT, &sp, &out);
	CHECK_STR(out, none);
	CHECK_EQ(sp.calls, 2);
	CHECK_EQ(sp.hold, 1);
	CHECK_EQ(sp.report, 1);
	CHECK_EQ(sp.logged, 0);
	/* Replied UTRACE_SIGNAL_IGN: logged once, as ignored. */
	first_signal(joined, true, UTRACE_SIGNAL_IGN, &sp, &out);
	CHECK_STR(out, none);
	CHECK_EQ(sp.calls, 2);
	CHECK_EQ(sp.hold, 1);
	CHECK_EQ(sp.ign, 1);
	CHECK_EQ(sp.logged, 1);
	/* Replied UTRACE_SIGNAL_DELIVER: logged once, and delivered. */
	first_signal(joined, true, UTRACE_SIGNAL_DELIVER, &sp, &out);
	CHECK(!strncmp(out, "sig 10 code -1 ", 15));
	CHECK_EQ(sp.calls, 2);
	CHECK_EQ(sp.hold, 1);
	CHECK_EQ(sp.deliver, 1);
	CHECK_EQ(sp.logged, 1);
	/*
	 * Not first: the engine before the queue's is called before the
	 * hold, and again when the signal comes back; it cannot tell the
	 * two apart and sees the disposition, not the reply, both times.
	 */
	first_signal(joined, false, UTRACE_SIGNAL_IGN, &sp, &out);
	CHECK_STR(out, none);
	CHECK_EQ(sp.calls, 2);
	CHECK_EQ(sp.hold, 0);
	CHECK_EQ(sp.deliver, 2);
	CHECK_EQ(sp.logged, 2);
}

TEST_T(watch_first_signal_local, 60)
{
	watch_first(false);
}

TEST_T(watch_first_signal_joined, 60)
{
	watch_first(true);
}

/*
 * A thread the watch takes on later (queue_prog spin 1: its thread is made
 * after the watch) gets the queue's engine first too: SIGUSR1 (terminates
 * by default) sent to it, held, replied UTRACE_SIGNAL_REPORT: the spy
 * there sees the hold, then the REPORT pass; the process lives on.
 */
static void first_later_thread(bool joined)
{
	struct utrace_event ev;
	struct fx f;
	pid_t tids[4], other;
	int held = 0;

	fx_start(&f, joined, "queue_prog", "spin", "1", "60000");
	CHECK_EQ(utrace_queue_watch(f.q, f.pid, UTRACE_WATCH_PROCESS |
				    UTRACE_WATCH_FIRST,
				    UTRACE_EVENT_SIGNAL_ALL |
				    UTRACE_EVENT(DEATH),
				    UTRACE_EVENT_SIGNAL_ALL), 0);
	fx_go(&f);
	CHECK(FX_UNTIL(&f, t_tasks(f.pid, tids, 4) == 2, 20000));
	other = tids[0] == f.pid ? tids[1] : tids[0];
	CHECK_EQ(syscall(SYS_tgkill, f.pid, other, SIGUSR1), 0);
	while (!held && q_next(f.q, &ev, 20000) == 1) {
		if (!ev.held)
			continue;
		if (ev.info.si_signo != SIGUSR1) {
			reply(f.q, ev.id, UTRACE_RESUME);
			continue;
		}
		CHECK_EQ(ev.tid, other);
		CHECK_EQ(ev.type, UTRACE_EVENT(SIGNAL_TERM));
		held++;
		reply(f.q, ev.id, UTRACE_RESUME | UTRACE_SIGNAL_REPORT);
	}
	CHECK_EQ(held, 1);
	/* Not killed by it: both threads are there. */
	CHECK(FX_UNTIL(&f, t_state(other) == 'R', 10000));
	CHECK_EQ(t_tasks(f.pid, tids, 4), 2);
	kill(f.pid, SIGKILL);
	drain(&f);
	fx_end(&f);
	CHECK_EQ(f.spy.calls, 2);
	CHECK_EQ(f.spy.hold, 1);
	CHECK_EQ(f.spy.report, 1);
	CHECK_EQ(f.spy.logged, 0);
}

TEST_T(watch_first_later_thread_local, 60)
{
	first_later_thread(false);
}

TEST_T(watch_first_later_thread_joined, 60)
{
	first_later_thread(true);
}

/*
 * The printer of utrace(1): utrace -o LOG runs sig_prog info and serves;
 * a joiner watches with UTRACE_WATCH_FIRST, holds SIGUSR1 and replies
 * @sa.  How many "--- SIGUSR1" lines the log gets.
 */
static int printer_lines(uint32_t sa)
{
	char log[] = "/tmp/utrace-qgdb-XXXXXX", utrace[512], line[512];
	struct utrace_queue *q = NULL;
	struct utrace_event ev;
	int in[2], fd, st, n = 0, held = 0, err = -1;
	pid_t u, tracee = 0;
	long dl;
	FILE *f;

	fd = mkstemp(log);
	CHECK(fd >= 0);
	close(fd);
	snprintf(utrace, sizeof(utrace), "%s/utrace", getenv("O") ?
		 getenv("O") : "build");
	CHECK(pipe2(in, O_CLOEXEC) == 0);
	fflush(NULL);
	u = fork();
	CHECK(u >= 0);
	if (u == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(in[0], 0);
		dup2(null, 1);
		execl(utrace, utrace, "-o", log, "/bin/sh", "-c",
		      "read x; exec \"$0\" \"$@\"", test_prog("sig_prog"),
		      "info", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	/* Its child, once traced; then its socket, once it serves. */
	dl = t_now_ms() + 20000;
	while (t_now_ms() < dl) {
		char path[64];
		FILE *c;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", u, u);
		c = fopen(path, "r");
		if (c) {
			if (fscanf(c, "%d", &tracee) != 1)
				tracee = 0;
			fclose(c);
		}
		/* Before it serves: -ECONNREFUSED; anything else fails. */
		if (tracee > 0 && t_tracer_pid(tracee) == u &&
		    (err = utrace_queue_connect(tracee, &q)) != -ECONNREFUSED)
			break;
		usleep(10000);
	}
	CHECK_EQ(err, 0);
	CHECK_EQ(utrace_queue_watch(q, tracee, UTRACE_WATCH_FIRST,
				    UTRACE_EVENT_SIGNAL_ALL,
				    UTRACE_EVENT(SIGNAL)), 0);
	CHECK(write(in[1], "go\n", 3) == 3);
	while (q_next(q, &ev, 20000) == 1) {
		if (!ev.held)
			continue;
		if (ev.info.si_signo == SIGUSR1) {
			held++;
			reply(q, ev.id, UTRACE_RESUME | sa);
		} else {
			reply(q, ev.id, UTRACE_RESUME);
		}
	}
	CHECK_EQ(held, 1);
	utrace_queue_free(q);
	close(in[1]);
	CHECK(waitpid(u, &st, 0) == u);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	f = fopen(log, "r");
	CHECK(f != NULL);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, "--- SIGUSR1 ") != NULL;
	fclose(f);
	unlink(log);
	return n;
}

TEST_T(printer_after_first_queue_logs_once, 60)
{
	/* Dropped: logged once, when the signal comes back ignored. */
	CHECK_EQ(printer_lines(UTRACE_SIGNAL_IGN), 1);
	/* Delivered: once. */
	CHECK_EQ(printer_lines(UTRACE_SIGNAL_DELIVER), 1);
	/* The debugger's own (UTRACE_SIGNAL_REPORT): never. */
	CHECK_EQ(printer_lines(UTRACE_SIGNAL_REPORT), 0);
}

TEST(watch_first_flags)
{
	struct fx f;

	fx_start(&f, false, "queue_prog", "loop", "3", NULL);
	CHECK_EQ(utrace_queue_watch(f.q, f.pid, 0x8, UTRACE_EVENT(DEATH), 0),
		 -EINVAL);
	CHECK_EQ(utrace_queue_watch(f.q, f.pid, UTRACE_WATCH_FIRST,
				    UTRACE_EVENT(DEATH), 0), 0);
	CHECK_EQ(utrace_queue_unwatch(f.q, f.pid, UTRACE_WATCH_FIRST), 0);
	CHECK_EQ(utrace_queue_unwatch(f.q, f.pid, 0x8), -EINVAL);
	drain(&f);
	fx_end(&f);
}

int main(void)
{
	return test_main();
}
