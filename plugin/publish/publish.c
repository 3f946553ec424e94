// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Publishing, plugin side: at SUBNET UP take the sweep's state and its
 * port classes (one prediction per class, built with the SA state) and
 * replace osmqos-bandwidth.json and osmqos.prom in publish_dir=
 * (docs/publish.md).
 *
 * The state-manager thread takes, at SUBNET UP, what only it may read
 * (the policy file's status, the sweep numbers and phases) and references
 * to the states, which are immutable; the publisher's thread renders and
 * writes the files (publish_writer.c), so storage that stalls never
 * stalls a sweep.  A failure is logged once per file and errno, and never
 * reaches the SM.
 */
#include <config.h>

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <osmqos/clock.h>

#include "publish.h"

enum { PUB_JSON, PUB_PROM, PUB_FILES = OQ_PUBLISH_FILES };

static const char *const pub_names[PUB_FILES] = {
	[PUB_JSON] = OQ_PUBLISH_JSON_NAME,
	[PUB_PROM] = OQ_PUBLISH_PROM_NAME,
};

static int write_json(FILE *out, const void *ctx)
{
	return oq_publish_write_json(out, ctx);
}

/* osmqos.prom: its sweep part is rendered once here and kept, so the
 * refresher can rewrite the counters around it until the next sweep. */
static int publish_prom(struct oq_publisher *pub,
			const struct oq_publish_doc *d, char *why,
			size_t why_len)
{
	char *part = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&part, &len);
	int bad = !f;

	if (f) {
		bad = oq_publish_write_prom_sweep(f, d);
		bad |= fclose(f);
	}
	if (bad) {
		free(part);
		oq_publish_prom_forget(pub, ENOMEM, "rendering the file");
		return ENOMEM;
	}
	return oq_publish_prom_file(pub, part, len, d->mads_total, why,
				    why_len);
}

/* The files' head: what the SM thread alone may read (the policy file's
 * status, the sweep numbers), copied into r.  -1 out of memory. */
static int fill_head(struct oq_publisher *pub, const struct oq_sweep_state *s,
		     struct oq_publish_req *r)
{
	const struct oq_policy_file *pf = pub->pf;
	struct oq_publish_doc *d = &r->head;
	const char *path = oq_policy_file_path(pf);

	memset(d, 0, sizeof(*d));
	d->version = PACKAGE_VERSION;
	/* A state kept by later sweeps is theirs as much as its own. */
	d->sweep = !s			  ? pub->sweep->sweeps
		   : s == pub->sweep->cur ? pub->sweep->cur_sweep
					  : s->sweep;
	d->sweeps = pub->sweep->sweeps;
	clock_gettime(CLOCK_REALTIME, &d->now);
	d->qos_disabled = !pub->osm->subn.opt.qos;
	if (pub->osm->subn.opt.config_file &&
	    !(d->opensm_conf = r->opensm_conf =
		      strdup(pub->osm->subn.opt.config_file)))
		return -1;
	if (path && !(d->policy_path = r->policy_path = strdup(path)))
		return -1;
	d->policy_in_force = s && s->pol;
	/* The policy of the state published (a newer one may be loaded
	 * while this sweep's state is still the one in force). */
	d->policy_hash = s && s->pol ? s->pol->hash : pf->hash;
	d->policy_load_success = pf->cur && pf->content_ok;
	d->policy_loaded_at = s && s->pol ? s->pol->loaded_at : pf->loaded_at;
	d->loads_ok = pf->loads_ok;
	d->loads_failed = pf->loads_failed;
	if (pf->restored_from) {
		r->restored_from = strdup(pf->restored_from);
		r->restored_for =
			pf->restored_for ? strdup(pf->restored_for) : NULL;
		if (!r->restored_from || (pf->restored_for && !r->restored_for))
			return -1;
		d->restored_from = r->restored_from;
		d->restored_for = r->restored_for;
	}
	if (pf->rejected) {
		r->rej_path = strdup(pf->rej_path ? pf->rej_path : "");
		r->rej_error = strdup(pf->rej_error);
		r->rej_fix = strdup(pf->rej_fix);
		if (!r->rej_path || !r->rej_error || !r->rej_fix)
			return -1;
		d->rejected_path = r->rej_path;
		d->rejected_hash = pf->bad_hash;
		d->rejected_at = pf->rej_at;
		d->rejected_error = r->rej_error;
		d->rejected_fix = r->rej_fix;
	}
	if (pf->opensm_path) {
		r->opensm_path = strdup(pf->opensm_path);
		if (!r->opensm_path)
			return -1;
		d->opensm_path = r->opensm_path;
		d->opensm_refused = pf->opensm_refused;
		d->opensm_refused_since = pf->opensm_refused_since;
	}
	d->mads_total = pub->sweep->mads_total;
	d->engine = s ? s->engine.name : "";
	/* Without a policy the ports keep the qos_* templates; an engine
	 * that owns SL2VL keeps it either way. */
	d->engine_sl2vl = s && s->engine.kind == OQ_ENGINE_OWN ? "engine"
			  : s && s->pol && s->engine.kind == OQ_ENGINE_QOS
				  ? "policy"
				  : "template";
	return 0;
}

