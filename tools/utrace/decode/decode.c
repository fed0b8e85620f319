// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Decoder helpers: strings, flags, fds, signal sets, siginfo and the return
 * value, in strace's notation.
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
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>

#include "decode/decoders.h"
#include "util/misc.h"

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

/* The pid namespace of thread tid of process pid ("pid:[INODE]"). */
static void task_ns(int pid, int tid, char *ns, size_t size)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/ns/pid", pid, tid);
	n = readlink(path, ns, size - 1);
	ns[n > 0 ? n : 0] = '\0';
}

/* The last (innermost) id of a thread's NSpid: line, 0 if none. */
static long innermost_id(int pid, int tid)
{
	char path[64], line[256];
	long id = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "NSpid:", 6)) {
			char *p = line + 6, *end;

			for (;;) {
				long v = strtol(p, &end, 10);

				if (end == p)
					break;
				id = v;
				p = end;
			}
			break;
		}
	fclose(f);
	return id;
}

/* The numeric entries of directory path, through fn until it says stop. */
static int each_number(const char *path, int (*fn)(int n, void *arg),
		       void *arg)
{
	struct dirent *de;
	int found = 0;
	DIR *d = opendir(path);

	while (d && !found && (de = readdir(d)))
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
			found = fn(atoi(de->d_name), arg);
	if (d)
		closedir(d);
	return found;
}

/* A search for id in namespace ns: the process whose tasks are looked at. */
struct ns_search {
	const char *ns;
	long id;
	int pid;
};

static int match_task(int tid, void *arg)
{
	struct ns_search *s = arg;
	char ns[64];

	task_ns(s->pid, tid, ns, sizeof(ns));
	return !strcmp(ns, s->ns) && innermost_id(s->pid, tid) == s->id ?
	       tid : 0;
}

static int match_process(int pid, void *arg)
{
	struct ns_search *s = arg;
	char path[32];

	s->pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	return each_number(path, match_task, s);
}

/*
 * Id pid as thread tid sees it, in utrace's namespace: pid itself when
 * tid is in utrace's namespace, else the thread whose innermost NSpid is
 * pid among those in tid's namespace (one in a namespace below it is not
 * found: 0), as strace's translate_pid() does for its own.
 */
static pid_t pid_to_ours(pid_t tid, long pid)
{
	char ours[64], theirs[64];
	struct ns_search s = { theirs, pid, 0 };
	ssize_t n;

	if (pid <= 0 || pid > INT_MAX)
		return 0;
	task_ns(tid, tid, theirs, sizeof(theirs));
	n = readlink("/proc/self/ns/pid", ours, sizeof(ours) - 1);
	ours[n > 0 ? n : 0] = '\0';
	if (!theirs[0] || !strcmp(ours, theirs))
		return (pid_t)pid;
	return each_number("/proc", match_process, &s);
}

/* What follows id pid: <comm>, the id in utrace's namespace. */
static void pid_note(struct sbuf *b, pid_t tid, unsigned how, int hexstr,
		     long pid)
{
	char comm[64];
	pid_t ours;

	if (!how || pid <= 0)
		return;
	ours = pid_to_ours(tid, pid);
	if (!ours)
		return;
	if ((how & DEC_PID_COMM) && proc_comm(ours, comm, sizeof(comm)) &&
	    comm[0]) {
		sb_putc(b, '<');
		dec_quote(b, hexstr, (unsigned char *)comm, strlen(comm),
			  QUOTE_PATH_IN_FD);
		sb_putc(b, '>');
	}
	if ((how & DEC_PID_NS) && ours != pid)
		sb_printf(b, " /* %d in utrace's PID NS */", (int)ours);
}

void sb_pid(struct sbuf *b, const struct fd_view *v, long pid)
{
	sb_putd(b, pid);
	pid_note(b, v->tid, v->decode_pids, v->hexstr, pid);
}

void dec_pid(struct dec_ctx *c, long pid)
{
	sb_pid(c->out, DEC_FDS(c), pid);
}

void dec_pgid(struct dec_ctx *c, long pgid)
{
	sb_putd(c->out, pgid);
	pid_note(c->out, c->tid, c->decode_pids & DEC_PID_NS, c->hexstr, pgid);
}

