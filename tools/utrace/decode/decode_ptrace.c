// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ptrace(2) as strace 6.1 prints it on x86_64: the request by name, the
 * pid, then addr and data as each request reads them.  A debugger or a
 * tracer run under utrace (gdb, strace, valgrind's vgdb) makes hundreds of
 * these calls; their arguments are a struct user offset (PEEKUSER,
 * POKEUSER: "8*RIP", "offsetof(struct user, u_debugreg)+56"), a register
 * set (GETREGS, SETREGS, GETREGSET NT_PRSTATUS), a word read back
 * (PEEKDATA: "[0x...]"), a siginfo (GETSIGINFO), options (SETOPTIONS,
 * SEIZE), a signal (CONT, SYSCALL, DETACH), or a syscall-info record
 * (GET_SYSCALL_INFO).  What strace prints at exit (the results the kernel
 * wrote) is printed at exit here, and only when the call succeeded.
 */
#include <elf.h>
#include <linux/audit.h>
#include <linux/ptrace.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/user.h>

#include "decode/decoders.h"
#include "decode/xlat.h"

/* The x86_64 numbers, which <linux/ptrace.h> does not all give. */
enum {
	PT_GETREGS = 0xc, PT_SETREGS = 0xd, PT_GETFPREGS = 0xe,
	PT_SETFPREGS = 0xf, PT_GETFPXREGS = 0x12, PT_SETFPXREGS = 0x13,
	PT_OLDSETOPTIONS = 0x15, PT_GET_THREAD_AREA = 0x19,
	PT_SET_THREAD_AREA = 0x1a, PT_ARCH_PRCTL = 0x1e, PT_SYSEMU = 0x1f,
	PT_SYSEMU_SINGLESTEP = 0x20, PT_SINGLEBLOCK = 0x21,
};

static const struct xlat ptrace_cmds[] = {
	XLAT_PAIR(0, "PTRACE_TRACEME"),
	XLAT_PAIR(1, "PTRACE_PEEKTEXT"),
	XLAT_PAIR(2, "PTRACE_PEEKDATA"),
	XLAT_PAIR(3, "PTRACE_PEEKUSER"),
	XLAT_PAIR(4, "PTRACE_POKETEXT"),
	XLAT_PAIR(5, "PTRACE_POKEDATA"),
	XLAT_PAIR(6, "PTRACE_POKEUSER"),
	XLAT_PAIR(7, "PTRACE_CONT"),
	XLAT_PAIR(8, "PTRACE_KILL"),
	XLAT_PAIR(9, "PTRACE_SINGLESTEP"),
	XLAT_PAIR(PT_GETREGS, "PTRACE_GETREGS"),
	XLAT_PAIR(PT_SETREGS, "PTRACE_SETREGS"),
	XLAT_PAIR(PT_GETFPREGS, "PTRACE_GETFPREGS"),
	XLAT_PAIR(PT_SETFPREGS, "PTRACE_SETFPREGS"),
	XLAT_PAIR(0x10, "PTRACE_ATTACH"),
	XLAT_PAIR(0x11, "PTRACE_DETACH"),
	XLAT_PAIR(PT_GETFPXREGS, "PTRACE_GETFPXREGS"),
	XLAT_PAIR(PT_SETFPXREGS, "PTRACE_SETFPXREGS"),
	XLAT_PAIR(PT_OLDSETOPTIONS, "PTRACE_OLDSETOPTIONS"),
	XLAT_PAIR(0x18, "PTRACE_SYSCALL"),
	XLAT_PAIR(PT_GET_THREAD_AREA, "PTRACE_GET_THREAD_AREA"),
	XLAT_PAIR(PT_SET_THREAD_AREA, "PTRACE_SET_THREAD_AREA"),
	XLAT_PAIR(PT_ARCH_PRCTL, "PTRACE_ARCH_PRCTL"),
	XLAT_PAIR(PT_SYSEMU, "PTRACE_SYSEMU"),
	XLAT_PAIR(PT_SYSEMU_SINGLESTEP, "PTRACE_SYSEMU_SINGLESTEP"),
	XLAT_PAIR(PT_SINGLEBLOCK, "PTRACE_SINGLEBLOCK"),
	XLAT_PAIR(0x4200, "PTRACE_SETOPTIONS"),
	XLAT_PAIR(0x4201, "PTRACE_GETEVENTMSG"),
	XLAT_PAIR(0x4202, "PTRACE_GETSIGINFO"),
	XLAT_PAIR(0x4203, "PTRACE_SETSIGINFO"),
	XLAT_PAIR(0x4204, "PTRACE_GETREGSET"),
	XLAT_PAIR(0x4205, "PTRACE_SETREGSET"),
	XLAT_PAIR(0x4206, "PTRACE_SEIZE"),
	XLAT_PAIR(0x4207, "PTRACE_INTERRUPT"),
	XLAT_PAIR(0x4208, "PTRACE_LISTEN"),
	XLAT_PAIR(0x4209, "PTRACE_PEEKSIGINFO"),
	XLAT_PAIR(0x420a, "PTRACE_GETSIGMASK"),
	XLAT_PAIR(0x420b, "PTRACE_SETSIGMASK"),
	XLAT_PAIR(0x420c, "PTRACE_SECCOMP_GET_FILTER"),
	XLAT_PAIR(0x420d, "PTRACE_SECCOMP_GET_METADATA"),
	XLAT_PAIR(0x420e, "PTRACE_GET_SYSCALL_INFO"),
	XLAT_PAIR(0x420f, "PTRACE_GET_RSEQ_CONFIGURATION"),
	XLAT_END
};

static const struct xlat ptrace_opts[] = {
	XLAT_PAIR(1 << 0, "PTRACE_O_TRACESYSGOOD"),
	XLAT_PAIR(1 << 1, "PTRACE_O_TRACEFORK"),
	XLAT_PAIR(1 << 2, "PTRACE_O_TRACEVFORK"),
	XLAT_PAIR(1 << 3, "PTRACE_O_TRACECLONE"),
	XLAT_PAIR(1 << 4, "PTRACE_O_TRACEEXEC"),
	XLAT_PAIR(1 << 5, "PTRACE_O_TRACEVFORKDONE"),
	XLAT_PAIR(1 << 6, "PTRACE_O_TRACEEXIT"),
	XLAT_PAIR(1 << 7, "PTRACE_O_TRACESECCOMP"),
	XLAT_PAIR(1 << 20, "PTRACE_O_EXITKILL"),
	XLAT_PAIR(1 << 21, "PTRACE_O_SUSPEND_SECCOMP"),
	XLAT_END
};

static const struct xlat nt_types[] = {
	XLAT_PAIR(1, "NT_PRSTATUS"),
	XLAT_PAIR(2, "NT_FPREGSET"),
	XLAT_PAIR(3, "NT_PRPSINFO"),
	XLAT_PAIR(4, "NT_PRXREG"),
	XLAT_PAIR(5, "NT_PLATFORM"),
	XLAT_PAIR(6, "NT_AUXV"),
	XLAT_PAIR(7, "NT_GWINDOWS"),
	XLAT_PAIR(8, "NT_ASRS"),
	XLAT_PAIR(10, "NT_PSTATUS"),
	XLAT_PAIR(13, "NT_PSINFO"),
	XLAT_PAIR(14, "NT_PRCRED"),
	XLAT_PAIR(15, "NT_UTSNAME"),
	XLAT_PAIR(16, "NT_LWPSTATUS"),
	XLAT_PAIR(17, "NT_LWPSINFO"),
	XLAT_PAIR(20, "NT_PRFPXREG"),
	XLAT_PAIR(0x200, "NT_386_TLS"),
	XLAT_PAIR(0x201, "NT_386_IOPERM"),
	XLAT_PAIR(0x202, "NT_X86_XSTATE"),
	XLAT_END
};

static const struct xlat psi_ops[] = {
	XLAT_PAIR(0, "PTRACE_SYSCALL_INFO_NONE"),
	XLAT_PAIR(1, "PTRACE_SYSCALL_INFO_ENTRY"),
	XLAT_PAIR(2, "PTRACE_SYSCALL_INFO_EXIT"),
	XLAT_PAIR(3, "PTRACE_SYSCALL_INFO_SECCOMP"),
	XLAT_END
};

static const struct xlat audit_arches[] = {
	XLAT_PAIR(AUDIT_ARCH_X86_64, "AUDIT_ARCH_X86_64"),
	XLAT_PAIR(AUDIT_ARCH_I386, "AUDIT_ARCH_I386"),
	XLAT_END
};

static const struct xlat peeksiginfo_flags[] = {
	XLAT_PAIR(1, "PTRACE_PEEKSIGINFO_SHARED"),
	XLAT_END
};

static const struct xlat seccomp_filter_flags[] = {
	XLAT_PAIR(1 << 0, "SECCOMP_FILTER_FLAG_TSYNC"),
	XLAT_PAIR(1 << 1, "SECCOMP_FILTER_FLAG_LOG"),
	XLAT_PAIR(1 << 2, "SECCOMP_FILTER_FLAG_SPEC_ALLOW"),
	XLAT_PAIR(1 << 3, "SECCOMP_FILTER_FLAG_NEW_LISTENER"),
	XLAT_PAIR(1 << 4, "SECCOMP_FILTER_FLAG_TSYNC_ESRCH"),
	XLAT_END
};

/* struct user's registers, named as strace's userent.h names them. */
static const char *const user_regs[] = {
	"R15", "R14", "R13", "R12", "RBP", "RBX", "R11", "R10", "R9", "R8",
	"RAX", "RCX", "RDX", "RSI", "RDI", "ORIG_RAX", "RIP", "CS", "EFL",
	"RSP", "SS",
};

#define UOFF(m)	{ offsetof(struct user, m), "offsetof(struct user, " #m ")" }

/* The other fields of struct user, in order. */
static const struct {
	unsigned long off;
	const char *name;
} user_fields[] = {
	UOFF(u_fpvalid), UOFF(i387), UOFF(u_tsize), UOFF(u_dsize),
	UOFF(u_ssize), UOFF(start_code), UOFF(start_stack), UOFF(signal),
	UOFF(reserved), UOFF(u_ar0), UOFF(u_fpstate), UOFF(magic),
	UOFF(u_comm), UOFF(u_debugreg),
	{ sizeof(struct user), "sizeof(struct user)" },
};

/*
 * A struct user offset: the field at or below it, plus the rest ("8*SS+24"
 * for fs_base, which strace's table does not name); an address past the
 * end of struct user is a plain address.
 */
static void put_user_offset(struct dec_ctx *c, unsigned long addr)
{
	const unsigned nf = sizeof(user_fields) / sizeof(user_fields[0]);
	const unsigned nr = sizeof(user_regs) / sizeof(user_regs[0]);
	const char *name = NULL;
	unsigned long base = 0;
	char reg[32];
	size_t pos;
	unsigned i;

	for (i = nf; i-- > 0;) {
		if (addr >= user_fields[i].off) {
			base = user_fields[i].off;
			name = user_fields[i].name;
			break;
		}
	}
	if (!name) {
		unsigned r = (unsigned)(addr / 8);

		if (r >= nr)
			r = nr - 1;
		snprintf(reg, sizeof(reg), "8*%s", user_regs[r]);
		name = reg;
		base = 8ul * r;
	}
	if (i == nf - 1 && addr > base) {
		dec_ptr(c, addr);
		return;
	}
	pos = dec_sym_begin(c);
	if (addr == base)
		dec_puts(c, name);
	else
		dec_printf(c, "%s+%lu", name, addr - base);
	dec_sym_end(c, pos, addr, DEC_NUM_HEX);
}

/* "0x..." as strace's PRINT_FIELD_X: 0 is "0". */
static void put_x(struct dec_ctx *c, const char *field, unsigned long long v)
{
	if (v)
		dec_printf(c, "%s=%#llx", field, v);
	else
		dec_printf(c, "%s=0", field);
}

/* struct user_regs_struct, or as much of it as size holds. */
static void put_regs(struct dec_ctx *c, unsigned long addr, size_t size)
{
	static const char *const names[] = {
		"r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9",
		"r8", "rax", "rcx", "rdx", "rsi", "rdi", "orig_rax", "rip",
		"cs", "eflags", "rsp", "ss", "fs_base", "gs_base", "ds", "es",
		"fs", "gs",
	};
	struct user_regs_struct regs;
	unsigned long long w[sizeof(regs) / 8];
	size_t n = size < sizeof(regs) ? size : sizeof(regs), i;

	if (!size || size % 8 || (c->exiting && failed(c)) ||
	    !dec_read(c, addr, &regs, n)) {
		dec_ptr(c, addr);
		return;
	}
	memcpy(w, &regs, n);
	dec_puts(c, "{");
	for (i = 0; i < n / 8; i++) {
		if (i)
			dec_puts(c, ", ");
		put_x(c, names[i], w[i]);
	}
	if (size > sizeof(regs))
		dec_puts(c, ", ...");
	dec_puts(c, "}");
}

/* An array of 32-bit words as strace's print_xint_array_member. */
static void put_words(struct dec_ctx *c, const char *field,
		      const unsigned *w, size_t n)
{
	size_t i;

	dec_printf(c, "%s=[", field);
	for (i = 0; i < n; i++) {
		if (dec_array_cut(c, i))
			break;
		if (i)
			dec_puts(c, ", ");
		dec_printf(c, w[i] ? "%#x" : "%u", w[i]);
	}
	dec_puts(c, "]");
}

/*
 * struct user_fpregs_struct (NT_FPREGSET, GETFPREGS): as strace, the
 * fields that begin within size (a multiple of 8), the arrays cut there.
 */
static void put_fpregs(struct dec_ctx *c, unsigned long addr, size_t size)
{
	struct user_fpregs_struct fp;
	size_t n = size < sizeof(fp) ? size : sizeof(fp);

	if (!size || size % 8 || (c->exiting && failed(c)) ||
	    !dec_read(c, addr, &fp, n)) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{");
	put_x(c, "cwd", fp.cwd);
	dec_puts(c, ", ");
	put_x(c, "swd", fp.swd);
	dec_puts(c, ", ");
	put_x(c, "ftw", fp.ftw);
	dec_puts(c, ", ");
	put_x(c, "fop", fp.fop);
	if (n > offsetof(struct user_fpregs_struct, rip)) {
		dec_puts(c, ", ");
		put_x(c, "rip", fp.rip);
	}
	if (n > offsetof(struct user_fpregs_struct, rdp)) {
		dec_puts(c, ", ");
		put_x(c, "rdp", fp.rdp);
	}
	if (n > offsetof(struct user_fpregs_struct, mxcsr)) {
		dec_puts(c, ", ");
		put_x(c, "mxcsr", fp.mxcsr);
		dec_puts(c, ", ");
		put_x(c, "mxcr_mask", fp.mxcr_mask);
	}
#define FP_ARRAY(f, count)						\
	do {								\
		size_t o_ = offsetof(struct user_fpregs_struct, f);	\
		size_t k_ = n > o_ ? (n - o_) / 4 : 0;			\
									\
		if (n > o_) {						\
			dec_puts(c, ", ");				\
			put_words(c, #f, fp.f, k_ < (count) ? k_ : (count)); \
		}							\
	} while (0)
	FP_ARRAY(st_space, 32);
	FP_ARRAY(xmm_space, 64);
	FP_ARRAY(padding, 24);
#undef FP_ARRAY
	if (size > sizeof(fp))
		dec_puts(c, ", ...");
	dec_puts(c, "}");
}

static void put_regset(struct dec_ctx *c, unsigned nt,
		       unsigned long base, unsigned long len)
{
	if (nt == NT_PRSTATUS)
		put_regs(c, base, len);
	else if (nt == NT_FPREGSET)
		put_fpregs(c, base, len);
	else
		dec_ptr(c, base);
}

/* GETREGSET: {iov_base=..., iov_len=N} at exit, "N => M" if it changed. */
static void put_getregset(struct dec_ctx *c, unsigned nt, unsigned long addr)
{
	struct iovec iov;

	if (!dec_read(c, addr, &iov, sizeof(iov))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{iov_base=");
	put_regset(c, nt, (unsigned long)iov.iov_base, iov.iov_len);
	if (c->saved == iov.iov_len)
		dec_printf(c, ", iov_len=%zu}", iov.iov_len);
	else
		dec_printf(c, ", iov_len=%llu => %zu}", c->saved, iov.iov_len);
}

static void put_siginfo(struct dec_ctx *c, unsigned long addr)
{
	siginfo_t si;

	if (!addr)
		dec_puts(c, "NULL");
	else if (dec_read(c, addr, &si, sizeof(si)))
		format_siginfo(c->out, c->xlat_style, &si, DEC_FDS(c));
	else
		dec_ptr(c, addr);
}

/* PTRACE_GET_SYSCALL_INFO's record, as much as both sizes hold. */
static void put_syscall_info(struct dec_ctx *c, unsigned long addr,
			     unsigned long user_len)
{
	struct ptrace_syscall_info info;
	unsigned long n = (unsigned long)c->ret;
	unsigned long nargs, i;
	const unsigned long long *args;
	size_t pos;

	if (user_len < n)
		n = user_len;
	if (n > sizeof(info))
		n = sizeof(info);
	memset(&info, 0, sizeof(info));
	if (!n || !dec_read(c, addr, &info, n)) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{op=");
	dec_xval(c, psi_ops, info.op, "PTRACE_SYSCALL_INFO_???");
	if (n < offsetof(struct ptrace_syscall_info, arch) + 4)
		goto end;
	dec_puts(c, ", arch=");
	dec_xval(c, audit_arches, info.arch, "AUDIT_ARCH_???");
	if (n < offsetof(struct ptrace_syscall_info, instruction_pointer) + 8)
		goto end;
	dec_printf(c, ", instruction_pointer=%#llx",
		   (unsigned long long)info.instruction_pointer);
	if (n < offsetof(struct ptrace_syscall_info, stack_pointer) + 8)
		goto end;
	dec_printf(c, ", stack_pointer=%#llx",
		   (unsigned long long)info.stack_pointer);
	if (n < offsetof(struct ptrace_syscall_info, entry.nr) + 8)
		goto end;
	switch (info.op) {
	case PTRACE_SYSCALL_INFO_ENTRY:
	case PTRACE_SYSCALL_INFO_SECCOMP:
		if (info.op == PTRACE_SYSCALL_INFO_ENTRY) {
			dec_puts(c, ", entry={nr=");
			args = info.entry.args;
			nargs = (n - offsetof(struct ptrace_syscall_info,
					      entry.args)) / 8;
		} else {
			dec_puts(c, ", seccomp={nr=");
			args = info.seccomp.args;
			nargs = (n - offsetof(struct ptrace_syscall_info,
					      seccomp.args)) / 8;
		}
		if (nargs > 6)
			nargs = 6;
		pos = dec_sym_begin(c);
		if (info.arch == AUDIT_ARCH_X86_64 &&
		    info.entry.nr < NR_SYSENT && sysent[info.entry.nr].name)
			dec_printf(c, "__NR_%s", sysent[info.entry.nr].name);
		else
			dec_printf(c, "%llu",
				   (unsigned long long)info.entry.nr);
		dec_sym_end(c, pos, info.entry.nr, DEC_NUM_UDEC);
		for (i = 0; i < nargs; i++) {
			dec_puts(c, i ? ", " : ", args=[");
			dec_printf(c, args[i] ? "%#llx" : "%llu", args[i]);
		}
		if (nargs)
			dec_puts(c, "]");
		if (info.op == PTRACE_SYSCALL_INFO_SECCOMP &&
		    n >= offsetof(struct ptrace_syscall_info,
				  seccomp.ret_data) + 4)
			dec_printf(c, ", ret_data=%u", info.seccomp.ret_data);
		dec_puts(c, "}");
		break;
	case PTRACE_SYSCALL_INFO_EXIT:
		dec_puts(c, ", exit={rval=");
		if (n >= offsetof(struct ptrace_syscall_info, exit.is_error) + 1
		    && info.exit.is_error && info.exit.rval < 0 &&
		    strerrorname_np((int)-info.exit.rval)) {
			pos = dec_sym_begin(c);
			dec_printf(c, "-%s",
				   strerrorname_np((int)-info.exit.rval));
			dec_sym_end(c, pos, (unsigned long long)info.exit.rval,
				    DEC_NUM_DEC);
		} else {
			dec_printf(c, "%lld", (long long)info.exit.rval);
		}
		if (n >= offsetof(struct ptrace_syscall_info, exit.is_error) + 1)
			dec_printf(c, ", is_error=%u",
				   (unsigned)info.exit.is_error);
		dec_puts(c, "}");
		break;
	}
end:
	dec_puts(c, "}");
}

/* PTRACE_PEEKSIGINFO's result: ret siginfos. */
static void put_siginfo_array(struct dec_ctx *c, unsigned long addr)
{
	long n = c->ret, i;
	siginfo_t si;

	if (!out_ok(c, addr))
		return;
	dec_puts(c, "[");
	for (i = 0; i < n; i++) {
		if (dec_array_cut(c, (unsigned long)i))
			break;
		if (i)
			dec_puts(c, ", ");
		if (!dec_read(c, addr + (unsigned long)i * sizeof(si), &si,
			      sizeof(si))) {
			dec_puts(c, "...");
			break;
		}
		format_siginfo(c->out, c->xlat_style, &si, DEC_FDS(c));
	}
	dec_puts(c, "]");
}

static void put_peeksiginfo_args(struct dec_ctx *c, unsigned long addr)
{
	struct ptrace_peeksiginfo_args a;

	if (!addr || !dec_read(c, addr, &a, sizeof(a))) {
		dec_ptr(c, addr);
		return;
	}
	dec_printf(c, "{off=%llu, flags=", (unsigned long long)a.off);
	dec_flags(c, peeksiginfo_flags, a.flags, "PTRACE_PEEKSIGINFO_???");
	dec_printf(c, ", nr=%u}", (unsigned)a.nr);
}

static bool ptrace_exit(struct dec_ctx *c, unsigned long req)
{
	unsigned long addr = A(2), data = A(3);
	struct seccomp_metadata md;
	unsigned long v;

	switch (req) {
	case PTRACE_PEEKTEXT:
	case PTRACE_PEEKDATA:
	case PTRACE_PEEKUSR:
		if (!out_ok(c, data))
			break;
		if (dec_read(c, data, &v, sizeof(v))) {
			dec_puts(c, "[");
			dec_ptr(c, v);
			dec_puts(c, "]");
		} else {
			dec_ptr(c, data);
		}
		break;
	case PTRACE_GETEVENTMSG:
		if (!out_ok(c, data))
			break;
		if (dec_read(c, data, &v, sizeof(v)))
			dec_printf(c, "[%lu]", v);
		else
			dec_ptr(c, data);
		break;
	case PTRACE_GETSIGINFO:
		if (out_ok(c, data))
			put_siginfo(c, data);
		break;
	case PTRACE_GETSIGMASK:
		if (out_ok(c, data))
			dec_sigset(c, data, addr);
		break;
	case PTRACE_PEEKSIGINFO:
		put_siginfo_array(c, data);
		break;
	case PTRACE_GETREGSET:
		put_getregset(c, (unsigned)addr, data);
		break;
	case PTRACE_SETREGSET: {
		struct iovec iov;

		if (data && dec_read(c, data, &iov, sizeof(iov)) &&
		    iov.iov_len != c->saved)
			dec_printf(c, " => %zu", iov.iov_len);
		dec_puts(c, "}");
		break;
	}
	case PT_GETREGS:
		if (out_ok(c, data))
			put_regs(c, data, sizeof(struct user_regs_struct));
		break;
	case PT_GETFPREGS:
		if (out_ok(c, data))
			put_fpregs(c, data, sizeof(struct user_fpregs_struct));
		break;
	case PTRACE_GET_SYSCALL_INFO:
		if (out_ok(c, data))
			put_syscall_info(c, data, addr);
		break;
	case PTRACE_SECCOMP_GET_METADATA:
		if (!failed(c) && addr > sizeof(md.filter_off)) {
			dec_puts(c, ", flags=");
			if (addr < sizeof(md) ||
			    !dec_read(c, data + sizeof(md.filter_off),
				      &md.flags, sizeof(md.flags))) {
				dec_puts(c, "???");
			} else {
				dec_flags(c, seccomp_filter_flags, md.flags,
					  "SECCOMP_FILTER_FLAG_???");
				if (addr > sizeof(md))
					dec_puts(c, ", ...");
			}
		}
		dec_puts(c, "}");
		break;
	default:
		dec_ptr(c, data);
		break;
	}
	return true;
}

bool d_ptrace(struct dec_ctx *c)
{
	unsigned long req = A(0), addr = A(2), data = A(3);
	struct seccomp_metadata md;

	if (c->exiting)
		return ptrace_exit(c, req);

	dec_xval(c, ptrace_cmds, req, "PTRACE_???");
	if (req == PTRACE_TRACEME)
		return true;
	SEP();
	dec_pid(c, IA(1));
	switch (req) {
	case PTRACE_ATTACH:
	case PTRACE_INTERRUPT:
	case PTRACE_KILL:
	case PTRACE_LISTEN:
		return true;
	}

	/* addr */
	SEP();
	switch (req) {
	case PTRACE_PEEKUSR:
	case PTRACE_POKEUSR:
		put_user_offset(c, addr);
		break;
	case PTRACE_GETREGSET:
	case PTRACE_SETREGSET:
		dec_xval(c, nt_types, addr, "NT_???");
		break;
	case PTRACE_GETSIGMASK:
	case PTRACE_SETSIGMASK:
	case PTRACE_SECCOMP_GET_FILTER:
	case PTRACE_SECCOMP_GET_METADATA:
	case PTRACE_GET_SYSCALL_INFO:
		dec_ulong(c, addr);
		break;
	case PTRACE_PEEKSIGINFO:
		put_peeksiginfo_args(c, addr);
		break;
	case PT_SETREGS:
		/* strace shows the registers in addr's place, no data. */
		put_regs(c, data, sizeof(struct user_regs_struct));
		return true;
	case PT_SETFPREGS:
		put_fpregs(c, data, sizeof(struct user_fpregs_struct));
		return true;
	case PT_GETREGS:
	case PT_GETFPREGS:
		/* The registers, at exit, in addr's place. */
		return false;
	default:
		dec_ptr(c, addr);
		break;
	}

	/* data */
	SEP();
	switch (req) {
	case PTRACE_CONT:
	case PTRACE_DETACH:
	case PTRACE_SYSCALL:
	case PTRACE_SINGLESTEP:
	case PT_SINGLEBLOCK:
	case PT_SYSEMU:
	case PT_SYSEMU_SINGLESTEP:
		dec_signal(c, (unsigned)data);
		return true;
	case PTRACE_SEIZE:
	case PTRACE_SETOPTIONS:
	case PT_OLDSETOPTIONS:
		dec_flags(c, ptrace_opts, data, "PTRACE_O_???");
		return true;
	case PTRACE_SETSIGINFO:
		put_siginfo(c, data);
		return true;
	case PTRACE_SETSIGMASK:
		dec_sigset(c, data, addr);
		return true;
	case PTRACE_GETREGSET: {
		struct iovec iov;

		if (!data || !dec_read(c, data, &iov, sizeof(iov))) {
			dec_ptr(c, data);
			return true;
		}
		c->saved = iov.iov_len;
		return false;
	}
	case PTRACE_SETREGSET: {
		struct iovec iov;

		if (!data || !dec_read(c, data, &iov, sizeof(iov))) {
			dec_ptr(c, data);
			return true;
		}
		dec_puts(c, "{iov_base=");
		put_regset(c, (unsigned)addr, (unsigned long)iov.iov_base,
			   iov.iov_len);
		dec_printf(c, ", iov_len=%zu", iov.iov_len);
		c->saved = iov.iov_len;
		return false;
	}
	case PTRACE_SECCOMP_GET_METADATA:
		if (addr < sizeof(md.filter_off) || !data ||
		    !dec_read(c, data, &md.filter_off, sizeof(md.filter_off))) {
			dec_ptr(c, data);
			return true;
		}
		dec_printf(c, "{filter_off=%llu",
			   (unsigned long long)md.filter_off);
		return false;
	case PTRACE_PEEKTEXT:
	case PTRACE_PEEKDATA:
	case PTRACE_PEEKUSR:
	case PTRACE_GETEVENTMSG:
	case PTRACE_GETSIGINFO:
	case PTRACE_GETSIGMASK:
	case PTRACE_PEEKSIGINFO:
	case PTRACE_SECCOMP_GET_FILTER:
	case PTRACE_GET_SYSCALL_INFO:
		return false;
	default:
		dec_ptr(c, data);
		return true;
	}
}
