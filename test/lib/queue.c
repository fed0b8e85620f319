/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The queued-event layer on real tracees: watches, records, held events and
 * replies, back-pressure, whole-process stop, tear-down and every error
 * code of utrace_queue_*; and the engine additions every tool needs
 * (utrace_engine_tgid, utrace_syscall_changes).
 */
#include <sched.h>
#include <poll.h>
#include "tlib.h"

static struct utrace_queue *q_new(struct utrace_tracer *t)
{
	struct utrace_queue *q = NULL;

	CHECK_EQ(utrace_queue_new(t, &q), 0);
	CHECK(q != NULL);
	return q;
}

static void ev_init(struct utrace_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->size = sizeof(*ev);
}

static void reply_init(struct utrace_reply *r, uint32_t action)
{
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->action = action;
}

static int q_next(struct utrace_queue *q, struct utrace_event *ev, int ms)
{
	ev_init(ev);
	return utrace_queue_next(q, ev, ms);
}

static bool fd_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static const long ppid_nr[] = { SYS_getppid };

/* -- Notify-only, single-threaded consumer with no utrace_run ----------- */

TEST(notify_single_thread_no_run)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct utrace_event ev;
	uint64_t last = 0;
	int entries = 0, exits = 0, execs = 0, deaths = 0;
	pid_t pid = t_spawn(t, NULL, "queue_prog", "loop", "10", NULL);

	CHECK(utrace_queue_fd(q) >= 0);
	CHECK(!fd_readable(utrace_queue_fd(q)));
	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT_SYSCALL |
				    UTRACE_EVENT(EXEC) | UTRACE_EVENT(DEATH),
				    0), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, ppid_nr, 1), 0);
	/* Dispatch (no record read) until one waits: then the fd says so. */
	CHECK(DISPATCH_UNTIL(t, fd_readable(utrace_queue_fd(q)), 10000));
	while (q_next(q, &ev, -1) == 1) {
		CHECK(ev.id > last);
		last = ev.id;
		CHECK_EQ(ev.tid, pid);
		CHECK_EQ(ev.pid, pid);
		CHECK(!ev.held);
		CHECK(ev.time.tv_sec || ev.time.tv_nsec);
		if (ev.type == UTRACE_EVENT(EXEC)) {
			CHECK_EQ(entries + exits + deaths, 0);
			execs++;
		} else if (ev.type == UTRACE_EVENT(SYSCALL_ENTRY)) {
			CHECK_EQ(ev.syscall.nr, SYS_getppid);
			CHECK_EQ(entries, exits);
			entries++;
		} else if (ev.type == UTRACE_EVENT(SYSCALL_EXIT)) {
			CHECK_EQ(ev.syscall.nr, SYS_getppid);
			CHECK_EQ(ev.syscall.ret, getpid());
			exits++;
			CHECK_EQ(entries, exits);
		} else if (ev.type == UTRACE_EVENT(DEATH)) {
			CHECK(WIFEXITED(ev.status) && !WEXITSTATUS(ev.status));
			CHECK(ev.group_dead);
			deaths++;
		} else {
			CHECK(!"unexpected record type");
		}
	}
	CHECK_EQ(execs, 1);
	CHECK_EQ(entries, 10);
	CHECK_EQ(exits, 10);
	CHECK_EQ(deaths, 1);
	/* All read: not readable, and nothing more comes. */
	CHECK(!fd_readable(utrace_queue_fd(q)));
	CHECK_EQ(q_next(q, &ev, 0), 0);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* -- Held events and replies -------------------------------------------- */

struct calls_state {
	struct utrace_queue *q;
	int held, deaths;
	long ppid_exit_ret;
	int regs_ok;
};

/* getppid: ABORT + 4242; dup(12345): new args dup(1); getpid exit: 777. */
static void consume_calls(struct calls_state *cs)
{
	struct utrace_queue *q = cs->q;
	struct utrace_event ev;
	struct utrace_reply r;

	while (q_next(q, &ev, -1) == 1) {
		if (ev.type == UTRACE_EVENT(DEATH)) {
			cs->deaths++;
			break;
		}
		if (ev.type == UTRACE_EVENT(SYSCALL_EXIT) &&
		    ev.syscall.nr == SYS_getppid)
			cs->ppid_exit_ret = ev.syscall.ret;
		if (!ev.held)
			continue;
		cs->held++;
		reply_init(&r, UTRACE_RESUME);
		if (ev.type == UTRACE_EVENT(SYSCALL_ENTRY)) {
			struct user_regs_struct regs;

			if (utrace_queue_regs_get(q, ev.tid, &regs) == 0 &&
			    (long)regs.orig_rax == ev.syscall.nr)
				cs->regs_ok++;
			if (ev.syscall.nr == SYS_getppid) {
				r.action = UTRACE_RESUME | UTRACE_SYSCALL_ABORT;
				r.flags = UTRACE_REPLY_RETURN;
				r.ret = 4242;
			} else if (ev.syscall.nr == SYS_dup) {
				CHECK_EQ(ev.syscall.args[0], 12345);
				memcpy(r.args, ev.syscall.args, sizeof(r.args));
				r.args[0] = 1;
				r.flags = UTRACE_REPLY_ARGS;
			}
		} else if (ev.type == UTRACE_EVENT(SYSCALL_EXIT) &&
			   ev.syscall.nr == SYS_getpid) {
			r.flags = UTRACE_REPLY_RETURN;
			r.ret = 777;
		}
		CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
	}
}

static void *calls_thread(void *arg)
{
	consume_calls(arg);
	return NULL;
}

static void calls_test(bool other_thread)
{
	static const long nrs[] = { SYS_getppid, SYS_dup, SYS_getpid };
	struct utrace_tracer *t = t_tracer();
	struct calls_state cs = { .q = q_new(t) };
	pthread_t th;
	int out;
	pid_t pid = t_spawn(t, &out, "queue_prog", "calls", NULL);

	CHECK_EQ(utrace_queue_watch(cs.q, pid, 0, UTRACE_EVENT_SYSCALL |
				    UTRACE_EVENT(DEATH), UTRACE_EVENT_SYSCALL),
		 0);
	CHECK_EQ(utrace_queue_set_syscalls(cs.q, pid, nrs, 3), 0);
	if (other_thread) {
		/* A consumer thread while utrace_run runs here. */
		CHECK_EQ(pthread_create(&th, NULL, calls_thread, &cs), 0);
		t_run(t);
		CHECK_EQ(pthread_join(th, NULL), 0);
	} else {
		consume_calls(&cs);
	}
	CHECK_STR(t_read_all(out), "ppid 4242\ndup ok errno 0\npid 777\n");
	CHECK_EQ(cs.held, 6);
	CHECK_EQ(cs.regs_ok, 3);
	CHECK_EQ(cs.deaths, 1);
	CHECK_EQ(cs.ppid_exit_ret, 4242);
	utrace_queue_free(cs.q);
	utrace_tracer_free(t);
}

