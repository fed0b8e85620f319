// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Following a process and its children (utrace_follow(3)).
 *
 * A follow is a callback, fn(arg), kept on each thread it covers with the
 * UTRACE_WATCH_* flags of its watch.  At a followed thread's clone event,
 * before the report_clone pass and while the new thread is held for that
 * event (HOLD_CLONE), fn is called for the new thread if the
 * flags cover it (a thread: UTRACE_WATCH_PROCESS, a process:
 * UTRACE_WATCH_CHILDREN); fn attaches its engines, and the new thread is
 * followed in turn with the same flags.  It is not an engine: it costs a
 * thread nothing but this list, and a clone nothing when the list is empty.
 *
 * The queue's watches (src/queue/watch.c) and the utrace command's -f use it.  Loop
 * thread only.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/sched.h>

#include "core/internal.h"

static struct utrace__follow *follow_find(const struct uthread *th,
					  utrace_follow_fn fn, void *arg)
{
	for (struct utrace__follow *f = th->follows; f; f = f->next)
		if (f->fn == fn && f->arg == arg)
			return f;
	return NULL;
}

/* Follow @th with (@fn, @arg) and @flags: 0, or -ENOMEM. */
static int follow_add(struct uthread *th, utrace_follow_fn fn, void *arg,
		      unsigned flags)
{
	struct utrace__follow *f = follow_find(th, fn, arg), **pp;

	if (f) {
		f->flags = flags;
		return 0;
	}
	f = malloc(sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->fn = fn;
	f->arg = arg;
	f->flags = flags;
	f->next = NULL;
	/* In the order they were made: the callers' attach order. */
	for (pp = &th->follows; *pp; pp = &(*pp)->next)
		;
	*pp = f;
	return 0;
}

static void follow_remove(struct uthread *th, struct utrace__follow *f)
{
	for (struct utrace__follow **pp = &th->follows; *pp;
	     pp = &(*pp)->next) {
		if (*pp == f) {
			*pp = f->next;
			free(f);
			return;
		}
	}
}

void utrace__follow_free(struct uthread *th)
{
	while (th->follows) {
		struct utrace__follow *f = th->follows;

		th->follows = f->next;
		free(f);
	}
}

/**
 * utrace__follow_clone - the follows of @th take on its new thread @child
 * (before the report_clone pass, the child held for it)
 */
void utrace__follow_clone(struct uthread *th, pid_t child,
			  unsigned long clone_flags)
{
	struct utrace_tracer *t = th->t;
	unsigned want = clone_flags & CLONE_THREAD ? UTRACE_WATCH_PROCESS :
						     UTRACE_WATCH_CHILDREN;
	struct utrace__follow *f;
	unsigned n = 0, i;

	for (f = th->follows; f; f = f->next)
		n++;
	if (!n || child <= 0)
		return;
	{
		/* A copy: fn may follow or unfollow meanwhile. */
		struct utrace__follow list[n];
		pid_t tid = th->tid;

		for (i = 0, f = th->follows; f; f = f->next)
			list[i++] = *f;
		for (i = 0; i < n; i++) {
			struct uthread *c = utrace__thread_find(t, child);

			if (!c || c->state == TH_DEAD)
				return;
			if (!(list[i].flags & want) ||
			    follow_find(c, list[i].fn, list[i].arg))
				continue;
			if (list[i].fn(list[i].arg, child, c->tgid, tid,
				       clone_flags))
				continue;
			c = utrace__thread_find(t, child);
			if (c && !follow_find(c, list[i].fn, list[i].arg))
				follow_add(c, list[i].fn, list[i].arg,
					   list[i].flags);
		}
	}
}

struct follow_args {
	struct utrace_tracer *t;
	pid_t tid;
	unsigned flags;
	utrace_follow_fn fn;
	void *arg;
};

/* Every other thread of @tgid: again until no new one shows up. */
static int follow_threads(const struct follow_args *a, pid_t tgid)
{
	int n = 0;

	for (bool again = true; again;) {
		char path[64];
		struct dirent *d;
		DIR *dir;

		again = false;
		snprintf(path, sizeof(path), "/proc/%d/task", tgid);
		dir = opendir(path);
		if (!dir)
			break;
		while ((d = readdir(dir))) {
			pid_t tid = atoi(d->d_name);
			struct uthread *th;

			if (tid <= 0 || tid == a->tid)
				continue;
			th = utrace__thread_find(a->t, tid);
			if (th && follow_find(th, a->fn, a->arg)) {
				follow_add(th, a->fn, a->arg, a->flags);
				continue;
			}
			if (a->fn(a->arg, tid, tgid, 0, 0))
				continue;
			th = utrace__thread_find(a->t, tid);
			if (!th || th->state == TH_DEAD ||
			    follow_add(th, a->fn, a->arg, a->flags))
				continue;
			n++;
			again = true;
		}
		closedir(dir);
	}
	return n;
}

/**
 * utrace__follow - utrace_follow on the loop thread
 * @threads: with UTRACE_WATCH_PROCESS, take on the process's other threads
 *	now (else only @tid's follow is set)
 */
int utrace__follow(struct utrace_tracer *t, pid_t tid, unsigned flags,
		   utrace_follow_fn fn, void *arg, bool threads)
{
	struct follow_args a = { t, tid, flags, fn, arg };
	struct uthread *th = utrace__thread_find(t, tid);
	struct utrace__follow *f;
	int err;

	if (!th || th->state == TH_DEAD)
		return -ESRCH;
	f = follow_find(th, fn, arg);
	if (!flags) {
		if (!f)
			return -ENOENT;
		follow_remove(th, f);
		return 0;
	}
	err = follow_add(th, fn, arg, flags);
	if (err)
		return err;
	if (!threads || !(flags & UTRACE_WATCH_PROCESS))
		return 0;
	return follow_threads(&a, th->tgid);
}

static int do_follow(void *arg)
{
	struct follow_args *a = arg;

	return utrace__follow(a->t, a->tid, a->flags, a->fn, a->arg, true);
}

/**
 * utrace_follow - attach engines to a process's new threads and children
 * before they run.  See utrace_follow(3).
 *
 * Returns the number of other threads of the process @fn took on now
 * (UTRACE_WATCH_PROCESS), 0, or -EINVAL, -ESRCH (@tid not traced by @t),
 * -ENOENT (flags 0 and @tid not followed with @fn, @arg), -ENOMEM.
 */
UTRACE_EXPORT int utrace_follow(struct utrace_tracer *t, pid_t tid,
				unsigned flags, utrace_follow_fn fn, void *arg)
{
	struct follow_args a = { t, tid, flags, fn, arg };

	if (!t || tid <= 0 || !fn ||
	    (flags & ~(unsigned)(UTRACE_WATCH_PROCESS | UTRACE_WATCH_CHILDREN)))
		return -EINVAL;
	return utrace__call(t, do_follow, &a);
}
