// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace --gdb: process control over the queue API (gdbserver's target
 * and linux-low): the threads and processes gdb debugs, holding them
 * (the all-stop), replying to held records, resuming threads as gdb
 * asks, and letting everything go when gdb detaches or goes away.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utrace.h>

#include "gdb/gdb.h"

struct gthr *gthr_find(struct gdbstub *s, pid_t tid)
{
	struct gthr *g;

	for (g = s->threads; g; g = g->next)
		if (g->tid == tid)
			return g;
	return NULL;
}

/* A thread gdb sees: alive, of a process gdb controls. */
bool gthr_usable(const struct gthr *g)
{
	return !g->dead && g->p->active;
}

struct gthr *gthr_live(struct gdbstub *s, pid_t tid)
{
	struct gthr *g = gthr_find(s, tid);

	return g && gthr_usable(g) ? g : NULL;
}

struct gproc *gproc_find(struct gdbstub *s, pid_t pid)
{
	struct gproc *p;

	for (p = s->procs; p; p = p->next)
		if (p->pid == pid)
			return p;
	return NULL;
}

struct gproc *gproc_new(struct gdbstub *s, pid_t pid)
{
	struct gproc *p = calloc(1, sizeof(*p)), **pp;

	if (!p)
		return NULL;
	p->s = s;
	p->pid = pid;
	p->active = true;
	for (pp = &s->procs; *pp; pp = &(*pp)->next)
		;
	*pp = p;
	return p;
}

