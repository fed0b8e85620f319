// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace --gdb: the queue's records become gdb's events: our own traps
 * told from the program's signals, syscalls gdb catches, clone, fork,
 * vfork and exec, deaths and process ends, and the stop replies that
 * tell gdb of them.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utrace.h>

#include "gdb/gdb.h"

/* The stop reply (T) of g's event. */
void gdb_format_stop(struct gdbstub *s, struct gthr *g, char *buf,
		     size_t size)
{
	int sig = 5;
	char extra[64 + 2 * 4096] = "";

	switch (g->ev) {
	case GEV_SIGNAL:
		sig = gdb_sig_to(g->ev_sig);
		break;
	case GEV_INTR:
		sig = 2;
		break;
	case GEV_STOPPED:
		sig = 0;
		break;
	case GEV_CREATE:
		strcpy(extra, "create:;");
		break;
	case GEV_SWBREAK:
		strcpy(extra, "swbreak:;");
		break;
	case GEV_HWBREAK:
		strcpy(extra, "hwbreak:;");
		break;
	case GEV_WATCH:
		snprintf(extra, sizeof(extra), "%swatch:%llx;",
			 g->ev_watch == 'a' ? "a" : "",
			 (unsigned long long)g->ev_addr);
		break;
	case GEV_SYSENTRY:
		snprintf(extra, sizeof(extra), "syscall_entry:%lx;", g->ev_nr);
		break;
	case GEV_SYSEXIT:
		snprintf(extra, sizeof(extra), "syscall_return:%lx;", g->ev_nr);
		break;
	case GEV_FORK:
	case GEV_VFORK:
		snprintf(extra, sizeof(extra), "%sfork:p%x.%x;",
			 g->ev == GEV_VFORK ? "v" : "",
			 (unsigned)g->ev_child, (unsigned)g->ev_child);
		break;
	case GEV_VFORKDONE:
		strcpy(extra, "vforkdone:;");
		break;
	case GEV_EXEC: {
		char path[64], exe[4096];
		ssize_t r;

		snprintf(path, sizeof(path), "/proc/%d/exe", g->tid);
		r = readlink(path, exe, sizeof(exe) - 1);
		if (r < 0)
			r = 0;
		memcpy(extra, "exec:", 5);
		gdb_put_hex(extra + 5, (const unsigned char *)exe, (size_t)r);
		strcat(extra, ";");
		break;
	}
	default:
		break;
	}
	snprintf(buf, size, "T%02x%sthread:p%x.%x;", sig, extra,
		 (unsigned)g->p->pid, (unsigned)g->tid);
}

/* Tell gdb about g's event (all threads are held). */
void gdb_report(struct gdbstub *s, struct gthr *g)
{
	struct gthr *h;

	/* vfork parents: registers as they were, before the child runs. */
	for (h = s->threads; h; h = h->next)
		if (h->vfork_wait && !h->snap)
			h->snap = gthr_snap_take(h);
	gdb_format_stop(s, g, s->stopreply, sizeof(s->stopreply));
	free(g->last_reply);
	g->last_reply = strdup(s->stopreply);
	if (g->ev != GEV_SIGNAL)
		g->ev_has_info = false;
	g->ev = GEV_NONE;
	s->last_tid = g->tid;
	s->last_pid = g->p->pid;
	s->gtid = g->tid;
	s->waiting = false;
	s->stopping = false;
	s->evthr = NULL;
	s->evproc = NULL;
	if (s->cfd >= 0 && s->asked)
		gdb_send_packet(s, s->stopreply);
	s->asked = false;
}

/* The stop reply (W or X) of p's end. */
void gdb_format_exit(struct gproc *p, char *buf, size_t size)
{
	int st = p->exit_status;

	if (WIFSIGNALED(st))
		snprintf(buf, size, "X%02x;process:%x",
			 gdb_sig_to(WTERMSIG(st)), (unsigned)p->pid);
	else
		snprintf(buf, size, "W%02x;process:%x",
			 WIFEXITED(st) ? WEXITSTATUS(st) : 0, (unsigned)p->pid);
}

