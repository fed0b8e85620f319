/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Syscalls observed in-process (utrace_tracer_set_records(3)): an observer
 * engine gets the same callbacks from records as from stops, a callback
 * knows where it comes from and cannot change the thread, and each
 * fallback to stops (no capture rule, a non-observer engine, records off)
 * is taken.  The program is test/progs/getppid_loop: getppid through
 * syscall(3), a site the tracer rewrites.
 */
#include <sys/prctl.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include "harness.h"
#include <utrace.h>
#include "tlib.h"

#define N 2000

/* user[0..1]: getppid entries, exits; [2..3]: of them from records;
   [4]: a getppid exit with a wrong value; [5]: accessor checks failed */
static uint32_t count_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	struct utrace_syscall sc;
	int rec = utrace_from_record(te->e);

	if (rec < 0)
		te->user[5]++;
	if (ev->nr != SYS_getppid)
		return dflt;
	if (utrace_syscall_get(te->e, &sc) || sc.nr != SYS_getppid)
		te->user[5]++;
	if (ev->kind == K_SYSENTRY) {
		te->user[0]++;
		te->user[2] += rec == 1;
	} else {
		te->user[1]++;
		te->user[3] += rec == 1;
		if (sc.ret != getpid())
			te->user[4]++;
	}
	return dflt;
}

/* Records on (and getppid captured) if @rec; skips without the means. */
static struct utrace_tracer *tracer(bool rec, bool capture)
{
	struct utrace_tracer *t = t_tracer();
	int r;

	if (!rec)
		return t;
	r = utrace_tracer_set_records(t, UTRACE_RECORDS_ON);
	if (r == -EOPNOTSUPP)
		SKIP("no syscall user dispatch for tracers (Linux 6.11) or no FSGSBASE");
	CHECK_EQ(r, 0);
	if (capture)
		CHECK_EQ(utrace_set_capture(t, SYS_getppid, NULL, 0), 0);
	return t;
}

static void stats(struct utrace_tracer *t, uint64_t st[4])
{
	CHECK_EQ(utrace_tracer_record_stats(t, st, 4), 4);
}

/* Run getppid_loop N with one engine on every syscall; its counts. */
static struct teng *run(struct utrace_tracer *t, bool observer, uint64_t st[4])
{
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "2000", NULL);
	struct teng *te = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE,
				   count_hook);

	if (observer)
		CHECK_EQ(utrace_set_observer(te->e, true), 0);
	t_run(t);
	t_check_death_reap(te);
	stats(t, st);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
	return te;
}

TEST_T(records_same_callbacks_as_stops, 60)
{
	uint64_t st[4], st0[4];
	struct teng *a = run(tracer(false, false), true, st0);
	struct teng *b = run(tracer(true, true), true, st);

	CHECK_EQ(a->user[0], N);
	CHECK_EQ(a->user[1], N);
	CHECK_EQ(a->user[2] + a->user[3], 0);
	CHECK_EQ(st0[0], 0);
	/* the same callbacks, the getppid ones from records */
	CHECK_EQ(b->user[0], N);
	CHECK_EQ(b->user[1], N);
	CHECK_EQ(b->user[2], N);
	CHECK_EQ(b->user[3], N);
	CHECK_EQ(b->n[K_SYSENTRY], a->n[K_SYSENTRY]);
	CHECK_EQ(b->n[K_SYSEXIT], a->n[K_SYSEXIT]);
	CHECK_EQ(a->user[4] + b->user[4], 0);
	CHECK_EQ(a->user[5] + b->user[5], 0);
	CHECK(st[0] >= 2 * N);		/* records */
	CHECK(st[2] >= 1);		/* sites rewritten */
}

/* In a callback made from a record: look, never change or hold. */
static uint32_t refuse_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	struct user_regs_struct regs;
	char buf[8];

	if (ev->nr != SYS_getppid || utrace_from_record(te->e) != 1)
		return dflt;
	te->user[0]++;
	CHECK_EQ(utrace_regs_get(te->e, &regs), 0);
	CHECK_EQ(regs.orig_rax, SYS_getppid);
	if (ev->kind == K_SYSEXIT)
		CHECK_EQ((long)regs.rax, getpid());
	CHECK_EQ(utrace_regs_set(te->e, &regs), -EPERM);
	CHECK_EQ(utrace_syscall_set_return(te->e, 1), -EPERM);
	CHECK_EQ(utrace_syscall_set_nr(te->e, SYS_getpid), -EPERM);
	CHECK_EQ(utrace_mem_write(te->e, regs.rsp, buf, 1), -EPERM);
	/* no capture rules: no memory in the record */
	CHECK_EQ(utrace_mem_read(te->e, regs.rsp, buf, 1), -ENODATA);
	/* a vote to hold it counts as UTRACE_RESUME: the program runs on */
	return UTRACE_STOP;
}

TEST_T(records_refuse_changes_and_holds, 60)
{
	struct utrace_tracer *t = tracer(true, true);
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "2000", NULL);
	struct teng *te = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE,
				   refuse_hook);

	CHECK_EQ(utrace_set_observer(te->e, true), 0);
	t_run(t);
	t_check_death_reap(te);
	CHECK_EQ(te->user[0], 2 * N);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

TEST_T(records_off_by_default, 60)
{
	uint64_t st[4];
	struct utrace_tracer *t = t_tracer();
	struct teng *te;

	/* capture rules alone do not turn records on */
	CHECK_EQ(utrace_set_capture(t, SYS_getppid, NULL, 0), 0);
	te = run(t, true, st);
	CHECK_EQ(te->user[1], N);
	CHECK_EQ(te->user[3], 0);
	CHECK_EQ(st[0], 0);
}

TEST_T(records_fallback_without_capture_rule, 60)
{
	uint64_t st[4];
	struct teng *te = run(tracer(true, false), true, st);

	CHECK_EQ(te->user[0], N);
	CHECK_EQ(te->user[1], N);
	CHECK_EQ(te->user[2] + te->user[3], 0);
	CHECK_EQ(st[0], 0);
}

