// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos doctor [-c OPENSM_CONF] [--standby-conf FILE] [--plugin LIB]
 *               [--opensm BIN] [--sm-user USER] [-j]
 *
 * Preflight: every condition the plugin needs to do its job, checked on
 * the SM host's files, each ok / warning / error with the fix:
 *
 *   qos TRUE; osmqos in event_plugin_name; its event_plugin_options;
 *   which policy file it reads (policy= or qos_policy_file) and whether
 *   it is valid; the plugin library where opensm's dlopen() finds it and
 *   built for this opensm's version; the publish and audit directories
 *   writable with free space and the policy file readable, as opensm's
 *   user; the audit trail's file one the plugin takes; those and the
 *   policy file writable by
 *   opensm's user alone; the publish directory no other opensm's and
 *   on a local file system; the routing engine and what it owns; the
 *   standby's opensm.conf the same.
 *
 * The event_plugin_options are read by the plugin's own parser
 * (plugin/options.c), so an option the plugin would refuse is found here.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <osmqos/file.h>
#include <osmqos/opensm_conf.h>
#include <osmqos/policy.h>
#include <osmqos/tables.h>

#include "cli.h"
#include "doctor.h"
#include "doctor_conf.h"
#include "doctor_dlopen.h"
#include "inputs.h"
#include "audit/audit.h"
#include "options/options.h"

#define CMD	     "doctor"
/* The files of the OpenSM this build is for (config.h, from its
 * osm_config.h): /etc/opensm, or /etc/rdma in Fedora's and RHEL's. */
#define DEFAULT_CONF   OQ_OSM_CONF_FILE
#define DEFAULT_POLICY OQ_OSM_QOS_POLICY_FILE

struct doctor_opts {
	struct oq_cli_common c;
	const char *standby, *plugin, *opensm, *sm_user;
};
OQ_OPTS_STRUCT(struct doctor_opts);

static const struct oq_opt doctor_opts[] = {
	OQ_USE_H(OQ_CO_OPENSM_CONF, 0,
		 "the SM's opensm.conf (default " DEFAULT_CONF ")"),
	OQ_OPT("standby-conf", 0, OQ_OPT_INPUT, "FILE",
	       "the standby SM's opensm.conf: its QoS settings must be the "
	       "same",
	       offsetof(struct doctor_opts, standby)),
	OQ_OPT("plugin", 0, OQ_OPT_TEXT, "LIB",
	       "the plugin library to check (default: libosmqos.so where "
	       "opensm's dlopen() finds it: LD_LIBRARY_PATH, then the "
	       "ld.so cache, then the loader's system directories)",
	       offsetof(struct doctor_opts, plugin)),
	OQ_OPT("opensm", 0, OQ_OPT_TEXT, "BIN",
	       "the opensm binary the plugin loads into (default: opensm "
	       "in PATH, then /usr/sbin/opensm)",
	       offsetof(struct doctor_opts, opensm)),
	OQ_OPT("sm-user", 0, OQ_OPT_TEXT, "USER",
	       "the user opensm runs as (default root): the policy must be "
	       "readable and the publish and audit directories writable by "
	       "it (asked as it when doctor runs as root), and all of them "
	       "writable by it (or root) alone",
	       offsetof(struct doctor_opts, sm_user)),
	OQ_USE(OQ_CO_JSON),
	OQ_OPT_END,
};

static int run(int argc, char **argv);

