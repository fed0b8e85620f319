// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Files: paths, opening, stat, permissions, links, xattrs, statfs.
 * Each decoder is called at entry and, unless it returned true there,
 * again at exit; the syscall table (syscalls.c) says which decoder a
 * syscall has.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <linux/limits.h>

#include "decode/decoders.h"
#include "decode/xlat.h"

static void put_mode_type(struct dec_ctx *c, unsigned mode)
{
	static const struct xlat types[] = {
		XLAT(S_IFREG), XLAT(S_IFSOCK), XLAT(S_IFIFO), XLAT(S_IFLNK),
		XLAT(S_IFDIR), XLAT(S_IFBLK), XLAT(S_IFCHR), XLAT_END
	};
	const char *t = xlat_name(types, mode & S_IFMT);
	size_t pos = dec_sym_begin(c);

	if (t)
		dec_printf(c, "%s|", t);
	if (mode & S_ISUID)
		dec_puts(c, "S_ISUID|");
	if (mode & S_ISGID)
		dec_puts(c, "S_ISGID|");
	if (mode & S_ISVTX)
		dec_puts(c, "S_ISVTX|");
	dec_printf(c, "%#03o", mode & 0777);
	dec_sym_end(c, pos, mode, DEC_NUM_OCT);
}

static void put_dev(struct dec_ctx *c, unsigned long long dev)
{
	size_t pos = dec_sym_begin(c);

	dec_printf(c, "makedev(%#x, %#x)", major(dev), minor(dev));
	dec_sym_end(c, pos, dev, DEC_NUM_HEX);
}

/* -v: ", st_atime=N (a date comment), st_atime_nsec=N" */
static void put_stat_time(struct dec_ctx *c, const char *name, long long sec,
			  long nsec)
{
	dec_printf(c, ", st_%s=%lld", name, sec);
	dec_time_comment(c, sec, nsec);
	dec_printf(c, ", st_%s_nsec=%lu", name, (unsigned long)nsec);
}

