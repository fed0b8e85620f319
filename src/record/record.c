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
 * write it): see drain_thread().
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
#include "record/layout.h"
#include "record/ring.h"

#ifndef PTRACE_SET_SYSCALL_USER_DISPATCH_CONFIG
#define PTRACE_SET_SYSCALL_USER_DISPATCH_CONFIG 0x4210
struct ptrace_sud_config {
	uint64_t mode;
	uint64_t selector;
	uint64_t offset;
	uint64_t len;
};
#endif
#ifndef PR_SYS_DISPATCH_ON
#define PR_SYS_DISPATCH_ON 1
#endif
#ifndef SYS_USER_DISPATCH
#define SYS_USER_DISPATCH 2
#endif
#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE (1 << 1)
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449
#endif
#ifndef FUTEX2_SIZE_U32
#define FUTEX2_SIZE_U32 0x02
#endif

/* in blob.S */
extern const char urec_blob_start[], urec_blob_end[];
extern const char urec_blob_setup[], urec_blob_close[], urec_blob_gadget[];
extern const char urec_blob_sigsys[], urec_blob_restorer[];
extern const char urec_blob_sys_rec[], urec_blob_sys_plain[];
extern const char urec_blob_switch[], urec_blob_switched[], urec_blob_saved[];
extern const char urec_blob_committed[], urec_blob_return[];
extern const char urec_blob_rec_saved[], urec_blob_plain_saved[];
extern const char urec_blob_leave[], urec_blob_left[], urec_blob_entry_end[];
extern const char urec_blob_path_end[];

/* A label's offset in the blob (and in its code page). */
#define BLOB(sym)	((uint64_t)((sym) - urec_blob_start))

#define NBITS		UTRACE__SYSSET_BITS
#define TID(th)		utrace__th_tid(th)
#define TGID(th)	utrace__th_tgid(th)
#define SITE_BUCKETS	256
#define STUB_PAGE	UREC_PAGE
#define STUB_MAX	96	/* bytes one stub may take */
#define WINDOW_MAX	16	/* bytes of a rewritten site */
#define MAX_BELLS	64

/*
 * A process: to be set up at its next user-mode return, recording, not
 * recording this image, or falling back to stops (the program took over
 * SIGSYS, GS or dispatch: each thread leaves the path at its next stop).
 */
enum { P_PENDING, P_ON, P_FAILED, P_FALLBACK };

/* A syscall instruction seen trapping, and its stub. */
struct site {
	struct site *next;
	uint64_t addr;		/* the syscall instruction */
	uint64_t e2;		/* its stub (E, layout.h) */
	uint64_t x;		/* the stub's own syscall instruction */
	unsigned len;		/* bytes of the rewritten window */
	bool patched;
};

struct stub_page {
	struct stub_page *next;
	uint64_t addr;
	size_t used;
};

/* One traced process (thread group) the layer knows. */
struct rproc {
	struct rproc *next;
	pid_t tgid;
	int state;
	int memfd;		/* /proc/TGID/mem */
	uint64_t code;		/* the blob's code page in the process */
	uint64_t area;		/* the shared area in the process */
	char *map;		/* the same area in the tracer */
	uint32_t slots;		/* slots in use */
	struct site *sites[SITE_BUCKETS];
	struct stub_page *pages;
};

/* One traced thread's state here (uthread.layer). */
struct rthread {
	struct rthread *next;	/* recording threads */
	struct uthread *th;
	struct rproc *p;
	int slot;		/* -1: no ring */
	bool seen;		/* first restart done */
	bool superseded;	/* an old leader replaced by an execve */
	bool attached;		/* taken over running (utrace_attach), not born
				   under the tracer nor spawned by it */
	bool flip;		/* selector opened for one syscall at a stop */
	bool flip_armed;	/* ... from the stop that opened it */
	bool lent;		/* its slot taken while it clones (vfork) */
	bool in_entry;		/* an entry record delivered, exit not yet */
	struct utrace_syscall sc;	/* that entry's */
	int64_t times[2];		/* its entry's and exit's (tsc_ns) */
	struct user_regs_struct regs;
	/*
	 * The memory the entry being reported captured, and its exit's: a
	 * copy of the record, and where each capture is in it.
	 */
	struct utrace__cap ecap[UREC_NRULES], xcap[UREC_NRULES];
	unsigned necap, nxcap;
	unsigned char *ebuf, *xbuf;
	bool cur_exit;		/* reporting the exit (both sets visible) */
	bool live;		/* reported at a stop: memory read live */
	uint64_t want[NBITS / 64];	/* copies of what the slot holds */
	uint64_t stop[NBITS / 64];
};

struct rec {
	struct utrace_tracer *t;
	bool on;
	bool usable;		/* the kernel and CPU have the means */
	struct rproc *procs;
	struct rthread *rts;
	uint64_t capture[NBITS / 64];	/* syscalls that may be recorded */
	/* the bell helper (any thread: under lock) */
	pthread_mutex_t lock;
	struct utrace__rrec *buf;	/* the record being delivered */
	/* capture rules: the set each syscall uses (0: none), and the sets */
	unsigned char ruleidx[NBITS];
	unsigned nsets;
	unsigned char sets[256][UREC_RULESET];
	pthread_t bell;
	bool bell_started, bell_stop;
	uint64_t stats[4];
	/* the records' clock: TSC and CLOCK_MONOTONIC read together */
	uint64_t tsc0, tsc1;
	int64_t ns0, ns1;
};

enum { ST_RECORDS, ST_TRAPS, ST_PATCHED, ST_FLIPS };

static const struct utrace__layer rec_layer;

static struct rec *rec_of(struct utrace_tracer *t)
{
	return utrace__layer_data(t, &rec_layer);
}

static bool bit(const uint64_t *set, long nr)
{
	return nr >= 0 && nr < NBITS && (set[nr / 64] >> (nr % 64) & 1);
}

