/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers shared by the library tests (public API only): a recording
 * engine whose callbacks append to one log, tracee spawning with captured
 * standard output, and probes of /proc.
 *
 * Callbacks run on the loop thread, which is the test's main thread, so the
 * log needs no locking.  Counters read from other threads use __atomic.
 */
#ifndef UTRACE_TEST_TLIB_H
#define UTRACE_TEST_TLIB_H

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <utrace.h>
#include "harness.h"

enum tkind {
	K_QUIESCE, K_SIGNAL, K_CLONE, K_JCTL, K_EXEC, K_SYSENTRY, K_SYSEXIT,
	K_EXIT, K_DEATH, K_REAP, K_RELEASE, K_NKINDS
};

/* One callback as seen by a test engine. */
struct tev {
	int eng;		/* teng id */
	int kind;
	pid_t tid;		/* utrace_engine_tid() during the callback */
	uint32_t action;	/* action argument (0 for death, reap) */
	unsigned long arg;	/* quiesce event, clone child, former tid,
				 * exit or death status */
	unsigned long arg2;	/* clone flags, group_dead */
	long nr;		/* syscall number at syscall events, else -1 */
	uint32_t ret;		/* what the callback returned */
};

struct teng;
/*
 * A test hook decides what a callback returns; dflt is what a passive engine
 * returns (UTRACE_RESUME, with the syscall action passed along at entry).
 */
typedef uint32_t (*thook_t)(struct teng *te, struct tev *ev, uint32_t dflt);

struct teng {
	int id;
	struct utrace_engine *e;
	pid_t tid;
	unsigned long events;
	thook_t hook;
	int n[K_NKINDS];	/* callbacks per kind */
	int released;
	long user[8];		/* test-specific state */
	void *ptr;
};

#define TLOG_MAX 65536
#define TENG_MAX 512

static struct tev tlog[TLOG_MAX];
static int tlog_n;
static int tlog_lost;
static struct teng tengs[TENG_MAX];
static int tengs_n;
static int t_released_total;

static inline long t_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline void t_msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static inline struct teng *teng_new(thook_t hook)
{
	struct teng *te;

	CHECK(tengs_n < TENG_MAX);
	te = &tengs[tengs_n];
	memset(te, 0, sizeof(*te));
	te->id = tengs_n++;
	te->hook = hook;
	return te;
}

static inline struct tev *tlog_add(struct teng *te, int kind)
{
	static struct tev spare;
	struct tev *ev;

	if (tlog_n < TLOG_MAX) {
		ev = &tlog[tlog_n++];
	} else {
		tlog_lost++;
		ev = &spare;
	}
	memset(ev, 0, sizeof(*ev));
	ev->eng = te->id;
	ev->kind = kind;
	ev->nr = -1;
	return ev;
}

static uint32_t t_report(struct utrace_engine *e, int kind, uint32_t action,
			 unsigned long arg, unsigned long arg2)
{
	struct teng *te = utrace_engine_data(e);
	struct tev *ev = tlog_add(te, kind);
	uint32_t dflt = UTRACE_RESUME;

	ev->tid = utrace_engine_tid(e);
	ev->action = action;
	ev->arg = arg;
	ev->arg2 = arg2;
	if (kind == K_SYSENTRY || kind == K_SYSEXIT ||
	    (kind == K_QUIESCE && (arg & UTRACE_EVENT_SYSCALL))) {
		struct utrace_syscall sc;

		ev->nr = utrace_syscall_get(e, &sc) == 0 ? sc.nr : -1000;
	}
	if (kind == K_SYSENTRY)
		dflt |= utrace_syscall_action(action);
	__atomic_add_fetch(&te->n[kind], 1, __ATOMIC_SEQ_CST);
	ev->ret = te->hook ? te->hook(te, ev, dflt) : dflt;
	return ev->ret;
}

static uint32_t t_quiesce(uint32_t action, struct utrace_engine *e,
			  unsigned long event)
{
	return t_report(e, K_QUIESCE, action, event, 0);
}

static uint32_t t_clone(uint32_t action, struct utrace_engine *e,
			unsigned long clone_flags, pid_t child)
{
	return t_report(e, K_CLONE, action, child, clone_flags);
}

static uint32_t t_exec(uint32_t action, struct utrace_engine *e,
		       pid_t former_tid)
{
	return t_report(e, K_EXEC, action, former_tid, 0);
}

static uint32_t t_sysentry(uint32_t action, struct utrace_engine *e)
{
	return t_report(e, K_SYSENTRY, action, 0, 0);
}

