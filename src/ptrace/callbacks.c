// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ptrace as an engine (ptrace.h): the engine's callbacks, where the inner
 * tracer's calls are caught at their entry and completed at their exit
 * and an inner tracee's events become its inner stops; the hooks the
 * layer registers on the tracer (the program's own seccomp stops, who
 * traces a thread, freeing); and utrace_emulate_ptrace.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sched.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/audit.h>

#include "core/proc.h"
#include "ptrace/ptrace.h"

/*
 * The inner tracer's side of a syscall entry.  Returns the entry vote.
 */
static uint32_t tracer_entry(struct pe_thread *p, uint32_t action)
{
	struct user_regs_struct rg;
	struct utrace_syscall sc;
	long nr, ret;

	if (utrace_syscall_get(p->e, &sc) || sc.arch != AUDIT_ARCH_X86_64)
		return utrace__pe_run_vote(p, action);
	/*
	 * Another engine skips this call (it was called first: attached
	 * after us): the kernel would never see it, so neither does the
	 * emulation; its abort and return value are handed on.
	 */
	if (utrace_syscall_action(action) == UTRACE_SYSCALL_ABORT)
		return utrace__pe_run_vote(p, action);
	nr = sc.nr;
	p->wait_nr = 0;
	if (nr != SYS_ptrace && nr != SYS_wait4 && nr != SYS_waitid)
		return utrace__pe_run_vote(p, action);
	/* The call's registers as the syscall view has them (no GETREGS). */
	memset(&rg, 0, sizeof(rg));
	rg.orig_rax = (unsigned long)sc.nr;
	rg.rdi = sc.args[0];
	rg.rsi = sc.args[1];
	rg.rdx = sc.args[2];
	rg.r10 = sc.args[3];
	rg.r8 = sc.args[4];
	rg.r9 = sc.args[5];
	if (nr == SYS_ptrace) {
		ret = utrace__pe_ptrace(p, (long)rg.rdi, (pid_t)rg.rsi, rg.rdx,
					rg.r10);
		if (ret == PE_KERNEL) {
			p->sys = PS_REAL;
			return utrace__pe_run_vote(p, action &
						   ~UTRACE_SYSCALL_MASK);
		}
	} else if (nr == SYS_wait4 || nr == SYS_waitid) {
		struct pe_wait w;

		utrace__pe_wait_args(p, &rg, &w);
		p->fix_echild = false;
		ret = utrace__pe_wait(p, &w);
		if (ret == W_HOLD) {
			/*
			 * Block as the kernel would, interruptibly: as pause(),
			 * which a signal ends as it ends a wait, and which
			 * wake_waiters interrupts; its exit completes the wait
			 * or restarts it (pe_exit).
			 */
			p->sys = PS_SLEEP;
			p->wait_nr = nr;
			p->wait_regs = rg;
			utrace_syscall_set_nr(p->e, SYS_pause);
			return utrace__pe_run_vote(p, action &
						   ~UTRACE_SYSCALL_MASK);
		}
		if (ret == W_PASS) {
			p->sys = PS_REAL;
			p->wait_nr = nr;
			p->wait_info = w.waitid ? w.info : 0;
			return utrace__pe_run_vote(p, action &
						   ~UTRACE_SYSCALL_MASK);
		}
	} else {
		return utrace__pe_run_vote(p, action);
	}
	p->sys = PS_DONE;
	utrace_syscall_set_return(p->e, ret);
	return utrace__pe_run_vote(p, (action & ~UTRACE_SYSCALL_MASK) |
				      UTRACE_SYSCALL_ABORT);
}

/* -- Callbacks ------------------------------------------------------------- */

/*
 * Restarted from a syscall-entry stop by PTRACE_SYSEMU_SINGLESTEP: the
 * kernel makes no step report at the call's exit; the step after it comes
 * from its exit (pe_exit), one instruction on.
 */
