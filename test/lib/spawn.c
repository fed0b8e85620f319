/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * utrace_spawn: the child is held before execve, engines attached after the
 * spawn see execve and EXEC, missing programs, argv/envp/cwd, and
 * UTRACE_SPAWN_KILL_ON_EXIT.
 */
#include "harness.h"
#include <utrace.h>
#include "tlib.h"

static bool comm_is(pid_t pid, const char *name)
{
	char path[64], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return !strcmp(buf, name);
}

TEST_T(spawn_held_before_execve, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "print_exit", "hi", "3", NULL);
	struct teng *te;
	int ent, ex, sx, d;

	/* Held, traced by us, and still the forked copy of this program. */
	for (int i = 0; i < 100 && !t_stopped(pid); i++)
		t_msleep(10);
	CHECK(t_stopped(pid));
	CHECK_EQ(t_tracer_pid(pid), getpid());
	CHECK(!comm_is(pid, "print_exit"));

	te = t_attach(t, pid, UTRACE_EVENT_SYSCALL | UTRACE_EVENT(EXEC) |
		      EV_LIFE, NULL);
	t_msleep(100);
	CHECK(t_stopped(pid));
	CHECK(!comm_is(pid, "print_exit"));

	t_run(t);
	CHECK_STR(t_read_all(out), "hi\n");
	ent = tlog_find(0, te->id, K_SYSENTRY);
	CHECK(ent >= 0);
	CHECK_EQ(tlog[ent].nr, SYS_execve);
	ex = tlog_find(0, te->id, K_EXEC);
	CHECK(ex > ent);
	CHECK_EQ(te->n[K_EXEC], 1);
	CHECK_EQ(tlog[ex].arg, pid);
	CHECK_EQ(tlog[ex].tid, pid);
	sx = tlog_find(0, te->id, K_SYSEXIT);
	CHECK(sx > ex);
	CHECK_EQ(tlog[sx].nr, SYS_execve);
	d = tlog_find(0, te->id, K_DEATH);
	CHECK(WIFEXITED(tlog[d].arg));
	CHECK_EQ(WEXITSTATUS(tlog[d].arg), 3);
	CHECK_EQ(tlog[d].arg2, 1);
	t_check_death_reap(te);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