TEST(replies_consumer_thread_while_run)
{
	calls_test(true);
}

TEST(replies_single_thread_consumer)
{
	calls_test(false);
}

/* Exit held too: the new return value, seen by the program. */
TEST(reply_return_at_exit)
{
	static const long nrs[] = { SYS_getpid };
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct utrace_event ev;
	struct utrace_reply r;
	int out, held = 0;
	pid_t pid = t_spawn(t, &out, "queue_prog", "calls", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT(SYSCALL_EXIT),
				    UTRACE_EVENT(SYSCALL_EXIT)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, nrs, 1), 0);
	while (q_next(q, &ev, -1) == 1) {
		CHECK(ev.held);
		CHECK_EQ(ev.syscall.ret, pid);
		reply_init(&r, UTRACE_RESUME);
		r.flags = UTRACE_REPLY_RETURN;
		r.ret = 31337;
		CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
		held++;
	}
	CHECK_EQ(held, 1);
	CHECK(strstr(t_read_all(out), "pid 31337\n") != NULL);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* -- Signals: replaced (exact siginfo in the handler) and dropped -------- */

static const char *signal_test(bool drop)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct utrace_event ev;
	struct utrace_reply r;
	int out, held = 0;
	pid_t pid = t_spawn(t, &out, "sig_prog", "info", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT_SIGNAL_ALL,
				    UTRACE_EVENT(SIGNAL)), 0);
	while (q_next(q, &ev, -1) == 1) {
		CHECK_EQ(ev.type, UTRACE_EVENT(SIGNAL));
		CHECK(ev.held);
		CHECK_EQ(ev.info.si_signo, SIGUSR1);
		CHECK_EQ(ev.info.si_code, SI_QUEUE);
		CHECK_EQ(ev.info.si_value.sival_int, 42);
		CHECK_EQ(utrace_signal_action(ev.action), UTRACE_SIGNAL_DELIVER);
		if (drop) {
			reply_init(&r, UTRACE_RESUME | UTRACE_SIGNAL_IGN);
		} else {
			reply_init(&r, UTRACE_RESUME | UTRACE_SIGNAL_DELIVER);
			r.flags = UTRACE_REPLY_SIGINFO;
			r.info.si_signo = SIGUSR2;
			r.info.si_code = SI_QUEUE;
			r.info.si_pid = 1234;
			r.info.si_uid = 0;
			r.info.si_value.sival_int = 77;
		}
		CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
		held++;
	}
	CHECK_EQ(held, 1);
	utrace_queue_free(q);
	utrace_tracer_free(t);
	return t_read_all(out);
}

TEST(signal_replaced_siginfo)
{
	CHECK_STR(signal_test(false), "sig 12 code -1 pid 1234 uid 0 val 77\n");
}

TEST(signal_dropped)
{
	CHECK_STR(signal_test(true), "sig 0 code 0 pid 0 uid 0 val 0\n");
}

/* The fd made late is readable at once; then exactly while records wait.
 * Watching again changes the masks. */
TEST(fd_exact_and_watch_again)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct utrace_event ev;
	int fd, n, syscalls = 0, deaths = 0;
	bool rewatched = false;
	pid_t pid = t_spawn(t, NULL, "queue_prog", "loop", "400", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT_SYSCALL |
				    UTRACE_EVENT(DEATH), 0), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, ppid_nr, 1), 0);
	/* Records are made by dispatches; on the loop thread nothing else
	 * makes them, so the checks below cannot race. */
	for (int i = 0; i < 50; i++)
		CHECK(utrace_dispatch(t, 20) >= 0);
	fd = utrace_queue_fd(q);
	CHECK(fd >= 0);
	CHECK(fd_readable(fd));
	for (;;) {
		bool readable = fd_readable(fd);

		n = q_next(q, &ev, 0);
		CHECK_EQ(readable, n == 1);
		if (n == 0) {
			if (deaths)
				break;
			CHECK(utrace_dispatch(t, 20) >= 0);
			continue;
		}
		if (ev.type == UTRACE_EVENT(DEATH)) {
			deaths++;
			continue;
		}
		CHECK(!rewatched || ev.id < 1000000);
		syscalls++;
		if (syscalls == 100) {
			/* From now on DEATH only: what waits stays. */
			CHECK_EQ(utrace_queue_watch(q, pid, 0,
						    UTRACE_EVENT(DEATH), 0), 0);
			while (q_next(q, &ev, 0) == 1)
				CHECK(ev.type != UTRACE_EVENT(DEATH));
			rewatched = true;
			syscalls = -1000000;	/* any later one fails below */
		}
	}
	CHECK_EQ(deaths, 1);
	CHECK(rewatched);
	CHECK(syscalls == -1000000);
	CHECK(!fd_readable(fd));
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* A held signal replied UTRACE_SIGNAL_HOLD comes back as a new record. */
TEST(signal_hold_reported_again)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct utrace_event ev;
	struct utrace_reply r;
	uint64_t first = 0;
	int out, held = 0;
	pid_t pid = t_spawn(t, &out, "sig_prog", "info", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT_SIGNAL_ALL,
				    UTRACE_EVENT(SIGNAL)), 0);
	while (q_next(q, &ev, -1) == 1) {
		CHECK(ev.held);
		CHECK_EQ(ev.info.si_signo, SIGUSR1);
		CHECK_EQ(ev.info.si_value.sival_int, 42);
		if (!held++) {
			first = ev.id;
			reply_init(&r, UTRACE_RESUME | UTRACE_SIGNAL_HOLD);
		} else {
			CHECK(ev.id > first);
			reply_init(&r, UTRACE_RESUME | UTRACE_SIGNAL_DELIVER);
		}
		CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
	}
	CHECK_EQ(held, 2);
	{
		char want[128];

		snprintf(want, sizeof(want), "sig 10 code -1 pid %d uid %d val 42\n",
			 (int)pid, (int)getuid());
		CHECK_STR(t_read_all(out), want);
	}
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* -- A queue and a plain engine on one thread ---------------------------- */

