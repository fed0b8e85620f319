// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The printer engine: strace's text (or --json) for every syscall, signal
 * and exit of the threads it is attached to.  A printer is an object with
 * its own settings and output (a sink); several can print the same
 * threads, each in its own way.  A sink keeps one line "open"; when
 * another thread needs the sink first, the open line is closed with
 * " <unfinished ...>" and later continued as "<... resumed>".
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "engines/sink.h"
#include "engines/unwind.h"


struct printer {
	struct printer_settings s;
	struct sink *out;	/* the trace; with ff_prefix, the messages */
	struct timespec last_tv;	/* -r: the previous line's time */
	int live;		/* threads printed: "[pid N]" when > 1 */
	struct pthr *threads;	/* all of them, for detach, exec and -k */
	pid_t command;		/* -k: its first execve shows no stack */
	bool failed;		/* a -ff file failed */
	/* syscalls whose records lacked what their decoding read: said */
	uint64_t missed[NR_MAX / 64];
};

struct pthr {
	pid_t tid;
	pid_t tgid;
	struct printer *p;
	struct pthr *next;	/* all attached threads, for detach and exec */
	bool reaped;
	bool sig_held;		/* a signal held before us: shown when back */
	struct utrace_engine *e;
	struct utrace_tracer *tr;	/* e's tracer (NULL: a joined queue's) */
	struct sink *out;	/* p->out, or with -ff the thread's own */
	struct sbuf line;	/* "name(args" of the current syscall */
	size_t entry_len;	/* part of line printed at entry */
	size_t col;		/* column of the open line */
	bool in_syscall;
	bool filtered;		/* -P: this syscall touches none of the paths */
	unsigned notes;		/* the injector's INJ_NOTE_* for this syscall */
	bool done;		/* decoder finished at entry */
	bool staged;		/* held back until exit (-e status=) */
	bool unfinished;	/* line was cut by another thread */
	struct dec_ctx dc;
	struct sbuf prefix;	/* leader printed at entry (staged lines) */
	double t_entry;
	struct timespec tv_entry;
	int stop_sig;
	/* The call that ended with ERESTART_RESTARTBLOCK, if the last did. */
	const char *interrupted;
	long lead_nr;		/* -n: the syscall of the line */
	uint64_t lead_ip;	/* -i */
	bool ip_known;
	char comm[64];		/* -Y: last seen /proc/TID/comm */
	struct unwinder *uw;	/* -k: its process's, shared */
	struct sbuf stack;	/* -k: taken at entry, printed at exit */
	struct sbuf lead, tail;	/* scratch for one line, kept for the next */
	bool stack_queued;
	bool exec_first;	/* -k: the spawned command's own execve */
	struct sock_cache *sockets;	/* -yy: shared by all threads */
	/*
	 * The syscall comes from a record (utrace_from_record): its memory
	 * is what its capture rules took, for the arguments it was made with.
	 */
	bool from_rec;
	unsigned long rargs[6];
	struct dcap rules[DCAP_MAX];
	int nrules;
};

static ssize_t mem_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return utrace_mem_read(ctx, addr, buf, len);
}

/*
 * A decoder's read of a syscall that comes from a record: the capture
 * rules (records.c) must hold it, else the record answers less than the
 * stopped thread would and the line could differ from the stop path's:
 * a bug of the rules' table (decode/capture.c), said once per syscall.
 */
static ssize_t rec_mem_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct pthr *t = ctx;
	long nr = t->dc.nr;

	if (!dec_capture_covers(t->rules, t->nrules < 0 ? 0 : t->nrules,
				t->rargs, t->dc.ret, t->dc.exiting, addr, len) &&
	    nr >= 0 && nr < NR_MAX &&
	    !(t->p->missed[nr / 64] & (1ULL << (nr % 64)))) {
		const char *name = sys_name(nr);

		t->p->missed[nr / 64] |= 1ULL << (nr % 64);
		sink_msg(t->p->out, "bug: the record of %s(%ld) lacks %zu "
			 "bytes at %#llx its decoding reads (at its %s); its "
			 "line may differ from a stop's (--stops-only)",
			 name ? name : "syscall", nr, len,
			 (unsigned long long)addr,
			 t->dc.exiting ? "exit" : "entry");
	}
	return utrace_mem_read(t->e, addr, buf, len);
}

/*
 * Whether the syscall being reported to e comes from a record; then its
 * decoders read through rec_mem_read, with the rules it was recorded by.
 */
static bool from_record(struct pthr *t, struct utrace_engine *e,
			const unsigned long *args)
{
	struct dcap_how how;

	t->from_rec = e && utrace_from_record(e) == 1;
	if (!t->from_rec)
		return false;
	memcpy(t->rargs, args, sizeof(t->rargs));
	records_how(&t->p->s, t->dc.nr, &how);
	t->nrules = dec_capture(t->dc.nr, &how, t->rules);
	return true;
}

/*
 * When the syscall reported to e entered the kernel (or, exiting, left
 * it): utrace_syscall_time(3), the thread's own time stamps for a record
 * and the stop's otherwise, so that -t, -tt, -r and -T say the same both
 * ways; now when it is not known (no engine: a joined queue's record).
 */
static void event_time(struct utrace_engine *e, bool exiting, double *mono,
		       struct timespec *real)
{
	struct timespec m[2], r[2];
	int i = exiting;

