// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: intents over whole fabrics (policy/synth/synth_fabric.c),
 * as the plugin applies them every sweep: the worked example on mixed
 * hardware, a routing engine that keeps SL2VL, a qos-setup scope that
 * wins and misses, the high-priority cap warning, and 1,000 random
 * fabrics whose published guarantees are checked port by port.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/file.h>
#include <osmqos/match.h>
#include <osmqos/pred_class.h>
#include <osmqos/synth.h>

#include "match_fixture.h"
#include "arbsim.h"
#include "synth_test_util.h"

/* ---- a whole fabric -------------------------------------------------- */

/* contrib/policies/intents.conf on contrib/fabrics/mixed-caps.net (mixed
 * MTUs, VL counts and table sizes), compiled for a routing engine, then
 * the intents applied: what the plugin does every sweep. */
struct fab {
	struct oq_fabric *f;
	struct oq_policy *p;
	struct oq_binding *b;
	struct oq_templates t;
	struct oq_engine e;
	struct oq_fabric_tables tables, before;
	struct oq_synth_plan plan;
	struct oq_diags d;
};

static void fab_load(struct fab *x, const char *engine, const char *extra,
		     bool small)
{
	char *text, *both, *k;
	size_t len, elen = extra ? strlen(extra) : 0;

	memset(x, 0, sizeof(*x));
	oq_diags_init(&x->d);
	x->f = oq_topology_load(OQ_SRCDIR "/contrib/fabrics/mixed-caps.net",
				&x->d);
	assert_non_null(x->f);
	text = oq_file_read(OQ_SRCDIR "/contrib/policies/intents.conf",
			    OQ_POLICY_MAX_BYTES, &len);
	assert_non_null(text);
	/* Intents the template's SL2VL can meet: it puts SL 1 and SL 2 on
	 * a VL with 1 (8 VLs) or 3 (4 VLs) other SLs. */
	if (small) {
		k = strstr(text, "bandwidth: 40%");
		assert_non_null(k);
		memcpy(k, "bandwidth: 10%", 14);
		k = strstr(text, "bandwidth: 20%");
		assert_non_null(k);
		memcpy(k, "bandwidth:  5%", 14);
	}
	both = malloc(len + elen + 1);
	assert_non_null(both);
	if (extra && !strncmp(extra, "    qos-level\n", 14)) {
		/* One more level, at the end of the qos-levels block. */
		size_t at = (size_t)(strstr(text, "end-qos-levels") - text);

		memcpy(both, text, at);
		memcpy(both + at, extra, elen);
		memcpy(both + at + elen, text + at, len - at);
	} else {
		memcpy(both, extra ? extra : "", elen);
		memcpy(both + elen, text, len);
	}
	x->p = oq_policy_parse("intents.conf", both, len + elen, &x->d);
	free(text);
	free(both);
	assert_non_null(x->p);
	oq_policy_validate(x->p, &x->d);
	if (oq_diags_has_errors(&x->d))
		oq_diags_print(&x->d, stderr);
	assert_false(oq_diags_has_errors(&x->d));
	x->b = oq_bind(x->p, x->f, NULL, &x->d);
	assert_non_null(x->b);
	oq_templates_default(&x->t);
	assert_int_equal(oq_engine_by_name(&x->e, engine), 0);
	assert_int_equal(oq_tables_compile_engine(x->b, x->f, &x->t, &x->e,
						  &x->before, &x->d),
			 0);
	assert_int_equal(oq_tables_compile_engine(x->b, x->f, &x->t, &x->e,
						  &x->tables, &x->d),
			 0);
	assert_int_equal(
		oq_synth_apply(x->p, x->f, &x->e, &x->tables, &x->plan, &x->d),
		0);
}

static void fab_free(struct fab *x)
{
	oq_synth_plan_free(&x->plan);
	oq_fabric_tables_free(&x->tables);
	oq_fabric_tables_free(&x->before);
	oq_binding_free(x->b);
	oq_policy_free(x->p);
	oq_fabric_free(x->f);
	oq_diags_free(&x->d);
}