static uint32_t t_sysexit(uint32_t action, struct utrace_engine *e)
{
	return t_report(e, K_SYSEXIT, action, 0, 0);
}

static uint32_t t_exit(uint32_t action, struct utrace_engine *e, int status)
{
	return t_report(e, K_EXIT, action, (unsigned)status, 0);
}

static uint32_t t_death(struct utrace_engine *e, bool group_dead, int status)
{
	return t_report(e, K_DEATH, 0, (unsigned)status, group_dead);
}

static void t_reap(struct utrace_engine *e)
{
	t_report(e, K_REAP, 0, 0, 0);
}

static void t_release(void *data)
{
	struct teng *te = data;
	struct tev *ev = tlog_add(te, K_RELEASE);

	ev->tid = te->tid;
	__atomic_add_fetch(&te->released, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&t_released_total, 1, __ATOMIC_SEQ_CST);
}

/* No report_signal: event-0 reports must come through report_quiesce. */
static const struct utrace_engine_ops t_ops __attribute__((unused)) = {
	.report_quiesce = t_quiesce,
	.report_clone = t_clone,
	.report_exec = t_exec,
	.report_syscall_entry = t_sysentry,
	.report_syscall_exit = t_sysexit,
	.report_exit = t_exit,
	.report_death = t_death,
	.report_reap = t_reap,
	.release = t_release,
};

/* The same callbacks under another ops pointer, for MATCH_OPS. */
static const struct utrace_engine_ops t_ops2 __attribute__((unused)) = {
	.report_quiesce = t_quiesce,
	.report_clone = t_clone,
	.report_exec = t_exec,
	.report_syscall_entry = t_sysentry,
	.report_syscall_exit = t_sysexit,
	.report_exit = t_exit,
	.report_death = t_death,
	.report_reap = t_reap,
	.release = t_release,
};

/* Attach a new recording engine to tid and set its events. */
static inline struct teng *t_attach(struct utrace_tracer *t, pid_t tid,
				    unsigned long events, thook_t hook)
{
	struct teng *te = teng_new(hook);
	int r;

	r = utrace_attach(t, tid, UTRACE_ATTACH_CREATE, &t_ops, te, &te->e);
	CHECK_EQ(r, 0);
	CHECK(te->e != NULL);
	te->tid = tid;
	te->events = events;
	if (events)
		CHECK_EQ(utrace_set_events(te->e, events), 0);
	return te;
}

static inline struct utrace_tracer *t_tracer(void)
{
	struct utrace_tracer *t = NULL;

	CHECK_EQ(utrace_tracer_new(&t), 0);
	CHECK(t != NULL);
	return t;
}

static inline void t_run(struct utrace_tracer *t)
{
	int r = utrace_run(t);

	CHECK(r >= 0);
}

/*
 * Dispatch until cond holds or ms milliseconds pass; the value is whether
 * cond held.  cond is evaluated once a round and never again after it
 * held: a state that holds only for a while (a thread seen running, then
 * stopped) is not read twice with two answers.
 */
#define DISPATCH_UNTIL(t, cond, ms) ({					\
	long _du_dl = t_now_ms() + (ms) * (long)test_timeout_scale();	\
	bool _du_ok;							\
	while (!(_du_ok = (cond)) && t_now_ms() < _du_dl) {		\
		int _r = utrace_dispatch((t), 20);			\
		CHECK(_r >= 0);						\
	}								\
	_du_ok;								\
})

/* Dispatch for ms milliseconds whatever happens. */
static inline void t_dispatch_for(struct utrace_tracer *t, int ms)
{
	long dl = t_now_ms() + ms;

	while (t_now_ms() < dl)
		CHECK(utrace_dispatch(t, 20) >= 0);
}

/*
 * Spawn test/progs/PROG with the given arguments (NULL-terminated).  The
 * tracee's standard output goes to a pipe whose read end is stored in *out,
 * or to /dev/null when out is NULL.
 */
static inline int t_spawn_opts(struct utrace_tracer *t, int *out,
			       const struct utrace_spawn_opts *opts,
			       pid_t *pid, char *const argv[])
{
	int p[2], saved, r;

	fflush(stdout);
	if (out) {
		CHECK(pipe2(p, O_CLOEXEC) == 0);
	} else {
		p[0] = -1;
		p[1] = open("/dev/null", O_WRONLY | O_CLOEXEC);
		CHECK(p[1] >= 0);
	}
	saved = fcntl(1, F_DUPFD_CLOEXEC, 10);
	CHECK(saved >= 0);
	CHECK(dup2(p[1], 1) == 1);
	r = utrace_spawn(t, argv, opts, pid);
	CHECK(dup2(saved, 1) == 1);
	close(saved);
	close(p[1]);
	if (out)
		*out = p[0];
	return r;
}

