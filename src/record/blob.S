/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The code the tracer places in a traced process (record.c copies the bytes
 * from urec_blob_start to urec_blob_end into the process's code page).  It
 * must be position-independent and freestanding: it refers to nothing
 * outside itself but its data page, one page after its start.
 *
 * A rewritten syscall site jumps to its stub, which jumps to urec_entry
 * with the stub's R in r11 (layout.h, a stub) and every other register as
 * the program had it: rcx and r11 are the only ones a syscall instruction
 * spends.  Nothing is written to the program's stack: urec_entry takes the
 * thread's own stack in its slot (UREC_S_BUSY, with xchg, so that a thread
 * that shares the slot, or a signal handler that comes in while the tracer
 * is dead, takes the stub's own syscall at X instead), saves every register
 * there, builds each record on that stack and copies it whole into the ring
 * (type written last), makes the syscall from its own instruction, and
 * returns to R with the registers a real syscall leaves (rax the result,
 * r11 the flags; R sets rcx); or, for a syscall that must take the stop
 * path, returns to X, whose syscall syscall user dispatch traps.
 *
 * A signal never runs a handler inside here while the tracer lives: at
 * every stop of a thread found in this code the tracer puts the thread
 * back in the program's state first (hooks.c, unwind), as if the syscall
 * had not started, had been interrupted, or had returned, after the
 * frame's phase (layout.h).  The only records in the ring are so whole
 * ones, and a handler that never returns (siglongjmp) leaves nothing
 * behind.
 */
#include "record/layout.h"

#define F_R15	0
#define F_R14	8
#define F_R13	16
#define F_R12	24
#define F_RBP	32
#define F_RBX	40
#define F_R11	48
#define F_R10	56
#define F_R9	64
#define F_R8	72
#define F_RAX	80
#define F_RCX	88
#define F_RDX	96
#define F_RSI	104
#define F_RDI	112
#define F_FLAGS	120
#define F_RET	128
#define F_SP	136
#define F_PHASE	UREC_F_PHASE
#define F_XTSC	UREC_F_XTSC

#define SYS_close	3
#define SYS_mmap	9
#define SYS_mprotect	10
#define SYS_madvise	28
#define SYS_kill	62
#define SYS_ftruncate	77
#define SYS_futex	202
#define SYS_memfd_create 319
#define FUTEX_WAIT	0
#define FUTEX_WAKE	1
#define MADV_DONTFORK	10
#define MADV_WIPEONFORK	18
#define ESRCH		3

	.section .rodata.utrace_blob, "a"
	.p2align 6
	.globl	urec_blob_start, urec_blob_end
	.globl	urec_blob_setup, urec_blob_close, urec_blob_gadget
	.globl	urec_blob_sys_rec, urec_blob_sys_plain
	.globl	urec_blob_sigsys, urec_blob_restorer
	.globl	urec_blob_switch, urec_blob_switched, urec_blob_saved
	.globl	urec_blob_committed, urec_blob_rec_saved, urec_blob_plain_saved
	.globl	urec_blob_return, urec_blob_leave, urec_blob_left
	.globl	urec_blob_entry_end, urec_blob_path_end
	.hidden	urec_blob_sigsys, urec_blob_restorer
	.hidden	urec_blob_start, urec_blob_end
	.hidden	urec_blob_setup, urec_blob_close, urec_blob_gadget
	.hidden	urec_blob_sys_rec, urec_blob_sys_plain
	.hidden	urec_blob_switch, urec_blob_switched, urec_blob_saved
	.hidden	urec_blob_committed, urec_blob_rec_saved, urec_blob_plain_saved
	.hidden	urec_blob_return, urec_blob_leave, urec_blob_left
	.hidden	urec_blob_entry_end, urec_blob_path_end

urec_blob_start:
urec_entry:
	/*
	 * Up to urec_blob_saved nothing may change the flags (the program's
	 * are saved by pushfq) nor touch memory but the data page and the
	 * slot: mov, jrcxz, xchg, lea, rdgsbase and push only.
	 */
	mov	urec_blob_start+UREC_CODE_SIZE+UREC_D_ON(%rip), %rcx
	jrcxz	.Lx
	mov	$1, %ecx
	xchg	%ecx, %gs:UREC_S_BUSY
	jrcxz	1f
.Lx:	/* no blob here, or its stack is taken: the stub's own syscall */
	lea	-2(%r11), %r11
	jmp	*%r11
1:	rdgsbase %rcx
urec_blob_switch:
	xchg	%rcx, %rsp
urec_blob_switched:
	push	%rcx				/* F_SP */
	push	%r11				/* F_RET: R */
	pushfq
	push	%rdi
	push	%rsi
	push	%rdx
	push	%rcx
	push	%rax
	push	%r8
	push	%r9
	push	%r10
	push	%r11
	push	%rbx
	push	%rbp
	push	%r12
	push	%r13
	push	%r14
	push	%r15
urec_blob_saved:
	mov	%rsp, %rbp
	sub	$16, %rsp
	movl	$UREC_PH_START, F_PHASE(%rbp)
	/*
	 * Clear AC, so that the alignment check the program may have on
	 * never faults in here (R + 2 is unaligned), and DF for string
	 * order; popfq puts the program's back.
	 */
	pushfq
	andl	$~0x40000, (%rsp)
	popfq
	cld
	lea	urec_blob_start+UREC_CODE_SIZE(%rip), %r12	/* data page */
	mov	UREC_D_AREA(%r12), %r13
	rdgsbase %rbx
	movl	$0, UREC_S_SLOW(%rbx)
	cmpl	$1, UREC_H_STATE(%r13)
	jne	.Lplain
	cmpl	$1, UREC_S_ON(%rbx)
	jne	.Lplain
	mov	F_RAX(%rbp), %rax
	cmp	$1024, %rax
	jae	.Lslow
	bt	%rax, UREC_S_WANT(%rbx)
	jc	2f
	bt	%rax, UREC_S_STOP(%rbx)
	jc	.Lslow
	jmp	.Lplain
2:	call	.Lcap_whole
	test	%eax, %eax
	jnz	.Lslow

	/* the entry record, on this stack */
	mov	$UREC_ENTRY_SIZE, %ecx
	mov	$1, %edx
	call	.Lcap_size
	sub	%rcx, %rsp
	and	$-16, %rsp
	mov	%rsp, %rdi
	movl	%ecx, UREC_R_SIZE(%rdi)
	movl	$0, UREC_R_TYPE(%rdi)
	mov	F_RAX(%rbp), %rax
	mov	%rax, UREC_R_NR(%rdi)
	xor	%ecx, %ecx
1:	mov	(%rbp,%rcx,8), %rax
	mov	%rax, UREC_R_FRAME(%rdi,%rcx,8)
	inc	%ecx
	cmp	$16, %ecx
	jb	1b
	mov	F_RET(%rbp), %rax
	mov	UREC_STUB_SITE(%rax), %rax
	mov	%rax, UREC_R_IP(%rdi)
	mov	F_SP(%rbp), %rax
	mov	%rax, UREC_R_SP(%rdi)
	rdfsbase %rax
	mov	%rax, UREC_R_FSBASE(%rdi)
	push	%rdi
	mov	$UREC_ENTRY_SIZE, %esi
	mov	$1, %edx
	call	.Lcap_fill
	pop	%rsi
	mov	$UREC_T_ENTRY, %edx
	mov	$UREC_PH_ENTRY, %r8d
	call	.Lcommit
	test	%eax, %eax
	jnz	.Lplain				/* records went off meanwhile */

	/*
	 * The syscall on the program's stack pointer: what the kernel
	 * looks at (sigaltstack's SS_ONSTACK, a signal frame should the
	 * tracer die meanwhile) is as without the blob.
	 */
	mov	F_RDI(%rbp), %rdi
	mov	F_RSI(%rbp), %rsi
	mov	F_RDX(%rbp), %rdx
	mov	F_R10(%rbp), %r10
	mov	F_R8(%rbp), %r8
	mov	F_R9(%rbp), %r9
	mov	F_RAX(%rbp), %rax
	mov	F_SP(%rbp), %rsp
urec_blob_sys_rec:
	syscall
	mov	%rax, F_RCX(%rbp)		/* the result */
urec_blob_rec_saved:
	movl	$UREC_PH_MADE, F_PHASE(%rbp)
	rdtsc
	shl	$32, %rdx
	or	%rdx, %rax
	mov	%rax, F_XTSC(%rbp)

	/* the exit record (rbx, r12, r13 survive the syscall) */
	lea	F_XTSC(%rbp), %rsp
	mov	$UREC_EXIT_SIZE, %ecx
	mov	$2, %edx
	call	.Lcap_size
	sub	%rcx, %rsp
	and	$-16, %rsp
	mov	%rsp, %rdi
	movl	%ecx, UREC_R_SIZE(%rdi)
	movl	$0, UREC_R_TYPE(%rdi)
	mov	F_XTSC(%rbp), %rax
	mov	%rax, UREC_R_TSC(%rdi)
	mov	F_RAX(%rbp), %rax
	mov	%rax, UREC_R_NR(%rdi)
	mov	F_RCX(%rbp), %rax
	mov	%rax, UREC_R_RET(%rdi)
	push	%rdi
	mov	$UREC_EXIT_SIZE, %esi
	mov	$2, %edx
	call	.Lcap_fill
	pop	%rsi
	mov	$UREC_T_EXIT, %edx
	mov	$UREC_PH_EXIT, %r8d
	call	.Lcommit
	test	%eax, %eax
	jnz	.Ldone
	call	.Lbell
	jmp	.Ldone

.Lplain:
	movl	$UREC_PH_PLAIN, F_PHASE(%rbp)
	mov	F_RDI(%rbp), %rdi
	mov	F_RSI(%rbp), %rsi
	mov	F_RDX(%rbp), %rdx
	mov	F_R10(%rbp), %r10
	mov	F_R8(%rbp), %r8
	mov	F_R9(%rbp), %r9
	mov	F_RAX(%rbp), %rax
	mov	F_SP(%rbp), %rsp
urec_blob_sys_plain:
	syscall
	mov	%rax, F_RCX(%rbp)
urec_blob_plain_saved:
	movl	$UREC_PH_PLAIN_MADE, F_PHASE(%rbp)

.Ldone:
	mov	F_RCX(%rbp), %rax
	mov	%rax, F_RAX(%rbp)
	jmp	urec_blob_return

.Lslow:
	/* the stub makes the syscall itself: the stop path */
	movl	$UREC_PH_SLOW, F_PHASE(%rbp)
	movl	$1, UREC_S_SLOW(%rbx)		/* X's trap: stop, not E */
	subq	$2, F_RET(%rbp)			/* X */

	/*
	 * Back to the program: every register from the frame (r11 the
	 * flags, as a syscall instruction leaves it; R sets rcx), its
	 * stack, then the slot given back, then R.
	 */
urec_blob_return:
	mov	%rbp, %rsp
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbp
	pop	%rbx
	pop	%r11
	pop	%r10
	pop	%r9
	pop	%r8
	pop	%rax
	pop	%rcx
	pop	%rdx
	pop	%rsi
	pop	%rdi
	mov	(%rsp), %r11
	popfq
	pop	%rcx
urec_blob_leave:
	mov	(%rsp), %rsp
urec_blob_left:
	movl	$0, %gs:UREC_S_BUSY
	jmp	*%rcx
urec_blob_entry_end:

/*
 * Capture rules (layout.h): the rule set of the syscall in the frame, in
 * the area's header (the tracer writes it; the program could too, which
 * only spoils its own records: every length is clamped).  The syscall's
 * number is below 1024 here (it is in the slot's record set).
 * .Lcap_set: r10 = the set, or 0.  Clobbers rax.
 */
.Lcap_set:
	xor	%r10d, %r10d
	mov	F_RAX(%rbp), %rax
	movzbl	UREC_H_RULEIDX(%r13,%rax), %eax
	test	%eax, %eax
	jz	1f
	shl	$5, %eax			/* UREC_RULESET */
	lea	UREC_H_RULES(%r13,%rax), %r10
1:	ret

/*
 * .Lcap_whole: eax 1 when a whole rule of the syscall (UREC_RU_WHOLE) does
 * not fit, its bound argument above its maximum: the syscall then takes
 * the stop path, never a shorter record.  Clobbers rax, rcx, rsi, r8-r10.
 */
.Lcap_whole:
	call	.Lcap_set
	xor	%eax, %eax
	test	%r10, %r10
	jz	9f
	xor	%esi, %esi
1:	lea	(%r10,%rsi,8), %r8
	testb	$UREC_RU_WHOLE, UREC_RU_WHEN(%r8)
	jz	2f
	movzbl	UREC_RU_LENARG(%r8), %ecx
	cmp	$6, %ecx
	jae	3f				/* a bad rule: stops */
	lea	.Largoff(%rip), %rax
	movzbl	(%rax,%rcx), %ecx
	mov	(%rbp,%rcx), %rcx		/* the bound */
	mov	UREC_RU_MAX(%r8), %r9d
	cmp	$UREC_CAP_LIMIT, %r9
	jbe	4f
	mov	$UREC_CAP_LIMIT, %r9d
4:	cmp	%r9, %rcx
	ja	3f
2:	inc	%esi
	cmp	$UREC_NRULES, %esi
	jb	1b
	xor	%eax, %eax
9:	ret
3:	mov	$1, %eax
	ret

/*
 * .Lcap_len: the bytes rule r8 takes at the moment edx (1 entry, 2 exit),
 * in rax (0: none).  Clobbers rcx, r9.
 */
.Lcap_len:
	xor	%eax, %eax
	movzbl	UREC_RU_WHEN(%r8), %ecx
	test	%edx, %ecx
	jz	9f
	mov	UREC_RU_MAX(%r8), %r9d
	cmp	$UREC_CAP_LIMIT, %r9
	jbe	1f
	mov	$UREC_CAP_LIMIT, %r9d
1:	movzbl	UREC_RU_KIND(%r8), %ecx
	cmp	$0, %ecx			/* FIXED */
	je	7f
	cmp	$3, %ecx			/* STRING: room for all of it */
	je	7f
	cmp	$1, %ecx			/* ARGLEN */
	jne	2f
	movzbl	UREC_RU_LENARG(%r8), %ecx
	cmp	$6, %ecx
	jae	8f
	lea	.Largoff(%rip), %rax
	movzbl	(%rax,%rcx), %ecx
	mov	(%rbp,%rcx), %rax
	jmp	6f
2:	cmp	$2, %ecx			/* RETLEN, at exit */
	jne	8f
	cmp	$2, %edx
	jne	8f
	mov	F_RCX(%rbp), %rax		/* the result, until restored */
	test	%rax, %rax
	jle	8f
6:	cmp	%r9, %rax
	jbe	9f
7:	mov	%r9, %rax
	ret
8:	xor	%eax, %eax
9:	ret

/*
 * .Lcap_size: ecx = the record's fixed size plus what the rules of the
 * moment edx take.  Keeps edx.  Clobbers rax, rsi, r8-r11.
 */
.Lcap_size:
	mov	%ecx, %r11d
	call	.Lcap_set
	test	%r10, %r10
	jz	3f
	xor	%esi, %esi
1:	lea	(%r10,%rsi,8), %r8
	movzbl	UREC_RU_WHEN(%r8), %ecx
	test	%edx, %ecx
	jz	2f
	call	.Lcap_len
	add	$7, %rax
	and	$-8, %rax
	lea	UREC_C_HDR(%r11,%rax), %r11
2:	inc	%esi
	cmp	$UREC_NRULES, %esi
	jb	1b
3:	mov	%r11d, %ecx
	ret

/*
 * .Lcap_fill: the captures of the moment edx into record rdi, from offset
 * esi on (what .Lcap_size counted).  Each reads the program's memory with
 * process_vm_readv on its own process: a bad address reads nothing, as the
 * syscall itself would fail with EFAULT, and never faults here.
 * Clobbers rax, rcx, rdx, rsi, rdi, r8-r11, r14.
 */
.Lcap_fill:
	push	%rdi				/* 32: the record */
	push	%rsi				/* 24: offset */
	push	%rdx				/* 16: when */
	push	$0				/*  8: rule index */
	call	.Lcap_set
	test	%r10, %r10
	jz	9f
	push	%r10				/*  0: the set */
1:	mov	8(%rsp), %rsi
	mov	(%rsp), %r10
	lea	(%r10,%rsi,8), %r8
	mov	16(%rsp), %edx
	movzbl	UREC_RU_WHEN(%r8), %ecx
	test	%edx, %ecx
	jz	5f
	call	.Lcap_len
	mov	32(%rsp), %rdi
	add	24(%rsp), %rdi			/* its header */
	mov	8(%rsp), %ecx
	mov	16(%rsp), %r9d
	shl	$8, %r9d
	or	%r9d, %ecx
	movl	%ecx, UREC_C_INFO(%rdi)
	movl	$0, UREC_C_LEN(%rdi)
	mov	%rax, %rcx
	add	$7, %rcx
	and	$-8, %rcx
	movl	%ecx, UREC_C_ROOM(%rdi)
	add	$UREC_C_HDR, %rcx
	add	%rcx, 24(%rsp)
	xor	%esi, %esi
	movzbl	UREC_RU_ARG(%r8), %ecx
	cmp	$6, %ecx
	jae	2f
	lea	.Largoff(%rip), %rsi
	movzbl	(%rsi,%rcx), %ecx
	mov	(%rbp,%rcx), %rsi
2:	mov	%rsi, UREC_C_ADDR(%rdi)
	test	%rax, %rax
	jz	5f
	test	%rsi, %rsi
	jz	5f
	mov	%rdi, %r14
	lea	UREC_C_HDR(%rdi), %rdi
	mov	%rax, %rdx
	call	.Lread_self
	test	%rax, %rax
	js	5f
	movl	%eax, UREC_C_LEN(%r14)
5:	incq	8(%rsp)
	cmpq	$UREC_NRULES, 8(%rsp)
	jb	1b
	pop	%r10
9:	add	$32, %rsp
	ret

/*
 * .Lread_self: process_vm_readv(own pid) of rdx bytes at rsi into rdi, the
 * remote side cut at page boundaries so that a read stops at the first page
 * that cannot be read.  rax: the bytes read or -errno.
 * Clobbers rcx, rdx, rsi, rdi, r8-r11.
 */
.Lread_self:
	sub	$320, %rsp
	mov	%rdi, 0(%rsp)
	mov	%rdx, 8(%rsp)
	lea	16(%rsp), %r9
	xor	%r10d, %r10d
1:	mov	%rsi, %rax
	and	$4095, %rax
	mov	$4096, %rcx
	sub	%rax, %rcx
	cmp	%rdx, %rcx
	jbe	2f
	mov	%rdx, %rcx
2:	mov	%rsi, (%r9)
	mov	%rcx, 8(%r9)
	add	$16, %r9
	inc	%r10
	add	%rcx, %rsi
	sub	%rcx, %rdx
	jz	3f
	cmp	$18, %r10
	jb	1b
3:	mov	%r10, %r8
	mov	UREC_D_PID(%r12), %rdi
	lea	0(%rsp), %rsi
	mov	$1, %edx
	lea	16(%rsp), %r10
	xor	%r9d, %r9d
	mov	$310, %eax			/* process_vm_readv */
	syscall
	add	$320, %rsp
	ret

/* frame offsets of the six syscall arguments */
.Largoff:
	.byte	F_RDI, F_RSI, F_RDX, F_R10, F_R8, F_R9

/*
 * .Lcommit: the record at rsi (built whole, its type 0) into the ring of
 * the slot at rbx: room waited for, padding to the ring's end when it
 * does not fit there, the bytes copied, then its type edx (an entry's TSC
 * stamp taken just before), the frame's phase r8d, the head.  Nothing is
 * reserved before the record is whole, so a ring never holds a record
 * whose writer went away.  eax: 0, or 1 when records went off while it
 * waited for room (the tracer died: nothing written).
 * Clobbers rax, rcx, rdx, rsi, rdi, r9, r10, r11, r14, r15.
 */
.Lcommit:
	movl	UREC_R_SIZE(%rsi), %r9d		/* size */
.Lc_again:
	mov	UREC_S_HEAD(%rbx), %r14		/* head */
	mov	%r14, %rax
	and	$(UREC_RING_SIZE - 1), %rax	/* offset */
	mov	$UREC_RING_SIZE, %rcx
	sub	%rax, %rcx			/* room before the end */
	xor	%r15d, %r15d			/* padding */
	cmp	%r9, %rcx
	jae	1f
	mov	%rcx, %r15
1:	lea	(%r14,%r15), %r10
	add	%r9, %r10			/* the new head */
	mov	%r10, %rax
	sub	UREC_S_TAIL(%rbx), %rax		/* used with it */
	cmp	$UREC_RING_SIZE, %rax
	jbe	2f
	push	%rsi
	push	%rdx
	push	%r8
	push	%r9
	call	.Lwait
	pop	%r9
	pop	%r8
	pop	%rdx
	pop	%rsi
	test	%eax, %eax
	jz	.Lc_again
	ret
2:	mov	%r14, %rax
	and	$(UREC_RING_SIZE - 1), %rax
	lea	UREC_SLOT_HDR(%rbx,%rax), %rdi
	test	%r15, %r15
	jz	3f
	movl	%r15d, UREC_R_SIZE(%rdi)
	movl	$UREC_T_PAD, UREC_R_TYPE(%rdi)
	lea	UREC_SLOT_HDR(%rbx), %rdi	/* the record starts the ring */
3:	mov	%rdx, %r11
	cmp	$UREC_T_ENTRY, %edx
	jne	4f
	rdtsc
	shl	$32, %rdx
	or	%rdx, %rax
	mov	%rax, UREC_R_TSC(%rsi)
4:	mov	%r11, %rdx			/* the type */
	mov	%rdi, %r11			/* where the record goes */
	mov	%r9, %rcx
	rep movsb
	movl	%edx, UREC_R_TYPE(%r11)
urec_blob_committed:
	movl	%r8d, F_PHASE(%rbp)
	mov	%r10, UREC_S_HEAD(%rbx)
	xor	%eax, %eax
	ret

/*
 * .Lwait: the ring is full; sleep until the tracer makes room (it wakes
 * UREC_S_WAIT), looking every 50 ms whether the tracer still lives.  A dead
 * tracer turns records off for good: returns 1.  Else 0.  In: r10 = the
 * head the record needs.  Clobbers rax, rcx, rdx, rsi, rdi, r10, r11.
 */
.Lwait:
	movl	$1, UREC_S_WAIT(%rbx)
	mfence
	mov	%r10, %rax
	sub	UREC_S_TAIL(%rbx), %rax
	cmp	$UREC_RING_SIZE, %rax
	jbe	1f
	sub	$16, %rsp
	movq	$0, (%rsp)
	movq	$50000000, 8(%rsp)
	lea	UREC_S_WAIT(%rbx), %rdi
	mov	$FUTEX_WAIT, %esi
	mov	$1, %edx
	mov	%rsp, %r10
	mov	$SYS_futex, %eax
	syscall
	add	$16, %rsp
	mov	UREC_D_TRACER(%r12), %rdi
	xor	%esi, %esi
	mov	$SYS_kill, %eax
	syscall
	cmp	$-ESRCH, %rax
	je	2f
	cmpl	$1, UREC_H_STATE(%r13)
	jne	2f
1:	xor	%eax, %eax
	ret
2:	movl	$0, UREC_H_STATE(%r13)
	movb	$0, UREC_S_SELECTOR(%rbx)
	mov	$1, %eax
	ret

/*
 * .Lbell: a record is in.  If the tracer sleeps and the ring holds more
 * than the slot's threshold, wake it.  Clobbers rax, rdx, rsi, rdi, r10.
 */
.Lbell:
	cmpl	$0, UREC_H_SLEEP(%r13)
	je	1f
	mov	UREC_S_HEAD(%rbx), %rax
	sub	UREC_S_TAIL(%rbx), %rax
	mov	UREC_S_THRESH(%rbx), %edx
	cmp	%rdx, %rax
	jb	1f
	movl	$0, UREC_H_SLEEP(%r13)
	lock incl UREC_H_BELL(%r13)
	lea	UREC_H_BELL(%r13), %rdi
	mov	$FUTEX_WAKE, %esi
	mov	$1, %edx
	mov	$SYS_futex, %eax
	syscall
1:	ret

urec_blob_path_end:	/* the syscall path's helpers end here */

/*
 * urec_blob_setup: run once per process by the tracer (its registers set
 * by the tracer, the program's saved): make the data page writable and
 * wiped in fork children, and the shared area.  In: rdi = the area's size.
 * Out: rax = the area or -errno, rdx = the memfd (for the tracer to open),
 * then a trap for the tracer.
 */
urec_blob_setup:
	mov	%rdi, %r12			/* size */
	lea	urec_blob_start+UREC_CODE_SIZE(%rip), %r13
	mov	%r13, %rdi
	mov	$UREC_PAGE, %esi
	mov	$3, %edx			/* PROT_READ | PROT_WRITE */
	mov	$SYS_mprotect, %eax
	syscall
	test	%rax, %rax
	jnz	9f
	mov	%r13, %rdi
	mov	$UREC_PAGE, %esi
	mov	$MADV_WIPEONFORK, %edx
	mov	$SYS_madvise, %eax
	syscall
	test	%rax, %rax
	jnz	9f
	lea	.Lname(%rip), %rdi
	mov	$1, %esi			/* MFD_CLOEXEC */
	mov	$SYS_memfd_create, %eax
	syscall
	test	%rax, %rax
	js	9f
	mov	%rax, %r14			/* fd */
	mov	%r14, %rdi
	mov	%r12, %rsi
	mov	$SYS_ftruncate, %eax
	syscall
	test	%rax, %rax
	jnz	8f
	xor	%edi, %edi
	mov	%r12, %rsi
	mov	$3, %edx			/* PROT_READ | PROT_WRITE */
	mov	$1, %r10d			/* MAP_SHARED */
	mov	%r14, %r8
	xor	%r9d, %r9d
	mov	$SYS_mmap, %eax
	syscall
	cmp	$-4096, %rax
	ja	8f
	mov	%rax, %r15
	mov	%rax, %rdi
	mov	%r12, %rsi
	mov	$MADV_DONTFORK, %edx
	mov	$SYS_madvise, %eax
	syscall
	/* each slot's stack ends in a guard page */
	lea	UREC_HDR_SIZE(%r15), %r13
	mov	$UREC_NSLOTS, %r12d
1:	mov	%r13, %rdi
	mov	$UREC_PAGE, %esi
	xor	%edx, %edx			/* PROT_NONE */
	mov	$SYS_mprotect, %eax
	syscall
	add	$UREC_SLOT_SIZE, %r13
	dec	%r12d
	jnz	1b
	mov	%r15, %rax
	mov	%r14, %rdx
	int3
8:	mov	%rax, %r15
	mov	%r14, %rdi
	mov	$SYS_close, %eax
	syscall
	mov	%r15, %rax
9:	mov	$-1, %rdx
	int3

/* urec_blob_close: close(rdi), then a trap. */
urec_blob_close:
	mov	$SYS_close, %eax
	syscall
	int3

/*
 * urec_blob_sigsys: the SIGSYS handler placed with the blob (SA_SIGINFO,
 * urec_blob_restorer).  A tracer that lives takes every dispatch trap at
 * its stop, so this runs only when the tracer died: it turns records off
 * for the process and dispatch off for this thread (its selector), and
 * returns to the trapped syscall instruction, which then runs natively
 * with the program's registers.  A SIGSYS of another kind (a seccomp
 * trap) gets the default action, as it would without the handler.
 * In: rdi = signal, rsi = siginfo, rdx = ucontext.
 */
#define SI_CODE		8
#define SI_CALL_ADDR	16		/* siginfo's _sigsys._call_addr */
#define UC_RIP		(40 + 16 * 8)	/* uc_mcontext.gregs[REG_RIP] */
#define SYS_rt_sigaction 13
#define SYS_gettid	186
#define SYS_getpid	39
#define SYS_tgkill	234
#define SIGSYS		31
urec_blob_sigsys:
	cmpl	$2, SI_CODE(%rsi)		/* SYS_USER_DISPATCH */
	jne	2f
	lea	urec_blob_start+UREC_CODE_SIZE(%rip), %r8
	mov	UREC_D_AREA(%r8), %r9
	test	%r9, %r9
	jz	1f
	movl	$0, UREC_H_STATE(%r9)
	rdgsbase %rax
	cmp	%r9, %rax
	jb	1f
	cmp	UREC_D_END(%r8), %rax
	jae	1f
	movb	$0, UREC_S_SELECTOR(%rax)
	movl	$0, UREC_S_ON(%rax)
	/*
	 * Back to the syscall instruction, unless the tracer had moved the
	 * thread already (into a stub, or onto a syscall it opened the
	 * selector for) when it died: then the thread goes on from there.
	 */
1:	mov	SI_CALL_ADDR(%rsi), %rax
	cmp	%rax, UC_RIP(%rdx)
	jne	3f
	subq	$2, UC_RIP(%rdx)
3:	ret
2:	push	%r12
	sub	$32, %rsp			/* a zeroed sigaction: SIG_DFL */
	movq	$0, (%rsp)
	movq	$0, 8(%rsp)
	movq	$0, 16(%rsp)
	movq	$0, 24(%rsp)
	mov	$SIGSYS, %edi
	mov	%rsp, %rsi
	xor	%edx, %edx
	mov	$8, %r10d
	mov	$SYS_rt_sigaction, %eax
	syscall
	add	$32, %rsp
	mov	$SYS_getpid, %eax
	syscall
	mov	%rax, %r12
	mov	$SYS_gettid, %eax
	syscall
	mov	%r12, %rdi
	mov	%rax, %rsi
	mov	$SIGSYS, %edx
	mov	$SYS_tgkill, %eax
	syscall
	pop	%r12
	ret

urec_blob_restorer:
	mov	$15, %eax			/* rt_sigreturn */
	syscall

/* urec_blob_gadget: any syscall the tracer sets up, then a trap. */
urec_blob_gadget:
	syscall
	int3

.Lname:
	.asciz	"utrace-record"
urec_blob_end:
	.section .note.GNU-stack, "", @progbits
