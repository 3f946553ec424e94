// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libosmqos.so: the OpenSM event plugin entry points.  OpenSM dlopen()s
 * lib<event_plugin_name>.so and looks up osm_event_plugin; its version
 * string must equal OpenSM's own, so we build against the installed headers.
 *
 * At load, the policy file is read (a standby then re-reads it on a
 * timer: policyfile/policy_standby.c).  Per heavy sweep (see
 * docs/programming.md):
 *   HEAVY_SWEEP_DONE   re-check the policy file; hook the routing engines;
 *                      with use_optimized_slvl, snapshot and compile now
 *                      and send optimized SL2VL Sets for uniform switches.
 *   osm_qos_setup()    (OpenSM) asks our hooks for every port's tables and
 *                      sends what differs; the first hook call of a sweep
 *                      rebuilds the state with the final partitions.
 *   UCAST_ROUTING_DONE log what the sweep sent; build the state the SA
 *                      front answers PathRecords from (routes final);
 *                      note whether OpenSM's own parse took its file.
 *   SUBNET_UP          publish the predictions.
 *
 * Each subsystem is a room of its own (a folder, its header, its part of
 * struct osmqos below); this file only wires them together.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <opensm/osm_version.h>

#include <osmqos/clock.h>
#include <osmqos/file.h>

#include "audit/audit.h"
#include "options/options.h"
#include "osm/osm.h"
#include "policyfile/policy_file.h"
#include "publish/publish.h"
#include "sa/sa.h"
#include "sweep/sweep.h"

/* The plugin instance: one part per room. */
struct osmqos {
	osm_opensm_t *osm;
	struct oq_plugin_options opts;
	/* Events reported, by id; counted atomically, as OpenSM reports
	 * some (traps, LFT changes) from other threads than the SM's. */
	unsigned long events[OSM_EVENT_ID_MAX];
	unsigned long subnet_up;
	struct oq_policy_file pf;
	struct oq_sweep sweep;
	struct oq_sa sa;
	struct oq_publisher pub;
	/* Audit trail of every decided pair; NULL: off. */
	struct oq_audit *audit;
	/* The publish directory's lock (publish_dir_lock.c), -1 none; the
	 * directory is another instance's: nothing is written there. */
	int dir_lock;
	bool dir_shared;
	/* The policy file is a document the publisher writes (or its
	 * lock): nothing is published. */
	bool pub_off;
};

static void log_option_error(void *ctx, const char *msg)
{
	osm_opensm_t *osm = ctx;

	OSM_LOG(&osm->log, OSM_LOG_ERROR, "osmqos: %s\n", msg);
}

/* A value check's sentence, worded as the parser's. */
static void log_value_error(void *ctx, const char *msg)
{
	osm_opensm_t *osm = ctx;

	OSM_LOG(&osm->log, OSM_LOG_ERROR, "osmqos: event_plugin_options: %s\n",
		msg);
}

static void audit_log(void *ctx, enum oq_audit_log_level level, const char *msg)
{
	struct osmqos *q = ctx;

	/* The writer's messages start with "audit: " themselves. */
	OQ_LOG(q->osm,
	       level == OQ_AUDIT_LOG_ERROR ? OSM_LOG_ERROR : OSM_LOG_INFO,
	       "%s\n", msg);
}

/*
 * OpenSM's own files (osm_subn_opt_t, the same in 3.3.23 and 3.3.24, and
 * its cache files): JSON appended to one breaks its next read (a
 * partition file OpenSM then cannot parse drops every partition but the
 * default) or mixes it into OpenSM's output.  Returns what the file is.
 */