const struct oq_cmd_spec oq_spec_doctor = {
	.name = CMD,
	.summary = "preflight: can the plugin do its job on this SM?",
	.about = "Check every condition the plugin needs on the SM host: qos "
		 "TRUE, osmqos in event_plugin_name, its options, which "
		 "policy file it reads and that it is valid, the plugin "
		 "library where opensm loads it and built for this opensm's "
		 "version, the policy file readable and the publish and "
		 "audit directories writable with free space by opensm's "
		 "user, the audit trail's file one the plugin writes to (not "
		 "a directory, a symbolic link, a FIFO or a device, a file "
		 "that is not a trail or is another user's), the policy file "
		 "and those directories "
		 "writable by opensm's user alone, the publish directory "
		 "on a local file system, the routing engine and "
		 "what it owns, and the "
		 "standby's opensm.conf the same.  Each check says ok, "
		 "warning or error, and the fix.",
	.opts = doctor_opts,
	.exit_status = "0 every check ok, 1 the worst is a warning, 2 the "
		       "worst is an error (the plugin would not do its job) or "
		       "a usage error.",
	.run = run,
};

static const char *const level_word[] = {"ok", "warning", "error"};

void doctor_check(struct doctor_report *r, enum doctor_level l,
		  const char *name, const char *fix, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (l > r->worst)
		r->worst = l;
	if (r->json) {
		printf("%s\n    {\"check\": \"%s\", \"status\": \"%s\", "
		       "\"message\": ",
		       r->first ? "" : ",", name, level_word[l]);
		oq_json_fstring(stdout, msg);
		printf(", \"fix\": ");
		if (fix && l != DOCTOR_OK)
			oq_json_fstring(stdout, fix);
		else
			printf("null");
		printf("}");
		r->first = false;
		return;
	}
	printf("%-8s %-16s %s\n", level_word[l], name, msg);
	if (fix && l != DOCTOR_OK)
		printf("%-8s %-16s fix: %s\n", "", "", fix);
}

/* ---- the opensm.conf checks ---- */

static void opt_error(void *ctx, const char *msg)
{
	char *first = ctx;

	if (!*first)
		snprintf(first, 512, "%s", msg);
}

struct sm {
	struct oq_conf conf;
	struct oq_plugin_options po;
	int po_errors;
	char po_first[512];
	const char *policy; /* the file the plugin reads */
	/* The first line OpenSM reads cut (0: none), its length and key. */
	unsigned int cut_line;
	size_t cut_len;
	char cut_key[32];
};

/* An opensm.conf read as every input is ("-": standard input), parsed as
 * OpenSM reads it.  OQ_EXIT_OK, or OQ_EXIT_USAGE after saying why. */
static int sm_load(const char *what, const char *path, struct sm *s)
{
	const char *name;
	size_t len;
	char *text;
	int rc;

	memset(s, 0, sizeof(*s));
	if (oq_cli_read_input(CMD, what, path, OQ_FILE_MAX_BYTES, &text, &len,
			      &name))
		return OQ_EXIT_USAGE;
	rc = oq_conf_parse(text, len, &s->conf);
	if (!oq_opensm_conf_long_line(text, len, &s->cut_line, &s->cut_len,
				      s->cut_key, sizeof(s->cut_key)))
		s->cut_line = 0;
	free(text);
	if (rc)
		return oq_usage_error(CMD,
				      "out of memory reading %s '%s'; free "
				      "memory and retry",
				      what, name);
	s->po_first[0] = '\0';
	/* As the plugin parses them: knowing the plugins opensm loads. */
	s->po_errors = oq_plugin_options_parse_for(
		&s->po, oq_conf_get(&s->conf, "event_plugin_options"),
		oq_conf_get(&s->conf, "event_plugin_name"), opt_error,
		s->po_first);
	/* Values the plugin would replace by their defaults. */
	s->po_errors += oq_plugin_options_check(&s->po, opt_error, s->po_first);
	s->policy = s->po.policy && *s->po.policy
			    ? s->po.policy
			    : oq_conf_get(&s->conf, "qos_policy_file");
	if (!s->policy)
		s->policy = DEFAULT_POLICY;
	return 0;
}

static void sm_free(struct sm *s)
{
	oq_plugin_options_free(&s->po);
	oq_conf_free(&s->conf);
}

