// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Syscalls observed in-process (utrace(7), "Syscalls observed in-process";
 * docs/DESIGN.md has the design and why): the tracer places code in each
 * traced process (blob.S) at its execve, turns on syscall user dispatch so
 * that every syscall made outside that code traps (SIGSYS, a stop the
 * tracer takes), and at each trap rewrites the site to jump to a stub that
 * calls the code in the process.  That code records the syscall into a
 * ring shared with the tracer and runs it; the tracer turns each record
 * into the callbacks a stop would have made, for observer engines.
 *
 * This is a layer over the core: it sees threads through the hooks it
 * registers on the tracer (core/layer.h) and reports through the
 * core's reporting pass.  Every ring is untrusted input (the program can
 * write it): see ring.c.  This file: the tracee's memory, code run in a
 * stopped thread, processes and threads, setting a process up, and the
 * public calls (records on, capture rules, statistics).
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


/* -- Tracee memory ---------------------------------------------------------- */

int utrace__rec_mem_open(struct rproc *p)
{
	char path[64];

	if (p->memfd >= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)p->tgid);
	p->memfd = open(path, O_RDWR | O_CLOEXEC);
	return p->memfd < 0 ? -errno : 0;
}

/* Read or write tracee memory; /proc/PID/mem writes read-only code too. */
int utrace__rec_mem_rw(struct rproc *p, uint64_t addr, void *buf, size_t len,
		       bool write)
{
	ssize_t n;

	if (utrace__rec_mem_open(p))
		return -EIO;
	n = write ? pwrite(p->memfd, buf, len, (off_t)addr) :
		    pread(p->memfd, buf, len, (off_t)addr);
	return n == (ssize_t)len ? 0 : -EFAULT;
}

/* -- Running code in a stopped thread ------------------------------------------ */

/*
 * Run the thread with @in until its next trap (an int3 of the blob or of
 * the bytes placed for the first call) and return its registers there in
 * @out; its own registers and signal mask are put back.  Signals stay
 * blocked meanwhile (pending ones wait); a stop signal is sent again after.
 * Returns 0, or -ESRCH when the thread died (its status is requeued for
 * the loop), or -EIO.
 */
static int inject(struct uthread *th, const struct user_regs_struct *in,
		  struct user_regs_struct *out)
{
	struct user_regs_struct saved;
	uint64_t mask, all = ~0ULL;
	pid_t tid = TID(th);
	int resend = 0, err = 0;

	if (ptrace(PTRACE_GETREGS, tid, 0L, &saved) < 0)
		return -EIO;
	if (ptrace(PTRACE_GETSIGMASK, tid, (void *)sizeof(mask), &mask) < 0)
		return -EIO;
	ptrace(PTRACE_SETSIGMASK, tid, (void *)sizeof(all), &all);
	utrace__th_regs_drop(th);
	if (ptrace(PTRACE_SETREGS, tid, 0L, in) < 0 ||
	    ptrace(PTRACE_CONT, tid, 0L, 0L) < 0) {
		err = -EIO;
		goto restore;
	}
	for (;;) {
		int st, sig;

		if (waitpid(tid, &st, __WALL) < 0) {
			if (errno == EINTR)
				continue;
			return -ESRCH;
		}
		if (!WIFSTOPPED(st)) {
			/* SIGKILL: the loop reports the death. */
			utrace__th_gone(th, st);
			return -ESRCH;
		}
		sig = WSTOPSIG(st);
		if ((st >> 16) == 0 && sig == SIGTRAP)
			break;
		if ((st >> 16) == 0)
			resend = sig;	/* a stop signal: not blockable */
		ptrace(PTRACE_CONT, tid, 0L, 0L);
	}
	if (ptrace(PTRACE_GETREGS, tid, 0L, out) < 0)
		err = -EIO;
restore:
	ptrace(PTRACE_SETREGS, tid, 0L, &saved);
	ptrace(PTRACE_SETSIGMASK, tid, (void *)sizeof(mask), &mask);
	if (resend)
		syscall(SYS_tgkill, TGID(th), tid, resend);
	return err;
}

