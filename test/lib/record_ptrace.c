/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A recorded process that becomes a tracee of the ptrace emulation
 * (utrace_emulate_ptrace(3)) leaves the record path: what its emulated
 * tracer sees and steps through is the program's own code.  The program,
 * test/progs/rec_ptstep, has its getppid site rewritten while recorded,
 * then is seized by its own child, which single-steps it over that site
 * (see the program for its checks; its status is the child's).
 */
#include <sys/syscall.h>
#include "harness.h"
#include <utrace.h>
#include "tlib.h"

#define N 2000

/* user[1]: getppid exits; [3]: of them from records; [5]: the death's
   status + 1. */
static uint32_t count_hook(struct teng *te, struct tev *ev, uint32_t dflt)
{
	if (ev->kind == K_DEATH)
		te->user[5] = ev->arg + 1;
	if (ev->kind == K_SYSEXIT && ev->nr == SYS_getppid) {
		te->user[1]++;
		te->user[3] += utrace_from_record(te->e) == 1;
	}
	return dflt;
}

struct ctx {
	struct utrace_tracer *t;
	struct teng *te[8];
	int n;
};

/* Each thread of the tree: an observer on getppid, and ptrace emulated. */
static int f_attach(void *arg, pid_t tid, pid_t tgid, pid_t parent,
		    unsigned long clone_flags)
{
	struct ctx *c = arg;
	struct teng *te;
	long nr = SYS_getppid;
	int err;

	if (c->n == 8)
		return -ENOSPC;
	te = t_attach(c->t, tid, UTRACE_EVENT_SYSCALL | EV_LIFE, count_hook);
	c->te[c->n++] = te;
	err = utrace_set_syscalls(te->e, &nr, 1);
	if (!err)
		err = utrace_set_observer(te->e, true);
	if (!err)
		err = utrace_emulate_ptrace(c->t, tid);
	return err;
}

TEST_T(records_left_by_an_emulated_ptrace_tracee, 120)
{
	struct ctx c = { .t = t_tracer() };
	uint64_t st[4];
	const char *o;
	int out, r;
	pid_t pid;

	r = utrace_tracer_set_records(c.t, UTRACE_RECORDS_ON);
	if (r == -EOPNOTSUPP)
		SKIP("no syscall user dispatch for tracers (Linux 6.11) or no FSGSBASE");
	CHECK_EQ(r, 0);
	CHECK_EQ(utrace_set_capture(c.t, SYS_getppid, NULL, 0), 0);
	pid = t_spawn(c.t, &out, "rec_ptstep", "2000", "3000", NULL);
	/* the program's engines here, its child's from the follow */
	CHECK_EQ(f_attach(&c, pid, pid, 0, 0), 0);
	CHECK_EQ(utrace_follow(c.t, pid, UTRACE_WATCH_PROCESS |
			       UTRACE_WATCH_CHILDREN, f_attach, &c),
		 0);
	t_run(c.t);
	o = t_read_all(out);
	if (!strstr(o, "steps 3000 syscalls "))
		printf("# output: %s n %d status %#lx exits %ld\n", o, c.n,
		       c.te[0]->user[5], c.te[0]->user[1]);
	CHECK(strstr(o, "steps 3000 syscalls ") != NULL);
	CHECK(c.n >= 2);
	/* its getppid site was rewritten, and recorded from ... */
	CHECK_EQ(utrace_tracer_record_stats(c.t, st, 4), 4);
	CHECK(st[2] > 0);
	CHECK(c.te[0]->user[3] >= N / 2);
	/* ... then stopped for once it was a tracee (the stepped ones) */
	CHECK(c.te[0]->user[1] > c.te[0]->user[3]);
	CHECK(c.te[0]->user[5] != 0);
	CHECK(WIFEXITED(c.te[0]->user[5] - 1));
	CHECK_EQ(WEXITSTATUS(c.te[0]->user[5] - 1), 0);
	utrace_tracer_free(c.t);
}

int main(void)
{
	return test_main();
}
