/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the option parser's files share: opts.c (the command line),
 * sets.c (the sets and lists options take: syscalls, signals, names,
 * descriptors, --inject rules, -U columns), usage.c (-h).
 */
#ifndef UT_OPTIONS_PARSE_H
#define UT_OPTIONS_PARSE_H

#include "cli.h"

/* "utrace: MESSAGE", strace's "Try ... -h" line, exit 1. */
void opt_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* A message strace prints without its "Try ... -h" line. */
void opt_die_plain(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/*
 * A syscall set into set[NR_MAX]: names, /REGEX, ?NAME, %class, all,
 * none, a leading '!'; a later set replaces an earlier one.
 */
void parse_syscall_set(const char *val, bool *set, const char *what);
void parse_signal_set(struct options *o, const char *val);
void parse_status_set(struct options *o, const char *val);
void parse_quiet_set(struct options *o, const char *val);
void parse_decode_fds(struct options *o, const char *val);
void parse_decode_pids(struct options *o, const char *val);
void parse_fd_set(struct num_set *set, const char *val);
void parse_inject(struct options *o, const char *val);
void parse_fault(struct options *o, const char *val);
void parse_pids(struct options *o, const char *s);
enum sum_col parse_sort(const char *s);
void parse_columns(struct options *o, const char *val);
/* A whole number >= min, or "invalid WHAT 'S'". */
long parse_num(const char *s, const char *what, long min);
/* A signal's number from its name (with or without SIG) or number. */
int signal_number(const char *s);

#endif
