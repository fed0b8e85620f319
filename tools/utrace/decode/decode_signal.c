// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Signals: actions, masks, waiting, queueing, alternate stacks.
 * Each decoder is called at entry and, unless it returned true there,
 * again at exit; the syscall table (syscalls.c) says which decoder a
 * syscall has.
 */
#include <sys/signalfd.h>
#include <sys/syscall.h>

#include "decode/decoders.h"
#include "decode/xlat.h"

struct k_sigaction {
	unsigned long handler;
	unsigned long flags;
	unsigned long restorer;
	uint64_t mask;
};

static void put_sigaction(struct dec_ctx *c, unsigned long addr)
{
	struct k_sigaction sa;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (!dec_read(c, addr, &sa, sizeof(sa))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{sa_handler=");
	if (sa.handler == (unsigned long)SIG_DFL ||
	    sa.handler == (unsigned long)SIG_IGN) {
		size_t pos = dec_sym_begin(c);

		dec_puts(c, sa.handler ? "SIG_IGN" : "SIG_DFL");
		dec_sym_end(c, pos, sa.handler, DEC_NUM_HEX);
	} else
		dec_printf(c, "%#lx", sa.handler);
	dec_puts(c, ", sa_mask=");
	dec_sigmask_val(c->out, c->xlat_style, &sa.mask, 1);
	dec_puts(c, ", sa_flags=");
	dec_flags(c, xlat_sa_flags, sa.flags, NULL);
	if (sa.flags & 0x04000000)
		dec_printf(c, ", sa_restorer=%#lx", sa.restorer);
	dec_puts(c, "}");
}

bool d_rt_sigaction(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_signal(c, (unsigned)IA(0));
		SEP();
		put_sigaction(c, A(1));
		SEP();
		return false;
	}
	if (out_ok(c, A(2)))
		put_sigaction(c, A(2));
	SEP();
	dec_ulong(c, A(3));
	return true;
}

bool d_rt_sigprocmask(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_xval(c, xlat_sigprocmask, A(0), "SIG_???");
		SEP();
		dec_sigset(c, A(1), A(3));
		SEP();
		return false;
	}
	if (out_ok(c, A(2)))
		dec_sigset(c, A(2), A(3));
	SEP();
	dec_ulong(c, A(3));
	return true;
}

bool d_rt_sigreturn(struct dec_ctx *c)
{
	/* After the return address was popped, sp points at the ucontext. */
	uint64_t mask;

	if (c->exiting)
		return true;
	if (dec_read(c, c->saved + 296, &mask, sizeof(mask))) {
		dec_puts(c, "{mask=");
		dec_sigmask_val(c->out, c->xlat_style, &mask, 1);
		dec_puts(c, "}");
	}
	return false;
}

bool d_rt_sigsuspend(struct dec_ctx *c)
{
	dec_sigset(c, A(0), A(1));
	SEP();
	dec_ulong(c, A(1));
	return true;
}

bool d_rt_sigpending(struct dec_ctx *c)
{
	if (!c->exiting)
		return false;
	if (out_ok(c, A(0)))
		dec_sigset(c, A(0), A(1));
	SEP();
	dec_ulong(c, A(1));
	return true;
}

bool d_rt_sigtimedwait(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_sigset(c, A(0), A(3));
		SEP();
		return false;
	}
	if (A(1) && !failed(c)) {
		siginfo_t si;

		if (dec_read(c, A(1), &si, sizeof(si)))
			format_siginfo(c->out, c->xlat_style, &si,
				       DEC_FDS(c));
		else
			dec_ptr(c, A(1));
	} else {
		dec_ptr(c, A(1));
	}
	SEP();
	dec_timespec(c, A(2));
	SEP();
	dec_ulong(c, A(3));
	if (!failed(c))
		dec_note(c, " (%s)", signame((int)c->ret));
	return true;
}

static void put_siginfo_at(struct dec_ctx *c, unsigned long addr)
{
	siginfo_t si;

	if (!addr)
		dec_puts(c, "NULL");
	else if (dec_read(c, addr, &si, sizeof(si)))
		format_siginfo(c->out, c->xlat_style, &si,
				       DEC_FDS(c));
	else
		dec_ptr(c, addr);
}

bool d_rt_sigqueueinfo(struct dec_ctx *c)
{
	dec_pid(c, IA(0));
	SEP();
	dec_signal(c, (unsigned)A(1));
	SEP();
	put_siginfo_at(c, A(2));
	return true;
}

bool d_rt_tgsigqueueinfo(struct dec_ctx *c)
{
	dec_pid(c, IA(0));
	SEP();
	dec_pid(c, IA(1));
	SEP();
	dec_signal(c, (unsigned)A(2));
	SEP();
	put_siginfo_at(c, A(3));
	return true;
}

static void put_stack(struct dec_ctx *c, unsigned long addr)
{
	stack_t ss;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (!dec_read(c, addr, &ss, sizeof(ss))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{ss_sp=");
	dec_ptr(c, (unsigned long)ss.ss_sp);
	dec_puts(c, ", ss_flags=");
	dec_flags(c, xlat_sigaltstack_flags, (unsigned)ss.ss_flags, NULL);
	dec_printf(c, ", ss_size=%zu}", ss.ss_size);
}

bool d_sigaltstack(struct dec_ctx *c)
{
	if (!c->exiting) {
		put_stack(c, A(0));
		SEP();
		return false;
	}
	if (out_ok(c, A(1)))
		put_stack(c, A(1));
	return true;
}

/* kill's pid may be a process group (negative); tkill's is a thread. */
bool d_kill(struct dec_ctx *c)
{
	if (c->nr == SYS_kill)
		dec_pid_or_pgid(c, IA(0));
	else
		dec_pid(c, IA(0));
	SEP();
	if (IA(1))
		dec_signal(c, (unsigned)IA(1));
	else
		dec_puts(c, "0");
	return true;
}

bool d_tgkill(struct dec_ctx *c)
{
	dec_pid(c, IA(0));
	SEP();
	dec_pid(c, IA(1));
	SEP();
	if (IA(2))
		dec_signal(c, (unsigned)IA(2));
	else
		dec_puts(c, "0");
	return true;
}

bool d_alarm(struct dec_ctx *c)
{
	dec_ulong(c, (unsigned)A(0));
	return true;
}

bool d_signalfd(struct dec_ctx *c)
{
	static const struct xlat sfd_flags[] = {
		XLAT(SFD_CLOEXEC), XLAT(SFD_NONBLOCK), XLAT_END
	};

	dec_fd(c, IA(0));
	SEP();
	dec_sigset(c, A(1), A(2));
	SEP();
	dec_ulong(c, A(2));
	if (c->nr == sys_number("signalfd4")) {
		SEP();
		dec_flags(c, sfd_flags, A(3), "SFD_???");
	}
	c->rval = RV_FD;
	return true;
}
