// SPDX-License-Identifier: LGPL-2.1-or-later
/* Command-line parsing, with strace's option letters and meanings. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"


static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2),
						      noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("utrace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'utrace -h' for more information.\n", stderr);
	exit(1);
}

/* A message strace prints without its "Try ... -h" line. */
static void die_plain(const char *fmt, ...) __attribute__((format(printf, 1,
								    2),
							     noreturn));

static void die_plain(const char *fmt, ...)
{
	va_list ap;

	fputs("utrace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void usage(FILE *f)
{
	fputs(
"Usage: utrace [-ACcfiknqrTtvwYyZz] [-a COLUMN] [-e EXPR]... [-I N] [-o FILE]\n"
"              [-p PID]... [-P PATH]... [-s STRSIZE] [-S SORTBY]\n"
"              [-U COLUMNS] [-X STYLE] [-u USER] [-D[D[D]]] [-b execve]\n"
"              [--inject=SET:...] [--quiet=SET] [--seccomp-bpf]\n"
"              [--json] [--timeline FILE] [--gdb=ADDR]\n"
"              { -p PID | [-E VAR=VAL]... [--] PROG [ARGS] }\n"
"\n"
"Trace the system calls and signals of PROG, or of the running process PID,\n"
"with libutrace engines: a printer, a counter (-c), an injector (--inject)\n"
"and a timeline writer (--timeline), several at once on the same threads.\n"
"\n"
"Tracing:\n"
"  -f, --follow-forks      follow threads and child processes\n"
"  -ff, --output-separately\n"
"                          with -o FILE, write each thread to FILE.TID\n"
"  -p PID[,PID...], --attach=PID\n"
"                          attach to the thread PID (with -f, to every\n"
"                          thread of its process; repeatable); Ctrl-C\n"
"                          detaches and leaves it running\n"
"  -u USER, --user=USER    run PROG with the uid, gid and groups of USER\n"
"                          (root only); nothing before its execve is shown\n"
"  -D, --daemonize[=grandchild]\n"
"                          run the tracer as a detached grandchild: PROG\n"
"                          keeps utrace's pid and its parent; -DD\n"
"                          (--daemonize=pgroup): in a new process group;\n"
"                          -DDD (--daemonize=session): in a new session\n"
"  -b execve, --detach-on=execve\n"
"                          detach from a process when it executes (not on\n"
"                          PROG's first execve)\n"
"  -E VAR=VAL, --env=VAR=VAL\n"
"                          put VAR=VAL in the environment of PROG\n"
"  -E VAR, --env=VAR       remove VAR from the environment of PROG\n"
"  -I N, --interruptible=N\n"
"                          1, anywhere; 2, waiting (default): SIGHUP,\n"
"                          SIGINT, SIGQUIT, SIGTERM detach and end utrace;\n"
"                          3, never (default with -o FILE PROG): they are\n"
"                          ignored; 4, never_tstp: SIGTSTP is ignored too\n"
"  --seccomp-bpf           accepted for strace compatibility: with -f, utrace\n"
"                          already uses a seccomp filter when -e trace=\n"
"                          selects a subset; without -f it warns as strace\n"
"Filtering:\n"
"  -e trace=SET, --trace=SET\n"
"                          syscalls to trace: names, /REGEX, ?NAME (no error\n"
"                          if unknown), classes %file %process %network\n"
"                          %signal %memory %desc %creds %ipc %clock %pure\n"
"                          %stat %lstat %fstat %%stat %statfs %fstatfs\n"
"                          %%statfs, all, none; a leading ! negates; a set\n"
"                          with no name (-e trace=) is an error\n"
"  -e signal=SET, --signal=SET\n"
"                          signals to print (names or numbers, !, all, none)\n"
"  -e status=SET, --status=SET\n"
"                          print only syscalls that ended so: successful,\n"
"                          failed, unfinished, unavailable, detached\n"
"  -P PATH, --trace-path=PATH\n"
"                          trace only the syscalls that touch PATH: a path\n"
"                          argument, or a descriptor open on it (repeatable)\n"
"  -Z, --failed-only       same as -e status=failed\n"
"  -z, --successful-only   same as -e status=successful\n"
"  -e read=SET, --read=SET\n"
"                          dump in hex and ASCII the data read from the\n"
"                          descriptors in SET (numbers, !, all, none)\n"
"  -e write=SET, --write=SET\n"
"                          dump the data written to the descriptors in SET\n"
"Output:\n"
"  -o FILE, --output=FILE  write the trace to FILE instead of stderr;\n"
"                          '|CMD' or '!CMD' pipes it to the shell command\n"
"                          CMD; with a command, implies -q and makes\n"
"                          SIGINT, SIGTERM, SIGHUP, SIGQUIT harmless;\n"
"                          output is live: whole lines, written whenever\n"
"                          the traced threads run or wait\n"
"  -X STYLE, --const-print-style=STYLE\n"
"                          constants and flags: abbrev (names, default),\n"
"                          raw (numbers), verbose (numbers and names)\n"
"  -A, --output-append-mode\n"
"                          open the -o file(s) for appending\n"
"  -s N, --string-limit=N  print at most N bytes of strings (default 32)\n"
"  -x, --strings-in-hex=non-ascii\n"
"                          print non-ASCII bytes of strings in hex\n"
"  -xx, --strings-in-hex[=all]\n"
"                          print every byte of strings in hex\n"
"  --strings-in-hex=non-ascii-chars|none\n"
"                          hex for non-ASCII and escaped characters; none\n"
"  -v, --no-abbrev         print structures and arrays unabbreviated: every\n"
"                          field of stat, statx, rusage, uname, termios,\n"
"                          getdents' entries, execve's environment, arrays\n"
"                          past -s elements\n"
"  -e abbrev=SET, --abbrev=SET\n"
"                          abbreviate only the syscalls in SET (default\n"
"                          all; -v is abbrev=none)\n"
"  -y, --decode-fds[=path], -e decode-fds=path\n"
"                          print the paths of file descriptors\n"
"  -yy, --decode-fds=all   also socket endpoints (3<TCP:[1.2.3.4:80->\n"
"                          5.6.7.8:40000]>, UDP, UNIX, NETLINK...), device\n"
"                          numbers (0</dev/pts/0<char 136:0>>) and pidfds\n"
"                          (5<pid:1234>); SET mixes path, socket, dev,\n"
"                          pidfd, all, none, with a leading ! to negate\n"
"  -Y, --decode-pids=comm  print the command name after line prefix pids:\n"
"                          1234<sh> (pids in arguments stay plain);\n"
"                          --decode-pids=pidns is accepted and does nothing\n"
"  -a COLUMN, --columns=COLUMN\n"
"                          align the results at COLUMN (default 40)\n"
"  -i, --instruction-pointer\n"
"                          print the instruction pointer at the syscall\n"
"                          (or the signal): [00007f3b2c1e4b17]\n"
"  -k, --stack-traces      print the stack of the tracee after each syscall,\n"
"                          signal and stop (elfutils libdw, as strace -k)\n"
"  -n, --syscall-number    print the syscall number: [  12]\n"
"  -T, --syscall-times[=PRECISION]\n"
"                          print the time spent in each syscall; PRECISION\n"
"                          is s, ms, us (default) or ns\n"
"  -t, --timestamps[=[format:]FORMAT[,[precision:]PRECISION]]\n"
"      --absolute-timestamps[=...]\n"
"                          prefix lines with the time of day; -tt adds\n"
"                          microseconds, -ttt prints seconds since the epoch;\n"
"                          FORMAT is time, unix or none, PRECISION s, ms,\n"
"                          us or ns\n"
"  -r, --relative-timestamps[=PRECISION]\n"
"                          prefix lines with the time since the previous one\n"
"  -q, --quiet             suppress attach/detach messages; -qq also\n"
"                          suppresses the exit status lines; -qqq all\n"
"  -e quiet=SET, --quiet=SET (--silent=, --silence=)\n"
"                          suppress these messages: attach, exit,\n"
"                          thread-execve (superseded), personality,\n"
"                          path-resolution, all, none; a leading ! negates\n"
"  --json                  one JSON object per event instead of text\n"
"  --timeline=FILE         also write a Chrome trace-event JSON file (open it\n"
"                          in Perfetto or chrome://tracing)\n"
"Statistics:\n"
"  -c, --summary-only      count time, calls and errors; print only the table\n"
"  -C, --summary           print the trace and the table\n"
"  -S SORTBY, --summary-sort-by=SORTBY\n"
"                          sort the table by a column (see -U): time\n"
"                          (default), calls, errors, name, avg_time,\n"
"                          min_time, max_time, or nothing\n"
"  -U COLUMNS, --summary-columns=COLUMNS\n"
"                          the table's columns, in order: time, total_time,\n"
"                          avg_time, min_time, max_time, calls, errors, name\n"
"                          (and strace's other names for them)\n"
"  -w, --summary-wall-clock\n"
"                          count wall-clock time instead of system time\n"
"                          (-w, -U need -c or -C; -c, -C exclude -ff)\n"
"Tampering:\n"
"  --inject=SET:error=ERRNO|retval=N[:signal=SIG][:delay_enter=US]\n"
"           [:delay_exit=US][:when=WHEN]\n"
"                          make the syscalls in SET fail with ERRNO or return\n"
"                          N without running, deliver SIG after them, or\n"
"                          hold the thread for US microseconds at entry/exit\n"
"                          (marked (DELAYED)); WHEN is FIRST, FIRST+,\n"
"                          FIRST+STEP, FIRST..LAST or FIRST..LAST+STEP\n"
"                          (also -e inject=...)\n"
"  -e fault=SET[:error=ERRNO][:when=WHEN]\n"
"                          strace's older --inject: error= (default ENOSYS)\n"
"                          and when= only\n"
"Debugging:\n"
"  --gdb=ADDR              serve gdb's remote protocol for PROG (stopped after\n"
"                          its execve) or the first -p PID, beside the trace;\n"
"                          ADDR is :PORT (127.0.0.1), HOST:PORT or a socket\n"
"                          path; then in gdb: target remote ADDR\n"
"Sharing:\n"
"  --no-serve              do not let other programs join this trace (by\n"
"                          default another utrace -p PID, or any libutrace\n"
"                          program, can join and trace the same threads)\n"
"Miscellaneous:\n"
"  -V, --version           print the version and exit\n"
"  -h, --help              print this help and exit\n"
"\n"
"The exit status is the traced program's (a program killed by a signal\n"
"makes utrace kill itself with the same signal, without a core dump).\n", f);
}

static long errno_number(const char *s)
{
	char *end;
	long v;
	int i;

	v = strtol(s, &end, 10);
	if (*s && !*end)
		return v;
	for (i = 1; i < 4096; i++) {
		const char *n = strerrorname_np(i);

		if (n && !strcmp(n, s))
			return i;
	}
	return -1;
}

static int signal_number(const char *s)
{
	char buf[32];
	char *end;
	long v;
	int i;

	v = strtol(s, &end, 10);
	if (*s && !*end)
		return v > 0 && v <= 64 ? (int)v : -1;
	if (strncasecmp(s, "SIG", 3))
		snprintf(buf, sizeof(buf), "SIG%s", s);
	else
		snprintf(buf, sizeof(buf), "%s", s);
	for (i = 0; buf[i]; i++)
		buf[i] = (char)toupper((unsigned char)buf[i]);
	for (i = 1; i <= 64; i++)
		if (!strcmp(signame(i), buf))
			return i;
	if (!strcmp(buf, "SIGRTMAX"))
		return 64;
	return -1;
}

/*
 * Parse a syscall set into set[NR_MAX].  As in strace, a later -e trace=
 * replaces an earlier one; a leading '!' means all syscalls but these.
 */
static void parse_syscall_set(const char *val, bool *set, const char *what)
{
	char *copy = strdup(val), *tok, *save = NULL;
	bool neg = false, tmp[NR_MAX];
	const char *s = copy;
	long nr;
	int i;

	memset(tmp, 0, sizeof(tmp));
	if (*s == '!') {
		neg = true;
		s++;
	}
	/* As strace: a set with no name at all ("", "!", ",") is refused. */
	if (!s[strspn(s, ",")])
		die_plain("invalid system call '%s'", val);
	for (tok = strtok_r((char *)s, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		bool optional = false;

		if (*tok == '?') {
			optional = true;
			tok++;
		}
		if (!strcmp(tok, "all")) {
			for (i = 0; i < NR_MAX; i++)
				tmp[i] = sys_name(i) != NULL;
		} else if (!strcmp(tok, "none")) {
			continue;
		} else if (*tok == '/') {
			regex_t re;
			bool any = false;

			int err = regcomp(&re, tok + 1,
					  REG_EXTENDED | REG_NOSUB);

			if (err) {
				char msg[256];

				regerror(err, &re, msg, sizeof(msg));
				/* strace's words, and no "Try" line. */
				die_plain("regcomp: %s: %s", tok + 1, msg);
			}
			for (i = 0; i < NR_MAX; i++) {
				const char *n = sys_name(i);

				if (n && !regexec(&re, n, 0, NULL, 0)) {
					tmp[i] = true;
					any = true;
				}
			}
			regfree(&re);
			if (!any && !optional)
				die_plain("invalid system call '%s'", tok);
		} else if (*tok == '%' || sys_number(tok) < 0) {
			const char *cls = *tok == '%' ? tok + 1 : tok;

			if (!sys_class(cls, tmp) && !optional)
				die_plain("invalid system call '%s'", tok);
		} else {
			nr = sys_number(tok);
			tmp[nr] = true;
		}
	}
	for (i = 0; i < NR_MAX; i++)
		set[i] = neg ? !tmp[i] && sys_name(i) : tmp[i];
	free(copy);
}

static void parse_signal_set(struct options *o, const char *val)
{
	char *copy = strdup(val), *tok, *save = NULL;
	bool neg = false, tmp[65];
	char *s = copy;
	int i;

	memset(tmp, 0, sizeof(tmp));
	if (*s == '!') {
		neg = true;
		s++;
	}
	for (tok = strtok_r(s, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int sig;

		if (!strcmp(tok, "all")) {
			for (i = 1; i <= 64; i++)
				tmp[i] = true;
			continue;
		}
		if (!strcmp(tok, "none"))
			continue;
		sig = signal_number(tok);
		if (sig < 0)
			die("invalid signal '%s'", tok);
		tmp[sig] = true;
	}
	for (i = 1; i <= 64; i++)
		o->print.signals[i] = neg ? !tmp[i] : tmp[i];
	free(copy);
}

struct name_bits {
	const char *name;
	unsigned bits;
};

/*
 * A comma-separated set of @names, "!" complementing it within @all, as
 * strace's -e status= and -e quiet= take it; an empty set or an unknown
 * name is an error ("invalid @what '...'").
 */
static unsigned parse_name_set(const char *val, const char *what,
			       const struct name_bits *names, size_t n,
			       unsigned all)
{
	char *copy = strdup(val), *tok, *save = NULL;
	char *s = copy;
	unsigned mask = 0;
	bool neg = false;

	if (*s == '!') {
		neg = true;
		s++;
	}
	if (!*s)
		die_plain("invalid %s '%s'", what, s);
	for (tok = strtok_r(s, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < n && strcmp(tok, names[i].name); i++)
			;
		if (i == n)
			die_plain("invalid %s '%s'", what, tok);
		mask |= names[i].bits;
	}
	free(copy);
	return neg ? all & ~mask : mask;
}

static void parse_status_set(struct options *o, const char *val)
{
	static const struct name_bits names[] = {
		{ "successful", ST_SUCCESSFUL }, { "failed", ST_FAILED },
		{ "unfinished", ST_UNFINISHED },
		{ "unavailable", ST_UNAVAILABLE },
		{ "detached", ST_DETACHED }, { "all", ST_ALL }, { "none", 0 },
	};

	o->print.status_mask = parse_name_set(val, "status", names,
					 sizeof(names) / sizeof(names[0]),
					 ST_ALL);
}

/* -e quiet=SET, --quiet=SET: strace's names. */
static void parse_quiet_set(struct options *o, const char *val)
{
	static const struct name_bits names[] = {
		{ "attach", Q_ATTACH }, { "exit", Q_EXIT }, { "exits", Q_EXIT },
		{ "path-resolution", Q_PATH }, { "personality", Q_PERSONALITY },
		{ "superseded", Q_THREAD_EXECVE },
		{ "thread-execve", Q_THREAD_EXECVE },
		{ "all", Q_ALL }, { "none", 0 },
	};

	o->print.quiet = parse_name_set(val, "quiet", names,
				   sizeof(names) / sizeof(names[0]), Q_ALL);
}

/*
 * -y, --decode-fds=SET: path, socket, dev, pidfd, all, none; a leading !
 * negates (-yy is all).
 */
static void parse_decode_fds(struct options *o, const char *val)
{
	static const struct name_bits names[] = {
		{ "path", DF_PATH }, { "socket", DF_SOCKET }, { "dev", DF_DEV },
		{ "pidfd", DF_PIDFD }, { "all", DF_ALL }, { "none", 0 },
	};

	o->print.decode_fds = parse_name_set(val, "decode-fds", names,
					sizeof(names) / sizeof(names[0]),
					DF_ALL);
	o->decode_fds_given = true;
}

static long parse_num(const char *s, const char *what, long min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < min)
		die("invalid %s '%s'", what, s);
	return v;
}

/* A number 1..65535, as strace takes for when=; what: inject or fault. */
static unsigned when_num(const char *s, char **end, const char *spec,
			 const char *what)
{
	unsigned long v;

	if (!isdigit((unsigned char)*s))
		die_plain("invalid %s argument '%s'", what, spec);
	errno = 0;
	v = strtoul(s, end, 10);
	if (errno || v < 1 || v > 0xffff)
		die_plain("invalid %s argument '%s'", what, spec);
	return (unsigned)v;
}

/*
 * when=FIRST (that call only), FIRST+ (from it on), FIRST+STEP (it and
 * every STEP-th after), FIRST..LAST (those calls), FIRST..LAST+STEP.
 */
static void parse_when(struct inject_rule *r, const char *s, const char *spec,
		       const char *what)
{
	char *end;

	r->first = when_num(s, &end, spec, what);
	r->last = r->first;
	r->step = 0;
	if (!strncmp(end, "..", 2)) {
		r->last = when_num(end + 2, &end, spec, what);
		if (r->last < r->first)
			die_plain("invalid %s argument '%s'", what, spec);
		r->step = 1;
	}
	if (*end == '+') {
		if (r->last == r->first && r->step == 0)
			r->last = ~0U;
		r->step = 1;
		if (end[1])
			r->step = when_num(end + 1, &end, spec, what);
		else
			end++;
	}
	if (*end)
		die_plain("invalid %s argument '%s'", what, spec);
}

static void parse_inject(struct options *o, const char *val)
{
	char *copy = strdup(val), *colon, *tok, *save = NULL;
	struct inject_rule *r;
	bool action = false;

	if (o->ninject >= MAX_INJECT)
		die("too many --inject rules (at most %d)", MAX_INJECT);
	r = &o->inject[o->ninject++];
	memset(r, 0, sizeof(*r));
	r->first = 1;
	r->last = ~0U;
	r->step = 1;
	colon = strchr(copy, ':');
	if (!colon)
		die("--inject=%s: missing ':' and an action", val);
	*colon = '\0';
	parse_syscall_set(copy, r->set, "--inject");
	for (tok = strtok_r(colon + 1, ":", &save); tok;
	     tok = strtok_r(NULL, ":", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			die("--inject: invalid action '%s'", tok);
		*eq++ = '\0';
		if (!strcmp(tok, "error")) {
			r->error = errno_number(eq);
			if (r->error < 1 || r->error > 4095)
				die("--inject: invalid error '%s'", eq);
			action = true;
		} else if (!strcmp(tok, "retval")) {
			r->retval = parse_num(eq, "retval", 0);
			r->has_retval = true;
			action = true;
		} else if (!strcmp(tok, "signal")) {
			r->signal = signal_number(eq);
			if (r->signal < 1)
				die("--inject: invalid signal '%s'", eq);
			action = true;
		} else if (!strcmp(tok, "delay_enter")) {
			r->delay_enter_us = parse_num(eq, "delay_enter", 0);
			action = true;
		} else if (!strcmp(tok, "delay_exit")) {
			r->delay_exit_us = parse_num(eq, "delay_exit", 0);
			action = true;
		} else if (!strcmp(tok, "when")) {
			parse_when(r, eq, val, "inject");
		} else {
			die("--inject: unknown action '%s'", tok);
		}
	}
	if (r->error && r->has_retval)
		die("--inject: error= and retval= are mutually exclusive");
	if (!action)
		die("--inject=%s: no action (error=, retval=, signal=, "
		    "delay_enter=, delay_exit=)", val);
	free(copy);
}

/* Long options of -e read=, -e write= and -e abbrev=. */
enum { OPT_READ = 1024, OPT_WRITE, OPT_ABBREV };

/*
 * -e read=SET, -e write=SET: descriptors, "!" (repeatable) complementing,
 * all, none; each option replaces the set, as strace's.
 */
static void parse_fd_set(struct num_set *set, const char *val)
{
	const char *s = val;
	char *copy, *tok, *save = NULL;
	bool any = false;

	free(set->v);
	memset(set, 0, sizeof(*set));
	for (; *s == '!'; s++)
		set->not = !set->not;
	if (!strcmp(s, "none"))
		return;
	if (!strcmp(s, "all")) {
		set->not = !set->not;
		return;
	}
	copy = strdup(s);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(tok, &end, 10);
		if (end == tok || *end || v < 0 || v > INT_MAX || errno)
			die_plain("invalid descriptor '%s'", tok);
		set->v = realloc(set->v, sizeof(*set->v) * (set->n + 1));
		if (!set->v)
			die_plain("out of memory");
		set->v[set->n++] = (long)v;
		any = true;
	}
	free(copy);
	if (!any)
		die_plain("invalid descriptor '%s'", val);
}

/*
 * -e fault=SET[:error=ERRNO][:when=WHEN]: strace's older form of
 * --inject, with only these two keys and ENOSYS when no error is given.
 */
static void parse_fault(struct options *o, const char *val)
{
	char *copy = strdup(val), *colon, *tok, *save = NULL;
	struct inject_rule *r;

	if (o->ninject >= MAX_INJECT)
		die("too many --inject rules (at most %d)", MAX_INJECT);
	r = &o->inject[o->ninject++];
	memset(r, 0, sizeof(*r));
	r->first = 1;
	r->last = ~0U;
	r->step = 1;
	colon = strchr(copy, ':');
	if (colon)
		*colon = '\0';
	parse_syscall_set(copy, r->set, "-e fault");
	for (tok = colon ? strtok_r(colon + 1, ":", &save) : NULL; tok;
	     tok = strtok_r(NULL, ":", &save)) {
		if (!strncmp(tok, "when=", 5)) {
			parse_when(r, tok + 5, val, "fault");
		} else if (!strncmp(tok, "error=", 6) && !r->error) {
			r->error = errno_number(tok + 6);
			if (r->error < 1 || r->error > 4095)
				die_plain("invalid fault argument '%s'", val);
		} else {
			die_plain("invalid fault argument '%s'", val);
		}
	}
	if (!r->error)
		r->error = ENOSYS;
	free(copy);
}

/* What the parse has seen so far, beside the options it fills. */
struct parser {
	struct options *o;
	bool quiet_set;		/* -e quiet= or --quiet seen */
	int ts_format;		/* --timestamps format: 0 none, 1 time, 3 unix */
	int ts_prec;		/* --timestamps precision (-1: not given) */
	int xs;			/* -x seen (count) */
	bool long_seen;		/* --strings-in-hex seen */
};

static void parse_expr(struct parser *ps, const char *e)
{
	struct options *o = ps->o;
	const char *eq = strchr(e, '=');
	size_t n = eq ? (size_t)(eq - e) : 0;
	const char *v = eq ? eq + 1 : e;

	if (!eq || (n == 5 && !strncmp(e, "trace", 5)) ||
	    (n == 1 && *e == 't')) {
		parse_syscall_set(v, o->trace_set, "-e trace");
		o->trace_all = false;
	} else if ((n == 6 && !strncmp(e, "signal", 6)) ||
		   (n == 7 && !strncmp(e, "signals", 7)) ||
		   (n == 1 && *e == 's')) {
		parse_signal_set(o, v);
	} else if (n == 6 && !strncmp(e, "status", 6)) {
		parse_status_set(o, v);
	} else if (n == 6 && !strncmp(e, "inject", 6)) {
		parse_inject(o, v);
	} else if (n == 5 && !strncmp(e, "fault", 5)) {
		parse_fault(o, v);
	} else if ((n == 5 && !strncmp(e, "quiet", 5)) ||
		   (n == 6 && !strncmp(e, "silent", 6)) ||
		   (n == 6 && !strncmp(e, "silence", 6))) {
		parse_quiet_set(o, v);
		ps->quiet_set = true;
	} else if ((n == 6 && !strncmp(e, "abbrev", 6)) ||
		   (n == 1 && *e == 'a')) {
		parse_syscall_set(v, o->print.abbrev, "-e abbrev");
	} else if ((n == 4 && !strncmp(e, "read", 4)) ||
		   (n == 5 && !strncmp(e, "reads", 5)) ||
		   (n == 1 && *e == 'r')) {
		parse_fd_set(&o->read_fds, v);
	} else if ((n == 5 && !strncmp(e, "write", 5)) ||
		   (n == 6 && !strncmp(e, "writes", 6)) ||
		   (n == 1 && *e == 'w')) {
		parse_fd_set(&o->write_fds, v);
	} else if (n == 10 && !strncmp(e, "decode-fds", 10)) {
		parse_decode_fds(o, v);
	} else {
		die("-e %.*s: not supported by utrace (supported: trace, "
		    "signal, status, inject, fault, quiet, read, write, "
		    "abbrev, decode-fds)",
		    (int)n, e);
	}
}

static void parse_pids(struct options *o, const char *s)
{
	char *copy = strdup(s), *tok, *save = NULL;

	for (tok = strtok_r(copy, ", ", &save); tok;
	     tok = strtok_r(NULL, ", ", &save)) {
		long pid = parse_num(tok, "process id", 1);

		if (o->nattach >= (int)(sizeof(o->attach) /
					 sizeof(o->attach[0])))
			die("too many -p processes");
		o->attach[o->nattach++] = (pid_t)pid;
	}
	free(copy);
}

/* strace's names of the -c columns, for -U and -S. */
static const struct {
	const char *name;
	enum sum_col col;
} col_names[] = {
	{ "time", COL_PERCENT }, { "time_percent", COL_PERCENT },
	{ "time-percent", COL_PERCENT }, { "time_total", COL_TOTAL },
	{ "time-total", COL_TOTAL }, { "total_time", COL_TOTAL },
	{ "total-time", COL_TOTAL }, { "min_time", COL_MIN },
	{ "min-time", COL_MIN }, { "shortest", COL_MIN },
	{ "time_min", COL_MIN }, { "time-min", COL_MIN },
	{ "longest", COL_MAX }, { "max_time", COL_MAX },
	{ "max-time", COL_MAX }, { "time_max", COL_MAX },
	{ "time-max", COL_MAX }, { "avg_time", COL_AVG },
	{ "avg-time", COL_AVG }, { "time_avg", COL_AVG },
	{ "time-avg", COL_AVG }, { "calls", COL_CALLS },
	{ "count", COL_CALLS }, { "error", COL_ERRORS },
	{ "errors", COL_ERRORS }, { "name", COL_NAME },
	{ "syscall", COL_NAME }, { "syscall_name", COL_NAME },
	{ "syscall-name", COL_NAME }, { "none", COL_NONE },
	{ "nothing", COL_NONE },
};

#define NCOL_NAMES (sizeof(col_names) / sizeof(col_names[0]))

static enum sum_col parse_sort(const char *s)
{
	size_t i;

	for (i = 0; i < NCOL_NAMES; i++)
		if (!strcmp(col_names[i].name, s))
			return col_names[i].col;
	die("invalid sortby: '%s'", s);
}

/* -U COL[,COL...]: the -c columns in this order; syscall is always in. */
static void parse_columns(struct options *o, const char *val)
{
	bool seen[COL_MAX_] = { false };
	const char *p = val;
	int n = 0;

	for (;;) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < NCOL_NAMES; i++)
			if (!strncmp(col_names[i].name, p, len) &&
			    !col_names[i].name[len] &&
			    col_names[i].col != COL_NONE)
				break;
		if (i == NCOL_NAMES)
			die("unknown column name: '%.*s'", (int)len, p);
		if (seen[col_names[i].col])
			die("call summary column has been provided more than "
			    "once: '%s' (-U option residual: '%s')",
			    col_names[i].name, p);
		seen[col_names[i].col] = true;
		o->sum_cols[n++] = col_names[i].col;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (!seen[COL_NAME])
		o->sum_cols[n++] = COL_NAME;
	o->sum_cols[n] = COL_NONE;
}

enum {
	OPT_JSON = 256, OPT_TIMELINE, OPT_INJECT, OPT_TRACE, OPT_SIGNAL,
	OPT_STATUS, OPT_FF, OPT_QUIET, OPT_DECODE_FDS, OPT_SECCOMP,
	OPT_ABS_TS, OPT_REL_TS, OPT_SC_TIMES, OPT_DECODE_PIDS, OPT_DAEMONIZE,
	OPT_GDB = 0x7900, OPT_NO_SERVE,
};

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
			die("invalid --timestamps argument: '%s'", arg);
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
			die_plain("out of memory");
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
			die_plain("out of memory");
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
	die("invalid -I argument: '%s'", s);
}

/* -x, -xx, --strings-in-hex[=WHICH]: o->print.hexstr, for decode.c's quoting. */
#define OPT_STRINGS_IN_HEX 0x7800

static void parse_hexstr(struct parser *ps, int c, const char *arg)
{
	struct options *o = ps->o;

	if (c == 'x' ? ps->long_seen : ps->xs > 0)
		die_plain("-x and --strings-in-hex cannot be provided "
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
		die("invalid --strings-in-hex argument: '%s'", arg);
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
		{ "summary-only", no_argument, NULL, 'c' },
		{ "summary", no_argument, NULL, 'C' },
		{ "summary-sort-by", required_argument, NULL, 'S' },
		{ "summary-columns", required_argument, NULL, 'U' },
		{ "output-append-mode", no_argument, NULL, 'A' },
		{ "detach-on", required_argument, NULL, 'b' },
		{ "user", required_argument, NULL, 'u' },
		{ "daemonize", optional_argument, NULL, OPT_DAEMONIZE },
		{ "const-print-style", required_argument, NULL, 'X' },
		{ "summary-wall-clock", no_argument, NULL, 'w' },
		{ "quiet", optional_argument, NULL, OPT_QUIET },
		{ "silent", optional_argument, NULL, OPT_QUIET },
		{ "silence", optional_argument, NULL, OPT_QUIET },
		{ "failed-only", no_argument, NULL, 'Z' },
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
		{ "no-serve", no_argument, NULL, OPT_NO_SERVE },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, follow = 0, qflag = 0, yflag = 0, rel_prec = -1, t_prec = -1;
	bool seccomp = false, abs_ts = false, sort_set = false;
	int daemon_short = 0, daemon_long = 0;
	struct parser parser = { .o = o, .ts_format = -1, .ts_prec = -1 };
	struct parser *ps = &parser;

	/* strace's defaults: every signal, abbreviated, -s 32, -a 40 ... */
	printer_defaults(&o->print);
	o->sort = COL_PERCENT;
	o->trace_all = true;
	opterr = 0;
	while ((c = getopt_long(argc, argv,
				"+:fo:e:s:xvyTtrcCS:U:AX:b:u:DwqZzp:P:nikYa:E:I:Vh",
				longopts, NULL)) != -1) {
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
			o->print.strsize = (int)parse_num(optarg, "string limit", 0);
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
				die("invalid --syscall-times argument: '%s'",
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
				die("invalid --relative-timestamps argument: "
				    "'%s'", optarg);
			break;
		case 'n': o->print.print_nr = true; break;
		case 'i': o->print.print_ip = true; break;
		case 'k': o->print.stack_trace = true; break;
		case 'a': {
			char *end;
			long v;

			errno = 0;
			v = strtol(optarg, &end, 10);
			if (!*optarg || *end || errno || v < 0 || v > 0x7fffffff)
				die("invalid -a argument: '%s'", optarg);
			o->print.columns = (int)v;
			break;
		}
		case 'E': env_edit(o, optarg); break;
		case 'I': o->intr = parse_intr(optarg); break;
		case OPT_SECCOMP: seccomp = true; break;
		case 'Y': o->print.decode_pids = true; break;
		case OPT_DECODE_PIDS:
			if (!strcmp(optarg, "comm"))
				o->print.decode_pids = true;
			else if (strcmp(optarg, "pidns") &&
				 strcmp(optarg, "none"))
				die_plain("invalid decode-pids '%s'", optarg);
			break;
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
				die_plain("Syscall '%s' for -b isn't supported",
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
				die("invalid --daemonize argument: '%s'",
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
				die("invalid -X argument: '%s'", optarg);
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
		case OPT_NO_SERVE: o->no_serve = true; break;
		case 'V':
			printf("utrace -- version %s (libutrace API %d)\n",
			       UTRACE_CLI_VERSION, UTRACE_API_VERSION);
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			die("option requires an argument -- '%c'", optopt);
		default:
			if (optopt)
				die("invalid option -- '%c'", optopt);
			die("unrecognized option '%s'", argv[optind - 1]);
		}
	}
	o->follow = follow >= 1;
	o->follow_separately = follow >= 2 && o->outfile;
	if (o->follow_separately &&
	    (*o->outfile == '|' || *o->outfile == '!'))
		die("piping the output and -ff/--output-separately are "
		    "mutually exclusive");
	if (yflag) {
		if (o->decode_fds_given)
			die_plain("-y and --decode-fds cannot be provided "
				  "simultaneously");
		o->print.decode_fds = yflag == 1 ? DF_PATH : DF_ALL;
	}
	/* As strace: only -e quiet=path-resolution silences this, not -qqq. */
	trace_path_resolve(&o->trace_paths, o->print.quiet & Q_PATH, o->print.hexstr);
	if (qflag && ps->quiet_set)
		die_plain("-q and -e quiet/--quiet cannot be provided "
			  "simultaneously");
	if (qflag == 1)
		o->print.quiet = Q_ATTACH | Q_PERSONALITY;
	else if (qflag == 2)
		o->print.quiet = Q_ATTACH | Q_PERSONALITY | Q_EXIT;
	else if (qflag > 2)
		o->print.quiet = Q_ALL;
	if (o->summary_only && o->summary)
		die("-c/--summary-only and -C/--summary are mutually exclusive");
	if (o->summary_only && o->print.stack_trace) {
		fprintf(stderr, "utrace: -k/--stack-traces has no effect with "
			"-c/--summary-only\n");
		o->print.stack_trace = false;
	}
	/* strace 6.1's checks and warnings, in its order. */
	if (follow >= 2 && (o->summary_only || o->summary))
		die("(-c/--summary-only or -C/--summary) and "
		    "-ff/--output-separately are mutually exclusive");
	if (o->wall_clock && !o->summary_only && !o->summary)
		die("-w/--summary-wall-clock must be given with "
		    "(-c/--summary-only or -C/--summary)");
	if (o->sum_cols[0] && !o->summary_only && !o->summary)
		die("-U/--summary-columns must be given with "
		    "(-c/--summary-only or -C/--summary)");
	if (sort_set && !o->summary_only && !o->summary)
		fprintf(stderr, "utrace: -S/--summary-sort-by has no effect "
			"without (-c/--summary-only or -C/--summary)\n");
	if (!o->outfile && o->print.append)
		fprintf(stderr, "utrace: -A/--output-append-mode has no "
			"effect without -o/--output\n");
	if (o->print.json && o->summary_only)
		die("--json and -c/--summary-only are mutually exclusive");
	if (o->print.timestamps > 3)
		o->print.timestamps = 3;
	if (o->print.timestamps && abs_ts)
		die("-t and --absolute-timestamps cannot be provided "
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
		die("must have PROG [ARGS] or -p PID");
	/* strace 6.1's -D checks, in its order. */
	if (daemon_long && daemon_short)
		die_plain("-D and --daemonize cannot be provided "
			  "simultaneously");
	o->daemonize = daemon_long ? daemon_long : daemon_short;
	if (!o->argv && o->daemonize)
		die("PROG [ARGS] must be specified with -D/--daemonize");
	if (o->daemonize > 3)
		die("Too many -D's (%d), maximum supported -D count is 3",
		    o->daemonize);
	if (seccomp && o->detach_execve) {
		fprintf(stderr, "utrace: --seccomp-bpf is not enabled because "
			"it is not compatible with -b\n");
		seccomp = false;
	}
	if (seccomp && !o->follow)
		fprintf(stderr, "utrace: --seccomp-bpf cannot be used without "
			"-f/--follow-forks, disabling\n");
	/* strace: -D makes utrace ignore SIGTSTP too (-I never_tstp). */
	if (o->daemonize && !o->intr)
		o->intr = 4;
	if (o->gdb && !*o->gdb)
		die("--gdb needs an address: :PORT, HOST:PORT or a socket path");
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
