// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The library's one ptrace permission rule (src/core/creds.c), which the
 * emulated ptrace, the sharing socket and the gdb port all ask: first
 * without processes, ptrace_may_access(PTRACE_MODE_ATTACH_REALCREDS) and
 * the PTRACE_TRACEME checks from given credentials, for every Yama scope,
 * so that the scopes a host without Yama cannot show are checked too
 * (test/progs/pt_perm checks the same against the kernel where it can);
 * then utrace_cred_read and utrace_may_ptrace on real processes.
 */
#include <grp.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "harness.h"
#include "core/creds.h"

#define SYS_PTRACE_BIT	(1ULL << 19)	/* CAP_SYS_PTRACE */
#define ALL_CAPS	0x1ffffffffffULL

static void ids(struct utrace_cred *c, unsigned uid, unsigned gid, uint64_t prm)
{
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->userns_dev = 1;
	c->userns_ino = 1;
	for (int i = 0; i < 4; i++) {
		c->uid[i] = uid;
		c->gid[i] = gid;
	}
	c->cap_prm = c->cap_eff = prm;
}

/* A caller and target of the same user namespace, Yama absent. */
static struct utrace__access acc(unsigned cuid, uint64_t cprm, unsigned tuid,
			    uint64_t tprm)
{
	struct utrace__access a;

	memset(&a, 0, sizeof(a));
	ids(&a.caller, cuid, cuid, cprm);
	ids(&a.target, tuid, tuid, tprm);
	a.cap_over_target = cprm & SYS_PTRACE_BIT;
	a.dumpable = true;
	a.yama = -1;
	return a;
}

TEST(attach_ids_and_capability)
{
	struct utrace__access a;

	/* LTP ptrace02: nobody and a root target. */
	a = acc(65534, 0, 0, ALL_CAPS);
	CHECK_EQ(utrace__may_attach(&a), -EPERM);
	/* The same uid, no capabilities either side. */
	a = acc(65534, 0, 65534, 0);
	CHECK_EQ(utrace__may_attach(&a), 0);
	/* The filesystem ids and the groups do not count. */
	a = acc(65534, 0, 65534, 0);
	a.target.uid[3] = a.target.gid[3] = 0;
	a.target.ngroups = 1;
	CHECK_EQ(utrace__may_attach(&a), 0);
	/* A namespace not known (0) is no one's. */
	a.caller.userns_ino = a.target.userns_ino = 0;
	a.caller.userns_dev = a.target.userns_dev = 0;
	CHECK_EQ(utrace__may_attach(&a), -EPERM);
	/* Root with every capability: anyone. */
	a = acc(0, ALL_CAPS, 65534, 0);
	CHECK_EQ(utrace__may_attach(&a), 0);
	/* A target whose saved uid differs (a set-user-ID program). */
	a = acc(1000, 0, 1000, 0);
	a.target.uid[2] = 0;
	CHECK_EQ(utrace__may_attach(&a), -EPERM);
	/* ... or effective gid, or saved gid (set-group-ID). */
	a = acc(1000, 0, 1000, 0);
	a.target.gid[1] = 42;
	CHECK_EQ(utrace__may_attach(&a), -EPERM);
	a = acc(1000, 0, 1000, 0);
	a.target.gid[2] = 5;
	CHECK_EQ(utrace__may_attach(&a), -EPERM);
	/* The capability over the target's namespace overrides the ids. */
	a.cap_over_target = true;
	CHECK_EQ(utrace__may_attach(&a), 0);
	/* REALCREDS: the caller's effective uid does not count. */
	a = acc(1000, 0, 0, 0);
	a.caller.uid[1] = a.caller.uid[3] = 0;
	CHECK_EQ(utrace__may_attach(&a), -EPERM);
}

