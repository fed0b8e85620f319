/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The inside of a sink (sink.c), for the printer that writes to it; the
 * rest of the command uses the sink_* functions of cli.h.
 *
 * An output.  Trace text collects in buf and is written to the file's
 * descriptor in whole lines: when the loop is about to wait (sink_flush),
 * or when buf grows past OUT_BATCH.  A kill of utrace can thus never leave a
 * line cut in a file or a pipe.  A terminal also gets the open line, as
 * strace shows "read(0, " while the call blocks.  stdio on f is used only
 * for the -c table, after buf was written out (sink_file).
 */
#ifndef UT_SINK_H
#define UT_SINK_H

#include "cli.h"

#define OUT_BATCH	(1 << 16)

struct sink {
	FILE *f;
	struct sbuf buf;	/* text not yet written */
	bool tty;		/* a terminal: write partial lines too */
	char *name;		/* for the write error message */
	void *open;		/* the printer's thread whose line is open */
	struct sbuf msgq;	/* messages waiting for the open line */
	bool failed;		/* a write failed (said already) */
	pid_t pipe_pid;		/* '|cmd': the command's shell */
};

/* Text for the sink (written out when OUT_BATCH is reached). */
void sink_write(struct sink *o, const char *s, size_t n);
void sink_puts(struct sink *o, const char *s);
/*
 * Write out the text: all of it, or (all false) up to the last complete
 * line, or for a terminal all of it too.
 */
void sink_write_out(struct sink *o, bool all);
/* The messages that waited for the open line, now. */
void sink_flush_msgs(struct sink *o);
/* o's file is f now (o's former one is closed already). */
void sink_reopen(struct sink *o, FILE *f, const char *name);

#endif
