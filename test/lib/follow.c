/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * utrace_follow on real tracees: a fork/thread tree followed whole, by
 * threads only and by children only, the other threads of a running
 * process taken on, unfollowing, and every error code.
 */
#include <sched.h>
#include "tlib.h"

static const long ppid_nr[] = { SYS_getppid };

/* What a follow callback saw; it attaches a recording engine. */
struct fctx {
	struct utrace_tracer *t;
	unsigned long events;
	int n;
	pid_t tid[32], tgid[32], parent[32];
	unsigned long flags[32];
	bool fail_procs;	/* fn fails for new processes */
	int ok;			/* calls that attached an engine */
};

static int f_attach(void *arg, pid_t tid, pid_t tgid, pid_t parent,
		    unsigned long clone_flags)
{
	struct fctx *f = arg;
	struct teng *te;

	CHECK(f->n < 32);
	f->tid[f->n] = tid;
	f->tgid[f->n] = tgid;
	f->parent[f->n] = parent;
	f->flags[f->n] = clone_flags;
	f->n++;
	if (f->fail_procs && !(clone_flags & CLONE_THREAD))
		return -EPERM;
	if (!parent) {
		/*
		 * An existing thread whose clone event the tracer has not
		 * handled yet cannot be attached now (it is ours already);
		 * it is offered again at that event, its parent followed.
		 */
		struct utrace_engine *e;
		int err = utrace_attach(f->t, tid, UTRACE_ATTACH_CREATE,
					&t_ops, teng_new(NULL), &e);

		if (err)
			return err;
		utrace_engine_put(e);
		te = &tengs[tengs_n - 1];
		te->e = e;
		te->tid = tid;
		CHECK_EQ(utrace_set_events(e, f->events), 0);
	} else {
		te = t_attach(f->t, tid, f->events, NULL);
	}
	CHECK_EQ(utrace_set_syscalls(te->e, ppid_nr, 1), 0);
	f->ok++;
	return 0;
}

static struct teng *root_engine(struct fctx *f, pid_t pid)
{
	struct teng *te = t_attach(f->t, pid, f->events, NULL);

	CHECK_EQ(utrace_set_syscalls(te->e, ppid_nr, 1), 0);
	return te;
}

static int index_of(const struct fctx *f, pid_t tid)
{
	for (int i = 0; i < f->n; i++)
		if (f->tid[i] == tid)
			return i;
	return -1;
}

/*
 * Distinct threads whose engine saw getppid's entry (@once: each once,
 * as in queue_prog tree).
 */
static int ppid_threads_n(bool once)
{
	pid_t seen[64];
	int n = 0;

	for (int i = 0; i < tlog_n; i++) {
		bool dup = false;

		if (tlog[i].kind != K_SYSENTRY)
			continue;
		CHECK_EQ(tlog[i].nr, SYS_getppid);
		for (int j = 0; j < n; j++)
			dup |= seen[j] == tlog[i].tid;
		CHECK(!once || !dup);
		if (dup)
			continue;
		CHECK(n < 64);
		seen[n++] = tlog[i].tid;
	}
	return n;
}

#define ppid_threads() ppid_threads_n(true)

/*
 * An engine of the root thread: in its report_clone, is the follow's
 * engine (t_ops) on the new thread already?
 */
static struct utrace_tracer *chk_t;
static int chk_clones, chk_found;

static uint32_t chk_clone(uint32_t action, struct utrace_engine *e,
			  unsigned long flags, pid_t child)
{
	struct utrace_engine *ce;

	chk_clones++;
	if (utrace_attach(chk_t, child, UTRACE_ATTACH_MATCH_OPS, &t_ops, NULL,
			  &ce) == 0) {
		chk_found++;
		utrace_engine_put(ce);
	}
	return UTRACE_RESUME;
}

static const struct utrace_engine_ops chk_ops = {
	.report_clone = chk_clone,
};