#define T_MAXARGS 16
static inline pid_t t_spawnv(struct utrace_tracer *t, int *out,
			     const char *prog, va_list ap)
{
	char *argv[T_MAXARGS + 2];
	int n = 0;
	pid_t pid = -1;
	const char *a;

	argv[n++] = (char *)test_prog(prog);
	while ((a = va_arg(ap, const char *)) && n <= T_MAXARGS)
		argv[n++] = (char *)a;
	argv[n] = NULL;
	CHECK_EQ(t_spawn_opts(t, out, NULL, &pid, argv), 0);
	CHECK(pid > 0);
	return pid;
}

/* t_spawn(t, &outfd or NULL, "prog", args..., NULL) */
static inline pid_t t_spawn(struct utrace_tracer *t, int *out,
			    const char *prog, ...)
{
	va_list ap;
	pid_t pid;

	va_start(ap, prog);
	pid = t_spawnv(t, out, prog, ap);
	va_end(ap);
	return pid;
}

/* Read fd to end of file; the result is static and NUL-terminated. */
static inline const char *t_read_all(int fd)
{
	static char buf[65536];
	size_t n = 0;
	ssize_t r;

	while (n < sizeof(buf) - 1) {
		r = read(fd, buf + n, sizeof(buf) - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	buf[n] = '\0';
	close(fd);
	return buf;
}

/* State letter of /proc/TID/stat, or '?' when the thread is gone. */
static inline char t_state(pid_t tid)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] && p[2] ? p[2] : '?';
}

static inline bool t_gone(pid_t tid)
{
	char s = t_state(tid);

	return s == '?' || s == 'Z' || s == 'X';
}

static inline bool t_stopped(pid_t tid)
{
	char s = t_state(tid);

	return s == 't' || s == 'T';
}

static inline int t_tracer_pid_raw(pid_t tid);

/*
 * TracerPid of /proc/TID/status, or -1 when the thread is gone.  When this
 * test itself runs traced (under utrace -f: the library's ptrace emulation,
 * utrace(7)), every thread's TracerPid is the outer tracer's and says
 * nothing about ours: the test ends there as a visible SKIP.
 */
static inline int t_tracer_pid(pid_t tid)
{
	if (t_tracer_pid_raw(getpid()) > 0)
		SKIP("TracerPid is the outer tracer's when nested under a tracer");
	return t_tracer_pid_raw(tid);
}

/*
 * The state letter of an untraced process in a group stop, 'T'.  When this
 * test runs traced, its processes are traced too, by the outer tracer, and
 * /proc shows their group stop as a ptrace stop, 't', which no user-space
 * tracer can change: the test ends there as a visible SKIP.
 */
static inline char t_group_stop_state(void)
{
	if (t_tracer_pid_raw(getpid()) > 0)
		SKIP("a group stop shows as 't' when nested under a tracer");
	return 'T';
}

static inline int t_tracer_pid_raw(pid_t tid)
{
	char path[64], line[256];
	int v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "TracerPid: %d", &v) == 1)
			break;
	fclose(f);
	return v;
}

/*
 * Does this host give the test @cap (test/progs/hostcap.c: "hwbp",
 * "uid2", "peer-attach", ...)?  Asks the probe, natively, in a process of
 * its own; UTRACE_TEST_ABSENT forces an answer of no.
 */
