// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Starting what the options say: the command (utrace_spawn(3), or with -u
 * and -D started here as strace does), the -p processes (or a join of
 * their serving tracer), and for --gdb the programs gdb runs or attaches.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command.h"
#include "gdb/gdbstub.h"

/*
 * Without -u or -D, utrace_spawn(3) starts the command.  With them the
 * command is started here, as strace does: the process that becomes the
 * command waits on a pipe until it is traced, takes the user's ids (-u),
 * then executes; the engines hide what it does before its execve.
 */
struct starter {
	const struct options *o;
	char path[PATH_MAX];	/* the command, found along PATH */
	uid_t uid, euid;	/* -u: the user's, or the file's set-user-ID */
	gid_t gid, egid;
	int go[2];		/* the tracer writes one byte: traced */
};

/* strace's search: as given with a '/', else along PATH; 0 or -errno. */
static int find_command(struct starter *s)
{
	const char *file = s->o->argv[0], *path = getenv("PATH");
	struct stat st;
	int err = -ENOENT;

	if (s->o->envp) {
		char **e;

		path = NULL;
		for (e = s->o->envp; *e; e++)
			if (!strncmp(*e, "PATH=", 5))
				path = *e + 5;
	}
	if (strchr(file, '/')) {
		snprintf(s->path, sizeof(s->path), "%s", file);
		return stat(s->path, &st) < 0 ? -errno : 0;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (;;) {
		const char *end = strchrnul(path, ':');
		int n = (int)(end - path);

		if (snprintf(s->path, sizeof(s->path), "%.*s%s%s", n, path,
			     n ? "/" : "", file) < (int)sizeof(s->path) &&
		    stat(s->path, &st) == 0 && S_ISREG(st.st_mode) &&
		    (st.st_mode & 0111))
			return 0;
		if (!*end)
			break;
		path = end + 1;
	}
	return err;
}

/*
 * Whether utrace_spawn(3) can start the command: it refuses one found but
 * not executable (a file without x, a directory), which strace runs to
 * show its failed execve; such a command is started here instead, and
 * one not found is refused there with strace's words.
 */
static bool executable(const struct options *o)
{
	struct starter s = { .o = o };
	struct stat st;

	return find_command(&s) == 0 && stat(s.path, &st) == 0 &&
	       S_ISREG(st.st_mode) && access(s.path, X_OK) == 0;
}

/* -u USER: strace's checks and ids; the set-user/group-ID bits of the file. */
static void user_ids(struct starter *s)
{
	struct passwd *pw;
	struct stat st;

	s->uid = s->euid = getuid();
	s->gid = s->egid = getgid();
	if (!s->o->user)
		return;
	if (getuid() != 0 || geteuid() != 0) {
		fprintf(stderr, "utrace: You must be root to use the "
			"-u/--username option\n");
		exit(1);
	}
	pw = getpwnam(s->o->user);
	if (!pw) {
		fprintf(stderr, "utrace: Cannot find user '%s'\n",
			s->o->user);
		exit(1);
	}
	s->uid = s->euid = pw->pw_uid;
	s->gid = s->egid = pw->pw_gid;
	if (stat(s->path, &st) == 0) {
		if (st.st_mode & S_ISUID)
			s->euid = st.st_uid;
		if (st.st_mode & S_ISGID)
			s->egid = st.st_gid;
	}
}

/* In the process that becomes the command: wait until traced, then exec. */
static void __attribute__((noreturn)) become_command(struct starter *s)
{
	char c;

	close(s->go[1]);
	if (read(s->go[0], &c, 1) != 1)
		_exit(1);	/* the tracer failed: it said why */
	close(s->go[0]);
	if (s->o->user) {
		/* Groups first: they need the privileges setuid drops. */
		if (initgroups(s->o->user, s->gid) < 0) {
			fprintf(stderr, "utrace: initgroups: %s\n",
				strerror(errno));
			_exit(1);
		}
		if (setregid(s->gid, s->egid) < 0) {
			fprintf(stderr, "utrace: setregid: %s\n",
				strerror(errno));
			_exit(1);
		}
		if (setreuid(s->uid, s->euid) < 0) {
			fprintf(stderr, "utrace: setreuid: %s\n",
				strerror(errno));
			_exit(1);
		}
	}
	execve(s->path, s->o->argv, s->o->envp ? s->o->envp : environ);
	/* The tracer saw it fail and said why ("utrace: exec: ..."). */
	_exit(1);
}

static void start_failed(const char *cmd, int err)
{
	if (err == -ENOENT)
		fprintf(stderr, "utrace: Can't stat '%s': %s\n", cmd,
			strerror(-err));
	else
		fprintf(stderr, "utrace: exec: %s\n", strerror(-err));
	exit(1);
}

/*
 * -D: this process becomes the command; the tracer goes on in a
 * grandchild (-DD: in a new process group, -DDD: in a new session), so
 * that the command's parent (the shell) sees the command, not utrace.
 * Returns in the grandchild, with the command's pid.
 */
static pid_t daemonize(struct starter *s)
{
	pid_t cmd = getpid(), c;

	c = fork();
	if (c < 0) {
		fprintf(stderr, "utrace: fork: %s\n", strerror(errno));
		exit(1);
	}
	if (c > 0) {
		/* The command: the child exits once the grandchild exists. */
		while (waitpid(c, NULL, 0) < 0 && errno == EINTR)
			;
		become_command(s);
	}
	c = fork();
	if (c < 0)
		_exit(1);
	if (c > 0)
		_exit(0);
	close(s->go[0]);
	if (s->o->daemonize == 2 && setpgid(0, 0) < 0) {
		fprintf(stderr, "utrace: Cannot create a new process group: "
			"%s\n", strerror(errno));
		_exit(1);
	}
	if (s->o->daemonize == 3 && setsid() < 0) {
		fprintf(stderr, "utrace: Cannot create a new session: %s\n",
			strerror(errno));
		_exit(1);
	}
	return cmd;
}

/* -u without -D: the command is a child that waits to be traced. */
static pid_t fork_command(struct starter *s)
{
	pid_t c = fork();

	if (c < 0) {
		fprintf(stderr, "utrace: fork: %s\n", strerror(errno));
		exit(1);
	}
	if (c == 0)
		become_command(s);
	close(s->go[0]);
	return c;
}

/* Trace the command started by daemonize() or fork_command(); let it go. */
static int trace_started(struct cli *cli, struct starter *s, pid_t pid)
{
	char c = 1;
	int err;

	err = attach_engines(cli, pid, pid);
	if (err) {
		fprintf(stderr, "utrace: attach: ptrace(PTRACE_SEIZE, %d): %s\n",
			pid, strerror(-err));
		if (!cli->opt.daemonize)
			kill(pid, SIGKILL);
		close(s->go[1]);	/* a -D command exits 1 */
		return err;
	}
	keeper_command(cli, pid, true);
	follow(cli, pid);
	/* strace announces the command it attached to with -D. */
	if (cli->opt.daemonize && !(cli->opt.print.quiet & Q_ATTACH) && !cli->opt.print.json)
		fprintf(stderr, "utrace: Process %d attached\n", pid);
	if (write(s->go[1], &c, 1) != 1)
		err = -errno;
	close(s->go[1]);
	return err;
}


/*
 * Where ptrace refused a process because something traces it already and
 * no join was possible: who (strace says only EPERM; a user needs to know
 * which program holds it).
 */
static void say_tracer(pid_t pid)
{
	pid_t tp = status_field(pid, "TracerPid:", 0);
	char comm[64];

	if (tp <= 0 || tp == getpid())
		return;
	if (!proc_comm(tp, comm, sizeof(comm)))
		snprintf(comm, sizeof(comm), "?");
	fprintf(stderr, "utrace: process %d is traced by process %d (%s), "
		"which does not let other programs join its trace\n", pid, tp,
		comm);
}

/* --gdb in extended-remote: gdb's run and attach, traced as ours are. */
static pid_t gdb_run(void *arg, char *const *argv)
{
	struct utrace_spawn_opts so = { .size = sizeof(so) };
	struct cli *cli = arg;
	pid_t pid;
	int err;

	so.envp = cli->opt.envp;
	if (cli->opt.detach_execve)
		so.flags |= UTRACE_SPAWN_NO_FILTER;
	err = utrace_spawn(cli->tracer, argv, &so, &pid);
	if (err)
		return err;
	gdbstub_set_process(cli->gdb, pid, true);
	err = attach_engines(cli, pid, pid);
	if (err) {
		kill(pid, SIGKILL);
		return err;
	}
	keeper_command(cli, pid, false);
	follow(cli, pid);
	return pid;
}

static int gdb_attach(void *arg, pid_t pid)
{
	struct cli *cli = arg;
	int err = attach_process(cli, pid);

	if (err >= 0 && !(cli->opt.print.quiet & Q_ATTACH) && !cli->opt.print.json)
		fprintf(stderr, "utrace: Process %d attached\n", pid);
	return err < 0 ? err : 0;
}

static const struct gdbstub_host gdb_host = { gdb_run, gdb_attach };

/*
 * The record path (utrace(7), "Syscalls observed in-process"), with
 * --records (utrace(1), RECORDS AND STOPS: not the default while its
 * known limits stand): before any process is started or attached, so that each
 * is set up at its execve or first stop.  Without the means (an older
 * kernel or CPU) every syscall takes the stop path, as with the switch.
 */
static void records_on(struct cli *cli)
{
	const struct options *o = &cli->opt;
	struct records_settings rs = {
		.print = cli->printer ? &o->print : NULL,
		.paths = &o->trace_paths,
		.count = cli->counter != NULL,
		.count_wall = o->wall_clock,
		.timeline = o->timeline != NULL,
		.trace_set = o->trace_all ? NULL : o->trace_set,
	};
	struct records_summary sum;
	int err;

	if (!o->records) {
		cli_debug(cli, "stops only (the default; --records for "
			  "in-process records)");
		return;
	}
	/*
	 * A debugger must see the program as it is: on the record path a
	 * thread stopped at a syscall (catch syscall, a signal sent by
	 * one) is inside the placed code, and gdb's backtrace would start
	 * there.
	 */
	if (o->gdb) {
		cli_debug(cli, "stops only (--gdb): no records");
		return;
	}
	err = records_start(cli->tracer, &rs, &sum);
	if (err == -EOPNOTSUPP)
		cli_debug(cli, "no record path on this kernel or CPU: stops "
			  "only");
	else if (err)
		fprintf(stderr, "utrace: no record path (%s): stops only\n",
			strerror(-err));
	else if (!sum.observers)
		cli_debug(cli, "no engine only looks (-k, -Y, "
			  "--pidns-translation): stops only");
	else
		cli_debug(cli, "records: %u syscalls may be recorded, %u take "
			  "the stop path for what printing them reads",
			  sum.recorded, sum.stops);
}

/* Start or attach what the options say; the number of processes traced. */
int start(struct cli *cli, int *status)
{
	struct utrace_spawn_opts so = { .size = sizeof(so) };
	const struct options *o = &cli->opt;
	struct starter *st = NULL;
	pid_t started = 0;
	int err, i, traced = 0;

	*status = 1;
	if (o->argv && (o->user || o->daemonize || !executable(o))) {
		st = calloc(1, sizeof(*st));
		if (!st)
			return 0;
		st->o = o;
		err = find_command(st);
		if (err)
			start_failed(o->argv[0], err);
		user_ids(st);
		if (pipe2(st->go, O_CLOEXEC) < 0) {
			fprintf(stderr, "utrace: pipe: %s\n", strerror(errno));
			free(st);
			return 0;
		}
		/* Our tracer is not its parent: yama must let it attach. */
		if (o->daemonize) {
			prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
			started = daemonize(st);
		}
	}
	err = utrace_tracer_new(&cli->tracer);
	if (err) {
		fprintf(stderr, "utrace: %s\n", strerror(-err));
		free(st);
		return 0;
	}
	cli_break(cli->tracer);
	if (!o->no_serve) {
		/* Others may join (utrace -p PID on our tracee); --no-serve. */
		err = utrace_tracer_serve(cli->tracer, UTRACE_SERVE_DEFAULT);
		if (!err)
			cli_debug(cli, "serving: other programs may join this "
				  "trace (--no-serve to refuse them)");
		if (err)
			fprintf(stderr, "utrace: not serving joiners: %s\n",
				strerror(-err));
	}
	if (!engines_new(cli)) {
		free(st);
		return 0;
	}
	records_on(cli);
	if (o->gdb) {
		char why[256];

		err = gdbstub_new(cli->tracer, o->gdb, o->gdb_any_host ?
				  GDBSTUB_ANY_HOST : 0, &cli->gdb, why,
				  sizeof(why));
		if (err) {
			fprintf(stderr, "utrace: --gdb=%s: %s\n", o->gdb, why);
			free(st);
			return 0;
		}
		gdbstub_set_host(cli->gdb, &gdb_host, cli, o->argv);
	}

	if (st) {
		if (!started)
			started = fork_command(st);
		if (cli->gdb)
			gdbstub_set_process(cli->gdb, started, true);
		err = trace_started(cli, st, started);
		free(st);
		if (err)
			return 0;
		/*
		 * The command's id once it is attached, as it always was:
		 * with -u/-D, -k takes its execve's stack at the entry.
		 */
		if (cli->printer)
			printer_set_command(cli->printer, started);
		cli->main_pid = started;
		traced++;
	} else if (o->argv) {
		so.envp = o->envp;
		/*
		 * As strace, a seccomp filter only with -f and without -b
		 * execve: a filtered process is never let go untraced, so
		 * without -f its children would stay traced (their own
		 * PTRACE_TRACEME fails: gdb cannot start its program) and be
		 * killed when utrace ends; with -b, the filter would outlive
		 * us.
		 */
		if (o->detach_execve || !o->follow)
			so.flags |= UTRACE_SPAWN_NO_FILTER;
		if (cli->gdb) {
			/*
			 * As gdbserver starts its program (and gdb's run
			 * while set disable-randomization is on): without
			 * address-space randomization, the same addresses
			 * from one session to the next.  The child inherits
			 * the personality at its fork.
			 */
			int old = personality(0xffffffff);

			if (old != -1)
				personality((unsigned long)old |
					    ADDR_NO_RANDOMIZE);
			err = utrace_spawn(cli->tracer, o->argv, &so,
					   &cli->main_pid);
			if (old != -1)
				personality((unsigned long)old);
		} else {
			err = utrace_spawn(cli->tracer, o->argv, &so,
					   &cli->main_pid);
		}
		if (err) {
			/* strace's words: its stat() or its child's exec. */
			if (err == -ENOENT)
				fprintf(stderr, "utrace: Can't stat '%s': %s\n",
					o->argv[0], strerror(-err));
			else if (err == -EAGAIN || err == -ENOMEM)
				fprintf(stderr, "utrace: fork: %s\n",
					strerror(-err));
			else
				fprintf(stderr, "utrace: exec: %s\n",
					strerror(-err));
			return 0;
		}
		cli_debug(cli, "started %s as process %d, %s seccomp filter",
			  o->argv[0], cli->main_pid,
			  so.flags & UTRACE_SPAWN_NO_FILTER ? "without a" :
			  "with a");
		if (cli->gdb)
			gdbstub_set_process(cli->gdb, cli->main_pid, true);
		if (cli->printer)
			printer_set_command(cli->printer, cli->main_pid);
		err = attach_engines(cli, cli->main_pid, cli->main_pid);
		if (err) {
			fprintf(stderr, "utrace: attach: pid %d: %s\n",
				cli->main_pid, strerror(-err));
			kill(cli->main_pid, SIGKILL);
			return 0;
		}
		keeper_command(cli, cli->main_pid, false);
		follow(cli, cli->main_pid);
		traced++;
	}
	cli_signals(o);
	if (cli->gdb && !o->argv && o->nattach)
		gdbstub_set_process(cli->gdb, read_tgid(o->attach[0]), false);
	for (i = 0; i < o->nattach && !cli_interrupted(); i++) {
		err = attach_process(cli, o->attach[i]);
		if (err == -EPERM && !o->argv && o->nattach == 1) {
			/*
			 * Traced already: join its tracer if it serves (another
			 * utrace, utraced), and print from there.
			 */
			err = join_other(cli, o->attach[i]);
			if (err >= 0) {
				*status = err;
				return -1;
			}
		}
		/* The kernel refuses a zombie with EPERM, as strace says. */
		if (err == -ESRCH && proc_state(o->attach[i]) == 'Z')
			err = -EPERM;
		if (err < 0) {
			/* As strace: not fatal while something is traced. */
			fprintf(stderr, "utrace: attach: ptrace(PTRACE_SEIZE, "
				"%d): %s\n", o->attach[i], strerror(-err));
			if (err == -EPERM)
				say_tracer(o->attach[i]);
			continue;
		}
		traced++;
		if ((o->print.quiet & Q_ATTACH) || o->print.json)
			continue;
		if (err > 1)
			fprintf(stderr, "utrace: Process %d attached with %d "
				"threads\n", o->attach[i], err);
		else
			fprintf(stderr, "utrace: Process %d attached\n",
				o->attach[i]);
	}
	return traced;
}