TEST(attach_root_without_cap_sys_ptrace)
{
	struct utrace__access a;

	/* The target's permitted set is not within the caller's. */
	a = acc(0, ALL_CAPS & ~SYS_PTRACE_BIT, 0, ALL_CAPS);
	CHECK_EQ(utrace__may_attach(&a), -EPERM);
	/* It is: the same uid suffices. */
	a = acc(0, ALL_CAPS & ~SYS_PTRACE_BIT, 0, ALL_CAPS & ~SYS_PTRACE_BIT);
	CHECK_EQ(utrace__may_attach(&a), 0);
	/* Across user namespaces only the capability helps. */
	a.target.userns_ino = 2;
	CHECK_EQ(utrace__may_attach(&a), -EPERM);
	a.cap_over_target = true;
	CHECK_EQ(utrace__may_attach(&a), 0);
}

TEST(attach_not_dumpable)
{
	struct utrace__access a = acc(65534, 0, 65534, 0);

	a.dumpable = false;
	CHECK_EQ(utrace__may_attach(&a), -EPERM);
	a = acc(0, ALL_CAPS, 65534, 0);
	a.dumpable = false;
	CHECK_EQ(utrace__may_attach(&a), 0);
}

TEST(attach_yama_scopes)
{
	struct utrace__access a = acc(65534, 0, 65534, 0);

	a.yama = 0;
	CHECK_EQ(utrace__may_attach(&a), 0);
	/* 1: a descendant, or named with PR_SET_PTRACER, or the capability */
	a.yama = 1;
	CHECK_EQ(utrace__may_attach(&a), -EPERM);
	a.descendant = true;
	CHECK_EQ(utrace__may_attach(&a), 0);
	a.descendant = false;
	a.exception = true;
	CHECK_EQ(utrace__may_attach(&a), 0);
	a.exception = false;
	/* 2: the capability only */
	a.yama = 2;
	a.descendant = a.exception = true;
	CHECK_EQ(utrace__may_attach(&a), -EPERM);
	a = acc(0, ALL_CAPS, 65534, 0);
	a.yama = 2;
	CHECK_EQ(utrace__may_attach(&a), 0);
	a.yama = 1;
	CHECK_EQ(utrace__may_attach(&a), 0);
	/* 3: nobody, root neither */
	a.yama = 3;
	CHECK_EQ(utrace__may_attach(&a), -EPERM);
	/* Yama never overrides the ids: still refused. */
	a = acc(65534, 0, 0, ALL_CAPS);
	a.yama = 1;
	a.descendant = true;
	CHECK_EQ(utrace__may_attach(&a), -EPERM);
}

TEST(traceme)
{
	struct utrace__access a;

	/* Caller nobody, parent root: no uid rule for TRACEME. */
	a = acc(65534, 0, 0, ALL_CAPS);
	a.cap_over_target = true;	/* the parent's capability */
	CHECK_EQ(utrace__may_traceme(&a), 0);
	/* A caller with capabilities its parent lacks. */
	a = acc(0, ALL_CAPS, 65534, 0);
	a.cap_over_target = false;
	CHECK_EQ(utrace__may_traceme(&a), -EPERM);
	/* Yama: 1 changes nothing, 2 wants the parent's capability, 3 no. */
	a = acc(65534, 0, 65534, 0);
	a.cap_over_target = false;
	a.yama = 1;
	CHECK_EQ(utrace__may_traceme(&a), 0);
	a.yama = 2;
	CHECK_EQ(utrace__may_traceme(&a), -EPERM);
	a.cap_over_target = true;
	CHECK_EQ(utrace__may_traceme(&a), 0);
	a.yama = 3;
	CHECK_EQ(utrace__may_traceme(&a), -EPERM);
}