static const char *osm_file_clash(const osm_opensm_t *osm, const char *audit)
{
	static const char *const cache[] = {"guid2lid", "guid2mkey",
					    "neighbors"};
	static const char *const cache_what[] = {
		"OpenSM's guid2lid cache file", "OpenSM's guid2mkey cache file",
		"OpenSM's neighbors cache file"};
	const osm_subn_opt_t *o = &osm->subn.opt;
	const struct {
		const char *path, *what;
	} f[] = {
		{o->config_file, "OpenSM's config file"},
		{o->log_file, "OpenSM's log_file"},
		{o->partition_config_file, "OpenSM's partition_config_file"},
		{o->qos_policy_file, "OpenSM's qos_policy_file"},
		{o->node_name_map_name, "OpenSM's node_name_map_name"},
		{o->prefix_routes_file, "OpenSM's prefix_routes_file"},
		{o->per_module_logging_file,
		 "OpenSM's per_module_logging_file"},
		{o->torus_conf_file, "OpenSM's torus_config"},
		{o->root_guid_file, "OpenSM's root_guid_file"},
		{o->cn_guid_file, "OpenSM's cn_guid_file"},
		{o->io_guid_file, "OpenSM's io_guid_file"},
		{o->ids_guid_file, "OpenSM's ids_guid_file"},
		{o->guid_routing_order_file,
		 "OpenSM's guid_routing_order_file"},
		{o->port_prof_ignore_file, "OpenSM's port_prof_ignore_file"},
		{o->hop_weights_file, "OpenSM's hop_weights_file"},
		{o->port_search_ordering_file,
		 "OpenSM's port_search_ordering_file"},
		{o->lfts_file, "OpenSM's lfts_file"},
		{o->lid_matrix_dump_file, "OpenSM's lid_matrix_dump_file"},
		{o->sa_db_file, "OpenSM's sa_db_file"},
		{o->event_db_dump_file, "OpenSM's event_db_dump_file"},
	};
	char path[4096];
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (f[i].path && *f[i].path && oq_file_same(audit, f[i].path))
			return f[i].what;
	for (i = 0; i < sizeof(cache) / sizeof(cache[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", oq_cache_dir(), cache[i]);
		if (oq_file_same(audit, path))
			return cache_what[i];
	}
	return NULL;
}

/*
 * audit= naming a file the plugin reads or writes otherwise would have the
 * audit writer append JSON lines to it: the policy (which the next sweep
 * would then refuse, or worse, read), a published file, or one of
 * OpenSM's.  Returns what that file is, or NULL.  (The writer also
 * refuses any other file that does not start like a trail.)
 */
static const char *audit_clash(struct osmqos *q, const char *audit)
{
	static const char *const published[] = {
		OQ_PUBLISH_JSON_NAME, OQ_PUBLISH_PROM_NAME, OQ_POLICY_COPY_NAME,
		OQ_PUB_IN_FORCE, OQ_POLICY_SOURCE_NAME};
	const char *dir = oq_plugin_publish_dir(&q->opts);
	const char *pol = oq_policy_file_path(&q->pf);
	char path[4096];
	size_t i;

	if (pol && oq_file_same(audit, pol))
		return "the policy file";
	for (i = 0; i < sizeof(published) / sizeof(published[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, published[i]);
		if (oq_file_same(audit, path))
			return "a file the plugin publishes";
	}
	return osm_file_clash(q->osm, audit);
}

/*
 * The policy file (policy=, else qos_policy_file) naming a file the plugin
 * writes: each write would replace the operator's policy -- its copy with
 * the intents commented out, loaded at the next HUP, or a published
 * document.  Returns what that file is, or NULL; *publisher when it is
 * one of the publisher's own (then nothing is published).
 */
static const char *policy_clash(struct osmqos *q, bool *publisher)
{
	static const struct {
		const char *name, *what;
		bool publisher;
	} own[] = {
		{OQ_POLICY_COPY_NAME, "OpenSM's copy of the policy in force",
		 false},
		{OQ_PUB_IN_FORCE, "the policy in force as written", false},
		{OQ_POLICY_SOURCE_NAME,
		 "the source line of the policy in force", false},
		{OQ_POLICY_NONE_NAME,
		 "the name OpenSM reads instead of a policy path that is not a "
		 "regular file",
		 false},
		{OQ_PUBLISH_JSON_NAME, "a file the plugin publishes", true},
		{OQ_PUBLISH_PROM_NAME, "a file the plugin publishes", true},
		{OQ_PUBLISH_LOCK_NAME, "the publish directory's lock file",
		 true},
	};
	const char *dir = oq_plugin_publish_dir(&q->opts);
	const char *pol = q->opts.policy ? q->opts.policy
					 : q->osm->subn.opt.qos_policy_file;
	char path[4096];
	size_t i;

	*publisher = false;
	if (!pol || !*pol)
		return NULL;
	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, own[i].name);
		if (oq_file_same(pol, path)) {
			*publisher = own[i].publisher;
			return own[i].what;
		}
	}
	/* Where that name goes when the publish directory is open. */
	snprintf(path, sizeof(path), "%s/%s", oq_cache_dir(),
		 OQ_POLICY_NONE_NAME);
	return oq_file_same(pol, path) ? own[3].what : NULL;
}

/* The audit trail: audit= or <OpenSM cache dir>/osmqos-audit.log;
 * audit=off (or none, in any case) turns it off. */
static void audit_open(struct osmqos *q)
{
	const char *clash, *fix;
	char path[4096];
	int err;

	if (oq_plugin_audit_off(q->opts.audit)) {
		OQ_LOG(q->osm, OSM_LOG_INFO, "audit trail off (audit=%s)\n",
		       q->opts.audit);
		return;
	}
	/* The default file would be another SM's trail too. */
	if (q->dir_shared && !q->opts.audit)
		return;
	clash = q->opts.audit ? audit_clash(q, q->opts.audit) : NULL;
	if (clash)
		OQ_LOG(q->osm, OSM_LOG_ERROR,
		       "audit=%s is %s; the audit trail goes to the default "
		       "%s/%s instead: give audit= a file of its own\n",
		       q->opts.audit, clash, oq_cache_dir(),
		       OQ_AUDIT_DEFAULT_NAME);
	if (q->opts.audit && !clash)
		snprintf(path, sizeof(path), "%s", q->opts.audit);
	else
		snprintf(path, sizeof(path), "%s/%s", oq_cache_dir(),
			 OQ_AUDIT_DEFAULT_NAME);
	q->audit = oq_audit_create(path, 0, audit_log, q);
	err = errno;
	/* Without its file, every decided pair counts as a record dropped
	 * (osmqos_audit_dropped_total, `osmqos status`): a gap. */
	q->sa.audit_wanted = true;
	if (q->audit) {
		OQ_LOG(q->osm, OSM_LOG_INFO, "audit trail: %s\n", path);
		return;
	}
	/* A directory, or a file that is not a trail (the line above
	 * says): no permission to fix, the path itself is wrong. */
	fix = "audit= naming a file of its own";
	if (err == EACCES || err == EPERM || err == ENOENT || err == ENOTDIR ||
	    err == EROFS)
		fix = "the path or its directory's permissions fixed";
	OQ_LOG(q->osm, OSM_LOG_ERROR,
	       "no audit trail: cannot open %s (see above); every decided "
	       "path is counted as an audit record dropped until opensm is "
	       "restarted with %s, or audit=off in event_plugin_options\n",
	       path, fix);
}

/* The publish directory is another opensm's osmqos's (claim result -1):
 * said once, and nothing is written there. */
static void say_dir_shared(struct osmqos *q, const char *dir, long holder)
{
	q->dir_shared = true;
	OQ_LOG(q->osm, OSM_LOG_ERROR,
	       "publish directory %s is the osmqos of another opensm's "
	       "(pid %ld): this one publishes nothing, writes no policy "
	       "copy (OpenSM reads its policy file itself)%s; give each "
	       "opensm its own publish_dir= and audit= in "
	       "event_plugin_options (opensm@ units sharing one "
	       "opensm.conf: set OSM_CACHE_DIR per unit)\n",
	       dir, holder,
	       q->opts.audit ? "" : " and keeps no audit trail (give audit=)");
}

static void say_foreign_lock(struct osmqos *q, const char *dir)
{
	OQ_LOG(q->osm, OSM_LOG_ERROR,
	       "%s/%s is not a lock file of this plugin's (not a regular "
	       "file of this user with one link): remove it; until then "
	       "another opensm's osmqos publishing to %s goes unnoticed\n",
	       dir, OQ_PUBLISH_LOCK_NAME, dir);
}

/* The publish directory, unless the osmqos of another opensm (another
 * port's SM on this host) writes there: then this one writes nothing
 * there, and OpenSM reads the operator's policy file itself. */
static void claim_publish_dir(struct osmqos *q)
{
	const char *dir = oq_plugin_publish_dir(&q->opts);
	long holder = 0;

	q->dir_lock = oq_publish_dir_claim(dir, &holder);
	if (q->dir_lock == -3)
		say_foreign_lock(q, dir);
	else if (q->dir_lock == -1)
		say_dir_shared(q, dir, holder);
}

/* Each heavy sweep while the publish directory is another instance's:
 * that one may be gone (the other port's SM stopped, this one the master
 * now).  The audit trail stays as it started. */
static void reclaim_publish_dir(struct osmqos *q)
{
	const char *dir = oq_plugin_publish_dir(&q->opts);
	char why[320];
	long holder;

	q->dir_lock = oq_publish_dir_claim(dir, &holder);
	if (q->dir_lock < 0)
		return;
	q->dir_shared = q->pf.dir_shared = false;
	q->pf.copy_enabled = oq_plugin_opt_copy(&q->opts, why, sizeof(why));
	/* Written at this sweep's refresh, as after a failed write. */
	q->pf.copy_failed = q->pf.copy_enabled;
	q->pf.in_force_failed = true;
	oq_policy_in_force_forget(&q->pf);
	oq_publish_writer_start(&q->pub);
	OQ_LOG(q->osm, OSM_LOG_INFO,
	       "publish directory %s is this opensm's osmqos's now: it "
	       "publishes there%s\n",
	       dir,
	       q->pf.copy_enabled ? " and OpenSM reads its policy copy" : "");
}

/* Is the lock file held still the one in the directory?  Removed with
 * its directory (and the directory made again) while opensm runs, it
 * locks nothing another opensm would find. */
static bool lock_in_place(int fd, const char *dir)
{
	struct stat held, now;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, OQ_PUBLISH_LOCK_NAME);
	return !fstat(fd, &held) && !lstat(path, &now) &&
	       held.st_dev == now.st_dev && held.st_ino == now.st_ino;
}

