// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace(1): an strace-class tracer made only of libutrace engines.
 *
 * Every traced thread gets, in this attach order:
 *   keeper   - counts live threads, keeps the exit status, -b execve
 *              (with -f, utrace_follow(3) attaches all of them to each new
 *              thread and child process before it runs: follow_new)
 *   ptrace   - the library's ptrace emulation (utrace_emulate_ptrace): the
 *              program's own ptrace/wait calls on threads we trace
 *   injector - --inject (decides the syscall action: entry callbacks run in
 *              reverse attach order, so it is called last there, and first
 *              at exit, before the printer reads the return value)
 *   counter  - -c / -C
 *   printer  - the text or --json trace (not with -c)
 *   timeline - --timeline
 */
#include <sched.h>
#include <pthread.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli.h"
#include "gdb/gdbstub.h"

/*
 * The only process-wide state: what the handler of SIGINT and the like
 * can reach, a signal handler having no argument.  It sets the flag and
 * breaks the tracer's loop (utrace_break(3) is async-signal-safe).
 */
static volatile sig_atomic_t interrupted;
static struct utrace_tracer *volatile break_tracer;

/* The keeper's marks per thread, in a small hash table. */
struct tinfo {
	pid_t tid;
	bool hide;		/* -u, -D: nothing shown before the execve */
	bool keep_exec;		/* -b execve: not on the command's own execve */
	bool detaching;		/* -b execve: being detached in this report */
	struct tinfo *next;
};

#define NBUCKETS	1024

/*
 * One run of the command: its options, its tracer and the engine objects
 * it made from them (main() owns it).  The keeper is this program's own
 * engine: it counts the live threads, keeps the command's exit status,
 * hides what -u/-D commands do before their execve and detaches at
 * execve with -b execve; with -f it attaches every engine to each new
 * thread and child process (follow_new).
 */
struct cli {
	struct options opt;
	struct utrace_tracer *tracer;
	struct gdbstub *gdb;		/* --gdb: the stub (NULL without) */
	struct sink *out;		/* -o: the trace, the -c table */
	struct printer *printer;	/* not with -c */
	struct injector *injector;	/* --inject */
	struct counter *counter;	/* -c, -C */
	struct timeline *timeline;	/* --timeline */
	long nrs[NR_MAX];		/* -e trace= as a list */
	size_t nnrs;
	/* The keeper. */
	pid_t main_pid;			/* the command (0: none, only -p) */
	int main_status;		/* its wait status (-1: not yet) */
	int live;			/* threads traced */
	struct tinfo *buckets[NBUCKETS];
	int ndetached;			/* tinfos of threads -b execve detached */
	/*
	 * Traced threads in strace's table order (a new thread takes the
	 * first free slot): the order of the "Process N detached" messages.
	 */
	pid_t *slots;
	size_t nslots;
};

static void slot_set(struct cli *cli, pid_t old, pid_t tid)
{
	size_t i;
	pid_t *p;

	for (i = 0; i < cli->nslots; i++)
		if (cli->slots[i] == old) {
			cli->slots[i] = tid;
			return;
		}
	if (!old) {
		p = realloc(cli->slots, (cli->nslots + 16) * sizeof(*p));
		if (!p)
			return;
		cli->slots = p;
		memset(cli->slots + cli->nslots, 0, 16 * sizeof(*p));
		cli->slots[cli->nslots] = tid;
		cli->nslots += 16;
	}
}

static struct tinfo **bucket(struct cli *cli, pid_t tid)
{
	return &cli->buckets[(unsigned)tid % NBUCKETS];
}

static struct tinfo *tinfo(struct cli *cli, pid_t tid, bool create)
{
	struct tinfo **b = bucket(cli, tid), *p;

	for (p = *b; p; p = p->next)
		if (p->tid == tid)
			return p;
	if (!create)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->tid = tid;
	p->next = *b;
	*b = p;
	return p;
}

static void tinfo_unlink(struct cli *cli, struct tinfo *t)
{
	struct tinfo **b = bucket(cli, t->tid);

	for (; *b; b = &(*b)->next)
		if (*b == t) {
			*b = t->next;
			return;
		}
}

static void tinfo_drop(struct cli *cli, pid_t tid)
{
	struct tinfo **b = bucket(cli, tid), *p;

	for (; (p = *b); b = &p->next)
		if (p->tid == tid) {
			*b = p->next;
			free(p);
			return;
		}
}

