/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The record layer's own state and what its files share (record.c:
 * processes, threads, setting a process up, the public calls; sites.c:
 * rewriting syscall sites and the dispatch trap; ring.c: reading and
 * delivering records, the bell; hooks.c: the layer's hooks and unwind).
 */
#ifndef UTRACE_RECORD_RECORD_H
#define UTRACE_RECORD_RECORD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/user.h>

#include "core/layer.h"
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
	unsigned char orig[WINDOW_MAX];	/* the window as the program had it */
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
	unsigned npatched;	/* sites rewritten and not given back */
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

extern const struct utrace__layer utrace__rec_layer;

static inline struct rec *rec_of(struct utrace_tracer *t)
{
	return utrace__layer_data(t, &utrace__rec_layer);
}

static inline bool bit(const uint64_t *set, long nr)
{
	return nr >= 0 && nr < NBITS && (set[nr / 64] >> (nr % 64) & 1);
}

static inline void bit_set(uint64_t *set, long nr, bool v)
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
static inline bool never_recorded(long nr)
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


/* A slot's header (its stack below, its ring after), here and there. */
static inline size_t slot_off(int slot)
{
	return UREC_HDR_SIZE + (size_t)slot * UREC_SLOT_SIZE + UREC_STACK_SIZE;
}


static inline char *slot_hdr(struct rproc *p, int slot)
{
	return p->map + slot_off(slot);
}


/* Is @addr (of the process) in @p's area? */
static inline bool in_area(const struct rproc *p, uint64_t addr)
{
	return p->area && addr >= p->area && addr < p->area + UREC_AREA_SIZE;
}


static inline struct rthread *rt_of(struct uthread *th)
{
	void **d = utrace__th_data(th, &utrace__rec_layer);

	return d ? *d : NULL;
}

/* record.c */
int utrace__rec_mem_open(struct rproc *p);
int utrace__rec_mem_rw(struct rproc *p, uint64_t addr, void *buf, size_t len,
		       bool write);
long utrace__rec_inject_syscall(struct uthread *th, struct rproc *p, long nr,
				long a0, long a1, long a2, long a3, long a4,
				long a5);
struct rproc *utrace__rec_proc_find(struct rec *rec, pid_t tgid);
void utrace__rec_proc_free(struct rec *rec, struct rproc *p);
struct rproc *utrace__rec_proc_new(struct rec *rec, pid_t tgid);
int utrace__rec_proc_threads(pid_t tgid);
bool utrace__rec_proc_filtered(pid_t tgid);
struct rthread *utrace__rec_rt_get(struct uthread *th);
void utrace__rec_slot_publish(struct rthread *rt);
int utrace__rec_thread_on(struct rec *rec, struct rproc *p, struct rthread *rt);
void utrace__rec_thread_off(struct rec *rec, struct rthread *rt, bool alive);
void utrace__rec_wants_of(struct rec *rec, struct uthread *th, uint64_t *want,
			  uint64_t *stop);
int utrace__rec_setup(struct rec *rec, struct rproc *p, struct rthread *rt);
int utrace__rec_sigsys_handler(struct rproc *p, struct uthread *th);

/* sites.c */
void utrace__rec_on_sigsys(struct rec *rec, struct rthread *rt);
void utrace__rec_stub_pages_ahead(struct rproc *p, struct uthread *th);
bool utrace__rec_in_stub_page(struct rproc *p, uint64_t addr);
void utrace__rec_sites_restore(struct rproc *p);
void utrace__rec_stub_leave(struct rproc *p, struct uthread *th);

/* ring.c */
void utrace__rec_drain_thread(struct rec *rec, struct rthread *rt, bool all);
void utrace__rec_drain_all(struct rec *rec);
void utrace__rec_bell_start(struct rec *rec);
ssize_t utrace__rec_hook_rec_read(struct utrace_tracer *t, void *data,
				  struct uthread *th, uint64_t addr, void *buf,
				  size_t len);
void utrace__rec_report_exit(struct rec *rec, struct rthread *rt, long ret,
			     int64_t when);
void utrace__rec_tsc_pair(uint64_t *tsc, int64_t *ns);
int64_t utrace__rec_tsc_ns(struct rec *rec, uint64_t tsc);

/* hooks.c */
void utrace__rec_unwind(struct rec *rec, struct rthread *rt, bool report);
void utrace__rec_proc_fallback(struct rec *rec, struct rproc *p);

#endif