void gproc_free(struct gdbstub *s, struct gproc *p)
{
	struct gproc **pp;

	for (pp = &s->procs; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	if (s->evproc == p)
		s->evproc = NULL;
	gdb_bps_free(p);
	free(p);
}

bool gproc_has_threads(struct gdbstub *s, struct gproc *p)
{
	struct gthr *g;

	for (g = s->threads; g; g = g->next)
		if (g->p == p)
			return true;
	return false;
}

/* Does gdb debug any process that is still there? */
bool gdb_any_live(const struct gdbstub *s)
{
	const struct gproc *p;

	for (p = s->procs; p; p = p->next)
		if (p->active && !p->gone)
			return true;
	return false;
}

/*
 * The thread registers and memory go through (Hg, else one held).  In
 * non-stop gdb names the thread it means with Hg, running or not: its
 * registers are refused while it runs, its memory is reached anyway
 * (gthr_mem_rw).
 */
struct gthr *gthr_access(struct gdbstub *s)
{
	struct gthr *g = gthr_live(s, s->gtid);

	if (g && (g->stopped || s->nonstop))
		return g;
	for (g = s->threads; g; g = g->next)
		if (gthr_usable(g) && g->stopped && g->p->pid == s->last_pid)
			return g;
	for (g = s->threads; g; g = g->next)
		if (gthr_usable(g) && g->stopped)
			return g;
	if (!s->nonstop)
		return NULL;
	for (g = s->threads; g; g = g->next)
		if (gthr_usable(g) && g->p->pid == s->last_pid)
			return g;
	for (g = s->threads; g; g = g->next)
		if (gthr_usable(g))
			return g;
	return NULL;
}

/*
 * The thread memory goes through: the thread itself, but for a vfork
 * parent (not stopped, its memory shared) the held child.
 */
static pid_t gthr_mem_tid(struct gthr *g)
{
	struct gthr *c;

	if (!g->vfork_wait)
		return g->tid;
	for (c = g->s->threads; c; c = c->next)
		if (c->p->pid == g->p->vfork_peer && gthr_usable(c) && c->stopped)
			return c->tid;
	return g->tid;
}

/*
 * Memory through @g: the thread itself when it is held, else (non-stop)
 * another held thread of its process, else @g held for the moment.
 */
ssize_t gthr_mem_rw(struct gthr *g, uint64_t addr, void *buf, size_t len,
		      bool write)
{
	struct utrace_iov iov = { addr, buf, len };
	struct gthr *h = g;
	ssize_t n;
	int paused = 0;

	if (!g->stopped && g->s->nonstop) {
		for (h = g->s->threads; h; h = h->next)
			if (h->p == g->p && gthr_usable(h) && h->stopped &&
			    !h->vfork_wait)
				break;
		if (!h) {
			h = g;
			paused = gthr_pause(g);
			if (paused < 0)
				return paused;
		}
	}
	n = write ? utrace_queue_mem_writev(g->s->q, gthr_mem_tid(h), &iov, 1) :
		    utrace_queue_mem_readv(g->s->q, gthr_mem_tid(h), &iov, 1);
	if (paused)
		gthr_unpause(g);
	return n;
}

bool gthr_ptid_match(const struct gthr *g, pid_t pid, pid_t tid)
{
	return (pid <= 0 || g->p->pid == pid) && (tid <= 0 || g->tid == tid);
}

/*
 * Held for gdb: by a record not replied to yet, or by the whole-process
 * stop (its record of type 0 came).  A clone or exec record holds the
 * thread only from the syscall's exit (where the stop's record comes),
 * except a vfork parent, served from a snapshot meanwhile.
 */
void gthr_set_stopped(struct gthr *g)
{
	g->stopped = g->allstop || g->vfork_wait ||
		     (g->hid && !(g->htype & (UTRACE_EVENT(CLONE) |
					      UTRACE_EVENT(EXEC))));
}

/* Reply to g's held record (if any) with @action; @info: a signal to deliver. */
int gthr_reply(struct gthr *g, uint32_t action, const siginfo_t *info)
{
	struct utrace_reply r = { .size = sizeof(r), .action = action };
	uint64_t id = g->hid;
	int err;

	if (!id)
		return 0;
	g->hid = 0;
	g->htype = 0;
	g->step_rec = false;
	g->own = false;
	if (info) {
		r.flags = UTRACE_REPLY_SIGINFO;
		r.info = *info;
	}
	err = utrace_queue_reply(g->s->q, id, &r);
	gthr_set_stopped(g);
	g->s->kick = true;
	return err;
}

/* The resume action gdb asked for the thread. */
uint32_t gthr_go(const struct gthr *g)
{
	return g->step ? UTRACE_SINGLESTEP : UTRACE_RESUME;
}

/* Let the held record go on as if gdb were not there. */
void gthr_pass_on(struct gthr *g)
{
	uint32_t sa = 0;

	if (g->step_rec || g->own)
		sa = UTRACE_SIGNAL_REPORT;
	else if (g->htype & UTRACE_EVENT_SIGNAL_ALL)
		sa = g->hact;
	gthr_reply(g, sa | gthr_go(g), NULL);
}

/* Ask every thread to stop; the reply waits until all are held. */
void gdb_stop_all(struct gdbstub *s)
{
	struct gproc *p;
	struct gthr *g;

	for (g = s->threads; g; g = g->next)
		if (gthr_usable(g)) {
			g->want_stop = true;
			g->stop_asked = !g->allstop;
		}
	for (p = s->procs; p; p = p->next)
		if (p->active && !p->gone && gproc_has_threads(s, p))
			utrace_queue_stop(s->q, p->pid, 0);
	s->kick = true;
}

/* An event on g: hold it, and start the all-stop if none is under way. */
void gthr_event(struct gthr *g, enum gev ev)
{
	struct gdbstub *s = g->s;

	g->ev = ev;
	g->step = false;
	g->want_stop = true;
	if (s->nonstop) {
		gdb_ns_event(g);
		return;
	}
	if (s->waiting && !s->stopping) {
		s->stopping = true;
		s->evthr = g;
		gdb_stop_all(s);
	}
}

/* The vfork parent runs again: its own registers and memory are back. */
void gthr_vfork_end(struct gthr *g)
{
	struct gproc *c;

	g->vfork_wait = false;
	free(g->snap);
	g->snap = NULL;
	c = gproc_find(g->s, g->p->vfork_peer);
	if (c && c->vfork_peer == g->p->pid)
		c->vfork_peer = 0;
	g->p->vfork_peer = 0;
	gthr_set_stopped(g);
}

void gthr_free(struct gthr *g)
{
	free(g->snap);
	free(g->last_reply);
	free(g);
}

void gthr_unlink(struct gdbstub *s, struct gthr *g)
{
	struct gthr **p;

	for (p = &s->threads; *p; p = &(*p)->next)
		if (*p == g) {
			*p = g->next;
			break;
		}
	if (s->evthr == g)
		s->evthr = NULL;
}

/* Is a thread of a process gdb controls still running? */
bool gdb_any_running(struct gdbstub *s)
{
	struct gthr *g;

	for (g = s->threads; g; g = g->next)
		if (gthr_usable(g) && !g->stopped)
			return true;
	return false;
}

static unsigned long watch_events(const struct gdbstub *s)
{
	unsigned long ev = UTRACE_EVENT_SIGNAL_ALL | UTRACE_EVENT(CLONE) |
			   UTRACE_EVENT(EXEC) | UTRACE_EVENT(DEATH);

	if (s->catch_on)
		ev |= UTRACE_EVENT_SYSCALL;
	return ev;
}

/*
 * Watch @tid (local: one thread, right after utrace's keeper, before the
 * printer) or the whole process @tid (joined), with the masks gdb's
 * catchpoints ask for.  Everything but DEATH is held.
 */
int gdb_watch(struct gdbstub *s, pid_t tid)
{
	unsigned long ev = watch_events(s);
	unsigned flags = 0;
	int err;

	if (s->joined)
		flags = UTRACE_WATCH_PROCESS | UTRACE_WATCH_FIRST;
	else if (s->rewatch)
		flags = UTRACE_WATCH_FIRST;	/* before the printer still */
	err = utrace_queue_watch(s->q, tid, flags, ev,
				 ev & ~UTRACE_EVENT(DEATH));
	if (err)
		return err;
	if (s->catch_on && !s->catch_any)
		return utrace_queue_set_syscalls(s->q, tid, s->catch_nrs,
						 s->catch_n);
	return utrace_queue_set_syscalls(s->q, tid, NULL, 0);
}

struct gthr *gthr_add(struct gdbstub *s, struct gproc *p, pid_t tid)
{
	struct gthr *g = calloc(1, sizeof(*g)), **pp;

	if (!g)
		return NULL;
	g->s = s;
	g->p = p;
	g->tid = tid;
	/* In the order gdb numbers them, as gdbserver: creation order. */
	for (pp = &s->threads; *pp; pp = &(*pp)->next)
		;
	*pp = g;
	return g;
}

/* The parent process of @pid, from /proc/PID/stat. */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *q;
	ssize_t n;
	int fd, ppid = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	q = strrchr(buf, ')');
	if (!q || sscanf(q + 1, " %*c %d", &ppid) != 1)
		return 0;
	return (pid_t)ppid;
}

