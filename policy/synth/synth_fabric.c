// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Intents over a whole fabric: ports are grouped into classes by what
 * the synthesizer reads (VLs, VLArb table sizes, MTU, whether SL2VL and
 * VLArb are free or kept and what the kept ones are, and the link rate
 * for the reports), each class is synthesized once, and the result is
 * written into the compiled tables of each of its ports.  A fat tree has
 * a handful of classes however many ports it has: one hash lookup per
 * port plus one synthesis per class.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/port_class.h>
#include <osmqos/synth.h>

/* The kept SL2VL's distinct rows (inputs that count; a port with one
 * table, or a switch port no input counts for, its first row); -1 when
 * there are more than the synthesizer takes. */
static int kept_rows(const struct oq_fabric *f, const struct oq_port_tables *pt,
		     struct oq_synth_port *in)
{
	uint8_t rows[256][16];
	size_t k = 0;

	if (pt->n_sl2vl > 1)
		k = oq_port_input_rows(f, pt, rows);
	if (!k && pt->n_sl2vl) {
		memcpy(rows[0], pt->sl2vl[0], 16);
		k = 1;
	}
	if (k > OQ_SYNTH_MAX_ROWS)
		return -1;
	memcpy(in->rows, rows, k * 16);
	in->n_rows = k;
	return 0;
}

/* The class key of one port: everything the synthesizer reads, and the
 * link rate (reports, latency); -1 when the port is refused. */
static int port_key(const struct oq_fabric *f, const struct oq_port_tables *pt,
		    bool engine_sl2vl, struct oq_class_keys *k,
		    struct oq_synth_port *in, bool *vlarb_kept)
{
	const struct oq_port *p = pt->port;
	uint8_t hdr[8];

	memset(in, 0, sizeof(*in));
	in->vls = oq_port_data_vls(p);
	in->cap_high = oq_vlarb_effective_cap(p->vlarb_high_cap);
	in->cap_low = oq_vlarb_effective_cap(p->vlarb_low_cap);
	in->mtu = oq_port_mtu_bytes(f, p);
	in->rate_gbps = oq_port_data_gbps(p);
	in->has_vlarb = pt->has_vlarb;
	in->has_sl2vl = pt->has_sl2vl && pt->sl2vl && pt->n_sl2vl;
	in->sl2vl_fixed = !in->has_sl2vl || engine_sl2vl ||
			  pt->sl2vl_origin == OQ_ORIGIN_SCOPE ||
			  pt->sl2vl_origin == OQ_ORIGIN_ENGINE ||
			  pt->sl2vl_unknown;
	*vlarb_kept = pt->has_vlarb && pt->vlarb_origin == OQ_ORIGIN_SCOPE;
	if (pt->sl2vl_unknown)
		return -1;
	/* A scope's VLArb is checked under the port's own SL2VL rows,
	 * chosen or not: they belong in the key. */
	if (in->has_sl2vl && (in->sl2vl_fixed || *vlarb_kept) &&
	    kept_rows(f, pt, in))
		return -1;
	hdr[0] = (uint8_t)in->vls;
	hdr[1] = (uint8_t)in->cap_high;
	hdr[2] = (uint8_t)in->cap_low;
	hdr[3] = (uint8_t)(in->has_vlarb | in->has_sl2vl << 1 |
			   in->sl2vl_fixed << 2 | *vlarb_kept << 3);
	hdr[4] = p->width;
	hdr[5] = (uint8_t)p->speed;
	hdr[6] = (uint8_t)in->n_rows;
	hdr[7] = 0;
	oq_class_key_start(k);
	oq_class_key_put(k, hdr, sizeof(hdr));
	oq_class_key_put(k, &in->mtu, sizeof(in->mtu));
	oq_class_key_put(k, in->rows, in->n_rows * 16);
	if (*vlarb_kept) {
		oq_class_key_put(k, &pt->vlarb_high, sizeof(pt->vlarb_high));
		oq_class_key_put(k, &pt->vlarb_low, sizeof(pt->vlarb_low));
		oq_class_key_put(k, &pt->vl_high_limit, 1);
	}
	return 0;
}

