/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The transparency programs (test/progs/tp_*.c, see test/cli/transparency.sh)
 * under the library's record path, before the CLI uses it: each program runs
 * natively, then under a tracer with utrace_tracer_set_records(ON), every
 * syscall captured (registers only) and an observer engine on every thread
 * of the process and of its children, then the same with records off.
 * Both traced runs must print what the native run printed and end with its
 * status, and the observers must see each of the program's marker calls
 * (close(-TAG), which fails with EBADF) and getppid() exactly as many times
 * as the program says it made them (the "COUNT<TAB>close\(-TAG\) = -1 EBADF
 * ..." and "COUNT<TAB>getppid\(\) = \d+" lines it writes to $TP_EXPECT),
 * each once at entry and once at exit; and, for the programs whose calls do
 * not depend on timing, every thread must make the same calls in the same
 * order both ways.  Written against behaviour only, so
 * it holds the record path and the stop path to the same bar.
 */
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "harness.h"
#include <utrace.h>

#define MAXTAG 4096
#define MAXTHR 256

/* One thread's syscalls in order: 2 * nr at entry, 2 * nr + 1 at exit. */
struct thr {
	struct seen *s;
	long *seq;
	size_t n, cap;
};

/* What the observers saw, summed over every thread. */
struct seen {
	long entries, exits, from_records;
	long mark_entry[MAXTAG], mark_exit[MAXTAG];	/* close(-TAG) */
	long ppid_entry, ppid_exit;	/* getppid, exits returning >= 0 */
	long bad;			/* an accessor failed */
	struct utrace_tracer *t;
	pid_t pid;			/* the program's */
	int status;			/* its wait status, from report_death */
	bool dead;
	struct thr *thr[MAXTHR];	/* every thread observed */
	int nthr;
};

/* Calls whose number the scheduler decides: waits and polls. */
static bool varies(long nr)
{
	return nr == SYS_futex || nr == SYS_nanosleep ||
	       nr == SYS_clock_nanosleep || nr == SYS_pread64;
}

static void seq_add(struct thr *th, long nr, bool at_exit)
{
	if (varies(nr))
		return;
	if (th->n == th->cap) {
		th->cap = th->cap ? 2 * th->cap : 256;
		th->seq = realloc(th->seq, th->cap * sizeof(*th->seq));
		CHECK(th->seq != NULL);
	}
	th->seq[th->n++] = 2 * nr + at_exit;
}

static long tag_of(const struct utrace_syscall *sc)
{
	long fd = (int)sc->args[0];

	return sc->nr == SYS_close && fd < -1 && -fd < MAXTAG ? -fd : 0;
}

static uint32_t on_entry(uint32_t action, struct utrace_engine *e)
{
	struct thr *th = utrace_engine_data(e);
	struct seen *s = th->s;
	struct utrace_syscall sc;
	long tag;

	if (utrace_syscall_get(e, &sc) < 0) {
		s->bad++;
		return UTRACE_RESUME;
	}
	s->entries++;
	seq_add(th, sc.nr, false);
	s->from_records += utrace_from_record(e) == 1;
	tag = tag_of(&sc);
	if (tag)
		s->mark_entry[tag]++;
	if (sc.nr == SYS_getppid)
		s->ppid_entry++;
	return UTRACE_RESUME;
}

static uint32_t on_exit_(uint32_t action, struct utrace_engine *e)
{
	struct thr *th = utrace_engine_data(e);
	struct seen *s = th->s;
	struct utrace_syscall sc;
	long tag;

	if (utrace_syscall_get(e, &sc) < 0) {
		s->bad++;
		return UTRACE_RESUME;
	}
	s->exits++;
	seq_add(th, sc.nr, true);
	s->from_records += utrace_from_record(e) == 1;
	tag = tag_of(&sc);
	if (tag && sc.ret == -EBADF)
		s->mark_exit[tag]++;
	if (sc.nr == SYS_getppid && sc.ret >= 0)
		s->ppid_exit++;
	return UTRACE_RESUME;
}

/* The program's status: its leader's death, the last one (an execve by
 * another thread reports the former leader's death first). */
static uint32_t on_death(struct utrace_engine *e, bool group_dead, int status)
{
	struct seen *s = ((struct thr *)utrace_engine_data(e))->s;

	if (group_dead && utrace_engine_tid(e) == s->pid) {
		s->status = status;
		s->dead = true;
	}
	return UTRACE_RESUME;
}

static const struct utrace_engine_ops ops = {
	.report_syscall_entry = on_entry,
	.report_syscall_exit = on_exit_,
	.report_death = on_death,
};

static int observe(struct seen *s, pid_t tid)
{
	struct utrace_engine *e;
	struct thr *th = calloc(1, sizeof(*th));
	int r;

	CHECK(th != NULL && s->nthr < MAXTHR);
	th->s = s;
	s->thr[s->nthr++] = th;
	r = utrace_attach(s->t, tid, UTRACE_ATTACH_CREATE, &ops, th, &e);

	if (r)
		return r;
	r = utrace_set_events(e, UTRACE_EVENT_SYSCALL | UTRACE_EVENT(DEATH));
	if (!r)
		r = utrace_set_observer(e, true);
	utrace_engine_put(e);
	return r;
}

/* utrace_follow: an observer on each new thread and child. */
static int follow(void *arg, pid_t tid, pid_t tgid, pid_t parent,
		  unsigned long clone_flags)
{
	return observe(arg, tid);
}

/* The whole of file @path, NUL-terminated (static); "" if absent. */
static const char *slurp(const char *path)
{
	static char buf[3][65536];
	static int slot;
	char *b = buf[slot++ % 3];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? 0 : read(fd, b, sizeof(buf[0]) - 1);

	if (fd >= 0)
		close(fd);
	b[n > 0 ? n : 0] = '\0';
	return b;
}

struct run {
	char out[64], expect[80];
	int status;
};

/* Native: @argv with stdout and stderr to r->out, TP_EXPECT=r->expect. */
static void native(char *const argv[], struct run *r)
{
	pid_t pid;
	int st;

	unlink(r->expect);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		int fd = open(r->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 1) != 1 || dup2(fd, 2) != 2)
			_exit(126);
		setenv("TP_EXPECT", r->expect, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	r->status = st;
}

/* Traced: the same, spawned by a tracer with records @mode. */
static void traced(char *const argv[], struct run *r, unsigned mode,
		   struct seen *s)
{
	struct utrace_tracer *t = NULL;
	int fd, saved1, saved2, rc;
	pid_t pid = -1;

	CHECK_EQ(utrace_tracer_new(&t), 0);
	s->t = t;
	rc = utrace_tracer_set_records(t, mode);
	if (rc == -EOPNOTSUPP)
		SKIP("no syscall user dispatch for tracers (Linux 6.11) or "
		     "no FSGSBASE");
	CHECK_EQ(rc, 0);
	for (long nr = 0; nr < 512; nr++)
		utrace_set_capture(t, nr, NULL, 0);	/* not every nr exists */
	unlink(r->expect);
	setenv("TP_EXPECT", r->expect, 1);
	fflush(NULL);
	fd = open(r->out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	CHECK(fd >= 0);
	saved1 = fcntl(1, F_DUPFD_CLOEXEC, 10);
	saved2 = fcntl(2, F_DUPFD_CLOEXEC, 10);
	CHECK(saved1 >= 0 && saved2 >= 0);
	CHECK(dup2(fd, 1) == 1 && dup2(fd, 2) == 2);
	rc = utrace_spawn(t, argv, NULL, &pid);
	CHECK(dup2(saved1, 1) == 1 && dup2(saved2, 2) == 2);
	close(saved1);
	close(saved2);
	close(fd);
	unsetenv("TP_EXPECT");
	CHECK_EQ(rc, 0);
	s->pid = pid;
	CHECK_EQ(observe(s, pid), 0);
	CHECK_EQ(utrace_follow(t, pid, UTRACE_WATCH_PROCESS |
			       UTRACE_WATCH_CHILDREN, follow, s), 0);
	CHECK(utrace_run(t) >= 0);
	CHECK(s->dead);
	r->status = s->status;
	{
		uint64_t st[4] = { 0 };

		utrace_tracer_record_stats(t, st, 4);
		fprintf(stderr, "# records %s: %llu delivered, %llu traps, %llu "
			"sites rewritten, %llu traps to stops; %ld entries, "
			"%ld exits, %ld from records\n",
			mode == UTRACE_RECORDS_ON ? "on" : "off",
			(unsigned long long)st[0], (unsigned long long)st[1],
			(unsigned long long)st[2], (unsigned long long)st[3],
			s->entries, s->exits, s->from_records);
	}
	utrace_tracer_free(t);
}

/* The observers saw what the program says it made: 0, or 1 (printed). */
static int counts(const struct run *r, const struct seen *s, const char *how)
{
	const char *p = slurp(r->expect);
	int bad = 0, n = 0;

	while (*p) {
		long cnt, tag;
		int len = 0;

		if (*p == '-') {
			/* a line that may vary (tp_vary), not a count */
		} else if (sscanf(p, "%ld\tclose\\(-%ld\\) = -1 EBADF %n", &cnt,
			   &tag, &len) == 2 && len && tag > 0 && tag < MAXTAG) {
			n++;
			if (s->mark_entry[tag] != cnt || s->mark_exit[tag] != cnt) {
				fprintf(stderr, "# %s: close(-%ld): %ld calls, "
					"%ld entries and %ld exits seen\n", how,
					tag, cnt, s->mark_entry[tag],
					s->mark_exit[tag]);
				bad = 1;
			}
		} else if (sscanf(p, "%ld\tgetppid\\(\\) = \\d+%n", &cnt,
				  &len) == 1 && len && p[len] == '\n') {
			n++;
			if (s->ppid_entry != cnt || s->ppid_exit != cnt) {
				fprintf(stderr, "# %s: getppid: %ld calls, %ld "
					"entries and %ld exits seen\n", how,
					cnt, s->ppid_entry, s->ppid_exit);
				bad = 1;
			}
		}
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	if (!n) {
		fprintf(stderr, "# %s: the program wrote no count of markers "
			"or getppid\n", how);
		bad = 1;
	}
	if (s->bad) {
		fprintf(stderr, "# %s: utrace_syscall_get failed %ld times\n",
			how, s->bad);
		bad = 1;
	}
	return bad;
}

static int seq_cmp(const void *a_, const void *b_)
{
	const struct thr *a = *(struct thr *const *)a_;
	const struct thr *b = *(struct thr *const *)b_;

	for (size_t i = 0; i < a->n && i < b->n; i++)
		if (a->seq[i] != b->seq[i])
			return a->seq[i] < b->seq[i] ? -1 : 1;
	return a->n < b->n ? -1 : a->n > b->n;
}

/*
 * Every thread's syscalls, in order, the same with records as with stops
 * (threads matched as sorted sequences: their tids differ): 0, or 1 with
 * the first difference printed.
 */
static int same_calls(struct seen *off, struct seen *on)
{
	qsort(off->thr, off->nthr, sizeof(off->thr[0]), seq_cmp);
	qsort(on->thr, on->nthr, sizeof(on->thr[0]), seq_cmp);
	if (off->nthr != on->nthr) {
		fprintf(stderr, "# records on: %d threads observed, off: %d\n",
			on->nthr, off->nthr);
		return 1;
	}
	for (int i = 0; i < on->nthr; i++) {
		const struct thr *a = off->thr[i], *b = on->thr[i];
		size_t k = 0;

		if (!seq_cmp(&a, &b))
			continue;
		while (k < a->n && k < b->n && a->seq[k] == b->seq[k])
			k++;
		fprintf(stderr, "# records on: a thread's calls (%zu events) "
			"differ from the stop path's (%zu) at event %zu; "
			"syscall numbers from there, +entry -exit:\n# on: ",
			b->n, a->n, k);
		for (size_t j = k; j < b->n && j < k + 12; j++)
			fprintf(stderr, " %c%ld", b->seq[j] & 1 ? '-' : '+',
				b->seq[j] / 2);
		fprintf(stderr, "\n# off:");
		for (size_t j = k; j < a->n && j < k + 12; j++)
			fprintf(stderr, " %c%ld", a->seq[j] & 1 ? '-' : '+',
				a->seq[j] / 2);
		fprintf(stderr, "\n");
		return 1;
	}
	return 0;
}

/*
 * @prog ARGS under records on and off, against its native run.  @known:
 * a failure of the record path found by this test and not fixed yet: the
 * test then ends in a SKIP that names it, visible in every run (a failure
 * that depends on timing may not show: then the test passes, and says so).
 */
static void check(const char *prog, const char *arg, const char *known,
		  bool deterministic)
{
	char *argv[] = { (char *)test_prog(prog), (char *)arg, NULL };
	static struct seen s_on, s_off;
	struct run nat, on, off;
	int bad[2] = { 0, 0 };

	snprintf(nat.out, sizeof(nat.out), "/tmp/tp-rec.%d.native", getpid());
	snprintf(on.out, sizeof(on.out), "/tmp/tp-rec.%d.on", getpid());
	snprintf(off.out, sizeof(off.out), "/tmp/tp-rec.%d.off", getpid());
	snprintf(nat.expect, sizeof(nat.expect), "%s.exp", nat.out);
	snprintf(on.expect, sizeof(on.expect), "%s.exp", on.out);
	snprintf(off.expect, sizeof(off.expect), "%s.exp", off.out);
	native(argv, &nat);
	traced(argv, &off, UTRACE_RECORDS_OFF, &s_off);
	traced(argv, &on, UTRACE_RECORDS_ON, &s_on);
	for (int i = 0; i < 2; i++) {
		const struct run *r = i ? &on : &off;
		const char *how = i ? "records on" : "records off";

		if (r->status != nat.status ||
		    strcmp(slurp(r->out), slurp(nat.out))) {
			fprintf(stderr, "# %s: status %#x, native %#x; output:\n"
				"%s# native output:\n%s", how, r->status,
				nat.status, slurp(r->out), slurp(nat.out));
			bad[i] = 1;
		}
	}
	bad[0] |= counts(&off, &s_off, "records off");
	bad[1] |= counts(&on, &s_on, "records on");
	if (deterministic)
		bad[1] |= same_calls(&s_off, &s_on);
	unlink(nat.out);
	unlink(on.out);
	unlink(off.out);
	unlink(nat.expect);
	unlink(on.expect);
	unlink(off.expect);
	CHECK_EQ(bad[0], 0);
	if (known && bad[1])
		SKIP(known);
	if (known)
		fprintf(stderr, "# the known failure did not show this time "
			"(it may come and go; once fixed, remove it): %s\n",
			known);
	CHECK_EQ(bad[1], 0);
}

#define KNOWN "known record-path failure: "

TEST_T(clone_threads_on_their_own_stacks, 120)
{
	check("tp_clone", NULL, NULL, true);
}

TEST_T(vfork_children, 120)
{
	/* posix_spawn blocks every signal; its child then resets the
	 * handlers of the blocked ones: two rt_sigaction fewer. */
	check("tp_vfork", NULL, NULL, true);
}

TEST_T(timer_signal_handlers_making_syscalls, 120)
{
	/* Seen once in a CI run: 17,204 getppid calls, 17,205 entries. */
	check("tp_signal", NULL, KNOWN "a timer signal that lands while a "
	      "syscall is being recorded can have its entry reported twice",
	      false);
}

TEST_T(eintr_sa_restart_restart_syscall, 120)
{
	check("tp_restart", NULL, NULL, true);
}

TEST_T(registers_across_syscalls, 120)
{
	check("tp_regs", NULL, NULL, true);
}

TEST_T(red_zone_across_syscalls, 120)
{
	check("tp_redzone", NULL, NULL, false);
}

TEST_T(alternate_signal_stack, 120)
{
	check("tp_altstack", NULL, NULL, false);
}

TEST_T(own_seccomp_filter_and_sigsys, 120)
{
	check("tp_seccomp", NULL, NULL, true);
}

TEST_T(own_syscall_user_dispatch, 120)
{
	check("tp_sud", NULL, NULL, true);
}

TEST_T(jit_code_rewritten, 120)
{
	check("tp_jit", NULL, NULL, true);
}

TEST_T(execve_from_a_non_leader_thread, 120)
{
	check("tp_exec_thread", NULL, NULL, true);
}

TEST_T(threads_16, 120)
{
	check("tp_threads", "1000", NULL, true);
}

int main(void)
{
	return test_main();
}
