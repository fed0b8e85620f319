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
#include <fcntl.h>
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
 * runner reports it as "ok - name # SKIP why", never as a silent pass.  77
 * is the exit status automake and liburing use for the same purpose.  The
 * reason goes to the runner through a pipe (test_skip_fd, the test's child
 * only), so that the TAP line itself names what is missing.
 */
#define TEST_SKIP_STATUS 77
static int test_skip_fd = -1;
#define SKIP(why) do {							\
	const char *_why = (why);					\
									\
	fprintf(stderr, "# skipped: %s\n", _why);			\
	fflush(NULL);							\
	if (test_skip_fd >= 0 &&					\
	    write(test_skip_fd, _why, strlen(_why)) < 0)		\
		perror("# the reason of a skip");			\
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

/*
 * Run one case in its own child; 0 passed, 1 failed, TEST_SKIP_STATUS
 * skipped with the reason in @why (NUL-terminated), -1 when it could not
 * run.
 */
static inline int test_run_one(const struct test_case *tc, char *why,
			       size_t whylen)
{
	int p[2], st;
	ssize_t n;
	pid_t pid;

	why[0] = '\0';
	fflush(NULL);
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		/* Own process group: a timeout kills the test and its tracees. */
		setpgid(0, 0);
		close(p[0]);
		test_skip_fd = p[1];
		alarm(tc->timeout * test_timeout_scale());
		tc->fn();
		fflush(NULL);
		_exit(0);
	}
	close(p[1]);
	setpgid(pid, pid);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			close(p[0]);
			return -1;
		}
	kill(-pid, SIGKILL);	/* leftovers of a failed test */
	n = read(p[0], why, whylen - 1);
	why[n > 0 ? n : 0] = '\0';
	close(p[0]);
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
		struct timespec t0, t1;
		char why[256];
		int r;

		if (only && strcmp(only, tc->name))
			continue;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		r = test_run_one(tc, why, sizeof(why));
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (r == TEST_SKIP_STATUS)
			printf("ok - %s # SKIP %s\n", tc->name,
			       why[0] ? why : "(no reason given)");
		else
			printf("%s - %s\n", r ? "not ok" : "ok", tc->name);
		failed += r != 0 && r != TEST_SKIP_STATUS;
		/* A TAP comment the runner keeps: where the suite's time goes. */
		printf("# time %s %.2f\n", tc->name,
		       (double)(t1.tv_sec - t0.tv_sec) +
		       (t1.tv_nsec - t0.tv_nsec) / 1e9);
	}
	return failed ? 1 : 0;
}

#endif