static uint32_t sysemu_step_exit(struct pe_thread *p, uint32_t action)
{
	if (p->tracer && !p->stopped && p->mode == PM_SYSEMU_STEP &&
	    (action & UTRACE_RESUME_MASK) == UTRACE_SINGLESTEP)
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_RESUME;
	return action;
}

/*
 * A syscall skipped for PTRACE_SYSEMU: the library aborted it with
 * orig_rax -1; the kernel skips it and leaves orig_rax alone.
 */
static void emu_restore(struct pe_thread *p)
{
	struct user_regs_struct r;

	if (!p->emu_skip)
		return;
	p->emu_skip = false;
	if (p->e && utrace_regs_get(p->e, &r) == 0 &&
	    r.orig_rax == (unsigned long)-1) {
		r.orig_rax = (unsigned long)p->emu_nr;
		utrace_regs_set(p->e, &r);
	}
}

static uint32_t pe_entry(uint32_t action, struct utrace_engine *e)
{
	struct pe_thread *p = utrace_engine_data(e);
	bool resumed = action & UTRACE_SYSCALL_RESUMED;
	uint32_t r;

	if (!resumed) {
		p->sys = PS_NONE;
		p->emu_skip = false;
		if (p->tracer && !p->link_capable) {
			struct utrace_syscall sc;

			if (utrace_syscall_get(e, &sc) == 0 &&
			    sc.arch == AUDIT_ARCH_X86_64 &&
			    (sc.nr == SYS_execve || sc.nr == SYS_execveat))
				utrace__pe_exec_entry(p);
		}
		if (p->tracer && !p->stopped &&
		    (p->mode == PM_SYSCALL || p->mode == PM_SYSEMU ||
		     p->mode == PM_SYSEMU_STEP)) {
			struct pe_stop s;
			struct utrace_syscall sc;

			utrace__pe_stop_syscall(&s, p, true);
			utrace__pe_publish(p, &s);
			p->sys = PS_ENTRY_STOP;
			/*
			 * PTRACE_SYSEMU: the kernel skips the call after this
			 * stop, whatever restarts it; no exit stop follows
			 * unless that is PTRACE_SYSCALL.
			 */
			if (p->mode != PM_SYSCALL &&
			    utrace_syscall_get(e, &sc) == 0) {
				p->emu_skip = true;
				p->emu_nr = sc.nr;
				/* its exit, whatever mode: emu_restore */
				p->exit_watch = true;
				utrace__pe_set_syscalls(p);
			}
			return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
		}
	} else {
		if (p->stopped)
			return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
		if (p->inject)	/* deliver it at the next stop point */
			action = (action & ~UTRACE_RESUME_MASK) |
				 UTRACE_INTERRUPT;
		if (p->emu_skip) {
			p->sys = PS_DONE;
			action = (action & ~UTRACE_SYSCALL_MASK) |
				 UTRACE_SYSCALL_ABORT;
			if (!p->inject)
				action = utrace__pe_run_vote(p, action);
			return sysemu_step_exit(p, action);
		}
		/*
		 * Decided in the first pass: say it again (an engine called
		 * before us on this repeat may have handed on a RUN).
		 */
		if (p->sys == PS_DONE)
			return (action & ~UTRACE_SYSCALL_MASK) |
			       UTRACE_SYSCALL_ABORT;
		if (p->sys == PS_REAL)
			return action;
	}
	r = tracer_entry(p, action);
	return resumed ? sysemu_step_exit(p, r) : r;
}

/* Was the syscall now at its exit a vfork (CLONE_VFORK)? */
static bool vfork_call(struct pe_thread *p, const struct utrace_syscall *sc)
{
	uint64_t flags;

	if (sc->arch != AUDIT_ARCH_X86_64)
		return false;
	if (sc->nr == SYS_vfork)
		return true;
	if (sc->nr == SYS_clone)
		return sc->args[0] & CLONE_VFORK;
	if (sc->nr == SYS_clone3 &&
	    utrace_mem_read(p->e, sc->args[0], &flags, 8) == 8)
		return flags & CLONE_VFORK;
	return false;
}

