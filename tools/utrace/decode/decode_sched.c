// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Scheduling: CPU affinity, getcpu, policies and their parameters,
 * sched_rr_get_interval.
 * Each decoder is called at entry and, unless it returned true there,
 * again at exit; the syscall table (syscalls.c) says which decoder a
 * syscall has.
 */
#include <sched.h>

#include "decode/decoders.h"
#include "decode/xlat.h"

static void put_cpuset(struct dec_ctx *c, unsigned long addr, size_t size)
{
	unsigned long mask[128] = { 0 };

	if (size > sizeof(mask))
		size = sizeof(mask);
	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (!dec_read(c, addr, mask, size)) {
		dec_ptr(c, addr);
		return;
	}
	dec_bitset(c, mask, size * 8, false);
}

bool d_sched_setaffinity(struct dec_ctx *c)
{
	dec_pid(c, IA(0));
	SEP();
	dec_uint(c, (unsigned)A(1));
	SEP();
	put_cpuset(c, A(2), (unsigned)A(1));
	return true;
}

bool d_sched_getaffinity(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_pid(c, IA(0));
		SEP();
		dec_uint(c, (unsigned)A(1));
		SEP();
		return false;
	}
	if (dec_failed(c))
		dec_ptr(c, A(2));
	else
		put_cpuset(c, A(2), (size_t)c->ret);
	return true;
}

bool d_getcpu(struct dec_ctx *c)
{
	int i;

	if (!c->exiting)
		return false;
	for (i = 0; i < 2; i++) {
		unsigned v;

		if (i)
			SEP();
		if (!A(i))
			dec_puts(c, "NULL");
		else if (!dec_failed(c) && dec_read(c, A(i), &v, sizeof(v)))
			dec_printf(c, "[%u]", v);
		else
			dec_ptr(c, A(i));
	}
	SEP();
	dec_ptr(c, A(2));
	return true;
}

static const struct xlat sched_policies[] = {
	XLAT_PAIR(SCHED_OTHER, "SCHED_OTHER"), XLAT(SCHED_FIFO),
	XLAT(SCHED_RR), XLAT(SCHED_BATCH), XLAT_PAIR(4, "SCHED_ISO"),
	XLAT(SCHED_IDLE), XLAT(SCHED_DEADLINE), XLAT_END
};

static void put_policy(struct sbuf *b, unsigned long v)
{
	const char *n = xlat_name(sched_policies, v & ~SCHED_RESET_ON_FORK);

	if (n)
		sb_printf(b, "%s%s", n, v & SCHED_RESET_ON_FORK ?
			  "|SCHED_RESET_ON_FORK" : "");
	else
		sb_printf(b, "%#lx /* SCHED_??? */", v);
}

/* sched_get_priority_max/min(policy), sched_getscheduler(pid) */
bool d_sched_policy(struct dec_ctx *c)
{
	struct sbuf tmp = { 0 };

	if (c->nr != sys_number("sched_getscheduler")) {
		put_policy(c->out, (unsigned)A(0));
		return true;
	}
	if (!c->exiting) {
		dec_pid(c, IA(0));
		return false;
	}
	if (!dec_failed(c)) {
		put_policy(&tmp, (unsigned long)c->ret);
		dec_note(c, " (%s)", sb_str(&tmp));
		sb_free(&tmp);
	}
	return true;
}

static void put_sched_param(struct dec_ctx *c, unsigned long addr)
{
	if (c->exiting && dec_failed(c))
		dec_ptr(c, addr);
	else
		dec_int_ptr(c, addr);
}

bool d_sched_setscheduler(struct dec_ctx *c)
{
	dec_pid(c, IA(0));
	SEP();
	put_policy(c->out, (unsigned)A(1));
	SEP();
	put_sched_param(c, A(2));
	return true;
}

/* sched_getparam, sched_setparam */
bool d_sched_param(struct dec_ctx *c)
{
	bool get = c->nr == sys_number("sched_getparam");

	if (!c->exiting) {
		dec_pid(c, IA(0));
		SEP();
		if (get)
			return false;
	}
	put_sched_param(c, A(1));
	return true;
}

bool d_sched_rr_get_interval(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_pid(c, IA(0));
		SEP();
		return false;
	}
	if (dec_failed(c))
		dec_ptr(c, A(1));
	else
		dec_timespec(c, A(1));
	return true;
}

