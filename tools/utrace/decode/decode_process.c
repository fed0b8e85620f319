// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Processes: execve, exit, clone, wait, limits, credentials, namespaces,
 * priorities, personality, robust lists (prctl and capabilities are in
 * decode_prctl.c, scheduling in decode_sched.c).
 * Each decoder is called at entry and, unless it returned true there,
 * again at exit; the syscall table (syscalls.c) says which decoder a
 * syscall has.
 */
#include <linux/ioprio.h>
#include <sched.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/times.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "decode/decoders.h"
#include "decode/xlat.h"

static void put_str_array(struct dec_ctx *c, unsigned long addr, bool full)
{
	unsigned long i;
	unsigned long p;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (c->hide_structs) {
		/* -e verbose= without it: the address alone, as strace. */
		dec_ptr(c, addr);
		return;
	}
	if (!full) {
		for (i = 0; i < 4096; i++)
			if (!dec_read(c, addr + i * 8, &p, sizeof(p)) || !p)
				break;
		dec_printf(c, "%#lx /* %lu var%s */", addr, i,
			   i == 1 ? "" : "s");
		return;
	}
	dec_puts(c, "[");
	for (i = 0;; i++) {
		if (!dec_read(c, addr + i * 8, &p, sizeof(p))) {
			if (!i) {
				c->out->len--;
				dec_ptr(c, addr);
				return;
			}
			break;
		}
		if (!p)
			break;
		if (dec_array_cut(c, i))
			break;
		if (i)
			dec_puts(c, ", ");
		dec_cstr(c, p);
	}
	dec_puts(c, "]");
}

/*
 * execve, execveat: the program (as the table's kinds say), argv, envp
 * (in full with -v), execveat's flags.
 */
bool d_execve(struct dec_ctx *c)
{
	int i = dec_kind_index(c, 'p');

	if (c->exiting)
		return true;
	dec_args(c, 0, i);
	SEP();
	put_str_array(c, A(i), true);
	SEP();
	put_str_array(c, A(i + 1), c->no_abbrev);
	if (i + 2 < sys_nargs(c->nr)) {
		SEP();
		dec_flags(c, xlat_at_flags, A(i + 2), NULL);
	}
	return false;
}

bool d_exit(struct dec_ctx *c)
{
	dec_int(c, IA(0));
	c->rval = RV_NONE;
	return true;
}

static void put_clone_flags(struct dec_ctx *c, unsigned long long fl,
			    bool with_sig)
{
	unsigned sig = with_sig ? (unsigned)(fl & 0xff) : 0;

	fl &= with_sig ? ~0xffULL : ~0ULL;
	if (fl)
		dec_flags(c, xlat_clone_flags, fl, NULL);
	if (sig) {
		if (fl)
			dec_puts(c, "|");
		dec_signal(c, sig);
	}
	if (!fl && !sig)
		dec_puts(c, "0");
}

#define CLONE_EXIT_ARGS	(CLONE_PARENT_SETTID | CLONE_PIDFD | CLONE_SETTLS | \
			 CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)

/*
 * As strace: the stack and flags at entry, the rest at exit, where the
 * parent's tid (or pidfd) has been written.  So when another thread's line
 * cuts in, the entry part ends after the flags.
 */
bool d_clone(struct dec_ctx *c)
{
	unsigned long fl = A(0);

	c->rval = RV_PID;
	if (!c->exiting) {
		dec_puts(c, "child_stack=");
		dec_ptr(c, A(1));
		SEP();
		dec_puts(c, "flags=");
		put_clone_flags(c, fl, true);
		return !(fl & CLONE_EXIT_ARGS);
	}
	if (fl & (CLONE_PARENT_SETTID | CLONE_PIDFD)) {
		SEP();
		dec_puts(c, "parent_tid=");
		/* With CLONE_PIDFD alone, where the pidfd went. */
		if (fl & CLONE_PARENT_SETTID)
			dec_pid_ptr(c, A(2));
		else
			dec_fd_ptr(c, A(2));
	}
	if (fl & CLONE_SETTLS) {
		SEP();
		dec_printf(c, "tls=");
		dec_ptr(c, A(4));
	}
	if (fl & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		SEP();
		dec_puts(c, "child_tidptr=");
		dec_ptr(c, A(3));
	}
	return true;
}

struct clone_args_v0 {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack,
		 stack_size, tls;
};