/* What the plugin publishes: each linked port's guaranteed share of SL s
 * (its class's minimum over input views) is at least the intent. */
static bool has_msg(const struct oq_diags *d, enum oq_severity sev,
		    const char *a, const char *b)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].sev == sev && strstr(d->v[i].msg, a) &&
		    strstr(d->v[i].msg, b))
			return true;
	return false;
}

static size_t check_published(const struct fab *x)
{
	struct oq_pred_classes c;
	struct oq_predict_opts o;
	size_t i, n = 0;
	unsigned int s;

	oq_predict_opts_init(&o);
	assert_int_equal(oq_pred_classes_build(x->f, &x->tables, &o, NULL, &c),
			 0);
	for (i = 0; i < x->f->n_ports; i++) {
		const struct oq_pred_class *pc = oq_pred_class_of(&c, i);

		if (!pc)
			continue;
		n++;
		for (s = 0; s < 16; s++)
			if (x->plan.intents.sls & (1u << s))
				assert_true(pc->guaranteed_gbps[s] /
						    pc->pred.rate_gbps *
						    10000.0 >=
					    x->plan.intents.need_bp[s] - 1e-6);
	}
	oq_pred_classes_free(&c);
	return n;
}

static void test_fabric_minhop(void **state)
{
	struct fab x;
	size_t i, n;

	(void)state;
	fab_load(&x, NULL, NULL, false);
	assert_int_equal(x.plan.n_infeasible, 0);
	assert_int_equal(x.plan.ports_missed, 0);
	assert_true(x.plan.n >= 4); /* MTU 4096/2048, 8/4 VLs, rates */
	for (i = 0; i < x.tables.n; i++) {
		const struct oq_port_tables *pt = &x.tables.ports[i];

		if (!oq_port_peer(x.f, pt->port) || !pt->has_vlarb)
			continue;
		assert_int_equal(pt->vlarb_origin, OQ_ORIGIN_INTENT);
		assert_int_equal(pt->sl2vl_origin, OQ_ORIGIN_INTENT);
	}
	n = check_published(&x);
	assert_int_equal(n, 16);
	fab_free(&x);
}

/* dfsssp chooses path SLs for deadlock freedom over the template's SL2VL:
 * it stays, VLArb and VLHighLimit are chosen around it. */
static void test_fabric_engine_keeps_sl2vl(void **state)
{
	static const char bulk[] = "    qos-level\n        name: bulk\n"
				   "        sl: 6\n        bandwidth: 10%\n"
				   "    end-qos-level\n";
	struct fab x;
	size_t i;

	(void)state;
	/* The template's SL2VL puts SL 1 on a VL with SLs the policy does
	 * not grant: its VL's share is storage's, 40% met. */
	fab_load(&x, "dfsssp", NULL, false);
	assert_int_equal(x.plan.n_infeasible, 0);
	check_published(&x);
	fab_free(&x);
	/* On the 4-VL ports it puts SL 6 (low) on VL 2 with SL 2 (high):
	 * no weights help there, and the error names the VL. */
	fab_load(&x, "dfsssp", bulk, false);
	assert_true(x.plan.n_infeasible > 0);
	assert_true(has_msg(&x.d, OQ_SEV_ERROR,
			    "qos-level 'bulk' (SL 6) cannot get 10.00%",
			    "puts a high- and a low-priority intent on VL 2"));
	fab_free(&x);
	fab_load(&x, "dfsssp", NULL, true);
	assert_int_equal(x.plan.n_infeasible, 0);
	for (i = 0; i < x.tables.n; i++) {
		const struct oq_port_tables *pt = &x.tables.ports[i];
		const struct oq_port_tables *was = &x.before.ports[i];

		if (!oq_port_peer(x.f, pt->port) || !pt->has_vlarb)
			continue;
		assert_int_equal(pt->vlarb_origin, OQ_ORIGIN_INTENT);
		assert_int_not_equal(pt->sl2vl_origin, OQ_ORIGIN_INTENT);
		assert_int_equal(pt->n_sl2vl, was->n_sl2vl);
		assert_memory_equal(pt->sl2vl, was->sl2vl,
				    (size_t)pt->n_sl2vl * 16);
	}
	for (i = 0; i < x.plan.n; i++)
		assert_true(x.plan.v[i].in.sl2vl_fixed);
	check_published(&x);
	fab_free(&x);
}

