// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The sets and lists the options take, as strace 6.1 reads them:
 * syscalls (-e trace=, --inject), signals, -e status= and quiet= names,
 * --decode-fds, descriptors (-e read=, write=), --inject and -e fault=
 * rules with when=, -p lists, -S and -U columns.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options/parse.h"

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

int signal_number(const char *s)
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
void parse_syscall_set(const char *val, bool *set, const char *what)
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
		opt_die_plain("invalid system call '%s'", val);
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
				opt_die_plain("regcomp: %s: %s", tok + 1, msg);
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
				opt_die_plain("invalid system call '%s'", tok);
		} else if (*tok == '%' || sys_number(tok) < 0) {
			const char *cls = *tok == '%' ? tok + 1 : tok;

			if (!sys_class(cls, tmp) && !optional)
				opt_die_plain("invalid system call '%s'", tok);
		} else {
			nr = sys_number(tok);
			tmp[nr] = true;
		}
	}
	for (i = 0; i < NR_MAX; i++)
		set[i] = neg ? !tmp[i] && sys_name(i) : tmp[i];
	free(copy);
}

void parse_signal_set(struct options *o, const char *val)
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
			opt_die("invalid signal '%s'", tok);
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
		opt_die_plain("invalid %s '%s'", what, s);
	for (tok = strtok_r(s, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < n && strcmp(tok, names[i].name); i++)
			;
		if (i == n)
			opt_die_plain("invalid %s '%s'", what, tok);
		mask |= names[i].bits;
	}
	free(copy);
	return neg ? all & ~mask : mask;
}

void parse_status_set(struct options *o, const char *val)
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
void parse_quiet_set(struct options *o, const char *val)
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
void parse_decode_fds(struct options *o, const char *val)
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

/*
 * -Y, --pidns-translation, --decode-pids=SET (comm, pidns, all, none, a
 * leading !): each replaces the set, as strace's.
 */
void parse_decode_pids(struct options *o, const char *val)
{
	static const struct name_bits names[] = {
		{ "comm", DEC_PID_COMM }, { "pidns", DEC_PID_NS },
		{ "all", DEC_PID_COMM | DEC_PID_NS }, { "none", 0 },
	};

	o->print.decode_pids = parse_name_set(val, "decode-pids", names,
					      sizeof(names) / sizeof(names[0]),
					      DEC_PID_COMM | DEC_PID_NS);
}

long parse_num(const char *s, const char *what, long min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < min)
		opt_die("invalid %s '%s'", what, s);
	return v;
}

/* A number 1..65535, as strace takes for when=; what: inject or fault. */
static unsigned when_num(const char *s, char **end, const char *spec,
			 const char *what)
{
	unsigned long v;

	if (!isdigit((unsigned char)*s))
		opt_die_plain("invalid %s argument '%s'", what, spec);
	errno = 0;
	v = strtoul(s, end, 10);
	if (errno || v < 1 || v > 0xffff)
		opt_die_plain("invalid %s argument '%s'", what, spec);
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
			opt_die_plain("invalid %s argument '%s'", what, spec);
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
		opt_die_plain("invalid %s argument '%s'", what, spec);
}

void parse_inject(struct options *o, const char *val)
{
	char *copy = strdup(val), *colon, *tok, *save = NULL;
	struct inject_rule *r;
	bool action = false;

	if (o->ninject >= MAX_INJECT)
		opt_die("too many --inject rules (at most %d)", MAX_INJECT);
	r = &o->inject[o->ninject++];
	memset(r, 0, sizeof(*r));
	r->first = 1;
	r->last = ~0U;
	r->step = 1;
	colon = strchr(copy, ':');
	if (!colon)
		opt_die("--inject=%s: missing ':' and an action", val);
	*colon = '\0';
	parse_syscall_set(copy, r->set, "--inject");
	for (tok = strtok_r(colon + 1, ":", &save); tok;
	     tok = strtok_r(NULL, ":", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			opt_die("--inject: invalid action '%s'", tok);
		*eq++ = '\0';
		if (!strcmp(tok, "error")) {
			r->error = errno_number(eq);
			if (r->error < 1 || r->error > 4095)
				opt_die("--inject: invalid error '%s'", eq);
			action = true;
		} else if (!strcmp(tok, "retval")) {
			r->retval = parse_num(eq, "retval", 0);
			r->has_retval = true;
			action = true;
		} else if (!strcmp(tok, "signal")) {
			r->signal = signal_number(eq);
			if (r->signal < 1)
				opt_die("--inject: invalid signal '%s'", eq);
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
			opt_die("--inject: unknown action '%s'", tok);
		}
	}
	if (r->error && r->has_retval)
		opt_die("--inject: error= and retval= are mutually exclusive");
	if (!action)
		opt_die("--inject=%s: no action (error=, retval=, signal=, "
		    "delay_enter=, delay_exit=)", val);
	free(copy);
}

/*
 * -e read=SET, -e write=SET: descriptors, "!" (repeatable) complementing,
 * all, none; each option replaces the set, as strace's.
 */
void parse_fd_set(struct num_set *set, const char *val)
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
			opt_die_plain("invalid descriptor '%s'", tok);
		set->v = realloc(set->v, sizeof(*set->v) * (set->n + 1));
		if (!set->v)
			opt_die_plain("out of memory");
		set->v[set->n++] = (long)v;
		any = true;
	}
	free(copy);
	if (!any)
		opt_die_plain("invalid descriptor '%s'", val);
}

/*
 * -e fault=SET[:error=ERRNO][:when=WHEN]: strace's older form of
 * --inject, with only these two keys and ENOSYS when no error is given.
 */
void parse_fault(struct options *o, const char *val)
{
	char *copy = strdup(val), *colon, *tok, *save = NULL;
	struct inject_rule *r;

	if (o->ninject >= MAX_INJECT)
		opt_die("too many --inject rules (at most %d)", MAX_INJECT);
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
				opt_die_plain("invalid fault argument '%s'", val);
		} else {
			opt_die_plain("invalid fault argument '%s'", val);
		}
	}
	if (!r->error)
		r->error = ENOSYS;
	free(copy);
}

void parse_pids(struct options *o, const char *s)
{
	char *copy = strdup(s), *tok, *save = NULL;

	for (tok = strtok_r(copy, ", ", &save); tok;
	     tok = strtok_r(NULL, ", ", &save)) {
		long pid = parse_num(tok, "process id", 1);

		if (o->nattach >= (int)(sizeof(o->attach) /
					 sizeof(o->attach[0])))
			opt_die("too many -p processes");
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

enum sum_col parse_sort(const char *s)
{
	size_t i;

	for (i = 0; i < NCOL_NAMES; i++)
		if (!strcmp(col_names[i].name, s))
			return col_names[i].col;
	opt_die("invalid sortby: '%s'", s);
}

/* -U COL[,COL...]: the -c columns in this order; syscall is always in. */
void parse_columns(struct options *o, const char *val)
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
			opt_die("unknown column name: '%.*s'", (int)len, p);
		if (seen[col_names[i].col])
			opt_die("call summary column has been provided more than "
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

