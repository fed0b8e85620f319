/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Several programs on one traced process: a serving tracer (a forked
 * helper process running utrace_tracer_serve and utrace_run, with a local
 * counting engine of its own) and joiners (the test process, or processes
 * it forks) that connect with utrace_queue_connect.  Real tracees
 * (test/progs/remote_prog), real sockets, other uids, SIGKILL, fuzzing.
 *
 * The test process is never the tracer: a tracer reaps every child of its
 * process, so joiners and tracers live in separate processes, as they do
 * for real.
 */
#include <grp.h>
#include <inttypes.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <linux/capability.h>
#include "tlib.h"
#include "share/wire.h"

#define NOBODY 65534

struct srv {
	pid_t helper, tracee;
	int in, out, ctl;
};

/* -- The serving tracer ------------------------------------------------- */

static long local_exits;

static uint32_t l_exit(uint32_t action, struct utrace_engine *e)
{
	struct utrace_syscall sc;

	if (utrace_syscall_get(e, &sc) == 0 && sc.nr == SYS_getppid)
		local_exits++;
	return UTRACE_RESUME;
}

static const struct utrace_engine_ops l_ops = {
	.report_syscall_exit = l_exit,
};

/*
 * Fork the serving tracer: it spawns remote_prog MODE ARG (standard input
 * and output on pipes of ours), attaches its own engine (getppid exits,
 * counted), serves, tells us the tracee's pid, runs until the tracee is
 * gone, then tells us its count.  @uid: run as this uid (and gid).
 */
static struct srv srv_start_as(const char *mode, const char *arg,
			       unsigned spawn_flags, uid_t uid)
{
	int in[2], out[2], ctl[2];
	char ready[6];
	struct srv s;

	CHECK(pipe2(in, O_CLOEXEC) == 0);
	CHECK(pipe2(out, O_CLOEXEC) == 0);
	CHECK(pipe2(ctl, O_CLOEXEC) == 0);
	fflush(NULL);
	s.helper = fork();
	CHECK(s.helper >= 0);
	if (s.helper == 0) {
		struct utrace_spawn_opts o = { sizeof(o), NULL, NULL,
					       spawn_flags };
		char *argv[] = { (char *)test_prog("remote_prog"),
				 (char *)mode, (char *)arg, NULL };
		struct utrace_tracer *t;
		struct utrace_engine *e;
		const long nr = SYS_getppid;
		pid_t pid;

		if (uid) {
			CHECK(setgroups(0, NULL) == 0);
			CHECK(setgid(uid) == 0);
			CHECK(setuid(uid) == 0);
			/* A uid change makes us undumpable: we could not
			 * ptrace our own child. */
			CHECK(prctl(PR_SET_DUMPABLE, 1) == 0);
		}
		CHECK(dup2(in[0], 0) == 0);
		CHECK(dup2(out[1], 1) == 1);
		close(out[0]);
		close(in[1]);
		CHECK_EQ(utrace_tracer_new(&t), 0);
		CHECK_EQ(utrace_spawn(t, argv, &o, &pid), 0);
		close(0);
		close(1);
		close(in[0]);
		close(out[1]);
		CHECK_EQ(utrace_attach(t, pid, UTRACE_ATTACH_CREATE, &l_ops,
				       NULL, &e), 0);
		CHECK_EQ(utrace_set_events(e, UTRACE_EVENT(SYSCALL_EXIT)), 0);
		CHECK_EQ(utrace_set_syscalls(e, &nr, 1), 0);
		CHECK_EQ(utrace_tracer_serve(t, UTRACE_SERVE_DEFAULT), 0);
		CHECK_EQ(utrace_tracer_serve(t, UTRACE_SERVE_DEFAULT),
			 -EALREADY);
		CHECK(write(ctl[1], &pid, sizeof(pid)) == sizeof(pid));
		CHECK_EQ(utrace_run(t), 0);
		utrace_engine_put(e);
		utrace_tracer_free(t);
		CHECK(write(ctl[1], &local_exits, sizeof(local_exits)) ==
		      sizeof(local_exits));
		exit(0);
	}
	close(in[0]);
	close(out[1]);
	close(ctl[1]);
	s.in = in[1];
	s.out = out[0];
	s.ctl = ctl[0];
	CHECK(read(s.ctl, &s.tracee, sizeof(s.tracee)) == sizeof(s.tracee));
	/* Blocked on its standard input from here on: no syscall. */
	CHECK(read(s.out, ready, 6) == 6 && !memcmp(ready, "ready\n", 6));
	return s;
}

static struct srv srv_start(const char *mode, const char *arg,
			    unsigned spawn_flags)
{
	return srv_start_as(mode, arg, spawn_flags, 0);
}

/* Let the tracee start. */
static void srv_go(struct srv *s)
{
	CHECK(write(s->in, "go\n", 3) == 3);
}

/* Wait for the tracee's end and the helper's; its output and count. */
static const char *srv_wait(struct srv *s, long *count)
{
	const char *out = t_read_all(s->out);
	long n = -1;
	int st;

	CHECK(read(s->ctl, &n, sizeof(n)) == sizeof(n));
	if (count)
		*count = n;
	close(s->ctl);
	close(s->in);
	st = t_waitpid(s->helper, 20000);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return out;
}

/* -- Joiners ------------------------------------------------------------ */

static struct utrace_queue *join(pid_t pid)
{
	struct utrace_queue *q = NULL;

	CHECK_EQ(utrace_queue_connect(pid, &q), 0);
	CHECK(q != NULL);
	return q;
}

static int q_next(struct utrace_queue *q, struct utrace_event *ev, int ms)
{
	memset(ev, 0, sizeof(*ev));
	ev->size = sizeof(*ev);
	return utrace_queue_next(q, ev, ms);
}

static void reply_init(struct utrace_reply *r, uint32_t action)
{
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->action = action;
}

/*
 * The next record but those of syscalls other than @nr (held ones let go):
 * between a watch and its utrace_queue_set_syscalls, the thread may make
 * (or restart) another syscall.
 */
static int q_next_of(struct utrace_queue *q, struct utrace_event *ev, long nr)
{
	struct utrace_reply r;
	int ret;

	while ((ret = q_next(q, ev, 10000)) == 1) {
		if (!(ev->type & UTRACE_EVENT_SYSCALL) || ev->syscall.nr == nr)
			return 1;
		if (ev->held) {
			reply_init(&r, UTRACE_RESUME);
			CHECK_EQ(utrace_queue_reply(q, ev->id, &r), 0);
		}
	}
	return ret;
}

static const long ppid_nr[] = { SYS_getppid };

/* Run @fn in a forked process as uid @uid; its exit status. */
static int as_uid(uid_t uid, int (*fn)(void *), void *arg)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
			_exit(100);
		_exit(fn(arg));
	}
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* @fn(@arg) in a child of ours that changes its own credentials. */
static int as_root_without(int (*fn)(void *), void *arg)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		_exit(fn(arg));
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* -- The whole API through a join -------------------------------------- */