/* A syscall made by the thread from the blob's gadget; its result. */
long utrace__rec_inject_syscall(struct uthread *th, struct rproc *p, long nr,
				long a0, long a1, long a2, long a3, long a4,
				long a5)
{
	struct user_regs_struct r, out;
	int err;

	if (ptrace(PTRACE_GETREGS, TID(th), 0L, &r) < 0)
		return -EIO;
	r.rip = p->code + (uint64_t)(urec_blob_gadget - urec_blob_start);
	r.rax = (unsigned long)nr;
	r.orig_rax = (unsigned long)-1;
	r.rdi = (unsigned long)a0;
	r.rsi = (unsigned long)a1;
	r.rdx = (unsigned long)a2;
	r.r10 = (unsigned long)a3;
	r.r8 = (unsigned long)a4;
	r.r9 = (unsigned long)a5;
	err = inject(th, &r, &out);
	return err ? err : (long)out.rax;
}

/* -- Processes ---------------------------------------------------------------------- */

struct rproc *utrace__rec_proc_find(struct rec *rec, pid_t tgid)
{
	for (struct rproc *p = rec->procs; p; p = p->next)
		if (p->tgid == tgid)
			return p;
	return NULL;
}

/*
 * The blob builds the largest record on a thread's stack in its slot,
 * under its frame and above the guard page, with room for its helpers.
 */
_Static_assert(UREC_PAGE + UREC_REC_MAX + UREC_F_SIZE + 1024 <=
	       UREC_STACK_SIZE, "a record fits on the blob's stack");

static void proc_unmap(struct rec *rec, struct rproc *p)
{
	pthread_mutex_lock(&rec->lock);
	if (p->map)
		munmap(p->map, UREC_AREA_SIZE);
	p->map = NULL;
	pthread_mutex_unlock(&rec->lock);
}

static void sites_free(struct rproc *p)
{
	for (int i = 0; i < SITE_BUCKETS; i++) {
		struct site *s, *n;

		for (s = p->sites[i]; s; s = n) {
			n = s->next;
			free(s);
		}
		p->sites[i] = NULL;
	}
	while (p->pages) {
		struct stub_page *sp = p->pages;

		p->pages = sp->next;
		free(sp);
	}
}

void utrace__rec_proc_free(struct rec *rec, struct rproc *p)
{
	pthread_mutex_lock(&rec->lock);
	for (struct rproc **pp = &rec->procs; *pp; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	}
	pthread_mutex_unlock(&rec->lock);
	proc_unmap(rec, p);
	sites_free(p);
	if (p->memfd >= 0)
		close(p->memfd);
	free(p);
}

struct rproc *utrace__rec_proc_new(struct rec *rec, pid_t tgid)
{
	struct rproc *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->tgid = tgid;
	p->memfd = -1;
	p->state = P_PENDING;
	pthread_mutex_lock(&rec->lock);
	p->next = rec->procs;
	rec->procs = p;
	pthread_mutex_unlock(&rec->lock);
	return p;
}

/* Threads in the process now, from /proc (ours or not). */
int utrace__rec_proc_threads(pid_t tgid)
{
	char buf[4096];
	const char *v;

	if (!utrace__proc_status(tgid, buf, sizeof(buf)))
		return -1;
	v = utrace__proc_field(buf, "Threads");
	return v ? atoi(v) : -1;
}

/*
 * Whether the process runs under a seccomp filter already (its own, or
 * one it inherited from a parent that installed it, as strace's child
 * does before its execve): the blob's syscalls would meet the filter,
 * so it is not set up, as one that installs a filter later falls back.
 */
bool utrace__rec_proc_filtered(pid_t tgid)
{
	char buf[4096];
	const char *v;

	if (!utrace__proc_status(tgid, buf, sizeof(buf)))
		return true;
	v = utrace__proc_field(buf, "Seccomp");
	return !v || atoi(v) != 0;
}