/*
 * Each heavy sweep while this instance publishes: the lock is taken
 * when the directory it lacked at start (or that was removed) is there,
 * so a second opensm finds it.  Another opensm's osmqos that took the
 * directory meanwhile keeps it: this one stops writing there, as when
 * the directory was the other's at start, and OpenSM reads the
 * operator's policy file itself.
 */
static void keep_publish_dir(struct osmqos *q)
{
	const char *dir = oq_plugin_publish_dir(&q->opts);
	struct oq_policy_file *pf = &q->pf;
	long holder = 0;

	if (q->dir_lock >= 0) {
		if (lock_in_place(q->dir_lock, dir))
			return;
		close(q->dir_lock);
		q->dir_lock = -2;
	} else if (q->dir_lock != -2) {
		return; /* a lock file not ours: said at start */
	}
	q->dir_lock = oq_publish_dir_claim(dir, &holder);
	if (q->dir_lock >= 0) {
		OQ_LOG(q->osm, OSM_LOG_INFO,
		       "publish directory %s: this opensm's osmqos holds "
		       "%s there now\n",
		       dir, OQ_PUBLISH_LOCK_NAME);
		return;
	}
	if (q->dir_lock == -3)
		say_foreign_lock(q, dir);
	if (q->dir_lock != -1)
		return;
	oq_publish_writer_stop(&q->pub);
	say_dir_shared(q, dir, holder);
	pf->dir_shared = true;
	pf->copy_enabled = false;
	oq_policy_opensm_reads_operator(pf);
}