static void put_addr64(struct dec_ctx *c, const char *name, uint64_t v)
{
	dec_printf(c, ", %s=", name);
	dec_ptr(c, (unsigned long)v);
}

/*
 * The structure at entry; at exit " => {parent_tid=[N]}" for what the
 * kernel wrote, then the size.
 */
bool d_clone3(struct dec_ctx *c)
{
	struct clone_args_v0 ca;

	c->rval = RV_PID;
	if (c->exiting) {
		if (!failed(c) && (c->saved & (CLONE_PIDFD |
					       CLONE_PARENT_SETTID)) &&
		    dec_read(c, A(0), &ca, sizeof(ca))) {
			const char *pre = " => {";

			if (ca.flags & CLONE_PIDFD) {
				dec_printf(c, "%spidfd=", pre);
				dec_fd_ptr(c, (unsigned long)ca.pidfd);
				pre = ", ";
			}
			if (ca.flags & CLONE_PARENT_SETTID) {
				dec_printf(c, "%sparent_tid=", pre);
				dec_pid_ptr(c, (unsigned long)ca.parent_tid);
			}
			dec_puts(c, "}");
		}
		SEP();
		dec_ulong(c, A(1));
		return true;
	}
	if (A(1) < sizeof(ca) || !dec_read(c, A(0), &ca, sizeof(ca))) {
		dec_ptr(c, A(0));
		SEP();
		dec_ulong(c, A(1));
		return true;
	}
	c->saved = ca.flags;
	dec_puts(c, "{flags=");
	put_clone_flags(c, ca.flags, false);
	if (ca.flags & CLONE_PIDFD)
		put_addr64(c, "pidfd", ca.pidfd);
	if (ca.flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID))
		put_addr64(c, "child_tid", ca.child_tid);
	if (ca.flags & CLONE_PARENT_SETTID)
		put_addr64(c, "parent_tid", ca.parent_tid);
	dec_puts(c, ", exit_signal=");
	if (ca.exit_signal < 0x7fffffff)
		dec_signal(c, (unsigned)ca.exit_signal);
	else
		dec_printf(c, "%llu", (unsigned long long)ca.exit_signal);
	put_addr64(c, "stack", ca.stack);
	dec_printf(c, ", stack_size=%#llx",
		   (unsigned long long)ca.stack_size);
	if (ca.flags & CLONE_SETTLS)
		put_addr64(c, "tls", ca.tls);
	dec_puts(c, "}");
	if (ca.flags & (CLONE_PIDFD | CLONE_PARENT_SETTID))
		return false;
	SEP();
	dec_ulong(c, A(1));
	return true;
}

static void put_wstatus(struct dec_ctx *c, int s)
{
	if (WIFEXITED(s))
		dec_printf(c, "[{WIFEXITED(s) && WEXITSTATUS(s) == %d}]",
			   WEXITSTATUS(s));
	else if (WIFSIGNALED(s))
		dec_printf(c, "[{WIFSIGNALED(s) && WTERMSIG(s) == %s%s}]",
			   signame(WTERMSIG(s)),
			   WCOREDUMP(s) ? " && WCOREDUMP(s)" : "");
	else if (WIFSTOPPED(s))
		dec_printf(c, "[{WIFSTOPPED(s) && WSTOPSIG(s) == %s}]",
			   signame(WSTOPSIG(s)));
	else if (WIFCONTINUED(s))
		dec_puts(c, "[{WIFCONTINUED(s)}]");
	else
		dec_printf(c, "[%#x]", s);
}

static void put_rusage(struct dec_ctx *c, unsigned long addr)
{
	struct rusage ru;

	if (!dec_read_out(c, addr, &ru, sizeof(ru)))
		return;
	dec_puts(c, "{ru_utime=");
	put_timeval(c, &ru.ru_utime);
	dec_puts(c, ", ru_stime=");
	put_timeval(c, &ru.ru_stime);
	if (!c->no_abbrev) {
		dec_puts(c, ", ...}");
		return;
	}
	dec_printf(c, ", ru_maxrss=%lu, ru_ixrss=%lu, ru_idrss=%lu, "
		   "ru_isrss=%lu, ru_minflt=%lu, ru_majflt=%lu, ru_nswap=%lu, "
		   "ru_inblock=%lu, ru_oublock=%lu, ru_msgsnd=%lu, "
		   "ru_msgrcv=%lu, ru_nsignals=%lu, ru_nvcsw=%lu, "
		   "ru_nivcsw=%lu}", ru.ru_maxrss, ru.ru_ixrss, ru.ru_idrss,
		   ru.ru_isrss, ru.ru_minflt, ru.ru_majflt, ru.ru_nswap,
		   ru.ru_inblock, ru.ru_oublock, ru.ru_msgsnd, ru.ru_msgrcv,
		   ru.ru_nsignals, ru.ru_nvcsw, ru.ru_nivcsw);
}

