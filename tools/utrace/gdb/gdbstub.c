// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace --gdb: gdb's remote serial protocol served from a queue.
 *
 * The stub is a consumer of libutrace's queued-event layer (utrace(7),
 * "The queued-event layer"), the same code on two kinds of queue:
 *
 *   local  - utrace_queue_new() on utrace's own tracer.  gdbstub_attach(),
 *            called by attach_engines() right after utrace's keeper (before
 *            the printer), watches each thread of a process gdb debugs, so
 *            the queue's engine sees a signal before the printer does.
 *   joined - utrace_queue_connect(): --gdb -p PID on a process another
 *            serving tracer (utrace, utraced) traces.  One watch of the
 *            whole process (UTRACE_WATCH_PROCESS), first among the engines
 *            there (UTRACE_WATCH_FIRST); new threads come as records.
 *
 * Everything but DEATH is held: signals, clone, exec, and syscalls while
 * gdb catches some (utrace_queue_set_syscalls).  A held record is gdb's
 * event, or is replied to at once as if gdb were not there (a signal gdb
 * passes, a syscall it does not catch, a new thread).  Our own traps (an
 * int3 of ours, a debug-register hit, the record that ends a step asked
 * for with UTRACE_SINGLESTEP) are replied UTRACE_SIGNAL_REPORT: no signal
 * for anyone.  A signal gdb stops for stays held until gdb resumes: the
 * reply delivers it (UTRACE_REPLY_SIGINFO for another signal) or drops it
 * (UTRACE_SIGNAL_IGN).  The printer skips a signal's hold pass
 * (UTRACE_SIGNAL_HOLD) and logs the signal once, when it comes back with
 * the reply's disposition, so the log is the same with and without gdb.
 * A signal gdb continues with on a thread held by anything else is sent
 * with tgkill and delivered as gdb said when its record comes.
 *
 * All-stop: when one thread reports, utrace_queue_stop(pid, 0) is asked of
 * every process gdb debugs; each thread it stops comes as a record of type
 * 0, and the stop reply goes to gdb once every thread is held (by a record
 * or by the stop).  Events of other threads met meanwhile stay held and
 * are reported, as gdbserver does, at the next resume instead of resuming.
 * A resume replies to the held records (UTRACE_SINGLESTEP for a step) and
 * releases the resumed threads one by one (utrace_queue_resume_thread),
 * the others staying stopped; a process all of whose threads go leaves
 * its stop (utrace_queue_resume).  Registers, the x87/SSE/AVX state, the
 * debug registers and memory go through the utrace_queue_regs_*,
 * _regset_*, _debugreg_* and _mem_*v calls on a held thread.
 *
 * Locally everything runs on the tracer's loop thread: gdbstub_dispatch()
 * polls utrace_fd(), the queue's fd and the sockets, dispatches, and reads
 * the records with utrace_queue_next(timeout 0), so the stub never blocks
 * the loop.  Joined, it polls the queue's fd and the sockets.
 *
 * Processes: gdb may debug several (multiprocess thread ids p<pid>.<tid>):
 * the first one, fork and vfork children gdb is told about (fork-events,
 * vfork-events; locally only: -f attaches the child's engines before its
 * parent's clone report, proc_for() recognises it then and the child is
 * held from birth by a stop of its process), and processes started by
 * vRun or attached by vAttach through the host's callbacks (main.c).
 * Each has its own breakpoints and debug registers (struct gproc);
 * all-stop stops every thread of every process.  A clone or exec record
 * holds its thread from the syscall's exit only (where the stop's record
 * of type 0 comes); a vfork parent cannot stop before its child lets the
 * memory go and is served from a snapshot meanwhile (the held child's
 * registers, made from the parent's at the vfork).
 *
 * One gdb at a time: another that connects meanwhile is refused gently
 * (struct refused): its packets are answered with an E.errtext reply
 * giving the reason until it hangs up, on its own non-blocking socket in
 * the same poll, for REFUSE_SECS at most.
 *
 * Leaving (detach, a client gone, kill): breakpoints and debug registers
 * are taken out while the threads are held, each held record is replied
 * with UTRACE_DETACH (and the signal bits that settle a held signal), the
 * other threads are unwatched, and the stop is resumed: the process runs
 * on under the other engines.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <elf.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "gdb/gdbstub.h"
#include "util/sbuf.h"

#define PKT_MAX		16384	/* PacketSize: the largest packet gdb sends */
#define IN_MAX		(2 * PKT_MAX + 16)
#define XSTATE_MAX	8192
#define REFUSE_MAX	4	/* refused gdbs answered at a time */
#define REFUSE_SECS	2.0	/* each is closed then at the latest */

enum gev {
	GEV_NONE,
	GEV_INIT,	/* the first stop gdb is told about */
	GEV_SIGNAL,	/* ev_sig, ev_info */
	GEV_SWBREAK,	/* ev_addr */
	GEV_HWBREAK,
	GEV_WATCH,	/* ev_addr, ev_watch: 'w' write, 'a' access */
	GEV_STEP,
	GEV_INTR,	/* Ctrl-C */
	GEV_SYSENTRY,	/* ev_nr */
	GEV_SYSEXIT,
	GEV_FORK,	/* ev_child */
	GEV_VFORK,	/* ev_child */
	GEV_VFORKDONE,
	GEV_EXEC,
};

struct regset;

/*
 * A gdb refused while another is served: each packet it sends is answered
 * with an E.errtext reply, so gdb shows the reason, until it hangs up or
 * REFUSE_SECS pass.  Never blocks: its socket is polled with the others.
 */
struct refused {
	int fd;
	const char *why;
	double deadline;	/* now_mono() */
	size_t inlen;
	char in[512];
	struct refused *next;
};

struct gthr {
	struct gdbstub *s;
	struct gproc *p;	/* its process */
	pid_t tid;
	uint64_t hid;		/* its held record, not replied to yet (0: none) */
	unsigned long htype;	/* the record's type */
	uint32_t hact;		/* a signal record's disposition bits */
	bool step_rec;		/* the record is the trap of a step */
	bool own;		/* the record is our trap (breakpoint, step) */
	bool allstop;		/* the whole-process stop holds it (type 0 came) */
	bool want_stop;		/* gdb wants it held */
	bool stopped;		/* held for gdb (set_stopped) */
	bool step;		/* single-step when resumed */
	bool dead;
	bool in_syscall;	/* between a caught entry and its exit */
	enum gev ev;		/* pending, not yet told to gdb */
	int ev_sig;		/* Linux signal number */
	bool ev_has_info;
	siginfo_t ev_info;
	uint64_t ev_addr;
	char ev_watch;
	long ev_nr;
	pid_t ev_child;
	bool vfork_wait;	/* in vfork, until the child lets the memory go */
	struct regset *snap;	/* its registers meanwhile */
	bool si_valid;		/* si: the signal of this stop */
	siginfo_t si;
	int inj_sig;		/* sent by tgkill for gdb: delivered as inj */
	siginfo_t inj;
	int drop_sig;		/* leaving: 1 drop the held signal, 2 deliver it */
	unsigned dr_gen;	/* debug registers written for this generation */
	struct gthr *next;
};

struct swbp {
	uint64_t addr;
	uint8_t orig;
	struct swbp *next;
};

/* One debug register: a Z1..Z4 request, or an aligned piece of one. */
struct hwslot {
	bool used;
	char type;		/* '1' exec, '2' write, '4' access */
	uint64_t addr;		/* the piece */
	int len;
	uint64_t req_addr;	/* what gdb asked for (the watch: address) */
	int req_len;
};

/*
 * A process gdb debugs: the first one, fork children gdb was told about,
 * processes started by vRun or attached by vAttach.  Breakpoints and
 * debug registers are per process, as in gdbserver.
 */
struct gproc {
	struct gdbstub *s;
	pid_t pid;
	bool active;		/* gdb controls it (not detached or killed) */
	bool killed;		/* gdb killed it: its end is not reported */
	bool attached;		/* qAttached: 1 for -p and vAttach */
	bool wait_exec;		/* spawned: stop at its execve */
	bool gone;		/* every thread is reaped */
	pid_t vfork_peer;	/* shares its memory with this one (vfork) */
	int exit_status;
	struct swbp *bps;
	struct hwslot dr[4];
	unsigned dr_gen;
	struct gproc *next;
};

struct gdbstub {
	struct utrace_tracer *t;		/* local: utrace's own tracer */
	struct utrace_queue *q;			/* what the stub works through */
	bool joined;				/* q is joined (another tracer's) */
	const struct gdbstub_host *host;	/* vRun, vAttach */
	void *host_arg;
	int lfd, cfd;
	char *upath;		/* Unix socket to unlink */
	struct gproc *procs;
	bool active;		/* engines hold threads for gdb */
	bool closing;		/* gdb left while running: stop, then let go */
	bool waiting;		/* threads run: a stop reply is due */
	bool asked;		/* gdb resumed and reads a stop reply */
	bool stopping;		/* all-stop in progress */
	bool noack;
	bool extended;		/* '!': gdb stays after the process ends */
	bool fork_events;	/* gdb and the stub both said fork-events+ */
	bool vfork_events;
	bool exec_events;
	bool multiprocess;
	struct gthr *threads;	/* of every process */
	struct gthr *evthr;	/* whose event the all-stop reports */
	struct gproc *evproc;	/* or whose end */
	pid_t gtid;		/* Hg */
	pid_t last_tid;		/* the thread of the last stop reply */
	pid_t last_pid;
	char **run_argv;	/* vRun with no program: the last one again */
	bool no_aslr;		/* QDisableRandomization: vRun without ASLR */
	bool pass[65];		/* QPassSignals, by Linux number */
	bool catch_on, catch_any;
	long *catch_nrs;
	size_t catch_n;
	char stopreply[256 + 2 * 4096];
	char in[IN_MAX];
	size_t inlen;
	char *out;		/* the last packet, for a '-' */
	size_t outlen;
	int vfd[16];		/* vFile descriptors + 1 (0: free) */
	bool kick;		/* a queue call waits for a dispatch */
	struct refused *refused;	/* gdbs being turned away */
};

static struct gthr *gthr_add(struct gdbstub *s, struct gproc *p, pid_t tid);

/* -- Signal numbers: gdb's enum gdb_signal against Linux x86_64 ---------- */

static const unsigned char to_gdb_tab[32] = {
	[SIGHUP] = 1, [SIGINT] = 2, [SIGQUIT] = 3, [SIGILL] = 4,
	[SIGTRAP] = 5, [SIGABRT] = 6, [SIGBUS] = 10, [SIGFPE] = 8,
	[SIGKILL] = 9, [SIGUSR1] = 30, [SIGSEGV] = 11, [SIGUSR2] = 31,
	[SIGPIPE] = 13, [SIGALRM] = 14, [SIGTERM] = 15, [SIGCHLD] = 20,
	[SIGCONT] = 19, [SIGSTOP] = 17, [SIGTSTP] = 18, [SIGTTIN] = 21,
	[SIGTTOU] = 22, [SIGURG] = 16, [SIGXCPU] = 24, [SIGXFSZ] = 25,
	[SIGVTALRM] = 26, [SIGPROF] = 27, [SIGWINCH] = 28, [SIGIO] = 23,
	[SIGPWR] = 32, [SIGSYS] = 12,
};

static int sig_to_gdb(int sig)
{
	if (sig == 0)
		return 0;
	if (sig > 0 && sig < 32)
		return to_gdb_tab[sig] ? to_gdb_tab[sig] : 143;
	if (sig == 32)
		return 76;
	if (sig >= 33 && sig <= 63)
		return 45 + sig - 33;
	if (sig == 64)
		return 77;
	return 143;
}

static int sig_from_gdb(int g)
{
	int s;

	for (s = 1; s <= 64; s++)
		if (sig_to_gdb(s) == g)
			return s;
	return 0;
}

/* -- Threads ----------------------------------------------------------------- */

static struct gthr *gthr_find(struct gdbstub *s, pid_t tid)
{
	struct gthr *g;

	for (g = s->threads; g; g = g->next)
		if (g->tid == tid)
			return g;
	return NULL;
}

/* A thread gdb sees: alive, of a process gdb controls. */
static bool usable(const struct gthr *g)
{
	return !g->dead && g->p->active;
}

static struct gthr *gthr_live(struct gdbstub *s, pid_t tid)
{
	struct gthr *g = gthr_find(s, tid);

	return g && usable(g) ? g : NULL;
}

static struct gproc *gproc_find(struct gdbstub *s, pid_t pid)
{
	struct gproc *p;

	for (p = s->procs; p; p = p->next)
		if (p->pid == pid)
			return p;
	return NULL;
}

static struct gproc *gproc_new(struct gdbstub *s, pid_t pid)
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

static void bps_free(struct gproc *p)
{
	struct swbp *b;

	while ((b = p->bps)) {
		p->bps = b->next;
		free(b);
	}
}

static void gproc_free(struct gdbstub *s, struct gproc *p)
{
	struct gproc **pp;

	for (pp = &s->procs; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	if (s->evproc == p)
		s->evproc = NULL;
	bps_free(p);
	free(p);
}

static bool gproc_has_threads(struct gdbstub *s, struct gproc *p)
{
	struct gthr *g;

	for (g = s->threads; g; g = g->next)
		if (g->p == p)
			return true;
	return false;
}

/* Does gdb debug any process that is still there? */
static bool any_live(const struct gdbstub *s)
{
	const struct gproc *p;

	for (p = s->procs; p; p = p->next)
		if (p->active && !p->gone)
			return true;
	return false;
}

/* The thread registers and memory go through (Hg, else one held). */
static struct gthr *gthr_access(struct gdbstub *s)
{
	struct gthr *g = gthr_live(s, s->gtid);

	if (g && g->stopped)
		return g;
	for (g = s->threads; g; g = g->next)
		if (usable(g) && g->stopped && g->p->pid == s->last_pid)
			return g;
	for (g = s->threads; g; g = g->next)
		if (usable(g) && g->stopped)
			return g;
	return NULL;
}

/*
 * The thread memory goes through: the thread itself, but for a vfork
 * parent (not stopped, its memory shared) the held child.
 */
static pid_t mem_tid(struct gthr *g)
{
	struct gthr *c;

	if (!g->vfork_wait)
		return g->tid;
	for (c = g->s->threads; c; c = c->next)
		if (c->p->pid == g->p->vfork_peer && usable(c) && c->stopped)
			return c->tid;
	return g->tid;
}

static ssize_t mem_rw(struct gthr *g, uint64_t addr, void *buf, size_t len,
		      bool write)
{
	struct utrace_iov iov = { addr, buf, len };

	return write ? utrace_queue_mem_writev(g->s->q, mem_tid(g), &iov, 1) :
		       utrace_queue_mem_readv(g->s->q, mem_tid(g), &iov, 1);
}

/* -- Debug registers ------------------------------------------------------ */

static unsigned long dr7_of(const struct gproc *p)
{
	unsigned long dr7 = 0;
	int i;

	for (i = 0; i < 4; i++) {
		const struct hwslot *d = &p->dr[i];
		unsigned rw, ln;

		if (!d->used)
			continue;
		rw = d->type == '1' ? 0 : d->type == '2' ? 1 : 3;
		ln = d->type == '1' ? 0 : d->len == 1 ? 0 : d->len == 2 ? 1 :
		     d->len == 8 ? 2 : 3;
		dr7 |= 1UL << (2 * i);
		dr7 |= (unsigned long)(rw | ln << 2) << (16 + 4 * i);
	}
	return dr7;
}

/* Write the debug registers of a held thread. */
static void dr_apply(struct gthr *g)
{
	struct gdbstub *s = g->s;
	struct gproc *p = g->p;
	int i;

	if (g->dr_gen == p->dr_gen || g->dead || g->vfork_wait)
		return;
	if (utrace_queue_debugreg_set(s->q, g->tid, 7, 0) < 0)
		return;		/* not held: at its next stop */
	for (i = 0; i < 4; i++)
		if (p->dr[i].used)
			utrace_queue_debugreg_set(s->q, g->tid, i,
						  p->dr[i].addr);
	utrace_queue_debugreg_set(s->q, g->tid, 7, dr7_of(p));
	g->dr_gen = p->dr_gen;
}

/* -- Output --------------------------------------------------------------- */

static void send_raw(struct gdbstub *s, const char *p, size_t n)
{
	while (s->cfd >= 0 && n) {
		ssize_t w = send(s->cfd, p, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;		/* EOF is seen by the next read */
		p += w;
		n -= (size_t)w;
	}
}

static void send_packet_len(struct gdbstub *s, const char *data, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char cs = 0;
	char *p;
	size_t i;

	p = malloc(n + 4);
	if (!p)
		return;
	p[0] = '$';
	for (i = 0; i < n; i++)
		cs += (unsigned char)data[i];
	memcpy(p + 1, data, n);
	p[n + 1] = '#';
	p[n + 2] = hex[cs >> 4];
	p[n + 3] = hex[cs & 15];
	send_raw(s, p, n + 4);
	free(s->out);
	s->out = p;
	s->outlen = n + 4;
}

static void send_packet(struct gdbstub *s, const char *data)
{
	send_packet_len(s, data, strlen(data));
}

static void send_error(struct gdbstub *s, int err)
{
	char buf[8];

	snprintf(buf, sizeof(buf), "E%02x", err & 0xff);
	send_packet(s, buf);
}

/* Binary data in a reply: escape what framing uses. */
static size_t put_bin(char *dst, const unsigned char *src, size_t n)
{
	size_t i, j = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = src[i];

		if (c == '$' || c == '#' || c == '}' || c == '*') {
			dst[j++] = '}';
			dst[j++] = (char)(c ^ 0x20);
		} else {
			dst[j++] = (char)c;
		}
	}
	return j;
}

static void put_hex(char *dst, const unsigned char *src, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		dst[2 * i] = hex[src[i] >> 4];
		dst[2 * i + 1] = hex[src[i] & 15];
	}
	dst[2 * n] = 0;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Hex digits to bytes; returns the byte count or -1. */
static ssize_t get_hex(unsigned char *dst, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int hi = hexval(src[2 * i]), lo;

		if (hi < 0)
			return i ? (ssize_t)i : -1;
		lo = hexval(src[2 * i + 1]);
		if (lo < 0)
			return -1;
		dst[i] = (unsigned char)(hi << 4 | lo);
	}
	return (ssize_t)n;
}

static bool parse_ulong(const char **p, unsigned long *v)
{
	char *end;

	if (hexval(**p) < 0)
		return false;
	*v = strtoul(*p, &end, 16);
	*p = end;
	return true;
}

/* One part of a thread id: hex, "-1" (all, as -1) or "0" (any). */
static bool parse_id(const char **p, pid_t *v)
{
	unsigned long x;

	if (**p == '-' && (*p)[1] == '1') {
		*p += 2;
		*v = -1;
		return true;
	}
	if (!parse_ulong(p, &x))
		return false;
	*v = (pid_t)x;
	return true;
}

/*
 * A thread id: "p<pid>.<tid>", "p<pid>" (every thread of the process) or
 * "<tid>" (any process).  Returns false when malformed.
 */
static bool parse_ptid(const char **p, pid_t *pid, pid_t *tid)
{
	*pid = 0;
	*tid = 0;
	if (**p != 'p')
		return parse_id(p, tid);
	(*p)++;
	if (!parse_id(p, pid))
		return false;
	if (**p != '.') {
		*tid = -1;
		return true;
	}
	(*p)++;
	return parse_id(p, tid);
}

static bool ptid_match(const struct gthr *g, pid_t pid, pid_t tid)
{
	return (pid <= 0 || g->p->pid == pid) && (tid <= 0 || g->tid == tid);
}

/* -- Stop replies ------------------------------------------------------------ */

static void format_stop(struct gdbstub *s, struct gthr *g, char *buf,
			size_t size)
{
	int sig = 5;
	char extra[64 + 2 * 4096] = "";

	switch (g->ev) {
	case GEV_SIGNAL:
		sig = sig_to_gdb(g->ev_sig);
		break;
	case GEV_INTR:
		sig = 2;
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
		put_hex(extra + 5, (const unsigned char *)exe, (size_t)r);
		strcat(extra, ";");
		break;
	}
	default:
		break;
	}
	snprintf(buf, size, "T%02x%sthread:p%x.%x;", sig, extra,
		 (unsigned)g->p->pid, (unsigned)g->tid);
}

