// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos status [-d DIR] [-j]
 *
 * What the plugin says it is doing, from what it publishes (osmqos.prom,
 * refreshed between sweeps, and the copy of the policy in force): the
 * policy in force (path, hash, when loaded), whether OpenSM's own parser
 * refuses the file it reads, the last edit it rejected and why, the
 * sweep whose tables are programmed, the QoS MADs sent, the SA's answers
 * by level and the audit records dropped.  When it exits 1, a verdict
 * line comes first: why, and what to do.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <osmqos/advice.h>
#include <osmqos/file.h>
#include <osmqos/json.h>
#include <osmqos/htab.h>

#include "cli.h"
#include "inputs.h"
#include "published.h"
#include "status.h"

#define CMD "status"

struct status_opts {
	struct oq_cli_common c;
};
OQ_OPTS_STRUCT(struct status_opts);

static const struct oq_opt status_opts[] = {
	OQ_USE(OQ_CO_PUBLISH_DIR),
	OQ_USE_H(OQ_CO_OPENSM_CONF, 0,
		 "the SM's opensm.conf: without --publish-dir, its "
		 "event_plugin_options publish_dir= says where to read"),
	OQ_USE(OQ_CO_JSON),
	OQ_OPT_END,
};

static int run(int argc, char **argv);

const struct oq_cmd_spec oq_spec_status = {
	.name = CMD,
	.summary = "the policy in force, the last rejected edit, counters",
	.about = "Read what the plugin publishes (" OQ_PUB_PROM ", rewritten "
		 "every publish_interval seconds by the master, and the copy "
		 "of the policy in force) and say: the policy in force (path, "
		 "hash, when loaded), whether OpenSM's own parser refuses the "
		 "file it reads, the last edit the plugin rejected and "
		 "why, the sweep whose tables are programmed, QoS Set MADs "
		 "sent, the SA's PathRecord answers by QoS level, audit "
		 "records dropped.  On a standby's host, where only the "
		 "policy it would put in force is written, that policy and "
		 "whether the policy file still holds it.  When it exits 1, "
		 "the first line says why and what to do.",
	.opts = status_opts,
	.notes = "The hash is FNV-1a of the policy file's bytes, as the "
		 "plugin logs and publishes it; `drift --in-force` and `plan` "
		 "compare with the same copy.",
	.exit_status = "0 a policy is in force and it is the policy file's "
		       "current content, 1 no policy in force, the "
		       "publication is stale (not rewritten for two "
		       "publish_interval periods and 5 s: opensm stopped, "
		       "hangs or is a standby), or the file's current "
		       "content was rejected, cannot be read, or is an edit "
		       "not loaded yet (the last good policy applies), or "
		       "the file was removed, is not a regular file, or is "
		       "a relative path status cannot resolve, or OpenSM's "
		       "own parser refuses the file it reads (it runs "
		       "without a policy of its own), or opensm.conf has qos "
		       "FALSE (no QoS tables at all), or the copy of the "
		       "policy in force as written is missing or holds "
		       "another policy and is older than the publication "
		       "(writing it failed: a restart would put back that "
		       "policy or none), or there is no publication, only "
		       "the policy a standby would put in force (which it "
		       "says, with the policy file against it), 2 usage "
		       "error or nothing published there.",
	.run = run,
};

static double value(const struct oq_prom *p, const char *name, double dflt)
{
	const struct oq_prom_sample *s = oq_prom_find(p, name, NULL, NULL);

	return s ? s->value : dflt;
}