/* Does opensm load plugin w from event_plugin_name's value?  As its
 * load_plugins() splits it: the first name ends at a comma or a blank,
 * the others at a blank only ("a,osmqos,b" loads "a" and "osmqos,b"). */
static bool loads_plugin(const char *names, const char *w)
{
	char *copy = strdup(names), *p, *name;
	bool found = false;

	if (!copy)
		return false;
	for (name = strtok_r(copy, ", \t\n", &p); name && *name && !found;
	     name = strtok_r(NULL, " \t\n", &p))
		found = !strcmp(name, w);
	free(copy);
	return found;
}

/* A relative path: opensm resolves it against its own working
 * directory (/ under systemd), not doctor's.  A warning for key=value
 * (set: "policy=" or "qos_policy_file "), true when reported. */
static bool relative(struct doctor_report *r, const char *name, const char *key,
		     const char *value)
{
	char fix[128];

	if (!value || !*value || *value == '/')
		return false;
	snprintf(fix, sizeof(fix), "give %s an absolute path", key);
	doctor_check(r, DOCTOR_WARN, name, fix,
		     "%s%s%s is relative: opensm resolves it against its own "
		     "working directory (/ under systemd), not this one",
		     key, key[strlen(key) - 1] == '=' ? "" : " ", value);
	return true;
}

/* policy= and qos_policy_file, each that is relative: true when one was
 * reported. */
static bool relative_paths(struct doctor_report *r, const struct sm *s,
			   const char *qpf)
{
	bool rel = relative(r, "policy-file", "policy=", s->po.policy);

	return relative(r, "policy-file", "qos_policy_file", qpf) || rel;
}

static void check_conf(struct doctor_report *r, const char *path, struct sm *s)
{
	const char *qos = oq_conf_get(&s->conf, "qos");
	const char *names = oq_conf_get(&s->conf, "event_plugin_name");
	const char *qpf = oq_conf_get(&s->conf, "qos_policy_file");
	const char *opts;
	char fix[512];

	snprintf(fix, sizeof(fix), "set `qos TRUE` in %s", path);
	/* opts_parse_boolean(): "TRUE" exactly, anything else is FALSE. */
	if (qos && !strcmp(qos, "TRUE"))
		doctor_check(
			r, DOCTOR_OK, "qos", NULL,
			"qos TRUE: osm_qos_setup() asks the plugin for every "
			"port's tables");
	else
		doctor_check(r, DOCTOR_ERR, "qos", fix,
			     "qos is %s: OpenSM programs no QoS tables and the "
			     "plugin has nothing to hand them",
			     !qos ? "not set (OpenSM's default FALSE)"
			     : !strcasecmp(qos, "TRUE")
				     ? "not TRUE in capitals, so FALSE to "
				       "OpenSM"
				     : qos);
	snprintf(fix, sizeof(fix),
		 "add `event_plugin_name osmqos` to %s (other plugins on the "
		 "same line, separated by blanks)",
		 path);
	if (names && loads_plugin(names, "osmqos"))
		doctor_check(r, DOCTOR_OK, "event-plugin", NULL,
			     "event_plugin_name %s", names);
	else
		doctor_check(
			r, DOCTOR_ERR, "event-plugin", fix,
			"event_plugin_name %s: opensm does not load the plugin",
			names ? names : "is not set");
	opts = oq_conf_get(&s->conf, "event_plugin_options");
	if (s->cut_line && !strcmp(s->cut_key, "event_plugin_options")) {
		const char *cut = opts ? opts : "";
		size_t n = strlen(cut);

		snprintf(fix, sizeof(fix),
			 "shorten line %u of %s to at most %d characters: "
			 "shorter paths (e.g. a symlink to a deep directory) "
			 "or fewer options",
			 s->cut_line, path, OQ_OPENSM_CONF_LINE_MAX);
		doctor_check(r, DOCTOR_ERR, "plugin-options", fix,
			     "event_plugin_options is line %u, %zu characters: "
			     "OpenSM reads %d of a line, so the plugin gets "
			     "its options cut after '...%s' and OpenSM takes "
			     "the rest for another line",
			     s->cut_line, s->cut_len, OQ_OPENSM_CONF_LINE_MAX,
			     n > 40 ? cut + n - 40 : cut);
	} else if (s->po_errors)
		doctor_check(
			r, DOCTOR_WARN, "plugin-options",
			"fix event_plugin_options (osmqos-plugin(8) lists the "
			"keys); the plugin ignores what it cannot read",
			"%d problem(s) in event_plugin_options, first: %s",
			s->po_errors, s->po_first);
	else
		doctor_check(r, DOCTOR_OK, "plugin-options", NULL,
			     "event_plugin_options: %s",
			     opts ? opts : "(none: every default)");
	if (relative_paths(r, s, qpf))
		return;
	if (s->po.policy && *s->po.policy && qpf &&
	    !oq_file_same(s->po.policy, qpf))
		doctor_check(
			r, DOCTOR_WARN, "policy-file",
			"make them the same file, or drop policy= so the "
			"plugin reads qos_policy_file",
			"the plugin reads policy=%s, OpenSM's qos_policy_file "
			"is %s: policy= wins for the plugin (and OpenSM's own "
			"parse reads the plugin's copy of it unless "
			"opensm_policy=direct)",
			s->po.policy, qpf);
	else
		doctor_check(r, DOCTOR_OK, "policy-file", NULL,
			     "the policy is %s%s", s->policy,
			     s->po.policy ? " (policy=)"
			     : qpf	  ? " (qos_policy_file)"
					  : " (OpenSM's default)");
}

