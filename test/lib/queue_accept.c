/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Acceptance of the queued-event layer and of joining a tracer, written
 * from the contract alone (utrace(7), the utrace_queue_*(3) pages): every
 * promise is checked on a real tracee through the public names only.
 */
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include "tlib.h"

static struct utrace_queue *aq_new(struct utrace_tracer *t)
{
	struct utrace_queue *q = NULL;

	CHECK_EQ(utrace_queue_new(t, &q), 0);
	CHECK(q != NULL);
	return q;
}

static int aq_next(struct utrace_queue *q, struct utrace_event *ev, int ms)
{
	memset(ev, 0, sizeof(*ev));
	ev->size = sizeof(*ev);
	return utrace_queue_next(q, ev, ms);
}

static struct utrace_reply areply(uint32_t action)
{
	struct utrace_reply r;

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.action = action;
	return r;
}

static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/* Read records until DEATH of @tid (or the end); returns how many DEATHs. */
static int drain_to_death(struct utrace_queue *q, pid_t tid)
{
	struct utrace_event ev;

	while (aq_next(q, &ev, -1) == 1)
		if (ev.type == UTRACE_EVENT(DEATH) && ev.tid == tid)
			return 1;
	return 0;
}

/* -- Watching: flags, -EINVAL, what a watch covers ----------------------- */

TEST(watch_hold_not_subset_is_einval)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = aq_new(t);
	pid_t pid = t_spawn(t, NULL, "queue_prog", "loop", "3", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT(SYSCALL_ENTRY),
				    UTRACE_EVENT(SYSCALL_EXIT)), -EINVAL);
	CHECK_EQ(utrace_queue_watch(q, pid, 0, 0, UTRACE_EVENT(EXEC)),
		 -EINVAL);
	/* A subset (or equal, or none) is fine; watching again changes it. */
	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT_SYSCALL, 0), 0);
	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT_SYSCALL |
				    UTRACE_EVENT(DEATH),
				    UTRACE_EVENT_SYSCALL), 0);
	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT(DEATH), 0), 0);
	t_run(t);
	CHECK_EQ(drain_to_death(q, pid), 1);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/*
 * "tree": the main thread makes 2 threads and forks 2 children that each
 * make 2 threads; every thread calls getppid() once.  A watch of the main
 * thread covers 1 of those calls, with UTRACE_WATCH_PROCESS 3, with
 * UTRACE_WATCH_CHILDREN as well all 9 in 3 processes.  Per thread, the
 * records come in the thread's order (entry before exit), ids increase.
 */
static void tree_case(unsigned flags, int want_calls, int want_pids)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = aq_new(t);
	struct utrace_event ev;
	const long nr = SYS_getppid;
	pid_t tids[64], pids[8];
	int open[64] = { 0 }, ntids = 0, npids = 0, calls = 0;
	uint64_t last = 0;
	pid_t pid = t_spawn(t, NULL, "queue_prog", "tree", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, flags, UTRACE_EVENT_SYSCALL, 0),
		 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, &nr, 1), 0);
	while (aq_next(q, &ev, -1) == 1) {
		int i, j;

		CHECK(ev.id > last);
		last = ev.id;
		CHECK(!ev.held);
		CHECK_EQ(ev.syscall.nr, SYS_getppid);
		for (i = 0; i < ntids && tids[i] != ev.tid; i++)
			;
		if (i == ntids) {
			CHECK(ntids < 64);
			tids[ntids++] = ev.tid;
		}
		for (j = 0; j < npids && pids[j] != ev.pid; j++)
			;
		if (j == npids && npids < 8)
			pids[npids++] = ev.pid;
		if (ev.type == UTRACE_EVENT(SYSCALL_ENTRY)) {
			CHECK_EQ(open[i], 0);
			open[i] = 1;
			calls++;
		} else {
			CHECK_EQ(ev.type, UTRACE_EVENT(SYSCALL_EXIT));
			CHECK_EQ(open[i], 1);
			open[i] = 0;
		}
	}
	CHECK_EQ(calls, want_calls);
	CHECK_EQ(npids, want_pids);
	for (int i = 0; i < ntids; i++)
		CHECK_EQ(open[i], 0);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

TEST(watch_thread_only)
{
	tree_case(0, 1, 1);
}

TEST(watch_process)
{
	tree_case(UTRACE_WATCH_PROCESS, 3, 1);
}

TEST(watch_process_and_children)
{
	tree_case(UTRACE_WATCH_PROCESS | UTRACE_WATCH_CHILDREN, 9, 3);
}

