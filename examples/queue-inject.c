// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * queue-inject - a fault injector on the queued-event layer: every third
 * openat(2) of a program (its threads and children too) fails with EACCES.
 *
 *	queue-inject PROG [ARGS...]
 *
 * The main thread only runs the tracer's loop (utrace_run).  A control
 * thread reads the queue: each openat entry is held until the control
 * thread has read the path (utrace_queue_mem_readv) and replied, either
 * UTRACE_RESUME or UTRACE_SYSCALL_ABORT with -EACCES as the return value.
 * It prints what it did on standard error and exits with PROG's status.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <utrace.h>

struct injector {
	struct utrace_queue *q;
	pid_t leader;
	int every;		/* fail one openat in this many */
	unsigned long seen, failed;
	int status;		/* the leader's wait status */
	bool done;		/* utrace_run returned: nothing more comes */
};

static void path_of(struct injector *in, const struct utrace_event *ev,
		    char *buf, size_t size)
{
	struct utrace_iov iov = { ev->syscall.args[1], buf, size - 1 };
	ssize_t n = utrace_queue_mem_readv(in->q, ev->tid, &iov, 1);

	buf[n > 0 ? (size_t)n : 0] = '\0';
	buf[size - 1] = '\0';
	if (n <= 0)
		snprintf(buf, size, "(unreadable)");
}

static void *control(void *arg)
{
	struct injector *in = arg;
	struct utrace_event ev = { .size = sizeof(ev) };

	for (;;) {
		struct utrace_reply r = { .size = sizeof(r),
					  .action = UTRACE_RESUME };
		char path[256];
		int n = utrace_queue_next(in->q, &ev, 100);

		if (n < 0)
			break;
		if (n == 0) {
			/* Children may outlive the leader: read until the
			 * loop has nothing left to trace. */
			if (__atomic_load_n(&in->done, __ATOMIC_ACQUIRE))
				break;
			continue;
		}
		if (ev.type == UTRACE_EVENT(DEATH)) {
			if (ev.tid == in->leader)
				in->status = ev.status;
			continue;
		}
		if (!ev.held)
			continue;
		path_of(in, &ev, path, sizeof(path));
		if (++in->seen % (unsigned long)in->every == 0) {
			r.action |= UTRACE_SYSCALL_ABORT;
			r.flags = UTRACE_REPLY_RETURN;
			r.ret = -EACCES;
			in->failed++;
			fprintf(stderr, "queue-inject: [pid %d] openat #%lu \"%s\""
				" -> EACCES (injected)\n", ev.tid, in->seen, path);
		} else {
			fprintf(stderr, "queue-inject: [pid %d] openat #%lu \"%s\""
				" -> let through\n", ev.tid, in->seen, path);
		}
		if (utrace_queue_reply(in->q, ev.id, &r) < 0)
			fprintf(stderr, "queue-inject: reply to %d failed\n",
				ev.tid);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct injector in = { .every = 3 };
	struct utrace_tracer *t;
	long nr = SYS_openat;
	pthread_t th;
	int err;

	if (argc < 2) {
		fprintf(stderr, "usage: queue-inject PROG [ARGS...]\n");
		return 2;
	}
	err = utrace_tracer_new(&t);
	if (!err)
		err = utrace_queue_new(t, &in.q);
	if (!err)
		err = utrace_spawn(t, argv + 1, NULL, &in.leader);
	if (!err)
		err = utrace_queue_watch(in.q, in.leader, UTRACE_WATCH_PROCESS |
					 UTRACE_WATCH_CHILDREN,
					 UTRACE_EVENT(SYSCALL_ENTRY) |
					 UTRACE_EVENT(DEATH),
					 UTRACE_EVENT(SYSCALL_ENTRY));
	if (!err)
		err = utrace_queue_set_syscalls(in.q, in.leader, &nr, 1);
	if (err) {
		fprintf(stderr, "queue-inject: %s: %s\n", argv[1],
			strerror(-err));
		return 1;
	}
	if (pthread_create(&th, NULL, control, &in)) {
		fprintf(stderr, "queue-inject: pthread_create failed\n");
		return 1;
	}
	utrace_run(t);		/* until nothing is traced any more */
	__atomic_store_n(&in.done, true, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	fprintf(stderr, "queue-inject: %lu openat calls, %lu failed with EACCES\n",
		in.seen, in.failed);
	utrace_queue_free(in.q);
	utrace_tracer_free(t);
	if (WIFEXITED(in.status))
		return WEXITSTATUS(in.status);
	return 128 + WTERMSIG(in.status);
}
