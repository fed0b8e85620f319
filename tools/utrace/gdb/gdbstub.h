/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * utrace --gdb: gdb's remote serial protocol served from a libutrace
 * queue (held events, whole-process stop), local to utrace's tracer or
 * joined to another serving tracer (gdb.h gives the design).
 */
#ifndef UT_GDBSTUB_H
#define UT_GDBSTUB_H

#include <stdbool.h>
#include <sys/types.h>

struct utrace_tracer;

struct gdbstub;

/*
 * What extended-remote needs from utrace: start a program (vRun, gdb's
 * run) or attach to a running process (vAttach, gdb's attach) and trace
 * it as utrace traces its own, calling gdbstub_set_process() first and
 * attaching the engines (gdbstub_attach among them) then.
 * run returns the pid or -errno; attach returns 0 or -errno.
 */
struct gdbstub_host {
	pid_t (*run)(void *arg, char *const *argv);
	int (*attach)(void *arg, pid_t pid);
};

/* gdbstub_new() flags */
#define GDBSTUB_ANY_HOST	1	/* --gdb-any-host: any address */

/*
 * Listen on @addr (":PORT" or "HOST:PORT", ":0" picks a free port; a
 * string with a '/' is a Unix socket path, its owner's only).  A host
 * address that is not a loopback one needs GDBSTUB_ANY_HOST in @flags.
 * Returns 0 or -errno, and then says in @why what is wrong with @addr
 * (a port out of range, an unknown host, an address in use).  Called
 * before anything is attached or spawned; gdbstub_start() prints
 * "utrace: gdb: listening on ...".
 */
int gdbstub_new(struct utrace_tracer *t, const char *addr, unsigned flags,
		struct gdbstub **out, char *why, size_t n);
/*
 * For vRun and vAttach; @argv, the command utrace runs (or NULL), is what
 * a vRun with no program starts again.
 */
int gdbstub_set_host(struct gdbstub *s, const struct gdbstub_host *host,
		     void *arg, char *const *argv);
/*
 * A process gdb debugs: @spawned is true for a command utrace started
 * (stopped after its execve for gdb), false for -p (every thread is
 * stopped at once).
 */
int gdbstub_set_process(struct gdbstub *s, pid_t pid, bool spawned);
/*
 * After the engines are attached: with -p, hold every thread for gdb;
 * then say where gdb connects.
 */
int gdbstub_start(struct gdbstub *s);
/*
 * Hook of attach_engines(), right after utrace's keeper (before the
 * printer, so that breakpoint traps never reach it): the stub's queue
 * watches the thread if it belongs to a process gdb debugs.
 */
int gdbstub_attach(struct gdbstub *s, pid_t tid, pid_t tgid);
/*
 * -p on a process another serving tracer traces: the stub works through
 * a queue joined to that tracer (utrace_queue_connect) instead of its
 * own.  Call before utrace's tracer is freed; no vRun or vAttach then.
 */
int gdbstub_join(struct gdbstub *s, pid_t pid);
/*
 * The loop: wait up to @timeout_ms for the tracer or the gdb connection,
 * then dispatch and serve.  Returns utrace_dispatch()'s result.
 */
int gdbstub_dispatch(struct gdbstub *s, int timeout_ms);
/*
 * The process has ended but gdb, in extended-remote mode, is still
 * connected: keep calling gdbstub_dispatch() until it leaves.
 */
bool gdbstub_serving(const struct gdbstub *s);
/*
 * Let go of everything gdb held, close the connection and free the stub;
 * before utrace_tracer_free() (its queue goes first).
 */
void gdbstub_free(struct gdbstub *s);

#endif /* UT_GDBSTUB_H */
