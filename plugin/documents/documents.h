/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The published prediction: after every sweep the plugin writes what the
 * arbitration model predicts for every linked port and SL into two files
 * (docs/publish.md):
 *
 *   osmqos-bandwidth.json  one JSON object (schema in docs/json.md)
 *   osmqos.prom            Prometheus text format 0.0.4, for
 *                          node_exporter's textfile collector
 *
 * Each is replaced atomically (temp file in the same directory, rename),
 * never written through a symlink, mode 0644.
 *
 * Everything here is pure C without OpenSM headers, so the writers, the
 * counters and the file handling are unit-tested alone; plugin/publish/
 * gathers the inputs from the sweep and writes the files.
 */
#ifndef OSMQOS_PLUGIN_DOCUMENTS_H
#define OSMQOS_PLUGIN_DOCUMENTS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include <osmqos/fabric.h>
#include <osmqos/file.h>
#include <osmqos/json.h>
#include <osmqos/match.h>
#include <osmqos/model.h>
#include <osmqos/pred_class.h>
#include <osmqos/synth.h>
#include <osmqos/tables.h>

#define OQ_PUBLISH_JSON_NAME "osmqos-bandwidth.json"
#define OQ_PUBLISH_PROM_NAME "osmqos.prom"
/* Mode of both files whatever the umask: node_exporter runs as another
 * user and must read them. */
#define OQ_PUBLISH_FILE_MODE 0644
/* The files published: JSON and Prometheus. */
#define OQ_PUBLISH_FILES 2
/* Version of the JSON document's layout ("schema" key); bumped when a key
 * moves or changes meaning (2: per-SL numbers per port class, ports as
 * references to their class). */
#define OQ_PUBLISH_SCHEMA OQ_PRED_SCHEMA

/* ---- counters the SA front fills (publish_counters.c) ----------------- */

/* Distinct QoS level names counted; answers for further names go to the
 * "(other)" bucket. */
#define OQ_PUBLISH_LEVELS_MAX 64
/* Label values of the two buckets that are not a level of the policy. */
#define OQ_PUBLISH_LEVEL_NONE  "(none)"
#define OQ_PUBLISH_LEVEL_OTHER "(other)"
/* Upper bounds (seconds) of the decision-latency histogram's buckets. */
#define OQ_PUBLISH_LAT_BUCKETS 13
extern const double oq_publish_lat_bounds[OQ_PUBLISH_LAT_BUCKETS];

/*
 * Counters shared by the SA threads (writers) and the sweep (reader).
 * Counting is lock-free except the first answer for a new level name,
 * which takes the mutex to append the name.  Counters only grow, so
 * Prometheus sees proper counters across policy reloads (a level that
 * disappears keeps its last value).
 */
struct oq_publish_counters {
	pthread_mutex_t lock; /* appending a level name only */
	atomic_uint n_levels; /* names [0, n_levels) are complete */
	/* Each name whole (the policy language sets no length), copied at
	 * its first answer and kept until destroy. */
	char *level[OQ_PUBLISH_LEVELS_MAX];
	atomic_uint_least64_t answered[OQ_PUBLISH_LEVELS_MAX];
	atomic_uint_least64_t answered_none;  /* no level (no policy) */
	atomic_uint_least64_t answered_other; /* beyond LEVELS_MAX names */
	/* Decision latency: [i] counts observations in
	 * (bounds[i-1], bounds[i]], the last slot those above every bound
	 * (not cumulative; the writer sums). */
	atomic_uint_least64_t lat[OQ_PUBLISH_LAT_BUCKETS + 1];
	atomic_uint_least64_t lat_sum_ns;
	/* Audit records never written, as the audit writer counts them
	 * (struct oq_audit_stats.dropped); set, not added. */
	atomic_uint_least64_t audit_dropped;
	/* Decided pairs with no audit trail to go to, one being asked for
	 * (its file could not be opened at load): a gap in the trail too. */
	atomic_uint_least64_t audit_unopened;
};

void oq_publish_counters_init(struct oq_publish_counters *c);
void oq_publish_counters_destroy(struct oq_publish_counters *c);

/* One PathRecord/MultiPathRecord answer decided with QoS level `level`
 * (NULL or "" when no level applied), counted under its whole name.
 * Safe from any thread. */
void oq_publish_count_answer(struct oq_publish_counters *c, const char *level);
/* The same in two steps, for callers that answer many pairs with the
 * same few levels: the counter slot of a level name (taken on first use,
 * like oq_publish_count_answer does), then one count in that slot. */
#define OQ_PUBLISH_SLOT_NONE  (-1)
#define OQ_PUBLISH_SLOT_OTHER (-2)
int oq_publish_level_slot(struct oq_publish_counters *c, const char *level);
void oq_publish_count_slot(struct oq_publish_counters *c, int slot);
/* One decision took `seconds` (negative or NaN counts as 0). */
void oq_publish_observe_latency(struct oq_publish_counters *c, double seconds);
/* The audit writer's running total of dropped records; a smaller value
 * than the one held (an older reading) is ignored. */
