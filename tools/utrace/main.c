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
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli.h"
#include "gdbstub.h"

struct utrace_tracer *tracer;
/* --gdb: the stub serving the first process (NULL without --gdb). */
static struct gdbstub *gdb;

static volatile sig_atomic_t interrupted;
static pid_t main_pid;
static int main_status = -1;
static int live;

/* The engine objects of this run (main() owns them). */
struct session {
	struct injector *injector;	/* --inject */
	struct counter *counter;	/* -c, -C */
	struct timeline *timeline;	/* --timeline */
};

/* The keeper's marks per thread, in a small hash table. */
struct tinfo {
	pid_t tid;
	bool hide;		/* -u, -D: nothing shown before the execve */
	bool keep_exec;		/* -b execve: not on the command's own execve */
	bool detaching;		/* -b execve: being detached in this report */
	struct tinfo *next;
};
static struct tinfo *buckets[1024];
static int ndetached;		/* tinfos of threads -b execve detached */

/*
 * Traced threads in strace's table order (a new thread takes the first
 * free slot): the order of the "Process N detached" messages.
 */
static pid_t *slots;
static size_t nslots;

static void slot_set(pid_t old, pid_t tid)
{
	size_t i;
	pid_t *p;

	for (i = 0; i < nslots; i++)
		if (slots[i] == old) {
			slots[i] = tid;
			return;
		}
	if (!old) {
		p = realloc(slots, (nslots + 16) * sizeof(*p));
		if (!p)
			return;
		slots = p;
		memset(slots + nslots, 0, 16 * sizeof(*p));
		slots[nslots] = tid;
		nslots += 16;
	}
}