	if (!e || utrace_syscall_time(e, CLOCK_MONOTONIC, &m[0], &m[1]) < 0 ||
	    utrace_syscall_time(e, CLOCK_REALTIME, &r[0], &r[1]) < 0 ||
	    (!m[i].tv_sec && !m[i].tv_nsec)) {
		*mono = now_mono();
		clock_gettime(CLOCK_REALTIME, real);
		return;
	}
	*mono = (double)m[i].tv_sec + (double)m[i].tv_nsec / 1e9;
	*real = r[i];
}

void printer_note(struct pthr *t, unsigned notes)
{
	t->notes = notes;
}

void printer_defaults(struct printer_settings *s)
{
	memset(s, 0, sizeof(*s));
	memset(s->signals, true, sizeof(s->signals));
	memset(s->abbrev, true, sizeof(s->abbrev));
	memset(s->verbose, true, sizeof(s->verbose));
	s->status_mask = ST_ALL;
	s->strsize = 32;
	s->columns = 40;
	s->rel_digits = s->t_digits = 6;
}

/* --json: every output begins with the schema's header record. */
static void json_header_to(struct sink *o)
{
	struct sbuf b = { 0 };

	json_header(&b);
	sink_write(o, b.p, b.len);
	sb_free(&b);
}

struct printer *printer_new(const struct printer_settings *s,
			    struct sink *out)
{
	struct printer *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->s = *s;
	p->out = out;
	if (s->json)
		json_header_to(out);
	return p;
}

void printer_set_command(struct printer *p, pid_t pid)
{
	p->command = pid;
}

static void p_release(void *data);

void printer_free(struct printer *p)
{
	if (!p)
		return;
	while (p->threads) {
		p->threads->out->open = NULL;
		p_release(p->threads);
	}
	free(p);
}

void printer_flush(struct printer *p)
{
	struct pthr *t;

	sink_write_out(p->out, false);
	for (t = p->threads; t; t = t->next)
		if (t->out != p->out)
			sink_write_out(t->out, false);
}

bool printer_failed(struct printer *p)
{
	struct pthr *t;

	for (t = p->threads; t; t = t->next)
		if (t->out != p->out && t->out->failed)
			return true;
	return p->failed;
}

static bool staged_mode(const struct printer *p)
{
	return p->s.status_mask != ST_ALL;
}

/* "1234" or, with -Y, "1234<comm>". */
static void refresh_comm(struct pthr *t)
{
	char comm[sizeof(t->comm)];

	if (proc_comm(t->tid, comm, sizeof(comm)))
		memcpy(t->comm, comm, sizeof(t->comm));
}

/*
 * As strace's printleader: "[pid  123<sh>]" (wide: the number in 5
 * columns), or for -o FILE -f "123<sh> " and "123   " without a name;
 * the name quoted as a path between < and > is.  Whether one was shown.
 */
static bool put_pid(struct sbuf *b, struct pthr *t, bool wide)
{
	bool comm = false;

	if (t->p->s.decode_pids & DEC_PID_COMM) {
		refresh_comm(t);
		comm = t->comm[0];
	}
	if (wide)
		for (int w = 10000; w > 1 && t->tid < w; w /= 10)
			sb_putc(b, ' ');
	sb_putd(b, t->tid);
	if (comm) {
		sb_putc(b, '<');
		dec_quote(b, t->p->s.hexstr, (unsigned char *)t->comm,
			  strlen(t->comm), QUOTE_PATH_IN_FD);
		sb_putc(b, '>');
	}
	return comm;
}

static const long p10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000,
			      10000000, 100000000, 1000000000 };

/*
 * Thread-id prefix, timestamps, -n and -i, as strace's printleader.  The
 * number and address are the thread's last syscall's, or its registers'
 * at a signal; an address not known prints as question marks.
 */
static void leader(struct pthr *t, struct sbuf *b, const struct timespec *tv)
{
	struct printer *p = t->p;

	if (p->s.pids == PR_PIDS_ALWAYS) {
		size_t l = b->len;

		if (!put_pid(b, t, false))
			while (b->len - l < 5)
				sb_putc(b, ' ');
		sb_putc(b, ' ');
	} else if (p->s.pids == PR_PIDS_MANY && p->live > 1) {
		sb_puts(b, "[pid ");
		put_pid(b, t, true);
		sb_puts(b, "] ");
	}
	if (t->p->s.timestamps) {
		int d = t->p->s.ts_digits;
		long frac = tv->tv_nsec / p10[9 - d];

		if (t->p->s.timestamps >= 3) {
			sb_printf(b, "%ld", (long)tv->tv_sec);
		} else {
			struct tm tm;
			char s[32];

			localtime_r(&tv->tv_sec, &tm);
			strftime(s, sizeof(s), "%T", &tm);
			sb_puts(b, s);
		}
		if (d)
			sb_printf(b, ".%0*ld", d, frac);
		sb_putc(b, ' ');
	}
	if (t->p->s.relative) {
		struct timespec d;
		int n = t->p->s.rel_digits;

		if (!p->last_tv.tv_sec && !p->last_tv.tv_nsec)
			p->last_tv = *tv;
		d.tv_sec = tv->tv_sec - p->last_tv.tv_sec;
		d.tv_nsec = tv->tv_nsec - p->last_tv.tv_nsec;
		if (d.tv_nsec < 0) {
			d.tv_sec--;
			d.tv_nsec += 1000000000;
		}
		/* With -t too, strace writes "12:00:00 (+     0.000123) ". */
		sb_printf(b, "%s%6ld", t->p->s.timestamps ? "(+" : "",
			  (long)d.tv_sec);
		if (n)
			sb_printf(b, ".%0*ld", n, d.tv_nsec / p10[9 - n]);
		sb_puts(b, t->p->s.timestamps ? ") " : " ");
		p->last_tv = *tv;
	}
	if (t->p->s.print_nr)
		sb_printf(b, "[%4ld] ", t->lead_nr);
	if (t->p->s.print_ip) {
		if (t->ip_known)
			sb_printf(b, "[%016llx] ",
				  (unsigned long long)t->lead_ip);
		else
			sb_puts(b, "[????????????????] ");
	}
}

