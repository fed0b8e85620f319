/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef UT_GDB_H
#define UT_GDB_H
/*
 * utrace --gdb: gdb's remote serial protocol served from a queue; the
 * stub's private header.
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
 * Non-stop (QNonStop:1, nonstop.c): an event holds its thread only and is
 * told to gdb as a %Stop notification, queued until gdb drains them with
 * vStopped; the others, and every other engine's trace, run on.  vCont
 * acts on each thread it names (t: utrace_queue_stop_thread, reported as
 * T00 once its record of type 0 comes; c and s: the thread's held record
 * replied and its stop let go with utrace_queue_resume_thread), '?' gives
 * every stopped thread's last stop reply, vCtrlC stops one running
 * thread with SIGINT.  Memory and debug registers of a process none of
 * whose threads is held are reached by holding one running thread for a
 * moment (gthr_pause), as gdbserver pauses threads to change their debug
 * registers; the record of type 0 such a pause makes is skipped.
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
 * Who may connect (peer.c): a gdb is served only if it could ptrace(2)
 * every process the stub debugs itself, with its own credentials (from
 * SO_PEERCRED, or for TCP from NETLINK_SOCK_DIAG and the processes that
 * hold its socket); vFile works with them too (hostio.c).  Packets are
 * parsed as strictly as gdbserver parses them: anything malformed is
 * answered E01 and changes nothing.
 *
 * Leaving (detach, a client gone, kill): breakpoints and debug registers
 * are taken out while the threads are held, each held record is replied
 * with UTRACE_DETACH (and the signal bits that settle a held signal), the
 * other threads are unwatched, and the stop is resumed: the process runs
 * on under the other engines.
 */

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "gdb/gdbstub.h"
#include <utrace.h>

struct pollfd;
struct regset;
struct refused;
struct sbuf;
struct utrace_queue;
struct utrace_tracer;

#define PKT_MAX		16384	/* PacketSize: the largest packet gdb sends */
#define IN_MAX		(2 * PKT_MAX + 16)
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
	GEV_STOPPED,	/* non-stop: stopped as gdb asked (vCont;t): T00 */
	GEV_CREATE,	/* non-stop, QThreadEvents:1: a new thread */
};

/* Who is connected: every process that holds the other end. */
#define GPEER_PIDS	4
struct gpeer {
	bool known;		/* false: a remote peer, unchecked */
	struct utrace_cred cred; /* theirs (all the same) */
	pid_t pids[GPEER_PIDS];
	int npids;
	char name[64];		/* "uid 65534 (pid 123)", for messages */
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
	bool stopped;		/* held for gdb (gthr_set_stopped) */
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
	/* Non-stop (nonstop.c). */
	bool ns_report;		/* its event goes to gdb once it is held */
	bool ns_birth;		/* held at birth for the debug registers */
	bool stop_asked;	/* a stop of ours takes it: its type 0 comes */
	int pause_skip;		/* type-0 records of pauses, to skip */
	char *last_reply;	/* the stop reply it was last reported with */
	struct gthr *next;
};

/* A stop reply waiting in the non-stop notification queue. */
struct notif {
	struct notif *next;
	pid_t pid;
	char text[];
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
	/*
	 * A thread born while debug registers are in use: the whole process
	 * is stopped (utrace_queue_stop) so that it starts with them; let go
	 * once every thread is held (gdb_birth_settle).
	 */
	bool birth_stop;
	/*
	 * Non-stop: a fork child is held from birth by a stop of its
	 * process; its thread's own stop takes over once it is held.
	 */
	bool held_whole;
	struct gproc *next;
};

