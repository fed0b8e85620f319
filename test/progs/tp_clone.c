/*
 * tp_clone: threads made by the clone and clone3 system calls themselves,
 * each on a stack of its own, no pthreads and no libc in the threads.
 * Each thread makes PER getppid() and PER/4 markers of its own; the main
 * thread waits for each through CLONE_CHILD_CLEARTID.  Exit status 3.
 */
#include "tp_common.h"
#include <linux/sched.h>
#include <sched.h>
#include <stdint.h>
#include <sys/mman.h>

#define NCLONE	4
#define PER	100
#define STACK	(64 * 1024)

struct th {
	int tag;
	volatile int tid;	/* CLONE_PARENT_SETTID, CLONE_CHILD_CLEARTID */
	long bad;		/* getppid() results that were not ours */
	long ppid;
};

static int thread_fn(void *arg)
{
	struct th *t = arg;

	for (int i = 0; i < PER; i++) {
		if (tp_raw0(SYS_getppid) != t->ppid)
			t->bad++;
		if (i % 4 == 0)
			tp_mark(t->tag);
	}
	return 0;
}

static void *stack(void)
{
	void *s = mmap(NULL, STACK, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

	if (s == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return s;
}

int main(void)
{
	const unsigned long flags = CLONE_VM | CLONE_FS | CLONE_FILES |
		CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM |
		CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;
	struct th th[NCLONE + 1];
	struct clone_args ca;
	long r, bad = 0;
	int n3 = 0;

	for (int i = 0; i <= NCLONE; i++) {
		th[i].tag = 1200 + i;
		th[i].tid = 0;
		th[i].bad = 0;
		th[i].ppid = getppid();
	}
	for (int i = 0; i < NCLONE; i++) {
		r = tp_clone_raw(flags, (char *)stack() + STACK,
				 (int *)&th[i].tid, (int *)&th[i].tid, 0,
				 thread_fn, &th[i]);
		if (r < 0) {
			printf("clone: %s\n", strerror(-r));
			return 1;
		}
	}
	memset(&ca, 0, sizeof(ca));
	ca.flags = flags;
	ca.parent_tid = (uintptr_t)&th[NCLONE].tid;
	ca.child_tid = (uintptr_t)&th[NCLONE].tid;
	ca.stack = (uintptr_t)stack();
	ca.stack_size = STACK;
	r = tp_clone3_raw(&ca, sizeof(ca), thread_fn, &th[NCLONE]);
	if (r >= 0)
		n3 = 1;
	else if (r != -ENOSYS) {
		printf("clone3: %s\n", strerror(-r));
		return 1;
	}
	for (int i = 0; i < NCLONE + n3; i++) {
		tp_join_raw(&th[i].tid);
		bad += th[i].bad;
	}
	printf("clone: %d threads by clone on their own stacks, %ld wrong "
	       "getppid results\n", NCLONE, bad);
	printf("clone3: %s\n", n3 ? "one thread" : "not in this kernel");

	/* getppid: PER per thread, and main's NCLONE + 1 before. */
	tp_expect((NCLONE + n3) * PER + NCLONE + 1, "getppid\\(\\) = \\d+");
	for (int i = 0; i < NCLONE + n3; i++)
		tp_expect(PER / 4, TP_MARK, (long)th[i].tag);
	tp_expect(NCLONE, "clone\\(child_stack=0x[0-9a-f]+, flags=.*"
		  "CLONE_THREAD.*\\) = \\d+");
	tp_expect(n3, "clone3\\(\\{flags=.*CLONE_THREAD.*\\) = \\d+");
	tp_expect(NCLONE + n3, "\\+\\+\\+ exited with 0 \\+\\+\\+");
	tp_expect_write();
	fflush(stdout);
	return 3;
}
