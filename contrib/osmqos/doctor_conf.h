/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* opensm.conf as OpenSM reads it: "key value" lines, for `osmqos doctor`. */
#ifndef OSMQOS_CLI_DOCTOR_CONF_H
#define OSMQOS_CLI_DOCTOR_CONF_H

#include <stddef.h>

struct oq_conf_item {
	char *key, *val;
};

struct oq_conf {
	struct oq_conf_item *v;
	size_t n;
};

/* The text of an opensm.conf (len bytes; read by the caller, which
 * owns the error wording): each line's first word is a key and the rest,
 * blanks trimmed, its value; '#' lines and blank lines are skipped; a
 * later line with the same key wins, as in OpenSM.  0, or -1 out of
 * memory. */
int oq_conf_parse(const char *text, size_t len, struct oq_conf *c);
void oq_conf_free(struct oq_conf *c);
/* The value of key, or NULL (also for "(null)", OpenSM's unset). */
const char *oq_conf_get(const struct oq_conf *c, const char *key);

#endif /* OSMQOS_CLI_DOCTOR_CONF_H */
