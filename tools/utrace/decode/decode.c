// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Decoder helpers: strings, flags, fds, the return value, in strace's
 * notation (signals and siginfo are in siginfo.c, pids in pids.c).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "decode/decoders.h"

void dec_printf(struct dec_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(c->out, fmt, ap);
	va_end(ap);
}

void dec_puts(struct dec_ctx *c, const char *s)
{
	sb_puts(c->out, s);
}

void dec_begin(struct dec_ctx *c)
{
	c->nargs = 0;
	c->argpos[c->nargs++] = c->out->len;
}

void dec_sep(struct dec_ctx *c)
{
	sb_puts(c->out, ", ");
	if (c->nargs < DEC_MAX_ARGS)
		c->argpos[c->nargs++] = c->out->len;
}

bool dec_read_mem(struct dec_ctx *c, unsigned long addr, void *buf,
		  size_t len)
{
	if (!addr || !c->mem_read)
		return false;
	return c->mem_read(c->mem_ctx, addr, buf, len) == (ssize_t)len;
}

bool dec_read(struct dec_ctx *c, unsigned long addr, void *buf, size_t len)
{
	return !c->hide_structs && dec_read_mem(c, addr, buf, len);
}

bool dec_failed(const struct dec_ctx *c)
{
	return c->ret < 0 && c->ret >= -4095;
}

bool out_ok(struct dec_ctx *c, unsigned long addr)
{
	if (!addr) {
		dec_puts(c, "NULL");
		return false;
	}
	if (dec_failed(c)) {
		dec_ptr(c, addr);
		return false;
	}
	return true;
}

bool dec_read_out(struct dec_ctx *c, unsigned long addr, void *buf,
		  size_t len)
{
	if (!out_ok(c, addr))
		return false;
	if (dec_read(c, addr, buf, len))
		return true;
	dec_ptr(c, addr);
	return false;
}

bool dec_array_cut(struct dec_ctx *c, unsigned long i)
{
	if (c->no_abbrev || i < (unsigned long)c->strsize)
		return false;
	dec_puts(c, i ? ", ..." : "...");
	return true;
}

void dec_int(struct dec_ctx *c, int v)
{
	sb_putd(c->out, v);
}

void dec_uint(struct dec_ctx *c, unsigned v)
{
	sb_putu(c->out, v);
}

void dec_ulong(struct dec_ctx *c, unsigned long v)
{
	sb_putu(c->out, v);
}

void dec_hex(struct dec_ctx *c, unsigned long v)
{
	sb_putx(c->out, v);
}

/* [N] for a pointer to an int. */
void dec_int_ptr(struct dec_ctx *c, unsigned long addr)
{
	int v;

	if (!addr)
		dec_puts(c, "NULL");
	else if (dec_read(c, addr, &v, sizeof(v)))
		dec_printf(c, "[%d]", v);
	else
		dec_ptr(c, addr);
}

/* An int the tracee points to, as a pid or a descriptor: [1234<sh>]. */
static void int_ptr_as(struct dec_ctx *c, unsigned long addr,
		       void (*put)(struct dec_ctx *c, int v))
{
	int v;

	if (!addr) {
		dec_puts(c, "NULL");
	} else if (dec_read(c, addr, &v, sizeof(v))) {
		dec_puts(c, "[");
		put(c, v);
		dec_puts(c, "]");
	} else {
		dec_ptr(c, addr);
	}
}

static void put_pid_int(struct dec_ctx *c, int v)
{
	dec_pid(c, v);
}

void dec_pid_ptr(struct dec_ctx *c, unsigned long addr)
{
	int_ptr_as(c, addr, put_pid_int);
}

void dec_fd_ptr(struct dec_ctx *c, unsigned long addr)
{
	int_ptr_as(c, addr, dec_fd);
}

static void put_timespec(struct sbuf *b, const struct timespec *ts)
{
	sb_printf(b, "{tv_sec=%lld, tv_nsec=%ld}", (long long)ts->tv_sec,
		  ts->tv_nsec);
}

