/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What decoding a syscall reads of the tracee's memory, as capture rules
 * (capture.c).  A syscall recorded in the traced thread itself (the
 * record path, utrace(7) "Syscalls observed in-process") comes with only
 * the memory its rules named, read by the thread at the syscall's entry
 * and exit; the decoders then read that copy.  So a syscall may be
 * recorded only when its rules hold every byte its decoding reads, at the
 * moment it reads it: dec_capture() gives such rules or says there are
 * none (the syscall then takes the stop path, where the decoders read the
 * stopped thread's memory).  In the decoders' own terms: the library is
 * not known here (engines/records.c makes its rules of these).
 */
#ifndef UT_CAPTURE_H
#define UT_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DCAP_ENTRY	0x1	/* read at the syscall's entry */
#define DCAP_EXIT	0x2	/* read at its exit */

enum dcap_kind {
	DCAP_FIXED,		/* len bytes */
	DCAP_ARGLEN,		/* as many as argument len_arg says, at most len */
	DCAP_RETLEN,		/* as many as the result says, at most len (exit) */
	DCAP_STRING,		/* a string: at most len bytes */
};

#define DCAP_MAX	4	/* rules of one syscall */

struct dcap {
	unsigned char arg;	/* the argument that holds the address */
	unsigned char when;	/* DCAP_ENTRY and/or DCAP_EXIT */
	unsigned char kind;	/* enum dcap_kind */
	/*
	 * DCAP_ARGLEN: the argument that holds the length.  With whole: the
	 * argument that bounds what is read (a buffer's size).
	 */
	unsigned char len_arg;
	/*
	 * All of it or no record: the syscall may be recorded only while
	 * argument len_arg is at most len (what the decoder reads can be
	 * as long as the buffer: getdents' entries are counted to the end).
	 */
	bool whole;
	size_t len;
};

/* How one syscall is printed: what changes the memory its decoder reads. */
struct dcap_how {
	int strsize;		/* -s */
	bool no_abbrev;		/* -v, -e abbrev=: arrays and structures whole */
	bool hide_structs;	/* -e verbose= leaves its structures out */
	bool raw;		/* -e raw=: nothing read */
	bool dumps;		/* -e read= or -e write=: its buffers dumped */
	size_t limit;		/* the most bytes one rule may take */
	bool whole;		/* rules may be whole (struct dcap) */
};

/*
 * The rules that hold what decoding syscall nr as how says reads, into
 * out (DCAP_MAX at most): their number, or -1 when no rules can hold it
 * exactly (the syscall must take the stop path).  0: it reads nothing.
 */
int dec_capture(long nr, const struct dcap_how *how, struct dcap *out);

/*
 * Whether a read of len bytes at addr is one the n rules r hold, for the
 * syscall with arguments a and (exiting) result ret, at its entry or its
 * exit: inside what one rule of that moment takes.  A read outside them
 * is one a record cannot answer as the stopped thread would: a bug in the
 * rules (capture.c's table) that the CLI reports and the tests look for.
 */
bool dec_capture_covers(const struct dcap *r, int n, const unsigned long *a,
			long ret, bool exiting, uint64_t addr, size_t len);

/*
 * What a syscall changes that the printing of others reads live (not in
 * the tracee's memory): descriptors' paths and the working directory
 * (-y, -P: /proc/PID/fd, /proc/PID/cwd), sockets' endpoints (-yy: the
 * kernel's sock_diag).  With those options such a syscall takes the stop
 * path, so that every record made before it is printed before it runs.
 */
enum {
	DSTATE_FDS	= 1 << 0,
	DSTATE_SOCKETS	= 1 << 1,
};
unsigned dec_state_change(long nr);

#endif