static void gather(struct st *s, const struct oq_prom *p)
{
	const struct oq_prom_sample *x;
	size_t i;

	s->prom = p;
	s->published = value(p, "osmqos_publish_timestamp_seconds", 0);
	s->interval = value(p, "osmqos_publish_interval_seconds", -1);
	s->qos = value(p, "osmqos_qos_enabled", -1);
	x = oq_prom_find(p, "osmqos_policy_info", NULL, NULL);
	s->in_force = x && x->value > 0;
	s->path = x ? oq_prom_label(x, "path") : NULL;
	s->hash = x ? oq_prom_label(x, "hash") : NULL;
	s->loaded = value(p, "osmqos_policy_last_load_timestamp_seconds", 0);
	s->load_success = value(p, "osmqos_policy_load_success", 0) > 0;
	x = oq_prom_find(p, "osmqos_policy_rejected_info", NULL, NULL);
	if (x) {
		s->rej_path = oq_prom_label(x, "path");
		s->rej_hash = oq_prom_label(x, "hash");
		s->rej_error = oq_prom_label(x, "error");
		s->rej_fix = oq_prom_label(x, "fix");
		if (s->rej_fix && !*s->rej_fix)
			s->rej_fix = NULL;
	}
	s->rejected = value(p, "osmqos_policy_rejected_timestamp_seconds", 0);
	x = oq_prom_find(p, "osmqos_policy_restored_info", NULL, NULL);
	if (x && x->value > 0) {
		s->restored_from = oq_prom_label(x, "path");
		s->restored_for = oq_prom_label(x, "written_for");
		if (s->restored_for && !*s->restored_for)
			s->restored_for = NULL;
	}
	x = oq_prom_find(p, "osmqos_policy_opensm_refused", NULL, NULL);
	if (x) {
		s->osm_path = oq_prom_label(x, "path");
		s->osm_refused = x->value > 0;
		s->osm_since = value(
			p, "osmqos_policy_opensm_refused_timestamp_seconds", 0);
	}
	s->sweep = value(p, "osmqos_sweep", 0);
	s->mads = value(p, "osmqos_qos_mads_sent_total", 0);
	s->dropped = value(p, "osmqos_audit_dropped_total", 0);
	x = oq_prom_find(p, "osmqos_routing_engine_info", NULL, NULL);
	s->engine = x ? oq_prom_label(x, "engine") : NULL;
	s->sl2vl = x ? oq_prom_label(x, "sl2vl") : NULL;
	for (i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].name, "osmqos_sa_pr_answered_total"))
			s->answers += p->v[i].value;
}

/* Is the last rejected edit (or read error) the file's current state?
 * Read here when the file can be; else the plugin's word. */
static bool rejection_current(const struct st *s)
{
	enum file_state f = status_file_state(s);

	if (f == FILE_IN_FORCE || f == FILE_EDITED)
		return false;
	if (f == FILE_REJECTED)
		return true;
	return s->rej_error && !s->load_success && s->rejected >= s->loaded;
}

/* The master no longer rewrites the file (published.h says when). */
static bool stale(const struct st *s)
{
	return oq_pub_stale(s->published, s->interval, s->now);
}

/* The rejected edit is no longer the file's content: why, in words. */
static const char *rejection_past(const struct st *s)
{
	/* A read that succeeded after the rejection is a later load; no
	 * load since leaves what the file holds now. */
	if (s->load_success)
		return "since fixed: a later content was loaded";
	if (status_file_state(s) == FILE_EDITED)
		return "superseded by an edit not loaded yet (below)";
	if (status_file_state(s) == FILE_IN_FORCE)
		return "since put back: the file holds the policy in force "
		       "again, not read since";
	return "since fixed: a later content was loaded";
}

/* What to restore from when the file's content was rejected: the copy
 * as written when the line above showed it, else OpenSM's copy of the
 * policy in force if there is one; NULL for neither. */
static const char *restore_from(const struct st *s, char *buf, size_t len)
{
	if (status_copy_matches(s))
		return "the copy above";
	if (!oq_pub_path(s->dir, OQ_PUB_OPENSM_COPY, buf, len) ||
	    access(buf, R_OK))
		return NULL;
	return buf;
}

/* Where the SL2VL in force comes from, as the plugin publishes it. */
static const char *sl2vl_words(const char *sl2vl)
{
	if (!sl2vl)
		return "?";
	if (!strcmp(sl2vl, "policy"))
		return "the policy";
	if (!strcmp(sl2vl, "template"))
		return "OpenSM's template, qos_sl2vl";
	if (!strcmp(sl2vl, "engine"))
		return "the routing engine";
	return sl2vl;
}

/*
 * Why status exits 1: each cause in words, with what to do.  The text
 * output starts with them, the details after; the JSON lists them.  A
 * cause without a fix (no policy in force, when the policy file's state
 * says why) leads into the next one.
 */
