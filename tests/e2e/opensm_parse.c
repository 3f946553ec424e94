// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Test-only OpenSM event plugin (event_plugin_name "osmqos oqparse"): feeds
 * policy files to OpenSM's own QoS policy parser and validator
 * (osm_qos_parse_policy_file, exported by the opensm binary) and writes,
 * for each, whether osmqos calls it valid and whether OpenSM took it.
 *
 * OpenSM parses what the plugin hands it: the copy text osmqos writes
 * (oq_policy_opensm_copy: line ends normalized, osmqos's own intent keys
 * commented out), not the operator's bytes.  The list comes from
 * OQ_PARSE_LIST (one path per line), results go to OQ_PARSE_OUT:
 *
 *	begin PATH                   (flushed first: an abort names its file)
 *	result valid ok|rejected PATH
 *	result invalid skipped PATH
 *
 * Runs at the first SUBNET UP event, in the sweeper thread that is the
 * parser's only other user; OpenSM keeps the last policy parsed (qos is
 * off in the test's opensm.conf, so nothing uses it).  Each
 * rejected file is followed by a parse of a minimal policy, which resets
 * the lexer's per-line flags a failed parse can leave set.  Policies
 * osmqos refuses are not given to OpenSM (the plugin never would).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <opensm/osm_opensm.h>
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_version.h>
/* OpenSM's header declares some functions without prototypes. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <opensm/osm_qos_policy.h>
#pragma GCC diagnostic pop

#include <osmqos/file.h>
#include <osmqos/policy.h>

static int opensm_parse(osm_opensm_t *osm, char *path)
{
	char *saved = osm->subn.opt.qos_policy_file;
	int r;

	osm->subn.opt.qos_policy_file = path;
	r = osm_qos_parse_policy_file(&osm->subn);
	osm->subn.opt.qos_policy_file = saved;
	return r;
}

/* The copy the plugin would hand OpenSM, or NULL when osmqos calls the
 * policy invalid (*valid false) or out of memory. */
static char *osmqos_copy(const char *path, const char *text, size_t len,
			 bool *valid, size_t *clen)
{
	struct oq_diags d;
	struct oq_policy *p;
	char *copy = NULL;

	oq_diags_init(&d);
	p = oq_policy_parse(path, text, len, &d);
	if (p && !oq_diags_has_errors(&d))
		oq_policy_validate(p, &d);
	*valid = p && !oq_diags_has_errors(&d);
	if (*valid)
		copy = oq_policy_opensm_copy(p, clen);
	oq_policy_free(p);
	oq_diags_free(&d);
	return copy;
}

static int write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	if (fwrite(text, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

static void check_one(osm_opensm_t *osm, FILE *out, const char *path,
		      char *copy_path, char *reset_path)
{
	size_t len = 0, clen = 0;
	char *text = oq_file_read(path, OQ_FILE_MAX_BYTES, &len), *copy;
	bool valid;
	int r;

	fprintf(out, "begin %s\n", path);
	fflush(out);
	if (!text) {
		fprintf(out, "result unreadable - %s\n", path);
		return;
	}
	copy = osmqos_copy(path, text, len, &valid, &clen);
	if (!valid) {
		/* Never handed to OpenSM (and its parser loops forever on
		 * some: a 17-digit port GUID range). */
		fprintf(out, "result invalid skipped %s\n", path);
		free(text);
		return;
	}
	if (!copy || write_file(copy_path, copy, clen)) {
		fprintf(out, "result %s unwritable %s\n",
			valid ? "valid" : "invalid", path);
		free(copy);
		free(text);
		return;
	}
	r = opensm_parse(osm, copy_path);
	fprintf(out, "result %s %s %s\n", valid ? "valid" : "invalid",
		r ? "rejected" : "ok", path);
	fflush(out);
	if (r)
		opensm_parse(osm, reset_path);
	free(copy);
	free(text);
}

/* Parsed after a rejected file: a failed parse can leave the lexer's
 * per-line flags set. */
static const char reset_policy[] = "qos-ulps\n    default : 0\nend-qos-ulps\n";

/* create() must return non-NULL for OpenSM to keep the plugin. */
static int loaded;

static void run(osm_opensm_t *osm)
{
	const char *list = getenv("OQ_PARSE_LIST");
	const char *outp = getenv("OQ_PARSE_OUT");
	char *copy_path = NULL, *reset_path = NULL, *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *in, *out;

	if (!list || !outp)
		return;
	in = fopen(list, "r");
	out = fopen(outp, "w");
	if (asprintf(&copy_path, "%s.copy", outp) < 0)
		copy_path = NULL;
	if (asprintf(&reset_path, "%s.reset", outp) < 0)
		reset_path = NULL;
	if (!in || !out || !copy_path || !reset_path ||
	    write_file(reset_path, reset_policy, strlen(reset_policy)))
		goto done;
	while ((n = getline(&line, &cap, in)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (*line)
			check_one(osm, out, line, copy_path, reset_path);
	}
	fprintf(out, "done\n");
done:
	free(line);
	free(copy_path);
	free(reset_path);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
}

static osm_opensm_t *the_osm;

static void *oqparse_create(osm_opensm_t *osm)
{
	the_osm = osm;
	return &loaded;
}

static void oqparse_delete(void *ctx)
{
	(void)ctx;
}

/* At the first SUBNET UP: the partition manager has run, so OpenSM's
 * validator finds the partitions qos-ulps IPoIB entries name. */
static void oqparse_report(void *ctx, osm_epi_event_id_t id, void *data)
{
	static bool done;

	(void)ctx;
	(void)data;
	if (id != OSM_EVENT_ID_SUBNET_UP || done)
		return;
	done = true;
	run(the_osm);
}

osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = oqparse_create,
	.delete = oqparse_delete,
	.report = oqparse_report,
};
