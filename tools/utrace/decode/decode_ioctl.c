// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ioctl(): the request's name (all the names strace knows for that number,
 * joined with " or "; _IOC(...) for the others) and the argument of the
 * terminal, descriptor and file requests, as strace's term.c and ioctl.c
 * print them.
 */
#include <asm/termbits.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/kvm.h>
#include <sys/ioctl.h>

#include "decode/decoders.h"

/* In numeric order; a number several drivers use carries all its names. */
static const struct xlat ioctl_names[] = {
	XLAT(TCGETS),
	XLAT_PAIR(TCSETS, "SNDCTL_TMR_START or TCSETS"),
	XLAT_PAIR(TCSETSW, "SNDCTL_TMR_STOP or TCSETSW"),
	XLAT_PAIR(TCSETSF, "SNDCTL_TMR_CONTINUE or TCSETSF"),
	XLAT(TCGETA), XLAT(TCSETA), XLAT(TCSETAW), XLAT(TCSETAF),
	XLAT(TCSBRK), XLAT(TCXONC), XLAT(TCFLSH), XLAT(TIOCEXCL),
	XLAT(TIOCNXCL), XLAT(TIOCSCTTY), XLAT(TIOCGPGRP), XLAT(TIOCSPGRP),
	XLAT(TIOCOUTQ), XLAT(TIOCSTI), XLAT(TIOCGWINSZ), XLAT(TIOCSWINSZ),
	XLAT(TIOCMGET), XLAT(TIOCMBIS), XLAT(TIOCMBIC), XLAT(TIOCMSET),
	XLAT(TIOCGSOFTCAR), XLAT(TIOCSSOFTCAR), XLAT(FIONREAD),
	XLAT(TIOCLINUX), XLAT(TIOCCONS), XLAT(TIOCGSERIAL),
	XLAT(TIOCSSERIAL), XLAT(TIOCPKT), XLAT(FIONBIO), XLAT(TIOCNOTTY),
	XLAT(TIOCSETD), XLAT(TIOCGETD), XLAT(TCSBRKP), XLAT(TIOCSBRK),
	XLAT(TIOCCBRK), XLAT(TIOCGSID), XLAT(TIOCGRS485), XLAT(TIOCSRS485),
	XLAT(TCGETX), XLAT(TCSETX), XLAT(TCSETXF), XLAT(TCSETXW),
	XLAT(TIOCVHANGUP), XLAT(FIONCLEX), XLAT(FIOCLEX), XLAT(FIOASYNC),
	XLAT(TIOCSERCONFIG), XLAT(TIOCSERGWILD), XLAT(TIOCSERSWILD),
	XLAT(TIOCGLCKTRMIOS), XLAT(TIOCSLCKTRMIOS), XLAT(TIOCSERGSTRUCT),
	XLAT(TIOCSERGETLSR), XLAT(TIOCSERGETMULTI), XLAT(TIOCSERSETMULTI),
	XLAT(TIOCMIWAIT), XLAT(TIOCGICOUNT), XLAT(FIOQSIZE),
	XLAT(TIOCGPTPEER), XLAT(TIOCGPTN), XLAT(TIOCSPTLCK), XLAT(TIOCGDEV),
	XLAT(TIOCSIG), XLAT(TIOCGPKT), XLAT(TIOCGPTLCK), XLAT(TIOCGEXCL),
	XLAT(TCGETS2), XLAT(TCSETS2), XLAT(TCSETSW2), XLAT(TCSETSF2),
	XLAT(FIBMAP), XLAT(FIGETBSZ), XLAT(FIFREEZE), XLAT(FITHAW),
	XLAT(FITRIM), XLAT_PAIR(FICLONE, "BTRFS_IOC_CLONE or FICLONE"),
	XLAT_PAIR(FICLONERANGE, "BTRFS_IOC_CLONE_RANGE or FICLONERANGE"),
	XLAT_PAIR(FIDEDUPERANGE, "BTRFS_IOC_FILE_EXTENT_SAME or FIDEDUPERANGE"),
	XLAT(FS_IOC_GETFLAGS), XLAT(FS_IOC_SETFLAGS),
	XLAT(FS_IOC_GETVERSION), XLAT(FS_IOC_SETVERSION),
	XLAT(FS_IOC_FIEMAP), XLAT(FS_IOC_FSGETXATTR),
	XLAT(FS_IOC_FSSETXATTR), XLAT(BLKROSET), XLAT(BLKROGET),
	XLAT(BLKRRPART), XLAT(BLKGETSIZE), XLAT(BLKFLSBUF), XLAT(BLKRASET),
	XLAT(BLKRAGET), XLAT(BLKSSZGET), XLAT(BLKBSZGET), XLAT(BLKBSZSET),
	XLAT(BLKGETSIZE64), XLAT(BLKDISCARD), XLAT(BLKPBSZGET),
	XLAT_END
};