static void bit_set(uint64_t *set, long nr, bool v)
{
	if (nr < 0 || nr >= NBITS)
		return;
	if (v)
		set[nr / 64] |= 1ULL << (nr % 64);
	else
		set[nr / 64] &= ~(1ULL << (nr % 64));
}

/*
 * Syscalls that always take the stop path: the ones the tracer must see
 * stop (they start or replace threads and images, or end them), and the
 * ones by which a program takes over what this path relies on (its own
 * seccomp filter, syscall user dispatch, SIGSYS handler, GS base).
 */
static bool never_recorded(long nr)
{
	switch (nr) {
	case SYS_execve: case SYS_execveat: case SYS_clone: case SYS_clone3:
	case SYS_fork: case SYS_vfork: case SYS_rt_sigreturn: case SYS_exit:
	case SYS_exit_group: case SYS_arch_prctl: case SYS_prctl:
	case SYS_seccomp: case SYS_rt_sigaction: case SYS_rt_sigprocmask:
		return true;
	}
	return false;
}

/* -- Tracee memory ---------------------------------------------------------- */

static int mem_open(struct rproc *p)
{
	char path[64];

	if (p->memfd >= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)p->tgid);
	p->memfd = open(path, O_RDWR | O_CLOEXEC);
	return p->memfd < 0 ? -errno : 0;
}