static uint32_t pe_exit(uint32_t action, struct utrace_engine *e)
{
	struct pe_thread *p = utrace_engine_data(e);
	struct utrace_syscall sc;

	/* An exec that gained what its tracer could not grant: first. */
	if (p->drop)
		utrace__pe_exec_exit(p);
	if (utrace_syscall_get(e, &sc) == 0 && sc.nr == SYS_prctl &&
	    sc.arch == AUDIT_ARCH_X86_64)
		utrace__pe_prctl(p, sc.args, sc.ret);
	emu_restore(p);
	if (p->sys == PS_SLEEP)
		utrace__pe_sleep_exit(p);
	if (p->sys == PS_REAL && p->wait_nr &&
	    utrace_syscall_get(e, &sc) == 0) {
		if (sc.ret == -ECHILD && p->fix_echild) {
			/* Only tracees of ours, none ready: 0, as WNOHANG. */
			utrace_syscall_set_return(e, 0);
			if (p->wait_info) {
				siginfo_t si;

				memset(&si, 0, sizeof(si));
				utrace__pe_put(p, p->wait_info, &si,
					       sizeof(si));
			}
		} else if (sc.ret > 0 && p->wait_nr == SYS_wait4) {
			/* A real child reaped: its tracer link ends. */
			struct pe_thread *q = utrace__pe_find_any(p->pe,
							(pid_t)sc.ret);

			if (q && q->dead && q->tracer_tgid == p->tgid) {
				utrace__pe_forget_tracer(q);
				utrace__pe_maybe_free(q);
			}
		}
	}
	p->sys = PS_NONE;
	p->wait_nr = 0;
	if (p->exit_watch) {
		p->exit_watch = false;
		utrace__pe_set_syscalls(p);
	}
	if (p->tracer && (p->opts & PTRACE_O_TRACEVFORKDONE) &&
	    utrace_syscall_get(e, &sc) == 0 && sc.ret > 0 &&
	    vfork_call(p, &sc)) {
		/* The child released the parent's memory: VFORK_DONE. */
		struct pe_stop s;

		utrace__pe_stop_event(&s, p, PTRACE_EVENT_VFORK_DONE, SIGTRAP,
				      (unsigned long)sc.ret);
		utrace__pe_publish_or_queue(p, &s);
		if (p->mode != PM_SYSCALL)
			return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
	}
	if (p->tracer && (p->mode == PM_SYSCALL || p->stopped)) {
		/* In a stop (an event of this syscall): due if it resumes
		 * with PTRACE_SYSCALL (resume drops it otherwise). */
		struct pe_stop s;

		utrace__pe_stop_syscall(&s, p, false);
		utrace__pe_publish_or_queue(p, &s);
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
	}
	if (p->tracer && p->stopped)
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
	return utrace__pe_run_vote(p, action);
}

static uint32_t pe_quiesce(uint32_t action, struct utrace_engine *e,
			   unsigned long event)
{
	struct pe_thread *p = utrace_engine_data(e);
	struct pe_stop s;

	if (event == UTRACE_EVENT(SYSCALL_ENTRY))
		return sysemu_step_exit(p, utrace__pe_run_vote(p, action));
	if (event || !p->tracer)
		return utrace__pe_run_vote(p, action);
	if (p->stopped)
		return UTRACE_STOP;
	if (utrace__engine_stop(e) == STOP_STEP && utrace__pe_stepping(p)) {
		siginfo_t si;

		utrace__engine_siginfo(e, &si);
		emu_restore(p);

		utrace__pe_stop_signal(&s, &si);
		s.kind = PK_STEP;
		utrace__pe_publish(p, &s);
		return UTRACE_STOP;
	}
	if (p->exec_trap) {
		siginfo_t si;

		p->exec_trap = false;
		memset(&si, 0, sizeof(si));
		si.si_signo = SIGTRAP;
		si.si_code = SI_USER;
		si.si_pid = p->tgid;
		si.si_uid = utrace__pe_proc_ruid(p->tid);
		utrace__pe_stop_signal(&s, &si);
		utrace__pe_publish(p, &s);
		return UTRACE_STOP;
	}
	return utrace__pe_run_vote(p, action);
}

