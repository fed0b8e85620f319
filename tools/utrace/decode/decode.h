/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The argument decoder: given a syscall's number, arguments, return value
 * and a way to read the tracee's memory, produce strace's text.  It knows
 * nothing about engines; the printer and the JSON writer both drive it.
 */
#ifndef UT_DECODE_H
#define UT_DECODE_H

#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <sys/types.h>

#include "util/sbuf.h"

struct xlat {
	unsigned long long val;
	const char *name;
};
#define XLAT(x)		{ (unsigned long long)(x), #x }
#define XLAT_PAIR(v, s)	{ (unsigned long long)(v), s }
#define XLAT_END	{ 0, NULL }

typedef ssize_t (*mem_read_fn)(void *ctx, uint64_t addr, void *buf,
			       size_t len);

/* How the return value is shown. */
enum rval_fmt {
	RV_DEC,		/* signed decimal (default) */
	RV_HEX,		/* 0x... (mmap, brk) */
	RV_OCT,		/* 0... (umask) */
	RV_FD,		/* a file descriptor: -y adds <path> */
	RV_UDEC,	/* unsigned decimal */
	RV_NONE,	/* "?" : syscall does not return (exit) */
	RV_PID,		/* a thread or process id: -Y adds <comm> */
};

/* What follows a pid (dec_pid, RV_PID) with -Y, --pidns-translation. */
enum {
	DEC_PID_COMM	= 1 << 0,	/* 1234<sh> */
	DEC_PID_NS	= 1 << 1,	/* 12 /\* 1234 in utrace's PID NS *\/ */
};

#define DEC_MAX_ARGS	8

struct dec_ctx {
	pid_t tid;
	long nr;
	unsigned long a[6];
	long ret;		/* valid when exiting */
	bool exiting;
	/* restart_syscall: the name of the call it resumes (NULL: unknown). */
	const char *interrupted;
	int strsize;		/* -s */
	unsigned decode_fds;	/* -y, -yy: DF_* */
	struct sock_cache *sockets;	/* -yy: socket details found so far */
	bool no_abbrev;		/* -v: structures and arrays in full */
	bool hide_structs;	/* -e verbose= without it: no structure is
				   read (strings are), its address shown */
	bool raw;		/* -e raw=: the arguments undecoded, in hex */
	unsigned decode_pids;	/* -Y, --pidns-translation: DEC_PID_* */
	/*
	 * -Y: the child a clone made and its name before it ran (it may
	 * have executed something else by the clone's exit).
	 */
	pid_t child;
	char child_comm[16];
	bool kvm_vcpu;		/* -e kvm=vcpu: KVM_RUN's exit reason */
	int hexstr;		/* -x, -xx: DEC_HEX_* */
	int xlat_style;		/* -X: DEC_XLAT_* */
	mem_read_fn mem_read;
	void *mem_ctx;
	struct sbuf *out;
	/* Offsets in out where each argument begins (for --json). */
	size_t argpos[DEC_MAX_ARGS];
	int nargs;
	enum rval_fmt rval;
	/*
	 * Extra text after the return value, like " (flags O_RDONLY)".  Holds
	 * strace's own 1024-byte buffer for poll() and select() results
	 * (which it ends with "..." when full) and the " (" ")" around it.
	 */
	char rval_extra[1024 + 4];
	/* Scratch kept from entry to exit. */
	unsigned long long saved;
	unsigned long long saved2[2];
	/* recvmmsg: the messages' msg_namelen at entry (the first ones). */
	int namelen[16];
	unsigned nnamelen;
	int sym_depth;		/* -X: dec_sym_begin() nesting */
};

/*
 * Zero a context for a new syscall, as memset would, without writing the
 * 1 KiB of rval_extra (its first byte ends it): this runs for every line.
 */
static inline void dec_clear(struct dec_ctx *c)
{
	memset(c, 0, offsetof(struct dec_ctx, rval_extra));
	c->rval_extra[0] = '\0';
	memset(&c->saved, 0, sizeof(*c) - offsetof(struct dec_ctx, saved));
}

