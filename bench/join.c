// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * join - a queue consumer in the tracer's process (local) against the same
 * consumer in another process joined to utraced (joined), public API only.
 *
 *	join [-j UTRACED] [-H] [--] PROG [ARGS...]
 *
 *   -j UTRACED  joined: run "UTRACED -- sh -c 'read x; exec PROG ARGS'" and
 *               consume from here through utrace_queue_connect
 *               (default: local, a tracer and its queue in this process,
 *               consumed on the loop thread)
 *   -H          hold every syscall entry and reply UTRACE_RESUME to each
 *               (default: notify-only)
 *
 * Either way the consumer watches PROG's process and children for entry,
 * exit and death records of every syscall, before PROG starts (it waits
 * for a line on its standard input), then lets it go and reads every
 * record until PROG's death.  Prints
 * "records=N held=N seconds=S" for the time from the go to the death
 * record (the time in utraced's start-up and in sh is left out).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <utrace.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static pid_t child_of(pid_t pid)
{
	char path[64], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", pid, pid);
	for (int i = 0; i < 5000; i++) {
		f = fopen(path, "re");
		if (f) {
			char *ok = fgets(buf, sizeof(buf), f);

			fclose(f);
			if (ok && atoi(buf) > 0)
				return atoi(buf);
		}
		usleep(1000);
	}
	return -1;
}

int main(int argc, char **argv)
{
	const char *utraced = NULL;
	bool hold = false;
	struct utrace_tracer *t = NULL;
	struct utrace_queue *q = NULL;
	struct utrace_event ev = { .size = sizeof(ev) };
	struct utrace_reply r = { .size = sizeof(r), .action = UTRACE_RESUME };
	unsigned long records = 0, held = 0;
	char cmd[4096] = "read x; exec";
	char *sh[] = { "sh", "-c", cmd, NULL };
	int in[2], i, n, err;
	pid_t pid, u = -1;
	double t0;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "-j") && i + 1 < argc)
			utraced = argv[++i];
		else if (!strcmp(argv[i], "-H"))
			hold = true;
		else
			goto usage;
	}
	if (i >= argc)
		goto usage;
	for (; i < argc; i++) {
		size_t len = strlen(cmd);

		if (strchr(argv[i], '\'') ||
		    len + strlen(argv[i]) + 4 >= sizeof(cmd))
			goto usage;
		snprintf(cmd + len, sizeof(cmd) - len, " '%s'", argv[i]);
	}
	if (pipe2(in, O_CLOEXEC) < 0)
		return 1;
	if (utraced) {
		u = fork();
		if (u == 0) {
			dup2(in[0], 0);
			execl(utraced, utraced, "--", "/bin/sh", "-c", cmd,
			      (char *)NULL);
			_exit(127);
		}
		close(in[0]);
		pid = child_of(u);
		/* serving starts a moment after the spawn */
		for (int k = 0; k < 5000; k++) {
			err = utrace_queue_connect(pid, &q);
			if (err != -ECONNREFUSED)
				break;
			usleep(1000);
		}
	} else {
		int saved = dup(0);

		utrace_tracer_new(&t);
		dup2(in[0], 0);
		sh[0] = "/bin/sh";
		err = utrace_spawn(t, sh, NULL, &pid);
		dup2(saved, 0);
		close(saved);
		close(in[0]);
		if (!err)
			err = utrace_queue_new(t, &q);
	}
	if (err) {
		fprintf(stderr, "join: %s\n", strerror(-err));
		return 1;
	}
	err = utrace_queue_watch(q, pid, UTRACE_WATCH_PROCESS |
				 UTRACE_WATCH_CHILDREN, UTRACE_EVENT_SYSCALL |
				 UTRACE_EVENT(DEATH),
				 hold ? UTRACE_EVENT(SYSCALL_ENTRY) : 0);
	if (err) {
		fprintf(stderr, "join: watch: %s\n", strerror(-err));
		return 1;
	}
	t0 = now_s();
	if (write(in[1], "go\n", 3) != 3)
		return 1;
	while ((n = utrace_queue_next(q, &ev, -1)) == 1) {
		records++;
		if (ev.held) {
			held++;
			if (utrace_queue_reply(q, ev.id, &r))
				return 1;
		}
		if (ev.type == UTRACE_EVENT(DEATH) && ev.tid == pid)
			break;
	}
	printf("records=%lu held=%lu seconds=%.6f\n", records, held,
	       now_s() - t0);
	utrace_queue_free(q);
	if (t)
		utrace_tracer_free(t);
	close(in[1]);
	if (u > 0)
		waitpid(u, NULL, 0);
	return n == 1 ? 0 : 1;
usage:
	fprintf(stderr, "usage: join [-j UTRACED] [-H] [--] PROG [ARGS...]\n");
	return 2;
}