struct cause {
	const char *key; /* the JSON's word */
	char *what, *fix;
};

#define MAX_CAUSES 6

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));

/* A formatted string, or NULL when out of memory (said as the key). */
static char *fmt(const char *f, ...)
{
	char *t = NULL;
	va_list ap;
	int n;

	va_start(ap, f);
	n = vasprintf(&t, f, ap);
	va_end(ap);
	return n < 0 ? NULL : t;
}

/* What to put back when the file's content is not the policy in force:
 * the copy as written when it holds that policy, else OpenSM's copy. */
static const char *put_back(const struct st *s, char *buf, size_t len)
{
	const char *from = restore_from(s, buf, len);

	return from && status_copy_matches(s) ? s->copy : from;
}

/* The file's state, as a cause (none for in force, rejected, unknown). */
static size_t file_cause(const struct st *s, struct cause *c)
{
	char buf[4096];
	const char *from;
	char *fix;

	switch (status_file_state(s)) {
	case FILE_EDITED:
		*c = (struct cause){
			"edited",
			fmt("the policy file holds an edit not loaded yet"),
			fmt("check it (osmqos check %s), then kill -HUP opensm",
			    s->path)};
		return 1;
	case FILE_MISSING:
		from = put_back(s, buf, sizeof(buf));
		if (from)
			fix = fmt("restore it from %s", from);
		else if (s->in_force)
			fix = fmt("restore it");
		else
			fix = fmt("write the policy there, check it (osmqos "
				  "check %s), then kill -HUP opensm",
				  s->path);
		*c = (struct cause){
			"missing",
			fmt("the policy file %s does not exist", s->path), fix};
		return 1;
	case FILE_SPECIAL:
		*c = (struct cause){
			"not_regular",
			fmt("the policy file %s is %s, not a regular file",
			    s->path, s->file_kind),
			fmt("put the policy file back there")};
		return 1;
	case FILE_RELATIVE:
		*c = (struct cause){
			"relative",
			fmt("the policy file %s is a relative path (opensm's "
			    "working directory's): status cannot tell what it "
			    "holds",
			    s->path),
			fmt("give qos_policy_file (or policy=) an absolute "
			    "path and restart opensm")};
		return 1;
	default:
		return 0;
	}
}

/* Every reason for exit status 1, in the order to fix them; how many. */
static size_t causes_of(const struct st *s, struct cause *c)
{
	enum file_state f = status_file_state(s);
	size_t n = 0, none = MAX_CAUSES;
	char buf[4096];
	const char *from;

	if (stale(s))
		c[n++] = (struct cause){
			"stale",
			fmt("the publication is stale, %.0f s old where the "
			    "master rewrites it every %.0f s",
			    s->now - s->published, s->interval),
			fmt(OQ_PUB_STALE_FIX)};
	/* No policy is loaded then, and no table programmed: that is why. */
	if (s->qos == 0)
		c[n++] = (struct cause){
			"qos_disabled",
			fmt("opensm.conf has qos FALSE: OpenSM programs no QoS "
			    "tables (not even its templates) and osmqos loads "
			    "no policy"),
			fmt("set qos TRUE in opensm.conf, then restart "
			    "opensm")};
	else if (!s->in_force) {
		none = n;
		c[n++] = (struct cause){
			"no_policy",
			fmt("no policy is in force, the ports keep OpenSM's "
			    "templates"),
			NULL};
	}
	/* A file removed or not regular: its state says what to do. */
	if (rejection_current(s) && f != FILE_MISSING && f != FILE_SPECIAL) {
		from = put_back(s, buf, sizeof(buf));
		c[n++] = (struct cause){
			"rejected",
			fmt("the policy file's current content was rejected%s",
			    s->in_force ? ", the last good policy stays" : ""),
			/* A valid file the plugin's setup refuses: the
			 * setup is what to change. */
			s->rej_fix ? fmt("%s", s->rej_fix)
				   : fmt("fix it (osmqos check %s), then kill "
					 "-HUP opensm%s%s",
					 s->rej_path ? s->rej_path : "FILE",
					 from ? ", or restore it from " : "",
					 from ? from : "")};
	}
	n += file_cause(s, &c[n]);
	if (status_copy_state(s) == COPY_OTHER ||
	    status_copy_state(s) == COPY_MISSING)
		c[n++] = (struct cause){
			"in_force_copy",
			status_copy_state(s) == COPY_MISSING
				? fmt("there is no copy of the policy in "
				      "force in %s: writing it failed, and a "
				      "restart of opensm now puts back no "
				      "policy",
				      s->dir)
				: fmt("%s holds another policy (hash "
				      "0x%016" PRIx64
				      ") than the one in force: writing it "
				      "failed, and a restart of opensm now "
				      "puts that one back",
				      s->copy, s->copy_hash),
			fmt("read opensm's log (cannot write "
			    "%s/" OQ_PUB_IN_FORCE
			    ") and fix what it says (a full or read-only file "
			    "system, permissions); the plugin writes the copy "
			    "again every publish_interval seconds",
			    s->dir)};
	if (s->osm_refused)
		c[n++] = (struct cause){
			"opensm_refused",
			fmt("OpenSM's own parser refuses %s, OpenSM runs "
			    "without a policy of its own",
			    s->osm_path ? s->osm_path : "the file it reads"),
			fmt("see why in opensm's log (ERR AC0x) or with "
			    "osmqos check %s --partitions FILE (opensm's "
			    "partition_config_file), fix it, then kill -HUP "
			    "opensm",
			    s->path ? s->path : "FILE")};
	/* Nothing after it says what to do: it does. */
	if (none < MAX_CAUSES && none == n - 1)
		c[none].fix = fmt("see opensm's log for why, give it a valid "
				  "policy (osmqos check %s), then kill -HUP "
				  "opensm",
				  s->path ? s->path : "FILE");
	return n;
}

