// SPDX-License-Identifier: LGPL-2.1-or-later
/* Command-line parsing, with strace's option letters and meanings. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options/parse.h"

void opt_die(const char *fmt, ...)
{
	va_list ap;

	fputs("utrace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'utrace -h' for more information.\n", stderr);
	exit(1);
}

void opt_die_plain(const char *fmt, ...)
{
	va_list ap;

	fputs("utrace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Long options of -e read=, -e write= and -e abbrev=. */
enum { OPT_READ = 1024, OPT_WRITE, OPT_ABBREV };

/* What the parse has seen so far, beside the options it fills. */
struct parser {
	struct options *o;
	bool quiet_set;		/* -e quiet= or --quiet seen */
	int ts_format;		/* --timestamps format: 0 none, 1 time, 3 unix */
	int ts_prec;		/* --timestamps precision (-1: not given) */
	int xs;			/* -x seen (count) */
	bool long_seen;		/* --strings-in-hex seen */
};

/* -e kvm=vcpu: the only value strace takes. */
static void parse_kvm(struct options *o, const char *v)
{
	if (strcmp(v, "vcpu"))
		opt_die_plain("invalid -e kvm= argument: '%s'", v);
	o->print.kvm_vcpu = true;
}

/*
 * -e NAME=SET, strace's qualifiers and their short names; an unknown
 * NAME (or none) makes the whole expression a trace set, as in strace.
 */
static void parse_expr(struct parser *ps, const char *e)
{
	enum {
		Q_TRACE, Q_ABBREV, Q_VERBOSE, Q_RAW, Q_SIGNAL, Q_STATUS,
		Q_QUIET, Q_READ, Q_WRITE, Q_FAULT, Q_INJECT, Q_KVM,
		Q_DECODE_FD, Q_DECODE_PID, Q_SECONTEXT,
	};
	static const struct {
		const char *name;
		int what;
	} quals[] = {
		{ "trace", Q_TRACE }, { "t", Q_TRACE },
		{ "abbrev", Q_ABBREV }, { "a", Q_ABBREV },
		{ "verbose", Q_VERBOSE }, { "v", Q_VERBOSE },
		{ "raw", Q_RAW }, { "x", Q_RAW },
		{ "signal", Q_SIGNAL }, { "signals", Q_SIGNAL },
		{ "s", Q_SIGNAL }, { "status", Q_STATUS },
		{ "quiet", Q_QUIET }, { "silent", Q_QUIET },
		{ "silence", Q_QUIET }, { "q", Q_QUIET },
		{ "read", Q_READ }, { "reads", Q_READ }, { "r", Q_READ },
		{ "write", Q_WRITE }, { "writes", Q_WRITE }, { "w", Q_WRITE },
		{ "fault", Q_FAULT }, { "inject", Q_INJECT },
		{ "kvm", Q_KVM }, { "decode-fd", Q_DECODE_FD },
		{ "decode-fds", Q_DECODE_FD }, { "decode-pid", Q_DECODE_PID },
		{ "decode-pids", Q_DECODE_PID }, { "secontext", Q_SECONTEXT },
	};
	struct options *o = ps->o;
	const char *v = e;
	int what = Q_TRACE;
	size_t i;

	for (i = 0; i < sizeof(quals) / sizeof(quals[0]); i++) {
		size_t n = strlen(quals[i].name);

		if (!strncmp(e, quals[i].name, n) && e[n] == '=') {
			v = e + n + 1;
			what = quals[i].what;
			break;
		}
	}
	switch (what) {
	case Q_TRACE:
		parse_syscall_set(v, o->trace_set, "-e trace");
		o->trace_all = false;
		break;
	case Q_ABBREV: parse_syscall_set(v, o->print.abbrev, "-e abbrev"); break;
	case Q_VERBOSE: parse_syscall_set(v, o->print.verbose, "-e verbose"); break;
	case Q_RAW: parse_syscall_set(v, o->print.raw, "-e raw"); break;
	case Q_SIGNAL: parse_signal_set(o, v); break;
	case Q_STATUS: parse_status_set(o, v); break;
	case Q_QUIET:
		parse_quiet_set(o, v);
		ps->quiet_set = true;
		break;
	case Q_READ: parse_fd_set(&o->read_fds, v); break;
	case Q_WRITE: parse_fd_set(&o->write_fds, v); break;
	case Q_FAULT: parse_fault(o, v); break;
	case Q_INJECT: parse_inject(o, v); break;
	case Q_KVM: parse_kvm(o, v); break;
	case Q_DECODE_FD: parse_decode_fds(o, v); break;
	case Q_DECODE_PID: parse_decode_pids(o, v); break;
	case Q_SECONTEXT:
		/* strace's words when built without SELinux, as Debian's is. */
		opt_die_plain("SELinux context printing (--secontext option) "
			      "is not supported by this build of utrace");
	}
}

