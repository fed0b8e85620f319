/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What only /proc tells (proc.c): for the core and the layers alike. */
#ifndef UTRACE_CORE_PROC_H
#define UTRACE_CORE_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

bool utrace__proc_status(pid_t tid, char *buf, size_t size);
const char *utrace__proc_field(const char *buf, const char *name);
/* The parent of tid's process (PPid:), 0 when the thread is gone. */
pid_t utrace__proc_ppid(pid_t tid);

/* Milliseconds on CLOCK_MONOTONIC: the deadlines of waits. */
long utrace__now_ms(void);

#endif
