/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A growing string buffer: every decoder and writer appends to one. */
#ifndef UT_SBUF_H
#define UT_SBUF_H

#include <stdarg.h>
#include <stddef.h>

struct sbuf {
	char *p;
	size_t len;
	size_t cap;
};

void sb_reset(struct sbuf *b);
void sb_free(struct sbuf *b);
void sb_putc(struct sbuf *b, char c);
void sb_puts(struct sbuf *b, const char *s);
void sb_putn(struct sbuf *b, const char *s, size_t n);
void sb_printf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vprintf(struct sbuf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
const char *sb_str(struct sbuf *b);
/* JSON string literal of s[0..n), quotes included. */
void sb_json_str(struct sbuf *b, const char *s, size_t n);

#endif