/* An explicit vlarb-scope wins on its ports (storage-facing ones here)
 * and is only checked there: equal weights over 8 VLs give SL 1 (which
 * shares its VL under the template's SL2VL) far below its 40%. */
static void test_fabric_scope_wins(void **state)
{
	static const char scope[] =
		"qos-setup\n vlarb-tables\n  vlarb-scope\n"
		"   across: storage\n"
		"   vlarb-low: 0:32,1:32,2:32,3:32,4:32,5:32,6:32,7:32\n"
		"  end-vlarb-scope\n end-vlarb-tables\nend-qos-setup\n";
	struct fab x;
	size_t i, kept = 0;

	(void)state;
	fab_load(&x, NULL, scope, false);
	for (i = 0; i < x.tables.n; i++) {
		const struct oq_port_tables *pt = &x.tables.ports[i];

		if (!oq_port_peer(x.f, pt->port) || !pt->has_vlarb)
			continue;
		if (pt->vlarb_origin == OQ_ORIGIN_SCOPE) {
			kept++;
			assert_int_equal(pt->vlarb_low.e[1].vl, 1);
			assert_int_equal(pt->vlarb_low.e[1].weight, 32);
		}
	}
	/* The new leaf's port facing stor1 (the old leaf's port runs 4 VLs:
	 * the scope's VL 4-7 entries keep it on its template, never a
	 * silent wrap, and the intents take it). */
	assert_int_equal(kept, 1);
	assert_int_equal(x.plan.ports_missed, 1);
	assert_true(x.plan.n_missed >= 1);
	assert_int_equal(x.plan.n_infeasible, 0);
	assert_true(has_msg(&x.d, OQ_SEV_WARNING,
			    "qos-level 'storage' (SL 1) wants 40.00% but a "
			    "vlarb-scope gives it ",
			    "% on 1 port(s) like newleaf/P1"));
	fab_free(&x);
}

/* A high table of one entry has no room to fill from best effort: the
 * high level then takes half of a busy link, and a warning says so. */
static void test_fabric_high_cap_warning(void **state)
{
	static const char text[] = "qos-levels\n qos-level\n  name: DEFAULT\n"
				   "  sl: 0\n end-qos-level\n qos-level\n"
				   "  name: mpi\n  sl: 1\n  priority: high\n"
				   "  bandwidth: 10%\n end-qos-level\n"
				   "end-qos-levels\n";
	struct oq_fabric *f = oq_fabric_new();
	struct oq_node *sw, *a, *b;
	struct oq_fabric_tables t;
	struct oq_synth_plan plan;
	struct oq_binding *bd;
	struct oq_policy *p;
	struct oq_diags d;
	unsigned int i;
	bool warned = false;

	(void)state;
	oq_diags_init(&d);
	sw = fx_switch(f, 0x500000, "sw", 2, 1);
	a = fx_ca(f, 0x1000, "a", 1, 10);
	b = fx_ca(f, 0x2000, "b", 1, 11);
	oq_fabric_link(&a->ports[1], &sw->ports[1]);
	oq_fabric_link(&b->ports[1], &sw->ports[2]);
	for (i = 0; i <= 2; i++)
		fx_caps(&sw->ports[i], 8, 1, 8);
	fx_caps(&a->ports[1], 8, 1, 8);
	fx_caps(&b->ports[1], 8, 1, 8);
	assert_int_equal(oq_fabric_finalize(f, &d), 0);
	p = oq_policy_parse("hi.conf", text, sizeof(text) - 1, &d);
	oq_policy_validate(p, &d);
	assert_false(oq_diags_has_errors(&d));
	bd = oq_bind(p, f, NULL, &d);
	assert_int_equal(oq_tables_compile(bd, f, NULL, &t, &d), 0);
	assert_int_equal(oq_synth_apply(p, f, NULL, &t, &plan, &d), 0);
	assert_int_equal(plan.n_infeasible, 0);
	for (i = 0; i < d.n; i++)
		warned |= d.v[i].sev == OQ_SEV_WARNING &&
			  strstr(d.v[i].msg, "(SL 1, high priority) takes "
					     "50.00% of a busy link") &&
			  strstr(d.v[i].msg, "more than its 10.00%");
	assert_true(warned);
	oq_synth_plan_free(&plan);
	oq_fabric_tables_free(&t);
	oq_binding_free(bd);
	oq_policy_free(p);
	oq_fabric_free(f);
	oq_diags_free(&d);
}