/* -- Threads ------------------------------------------------------------------------ */

struct rthread *utrace__rec_rt_get(struct uthread *th)
{
	void **d = utrace__th_data(th, &utrace__rec_layer);
	struct rthread *rt;

	if (!d)
		return NULL;
	if (*d)
		return *d;
	rt = calloc(1, sizeof(*rt));
	if (!rt)
		return NULL;
	rt->th = th;
	rt->slot = -1;
	*d = rt;
	return rt;
}

static void rt_unlist(struct rec *rec, struct rthread *rt)
{
	for (struct rthread **pp = &rec->rts; *pp; pp = &(*pp)->next) {
		if (*pp == rt) {
			*pp = rt->next;
			break;
		}
	}
}

/*
 * What the engines of @th want of each syscall, into @want (recorded) and
 * @stop (the stop path).  A syscall is recorded when the tracer has
 * capture rules for it and every engine a pass for it would visit is an
 * observer; one some engine wants otherwise stops; the rest run plain.
 */
void utrace__rec_wants_of(struct rec *rec, struct uthread *th, uint64_t *want,
			  uint64_t *stop)
{
	utrace__th_observed(th, rec->capture, want, stop);
	/*
	 * These stop even when no engine wants them: the tracer must see
	 * them, and none may be made from the blob (a fork or vfork child
	 * or a signal return would go on from inside it).
	 */
	for (long nr = 0; nr < NBITS; nr++) {
		if (never_recorded(nr)) {
			bit_set(want, nr, false);
			bit_set(stop, nr, true);
		}
	}
}

void utrace__rec_slot_publish(struct rthread *rt)
{
	char *s;

	if (rt->slot < 0 || !rt->p->map)
		return;
	s = slot_hdr(rt->p, rt->slot);
	memcpy(s + UREC_S_WANT, rt->want, sizeof(rt->want));
	memcpy(s + UREC_S_STOP, rt->stop, sizeof(rt->stop));
}

/* Syscall user dispatch on @th, the blob's code allowed; @on false: off. */
static int sud_set(struct rthread *rt, bool on)
{
	struct ptrace_sud_config c = { 0, 0, 0, 0 };

	if (on) {
		c.mode = PR_SYS_DISPATCH_ON;
		c.selector = rt->p->area + slot_off(rt->slot) +
			     UREC_S_SELECTOR;
		c.offset = rt->p->code;
		c.len = UREC_CODE_SIZE;
	}
	if (ptrace(PTRACE_SET_SYSCALL_USER_DISPATCH_CONFIG, TID(rt->th),
		   (void *)sizeof(c), &c) < 0)
		return -errno;
	return 0;
}

/* Give stopped thread @th a slot of @p: its GS base, dispatch on. */
int utrace__rec_thread_on(struct rec *rec, struct rproc *p, struct rthread *rt)
{
	struct uthread *th = rt->th;
	struct user_regs_struct r;
	char *s;
	int slot;

	for (slot = 0; slot < UREC_NSLOTS; slot++)
		if (!(p->slots & (1u << slot)))
			break;
	if (slot == UREC_NSLOTS)
		return -ENOSPC;
	if (ptrace(PTRACE_GETREGS, TID(th), 0L, &r) < 0)
		return -ESRCH;
	/* The program uses GS itself: leave it alone (stops). */
	if (r.gs_base && !in_area(p, r.gs_base))
		return -EBUSY;
	s = slot_hdr(p, slot);
	memset(s, 0, UREC_SLOT_HDR);
	s[UREC_S_SELECTOR] = 1;		/* SYSCALL_DISPATCH_FILTER_BLOCK */
	*(uint32_t *)(s + UREC_S_THRESH) = UREC_RING_SIZE / 8;
	rt->p = p;
	rt->slot = slot;
	utrace__rec_wants_of(rec, th, rt->want, rt->stop);
	utrace__rec_slot_publish(rt);
	*(volatile uint32_t *)(s + UREC_S_ON) = 1;
	r.gs_base = p->area + slot_off(slot);
	if (ptrace(PTRACE_SETREGS, TID(th), 0L, &r) < 0 || sud_set(rt, true)) {
		r.gs_base = p->area + UREC_H_NULL;
		ptrace(PTRACE_SETREGS, TID(th), 0L, &r);
		*(volatile uint32_t *)(s + UREC_S_ON) = 0;
		rt->slot = -1;
		return -EIO;
	}
	utrace__th_regs_drop(th);
	p->slots |= 1u << slot;
	utrace__th_set_trapped(th, true);
	rt->next = rec->rts;
	rec->rts = rt;
	return 0;
}

