// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace --gdb: the x86_64 Linux architecture (gdbserver's
 * linux-x86-low and regcache): gdb's signal numbers, the register file
 * gdb reads and writes (general, x87, SSE, AVX) and the target
 * description that names it, the debug registers.
 */
#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/user.h>
#include <utrace.h>

#include "gdb/gdb.h"
#include "util/sbuf.h"

#define XSTATE_MAX	8192
#define NREGS		76	/* in the order of the target description */

static const unsigned char to_gdb_tab[32] = {
	[SIGHUP] = 1, [SIGINT] = 2, [SIGQUIT] = 3, [SIGILL] = 4,
	[SIGTRAP] = 5, [SIGABRT] = 6, [SIGBUS] = 10, [SIGFPE] = 8,
	[SIGKILL] = 9, [SIGUSR1] = 30, [SIGSEGV] = 11, [SIGUSR2] = 31,
	[SIGPIPE] = 13, [SIGALRM] = 14, [SIGTERM] = 15, [SIGCHLD] = 20,
	[SIGCONT] = 19, [SIGSTOP] = 17, [SIGTSTP] = 18, [SIGTTIN] = 21,
	[SIGTTOU] = 22, [SIGURG] = 16, [SIGXCPU] = 24, [SIGXFSZ] = 25,
	[SIGVTALRM] = 26, [SIGPROF] = 27, [SIGWINCH] = 28, [SIGIO] = 23,
	[SIGPWR] = 32, [SIGSYS] = 12,
};

int gdb_sig_to(int sig)
{
	if (sig == 0)
		return 0;
	if (sig > 0 && sig < 32)
		return to_gdb_tab[sig] ? to_gdb_tab[sig] : 143;
	if (sig == 32)
		return 76;
	if (sig >= 33 && sig <= 63)
		return 45 + sig - 33;
	if (sig == 64)
		return 77;
	return 143;
}

int gdb_sig_from(int g)
{
	int s;

	for (s = 1; s <= 64; s++)
		if (gdb_sig_to(s) == g)
			return s;
	return 0;
}

static unsigned long gdb_dr7(const struct gproc *p)
{
	unsigned long dr7 = 0;
	int i;

	for (i = 0; i < 4; i++) {
		const struct hwslot *d = &p->dr[i];
		unsigned rw, ln;

		if (!d->used)
			continue;
		rw = d->type == '1' ? 0 : d->type == '2' ? 1 : 3;
		ln = d->type == '1' ? 0 : d->len == 1 ? 0 : d->len == 2 ? 1 :
		     d->len == 8 ? 2 : 3;
		dr7 |= 1UL << (2 * i);
		dr7 |= (unsigned long)(rw | ln << 2) << (16 + 4 * i);
	}
	return dr7;
}

/* Write the debug registers of a held thread. */
void gthr_dr_apply(struct gthr *g)
{
	struct gdbstub *s = g->s;
	struct gproc *p = g->p;
	int i;

	if (g->dr_gen == p->dr_gen || g->dead || g->vfork_wait)
		return;
	if (utrace_queue_debugreg_set(s->q, g->tid, 7, 0) < 0)
		return;		/* not held: at its next stop */
	for (i = 0; i < 4; i++)
		if (p->dr[i].used)
			utrace_queue_debugreg_set(s->q, g->tid, i,
						  p->dr[i].addr);
	utrace_queue_debugreg_set(s->q, g->tid, 7, gdb_dr7(p));
	g->dr_gen = p->dr_gen;
}

struct regset {
	struct user_regs_struct gp;
	unsigned char xs[XSTATE_MAX];
	size_t xlen;
	bool have_xs;
};

static int reg_size(int n)
{
	if (n < 17)
		return 8;
	if (n < 24)
		return 4;
	if (n < 32)
		return 10;
	if (n < 40)
		return 4;
	if (n < 56)
		return 16;
	if (n == 56)
		return 4;
	if (n < 60)
		return 8;
	return 16;
}