/* The credentials /proc gives for this process, read as the checks do. */
TEST(cred_read_self)
{
	struct utrace_cred c;

	CHECK_EQ(utrace_cred_read(getpid(), &c), 0);
	CHECK_EQ(c.size, sizeof(c));
	CHECK_EQ(c.pid, getpid());
	CHECK_EQ(c.uid[0], getuid());
	CHECK_EQ(c.uid[1], geteuid());
	CHECK_EQ(c.gid[0], getgid());
	CHECK_EQ(c.ngroups, getgroups(0, NULL) > UTRACE_CRED_NGROUPS ?
			    UTRACE_CRED_NGROUPS : getgroups(0, NULL));
	CHECK(c.userns_ino != 0);
	CHECK_EQ(utrace__capable(&c, 19, getpid()),
		 !!(c.cap_eff & SYS_PTRACE_BIT));
	CHECK_EQ(utrace_cred_read(-1, &c), -ESRCH);
	CHECK_EQ(utrace_cred_read(getpid(), NULL), -EINVAL);
	/* Itself, every thread of itself; bad arguments. */
	CHECK_EQ(utrace_cred_read(getpid(), &c), 0);
	CHECK_EQ(utrace_may_ptrace(&c, getpid(), 0), 0);
	CHECK_EQ(utrace_may_ptrace(&c, getpid(), UTRACE_MAY_PROCESS), 0);
	CHECK_EQ(utrace_may_ptrace(&c, getpid(), 0x2), -EINVAL);
	CHECK_EQ(utrace_may_ptrace(NULL, getpid(), 0), -EINVAL);
	c.size = 1;
	CHECK_EQ(utrace_may_ptrace(&c, getpid(), 0), -EINVAL);
}

/*
 * A child of @uid that says so on a pipe and waits to be killed; not
 * dumpable unless @dumpable.
 */
static pid_t child_as(uid_t uid, bool dumpable)
{
	int p[2];
	pid_t pid;
	char ch;

	CHECK_EQ(pipe(p), 0);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
		    setresuid(uid, uid, uid) ||
		    prctl(PR_SET_DUMPABLE, dumpable ? 1 : 0))
			_exit(1);
		if (write(p[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	CHECK_EQ(read(p[0], &ch, 1), 1);
	close(p[0]);
	return pid;
}

static void end(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * The rule on real processes, as a second uid sees them: nobody may not
 * ptrace root (LTP's ptrace02), may ptrace a dumpable nobody, not one
 * that is not dumpable; root with CAP_SYS_PTRACE may ptrace them all.
 */
TEST(may_ptrace_as_another_uid)
{
	struct utrace_cred root, nobody;
	pid_t who, open_one, closed_one;

	if (geteuid() != 0)
		SKIP("not root: no second uid to become");
	who = child_as(65534, true);
	open_one = child_as(65534, true);
	closed_one = child_as(65534, false);
	CHECK_EQ(utrace_cred_read(who, &nobody), 0);
	CHECK_EQ(nobody.uid[0], 65534);
	CHECK_EQ(nobody.cap_prm, 0);
	CHECK_EQ(utrace_may_ptrace(&nobody, getpid(), UTRACE_MAY_PROCESS),
		 -EPERM);
	CHECK_EQ(utrace_may_ptrace(&nobody, closed_one, 0), -EPERM);
	if (utrace__yama_scope() <= 0)
		CHECK_EQ(utrace_may_ptrace(&nobody, open_one, 0), 0);
	else
		CHECK_EQ(utrace_may_ptrace(&nobody, open_one, 0), -EPERM);
	CHECK_EQ(utrace_cred_read(getpid(), &root), 0);
	if (root.cap_eff & SYS_PTRACE_BIT) {
		CHECK_EQ(utrace_may_ptrace(&root, closed_one,
					   UTRACE_MAY_PROCESS), 0);
		CHECK_EQ(utrace_may_ptrace(&root, open_one, 0), 0);
	}
	end(who);
	end(open_one);
	end(closed_one);
	CHECK_EQ(utrace_may_ptrace(&root, closed_one, 0), -ESRCH);
}

int main(void)
{
	return test_main();
}