static inline bool t_have(const char *cap, char *why, size_t len)
{
	const char *argv[] = { test_prog("hostcap"), cap, NULL };
	char line[512] = "";
	int p[2], st;
	ssize_t n = 0, r;
	pid_t pid;

	fflush(NULL);
	CHECK(pipe2(p, O_CLOEXEC) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		dup2(p[1], 1);
		execv(argv[0], (char **)argv);
		_exit(127);
	}
	close(p[1]);
	while (n < (ssize_t)sizeof(line) - 1) {
		r = read(p[0], line + n, sizeof(line) - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	close(p[0]);
	line[n] = '\0';
	line[strcspn(line, "\n")] = '\0';
	while (waitpid(pid, &st, 0) < 0)
		CHECK(errno == EINTR);
	/* Anything but "present" or "absent" is a broken probe: a failure. */
	CHECK(WIFEXITED(st) && (WEXITSTATUS(st) == 0 ||
				WEXITSTATUS(st) == TEST_SKIP_STATUS));
	if (WEXITSTATUS(st) == 0)
		return true;
	/* "CAP: no: WHY" */
	snprintf(why, len, "%s", strstr(line, ": no: ") ?
		 strstr(line, ": no: ") + 6 : line);
	return false;
}

/* The test ends as a visible SKIP naming what is missing unless @cap is here. */
static inline void t_need(const char *cap)
{
	char why[512];

	if (!t_have(cap, why, sizeof(why)))
		SKIP(why);
}

/* Thread ids of process pid, up to max; returns how many. */
static inline int t_tasks(pid_t pid, pid_t *tids, int max)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.' && n < max)
			tids[n++] = atoi(d->d_name);
	closedir(dir);
	return n;
}

/* Wait up to ms for tid to be gone or a zombie. */
static inline bool t_wait_gone(pid_t tid, int ms)
{
	long dl = t_now_ms() + ms;

	while (!t_gone(tid) && t_now_ms() < dl)
		t_msleep(5);
	return t_gone(tid);
}

/* Kill a process and reap it if it is our child; ignore every failure. */
static inline void t_kill(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	for (int i = 0; i < 200; i++) {
		pid_t r = waitpid(pid, NULL, WNOHANG | __WALL);

		if (r == pid || (r < 0 && errno == ECHILD))
			break;
		t_msleep(5);
	}
}

/*
 * Wait for our own (untraced) child; its wait status, or -1.  Used after the
 * tracer is gone, so nothing else reaps it.
 */
static inline int t_waitpid(pid_t pid, int ms)
{
	long dl = t_now_ms() + ms;
	int st;

	while (t_now_ms() < dl) {
		pid_t r = waitpid(pid, &st, WNOHANG | __WALL);

		if (r == pid)
			return st;
		if (r < 0 && errno != EINTR)
			return -1;
		t_msleep(5);
	}
	return -1;
}

/* Count log records of engine eng (or any, -1) of a kind (or any, -1). */
static inline int tlog_count(int eng, int kind)
{
	int n = 0;

	for (int i = 0; i < tlog_n; i++)
		if ((eng < 0 || tlog[i].eng == eng) &&
		    (kind < 0 || tlog[i].kind == kind))
			n++;
	return n;
}

/* Index of the first record at or after from matching eng and kind, or -1. */
static inline int tlog_find(int from, int eng, int kind)
{
	for (int i = from; i < tlog_n; i++)
		if ((eng < 0 || tlog[i].eng == eng) &&
		    (kind < 0 || tlog[i].kind == kind))
			return i;
	return -1;
}

/* Index of the last record of engine eng not of kind except, or -1. */
static inline int tlog_last(int eng, int except)
{
	for (int i = tlog_n - 1; i >= 0; i--)
		if (tlog[i].eng == eng && tlog[i].kind != except)
			return i;
	return -1;
}

/* Count syscall records of engine eng, kind k, for syscall nr. */
static inline int tlog_count_nr(int eng, int kind, long nr)
{
	int n = 0;

	for (int i = 0; i < tlog_n; i++)
		if (tlog[i].eng == eng && tlog[i].kind == kind &&
		    tlog[i].nr == nr)
			n++;
	return n;
}

static const char *const t_kind_names[K_NKINDS] __attribute__((unused)) = {
	"quiesce", "signal", "clone", "jctl", "exec", "sysentry", "sysexit",
	"exit", "death", "reap", "release",
};

/* Print the log on stderr as "#" lines, to explain a failure. */
static inline void tlog_dump(int from, int max)
{
	if (from < 0)
		from = 0;
	for (int i = from; i < tlog_n && i < from + max; i++)
		fprintf(stderr, "# [%d] eng %d %s tid %d action %#x arg %#lx "
			"nr %ld ret %#x\n", i, tlog[i].eng,
			t_kind_names[tlog[i].kind], tlog[i].tid,
			tlog[i].action, tlog[i].arg, tlog[i].nr, tlog[i].ret);
}

/*
 * Check that engine te has seen death then reap, once each, and nothing
 * after the reap.
 */
static inline void t_check_death_reap(struct teng *te)
{
	int d = tlog_find(0, te->id, K_DEATH);
	int r = tlog_find(0, te->id, K_REAP);

	CHECK_EQ(te->n[K_DEATH], 1);
	CHECK_EQ(te->n[K_REAP], 1);
	CHECK(d >= 0 && r > d);
	CHECK_EQ(tlog_last(te->id, K_RELEASE), r);
}

#define EV_LIFE (UTRACE_EVENT(DEATH) | UTRACE_EVENT(REAP))

#endif