TEST_T(records_fallback_for_non_observer, 60)
{
	uint64_t st[4];
	struct teng *te = run(tracer(true, true), false, st);

	CHECK_EQ(te->user[0], N);
	CHECK_EQ(te->user[1], N);
	CHECK_EQ(te->user[2] + te->user[3], 0);
	CHECK_EQ(te->user[4], 0);
	CHECK_EQ(st[0], 0);
}

/* One observer and one engine that may change getppid: stops for both. */
TEST_T(records_fallback_when_another_engine_wants_it, 60)
{
	struct utrace_tracer *t = tracer(true, true);
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "2000", NULL);
	struct teng *obs = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE,
				    count_hook);
	struct teng *other = t_attach(t, pid, UTRACE_EVENT(SYSCALL_EXIT),
				      NULL);
	long nr = SYS_getppid;
	uint64_t st[4];

	CHECK_EQ(utrace_set_observer(obs->e, true), 0);
	CHECK_EQ(utrace_set_syscalls(other->e, &nr, 1), 0);
	t_run(t);
	stats(t, st);
	CHECK_EQ(obs->user[1], N);
	CHECK_EQ(obs->user[3], 0);
	CHECK_EQ(other->n[K_SYSEXIT], N);
	CHECK_EQ(st[0], 0);
	utrace_engine_put(obs->e);
	utrace_engine_put(other->e);
	utrace_tracer_free(t);
}

/* env execs getppid_loop: the code is placed again in the new image. */
TEST_T(records_placed_again_after_execve, 60)
{
	struct utrace_tracer *t = tracer(true, true);
	char *argv[] = { "/usr/bin/env", (char *)test_prog("getppid_loop"),
			 "2000", NULL };
	struct teng *te;
	uint64_t st[4];
	pid_t pid;

	CHECK_EQ(t_spawn_opts(t, NULL, NULL, &pid, argv), 0);
	te = t_attach(t, pid, UTRACE_EVENT_SYSCALL | UTRACE_EVENT(EXEC) |
			      EV_LIFE, count_hook);
	CHECK_EQ(utrace_set_observer(te->e, true), 0);
	t_run(t);
	t_check_death_reap(te);
	stats(t, st);
	CHECK_EQ(te->n[K_EXEC], 2);
	CHECK_EQ(te->user[1], N);
	CHECK_EQ(te->user[3], N);
	CHECK_EQ(te->user[4], 0);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

/* utrace_follow: an observer on each new thread of the process. */
static int follow_observer(void *arg, pid_t tid, pid_t tgid, pid_t parent,
			   unsigned long clone_flags)
{
	struct teng *te = t_attach(arg, tid, UTRACE_EVENT_SYSCALL, count_hook);

	CHECK_EQ(utrace_set_observer(te->e, true), 0);
	return 0;
}

static long sum(int k)
{
	long n = 0;

	for (int i = 0; i < tengs_n; i++)
		n += tengs[i].user[k];
	return n;
}

/* New threads get rings of their own: every getppid from a record. */
TEST_T(records_from_new_threads, 60)
{
	struct utrace_tracer *t = tracer(true, true);
	pid_t pid = t_spawn(t, NULL, "rec_prog", "threads", "4", "2000", NULL);
	struct teng *te = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE,
				   count_hook);

	CHECK_EQ(utrace_set_observer(te->e, true), 0);
	CHECK_EQ(utrace_follow(t, pid, UTRACE_WATCH_PROCESS, follow_observer,
			       t), 0);
	t_run(t);
	t_check_death_reap(te);
	CHECK_EQ(tengs_n, 5);
	CHECK_EQ(sum(0), 1 + 4 * 2000);
	CHECK_EQ(sum(1), 1 + 4 * 2000);
	CHECK_EQ(sum(3), 1 + 4 * 2000);
	CHECK_EQ(sum(4), 0);
	CHECK_EQ(sum(5), 0);
	utrace_tracer_free(t);
}

/* The program's own SIGSYS handler sends its process back to stops. */
TEST_T(records_fallback_when_program_takes_sigsys, 60)
{
	struct utrace_tracer *t = tracer(true, true);
	pid_t pid = t_spawn(t, NULL, "rec_prog", "sigsys", "1000", NULL);
	struct teng *te = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE,
				   count_hook);

	CHECK_EQ(utrace_set_observer(te->e, true), 0);
	t_run(t);
	t_check_death_reap(te);
	CHECK_EQ(te->user[0], 2000);
	CHECK_EQ(te->user[1], 2000);
	CHECK_EQ(te->user[3], 1000);	/* the ones before it only */
	CHECK_EQ(te->user[4], 0);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

/* Read one line from @fd within 20 s (scaled). */
static const char *read_line(int fd)
{
	static char buf[256];
	size_t n = 0;
	long dl = t_now_ms() + 20000L * test_timeout_scale();

	while (n < sizeof(buf) - 1 && t_now_ms() < dl) {
		struct pollfd p = { fd, POLLIN, 0 };

		if (poll(&p, 1, 100) <= 0)
			continue;
		if (read(fd, buf + n, 1) != 1)
			break;
		if (buf[n++] == '\n')
			break;
	}
	buf[n] = 0;
	return buf;
}

/*
 * kill -9 of the tracer while the program makes recorded syscalls and
 * syscalls from a site that traps each time: the program runs on, untraced,
 * and ends as natively (its output, its status).
 */