/* Read or write tracee memory; /proc/PID/mem writes read-only code too. */
static int mem_rw(struct rproc *p, uint64_t addr, void *buf, size_t len,
		  bool write)
{
	ssize_t n;

	if (mem_open(p))
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
static long inject_syscall(struct uthread *th, struct rproc *p, long nr,
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

static struct rproc *proc_find(struct rec *rec, pid_t tgid)
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

/* A slot's header (its stack below, its ring after), here and there. */
static size_t slot_off(int slot)
{
	return UREC_HDR_SIZE + (size_t)slot * UREC_SLOT_SIZE + UREC_STACK_SIZE;
}

static char *slot_hdr(struct rproc *p, int slot)
{
	return p->map + slot_off(slot);
}

/* Is @addr (of the process) in @p's area? */
static bool in_area(const struct rproc *p, uint64_t addr)
{
	return p->area && addr >= p->area && addr < p->area + UREC_AREA_SIZE;
}

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

static void proc_free(struct rec *rec, struct rproc *p)
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

static struct rproc *proc_new(struct rec *rec, pid_t tgid)
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
static int proc_threads(pid_t tgid)
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
static bool proc_filtered(pid_t tgid)
{
	char buf[4096];
	const char *v;

	if (!utrace__proc_status(tgid, buf, sizeof(buf)))
		return true;
	v = utrace__proc_field(buf, "Seccomp");
	return !v || atoi(v) != 0;
}

/* -- Threads ------------------------------------------------------------------------ */

static struct rthread *rt_of(struct uthread *th)
{
	void **d = utrace__th_data(th, &rec_layer);

	return d ? *d : NULL;
}

static struct rthread *rt_get(struct uthread *th)
{
	void **d = utrace__th_data(th, &rec_layer);
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
static void wants_of(struct rec *rec, struct uthread *th, uint64_t *want,
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

static void slot_publish(struct rthread *rt)
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
static int thread_on(struct rec *rec, struct rproc *p, struct rthread *rt)
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
	wants_of(rec, th, rt->want, rt->stop);
	slot_publish(rt);
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

static void drain_thread(struct rec *rec, struct rthread *rt, bool all);
static void unwind(struct rec *rec, struct rthread *rt, bool report);

/*
 * Stop recording @rt's thread (still traced, stopped or gone).  A thread
 * that lives keeps a GS base in the area, the null slot's: the blob may
 * still be reached from a rewritten site, and sends it to the stub's own
 * syscall.
 */
static void thread_off(struct rec *rec, struct rthread *rt, bool alive)
{
	struct uthread *th = rt->th;

	if (rt->slot < 0)
		return;
	drain_thread(rec, rt, true);
	if (alive) {
		struct user_regs_struct r;

		unwind(rec, rt, true);
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
static int sigsys_handler(struct rproc *p, struct uthread *th)
{
	uint64_t act[4], old[4];
	uint64_t at = p->code + UREC_CODE_SIZE;
	long r;

	act[0] = p->code + (uint64_t)(urec_blob_sigsys - urec_blob_start);
	act[1] = SA_SIGINFO | 0x04000000;	/* SA_RESTORER */
	act[2] = p->code + (uint64_t)(urec_blob_restorer - urec_blob_start);
	act[3] = ~0ULL;
	if (mem_rw(p, at + UREC_D_SIGACT, act, sizeof(act), true))
		return -EFAULT;
	r = inject_syscall(th, p, SYS_rt_sigaction, SIGSYS,
			   (long)(at + UREC_D_SIGACT),
			   (long)(at + UREC_D_OLDACT), 8, 0, 0);
	if (r)
		return r == -ESRCH ? -ESRCH : -EIO;
	if (mem_rw(p, at + UREC_D_OLDACT, old, sizeof(old), false))
		return -EFAULT;
	if (old[0] == 0)	/* SIG_DFL */
		return 0;
	r = inject_syscall(th, p, SYS_rt_sigaction, SIGSYS,
			   (long)(at + UREC_D_OLDACT), 0, 8, 0, 0);
	return r == -ESRCH ? -ESRCH : -EBUSY;
}

static void stub_pages_ahead(struct rproc *p, struct uthread *th);

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

	return mem_rw(p, p->code + UREC_CODE_SIZE + UREC_D_ON, &on, sizeof(on),
		      true);
}

/*
 * Place the blob and the shared area in @th's process (its only thread,
 * stopped where it returns to user mode next) and give @th a slot.
 */
static int setup(struct rec *rec, struct rproc *p, struct rthread *rt)
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
	if (mem_rw(p, saved.rip, orig, sizeof(orig), false) ||
	    mem_rw(p, saved.rip, (void *)call, sizeof(call), true))
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
	if (mem_rw(p, saved.rip, orig, sizeof(orig), true) && !err)
		err = -EFAULT;
	if (err)
		return err;
	region = (long)out.rax;
	if (region < 0 && region > -4096)
		return (int)region;
	p->code = (uint64_t)region;
	if (mem_rw(p, p->code, (void *)urec_blob_start, blob, true))
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
	inject_syscall(th, p, SYS_close, (long)out.rdx, 0, 0, 0, 0, 0);
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
	if (mem_rw(p, p->code + UREC_CODE_SIZE + UREC_D_AREA, data,
		   sizeof(data), true))
		return -EFAULT;
	err = sigsys_handler(p, th);
	if (err)
		return err;
	stub_pages_ahead(p, th);
	err = thread_on(rec, p, rt);
	if (err)
		return err;
	/* the blob may use GS from now on: every thread has a valid one */
	return blob_on(p);
}

/* -- Rewriting syscall sites --------------------------------------------------- */

static struct site *site_find(struct rproc *p, uint64_t addr)
{
	for (struct site *s = p->sites[(addr >> 1) % SITE_BUCKETS]; s;
	     s = s->next)
		if (s->addr == addr)
			return s;
	return NULL;
}

static bool in_stub_page(struct rproc *p, uint64_t addr)
{
	for (struct stub_page *sp = p->pages; sp; sp = sp->next)
		if (addr >= sp->addr && addr < sp->addr + STUB_PAGE)
			return true;
	return false;
}

/*
 * Length of the instruction at @b if it is one a stub may run elsewhere:
 * no branch, nothing relative to rip, registers only (plus immediates).
 * 0 otherwise.
 */
static unsigned movable(const unsigned char *b)
{
	unsigned rex = (b[0] & 0xf0) == 0x40 ? 1 : 0;
	unsigned char op = b[rex], modrm = b[rex + 1];

	if (op == 0x3d)					/* cmp imm32, %eax */
		return rex + 5;
	if ((modrm & 0xc0) != 0xc0)
		return 0;
	switch (op) {
	case 0x89: case 0x8b: case 0x85: case 0x31: case 0x39: case 0x01:
	case 0x29: case 0x09: case 0x21:
		return rex + 2;
	case 0x83:					/* op imm8, reg */
		return rex + 3;
	case 0xf7:					/* neg/not reg */
		return (modrm & 0x38) == 0x18 || (modrm & 0x38) == 0x10 ?
		       rex + 2 : 0;
	}
	return 0;
}

/* A free page within 1 GiB of @near (from /proc/PID/maps), or 0. */
static uint64_t free_page_near(pid_t pid, uint64_t near)
{
	char path[64], line[512];
	uint64_t prev_end = 0x10000, best = 0, bestd = UINT64_MAX;
	const uint64_t limit = 1ULL << 30;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		if (lo >= prev_end + STUB_PAGE) {
			/* gap [prev_end, lo): its page nearest to @near */
			uint64_t cand = near < prev_end ? prev_end :
					near >= lo - STUB_PAGE ? lo - STUB_PAGE :
					(near & ~(uint64_t)(STUB_PAGE - 1));
			uint64_t d = cand > near ? cand - near : near - cand;

			if (d < bestd) {
				bestd = d;
				best = cand;
			}
		}
		if (hi > prev_end)
			prev_end = hi;
	}
	fclose(f);
	return bestd < limit ? best : 0;
}

static int32_t rel32(uint64_t from_next, uint64_t to)
{
	return (int32_t)(int64_t)(to - from_next);
}

static bool reachable(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return d > -(1LL << 31) + 4096 && d < (1LL << 31) - 4096;
}

/* Take the mapped page at @at for stubs: the blob's entry at its start. */
static struct stub_page *stub_page_add(struct rproc *p, uint64_t at)
{
	struct stub_page *sp = calloc(1, sizeof(*sp));
	uint64_t entry = p->code + UREC_OFF_ENTRY;

	if (!sp)
		return NULL;
	sp->addr = at;
	/* the blob's entry, for the stubs' indirect calls */
	if (mem_rw(p, at, &entry, sizeof(entry), true)) {
		free(sp);
		return NULL;
	}
	sp->used = 16;
	sp->next = p->pages;
	p->pages = sp;
	return sp;
}

/*
 * A stub page near @addr with @need bytes free, made if none (@th runs an
 * mmap: a tracer killed meanwhile leaves it broken, so the pages are
 * mostly made ahead, at setup).
 */
static struct stub_page *stub_page_for(struct rproc *p, struct uthread *th,
				       uint64_t addr, size_t need)
{
	struct stub_page *sp;
	uint64_t at;
	long r;

	for (sp = p->pages; sp; sp = sp->next)
		if (sp->used + need <= STUB_PAGE && reachable(sp->addr, addr))
			return sp;
	at = free_page_near(p->tgid, addr);
	if (!at || !reachable(at, addr))
		return NULL;
	r = inject_syscall(th, p, SYS_mmap, (long)at, STUB_PAGE,
			   PROT_READ | PROT_EXEC,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			   -1, 0);
	if ((uint64_t)r != at)
		return NULL;
	return stub_page_add(p, at);
}

/* The program's entry point (the executable's, not the loader's). */
static uint64_t entry_point(pid_t pid)
{
	char path[64];
	uint64_t av[2], entry = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while (read(fd, av, sizeof(av)) == (ssize_t)sizeof(av) && av[0])
		if (av[0] == AT_ENTRY)
			entry = av[1];
	close(fd);
	return entry;
}

/*
 * Stub pages made at setup: the region's, near the loader and the
 * libraries mapped after it, and one near the executable.
 */
static void stub_pages_ahead(struct rproc *p, struct uthread *th)
{
	uint64_t entry = entry_point(p->tgid);

	for (int i = UREC_STUB_PAGES - 1; i >= 0; i--)
		stub_page_add(p, p->code + (uint64_t)(2 + i) * UREC_PAGE);
	if (entry && !reachable(p->code, entry))
		stub_page_for(p, th, entry, STUB_MAX);
}

static size_t put(unsigned char *b, size_t n, const void *src, size_t len)
{
	memcpy(b + n, src, len);
	return n + len;
}

static size_t put_jmp(unsigned char *b, size_t n, uint64_t base, uint64_t to)
{
	int32_t d = rel32(base + n + 5, to);

	b[n] = 0xe9;
	memcpy(b + n + 1, &d, 4);
	return n + 5;
}

/*
 * The site at @addr (its syscall instruction): a stub (layout.h), and the
 * site rewritten to jump to it when its next instructions can move there
 * and the process has a single thread (no other thread can be inside the
 * bytes being rewritten: this one is stopped).  NULL: no stub could be
 * made.
 */
static struct site *site_get(struct rec *rec, struct rproc *p,
			     struct uthread *th, uint64_t addr)
{
	unsigned char code[WINDOW_MAX + 2], stub[STUB_MAX];
	unsigned post = 0, len;
	struct stub_page *sp;
	struct site *s = site_find(p, addr);
	uint64_t base, back, site_after = addr + 2;
	size_t n = 0;
	int32_t d;

	if (s)
		return s;
	if (mem_rw(p, addr, code, sizeof(code), false) ||
	    code[0] != 0x0f || code[1] != 0x05)
		return NULL;
	/* instructions after the syscall that move with it (5 bytes) */
	while (2 + post < 5) {
		unsigned l = movable(code + 2 + post);

		if (!l || 2 + post + l > WINDOW_MAX)
			break;
		post += l;
	}
	len = 2 + post >= 5 ? 2 + post : 2;
	if (len == 2)
		post = 0;
	back = addr + len;
	sp = stub_page_for(p, th, addr, STUB_MAX);
	if (!sp)
		return NULL;
	base = sp->addr + sp->used;	/* E, 16-byte aligned */
	/* E: lea R(%rip), %r11; jmp *(the blob's entry) */
	stub[n++] = 0x4c;
	stub[n++] = 0x8d;
	stub[n++] = 0x1d;
	d = UREC_STUB_R - 7;
	n = put(stub, n, &d, 4);
	stub[n++] = 0xff;
	stub[n++] = 0x25;
	d = rel32(base + n + 4, sp->addr);
	n = put(stub, n, &d, 4);
	/* X: the stub's own syscall */
	stub[n++] = 0x0f;
	stub[n++] = 0x05;
	/* R: movabs $site_after, %rcx; the displaced instructions; back */
	stub[n++] = 0x48;
	stub[n++] = 0xb9;
	n = put(stub, n, &site_after, 8);
	n = put(stub, n, code + 2, post);
	n = put_jmp(stub, n, base, back);
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	if (mem_rw(p, base, stub, n, true)) {
		free(s);
		return NULL;
	}
	sp->used += (n + 15) & ~(size_t)15;
	s->addr = addr;
	s->e2 = base;
	s->x = base + UREC_STUB_X;
	s->len = len;
	if (len >= 5 && proc_threads(p->tgid) == 1) {
		unsigned char jmp[WINDOW_MAX];

		memset(jmp, 0xcc, sizeof(jmp));
		put_jmp(jmp, 0, addr, s->e2);
		if (mem_rw(p, addr, jmp, len, true) == 0) {
			s->patched = true;
			rec->stats[ST_PATCHED]++;
		}
	}
	s->next = p->sites[(addr >> 1) % SITE_BUCKETS];
	p->sites[(addr >> 1) % SITE_BUCKETS] = s;
	return s;
}

/* -- The trap: a syscall made outside the blob ------------------------------------ */

/* Open the selector for the one syscall at @ip, to be stopped for. */
static void flip_at(struct rthread *rt, struct user_regs_struct *r,
		    uint64_t ip)
{
	r->rip = ip;
	utrace__th_regs_changed(rt->th);
	slot_hdr(rt->p, rt->slot)[UREC_S_SELECTOR] = 0;
	rt->flip = rt->flip_armed = true;
}

/*
 * A dispatch trap taken while the program blocked SIGSYS: the kernel
 * forces such a signal (force_sig_info_to_task): it unblocked SIGSYS in the
 * thread's mask and put the blob's handler back to SIG_DFL.  Tell by the
 * handler gone from /proc's SigCgt, and undo both: SIGSYS blocked again,
 * the handler placed again (only the program's own rt_sigaction(SIGSYS)
 * could have removed it otherwise, and that sends its process to stops).
 */
static void sigsys_restore(struct rproc *p, struct uthread *th)
{
	char buf[4096];
	const char *v;
	uint64_t mask;

	if (!utrace__proc_status(TID(th), buf, sizeof(buf)) ||
	    !(v = utrace__proc_field(buf, "SigCgt")) ||
	    strtoull(v, NULL, 16) >> (SIGSYS - 1) & 1)
		return;
	if (ptrace(PTRACE_GETSIGMASK, TID(th), (void *)sizeof(mask),
		   &mask) == 0) {
		mask |= 1ULL << (SIGSYS - 1);
		ptrace(PTRACE_SETSIGMASK, TID(th), (void *)sizeof(mask), &mask);
	}
	sigsys_handler(p, th);
	utrace__th_regs_drop(th);
}

/*
 * A dispatch trap (the kernel rolled rax back to the number; ip is after
 * the syscall instruction): rewrite the site, and send the thread into its
 * stub, or to the stop path for this one syscall.
 */
static void on_sigsys(struct rec *rec, struct rthread *rt)
{
	struct uthread *th = rt->th;
	struct rproc *p = rt->p;
	struct user_regs_struct *r = utrace__th_regs(th);
	uint64_t ip;
	long nr;
	struct site *s;

	rec->stats[ST_TRAPS]++;
	sigsys_restore(p, th);
	r = utrace__th_regs(th);
	if (!r)
		return;
	ip = r->rip;	/* rewound by hook_status */
	nr = (long)r->orig_rax;
	if (in_stub_page(p, ip)) {
		/*
		 * A stub's own syscall (X): the stop path the blob sent it
		 * to (UREC_S_SLOW: a whole rule that does not fit, say), or
		 * a syscall the kernel restarts from R, which goes to the
		 * blob again (E) unless it must stop.  The blob's stack is
		 * taken only in the blob (or by a vfork child): then X.
		 */
		char *sh = slot_hdr(p, rt->slot);
		bool slow = *(volatile uint32_t *)(sh + UREC_S_SLOW);

		*(volatile uint32_t *)(sh + UREC_S_SLOW) = 0;
		if (slow || nr < 0 || nr >= NBITS || bit(rt->stop, nr) ||
		    *(volatile uint32_t *)(sh + UREC_S_BUSY)) {
			flip_at(rt, r, ip);
			rec->stats[ST_FLIPS]++;
			return;
		}
		r->rip = ip & ~(uint64_t)15;
		utrace__th_regs_changed(th);
		return;
	}
	s = site_get(rec, p, th, ip);
	/* making the stub may have run code in the thread */
	utrace__th_regs_drop(th);
	r = utrace__th_regs(th);
	if (!r)
		return;
	if (!s || nr < 0 || nr >= NBITS || bit(rt->stop, nr)) {
		flip_at(rt, r, s ? s->x : ip);
		rec->stats[ST_FLIPS]++;
		return;
	}
	r->rip = s->e2;
	utrace__th_regs_changed(th);
}

/* -- Records: reading and delivering -------------------------------------------- */

/*
 * The records' clock.  The blob stamps each record with the TSC (rdtsc:
 * no syscall, a few cycles); callbacks get CLOCK_MONOTONIC
 * (utrace_syscall_time).  The tracer reads the TSC and the clock together
 * when records are turned on and again at each delivery round, and moves
 * a record's stamp from the latest pair at the rate between the first and
 * the latest.  Records are delivered milliseconds at most after they were
 * made, so the rate's error (a pair's jitter, well under a microsecond,
 * over the time since the first pair) moves a time by nanoseconds.  It
 * needs a TSC that runs at a constant rate and in step on every CPU, as
 * the kernel's own "tsc" clock source does; the cross-thread order of the
 * records relies on that already.
 */
static void tsc_pair(uint64_t *tsc, int64_t *ns)
{
	uint64_t best = UINT64_MAX;

	/* the pair read closest together (no preemption in between) */
	for (int i = 0; i < 4; i++) {
		uint64_t a = __builtin_ia32_rdtsc();
		int64_t n = utrace__now_ns(CLOCK_MONOTONIC);
		uint64_t b = __builtin_ia32_rdtsc();

		if (b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = n;
		}
	}
}

/* A record's TSC stamp in CLOCK_MONOTONIC ns (the stamp is untrusted). */
static int64_t tsc_ns(struct rec *rec, uint64_t tsc)
{
	double rate, d;

	/* a rate from pairs 2 ms apart at least, once */
	while (rec->ns1 - rec->ns0 < 2000000 || rec->tsc1 <= rec->tsc0)
		tsc_pair(&rec->tsc1, &rec->ns1);
	rate = (double)(rec->ns1 - rec->ns0) / (double)(rec->tsc1 - rec->tsc0);
	d = (double)(int64_t)(tsc - rec->tsc1) * rate;
	if (d > 1e15 || d < -1e15)
		return 0;		/* a forged stamp: not known */
	return rec->ns1 + (int64_t)d;
}

/*
 * The next record of the ring of slot @s into @out, without consuming it.
 * The ring is the program's memory: every field is checked, and a ring
 * that breaks the rules turns recording off for that thread (its syscalls
 * then stop).  Returns 1 with a record (@consumed: its bytes and any
 * padding before it), 0 when there is none yet, -1 when it broke.
 */
int utrace__rec_peek(char *s, struct utrace__rrec *out, size_t *consumed,
		     uint64_t *tsc)
{
	char *ring = s + UREC_SLOT_HDR;
	uint64_t tail = *(volatile uint64_t *)(s + UREC_S_TAIL);
	size_t skipped = 0;

	for (int guard = 0; guard < 2; guard++) {
		size_t off = tail % UREC_RING_SIZE;
		uint32_t hdr[2];

		memcpy(hdr, ring + off, sizeof(hdr));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (hdr[1] == 0)
			return 0;
		if (hdr[0] < 8 || hdr[0] % 8 || off + hdr[0] > UREC_RING_SIZE)
			return -1;
		if (hdr[1] == UREC_T_PAD) {
			/* padding runs to the end of the ring, never twice */
			if (guard || off + hdr[0] != UREC_RING_SIZE)
				return -1;
			skipped = hdr[0];
			tail += hdr[0];
			continue;
		}
		if ((hdr[1] == UREC_T_ENTRY && hdr[0] < UREC_ENTRY_SIZE) ||
		    (hdr[1] == UREC_T_EXIT && hdr[0] < UREC_EXIT_SIZE) ||
		    (hdr[1] != UREC_T_ENTRY && hdr[1] != UREC_T_EXIT) ||
		    hdr[0] > UREC_REC_MAX)
			return -1;
		*consumed = skipped + hdr[0];
		if (!out) {
			memcpy(tsc, ring + off + UREC_R_TSC, sizeof(*tsc));
			return 1;
		}
		memset(out->raw, 0, UREC_ENTRY_SIZE);
		memcpy(out->raw, ring + off, hdr[0]);
		/* what was checked, not what the program may write since */
		out->size = hdr[0];
		out->type = hdr[1];
		return 1;
	}
	return -1;
}

/* Consume @len bytes of slot @s's ring and wake a thread waiting for room. */
void utrace__rec_consume(char *s, size_t len)
{
	char *ring = s + UREC_SLOT_HDR;
	uint64_t tail = *(volatile uint64_t *)(s + UREC_S_TAIL);

	if (len > UREC_RING_SIZE)
		len = UREC_RING_SIZE;
	/* zeroed, so that no old byte passes for a written record */
	while (len) {
		size_t off = tail % UREC_RING_SIZE;
		size_t n = UREC_RING_SIZE - off < len ? UREC_RING_SIZE - off :
							  len;

		memset(ring + off, 0, n);
		tail += n;
		len -= n;
	}
	/*
	 * The tail, then the waiter's word: a full fence between (the thread
	 * sets its word, then reads the tail), else both may read the old
	 * value and the thread sleeps out its 50 ms.
	 */
	__atomic_store_n((uint64_t *)(s + UREC_S_TAIL), tail,
			 __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n((uint32_t *)(s + UREC_S_WAIT), __ATOMIC_SEQ_CST)) {
		*(volatile uint32_t *)(s + UREC_S_WAIT) = 0;
		syscall(SYS_futex, s + UREC_S_WAIT, FUTEX_WAKE, INT_MAX, NULL,
			NULL, 0);
	}
}

static int peek(struct rthread *rt, struct utrace__rrec *out, size_t *consumed)
{
	return utrace__rec_peek(slot_hdr(rt->p, rt->slot), out, consumed, NULL);
}

static void consume(struct rthread *rt, size_t len)
{
	utrace__rec_consume(slot_hdr(rt->p, rt->slot), len);
}

/* The registers a syscall-entry stop would show, from an entry record. */
static void regs_from(const struct utrace__rrec *r, struct user_regs_struct *g)
{
	const uint64_t *f = r->v;

	memset(g, 0, sizeof(*g));
	g->r15 = f[0];
	g->r14 = f[1];
	g->r13 = f[2];
	g->r12 = f[3];
	g->rbp = f[4];
	g->rbx = f[5];
	g->r10 = f[7];
	g->r9 = f[8];
	g->r8 = f[9];
	g->rdx = f[12];
	g->rsi = f[13];
	g->rdi = f[14];
	g->eflags = f[15];
	g->rip = f[16];
	g->rsp = f[17];
	g->fs_base = f[18];
	g->orig_rax = (unsigned long)r->nr;
	g->rax = (unsigned long)-ENOSYS;
	g->rcx = g->rip;		/* as the syscall instruction leaves */
	g->r11 = g->eflags;
	g->cs = 0x33;
	g->ss = 0x2b;
}

/*
 * The captures of record @r, whose fixed part is @base bytes, into @caps
 * and a copy of the record in *@buf (made once).  Each is checked against
 * the record's size; the first that breaks the rules ends the list.
 */
unsigned utrace__rec_caps(const struct utrace__rrec *r, size_t base,
			  struct utrace__cap *caps, unsigned char **buf)
{
	size_t off = base;
	unsigned n = 0;

	if (r->size <= base || r->size > UREC_REC_MAX)
		return 0;
	if (!*buf && !(*buf = malloc(UREC_REC_MAX)))
		return 0;
	memcpy(*buf, r->raw, r->size);
	while (n < UREC_NRULES && off + UREC_C_HDR <= r->size) {
		uint32_t len, room;
		uint64_t addr;

		memcpy(&len, *buf + off + UREC_C_LEN, sizeof(len));
		memcpy(&room, *buf + off + UREC_C_ROOM, sizeof(room));
		memcpy(&addr, *buf + off + UREC_C_ADDR, sizeof(addr));
		if (room % 8 || len > room || room > UREC_CAP_LIMIT ||
		    off + UREC_C_HDR + room > r->size)
			break;
		caps[n].addr = addr;
		caps[n].len = len;
		caps[n].off = (uint32_t)(off + UREC_C_HDR);
		n++;
		off += UREC_C_HDR + room;
	}
	return n;
}

ssize_t utrace__rec_cap_read(const struct utrace__cap *c, unsigned n,
			     const unsigned char *buf, uint64_t addr, void *out,
			     size_t len)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t d = addr - c[i].addr;
		size_t k;

		if (addr < c[i].addr || d >= c[i].len)
			continue;
		k = c[i].len - d < len ? c[i].len - d : len;
		memcpy(out, buf + c[i].off + d, k);
		return (ssize_t)k;
	}
	return -ENODATA;
}

/* A memory read in a callback made from a record: what it captured. */
static ssize_t hook_rec_read(struct utrace_tracer *t, void *data,
			     struct uthread *th, uint64_t addr, void *buf,
			     size_t len)
{
	struct rthread *rt = rt_of(th);
	ssize_t n = -ENODATA;

	if (!rt)
		return n;
	if (rt->live) {
		/* the thread is stopped: its memory, as a stop reads it */
		ssize_t k;

		if (mem_open(rt->p))
			return -EIO;
		k = pread(rt->p->memfd, buf, len, (off_t)addr);
		return k < 0 ? -EFAULT : k;
	}
	if (rt->cur_exit)
		n = utrace__rec_cap_read(rt->xcap, rt->nxcap, rt->xbuf, addr, buf, len);
	if (n == -ENODATA)
		n = utrace__rec_cap_read(rt->ecap, rt->necap, rt->ebuf, addr, buf, len);
	return n;
}

/* Report the exit of @rt's entry, @ret its result (its captures set). */
static void report_exit(struct rec *rec, struct rthread *rt, long ret,
			int64_t when)
{
	rt->sc.ret = ret;
	rt->regs.rax = (unsigned long)ret;
	rt->times[1] = when;
	rt->cur_exit = true;
	rt->in_entry = false;
	rec->stats[ST_RECORDS]++;
	utrace__record_report(rt->th, true, &rt->sc, &rt->regs, rt->times);
	rt->cur_exit = false;
}

/*
 * A record, checked (utrace__rec_peek), in its thread's order: an entry,
 * then its exit.  The blob writes nothing else while the tracer lives (a
 * signal handler never runs inside it: unwind), so anything else is a
 * ring the program spoiled, whose trace is then wrong but never the
 * tracer's state.
 */
static void deliver(struct rec *rec, struct rthread *rt,
		    const struct utrace__rrec *r)
{
	struct utrace_syscall sc;

	if (r->type == UREC_T_ENTRY) {
		regs_from(r, &rt->regs);
		memset(&sc, 0, sizeof(sc));
		sc.nr = r->nr;
		sc.args[0] = rt->regs.rdi;
		sc.args[1] = rt->regs.rsi;
		sc.args[2] = rt->regs.rdx;
		sc.args[3] = rt->regs.r10;
		sc.args[4] = rt->regs.r8;
		sc.args[5] = rt->regs.r9;
		sc.arch = AUDIT_ARCH_X86_64;
		sc.ip = rt->regs.rip;
		sc.sp = rt->regs.rsp;
		rt->sc = sc;
		rt->in_entry = true;
		rt->necap = utrace__rec_caps(r, UREC_ENTRY_SIZE, rt->ecap,
					     &rt->ebuf);
		rt->nxcap = 0;
		rt->cur_exit = false;
		rec->stats[ST_RECORDS]++;
		rt->times[0] = tsc_ns(rec, r->tsc);
		rt->times[1] = 0;
		utrace__record_report(rt->th, false, &sc, &rt->regs,
				      rt->times);
		return;
	}
	/* an exit without its entry: a spoiled ring */
	if (!rt->in_entry || rt->sc.nr != r->nr)
		return;
	rt->nxcap = utrace__rec_caps(r, UREC_EXIT_SIZE, rt->xcap, &rt->xbuf);
	report_exit(rec, rt, (long)r->v[0], tsc_ns(rec, r->tsc));
}

/* Deliver @rt's records (@all: until none is left; else one). */
static void drain_thread(struct rec *rec, struct rthread *rt, bool all)
{
	struct utrace__rrec *r = rec->buf;
	size_t len;

	if (!r)
		return;
	do {
		int k;

		if (rt->slot < 0 || !rt->p->map)
			return;
		k = peek(rt, r, &len);
		if (k == 0)
			return;
		if (k < 0) {
			/* broken: no more records from this thread */
			*(volatile uint32_t *)(slot_hdr(rt->p, rt->slot) +
					       UREC_S_ON) = 0;
			return;
		}
		consume(rt, len);
		deliver(rec, rt, r);
	} while (all);
}

/*
 * Deliver every record waiting, oldest first across threads (each ring is
 * in its thread's order; the time stamps order the threads).
 */
static void drain_all(struct rec *rec)
{
	tsc_pair(&rec->tsc1, &rec->ns1);
	for (int guard = 0; guard < 1 << 20; guard++) {
		struct rthread *best = NULL;
		uint64_t best_tsc = UINT64_MAX, tsc = 0;
		size_t len;

		for (struct rthread *rt = rec->rts; rt; rt = rt->next) {
			int k;

			if (rt->slot < 0 || !rt->p->map)
				continue;
			k = utrace__rec_peek(slot_hdr(rt->p, rt->slot), NULL,
					     &len, &tsc);
			if (k < 0) {
				drain_thread(rec, rt, false);
				continue;
			}
			if (k > 0 && tsc < best_tsc) {
				best = rt;
				best_tsc = tsc;
			}
		}
		if (!best)
			return;
		drain_thread(rec, best, false);
	}
}

/* -- The bell: a helper thread that wakes the loop for records --------------- */

static bool rings_pending(struct rec *rec)
{
	for (struct rproc *p = rec->procs; p; p = p->next) {
		if (!p->map)
			continue;
		for (int slot = 0; slot < UREC_NSLOTS; slot++) {
			char *s;

			if (!(p->slots & (1u << slot)))
				continue;
			s = slot_hdr(p, slot);
			if (*(volatile uint64_t *)(s + UREC_S_HEAD) !=
			    *(volatile uint64_t *)(s + UREC_S_TAIL))
				return true;
		}
	}
	return false;
}

/*
 * Sleeps on every area's bell (futex_waitv) for up to 2 ms; when a process
 * rang, or records wait when it looks, and the loop sleeps in waitpid, it
 * wakes the loop, which delivers them.
 */
static void *bell_main(void *arg)
{
	struct rec *rec = arg;

	for (;;) {
		struct futex_waitv w[MAX_BELLS];
		struct timespec ts;
		unsigned n = 0;
		bool pending;

		pthread_mutex_lock(&rec->lock);
		if (rec->bell_stop) {
			pthread_mutex_unlock(&rec->lock);
			return NULL;
		}
		for (struct rproc *p = rec->procs; p && n < MAX_BELLS;
		     p = p->next) {
			if (!p->map)
				continue;
			*(volatile uint32_t *)(p->map + UREC_H_SLEEP) = 1;
			w[n].uaddr = (uint64_t)(p->map + UREC_H_BELL);
			w[n].val = *(volatile uint32_t *)(p->map + UREC_H_BELL);
			w[n].flags = FUTEX2_SIZE_U32;
			w[n].__reserved = 0;
			n++;
		}
		pending = rings_pending(rec);
		pthread_mutex_unlock(&rec->lock);
		if (pending)
			utrace__wake_loop(rec->t);	/* if it sleeps */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 2000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		if (n)
			syscall(SYS_futex_waitv, w, n, 0, &ts, CLOCK_MONOTONIC);
		else
			nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
		/* the mappings may go meanwhile: look under the lock */
		pthread_mutex_lock(&rec->lock);
		pending = rings_pending(rec);
		pthread_mutex_unlock(&rec->lock);
		if (pending)
			utrace__wake_loop(rec->t);	/* if it sleeps */
	}
}

static void bell_start(struct rec *rec)
{
	sigset_t all, old;

	if (rec->bell_started)
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&rec->bell, NULL, bell_main, rec) == 0)
		rec->bell_started = true;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

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
static void unwind(struct rec *rec, struct rthread *rt, bool report)
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
		report_exit(rec, rt, ret, utrace__now_ns(CLOCK_MONOTONIC));
		rt->live = false;
	}
}