static struct regset *snap_take(struct gthr *g);

/* Tell gdb about g's event (all threads are held). */
static void report(struct gdbstub *s, struct gthr *g)
{
	struct gthr *h;

	/* vfork parents: registers as they were, before the child runs. */
	for (h = s->threads; h; h = h->next)
		if (h->vfork_wait && !h->snap)
			h->snap = snap_take(h);
	format_stop(s, g, s->stopreply, sizeof(s->stopreply));
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
		send_packet(s, s->stopreply);
	s->asked = false;
}

/* Tell gdb that p has ended; p is freed. */
static void report_exit(struct gdbstub *s, struct gproc *p)
{
	char buf[64];
	int st = p->exit_status;

	if (WIFSIGNALED(st))
		snprintf(buf, sizeof(buf), "X%02x;process:%x",
			 sig_to_gdb(WTERMSIG(st)), (unsigned)p->pid);
	else
		snprintf(buf, sizeof(buf), "W%02x;process:%x",
			 WIFEXITED(st) ? WEXITSTATUS(st) : 0, (unsigned)p->pid);
	snprintf(s->stopreply, sizeof(s->stopreply), "%s", buf);
	s->waiting = false;
	s->stopping = false;
	s->evthr = NULL;
	gproc_free(s, p);
	if (s->cfd >= 0 && s->asked)
		send_packet(s, buf);
	s->asked = false;
}

/* A process that ended and gdb has not been told yet. */
static struct gproc *ended(struct gdbstub *s)
{
	struct gproc *p;

	for (p = s->procs; p; p = p->next)
		if (p->active && p->gone)
			return p;
	return NULL;
}

/* -- Holding and replying ----------------------------------------------------- */

/*
 * Held for gdb: by a record not replied to yet, or by the whole-process
 * stop (its record of type 0 came).  A clone or exec record holds the
 * thread only from the syscall's exit (where the stop's record comes),
 * except a vfork parent, served from a snapshot meanwhile.
 */
static void set_stopped(struct gthr *g)
{
	g->stopped = g->allstop || g->vfork_wait ||
		     (g->hid && !(g->htype & (UTRACE_EVENT(CLONE) |
					      UTRACE_EVENT(EXEC))));
}

/* Reply to g's held record (if any) with @action; @info: a signal to deliver. */
static int reply(struct gthr *g, uint32_t action, const siginfo_t *info)
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
	set_stopped(g);
	g->s->kick = true;
	return err;
}

/* The resume action gdb asked for the thread. */
static uint32_t go(const struct gthr *g)
{
	return g->step ? UTRACE_SINGLESTEP : UTRACE_RESUME;
}

/* Let the held record go on as if gdb were not there. */
static void pass_on(struct gthr *g)
{
	uint32_t sa = 0;

	if (g->step_rec || g->own)
		sa = UTRACE_SIGNAL_REPORT;
	else if (g->htype & UTRACE_EVENT_SIGNAL_ALL)
		sa = g->hact;
	reply(g, sa | go(g), NULL);
}

/* Ask every thread to stop; the reply waits until all are held. */
static void stop_all(struct gdbstub *s)
{
	struct gproc *p;
	struct gthr *g;

	for (g = s->threads; g; g = g->next)
		if (usable(g))
			g->want_stop = true;
	for (p = s->procs; p; p = p->next)
		if (p->active && !p->gone && gproc_has_threads(s, p))
			utrace_queue_stop(s->q, p->pid, 0);
	s->kick = true;
}

/* An event on g: hold it, and start the all-stop if none is under way. */
static void event(struct gthr *g, enum gev ev)
{
	struct gdbstub *s = g->s;

	g->ev = ev;
	g->step = false;
	g->want_stop = true;
	if (s->waiting && !s->stopping) {
		s->stopping = true;
		s->evthr = g;
		stop_all(s);
	}
}

/* -- Records ------------------------------------------------------------------ */

static struct swbp *bp_find(struct gproc *p, uint64_t addr)
{
	struct swbp *b;

	for (b = p->bps; b; b = b->next)
		if (b->addr == addr)
			return b;
	return NULL;
}

/* One of our traps?  Sets the event and returns true. */
static bool own_trap(struct gthr *g, const siginfo_t *info)
{
	struct gdbstub *s = g->s;
	struct gproc *p = g->p;
	struct user_regs_struct regs;
	uint64_t dr6;
	int i;

	if (info->si_code == SI_KERNEL) {
		if (utrace_queue_regs_get(s->q, g->tid, &regs) < 0 ||
		    !bp_find(p, regs.rip - 1))
			return false;
		regs.rip--;
		utrace_queue_regs_set(s->q, g->tid, &regs);
		g->ev_addr = regs.rip;
		event(g, GEV_SWBREAK);
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
				event(g, GEV_HWBREAK);
			} else {
				g->ev_addr = p->dr[i].req_addr;
				g->ev_watch = p->dr[i].type == '2' ? 'w' : 'a';
				event(g, GEV_WATCH);
			}
			return true;
		}
		if ((dr6 & 0x4000) && g->step) {	/* BS: a single step */
			event(g, GEV_STEP);
			return true;
		}
		return false;
	}
	if ((info->si_code == TRAP_TRACE || info->si_code == TRAP_BRKPT ||
	     g->step_rec) && g->step) {
		event(g, GEV_STEP);
		return true;
	}
	return false;
}