/* A new sweep state: the SA's state of the one before is stale, and
 * queries go to OpenSM until the SA's state of this one is built. */
static void sweep_published(void *ctx)
{
	oq_sa_retire(ctx);
}

/*
 * OpenSM calls create() once per name in event_plugin_name, so a name
 * listed twice loads a second instance into the same process.  The
 * routing-engine hooks reach their instance through one static pointer,
 * and a second instance would wrap the first one's hooks in its own
 * (a hook calling itself): only the first instance loads.
 */
static unsigned int instances;

static void *osmqos_create(osm_opensm_t *osm)
{
	const char *clash;
	struct osmqos *q;
	char buf[1024];
	bool audit_rel;
	int errs;

	/* Before osm->log: in such an opensm it is at another offset. */
	if (oq_osm_build_mismatch(buf, sizeof(buf))) {
		fprintf(stderr, "osmqos: %s\n", buf);
		syslog(LOG_ERR, "osmqos: %s", buf);
		return NULL;
	}
	if (__atomic_fetch_add(&instances, 1, __ATOMIC_ACQ_REL)) {
		__atomic_sub_fetch(&instances, 1, __ATOMIC_ACQ_REL);
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmqos: named more than once in event_plugin_name: "
			"this instance is not loaded, the first one runs; "
			"name osmqos once in opensm.conf\n");
		return NULL;
	}
	q = calloc(1, sizeof(*q));
	if (!q) {
		__atomic_sub_fetch(&instances, 1, __ATOMIC_ACQ_REL);
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmqos: out of memory, plugin not loaded\n");
		return NULL;
	}
	q->osm = osm;
	errs = oq_plugin_options_parse_for(
		&q->opts, osm->subn.opt.event_plugin_options,
		osm->subn.opt.event_plugin_name, log_option_error, osm);
	/* Values the plugin replaces by their defaults: said before the
	 * load line, which shows them as given, and counted into its
	 * marker. */
	errs += oq_plugin_options_check(&q->opts, log_value_error, osm);
	audit_rel = q->opts.audit && *q->opts.audit && *q->opts.audit != '/' &&
		    !oq_plugin_audit_off(q->opts.audit);
	/* Relative to opensm's working directory, as OpenSM reads its own
	 * paths: published as the files read, for osmqos run elsewhere. */
	if (oq_plugin_options_absolute(&q->opts) < 0)
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmqos: out of memory making policy=, publish_dir= "
			"and audit= absolute: they are used as given\n");
	else if (audit_rel)
		/* Under systemd that directory is /: a trail nobody looks
		 * for, or a typo of off. */
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmqos: warning: audit= is relative: the audit trail "
			"is %s, in opensm's working directory; give audit= an "
			"absolute path (or off)\n",
			q->opts.audit);
	if (oq_plugin_options_cut(osm->subn.opt.event_plugin_options)) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmqos: event_plugin_options is %zu characters, as "
			"many as OpenSM reads of its opensm.conf line (%d with "
			"the key): the line was probably cut, the options "
			"after the cut lost and the last value cut short; "
			"shorten it (shorter paths, e.g. a symlink to a deep "
			"directory) and check it with osmqos doctor\n",
			strlen(osm->subn.opt.event_plugin_options),
			OQ_OPENSM_CONF_LINE_MAX);
		errs++;
	}
	oq_plugin_options_format(&q->opts, buf, sizeof(buf));
	OSM_LOG(&osm->log, OSM_LOG_INFO,
		"osmqos %s loaded (built for %s): %s%s\n", PACKAGE_VERSION,
		OSM_VERSION, buf,
		errs ? " [option errors above; those options ignored]" : "");
	if (!osm->subn.opt.qos)
		OSM_LOG(&osm->log, OSM_LOG_INFO,
			"osmqos: opensm.conf has qos FALSE: OpenSM programs no "
			"QoS tables, so osmqos only loads; set qos TRUE\n");
	clash = policy_clash(q, &q->pub_off);
	if (q->pub_off) {
		q->dir_lock = -2; /* not claimed: nothing is written there */
		OQ_LOG(q->osm, OSM_LOG_ERROR,
		       "the policy file is %s in %s: osmqos publishes nothing "
		       "there (that would write over the policy) until it is "
		       "given another policy file (next line)\n",
		       clash, oq_plugin_publish_dir(&q->opts));
	} else {
		claim_publish_dir(q);
	}
	oq_policy_file_init(&q->pf, osm, &q->opts);
	q->pf.path_clash = clash;
	if (q->dir_shared) {
		q->pf.copy_enabled = false;
		q->pf.dir_shared = true;
	}
	oq_sweep_init(&q->sweep, osm, &q->pf);
	oq_publish_init(&q->pub, osm, &q->opts, &q->pf, &q->sweep, &q->sa);
	oq_sa_init(&q->sa, osm, &q->sweep, &q->pub.counters);
	q->sweep.published = sweep_published;
	q->sweep.published_ctx = &q->sa;
	audit_open(q);
	q->sa.audit = q->pub.audit = q->audit;
	/* Every instance holds its policy from the start: a standby runs
	 * no sweep until it takes over, and then programs the fabric with
	 * what it holds (a bad edit made meanwhile is refused, not met
	 * with no policy at all).  Read before the publisher starts, which
	 * writes it as the policy in force. */
	if (osm->subn.opt.qos)
		oq_policy_file_refresh(&q->pf);
	if (!q->dir_shared && !q->pub_off)
		oq_publish_writer_start(&q->pub);
	if (osm->subn.opt.qos)
		oq_policy_standby_start(&q->pf);
	/* sa-front: osm_sa_init() has registered, the SA port is not bound. */
	oq_sa_front_takeover(&q->sa);
	return q;
}