/*
 * The process a new thread belongs to for gdb: a process gdb debugs, or,
 * with fork-events, a new child of one (-f attaches the child's engines
 * before its parent's clone report).  *fresh: a new fork child.
 */
static struct gproc *proc_for(struct gdbstub *s, pid_t tid, pid_t tgid,
			      bool *fresh)
{
	struct gproc *p = gproc_find(s, tgid), *pp;

	*fresh = false;
	if (p)
		return p->active && !p->gone ? p : NULL;
	if (!s->fork_events || tid != tgid)
		return NULL;
	pp = gproc_find(s, parent_of(tid));
	if (!pp || !pp->active)
		return NULL;
	*fresh = true;
	return gproc_new(s, tgid);
}

int gdbstub_attach(struct gdbstub *s, pid_t tid, pid_t tgid)
{
	struct gproc *p;
	struct gthr *g;
	bool fresh;
	int err;

	if (!s || !s->active || s->joined || gthr_find(s, tid))
		return 0;
	p = proc_for(s, tid, tgid, &fresh);
	if (!p)
		return 0;
	g = gthr_add(s, p, tid);
	if (!g)
		return -ENOMEM;
	err = gdb_watch(s, tid);
	if (err) {
		gthr_unlink(s, g);
		free(g);
		/* A fork child's record, made for this thread only. */
		if (p != s->procs && !gproc_has_threads(s, p))
			gproc_free(s, p);
		return err;
	}
	/* A fork child gdb may be told about: held from birth. */
	if (fresh) {
		g->stop_asked = true;
		/* Non-stop: stopped as gdb sees it, from the fork event on. */
		g->want_stop = s->nonstop;
		p->held_whole = true;
		utrace_queue_stop(s->q, tgid, 0);
	} else if (tid != tgid && s->nonstop) {
		gdb_ns_birth(g);
	} else if (tid != tgid) {
		gdb_birth_stop(s, p, g);
	}
	return 0;
}

/*
 * Let a thread of a process gdb no longer debugs go: the queue's engine
 * leaves it (at once, or with the reply to its held record, which says
 * what becomes of a held signal).
 */