/* The keeper's tinfos, all (the tracer is gone). */
static void tinfo_free_all(struct cli *cli)
{
	size_t b;

	for (b = 0; b < NBUCKETS; b++)
		while (cli->buckets[b]) {
			struct tinfo *p = cli->buckets[b];

			cli->buckets[b] = p->next;
			free(p);
		}
	free(cli->slots);
	cli->slots = NULL;
	cli->nslots = 0;
}

/* -- The keeper engine ---------------------------------------------------- */

static int follow_new(void *arg, pid_t tid, pid_t tgid, pid_t parent,
		      unsigned long clone_flags);

/*
 * -u, -D: a command utrace starts itself is traced from before its execve;
 * every engine ignores what it does until then (strace's hidden log).
 */
static bool hidden(void *arg, pid_t tid, long nr)
{
	struct cli *cli = arg;
	struct tinfo *t;

	if (!cli->opt.user && !cli->opt.daemonize)
		return false;	/* the common case: no lookup per event */
	t = tinfo(cli, tid, false);
	if (!t || !t->hide)
		return false;
	if (nr == SYS_execve || nr == SYS_execveat)
		t->hide = false;
	return t->hide;
}

/* -b execve: whether the thread is being detached at this exec. */
static bool exec_detaching(void *arg, pid_t tid)
{
	struct tinfo *t = tinfo(arg, tid, false);

	return t && t->detaching;
}

/*
 * -b execve, as strace: a process that executes is let go, with strace's
 * "Process N detached" (after the text of its open execve line) and the
 * line ended with " <detached ...>"; but not on the first execve of the
 * command utrace started.  The other engines see exec_detaching() and
 * detach in their report_exec; the tinfo goes after the report.
 */
static uint32_t detach_on_exec(struct cli *cli, struct tinfo *t, pid_t tid)
{
	if (t && t->keep_exec) {
		t->keep_exec = false;
		return UTRACE_RESUME;
	}
	if (!t)
		return UTRACE_RESUME;
	if (!(cli->opt.print.quiet & Q_ATTACH) && !cli->opt.print.json) {
		sink_file(cli->out);	/* the open line's text first */
		fprintf(stderr, "utrace: Process %d detached\n", tid);
	}
	t->detaching = true;
	/* Its new threads and children are not ours either. */
	utrace_follow(cli->tracer, tid, 0, follow_new, cli);
	cli->ndetached++;
	slot_set(cli, tid, 0);
	cli->live--;
	return UTRACE_DETACH;
}

/* The tinfos of the threads detached at their execve, once reported. */
static void drop_detached(struct cli *cli)
{
	size_t b;

	for (b = 0; b < NBUCKETS && cli->ndetached; b++) {
		struct tinfo **pp = &cli->buckets[b], *p;

		while ((p = *pp)) {
			if (p->detaching) {
				*pp = p->next;
				free(p);
				cli->ndetached--;
			} else {
				pp = &p->next;
			}
		}
	}
}

/* A non-leader thread executed and now has the leader's id. */
static uint32_t k_exec(uint32_t action, struct utrace_engine *e,
		       pid_t former)
{
	struct cli *cli = utrace_engine_data(e);
	pid_t tid = utrace_engine_tid(e);
	struct tinfo *t;

	if (former != tid) {
		t = tinfo(cli, former, false);
		if (t) {
			/* the old leader's, if still there */
			tinfo_drop(cli, tid);
			tinfo_unlink(cli, t);
			t->tid = tid;
			t->next = *bucket(cli, tid);
			*bucket(cli, tid) = t;
		}
		slot_set(cli, former, tid);
	}
	t = tinfo(cli, tid, false);
	if (t)
		t->hide = false;
	if (cli->opt.detach_execve)
		return detach_on_exec(cli, t, tid);
	return UTRACE_RESUME;
}

static uint32_t k_death(struct utrace_engine *e, bool group_dead, int status)
{
	struct cli *cli = utrace_engine_data(e);

	if (utrace_engine_tid(e) == cli->main_pid)
		cli->main_status = status;
	return UTRACE_RESUME;
}

static void k_reap(struct utrace_engine *e)
{
	struct cli *cli = utrace_engine_data(e);
	pid_t tid = utrace_engine_tid(e);

	tinfo_drop(cli, tid);
	slot_set(cli, tid, 0);
	cli->live--;
}

static const struct utrace_engine_ops keeper_ops = {
	.report_exec = k_exec,
	.report_death = k_death,
	.report_reap = k_reap,
};