enum {
	OPT_JSON = 256, OPT_TIMELINE, OPT_INJECT, OPT_TRACE, OPT_SIGNAL,
	OPT_STATUS, OPT_FF, OPT_QUIET, OPT_DECODE_FDS, OPT_SECCOMP,
	OPT_ABS_TS, OPT_REL_TS, OPT_SC_TIMES, OPT_DECODE_PIDS, OPT_DAEMONIZE,
	OPT_PIDNS, OPT_TIPS, OPT_VERBOSE, OPT_RAW, OPT_KVM,
	OPT_GDB = 0x7900, OPT_NO_SERVE, OPT_GDB_ANY_HOST, OPT_STOPS_ONLY, OPT_RECORDS,
};

/*
 * strace's refusal of an option's argument, naming the option as it was
 * given: "invalid -s argument: 'X'" or "invalid --string-limit ...".
 */
static void __attribute__((noreturn))
bad_arg(int c, int lidx, const struct option *longopts, const char *arg)
{
	if (lidx >= 0)
		opt_die("invalid --%s argument: '%s'", longopts[lidx].name,
			arg ? arg : "");
	opt_die("invalid -%c argument: '%s'", c, arg ? arg : "");
}

/* A whole number from 0 to max, or the option's refusal. */
static unsigned long uint_arg(int c, int lidx, const struct option *longopts,
			      const char *arg, unsigned long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (!*arg || *end || errno || v < 0 || (unsigned long)v > max)
		bad_arg(c, lidx, longopts, arg);
	return (unsigned long)v;
}

/*
 * -O: a duration as strace's parse_ts() reads it, a whole or decimal
 * number with s, ms, us (the default) or ns after it; in seconds.
 */
static int parse_duration(const char *s, double *out)
{
	static const struct {
		const char *sfx;
		double scale;
	} units[] = { { "", 1e-6 }, { "s", 1 }, { "ms", 1e-3 },
		      { "us", 1e-6 }, { "ns", 1e-9 } };
	char *end;
	double v;
	size_t i;

	if (!*s || strspn(s, "eE.-+0123456789") == 0)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || v < 0)
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].sfx)) {
			*out = v * units[i].scale;
			return 0;
		}
	return -1;
}

/* --tips[=[[id:]ID][,[format:]FORMAT]]: ID a number or random. */
static int parse_tips(struct options *o, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	int fmt = o->tips == TIPS_NONE ? TIPS_COMPACT : o->tips;
	int id = o->tips == TIPS_NONE ? -1 : o->tip_id, err = 0;

	if (!copy)
		opt_die_plain("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		bool may_id = true, may_fmt = true;
		char *end;

		if (!strncasecmp(tok, "id:", 3)) {
			tok += 3;
			may_fmt = false;
		} else if (!strncasecmp(tok, "format:", 7)) {
			tok += 7;
			may_id = false;
		}
		if (may_id && !strcasecmp(tok, "random")) {
			id = -1;
		} else if (may_id && *tok >= '0' && *tok <= '9') {
			long v = strtol(tok, &end, 10);

			if (*end || v > 0x7fffffff)
				err = -1;
			id = (int)v;
		} else if (may_fmt && !strcasecmp(tok, "none")) {
			fmt = TIPS_NONE;
		} else if (may_fmt && !strcasecmp(tok, "compact")) {
			fmt = TIPS_COMPACT;
		} else if (may_fmt && !strcasecmp(tok, "full")) {
			fmt = TIPS_FULL;
		} else {
			err = -1;
		}
	}
	free(copy);
	if (!err) {
		o->tips = fmt;
		o->tip_id = id;
	}
	return err;
}

/* s, ms, us, ns: digits after the point; -1 if none of these. */
static int precision_digits(const char *s)
{
	if (!strcmp(s, "s"))
		return 0;
	if (!strcmp(s, "ms"))
		return 3;
	if (!strcmp(s, "us"))
		return 6;
	if (!strcmp(s, "ns"))
		return 9;
	return -1;
}