/* Close another thread's open line before writing ours. */
static void take_line(struct sink *o, struct pthr *t)
{
	struct pthr *p = o->open;

	if (p == t)
		return;
	if (o->f == stderr)
		sink_flush_msgs(o);	/* strace's form: "vfork(strace: Process..." */
	if (!p)
		return;
	sink_puts(o, " <unfinished ...>\n");
	p->unfinished = true;
	o->open = NULL;
}

/* The open line of o has just ended with a newline. */
static void line_ended(struct sink *o)
{
	o->open = NULL;
	if (o->f == stderr)
		sink_flush_msgs(o);
}

static void pad_equals(struct sink *o, size_t col, int columns)
{
	static const char sp[] = "                                        ";
	size_t n = col < (size_t)columns ? (size_t)columns - col : 1;

	for (; n > sizeof(sp) - 1; n -= sizeof(sp) - 1)
		sink_write(o, sp, sizeof(sp) - 1);
	sink_write(o, sp, n);
	sink_write(o, "= ", 2);
}

static void json_begin(struct sbuf *b, struct pthr *t, const char *type)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	sb_printf(b, "{\"type\":\"%s\",\"pid\":%d,\"tid\":%d,"
		  "\"time\":%ld.%06ld", type, t->tgid, t->tid,
		  (long)tv.tv_sec, (long)tv.tv_usec);
}

static void json_emit(struct pthr *t, struct sbuf *b)
{
	sb_puts(b, "}\n");
	sink_write(t->out, b->p, b->len);
	sb_free(b);
}

/* A buffer of the thread's, emptied: no allocation per line. */
static struct sbuf *scratch(struct sbuf *b)
{
	sb_reset(b);
	return b;
}

/*
 * -k, as strace: the stack follows the line of a syscall (taken at its
 * exit), of a signal and of a stop.  execve, execveat, exit and exit_group
 * take it at entry, to show the caller, and print it at exit or, for the
 * calls that do not return, after the "+++ exited" line; the execve that
 * starts the command is the exception (its stack is the new image's).
 */
static void stack_at_entry(struct pthr *t, struct utrace_engine *e, long nr)
{
	if (!t->uw)
		return;
	sb_reset(&t->stack);
	t->stack_queued = false;
	if (nr == SYS_execve || nr == SYS_execveat) {
		bool first = t->exec_first;

		t->exec_first = false;
		if (first)
			return;
	} else if (nr != SYS_exit && nr != SYS_exit_group) {
		return;
	}
	unwind_walk(t->uw, e, t->tid, &t->stack, true);
	t->stack_queued = true;
}

static void print_stack(struct pthr *t, struct utrace_engine *e)
{
	struct sbuf b = { 0 };

	if (!t->uw || t->p->s.json)
		return;
	if (t->stack_queued) {
		sink_write(t->out, t->stack.p, t->stack.len);
		sb_reset(&t->stack);
		t->stack_queued = false;
		return;
	}
	if (!e)
		return;
	unwind_walk(t->uw, e, t->tid, &b, false);
	sink_write(t->out, b.p, b.len);
	sb_free(&b);
}

/* A new line's decoder context: syscall nr as the settings print it. */
static void dc_setup(struct pthr *t, long nr)
{
	const struct printer_settings *s = &t->p->s;
	bool known = nr >= 0 && nr < NR_MAX;

	sb_reset(&t->line);
	dec_clear(&t->dc);
	t->dc.tid = t->tid;
	t->dc.nr = nr;
	t->dc.strsize = s->strsize;
	t->dc.decode_fds = s->decode_fds;
	t->dc.hexstr = s->hexstr;
	t->dc.xlat_style = s->xlat_style;
	t->dc.sockets = t->sockets;
	t->dc.no_abbrev = known && !s->abbrev[nr];
	t->dc.hide_structs = known && !s->verbose[nr];
	t->dc.raw = known && s->raw[nr];
	t->dc.decode_pids = s->decode_pids;
	t->dc.kvm_vcpu = s->kvm_vcpu;
	t->dc.out = &t->line;
}

/*
 * A syscall's entry, from an engine (e) or from a joined queue's record
 * (e NULL: no -P, no -k); memory is read with mem(ctx, ...), here and at
 * the exit.
 */