static void osmqos_delete(void *data)
{
	struct osmqos *q = data;

	if (!q)
		return;
	OQ_LOG(q->osm, OSM_LOG_INFO, "unloading after %lu sweeps\n",
	       q->sweep.sweeps);
	/* sa-front: usually a no-op, osm_sa_shutdown() unregistered ours. */
	oq_sa_front_log_counters(&q->sa, OSM_LOG_INFO);
	oq_sa_front_restore(&q->sa);
	oq_hooks_remove(&q->sweep);
	oq_hooks_release_state(&q->sweep);
	oq_policy_standby_stop(&q->pf);
	/* Before the audit writer goes: the refresher reads its stats. */
	oq_publish_writer_stop(&q->pub);
	if (q->audit) {
		struct oq_audit_stats st;

		oq_audit_close(q->audit, &st);
		q->audit = q->sa.audit = q->pub.audit = NULL;
		OQ_LOG(q->osm, OSM_LOG_INFO,
		       "audit: %llu records written in %llu lines, %llu "
		       "dropped\n",
		       (unsigned long long)st.written,
		       (unsigned long long)st.lines,
		       (unsigned long long)st.dropped);
	}
	oq_sa_fini(&q->sa);
	oq_sweep_fini(&q->sweep);
	oq_policy_file_fini(&q->pf);
	oq_publish_fini(&q->pub);
	oq_plugin_options_free(&q->opts);
	if (q->dir_lock >= 0)
		close(q->dir_lock);
	free(q);
	__atomic_sub_fetch(&instances, 1, __ATOMIC_ACQ_REL);
}

