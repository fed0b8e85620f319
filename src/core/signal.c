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
#include <linux/audit.h>
#include <linux/sched.h>

#include "core/internal.h"

/* -- Dispositions --------------------------------------------------------------
 *
 * Reading /proc/TID/status at every signal costs more than the rest of the
 * stop together, so what it says is kept on the thread while no change to
 * the handlers can escape the library (th->disp_own):
 *  - from an exec on (exec makes the handler table the process's own and
 *    resets every caught signal to its default);
 *  - as long as the thread is restarted with PTRACE_SYSCALL only, so every
 *    syscall it makes stops at its entry, where rt_sigaction drops the
 *    cache, and a clone that would share the table with another process
 *    (CLONE_SIGHAND, or clone3, whose flags are in memory) ends disp_own;
 *  - a 32-bit or x32 syscall ends it too (other numbers).
 * The kernel itself changes a handler in two cases: SA_RESETHAND, at the
 * delivery of a caught signal (the flags are not in /proc: a caught signal
 * is kept across delivery once /proc showed it still caught after one, with
 * no rt_sigaction for it between), and a fault forced on a thread that
 * ignores or blocks it (SIGSEGV, SIGBUS, ...: read afresh every time).
 */

static uint64_t sigbit(int sig)
{
	return sig > 0 && sig <= 64 ? 1ULL << (sig - 1) : 0;
}

/* Signals the kernel may force, resetting an ignored handler first. */
static bool forced(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL ||
	       sig == SIGFPE || sig == SIGTRAP || sig == SIGSYS;
}

/* SigIgn and SigCgt of a thread; false if it is gone. */
static bool dispositions(struct uthread *th, int sig, uint64_t *ign,
			 uint64_t *cgt)
{
	char buf[4096];
	const char *i, *c;

	if (th->disp_own && th->disp_valid && !forced(sig)) {
		*ign = th->disp_ign;
		*cgt = th->disp_cgt;
		return true;
	}
	if (!utrace__proc_status(th->tid, buf, sizeof(buf)))
		return false;
	i = utrace__proc_field(buf, "SigIgn");
	c = utrace__proc_field(buf, "SigCgt");
	if (!i || !c)
		return false;
	*ign = strtoull(i, NULL, 16);
	*cgt = strtoull(c, NULL, 16);
	if (th->disp_own) {
		th->disp_valid = true;
		th->disp_ign = *ign;
		th->disp_cgt = *cgt;
		/* Still caught after a delivery: no SA_RESETHAND. */
		th->disp_kept |= th->disp_verify & *cgt;
		th->disp_verify = 0;
	}
	return true;
}

/** utrace__disp_exec - @th executed: its handlers are its own, defaults */
void utrace__disp_exec(struct uthread *th)
{
	th->disp_own = true;
	th->disp_valid = false;
	th->disp_kept = ~0ULL;	/* no caught signal left */
	th->disp_verify = 0;
}

/* What the syscall @th is let go into may do to the handlers. */
static void disp_syscall(struct uthread *th)
{
	const struct utrace_syscall *sc = &th->sc;
	uint64_t bit;

	if (sc->arch != AUDIT_ARCH_X86_64 || (sc->nr & __X32_SYSCALL_BIT) ||
	    sc->nr == SYS_clone3 ||
	    (sc->nr == SYS_clone && (sc->args[0] & CLONE_SIGHAND))) {
		th->disp_own = false;
	} else if (sc->nr == SYS_rt_sigaction && sc->args[1]) {
		bit = sigbit((int)sc->args[0]);
		th->disp_valid = false;
		th->disp_kept &= ~bit;
		th->disp_verify &= ~bit;
	}
}

/**
 * utrace__disp_restart - @th is restarted with ptrace request @req,
 * delivering @sig (0: none) from a signal-delivery stop
 */