/* -u, -D and -b execve as the engine objects ask for them. */
static struct engine_host keeper_host(struct cli *cli)
{
	struct engine_host h = {
		.arg = cli, .hidden = hidden, .detaching = exec_detaching,
	};

	return h;
}

static int attach_engines(struct cli *cli, pid_t tid, pid_t tgid)
{
	struct utrace_engine *e;
	struct tinfo *ti;
	int err;

	err = utrace_attach(cli->tracer, tid, UTRACE_ATTACH_CREATE |
			    UTRACE_ATTACH_EXCLUSIVE | UTRACE_ATTACH_MATCH_OPS,
			    &keeper_ops, cli, &e);
	if (err)
		return err;
	ti = tinfo(cli, tid, true);
	if (ti)
		ti->hide = ti->keep_exec = ti->detaching = false;
	cli->live++;
	slot_set(cli, 0, tid);
	err = utrace_set_events(e, UTRACE_EVENT(EXEC) | UTRACE_EVENT(DEATH) |
				UTRACE_EVENT(REAP));
	utrace_engine_put(e);
	/*
	 * ptrace as an engine: second, so that it is called last at syscall
	 * entry, where it decides the program's ptrace and wait calls.
	 */
	if (!err)
		err = utrace_emulate_ptrace(cli->tracer, tid);
	/* gdb's queue before the printer: it hides its own traps. */
	if (!err && cli->gdb)
		gdbstub_attach(cli->gdb, tid, tgid);
	if (!err && cli->injector)
		err = injector_attach(cli->injector, cli->tracer, tid);
	if (!err && cli->counter)
		err = counter_attach(cli->counter, cli->tracer, tid);
	if (!err && cli->printer)
		err = printer_attach(cli->printer, cli->tracer, tid, tgid);
	if (!err && cli->timeline)
		err = timeline_attach(cli->timeline, cli->tracer, tid);
	return err;
}

/*
 * -f: utrace_follow(3) calls this for each new thread and child process
 * of a traced one before it runs (parent: the thread that cloned it), and
 * for the other threads of a process attached with -p (parent 0).
 */
static int follow_new(void *arg, pid_t tid, pid_t tgid, pid_t parent,
		      unsigned long clone_flags)
{
	struct cli *cli = arg;
	int err = attach_engines(cli, tid, tgid);

	if (!err && parent && !(cli->opt.print.quiet & Q_ATTACH) && !cli->opt.print.json)
		sink_msg(cli->out, "Process %d attached", tid);
	return err;
}

/* With -f, follow @pid's process and children; threads taken on now. */
static int follow(struct cli *cli, pid_t pid)
{
	if (!cli->opt.follow)
		return 0;
	return utrace_follow(cli->tracer, pid, UTRACE_WATCH_PROCESS |
			     UTRACE_WATCH_CHILDREN, follow_new, cli);
}

/* -- Attaching to running processes --------------------------------------- */

/*
 * -p PID: as strace, only that thread; with -f every thread of its
 * process, PID first.  Returns the number of threads attached or -errno.
 */
static int attach_process(struct cli *cli, pid_t pid)
{
	int err;

	err = attach_engines(cli, pid, read_tgid(pid));
	if (err)
		return err;
	/* Every other thread of its process too, with -f. */
	err = follow(cli, pid);
	return 1 + (err > 0 ? err : 0);
}

/* -- Starting the command ourselves: -u and -D ------------------------------ */

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
		    stat(s->path, &st) == 0 && S_ISREG(st.st_mode)) {
			if (!access(s->path, X_OK))
				return 0;
			err = -EACCES;
		}
		if (!*end)
			break;
		path = end + 1;
	}
	return err;
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
	fprintf(stderr, "utrace: exec: %s\n", strerror(errno));
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
	struct tinfo *t;
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
	t = tinfo(cli, pid, false);
	if (t) {
		t->hide = true;
		t->keep_exec = true;
	}
	follow(cli, pid);
	/* strace announces the command it attached to with -D. */
	if (cli->opt.daemonize && !(cli->opt.print.quiet & Q_ATTACH) && !cli->opt.print.json)
		fprintf(stderr, "utrace: Process %d attached\n", pid);
	if (write(s->go[1], &c, 1) != 1)
		err = -errno;
	close(s->go[1]);
	return err;
}

/* -- Signals and the loop -------------------------------------------------- */

static const int fatal_sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM };

static void on_signal(int sig)
{
	interrupted = sig;
	if (break_tracer)
		utrace_break(break_tracer);
}

