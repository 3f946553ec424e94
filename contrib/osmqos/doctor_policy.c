// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `osmqos doctor`: the policy as the SM's other inputs see it.  Under
 * opensm_policy=direct OpenSM's own parser reads the operator's file, so
 * stock OpenSM's verdict on it (the model `osmqos check` uses) is the
 * SA's policy; and the partitions a policy names must be ones
 * partitions.conf defines, which needs no fabric to check.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/fabric.h>
#include <osmqos/file.h>
#include <osmqos/match.h>
#include <osmqos/node_name_map.h>
#include <osmqos/stock.h>

#include "doctor.h"

/* The first diagnostic of d at sev (sorted, root causes first) into
 * buf; false when there is none. */
static bool first_of(struct oq_diags *d, enum oq_severity sev, char *buf,
		     size_t len)
{
	size_t i;

	oq_diags_sort(d);
	for (i = 0; i < d->n; i++)
		if (d->v[i].sev == sev) {
			oq_diag_format(&d->v[i], buf, len);
			return true;
		}
	return false;
}

int doctor_stock(struct doctor_report *r, const struct oq_policy *p)
{
	struct oq_diags d;
	struct oq_stock *s;
	char first[1024] = "", fix[768];
	int v;

	oq_diags_init(&d);
	s = oq_stock_read(p->file, p->text, p->text_len, NULL);
	v = s ? oq_stock_verdict(s, p, &d) : -1;
	oq_stock_free(s);
	if (v == OQ_STOCK_AS_WRITTEN) {
		oq_diags_free(&d);
		return 0;
	}
	if (v < 0) {
		doctor_check(r, DOCTOR_WARN, "policy",
			     "free some memory and run it again",
			     "out of memory reading %s as stock OpenSM would",
			     p->file);
		oq_diags_free(&d);
		return 1;
	}
	first_of(&d, OQ_SEV_WARNING, first, sizeof(first));
	snprintf(fix, sizeof(fix),
		 "`osmqos check %s` shows each construct; rewrite them as "
		 "`osmqos export -p %s` writes them, or drop "
		 "opensm_policy=direct (OpenSM then reads the plugin's copy)",
		 p->file, p->file);
	doctor_check(r, DOCTOR_WARN, "policy", fix,
		     "%s: stock %s %s; under opensm_policy=direct OpenSM "
		     "parses it itself (its SA answers from what it reads) "
		     "while osmqos applies it%s%s",
		     p->file, OQ_STOCK_OPENSM, oq_stock_verdict_text(v),
		     first[0] ? "; first: " : "", first);
	oq_diags_free(&d);
	return 1;
}

/*
 * The partitions OpenSM has: those of path, or its Default partition
 * alone when the file does not exist or has errors (as OpenSM runs).
 * A warning for the file with errors (into r); -1 out of memory.
 */
static int load_partitions(struct doctor_report *r, const char *path,
			   struct oq_partitions *parts, bool *have_file)
{
	struct oq_diags d;
	char first[1024] = "", fix[512];
	int rc;

	oq_diags_init(&d);
	rc = oq_partitions_load(parts, path, NULL, &d);
	*have_file = rc != -ENOENT;
	if (rc && rc != -ENOMEM) {
		if (rc != -ENOENT) {
			first_of(&d, OQ_SEV_ERROR, first, sizeof(first));
			snprintf(fix, sizeof(fix),
				 "fix %s (partitions.conf(5)), then restart "
				 "opensm",
				 path);
			doctor_check(r, DOCTOR_WARN, "partitions", fix,
				     "%s cannot be used (%s): OpenSM runs with "
				     "its Default partition alone",
				     path, first[0] ? first : "unreadable");
		}
		oq_partitions_free(parts);
		oq_diags_free(&d);
		oq_diags_init(&d);
		rc = oq_partitions_no_file(parts, NULL, &d);
	}
	oq_diags_free(&d);
	return rc ? -1 : 0;
}

