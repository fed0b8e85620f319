// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Memory: mappings, protection, locks, NUMA policies, protection keys.
 * Each decoder is called at entry and, unless it returned true there,
 * again at exit; the syscall table (syscalls.c) says which decoder a
 * syscall has.
 */
#include <linux/mempolicy.h>
#include <sys/mman.h>

#include "decode/decoders.h"
#include "decode/xlat.h"

static void put_prot(struct dec_ctx *c, unsigned long prot)
{
	size_t pos = dec_sym_begin(c);

	if (!prot)
		dec_puts(c, "PROT_NONE");
	else
		dec_flags(c, xlat_prot, prot, NULL);
	dec_sym_end(c, pos, prot, DEC_NUM_HEX);
}

bool d_mmap(struct dec_ctx *c)
{
	unsigned long fl = A(3);
	const char *type = xlat_name(xlat_map_type, fl & 3);
	size_t pos;

	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	SEP();
	put_prot(c, A(2));
	SEP();
	pos = dec_sym_begin(c);
	if (type)
		dec_puts(c, type);
	else
		dec_printf(c, "%#lx /* MAP_??? */", fl & 3);
	fl &= ~3UL;
	if (fl) {
		dec_puts(c, "|");
		dec_flags(c, xlat_map_flags, fl, NULL);
	}
	dec_sym_end(c, pos, A(3), DEC_NUM_HEX);
	SEP();
	dec_fd(c, IA(4));
	SEP();
	dec_hex(c, A(5));
	c->rval = RV_HEX;
	return true;
}

bool d_mprotect(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	SEP();
	put_prot(c, A(2));
	return true;
}

bool d_munmap(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	return true;
}

bool d_brk(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	c->rval = RV_HEX;
	return true;
}

bool d_mremap(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	SEP();
	dec_ulong(c, A(2));
	SEP();
	dec_flags(c, xlat_mremap_flags, A(3), NULL);
	if (A(3) & 2) {
		SEP();
		dec_ptr(c, A(4));
	}
	c->rval = RV_HEX;
	return true;
}

bool d_madvise(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	SEP();
	dec_xval(c, xlat_madvise, A(2), "MADV_???");
	return true;
}

bool d_msync(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	SEP();
	dec_flags(c, xlat_msync, A(2), NULL);
	return true;
}

bool d_addr_len(struct dec_ctx *c)
{
	dec_ptr(c, A(0));
	SEP();
	dec_ulong(c, A(1));
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

bool d_set_mempolicy(struct dec_ctx *c)
{
	put_mpol_mode(c, (unsigned)A(0));
	SEP();
	put_nodemask(c, A(1), A(2));
	SEP();
	dec_ulong(c, A(2));
	return true;
}

bool d_get_mempolicy(struct dec_ctx *c)
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

bool d_mbind(struct dec_ctx *c)
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

bool d_pkey_alloc(struct dec_ctx *c)
{
	dec_hex(c, A(0));
	SEP();
	dec_flags(c, pkey_rights, A(1), "PKEY_???");
	return true;
}

bool d_pkey_mprotect(struct dec_ctx *c)
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

bool d_mlockall(struct dec_ctx *c)
{
	static const struct xlat mcl[] = {
		XLAT(MCL_CURRENT), XLAT(MCL_FUTURE), XLAT(MCL_ONFAULT),
		XLAT_END
	};

	dec_flags(c, mcl, A(0), "MCL_???");
	return true;
}

bool d_process_madvise(struct dec_ctx *c)
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