/* Tell gdb that p has ended; p is freed. */
void gdb_report_exit(struct gdbstub *s, struct gproc *p)
{
	char buf[64];

	gdb_format_exit(p, buf, sizeof(buf));
	snprintf(s->stopreply, sizeof(s->stopreply), "%s", buf);
	s->waiting = false;
	s->stopping = false;
	s->evthr = NULL;
	gproc_free(s, p);
	if (s->cfd >= 0 && s->asked)
		gdb_send_packet(s, buf);
	s->asked = false;
}

/* A process that ended and gdb has not been told yet. */
struct gproc *gdb_ended(struct gdbstub *s)
{
	struct gproc *p;

	for (p = s->procs; p; p = p->next)
		if (p->active && p->gone)
			return p;
	return NULL;
}

/*
 * Non-stop: the int3 that trapped at @addr is not there any more, so it
 * was ours and gdb removed it while the thread ran into it (gdb inserts
 * and removes breakpoints with threads running).  gdbserver discards
 * such a stop and lets the thread run the instruction again.
 */
static bool removed_bp(struct gthr *g, uint64_t addr)
{
	struct utrace_iov iov;
	uint8_t b;

	if (!g->s->nonstop)
		return false;
	iov = (struct utrace_iov){ addr, &b, 1 };
	return utrace_queue_mem_readv(g->s->q, g->tid, &iov, 1) == 1 &&
	       b != 0xcc;
}

/*
 * One of our traps?  Sets the event and returns true; *silent: ours, with
 * nothing to tell gdb.
 */
static bool own_trap(struct gthr *g, const siginfo_t *info, bool *silent)
{
	struct gdbstub *s = g->s;
	struct gproc *p = g->p;
	struct user_regs_struct regs;
	uint64_t dr6;
	int i;

	if (info->si_code == SI_KERNEL) {
		if (utrace_queue_regs_get(s->q, g->tid, &regs) < 0)
			return false;
		if (!gdb_bp_find(p, regs.rip - 1)) {
			if (!removed_bp(g, regs.rip - 1))
				return false;
			regs.rip--;
			utrace_queue_regs_set(s->q, g->tid, &regs);
			*silent = true;
			return true;
		}
		regs.rip--;
		utrace_queue_regs_set(s->q, g->tid, &regs);
		g->ev_addr = regs.rip;
		gthr_event(g, GEV_SWBREAK);
		return true;
	}
	if (info->si_code == TRAP_HWBKPT) {
		if (utrace_queue_debugreg_get(s->q, g->tid, 6, &dr6) < 0)
			return false;
		utrace_queue_debugreg_set(s->q, g->tid, 6, 0);
		for (i = 0; i < 4; i++) {
			if (!(dr6 & (1ULL << i)) || !p->dr[i].used)
				continue;
			if (p->dr[i].type == '1') {
				gthr_event(g, GEV_HWBREAK);
			} else {
				g->ev_addr = p->dr[i].req_addr;
				g->ev_watch = p->dr[i].type == '2' ? 'w' : 'a';
				gthr_event(g, GEV_WATCH);
			}
			return true;
		}
		if ((dr6 & 0x4000) && g->step) {	/* BS: a single step */
			gthr_event(g, GEV_STEP);
			return true;
		}
		return false;
	}
	if ((info->si_code == TRAP_TRACE || info->si_code == TRAP_BRKPT ||
	     g->step_rec) && g->step) {
		gthr_event(g, GEV_STEP);
		return true;
	}
	return false;
}

