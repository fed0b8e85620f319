// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Decoders for process attributes and kernel objects: prctl, capabilities,
 * groups, namespaces, priorities, CPU sets, NUMA policies, POSIX timers,
 * timerfd, inotify and signalfd; in strace's notation (its prctl.c,
 * capability.c, numa.c, time.c ...).
 */
#include <linux/capability.h>
#include <linux/falloc.h>
#include <linux/ioprio.h>
#include <linux/membarrier.h>
#include <linux/mempolicy.h>
#include <linux/prctl.h>
#include <linux/seccomp.h>
#include <linux/securebits.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>

#include "decode.h"
#include "xlat.h"

#define A(i)	(c->a[i])
#define IA(i)	((int)c->a[i])
#define SEP()	dec_sep(c)

/* -- prctl ------------------------------------------------------------ */

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

static bool d_prctl(struct dec_ctx *c)
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
					dec_quoted(c->out,
						   (unsigned char *)name,
						   len > max ? max : len,
						   false);
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
		dec_quoted(c->out, (unsigned char *)name,
			   len > max ? max : len, false);
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
			dec_ptr(c, A(2));
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

/* -- Capabilities ------------------------------------------------------ */

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

static bool d_capget(struct dec_ctx *c)
{
	if (!c->exiting) {
		put_cap_header(c);
		SEP();
		return false;
	}
	put_cap_data(c, !dec_failed(c));
	return true;
}

static bool d_capset(struct dec_ctx *c)
{
	put_cap_header(c);
	SEP();
	put_cap_data(c, true);
	return true;
}

/* -- Groups, namespaces, priorities ------------------------------------ */

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

static bool d_setgroups(struct dec_ctx *c)
{
	dec_int(c, IA(0));
	SEP();
	if (IA(0) < 0 || IA(0) > 65536)
		dec_ptr(c, A(1));
	else
		put_gids(c, A(1), IA(0));
	return true;
}

static bool d_getgroups(struct dec_ctx *c)
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

static bool d_unshare(struct dec_ctx *c)
{
	dec_flags(c, xlat_unshare_flags, A(0), "CLONE_???");
	return true;
}

static bool d_setns(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_flags(c, xlat_unshare_flags, (unsigned)A(1), "CLONE_NEW???");
	return true;
}

static const struct xlat prio_which[] = {
	XLAT(PRIO_PROCESS), XLAT(PRIO_PGRP), XLAT(PRIO_USER), XLAT_END
};

static bool d_getpriority(struct dec_ctx *c)
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

static bool d_ioprio(struct dec_ctx *c)
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

static bool d_personality(struct dec_ctx *c)
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

/* -- CPU sets and NUMA --------------------------------------------------- */

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

static bool d_sched_setaffinity(struct dec_ctx *c)
{
	dec_int(c, IA(0));
	SEP();
	dec_uint(c, (unsigned)A(1));
	SEP();
	put_cpuset(c, A(2), (unsigned)A(1));
	return true;
}

static bool d_sched_getaffinity(struct dec_ctx *c)
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

static const struct xlat mpol_modes[] = {
	XLAT(MPOL_DEFAULT), XLAT(MPOL_PREFERRED), XLAT(MPOL_BIND),
	XLAT(MPOL_INTERLEAVE), XLAT(MPOL_LOCAL), XLAT(MPOL_PREFERRED_MANY),
	XLAT_END
};

static const struct xlat mpol_mode_flags[] = {
	XLAT(MPOL_F_STATIC_NODES), XLAT(MPOL_F_RELATIVE_NODES),
	XLAT_PAIR(1 << 13, "MPOL_F_NUMA_BALANCING"), XLAT_END
};

static const struct xlat get_mempolicy_flags[] = {
	XLAT(MPOL_F_NODE), XLAT(MPOL_F_ADDR), XLAT(MPOL_F_MEMS_ALLOWED),
	XLAT_END
};

static void put_mpol_mode(struct dec_ctx *c, unsigned long v)
{
	unsigned long fl = v & (MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES |
				1 << 13);
	const char *n = xlat_name(mpol_modes, v & ~fl);

	if (!fl) {
		dec_xval(c, mpol_modes, v, "MPOL_???");
	} else if (!n) {
		dec_flags(c, mpol_mode_flags, v, "MPOL_F_???");
	} else {
		dec_printf(c, "%s|", n);
		dec_flags(c, mpol_mode_flags, fl, NULL);
	}
}