struct plain {
	int entries, resumed;
	uint32_t resumed_action;
	int changes_at_exit;
	pid_t tgid;
};

static uint32_t plain_entry(uint32_t action, struct utrace_engine *e)
{
	struct plain *p = utrace_engine_data(e);
	struct utrace_syscall sc;

	if (utrace_syscall_get(e, &sc) || sc.nr != SYS_getppid)
		return (action & UTRACE_SYSCALL_MASK) | UTRACE_RESUME;
	p->tgid = utrace_engine_tgid(e);
	if (action & UTRACE_SYSCALL_RESUMED) {
		p->resumed++;
		p->resumed_action = action;
		/* Passes the syscall action on: it is called last here. */
		return (action & UTRACE_SYSCALL_MASK) | UTRACE_RESUME;
	}
	p->entries++;
	return (action & UTRACE_SYSCALL_MASK) | UTRACE_STOP;
}

static uint32_t plain_exit(uint32_t action, struct utrace_engine *e)
{
	struct plain *p = utrace_engine_data(e);
	struct utrace_syscall sc;

	if (utrace_syscall_get(e, &sc) == 0 && sc.nr == SYS_getppid)
		p->changes_at_exit = utrace_syscall_changes(e);
	return UTRACE_RESUME;
}

static const struct utrace_engine_ops plain_ops = {
	.report_syscall_entry = plain_entry,
	.report_syscall_exit = plain_exit,
};

TEST(queue_and_plain_engine)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct utrace_engine *e;
	struct utrace_event ev;
	struct utrace_reply r;
	struct plain p = { 0 };
	int out;
	pid_t pid = t_spawn(t, &out, "queue_prog", "calls", NULL);

	/* The plain engine first: at syscall entry it is called last. */
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE, &plain_ops, &p,
			       &e), 0);
	CHECK_EQ(utrace_set_events(e, UTRACE_EVENT_SYSCALL), 0);
	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT(SYSCALL_ENTRY) |
				    UTRACE_EVENT(DEATH),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, ppid_nr, 1), 0);
	CHECK_EQ(q_next(q, &ev, 10000), 1);
	CHECK(ev.held);
	CHECK_EQ(ev.syscall.nr, SYS_getppid);
	CHECK_EQ(p.entries, 1);
	CHECK_EQ(p.tgid, pid);
	reply_init(&r, UTRACE_RESUME | UTRACE_SYSCALL_ABORT);
	r.flags = UTRACE_REPLY_RETURN;
	r.ret = 4242;
	CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
	/* The plain engine's STOP outlives the reply. */
	for (int i = 0; i < 10; i++)
		CHECK(utrace_dispatch(t, 20) >= 0);
	CHECK(t_stopped(pid));
	CHECK_EQ(p.resumed, 0);
	CHECK_EQ(q_next(q, &ev, 0), 0);
	CHECK_EQ(utrace_control(e, UTRACE_RESUME), 0);
	/* The repeated entry pass: the reply's ABORT reached the plain
	 * engine (called after the queue's, which attached later). */
	CHECK_EQ(q_next(q, &ev, 10000), 1);
	CHECK_EQ(ev.type, UTRACE_EVENT(DEATH));
	CHECK_EQ(p.resumed, 1);
	CHECK_EQ(utrace_syscall_action(p.resumed_action), UTRACE_SYSCALL_ABORT);
	CHECK_EQ(p.changes_at_exit, UTRACE_SYSCALL_CHANGED_ABORT |
				    UTRACE_SYSCALL_CHANGED_RETURN);
	CHECK(strstr(t_read_all(out), "ppid 4242\n") != NULL);
	utrace_engine_put(e);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/*
 * An engine called before the queue at syscall entry (attached after it)
 * aborts getppid with its own return value, and votes it again on the
 * repeat (utrace_pass(3)); the queue holds the entry and its consumer
 * replies a plain UTRACE_RESUME.  The queue is called last: its reply
 * must hand the abort on, not undo it (a printer beside an injector).
 */
struct aborter {
	int entries, resumed;
	int changes_at_exit;
};

static uint32_t aborter_entry(uint32_t action, struct utrace_engine *e)
{
	struct aborter *a = utrace_engine_data(e);
	struct utrace_syscall sc;

	if (utrace_syscall_get(e, &sc) || sc.nr != SYS_getppid)
		return utrace_pass(action, UTRACE_RESUME);
	if (action & UTRACE_SYSCALL_RESUMED)
		a->resumed++;
	else if (a->entries++ == 0)
		CHECK_EQ(utrace_syscall_set_return(e, 4343), 0);
	return UTRACE_RESUME | UTRACE_SYSCALL_ABORT;
}

static uint32_t aborter_exit(uint32_t action, struct utrace_engine *e)
{
	struct aborter *a = utrace_engine_data(e);
	struct utrace_syscall sc;

	if (utrace_syscall_get(e, &sc) == 0 && sc.nr == SYS_getppid)
		a->changes_at_exit = utrace_syscall_changes(e);
	return UTRACE_RESUME;
}

static const struct utrace_engine_ops aborter_ops = {
	.report_syscall_entry = aborter_entry,
	.report_syscall_exit = aborter_exit,
};

TEST(resume_reply_hands_on_another_engines_abort)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct utrace_engine *e;
	struct utrace_event ev;
	struct utrace_reply r;
	struct aborter a = { 0 };
	int out;
	pid_t pid = t_spawn(t, &out, "queue_prog", "calls", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT(SYSCALL_ENTRY) |
				    UTRACE_EVENT(DEATH),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, ppid_nr, 1), 0);
	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE, &aborter_ops, &a,
			       &e), 0);
	CHECK_EQ(utrace_set_events(e, UTRACE_EVENT_SYSCALL), 0);
	CHECK_EQ(q_next(q, &ev, 10000), 1);
	CHECK(ev.held);
	CHECK_EQ(ev.syscall.nr, SYS_getppid);
	reply_init(&r, UTRACE_RESUME);
	CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
	CHECK_EQ(q_next(q, &ev, 10000), 1);
	CHECK_EQ(ev.type, UTRACE_EVENT(DEATH));
	CHECK_EQ(a.entries, 1);
	CHECK_EQ(a.resumed, 1);
	CHECK_EQ(a.changes_at_exit, UTRACE_SYSCALL_CHANGED_ABORT |
				    UTRACE_SYSCALL_CHANGED_RETURN);
	CHECK(strstr(t_read_all(out), "ppid 4343\n") != NULL);
	utrace_engine_put(e);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* -- 100,000 notify-only records, none lost or reordered ----------------- */

