// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * prctl and capabilities (capget, capset, and prctl's capability
 * options), as strace 6.1's prctl.c and capability.c print them.
 * Each decoder is called at entry and, unless it returned true there,
 * again at exit; the syscall table (syscalls.c) says which decoder a
 * syscall has.
 */
#include <linux/capability.h>
#include <linux/prctl.h>
#include <linux/securebits.h>
#include <sys/prctl.h>

#include "decode/decoders.h"
#include "decode/xlat.h"

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
			dec_pid(c, IA(1));
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
	dec_puts(c, ", pid=");
	dec_pid(c, h.pid);
	dec_puts(c, "}");
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

