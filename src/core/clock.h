/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The library's one clock helper: now and deadlines, for the core and layers. */
#ifndef UTRACE_CORE_CLOCK_H
#define UTRACE_CORE_CLOCK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in milliseconds. */
static inline long utrace__now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* Clock @clk in nanoseconds. */
static inline int64_t utrace__now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * @ns nanoseconds from now on clock @clk, as an absolute time (for
 * pthread_cond_timedwait on a condition variable of that clock, and
 * pthread_timedjoin_np).
 */
static inline void utrace__deadline_ns(struct timespec *ts, clockid_t clk,
				       long ns)
{
	clock_gettime(clk, ts);
	ts->tv_sec += ns / 1000000000L;
	ts->tv_nsec += ns % 1000000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

/* @ms milliseconds from now on clock @clk (see utrace__deadline_ns). */
static inline void utrace__deadline(struct timespec *ts, clockid_t clk, long ms)
{
	utrace__deadline_ns(ts, clk, ms * 1000000L);
}

#endif