bool d_wait4(struct dec_ctx *c)
{
	int s;

	if (!c->exiting) {
		dec_pid_or_pgid(c, IA(0));
		SEP();
		c->rval = RV_PID;
		return false;
	}
	if (!A(1))
		dec_puts(c, "NULL");
	else if (c->ret > 0 && dec_read(c, A(1), &s, sizeof(s)))
		put_wstatus(c, s);
	else
		dec_ptr(c, A(1));
	SEP();
	dec_flags(c, xlat_wait_opts, A(2), NULL);
	SEP();
	put_rusage(c, A(3));
	return true;
}

bool d_waitid(struct dec_ctx *c)
{
	siginfo_t si;

	if (!c->exiting) {
		dec_xval(c, xlat_idtype, A(0), "P_???");
		SEP();
		switch ((unsigned)A(0)) {
		case P_PID: dec_pid(c, IA(1)); break;
		case P_PGID: dec_pgid(c, IA(1)); break;
		case 3 /* P_PIDFD */: dec_fd(c, IA(1)); break;
		default: dec_int(c, IA(1)); break;
		}
		SEP();
		return false;
	}
	if (!A(2))
		dec_puts(c, "NULL");
	else if (!failed(c) && dec_read(c, A(2), &si, sizeof(si)))
		format_siginfo(c->out, c->xlat_style, &si, DEC_FDS(c));
	else
		dec_ptr(c, A(2));
	SEP();
	dec_flags(c, xlat_wait_opts, A(3), NULL);
	SEP();
	put_rusage(c, A(4));
	return true;
}

static void put_rlim(struct dec_ctx *c, uint64_t v, const char *inf)
{
	size_t pos = dec_sym_begin(c);

	if (v == UINT64_MAX)
		dec_puts(c, inf);
	else if (v > 1024 && v % 1024 == 0)
		dec_printf(c, "%llu*1024", (unsigned long long)(v / 1024));
	else
		dec_printf(c, "%llu", (unsigned long long)v);
	dec_sym_end(c, pos, v, DEC_NUM_UDEC);
}

static void put_rlimit(struct dec_ctx *c, unsigned long addr, const char *inf)
{
	uint64_t r[2];

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (!dec_read(c, addr, r, sizeof(r))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{rlim_cur=");
	put_rlim(c, r[0], inf);
	dec_puts(c, ", rlim_max=");
	put_rlim(c, r[1], inf);
	dec_puts(c, "}");
}

bool d_prlimit64(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_pid(c, IA(0));
		SEP();
		dec_xval(c, xlat_rlimits, A(1), "RLIMIT_???");
		SEP();
		put_rlimit(c, A(2), "RLIM64_INFINITY");
		SEP();
		return false;
	}
	if (out_ok(c, A(3)))
		put_rlimit(c, A(3), "RLIM64_INFINITY");
	return true;
}

bool d_getrlimit(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_xval(c, xlat_rlimits, A(0), "RLIMIT_???");
		SEP();
		return false;
	}
	if (out_ok(c, A(1)))
		put_rlimit(c, A(1), "RLIM_INFINITY");
	return true;
}

bool d_setrlimit(struct dec_ctx *c)
{
	dec_xval(c, xlat_rlimits, A(0), "RLIMIT_???");
	SEP();
	put_rlimit(c, A(1), "RLIM_INFINITY");
	return true;
}

bool d_getrusage(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_xval(c, xlat_rusage_who, (unsigned long)(long)IA(0),
			 "RUSAGE_???");
		SEP();
		return false;
	}
	put_rusage(c, A(1));
	return true;
}

bool d_times(struct dec_ctx *c)
{
	struct tms t;

	if (!c->exiting)
		return false;
	if (!dec_read_out(c, A(0), &t, sizeof(t)))
		return true;
	dec_puts(c, "{tms_utime=");
	dec_clock_t(c->out, (unsigned long long)t.tms_utime);
	dec_puts(c, ", tms_stime=");
	dec_clock_t(c->out, (unsigned long long)t.tms_stime);
	dec_puts(c, ", tms_cutime=");
	dec_clock_t(c->out, (unsigned long long)t.tms_cutime);
	dec_puts(c, ", tms_cstime=");
	dec_clock_t(c->out, (unsigned long long)t.tms_cstime);
	dec_puts(c, "}");
	return true;
}