void printer_entry(struct pthr *t, const struct utrace_syscall *scp,
		   mem_read_fn mem, void *ctx, struct utrace_engine *e)
{
	struct utrace_syscall sc = *scp;
	const char *name;
	struct sbuf *lead = scratch(&t->lead);

	const struct printer_settings *s = &t->p->s;

	t->filtered = host_hidden(&s->host, t->tid, sc.nr) ||
		      (s->paths && s->paths->n && e &&
		       !trace_path_match(s->paths, e, t->tid, sc.nr, sc.args));
	if (t->filtered) {
		/* -k: the command's own execve is the first, shown or not. */
		if (sc.nr == SYS_execve || sc.nr == SYS_execveat)
			t->exec_first = false;
		return;
	}
	name = sys_name(sc.nr);
	t->lead_nr = sc.nr;
	t->lead_ip = sc.ip;
	t->ip_known = true;
	dc_setup(t, sc.nr);
	memcpy(t->dc.a, sc.args, sizeof(t->dc.a));
	if (from_record(t, e, sc.args)) {
		mem = rec_mem_read;
		ctx = t;
	}
	t->dc.mem_read = mem;
	t->dc.mem_ctx = ctx;
	t->dc.out = &t->line;
	t->dc.saved = sc.sp;
	if (sc.nr == SYS_restart_syscall)
		t->dc.interrupted = t->interrupted;
	if (name) {
		sb_puts(&t->line, name);
		sb_putc(&t->line, '(');
	} else {
		sb_printf(&t->line, "syscall_%#lx(", (unsigned long)sc.nr);
	}
	dec_begin(&t->dc);
	t->done = decode_syscall(&t->dc);
	if (e)
		stack_at_entry(t, e, sc.nr);
	t->entry_len = t->line.len;
	t->in_syscall = true;
	t->unfinished = false;
	event_time(e, false, &t->t_entry, &t->tv_entry);
	t->staged = staged_mode(t->p) || t->p->s.json;
	if (t->staged) {
		sb_reset(&t->prefix);
		leader(t, &t->prefix, &t->tv_entry);
		return;
	}
	take_line(t->out, t);
	leader(t, lead, &t->tv_entry);
	sink_write(t->out, lead->p, lead->len);
	sink_write(t->out, t->line.p, t->line.len);
	t->col = lead->len + t->line.len;
	t->out->open = t;
}

static uint32_t p_entry(uint32_t action, struct utrace_engine *e)
{
	struct utrace_syscall sc;

	if (action & UTRACE_SYSCALL_RESUMED)
		return utrace_pass(action, UTRACE_RESUME);
	if (utrace_syscall_get(e, &sc) < 0)
		return utrace_pass(action, UTRACE_RESUME);
	printer_entry(utrace_engine_data(e), &sc, mem_read, e, e);
	return utrace_pass(action, UTRACE_RESUME);
}

/*
 * --json's syscall record (schema in utrace(1)): each argument's text and
 * value (engines/json.c), the registers, the result, the time, what the
 * injector did, and the data -e read=/write= dumps.
 */
static void json_syscall(struct pthr *t, bool finished, double dur)
{
	struct sbuf b = { 0 };
	const char *name = sys_name(t->dc.nr);
	struct sbuf rv = { 0 };
	int i;

	json_begin(&b, t, "syscall");
	sb_puts(&b, ",\"syscall\":");
	if (name)
		sb_json_str(&b, name, strlen(name));
	else
		sb_printf(&b, "\"syscall_%#lx\"", (unsigned long)t->dc.nr);
	sb_printf(&b, ",\"nr\":%ld,\"args\":[", t->dc.nr);
	for (i = 0; i < t->dc.nargs; i++) {
		size_t s = t->dc.argpos[i];
		size_t end = i + 1 < t->dc.nargs ? t->dc.argpos[i + 1] - 2 :
			     t->line.len;

		if (s > t->line.len || end < s)
			break;
		if (i == 0 && end == s)
			break;
		sb_puts(&b, i ? "," : "");
		json_text_value(&b, t->line.p + s, end - s);
	}
	sb_puts(&b, "],\"raw_args\":[");
	for (i = 0; i < 6; i++)
		sb_printf(&b, "%s%lu", i ? "," : "", t->dc.a[i]);
	sb_puts(&b, "]");
	if (finished) {
		long r = t->dc.ret;

		sb_printf(&b, ",\"retval\":%ld", r);
		if (r < 0 && r >= -4095) {
			const char *en = strerrorname_np((int)-r);

			sb_printf(&b, ",\"errno\":\"%s\"", en ? en : "E???");
		} else {
			sb_puts(&b, ",\"errno\":null");
		}
		decode_retval(&t->dc, &rv, false);
		sb_puts(&b, ",\"result\":");
		sb_json_str(&b, rv.p, rv.len);
		sb_free(&rv);
		sb_printf(&b, ",\"duration\":%.6f", dur);
		if (t->notes & INJ_NOTE_INJECTED)
			sb_puts(&b, ",\"injected\":true");
		if (t->notes & INJ_NOTE_DELAYED)
			sb_puts(&b, ",\"delayed\":true");
		dump_io_json(&b, &t->dc, t->p->s.read_fds, t->p->s.write_fds);
	} else {
		sb_puts(&b, ",\"retval\":null,\"errno\":null,\"duration\":null,"
			"\"unfinished\":true");
	}
	json_emit(t, &b);
}

static bool status_wanted(struct pthr *t)
{
	long r = t->dc.ret;

	if (r < 0 && r >= -4095)
		return t->p->s.status_mask & ST_FAILED;
	return t->p->s.status_mask & ST_SUCCESSFUL;
}