struct gdbstub {
	struct utrace_tracer *t;		/* local: utrace's own tracer */
	struct utrace_queue *q;			/* what the stub works through */
	bool joined;				/* q is joined (another tracer's) */
	bool q_gone;				/* joined: its tracer has ended */
	const struct gdbstub_host *host;	/* vRun, vAttach */
	void *host_arg;
	int lfd, cfd;
	char *upath;		/* Unix socket to unlink */
	char listening[160];	/* "listening on ...", said at the start */
	struct gproc *procs;
	bool active;		/* engines hold threads for gdb */
	bool closing;		/* gdb left while running: stop, then let go */
	bool waiting;		/* threads run: a stop reply is due */
	bool asked;		/* gdb resumed and reads a stop reply */
	bool stopping;		/* all-stop in progress */
	bool noack;
	bool intr_pending;	/* Ctrl-C while stopped: at the next resume */
	bool said_no_fork;	/* joined: told there are no fork events */
	bool extended;		/* '!': gdb stays after the process ends */
	bool fork_events;	/* gdb and the stub both said fork-events+ */
	bool vfork_events;
	bool exec_events;
	bool multiprocess;
	bool nonstop;		/* QNonStop:1 */
	bool thread_events;	/* QThreadEvents:1: thread exits too */
	struct notif *notifs;	/* non-stop: the head was sent as %Stop */
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
	struct gpeer peer;	/* the connected gdb (peer.c) */
	bool any_host;		/* --gdb-any-host: remote peers unchecked */
	bool skip_pkt;		/* discarding an overlong packet up to '#' */
	/*
	 * Processes the last gdb left running (it detached or went away):
	 * the next gdb that connects gets them again, stopped as with -p.
	 * Joined, a watch of their deaths only says when they end.
	 */
	struct released {
		pid_t pid;
		bool attached;		/* qAttached as it was */
	} released[8];
	int nreleased;
	bool rewatch;		/* locally, watch first (revived threads) */
};

struct action {
	char a;		/* 0: none, 'c', 's', 't' (stop: non-stop only) */
	int sig;	/* Linux */
	bool wild;	/* it named no thread (all, or a whole process) */
};

/* framing.c: packets on the connection (gdbserver's remote-utils). */
void gdb_send_packet_len(struct gdbstub *s, const char *data, size_t n);
void gdb_send_packet(struct gdbstub *s, const char *data);
void gdb_send_error(struct gdbstub *s, int err);
void gdb_send_notif(struct gdbstub *s, const char *data);
size_t gdb_put_bin(char *dst, const unsigned char *src, size_t n);
void gdb_put_hex(char *dst, const unsigned char *src, size_t n);
ssize_t gdb_get_hex(unsigned char *dst, const char *src, size_t n);
bool gdb_parse_ulong(const char **p, unsigned long *v);
bool gdb_parse_addr_len(const char *p, unsigned long *addr,
			unsigned long *len);
ssize_t gdb_unescape(char *p, size_t n);
bool gdb_parse_ptid(const char **p, pid_t *pid, pid_t *tid);
void gdb_close_client(struct gdbstub *s);
void gdb_parse_input(struct gdbstub *s);
void gdb_client_read(struct gdbstub *s);
void gdb_accept(struct gdbstub *s, double now);
int gdb_refused_poll(struct gdbstub *s, struct pollfd *pf,
		     struct refused **rf, double now, int *timeout_ms);
void gdb_refused_serve(struct gdbstub *s, const struct pollfd *pf,
		       struct refused **rf, int nr, double now);
void gdb_refused_free(struct gdbstub *s);
int gdb_listen(struct gdbstub *s, const char *addr, char *why, size_t n);
void gdb_announce(struct gdbstub *s);

/* server.c: what each packet asks for (gdbserver's server). */
void gdb_handle_packet(struct gdbstub *s, char *p, size_t len);

/* target.c: threads and processes held and released through the queue. */
struct gthr *gthr_find(struct gdbstub *s, pid_t tid);
bool gthr_usable(const struct gthr *g);
struct gthr *gthr_live(struct gdbstub *s, pid_t tid);
struct gproc *gproc_find(struct gdbstub *s, pid_t pid);
struct gproc *gproc_new(struct gdbstub *s, pid_t pid);
void gproc_free(struct gdbstub *s, struct gproc *p);
bool gproc_has_threads(struct gdbstub *s, struct gproc *p);
bool gdb_any_live(const struct gdbstub *s);
struct gthr *gthr_access(struct gdbstub *s);
ssize_t gthr_mem_rw(struct gthr *g, uint64_t addr, void *buf, size_t len,
		      bool write);