void oq_publish_report(struct oq_publisher *pub, const char *name,
		       int *last_err, int err, const char *why)
{
	if (!err) {
		if (*last_err)
			OQ_LOG(pub->osm, OSM_LOG_INFO,
			       "publishing %s works again\n", name);
		*last_err = 0;
		return;
	}
	if (err == *last_err)
		return;
	*last_err = err;
	OQ_LOG(pub->osm, OSM_LOG_ERROR,
	       "cannot publish %s: %s: %s (logged once; the SM is not "
	       "affected)\n",
	       name, why, strerror(err));
}

/* The policy's levels that name an SL, for the per-level aggregates. */
static struct oq_publish_level *levels_of(const struct oq_sweep_state *s,
					  size_t *n)
{
	const struct oq_policy *p = s && s->pol ? s->pol->p : NULL;
	struct oq_publish_level *v;
	struct oq_sl_intents it;
	size_t i, k = 0;

	*n = 0;
	if (!p || !p->n_levels)
		return NULL;
	oq_policy_intents(p, &it);
	v = calloc(p->n_levels, sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < p->n_levels; i++) {
		if (p->levels[i].sl < 0 || p->levels[i].sl > 15 ||
		    !p->levels[i].name)
			continue;
		v[k].name = p->levels[i].name;
		v[k].intent_bp = p->levels[i].bandwidth_bp;
		v[k].high = p->levels[i].prio_high;
		v[k].sl_need_bp = it.need_bp[p->levels[i].sl];
		v[k].latency_ns = p->levels[i].latency_ns;
		v[k++].sl = (uint8_t)p->levels[i].sl;
	}
	*n = k;
	return v;
}

/* A bad value of these options is logged at load, with the other
 * options' checks (oq_plugin_options_check), and taken as the default. */
bool oq_publish_detail_ports(struct oq_publisher *pub)
{
	char why[320];

	return oq_plugin_opt_detail_ports(pub->opts, why, sizeof(why));
}

/* malloc_trim=: 1 trims the heap after each publication (default 0). */
static void trim_option(struct oq_publisher *pub)
{
	char why[320];

	pub->trim = oq_plugin_opt_trim(pub->opts, why, sizeof(why));
}

void oq_publish_init(struct oq_publisher *pub, osm_opensm_t *osm,
		     const struct oq_plugin_options *opts,
		     struct oq_policy_file *pf, struct oq_sweep *sweep,
		     struct oq_sa *sa)
{
	pub->osm = osm;
	pub->opts = opts;
	pub->pf = pf;
	pub->sweep = sweep;
	pub->sa = sa;
	oq_publish_counters_init(&pub->counters);
	oq_publish_detail_ports(pub); /* a bad publish_detail= is said now */
	trim_option(pub);
}

