/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Shared by the PathRecord and MultiPathRecord request code only. */
#ifndef OSMQOS_SA_PATH_INT_H
#define OSMQOS_SA_PATH_INT_H

#include <osmqos/sa_path.h>

/* The port the SA calls a port's base port: a switch's port 0. */
static inline const struct oq_port *oq_sa_base_port(const struct oq_port *p)
{
	return p->node->type == OQ_NODE_SWITCH ? &p->node->ports[0] : p;
}

/* pr_rcv_build_pr(): sgid/dgid NULL unless echoed from the request. */
void oq_sa_build_pr(const struct oq_sa_view *v, const struct oq_alias *s,
		    const struct oq_alias *d, const uint8_t *sgid,
		    const uint8_t *dgid, uint16_t slid, uint16_t dlid,
		    uint8_t preference, const struct oq_pr_parms *pp,
		    uint8_t *rec);

/* A request being answered: everything its pairs share. */
struct oq_sa_answering {
	const struct oq_sa_view *v;
	const struct oq_pr_sink *sink;
	struct oq_pr_want w;
	uint8_t method;
	bool want_reversible;
	unsigned int iterations;
	uint16_t slid, dlid;	    /* fixed by the request, 0 otherwise */
	const uint8_t *sgid, *dgid; /* echoed GIDs, NULL otherwise */
	const struct oq_port *requester;
	unsigned long count; /* records so far */
	bool stop;	     /* the sink refused a record */
	/* Where a pair's first record's forward path is kept for the sink
	 * (oq_pr_pair.path); NULL: not kept. */
	struct oq_path *fwd;
};

/* One LID pair: true when a record was made.  rev: the decision for the
 * reverse direction (reversibility is judged under it). */
bool oq_sa_lid_pair(struct oq_sa_answering *r, struct oq_pr_pair *pair,
		    const struct oq_decision *rev, uint16_t slid, uint16_t dlid,
		    uint8_t pref);
unsigned int oq_sa_port_pair(struct oq_sa_answering *r,
			     const struct oq_alias *src,
			     const struct oq_alias *dst);

#endif /* OSMQOS_SA_PATH_INT_H */