/* -- Held events and replies --------------------------------------------- */

/*
 * "calls": getppid(), dup(12345), getpid(), each printed.  Held at entry
 * and exit: getppid skipped with 4242, dup's argument replaced by 1,
 * getpid's result replaced by 777 at exit.
 */
TEST(held_reply_return_args_and_enoent)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = aq_new(t);
	const long nrs[] = { SYS_getppid, SYS_dup, SYS_getpid };
	struct utrace_event ev;
	struct utrace_reply r;
	uint64_t replied[16];
	int nreplied = 0, out, held = 0, stop_kept = 0;
	pid_t pid = t_spawn(t, &out, "queue_prog", "calls", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT_SYSCALL |
				    UTRACE_EVENT(DEATH),
				    UTRACE_EVENT_SYSCALL), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, nrs, 3), 0);
	while (aq_next(q, &ev, -1) == 1) {
		if (ev.type == UTRACE_EVENT(DEATH)) {
			CHECK(!ev.held);
			/* A record that is not held: nothing to reply to. */
			r = areply(UTRACE_RESUME);
			CHECK_EQ(utrace_queue_reply(q, ev.id, &r), -ENOENT);
			break;
		}
		CHECK(ev.held);
		held++;
		r = areply(UTRACE_RESUME);
		if (ev.type == UTRACE_EVENT(SYSCALL_ENTRY) &&
		    ev.syscall.nr == SYS_getppid) {
			r.action |= UTRACE_SYSCALL_ABORT;
			r.flags = UTRACE_REPLY_RETURN;
			r.ret = 4242;
		} else if (ev.type == UTRACE_EVENT(SYSCALL_ENTRY) &&
			   ev.syscall.nr == SYS_dup) {
			CHECK_EQ(ev.syscall.args[0], 12345);
			memcpy(r.args, ev.syscall.args, sizeof(r.args));
			r.args[0] = 1;
			r.flags = UTRACE_REPLY_ARGS;
		} else if (ev.type == UTRACE_EVENT(SYSCALL_EXIT) &&
			   ev.syscall.nr == SYS_getpid) {
			CHECK_EQ(ev.syscall.ret, pid);
			r.flags = UTRACE_REPLY_RETURN;
			r.ret = 777;
		} else if (ev.type == UTRACE_EVENT(SYSCALL_ENTRY) &&
			   ev.syscall.nr == SYS_getpid) {
			/* UTRACE_STOP keeps holding; the id stays valid. */
			struct utrace_reply s = areply(UTRACE_STOP);

			CHECK_EQ(utrace_queue_reply(q, ev.id, &s), 0);
			for (int i = 0; i < 5; i++)
				CHECK(utrace_dispatch(t, 10) >= 0);
			CHECK_EQ(t_state(pid), 't');
			stop_kept++;
		}
		CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
		/* Already replied, and unknown. */
		CHECK_EQ(utrace_queue_reply(q, ev.id, &r), -ENOENT);
		CHECK_EQ(utrace_queue_reply(q, ev.id + 1000000, &r), -ENOENT);
		CHECK(nreplied < 16);
		replied[nreplied++] = ev.id;
	}
	CHECK_EQ(held, 6);
	CHECK_EQ(stop_kept, 1);
	for (int i = 0; i < nreplied; i++) {
		r = areply(UTRACE_RESUME);
		CHECK_EQ(utrace_queue_reply(q, replied[i], &r), -ENOENT);
	}
	t_run(t);
	CHECK_STR(t_read_all(out), "ppid 4242\ndup ok errno 0\npid 777\n");
	close(out);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

TEST(reply_after_death_is_esrch)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = aq_new(t);
	const long nr = SYS_getppid;
	struct utrace_event ev;
	struct utrace_reply r = areply(UTRACE_RESUME);
	uint64_t id;
	bool death = false;
	pid_t pid = t_spawn(t, NULL, "queue_prog", "loop", "5", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT_SYSCALL |
				    UTRACE_EVENT(DEATH),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, &nr, 1), 0);
	CHECK_EQ(aq_next(q, &ev, 10000), 1);
	CHECK(ev.held);
	id = ev.id;
	CHECK_EQ(kill(pid, SIGKILL), 0);
	while (aq_next(q, &ev, -1) == 1) {
		CHECK(!death);		/* nothing after DEATH */
		CHECK(!ev.held);	/* no held record once killed */
		if (ev.type == UTRACE_EVENT(DEATH))
			death = true;
	}
	CHECK(death);
	CHECK_EQ(utrace_queue_reply(q, id, &r), -ESRCH);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/*
 * sig_prog "info": sigqueue(SIGUSR1, value 42) to itself, SA_SIGINFO
 * handlers for USR1 and USR2, prints what the handler got.  Held, the
 * reply delivers USR2 with value 43 instead, or drops the signal.
 */