TEST_T(records_tracer_killed_program_runs_on, 60)
{
	struct utrace_tracer *probe = t_tracer();
	int out[2], st;
	pid_t tpid, w, prog = -1;
	const char *line;

	if (utrace_tracer_set_records(probe, UTRACE_RECORDS_ON) == -EOPNOTSUPP)
		SKIP("no syscall user dispatch for tracers or no FSGSBASE");
	utrace_tracer_free(probe);
	CHECK_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L), 0);
	CHECK_EQ(pipe(out), 0);
	tpid = fork();
	CHECK(tpid >= 0);
	if (tpid == 0) {
		struct utrace_tracer *t = tracer(true, true);
		char *argv[] = { (char *)test_prog("rec_prog"), "orphan",
				 "20000", NULL };
		struct teng *te;
		pid_t pid;

		close(out[0]);
		dup2(out[1], 1);
		CHECK_EQ(utrace_spawn(t, argv, NULL, &pid), 0);
		te = t_attach(t, pid, UTRACE_EVENT_SYSCALL, count_hook);
		CHECK_EQ(utrace_set_observer(te->e, true), 0);
		utrace_run(t);
		_exit(0);
	}
	close(out[1]);
	CHECK_STR(read_line(out[0]), "ready\n");
	CHECK_EQ(kill(tpid, SIGKILL), 0);
	CHECK_EQ(waitpid(tpid, &st, 0), tpid);
	line = read_line(out[0]);
	CHECK_STR(line, "done 20000 bad 0\n");
	/* the orphan is ours now (subreaper) */
	while ((w = waitpid(-1, &st, 0)) > 0)
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			prog = w;
			CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 7);
		}
	CHECK(prog > 0);
}

/* user[0]: entries in te->ptr's log of (kind, nr, ret) */
struct seq {
	int kind, rec;
	long nr, ret;
};

static uint32_t seq_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	struct seq *log = te->ptr;
	struct utrace_syscall sc;

	if (ev->nr != SYS_read && ev->nr != SYS_write &&
	    ev->nr != SYS_rt_sigreturn && ev->nr != SYS_restart_syscall)
		return dflt;
	if (te->user[0] >= 64 || utrace_syscall_get(te->e, &sc))
		return dflt;
	log[te->user[0]].kind = ev->kind;
	log[te->user[0]].rec = utrace_from_record(te->e);
	log[te->user[0]].nr = sc.nr;
	log[te->user[0]++].ret = ev->kind == K_SYSEXIT ? sc.ret : 0;
	return dflt;
}

/* The read/write/rt_sigreturn callbacks of "rec_prog sigread R". */
static int sigread(bool rec, const char *restart, struct seq *log,
		   const char **out)
{
	struct utrace_tracer *t = tracer(rec, true);
	struct teng *te;
	int fd, n;
	pid_t pid;

	if (rec) {
		CHECK_EQ(utrace_set_capture(t, SYS_read, NULL, 0), 0);
		CHECK_EQ(utrace_set_capture(t, SYS_write, NULL, 0), 0);
	}
	pid = t_spawn(t, &fd, "rec_prog", "sigread", restart, NULL);
	te = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE, seq_hook);
	te->ptr = log;
	CHECK_EQ(utrace_set_observer(te->e, true), 0);
	t_run(t);
	*out = strdup(t_read_all(fd));
	close(fd);
	n = (int)te->user[0];
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
	return n;
}

/*
 * A recorded read that SIGALRM interrupts: its exit with -ERESTARTSYS
 * before the signal, and after the handler (SA_RESTART) the read made
 * again, or (no SA_RESTART) -EINTR from rt_sigreturn: as from stops.
 */
TEST_T(records_syscall_interrupted_by_signal, 60)
{
	static const char *modes[] = { "1", "0" };

	for (int m = 0; m < 2; m++) {
		struct seq a[64], b[64];
		const char *out_a, *out_b;
		int na = sigread(false, modes[m], a, &out_a);
		int nb = sigread(true, modes[m], b, &out_b);
		int k = 0;

		CHECK_STR(out_a, m ? "read -1\n" : "read 1\n");
		CHECK_STR(out_b, out_a);
		CHECK(na >= 8);
		CHECK_EQ(nb, na);
		/* the read and its exit at the signal from the record path */
		while (k < nb && b[k].ret != -512)	/* -ERESTARTSYS */
			k++;
		CHECK(k > 0 && k < nb);
		CHECK_EQ(b[k].nr, SYS_read);
		CHECK_EQ(b[k].rec, 1);
		CHECK_EQ(b[k - 1].rec, 1);
		for (int i = 0; i < na && i < nb; i++) {
			CHECK_EQ(b[i].kind, a[i].kind);
			CHECK_EQ(b[i].nr, a[i].nr);
			CHECK_EQ(b[i].ret, a[i].ret);
		}
	}
}

/* What an observer reads of the memory of "rec_prog mem", as text. */
static uint32_t mem_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	char *log = te->ptr, buf[256], line[400];
	struct utrace_syscall sc;
	ssize_t n = -1;

	if (utrace_syscall_get(te->e, &sc))
		return dflt;
	if (ev->kind == K_SYSENTRY && sc.nr == SYS_write && sc.args[2] < 64)
		n = utrace_mem_read(te->e, sc.args[1], buf, sc.args[2]);
	else if (ev->kind == K_SYSEXIT && sc.nr == SYS_read && sc.ret > 0 &&
		 sc.ret < 64)
		n = utrace_mem_read(te->e, sc.args[1], buf, (size_t)sc.ret);
	else if (ev->kind == K_SYSENTRY &&
		 (sc.nr == SYS_openat || sc.nr == SYS_newfstatat))
		n = utrace_mem_read_string(te->e, sc.args[1], buf, sizeof(buf));
	else if (ev->kind == K_SYSEXIT && sc.nr == SYS_newfstatat && !sc.ret) {
		struct stat st;

		n = utrace_mem_read(te->e, sc.args[2], &st, sizeof(st));
		n = n == sizeof(st) ? snprintf(buf, sizeof(buf), "mode %o",
					       st.st_mode) : -1;
	} else
		return dflt;
	te->user[1] += utrace_from_record(te->e) == 1;
	snprintf(line, sizeof(line), "%c %ld %.*s|", "EX"[ev->kind == K_SYSEXIT],
		 sc.nr, n < 0 ? 3 : (int)n, n < 0 ? "ERR" : buf);
	strncat(log, line, 4095 - strlen(log));
	return dflt;
}