/*
 * Stop recording @rt's thread (still traced, stopped or gone).  A thread
 * that lives keeps a GS base in the area, the null slot's: the blob may
 * still be reached from a rewritten site, and sends it to the stub's own
 * syscall.
 */
void utrace__rec_thread_off(struct rec *rec, struct rthread *rt, bool alive)
{
	struct uthread *th = rt->th;

	if (rt->slot < 0)
		return;
	utrace__rec_drain_thread(rec, rt, true);
	if (alive) {
		struct user_regs_struct r;

		utrace__rec_unwind(rec, rt, true);
		sud_set(rt, false);
		if (ptrace(PTRACE_GETREGS, TID(th), 0L, &r) == 0) {
			r.gs_base = rt->p->area + UREC_H_NULL;
			ptrace(PTRACE_SETREGS, TID(th), 0L, &r);
		}
		utrace__th_regs_drop(th);
	}
	if (rt->p->map) {
		char *s = slot_hdr(rt->p, rt->slot);

		*(volatile uint32_t *)(s + UREC_S_ON) = 0;
		s[UREC_S_SELECTOR] = 0;
	}
	rt->p->slots &= ~(1u << rt->slot);
	rt->slot = -1;
	rt->flip = rt->flip_armed = false;
	utrace__th_set_trapped(th, false);
	rt_unlist(rec, rt);
}

/* -- Setting a process up -------------------------------------------------------- */

/*
 * The blob's SIGSYS handler, for a tracer that dies: only over the
 * default action (a program with a SIGSYS handler or SIG_IGN of its own
 * is not set up).  Its rt_sigaction(SIGSYS) later sends the process back
 * to stops (hook_status).
 */
int utrace__rec_sigsys_handler(struct rproc *p, struct uthread *th)
{
	uint64_t act[4], old[4];
	uint64_t at = p->code + UREC_CODE_SIZE;
	long r;

	act[0] = p->code + (uint64_t)(urec_blob_sigsys - urec_blob_start);
	act[1] = SA_SIGINFO | 0x04000000;	/* SA_RESTORER */
	act[2] = p->code + (uint64_t)(urec_blob_restorer - urec_blob_start);
	act[3] = ~0ULL;
	if (utrace__rec_mem_rw(p, at + UREC_D_SIGACT, act, sizeof(act), true))
		return -EFAULT;
	r = utrace__rec_inject_syscall(th, p, SYS_rt_sigaction, SIGSYS,
				       (long)(at + UREC_D_SIGACT),
				       (long)(at + UREC_D_OLDACT), 8, 0, 0);
	if (r)
		return r == -ESRCH ? -ESRCH : -EIO;
	if (utrace__rec_mem_rw(p, at + UREC_D_OLDACT, old, sizeof(old), false))
		return -EFAULT;
	if (old[0] == 0)	/* SIG_DFL */
		return 0;
	r = utrace__rec_inject_syscall(th, p, SYS_rt_sigaction, SIGSYS,
				       (long)(at + UREC_D_OLDACT), 0, 8, 0, 0);
	return r == -ESRCH ? -ESRCH : -EBUSY;
}