void oq_publish_set_audit_dropped(struct oq_publish_counters *c, uint64_t n);
/* One decided pair not audited: the audit trail asked for has no file.
 * Counted with the dropped records.  Safe from any thread. */
void oq_publish_count_unaudited(struct oq_publish_counters *c);

/* A consistent-enough copy for one publication (each value is read
 * atomically; values read at slightly different moments). */
struct oq_publish_counts {
	unsigned int n_levels;
	const char *const *level; /* the counters' names, not copies */
	uint64_t answered[OQ_PUBLISH_LEVELS_MAX];
	uint64_t answered_none, answered_other;
	uint64_t
		lat_cum[OQ_PUBLISH_LAT_BUCKETS + 1]; /* cumulative; last=+Inf */
	double lat_sum;				     /* seconds */
	uint64_t audit_dropped;
};

void oq_publish_counters_read(struct oq_publish_counters *c,
			      struct oq_publish_counts *out);

/* ---- the numbers (osmqos/pred_class.h) ------------------------------ */

/* The per-port numbers come from the sweep's class table: every linked
 * port's class holds its prediction (all 16 SLs backlogged, every input
 * at once: what `osmqos predict --json` prints) and its guaranteed
 * minimum over each input port's view (docs/publish.md). */

/* A QoS level of the policy in force and its SL, for the per-level
 * aggregates. */
struct oq_publish_level {
	const char *name;
	uint8_t sl;
	/* Bandwidth intent (hundredths of a %), -1 none; with one: the
	 * least guaranteed share of the SL over the linked ports and the
	 * ports where it is below the intent. */
	int intent_bp;
	bool high;
	/* What its SL must get: the intents of every level on it added up
	 * (hundredths of a %), what the tables are checked against. */
	uint32_t sl_need_bp;
	double min_share; /* < 0: no linked port carries it */
	size_t ports_missed;
	/* Latency intent (ns per output port, 0 none); the largest worst
	 * wait of the SL at one linked port (us; < 0 unknown, or no port
	 * was checked), the ports
	 * where it passes the intent, and the linked ports where the SL's
	 * guarantee is its VL group's (other granted SLs on the VL). */
	uint64_t latency_ns;
	double max_wait_us;
	size_t lat_missed, ports_shared;
};

/* Each level's intent figures from the synthesizer's verdicts on the
 * tables in force (plan: the sweep's, over MTU-size and full packets of
 * MTU + 26 to MTU + 126 bytes) and its shared ports from the published
 * classes: fills the figures of levels with an intent; returns the ports
 * short of some intent, plan->ports_missed (what the plugin logs). */
size_t oq_publish_intent_stats(struct oq_publish_level *levels, size_t n,
			       const struct oq_pred_classes *c,
			       const struct oq_synth_plan *plan);

/* Prometheus series per class and per level are bounded (the largest
 * classes, the first levels) so the file stays in the thousands of
 * series on any fabric and policy; the JSON holds every class. */
#define OQ_PUBLISH_PROM_CLASSES 64
#define OQ_PUBLISH_PROM_LEVELS	64

/* ---- the documents (publish_json.c, publish_prom.c) ------------------- */

struct oq_publish_doc {
	const char *version;  /* osmqos version */
	unsigned long sweep;  /* heavy sweep whose tables these are */
	unsigned long sweeps; /* heavy sweeps seen since start */
	struct timespec now;  /* CLOCK_REALTIME of the publication */
	/* publish_interval= seconds between rewrites by the refresh thread
	 * (0: none runs, the file is written at SUBNET UP only). */
	unsigned int interval;

	/* opensm.conf qos FALSE: OpenSM programs no QoS tables, templates
	 * included, and the plugin loads no policy. */
	bool qos_disabled;
	/* The opensm.conf opensm runs with (its -F; NULL: not known): the
	 * CLI's live commands read its templates, node-name map and
	 * publish_dir= from it. */
	const char *opensm_conf;
	const char *policy_path;  /* NULL: no policy file configured */
	bool policy_in_force;	  /* some good policy (maybe older) applies */
	bool policy_load_success; /* the file's current content applies */
	uint64_t policy_hash;	  /* FNV-1a of the content in force */
	time_t policy_loaded_at;  /* 0: never loaded */
	unsigned long loads_ok, loads_failed;
	/* The policy in force was put back at the start (NULL: it was
	 * not, or a content of the file has been in force since): the copy
	 * it came from, and the policy file that copy was written for
	 * (NULL: not known). */
	const char *restored_from, *restored_for;
	/* The last content refused (rejected_path NULL: none since start):
	 * where it was read, its hash, when, and its first error; what to
	 * do when that is not to fix the content (NULL or "": fix it). */
	const char *rejected_path;
	uint64_t rejected_hash;
	time_t rejected_at;
	const char *rejected_error, *rejected_fix;
	/* OpenSM's own parse of the file it reads (NULL: not looked at:
	 * no policy in force, or qos FALSE), and whether it refuses that
	 * file while a policy is in force here, since when. */
	const char *opensm_path;
	bool opensm_refused;
	time_t opensm_refused_since;

