/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The utrace command: options and the engines it is made of.  Each engine
 * (printer, counter, injector, timeline) is an object with its own
 * settings and output, a struct utrace_engine_ops with its own per-thread
 * data, attached to any thread of any tracer on the public libutrace API;
 * nothing of theirs is in a global, so several can run in one process.
 */
#ifndef UT_CLI_H
#define UT_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <utrace.h>

#include "decode/capture.h"
#include "decode/decode.h"
#include "util/misc.h"

/*
 * The -c table's columns (-U) and sort keys (-S), in strace's terms:
 * % time, seconds, shortest, longest, usecs/call, calls, errors, syscall.
 */
enum sum_col {
	COL_NONE, COL_PERCENT, COL_TOTAL, COL_MIN, COL_MAX, COL_AVG,
	COL_CALLS, COL_ERRORS, COL_NAME, COL_MAX_
};

/* -e status=: which outcomes the printer shows. */
enum {
	ST_SUCCESSFUL	= 1 << 0,
	ST_FAILED	= 1 << 1,
	ST_UNFINISHED	= 1 << 2,
	ST_UNAVAILABLE	= 1 << 3,
	ST_DETACHED	= 1 << 4,
	ST_ALL		= 0x1f,
};

/* -q, --quiet=: which messages are suppressed (strace's quiet set). */
enum {
	Q_ATTACH	= 1 << 0,	/* Process N attached/detached */
	Q_EXIT		= 1 << 1,	/* +++ exited/killed +++ */
	Q_PATH		= 1 << 2,	/* path-resolution (never printed) */
	Q_PERSONALITY	= 1 << 3,	/* personality (never printed) */
	Q_THREAD_EXECVE	= 1 << 4,	/* +++ superseded by execve +++ */
	Q_ALL		= 0x1f,
};

#define MAX_INJECT	16

/* A set of numbers as strace's -e read= takes it: listed, or all but. */
struct num_set {
	long *v;
	int n;
	bool not;
};
bool num_set_has(const struct num_set *s, long v);

/* -P: the paths given and the real paths they resolve to. */
struct path_set {
	char **paths;
	int n;
	int given;
};

struct inject_rule {
	bool set[NR_MAX];
	long error;		/* errno to inject, 0: none */
	bool has_retval;
	long retval;
	int signal;
	long delay_enter_us;
	long delay_exit_us;
	unsigned first, last, step;	/* when=first[..last][+step] */
};

/*
 * What the program around an engine object tells it; every member may be
 * NULL (nothing hidden, no detaching at exec).  The utrace command's
 * keeper answers for -u/-D (hidden: the events before the command's
 * execve, nr: the syscall at an entry, -1 otherwise; it turns false at the
 * execve's entry or its exec event) and -b execve (detaching: in
 * report_exec, the engines leave at that exec with UTRACE_DETACH).
 */
struct engine_host {
	void *arg;
	bool (*hidden)(void *arg, pid_t tid, long nr);
	bool (*detaching)(void *arg, pid_t tid);
};

static inline bool host_hidden(const struct engine_host *h, pid_t tid,
			       long nr)
{
	return h->hidden && h->hidden(h->arg, tid, nr);
}

static inline bool host_detaching(const struct engine_host *h, pid_t tid)
{
	return h->detaching && h->detaching(h->arg, tid);
}

