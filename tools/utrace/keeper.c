// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The keeper: the utrace command's own engine, first on every traced
 * thread.  It counts the live threads, keeps the command's exit status and
 * strace's table order of threads (the order of the "Process N detached"
 * messages), hides what -u/-D commands do before their execve, lets a
 * process go at its execve with -b execve, and with -f attaches every
 * engine object to each new thread and child process (follow_new, which
 * utrace_follow(3) calls).  Its marks per thread are in cli->marks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "command.h"
#include "gdb/gdbstub.h"

/* The keeper's marks on a thread. */
struct tinfo {
	bool hide;		/* -u, -D: nothing shown before the execve */
	bool first_exec;	/* the command's first execve is to come */
	bool check_exec;	/* its first execve is running: did it fail? */
	bool rehide;		/* it failed: hide again from the next call */
	bool exit_one;		/* it failed: the child exits 1, as strace's */
	bool keep_exec;		/* -b execve: not on the command's own execve */
	bool detaching;		/* -b execve: being detached in this report */
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


static struct tinfo *tinfo(struct cli *cli, pid_t tid)
{
	return tidmap_get(&cli->marks, tid);
}

/* tid's marks, new ones (all false) if it had none; NULL: no memory. */
static struct tinfo *tinfo_new(struct cli *cli, pid_t tid)
{
	struct tinfo *t = tinfo(cli, tid);

	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (t && tidmap_put(&cli->marks, tid, t)) {
		free(t);
		t = NULL;
	}
	return t;
}

static void tinfo_drop(struct cli *cli, pid_t tid)
{
	free(tidmap_del(&cli->marks, tid));
}

static bool drop_all(pid_t tid, void *v, void *arg)
{
	free(v);
	return true;
}

void keeper_free(struct cli *cli)
{
	tidmap_filter(&cli->marks, drop_all, NULL);
	tidmap_clear(&cli->marks);
	free(cli->slots);
	cli->slots = NULL;
	cli->nslots = 0;
}

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

	if (!cli->first_execs)
		return false;	/* the common case: no lookup per event */
	t = tinfo(cli, tid);
	if (!t)
		return false;
	if (t->rehide && nr >= 0) {
		t->rehide = false;
		t->hide = true;
	}
	if (t->first_exec && (nr == SYS_execve || nr == SYS_execveat)) {
		t->hide = t->first_exec = false;
		t->check_exec = true;
	}
	return t->hide;
}

/*
 * The exit of the first execve of a command started here: when it failed,
 * as strace, "utrace: exec: ERROR" after its line, and what the process
 * does next is hidden again; the keeper stops seeing syscall exits.  The
 * process then exits 1 as strace's child does (k_syscall_entry), not the
 * library's 127 (utrace_spawn(3)).
 */
static uint32_t k_syscall_exit(uint32_t action, struct utrace_engine *e)
{
	struct cli *cli = utrace_engine_data(e);
	struct tinfo *t = tinfo(cli, utrace_engine_tid(e));
	struct utrace_syscall sc;

	if (t && t->check_exec && utrace_syscall_get(e, &sc) == 0) {
		t->check_exec = false;
		cli->first_execs--;
		if (sc.ret < 0 && sc.ret >= -4095) {
			static const long exits[] = { SYS_exit_group };

			sink_msg(cli->out, "exec: %s", strerror((int)-sc.ret));
			t->rehide = true;
			cli->first_execs++;	/* hidden() must see it again */
			/* its _exit(127) is to become strace's exit 1 */
			t->exit_one = true;
			utrace_set_syscalls(e, exits, 1);
			utrace_set_events(e, UTRACE_EVENT(EXEC) |
					  UTRACE_EVENT(DEATH) |
					  UTRACE_EVENT(REAP) |
					  UTRACE_EVENT(SYSCALL_ENTRY));
			return UTRACE_RESUME;
		}
	}
	/* Once that execve is over, no more exits (the hidden ones came first). */
	if (!t || (!t->first_exec && !t->check_exec))
		utrace_set_events(e, UTRACE_EVENT(EXEC) | UTRACE_EVENT(DEATH) |
				  UTRACE_EVENT(REAP));
	return UTRACE_RESUME;
}