void gthr_drop(struct gthr *g)
{
	struct gdbstub *s = g->s;
	struct gproc *p = g->p;

	if (g->hid && !g->dead) {
		uint32_t sa = 0;
		siginfo_t *info = NULL;

		if (g->step_rec || g->own)
			sa = UTRACE_SIGNAL_REPORT;	/* our trap */
		else if (g->htype & UTRACE_EVENT_SIGNAL_ALL)
			sa = g->hact;
		if (g->drop_sig)
			sa = g->drop_sig == 1 ? UTRACE_SIGNAL_IGN :
			     UTRACE_SIGNAL_DELIVER;
		if (g->drop_sig > 1)
			info = &g->ev_info;
		gthr_reply(g, UTRACE_DETACH | sa, info);
	} else if (!g->dead) {
		utrace_queue_unwatch(s->q, g->tid, 0);
	}
	gthr_unlink(s, g);
	gthr_free(g);
	if (!gproc_has_threads(s, p))
		gproc_free(s, p);
}

/*
 * gdb detached from p (or went away) with every thread held: take
 * breakpoints and watchpoints out, pass the signals gdb would pass, and
 * let the process run on under the other engines.  The queue leaves
 * every thread of p (a held one with its reply).
 */
void gdb_let_go_proc(struct gdbstub *s, struct gproc *p)
{
	struct gproc *peer = p->vfork_peer ? gproc_find(s, p->vfork_peer) :
			     NULL;
	struct gthr *g, *h, *next;
	struct swbp *b;
	pid_t pid = p->pid;
	bool dr_used = false;
	int i;

	for (g = s->threads; g; g = g->next)
		if (g->p == p && gthr_usable(g) && g->stopped && !g->vfork_wait)
			break;
	/* Non-stop, with every thread running: one held for the writes. */
	for (h = s->threads; !g && p->bps && s->nonstop && h; h = h->next)
		if (h->p == p && gthr_usable(h) && gthr_pause(h) >= 0)
			g = h;		/* unwatched below: no unpause */
	/* Memory shared with a vfork peer gdb still debugs stays as it is. */
	for (b = p->bps; b; b = b->next)
		if (g && !(peer && peer->active)) {
			struct utrace_iov iov = { b->addr, &b->orig, 1 };

			utrace_queue_mem_writev(s->q, g->tid, &iov, 1);
		}
	if (peer && peer->vfork_peer == p->pid)
		peer->vfork_peer = 0;
	p->vfork_peer = 0;
	gdb_bps_free(p);
	for (i = 0; i < 4; i++)
		dr_used |= p->dr[i].used;
	memset(p->dr, 0, sizeof(p->dr));
	p->dr_gen++;
	for (g = s->threads; g; g = g->next) {
		if (g->p != p || g->dead)
			continue;
		/*
		 * Non-stop: a running thread with debug registers set is
		 * held for their removal (and unwatched below).
		 */
		if (g->stopped || (s->nonstop && dr_used &&
				   gthr_pause(g) >= 0))
			gthr_dr_apply(g);
		/* A signal gdb stopped for: passed as gdb would, or dropped. */
		g->drop_sig = 0;
		if (g->ev_has_info && g->ev_sig > 0 && g->ev_sig <= 64 &&
		    (g->htype & UTRACE_EVENT_SIGNAL_ALL) && !g->step_rec &&
		    !g->own)
			g->drop_sig = s->pass[g->ev_sig] ? 2 : 1;
	}
	p->active = false;
	for (g = s->threads; g; g = next) {
		next = g->next;
		if (g->p != p)
			continue;
		g->want_stop = g->step = false;
		g->vfork_wait = false;
		free(g->snap);
		g->snap = NULL;
		gthr_drop(g);	/* may free p */
	}
	utrace_queue_resume(s->q, pid);
	s->kick = true;
}

/* gdb detached from everything or went away: the stub is done. */
/*
 * gdb detached from everything or went away: the processes run on as
 * found.  With @listen the stub remembers them and waits for the next
 * gdb (as gdbserver does without --once); else it is done.
 */
