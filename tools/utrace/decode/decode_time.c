// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Time: timevals, sleeps, clocks, interval timers, POSIX timers,
 * timerfd.
 * Each decoder is called at entry and, unless it returned true there,
 * again at exit; the syscall table (syscalls.c) says which decoder a
 * syscall has.
 */
#include <sys/timerfd.h>

#include "decode/decoders.h"
#include "decode/xlat.h"

void put_timeval(struct dec_ctx *c, const struct timeval *tv)
{
	dec_printf(c, "{tv_sec=%lld, tv_usec=%ld}", (long long)tv->tv_sec,
		   (long)tv->tv_usec);
}

void dec_timeval(struct dec_ctx *c, unsigned long addr)
{
	struct timeval tv;

	if (!addr)
		dec_puts(c, "NULL");
	else if (dec_read(c, addr, &tv, sizeof(tv)))
		put_timeval(c, &tv);
	else
		dec_ptr(c, addr);
}

/* strace's is_erestart(): the remaining time is only printed then. */
static bool dec_erestart(const struct dec_ctx *c)
{
	return c->ret == -512 || c->ret == -513 || c->ret == -514 ||
	       c->ret == -516;
}

bool d_nanosleep(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_timespec(c, A(0));
		SEP();
		return false;
	}
	if (dec_erestart(c))
		dec_timespec(c, A(1));
	else
		dec_ptr(c, A(1));
	return true;
}

bool d_clock_nanosleep(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_xval(c, xlat_clocks, A(0), "CLOCK_???");
		SEP();
		if (A(1) == 1)
			dec_puts(c, "TIMER_ABSTIME");
		else
			dec_hex(c, A(1));
		SEP();
		dec_timespec(c, A(2));
		SEP();
		return false;
	}
	if (!A(1) && dec_erestart(c))
		dec_timespec(c, A(3));
	else
		dec_ptr(c, A(3));
	return true;
}

bool d_clock_gettime(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_xval(c, xlat_clocks, A(0), "CLOCK_???");
		SEP();
		return false;
	}
	if (out_ok(c, A(1)))
		dec_timespec(c, A(1));
	return true;
}

bool d_gettimeofday(struct dec_ctx *c)
{
	if (!c->exiting)
		return false;
	if (out_ok(c, A(0)))
		dec_timeval(c, A(0));
	SEP();
	dec_ptr(c, A(1));
	return true;
}

bool d_time(struct dec_ctx *c)
{
	long t;

	if (!c->exiting)
		return false;
	if (!A(0))
		dec_puts(c, "NULL");
	else if (dec_read(c, A(0), &t, sizeof(t)))
		dec_printf(c, "[%ld]", t);
	else
		dec_ptr(c, A(0));
	return true;
}

bool d_getitimer(struct dec_ctx *c)
{
	struct itimerval it;

	if (!c->exiting) {
		dec_xval(c, xlat_itimers, A(0), "ITIMER_???");
		SEP();
		if (c->nr == sys_number("getitimer"))
			return false;
		if (dec_read(c, A(1), &it, sizeof(it))) {
			dec_puts(c, "{it_interval=");
			put_timeval(c, &it.it_interval);
			dec_puts(c, ", it_value=");
			put_timeval(c, &it.it_value);
			dec_puts(c, "}");
		} else {
			dec_ptr(c, A(1));
		}
		SEP();
		return false;
	}
	{
		unsigned long addr = c->nr == sys_number("getitimer") ? A(1) :
				     A(2);

		if (!out_ok(c, addr))
			return true;
		if (dec_read(c, addr, &it, sizeof(it))) {
			dec_puts(c, "{it_interval=");
			put_timeval(c, &it.it_interval);
			dec_puts(c, ", it_value=");
			put_timeval(c, &it.it_value);
			dec_puts(c, "}");
		} else {
			dec_ptr(c, addr);
		}
	}
	return true;
}

static const struct xlat sigev_notify[] = {
	XLAT(SIGEV_SIGNAL), XLAT(SIGEV_NONE), XLAT(SIGEV_THREAD),
	XLAT(SIGEV_THREAD_ID), XLAT_END
};