TEST(join_hold_reply_regs_mem)
{
	struct srv s = srv_start("calls", NULL, 0);
	struct utrace_queue *q = join(s.tracee);
	const long nrs[] = { SYS_getppid, SYS_write };
	struct user_regs_struct regs;
	struct utrace_event ev;
	struct utrace_reply r;
	char buf[32] = "";
	struct utrace_iov iov[2];
	uint64_t last = 0;
	long local;
	const char *out;
	int deaths = 0, got_write = 0;

	CHECK(utrace_queue_fd(q) >= 0);
	CHECK_EQ(utrace_queue_unwatch(q, s.tracee, 0), -ENOENT);
	/* Not held: nothing to look at. */
	CHECK_EQ(utrace_queue_regs_get(q, s.tracee, &regs), -EBUSY);
	CHECK_EQ(q_next(q, &ev, 0), 0);
	CHECK_EQ(utrace_queue_watch(q, s.tracee, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT_SYSCALL | UTRACE_EVENT(DEATH),
				    UTRACE_EVENT(SYSCALL_ENTRY) |
				    UTRACE_EVENT(DEATH)), -EINVAL);
	CHECK_EQ(utrace_queue_watch(q, s.tracee, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT_SYSCALL | UTRACE_EVENT(DEATH),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, s.tracee, nrs, 2), 0);
	srv_go(&s);

	/* getppid entry, held: registers, then ABORT with 4242. */
	CHECK_EQ(q_next_of(q, &ev, SYS_getppid), 1);
	CHECK_EQ(ev.type, UTRACE_EVENT(SYSCALL_ENTRY));
	CHECK(ev.held);
	CHECK_EQ(ev.tid, s.tracee);
	CHECK_EQ(ev.pid, s.tracee);
	CHECK_EQ(ev.syscall.nr, SYS_getppid);
	CHECK(ev.time.tv_sec || ev.time.tv_nsec);
	last = ev.id;
	CHECK_EQ(utrace_queue_regs_get(q, s.tracee, &regs), 0);
	CHECK_EQ(regs.orig_rax, SYS_getppid);
	CHECK_EQ(utrace_queue_regs_set(q, s.tracee, &regs), 0);
	reply_init(&r, UTRACE_RESUME | UTRACE_SYSCALL_ABORT);
	r.flags = UTRACE_REPLY_RETURN;
	r.ret = 4242;
	CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
	CHECK_EQ(utrace_queue_reply(q, ev.id, &r), -ENOENT);

	while (q_next_of(q, &ev, SYS_write) == 1) {
		CHECK(ev.id > last);
		last = ev.id;
		if (ev.type == UTRACE_EVENT(DEATH)) {
			CHECK(WIFEXITED(ev.status) && !WEXITSTATUS(ev.status));
			deaths++;
			break;
		}
		if (ev.type != UTRACE_EVENT(SYSCALL_ENTRY))
			continue;
		CHECK(ev.held);
		CHECK_EQ(ev.syscall.nr, SYS_write);
		reply_init(&r, UTRACE_RESUME);
		if (ev.syscall.args[2] != 12) {		/* printf's */
			CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
			continue;
		}
		/* write(1, "hello world\n", 12): read it, change it. */
		iov[0] = (struct utrace_iov){ ev.syscall.args[1], buf, 6 };
		iov[1] = (struct utrace_iov){ ev.syscall.args[1] + 6, buf + 6,
					      6 };
		CHECK_EQ(utrace_queue_mem_readv(q, ev.tid, iov, 2), 12);
		CHECK(!memcmp(buf, "hello world\n", 12));
		iov[0] = (struct utrace_iov){ ev.syscall.args[1], "HELLO", 5 };
		CHECK_EQ(utrace_queue_mem_writev(q, ev.tid, iov, 1), 5);
		CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
		got_write++;
	}
	CHECK_EQ(got_write, 1);
	CHECK_EQ(deaths, 1);
	out = srv_wait(&s, &local);
	CHECK_STR(out, "ppid 4242\nHELLO world\n");
	/* The local engine saw the getppid it was asked for. */
	CHECK_EQ(local, 1);
	/* The serving tracer is gone: the connection ends. */
	CHECK_EQ(q_next(q, &ev, 10000), -ENOTCONN);
	CHECK_EQ(utrace_queue_watch(q, s.tracee, 0, UTRACE_EVENT(DEATH), 0),
		 -ENOTCONN);
	utrace_queue_free(q);
}

TEST(join_stop_resume)
{
	struct srv s = srv_start("loop", "100000000", 0);
	struct utrace_queue *q = join(s.tracee);
	struct utrace_event ev;
	struct user_regs_struct regs;
	int type0 = 0;

	CHECK_EQ(utrace_queue_watch(q, s.tracee, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT(DEATH), 0), 0);
	srv_go(&s);
	CHECK_EQ(utrace_queue_stop(q, s.tracee, 10000), 1);
	CHECK(t_stopped(s.tracee));
	while (q_next(q, &ev, 0) == 1)
		if (ev.type == 0 && ev.tid == s.tracee)
			type0++;
	CHECK_EQ(type0, 1);
	CHECK_EQ(utrace_queue_regs_get(q, s.tracee, &regs), 0);
	CHECK_EQ(utrace_queue_resume(q, s.tracee), 1);
	CHECK_EQ(utrace_queue_regs_get(q, s.tracee, &regs), -EBUSY);
	CHECK_EQ(utrace_queue_stop(q, 999999999, 0), -ESRCH);
	kill(s.tracee, SIGKILL);
	CHECK_EQ(q_next(q, &ev, 10000), 1);
	CHECK_EQ(ev.type, UTRACE_EVENT(DEATH));
	srv_wait(&s, NULL);
	utrace_queue_free(q);
}

/*
 * A run of adjacent readable mappings of @pid, at least @min bytes long,
 * that a gap or an unreadable mapping follows (so reading past its end
 * fails): its start and end; 0 if none.
 */
static int big_mapping(pid_t pid, size_t min, uint64_t *start, uint64_t *end)
{
	char path[64], line[512], perm[8];
	uint64_t s0, e0, run_s = 0, run_e = 0;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	CHECK(f != NULL);
	while (!found && fgets(line, sizeof(line), f)) {
		bool readable;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s", &s0, &e0,
			   perm) != 3)
			continue;
		readable = perm[0] == 'r' && !strchr(line, '[');
		if (run_e && (s0 != run_e || !readable)) {
			/* The run ends here: something unreadable follows. */
			if (run_e - run_s >= min && (s0 != run_e || !readable))
				found = 1;
			else
				run_e = 0;
		}
		if (!found && readable) {
			if (!run_e)
				run_s = s0;
			run_e = e0;
		}
	}
	fclose(f);
	*start = run_s;
	*end = run_e;
	return found;
}

/*
 * Batched access is not bounded by the protocol's message size: a range
 * larger than one message, and more ranges than one message carries, come
 * back whole; a range that runs off the mapping still ends the count.
 */
