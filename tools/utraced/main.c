// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utraced - a program that is only a serving tracer (utraced(1)).
 *
 *	utraced [-v] -- CMD [ARG...]
 *	utraced [-v] -p PID [-p PID...]
 *
 * It traces CMD, or takes over the running processes PID, with their
 * threads and the children they fork, serves (utrace_tracer_serve), and
 * runs while it traces something or has joiners.  Its own engines are a
 * queue watching CLONE and DEATH (so that every thread and child stays
 * traced, and for the command's status) and the ptrace emulation (so that
 * the traced programs may use ptrace themselves); everything else
 * is the joiners'.  Built on the public API only.
 *
 * Signals are taken by the loop thread only (the consumer thread blocks
 * them): the handler sets a flag and calls utrace_break, whose loop-thread
 * path is an atomic store, and the interrupted waitpid lets utrace_run
 * return.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/sched.h>
#include <utrace.h>

#define MAX_PIDS 64

struct utraced {
	struct utrace_tracer *t;
	struct utrace_queue *q;
	pid_t pids[MAX_PIDS];
	int npids;
	bool spawned;
	bool verbose;
	int status;		/* CMD's wait status */
	atomic_bool done;
};

static volatile sig_atomic_t stop_sig;
static struct utrace_tracer *volatile tracer;	/* for the signal handler */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: utraced [-v] -- CMD [ARG...]\n"
		"       utraced [-v] -p PID [-p PID...]\n"
		"       utraced -V\n"
		"Trace CMD, or the running processes PID, and let other programs\n"
		"join (utrace -p PID, utrace_queue_connect(3)).  Runs while it\n"
		"traces something or has joiners.\n");
}

/*
 * utraced's own queue: CLONE and DEATH, read on a thread of its own (the
 * loop thread blocks in the loop).  Only the command's status is kept.
 */
static void take(struct utraced *u, const struct utrace_event *ev)
{
	if (ev->type != UTRACE_EVENT(DEATH) || !ev->group_dead)
		return;
	if (u->spawned && ev->pid == u->pids[0])
		u->status = ev->status;
	if (u->verbose)
		fprintf(stderr, "utraced: process %d ended\n", ev->pid);
}

static void *consume(void *arg)
{
	struct utraced *u = arg;
	struct utrace_event ev;
	bool last = false;

	for (;;) {
		memset(&ev, 0, sizeof(ev));
		ev.size = sizeof(ev);
		if (utrace_queue_next(u->q, &ev, last ? 0 : 200) == 1) {
			take(u, &ev);
			continue;
		}
		if (last)
			return NULL;
		/* Once told to end, read what is left, then end. */
		last = atomic_load(&u->done);
	}
}

/*
 * The loop: utrace_run while something is traced (blocking in waitpid,
 * woken by joiners' requests); while nothing is but joiners remain (one
 * may watch something again), poll and dispatch.
 */
static int serve(struct utraced *u)
{
	for (;;) {
		struct pollfd p;
		int r;

		if (stop_sig)
			return 0;
		r = utrace_run(u->t);
		if (r < 0) {
			fprintf(stderr, "utraced: %s\n", strerror(-r));
			return -1;
		}
		if (stop_sig || utrace_tracer_joiners(u->t) <= 0)
			return 0;
		p.fd = utrace_fd(u->t);
		p.events = POLLIN;
		if (p.fd < 0)
			return -1;
		if (poll(&p, 1, 1000) < 0 && errno != EINTR)
			return -1;
		utrace_dispatch(u->t, 0);
	}
}

/*
 * ptrace as an engine (utrace_emulate_ptrace(3)): on every thread, before
 * it runs, so that a traced program's own ptrace(2) and wait calls (a
 * debugger, strace, a sandbox) work under utraced as under utrace -f.
 */
static int follow_new(void *arg, pid_t tid, pid_t tgid, pid_t parent,
		      unsigned long clone_flags)
{
	struct utraced *u = arg;

	return utrace_emulate_ptrace(u->t, tid);
}

static void on_signal(int sig)
{
	stop_sig = sig;
	/* The loop thread takes the signals: utrace_run returns. */
	if (tracer)
		utrace_break(tracer);
}