static unsigned long long *gp_slot(struct user_regs_struct *r, int n)
{
	static const size_t off[] = {
		offsetof(struct user_regs_struct, rax),
		offsetof(struct user_regs_struct, rbx),
		offsetof(struct user_regs_struct, rcx),
		offsetof(struct user_regs_struct, rdx),
		offsetof(struct user_regs_struct, rsi),
		offsetof(struct user_regs_struct, rdi),
		offsetof(struct user_regs_struct, rbp),
		offsetof(struct user_regs_struct, rsp),
		offsetof(struct user_regs_struct, r8),
		offsetof(struct user_regs_struct, r9),
		offsetof(struct user_regs_struct, r10),
		offsetof(struct user_regs_struct, r11),
		offsetof(struct user_regs_struct, r12),
		offsetof(struct user_regs_struct, r13),
		offsetof(struct user_regs_struct, r14),
		offsetof(struct user_regs_struct, r15),
		offsetof(struct user_regs_struct, rip),
		offsetof(struct user_regs_struct, eflags),
		offsetof(struct user_regs_struct, cs),
		offsetof(struct user_regs_struct, ss),
		offsetof(struct user_regs_struct, ds),
		offsetof(struct user_regs_struct, es),
		offsetof(struct user_regs_struct, fs),
		offsetof(struct user_regs_struct, gs),
	};

	if (n < 24)
		return (unsigned long long *)((char *)r + off[n]);
	if (n == 57)
		return &r->orig_rax;
	if (n == 58)
		return &r->fs_base;
	return &r->gs_base;
}

static int gthr_regs_load(struct gthr *g, struct regset *rs)
{
	struct utrace_queue *q = g->s->q;
	ssize_t n;
	int err;

	if (g->vfork_wait) {
		if (!g->snap)
			g->snap = gthr_snap_take(g);
		if (!g->snap)
			return -EBUSY;
		*rs = *g->snap;
		return 0;
	}
	err = utrace_queue_regs_get(q, g->tid, &rs->gp);
	if (err)
		return err;
	memset(rs->xs, 0, sizeof(rs->xs));
	rs->have_xs = true;
	n = utrace_queue_regset_get(q, g->tid, NT_X86_XSTATE, rs->xs,
				    sizeof(rs->xs));
	if (n > 0) {
		rs->xlen = (size_t)n;
	} else {
		rs->xlen = 0;
		if (utrace_queue_regset_get(q, g->tid, NT_PRFPREG, rs->xs,
					    512) < 0)
			rs->have_xs = false;
	}
	return 0;
}

static int gthr_regs_store(struct gthr *g, struct regset *rs, bool gp, bool xs)
{
	struct utrace_queue *q = g->s->q;
	ssize_t n;
	int err = 0;

	if (g->vfork_wait)
		return -EBUSY;	/* not stopped before vfork returns */
	if (gp)
		err = utrace_queue_regs_set(q, g->tid, &rs->gp);
	if (!err && xs && rs->have_xs) {
		if (rs->xlen) {
			uint64_t bv;

			/* x87, SSE and AVX now hold what gdb wrote. */
			memcpy(&bv, rs->xs + 512, 8);
			bv |= 7;
			memcpy(rs->xs + 512, &bv, 8);
			n = utrace_queue_regset_set(q, g->tid, NT_X86_XSTATE,
						    rs->xs, rs->xlen);
		} else {
			n = utrace_queue_regset_set(q, g->tid, NT_PRFPREG,
						    rs->xs, 512);
		}
		if (n < 0)
			err = (int)n;
	}
	return err;
}

/*
 * A vfork parent's registers while it waits for its child (it runs, in
 * the kernel): the held child's, made at the vfork from the parent's,
 * with the parent's rax of a syscall stop.  Taken once the child is held
 * (before gdb hears of the vfork), kept until the parent runs again.
 */
struct regset *gthr_snap_take(struct gthr *g)
{
	struct regset *rs;
	struct gthr *c;

	for (c = g->s->threads; c; c = c->next)
		if (c->p->pid == g->p->vfork_peer && c->tid == c->p->pid &&
		    gthr_usable(c) && c->stopped && !c->vfork_wait)
			break;
	if (!c)
		return NULL;
	rs = malloc(sizeof(*rs));
	if (rs && gthr_regs_load(c, rs) < 0) {
		free(rs);
		rs = NULL;
	}
	if (rs)
		rs->gp.rax = (unsigned long long)-ENOSYS;
	return rs;
}

/* The x87 tag word gdb shows, from FXSAVE's abridged one. */
static unsigned full_ftag(const unsigned char *fx)
{
	unsigned fsw = fx[2] | fx[3] << 8, top = (fsw >> 11) & 7;
	unsigned ftw = fx[4], tag = 0, p;

	for (p = 0; p < 8; p++) {
		const unsigned char *st = fx + 32 + 16 * ((p - top) & 7);
		unsigned exp = (st[9] & 0x7f) << 8 | st[8], t;
		bool zero = true, intbit = st[7] & 0x80;
		int i;

		for (i = 0; i < 8; i++)
			if (st[i])
				zero = false;
		if (!(ftw & (1U << p)))
			t = 3;
		else if (exp == 0x7fff)
			t = 2;
		else if (exp == 0)
			t = zero ? 1 : 2;
		else
			t = intbit ? 0 : 2;
		tag |= t << (2 * p);
	}
	return tag;
}

