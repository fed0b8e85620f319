// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a dequeued signal will do, from the thread's disposition: ignored,
 * caught, or default (then the default-action table of signal(7)).  A
 * tracer cannot read another process's handlers, only these three states,
 * from /proc/TID/status.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>

#include "internal.h"

/* SigIgn and SigCgt of a thread; false if it is gone. */
static bool dispositions(pid_t tid, uint64_t *ign, uint64_t *cgt)
{
	char buf[4096];
	const char *i, *c;

	if (!utrace__proc_status(tid, buf, sizeof(buf)))
		return false;
	i = utrace__proc_field(buf, "SigIgn");
	c = utrace__proc_field(buf, "SigCgt");
	if (!i || !c)
		return false;
	*ign = strtoull(i, NULL, 16);
	*cgt = strtoull(c, NULL, 16);
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

/**
 * utrace__signal_final - carry out the final signal action of a pass
 * @result: the pass's aggregate (resume action | signal action | HOLD)
 *
 * Returns the signal to deliver when the thread is restarted from its
 * signal-delivery stop (0: none).  Where user space cannot make the kernel's
 * effect exactly, the nearest one is used (utrace(7)):
 *  - TERM/CORE on a signal whose disposition is not default: SIGKILL;
 *  - STOP/TSTP on a signal that does not stop by default: SIGSTOP.
 */
int utrace__signal_final(struct uthread *th, uint32_t result)
{
	int signo = th->si.si_signo;
	uint32_t dflt;
	unsigned long cls;

	if (result & UTRACE_SIGNAL_HOLD) {
		/* Seen again after the current action. */
		utrace__signal_pend(th, &th->si, true);
	}
	if (signo <= 0 || signo > 64)
		return 0;
	switch (utrace_signal_action(result)) {
	case UTRACE_SIGNAL_IGN:
	case UTRACE_SIGNAL_REPORT:
	case UTRACE_SIGNAL_HANDLER:
		return 0;
	case UTRACE_SIGNAL_DELIVER:
		if (result & UTRACE_SIGNAL_HOLD)
			return 0;	/* it is the held one that comes back */
		return signo;
	case UTRACE_SIGNAL_TERM:
	case UTRACE_SIGNAL_CORE:
		cls = utrace__signal_class(th->tid, signo, &dflt);
		if (cls == UTRACE_EVENT(SIGNAL_TERM) ||
		    cls == UTRACE_EVENT(SIGNAL_CORE))
			return signo;
		return SIGKILL;
	case UTRACE_SIGNAL_STOP:
	case UTRACE_SIGNAL_TSTP:
		cls = utrace__signal_class(th->tid, signo, &dflt);
		return cls == UTRACE_EVENT(SIGNAL_STOP) ? signo : SIGSTOP;
	default:
		return signo;
	}
}

/*
 * A signal the library must make happen later with an exact siginfo: a held
 * one (seen again, reported) or an injected one (delivered, not reported).
 * It is queued with tgkill as a placeholder when the thread is restarted;
 * at the placeholder's delivery stop its siginfo is replaced.
 */
void utrace__signal_pend(struct uthread *th, const siginfo_t *info,
			 bool report)
{
	th->pend_info = *info;
	th->pend_sig = info->si_signo;
	th->pend_report = report;
	th->pend_queue = true;
}

/* Send the placeholder; called when the thread is restarted. */
void utrace__signal_queue(struct uthread *th)
{
	if (!th->pend_queue)
		return;
	th->pend_queue = false;
	if (syscall(SYS_tgkill, th->tgid, th->tid, th->pend_sig) < 0)
		th->pend_sig = 0;
}

/*
 * At a signal-delivery stop: is this our placeholder?  If so, put the real
 * siginfo in place (th->si too).
 */
bool utrace__signal_placeholder(struct uthread *th, int sig)
{
	if (!th->pend_sig || sig != th->pend_sig ||
	    th->si.si_code != SI_TKILL || th->si.si_pid != getpid())
		return false;
	th->si = th->pend_info;
	th->pend_sig = 0;
	ptrace(PTRACE_SETSIGINFO, th->tid, 0L, &th->si);
	return true;
}