void gdb_let_go(struct gdbstub *s, bool listen)
{
	struct gproc *p, *next;
	int i;

	for (p = s->procs; p; p = next) {
		next = p->next;
		if (!p->active)
			continue;
		if (listen && !p->gone && !p->killed &&
		    s->nreleased < (int)(sizeof(s->released) /
					 sizeof(s->released[0]))) {
			s->released[s->nreleased].pid = p->pid;
			s->released[s->nreleased++].attached = p->attached;
		}
		gdb_let_go_proc(s, p);
	}
	s->active = false;
	s->waiting = s->stopping = s->closing = false;
	/* The next gdb starts in all-stop, as with a new gdbserver client. */
	gdb_ns_set(s, false);
	s->thread_events = false;
	gdb_close_client(s);
	/* Joined: nothing traces them here; their deaths end the wait. */
	for (i = 0; listen && s->joined && i < s->nreleased; i++)
		utrace_queue_watch(s->q, s->released[i].pid,
				   UTRACE_WATCH_PROCESS, UTRACE_EVENT(DEATH),
				   0);
	if (listen && s->nreleased)
		return;
	s->nreleased = 0;
	if (s->lfd >= 0)
		close(s->lfd);
	s->lfd = -1;
	if (s->upath)
		unlink(s->upath);
}

/* Joined: a released process's thread died; its last one ends it. */
void gdb_released_death(struct gdbstub *s, pid_t pid)
{
	char path[64];
	int i;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	if (!access(path, F_OK))
		return;		/* threads left */
	for (i = 0; i < s->nreleased; i++)
		if (s->released[i].pid == pid)
			s->released[i] = s->released[--s->nreleased];
}

/* Is @pid there still (not a zombie)? */
static bool proc_alive(pid_t pid)
{
	char path[64], buf[256], *q;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	q = strrchr(buf, ')');
	return q && q[1] == ' ' && q[2] != 'Z' && q[2] != 'X';
}

/*
 * A new gdb after one left: the processes it left are debugged again,
 * every thread held as with -p (the stop reply waits for it).  Locally
 * the stub's engine goes first on each thread again, so that the
 * printer never sees gdb's traps.  Returns whether there is one.
 */
bool gdb_revive(struct gdbstub *s)
{
	struct released r[8];
	struct dirent *de;
	struct gproc *p;
	char path[64];
	int i, n = s->nreleased;
	DIR *d;

	memcpy(r, s->released, sizeof(r));
	s->nreleased = 0;
	for (i = 0; i < n; i++) {
		if (!proc_alive(r[i].pid) ||
		    gdbstub_set_process(s, r[i].pid, false) < 0)
			continue;
		p = gproc_find(s, r[i].pid);
		p->attached = r[i].attached;
		if (s->joined) {
			utrace_queue_unwatch(s->q, p->pid, UTRACE_WATCH_PROCESS);
			if (gdb_start_proc(s, p) < 0)
				gdb_let_go_proc(s, p);
			continue;
		}
		s->rewatch = true;
		snprintf(path, sizeof(path), "/proc/%d/task", p->pid);
		d = opendir(path);
		if (gthr_add(s, p, p->pid) && gdb_watch(s, p->pid) == 0) {
			while (d && (de = readdir(d))) {
				pid_t tid = (pid_t)atoi(de->d_name);
				struct gthr *g;

				if (tid <= 0 || gthr_find(s, tid))
					continue;
				g = gthr_add(s, p, tid);
				if (g && gdb_watch(s, tid) < 0) {
					gthr_unlink(s, g);
					free(g);
				}
			}
		}
		if (d)
			closedir(d);
		s->rewatch = false;
		if (gdb_start_proc(s, p) < 0)
			gdb_let_go_proc(s, p);
	}
	return gdb_any_live(s);
}

/* The connection ended (EOF, error or D). */
void gdb_client_gone(struct gdbstub *s)
{
	gdb_close_client(s);
	if (!s->active)
		return;
	if (!gdb_any_live(s)) {
		s->active = false;
		return;
	}
	if (s->waiting && !s->nonstop) {
		/* Running: hold everything first, then let go. */
		s->closing = true;
		s->waiting = false;
		gdb_stop_all(s);
		return;
	}
	gdb_let_go(s, true);
}

/* A pending event that still stands (a removed breakpoint's does not). */
bool gthr_pending(struct gdbstub *s, struct gthr *g)
{
	if (!gthr_usable(g) || g->ev == GEV_NONE || g->ev == GEV_INIT)
		return false;
	if (g->ev == GEV_SWBREAK && !gdb_bp_find(g->p, g->ev_addr)) {
		g->ev = GEV_NONE;
		return false;
	}
	if (g->ev == GEV_INTR || g->ev == GEV_STEP) {
		g->ev = GEV_NONE;
		return false;
	}
	return true;
}