/* The vfork parent runs again: its own registers and memory are back. */
static void vfork_end(struct gthr *g)
{
	struct gproc *c;

	g->vfork_wait = false;
	free(g->snap);
	g->snap = NULL;
	c = gproc_find(g->s, g->p->vfork_peer);
	if (c && c->vfork_peer == g->p->pid)
		c->vfork_peer = 0;
	g->p->vfork_peer = 0;
	set_stopped(g);
}

/* Its record of type 0: the whole-process stop holds it. */
static void on_stopped(struct gthr *g)
{
	g->allstop = true;
	if (g->p->active && g->vfork_wait && !g->hid) {
		/*
		 * At the exit of vfork: the child let the memory go.  gdb
		 * hears of it once it resumes the parent, as from gdbserver
		 * (whose parent waits in its vfork stop until then).
		 */
		vfork_end(g);
		if (g->want_stop)
			g->ev = GEV_VFORKDONE;
		else
			event(g, GEV_VFORKDONE);
	}
}

static void on_signal(struct gthr *g, const struct utrace_event *ev)
{
	struct gdbstub *s = g->s;
	int sig = ev->info.si_signo;

	if (g->inj_sig && sig == g->inj_sig && !g->step_rec) {
		/* The signal gdb continued with (sent by tgkill): as gdb said. */
		siginfo_t inj = g->inj;

		g->inj_sig = 0;
		reply(g, UTRACE_SIGNAL_DELIVER | go(g), &inj);
		return;
	}
	g->si = ev->info;
	g->si_valid = true;
	if (sig == SIGTRAP && own_trap(g, &ev->info)) {
		g->own = true;
		return;
	}
	if (g->step_rec || (sig > 0 && sig <= 64 && s->pass[sig])) {
		pass_on(g);
		return;
	}
	/* gdb decides: held, delivered or dropped at the resume. */
	g->ev_sig = sig;
	g->ev_info = ev->info;
	g->ev_has_info = true;
	event(g, GEV_SIGNAL);
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
		pass_on(g);
		return;
	}
	g->in_syscall = entry;
	g->ev_nr = ev->syscall.nr;
	event(g, entry ? GEV_SYSENTRY : GEV_SYSEXIT);
}

/* Our int3 bytes are in a forked child's copy of the memory: take them out. */
static void unplant_child(struct gproc *p, pid_t child)
{
	struct swbp *b;
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", child);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	for (b = p->bps; b; b = b->next)
		if (pwrite(fd, &b->orig, 1, (off_t)b->addr) != 1)
			break;
	close(fd);
}

static void drop_thread(struct gthr *g);

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
	bps_free(c);
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
			drop_thread(c);	/* frees cp with its last thread */
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

		if (!c && s->joined)
			c = gthr_add(s, g->p, child);
		pass_on(g);
		return;
	}
	if ((flags & CLONE_VFORK) && s->vfork_events &&
	    (vc = fork_child(g, child))) {
		/*
		 * The parent cannot stop before the child lets the memory
		 * go: it counts as held, with the registers it had at the
		 * clone report (snapshot); its memory is the child's.
		 */
		vc->vfork_peer = g->p->pid;
		g->p->vfork_peer = child;
		g->vfork_wait = true;
		g->ev_child = child;
		event(g, GEV_VFORK);
		return;
	}
	if ((flags & CLONE_VM) || !s->fork_events) {
		/* Not told to gdb (vfork, or an older gdb). */
		forget_child(s, child);
		if (!(flags & CLONE_VM))
			unplant_child(g->p, child);
		pass_on(g);
		return;
	}
	if (fork_child(g, child)) {
		g->ev_child = child;
		event(g, GEV_FORK);
		return;
	}
	unplant_child(g->p, child);
	pass_on(g);
}

static void gthr_unlink(struct gdbstub *s, struct gthr *g)
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

static void on_exec(struct gdbstub *s, struct gthr *g,
		    const struct utrace_event *ev)
{
	struct gproc *p = g->p;

	if (!p->active) {
		pass_on(g);
		return;
	}
	/* A new image: our breakpoints went with the old. */
	bps_free(p);
	if (p->wait_exec) {
		p->wait_exec = false;
		event(g, GEV_INIT);
	} else if (s->exec_events) {
		/* As the kernel: no debug registers after an exec. */
		memset(p->dr, 0, sizeof(p->dr));
		p->dr_gen++;
		event(g, GEV_EXEC);
	} else {
		pass_on(g);
	}
}

/* Is a thread of a process gdb controls still running? */
static bool any_running(struct gdbstub *s)
{
	struct gthr *g;

	for (g = s->threads; g; g = g->next)
		if (usable(g) && !g->stopped)
			return true;
	return false;
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
	if (!s->waiting || s->stopping)
		return;
	if (any_running(s)) {
		s->stopping = true;
		s->evproc = p;
		stop_all(s);
		return;
	}
	if (s->cfd >= 0)
		report_exit(s, p);
}

static void on_death(struct gdbstub *s, struct gthr *g,
		     const struct utrace_event *ev)
{
	struct gproc *p = g->p;

	if (g->tid == p->pid || ev->group_dead)
		p->exit_status = ev->status;
	gthr_unlink(s, g);
	free(g->snap);
	free(g);
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
			free(old->snap);
			free(old);
		}
		if (g)
			g->tid = ev->tid;
	}
	g = gthr_find(s, ev->tid);
	if (!g)
		g = adopt(s, ev);
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
		pass_on(g);
		set_stopped(g);
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
		pass_on(g);
	/* on_clone may have dropped g with its process: look again. */
	for (old = s->threads; old; old = old->next)
		if (old == g)
			set_stopped(g);
}

/* Every record that waits; the loop's records are read without waiting. */
static int read_records(struct gdbstub *s)
{
	struct utrace_event ev = { .size = sizeof(ev) };
	int r, n = 0;

	while ((r = utrace_queue_next(s->q, &ev, 0)) == 1) {
		on_record(s, &ev);
		n++;
	}
	return r < 0 ? r : n;
}

/* -- Watching ----------------------------------------------------------------- */

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
static int watch(struct gdbstub *s, pid_t tid)
{
	unsigned long ev = watch_events(s);
	unsigned flags = 0;
	int err;

	if (s->joined)
		flags = UTRACE_WATCH_PROCESS | UTRACE_WATCH_FIRST;
	err = utrace_queue_watch(s->q, tid, flags, ev,
				 ev & ~UTRACE_EVENT(DEATH));
	if (err)
		return err;
	if (s->catch_on && !s->catch_any)
		return utrace_queue_set_syscalls(s->q, tid, s->catch_nrs,
						 s->catch_n);
	return utrace_queue_set_syscalls(s->q, tid, NULL, 0);
}

static struct gthr *gthr_add(struct gdbstub *s, struct gproc *p, pid_t tid)
{
	struct gthr *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->s = s;
	g->p = p;
	g->tid = tid;
	g->next = s->threads;
	s->threads = g;
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
	err = watch(s, tid);
	if (err) {
		gthr_unlink(s, g);
		free(g);
		/* A fork child's record, made for this thread only. */
		if (p != s->procs && !gproc_has_threads(s, p))
			gproc_free(s, p);
		return err;
	}
	/* A fork child gdb may be told about: held from birth. */
	if (fresh)
		utrace_queue_stop(s->q, tgid, 0);
	return 0;
}

/* -- Leaving -------------------------------------------------------------- */

static void close_client(struct gdbstub *s)
{
	int i;

	for (i = 0; i < 16; i++)
		if (s->vfd[i])
			close(s->vfd[i] - 1);
	memset(s->vfd, 0, sizeof(s->vfd));
	if (s->cfd >= 0)
		close(s->cfd);
	s->cfd = -1;
	s->inlen = 0;
}

/*
 * Let a thread of a process gdb no longer debugs go: the queue's engine
 * leaves it (at once, or with the reply to its held record, which says
 * what becomes of a held signal).
 */
static void drop_thread(struct gthr *g)
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
		reply(g, UTRACE_DETACH | sa, info);
	} else if (!g->dead) {
		utrace_queue_unwatch(s->q, g->tid, 0);
	}
	gthr_unlink(s, g);
	free(g->snap);
	free(g);
	if (!gproc_has_threads(s, p))
		gproc_free(s, p);
}

static void dr_apply(struct gthr *g);

/*
 * gdb detached from p (or went away) with every thread held: take
 * breakpoints and watchpoints out, pass the signals gdb would pass, and
 * let the process run on under the other engines.  The queue leaves
 * every thread of p (a held one with its reply).
 */
static void let_go_proc(struct gdbstub *s, struct gproc *p)
{
	struct gproc *peer = p->vfork_peer ? gproc_find(s, p->vfork_peer) :
			     NULL;
	struct gthr *g, *next;
	struct swbp *b;
	pid_t pid = p->pid;

	for (g = s->threads; g; g = g->next)
		if (g->p == p && usable(g) && g->stopped && !g->vfork_wait)
			break;
	/* Memory shared with a vfork peer gdb still debugs stays as it is. */
	for (b = p->bps; b; b = b->next)
		if (g && !(peer && peer->active)) {
			struct utrace_iov iov = { b->addr, &b->orig, 1 };

			utrace_queue_mem_writev(s->q, g->tid, &iov, 1);
		}
	if (peer && peer->vfork_peer == p->pid)
		peer->vfork_peer = 0;
	p->vfork_peer = 0;
	bps_free(p);
	memset(p->dr, 0, sizeof(p->dr));
	p->dr_gen++;
	for (g = s->threads; g; g = g->next) {
		if (g->p != p || g->dead)
			continue;
		if (g->stopped)
			dr_apply(g);
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
		drop_thread(g);	/* may free p */
	}
	utrace_queue_resume(s->q, pid);
	s->kick = true;
}

/* gdb detached from everything or went away: the stub is done. */
static void let_go(struct gdbstub *s)
{
	struct gproc *p, *next;

	for (p = s->procs; p; p = next) {
		next = p->next;
		if (p->active)
			let_go_proc(s, p);
	}
	s->active = false;
	s->waiting = s->stopping = s->closing = false;
	close_client(s);
	if (s->lfd >= 0)
		close(s->lfd);
	s->lfd = -1;
	if (s->upath)
		unlink(s->upath);
}

/* The connection ended (EOF, error or D). */
static void client_gone(struct gdbstub *s)
{
	close_client(s);
	if (!s->active)
		return;
	if (!any_live(s)) {
		s->active = false;
		return;
	}
	if (s->waiting) {
		/* Running: hold everything first, then let go. */
		s->closing = true;
		s->waiting = false;
		stop_all(s);
		return;
	}
	let_go(s);
}

/* -- Registers -------------------------------------------------------------- */

#define NREGS 76

struct regset {
	struct user_regs_struct gp;
	unsigned char xs[XSTATE_MAX];
	size_t xlen;
	bool have_xs;
};

static int reg_size(int n)
{
	if (n < 17)
		return 8;
	if (n < 24)
		return 4;
	if (n < 32)
		return 10;
	if (n < 40)
		return 4;
	if (n < 56)
		return 16;
	if (n == 56)
		return 4;
	if (n < 60)
		return 8;
	return 16;
}

static unsigned long long *gp_slot(struct user_regs_struct *r, int n)
{
	static const size_t off[] = {
		offsetof(struct user_regs_struct, rax),
		offsetof(struct user_regs_struct, rbx),
		offsetof(struct user_regs_struct, rcx),
		offsetof(struct user_regs_struct, rdx),
		offsetof(struct user_regs_struct, rsi),
		offsetof(struct user_regs_struct, rdi),
		offsetof(struct user_regs_struct, rbp),
		offsetof(struct user_regs_struct, rsp),
		offsetof(struct user_regs_struct, r8),
		offsetof(struct user_regs_struct, r9),
		offsetof(struct user_regs_struct, r10),
		offsetof(struct user_regs_struct, r11),
		offsetof(struct user_regs_struct, r12),
		offsetof(struct user_regs_struct, r13),
		offsetof(struct user_regs_struct, r14),
		offsetof(struct user_regs_struct, r15),
		offsetof(struct user_regs_struct, rip),
		offsetof(struct user_regs_struct, eflags),
		offsetof(struct user_regs_struct, cs),
		offsetof(struct user_regs_struct, ss),
		offsetof(struct user_regs_struct, ds),
		offsetof(struct user_regs_struct, es),
		offsetof(struct user_regs_struct, fs),
		offsetof(struct user_regs_struct, gs),
	};

	if (n < 24)
		return (unsigned long long *)((char *)r + off[n]);
	if (n == 57)
		return &r->orig_rax;
	if (n == 58)
		return &r->fs_base;
	return &r->gs_base;
}