static void causes_free(struct cause *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(c[i].what);
		free(c[i].fix);
	}
}

/* The first line when status exits 1: the causes and what to do. */
static void print_verdict(const struct cause *c, size_t n)
{
	bool said = false;
	size_t i;

	printf("status:");
	for (i = 0; i < n; i++) {
		if (i)
			printf("%s", c[i - 1].fix ? "; also" : ":");
		printf(" %s", c[i].what ? c[i].what : c[i].key);
		if (!c[i].fix)
			continue;
		if (!said)
			printf(" (exit 1)");
		said = true;
		printf(": %s", c[i].fix);
	}
	printf("%s\n", said ? "" : " (exit 1)");
}

static const char *const file_state_word[] = {
	[FILE_UNKNOWN] = "unknown",	[FILE_IN_FORCE] = "in_force",
	[FILE_REJECTED] = "rejected",	[FILE_EDITED] = "edited",
	[FILE_MISSING] = "missing",	[FILE_RELATIVE] = "relative",
	[FILE_SPECIAL] = "not_regular",
};

static void print_text(const struct st *s, const struct cause *c, size_t n)
{
	const struct oq_prom *p = s->prom;
	char w[96], copy[4096];
	const char *from;
	size_t i;
	bool first = true;

	if (n)
		print_verdict(c, n);
	status_when(w, sizeof(w), s->published, s->now);
	printf("published in %s at %s\n", s->dir, w);
	if (stale(s))
		printf("  stale: the SM rewrites it every %.0f s while it is "
		       "master; opensm has stopped, hangs, is a standby now, "
		       "or cannot write here (see its log). What follows is "
		       "what was in force then\n",
		       s->interval);
	if (s->in_force) {
		status_when(w, sizeof(w), s->loaded, s->now);
		printf("policy in force: %s\n  hash %s, loaded %s\n",
		       s->path ? s->path : "(unknown path)",
		       s->hash ? s->hash : "?", w);
		if (s->restored_from)
			printf("  restored at start from %s, written for %s: "
			       "the file above could not be put in force\n",
			       s->restored_from,
			       s->restored_for ? s->restored_for
					       : "a file not known");
		if (status_copy_matches(s))
			printf("  as written: %s (drift --in-force and plan "
			       "compare with it)\n",
			       s->copy);
		else if (status_copy_state(s) == COPY_CHANGING)
			printf("  as written: %s holds another policy (hash "
			       "0x%016" PRIx64 "), written after this "
			       "publication: the plugin is putting it in "
			       "force, the next publication names it\n",
			       s->copy, s->copy_hash);
		else if (s->have_copy)
			printf("  as written: %s holds another policy (hash "
			       "0x%016" PRIx64 "), written before this "
			       "publication: writing the policy in force "
			       "there failed (opensm's log says why), or "
			       "another program wrote it\n",
			       s->copy, s->copy_hash);
		else if (status_copy_state(s) == COPY_MISSING)
			printf("  as written: no copy in %s: writing it "
			       "failed (opensm's log says why)\n",
			       s->dir);
		else
			printf("  as written: %s cannot be read here (%s)\n",
			       s->copy, strerror(s->copy_errno));
	} else if (s->qos == 0) {
		printf("policy in force: none: opensm.conf has qos FALSE, so "
		       "OpenSM programs no QoS tables (not even its templates) "
		       "and osmqos loads no policy; set qos TRUE in "
		       "opensm.conf and restart opensm\n");
	} else {
		printf("policy in force: none (the ports keep OpenSM's "
		       "templates and the SA has no policy)\n");
	}
	if (s->osm_refused) {
		status_when(w, sizeof(w), s->osm_since, s->now);
		printf("OpenSM's own parser: refuses %s since %s\n  OpenSM "
		       "runs without a policy of its own (the queries osmqos "
		       "passes to its SA, and its multicast, get no QoS level) "
		       "while osmqos applies the policy above; opensm's log "
		       "says why (ERR AC0x), and so does `osmqos check %s "
		       "--partitions FILE` with opensm's partition_config_file "
		       "-- " OQ_ADVICE_OPENSM_REFUSED "\n",
		       s->osm_path ? s->osm_path : "?", w,
		       s->path ? s->path : "FILE");
	}
	if (!s->rej_error) {
		printf("last rejected edit: none\n");
	} else {
		status_when(w, sizeof(w), s->rejected, s->now);
		printf("last rejected edit: %s, hash %s, at %s\n  %s\n",
		       s->rej_path ? s->rej_path : "?",
		       s->rej_hash ? s->rej_hash : "?", w, s->rej_error);
		from = restore_from(s, copy, sizeof(copy));
		if (rejection_current(s) && s->rej_fix)
			printf("  the file's current content is not in force: "
			       "%s\n",
			       s->rej_fix);
		else if (rejection_current(s))
			printf("  the file's current content is not in force: "
			       "fix it (osmqos check %s) and `kill -HUP` "
			       "opensm%s%s\n",
			       s->rej_path ? s->rej_path : "FILE",
			       from ? ", or restore " : "", from ? from : "");
		else
			printf("  %s\n", rejection_past(s));
	}
	if (status_file_state(s) == FILE_EDITED)
		printf("policy file: edited since the plugin read it (hash "
		       "0x%016" PRIx64 "), not loaded yet: check it (osmqos "
		       "check %s), then `kill -HUP` opensm\n",
		       s->file_hash, s->path);
	else if (status_file_state(s) == FILE_MISSING &&
		 (from = restore_from(s, copy, sizeof(copy))))
		printf("policy file: %s removed: the next sweep keeps the last "
		       "good policy; restore it (from %s)\n",
		       s->path, from);
	else if (status_file_state(s) == FILE_MISSING)
		printf("policy file: %s removed: the next sweep keeps the last "
		       "good policy; restore it\n",
		       s->path);
	else if (status_file_state(s) == FILE_SPECIAL)
		printf("policy file: %s is %s, not a regular file: the plugin "
		       "cannot read it and keeps the last good policy; put "
		       "the policy file back there\n",
		       s->path, s->file_kind);
	else if (status_file_state(s) == FILE_RELATIVE)
		printf("policy file: %s is relative: opensm resolves it "
		       "against its own working directory (/ under systemd), "
		       "not this one, so status cannot tell what it holds "
		       "now; give qos_policy_file (or policy=) an absolute "
		       "path and restart opensm\n",
		       s->path);
	else if (status_file_state(s) == FILE_UNKNOWN && s->path_unsure)
		printf("policy file: its name is not UTF-8 (U+FFFD above), "
		       "and %s/" OQ_PUB_IN_FORCE_SOURCE ", which holds it byte "
		       "for byte, cannot be read here or is of another policy: "
		       "what the file holds now is the plugin's word at its "
		       "last publication (run status as opensm's user to "
		       "read it)\n",
		       s->dir);
	else if (status_file_state(s) == FILE_UNKNOWN && s->path)
		printf("policy file: cannot be read here (%s): what it holds "
		       "now is the plugin's word at its last publication\n",
		       strerror(s->file_errno));
	if (s->qos == 0)
		printf("tables: heavy sweep %.0f (routing engine %s, no QoS "
		       "tables: qos FALSE); %.0f QoS Set MADs sent since "
		       "OpenSM started\n",
		       s->sweep, s->engine ? s->engine : "?", s->mads);
	else
		printf("tables: heavy sweep %.0f (routing engine %s, SL2VL "
		       "from %s); %.0f QoS Set MADs sent since OpenSM "
		       "started\n",
		       s->sweep, s->engine ? s->engine : "?",
		       sl2vl_words(s->sl2vl), s->mads);
	printf("SA: %.0f PathRecord/MultiPathRecord answers", s->answers);
	for (i = 0; i < p->n; i++) {
		const char *lvl;

		if (strcmp(p->v[i].name, "osmqos_sa_pr_answered_total"))
			continue;
		lvl = oq_prom_label(&p->v[i], "level");
		if (!p->v[i].value)
			continue;
		printf("%s%s %.0f", first ? ": " : ", ", lvl ? lvl : "?",
		       p->v[i].value);
		first = false;
	}
	printf("\naudit trail: %.0f record%s dropped\n", s->dropped,
	       s->dropped == 1 ? "" : "s");
}

