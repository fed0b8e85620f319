/*
 * qreply - a joined queue consumer for test/cli/compose.sh: joins the
 * serving tracer of PID (utrace_queue_connect), holds the events MODE
 * needs and answers each with one kind of reply, beside whatever other
 * tools act on the same threads.
 *
 *	qreply PID MODE
 *
 * MODE:
 *   resume   hold openat entries and exits, reply a plain UTRACE_RESUME
 *   abort    openat entry: UTRACE_SYSCALL_ABORT with return -EACCES
 *   args     openat entry: the path argument moved past a leading
 *            "/nonexistent" (UTRACE_REPLY_ARGS), so the call opens the rest
 *   return   openat exit: return value -EPERM (UTRACE_REPLY_RETURN)
 *   ign      SIGUSR1: held, then dropped (UTRACE_SIGNAL_IGN)
 *   siginfo  SIGUSR1: held, then delivered as SIGUSR2 (UTRACE_REPLY_SIGINFO)
 *   hang     openat entry: held and never answered (the test kills us)
 *
 * It prints "watching" on standard output once its watch is in place,
 * one line per reply it made, and ends when the process does.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utrace.h>

#define PREFIX "/nonexistent"

static int reply_entry(struct utrace_queue *q, const struct utrace_event *ev,
		       const char *mode, struct utrace_reply *r)
{
	char path[256] = "";
	struct utrace_iov iov = { ev->syscall.args[1], path, sizeof(path) - 1 };

	if (!strcmp(mode, "abort")) {
		r->action |= UTRACE_SYSCALL_ABORT;
		r->flags = UTRACE_REPLY_RETURN;
		r->ret = -EACCES;
		return printf("abort\n");
	}
	if (!strcmp(mode, "args") &&
	    utrace_queue_mem_readv(q, ev->tid, &iov, 1) > 0 &&
	    !strncmp(path, PREFIX, strlen(PREFIX))) {
		memcpy(r->args, ev->syscall.args, sizeof(r->args));
		r->args[1] += strlen(PREFIX);
		r->flags = UTRACE_REPLY_ARGS;
		return printf("args %s\n", path + strlen(PREFIX));
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct utrace_event ev = { .size = sizeof(ev) };
	struct utrace_queue *q;
	const long nrs[] = { SYS_openat };
	unsigned long events, hold;
	const char *mode;
	pid_t pid;
	int err;

	if (argc != 3 || (pid = atoi(argv[1])) <= 0) {
		fprintf(stderr, "usage: qreply PID MODE\n");
		return 2;
	}
	mode = argv[2];
	setvbuf(stdout, NULL, _IONBF, 0);
	err = utrace_queue_connect(pid, &q);
	if (err) {
		fprintf(stderr, "qreply: %d: %s\n", pid, strerror(-err));
		return 1;
	}
	events = UTRACE_EVENT_SYSCALL | UTRACE_EVENT_SIGNAL_ALL |
		 UTRACE_EVENT(DEATH);
	hold = UTRACE_EVENT_SYSCALL;
	if (!strcmp(mode, "ign") || !strcmp(mode, "siginfo"))
		hold = UTRACE_EVENT_SIGNAL_ALL;
	err = utrace_queue_watch(q, pid, UTRACE_WATCH_PROCESS, events, hold);
	if (!err)
		err = utrace_queue_set_syscalls(q, pid, nrs, 1);
	if (err) {
		fprintf(stderr, "qreply: watch %d: %s\n", pid, strerror(-err));
		return 1;
	}
	printf("watching\n");
	while ((err = utrace_queue_next(q, &ev, -1)) == 1) {
		struct utrace_reply r = { .size = sizeof(r),
					  .action = UTRACE_RESUME };

		if (ev.type == UTRACE_EVENT(DEATH) && ev.tid == pid)
			break;
		if (!ev.held)
			continue;
		if (ev.type == UTRACE_EVENT(SYSCALL_ENTRY)) {
			if (!strcmp(mode, "hang")) {
				printf("holding\n");
				pause();
			}
			reply_entry(q, &ev, mode, &r);
		} else if (ev.type == UTRACE_EVENT(SYSCALL_EXIT) &&
			   !strcmp(mode, "return")) {
			r.flags = UTRACE_REPLY_RETURN;
			r.ret = -EPERM;
			printf("return\n");
		} else if ((ev.type & UTRACE_EVENT_SIGNAL_ALL) &&
			   ev.info.si_signo == SIGUSR1) {
			if (!strcmp(mode, "ign")) {
				r.action |= UTRACE_SIGNAL_IGN;
				printf("ign\n");
			} else if (!strcmp(mode, "siginfo")) {
				r.info = ev.info;
				r.info.si_signo = SIGUSR2;
				r.flags = UTRACE_REPLY_SIGINFO;
				printf("siginfo\n");
			}
		}
		err = utrace_queue_reply(q, ev.id, &r);
		if (err && err != -ESRCH)
			fprintf(stderr, "qreply: reply: %s\n", strerror(-err));
	}
	utrace_queue_free(q);
	return err < 0 && err != -ENOTCONN ? 1 : 0;
}
