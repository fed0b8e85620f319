// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The capture rules of each syscall (capture.h): what its decoder reads,
 * in the decoders' own terms.
 *
 * A syscall printed by its argument kinds (no decoder in the syscall
 * table) reads what its kinds say, at its entry: a path ('s', dec_path:
 * PATH_MAX + 1 bytes at most), a string ('c', dec_cstr: -s + 1 bytes), a
 * struct timespec ('T'); the others read nothing.  A syscall with a
 * decoder has the rules of its row below, written with the helpers its
 * decoder calls (PATH for dec_path, OUTBUF for dec_buf of the result,
 * STRUCT for dec_read of a structure ...), or none: then it takes the
 * stop path.  test/unit/capture runs every decoder of a row against
 * memory that answers only inside its rules (and the CLI says so when a
 * read falls outside them: a bug here).
 *
 * A rule's length may depend on how the syscall is printed: -s (a
 * buffer's bytes, a string's), and a row may hold only without -v (whose
 * entries and arrays are read whole) or without -e read=/write= (whose
 * dumps read whole buffers).  A structure is read only when -e verbose=
 * lets it be (STRUCT); other memory always (MEM, the strings and
 * buffers).
 */
#include <limits.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <fcntl.h>

#include "decode/capture.h"
#include "decode/decode.h"

/* Lengths that depend on how the syscall is printed. */
enum {
	L_PATH = -1,		/* dec_path: PATH_MAX + 1 */
	L_STR = -2,		/* dec_buf: -s bytes */
	L_STR1 = -3,		/* dec_cstr: -s + 1 bytes */
	L_LIMIT = -4,		/* a whole buffer: as much as a rule takes */
};

/* A rule of the table. */
struct trule {
	unsigned char arg, when, kind, len_arg;
	unsigned char flags;	/* T_* */
	int len;		/* bytes, or L_* */
};

#define T_STRUCT	0x1	/* dec_read: not with -e verbose= without it */
#define T_WHOLE		0x2	/* all of it or no record (dcap.whole) */

/* A row: whether it has rules (R_SET), when they do not hold, the rules. */
struct trow {
	unsigned char flags;
	struct trule r[DCAP_MAX];
};

#define R_SET		0x1	/* a row of the table */
#define R_NOT_V		0x2	/* -v (no_abbrev) reads more: no rules */
#define R_NOT_DUMPS	0x4	/* -e read=/write= read more: no rules */

#define E	DCAP_ENTRY
#define X	DCAP_EXIT
#define EX	(DCAP_ENTRY | DCAP_EXIT)

/* dec_path of argument a (at entry, or at exit for getcwd). */
#define PATH(w, a)	{ a, w, DCAP_STRING, 0, 0, L_PATH }
/* dec_cstr of argument a, at entry. */
#define CSTR(a)		{ a, E, DCAP_STRING, 0, 0, L_STR1 }
/* dec_buf of argument a, argument la bytes long, at entry. */
#define BUF(a, la)	{ a, E, DCAP_ARGLEN, la, 0, L_STR }
/* dec_buf of argument a, as long as the result, at exit. */
#define OUTBUF(a)	{ a, X, DCAP_RETLEN, 0, 0, L_STR }
/* dec_read of n bytes (a structure) at argument a. */
#define STRUCT(w, a, n)	{ a, w, DCAP_FIXED, 0, T_STRUCT, (int)(n) }
/* dec_read of the result's bytes at argument a, at most n, at exit. */
#define OUTSTRUCT(a, n)	{ a, X, DCAP_RETLEN, 0, T_STRUCT, (int)(n) }
/* dec_read of argument la's bytes at argument a, at most n, at entry. */
#define INSTRUCT(a, la, n) { a, E, DCAP_ARGLEN, la, T_STRUCT, (int)(n) }
/*
 * dec_read of all the result's bytes at argument a, at exit: no record
 * unless argument bound (the buffer's size) fits in a rule.
 */
