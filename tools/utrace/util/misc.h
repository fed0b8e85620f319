/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Small helpers the engines and the command share; no state. */
#ifndef UT_MISC_H
#define UT_MISC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Seconds on CLOCK_MONOTONIC: -T, -r, the counter, timers. */
double now_mono(void);
/* A field of /proc/TID/status ("Tgid:", "TracerPid:"), or dflt. */
pid_t status_field(pid_t tid, const char *key, pid_t dflt);
/* The process a thread belongs to, from /proc/TID/status. */
pid_t read_tgid(pid_t tid);
/* A thread's state letter (R, S, Z ...: /proc/TID/stat), 0 if gone. */
char proc_state(pid_t tid);
/* A thread's command name (/proc/TID/comm); false when it is gone. */
bool proc_comm(pid_t tid, char *comm, size_t size);

#endif