/* A syscall's exit, from an engine (e) or a joined queue's record. */
void printer_exit(struct pthr *t, const struct utrace_syscall *scp,
		  struct utrace_engine *e)
{
	struct utrace_syscall sc = *scp;
	struct sbuf *tail = scratch(&t->tail);
	struct sink *o = t->out;
	struct timespec tv_exit;
	double dur, t_exit;

	if (t->filtered || host_hidden(&t->p->s.host, t->tid, -1)) {
		t->filtered = false;
		return;
	}
	if (t->p->s.decode_pids & DEC_PID_COMM)
		refresh_comm(t);	/* a successful execve renames */
	event_time(e, true, &t_exit, &tv_exit);
	if (!t->in_syscall) {
		/* Attached in the middle of a syscall: no entry was seen. */
		const char *name = sys_name(sc.nr);

		t->lead_nr = sc.nr;
		t->lead_ip = sc.ip;
		t->ip_known = true;
		dc_setup(t, sc.nr);
		t->entry_len = 0;
		t->done = true;
		t->unfinished = true;
		t->staged = staged_mode(t->p) || t->p->s.json;
		sb_reset(&t->prefix);
		t->tv_entry = tv_exit;
		t->t_entry = t_exit;
		leader(t, &t->prefix, &t->tv_entry);
		sb_printf(&t->prefix, "<... %s resumed>",
			  name ? name : "syscall");
		dec_begin(&t->dc);
	}
	t->in_syscall = false;
	t->interrupted = sc.ret == -516 /* ERESTART_RESTARTBLOCK */ ?
			 sys_name(t->dc.nr) : NULL;
	t->dc.ret = sc.ret;
	t->dc.exiting = true;
	memcpy(t->dc.a, sc.args, sizeof(t->dc.a));
	/* The exit's memory: a record's, or a stop's (its entry's may differ). */
	if (t->dc.mem_read && from_record(t, e, sc.args)) {
		t->dc.mem_read = rec_mem_read;
		t->dc.mem_ctx = t;
	} else if (t->dc.mem_read && e) {
		t->dc.mem_read = mem_read;
		t->dc.mem_ctx = e;
	}
	if (!t->done)
		decode_syscall(&t->dc);
	dur = t_exit - t->t_entry;
	if (t->p->s.json) {
		if (status_wanted(t))
			json_syscall(t, true, dur);
		return;
	}
	if (t->staged) {
		if (!status_wanted(t)) {
				t->stack_queued = false;
			return;
		}
		take_line(o, t);
		sink_write(o, t->prefix.p, t->prefix.len);
		t->col = t->prefix.len;
		if (!t->unfinished || t->entry_len)
			t->entry_len = 0;
		t->unfinished = false;
	} else if (o->open != t) {
		struct sbuf *lead = scratch(&t->lead);
		const char *name = sys_name(t->dc.nr);

		take_line(o, t);
		leader(t, lead, &t->tv_entry);
		t->tv_entry = tv_exit;
		sb_printf(lead, "<... %s resumed>", name ? name : "syscall");
		sink_write(o, lead->p, lead->len);
		t->col = lead->len;
	}
	sb_putn(tail, t->line.p + t->entry_len, t->line.len - t->entry_len);
	sb_putc(tail, ')');
	sink_write(o, tail->p, tail->len);
	t->col += tail->len;
	pad_equals(o, t->col, t->p->s.columns);
	sb_reset(tail);
	decode_retval(&t->dc, tail, t->notes & INJ_NOTE_INJECTED);
	if (t->notes & INJ_NOTE_DELAYED)
		sb_puts(tail, " (DELAYED)");
	if (t->p->s.syscall_times) {
		int n = t->p->s.t_digits;
		long long ns = (long long)(dur * 1e9 + 0.5);
		long sec = (long)(ns / 1000000000);
		long frac = (long)(ns % 1000000000) / p10[9 - n];

		if (n)
			sb_printf(tail, " <%ld.%0*ld>", sec, n, frac);
		else
			sb_printf(tail, " <%ld>", sec);
	}
	sb_putc(tail, '\n');
	dump_io(tail, &t->dc, t->p->s.read_fds, t->p->s.write_fds);
	sink_write(o, tail->p, tail->len);
	line_ended(o);
	print_stack(t, e);
}

static uint32_t p_exit(uint32_t action, struct utrace_engine *e)
{
	struct pthr *t = utrace_engine_data(e);
	struct utrace_syscall sc;

	/* What the injector did to this syscall, if anything. */
	t->notes = t->p->s.injector ?
		   injector_take_notes(t->p->s.injector, t->tr, t->tid) : 0;
	if (t->filtered || host_hidden(&t->p->s.host, t->tid, -1)) {
		t->filtered = false;
		t->notes = 0;
		return utrace_pass(action, UTRACE_RESUME);
	}
	if (utrace_syscall_get(e, &sc) < 0)
		return utrace_pass(action, UTRACE_RESUME);
	printer_exit(t, &sc, e);
	return utrace_pass(action, UTRACE_RESUME);
}

