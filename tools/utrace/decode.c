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
#include <unistd.h>

#include "decode.h"

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

bool dec_read(struct dec_ctx *c, unsigned long addr, void *buf, size_t len)
{
	if (!addr || !c->mem_read)
		return false;
	return c->mem_read(c->mem_ctx, addr, buf, len) == (ssize_t)len;
}

void dec_ptr(struct dec_ctx *c, unsigned long addr)
{
	if (addr)
		dec_printf(c, "%#lx", addr);
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
	char path[PATH_MAX];

	dec_printf(c, "%d", fd);
	if (!c->decode_fds || fd < 0)
		return;
	fd_path(c->tid, fd, path, sizeof(path));
	if (path[0])
		dec_printf(c, "<%s>", path);
}

void dec_dirfd(struct dec_ctx *c, int fd)
{
	if (fd == -100) {
		char path[PATH_MAX], link[64];
		ssize_t n;

		dec_puts(c, "AT_FDCWD");
		if (!c->decode_fds)
			return;
		snprintf(link, sizeof(link), "/proc/%d/cwd", (int)c->tid);
		n = readlink(link, path, sizeof(path) - 1);
		if (n > 0)
			dec_printf(c, "<%.*s>", (int)n, path);
	} else {
		dec_fd(c, fd);
	}
}

/*
 * strace's quoting: printable ASCII as is, the usual C escapes, and octal
 * for the rest (three digits when the next character is a digit).
 */
void dec_quoted(struct sbuf *b, const unsigned char *s, size_t n,
		bool stop_at_nul)
{
	size_t i;

	sb_putc(b, '"');
	for (i = 0; i < n; i++) {
		unsigned char ch = s[i];

		if (stop_at_nul && !ch)
			break;
		switch (ch) {
		case '"': sb_puts(b, "\\\""); continue;
		case '\\': sb_puts(b, "\\\\"); continue;
		case '\f': sb_puts(b, "\\f"); continue;
		case '\n': sb_puts(b, "\\n"); continue;
		case '\r': sb_puts(b, "\\r"); continue;
		case '\t': sb_puts(b, "\\t"); continue;
		case '\v': sb_puts(b, "\\v"); continue;
		}
		if (ch >= ' ' && ch < 0x7f) {
			sb_putc(b, (char)ch);
		} else if (i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7') {
			sb_printf(b, "\\%03o", ch);
		} else {
			sb_printf(b, "\\%o", ch);
		}
	}
	sb_putc(b, '"');
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
		if (!dec_read(c, addr + got, buf + got, chunk))
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
	dec_quoted(c->out, (unsigned char *)buf, (size_t)n, false);
	if (!term)
		dec_puts(c, "...");
}

void dec_cstr(struct dec_ctx *c, unsigned long addr)
{
	size_t max = (size_t)c->strsize;
	char *buf;
	bool term;
	ssize_t n;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	buf = malloc(max + 1);
	if (!buf)
		return;
	n = read_cstr(c, addr, buf, max + 1, &term);
	if (n < 0) {
		dec_ptr(c, addr);
	} else {
		bool cut = (size_t)n > max;

		dec_quoted(c->out, (unsigned char *)buf, cut ? max : (size_t)n,
			   false);
		if (cut)
			dec_puts(c, "...");
	}
	free(buf);
}

void dec_buf(struct dec_ctx *c, unsigned long addr, unsigned long len)
{
	size_t n = len < (unsigned long)c->strsize ? len : (size_t)c->strsize;
	unsigned char *buf;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	buf = malloc(n + 1);
	if (!buf)
		return;
	if (n && !dec_read(c, addr, buf, n)) {
		dec_ptr(c, addr);
	} else {
		dec_quoted(c->out, buf, n, false);
		if (len > n)
			dec_puts(c, "...");
	}
	free(buf);
}

const char *xlat_name(const struct xlat *x, unsigned long long v)
{
	for (; x->name; x++)
		if (x->val == v)
			return x->name;
	return NULL;
}

