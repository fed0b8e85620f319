// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -e read=SET, -e write=SET: after the line of a syscall that read from or
 * wrote to a descriptor of the set, a hex and ASCII dump of the data, in
 * strace 6.1's format:
 *
 *  | 00000  68 65 6c 6c 6f 0a                                 hello.           |
 *
 * Written data is dumped whatever the result (the length asked for), read
 * data only when the syscall succeeded (the length it returned); vectors
 * are dumped buffer by buffer (" * N bytes in buffer I"), and the messages
 * of sendmmsg and recvmmsg vector by vector (" = N buffers in vector I").
 */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "cli.h"

bool num_set_has(const struct num_set *s, long v)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->v[i] == v)
			return !s->not;
	return s->not;
}

/* strace reads the data in pieces of at most this many bytes. */
#define DUMP_CHUNK	(1 << 16)

/*
 * Where the dumped data goes: strace's text, or --json's objects.  The
 * walk below calls start() with the way the data went, vector() before
 * the buffers of each message of sendmmsg/recvmmsg, buffer() for each
 * piece of data (index -1: a plain buffer, not one of a vector).
 */
struct dump_ops {
	void (*start)(void *arg, bool write);
	void (*vector)(void *arg, unsigned i, unsigned long nbufs);
	void (*buffer)(void *arg, const struct dec_ctx *c, int index,
		       unsigned long addr, unsigned long len);
};

static void dump_str(struct sbuf *b, const struct dec_ctx *c,
		     unsigned long addr, unsigned long len)
{
	unsigned char *buf;
	unsigned long i = 0, have = 0, lo;
	int width = 5, j;

	if (len > len + 16 || addr + len < addr)
		return;
	if (len > (1UL << 20))
		width = 1 + (63 - __builtin_clzl(len - 1)) / 4;
	buf = malloc(DUMP_CHUNK);
	if (!buf)
		return;
	while (i < len) {
		char line[16 * 3 + 2 + 16 + 1], *p = line;

		if (i == have) {
			unsigned long n = len - i < DUMP_CHUNK ? len - i :
				DUMP_CHUNK;

			if (c->mem_read(c->mem_ctx, addr + i, buf, n) !=
			    (ssize_t)n) {
				if (i)
					sb_printf(b, " | <Cannot fetch %lu "
						  "byte%s from pid %d @%#lx>\n",
						  n, n == 1 ? "" : "s",
						  (int)c->tid, addr + i);
				break;
			}
			have = i + n;
		}
		lo = i;
		for (j = 0; j < 16; j++, i++) {
			if (i < len)
				p += sprintf(p, "%02x ",
					     buf[i % DUMP_CHUNK]);
			else
				p += sprintf(p, "   ");
			if (j == 7 || j == 15)
				*p++ = ' ';
		}
		for (j = 0; j < 16; j++) {
			unsigned long k = lo + (unsigned long)j;
			unsigned char ch = k < len ? buf[k % DUMP_CHUNK] : ' ';

			*p++ = k < len && (ch < ' ' || ch >= 0x7f) ? '.' :
			       (char)ch;
		}
		*p = '\0';
		sb_printf(b, " | %0*lx  %s |\n", width, lo, line);
	}
	free(buf);
}

static void dump_iov(const struct dump_ops *ops, void *arg,
		     const struct dec_ctx *c, int n, unsigned long addr,
		     unsigned long size)
{
	struct iovec *iov;
	int i;

	if (n <= 0 || (size_t)n > (size_t)-1 / sizeof(*iov))
		return;
	iov = malloc(sizeof(*iov) * (size_t)n);
	if (!iov)
		return;
	if (c->mem_read(c->mem_ctx, addr, iov, sizeof(*iov) * (size_t)n) ==
	    (ssize_t)(sizeof(*iov) * (size_t)n)) {
		for (i = 0; i < n; i++) {
			unsigned long l = iov[i].iov_len;

			if (l > size)
				l = size;
			if (!l)
				break;
			size -= l;
			ops->buffer(arg, c, i, (unsigned long)iov[i].iov_base,
				    l);
		}
	}
	free(iov);
}

static void dump_msghdr(const struct dump_ops *ops, void *arg,
			const struct dec_ctx *c, unsigned long addr,
			unsigned long size)
{
	struct msghdr m;

	if (c->mem_read(c->mem_ctx, addr, &m, sizeof(m)) == sizeof(m))
		dump_iov(ops, arg, c, (int)m.msg_iovlen,
			 (unsigned long)m.msg_iov, size);
}

/* As strace: as many messages as the result says (all -1 of them ...). */
static void dump_mmsghdr(const struct dump_ops *ops, void *arg,
			 const struct dec_ctx *c, unsigned long addr)
{
	unsigned n = (unsigned)c->ret, i;
	struct mmsghdr m;

	for (i = 0; i < n; i++, addr += sizeof(m)) {
		if (c->mem_read(c->mem_ctx, addr, &m, sizeof(m)) != sizeof(m))
			break;
		ops->vector(arg, i, (unsigned long)m.msg_hdr.msg_iovlen);
		dump_iov(ops, arg, c, (int)m.msg_hdr.msg_iovlen,
			 (unsigned long)m.msg_hdr.msg_iov, m.msg_len);
	}
}

enum { D_STR, D_IOV, D_MSG, D_MMSG };