static const struct xlat ioc_dirs[] = {
	XLAT(_IOC_NONE), XLAT(_IOC_READ), XLAT(_IOC_WRITE), XLAT_END
};

static void put_request_abbrev(struct dec_ctx *c, unsigned req);

static void put_request(struct dec_ctx *c, unsigned req)
{
	size_t pos = dec_sym_begin(c);

	put_request_abbrev(c, req);
	dec_sym_end(c, pos, req, DEC_NUM_HEX);
}

static void put_request_abbrev(struct dec_ctx *c, unsigned req)
{
	const char *n = _IOC_TYPE(req) == KVMIO ? kvm_ioctl_name(req) :
			xlat_name(ioctl_names, req);
	unsigned dir = _IOC_DIR(req);

	if (n) {
		dec_puts(c, n);
		return;
	}
	dec_puts(c, "_IOC(");
	if (dir == _IOC_NONE)
		dec_puts(c, "_IOC_NONE");
	else
		dec_flags(c, ioc_dirs, dir, NULL);
	dec_printf(c, ", %#x, %#x, ", _IOC_TYPE(req), _IOC_NR(req));
	dec_hex(c, _IOC_SIZE(req));
	dec_puts(c, ")");
}

/* -- struct termios, as strace 6.1 prints it ------------------------------ */

static const struct xlat iflags[] = {
	XLAT(IGNBRK), XLAT(BRKINT), XLAT(IGNPAR), XLAT(PARMRK), XLAT(INPCK),
	XLAT(ISTRIP), XLAT(INLCR), XLAT(IGNCR), XLAT(ICRNL), XLAT(IUCLC),
	XLAT(IXON), XLAT(IXANY), XLAT(IXOFF), XLAT(IMAXBEL), XLAT(IUTF8),
	XLAT_END
};
static const struct xlat oflags[] = {
	XLAT(OPOST), XLAT(OLCUC), XLAT(ONLCR), XLAT(OCRNL), XLAT(ONOCR),
	XLAT(ONLRET), XLAT(OFILL), XLAT(OFDEL), XLAT_END
};
static const struct xlat lflags[] = {
	XLAT(ISIG), XLAT(ICANON), XLAT(XCASE), XLAT(ECHO), XLAT(ECHOE),
	XLAT(ECHOK), XLAT(ECHONL), XLAT(NOFLSH), XLAT(IEXTEN), XLAT(ECHOCTL),
	XLAT(ECHOPRT), XLAT(ECHOKE), XLAT(FLUSHO), XLAT(PENDIN), XLAT(TOSTOP),
	XLAT(EXTPROC), XLAT_END
};
static const struct xlat cflags[] = {
	XLAT(CSTOPB), XLAT(CREAD), XLAT(PARENB), XLAT(PARODD), XLAT(HUPCL),
	XLAT(CLOCAL), XLAT(CMSPAR), XLAT(CRTSCTS), XLAT_END
};
static const struct xlat bauds[] = {
	XLAT(B0), XLAT(B50), XLAT(B75), XLAT(B110), XLAT(B134), XLAT(B150),
	XLAT(B200), XLAT(B300), XLAT(B600), XLAT(B1200), XLAT(B1800),
	XLAT(B2400), XLAT(B4800), XLAT(B9600), XLAT(B19200), XLAT(B38400),
	XLAT(B57600), XLAT(B115200), XLAT(B230400), XLAT(B460800),
	XLAT(B500000), XLAT(B576000), XLAT(B921600), XLAT(B1000000),
	XLAT(B1152000), XLAT(B1500000), XLAT(B2000000), XLAT(B2500000),
	XLAT(B3000000), XLAT(B3500000), XLAT(B4000000), XLAT(BOTHER),
	XLAT_END
};
static const struct xlat csizes[] = {
	XLAT(CS5), XLAT(CS6), XLAT(CS7), XLAT(CS8), XLAT_END
};