/* HEAVY_SWEEP_DONE: discovery is complete, nothing is programmed yet. */
static void on_heavy_sweep_done(struct osmqos *q)
{
	struct oq_sweep *sw = &q->sweep;
	struct oq_sweep_state *s;
	struct oq_engine engine;
	unsigned int sent;
	bool kept;

	oq_sweep_begin(sw);
	if (q->dir_shared)
		reclaim_publish_dir(q);
	else
		keep_publish_dir(q);
	if (!q->osm->subn.opt.qos)
		return;
	oq_policy_file_refresh(&q->pf);

	cl_plock_acquire(&q->osm->lock);
	oq_hooks_install(sw);
	/*
	 * The hooks rebuild the state at their first call in this sweep, with
	 * final partitions; a state built here is needed only to send the
	 * optimized SL2VL Sets before osm_qos_setup runs.
	 */
	if (!q->osm->subn.opt.use_optimized_slvl ||
	    oq_hooks_engine(sw, &engine) != OQ_ENGINE_QOS) {
		cl_plock_release(&q->osm->lock);
		return;
	}
	s = oq_sweep_state_renew(sw, false, &kept);
	if (s) {
		if (!kept) {
			oq_sweep_publish(sw, s);
			s = oq_sweep_get(sw);
		}
		sent = oq_sl2vl_presend(sw, s);
		sw->mads_presend = sent;
		OQ_LOG(q->osm, OSM_LOG_VERBOSE,
		       "sweep %lu: %zu nodes, %zu ports %s in %.2f ms; "
		       "%u optimized SL2VL Sets\n",
		       sw->sweeps, s->fabric->n_nodes, s->fabric->n_ports,
		       kept ? "unchanged, checked" : "compiled",
		       kept ? sw->phases.inputs_ms : s->build_ms, sent);
		oq_sweep_put(s);
	}
	cl_plock_release(&q->osm->lock);
}