/* opensm_policy=direct: OpenSM parses the operator's file itself.  The
 * plugin then refuses a policy with bandwidth intents (OpenSM would
 * reject their keys and lose its own policy), OpenSM's lexer rejects
 * CR, FF and VT, and what else stock OpenSM rejects or reads otherwise
 * is doctor_stock()'s.  0 nothing to say; 1 a warning reported (the plugin
 * still applies the policy); -1 an error reported (it does not). */
static int direct_check(struct doctor_report *r, const struct sm *s,
			const struct oq_policy *p)
{
	char why[320], fix[600];
	size_t i;

	if (oq_plugin_opt_copy(&s->po, why, sizeof(why)))
		return 0;
	if (p->n_intent_levels) {
		doctor_check(
			r, DOCTOR_ERR, "policy",
			"drop opensm_policy=direct from event_plugin_options "
			"(OpenSM then reads a copy with the intents commented "
			"out)",
			"%s states bandwidth intents, which the plugin refuses "
			"under opensm_policy=direct: it runs with no policy",
			s->policy);
		return -1;
	}
	for (i = 0; i < p->text_len; i++)
		if (p->text[i] == '\r' || p->text[i] == '\f' ||
		    p->text[i] == '\v')
			break;
	if (i == p->text_len)
		return doctor_stock(r, p);
	snprintf(fix, sizeof(fix),
		 "convert it (sed -i 's/\\r$//' %s for CRLF), or drop "
		 "opensm_policy=direct",
		 s->policy);
	doctor_check(r, DOCTOR_WARN, "policy", fix,
		     "%s has %s, which OpenSM's own parser rejects under "
		     "opensm_policy=direct (ERR AC03): OpenSM runs without its "
		     "policy while osmqos applies it",
		     s->policy,
		     p->text[i] == '\r' ? "CR line ends"
					: "form feeds or vertical tabs");
	return 1;
}

static void check_policy(struct doctor_report *r, const struct sm *s,
			 struct oq_policy **out)
{
	struct oq_diags d;
	struct oq_policy *p;
	char first[1024] = "", fix[600], why[64];
	int err, direct;