bool d_getresuid(struct dec_ctx *c)
{
	int i;

	if (!c->exiting)
		return false;
	for (i = 0; i < 3; i++) {
		if (i)
			SEP();
		if (out_ok(c, A(i)))
			dec_int_ptr(c, A(i));
	}
	return true;
}

bool d_arch_prctl(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_xval(c, xlat_arch_prctl, A(0), "ARCH_???");
		SEP();
		if (A(0) == 0x1003 || A(0) == 0x1004)
			return false;
		dec_hex(c, A(1));
		return true;
	}
	if (failed(c))
		dec_ptr(c, A(1));
	else {
		unsigned long v;

		if (dec_read(c, A(1), &v, sizeof(v)))
			dec_printf(c, "[%#lx]", v);
		else
			dec_ptr(c, A(1));
	}
	return true;
}

bool d_set_tid_address(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	return true;
}

bool d_set_robust_list(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	return true;
}

bool d_rseq(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_hex(c, (unsigned)A(1));
	SEP();
	dec_hex(c, (unsigned)A(2));
	SEP();
	dec_hex(c, (unsigned)A(3));
	return true;
}

static void put_gids(struct dec_ctx *c, unsigned long addr, long n)
{
	long i;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	dec_puts(c, "[");
	for (i = 0; i < n; i++) {
		unsigned g;

		if (dec_array_cut(c, (unsigned long)i))
			break;
		if (!dec_read(c, addr + (unsigned long)i * 4, &g, 4)) {
			if (!i) {
				c->out->len--;
				dec_ptr(c, addr);
				return;
			}
			dec_printf(c, ", ...");
			break;
		}
		dec_printf(c, "%s%u", i ? ", " : "", g);
	}
	dec_puts(c, "]");
}

bool d_setgroups(struct dec_ctx *c)
{
	dec_int(c, IA(0));
	SEP();
	if (IA(0) < 0 || IA(0) > 65536)
		dec_ptr(c, A(1));
	else
		put_gids(c, A(1), IA(0));
	return true;
}

bool d_getgroups(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_int(c, IA(0));
		SEP();
		return false;
	}
	if (dec_failed(c) || (!IA(0) && A(1) == 0))
		dec_ptr(c, A(1));
	else if (!IA(0))
		dec_puts(c, "[]");
	else
		put_gids(c, A(1), c->ret);
	return true;
}

bool d_unshare(struct dec_ctx *c)
{
	dec_flags(c, xlat_unshare_flags, A(0), "CLONE_???");
	return true;
}

bool d_setns(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_flags(c, xlat_unshare_flags, (unsigned)A(1), "CLONE_NEW???");
	return true;
}

/* getpriority's and ioprio_get's who: a process, a group or other. */
static void put_who(struct dec_ctx *c, unsigned which, unsigned process,
		    unsigned pgrp, int who)
{
	if (which == process)
		dec_pid(c, who);
	else if (which == pgrp)
		dec_pgid(c, who);
	else
		dec_int(c, who);
}

static const struct xlat prio_which[] = {
	XLAT(PRIO_PROCESS), XLAT(PRIO_PGRP), XLAT(PRIO_USER), XLAT_END
};

bool d_getpriority(struct dec_ctx *c)
{
	dec_xval(c, prio_which, A(0), "PRIO_???");
	SEP();
	put_who(c, (unsigned)A(0), PRIO_PROCESS, PRIO_PGRP, IA(1));
	if (c->nr == sys_number("setpriority")) {
		SEP();
		dec_int(c, IA(2));
	}
	return true;
}

static const struct xlat ioprio_who[] = {
	XLAT(IOPRIO_WHO_PROCESS), XLAT(IOPRIO_WHO_PGRP), XLAT(IOPRIO_WHO_USER),
	XLAT_END
};

static const struct xlat ioprio_class[] = {
	XLAT(IOPRIO_CLASS_NONE), XLAT(IOPRIO_CLASS_RT), XLAT(IOPRIO_CLASS_BE),
	XLAT(IOPRIO_CLASS_IDLE), XLAT_END
};