/* Its record of type 0: a stop of ours holds it. */
static void on_stopped(struct gthr *g)
{
	if (g->pause_skip > 0) {
		/* A pause's (gthr_pause): let go of already. */
		g->pause_skip--;
		return;
	}
	g->stop_asked = false;
	g->allstop = true;
	if (g->s->nonstop && gdb_ns_stopped(g))
		return;
	if (g->p->active && g->vfork_wait && !g->hid) {
		/*
		 * At the exit of vfork: the child let the memory go.  gdb
		 * hears of it once it resumes the parent, as from gdbserver
		 * (whose parent waits in its vfork stop until then).
		 */
		gthr_vfork_end(g);
		if (g->want_stop)
			g->ev = GEV_VFORKDONE;
		else
			gthr_event(g, GEV_VFORKDONE);
	}
}

static void on_signal(struct gthr *g, const struct utrace_event *ev)
{
	struct gdbstub *s = g->s;
	int sig = ev->info.si_signo;
	bool silent = false;

	if (g->inj_sig && sig == g->inj_sig && !g->step_rec) {
		/* The signal gdb continued with (sent by tgkill): as gdb said. */
		siginfo_t inj = g->inj;

		g->inj_sig = 0;
		gthr_reply(g, UTRACE_SIGNAL_DELIVER | gthr_go(g), &inj);
		return;
	}
	g->si = ev->info;
	g->si_valid = true;
	if (sig == SIGTRAP && own_trap(g, &ev->info, &silent)) {
		g->own = true;
		if (silent)
			gthr_pass_on(g);	/* a removed breakpoint's */
		return;
	}
	if (g->step_rec || (sig > 0 && sig <= 64 && s->pass[sig])) {
		gthr_pass_on(g);
		return;
	}
	/* gdb decides: held, delivered or dropped at the resume. */
	g->ev_sig = sig;
	g->ev_info = ev->info;
	g->ev_has_info = true;
	gthr_event(g, GEV_SIGNAL);
}

static bool catches(struct gdbstub *s, long nr)
{
	size_t i;

	if (!s->catch_on)
		return false;
	if (s->catch_any)
		return true;
	for (i = 0; i < s->catch_n; i++)
		if (s->catch_nrs[i] == nr)
			return true;
	return false;
}

static void on_syscall(struct gthr *g, const struct utrace_event *ev,
		       bool entry)
{
	if (g->want_stop || !catches(g->s, ev->syscall.nr) ||
	    (!entry && !g->in_syscall)) {
		gthr_pass_on(g);
		return;
	}
	g->in_syscall = entry;
	g->ev_nr = ev->syscall.nr;
	gthr_event(g, entry ? GEV_SYSENTRY : GEV_SYSEXIT);
}

/*
 * A fork child gdb is told about (fork-events): a process of its own,
 * held from birth (its watch came with a whole-process stop), with the
 * parent's breakpoints in its copy of the memory (gdb takes them out
 * itself, or keeps them) and the parent's debug registers as gdbserver
 * mirrors them.
 */
static struct gproc *fork_child(struct gthr *g, pid_t child)
{
	struct gdbstub *s = g->s;
	struct gproc *c = gproc_find(s, child);
	struct swbp *b, **tail;

	if (!c || !gthr_find(s, child))
		return NULL;
	gdb_bps_free(c);
	tail = &c->bps;
	for (b = g->p->bps; b; b = b->next) {
		struct swbp *n = calloc(1, sizeof(*n));

		if (!n)
			break;
		n->addr = b->addr;
		n->orig = b->orig;
		*tail = n;
		tail = &n->next;
	}
	memcpy(c->dr, g->p->dr, sizeof(c->dr));
	c->dr_gen = g->p->dr_gen + 1;
	return c;
}

/* Forget a fork child gdb is not told about (it runs on, not ours). */
static void forget_child(struct gdbstub *s, pid_t child)
{
	struct gproc *cp = gproc_find(s, child);
	struct gthr *c, *next;

	if (!cp)
		return;
	cp->active = false;
	utrace_queue_resume(s->q, child);
	for (c = s->threads; c; c = next) {
		next = c->next;
		if (c->p == cp)
			gthr_drop(c);	/* frees cp with its last thread */
	}
	if (gproc_find(s, child) == cp)
		gproc_free(s, cp);
}

