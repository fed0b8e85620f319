// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace -p PID on a process that another serving tracer already traces
 * (another utrace, utraced, any program that called utrace_tracer_serve):
 * instead of failing as ptrace does, join that tracer with
 * utrace_queue_connect and print from the queue's records what the
 * printer engine prints alone.  Syscall entries and exits are held, so
 * that the decoders read the thread's memory (utrace_queue_mem_readv)
 * while it waits, then replied UTRACE_RESUME; with --inject, the entry's
 * reply aborts the syscall and sets its return value, as the injector
 * engine does.  -f watches the whole process and its children.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli.h"
#include "util/tidmap.h"

struct jthr {
	struct join *j;
	pid_t tid, tgid;
	struct pthr *p;		/* the printer's state */
	struct cthr *c;		/* the counter's (-c, -C) */
	bool fresh;		/* no syscall record seen yet */
	unsigned (*count)[NR_MAX];	/* --inject: per rule, per syscall */
	bool injected;		/* --inject aborted the current syscall */
	long inj_ret;		/* with this return value */
};

struct join {
	const struct options *o;
	struct printer *p;	/* NULL: nothing printed */
	struct counter *c;	/* NULL: nothing counted */
	struct sink *out;	/* messages */
	struct utrace_queue *q;
	pid_t pid;
	struct tidmap threads;	/* tid -> struct jthr */
	int live;
};

/* The decoders' memory reader: one range, through the serving tracer. */
static ssize_t jmem_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct jthr *t = ctx;
	struct utrace_iov iov = { addr, buf, len };
	ssize_t n = utrace_queue_mem_readv(t->j->q, t->tid, &iov, 1);

	return n;
}

static struct jthr *jthr_find(struct join *j, pid_t tid)
{
	return tidmap_get(&j->threads, tid);
}

static void jthr_free(struct join *j, struct jthr *t)
{
	if (t->p)
		printer_thread_end(t->p);
	counter_thread_end(t->c);
	free(t->count);
	free(t);
	j->live--;
}

static struct jthr *jthr_new(struct join *j, pid_t tid, pid_t tgid)
{
	const struct options *o = j->o;
	struct jthr *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->j = j;
	t->tid = tid;
	t->tgid = tgid;
	t->fresh = true;
	if (o->ninject)
		t->count = calloc(MAX_INJECT, sizeof(*t->count));
	if (j->p)
		t->p = printer_thread_new(j->p, tid, tgid);
	if (j->c)
		t->c = counter_thread_new(j->c, tid);
	j->live++;
	if ((o->ninject && !t->count) || (j->p && !t->p) ||
	    (j->c && !t->c) || tidmap_put(&j->threads, tid, t)) {
		jthr_free(j, t);
		return NULL;
	}
	return t;
}

static void jthr_end(struct join *j, struct jthr *t)
{
	if (tidmap_get(&j->threads, t->tid) == t)
		tidmap_del(&j->threads, t->tid);
	jthr_free(j, t);
}

static bool traced_nr(const struct options *o, long nr)
{
	return o->trace_all || (nr >= 0 && nr < NR_MAX && o->trace_set[nr]);
}

/* --inject at a held entry: the reply that aborts the syscall, if any. */
static void inject_entry(struct jthr *t, long nr, struct utrace_reply *r)
{
	const struct options *o = t->j->o;
	int i;
	bool done = false;

	if (!o->ninject || nr < 0 || nr >= NR_MAX)
		return;
	for (i = 0; i < o->ninject; i++) {
		const struct inject_rule *ru = &o->inject[i];
		unsigned n;

		if (!ru->set[nr])
			continue;
		n = ++t->count[i][nr];
		if (done || n < ru->first || n > ru->last ||
		    (ru->step ? (n - ru->first) % ru->step : n != ru->first))
			continue;
		done = true;
		r->action |= UTRACE_SYSCALL_ABORT;
		r->flags |= UTRACE_REPLY_RETURN;
		r->ret = ru->error ? -ru->error : ru->retval;
		t->injected = true;
		t->inj_ret = r->ret;
	}
}

/* A non-leader executed: it now has the leader's id. */
static void on_exec(struct join *j, struct jthr *t, pid_t tid, pid_t former)
{
	struct jthr *old;

	if (former != tid) {
		old = jthr_find(j, former);
		if (old && old != t) {
			/* t is the leader's old state: the former's goes on. */
			jthr_end(j, t);
			t = old;
		}
	}
	if (t->p)
		printer_exec(t->p, tid, former);
	if (t->c)
		counter_exec(t->c, tid);
	if (t->tid != tid) {
		tidmap_del(&j->threads, t->tid);
		t->tid = tid;
		/* Failing, the thread's records make a new state. */
		if (tidmap_put(&j->threads, tid, t)) {
			jthr_free(j, t);
			return;
		}
	}
	t->tgid = tid;
}

static void on_record(struct join *j, const struct utrace_event *ev,
		      struct utrace_reply *r)
{
	const struct options *o = j->o;
	struct jthr *t = jthr_find(j, ev->tid);

