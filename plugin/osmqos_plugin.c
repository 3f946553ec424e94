// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libosmqos.so: the OpenSM event plugin entry points.  OpenSM dlopen()s
 * lib<event_plugin_name>.so and looks up osm_event_plugin; its version
 * string must equal OpenSM's own, so we build against the installed headers.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opensm/osm_config.h>
#include <opensm/osm_version.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_log.h>
#include <opensm/osm_event_plugin.h>

#include "options.h"

struct osmqos {
	osm_opensm_t *osm;
	struct oq_plugin_options opts;
	unsigned long events[OSM_EVENT_ID_MAX];
	unsigned long subnet_up;
};

static void log_option_error(void *ctx, const char *msg)
{
	osm_opensm_t *osm = ctx;

	OSM_LOG(&osm->log, OSM_LOG_ERROR, "osmqos: %s\n", msg);
}

static void *osmqos_create(osm_opensm_t *osm)
{
	struct osmqos *q = calloc(1, sizeof(*q));
	char buf[1024];
	int errs;

	if (!q) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"osmqos: out of memory, plugin not loaded\n");
		return NULL;
	}
	q->osm = osm;
	errs = oq_plugin_options_parse(&q->opts,
				       osm->subn.opt.event_plugin_options,
				       log_option_error, osm);
	oq_plugin_options_format(&q->opts, buf, sizeof(buf));
	OSM_LOG(&osm->log, OSM_LOG_INFO,
		"osmqos %s loaded (built for %s): %s%s\n", PACKAGE_VERSION,
		OSM_VERSION, buf,
		errs ? " [option errors above; those options ignored]" : "");
	return q;
}

static void osmqos_delete(void *data)
{
	struct osmqos *q = data;

	if (!q)
		return;
	OSM_LOG(&q->osm->log, OSM_LOG_INFO, "osmqos: unloading\n");
	oq_plugin_options_free(&q->opts);
	free(q);
}

static void osmqos_report(void *data, osm_epi_event_id_t id, void *event)
{
	struct osmqos *q = data;

	if (id >= OSM_EVENT_ID_MAX)
		return;
	q->events[id]++;
	if (id == OSM_EVENT_ID_SUBNET_UP && q->subnet_up++ == 0)
		OSM_LOG(&q->osm->log, OSM_LOG_INFO,
			"osmqos: subnet up; events so far: heavy sweeps %lu, "
			"routing done %lu\n",
			q->events[OSM_EVENT_ID_HEAVY_SWEEP_DONE],
			q->events[OSM_EVENT_ID_UCAST_ROUTING_DONE]);
}

osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = osmqos_create,
	.delete = osmqos_delete,
	.report = osmqos_report,
};