static void reg_get(struct regset *rs, int n, unsigned char *out)
{
	const unsigned char *fx = rs->xs;
	uint32_t v = 0;

	memset(out, 0, 16);
	if (n < 24 || (n >= 57 && n <= 59)) {
		unsigned long long x = *gp_slot(&rs->gp, n);

		memcpy(out, &x, (size_t)reg_size(n));
		return;
	}
	if (n < 32) {
		memcpy(out, fx + 32 + 16 * (n - 24), 10);
		return;
	}
	switch (n) {
	case 32: v = fx[0] | fx[1] << 8; break;
	case 33: v = fx[2] | fx[3] << 8; break;
	case 34: v = full_ftag(fx); break;
	case 35: v = fx[12] | fx[13] << 8; break;
	case 36: memcpy(&v, fx + 8, 4); break;
	case 37: v = fx[20] | fx[21] << 8; break;
	case 38: memcpy(&v, fx + 16, 4); break;
	case 39: v = (fx[6] | fx[7] << 8) & 0x7ff; break;
	case 56: memcpy(&v, fx + 24, 4); break;
	default:
		if (n < 56)
			memcpy(out, fx + 160 + 16 * (n - 40), 16);
		else if (rs->xlen >= 576 + 256)
			memcpy(out, fx + 576 + 16 * (n - 60), 16);
		return;
	}
	memcpy(out, &v, 4);
}

/* Returns 1 if a general register changed, 2 if the xstate did. */
static int reg_put(struct regset *rs, int n, const unsigned char *in)
{
	unsigned char *fx = rs->xs;
	uint32_t v;
	int p;

	if (n < 24 || (n >= 57 && n <= 59)) {
		unsigned long long x = 0;

		memcpy(&x, in, (size_t)reg_size(n));
		*gp_slot(&rs->gp, n) = x;
		return 1;
	}
	if (n < 32) {
		memcpy(fx + 32 + 16 * (n - 24), in, 10);
		return 2;
	}
	memcpy(&v, in, 4);
	switch (n) {
	case 32: fx[0] = v & 0xff; fx[1] = v >> 8 & 0xff; break;
	case 33: fx[2] = v & 0xff; fx[3] = v >> 8 & 0xff; break;
	case 34:
		fx[4] = 0;
		for (p = 0; p < 8; p++)
			if (((v >> (2 * p)) & 3) != 3)
				fx[4] |= (unsigned char)(1U << p);
		break;
	case 35: fx[12] = v & 0xff; fx[13] = v >> 8 & 0xff; break;
	case 36: memcpy(fx + 8, &v, 4); break;
	case 37: fx[20] = v & 0xff; fx[21] = v >> 8 & 0xff; break;
	case 38: memcpy(fx + 16, &v, 4); break;
	case 39: fx[6] = v & 0xff; fx[7] = (fx[7] & 0xf8) | (v >> 8 & 7); break;
	case 56: memcpy(fx + 24, &v, 4); break;
	default:
		if (n < 56)
			memcpy(fx + 160 + 16 * (n - 40), in, 16);
		else if (rs->xlen >= 576 + 256)
			memcpy(fx + 576 + 16 * (n - 60), in, 16);
		else
			return 0;
	}
	return 2;
}

static const char *const gp_names[24] = {
	"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	"rip", "eflags", "cs", "ss", "ds", "es", "fs", "gs",
};

static const char *const x87_names[8] = {
	"fctrl", "fstat", "ftag", "fiseg", "fioff", "foseg", "fooff", "fop",
};

static void sb_flags(struct sbuf *b, const char *id,
		     const char *const *names, const int *bits, int n)
{
	int i;

	sb_printf(b, "<flags id=\"%s\" size=\"4\">", id);
	for (i = 0; i < n; i++)
		sb_printf(b, "<field name=\"%s\" start=\"%d\" end=\"%d\" "
			  "type=\"bool\"/>", names[i], bits[i], bits[i]);
	sb_puts(b, "</flags>");
}