/* Node masks as strace shows them: zero-padded words. */
static void put_nodemask(struct dec_ctx *c, unsigned long addr,
			 unsigned long maxnode)
{
	unsigned long n = (maxnode + 62) / 64, i, w;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (n < maxnode / 64 || (maxnode && !n)) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "[");
	for (i = 0; i < n; i++) {
		if (dec_array_cut(c, i))
			break;
		if (!dec_read(c, addr + i * 8, &w, sizeof(w))) {
			if (!i) {
				c->out->len--;
				dec_ptr(c, addr);
				return;
			}
			dec_printf(c, ", ...");
			break;
		}
		dec_printf(c, "%s%#0*lx", i ? ", " : "", 16, w);
	}
	dec_puts(c, "]");
}

static bool d_set_mempolicy(struct dec_ctx *c)
{
	put_mpol_mode(c, (unsigned)A(0));
	SEP();
	put_nodemask(c, A(1), A(2));
	SEP();
	dec_ulong(c, A(2));
	return true;
}

static bool d_get_mempolicy(struct dec_ctx *c)
{
	int mode;

	if (!c->exiting)
		return false;
	if (!A(0))
		dec_puts(c, "NULL");
	else if (dec_failed(c) || !dec_read(c, A(0), &mode, sizeof(mode)))
		dec_ptr(c, A(0));
	else {
		dec_puts(c, "[");
		dec_xval(c, mpol_modes, (unsigned)mode, "MPOL_???");
		dec_puts(c, "]");
	}
	SEP();
	if (dec_failed(c))
		dec_ptr(c, A(1));
	else
		put_nodemask(c, A(1), A(2));
	SEP();
	dec_ulong(c, A(2));
	SEP();
	dec_ptr(c, A(3));
	SEP();
	dec_flags(c, get_mempolicy_flags, A(4), "MPOL_F_???");
	return true;
}

static bool d_mbind(struct dec_ctx *c)
{
	static const struct xlat mbind_flags[] = {
		XLAT(MPOL_MF_STRICT), XLAT(MPOL_MF_MOVE),
		XLAT(MPOL_MF_MOVE_ALL), XLAT_END
	};

	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	SEP();
	put_mpol_mode(c, A(2));
	SEP();
	put_nodemask(c, A(3), A(4));
	SEP();
	dec_ulong(c, A(4));
	SEP();
	dec_flags(c, mbind_flags, A(5), "MPOL_MF_???");
	return true;
}

static const struct xlat pkey_rights[] = {
	XLAT_PAIR(1, "PKEY_DISABLE_ACCESS"), XLAT_PAIR(2, "PKEY_DISABLE_WRITE"),
	XLAT_END
};

static bool d_pkey_alloc(struct dec_ctx *c)
{
	dec_hex(c, A(0));
	SEP();
	dec_flags(c, pkey_rights, A(1), "PKEY_???");
	return true;
}

static bool d_pkey_mprotect(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	SEP();
	if (!A(2))
		dec_puts(c, "PROT_NONE");
	else
		dec_flags(c, xlat_prot, A(2), "PROT_???");
	SEP();
	dec_int(c, IA(3));
	return true;
}

static bool d_getcpu(struct dec_ctx *c)
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

/* -- POSIX timers, timerfd --------------------------------------------- */

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

static bool d_timer_create(struct dec_ctx *c)
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
static bool d_settime(struct dec_ctx *c)
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

static bool d_gettime(struct dec_ctx *c)
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

static bool d_timerfd_create(struct dec_ctx *c)
{
	dec_xval(c, xlat_clocks, A(0), "CLOCK_???");
	SEP();
	dec_flags(c, tfd_create_flags, A(1), "TFD_???");
	c->rval = RV_FD;
	return true;
}

/* -- inotify, signalfd -------------------------------------------------- */

static const struct xlat in_init_flags[] = {
	XLAT(IN_NONBLOCK), XLAT(IN_CLOEXEC), XLAT_END
};

static const struct xlat in_mask[] = {
	XLAT(IN_ACCESS), XLAT(IN_MODIFY), XLAT(IN_ATTRIB),
	XLAT(IN_CLOSE_WRITE), XLAT(IN_CLOSE_NOWRITE), XLAT(IN_OPEN),
	XLAT(IN_MOVED_FROM), XLAT(IN_MOVED_TO), XLAT(IN_CREATE),
	XLAT(IN_DELETE), XLAT(IN_DELETE_SELF), XLAT(IN_MOVE_SELF),
	XLAT(IN_UNMOUNT), XLAT(IN_Q_OVERFLOW), XLAT(IN_IGNORED),
	XLAT(IN_ONLYDIR), XLAT(IN_DONT_FOLLOW), XLAT(IN_EXCL_UNLINK),
	XLAT(IN_MASK_CREATE), XLAT(IN_MASK_ADD), XLAT(IN_ISDIR),
	XLAT(IN_ONESHOT), XLAT_END
};