/*
 * The SA's state: routes are final and every QoS Set has been answered,
 * so OpenSM's own SA would answer from exactly this.  Built under the read
 * lock, then SA threads use it without any OpenSM lock.  A sweep that
 * changed nothing keeps both states in force.
 */
static void build_sa_state(struct osmqos *q)
{
	struct oq_sweep *sw = &q->sweep;
	struct oq_sweep_state *base = oq_sweep_get(sw), *own = NULL;
	struct oq_sa_state *s = NULL;
	bool kept, sa_kept = false;
	uint64_t t0;
	double ms;

	/* osm_qos_setup ran without our SL2VL hook (no routing engine, one
	 * that chooses path SLs, or one we could not hook): what OpenSM
	 * sent by itself went unnoted. */
	if (q->osm->subn.opt.qos && !sw->sl2vl_hooked)
		oq_sl2vl_dirty_all(&sw->sl2vl_dirty);
	sw->sl2vl_hooked = false;
	cl_plock_acquire(&q->osm->lock);
	t0 = oq_clock_ns();
	/* The hooks' state of this heavy sweep is routed: build the SA's on
	 * it instead of compiling the same tables again; else on a state of
	 * its own, in force once the SA's is built. */
	kept = sw->cur_kept;
	if (!oq_sweep_state_current(sw, base)) {
		oq_sweep_put(base);
		base = oq_sweep_state_renew(sw, true, &kept);
		if (!kept)
			own = base;
	}
	if (base)
		s = oq_sa_state_renew(&q->sa, base, kept, &sa_kept);
	ms = oq_ms_since(t0);
	cl_plock_release(&q->osm->lock);
	sw->phases.sa_ms += ms;
	sw->phases.sa_reused = sa_kept;
	if (!s) {
		/* The record now describes own, which goes: the next sweep
		 * must not keep the older state in force as if built from
		 * it. */
		if (own)
			oq_record_forget(&sw->inputs);
		oq_sweep_put(base);
		return; /* logged; SA threads keep the previous state */
	}
	if (own)
		oq_sweep_publish(sw, own); /* takes base's reference */
	else
		oq_sweep_put(base);
	OQ_LOG(q->osm, OSM_LOG_VERBOSE,
	       "sweep %lu: SA state %s: %zu ports, %zu port GUIDs, %.2f ms\n",
	       sw->sweeps, sa_kept ? "kept" : "built",
	       s->sweep->fabric->n_ports, s->n_aliases, ms);
	if (sa_kept)
		oq_sa_put(s);
	else
		oq_sa_publish(&q->sa, s);
}