static struct tinfo *tinfo(pid_t tid, bool create)
{
	struct tinfo **b = &buckets[(unsigned)tid % 1024], *p;

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

static void tinfo_unlink(struct tinfo *t)
{
	struct tinfo **b = &buckets[(unsigned)t->tid % 1024];

	for (; *b; b = &(*b)->next)
		if (*b == t) {
			*b = t->next;
			return;
		}
}

static void tinfo_drop(pid_t tid)
{
	struct tinfo **b = &buckets[(unsigned)tid % 1024], *p;

	for (; (p = *b); b = &p->next)
		if (p->tid == tid) {
			*b = p->next;
			free(p);
			return;
		}
}

double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const long *trace_nrs(size_t *n)
{
	static long nrs[NR_MAX];
	static size_t count;
	static bool built;
	int i;

	if (opt.trace_all) {
		*n = 0;
		return NULL;
	}
	if (!built) {
		for (i = 0; i < NR_MAX; i++)
			if (opt.trace_set[i])
				nrs[count++] = i;
		built = true;
	}
	*n = count;
	return nrs;
}

/* -- The keeper engine ---------------------------------------------------- */

static int follow_new(void *arg, pid_t tid, pid_t tgid, pid_t parent,
		      unsigned long clone_flags);

bool hidden(pid_t tid, long nr)
{
	struct tinfo *t;

	if (!opt.user && !opt.daemonize)
		return false;	/* the common case: no lookup per event */
	t = tinfo(tid, false);
	if (!t || !t->hide)
		return false;
	if (nr == SYS_execve || nr == SYS_execveat)
		t->hide = false;
	return t->hide;
}

bool exec_detaching(pid_t tid)
{
	struct tinfo *t = tinfo(tid, false);

	return t && t->detaching;
}

/*
 * -b execve, as strace: a process that executes is let go, with strace's
 * "Process N detached" (after the text of its open execve line) and the
 * line ended with " <detached ...>"; but not on the first execve of the
 * command utrace started.  The other engines see exec_detaching() and
 * detach in their report_exec; the tinfo goes after the report.
 */
static uint32_t detach_on_exec(struct session *ss, struct tinfo *t, pid_t tid)
{
	if (t && t->keep_exec) {
		t->keep_exec = false;
		return UTRACE_RESUME;
	}
	if (!t)
		return UTRACE_RESUME;
	if (!(opt.quiet & Q_ATTACH) && !opt.json) {
		summary_file();		/* the open line's text first */
		fprintf(stderr, "utrace: Process %d detached\n", tid);
	}
	t->detaching = true;
	/* Its new threads and children are not ours either. */
	utrace_follow(tracer, tid, 0, follow_new, ss);
	ndetached++;
	slot_set(tid, 0);
	live--;
	return UTRACE_DETACH;
}

/* The tinfos of the threads detached at their execve, once reported. */
static void drop_detached(void)
{
	size_t b;

	for (b = 0; b < 1024 && ndetached; b++) {
		struct tinfo **pp = &buckets[b], *p;

		while ((p = *pp)) {
			if (p->detaching) {
				*pp = p->next;
				free(p);
				ndetached--;
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
	pid_t tid = utrace_engine_tid(e);
	struct tinfo *t;

	if (former != tid) {
		t = tinfo(former, false);
		if (t) {
			tinfo_drop(tid);  /* the old leader's, if still there */
			tinfo_unlink(t);
			t->tid = tid;
			t->next = buckets[(unsigned)tid % 1024];
			buckets[(unsigned)tid % 1024] = t;
		}
		slot_set(former, tid);
	}
	t = tinfo(tid, false);
	if (t)
		t->hide = false;
	if (opt.detach_execve)
		return detach_on_exec(utrace_engine_data(e), t, tid);
	return UTRACE_RESUME;
}

static uint32_t k_death(struct utrace_engine *e, bool group_dead, int status)
{
	if (utrace_engine_tid(e) == main_pid)
		main_status = status;
	return UTRACE_RESUME;
}

static void k_reap(struct utrace_engine *e)
{
	pid_t tid = utrace_engine_tid(e);

	tinfo_drop(tid);
	slot_set(tid, 0);
	live--;
}

static const struct utrace_engine_ops keeper_ops = {
	.report_exec = k_exec,
	.report_death = k_death,
	.report_reap = k_reap,
};

pid_t spawned_pid(void)
{
	return main_pid;
}

/* -u, -D and -b execve as the engine objects ask for them. */
static bool host_hidden_cb(void *arg, pid_t tid, long nr)
{
	return hidden(tid, nr);
}

static bool host_detaching_cb(void *arg, pid_t tid)
{
	return exec_detaching(tid);
}

static const struct engine_host keeper_host = {
	.hidden = host_hidden_cb,
	.detaching = host_detaching_cb,
};

static int attach_engines(struct session *ss, pid_t tid, pid_t tgid)
{
	struct utrace_engine *e;
	struct tinfo *ti;
	int err;

	err = utrace_attach(tracer, tid, UTRACE_ATTACH_CREATE |
			    UTRACE_ATTACH_EXCLUSIVE | UTRACE_ATTACH_MATCH_OPS,
			    &keeper_ops, ss, &e);
	if (err)
		return err;
	ti = tinfo(tid, true);
	if (ti)
		ti->hide = ti->keep_exec = ti->detaching = false;
	live++;
	slot_set(0, tid);
	err = utrace_set_events(e, UTRACE_EVENT(EXEC) | UTRACE_EVENT(DEATH) |
				UTRACE_EVENT(REAP));
	utrace_engine_put(e);
	/*
	 * ptrace as an engine: second, so that it is called last at syscall
	 * entry, where it decides the program's ptrace and wait calls.
	 */
	if (!err)
		err = utrace_emulate_ptrace(tracer, tid);
	/* gdb's first engine before the printer: it hides its own traps. */
	if (!err && gdb)
		gdbstub_attach_first(gdb, tid, tgid);
	if (!err && ss->injector)
		err = injector_attach(ss->injector, tracer, tid);
	if (!err && ss->counter)
		err = counter_attach(ss->counter, tracer, tid);
	if (!err && !opt.summary_only)
		err = printer_attach(tid, tgid);
	if (!err && ss->timeline)
		err = timeline_attach(ss->timeline, tracer, tid);
	if (!err && gdb)
		gdbstub_attach_last(gdb, tid, tgid);
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
	int err = attach_engines(arg, tid, tgid);

	if (!err && parent && !(opt.quiet & Q_ATTACH) && !opt.json)
		tracer_msg("Process %d attached", tid);
	return err;
}

/* With -f, follow @pid's process and children; threads taken on now. */
static int follow(struct session *ss, pid_t pid)
{
	if (!opt.follow)
		return 0;
	return utrace_follow(tracer, pid, UTRACE_WATCH_PROCESS |
			     UTRACE_WATCH_CHILDREN, follow_new, ss);
}

/* -- Attaching to running processes --------------------------------------- */

/* A field of /proc/TID/status ("Tgid:", "TracerPid:"), or dflt. */
static pid_t status_field(pid_t tid, const char *key, pid_t dflt)
{
	char path[64], line[128];
	size_t kl = strlen(key);
	pid_t v = dflt;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return dflt;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, kl)) {
			v = (pid_t)atoi(line + kl);
			break;
		}
	fclose(f);
	return v;
}

/* The process a thread belongs to, from /proc/TID/status. */
pid_t read_tgid(pid_t tid)
{
	char path[64], line[128];
	pid_t tgid = tid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return tid;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Tgid:", 5)) {
			tgid = (pid_t)atoi(line + 5);
			break;
		}
	fclose(f);
	return tgid > 0 ? tgid : tid;
}

/*
 * -p PID: as strace, only that thread; with -f every thread of its
 * process, PID first.  Returns the number of threads attached or -errno.
 */
static int attach_process(struct session *ss, pid_t pid)
{
	int err;

	err = attach_engines(ss, pid, read_tgid(pid));
	if (err)
		return err;
	/* Every other thread of its process too, with -f. */
	err = follow(ss, pid);
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
	char path[PATH_MAX];	/* the command, found along PATH */
	uid_t uid, euid;	/* -u: the user's, or the file's set-user-ID */
	gid_t gid, egid;
	int go[2];		/* the tracer writes one byte: traced */
};

/* strace's search: as given with a '/', else along PATH; 0 or -errno. */
static int find_command(struct starter *s)
{
	const char *file = opt.argv[0], *path = getenv("PATH");
	struct stat st;
	int err = -ENOENT;

	if (opt.envp) {
		char **e;

		path = NULL;
		for (e = opt.envp; *e; e++)
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
	if (!opt.user)
		return;
	if (getuid() != 0 || geteuid() != 0) {
		fprintf(stderr, "utrace: You must be root to use the "
			"-u/--username option\n");
		exit(1);
	}
	pw = getpwnam(opt.user);
	if (!pw) {
		fprintf(stderr, "utrace: Cannot find user '%s'\n", opt.user);
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
	if (opt.user) {
		/* Groups first: they need the privileges setuid drops. */
		if (initgroups(opt.user, s->gid) < 0) {
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
	execve(s->path, opt.argv, opt.envp ? opt.envp : environ);
	fprintf(stderr, "utrace: exec: %s\n", strerror(errno));
	_exit(1);
}

static void start_failed(int err)
{
	if (err == -ENOENT)
		fprintf(stderr, "utrace: Can't stat '%s': %s\n", opt.argv[0],
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
	if (opt.daemonize == 2 && setpgid(0, 0) < 0) {
		fprintf(stderr, "utrace: Cannot create a new process group: "
			"%s\n", strerror(errno));
		_exit(1);
	}
	if (opt.daemonize == 3 && setsid() < 0) {
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
static int trace_started(struct session *ss, struct starter *s, pid_t pid)
{
	struct tinfo *t;
	char c = 1;
	int err;

	err = attach_engines(ss, pid, pid);
	if (err) {
		fprintf(stderr, "utrace: attach: ptrace(PTRACE_SEIZE, %d): %s\n",
			pid, strerror(-err));
		if (!opt.daemonize)
			kill(pid, SIGKILL);
		close(s->go[1]);	/* a -D command exits 1 */
		return err;
	}
	t = tinfo(pid, false);
	if (t) {
		t->hide = true;
		t->keep_exec = true;
	}
	follow(ss, pid);
	/* strace announces the command it attached to with -D. */
	if (opt.daemonize && !(opt.quiet & Q_ATTACH) && !opt.json)
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
	utrace_break(tracer);
}

/*
 * As strace: these signals detach and end utrace, except with -o FILE
 * and a command, where they are ignored (strace's default -I never), so
 * that a Ctrl-C meant for the program does not stop its trace.  Called
 * after the command was spawned, which keeps its own dispositions.
 */
static void setup_signals(void)
{
	struct sigaction sa;
	size_t i;

	/* No SA_RESTART: the loop's wait returns and sees the break. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = opt.intr_never ? SIG_IGN : on_signal;
	for (i = 0; i < sizeof(fatal_sigs) / sizeof(fatal_sigs[0]); i++)
		if (fatal_sigs[i] != SIGPIPE || opt.intr_never)
			sigaction(fatal_sigs[i], &sa, NULL);
	/* -I 4 (never_tstp): ^Z does not stop utrace either. */
	if (opt.intr >= 4) {
		sa.sa_handler = SIG_IGN;
		sigaction(SIGTSTP, &sa, NULL);
	}
}

/*
 * The outputs' ends: the -c table, the trace, the timeline's JSON.  The
 * objects are freed once the tracer is (else the process is about to die).
 */
static void finish_outputs(struct session *ss, bool free_them)
{
	if (ss->counter)
		counter_report(ss->counter, summary_file());
	printer_finish();
	timeline_free(ss->timeline);
	ss->timeline = NULL;
	if (free_them) {
		counter_free(ss->counter);
		injector_free(ss->injector);
		ss->counter = NULL;
		ss->injector = NULL;
	}
}

/* The engine objects the options ask for; false when out of memory. */
static bool session_init(struct session *ss)
{
	if (opt.ninject) {
		struct injector_settings is = {
			.rules = opt.inject, .nrules = opt.ninject,
			.paths = &opt.trace_paths, .host = keeper_host,
		};

		ss->injector = injector_new(&is);
		if (!ss->injector)
			return false;
		printer_set_injector(ss->injector);
	}
	if (opt.summary_only || opt.summary) {
		struct counter_settings cs = {
			.wall_clock = opt.wall_clock, .all_threads = opt.follow,
			.paths = &opt.trace_paths, .sort = opt.sort,
			.cols = opt.sum_cols, .host = keeper_host,
		};

		cs.nrs = trace_nrs(&cs.nnrs);
		ss->counter = counter_new(&cs);
		if (!ss->counter)
			return false;
	}
	if (opt.timeline) {
		struct timeline_settings ts = { .host = keeper_host };

		ts.out = fopen(opt.timeline, "we");
		if (!ts.out) {
			fprintf(stderr, "utrace: can't fopen '%s': %s\n",
				opt.timeline, strerror(errno));
			return false;
		}
		ts.nrs = trace_nrs(&ts.nnrs);
		ss->timeline = timeline_new(&ts);
		if (!ss->timeline) {
			fclose(ts.out);
			return false;
		}
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
static void say_joiners(const char *why)
{
	int n = tracer ? utrace_tracer_joiners(tracer) : 0;

	if (n <= 0)
		return;
	fflush(summary_file());
	fprintf(stderr, "utrace: %s: %d joined program%s still connected; "
		"%s trace ends with this one, no thread is left stopped\n",
		why, n, n == 1 ? " is" : "s are", n == 1 ? "its" : "their");
}

static void detach_all(void)
{
	size_t i;

	say_joiners("detaching");

	/* strace's order: per thread, the message, then its open line. */
	for (i = 0; i < nslots; i++) {
		if (!slots[i])
			continue;
		if (!(opt.quiet & Q_ATTACH) && !opt.json) {
			fflush(summary_file());
			fprintf(stderr, "utrace: Process %d detached\n",
				slots[i]);
		}
		printer_detach(slots[i]);
	}
	utrace_tracer_free(tracer);
	tracer = NULL;
	gdbstub_free(gdb);
	gdb = NULL;
}

int main(int argc, char **argv)
{
	struct session ss = { 0 };
	struct utrace_spawn_opts so = { .size = sizeof(so) };
	struct starter *st = NULL;
	pid_t started = 0;
	int err, i, traced = 0;

	parse_options(argc, argv);
	if (opt.argv && (opt.user || opt.daemonize)) {
		st = calloc(1, sizeof(*st));
		if (!st)
			return 1;
		err = find_command(st);
		if (err)
			start_failed(err);
		user_ids(st);
		if (pipe2(st->go, O_CLOEXEC) < 0) {
			fprintf(stderr, "utrace: pipe: %s\n", strerror(errno));
			return 1;
		}
		/* Our tracer is not its parent: yama must let it attach. */
		if (opt.daemonize) {
			prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
			started = daemonize(st);
		}
	}
	err = utrace_tracer_new(&tracer);
	if (err) {
		fprintf(stderr, "utrace: %s\n", strerror(-err));
		return 1;
	}
	if (!opt.no_serve) {
		/* Others may join (utrace -p PID on our tracee); --no-serve. */
		err = utrace_tracer_serve(tracer, UTRACE_SERVE_DEFAULT);
		if (err)
			fprintf(stderr, "utrace: not serving joiners: %s\n",
				strerror(-err));
	}
	if (printer_init() < 0)
		return 1;
	if (!session_init(&ss))
		return 1;
	if (opt.gdb) {
		err = gdbstub_new(tracer, opt.gdb, &gdb);
		if (err) {
			fprintf(stderr, "utrace: --gdb=%s: %s\n", opt.gdb,
				strerror(-err));
			utrace_tracer_free(tracer);
			return 1;
		}
	}

	if (st) {
		if (!started)
			started = fork_command(st);
		if (gdb)
			gdbstub_set_process(gdb, started, true);
		err = trace_started(&ss, st, started);
		free(st);
		if (err) {
			utrace_tracer_free(tracer);
			return 1;
		}
		main_pid = started;
		traced++;
	} else if (opt.argv) {
		so.envp = opt.envp;
		/* -b execve: as strace, no seccomp filter (it would outlive us). */
		if (opt.detach_execve)
			so.flags |= UTRACE_SPAWN_NO_FILTER;
		err = utrace_spawn(tracer, opt.argv, &so, &main_pid);
		if (err) {
			/* strace's words: its stat() or its child's exec. */
			if (err == -ENOENT)
				fprintf(stderr, "utrace: Can't stat '%s': %s\n",
					opt.argv[0], strerror(-err));
			else if (err == -EAGAIN || err == -ENOMEM)
				fprintf(stderr, "utrace: fork: %s\n",
					strerror(-err));
			else
				fprintf(stderr, "utrace: exec: %s\n",
					strerror(-err));
			utrace_tracer_free(tracer);
			return 1;
		}
		if (gdb)
			gdbstub_set_process(gdb, main_pid, true);
		err = attach_engines(&ss, main_pid, main_pid);
		if (err) {
			fprintf(stderr, "utrace: attach: pid %d: %s\n",
				main_pid, strerror(-err));
			kill(main_pid, SIGKILL);
			utrace_tracer_free(tracer);
			return 1;
		}
		if (tinfo(main_pid, false))
			tinfo(main_pid, false)->keep_exec = true;
		follow(&ss, main_pid);
		traced++;
	}
	setup_signals();
	if (gdb && !opt.argv && opt.nattach)
		gdbstub_set_process(gdb, read_tgid(opt.attach[0]), false);
	for (i = 0; i < opt.nattach && !interrupted; i++) {
		err = attach_process(&ss, opt.attach[i]);
		if (err == -EPERM && !opt.argv && opt.nattach == 1) {
			/*
			 * Traced already: join its tracer if it serves (another
			 * utrace, utraced), and print from there.
			 */
			pid_t tp = status_field(opt.attach[i], "TracerPid:", 0);
			int sig;

			if (tp > 0 && tp != getpid()) {
				utrace_tracer_free(tracer);
				tracer = NULL;
				gdbstub_free(gdb);
				gdb = NULL;
				err = join_trace(opt.attach[i], tp, &sig);
				if (err == -ENOTSUP)
					return 1;
				if (err >= 0) {
					printer_finish();
					if (sig)
						return die_like(sig);
					return printer_failed() ? 1 : err;
				}
				if (err != -ECONNREFUSED)
					fprintf(stderr, "utrace: join the "
						"tracer of %d (process %d): "
						"%s\n", opt.attach[i], tp,
						strerror(-err));
				err = -EPERM;
			}
		}
		if (err < 0) {
			/* As strace: not fatal while something is traced. */
			fprintf(stderr, "utrace: attach: ptrace(PTRACE_SEIZE, "
				"%d): %s\n", opt.attach[i], strerror(-err));
			continue;
		}
		traced++;
		if ((opt.quiet & Q_ATTACH) || opt.json)
			continue;
		if (err > 1)
			fprintf(stderr, "utrace: Process %d attached with %d "
				"threads\n", opt.attach[i], err);
		else
			fprintf(stderr, "utrace: Process %d attached\n",
				opt.attach[i]);
	}
	if (!traced) {
		utrace_tracer_free(tracer);
		gdbstub_free(gdb);
		return 1;
	}
	if (gdb && gdbstub_start(gdb) < 0)
		fprintf(stderr, "utrace: --gdb: no thread to debug\n");

	/*
	 * Lines collect while stops keep coming (one dispatch handles every
	 * status ready); they are written out before each dispatch that may
	 * wait, so every line is out as soon as the tracees go quiet.
	 */
	while (!interrupted && (live > 0 || gdbstub_serving(gdb))) {
		int to = ss.injector ? injector_timeout_ms(ss.injector) : -1;

		if (to)
			printer_flush();
		if ((gdb ? gdbstub_dispatch(gdb, to) :
		     utrace_dispatch(tracer, to)) < 0)
			break;
		if (ndetached)
			drop_detached();
		if (ss.injector)
			injector_run_timers(ss.injector);
	}

	if (interrupted) {
		/*
		 * strace's cleanup: detach everything, send the signal to the
		 * command (without waiting: it may ignore it), then die of the
		 * signal too.
		 */
		detach_all();
		if (main_pid > 0) {
			kill(main_pid, SIGCONT);
			kill(main_pid, interrupted);
		}
		finish_outputs(&ss, false);
		return die_like(interrupted);
	}
	say_joiners("the trace ends");
	utrace_tracer_free(tracer);
	gdbstub_free(gdb);
	finish_outputs(&ss, true);
	if (main_pid > 0 && main_status >= 0 && WIFSIGNALED(main_status))
		return exit_like(main_status);
	if (printer_failed())
		return 1;
	if (main_pid > 0 && main_status >= 0)
		return exit_like(main_status);
	return 0;
}