void oq_publish_fini(struct oq_publisher *pub)
{
	oq_publish_parts_free(&pub->parts);
	oq_publish_json_forget(&pub->json_last);
	oq_publish_json_retry_drop(pub);
	oq_publish_counters_destroy(&pub->counters);
}

void oq_publish_json_retry_drop(struct oq_publisher *pub)
{
	free(pub->json_retry);
	free(pub->json_retry_key);
	pub->json_retry = pub->json_retry_key = NULL;
	pub->json_retry_len = pub->json_retry_key_len = 0;
}

/* The JSON could not be written: rendered to memory and kept (with key,
 * taken), so that the writer thread's ticks write it again once the
 * storage takes it -- as osmqos.prom's sweep part is kept -- instead of
 * leaving an older fabric's file until the next sweep, which on a quiet
 * fabric may be days away.  Out of memory: the next sweep writes it. */
static void keep_for_retry(struct oq_publisher *pub,
			   const struct oq_publish_doc *d, char *key,
			   size_t key_len, uint64_t state_id)
{
	FILE *f = open_memstream(&pub->json_retry, &pub->json_retry_len);
	int bad = !f;

	if (f) {
		bad = oq_publish_write_json(f, d);
		bad |= fclose(f);
	}
	pub->json_retry_key = key;
	pub->json_retry_key_len = key_len;
	pub->json_retry_state = state_id;
	pub->json_retry_sweep = d->sweep;
	if (bad)
		oq_publish_json_retry_drop(pub);
}

static int write_bytes(FILE *out, const void *ctx)
{
	const struct oq_publisher *pub = ctx;

	if (fwrite(pub->json_retry, 1, pub->json_retry_len, out) !=
	    pub->json_retry_len)
		return -1;
	return ferror(out) ? -1 : 0;
}

void oq_publish_json_retry(struct oq_publisher *pub, bool master)
{
	const char *dir = oq_plugin_publish_dir(pub->opts);
	const char *name = pub_names[PUB_JSON];
	char why[512] = "";
	int err;

	if (!pub->json_retry)
		return;
	/* No longer master: the file kept is the old fabric's; the SM
	 * publishes anew when it is master again. */
	if (!master) {
		oq_publish_json_retry_drop(pub);
		return;
	}
	err = oq_publish_replace(dir, name, write_bytes, pub, why, sizeof(why));
	oq_publish_report(pub, name, &pub->json_err, err, why);
	if (err)
		return;
	oq_publish_json_written(&pub->json_last, dir, name, pub->json_retry_key,
				pub->json_retry_key_len, pub->json_retry_state,
				pub->json_retry_sweep);
	pub->json_retry_key = NULL;
	oq_publish_json_retry_drop(pub);
}

/*
 * osmqos-bandwidth.json, unless it holds what it would again: the
 * predictions kept for the same state, and nothing else it says changed
 * but the sweep numbers and the time (a sweep that changed nothing).  Its
 * `sweep` then stays that of the sweep that wrote it; osmqos.prom tells
 * the latest.
 */
static int publish_json(struct oq_publisher *pub,
			const struct oq_sweep_state *s,
			const struct oq_publish_doc *d, bool kept, char *why,
			size_t why_len)
{
	const char *dir = oq_plugin_publish_dir(pub->opts);
	const char *name = pub_names[PUB_JSON];
	/* The predictions the file will hold are kept for s. */
	uint64_t state_id = s && pub->parts.state_id == s->id ? s->id : 0;
	size_t key_len = 0;
	char *key = oq_publish_json_key(d, &key_len);
	int err;

	/* This publication supersedes one still waiting. */
	oq_publish_json_retry_drop(pub);

	pub->json_kept = kept && oq_publish_json_unchanged(&pub->json_last, dir,
							   name, key, key_len,
							   state_id);
	if (pub->json_kept) {
		free(key);
		return 0;
	}
	err = oq_publish_replace(dir, name, write_json, d, why, why_len);
	if (err) {
		oq_publish_json_forget(&pub->json_last);
		keep_for_retry(pub, d, key, key_len, state_id);
		return err;
	}
	oq_publish_json_written(&pub->json_last, dir, name, key, key_len,
				state_id, d->sweep);
	return 0;
}