/* The delay fields of c_oflag: mask, names by value. */
static const struct {
	unsigned mask;
	const char *names[4];
} delays[] = {
	{ NLDLY, { "NL0", "NL1" } },
	{ CRDLY, { "CR0", "CR1", "CR2", "CR3" } },
	{ TABDLY, { "TAB0", "TAB1", "TAB2", "XTABS" } },
	{ BSDLY, { "BS0", "BS1" } },
	{ VTDLY, { "VT0", "VT1" } },
	{ FFDLY, { "FF0", "FF1" } },
};

static void put_field(struct dec_ctx *c, const struct xlat *x, unsigned v,
		      const char *dflt)
{
	const char *n = xlat_name(x, v);

	if (n)
		dec_puts(c, n);
	else
		dec_printf(c, "%#x /* %s */", v, dflt);
}

/* -v: c_line and c_cc, as strace. */
static const struct xlat line_discs[] = {
	XLAT_PAIR(0, "N_TTY"), XLAT_PAIR(1, "N_SLIP"), XLAT_PAIR(2, "N_MOUSE"),
	XLAT_PAIR(3, "N_PPP"), XLAT_PAIR(4, "N_STRIP"), XLAT_PAIR(5, "N_AX25"),
	XLAT_PAIR(6, "N_X25"), XLAT_PAIR(7, "N_6PACK"), XLAT_PAIR(8, "N_MASC"),
	XLAT_PAIR(9, "N_R3964"), XLAT_PAIR(10, "N_PROFIBUS_FDL"),
	XLAT_PAIR(11, "N_IRDA"), XLAT_PAIR(12, "N_SMSBLOCK"),
	XLAT_PAIR(13, "N_HDLC"), XLAT_PAIR(14, "N_SYNC_PPP"),
	XLAT_PAIR(15, "N_HCI"), XLAT_PAIR(16, "N_GIGASET_M101"),
	XLAT_PAIR(17, "N_SLCAN"), XLAT_PAIR(18, "N_PPS"),
	XLAT_PAIR(19, "N_V253"), XLAT_PAIR(20, "N_CAIF"),
	XLAT_PAIR(21, "N_GSM0710"), XLAT_PAIR(22, "N_TI_WL"),
	XLAT_PAIR(23, "N_TRACESINK"), XLAT_PAIR(24, "N_TRACEROUTER"),
	XLAT_PAIR(25, "N_NCI"), XLAT_PAIR(26, "N_SPEAKUP"),
	XLAT_PAIR(27, "N_NULL"), XLAT_END
};
static const struct xlat cc_names[] = {
	XLAT(VINTR), XLAT(VQUIT), XLAT(VERASE), XLAT(VKILL), XLAT(VEOF),
	XLAT(VTIME), XLAT(VMIN), XLAT(VSWTC), XLAT(VSTART), XLAT(VSTOP),
	XLAT(VSUSP), XLAT(VEOL), XLAT(VREPRINT), XLAT(VDISCARD),
	XLAT(VWERASE), XLAT(VLNEXT), XLAT(VEOL2), XLAT_END
};

/*
 * strace 6.1 prints flag words without a default, so a zero word leaves
 * its field empty ("c_lflag=, ...") and a zero rest of c_oflag or c_cflag
 * leaves a trailing "|".
 */
