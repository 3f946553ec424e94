/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Where opensm's dlopen("libNAME.so") finds a library, for `osmqos
 * doctor`. */
#ifndef OSMQOS_CLI_DOCTOR_DLOPEN_H
#define OSMQOS_CLI_DOCTOR_DLOPEN_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The file dlopen() of the bare file name would open, searched as the
 * dynamic loader searches: LD_LIBRARY_PATH, the ld.so cache, then the
 * loader's own system directories.  *where says which of the three.
 */
bool doctor_find_library(const char *name, char *out, size_t len,
			 const char **where);

#endif /* OSMQOS_CLI_DOCTOR_DLOPEN_H */