static bool d_inotify_init1(struct dec_ctx *c)
{
	dec_flags(c, in_init_flags, A(0), "IN_???");
	c->rval = RV_FD;
	return true;
}

static bool d_inotify_add_watch(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_path(c, A(1));
	SEP();
	dec_flags(c, in_mask, (unsigned)A(2), "IN_???");
	return true;
}

static bool d_inotify_rm_watch(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_int(c, IA(1));
	return true;
}

static bool d_signalfd(struct dec_ctx *c)
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

/* -- Scheduling, memory locks, files ------------------------------------ */

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
static bool d_sched_policy(struct dec_ctx *c)
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

static bool d_sched_setscheduler(struct dec_ctx *c)
{
	dec_int(c, IA(0));
	SEP();
	put_policy(c->out, (unsigned)A(1));
	SEP();
	put_sched_param(c, A(2));
	return true;
}

/* sched_getparam, sched_setparam */
static bool d_sched_param(struct dec_ctx *c)
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

static bool d_sched_rr_get_interval(struct dec_ctx *c)
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

static bool d_get_robust_list(struct dec_ctx *c)
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

static bool d_mlockall(struct dec_ctx *c)
{
	static const struct xlat mcl[] = {
		XLAT(MCL_CURRENT), XLAT(MCL_FUTURE), XLAT(MCL_ONFAULT),
		XLAT_END
	};

	dec_flags(c, mcl, A(0), "MCL_???");
	return true;
}

static bool d_fallocate(struct dec_ctx *c)
{
	static const struct xlat modes[] = {
		XLAT(FALLOC_FL_KEEP_SIZE), XLAT(FALLOC_FL_PUNCH_HOLE),
		XLAT(FALLOC_FL_NO_HIDE_STALE), XLAT(FALLOC_FL_COLLAPSE_RANGE),
		XLAT(FALLOC_FL_ZERO_RANGE), XLAT(FALLOC_FL_INSERT_RANGE),
		XLAT(FALLOC_FL_UNSHARE_RANGE), XLAT_END
	};

	dec_fd(c, IA(0));
	SEP();
	dec_flags(c, modes, (unsigned)A(1), "FALLOC_FL_???");
	SEP();
	dec_printf(c, "%ld", (long)A(2));
	SEP();
	dec_printf(c, "%ld", (long)A(3));
	return true;
}

static bool d_fsetxattr(struct dec_ctx *c)
{
	static const struct xlat xattr_flags[] = {
		XLAT_PAIR(1, "XATTR_CREATE"), XLAT_PAIR(2, "XATTR_REPLACE"),
		XLAT_END
	};

	dec_fd(c, IA(0));
	SEP();
	dec_cstr(c, A(1));
	SEP();
	dec_buf(c, A(2), A(3));
	SEP();
	dec_ulong(c, A(3));
	SEP();
	dec_flags(c, xattr_flags, (unsigned)A(4), "XATTR_???");
	return true;
}

static bool d_process_madvise(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_ptr(c, A(1));
	SEP();
	dec_ulong(c, A(2));
	SEP();
	dec_xval(c, xlat_madvise, (unsigned)A(3), "MADV_???");
	SEP();
	dec_hex(c, (unsigned)A(4));
	return true;
}

static const struct xlat membarrier_cmds[] = {
	XLAT(MEMBARRIER_CMD_GLOBAL), XLAT(MEMBARRIER_CMD_GLOBAL_EXPEDITED),
	XLAT(MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED),
	XLAT(MEMBARRIER_CMD_PRIVATE_EXPEDITED),
	XLAT(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED),
	XLAT(MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE),
	XLAT(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE),
	XLAT(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ),
	XLAT(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ), XLAT_END
};

static bool d_membarrier(struct dec_ctx *c)
{
	if (c->exiting) {
		struct sbuf tmp = { 0 }, *save = c->out;

		if (dec_failed(c) || A(0) != MEMBARRIER_CMD_QUERY)
			return true;
		c->out = &tmp;
		dec_flags(c, membarrier_cmds, (unsigned long)c->ret, NULL);
		c->out = save;
		dec_note(c, " (%s)", sb_str(&tmp));
		sb_free(&tmp);
		c->rval = RV_HEX;
		return true;
	}
	if (A(0) == MEMBARRIER_CMD_QUERY)
		dec_puts(c, "MEMBARRIER_CMD_QUERY");
	else
		dec_xval(c, membarrier_cmds, (unsigned)A(0),
			 "MEMBARRIER_CMD_???");
	SEP();
	dec_hex(c, (unsigned)A(1));
	if (A(1) & MEMBARRIER_CMD_FLAG_CPU) {
		SEP();
		dec_int(c, IA(2));
	}
	return A(0) != MEMBARRIER_CMD_QUERY;
}