static const struct {
	const char *name;
	bool write;
	int how;
} dumped[] = {
	{ "write", true, D_STR }, { "pwrite64", true, D_STR },
	{ "sendto", true, D_STR }, { "mq_timedsend", true, D_STR },
	{ "writev", true, D_IOV }, { "pwritev", true, D_IOV },
	{ "pwritev2", true, D_IOV }, { "vmsplice", true, D_IOV },
	{ "sendmsg", true, D_MSG }, { "sendmmsg", true, D_MMSG },
	{ "read", false, D_STR }, { "pread64", false, D_STR },
	{ "recvfrom", false, D_STR }, { "mq_timedreceive", false, D_STR },
	{ "readv", false, D_IOV }, { "preadv", false, D_IOV },
	{ "preadv2", false, D_IOV }, { "recvmsg", false, D_MSG },
	{ "recvmmsg", false, D_MMSG },
};

/*
 * The data syscall c read or wrote, if -e read= or -e write= asks for its
 * descriptor: through ops; false when nothing is dumped.
 */
static bool dump_walk(const struct dump_ops *ops, void *arg,
		      const struct dec_ctx *c, const struct num_set *rd,
		      const struct num_set *wr)
{
	const char *name;
	int fd = (int)c->a[0];
	size_t i;

	/* Without -e read= / -e write= (every line): nothing to look up. */
	if ((!rd || (!rd->n && !rd->not)) && (!wr || (!wr->n && !wr->not)))
		return false;
	name = sys_name(c->nr);
	if (!name || fd < 0 || !c->mem_read)
		return false;
	for (i = 0; i < sizeof(dumped) / sizeof(dumped[0]); i++)
		if (!strcmp(name, dumped[i].name))
			break;
	if (i == sizeof(dumped) / sizeof(dumped[0]))
		return false;
	if (dumped[i].write) {
		if (!wr || !num_set_has(wr, fd))
			return false;
	} else if (dec_failed(c) || !rd || !num_set_has(rd, fd)) {
		return false;
	}
	ops->start(arg, dumped[i].write);
	switch (dumped[i].how) {
	case D_STR:
		ops->buffer(arg, c, -1, c->a[1], dumped[i].write ? c->a[2] :
			    (unsigned long)c->ret);
		break;
	case D_IOV:
		dump_iov(ops, arg, c, (int)c->a[2], c->a[1], dumped[i].write ?
			 (unsigned long)-1 : (unsigned long)c->ret);
		break;
	case D_MSG:
		dump_msghdr(ops, arg, c, c->a[1], dumped[i].write ?
			    (unsigned long)-1 : (unsigned long)c->ret);
		break;
	case D_MMSG:
		dump_mmsghdr(ops, arg, c, c->a[1]);
		break;
	}
	return true;
}

/* -- strace's text --------------------------------------------------------- */

static void text_start(void *arg, bool write)
{
}

static void text_vector(void *arg, unsigned i, unsigned long nbufs)
{
	sb_printf(arg, " = %lu buffers in vector %u\n", nbufs, i);
}

static void text_buffer(void *arg, const struct dec_ctx *c, int index,
			unsigned long addr, unsigned long len)
{
	if (index >= 0)
		sb_printf(arg, " * %lu bytes in buffer %d\n", len, index);
	dump_str(arg, c, addr, len);
}

void dump_io(struct sbuf *b, const struct dec_ctx *c,
	     const struct num_set *rd, const struct num_set *wr)
{
	static const struct dump_ops text = {
		text_start, text_vector, text_buffer
	};

	dump_walk(&text, b, c, rd, wr);
}

/* -- --json: "dumps":[{"fd":3,"vector":0,"buffer":1,"length":N,"hex":..}] */

struct json_dump {
	struct sbuf *b;
	int fd;
	bool write;		/* written, not read */
	long vector;		/* -1: not a message of a vector */
	bool any;
};

static void json_start(void *arg, bool write)
{
	struct json_dump *j = arg;

	j->write = write;
}

static void json_vector(void *arg, unsigned i, unsigned long nbufs)
{
	struct json_dump *j = arg;

	j->vector = (long)i;
}

static void json_buffer(void *arg, const struct dec_ctx *c, int index,
			unsigned long addr, unsigned long len)
{
	struct json_dump *j = arg;
	unsigned char *buf = malloc(DUMP_CHUNK);
	unsigned long i, n, got = 0;

	if (!buf)
		return;
	sb_printf(j->b, "%s{\"fd\":%d,\"direction\":\"%s\"",
		  j->any ? "," : "", j->fd, j->write ? "write" : "read");
	if (j->vector >= 0)
		sb_printf(j->b, ",\"vector\":%ld", j->vector);
	if (index >= 0)
		sb_printf(j->b, ",\"buffer\":%d", index);
	sb_puts(j->b, ",\"hex\":\"");
	for (; got < len; got += n) {
		n = len - got < DUMP_CHUNK ? len - got : DUMP_CHUNK;
		if (c->mem_read(c->mem_ctx, addr + got, buf, n) != (ssize_t)n)
			break;
		for (i = 0; i < n; i++)
			sb_printf(j->b, "%02x", buf[i]);
	}
	/* length: what could be read (strace's text says what could not). */
	sb_printf(j->b, "\",\"length\":%lu}", got);
	free(buf);
	j->any = true;
}

void dump_io_json(struct sbuf *b, const struct dec_ctx *c,
		  const struct num_set *rd, const struct num_set *wr)
{
	static const struct dump_ops json = {
		json_start, json_vector, json_buffer
	};
	struct json_dump j = { b, (int)c->a[0], false, -1, false };
	size_t mark = b->len;

	sb_puts(b, ",\"dumps\":[");
	if (!dump_walk(&json, &j, c, rd, wr) || !j.any) {
		b->len = mark;
		return;
	}
	sb_putc(b, ']');
}