/* The sweep state of req and, when the SA has built on it, its port
 * classes (else predicted here). */
static int publish_state(struct oq_publisher *pub,
			 const struct oq_publish_req *req, double *ms)
{
	const struct oq_sweep_state *s = req->s;
	const struct oq_pred_classes *classes =
		req->sa ? &req->sa->classes : NULL;
	/* The SA's classes, when the files are predicted from them. */
	uint64_t classes_id =
		classes && classes->of_port ? req->sa->classes_id : 0;
	struct oq_pred_classes own = {0};
	struct oq_publish_level *levels = NULL;
	struct oq_publish_doc d;
	struct oq_predict_opts o;
	const char *dir = oq_plugin_publish_dir(pub->opts);
	uint64_t t0 = oq_clock_ns();
	char why[512];
	size_t n_levels = 0;
	int err[PUB_FILES], i, rc = 0;
	bool kept = false;

	pub->json_kept = false;
	d = req->head;
	d.detail_ports = oq_publish_detail_ports(pub);
	/* qos FALSE: OpenSM programs no QoS tables, so there is nothing to
	 * predict; the policy and counter metrics stay (docs/publish.md). */
	if (s && req->qos) {
		d.fabric = s->fabric;
		d.tables = &s->tables;
		d.classes = classes;
		levels = levels_of(s, &n_levels);
		d.levels = levels;
		d.n_levels = levels ? n_levels : 0;
		kept = oq_publish_parts_kept(&pub->parts, s->id, classes_id,
					     &d);
		if (kept)
			oq_publish_parts_use(&pub->parts, &d);
		/* A state the SA has not built on (no routing yet, or its
		 * SA state failed) has no classes of its own. */
		if (!kept && (!classes || !classes->of_port)) {
			oq_predict_opts_init(&o);
			if (oq_pred_classes_build(s->fabric, &s->tables, &o,
						  NULL, &own)) {
				if (!pub->oom_reported)
					OQ_LOG(pub->osm, OSM_LOG_ERROR,
					       "out of memory predicting the "
					       "published bandwidth; files not "
					       "updated\n");
				pub->oom_reported = true;
				oq_publish_prom_forget(pub, 0, NULL);
				free(levels);
				return -1;
			}
			d.classes = &own;
		}
		if (!kept) {
			d.intent_ports_missed = oq_publish_intent_stats(
				levels, d.n_levels, d.classes, &s->synth);
			d.intent_ports_unchecked = s->synth.n_unchecked;
			/* Parts without the policy's levels (out of memory
			 * for them) are this publication's only. */
			if (levels || !s->pol || !s->pol->p->n_levels)
				oq_publish_parts_render(&pub->parts, s->id,
							classes_id, &d);
			else
				oq_publish_parts_free(&pub->parts);
		}
	} else {
		oq_publish_parts_free(&pub->parts);
	}
	pub->oom_reported = false;
	/* The counters are the Prometheus file's live part, read under its
	 * lock when it is written (oq_publish_prom_file); the JSON has none. */

	why[0] = '\0';
	err[PUB_JSON] = publish_json(pub, s, &d, kept, why, sizeof(why));
	oq_publish_report(pub, pub_names[PUB_JSON], &pub->json_err,
			  err[PUB_JSON], why);
	/* osmqos.prom logs its own errors: one state with the refresher. */
	err[PUB_PROM] = publish_prom(pub, &d, why, sizeof(why));
	for (i = 0; i < PUB_FILES; i++)
		if (err[i])
			rc = -1;
	*ms = oq_ms_since(t0);
	if (pub->json_kept)
		snprintf(why, sizeof(why),
			 " (predictions unchanged, not rendered again; %s "
			 "as written by sweep %lu: nothing else it says "
			 "changed)",
			 pub_names[PUB_JSON], pub->json_last.sweep);
	else
		snprintf(why, sizeof(why), "%s",
			 kept ? " (predictions unchanged, not rendered again)"
			      : "");
	if (!rc)
		OQ_LOG(pub->osm, OSM_LOG_INFO,
		       "sweep %lu: published %zu ports in %zu classes to "
		       "%s/{%s,%s} in %.2f ms%s\n",
		       d.sweep,
		       kept	   ? pub->parts.n_classified
		       : d.classes ? d.classes->n_classified
				   : 0,
		       kept	   ? pub->parts.n_classes
		       : d.classes ? d.classes->n
				   : 0,
		       dir, pub_names[PUB_JSON], pub_names[PUB_PROM], *ms,
		       why);
	pub->parts_kept = kept;
	oq_pred_classes_free(&own);
	free(levels);
	return rc;
}