TEST(join_memv_large)
{
	struct srv s = srv_start("calls", NULL, 0);
	struct utrace_queue *q = join(s.tracee);
	const size_t big = 3u << 20, nsmall = 3000;
	struct utrace_iov *iov = calloc(nsmall, sizeof(*iov));
	uint8_t *buf = malloc(big), *want = malloc(big);
	struct utrace_event ev;
	struct utrace_reply r;
	uint64_t start, end;
	char path[64];
	int fd;

	CHECK(iov && buf && want);
	CHECK_EQ(utrace_queue_watch(q, s.tracee, 0, UTRACE_EVENT(DEATH), 0),
		 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, s.tracee, ppid_nr, 1), 0);
	CHECK_EQ(utrace_queue_watch(q, s.tracee, 0,
				    UTRACE_EVENT(SYSCALL_ENTRY) |
				    UTRACE_EVENT(DEATH),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	srv_go(&s);
	CHECK_EQ(q_next_of(q, &ev, SYS_getppid), 1);
	CHECK(ev.held);

	/* One range of several messages' size, checked against the memory. */
	CHECK(big_mapping(s.tracee, 1u << 20, &start, &end));
	if (end - start > big)
		start = end - big;
	snprintf(path, sizeof(path), "/proc/%d/mem", s.tracee);
	fd = open(path, O_RDONLY);
	CHECK(fd >= 0);
	CHECK_EQ(pread(fd, want, end - start, (off_t)start),
		 (ssize_t)(end - start));
	iov[0] = (struct utrace_iov){ start, buf, end - start };
	CHECK_EQ(utrace_queue_mem_readv(q, s.tracee, iov, 1),
		 (ssize_t)(end - start));
	CHECK(!memcmp(buf, want, end - start));

	/* Running off the end: the count ends there, across messages too. */
	iov[0] = (struct utrace_iov){ start, buf, end - start + 4096 };
	CHECK_EQ(utrace_queue_mem_readv(q, s.tracee, iov, 1),
		 (ssize_t)(end - start));

	/* More ranges than one message carries. */
	for (size_t i = 0; i < nsmall; i++)
		iov[i] = (struct utrace_iov){ start + i * 16, buf + i * 8, 8 };
	CHECK_EQ(utrace_queue_mem_readv(q, s.tracee, iov, nsmall),
		 (ssize_t)(nsmall * 8));
	for (size_t i = 0; i < nsmall; i++)
		CHECK(!memcmp(buf + i * 8, want + i * 16, 8));
	close(fd);

	reply_init(&r, UTRACE_RESUME);
	CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
	srv_wait(&s, NULL);
	utrace_queue_free(q);
	free(iov);
	free(buf);
	free(want);
}

/* -- Finding the tracer ------------------------------------------------- */

TEST(connect_errors)
{
	struct utrace_queue *q = NULL;
	pid_t child;
	int st;

	CHECK_EQ(utrace_queue_connect(0, &q), -EINVAL);
	CHECK_EQ(utrace_queue_connect(getpid(), NULL), -EINVAL);
	/* Gone. */
	child = fork();
	CHECK(child >= 0);
	if (child == 0)
		_exit(0);
	CHECK(waitpid(child, &st, 0) == child);
	CHECK_EQ(utrace_queue_connect(child, &q), -ESRCH);
	/* Traced by plain ptrace, which does not serve. */
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		pause();
		_exit(0);
	}
	CHECK(ptrace(PTRACE_SEIZE, child, 0L, 0L) == 0);
	CHECK_EQ(utrace_queue_connect(child, &q), -ECONNREFUSED);
	CHECK(q == NULL);
	kill(child, SIGKILL);
	CHECK(waitpid(child, &st, __WALL) == child);
	/* Not traced at all (unless this test runs under a tracer). */
	if (t_tracer_pid_raw(getpid()) > 0)
		SKIP("this test is traced: nested under a tracer");
	CHECK_EQ(utrace_queue_connect(getpid(), &q), -ECONNREFUSED);
}

/* -- Permissions -------------------------------------------------------- */

static int connect_expect(void *arg)
{
	const int *a = arg;	/* pid, expected result */
	struct utrace_queue *q = NULL;
	int r = utrace_queue_connect(a[0], &q);

	if (r != a[1]) {
		fprintf(stderr, "# connect: %d, expected %d\n", r, a[1]);
		return 1;
	}
	utrace_queue_free(q);
	return 0;
}

/* A root tracer's socket is root's alone: nobody cannot even connect. */
TEST(nobody_cannot_join_root)
{
	struct srv s;
	int a[2] = { 0, -EPERM };
	struct utrace_queue *q;

	t_need("uid2");
	s = srv_start("loop", "10", 0);
	a[0] = s.tracee;
	q = join(s.tracee);

	CHECK_EQ(as_uid(NOBODY, connect_expect, a), 0);
	/* The same uid (root here) gets its watch. */
	CHECK_EQ(utrace_queue_watch(q, s.tracee, 0, UTRACE_EVENT(DEATH), 0),
		 0);
	srv_go(&s);
	srv_wait(&s, NULL);
	utrace_queue_free(q);
}

static int watch_expect(void *arg)
{
	const int *a = arg;	/* pid, expected connect, expected watch */
	struct utrace_queue *q = NULL;
	int r = utrace_queue_connect(a[0], &q);

	if (r != a[1]) {
		fprintf(stderr, "# connect: %d, expected %d\n", r, a[1]);
		return 1;
	}
	r = utrace_queue_watch(q, a[0], 0, UTRACE_EVENT(DEATH), 0);
	utrace_queue_free(q);
	if (r != a[2]) {
		fprintf(stderr, "# watch: %d, expected %d\n", r, a[2]);
		return 1;
	}
	return 0;
}

/*
 * A tracer run by nobody: a joiner of that uid watches; another uid cannot
 * reach the socket; once the tracee makes itself undumpable, the tracer
 * refuses the same-uid joiner (it could not ptrace it itself) and still
 * takes root (CAP_SYS_PTRACE).
 */
TEST(same_uid_joins_undumpable_refused)
{
	struct srv s;
	int ok[3] = { 0, 0, 0 };
	int other[3] = { 0, -EPERM, 0 };
	int refused[3] = { 0, 0, -EPERM };
	struct utrace_queue *q;
	char line[64];
	ssize_t n;

	if (t_tracer_pid_raw(getpid()) > 0)
		/* Its joiners find nobody's tracer through the outer one,
		 * root's, whose socket nobody cannot reach. */
		SKIP("nobody's tracer nested under root's is not joinable by nobody");
	/* nobody runs remote_prog; its joiner is no ancestor of it. */
	t_need("uid2");
	t_need("uid2-exec");
	t_need("peer-attach");
	s = srv_start_as("undump", NULL, 0, NOBODY);
	ok[0] = other[0] = refused[0] = s.tracee;

	CHECK_EQ(as_uid(NOBODY, watch_expect, ok), 0);
	CHECK_EQ(as_uid(NOBODY - 1, connect_expect, other), 0);
	srv_go(&s);
	n = read(s.out, line, sizeof(line) - 1);
	CHECK(n > 0);
	line[n] = 0;
	CHECK_STR(line, "undumpable\n");
	CHECK_EQ(as_uid(NOBODY, watch_expect, refused), 0);
	q = join(s.tracee);
	CHECK_EQ(utrace_queue_watch(q, s.tracee, 0, UTRACE_EVENT(DEATH), 0),
		 0);
	srv_go(&s);
	srv_wait(&s, NULL);
	utrace_queue_free(q);
}