void dec_timespec(struct dec_ctx *c, unsigned long addr)
{
	struct timespec ts;

	if (!addr)
		dec_puts(c, "NULL");
	else if (dec_read(c, addr, &ts, sizeof(ts)))
		put_timespec(c->out, &ts);
	else
		dec_ptr(c, addr);
}

void dec_itimerspec(struct dec_ctx *c, unsigned long addr)
{
	struct timespec its[2];

	if (!addr) {
		dec_puts(c, "NULL");
	} else if (dec_read(c, addr, its, sizeof(its))) {
		dec_puts(c, "{it_interval=");
		put_timespec(c->out, &its[0]);
		dec_puts(c, ", it_value=");
		put_timespec(c->out, &its[1]);
		dec_puts(c, "}");
	} else {
		dec_ptr(c, addr);
	}
}

void dec_signal(struct dec_ctx *c, unsigned sig)
{
	size_t pos = dec_sym_begin(c);

	dec_puts(c, signame((int)sig));
	dec_sym_end(c, pos, sig, DEC_NUM_UDEC);
}

/* "[0 1 5]": the set bits; as descriptors (with -y paths) if fds. */
void dec_bitset(struct dec_ctx *c, const unsigned long *bits, size_t nbits,
		bool fds)
{
	size_t i;
	bool first = true;

	dec_puts(c, "[");
	for (i = 0; i < nbits; i++) {
		if (!(bits[i / (8 * sizeof(long))] >>
		      (i % (8 * sizeof(long))) & 1))
			continue;
		if (!first)
			dec_puts(c, " ");
		first = false;
		if (fds)
			dec_fd(c, (int)i);
		else
			dec_printf(c, "%zu", i);
	}
	dec_puts(c, "]");
}

void dec_note(struct dec_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->rval_extra, sizeof(c->rval_extra), fmt, ap);
	va_end(ap);
}

/* A clock_t in ticks, with strace's comment in seconds when not zero. */
void dec_clock_t(struct sbuf *b, unsigned long long v)
{
	long hz = sysconf(_SC_CLK_TCK);
	unsigned long long digits = 1;
	int width = 0;

	sb_printf(b, "%llu", v);
	if (!v)
		return;
	if (hz <= 0)
		return;
	while (digits < (unsigned long long)hz) {
		digits *= 10;
		width++;
	}
	sb_printf(b, " /* %llu.%0*llu s */", v / (unsigned long long)hz,
		  width, (v % (unsigned long long)hz) * digits /
		  (unsigned long long)hz);
}

/* The time in a comment, as strace shows it (local time zone). */
void dec_time_comment(struct dec_ctx *c, long long sec, long nsec)
{
	time_t t = (time_t)sec;
	struct tm tm;
	char buf[64], zone[16];

	/* As strace's sprinttime_ex(): none for 0 or a bad nanosecond. */
	if ((!sec && !nsec) || nsec < 0 || nsec > 999999999)
		return;
	if (!localtime_r(&t, &tm))
		return;
	strftime(buf, sizeof(buf), "%FT%T", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	if (nsec)
		dec_printf(c, " /* %s.%09ld%s */", buf, nsec, zone);
	else
		dec_printf(c, " /* %s%s */", buf, zone);
}

void dec_ptr(struct dec_ctx *c, unsigned long addr)
{
	if (addr)
		sb_putx(c->out, addr);
	else
		dec_puts(c, "NULL");
}

void fd_path(pid_t pid, int fd, char *buf, size_t size)
{
	char link[64];
	ssize_t n;

	buf[0] = '\0';
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)pid, fd);
	n = readlink(link, buf, size - 1);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
}

void dec_fd(struct dec_ctx *c, int fd)
{
	sb_putd(c->out, fd);
	fd_decorate(c->out, c->sockets, c->tid, fd, c->decode_fds,
		    c->hexstr);
}