/*
 * What gdb said of a held thread: its held record is replied to (a held
 * signal delivered, another one instead, or dropped; our own traps are
 * no signal), a signal to send without one goes by tgkill and is
 * delivered as gdb said when it comes.  The release is gdb_resume()'s.
 */
void gthr_resume(struct gthr *g, struct action *a)
{
	siginfo_t si;

	if (!gthr_usable(g))
		return;
	gthr_dr_apply(g);
	g->step = a->a == 's' && !g->vfork_wait;
	if (a->sig) {
		if (g->ev_has_info && g->ev_info.si_signo == a->sig) {
			si = g->ev_info;
		} else {
			memset(&si, 0, sizeof(si));
			si.si_signo = a->sig;
			si.si_code = SI_USER;
		}
	}
	if (g->hid && (g->htype & UTRACE_EVENT_SIGNAL_ALL) && !g->step_rec &&
	    !g->own) {
		if (a->sig)
			gthr_reply(g, UTRACE_SIGNAL_DELIVER | gthr_go(g), &si);
		else
			gthr_reply(g, UTRACE_SIGNAL_IGN | gthr_go(g), NULL);
	} else {
		if (a->sig) {
			g->inj_sig = a->sig;
			g->inj = si;
			syscall(SYS_tgkill, g->p->pid, g->tid, a->sig);
		}
		gthr_reply(g, (g->hid && (g->htype & UTRACE_EVENT_SIGNAL_ALL) ?
			  UTRACE_SIGNAL_REPORT : 0) | gthr_go(g), NULL);
	}
	g->ev_has_info = false;
	g->si_valid = false;
	g->want_stop = false;
	g->ev = GEV_NONE;
	gthr_set_stopped(g);
}

/* Apply per-thread actions (index parallel to the thread list). */
void gdb_resume(struct gdbstub *s, struct action *acts, size_t n)
{
	struct gthr *g;
	struct gproc *p = gdb_ended(s);
	size_t i;

	s->asked = true;
	if (p) {
		/* A process ended while held: gdb hears of it first. */
		gdb_report_exit(s, p);
		return;
	}
	if (!gdb_any_live(s)) {
		gdb_send_packet(s, s->stopreply[0] ? s->stopreply : "W00");
		s->asked = false;
		return;
	}
	s->waiting = true;
	for (g = s->threads, i = 0; g && i < n; g = g->next, i++)
		if (acts[i].a && gthr_usable(g) && g->vfork_wait && g->allstop) {
			/* At vfork's exit already: the child let go. */
			gthr_vfork_end(g);
			gthr_reply(g, UTRACE_RESUME, NULL);
			g->ev = GEV_VFORKDONE;
			g->want_stop = true;
		}
	for (g = s->threads, i = 0; g && i < n; g = g->next, i++)
		if (acts[i].a && gthr_pending(s, g)) {
			/* As gdbserver: report it instead of resuming. */
			s->stopping = true;
			s->evthr = g;
			return;
		}
	for (g = s->threads, i = 0; g && i < n; g = g->next, i++)
		if (acts[i].a)
			gthr_resume(g, &acts[i]);
	/*
	 * The release: each thread out of its process's stop (a reply given
	 * meanwhile is carried out then); a vfork parent stays in it, to be
	 * seen stopped at vfork's exit.  A process all of whose threads go
	 * leaves its stop, so that new threads are not held from birth.
	 */
	for (p = s->procs; p; p = p->next) {
		bool all = true;

		if (!p->active || p->gone)
			continue;
		for (g = s->threads, i = 0; g && i < n; g = g->next, i++) {
			if (g->p != p || !gthr_usable(g))
				continue;
			if (!acts[i].a || g->vfork_wait) {
				all = false;
				continue;
			}
			if (g->allstop)
				utrace_queue_resume_thread(s->q, g->tid,
							   gthr_go(g));
			g->allstop = false;
			gthr_set_stopped(g);
		}
		if (all)
			utrace_queue_resume(s->q, p->pid);
	}
	s->kick = true;
	if (s->intr_pending) {
		s->intr_pending = false;
		gdb_interrupt(s);
	}
}