static int regs_load(struct gthr *g, struct regset *rs)
{
	struct utrace_queue *q = g->s->q;
	ssize_t n;
	int err;

	if (g->vfork_wait) {
		if (!g->snap)
			g->snap = snap_take(g);
		if (!g->snap)
			return -EBUSY;
		*rs = *g->snap;
		return 0;
	}
	err = utrace_queue_regs_get(q, g->tid, &rs->gp);
	if (err)
		return err;
	memset(rs->xs, 0, sizeof(rs->xs));
	rs->have_xs = true;
	n = utrace_queue_regset_get(q, g->tid, NT_X86_XSTATE, rs->xs,
				    sizeof(rs->xs));
	if (n > 0) {
		rs->xlen = (size_t)n;
	} else {
		rs->xlen = 0;
		if (utrace_queue_regset_get(q, g->tid, NT_PRFPREG, rs->xs,
					    512) < 0)
			rs->have_xs = false;
	}
	return 0;
}

static int regs_store(struct gthr *g, struct regset *rs, bool gp, bool xs)
{
	struct utrace_queue *q = g->s->q;
	ssize_t n;
	int err = 0;

	if (g->vfork_wait)
		return -EBUSY;	/* not stopped before vfork returns */
	if (gp)
		err = utrace_queue_regs_set(q, g->tid, &rs->gp);
	if (!err && xs && rs->have_xs) {
		if (rs->xlen) {
			uint64_t bv;

			/* x87, SSE and AVX now hold what gdb wrote. */
			memcpy(&bv, rs->xs + 512, 8);
			bv |= 7;
			memcpy(rs->xs + 512, &bv, 8);
			n = utrace_queue_regset_set(q, g->tid, NT_X86_XSTATE,
						    rs->xs, rs->xlen);
		} else {
			n = utrace_queue_regset_set(q, g->tid, NT_PRFPREG,
						    rs->xs, 512);
		}
		if (n < 0)
			err = (int)n;
	}
	return err;
}

/*
 * A vfork parent's registers while it waits for its child (it runs, in
 * the kernel): the held child's, made at the vfork from the parent's,
 * with the parent's rax of a syscall stop.  Taken once the child is held
 * (before gdb hears of the vfork), kept until the parent runs again.
 */
static struct regset *snap_take(struct gthr *g)
{
	struct regset *rs;
	struct gthr *c;

	for (c = g->s->threads; c; c = c->next)
		if (c->p->pid == g->p->vfork_peer && c->tid == c->p->pid &&
		    usable(c) && c->stopped && !c->vfork_wait)
			break;
	if (!c)
		return NULL;
	rs = malloc(sizeof(*rs));
	if (rs && regs_load(c, rs) < 0) {
		free(rs);
		rs = NULL;
	}
	if (rs)
		rs->gp.rax = (unsigned long long)-ENOSYS;
	return rs;
}

/* The x87 tag word gdb shows, from FXSAVE's abridged one. */
static unsigned full_ftag(const unsigned char *fx)
{
	unsigned fsw = fx[2] | fx[3] << 8, top = (fsw >> 11) & 7;
	unsigned ftw = fx[4], tag = 0, p;

	for (p = 0; p < 8; p++) {
		const unsigned char *st = fx + 32 + 16 * ((p - top) & 7);
		unsigned exp = (st[9] & 0x7f) << 8 | st[8], t;
		bool zero = true, intbit = st[7] & 0x80;
		int i;

		for (i = 0; i < 8; i++)
			if (st[i])
				zero = false;
		if (!(ftw & (1U << p)))
			t = 3;
		else if (exp == 0x7fff)
			t = 2;
		else if (exp == 0)
			t = zero ? 1 : 2;
		else
			t = intbit ? 0 : 2;
		tag |= t << (2 * p);
	}
	return tag;
}

static void reg_get(struct regset *rs, int n, unsigned char *out)
{
	const unsigned char *fx = rs->xs;
	uint32_t v = 0;

	memset(out, 0, 16);
	if (n < 24 || (n >= 57 && n <= 59)) {
		unsigned long long x = *gp_slot(&rs->gp, n);

		memcpy(out, &x, (size_t)reg_size(n));
		return;
	}
	if (n < 32) {
		memcpy(out, fx + 32 + 16 * (n - 24), 10);
		return;
	}
	switch (n) {
	case 32: v = fx[0] | fx[1] << 8; break;
	case 33: v = fx[2] | fx[3] << 8; break;
	case 34: v = full_ftag(fx); break;
	case 35: v = fx[12] | fx[13] << 8; break;
	case 36: memcpy(&v, fx + 8, 4); break;
	case 37: v = fx[20] | fx[21] << 8; break;
	case 38: memcpy(&v, fx + 16, 4); break;
	case 39: v = (fx[6] | fx[7] << 8) & 0x7ff; break;
	case 56: memcpy(&v, fx + 24, 4); break;
	default:
		if (n < 56)
			memcpy(out, fx + 160 + 16 * (n - 40), 16);
		else if (rs->xlen >= 576 + 256)
			memcpy(out, fx + 576 + 16 * (n - 60), 16);
		return;
	}
	memcpy(out, &v, 4);
}

/* Returns 1 if a general register changed, 2 if the xstate did. */
static int reg_put(struct regset *rs, int n, const unsigned char *in)
{
	unsigned char *fx = rs->xs;
	uint32_t v;
	int p;

	if (n < 24 || (n >= 57 && n <= 59)) {
		unsigned long long x = 0;

		memcpy(&x, in, (size_t)reg_size(n));
		*gp_slot(&rs->gp, n) = x;
		return 1;
	}
	if (n < 32) {
		memcpy(fx + 32 + 16 * (n - 24), in, 10);
		return 2;
	}
	memcpy(&v, in, 4);
	switch (n) {
	case 32: fx[0] = v & 0xff; fx[1] = v >> 8 & 0xff; break;
	case 33: fx[2] = v & 0xff; fx[3] = v >> 8 & 0xff; break;
	case 34:
		fx[4] = 0;
		for (p = 0; p < 8; p++)
			if (((v >> (2 * p)) & 3) != 3)
				fx[4] |= (unsigned char)(1U << p);
		break;
	case 35: fx[12] = v & 0xff; fx[13] = v >> 8 & 0xff; break;
	case 36: memcpy(fx + 8, &v, 4); break;
	case 37: fx[20] = v & 0xff; fx[21] = v >> 8 & 0xff; break;
	case 38: memcpy(fx + 16, &v, 4); break;
	case 39: fx[6] = v & 0xff; fx[7] = (fx[7] & 0xf8) | (v >> 8 & 7); break;
	case 56: memcpy(fx + 24, &v, 4); break;
	default:
		if (n < 56)
			memcpy(fx + 160 + 16 * (n - 40), in, 16);
		else if (rs->xlen >= 576 + 256)
			memcpy(fx + 576 + 16 * (n - 60), in, 16);
		else
			return 0;
	}
	return 2;
}

/* -- Packets ---------------------------------------------------------------- */

static const char *const gp_names[24] = {
	"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	"rip", "eflags", "cs", "ss", "ds", "es", "fs", "gs",
};

static const char *const x87_names[8] = {
	"fctrl", "fstat", "ftag", "fiseg", "fioff", "foseg", "fooff", "fop",
};

static void sb_flags(struct sbuf *b, const char *id,
		     const char *const *names, const int *bits, int n)
{
	int i;

	sb_printf(b, "<flags id=\"%s\" size=\"4\">", id);
	for (i = 0; i < n; i++)
		sb_printf(b, "<field name=\"%s\" start=\"%d\" end=\"%d\" "
			  "type=\"bool\"/>", names[i], bits[i], bits[i]);
	sb_puts(b, "</flags>");
}

/* The target description: gdb's amd64 core, SSE, Linux, segments, AVX. */
static void target_xml(struct sbuf *b)
{
	static const char *const ef[] = { "CF", "", "PF", "AF", "ZF", "SF",
		"TF", "IF", "DF", "OF", "NT", "RF", "VM", "AC", "VIF", "VIP",
		"ID" };
	static const int efb[] = { 0, 1, 2, 4, 6, 7, 8, 9, 10, 11, 14, 16, 17,
		18, 19, 20, 21 };
	static const char *const mx[] = { "IE", "DE", "ZE", "OE", "UE", "PE",
		"DAZ", "IM", "DM", "ZM", "OM", "UM", "PM", "FZ" };
	static const int mxb[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
		15 };
	int i;

	sb_puts(b, "<?xml version=\"1.0\"?><!DOCTYPE target SYSTEM "
		"\"gdb-target.dtd\"><target><architecture>i386:x86-64"
		"</architecture><osabi>GNU/Linux</osabi>"
		"<feature name=\"org.gnu.gdb.i386.core\">");
	sb_flags(b, "i386_eflags", ef, efb, 17);
	for (i = 0; i < 24; i++)
		sb_printf(b, "<reg name=\"%s\" bitsize=\"%d\" type=\"%s\" "
			  "regnum=\"%d\"/>", gp_names[i], reg_size(i) * 8,
			  i == 6 || i == 7 ? "data_ptr" : i == 16 ? "code_ptr" :
			  i == 17 ? "i386_eflags" : i > 17 ? "int32" : "int64",
			  i);
	for (i = 0; i < 8; i++)
		sb_printf(b, "<reg name=\"st%d\" bitsize=\"80\" type=\"i387_ext\""
			  " regnum=\"%d\"/>", i, 24 + i);
	for (i = 0; i < 8; i++)
		sb_printf(b, "<reg name=\"%s\" bitsize=\"32\" type=\"int\" "
			  "regnum=\"%d\" group=\"float\"/>", x87_names[i],
			  32 + i);
	sb_puts(b, "</feature><feature name=\"org.gnu.gdb.i386.sse\">"
		"<vector id=\"v8bf16\" type=\"bfloat16\" count=\"8\"/>"
		"<vector id=\"v8h\" type=\"ieee_half\" count=\"8\"/>"
		"<vector id=\"v4f\" type=\"ieee_single\" count=\"4\"/>"
		"<vector id=\"v2d\" type=\"ieee_double\" count=\"2\"/>"
		"<vector id=\"v16i8\" type=\"int8\" count=\"16\"/>"
		"<vector id=\"v8i16\" type=\"int16\" count=\"8\"/>"
		"<vector id=\"v4i32\" type=\"int32\" count=\"4\"/>"
		"<vector id=\"v2i64\" type=\"int64\" count=\"2\"/>"
		"<union id=\"vec128\">"
		"<field name=\"v8_bfloat16\" type=\"v8bf16\"/>"
		"<field name=\"v8_half\" type=\"v8h\"/>"
		"<field name=\"v4_float\" type=\"v4f\"/>"
		"<field name=\"v2_double\" type=\"v2d\"/>"
		"<field name=\"v16_int8\" type=\"v16i8\"/>"
		"<field name=\"v8_int16\" type=\"v8i16\"/>"
		"<field name=\"v4_int32\" type=\"v4i32\"/>"
		"<field name=\"v2_int64\" type=\"v2i64\"/>"
		"<field name=\"uint128\" type=\"uint128\"/></union>");
	sb_flags(b, "i386_mxcsr", mx, mxb, 14);
	for (i = 0; i < 16; i++)
		sb_printf(b, "<reg name=\"xmm%d\" bitsize=\"128\" type=\"vec128\""
			  " regnum=\"%d\"/>", i, 40 + i);
	sb_puts(b, "<reg name=\"mxcsr\" bitsize=\"32\" type=\"i386_mxcsr\" "
		"regnum=\"56\" group=\"vector\"/></feature>"
		"<feature name=\"org.gnu.gdb.i386.linux\">"
		"<reg name=\"orig_rax\" bitsize=\"64\" type=\"int\" "
		"regnum=\"57\"/></feature>"
		"<feature name=\"org.gnu.gdb.i386.segments\">"
		"<reg name=\"fs_base\" bitsize=\"64\" type=\"int\" regnum=\"58\"/>"
		"<reg name=\"gs_base\" bitsize=\"64\" type=\"int\" regnum=\"59\"/>"
		"</feature><feature name=\"org.gnu.gdb.i386.avx\">");
	for (i = 0; i < 16; i++)
		sb_printf(b, "<reg name=\"ymm%dh\" bitsize=\"128\" "
			  "type=\"uint128\" regnum=\"%d\"/>", i, 60 + i);
	sb_puts(b, "</feature></target>");
}

static void thread_xml(struct gdbstub *s, struct sbuf *b)
{
	struct gthr *g;

	sb_puts(b, "<?xml version=\"1.0\"?>\n<threads>\n");
	for (g = s->threads; g; g = g->next) {
		char path[64], name[64] = "";
		FILE *f;

		if (!usable(g))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm",
			 g->p->pid, g->tid);
		f = fopen(path, "re");
		if (f) {
			if (fgets(name, sizeof(name), f))
				name[strcspn(name, "\n")] = 0;
			fclose(f);
		}
		sb_printf(b, "<thread id=\"p%x.%x\"", (unsigned)g->p->pid,
			  (unsigned)g->tid);
		if (name[0] && !strpbrk(name, "<>&\""))
			sb_printf(b, " name=\"%s\"", name);
		sb_puts(b, "/>\n");
	}
	sb_puts(b, "</threads>\n");
}

