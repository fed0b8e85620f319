// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Rewriting syscall sites (docs/DESIGN.md, "Rewriting a site"): a stub
 * near each syscall instruction that traps, the site made to jump there
 * when it can, and the dispatch trap that sends a thread into its stub or
 * down the stop path.
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


/* -- Rewriting syscall sites --------------------------------------------------- */

static struct site *site_find(struct rproc *p, uint64_t addr)
{
	for (struct site *s = p->sites[(addr >> 1) % SITE_BUCKETS]; s;
	     s = s->next)
		if (s->addr == addr)
			return s;
	return NULL;
}

bool utrace__rec_in_stub_page(struct rproc *p, uint64_t addr)
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
	if (utrace__rec_mem_rw(p, at, &entry, sizeof(entry), true)) {
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
	r = utrace__rec_inject_syscall(th, p, SYS_mmap, (long)at, STUB_PAGE,
				       PROT_READ | PROT_EXEC,
				       MAP_PRIVATE | MAP_ANONYMOUS |
				       MAP_FIXED_NOREPLACE, -1, 0);
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
void utrace__rec_stub_pages_ahead(struct rproc *p, struct uthread *th)
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
	if (utrace__rec_mem_rw(p, addr, code, sizeof(code), false) ||
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
	if (utrace__rec_mem_rw(p, base, stub, n, true)) {
		free(s);
		return NULL;
	}
	sp->used += (n + 15) & ~(size_t)15;
	s->addr = addr;
	s->e2 = base;
	s->x = base + UREC_STUB_X;
	s->len = len;
	if (len >= 5 && utrace__rec_proc_threads(p->tgid) == 1) {
		unsigned char jmp[WINDOW_MAX];

		memset(jmp, 0xcc, sizeof(jmp));
		put_jmp(jmp, 0, addr, s->e2);
		memcpy(s->orig, code, len);
		if (utrace__rec_mem_rw(p, addr, jmp, len, true) == 0) {
			s->patched = true;
			p->npatched++;
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
	utrace__rec_sigsys_handler(p, th);
	utrace__th_regs_drop(th);
}

/*
 * A dispatch trap (the kernel rolled rax back to the number; ip is after
 * the syscall instruction): rewrite the site, and send the thread into its
 * stub, or to the stop path for this one syscall.
 */
void utrace__rec_on_sigsys(struct rec *rec, struct rthread *rt)
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
	if (utrace__rec_in_stub_page(p, ip)) {
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


/*
 * Give the rewritten sites of @p back their own instructions, its only
 * thread stopped (a thread that runs could fetch half of a window; a
 * process with several keeps them).  One inside a stub goes on from it
 * back to the site's next instruction, as before.
 */
void utrace__rec_sites_restore(struct rproc *p)
{
	if (!p->npatched || utrace__rec_proc_threads(p->tgid) != 1)
		return;
	for (int i = 0; i < SITE_BUCKETS; i++) {
		for (struct site *s = p->sites[i]; s; s = s->next) {
			if (!s->patched ||
			    utrace__rec_mem_rw(p, s->addr, s->orig, s->len, true))
				continue;
			s->patched = false;
			p->npatched--;
		}
	}
}

/*
 * @th stopped in the stub of a site given back: to the same point in the
 * site.  Before the stub's syscall, to the site's; after it (or with it to
 * be restarted: the kernel takes 2 from rip), right after the site's, rcx
 * as a syscall leaves it.  Not at a stop inside a syscall.
 */
void utrace__rec_stub_leave(struct rproc *p, struct uthread *th)
{
	enum utrace__stop st = utrace__th_stop(th);
	struct user_regs_struct r;

	if (st == STOP_SYSCALL_ENTRY || st == STOP_SYSCALL_EXIT ||
	    st == STOP_CLONE || st == STOP_EXEC ||
	    ptrace(PTRACE_GETREGS, TID(th), 0L, &r) < 0 ||
	    !utrace__rec_in_stub_page(p, r.rip))
		return;
	for (int i = 0; i < SITE_BUCKETS; i++) {
		for (struct site *s = p->sites[i]; s; s = s->next) {
			if (s->patched || r.rip < s->e2 || r.rip > s->x + 2)
				continue;
			if (r.rip == s->x + 2)
				r.rip = r.rcx = s->addr + 2;
			else
				r.rip = s->addr;
			if (ptrace(PTRACE_SETREGS, TID(th), 0L, &r) == 0)
				utrace__th_regs_drop(th);
			return;
		}
	}
}