static void json_str(const char *k, const char *v, bool comma)
{
	printf("%s\"%s\": ", comma ? ", " : "", k);
	if (v)
		oq_json_fstring(stdout, v);
	else
		printf("null");
}

static void json_time(const char *k, double t)
{
	if (t > 0)
		printf(", \"%s\": %.3f", k, t);
	else
		printf(", \"%s\": null", k);
}

static void print_json(const struct st *s, const struct cause *c, size_t n)
{
	const struct oq_prom *p = s->prom;
	bool first = true;
	size_t i;

	printf("{");
	json_str("publish_dir", s->dir, false);
	json_time("published_at_epoch", s->published);
	if (s->interval >= 0)
		printf(", \"publish_interval_s\": %.0f, \"stale\": %s",
		       s->interval, stale(s) ? "true" : "false");
	else
		printf(", \"publish_interval_s\": null, \"stale\": null");
	if (s->qos < 0)
		printf(", \"qos_enabled\": null");
	else
		printf(", \"qos_enabled\": %s", s->qos > 0 ? "true" : "false");
	printf(", \"policy\": {\"in_force\": %s",
	       s->in_force ? "true" : "false");
	json_str("path", s->path, true);
	json_str("hash", s->hash, true);
	json_str("restored_from", s->restored_from, true);
	json_str("restored_for", s->restored_for, true);
	json_time("loaded_at_epoch", s->loaded);
	printf(", \"load_success\": %s", s->load_success ? "true" : "false");
	json_str("copy", s->have_copy ? s->copy : NULL, true);
	printf(", \"copy_matches\": %s",
	       status_copy_matches(s) ? "true" : "false");
	printf(", \"copy_changing\": %s",
	       status_copy_state(s) == COPY_CHANGING ? "true" : "false");
	printf(", \"file\": \"%s\"", file_state_word[status_file_state(s)]);
	printf(", \"opensm_parse\": ");
	if (s->osm_path) {
		printf("{");
		json_str("path", s->osm_path, false);
		printf(", \"refused\": %s", s->osm_refused ? "true" : "false");
		json_time("refused_since_epoch",
			  s->osm_refused ? s->osm_since : 0);
		printf("}}");
	} else {
		printf("null}");
	}
	printf(", \"rejected\": ");
	if (s->rej_error) {
		printf("{");
		json_str("path", s->rej_path, false);
		json_str("hash", s->rej_hash, true);
		json_time("at_epoch", s->rejected);
		json_str("error", s->rej_error, true);
		json_str("fix", s->rej_fix, true);
		printf(", \"current\": %s}",
		       rejection_current(s) ? "true" : "false");
	} else {
		printf("null");
	}
	printf(", \"sweep\": %.0f, \"qos_mads_sent\": %.0f", s->sweep, s->mads);
	printf(", \"routing_engine\": {");
	json_str("name", s->engine, false);
	json_str("sl2vl", s->sl2vl, true);
	printf("}, \"sa_answers\": {\"total\": %.0f, \"levels\": {",
	       s->answers);
	for (i = 0; i < p->n; i++) {
		const char *lvl;

		if (strcmp(p->v[i].name, "osmqos_sa_pr_answered_total"))
			continue;
		lvl = oq_prom_label(&p->v[i], "level");
		printf("%s", first ? "" : ", ");
		oq_json_fstring(stdout, lvl ? lvl : "?");
		printf(": %.0f", p->v[i].value);
		first = false;
	}
	printf("}}, \"audit_dropped\": %.0f", s->dropped);
	printf(", \"verdict\": {\"exit_status\": %d, \"causes\": [",
	       n ? OQ_EXIT_FAIL : OQ_EXIT_OK);
	for (i = 0; i < n; i++) {
		printf("%s{", i ? ", " : "");
		json_str("cause", c[i].key, false);
		json_str("what", c[i].what, true);
		json_str("fix", c[i].fix, true);
		printf("}");
	}
	printf("]}}\n");
}

