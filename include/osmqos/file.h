/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Reading a whole input file (policy, topology, partitions, opensm.conf). */
#ifndef OSMQOS_FILE_H
#define OSMQOS_FILE_H

#include <stddef.h>

/* Inputs larger than this are refused before they are read: a runaway or
 * wrong file must not exhaust the SM's memory. */
#define OQ_FILE_MAX_BYTES (256u << 20)

/*
 * Read the regular file at path into a NUL-terminated buffer (the NUL is
 * not counted in *len).  Returns NULL with errno set: the open/read error,
 * EFBIG above max bytes, EINVAL for a directory or device, ENOMEM.
 */
char *oq_file_read(const char *path, size_t max, size_t *len);

#endif /* OSMQOS_FILE_H */