/* The tracer's capture rules into @p's area (the blob reads them there). */
static void rules_publish(struct rec *rec, struct rproc *p)
{
	if (!p->map)
		return;
	memcpy(p->map + UREC_H_RULEIDX, rec->ruleidx, sizeof(rec->ruleidx));
	memcpy(p->map + UREC_H_RULES, rec->sets,
	       (size_t)(rec->nsets + 1) * UREC_RULESET);
}

/*
 * The blob's data page says that every thread of @p has a GS base in the
 * area (a slot or the null slot), so that the blob may use it.  Only a
 * fork child's copy of the page is 0 (wiped): its area is not mapped.
 */
static int blob_on(struct rproc *p)
{
	uint64_t on = 1;

	return utrace__rec_mem_rw(p, p->code + UREC_CODE_SIZE + UREC_D_ON, &on,
				  sizeof(on), true);
}

/*
 * Place the blob and the shared area in @th's process (its only thread,
 * stopped where it returns to user mode next) and give @th a slot.
 */
int utrace__rec_setup(struct rec *rec, struct rproc *p, struct rthread *rt)
{
	static const unsigned char call[3] = { 0x0f, 0x05, 0xcc };
	struct uthread *th = rt->th;
	struct user_regs_struct saved, r, out;
	unsigned char orig[3];
	char path[64];
	long region, area;
	size_t blob = (size_t)(urec_blob_end - urec_blob_start);
	uint64_t data[4];
	int fd, err;

	if (ptrace(PTRACE_GETREGS, TID(th), 0L, &saved) < 0)
		return -ESRCH;
	if (saved.gs_base)
		return -EBUSY;
	/* mmap of the region, from the bytes at the thread's ip */
	if (utrace__rec_mem_rw(p, saved.rip, orig, sizeof(orig), false) ||
	    utrace__rec_mem_rw(p, saved.rip, (void *)call, sizeof(call), true))
		return -EFAULT;
	r = saved;
	r.orig_rax = (unsigned long)-1;
	r.rax = SYS_mmap;
	r.rdi = 0;
	r.rsi = UREC_REGION_SIZE;
	r.rdx = PROT_READ | PROT_EXEC;
	r.r10 = MAP_PRIVATE | MAP_ANONYMOUS;
	r.r8 = (unsigned long)-1;
	r.r9 = 0;
	err = inject(th, &r, &out);
	if (utrace__rec_mem_rw(p, saved.rip, orig, sizeof(orig), true) && !err)
		err = -EFAULT;
	if (err)
		return err;
	region = (long)out.rax;
	if (region < 0 && region > -4096)
		return (int)region;
	p->code = (uint64_t)region;
	if (utrace__rec_mem_rw(p, p->code, (void *)urec_blob_start, blob, true))
		return -EFAULT;
	/* the blob makes its data page and the shared area */
	r = saved;
	r.orig_rax = (unsigned long)-1;
	r.rip = p->code + (uint64_t)(urec_blob_setup - urec_blob_start);
	r.rsp = (saved.rsp - 256) & ~15ULL;
	r.rdi = UREC_AREA_SIZE;
	err = inject(th, &r, &out);
	if (err)
		return err;
	area = (long)out.rax;
	if (area < 0 && area > -4096)
		return (int)area;
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)TID(th),
		 (int)out.rdx);
	fd = open(path, O_RDWR | O_CLOEXEC);
	utrace__rec_inject_syscall(th, p, SYS_close, (long)out.rdx, 0, 0, 0, 0,
				   0);
	if (fd < 0)
		return -errno;
	pthread_mutex_lock(&rec->lock);
	p->map = mmap(NULL, UREC_AREA_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		      fd, 0);
	if (p->map == MAP_FAILED)
		p->map = NULL;
	pthread_mutex_unlock(&rec->lock);
	close(fd);
	if (!p->map)
		return -ENOMEM;
	p->area = (uint64_t)area;
	*(uint64_t *)(p->map + UREC_H_MAGIC) = UREC_MAGIC;
	*(volatile uint32_t *)(p->map + UREC_H_STATE) = 1;
	*(uint32_t *)(p->map + UREC_H_NULL + UREC_S_BUSY) = 1;
	data[0] = p->area;
	data[1] = p->area + UREC_AREA_SIZE;
	data[2] = (uint64_t)getpid();
	data[3] = (uint64_t)p->tgid;
	rules_publish(rec, p);
	if (utrace__rec_mem_rw(p, p->code + UREC_CODE_SIZE + UREC_D_AREA, data,
			       sizeof(data), true))
		return -EFAULT;
	err = utrace__rec_sigsys_handler(p, th);
	if (err)
		return err;
	utrace__rec_stub_pages_ahead(p, th);
	err = utrace__rec_thread_on(rec, p, rt);
	if (err)
		return err;
	/* the blob may use GS from now on: every thread has a valid one */
	return blob_on(p);
}