static const char *signal_case(bool drop)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = aq_new(t);
	struct utrace_event ev;
	int out, held = 0;
	static char res[256];
	pid_t pid = t_spawn(t, &out, "sig_prog", "info", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT_SIGNAL_ALL |
				    UTRACE_EVENT(DEATH),
				    UTRACE_EVENT_SIGNAL_ALL), 0);
	while (aq_next(q, &ev, -1) == 1) {
		struct utrace_reply r = areply(UTRACE_RESUME);

		if (!ev.held)
			continue;
		held++;
		CHECK_EQ(ev.type, UTRACE_EVENT(SIGNAL));
		CHECK_EQ(ev.info.si_signo, SIGUSR1);
		CHECK_EQ(ev.info.si_value.sival_int, 42);
		if (drop) {
			r.action |= UTRACE_SIGNAL_IGN;
		} else {
			r.action |= UTRACE_SIGNAL_DELIVER;
			r.flags = UTRACE_REPLY_SIGINFO;
			r.info = ev.info;
			r.info.si_signo = SIGUSR2;
			r.info.si_value.sival_int = 43;
		}
		CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
	}
	CHECK_EQ(held, 1);
	t_run(t);
	{
		const char *o = t_read_all(out);
		size_t len = strnlen(o, sizeof(res) - 1);

		memcpy(res, o, len);
		res[len] = '\0';
	}
	close(out);
	utrace_queue_free(q);
	utrace_tracer_free(t);
	return res;
}

TEST(held_signal_reply_siginfo)
{
	const char *o = signal_case(false);

	CHECK(!strncmp(o, "sig 12 ", 7));
	CHECK(strstr(o, " val 43\n") != NULL);
}

TEST(held_signal_reply_ign_drops_it)
{
	const char *o = signal_case(true);

	CHECK(!strncmp(o, "sig 0 ", 6));
}

/* Another engine's STOP keeps the thread stopped after the reply. */
static uint32_t stopper_entry(uint32_t action, struct utrace_engine *e)
{
	int *hold = utrace_engine_data(e);

	return (action & ~UTRACE_RESUME_MASK) |
	       (*hold ? UTRACE_STOP : UTRACE_RESUME);
}

static const struct utrace_engine_ops stopper_ops = {
	.report_syscall_entry = stopper_entry,
};

TEST(other_engine_stop_outlives_reply)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = aq_new(t);
	const long nr = SYS_getppid;
	struct utrace_engine *e;
	struct utrace_event ev;
	struct utrace_reply r = areply(UTRACE_RESUME);
	int hold = 1;
	pid_t pid = t_spawn(t, NULL, "queue_prog", "loop", "2", NULL);

	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE, &stopper_ops,
			       &hold, &e), 0);
	CHECK_EQ(utrace_set_events(e, UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_set_syscalls(e, &nr, 1), 0);
	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT(SYSCALL_ENTRY) |
				    UTRACE_EVENT(DEATH),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, &nr, 1), 0);
	CHECK_EQ(aq_next(q, &ev, 10000), 1);
	CHECK(ev.held);
	CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
	for (int i = 0; i < 10; i++)
		CHECK(utrace_dispatch(t, 10) >= 0);
	CHECK_EQ(t_state(pid), 't');
	CHECK_EQ(aq_next(q, &ev, 0), 0);	/* it has not gone on */
	/* Our queue no longer holds it: looking needs a hold. */
	CHECK_EQ(utrace_queue_regs_get(q, pid,
				       &(struct user_regs_struct){ 0 }),
		 -EBUSY);
	hold = 0;
	CHECK_EQ(utrace_control(e, UTRACE_RESUME), 0);
	CHECK_EQ(aq_next(q, &ev, 10000), 1);	/* the second getppid */
	CHECK_EQ(ev.type, UTRACE_EVENT(SYSCALL_ENTRY));
	CHECK(ev.held);
	CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
	CHECK_EQ(drain_to_death(q, pid), 1);
	utrace_engine_put(e);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* -- Consuming: the fd --------------------------------------------------- */