/* A class's tables: synthesized, or for a scope's VLArb only checked. */
static void class_solve(struct oq_synth_class *c,
			const struct oq_sl_intents *it,
			const struct oq_port_tables *pt)
{
	struct oq_synth_result *r = &c->r;
	unsigned int s;

	if (!c->vlarb_kept) {
		if (oq_synth_port(&c->in, it, r)) {
			memset(r, 0, sizeof(*r));
			for (s = 0; s < 16; s++)
				r->share[s] = oq_frac_make(0, 1);
			r->fail_sl = -1;
			r->status = OQ_SYNTH_INFEASIBLE;
			snprintf(r->why, sizeof(r->why),
				 "the port's limits are out of the "
				 "synthesizer's range");
		}
		return;
	}
	memset(r, 0, sizeof(*r));
	for (s = 0; s < 16; s++) {
		r->share[s] = oq_frac_make(0, 1);
		r->wait[s] = OQ_WAIT_UNBOUNDED;
	}
	r->high = pt->vlarb_high;
	r->low = pt->vlarb_low;
	r->limit = pt->vl_high_limit;
	if (c->in.n_rows)
		memcpy(r->sl2vl, c->in.rows[0], 16);
	else if (pt->has_sl2vl && pt->sl2vl)
		memcpy(r->sl2vl, pt->sl2vl[0], 16);
	/* Checked under the port's own rows, all of them. */
	if (oq_synth_check(&c->in, it, r)) {
		r->fail_sl = -1;
		r->status = OQ_SYNTH_INFEASIBLE;
	}
}

/* The class of the key built: found, or appended and solved. */
static uint32_t find_or_add(struct oq_synth_plan *pl, struct oq_class_keys *k,
			    size_t *v_cap, const struct oq_synth_port *in,
			    bool vlarb_kept, const struct oq_port_tables *pt,
			    size_t rep)
{
	struct oq_synth_class *c;
	uint32_t i;
	int rc = oq_class_key_find(k, &i);

	if (rc < 0)
		return OQ_SYNTH_NONE;
	if (!rc)
		return i;
	if (pl->n == *v_cap) {
		size_t nc = *v_cap ? *v_cap * 2 : 16;
		struct oq_synth_class *nv = realloc(pl->v, nc * sizeof(*nv));

		if (!nv)
			return OQ_SYNTH_NONE;
		pl->v = nv;
		*v_cap = nc;
	}
	c = &pl->v[pl->n];
	memset(c, 0, sizeof(*c));
	c->in = *in;
	c->vlarb_kept = vlarb_kept;
	c->width = pt->port->width;
	c->speed = pt->port->speed;
	c->rep = rep;
	class_solve(c, &pl->intents, pt);
	oq_class_key_set(k, (uint32_t)pl->n);
	return (uint32_t)pl->n++;
}

/* Put a class's tables into one port; -1 when out of memory. */
static int apply_port(const struct oq_synth_class *c,
		      struct oq_fabric_tables *t, struct oq_port_tables *pt)
{
	const struct oq_synth_result *r = &c->r;

	if (c->vlarb_kept || (r->status != OQ_SYNTH_OK && !r->fallback))
		return 0;
	if (pt->has_vlarb) {
		pt->vlarb_high = r->high;
		pt->vlarb_low = r->low;
		pt->vl_high_limit = r->limit;
		pt->vlarb_origin = OQ_ORIGIN_INTENT;
		pt->vlarb_scope = -1;
	}
	if (!c->in.sl2vl_fixed && pt->has_sl2vl && pt->sl2vl) {
		/* Every input's row, as one shared block (its drop masks
		 * are the block's). */
		if (oq_port_tables_fill_sl2vl(t, pt, r->sl2vl, pt->n_sl2vl))
			return -1;
		pt->sl2vl_origin = OQ_ORIGIN_INTENT;
		pt->sl2vl_scope = -1;
	}
	return 0;
}

