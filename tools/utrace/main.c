// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * utrace(1): an strace-class tracer made only of libutrace engines.
 *
 * Every traced thread gets, in this attach order:
 *   keeper   - follows clones (-f) by attaching all engines to the child in
 *              report_clone, counts live threads, keeps the exit status
 *   injector - --inject (decides the syscall action: entry callbacks run in
 *              reverse attach order, so it is called last there, and first
 *              at exit, before the printer reads the return value)
 *   counter  - -c / -C
 *   printer  - the text or --json trace (not with -c)
 *   timeline - --timeline
 */
#include <dirent.h>
#include <sched.h>
#include <pthread.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

struct utrace_tracer *tracer;

static volatile sig_atomic_t interrupted;
static pid_t main_pid;
static int main_status = -1;
static int live;

/* tid -> tgid, and the injector's mark, in a small hash table. */
struct tinfo {
	pid_t tid, tgid;
	bool injected;
	struct tinfo *next;
};
static struct tinfo *buckets[1024];

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
	p->tgid = tid;
	p->next = *b;
	*b = p;
	return p;
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

pid_t tgid_of(pid_t tid)
{
	struct tinfo *p = tinfo(tid, false);

	return p ? p->tgid : tid;
}

void mark_injected(pid_t tid, bool on)
{
	struct tinfo *p = tinfo(tid, on);

	if (p)
		p->injected = on;
}

bool was_injected(pid_t tid)
{
	struct tinfo *p = tinfo(tid, false);

	return p && p->injected;
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

static uint32_t k_clone(uint32_t action, struct utrace_engine *e,
			unsigned long flags, pid_t child)
{
	pid_t tid = utrace_engine_tid(e);

	if (!opt.follow)
		return UTRACE_RESUME;
	if (attach_engines(child, flags & CLONE_THREAD ? tgid_of(tid) : child))
		return UTRACE_RESUME;
	if (!opt.quiet && !opt.json)
		fprintf(stderr, "utrace: Process %d attached\n", child);
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
	tinfo_drop(utrace_engine_tid(e));
	live--;
}

static const struct utrace_engine_ops keeper_ops = {
	.report_clone = k_clone,
	.report_death = k_death,
	.report_reap = k_reap,
};

int attach_engines(pid_t tid, pid_t tgid)
{
	struct utrace_engine *e;
	struct tinfo *ti;
	int err;

	err = utrace_attach(tracer, tid, UTRACE_ATTACH_CREATE |
			    UTRACE_ATTACH_EXCLUSIVE | UTRACE_ATTACH_MATCH_OPS,
			    &keeper_ops, NULL, &e);
	if (err)
		return err;
	ti = tinfo(tid, true);
	if (ti)
		ti->tgid = tgid;
	live++;
	err = utrace_set_events(e, UTRACE_EVENT(CLONE) | UTRACE_EVENT(DEATH) |
				UTRACE_EVENT(REAP));
	utrace_engine_put(e);
	if (!err && opt.ninject)
		err = inject_attach(tid);
	if (!err && (opt.summary_only || opt.summary))
		err = counter_attach(tid);
	if (!err && !opt.summary_only)
		err = printer_attach(tid);
	if (!err && opt.timeline)
		err = timeline_attach(tid);
	return err;
}

/* -- Attaching to running processes --------------------------------------- */

static int attach_process(pid_t pid)
{
	char path[64];
	bool again = true;
	int n = 0, err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	while (again) {
		DIR *d = opendir(path);
		struct dirent *de;

		again = false;
		if (!d)
			return -ESRCH;
		while ((de = readdir(d))) {
			pid_t tid = (pid_t)atoi(de->d_name);

			if (tid <= 0)
				continue;
			err = attach_engines(tid, pid);
			if (err == -EEXIST)
				continue;
			if (err)
				break;
			n++;
			again = true;
		}
		closedir(d);
		if (err && err != -EEXIST)
			return err;
	}
	return n;
}

/* -- Signals and the loop -------------------------------------------------- */

static void on_signal(int sig)
{
	interrupted = sig;
	utrace_break(tracer);
}

static void setup_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa;
	size_t i;

	/* No SA_RESTART: the loop's wait returns and sees the break. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static void finish_outputs(void)
{
	if (opt.summary_only || opt.summary)
		counter_report(summary_file());
	printer_finish();
	timeline_finish();
}

static int exit_like(int status)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		sigaction(sig, &sa, NULL);
		signal(SIGABRT, SIG_DFL);
		if (sig != SIGKILL && sig != SIGSTOP) {
			sigset_t set;

			sigemptyset(&set);
			sigaddset(&set, sig);
			pthread_sigmask(SIG_UNBLOCK, &set, NULL);
			raise(sig);
		}
		return 128 + sig;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv)
{
	struct utrace_spawn_opts so = { .size = sizeof(so) };
	int err, i;

	parse_options(argc, argv);
	err = utrace_tracer_new(&tracer);
	if (err) {
		fprintf(stderr, "utrace: %s\n", strerror(-err));
		return 1;
	}
	if (printer_init() < 0)
		return 1;
	if (opt.timeline && timeline_init(opt.timeline) < 0)
		return 1;
	setup_signals();

	for (i = 0; i < opt.nattach; i++) {
		err = attach_process(opt.attach[i]);
		if (err < 0) {
			fprintf(stderr, "utrace: attach: pid %d: %s\n",
				opt.attach[i], strerror(-err));
			utrace_tracer_free(tracer);
			return 1;
		}
		if (!opt.quiet && !opt.json)
			fprintf(stderr, "utrace: Process %d attached%s\n",
				opt.attach[i], err > 1 ? " (with threads)" : "");
	}
	if (opt.argv) {
		err = utrace_spawn(tracer, opt.argv, &so, &main_pid);
		if (err) {
			fprintf(stderr, "utrace: Can't stat '%s': %s\n",
				opt.argv[0], strerror(-err));
			utrace_tracer_free(tracer);
			return 1;
		}
		err = attach_engines(main_pid, main_pid);
		if (err) {
			fprintf(stderr, "utrace: attach: pid %d: %s\n",
				main_pid, strerror(-err));
			kill(main_pid, SIGKILL);
			utrace_tracer_free(tracer);
			return 1;
		}
	}

	while (!interrupted && live > 0) {
		int to = opt.ninject ? inject_timeout_ms() : -1;

		if (utrace_dispatch(tracer, to) < 0)
			break;
		if (opt.ninject)
			inject_run_timers();
	}

	if (interrupted) {
		printer_detached();
		utrace_tracer_free(tracer);
		tracer = NULL;
		if (!opt.quiet && !opt.json)
			for (i = 0; i < opt.nattach; i++)
				fprintf(stderr, "utrace: Process %d detached\n",
					opt.attach[i]);
		finish_outputs();
		if (main_pid > 0) {
			int st;

			kill(main_pid, interrupted);
			if (waitpid(main_pid, &st, 0) == main_pid)
				return exit_like(st);
		}
		return opt.argv ? 128 + interrupted : 0;
	}
	utrace_tracer_free(tracer);
	finish_outputs();
	if (main_pid > 0 && main_status >= 0)
		return exit_like(main_status);
	return 0;
}