	*out = NULL;
	if (*s->policy != '/') {
		/* Read from here it would be another file than opensm's. */
		doctor_check(r, DOCTOR_WARN, "policy",
			     "give it an absolute path, then run doctor again",
			     "%s not checked: a relative path is read from "
			     "opensm's working directory, not this one "
			     "(policy-file above)",
			     s->policy);
		return;
	}
	err = oq_file_probe(s->policy, OQ_POLICY_MAX_BYTES);
	if (err) {
		doctor_check(
			r, DOCTOR_ERR, "policy",
			err == ENOENT
				? "write the policy there (osmqos check "
				  "FILE before you reload), or point "
				  "qos_policy_file or policy= at it"
				: "make it a readable regular file within "
				  "the limit",
			"%s cannot be read: %s; the plugin keeps the last good "
			"policy, or runs none",
			s->policy,
			oq_file_error(err, OQ_POLICY_MAX_BYTES, why,
				      sizeof(why)));
		return;
	}
	oq_diags_init(&d);
	p = oq_policy_load(s->policy, &d);
	if (p && !oq_diags_has_errors(&d))
		oq_policy_validate(p, &d);
	snprintf(fix, sizeof(fix), "osmqos check %s shows every error",
		 s->policy);
	if (!p || oq_diags_has_errors(&d)) {
		size_t i;

		oq_diags_sort(&d);
		for (i = 0; i < d.n; i++)
			if (d.v[i].sev == OQ_SEV_ERROR) {
				oq_diag_format(&d.v[i], first, sizeof(first));
				break;
			}
		doctor_check(r, DOCTOR_ERR, "policy", fix,
			     "%s is invalid (%zu error(s)): %s; the plugin "
			     "keeps the "
			     "last good policy, or none",
			     s->policy, d.n_errors,
			     first[0] ? first : "unreadable");
		oq_policy_free(p);
	} else if ((direct = direct_check(r, s, p)) < 0) {
		oq_policy_free(p);
	} else {
		if (!direct)
			doctor_check(
				r, DOCTOR_OK, "policy", NULL,
				"%s is valid: %zu qos-level(s), %zu rule(s), "
				"%zu warning(s)",
				s->policy, p->n_explicit_levels, p->n_rules,
				d.n_warnings);
		*out = p;
	}
	oq_diags_free(&d);
}

static void check_engine(struct doctor_report *r, const struct sm *s,
			 const struct oq_policy *p)
{
	const char *name = oq_conf_get(&s->conf, "routing_engine");
	struct oq_engine e;

	oq_engine_by_name(&e, name);
	switch (e.kind) {
	case OQ_ENGINE_PATH_SL:
		if (p && p->n_sl2vl)
			doctor_check(
				r, DOCTOR_WARN, "routing-engine",
				"map SLs to VLs with opensm.conf's qos_sl2vl "
				"templates, or choose an engine without "
				"path SLs (minhop, updn, ftree)",
				"%s chooses path SLs and keeps the template's "
				"SL2VL: the policy's %zu sl2vl-scope(s) are "
				"not programmed (VLArb and VLHighLimit are)",
				e.name, p->n_sl2vl);
		else
			doctor_check(
				r, DOCTOR_OK, "routing-engine", NULL,
				"%s: path SLs and SL2VL are the engine's and "
				"the template's; the policy sets VLArb and "
				"VLHighLimit",
				e.name);
		break;
	case OQ_ENGINE_OWN:
		doctor_check(
			r, DOCTOR_WARN, "routing-engine",
			"expect SL2VL and some VLArb to be the engine's; "
			"`osmqos "
			"drift --no-sl2vl` compares the rest",
			"%s programs its own SL2VL and the VLArb of switch "
			"ports facing end ports",
			e.name);
		break;
	default:
		doctor_check(
			r, DOCTOR_OK, "routing-engine", NULL,
			"%s: the policy's tables are programmed as compiled",
			e.name);
		break;
	}
}

