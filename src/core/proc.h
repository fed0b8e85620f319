/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What only /proc tells (proc.c): for the core and the layers alike. */
#ifndef UTRACE_CORE_PROC_H
#define UTRACE_CORE_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

bool utrace__proc_status(pid_t tid, char *buf, size_t size);
const char *utrace__proc_field(const char *buf, const char *name);
long utrace__proc_number(pid_t tid, const char *name);
bool utrace__proc_alive(pid_t tid);

/* The thread's process, its tracer: or -1 once it is gone. */
static inline pid_t utrace__proc_tgid(pid_t tid)
{
	return (pid_t)utrace__proc_number(tid, "Tgid");
}

static inline pid_t utrace__proc_tracer(pid_t tid)
{
	return (pid_t)utrace__proc_number(tid, "TracerPid");
}

/* The parent of @tid's process (PPid:), 0 when the thread is gone. */
static inline pid_t utrace__proc_ppid(pid_t tid)
{
	long v = utrace__proc_number(tid, "PPid");

	return v > 0 ? (pid_t)v : 0;
}

#endif
