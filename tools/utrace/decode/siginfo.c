// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Signals as strace prints them: names, masks and sets, and siginfo
 * (its printsiginfo()).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decoders.h"
#include "decode/xlat.h"

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
