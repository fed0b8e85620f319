// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Miscellaneous: uname, sysinfo, getrandom, futex, membarrier,
 * seccomp, kcmp.
 * Each decoder is called at entry and, unless it returned true there,
 * again at exit; the syscall table (syscalls.c) says which decoder a
 * syscall has.
 */
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <linux/mqueue.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdlib.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>

#include "decode/decoders.h"
#include "decode/xlat.h"

/*
 * As strace: the call the kernel restarts, when this thread's previous
 * call ended with ERESTART_RESTARTBLOCK (the printer keeps its name).
 */
bool d_restart_syscall(struct dec_ctx *c)
{
	dec_printf(c, "<... resuming interrupted %s ...>",
		   c->interrupted ? c->interrupted : "system call");
	return true;
}

/* One of struct utsname's fields: ", name=" (prefix) and its string. */
static void uts_field(struct dec_ctx *c, const char *prefix, const char *s,
		      size_t n)
{
	dec_puts(c, prefix);
	dec_quote(c->out, c->hexstr, (const unsigned char *)s, n,
		  QUOTE_0_TERMINATED);
}

bool d_uname(struct dec_ctx *c)
{
	struct utsname u;

	if (!c->exiting)
		return false;
	if (!dec_read_out(c, A(0), &u, sizeof(u)))
		return true;
	uts_field(c, "{sysname=", u.sysname, sizeof(u.sysname));
	uts_field(c, ", nodename=", u.nodename, sizeof(u.nodename));
	if (!c->no_abbrev) {
		dec_puts(c, ", ...}");
		return true;
	}
	uts_field(c, ", release=", u.release, sizeof(u.release));
	uts_field(c, ", version=", u.version, sizeof(u.version));
	uts_field(c, ", machine=", u.machine, sizeof(u.machine));
	uts_field(c, ", domainname=", u.domainname, sizeof(u.domainname));
	dec_puts(c, "}");
	return true;
}

bool d_sysinfo(struct dec_ctx *c)
{
	struct sysinfo si;

	if (!c->exiting)
		return false;
	if (!dec_read_out(c, A(0), &si, sizeof(si)))
		return true;
	dec_printf(c, "{uptime=%ld, loads=[%lu, %lu, %lu], totalram=%lu, "
		   "freeram=%lu, sharedram=%lu, bufferram=%lu, totalswap=%lu, "
		   "freeswap=%lu, procs=%u, totalhigh=%lu, freehigh=%lu, "
		   "mem_unit=%u}", si.uptime, si.loads[0], si.loads[1],
		   si.loads[2], si.totalram, si.freeram, si.sharedram,
		   si.bufferram, si.totalswap, si.freeswap, si.procs,
		   si.totalhigh, si.freehigh, si.mem_unit);
	return true;
}

bool d_getrandom(struct dec_ctx *c)
{
	if (!c->exiting)
		return false;
	if (failed(c)) {
		dec_ptr(c, A(0));
	} else {
		size_t n = (size_t)c->ret, i;
		unsigned char *b;

		if (n > (size_t)c->strsize)
			n = (size_t)c->strsize;
		b = malloc(n + 1);
		if (b && dec_read_mem(c, A(0), b, n)) {
			dec_puts(c, "\"");
			for (i = 0; i < n; i++)
				dec_printf(c, "\\x%02x", b[i]);
			dec_puts(c, "\"");
			if ((size_t)c->ret > n)
				dec_puts(c, "...");
		} else {
			dec_ptr(c, A(0));
		}
		free(b);
	}
	SEP();
	dec_ulong(c, A(1));
	SEP();
	dec_flags(c, xlat_grnd_flags, A(2), NULL);
	return true;
}

