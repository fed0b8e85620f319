/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * May this caller ptrace that thread? (creds.c): the kernel's
 * ptrace_may_access() with PTRACE_MODE_ATTACH_REALCREDS, and its
 * PTRACE_TRACEME checks, in one place for every way into the library
 * that must grant no more than ptrace would: the emulated ptrace
 * (src/ptrace), the sharing socket's joiners (src/share) and, through
 * utrace_may_ptrace(3), the command's gdb port.
 */
#ifndef UTRACE_CORE_CREDS_H
#define UTRACE_CORE_CREDS_H

#include <stdbool.h>
#include <sys/types.h>

#include "utrace.h"

/* What the decisions weigh; read by utrace__access_read, or made up. */
struct utrace__access {
	struct utrace_cred caller, target;
	/*
	 * Attach: the caller holds CAP_SYS_PTRACE over the target's user
	 * namespace.  TRACEME: the target (the parent) over the caller's.
	 */
	bool cap_over_target;
	bool dumpable;		/* attach: the target's process */
	int yama;		/* ptrace_scope, -1: the kernel has no Yama */
	bool descendant;	/* Yama 1: the target descends from the caller */
	bool exception;		/* Yama 1: PR_SET_PTRACER names the caller */
};

/* The decisions: pure, from @a alone.  0 or -EPERM. */
int utrace__may_attach(const struct utrace__access *a);
int utrace__may_traceme(const struct utrace__access *a);

/* What they are read from. */
int utrace__access_read(const struct utrace_cred *caller, pid_t tid,
			struct utrace__access *a);
bool utrace__capable(const struct utrace_cred *c, int cap, pid_t tid);
int utrace__yama_scope(void);
bool utrace__descends(pid_t pid, pid_t anc);

#endif