/* ---- property: random fabrics ---------------------------------------- */

static void randomize_caps(struct oq_fabric *f)
{
	static const unsigned int vls[] = {2, 4, 4, 4, 8, 8, 8, 8};
	static const unsigned int caps[] = {8, 16, 32, 64};
	static const enum oq_speed speeds[] = {OQ_SPEED_SDR, OQ_SPEED_QDR,
					       OQ_SPEED_FDR, OQ_SPEED_EDR,
					       OQ_SPEED_HDR};
	static const uint8_t widths[] = {1, 4, 4, 12};
	size_t i;

	for (i = 0; i < f->n_ports; i++) {
		struct oq_port *p = f->ports[i];

		/* One VL is rare: it makes any intent above 1/16 fail. */
		p->vl_cap = p->oper_vls = (uint8_t)(rnd(200) ? vls[rnd(8)] : 1);
		p->mtu_cap = (uint8_t)(1 + rnd(5));
		p->vlarb_high_cap = (uint8_t)caps[rnd(4)];
		p->vlarb_low_cap = (uint8_t)caps[rnd(4)];
		p->width = widths[rnd(4)];
		p->speed = speeds[rnd(5)];
	}
}

static char *random_policy(size_t *len)
{
	char *buf = malloc(4096);
	unsigned int n = 1 + rnd(3), i, used = 0;
	int left = rnd(3) ? 6000 : 9500, k;
	size_t off;

	assert_non_null(buf);
	off = (size_t)snprintf(buf, 4096,
			       "qos-levels\n qos-level\n  name: DEFAULT\n"
			       "  sl: 0\n end-qos-level\n");
	for (i = 0; i < n && left > 100; i++) {
		unsigned int sl = 1 + rnd(15);
		int bp = 50 + (int)rnd((unsigned int)(left / 2 < 2500 ? left / 2
								      : 2500));

		if (used & (1u << sl))
			continue; /* one level per SL: priorities never mix */
		used |= 1u << sl;
		left -= bp;
		k = snprintf(buf + off, 4096 - off,
			     " qos-level\n  name: l%u\n  sl: %u\n"
			     "  bandwidth: %d.%02d%%\n%s",
			     i, sl, bp / 100, bp % 100,
			     rnd(4) ? "" : "  priority: high\n");
		off += (size_t)k;
		/* A latency intent now and then: 0.2-40 us per port. */
		if (!rnd(3))
			off += (size_t)snprintf(buf + off, 4096 - off,
						"  latency: %u.%03u us\n",
						rnd(40), 200 + rnd(800));
		off += (size_t)snprintf(buf + off, 4096 - off,
					" end-qos-level\n");
	}
	off += (size_t)snprintf(buf + off, 4096 - off, "end-qos-levels\n");
	*len = off;
	return buf;
}

/* ---- the simulator confirms what the synthesizer claims ---------------- */

struct sim_stats {
	size_t vls, waits, tight, long_period;
};

/* a/b < c/d, or d 0 (none yet). */
static bool less(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	return !d || (unsigned __int128)a * d < (unsigned __int128)c * b;
}

/* Every VL's share in one exact period of the independent simulator
 * (tests/lib/arbsim.c), every VL the class's SL2VL reaches busy, with
 * MTU-size packets and with full ones of every length: each intent SL's
 * claimed share is its VL's least (over the lengths and the VLs its rows
 * reach), each VL holds its SLs' intents added up, and none starves. */
