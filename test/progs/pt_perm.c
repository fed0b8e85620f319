// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Who may trace whom (ptrace_may_access, modelled on LTP's ptrace02 and
 * ptrace03): run as root, children give up their uid or CAP_SYS_PTRACE
 * and try PTRACE_ATTACH, PTRACE_SEIZE and PTRACE_TRACEME; a set-user-ID
 * copy of this program is exec'd under a tracer that may not grant it.
 * It prints each verdict, the same natively, under utrace -f and under
 * utraced (test/cli/ptrace.sh).  "SKIP:" lines name what the host lacks.
 */
#include "pt_common.h"
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#ifndef PR_SET_PTRACER
#define PR_SET_PTRACER 0x59616d61
#endif

#define NOBODY 65534

static const char *err_name(int e)
{
	switch (e) {
	case 0: return "ok";
	case EPERM: return "EPERM";
	case ESRCH: return "ESRCH";
	case EIO: return "EIO";
	case EINVAL: return "EINVAL";
	default: return strerror(e);
	}
}

static void to_nobody(bool dumpable)
{
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		die("drop to nobody: %s", strerror(errno));
	/* setresuid made it not dumpable (suid_dumpable 0) */
	if (dumpable && prctl(PR_SET_DUMPABLE, 1))
		die("PR_SET_DUMPABLE");
}

/* Root without CAP_SYS_PTRACE: out of the bounding and every set. */
static void drop_ptrace_cap(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (prctl(PR_CAPBSET_DROP, CAP_SYS_PTRACE) ||
	    syscall(SYS_capget, &h, d))
		die("capget: %s", strerror(errno));
	d[0].effective &= ~(1U << CAP_SYS_PTRACE);
	d[0].permitted &= ~(1U << CAP_SYS_PTRACE);
	d[0].inheritable &= ~(1U << CAP_SYS_PTRACE);
	if (syscall(SYS_capset, &h, d))
		die("capset: %s", strerror(errno));
}

/* A result of ptrace(2) in words. */
static const char *verdict(long r)
{
	return err_name(r < 0 ? errno : 0);
}

/*
 * A target that waits to be traced: set up by @setup, then it says so on
 * a pipe and sleeps until killed.  Returns its pid.
 */
static pid_t target(void (*setup)(void))
{
	int fd[2];
	pid_t pid;
	char c;

	if (pipe(fd))
		die("pipe");
	pid = fork();
	if (pid == 0) {
		close(fd[0]);
		setup();
		if (write(fd[1], "r", 1) != 1)
			_exit(97);
		for (;;)
			pause();
	}
	close(fd[1]);
	if (read(fd[0], &c, 1) != 1)
		die("target %d did not start", pid);
	close(fd[0]);
	return pid;
}

static void end(pid_t pid)
{
	kill(pid, SIGKILL);
	pt_wait(pid, 0);
}

/* Run @fn in a child with @setup done first, and wait for it. */
static void as(void (*setup)(void), void (*fn)(pid_t), pid_t arg)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		setup();
		fn(arg);
		fflush(stdout);
		_exit(0);
	}
	st = pt_wait(pid, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		die("child: %s", pt_status(st));
}

/* Attach to @pid, and if that works see its stop and detach. */
static void attach(pid_t pid, const char *what)
{
	long r = ptrace(PTRACE_ATTACH, pid, 0, 0);
	int e = errno;

	if (r == 0) {
		int st = pt_wait(pid, 0);

		printf("%s: ATTACH ok, %s\n", what, pt_status(st));
		if (ptrace(PTRACE_DETACH, pid, 0, 0))
			die("DETACH: %s", strerror(errno));
	} else {
		printf("%s: ATTACH %s\n", what, err_name(e));
	}
	r = ptrace(PTRACE_SEIZE, pid, 0, 0);
	e = errno;
	printf("%s: SEIZE %s\n", what, r ? err_name(e) : "ok");
	if (r)
		return;
	/* Detached only from a stop. */
	if (ptrace(PTRACE_INTERRUPT, pid, 0, 0))
		die("INTERRUPT: %s", strerror(errno));
	pt_wait(pid, 0);
	if (ptrace(PTRACE_DETACH, pid, 0, 0))
		die("DETACH after SEIZE: %s", strerror(errno));
}

static void nobody(void) { to_nobody(false); }
static void nobody_dumpable(void) { to_nobody(true); }
static void no_cap(void) { drop_ptrace_cap(); }
static void no_cap_undumpable(void)
{
	drop_ptrace_cap();
	if (prctl(PR_SET_DUMPABLE, 0))
		die("PR_SET_DUMPABLE");
}
static void nothing(void) { }

static void try_parent(pid_t unused)
{
	attach(getppid(), "the root parent");
}

static pid_t victim;

