// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * --tips: a tip about utrace on stderr when it ends, as strace 6.1 prints
 * one about strace.  The tips are utrace's own; strace's ostrich is not
 * drawn (format full adds where the tip comes from instead).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#include "command.h"

#define TIP_LINES	8

static const char *const tips[][TIP_LINES] = {
	{ "utrace -C prints the trace and the -c table",
	  "at once: a printer and a counter engine on",
	  "every thread, each voting on how it resumes." },
	{ "Another utrace -p PID can join a running",
	  "trace: it finds the tracer from TracerPid",
	  "and traces the same threads beside it." },
	{ "--json writes one JSON object per event,",
	  "with arguments as numbers, flags and",
	  "structures, and strace's text beside them." },
	{ "--timeline FILE writes Chrome trace-event",
	  "JSON: open it in Perfetto to see every",
	  "thread's system calls on a time line." },
	{ "--gdb=:PORT serves gdb's remote protocol",
	  "for the traced program while it is traced:",
	  "target remote :PORT in gdb." },
	{ "utrace -f strace -f PROG works: the program's",
	  "own ptrace calls are served by an engine,",
	  "and the outer trace still shows everything." },
	{ "--inject=openat:error=EACCES:when=2+2 makes",
	  "every second openat fail with EACCES from",
	  "the second on, marked (INJECTED)." },
	{ "-Y shows the command name after each pid,",
	  "in the line's prefix, in arguments, in",
	  "results and in signals' si_pid." },
	{ "-e read=3 and -e write=3 dump in hex the",
	  "data read from and written to descriptor",
	  "3, after the call's line." },
	{ "-P /etc/passwd traces only the calls that",
	  "touch that file, by name or through a",
	  "descriptor open on it." },
};

#define NTIPS	(sizeof(tips) / sizeof(tips[0]))
#define WIDTH	46

void print_tip(int fmt, int id)
{
	struct timeval tv;
	size_t n, i;

	if (fmt == TIPS_NONE)
		return;
	if (id < 0) {
		gettimeofday(&tv, NULL);
		srand((unsigned)(tv.tv_sec ^ tv.tv_usec));
		n = (size_t)rand();
	} else {
		n = (size_t)id;
	}
	n %= NTIPS;
	fprintf(stderr, "  %s\n", "______________________________________________");
	for (i = 0; i < TIP_LINES && tips[n][i]; i++)
		fprintf(stderr, " %c %-*s %c\n", i ? '|' : '/', WIDTH - 2,
			tips[n][i], i ? '|' : '\\');
	fprintf(stderr, " \\%s/\n",
		"______________________________________________");
	if (fmt == TIPS_FULL)
		fprintf(stderr, "  tip %zu of %zu (--tips=id:%zu)\n", n + 1,
			(size_t)NTIPS, n);
}