/* --timestamps=[format:]FORMAT,[precision:]PRECISION */
static void parse_ts_arg(struct parser *ps, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const char *v = tok;
		int what = 0;	/* 1 format, 2 precision */

		if (!strncmp(tok, "format:", 7)) {
			v = tok + 7;
			what = 1;
		} else if (!strncmp(tok, "precision:", 10)) {
			v = tok + 10;
			what = 2;
		}
		if (what != 2 && !strcmp(v, "none"))
			ps->ts_format = 0;
		else if (what != 2 && !strcmp(v, "time"))
			ps->ts_format = 1;
		else if (what != 2 && !strcmp(v, "unix"))
			ps->ts_format = 3;
		else if (what != 1 && precision_digits(v) >= 0)
			ps->ts_prec = precision_digits(v);
		else
			opt_die("invalid --timestamps argument: '%s'", arg);
	}
	free(copy);
}

/* -E VAR=VAL puts VAR=VAL in the command's environment; -E VAR removes. */
static void env_edit(struct options *o, const char *arg)
{
	extern char **environ;
	size_t n = 0, i, j, klen = strcspn(arg, "=");

	if (!o->envp) {
		while (environ[n])
			n++;
		o->envp = calloc(n + 1, sizeof(char *));
		if (!o->envp)
			opt_die_plain("out of memory");
		for (i = 0; i < n; i++)
			o->envp[i] = environ[i];
	}
	for (i = j = 0; o->envp[i]; i++)
		if (strncmp(o->envp[i], arg, klen) ||
		    o->envp[i][klen] != '=')
			o->envp[j++] = o->envp[i];
	o->envp[j] = NULL;
	if (arg[klen] == '=') {
		char **p = realloc(o->envp, (j + 2) * sizeof(char *));

		if (!p)
			opt_die_plain("out of memory");
		o->envp = p;
		o->envp[j] = (char *)arg;
		o->envp[j + 1] = NULL;
	}
}

static int parse_intr(const char *s)
{
	static const char *const names[] = {
		NULL, "anywhere", "waiting", "never", "never_tstp",
	};
	int i;

	for (i = 1; i <= 4; i++)
		if (!strcmp(s, names[i]) || (s[0] == '0' + i && !s[1]))
			return i;
	/* strace's other name for anywhere. */
	if (!strcmp(s, "always"))
		return 1;
	opt_die("invalid -I argument: '%s'", s);
}

/* -x, -xx, --strings-in-hex[=WHICH]: o->print.hexstr, for decode.c's quoting. */
#define OPT_STRINGS_IN_HEX 0x7800

static void parse_hexstr(struct parser *ps, int c, const char *arg)
{
	struct options *o = ps->o;

	if (c == 'x' ? ps->long_seen : ps->xs > 0)
		opt_die_plain("-x and --strings-in-hex cannot be provided "
			  "simultaneously");
	if (c == 'x') {
		o->print.hexstr = ++ps->xs > 1 ? DEC_HEX_ALL : DEC_HEX_NON_ASCII;
		return;
	}
	ps->long_seen = true;
	if (!arg || !strcmp(arg, "all"))
		o->print.hexstr = DEC_HEX_ALL;
	else if (!strcmp(arg, "non-ascii"))
		o->print.hexstr = DEC_HEX_NON_ASCII;
	else if (!strcmp(arg, "non-ascii-chars"))
		o->print.hexstr = DEC_HEX_NON_ASCII_CHARS;
	else if (!strcmp(arg, "none"))
		o->print.hexstr = DEC_HEX_NONE;
	else
		opt_die("invalid --strings-in-hex argument: '%s'", arg);
}

void options_free(struct options *o)
{
	int i;

	for (i = 0; i < o->trace_paths.n; i++)
		free(o->trace_paths.paths[i]);
	free(o->trace_paths.paths);
	free(o->read_fds.v);
	free(o->write_fds.v);
	free(o->envp);
	memset(o, 0, sizeof(*o));
}