static void on_clone(struct gthr *g, const struct utrace_event *ev)
{
	struct gdbstub *s = g->s;
	unsigned long flags = ev->clone_flags;
	pid_t child = ev->child;
	struct gproc *vc;

	if (flags & CLONE_THREAD) {
		struct gthr *c = gthr_find(s, child);

		if (!c && s->joined) {
			/*
			 * Joined, the parent's clone record is the first word
			 * of the thread: stopped from there (the child may
			 * have run a few instructions meanwhile).
			 */
			c = gthr_add(s, g->p, child);
			if (c && s->nonstop)
				gdb_ns_birth(c);
			else if (c)
				gdb_birth_stop(s, g->p, c);
		}
		gthr_pass_on(g);
		return;
	}
	if ((flags & CLONE_VFORK) && s->vfork_events &&
	    (vc = fork_child(g, child))) {
		/*
		 * The parent cannot stop before the child lets the memory
		 * go: it counts as held, with the registers it had at the
		 * clone gdb_report (snapshot); its memory is the child's.
		 */
		vc->vfork_peer = g->p->pid;
		g->p->vfork_peer = child;
		g->vfork_wait = true;
		g->ev_child = child;
		gthr_event(g, GEV_VFORK);
		return;
	}
	if ((flags & CLONE_VM) || !s->fork_events) {
		/* Not told to gdb (vfork, or an older gdb). */
		forget_child(s, child);
		if (!(flags & CLONE_VM))
			gdb_unplant_child(g->p, child);
		gthr_pass_on(g);
		return;
	}
	if (fork_child(g, child)) {
		g->ev_child = child;
		gthr_event(g, GEV_FORK);
		return;
	}
	gdb_unplant_child(g->p, child);
	gthr_pass_on(g);
}

static void on_exec(struct gdbstub *s, struct gthr *g,
		    const struct utrace_event *ev)
{
	struct gproc *p = g->p;

	if (!p->active) {
		gthr_pass_on(g);
		return;
	}
	/* A new image: our breakpoints went with the old. */
	gdb_bps_free(p);
	/* A set-user-ID one may be more than the peer could debug. */
	if (!gdb_peer_exec_ok(s, p))
		return;
	if (p->wait_exec) {
		p->wait_exec = false;
		gthr_event(g, GEV_INIT);
	} else if (s->exec_events) {
		/* As the kernel: no debug registers after an exec. */
		memset(p->dr, 0, sizeof(p->dr));
		p->dr_gen++;
		gthr_event(g, GEV_EXEC);
	} else {
		gthr_pass_on(g);
	}
}

/*
 * The last thread of p is gone.  gdb hears of the end at once if it
 * waits and nothing else runs; else once the others are held, or at the
 * next resume.
 */
static void proc_ended(struct gdbstub *s, struct gproc *p)
{
	p->gone = true;
	utrace_queue_resume(s->q, p->pid);	/* its stop, if any, goes */
	if (!p->active) {
		gproc_free(s, p);
		return;
	}
	if (s->nonstop) {
		gdb_ns_exit(s, p);
		return;
	}
	if (!s->waiting || s->stopping)
		return;
	if (gdb_any_running(s)) {
		s->stopping = true;
		s->evproc = p;
		gdb_stop_all(s);
		return;
	}
	if (s->cfd >= 0)
		gdb_report_exit(s, p);
}

