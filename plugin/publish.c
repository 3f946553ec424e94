// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Publishing, plugin side: at SUBNET UP take the sweep's state, predict
 * every linked port (publish_model.c) and replace osmqos-bandwidth.json
 * and osmqos.prom in publish_dir= (docs/publish.md).
 *
 * Runs in OpenSM's state-manager thread after the sweep finished, holding
 * no OpenSM lock: the state is immutable and reference counted, and the
 * policy-file fields are written only by this same thread at the next
 * heavy sweep.  A failure is logged once per file and errno, and never
 * reaches the SM.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plugin.h"
#include "publish.h"

enum { PUB_JSON, PUB_PROM, PUB_FILES = OQ_PUBLISH_FILES };

static const char *const pub_names[PUB_FILES] = {
	[PUB_JSON] = OQ_PUBLISH_JSON_NAME,
	[PUB_PROM] = OQ_PUBLISH_PROM_NAME,
};

/* The counters the SA front fills, and the publisher's log-once memory,
 * are the instance's (struct oq_publisher in plugin.h). */
struct oq_publish_counters *oq_publish_counters_of(struct osmqos *q)
{
	return &q->pub.counters;
}

static int write_json(FILE *out, const void *ctx)
{
	return oq_publish_write_json(out, ctx);
}

static int write_prom(FILE *out, const void *ctx)
{
	return oq_publish_write_prom(out, ctx);
}

static void fill_doc(struct osmqos *q, const struct oq_state *s,
		     struct oq_publish_doc *d)
{
	const struct oq_policy_file *pf = &q->pf;

	memset(d, 0, sizeof(*d));
	d->version = PACKAGE_VERSION;
	d->sweep = s ? s->sweep : q->sweeps;
	d->sweeps = q->sweeps;
	clock_gettime(CLOCK_REALTIME, &d->now);
	d->policy_path = oq_policy_file_path(q);
	d->policy_in_force = s && s->pol;
	d->policy_hash = pf->hash;
	d->policy_load_success = pf->cur && pf->content_ok;
	d->policy_loaded_at = pf->loaded_at;
	d->loads_ok = pf->loads_ok;
	d->loads_failed = pf->loads_failed;
	d->mads_total = q->mads_total;
	d->engine = s ? s->engine.name : "";
	d->engine_sl2vl = !s || s->engine.kind == OQ_ENGINE_QOS ? "policy"
			  : s->engine.kind == OQ_ENGINE_OWN	? "engine"
								: "template";
}

/* Log a failure once per file and errno; say when writing works again. */
static void report(struct osmqos *q, int i, int err, const char *why)
{
	if (!err) {
		if (q->pub.last_err[i])
			OQ_LOG(q, OSM_LOG_INFO, "publishing %s works again\n",
			       pub_names[i]);
		q->pub.last_err[i] = 0;
		return;
	}
	if (err == q->pub.last_err[i])
		return;
	q->pub.last_err[i] = err;
	OQ_LOG(q, OSM_LOG_ERROR,
	       "cannot publish %s: %s: %s (logged once; the SM is not "
	       "affected)\n",
	       pub_names[i], why, strerror(err));
}

static int publish_state(struct osmqos *q, const struct oq_state *s)
{
	struct oq_publish_counts counts;
	struct oq_publish_port *ports = NULL;
	struct oq_publish_doc d;
	const char *dir = oq_plugin_publish_dir(&q->opts);
	struct timespec t0, t1;
	char why[512];
	size_t n = 0;
	int err[PUB_FILES], i, rc = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (s && oq_publish_predict(s->fabric, &s->tables, &ports, &n)) {
		if (!q->pub.oom_reported)
			OQ_LOG(q, OSM_LOG_ERROR,
			       "out of memory predicting the published "
			       "bandwidth; files not updated\n");
		q->pub.oom_reported = true;
		return -1;
	}
	q->pub.oom_reported = false;
	fill_doc(q, s, &d);
	d.ports = ports;
	d.n_ports = n;
	oq_publish_counters_read(oq_publish_counters_of(q), &counts);
	d.counts = &counts;

	for (i = 0; i < PUB_FILES; i++) {
		why[0] = '\0';
		err[i] = oq_publish_replace(dir, pub_names[i],
					    i == PUB_JSON ? write_json
							  : write_prom,
					    &d, why, sizeof(why));
		report(q, i, err[i], why);
		if (err[i])
			rc = -1;
	}
	free(ports);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!rc)
		OQ_LOG(q, OSM_LOG_INFO,
		       "sweep %lu: published %zu ports' predicted bandwidth "
		       "to %s/{%s,%s} in %.2f ms\n",
		       d.sweep, n, dir, pub_names[PUB_JSON],
		       pub_names[PUB_PROM],
		       (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
			       (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	return rc;
}

int oq_publish(struct osmqos *q)
{
	struct oq_state *s = oq_state_get(q);
	int rc = publish_state(q, s);

	oq_state_put(q, s);
	return rc;
}
