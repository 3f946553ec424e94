// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The published documents' tests' fabric and helpers (publish_world.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "publish_world.h"

/* sw (4 ports): 1-h1 (evil description), 2-h2, 3-h3; port 4 down. */
int publish_world_setup(void **state)
{
	struct world *w = calloc(1, sizeof(*w));

	assert_non_null(w);
	w->f = oq_fabric_new();
	w->sw = fx_switch(w->f, 0x100, "sw", 4, 1);
	w->h1 = fx_ca(w->f, 0x10, EVIL_DESC, 1, 10);
	w->h2 = fx_ca(w->f, 0x20, "h2", 1, 20);
	w->h3 = fx_ca(w->f, 0x30, "h3", 1, 30);
	oq_fabric_link(&w->h1->ports[1], &w->sw->ports[1]);
	oq_fabric_link(&w->h2->ports[1], &w->sw->ports[2]);
	oq_fabric_link(&w->h3->ports[1], &w->sw->ports[3]);
	assert_int_equal(oq_fabric_finalize(w->f, NULL), 0);
	oq_templates_default(&w->t);
	assert_int_equal(oq_tables_compile(NULL, w->f, &w->t, &w->tables, NULL),
			 0);
	oq_publish_counters_init(&w->ctr);
	*state = w;
	return 0;
}

int publish_world_teardown(void **state)
{
	struct world *w = *state;

	free(w->buf);
	oq_pred_classes_free(&w->classes);
	oq_publish_counters_destroy(&w->ctr);
	oq_fabric_tables_free(&w->tables);
	oq_fabric_free(w->f);
	free(w);
	return 0;
}

/* The policy's levels the documents name by default. */
const struct oq_publish_level publish_world_levels[PUBLISH_WORLD_N_LEVELS] = {
	{.name = "storage", .sl = 1, .intent_bp = -1},
	{.name = "bulk", .sl = 0, .intent_bp = -1},
	{.name = "also-sl1", .sl = 1, .intent_bp = -1},
};

void publish_world_predict(struct world *w)
{
	struct oq_predict_opts o;

	oq_pred_classes_free(&w->classes);
	oq_predict_opts_init(&o);
	assert_int_equal(
		oq_pred_classes_build(w->f, &w->tables, &o, NULL, &w->classes),
		0);
	memset(&w->doc, 0, sizeof(w->doc));
	w->doc.version = "0.1.0";
	w->doc.sweep = 3;
	w->doc.sweeps = 4;
	w->doc.now.tv_sec = 1700000000;
	w->doc.now.tv_nsec = 250000000;
	w->doc.policy_path = "/etc/opensm/q\"os\\policy.conf";
	w->doc.policy_in_force = true;
	w->doc.policy_load_success = true;
	w->doc.policy_hash = 0x0123456789abcdefull;
	w->doc.policy_loaded_at = 1699999999;
	w->doc.loads_ok = 2;
	w->doc.loads_failed = 1;
	w->doc.mads_total = 42;
	w->doc.fabric = w->f;
	w->doc.tables = &w->tables;
	w->doc.classes = &w->classes;
	w->doc.levels = publish_world_levels;
	w->doc.n_levels = PUBLISH_WORLD_N_LEVELS;
	oq_publish_counters_read(&w->ctr, &w->counts);
	w->doc.counts = &w->counts;
}

void publish_world_render(struct world *w,
			  int (*fn)(FILE *, const struct oq_publish_doc *))
{
	FILE *f;

	free(w->buf);
	w->buf = NULL;
	f = open_memstream(&w->buf, &w->len);
	assert_non_null(f);
	assert_int_equal(fn(f, &w->doc), 0);
	assert_int_equal(fclose(f), 0);
}

const struct oq_pred_class *publish_world_class(const struct world *w,
						const struct oq_port *p)
{
	const struct oq_pred_class *c =
		oq_pred_class_of(&w->classes, oq_port_index(w->f, p));

	if (!c)
		fail_msg("port not published");
	return c;
}

size_t publish_world_count(const char *hay, const char *needle)
{
	size_t n = 0;
	const char *p = hay;

	while ((p = strstr(p, needle))) {
		n++;
		p += strlen(needle);
	}
	return n;
}
