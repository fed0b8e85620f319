// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The record layer's hooks on the core (core/layer.h): each stop of a
 * recording thread (unwind, when it may have come inside the blob;
 * takeovers; dispatch traps), restarts, new threads, execve, release and
 * teardown.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/futex.h>

#include "core/clock.h"
#include "core/layer.h"
#include "core/proc.h"
#include "record/record.h"


/* -- Hooks ------------------------------------------------------------------------- */

/* The program's registers saved in the blob's frame @f (layout.h). */
static void frame_regs(const uint64_t *f, struct user_regs_struct *r)
{
	r->r15 = f[0];
	r->r14 = f[1];
	r->r13 = f[2];
	r->r12 = f[3];
	r->rbp = f[4];
	r->rbx = f[5];
	r->r10 = f[7];
	r->r9 = f[8];
	r->r8 = f[9];
	r->rax = f[10];
	r->rdx = f[12];
	r->rsi = f[13];
	r->rdi = f[14];
	r->eflags = f[15];
	r->rsp = f[UREC_F_SP / 8];
}

/*
 * After an unwind: the slot given back, the head past what the tracer
 * consumed (a record committed just before its head moved), and the free
 * part of the ring zeroed (a record the thread was copying when it
 * stopped: no byte of it may pass for a record later).
 */
static void ring_settle(char *s)
{
	uint64_t head = *(volatile uint64_t *)(s + UREC_S_HEAD);
	uint64_t tail = *(volatile uint64_t *)(s + UREC_S_TAIL);
	char *ring = s + UREC_SLOT_HDR;
	size_t n;

	if (tail > head || head - tail > UREC_RING_SIZE)
		head = tail;
	*(volatile uint64_t *)(s + UREC_S_HEAD) = head;
	for (n = UREC_RING_SIZE - (head - tail); n;) {
		size_t at = head % UREC_RING_SIZE;
		size_t k = UREC_RING_SIZE - at < n ? UREC_RING_SIZE - at : n;

		memset(ring + at, 0, k);
		head += k;
		n -= k;
	}
	*(volatile uint32_t *)(s + UREC_S_BUSY) = 0;
}

/*
 * A recording thread stopped inside the blob's syscall path (a signal, an
 * interrupt, a group stop, a release): put it back in the program's state
 * before anything else sees the stop, so that a signal handler runs on
 * the program's stack with the program's registers and never inside the
 * blob, as the stop path would have it:
 *  - before its entry record, or on its way to the stop path: as if the
 *    syscall had not started (back to the stub's start, E);
 *  - its entry recorded, the syscall not made: as if the kernel had
 *    interrupted it at once (-ERESTARTNOINTR: made again after the stop);
 *  - made (returned, or interrupted with -ERESTART*, which the kernel
 *    then handles from R as from the site), its exit not recorded: its
 *    exit reported now, its memory read live;
 *  - its exit recorded, or on the way out: as returned.
 * The thread's stack in the slot is given back; whatever the blob was
 * doing there is dropped.  @report: report the exit that the blob had no
 * time to record (after the ring is drained).
 */
