// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A local queue leaves the program as it found it when it goes (its
 * consumer freed it, or a joined consumer died): the int3 bytes it wrote
 * are put back, its debug registers cleared, and the traps it may still
 * cause are taken by a small engine instead of reaching the program.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "queue/queue.h"

/*
 * Int3 bytes a consumer writes are noted with the bytes they replace, so
 * that a queue freed while they stand (a joined debugger that died) puts
 * them back: the program is left as found.  Another byte written over one
 * means the consumer took its breakpoint out; the address is kept, for a
 * trap of it that comes late (utrace__q_leave_as_found).
 */
void utrace__qbp_note(struct qthread *qt, const struct utrace_iov *v)
{
	struct lqueue *q = qt->q;
	const uint8_t *buf = v->buf;

	for (size_t i = 0; i < v->len; i++) {
		uint64_t addr = v->addr + i;
		struct qbp **pp, *b;
		uint8_t cur;

		for (pp = &q->bps; (b = *pp); pp = &b->next)
			if (b->tgid == qt->tgid && b->addr == addr)
				break;
		if (buf[i] != 0xcc) {
			if (b)
				b->standing = false;
			continue;
		}
		if ((b && b->standing) ||
		    utrace_mem_read(qt->e, addr, &cur, 1) != 1 || cur == 0xcc)
			continue;
		if (!b) {
			b = calloc(1, sizeof(*b));
			if (!b)
				continue;
			b->tgid = qt->tgid;
			b->addr = addr;
			b->next = q->bps;
			q->bps = b;
		}
		b->orig = cur;
		b->standing = true;
	}
}

/*
 * What a freed queue's consumer (a joined debugger that died) may have
 * left in motion on a thread: a trap of a breakpoint byte put back since,
 * of its single-step, of its debug registers.  A small engine, first on
 * the thread, takes such a SIGTRAP for it (the pc back on the instruction
 * for a breakpoint), so that the program never gets it; it stays until
 * the thread is reaped.
 */
struct qghost {
	uint64_t *addrs;		/* breakpoints put back */
	size_t n;
	bool step;			/* a step was asked or held */
	bool dr;			/* debug registers may be set */
};

static uint32_t ghost_signal(uint32_t action, struct utrace_engine *e,
			     siginfo_t *info)
{
	struct qghost *g = utrace_engine_data(e);
	struct user_regs_struct regs;
	uint8_t byte;

	if (info->si_signo != SIGTRAP)
		return utrace_pass(action, UTRACE_RESUME);
	if (info->si_code == SI_KERNEL &&
	    utrace_regs_get(e, &regs) == 0) {
		for (size_t i = 0; i < g->n; i++) {
			/* Its consumer may have moved the pc back already. */
			if (g->addrs[i] == regs.rip)
				return UTRACE_SIGNAL_REPORT | UTRACE_RESUME;
			if (g->addrs[i] == regs.rip - 1 &&
			    utrace_mem_read(e, regs.rip - 1, &byte, 1) == 1 &&
			    byte != 0xcc) {
				regs.rip--;
				utrace_regs_set(e, &regs);
				return UTRACE_SIGNAL_REPORT | UTRACE_RESUME;
			}
		}
	}
	if (info->si_code == TRAP_HWBKPT && g->dr) {
		utrace_debugreg_set(e, 7, 0);
		utrace_debugreg_set(e, 6, 0);
		g->dr = false;
		return UTRACE_SIGNAL_REPORT | UTRACE_RESUME;
	}
	if ((info->si_code == TRAP_TRACE || info->si_code == TRAP_BRKPT) &&
	    g->step) {
		g->step = false;
		return UTRACE_SIGNAL_REPORT | UTRACE_RESUME;
	}
	return utrace_pass(action, UTRACE_RESUME);
}

static void ghost_release(void *data)
{
	struct qghost *g = data;

	free(g->addrs);
	free(g);
}

static const struct utrace_engine_ops ghost_ops = {
	.report_signal = ghost_signal,
	.release = ghost_release,
};

/* @held_trap: a SIGTRAP the thread is held in may be the consumer's own. */
static void ghost_attach(struct qthread *qt, bool held_trap)
{
	struct lqueue *q = qt->q;
	struct utrace_engine *e;
	struct qghost *g = calloc(1, sizeof(*g));
	size_t n = 0;

	if (!g)
		return;
	for (struct qbp *b = q->bps; b; b = b->next)
		n += b->tgid == qt->tgid;
	g->addrs = calloc(n + 1, sizeof(*g->addrs));
	if (!g->addrs) {
		free(g);
		return;
	}
	for (struct qbp *b = q->bps; b; b = b->next)
		if (b->tgid == qt->tgid)
			g->addrs[g->n++] = b->addr;
	g->step = qt->stepping ||
		  (held_trap && qt->held_id && qt->held_signo == SIGTRAP);
	g->dr = qt->dr_set;
	if (utrace__attach(q->t, qt->tid, UTRACE_ATTACH_CREATE |
			   UTRACE__ATTACH_FIRST, &ghost_ops, g, &e)) {
		ghost_release(g);
		return;
	}
	utrace_set_events(e, UTRACE_EVENT_SIGNAL_ALL);
	utrace_engine_put(e);
}

static void leave_thread(struct qthread *qt, bool held_trap)
{
	bool mine = false;

	if (qt->dead)
		return;
	for (struct qbp *b = qt->q->bps; b && !mine; b = b->next)
		mine = b->tgid == qt->tgid;
	/* Held, so stopped: its debug registers can go now. */
	if (qt->dr_set && (qt->held_id || qt->allstop_seen) &&
	    utrace_debugreg_set(qt->e, 7, 0) == 0)
		qt->dr_set = false;
	if (mine || qt->dr_set || qt->stepping ||
	    (held_trap && qt->held_id && qt->held_signo == SIGTRAP))
		ghost_attach(qt, held_trap);
}

static void leave_one(struct qthread *qt, void *arg)
{
	leave_thread(qt, true);
}

/*
 * The consumer leaves one thread and keeps the queue (utrace_queue_unwatch,
 * a UTRACE_DETACH reply: a debugger that lets a program go and waits for
 * the next one).  A trap it may have set off there just before (an int3
 * it has put back since, a step, a debug register) can still be pending
 * in the kernel, to be reported once the thread runs again, when the
 * queue's engine is gone: the same ghost takes it.  A SIGTRAP the thread
 * is held in is not one of those: the reply says what becomes of it, or
 * it is delivered (the unwatch).  Its int3 bytes stay: other threads of
 * the process may still be watched.
 */
void utrace__qt_leave_as_found(struct qthread *qt)
{
	leave_thread(qt, false);
}

/*
 * The queue goes (its consumer freed it, or died): its int3 bytes still
 * in memory are replaced by what they hid, and the traps it may have
 * caused are taken by a ghost engine instead of being delivered.
 */
void utrace__q_leave_as_found(struct lqueue *q)
{
	struct qbp *b;
	uint8_t cur;

	for (b = q->bps; b; b = b->next)
		if (b->standing &&
		    utrace__mem_xfer(b->tgid, b->addr, &cur, 1, false) == 1 &&
		    cur == 0xcc)
			utrace__mem_xfer(b->tgid, b->addr, &b->orig, 1, true);
	utrace__qt_each(q, leave_one, NULL);
	while ((b = q->bps)) {
		q->bps = b->next;
		free(b);
	}
}
