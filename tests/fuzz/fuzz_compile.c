// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target: a policy from arbitrary bytes, once valid, through
 * the binding, both matchers and the table compiler on a fixed fabric.
 * Traps when the compiled matcher and the naive scan disagree, or when a
 * compiled table breaks an invariant (scope VLs beyond the port's VLs,
 * more VLArb entries than the port holds), or when bandwidth intents are
 * synthesized into tables that break one or, said to be met, miss one by
 * the model.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <osmqos/synth.h>

#include "match_fixture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct oq_fabric *fabric(void)
{
	static struct oq_fabric *f;
	uint64_t rng = 42;

	if (!f) {
		f = fx_random_fabric(&rng, 24, 3, 12);
		/* Names the corpus policies use. */
		f->finalized = false;
		fx_ca(f, 0x9000, "vs1 HCA-1", 1, 0);
		oq_fabric_finalize(f, NULL);
	}
	return f;
}

/* Every class the synthesizer calls feasible meets every intent by the
 * model, within its ports' limits. */
static void check_synth(const struct oq_synth_plan *pl)
{
	size_t i;
	unsigned int s;

	for (i = 0; i < pl->n; i++) {
		const struct oq_synth_class *c = &pl->v[i];
		struct oq_frac sh[16];

		if (c->r.status != OQ_SYNTH_OK || c->vlarb_kept)
			continue;
		if (c->r.high.n > c->in.cap_high ||
		    c->r.low.n > c->in.cap_low ||
		    c->r.limit == OQ_ARB_UNLIMITED)
			__builtin_trap();
		if (oq_synth_eval(&c->in, c->r.sl2vl, &c->r.high, &c->r.low,
				  c->r.limit, sh))
			__builtin_trap();
		for (s = 0; s < 16; s++)
			if ((pl->intents.sls & (1u << s)) &&
			    !oq_frac_meets_bp(sh[s], pl->intents.need_bp[s]))
				__builtin_trap();
	}
}

static void check_tables(const struct oq_fabric_tables *t)
{
	size_t i;
	unsigned s, sl;

	for (i = 0; i < t->n; i++) {
		const struct oq_port_tables *pt = &t->ports[i];
		unsigned vls = pt->port->oper_vls ? pt->port->oper_vls
						  : pt->port->vl_cap;

		if (pt->vlarb_high.n > OQ_VLARB_MAX ||
		    pt->vlarb_high.n > pt->port->vlarb_high_cap ||
		    pt->vlarb_low.n > pt->port->vlarb_low_cap)
			__builtin_trap();
		for (s = 0; pt->has_sl2vl && s < pt->n_sl2vl; s++)
			for (sl = 0; sl < 16; sl++)
				if (pt->sl2vl[s][sl] != 15 &&
				    pt->sl2vl[s][sl] >= (vls ? vls : 1) &&
				    pt->sl2vl_origin == OQ_ORIGIN_SCOPE)
					__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct oq_fabric *f = fabric();
	struct oq_fabric_tables t;
	struct oq_binding *b;
	struct oq_matcher *m;
	struct oq_policy *p;
	struct oq_diags d;
	uint64_t rng = size + 1;
	int i;

	oq_diags_init(&d);
	p = oq_policy_parse("fuzz.conf", (const char *)data, size, &d);
	if (p)
		oq_policy_validate(p, &d);
	if (!p || oq_diags_has_errors(&d))
		goto out;
	b = oq_bind(p, f, NULL, &d);
	m = oq_matcher_compile(b);
	if (!b || !m)
		__builtin_trap();
	for (i = 0; i < 64; i++) {
		struct oq_query q;
		struct oq_decision x, y;

		fx_random_query(&rng, f, &q);
		q.sid = fx_rand(&rng) % 4 ? q.sid : fx_rand(&rng);
		oq_match_naive(b, &q, &x);
		oq_match(m, &q, &y);
		if (x.rule != y.rule || x.level != y.level || x.why != y.why)
			__builtin_trap();
	}
	if (oq_tables_compile(b, f, NULL, &t, &d))
		__builtin_trap();
	check_tables(&t);
	{
		struct oq_synth_plan pl;

		if (oq_synth_apply(p, f, NULL, &t, NULL, &pl, &d))
			__builtin_trap();
		check_synth(&pl);
		check_tables(&t);
		oq_synth_plan_free(&pl);
	}
	oq_fabric_tables_free(&t);
	oq_matcher_free(m);
	oq_binding_free(b);
out:
	oq_policy_free(p);
	oq_diags_free(&d);
	return 0;
}