void utrace__rec_unwind(struct rec *rec, struct rthread *rt, bool report)
{
	struct user_regs_struct r, g;
	struct rproc *p = rt->p;
	uint64_t off, e, *f;
	char *s;
	uint32_t phase;
	long ret = 0;
	bool exit_now = false, restart = false;

	if (rt->slot < 0 || !p->map ||
	    ptrace(PTRACE_GETREGS, TID(rt->th), 0L, &r) < 0 ||
	    r.rip < p->code || r.rip - p->code >= BLOB(urec_blob_path_end))
		return;
	off = r.rip - p->code;
	s = slot_hdr(p, rt->slot);
	f = (uint64_t *)(s - UREC_F_SIZE);

	g = r;
	g.orig_rax = (unsigned long)-1;	/* no restart but the syscall's */
	if (off <= BLOB(urec_blob_saved)) {
		/* the registers are the program's but rcx, r11 (R) and rsp */
		if (off == BLOB(urec_blob_switched))
			g.rsp = r.rcx;
		else if (off > BLOB(urec_blob_switched))
			g.rsp = f[UREC_F_SP / 8];
		g.rip = r.r11 & ~15ULL;
		if (off == BLOB(urec_blob_saved))
			g.rip = f[UREC_F_RET / 8] & ~15ULL;
	} else if (off < BLOB(urec_blob_return) ||
		   off >= BLOB(urec_blob_entry_end)) {
		/* the frame is whole; the path and its helpers */
		frame_regs(f, &g);
		e = f[UREC_F_RET / 8] & ~15ULL;
		memcpy(&phase, (char *)f + UREC_F_PHASE, sizeof(phase));
		if (off == BLOB(urec_blob_committed))
			phase = (uint32_t)r.r8;	/* committed, not noted */
		/* made, its phase not noted yet: the result in rax, then
		   in the frame */
		ret = (long)f[UREC_F_RCX / 8];
		if (off == BLOB(urec_blob_sys_rec) + 2 ||
		    off == BLOB(urec_blob_sys_plain) + 2) {
			ret = (long)r.rax;
			restart = true;
		}
		if (phase == UREC_PH_ENTRY &&
		    (off == BLOB(urec_blob_sys_rec) + 2 ||
		     off == BLOB(urec_blob_rec_saved)))
			phase = UREC_PH_MADE;
		if (phase == UREC_PH_PLAIN &&
		    (off == BLOB(urec_blob_sys_plain) + 2 ||
		     off == BLOB(urec_blob_plain_saved)))
			phase = UREC_PH_PLAIN_MADE;
		switch (phase) {
		case UREC_PH_ENTRY:
			ret = -513;		/* -ERESTARTNOINTR */
			g.orig_rax = g.rax;
			g.rax = (unsigned long)ret;
			g.rip = e + UREC_STUB_R;
			exit_now = true;
			break;
		case UREC_PH_MADE:
			exit_now = true;
			/* fall through */
		case UREC_PH_EXIT:
		case UREC_PH_PLAIN_MADE:
			if (restart)
				g.orig_rax = r.orig_rax;
			g.rax = (unsigned long)ret;
			g.rip = e + UREC_STUB_R;
			break;
		default:	/* START, PLAIN, SLOW: not made */
			g.rip = e;
			break;
		}
	} else if (off <= BLOB(urec_blob_leave)) {
		/* the frame holds the program's registers, rax the result */
		frame_regs(f, &g);
		g.rip = f[UREC_F_RET / 8];
	} else {
		/* on the program's stack, its registers: to R */
		g.rip = r.rcx;
	}
	g.rcx = g.rip;
	g.r11 = g.eflags;
	if (ptrace(PTRACE_SETREGS, TID(rt->th), 0L, &g) < 0)
		return;
	utrace__th_regs_drop(rt->th);
	ring_settle(s);
	if (exit_now && report && rt->in_entry) {
		/* the thread is stopped: its memory read live, as a stop */
		rt->nxcap = 0;
		rt->live = true;
		utrace__rec_report_exit(rec, rt, ret,
					utrace__now_ns(CLOCK_MONOTONIC));
		rt->live = false;
	}
}

/*
 * The program takes over what the path relies on: its own SIGSYS handler,
 * GS base, syscall user dispatch or seccomp filter.  Its process goes back
 * to stops: no syscall is recorded from now on, and each thread leaves the
 * path at its next stop.
 */
void utrace__rec_proc_fallback(struct rec *rec, struct rproc *p)
{
	p->state = P_FALLBACK;
	for (struct rthread *rt = rec->rts; rt; rt = rt->next) {
		if (rt->p != p)
			continue;
		/* what was recorded now stops (the blob's slow tail) */
		for (int i = 0; i < NBITS / 64; i++) {
			rt->stop[i] |= rt->want[i];
			rt->want[i] = 0;
		}
		utrace__rec_slot_publish(rt);
	}
}

/*
 * An engine holds @th for a tracer of its own (a tracee of the ptrace
 * emulation): what that tracer sees and steps through must be the
 * program's.  Its process leaves the path for good: never set up, or back
 * to stops and its sites restored; @th leaves it now, its GS base the
 * program's again once nothing can reach the blob.
 */
static void proc_leave(struct rec *rec, struct rproc *p, struct rthread *rt)
{
	struct user_regs_struct r;

	if (p->state == P_PENDING)
		p->state = P_FAILED;
	else if (p->state == P_ON)
		utrace__rec_proc_fallback(rec, p);
	if (rt->slot >= 0)
		utrace__rec_thread_off(rec, rt, true);
	utrace__rec_sites_restore(p);
	utrace__rec_stub_leave(p, rt->th);
	if (p->npatched || !p->area ||
	    ptrace(PTRACE_GETREGS, TID(rt->th), 0L, &r) < 0 ||
	    !in_area(p, r.gs_base) || utrace__rec_in_stub_page(p, r.rip) ||
	    (r.rip >= p->code && r.rip < p->code + UREC_CODE_SIZE))
		return;
	r.gs_base = 0;
	if (ptrace(PTRACE_SETREGS, TID(rt->th), 0L, &r) == 0)
		utrace__th_regs_drop(rt->th);
}