static void put_ioprio(struct sbuf *b, unsigned long v)
{
	const char *cls = xlat_name(ioprio_class, IOPRIO_PRIO_CLASS(v));

	if (cls)
		sb_printf(b, "IOPRIO_PRIO_VALUE(%s, %lu)", cls,
			  (unsigned long)IOPRIO_PRIO_DATA(v));
	else
		sb_printf(b, "IOPRIO_PRIO_VALUE(%lu, %lu)",
			  (unsigned long)IOPRIO_PRIO_CLASS(v),
			  (unsigned long)IOPRIO_PRIO_DATA(v));
}

bool d_ioprio(struct dec_ctx *c)
{
	if (c->exiting) {
		struct sbuf tmp = { 0 };

		if (!dec_failed(c)) {
			put_ioprio(&tmp, (unsigned long)c->ret);
			dec_note(c, " (%s)", sb_str(&tmp));
			sb_free(&tmp);
		}
		return true;
	}
	dec_xval(c, ioprio_who, A(0), "IOPRIO_WHO_???");
	SEP();
	put_who(c, (unsigned)A(0), IOPRIO_WHO_PROCESS, IOPRIO_WHO_PGRP,
		IA(1));
	if (c->nr == sys_number("ioprio_set")) {
		SEP();
		put_ioprio(c->out, (unsigned)A(2));
		return true;
	}
	return false;
}

static const struct xlat personas[] = {
	XLAT(PER_LINUX), XLAT(PER_LINUX_32BIT), XLAT(PER_LINUX_FDPIC),
	XLAT(PER_SVR4), XLAT(PER_SVR3), XLAT(PER_SCOSVR3), XLAT(PER_OSR5),
	XLAT(PER_WYSEV386), XLAT(PER_ISCR4), XLAT(PER_BSD), XLAT(PER_SUNOS),
	XLAT(PER_XENIX), XLAT(PER_LINUX32), XLAT(PER_LINUX32_3GB),
	XLAT(PER_IRIX32), XLAT(PER_IRIXN32), XLAT(PER_IRIX64), XLAT(PER_RISCOS),
	XLAT(PER_SOLARIS), XLAT(PER_UW7), XLAT(PER_OSF4), XLAT(PER_HPUX),
	XLAT_END
};

static const struct xlat persona_flags[] = {
	XLAT(UNAME26), XLAT(ADDR_NO_RANDOMIZE), XLAT(FDPIC_FUNCPTRS),
	XLAT(MMAP_PAGE_ZERO), XLAT(ADDR_COMPAT_LAYOUT), XLAT(READ_IMPLIES_EXEC),
	XLAT(ADDR_LIMIT_32BIT), XLAT(SHORT_INODE), XLAT(WHOLE_SECONDS),
	XLAT(STICKY_TIMEOUTS), XLAT(ADDR_LIMIT_3GB), XLAT_END
};

static void put_persona(struct dec_ctx *c, unsigned v)
{
	const char *n = xlat_name(personas, v & PER_MASK);

	if (n)
		dec_puts(c, n);
	else
		dec_printf(c, "%#x /* PER_??? */", v & PER_MASK);
	if (v & ~PER_MASK) {
		dec_puts(c, "|");
		dec_flags(c, persona_flags, v & ~PER_MASK, NULL);
	}
}

bool d_personality(struct dec_ctx *c)
{
	if (c->exiting) {
		struct sbuf tmp = { 0 }, *save = c->out;

		if (dec_failed(c))
			return true;
		c->out = &tmp;
		put_persona(c, (unsigned)c->ret);
		c->out = save;
		dec_note(c, " (%s)", sb_str(&tmp));
		sb_free(&tmp);
		c->rval = RV_HEX;
		return true;
	}
	if ((unsigned)A(0) == 0xffffffff)
		dec_puts(c, "0xffffffff");
	else
		put_persona(c, (unsigned)A(0));
	return false;
}

bool d_get_robust_list(struct dec_ctx *c)
{
	unsigned long v;

	if (!c->exiting) {
		dec_pid(c, IA(0));
		SEP();
		return false;
	}
	if (!dec_failed(c) && dec_read(c, A(1), &v, sizeof(v)))
		dec_printf(c, "[%#lx]", v);
	else
		dec_ptr(c, A(1));
	SEP();
	if (!dec_failed(c) && dec_read(c, A(2), &v, sizeof(v)))
		dec_printf(c, "[%lu]", v);
	else
		dec_ptr(c, A(2));
	return true;
}
