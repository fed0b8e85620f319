// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The trace's outputs (struct sink, sink.h): a file, stderr or a '|cmd',
 * written in whole lines, with the messages that wait for an open line.
 */
#include <errno.h>
#include <fcntl.h>
#include <paths.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engines/sink.h"

/*
 * Messages go to stderr.  When the trace goes there too, a message that
 * comes while a line is open waits: it follows the line when the line
 * ends, or, when another thread cuts the line first, it goes out before
 * the " <unfinished ...>" (strace prints "Process N attached" when it
 * first sees the child, which is one of these two places).
 */
void sink_flush_msgs(struct sink *o)
{
	if (!o->msgq.len)
		return;
	sink_write(o, o->msgq.p, o->msgq.len);
	sb_reset(&o->msgq);
}

/*
 * A failed write is reported as strace does ("utrace: FILE: error"), and
 * the text dropped.
 */
void sink_write_out(struct sink *o, bool all)
{
	size_t n = o->buf.len, done = 0;
	int fd;

	if (!n || !o->f)
		return;
	if (!all && !o->tty) {
		const char *nl = memrchr(o->buf.p, '\n', n);

		if (!nl)
			return;
		n = (size_t)(nl - o->buf.p) + 1;
	}
	fd = fileno(o->f);
	while (done < n) {
		ssize_t w = write(fd, o->buf.p + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int err = w < 0 ? errno : ENOSPC;

			o->failed = true;
			if (fd != STDERR_FILENO)
				fprintf(stderr, "utrace: %s: %s\n", o->name,
					strerror(err));
			break;
		}
		done += (size_t)w;
	}
	memmove(o->buf.p, o->buf.p + n, o->buf.len - n);
	o->buf.len -= n;
}

void sink_reopen(struct sink *o, FILE *f, const char *name)
{
	char *copy = strdup(name ? name : "?");

	if (copy) {
		free(o->name);
		o->name = copy;
	}
	o->f = f;
	o->tty = isatty(fileno(f));
}

struct sink *sink_new(FILE *f, const char *name)
{
	struct sink *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	sink_reopen(o, f, name);
	if (!o->name) {
		free(o);
		return NULL;
	}
	return o;
}

/* Write o out and close its file (not stderr); the shell of '|cmd' ends. */
static void out_close(struct sink *o)
{
	sink_flush_msgs(o);
	sink_write_out(o, true);
	if (o->f && o->f != stderr && fclose(o->f) && !o->failed) {
		o->failed = true;
		fprintf(stderr, "utrace: %s: %s\n", o->name, strerror(errno));
	}
	o->f = NULL;
	if (o->pipe_pid > 0) {
		/* As strace: the command gets EOF and we wait for it. */
		while (waitpid(o->pipe_pid, NULL, 0) < 0 && errno == EINTR)
			;
		o->pipe_pid = 0;
	}
}

bool sink_free(struct sink *o)
{
	bool failed;

	if (!o)
		return false;
	out_close(o);
	failed = o->failed;
	sb_free(&o->buf);
	sb_free(&o->msgq);
	free(o->name);
	free(o);
	return failed;
}

void sink_msg(struct sink *o, const char *fmt, ...)
{
	struct sbuf b = { 0 };
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	sb_printf(&b, "utrace: %s\n", s);
	free(s);
	if (o && o->f == stderr && o->open) {
		sb_putn(&o->msgq, b.p, b.len);
	} else if (o && o->f == stderr) {
		sink_write(o, b.p, b.len);
	} else {
		fwrite(b.p, 1, b.len, stderr);
	}
	sb_free(&b);
}

/* '|cmd' or '!cmd': the trace goes to the standard input of sh -c cmd. */
static FILE *open_pipe(const char *cmd, pid_t *pid)
{
	int fds[2];
	FILE *f;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return NULL;
	*pid = fork();
	if (*pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (*pid == 0) {
		if (dup2(fds[0], 0) < 0)
			_exit(127);
		execl(_PATH_BSHELL, "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	f = fdopen(fds[1], "w");
	if (!f)
		close(fds[1]);
	/* A command that stops reading must not kill us, nor the tracees. */
	signal(SIGPIPE, SIG_IGN);
	return f;
}

int sink_open(const char *spec, bool append, struct sink **out)
{
	const char *name = spec;
	pid_t pid = 0;
	FILE *f;
	int err;

	if (spec && (*spec == '|' || *spec == '!')) {
		f = open_pipe(spec + 1, &pid);
		if (!f) {
			err = -errno;
			fprintf(stderr, "utrace: can't popen '%s': %s\n",
				spec + 1, strerror(errno));
			return err;
		}
	} else if (spec) {
		f = fopen(spec, append ? "ae" : "we");
		if (!f) {
			err = -errno;
			fprintf(stderr, "utrace: can't fopen '%s': %s\n",
				spec, strerror(errno));
			return err;
		}
	} else {
		f = stderr;
		name = "stderr";
	}
	*out = sink_new(f, name);
	if (!*out) {
		if (f != stderr)
			fclose(f);
		return -ENOMEM;
	}
	(*out)->pipe_pid = pid;
	return 0;
}

FILE *sink_file(struct sink *o)
{
	sink_flush_msgs(o);
	sink_write_out(o, true);
	return o->f;
}

void sink_flush(struct sink *o)
{
	sink_write_out(o, false);
}

bool sink_failed(struct sink *o)
{
	if (o->f && (fflush(o->f) || ferror(o->f)) && !o->failed) {
		o->failed = true;
		fprintf(stderr, "utrace: %s: %s\n", o->name, strerror(errno));
	}
	return o->failed;
}

void sink_finish(struct sink *o)
{
	sink_flush_msgs(o);
	sink_write_out(o, true);
	fflush(o->f);
	if (o->pipe_pid > 0) {
		/* Later messages and the -c table go to stderr. */
		out_close(o);
		o->f = stderr;
		o->tty = isatty(STDERR_FILENO);
	}
}


void sink_write(struct sink *o, const char *s, size_t n)
{
	if (!n)		/* an empty buffer may have no storage yet */
		return;
	sb_putn(&o->buf, s, n);
	if (o->buf.len >= OUT_BATCH)
		sink_write_out(o, false);
}

void sink_puts(struct sink *o, const char *s)
{
	sink_write(o, s, strlen(s));
}