TEST_T(notify_100000_in_order, 300)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct utrace_event ev;
	uint64_t last = 0;
	long entries = 0, exits = 0;
	pid_t pid = t_spawn(t, NULL, "queue_prog", "loop", "50000", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT_SYSCALL, 0), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, ppid_nr, 1), 0);
	while (q_next(q, &ev, -1) == 1) {
		CHECK(ev.id > last);
		last = ev.id;
		CHECK_EQ(ev.syscall.nr, SYS_getppid);
		if (ev.type == UTRACE_EVENT(SYSCALL_ENTRY)) {
			CHECK_EQ(entries, exits);
			entries++;
		} else {
			CHECK_EQ(ev.type, UTRACE_EVENT(SYSCALL_EXIT));
			exits++;
			CHECK_EQ(entries, exits);
		}
	}
	CHECK_EQ(entries, 50000);
	CHECK_EQ(exits, 50000);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* -- Back-pressure: a sleeping consumer, nothing lost, bounded ----------- */

/* utime + stime of a process, in clock ticks; -1 when gone. */
static long cpu_ticks(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long ut, st;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
			 &ut, &st) != 2)
		return -1;
	return (long)(ut + st);
}

/*
 * How far a process got: its CPU ticks plus its context switches, which
 * also count each stop it passes through when it runs traced itself and
 * spends its time stopped rather than on the CPU (test/cli/ptrace-lib.sh).
 */
static long progress(pid_t pid)
{
	char path[64], line[256];
	long v, n = cpu_ticks(pid);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %ld", &v) == 1)
			n += v;
	fclose(f);
	return n;
}

struct bp_state {
	struct utrace_queue *q;
	pid_t pid;
	long before, entries, exits;
	bool held_seen;
};

static void *bp_consumer(void *arg)
{
	struct bp_state *b = arg;
	struct timespec t0;
	struct utrace_event ev;
	uint64_t last = 0;

	/* Read nothing until back-pressure holds the program still. */
	for (int stable = 0; stable < 5;) {
		long c = progress(b->pid);

		t_msleep(200);
		if (t_state(b->pid) == 't' && progress(b->pid) == c)
			stable++;
		else
			stable = 0;
	}
	b->held_seen = true;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (q_next(b->q, &ev, 5000) == 1) {
		CHECK(ev.id > last);
		last = ev.id;
		if (ev.type == UTRACE_EVENT(DEATH))
			break;
		if (ev.time.tv_sec < t0.tv_sec ||
		    (ev.time.tv_sec == t0.tv_sec && ev.time.tv_nsec < t0.tv_nsec))
			b->before++;
		if (ev.type == UTRACE_EVENT(SYSCALL_ENTRY)) {
			CHECK_EQ(b->entries, b->exits);
			b->entries++;
		} else {
			b->exits++;
			CHECK_EQ(b->entries, b->exits);
		}
	}
	return NULL;
}

TEST_T(backpressure_sleeping_consumer, 300)
{
	struct utrace_tracer *t = t_tracer();
	struct bp_state b = { .q = q_new(t) };
	pthread_t th;

	/* 80,000 records: more than the limit, no more (nested, each costs). */
	b.pid = t_spawn(t, NULL, "queue_prog", "loop", "40000", NULL);
	CHECK_EQ(utrace_queue_watch(b.q, b.pid, 0, UTRACE_EVENT_SYSCALL |
				    UTRACE_EVENT(DEATH), 0), 0);
	CHECK_EQ(utrace_queue_set_syscalls(b.q, b.pid, ppid_nr, 1), 0);
	CHECK_EQ(pthread_create(&th, NULL, bp_consumer, &b), 0);
	t_run(t);
	CHECK_EQ(pthread_join(th, NULL), 0);
	CHECK(b.held_seen);
	/* Nothing lost ... */
	CHECK_EQ(b.entries, 40000);
	CHECK_EQ(b.exits, 40000);
	/* ... and no more than the limit (+ the one that set it) waited. */
	fprintf(stderr, "# records made while the consumer slept: %ld\n",
		b.before);
	CHECK(b.before >= UTRACE_QUEUE_LIMIT);
	CHECK(b.before <= UTRACE_QUEUE_LIMIT + 1);
	utrace_queue_free(b.q);
	utrace_tracer_free(t);
}

/* -- WATCH_PROCESS | WATCH_CHILDREN over a fork/thread tree --------------- */

TEST(watch_process_children_tree)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct utrace_event ev;
	pid_t ppid_tids[32], death_tids[32], pids[8];
	int nppid = 0, ndeath = 0, npids = 0, clones = 0, out;
	pid_t pid = t_spawn(t, &out, "queue_prog", "tree", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, UTRACE_WATCH_PROCESS |
				    UTRACE_WATCH_CHILDREN,
				    UTRACE_EVENT(SYSCALL_ENTRY) |
				    UTRACE_EVENT(CLONE) | UTRACE_EVENT(DEATH),
				    0), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, ppid_nr, 1), 0);
	while (q_next(q, &ev, -1) == 1) {
		for (int i = 0; i < ndeath; i++)
			CHECK(death_tids[i] != ev.tid);	/* nothing after DEATH */
		if (ev.type == UTRACE_EVENT(SYSCALL_ENTRY)) {
			CHECK_EQ(ev.syscall.nr, SYS_getppid);
			CHECK(nppid < 32);
			for (int i = 0; i < nppid; i++)
				CHECK(ppid_tids[i] != ev.tid);
			ppid_tids[nppid++] = ev.tid;
			bool seen = false;

			for (int i = 0; i < npids; i++)
				seen |= pids[i] == ev.pid;
			if (!seen && npids < 8)
				pids[npids++] = ev.pid;
		} else if (ev.type == UTRACE_EVENT(CLONE)) {
			CHECK(ev.child > 0);
			clones++;
		} else if (ev.type == UTRACE_EVENT(DEATH)) {
			CHECK(ndeath < 32);
			death_tids[ndeath++] = ev.tid;
		}
	}
	/* main + 2 threads, and 2 children with 2 threads each. */
	CHECK_EQ(nppid, 9);
	CHECK_EQ(npids, 3);
	CHECK_EQ(clones, 8);
	CHECK_EQ(ndeath, 9);
	CHECK_STR(t_read_all(out), "tree done\n");
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* A non-leader executes: its record names the leader's id and process. */
TEST(watch_process_exec_from_thread)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct utrace_event ev;
	int out, execs = 0, thread_execs = 0, group_deaths = 0;
	pid_t pid = t_spawn(t, &out, "exec_thread", test_prog("print_exit"),
			    "after exec", "5", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT(EXEC) | UTRACE_EVENT(DEATH),
				    0), 0);
	while (q_next(q, &ev, -1) == 1) {
		CHECK_EQ(ev.pid, pid);
		if (ev.type == UTRACE_EVENT(EXEC)) {
			execs++;
			CHECK_EQ(ev.tid, pid);
			if (ev.former_tid != pid) {
				CHECK(ev.former_tid > 0);
				thread_execs++;
			}
		} else if (ev.type == UTRACE_EVENT(DEATH) && ev.group_dead) {
			CHECK_EQ(ev.tid, pid);
			CHECK(WIFEXITED(ev.status) && WEXITSTATUS(ev.status) == 5);
			group_deaths++;
		}
	}
	CHECK_EQ(execs, 2);
	CHECK_EQ(thread_execs, 1);
	CHECK_EQ(group_deaths, 1);
	CHECK_STR(t_read_all(out), "after exec\n");
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* -- Whole-process stop --------------------------------------------------- */