static uint32_t pe_signal(uint32_t action, struct utrace_engine *e,
			  siginfo_t *info)
{
	struct pe_thread *p = utrace_engine_data(e);
	enum utrace_signal_action sa = utrace_signal_action(action);
	uint32_t rest = action & ~(UTRACE_RESUME_MASK | UTRACE_SIGNAL_MASK |
				   UTRACE_SIGNAL_HOLD);
	struct pe_stop s;

	if (info && info->si_signo == SIGCHLD && sa != UTRACE_SIGNAL_REPORT &&
	    sa != UTRACE_SIGNAL_HANDLER)
		utrace__pe_chld_deliver(p, info);
	/* The signal its tracer sent after a syscall stop (run_on). */
	if (p->sent_sig && info && info->si_signo == p->sent_sig &&
	    info->si_code == SI_TKILL && info->si_pid == getpid() &&
	    sa != UTRACE_SIGNAL_REPORT && sa != UTRACE_SIGNAL_HANDLER) {
		memset(info, 0, sizeof(*info));
		info->si_signo = p->sent_sig;
		info->si_code = SI_KERNEL;
		p->sent_sig = 0;
	}
	/*
	 * A signal its tracer gave it: delivered even when that tracer has
	 * let it go meanwhile (PTRACE_DETACH's parting signal).
	 */
	if (p->inject && (sa == UTRACE_SIGNAL_REPORT ||
			  sa == UTRACE_SIGNAL_HANDLER)) {
		p->inject = false;
		*info = p->inj;
		return rest | UTRACE_SIGNAL_DELIVER | utrace__pe_step_act(p);
	}
	if (!p->tracer)
		return utrace_pass(action, UTRACE_RESUME);
	if (sa == UTRACE_SIGNAL_REPORT || sa == UTRACE_SIGNAL_HANDLER) {
		if (p->stopped)
			return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
		if (sa == UTRACE_SIGNAL_HANDLER && utrace__pe_stepping(p)) {
			/*
			 * A signal delivered while stepping: the kernel traps
			 * once the handler frame is set up, before its first
			 * instruction (ptrace_notify(SIGTRAP): si_code
			 * SIGTRAP).
			 */
			siginfo_t si;

			utrace__pe_trap_info(&si, p->tid, SIGTRAP);
			utrace__pe_stop_signal(&s, &si);
			utrace__pe_publish(p, &s);
			return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
		}
		if (p->want_group_trap) {
			p->want_group_trap = false;
			memset(&s, 0, sizeof(s));
			s.kind = PK_GROUP;
			s.status = ((p->grp_sig ? p->grp_sig : SIGSTOP) << 8) |
				   0x7f;
			utrace__pe_publish(p, &s);
			return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
		}
		if (p->want_attach_stop) {
			siginfo_t si;

			p->want_attach_stop = false;
			p->want_interrupt = false;
			memset(&si, 0, sizeof(si));
			si.si_signo = SIGSTOP;
			si.si_code = SI_KERNEL;
			utrace__pe_stop_signal(&s, &si);
			utrace__pe_publish(p, &s);
			return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
		}
		if (p->want_interrupt) {
			p->want_interrupt = false;
			utrace__pe_stop_event(&s, p, PTRACE_EVENT_STOP,
					      p->grp_sig ? p->grp_sig :
					      SIGTRAP, 0);
			utrace__pe_publish(p, &s);
			return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
		}
		return utrace__pe_run_vote(p, action);
	}
	/* A real signal. */
	if (p->stopped)	/* a stop is in progress: after it */
		return rest | UTRACE_SIGNAL_HOLD | UTRACE_STOP |
		       (action & UTRACE_SIGNAL_MASK);
	if (info->si_signo == SIGCONT) {
		/*
		 * SIGCONT ends the group stop, and traps a seized tracee
		 * (PTRACE_EVENT_STOP) before its delivery stop; a listening
		 * one trapped already (pe_jctl).
		 */
		utrace__pe_set_group_stop(p->pe, p->tgid, 0);
		if (p->seized && !p->cont_trapped) {
			utrace__pe_stop_event(&s, p, PTRACE_EVENT_STOP,
					      SIGTRAP, 0);
			utrace__pe_publish(p, &s);
		}
		p->cont_trapped = false;
	}
	utrace__pe_stop_signal(&s, info);
	utrace__pe_publish_or_queue(p, &s);
	return rest | UTRACE_SIGNAL_IGN | UTRACE_STOP;
}