static void check_missing(const char *prog)
{
	struct utrace_tracer *t = t_tracer();
	char *argv[] = { (char *)prog, NULL };
	pid_t pid = -1;
	int r, d;
	struct teng *te;

	r = t_spawn_opts(t, NULL, NULL, &pid, argv);
	if (r == -ENOENT) {
		t_run(t);
		utrace_tracer_free(t);
		return;
	}
	CHECK_EQ(r, 0);
	CHECK(pid > 0);
	te = t_attach(t, pid, EV_LIFE, NULL);
	t_run(t);
	d = tlog_find(0, te->id, K_DEATH);
	CHECK(d >= 0);
	CHECK(WIFEXITED(tlog[d].arg));
	CHECK_EQ(WEXITSTATUS(tlog[d].arg), 127);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

TEST_T(spawn_missing_program_path, 10)
{
	check_missing("/nonexistent/utrace-test-no-such-program");
}

TEST_T(spawn_missing_program_search, 10)
{
	check_missing("utrace-test-no-such-program");
}

TEST_T(spawn_argv_envp_cwd, 10)
{
	struct utrace_tracer *t = t_tracer();
	char dir[] = "/tmp/utrace-spawn-XXXXXX", real[4096], want[8192];
	char *envp[] = { "UT_VAR=from envp", "OTHER=1", NULL };
	char *argv[] = { (char *)test_prog("print_args"), "a b", "", "c",
			 NULL };
	struct utrace_spawn_opts o = {
		.size = sizeof(o), .envp = envp, .cwd = dir,
	};
	struct teng *te;
	pid_t pid = -1;
	int out;

	CHECK(mkdtemp(dir));
	CHECK(realpath(dir, real));
	CHECK_EQ(t_spawn_opts(t, &out, &o, &pid, argv), 0);
	te = t_attach(t, pid, EV_LIFE, NULL);
	t_run(t);
	snprintf(want, sizeof(want),
		 "ARG=a b\nARG=\nARG=c\nENV=from envp\nCWD=%s\n", real);
	CHECK_STR(t_read_all(out), want);
	t_check_death_reap(te);
	rmdir(dir);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

TEST_T(spawn_default_env_and_cwd, 10)
{
	struct utrace_tracer *t = t_tracer();
	char dir[] = "/tmp/utrace-spawn-XXXXXX", real[4096], want[8192];
	struct utrace_spawn_opts o = { .size = sizeof(o) };
	char *argv[] = { (char *)test_prog("print_args"), NULL };
	struct teng *te;
	pid_t pid = -1;
	int out;

	CHECK(mkdtemp(dir));
	CHECK(realpath(dir, real));
	CHECK(setenv("UT_VAR", "inherited", 1) == 0);
	CHECK(chdir(dir) == 0);
	snprintf(want, sizeof(want), "ENV=inherited\nCWD=%s\n", real);

	/* NULL options. */
	pid = t_spawn(t, &out, "print_args", NULL);
	te = t_attach(t, pid, EV_LIFE, NULL);
	t_run(t);
	CHECK_STR(t_read_all(out), want);
	t_check_death_reap(te);
	utrace_engine_put(te->e);

	/* Options with every field left at its default. */
	argv[0] = (char *)test_prog("print_args");
	CHECK_EQ(t_spawn_opts(t, &out, &o, &pid, argv), 0);
	te = t_attach(t, pid, EV_LIFE, NULL);
	t_run(t);
	CHECK_STR(t_read_all(out), want);
	t_check_death_reap(te);
	utrace_engine_put(te->e);
	CHECK(chdir("/") == 0);
	rmdir(dir);
	utrace_tracer_free(t);
}

TEST_T(spawn_kill_on_exit_tracer_process_exits, 10)
{
	int p[2];
	pid_t helper, spid = -1;

	CHECK(pipe(p) == 0);
	helper = fork();
	CHECK(helper >= 0);
	if (helper == 0) {
		struct utrace_tracer *t;
		struct utrace_spawn_opts o = {
			.size = sizeof(o), .flags = UTRACE_SPAWN_KILL_ON_EXIT,
		};
		char *argv[] = { (char *)test_prog("sleeper"), "30", NULL };
		pid_t pid = -1;

		close(p[0]);
		if (utrace_tracer_new(&t) ||
		    t_spawn_opts(t, NULL, &o, &pid, argv))
			_exit(1);
		t_attach(t, pid, EV_LIFE, NULL);
		t_dispatch_for(t, 200);
		if (write(p[1], &pid, sizeof(pid)) != sizeof(pid))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	CHECK_EQ(read(p[0], &spid, sizeof(spid)), sizeof(spid));
	CHECK_EQ(t_waitpid(helper, 3000), 0);
	CHECK(spid > 0);
	CHECK(t_wait_gone(spid, 3000));
}

TEST_T(spawn_kill_on_exit_tracer_free, 10)
{
	struct utrace_tracer *t = t_tracer();
	struct utrace_spawn_opts o = {
		.size = sizeof(o), .flags = UTRACE_SPAWN_KILL_ON_EXIT,
	};
	char *argv[] = { (char *)test_prog("sleeper"), "30", NULL };
	pid_t pid = -1;
	struct teng *te;

	CHECK_EQ(t_spawn_opts(t, NULL, &o, &pid, argv), 0);
	te = t_attach(t, pid, EV_LIFE, NULL);
	t_dispatch_for(t, 200);
	CHECK(!t_gone(pid));
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
	CHECK(t_wait_gone(pid, 3000));
	t_kill(pid);
}

TEST_T(spawn_without_engines_runs_to_completion, 10)
{
	struct utrace_tracer *t = t_tracer();
	int out;
	pid_t pid = t_spawn(t, &out, "print_exit", "alone", "0", NULL);

	t_run(t);
	CHECK_STR(t_read_all(out), "alone\n");
	CHECK(t_wait_gone(pid, 3000));
	utrace_tracer_free(t);
	t_kill(pid);
}

TEST_T(spawn_opts_size_limits_fields_read, 10)
{
	struct utrace_tracer *t = t_tracer();
	char cwd[4096], want[8192];
	char *envp[] = { "UT_VAR=short opts", NULL };
	char *argv[] = { (char *)test_prog("print_args"), NULL };
	/* An older caller's struct: only size and envp. */
	struct utrace_spawn_opts o = {
		.size = offsetof(struct utrace_spawn_opts, cwd),
		.envp = envp,
		.cwd = "/nonexistent/utrace-test-dir",
	};
	struct teng *te;
	pid_t pid = -1;
	int out;

	CHECK(getcwd(cwd, sizeof(cwd)));
	CHECK_EQ(t_spawn_opts(t, &out, &o, &pid, argv), 0);
	te = t_attach(t, pid, EV_LIFE, NULL);
	t_run(t);
	snprintf(want, sizeof(want), "ENV=short opts\nCWD=%s\n", cwd);
	CHECK_STR(t_read_all(out), want);
	t_check_death_reap(te);
	utrace_engine_put(te->e);
	utrace_tracer_free(t);
}

TEST_T(spawn_bad_arguments, 10)
{
	struct utrace_tracer *t = t_tracer();
	char *empty[] = { NULL };
	pid_t pid = -1;

	CHECK(utrace_spawn(t, NULL, NULL, &pid) < 0);
	CHECK(utrace_spawn(t, empty, NULL, &pid) < 0);
	t_run(t);
	utrace_tracer_free(t);
}

int main(void)
{
	return test_main();
}