/* At the entry stop of a syscall sent to the stop path. */
static void check_takeover(struct rec *rec, struct rthread *rt)
{
	struct user_regs_struct r;
	bool takes = false;

	if (ptrace(PTRACE_GETREGS, TID(rt->th), 0L, &r) < 0 ||
	    (long)r.rax != -ENOSYS)
		return;
	switch ((long)r.orig_rax) {
	case SYS_rt_sigaction:
		takes = r.rdi == SIGSYS && r.rsi;
		break;
	case SYS_arch_prctl:
		takes = r.rdi == 0x1001;		/* ARCH_SET_GS */
		break;
	case SYS_prctl:
		takes = r.rdi == 59 ||			/* PR_SET_SYSCALL_USER_DISPATCH */
			r.rdi == 22 ||			/* PR_SET_SECCOMP */
			r.rdi == 26;			/* PR_SET_TSC: rdtsc may fault */
		break;
	case SYS_seccomp:
		takes = r.rdi == 1;			/* SECCOMP_SET_MODE_FILTER */
		break;
	case SYS_clone:
	case SYS_clone3:
	case SYS_fork:
	case SYS_vfork:
		/*
		 * A child that shares the memory (vfork, posix_spawn) has
		 * this thread's GS base until its first stop, or for good
		 * if it is not traced: the slot stays taken meanwhile, so
		 * that the blob sends the child to the stub's own syscall
		 * (given back when the flip ends, hook_restart).
		 */
		*(volatile uint32_t *)(slot_hdr(rt->p, rt->slot) +
				       UREC_S_BUSY) = 1;
		rt->lent = true;
		break;
	}
	if (takes && rt->p->state == P_ON)
		utrace__rec_proc_fallback(rec, rt->p);
}

static bool hook_status(struct utrace_tracer *t, void *data,
			struct uthread *th, int status)
{
	struct rec *rec = data;
	struct rthread *rt = rt_of(th);
	int event = status >> 16;
	bool dispatch = false;
	siginfo_t si;

	/*
	 * A dispatch trap: back on the syscall instruction first thing, in
	 * the kernel too.  Should the tracer die before it restarts the
	 * thread, the thread makes the syscall again (it traps again, and
	 * the blob's SIGSYS handler lets it through), whether the stop's
	 * SIGSYS is then delivered or dropped.  (Dropped before this, the
	 * syscall is lost: utrace(7), the record path's known limits.)
	 */
	if (rt && rt->slot >= 0 && WIFSTOPPED(status) && event == 0 &&
	    WSTOPSIG(status) == SIGSYS &&
	    ptrace(PTRACE_GETSIGINFO, TID(th), 0L, &si) == 0 &&
	    si.si_code == SYS_USER_DISPATCH) {
		struct user_regs_struct r;

		dispatch = true;
		if (ptrace(PTRACE_GETREGS, TID(th), 0L, &r) == 0 &&
		    r.rip == (uint64_t)si.si_call_addr) {
			r.rip -= 2;
			r.rax = r.orig_rax;
			ptrace(PTRACE_SETREGS, TID(th), 0L, &r);
		}
	}
	if (rec->rts)
		utrace__rec_drain_all(rec);
	if (WIFSTOPPED(status) && event == PTRACE_EVENT_EXEC) {
		/* a new image: the area and the sites went with the old */
		struct rproc *p = utrace__rec_proc_find(rec, TGID(th));
		unsigned long former = 0;

		for (struct rthread *o = rec->rts, *n; o; o = n) {
			n = o->next;
			if (o->p == p)
				utrace__rec_thread_off(rec, o, false);
		}
		if (p)
			utrace__rec_proc_free(rec, p);
		if (rec->on && rec->usable)
			utrace__rec_proc_new(rec, TGID(th));
		ptrace(PTRACE_GETEVENTMSG, TID(th), 0L, &former);
		if (rt && former && (pid_t)former != TID(th))
			rt->superseded = true;	/* another thread took over */
		else if (rt)
			rt->seen = true;	/* its GS base is the new image's */
		return false;
	}
	if (!rt || rt->slot < 0 || !WIFSTOPPED(status))
		return false;
	/*
	 * A stop that may have come inside the blob: a signal (not a step's
	 * trap: a debugger steps through the blob), an interrupt or a group
	 * stop.  Not a dispatch trap (outside the blob by definition), a
	 * syscall stop (a flipped syscall, outside), an exit.
	 */
	if ((event == 0 && WSTOPSIG(status) != (SIGTRAP | 0x80) && !dispatch &&
	     !(WSTOPSIG(status) == SIGTRAP && utrace__th_stepping(th))) ||
	    event == PTRACE_EVENT_STOP)
		utrace__rec_unwind(rec, rt, true);
	/* held for a tracer of its own: out of the path before it looks */
	if (utrace__th_held(th)) {
		proc_leave(rec, rt->p, rt);
		if (!dispatch)
			return false;
		/* the trapped syscall again, without dispatch */
		utrace__th_signal_stop(th);
		return true;
	}
	if ((event == 0 && WSTOPSIG(status) == (SIGTRAP | 0x80)) ||
	    event == PTRACE_EVENT_SECCOMP) {
		if (rt->flip)
			check_takeover(rec, rt);
		return false;
	}
	if (event != 0 || WSTOPSIG(status) != SIGSYS)
		return false;
	if (ptrace(PTRACE_GETSIGINFO, TID(th), 0L, &si) < 0 ||
	    si.si_code != SYS_USER_DISPATCH)
		return false;
	utrace__th_signal_stop(th);
	if (rt->p->state == P_FALLBACK) {
		/* back to stops: the trapped syscall again, without dispatch */
		utrace__rec_thread_off(rec, rt, true);
		return true;
	}
	utrace__rec_on_sigsys(rec, rt);
	return true;
}