void dec_flags(struct dec_ctx *c, const struct xlat *x,
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
		dec_printf(c, "%s%s", any ? "|" : "", p->name);
		v &= ~p->val;
		any = true;
	}
	if (v) {
		if (any)
			dec_printf(c, "|%#llx", v);
		else
			dec_printf(c, "%#llx%s%s%s", v, dflt ? " /* " : "",
				   dflt ? dflt : "", dflt ? " */" : "");
	}
}

void dec_xval(struct dec_ctx *c, const struct xlat *x, unsigned long long v,
	      const char *dflt)
{
	const char *n = xlat_name(x, v);

	if (n)
		dec_puts(c, n);
	else if (dflt)
		dec_printf(c, "%#llx /* %s */", v, dflt);
	else
		dec_printf(c, "%llu", v);
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

const char *signame(int sig)
{
	static char buf[32];
	const char *n = xlat_name(xlat_signals, (unsigned)sig);

	if (n)
		return n;
	if (sig == 32)
		return "SIGRTMIN";
	if (sig > 32 && sig <= 64)
		snprintf(buf, sizeof(buf), "SIGRT_%d", sig - 32);
	else
		snprintf(buf, sizeof(buf), "%d", sig);
	return buf;
}

void dec_sigmask_val(struct sbuf *b, const uint64_t *mask, int nwords)
{
	int nbits = nwords * 64, set = 0, i;
	bool inv, first = true;

	for (i = 0; i < nbits; i++)
		if (mask[i / 64] >> (i % 64) & 1)
			set++;
	if (nbits > 64)
		nbits = 64;
	inv = set * 2 > nbits;
	sb_puts(b, inv ? "~[" : "[");
	for (i = 0; i < nbits; i++) {
		bool bit = mask[i / 64] >> (i % 64) & 1;

		if (bit == inv)
			continue;
		sb_printf(b, "%s%s", first ? "" : " ", signame(i + 1) + 3);
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
	dec_sigmask_val(c->out, mask, (int)((size + 7) / 8));
}

static const struct xlat si_codes[] = {
	XLAT(SI_USER), XLAT(SI_KERNEL), XLAT(SI_QUEUE), XLAT(SI_TIMER),
	XLAT(SI_MESGQ), XLAT(SI_ASYNCIO), XLAT(SI_SIGIO), XLAT(SI_TKILL),
	XLAT_END
};
static const struct xlat cld_codes[] = {
	XLAT(CLD_EXITED), XLAT(CLD_KILLED), XLAT(CLD_DUMPED),
	XLAT(CLD_TRAPPED), XLAT(CLD_STOPPED), XLAT(CLD_CONTINUED),
	XLAT_END
};
static const struct xlat segv_codes[] = {
	XLAT(SEGV_MAPERR), XLAT(SEGV_ACCERR), XLAT_PAIR(3, "SEGV_BNDERR"),
	XLAT_PAIR(4, "SEGV_PKUERR"), XLAT_END
};
static const struct xlat bus_codes[] = {
	XLAT(BUS_ADRALN), XLAT(BUS_ADRERR), XLAT(BUS_OBJERR), XLAT_END
};
static const struct xlat ill_codes[] = {
	XLAT(ILL_ILLOPC), XLAT(ILL_ILLOPN), XLAT(ILL_ILLADR),
	XLAT(ILL_ILLTRP), XLAT(ILL_PRVOPC), XLAT(ILL_PRVREG),
	XLAT(ILL_COPROC), XLAT(ILL_BADSTK), XLAT_END
};
static const struct xlat fpe_codes[] = {
	XLAT(FPE_INTDIV), XLAT(FPE_INTOVF), XLAT(FPE_FLTDIV),
	XLAT(FPE_FLTOVF), XLAT(FPE_FLTUND), XLAT(FPE_FLTRES),
	XLAT(FPE_FLTINV), XLAT(FPE_FLTSUB), XLAT_END
};
static const struct xlat trap_codes[] = {
	XLAT(TRAP_BRKPT), XLAT(TRAP_TRACE), XLAT_END
};

static void put_addr(struct sbuf *b, const char *field, void *p)
{
	if (p)
		sb_printf(b, ", %s=%p", field, p);
	else
		sb_printf(b, ", %s=NULL", field);
}

void format_siginfo(struct sbuf *b, const siginfo_t *si)
{
	const struct xlat *codes = NULL;
	const char *code;
	int sig = si->si_signo;

	sb_printf(b, "{si_signo=%s, si_code=", signame(sig));
	if (si->si_code > 0) {
		switch (sig) {
		case SIGCHLD: codes = cld_codes; break;
		case SIGSEGV: codes = segv_codes; break;
		case SIGBUS: codes = bus_codes; break;
		case SIGILL: codes = ill_codes; break;
		case SIGFPE: codes = fpe_codes; break;
		case SIGTRAP: codes = trap_codes; break;
		}
	}
	code = xlat_name(codes && si->si_code != SI_KERNEL ? codes : si_codes,
			 (unsigned long long)(long long)si->si_code);
	if (!code && codes)
		code = xlat_name(si_codes,
				 (unsigned long long)(long long)si->si_code);
	if (code)
		sb_puts(b, code);
	else
		sb_printf(b, "%d", si->si_code);

	if (si->si_code == SI_USER || si->si_code == SI_TKILL ||
	    si->si_code == SI_QUEUE || si->si_code == SI_MESGQ) {
		sb_printf(b, ", si_pid=%d, si_uid=%u", si->si_pid, si->si_uid);
		if (si->si_code == SI_QUEUE)
			sb_printf(b, ", si_int=%d, si_ptr=%p",
				  si->si_value.sival_int,
				  si->si_value.sival_ptr);
	} else if (si->si_code == SI_TIMER) {
		sb_printf(b, ", si_timerid=%#x, si_overrun=%d, si_int=%d, "
			  "si_ptr=%p", si->si_timerid, si->si_overrun,
			  si->si_value.sival_int, si->si_value.sival_ptr);
	} else if (sig == SIGCHLD && si->si_code > 0) {
		sb_printf(b, ", si_pid=%d, si_uid=%u, si_status=", si->si_pid,
			  si->si_uid);
		if (si->si_code == CLD_EXITED)
			sb_printf(b, "%d", si->si_status);
		else
			sb_puts(b, signame(si->si_status));
		sb_printf(b, ", si_utime=%ld, si_stime=%ld",
			  (long)si->si_utime, (long)si->si_stime);
	} else if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL ||
		   sig == SIGFPE || (sig == SIGTRAP && si->si_code > 0)) {
		put_addr(b, "si_addr", si->si_addr);
	} else if (sig == SIGIO && si->si_code > 0) {
		sb_printf(b, ", si_band=%ld, si_fd=%d", si->si_band,
			  si->si_fd);
	} else if (sig == SIGSYS && si->si_code > 0) {
		put_addr(b, "si_call_addr", si->si_call_addr);
		sb_printf(b, ", si_syscall=%d, si_arch=%#x", si->si_syscall,
			  si->si_arch);
	}
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

		if (rm)
			sb_printf(b, "? %s", rm);
		else if (name)
			sb_printf(b, "-1 %s (%s)", name, strerror((int)-r));
		else
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
		sb_printf(b, "%#lx", (unsigned long)r);
		break;
	case RV_OCT:
		sb_printf(b, "%#lo", (unsigned long)r);
		break;
	case RV_UDEC:
		sb_printf(b, "%lu", (unsigned long)r);
		break;
	case RV_FD:
		sb_printf(b, "%ld", r);
		if (c->decode_fds && r >= 0) {
			char path[PATH_MAX];

			fd_path(c->tid, (int)r, path, sizeof(path));
			if (path[0])
				sb_printf(b, "<%s>", path);
		}
		break;
	default:
		sb_printf(b, "%ld", r);
		break;
	}
	sb_puts(b, c->rval_extra);
	if (injected)
		sb_puts(b, " (INJECTED)");
}