/* A syscall that never returns (exit_group, a thread killed in it). */
static void finish_unreturned(struct pthr *t)
{
	struct sink *o = t->out;

	if (!t->in_syscall)
		return;
	t->in_syscall = false;
	if (t->p->s.json) {
		json_syscall(t, false, 0);
		return;
	}
	if (t->staged) {
		if (!(t->p->s.status_mask & ST_UNFINISHED))
			return;
		take_line(o, t);
		sink_write(o, t->prefix.p, t->prefix.len);
		sink_write(o, t->line.p, t->line.len);
		t->col = t->prefix.len + t->line.len;
	} else if (o->open != t) {
		struct sbuf *lead = scratch(&t->lead);
		const char *name = sys_name(t->dc.nr);
		struct timespec tv;

		take_line(o, t);
		clock_gettime(CLOCK_REALTIME, &tv);
		leader(t, lead, &tv);
		sb_printf(lead, "<... %s resumed>", name ? name : "syscall");
		sink_write(o, lead->p, lead->len);
		t->col = lead->len;
	}
	sink_write(o, ")", 1);
	t->col++;
	pad_equals(o, t->col, t->p->s.columns);
	sink_write(o, "?\n", 2);
	line_ended(o);
}

static void event_line(struct pthr *t, const char *text)
{
	struct sbuf *lead = scratch(&t->lead);
	struct timespec tv;

	take_line(t->out, t);
	clock_gettime(CLOCK_REALTIME, &tv);
	leader(t, lead, &tv);
	sb_puts(lead, text);
	sb_putc(lead, '\n');
	sink_write(t->out, lead->p, lead->len);
}

/*
 * A signal (action: the disposition bits report_signal gets); regs, when
 * known, for -n and -i; e for -k.
 */
void printer_signal(struct pthr *t, uint32_t action, const siginfo_t *info,
		    const struct user_regs_struct *regs,
		    struct utrace_engine *e)
{
	enum utrace_signal_action sa = utrace_signal_action(action);
	struct fd_view fds = { t->sockets, t->tid, t->p->s.decode_fds,
			       t->p->s.hexstr, t->p->s.decode_pids };
	struct sbuf b = { 0 };

	if (!signal_arrives(action, info, &t->sig_held) ||
	    host_hidden(&t->p->s.host, t->tid, -1))
		return;
	if (info->si_signo < 1 || info->si_signo > 64 ||
	    !t->p->s.signals[info->si_signo])
		return;
	if (sa == UTRACE_SIGNAL_STOP || sa == UTRACE_SIGNAL_TSTP)
		t->stop_sig = info->si_signo;
	if (regs) {
		t->lead_nr = (long)regs->orig_rax;
		t->lead_ip = regs->rip;
		t->ip_known = true;
	}
	if (t->p->s.json) {
		json_begin(&b, t, "signal");
		sb_printf(&b, ",\"signal\":\"%s\",\"siginfo\":",
			  signame(info->si_signo));
		{
			struct sbuf si = { 0 };

			format_siginfo(&si, t->p->s.xlat_style, info, &fds);
			json_text_value(&b, si.p, si.len);
			sb_free(&si);
		}
		json_emit(t, &b);
		return;
	}
	sb_printf(&b, "--- %s ", signame(info->si_signo));
	format_siginfo(&b, t->p->s.xlat_style, info, &fds);
	sb_puts(&b, " ---");
	event_line(t, b.p);
	sb_free(&b);
	print_stack(t, e);
}

static uint32_t p_signal(uint32_t action, struct utrace_engine *e,
			 siginfo_t *info)
{
	struct pthr *t = utrace_engine_data(e);
	struct user_regs_struct regs;
	bool have = (t->p->s.print_nr || t->p->s.print_ip) &&
		    utrace_regs_get(e, &regs) == 0;

	printer_signal(t, action, info,
		       have ? &regs : NULL, e);
	return utrace_pass(action, UTRACE_RESUME);
}

/* A job-control stop or continue (CLD_STOPPED, CLD_CONTINUED). */
void printer_jctl(struct pthr *t, int type, struct utrace_engine *e)
{
	char buf[64];

	if (type != CLD_STOPPED)
		return;
	if (t->p->s.json) {
		struct sbuf b = { 0 };

		json_begin(&b, t, "stopped");
		sb_printf(&b, ",\"signal\":\"%s\"",
			  t->stop_sig ? signame(t->stop_sig) : "SIGSTOP");
		json_emit(t, &b);
		return;
	}
	snprintf(buf, sizeof(buf), "--- stopped by %s ---",
		 t->stop_sig ? signame(t->stop_sig) : "SIGSTOP");
	event_line(t, buf);
	print_stack(t, e);
}

static uint32_t p_jctl(uint32_t action, struct utrace_engine *e, int type,
		       int notify)
{
	printer_jctl(utrace_engine_data(e), type, e);
	return utrace_pass(action, UTRACE_RESUME);
}

/*
 * The death libutrace reports for a leader whose process another thread
 * executed in (report_exec with former_tid follows in that thread): the
 * process lives on, so the group is not dead.
 */
static bool superseded(const struct pthr *t, bool group_dead)
{
	return t->tid == t->tgid && !group_dead;
}

/*
 * -n: strace stops at every syscall, so its exit line carries the exit or
 * exit_group the thread made (or the syscall a signal killed it in);
 * the seccomp filter hides those, but the registers at the exit stop
 * still hold the number.
 */
static uint32_t p_exit_ev(uint32_t action, struct utrace_engine *e, int status)
{
	struct pthr *t = utrace_engine_data(e);
	struct user_regs_struct regs;

	(void)status;
	if (utrace_regs_get(e, &regs) == 0)
		t->lead_nr = (long)regs.orig_rax;
	return utrace_pass(action, UTRACE_RESUME);
}