static int count_tasks_in(pid_t pid, char state)
{
	pid_t tids[512];
	int n = t_tasks(pid, tids, 512), k = 0;

	for (int i = 0; i < n; i++)
		k += t_state(tids[i]) == state;
	return k;
}

TEST_T(allstop_16_spinning_threads, 120)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct utrace_event ev;
	pid_t tids[64], seen[64];
	int n, nseen = 0;
	pid_t pid = t_spawn(t, NULL, "queue_prog", "spin", "16", "60000", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT(DEATH), 0), 0);
	CHECK(DISPATCH_UNTIL(t, t_tasks(pid, tids, 64) == 17, 20000));
	/* Not all stopped at once: the timeout is reported. */
	CHECK_EQ(utrace_queue_stop(q, pid, 0), -ETIMEDOUT);
	n = utrace_queue_stop(q, pid, 30000);
	CHECK_EQ(n, 17);
	/* Every thread is in a ptrace stop. */
	CHECK_EQ(count_tasks_in(pid, 't'), 17);
	while (q_next(q, &ev, 0) == 1) {
		struct user_regs_struct regs;

		CHECK_EQ(ev.type, 0);
		CHECK(!ev.held);
		CHECK_EQ(ev.pid, pid);
		for (int i = 0; i < nseen; i++)
			CHECK(seen[i] != ev.tid);
		seen[nseen++] = ev.tid;
		CHECK_EQ(utrace_queue_regs_get(q, ev.tid, &regs), 0);
	}
	CHECK_EQ(nseen, 17);
	/* Stopping again: already stopped, no new records. */
	CHECK_EQ(utrace_queue_stop(q, pid, 0), 17);
	CHECK_EQ(q_next(q, &ev, 0), 0);
	for (int i = 0; i < 5; i++)
		CHECK(utrace_dispatch(t, 10) >= 0);
	CHECK_EQ(count_tasks_in(pid, 't'), 17);
	CHECK_EQ(utrace_queue_resume(q, pid), 17);
	CHECK(DISPATCH_UNTIL(t, count_tasks_in(pid, 't') < 17, 10000));
	/* Not held any more. */
	CHECK_EQ(utrace_queue_regs_get(q, pid, &(struct user_regs_struct){0}),
		 -EBUSY);
	kill(pid, SIGKILL);
	n = 0;
	while (q_next(q, &ev, -1) == 1)
		n += ev.type == UTRACE_EVENT(DEATH);
	CHECK_EQ(n, 17);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* A thread born while its process is being stopped is held from birth. */
struct born {
	struct utrace_queue *q;
	int clones, stop_ret;
	pid_t child;
};

static uint32_t born_clone(uint32_t action, struct utrace_engine *e,
			   unsigned long flags, pid_t child)
{
	struct born *b = utrace_engine_data(e);

	if (++b->clones == 8) {
		/* Inside a callback: start the stop, never wait. */
		b->stop_ret = utrace_queue_stop(b->q, utrace_engine_tgid(e), 0);
		b->child = child;
	}
	return UTRACE_RESUME;
}

static const struct utrace_engine_ops born_ops = {
	.report_clone = born_clone,
};

struct stopper {
	struct utrace_queue *q;
	pid_t pid;
	int ret;
};

static void *stop_thread(void *arg)
{
	struct stopper *s = arg;

	s->ret = utrace_queue_stop(s->q, s->pid, 30000);
	return NULL;
}

TEST_T(allstop_thread_born_during_stop_held, 120)
{
	struct utrace_tracer *t = t_tracer();
	struct born b = { .q = q_new(t) };
	struct utrace_engine *e;
	struct utrace_event ev;
	struct stopper s;
	pthread_t th;
	bool child_rec = false;
	int n;
	pid_t pid = t_spawn(t, NULL, "queue_prog", "spin", "16", "60000", NULL);

	CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE, &born_ops, &b,
			       &e), 0);
	CHECK_EQ(utrace_set_events(e, UTRACE_EVENT(CLONE)), 0);
	CHECK_EQ(utrace_queue_watch(b.q, pid, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT(DEATH), 0), 0);
	CHECK(DISPATCH_UNTIL(t, b.clones >= 8, 20000));
	CHECK_EQ(b.stop_ret, -ETIMEDOUT);
	CHECK(b.child > 0);
	/* Wait for the whole stop from another thread, the loop runs here. */
	s = (struct stopper){ b.q, pid, 0 };
	CHECK_EQ(pthread_create(&th, NULL, stop_thread, &s), 0);
	CHECK(DISPATCH_UNTIL(t, __atomic_load_n(&s.ret, __ATOMIC_SEQ_CST),
			     30000));
	CHECK_EQ(pthread_join(th, NULL), 0);
	/* main and the 8 threads made before the stop took hold. */
	CHECK_EQ(s.ret, 9);
	CHECK_EQ(count_tasks_in(pid, 't'), 9);
	CHECK_EQ(t_state(b.child), 't');
	n = 0;
	while (q_next(b.q, &ev, 0) == 1) {
		CHECK_EQ(ev.type, 0);
		child_rec |= ev.tid == b.child;
		n++;
	}
	CHECK_EQ(n, 9);
	CHECK(child_rec);
	CHECK_EQ(utrace_queue_resume(b.q, pid), 9);
	kill(pid, SIGKILL);
	while (q_next(b.q, &ev, -1) == 1)
		;
	utrace_engine_put(e);
	utrace_queue_free(b.q);
	utrace_tracer_free(t);
}