/* A stop from which the thread returns to user mode, no signal pending. */
static bool user_return(const struct uthread *th)
{
	enum utrace__stop st = utrace__th_stop(th);

	return st == STOP_SYSCALL_EXIT ||
	       (st == STOP_SIGNAL && !utrace__th_stop_sig(th));
}

static bool mid_syscall(const struct uthread *th)
{
	enum utrace__stop st = utrace__th_stop(th);

	return st == STOP_SYSCALL_ENTRY || st == STOP_CLONE || st == STOP_EXEC;
}

/*
 * A new thread's GS base inherited from a recording one (a thread, a fork
 * or vfork child): never its parent's slot.  The null slot's, until it
 * gets one: a vfork child shares the blob and may reach it.
 */
static void first_restart(struct rec *rec, struct uthread *th)
{
	struct user_regs_struct r;

	if (ptrace(PTRACE_GETREGS, TID(th), 0L, &r) < 0 || !r.gs_base)
		return;
	for (struct rproc *p = rec->procs; p; p = p->next) {
		if (p->area && in_area(p, r.gs_base)) {
			r.gs_base = p->area + UREC_H_NULL;
			ptrace(PTRACE_SETREGS, TID(th), 0L, &r);
			utrace__th_regs_drop(th);
			return;
		}
	}
}

static long hook_restart(struct utrace_tracer *t, void *data,
			 struct uthread *th, long req)
{
	struct rec *rec = data;
	struct rthread *rt = utrace__rec_rt_get(th);
	struct rproc *p;

