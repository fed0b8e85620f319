/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The joiner protocol (docs/PROTOCOL.md): what a serving tracer (serve.c)
 * and a connected queue (remote.c) say to each other over a Unix stream
 * socket.  Every message is a header and a body; numbers are in the host's
 * byte order and of fixed width (both ends run on one machine).
 */
#ifndef UTRACE_WIRE_H
#define UTRACE_WIRE_H

#include <stdint.h>

#define W_MAGIC		0x51525455u	/* "UTRQ" */
#define W_VERSION	1u
#define W_MAX		(1u << 20)	/* largest message, header included */
#define W_IOV_MAX	1024		/* ranges in one mem_readv/writev */
#define W_CHUNK		(W_MAX / 2)	/* bytes in one mem_readv/writev */

/* Message types. */
enum {
	W_HELLO = 1,		/* both ways, first message */
	W_RESULT,		/* server: the answer to request seq */
	W_EVENT,		/* server: one record */
	W_WATCH,		/* requests (client) from here on */
	W_UNWATCH,
	W_SET_SYSCALLS,
	W_REPLY,
	W_STOP,
	W_RESUME,
	W_REGS_GET,
	W_REGS_SET,
	W_MEM_READV,
	W_MEM_WRITEV,
	W_REGSET_GET,		/* added in 0.3: a server before them closes */
	W_REGSET_SET,
	W_DEBUGREG_GET,
	W_DEBUGREG_SET,
	W_RESUME_THREAD,
	W_REFUSED,		/* server: why it closes instead of serving */
	W_STOP_THREAD,		/* added in 0.4: a server before it closes */
	W_TYPE_MAX
};

struct w_hdr {
	uint32_t len;		/* whole message, header included */
	uint16_t type;
	uint16_t zero;		/* must be 0 */
	uint32_t seq;		/* request number; a RESULT echoes it */
};

struct w_hello {
	uint32_t magic;
	uint32_t version;
	uint32_t max;		/* largest message this end accepts */
	int32_t pid;		/* server: its pid, or the pid of the tracer
				 * to join instead; client: the thread it
				 * joins for, or 0 */
};

struct w_result {
	int64_t ret;		/* then the payload (regs, bytes read) */
};

struct w_watch {
	int32_t tid;
	uint32_t flags;
	uint64_t events, hold;
};

struct w_syscalls {
	int32_t tid;
	uint32_t all;		/* 1: every syscall (nrs NULL) */
	uint32_t n;
	uint32_t zero;
	/* int64_t nrs[n] */
};

struct w_reply {
	uint64_t id;
	uint32_t action, flags;
	int64_t ret;
	uint64_t args[6];
	uint8_t info[128];	/* siginfo_t */
};

struct w_stop {
	int32_t pid;		/* STOP_THREAD: the thread */
	int32_t timeout_ms;
};

struct w_regs {
	int32_t tid;
	uint32_t size;		/* sizeof(struct user_regs_struct) */
	/* then size bytes for REGS_SET */
};

struct w_memv {
	int32_t tid;
	uint32_t n;
	/* struct w_range[n]; for MEM_WRITEV the bytes of every range follow */
};

struct w_range {
	uint64_t addr, len;
};

#define W_REGSET_MAX	65536	/* bytes of one register set */

struct w_regset {
	int32_t tid;
	uint32_t type;		/* NT_* */
	uint32_t len;		/* at most W_REGSET_MAX */
	uint32_t zero;
	/* then len bytes for REGSET_SET */
};

struct w_debugreg {
	int32_t tid;
	int32_t n;		/* 0-3, 6, 7 */
	uint64_t value;		/* DEBUGREG_SET; ignored by DEBUGREG_GET */
};

struct w_rthread {
	int32_t tid;
	uint32_t action;	/* UTRACE_RESUME or UTRACE_SINGLESTEP */
};

/* Then a NUL-terminated reason, for people (at most W_REFUSED_TEXT). */
struct w_refused {
	int32_t err;		/* a positive errno: ETIMEDOUT, EUSERS */
	uint32_t zero;
};
#define W_REFUSED_TEXT	256

struct w_event {
	uint64_t id;
	int32_t tid, pid;
	uint64_t type;
	uint32_t held, action;
	int64_t nr;
	uint64_t args[6];
	int64_t ret;
	uint32_t arch, zero;
	uint64_t ip, sp;
	uint8_t info[128];
	uint64_t clone_flags;
	int32_t child, former_tid;
	int32_t status, group_dead;
	int32_t jctl_type, zero2;
	int64_t sec, nsec;
};

#endif
