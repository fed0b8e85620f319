// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Small helpers the engines and the command share; no state.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/misc.h"

double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

pid_t status_field(pid_t tid, const char *key, pid_t dflt)
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

pid_t read_tgid(pid_t tid)
{
	pid_t tgid = status_field(tid, "Tgid:", tid);

	return tgid > 0 ? tgid : tid;
}

bool proc_comm(pid_t tid, char *comm, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, comm, size - 1);
	close(fd);
	if (n <= 0)
		return false;
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	return true;
}

char proc_state(pid_t tid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* "PID (COMM) S ...": the name may hold spaces and parentheses. */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}