TEST(queue_fd_readable_iff_a_record_waits)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = aq_new(t);
	const long nr = SYS_getppid;
	struct utrace_event ev;
	int fd = utrace_queue_fd(q), n = 0;
	pid_t pid = t_spawn(t, NULL, "queue_prog", "loop", "3", NULL);

	CHECK(fd >= 0);
	CHECK(!readable(fd));
	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT_SYSCALL |
				    UTRACE_EVENT(DEATH), 0), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, &nr, 1), 0);
	/* The whole run, records unread: readable after the first. */
	t_run(t);
	CHECK(readable(fd));
	/* Readable while any waits, also after some were read. */
	while (aq_next(q, &ev, 0) == 1) {
		n++;
		if (ev.type != UTRACE_EVENT(DEATH))
			CHECK(readable(fd));
	}
	CHECK_EQ(n, 3 * 2 + 1);
	CHECK(!readable(fd));
	CHECK_EQ(utrace_queue_fd(q), fd);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* -- Whole-process stop -------------------------------------------------- */

TEST_T(allstop_count_records_and_looking, 60)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = aq_new(t);
	struct user_regs_struct regs;
	struct utrace_event ev;
	pid_t tids[8];
	int n = 0;
	pid_t pid = t_spawn(t, NULL, "queue_prog", "spin", "3", "60000",
			    NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT(DEATH), 0), 0);
	CHECK(DISPATCH_UNTIL(t, t_tasks(pid, tids, 8) == 4, 20000));
	/* Not watched, or not a process of ours. */
	CHECK_EQ(utrace_queue_stop(q, getpid(), 0), -ESRCH);
	/* Running threads: not looked at. */
	CHECK_EQ(utrace_queue_regs_get(q, pid, &regs), -EBUSY);
	CHECK_EQ(utrace_queue_mem_readv(q, pid, &(struct utrace_iov){
					 0x1000, &regs, 8 }, 1), -EBUSY);
	/* Spinning threads cannot all be stopped without waiting. */
	CHECK_EQ(utrace_queue_stop(q, pid, 0), -ETIMEDOUT);
	CHECK_EQ(utrace_queue_stop(q, pid, 30000), 4);
	for (int i = 0; i < 4; i++) {
		char st = t_state(tids[i]);

		if (st != 't') {
			t_msleep(100);
			printf("# thread %d (%d of %d) was '%c', 100 ms later '%c'\n",
			       i, tids[i], pid, st, t_state(tids[i]));
		}
		CHECK_EQ(st, 't');
	}
	while (aq_next(q, &ev, 0) == 1) {
		struct utrace_reply r = areply(UTRACE_RESUME);

		CHECK_EQ(ev.type, 0);
		CHECK(!ev.held);
		CHECK_EQ(ev.pid, pid);
		/* Not held for a reply: nothing to reply to. */
		CHECK_EQ(utrace_queue_reply(q, ev.id, &r), -ENOENT);
		CHECK_EQ(utrace_queue_regs_get(q, ev.tid, &regs), 0);
		CHECK_EQ(utrace_queue_regs_set(q, ev.tid, &regs), 0);
		n++;
	}
	CHECK_EQ(n, 4);
	CHECK_EQ(utrace_queue_resume(q, pid), 4);
	CHECK_EQ(utrace_queue_resume(q, pid), 0);
	CHECK_EQ(utrace_queue_regs_get(q, pid, &regs), -EBUSY);
	CHECK(DISPATCH_UNTIL(t, t_state(tids[0]) != 't' &&
			     t_state(tids[3]) != 't', 10000));
	kill(pid, SIGKILL);
	while (aq_next(q, &ev, -1) == 1)
		;
	/* Dead: -ESRCH. */
	CHECK_EQ(utrace_queue_regs_get(q, pid, &regs), -ESRCH);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* -- Batched memory ------------------------------------------------------ */