/* The text (or --json) trace. */
struct injector;
enum {
	PR_PIDS_MANY,		/* "[pid N] " while more than one thread */
	PR_PIDS_ALWAYS,		/* "N     " on every line (-o FILE -f) */
	PR_PIDS_NEVER,
};
struct printer_settings {
	const long *nrs;		/* syscalls traced (NULL: all) */
	size_t nnrs;
	bool signals[65];		/* -e signal=: shown */
	bool abbrev[NR_MAX];		/* -e abbrev= (-v: none) */
	unsigned status_mask;		/* -e status=: ST_* */
	int strsize;			/* -s */
	unsigned decode_fds;		/* -y, -yy: DF_* */
	int hexstr;			/* -x, -xx: DEC_HEX_* */
	int xlat_style;			/* -X: DEC_XLAT_* */
	bool syscall_times;		/* -T */
	int t_digits;
	int timestamps;			/* -t count (3: seconds since epoch) */
	int ts_digits;
	bool relative;			/* -r */
	int rel_digits;
	bool print_nr, print_ip;	/* -n, -i */
	int columns;			/* -a */
	unsigned decode_pids;		/* -Y, --pidns-translation: DEC_PID_* */
	bool verbose[NR_MAX];		/* -e verbose= (no: structures as
					   addresses) */
	bool raw[NR_MAX];		/* -e raw=: arguments undecoded */
	bool kvm_vcpu;			/* -e kvm=vcpu: KVM_RUN's exit reason */
	int pids;			/* PR_PIDS_*: the thread on each line */
	unsigned quiet;			/* Q_EXIT, Q_THREAD_EXECVE */
	bool json;			/* --json */
	bool stack_trace;		/* -k */
	const struct path_set *paths;	/* -P (NULL or empty: none) */
	const struct num_set *read_fds;	/* -e read= (NULL: none) */
	const struct num_set *write_fds;	/* -e write= */
	const char *ff_prefix;		/* -ff: each thread to PREFIX.TID */
	bool append;			/* -A: those opened for appending */
	struct injector *injector;	/* its notes: (INJECTED), (DELAYED) */
	struct engine_host host;
};

/* --tips: a tip about utrace at the end, in a box (none: no tip). */
enum { TIPS_NONE, TIPS_COMPACT, TIPS_FULL };

struct options {
	bool follow;			/* -f */
	bool follow_separately;		/* -ff */
	const char *outfile;		/* -o (a leading | or ! pipes) */
	bool trace_set[NR_MAX];		/* -e trace= */
	bool trace_all;
	bool decode_fds_given;		/* --decode-fds or -e decode-fds= */
	/*
	 * What the printer reads (-e signal=, -e status=, -e abbrev=, -v, -s,
	 * -y, -x, -X, -T, -t, -r, -n, -i, -a, -Y, -q, --json, -k, -A, -P,
	 * -e read=, -e write=), filled by the parse where the printer takes
	 * it: the syscalls, the injector and the host are the command's.
	 */
	struct printer_settings print;
	bool summary_only;		/* -c */
	bool summary;			/* -C */
	enum sum_col sort;		/* -S (COL_NONE: not sorted) */
	enum sum_col sum_cols[COL_MAX_];	/* -U, ended by COL_NONE */
	bool wall_clock;		/* -w */
	double overhead;		/* -O: seconds taken off each call */
	bool debug;			/* -d: utrace's own messages */
	int tips;			/* --tips: TIPS_* */
	int tip_id;			/* --tips=id:N (-1: random) */
	bool intr_never;		/* -o FILE PROG: ignore SIGINT etc. */
	const char *timeline;		/* --timeline */
	struct inject_rule inject[MAX_INJECT];
	int ninject;
	pid_t attach[64];		/* -p */
	int nattach;
	char **argv;			/* command */
	char **envp;			/* -E: NULL, the tracer's */
	int intr;			/* -I: 1 anywhere .. 4 never_tstp */
	struct path_set trace_paths;	/* -P */
	struct num_set read_fds;	/* -e read= */
	struct num_set write_fds;	/* -e write= */
	bool detach_execve;		/* -b execve */
	const char *user;		/* -u: run the command as this user */
	int daemonize;			/* -D count: 1 grandchild, 2 pgroup, 3 session */
	const char *gdb;		/* --gdb=ADDR */
	bool gdb_any_host;		/* --gdb-any-host: not only loopback */
	bool no_serve;			/* --no-serve: no joiners */
	bool records;			/* --records (not --stops-only) */
};