int parse_options(struct options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "strings-in-hex", optional_argument, NULL,
		  OPT_STRINGS_IN_HEX },
		{ "follow-forks", no_argument, NULL, 'f' },
		{ "output-separately", no_argument, NULL, OPT_FF },
		{ "output", required_argument, NULL, 'o' },
		{ "trace", required_argument, NULL, OPT_TRACE },
		{ "signal", required_argument, NULL, OPT_SIGNAL },
		{ "signals", required_argument, NULL, OPT_SIGNAL },
		{ "status", required_argument, NULL, OPT_STATUS },
		{ "inject", required_argument, NULL, OPT_INJECT },
		{ "string-limit", required_argument, NULL, 's' },
		{ "decode-fds", optional_argument, NULL, OPT_DECODE_FDS },
		{ "syscall-times", optional_argument, NULL, OPT_SC_TIMES },
		{ "timestamps", optional_argument, NULL, OPT_ABS_TS },
		{ "absolute-timestamps", optional_argument, NULL, OPT_ABS_TS },
		{ "relative-timestamps", optional_argument, NULL, OPT_REL_TS },
		{ "syscall-number", no_argument, NULL, 'n' },
		{ "instruction-pointer", no_argument, NULL, 'i' },
		{ "columns", required_argument, NULL, 'a' },
		{ "env", required_argument, NULL, 'E' },
		{ "interruptible", required_argument, NULL, 'I' },
		{ "seccomp-bpf", no_argument, NULL, OPT_SECCOMP },
		{ "decode-pids", required_argument, NULL, OPT_DECODE_PIDS },
		{ "pidns-translation", no_argument, NULL, OPT_PIDNS },
		{ "debug", no_argument, NULL, 'd' },
		{ "summary-syscall-overhead", required_argument, NULL, 'O' },
		{ "tips", optional_argument, NULL, OPT_TIPS },
		{ "verbose", required_argument, NULL, OPT_VERBOSE },
		{ "raw", required_argument, NULL, OPT_RAW },
		{ "kvm", required_argument, NULL, OPT_KVM },
		{ "summary-only", no_argument, NULL, 'c' },
		{ "summary", no_argument, NULL, 'C' },
		{ "summary-sort-by", required_argument, NULL, 'S' },
		{ "summary-columns", required_argument, NULL, 'U' },
		{ "output-append-mode", no_argument, NULL, 'A' },
		{ "detach-on", required_argument, NULL, 'b' },
		{ "user", required_argument, NULL, 'u' },
		{ "daemonize", optional_argument, NULL, OPT_DAEMONIZE },
		{ "daemonised", optional_argument, NULL, OPT_DAEMONIZE },
		{ "daemonized", optional_argument, NULL, OPT_DAEMONIZE },
		{ "const-print-style", required_argument, NULL, 'X' },
		{ "summary-wall-clock", no_argument, NULL, 'w' },
		{ "quiet", optional_argument, NULL, OPT_QUIET },
		{ "silent", optional_argument, NULL, OPT_QUIET },
		{ "silence", optional_argument, NULL, OPT_QUIET },
		{ "failed-only", no_argument, NULL, 'Z' },
		{ "failing-only", no_argument, NULL, 'Z' },
		{ "successful-only", no_argument, NULL, 'z' },
		{ "attach", required_argument, NULL, 'p' },
		{ "stack-traces", no_argument, NULL, 'k' },
		{ "trace-path", required_argument, NULL, 'P' },
		{ "no-abbrev", no_argument, NULL, 'v' },
		{ "abbrev", required_argument, NULL, OPT_ABBREV },
		{ "read", required_argument, NULL, OPT_READ },
		{ "read-fds", required_argument, NULL, OPT_READ },
		{ "write", required_argument, NULL, OPT_WRITE },
		{ "write-fds", required_argument, NULL, OPT_WRITE },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "timeline", required_argument, NULL, OPT_TIMELINE },
		{ "gdb", required_argument, NULL, OPT_GDB },
		{ "gdb-any-host", no_argument, NULL, OPT_GDB_ANY_HOST },
		{ "no-serve", no_argument, NULL, OPT_NO_SERVE },
		{ "stops-only", no_argument, NULL, OPT_STOPS_ONLY },
		{ "records", no_argument, NULL, OPT_RECORDS },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, follow = 0, qflag = 0, yflag = 0, rel_prec = -1, t_prec = -1;
	bool seccomp = false, abs_ts = false, sort_set = false;
	int daemon_short = 0, daemon_long = 0, lidx;
	bool opt_f = false;
	struct parser parser = { .o = o, .ts_format = -1, .ts_prec = -1 };
	struct parser *ps = &parser;

	/* strace's defaults: every signal, abbreviated, -s 32, -a 40 ... */
	printer_defaults(&o->print);
	o->sort = COL_PERCENT;
	o->trace_all = true;
	opterr = 0;
	while ((lidx = -1, c = getopt_long(argc, argv,
				"+:fFdo:O:e:s:xvyTtrcCS:U:AX:b:u:DwqZzp:P:nikYa:E:I:Vh",
				longopts, &lidx)) != -1) {
		switch (c) {
		case 'f': follow++; break;
		case OPT_FF: follow = 2; break;
		case 'o': o->outfile = optarg; break;
		case 'e': parse_expr(ps, optarg); break;
		case OPT_TRACE:
			parse_syscall_set(optarg, o->trace_set, "--trace");
			o->trace_all = false;
			break;
		case OPT_SIGNAL: parse_signal_set(o, optarg); break;
		case OPT_STATUS: parse_status_set(o, optarg); break;
		case OPT_INJECT: parse_inject(o, optarg); break;
		case 's':
			/* strace's bound: what fits 4 bytes of output each. */
			o->print.strsize = (int)uint_arg(c, lidx, longopts,
							 optarg, -1U / 4);
			break;
		case 'x':
		case OPT_STRINGS_IN_HEX: parse_hexstr(ps, c, optarg); break;
		case 'y': yflag++; break;
		case OPT_DECODE_FDS:
			parse_decode_fds(o, optarg ? optarg : "path");
			break;
		case 'T': o->print.syscall_times = true; break;
		case OPT_SC_TIMES:
			o->print.syscall_times = true;
			if (optarg && (t_prec = precision_digits(optarg)) < 0)
				opt_die("invalid --syscall-times argument: '%s'",
				    optarg);
			break;
		case 't': o->print.timestamps++; break;
		case OPT_ABS_TS:
			abs_ts = true;
			if (ps->ts_format < 0)
				ps->ts_format = 1;
			if (optarg)
				parse_ts_arg(ps, optarg);
			break;
		case 'r': o->print.relative = true; break;
		case OPT_REL_TS:
			o->print.relative = true;
			if (optarg &&
			    (rel_prec = precision_digits(optarg)) < 0)
				opt_die("invalid --relative-timestamps argument: "
				    "'%s'", optarg);
			break;
		case 'n': o->print.print_nr = true; break;
		case 'i': o->print.print_ip = true; break;
		case 'k': o->print.stack_trace = true; break;
		case 'a':
			o->print.columns = (int)uint_arg(c, lidx, longopts,
							 optarg, 0x7fffffff);
			break;
		case 'E': env_edit(o, optarg); break;
		case 'I': o->intr = parse_intr(optarg); break;
		case OPT_SECCOMP: seccomp = true; break;
		case 'Y': o->print.decode_pids = DEC_PID_COMM; break;
		case OPT_PIDNS: o->print.decode_pids = DEC_PID_NS; break;
		case OPT_DECODE_PIDS: parse_decode_pids(o, optarg); break;
		case 'd': o->debug = true; break;
		case 'F': opt_f = true; break;
		case 'O':
			if (parse_duration(optarg, &o->overhead) < 0)
				bad_arg(c, lidx, longopts, optarg);
			break;
		case OPT_TIPS:
			if (parse_tips(o, optarg ? optarg : ""))
				bad_arg(c, lidx, longopts, optarg);
			break;
		case OPT_VERBOSE:
			parse_syscall_set(optarg, o->print.verbose, "--verbose");
			break;
		case OPT_RAW: parse_syscall_set(optarg, o->print.raw, "--raw"); break;
		case OPT_KVM: parse_kvm(o, optarg); break;
		case 'c': o->summary_only = true; break;
		case 'C': o->summary = true; break;
		case 'S':
			o->sort = parse_sort(optarg);
			sort_set = true;
			break;
		case 'U': parse_columns(o, optarg); break;
		case 'A': o->print.append = true; break;
		case 'b':
			if (strcmp(optarg, "execve"))
				opt_die_plain("Syscall '%s' for -b isn't supported",
					  optarg);
			o->detach_execve = true;
			break;
		case 'u': o->user = optarg; break;
		case 'D': daemon_short++; break;
		case OPT_DAEMONIZE:
			if (!optarg || !strcmp(optarg, "grandchild"))
				daemon_long = 1;
			else if (!strcmp(optarg, "pgroup") ||
				 !strcmp(optarg, "pgrp"))
				daemon_long = 2;
			else if (!strcmp(optarg, "session"))
				daemon_long = 3;
			else
				opt_die("invalid --daemonize argument: '%s'",
				    optarg);
			break;
		case 'X':
			if (!strcmp(optarg, "raw"))
				o->print.xlat_style = DEC_XLAT_RAW;
			else if (!strcmp(optarg, "abbrev"))
				o->print.xlat_style = DEC_XLAT_ABBREV;
			else if (!strcmp(optarg, "verbose"))
				o->print.xlat_style = DEC_XLAT_VERBOSE;
			else
				opt_die("invalid -X argument: '%s'", optarg);
			break;
		case 'w': o->wall_clock = true; break;
		case 'q': qflag++; break;
		case OPT_QUIET:
			/* --quiet alone is -q: attach,personality */
			parse_quiet_set(o, optarg ? optarg : "attach,personality");
			ps->quiet_set = true;
			break;
		case 'Z': o->print.status_mask = ST_FAILED; break;
		case 'z': o->print.status_mask = ST_SUCCESSFUL; break;
		case 'p': parse_pids(o, optarg); break;
		case 'P': trace_path_add(&o->trace_paths, optarg); break;
		case 'v': memset(o->print.abbrev, 0, sizeof(o->print.abbrev)); break;
		case OPT_ABBREV:
			parse_syscall_set(optarg, o->print.abbrev, "--abbrev");
			break;
		case OPT_READ: parse_fd_set(&o->read_fds, optarg); break;
		case OPT_WRITE: parse_fd_set(&o->write_fds, optarg); break;
		case OPT_JSON: o->print.json = true; break;
		case OPT_TIMELINE: o->timeline = optarg; break;
		case OPT_GDB: o->gdb = optarg; break;
		case OPT_GDB_ANY_HOST: o->gdb_any_host = true; break;
		case OPT_NO_SERVE: o->no_serve = true; break;
		case OPT_STOPS_ONLY: o->records = false; break;
		case OPT_RECORDS: o->records = true; break;
		case 'V':
			printf("utrace -- version %s (libutrace API %d)\n",
			       UTRACE_VERSION, UTRACE_API_VERSION);
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			opt_die("option requires an argument -- '%c'", optopt);
		default:
			if (optopt)
				opt_die("invalid option -- '%c'", optopt);
			opt_die("unrecognized option '%s'", argv[optind - 1]);
		}
	}
	o->follow = follow >= 1;
	o->follow_separately = follow >= 2 && o->outfile;
	if (o->follow_separately &&
	    (*o->outfile == '|' || *o->outfile == '!'))
		opt_die("piping the output and -ff/--output-separately are "
		    "mutually exclusive");
	if (yflag) {
		if (o->decode_fds_given)
			opt_die_plain("-y and --decode-fds cannot be provided "
				  "simultaneously");
		o->print.decode_fds = yflag == 1 ? DF_PATH : DF_ALL;
	}
	/* As strace: only -e quiet=path-resolution silences this, not -qqq. */
	trace_path_resolve(&o->trace_paths, o->print.quiet & Q_PATH, o->print.hexstr);
	if (qflag && ps->quiet_set)
		opt_die_plain("-q and -e quiet/--quiet cannot be provided "
			  "simultaneously");
	if (qflag == 1)
		o->print.quiet = Q_ATTACH | Q_PERSONALITY;
	else if (qflag == 2)
		o->print.quiet = Q_ATTACH | Q_PERSONALITY | Q_EXIT;
	else if (qflag > 2)
		o->print.quiet = Q_ALL;
	if (o->summary_only && o->summary)
		opt_die("-c/--summary-only and -C/--summary are mutually exclusive");
	if (o->summary_only && o->print.stack_trace) {
		fprintf(stderr, "utrace: -k/--stack-traces has no effect with "
			"-c/--summary-only\n");
		o->print.stack_trace = false;
	}
	/* strace 6.1's checks and warnings, in its order. */
	if (follow >= 2 && (o->summary_only || o->summary))
		opt_die("(-c/--summary-only or -C/--summary) and "
		    "-ff/--output-separately are mutually exclusive");
	if (o->wall_clock && !o->summary_only && !o->summary)
		opt_die("-w/--summary-wall-clock must be given with "
		    "(-c/--summary-only or -C/--summary)");
	if (o->sum_cols[0] && !o->summary_only && !o->summary)
		opt_die("-U/--summary-columns must be given with "
		    "(-c/--summary-only or -C/--summary)");
	if (sort_set && !o->summary_only && !o->summary)
		fprintf(stderr, "utrace: -S/--summary-sort-by has no effect "
			"without (-c/--summary-only or -C/--summary)\n");
	if (!o->outfile && o->print.append)
		fprintf(stderr, "utrace: -A/--output-append-mode has no "
			"effect without -o/--output\n");
	if (o->print.json && o->summary_only)
		opt_die("--json and -c/--summary-only are mutually exclusive");
	if (o->print.timestamps > 3)
		o->print.timestamps = 3;
	if (o->print.timestamps && abs_ts)
		opt_die("-t and --absolute-timestamps cannot be provided "
		    "simultaneously");
	o->print.ts_digits = o->print.timestamps >= 2 ? 6 : 0;
	if (abs_ts) {
		o->print.timestamps = ps->ts_format;
		if (ps->ts_prec >= 0)
			o->print.ts_digits = ps->ts_prec;
	}
	o->print.rel_digits = rel_prec >= 0 ? rel_prec : 6;
	o->print.t_digits = t_prec >= 0 ? t_prec : 6;
	if (optind < argc)
		o->argv = argv + optind;
	if (!o->argv && !o->nattach)
		opt_die("must have PROG [ARGS] or -p PID");
	/* strace 6.1's -D checks, in its order. */
	if (daemon_long && daemon_short)
		opt_die_plain("-D and --daemonize cannot be provided "
			  "simultaneously");
	o->daemonize = daemon_long ? daemon_long : daemon_short;
	if (!o->argv && o->daemonize)
		opt_die("PROG [ARGS] must be specified with -D/--daemonize");
	if (o->daemonize > 3)
		opt_die("Too many -D's (%d), maximum supported -D count is 3",
		    o->daemonize);
	if (seccomp && o->detach_execve) {
		fprintf(stderr, "utrace: --seccomp-bpf is not enabled because "
			"it is not compatible with -b\n");
		seccomp = false;
	}
	if (seccomp && !o->follow)
		fprintf(stderr, "utrace: --seccomp-bpf cannot be used without "
			"-f/--follow-forks, disabling\n");
	/* strace 6.1: -F is -f, said to be deprecated (ignored after -f). */
	if (opt_f) {
		if (o->follow) {
			fprintf(stderr, "utrace: deprecated option -F ignored\n");
		} else {
			fprintf(stderr, "utrace: option -F is deprecated, please "
				"use -f/--follow-forks instead\n");
			o->follow = true;
		}
	}
	/* strace: -D makes utrace ignore SIGTSTP too (-I never_tstp). */
	if (o->daemonize && !o->intr)
		o->intr = 4;
	if (o->gdb && !*o->gdb)
		opt_die("--gdb needs an address: :PORT, HOST:PORT or a socket path");
	if (o->gdb_any_host && !o->gdb)
		opt_die("--gdb-any-host goes with --gdb=HOST:PORT");
	/*
	 * strace: "-o FILE PROG" implies -q unless a quiet set was given,
	 * and makes SIGINT, SIGQUIT, SIGTERM, SIGHUP and SIGPIPE harmless.
	 */
	if (o->outfile && o->argv) {
		if (!o->intr)
			o->intr = 3;
		if (!qflag && !ps->quiet_set)
			o->print.quiet = Q_ATTACH | Q_PERSONALITY;
	}
	if (!o->intr)
		o->intr = 2;
	o->intr_never = o->intr >= 3;
	/* What the printer reads that the options own. */
	o->print.paths = &o->trace_paths;
	o->print.read_fds = &o->read_fds;
	o->print.write_fds = &o->write_fds;
	o->print.ff_prefix = o->follow_separately ? o->outfile : NULL;
	/* As strace: -o FILE with -f (or -p twice) puts the pid in front. */
	if (o->outfile && !o->follow_separately &&
	    (o->follow || o->nattach > 1))
		o->print.pids = PR_PIDS_ALWAYS;
	else if (o->outfile)
		o->print.pids = PR_PIDS_NEVER;
	else
		o->print.pids = PR_PIDS_MANY;
	return 0;
}