/* "write": write(1, "hello world\n", 12) from its own buffer. */
TEST(mem_readv_partial_count_and_writev)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = aq_new(t);
	const long nr = SYS_write;
	struct utrace_event ev;
	struct utrace_reply r = areply(UTRACE_RESUME);
	char a[5], b[7], c[4], d[12];
	int out;
	pid_t pid = t_spawn(t, &out, "queue_prog", "write", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT(SYSCALL_ENTRY),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, &nr, 1), 0);
	CHECK_EQ(aq_next(q, &ev, 10000), 1);
	CHECK(ev.held);
	CHECK_EQ(ev.syscall.args[2], 12);
	{
		uint64_t buf = ev.syscall.args[1];
		struct utrace_iov v[] = {
			{ buf, a, 5 }, { buf + 5, b, 7 },
			{ 8, c, 4 },	/* unmapped: the count ends here */
			{ buf, d, 12 },
		};
		struct utrace_iov w[] = {
			{ buf, "HELLO", 5 }, { buf + 5, "_", 1 },
		};

		CHECK_EQ(utrace_queue_mem_readv(q, pid, v, 4), 12);
		CHECK(!memcmp(a, "hello", 5));
		CHECK(!memcmp(b, " world\n", 7));
		/* Nothing reachable at all: documented as -EFAULT. */
		CHECK_EQ(utrace_queue_mem_readv(q, pid, &v[2], 2), -EFAULT);
		CHECK_EQ(utrace_queue_mem_writev(q, pid, w, 2), 6);
	}
	CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
	t_run(t);
	CHECK_STR(t_read_all(out), "HELLO_world\n");
	close(out);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* -- Tear-down ----------------------------------------------------------- */

TEST_T(free_with_held_threads_leaves_nothing_stopped, 60)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = aq_new(t);
	const long nr = SYS_getppid;
	struct utrace_event ev;
	pid_t tids[8];
	pid_t held = t_spawn(t, NULL, "queue_prog", "loop", "3", NULL);
	pid_t spun = t_spawn(t, NULL, "queue_prog", "spin", "2", "60000",
			     NULL);

	CHECK_EQ(utrace_queue_watch(q, held, 0, UTRACE_EVENT(SYSCALL_ENTRY),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, held, &nr, 1), 0);
	CHECK_EQ(utrace_queue_watch(q, spun, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT(DEATH), 0), 0);
	CHECK(DISPATCH_UNTIL(t, t_tasks(spun, tids, 8) == 3, 20000));
	CHECK_EQ(utrace_queue_stop(q, spun, 30000), 3);
	do {
		CHECK_EQ(aq_next(q, &ev, 10000), 1);
	} while (!ev.held);
	CHECK_EQ(ev.tid, held);
	CHECK_EQ(t_state(held), 't');
	utrace_queue_free(q);
	/* The held one finishes on its own; the others run again. */
	CHECK(DISPATCH_UNTIL(t, t_gone(held), 10000));
	CHECK(DISPATCH_UNTIL(t, t_state(tids[0]) != 't' &&
			     t_state(tids[1]) != 't' &&
			     t_state(tids[2]) != 't', 10000));
	kill(spun, SIGKILL);
	t_run(t);
	utrace_tracer_free(t);
}

/* Wait up to @ms, without dispatching, for @cond. */
#define WAIT_NO_DISPATCH(cond, ms) ({					\
	long _dl = t_now_ms() + (ms);					\
	bool _ok;							\
	while (!(_ok = (cond)) && t_now_ms() < _dl)			\
		t_msleep(2);						\
	_ok;								\
})

/*
 * A single-threaded consumer (no utrace_run, no other thread) that
 * replies, resumes an all-stop, unwatches or frees the queue has let its
 * threads go when the call returns: they run without another dispatch.
 */
TEST_T(loop_thread_calls_let_go_at_once, 60)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = aq_new(t);
	const long nr = SYS_getppid;
	struct utrace_event ev;
	struct utrace_reply r = areply(UTRACE_RESUME);
	pid_t tids[8];
	char line[64] = "";
	int out, n;
	pid_t calls = t_spawn(t, &out, "queue_prog", "calls", NULL);
	pid_t spun = t_spawn(t, NULL, "queue_prog", "spin", "2", "60000",
			     NULL);

	/* A reply. */
	CHECK_EQ(utrace_queue_watch(q, calls, 0, UTRACE_EVENT(SYSCALL_ENTRY),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, calls, &nr, 1), 0);
	CHECK_EQ(aq_next(q, &ev, 10000), 1);
	CHECK(ev.held);
	CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
	CHECK(WAIT_NO_DISPATCH(readable(out), 10000));
	n = (int)read(out, line, sizeof(line) - 1);
	CHECK(n > 5 && !strncmp(line, "ppid ", 5));

	/* A resume after an all-stop. */
	CHECK_EQ(utrace_queue_watch(q, spun, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT(DEATH), 0), 0);
	CHECK(DISPATCH_UNTIL(t, t_tasks(spun, tids, 8) == 3, 20000));
	CHECK_EQ(utrace_queue_stop(q, spun, 30000), 3);
	CHECK_EQ(utrace_queue_resume(q, spun), 3);
	CHECK(WAIT_NO_DISPATCH(t_state(tids[0]) != 't' &&
			       t_state(tids[1]) != 't' &&
			       t_state(tids[2]) != 't', 10000));

	/* An unwatch, then a free, each of a held all-stop. */
	CHECK_EQ(utrace_queue_stop(q, spun, 30000), 3);
	CHECK_EQ(utrace_queue_unwatch(q, spun, UTRACE_WATCH_PROCESS), 0);
	CHECK(WAIT_NO_DISPATCH(t_state(tids[0]) != 't' &&
			       t_state(tids[1]) != 't' &&
			       t_state(tids[2]) != 't', 10000));
	CHECK_EQ(utrace_queue_watch(q, spun, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT(DEATH), 0), 0);
	CHECK_EQ(utrace_queue_stop(q, spun, 30000), 3);
	utrace_queue_free(q);
	CHECK(WAIT_NO_DISPATCH(t_state(tids[0]) != 't' &&
			       t_state(tids[1]) != 't' &&
			       t_state(tids[2]) != 't', 10000));
	kill(spun, SIGKILL);
	t_run(t);
	close(out);
	utrace_tracer_free(t);
}