#define OUTALL(a, bound) { a, X, DCAP_RETLEN, bound, T_STRUCT | T_WHOLE, \
			   L_LIMIT }

#define ROW(fl, ...)	{ R_SET | (fl), { __VA_ARGS__ } }
#define NONE		{ R_SET, { { 0 } } }

/*
 * The rows of the syscalls with decoders (and of the few without whose
 * kinds do not say all: none yet).  A decoder missing here takes the stop
 * path.
 */
static const struct trow rows[NR_SYSENT] = {
	/* descriptors and data */
	[SYS_read] = ROW(R_NOT_DUMPS, OUTBUF(1)),
	[SYS_pread64] = ROW(R_NOT_DUMPS, OUTBUF(1)),
	[SYS_write] = ROW(R_NOT_DUMPS, BUF(1, 2)),
	[SYS_pwrite64] = ROW(R_NOT_DUMPS, BUF(1, 2)),
	[SYS_lseek] = NONE,
	[SYS_dup] = NONE,
	[SYS_dup2] = NONE,
	[SYS_dup3] = NONE,
	[SYS_pipe] = ROW(0, STRUCT(X, 0, 2 * sizeof(int))),
	[SYS_pipe2] = ROW(0, STRUCT(X, 0, 2 * sizeof(int))),
	/* put_flock (F_[OFD_]GETLK at exit, the SETLKs at entry), put_owner_ex */
	[SYS_fcntl] = ROW(0, STRUCT(EX, 2, sizeof(struct flock))),
	[SYS_flock] = NONE,
	[SYS_fadvise64] = NONE,
	[SYS_fallocate] = NONE,
	[SYS_copy_file_range] = NONE,
	[SYS_close_range] = NONE,
	[SYS_eventfd2] = NONE,
	[SYS_epoll_create1] = NONE,
	[SYS_inotify_init1] = NONE,
	[SYS_inotify_add_watch] = ROW(0, PATH(E, 1)),
	[SYS_inotify_rm_watch] = NONE,
	[SYS_memfd_create] = ROW(0, CSTR(0)),
	[SYS_timerfd_create] = NONE,
	/* files */
	[SYS_open] = ROW(0, PATH(E, 0)),
	[SYS_openat] = ROW(0, PATH(E, 1)),
	[SYS_creat] = ROW(0, PATH(E, 0)),
	[SYS_stat] = ROW(0, PATH(E, 0), STRUCT(X, 1, sizeof(struct stat))),
	[SYS_lstat] = ROW(0, PATH(E, 0), STRUCT(X, 1, sizeof(struct stat))),
	[SYS_fstat] = ROW(0, STRUCT(X, 1, sizeof(struct stat))),
	[SYS_newfstatat] = ROW(0, PATH(E, 1),
			       STRUCT(X, 2, sizeof(struct stat))),
	[SYS_statx] = ROW(0, PATH(E, 1), STRUCT(X, 4, sizeof(struct statx))),
	[SYS_statfs] = ROW(0, PATH(E, 0), STRUCT(X, 1, sizeof(struct statfs))),
	[SYS_fstatfs] = ROW(0, STRUCT(X, 1, sizeof(struct statfs))),
	[SYS_access] = ROW(0, PATH(E, 0)),
	[SYS_faccessat] = ROW(0, PATH(E, 1)),
	[SYS_faccessat2] = ROW(0, PATH(E, 1)),
	[SYS_readlink] = ROW(0, PATH(E, 0), OUTBUF(1)),
	[SYS_readlinkat] = ROW(0, PATH(E, 1), OUTBUF(2)),
	[SYS_getcwd] = ROW(0, PATH(X, 0)),
	/* every entry, counted or printed, to the end of the result */
	[SYS_getdents] = ROW(0, OUTALL(1, 2)),
	[SYS_getdents64] = ROW(0, OUTALL(1, 2)),
	[SYS_umask] = NONE,
	[SYS_mknod] = ROW(0, PATH(E, 0)),
	[SYS_mknodat] = ROW(0, PATH(E, 1)),
	[SYS_symlink] = ROW(0, PATH(E, 0), PATH(E, 1)),
	[SYS_symlinkat] = ROW(0, PATH(E, 0), PATH(E, 2)),
	[SYS_fchownat] = ROW(0, PATH(E, 1)),
	[SYS_unlinkat] = ROW(0, PATH(E, 1)),
	[SYS_linkat] = ROW(0, PATH(E, 1), PATH(E, 3)),
	[SYS_renameat2] = ROW(0, PATH(E, 1), PATH(E, 3)),
	[SYS_utimensat] = ROW(0, PATH(E, 1),
			      STRUCT(E, 2, 2 * sizeof(struct timespec))),
	/* memory */
	[SYS_mmap] = NONE,
	[SYS_mprotect] = NONE,
	[SYS_munmap] = NONE,
	[SYS_brk] = NONE,
	[SYS_mremap] = NONE,
	[SYS_madvise] = NONE,
	[SYS_msync] = NONE,
	[SYS_mlock] = NONE,
	[SYS_munlock] = NONE,
	[SYS_mlockall] = NONE,
	[SYS_pkey_alloc] = NONE,
	[SYS_pkey_mprotect] = NONE,
	[SYS_process_madvise] = NONE,
	/* processes */
	[SYS_set_robust_list] = NONE,
	[SYS_set_tid_address] = NONE,
	[SYS_rseq] = NONE,
	[SYS_prlimit64] = ROW(0, STRUCT(E, 2, 2 * sizeof(uint64_t)),
			      STRUCT(X, 3, 2 * sizeof(uint64_t))),
	[SYS_getrlimit] = ROW(0, STRUCT(X, 1, 2 * sizeof(uint64_t))),
	[SYS_setrlimit] = ROW(0, STRUCT(E, 1, 2 * sizeof(uint64_t))),
	[SYS_getrusage] = ROW(0, STRUCT(X, 1, sizeof(struct rusage))),
	[SYS_times] = ROW(0, STRUCT(X, 0, sizeof(struct tms))),
	[SYS_wait4] = ROW(0, STRUCT(X, 1, sizeof(int)),
			  STRUCT(X, 3, sizeof(struct rusage))),
	[SYS_getresuid] = ROW(0, STRUCT(X, 0, sizeof(int)),
			      STRUCT(X, 1, sizeof(int)),
			      STRUCT(X, 2, sizeof(int))),
	[SYS_getresgid] = ROW(0, STRUCT(X, 0, sizeof(int)),
			      STRUCT(X, 1, sizeof(int)),
			      STRUCT(X, 2, sizeof(int))),
	[SYS_get_robust_list] = ROW(0, STRUCT(X, 1, sizeof(long)),
				    STRUCT(X, 2, sizeof(long))),
	[SYS_personality] = NONE,
	[SYS_getpriority] = NONE,
	[SYS_setpriority] = NONE,
	[SYS_unshare] = NONE,
	[SYS_ioprio_get] = NONE,
	[SYS_ioprio_set] = NONE,
	[SYS_setns] = NONE,
	[SYS_kcmp] = NONE,
	[SYS_membarrier] = NONE,
	[SYS_kill] = NONE,
	[SYS_tkill] = NONE,
	[SYS_tgkill] = NONE,
	[SYS_exit] = NONE,
	[SYS_exit_group] = NONE,
	[SYS_restart_syscall] = NONE,
	/* scheduling */
	[SYS_sched_getaffinity] = ROW(0, OUTSTRUCT(2, 128 * sizeof(long))),
	[SYS_sched_setaffinity] = ROW(0, INSTRUCT(2, 1, 128 * sizeof(long))),
	[SYS_sched_getparam] = ROW(0, STRUCT(X, 1, sizeof(int))),
	[SYS_sched_setparam] = ROW(0, STRUCT(E, 1, sizeof(int))),
	[SYS_sched_setscheduler] = ROW(0, STRUCT(E, 2, sizeof(int))),
	[SYS_sched_getscheduler] = NONE,
	[SYS_sched_get_priority_max] = NONE,
	[SYS_sched_get_priority_min] = NONE,
	[SYS_sched_rr_get_interval] = ROW(0, STRUCT(X, 1,
						    sizeof(struct timespec))),
	[SYS_getcpu] = ROW(0, STRUCT(X, 0, sizeof(unsigned)),
			   STRUCT(X, 1, sizeof(unsigned))),
	/* time */
	[SYS_nanosleep] = ROW(0, STRUCT(E, 0, sizeof(struct timespec)),
			      STRUCT(X, 1, sizeof(struct timespec))),
	[SYS_clock_nanosleep] = ROW(0, STRUCT(E, 2, sizeof(struct timespec)),
				    STRUCT(X, 3, sizeof(struct timespec))),
	[SYS_clock_gettime] = ROW(0, STRUCT(X, 1, sizeof(struct timespec))),
	[SYS_clock_getres] = ROW(0, STRUCT(X, 1, sizeof(struct timespec))),
	[SYS_gettimeofday] = ROW(0, STRUCT(X, 0, sizeof(struct timeval))),
	[SYS_time] = ROW(0, STRUCT(X, 0, sizeof(long))),
	[SYS_getitimer] = ROW(0, STRUCT(X, 1, sizeof(struct itimerval))),
	[SYS_setitimer] = ROW(0, STRUCT(E, 1, sizeof(struct itimerval)),
			      STRUCT(X, 2, sizeof(struct itimerval))),
	[SYS_alarm] = NONE,
	/* FUTEX_WAIT and the like: their timeout at entry */
	[SYS_futex] = ROW(0, STRUCT(E, 3, sizeof(struct timespec))),
	/* signals (rt_sigaction, rt_sigprocmask: the stop path always) */
	[SYS_sigaltstack] = ROW(0, STRUCT(E, 0, sizeof(stack_t)),
				STRUCT(X, 1, sizeof(stack_t))),
	[SYS_rt_sigpending] = ROW(0, STRUCT(X, 0, 2 * sizeof(uint64_t))),
	[SYS_rt_sigsuspend] = ROW(0, STRUCT(E, 0, 2 * sizeof(uint64_t))),
	[SYS_signalfd] = ROW(0, STRUCT(E, 1, 2 * sizeof(uint64_t))),
	[SYS_signalfd4] = ROW(0, STRUCT(E, 1, 2 * sizeof(uint64_t))),
	/* the system */
	[SYS_uname] = ROW(0, STRUCT(X, 0, sizeof(struct utsname))),
	[SYS_sysinfo] = ROW(0, STRUCT(X, 0, sizeof(struct sysinfo))),
	[SYS_getrandom] = ROW(0, OUTBUF(0)),
	[SYS_socket] = NONE,
};