void dec_dirfd(struct dec_ctx *c, int fd)
{
	if (fd == -100) {
		char path[PATH_MAX], link[64];
		size_t pos = dec_sym_begin(c);
		ssize_t n;

		dec_puts(c, "AT_FDCWD");
		dec_sym_end(c, pos, (unsigned long long)-100LL, DEC_NUM_DEC);
		if (!(c->decode_fds & DF_PATH))
			return;
		snprintf(link, sizeof(link), "/proc/%d/cwd", (int)c->tid);
		n = readlink(link, path, sizeof(path) - 1);
		if (n > 0) {
			dec_puts(c, "<");
			dec_quote(c->out, c->hexstr, (unsigned char *)path,
				  (size_t)n, QUOTE_PATH_IN_FD);
			dec_puts(c, ">");
		}
	} else {
		dec_fd(c, fd);
	}
}

/*
 * strace's quoting (its string_quote()), the one function for every string
 * utrace prints: printable ASCII as is, the usual C escapes, and octal for
 * the rest (three digits when the next character is an octal digit).  -x
 * hex-quotes the whole string when a byte other than printable ASCII and
 * \t\n\v\f\r is in it (up to a NUL that ends it), -xx always;
 * --strings-in-hex=non-ascii-chars writes \xNN instead of octal for the
 * bytes that are not printed as they are.  how (QUOTE_*) says where the
 * string ends, what it is between, and what more needs an escape.
 */
bool dec_quote(struct sbuf *b, int hexstr, const unsigned char *s, size_t n,
	       unsigned how)
{
	static const char hexdig[] = "0123456789abcdef";
	bool hex = hexstr == DEC_HEX_ALL || (how & QUOTE_FORCE_HEX);
	bool nul_end = how & QUOTE_0_TERMINATED, angles = how & QUOTE_ANGLES;
	bool ended = false;
	size_t i;

	if (hexstr == DEC_HEX_NON_ASCII && !hex) {
		for (i = 0; i < n; i++) {
			unsigned char ch = s[i];

			if (nul_end && !ch)
				break;
			if (ch > 0x7e || (ch < ' ' && (ch < 9 || ch > 13))) {
				hex = true;
				break;
			}
		}
	}
	/* A NUL in the last place is not shown (not in hex: it is data). */
	if ((how & QUOTE_OMIT_TRAILING_0) && !hex && n && !s[n - 1]) {
		n--;
		ended = true;
	}
	if (!(how & QUOTE_OMIT_QUOTES))
		sb_putc(b, '"');
	for (i = 0; i < n; i++) {
		unsigned char ch = s[i];

		if (!hex) {
			/* A run that needs no escape goes in one copy. */
			size_t j = i;

			while (j < n && s[j] >= ' ' && s[j] < 0x7f &&
			       s[j] != '"' && s[j] != '\\' &&
			       (!angles || (s[j] != '<' && s[j] != '>')))
				j++;
			if (j > i) {
				sb_putn(b, (const char *)s + i, j - i);
				i = j - 1;
				continue;
			}
		}
		if (nul_end && !ch) {
			ended = true;
			break;
		}
		if (hex) {
			char x[4] = { '\\', 'x', hexdig[ch >> 4],
				      hexdig[ch & 15] };

			sb_putn(b, x, sizeof(x));
			continue;
		}
		switch (ch) {
		case '"': sb_puts(b, "\\\""); continue;
		case '\\': sb_puts(b, "\\\\"); continue;
		case '\f': sb_puts(b, "\\f"); continue;
		case '\n': sb_puts(b, "\\n"); continue;
		case '\r': sb_puts(b, "\\r"); continue;
		case '\t': sb_puts(b, "\\t"); continue;
		case '\v': sb_puts(b, "\\v"); continue;
		}
		if (ch >= ' ' && ch < 0x7f && ch != '<' && ch != '>') {
			sb_putc(b, (char)ch);
		} else if (hexstr == DEC_HEX_NON_ASCII_CHARS) {
			char x[4] = { '\\', 'x', hexdig[ch >> 4],
				      hexdig[ch & 15] };

			sb_putn(b, x, sizeof(x));
		} else {
			/* Octal: three digits when an octal digit follows. */
			bool full = i + 1 < n && s[i + 1] >= '0' &&
				    s[i + 1] <= '7';
			char o[4], *q = o;

			*q++ = '\\';
			if (full || ch >= 64)
				*q++ = (char)('0' + (ch >> 6));
			if (full || ch >= 8)
				*q++ = (char)('0' + ((ch >> 3) & 7));
			*q++ = (char)('0' + (ch & 7));
			sb_putn(b, o, (size_t)(q - o));
		}
	}
	if (!(how & QUOTE_OMIT_QUOTES))
		sb_putc(b, '"');
	return ended;
}

