// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The command's thread-id map (tools/utrace/util/tidmap.c) against a plain
 * array: random puts, replaces, deletes and filters over ids that collide
 * in the buckets, through several growths, give what the array holds.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "util/tidmap.h"

#define IDS 5000

static bool drop_odd(pid_t tid, void *v, void *arg)
{
	int *dropped = arg;

	if ((uintptr_t)v & 1) {
		(*dropped)++;
		return true;
	}
	return false;
}

TEST(tidmap_as_an_array)
{
	static uintptr_t want[IDS];
	struct tidmap m = { 0 };
	size_t n = 0;
	int i, dropped = 0;

	CHECK(tidmap_get(&m, 1) == NULL);
	CHECK(tidmap_del(&m, 1) == NULL);
	srand(7);
	for (i = 0; i < 200000; i++) {
		/* Ids 1024 apart share a bucket at every size. */
		int k = rand() % IDS;
		pid_t tid = (pid_t)(k * 1024 + 1);

		switch (rand() % 3) {
		case 0:
		case 1:
			if (!want[k])
				n++;
			want[k] = (uintptr_t)rand() | 0x100;
			CHECK_EQ(tidmap_put(&m, tid, (void *)want[k]), 0);
			break;
		case 2:
			CHECK(tidmap_del(&m, tid) == (void *)want[k]);
			if (want[k])
				n--;
			want[k] = 0;
			break;
		}
	}
	CHECK_EQ(m.n, n);
	for (i = 0; i < IDS; i++)
		CHECK(tidmap_get(&m, (pid_t)(i * 1024 + 1)) ==
		      (void *)want[i]);
	tidmap_filter(&m, drop_odd, &dropped);
	for (i = 0; i < IDS; i++) {
		if (want[i] & 1) {
			want[i] = 0;
			n--;
		}
		CHECK(tidmap_get(&m, (pid_t)(i * 1024 + 1)) ==
		      (void *)want[i]);
	}
	CHECK(dropped > 0);
	CHECK_EQ(m.n, n);
	tidmap_clear(&m);
	CHECK_EQ(m.n, (size_t)0);
	CHECK(tidmap_get(&m, 1025) == NULL);
	CHECK_EQ(tidmap_put(&m, 1025, &m), 0);
	CHECK(tidmap_get(&m, 1025) == &m);
	tidmap_clear(&m);
}

int main(void)
{
	return test_main();
}