/*
 * utrace_queue_stop waiting on one thread while another resumes the same
 * process: the resume may take the stop away at any moment of the wait
 * (before it is complete, or between its completion and the waiter's
 * reading of it).  Every call returns a count, or -ECANCELED when the
 * resume came first; nothing touches freed memory (run under ASan).
 */
struct stop_race {
	struct utrace_queue *q;
	pid_t pid;
	int rounds;
	int stopped, cancelled, bad;	/* stopper's results */
	int resumes;
	int done;			/* threads finished (atomic) */
};

static void *race_stopper(void *arg)
{
	struct stop_race *r = arg;

	for (int i = 0; i < r->rounds; i++) {
		int n = utrace_queue_stop(r->q, r->pid, -1);

		if (n > 0)
			r->stopped++;
		else if (n == -ECANCELED)
			r->cancelled++;
		else
			r->bad++;
	}
	__atomic_add_fetch(&r->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void *race_resumer(void *arg)
{
	struct stop_race *r = arg;

	while (__atomic_load_n(&r->done, __ATOMIC_SEQ_CST) == 0)
		if (utrace_queue_resume(r->q, r->pid) > 0)
			r->resumes++;
	__atomic_add_fetch(&r->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

TEST_T(allstop_resumed_from_another_thread_while_waiting, 120)
{
	struct utrace_tracer *t = t_tracer();
	struct stop_race r = { .q = q_new(t), .rounds = 300 };
	struct utrace_event ev;
	pthread_t a, b;
	pid_t tids[8];

	r.pid = t_spawn(t, NULL, "queue_prog", "spin", "3", "60000", NULL);
	CHECK_EQ(utrace_queue_watch(r.q, r.pid, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT(DEATH), 0), 0);
	CHECK(DISPATCH_UNTIL(t, t_tasks(r.pid, tids, 8) == 4, 20000));
	CHECK_EQ(pthread_create(&a, NULL, race_stopper, &r), 0);
	CHECK_EQ(pthread_create(&b, NULL, race_resumer, &r), 0);
	/* The loop runs here; records are read so none piles up. */
	while (__atomic_load_n(&r.done, __ATOMIC_SEQ_CST) < 2) {
		CHECK(utrace_dispatch(t, 10) >= 0);
		while (q_next(r.q, &ev, 0) == 1)
			CHECK_EQ(ev.type, 0);
	}
	CHECK_EQ(pthread_join(a, NULL), 0);
	CHECK_EQ(pthread_join(b, NULL), 0);
	CHECK_EQ(r.bad, 0);
	CHECK_EQ(r.stopped + r.cancelled, r.rounds);
	printf("# %d stops completed, %d cancelled by a resume, %d resumes\n",
	       r.stopped, r.cancelled, r.resumes);
	/* Whatever the last call was, nothing stays stopped. */
	utrace_queue_resume(r.q, r.pid);
	CHECK(DISPATCH_UNTIL(t, count_tasks_in(r.pid, 't') == 0, 10000));
	kill(r.pid, SIGKILL);
	while (q_next(r.q, &ev, -1) == 1)
		;
	utrace_queue_free(r.q);
	utrace_tracer_free(t);
}

/* -- SIGKILL of a held thread --------------------------------------------- */

TEST(sigkill_held_thread)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct utrace_event ev;
	struct utrace_reply r;
	uint64_t held = 0;
	int deaths = 0;
	pid_t pid = t_spawn(t, NULL, "queue_prog", "loop", "5", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT_SYSCALL |
				    UTRACE_EVENT(EXIT) | UTRACE_EVENT(DEATH),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, ppid_nr, 1), 0);
	CHECK_EQ(q_next(q, &ev, 10000), 1);
	CHECK(ev.held);
	held = ev.id;
	CHECK_EQ(kill(pid, SIGKILL), 0);
	while (q_next(q, &ev, -1) == 1) {
		CHECK(!ev.held);
		CHECK(!deaths);		/* nothing after DEATH */
		if (ev.type == UTRACE_EVENT(EXIT))
			CHECK(WIFSIGNALED(ev.status));
		if (ev.type == UTRACE_EVENT(DEATH)) {
			CHECK(WIFSIGNALED(ev.status) &&
			      WTERMSIG(ev.status) == SIGKILL);
			deaths++;
		}
		CHECK(ev.type != UTRACE_EVENT(SYSCALL_ENTRY));
	}
	CHECK_EQ(deaths, 1);
	reply_init(&r, UTRACE_RESUME);
	CHECK_EQ(utrace_queue_reply(q, held, &r), -ESRCH);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* -- Tear-down and unwatch with held threads ------------------------------ */

TEST(queue_free_with_held_threads)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct utrace_spawn_opts o = { sizeof(o), NULL, NULL,
				       UTRACE_SPAWN_NO_FILTER };
	char *argv[] = { (char *)test_prog("threads"), "8", NULL };
	struct utrace_event ev;
	pid_t pid, tids[64];
	int held = 0, st;

	CHECK_EQ(t_spawn_opts(t, NULL, &o, &pid, argv), 0);
	CHECK_EQ(utrace_queue_watch(q, pid, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT(SYSCALL_ENTRY),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, ppid_nr, 1), 0);
	while (held < 3 && q_next(q, &ev, 10000) == 1)
		held += ev.held;
	CHECK_EQ(held, 3);
	utrace_queue_free(q);
	/* Nothing traces it now: every thread is let go, none stopped. */
	CHECK(DISPATCH_UNTIL(t, ({
		int n = t_tasks(pid, tids, 64), traced = 0;

		for (int i = 0; i < n; i++)
			traced += t_tracer_pid(tids[i]) > 0;
		traced == 0;
	}), 10000));
	st = t_waitpid(pid, 20000);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	utrace_tracer_free(t);
}

TEST(unwatch_held_runs_on)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct utrace_event ev;
	struct utrace_reply r;
	int out;
	pid_t pid = t_spawn(t, &out, "queue_prog", "calls", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT(SYSCALL_ENTRY),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, ppid_nr, 1), 0);
	CHECK_EQ(q_next(q, &ev, 10000), 1);
	CHECK(ev.held);
	CHECK_EQ(utrace_queue_unwatch(q, pid, 0), 0);
	/* As if replied UTRACE_RESUME: the real getppid. */
	CHECK_EQ(q_next(q, &ev, 10000), 0);
	reply_init(&r, UTRACE_RESUME);
	CHECK_EQ(utrace_queue_reply(q, ev.id, &r), -ENOENT);
	CHECK_EQ(utrace_queue_unwatch(q, pid, 0), -ENOENT);
	{
		char want[64];

		snprintf(want, sizeof(want), "ppid %d\n", (int)getpid());
		CHECK(strncmp(t_read_all(out), want, strlen(want)) == 0);
	}
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/*
 * A trap the consumer set off just before it let a thread go is reported
 * once the queue's engine has left it: gdb killed while its threads run
 * (one hits an int3 as the all-stop holds it, the SIGTRAP pending; the
 * debugger takes its int3 out and lets go).  The queue takes it, as when
 * it is freed, and the program never sees it.  Here the SIGTRAP of an int3
 * (SI_KERNEL) is pending at a held syscall exit, and the consumer has put
 * an int3 where the pc is and taken it out again before it leaves.
 */
static void late_trap(bool detach)
{
	static const long nrs[] = { SYS_rt_tgsigqueueinfo };
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct user_regs_struct regs;
	struct utrace_event ev;
	struct utrace_reply r;
	struct pollfd p = { .events = POLLIN };
	uint8_t orig, cc = 0xcc;
	char buf[64] = "";
	ssize_t n;
	int out;
	pid_t pid = t_spawn(t, &out, "queue_prog", "trapself", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT(SYSCALL_EXIT),
				    UTRACE_EVENT(SYSCALL_EXIT)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, nrs, 1), 0);
	CHECK_EQ(q_next(q, &ev, 10000), 1);
	CHECK(ev.held);
	CHECK_EQ(ev.syscall.nr, SYS_rt_tgsigqueueinfo);
	CHECK_EQ(ev.syscall.ret, 0);
	CHECK_EQ(utrace_queue_regs_get(q, pid, &regs), 0);
	{
		struct utrace_iov rd = { regs.rip, &orig, 1 };
		struct utrace_iov plant = { regs.rip, &cc, 1 };
		struct utrace_iov back = { regs.rip, &orig, 1 };

		CHECK_EQ(utrace_queue_mem_readv(q, pid, &rd, 1), 1);
		CHECK_EQ(utrace_queue_mem_writev(q, pid, &plant, 1), 1);
		CHECK_EQ(utrace_queue_mem_writev(q, pid, &back, 1), 1);
	}
	if (detach) {
		reply_init(&r, UTRACE_DETACH);
		CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
	} else {
		CHECK_EQ(utrace_queue_unwatch(q, pid, 0), 0);
	}
	/* "survived", or the end of the output when the SIGTRAP kills it. */
	p.fd = out;
	CHECK(DISPATCH_UNTIL(t, poll(&p, 1, 0) == 1, 10000));
	n = read(out, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	CHECK_STR(buf, "survived\n");
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

TEST(late_trap_after_unwatch_not_delivered)
{
	late_trap(false);
}

TEST(late_trap_after_detach_reply_not_delivered)
{
	late_trap(true);
}

/* -- Looking and changing: registers and batched memory ------------------- */

TEST(regs_and_batched_memory)
{
	static const long nrs[] = { SYS_write };
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t);
	struct utrace_event ev;
	struct utrace_reply r;
	struct user_regs_struct regs;
	char a[8] = { 0 }, b[8] = { 0 };
	int out;
	pid_t pid = t_spawn(t, &out, "queue_prog", "write", NULL);

	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT(SYSCALL_ENTRY),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, nrs, 1), 0);
	CHECK_EQ(q_next(q, &ev, 10000), 1);
	CHECK(ev.held);
	CHECK_EQ(utrace_queue_regs_get(q, pid, &regs), 0);
	CHECK_EQ(regs.orig_rax, SYS_write);
	CHECK_EQ(regs.rsi, ev.syscall.args[1]);
	{
		struct utrace_iov v[2] = {
			{ regs.rsi, a, 5 }, { regs.rsi + 6, b, 5 },
		};
		struct utrace_iov w[1] = { { regs.rsi, "HELLO", 5 } };
		struct utrace_iov bad[2] = {
			{ regs.rsi, a, 5 }, { 8, b, 5 },
		};

		CHECK_EQ(utrace_queue_mem_readv(q, pid, v, 2), 10);
		CHECK_STR(a, "hello");
		CHECK_STR(b, "world");
		CHECK_EQ(utrace_queue_mem_writev(q, pid, w, 1), 5);
		/* An unreachable range ends the count there. */
		CHECK_EQ(utrace_queue_mem_readv(q, pid, bad, 2), 5);
		CHECK_STR(a, "HELLO");
		CHECK_EQ(utrace_queue_mem_readv(q, pid, &bad[1], 1), -EFAULT);
	}
	/* regs_set: the same registers back is accepted. */
	CHECK_EQ(utrace_queue_regs_set(q, pid, &regs), 0);
	reply_init(&r, UTRACE_RESUME);
	CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
	CHECK_EQ(q_next(q, &ev, -1), 0);
	CHECK_STR(t_read_all(out), "HELLO world\n");
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* -- Every error code ------------------------------------------------------ */

