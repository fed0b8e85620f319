// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace_spawn: a child traced from its first moment, held just before its
 * execve until the next dispatch, so engines attached in between see the
 * execve and everything after it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "core/internal.h"

extern char **environ;

/*
 * The child's copies of these are filled in by the tracer (filter.c) while
 * the child waits at its spawn stop; the child installs the filter before
 * execve.  They are used in children only.
 */
static volatile unsigned short child_filter_len;
static struct sock_filter child_filter[UTRACE__FILTER_MAX];

struct sock_filter *utrace__spawn_filter_buf(void)
{
	return child_filter;
}

unsigned short *utrace__spawn_filter_len(void)
{
	return (unsigned short *)&child_filter_len;
}

/* In the child: install the filter the tracer gave, if any. */
static void child_install_filter(void)
{
	struct sock_fprog prog = { child_filter_len, child_filter };

	if (!prog.len)
		return;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0L, &prog) == 0)
		return;
	/* Without CAP_SYS_ADMIN a filter needs no_new_privs. */
	if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) == 0)
		syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0L, &prog);
}

static int executable(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EACCES;
	return access(path, X_OK) < 0 ? -errno : 0;
}

/*
 * Find @file along PATH the way execvp does; 0 and the path in @out.
 * @chdir: the child changes directory before its execve.
 */
static int resolve(const char *file, char *const *envp, bool chdir,
		   char *out, size_t len)
{
	const char *path = NULL;
	int err = -ENOENT;

	if (strchr(file, '/')) {
		char cwd[PATH_MAX];

		/*
		 * Relative to the tracer's directory, where it was checked,
		 * even when the child changes directory before execve; as
		 * given (execve shows it so) when it does not.
		 */
		if (file[0] == '/' || !chdir || !getcwd(cwd, sizeof(cwd)))
			cwd[0] = 0;
		if (snprintf(out, len, "%s%s%s", cwd, cwd[0] ? "/" : "",
			     file) >= (int)len)
			return -ENAMETOOLONG;
		return executable(out);
	}
	for (char *const *e = envp; e && *e; e++)
		if (!strncmp(*e, "PATH=", 5))
			path = *e + 5;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (;;) {
		const char *end = strchrnul(path, ':');
		int n = (int)(end - path), r;

		if (snprintf(out, len, "%.*s%s%s", n, path, n ? "/" : "",
			     file) < (int)len) {
			r = executable(out);
			if (r == 0)
				return 0;
			if (r == -EACCES)
				err = r;
		}
		if (!*end)
			break;
		path = end + 1;
	}
	return err;
}

static void add_spawned(struct utrace_tracer *t, struct uthread *th)
{
	if (t->nspawned == t->spawned_cap) {
		unsigned cap = t->spawned_cap ? t->spawned_cap * 2 : 8;
		struct uthread **s = realloc(t->spawned, cap * sizeof(*s));

		if (!s) {
			th->hold &= ~HOLD_SPAWN;	/* no hold, then */
			return;
		}
		t->spawned = s;
		t->spawned_cap = cap;
	}
	t->spawned[t->nspawned++] = th;
}

/* The hold of utrace_spawn ends at the next dispatch (loop.c). */
void utrace__release_spawned(struct utrace_tracer *t)
{
	while (t->nspawned) {
		struct uthread *th = t->spawned[--t->nspawned];

		th->hold &= ~HOLD_SPAWN;
		if (!th->no_filter && !t->no_spawn_filter)
			utrace__filter_setup(th);
		utrace__settle_later(th);
	}
}

struct spawn_args {
	struct utrace_tracer *t;
	char *const *argv;
	const struct utrace_spawn_opts *opts;
	pid_t *pid;
};

static int do_spawn(void *arg)
{
	struct spawn_args *a = arg;
	struct utrace_spawn_opts o = { 0 };
	char *const *envp;
	const char *cwd;
	bool kill_on_exit;
	char path[PATH_MAX];
	int sync[2], st, err;
	struct uthread *th;
	pid_t pid;
	char c = 0;

	/* Fields past the caller's size keep their defaults. */
	if (a->opts)
		memcpy(&o, a->opts, a->opts->size < sizeof(o) ?
				    a->opts->size : sizeof(o));
	envp = o.envp ? o.envp : environ;
	cwd = o.cwd;
	kill_on_exit = o.flags & UTRACE_SPAWN_KILL_ON_EXIT;
	err = resolve(a->argv[0], envp, cwd != NULL, path, sizeof(path));
	if (err)
		return err;
	if (pipe2(sync, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(sync[0]);
		close(sync[1]);
		return err;
	}
	if (pid == 0) {
		/* Async-signal-safe calls only from here on. */
		close(sync[1]);
		if (cwd && chdir(cwd) < 0)
			_exit(127);
		if (read(sync[0], &c, 1) != 1)
			_exit(127);
		/* The stop our tracer waits for; engines never see it. */
		syscall(SYS_kill, syscall(SYS_getpid), SIGSTOP);
		child_install_filter();
		execve(path, a->argv, envp);
		_exit(127);
	}
	close(sync[0]);
	if (ptrace(PTRACE_SEIZE, pid, 0L, utrace__ptrace_opts(kill_on_exit)) < 0) {
		err = -errno;
		close(sync[1]);
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return err;
	}
	if (write(sync[1], &c, 1) != 1)
		(void)0;	/* the child then exits 127: reported as such */
	close(sync[1]);
	for (;;) {
		if (waitpid(pid, &st, __WALL) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!WIFSTOPPED(st))
			break;
		if (WSTOPSIG(st) == SIGSTOP && (st >> 16) == 0)
			break;
		/* Anything else before our SIGSTOP: let it through. */
		ptrace(PTRACE_CONT, pid, 0L,
		       (st >> 16) == 0 ? (long)WSTOPSIG(st) : 0L);
	}
	th = utrace__thread_new(a->t, pid, pid);
	if (!th) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, __WALL);
		return -ENOMEM;
	}
	th->kill_on_exit = kill_on_exit;
	th->opts = utrace__ptrace_opts(kill_on_exit);
	th->no_filter = o.flags & UTRACE_SPAWN_NO_FILTER;
	if (WIFSTOPPED(st)) {
		th->state = TH_STOPPED;
		th->stop = STOP_SPAWN;
		th->hold = HOLD_SPAWN;
		add_spawned(a->t, th);
	} else {
		/* Died already (killed from outside): report it at dispatch. */
		th->state = TH_RUNNING;
		utrace__thread_free(th);
		return -ECHILD;
	}
	*a->pid = pid;
	return 0;
}

/**
 * utrace_spawn - start a program traced from its first moment
 * See utrace_spawn(3).  Any thread may call it; it runs on the loop thread.
 */
UTRACE_EXPORT int utrace_spawn(struct utrace_tracer *t, char *const argv[],
			       const struct utrace_spawn_opts *opts, pid_t *pid)
{
	struct spawn_args a = { t, argv, opts, pid };

	if (!t || !argv || !argv[0] || !pid)
		return -EINVAL;
	/* A smaller (older) structure: the fields past its size default. */
	if (opts && opts->size < sizeof(size_t))
		return -EINVAL;
	if (opts && opts->size >= offsetof(struct utrace_spawn_opts, flags) +
				  sizeof(opts->flags) &&
	    (opts->flags & ~(UTRACE_SPAWN_KILL_ON_EXIT | UTRACE_SPAWN_NO_FILTER)))
		return -EINVAL;
	return utrace__call(t, do_spawn, &a);
}
