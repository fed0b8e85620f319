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
 * queue watching CLONE and DEATH, to know what is alive; everything else
 * is the joiners'.  Built on the public API only.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
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
	int live;		/* processes traced now */
	int status;		/* CMD's wait status */
};

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: utraced [-v] -- CMD [ARG...]\n"
		"       utraced [-v] -p PID [-p PID...]\n"
		"Trace CMD, or the running processes PID, and let other programs\n"
		"join (utrace -p PID, utrace_queue_connect(3)).  Runs while it\n"
		"traces something or has joiners.\n");
}

/* What utraced's own queue tells: which processes are alive. */
static void take(struct utraced *u, const struct utrace_event *ev)
{
	if (ev->type == UTRACE_EVENT(CLONE) &&
	    !(ev->clone_flags & CLONE_THREAD))
		u->live++;
	if (ev->type == UTRACE_EVENT(DEATH) && ev->group_dead) {
		u->live--;
		if (u->spawned && ev->pid == u->pids[0])
			u->status = ev->status;
		if (u->verbose)
			fprintf(stderr, "utraced: process %d ended\n", ev->pid);
	}
}

static int serve(struct utraced *u)
{
	struct utrace_event ev;
	int tfd = utrace_fd(u->t), qfd = utrace_queue_fd(u->q);

	if (tfd < 0 || qfd < 0) {
		fprintf(stderr, "utraced: %s\n", strerror(-(tfd < 0 ? tfd : qfd)));
		return -1;
	}
	for (;;) {
		struct pollfd p[2] = { { .fd = tfd, .events = POLLIN },
				       { .fd = qfd, .events = POLLIN } };
		int r, joiners;

		if (stop_sig)
			return 0;
		r = utrace_dispatch(u->t, 0);
		if (r < 0) {
			fprintf(stderr, "utraced: %s\n", strerror(-r));
			return -1;
		}
		for (;;) {
			memset(&ev, 0, sizeof(ev));
			ev.size = sizeof(ev);
			if (utrace_queue_next(u->q, &ev, 0) != 1)
				break;
			take(u, &ev);
		}
		joiners = utrace_tracer_joiners(u->t);
		if (u->live <= 0 && joiners <= 0)
			return 0;
		if (poll(p, 2, 1000) < 0 && errno != EINTR)
			return -1;
	}
}

int main(int argc, char **argv)
{
	struct utraced u = { .status = -1 };
	int i, err, ret = 0;
	struct sigaction sa;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
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
		if (err) {
			fprintf(stderr, "utraced: attach %d: %s\n", u.pids[k],
				strerror(-err));
			ret = 1;
			continue;
		}
		u.live++;
	}
	if (!u.live)
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