TEST(error_codes)
{
	static const long bad_nr[] = { 5000 };
	struct utrace_tracer *t = t_tracer();
	struct utrace_queue *q = q_new(t), *q2 = NULL;
	struct utrace_event ev;
	struct utrace_reply r;
	struct user_regs_struct regs;
	uint64_t held_id = 0, notify_id = 0;
	pid_t gone, pid;
	int st;

	/* A thread id that is certainly gone. */
	gone = fork();
	if (gone == 0)
		_exit(0);
	CHECK(waitpid(gone, &st, 0) == gone);

	CHECK_EQ(utrace_queue_new(NULL, &q2), -EINVAL);
	CHECK_EQ(utrace_queue_new(t, NULL), -EINVAL);
	CHECK_EQ(utrace_queue_fd(NULL), -EINVAL);
	CHECK_EQ(utrace_queue_watch(q, gone, 0, UTRACE_EVENT(DEATH), 0), -ESRCH);
	pid = t_spawn(t, NULL, "queue_prog", "calls", NULL);
	CHECK_EQ(utrace_queue_watch(q, pid, 0x80, UTRACE_EVENT(DEATH), 0), -EINVAL);
	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT(QUIESCE), 0), -EINVAL);
	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT(SYSCALL_EXIT),
				    UTRACE_EVENT(SYSCALL_ENTRY)), -EINVAL);
	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT(DEATH),
				    UTRACE_EVENT(DEATH)), -EINVAL);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, ppid_nr, 1), -ENOENT);
	CHECK_EQ(utrace_queue_unwatch(q, pid, 0), -ENOENT);
	CHECK_EQ(utrace_queue_watch(q, pid, 0, UTRACE_EVENT_SYSCALL |
				    UTRACE_EVENT(DEATH),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, bad_nr, 1), -EINVAL);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, ppid_nr, 1), 0);
	CHECK_EQ(utrace_queue_stop(q, gone, 0), -ESRCH);
	memset(&ev, 0, sizeof(ev));
	ev.size = 1;
	CHECK_EQ(utrace_queue_next(q, &ev, 0), -EINVAL);

	CHECK_EQ(q_next(q, &ev, 10000), 1);
	CHECK(ev.held);
	held_id = ev.id;
	/* Unknown id. */
	reply_init(&r, UTRACE_RESUME);
	CHECK_EQ(utrace_queue_reply(q, held_id + 1000, &r), -ENOENT);
	/* A reply that does not fit the event. */
	reply_init(&r, UTRACE_RESUME);
	r.flags = UTRACE_REPLY_SIGINFO;
	CHECK_EQ(utrace_queue_reply(q, held_id, &r), -EINVAL);
	reply_init(&r, UTRACE_RESUME);
	r.flags = UTRACE_REPLY_RETURN;		/* at entry without ABORT */
	CHECK_EQ(utrace_queue_reply(q, held_id, &r), -EINVAL);
	reply_init(&r, UTRACE_RESUME);
	r.size = 1;
	CHECK_EQ(utrace_queue_reply(q, held_id, &r), -EINVAL);
	reply_init(&r, UTRACE_RESUME);
	r.flags = 0x80;
	CHECK_EQ(utrace_queue_reply(q, held_id, &r), -EINVAL);
	/* Not held by this queue: -EBUSY (an unwatched live thread too). */
	CHECK_EQ(utrace_queue_regs_get(q, getpid(), &regs), -EBUSY);
	/* STOP keeps holding: the id stays valid. */
	reply_init(&r, UTRACE_STOP);
	CHECK_EQ(utrace_queue_reply(q, held_id, &r), 0);
	CHECK_EQ(utrace_queue_regs_get(q, pid, &regs), 0);
	/* No reply struct: the defaults, a plain UTRACE_RESUME. */
	CHECK_EQ(utrace_queue_reply(q, held_id + 1000, NULL), -ENOENT);
	CHECK_EQ(utrace_queue_reply(q, held_id, NULL), 0);
	/* Already replied. */
	reply_init(&r, UTRACE_RESUME);
	CHECK_EQ(utrace_queue_reply(q, held_id, &r), -ENOENT);
	CHECK_EQ(utrace_queue_reply(q, held_id, NULL), -ENOENT);
	CHECK_EQ(q_next(q, &ev, 10000), 1);
	CHECK_EQ(ev.type, UTRACE_EVENT(SYSCALL_EXIT));
	CHECK(!ev.held);
	notify_id = ev.id;
	/* A notify-only record is not held. */
	CHECK_EQ(utrace_queue_reply(q, notify_id, &r), -ENOENT);
	CHECK_EQ(utrace_queue_regs_get(q, pid, &regs), -EBUSY);
	while (q_next(q, &ev, -1) == 1)
		;
	/* Dead. */
	CHECK_EQ(utrace_queue_regs_get(q, pid, &regs), -ESRCH);
	CHECK_EQ(utrace_queue_mem_readv(q, pid, NULL, 0), -ESRCH);
	CHECK_EQ(utrace_queue_stop(q, pid, 0), -ESRCH);
	CHECK_EQ(utrace_queue_regs_get(q, pid, NULL), -EINVAL);
	CHECK_EQ(utrace_queue_resume(q, 0), -EINVAL);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