void dec_pid_or_pgid(struct dec_ctx *c, long pid)
{
	sb_putd(c->out, pid);
	if (pid > 0)
		pid_note(c->out, c->tid, c->decode_pids, c->hexstr, pid);
	else if (pid < -1)	/* a process group: no comm */
		pid_note(c->out, c->tid, c->decode_pids & DEC_PID_NS,
			 c->hexstr, -pid);
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
		char *nul;

		if (chunk > size - got)
			chunk = size - got;
		if (!dec_read_mem(c, addr + got, buf + got, chunk))
			return got ? (ssize_t)got : -1;
		nul = memchr(buf + got, '\0', chunk);
		if (nul) {
			*terminated = true;
			return (ssize_t)(nul - buf);
		}
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

/* -- Signals ------------------------------------------------------------- */

const struct xlat xlat_signals[] = {
	XLAT(SIGHUP), XLAT(SIGINT), XLAT(SIGQUIT), XLAT(SIGILL),
	XLAT(SIGTRAP), XLAT(SIGABRT), XLAT(SIGBUS), XLAT(SIGFPE),
	XLAT(SIGKILL), XLAT(SIGUSR1), XLAT(SIGSEGV), XLAT(SIGUSR2),
	XLAT(SIGPIPE), XLAT(SIGALRM), XLAT(SIGTERM), XLAT(SIGSTKFLT),
	XLAT(SIGCHLD), XLAT(SIGCONT), XLAT(SIGSTOP), XLAT(SIGTSTP),
	XLAT(SIGTTIN), XLAT(SIGTTOU), XLAT(SIGURG), XLAT(SIGXCPU),
	XLAT(SIGXFSZ), XLAT(SIGVTALRM), XLAT(SIGPROF), XLAT(SIGWINCH),
	XLAT(SIGIO), XLAT(SIGPWR), XLAT(SIGSYS),
	XLAT_END
};

const char *signame_r(int sig, char *buf)
{
	const char *n = xlat_name(xlat_signals, (unsigned)sig);

	if (n)
		return n;
	if (sig == 32)
		return "SIGRTMIN";
	if (sig > 32 && sig <= 64)
		snprintf(buf, SIGNAME_MAX, "SIGRT_%d", sig - 32);
	else
		snprintf(buf, SIGNAME_MAX, "%d", sig);
	return buf;
}

void dec_sigmask_val(struct sbuf *b, int style, const uint64_t *mask,
		     int nwords)
{
	int nbits = nwords * 64, set = 0, i;
	bool inv, first = true;
	uint64_t shown;

	for (i = 0; i < nwords; i++)
		set += __builtin_popcountll(mask[i]);
	if (nbits > 64)
		nbits = 64;
	inv = set * 2 > nbits;
	sb_puts(b, inv ? "~[" : "[");
	/* The signals printed: the set ones, or the clear ones after "~". */
	shown = inv ? ~mask[0] : mask[0];
	if (nbits < 64)
		shown &= (1ULL << nbits) - 1;
	for (; shown; shown &= shown - 1) {
		i = __builtin_ctzll(shown);
		if (!first)
			sb_putc(b, ' ');
		sb_sym(b, style, signame(i + 1) + 3, (unsigned long long)i + 1,
		       DEC_NUM_UDEC);
		first = false;
	}
	sb_putc(b, ']');
}

void dec_sigset(struct dec_ctx *c, unsigned long addr, unsigned long size)
{
	uint64_t mask[2] = { 0, 0 };

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (size > sizeof(mask) || size == 0 || !dec_read(c, addr, mask, size)) {
		dec_ptr(c, addr);
		return;
	}
	dec_sigmask_val(c->out, c->xlat_style, mask, (int)((size + 7) / 8));
}

static const struct xlat si_codes[] = {
	XLAT(SI_USER), XLAT(SI_KERNEL), XLAT(SI_QUEUE), XLAT(SI_TIMER),
	XLAT(SI_MESGQ), XLAT(SI_ASYNCIO), XLAT(SI_SIGIO), XLAT(SI_TKILL),
	XLAT(SI_DETHREAD), XLAT(SI_ASYNCNL), XLAT_END
};
static const struct xlat cld_codes[] = {
	XLAT(CLD_EXITED), XLAT(CLD_KILLED), XLAT(CLD_DUMPED),
	XLAT(CLD_TRAPPED), XLAT(CLD_STOPPED), XLAT(CLD_CONTINUED),
	XLAT_END
};
static const struct xlat segv_codes[] = {
	XLAT(SEGV_MAPERR), XLAT(SEGV_ACCERR), XLAT(SEGV_BNDERR),
	XLAT(SEGV_PKUERR), XLAT(SEGV_ACCADI), XLAT(SEGV_ADIDERR),
	XLAT(SEGV_ADIPERR), XLAT(SEGV_MTEAERR), XLAT(SEGV_MTESERR),
	XLAT_END
};
static const struct xlat bus_codes[] = {
	XLAT(BUS_ADRALN), XLAT(BUS_ADRERR), XLAT(BUS_OBJERR),
	XLAT(BUS_MCEERR_AR), XLAT(BUS_MCEERR_AO), XLAT_END
};
static const struct xlat ill_codes[] = {
	XLAT(ILL_ILLOPC), XLAT(ILL_ILLOPN), XLAT(ILL_ILLADR),
	XLAT(ILL_ILLTRP), XLAT(ILL_PRVOPC), XLAT(ILL_PRVREG),
	XLAT(ILL_COPROC), XLAT(ILL_BADSTK), XLAT(ILL_BADIADDR), XLAT_END
};
static const struct xlat fpe_codes[] = {
	XLAT(FPE_INTDIV), XLAT(FPE_INTOVF), XLAT(FPE_FLTDIV),
	XLAT(FPE_FLTOVF), XLAT(FPE_FLTUND), XLAT(FPE_FLTRES),
	XLAT(FPE_FLTINV), XLAT(FPE_FLTSUB), XLAT(FPE_FLTUNK),
	XLAT(FPE_CONDTRAP), XLAT_END
};
static const struct xlat trap_codes[] = {
	XLAT(TRAP_BRKPT), XLAT(TRAP_TRACE), XLAT(TRAP_BRANCH),
	XLAT(TRAP_HWBKPT), XLAT(TRAP_UNK), XLAT_PAIR(6, "TRAP_PERF"),
	XLAT_END
};
static const struct xlat poll_codes[] = {
	XLAT(POLL_IN), XLAT(POLL_OUT), XLAT(POLL_MSG), XLAT(POLL_ERR),
	XLAT(POLL_PRI), XLAT(POLL_HUP), XLAT_END
};
static const struct xlat sys_codes[] = {
	XLAT_PAIR(1, "SYS_SECCOMP"), XLAT_PAIR(2, "SYS_USER_DISPATCH"),
	XLAT_END
};

static void put_ptr(struct sbuf *b, const char *field, const void *p)
{
	if (p)
		sb_printf(b, ", %s=%p", field, p);
	else
		sb_printf(b, ", %s=NULL", field);
}

static void put_source(struct sbuf *b, const siginfo_t *si,
		       const struct fd_view *fds)
{
	sb_puts(b, ", si_pid=");
	if (fds)
		sb_pid(b, fds, si->si_pid);
	else
		sb_putd(b, si->si_pid);
	sb_printf(b, ", si_uid=%u", si->si_uid);
}

static void put_sigval(struct sbuf *b, const siginfo_t *si)
{
	sb_printf(b, ", si_int=%d", si->si_int);
	put_ptr(b, "si_ptr", si->si_ptr);
}

/* The fields strace shows for a signal sent by a process (si_code <= 0). */
static void put_poll_info(struct sbuf *b, const siginfo_t *si,
			  const struct fd_view *fds)
{
	sb_printf(b, ", si_band=%ld, si_fd=%d", si->si_band, si->si_fd);
	if (fds)
		fd_decorate(b, fds->sockets, fds->tid, si->si_fd, fds->set,
			    fds->hexstr);
}

static void put_user_info(struct sbuf *b, const siginfo_t *si,
			  const struct fd_view *fds)
{
	switch (si->si_code) {
	case SI_USER:
	case SI_TKILL:
		put_source(b, si, fds);
		break;
	case SI_TIMER:
		sb_printf(b, ", si_timerid=%#x, si_overrun=%d", si->si_timerid,
			  si->si_overrun);
		put_sigval(b, si);
		break;
	case SI_SIGIO:
		put_poll_info(b, si, fds);
		break;
	default:
		put_source(b, si, fds);
		if (si->si_ptr)
			put_sigval(b, si);
		break;
	}
}

/* ... and for one the kernel generated, by signal. */
static void put_kernel_info(struct sbuf *b, int style, const siginfo_t *si,
			    const struct fd_view *fds)
{
	const char *sc;

	switch (si->si_signo) {
	case SIGCHLD:
		put_source(b, si, fds);
		if (si->si_code == CLD_EXITED)
			sb_printf(b, ", si_status=%d", si->si_status);
		else {
			sb_puts(b, ", si_status=");
			sb_sym(b, style, signame(si->si_status),
			       (unsigned)si->si_status, DEC_NUM_UDEC);
		}
		sb_puts(b, ", si_utime=");
		dec_clock_t(b, (unsigned long long)si->si_utime);
		sb_puts(b, ", si_stime=");
		dec_clock_t(b, (unsigned long long)si->si_stime);
		break;
	case SIGILL:
	case SIGFPE:
	case SIGTRAP:
		put_ptr(b, "si_addr", si->si_addr);
		break;
	case SIGBUS:
		put_ptr(b, "si_addr", si->si_addr);
		if (si->si_code == BUS_MCEERR_AR ||
		    si->si_code == BUS_MCEERR_AO)
			sb_printf(b, ", si_addr_lsb=%#x",
				  (unsigned short)si->si_addr_lsb);
		break;
	case SIGSEGV:
		put_ptr(b, "si_addr", si->si_addr);
		if (si->si_code == SEGV_BNDERR) {
			put_ptr(b, "si_lower", si->si_lower);
			put_ptr(b, "si_upper", si->si_upper);
		} else if (si->si_code == SEGV_PKUERR) {
			sb_printf(b, ", si_pkey=%u", (unsigned)si->si_pkey);
		}
		break;
	case SIGIO:
		if (si->si_code == POLL_IN || si->si_code == POLL_OUT ||
		    si->si_code == POLL_MSG)
			put_poll_info(b, si, fds);
		break;
	case SIGSYS:
		put_ptr(b, "si_call_addr", si->si_call_addr);
		sc = si->si_arch == 0xc000003eU ? sys_name(si->si_syscall) :
		     NULL;
		if (sc) {
			char nr[64];

			snprintf(nr, sizeof(nr), "__NR_%s", sc);
			sb_puts(b, ", si_syscall=");
			sb_sym(b, style, nr, (unsigned)si->si_syscall,
			       DEC_NUM_UDEC);
		} else {
			sb_printf(b, ", si_syscall=%u",
				  (unsigned)si->si_syscall);
		}
		if (si->si_arch == 0xc000003eU) {
			sb_puts(b, ", si_arch=");
			sb_sym(b, style, "AUDIT_ARCH_X86_64", si->si_arch,
			       DEC_NUM_HEX);
		} else if (style == DEC_XLAT_RAW) {
			sb_printf(b, ", si_arch=%#x", si->si_arch);
		} else {
			sb_printf(b, ", si_arch=%#x /* AUDIT_ARCH_??? */",
				  si->si_arch);
		}
		break;
	default:
		if (si->si_pid || si->si_uid)
			put_source(b, si, fds);
		if (si->si_ptr)
			put_sigval(b, si);
		break;
	}
}

void format_siginfo(struct sbuf *b, int style, const siginfo_t *si,
		    const struct fd_view *fds)
{
	static const struct xlat *const by_sig[] = {
		[SIGTRAP] = trap_codes, [SIGCHLD] = cld_codes,
		[SIGIO] = poll_codes, [SIGILL] = ill_codes,
		[SIGFPE] = fpe_codes, [SIGSEGV] = segv_codes,
		[SIGBUS] = bus_codes, [SIGSYS] = sys_codes,
	};
	int sig = si->si_signo;
	const char *code, *en;

	sb_putc(b, '{');
	if (!sig) {
		sb_putc(b, '}');
		return;
	}
	sb_puts(b, "si_signo=");
	sb_sym(b, style, signame(sig), (unsigned long long)sig, DEC_NUM_UDEC);
	sb_puts(b, ", si_code=");
	code = xlat_name(si_codes, (unsigned long long)(long long)si->si_code);
	if (!code && sig > 0 && sig < (int)(sizeof(by_sig) / sizeof(by_sig[0]))
	    && by_sig[sig])
		code = xlat_name(by_sig[sig], (unsigned long long)si->si_code);
	if (code)
		sb_sym(b, style, code, (unsigned)si->si_code, DEC_NUM_HEX);
	else
		sb_printf(b, "%#x", (unsigned)si->si_code);
	if (si->si_errno) {
		en = strerrorname_np(si->si_errno);
		if (en) {
			sb_puts(b, ", si_errno=");
			sb_sym(b, style, en, (unsigned)si->si_errno,
			       DEC_NUM_UDEC);
		} else
			sb_printf(b, ", si_errno=%u", (unsigned)si->si_errno);
	}
	if (si->si_code <= 0)
		put_user_info(b, si, fds);
	else
		put_kernel_info(b, style, si, fds);
	sb_putc(b, '}');
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
