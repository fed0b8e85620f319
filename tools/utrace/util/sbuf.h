/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A growing string buffer: every decoder and writer appends to one. */
#ifndef UT_SBUF_H
#define UT_SBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

struct sbuf {
	char *p;
	size_t len;
	size_t cap;
};

void sb_reset(struct sbuf *b);
void sb_free(struct sbuf *b);
/* Grows the buffer for @need more bytes and a NUL; exits when out of memory. */
void sb_grow_slow(struct sbuf *b, size_t need);

/*
 * The appenders every decoder calls for each field are inline: a line is
 * some thirty of them, and the call was most of their cost.
 */
static inline void sb_grow(struct sbuf *b, size_t need)
{
	if (b->len + need + 1 > b->cap)
		sb_grow_slow(b, need);
}

static inline void sb_putn(struct sbuf *b, const char *s, size_t n)
{
	sb_grow(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static inline void sb_putc(struct sbuf *b, char c)
{
	sb_grow(b, 1);
	b->p[b->len++] = c;
	b->p[b->len] = '\0';
}

static inline void sb_puts(struct sbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

/* printf's %lld, %llu and %#llx (0 as "0"), without parsing a format. */
void sb_putd(struct sbuf *b, long long v);
void sb_putu(struct sbuf *b, unsigned long long v);
void sb_putx(struct sbuf *b, unsigned long long v);
void sb_printf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vprintf(struct sbuf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
const char *sb_str(struct sbuf *b);
/* JSON string literal of s[0..n), quotes included. */
void sb_json_str(struct sbuf *b, const char *s, size_t n);

#endif
