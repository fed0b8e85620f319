// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The CLI's engines are objects: two printers with different settings and
 * a counter, each with its own output, on one traced program in one
 * process, built from the utrace command's objects without its main.c.
 * Printer A is "-e trace=write -T", printer B is "-x -y" (every syscall);
 * each output is checked on its own, line by line.  Then two printers
 * that follow a process tree through one utrace_follow callback.
 */
#include <ctype.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "harness.h"
#include "cli.h"

/* An output in memory: a sink over a memfd, read back at the end. */
struct mem_out {
	int fd;			/* our own descriptor of the memfd */
	struct sink *sink;
	char *text;		/* what was written, read back */
};

static void mem_out_open(struct mem_out *m, const char *name)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	FILE *f;

	CHECK(fd >= 0);
	m->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	CHECK(m->fd >= 0);
	f = fdopen(fd, "w");
	CHECK(f);
	m->sink = sink_new(f, name);
	CHECK(m->sink);
}

/* Everything written, as lines (NULL-ended, in one allocation). */
static char **mem_out_lines(struct mem_out *m, int *n)
{
	off_t size = lseek(m->fd, 0, SEEK_END);
	char *text, **lines, *p;
	int count = 0, i = 0;

	CHECK(size >= 0);
	text = m->text = calloc(1, (size_t)size + 1);
	CHECK(text);
	CHECK_EQ(pread(m->fd, text, (size_t)size, 0), size);
	for (p = text; *p; p++)
		count += *p == '\n';
	lines = calloc((size_t)count + 2, sizeof(*lines));
	CHECK(lines);
	for (p = strtok(text, "\n"); p; p = strtok(NULL, "\n"))
		lines[i++] = p;
	*n = i;
	return lines;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* "TEXT<spaces>= RESULT": TEXT and RESULT, the padding as strace's -a40. */
static void split_line(const char *line, char *text, char *result,
		       size_t size)
{
	const char *eq = strstr(line, " = ");
	size_t n;

	CHECK(eq);
	n = (size_t)(eq - line);
	while (n && line[n - 1] == ' ')
		n--;
	CHECK(n < size);
	memcpy(text, line, n);
	text[n] = '\0';
	snprintf(result, size, "%s", eq + 3);
	/* -a 40: the "=" in column 40 at least, one space after longer text. */
	CHECK((size_t)(eq - line) + 1 >= 40 || eq - line == (long)n);
}

/* " <S.UUUUUU>" at the end of a -T line; removed from result. */
static void strip_time(char *result)
{
	char *lt = strrchr(result, '<');
	size_t i;

	CHECK(lt && lt > result && lt[-1] == ' ');
	CHECK(isdigit((unsigned char)lt[1]));
	for (i = 1; isdigit((unsigned char)lt[i]); i++)
		;
	CHECK(lt[i] == '.');
	CHECK(strspn(lt + i + 1, "0123456789") == 6);
	CHECK_STR(lt + i + 7, ">");
	lt[-1] = '\0';
}

/*
 * The -c table's row of name: calls and errors (strace leaves the errors
 * column empty when there are none).
 */
static void counter_row(const char *table, const char *name, long *calls,
			long *errors)
{
	char *copy = strdup(table), *line, *save = NULL;
	bool found = false;

	CHECK(copy);
	for (line = strtok_r(copy, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		double pct, secs;
		long usecs;
		char sys[64];
		int pos = 0;

		if (sscanf(line, "%lf %lf %ld %ld %n", &pct, &secs, &usecs,
			   calls, &pos) != 4 || !pos)
			continue;
		*errors = 0;
		if (sscanf(line + pos, "%ld %63s", errors, sys) != 2 &&
		    sscanf(line + pos, "%63s", sys) != 1)
			continue;
		found = !strcmp(sys, name);
	}
	free(copy);
	if (!found) {
		fprintf(stderr, "# no row for %s in:\n%s", name, table);
		CHECK(found);
	}
}

TEST(two_printers_and_a_counter)
{
	char *argv[] = { (char *)test_prog("cli_basic"), NULL };
	struct utrace_spawn_opts so = { .size = sizeof(so) };
	struct printer_settings sa, sb;
	struct counter_settings cs = { .sort = COL_NONE };
	static const long writes[] = { SYS_write };
	struct utrace_tracer *tr;
	struct printer *a, *b;
	struct counter *c;
	struct mem_out oa, ob;
	char cwd[4096], want[8192], text[8192], result[8192];
	char *table = NULL;
	size_t table_len = 0;
	FILE *tf;
	char **la, **lb;
	int na, nb, i, nopen = 0, nwrite = 0, fd_null, fd_pipe;
	bool chdir_seen = false, exit_seen = false;
	pid_t pid;

	CHECK(getcwd(cwd, sizeof(cwd)));
	mem_out_open(&oa, "printer-a");
	mem_out_open(&ob, "printer-b");

	/* A: -e trace=write -T */
	printer_defaults(&sa);
	sa.nrs = writes;
	sa.nnrs = 1;
	sa.syscall_times = true;
	sa.pids = PR_PIDS_NEVER;
	/* B: every syscall, -x -y */
	printer_defaults(&sb);
	sb.hexstr = DEC_HEX_NON_ASCII;
	sb.decode_fds = DF_PATH;
	sb.pids = PR_PIDS_NEVER;
	a = printer_new(&sa, oa.sink);
	b = printer_new(&sb, ob.sink);
	c = counter_new(&cs);
	CHECK(a && b && c);

	CHECK_EQ(utrace_tracer_new(&tr), 0);
	CHECK_EQ(utrace_spawn(tr, argv, &so, &pid), 0);
	CHECK_EQ(counter_attach(c, tr, pid), 0);
	CHECK_EQ(printer_attach(a, tr, pid, pid), 0);
	CHECK_EQ(printer_attach(b, tr, pid, pid), 0);
	CHECK_EQ(utrace_run(tr), 0);
	utrace_tracer_free(tr);

	tf = open_memstream(&table, &table_len);
	CHECK(tf);
	counter_report(c, tf);
	fclose(tf);
	printer_free(a);
	printer_free(b);
	CHECK(!sink_free(oa.sink));
	CHECK(!sink_free(ob.sink));
	counter_free(c);

	/* A: exactly the two writes, with their times, and the exit. */
	la = mem_out_lines(&oa, &na);
	if (na != 3)
		for (i = 0; i < na; i++)
			fprintf(stderr, "# A: %s\n", la[i]);
	CHECK_EQ(na, 3);
	/* The descriptors are the program's: /dev/null's, the pipe's. */
	CHECK_EQ(sscanf(la[0], "write(%d, ", &fd_null), 1);
	CHECK_EQ(sscanf(la[1], "write(%d, ", &fd_pipe), 1);
	split_line(la[0], text, result, sizeof(text));
	snprintf(want, sizeof(want), "write(%d, \"hello, world\\n\\t\\\"quoted"
		 "\\\" \\\\ \\1\\377 and \"..., 55)", fd_null);
	CHECK_STR(text, want);
	strip_time(result);
	CHECK_STR(result, "55");
	split_line(la[1], text, result, sizeof(text));
	snprintf(want, sizeof(want), "write(%d, \"ab\", 2)", fd_pipe);
	CHECK_STR(text, want);
	strip_time(result);
	CHECK_STR(result, "2");
	CHECK_STR(la[2], "+++ exited with 3 +++");

	/* B: every syscall, descriptors with their paths, -x strings. */
	lb = mem_out_lines(&ob, &nb);
	for (i = 0; i < nb; i++) {
		CHECK(!strstr(lb[i], "> <0."));	/* no -T here */
		if (!strcmp(lb[i], "+++ exited with 3 +++")) {
			exit_seen = true;
			continue;
		}
		CHECK(strstr(lb[i], " = "));
		split_line(lb[i], text, result, sizeof(text));
		if (starts(text, "chdir(")) {
			CHECK_STR(text, "chdir(\"/utrace-marker\")");
			CHECK_STR(result, "-1 ENOENT (No such file or "
				  "directory)");
			chdir_seen = true;
		}
		if (starts(text, "openat(") && strstr(text, "\"/dev/null\"")) {
			snprintf(want, sizeof(want), "openat(AT_FDCWD<%s>, "
				 "\"/dev/null\", O_WRONLY|O_CLOEXEC)", cwd);
			CHECK_STR(text, want);
			snprintf(want, sizeof(want), "%d</dev/null>", fd_null);
			CHECK_STR(result, want);
			nopen++;
		}
		snprintf(want, sizeof(want), "write(%d<", fd_null);
		if (starts(text, want)) {
			snprintf(want, sizeof(want), "write(%d</dev/null>, "
				 "\"\\x68\\x65\\x6c"
				 "\\x6c\\x6f\\x2c\\x20\\x77\\x6f\\x72\\x6c"
				 "\\x64\\x0a\\x09\\x22\\x71\\x75\\x6f\\x74"
				 "\\x65\\x64\\x22\\x20\\x5c\\x20\\x01\\xff"
				 "\\x20\\x61\\x6e\\x64\\x20\"..., 55)", fd_null);
			CHECK_STR(text, want);
			CHECK_STR(result, "55");
			nwrite++;
		}
		snprintf(want, sizeof(want), "write(%d<pipe:[", fd_pipe);
		if (starts(text, want)) {
			CHECK(strstr(text, "]>, \"ab\", 2)"));
			CHECK_STR(result, "2");
			nwrite++;
		}
	}
	CHECK(chdir_seen && exit_seen);
	CHECK_EQ(nopen, 1);
	CHECK_EQ(nwrite, 2);
	CHECK_STR(lb[nb - 2], "exit_group(3)                           = ?");

	/* The counter beside them: its own table. */
	{
		long calls, errors;

		counter_row(table, "write", &calls, &errors);
		CHECK_EQ(calls, 2);
		CHECK_EQ(errors, 0);
		counter_row(table, "chdir", &calls, &errors);
		CHECK_EQ(calls, 1);
		CHECK_EQ(errors, 1);
	}
	free(table);
	free(oa.text);
	free(la);
	free(ob.text);
	free(lb);
	close(oa.fd);
	close(ob.fd);
}

/* Both printers, on each new thread and child process (utrace_follow). */
struct pair {
	struct printer *a, *b;
	struct utrace_tracer *tr;
};

static int follow_both(void *arg, pid_t tid, pid_t tgid, pid_t parent,
		       unsigned long clone_flags)
{
	struct pair *p = arg;
	int err = printer_attach(p->a, p->tr, tid, tgid);

	return err ? err : printer_attach(p->b, p->tr, tid, tgid);
}

/*
 * A process tree: forkchain 2 forks and executes itself twice.  Printer A
 * shows execve with the pid on every line (as -o FILE -f) and no
 * signals, printer B wait4 and signals without pids and whole lines only
 * (-e status=successful,failed);
 * both follow the children through one utrace_follow callback.
 */
TEST(two_printers_follow_children)
{
	char *argv[] = { (char *)test_prog("forkchain"), "2", NULL };
	struct utrace_spawn_opts so = { .size = sizeof(so) };
	struct printer_settings sa, sb;
	static const long execs[] = { SYS_execve }, waits[] = { SYS_wait4 };
	struct mem_out oa, ob;
	struct pair p;
	char **la, **lb, want[256], text[4096], result[4096];
	int na, nb, i, k, nsig, nexit, exits[3] = { 0 }, chain[2] = { 0 };
	pid_t pid, lpid, top = 0, w[2];

	mem_out_open(&oa, "follow-a");
	mem_out_open(&ob, "follow-b");
	printer_defaults(&sa);
	sa.nrs = execs;
	sa.nnrs = 1;
	sa.pids = PR_PIDS_ALWAYS;
	memset(sa.signals, 0, sizeof(sa.signals));	/* -e signal=none */
	printer_defaults(&sb);
	sb.nrs = waits;
	sb.nnrs = 1;
	sb.pids = PR_PIDS_NEVER;
	sb.status_mask = ST_SUCCESSFUL | ST_FAILED;
	p.a = printer_new(&sa, oa.sink);
	p.b = printer_new(&sb, ob.sink);
	CHECK(p.a && p.b);

	CHECK_EQ(utrace_tracer_new(&p.tr), 0);
	CHECK_EQ(utrace_spawn(p.tr, argv, &so, &pid), 0);
	CHECK_EQ(follow_both(&p, pid, pid, 0, 0), 0);
	CHECK(utrace_follow(p.tr, pid, UTRACE_WATCH_PROCESS |
			    UTRACE_WATCH_CHILDREN, follow_both, &p) >= 0);
	CHECK_EQ(utrace_run(p.tr), 0);
	utrace_tracer_free(p.tr);
	printer_free(p.a);
	printer_free(p.b);
	CHECK(!sink_free(oa.sink));
	CHECK(!sink_free(ob.sink));

	/* A: "PID   execve(...)" three times, three exits, each with a pid. */
	la = mem_out_lines(&oa, &na);
	if (na != 6)
		for (i = 0; i < na; i++)
			fprintf(stderr, "# A: %s\n", la[i]);
	CHECK_EQ(na, 6);
	for (i = 0; i < na; i++) {
		const char *rest;
		int st, n = 0;

		CHECK_EQ(sscanf(la[i], "%d %n", &lpid, &n), 1);
		CHECK(n >= 6);		/* "%-5d " at least */
		rest = la[i] + n;
		if (sscanf(rest, "+++ exited with %d +++", &st) == 1) {
			CHECK(st >= 7 && st <= 9);
			exits[st - 7]++;
			if (st == 9)
				CHECK_EQ(lpid, pid);
			continue;
		}
		CHECK(starts(rest, "execve("));
		if (strstr(rest, "[\"forkchain\", \"1\", \"0\"]"))
			chain[0]++;
		else if (strstr(rest, "[\"forkchain\", \"0\", \"0\"]"))
			chain[1]++;
		else
			top++;
		if (!strstr(rest, "[\"forkchain\", \""))
			CHECK_EQ(lpid, pid);
		CHECK(strstr(rest, ") = 0"));
	}
	CHECK(exits[0] == 1 && exits[1] == 1 && exits[2] == 1);
	CHECK(chain[0] == 1 && chain[1] == 1 && top == 1);

	/* B: the two waits, whole, without pids (7, then 8 came back). */
	lb = mem_out_lines(&ob, &nb);
	if (nb != 7)
		for (i = 0; i < nb; i++)
			fprintf(stderr, "# B: %s\n", lb[i]);
	CHECK_EQ(nb, 7);
	for (i = 0, k = 0, nsig = 0, nexit = 0; i < nb; i++) {
		int st = k ? 8 : 7;

		if (starts(lb[i], "--- SIGCHLD {si_signo=SIGCHLD, "
			   "si_code=CLD_EXITED, ")) {
			nsig++;
			continue;
		}
		if (starts(lb[i], "+++ exited with ")) {
			nexit++;
			continue;
		}
		CHECK(k < 2);
		split_line(lb[i], text, result, sizeof(text));
		CHECK_EQ(sscanf(text, "wait4(%d, ", &w[k]), 1);
		snprintf(want, sizeof(want), "wait4(%d, [{WIFEXITED(s) && "
			 "WEXITSTATUS(s) == %d}], 0, NULL)", w[k], st);
		CHECK_STR(text, want);
		snprintf(want, sizeof(want), "%d", w[k]);
		CHECK_STR(result, want);
		k++;
	}
	CHECK(k == 2 && nsig == 2 && nexit == 3);
	CHECK(w[0] != w[1] && w[0] != pid && w[1] != pid);
	free(oa.text);
	free(la);
	free(ob.text);
	free(lb);
	close(oa.fd);
	close(ob.fd);
}

int main(void)
{
	return test_main();
}
