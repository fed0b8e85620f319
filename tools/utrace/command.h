/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One run of the utrace command, shared by its files: main.c (the loop,
 * the outputs, the end), start.c (starting the command or attaching, -u
 * and -D), keeper.c (the command's own engine).  The engine objects they
 * use are in cli.h.
 */
#ifndef UT_COMMAND_H
#define UT_COMMAND_H

#include "cli.h"
#include "util/tidmap.h"

/*
 * One run of the command: its options, its tracer and the engine objects
 * it made from them (main() owns it).  The keeper is this program's own
 * engine: it counts the live threads, keeps the command's exit status,
 * hides what -u/-D commands do before their execve and detaches at
 * execve with -b execve; with -f it attaches every engine to each new
 * thread and child process.
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
	struct tidmap marks;		/* its marks per thread (keeper.c) */
	int ndetached;			/* marks of threads -b execve detached */
	/*
	 * Traced threads in strace's table order (a new thread takes the
	 * first free slot): the order of the "Process N detached" messages.
	 */
	pid_t *slots;
	size_t nslots;
	bool tip_said;			/* --tips: printed already */
	int first_execs;		/* commands whose first execve the
					   keeper still watches (keeper.c) */
};

/*
 * keeper.c.  attach_engines: the keeper, then every engine object, on
 * tid.  follow: with -f, pid's process and children (threads taken on
 * now).  attach_process: -p PID, with -f every thread of its process;
 * the number of threads or -errno.  keeper_command: pid is the command
 * utrace started (its first execve keeps it under -b execve; hide: with
 * -u/-D, nothing it does before that execve is shown).  keeper_host: -u,
 * -D and -b execve as the engine objects ask for them.
 * keeper_drop_detached: the marks of threads -b execve let go, once
 * reported.  keeper_free: every mark (the tracer is gone).
 */
int attach_engines(struct cli *cli, pid_t tid, pid_t tgid);
int follow(struct cli *cli, pid_t pid);
int attach_process(struct cli *cli, pid_t pid);
void keeper_command(struct cli *cli, pid_t pid, bool hide);
struct engine_host keeper_host(struct cli *cli);
void keeper_drop_detached(struct cli *cli);
void keeper_free(struct cli *cli);

/*
 * start.c: start or attach what the options say; the number of processes
 * traced, 0 when it failed (said), -1 when utrace -p joined another
 * tracer and is done (*status: the exit status).
 */
int start(struct cli *cli, int *status);

/*
 * main.c.  cli_interrupted: the signal (SIGINT ...) that ends the run, 0
 * if none yet.  cli_signals: install strace's handling of those signals
 * for this tracer.  engines_new: the engine objects the options ask for
 * (false when it failed, said).  join_other: utrace -p PID on a process
 * another serving tracer traces: join it and print from there (the exit
 * status, or -EPERM).
 */
/* tips.c: --tips's tip on stderr (fmt TIPS_*, id -1: random). */
void print_tip(int fmt, int id);

/*
 * -d: one of utrace's own messages ("utrace: ..."), placed as strace
 * places its debugging output; nothing without -d.
 */
void cli_debug(struct cli *cli, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int cli_interrupted(void);
void cli_signals(const struct options *o);
void cli_break(struct utrace_tracer *tr);
bool engines_new(struct cli *cli);
int join_other(struct cli *cli, pid_t pid);

#endif