static uint32_t death_line(struct pthr *t, bool group_dead, int status)
{
	char buf[96];

	finish_unreturned(t);
	t->ip_known = false;	/* strace: [????????????????] */
	if (superseded(t, group_dead))
		return UTRACE_RESUME;
	/*
	 * As strace: -qq hides exits, not deaths by a signal; those follow
	 * -e signal= instead.
	 */
	if (WIFSIGNALED(status) ? !t->p->s.signals[WTERMSIG(status)] :
				  (t->p->s.quiet & Q_EXIT))
		return UTRACE_RESUME;
	if (t->p->s.json) {
		struct sbuf b = { 0 };

		if (WIFSIGNALED(status)) {
			json_begin(&b, t, "killed");
			sb_printf(&b, ",\"signal\":\"%s\",\"core\":%s",
				  signame(WTERMSIG(status)),
				  WCOREDUMP(status) ? "true" : "false");
		} else {
			json_begin(&b, t, "exited");
			sb_printf(&b, ",\"status\":%d", WEXITSTATUS(status));
		}
		json_emit(t, &b);
		return UTRACE_RESUME;
	}
	if (WIFSIGNALED(status))
		snprintf(buf, sizeof(buf), "+++ killed by %s%s +++",
			 signame(WTERMSIG(status)),
			 WCOREDUMP(status) ? " (core dumped)" : "");
	else
		snprintf(buf, sizeof(buf), "+++ exited with %d +++",
			 WEXITSTATUS(status));
	event_line(t, buf);
	return UTRACE_RESUME;
}

/* -k: a stack taken at the entry of exit or exit_group follows. */
void printer_death(struct pthr *t, bool group_dead, int status)
{
	death_line(t, group_dead, status);
	print_stack(t, NULL);
}

static uint32_t p_death(struct utrace_engine *e, bool group_dead, int status)
{
	printer_death(utrace_engine_data(e), group_dead, status);
	return UTRACE_RESUME;
}

/*
 * A thread other than the leader executed: it now has the leader's id
 * (libutrace moved this engine with it) and, as in strace, continues the
 * leader's trace: the leader's line prefix and, with -ff, its file.
 */
/*
 * tid: the thread's id after the exec.  Returns UTRACE_DETACH when -b
 * execve lets the thread go, else UTRACE_RESUME.
 */
uint32_t printer_exec(struct pthr *t, pid_t tid, pid_t former)
{
	char buf[96];

	if (host_detaching(&t->p->s.host, tid)) {
		/* -b execve: utrace said "Process N detached" already. */
		if (t->out->open == t) {
			sink_puts(t->out, " <detached ...>\n");
			line_ended(t->out);
		}
		t->tid = tid;
		t->reaped = true;
		t->p->live--;
		return UTRACE_DETACH;
	}
	if (former == tid || t->tid == tid)
		return UTRACE_RESUME;
	if (t->out->open == t) {
		char msg[64];

		snprintf(msg, sizeof(msg), " <pid changed to %d ...>\n", tid);
		sink_puts(t->out, msg);
		t->unfinished = true;
		line_ended(t->out);
	}
	t->tid = tid;
	t->tgid = tid;
	if (t->out != t->p->out) {
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s.%d", t->p->s.ff_prefix, tid);
		f = fopen(path, "ae");
		if (f) {
			sink_write_out(t->out, true);
			fclose(t->out->f);
			sink_reopen(t->out, f, path);
		}
	}
	if (t->staged) {
		sb_reset(&t->prefix);
		leader(t, &t->prefix, &t->tv_entry);
	}
	if (t->p->s.quiet & Q_THREAD_EXECVE)
		return UTRACE_RESUME;
	if (t->p->s.json) {
		struct sbuf b = { 0 };

		json_begin(&b, t, "superseded");
		sb_printf(&b, ",\"former_tid\":%d", former);
		json_emit(t, &b);
		return UTRACE_RESUME;
	}
	snprintf(buf, sizeof(buf), "+++ superseded by execve in pid %d +++",
		 former);
	event_line(t, buf);
	return UTRACE_RESUME;
}

static uint32_t p_exec(uint32_t action, struct utrace_engine *e,
		       pid_t former)
{
	uint32_t r = printer_exec(utrace_engine_data(e), utrace_engine_tid(e),
				  former);

	return r == UTRACE_DETACH ? r : utrace_pass(action, UTRACE_RESUME);
}

static void p_reap(struct utrace_engine *e)
{
	struct pthr *t = utrace_engine_data(e);

	if (t->out->open == t)
		line_ended(t->out);
	if (t->out != t->p->out)
		sink_write_out(t->out, true);	/* an exec'ing thread may append */
	t->reaped = true;
	t->p->live--;
}

static void p_release(void *data)
{
	struct pthr *t = data, **pp;
	struct printer *p = t->p;

	for (pp = &p->threads; *pp; pp = &(*pp)->next)
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	if (t->out->open == t) {
		sink_puts(t->out, " <detached ...>\n");
		line_ended(t->out);
	}
	if (t->out != p->out && sink_free(t->out))
		p->failed = true;
	sb_free(&t->line);
	sb_free(&t->prefix);
	sb_free(&t->stack);
	sb_free(&t->lead);
	sb_free(&t->tail);
	unwinder_put(t->uw);
	sock_cache_put(t->sockets);
	free(t);
}