	if (!t && ev->type == UTRACE_EVENT(EXEC) && ev->former_tid != ev->tid)
		t = jthr_find(j, ev->former_tid);
	if (!t) {
		/* A thread whose clone record has not come yet. */
		t = jthr_new(j, ev->tid, ev->pid);
		if (!t)
			return;
	}
	switch (ev->type) {
	case UTRACE_EVENT(SYSCALL_ENTRY):
		t->fresh = false;
		t->injected = false;
		if (!traced_nr(o, ev->syscall.nr) && !o->ninject)
			break;
		inject_entry(t, ev->syscall.nr, r);
		if (t->p && traced_nr(o, ev->syscall.nr))
			printer_entry(t->p, &ev->syscall, jmem_read, t, NULL);
		if (t->c && traced_nr(o, ev->syscall.nr))
			counter_entry(t->c, ev->syscall.nr, &ev->time);
		break;
	case UTRACE_EVENT(SYSCALL_EXIT):
		/*
		 * Joined while the thread was in a syscall: a tracer of its
		 * own would have interrupted it and seen it restart from its
		 * entry.  The arguments are still there: print it whole.
		 */
		if (t->p && traced_nr(o, ev->syscall.nr) && t->fresh)
			printer_entry(t->p, &ev->syscall, jmem_read, t, NULL);
		t->fresh = false;
		/*
		 * (INJECTED) only when the thread got our value: another
		 * engine's later change would show a different one.
		 */
		if (t->injected && ev->syscall.ret != t->inj_ret)
			t->injected = false;
		if (t->p && traced_nr(o, ev->syscall.nr)) {
			printer_note(t->p, t->injected ? INJ_NOTE_INJECTED : 0);
			printer_exit(t->p, &ev->syscall, NULL);
		}
		/* A call joined in the middle has no entry: not counted. */
		if (t->c)
			counter_exit(t->c, ev->syscall.ret, &ev->time);
		t->injected = false;
		break;
	case UTRACE_EVENT(CLONE):
		if (!o->follow || jthr_find(j, ev->child))
			break;
		if (!jthr_new(j, ev->child, ev->clone_flags & CLONE_THREAD ?
			      t->tgid : ev->child))
			break;
		if (!(o->print.quiet & Q_ATTACH) && !o->print.json)
			sink_msg(j->out, "Process %d attached", ev->child);
		break;
	case UTRACE_EVENT(EXEC):
		on_exec(j, t, ev->tid, ev->former_tid);
		break;
	case UTRACE_EVENT(JCTL):
		if (t->p)
			printer_jctl(t->p, ev->jctl_type, NULL);
		break;
	case UTRACE_EVENT(DEATH):
		if (t->p)
			printer_death(t->p, ev->group_dead, ev->status);
		/* A leader that another thread's exec replaces lives on. */
		if (t->tid == t->tgid && !ev->group_dead)
			break;
		jthr_end(j, t);
		break;
	default:
		if ((ev->type & UTRACE_EVENT_SIGNAL_ALL) && t->p)
			printer_signal(t->p, ev->action, &ev->info, NULL,
				       NULL);
		break;
	}
}

/* The syscalls to see: the printer's set and the injected ones. */
static int set_syscalls(struct join *j)
{
	const struct options *o = j->o;
	size_t k, m = 0;
	long *nrs;
	int i, err;

	if (o->trace_all)
		return 0;	/* all of them */
	nrs = calloc(NR_MAX, sizeof(*nrs));
	if (!nrs)
		return -ENOMEM;
	for (k = 0; k < NR_MAX; k++) {
		bool want = o->trace_set[k];

		for (i = 0; i < o->ninject && !want; i++)
			want = o->inject[i].set[k];
		if (want)
			nrs[m++] = (long)k;
	}
	err = utrace_queue_set_syscalls(j->q, j->pid, nrs, m);
	free(nrs);
	return err;
}

static int count_threads(pid_t pid)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return 1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n ? n : 1;
}

/* What the joined trace cannot do; NULL when the options all work. */
static const char *unsupported(const struct options *o)
{
	int i;

	if (o->print.stack_trace)
		return "-k";
	if (o->trace_paths.n)
		return "-P";
	if (o->timeline)
		return "--timeline";
	if (o->detach_execve)
		return "-b execve";
	if (o->print.print_nr || o->print.print_ip)
		return "-n/-i";
	for (i = 0; i < o->ninject; i++)
		if (o->inject[i].signal || o->inject[i].delay_enter_us ||
		    o->inject[i].delay_exit_us)
			return "--inject with signal= or delay_";
	return NULL;
}

/* tidmap_filter: a thread interrupted (SIGINT...) is detached. */
static bool detach_one(pid_t tid, void *v, void *arg)
{
	struct join *j = arg;
	const struct options *o = j->o;

	(void)v;
	if (!(o->print.quiet & Q_ATTACH) && !o->print.json) {
		fflush(sink_file(j->out));
		fprintf(stderr, "utrace: Process %d detached\n", tid);
	}
	if (j->p)
		printer_detach(j->p, tid);
	return false;
}