/*
 * As strace: these signals detach and end utrace, except with -o FILE
 * and a command, where they are ignored (strace's default -I never), so
 * that a Ctrl-C meant for the program does not stop its trace.  Called
 * after the command was spawned, which keeps its own dispositions.
 */
static void setup_signals(const struct options *o)
{
	struct sigaction sa;
	size_t i;

	/* No SA_RESTART: the loop's wait returns and sees the break. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = o->intr_never ? SIG_IGN : on_signal;
	for (i = 0; i < sizeof(fatal_sigs) / sizeof(fatal_sigs[0]); i++)
		if (fatal_sigs[i] != SIGPIPE || o->intr_never)
			sigaction(fatal_sigs[i], &sa, NULL);
	/* -I 4 (never_tstp): ^Z does not stop utrace either. */
	if (o->intr >= 4) {
		sa.sa_handler = SIG_IGN;
		sigaction(SIGTSTP, &sa, NULL);
	}
}

/*
 * The outputs' ends: the -c table, the trace, the timeline's JSON.  The
 * objects are freed once the tracer is (else the process is about to die).
 */
static void finish_outputs(struct cli *cli, bool free_them)
{
	if (cli->counter)
		counter_report(cli->counter, sink_file(cli->out));
	sink_finish(cli->out);
	timeline_free(cli->timeline);
	cli->timeline = NULL;
	if (free_them) {
		counter_free(cli->counter);
		injector_free(cli->injector);
		cli->counter = NULL;
		cli->injector = NULL;
	}
}

/*
 * The printer's settings: the options' (the parse filled them), with
 * what only the command knows: the syscalls as a list, the injector whose
 * notes it prints, the keeper that hides and detaches.
 */
static void printer_settings_of(struct cli *cli, struct printer_settings *s)
{
	*s = cli->opt.print;
	if (!cli->opt.trace_all) {
		s->nrs = cli->nrs;
		s->nnrs = cli->nnrs;
	}
	s->injector = cli->injector;
	s->host = keeper_host(cli);
}

/* The engine objects the options ask for; false when it failed (said). */
static bool engines_new(struct cli *cli)
{
	const struct options *o = &cli->opt;
	int i;

	if (sink_open(o->follow_separately ? NULL : o->outfile, o->print.append,
		      &cli->out))
		return false;
	for (i = 0; i < NR_MAX; i++)
		if (o->trace_set[i])
			cli->nrs[cli->nnrs++] = i;
	if (o->ninject) {
		struct injector_settings is = {
			.rules = o->inject, .nrules = o->ninject,
			.paths = &o->trace_paths, .host = keeper_host(cli),
		};

		cli->injector = injector_new(&is);
		if (!cli->injector)
			return false;
	}
	if (o->summary_only || o->summary) {
		struct counter_settings cs = {
			.wall_clock = o->wall_clock, .all_threads = o->follow,
			.paths = &o->trace_paths, .sort = o->sort,
			.cols = o->sum_cols, .host = keeper_host(cli),
		};

		if (!o->trace_all) {
			cs.nrs = cli->nrs;
			cs.nnrs = cli->nnrs;
		}
		cli->counter = counter_new(&cs);
		if (!cli->counter)
			return false;
		/* The process's usage with each stop (counter.c). */
		if (cs.all_threads && !cs.wall_clock)
			utrace_tracer_set_options(cli->tracer,
						  UTRACE_TRACER_RUSAGE);
	}
	if (o->timeline) {
		struct timeline_settings ts = { .host = keeper_host(cli) };

		ts.out = fopen(o->timeline, "we");
		if (!ts.out) {
			fprintf(stderr, "utrace: can't fopen '%s': %s\n",
				o->timeline, strerror(errno));
			return false;
		}
		if (!o->trace_all) {
			ts.nrs = cli->nrs;
			ts.nnrs = cli->nnrs;
		}
		cli->timeline = timeline_new(&ts);
		if (!cli->timeline) {
			fclose(ts.out);
			return false;
		}
	}
	if (!o->summary_only) {
		struct printer_settings ps;

		printer_settings_of(cli, &ps);
		cli->printer = printer_new(&ps, cli->out);
		if (!cli->printer)
			return false;
	}
	return true;
}

/* Die of sig as the traced program did, without a core of our own. */
static int die_like(int sig)
{
	struct rlimit rl = { 0, 0 };
	struct sigaction sa;
	sigset_t set;

	if (sig == SIGKILL || sig == SIGSTOP)
		raise(sig);
	setrlimit(RLIMIT_CORE, &rl);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	return 128 + sig;	/* a signal that does not kill */
}