/*
 * After a failed first execve: the spawned child's _exit(127) made
 * exit_group(1), the status strace's child exits with; then nothing more.
 */
static uint32_t k_syscall_entry(uint32_t action, struct utrace_engine *e)
{
	struct cli *cli = utrace_engine_data(e);
	struct tinfo *t = tinfo(cli, utrace_engine_tid(e));
	struct utrace_syscall sc;

	if (!t || !t->exit_one || utrace_syscall_get(e, &sc) ||
	    sc.nr != SYS_exit_group)
		return utrace_pass(action, UTRACE_RESUME);
	t->exit_one = false;
	if (sc.args[0] == 127) {
		sc.args[0] = 1;
		utrace_syscall_set_args(e, sc.args);
	}
	utrace_set_events(e, UTRACE_EVENT(EXEC) | UTRACE_EVENT(DEATH) |
			  UTRACE_EVENT(REAP));
	return utrace_pass(action, UTRACE_RESUME);
}

/* -b execve: whether the thread is being detached at this exec. */
static bool exec_detaching(void *arg, pid_t tid)
{
	struct tinfo *t = tinfo(arg, tid);

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
	cli_debug(cli, "process %d detached at its execve (-b execve)", tid);
	/* Its new threads and children are not ours either. */
	utrace_follow(cli->tracer, tid, 0, follow_new, cli);
	cli->ndetached++;
	slot_set(cli, tid, 0);
	cli->live--;
	return UTRACE_DETACH;
}

/* The tinfos of the threads detached at their execve, once reported. */
static bool drop_detaching(pid_t tid, void *v, void *arg)
{
	struct tinfo *t = v;
	int *n = arg;

	if (!t->detaching)
		return false;
	free(t);
	(*n)--;
	return true;
}

/* The tinfos of the threads detached at their execve, once reported. */
void keeper_drop_detached(struct cli *cli)
{
	tidmap_filter(&cli->marks, drop_detaching, &cli->ndetached);
}

/* A non-leader thread executed and now has the leader's id. */
static uint32_t k_exec(uint32_t action, struct utrace_engine *e,
		       pid_t former)
{
	struct cli *cli = utrace_engine_data(e);
	pid_t tid = utrace_engine_tid(e);
	struct tinfo *t;

	if (former != tid)
		cli_debug(cli, "thread %d executed and is now %d, its "
			  "process's leader", former, tid);
	else
		cli_debug(cli, "thread %d executed", tid);
	if (former != tid) {
		t = tidmap_del(&cli->marks, former);
		if (t) {
			/* the old leader's, if still there */
			tinfo_drop(cli, tid);
			if (tidmap_put(&cli->marks, tid, t))
				free(t);
		}
		slot_set(cli, former, tid);
	}
	t = tinfo(cli, tid);
	if (t) {
		if (t->first_exec || t->check_exec)
			cli->first_execs--;
		t->hide = t->first_exec = t->check_exec = false;
	}
	if (cli->opt.detach_execve)
		return detach_on_exec(cli, t, tid);
	return UTRACE_RESUME;
}

static uint32_t k_death(struct utrace_engine *e, bool group_dead, int status)
{
	struct cli *cli = utrace_engine_data(e);

	cli_debug(cli, "thread %d died: wait status %#x%s",
		  utrace_engine_tid(e), (unsigned)status,
		  group_dead ? ", its process is gone" : "");
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
	cli_debug(cli, "thread %d let go; %d traced", tid, cli->live);
}

static const struct utrace_engine_ops keeper_ops = {
	.report_syscall_entry = k_syscall_entry,
	.report_syscall_exit = k_syscall_exit,
	.report_exec = k_exec,
	.report_death = k_death,
	.report_reap = k_reap,
};

/* -u, -D and -b execve as the engine objects ask for them. */
struct engine_host keeper_host(struct cli *cli)
{
	struct engine_host h = {
		.arg = cli, .hidden = hidden, .detaching = exec_detaching,
	};