static bool d_seccomp(struct dec_ctx *c)
{
	static const struct xlat ops[] = {
		XLAT(SECCOMP_SET_MODE_STRICT), XLAT(SECCOMP_SET_MODE_FILTER),
		XLAT(SECCOMP_GET_ACTION_AVAIL), XLAT(SECCOMP_GET_NOTIF_SIZES),
		XLAT_END
	};
	static const struct xlat filter_flags[] = {
		XLAT(SECCOMP_FILTER_FLAG_TSYNC), XLAT(SECCOMP_FILTER_FLAG_LOG),
		XLAT(SECCOMP_FILTER_FLAG_SPEC_ALLOW),
		XLAT(SECCOMP_FILTER_FLAG_NEW_LISTENER),
		XLAT(SECCOMP_FILTER_FLAG_TSYNC_ESRCH), XLAT_END
	};

	dec_xval(c, ops, (unsigned)A(0), "SECCOMP_SET_MODE_???");
	SEP();
	if (A(0) == SECCOMP_SET_MODE_FILTER)
		dec_flags(c, filter_flags, (unsigned)A(1),
			  "SECCOMP_FILTER_FLAG_???");
	else
		dec_hex(c, (unsigned)A(1));
	SEP();
	dec_ptr(c, A(2));
	return true;
}

static bool d_kcmp(struct dec_ctx *c)
{
	static const struct xlat types[] = {
		XLAT_PAIR(0, "KCMP_FILE"), XLAT_PAIR(1, "KCMP_VM"),
		XLAT_PAIR(2, "KCMP_FILES"), XLAT_PAIR(3, "KCMP_FS"),
		XLAT_PAIR(4, "KCMP_SIGHAND"), XLAT_PAIR(5, "KCMP_IO"),
		XLAT_PAIR(6, "KCMP_SYSVSEM"), XLAT_PAIR(7, "KCMP_EPOLL_TFD"),
		XLAT_END
	};
	int i;

	dec_int(c, IA(0));
	SEP();
	dec_int(c, IA(1));
	SEP();
	dec_xval(c, types, (unsigned)A(2), "KCMP_???");
	for (i = 3; i < 5; i++) {
		SEP();
		dec_hex(c, A(i));
	}
	return true;
}

const struct decoder decoders_misc[] = {
	{ "prctl", d_prctl }, { "capget", d_capget }, { "capset", d_capset },
	{ "setgroups", d_setgroups }, { "getgroups", d_getgroups },
	{ "unshare", d_unshare }, { "setns", d_setns },
	{ "getpriority", d_getpriority }, { "setpriority", d_getpriority },
	{ "ioprio_get", d_ioprio }, { "ioprio_set", d_ioprio },
	{ "personality", d_personality },
	{ "sched_setaffinity", d_sched_setaffinity },
	{ "sched_getaffinity", d_sched_getaffinity },
	{ "set_mempolicy", d_set_mempolicy },
	{ "get_mempolicy", d_get_mempolicy }, { "mbind", d_mbind },
	{ "pkey_alloc", d_pkey_alloc }, { "pkey_mprotect", d_pkey_mprotect },
	{ "getcpu", d_getcpu }, { "timer_create", d_timer_create },
	{ "timer_settime", d_settime }, { "timerfd_settime", d_settime },
	{ "timer_gettime", d_gettime }, { "timerfd_gettime", d_gettime },
	{ "timerfd_create", d_timerfd_create },
	{ "inotify_init1", d_inotify_init1 },
	{ "inotify_add_watch", d_inotify_add_watch },
	{ "inotify_rm_watch", d_inotify_rm_watch },
	{ "signalfd", d_signalfd }, { "signalfd4", d_signalfd },
	{ "sched_get_priority_max", d_sched_policy },
	{ "sched_get_priority_min", d_sched_policy },
	{ "sched_getscheduler", d_sched_policy },
	{ "sched_setscheduler", d_sched_setscheduler },
	{ "sched_getparam", d_sched_param }, { "sched_setparam", d_sched_param },
	{ "sched_rr_get_interval", d_sched_rr_get_interval },
	{ "get_robust_list", d_get_robust_list }, { "mlockall", d_mlockall },
	{ "fallocate", d_fallocate }, { "fsetxattr", d_fsetxattr },
	{ "process_madvise", d_process_madvise },
	{ "membarrier", d_membarrier }, { "seccomp", d_seccomp },
	{ "kcmp", d_kcmp },
	{ NULL, NULL }
};
