/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* `osmqos predict`: the command (cmd_predict.c) and its --path form
 * (predict_path.c). */
#ifndef OSMQOS_CLI_PREDICT_H
#define OSMQOS_CLI_PREDICT_H

#include <stdbool.h>
#include <stddef.h>

#include <osmqos/fabric.h>
#include <osmqos/model.h>
#include <osmqos/tables.h>

/* --path: SL sl from s_src to s_dst (port names as --port takes them)
 * over f with tables t; prints the text or JSON; an exit status. */
int oq_cli_predict_path(const struct oq_fabric *f,
			const struct oq_fabric_tables *t, const char *s_src,
			const char *s_dst, int sl,
			const struct oq_predict_opts *o, bool json);

/* A VL as the outputs show it: its number, "drop" or "mixed". */
const char *oq_predict_vl_text(int vl, char *buf, size_t n);
/* An SL's "vl", "share", "share_exact", "gbps" and "priority" members. */
void oq_predict_json_sl_share(const struct oq_sl_pred *sp);

#endif /* OSMQOS_CLI_PREDICT_H */
