/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The file paths an opensm.conf names (node_name_map_name,
 * partition_config_file), read as osm_subn_parse_conf_file() reads them,
 * so the CLI opens the files the SM opens.
 */
#ifndef OSMQOS_OPENSM_CONF_H
#define OSMQOS_OPENSM_CONF_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The value of opensm.conf's KEY line: the last such line's, comment cut,
 * blanks and one pair of quotes trimmed, copied into a malloc'd *path.
 * *named tells whether a line gives the key at all; "(null)" gives it as
 * NULL (OpenSM then opens its default file for both keys).  0, or -1 when
 * out of memory (*path NULL).
 */
int oq_opensm_conf_path(const char *text, size_t len, const char *key,
			char **path, bool *named);

#ifdef __cplusplus
}
#endif

#endif /* OSMQOS_OPENSM_CONF_H */
