/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * -k: stack traces of the tracees, in strace 6.1's format (elfutils'
 * libdwfl does the unwinding and the symbol lookup).
 */
#ifndef UT_UNWIND_H
#define UT_UNWIND_H

#include <stdbool.h>
#include <sys/types.h>
#include <utrace.h>

#include "util/sbuf.h"

/* One per traced process, shared (counted) by its threads. */
struct unwinder;

struct sink;
/* msgs: where libdwfl's errors are said (NULL: stderr). */
struct unwinder *unwinder_new(pid_t pid, struct sink *msgs);
struct unwinder *unwinder_get(struct unwinder *u);
void unwinder_put(struct unwinder *u);
/* The mappings changed (exec: a whole new image). */
void unwinder_maps_changed(struct unwinder *u, bool exec);

/*
 * Attach to thread tid the engine that tells u when the mappings change.
 * Attach it before the printer: it must see a syscall's exit first.
 */
int unwind_attach(struct utrace_tracer *tr, pid_t tid, struct unwinder *u);

/*
 * Append the stack of thread tid, stopped in a report of engine e, to
 * out: one " > module(symbol+0xoff) [0xaddr]" line a frame.  queued
 * selects strace's form for a stack taken at a syscall's entry and
 * printed at its exit (execve, exit): there an empty symbol name is
 * printed as "(+0x0)" rather than left out.
 */
void unwind_walk(struct unwinder *u, struct utrace_engine *e, pid_t tid,
		 struct sbuf *out, bool queued);

#endif