/* Read up to size bytes of a NUL-terminated string, page by page. */
static ssize_t read_cstr(struct dec_ctx *c, unsigned long addr, char *buf,
			 size_t size, bool *terminated)
{
	size_t got = 0;

	*terminated = false;
	while (got < size) {
		size_t chunk = 4096 - ((addr + got) & 4095);
		ssize_t n;
		char *nul;

		if (chunk > size - got)
			chunk = size - got;
		/*
		 * Within a page a read is whole or fails; one from a record
		 * may end early, where its capture ends: the string is whole
		 * if its NUL came, and ends there otherwise, as at a page
		 * that cannot be read.
		 */
		n = addr + got && c->mem_read ?
		    c->mem_read(c->mem_ctx, addr + got, buf + got, chunk) : -1;
		if (n <= 0)
			return got ? (ssize_t)got : -1;
		nul = memchr(buf + got, '\0', (size_t)n);
		if (nul) {
			*terminated = true;
			return (ssize_t)(nul - buf);
		}
		if ((size_t)n < chunk)
			return (ssize_t)(got + (size_t)n);
		got += chunk;
	}
	return (ssize_t)got;
}

void dec_path(struct dec_ctx *c, unsigned long addr)
{
	char buf[PATH_MAX + 1];
	bool term;
	ssize_t n;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	n = read_cstr(c, addr, buf, sizeof(buf), &term);
	if (n < 0) {
		dec_ptr(c, addr);
		return;
	}
	dec_quote(c->out, c->hexstr, (unsigned char *)buf, (size_t)n, 0);
	if (!term)
		dec_puts(c, "...");
}

void dec_cstr(struct dec_ctx *c, unsigned long addr)
{
	size_t max = (size_t)c->strsize;
	char small[256], *buf = small;
	bool term;
	ssize_t n;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	/* The default -s 32 needs no allocation. */
	if (max + 1 > sizeof(small))
		buf = malloc(max + 1);
	if (!buf)
		return;
	n = read_cstr(c, addr, buf, max + 1, &term);
	if (n < 0) {
		dec_ptr(c, addr);
	} else {
		bool cut = (size_t)n > max;

		dec_quote(c->out, c->hexstr, (unsigned char *)buf,
			  cut ? max : (size_t)n, 0);
		if (cut)
			dec_puts(c, "...");
	}
	if (buf != small)
		free(buf);
}

void dec_buf_ex(struct dec_ctx *c, unsigned long addr, unsigned long len,
		unsigned how)
{
	size_t n = len < (unsigned long)c->strsize ? len : (size_t)c->strsize;
	unsigned char small[256], *buf = small;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	/* The default -s 32 needs no allocation. */
	if (n + 1 > sizeof(small))
		buf = malloc(n + 1);
	if (!buf)
		return;
	buf[0] = '\0';		/* n may be 0 */
	if (n && !dec_read_mem(c, addr, buf, n)) {
		dec_ptr(c, addr);
	} else if (!dec_quote(c->out, c->hexstr, buf, n, how) && len &&
		   ((how & QUOTE_EXPECT_TRAILING_0) || len > n)) {
		/* Cut at -s, or a string without the NUL it should end in. */
		dec_puts(c, "...");
	}
	if (buf != small)
		free(buf);
}

void dec_buf(struct dec_ctx *c, unsigned long addr, unsigned long len)
{
	dec_buf_ex(c, addr, len, 0);
}

/*
 * A field shown decoded (-X abbrev), as its bytes in hex (-X raw), or both
 * (-X verbose: the bytes, then the decoded text in a comment):
 * dec_xraw_begin() before the decoded text (false: none to print),
 * dec_xraw_end() after it.
 */
