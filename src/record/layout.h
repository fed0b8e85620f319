/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The memory the in-process record path shares between the tracer and a
 * traced process (docs/DESIGN.md, "Syscalls observed in-process").  Plain
 * defines: blob.S (the code placed in the traced process) and the
 * tracer's side (record.h and its files) both use them.  Everything in
 * the area is written by the traced program too, so the tracer checks
 * every value it reads.
 *
 * In the traced process, one private region:
 *   page 0: the blob's code (read/execute; the only code allowed to make
 *           syscalls by syscall user dispatch)
 *   page 1: its data (read/write, MADV_WIPEONFORK: zero in a fork child,
 *           which so never writes into its parent's rings)
 *   pages 2...: stubs of rewritten sites (read/execute), placed at setup
 *           so that the sites near it need no code run in the thread later
 * and one shared area (a memfd, MADV_DONTFORK), also mapped by the tracer:
 *   header pages, then UREC_NSLOTS slots, one per recording thread, each
 *   the blob's stack for that thread (its lowest page a guard), a header
 *   page and a ring.  A thread's GS base points at its slot's header, the
 *   top of its stack.
 */
#ifndef UTRACE_RECORD_LAYOUT_H
#define UTRACE_RECORD_LAYOUT_H

#define UREC_PAGE		4096
#define UREC_CODE_SIZE		UREC_PAGE
#define UREC_STUB_PAGES		14	/* stubs made ahead, after the data page */
#define UREC_REGION_SIZE	((2 + UREC_STUB_PAGES) * UREC_PAGE)

/* data page (offsets from its start) */
#define UREC_D_AREA		0	/* u64: the shared area; 0: none */
#define UREC_D_END		8	/* u64: its end */
#define UREC_D_TRACER		16	/* u64: the tracer's pid */
#define UREC_D_PID		24	/* u64: the process (for its own reads) */
#define UREC_D_ON		32	/* u64: the blob may use GS (0 in a fork
					   child: the page is wiped) */
#define UREC_D_SIGACT		64	/* struct kernel_sigaction: ours */
#define UREC_D_OLDACT		96	/* the one it replaced */

/* area header */
#define UREC_H_MAGIC		0	/* u64 */
#define UREC_H_STATE		8	/* u32: 1 records are on */
#define UREC_H_SLEEP		12	/* u32: the tracer waits for the bell */
#define UREC_H_BELL		16	/* u32: futex word the tracee wakes */
#define UREC_H_RULEIDX		1024	/* u8[1024]: a syscall's rule set, 0 none */
#define UREC_H_RULES		UREC_PAGE	/* rule sets, UREC_RULESET bytes each */
#define UREC_H_NULL		(3 * UREC_PAGE)	/* a slot header for threads
					   without a slot: always busy */
#define UREC_HDR_SIZE		(4 * UREC_PAGE)

/*
 * Capture rules (utrace_set_capture): a set is UREC_NRULES rules of 8
 * bytes; set i is at UREC_H_RULES + i * UREC_RULESET, i from 1 to 255.
 */
#define UREC_NRULES		4
#define UREC_RULESET		(UREC_NRULES * 8)
#define UREC_RU_WHEN		0	/* u8: 1 at entry, 2 at exit, 4 whole */
#define UREC_RU_ARG		1	/* u8: the argument holding the address */
#define UREC_RU_KIND		2	/* u8: UTRACE_CAPTURE_FIXED ... */
#define UREC_RU_LENARG		3	/* u8: the argument holding a length */
#define UREC_RU_MAX		4	/* u32: bytes at most */
#define UREC_CAP_LIMIT		32768	/* the most one rule captures */
#define UREC_RU_WHOLE		4	/* in WHEN: the record only if the
					   LENARG argument is at most MAX */

/* slot header (a thread's GS base) */
#define UREC_S_SELECTOR		0	/* u8: syscall user dispatch selector */
#define UREC_S_ON		4	/* u32: 1 this thread records */
#define UREC_S_HEAD		8	/* u64: bytes reserved (tracee) */
#define UREC_S_TAIL		16	/* u64: bytes consumed (tracer) */
#define UREC_S_WAIT		24	/* u32: futex word, tracee waits for room */
#define UREC_S_THRESH		28	/* u32: ring the bell from this many bytes */
#define UREC_S_BUSY		32	/* u32: the thread is in the blob, on its
					   stack (taken with xchg) */
#define UREC_S_SLOW		36	/* u32: the blob sent the thread to
					   X for the stop path (its trap
					   there is not a restart from R) */