/* -- Public ------------------------------------------------------------------------ */

/* Does this kernel and CPU have what the path needs?  (utrace(7)) */
static bool usable(void)
{
	struct ptrace_sud_config c;

	if (!(getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE))
		return false;
	/* The request exists (6.11): ESRCH for a pid we do not trace. */
	memset(&c, 0, sizeof(c));
	return ptrace(PTRACE_SET_SYSCALL_USER_DISPATCH_CONFIG, 0, 0L, &c) < 0 &&
	       errno != EIO;
}

struct set_args {
	struct utrace_tracer *t;
	unsigned mode;
};

static int do_set_records(void *arg)
{
	struct set_args *a = arg;
	struct utrace_tracer *t = a->t;
	struct rec *rec = rec_of(t);
	int err;

	if (!rec) {
		rec = calloc(1, sizeof(*rec));
		if (!rec)
			return -ENOMEM;
		rec->t = t;
		rec->usable = usable();
		utrace__rec_tsc_pair(&rec->tsc0, &rec->ns0);
		rec->buf = malloc(sizeof(*rec->buf));
		if (!rec->buf) {
			free(rec);
			return -ENOMEM;
		}
		pthread_mutex_init(&rec->lock, NULL);
		err = utrace__layer_register(t, &utrace__rec_layer, rec);
		if (err) {
			pthread_mutex_destroy(&rec->lock);
			free(rec->buf);
			free(rec);
			return err;
		}
	}
	rec->on = a->mode == UTRACE_RECORDS_ON;
	/* children spawned from now on: dispatch traps, not a filter */
	utrace__no_spawn_filter(t, rec->on && rec->usable);
	if (!rec->on) {
		/* stops only from now on: every recording thread stops */
		while (rec->rts) {
			struct rthread *rt = rec->rts;

			if (utrace__th_stop(rt->th) != STOP_NONE)
				utrace__rec_thread_off(rec, rt, true);
			else
				break;
		}
		for (struct rproc *p = rec->procs; p; p = p->next)
			if (p->map)
				*(volatile uint32_t *)(p->map + UREC_H_STATE) =
					0;
	}
	return rec->usable || !rec->on ? 0 : -EOPNOTSUPP;
}

/**
 * utrace_tracer_set_records - choose stops only, or records for observers
 * See utrace_tracer_set_records(3).
 */
UTRACE_EXPORT int utrace_tracer_set_records(struct utrace_tracer *t,
					    unsigned mode)
{
	struct set_args a = { t, mode };

	if (!t || mode > UTRACE_RECORDS_ON)
		return -EINVAL;
	return utrace__call(t, do_set_records, &a);
}

struct capture_args {
	struct utrace_tracer *t;
	long nr;
	unsigned char set[UREC_RULESET];
	size_t n;
};