static void sim_shares(const struct oq_synth_class *c,
		       const struct oq_sl_intents *it, struct sim_stats *st)
{
	static const struct oq_vlarb_table vl0 = {.e = {{0, 255}}, .n = 1};
	uint8_t rows[OQ_SYNTH_MAX_ROWS][16];
	struct oq_port_tables t;
	struct arbsim_cfg sc;
	struct arbsim_out so;
	uint16_t busy = 0, reach[16] = {0};
	uint32_t need[16] = {0}, m = c->in.mtu, edge = (m + 26 + 63) / 64 * 64;
	/* MTU-size packets, and the shortest full packet, the last and
	 * first lengths of a credit more, and the longest (model.h). */
	uint32_t len[5] = {m, m + 26, edge, edge + 1, m + 126};
	uint64_t lo_num[16] = {0}, lo_den[16] = {0};
	unsigned int v, s, k;
	size_t r;

	oq_synth_class_tables(&c->in, &c->r, rows, &t);
	for (r = 0; r < (t.has_sl2vl ? t.n_sl2vl : 1u); r++)
		for (s = 0; s < 16; s++) {
			v = t.has_sl2vl ? t.sl2vl[r][s] : 0;
			if (v >= 15)
				continue;
			if (!t.has_vlarb)
				v = 0;
			if (!(reach[s] & (1u << v)))
				need[v] += it->need_bp[s];
			reach[s] |= (uint16_t)(1u << v);
			busy |= (uint16_t)(1u << v);
		}
	memset(&sc, 0, sizeof(sc));
	sc.hi = t.has_vlarb ? &t.vlarb_high : NULL;
	sc.lo = t.has_vlarb ? &t.vlarb_low : &vl0;
	sc.limit = t.has_vlarb ? t.vl_high_limit : 0;
	sc.busy = busy;
	/* Periods of a million packets and more (small MTUs, long
	 * tables) are beyond a packet-level hash set in a unit test: the
	 * automaton's period length only decides whether to try, as in
	 * test_crosscheck. */
	for (k = 0; k < 5; k++) {
		struct oq_arb_config cfg;
		struct oq_arb_result ar;

		oq_arb_config_init(&cfg, sc.hi, sc.lo, (uint8_t)sc.limit,
				   len[k]);
		cfg.backlog = busy;
		assert_int_equal(oq_arb_run(&cfg, &ar), 0);
		if (ar.cycle_packets > (1u << 16)) {
			st->long_period++;
			return;
		}
	}
	/* The claim holds for MTU-size packets and for full ones of any
	 * headers: the least over the lengths where it can change. */
	for (k = 0; k < 5; k++) {
		for (v = 0; v < 15; v++)
			sc.len[v] = len[k];
		assert_int_equal(arbsim_run(&sc, 1u << 18, &so), 0);
		assert_true(so.found);
		for (v = 0; v < 15; v++) {
			if (!(busy & (1u << v)))
				continue;
			st->vls++;
			assert_true(so.bytes[v] > 0);
			assert_true((unsigned __int128)so.bytes[v] * 10000 >=
				    (unsigned __int128)need[v] *
					    so.period_bytes);
		}
		for (s = 0; s < 16; s++) {
			if (!(it->sls & (1u << s)))
				continue;
			for (v = 0; v < 15; v++) {
				if (!(reach[s] & (1u << v)) ||
				    !less(so.bytes[v], so.period_bytes,
					  lo_num[s], lo_den[s]))
					continue;
				lo_num[s] = so.bytes[v];
				lo_den[s] = so.period_bytes;
			}
		}
	}
	/* The claimed share equals the simulator's least, exactly. */
	for (s = 0; s < 16; s++)
		if (it->sls & (1u << s))
			assert_true((unsigned __int128)c->r.share[s].num *
					    lo_den[s] ==
				    (unsigned __int128)lo_num[s] *
					    c->r.share[s].den);
}

