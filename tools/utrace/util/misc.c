// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Small helpers the engines and the command share; no state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