static int do_set_capture(void *arg)
{
	struct capture_args *a = arg;
	struct rec *rec = rec_of(a->t);
	unsigned idx;

	if (!rec) {
		struct set_args s = { a->t, UTRACE_RECORDS_OFF };
		int err = do_set_records(&s);

		if (err)
			return err;
		rec = rec_of(a->t);
	}
	idx = rec->ruleidx[a->nr];
	if (a->n && !idx) {
		if (rec->nsets == 255)
			return -ENOSPC;
		idx = ++rec->nsets;
	}
	if (idx)
		memcpy(rec->sets[idx], a->set, UREC_RULESET);
	rec->ruleidx[a->nr] = a->n ? (unsigned char)idx : 0;
	bit_set(rec->capture, a->nr, true);
	for (struct rproc *p = rec->procs; p; p = p->next)
		rules_publish(rec, p);
	for (struct rthread *rt = rec->rts; rt; rt = rt->next) {
		utrace__rec_wants_of(rec, rt->th, rt->want, rt->stop);
		utrace__rec_slot_publish(rt);
	}
	return 0;
}

/**
 * utrace_set_capture - what a record of syscall @nr holds
 * See utrace_set_capture(3).
 */
UTRACE_EXPORT int utrace_set_capture(struct utrace_tracer *t, long nr,
				     const struct utrace_capture *rules,
				     size_t n)
{
	struct capture_args a = { t, nr, { 0 }, n };
	size_t stride;

	if (!t || nr < 0 || nr >= NBITS || (n && !rules) || n > UREC_NRULES)
		return -EINVAL;
	stride = n ? rules[0].size : 0;
	/* The caller's structure may be newer (larger): read ours of it. */
	if (n && stride < sizeof(struct utrace_capture))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		const struct utrace_capture *c =
			(const void *)((const char *)rules + i * stride);
		unsigned char *r = a.set + i * 8;
		uint32_t max = (uint32_t)c->len;

		unsigned when = c->when & ~UTRACE_CAPTURE_WHOLE;

		if (c->arg > 5 || !when ||
		    (when & ~(UTRACE_CAPTURE_ENTRY | UTRACE_CAPTURE_EXIT)) ||
		    c->kind > UTRACE_CAPTURE_STRING ||
		    ((c->kind == UTRACE_CAPTURE_ARGLEN ||
		      (c->when & UTRACE_CAPTURE_WHOLE)) && c->len_arg > 5) ||
		    (c->kind == UTRACE_CAPTURE_RETLEN &&
		     when != UTRACE_CAPTURE_EXIT) ||
		    c->len > UREC_CAP_LIMIT)
			return -EINVAL;
		r[UREC_RU_WHEN] = (unsigned char)c->when;
		r[UREC_RU_ARG] = (unsigned char)c->arg;
		r[UREC_RU_KIND] = (unsigned char)c->kind;
		r[UREC_RU_LENARG] = (unsigned char)c->len_arg;
		memcpy(r + UREC_RU_MAX, &max, sizeof(max));
	}
	return utrace__call(t, do_set_capture, &a);
}

/**
 * utrace_tracer_record_stats - counters of the record path, for tests and
 * benchmarks: records delivered, traps taken, sites rewritten, syscalls
 * sent to the stop path from a trap.  See utrace_tracer_set_records(3).
 */
struct stats_args {
	struct utrace_tracer *t;
	uint64_t *out;
	size_t n;
};

static int do_stats(void *arg)
{
	struct stats_args *a = arg;
	struct rec *rec = rec_of(a->t);

	for (size_t i = 0; i < a->n && i < 4; i++)
		a->out[i] = rec ? rec->stats[i] : 0;
	return a->n < 4 ? (int)a->n : 4;
}

UTRACE_EXPORT int utrace_tracer_record_stats(struct utrace_tracer *t,
					     uint64_t *out, size_t n)
{
	struct stats_args a = { t, out, n };

	if (!t || (n && !out))
		return -EINVAL;
	return utrace__call(t, do_stats, &a);
}