/* -Y: a new child's name, while it is held before it runs. */
static uint32_t p_clone(uint32_t action, struct utrace_engine *e,
			unsigned long clone_flags, pid_t child)
{
	struct pthr *t = utrace_engine_data(e);

	t->dc.child = child;
	if (!proc_comm(child, t->dc.child_comm, sizeof(t->dc.child_comm)))
		t->dc.child_comm[0] = '\0';
	return utrace_pass(action, UTRACE_RESUME);
}

static const struct utrace_engine_ops printer_ops = {
	.report_syscall_entry = p_entry,
	.report_syscall_exit = p_exit,
	.report_signal = p_signal,
	.report_jctl = p_jctl,
	.report_clone = p_clone,
	.report_exec = p_exec,
	.report_exit = p_exit_ev,
	.report_death = p_death,
	.report_reap = p_reap,
	.release = p_release,
};

/*
 * -k: the threads of a process share its unwinder; the engine that tells
 * it about mapping changes is attached first, to see each exit before us.
 */
static int stack_attach(struct pthr *t, struct utrace_tracer *tr)
{
	struct pthr *o;

	for (o = t->p->threads; o; o = o->next)
		if (o->tgid == t->tgid && o->uw && !o->reaped)
			break;
	t->uw = o ? unwinder_get(o->uw) : unwinder_new(t->tgid, t->p->out);
	if (!t->uw)
		return -ENOMEM;
	t->exec_first = t->tid == t->p->command;
	return unwind_attach(tr, t->tid, t->uw);
}

/*
 * A thread's printing state, on no engine yet (tr: the tracer it will be
 * attached in, NULL for a joined queue's thread); 0 or -errno.
 */
static int thread_new(struct printer *p, struct utrace_tracer *tr,
		      pid_t tid, pid_t tgid, struct pthr **out)
{
	struct pthr *t = calloc(1, sizeof(*t));
	int err;

	if (!t)
		return -ENOMEM;
	t->p = p;
	t->tr = tr;
	t->tid = tid;
	t->tgid = tgid;
	t->out = p->out;
	if (p->s.ff_prefix) {
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s.%d", p->s.ff_prefix, tid);
		f = fopen(path, p->s.append ? "ae" : "we");
		if (!f) {
			fprintf(stderr, "utrace: can't fopen '%s': %s\n", path,
				strerror(errno));
			free(t);
			return -EIO;
		}
		t->out = sink_new(f, path);
		if (!t->out) {
			fclose(f);
			free(t);
			return -ENOMEM;
		}
		if (p->s.json)
			json_header_to(t->out);
	}
	if (p->s.decode_fds & DF_SOCKET) {
		/* strace keeps one cache of socket details for all */
		t->sockets = p->threads ? sock_cache_get(p->threads->sockets) :
					  sock_cache_new();
	}
	if (p->s.stack_trace && !p->s.json && tr) {	/* --json: no stacks */
		err = stack_attach(t, tr);
		if (err) {
			t->out->open = NULL;
			p_release(t);
			return err;
		}
	}
	*out = t;
	return 0;
}

/*
 * A thread printed from a joined queue's records (join.c): its state,
 * counted among the live threads (the "[pid N]" prefixes) until
 * printer_thread_end.
 */
struct pthr *printer_thread_new(struct printer *p, pid_t tid, pid_t tgid)
{
	struct pthr *t;

	if (thread_new(p, NULL, tid, tgid, &t))
		return NULL;
	t->next = p->threads;
	p->threads = t;
	p->live++;
	return t;
}

/* The thread is gone (its death printed) or let go: its state goes too. */
void printer_thread_end(struct pthr *t)
{
	if (t->out->open == t)
		line_ended(t->out);
	if (!t->reaped)
		t->p->live--;
	t->reaped = true;
	p_release(t);
}

int printer_attach(struct printer *p, struct utrace_tracer *tr, pid_t tid,
		   pid_t tgid)
{
	struct utrace_engine *e;
	struct pthr *t;
	int err;

	err = thread_new(p, tr, tid, tgid, &t);
	if (err)
		return err;
	err = utrace_attach(tr, tid, UTRACE_ATTACH_CREATE, &printer_ops, t,
			    &e);
	if (err) {
		t->out->open = NULL;
		p_release(t);
		return err;
	}
	t->e = e;
	t->next = p->threads;
	p->threads = t;
	p->live++;
	utrace_set_syscalls(e, p->s.nrs, p->s.nnrs);
	/* It only looks: its syscalls may come from records (records.c). */
	if (printer_observes(&p->s))
		utrace_set_observer(e, true);
	err = utrace_set_events(e, UTRACE_EVENT_SYSCALL |
				UTRACE_EVENT_SIGNAL_ALL | UTRACE_EVENT(JCTL) |
				UTRACE_EVENT(EXEC) | UTRACE_EVENT(DEATH) |
				UTRACE_EVENT(REAP) |
				(p->s.print_nr ? UTRACE_EVENT(EXIT) : 0) |
				(p->s.decode_pids & DEC_PID_COMM ?
				 UTRACE_EVENT(CLONE) : 0));
	utrace_engine_put(e);
	return err;
}

void printer_detach(struct printer *p, pid_t tid)
{
	struct pthr *t;

	for (t = p->threads; t; t = t->next)
		if (t->tid == tid && !t->reaped && t->out->open == t) {
			sink_puts(t->out, " <detached ...>\n");
			line_ended(t->out);
		}
}