static const char *level_name(const struct oq_policy *p, int l)
{
	return l >= 0 && (size_t)l < p->n_levels && p->levels[l].name
		       ? p->levels[l].name
		       : "(unnamed)";
}

static void class_label(const struct oq_fabric *f,
			const struct oq_synth_class *c, size_t n_ports,
			char *buf, size_t len)
{
	const struct oq_port *p = f->ports[c->rep];
	char name[96];

	if (oq_port_name(p, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "port %u", p->num);
	snprintf(buf, len,
		 "%zu port(s) like %s (0x%016" PRIx64 "): %u data VL(s), "
		 "MTU %u, VLArb %u/%u entries%s",
		 n_ports, name, p->guid, c->in.vls, c->in.mtu, c->in.cap_high,
		 c->in.cap_low,
		 c->in.sl2vl_fixed && c->in.has_sl2vl ? ", SL2VL kept" : "");
}

/* Classes that differ only in link rate get the same tables and the same
 * bandwidth findings: said once, with their ports together.  The first
 * class with the synthesizer's inputs of class i. */
static size_t same_findings(const struct oq_synth_plan *pl, size_t i)
{
	const struct oq_synth_class *c = &pl->v[i];
	bool lat = false;
	unsigned int s;
	size_t k;

	/* Latency findings are in microseconds: the rate matters. */
	for (s = 0; s < 16; s++)
		lat |= pl->intents.lat_ns[s] != 0;
	for (k = 0; k < i; k++) {
		const struct oq_synth_class *o = &pl->v[k];

		if (o->vlarb_kept == c->vlarb_kept &&
		    o->r.status == c->r.status && o->r.merged == c->r.merged &&
		    o->r.lat_fail == c->r.lat_fail &&
		    (!lat || o->in.rate_gbps == c->in.rate_gbps) &&
		    o->in.vls == c->in.vls && o->in.mtu == c->in.mtu &&
		    o->in.cap_high == c->in.cap_high &&
		    o->in.cap_low == c->in.cap_low &&
		    o->in.has_vlarb == c->in.has_vlarb &&
		    o->in.has_sl2vl == c->in.has_sl2vl &&
		    o->in.sl2vl_fixed == c->in.sl2vl_fixed &&
		    o->in.n_rows == c->in.n_rows &&
		    !memcmp(o->in.rows, c->in.rows, c->in.n_rows * 16) &&
		    !memcmp(o->r.share, c->r.share, sizeof(c->r.share)))
			return k;
	}
	return i;
}

static void pct(struct oq_frac f, char *buf, size_t len)
{
	snprintf(buf, len, "%.2f%%", oq_frac_double(f) * 100.0);
}

/* A high-priority level is also capped at its intent: say so where the
 * tables let it take more of a busy link (a high table with no room for
 * best effort, or no low VL to fill it from: IBA then hands the high
 * table at least one packet per low packet). */
static void cap_warnings(const struct oq_policy *p,
			 const struct oq_sl_intents *it,
			 const struct oq_synth_result *r, const char *label,
			 struct oq_diags *d)
{
	unsigned int s;

	for (s = 0; s < 16; s++) {
		struct oq_diag *dg;
		double got;

		if (!(it->high & it->sls & (1u << s)))
			continue;
		got = oq_frac_double(r->share[s]) * 10000.0;
		if (got <= it->need_bp[s] + 200.0)
			continue;
		dg = oq_warning(d, p->levels[it->level[s]].bandwidth_loc,
				"qos-level '%s' (SL %u, high priority) takes "
				"%.2f%% of a busy link on %s, more than its "
				"%u.%02u%%",
				level_name(p, it->level[s]), s, got / 100.0,
				label, it->need_bp[s] / 100,
				it->need_bp[s] % 100);
		oq_diag_hint(dg, "VLHighLimit lets at least one high packet "
				 "through per low packet; the rest of the high "
				 "table is filled from a low VL when its "
				 "entries leave room");
	}
}

/* Where a level's intents are written: bandwidth:, else latency:. */
static struct oq_loc intent_loc(const struct oq_qos_level *lv)
{
	return lv->bandwidth_bp > 0 ? lv->bandwidth_loc : lv->latency_loc;
}

/* SLs of a mask as runs: "SL 3", "SL 3-15", "SL 1, 3-15". */
static void sl_runs(FILE *f, uint16_t m)
{
	unsigned int s = 0, e;
	bool first = true;

	while (s < 16) {
		if (!(m & (1u << s))) {
			s++;
			continue;
		}
		for (e = s; e + 1 < 16 && (m & (1u << (e + 1))); e++)
			;
		fprintf(f, first ? "SL %u" : ", %u", s);
		if (e > s)
			fprintf(f, "-%u", e);
		first = false;
		s = e + 1;
	}
}

/* The SLs on one shared VL in words: the intent levels with their SLs,
 * best effort, and the SLs no level grants.  NULL when out of memory. */
static char *shared_names(const struct oq_policy *p,
			  const struct oq_sl_intents *it, uint16_t on_vl,
			  uint16_t granted)
{
	uint16_t sls = on_vl & it->sls,
		 others = on_vl & (uint16_t)~granted & (uint16_t)~it->sls;
	char *text = NULL;
	size_t len = 0;
	unsigned int s;
	bool first = true;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	for (s = 0; s < 16; s++)
		if (sls & (1u << s)) {
			fprintf(f, "%s'%s' (SL %u)", first ? "" : ", ",
				level_name(p, it->level[s]), s);
			first = false;
		}
	if (on_vl & granted & ~it->sls)
		fputs(" and best effort", f);
	if (others) {
		bool many = __builtin_popcount(others) > 1;

		fputs(" and ", f);
		sl_runs(f, others);
		fprintf(f, " (no level grants %s; a job may set %s itself)",
			many ? "them" : "it", many ? "them" : "it");
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/* Intent SLs that share a VL with other SLs (the port ran out of VLs,
 * or a kept SL2VL puts them together; an SL no level grants counts too:
 * a job may set it itself): met as a group only; the group's guarantee
 * is theirs together, with the levels and SLs named in full. */
static void shared_warnings(const struct oq_policy *p,
			    const struct oq_sl_intents *it,
			    const struct oq_synth_result *r, const char *label,
			    struct oq_diags *d)
{
	uint16_t granted = oq_policy_granted_sls(p);
	unsigned int v, s;

	for (v = 0; v < OQ_MAX_VLS; v++) {
		uint16_t sls = r->vl_sls[v] & it->sls;
		char got[32], *names;
		struct oq_diag *dg;
		uint32_t need = 0;

		if (!sls || __builtin_popcount(r->vl_sls[v]) < 2)
			continue;
		for (s = 0; s < 16; s++)
			if (sls & (1u << s))
				need += it->need_bp[s];
		names = shared_names(p, it, r->vl_sls[v], granted);
		pct(r->share[__builtin_ctz(sls)], got, sizeof(got));
		dg = oq_warning(
			d,
			intent_loc(&p->levels[it->level[__builtin_ctz(sls)]]),
			"%s share VL %u on %s: the %s guaranteed there "
			"is the group's (%u.%02u%% of intents), not "
			"each level's",
			names ? names : "intent SLs and others", v, label, got,
			need / 100, need % 100);
		free(names);
		oq_diag_hint(dg, "within a VL packets go in order whatever "
				 "their SL: give each intent SL a VL of its "
				 "own (ports with more VLs, or an sl2vl-scope "
				 "that maps the other SLs elsewhere; VL 15 "
				 "drops them)");
	}
}

/* One level's finding on a class whose intents are not met. */
static void level_finding(const struct oq_policy *p,
			  const struct oq_sl_intents *it,
			  const struct oq_synth_class *c, int l,
			  const char *label, struct oq_diags *d)
{
	const struct oq_qos_level *lv = &p->levels[l];
	const struct oq_synth_result *r = &c->r;
	char got[32], best[32];
	struct oq_diag *dg;
	unsigned int s;

	if ((lv->bandwidth_bp <= 0 && !lv->latency_ns) || lv->sl < 0)
		return;
	s = (unsigned int)lv->sl;
	if (r->lat_fail) {
		double us = oq_wait_us(r->best_wait, c->in.rate_gbps);

		if ((int)s != r->fail_sl || !lv->latency_ns)
			return;
		if (us < 0)
			snprintf(best, sizeof(best), "unbounded");
		else
			snprintf(best, sizeof(best), "%.3f us", us);
		dg = c->vlarb_kept
			     ? oq_warning(
				       d, lv->latency_loc,
				       "qos-level '%s' (SL %u) wants to wait "
				       "at most %.3f us at a port but a "
				       "vlarb-scope makes it wait up to %s "
				       "on %s",
				       level_name(p, l), s,
				       (double)lv->latency_ns / 1000.0, best,
				       label)
			     : oq_error(d, lv->latency_loc,
					"qos-level '%s' (SL %u) cannot wait at "
					"most %.3f us at a port of %s: %s; the "
					"smallest worst wait reached there is "
					"%s",
					level_name(p, l), s,
					(double)lv->latency_ns / 1000.0, label,
					r->why, best);
		oq_diag_hint(dg, "a latency intent counts the packet on the "
				 "wire and every other VL busy with full "
				 "packets (MTU + 126 bytes): raise it, lower "
				 "the MTU or the other intents, or make the "
				 "level priority: high");
		return;
	}
	if (lv->bandwidth_bp <= 0)
		return;
	if (oq_frac_meets_bp(r->share[s], it->need_bp[s]) &&
	    (int)s != r->fail_sl)
		return;
	pct(r->share[s], got, sizeof(got));
	if (c->vlarb_kept) {
		dg = oq_warning(
			d, lv->bandwidth_loc,
			"qos-level '%s' (SL %u) wants %u.%02u%%%s but a "
			"vlarb-scope gives it %s on %s",
			level_name(p, l), s, it->need_bp[s] / 100,
			it->need_bp[s] % 100,
			it->need_bp[s] != (uint32_t)lv->bandwidth_bp
				? " (its SL's intents added up)"
				: "",
			got, label);
		oq_diag_hint(dg, "the scope wins on the ports it covers: "
				 "change its weights, or drop it and let the "
				 "intents choose");
		return;
	}
	pct(r->best, best, sizeof(best));
	dg = oq_error(d, lv->bandwidth_loc,
		      "qos-level '%s' (SL %u) cannot get %u.%02u%%%s on %s: "
		      "%s; the best it gets next to the other intents is %s",
		      level_name(p, l), s, it->need_bp[s] / 100,
		      it->need_bp[s] % 100,
		      it->need_bp[s] != (uint32_t)lv->bandwidth_bp
			      ? " (its SL's intents added up)"
			      : "",
		      label, r->why, (int)s == r->fail_sl ? best : got);
	oq_diag_hint(dg, "lower the intents (they hold together, with every "
			 "VL busy), or give these ports more VLs or larger "
			 "VLArb tables");
}

static void report(const struct oq_policy *p, const struct oq_fabric *f,
		   const struct oq_synth_plan *pl, struct oq_diags *d)
{
	const struct oq_sl_intents *it = &pl->intents;
	size_t i, l, *first, *ports;

	/* Findings once per set of classes with equal inputs (quadratic in
	 * classes, which are few: a handful on a fat tree). */
	first = calloc(pl->n ? pl->n : 1, sizeof(*first));
	ports = calloc(pl->n ? pl->n : 1, sizeof(*ports));
	if (!first || !ports) {
		free(first);
		free(ports);
		oq_error(d, p->levels[0].loc,
			 "out of memory for the intents' "
			 "findings");
		return;
	}
	for (i = 0; i < pl->n; i++) {
		first[i] = same_findings(pl, i);
		ports[first[i]] += pl->v[i].n_ports;
	}

	for (i = 0; i < pl->n; i++) {
		const struct oq_synth_class *c = &pl->v[i];
		const struct oq_synth_result *r = &c->r;
		char label[256];

		if (!c->n_ports || first[i] != i)
			continue;
		class_label(f, c, ports[i], label, sizeof(label));
		if (r->status == OQ_SYNTH_OK)
			shared_warnings(p, it, r, label, d);
		if (r->status == OQ_SYNTH_OK && !c->vlarb_kept)
			cap_warnings(p, it, r, label, d);
		if (r->status == OQ_SYNTH_OK)
			continue;
		for (l = 0; l < p->n_levels; l++)
			level_finding(p, it, c, (int)l, label, d);
	}
	free(first);
	free(ports);
}

int oq_synth_apply(const struct oq_policy *p, const struct oq_fabric *f,
		   const struct oq_engine *e, struct oq_fabric_tables *t,
		   struct oq_synth_plan *out, struct oq_diags *d)
{
	struct oq_class_keys k = {0};
	size_t v_cap = 0;
	bool engine_sl2vl = e && e->kind != OQ_ENGINE_QOS;
	const struct oq_port *refused = NULL;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!oq_policy_intents(p, &out->intents))
		return 0;
	/* SL2VL rows are rewritten below: a summary of them would be
	 * stale (each port's own drop masks go as its rows change). */
	free(t->no_drop);
	t->no_drop = NULL;
	out->n_ports = t->n;
	out->of_port = malloc((t->n ? t->n : 1) * sizeof(*out->of_port));
	if (!out->of_port)
		goto oom;
	for (i = 0; i < t->n; i++) {
		struct oq_port_tables *pt = &t->ports[i];
		const struct oq_port *port = pt->port;
		struct oq_synth_port in;
		bool kept;
		uint32_t c;

		out->of_port[i] = OQ_SYNTH_NONE;
		if (!port || !port->present || !oq_port_peer(f, port) ||
		    (!pt->has_vlarb && !pt->has_sl2vl))
			continue;
		if (port_key(f, pt, engine_sl2vl, &k, &in, &kept)) {
			if (!out->n_unchecked++)
				refused = port;
			continue;
		}
		c = find_or_add(out, &k, &v_cap, &in, kept, pt, i);
		if (c == OQ_SYNTH_NONE)
			goto oom;
		out->of_port[i] = c;
		out->v[c].n_ports++;
		if (apply_port(&out->v[c], t, pt))
			goto oom;
		if (!out->v[c].vlarb_kept &&
		    (out->v[c].r.status == OQ_SYNTH_OK || out->v[c].r.fallback))
			out->n_applied++;
	}
	for (i = 0; i < out->n; i++) {
		if (out->v[i].r.status == OQ_SYNTH_OK)
			continue;
		if (out->v[i].vlarb_kept)
			out->n_missed++;
		else
			out->n_infeasible++;
		out->ports_missed += out->v[i].n_ports;
	}
	oq_class_keys_free(&k);
	report(p, f, out, d);
	if (refused) {
		char name[96];
		struct oq_diag *dg;

		if (oq_port_name(refused, name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "port %u", refused->num);
		dg = oq_warning(
			d,
			intent_loc(&p->levels[out->intents.level[__builtin_ctz(
				out->intents.sls)]]),
			"bandwidth intents not checked on %zu port(s) "
			"(first: %s): their SL2VL is the routing "
			"engine's and not known here, or has more than "
			"%d distinct input rows; they keep their tables",
			out->n_unchecked, name, OQ_SYNTH_MAX_ROWS);
		oq_diag_hint(dg, "the plugin checks what it can see; a "
				 "live check (osmqos drift) reads the tables "
				 "back");
	}
	return 0;
oom:
	oq_class_keys_free(&k);
	oq_synth_plan_free(out);
	return -1;
}

void oq_synth_plan_free(struct oq_synth_plan *plan)
{
	if (!plan)
		return;
	free(plan->v);
	free(plan->of_port);
	memset(plan, 0, sizeof(*plan));
}

const struct oq_synth_class *oq_synth_class_of(const struct oq_synth_plan *pl,
					       size_t i)
{
	if (!pl || !pl->of_port || i >= pl->n_ports ||
	    pl->of_port[i] == OQ_SYNTH_NONE)
		return NULL;
	return &pl->v[pl->of_port[i]];
}