static bool read_file(const char *path, struct sbuf *b)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sb_putn(b, buf, (size_t)n);
	close(fd);
	return true;
}

/* qXfer:OBJECT:read:ANNEX:OFF,LEN */
static void do_qxfer(struct gdbstub *s, const char *p)
{
	struct sbuf b = { 0 };
	const char *obj = p + 6, *annex, *q;
	unsigned long off, len;
	char path[64], *reply;
	size_t n;
	bool ok = true;

	annex = strstr(obj, ":read:");
	if (!annex) {
		send_packet(s, "");
		return;
	}
	q = strchr(annex + 6, ':');
	if (!q) {
		send_error(s, 1);
		return;
	}
	q++;
	if (!parse_ulong(&q, &off) || *q++ != ',' || !parse_ulong(&q, &len)) {
		send_error(s, 1);
		return;
	}
	if (!strncmp(obj, "features:", 9)) {
		if (strncmp(annex + 6, "target.xml:", 11)) {
			send_error(s, 0);
			return;
		}
		target_xml(&b);
	} else if (!strncmp(obj, "auxv:", 5)) {
		struct gthr *g = gthr_access(s);

		ok = g != NULL;
		if (ok) {
			snprintf(path, sizeof(path), "/proc/%d/auxv", g->p->pid);
			ok = read_file(path, &b);
		}
	} else if (!strncmp(obj, "siginfo:", 8)) {
		struct gthr *g = gthr_access(s);
		siginfo_t si;

		/* The signal of the stop (breakpoint traps included). */
		ok = g && g->si_valid;
		if (ok)
			si = g->si;
		if (ok)
			sb_putn(&b, (const char *)&si, sizeof(si));
	} else if (!strncmp(obj, "threads:", 8)) {
		thread_xml(s, &b);
	} else if (!strncmp(obj, "exec-file:", 10)) {
		char exe[4096];
		ssize_t r;

		const char *a = annex + 6;
		unsigned long pid = 0;
		struct gthr *g = gthr_access(s);

		/* The annex names the process; empty: the current one. */
		if (!parse_ulong(&a, &pid) && g)
			pid = (unsigned long)g->p->pid;
		snprintf(path, sizeof(path), "/proc/%lu/exe", pid);
		r = readlink(path, exe, sizeof(exe) - 1);
		ok = r > 0;
		if (ok)
			sb_putn(&b, exe, (size_t)r);
	} else {
		send_packet(s, "");
		return;
	}
	if (!ok) {
		sb_free(&b);
		send_error(s, 1);
		return;
	}
	if (len > PKT_MAX / 2 - 8)
		len = PKT_MAX / 2 - 8;
	n = off < b.len ? b.len - off : 0;
	if (n > len)
		n = len;
	reply = malloc(2 * n + 2);
	if (reply) {
		reply[0] = off + n < b.len ? 'm' : 'l';
		send_packet_len(s, reply, 1 + put_bin(reply + 1,
			(const unsigned char *)b.p + (off < b.len ? off : 0), n));
		free(reply);
	}
	sb_free(&b);
}

static void do_read_regs(struct gdbstub *s)
{
	struct gthr *g = gthr_access(s);
	struct regset *rs;
	unsigned char v[16];
	char *out, *p;
	int n;

	if (!g) {
		send_error(s, 1);
		return;
	}
	rs = malloc(sizeof(*rs));
	out = malloc(2 * 16 * NREGS + 1);
	if (!rs || !out || regs_load(g, rs) < 0) {
		free(rs);
		free(out);
		send_error(s, 1);
		return;
	}
	p = out;
	for (n = 0; n < NREGS; n++) {
		reg_get(rs, n, v);
		put_hex(p, v, (size_t)reg_size(n));
		p += 2 * reg_size(n);
	}
	send_packet(s, out);
	free(out);
	free(rs);
}

static void do_write_regs(struct gdbstub *s, const char *hex)
{
	struct gthr *g = gthr_access(s);
	struct regset *rs;
	unsigned char v[16];
	int n, what = 0;

	if (!g) {
		send_error(s, 1);
		return;
	}
	rs = malloc(sizeof(*rs));
	if (!rs || regs_load(g, rs) < 0) {
		free(rs);
		send_error(s, 1);
		return;
	}
	for (n = 0; n < NREGS && *hex; n++) {
		int sz = reg_size(n);

		if (get_hex(v, hex, (size_t)sz) != sz)
			break;
		hex += 2 * sz;
		what |= reg_put(rs, n, v);
	}
	n = regs_store(g, rs, what & 1, what & 2);
	free(rs);
	send_packet(s, n ? "E01" : "OK");
}

static void do_reg(struct gdbstub *s, const char *p, bool write)
{
	struct gthr *g = gthr_access(s);
	struct regset *rs;
	unsigned char v[16];
	char out[40];
	unsigned long n;
	int what;

	if (!parse_ulong(&p, &n) || (write && *p++ != '=')) {
		send_error(s, 1);
		return;
	}
	if (n >= NREGS) {
		send_error(s, 0);
		return;
	}
	if (!g) {
		send_error(s, 1);
		return;
	}
	rs = malloc(sizeof(*rs));
	if (!rs || regs_load(g, rs) < 0) {
		free(rs);
		send_error(s, 1);
		return;
	}
	if (!write) {
		reg_get(rs, (int)n, v);
		put_hex(out, v, (size_t)reg_size((int)n));
		send_packet(s, out);
	} else if (get_hex(v, p, (size_t)reg_size((int)n)) !=
		   reg_size((int)n)) {
		send_error(s, 1);
	} else {
		what = reg_put(rs, (int)n, v);
		send_packet(s, regs_store(g, rs, what & 1, what & 2) ?
			    "E01" : "OK");
	}
	free(rs);
}

/* Memory as the program has it: our int3 bytes show the original. */
static void do_read_mem(struct gdbstub *s, const char *p)
{
	struct gthr *g = gthr_access(s);
	unsigned long addr, len;
	unsigned char *buf;
	struct swbp *b;
	char *out;
	ssize_t n;

	if (!parse_ulong(&p, &addr) || *p++ != ',' || !parse_ulong(&p, &len)) {
		send_error(s, 1);
		return;
	}
	if (!g) {
		send_error(s, 1);
		return;
	}
	if (len > PKT_MAX / 2 - 8)
		len = PKT_MAX / 2 - 8;
	buf = malloc(len + 1);
	out = malloc(2 * len + 1);
	if (!buf || !out) {
		free(buf);
		free(out);
		send_error(s, 12);
		return;
	}
	n = len ? mem_rw(g, addr, buf, len, false) : 0;
	if (n < 0 || (n == 0 && len)) {
		send_error(s, 14);
	} else {
		for (b = g->p->bps; b; b = b->next)
			if (b->addr >= addr && b->addr < addr + (unsigned long)n)
				buf[b->addr - addr] = b->orig;
		put_hex(out, buf, (size_t)n);
		send_packet(s, out);
	}
	free(buf);
	free(out);
}

/* Writes keep our int3 bytes in place and update what they hide. */
static int write_mem(struct gdbstub *s, struct gthr *g, uint64_t addr,
		     unsigned char *buf, size_t len)
{
	struct swbp *b;
	ssize_t n;

	for (b = g->p->bps; b; b = b->next)
		if (b->addr >= addr && b->addr < addr + len) {
			b->orig = buf[b->addr - addr];
			buf[b->addr - addr] = 0xcc;
		}
	n = len ? mem_rw(g, addr, buf, len, true) : 0;
	return n == (ssize_t)len ? 0 : -EFAULT;
}

static void do_write_mem(struct gdbstub *s, const char *p, const char *end,
			 bool binary)
{
	struct gthr *g = gthr_access(s);
	unsigned long addr, len, i;
	unsigned char *buf;

	if (!parse_ulong(&p, &addr) || *p++ != ',' || !parse_ulong(&p, &len) ||
	    *p++ != ':' || len > PKT_MAX) {
		send_error(s, 1);
		return;
	}
	if (!g) {
		send_error(s, 1);
		return;
	}
	buf = malloc(len + 1);
	if (!buf) {
		send_error(s, 12);
		return;
	}
	if (binary) {
		/* Escapes were undone when the packet was read. */
		if ((unsigned long)(end - p) < len) {
			free(buf);
			send_error(s, 1);
			return;
		}
		for (i = 0; i < len; i++)
			buf[i] = (unsigned char)p[i];
	} else if (get_hex(buf, p, len) != (ssize_t)len) {
		free(buf);
		send_error(s, 1);
		return;
	}
	send_packet(s, write_mem(s, g, addr, buf, len) ? "E0e" : "OK");
	free(buf);
}

/* The aligned pieces (1, 2, 4 or 8 bytes) of a watched range. */
static int hw_pieces(uint64_t addr, unsigned long len, uint64_t *pa, int *pl,
		     int max)
{
	int n = 0;

	while (len) {
		int sz = 8;

		while (sz > 1 && ((addr & (uint64_t)(sz - 1)) || (unsigned long)sz > len))
			sz /= 2;
		if (n == max)
			return -1;
		pa[n] = addr;
		pl[n++] = sz;
		addr += (uint64_t)sz;
		len -= (unsigned long)sz;
	}
	return n;
}

static void do_point(struct gdbstub *s, const char *p, bool insert)
{
	struct gthr *g = gthr_access(s);
	struct gproc *pr;
	unsigned long type, addr, kind;
	uint64_t pa[4];
	int pl[4], n, i, j, free_slots = 0;

	if (!parse_ulong(&p, &type) || *p++ != ',' || !parse_ulong(&p, &addr) ||
	    *p++ != ',' || !parse_ulong(&p, &kind)) {
		send_error(s, 1);
		return;
	}
	if (type > 4 || type == 3) {
		send_packet(s, "");	/* read watchpoints: x86 has none */
		return;
	}
	if (!g) {
		send_error(s, 1);
		return;
	}
	pr = g->p;
	if (type == 0) {
		struct swbp *b = bp_find(pr, addr), **pp;
		unsigned char cc = 0xcc;

		if (insert) {
			if (b) {
				send_packet(s, "OK");
				return;
			}
			b = calloc(1, sizeof(*b));
			if (!b ||
			    mem_rw(g, addr, &b->orig, 1, false) != 1 ||
			    mem_rw(g, addr, &cc, 1, true) != 1) {
				free(b);
				send_error(s, 14);
				return;
			}
			b->addr = addr;
			b->next = pr->bps;
			pr->bps = b;
		} else if (b) {
			mem_rw(g, addr, &b->orig, 1, true);
			for (pp = &pr->bps; *pp != b; pp = &(*pp)->next)
				;
			*pp = b->next;
			free(b);
		}
		send_packet(s, "OK");
		return;
	}
	if (type == 1)
		kind = 1;
	n = hw_pieces(addr, kind, pa, pl, 4);
	if (insert) {
		for (i = 0; i < 4; i++)
			free_slots += !pr->dr[i].used;
		if (n < 0 || n > free_slots) {
			send_error(s, 28);
			return;
		}
		for (i = 0, j = 0; i < 4 && j < n; i++) {
			if (pr->dr[i].used)
				continue;
			pr->dr[i] = (struct hwslot){ true, (char)('0' + type),
				pa[j], type == 1 ? 1 : pl[j], addr, (int)kind };
			j++;
		}
	} else {
		for (i = 0; i < 4; i++)
			if (pr->dr[i].used && pr->dr[i].req_addr == addr &&
			    pr->dr[i].req_len == (int)kind &&
			    pr->dr[i].type == (char)('0' + type))
				pr->dr[i].used = false;
	}
	pr->dr_gen++;
	send_packet(s, "OK");
}

/* -- Resuming ----------------------------------------------------------------- */

struct action {
	char a;		/* 0: none, 'c', 's' */
	int sig;	/* Linux */
};