/*
 * Root without CAP_SYS_PTRACE (dropped from its bounding, permitted and
 * effective sets, as setpriv --bounding-set=-sys_ptrace leaves a root
 * program) reaches root's socket but may not watch a root process that
 * holds the capability: the kernel's ptrace would refuse it too (the
 * target's permitted capabilities are not within its own).
 */
static int without_cap_ptrace(void *arg)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	int *a = arg;	/* twin's pid at a[1]; watch_expect's from a[2] */
	int native;

	if (prctl(PR_CAPBSET_DROP, CAP_SYS_PTRACE, 0, 0, 0) ||
	    syscall(SYS_capget, &h, d))
		return 100;
	d[0].permitted &= ~(1u << CAP_SYS_PTRACE);
	d[0].effective &= ~(1u << CAP_SYS_PTRACE);
	d[0].inheritable &= ~(1u << CAP_SYS_PTRACE);
	if (syscall(SYS_capset, &h, d))
		return 101;
	/* What the kernel says of the same attach. */
	native = ptrace(PTRACE_SEIZE, a[1], 0L, 0L) ? -errno : 0;
	if (native != -EPERM) {
		fprintf(stderr, "# native PTRACE_SEIZE: %d\n", native);
		return 102;
	}
	return watch_expect(a + 2);
}

TEST(root_without_cap_sys_ptrace_refused)
{
	struct srv s = srv_start("loop", "10", 0);
	struct utrace_queue *q = join(s.tracee);
	pid_t twin = fork();
	int a[5];

	CHECK(twin >= 0);
	if (twin == 0) {
		pause();	/* untraced, root's, as the tracee */
		_exit(0);
	}
	a[0] = s.tracee;
	a[1] = twin;
	a[2] = s.tracee;	/* watch_expect: pid, connect, watch */
	a[3] = 0;
	a[4] = -EPERM;
	CHECK_EQ(as_root_without(without_cap_ptrace, a), 0);
	kill(twin, SIGKILL);
	waitpid(twin, NULL, 0);
	/* Root with it still does. */
	CHECK_EQ(utrace_queue_watch(q, s.tracee, 0, UTRACE_EVENT(DEATH), 0),
		 0);
	srv_go(&s);
	srv_wait(&s, NULL);
	utrace_queue_free(q);
}

/* -- Faults ------------------------------------------------------------- */

/* A joiner holding the tracee is killed: it runs on; nobody else notices. */
TEST(joiner_killed_while_holding)
{
	struct srv s = srv_start("loop", "2000", 0);
	struct utrace_queue *stay = join(s.tracee);
	struct utrace_event ev;
	int p[2], entries = 0, deaths = 0;
	long local;
	pid_t j;
	char c;

	CHECK_EQ(utrace_queue_watch(stay, s.tracee, 0,
				    UTRACE_EVENT(SYSCALL_ENTRY) |
				    UTRACE_EVENT(DEATH), 0), 0);
	CHECK_EQ(utrace_queue_set_syscalls(stay, s.tracee, ppid_nr, 1), 0);
	CHECK(pipe(p) == 0);
	fflush(NULL);
	j = fork();
	CHECK(j >= 0);
	if (j == 0) {
		struct utrace_queue *q = join(s.tracee);

		CHECK_EQ(utrace_queue_watch(q, s.tracee, 0,
					    UTRACE_EVENT(SYSCALL_ENTRY),
					    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
		CHECK_EQ(utrace_queue_set_syscalls(q, s.tracee, ppid_nr, 1), 0);
		CHECK(write(p[1], "w", 1) == 1);
		CHECK_EQ(q_next_of(q, &ev, SYS_getppid), 1);
		CHECK(ev.held);
		CHECK(write(p[1], "h", 1) == 1);
		pause();
		_exit(0);
	}
	CHECK(read(p[0], &c, 1) == 1 && c == 'w');
	srv_go(&s);
	CHECK(read(p[0], &c, 1) == 1 && c == 'h');
	/* Held: the tracee sits in its stop until the joiner dies. */
	CHECK(t_stopped(s.tracee));
	kill(j, SIGKILL);
	CHECK(waitpid(j, NULL, 0) == j);
	while (q_next_of(stay, &ev, SYS_getppid) == 1) {
		if (ev.type == UTRACE_EVENT(DEATH)) {
			deaths++;
			break;
		}
		CHECK(!ev.held);
		entries++;
	}
	CHECK_EQ(deaths, 1);
	CHECK_EQ(entries, 2000);
	CHECK_STR(srv_wait(&s, &local), "loop done\n");
	CHECK_EQ(local, 2000);
	utrace_queue_free(stay);
}

/* The serving tracer is killed: nothing stays stopped; joiners see the end. */
TEST(tracer_killed)
{
	struct srv s = srv_start("forever", NULL, UTRACE_SPAWN_NO_FILTER);
	struct utrace_queue *q = join(s.tracee);
	struct utrace_event ev;
	long dl;
	int r, n = 0;

	CHECK_EQ(utrace_queue_watch(q, s.tracee, 0,
				    UTRACE_EVENT(SYSCALL_ENTRY),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, s.tracee, ppid_nr, 1), 0);
	srv_go(&s);
	CHECK_EQ(q_next_of(q, &ev, SYS_getppid), 1);
	CHECK(ev.held);
	CHECK(t_stopped(s.tracee));
	kill(s.helper, SIGKILL);
	CHECK(t_waitpid(s.helper, 10000) >= 0);
	/* The records already sent, then the end. */
	while ((r = q_next(q, &ev, 10000)) == 1)
		n++;
	CHECK_EQ(r, -ENOTCONN);
	CHECK_EQ(n, 0);		/* it was held: nothing came after */
	/* Untraced and running (not 't', not 'T'). */
	dl = t_now_ms() + 10000;
	while ((t_tracer_pid(s.tracee) != 0 || t_stopped(s.tracee)) &&
	       t_now_ms() < dl)
		t_msleep(5);
	CHECK_EQ(t_tracer_pid(s.tracee), 0);
	CHECK(!t_stopped(s.tracee));
	t_msleep(20);
	CHECK(!t_stopped(s.tracee));
	kill(s.tracee, SIGKILL);
	CHECK(t_wait_gone(s.tracee, 10000));
	utrace_queue_free(q);
	close(s.in);
	close(s.out);
	close(s.ctl);
}

/* -- Bad input ---------------------------------------------------------- */

static int raw_connect(pid_t server)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	CHECK(fd >= 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "/run/utrace/%d.sock",
		 (int)server);
	CHECK(connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0);
	return fd;
}

static void raw_send(int fd, const void *buf, size_t len)
{
	/* The server may have closed already: that is what we test. */
	if (send(fd, buf, len, MSG_NOSIGNAL) < 0)
		(void)0;
}

static void raw_msg(int fd, uint16_t type, uint32_t len_delta,
		    const void *body, size_t blen)
{
	uint8_t buf[2048];
	struct w_hdr h = { (uint32_t)(sizeof(h) + blen) + len_delta, type, 0,
			   (uint32_t)random() };

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), body, blen);
	raw_send(fd, buf, sizeof(h) + blen);
}

static void raw_hello(int fd)
{
	struct w_hello w = { W_MAGIC, W_VERSION, W_MAX, 0 };

	raw_msg(fd, W_HELLO, 0, &w, sizeof(w));
}

