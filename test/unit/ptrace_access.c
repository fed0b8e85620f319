// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The emulated ptrace's permission decisions (src/ptrace/creds.c) without
 * processes: ptrace_may_access(PTRACE_MODE_ATTACH_REALCREDS) and the
 * PTRACE_TRACEME checks from given credentials, for every Yama scope, so
 * that the scopes a host without Yama cannot show are checked too
 * (test/progs/pt_perm checks the same against the kernel where it can).
 */
#include "harness.h"
#include "ptrace/ptrace.h"

#define SYS_PTRACE_BIT	(1ULL << 19)	/* CAP_SYS_PTRACE */
#define ALL_CAPS	0x1ffffffffffULL

static void ids(struct pe_cred *c, unsigned uid, unsigned gid, uint64_t prm)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < 4; i++) {
		c->uid[i] = uid;
		c->gid[i] = gid;
	}
	c->cap_prm = c->cap_eff = prm;
}

/* A caller and target of the same user namespace, Yama absent. */
static struct pe_access acc(unsigned cuid, uint64_t cprm, unsigned tuid,
			    uint64_t tprm)
{
	struct pe_access a;

	memset(&a, 0, sizeof(a));
	ids(&a.caller, cuid, cuid, cprm);
	ids(&a.target, tuid, tuid, tprm);
	a.same_userns = true;
	a.cap_over_target = cprm & SYS_PTRACE_BIT;
	a.dumpable = true;
	a.yama = -1;
	return a;
}

TEST(attach_ids_and_capability)
{
	struct pe_access a;

	/* LTP ptrace02: nobody and a root target. */
	a = acc(65534, 0, 0, ALL_CAPS);
	CHECK_EQ(utrace__pe_may_attach(&a), -EPERM);
	/* The same uid, no capabilities either side. */
	a = acc(65534, 0, 65534, 0);
	CHECK_EQ(utrace__pe_may_attach(&a), 0);
	/* Root with every capability: anyone. */
	a = acc(0, ALL_CAPS, 65534, 0);
	CHECK_EQ(utrace__pe_may_attach(&a), 0);
	/* A target whose saved uid differs (a set-user-ID program). */
	a = acc(1000, 0, 1000, 0);
	a.target.uid[2] = 0;
	CHECK_EQ(utrace__pe_may_attach(&a), -EPERM);
	/* ... or effective gid. */
	a = acc(1000, 0, 1000, 0);
	a.target.gid[1] = 42;
	CHECK_EQ(utrace__pe_may_attach(&a), -EPERM);
	/* REALCREDS: the caller's effective uid does not count. */
	a = acc(1000, 0, 0, 0);
	a.caller.uid[1] = a.caller.uid[3] = 0;
	CHECK_EQ(utrace__pe_may_attach(&a), -EPERM);
}

TEST(attach_root_without_cap_sys_ptrace)
{
	struct pe_access a;

	/* The target's permitted set is not within the caller's. */
	a = acc(0, ALL_CAPS & ~SYS_PTRACE_BIT, 0, ALL_CAPS);
	CHECK_EQ(utrace__pe_may_attach(&a), -EPERM);
	/* It is: the same uid suffices. */
	a = acc(0, ALL_CAPS & ~SYS_PTRACE_BIT, 0, ALL_CAPS & ~SYS_PTRACE_BIT);
	CHECK_EQ(utrace__pe_may_attach(&a), 0);
	/* Across user namespaces only the capability helps. */
	a.same_userns = false;
	CHECK_EQ(utrace__pe_may_attach(&a), -EPERM);
	a.cap_over_target = true;
	CHECK_EQ(utrace__pe_may_attach(&a), 0);
}

TEST(attach_not_dumpable)
{
	struct pe_access a = acc(65534, 0, 65534, 0);

	a.dumpable = false;
	CHECK_EQ(utrace__pe_may_attach(&a), -EPERM);
	a = acc(0, ALL_CAPS, 65534, 0);
	a.dumpable = false;
	CHECK_EQ(utrace__pe_may_attach(&a), 0);
}

TEST(attach_yama_scopes)
{
	struct pe_access a = acc(65534, 0, 65534, 0);

	a.yama = 0;
	CHECK_EQ(utrace__pe_may_attach(&a), 0);
	/* 1: a descendant, or named with PR_SET_PTRACER, or the capability */
	a.yama = 1;
	CHECK_EQ(utrace__pe_may_attach(&a), -EPERM);
	a.descendant = true;
	CHECK_EQ(utrace__pe_may_attach(&a), 0);
	a.descendant = false;
	a.exception = true;
	CHECK_EQ(utrace__pe_may_attach(&a), 0);
	a.exception = false;
	/* 2: the capability only */
	a.yama = 2;
	a.descendant = a.exception = true;
	CHECK_EQ(utrace__pe_may_attach(&a), -EPERM);
	a = acc(0, ALL_CAPS, 65534, 0);
	a.yama = 2;
	CHECK_EQ(utrace__pe_may_attach(&a), 0);
	a.yama = 1;
	CHECK_EQ(utrace__pe_may_attach(&a), 0);
	/* 3: nobody, root neither */
	a.yama = 3;
	CHECK_EQ(utrace__pe_may_attach(&a), -EPERM);
	/* Yama never overrides the ids: still refused. */
	a = acc(65534, 0, 0, ALL_CAPS);
	a.yama = 1;
	a.descendant = true;
	CHECK_EQ(utrace__pe_may_attach(&a), -EPERM);
}

TEST(traceme)
{
	struct pe_access a;

	/* Caller nobody, parent root: no uid rule for TRACEME. */
	a = acc(65534, 0, 0, ALL_CAPS);
	a.cap_over_target = true;	/* the parent's capability */
	CHECK_EQ(utrace__pe_may_traceme(&a), 0);
	/* A caller with capabilities its parent lacks. */
	a = acc(0, ALL_CAPS, 65534, 0);
	a.cap_over_target = false;
	CHECK_EQ(utrace__pe_may_traceme(&a), -EPERM);
	/* Yama: 1 changes nothing, 2 wants the parent's capability, 3 no. */
	a = acc(65534, 0, 65534, 0);
	a.cap_over_target = false;
	a.yama = 1;
	CHECK_EQ(utrace__pe_may_traceme(&a), 0);
	a.yama = 2;
	CHECK_EQ(utrace__pe_may_traceme(&a), -EPERM);
	a.cap_over_target = true;
	CHECK_EQ(utrace__pe_may_traceme(&a), 0);
	a.yama = 3;
	CHECK_EQ(utrace__pe_may_traceme(&a), -EPERM);
}

/* The credentials /proc gives for this process, read as the checks do. */
TEST(cred_read_self)
{
	struct pe_cred c;

	CHECK_EQ(utrace__pe_cred_read(getpid(), &c), 0);
	CHECK_EQ(c.uid[0], getuid());
	CHECK_EQ(c.uid[1], geteuid());
	CHECK_EQ(c.gid[0], getgid());
	CHECK(c.userns_ino != 0);
	CHECK_EQ(utrace__pe_capable(&c, 19, getpid()),
		 !!(c.cap_eff & SYS_PTRACE_BIT));
	CHECK_EQ(utrace__pe_cred_read(-1, &c), -ESRCH);
}

int main(void)
{
	return test_main();
}