void utrace__disp_restart(struct uthread *th, long req, int sig)
{
	uint64_t bit = sigbit(sig);

	if (!th->disp_own)
		return;
	if (req != PTRACE_SYSCALL) {
		th->disp_own = false;
		return;
	}
	if (th->stop == STOP_SYSCALL_ENTRY)
		disp_syscall(th);
	if (th->stop == STOP_SIGNAL && bit && !(th->disp_kept & bit)) {
		th->disp_verify |= bit;
		if (th->disp_cgt & bit)
			th->disp_valid = false;
	}
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
unsigned long utrace__signal_class(struct uthread *th, int sig,
				  uint32_t *action)
{
	uint64_t ign = 0, cgt = 0, bit = sigbit(sig);

	if (sig != SIGKILL && sig != SIGSTOP) {
		dispositions(th, sig, &ign, &cgt);
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
int utrace__signal_final(struct uthread *th, uint32_t result, bool seen)
{
	int signo = th->si.si_signo;
	uint32_t dflt;
	unsigned long cls;

	if (result & UTRACE_SIGNAL_HOLD) {
		/*
		 * Seen again after the current action, before any other
		 * signal (reference 7.2: back at the head of the queue).  At
		 * its own delivery stop it is simply reported again there;
		 * elsewhere, or when an engine keeps holding it, it goes out
		 * as a placeholder.
		 */
		if (th->stop == STOP_SIGNAL && !th->held &&
		    th->held_passes < 64) {
			th->held = true;
			th->held_passes++;
			th->held_info = th->si;
			th->held_again = seen;
		} else {
			utrace__signal_pend(th, &th->si, true, seen);
		}
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
		cls = utrace__signal_class(th, signo, &dflt);
		if (cls == UTRACE_EVENT(SIGNAL_TERM) ||
		    cls == UTRACE_EVENT(SIGNAL_CORE))
			return signo;
		return SIGKILL;
	case UTRACE_SIGNAL_STOP:
	case UTRACE_SIGNAL_TSTP:
		cls = utrace__signal_class(th, signo, &dflt);
		return cls == UTRACE_EVENT(SIGNAL_STOP) ? signo : SIGSTOP;
	default:
		return signo;
	}
}

/**
 * utrace__signal_report_final - act on the result of a REPORT/HANDLER pass
 *
 * An engine may have filled *info to deliver (inject) a signal.  At a
 * signal-delivery stop with no signal of its own it is delivered right
 * there; elsewhere it goes out as a placeholder.
 */
void utrace__signal_report_final(struct uthread *th, uint32_t result)
{
	int sig = utrace__signal_final(th, result, false);

	if (!sig)
		return;
	if (th->stop == STOP_SIGNAL && !th->stop_sig) {
		th->stop_sig = sig;
		if (sig == th->si.si_signo)
			ptrace(PTRACE_SETSIGINFO, th->tid, 0L, &th->si);
	} else if (utrace_signal_action(result) == UTRACE_SIGNAL_DELIVER) {
		utrace__signal_pend(th, &th->si, false, false);
	}
}

/*
 * Owe @info to the program: it is sent when the thread is restarted (so it
 * is pending at the thread's first signal check, where the kernel would
 * have delivered it), behind any placeholder sent before it.
 */
void utrace__signal_pend(struct uthread *th, const siginfo_t *info,
			 bool report, bool again)
{
	static uint64_t next_cookie;
	struct utrace__pend *p = calloc(1, sizeof(*p)), **pp;

	if (!p)
		return;		/* ENOMEM: the signal is lost, as on overflow */
	p->info = *info;
	p->report = report;
	p->again = again;
	/* Tracer-wide and unique: a program's own sigqueue() won't match. */
	p->cookie = 0x7574720000000000ULL | ++next_cookie;
	for (pp = &th->pend; *pp; pp = &(*pp)->next)
		;
	*pp = p;
}

static void pend_unlink(struct uthread *th, struct utrace__pend *p)
{
	for (struct utrace__pend **pp = &th->pend; *pp; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			free(p);
			return;
		}
	}
}

/*
 * Send the placeholders not sent yet; called when the thread is restarted.
 * A placeholder is an SI_QUEUE signal from the tracer whose si_value is the
 * cookie: unlike a tgkill it cannot be confused with a signal the tracer
 * process itself sends to the thread.
 */
void utrace__signal_queue(struct uthread *th)
{
	struct utrace__pend *p, *next;
	siginfo_t ph;

	for (p = th->pend; p; p = next) {
		next = p->next;
		if (p->sent)
			continue;
		memset(&ph, 0, sizeof(ph));
		ph.si_signo = p->info.si_signo;
		ph.si_code = SI_QUEUE;
		ph.si_pid = getpid();
		ph.si_uid = getuid();
		ph.si_value.sival_ptr = (void *)(uintptr_t)p->cookie;
		if (syscall(SYS_rt_tgsigqueueinfo, th->tgid, th->tid,
			    ph.si_signo, &ph) < 0)
			pend_unlink(th, p);	/* gone, or a bad signal */
		else
			p->sent = true;
	}
}

/*
 * At a signal-delivery stop: is this one of our placeholders?  If so, put
 * the real siginfo in place (th->si too) and say whether it is to be
 * reported (held) or delivered as it is (injected).
 */
bool utrace__signal_placeholder(struct uthread *th, int sig, bool *report,
				bool *again)
{
	struct utrace__pend *p;

	if (!th->pend || th->si.si_code != SI_QUEUE ||
	    th->si.si_pid != getpid())
		return false;
	for (p = th->pend; p; p = p->next)
		if (p->sent && p->info.si_signo == sig &&
		    (uintptr_t)th->si.si_value.sival_ptr == p->cookie)
			break;
	if (!p)
		return false;
	th->si = p->info;
	*report = p->report;
	*again = p->again;
	pend_unlink(th, p);
	ptrace(PTRACE_SETSIGINFO, th->tid, 0L, &th->si);
	return true;
}

/*
 * Forget what is owed to the thread.  @send (it is let go, alive): what was
 * not sent yet is sent with its real siginfo where the kernel allows
 * (si_code < 0 and not SI_TKILL), else as a plain tgkill; placeholders
 * already sent arrive as they are.
 */
void utrace__signal_release(struct uthread *th, bool send)
{
	struct utrace__pend *p;

	while ((p = th->pend)) {
		th->pend = p->next;
		if (send && !p->sent &&
		    syscall(SYS_rt_tgsigqueueinfo, th->tgid, th->tid,
			    p->info.si_signo, &p->info) < 0)
			syscall(SYS_tgkill, th->tgid, th->tid, p->info.si_signo);
		free(p);
	}
}