static void put_termios(struct dec_ctx *c, unsigned long addr)
{
	struct termios t;	/* the kernel's layout, from linux/termios.h */
	unsigned v;
	size_t i;

	if (!dec_read(c, addr, &t, sizeof(t))) {
		dec_ptr(c, addr);
		return;
	}
	dec_puts(c, "{c_iflag=");
	dec_flags_nz(c, iflags, t.c_iflag);
	dec_puts(c, ", c_oflag=");
	v = t.c_oflag;
	for (i = 0; i < sizeof(delays) / sizeof(delays[0]); i++) {
		unsigned m = delays[i].mask, f = (v & m) / (m & -m);

		dec_printf(c, "%s|", delays[i].names[f]);
		v &= ~m;
	}
	dec_flags_nz(c, oflags, v);
	dec_puts(c, ", c_cflag=");
	v = t.c_cflag;
	put_field(c, bauds, v & CBAUD, "B???");
	dec_puts(c, "|");
	if (v & CIBAUD) {
		put_field(c, bauds, (v & CIBAUD) >> IBSHIFT, "B???");
		dec_puts(c, "<<IBSHIFT|");
	}
	put_field(c, csizes, v & CSIZE, "CS?");
	dec_puts(c, "|");
	dec_flags_nz(c, cflags, v & ~(CBAUD | CIBAUD | CSIZE));
	dec_puts(c, ", c_lflag=");
	dec_flags_nz(c, lflags, t.c_lflag);
	if (!c->no_abbrev) {
		dec_puts(c, ", ...}");
		return;
	}
	dec_puts(c, ", c_line=");
	dec_xval(c, line_discs, t.c_line, "N_???");
	dec_puts(c, ", c_cc=[");
	for (i = 0; i < NCCS; i++) {
		const char *n = xlat_name(cc_names, i);

		if (n)
			dec_printf(c, "%s[%s]=", i ? ", " : "", n);
		else
			dec_printf(c, "%s[%zu]=", i ? ", " : "", i);
		dec_printf(c, "%#x", t.c_cc[i]);
	}
	dec_puts(c, "]}");
}

static void put_winsize(struct dec_ctx *c, unsigned long addr)
{
	struct winsize ws;

	if (!dec_read(c, addr, &ws, sizeof(ws)))
		dec_ptr(c, addr);
	else
		dec_printf(c, "{ws_row=%u, ws_col=%u, ws_xpixel=%u, "
			   "ws_ypixel=%u}", ws.ws_row, ws.ws_col,
			   ws.ws_xpixel, ws.ws_ypixel);
}

static const struct xlat tcflsh[] = {
	XLAT(TCIFLUSH), XLAT(TCOFLUSH), XLAT(TCIOFLUSH), XLAT_END
};
static const struct xlat tcxonc[] = {
	XLAT(TCOOFF), XLAT(TCOON), XLAT(TCIOFF), XLAT(TCION), XLAT_END
};

/* How the third argument of a known request is shown. */
enum ioarg {
	IA_HEX,		/* the value (the default) */
	IA_PTR,		/* a structure strace decodes and we do not */
	IA_NONE,	/* no third argument */
	IA_INT,		/* the value, in decimal */
	IA_INTP,	/* [int], read at entry */
	IA_INTP_OUT,	/* [int], written by the call */
	IA_TERMIOS,	/* struct termios, read at entry */
	IA_TERMIOS_OUT,
	IA_WINSIZE,
	IA_WINSIZE_OUT,
	IA_TCFLSH,
	IA_TCXONC,
	IA_FIEMAP,	/* struct fiemap, read at entry and exit */
	IA_FSFLAGS,	/* [FS_*_FL], read at entry */
	IA_FSFLAGS_OUT,	/* [FS_*_FL], written by the call */
};