/* A rule's length as how prints the syscall; 0: it has none to take. */
static size_t rule_len(const struct trule *t, const struct dcap_how *how)
{
	switch (t->len) {
	case L_PATH:
		return PATH_MAX + 1;
	case L_STR:
		return (size_t)how->strsize;
	case L_STR1:
		return (size_t)how->strsize + 1;
	case L_LIMIT:
		return how->limit;
	}
	return (size_t)t->len;
}

/* Rules from a row; -1 when one cannot be kept as it must be. */
static int from_row(const struct trow *row, const struct dcap_how *how,
		    struct dcap *out)
{
	int n = 0;

	if ((row->flags & R_NOT_V) && how->no_abbrev)
		return -1;
	if ((row->flags & R_NOT_DUMPS) && how->dumps)
		return -1;
	for (int i = 0; i < DCAP_MAX && row->r[i].when; i++) {
		const struct trule *t = &row->r[i];
		size_t len = rule_len(t, how);

		if ((t->flags & T_STRUCT) && how->hide_structs)
			continue;
		if ((t->flags & T_WHOLE) && !how->whole)
			return -1;
		if (len > how->limit)
			return -1;
		if (!len)
			continue;	/* -s 0: nothing of it is read */
		out[n].arg = t->arg;
		out[n].when = t->when;
		out[n].kind = t->kind;
		out[n].len_arg = t->len_arg;
		out[n].whole = t->flags & T_WHOLE;
		out[n].len = len;
		n++;
	}
	return n;
}