/* Where the plugin's time went this sweep, for operators and for `make
 * bench-scale`: one INFO line after publishing.  writer_ns: the writer
 * thread's CPU for the publication. */
static void log_phases(struct oq_publisher *pub,
		       const struct oq_publish_req *req, double publish_ms,
		       double trim_ms, uint64_t writer_ns)
{
	const struct oq_phases *ph = &req->phases;
	uint64_t audit = 0;
	char trim[32] = "off", sa[64] = "kept", read[64] = "", made[64] = "";
	char classes[80] = "", rendered[80] = "rendered";
	const char *pub_how = rendered;

	if (pub->audit) {
		struct oq_audit_stats st;

		oq_audit_get_stats(pub->audit, &st);
		audit = st.cpu_ns - pub->audit_cpu_ns;
		pub->audit_cpu_ns = st.cpu_ns;
	}
	/* OpenSM's cached SL2VL, read when Sets may have changed it. */
	if (!ph->sa_reused)
		snprintf(sa, sizeof(sa),
			 ph->sl2vl_all ? "built, SL2VL of all %zu ports read"
			 : ph->sl2vl_ports ? "built, SL2VL of %zu ports read"
					   : "built",
			 ph->sl2vl_ports);
	if (trim_ms >= 0)
		snprintf(trim, sizeof(trim), "%.2f ms", trim_ms);
	/* How much of the subnet the copies read: the rest was shared. */
	if (ph->nodes)
		snprintf(read, sizeof(read), " (%zu of %zu nodes read)",
			 ph->nodes_read, ph->nodes);
	/* How many ports' tables the compiles made: the rest were kept. */
	if (ph->ports)
		snprintf(made, sizeof(made), ", %zu of %zu ports compiled",
			 ph->ports_compiled, ph->ports);
	/* How many ports the class builds keyed: the others took the
	 * class they had. */
	if (ph->classes_kept)
		snprintf(classes, sizeof(classes), " (kept: the same tables)");
	else if (ph->classes_ports)
		snprintf(classes, sizeof(classes), " (%zu of %zu ports keyed)",
			 ph->classes_keyed, ph->classes_ports);
	/* How much of the nodes list the render wrote: the rest was
	 * copied. */
	if (pub->json_kept)
		pub_how = "parts kept, JSON as it was";
	else if (pub->parts_kept)
		pub_how = "parts kept";
	else if (pub->parts.nodes_ok)
		snprintf(rendered, sizeof(rendered),
			 "rendered, %zu of %zu node entries",
			 pub->parts.nodes.n_rendered, pub->parts.nodes.n);
	OQ_LOG(pub->osm, OSM_LOG_INFO,
	       "sweep %lu: phases: inputs %.2f ms (%s), snapshot %.2f ms%s%s, "
	       "compile %.2f ms (%u states%s), QoS MADs %.2f ms (%lu hook "
	       "calls), SA state %.2f ms (%s), predictions %.2f ms%s, publish "
	       "%.2f ms (%s), memory trim %s, audit %.2f ms CPU since the "
	       "last sweep; in all %.2f ms (the SM thread's CPU in the "
	       "plugin's events and state renewals, the publisher's for the "
	       "publication, and the hooks' sampled time)\n",
	       req->sweeps, ph->inputs_ms,
	       ph->reused ? "unchanged, state kept" : "changed",
	       ph->snapshot_ms, read,
	       ph->subnets_shared ? " (the last copy of the subnet shared)"
				  : "",
	       ph->compile_ms, ph->states, made,
	       (double)oq_phases_hook_ns(ph) / 1e6, ph->hook_calls, ph->sa_ms,
	       sa, ph->classes_ms, classes, publish_ms, pub_how, trim,
	       (double)audit / 1e6,
	       (double)(req->sm_cpu_ns + writer_ns + oq_phases_hook_ns(ph)) /
		       1e6);
}