/* The node-name map and partitions.conf opensm.conf names (or OpenSM's
 * defaults: its map when it exists, its partitions file), read as
 * `check --opensm-conf` reads them.  The map whatever the policy: one
 * that hangs opensm matters with any. */
static void check_partitions(struct doctor_report *r, const struct sm *s,
			     const struct oq_policy *p)
{
	const char *parts = oq_conf_get(&s->conf, "partition_config_file");
	const char *map = oq_conf_get(&s->conf, "node_name_map_name");

	if (!parts)
		parts = OQ_OSM_PARTITIONS_FILE;
	if (!map && *OQ_OSM_NODE_NAME_MAP &&
	    !access(OQ_OSM_NODE_NAME_MAP, F_OK))
		map = OQ_OSM_NODE_NAME_MAP;
	if (map)
		doctor_node_map(r, map);
	if (p)
		doctor_partitions(r, p, parts);
}

/* The keys that must agree between the master's and the standby's,
 * besides every qos_* key. */
static const char *const same_keys[] = {
	"qos",
	"event_plugin_name",
	"event_plugin_options",
	"qos_policy_file",
	"routing_engine",
	"use_optimized_slvl",
	NULL,
};

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);

	return n >= k && !strcmp(s + n - k, tail);
}

/*
 * The value OpenSM runs with for key: the line's as its option parsers
 * read it (a boolean is TRUE only as "TRUE", numbers through strtol()
 * with base 0), or its default when the line is missing or "(null)".
 * `opensm -c` writes every key with its default, a hand-written file
 * leaves them out: the two are the same setup.  NULL: no value.
 */
static const char *effective(const struct oq_conf *c, const char *key,
			     char *buf, size_t len)
{
	const char *v = oq_conf_get(c, key);

	if (!strcmp(key, "qos") || !strcmp(key, "use_optimized_slvl"))
		return v && !strcmp(v, "TRUE") ? "TRUE" : "FALSE";
	if (!strcmp(key, "qos_policy_file"))
		return v ? v : DEFAULT_POLICY;
	if (ends_with(key, "_max_vls") || ends_with(key, "_high_limit")) {
		bool vls = ends_with(key, "_max_vls");

		if (!v)
			return vls ? "0" : "-1";
		if (vls)
			snprintf(buf, len, "%lu", strtoul(v, NULL, 0));
		else
			snprintf(buf, len, "%ld", strtol(v, NULL, 0));
		return buf;
	}
	return v;
}

/* Does key differ?  Adds it to diff (the first three) and counts it. */
static void compare_key(const struct sm *m, const struct sm *s, const char *key,
			char *diff, size_t len, size_t *n)
{
	char ba[32], bb[32];
	const char *a = effective(&m->conf, key, ba, sizeof(ba));
	const char *b = effective(&s->conf, key, bb, sizeof(bb));

	if ((!a && !b) || (a && b && !strcmp(a, b)))
		return;
	if ((*n)++ < 3)
		snprintf(diff + strlen(diff), len - strlen(diff),
			 "%s%s (%s vs %s)", *n > 1 ? ", " : "", key,
			 a ? a : "unset", b ? b : "unset");
}

static int key_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every qos_* key either file names (but qos_policy_file), once, in
 * *keys (sorted); their count, or -1 out of memory. */
static long qos_keys(const struct sm *m, const struct sm *s, const char ***keys)
{
	size_t i, k = 0, n = m->conf.n + s->conf.n;
	const char **v = malloc((n ? n : 1) * sizeof(*v));

	*keys = v;
	if (!v)
		return -1;
	for (i = 0; i < n; i++) {
		const char *key = i < m->conf.n ? m->conf.v[i].key
						: s->conf.v[i - m->conf.n].key;

		if (!strncmp(key, "qos_", 4) && strcmp(key, "qos_policy_file"))
			v[k++] = key;
	}
	qsort(v, k, sizeof(*v), key_cmp);
	for (i = n = 0; i < k; i++)
		if (!n || strcmp(v[n - 1], v[i]))
			v[n++] = v[i];
	return (long)n;
}