bool d_futex(struct dec_ctx *c)
{
	unsigned op = (unsigned)A(1);
	unsigned cmd = op & 127;
	const char *name = xlat_name(xlat_futex_cmds, cmd);
	size_t pos;

	dec_ptr(c, A(0));
	SEP();
	pos = dec_sym_begin(c);
	if (name)
		dec_puts(c, name);
	else
		dec_printf(c, "%#x", cmd);
	if (op & 128)
		dec_puts(c, "_PRIVATE");
	if (op & 256)
		dec_puts(c, "|FUTEX_CLOCK_REALTIME");
	dec_sym_end(c, pos, op, DEC_NUM_HEX);
	SEP();
	dec_int(c, IA(2));
	switch (cmd) {
	case FUTEX_WAIT:
	case FUTEX_LOCK_PI:
	case FUTEX_LOCK_PI2:
		SEP();
		dec_timespec(c, A(3));
		break;
	case FUTEX_WAIT_BITSET:
		SEP();
		dec_timespec(c, A(3));
		SEP();
		if ((unsigned)A(5) == 0xffffffff)
			dec_puts(c, "FUTEX_BITSET_MATCH_ANY");
		else
			dec_hex(c, (unsigned)A(5));
		break;
	case FUTEX_WAKE_BITSET:
		SEP();
		if ((unsigned)A(5) == 0xffffffff)
			dec_puts(c, "FUTEX_BITSET_MATCH_ANY");
		else
			dec_hex(c, (unsigned)A(5));
		break;
	case FUTEX_REQUEUE:
		SEP();
		dec_ulong(c, A(3));
		SEP();
		dec_ptr(c, A(4));
		break;
	case FUTEX_CMP_REQUEUE:
	case FUTEX_CMP_REQUEUE_PI:
		SEP();
		dec_ulong(c, A(3));
		SEP();
		dec_ptr(c, A(4));
		SEP();
		dec_int(c, IA(5));
		break;
	case FUTEX_WAKE_OP:
		SEP();
		dec_ulong(c, A(3));
		SEP();
		dec_ptr(c, A(4));
		SEP();
		dec_hex(c, (unsigned)A(5));
		break;
	}
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

bool d_membarrier(struct dec_ctx *c)
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

/* -- Classic BPF programs (seccomp filters, socket filters) ------------- */

static const struct xlat bpf_class[] = {
	XLAT(BPF_LD), XLAT(BPF_LDX), XLAT(BPF_ST), XLAT(BPF_STX),
	XLAT(BPF_ALU), XLAT(BPF_JMP), XLAT(BPF_RET), XLAT(BPF_MISC),
	XLAT_END
};
static const struct xlat bpf_size[] = {
	XLAT(BPF_W), XLAT(BPF_H), XLAT(BPF_B), XLAT_END
};
static const struct xlat bpf_mode[] = {
	XLAT(BPF_IMM), XLAT(BPF_ABS), XLAT(BPF_IND), XLAT(BPF_MEM),
	XLAT(BPF_LEN), XLAT(BPF_MSH), XLAT_END
};
static const struct xlat bpf_src[] = {
	XLAT(BPF_K), XLAT(BPF_X), XLAT_END
};
static const struct xlat bpf_op_alu[] = {
	XLAT(BPF_ADD), XLAT(BPF_SUB), XLAT(BPF_MUL), XLAT(BPF_DIV),
	XLAT(BPF_OR), XLAT(BPF_AND), XLAT(BPF_LSH), XLAT(BPF_RSH),
	XLAT(BPF_NEG), XLAT(BPF_MOD), XLAT(BPF_XOR), XLAT_END
};
static const struct xlat bpf_op_jmp[] = {
	XLAT(BPF_JA), XLAT(BPF_JEQ), XLAT(BPF_JGT), XLAT(BPF_JGE),
	XLAT(BPF_JSET), XLAT_END
};
static const struct xlat bpf_rval[] = {
	XLAT(BPF_K), XLAT(BPF_X), XLAT(BPF_A), XLAT_END
};
static const struct xlat bpf_miscop[] = {
	XLAT(BPF_TAX), XLAT(BPF_TXA), XLAT_END
};
static const struct xlat seccomp_ret_action[] = {
	XLAT(SECCOMP_RET_KILL_PROCESS), XLAT(SECCOMP_RET_KILL_THREAD),
	XLAT(SECCOMP_RET_TRAP), XLAT(SECCOMP_RET_ERRNO),
	XLAT(SECCOMP_RET_USER_NOTIF), XLAT(SECCOMP_RET_TRACE),
	XLAT(SECCOMP_RET_LOG), XLAT(SECCOMP_RET_ALLOW), XLAT_END
};

/* Bits of an instruction's code that its class does not name. */
static void bpf_rest(struct dec_ctx *c, unsigned rest)
{
	if (rest)
		dec_printf(c, "|%#x /* BPF_??? */", rest);
}

/* An instruction's code as strace writes it: BPF_LD|BPF_W|BPF_ABS. */
static void bpf_code(struct dec_ctx *c, uint16_t code)
{
	unsigned rest = code & ~BPF_CLASS(code);

	dec_xval(c, bpf_class, BPF_CLASS(code), "BPF_???");
	switch (BPF_CLASS(code)) {
	case BPF_ST:
	case BPF_STX:
		bpf_rest(c, rest);
		break;
	case BPF_LD:
	case BPF_LDX:
		dec_puts(c, "|");
		dec_xval(c, bpf_size, BPF_SIZE(code), "BPF_???");
		dec_puts(c, "|");
		dec_xval(c, bpf_mode, BPF_MODE(code), "BPF_???");
		break;
	case BPF_MISC:
		dec_puts(c, "|");
		dec_xval(c, bpf_miscop, BPF_MISCOP(code), "BPF_???");
		bpf_rest(c, rest & ~BPF_MISCOP(code));
		break;
	case BPF_ALU:
	case BPF_JMP:
		dec_puts(c, "|");
		dec_xval(c, bpf_src, BPF_SRC(code), "BPF_???");
		dec_puts(c, "|");
		dec_xval(c, BPF_CLASS(code) == BPF_ALU ? bpf_op_alu : bpf_op_jmp,
			 BPF_OP(code), "BPF_???");
		break;
	case BPF_RET:
		dec_puts(c, "|");
		dec_xval(c, bpf_rval, BPF_RVAL(code), "BPF_???");
		bpf_rest(c, rest & ~BPF_RVAL(code));
		break;
	}
}

/*
 * struct sock_fprog: {len=N, filter=ADDR}, the instructions in full with
 * -v (BPF_STMT and BPF_JUMP, as the <linux/filter.h> macros write them);
 * a seccomp filter's return values are SECCOMP_RET_* actions.
 */
void dec_bpf_fprog(struct dec_ctx *c, unsigned long addr, bool seccomp)
{
	struct sock_fprog fp;
	struct sock_filter f;
	unsigned i;

	if (!addr) {
		dec_puts(c, "NULL");
		return;
	}
	if (!dec_read(c, addr, &fp, sizeof(fp))) {
		dec_ptr(c, addr);
		return;
	}
	dec_printf(c, "{len=%u, filter=", fp.len);
	if (!c->no_abbrev || !fp.filter || !fp.len) {
		if (c->no_abbrev && fp.filter)
			dec_puts(c, "[]");
		else
			dec_ptr(c, (unsigned long)fp.filter);
		dec_puts(c, "}");
		return;
	}
	for (i = 0; i < fp.len; i++) {
		unsigned long fa = (unsigned long)fp.filter + i * sizeof(f);

		if (i >= BPF_MAXINSNS) {
			dec_puts(c, ", ...");
			break;
		}
		if (!dec_read(c, fa, &f, sizeof(f))) {
			if (!i)
				dec_ptr(c, fa);
			else
				dec_printf(c, ", ... /* %#lx */", fa);
			break;
		}
		dec_puts(c, i ? ", " : "[");
		if (f.jt || f.jf) {
			dec_puts(c, "BPF_JUMP(");
			bpf_code(c, f.code);
			dec_puts(c, ", ");
			dec_hex(c, f.k);
			dec_puts(c, ", ");
			dec_hex(c, f.jt);
			dec_puts(c, ", ");
			dec_hex(c, f.jf);
		} else {
			dec_puts(c, "BPF_STMT(");
			bpf_code(c, f.code);
			dec_puts(c, ", ");
			if (seccomp && BPF_CLASS(f.code) == BPF_RET) {
				unsigned act = f.k & SECCOMP_RET_ACTION_FULL;

				dec_xval(c, seccomp_ret_action, act,
					 "SECCOMP_RET_???");
				if (f.k & ~act) {
					dec_puts(c, "|");
					dec_hex(c, f.k & ~act);
				}
			} else {
				dec_hex(c, f.k);
			}
		}
		dec_puts(c, ")");
		if (i + 1 == fp.len)
			dec_puts(c, "]");
	}
	dec_puts(c, "}");
}

/*
 * As strace 6.1: GET_ACTION_AVAIL shows the action asked about (an input),
 * GET_NOTIF_SIZES the sizes the kernel wrote, SET_MODE_FILTER the program.
 */
bool d_seccomp(struct dec_ctx *c)
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
	unsigned act;

	if (c->exiting) {
		struct seccomp_notif_sizes sz;

		/* Only GET_NOTIF_SIZES comes back. */
		if (!dec_read_out(c, A(2), &sz, sizeof(sz)))
			return true;
		dec_printf(c, "{seccomp_notif=%u, seccomp_notif_resp=%u, "
			   "seccomp_data=%u}", sz.seccomp_notif,
			   sz.seccomp_notif_resp, sz.seccomp_data);
		return true;
	}
	dec_xval(c, ops, (unsigned)A(0), "SECCOMP_SET_MODE_???");
	SEP();
	switch ((unsigned)A(0)) {
	case SECCOMP_GET_ACTION_AVAIL:
		dec_hex(c, (unsigned)A(1));
		SEP();
		if (!A(2)) {
			dec_puts(c, "NULL");
		} else if (!dec_read(c, A(2), &act, sizeof(act))) {
			dec_ptr(c, A(2));
		} else {
			dec_puts(c, "[");
			dec_xval(c, seccomp_ret_action, act, "SECCOMP_RET_???");
			dec_puts(c, "]");
		}
		return true;
	case SECCOMP_GET_NOTIF_SIZES:
		dec_hex(c, (unsigned)A(1));
		SEP();
		return false;
	case SECCOMP_SET_MODE_FILTER:
		dec_flags(c, filter_flags, (unsigned)A(1),
			  "SECCOMP_FILTER_FLAG_???");
		SEP();
		dec_bpf_fprog(c, A(2), true);
		return true;
	default:
		dec_hex(c, (unsigned)A(1));
		SEP();
		dec_ptr(c, A(2));
		return true;
	}
}