/* A syscall printed by its kinds: what dec_arg reads of each, at entry. */
static int from_kinds(long nr, const struct dcap_how *how, struct dcap *out)
{
	const char *k = sys_args(nr);
	int n = 0;

	for (int i = 0; k && k[i] && k[i] != '>' && i < 6; i++) {
		struct dcap r = { .arg = (unsigned char)i, .when = DCAP_ENTRY,
				  .kind = DCAP_STRING };

		switch (k[i]) {
		case 's':
			r.len = PATH_MAX + 1;
			break;
		case 'c':
			r.len = (size_t)how->strsize + 1;
			break;
		case 'T':
			if (how->hide_structs)
				continue;
			r.kind = DCAP_FIXED;
			r.len = sizeof(struct timespec);
			break;
		default:
			continue;
		}
		if (n == DCAP_MAX || r.len > how->limit)
			return -1;
		out[n++] = r;
	}
	return n;
}

int dec_capture(long nr, const struct dcap_how *how, struct dcap *out)
{
	const struct sysent *s = sys_ent(nr);

	if (!s)
		return nr >= 0 && nr < NR_MAX ? 0 : -1;	/* printed raw */
	if (how->raw)
		return 0;
	if (rows[nr].flags & R_SET)
		return from_row(&rows[nr], how, out);
	if (s->decode)
		return -1;
	return from_kinds(nr, how, out);
}