static void put_sigevent(struct dec_ctx *c, unsigned long addr)
{
	struct sigevent sev;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (!dec_read(c, addr, &sev, sizeof(sev))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{");
	if (sev.sigev_value.sival_ptr) {
		dec_printf(c, "sigev_value={sival_int=%d, sival_ptr=%p}, ",
			   sev.sigev_value.sival_int,
			   sev.sigev_value.sival_ptr);
	}
	dec_puts(c, "sigev_signo=");
	switch (sev.sigev_notify) {
	case SIGEV_SIGNAL:
	case SIGEV_THREAD:
	case SIGEV_THREAD_ID:
		dec_signal(c, (unsigned)sev.sigev_signo);
		break;
	default:
		dec_int(c, sev.sigev_signo);
		break;
	}
	dec_puts(c, ", sigev_notify=");
	dec_xval(c, sigev_notify, (unsigned)sev.sigev_notify, "SIGEV_???");
	switch (sev.sigev_notify) {
	case SIGEV_THREAD_ID:
		dec_printf(c, ", sigev_notify_thread_id=%d",
			   sev._sigev_un._tid);
		break;
	case SIGEV_THREAD:
		dec_puts(c, ", sigev_notify_function=");
		dec_ptr(c, (unsigned long)sev.sigev_notify_function);
		dec_puts(c, ", sigev_notify_attributes=");
		dec_ptr(c, (unsigned long)sev.sigev_notify_attributes);
		break;
	}
	dec_puts(c, "}");
}

static const struct xlat timer_flags[] = {
	XLAT(TIMER_ABSTIME), XLAT_END
};

static const struct xlat tfd_settime_flags[] = {
	XLAT(TFD_TIMER_ABSTIME), XLAT(TFD_TIMER_CANCEL_ON_SET), XLAT_END
};

static const struct xlat tfd_create_flags[] = {
	XLAT(TFD_CLOEXEC), XLAT(TFD_NONBLOCK), XLAT_END
};

/* An output argument: its contents after success, else its address. */
static void put_out_itimerspec(struct dec_ctx *c, unsigned long addr)
{
	if (addr && dec_failed(c))
		dec_ptr(c, addr);
	else
		dec_itimerspec(c, addr);
}

bool d_timer_create(struct dec_ctx *c)
{
	int id;

	if (!c->exiting) {
		dec_xval(c, xlat_clocks, A(0), "CLOCK_???");
		SEP();
		put_sigevent(c, A(1));
		SEP();
		return false;
	}
	if (!dec_failed(c) && dec_read(c, A(2), &id, sizeof(id)))
		dec_printf(c, "[%d]", id);
	else
		dec_ptr(c, A(2));
	return true;
}

/* timer_settime and timerfd_settime: id, flags, new value, [old value]. */
bool d_settime(struct dec_ctx *c)
{
	bool tfd = c->nr == sys_number("timerfd_settime");

	if (!c->exiting) {
		if (tfd)
			dec_fd(c, IA(0));
		else
			dec_int(c, IA(0));
		SEP();
		dec_flags(c, tfd ? tfd_settime_flags : timer_flags, A(1),
			  tfd ? "TFD_???" : "TIMER_???");
		SEP();
		dec_itimerspec(c, A(2));
		SEP();
		return false;
	}
	put_out_itimerspec(c, A(3));
	return true;
}

bool d_gettime(struct dec_ctx *c)
{
	if (!c->exiting) {
		if (c->nr == sys_number("timerfd_gettime"))
			dec_fd(c, IA(0));
		else
			dec_int(c, IA(0));
		SEP();
		return false;
	}
	put_out_itimerspec(c, A(1));
	return true;
}

bool d_timerfd_create(struct dec_ctx *c)
{
	dec_xval(c, xlat_clocks, A(0), "CLOCK_???");
	SEP();
	dec_flags(c, tfd_create_flags, A(1), "TFD_???");
	c->rval = RV_FD;
	return true;
}