/*
 * A watch takes over a thread nobody traces, without stopping it.  The
 * child spins in user space (a flag in shared memory) so that it is
 * never interrupted inside a blocking syscall (see the report of the
 * queue review: a thread taken over in read(2) once stayed stopped).
 */
TEST(watch_takes_over_an_untraced_thread)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = aq_new(t);
	const long nr = SYS_getppid;
	struct utrace_event ev;
	volatile int *flag = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int ppids = 0, deaths = 0;
	siginfo_t si;
	pid_t child;

	CHECK(flag != MAP_FAILED);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		while (!*flag)
			;
		syscall(SYS_getppid);
		_exit(0);
	}
	/* Taken over, not stopped (no dispatch has run yet). */
	CHECK_EQ(utrace_queue_watch(q, child, 0, UTRACE_EVENT(DEATH), 0), 0);
	CHECK_EQ(t_tracer_pid(child), getpid());
	CHECK(t_state(child) != 't');
	/*
	 * Syscall events on a running thread: ptrace can only start them
	 * from a stop, so the thread is interrupted once and goes on at the
	 * next dispatch.  PTRACE_INTERRUPT is asynchronous: the thread may
	 * still show 'R' for a while (on a loaded machine, until it is next
	 * scheduled), so first the stop is seen, without taking it from the
	 * library (WNOWAIT), and only then must dispatching let it go.
	 */
	CHECK_EQ(utrace_queue_set_syscalls(q, child, &nr, 1), 0);
	CHECK_EQ(utrace_queue_watch(q, child, 0, UTRACE_EVENT_SYSCALL |
				    UTRACE_EVENT(DEATH), 0), 0);
	memset(&si, 0, sizeof(si));
	CHECK(waitid(P_PID, child, &si, WSTOPPED | WNOWAIT | __WALL) == 0);
	CHECK_EQ(si.si_code, CLD_TRAPPED);
	CHECK_EQ(si.si_status, SIGTRAP | PTRACE_EVENT_STOP << 8);
	CHECK(DISPATCH_UNTIL(t, t_state(child) == 'R', 10000));
	*flag = 1;
	while (aq_next(q, &ev, -1) == 1) {
		CHECK(!ev.held);
		if (ev.type == UTRACE_EVENT(SYSCALL_ENTRY))
			ppids++;
		if (ev.type == UTRACE_EVENT(DEATH)) {
			CHECK(WIFEXITED(ev.status) && !WEXITSTATUS(ev.status));
			deaths++;
		}
	}
	CHECK_EQ(ppids, 1);
	CHECK_EQ(deaths, 1);
	munmap((void *)flag, 4096);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* A thread another ptracer has cannot be watched: -EPERM. */
