// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `osmqos predict --path SRC DST --sl N`: the predicted and the
 * guaranteed bandwidth of one SL along the shortest route, hop by hop.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <osmqos/fabric.h>
#include <osmqos/json.h>
#include <osmqos/model.h>
#include <osmqos/tables.h>

#include "cli.h"
#include "fabric_route.h"
#include "inputs.h"
#include "predict.h"

#define CMD	 "predict"
#define MAX_HOPS 64

/* An end of --path: a switch, or one of its external ports, is the
 * switch's port 0, its end port, as in match.  From port 0 the traffic
 * leaves through the switch's SL2VL row for input port 0. */
static const struct oq_port *path_end(const struct oq_fabric *f,
				      const char *spec)
{
	const struct oq_port *p = oq_cli_port(CMD, f, "--path", spec, NULL);

	if (p && !oq_port_is_endport(p))
		p = &p->node->ports[0];
	return p;
}

int oq_cli_predict_path(const struct oq_fabric *f,
			const struct oq_fabric_tables *t, const char *s_src,
			const char *s_dst, int sl,
			const struct oq_predict_opts *o, bool json)
{
	const struct oq_port *src, *dst, *eg[MAX_HOPS];
	struct oq_path_hop hops[MAX_HOPS];
	struct oq_hop_guarantee hg[MAX_HOPS];
	struct oq_path_guarantee pg;
	struct oq_port_pred scratch;
	struct oq_path_pred pp;
	int in[MAX_HOPS], n, i;
	char name[96], fb[48];

	src = path_end(f, s_src);
	dst = src ? path_end(f, s_dst) : NULL;
	if (!src || !dst)
		return OQ_EXIT_USAGE;
	n = oq_fabric_route(f, src, dst, eg, MAX_HOPS);
	if (n < 0) {
		fprintf(stderr,
			"osmqos predict: no route from %s to %s in the "
			"topology (check both are connected)\n",
			s_src, s_dst);
		return OQ_EXIT_FAIL;
	}
	if (n == 0)
		return oq_usage_error(CMD, "--path: SRC and DST are on the "
					   "same node; nothing to predict");
	for (i = 0; i < n; i++) {
		/* Input port 0 at the first hop: the source's own traffic. */
		in[i] = i ? oq_port_peer(f, eg[i - 1])->num : 0;
		hops[i].t = &t->ports[oq_port_index(f, eg[i])];
		hops[i].in_port = in[i];
		hops[i].rate_gbps = -1.0;
	}
	if (oq_predict_path(f, hops, (size_t)n, (uint8_t)sl, o, &pp, &scratch))
		return oq_usage_error(CMD, "--path: prediction failed (bad "
					   "--sl or packet size?)");
	/* What holds whatever the others send, at each hop: the SL's VL
	 * with every VL busy, and its worst wait; the path adds the waits. */
	memset(&pg, 0, sizeof(pg));
	for (i = 0; i < n; i++) {
		if (oq_port_hop(f, hops[i].t, in[i], (uint8_t)sl, &hg[i])) {
			memset(&hg[i], 0, sizeof(hg[i]));
			hg[i].vl = OQ_VL_NONE;
			hg[i].wait_us = -1.0;
		}
		oq_path_guarantee_add(&pg, &hg[i]);
	}
	if (json) {
		/* guaranteed_gbps is the predicted figure under its first
		 * name, kept for readers of that name. */
		printf("{\"path\": {\"sl\": %d, \"predicted_gbps\": %.6g, "
		       "\"guaranteed_gbps\": %.6g, "
		       "\"dropped\": %s, \"bottleneck\": %zu, "
		       "\"vl_guaranteed_gbps\": ",
		       sl, pp.gbps, pp.gbps, pp.dropped ? "true" : "false",
		       pp.bottleneck);
		/* A hop whose SL2VL is not known: no path guarantee. */
		if (pg.unknown)
			printf("null, \"basis\": \"unknown\"");
		else
			printf("%.6g, \"basis\": \"%s\"", pg.gbps,
			       pg.shared ? "vl-group" : "sl");
		printf(", \"latency_us\": ");
		if (pg.wait_us >= 0)
			printf("%.6g", pg.wait_us);
		else
			printf("null");
		printf(", \"latency_is_bound\": %s, \"hops\": [",
		       pg.wait_bound ? "true" : "false");
	} else {
		printf("SL%d from %s to %s, %d hop(s):\n", sl, s_src, s_dst, n);
	}
	for (i = 0; i < n; i++) {
		struct oq_predict_opts ho = *o;
		const struct oq_sl_pred *sp;
		char vb[8];

		ho.in_port = hops[i].t->n_sl2vl > 1 ? in[i] : OQ_IN_AGGREGATE;
		if (ho.active_sls)
			ho.active_sls |= (uint16_t)(1u << sl);
		oq_predict_port(f, hops[i].t, -1.0, &ho, &scratch);
		sp = &scratch.sl[sl];
		oq_port_name(eg[i], name, sizeof(name));
		oq_frac_format(sp->share, fb, sizeof(fb));
		if (json) {
			printf("%s{\"guid\": \"0x%016llx\", \"port\": %u, "
			       "\"name\": ",
			       i ? ", " : "", (unsigned long long)eg[i]->guid,
			       eg[i]->num);
			oq_json_fstring(stdout, name);
			printf(", \"in_port\": %d, \"rate_gbps\": %.6g, ",
			       in[i], scratch.rate_gbps);
			oq_predict_json_sl_share(sp);
			printf(", \"vl_guaranteed_gbps\": ");
			if (hg[i].unknown)
				printf("null");
			else
				printf("%.6g", hg[i].gbps);
			printf(", \"wait_us\": ");
			if (hg[i].wait_us >= 0)
				printf("%.6g", hg[i].wait_us);
			else
				printf("null");
			putchar('}');
		} else {
			char wb[24];

			if (hg[i].unknown)
				snprintf(wb, sizeof(wb), "unknown");
			else if (hg[i].wait_us >= 0)
				snprintf(wb, sizeof(wb), "%.3f us",
					 hg[i].wait_us);
			else
				snprintf(wb, sizeof(wb), "unbounded");
			printf("  %c %-28s in %-3d %7.2f Gb/s  VL%-5s %-6s "
			       "share %-10s -> %8.2f Gb/s  wait %s\n",
			       (size_t)i == pp.bottleneck ? '*' : ' ', name,
			       in[i], scratch.rate_gbps,
			       oq_predict_vl_text(sp->vl, vb, sizeof(vb)),
			       oq_prio_name(sp->prio), fb, sp->gbps, wb);
		}
	}
	oq_port_name(eg[pp.bottleneck], name, sizeof(name));
	if (json) {
		printf("], \"bottleneck_port\": ");
		oq_json_fstring(stdout, name);
		printf("}}\n");
	} else {
		printf("predicted (all SLs backlogged, a VL's share split "
		       "equally among its SLs): %.2f Gb/s, bottleneck %s%s\n",
		       pp.gbps, name,
		       pp.dropped ? " (SL dropped on the way: VL15)" : "");
		if (pg.unknown)
			printf("guaranteed: unknown, and worst wait unknown: "
			       "some hop's SL2VL is set by the routing engine "
			       "and known only to the running opensm (osmqos "
			       "drift on the live fabric reads it)\n");
		else if (pg.wait_us < 0)
			printf("guaranteed (every VL busy, MTU-size packets): "
			       "%.2f Gb/s, the %s; worst wait unbounded (some "
			       "hop's)\n",
			       pg.gbps, pg.shared ? "VL group's" : "SL's own");
		else
			printf("guaranteed (every VL busy, MTU-size packets): "
			       "%.2f Gb/s, the %s; worst wait %s%.3f us (the "
			       "hops' waits added up)\n",
			       pg.gbps, pg.shared ? "VL group's" : "SL's own",
			       pg.wait_bound ? "at most " : "", pg.wait_us);
	}
	return OQ_EXIT_OK;
}