static const char *mem_run(bool rec, long *from_records)
{
	static const struct utrace_capture wr[] = {
		{ sizeof(wr[0]), 1, UTRACE_CAPTURE_ENTRY, UTRACE_CAPTURE_ARGLEN,
		  2, 256 } };
	static const struct utrace_capture rd[] = {
		{ sizeof(rd[0]), 1, UTRACE_CAPTURE_EXIT, UTRACE_CAPTURE_RETLEN,
		  0, 256 } };
	static const struct utrace_capture op[] = {
		{ sizeof(op[0]), 1, UTRACE_CAPTURE_ENTRY, UTRACE_CAPTURE_STRING,
		  0, 4096 } };
	static const struct utrace_capture st[] = {
		{ sizeof(st[0]), 1, UTRACE_CAPTURE_ENTRY, UTRACE_CAPTURE_STRING,
		  0, 4096 },
		{ sizeof(st[0]), 2, UTRACE_CAPTURE_EXIT, UTRACE_CAPTURE_FIXED,
		  0, sizeof(struct stat) } };
	struct utrace_tracer *t = tracer(rec, false);
	char *log = calloc(1, 4096);
	struct teng *te;
	pid_t pid;

	if (rec) {
		CHECK_EQ(utrace_set_capture(t, SYS_write, wr, 1), 0);
		CHECK_EQ(utrace_set_capture(t, SYS_read, rd, 1), 0);
		CHECK_EQ(utrace_set_capture(t, SYS_openat, op, 1), 0);
		CHECK_EQ(utrace_set_capture(t, SYS_newfstatat, st, 2), 0);
	}
	pid = t_spawn(t, NULL, "rec_prog", "mem", NULL);
	te = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE, mem_hook);
	te->ptr = log;
	CHECK_EQ(utrace_set_observer(te->e, true), 0);
	t_run(t);
	*from_records = te->user[1];
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
	return log;
}

/*
 * Capture rules: a buffer by an argument's length, a read's result, path
 * strings, a struct at exit, and a bad address (the program gets EFAULT,
 * the observer no memory): the observer reads what it reads from stops.
 */
TEST_T(records_capture_memory, 60)
{
	long ra, rb;
	const char *a = mem_run(false, &ra), *b = mem_run(true, &rb);

	CHECK(strstr(a, "E 1 pipe-data|") && strstr(a, "X 0 pipe-data|"));
	CHECK(strstr(a, "E 257 /dev/null|"));
	CHECK_STR(b, a);
	CHECK_EQ(ra, 0);
	CHECK(rb >= 5);		/* the write, read, openat, fstat ones */
}

/* What an observer reads at the exits of reads and sleeps, as text. */
static uint32_t intr_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	char *log = te->ptr, line[200];
	struct utrace_syscall sc;
	struct timespec rem;
	char c = '?';
	ssize_t n = -1;

	if (ev->kind != K_SYSEXIT || utrace_syscall_get(te->e, &sc))
		return dflt;
	if (sc.nr == SYS_read && sc.ret == 1)
		n = utrace_mem_read(te->e, sc.args[1], &c, 1);
	else if (sc.nr == SYS_clock_nanosleep)
		n = utrace_mem_read(te->e, sc.args[3], &rem, sizeof(rem));
	else
		return dflt;
	te->user[1] += utrace_from_record(te->e) == 1;
	snprintf(line, sizeof(line), "%ld %ld %zd %c|", sc.nr, sc.ret, n,
		 sc.nr == SYS_read ? c : n == sizeof(rem) && rem.tv_sec >= 4 ?
		 'r' : '-');
	strncat(log, line, 4095 - strlen(log));
	return dflt;
}

static const char *intr_run(bool rec, const char *mode, const char *arg,
			    long *from_records)
{
	static const struct utrace_capture rd[] = {
		{ sizeof(rd[0]), 1, UTRACE_CAPTURE_EXIT, UTRACE_CAPTURE_RETLEN,
		  0, 64 } };
	static const struct utrace_capture sl[] = {
		{ sizeof(sl[0]), 3, UTRACE_CAPTURE_EXIT, UTRACE_CAPTURE_FIXED,
		  0, sizeof(struct timespec) } };
	struct utrace_tracer *t = tracer(rec, false);
	char *log = calloc(1, 4096);
	struct teng *te;
	pid_t pid;

	if (rec) {
		CHECK_EQ(utrace_set_capture(t, SYS_read, rd, 1), 0);
		CHECK_EQ(utrace_set_capture(t, SYS_clock_nanosleep, sl, 1), 0);
		CHECK_EQ(utrace_set_capture(t, SYS_write, NULL, 0), 0);
	}
	pid = t_spawn(t, NULL, "rec_prog", mode, arg, NULL);
	te = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE, intr_hook);
	te->ptr = log;
	CHECK_EQ(utrace_set_observer(te->e, true), 0);
	t_run(t);
	*from_records = te->user[1];
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
	return log;
}

/*
 * The memory of a recorded syscall a signal interrupts: its exit, reported
 * at the stop, reads the time a sleep had left as a stop does (-ERESTART*
 * then); a read made again after an SA_RESTART handler is reported from
 * its record with what it read.
 */
TEST_T(records_interrupted_memory, 60)
{
	long ra, rb;
	const char *a = intr_run(false, "sleep", NULL, &ra);
	const char *b = intr_run(true, "sleep", NULL, &rb);

	CHECK(strstr(a, "230 -516 16 r|"));	/* ERESTART_RESTARTBLOCK */
	CHECK_STR(b, a);
	CHECK_EQ(ra, 0);
	CHECK(rb >= 1);
	a = intr_run(false, "sigread", "1", &ra);
	b = intr_run(true, "sigread", "1", &rb);
	CHECK(strstr(a, "0 1 1 x|"));
	CHECK_STR(b, a);
	CHECK(rb >= 1);
}