static const struct {
	unsigned req;
	enum ioarg arg;
} ioargs[] = {
	{ TCGETS, IA_TERMIOS_OUT }, { TIOCGLCKTRMIOS, IA_TERMIOS_OUT },
	{ TCSETS, IA_TERMIOS }, { TCSETSW, IA_TERMIOS },
	{ TCSETSF, IA_TERMIOS }, { TIOCSLCKTRMIOS, IA_TERMIOS },
	{ TIOCGWINSZ, IA_WINSIZE_OUT }, { TIOCSWINSZ, IA_WINSIZE },
	{ TCXONC, IA_TCXONC }, { TCFLSH, IA_TCFLSH }, { TCSBRK, IA_INT },
	{ TCSBRKP, IA_INT }, { TIOCSCTTY, IA_INT },
	{ TIOCGPGRP, IA_INTP_OUT }, { TIOCGSID, IA_INTP_OUT },
	{ TIOCGETD, IA_INTP_OUT }, { TIOCGSOFTCAR, IA_INTP_OUT },
	{ TIOCGPTN, IA_INTP_OUT }, { FIONREAD, IA_INTP_OUT },
	{ TIOCOUTQ, IA_INTP_OUT }, { TIOCGEXCL, IA_INTP_OUT },
	{ TIOCGDEV, IA_INTP_OUT }, { TIOCSPGRP, IA_INTP },
	{ TIOCSETD, IA_INTP }, { FIONBIO, IA_INTP }, { FIOASYNC, IA_INTP },
	{ TIOCPKT, IA_INTP }, { TIOCSSOFTCAR, IA_INTP },
	{ TIOCSPTLCK, IA_INTP }, { TIOCSBRK, IA_NONE }, { TIOCCBRK, IA_NONE },
	{ TIOCCONS, IA_NONE }, { TIOCNOTTY, IA_NONE }, { TIOCEXCL, IA_NONE },
	{ TIOCNXCL, IA_NONE }, { FIOCLEX, IA_NONE }, { FIONCLEX, IA_NONE },
	{ TIOCVHANGUP, IA_NONE }, { TIOCSSERIAL, IA_NONE },
	{ FICLONE, IA_INT }, { FIFREEZE, IA_NONE }, { FITHAW, IA_NONE },
	{ BLKRRPART, IA_NONE }, { BLKFLSBUF, IA_NONE },
	{ TCGETA, IA_PTR }, { TCSETA, IA_PTR }, { TCSETAW, IA_PTR },
	{ TCSETAF, IA_PTR }, { TIOCSTI, IA_PTR }, { TIOCMGET, IA_PTR },
	{ TIOCMBIS, IA_PTR }, { TIOCMBIC, IA_PTR }, { TIOCMSET, IA_PTR },
	{ TCGETS2, IA_PTR }, { TCSETS2, IA_PTR }, { TCSETSW2, IA_PTR },
	{ TCSETSF2, IA_PTR }, { FITRIM, IA_PTR }, { FICLONERANGE, IA_PTR },
	{ FIDEDUPERANGE, IA_PTR }, { FS_IOC_GETFLAGS, IA_FSFLAGS_OUT },
	{ FS_IOC_SETFLAGS, IA_FSFLAGS }, { FS_IOC_GETVERSION, IA_PTR },
	{ FS_IOC_SETVERSION, IA_PTR }, { FS_IOC_FIEMAP, IA_FIEMAP },
	{ FS_IOC_FSGETXATTR, IA_PTR }, { FS_IOC_FSSETXATTR, IA_PTR },
	{ BLKROSET, IA_PTR }, { BLKROGET, IA_PTR }, { BLKGETSIZE, IA_PTR },
	{ BLKRASET, IA_PTR }, { BLKRAGET, IA_PTR }, { BLKSSZGET, IA_PTR },
	{ BLKBSZGET, IA_PTR }, { BLKBSZSET, IA_PTR }, { BLKGETSIZE64, IA_PTR },
	{ BLKDISCARD, IA_PTR }, { BLKPBSZGET, IA_PTR },
};