/* The target description: gdb's amd64 core, SSE, Linux, segments, AVX. */
void gdb_target_xml(struct sbuf *b)
{
	static const char *const ef[] = { "CF", "", "PF", "AF", "ZF", "SF",
		"TF", "IF", "DF", "OF", "NT", "RF", "VM", "AC", "VIF", "VIP",
		"ID" };
	static const int efb[] = { 0, 1, 2, 4, 6, 7, 8, 9, 10, 11, 14, 16, 17,
		18, 19, 20, 21 };
	static const char *const mx[] = { "IE", "DE", "ZE", "OE", "UE", "PE",
		"DAZ", "IM", "DM", "ZM", "OM", "UM", "PM", "FZ" };
	static const int mxb[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
		15 };
	int i;

	sb_puts(b, "<?xml version=\"1.0\"?><!DOCTYPE target SYSTEM "
		"\"gdb-target.dtd\"><target><architecture>i386:x86-64"
		"</architecture><osabi>GNU/Linux</osabi>"
		"<feature name=\"org.gnu.gdb.i386.core\">");
	sb_flags(b, "i386_eflags", ef, efb, 17);
	for (i = 0; i < 24; i++)
		sb_printf(b, "<reg name=\"%s\" bitsize=\"%d\" type=\"%s\" "
			  "regnum=\"%d\"/>", gp_names[i], reg_size(i) * 8,
			  i == 6 || i == 7 ? "data_ptr" : i == 16 ? "code_ptr" :
			  i == 17 ? "i386_eflags" : i > 17 ? "int32" : "int64",
			  i);
	for (i = 0; i < 8; i++)
		sb_printf(b, "<reg name=\"st%d\" bitsize=\"80\" type=\"i387_ext\""
			  " regnum=\"%d\"/>", i, 24 + i);
	for (i = 0; i < 8; i++)
		sb_printf(b, "<reg name=\"%s\" bitsize=\"32\" type=\"int\" "
			  "regnum=\"%d\" group=\"float\"/>", x87_names[i],
			  32 + i);
	sb_puts(b, "</feature><feature name=\"org.gnu.gdb.i386.sse\">"
		"<vector id=\"v8bf16\" type=\"bfloat16\" count=\"8\"/>"
		"<vector id=\"v8h\" type=\"ieee_half\" count=\"8\"/>"
		"<vector id=\"v4f\" type=\"ieee_single\" count=\"4\"/>"
		"<vector id=\"v2d\" type=\"ieee_double\" count=\"2\"/>"
		"<vector id=\"v16i8\" type=\"int8\" count=\"16\"/>"
		"<vector id=\"v8i16\" type=\"int16\" count=\"8\"/>"
		"<vector id=\"v4i32\" type=\"int32\" count=\"4\"/>"
		"<vector id=\"v2i64\" type=\"int64\" count=\"2\"/>"
		"<union id=\"vec128\">"
		"<field name=\"v8_bfloat16\" type=\"v8bf16\"/>"
		"<field name=\"v8_half\" type=\"v8h\"/>"
		"<field name=\"v4_float\" type=\"v4f\"/>"
		"<field name=\"v2_double\" type=\"v2d\"/>"
		"<field name=\"v16_int8\" type=\"v16i8\"/>"
		"<field name=\"v8_int16\" type=\"v8i16\"/>"
		"<field name=\"v4_int32\" type=\"v4i32\"/>"
		"<field name=\"v2_int64\" type=\"v2i64\"/>"
		"<field name=\"uint128\" type=\"uint128\"/></union>");
	sb_flags(b, "i386_mxcsr", mx, mxb, 14);
	for (i = 0; i < 16; i++)
		sb_printf(b, "<reg name=\"xmm%d\" bitsize=\"128\" type=\"vec128\""
			  " regnum=\"%d\"/>", i, 40 + i);
	sb_puts(b, "<reg name=\"mxcsr\" bitsize=\"32\" type=\"i386_mxcsr\" "
		"regnum=\"56\" group=\"vector\"/></feature>"
		"<feature name=\"org.gnu.gdb.i386.linux\">"
		"<reg name=\"orig_rax\" bitsize=\"64\" type=\"int\" "
		"regnum=\"57\"/></feature>"
		"<feature name=\"org.gnu.gdb.i386.segments\">"
		"<reg name=\"fs_base\" bitsize=\"64\" type=\"int\" regnum=\"58\"/>"
		"<reg name=\"gs_base\" bitsize=\"64\" type=\"int\" regnum=\"59\"/>"
		"</feature><feature name=\"org.gnu.gdb.i386.avx\">");
	for (i = 0; i < 16; i++)
		sb_printf(b, "<reg name=\"ymm%dh\" bitsize=\"128\" "
			  "type=\"uint128\" regnum=\"%d\"/>", i, 60 + i);
	sb_puts(b, "</feature></target>");
}