	if (!rt)
		return req;
	p = utrace__rec_proc_find(rec, TGID(th));
	if (!rt->seen) {
		enum utrace__stop st = utrace__th_stop(th);

		rt->seen = true;
		rt->attached = st != STOP_INITIAL && st != STOP_SPAWN;
		first_restart(rec, th);
		/* a new thread of a recording process: a ring of its own */
		if (p && p->state == P_ON && rt->slot < 0 && rec->on &&
		    utrace__th_stop(th) == STOP_INITIAL &&
		    utrace__rec_thread_on(rec, p, rt) == -ESRCH)
			return -1;
	}
	if (p && utrace__th_held(th))
		proc_leave(rec, p, rt);
	if (rt->slot >= 0 && rt->p->state == P_FALLBACK)
		utrace__rec_thread_off(rec, rt, true);
	/*
	 * A process taken over running (utrace -p): set up like an execve's,
	 * at its leader's next return to user mode, if it has one thread.
	 */
	if (!p && rt->attached && rec->on && rec->usable &&
	    TID(th) == TGID(th))
		p = utrace__rec_proc_new(rec, TGID(th));
	if (p && p->state == P_PENDING && rt->slot < 0 &&
	    (req == PTRACE_SYSCALL || req == PTRACE_CONT)) {
		if (mid_syscall(th))
			return PTRACE_SYSCALL;	/* set up at its exit */
		if (user_return(th)) {
			uint64_t want[NBITS / 64], stop[NBITS / 64];
			bool some = false;
			int err = -EBUSY;

			/* worth it only if some syscall may be recorded */
			utrace__rec_wants_of(rec, th, want, stop);
			for (int i = 0; i < NBITS / 64; i++)
				some |= want[i] != 0;
			/*
			 * Not under the library's seccomp filter: it would
			 * stop the blob's own syscalls.
			 */
			if (rec->on && some && !utrace__th_filtered(th) &&
			    !utrace__th_held(th) &&
			    utrace__rec_proc_threads(p->tgid) == 1 &&
			    !utrace__rec_proc_filtered(p->tgid))
				err = utrace__rec_setup(rec, p, rt);
			if (err == -ESRCH)
				return -1;
			p->state = err ? P_FAILED : P_ON;
			if (!err)
				utrace__rec_bell_start(rec);
		}
	}
	if (rt->slot < 0)
		return req;
	if (rt->flip) {
		if (rt->flip_armed || mid_syscall(th)) {
			rt->flip_armed = false;
			return req == PTRACE_CONT ? PTRACE_SYSCALL : req;
		}
		/* its exit, or a signal before it: trap again from now */
		slot_hdr(rt->p, rt->slot)[UREC_S_SELECTOR] = 1;
		rt->flip = false;
		if (rt->lent)
			*(volatile uint32_t *)(slot_hdr(rt->p, rt->slot) +
					       UREC_S_BUSY) = 0;
		rt->lent = false;
	}
	return req == PTRACE_SYSCALL ? PTRACE_CONT : req;
}

static void hook_recalc(struct utrace_tracer *t, void *data,
			struct uthread *th)
{
	struct rthread *rt = rt_of(th);

	if (!rt || rt->slot < 0)
		return;
	utrace__rec_wants_of(data, th, rt->want, rt->stop);
	utrace__rec_slot_publish(rt);
}

static void hook_release(struct utrace_tracer *t, void *data,
			 struct uthread *th)
{
	struct rthread *rt = rt_of(th);

	if (rt && rt->slot >= 0)
		utrace__rec_thread_off(data, rt, true);
}

static void hook_forget(struct utrace_tracer *t, void *data,
			struct uthread *th)
{
	struct rec *rec = data;
	struct rthread *rt = rt_of(th);
	bool leader = TID(th) == TGID(th);

	if (!rt)
		return;
	if (rt->slot >= 0)
		utrace__rec_thread_off(rec, rt, false);
	/* the process is gone with its leader (not one an execve replaced) */
	if (leader && !rt->superseded) {
		struct rproc *p = utrace__rec_proc_find(rec, TGID(th));

		if (p && !p->slots)
			utrace__rec_proc_free(rec, p);
	}
	*utrace__th_data(th, &utrace__rec_layer) = NULL;
	free(rt->ebuf);
	free(rt->xbuf);
	free(rt);
}

static void hook_after_dispatch(struct utrace_tracer *t, void *data)
{
	struct rec *rec = data;

	if (rec->rts)
		utrace__rec_drain_all(rec);
}

static void hook_closing(struct utrace_tracer *t, void *data)
{
	struct rec *rec = data;

	if (rec->rts)
		utrace__rec_drain_all(rec);
	/* the blob runs every syscall plain from now on */
	for (struct rproc *p = rec->procs; p; p = p->next)
		if (p->map)
			*(volatile uint32_t *)(p->map + UREC_H_STATE) = 0;
	rec->on = false;
	if (rec->bell_started) {
		pthread_mutex_lock(&rec->lock);
		rec->bell_stop = true;
		pthread_mutex_unlock(&rec->lock);
		pthread_join(rec->bell, NULL);
		rec->bell_started = false;
	}
}

static void hook_free(struct utrace_tracer *t, void *data)
{
	struct rec *rec = data;

	while (rec->rts)
		utrace__rec_thread_off(rec, rec->rts, false);
	while (rec->procs)
		utrace__rec_proc_free(rec, rec->procs);
	pthread_mutex_destroy(&rec->lock);
	free(rec->buf);
	free(rec);
}

/* Above the queue and sharing (their records are what it observes). */
const struct utrace__layer utrace__rec_layer = {
	.order = 5,
	.after_dispatch = hook_after_dispatch,
	.closing = hook_closing,
	.free = hook_free,
	.status = hook_status,
	.restart = hook_restart,
	.recalc = hook_recalc,
	.release = hook_release,
	.forget = hook_forget,
	.rec_read = utrace__rec_hook_rec_read,
};