/* The bytes rule r takes for this call, at this moment (0: none). */
static size_t window(const struct dcap *r, const unsigned long *a, long ret,
		     bool exiting)
{
	size_t n;

	if (!(r->when & (exiting ? DCAP_EXIT : DCAP_ENTRY)))
		return 0;
	switch (r->kind) {
	case DCAP_ARGLEN:
		n = a[r->len_arg];
		break;
	case DCAP_RETLEN:
		if (!exiting || ret <= 0)
			return 0;
		n = (size_t)ret;
		break;
	default:
		return r->len;
	}
	return n < r->len ? n : r->len;
}

bool dec_capture_covers(const struct dcap *r, int n, const unsigned long *a,
			long ret, bool exiting, uint64_t addr, size_t len)
{
	if (!len)
		return true;	/* a record answers 0 bytes as a stop does */
	for (int i = 0; i < n; i++) {
		uint64_t start = a[r[i].arg];
		size_t w = window(&r[i], a, ret, exiting);

		if (w && addr >= start && addr - start <= w &&
		    len <= w - (addr - start))
			return true;
	}
	return false;
}

unsigned dec_state_change(long nr)
{
	switch (nr) {
	case SYS_close: case SYS_close_range: case SYS_dup2: case SYS_dup3:
	case SYS_rename: case SYS_renameat: case SYS_renameat2:
	case SYS_unlink: case SYS_unlinkat: case SYS_rmdir:
	case SYS_chdir: case SYS_fchdir: case SYS_chroot:
	case SYS_mount: case SYS_umount2: case SYS_move_mount:
	case SYS_pivot_root:
		return DSTATE_FDS;
	case SYS_connect: case SYS_bind: case SYS_listen: case SYS_shutdown:
	case SYS_sendto: case SYS_sendmsg: case SYS_sendmmsg:
		return DSTATE_SOCKETS;
	}
	return 0;
}