static int exit_like(int status)
{
	if (WIFSIGNALED(status))
		return die_like(WTERMSIG(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/*
 * Programs joined to this trace (another utrace -p, utraced's users) lose
 * it when we end: their watches go with the tracer, every thread they
 * held runs on, and their next read of the queue says the connection
 * ended.  Said once, before the tracer is freed.
 */
static void say_joiners(struct cli *cli, const char *why)
{
	int n = cli->tracer ? utrace_tracer_joiners(cli->tracer) : 0;

	if (n <= 0)
		return;
	fflush(sink_file(cli->out));
	fprintf(stderr, "utrace: %s: %d joined program%s still connected; "
		"%s trace ends with this one, no thread is left stopped\n",
		why, n, n == 1 ? " is" : "s are", n == 1 ? "its" : "their");
}

/* The tracer and the stub go (every thread left is let go). */
static void tracer_end(struct cli *cli)
{
	break_tracer = NULL;
	/* The stub's queue goes before its tracer. */
	gdbstub_free(cli->gdb);
	cli->gdb = NULL;
	utrace_tracer_free(cli->tracer);
	cli->tracer = NULL;
}

static void detach_all(struct cli *cli)
{
	size_t i;

	say_joiners(cli, "detaching");

	/* strace's order: per thread, the message, then its open line. */
	for (i = 0; i < cli->nslots; i++) {
		if (!cli->slots[i])
			continue;
		if (!(cli->opt.print.quiet & Q_ATTACH) && !cli->opt.print.json) {
			fflush(sink_file(cli->out));
			fprintf(stderr, "utrace: Process %d detached\n",
				cli->slots[i]);
		}
		if (cli->printer)
			printer_detach(cli->printer, cli->slots[i]);
	}
	tracer_end(cli);
}

/* Whether writing the trace failed (said already): exit status 1. */
static bool output_failed(struct cli *cli)
{
	bool failed = sink_failed(cli->out);

	return (cli->printer && printer_failed(cli->printer)) || failed;
}

/*
 * --gdb -p PID on a process that another tracer serves: gdb's stub works
 * through a queue joined to that tracer; utrace prints nothing itself
 * (the other tracer's log goes on).  Returns utrace's exit status, or
 * -EPERM when it could not join.
 */
static int gdb_join(struct cli *cli, pid_t pid)
{
	struct gdbstub *s = cli->gdb;
	int err = gdbstub_join(s, pid);

	if (err) {
		if (err != -ECONNREFUSED)
			fprintf(stderr, "utrace: --gdb: join the tracer of %d: "
				"%s\n", pid, strerror(-err));
		return -EPERM;
	}
	cli->gdb = NULL;
	tracer_end(cli);
	fprintf(stderr, "utrace: --gdb: joined the tracer of process %d\n",
		pid);
	if (gdbstub_start(s) < 0) {
		fprintf(stderr, "utrace: --gdb: no thread to debug\n");
		gdbstub_free(s);
		return 1;
	}
	while (!interrupted && gdbstub_serving(s))
		if (gdbstub_dispatch(s, -1) < 0)
			break;
	gdbstub_free(s);
	return 0;
}

/*
 * utrace -p PID on a process that another tracer traces: when that
 * tracer serves, join it and print from there.  Returns utrace's exit
 * status, or -EPERM when it could not (to be said as an attach failure).
 */
static int join_other(struct cli *cli, pid_t pid)
{
	pid_t tp = status_field(pid, "TracerPid:", 0);
	int err, sig;

	if (tp <= 0 || tp == getpid())
		return -EPERM;
	if (cli->gdb)
		return gdb_join(cli, pid);
	tracer_end(cli);
	err = join_trace(&cli->opt, cli->printer, cli->out, pid, tp, &sig);
	if (err == -ENOTSUP)
		return 1;
	if (err >= 0) {
		sink_finish(cli->out);
		if (sig)
			return die_like(sig);
		return output_failed(cli) ? 1 : err;
	}
	if (err != -ECONNREFUSED)
		fprintf(stderr, "utrace: join the tracer of %d (process %d): "
			"%s\n", pid, tp, strerror(-err));
	return -EPERM;
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
	if (tinfo(cli, pid, false))
		tinfo(cli, pid, false)->keep_exec = true;
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

/* Start or attach what the options say; the number of processes traced. */
static int start(struct cli *cli, int *status)
{
	struct utrace_spawn_opts so = { .size = sizeof(so) };
	const struct options *o = &cli->opt;
	struct starter *st = NULL;
	pid_t started = 0;
	int err, i, traced = 0;

	*status = 1;
	if (o->argv && (o->user || o->daemonize)) {
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
	break_tracer = cli->tracer;
	if (!o->no_serve) {
		/* Others may join (utrace -p PID on our tracee); --no-serve. */
		err = utrace_tracer_serve(cli->tracer, UTRACE_SERVE_DEFAULT);
		if (err)
			fprintf(stderr, "utrace: not serving joiners: %s\n",
				strerror(-err));
	}
	if (!engines_new(cli)) {
		free(st);
		return 0;
	}
	if (o->gdb) {
		err = gdbstub_new(cli->tracer, o->gdb, &cli->gdb);
		if (err) {
			fprintf(stderr, "utrace: --gdb=%s: %s\n", o->gdb,
				strerror(-err));
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
		if (tinfo(cli, cli->main_pid, false))
			tinfo(cli, cli->main_pid, false)->keep_exec = true;
		follow(cli, cli->main_pid);
		traced++;
	}
	setup_signals(o);
	if (cli->gdb && !o->argv && o->nattach)
		gdbstub_set_process(cli->gdb, read_tgid(o->attach[0]), false);
	for (i = 0; i < o->nattach && !interrupted; i++) {
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
		if (err < 0) {
			/* As strace: not fatal while something is traced. */
			fprintf(stderr, "utrace: attach: ptrace(PTRACE_SEIZE, "
				"%d): %s\n", o->attach[i], strerror(-err));
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

/* One run: start, trace until the end, the exit status. */
static int run(struct cli *cli, int argc, char **argv)
{
	int status, traced;

	parse_options(&cli->opt, argc, argv);
	traced = start(cli, &status);
	if (traced < 0)
		return status;		/* joined another tracer */
	if (!traced) {
		tracer_end(cli);
		return 1;
	}
	if (cli->gdb && gdbstub_start(cli->gdb) < 0)
		fprintf(stderr, "utrace: --gdb: no thread to debug\n");

	/*
	 * Lines collect while stops keep coming (one dispatch handles every
	 * status ready); they are written out before each dispatch that may
	 * wait, so every line is out as soon as the tracees go quiet.
	 */
	while (!interrupted && (cli->live > 0 || gdbstub_serving(cli->gdb))) {
		int to = cli->injector ? injector_timeout_ms(cli->injector) :
			 -1;

		if (to) {
			if (cli->printer)
				printer_flush(cli->printer);
			else
				sink_flush(cli->out);
		}
		if ((cli->gdb ? gdbstub_dispatch(cli->gdb, to) :
		     utrace_dispatch(cli->tracer, to)) < 0)
			break;
		if (cli->ndetached)
			drop_detached(cli);
		if (cli->injector)
			injector_run_timers(cli->injector);
	}

	if (interrupted) {
		/*
		 * strace's cleanup: detach everything, send the signal to the
		 * command (without waiting: it may ignore it), then die of the
		 * signal too.
		 */
		detach_all(cli);
		if (cli->main_pid > 0) {
			kill(cli->main_pid, SIGCONT);
			kill(cli->main_pid, interrupted);
		}
		finish_outputs(cli, false);
		return die_like(interrupted);
	}
	say_joiners(cli, "the trace ends");
	tracer_end(cli);
	finish_outputs(cli, true);
	if (cli->main_pid > 0 && cli->main_status >= 0 &&
	    WIFSIGNALED(cli->main_status))
		return exit_like(cli->main_status);
	if (output_failed(cli))
		return 1;
	if (cli->main_pid > 0 && cli->main_status >= 0)
		return exit_like(cli->main_status);
	return 0;
}

int main(int argc, char **argv)
{
	struct cli *cli = calloc(1, sizeof(*cli));
	int status;

	if (!cli) {
		fprintf(stderr, "utrace: %s\n", strerror(ENOMEM));
		return 1;
	}
	cli->main_status = -1;
	status = run(cli, argc, argv);
	/* Whatever is left, with the tracer gone. */
	tracer_end(cli);
	printer_free(cli->printer);
	counter_free(cli->counter);
	injector_free(cli->injector);
	timeline_free(cli->timeline);
	sink_free(cli->out);
	tinfo_free_all(cli);
	options_free(&cli->opt);
	free(cli);
	return status;
}