static long rss_kb(pid_t pid)
{
	char buf[4096], path[64];
	const char *v;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	CHECK(f != NULL);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	v = strstr(buf, "VmRSS:");
	CHECK(v != NULL);
	return atol(v + 6);
}

/* Sockets the server has open (its listening one included). */
static int sockets_of(pid_t pid)
{
	char path[64], link[64];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	dir = opendir(path);
	CHECK(dir != NULL);
	while ((d = readdir(dir))) {
		char fd[320];
		ssize_t k;

		snprintf(fd, sizeof(fd), "%s/%s", path, d->d_name);
		k = readlink(fd, link, sizeof(link) - 1);
		if (k > 0 && !strncmp(link, "socket:", 7))
			n++;
	}
	closedir(dir);
	return n;
}

/*
 * The server has closed every connection we made (it may lag behind).
 * Its socket count alone cannot tell: a connection still in the listening
 * socket's backlog is no descriptor of the server's yet, so the count
 * touches 1 between two accepts and goes up again.  A last connection
 * whose HELLO is answered was accepted after all of ours (the backlog is
 * first in, first out): from then on the count only goes down, to that
 * one and the listening socket; then to the listening socket alone.
 */
static void server_caught_up(pid_t pid)
{
	struct w_hdr h;
	struct w_hello w;
	uint8_t b[sizeof(h) + sizeof(w)];
	struct pollfd p = { .events = POLLIN };
	long dl = t_now_ms() + 60000;
	size_t got = 0;
	ssize_t n;

	p.fd = raw_connect(pid);
	raw_hello(p.fd);
	while (got < sizeof(b)) {
		CHECK_EQ(poll(&p, 1, (int)(dl - t_now_ms())), 1);
		n = recv(p.fd, b + got, sizeof(b) - got, 0);
		CHECK(n > 0);
		got += n;
	}
	memcpy(&h, b, sizeof(h));
	memcpy(&w, b + sizeof(h), sizeof(w));
	CHECK_EQ(h.type, W_HELLO);
	CHECK_EQ(h.len, sizeof(b));
	CHECK_EQ(w.pid, pid);
	while (sockets_of(pid) > 2 && t_now_ms() < dl)
		t_msleep(10);
	CHECK_EQ(sockets_of(pid), 2);
	close(p.fd);
	while (sockets_of(pid) > 1 && t_now_ms() < dl)
		t_msleep(10);
	CHECK_EQ(sockets_of(pid), 1);
}

/* A mutated but plausible request body: the pids in it stay the tracee's. */
static size_t mutated_body(uint8_t *b, pid_t tracee, uint16_t *type)
{
	size_t len;

	*type = (uint16_t)(W_WATCH + random() % (W_TYPE_MAX - W_WATCH));
	switch (*type) {
	case W_WATCH: case W_UNWATCH:	len = sizeof(struct w_watch); break;
	case W_SET_SYSCALLS:		len = sizeof(struct w_syscalls) +
					      8 * (random() % 4); break;
	case W_REPLY:			len = sizeof(struct w_reply); break;
	case W_STOP: case W_RESUME:	len = sizeof(struct w_stop); break;
	case W_REGS_GET:		len = sizeof(struct w_regs); break;
	case W_REGS_SET:		len = sizeof(struct w_regs) +
					      sizeof(struct user_regs_struct);
					break;
	default:			len = sizeof(struct w_memv) +
					      16 * (random() % 3); break;
	}
	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)random();
	if (*type == W_STOP) {
		/* a stop that would wait long is answered when we leave */
		((struct w_stop *)b)->timeout_ms = (int32_t)(random() % 50) - 1;
	}
	if (*type != W_REPLY)
		memcpy(b, &tracee, sizeof(tracee));	/* tid or pid first */
	if (random() % 4 == 0)
		len += random() % 9 - 4;	/* wrong length */
	return len;
}

TEST_T(fuzz_10000_messages, 120)
{
	struct srv s = srv_start("forever", NULL, UTRACE_SPAWN_NO_FILTER);
	struct utrace_queue *q;
	struct utrace_event ev;
	long rss_warm = 0, rss_end;
	int msgs = 0, conns = 0, total = 10000;
	uint8_t b[1024];

	/* FUZZ_MSGS=N: a longer run by hand, to see whether memory grows. */
	if (getenv("FUZZ_MSGS"))
		total = atoi(getenv("FUZZ_MSGS"));
	srandom(12345);
	srv_go(&s);
	while (msgs < total) {
		int fd = raw_connect(s.helper);
		int kind = getenv("FUZZ_KIND") ? atoi(getenv("FUZZ_KIND")) :
			   random() % 6, k;
		struct w_hdr h;
		size_t len;
		uint16_t type;

		conns++;
		switch (kind) {
		case 0:		/* garbage, no handshake */
			len = 1 + random() % sizeof(b);
			for (size_t i = 0; i < len; i++)
				b[i] = (uint8_t)random();
			raw_send(fd, b, len);
			msgs++;
			break;
		case 1:		/* handshake, then mutated requests */
			raw_hello(fd);
			k = 1 + random() % 20;
			for (int i = 0; i < k; i++) {
				len = mutated_body(b, s.tracee, &type);
				raw_msg(fd, type, 0, b, len);
			}
			msgs += k + 1;
			break;
		case 2:		/* truncated: the header promises more */
			raw_hello(fd);
			len = mutated_body(b, s.tracee, &type);
			raw_msg(fd, type, 1 + random() % 500, b, len);
			msgs += 2;
			break;
		case 3:		/* oversized */
			raw_hello(fd);
			h = (struct w_hdr){ W_MAX + 1 + random() % 1000,
					    W_WATCH, 0, 1 };
			if (random() % 2)
				h.len = 0xffffffffu;
			raw_send(fd, &h, sizeof(h));
			msgs += 2;
			break;
		case 4:		/* out of order: a request before the hello */
			len = mutated_body(b, s.tracee, &type);
			raw_msg(fd, type, 0, b, len);
			raw_hello(fd);
			msgs += 2;
			break;
		default:	/* bad header fields, a second hello */
			raw_hello(fd);
			h = (struct w_hdr){ sizeof(h) + 4, 0, 0, 1 };
			switch (random() % 4) {
			case 0: h.type = W_TYPE_MAX + random() % 100; break;
			case 1: h.zero = 1 + random() % 100; h.type = W_WATCH;
				break;
			case 2: h.len = random() % sizeof(h); break;
			default: h.type = W_HELLO; break;
			}
			memset(b, 0, 4);
			raw_send(fd, &h, sizeof(h));
			raw_send(fd, b, 4);
			msgs += 2;
			break;
		}
		close(fd);
		if (!rss_warm && msgs >= 2000) {
			server_caught_up(s.helper);
			rss_warm = rss_kb(s.helper);
		}
		if (getenv("FUZZ_MSGS") && conns % 1000 == 0)
			fprintf(stderr, "# %d messages: RSS %ld kB, %d sockets\n",
				msgs, rss_kb(s.helper), sockets_of(s.helper));
	}
	/* Every connection closed; still serving, still tracing, nothing
	 * left held by the fuzz. */
	server_caught_up(s.helper);
	rss_end = rss_kb(s.helper);
	q = join(s.tracee);
	CHECK_EQ(utrace_queue_watch(q, s.tracee, 0,
				    UTRACE_EVENT(SYSCALL_ENTRY), 0), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, s.tracee, ppid_nr, 1), 0);
	CHECK_EQ(q_next(q, &ev, 10000), 1);
	CHECK_EQ(ev.syscall.nr, SYS_getppid);
	fprintf(stderr, "# %d messages on %d connections; server RSS %ld kB "
		"after 2000, %ld kB after all\n", msgs, conns, rss_warm,
		rss_end);