/*
 * user[0]: reads seen, [1]: of them from records, [2]: their bytes all
 * as the program wrote them, [3]: a record's entry time wrong or going
 * back, [4]: a record that is no syscall; ptr: the last time stamp (ns)
 */
static uint32_t whole_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	static char buf[40000];
	struct utrace_syscall sc;
	struct timespec ts, xts;
	int rec = utrace_from_record(te->e);
	long long *last = te->ptr, now;
	int r = utrace_syscall_time(te->e, CLOCK_MONOTONIC, &ts, &xts);

	if (rec == 1 && ev->kind != K_SYSENTRY && ev->kind != K_SYSEXIT) {
		te->user[4]++;
	} else if (rec == 1) {
		now = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
		if (r || now < *last)
			te->user[3]++;
		*last = now;
	}
	/* the pipe's reads (not the loader's) */
	if (ev->kind != K_SYSEXIT || utrace_syscall_get(te->e, &sc) ||
	    sc.nr != SYS_read || (sc.ret != 1000 && sc.ret != 40000))
		return dflt;
	te->user[0]++;
	te->user[1] += rec == 1;
	if (utrace_mem_read(te->e, sc.args[1], buf, (size_t)sc.ret) == sc.ret) {
		long i;

		for (i = 0; i < sc.ret; i++)
			if (buf[i] != 'a' + (te->user[5] + i) % 26)
				break;
		te->user[2] += i == sc.ret;
	}
	te->user[5] += sc.ret;
	return dflt;
}

/*
 * A whole rule (UTRACE_CAPTURE_WHOLE): a read of 1000 bytes from a record
 * with all of them, one of 40000 (above the rule's 32768) from stops; the
 * record path's time stamps (utrace_record_time) between the run's start
 * and end, never going back, none at stops.
 */
TEST_T(records_whole_rule_and_time, 60)
{
	static const struct utrace_capture rd[] = {
		{ sizeof(rd[0]), 1, UTRACE_CAPTURE_EXIT | UTRACE_CAPTURE_WHOLE,
		  UTRACE_CAPTURE_RETLEN, 2, 32768 } };
	struct utrace_tracer *t = tracer(true, false);
	long long last = 0, start, end;
	struct timespec ts;
	struct teng *te;
	int fd;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	start = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	CHECK_EQ(utrace_set_capture(t, SYS_read, rd, 1), 0);
	pid = t_spawn(t, &fd, "rec_prog", "bigread", NULL);
	te = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE, whole_hook);
	te->ptr = &last;
	CHECK_EQ(utrace_set_observer(te->e, true), 0);
	t_run(t);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	end = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	CHECK_STR(t_read_all(fd), "bigread 1000 40000\n");
	close(fd);
	CHECK_EQ(te->user[0], 2);	/* the two reads of the pipe */
	CHECK_EQ(te->user[1], 1);	/* the small one from a record */
	CHECK_EQ(te->user[2], 2);	/* each whole */
	CHECK_EQ(te->user[3], 0);
	CHECK_EQ(te->user[4], 0);
	CHECK(last > start && last < end);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

/*
 * The queue's notify-only watches observe: their syscall records come from
 * the thread's records; a watch that holds syscalls keeps the stops.
 */
static void queue_run(bool hold, long *entries, long *exits, uint64_t st[4])
{
	struct utrace_tracer *t = tracer(true, true);
	unsigned long ev = UTRACE_EVENT_SYSCALL | UTRACE_EVENT(DEATH);
	struct utrace_queue *q;
	struct utrace_event e = { .size = sizeof(e) };
	pid_t pid = t_spawn(t, NULL, "getppid_loop", "2000", NULL);
	long nr = SYS_getppid;
	bool dead = false;

	CHECK_EQ(utrace_queue_new(t, &q), 0);
	CHECK_EQ(utrace_queue_watch(q, pid, UTRACE_WATCH_PROCESS, ev,
				    hold ? UTRACE_EVENT(SYSCALL_EXIT) : 0), 0);
	CHECK_EQ(utrace_queue_set_syscalls(q, pid, &nr, 1), 0);
	*entries = *exits = 0;
	while (!dead) {
		int r = utrace_queue_next(q, &e, 10000 * test_timeout_scale());

		CHECK_EQ(r, 1);
		if (e.type == UTRACE_EVENT(DEATH) && e.tid == pid)
			dead = true;
		if (e.type == UTRACE_EVENT(SYSCALL_ENTRY))
			*entries += e.syscall.nr == SYS_getppid;
		if (e.type == UTRACE_EVENT(SYSCALL_EXIT)) {
			*exits += e.syscall.nr == SYS_getppid &&
				  e.syscall.ret == getpid();
			if (e.held)
				CHECK_EQ(utrace_queue_reply(q, e.id, NULL), 0);
		}
	}
	stats(t, st);
	utrace_queue_free(q);
	utrace_tracer_free(t);
}

TEST_T(records_queue_notify_only_watch_observes, 60)
{
	long en, ex;
	uint64_t st[4];

	queue_run(false, &en, &ex, st);
	CHECK_EQ(en, N);
	CHECK_EQ(ex, N);
	CHECK(st[0] >= 2 * N);
	queue_run(true, &en, &ex, st);
	CHECK_EQ(en, N);
	CHECK_EQ(ex, N);
	CHECK_EQ(st[0], 0);
}