/* What is published in dir, said; the exit status. */
static int report(const char *dir, bool json)
{
	struct oq_prom prom;
	struct cause c[MAX_CAUSES];
	struct st s;
	char path[4096];
	size_t bad, n;
	int rc;

	memset(&s, 0, sizeof(s));
	s.dir = dir;
	s.now = (double)time(NULL);
	if (!oq_pub_path(s.dir, OQ_PUB_PROM, path, sizeof(path)))
		return oq_usage_error(CMD, "--publish-dir '%s' is too long",
				      s.dir);
	if (oq_prom_load(path, &prom, &bad)) {
		if (bad)
			return oq_usage_error(CMD,
					      "%s:%zu is not a Prometheus "
					      "sample line: is it the plugin's "
					      "file?",
					      path, bad);
		/* There but not readable here is no standby's directory. */
		if (errno == EACCES || errno == EPERM)
			return oq_usage_error(CMD,
					      "cannot read %s: %s; run status "
					      "as root or opensm's user",
					      path, strerror(errno));
		rc = errno == ENOENT ? status_unpublished(s.dir, s.now, json)
				     : -1;
		if (rc >= 0)
			return rc;
		return oq_usage_error(
			CMD,
			"nothing published in %s (%s unreadable): is the "
			"plugin loaded (event_plugin_name osmqos), and is its "
			"publish_dir= this directory? `osmqos doctor` checks",
			s.dir, OQ_PUB_PROM);
	}
	gather(&s, &prom);
	status_copy_of(&s);
	status_path_of(&s);
	status_file_of(&s);
	n = causes_of(&s, c);
	if (json)
		print_json(&s, c, n);
	else
		print_text(&s, c, n);
	causes_free(c, n);
	oq_prom_free(&prom);
	return n ? OQ_EXIT_FAIL : OQ_EXIT_OK;
}

static int run(int argc, char **argv)
{
	struct status_opts o = {0};
	struct oq_pub_live live = {0};
	int rc = oq_cli_parse(&oq_spec_status, argc, argv, &o);

	if (rc != OQ_CLI_RUN)
		return rc;
	/* status reads opensm.conf for nothing else: a file, not a pipe. */
	if (o.c.opensm_conf && !strcmp(o.c.opensm_conf, "-") &&
	    !o.c.publish_dir)
		return oq_usage_error(CMD,
				      "--opensm-conf - : status reads only the "
				      "file's publish_dir=, which standard "
				      "input cannot give it here; name the "
				      "file, or give --publish-dir DIR");
	rc = oq_pub_live_dir(CMD, &o.c, &live);
	if (!rc)
		rc = report(oq_pub_dir(o.c.publish_dir), o.c.json);
	oq_pub_live_free(&live);
	return rc;
}