/* The standby's opensm.conf s (read from path before the report began)
 * against the master's m. */
static void check_standby(struct doctor_report *r, struct sm *m,
			  const char *path, struct sm *s)
{
	char diff[1024] = "";
	const char **keys;
	size_t i, n = 0;
	long k;

	for (i = 0; same_keys[i]; i++)
		compare_key(m, s, same_keys[i], diff, sizeof(diff), &n);
	/* Every qos_* key either names, both ways: a key only the standby
	 * sets differs as much as one only the master sets. */
	k = qos_keys(m, s, &keys);
	if (k < 0) {
		doctor_check(r, DOCTOR_ERR, "standby",
			     "free some memory and run it again",
			     "out of memory comparing %s", path);
		return;
	}
	for (i = 0; i < (size_t)k; i++)
		compare_key(m, s, keys[i], diff, sizeof(diff), &n);
	free(keys);
	if (n)
		doctor_check(
			r, DOCTOR_ERR, "standby",
			"copy the master's QoS settings to the standby's "
			"opensm.conf: after a failover it would program other "
			"tables, or none",
			"%s differs from the master's in %zu QoS setting(s): "
			"%s",
			path, n, diff);
	else
		doctor_check(r, DOCTOR_OK, "standby", NULL,
			     "%s has the same QoS settings", path);
}

/* The name of an input in the report: "<stdin>" for "-". */
static const char *input_name(const char *path)
{
	return strcmp(path, "-") ? path : OQ_CLI_STDIN_NAME;
}

/* OpenSM's own opensm.conf when none is given: one this host lacks is
 * no typo of the operator's, so the way out is --opensm-conf. */
static int default_conf(void)
{
	int err = oq_file_probe(DEFAULT_CONF, OQ_FILE_MAX_BYTES);
	char why[64];

	if (!err)
		return OQ_EXIT_OK;
	return oq_usage_error(
		CMD,
		"cannot read OpenSM's opensm.conf '%s': %s; "
		"give the SM's opensm.conf with --opensm-conf",
		DEFAULT_CONF,
		oq_file_error(err, OQ_FILE_MAX_BYTES, why, sizeof(why)));
}

/*
 * --sm-user: a name, or a uid read as every number of the CLI is (decimal
 * or 0x hex, no leading 0); root when not given.  A uid is named by its
 * passwd entry when it has one, else in decimal: the fixes say `chown
 * NAME`, and chown takes no 0x.  name (len bytes) holds the name.
 */
static int sm_user(const char *given, struct doctor_sm_user *u, char *name,
		   size_t len)
{
	struct passwd *pw;
	unsigned long long n;

	u->uid = 0;
	u->name = "root";
	if (!given)
		return OQ_EXIT_OK;
	pw = getpwnam(given);
	if (pw) {
		u->uid = pw->pw_uid;
		u->name = given;
		return OQ_EXIT_OK;
	}
	/* (uid_t)-1 is no uid: chown(2) reads it as "leave unchanged". */
	if (oq_parse_u64(given, &n) || n >= (uid_t)-1)
		return oq_usage_error(CMD,
				      "--sm-user '%s' is no user of this host "
				      "nor a uid (0..%u, decimal or 0x hex, "
				      "no leading 0); give the name (or uid) "
				      "opensm runs as",
				      given, (unsigned int)((uid_t)-1 - 1));
	u->uid = (uid_t)n;
	pw = getpwuid(u->uid);
	if (pw)
		snprintf(name, len, "%s", pw->pw_name);
	else
		snprintf(name, len, "%llu", n);
	u->name = name;
	return OQ_EXIT_OK;
}

