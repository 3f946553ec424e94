/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The published documents' tests (test_publish*.c): a small fabric whose
 * node descriptions carry quotes, backslashes, newlines, control bytes
 * and invalid UTF-8, its tables, classes and documents.  Include after
 * <cmocka.h>.
 */
#ifndef OSMQOS_TESTS_PUBLISH_WORLD_H
#define OSMQOS_TESTS_PUBLISH_WORLD_H

#include <stddef.h>
#include <stdio.h>

#include "match_fixture.h"
#include "documents/documents.h"

/* Quote, backslash, newline, U+00E9, a control byte, invalid UTF-8. */
#define EVIL_DESC "ev\"il\\x\ny \xc3\xa9 \x01 \xff end"

struct world {
	struct oq_fabric *f;
	struct oq_node *sw, *h1, *h2, *h3;
	struct oq_templates t;
	struct oq_fabric_tables tables;
	struct oq_pred_classes classes;
	struct oq_publish_counters ctr;
	struct oq_publish_counts counts;
	struct oq_publish_doc doc;
	char *buf;
	size_t len;
};

/* The levels the documents name unless a test gives others. */
#define PUBLISH_WORLD_N_LEVELS 3
extern const struct oq_publish_level
	publish_world_levels[PUBLISH_WORLD_N_LEVELS];

/* sw (4 ports): 1-h1 (evil description), 2-h2, 3-h3; port 4 down.
 * cmocka setup/teardown: *state is a struct world. */
int publish_world_setup(void **state);
int publish_world_teardown(void **state);
/* The classes and the document's fields from the tables. */
void publish_world_predict(struct world *w);
/* fn's document into w->buf (asserted to succeed). */
void publish_world_render(struct world *w,
			  int (*fn)(FILE *, const struct oq_publish_doc *));
/* The class of port p (fails the test when it has none). */
const struct oq_pred_class *publish_world_class(const struct world *w,
						const struct oq_port *p);
/* How many times needle occurs in hay. */
size_t publish_world_count(const char *hay, const char *needle);

#endif /* OSMQOS_TESTS_PUBLISH_WORLD_H */
