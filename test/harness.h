/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tiny test harness: each TEST() runs in its own forked child with a
 * timeout, so one hang or crash does not take the file down.  A test binary
 * prints "ok - name" / "not ok - name" lines; test/run-tests numbers them
 * into one TAP stream and ends with "N passed, N failed".
 *
 *	TEST(name) { CHECK(x == 1); CHECK_EQ(a, b); }
 *	int main(void) { return test_main(); }
 */
#ifndef UTRACE_TEST_HARNESS_H
#define UTRACE_TEST_HARNESS_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef TEST_TIMEOUT
#define TEST_TIMEOUT 30		/* seconds per test */
#endif
#define TEST_MAX 256

struct test_case {
	const char *name;
	void (*fn)(void);
	int timeout;
};
static struct test_case test_cases[TEST_MAX];
static int test_ncases;

#define TEST_T(name, secs)						\
	static void test_##name(void);					\
	__attribute__((constructor)) static void test_reg_##name(void)	\
	{								\
		if (test_ncases < TEST_MAX)				\
			test_cases[test_ncases++] = (struct test_case){	\
				#name, test_##name, secs };		\
	}								\
	static void test_##name(void)
#define TEST(name) TEST_T(name, TEST_TIMEOUT)

/* A failed check prints where and exits the test's child with status 1. */
#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "# %s:%d: CHECK(%s) failed\n",		\
			__FILE__, __LINE__, #cond);			\
		exit(1);						\
	}								\
} while (0)

#define CHECK_EQ(a, b) do {						\
	long long _a = (long long)(a), _b = (long long)(b);		\
	if (_a != _b) {							\
		fprintf(stderr, "# %s:%d: %s == %s failed: %lld != %lld\n",\
			__FILE__, __LINE__, #a, #b, _a, _b);		\
		exit(1);						\
	}								\
} while (0)

#define CHECK_STR(a, b) do {						\
	const char *_a = (a), *_b = (b);				\
	if (!_a || !_b || strcmp(_a, _b)) {				\
		fprintf(stderr, "# %s:%d: %s == %s failed: \"%s\" != \"%s\"\n",\
			__FILE__, __LINE__, #a, #b, _a ? _a : "(null)",	\
			_b ? _b : "(null)");				\
		exit(1);						\
	}								\
} while (0)

/*
 * A test that needs something this host lacks ends with SKIP("why"): the
 * runner reports it as "ok - name # SKIP", never as a silent pass.  77 is
 * the exit status automake and liburing use for the same purpose.
 */
#define TEST_SKIP_STATUS 77
#define SKIP(why) do {							\
	fprintf(stderr, "# skipped: %s\n", (why));			\
	fflush(NULL);							\
	_exit(TEST_SKIP_STATUS);					\
} while (0)

/* Path of a tracee program built from test/progs/NAME.c. */
static inline const char *test_prog(const char *name)
{
	static char buf[8][512];
	static int slot;
	const char *o = getenv("O");
	char *p = buf[slot++ & 7];

	snprintf(p, 512, "%s/test/progs/%s", o ? o : "build", name);
	return p;
}

/*
 * TEST_TIMEOUT_SCALE=N multiplies every test's timeout: for a run where
 * each system call costs more than alone (the suite traced as a whole,
 * test/cli/ptrace-lib.sh).
 */
static inline unsigned test_timeout_scale(void)
{
	const char *v = getenv("TEST_TIMEOUT_SCALE");
	int n = v ? atoi(v) : 1;

	return n >= 1 && n <= 100 ? (unsigned)n : 1;
}

static inline int test_run_one(const struct test_case *tc)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/* Own process group: a timeout kills the test and its tracees. */
		setpgid(0, 0);
		alarm(tc->timeout * test_timeout_scale());
		tc->fn();
		fflush(NULL);
		_exit(0);
	}
	setpgid(pid, pid);
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	kill(-pid, SIGKILL);	/* leftovers of a failed test */
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "# %s: killed by signal %d%s\n", tc->name,
			WTERMSIG(st),
			WTERMSIG(st) == SIGALRM ? " (timeout)" : "");
		return 1;
	}
	if (WEXITSTATUS(st) == TEST_SKIP_STATUS)
		return TEST_SKIP_STATUS;
	return WEXITSTATUS(st) != 0;
}

static inline int test_main(void)
{
	const char *only = getenv("TEST_ONLY");
	int failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 0; i < test_ncases; i++) {
		const struct test_case *tc = &test_cases[i];

		if (only && strcmp(only, tc->name))
			continue;
		int r = test_run_one(tc);

		if (r == TEST_SKIP_STATUS) {
			printf("ok - %s # SKIP\n", tc->name);
			continue;
		}
		printf("%s - %s\n", r ? "not ok" : "ok", tc->name);
		failed += r != 0;
	}
	return failed ? 1 : 0;
}

#endif
