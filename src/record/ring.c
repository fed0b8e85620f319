// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Rings and delivery (docs/DESIGN.md, "Rings and delivery"): the records'
 * clock, reading a thread's ring (untrusted: the program can write it),
 * turning records into the callbacks a stop would have made, and the bell
 * helper that wakes the loop when records wait.
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
void utrace__rec_tsc_pair(uint64_t *tsc, int64_t *ns)
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
int64_t utrace__rec_tsc_ns(struct rec *rec, uint64_t tsc)
{
	double rate, d;

	/* a rate from pairs 2 ms apart at least, once */
	while (rec->ns1 - rec->ns0 < 2000000 || rec->tsc1 <= rec->tsc0)
		utrace__rec_tsc_pair(&rec->tsc1, &rec->ns1);
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
ssize_t utrace__rec_hook_rec_read(struct utrace_tracer *t, void *data,
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

		if (utrace__rec_mem_open(rt->p))
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
void utrace__rec_report_exit(struct rec *rec, struct rthread *rt, long ret,
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
		rt->times[0] = utrace__rec_tsc_ns(rec, r->tsc);
		rt->times[1] = 0;
		utrace__record_report(rt->th, false, &sc, &rt->regs,
				      rt->times);
		return;
	}
	/* an exit without its entry: a spoiled ring */
	if (!rt->in_entry || rt->sc.nr != r->nr)
		return;
	rt->nxcap = utrace__rec_caps(r, UREC_EXIT_SIZE, rt->xcap, &rt->xbuf);
	utrace__rec_report_exit(rec, rt, (long)r->v[0],
				utrace__rec_tsc_ns(rec, r->tsc));
}

/* Deliver @rt's records (@all: until none is left; else one). */
void utrace__rec_drain_thread(struct rec *rec, struct rthread *rt, bool all)
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
void utrace__rec_drain_all(struct rec *rec)
{
	utrace__rec_tsc_pair(&rec->tsc1, &rec->ns1);
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
				utrace__rec_drain_thread(rec, rt, false);
				continue;
			}
			if (k > 0 && tsc < best_tsc) {
				best = rt;
				best_tsc = tsc;
			}
		}
		if (!best)
			return;
		utrace__rec_drain_thread(rec, best, false);
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

void utrace__rec_bell_start(struct rec *rec)
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