bool d_kcmp(struct dec_ctx *c)
{
	static const struct xlat types[] = {
		XLAT_PAIR(0, "KCMP_FILE"), XLAT_PAIR(1, "KCMP_VM"),
		XLAT_PAIR(2, "KCMP_FILES"), XLAT_PAIR(3, "KCMP_FS"),
		XLAT_PAIR(4, "KCMP_SIGHAND"), XLAT_PAIR(5, "KCMP_IO"),
		XLAT_PAIR(6, "KCMP_SYSVSEM"), XLAT_PAIR(7, "KCMP_EPOLL_TFD"),
		XLAT_END
	};
	int i;

	dec_pid(c, IA(0));
	SEP();
	dec_pid(c, IA(1));
	SEP();
	dec_xval(c, types, (unsigned)A(2), "KCMP_???");
	for (i = 3; i < 5; i++) {
		SEP();
		dec_hex(c, A(i));
	}
	return true;
}

/* -- POSIX message queues ------------------------------------------------ */

bool d_mq_open(struct dec_ctx *c)
{
	struct mq_attr at;

	dec_path(c, A(0));
	SEP();
	put_open_flags(c, A(1));
	if (A(1) & O_CREAT) {
		SEP();
		dec_printf(c, "%#03o", (unsigned)A(2));
		SEP();
		if (!A(3))
			dec_puts(c, "NULL");
		else if (!dec_read(c, A(3), &at, sizeof(at)))
			dec_ptr(c, A(3));
		else
			dec_printf(c, "{mq_flags=%#llx, mq_maxmsg=%lld, "
				   "mq_msgsize=%lld, mq_curmsgs=%lld}",
				   (unsigned long long)at.mq_flags,
				   (long long)at.mq_maxmsg,
				   (long long)at.mq_msgsize,
				   (long long)at.mq_curmsgs);
	}
	c->rval = RV_FD;
	return true;
}

bool d_mq_timedsend(struct dec_ctx *c)
{
	dec_fd(c, IA(0));
	SEP();
	dec_buf(c, A(1), A(2));
	SEP();
	dec_ulong(c, A(2));
	SEP();
	dec_uint(c, (unsigned)A(3));
	SEP();
	dec_timespec(c, A(4));
	return true;
}

bool d_mq_timedreceive(struct dec_ctx *c)
{
	unsigned prio;

	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		return false;
	}
	if (failed(c))
		dec_ptr(c, A(1));
	else
		dec_buf(c, A(1), (unsigned long)c->ret);
	SEP();
	dec_ulong(c, A(2));
	SEP();
	if (!A(3))
		dec_puts(c, "NULL");
	else if (!failed(c) && dec_read(c, A(3), &prio, sizeof(prio)))
		dec_printf(c, "[%u]", prio);
	else
		dec_ptr(c, A(3));
	SEP();
	/* An absolute time, the same at exit as at entry. */
	dec_timespec(c, A(4));
	return true;
}