/* UCAST_ROUTING_DONE: osm_qos_setup has queued every QoS Set. */
static void on_routing_done(struct osmqos *q)
{
	struct oq_sweep *sw = &q->sweep;
	struct oq_sweep_state *s;
	struct oq_engine engine;
	char in_force[64] = "", tables[96];

	build_sa_state(q);
	sw->routing_runs++;
	oq_hooks_release_state(sw);
	/* osm_qos_setup has just parsed OpenSM's qos_policy_file. */
	oq_policy_opensm_check(&q->pf);
	if (!q->osm->subn.opt.qos)
		return;
	s = oq_sweep_get(sw);
	sw->mads_total += sw->mads_predicted + sw->mads_presend;
	if (s && s->pol) {
		struct tm tm;

		gmtime_r(&s->pol->loaded_at, &tm);
		strftime(in_force, sizeof(in_force), "%Y-%m-%dT%H:%M:%SZ", &tm);
		snprintf(in_force + strlen(in_force),
			 sizeof(in_force) - strlen(in_force),
			 " hash 0x%016" PRIx64, s->pol->hash);
	}
	if (s && sw->cur_kept)
		snprintf(tables, sizeof(tables),
			 "tables of sweep %lu kept (nothing they are built "
			 "from changed)",
			 s->sweep);
	else
		/* snapshots and compiles of this sweep; the SA state built
		 * on the routed one adds neither */
		snprintf(tables, sizeof(tables), "tables built in %.2f ms",
			 sw->phases.snapshot_ms + sw->phases.compile_ms);
	OQ_LOG(q->osm, OSM_LOG_INFO,
	       "sweep %lu: %lu QoS Set MADs (%lu optimized SL2VL, %lu "
	       "SL2VL/VLArb via osm_qos_setup); policy %s%s; %s\n",
	       sw->sweeps, sw->mads_predicted + sw->mads_presend,
	       sw->mads_presend, sw->mads_predicted,
	       s && s->pol ? "in force, loaded " : "NONE (OpenSM templates)",
	       s && s->pol ? in_force : "", tables);
	if (q->osm->routing_engine_used &&
	    oq_hooks_engine(sw, &engine) != OQ_ENGINE_QOS)
		OQ_LOG(q->osm, OSM_LOG_INFO,
		       "routing engine %s chooses path SLs and SL2VL is %s "
		       "(deadlock freedom); the policy sets VLArb and "
		       "VLHighLimit\n",
		       engine.name,
		       engine.kind == OQ_ENGINE_OWN ? "the engine's"
						    : "the template's");
	oq_sweep_put(s);
	sw->mads_predicted = 0;
	sw->mads_presend = 0;
}

static void osmqos_report(void *data, osm_epi_event_id_t id, void *event)
{
	struct osmqos *q = data;

	/* The sweep's events come from the state manager's thread; others
	 * (traps, LFT changes, the performance manager) from any thread,
	 * and are not the sweep's work. */
	bool sweep_event = id == OSM_EVENT_ID_HEAVY_SWEEP_DONE ||
			   id == OSM_EVENT_ID_UCAST_ROUTING_DONE ||
			   id == OSM_EVENT_ID_SUBNET_UP;
	uint64_t cpu0 = 0;

	if (id >= OSM_EVENT_ID_MAX)
		return;
	__atomic_add_fetch(&q->events[id], 1, __ATOMIC_RELAXED);
	if (sweep_event) {
		/* Never beside the standby's re-read of the policy file. */
		pthread_mutex_lock(&q->pf.use_lock);
		cpu0 = oq_thread_cpu_ns();
		q->sweep.phases.cpu_entry_ns = cpu0;
	}
	switch (id) {
	case OSM_EVENT_ID_HEAVY_SWEEP_DONE:
		on_heavy_sweep_done(q);
		break;
	case OSM_EVENT_ID_UCAST_ROUTING_DONE:
		on_routing_done(q);
		break;
	case OSM_EVENT_ID_SUBNET_UP:
		if (q->subnet_up++ == 0)
			OQ_LOG(q->osm, OSM_LOG_INFO,
			       "subnet up; events so far: heavy sweeps %lu, "
			       "routing done %lu\n",
			       q->events[OSM_EVENT_ID_HEAVY_SWEEP_DONE],
			       q->events[OSM_EVENT_ID_UCAST_ROUTING_DONE]);
		oq_sa_front_log_counters(&q->sa, OSM_LOG_VERBOSE);
		/* publish: logs its own errors (once per errno); never
		 * affects the SM.  It reads the audit writer's drops with
		 * the other counters. */
		if (!q->dir_shared && !q->pub_off)
			oq_publish(&q->pub);
		break;
	default:
		break;
	}
	if (sweep_event) {
		q->sweep.phases.cpu_ns += oq_thread_cpu_ns() - cpu0;
		pthread_mutex_unlock(&q->pf.use_lock);
	}
}

osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = osmqos_create,
	.delete = osmqos_delete,
	.report = osmqos_report,
};
