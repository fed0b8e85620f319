// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Kernel-side syscall filtering for spawned threads: a seccomp-bpf filter,
 * built with libseccomp, that stops (SECCOMP_RET_TRACE) only for the union
 * of the syscalls the engines want; every other syscall runs at native
 * speed, and engines that want only syscall entry cost one stop, not two.
 *
 * The filter is installed by the child itself, just before its execve,
 * from a program the tracer writes into the child's copy of spawn.c's
 * buffer.  A filter cannot be removed, and RET_TRACE without a tracer makes
 * the syscall fail with ENOSYS, so (utrace(7)):
 *  - a filtered thread whose last engine detaches stays traced by the
 *    library, silently, until it exits;
 *  - filtered threads are killed by utrace_tracer_free and, through
 *    PTRACE_O_EXITKILL, when the tracer's loop thread exits.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <linux/filter.h>
#include <seccomp.h>

#include "core/internal.h"

#define FSET_WORDS (UTRACE__SYSSET_BITS / 64)

static bool live(const struct utrace_engine *e)
{
	return !(atomic_load(&e->flags) & ENG_DETACHED);
}

/*
 * Union of the syscalls @th's engines want into @set; false when some
 * engine wants them all.  *@exit tells whether any engine wants exits.
 */
static bool wanted_set(const struct uthread *th, uint64_t *set, bool *exit)
{
	bool all = false;

	memset(set, 0, FSET_WORDS * sizeof(*set));
	*exit = false;
	for (const struct utrace_engine *e = th->head; e; e = e->next) {
		if (!live(e) || !(e->events & UTRACE_EVENT_SYSCALL))
			continue;
		if (e->events & UTRACE_EVENT(SYSCALL_EXIT))
			*exit = true;
		if (!e->sysset) {
			all = true;
			continue;
		}
		for (int i = 0; i < FSET_WORDS; i++)
			set[i] |= e->sysset[i];
	}
	if (all)
		memset(set, 0xff, FSET_WORDS * sizeof(*set));
	return !all;
}

/* Does the installed filter stop for every syscall some engine wants? */
bool utrace__filter_covers(const struct uthread *th)
{
	uint64_t set[FSET_WORDS];
	bool exit;

	wanted_set(th, set, &exit);
	for (int i = 0; i < FSET_WORDS; i++)
		if (set[i] & ~th->fset[i])
			return false;
	return true;
}

/* The BPF program for @set, in @out (at most @max instructions); @data is
 * the SECCOMP_RET_DATA of its stops (utrace__filter_data). */
static int build(const uint64_t *set, uint32_t data, struct sock_filter *out,
		 size_t max)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int fd = -1, err = -ENOMEM;
	ssize_t n;

	if (!ctx)
		return -ENOMEM;
	/* Syscalls of another ABI (int 0x80) are not in the set: stop. */
	err = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
			       SCMP_ACT_TRACE(data));
	for (int nr = 0; !err && nr < UTRACE__SYSSET_BITS; nr++) {
		char *name;

		if (!(set[nr / 64] >> (nr % 64) & 1))
			continue;
		name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
		if (!name)
			continue;	/* no such syscall: it never happens */
		free(name);
		err = seccomp_rule_add(ctx, SCMP_ACT_TRACE(data), nr, 0);
	}
	if (!err) {
		fd = memfd_create("utrace-filter", MFD_CLOEXEC);
		err = fd < 0 ? -errno : seccomp_export_bpf(ctx, fd);
	}
	seccomp_release(ctx);
	if (err)
		goto out;
	n = pread(fd, out, max * sizeof(*out), 0);
	if (n <= 0 || n % (ssize_t)sizeof(*out) ||
	    (size_t)n == max * sizeof(*out))
		err = -E2BIG;
	else
		err = (int)(n / (ssize_t)sizeof(*out));
out:
	if (fd >= 0)
		close(fd);
	return err;
}

/**
 * utrace__filter_setup - give a spawned child its filter before execve
 * @th: the child, stopped at its spawn stop, engines attached
 *
 * Filters only where it saves stops: engines want some syscalls, not all.  The child installs the filter when it is
 * restarted; th->setup makes that visible to no engine and tells whether
 * it worked (stops.c).
 */
void utrace__filter_setup(struct uthread *th)
{
	struct sock_filter *prog = utrace__spawn_filter_buf();
	uint64_t set[FSET_WORDS];
	unsigned short len;
	bool exit, some = false;
	int n;

	/*
	 * An engine that wants every syscall gains nothing from a filter but
	 * the saved exit stops, not worth a thread that cannot be let go.
	 */
	if (!wanted_set(th, set, &exit))
		return;
	for (int i = 0; i < FSET_WORDS; i++)
		some |= set[i] != 0;
	if (!some)
		return;
	n = build(set, utrace__filter_data(th->t), prog, UTRACE__FILTER_MAX);
	if (n <= 0)
		return;
	len = (unsigned short)n;
	{
		struct iovec local[2] = {
			{ prog, (size_t)n * sizeof(*prog) },
			{ &len, sizeof(len) },
		};
		struct iovec remote[2] = {
			{ prog, (size_t)n * sizeof(*prog) },
			{ utrace__spawn_filter_len(), sizeof(len) },
		};

		if (process_vm_writev(th->tid, local, 2, remote, 2, 0) !=
		    (ssize_t)(local[0].iov_len + local[1].iov_len))
			return;
	}
	th->opts = utrace__ptrace_opts(true) | PTRACE_O_TRACESECCOMP |
		   (th->events & UTRACE_EVENT(EXIT) ? PTRACE_O_TRACEEXIT : 0);
	if (ptrace(PTRACE_SETOPTIONS, th->tid, 0L, th->opts) < 0)
		return;
	memcpy(th->fset, set, sizeof(set));
	th->setup = true;
}