/* A process taken over running (utrace_attach): set up at its next stop. */
TEST_T(records_after_attach, 60)
{
	struct utrace_tracer *t = tracer(true, true);
	char prog[512];
	struct teng *te;
	uint64_t st[4];
	pid_t pid;
	int p[2], status;
	char c;

	snprintf(prog, sizeof(prog), "%s", test_prog("rec_prog"));
	CHECK_EQ(pipe(p), 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		dup2(p[1], 1);
		execl(prog, prog, "orphan", "0", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	CHECK_EQ(read(p[0], &c, 1), 1);		/* "ready": it loops now */
	te = t_attach(t, pid, UTRACE_EVENT_SYSCALL, count_hook);
	CHECK_EQ(utrace_set_observer(te->e, true), 0);
	CHECK(DISPATCH_UNTIL(t, te->user[3] >= 1000, 20000));
	stats(t, st);
	CHECK(st[0] >= 2000);
	CHECK_EQ(te->user[4], 0);
	CHECK_EQ(te->user[5], 0);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
	/* let go, untraced and running: it ends as it would */
	CHECK_EQ(kill(pid, SIGTERM), 0);
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	close(p[0]);
}

/*
 * Signal handlers and the record path: "rec_prog jmpread N" (handlers
 * that leave a recorded read with siglongjmp) and "rec_prog flood N R"
 * (a handler that makes more syscalls than a ring holds while a recorded
 * read is pending).  An observer counts getppid (count_hook's user[]) and
 * logs the read, write and rt_sigreturn callbacks in order (ptr).
 */
struct slog {
	struct seq s[256];
	int n;
};

static uint32_t sig_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	struct slog *log = te->ptr;
	struct utrace_syscall sc;

	count_hook(te, ev, dflt);
	if (ev->nr != SYS_read && ev->nr != SYS_write &&
	    ev->nr != SYS_rt_sigreturn && ev->nr != SYS_restart_syscall)
		return dflt;
	if (log->n >= 256 || utrace_syscall_get(te->e, &sc))
		return dflt;
	log->s[log->n].kind = ev->kind;
	log->s[log->n].rec = utrace_from_record(te->e);
	log->s[log->n].nr = sc.nr;
	log->s[log->n++].ret = ev->kind == K_SYSEXIT ? sc.ret : 0;
	return dflt;
}

static struct teng *sig_run(bool rec, struct slog *log, const char **out,
			    uint64_t st[4], const char *a1, const char *a2,
			    const char *a3)
{
	struct utrace_tracer *t = tracer(rec, true);
	struct teng *te;
	int fd;
	pid_t pid;

	if (rec) {
		CHECK_EQ(utrace_set_capture(t, SYS_read, NULL, 0), 0);
		CHECK_EQ(utrace_set_capture(t, SYS_write, NULL, 0), 0);
	}
	memset(log, 0, sizeof(*log));
	tlog_n = 0;	/* each run's callbacks alone in the log */
	pid = t_spawn(t, &fd, "rec_prog", a1, a2, a3, NULL);
	te = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE, sig_hook);
	te->ptr = log;
	CHECK_EQ(utrace_set_observer(te->e, true), 0);
	t_run(t);
	t_check_death_reap(te);
	*out = strdup(t_read_all(fd));
	close(fd);
	stats(t, st);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
	return te;
}

/* The two runs saw the same read/write/rt_sigreturn callbacks. */
static void same_log(const struct slog *a, const struct slog *b)
{
	if (b->n != a->n)
		for (int i = 0; i < a->n || i < b->n; i++)
			fprintf(stderr, "# %3d: %d %ld %ld | %d %ld %ld\n", i,
				a->s[i].kind, a->s[i].nr, a->s[i].ret,
				b->s[i].kind, b->s[i].nr, b->s[i].ret);
	CHECK_EQ(b->n, a->n);
	for (int i = 0; i < a->n && i < b->n; i++) {
		CHECK_EQ(b->s[i].kind, a->s[i].kind);
		CHECK_EQ(b->s[i].nr, a->s[i].nr);
		CHECK_EQ(b->s[i].ret, a->s[i].ret);
	}
}

/*
 * A handler that leaves a recorded syscall with siglongjmp, 50 times: the
 * program goes on (no ring left waiting for a record that never comes),
 * and every read's entry and exit and every getppid come once, as from
 * stops.
 */
TEST_T(records_siglongjmp_out_of_a_recorded_syscall, 60)
{
	static struct slog la, lb;
	const char *oa, *ob;
	uint64_t st[4];
	struct teng *a = sig_run(false, &la, &oa, st, "jmpread", "50", NULL);
	struct teng *b = sig_run(true, &lb, &ob, st, "jmpread", "50", NULL);
	int reads = 0;

	CHECK_STR(oa, "jmpread 50\n");
	CHECK_STR(ob, oa);
	CHECK_EQ(a->user[0], 100);
	CHECK_EQ(a->user[1], 100);
	CHECK_EQ(b->user[0], 100);
	CHECK_EQ(b->user[1], 100);
	CHECK_EQ(b->user[2], 100);	/* from records */
	CHECK_EQ(b->user[3], 100);
	CHECK_EQ(a->user[4] + b->user[4] + a->user[5] + b->user[5], 0);
	same_log(&la, &lb);
	/* the pipe's reads, ended by the signal (-ERESTARTSYS) */
	for (int i = 0; i < lb.n; i++)
		if (lb.s[i].nr == SYS_read && lb.s[i].kind == K_SYSEXIT &&
		    lb.s[i].ret == -512) {
			reads++;
			CHECK_EQ(lb.s[i].rec, 1);
		}
	CHECK_EQ(reads, 50);
}

/*
 * A handler that makes 20,000 getppid (records for several rings' worth)
 * while a recorded read waits: nothing waits for room behind the pending
 * read (it is ended at the signal, as the stop path ends it, and made
 * again after the handler with SA_RESTART, or fails with EINTR without),
 * nothing is lost or doubled.
 */