/* Fills o from the command line; says what is wrong and exits if need be. */
int parse_options(struct options *o, int argc, char **argv);
/* What parse_options allocated. */
void options_free(struct options *o);
void usage(FILE *f);

/*
 * utrace -p PID on a process the serving tracer tracer_pid traces: join
 * it and print with p (NULL: -c) and count with c (NULL: neither -c nor
 * -C) from its records until the process ends (join.c); messages go to
 * out.  Returns the exit status, or -errno when
 * it could not join (-ENOTSUP: an option that does not work joined, said
 * already); *sig: the signal that interrupted it, 0 if none.
 * interrupted: the signal the command's handler already took (SIGINT
 * ...), or 0; looked at once join_trace has the signals wait for it.
 */
struct printer;
struct sink;
struct counter;
int join_trace(const struct options *o, struct printer *p,
	       struct counter *c, struct sink *out, pid_t pid, pid_t tracer_pid,
	       int (*interrupted)(void),
	       int *sig);


/*
 * Whether a report_signal pass shows a signal arriving, as strace logs it
 * once: not a REPORT pass (no signal) nor HANDLER (its frame is set up).
 * A signal an engine holds (UTRACE_SIGNAL_HOLD: a queue waiting for its
 * reply, a debugger) comes back (UTRACE_SIGNAL_AGAIN) and is shown once:
 * when it first arrives, unless an engine before this one already holds
 * it (*@held, the thread's note, is set then), and then when it is back,
 * with what that engine decided.
 */
static inline bool signal_arrives(uint32_t action, const siginfo_t *info,
				  bool *held)
{
	enum utrace_signal_action sa = utrace_signal_action(action);
	bool show;

	if (!info || sa == UTRACE_SIGNAL_REPORT || sa == UTRACE_SIGNAL_HANDLER)
		return false;
	if (action & UTRACE_SIGNAL_HOLD) {
		*held = true;
		return false;
	}
	show = !(action & UTRACE_SIGNAL_AGAIN) || *held;
	*held = false;
	return show;
}

/*
 * Engine objects: each has its settings (copied at _new; what they point
 * to must outlive the object), its own state and output, and is attached
 * to any thread of any tracer with _attach; _free once none of its engines
 * is left (after utrace_tracer_free).  No state is shared between objects.
 */

/*
 * An output of trace text (printer.c): text collects in a buffer and goes
 * to the file in whole lines (sink_flush: before the loop waits); one line
 * may be left open, which another thread's line cuts (" <unfinished ...>").
 * sink_open: spec NULL for stderr, "|cmd" or "!cmd" for a shell command's
 * standard input, else a file (append: -A); it says why it failed.
 * sink_new: over f (owned; stderr is never closed).  sink_msg: an
 * "utrace: ..." message, placed as strace places it: when the trace goes
 * to stderr and a line is open, it waits for that line to end, or goes in
 * front of the next line of another thread (s may be NULL: plain stderr).
 * sink_file: everything written out, the FILE for stdio (the -c table).
 * sink_finish: written out, a '|cmd' ended (waited for; the sink is then
 * stderr).  sink_failed: whether a write failed (said already).  sink_free:
 * closes, returns whether a write failed.
 */