void gdb_do_read_regs(struct gdbstub *s)
{
	struct gthr *g = gthr_access(s);
	struct regset *rs;
	unsigned char v[16];
	char *out, *p;
	int n;

	if (!g) {
		gdb_send_error(s, 1);
		return;
	}
	rs = malloc(sizeof(*rs));
	out = malloc(2 * 16 * NREGS + 1);
	if (!rs || !out || gthr_regs_load(g, rs) < 0) {
		free(rs);
		free(out);
		gdb_send_error(s, 1);
		return;
	}
	p = out;
	for (n = 0; n < NREGS; n++) {
		reg_get(rs, n, v);
		gdb_put_hex(p, v, (size_t)reg_size(n));
		p += 2 * reg_size(n);
	}
	gdb_send_packet(s, out);
	free(out);
	free(rs);
}

/*
 * How many registers a G packet's @hex gives: whole registers from the
 * first on, in hex digits only; -1 when anything else (gdbserver's
 * registers_from_string refuses bad hex; a short packet writes what
 * it gives).
 */
static int g_packet_regs(const char *hex)
{
	size_t len = strlen(hex), off = 0;
	int n;

	for (n = 0; n < NREGS && off < len; n++)
		off += 2 * (size_t)reg_size(n);
	if (off != len || strspn(hex, "0123456789abcdefABCDEF") != len)
		return -1;
	return n;
}

void gdb_do_write_regs(struct gdbstub *s, const char *hex)
{
	struct gthr *g = gthr_access(s);
	struct regset *rs;
	unsigned char v[16];
	int n, what = 0, nregs = g_packet_regs(hex);

	if (nregs <= 0) {
		gdb_send_error(s, 1);
		return;
	}
	if (!g) {
		gdb_send_error(s, 1);
		return;
	}
	rs = malloc(sizeof(*rs));
	if (!rs || gthr_regs_load(g, rs) < 0) {
		free(rs);
		gdb_send_error(s, 1);
		return;
	}
	for (n = 0; n < nregs; n++) {
		int sz = reg_size(n);

		gdb_get_hex(v, hex, (size_t)sz);	/* checked above */
		hex += 2 * sz;
		what |= reg_put(rs, n, v);
	}
	n = gthr_regs_store(g, rs, what & 1, what & 2);
	free(rs);
	gdb_send_packet(s, n ? "E01" : "OK");
}

void gdb_do_reg(struct gdbstub *s, const char *p, bool write)
{
	struct gthr *g = gthr_access(s);
	struct regset *rs;
	unsigned char v[16];
	char out[40];
	unsigned long n;
	int what;

	/* pN, or PN=VALUE with exactly the register's size in hex. */
	if (!gdb_parse_ulong(&p, &n) || (write ? *p++ != '=' : *p != 0)) {
		gdb_send_error(s, 1);
		return;
	}
	if (n >= NREGS) {
		gdb_send_error(s, 0);
		return;
	}
	if (write && strlen(p) != 2 * (size_t)reg_size((int)n)) {
		gdb_send_error(s, 1);
		return;
	}
	if (!g) {
		gdb_send_error(s, 1);
		return;
	}
	rs = malloc(sizeof(*rs));
	if (!rs || gthr_regs_load(g, rs) < 0) {
		free(rs);
		gdb_send_error(s, 1);
		return;
	}
	if (!write) {
		reg_get(rs, (int)n, v);
		gdb_put_hex(out, v, (size_t)reg_size((int)n));
		gdb_send_packet(s, out);
	} else if (gdb_get_hex(v, p, (size_t)reg_size((int)n)) !=
		   reg_size((int)n)) {
		gdb_send_error(s, 1);
	} else {
		what = reg_put(rs, (int)n, v);
		gdb_send_packet(s, gthr_regs_store(g, rs, what & 1, what & 2) ?
			    "E01" : "OK");
	}
	free(rs);
}

/* c ADDR, s ADDR: resume at another address. */
void gthr_set_pc(struct gthr *g, uint64_t pc)
{
	struct user_regs_struct r;

	if (utrace_queue_regs_get(g->s->q, g->tid, &r) == 0) {
		r.rip = pc;
		utrace_queue_regs_set(g->s->q, g->tid, &r);
	}
}
