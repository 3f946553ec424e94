/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * opensm.conf's lines and the file paths it names (node_name_map_name,
 * partition_config_file), read as osm_subn_parse_conf_file() reads them,
 * so the CLI opens the files, and doctor judges the settings, the SM
 * does.
 */
#ifndef OSMQOS_OPENSM_CONF_H
#define OSMQOS_OPENSM_CONF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The most characters of a line OpenSM reads at once:
 * osm_subn_parse_conf_file() (opensm/osm_subnet.c, 3.3.23 and 3.3.24)
 * reads opensm.conf with fgets(line, 1023, f) into char line[1024], so a
 * longer line is cut after 1022 characters and its rest read as another
 * line (its first word taken for a key).
 */
#define OQ_OPENSM_CONF_LINE_MAX 1022

/*
 * A value as osm_subnet.c's clean_val() leaves it: blanks off both ends,
 * then one pair of quotes.  Cuts v in place and returns its start.
 */
char *oq_opensm_conf_clean_val(char *v);

/*
 * One line of opensm.conf (NUL-terminated, cut in place) as
 * osm_subn_parse_conf_file() reads it: a '#' ends it, the first word is
 * the key, the rest the value cleaned as above.  1 with *key and *val set,
 * 0 for a line without a key.
 */
int oq_opensm_conf_split(char *line, char **key, char **val);

/*
 * Every line of text (len bytes) in turn, without its '\n', as a
 * NUL-terminated copy fn may cut; line numbers from 1.  A line longer
 * than OQ_OPENSM_CONF_LINE_MAX comes in pieces of that length, as OpenSM
 * reads it, each with the line's number.  Stops at the first
 * non-zero fn returns and returns it; -1 when out of memory, else 0.
 */
typedef int (*oq_opensm_conf_line_fn)(char *line, unsigned int n, void *ctx);
int oq_opensm_conf_lines(const char *text, size_t len,
			 oq_opensm_conf_line_fn fn, void *ctx);

/*
 * The first line of text longer than OpenSM reads at once: 1 with its
 * number, its length and its first word (key, cut to keylen) set; 0 when
 * there is none.
 */
int oq_opensm_conf_long_line(const char *text, size_t len, unsigned int *n,
			     size_t *line_len, char *key, size_t keylen);

/*
 * The value of opensm.conf's KEY line: the last such line's, comment cut,
 * cleaned as above, copied into a malloc'd *path.  No line, or "(null)",
 * leaves *path NULL: OpenSM then opens its default file for both keys.
 * 0, or -1 when out of memory.
 */
int oq_opensm_conf_path(const char *text, size_t len, const char *key,
			char **path);

#ifdef __cplusplus
}
#endif

#endif /* OSMQOS_OPENSM_CONF_H */