static uint32_t pe_clone(uint32_t action, struct utrace_engine *e,
			 unsigned long flags, pid_t child)
{
	struct pe_thread *p = utrace_engine_data(e), *c;
	int event;
	long opt;
	struct pe_stop s;

	if (!p->tracer)
		return utrace__pe_run_vote(p, action);
	if (flags & CLONE_VFORK) {
		event = PTRACE_EVENT_VFORK;
		opt = PTRACE_O_TRACEVFORK;
	} else if ((flags & 0xff) != SIGCHLD) {
		event = PTRACE_EVENT_CLONE;
		opt = PTRACE_O_TRACECLONE;
	} else {
		event = PTRACE_EVENT_FORK;
		opt = PTRACE_O_TRACEFORK;
	}
	/*
	 * The kernel traces the child when the event is on (unless
	 * CLONE_UNTRACED) or when the caller asked with CLONE_PTRACE; only
	 * the event stops the parent (copy_process, ptrace_init_task).
	 */
	if (!(p->opts & opt) || (flags & CLONE_UNTRACED))
		event = 0;
	if (!event && !(flags & CLONE_PTRACE))
		return utrace__pe_run_vote(p, action);
	c = utrace__pe_find(p->pe, child);
	if (!c && utrace_emulate_ptrace(p->pe->t, child) == 0)
		c = utrace__pe_find(p->pe, child);
	if (c && !c->tracer) {
		c->tracer = p->tracer;
		c->tracer_tgid = p->tracer_tgid;
		c->tracer_any = p->tracer_any;
		/* The kernel's child inherits the link's credentials. */
		c->link_capable = p->link_capable;
		/* Its parent: p's process, or p's parent (CLONE_PARENT). */
		c->parent_is_tracer = (flags & CLONE_PARENT) &&
				      p->parent_is_tracer;
		c->seized = p->seized;
		c->opts = p->opts;
		c->mode = PM_CONT;
		utrace__pe_set_events(c);
		utrace_control(c->e, UTRACE_STOP);
		utrace__pe_stop_initial(&s, c);
		utrace__pe_publish(c, &s);
	}
	if (!event)
		return utrace__pe_run_vote(p, action);
	utrace__pe_stop_event(&s, p, event, SIGTRAP, (unsigned long)child);
	utrace__pe_snapshot(&s, p);
	utrace__pe_publish_or_queue(p, &s);
	utrace__pe_exit_after_event(p);
	return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
}

