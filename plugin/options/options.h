/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * event_plugin_options parsing.  OpenSM hands every plugin listed in
 * event_plugin_name the same options string, so keys for other plugins may
 * appear: a key with a dot ("other.key=v") belongs to another plugin and is
 * skipped; "osmqos.key=v" is ours, same as "key=v".  Any other key we do not
 * know is an error the caller logs.  Pure C, no OpenSM headers, so it is
 * unit-tested on its own.
 */
#ifndef OSMQOS_PLUGIN_OPTIONS_H
#define OSMQOS_PLUGIN_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include <osmqos/opensm_conf.h>

struct oq_plugin_options {
	char *policy;	   /* policy= : policy file (default qos_policy_file) */
	char *audit;	   /* audit=  : audit log path */
	char *publish_dir; /* publish_dir= : prediction output directory */
	char *opensm_policy; /* opensm_policy= : copy (default) or direct */
	char *publish_detail; /* publish_detail= : classes (default), ports */
	char *publish_interval; /* publish_interval= : seconds, 0 = sweeps */
	char *malloc_trim; /* malloc_trim= : 1 trims the heap after sweeps */
};

/* publish_interval= : osmqos.prom's counters are rewritten this often
 * (seconds) between sweeps; at most a day. */
#define OQ_PUBLISH_INTERVAL_DEFAULT 30
#define OQ_PUBLISH_INTERVAL_MAX	    86400
#define OQ_STR_(x)		    #x
#define OQ_STR(x)		    OQ_STR_(x)

/* Called for each problem found; msg is a complete sentence. */
typedef void (*oq_opt_error_fn)(void *ctx, const char *msg);

/* Parse "k=v k2=v2,k3=v3"; a value with blanks is quoted, k="a b" or
 * k='a b'.  NULL or empty text gives all defaults (NULL fields).  Nothing
 * malformed is applied: a key whose value was cut at a blank ("k=a b")
 * keeps its default, like an unknown or unquoted one.  Returns the number
 * of errors reported through err. */
int oq_plugin_options_parse(struct oq_plugin_options *o, const char *text,
			    oq_opt_error_fn err, void *ctx);
/* The same, knowing the plugins opensm loads (event_plugin_name, names
 * separated by blanks): a key "name.key" whose name is none of them is
 * an error, not another plugin's key.  A key given twice is said (its
 * last value is used) either way. */
int oq_plugin_options_parse_for(struct oq_plugin_options *o, const char *text,
				const char *plugins, oq_opt_error_fn err,
				void *ctx);
void oq_plugin_options_free(struct oq_plugin_options *o);

/* Options text as long as OpenSM passes from its opensm.conf line
 * ("event_plugin_options " and the value; OQ_OPENSM_CONF_LINE_MAX): the
 * line was probably cut there, the rest of it lost. */
#define OQ_PLUGIN_OPTIONS_CUT                                                  \
	(OQ_OPENSM_CONF_LINE_MAX - sizeof("event_plugin_options ") + 1)
bool oq_plugin_options_cut(const char *text);

/* "policy=/etc/opensm/qos-policy.conf audit=(default) ..." for the log. */
int oq_plugin_options_format(const struct oq_plugin_options *o, char *buf,
			     size_t len);

/* Where the plugin's files go: publish_dir=, else OpenSM's cache
 * directory ($OSM_CACHE_DIR, else /var/cache/opensm). */
const char *oq_plugin_publish_dir(const struct oq_plugin_options *o);

/* path as the process reads it: an absolute one as is, a relative one
 * joined to the working directory now (malloc'd; NULL without memory or
 * working directory). */
char *oq_plugin_path_absolute(const char *path);
/* At load: policy=, publish_dir= and audit= (unless off) made absolute,
 * so what the plugin publishes names the files it reads from any
 * directory (osmqos status runs elsewhere) and the log names the audit
 * trail it writes.  Returns how many were relative; -1 out of memory
 * (those left as given). */
int oq_plugin_options_absolute(struct oq_plugin_options *o);

/* audit=off or audit=none, in any case: no audit trail. */
bool oq_plugin_audit_off(const char *v);

/* A numeric option's value: decimal digits only, at most max.  0 with
 * *n set, or -1 (the caller logs it and uses its default). */
int oq_plugin_option_number(const char *v, unsigned long max, unsigned long *n);

/* A switch's value: "1" true, "0" or NULL (not given) false.  0 with *on
 * set, or -1 for anything else (*on false: the caller logs it and keeps
 * the default, off). */
int oq_plugin_option_switch(const char *v, bool *on);

/*
 * The values the plugin uses, each from its key, or its default when the
 * key is not given or its value is bad; then why (len bytes) holds the
 * sentence the plugin logs for it (empty otherwise).  One definition for
 * the plugin's rooms and for osmqos doctor.
 */
unsigned int oq_plugin_opt_interval(const struct oq_plugin_options *o,
				    char *why, size_t len);
bool oq_plugin_opt_detail_ports(const struct oq_plugin_options *o, char *why,
				size_t len);
bool oq_plugin_opt_trim(const struct oq_plugin_options *o, char *why,
			size_t len);
/* opensm_policy=: copy (true, the default) or direct (false). */
bool oq_plugin_opt_copy(const struct oq_plugin_options *o, char *why,
			size_t len);
/* Every bad value through err; returns how many. */
int oq_plugin_options_check(const struct oq_plugin_options *o,
			    oq_opt_error_fn err, void *ctx);

#endif /* OSMQOS_PLUGIN_OPTIONS_H */