#ifdef __SANITIZE_ADDRESS__
	/* ASan's quarantine keeps freed memory: its leak check at the
	 * server's exit (srv_wait wants status 0) is the test here. */
	(void)rss_end;
#else
	CHECK(rss_end - rss_warm < 2048);
#endif
	kill(s.tracee, SIGKILL);
	srv_wait(&s, NULL);
	utrace_queue_free(q);
}

/* 100 joiners come and go while a busy program runs: the one that stays
 * sees every event; the tracer's own engine too. */
TEST_T(joiners_churn, 120)
{
	struct srv s = srv_start("loop", "30000", 0);
	struct utrace_queue *stay = join(s.tracee);
	struct utrace_event ev;
	long entries = 0, local;
	int st, nr, deaths = 0;
	pid_t churn;

	CHECK_EQ(utrace_queue_watch(stay, s.tracee, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT(SYSCALL_ENTRY) |
				    UTRACE_EVENT(DEATH), 0), 0);
	CHECK_EQ(utrace_queue_set_syscalls(stay, s.tracee, ppid_nr, 1), 0);
	srv_go(&s);
	fflush(NULL);
	churn = fork();
	CHECK(churn >= 0);
	if (churn == 0) {
		for (int i = 0; i < 100; i++) {
			struct utrace_queue *q = NULL;
			struct utrace_event e;
			int r = utrace_queue_connect(s.tracee, &q);

			if (r == -ESRCH || r == -ECONNREFUSED)
				break;	/* the program is done */
			CHECK_EQ(r, 0);
			/* Some only watch, some hold and leave holding. */
			r = utrace_queue_watch(q, s.tracee, 0,
					       UTRACE_EVENT(SYSCALL_ENTRY),
					       i % 2 ? UTRACE_EVENT(SYSCALL_ENTRY)
						     : 0);
			CHECK(r == 0 || r == -ESRCH);
			if (!r) {
				/* It may be gone meanwhile: any result. */
				(void)utrace_queue_set_syscalls(q, s.tracee,
								ppid_nr, 1);
				(void)q_next(q, &e, 1000);
			}
			utrace_queue_free(q);
		}
		_exit(0);
	}
	while ((nr = q_next_of(stay, &ev, SYS_getppid)) == 1) {
		if (ev.type == UTRACE_EVENT(DEATH)) {
			deaths++;
			break;
		}
		entries++;
	}
	if (!deaths)
		fprintf(stderr, "# next: %d after %ld entries; tracee %c\n",
			nr, entries, t_state(s.tracee));
	CHECK_EQ(deaths, 1);
	CHECK_EQ(entries, 30000);
	CHECK(waitpid(churn, &st, 0) == churn);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_STR(srv_wait(&s, &local), "loop done\n");
	CHECK_EQ(local, 30000);
	utrace_queue_free(stay);
}


/*
 * What the server said before closing a connection of ours that it turned
 * away: the REFUSED's errno (and its reason in @why), 0 if it said
 * nothing, -1 if the connection is still open after @ms.
 */
static int refused(int fd, int ms, char *why, size_t size)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint8_t b[sizeof(struct w_hdr) + sizeof(struct w_refused) +
		  W_REFUSED_TEXT];
	struct w_hdr h;
	struct w_refused r;
	size_t got = 0;
	ssize_t n;

	if (poll(&p, 1, ms) != 1)
		return -1;
	while ((n = recv(fd, b + got, sizeof(b) - got, 0)) > 0)
		got += n;
	if (got < sizeof(h) + sizeof(r))
		return 0;
	memcpy(&h, b, sizeof(h));
	memcpy(&r, b + sizeof(h), sizeof(r));
	if (h.type != W_REFUSED || h.len != got || r.err <= 0)
		return 0;
	if (why)
		snprintf(why, size, "%.*s", (int)(got - sizeof(h) - sizeof(r)),
			 (char *)b + sizeof(h) + sizeof(r));
	return r.err;
}

static void more_descriptors(int n)
{
	struct rlimit rl;

	CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	if (rl.rlim_cur < (rlim_t)n) {
		rl.rlim_cur = rl.rlim_max < (rlim_t)n ? rl.rlim_max : (rlim_t)n;
		CHECK(setrlimit(RLIMIT_NOFILE, &rl) == 0);
	}
}

/*
 * 1,100 connections that never say HELLO (issue 19: they once held the
 * server at 1,032 descriptors, and a real joiner timed out until they
 * closed): a real joiner gets in at once; the flood holds at most 16
 * descriptors of the server; each connection turned away is told why, the
 * ones evicted for newer ones (EUSERS) and the last ones at the HELLO
 * deadline (ETIMEDOUT).
 */
TEST_T(idle_flood_does_not_keep_a_joiner_out, 120)
{
	enum { FLOOD = 1100 };
	struct srv s = srv_start("forever", NULL, UTRACE_SPAWN_NO_FILTER);
	static int fds[FLOOD];
	struct utrace_queue *q;
	struct utrace_event ev;
	int evicted = 0, timed_out = 0, socks, r;
	char why[W_REFUSED_TEXT] = "";
	long t0, joined_ms;

	more_descriptors(FLOOD + 200);
	for (int i = 0; i < FLOOD; i++)
		fds[i] = raw_connect(s.helper);
	t0 = t_now_ms();
	q = join(s.tracee);
	joined_ms = t_now_ms() - t0;
	/* Counted once the joiner is in: every connection of the flood
	 * was accepted before it (none left in the backlog). */
	socks = sockets_of(s.helper);
	/* The first ones were turned away for newer ones, told why. */
	for (int i = 0; i < FLOOD; i++) {
		/* The last ones wait out the deadline, then are told. */
		r = refused(fds[i], 20000, i ? NULL : why, sizeof(why));
		evicted += r == EUSERS;
		timed_out += r == ETIMEDOUT;
		close(fds[i]);
	}
	CHECK(strstr(why, "wait for their HELLO") != NULL);
	fprintf(stderr, "# joined in %ld ms beside %d idle connections; "
		"server sockets after the flood %d; %d evicted, %d timed "
		"out\n", joined_ms, FLOOD, socks, evicted, timed_out);
	CHECK(socks <= 1 + 16 + 1);	/* listening, waiting, the joiner */
	CHECK_EQ(evicted + timed_out, FLOOD);
	CHECK(timed_out >= 1 && timed_out <= 16);
	/* And the joiner is served. */
	CHECK_EQ(utrace_queue_watch(q, s.tracee, 0,
				    UTRACE_EVENT(SYSCALL_ENTRY), 0), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, s.tracee, ppid_nr, 1), 0);
	srv_go(&s);
	CHECK_EQ(q_next(q, &ev, 10000), 1);
	CHECK_EQ(ev.syscall.nr, SYS_getppid);
	utrace_queue_free(q);
	kill(s.tracee, SIGKILL);
	srv_wait(&s, NULL);
}

