// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Whether OpenSM's own parser took the policy file it reads.  OpenSM
 * parses its qos_policy_file again in every osm_qos_setup() (3.3.23 and
 * 3.3.24 alike): osm_qos_parse_policy_file() frees the policy it held,
 * and leaves subn.p_qos_policy NULL when the file cannot be opened or
 * parsed, or fails its checks against the live subnet -- a qos-ulps
 * ipoib line whose partition partitions.conf no longer defines, or with
 * fewer than two full members, refuses the whole file.  The copy of the
 * policy in force osmqos writes does not change when partitions.conf
 * does, so OpenSM would refuse it at every sweep with nothing but its
 * own log lines to say so.  UCAST_ROUTING_DONE comes right after that
 * osm_qos_setup() in the heavy sweep and in a reroute, so the pointer is
 * read there: one load, no file read, nothing that slows the sweep.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <osmqos/advice.h>

#include "policy_file.h"

/* Nothing to compare with: no policy in force here, or OpenSM pointed
 * at a name nothing writes (oq_policy_keep_opensm_off). */
static void forget(struct oq_policy_file *pf)
{
	free(pf->opensm_path);
	pf->opensm_path = NULL;
	pf->opensm_refused = false;
	pf->opensm_refused_since = 0;
}

static void log_refused(struct oq_policy_file *pf, const char *path)
{
	const char *policy = oq_policy_file_path(pf);
	const char *parts = pf->osm->subn.opt.partition_config_file;
	bool copy = pf->copy_path && !strcmp(path, pf->copy_path);

	if (!parts || !*parts)
		parts = "partitions.conf";
	if (!copy && !pf->content_ok) {
		/* OpenSM reads the file itself, and osmqos refused (or could
		 * not read) its current content too: said above. */
		OQ_LOG(pf->osm, OSM_LOG_ERROR,
		       "OpenSM's own parser refused %s (its ERR AC0x lines "
		       "before this one say why) and runs without a policy of "
		       "its own: the queries osmqos passes to OpenSM's SA, and "
		       "its multicast, get no QoS level at every sweep until "
		       "it takes the file, while osmqos keeps the last good "
		       "policy; fix the file (`osmqos check %s` shows every "
		       "error), then `kill -HUP` opensm\n",
		       path, path);
		return;
	}
	OQ_LOG(pf->osm, OSM_LOG_ERROR,
	       "OpenSM's own parser refused %s%s (its ERR AC0x lines before "
	       "this one say why) and runs without a policy of its own: the "
	       "queries osmqos passes to OpenSM's SA, and its multicast, get "
	       "no QoS level at every sweep until it takes the file, while "
	       "osmqos applies %s; `osmqos check %s --partitions %s` says "
	       "why -- " OQ_ADVICE_OPENSM_REFUSED
	       " (osmqos status says when OpenSM takes it again)\n",
	       path, copy ? ", the copy of the policy in force" : "",
	       policy ? policy : "the policy in force",
	       policy ? policy : "FILE", parts);
}

void oq_policy_opensm_check(struct oq_policy_file *pf)
{
	const osm_subn_t *subn = &pf->osm->subn;
	const char *path = subn->opt.qos_policy_file;
	bool refused, same;
	char *dup;

	if (!subn->opt.qos || !pf->cur || !path || !*path ||
	    oq_policy_opensm_kept_off(pf)) {
		forget(pf);
		return;
	}
	/* Set by osm_qos_setup() in this thread, just before the event;
	 * SA threads only read it: no lock is needed to test it. */
	refused = !subn->p_qos_policy;
	same = pf->opensm_path && !strcmp(pf->opensm_path, path);
	if (same && refused == pf->opensm_refused)
		return;
	if (!same) {
		dup = strdup(path);
		if (!dup)
			return; /* told at a later sweep */
		free(pf->opensm_path);
		pf->opensm_path = dup;
	}
	if (!refused) {
		if (pf->opensm_refused)
			OQ_LOG(pf->osm, OSM_LOG_INFO,
			       "OpenSM's own parser takes %s again: OpenSM "
			       "holds the policy osmqos applies\n",
			       path);
		pf->opensm_refused = false;
		pf->opensm_refused_since = 0;
		return;
	}
	if (!pf->opensm_refused)
		pf->opensm_refused_since = time(NULL);
	pf->opensm_refused = true;
	log_refused(pf, path);
}