int main(int argc, char **argv)
{
	struct utraced u = { .status = -1 };
	int i, err, ret = 0, watched = 0;
	struct sigaction sa;
	sigset_t all, old;
	pthread_t th;
	bool th_started = false;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version")) {
			/* The Makefile's VERSION, as utrace -V prints it. */
			printf("utraced -- version %s (libutrace API %d)\n",
			       UTRACE_VERSION, UTRACE_API_VERSION);
			return 0;
		}
		if (!strcmp(argv[i], "-v")) {
			u.verbose = true;
			continue;
		}
		if (!strncmp(argv[i], "-p", 2)) {
			const char *v = argv[i][2] ? argv[i] + 2 : argv[++i];
			char *end;
			long pid;

			if (!v) {
				fprintf(stderr, "utraced: -p needs a PID\n");
				return 2;
			}
			pid = strtol(v, &end, 10);
			if (*end || pid <= 0 || pid > 0x7fffffff) {
				fprintf(stderr, "utraced: invalid PID '%s'\n", v);
				return 2;
			}
			if (u.npids == MAX_PIDS) {
				fprintf(stderr, "utraced: at most %d -p\n",
					MAX_PIDS);
				return 2;
			}
			u.pids[u.npids++] = (pid_t)pid;
			continue;
		}
		if (argv[i][0] == '-') {
			fprintf(stderr, "utraced: unknown option '%s'\n",
				argv[i]);
			usage(stderr);
			return 2;
		}
		break;
	}
	if ((i < argc) == (u.npids > 0)) {
		fprintf(stderr, u.npids ? "utraced: -p and a command exclude each other\n"
					: "utraced: nothing to trace\n");
		usage(stderr);
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: poll wakes */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	err = utrace_tracer_new(&u.t);
	if (!err)
		err = utrace_queue_new(u.t, &u.q);
	if (err) {
		fprintf(stderr, "utraced: %s\n", strerror(-err));
		return 1;
	}
	if (i < argc) {
		/* CMD lives and dies with utraced. */
		struct utrace_spawn_opts o = { sizeof(o), NULL, NULL,
					       UTRACE_SPAWN_KILL_ON_EXIT };

		err = utrace_spawn(u.t, argv + i, &o, &u.pids[0]);
		if (err) {
			fprintf(stderr, "utraced: %s: %s\n", argv[i],
				strerror(-err));
			/* As a shell says it: not found, not runnable. */
			ret = err == -ENOENT ? 127 : err == -EACCES ? 126 : 1;
			goto out;
		}
		u.npids = 1;
		u.spawned = true;
	}
	for (int k = 0; k < u.npids; k++) {
		err = utrace_queue_watch(u.q, u.pids[k],
					 UTRACE_WATCH_PROCESS |
					 UTRACE_WATCH_CHILDREN,
					 UTRACE_EVENT(CLONE) |
					 UTRACE_EVENT(DEATH), 0);
		if (!err)
			err = utrace_emulate_ptrace(u.t, u.pids[k]);
		if (!err) {
			err = utrace_follow(u.t, u.pids[k],
					    UTRACE_WATCH_PROCESS |
					    UTRACE_WATCH_CHILDREN,
					    follow_new, &u);
			if (err > 0)
				err = 0;
		}
		if (err) {
			fprintf(stderr, "utraced: attach %d: %s\n", u.pids[k],
				strerror(-err));
			ret = 1;
			continue;
		}
		watched++;
	}
	if (!watched)
		goto out;
	err = utrace_tracer_serve(u.t, UTRACE_SERVE_DEFAULT);
	if (err) {
		fprintf(stderr, "utraced: serve: %s\n", strerror(-err));
		ret = 1;
		goto out;
	}
	if (u.verbose)
		fprintf(stderr, "utraced: pid %d serves %s/%d.sock\n",
			(int)getpid(), geteuid() ? "/tmp/utrace-UID" :
			"/run/utrace", (int)getpid());
	tracer = u.t;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	th_started = pthread_create(&th, NULL, consume, &u) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!th_started) {
		fprintf(stderr, "utraced: no thread\n");
		ret = 1;
		goto out;
	}
	if (serve(&u) < 0)
		ret = 1;
	if (stop_sig) {
		int j = utrace_tracer_joiners(u.t);

		fprintf(stderr, "utraced: %s: %s%s", strsignal(stop_sig),
			u.spawned ? "killing the command" :
				    "detaching, the processes run on",
			j > 0 ? "; joiners are disconnected\n" : "\n");
	}
out:
	if (th_started) {
		atomic_store(&u.done, true);
		pthread_join(th, NULL);
	}
	tracer = NULL;
	utrace_queue_free(u.q);
	utrace_tracer_free(u.t);
	if (stop_sig)
		return 128 + stop_sig;
	if (u.spawned && u.status != -1) {
		if (WIFEXITED(u.status))
			return WEXITSTATUS(u.status);
		if (WIFSIGNALED(u.status))
			return 128 + WTERMSIG(u.status);
	}
	return ret;
}
