/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the serving side (serve.c) and the joining side (remote.c) of
 * sharing both use.
 */
#ifndef UTRACE_SHARE_H
#define UTRACE_SHARE_H

#include <stdbool.h>
#include <sys/types.h>
#include "utrace.h"

/* serve.c: where the sockets live */
void utrace__serve_dir(uid_t uid, char *buf, size_t size);
int utrace__serve_dir_ok(const char *dir, uid_t uid);

#endif
