// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * join-inject - join the tracer of a running process and make every Nth
 * openat(2) of it (its threads and children too) fail with EACCES, while
 * that tracer and any other joiner go on watching it.
 *
 *	utraced -- PROG [ARGS...] &
 *	join-inject PID [N]        (N: default 3)
 *
 * It needs no tracer of its own: utrace_queue_connect finds the serving
 * tracer of PID (utraced, or any libutrace tracer that called
 * utrace_tracer_serve) and every queue call below runs there.  Each openat
 * entry is held until this program has read the path and replied.  It
 * prints what it did on standard error and ends when PID's process does
 * (or when its tracer goes away).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <utrace.h>

int main(int argc, char **argv)
{
	struct utrace_queue *q;
	struct utrace_event ev = { .size = sizeof(ev) };
	const long nr = SYS_openat;
	pid_t pid = argc > 1 ? atoi(argv[1]) : 0;
	int every = argc > 2 ? atoi(argv[2]) : 3, err;
	unsigned long seen = 0, failed = 0;

	if (pid <= 0 || every <= 0) {
		fprintf(stderr, "usage: join-inject PID [N]\n");
		return 2;
	}
	err = utrace_queue_connect(pid, &q);
	if (err) {
		fprintf(stderr, "join-inject: %d: %s\n", pid, strerror(-err));
		return 1;
	}
	err = utrace_queue_watch(q, pid, UTRACE_WATCH_PROCESS |
				 UTRACE_WATCH_CHILDREN,
				 UTRACE_EVENT(SYSCALL_ENTRY) |
				 UTRACE_EVENT(DEATH),
				 UTRACE_EVENT(SYSCALL_ENTRY));
	if (!err)
		err = utrace_queue_set_syscalls(q, pid, &nr, 1);
	if (err) {
		fprintf(stderr, "join-inject: watch %d: %s\n", pid,
			strerror(-err));
		utrace_queue_free(q);
		return 1;
	}
	while ((err = utrace_queue_next(q, &ev, -1)) == 1) {
		struct utrace_reply r = { .size = sizeof(r),
					  .action = UTRACE_RESUME };
		char path[256] = "";
		struct utrace_iov iov = { ev.syscall.args[1], path,
					  sizeof(path) - 1 };

		if (ev.type == UTRACE_EVENT(DEATH)) {
			if (ev.tid == pid)
				break;
			continue;
		}
		if (!ev.held)
			continue;
		/* Between the watch and the syscall set, others may come. */
		if (ev.syscall.nr == SYS_openat) {
			utrace_queue_mem_readv(q, ev.tid, &iov, 1);
			path[sizeof(path) - 1] = 0;
			if (++seen % every == 0) {
				r.action |= UTRACE_SYSCALL_ABORT;
				r.flags = UTRACE_REPLY_RETURN;
				r.ret = -EACCES;
				failed++;
				fprintf(stderr, "join-inject: %d openat(\"%s\") "
					"= -EACCES\n", ev.tid, path);
			}
		}
		utrace_queue_reply(q, ev.id, &r);
	}
	fprintf(stderr, "join-inject: %lu openat seen, %lu failed%s\n", seen,
		failed, err == -ENOTCONN ? " (the tracer went away)" : "");
	utrace_queue_free(q);
	return 0;
}
