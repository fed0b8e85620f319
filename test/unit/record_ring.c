/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The ring reader of the in-process record path (src/record/ring.h) fed
 * what a hostile traced program could write: random bytes, random head and
 * tail, valid rings with single corrupted fields.  It must never read or
 * write outside the slot, never loop, and hand out only records whose size
 * and type passed its checks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "record/layout.h"
#include "record/ring.h"

static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* Read the slot's ring dry; check what comes out. */
static int read_dry(char *slot)
{
	static struct utrace__rrec r;
	size_t len;
	int n = 0;

	/* at most one record per 8 bytes of ring: bounded */
	for (int i = 0; i <= UREC_RING_SIZE / 8; i++) {
		uint64_t tsc;
		int k = utrace__rec_peek(slot, NULL, &len, &tsc);

		if (k > 0)
			k = utrace__rec_peek(slot, &r, &len, NULL);

		if (k <= 0)
			return n;
		CHECK(r.type == UREC_T_ENTRY || r.type == UREC_T_EXIT);
		CHECK(r.size >= (r.type == UREC_T_ENTRY ? UREC_ENTRY_SIZE :
							  UREC_EXIT_SIZE));
		CHECK(r.size <= UREC_REC_MAX && r.size % 8 == 0);
		CHECK(len >= r.size && len <= UREC_RING_SIZE);
		utrace__rec_consume(slot, len);
		n++;
	}
	CHECK(!"the reader did not stop");
	return n;
}

static void put_rec(char *ring, uint64_t *head, uint32_t type)
{
	uint32_t size = type == UREC_T_ENTRY ? UREC_ENTRY_SIZE : UREC_EXIT_SIZE;
	size_t off = *head % UREC_RING_SIZE;

	if (off + size > UREC_RING_SIZE) {
		uint32_t pad[2] = { (uint32_t)(UREC_RING_SIZE - off),
				    UREC_T_PAD };

		memcpy(ring + off, pad, sizeof(pad));
		*head += pad[0];
		off = 0;
	}
	for (uint32_t i = 8; i < size; i++)
		ring[off + i] = (char)rnd();
	memcpy(ring + off, &size, 4);
	memcpy(ring + off + 4, &type, 4);
	*head += size;
}

TEST(ring_random_bytes)
{
	char *slot = malloc(UREC_SLOT_SIZE);

	CHECK(slot != NULL);
	for (int round = 0; round < 300; round++) {
		for (size_t i = 0; i < UREC_SLOT_SIZE; i += 8) {
			uint64_t v = rnd();

			/* mostly small words: sizes and types that nearly pass */
			if (round % 3 == 0)
				v &= 0x000001ff000001ffULL;
			memcpy(slot + i, &v, 8);
		}
		read_dry(slot);
	}
	free(slot);
}

TEST(ring_valid_then_corrupted)
{
	char *slot = malloc(UREC_SLOT_SIZE);

	CHECK(slot != NULL);
	for (int round = 0; round < 200; round++) {
		uint64_t head, start = rnd() % (4 * UREC_RING_SIZE) & ~7ULL;
		int n = 0, got;

		memset(slot, 0, UREC_SLOT_SIZE);
		memcpy(slot + UREC_S_TAIL, &start, 8);
		head = start;
		while (head - start < UREC_RING_SIZE - 2 * UREC_ENTRY_SIZE) {
			put_rec(slot + UREC_SLOT_HDR, &head,
				n % 2 ? UREC_T_EXIT : UREC_T_ENTRY);
			n++;
		}
		memcpy(slot + UREC_S_HEAD, &head, 8);
		if (round % 2) {
			/* one field anywhere in the ring */
			size_t at = rnd() % (UREC_RING_SIZE / 4) * 4;
			uint32_t v = (uint32_t)rnd() % 512;

			memcpy(slot + UREC_SLOT_HDR + at, &v, 4);
			read_dry(slot);
			continue;
		}
		got = read_dry(slot);
		CHECK_EQ(got, n);
	}
	free(slot);
}

/*
 * Records with captures: random capture headers after a fixed part; every
 * capture the reader keeps lies inside the record, and reads from them stay
 * inside what they hold.
 */
TEST(ring_captures_random)
{
	static struct utrace__rrec r;
	unsigned char *buf = NULL;
	struct utrace__cap caps[UREC_NRULES];

	for (int round = 0; round < 2000; round++) {
		size_t base = round % 2 ? UREC_ENTRY_SIZE : UREC_EXIT_SIZE;
		unsigned n;

		r.size = (uint32_t)(base + rnd() % (UREC_REC_MAX - base + 64));
		for (size_t i = base; i + 8 <= sizeof(r.raw); i += 8) {
			uint64_t v = rnd();

			if (round % 3)
				v &= 0x0000ffff0000ffffULL;
			memcpy(r.raw + i, &v, 8);
		}
		n = utrace__rec_caps(&r, base, caps, &buf);
		CHECK(n <= UREC_NRULES);
		for (unsigned i = 0; i < n; i++) {
			unsigned char out[64];
			ssize_t k;

			CHECK(caps[i].off >= base + UREC_C_HDR);
			CHECK((size_t)caps[i].off + caps[i].len <= r.size);
			k = utrace__rec_cap_read(caps, n, buf,
						 caps[i].addr + caps[i].len / 2,
						 out, sizeof(out));
			CHECK(k == -ENODATA || (k >= 0 && k <= 64));
		}
		CHECK_EQ(utrace__rec_cap_read(caps, 0, buf, 0, NULL, 1),
			 -ENODATA);
	}
	free(buf);
}

int main(void)
{
	return test_main();
}