static const struct xlat fs_ioc_flags[] = {
	XLAT(FS_SECRM_FL), XLAT(FS_UNRM_FL), XLAT(FS_COMPR_FL),
	XLAT(FS_SYNC_FL), XLAT(FS_IMMUTABLE_FL), XLAT(FS_APPEND_FL),
	XLAT(FS_NODUMP_FL), XLAT(FS_NOATIME_FL), XLAT(FS_DIRTY_FL),
	XLAT(FS_COMPRBLK_FL), XLAT(FS_NOCOMP_FL), XLAT(FS_ENCRYPT_FL),
	XLAT(FS_INDEX_FL), XLAT(FS_IMAGIC_FL), XLAT(FS_JOURNAL_DATA_FL),
	XLAT(FS_NOTAIL_FL), XLAT(FS_DIRSYNC_FL), XLAT(FS_TOPDIR_FL),
	XLAT(FS_HUGE_FILE_FL), XLAT(FS_EXTENT_FL), XLAT(FS_VERITY_FL),
	XLAT(FS_EA_INODE_FL), XLAT(FS_EOFBLOCKS_FL), XLAT(FS_NOCOW_FL),
	XLAT(FS_DAX_FL), XLAT(FS_INLINE_DATA_FL), XLAT(FS_PROJINHERIT_FL),
	XLAT(FS_CASEFOLD_FL), XLAT(FS_RESERVED_FL), XLAT_END
};
static const struct xlat fiemap_flags[] = {
	XLAT(FIEMAP_FLAG_SYNC), XLAT(FIEMAP_FLAG_XATTR), XLAT(FIEMAP_FLAG_CACHE),
	XLAT_END
};
static const struct xlat fiemap_extent_flags[] = {
	XLAT(FIEMAP_EXTENT_LAST), XLAT(FIEMAP_EXTENT_UNKNOWN),
	XLAT(FIEMAP_EXTENT_DELALLOC), XLAT(FIEMAP_EXTENT_ENCODED),
	XLAT(FIEMAP_EXTENT_DATA_ENCRYPTED), XLAT(FIEMAP_EXTENT_NOT_ALIGNED),
	XLAT(FIEMAP_EXTENT_DATA_INLINE), XLAT(FIEMAP_EXTENT_DATA_TAIL),
	XLAT(FIEMAP_EXTENT_UNWRITTEN), XLAT(FIEMAP_EXTENT_MERGED),
	XLAT(FIEMAP_EXTENT_SHARED), XLAT_END
};

/* [FS_EXTENT_FL|...] for FS_IOC_GETFLAGS and FS_IOC_SETFLAGS. */
static void put_fs_flags(struct dec_ctx *c, unsigned long addr)
{
	unsigned flags;

	if (!addr) {
		dec_puts(c, "NULL");
	} else if (!dec_read(c, addr, &flags, sizeof(flags))) {
		dec_ptr(c, addr);
	} else {
		dec_puts(c, "[");
		dec_flags(c, fs_ioc_flags, flags, "FS_???_FL");
		dec_puts(c, "]");
	}
}

/*
 * FS_IOC_FIEMAP as strace 6.1: what is asked at entry, " => " what the
 * kernel answered at exit (the extents only with -v).  False when the
 * structure could not be read at entry (nothing more to print).
 */