static void run_tree(struct fctx *f, unsigned flags, int *out)
{
	pid_t pid = t_spawn(f->t, out, "queue_prog", "tree", NULL);
	struct utrace_engine *e;

	f->events = UTRACE_EVENT(SYSCALL_ENTRY) | UTRACE_EVENT(DEATH);
	root_engine(f, pid);
	chk_t = f->t;
	CHECK_EQ(utrace_attach(f->t, pid, UTRACE_ATTACH_CREATE, &chk_ops, NULL,
			       &e), 0);
	CHECK_EQ(utrace_set_events(e, UTRACE_EVENT(CLONE)), 0);
	utrace_engine_put(e);
	CHECK_EQ(utrace_follow(f->t, pid, flags, f_attach, f), 0);
	t_run(f->t);
}

TEST(follow_tree)
{
	struct fctx f = { .t = t_tracer() };
	int out, threads = 0, procs = 0;

	run_tree(&f, UTRACE_WATCH_PROCESS | UTRACE_WATCH_CHILDREN, &out);
	/* main's 2 threads, 2 children and their 2 threads each. */
	CHECK_EQ(f.n, 8);
	for (int i = 0; i < f.n; i++) {
		int p = index_of(&f, f.parent[i]);

		CHECK(f.parent[i] > 0);
		/* Each thread is taken on once, after its parent. */
		CHECK_EQ(index_of(&f, f.tid[i]), i);
		CHECK(p < i);
		if (f.flags[i] & CLONE_THREAD) {
			threads++;
			/* Its parent's process: the root's, or a child's. */
			CHECK(p < 0 ? f.tgid[i] == f.parent[i] :
				      f.tgid[i] == f.tgid[p]);
			CHECK(f.tgid[i] != f.tid[i]);
		} else {
			procs++;
			CHECK_EQ(f.tgid[i], f.tid[i]);
			CHECK(p < 0);	/* forked by the root's main thread */
		}
	}
	CHECK_EQ(threads, 6);
	CHECK_EQ(procs, 2);
	/* The root's 2 threads and 2 forks: each child's engine in place. */
	CHECK_EQ(chk_clones, 4);
	CHECK_EQ(chk_found, 4);
	/* Every engine was there before its thread ran: 9 getppid entries. */
	CHECK_EQ(ppid_threads(), 9);
	CHECK_STR(t_read_all(out), "tree done\n");
	utrace_tracer_free(f.t);
}

TEST(follow_threads_only)
{
	struct fctx f = { .t = t_tracer() };
	int out;

	run_tree(&f, UTRACE_WATCH_PROCESS, &out);
	CHECK_EQ(f.n, 2);
	for (int i = 0; i < f.n; i++)
		CHECK(f.flags[i] & CLONE_THREAD);
	CHECK_EQ(ppid_threads(), 3);
	CHECK_STR(t_read_all(out), "tree done\n");
	utrace_tracer_free(f.t);
}

TEST(follow_children_only)
{
	struct fctx f = { .t = t_tracer() };
	int out;

	run_tree(&f, UTRACE_WATCH_CHILDREN, &out);
	/* The two children, not their threads nor main's. */
	CHECK_EQ(f.n, 2);
	for (int i = 0; i < f.n; i++) {
		CHECK(!(f.flags[i] & CLONE_THREAD));
		CHECK_EQ(f.tgid[i], f.tid[i]);
	}
	CHECK_EQ(ppid_threads(), 3);
	CHECK_STR(t_read_all(out), "tree done\n");
	utrace_tracer_free(f.t);
}

/* A callback that fails: that thread is not followed, the others are. */
TEST(follow_fn_fails)
{
	struct fctx f = { .t = t_tracer(), .fail_procs = true };
	int out;

	run_tree(&f, UTRACE_WATCH_PROCESS | UTRACE_WATCH_CHILDREN, &out);
	/* main's 2 threads and the 2 children, whose threads are not offered. */
	CHECK_EQ(f.n, 4);
	CHECK_EQ(ppid_threads(), 3);
	CHECK_STR(t_read_all(out), "tree done\n");
	utrace_tracer_free(f.t);
}