/* tidmap_filter: the trace's end; every thread's state goes. */
static bool end_one(pid_t tid, void *v, void *arg)
{
	(void)tid;
	jthr_free(arg, v);
	return true;
}

/* A signal that ends the trace, if one is waiting on @sfd: 0 or its number. */
static int pending_end(int sfd)
{
	struct signalfd_siginfo si;

	if (sfd >= 0 && read(sfd, &si, sizeof(si)) == sizeof(si))
		return (int)si.ssi_signo;
	return 0;
}

int join_trace(const struct options *o, struct printer *p,
	       struct counter *c, struct sink *out, pid_t pid, pid_t tracer_pid,
	       int (*interrupted)(void), int *sig)
{
	struct join j = { .o = o, .p = p, .c = c, .out = out, .pid = pid };
	struct utrace_event ev = { .size = sizeof(ev) };
	const char *no = unsupported(o);
	sigset_t set, old;
	int sfd = -1, err, n, i;
	unsigned long events;
	unsigned flags = o->follow ? UTRACE_WATCH_PROCESS |
				      UTRACE_WATCH_CHILDREN : 0;
	static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGPIPE,
				    SIGTERM };

	*sig = 0;
	if (no) {
		fprintf(stderr, "utrace: process %d is traced by process %d; "
			"%s does not work through a join\n", pid, tracer_pid,
			no);
		return -ENOTSUP;
	}
	/*
	 * From before the first round trip to the serving tracer, the
	 * signals that end the trace wait on a signalfd: one that comes
	 * while we connect and watch ends the join as soon as those are
	 * done (the loop below, or the error path, reads it).  One that
	 * came before this, the command's handler took: @interrupted says.
	 */
	sigemptyset(&set);
	for (i = 0; i < (int)(sizeof(sigs) / sizeof(sigs[0])); i++)
		sigaddset(&set, sigs[i]);
	sigprocmask(SIG_BLOCK, &set, &old);
	sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (interrupted && (*sig = interrupted())) {
		err = 0;
		goto out;
	}
	err = utrace_queue_connect(pid, &j.q);
	if (err)
		goto out;
	events = UTRACE_EVENT_SYSCALL | UTRACE_EVENT_SIGNAL_ALL |
		 UTRACE_EVENT(JCTL) | UTRACE_EVENT(EXEC) |
		 UTRACE_EVENT(DEATH) | (o->follow ? UTRACE_EVENT(CLONE) : 0);
	/* Until the syscall set is in place, the others are ignored. */
	err = utrace_queue_watch(j.q, pid, flags, events, UTRACE_EVENT_SYSCALL);
	if (!err)
		err = set_syscalls(&j);
	if (!err && !jthr_new(&j, pid, read_tgid(pid)))
		err = -ENOMEM;
	if (err) {
		utrace_queue_free(j.q);
		tidmap_filter(&j.threads, end_one, &j);
		tidmap_clear(&j.threads);
		goto out;
	}
	n = o->follow ? count_threads(pid) : 1;
	if (!(o->print.quiet & Q_ATTACH) && !o->print.json) {
		if (n > 1)
			fprintf(stderr, "utrace: Process %d attached with %d "
				"threads (joined the trace of process %d)\n",
				pid, n, tracer_pid);
		else
			fprintf(stderr, "utrace: Process %d attached (joined "
				"the trace of process %d)\n", pid, tracer_pid);
	}
	while (j.live > 0) {
		struct pollfd pf[2] = {
			{ .fd = utrace_queue_fd(j.q), .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};
		struct utrace_reply r = { .size = sizeof(r),
					  .action = UTRACE_RESUME };

		if (p)
			printer_flush(p);
		else
			sink_flush(out);
		if (poll(pf, sfd >= 0 ? 2 : 1, -1) < 0 && errno != EINTR)
			break;
		if (sfd >= 0 && (pf[1].revents & POLLIN) &&
		    (*sig = pending_end(sfd)))
			break;
		err = utrace_queue_next(j.q, &ev, 0);
		if (err == 0)
			continue;
		if (err < 0)
			break;
		on_record(&j, &ev, &r);
		if (ev.held)
			utrace_queue_reply(j.q, ev.id, &r);
	}
	if (err == -ENOTCONN)
		sink_msg(out, "the tracer of process %d (process %d) ended; "
			 "so does this trace", pid, tracer_pid);
	if (*sig)
		tidmap_filter(&j.threads, detach_one, &j);
	/* Threads we held run on; nothing is left stopped by us. */
	utrace_queue_free(j.q);
	tidmap_filter(&j.threads, end_one, &j);
	tidmap_clear(&j.threads);
	err = err == -ENOTCONN ? 1 : 0;
out:
	/* Interrupted while joining: the signal's end, not a failure. */
	if (err < 0 && (*sig = pending_end(sfd)))
		err = 0;
	if (sfd >= 0)
		close(sfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err;
}