void oq_publish_req_free(struct oq_publish_req *req)
{
	if (!req)
		return;
	oq_sweep_put(req->s);
	oq_sa_put(req->sa);
	free(req->rej_path);
	free(req->rej_error);
	free(req->rej_fix);
	free(req->policy_path);
	free(req->restored_from);
	free(req->restored_for);
	free(req->opensm_path);
	free(req->opensm_conf);
	free(req);
}

void oq_publish_run(struct oq_publisher *pub, struct oq_publish_req *req)
{
	uint64_t cpu0 = oq_thread_cpu_ns(), t0;
	double ms = 0, trim_ms = -1;

	/* The policy put in force by this sweep, as written, before the
	 * files that name it: never newer than them but while they are
	 * written (osmqos status tells that from a failed write). */
	oq_policy_in_force_write(pub->pf, true);
	publish_state(pub, req, &ms);
	/* malloc_trim=1: the sweep's earlier states are freed by now; give
	 * their pages back to the system.  This reshapes OpenSM's whole heap,
	 * not only the plugin's, and the next sweep faults the pages in
	 * again: only when the operator asks (docs/performance.md). */
	if (pub->trim) {
		t0 = oq_clock_ns();
		malloc_trim(0);
		trim_ms = oq_ms_since(t0);
	}
	log_phases(pub, req, ms, trim_ms, oq_thread_cpu_ns() - cpu0);
	oq_publish_req_free(req);
}

static void post_oom(struct oq_publisher *pub)
{
	if (!pub->post_oom_reported)
		OQ_LOG(pub->osm, OSM_LOG_ERROR,
		       "out of memory asking for the publication; files not "
		       "updated\n");
	pub->post_oom_reported = true;
}

void oq_publish(struct oq_publisher *pub)
{
	struct oq_publish_req *req = calloc(1, sizeof(*req));
	const struct oq_phases *ph = &pub->sweep->phases;

	if (!req) {
		post_oom(pub);
		return;
	}
	/* The SA's state when it has one (built on the newest sweep state:
	 * a new sweep state retires the SA's), else the sweep's. */
	req->sa = oq_sa_get(pub->sa);
	req->s = req->sa ? oq_sweep_ref(req->sa->sweep)
			 : oq_sweep_get(pub->sweep);
	if (fill_head(pub, req->s, req)) {
		oq_publish_req_free(req);
		post_oom(pub);
		return;
	}
	pub->post_oom_reported = false;
	req->phases = *ph;
	req->sweeps = pub->sweep->sweeps;
	req->qos = pub->osm->subn.opt.qos;
	req->sm_cpu_ns = ph->cpu_ns + (oq_thread_cpu_ns() - ph->cpu_entry_ns);
	oq_publish_post(pub, req);
}
