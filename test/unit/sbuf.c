// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The CLI's string buffer (tools/utrace/util/sbuf.c) formats the common printf
 * conversions itself: every combination of flags, width, precision and
 * length it takes must print exactly what snprintf(3) prints, and what it
 * leaves to the C library (floating point, NULL strings, ...) too.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <wchar.h>
#include <stdint.h>

#include "harness.h"
#include "util/sbuf.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-extra-args"

static int mismatches;

/* sb_vprintf after some text already in the buffer, against vsnprintf. */
static void same(const char *fmt, ...)
{
	char want[512];
	struct sbuf b = { 0 };
	va_list ap, ap2;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	want[0] = '<';
	vsnprintf(want + 1, sizeof(want) - 1, fmt, ap);
	sb_puts(&b, "<");
	sb_vprintf(&b, fmt, ap2);
	va_end(ap2);
	va_end(ap);
	if ((strcmp(want, sb_str(&b)) || b.len != strlen(want)) &&
	    mismatches++ < 20)
		fprintf(stderr, "# \"%s\": want \"%s\" got \"%s\"\n", fmt,
			want, sb_str(&b));
	sb_free(&b);
}

static const char *const flags[] = { "", "-", "0", "#", "+", " ", "-#",
				      "0#", "+0", "- ", "#0-" };
static const char *const widths[] = { "", "1", "5", "23", "*" };
static const char *const precs[] = { "", ".", ".0", ".1", ".4", ".30", ".*" };
static const char *const ints[] = { "d", "i", "u", "x", "X", "o" };
static const char *const lens[] = { "hh", "h", "", "l", "ll", "z", "j", "t" };

static const long long values[] = {
	0, 1, -1, 7, 8, 9, 10, 15, 16, 255, 256, -128, 32767, -32768, 65535,
	INT_MAX, INT_MIN, UINT_MAX, 0x7fffffffffffffffLL, LLONG_MIN,
	0x123456789abcLL, -0x123456789abcLL,
};

/* One spec, its '*' arguments and the value, in the right C type. */
static void one(const char *fmt, const char *len, bool wstar, bool pstar,
		long long v)
{
	int w = wstar ? (v & 1 ? -7 : 9) : 0, p = pstar ? (v & 2 ? -1 : 3) : 0;

#define ARGS(x) if (wstar && pstar) same(fmt, w, p, x);			\
	else if (wstar) same(fmt, w, x);				\
	else if (pstar) same(fmt, p, x);				\
	else same(fmt, x)
	(void)w;
	(void)p;
	if (!strcmp(len, "ll") || !strcmp(len, "j"))
		ARGS(v);
	else if (!strcmp(len, "l") || !strcmp(len, "z") || !strcmp(len, "t"))
		ARGS((long)v);
	else
		ARGS((int)v);
#undef ARGS
}

TEST(integers_as_snprintf)
{
	char fmt[64], spec[40];

	for (size_t f = 0; f < sizeof(flags) / sizeof(*flags); f++)
	for (size_t w = 0; w < sizeof(widths) / sizeof(*widths); w++)
	for (size_t p = 0; p < sizeof(precs) / sizeof(*precs); p++)
	for (size_t l = 0; l < sizeof(lens) / sizeof(*lens); l++)
	for (size_t c = 0; c < sizeof(ints) / sizeof(*ints); c++) {
		snprintf(spec, sizeof(spec), "%%%s%s%s%s%s", flags[f],
			 widths[w], precs[p], lens[l], ints[c]);
		snprintf(fmt, sizeof(fmt), "a%sb", spec);
		for (size_t v = 0; v < sizeof(values) / sizeof(*values); v++)
			one(fmt, lens[l], widths[w][0] == '*',
			    !strcmp(precs[p], ".*"), values[v]);
	}
	CHECK_EQ(mismatches, 0);
}

TEST(strings_chars_pointers_and_the_rest)
{
	static const char *const sf[] = { "%s", "%5s", "%-5s|", "%.2s", "%*s",
					  "%-*s|", "%.*s", "%05s", "%1s" };
	static const char *const cf[] = { "%c", "%3c", "%-3c|", "%*c", "%03c" };

	for (size_t i = 0; i < sizeof(sf) / sizeof(*sf); i++) {
		bool star = strchr(sf[i], '*');

		if (star) {
			same(sf[i], 7, "abc");
			same(sf[i], -7, "abcdefghij");
			same(sf[i], 0, "");
		} else {
			same(sf[i], "abc");
			same(sf[i], "");
			same(sf[i], "abcdefghij");
			same(sf[i], (char *)NULL);
		}
	}
	for (size_t i = 0; i < sizeof(cf) / sizeof(*cf); i++) {
		if (strchr(cf[i], '*')) {
			same(cf[i], 4, 'x');
			same(cf[i], -4, 'y');
		} else {
			same(cf[i], 'x');
			same(cf[i], 0xe9);
		}
	}
	same("%p %p", (void *)0, (void *)0x7ffd1234);
	same("%10p|%-18p|%#p", (void *)0x1000, (void *)0, (void *)0xabc);
	same("%%d %s%% %%", "x");
	same("plain text, no conversion");
	same("");
	same("%f %.3g %e %a", 1.5, 2.25, 1e10, 0.5);
	same("%ld.%06ld %s %lu", 12L, 345L, "s", 99UL);
	same("%d %n", 1, &(int){ 0 });
	same("%lc %ls", (wint_t)'a', L"wide");
	same("%5.3d|%-+8.4i|%#012.5lx|%#o|%#.0o|%#.0x|% 05d", 7, -42,
	     0xabcUL, 0, 0, 0, 12);
	CHECK_EQ(mismatches, 0);
}

TEST(long_output_grows_the_buffer)
{
	struct sbuf b = { 0 };
	char big[3000];

	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (int i = 0; i < 50; i++)
		sb_printf(&b, "%s%d%.1f", big, i, 0.5);
	CHECK_EQ(b.len, (size_t)50 * (2999 + 3) + 10 * 1 + 40 * 2);
	CHECK_EQ(strlen(sb_str(&b)), b.len);
	CHECK(!memcmp(b.p + b.len - 5, "490.5", 5));
	sb_free(&b);
}

int main(void)
{
	return test_main();
}
