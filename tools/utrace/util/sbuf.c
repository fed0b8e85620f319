// SPDX-License-Identifier: LGPL-2.1-or-later
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

void sb_grow_slow(struct sbuf *b, size_t need)
{
	size_t cap = b->cap ? b->cap : 256;
	char *p;

	while (cap < b->len + need + 1)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		fputs("utrace: out of memory\n", stderr);
		exit(1);
	}
	b->p = p;
	b->cap = cap;
}

void sb_reset(struct sbuf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

void sb_free(struct sbuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

void sb_putu(struct sbuf *b, unsigned long long v)
{
	char d[20], *p = d + sizeof(d);

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	sb_putn(b, p, (size_t)(d + sizeof(d) - p));
}

void sb_putd(struct sbuf *b, long long v)
{
	if (v < 0) {
		sb_putc(b, '-');
		sb_putu(b, 0ULL - (unsigned long long)v);
	} else {
		sb_putu(b, (unsigned long long)v);
	}
}

void sb_putx(struct sbuf *b, unsigned long long v)
{
	char d[18], *p = d + sizeof(d);

	if (!v) {
		sb_putc(b, '0');
		return;
	}
	for (; v; v >>= 4)
		*--p = "0123456789abcdef"[v & 15];
	*--p = 'x';
	*--p = '0';
	sb_putn(b, p, (size_t)(d + sizeof(d) - p));
}

/* printf through the C library, in one pass when the text fits. */
static void sb_vprintf_libc(struct sbuf *b, const char *fmt, va_list ap)
{
	size_t avail = b->cap > b->len ? b->cap - b->len : 0;
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(avail ? b->p + b->len : NULL, avail, fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		if (b->p)
			b->p[b->len] = '\0';
		return;
	}
	if ((size_t)n >= avail) {
		sb_grow(b, (size_t)n);
		vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

/* One conversion's pieces, laid out as printf(3) does, in one reserve. */
static void sb_field(struct sbuf *b, const char *pre, size_t npre,
		     size_t zeros, const char *body, size_t nbody,
		     size_t width, bool left, bool zero_pad)
{
	size_t len = npre + zeros + nbody;
	size_t fill = width > len ? width - len : 0;
	char *p;

	sb_grow(b, len + fill);
	p = b->p + b->len;
	if (fill && !left && !zero_pad) {
		memset(p, ' ', fill);
		p += fill;
	}
	for (size_t i = 0; i < npre; i++)
		*p++ = pre[i];
	if (fill && !left && zero_pad) {
		memset(p, '0', fill);
		p += fill;
	}
	for (size_t i = 0; i < zeros; i++)
		*p++ = '0';
	if (nbody > 16) {
		memcpy(p, body, nbody);
		p += nbody;
	} else {
		for (size_t i = 0; i < nbody; i++)
			*p++ = body[i];
	}
	if (fill && left) {
		memset(p, ' ', fill);
		p += fill;
	}
	b->len = (size_t)(p - b->p);
	*p = '\0';
}

/*
 * The conversions the decoders use (d i u x X o c s p %, with flags,
 * width, precision and the integer length modifiers), formatted here:
 * vsnprintf's set-up per call costs more than most fields it prints.
 * Returns false, having consumed @ap in part, at anything else (floating
 * point, %n, wide characters, a NULL %s, ...): the caller starts over with
 * the C library.
 */
static bool sb_format(struct sbuf *b, const char *fmt, va_list ap)
{
	const char *f = fmt, *pct;

	while ((pct = strchr(f, '%'))) {
		bool left = false, zero = false, alt = false, plus = false;
		bool space = false, has_prec = false, neg = false;
		int len = 0;		/* -2 hh, -1 h, 0, 1 l, 2 ll, 3 z/j/t */
		size_t width = 0, prec = 0, ndig, zeros;
		unsigned long long v;
		char digits[32], *d = digits + sizeof(digits), pre[3];
		size_t npre = 0;
		unsigned base;
		char conv;

		sb_putn(b, f, (size_t)(pct - f));
		f = pct + 1;
		if (*f == '%') {
			sb_putc(b, '%');
			f++;
			continue;
		}
		for (;; f++) {
			if (*f == '-')
				left = true;
			else if (*f == '0')
				zero = true;
			else if (*f == '#')
				alt = true;
			else if (*f == '+')
				plus = true;
			else if (*f == ' ')
				space = true;
			else
				break;
		}
		if (*f == '*') {
			int w = va_arg(ap, int);

			if (w < 0) {
				left = true;
				w = -w;
			}
			width = (size_t)w;
			f++;
		} else {
			while (*f >= '0' && *f <= '9')
				width = width * 10 + (size_t)(*f++ - '0');
		}
		if (*f == '.') {
			f++;
			has_prec = true;
			if (*f == '*') {
				int p = va_arg(ap, int);

				f++;
				if (p < 0)
					has_prec = false;
				else
					prec = (size_t)p;
			} else {
				while (*f >= '0' && *f <= '9')
					prec = prec * 10 + (size_t)(*f++ - '0');
			}
		}
		if (width > 4096 || prec > 4096)
			return false;
		if (*f == 'h') {
			len = -1;
			if (*++f == 'h') {
				len = -2;
				f++;
			}
		} else if (*f == 'l') {
			len = 1;
			if (*++f == 'l') {
				len = 2;
				f++;
			}
		} else if (*f == 'z' || *f == 'j' || *f == 't') {
			len = 3;	/* all 64-bit here */
			f++;
		}
		conv = *f++;
		switch (conv) {
		case 'c': {
			char c;

			if (len || has_prec || zero)
				return false;
			c = (char)va_arg(ap, int);
			sb_field(b, "", 0, 0, &c, 1, width, left, false);
			continue;
		}
		case 's': {
			const char *s;

			if (len || zero)
				return false;
			s = va_arg(ap, const char *);
			if (!s)
				return false;
			sb_field(b, "", 0, 0, s,
				 has_prec ? strnlen(s, prec) : strlen(s),
				 width, left, false);
			continue;
		}
		case 'p': {
			void *p;

			if (len || left || zero || alt || plus || space ||
			    width || has_prec)
				return false;
			p = va_arg(ap, void *);
			if (!p) {
				sb_puts(b, "(nil)");
				continue;
			}
			v = (uintptr_t)p;
			conv = 'x';
			alt = true;
			base = 16;
			break;
		}
		case 'd':
		case 'i': {
			long long s;

			if (len >= 2)
				s = len == 2 ? va_arg(ap, long long) :
					       (long long)va_arg(ap, long);
			else if (len == 1)
				s = va_arg(ap, long);
			else
				s = va_arg(ap, int);
			if (len == -1)
				s = (short)s;
			else if (len == -2)
				s = (signed char)s;
			neg = s < 0;
			v = neg ? 0ULL - (unsigned long long)s :
				  (unsigned long long)s;
			base = 10;
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			if (len >= 2)
				v = len == 2 ? va_arg(ap, unsigned long long) :
					       va_arg(ap, unsigned long);
			else if (len == 1)
				v = va_arg(ap, unsigned long);
			else
				v = va_arg(ap, unsigned int);
			if (len == -1)
				v = (unsigned short)v;
			else if (len == -2)
				v = (unsigned char)v;
			base = conv == 'u' ? 10 : conv == 'o' ? 8 : 16;
			break;
		default:
			return false;
		}
		/* An integer: sign or prefix, zeros, digits. */
		if (base == 10) {
			for (unsigned long long x = v; x; x /= 10)
				*--d = (char)('0' + x % 10);
		} else {
			const char *xd = conv == 'X' ? "0123456789ABCDEF" :
						       "0123456789abcdef";
			unsigned shift = base == 16 ? 4 : 3;

			for (unsigned long long x = v; x; x >>= shift)
				*--d = xd[x & (base - 1)];
		}
		ndig = (size_t)(digits + sizeof(digits) - d);
		if (!v && !(has_prec && !prec)) {
			*--d = '0';
			ndig = 1;
		}
		zeros = has_prec && prec > ndig ? prec - ndig : 0;
		if (conv == 'd' || conv == 'i') {
			if (neg)
				pre[npre++] = '-';
			else if (plus)
				pre[npre++] = '+';
			else if (space)
				pre[npre++] = ' ';
		} else if (alt && conv == 'o') {
			if (!zeros && (!ndig || *d != '0'))
				zeros = 1;
		} else if (alt && v && (conv == 'x' || conv == 'X')) {
			pre[npre++] = '0';
			pre[npre++] = conv;
		}
		sb_field(b, pre, npre, zeros, d, ndig, width, left,
			 zero && !left && !has_prec);
	}
	sb_puts(b, f);
	return true;
}

void sb_vprintf(struct sbuf *b, const char *fmt, va_list ap)
{
	size_t start = b->len;
	va_list ap2;

	va_copy(ap2, ap);
	if (!sb_format(b, fmt, ap2)) {
		b->len = start;
		if (b->p)
			b->p[start] = '\0';
		sb_vprintf_libc(b, fmt, ap);
	}
	va_end(ap2);
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(b, fmt, ap);
	va_end(ap);
}

const char *sb_str(struct sbuf *b)
{
	if (!b->p)
		sb_grow(b, 0);
	b->p[b->len] = '\0';
	return b->p;
}

void sb_json_str(struct sbuf *b, const char *s, size_t n)
{
	size_t i;

	sb_putc(b, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			sb_putc(b, '\\');
			sb_putc(b, (char)c);
		} else if (c == '\n') {
			sb_puts(b, "\\n");
		} else if (c == '\t') {
			sb_puts(b, "\\t");
		} else if (c < 0x20 || c >= 0x7f) {
			sb_printf(b, "\\u%04x", c);
		} else {
			sb_putc(b, (char)c);
		}
	}
	sb_putc(b, '"');
}