struct sink;
int sink_open(const char *spec, bool append, struct sink **out);
struct sink *sink_new(FILE *f, const char *name);
void sink_msg(struct sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
FILE *sink_file(struct sink *s);
void sink_flush(struct sink *s);
void sink_finish(struct sink *s);
bool sink_failed(struct sink *s);
bool sink_free(struct sink *s);

/* strace's defaults: every signal, abbreviated, -s 32, -a 40 ... */
void printer_defaults(struct printer_settings *s);
struct printer;
struct printer *printer_new(const struct printer_settings *s,
			    struct sink *out);
/* -k: the command utrace started, whose first execve shows no stack. */
void printer_set_command(struct printer *p, pid_t pid);
int printer_attach(struct printer *p, struct utrace_tracer *tr, pid_t tid,
		   pid_t tgid);
/* The complete lines of every output written out: the loop will wait. */
void printer_flush(struct printer *p);
/* Whether writing a -ff file failed (said already): exit status 1. */
bool printer_failed(struct printer *p);
/* At detach: the open line of tid, if any, ends with " <detached ...>". */
void printer_detach(struct printer *p, pid_t tid);
void printer_free(struct printer *p);
/*
 * The printer's work per event, called by its engine's callbacks and by
 * the record loop of a joined trace (join.c, e NULL there): the data of
 * the event, and for syscalls a memory reader the decoders use from the
 * entry to the exit.
 */
struct pthr;
struct pthr *printer_thread_new(struct printer *p, pid_t tid, pid_t tgid);
void printer_thread_end(struct pthr *t);
void printer_entry(struct pthr *t, const struct utrace_syscall *sc,
		   mem_read_fn mem, void *ctx, struct utrace_engine *e);
void printer_exit(struct pthr *t, const struct utrace_syscall *sc,
		  struct utrace_engine *e);
void printer_signal(struct pthr *t, uint32_t action, const siginfo_t *info,
		    const struct user_regs_struct *regs,
		    struct utrace_engine *e);
void printer_jctl(struct pthr *t, int type, struct utrace_engine *e);
void printer_death(struct pthr *t, bool group_dead, int status);
/*
 * The injector's INJ_NOTE_* for the syscall whose printer_exit comes next
 * (the record loop; the engine path takes them from the injector).
 */
void printer_note(struct pthr *t, unsigned notes);
/*
 * tid: the thread's id after the exec.  Returns UTRACE_DETACH when -b
 * execve lets the thread go, else UTRACE_RESUME.
 */
uint32_t printer_exec(struct pthr *t, pid_t tid, pid_t former);

/* -c / -C: calls, errors and time per syscall. */
struct counter_settings {
	bool wall_clock;		/* -w: time between the stops */
	double overhead;		/* -O: seconds taken off each call */
	bool all_threads;		/* -f: every thread of a process counted */
	const long *nrs;		/* syscalls counted (NULL: all) */
	size_t nnrs;
	const struct path_set *paths;	/* -P (NULL or empty: none) */
	enum sum_col sort;		/* -S (COL_NONE: not sorted) */
	const enum sum_col *cols;	/* -U, ended by COL_NONE (NULL: strace's) */
	struct engine_host host;
};
struct counter;
struct counter *counter_new(const struct counter_settings *s);
int counter_attach(struct counter *c, struct utrace_tracer *tr, pid_t tid);
void counter_report(const struct counter *c, FILE *f);
/*
 * A thread counted from a joined queue's records (join.c), the entry and
 * exit of its syscalls (at: the record's time, for -w), an exec that
 * gave it the leader's id.
 */
struct cthr;
struct cthr *counter_thread_new(struct counter *c, pid_t tid);
void counter_entry(struct cthr *t, long nr, const struct timespec *at);
void counter_exit(struct cthr *t, long ret, const struct timespec *at);
void counter_exec(struct cthr *t, pid_t tid);
void counter_thread_end(struct cthr *t);
void counter_free(struct counter *c);

/* --inject */
#define INJ_NOTE_INJECTED	0x1	/* result injected: (INJECTED) */
#define INJ_NOTE_DELAYED	0x2	/* held for delay_*: (DELAYED) */
struct injector_settings {
	const struct inject_rule *rules;
	int nrules;
	const struct path_set *paths;	/* -P (NULL or empty: none) */
	struct engine_host host;
};
struct injector;
struct injector *injector_new(const struct injector_settings *s);
int injector_attach(struct injector *inj, struct utrace_tracer *tr,
		    pid_t tid);
int injector_timeout_ms(const struct injector *inj);
void injector_run_timers(struct injector *inj);
unsigned injector_take_notes(struct injector *inj, struct utrace_tracer *tr,
			     pid_t tid);
void injector_free(struct injector *inj);

/* --timeline: Chrome trace-event JSON written to out (owned). */
struct timeline_settings {
	FILE *out;
	const long *nrs;		/* syscalls shown (NULL: all) */
	size_t nnrs;
	struct engine_host host;
};
struct timeline;
struct timeline *timeline_new(const struct timeline_settings *s);
int timeline_attach(struct timeline *tl, struct utrace_tracer *tr,
		    pid_t tid);
void timeline_free(struct timeline *tl);

/*
 * -P (pathtrace.c): add a path; after the options, add the real paths
 * (with strace's "Requested path ... resolved into ..." unless quiet);
 * at a syscall's entry, whether it touches one of the paths.
 */
void trace_path_add(struct path_set *ps, const char *path);
void trace_path_resolve(struct path_set *ps, bool quiet, int hexstr);
bool trace_path_match(const struct path_set *ps, struct utrace_engine *e,
		      pid_t tid, long nr, const unsigned long *args);
/*
 * The memory trace_path_match reads of syscall nr, as capture rules
 * (decode/capture.h) of at most limit bytes each: their number, or -1
 * when rules cannot hold it (the fd sets of select and poll).
 */
int trace_path_capture(long nr, struct dcap *out, size_t limit);

/*
 * The record path (records.c, utrace(7) "Syscalls observed in-process"):
 * which syscalls the observer engines may take from records, and with
 * which capture rules.  print: the printer's settings (NULL: no printer);
 * paths: -P; count: a counter (count_wall: -w); timeline: --timeline;
 * trace_set: the syscalls the engines want (NULL: all).
 */
struct records_settings {
	const struct printer_settings *print;
	const struct path_set *paths;
	bool count, count_wall, timeline;
	const bool *trace_set;
};
/*
 * What records_start did: whether some engine only looks (none: records
 * stay off), syscalls with rules, and those left to stops.
 */
struct records_summary {
	bool observers;
	unsigned recorded, stops;
};
/*
 * Records on for tr (utrace_tracer_set_records(3)) and the capture rules
 * of every syscall the engines can take from records, when some engine
 * only looks; 0 or -errno (-EOPNOTSUPP: the kernel or CPU has not the
 * means; stops then).
 */
int records_start(struct utrace_tracer *tr, const struct records_settings *s,
		  struct records_summary *sum);
/*
 * Whether a printer with these settings only looks (utrace_set_observer):
 * not with -k, which unwinds the stopped thread, nor with -Y or
 * --pidns-translation, which read other processes' names and ids live.
 */
bool printer_observes(const struct printer_settings *s);
/* How the printer prints syscall nr, as the capture rules ask it. */
void records_how(const struct printer_settings *s, long nr,
		 struct dcap_how *how);

/*
 * -e read=, -e write= (dumpio.c): append to b the dumps strace prints
 * after the line of the syscall c (at its exit), if any; dump_io_json:
 * the same data as --json's "dumps" member (nothing when none).
 */
void dump_io(struct sbuf *b, const struct dec_ctx *c,
	     const struct num_set *rd, const struct num_set *wr);
void dump_io_json(struct sbuf *b, const struct dec_ctx *c,
		  const struct num_set *rd, const struct num_set *wr);

/*
 * --json (json.c): {"text":TEXT,"value":VALUE} for a piece of strace's
 * notation (an argument, a siginfo), the value left out when the text is
 * not in the notation's grammar.
 */
void json_text_value(struct sbuf *out, const char *text, size_t n);
/* The first record of every --json output: the schema and its version. */
#define UTRACE_JSON_SCHEMA_VERSION	1
void json_header(struct sbuf *out);

#endif