TEST_T(records_handler_floods_the_ring_while_a_read_waits, 120)
{
	static const char *restart[] = { "1", "0" };

	for (int m = 0; m < 2; m++) {
		static struct slog la, lb;
		const char *oa, *ob;
		uint64_t st[4];
		struct teng *a = sig_run(false, &la, &oa, st, "flood", "20000",
					 restart[m]);
		struct teng *b = sig_run(true, &lb, &ob, st, "flood", "20000",
					 restart[m]);

		CHECK_STR(oa, m ? "flood read -1\n" : "flood read 1\n");
		CHECK_STR(ob, oa);
		CHECK_EQ(a->user[0], 20000);
		CHECK_EQ(a->user[1], 20000);
		CHECK_EQ(b->user[0], 20000);
		CHECK_EQ(b->user[1], 20000);
		CHECK_EQ(b->user[2], 20000);
		CHECK_EQ(b->user[3], 20000);
		CHECK_EQ(a->user[4] + b->user[4] + a->user[5] + b->user[5], 0);
		same_log(&la, &lb);
		CHECK(st[0] >= 40000);
	}
}

/*
 * "rec_prog storm": the writes to /dev/null (fd 3), whose count is their
 * number.  user[0]: writes whose exit reported all bytes written;
 * [1]: an entry whose previous write had no exit, or an exit that is not
 * its entry's; [2]: from records; [3]: entries; [4]: a captured buffer
 * that was not all zeros or cut short.  ptr: the write in progress.
 */
static uint32_t storm_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	long *cur = te->ptr;
	struct utrace_syscall sc;
	static char buf[16384];

	if (ev->nr != SYS_write || utrace_syscall_get(te->e, &sc) ||
	    sc.args[0] != 3)
		return dflt;
	te->user[2] += utrace_from_record(te->e) == 1;
	if (ev->kind == K_SYSENTRY) {
		te->user[3]++;
		te->user[1] += *cur != -1;
		*cur = (long)sc.args[2];
		if (utrace_from_record(te->e) == 1 &&
		    (utrace_mem_read(te->e, sc.args[1], buf, sc.args[2]) !=
		     (ssize_t)sc.args[2] || memchr(buf, 1, sc.args[2])))
			te->user[4]++;
		return dflt;
	}
	te->user[1] += *cur != (long)sc.args[2];
	te->user[0] += sc.ret == (long)sc.args[2];
	*cur = -1;
	return dflt;
}

static struct teng *storm_run(bool rec, const char *jmp, long *done)
{
	static const struct utrace_capture wr[] = {
		{ sizeof(wr[0]), 1, UTRACE_CAPTURE_ENTRY, UTRACE_CAPTURE_ARGLEN,
		  2, 16384 } };
	struct utrace_tracer *t = tracer(rec, true);
	static long cur[2];
	struct teng *te;
	uint64_t st[4];
	int fd;
	pid_t pid;

	if (rec)
		CHECK_EQ(utrace_set_capture(t, SYS_write, wr, 1), 0);
	tlog_n = 0;
	cur[rec] = -1;
	pid = t_spawn(t, &fd, "rec_prog", "storm", "3000", jmp, NULL);
	te = t_attach(t, pid, UTRACE_EVENT_SYSCALL | EV_LIFE, storm_hook);
	te->ptr = &cur[rec];
	CHECK_EQ(utrace_set_observer(te->e, true), 0);
	t_run(t);
	t_check_death_reap(te);
	CHECK_EQ(sscanf(t_read_all(fd), "storm %ld", done), 1);
	close(fd);
	stats(t, st);
	fprintf(stderr, "# storm %s, records %s: %ld writes returned, %ld "
		"entries, %ld from records\n", jmp, rec ? "on" : "off", *done,
		te->user[3], te->user[2]);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
	return te;
}

/*
 * A timer signal every 200 us on a loop of captured writes, its handler
 * returning or leaving with siglongjmp: signals land anywhere in the
 * placed code, before, in and after the syscall, while a record is made.
 * The program ends with the writes it made; each write is seen entering
 * once before its exit, all from records, the exits that wrote all bytes are the writes
 * that returned (with siglongjmp, a write cut short after it was made
 * may add one), and the captured bytes are the buffer's.
 */
TEST_T(records_signals_land_anywhere_in_the_placed_code, 120)
{
	for (int j = 0; j < 2; j++) {
		const char *jmp = j ? "1" : "0";
		long da, db;
		struct teng *a = storm_run(false, jmp, &da);
		struct teng *b = storm_run(true, jmp, &db);

		CHECK_EQ(a->user[1], 0);
		CHECK_EQ(b->user[1], 0);
		CHECK_EQ(b->user[4], 0);
		/* every write from records (none sent back to stops) */
		CHECK_EQ(b->user[2], 2 * b->user[3]);
		if (!j) {
			CHECK_EQ(da, 3000);
			CHECK_EQ(db, 3000);
			CHECK_EQ(a->user[0], 3000);
			CHECK_EQ(b->user[0], 3000);
		} else {
			CHECK(b->user[0] >= db);
			CHECK(b->user[0] <= 3000);
		}
	}
}

/*
 * utrace_syscall_time in the callbacks of "rec_prog naps 4 20".
 * user[0]: nanosleep exits checked; [1]: times broken; [2]: from records;
 * [3]: nanosleep entries no later than 20 ms after the getppid exit before
 * them; [4]: calls in the wrong place that did not fail as documented.
 * ptr: the last times (int64 ns: entry, exit, getppid exit).
 */
