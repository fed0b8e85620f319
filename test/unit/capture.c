// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The CLI's capture rules (tools/utrace/decode/capture.c) against its
 * decoders: every syscall that has rules is decoded, at entry and at exit,
 * with random arguments, results and memory, the way each option that
 * changes what is read asks (-s, -v, -e verbose=, -X), and every read the
 * decoder makes of memory that exists must fall inside what a rule of
 * that moment takes (dec_capture_covers).  A read outside the rules is
 * one a record could not answer as the stopped thread would: its line
 * would differ on the record path.  Memory below 64 KiB does not exist
 * here (it cannot be read either way).  Also: the hot syscalls of the
 * workloads of issue #23 have rules, and the coverage check itself.
 */
#include <sys/syscall.h>

#include "harness.h"
#include "decode/capture.h"
#include "decode/decoders.h"

#define LOW	0x10000UL	/* below: no memory */

struct fuzz {
	uint64_t rng;
	struct dcap r[DCAP_MAX];
	int n;
	struct dec_ctx *c;
	unsigned long raw[6];
	int fill;		/* the memory: 0 random, 1 zeros, 2 small bytes */
	long bad;		/* reads outside the rules */
	char what[256];
};

static uint64_t next(struct fuzz *f)
{
	f->rng ^= f->rng << 13;
	f->rng ^= f->rng >> 7;
	f->rng ^= f->rng << 17;
	return f->rng;
}

/* The same bytes at the same address within one call. */
static unsigned char byte_at(const struct fuzz *f, uint64_t addr)
{
	uint64_t h = (addr + 0x9e3779b97f4a7c15ULL * (f->rng | 1)) *
		     0xbf58476d1ce4e5b9ULL;

	h ^= h >> 31;
	if (f->fill == 1)
		return 0;
	if (f->fill == 2)
		return (unsigned char)(h % 24);	/* short records, lengths */
	return (unsigned char)h;
}

static ssize_t fake_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct fuzz *f = ctx;
	unsigned char *b = buf;

	if (addr < LOW || addr + len < addr)
		return -EFAULT;
	if (!dec_capture_covers(f->r, f->n, f->raw, f->c->ret,
				f->c->exiting, addr, len)) {
		if (f->bad++ < 8)
			fprintf(stderr, "# %s: %zu bytes at %#llx, at %s\n",
				f->what, len, (unsigned long long)addr,
				f->c->exiting ? "exit" : "entry");
	}
	for (size_t i = 0; i < len; i++)
		b[i] = byte_at(f, addr + i);
	return (ssize_t)len;
}

/* An argument: an address, a small number, a flag word, a negative ... */
static unsigned long arg_value(struct fuzz *f, int i)
{
	switch (next(f) % 8) {
	case 0: case 1: case 2:
		return 0x7f0000000000UL + (unsigned long)i * 0x100000 +
		       next(f) % 8192;
	case 3:
		return next(f) % 64;
	case 4:
		return next(f) % 2048;
	case 5:
		return (unsigned long)-(long)(next(f) % 200);
	case 6:
		return 1UL << (next(f) % 32);
	default:
		return (unsigned long)next(f);
	}
}

static long ret_value(struct fuzz *f)
{
	switch (next(f) % 6) {
	case 0:
		return -(long)(1 + next(f) % 133);
	case 1:
		return -(long)(512 + next(f) % 5);	/* -ERESTART* */
	case 2:
		return 0;
	case 3:
		return (long)(next(f) % 64);
	case 4:
		return (long)(next(f) % 40000);
	default:
		return (long)(next(f) % 100000000);
	}
}

static void one(struct fuzz *f, long nr, const struct dcap_how *how,
		int xlat)
{
	struct dec_ctx *c = f->c;
	struct sbuf out = { 0 };

	f->n = dec_capture(nr, how, f->r);
	if (f->n < 0)
		return;
	dec_clear(c);
	c->nr = nr;
	c->tid = 1;
	c->strsize = how->strsize;
	c->no_abbrev = how->no_abbrev;
	c->hide_structs = how->hide_structs;
	c->raw = how->raw;
	c->xlat_style = xlat;
	c->out = &out;
	c->mem_read = fake_read;
	c->mem_ctx = f;
	for (int i = 0; i < 6; i++)
		f->raw[i] = c->a[i] = arg_value(f, i);
	f->fill = (int)(next(f) % 3);
	/*
	 * A whole rule's syscall is recorded only while its bound fits, and
	 * the kernel returns at most the bound.
	 */
	for (int i = 0; i < f->n; i++)
		if (f->r[i].whole && f->raw[f->r[i].len_arg] > f->r[i].len)
			f->raw[f->r[i].len_arg] = c->a[f->r[i].len_arg] =
				next(f) % (f->r[i].len + 1);
	snprintf(f->what, sizeof(f->what), "%s(%#lx, %#lx, %#lx, %#lx, %#lx, "
		 "%#lx) -s %d%s%s", sys_name(nr), f->raw[0], f->raw[1],
		 f->raw[2], f->raw[3], f->raw[4], f->raw[5], how->strsize,
		 how->no_abbrev ? " -v" : "",
		 how->hide_structs ? " -e verbose=none" : "");
	dec_begin(c);
	if (!decode_syscall(c)) {
		c->ret = ret_value(f);
		for (int i = 0; i < f->n; i++)
			if (f->r[i].whole && c->ret > 0 &&
			    (unsigned long)c->ret > f->raw[f->r[i].len_arg])
				c->ret = (long)f->raw[f->r[i].len_arg];
		c->exiting = true;
		memcpy(c->a, f->raw, sizeof(c->a));
		decode_syscall(c);
	}
	sb_free(&out);
}