TEST(watch_of_a_thread_traced_elsewhere_eperm)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = aq_new(t);
	pid_t child = fork(), helper;
	int p[2], st;
	char c;

	CHECK(child >= 0);
	if (child == 0) {
		for (;;)
			pause();
	}
	CHECK(pipe(p) == 0);
	helper = fork();
	CHECK(helper >= 0);
	if (helper == 0) {
		close(p[0]);
		if (ptrace(PTRACE_SEIZE, child, 0L, 0L) != 0 ||
		    write(p[1], "s", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	CHECK_EQ(read(p[0], &c, 1), 1);
	close(p[0]);
	CHECK_EQ(utrace_queue_watch(q, child, 0, UTRACE_EVENT(DEATH), 0),
		 -EPERM);
	utrace_queue_free(q);
	utrace_tracer_free(t);
	kill(helper, SIGKILL);
	CHECK(waitpid(helper, &st, 0) == helper);
	kill(child, SIGKILL);
	CHECK(waitpid(child, &st, 0) == child);
}

/* -- Joining: connect errors --------------------------------------------- */

TEST(connect_no_such_thread_esrch)
{
	struct utrace_queue *q = NULL;
	pid_t child = fork();
	int st;

	CHECK(child >= 0);
	if (child == 0)
		_exit(0);
	CHECK(waitpid(child, &st, 0) == child);
	CHECK_EQ(utrace_queue_connect(child, &q), -ESRCH);
	CHECK(q == NULL);
}

static pid_t pause_child(void)
{
	pid_t child = fork();

	CHECK(child >= 0);
	if (child == 0) {
		for (;;)
			pause();
	}
	return child;
}

TEST(connect_raw_ptrace_seize_econnrefused)
{
	struct utrace_queue *q = NULL;
	pid_t child = pause_child(), helper;
	int p[2], st;
	char c;

	/* A forked helper seizes the child and stays its tracer. */
	CHECK(pipe(p) == 0);
	helper = fork();
	CHECK(helper >= 0);
	if (helper == 0) {
		close(p[0]);
		if (ptrace(PTRACE_SEIZE, child, 0L, 0L) != 0)
			_exit(1);
		if (write(p[1], "s", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	CHECK_EQ(read(p[0], &c, 1), 1);
	close(p[0]);
	CHECK_EQ(t_tracer_pid(child), helper);
	CHECK_EQ(utrace_queue_connect(child, &q), -ECONNREFUSED);
	CHECK(q == NULL);
	kill(helper, SIGKILL);
	CHECK(waitpid(helper, &st, 0) == helper);
	kill(child, SIGKILL);
	CHECK(waitpid(child, &st, 0) == child);
}

TEST(connect_strace_p_econnrefused)
{
	struct utrace_queue *q = NULL;
	pid_t child, tracer;
	char arg[32];
	int st;

	if (access("/usr/bin/strace", X_OK)) {
		SKIP("strace is not installed");
		return;
	}
	child = pause_child();
	snprintf(arg, sizeof(arg), "%d", child);
	tracer = fork();
	CHECK(tracer >= 0);
	if (tracer == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		execl("/usr/bin/strace", "strace", "-q", "-o", "/dev/null",
		      "-p", arg, (char *)NULL);
		_exit(127);
	}
	/* strace attaches when it is ready; no other way to know. */
	for (int i = 0; i < 1000 && t_tracer_pid(child) != tracer; i++)
		t_msleep(10);
	CHECK_EQ(t_tracer_pid(child), tracer);
	CHECK_EQ(utrace_queue_connect(child, &q), -ECONNREFUSED);
	CHECK(q == NULL);
	kill(tracer, SIGKILL);
	CHECK(waitpid(tracer, &st, 0) == tracer);
	kill(child, SIGKILL);
	CHECK(waitpid(child, &st, 0) == child);
}

/*
 * The whole section-11 contract through a joined queue: utraced -p serves
 * a remote_prog "calls" (getppid, then write "hello world\n") that the test
 * process forked; the test joins and drives it.
 */
TEST_T(joined_queue_contract, 60)
{
	struct utrace_queue *q = NULL;
	const long nrs[] = { SYS_getppid, SYS_write };
	struct user_regs_struct regs;
	struct utrace_event ev;
	struct utrace_reply r;
	int in[2], out[2], fd, st, held = 0, deaths = 0, err;
	char path[4096], buf[256];
	pid_t child, daemon;
	ssize_t n;
	size_t got = 0;

	snprintf(path, sizeof(path), "%s/utraced", getenv("O") ? getenv("O") :
		 "build");
	if (access(path, X_OK))
		SKIP("no utraced in $O");
	CHECK(pipe(in) == 0 && pipe(out) == 0);
	fflush(NULL);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execl(test_prog("remote_prog"), "remote_prog", "calls",
		      (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	CHECK_EQ(read(out[0], buf, 6), 6);	/* "ready\n": now in fgets */
	daemon = fork();
	CHECK(daemon >= 0);
	if (daemon == 0) {
		char arg[32];
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 2);
		close(in[1]);
		close(out[0]);
		snprintf(arg, sizeof(arg), "%d", child);
		execl(path, "utraced", "-p", arg, (char *)NULL);
		_exit(127);
	}
	/* It serves once it is ready; before that, it refuses. */
	for (int i = 0; i < 1000; i++) {
		err = utrace_queue_connect(child, &q);
		if (err != -ECONNREFUSED)
			break;
		t_msleep(10);
	}
	CHECK_EQ(err, 0);
	CHECK_EQ(t_tracer_pid(child), daemon);
	CHECK_EQ(utrace_queue_watch(q, child, 0, UTRACE_EVENT(SYSCALL_ENTRY),
				    UTRACE_EVENT(SYSCALL_EXIT)), -EINVAL);
	/* The syscall set first, then the events (no read is recorded). */
	CHECK_EQ(utrace_queue_watch(q, child, 0, UTRACE_EVENT(DEATH), 0), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, child, nrs, 2), 0);
	CHECK_EQ(utrace_queue_watch(q, child, 0, UTRACE_EVENT_SYSCALL |
				    UTRACE_EVENT(DEATH),
				    UTRACE_EVENT_SYSCALL), 0);
	fd = utrace_queue_fd(q);
	CHECK(fd >= 0);
	CHECK(!readable(fd));
	/* Not held: nothing to look at. */
	CHECK_EQ(utrace_queue_regs_get(q, child, &regs), -EBUSY);
	/* All-stop of a thread blocked in read. */
	CHECK_EQ(utrace_queue_stop(q, child, 10000), 1);
	CHECK_EQ(aq_next(q, &ev, 10000), 1);
	CHECK_EQ(ev.type, 0);
	CHECK(!ev.held);
	CHECK_EQ(ev.tid, child);
	r = areply(UTRACE_RESUME);
	CHECK_EQ(utrace_queue_reply(q, ev.id, &r), -ENOENT);
	CHECK_EQ(utrace_queue_regs_get(q, child, &regs), 0);
	CHECK_EQ(utrace_queue_resume(q, child), 1);
	CHECK_EQ(utrace_queue_regs_get(q, child, &regs), -EBUSY);
	CHECK(!readable(fd));
	CHECK_EQ(write(in[1], "go\n", 3), 3);
	while (!deaths) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		CHECK_EQ(poll(&p, 1, 10000), 1);
		CHECK_EQ(aq_next(q, &ev, 0), 1);
		if (ev.type == UTRACE_EVENT(DEATH)) {
			CHECK(!ev.held);
			deaths++;
			continue;
		}
		CHECK(ev.held);
		held++;
		CHECK_EQ(utrace_queue_regs_get(q, child, &regs), 0);
		r = areply(UTRACE_RESUME);
		if (ev.type == UTRACE_EVENT(SYSCALL_ENTRY) &&
		    ev.syscall.nr == SYS_getppid) {
			r.action |= UTRACE_SYSCALL_ABORT;
			r.flags = UTRACE_REPLY_RETURN;
			r.ret = 4242;
		} else if (ev.type == UTRACE_EVENT(SYSCALL_ENTRY)) {
			/* write(1, "ppid 4242\n") and then "hello world\n" */
			const char *want = ev.syscall.args[2] == 10 ?
					   "ppid 4242\n" : "hello world\n";
			size_t len = strlen(want);
			char a[16], c[4];
			struct utrace_iov v[] = {
				{ ev.syscall.args[1], a, len }, { 8, c, 4 },
			};

			CHECK_EQ(ev.syscall.nr, SYS_write);
			CHECK_EQ(ev.syscall.args[2], len);
			CHECK_EQ(utrace_queue_mem_readv(q, child, v, 2), len);
			CHECK(!memcmp(a, want, len));
		}
		CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
		CHECK_EQ(utrace_queue_reply(q, ev.id, &r), -ENOENT);
		CHECK_EQ(utrace_queue_reply(q, ev.id + 1000000, &r), -ENOENT);
	}
	CHECK_EQ(held, 6);
	CHECK_EQ(aq_next(q, &ev, 0), 0);
	while (got < sizeof(buf) - 1 &&
	       (n = read(out[0], buf + got, sizeof(buf) - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	CHECK_STR(buf, "ppid 4242\nhello world\n");
	CHECK(waitpid(child, &st, 0) == child);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	utrace_queue_free(q);
	/* No tracee and no joiner: utraced ends. */
	CHECK(waitpid(daemon, &st, 0) == daemon);
	close(in[1]);
	close(out[0]);
}

int main(void)
{
	return test_main();
}