static bool put_fiemap(struct dec_ctx *c, unsigned long addr)
{
	struct fiemap fm;
	struct fiemap_extent fe;
	unsigned long ea;
	unsigned i;

	if (!addr) {
		dec_puts(c, "NULL");
		return false;
	}
	if (!dec_read(c, addr, &fm, sizeof(fm))) {
		dec_ptr(c, addr);
		return false;
	}
	if (!c->exiting) {
		dec_printf(c, "{fm_start=%llu, fm_length=%llu, fm_flags=",
			   (unsigned long long)fm.fm_start,
			   (unsigned long long)fm.fm_length);
		dec_flags(c, fiemap_flags, fm.fm_flags, "FIEMAP_FLAG_???");
		dec_printf(c, ", fm_extent_count=%u}", fm.fm_extent_count);
		return true;
	}
	dec_puts(c, "{fm_flags=");
	dec_flags(c, fiemap_flags, fm.fm_flags, "FIEMAP_FLAG_???");
	dec_printf(c, ", fm_mapped_extents=%u", fm.fm_mapped_extents);
	if (!c->no_abbrev) {
		dec_puts(c, ", ...}");
		return true;
	}
	dec_puts(c, ", fm_extents=");
	ea = addr + offsetof(struct fiemap, fm_extents);
	if (!fm.fm_mapped_extents)
		dec_puts(c, "[]");
	for (i = 0; i < fm.fm_mapped_extents; i++, ea += sizeof(fe)) {
		if (!dec_read(c, ea, &fe, sizeof(fe))) {
			if (!i)
				dec_ptr(c, ea);
			else
				dec_printf(c, ", ... /* %#lx */]", ea);
			break;
		}
		dec_printf(c, "%s{fe_logical=%llu, fe_physical=%llu, "
			   "fe_length=%llu, fe_flags=", i ? ", " : "[",
			   (unsigned long long)fe.fe_logical,
			   (unsigned long long)fe.fe_physical,
			   (unsigned long long)fe.fe_length);
		dec_flags(c, fiemap_extent_flags, fe.fe_flags,
			  "FIEMAP_EXTENT_???");
		dec_puts(c, i + 1 == fm.fm_mapped_extents ? "}]" : "}");
	}
	dec_puts(c, "}");
	return true;
}

static enum ioarg ioarg_of(unsigned req)
{
	size_t i;

	for (i = 0; i < sizeof(ioargs) / sizeof(ioargs[0]); i++)
		if (ioargs[i].req == req)
			return ioargs[i].arg;
	return IA_HEX;
}

bool d_ioctl(struct dec_ctx *c)
{
	unsigned req = (unsigned)A(1);
	enum ioarg how = ioarg_of(req);

	if (!c->exiting) {
		dec_fd(c, (int)A(0));
		dec_sep(c);
		put_request(c, req);
		if (_IOC_TYPE(req) == KVMIO)
			return dec_kvm_ioctl(c, req);
		switch (how) {
		case IA_NONE:
			return true;
		case IA_INTP_OUT:
		case IA_TERMIOS_OUT:
		case IA_WINSIZE_OUT:
		case IA_FSFLAGS_OUT:
			return false;
		default:
			break;
		}
		dec_sep(c);
		switch (how) {
		case IA_FIEMAP:
			return !put_fiemap(c, A(2));
		case IA_FSFLAGS:
			put_fs_flags(c, A(2));
			break;
		case IA_INT:
			dec_int(c, (int)A(2));
			break;
		case IA_PTR:
			dec_ptr(c, A(2));
			break;
		case IA_INTP:
			dec_int_ptr(c, A(2));
			break;
		case IA_TERMIOS:
			put_termios(c, A(2));
			break;
		case IA_WINSIZE:
			put_winsize(c, A(2));
			break;
		case IA_TCFLSH:
			dec_xval(c, tcflsh, A(2), "TC???");
			break;
		case IA_TCXONC:
			dec_xval(c, tcxonc, A(2), "TC???");
			break;
		default:
			dec_hex(c, A(2));
			break;
		}
		return true;
	}
	if (_IOC_TYPE(req) == KVMIO)
		return dec_kvm_ioctl(c, req);
	if (how == IA_FIEMAP) {
		/* strace 6.1 adds nothing when the call failed. */
		if (!dec_failed(c)) {
			dec_puts(c, " => ");
			put_fiemap(c, A(2));
		}
		return true;
	}
	dec_sep(c);
	if (dec_failed(c))
		dec_ptr(c, A(2));
	else if (how == IA_FSFLAGS_OUT)
		put_fs_flags(c, A(2));
	else if (how == IA_TERMIOS_OUT)
		put_termios(c, A(2));
	else if (how == IA_WINSIZE_OUT)
		put_winsize(c, A(2));
	else
		dec_int_ptr(c, A(2));
	return true;
}
