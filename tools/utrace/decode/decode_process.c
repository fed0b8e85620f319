// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Processes: execve, exit, clone, wait, limits, credentials, prctl,
 * capabilities, scheduling.
 * Each decoder is called at entry and, unless it returned true there,
 * again at exit; the syscall table (syscalls.c) says which decoder a
 * syscall has.
 */
#include <linux/capability.h>
#include <linux/ioprio.h>
#include <linux/prctl.h>
#include <linux/securebits.h>
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
		dec_int_ptr(c, A(2));
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

	if (c->exiting) {
		if (!failed(c) && (c->saved & (CLONE_PIDFD |
					       CLONE_PARENT_SETTID)) &&
		    dec_read(c, A(0), &ca, sizeof(ca))) {
			const char *pre = " => {";

			if (ca.flags & CLONE_PIDFD) {
				dec_printf(c, "%spidfd=", pre);
				dec_int_ptr(c, (unsigned long)ca.pidfd);
				pre = ", ";
			}
			if (ca.flags & CLONE_PARENT_SETTID) {
				dec_printf(c, "%sparent_tid=", pre);
				dec_int_ptr(c, (unsigned long)ca.parent_tid);
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

	if (!out_ok(c, addr))
		return;
	if (!dec_read(c, addr, &ru, sizeof(ru))) {
		dec_ptr(c, addr);
		return;
	}
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
		dec_int(c, IA(0));
		SEP();
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
		dec_int(c, IA(1));
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
		dec_int(c, IA(0));
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
	if (!out_ok(c, A(0)))
		return true;
	if (!dec_read(c, A(0), &t, sizeof(t))) {
		dec_ptr(c, A(0));
		return true;
	}
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

bool d_int1(struct dec_ctx *c)
{
	dec_int(c, IA(0));
	return true;
}

bool d_int2(struct dec_ctx *c)
{
	dec_int(c, IA(0));
	SEP();
	dec_int(c, IA(1));
	return true;
}

bool d_int3(struct dec_ctx *c)
{
	d_int2(c);
	SEP();
	dec_int(c, IA(2));
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

static const struct xlat prctl_options[] = {
	XLAT(PR_SET_PDEATHSIG), XLAT(PR_GET_PDEATHSIG), XLAT(PR_GET_DUMPABLE),
	XLAT(PR_SET_DUMPABLE), XLAT(PR_GET_UNALIGN), XLAT(PR_SET_UNALIGN),
	XLAT(PR_GET_KEEPCAPS), XLAT(PR_SET_KEEPCAPS), XLAT(PR_GET_FPEMU),
	XLAT(PR_SET_FPEMU), XLAT(PR_GET_FPEXC), XLAT(PR_SET_FPEXC),
	XLAT(PR_GET_TIMING), XLAT(PR_SET_TIMING), XLAT(PR_SET_NAME),
	XLAT(PR_GET_NAME), XLAT(PR_GET_ENDIAN), XLAT(PR_SET_ENDIAN),
	XLAT(PR_GET_SECCOMP), XLAT(PR_SET_SECCOMP), XLAT(PR_CAPBSET_READ),
	XLAT(PR_CAPBSET_DROP), XLAT(PR_GET_TSC), XLAT(PR_SET_TSC),
	XLAT(PR_GET_SECUREBITS), XLAT(PR_SET_SECUREBITS),
	XLAT(PR_SET_TIMERSLACK), XLAT(PR_GET_TIMERSLACK),
	XLAT(PR_TASK_PERF_EVENTS_DISABLE), XLAT(PR_TASK_PERF_EVENTS_ENABLE),
	XLAT(PR_MCE_KILL), XLAT(PR_MCE_KILL_GET), XLAT(PR_SET_MM),
	XLAT(PR_SET_CHILD_SUBREAPER), XLAT(PR_GET_CHILD_SUBREAPER),
	XLAT(PR_SET_NO_NEW_PRIVS), XLAT(PR_GET_NO_NEW_PRIVS),
	XLAT(PR_GET_TID_ADDRESS), XLAT(PR_SET_THP_DISABLE),
	XLAT(PR_GET_THP_DISABLE), XLAT(PR_MPX_ENABLE_MANAGEMENT),
	XLAT(PR_MPX_DISABLE_MANAGEMENT), XLAT(PR_SET_FP_MODE),
	XLAT(PR_GET_FP_MODE), XLAT(PR_CAP_AMBIENT), XLAT(PR_SVE_SET_VL),
	XLAT(PR_SVE_GET_VL), XLAT(PR_GET_SPECULATION_CTRL),
	XLAT(PR_SET_SPECULATION_CTRL), XLAT(PR_PAC_RESET_KEYS),
	XLAT(PR_SET_TAGGED_ADDR_CTRL), XLAT(PR_GET_TAGGED_ADDR_CTRL),
	XLAT(PR_SET_IO_FLUSHER), XLAT(PR_GET_IO_FLUSHER),
	XLAT(PR_SET_SYSCALL_USER_DISPATCH), XLAT(PR_PAC_SET_ENABLED_KEYS),
	XLAT(PR_PAC_GET_ENABLED_KEYS), XLAT(PR_SCHED_CORE),
	XLAT_PAIR(0x53564d41, "PR_SET_VMA"), XLAT(PR_SET_PTRACER),
	XLAT_END
};

static const struct xlat pr_dumpable[] = {
	XLAT_PAIR(0, "SUID_DUMP_DISABLE"), XLAT_PAIR(1, "SUID_DUMP_USER"),
	XLAT_PAIR(2, "SUID_DUMP_ROOT"), XLAT_END
};

static const struct xlat secbits[] = {
	XLAT(SECBIT_NOROOT), XLAT(SECBIT_NOROOT_LOCKED),
	XLAT(SECBIT_NO_SETUID_FIXUP), XLAT(SECBIT_NO_SETUID_FIXUP_LOCKED),
	XLAT(SECBIT_KEEP_CAPS), XLAT(SECBIT_KEEP_CAPS_LOCKED),
	XLAT(SECBIT_NO_CAP_AMBIENT_RAISE),
	XLAT(SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED), XLAT_END
};

static const struct xlat pr_cap_ambient[] = {
	XLAT(PR_CAP_AMBIENT_IS_SET), XLAT(PR_CAP_AMBIENT_RAISE),
	XLAT(PR_CAP_AMBIENT_LOWER), XLAT(PR_CAP_AMBIENT_CLEAR_ALL), XLAT_END
};

static const struct xlat seccomp_modes[] = {
	XLAT_PAIR(0, "SECCOMP_MODE_DISABLED"),
	XLAT_PAIR(1, "SECCOMP_MODE_STRICT"),
	XLAT_PAIR(2, "SECCOMP_MODE_FILTER"), XLAT_END
};

static const struct xlat pr_tsc[] = {
	XLAT(PR_TSC_ENABLE), XLAT(PR_TSC_SIGSEGV), XLAT_END
};

static const struct xlat pr_mce_kill[] = {
	XLAT(PR_MCE_KILL_CLEAR), XLAT(PR_MCE_KILL_SET), XLAT_END
};

static const struct xlat pr_mce_kill_policy[] = {
	XLAT(PR_MCE_KILL_LATE), XLAT(PR_MCE_KILL_EARLY),
	XLAT(PR_MCE_KILL_DEFAULT), XLAT_END
};

/*
 * Capability numbers; and as bits of a capability set, whose two 32-bit
 * words strace prints apart (CAP_MAC_OVERRIDE is bit 0 of the second).
 */
#define CAPS_LO(X) \
	X(CAP_CHOWN) X(CAP_DAC_OVERRIDE) X(CAP_DAC_READ_SEARCH) \
	X(CAP_FOWNER) X(CAP_FSETID) X(CAP_KILL) X(CAP_SETGID) \
	X(CAP_SETUID) X(CAP_SETPCAP) X(CAP_LINUX_IMMUTABLE) \
	X(CAP_NET_BIND_SERVICE) X(CAP_NET_BROADCAST) X(CAP_NET_ADMIN) \
	X(CAP_NET_RAW) X(CAP_IPC_LOCK) X(CAP_IPC_OWNER) X(CAP_SYS_MODULE) \
	X(CAP_SYS_RAWIO) X(CAP_SYS_CHROOT) X(CAP_SYS_PTRACE) \
	X(CAP_SYS_PACCT) X(CAP_SYS_ADMIN) X(CAP_SYS_BOOT) X(CAP_SYS_NICE) \
	X(CAP_SYS_RESOURCE) X(CAP_SYS_TIME) X(CAP_SYS_TTY_CONFIG) \
	X(CAP_MKNOD) X(CAP_LEASE) X(CAP_AUDIT_WRITE) X(CAP_AUDIT_CONTROL) \
	X(CAP_SETFCAP)
#define CAPS_HI(X) \
	X(CAP_MAC_OVERRIDE) X(CAP_MAC_ADMIN) X(CAP_SYSLOG) \
	X(CAP_WAKE_ALARM) X(CAP_BLOCK_SUSPEND) X(CAP_AUDIT_READ) \
	X(CAP_PERFMON) X(CAP_BPF) X(CAP_CHECKPOINT_RESTORE)

#define CAP_NAME(c)	XLAT_PAIR(c, #c),
static const struct xlat caps[] = { CAPS_LO(CAP_NAME) CAPS_HI(CAP_NAME)
				    XLAT_END };
#define CAP_BIT(c)	XLAT_PAIR(1U << ((c) % 32), "1<<" #c),
static const struct xlat cap_bits_lo[] = { CAPS_LO(CAP_BIT) XLAT_END };
static const struct xlat cap_bits_hi[] = { CAPS_HI(CAP_BIT) XLAT_END };

static void put_cap(struct dec_ctx *c, unsigned long v)
{
	dec_xval(c, caps, v, "CAP_???");
}

static bool prctl_rest(struct dec_ctx *c, int from)
{
	int i;

	for (i = from; i < 5; i++) {
		SEP();
		dec_hex(c, A(i));
	}
	return true;
}

bool d_prctl(struct dec_ctx *c)
{
	unsigned op = (unsigned)A(0);
	const char *n;
	unsigned v;

	if (c->exiting) {
		switch (op) {
		case PR_GET_DUMPABLE:
			n = dec_failed(c) ? NULL :
			    xlat_name(pr_dumpable, (unsigned long)c->ret);
			if (n)
				dec_note(c, " (%s)", n);
			break;
		case PR_GET_SECUREBITS:
			if (!dec_failed(c) && c->ret) {
				struct sbuf tmp = { 0 }, *save = c->out;

				c->out = &tmp;
				dec_flags(c, secbits, (unsigned long)c->ret,
					  NULL);
				c->out = save;
				dec_note(c, " (%s)", sb_str(&tmp));
				sb_free(&tmp);
				c->rval = RV_HEX;
			}
			break;
		case PR_GET_NAME:
			if (dec_failed(c)) {
				dec_ptr(c, A(1));
			} else {
				char name[16];
				size_t max = c->strsize < 15 ?
					     (size_t)c->strsize : 15, len;

				if (dec_read(c, A(1), name, sizeof(name))) {
					/* -s cuts it, with "..." */
					len = strnlen(name, sizeof(name));
					dec_quote(c->out, c->hexstr,
						   (unsigned char *)name,
						   len > max ? max : len,
						   0);
					if (len > max)
						dec_puts(c, "...");
				} else
					dec_ptr(c, A(1));
			}
			break;
		case PR_GET_PDEATHSIG:
			if (!dec_failed(c) && dec_read(c, A(1), &v, sizeof(v)))
				dec_printf(c, "[%s]", signame((int)v));
			else
				dec_ptr(c, A(1));
			break;
		case PR_GET_CHILD_SUBREAPER:
		case PR_GET_ENDIAN:
		case PR_GET_FPEMU:
		case PR_GET_FPEXC:
			if (!dec_failed(c) && dec_read(c, A(1), &v, sizeof(v)))
				dec_printf(c, "[%u]", v);
			else
				dec_ptr(c, A(1));
			break;
		case PR_GET_TSC:
			if (!dec_failed(c) &&
			    dec_read(c, A(1), &v, sizeof(v))) {
				dec_puts(c, "[");
				dec_xval(c, pr_tsc, v, "PR_TSC_???");
				dec_puts(c, "]");
			} else {
				dec_ptr(c, A(1));
			}
			break;
		case PR_MCE_KILL_GET:
			n = dec_failed(c) ? NULL :
			    xlat_name(pr_mce_kill_policy, (unsigned long)c->ret);
			if (n)
				dec_note(c, " (%s)", n);
			break;
		}
		return true;
	}
	dec_xval(c, prctl_options, op, "PR_???");
	switch (op) {
	case PR_GET_KEEPCAPS:
	case PR_GET_SECCOMP:
	case PR_GET_TIMERSLACK:
	case PR_GET_TIMING:
	case PR_TASK_PERF_EVENTS_DISABLE:
	case PR_TASK_PERF_EVENTS_ENABLE:
		return true;
	case PR_GET_DUMPABLE:
	case PR_GET_SECUREBITS:
		return false;
	case PR_GET_CHILD_SUBREAPER:
	case PR_GET_ENDIAN:
	case PR_GET_FPEMU:
	case PR_GET_FPEXC:
	case PR_GET_NAME:
	case PR_GET_PDEATHSIG:
	case PR_GET_TSC:
		SEP();
		return false;
	case PR_MCE_KILL_GET:
		prctl_rest(c, 1);
		return false;
	case PR_SET_CHILD_SUBREAPER:
	case PR_SET_ENDIAN:
	case PR_SET_FPEMU:
	case PR_SET_FPEXC:
	case PR_SET_KEEPCAPS:
	case PR_SET_TIMING:
		SEP();
		dec_ulong(c, A(1));
		return true;
	case PR_SET_DUMPABLE:
		SEP();
		dec_xval(c, pr_dumpable, A(1), "SUID_DUMP_???");
		return true;
	case PR_CAPBSET_DROP:
	case PR_CAPBSET_READ:
		SEP();
		put_cap(c, A(1));
		return true;
	case PR_CAP_AMBIENT:
		SEP();
		dec_xval(c, pr_cap_ambient, A(1), "PR_CAP_AMBIENT_???");
		if (A(1) == PR_CAP_AMBIENT_RAISE ||
		    A(1) == PR_CAP_AMBIENT_LOWER ||
		    A(1) == PR_CAP_AMBIENT_IS_SET) {
			SEP();
			put_cap(c, A(2));
			return prctl_rest(c, 3);
		}
		return prctl_rest(c, 2);
	case PR_MCE_KILL:
		SEP();
		dec_xval(c, pr_mce_kill, A(1), "PR_MCE_KILL_???");
		SEP();
		if (A(1) == PR_MCE_KILL_SET)
			dec_xval(c, pr_mce_kill_policy, A(2),
				 "PR_MCE_KILL_???");
		else
			dec_hex(c, A(2));
		return prctl_rest(c, 3);
	case PR_SET_NAME: {
		/* A comm name: at most 15 characters (and -s), then "..." */
		size_t max = c->strsize < 15 ? (size_t)c->strsize : 15, len;
		char name[16];
		ssize_t got;

		SEP();
		got = A(1) && c->mem_read ?
		      c->mem_read(c->mem_ctx, A(1), name, sizeof(name)) : -1;
		if (got <= 0) {
			dec_ptr(c, A(1));
			return true;
		}
		len = strnlen(name, (size_t)got);
		dec_quote(c->out, c->hexstr, (unsigned char *)name,
			   len > max ? max : len, 0);
		/*
		 * strace 6.1 reads 15 bytes and then looks at a 16th it did
		 * not read: a name of 15 characters gets "..." too.
		 */
		if (len > max || len >= 15)
			dec_puts(c, "...");
		return true;
	}
	case PR_SET_PDEATHSIG:
		SEP();
		if (A(1) > 128)
			dec_ulong(c, A(1));
		else
			dec_signal(c, (unsigned)A(1));
		return true;
	case PR_SET_PTRACER:
		SEP();
		if (IA(1) == -1)
			dec_puts(c, "PR_SET_PTRACER_ANY");
		else
			dec_int(c, IA(1));
		return true;
	case PR_SET_SECCOMP:
		SEP();
		dec_xval(c, seccomp_modes, A(1), "SECCOMP_MODE_???");
		if (A(1) == 1)
			return true;
		if (A(1) == 2) {
			SEP();
			dec_bpf_fprog(c, A(2), true);
			return true;
		}
		return prctl_rest(c, 2);
	case PR_SET_SECUREBITS:
		SEP();
		dec_flags(c, secbits, A(1), "SECBIT_???");
		return true;
	case PR_SET_TIMERSLACK:
		SEP();
		dec_printf(c, "%ld", (long)A(1));
		return true;
	case PR_SET_TSC:
		SEP();
		dec_xval(c, pr_tsc, A(1), "PR_TSC_???");
		return true;
	case PR_SET_NO_NEW_PRIVS:
	case PR_SET_THP_DISABLE:
	case PR_SET_IO_FLUSHER:
		SEP();
		dec_ulong(c, A(1));
		return prctl_rest(c, 2);
	default:
		return prctl_rest(c, 1);
	}
}

static const struct xlat cap_versions[] = {
	XLAT(_LINUX_CAPABILITY_VERSION_1), XLAT(_LINUX_CAPABILITY_VERSION_2),
	XLAT(_LINUX_CAPABILITY_VERSION_3), XLAT_END
};

static bool cap_header(struct dec_ctx *c, struct __user_cap_header_struct *h)
{
	return A(0) && dec_read(c, A(0), h, sizeof(*h));
}

static void put_cap_header(struct dec_ctx *c)
{
	struct __user_cap_header_struct h;

	if (!cap_header(c, &h)) {
		dec_ptr(c, A(0));
		return;
	}
	dec_puts(c, "{version=");
	dec_xval(c, cap_versions, h.version, "_LINUX_CAPABILITY_VERSION_???");
	dec_printf(c, ", pid=%d}", h.pid);
}

static void put_cap_bits(struct dec_ctx *c, uint32_t lo, uint32_t hi)
{
	if (lo || !hi)
		dec_flags(c, cap_bits_lo, lo, "CAP_???");
	if (hi) {
		if (lo)
			dec_puts(c, "|");
		dec_flags(c, cap_bits_hi, hi, "CAP_???");
	}
}

static void put_cap_data(struct dec_ctx *c, bool valid)
{
	struct __user_cap_header_struct h;
	struct __user_cap_data_struct d[2] = { { 0 } };
	unsigned n;

	if (!A(1) || !valid || !cap_header(c, &h)) {
		dec_ptr(c, A(1));
		return;
	}
	n = h.version == _LINUX_CAPABILITY_VERSION_2 ||
	    h.version == _LINUX_CAPABILITY_VERSION_3 ? 2 : 1;
	if (!dec_read(c, A(1), d, n * sizeof(d[0]))) {
		dec_ptr(c, A(1));
		return;
	}
	dec_puts(c, "{effective=");
	put_cap_bits(c, d[0].effective, d[1].effective);
	dec_puts(c, ", permitted=");
	put_cap_bits(c, d[0].permitted, d[1].permitted);
	dec_puts(c, ", inheritable=");
	put_cap_bits(c, d[0].inheritable, d[1].inheritable);
	dec_puts(c, "}");
}

bool d_capget(struct dec_ctx *c)
{
	if (!c->exiting) {
		put_cap_header(c);
		SEP();
		return false;
	}
	put_cap_data(c, !dec_failed(c));
	return true;
}

bool d_capset(struct dec_ctx *c)
{
	put_cap_header(c);
	SEP();
	put_cap_data(c, true);
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

static const struct xlat prio_which[] = {
	XLAT(PRIO_PROCESS), XLAT(PRIO_PGRP), XLAT(PRIO_USER), XLAT_END
};

bool d_getpriority(struct dec_ctx *c)
{
	dec_xval(c, prio_which, A(0), "PRIO_???");
	SEP();
	dec_int(c, IA(1));
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
	dec_int(c, IA(1));
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
	dec_int(c, IA(0));
	SEP();
	dec_uint(c, (unsigned)A(1));
	SEP();
	put_cpuset(c, A(2), (unsigned)A(1));
	return true;
}

bool d_sched_getaffinity(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_int(c, IA(0));
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
		dec_int(c, IA(0));
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
	dec_int(c, IA(0));
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
		dec_int(c, IA(0));
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
		dec_int(c, IA(0));
		SEP();
		return false;
	}
	if (dec_failed(c))
		dec_ptr(c, A(1));
	else
		dec_timespec(c, A(1));
	return true;
}

bool d_get_robust_list(struct dec_ctx *c)
{
	unsigned long v;

	if (!c->exiting) {
		dec_int(c, IA(0));
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