static uint32_t pe_exec(uint32_t action, struct utrace_engine *e,
			pid_t former)
{
	struct pe_thread *p = utrace_engine_data(e);
	struct pe_stop s;

	p->tid = utrace_engine_tid(e);
	if (former != p->tid) {
		/*
		 * A thread other than the leader exec'd and took the leader's
		 * tid: the kernel reports no death of the former leader.
		 */
		for (struct pe_thread *q = p->pe->threads, *next; q; q = next) {
			next = q->next;
			if (q == p || q->tid != p->tid)
				continue;
			q->replaced = true;
			q->leader_wait = false;
			q->ptracer = 0;	/* Yama's relation went with it */
			if (q->dead) {
				q->waitable = false;
				utrace__pe_forget_tracer(q);
				utrace__pe_maybe_free(q);
			}
		}
	}
	/* A new program: its dumpable flag is the kernel's choice again. */
	for (struct pe_thread *q = p->pe->threads; q; q = q->next)
		if (q->tgid == p->tgid)
			q->dump = PD_UNKNOWN;
	/* What it gained that its tracer could not grant goes at the exit. */
	utrace__pe_exec_event(p);
	if (p->drop && !p->all_syscalls) {
		p->exit_watch = true;
		utrace__pe_set_syscalls(p);
	}
	if (!p->tracer)
		return utrace__pe_run_vote(p, action);
	if (p->opts & PTRACE_O_TRACEEXEC) {
		utrace__pe_stop_event(&s, p, PTRACE_EVENT_EXEC, SIGTRAP,
				      (unsigned long)former);
		utrace__pe_snapshot(&s, p);
		utrace__pe_publish_or_queue(p, &s);
		utrace__pe_exit_after_event(p);
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
	}
	if (!p->seized) {
		/* The kernel sends SIGTRAP after exec; at the next stop. */
		p->exec_trap = true;
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
	}
	return utrace__pe_run_vote(p, action);
}

static uint32_t pe_jctl(uint32_t action, struct utrace_engine *e, int type,
			int notify)
{
	struct pe_thread *p = utrace_engine_data(e);
	struct pe_stop s;
	int sig = p->stop_sig ? p->stop_sig : SIGSTOP;

	utrace__pe_set_group_stop(p->pe, p->tgid,
				  type == CLD_STOPPED ? sig : 0);
	if (!p->tracer)
		return utrace__pe_run_vote(p, action);
	if (type == CLD_STOPPED) {
		if (p->seized) {
			utrace__pe_stop_event(&s, p, PTRACE_EVENT_STOP, sig, 0);
			s.kind = PK_GROUP;
		} else {
			memset(&s, 0, sizeof(s));
			s.kind = PK_GROUP;
			s.status = (sig << 8) | 0x7f;
		}
		utrace__pe_publish_or_queue(p, &s);
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
	}
	if (p->seized && p->mode == PM_LISTEN) {
		/* SIGCONT re-traps a listening tracee (EVENT_STOP, SIGTRAP). */
		p->cont_trapped = true;
		utrace__pe_stop_event(&s, p, PTRACE_EVENT_STOP, SIGTRAP, 0);
		utrace__pe_publish_or_queue(p, &s);
		return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
	}
	return utrace__pe_run_vote(p, action);
}

static uint32_t pe_exitev(uint32_t action, struct utrace_engine *e,
			  int status)
{
	struct pe_thread *p = utrace_engine_data(e);
	struct pe_stop s;

	if (!p->tracer || !(p->opts & PTRACE_O_TRACEEXIT))
		return utrace__pe_run_vote(p, action);
	utrace__pe_stop_event(&s, p, PTRACE_EVENT_EXIT, SIGTRAP,
			      (unsigned long)status);
	utrace__pe_publish_or_queue(p, &s);
	return (action & ~UTRACE_RESUME_MASK) | UTRACE_STOP;
}

/*
 * A traced thread's death for its tracer: its real parent (the tracer
 * itself) reaps it with a real wait, or the emulation hands its tracer
 * the wait status.
 */
static void tracee_gone(struct pe_thread *q, int status, bool real_wait)
{
	struct pe_stop s;

	if (real_wait) {
		q->real_child = true;
		q->waitable = false;
		utrace__pe_wake_waiters(q->pe, q->tracer_tgid, false);
		return;
	}
	memset(&s, 0, sizeof(s));
	s.kind = PK_DEATH;
	s.status = status;
	utrace__pe_publish(q, &s);
}