/* -- utrace_engine_tgid on every thread of a process ----------------------- */

struct tg {
	struct utrace_tracer *t;
	int n, bad;
	pid_t pid;
};

static uint32_t tg_clone(uint32_t action, struct utrace_engine *e,
			 unsigned long flags, pid_t child);

static const struct utrace_engine_ops tg_ops = {
	.report_clone = tg_clone,
};

static uint32_t tg_clone(uint32_t action, struct utrace_engine *e,
			 unsigned long flags, pid_t child)
{
	struct tg *g = utrace_engine_data(e);
	struct utrace_engine *c;

	if (utrace_engine_tgid(e) != g->pid)
		g->bad++;
	if (utrace_attach(g->t, child, UTRACE_ATTACH_CREATE, &tg_ops, g,
			  &c) == 0) {
		if (utrace_engine_tgid(c) != g->pid ||
		    utrace_engine_tid(c) != child)
			g->bad++;
		g->n++;
		utrace_engine_put(c);
	}
	return UTRACE_RESUME;
}

TEST(engine_tgid_of_threads)
{
	struct utrace_tracer *t = t_tracer();
	struct tg g = { .t = t };
	struct utrace_engine *e;

	g.pid = t_spawn(t, NULL, "threads", "6", NULL);
	CHECK_EQ(utrace_attach(t, g.pid, UTRACE_ATTACH_CREATE, &tg_ops, &g,
			       &e), 0);
	CHECK_EQ(utrace_engine_tgid(e), g.pid);
	CHECK_EQ(utrace_engine_tgid(NULL), -1);
	CHECK_EQ(utrace_set_events(e, UTRACE_EVENT(CLONE)), 0);
	t_run(t);
	CHECK_EQ(g.n, 6);
	CHECK_EQ(g.bad, 0);
	utrace_engine_put(e);
	utrace_tracer_free(t);
}

/* The loop thread is gone: calls carried there fail instead of blocking. */
static void *make_tracer(void *arg)
{
	CHECK_EQ(utrace_tracer_new(arg), 0);
	return NULL;
}

TEST(edeadlk_when_the_loop_thread_is_gone)
{
	struct utrace_tracer *t = NULL;
	struct utrace_queue *q = NULL;
	pthread_t th;

	CHECK_EQ(pthread_create(&th, NULL, make_tracer, &t), 0);
	CHECK_EQ(pthread_join(th, NULL), 0);
	CHECK(t != NULL);
	CHECK_EQ(utrace_queue_new(t, &q), -EDEADLK);
	CHECK(q == NULL);
}

int main(void)
{
	return test_main();
}