	return h;
}

/*
 * The engines of a traced thread.  @gdb_only: a thread traced only for
 * gdb (--gdb without -f: gdb debugs every thread, as under gdbserver,
 * but the trace stays the traced thread's, as strace's without -f).
 */
static int attach_thread(struct cli *cli, pid_t tid, pid_t tgid,
			 bool gdb_only)
{
	struct utrace_engine *e;
	struct tinfo *ti;
	int err;

	err = utrace_attach(cli->tracer, tid, UTRACE_ATTACH_CREATE |
			    UTRACE_ATTACH_EXCLUSIVE | UTRACE_ATTACH_MATCH_OPS,
			    &keeper_ops, cli, &e);
	if (err)
		return err;
	ti = tinfo_new(cli, tid);
	if (ti)
		ti->hide = ti->keep_exec = ti->detaching = false;
	cli->live++;
	slot_set(cli, 0, tid);
	cli_debug(cli, "thread %d of process %d: engines keeper, ptrace%s%s%s%s%s;"
		  " %d traced", tid, tgid, cli->gdb ? ", gdb" : "",
		  cli->injector ? ", injector" : "",
		  cli->counter ? ", counter" : "",
		  cli->printer ? ", printer" : "",
		  cli->timeline ? ", timeline" : "", cli->live);
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
	if (err || gdb_only)
		return err;
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

int attach_engines(struct cli *cli, pid_t tid, pid_t tgid)
{
	return attach_thread(cli, tid, tgid, false);
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
	int err = attach_thread(cli, tid, tgid, !cli->opt.follow);

	if (!err && parent && cli->opt.follow &&
	    !(cli->opt.print.quiet & Q_ATTACH) && !cli->opt.print.json)
		sink_msg(cli->out, "Process %d attached", tid);
	return err;
}

/*
 * With -f, follow @pid's process and children; threads taken on now.
 * With --gdb alone, every thread of its process, for gdb only.
 */
int follow(struct cli *cli, pid_t pid)
{
	if (cli->opt.follow)
		return utrace_follow(cli->tracer, pid, UTRACE_WATCH_PROCESS |
				     UTRACE_WATCH_CHILDREN, follow_new, cli);
	if (cli->gdb)
		return utrace_follow(cli->tracer, pid, UTRACE_WATCH_PROCESS,
				     follow_new, cli);
	return 0;
}

/*
 * -p PID: as strace, only that thread; with -f every thread of its
 * process, PID first (with --gdb, the others for gdb only).  Returns the
 * number of threads the trace shows or -errno.
 */
int attach_process(struct cli *cli, pid_t pid)
{
	int err;

	err = attach_engines(cli, pid, read_tgid(pid));
	if (err)
		return err;
	/* Every other thread of its process too, with -f. */
	err = follow(cli, pid);
	return 1 + (err > 0 && cli->opt.follow ? err : 0);
}


void keeper_command(struct cli *cli, pid_t pid, bool hide)
{
	struct tinfo *t = tinfo(cli, pid);
	struct utrace_engine *e;

	if (!t)
		return;
	t->keep_exec = true;
	t->hide = hide;
	t->first_exec = true;
	cli->first_execs++;
	/* Its first execve's exit: whether it failed (k_syscall_exit). */
	if (utrace_attach(cli->tracer, pid, UTRACE_ATTACH_MATCH_OPS,
			  &keeper_ops, NULL, &e) == 0) {
		/*
		 * Only those two calls: a keeper that wanted every syscall
		 * would leave the command without the seccomp filter that
		 * -e trace=SET gives it (utrace_set_syscalls(3)).
		 */
		static const long execs[] = { SYS_execve, SYS_execveat };

		utrace_set_syscalls(e, execs, 2);
		utrace_set_events(e, UTRACE_EVENT(EXEC) | UTRACE_EVENT(DEATH) |
				  UTRACE_EVENT(REAP) | UTRACE_EVENT(SYSCALL_EXIT));
		utrace_engine_put(e);
	}
}
