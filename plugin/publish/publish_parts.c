// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The parts of the published files that depend on the sweep state alone
 * (the JSON's predictions, the Prometheus fabric families) are most of
 * their bytes and of the time it takes to write them.  They are rendered
 * once per sweep state and kept: a sweep that kept its state writes the
 * files again (new sweep number, time, counters, policy status) around the
 * parts it already has.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "publish.h"

bool oq_publish_parts_kept(const struct oq_publish_parts *pp, uint64_t state_id,
			   bool detail_ports)
{
	return pp->state_id && pp->state_id == state_id &&
	       pp->detail_ports == detail_ports;
}

void oq_publish_parts_use(const struct oq_publish_parts *pp,
			  struct oq_publish_doc *d)
{
	d->json_predictions = pp->json;
	d->json_predictions_len = pp->json_len;
	d->prom_fabric = pp->prom;
	d->prom_fabric_len = pp->prom_len;
	d->intent_ports_missed = pp->ports_missed;
}

void oq_publish_parts_free(struct oq_publish_parts *pp)
{
	free(pp->json);
	free(pp->prom);
	memset(pp, 0, sizeof(*pp));
}

/* One part into a new buffer; NULL when it could not be rendered. */
static char *render(void (*fn)(FILE *, const struct oq_publish_doc *),
		    const struct oq_publish_doc *d, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	int bad = !f;

	if (f) {
		fn(f, d);
		bad = ferror(f);
		bad |= fclose(f);
	}
	if (bad) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void json_part(FILE *out, const struct oq_publish_doc *d)
{
	oq_publish_write_json_predictions(out, d);
}

void oq_publish_parts_render(struct oq_publish_parts *pp, uint64_t state_id,
			     struct oq_publish_doc *d)
{
	oq_publish_parts_free(pp);
	pp->json = render(json_part, d, &pp->json_len);
	pp->prom = render(oq_publish_prom_fabric, d, &pp->prom_len);
	if (!pp->json || !pp->prom) {
		/* Out of memory: d renders its parts itself, and the next
		 * publication tries again. */
		oq_publish_parts_free(pp);
		return;
	}
	pp->state_id = state_id;
	pp->detail_ports = d->detail_ports;
	pp->ports_missed = d->intent_ports_missed;
	pp->n_classified = d->classes ? d->classes->n_classified : 0;
	pp->n_classes = d->classes ? d->classes->n : 0;
	oq_publish_parts_use(pp, d);
}