/* A pending event that still stands (a removed breakpoint's does not). */
static bool pending(struct gdbstub *s, struct gthr *g)
{
	if (!usable(g) || g->ev == GEV_NONE || g->ev == GEV_INIT)
		return false;
	if (g->ev == GEV_SWBREAK && !bp_find(g->p, g->ev_addr)) {
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
 * delivered as gdb said when it comes.  The release is resume()'s.
 */
static void resume_thread(struct gthr *g, struct action *a)
{
	siginfo_t si;

	if (!usable(g))
		return;
	dr_apply(g);
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
			reply(g, UTRACE_SIGNAL_DELIVER | go(g), &si);
		else
			reply(g, UTRACE_SIGNAL_IGN | go(g), NULL);
	} else {
		if (a->sig) {
			g->inj_sig = a->sig;
			g->inj = si;
			syscall(SYS_tgkill, g->p->pid, g->tid, a->sig);
		}
		reply(g, (g->hid && (g->htype & UTRACE_EVENT_SIGNAL_ALL) ?
			  UTRACE_SIGNAL_REPORT : 0) | go(g), NULL);
	}
	g->ev_has_info = false;
	g->si_valid = false;
	g->want_stop = false;
	g->ev = GEV_NONE;
	set_stopped(g);
}

/* Apply per-thread actions (index parallel to the thread list). */
static void resume(struct gdbstub *s, struct action *acts, size_t n)
{
	struct gthr *g;
	struct gproc *p = ended(s);
	size_t i;

	s->asked = true;
	if (p) {
		/* A process ended while held: gdb hears of it first. */
		report_exit(s, p);
		return;
	}
	if (!any_live(s)) {
		send_packet(s, s->stopreply[0] ? s->stopreply : "W00");
		s->asked = false;
		return;
	}
	s->waiting = true;
	for (g = s->threads, i = 0; g && i < n; g = g->next, i++)
		if (acts[i].a && usable(g) && g->vfork_wait && g->allstop) {
			/* At vfork's exit already: the child let go. */
			vfork_end(g);
			reply(g, UTRACE_RESUME, NULL);
			g->ev = GEV_VFORKDONE;
			g->want_stop = true;
		}
	for (g = s->threads, i = 0; g && i < n; g = g->next, i++)
		if (acts[i].a && pending(s, g)) {
			/* As gdbserver: report it instead of resuming. */
			s->stopping = true;
			s->evthr = g;
			return;
		}
	for (g = s->threads, i = 0; g && i < n; g = g->next, i++)
		if (acts[i].a)
			resume_thread(g, &acts[i]);
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
			if (g->p != p || !usable(g))
				continue;
			if (!acts[i].a || g->vfork_wait) {
				all = false;
				continue;
			}
			if (g->allstop)
				utrace_queue_resume_thread(s->q, g->tid,
							   go(g));
			g->allstop = false;
			set_stopped(g);
		}
		if (all)
			utrace_queue_resume(s->q, p->pid);
	}
	s->kick = true;
}

static size_t nthreads(struct gdbstub *s)
{
	struct gthr *g;
	size_t n = 0;

	for (g = s->threads; g; g = g->next)
		n++;
	return n;
}

static void do_vcont(struct gdbstub *s, const char *p)
{
	size_t n = nthreads(s), i;
	struct action *acts = calloc(n + 1, sizeof(*acts));
	struct gthr *g;

	if (!acts) {
		send_error(s, 12);
		return;
	}
	while (*p == ';') {
		struct action a = { 0, 0 };
		unsigned long sig = 0;
		pid_t pid = -1, tid = -1;

		p++;
		a.a = *p == 'C' ? 'c' : *p == 'S' ? 's' : *p;
		if (a.a != 'c' && a.a != 's') {
			free(acts);
			send_error(s, 1);
			return;
		}
		if (*p == 'C' || *p == 'S') {
			p++;
			if (!parse_ulong(&p, &sig)) {
				free(acts);
				send_error(s, 1);
				return;
			}
			a.sig = sig_from_gdb((int)sig);
		} else {
			p++;
		}
		if (*p == ':') {
			p++;
			if (!parse_ptid(&p, &pid, &tid)) {
				free(acts);
				send_error(s, 1);
				return;
			}
		}
		for (g = s->threads, i = 0; g; g = g->next, i++)
			if (!acts[i].a && ptid_match(g, pid, tid))
				acts[i] = a;
	}
	resume(s, acts, n);
	free(acts);
}

static void do_old_resume(struct gdbstub *s, const char *p)
{
	size_t n = nthreads(s), i;
	struct action *acts = calloc(n + 1, sizeof(*acts));
	unsigned long sig = 0, addr;
	char c = *p++;
	struct gthr *g;

	if (!acts) {
		send_error(s, 12);
		return;
	}
	if (c == 'C' || c == 'S') {
		parse_ulong(&p, &sig);
		if (*p == ';')
			p++;
	}
	if (parse_ulong(&p, &addr)) {
		g = gthr_access(s);
		if (g) {
			struct user_regs_struct r;

			if (utrace_queue_regs_get(s->q, g->tid, &r) == 0) {
				r.rip = addr;
				utrace_queue_regs_set(s->q, g->tid, &r);
			}
		}
	}
	for (g = s->threads, i = 0; g; g = g->next, i++) {
		acts[i].a = 'c';
		if (g->tid == s->gtid || (!s->gtid && g->tid == s->last_tid)) {
			acts[i].a = c == 's' || c == 'S' ? 's' : 'c';
			acts[i].sig = sig_from_gdb((int)sig);
		}
	}
	resume(s, acts, n);
	free(acts);
}

static void do_pass_signals(struct gdbstub *s, const char *p)
{
	unsigned long v;

	memset(s->pass, 0, sizeof(s->pass));
	while (parse_ulong(&p, &v)) {
		int sig = sig_from_gdb((int)v);

		if (sig)
			s->pass[sig] = true;
		if (*p != ';')
			break;
		p++;
	}
	send_packet(s, "OK");
}

static void do_catch_syscalls(struct gdbstub *s, const char *p)
{
	unsigned long v;
	struct gthr *g;
	long *nrs = NULL;
	size_t n = 0;

	if (*p == '0') {
		s->catch_on = false;
	} else if (*p == '1') {
		p++;
		while (*p == ';') {
			long *q;

			p++;
			if (!parse_ulong(&p, &v) || v >= 1024) {
				free(nrs);
				send_error(s, 1);
				return;
			}
			q = realloc(nrs, (n + 1) * sizeof(*q));
			if (!q) {
				free(nrs);
				send_error(s, 12);
				return;
			}
			nrs = q;
			nrs[n++] = (long)v;
		}
		s->catch_on = true;
		s->catch_any = n == 0;
	} else {
		send_error(s, 1);
		return;
	}
	free(s->catch_nrs);
	s->catch_nrs = nrs;
	s->catch_n = n;
	if (s->joined) {
		struct gproc *pr;

		for (pr = s->procs; pr; pr = pr->next)
			if (pr->active && !pr->gone)
				watch(s, pr->pid);
	} else {
		for (g = s->threads; g; g = g->next)
			if (usable(g))
				watch(s, g->tid);
	}
	send_packet(s, "OK");
}

static void do_thread_list(struct gdbstub *s)
{
	struct sbuf b = { 0 };
	struct gthr *g;
	char sep = 'm';

	for (g = s->threads; g; g = g->next) {
		if (!usable(g))
			continue;
		sb_printf(&b, "%cp%x.%x", sep, (unsigned)g->p->pid,
			  (unsigned)g->tid);
		sep = ',';
	}
	send_packet(s, b.len ? b.p : "l");
	sb_free(&b);
}

/*
 * k (every process) or vKill;PID.  Nothing is held any more: SIGKILL ends
 * every stop; the process is forgotten, its end is not reported.
 */
static void do_kill(struct gdbstub *s, pid_t pid, bool reply)
{
	struct gproc *p, *next;
	bool found = false;

	for (p = s->procs; p; p = p->next) {
		if (!p->active || (pid > 0 && p->pid != pid))
			continue;
		found = true;
		if (!p->gone)
			kill(p->pid, SIGKILL);
		p->active = false;
		p->killed = true;
	}
	for (p = s->procs; p; p = next) {
		next = p->next;
		if (p->killed && p->gone)
			gproc_free(s, p);
	}
	if (reply)
		send_packet(s, found ? "OK" : "E01");
}

/*
 * vFile: gdb reads the program and /proc files through the target.  The
 * stub runs on the same machine, so these are its own files; at most 16
 * are open at a time and all close with the connection.
 */
static void vfile_reply(struct gdbstub *s, long r, int err)
{
	char buf[32];

	if (r < 0)
		snprintf(buf, sizeof(buf), "F-1,%x", err);
	else
		snprintf(buf, sizeof(buf), "F%lx", r);
	send_packet(s, buf);
}

static void do_vfile(struct gdbstub *s, const char *p)
{
	unsigned long a, b, c;
	int i;

	if (!strncmp(p, "setfs:", 6)) {
		vfile_reply(s, 0, 0);
	} else if (!strncmp(p, "open:", 5)) {
		char name[4096];
		const char *q = p + 5;
		const char *comma = strchr(q, ',');
		ssize_t n;
		int fd;

		if (!comma || (size_t)(comma - q) / 2 >= sizeof(name)) {
			vfile_reply(s, -1, EINVAL);
			return;
		}
		n = get_hex((unsigned char *)name, q, (size_t)(comma - q) / 2);
		if (n < 0) {
			vfile_reply(s, -1, EINVAL);
			return;
		}
		name[n] = 0;
		q = comma + 1;
		if (!parse_ulong(&q, &a) || (a & 3) != 0) {
			/* Read only: gdb's O_RDONLY is 0. */
			vfile_reply(s, -1, EACCES);
			return;
		}
		for (i = 0; i < 16 && s->vfd[i] > 0; i++)
			;
		if (i == 16) {
			vfile_reply(s, -1, EMFILE);
			return;
		}
		fd = open(name, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			vfile_reply(s, -1, errno == ENOENT ? 2 : errno == EACCES
				    ? 13 : 9999);
			return;
		}
		s->vfd[i] = fd + 1;
		vfile_reply(s, i, 0);
	} else if (!strncmp(p, "pread:", 6)) {
		const char *q = p + 6;
		char *buf, *out;
		ssize_t n;
		int len;

		if (!parse_ulong(&q, &a) || *q++ != ',' ||
		    !parse_ulong(&q, &b) || *q++ != ',' ||
		    !parse_ulong(&q, &c) || a >= 16 || !s->vfd[a]) {
			vfile_reply(s, -1, 9);
			return;
		}
		if (b > PKT_MAX / 2 - 32)
			b = PKT_MAX / 2 - 32;
		buf = malloc(b + 1);
		out = malloc(2 * b + 32);
		if (!buf || !out) {
			free(buf);
			free(out);
			vfile_reply(s, -1, 12);
			return;
		}
		n = pread(s->vfd[a] - 1, buf, b, (off_t)c);
		if (n < 0) {
			vfile_reply(s, -1, 5);
		} else {
			len = snprintf(out, 32, "F%lx;", (unsigned long)n);
			send_packet_len(s, out, (size_t)len +
					put_bin(out + len,
						(unsigned char *)buf,
						(size_t)n));
		}
		free(buf);
		free(out);
	} else if (!strncmp(p, "close:", 6)) {
		const char *q = p + 6;

		if (!parse_ulong(&q, &a) || a >= 16 || !s->vfd[a]) {
			vfile_reply(s, -1, 9);
			return;
		}
		close(s->vfd[a] - 1);
		s->vfd[a] = 0;
		vfile_reply(s, 0, 0);
	} else {
		send_packet(s, "");
	}
}

static int start_proc(struct gdbstub *s, struct gproc *p);

/* What gdb offers decides which events it is told about. */
static void do_supported(struct gdbstub *s, const char *p)
{
	struct sbuf b = { 0 };

	/* Joined, children are the other tracer's: no fork events. */
	s->fork_events = !s->joined && (strstr(p, ":fork-events+") ||
					strstr(p, ";fork-events+"));
	s->vfork_events = !s->joined && strstr(p, "vfork-events+") != NULL;
	s->exec_events = strstr(p, "exec-events+") != NULL;
	s->multiprocess = strstr(p, "multiprocess+") != NULL;
	sb_puts(&b, "PacketSize=4000;QPassSignals+;QCatchSyscalls+;"
		"QStartNoAckMode+;qXfer:features:read+;qXfer:auxv:read+;"
		"qXfer:threads:read+;qXfer:exec-file:read+;"
		"qXfer:siginfo:read+;multiprocess+;swbreak+;hwbreak+;"
		"vContSupported+;QDisableRandomization+");
	if (s->fork_events)
		sb_puts(&b, ";fork-events+");
	if (s->vfork_events)
		sb_puts(&b, ";vfork-events+");
	if (s->exec_events)
		sb_puts(&b, ";exec-events+");
	send_packet(s, b.p);
	sb_free(&b);
}

/* D (everything) or D;PID (one process; gdb keeps the others). */
static void do_detach(struct gdbstub *s, const char *q)
{
	struct gproc *p;
	unsigned long pid;
	bool others = false;

	if (*q != ';') {
		send_packet(s, "OK");
		for (p = s->procs; p; p = p->next)
			if (p->active)
				fprintf(stderr, "utrace: gdb detached from "
					"process %d\n", p->pid);
		let_go(s);
		return;
	}
	q++;
	if (!parse_ulong(&q, &pid) || !(p = gproc_find(s, (pid_t)pid)) ||
	    !p->active) {
		send_error(s, 1);
		return;
	}
	send_packet(s, "OK");
	fprintf(stderr, "utrace: gdb detached from process %d\n", p->pid);
	let_go_proc(s, p);
	for (p = s->procs; p; p = p->next)
		if (p->active && !p->gone)
			others = true;
	/* The last one, with target remote: the stub is done. */
	if (!others && !s->extended)
		let_go(s);
}

