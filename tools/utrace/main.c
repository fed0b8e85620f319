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
#include <pthread.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command.h"
#include "gdb/gdbstub.h"

/*
 * The only process-wide state: what the handler of SIGINT and the like
 * can reach, a signal handler having no argument.  It sets the flag and
 * breaks the tracer's loop (utrace_break(3) is async-signal-safe).
 */
static volatile sig_atomic_t interrupted;
static struct utrace_tracer *volatile break_tracer;

/* -- Signals and the loop -------------------------------------------------- */

void cli_debug(struct cli *cli, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	if (!cli->opt.debug)
		return;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (cli->out)
		sink_msg(cli->out, "%s", msg);
	else
		fprintf(stderr, "utrace: %s\n", msg);
	free(msg);
}

int cli_interrupted(void)
{
	return interrupted;
}

void cli_break(struct utrace_tracer *tr)
{
	break_tracer = tr;
}

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
void cli_signals(const struct options *o)
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
bool engines_new(struct cli *cli)
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
			.wall_clock = o->wall_clock, .overhead = o->overhead,
			.all_threads = o->follow,
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

/* --tips: once, at the very end. */
static void say_tip(struct cli *cli)
{
	if (!cli->tip_said)
		print_tip(cli->opt.tips, cli->opt.tip_id);
	cli->tip_said = true;
}

/*
 * Die of sig as the traced program did, without a core of our own (the
 * --tips tip first, as strace prints it just before).
 */
static int die_like(struct cli *cli, int sig)
{
	struct rlimit rl = { 0, 0 };
	struct sigaction sa;
	sigset_t set;

	say_tip(cli);
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

static int exit_like(struct cli *cli, int status)
{
	if (WIFSIGNALED(status))
		return die_like(cli, WTERMSIG(status));
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
	uint64_t st[4];

	if (cli->tracer && cli->opt.debug &&
	    utrace_tracer_record_stats(cli->tracer, st, 4) == 4 && st[0])
		cli_debug(cli, "records: %llu delivered, %llu traps, %llu "
			  "sites rewritten, %llu traps sent to the stop path",
			  (unsigned long long)st[0],
			  (unsigned long long)st[1],
			  (unsigned long long)st[2],
			  (unsigned long long)st[3]);
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
int join_other(struct cli *cli, pid_t pid)
{
	pid_t tp = status_field(pid, "TracerPid:", 0);
	int err, sig;

	if (tp <= 0 || tp == getpid())
		return -EPERM;
	if (cli->gdb)
		return gdb_join(cli, pid);
	tracer_end(cli);
	err = join_trace(&cli->opt, cli->printer, cli->counter, cli->out, pid,
			 tp, cli_interrupted, &sig);
	if (err == -ENOTSUP)
		return 1;
	if (err >= 0) {
		/* -c, -C: the table of what was counted through the join. */
		if (cli->counter)
			counter_report(cli->counter, sink_file(cli->out));
		sink_finish(cli->out);
		if (sig)
			return die_like(cli, sig);
		return output_failed(cli) ? 1 : err;
	}
	if (err != -ECONNREFUSED)
		fprintf(stderr, "utrace: join the tracer of %d (process %d): "
			"%s\n", pid, tp, strerror(-err));
	return -EPERM;
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
			keeper_drop_detached(cli);
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
		return die_like(cli, interrupted);
	}
	say_joiners(cli, "the trace ends");
	tracer_end(cli);
	finish_outputs(cli, true);
	if (cli->main_pid > 0 && cli->main_status >= 0 &&
	    WIFSIGNALED(cli->main_status))
		return exit_like(cli, cli->main_status);
	if (output_failed(cli))
		return 1;
	if (cli->main_pid > 0 && cli->main_status >= 0)
		return exit_like(cli, cli->main_status);
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
	say_tip(cli);
	/* Whatever is left, with the tracer gone. */
	tracer_end(cli);
	printer_free(cli->printer);
	counter_free(cli->counter);
	injector_free(cli->injector);
	timeline_free(cli->timeline);
	sink_free(cli->out);
	keeper_free(cli);
	options_free(&cli->opt);
	free(cli);
	return status;
}