static uint32_t pe_death(struct utrace_engine *e, bool group_dead, int status)
{
	struct pe_thread *p = utrace_engine_data(e);
	struct pe *pe = p->pe;
	bool sleepers = false;
	pid_t ppid = 0;

	/*
	 * The real parent matters only to a wait we hold as pause(); most
	 * deaths have none, and spare the /proc read (which also fails
	 * once the parent has reaped the zombie).
	 */
	for (struct pe_thread *q = pe->threads; q && !sleepers; q = q->next)
		sleepers = q->sys == PS_SLEEP;
	if (group_dead && sleepers)
		ppid = utrace__proc_ppid(p->tid);
	/* Its usage for the wait (zeros once its zombie is reaped). */
	if (p->tracer)
		utrace__pe_proc_rusage(group_dead ? p->tgid : p->tid,
				       &p->death_ru);

	p->dead = true;
	/* Its inner tracees are let go, or killed (PTRACE_O_EXITKILL). */
	for (struct pe_thread *q = pe->threads, *next; q; q = next) {
		next = q->next;
		if (q->tracer != p)
			continue;
		if (q->opts & PTRACE_O_EXITKILL && !q->dead)
			syscall(SYS_tgkill, q->tgid, q->tid, SIGKILL);
		utrace__pe_detach(q, 0);
	}
	if (p->tracer && (p->replaced || (!group_dead && p->tid == p->tgid))) {
		/*
		 * The leader: the kernel reports its death when its whole
		 * process is gone (with the group's status), and not at all
		 * when an exec by another thread took its place.
		 */
		p->stopped = p->waitable = false;
		p->npend = 0;
		p->leader_wait = !p->replaced;
	} else if (p->tracer) {
		p->stopped = false;
		p->npend = 0;
		tracee_gone(p, status, group_dead && p->parent_is_tracer);
	}
	/* The process is gone: a leader that died before it is reported. */
	for (struct pe_thread *q = pe->threads, *next; group_dead && q;
	     q = next) {
		next = q->next;
		if (q == p || q->tgid != p->tgid || !q->leader_wait)
			continue;
		q->leader_wait = false;
		if (q->tracer)
			tracee_gone(q, status, q->parent_is_tracer);
	}
	/* A real parent blocked in a wait we hold may reap it now. */
	if (ppid > 0 && ppid != p->tracer_tgid)
		utrace__pe_wake_waiters(pe, ppid, false);
	return UTRACE_RESUME;
}

static void pe_reap(struct utrace_engine *e)
{
	struct pe_thread *p = utrace_engine_data(e);

	p->e = NULL;
	p->dead = true;
	utrace__pe_maybe_free(p);
}

static const struct utrace_engine_ops pe_ops = {
	.report_quiesce = pe_quiesce,
	.report_signal = pe_signal,
	.report_clone = pe_clone,
	.report_jctl = pe_jctl,
	.report_exec = pe_exec,
	.report_syscall_entry = pe_entry,
	.report_syscall_exit = pe_exit,
	.report_exit = pe_exitev,
	.report_death = pe_death,
	.report_reap = pe_reap,
};

/* -- The layer ------------------------------------------------------------- */

/*
 * A SECCOMP_RET_TRACE stop of the program's own filter (the core's
 * foreign_seccomp hook, after any syscall-entry report): an inner tracer
 * with PTRACE_O_TRACESECCOMP gets a PTRACE_EVENT_SECCOMP stop.  Otherwise
 * the stop is not ours, and the core fails the call with ENOSYS, as the
 * kernel fails it for a thread whose tracer did not ask for these stops
 * (or that has none).
 */
static bool pe_seccomp(struct utrace_tracer *t, void *data, pid_t tid,
		       uint32_t ret_data, uint32_t arch)
{
	struct pe_thread *p = utrace__pe_find(data, tid);
	int code = SIGTRAP | (PTRACE_EVENT_SECCOMP << 8);
	struct pe_stop s;

	if (!p || !p->e || !p->tracer || !(p->opts & PTRACE_O_TRACESECCOMP))
		return false;
	utrace__pe_stop_event(&s, p, PTRACE_EVENT_SECCOMP, SIGTRAP, ret_data);
	s.kind = PK_SECCOMP;
	s.status = (code << 8) | 0x7f;
	s.arch = arch;
	utrace__pe_publish_or_queue(p, &s);
	utrace_control(p->e, UTRACE_STOP);
	return true;
}

