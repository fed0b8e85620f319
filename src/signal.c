// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a dequeued signal will do, from the thread's disposition: ignored,
 * caught, or default (then the default-action table of signal(7)).  A
 * tracer cannot read another process's handlers, only these three states,
 * from /proc/TID/status.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* SigIgn and SigCgt of a thread; false if it is gone. */
static bool dispositions(pid_t tid, uint64_t *ign, uint64_t *cgt)
{
	char path[64], buf[2048];
	ssize_t n;
	int fd;
	char *p;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	p = strstr(buf, "\nSigIgn:");
	if (!p)
		return false;
	*ign = strtoull(p + 8, NULL, 16);
	p = strstr(buf, "\nSigCgt:");
	if (!p)
		return false;
	*cgt = strtoull(p + 8, NULL, 16);
	return true;
}

static bool default_ignored(int sig)
{
	return sig == SIGCHLD || sig == SIGCONT || sig == SIGURG ||
	       sig == SIGWINCH;
}

static bool default_core(int sig)
{
	switch (sig) {
	case SIGQUIT: case SIGILL: case SIGTRAP: case SIGABRT: case SIGBUS:
	case SIGFPE: case SIGSEGV: case SIGSYS: case SIGXCPU: case SIGXFSZ:
		return true;
	}
	return false;
}

/**
 * utrace__signal_class - classify signal @sig for thread @tid
 * @action: set to the initial UTRACE_SIGNAL_* disposition
 *
 * Returns the UTRACE_EVENT(SIGNAL*) bit of the class (reference 7.1).
 */
unsigned long utrace__signal_class(pid_t tid, int sig, uint32_t *action)
{
	uint64_t ign = 0, cgt = 0, bit = sig > 0 && sig <= 64 ?
					 1ULL << (sig - 1) : 0;

	dispositions(tid, &ign, &cgt);
	if (sig != SIGKILL && sig != SIGSTOP) {
		if (ign & bit) {
			*action = UTRACE_SIGNAL_IGN;
			return UTRACE_EVENT(SIGNAL_IGN);
		}
		if (cgt & bit) {
			*action = UTRACE_SIGNAL_DELIVER;
			return UTRACE_EVENT(SIGNAL);
		}
	}
	if (default_ignored(sig)) {
		*action = UTRACE_SIGNAL_IGN;
		return UTRACE_EVENT(SIGNAL_IGN);
	}
	if (sig == SIGSTOP) {
		*action = UTRACE_SIGNAL_STOP;
		return UTRACE_EVENT(SIGNAL_STOP);
	}
	if (sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) {
		*action = UTRACE_SIGNAL_TSTP;
		return UTRACE_EVENT(SIGNAL_STOP);
	}
	if (default_core(sig)) {
		*action = UTRACE_SIGNAL_CORE;
		return UTRACE_EVENT(SIGNAL_CORE);
	}
	*action = UTRACE_SIGNAL_TERM;
	return UTRACE_EVENT(SIGNAL_TERM);
}