/* A hex-encoded vRun argument, up to ';' or the end; NULL if malformed. */
static char *unhex_arg(const char **p)
{
	const char *e = strchr(*p, ';');
	size_t n = e ? (size_t)(e - *p) : strlen(*p);
	char *a = malloc(n / 2 + 1);

	if (!a || n % 2 || get_hex((unsigned char *)a, *p, n / 2) !=
	    (ssize_t)(n / 2)) {
		free(a);
		return NULL;
	}
	a[n / 2] = 0;
	*p += n;
	return a;
}

static void argv_free(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/*
 * vRun;PROG;ARG...: start a new process (an empty PROG: the last one,
 * with its arguments when none are given), stopped at its exec; the
 * stop reply answers.
 */
static void do_run(struct gdbstub *s, const char *p)
{
	char **argv = NULL, **v;
	size_t n = 0, i;
	pid_t pid;

	while (*p || n == 0) {
		char *a = unhex_arg(&p);

		v = a ? realloc(argv, (n + 2) * sizeof(*argv)) : NULL;
		if (!v) {
			free(a);
			argv_free(argv);
			send_error(s, 1);
			return;
		}
		argv = v;
		argv[n++] = a;
		argv[n] = NULL;
		if (*p == ';')
			p++;
		else
			break;
	}
	if (!argv[0][0]) {
		if (!s->run_argv) {
			argv_free(argv);
			send_error(s, 1);
			return;
		}
		free(argv[0]);
		argv[0] = strdup(s->run_argv[0]);
		if (n == 1) {
			/* The last arguments too. */
			for (i = 1; s->run_argv[i]; i++) {
				v = realloc(argv, (n + 2) * sizeof(*argv));
				if (!v)
					break;
				argv = v;
				argv[n++] = strdup(s->run_argv[i]);
				argv[n] = NULL;
			}
		}
	}
	for (i = 0; i < n; i++)
		if (!argv[i]) {
			argv_free(argv);
			send_error(s, 12);
			return;
		}
	if (!s->host || !s->host->run) {
		argv_free(argv);
		send_error(s, 1);
		return;
	}
	if (s->no_aslr) {
		/* Inherited by the child utrace forks, for its exec. */
		int old = personality(0xffffffff);

		personality((unsigned long)old | ADDR_NO_RANDOMIZE);
		pid = s->host->run(s->host_arg, argv);
		personality((unsigned long)old);
	} else {
		pid = s->host->run(s->host_arg, argv);
	}
	if (pid < 0) {
		argv_free(argv);
		send_error(s, (int)-pid);
		return;
	}
	argv_free(s->run_argv);
	s->run_argv = argv;
	fprintf(stderr, "utrace: gdb started process %d\n", pid);
	/* The reply is the stop at its exec. */
	s->asked = true;
}

/* vAttach;PID: debug a running process too, as -p does. */
static void do_attach(struct gdbstub *s, const char *q)
{
	unsigned long pid;
	struct gproc *p;
	int err;

	if (!parse_ulong(&q, &pid) || !pid || gproc_find(s, (pid_t)pid)) {
		send_error(s, 1);
		return;
	}
	if (!s->host || !s->host->attach) {
		send_error(s, 1);
		return;
	}
	if (gdbstub_set_process(s, (pid_t)pid, false) < 0) {
		send_error(s, 12);
		return;
	}
	p = gproc_find(s, (pid_t)pid);
	err = s->host->attach(s->host_arg, (pid_t)pid);
	if (err >= 0)
		err = start_proc(s, p);
	if (err < 0) {
		for (struct gthr *g = s->threads; g; ) {
			struct gthr *next = g->next;

			if (g->p == p)
				drop_thread(g);
			g = next;
		}
		if (gproc_find(s, (pid_t)pid) == p)
			gproc_free(s, p);
		s->waiting = false;
		send_error(s, 1);
		return;
	}
	fprintf(stderr, "utrace: gdb attached to process %lu\n", pid);
	s->asked = true;
}

static void handle_packet(struct gdbstub *s, char *p, size_t len)
{
	char *end = p + len;
	const char *q;
	char buf[64];

	p[len] = 0;
	switch (p[0]) {
	case '?':
		send_packet(s, s->stopreply[0] ? s->stopreply : "W00");
		return;
	case '!':
		s->extended = true;
		send_packet(s, "OK");
		return;
	case 'g':
		do_read_regs(s);
		return;
	case 'G':
		do_write_regs(s, p + 1);
		return;
	case 'p':
		do_reg(s, p + 1, false);
		return;
	case 'P':
		do_reg(s, p + 1, true);
		return;
	case 'm':
		do_read_mem(s, p + 1);
		return;
	case 'M':
		do_write_mem(s, p + 1, end, false);
		return;
	case 'X':
		do_write_mem(s, p + 1, end, true);
		return;
	case 'Z':
	case 'z':
		do_point(s, p + 1, p[0] == 'Z');
		return;
	case 'c':
	case 's':
	case 'C':
	case 'S':
		do_old_resume(s, p);
		return;
	case 'H':
		q = p + 2;
		if (p[1] == 'g') {
			pid_t pid, tid;

			if (!parse_ptid(&q, &pid, &tid)) {
				send_error(s, 1);
				return;
			}
			if (tid > 0 && !gthr_live(s, tid)) {
				send_error(s, 1);
				return;
			}
			if (tid <= 0 && pid > 0) {
				/* Any thread of that process. */
				struct gthr *g;

				for (g = s->threads; g; g = g->next)
					if (usable(g) && g->p->pid == pid)
						break;
				if (!g) {
					send_error(s, 1);
					return;
				}
				tid = g->tid;
			}
			s->gtid = tid > 0 ? tid : s->last_tid;
		}
		send_packet(s, "OK");
		return;
	case 'T': {
		pid_t pid, tid;
		struct gthr *g;

		q = p + 1;
		g = parse_ptid(&q, &pid, &tid) ? gthr_live(s, tid) : NULL;
		send_packet(s, g && ptid_match(g, pid, tid) ? "OK" : "E01");
		return;
	}
	case 'D':
		do_detach(s, p + 1);
		return;
	case 'k':
		do_kill(s, -1, false);
		return;
	default:
		break;
	}
	if (!strncmp(p, "qSupported", 10)) {
		do_supported(s, p + 10);
	} else if (!strcmp(p, "QStartNoAckMode")) {
		send_packet(s, "OK");
		s->noack = true;
	} else if (!strncmp(p, "qXfer:", 6)) {
		do_qxfer(s, p);
	} else if (!strncmp(p, "qAttached", 9)) {
		unsigned long pid = 0;
		struct gproc *pr;

		q = p + 9;
		if (*q == ':')
			q++;
		if (!parse_ulong(&q, &pid))
			pid = (unsigned long)s->last_pid;
		pr = gproc_find(s, (pid_t)pid);
		if (pr && pr->active)
			send_packet(s, pr->attached ? "1" : "0");
		else
			send_error(s, 1);
	} else if (!strcmp(p, "qC")) {
		struct gthr *g = gthr_live(s, s->last_tid);

		if (!g)
			g = gthr_access(s);
		if (g) {
			snprintf(buf, sizeof(buf), "QCp%x.%x",
				 (unsigned)g->p->pid, (unsigned)g->tid);
			send_packet(s, buf);
		} else {
			send_packet(s, "");
		}
	} else if (!strcmp(p, "qfThreadInfo")) {
		do_thread_list(s);
	} else if (!strcmp(p, "qsThreadInfo")) {
		send_packet(s, "l");
	} else if (!strncmp(p, "qSymbol", 7)) {
		send_packet(s, "OK");
	} else if (!strncmp(p, "QPassSignals:", 13)) {
		do_pass_signals(s, p + 13);
	} else if (!strncmp(p, "QDisableRandomization:", 22)) {
		if (p[22] == '0' || p[22] == '1') {
			s->no_aslr = p[22] == '1';
			send_packet(s, "OK");
		} else {
			send_error(s, 1);
		}
	} else if (!strncmp(p, "QProgramSignals:", 16)) {
		send_packet(s, "OK");
	} else if (!strncmp(p, "QCatchSyscalls:", 15)) {
		do_catch_syscalls(s, p + 15);
	} else if (!strcmp(p, "vCont?")) {
		send_packet(s, "vCont;c;C;s;S");
	} else if (!strncmp(p, "vCont;", 6)) {
		do_vcont(s, p + 5);
	} else if (!strncmp(p, "vFile:", 6)) {
		do_vfile(s, p + 6);
	} else if (!strncmp(p, "vKill;", 6)) {
		unsigned long pid;

		q = p + 6;
		if (parse_ulong(&q, &pid))
			do_kill(s, (pid_t)pid, true);
		else
			send_error(s, 1);
	} else if (!strncmp(p, "vRun;", 5)) {
		do_run(s, p + 5);
	} else if (!strncmp(p, "vAttach;", 8)) {
		do_attach(s, p + 8);
	} else {
		send_packet(s, "");	/* unknown: the empty reply */
	}
}

/* Undo '}' escapes and '*' run lengths; returns the new length. */
static size_t unescape(char *p, size_t n)
{
	size_t i, j = 0;

	for (i = 0; i < n; i++) {
		if (p[i] == '}' && i + 1 < n) {
			p[j++] = (char)(p[++i] ^ 0x20);
		} else if (p[i] == '*' && j > 0 && i + 1 < n) {
			int rep = (unsigned char)p[++i] - 29;
			char c = p[j - 1];

			while (rep-- > 0 && j < i)
				p[j++] = c;
		} else {
			p[j++] = p[i];
		}
	}
	return j;
}

/* Frame what came in: acks, Ctrl-C, $data#cs; bad checksums get '-'. */
static void parse_input(struct gdbstub *s)
{
	size_t i = 0;

	while (i < s->inlen && s->cfd >= 0 && s->active) {
		char c = s->in[i];
		char *hash;
		unsigned cs = 0;
		int hi, lo;
		size_t k, n;

		if (c == '+') {
			i++;
			continue;
		}
		if (c == '-') {
			if (!s->noack && s->out)
				send_raw(s, s->out, s->outlen);
			i++;
			continue;
		}
		if (c == 0x03) {
			i++;
			if (s->waiting && !s->stopping && s->threads) {
				struct gthr *g = gthr_live(s, s->last_tid);

				if (!g && s->procs)
					g = gthr_live(s, s->procs->pid);
				for (struct gthr *h = s->threads; h && !g;
				     h = h->next)
					if (usable(h))
						g = h;
				if (!g)
					continue;
				s->stopping = true;
				s->evthr = g;
				g->ev = GEV_INTR;
				stop_all(s);
			}
			continue;
		}
		if (c != '$') {
			i++;		/* noise between packets */
			continue;
		}
		if (s->waiting)
			break;		/* served once the stop is reported */
		hash = memchr(s->in + i, '#', s->inlen - i);
		if (!hash || (size_t)(hash - s->in) + 3 > s->inlen)
			break;		/* not complete yet */
		n = (size_t)(hash - (s->in + i + 1));
		for (k = 0; k < n; k++)
			cs += (unsigned char)s->in[i + 1 + k];
		cs &= 0xff;
		hi = hexval(hash[1]);
		lo = hexval(hash[2]);
		if (hi < 0 || lo < 0 || cs != (unsigned)(hi << 4 | lo)) {
			if (!s->noack)
				send_raw(s, "-", 1);
			i = (size_t)(hash - s->in) + 3;
			continue;
		}
		if (!s->noack)
			send_raw(s, "+", 1);
		{
			char *pkt = malloc(n + 1);

			if (pkt) {
				memcpy(pkt, s->in + i + 1, n);
				n = unescape(pkt, n);
				handle_packet(s, pkt, n);
				free(pkt);
			}
		}
		i = (size_t)(hash - s->in) + 3;
	}
	if (s->cfd < 0 || !s->active) {
		s->inlen = 0;
		return;
	}
	memmove(s->in, s->in + i, s->inlen - i);
	s->inlen -= i;
	if (s->inlen == sizeof(s->in)) {
		/* No '#' in a full buffer: not a packet gdb would send. */
		s->inlen = 0;
		if (!s->noack)
			send_raw(s, "-", 1);
	}
}


static void client_read(struct gdbstub *s)
{
	ssize_t n = recv(s->cfd, s->in + s->inlen, sizeof(s->in) - s->inlen,
			 MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		fprintf(stderr, "utrace: gdb connection closed\n");
		client_gone(s);
		return;
	}
	s->inlen += (size_t)n;
	parse_input(s);
}

/* "$E.utrace: <why>#cs", acked first: the answer to every packet of a refused gdb. */
static void refused_answer(struct refused *r)
{
	char pkt[160];
	unsigned cs = 0;
	size_t i;
	int n;

	for (i = 0; r->why[i]; i++)
		cs += (unsigned char)r->why[i];
	for (i = 0; i < 10; i++)
		cs += (unsigned char)"E.utrace: "[i];
	n = snprintf(pkt, sizeof(pkt), "+$E.utrace: %s#%02x", r->why,
		     cs & 0xff);
	if (n > 0 && (size_t)n < sizeof(pkt))
		send(r->fd, pkt, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
}

static void refused_close(struct gdbstub *s, struct refused *r)
{
	struct refused **pp;

	for (pp = &s->refused; *pp; pp = &(*pp)->next)
		if (*pp == r) {
			*pp = r->next;
			break;
		}
	close(r->fd);
	free(r);
}

/* What a refused gdb sent: each complete packet gets the error reply. */
static void refused_read(struct gdbstub *s, struct refused *r)
{
	ssize_t n = recv(r->fd, r->in + r->inlen, sizeof(r->in) - r->inlen,
			 MSG_DONTWAIT);
	size_t i = 0;
	char *dollar, *hash;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		refused_close(s, r);	/* gdb hung up: it has the reason */
		return;
	}
	r->inlen += (size_t)n;
	for (;;) {
		dollar = memchr(r->in + i, '$', r->inlen - i);
		if (!dollar)
			break;
		hash = memchr(dollar, '#', r->inlen - (size_t)(dollar - r->in));
		if (!hash || (size_t)(hash - r->in) + 3 > r->inlen)
			break;
		refused_answer(r);
		i = (size_t)(hash - r->in) + 3;
	}
	if (!memchr(r->in + i, '$', r->inlen - i))
		i = r->inlen;		/* acks and noise */
	else if (i == 0 && r->inlen == sizeof(r->in))
		i = r->inlen;		/* no packet gdb would send */
	memmove(r->in, r->in + i, r->inlen - i);
	r->inlen -= i;
}

/*
 * Turn a gdb away gently, as gdbserver answers what it cannot serve: its
 * first packets are read and answered with the reason, so gdb prints it
 * ("Remote failure reply: E.utrace: another gdb is already attached");
 * closing at once would leave gdb a reset connection and no reason.
 */
static void refuse(struct gdbstub *s, int fd, const char *why)
{
	struct refused *r = NULL, *x;
	unsigned n = 0;

	fprintf(stderr, "utrace: refused a gdb connection: %s\n", why);
	for (x = s->refused; x; x = x->next)
		n++;
	if (n < REFUSE_MAX)
		r = calloc(1, sizeof(*r));
	if (!r) {
		struct refused tmp = { .fd = fd, .why = why };

		refused_answer(&tmp);	/* too many at once: no waiting */
		close(fd);
		return;
	}
	r->fd = fd;
	r->why = why;
	r->deadline = now_mono() + REFUSE_SECS;
	r->next = s->refused;
	s->refused = r;
}

static void accept_client(struct gdbstub *s)
{
	int fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC), one = 1;

	if (fd < 0)
		return;
	if (s->cfd >= 0 || !s->active) {
		refuse(s, fd, s->cfd >= 0 ?
		       "another gdb is already attached" :
		       "no process to debug");
		return;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	s->cfd = fd;
	s->noack = false;
	s->inlen = 0;
	fprintf(stderr, "utrace: gdb connected to process %d\n",
		s->procs ? s->procs->pid : 0);
}

/* Once every thread is held: the stop reply, or the end of a closing. */
static void check_stopped(struct gdbstub *s)
{
	struct gthr *g;

	if (!s->active)
		return;
	if (!s->stopping && !s->closing)
		return;
	if (any_running(s))
		return;
	if (s->closing) {
		let_go(s);
		return;
	}
	g = s->evthr;
	if (g && !usable(g))
		g = NULL;
	if (!g && s->evproc) {
		report_exit(s, s->evproc);
		if (s->inlen)
			parse_input(s);
		return;
	}
	if (!g) {
		struct gproc *p = ended(s);

		for (g = s->threads; g; g = g->next)
			if (pending(s, g))
				break;
		if (!g && p) {
			report_exit(s, p);
			if (s->inlen)
				parse_input(s);
			return;
		}
		if (!g) {
			s->stopping = false;
			return;
		}
	}
	report(s, g);
	if (s->inlen)
		parse_input(s);	/* what gdb sent meanwhile */
}

/* The queue's records, then what they bring, until quiet. */
static int settle(struct gdbstub *s, int *dispatched)
{
	int i, r;

	for (i = 0; i < 16; i++) {
		if (!s->joined) {
			r = utrace_dispatch(s->t, 0);
			if (r < 0)
				return r;
			*dispatched += r;
		}
		s->kick = false;
		r = read_records(s);
		if (r < 0)
			return r;
		check_stopped(s);
		if (!s->kick && !r)
			break;
	}
	return 0;
}

int gdbstub_dispatch(struct gdbstub *s, int timeout_ms)
{
	struct pollfd pf[4 + REFUSE_MAX];
	struct refused *rf[REFUSE_MAX], *x;
	int n = 0, r = 0, err, li = -1, ci = -1, ri, nr = 0, i;
	double now = now_mono();

	if (!s->joined)
		pf[n++] = (struct pollfd){ utrace_fd(s->t), POLLIN, 0 };
	pf[n++] = (struct pollfd){ utrace_queue_fd(s->q), POLLIN, 0 };
	if (s->lfd >= 0) {
		li = n;
		pf[n++] = (struct pollfd){ s->lfd, POLLIN, 0 };
	}
	if (s->cfd >= 0) {
		ci = n;
		pf[n++] = (struct pollfd){ s->cfd, POLLIN, 0 };
	}
	ri = n;
	for (x = s->refused; x && nr < REFUSE_MAX; x = x->next) {
		int left = (int)((x->deadline - now) * 1000) + 1;

		if (left < 1)
			left = 0;
		if (timeout_ms < 0 || left < timeout_ms)
			timeout_ms = left;
		rf[nr++] = x;
		pf[n++] = (struct pollfd){ x->fd, POLLIN, 0 };
	}
	if (poll(pf, (nfds_t)n, s->kick ? 0 : timeout_ms) < 0 &&
	    errno != EINTR)
		return -errno;
	err = settle(s, &r);
	now = now_mono();
	for (i = 0; i < nr; i++) {
		if (pf[ri + i].revents)
			refused_read(s, rf[i]);	/* may close it */
		else if (now >= rf[i]->deadline)
			refused_close(s, rf[i]);
	}
	if (ci >= 0 && pf[ci].revents && s->cfd >= 0)
		client_read(s);
	if (li >= 0 && (pf[li].revents & POLLIN) && s->lfd >= 0)
		accept_client(s);
	/* What the packets asked for, and what that brings. */
	if (!err)
		err = settle(s, &r);
	return err < 0 ? err : r;
}

/* -- Setting up ----------------------------------------------------------- */

static int listen_on(struct gdbstub *s, const char *addr)
{
	int fd, one = 1, err;

	if (strchr(addr, '/')) {
		struct sockaddr_un un = { .sun_family = AF_UNIX };

		if (strlen(addr) >= sizeof(un.sun_path))
			return -ENAMETOOLONG;
		strcpy(un.sun_path, addr);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -errno;
		if (bind(fd, (struct sockaddr *)&un, sizeof(un)) < 0 ||
		    listen(fd, 4) < 0) {
			err = -errno;
			close(fd);
			return err;
		}
		s->upath = strdup(addr);
		fprintf(stderr, "utrace: gdb: listening on %s\n", addr);
	} else {
		struct addrinfo hints = { .ai_family = AF_UNSPEC,
					  .ai_socktype = SOCK_STREAM,
					  .ai_flags = AI_PASSIVE }, *ai;
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		const char *colon = strrchr(addr, ':');
		char host[256];
		unsigned port;

		if (!colon || colon - addr >= (long)sizeof(host) ||
		    !colon[1] || strspn(colon + 1, "0123456789") !=
		    strlen(colon + 1))
			return -EINVAL;
		memcpy(host, addr, (size_t)(colon - addr));
		host[colon - addr] = 0;
		if (!host[0])
			strcpy(host, "127.0.0.1");
		if (getaddrinfo(host, colon + 1, &hints, &ai))
			return -EADDRNOTAVAIL;
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			err = -errno;
			freeaddrinfo(ai);
			return err;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 ||
		    listen(fd, 4) < 0) {
			err = -errno;
			freeaddrinfo(ai);
			close(fd);
			return err;
		}
		freeaddrinfo(ai);
		getsockname(fd, (struct sockaddr *)&ss, &sl);
		port = ntohs(ss.ss_family == AF_INET6 ?
			     ((struct sockaddr_in6 *)&ss)->sin6_port :
			     ((struct sockaddr_in *)&ss)->sin_port);
		fprintf(stderr, "utrace: gdb: listening on port %u\n", port);
	}
	s->lfd = fd;
	return 0;
}