/*
 * The program takes over what the path relies on: its own SIGSYS handler,
 * GS base, syscall user dispatch or seccomp filter.  Its process goes back
 * to stops: no syscall is recorded from now on, and each thread leaves the
 * path at its next stop.
 */
static void proc_fallback(struct rec *rec, struct rproc *p)
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
		slot_publish(rt);
	}
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
		proc_fallback(rec, rt->p);
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
		drain_all(rec);
	if (WIFSTOPPED(status) && event == PTRACE_EVENT_EXEC) {
		/* a new image: the area and the sites went with the old */
		struct rproc *p = proc_find(rec, TGID(th));
		unsigned long former = 0;

		for (struct rthread *o = rec->rts, *n; o; o = n) {
			n = o->next;
			if (o->p == p)
				thread_off(rec, o, false);
		}
		if (p)
			proc_free(rec, p);
		if (rec->on && rec->usable)
			proc_new(rec, TGID(th));
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
		unwind(rec, rt, true);
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
		thread_off(rec, rt, true);
		return true;
	}
	on_sigsys(rec, rt);
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
	struct rthread *rt = rt_get(th);
	struct rproc *p;

	if (!rt)
		return req;
	p = proc_find(rec, TGID(th));
	if (!rt->seen) {
		enum utrace__stop st = utrace__th_stop(th);

		rt->seen = true;
		rt->attached = st != STOP_INITIAL && st != STOP_SPAWN;
		first_restart(rec, th);
		/* a new thread of a recording process: a ring of its own */
		if (p && p->state == P_ON && rt->slot < 0 && rec->on &&
		    utrace__th_stop(th) == STOP_INITIAL &&
		    thread_on(rec, p, rt) == -ESRCH)
			return -1;
	}
	if (rt->slot >= 0 && rt->p->state == P_FALLBACK)
		thread_off(rec, rt, true);
	/*
	 * A process taken over running (utrace -p): set up like an execve's,
	 * at its leader's next return to user mode, if it has one thread.
	 */
	if (!p && rt->attached && rec->on && rec->usable &&
	    TID(th) == TGID(th))
		p = proc_new(rec, TGID(th));
	if (p && p->state == P_PENDING && rt->slot < 0 &&
	    (req == PTRACE_SYSCALL || req == PTRACE_CONT)) {
		if (mid_syscall(th))
			return PTRACE_SYSCALL;	/* set up at its exit */
		if (user_return(th)) {
			uint64_t want[NBITS / 64], stop[NBITS / 64];
			bool some = false;
			int err = -EBUSY;

			/* worth it only if some syscall may be recorded */
			wants_of(rec, th, want, stop);
			for (int i = 0; i < NBITS / 64; i++)
				some |= want[i] != 0;
			/*
			 * Not under the library's seccomp filter: it would
			 * stop the blob's own syscalls.
			 */
			if (rec->on && some && !utrace__th_filtered(th) &&
			    proc_threads(p->tgid) == 1 &&
			    !proc_filtered(p->tgid))
				err = setup(rec, p, rt);
			if (err == -ESRCH)
				return -1;
			p->state = err ? P_FAILED : P_ON;
			if (!err)
				bell_start(rec);
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
	wants_of(data, th, rt->want, rt->stop);
	slot_publish(rt);
}

static void hook_release(struct utrace_tracer *t, void *data,
			 struct uthread *th)
{
	struct rthread *rt = rt_of(th);

	if (rt && rt->slot >= 0)
		thread_off(data, rt, true);
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
		thread_off(rec, rt, false);
	/* the process is gone with its leader (not one an execve replaced) */
	if (leader && !rt->superseded) {
		struct rproc *p = proc_find(rec, TGID(th));

		if (p && !p->slots)
			proc_free(rec, p);
	}
	*utrace__th_data(th, &rec_layer) = NULL;
	free(rt->ebuf);
	free(rt->xbuf);
	free(rt);
}

static void hook_after_dispatch(struct utrace_tracer *t, void *data)
{
	struct rec *rec = data;

	if (rec->rts)
		drain_all(rec);
}

static void hook_closing(struct utrace_tracer *t, void *data)
{
	struct rec *rec = data;

	if (rec->rts)
		drain_all(rec);
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
		thread_off(rec, rec->rts, false);
	while (rec->procs)
		proc_free(rec, rec->procs);
	pthread_mutex_destroy(&rec->lock);
	free(rec->buf);
	free(rec);
}

/* Above the queue and sharing (their records are what it observes). */
static const struct utrace__layer rec_layer = {
	.order = 5,
	.after_dispatch = hook_after_dispatch,
	.closing = hook_closing,
	.free = hook_free,
	.status = hook_status,
	.restart = hook_restart,
	.recalc = hook_recalc,
	.release = hook_release,
	.forget = hook_forget,
	.rec_read = hook_rec_read,
};

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
		tsc_pair(&rec->tsc0, &rec->ns0);
		rec->buf = malloc(sizeof(*rec->buf));
		if (!rec->buf) {
			free(rec);
			return -ENOMEM;
		}
		pthread_mutex_init(&rec->lock, NULL);
		err = utrace__layer_register(t, &rec_layer, rec);
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
				thread_off(rec, rt, true);
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
		wants_of(rec, rt->th, rt->want, rt->stop);
		slot_publish(rt);
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