static int64_t ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static uint32_t time_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	int64_t *last = te->ptr, en, ex, now = (int64_t)t_now_ms() * 1000000;
	struct timespec a, b, ra, rb;
	bool exit = ev->kind == K_SYSEXIT;

	if (ev->kind == K_EXIT) {
		te->user[4] += utrace_syscall_time(te->e, CLOCK_MONOTONIC, &a,
						   &b) != -ENODATA;
		return dflt;
	}
	if (ev->nr != SYS_nanosleep && ev->nr != SYS_getppid)
		return dflt;
	te->user[4] += utrace_syscall_time(te->e, CLOCK_PROCESS_CPUTIME_ID,
					   &a, &b) != -EINVAL;
	if (utrace_syscall_time(te->e, CLOCK_MONOTONIC, &a, &b) ||
	    utrace_syscall_time(te->e, CLOCK_REALTIME, &ra, &rb)) {
		te->user[1]++;
		return dflt;
	}
	en = ts_ns(&a);
	ex = ts_ns(&b);
	/* known, in order, not in the future; an entry has no exit yet */
	if (!en || en < last[1] || en > now + 1000000 ||
	    (exit ? ex < en || ex > now + 1000000 || en != last[0] : ex != 0))
		te->user[1]++;
	/* CLOCK_REALTIME: the same moments, the clocks' distance apart */
	if (llabs(ts_ns(&ra) - en - (time(NULL) * 1000000000LL - now)) >
	    2000000000LL || (exit && llabs((ts_ns(&rb) - ex) -
					   (ts_ns(&ra) - en)) > 1000000) ||
	    (!exit && ts_ns(&rb)))
		te->user[1]++;
	te->user[2] += utrace_from_record(te->e) == 1;
	if (!exit) {
		last[0] = en;
		if (ev->nr == SYS_nanosleep && en - last[2] < 20000000)
			te->user[3]++;
		return dflt;
	}
	last[1] = ex;
	if (ev->nr == SYS_getppid) {
		last[2] = ex;
		/* a slow tracer: the program's next entry comes meanwhile */
		t_msleep(60);
		return dflt;
	}
	te->user[0]++;
	if (ex - en < 20000000 || ex - en > 20000000 + 2000000000LL)
		te->user[1]++;
	return dflt;
}

static struct teng *time_run(bool rec)
{
	struct utrace_tracer *t = tracer(rec, true);
	static int64_t last[2][3];
	struct teng *te;
	pid_t pid;

	if (rec)
		CHECK_EQ(utrace_set_capture(t, SYS_nanosleep, NULL, 0), 0);
	pid = t_spawn(t, NULL, "rec_prog", "naps", "4", "20", NULL);
	te = t_attach(t, pid, UTRACE_EVENT_SYSCALL | UTRACE_EVENT(EXIT) |
		      EV_LIFE, time_hook);
	te->ptr = last[rec];
	CHECK_EQ(utrace_set_observer(te->e, true), 0);
	t_run(t);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
	return te;
}

/*
 * utrace_syscall_time: when each syscall entered and left the kernel, on
 * both paths; from records the thread's own stamps, not the delivery's
 * (the tracer dawdles 60 ms over each getppid exit, and the nanosleep
 * after it still entered within 20 ms of it).
 */
TEST_T(records_syscall_times, 60)
{
	struct teng *a = time_run(false), *b = time_run(true);

	CHECK_EQ(a->user[0], 4);
	CHECK_EQ(a->user[1], 0);
	CHECK_EQ(a->user[2], 0);
	CHECK_EQ(a->user[3], 0);	/* stops: the program waited */
	CHECK_EQ(a->user[4], 0);
	CHECK_EQ(b->user[0], 4);
	CHECK_EQ(b->user[1], 0);
	CHECK_EQ(b->user[2], 16);
	CHECK_EQ(b->user[3], 4);
	CHECK_EQ(b->user[4], 0);
}

TEST(records_api_errors)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_capture c = { sizeof(c), 1, UTRACE_CAPTURE_ENTRY,
				    UTRACE_CAPTURE_FIXED, 0, 8 };

	CHECK_EQ(utrace_tracer_set_records(NULL, UTRACE_RECORDS_ON), -EINVAL);
	CHECK_EQ(utrace_tracer_set_records(t, 7), -EINVAL);
	CHECK_EQ(utrace_set_capture(t, -1, NULL, 0), -EINVAL);
	CHECK_EQ(utrace_set_capture(t, 1024, NULL, 0), -EINVAL);
	CHECK_EQ(utrace_set_capture(t, SYS_read, NULL, 1), -EINVAL);
	CHECK_EQ(utrace_set_capture(t, SYS_read, &c, 1), 0);
	c.arg = 6;
	CHECK_EQ(utrace_set_capture(t, SYS_read, &c, 1), -EINVAL);
	c.arg = 1;
	c.kind = UTRACE_CAPTURE_RETLEN;		/* at entry: no result yet */
	CHECK_EQ(utrace_set_capture(t, SYS_read, &c, 1), -EINVAL);
	c.kind = UTRACE_CAPTURE_FIXED;
	c.len = 32769;
	CHECK_EQ(utrace_set_capture(t, SYS_read, &c, 1), -EINVAL);
	c.len = 32768;
	c.when = UTRACE_CAPTURE_ENTRY | UTRACE_CAPTURE_WHOLE;
	c.len_arg = 2;
	CHECK_EQ(utrace_set_capture(t, SYS_read, &c, 1), 0);
	c.len_arg = 6;
	CHECK_EQ(utrace_set_capture(t, SYS_read, &c, 1), -EINVAL);
	c.when = UTRACE_CAPTURE_WHOLE;		/* whole of no moment */
	c.len_arg = 2;
	CHECK_EQ(utrace_set_capture(t, SYS_read, &c, 1), -EINVAL);
	c.when = UTRACE_CAPTURE_ENTRY | 8;
	CHECK_EQ(utrace_set_capture(t, SYS_read, &c, 1), -EINVAL);
	c.when = UTRACE_CAPTURE_ENTRY;
	c.len = 8;
	c.size = 8;
	CHECK_EQ(utrace_set_capture(t, SYS_read, &c, 1), -EINVAL);
	CHECK_EQ(utrace_set_observer(NULL, true), -EINVAL);
	CHECK_EQ(utrace_from_record(NULL), -EINVAL);
	CHECK_EQ(utrace_tracer_set_records(t, UTRACE_RECORDS_OFF), 0);
	utrace_tracer_free(t);
}

int main(void)
{
	return test_main();
}
