// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Pids as strace's printpid() prints them: the number, the command's name
 * with -Y, the pid in utrace's namespace with --pidns-translation.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode/decoders.h"
#include "util/misc.h"

/* The pid namespace of thread tid of process pid ("pid:[INODE]"). */
static void task_ns(int pid, int tid, char *ns, size_t size)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/ns/pid", pid, tid);
	n = readlink(path, ns, size - 1);
	ns[n > 0 ? n : 0] = '\0';
}

/* The last (innermost) id of a thread's NSpid: line, 0 if none. */
static long innermost_id(int pid, int tid)
{
	char path[64], line[256];
	long id = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "NSpid:", 6)) {
			char *p = line + 6, *end;

			for (;;) {
				long v = strtol(p, &end, 10);

				if (end == p)
					break;
				id = v;
				p = end;
			}
			break;
		}
	fclose(f);
	return id;
}

/* The numeric entries of directory path, through fn until it says stop. */
static int each_number(const char *path, int (*fn)(int n, void *arg),
		       void *arg)
{
	struct dirent *de;
	int found = 0;
	DIR *d = opendir(path);

	while (d && !found && (de = readdir(d)))
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
			found = fn(atoi(de->d_name), arg);
	if (d)
		closedir(d);
	return found;
}

/* A search for id in namespace ns: the process whose tasks are looked at. */
struct ns_search {
	const char *ns;
	long id;
	int pid;
};

static int match_task(int tid, void *arg)
{
	struct ns_search *s = arg;
	char ns[64];

	task_ns(s->pid, tid, ns, sizeof(ns));
	return !strcmp(ns, s->ns) && innermost_id(s->pid, tid) == s->id ?
	       tid : 0;
}

static int match_process(int pid, void *arg)
{
	struct ns_search *s = arg;
	char path[32];

	s->pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	return each_number(path, match_task, s);
}

/*
 * Id pid as thread tid sees it, in utrace's namespace: pid itself when
 * tid is in utrace's namespace, else the thread whose innermost NSpid is
 * pid among those in tid's namespace (one in a namespace below it is not
 * found: 0), as strace's translate_pid() does for its own.
 */
static pid_t pid_to_ours(pid_t tid, long pid)
{
	char ours[64], theirs[64];
	struct ns_search s = { theirs, pid, 0 };
	ssize_t n;

	if (pid <= 0 || pid > INT_MAX)
		return 0;
	task_ns(tid, tid, theirs, sizeof(theirs));
	n = readlink("/proc/self/ns/pid", ours, sizeof(ours) - 1);
	ours[n > 0 ? n : 0] = '\0';
	if (!theirs[0] || !strcmp(ours, theirs))
		return (pid_t)pid;
	return each_number("/proc", match_process, &s);
}

/* What follows id pid: <comm>, the id in utrace's namespace. */
static void pid_note(struct sbuf *b, pid_t tid, unsigned how, int hexstr,
		     long pid)
{
	char comm[64];
	pid_t ours;

	if (!how || pid <= 0)
		return;
	ours = pid_to_ours(tid, pid);
	if (!ours)
		return;
	if ((how & DEC_PID_COMM) && proc_comm(ours, comm, sizeof(comm)) &&
	    comm[0]) {
		sb_putc(b, '<');
		dec_quote(b, hexstr, (unsigned char *)comm, strlen(comm),
			  QUOTE_PATH_IN_FD);
		sb_putc(b, '>');
	}
	if ((how & DEC_PID_NS) && ours != pid)
		sb_printf(b, " /* %d in utrace's PID NS */", (int)ours);
}

void sb_pid(struct sbuf *b, const struct fd_view *v, long pid)
{
	sb_putd(b, pid);
	pid_note(b, v->tid, v->decode_pids, v->hexstr, pid);
}

void dec_pid(struct dec_ctx *c, long pid)
{
	sb_pid(c->out, DEC_FDS(c), pid);
}

void dec_pgid(struct dec_ctx *c, long pgid)
{
	sb_putd(c->out, pgid);
	pid_note(c->out, c->tid, c->decode_pids & DEC_PID_NS, c->hexstr, pgid);
}

void dec_pid_or_pgid(struct dec_ctx *c, long pid)
{
	sb_putd(c->out, pid);
	if (pid > 0)
		pid_note(c->out, c->tid, c->decode_pids, c->hexstr, pid);
	else if (pid < -1)	/* a process group: no comm */
		pid_note(c->out, c->tid, c->decode_pids & DEC_PID_NS,
			 c->hexstr, -pid);
}