static void on_death(struct gdbstub *s, struct gthr *g,
		     const struct utrace_event *ev)
{
	struct gproc *p = g->p;

	if (g->tid == p->pid || ev->group_dead)
		p->exit_status = ev->status;
	if (s->nonstop && p->active && !ev->group_dead)
		gdb_ns_thread_exit(s, g, ev->status);
	gthr_unlink(s, g);
	gthr_free(g);
	if (!gproc_has_threads(s, p) && !p->gone)
		proc_ended(s, p);
}

/* A thread gdb hears of first through a record (joined: the queue follows). */
static struct gthr *adopt(struct gdbstub *s, const struct utrace_event *ev)
{
	struct gproc *p = gproc_find(s, ev->pid);

	if (!s->joined || !p || !p->active || p->gone ||
	    ev->type == UTRACE_EVENT(DEATH))
		return NULL;
	return gthr_add(s, p, ev->tid);
}

static void on_record(struct gdbstub *s, const struct utrace_event *ev)
{
	struct gthr *g, *old;

	if (ev->type == UTRACE_EVENT(EXEC) && ev->former_tid != ev->tid) {
		/* A thread that was not the leader has the leader's id now. */
		old = gthr_find(s, ev->tid);
		g = gthr_find(s, ev->former_tid);
		if (old && g && old != g) {
			gthr_unlink(s, old);
			gthr_free(old);
		}
		if (g)
			g->tid = ev->tid;
	}
	g = gthr_find(s, ev->tid);
	if (!g)
		g = adopt(s, ev);
	if (!g && ev->type == UTRACE_EVENT(DEATH) && !s->active)
		gdb_released_death(s, ev->pid);
	if (!g) {
		if (ev->held) {
			/* Not a thread gdb debugs: as if we were not there. */
			struct utrace_reply r = { .size = sizeof(r),
				.action = UTRACE_RESUME | ev->action };

			utrace_queue_reply(s->q, ev->id, &r);
		}
		return;
	}
	if (ev->held) {
		g->hid = ev->id;
		g->htype = ev->type;
		g->hact = ev->action;
		g->step_rec = ev->type == UTRACE_EVENT(SIGNAL) &&
			      ev->info.si_signo == SIGTRAP &&
			      utrace_signal_action(ev->action) ==
			      UTRACE_SIGNAL_REPORT;
	}
	if (ev->type == UTRACE_EVENT(DEATH)) {
		on_death(s, g, ev);
		return;
	}
	if (!g->p->active) {
		gthr_pass_on(g);
		gthr_set_stopped(g);
		return;
	}
	if (ev->type == 0)
		on_stopped(g);
	else if (ev->type & UTRACE_EVENT_SIGNAL_ALL)
		on_signal(g, ev);
	else if (ev->type == UTRACE_EVENT(SYSCALL_ENTRY))
		on_syscall(g, ev, true);
	else if (ev->type == UTRACE_EVENT(SYSCALL_EXIT))
		on_syscall(g, ev, false);
	else if (ev->type == UTRACE_EVENT(CLONE))
		on_clone(g, ev);
	else if (ev->type == UTRACE_EVENT(EXEC))
		on_exec(s, g, ev);
	else
		gthr_pass_on(g);
	/* on_clone may have dropped g with its process: look again. */
	for (old = s->threads; old; old = old->next)
		if (old == g)
			gthr_set_stopped(g);
}

/* Every record that waits; the loop's records are read without waiting. */
int gdb_read_records(struct gdbstub *s)
{
	struct utrace_event ev = { .size = sizeof(ev) };
	int r, n = 0;

	if (s->q_gone)
		return 0;
	while ((r = utrace_queue_next(s->q, &ev, 0)) == 1) {
		on_record(s, &ev);
		n++;
	}
	/*
	 * Joined, the tracer ended after the processes' ends (their DEATH
	 * records came first): gdb may still have their end to take
	 * (non-stop: a notification), so the stub serves on without it.
	 */
	if (r == -ENOTCONN && s->joined && !gdb_any_live(s)) {
		s->q_gone = true;
		return n;
	}
	return r < 0 ? r : n;
}