/* One uid joins at most 256 times at once; the next is told why. */
TEST_T(joiners_per_uid_cap, 120)
{
	enum { CAP = 256 };
	struct srv s = srv_start("forever", NULL, UTRACE_SPAWN_NO_FILTER);
	static struct utrace_queue *qs[CAP];
	struct utrace_queue *q = NULL;
	char why[W_REFUSED_TEXT] = "";
	int fd;

	more_descriptors(4 * CAP + 200);
	for (int i = 0; i < CAP; i++)
		qs[i] = join(s.tracee);
	CHECK_EQ(utrace_queue_connect(s.tracee, &q), -EUSERS);
	fd = raw_connect(s.helper);
	raw_hello(fd);
	CHECK_EQ(refused(fd, 10000, why, sizeof(why)), EUSERS);
	CHECK(strstr(why, "joined connections") != NULL);
	close(fd);
	/* One leaves (once the server has seen it go): one more gets in. */
	utrace_queue_free(qs[0]);
	for (long dl = t_now_ms() + 10000;
	     sockets_of(s.helper) > CAP && t_now_ms() < dl;)
		t_msleep(10);
	CHECK_EQ(sockets_of(s.helper), CAP);
	CHECK_EQ(utrace_queue_connect(s.tracee, &q), 0);
	utrace_queue_free(q);
	for (int i = 1; i < CAP; i++)
		utrace_queue_free(qs[i]);
	kill(s.tracee, SIGKILL);
	srv_wait(&s, NULL);
}

/* utrace_queue_fd of a connected queue: readable while a record waits. */
TEST(connected_fd_polls)
{
	struct srv s = srv_start("loop", "5", 0);
	struct utrace_queue *q = join(s.tracee);
	struct pollfd p = { .events = POLLIN };
	struct utrace_event ev;
	struct utrace_reply r;
	int deaths = 0;

	p.fd = utrace_queue_fd(q);
	CHECK(p.fd >= 0);
	CHECK_EQ(poll(&p, 1, 0), 0);
	CHECK_EQ(utrace_queue_watch(q, s.tracee, 0, UTRACE_EVENT(SYSCALL_ENTRY)
				    | UTRACE_EVENT(DEATH),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, s.tracee, ppid_nr, 1), 0);
	srv_go(&s);
	for (;;) {
		CHECK_EQ(poll(&p, 1, 10000), 1);
		CHECK_EQ(q_next(q, &ev, 0), 1);
		if (ev.type == UTRACE_EVENT(DEATH)) {
			deaths++;
			break;
		}
		CHECK(ev.held);
		if (ev.syscall.nr == SYS_getppid) {
			struct utrace_event none;

			/* Held: nothing else comes, so nothing polls. */
			CHECK_EQ(q_next(q, &none, 0), 0);
			CHECK_EQ(poll(&p, 1, 50), 0);
		}
		reply_init(&r, UTRACE_RESUME);
		CHECK_EQ(utrace_queue_reply(q, ev.id, &r), 0);
	}
	CHECK_EQ(deaths, 1);
	CHECK_STR(srv_wait(&s, NULL), "loop done\n");
	utrace_queue_free(q);
}

/* A joiner that sends requests and never reads slows no one else. */
TEST(non_reading_joiner)
{
	struct srv s = srv_start("loop", "3000", 0);
	struct utrace_queue *stay = join(s.tracee);
	struct utrace_event ev;
	uint8_t m[sizeof(struct w_hdr) + sizeof(struct w_regs)];
	struct w_hdr h = { sizeof(m), W_REGS_GET, 0, 1 };
	struct w_regs w = { s.tracee, sizeof(struct user_regs_struct) };
	int fd = raw_connect(s.helper), sent = 0, entries = 0, deaths = 0;

	raw_hello(fd);
	memcpy(m, &h, sizeof(h));
	memcpy(m + sizeof(h), &w, sizeof(w));
	/* Until the socket is full: the server stopped reading it. */
	while (sent < 1000000 &&
	       send(fd, m, sizeof(m), MSG_DONTWAIT | MSG_NOSIGNAL) ==
	       (ssize_t)sizeof(m))
		sent++;
	CHECK(sent < 1000000);
	CHECK_EQ(utrace_queue_watch(stay, s.tracee, 0,
				    UTRACE_EVENT(SYSCALL_ENTRY) |
				    UTRACE_EVENT(DEATH), 0), 0);
	CHECK_EQ(utrace_queue_set_syscalls(stay, s.tracee, ppid_nr, 1), 0);
	srv_go(&s);
	while (q_next_of(stay, &ev, SYS_getppid) == 1) {
		if (ev.type == UTRACE_EVENT(DEATH)) {
			deaths++;
			break;
		}
		entries++;
	}
	CHECK_EQ(deaths, 1);
	CHECK_EQ(entries, 3000);
	/* The tracer's end is not held up by it for long. */
	CHECK_STR(srv_wait(&s, NULL), "loop done\n");
	close(fd);
	utrace_queue_free(stay);
}

/*
 * A joiner that reads late gets every record: while it does not read, the
 * server's queue for it fills and back-pressure holds the tracee; once it
 * reads, the server must keep taking records from that queue (the tracee
 * is held, so no dispatch comes to wake it) until half are read and the
 * tracee runs on.  The server once sent one output's worth and then
 * waited for nothing when the joiner had read all of it at once: records
 * stayed queued, the tracee stayed held.  A raw joiner that reads the
 * socket in bulk drains it fastest; it pauses several times, each until
 * the tracee stays stopped (or a while: every record must come anyway).
 */