/*
 * -p, vAttach: every thread of the process, then hold them all.  Locally
 * utrace attached them (gdbstub_attach watched each); joined, the queue
 * watches the whole process and follows its new threads.
 */
int gdb_start_proc(struct gdbstub *s, struct gproc *p)
{
	char path[64];
	struct dirent *de;
	struct gthr *g;
	DIR *d;
	int err;

	if (p->wait_exec)
		return 0;
	if (s->joined) {
		err = gdb_watch(s, p->pid);
		if (err)
			return err;
		/* The main thread first: gdb's thread 1. */
		if (!gthr_find(s, p->pid))
			gthr_add(s, p, p->pid);
		snprintf(path, sizeof(path), "/proc/%d/task", p->pid);
		d = opendir(path);
		if (d) {
			while ((de = readdir(d))) {
				pid_t tid = (pid_t)atoi(de->d_name);

				if (tid > 0 && !gthr_find(s, tid))
					gthr_add(s, p, tid);
			}
			closedir(d);
		}
	}
	g = gthr_find(s, p->pid);
	if (!g)
		return -ESRCH;
	gthr_event(g, GEV_INIT);
	return 0;
}

/*
 * Ctrl-C while the threads run: stop them all and report SIGINT for the
 * thread of the last stop (else the main thread, else any).  gdb sends
 * one while the process is stopped too (a Ctrl-C while it read files
 * through the target, say), and then waits for a stop after its next
 * resume: as gdbserver (which sends the process a SIGINT then), the next
 * resume stops again at once.
 */
void gdb_interrupt(struct gdbstub *s)
{
	struct gthr *g, *h;

	if (!s->active || !s->threads)
		return;
	if (s->nonstop) {
		gdb_ns_interrupt(s);
		return;
	}
	if (!s->waiting) {
		s->intr_pending = true;
		return;
	}
	if (s->stopping)
		return;		/* a stop reply comes anyway */
	g = gthr_live(s, s->last_tid);
	if (!g && s->procs)
		g = gthr_live(s, s->procs->pid);
	for (h = s->threads; h && !g; h = h->next)
		if (gthr_usable(h))
			g = h;
	if (!g)
		return;
	s->stopping = true;
	s->evthr = g;
	g->ev = GEV_INTR;
	gdb_stop_all(s);
}

/*
 * A new thread of @p while gdb's debug registers are in use: they are
 * per thread, and the kernel gives a new thread none.  gdbserver writes
 * them before the thread first runs; here the queue can write them only
 * on a thread it holds, so the process is stopped (locally the thread is
 * taken at birth, before its first instruction) and let go again once
 * they are written (gdb_birth_settle).
 */
void gdb_birth_stop(struct gdbstub *s, struct gproc *p, struct gthr *g)
{
	int i;

	if (!p->active || p->gone)
		return;
	for (i = 0; i < 4 && !p->dr[i].used; i++)
		;
	if (i == 4)
		return;
	if (s->nonstop) {
		/* The new thread only; the others run on (on_stopped). */
		g->ns_birth = true;
		g->stop_asked = true;
		utrace_queue_stop_thread(s->q, g->tid, 0);
		s->kick = true;
		return;
	}
	if (p->birth_stop)
		return;
	p->birth_stop = true;
	utrace_queue_stop(s->q, p->pid, 0);
	s->kick = true;
}

/*
 * A birth stop is complete when every thread of its process is held:
 * the debug registers go in, and unless gdb holds the process itself
 * (it stopped it meanwhile, or has not resumed it) the process runs on.
 */
void gdb_birth_settle(struct gdbstub *s)
{
	struct gproc *p;
	struct gthr *g;

	for (p = s->procs; p; p = p->next) {
		if (!p->birth_stop)
			continue;
		for (g = s->threads; g; g = g->next)
			if (g->p == p && gthr_usable(g) && !g->stopped)
				break;
		if (g)
			continue;	/* not all held yet */
		p->birth_stop = false;
		for (g = s->threads; g; g = g->next)
			if (g->p == p && gthr_usable(g))
				gthr_dr_apply(g);
		if (!s->waiting || s->stopping || s->closing)
			continue;	/* gdb's own stop takes it over */
		for (g = s->threads; g; g = g->next)
			if (g->p == p) {
				g->allstop = false;
				gthr_set_stopped(g);
			}
		utrace_queue_resume(s->q, p->pid);
		s->kick = true;
	}
}