void doctor_node_map(struct doctor_report *r, const char *path)
{
	struct oq_node_name_map *m;
	struct oq_diags d;
	char first[1024] = "", fix[512], why[64];
	const char *kind = oq_file_endless(path);
	size_t len = 0;
	char *text;
	int oom = 0;

	if (kind) {
		/* complib fopen()s the map and reads it to its end before
		 * the first sweep: a FIFO blocks there, a device spins. */
		doctor_check(r, DOCTOR_ERR, "node-name-map",
			     "point node_name_map_name at a regular file "
			     "(node-name-map(5)), then restart opensm",
			     "%s is a %s: opensm would block or spin reading "
			     "it at startup and never bring the subnet up",
			     path, kind);
		return;
	}
	text = oq_file_read(path, OQ_FILE_MAX_BYTES, &len);
	snprintf(fix, sizeof(fix),
		 "fix %s (GUID \"name\" lines, node-name-map(5)) or "
		 "node_name_map_name, then restart opensm",
		 path);
	if (!text) {
		doctor_check(r, DOCTOR_WARN, "node-name-map", fix,
			     "cannot read %s: %s; OpenSM names nodes by their "
			     "NodeDescriptions, and a port-name of the policy "
			     "written with the map's names matches nothing",
			     path,
			     oq_file_error(errno, OQ_FILE_MAX_BYTES, why,
					   sizeof(why)));
		return;
	}
	oq_diags_init(&d);
	m = oq_node_name_map_parse(path, text, len, &d, &oom);
	free(text);
	if (m)
		doctor_check(r, DOCTOR_OK, "node-name-map", NULL,
			     "%s: %zu node name(s)", path,
			     oq_node_name_map_size(m));
	else if (oom)
		doctor_check(r, DOCTOR_WARN, "node-name-map",
			     "free some memory and run it again",
			     "out of memory reading %s", path);
	else {
		first_of(&d, OQ_SEV_ERROR, first, sizeof(first));
		doctor_check(r, DOCTOR_WARN, "node-name-map", fix,
			     "OpenSM ignores %s (%s): nodes keep their "
			     "NodeDescriptions, and a port-name written with "
			     "the map's names matches nothing",
			     path, first[0] ? first : "a bad line");
	}
	oq_node_name_map_free(m);
	oq_diags_free(&d);
}

void doctor_partitions(struct doctor_report *r, const struct oq_policy *p,
		       const char *partitions)
{
	struct oq_partitions parts;
	struct oq_diags d;
	char first[1024] = "", fix[512];
	size_t i, j, named = 0;
	bool have_file;

	memset(&parts, 0, sizeof(parts));
	if (load_partitions(r, partitions, &parts, &have_file)) {
		doctor_check(r, DOCTOR_WARN, "partitions",
			     "free some memory and run it again",
			     "out of memory reading %s", partitions);
		oq_partitions_free(&parts);
		return;
	}
	oq_diags_init(&d);
	/* As the plugin binds them: a group's partition: that the file
	 * does not define selects no port, and a rule of that group alone
	 * can never match. */
	for (i = 0; i < p->n_explicit_groups; i++)
		for (j = 0; j < p->groups[i].partitions.n; j++) {
			const struct oq_ref *ref =
				&p->groups[i].partitions.v[j];

			named++;
			if (oq_partition_by_name(&parts, ref->name))
				continue;
			oq_warning(&d, ref->loc,
				   "partition '%s' is not defined in %s%s: "
				   "port-group '%s' selects no port by it",
				   ref->name, partitions,
				   have_file ? ""
					     : " (no such file: OpenSM "
					       "has its Default "
					       "partition alone)",
				   p->groups[i].name ? p->groups[i].name : "?");
		}
	/* ipoib lines OpenSM's parser refuses (full members need a
	 * fabric). */
	oq_check_ipoib_partitions(p, NULL, &parts, &d);
	snprintf(fix, sizeof(fix),
		 "define the partitions in %s (partition_config_file), or "
		 "name the ones it defines in the policy",
		 partitions);
	if (d.n_warnings + d.n_errors) {
		if (!first_of(&d, OQ_SEV_ERROR, first, sizeof(first)))
			first_of(&d, OQ_SEV_WARNING, first, sizeof(first));
		doctor_check(r, DOCTOR_WARN, "partitions", fix,
			     "%zu problem(s) of %s against %s, first: %s",
			     d.n_warnings + d.n_errors, p->file, partitions,
			     first);
	} else {
		doctor_check(r, DOCTOR_OK, "partitions", NULL,
			     "%zu partition name(s) in the policy, each "
			     "defined in %s%s",
			     named, partitions,
			     have_file ? ""
				       : " (no such file: the Default "
					 "partition)");
	}
	oq_diags_free(&d);
	oq_partitions_free(&parts);
}
