// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace --gdb: host I/O (gdbserver's hostio): vFile, gdb reading the
 * program and /proc files through the target.  The stub runs on the
 * same machine, so these are its own files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gdb/gdb.h"
#include "util/sbuf.h"

bool gdb_read_file(const char *path, struct sbuf *b)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sb_putn(b, buf, (size_t)n);
	close(fd);
	return true;
}

/*
 * vFile: gdb reads the program and /proc files through the target.  The
 * stub runs on the same machine, so these are its own files; at most 16
 * are open at a time and all close with the connection.
 */
static void vfile_reply(struct gdbstub *s, long r, int err)
{
	char buf[32];

	if (r < 0)
		snprintf(buf, sizeof(buf), "F-1,%x", err);
	else
		snprintf(buf, sizeof(buf), "F%lx", r);
	gdb_send_packet(s, buf);
}

void gdb_do_vfile(struct gdbstub *s, const char *p)
{
	unsigned long a, b, c;
	int i;

	if (!strncmp(p, "setfs:", 6)) {
		vfile_reply(s, 0, 0);
	} else if (!strncmp(p, "open:", 5)) {
		char name[4096];
		const char *q = p + 5;
		const char *comma = strchr(q, ',');
		ssize_t n;
		int fd;

		if (!comma || (size_t)(comma - q) / 2 >= sizeof(name)) {
			vfile_reply(s, -1, EINVAL);
			return;
		}
		n = gdb_get_hex((unsigned char *)name, q, (size_t)(comma - q) / 2);
		if (n < 0) {
			vfile_reply(s, -1, EINVAL);
			return;
		}
		name[n] = 0;
		q = comma + 1;
		if (!gdb_parse_ulong(&q, &a) || (a & 3) != 0) {
			/* Read only: gdb's O_RDONLY is 0. */
			vfile_reply(s, -1, EACCES);
			return;
		}
		for (i = 0; i < 16 && s->vfd[i] > 0; i++)
			;
		if (i == 16) {
			vfile_reply(s, -1, EMFILE);
			return;
		}
		fd = open(name, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			vfile_reply(s, -1, errno == ENOENT ? 2 : errno == EACCES
				    ? 13 : 9999);
			return;
		}
		s->vfd[i] = fd + 1;
		vfile_reply(s, i, 0);
	} else if (!strncmp(p, "pread:", 6)) {
		const char *q = p + 6;
		char *buf, *out;
		ssize_t n;
		int len;

		if (!gdb_parse_ulong(&q, &a) || *q++ != ',' ||
		    !gdb_parse_ulong(&q, &b) || *q++ != ',' ||
		    !gdb_parse_ulong(&q, &c) || a >= 16 || !s->vfd[a]) {
			vfile_reply(s, -1, 9);
			return;
		}
		if (b > PKT_MAX / 2 - 32)
			b = PKT_MAX / 2 - 32;
		buf = malloc(b + 1);
		out = malloc(2 * b + 32);
		if (!buf || !out) {
			free(buf);
			free(out);
			vfile_reply(s, -1, 12);
			return;
		}
		n = pread(s->vfd[a] - 1, buf, b, (off_t)c);
		if (n < 0) {
			vfile_reply(s, -1, 5);
		} else {
			len = snprintf(out, 32, "F%lx;", (unsigned long)n);
			gdb_send_packet_len(s, out, (size_t)len +
					gdb_put_bin(out + len,
						(unsigned char *)buf,
						(size_t)n));
		}
		free(buf);
		free(out);
	} else if (!strncmp(p, "close:", 6)) {
		const char *q = p + 6;

		if (!gdb_parse_ulong(&q, &a) || a >= 16 || !s->vfd[a]) {
			vfile_reply(s, -1, 9);
			return;
		}
		close(s->vfd[a] - 1);
		s->vfd[a] = 0;
		vfile_reply(s, 0, 0);
	} else {
		gdb_send_packet(s, "");
	}
}

/* The connection ends: its files close with it. */
void gdb_hostio_close(struct gdbstub *s)
{
	int i;

	for (i = 0; i < 16; i++)
		if (s->vfd[i])
			close(s->vfd[i] - 1);
	memset(s->vfd, 0, sizeof(s->vfd));
}
