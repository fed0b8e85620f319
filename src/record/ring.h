/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading a thread's ring (ring.c): the checks every record passes
 * before the tracer believes it, apart so that test/unit/record_ring can
 * feed them hostile rings.
 */
#ifndef UTRACE_RECORD_RING_H
#define UTRACE_RECORD_RING_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "record/layout.h"

/* A record as read out of a ring (layout.h, UREC_R_*). */
struct utrace__rrec {
	union {
		struct {
			uint32_t size, type;
			uint64_t tsc;
			int64_t nr;
			/* entry: frame (16), ip, sp, fs base; exit: ret */
			uint64_t v[19];
		};
		unsigned char raw[UREC_REC_MAX];
	};
};

/*
 * The next record of the slot's ring, checked, into @out (NULL: only its
 * time stamp into @tsc); @consumed: its bytes and any padding before it.
 * 1: a record, 0: none yet, -1: the ring broke the rules.
 */
int utrace__rec_peek(char *slot, struct utrace__rrec *out, size_t *consumed,
		     uint64_t *tsc);
void utrace__rec_consume(char *slot, size_t len);

/* Where one capture of a record is in the copy utrace__rec_caps keeps. */
struct utrace__cap {
	uint64_t addr;
	uint32_t len, off;
};

/*
 * The captures of record @r, whose fixed part is @base bytes, into @caps
 * (UREC_NRULES at most) and a copy of the record in *@buf (malloc'd once,
 * UREC_REC_MAX).  Each is checked against the record's size; the first
 * that breaks the rules ends the list.  Returns how many.
 */
unsigned utrace__rec_caps(const struct utrace__rrec *r, size_t base,
			  struct utrace__cap *caps, unsigned char **buf);
/*
 * What the captures hold of [@addr, @addr + @len): the bytes from @addr to
 * the end of the capture holding it, or -ENODATA.
 */
ssize_t utrace__rec_cap_read(const struct utrace__cap *c, unsigned n,
			     const unsigned char *buf, uint64_t addr,
			     void *out, size_t len);

#endif