/* UTRACE_WATCH_PROCESS on a running process: its threads now, parent 0. */
TEST(follow_existing_threads)
{
	struct fctx f = { .t = t_tracer() };
	pid_t pid = t_spawn(f.t, NULL, "threads_idle", "4", "30", NULL);
	pid_t tids[16];
	int n;

	f.events = UTRACE_EVENT(SYSCALL_ENTRY);
	root_engine(&f, pid);
	CHECK(DISPATCH_UNTIL(f.t, t_tasks(pid, tids, 16) == 5, 20000));
	n = utrace_follow(f.t, pid, UTRACE_WATCH_PROCESS, f_attach, &f);
	CHECK(n >= 0 && n <= 4);
	CHECK_EQ(f.ok, n);
	for (int i = 0; i < f.n; i++) {
		CHECK_EQ(f.parent[i], 0);
		CHECK_EQ(f.flags[i], 0);
		CHECK_EQ(f.tgid[i], pid);
		CHECK(f.tid[i] != pid);
	}
	/* Every thread's engine sees getppid (late ones at their clone). */
	CHECK(DISPATCH_UNTIL(f.t, ppid_threads_n(false) == 5, 20000));
	CHECK_EQ(f.ok, 4);
	/* Again: every thread is followed already; nothing new. */
	n = f.n;
	CHECK_EQ(utrace_follow(f.t, pid, UTRACE_WATCH_PROCESS, f_attach, &f),
		 0);
	CHECK_EQ(f.n, n);
	kill(pid, SIGKILL);
	t_run(f.t);
	utrace_tracer_free(f.t);
}

/* Unfollowed before the tree runs: the callback is never called. */
TEST(unfollow)
{
	struct fctx f = { .t = t_tracer() };
	int out;
	pid_t pid = t_spawn(f.t, &out, "queue_prog", "tree", NULL);

	f.events = UTRACE_EVENT(SYSCALL_ENTRY);
	root_engine(&f, pid);
	CHECK_EQ(utrace_follow(f.t, pid, UTRACE_WATCH_PROCESS |
			       UTRACE_WATCH_CHILDREN, f_attach, &f), 0);
	CHECK_EQ(utrace_follow(f.t, pid, 0, f_attach, &f), 0);
	CHECK_EQ(utrace_follow(f.t, pid, 0, f_attach, &f), -ENOENT);
	t_run(f.t);
	CHECK_EQ(f.n, 0);
	CHECK_EQ(ppid_threads(), 1);
	CHECK_STR(t_read_all(out), "tree done\n");
	utrace_tracer_free(f.t);
}

TEST(follow_errors)
{
	struct fctx f = { .t = t_tracer() };
	pid_t pid = t_spawn(f.t, NULL, "queue_prog", "tree", NULL);

	root_engine(&f, pid);
	CHECK_EQ(utrace_follow(NULL, pid, UTRACE_WATCH_PROCESS, f_attach, &f),
		 -EINVAL);
	CHECK_EQ(utrace_follow(f.t, 0, UTRACE_WATCH_PROCESS, f_attach, &f),
		 -EINVAL);
	CHECK_EQ(utrace_follow(f.t, pid, UTRACE_WATCH_PROCESS, NULL, &f),
		 -EINVAL);
	CHECK_EQ(utrace_follow(f.t, pid, 0x4, f_attach, &f), -EINVAL);
	/* Not traced by this tracer: the test itself. */
	CHECK_EQ(utrace_follow(f.t, getpid(), UTRACE_WATCH_PROCESS, f_attach,
			       &f), -ESRCH);
	CHECK_EQ(utrace_follow(f.t, pid, 0, f_attach, &f), -ENOENT);
	kill(pid, SIGKILL);
	t_run(f.t);
	/* Dead and gone. */
	CHECK_EQ(utrace_follow(f.t, pid, UTRACE_WATCH_PROCESS, f_attach, &f),
		 -ESRCH);
	utrace_tracer_free(f.t);
}

int main(void)
{
	return test_main();
}