struct tracer_of_args {
	struct pe *pe;
	pid_t tid;
};

static int do_tracer_of(void *arg)
{
	struct tracer_of_args *a = arg;
	struct pe_thread *q = utrace__pe_find(a->pe, a->tid);

	return q && q->tracer ? q->tracer_tgid : 0;
}

/*
 * The program that traces @tid through the emulation, or 0 (the core's
 * tracer_of hook: the server asks at a joiner's HELLO).  Any thread.
 */
static pid_t pe_tracer_of(struct utrace_tracer *t, void *data, pid_t tid)
{
	struct tracer_of_args a = { data, tid };
	int r;

	if (tid <= 0)
		return 0;
	r = utrace__call(t, do_tracer_of, &a);
	return r > 0 ? r : 0;
}

/* utrace_tracer_free, last: every engine is gone. */
static void pe_free(struct utrace_tracer *t, void *data)
{
	struct pe *pe = data;

	while (pe->threads) {
		struct pe_thread *p = pe->threads;

		pe->threads = p->next;
		free(p);
	}
	free(pe);
}

static const struct utrace__layer pe_layer = {
	.order = 10,
	.free = pe_free,
	.foreign_seccomp = pe_seccomp,
	.tracer_of = pe_tracer_of,
};

static int do_emulate(void *arg)
{
	struct { struct utrace_tracer *t; pid_t tid; } *a = arg;
	struct utrace_tracer *t = a->t;
	struct pe *pe = utrace__layer_data(t, &pe_layer);
	struct pe_thread *p;
	pid_t tgid;
	int err;

	if (!pe) {
		pe = calloc(1, sizeof(*pe));
		if (!pe)
			return -ENOMEM;
		pe->t = t;
		err = utrace__layer_register(t, &pe_layer, pe);
		if (err) {
			free(pe);
			return err;
		}
	}
	p = utrace__pe_find(pe, a->tid);
	if (p && p->e)
		return -EEXIST;
	tgid = utrace__thread_tgid(t, a->tid);
	if (tgid < 0)
		return tgid;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->pe = pe;
	p->tid = a->tid;
	p->tgid = tgid;
	err = utrace_attach(t, a->tid, UTRACE_ATTACH_CREATE |
			    UTRACE_ATTACH_EXCLUSIVE | UTRACE_ATTACH_MATCH_OPS,
			    &pe_ops, p, &p->e);
	if (err) {
		free(p);
		return err;
	}
	p->next = pe->threads;
	pe->threads = p;
	p->all_syscalls = true;		/* so that set_events sets it */
	utrace__pe_set_events(p);
	utrace_engine_put(p->e);	/* the thread's reference remains */
	return 0;
}

/**
 * utrace_emulate_ptrace - attach the ptrace-emulation engine to a thread
 * @t: the tracer
 * @tid: a thread @t traces
 *
 * From then on, the thread's ptrace(2), wait4(2) and waitid(2) calls on
 * threads that carry the engine too are performed by the engine.  Attach
 * it to every thread a program may trace or be traced from (a tool that
 * follows clones calls it in report_clone).  Returns 0, -EEXIST if the
 * thread has it already, -ESRCH if @t does not trace @tid, -ENOMEM.
 */
UTRACE_EXPORT int utrace_emulate_ptrace(struct utrace_tracer *t, pid_t tid)
{
	struct { struct utrace_tracer *t; pid_t tid; } a = { t, tid };

	if (!t || tid <= 0)
		return -EINVAL;
	return utrace__call(t, do_emulate, &a);
}