static int run(int argc, char **argv)
{
	struct doctor_opts o = {0};
	struct doctor_report r = {false, true, DOCTOR_OK};
	struct oq_policy *p = NULL;
	const char *conf, *conf_path;
	char audit_path[4096];
	struct doctor_sm_user u;
	char sm_name[256];
	struct sm s, standby;
	int rc = oq_cli_parse(&oq_spec_doctor, argc, argv, &o);

	if (rc != OQ_CLI_RUN)
		return rc;
	if (sm_user(o.sm_user, &u, sm_name, sizeof(sm_name)))
		return OQ_EXIT_USAGE;
	if (!o.c.opensm_conf && default_conf())
		return OQ_EXIT_USAGE;
	conf = o.c.opensm_conf ? o.c.opensm_conf : DEFAULT_CONF;
	/* Both files before the report begins: an unreadable one is the
	 * operator's input error, not a check. */
	if (sm_load("opensm.conf", conf, &s))
		return OQ_EXIT_USAGE;
	if (o.standby && sm_load("standby opensm.conf", o.standby, &standby)) {
		sm_free(&s);
		return OQ_EXIT_USAGE;
	}
	conf_path = conf;
	conf = input_name(conf);
	r.json = o.c.json;
	if (r.json) {
		printf("{\"opensm_conf\": ");
		oq_json_fstring(stdout, conf);
		printf(", \"checks\": [");
	} else {
		printf("osmqos doctor: %s\n", conf);
	}
	check_conf(&r, conf, &s);
	doctor_policy_access(&r, &u, s.policy,
			     s.po.policy && *s.po.policy ? "policy="
			     : oq_conf_get(&s.conf, "qos_policy_file")
				     ? "qos_policy_file"
				     : "OpenSM's default");
	doctor_policy_read(&r, &u, s.policy);
	doctor_binaries(&r, o.plugin, o.opensm);
	check_policy(&r, &s, &p);
	check_partitions(&r, &s, p);
	if (!relative(&r, "publish-dir", "publish_dir=", s.po.publish_dir)) {
		doctor_dir(&r, &u, "publish-dir", oq_plugin_publish_dir(&s.po),
			   "publish directory", "publish_dir");
		doctor_publish_storage(&r, oq_plugin_publish_dir(&s.po));
		doctor_publish_lock(&r, oq_plugin_publish_dir(&s.po),
				    conf_path);
		doctor_opensm_parse(&r, oq_plugin_publish_dir(&s.po));
	}
	if (oq_plugin_audit_off(s.po.audit)) {
		doctor_check(&r, DOCTOR_OK, "audit-dir", NULL,
			     "audit trail off (audit=%s)", s.po.audit);
	} else if (relative(&r, "audit-dir", "audit=", s.po.audit)) {
		/* Said: not this directory's. */
	} else if (s.po.audit && *s.po.audit) {
		doctor_audit(&r, &u, s.po.audit);
	} else {
		snprintf(audit_path, sizeof(audit_path), "%s/%s",
			 oq_cache_dir(), OQ_AUDIT_DEFAULT_NAME);
		doctor_audit(&r, &u, audit_path);
	}
	check_engine(&r, &s, p);
	if (o.standby) {
		check_standby(&r, &s, input_name(o.standby), &standby);
		sm_free(&standby);
	}
	if (r.json)
		printf("%s], \"worst\": \"%s\"}\n", r.first ? "" : "\n  ",
		       level_word[r.worst]);
	else
		printf("osmqos doctor: %s\n",
		       r.worst == DOCTOR_OK ? "every check ok"
		       : r.worst == DOCTOR_WARN
			       ? "warnings (above); the plugin works"
			       : "errors (above): fix them before "
				 "the plugin can do its job");
	oq_policy_free(p);
	sm_free(&s);
	return r.worst == DOCTOR_OK	? OQ_EXIT_OK
	       : r.worst == DOCTOR_WARN ? OQ_EXIT_FAIL
					: OQ_EXIT_USAGE;
}