bool gthr_ptid_match(const struct gthr *g, pid_t pid, pid_t tid);
void gthr_set_stopped(struct gthr *g);
int gthr_reply(struct gthr *g, uint32_t action, const siginfo_t *info);
uint32_t gthr_go(const struct gthr *g);
void gthr_pass_on(struct gthr *g);
void gdb_stop_all(struct gdbstub *s);
void gthr_event(struct gthr *g, enum gev ev);
void gthr_vfork_end(struct gthr *g);
void gthr_unlink(struct gdbstub *s, struct gthr *g);
void gthr_free(struct gthr *g);
bool gdb_any_running(struct gdbstub *s);
int gdb_watch(struct gdbstub *s, pid_t tid);
struct gthr *gthr_add(struct gdbstub *s, struct gproc *p, pid_t tid);
void gthr_drop(struct gthr *g);
void gdb_let_go_proc(struct gdbstub *s, struct gproc *p);
void gdb_let_go(struct gdbstub *s, bool listen);
bool gdb_revive(struct gdbstub *s);
void gdb_released_death(struct gdbstub *s, pid_t pid);
void gdb_client_gone(struct gdbstub *s);
bool gthr_pending(struct gdbstub *s, struct gthr *g);
void gthr_resume(struct gthr *g, struct action *a);
void gdb_resume(struct gdbstub *s, struct action *acts, size_t n);
int gdb_start_proc(struct gdbstub *s, struct gproc *p);
void gdb_interrupt(struct gdbstub *s);
void gdb_birth_stop(struct gdbstub *s, struct gproc *p, struct gthr *g);
void gdb_birth_settle(struct gdbstub *s);

/* nonstop.c: non-stop mode (QNonStop, vStopped, vCtrlC, vCont;t). */
void gdb_ns_set(struct gdbstub *s, bool on);
void gdb_ns_event(struct gthr *g);
void gdb_ns_flush(struct gdbstub *s);
void gdb_ns_exit(struct gdbstub *s, struct gproc *p);
void gdb_ns_thread_exit(struct gdbstub *s, struct gthr *g, int status);
void gdb_ns_birth(struct gthr *g);
bool gdb_ns_stopped(struct gthr *g);
void gdb_ns_resume(struct gdbstub *s, struct action *acts, size_t n);
void gdb_ns_status(struct gdbstub *s);
void gdb_ns_vstopped(struct gdbstub *s);
void gdb_ns_interrupt(struct gdbstub *s);
void gdb_ns_dr_sync(struct gdbstub *s);
void gdb_ns_discard(struct gdbstub *s, pid_t pid);
int gthr_pause(struct gthr *g);
void gthr_unpause(struct gthr *g);

/* records.c: the queue's records become gdb's events and stop replies. */
void gdb_format_stop(struct gdbstub *s, struct gthr *g, char *buf,
		     size_t size);
void gdb_format_exit(struct gproc *p, char *buf, size_t size);
void gdb_report(struct gdbstub *s, struct gthr *g);
void gdb_report_exit(struct gdbstub *s, struct gproc *p);
struct gproc *gdb_ended(struct gdbstub *s);
int gdb_read_records(struct gdbstub *s);

/* x86.c: signal numbers, registers, debug registers, target description. */
int gdb_sig_to(int sig);
int gdb_sig_from(int g);
void gthr_dr_apply(struct gthr *g);
struct regset *gthr_snap_take(struct gthr *g);
void gdb_target_xml(struct sbuf *b);
void gdb_do_read_regs(struct gdbstub *s);
void gdb_do_write_regs(struct gdbstub *s, const char *hex);
void gdb_do_reg(struct gdbstub *s, const char *p, bool write);
void gthr_set_pc(struct gthr *g, uint64_t pc);

/* breakpoints.c: int3 breakpoints, watchpoints, memory as gdb sees it. */
void gdb_bps_free(struct gproc *p);
struct swbp *gdb_bp_find(struct gproc *p, uint64_t addr);
void gdb_unplant_child(struct gproc *p, pid_t child);
void gdb_do_read_mem(struct gdbstub *s, const char *p);
void gdb_do_write_mem(struct gdbstub *s, const char *p, const char *end,
			 bool binary);
void gdb_do_point(struct gdbstub *s, const char *p, bool insert);

/* peer.c: who the connected gdb is, and what it may debug. */
struct sockaddr;
int gdb_peer_may(const struct gpeer *pe, pid_t pid, char *why, size_t n);
bool gdb_addr_loopback(const struct sockaddr *sa);
int gdb_peer_identify(struct gdbstub *s, int fd, struct gpeer *pe,
		      char *why, size_t n);
bool gdb_peer_admit(struct gdbstub *s, int fd, char *why, size_t n);
int gdb_peer_may_run(struct gdbstub *s, char *why, size_t n);
void gdb_peer_refuse(struct gdbstub *s, const char *why);
bool gdb_peer_exec_ok(struct gdbstub *s, struct gproc *p);

/* hostio.c: vFile, gdb reading files through the target. */
bool gdb_read_file(const char *path, struct sbuf *b);
void gdb_do_vfile(struct gdbstub *s, const char *p);
void gdb_hostio_close(struct gdbstub *s);

#endif /* UT_GDB_H */