static void dec_stat(struct dec_ctx *c, unsigned long addr)
{
	struct stat st;

	if (!dec_read_out(c, addr, &st, sizeof(st)))
		return;
	dec_puts(c, "{");
	if (c->no_abbrev) {
		dec_puts(c, "st_dev=");
		put_dev(c, st.st_dev);
		dec_printf(c, ", st_ino=%llu, ", (unsigned long long)st.st_ino);
	}
	dec_puts(c, "st_mode=");
	put_mode_type(c, st.st_mode);
	if (c->no_abbrev)
		dec_printf(c, ", st_nlink=%llu, st_uid=%u, st_gid=%u, "
			   "st_blksize=%llu, st_blocks=%llu",
			   (unsigned long long)st.st_nlink, st.st_uid,
			   st.st_gid, (unsigned long long)st.st_blksize,
			   (unsigned long long)st.st_blocks);
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
		dec_puts(c, ", st_rdev=");
		put_dev(c, st.st_rdev);
	} else {
		dec_printf(c, ", st_size=%lld", (long long)st.st_size);
	}
	if (!c->no_abbrev) {
		dec_puts(c, ", ...}");
		return;
	}
	put_stat_time(c, "atime", st.st_atim.tv_sec, st.st_atim.tv_nsec);
	put_stat_time(c, "mtime", st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	put_stat_time(c, "ctime", st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	dec_puts(c, "}");
}

static void put_statx_ts(struct dec_ctx *c, const char *name,
			 const struct statx_timestamp *t)
{
	dec_printf(c, ", %s={tv_sec=%lld, tv_nsec=%u}", name,
		   (long long)t->tv_sec, t->tv_nsec);
	dec_time_comment(c, t->tv_sec, (long)t->tv_nsec);
}

/* -v: every field, those of the mask only where strace shows so. */
static void put_statx_full(struct dec_ctx *c, const struct statx *st)
{
	unsigned m = st->stx_mask;

	dec_puts(c, "{stx_mask=");
	dec_flags(c, xlat_statx_mask, m, "STATX_???");
	dec_printf(c, ", stx_blksize=%u, stx_attributes=", st->stx_blksize);
	dec_flags(c, xlat_statx_attrs, st->stx_attributes, "STATX_ATTR_???");
	if (m & STATX_NLINK)
		dec_printf(c, ", stx_nlink=%u", st->stx_nlink);
	if (m & STATX_UID)
		dec_printf(c, ", stx_uid=%u", st->stx_uid);
	if (m & STATX_GID)
		dec_printf(c, ", stx_gid=%u", st->stx_gid);
	if (m & (STATX_TYPE | STATX_MODE)) {
		dec_puts(c, ", stx_mode=");
		put_mode_type(c, st->stx_mode);
	}
	if (m & STATX_INO)
		dec_printf(c, ", stx_ino=%llu",
			   (unsigned long long)st->stx_ino);
	if (m & STATX_SIZE)
		dec_printf(c, ", stx_size=%llu",
			   (unsigned long long)st->stx_size);
	if (m & STATX_BLOCKS)
		dec_printf(c, ", stx_blocks=%llu",
			   (unsigned long long)st->stx_blocks);
	dec_puts(c, ", stx_attributes_mask=");
	dec_flags(c, xlat_statx_attrs, st->stx_attributes_mask,
		  "STATX_ATTR_???");
	if (m & STATX_ATIME)
		put_statx_ts(c, "stx_atime", &st->stx_atime);
	if (m & STATX_BTIME)
		put_statx_ts(c, "stx_btime", &st->stx_btime);
	if (m & STATX_CTIME)
		put_statx_ts(c, "stx_ctime", &st->stx_ctime);
	if (m & STATX_MTIME)
		put_statx_ts(c, "stx_mtime", &st->stx_mtime);
	dec_printf(c, ", stx_rdev_major=%u, stx_rdev_minor=%u, "
		   "stx_dev_major=%u, stx_dev_minor=%u", st->stx_rdev_major,
		   st->stx_rdev_minor, st->stx_dev_major, st->stx_dev_minor);
	if (m & 0x1000U)	/* STATX_MNT_ID */
		dec_printf(c, ", stx_mnt_id=%#llx",
			   (unsigned long long)st->stx_mnt_id);
	if (m & 0x2000U)	/* STATX_DIOALIGN */
		dec_printf(c, ", stx_dio_mem_align=%u, "
			   "stx_dio_offset_align=%u", st->stx_dio_mem_align,
			   st->stx_dio_offset_align);
	dec_puts(c, "}");
}

static void dec_statx(struct dec_ctx *c, unsigned long addr)
{
	struct statx st;

	if (!dec_read_out(c, addr, &st, sizeof(st)))
		return;
	if (c->no_abbrev) {
		put_statx_full(c, &st);
		return;
	}
	dec_puts(c, "{stx_mask=");
	dec_flags(c, xlat_statx_mask, st.stx_mask, NULL);
	dec_puts(c, ", stx_attributes=");
	dec_flags(c, xlat_statx_attrs, st.stx_attributes, NULL);
	dec_puts(c, ", stx_mode=");
	put_mode_type(c, st.stx_mode);
	dec_printf(c, ", stx_size=%llu, ...}", (unsigned long long)st.stx_size);
}

static void open_flags_abbrev(struct dec_ctx *c, unsigned long flags)
{
	const char *acc = xlat_name(xlat_open_access, flags & O_ACCMODE);

	if (acc) {
		dec_puts(c, acc);
		flags &= ~(unsigned long)O_ACCMODE;
		if (!flags)
			return;
		dec_puts(c, "|");
	}
	dec_flags(c, xlat_open_flags, flags, NULL);
}

void put_open_flags(struct dec_ctx *c, unsigned long flags)
{
	size_t pos = dec_sym_begin(c);

	open_flags_abbrev(c, flags);
	dec_sym_end(c, pos, flags, DEC_NUM_HEX);
}

static void open_tail(struct dec_ctx *c, unsigned long flags,
		      unsigned long mode)
{
	put_open_flags(c, flags);
	if (flags & (O_CREAT | 020000000)) {
		SEP();
		dec_mode(c, (unsigned)mode);
	}
}

/*
 * open, openat: the file (a path, or a directory descriptor and a path:
 * the table's kinds say), the flags, the mode when O_CREAT or O_TMPFILE
 * asks for one.
 */
bool d_open(struct dec_ctx *c)
{
	int i = dec_kind_index(c, 'X');

	dec_args(c, 0, i);
	SEP();
	open_tail(c, A(i), A(i + 1));
	c->rval = RV_FD;
	return true;
}

bool d_openat2(struct dec_ctx *c)
{
	struct {
		uint64_t flags, mode, resolve;
	} how;

	dec_dirfd(c, IA(0));
	SEP();
	dec_path(c, A(1));
	SEP();
	if (dec_read(c, A(2), &how, sizeof(how))) {
		dec_puts(c, "{flags=");
		put_open_flags(c, how.flags);
		dec_printf(c, ", mode=%#03llo, resolve=%#llx}",
			   (unsigned long long)how.mode,
			   (unsigned long long)how.resolve);
	} else {
		dec_ptr(c, A(2));
	}
	SEP();
	dec_ulong(c, A(3));
	c->rval = RV_FD;
	return true;
}

bool d_creat(struct dec_ctx *c)
{
	dec_path(c, A(0));
	SEP();
	dec_mode(c, (unsigned)A(1));
	c->rval = RV_FD;
	return true;
}

/*
 * stat, lstat, fstat, newfstatat: the file as the kinds say, the stat
 * buffer (the pointer) at exit, newfstatat's flags after it.
 */
bool d_stat(struct dec_ctx *c)
{
	int i = dec_kind_index(c, 'p');

	if (!c->exiting) {
		dec_args(c, 0, i);
		SEP();
		return false;
	}
	dec_stat(c, A(i));
	if (i + 1 < sys_nargs(c->nr)) {
		SEP();
		dec_flags(c, xlat_at_flags, A(i + 1), NULL);
	}
	return true;
}

bool d_statx(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_dirfd(c, IA(0));
		SEP();
		dec_path(c, A(1));
		SEP();
		if ((A(2) & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_AS_STAT) {
			size_t pos = dec_sym_begin(c);

			/* strace -X raw prints "|0x900" here: nothing for 0. */
			if (c->xlat_style != DEC_XLAT_RAW || !A(2))
				dec_puts(c, "AT_STATX_SYNC_AS_STAT");
			dec_sym_end(c, pos, AT_STATX_SYNC_AS_STAT, DEC_NUM_HEX);
			if (c->xlat_style == DEC_XLAT_RAW && A(2))
				c->out->len = pos;
			if (A(2))
				dec_puts(c, "|");
		}
		if (A(2))
			dec_flags(c, xlat_statx_flags, A(2), NULL);
		SEP();
		dec_flags(c, xlat_statx_mask, A(3), NULL);
		SEP();
		return false;
	}
	dec_statx(c, A(4));
	return true;
}

static void put_access_mode(struct dec_ctx *c, unsigned long m)
{
	size_t pos = dec_sym_begin(c);

	if (!m)
		dec_puts(c, "F_OK");
	else
		dec_flags(c, xlat_access_modes, m, NULL);
	dec_sym_end(c, pos, m, DEC_NUM_HEX);
}

/* access, faccessat, faccessat2: the file, the mode (faccessat2's flags). */
bool d_access(struct dec_ctx *c)
{
	int i = dec_kind_index(c, 'X');

	dec_args(c, 0, i);
	SEP();
	put_access_mode(c, A(i));
	return true;
}

bool d_faccessat2(struct dec_ctx *c)
{
	d_access(c);
	SEP();
	dec_flags(c, xlat_faccessat_flags, A(3), "AT_???");
	return true;
}

void put_out_str(struct dec_ctx *c, unsigned long addr, long len)
{
	if (failed(c) || len < 0)
		dec_ptr(c, addr);
	else
		dec_buf(c, addr, (unsigned long)len);
}

/* readlink, readlinkat: the link, then at exit what it holds and the size. */
bool d_readlink(struct dec_ctx *c)
{
	int i = dec_kind_index(c, 'p');

	if (!c->exiting) {
		dec_args(c, 0, i);
		SEP();
		return false;
	}
	put_out_str(c, A(i), c->ret);
	SEP();
	dec_ulong(c, A(i + 1));
	return true;
}

/*
 * As strace's printpathn(): a name of at most n bytes, up to its NUL
 * (looked for in n + 1 bytes); "..." when it is longer.
 */
static void put_name(struct dec_ctx *c, const unsigned char *p, long n)
{
	const unsigned char *nul;

	if (n < 0)
		n = 0;
	nul = memchr(p, '\0', (size_t)n + 1);
	dec_quote(c->out, c->hexstr, p, nul ? (size_t)(nul - p) : (size_t)n, 0);
	if (!nul)
		dec_puts(c, "...");
}

static const struct xlat dirent_types[] = {
	XLAT_PAIR(0, "DT_UNKNOWN"), XLAT_PAIR(1, "DT_FIFO"),
	XLAT_PAIR(2, "DT_CHR"), XLAT_PAIR(4, "DT_DIR"), XLAT_PAIR(6, "DT_BLK"),
	XLAT_PAIR(8, "DT_REG"), XLAT_PAIR(10, "DT_LNK"),
	XLAT_PAIR(12, "DT_SOCK"), XLAT_PAIR(14, "DT_WHT"), XLAT_END
};

/*
 * -v: the entries, as strace: {d_ino, d_off, d_reclen, d_type, d_name} for
 * getdents64 (whose d_type comes before the name), d_name then d_type
 * (the record's last byte) for getdents.
 */
static void put_dents(struct dec_ctx *c, const unsigned char *buf, long len,
		      bool is64)
{
	const long head = is64 ? 19 : 18;
	long off = 0, count = 0;

	while (len - off >= head) {
		unsigned long long ino, doff;
		unsigned short reclen;
		long rec, name_len;
		const unsigned char *e = buf + off;

		if (is64) {
			memcpy(&ino, e, 8);
			memcpy(&doff, e + 8, 8);
		} else {
			unsigned long l;

			memcpy(&l, e, 8);
			ino = l;
			memcpy(&l, e + 8, 8);
			doff = l;
		}
		memcpy(&reclen, e + 16, 2);
		dec_printf(c, "%s{d_ino=%llu, d_off=%llu, d_reclen=%u",
			   count++ ? "" : "[", ino, doff, reclen);
		rec = reclen;
		if (rec > len - off) {
			dec_printf(c, " /* d_reclen %ld bytes overflow */",
				   rec - (len - off));
			rec = len - off;
		} else if (rec < head) {
			dec_printf(c, " /* d_reclen %ld bytes underflow */",
				   head - rec);
			rec = head;
		}
		name_len = rec - head;
		if (is64) {
			dec_puts(c, ", d_type=");
			dec_xval(c, dirent_types, e[18], "DT_???");
			if (name_len) {
				if (name_len > 256)
					name_len = 256;
				dec_puts(c, ", d_name=");
				put_name(c, e + head, name_len - 1);
			}
		} else if (name_len) {
			if (name_len - 1 > 0) {
				long n = name_len - 1 > 256 ? 256 :
					 name_len - 1;

				dec_puts(c, ", d_name=");
				put_name(c, e + head, n - 1);
			}
			dec_puts(c, ", d_type=");
			dec_xval(c, dirent_types, e[rec - 1], "DT_???");
		}
		dec_puts(c, "}");
		off += rec;
		if (off >= len)
			break;
		dec_puts(c, ", ");
	}
	if (len - off > 0 && len - off < head) {
		if (!count)
			dec_puts(c, "[");
		dec_quote(c->out, c->hexstr, buf + off, (size_t)(len - off), 0);
		count++;
	} else if (!len) {
		dec_puts(c, "[");
		count++;
	}
	if (count)
		dec_puts(c, "]");
}

bool d_getdents(struct dec_ctx *c)
{
	if (!c->exiting) {
		dec_fd(c, IA(0));
		SEP();
		return false;
	}
	if (c->no_abbrev && !failed(c) &&
	    (unsigned long)c->ret <= (unsigned)A(2)) {
		unsigned char *buf = malloc((size_t)c->ret + 1);

		if (buf && dec_read(c, A(1), buf, (size_t)c->ret))
			put_dents(c, buf, c->ret,
				  c->nr == sys_number("getdents64"));
		else
			dec_ptr(c, A(1));
		free(buf);
		SEP();
		dec_uint(c, (unsigned)A(2));
		return true;
	}
	dec_ptr(c, A(1));
	if (!failed(c) && !c->hide_structs) {
		unsigned char *buf = malloc((size_t)c->ret + 1);
		long off = 0, n = 0;

		if (buf && dec_read(c, A(1), buf, (size_t)c->ret)) {
			while (off + 18 < c->ret) {
				unsigned short reclen;

				memcpy(&reclen, buf + off + 16, sizeof(reclen));
				if (!reclen)
					break;
				off += reclen;
				n++;
			}
		}
		free(buf);
		dec_printf(c, " /* %ld entries */", n);
	}
	SEP();
	dec_ulong(c, A(2));
	return true;
}

bool d_getcwd(struct dec_ctx *c)
{
	if (!c->exiting)
		return false;
	if (failed(c))
		dec_ptr(c, A(0));
	else
		dec_path(c, A(0));
	SEP();
	dec_ulong(c, A(1));
	return true;
}

/* mknod, mknodat: the file, its type and mode, the device for a device. */
bool d_mknod(struct dec_ctx *c)
{
	int i = dec_kind_index(c, 'o');
	unsigned mode = (unsigned)A(i);

	dec_args(c, 0, i);
	SEP();
	put_mode_type(c, mode);
	if (S_ISCHR(mode) || S_ISBLK(mode)) {
		SEP();
		put_dev(c, A(i + 1));
	}
	return true;
}

/*
 * unlinkat, linkat, fchownat: the arguments by their kinds, the last one
 * AT_* flags.
 */
bool d_at_flags(struct dec_ctx *c)
{
	int n = sys_nargs(c->nr);

	dec_args(c, 0, n - 1);
	SEP();
	dec_flags(c, xlat_at_flags, A(n - 1), NULL);
	return true;
}

bool d_renameat2(struct dec_ctx *c)
{
	dec_args(c, 0, 4);
	SEP();
	dec_flags(c, xlat_rename_flags, A(4), NULL);
	return true;
}

/*
 * symlink, symlinkat: the target is printed as a path, but is not one
 * that -P matches (its kind is a string); then the link.
 */
bool d_symlink(struct dec_ctx *c)
{
	dec_path(c, A(0));
	SEP();
	dec_args(c, 1, sys_nargs(c->nr));
	return true;
}

bool d_umask(struct dec_ctx *c)
{
	dec_mode(c, (unsigned)A(0));
	c->rval = RV_OCT;
	return true;
}

/*
 * An xattr's value of len bytes, as strace's print_xattr_val(): without
 * a NUL that ends it; the address when len < 0 (failed, no room asked) or
 * past XATTR_SIZE_MAX.
 */
static void put_xattr_value(struct dec_ctx *c, unsigned long addr, long len)
{
	if (addr && (len < 0 || len > XATTR_SIZE_MAX))
		dec_ptr(c, addr);
	else
		dec_buf_ex(c, addr, (unsigned long)len, QUOTE_OMIT_TRAILING_0);
}

/* getxattr, lgetxattr, fgetxattr: the file, the name, then the value. */
bool d_getxattr(struct dec_ctx *c)
{
	int i = dec_kind_index(c, 'c');

	if (!c->exiting) {
		dec_args(c, 0, i + 1);
		SEP();
		return false;
	}
	put_xattr_value(c, A(i + 1), A(i + 2) && !failed(c) ? c->ret : -1);
	SEP();
	dec_ulong(c, A(i + 2));
	return true;
}

/* setxattr, lsetxattr, fsetxattr: the file, name, value, size, flags. */
bool d_setxattr(struct dec_ctx *c)
{
	static const struct xlat xattr_flags[] = {
		XLAT_PAIR(1, "XATTR_CREATE"), XLAT_PAIR(2, "XATTR_REPLACE"),
		XLAT_END
	};
	int i = dec_kind_index(c, 'c');

	dec_args(c, 0, i + 1);
	SEP();
	put_xattr_value(c, A(i + 1), (long)A(i + 2));
	SEP();
	dec_ulong(c, A(i + 2));
	SEP();
	dec_flags(c, xattr_flags, (unsigned)A(i + 3), "XATTR_???");
	return true;
}

/*
 * listxattr, llistxattr, flistxattr: the file, then the names (each with
 * its NUL) as strace's print_xattr_list().
 */
bool d_listxattr(struct dec_ctx *c)
{
	int i = dec_kind_index(c, 'p');

	if (!c->exiting) {
		dec_args(c, 0, i);
		SEP();
		return false;
	}
	if (!A(i + 1) || failed(c))
		dec_ptr(c, A(i));
	else
		dec_buf(c, A(i), (unsigned long)c->ret);
	SEP();
	dec_ulong(c, A(i + 1));
	return true;
}

bool d_utimensat(struct dec_ctx *c)
{
	struct timespec ts[2];

	dec_args(c, 0, 2);
	SEP();
	if (!A(2)) {
		dec_puts(c, "NULL");
	} else if (dec_read(c, A(2), ts, sizeof(ts))) {
		int i;

		dec_puts(c, "[");
		for (i = 0; i < 2; i++) {
			if (i)
				dec_puts(c, ", ");
			if (ts[i].tv_nsec == UTIME_NOW)
				dec_puts(c, "UTIME_NOW");
			else if (ts[i].tv_nsec == UTIME_OMIT)
				dec_puts(c, "UTIME_OMIT");
			else {
				dec_printf(c, "{tv_sec=%lld, tv_nsec=%ld}",
					   (long long)ts[i].tv_sec,
					   ts[i].tv_nsec);
				dec_time_comment(c, (long long)ts[i].tv_sec,
						 ts[i].tv_nsec);
			}
		}
		dec_puts(c, "]");
	} else {
		dec_ptr(c, A(2));
	}
	SEP();
	dec_flags(c, xlat_at_flags, A(3), NULL);
	return true;
}

/* statfs, fstatfs: the file, then at exit the structure. */
bool d_statfs(struct dec_ctx *c)
{
	int i = dec_kind_index(c, 'p');
	unsigned long addr = A(i);
	struct statfs sf;
	const char *fs;

	if (!c->exiting) {
		dec_args(c, 0, i);
		SEP();
		return false;
	}
	if (!dec_read_out(c, addr, &sf, sizeof(sf)))
		return true;
	fs = xlat_name(xlat_fsmagic, (unsigned long)sf.f_type);
	if (fs)
		dec_printf(c, "{f_type=%s", fs);
	else
		dec_printf(c, "{f_type=%#lx", (unsigned long)sf.f_type);
	dec_printf(c, ", f_bsize=%ld, f_blocks=%lu, f_bfree=%lu, "
		   "f_bavail=%lu, f_files=%lu, f_ffree=%lu, "
		   "f_fsid={val=[%#x, %#x]}, f_namelen=%ld, f_frsize=%ld, "
		   "f_flags=",
		   (long)sf.f_bsize,
		   (unsigned long)sf.f_blocks, (unsigned long)sf.f_bfree,
		   (unsigned long)sf.f_bavail, (unsigned long)sf.f_files,
		   (unsigned long)sf.f_ffree, (unsigned)sf.f_fsid.__val[0],
		   (unsigned)sf.f_fsid.__val[1], (long)sf.f_namelen,
		   (long)sf.f_frsize);
	dec_flags(c, xlat_statfs_flags, (unsigned long)sf.f_flags, "ST_???");
	dec_puts(c, "}");
	return true;
}