static void try_victim(pid_t pid)
{
	attach(pid, "the target");
}

/* -- LTP ptrace03's errors ------------------------------------------------- */

static void errors(void)
{
	pid_t pid;
	int st;

	printf("ATTACH itself: %s\n",
	       verdict(ptrace(PTRACE_ATTACH, getpid(), 0, 0)));
	printf("SEIZE with addr: %s\n",
	       verdict(ptrace(PTRACE_SEIZE, getppid(), (void *)1, 0)));
	pid = fork();
	if (pid == 0) {
		long r = ptrace(PTRACE_TRACEME, 0, 0, 0);

		printf("TRACEME: %s\n", verdict(r));
		printf("TRACEME again: %s\n",
		       verdict(ptrace(PTRACE_TRACEME, 0, 0, 0)));
		fflush(stdout);
		_exit(0);
	}
	st = pt_wait(pid, 0);
	printf("its end: %s\n", pt_status(st));
}

/* -- A set-user-ID exec under a tracer ------------------------------------- */

/* The exec'd copy: what it was given. */
static int show_ids(void)
{
	uid_t r, e, s;
	gid_t gr, ge, gs;
	char buf[4096], *cap;
	int fd = open("/proc/self/status", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	getresuid(&r, &e, &s);
	getresgid(&gr, &ge, &gs);
	buf[n > 0 ? n : 0] = 0;
	cap = strstr(buf, "CapEff:");
	printf("  uid %d %d %d gid %d %d %d %.24s dumpable %d\n", r, e, s,
	       gr, ge, gs, cap ? cap : "?", prctl(PR_GET_DUMPABLE));
	return 0;
}

static char suid_dir[] = "/tmp/pt_perm.XXXXXX";
static char suid_path[sizeof(suid_dir) + 16];

/*
 * Copy this program to a set-user-ID, set-group-ID root file, in a
 * directory nobody can reach (the test's own may be root's only) on a
 * file system that honours the bits.
 */
static bool make_suid(void)
{
	char buf[65536];
	struct statvfs sv;
	ssize_t n;
	int in, out;

	if (!mkdtemp(suid_dir))
		return false;
	snprintf(suid_path, sizeof(suid_path), "%s/suid", suid_dir);
	if (chmod(suid_dir, 0755) || statvfs(suid_dir, &sv) ||
	    (sv.f_flag & ST_NOSUID)) {
		rmdir(suid_dir);
		return false;
	}
	in = open("/proc/self/exe", O_RDONLY);
	out = open(suid_path, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	if (in < 0 || out < 0) {
		rmdir(suid_dir);
		return false;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			return false;
	close(in);
	if (fchown(out, 0, 0) || fchmod(out, 06755) || close(out))
		return false;
	return true;
}

/* A child of @setup's credentials: TRACEME, then exec the copy. */
static void traceme_exec(void (*setup)(void), const char *what)
{
	pid_t pid = fork();
	siginfo_t si;
	int st;

	if (pid == 0) {
		setup();
		pid = fork();
		if (pid == 0) {
			if (ptrace(PTRACE_TRACEME, 0, 0, 0))
				_exit(98);
			execl(suid_path, suid_path, "ids", (char *)NULL);
			_exit(99);
		}
		st = pt_wait(pid, 0);
		printf("%s: %s", what, pt_status(st));
		if (ptrace(PTRACE_GETSIGINFO, pid, 0, &si))
			die("GETSIGINFO");
		printf(", si_uid is the tracee's %d\n",
		       si.si_uid == (uid_t)NOBODY);
		fflush(stdout);
		if (ptrace(PTRACE_CONT, pid, 0, 0))
			die("CONT");
		st = pt_wait(pid, 0);
		printf("  end: %s\n", pt_status(st));
		fflush(stdout);
		_exit(0);
	}
	st = pt_wait(pid, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		die("tracer: %s", pt_status(st));
}

/*
 * The tracee drops to nobody, its tracer (this process) stays root: what
 * counts is the tracee's own capability when it called PTRACE_TRACEME
 * (@before: it calls it as root, then drops).
 */
static void root_tracer_nobody_tracee(bool before, const char *what)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		if (before && ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(98);
		to_nobody(true);
		if (!before && ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(98);
		execl(suid_path, suid_path, "ids", (char *)NULL);
		_exit(99);
	}
	st = pt_wait(pid, 0);
	printf("%s: %s\n", what, pt_status(st));
	if (ptrace(PTRACE_CONT, pid, 0, 0))
		die("CONT");
	printf("  end: %s\n", pt_status(pt_wait(pid, 0)));
}

/*
 * A nobody child that execs the copy once traced by a tracer of @setup's
 * credentials, who attached it (PTRACE_ATTACH, or with @seize
 * PTRACE_SEIZE) rather than being asked with PTRACE_TRACEME: the kernel
 * keeps the attacher's CAP_SYS_PTRACE with the link, so a nobody tracer's
 * tracee gains nothing by the exec, a root tracer's gains it all.
 */
static void attach_exec(void (*setup)(void), bool seize, const char *what)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		int go[2];
		pid_t kid;
		char c;

		setup();
		if (pipe(go))
			die("pipe");
		kid = fork();
		if (kid == 0) {
			close(go[1]);
			if (getuid() != NOBODY)
				to_nobody(true);
			if (read(go[0], &c, 1) != 1)
				_exit(97);
			execl(suid_path, suid_path, "ids", (char *)NULL);
			_exit(99);
		}
		close(go[0]);
		if (seize) {
			if (ptrace(PTRACE_SEIZE, kid, 0, PTRACE_O_TRACEEXEC))
				die("SEIZE: %s", strerror(errno));
		} else {
			if (ptrace(PTRACE_ATTACH, kid, 0, 0))
				die("ATTACH: %s", strerror(errno));
			pt_wait(kid, 0);
			if (ptrace(PTRACE_SETOPTIONS, kid, 0, PTRACE_O_TRACEEXEC) ||
			    ptrace(PTRACE_CONT, kid, 0, 0))
				die("SETOPTIONS, CONT: %s", strerror(errno));
		}
		if (write(go[1], "g", 1) != 1)
			die("write");
		st = pt_wait(kid, 0);
		printf("%s: %s\n", what, pt_status(st));
		if (ptrace(PTRACE_CONT, kid, 0, 0))
			die("CONT");
		printf("  end: %s\n", pt_status(pt_wait(kid, 0)));
		_exit(0);
	}
	st = pt_wait(pid, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		die("tracer: %s", pt_status(st));
}

/* -- Yama ------------------------------------------------------------------ */

static int yama_get(void)
{
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static bool yama_set(int v)
{
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "w");

	if (!f)
		return false;
	fprintf(f, "%d\n", v);
	return fclose(f) == 0;
}

/* A nobody target that names a ptracer first. */
static void nobody_names_any(void)
{
	to_nobody(true);
	if (prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0))
		die("PR_SET_PTRACER: %s", strerror(errno));
}

static void try_child(pid_t unused)
{
	pid_t pid = target(nothing);

	attach(pid, "  its own child");
	end(pid);
}

static void yama(void)
{
	int was = yama_get();

	if (was < 0) {
		printf("SKIP: Yama scopes: the kernel has no Yama\n");
		return;
	}
	for (int scope = 1; scope <= 2; scope++) {
		if (!yama_set(scope))
			die("ptrace_scope %d", scope);
		printf("Yama scope %d:\n", scope);
		victim = target(nobody_dumpable);
		as(nobody, try_victim, victim);
		as(nothing, try_victim, victim);
		end(victim);
		victim = target(nobody_names_any);
		as(nobody, try_victim, victim);
		end(victim);
		as(nobody_dumpable, try_child, 0);
	}
	yama_set(was);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return show_ids();
	setvbuf(stdout, NULL, _IONBF, 0);
	if (geteuid() != 0) {
		printf("SKIP: everything: not root\n");
		return 0;
	}
	errors();

	printf("nobody, as LTP's ptrace02:\n");
	as(nobody, try_parent, 0);
	victim = target(nobody_dumpable);
	as(nobody, try_victim, victim);
	end(victim);
	printf("not dumpable:\n");
	victim = target(nobody);
	as(nobody, try_victim, victim);
	end(victim);

	printf("root without CAP_SYS_PTRACE:\n");
	as(no_cap, try_parent, 0);
	victim = target(no_cap);
	as(no_cap, try_victim, victim);
	end(victim);
	printf("root without CAP_SYS_PTRACE, not dumpable:\n");
	victim = target(no_cap_undumpable);
	as(no_cap, try_victim, victim);
	end(victim);

	if (!make_suid()) {
		printf("SKIP: set-user-ID exec: /tmp does not honour it\n");
	} else {
		traceme_exec(nobody_dumpable,
			     "set-user-ID exec under a nobody tracer");
		root_tracer_nobody_tracee(false,
			"TRACEME as nobody under a root parent");
		root_tracer_nobody_tracee(true,
			"TRACEME as root, then nobody");
		attach_exec(nobody_dumpable, false,
			    "set-user-ID exec after a nobody's ATTACH");
		attach_exec(nobody_dumpable, true,
			    "set-user-ID exec after a nobody's SEIZE");
		attach_exec(nothing, true,
			    "set-user-ID exec after root's SEIZE");
		unlink(suid_path);
		rmdir(suid_dir);
	}
	yama();
	return 0;
}
