/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The shortest route between two end ports of a fabric (fabric_route.c):
 * what `osmqos predict --path` predicts along and the directed route
 * job-env's stale fabric check sends its SMPs by. */
#ifndef OSMQOS_CLI_FABRIC_ROUTE_H
#define OSMQOS_CLI_FABRIC_ROUTE_H

#include <stddef.h>

#include <osmqos/fabric.h>

/*
 * The fewest hops from src to dst over f's links, forwarded by switches
 * only: eg[i] is the port the route leaves its i-th node by (eg[0] is src
 * for a CA or router; from a switch's port 0, the port its first hop
 * leaves by), the last one linked to dst (to any port of dst's switch when
 * dst is a switch's).  Returns the hops, 0 when src and dst are on one
 * node, -1 when there is no route of at most max hops (or no memory).
 */
int oq_fabric_route(const struct oq_fabric *f, const struct oq_port *src,
		    const struct oq_port *dst, const struct oq_port **eg,
		    size_t max);

#endif /* OSMQOS_CLI_FABRIC_ROUTE_H */
