// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The utrace command on the record path (utrace(7), "Syscalls observed
 * in-process"): the engines that only look at syscalls (the printer, the
 * counter, the timeline) are observers, and a syscall they alone want is
 * recorded by the traced thread itself, with the memory its capture
 * rules name, instead of stopping it twice.  The rules are the decoders'
 * own (decode/capture.c), made library rules here, for every syscall
 * whose printing they hold exactly; every other syscall, and every one an
 * engine that must hold or change the thread wants (the injector, the
 * ptrace emulation, gdb's queue), takes the stop path as before.
 *
 * What the printing of a recorded syscall reads live rather than from
 * the tracee's memory must not change before the record is printed: the
 * descriptors' paths and the working directory (-y, -P), sockets'
 * endpoints (-yy).  The syscalls that change them then take the stop
 * path (the library delivers every record of a process before it reports
 * a stop), and so do, for -c without -w, the calls that wait: a record's
 * time is the call's time in the thread, its sleep included, where -c
 * counts system time.  With -k (a stack per line) and -Y or
 * --pidns-translation (other processes' names and ids, read live), the
 * printer is no observer: its syscalls all take the stop path.
 */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>

#include "cli.h"
#include "decode/capture.h"

/* The most one library rule may take (utrace_set_capture(3)). */
#define RULE_LIMIT	32768

bool printer_observes(const struct printer_settings *s)
{
	return !s->stack_trace && !s->decode_pids;
}

/* Whether -e read= or -e write= names any descriptor. */
static bool dumping(const struct num_set *s)
{
	return s && (s->n || s->not);
}

void records_how(const struct printer_settings *s, long nr,
		 struct dcap_how *how)
{
	bool known = nr >= 0 && nr < NR_MAX;

	memset(how, 0, sizeof(*how));
	how->strsize = s->strsize;
	how->no_abbrev = known && !s->abbrev[nr];
	how->hide_structs = known && !s->verbose[nr];
	how->raw = known && s->raw[nr];
	how->dumps = dumping(s->read_fds) || dumping(s->write_fds);
	how->limit = RULE_LIMIT;
	how->whole = true;
}

/*
 * The calls whose time from a record would be their sleep: -c without -w
 * counts their system time, from stops.
 */
static bool waits(long nr)
{
	switch (nr) {
	case SYS_nanosleep: case SYS_clock_nanosleep: case SYS_pause:
	case SYS_rt_sigsuspend: case SYS_rt_sigtimedwait: case SYS_wait4:
	case SYS_waitid: case SYS_poll: case SYS_ppoll: case SYS_select:
	case SYS_pselect6: case SYS_epoll_wait: case SYS_epoll_pwait:
	case SYS_epoll_pwait2: case SYS_futex: case SYS_futex_waitv:
	case SYS_io_getevents: case SYS_io_pgetevents: case SYS_msgrcv:
	case SYS_semop: case SYS_semtimedop: case SYS_mq_timedreceive:
	case SYS_accept: case SYS_accept4: case SYS_flock:
	case SYS_io_uring_enter:
		return true;
	}
	return false;
}

/* r[*n] gets rule c unless an equal one is there; false: no room. */
static bool add_rule(struct dcap *r, int *n, const struct dcap *c)
{
	for (int i = 0; i < *n; i++)
		if (!memcmp(&r[i], c, sizeof(*c)))
			return true;
	if (*n == DCAP_MAX)
		return false;
	r[(*n)++] = *c;
	return true;
}

/*
 * The rules of syscall nr for the engines s names, into r: their number,
 * or -1 when it must take the stop path.
 */
static int rules_of(const struct records_settings *s, long nr,
		    struct dcap *r)
{
	const struct printer_settings *ps = s->print;
	unsigned fds = ps ? ps->decode_fds : 0;
	unsigned change = dec_state_change(nr);
	struct dcap more[DCAP_MAX];
	int n = 0, m;

	memset(r, 0, sizeof(*r) * DCAP_MAX);
	memset(more, 0, sizeof(more));
	if ((change & DSTATE_FDS) && (fds || (s->paths && s->paths->n)))
		return -1;
	if ((change & DSTATE_SOCKETS) && (fds & DF_SOCKET))
		return -1;
	if (s->count && !s->count_wall && waits(nr))
		return -1;
	if (ps && printer_observes(ps)) {
		struct dcap_how how;

		records_how(ps, nr, &how);
		n = dec_capture(nr, &how, r);
		if (n < 0)
			return -1;
	}
	if (s->paths && s->paths->n) {
		m = trace_path_capture(nr, more, RULE_LIMIT);
		if (m < 0)
			return -1;
		for (int i = 0; i < m; i++)
			if (!add_rule(r, &n, &more[i]))
				return -1;
	}
	return n;
}

/* Whether an observer engine wants syscall nr. */
static bool wanted(const struct records_settings *s, long nr)
{
	if (!s->trace_set)
		return true;
	return nr >= 0 && nr < NR_MAX && s->trace_set[nr];
}

int records_start(struct utrace_tracer *tr, const struct records_settings *s,
		  struct records_summary *sum)
{
	int err;

	memset(sum, 0, sizeof(*sum));
	/*
	 * No engine that only looks: nothing to record.  Nor when the
	 * printer is no observer (-k, -Y): every syscall it prints stops
	 * anyway, and with -k a stop inside the placed code would unwind
	 * from there.
	 */
	sum->observers = s->print ? printer_observes(s->print) :
			 s->count || s->timeline;
	if (!sum->observers)
		return 0;
	err = utrace_tracer_set_records(tr, UTRACE_RECORDS_ON);
	if (err)
		return err;
	for (long nr = 0; nr < NR_MAX; nr++) {
		struct dcap r[DCAP_MAX];
		struct utrace_capture c[DCAP_MAX];
		int n;

		if (!wanted(s, nr))
			continue;
		n = rules_of(s, nr, r);
		if (n < 0) {
			sum->stops++;
			continue;
		}
		for (int i = 0; i < n; i++) {
			memset(&c[i], 0, sizeof(c[i]));
			c[i].size = sizeof(c[i]);
			c[i].arg = r[i].arg;
			c[i].when = (r[i].when & DCAP_ENTRY ?
				     UTRACE_CAPTURE_ENTRY : 0) |
				    (r[i].when & DCAP_EXIT ?
				     UTRACE_CAPTURE_EXIT : 0) |
				    (r[i].whole ? UTRACE_CAPTURE_WHOLE : 0);
			c[i].kind = r[i].kind == DCAP_FIXED ?
				    UTRACE_CAPTURE_FIXED :
				    r[i].kind == DCAP_ARGLEN ?
				    UTRACE_CAPTURE_ARGLEN :
				    r[i].kind == DCAP_RETLEN ?
				    UTRACE_CAPTURE_RETLEN :
				    UTRACE_CAPTURE_STRING;
			c[i].len_arg = r[i].len_arg;
			c[i].len = r[i].len;
		}
		err = utrace_set_capture(tr, nr, n ? c : NULL, (size_t)n);
		if (err == -ENOSPC) {
			/* More syscalls with memory than the library keeps. */
			sum->stops++;
			continue;
		}
		if (err)
			return err;
		sum->recorded++;
	}
	return 0;
}