bool dec_xraw_begin(struct dec_ctx *c, const void *raw, size_t n)
{
	if (c->xlat_style != DEC_XLAT_ABBREV)
		dec_quote(c->out, DEC_HEX_ALL, raw, n, 0);
	if (c->xlat_style == DEC_XLAT_RAW)
		return false;
	if (c->xlat_style == DEC_XLAT_VERBOSE)
		dec_puts(c, " /* ");
	return true;
}

void dec_xraw_end(struct dec_ctx *c)
{
	if (c->xlat_style == DEC_XLAT_VERBOSE)
		dec_puts(c, " */");
}


size_t dec_sym_begin(struct dec_ctx *c)
{
	c->sym_depth++;
	return c->out->len;
}

/* Whether s[0..n) is a plain number as the flag printers write them. */
static bool plain_number(const char *s, size_t n)
{
	size_t i = 0;

	if (i < n && s[i] == '-')
		i++;
	if (i + 1 < n && s[i] == '0' && s[i + 1] == 'x')
		i += 2;
	if (i == n)
		return false;
	for (; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

static void fmt_num(char *num, size_t size, unsigned long long v, int how)
{
	if (how == DEC_NUM_DEC)
		snprintf(num, size, "%lld", (long long)v);
	else if (how == DEC_NUM_UDEC)
		snprintf(num, size, "%llu", v);
	else if (how == DEC_NUM_OCT)
		snprintf(num, size, "%#llo", v);
	else
		snprintf(num, size, "%#llx", v);
}

void sb_sym(struct sbuf *b, int style, const char *name,
	    unsigned long long v, int how)
{
	char num[64];

	if (style == DEC_XLAT_ABBREV) {
		sb_puts(b, name);
		return;
	}
	fmt_num(num, sizeof(num), v, how);
	sb_puts(b, num);
	if (style == DEC_XLAT_VERBOSE)
		sb_printf(b, " /* %s */", name);
}

void dec_sym_end(struct dec_ctx *c, size_t pos, unsigned long long v,
		 int how)
{
	struct sbuf *b = c->out;
	char num[64], *text;
	size_t n, nl;

	if (--c->sym_depth > 0 || c->xlat_style == DEC_XLAT_ABBREV ||
	    pos > b->len)
		return;
	n = b->len - pos;
	text = strndup(b->p + pos, n);
	if (!text)
		return;
	fmt_num(num, sizeof(num), v, how);
	nl = strlen(num);
	b->len = pos;
	dec_puts(c, num);
	/*
	 * Verbose: the names after the number, unless there were none (the
	 * number alone) or the text is already "NUMBER /\* DEFAULT *\/".
	 */
	if (c->xlat_style == DEC_XLAT_VERBOSE && !plain_number(text, n)) {
		if (n > nl + 4 && !strncmp(text, num, nl) &&
		    !strncmp(text + nl, " /* ", 4))
			dec_puts(c, text + nl);
		else
			dec_printf(c, " /* %s */", text);
	}
	free(text);
}

const char *xlat_name(const struct xlat *x, unsigned long long v)
{
	for (; x->name; x++)
		if (x->val == v)
			return x->name;
	return NULL;
}

static void flags_abbrev(struct dec_ctx *c, const struct xlat *x,
			 unsigned long long v, const char *dflt)
{
	bool any = false;
	const struct xlat *p;

	if (!v) {
		const char *z = xlat_name(x, 0);

		dec_puts(c, z ? z : "0");
		return;
	}
	for (p = x; p->name; p++) {
		if (!p->val || (v & p->val) != p->val)
			continue;
		if (any)
			dec_puts(c, "|");
		dec_puts(c, p->name);
		v &= ~p->val;
		any = true;
	}
	if (v) {
		if (any) {
			dec_puts(c, "|");
			sb_putx(c->out, v);
		} else
			dec_printf(c, "%#llx%s%s%s", v, dflt ? " /* " : "",
				   dflt ? dflt : "", dflt ? " */" : "");
	}
}

void dec_flags(struct dec_ctx *c, const struct xlat *x,
	       unsigned long long v, const char *dflt)
{
	size_t pos = dec_sym_begin(c);

	flags_abbrev(c, x, v, dflt);
	dec_sym_end(c, pos, v, DEC_NUM_HEX);
}

void dec_flags_nz(struct dec_ctx *c, const struct xlat *x,
		  unsigned long long v)
{
	if (v)
		dec_flags(c, x, v, NULL);
}

void dec_xval(struct dec_ctx *c, const struct xlat *x, unsigned long long v,
	      const char *dflt)
{
	const char *n = xlat_name(x, v);
	size_t pos = dec_sym_begin(c);

	if (n)
		dec_puts(c, n);
	else if (dflt)
		dec_printf(c, "%#llx /* %s */", v, dflt);
	else
		dec_printf(c, "%llu", v);
	dec_sym_end(c, pos, v, n || dflt ? DEC_NUM_HEX : DEC_NUM_UDEC);
}

void dec_mode(struct dec_ctx *c, unsigned mode)
{
	dec_printf(c, "%#03o", mode);
}

/* -- Return values --------------------------------------------------------- */

static const char *restart_msg(long err)
{
	switch (err) {
	case 512: return "ERESTARTSYS (To be restarted if SA_RESTART is set)";
	case 513: return "ERESTARTNOINTR (To be restarted)";
	case 514: return "ERESTARTNOHAND (To be restarted if no handler)";
	case 516: return "ERESTART_RESTARTBLOCK (Interrupted by signal)";
	}
	return NULL;
}

/*
 * strerror's text as strace prints it (the C locale's: the command never
 * calls setlocale), without strerror's trip through gettext per line.
 */
static const char *err_text(int e)
{
	const char *s = strerrordesc_np(e);

	return s ? s : strerror(e);
}

void decode_retval(struct dec_ctx *c, struct sbuf *b, bool injected)
{
	long r = c->ret;

	if (c->rval == RV_NONE) {
		sb_putc(b, '?');
		return;
	}
	if (r < 0 && r >= -4095 && c->rval != RV_HEX) {
		const char *rm = restart_msg(-r);
		const char *name = strerrorname_np((int)-r);

		if (rm) {
			sb_puts(b, "? ");
			sb_puts(b, rm);
		} else if (name) {
			sb_puts(b, "-1 ");
			sb_puts(b, name);
			sb_puts(b, " (");
			sb_puts(b, err_text((int)-r));
			sb_putc(b, ')');
		} else
			sb_printf(b, "-1 %ld (errno %ld)", -r, -r);
		if (injected)
			sb_puts(b, " (INJECTED)");
		return;
	}
	if (r < 0 && r >= -4095) {
		sb_printf(b, "-1 %s (%s)", strerrorname_np((int)-r) ?
			  strerrorname_np((int)-r) : "E???", strerror((int)-r));
		if (injected)
			sb_puts(b, " (INJECTED)");
		return;
	}
	switch (c->rval) {
	case RV_HEX:
		sb_putx(b, (unsigned long)r);
		break;
	case RV_OCT:
		sb_printf(b, "%#03lo", (unsigned long)r);
		break;
	case RV_UDEC:
		sb_putu(b, (unsigned long)r);
		break;
	case RV_PID:
		if (r == c->child && c->child_comm[0] &&
		    (c->decode_pids & DEC_PID_COMM) &&
		    !(c->decode_pids & DEC_PID_NS)) {
			sb_putd(b, r);
			sb_putc(b, '<');
			dec_quote(b, c->hexstr, (unsigned char *)c->child_comm,
				  strlen(c->child_comm), QUOTE_PATH_IN_FD);
			sb_putc(b, '>');
		} else {
			sb_pid(b, DEC_FDS(c), r);
		}
		break;
	case RV_FD:
		sb_putd(b, r);
		if (r >= 0 && r <= INT_MAX)
			fd_decorate(b, c->sockets, c->tid, (int)r,
				    c->decode_fds, c->hexstr);
		break;
	default:
		sb_putd(b, r);
		break;
	}
	sb_puts(b, c->rval_extra);
	if (injected)
		sb_puts(b, " (INJECTED)");
}