TEST_T(late_reader_gets_every_record, 300)
{
	/* Nested under utrace -f (ptrace-lib.sh) one pause, fewer calls. */
	bool nested = test_timeout_scale() > 1;
	long calls = nested ? 80000 : 300000, npauses = nested ? 1 : 6;
	struct srv s = srv_start("loop", nested ? "80000" : "300000", 0);
	struct w_watch w = { s.tracee, 0, UTRACE_EVENT(SYSCALL_ENTRY) |
			     UTRACE_EVENT(DEATH), 0 };
	uint8_t sys[sizeof(struct w_syscalls) + sizeof(int64_t)];
	struct w_syscalls ws = { s.tracee, 0, 1, 0 };
	int64_t nr = SYS_getppid;
	size_t cap = 4 << 20, len = 0;
	uint8_t *buf = malloc(cap);
	long entries = 0, deaths = 0, pauses = 0;
	int fd = raw_connect(s.helper);

	CHECK(buf != NULL);
	memcpy(sys, &ws, sizeof(ws));
	memcpy(sys + sizeof(ws), &nr, sizeof(nr));
	raw_hello(fd);
	raw_msg(fd, W_WATCH, 0, &w, sizeof(w));
	raw_msg(fd, W_SET_SYSCALLS, 0, sys, sizeof(sys));
	/* HELLO and the two RESULTs: watching before the tracee goes. */
	for (int got = 0; got < 3; ) {
		struct w_hdr h;
		uint8_t body[4096];

		CHECK(recv(fd, &h, sizeof(h), MSG_WAITALL) == sizeof(h));
		CHECK(h.len - sizeof(h) <= sizeof(body));
		CHECK(recv(fd, body, h.len - sizeof(h), MSG_WAITALL) ==
		      (ssize_t)(h.len - sizeof(h)));
		if (h.type == W_RESULT) {
			struct w_result r;

			memcpy(&r, body, sizeof(r));
			CHECK_EQ(r.ret, 0);
		}
		got++;
	}
	srv_go(&s);
	while (!deaths) {
		struct pollfd p = { fd, POLLIN, 0 };
		size_t off = 0;
		ssize_t n;

		if (entries >= pauses * 40000 && pauses < npauses) {
			int still = 0;

			pauses++;
			for (int i = 0; i < 400 && still < 4; i++) {
				usleep(50000);
				still = t_state(s.tracee) == 't' ?
					still + 1 : 0;
			}
		}
		/* Nothing for 20 s: the server stalled. */
		if (poll(&p, 1, 20000) != 1)
			break;
		n = read(fd, buf + len, cap - len);
		if (n <= 0)
			break;
		len += (size_t)n;
		while (len - off >= sizeof(struct w_hdr)) {
			struct w_hdr h;
			struct w_event ev;

			memcpy(&h, buf + off, sizeof(h));
			if (len - off < h.len)
				break;
			if (h.type == W_EVENT && h.len >= sizeof(h) +
			    sizeof(ev)) {
				memcpy(&ev, buf + off + sizeof(h),
				       sizeof(ev));
				if (ev.type == UTRACE_EVENT(DEATH))
					deaths++;
				else if (ev.nr == SYS_getppid)
					entries++;
			}
			off += h.len;
		}
		memmove(buf, buf + off, len - off);
		len -= off;
	}
	CHECK_EQ(deaths, 1);
	CHECK_EQ(entries, calls);
	close(fd);
	CHECK_STR(srv_wait(&s, NULL), "loop done\n");
	free(buf);
}

/* -- utraced ------------------------------------------------------------ */

static const char *utraced_path(void)
{
	static char buf[512];
	const char *o = getenv("O");

	snprintf(buf, sizeof(buf), "%s/utraced", o ? o : "build");
	return buf;
}

/* Fork-exec argv with standard input and output on our pipes. */
static pid_t run_piped(char *const argv[], int *in, int *out)
{
	int i[2], o[2];
	pid_t pid;

	CHECK(pipe2(i, O_CLOEXEC) == 0);
	CHECK(pipe2(o, O_CLOEXEC) == 0);
	fflush(NULL);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		dup2(i[0], 0);
		dup2(o[1], 1);
		execv(argv[0], argv);
		_exit(127);
	}
	close(i[0]);
	close(o[1]);
	*in = i[1];
	*out = o[0];
	return pid;
}

static pid_t only_child(pid_t pid)
{
	char path[64], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", pid, pid);
	f = fopen(path, "re");
	CHECK(f != NULL);
	CHECK(fgets(buf, sizeof(buf), f) != NULL);
	fclose(f);
	return atoi(buf);
}

TEST(utraced_cmd)
{
	char *argv[] = { (char *)utraced_path(), "--",
			 (char *)test_prog("remote_prog"), "loop", "3000",
			 NULL };
	char *bad[] = { (char *)utraced_path(), NULL };
	char *missing[] = { (char *)utraced_path(), "--",
			    "/nonexistent/utraced-test", NULL };
	struct utrace_queue *q;
	struct utrace_event ev;
	int in, out, st, entries = 0, deaths = 0;
	char ready[6];
	pid_t u, tracee;

	/* Nothing to trace: a usage error. */
	u = run_piped(bad, &in, &out);
	CHECK(waitpid(u, &st, 0) == u);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	close(in);
	close(out);
	/* A command that is not there: a failure, as a shell reports it. */
	u = run_piped(missing, &in, &out);
	CHECK(waitpid(u, &st, 0) == u);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 127);
	close(in);
	close(out);

	u = run_piped(argv, &in, &out);
	CHECK(read(out, ready, 6) == 6 && !memcmp(ready, "ready\n", 6));
	tracee = only_child(u);
	CHECK(tracee > 0);
	CHECK_EQ(t_tracer_pid(tracee), u);
	q = join(tracee);
	CHECK_EQ(utrace_queue_watch(q, tracee, UTRACE_WATCH_PROCESS,
				    UTRACE_EVENT(SYSCALL_ENTRY) |
				    UTRACE_EVENT(DEATH), 0), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, tracee, ppid_nr, 1), 0);
	CHECK(write(in, "go\n", 3) == 3);
	while (q_next_of(q, &ev, SYS_getppid) == 1) {
		if (ev.type == UTRACE_EVENT(DEATH)) {
			deaths++;
			break;
		}
		entries++;
	}
	CHECK_EQ(deaths, 1);
	CHECK_EQ(entries, 3000);
	/* The command is done: utraced ends with its status (0). */
	utrace_queue_free(q);
	st = t_waitpid(u, 10000);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_STR(t_read_all(out), "loop done\n");
	close(in);
}

TEST(utraced_attach_and_interrupt)
{
	char *prog[] = { (char *)test_prog("remote_prog"), "forever", NULL };
	char pidarg[32];
	char *argv[] = { (char *)utraced_path(), "-p", pidarg, NULL };
	struct utrace_queue *q;
	struct utrace_event ev;
	int in, out, uin, uout, st, r;
	char ready[6];
	pid_t u, tracee;
	long dl;

	tracee = run_piped(prog, &in, &out);
	CHECK(read(out, ready, 6) == 6 && !memcmp(ready, "ready\n", 6));
	snprintf(pidarg, sizeof(pidarg), "%d", (int)tracee);
	u = run_piped(argv, &uin, &uout);
	dl = t_now_ms() + 10000;
	while (t_tracer_pid(tracee) != u && t_now_ms() < dl)
		t_msleep(5);
	CHECK_EQ(t_tracer_pid(tracee), u);
	/* Serving may come a moment after the attach. */
	while ((r = utrace_queue_connect(tracee, &q)) == -ECONNREFUSED &&
	       t_now_ms() < dl)
		t_msleep(5);
	CHECK_EQ(r, 0);
	CHECK_EQ(utrace_queue_watch(q, tracee, 0, UTRACE_EVENT(SYSCALL_ENTRY),
				    UTRACE_EVENT(SYSCALL_ENTRY)), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, tracee, ppid_nr, 1), 0);
	CHECK(write(in, "go\n", 3) == 3);
	CHECK_EQ(q_next_of(q, &ev, SYS_getppid), 1);
	CHECK(ev.held);
	/* Interrupted while a joiner holds the process: it runs on. */
	kill(u, SIGINT);
	st = t_waitpid(u, 10000);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGINT);
	while ((r = q_next(q, &ev, 10000)) == 1)
		;
	CHECK_EQ(r, -ENOTCONN);
	CHECK_EQ(t_tracer_pid(tracee), 0);
	CHECK(!t_stopped(tracee));
	utrace_queue_free(q);
	t_kill(tracee);
	close(in);
	close(out);
	close(uin);
	close(uout);
}

int main(void)
{
	return test_main();
}
