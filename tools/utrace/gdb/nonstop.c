// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace --gdb: non-stop mode (gdbserver's non-stop half of server.cc
 * and notif.cc): QNonStop, each thread stopped and resumed on its own
 * (vCont with t, c and s actions per thread), stop replies queued as
 * %Stop notifications that gdb drains with vStopped, '?' giving every
 * stopped thread, vCtrlC, and holding a running thread for a moment when
 * gdb reaches memory or debug registers with no thread of the process
 * held.  An event holds its thread only (utrace_queue_stop_thread, never
 * a whole-process stop), so the other threads run on and every other
 * engine on them (the printer, a joined tracer's) goes on as before.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <utrace.h>

#include "gdb/gdb.h"

/* How long a pause (gthr_pause) waits for a running thread to stop. */
#define PAUSE_MS	5000

/* Queue a stop reply; the first one waiting goes out as a notification. */
static void notif_push(struct gdbstub *s, pid_t pid, const char *text)
{
	size_t n = strlen(text);
	struct notif *x = malloc(sizeof(*x) + n + 1), **pp;
	bool first = !s->notifs;
	char *pkt;

	if (!x)
		return;
	x->next = NULL;
	x->pid = pid;
	memcpy(x->text, text, n + 1);
	for (pp = &s->notifs; *pp; pp = &(*pp)->next)
		;
	*pp = x;
	if (!first || s->cfd < 0)
		return;
	pkt = malloc(n + 6);
	if (!pkt)
		return;
	memcpy(pkt, "Stop:", 5);
	memcpy(pkt + 5, text, n + 1);
	gdb_send_notif(s, pkt);
	free(pkt);
}

/*
 * Drop the queued stop replies of process @pid (detached, killed), or
 * all (@pid 0); the head stays while gdb may ack it, as in gdbserver.
 */
void gdb_ns_discard(struct gdbstub *s, pid_t pid)
{
	struct notif **pp = s->notifs ? &s->notifs->next : &s->notifs, *x;

	if (!pid) {
		while ((x = s->notifs)) {
			s->notifs = x->next;
			free(x);
		}
		return;
	}
	while ((x = *pp)) {
		if (x->pid == pid) {
			*pp = x->next;
			free(x);
		} else {
			pp = &x->next;
		}
	}
}

/* Is a stop reply of @g waiting in the queue (gdb has not taken it)? */
static bool queued(struct gthr *g)
{
	char id[48];
	struct notif *x;

	snprintf(id, sizeof(id), "thread:p%x.%x;", (unsigned)g->p->pid,
		 (unsigned)g->tid);
	for (x = g->s->notifs; x; x = x->next)
		if (strstr(x->text, id))
			return true;
	return false;
}

/*
 * QNonStop:1 / QNonStop:0.  Switched on (gdb does it as it connects),
 * the threads the first stop held go on as gdbserver lets them: only the
 * thread of the stop gdb was told about, and any with an event still to
 * tell, stay stopped, each by a stop of its own, and the whole-process
 * stop is let go, so that new threads are not held.  Switched off with
 * threads running: they are all stopped, as an all-stop stub has them
 * when gdb asks '?'.
 */
void gdb_ns_set(struct gdbstub *s, bool on)
{
	struct gproc *p;
	struct gthr *g;

	if (on == s->nonstop)
		return;
	s->nonstop = on;
	if (!on) {
		gdb_ns_discard(s, 0);
		if (!s->active || !gdb_any_running(s))
			return;
		for (g = s->threads; g; g = g->next)
			if (gthr_usable(g))
				break;
		s->waiting = s->stopping = true;
		s->asked = false;
		s->evthr = g;
		gdb_stop_all(s);
		return;
	}
	s->waiting = s->stopping = false;
	s->evthr = NULL;
	s->evproc = NULL;
	for (p = s->procs; p; p = p->next) {
		if (!p->active || p->gone)
			continue;
		for (g = s->threads; g; g = g->next) {
			if (g->p != p || !gthr_usable(g))
				continue;
			g->want_stop = g->tid == s->last_tid ||
				       gthr_pending(s, g);
			if (g->want_stop && g->allstop)
				utrace_queue_stop_thread(s->q, g->tid, 0);
			else if (!g->want_stop)
				g->allstop = false;
			if (gthr_pending(s, g))
				g->ns_report = true;
			gthr_set_stopped(g);
		}
		utrace_queue_resume(s->q, p->pid);
	}
	s->kick = true;
}

/*
 * An event on g (gthr_event): told to gdb once g is held.  A clone or
 * exec record holds the thread before the syscall's exit only, where gdb
 * must see it: a stop of its own takes it there (its record of type 0).
 */
void gdb_ns_event(struct gthr *g)
{
	g->ns_report = true;
	if ((!g->hid || (g->htype & (UTRACE_EVENT(CLONE) |
				     UTRACE_EVENT(EXEC)))) &&
	    !g->allstop && !g->vfork_wait && !g->stop_asked) {
		g->stop_asked = true;
		utrace_queue_stop_thread(g->s->q, g->tid, 0);
	}
	g->s->kick = true;
}

/*
 * A new thread of a process gdb debugs.  With QThreadEvents:1 gdb is
 * told of it (T05create:), held from birth until gdb resumes it, as
 * gdbserver does; else it runs at once, unless debug registers are in
 * use: they go in first (gdb_birth_stop holds it alone).
 */
void gdb_ns_birth(struct gthr *g)
{
	struct gdbstub *s = g->s;

	if (!s->thread_events) {
		gdb_birth_stop(s, g->p, g);
		return;
	}
	g->want_stop = true;
	gthr_event(g, GEV_CREATE);
}

/*
 * g's record of type 0 in non-stop (on_stopped): a birth stop puts the
 * debug registers in and lets it go; a stop gdb asked for (vCont;t) is
 * reported as T00.  Returns true when g was let go again.
 */
bool gdb_ns_stopped(struct gthr *g)
{
	struct gdbstub *s = g->s;

	if (g->p->held_whole) {
		/* Its own stop holds it now; new threads are not held. */
		g->p->held_whole = false;
		utrace_queue_stop_thread(s->q, g->tid, 0);
		utrace_queue_resume(s->q, g->p->pid);
	}
	if (g->ns_birth) {
		g->ns_birth = false;
		gthr_dr_apply(g);
		if (!g->want_stop && !g->ns_report && !g->hid) {
			g->allstop = false;
			utrace_queue_resume_thread(s->q, g->tid,
						   UTRACE_RESUME);
			return true;
		}
	}
	if (g->want_stop && !g->ns_report && g->ev == GEV_NONE) {
		g->ev = GEV_STOPPED;
		g->ns_report = true;
	}
	return false;
}

/* The events of held threads, as notifications (the settle loop). */
void gdb_ns_flush(struct gdbstub *s)
{
	char *buf;
	struct gthr *g;

	if (!s->nonstop)
		return;
	for (g = s->threads; g; g = g->next)
		if (g->ns_report && gthr_usable(g) && g->stopped)
			break;
	if (!g)
		return;
	buf = malloc(sizeof(s->stopreply));
	if (!buf)
		return;
	for (g = s->threads; g; g = g->next) {
		if (!g->ns_report || !gthr_usable(g) || !g->stopped)
			continue;
		if (g->vfork_wait && !g->snap)
			g->snap = gthr_snap_take(g);
		g->ns_report = false;
		g->want_stop = true;
		gdb_format_stop(s, g, buf, sizeof(s->stopreply));
		free(g->last_reply);
		g->last_reply = strdup(buf);
		if (g->ev != GEV_SIGNAL)
			g->ev_has_info = false;
		s->last_tid = g->tid;
		s->last_pid = g->p->pid;
		if (g->ev == GEV_INIT && s->asked) {
			/* vRun's reply is the stop itself, as gdbserver's. */
			g->ev = GEV_NONE;
			s->asked = false;
			s->gtid = g->tid;
			gdb_send_packet(s, buf);
			continue;
		}
		g->ev = GEV_NONE;
		notif_push(s, g->p->pid, buf);
	}
	free(buf);
}

/* p has ended: gdb hears of it in a notification; p is freed. */
void gdb_ns_exit(struct gdbstub *s, struct gproc *p)
{
	char buf[64];

	gdb_format_exit(p, buf, sizeof(buf));
	snprintf(s->stopreply, sizeof(s->stopreply), "%s", buf);
	gproc_free(s, p);
	notif_push(s, 0, buf);
}

/* A thread ended (not its process): told only with QThreadEvents:1. */
void gdb_ns_thread_exit(struct gdbstub *s, struct gthr *g, int status)
{
	char buf[64];

	if (!s->thread_events)
		return;
	snprintf(buf, sizeof(buf), "w%x;p%x.%x",
		 WIFEXITED(status) ? WEXITSTATUS(status) : 0,
		 (unsigned)g->p->pid, (unsigned)g->tid);
	notif_push(s, g->p->pid, buf);
}

/* Is g stopped as gdb sees it (its stop told, or being told)? */
static bool seen_stopped(struct gthr *g)
{
	return g->stopped && g->want_stop && !g->ns_report;
}

/*
 * vCont in non-stop: each thread its first matching action.  t stops a
 * running thread (T00 once held); c and s resume a stopped one; a thread
 * already as asked is left alone, as is one whose stop gdb has not
 * taken yet when the action names no thread (gdbserver's rules).
 */
void gdb_ns_resume(struct gdbstub *s, struct action *acts, size_t n)
{
	struct gthr *g;
	size_t i;

	for (g = s->threads, i = 0; g && i < n; g = g->next, i++) {
		struct action *a = &acts[i];

		if (!a->a || !gthr_usable(g))
			continue;
		if (a->a == 't') {
			if (g->want_stop || g->ns_report)
				continue;
			g->want_stop = true;
			if (g->stopped) {
				/* Held already (a pause): no new record. */
				g->ev = GEV_STOPPED;
				g->ns_report = true;
				continue;
			}
			g->stop_asked = true;
			utrace_queue_stop_thread(s->q, g->tid, 0);
			continue;
		}
		if (!seen_stopped(g) || (a->wild && queued(g)))
			continue;
		if (g->vfork_wait && g->allstop) {
			/* At vfork's exit already: the child let go. */
			gthr_vfork_end(g);
			gthr_reply(g, UTRACE_RESUME, NULL);
			g->ev = GEV_VFORKDONE;
			g->ns_report = true;
			continue;
		}
		gthr_resume(g, a);
		if (g->allstop)
			utrace_queue_resume_thread(s->q, g->tid, gthr_go(g));
		g->allstop = false;
		gthr_set_stopped(g);
	}
	s->kick = true;
	gdb_send_packet(s, "OK");
	if (s->intr_pending) {
		s->intr_pending = false;
		gdb_ns_interrupt(s);
	}
}

/*
 * '?' in non-stop: a stop reply for every stopped thread (its last one,
 * T00 for a thread never reported), queued after what waits already; the
 * reply is the first of the queue, or OK, and gdb asks for the others
 * with vStopped.
 */
void gdb_ns_status(struct gdbstub *s)
{
	char buf[64];
	struct gthr *g;

	gdb_ns_flush(s);
	for (g = s->threads; g; g = g->next) {
		struct notif *x, **pp;
		const char *text = g->last_reply;
		size_t len;

		if (!gthr_usable(g) || !g->stopped || g->ns_report)
			continue;
		g->want_stop = true;
		if (!text) {
			snprintf(buf, sizeof(buf), "T00thread:p%x.%x;",
				 (unsigned)g->p->pid, (unsigned)g->tid);
			text = buf;
		}
		len = strlen(text);
		x = malloc(sizeof(*x) + len + 1);
		if (!x)
			break;
		x->next = NULL;
		x->pid = g->p->pid;
		memcpy(x->text, text, len + 1);
		for (pp = &s->notifs; *pp; pp = &(*pp)->next)
			;
		*pp = x;
	}
	gdb_send_packet(s, s->notifs ? s->notifs->text : "OK");
}

/* vStopped: gdb has the head; the next one, or OK when none is left. */
void gdb_ns_vstopped(struct gdbstub *s)
{
	struct notif *x = s->notifs;

	if (x) {
		s->notifs = x->next;
		free(x);
	}
	gdb_send_packet(s, s->notifs ? s->notifs->text : "OK");
}

/*
 * vCtrlC (and a Ctrl-C byte in non-stop): gdbserver sends the process
 * group SIGINT and gdb sees the thread that takes it stop with it.  Here
 * one running thread is stopped and reported with SIGINT (the main
 * thread when it runs), nothing is sent to the program, and with no
 * thread running the next resume is interrupted.
 */
void gdb_ns_interrupt(struct gdbstub *s)
{
	struct gthr *g = NULL, *h;

	if (s->procs)
		g = gthr_live(s, s->procs->pid);
	if (g && (g->want_stop || g->ns_report))
		g = NULL;
	for (h = s->threads; h && !g; h = h->next)
		if (gthr_usable(h) && !h->want_stop && !h->ns_report)
			g = h;
	if (!g) {
		s->intr_pending = true;
		return;
	}
	g->want_stop = true;
	g->ev = GEV_INTR;
	g->ns_report = true;
	if (!g->stopped) {
		g->stop_asked = true;
		utrace_queue_stop_thread(s->q, g->tid, 0);
	}
	s->kick = true;
}

/*
 * Debug registers changed (Z1..Z4 or z) while threads run: each running
 * thread gets them now, held for a moment, as gdbserver stops each
 * running thread to update them.
 */
void gdb_ns_dr_sync(struct gdbstub *s)
{
	struct gthr *g;
	int paused;

	for (g = s->threads; g; g = g->next) {
		if (!gthr_usable(g) || g->stopped || g->dr_gen == g->p->dr_gen)
			continue;
		paused = gthr_pause(g);
		if (paused < 0)
			continue;
		gthr_dr_apply(g);
		if (paused)
			gthr_unpause(g);
	}
}

/*
 * Hold running thread g for a moment (non-stop: its memory or debug
 * registers while no thread of its process is held).  Returns 1 when g
 * was paused (gthr_unpause() it after), 0 when it is held already, by a
 * stop of ours whose record of type 0 is on its way, or -errno.
 */
int gthr_pause(struct gthr *g)
{
	int r;

	if (g->stopped)
		return 0;
	r = utrace_queue_stop_thread(g->s->q, g->tid, PAUSE_MS);
	if (r < 0)
		return r;
	if (g->stop_asked)
		return 0;
	/* Its record of type 0 is this pause's: skipped when it comes. */
	g->pause_skip++;
	return 1;
}

void gthr_unpause(struct gthr *g)
{
	utrace_queue_resume_thread(g->s->q, g->tid, UTRACE_RESUME);
}