/*
 * Decode at entry (c->exiting false) and again at exit.  Returns true at
 * entry when the whole argument list was printed already.
 */
bool decode_syscall(struct dec_ctx *c);
/* Start decoding: remembers the first argument's offset. */
void dec_begin(struct dec_ctx *c);
/* Print the return value part after " = " (value, errno name, message). */
void decode_retval(struct dec_ctx *c, struct sbuf *b, bool injected);

/* Helpers for the per-syscall decoders. */
void dec_sep(struct dec_ctx *c);
void dec_printf(struct dec_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void dec_puts(struct dec_ctx *c, const char *s);
void dec_fd(struct dec_ctx *c, int fd);
void dec_dirfd(struct dec_ctx *c, int fd);
void dec_path(struct dec_ctx *c, unsigned long addr);
void dec_cstr(struct dec_ctx *c, unsigned long addr);
void dec_buf(struct dec_ctx *c, unsigned long addr, unsigned long len);
void dec_ptr(struct dec_ctx *c, unsigned long addr);
void dec_flags(struct dec_ctx *c, const struct xlat *x,
	       unsigned long long v, const char *dflt);
void dec_xval(struct dec_ctx *c, const struct xlat *x,
	      unsigned long long v, const char *dflt);
/*
 * A structure of the tracee's; false (print the address) when it cannot
 * be read or -e verbose= leaves this syscall's structures out.
 * dec_read_mem: memory that is read whatever -e verbose= says (strings).
 */
bool dec_read(struct dec_ctx *c, unsigned long addr, void *buf, size_t len);
bool dec_read_mem(struct dec_ctx *c, unsigned long addr, void *buf,
		  size_t len);
/*
 * A thread's or process's id in the tracee's namespace, as strace's
 * printpid(): the number, then with -Y the command's name (comm) when
 * the process is there, with --pidns-translation its id in utrace's
 * namespace in a comment when it differs.  tgid_or_pgid: kill's and
 * wait4's first argument, a process group when negative (no comm).
 */
void dec_pid(struct dec_ctx *c, long pid);
void dec_pid_or_pgid(struct dec_ctx *c, long pid);
/* A process group or session id: no comm, only the namespace note. */
void dec_pgid(struct dec_ctx *c, long pgid);
/* The same into a plain buffer (a siginfo's si_pid), v's thread and -Y. */
struct fd_view;
void sb_pid(struct sbuf *b, const struct fd_view *v, long pid);
bool dec_failed(const struct dec_ctx *c);
/*
 * strace shows at most -s elements of an array: true (after printing
 * "..." or ", ...") when element i is past that.
 */
bool dec_array_cut(struct dec_ctx *c, unsigned long i);
void dec_int(struct dec_ctx *c, int v);
void dec_uint(struct dec_ctx *c, unsigned v);
void dec_ulong(struct dec_ctx *c, unsigned long v);
void dec_hex(struct dec_ctx *c, unsigned long v);
void dec_int_ptr(struct dec_ctx *c, unsigned long addr);
/* [pid] and [fd] the tracee points to, as dec_pid and dec_fd print them. */
void dec_pid_ptr(struct dec_ctx *c, unsigned long addr);
void dec_fd_ptr(struct dec_ctx *c, unsigned long addr);
void dec_timespec(struct dec_ctx *c, unsigned long addr);
void dec_itimerspec(struct dec_ctx *c, unsigned long addr);
void dec_signal(struct dec_ctx *c, unsigned sig);
void dec_bitset(struct dec_ctx *c, const unsigned long *bits, size_t nbits,
		bool fds);
/* Set the text after the return value (replaces what was there). */
void dec_note(struct dec_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Flags as strace 6.1 prints them without a default: nothing for 0. */
void dec_flags_nz(struct dec_ctx *c, const struct xlat *x,
		  unsigned long long v);
void dec_clock_t(struct sbuf *b, unsigned long long v);
void dec_time_comment(struct dec_ctx *c, long long sec, long nsec);
void dec_sigset(struct dec_ctx *c, unsigned long addr, unsigned long size);
void dec_sigmask_val(struct sbuf *b, int xlat_style, const uint64_t *mask,
		     int nwords);
void dec_mode(struct dec_ctx *c, unsigned mode);
/*
 * How dec_quote() writes a string, strace's QUOTE_* flags: where it ends,
 * what it stands between, what else needs an escape.
 */
enum {
	QUOTE_0_TERMINATED	= 1 << 0,	/* a NUL ends it */
	QUOTE_OMIT_QUOTES	= 1 << 1,	/* no '"' around it */
	QUOTE_OMIT_TRAILING_0	= 1 << 2,	/* a NUL in the last place is
						   not shown (unless in hex) */
	QUOTE_EXPECT_TRAILING_0	= 1 << 3,	/* dec_buf_ex: "..." after one
						   that does not end so */
	QUOTE_ANGLES		= 1 << 4,	/* '<' and '>' escaped too */
	QUOTE_FORCE_HEX		= 1 << 5,	/* every byte as \xNN */
};
/* A path between < and > (after a descriptor): strace's form. */
#define QUOTE_PATH_IN_FD	(QUOTE_OMIT_QUOTES | QUOTE_ANGLES)
/*
 * n bytes of s quoted as strace does, with hexstr (DEC_HEX_*) as -x asks:
 * the one quoting function.  Returns true when a NUL ended the string (a
 * trailing one omitted counts).
 */
bool dec_quote(struct sbuf *b, int hexstr, const unsigned char *s, size_t n,
	       unsigned how);
/*
 * A buffer of len bytes of the tracee's (strace's printstr_ex()): -s
 * bytes at most, quoted as how says, "..." after it when it was cut or
 * (QUOTE_EXPECT_TRAILING_0) did not end in a NUL.  dec_buf: how 0.
 */
void dec_buf_ex(struct dec_ctx *c, unsigned long addr, unsigned long len,
		unsigned how);
/* -x, -xx, --strings-in-hex: how dec_quote() writes strings. */
enum {
	DEC_HEX_NONE,
	DEC_HEX_NON_ASCII_CHARS,	/* \xNN for what would be octal */
	DEC_HEX_NON_ASCII,		/* -x */
	DEC_HEX_ALL,			/* -xx */
};
/*
 * -X: how named constants and flags print.  ABBREV: the names (O_RDONLY|
 * O_CLOEXEC); RAW: the number only (0x80000); VERBOSE: the number, then the
 * names in a comment (0x80000 /\* O_RDONLY|O_CLOEXEC *\/).
 */
enum { DEC_XLAT_ABBREV, DEC_XLAT_RAW, DEC_XLAT_VERBOSE };
/*
 * Around the code that prints a constant's names: dec_sym_begin() returns
 * where they start; dec_sym_end() rewrites them as -X asks, with the number
 * v printed as how says (DEC_NUM_*, strace's format for that value).
 * Nested pairs (a flags printer inside a composite one) leave the work to
 * the outermost.
 */
enum { DEC_NUM_HEX, DEC_NUM_DEC, DEC_NUM_UDEC, DEC_NUM_OCT };
size_t dec_sym_begin(struct dec_ctx *c);
void dec_sym_end(struct dec_ctx *c, size_t pos, unsigned long long v,
		 int how);
/*
 * The same for text built in a plain buffer, in style (DEC_XLAT_*): name
 * (never NULL) or v.
 */
void sb_sym(struct sbuf *b, int style, const char *name,
	    unsigned long long v, int how);
/*
 * A signal's name ("SIGRT_3"; the number for one that has none), written
 * in buf (SIGNAME_MAX bytes) when it is not a constant; signame() gives a
 * buffer that lives until the end of the caller's block.
 */
#define SIGNAME_MAX	16
const char *signame_r(int sig, char *buf);
#define signame(sig)	signame_r((sig), (char [SIGNAME_MAX]){ 0 })
const char *xlat_name(const struct xlat *x, unsigned long long v);
void fd_path(pid_t pid, int fd, char *buf, size_t size);
/* --decode-fds=SET (-y: path, -yy: all): what follows a descriptor. */
enum {
	DF_PATH		= 1 << 0,	/* 3</etc/passwd> */
	DF_SOCKET	= 1 << 1,	/* 3<TCP:[1.2.3.4:5->6.7.8.9:10]> */
	DF_DEV		= 1 << 2,	/* 1</dev/null<char 1:3>> */
	DF_PIDFD	= 1 << 3,	/* 4<pid:1234> */
	DF_ALL		= 0xf,
};
/*
 * Append "<...>" for descriptor fd of thread tid, as set asks; socket
 * details found are kept in cache, shared (counted) by the threads, which
 * may be NULL (fd_decorate.c).
 */
struct sock_cache;
struct sock_cache *sock_cache_new(void);
struct sock_cache *sock_cache_get(struct sock_cache *c);
void sock_cache_put(struct sock_cache *c);
void fd_decorate(struct sbuf *out, struct sock_cache *cache, pid_t tid,
		 int fd, unsigned set, int hexstr);
/*
 * Where a descriptor inside a structure (a siginfo's si_fd) is decorated
 * as -y asks: the thread, -y's set, the socket cache and -x's style.
 */
struct fd_view {
	struct sock_cache *sockets;
	pid_t tid;
	unsigned set;
	int hexstr;
	unsigned decode_pids;	/* DEC_PID_*: si_pid as -Y asks */
};
#define DEC_FDS(c) \
	(&(struct fd_view){ (c)->sockets, (c)->tid, (c)->decode_fds, \
			    (c)->hexstr, (c)->decode_pids })
/* strace's printsiginfo(); fds NULL: si_fd as a bare number. */
void format_siginfo(struct sbuf *b, int xlat_style, const siginfo_t *si,
		    const struct fd_view *fds);

/*
 * Per-syscall decoders (decode_<family>.c).  Each is called at entry and,
 * unless it returned true there, again at exit.
 */
typedef bool (*decoder_fn)(struct dec_ctx *c);

/* Trace classes (-e trace=%file ...), strace's sysent flags. */
enum {
	SC_FILE		= 1 << 0,
	SC_DESC		= 1 << 1,
	SC_PROCESS	= 1 << 2,
	SC_NETWORK	= 1 << 3,
	SC_SIGNAL	= 1 << 4,
	SC_MEMORY	= 1 << 5,
	SC_CREDS	= 1 << 6,
	SC_IPC		= 1 << 7,
	SC_CLOCK	= 1 << 8,
	SC_PURE		= 1 << 9,
	SC_STAT		= 1 << 10,
	SC_LSTAT	= 1 << 11,
	SC_FSTAT	= 1 << 12,
	SC_STAT_LIKE	= 1 << 13,	/* %stat */
	SC_STATFS	= 1 << 14,
	SC_FSTATFS	= 1 << 15,
	SC_STATFS_LIKE	= 1 << 16,	/* %statfs */
};

/*
 * One row of the syscall table (syscalls.c), indexed by number.  args
 * holds one character per argument saying what it is (see syscalls.c).
 */
struct sysent {
	const char *name;
	const char *args;
	unsigned classes;
	decoder_fn decode;	/* NULL: printed by args */
};

/*
 * The last x86_64 syscall strace 6.1 knows is set_mempolicy_home_node
 * (450): it prints later ones (cachestat ...) as syscall_0x1c3(...) with
 * raw arguments, and rejects their names in -e trace=.
 */
#define NR_SYSENT	451
extern const struct sysent sysent[NR_SYSENT];
/* The row of nr; NULL for a number without a syscall. */
const struct sysent *sys_ent(long nr);
/* The argument kinds of nr (NULL if unknown), and their count (6 then). */
const char *sys_args(long nr);
int sys_nargs(long nr);

/* Syscall names and classes. */
#define NR_MAX		1024
const char *sys_name(long nr);
long sys_number(const char *name);
/* Fill set[NR_MAX] for a trace class like "file"; false if unknown. */
bool sys_class(const char *cls, bool *set);

extern const struct xlat xlat_signals[];
extern const struct xlat xlat_open_flags[];

#endif