/* The longest any packet of SL s's VL waited in the simulator, under
 * three arrival patterns: always busy; single packets arriving to an
 * empty queue at every offset of the arbiter's cycle (each well after
 * the one before was sent); a random mix.  It must never pass what the
 * synthesizer claims, which must be within the intent. */
static void sim_wait(const struct oq_synth_class *c, unsigned int s,
		     uint64_t claim, struct sim_stats *st)
{
	static const struct oq_vlarb_table vl0 = {.e = {{0, 255}}, .n = 1};
	uint8_t rows[OQ_SYNTH_MAX_ROWS][16];
	uint64_t arrive[256], worst = 0, t0, step;
	struct oq_port_tables t;
	struct arbsim_wait_cfg wc;
	struct arbsim_wait_out wo;
	unsigned int v, pat, k, s2;
	size_t r;

	oq_synth_class_tables(&c->in, &c->r, rows, &t);
	memset(&wc, 0, sizeof(wc));
	wc.hi = t.has_vlarb ? &t.vlarb_high : NULL;
	wc.lo = t.has_vlarb ? &t.vlarb_low : &vl0;
	wc.limit = t.has_vlarb ? t.vl_high_limit : 0;
	/* The claim is for the longest full packet (model.h). */
	wc.len = c->in.mtu + 126;
	for (r = 0; r < (t.has_sl2vl ? t.n_sl2vl : 1u); r++)
		for (s2 = 0; s2 < 16; s2++) {
			v = t.has_sl2vl ? t.sl2vl[r][s2] : 0;
			if (v < 15)
				wc.busy |=
					(uint16_t)(1u << (t.has_vlarb ? v : 0));
		}
	for (v = 0; v < 15; v++) {
		bool reaches = false;

		for (r = 0; r < (t.has_sl2vl ? t.n_sl2vl : 1u); r++)
			reaches |= (t.has_sl2vl ? t.sl2vl[r][s] : 0) == v ||
				   (!t.has_vlarb && v == 0);
		if (!reaches)
			continue;
		wc.vl = v;
		for (pat = 0; pat < 3; pat++) {
			/* Spacing that lets each single packet go before the
			 * next arrives, and an offset stepping through the
			 * cycle one packet at a time. */
			step = 2 * (claim + 2 * (uint64_t)wc.len);
			for (k = 0, t0 = 1; k < 256; k++) {
				if (pat == 0)
					arrive[k] = 1;
				else if (pat == 1)
					t0 += step +
					      2 * (uint64_t)wc.len * (k % 37);
				else
					t0 += rnd(3) ? 1 + 2 * rnd(3 * wc.len)
						     : step;
				if (pat)
					arrive[k] = t0 | 1;
			}
			assert_int_equal(
				arbsim_wait(&wc, arrive, 256, 1u << 22, &wo),
				0);
			assert_false(wo.starved);
			if (wo.worst > worst)
				worst = wo.worst;
		}
	}
	st->waits++;
	assert_true(worst <= claim);
	if (worst == claim)
		st->tight++;
}

static void sim_check(const struct oq_synth_plan *pl, struct sim_stats *st)
{
	size_t i;
	unsigned int s;

	for (i = 0; i < pl->n; i++) {
		const struct oq_synth_class *c = &pl->v[i];

		if (c->r.status != OQ_SYNTH_OK)
			continue;
		sim_shares(c, &pl->intents, st);
		for (s = 0; s < 16; s++) {
			uint64_t lim;

			if (!pl->intents.lat_ns[s])
				continue;
			lim = (uint64_t)((double)pl->intents.lat_ns[s] *
					 c->in.rate_gbps / 8.0);
			assert_true(c->r.wait[s] <= lim);
			sim_wait(c, s, c->r.wait[s], st);
		}
	}
}

/*
 * Under ASan the run checks memory, which the first 300 fabrics of the same
 * sequence do as well as 1,000, at a third of what was the sanitized
 * pass's longest test; make check runs all 1,000.
 */
#ifdef __SANITIZE_ADDRESS__
#define N_RANDOM_FABRICS 300
#else
#define N_RANDOM_FABRICS 1000
#endif