#define UREC_S_WANT		64	/* 1024 bits: syscalls that record */
#define UREC_S_STOP		192	/* 1024 bits: syscalls that take the
					   stop path (the others are made
					   plain, unseen) */
#define UREC_SLOT_HDR		UREC_PAGE

#define UREC_RING_SIZE		(256 * 1024)	/* a power of two */
#define UREC_STACK_SIZE		(192 * 1024)	/* below the header: a
					   guard page, the frame, the largest
					   record (UREC_REC_MAX) */
#define UREC_SLOT_SIZE		(UREC_STACK_SIZE + UREC_SLOT_HDR + \
				 UREC_RING_SIZE)
#define UREC_NSLOTS		32
#define UREC_AREA_SIZE		(UREC_HDR_SIZE + UREC_NSLOTS * UREC_SLOT_SIZE)

#define UREC_MAGIC		0x6465727574726563	/* "certuerd" */

/* records: 8-byte aligned, type written last (0: not written yet) */
#define UREC_R_SIZE		0	/* u32: whole record, a multiple of 8 */
#define UREC_R_TYPE		4	/* u32 */
#define UREC_R_TSC		8	/* u64 */
#define UREC_R_NR		16	/* u64 */
/* entry: the registers the thread had at its syscall instruction */
#define UREC_R_FRAME		24	/* r15 r14 r13 r12 rbp rbx r11 r10 r9 r8
					   rax rcx rdx rsi rdi rflags */
#define UREC_R_IP		152	/* u64: address after the syscall */
#define UREC_R_SP		160	/* u64 */
#define UREC_R_FSBASE		168	/* u64 */
#define UREC_ENTRY_SIZE		176	/* without captures */
/* exit */
#define UREC_R_RET		24	/* u64 */
#define UREC_EXIT_SIZE		32	/* without captures */
/*
 * After the fixed part of an entry or exit record, one capture per rule
 * of that moment: a header, then room bytes (a multiple of 8), of which
 * len were read from addr.
 */
#define UREC_C_INFO		0	/* u32: rule index | when << 8 */
#define UREC_C_LEN		4	/* u32 */
#define UREC_C_ROOM		8	/* u32 */
#define UREC_C_ADDR		16	/* u64 */
#define UREC_C_HDR		24
#define UREC_REC_MAX		(UREC_ENTRY_SIZE + UREC_NRULES * \
				 (UREC_C_HDR + UREC_CAP_LIMIT))

#define UREC_T_ENTRY		1
#define UREC_T_EXIT		2
#define UREC_T_PAD		3

/*
 * A stub (16-byte aligned, at E):
 *   E:      lea R(%rip), %r11; jmp *(the blob's entry, at its page's start)
 *   X = R-2: syscall          (the stop path, a restart, no blob)
 *   R:      movabs $SITE_AFTER, %rcx; the displaced instructions; jmp back
 * The blob returns to R, or to X for the stop path; a syscall the kernel
 * restarts from R is made again at X.  R + 2 holds the site's address
 * after its syscall.
 */
#define UREC_STUB_R		15
#define UREC_STUB_X		13
#define UREC_STUB_SITE		2

/*
 * The blob's frame at the top of a thread's stack (offsets from its
 * base, below the slot header): the program's registers, in the order of
 * an entry record's UREC_R_FRAME, then its flags, R and its stack
 * pointer; below the base, the phase and the exit's TSC stamp.
 */
#define UREC_F_R15		0
#define UREC_F_RBP		32
#define UREC_F_RBX		40
#define UREC_F_RAX		80
#define UREC_F_RCX		88	/* the result, once made */
#define UREC_F_FLAGS		120
#define UREC_F_RET		128
#define UREC_F_SP		136
#define UREC_F_SIZE		144	/* from the base to the header */
#define UREC_F_PHASE		(-8)	/* u32 */
#define UREC_F_XTSC		(-16)
/* phases: where the blob is in a syscall (the tracer's unwind) */
#define UREC_PH_START		0	/* no record yet: start again */
#define UREC_PH_ENTRY		1	/* the entry record is in the ring */
#define UREC_PH_MADE		2	/* the syscall was made */
#define UREC_PH_EXIT		3	/* the exit record is in the ring */
#define UREC_PH_PLAIN		4	/* no record: before the syscall */
#define UREC_PH_PLAIN_MADE	5
#define UREC_PH_SLOW		6	/* back to X for the stop path */

/* entry points, offsets in the code page */
#define UREC_OFF_ENTRY		0

#endif