	uint64_t mads_total;	  /* QoS Set MADs sent since start */
	const char *engine;	  /* routing engine the tables are for */
	const char *engine_sl2vl; /* "policy", "template" or "engine" */

	/* The sweep's fabric, tables and classes (all NULL: no state). */
	const struct oq_fabric *fabric;
	const struct oq_fabric_tables *tables;
	const struct oq_pred_classes *classes;
	const struct oq_publish_level *levels; /* with an SL, policy order */
	size_t n_levels;
	size_t intent_ports_missed; /* linked ports short of an intent */
	/* Linked ports whose intents are not checked (an SL2VL not known
	 * here): in none of the intent figures. */
	size_t intent_ports_unchecked;
	/* publish_detail=ports: per-port series in the Prometheus file too
	 * (about 50 per linked port). */
	bool detail_ports;
	const struct oq_publish_counts *counts; /* NULL: no SA counters */
	/* The parts that depend on the sweep state alone, as rendered for
	 * the same state before (NULL: render them): the JSON's
	 * predictions (oq_publish_write_json_predictions) and the
	 * Prometheus fabric families (oq_publish_prom_fabric). */
	const char *json_predictions, *prom_fabric;
	size_t json_predictions_len, prom_fabric_len;
	/* The JSON's nodes list as kept for the same fabric and classes
	 * (oq_pred_nodes_keep); NULL: render it. */
	const struct oq_pred_nodes_kept *json_nodes;
};

/* Write the document; 0, or -1 when the stream reports an error. */
int oq_publish_write_json(FILE *out, const struct oq_publish_doc *d);
/* Its head: the sweep, the policy, the routing engine and the model, all
 * but what oq_publish_write_json_predictions() writes. */
int oq_publish_write_json_head(FILE *out, const struct oq_publish_doc *d);
/* The JSON's intents and classes, which depend on the sweep state
 * (fabric, tables, classes, levels) alone; the nodes list, which does
 * too, is kept apart (json_nodes). */
int oq_publish_write_json_predictions(FILE *out,
				      const struct oq_publish_doc *d);
int oq_publish_write_prom(FILE *out, const struct oq_publish_doc *d);
/* The Prometheus file in two parts, live then sweep, whose concatenation
 * is oq_publish_write_prom()'s: `live` is the timestamp and the counters
 * (now, mads_total and counts are all it reads), `sweep` the rest, which
 * changes only at a sweep, so the plugin renders it once per sweep and
 * refreshes the counters in between. */
int oq_publish_write_prom_live(FILE *out, const struct oq_publish_doc *d);
int oq_publish_write_prom_sweep(FILE *out, const struct oq_publish_doc *d);
/* A Prometheus metric family's HELP and TYPE lines (type "gauge",
 * "counter", "histogram"), before its samples. */
void oq_publish_prom_family(FILE *out, const char *name, const char *type,
			    const char *help);
/* The Prometheus file's fabric families: aggregates per SL, level and
 * class, and per port with detail_ports (publish_prom_fabric.c). */
void oq_publish_prom_fabric(FILE *out, const struct oq_publish_doc *d);

/* The JSON member "intents": {...} and the Prometheus intent families
 * (publish_intents.c). */
void oq_publish_intents_json(FILE *out, const struct oq_publish_doc *d);
void oq_publish_intents_prom(FILE *out, const struct oq_publish_doc *d);

/* ---- escaping (publish_escape.c) ------------------------------------- */

/* A Prometheus label value (inside the quotes): \ " and newline escaped
 * as the format requires, other control characters and invalid UTF-8
 * replaced by U+FFFD (label values must be UTF-8). */
void oq_publish_prom_text(FILE *out, const char *s, size_t max);
/* A level name, whole, as a label value: a string to free, NULL when out
 * of memory.  Names that render alike (differing only in bytes a label
 * cannot carry) give one series. */
char *oq_publish_prom_label(const char *name);
/* Time t as "YYYY-MM-DDTHH:MM:SSZ" (UTC) into buf (>= 21 bytes). */
void oq_publish_iso8601(time_t t, char *buf, size_t len);

/* ---- atomic replacement (osmqos/file.h) ------------------------------ */

/* Replace dir/name with what fn writes, mode OQ_PUBLISH_FILE_MODE. */
static inline int oq_publish_replace(const char *dir, const char *name,
				     oq_file_writer_fn fn, const void *ctx,
				     char *why, size_t len)
{
	return oq_file_replace(dir, name, OQ_PUBLISH_FILE_MODE, fn, ctx, why,
			       len);
}

#endif /* OSMQOS_PLUGIN_DOCUMENTS_H */