/* N_RANDOM_FABRICS random fabrics (VLs 1-8, MTUs 256-4096, table sizes,
 * rates mixed port by port; a fifth routed by dfsssp, which keeps the
 * template's SL2VL) with random intents, through what the plugin runs
 * every sweep.  Where every class is feasible, the published guarantee
 * (the port classes' minimum over input views) of every intent SL on
 * every linked port is at least its intent and every table is within
 * the port's limits; where not, an error says so. */
static void test_property_random_fabrics(void **state)
{
	unsigned int i, feasible = 0, infeasible = 0, engine = 0;
	struct sim_stats st = {0};
	size_t ports = 0;

	(void)state;
	for (i = 0; i < N_RANDOM_FABRICS; i++) {
		uint64_t frng = synth_rng;
		struct oq_fabric *f =
			fx_random_fabric(&frng, 2 + rnd(5), 1 + rnd(2), 8);
		struct oq_fabric_tables t;
		struct oq_synth_plan plan;
		struct oq_binding *b;
		struct oq_policy *p;
		struct oq_templates tm;
		struct oq_engine e;
		struct oq_diags d;
		size_t len, k;
		char *text;

		rnd(2);
		randomize_caps(f);
		text = random_policy(&len);
		oq_diags_init(&d);
		p = oq_policy_parse("r.conf", text, len, &d);
		assert_non_null(p);
		oq_policy_validate(p, &d);
		assert_false(oq_diags_has_errors(&d));
		b = oq_bind(p, f, NULL, &d);
		assert_non_null(b);
		oq_templates_default(&tm);
		assert_int_equal(
			oq_engine_by_name(&e, rnd(5) ? NULL : "dfsssp"), 0);
		engine += e.kind != OQ_ENGINE_QOS;
		assert_int_equal(
			oq_tables_compile_engine(b, f, &tm, &e, &t, &d), 0);
		assert_int_equal(oq_synth_apply(p, f, &e, &t, &plan, &d), 0);
		for (k = 0; k < t.n; k++) {
			const struct oq_port_tables *pt = &t.ports[k];
			unsigned int j, nv = pt->port->oper_vls;

			if (pt->vlarb_origin != OQ_ORIGIN_INTENT)
				continue;
			assert_true(pt->vlarb_high.n <= OQ_VLARB_MAX);
			assert_true(pt->vlarb_low.n <= OQ_VLARB_MAX);
			assert_true(pt->vl_high_limit < OQ_ARB_UNLIMITED);
			for (j = 0; j < pt->vlarb_low.n; j++)
				assert_true(pt->vlarb_low.e[j].vl < nv);
			for (j = 0; j < pt->vlarb_high.n; j++)
				assert_true(pt->vlarb_high.e[j].vl < nv);
		}
		if (plan.n_infeasible) {
			assert_true(d.n_errors > 0);
			infeasible++;
		} else {
			struct fab x = {.f = f, .tables = t, .plan = plan};

			ports += check_published(&x);
			sim_check(&plan, &st);
			feasible++;
		}
		oq_synth_plan_free(&plan);
		oq_fabric_tables_free(&t);
		oq_binding_free(b);
		oq_policy_free(p);
		oq_fabric_free(f);
		oq_diags_free(&d);
		free(text);
	}
	printf("# %u fabrics: %u feasible (%zu linked ports checked), %u "
	       "refused; %u routed by dfsssp; the simulator confirmed %zu "
	       "VL shares and %zu latency bounds (%zu reached exactly); %zu "
	       "classes' periods too long for it\n",
	       i, feasible, ports, infeasible, engine, st.vls, st.waits,
	       st.tight, st.long_period);
	assert_true(feasible > N_RANDOM_FABRICS / 5);
	assert_true(infeasible > N_RANDOM_FABRICS / 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_property_random_fabrics),
		cmocka_unit_test(test_fabric_minhop),
		cmocka_unit_test(test_fabric_high_cap_warning),
		cmocka_unit_test(test_fabric_engine_keeps_sl2vl),
		cmocka_unit_test(test_fabric_scope_wins),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