TEST_T(decoders_read_only_what_their_rules_take, 300)
{
	static const int sizes[] = { 0, 2, 32, 300 };
	struct dec_ctx *c = calloc(1, sizeof(*c));
	struct fuzz f = { .rng = 0x2545f4914f6cdd1dULL, .c = c };
	long with_rules = 0, calls = 0;

	CHECK(c);
	for (long nr = 0; nr < NR_SYSENT; nr++) {
		if (!sys_ent(nr))
			continue;
		for (int v = 0; v < 32; v++) {
			struct dcap_how how = {
				.strsize = sizes[v % 4],
				.no_abbrev = v & 4,
				.hide_structs = v & 8,
				.limit = 16384,
				.whole = v & 16,
			};
			struct dcap r[DCAP_MAX];

			if (dec_capture(nr, &how, r) < 0)
				continue;
			with_rules += v == 16;
			for (int k = 0; k < 60; k++, calls++)
				one(&f, nr, &how, k % 3 ? DEC_XLAT_ABBREV :
				    DEC_XLAT_VERBOSE);
		}
	}
	fprintf(stderr, "# %ld syscalls with rules, %ld calls decoded, %ld "
		"reads outside the rules\n", with_rules, calls, f.bad);
	CHECK(with_rules > 200);
	CHECK_EQ(f.bad, 0);
	free(c);
}

/*
 * The hot syscalls of issue #23's workloads (strace -c of find, tar,
 * python3's start-up and a shell loop) have rules as utrace prints them
 * by default, given whole rules of 32 KiB (getdents64's 32 KiB buffer).
 */
TEST(hot_syscalls_have_rules)
{
	static const long hot[] = {
		SYS_getdents64, SYS_close, SYS_fcntl, SYS_newfstatat,
		SYS_openat, SYS_readlinkat, SYS_mmap, SYS_read, SYS_lseek,
		SYS_mprotect, SYS_brk, SYS_pread64, SYS_prlimit64,
		SYS_set_robust_list, SYS_munmap, SYS_write, SYS_fstat,
		SYS_getppid, SYS_access, SYS_getrandom, SYS_futex,
		SYS_set_tid_address, SYS_rseq, SYS_statx, SYS_getcwd,
		SYS_uname, SYS_dup2, SYS_pipe2, SYS_getpid, SYS_wait4,
	};
	struct dcap_how how = { .strsize = 32, .limit = 32768, .whole = true };
	struct dcap r[DCAP_MAX];

	for (size_t i = 0; i < sizeof(hot) / sizeof(hot[0]); i++) {
		int n = dec_capture(hot[i], &how, r);

		if (n < 0)
			fprintf(stderr, "# %s: no rules\n", sys_name(hot[i]));
		CHECK(n >= 0);
	}
	/* without whole rules getdents64 cannot be recorded exactly */
	how.whole = false;
	CHECK_EQ(dec_capture(SYS_getdents64, &how, r), -1);
	/* nor -s above what a rule takes */
	how.strsize = 20000;
	how.limit = 16384;
	CHECK_EQ(dec_capture(SYS_read, &how, r), -1);
	/* nor a dumped write */
	how.strsize = 32;
	how.dumps = true;
	CHECK_EQ(dec_capture(SYS_write, &how, r), -1);
}

TEST(covers)
{
	/* read(3, buf, 100) = 10 with -s 32: the result's bytes, at exit */
	struct dcap r[DCAP_MAX];
	struct dcap_how how = { .strsize = 32, .limit = 16384 };
	unsigned long a[6] = { 3, 0x10000, 100 };

	CHECK_EQ(dec_capture(SYS_read, &how, r), 1);
	CHECK(dec_capture_covers(r, 1, a, 10, true, 0x10000, 10));
	CHECK(dec_capture_covers(r, 1, a, 10, true, 0x10004, 6));
	CHECK(!dec_capture_covers(r, 1, a, 10, true, 0x10000, 11));
	CHECK(!dec_capture_covers(r, 1, a, 10, false, 0x10000, 1));
	CHECK(!dec_capture_covers(r, 1, a, 100, true, 0x10000, 33));
	CHECK(!dec_capture_covers(r, 1, a, -14, true, 0x10000, 1));
	/* openat's path at entry only */
	CHECK_EQ(dec_capture(SYS_openat, &how, r), 1);
	a[1] = 0x20000;
	CHECK(dec_capture_covers(r, 1, a, 3, false, 0x20000, 4097));
	CHECK(!dec_capture_covers(r, 1, a, 3, false, 0x20000, 4098));
	CHECK(!dec_capture_covers(r, 1, a, 3, true, 0x20000, 1));
	/* -e raw=: nothing read */
	how.raw = true;
	CHECK_EQ(dec_capture(SYS_openat, &how, r), 0);
	/* the state changes -y and -yy wait for */
	CHECK_EQ(dec_state_change(SYS_close), DSTATE_FDS);
	CHECK_EQ(dec_state_change(SYS_connect), DSTATE_SOCKETS);
	CHECK_EQ(dec_state_change(SYS_read), 0);
}

int main(void)
{
	return test_main();
}