static int stub_new(const char *addr, struct gdbstub **out)
{
	struct gdbstub *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	s->lfd = s->cfd = -1;
	err = listen_on(s, addr);
	if (err) {
		free(s);
		return err;
	}
	*out = s;
	return 0;
}

int gdbstub_new(struct utrace_tracer *t, const char *addr,
		struct gdbstub **out)
{
	struct utrace_queue *q;
	int err = utrace_queue_new(t, &q);

	if (err)
		return err;
	err = stub_new(addr, out);
	if (err) {
		utrace_queue_free(q);
		return err;
	}
	(*out)->t = t;
	(*out)->q = q;
	return 0;
}

int gdbstub_join(struct gdbstub *s, pid_t pid)
{
	struct utrace_queue *q;
	int err = utrace_queue_connect(pid, &q);

	if (err)
		return err;
	/* Nothing is watched locally yet; freed before utrace's tracer. */
	utrace_queue_free(s->q);
	s->q = q;
	s->t = NULL;
	s->joined = true;
	s->host = NULL;		/* no vRun, no vAttach */
	return 0;
}

int gdbstub_set_process(struct gdbstub *s, pid_t pid, bool spawned)
{
	struct gproc *p = gproc_find(s, pid);

	if (p && p->gone) {
		gproc_free(s, p);	/* an old one of the same pid */
		p = NULL;
	}
	if (!p)
		p = gproc_new(s, pid);
	if (!p)
		return -ENOMEM;
	p->active = true;
	p->attached = !spawned;
	p->wait_exec = spawned;
	s->active = true;
	s->waiting = true;	/* the first stop is kept for gdb's '?' */
	return 0;
}

int gdbstub_set_host(struct gdbstub *s, const struct gdbstub_host *host,
		     void *arg, char *const *argv)
{
	size_t n = 0, i;

	s->host = host;
	s->host_arg = arg;
	while (argv && argv[n])
		n++;
	if (!n)
		return 0;
	s->run_argv = calloc(n + 1, sizeof(*s->run_argv));
	if (!s->run_argv)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		s->run_argv[i] = strdup(argv[i]);
		if (!s->run_argv[i]) {
			argv_free(s->run_argv);
			s->run_argv = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * -p, vAttach: every thread of the process, then hold them all.  Locally
 * utrace attached them (gdbstub_attach watched each); joined, the queue
 * watches the whole process and follows its new threads.
 */
static int start_proc(struct gdbstub *s, struct gproc *p)
{
	char path[64];
	struct dirent *de;
	struct gthr *g;
	DIR *d;
	int err;

	if (p->wait_exec)
		return 0;
	if (s->joined) {
		err = watch(s, p->pid);
		if (err)
			return err;
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
	event(g, GEV_INIT);
	return 0;
}

int gdbstub_start(struct gdbstub *s)
{
	return s->procs ? start_proc(s, s->procs) : -ESRCH;
}

bool gdbstub_serving(const struct gdbstub *s)
{
	if (!s || !s->active)
		return false;
	/* A fork child only gdb traces, or extended-remote waiting for more. */
	return any_live(s) || (s->extended && s->cfd >= 0);
}

void gdbstub_free(struct gdbstub *s)
{
	if (!s)
		return;
	/* Breakpoints out, held signals settled, the queue's engines gone. */
	if (s->active)
		let_go(s);
	utrace_queue_free(s->q);
	close_client(s);
	while (s->refused)
		refused_close(s, s->refused);
	if (s->lfd >= 0)
		close(s->lfd);
	if (s->upath)
		unlink(s->upath);
	while (s->threads) {
		struct gthr *g = s->threads;

		s->threads = g->next;
		free(g->snap);
		free(g);
	}
	while (s->procs)
		gproc_free(s, s->procs);
	argv_free(s->run_argv);
	free(s->upath);
	free(s->catch_nrs);
	free(s->out);
	free(s);
}
