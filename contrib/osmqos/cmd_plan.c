// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos plan NEW [-p OLD | -d DIR] (-f TOPO | --live [-C CA -P N -t MS])
 *                 [-k FILE] [-c FILE] [--pairs N] [-a] [-j]
 *
 * What an edit of the policy will do before opensm re-reads it: both
 * policies compiled on one fabric (the plugin's compiler, intents
 * included), and per port the QoS Sets OpenSM will send at the next heavy
 * sweep (plan_diff.c; the report is plan_out.c); per class of changed
 * ports the per-SL guaranteed share before and after (the model of
 * `predict`); the rules added, removed, moved or given another level
 * (plan_rules.c); and the (source, destination) pairs whose granted SL
 * changes, for every pair of CA ports or a deterministic sample of them.
 * OLD is the policy in force (the copy the plugin keeps in its publish
 * directory) unless -p names another: then it is also the diff of two
 * policies' predictions.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <osmqos/file.h>
#include <osmqos/htab.h>
#include <osmqos/model.h>

#include "cli.h"
#include "cmd_drift.h"
#include "inputs.h"
#include "plan_diff.h"
#include "plan.h"
#include "published.h"

#define CMD "plan"

OQ_OPTS_STRUCT(struct plan_opts);

static const struct oq_opt plan_opts[] = {
	OQ_OPT("new", 0, OQ_OPT_INPUT, "FILE",
	       "the edited policy, when not given as NEW",
	       offsetof(struct plan_opts, new_policy),
	       .flags = OQ_OPT_REQUIRED),
	OQ_USE_H(OQ_CO_POLICY, 0,
		 "the policy it replaces (default: the policy in force, from "
		 "the publish directory)"),
	OQ_USE(OQ_CO_PUBLISH_DIR),
	OQ_USE_H(OQ_CO_FABRIC, 0,
		 "the fabric: ibnetdiscover output or ibsim net file (or "
		 "--live)"),
	OQ_OPT("live", 0, OQ_OPT_FLAG, NULL,
	       "discover the live fabric with SMPs, as `drift` does",
	       offsetof(struct plan_opts, live)),
	OQ_USE(OQ_CO_PARTITIONS),
	OQ_USE(OQ_CO_NODE_NAME_MAP),
	OQ_USE_H(OQ_CO_OPENSM_CONF, 0,
		 "the SM's opensm.conf (its qos_* templates, routing_engine, "
		 "node-name map and partitions, and publish_dir=; default: "
		 "the one opensm runs with, as the plugin publishes it, else "
		 "OpenSM's compiled-in values)"),
	OQ_OPT("pairs", 0, OQ_OPT_NUM, "N",
	       "CA port pairs to decide with both policies: all of them up "
	       "to N (default 65536), else a sample of N, said so",
	       offsetof(struct plan_opts, pairs), .min = 1, .max = 100000000),
	OQ_USE_H(OQ_CO_CA, 0, "--live: local CA"),
	OQ_USE_H(OQ_CO_CA_PORT, 0, "--live: local port"),
	OQ_USE_H(OQ_CO_TIMEOUT, 0, "--live: per SMP, in ms (default 1000)"),
	OQ_USE_H(OQ_CO_ALL, 0,
		 "every changed port and pair, not classes and examples"),
	OQ_USE(OQ_CO_JSON),
	OQ_OPT_END,
};

static int run(int argc, char **argv);

const struct oq_cmd_spec oq_spec_plan = {
	.name = CMD,
	.summary = "what an edit changes before HUP: MADs, shares, SLs",
	.about = "Compile the edited policy NEW and the policy it replaces on "
		 "one fabric, as the plugin does, and say what the next heavy "
		 "sweep will change: the ports whose tables change and the QoS "
		 "Set MADs OpenSM will send for them, per class of changed "
		 "ports the per-SL predicted share before and after, the "
		 "rules added, removed, moved or given another QoS level "
		 "(rules known by what they match, not by position), and the "
		 "CA port pairs whose granted SL changes.",
	.operand = "NEW",
	.operand_off = offsetof(struct plan_opts, new_policy),
	.opts = plan_opts,
	.notes =
		"MADs are counted as OpenSM sends them: one SL2VL Set per "
		"input table that changes once masked to the port's "
		"operational VLs, one VLArb Set per changed block; "
		"VLHighLimit goes out in PortInfo Sets, counted apart.  A "
		"switch using the one-MAD optimized SL2VL (use_optimized_slvl) "
		"gets fewer.  Pairs are decided for a query without "
		"components and for each Service ID, QoS class and P_Key the "
		"rules of either policy start a range with.",
	.exit_status = "0 nothing changes, 1 the edit changes tables, rules "
		       "(added, removed, given another level, or moved past a "
		       "rule of another level or too many moved to check) or "
		       "SLs, 2 usage or input error, "
		       "or NEW is invalid (the plugin would refuse it and keep "
		       "the policy in force).",
	.run = run,
};

/* ---- inputs ---- */

static int old_path(struct plan_opts *o)
{
	int rc;

	if (o->c.policy)
		return OQ_EXIT_OK;
	rc = oq_pub_in_force(CMD, o->c.publish_dir, o->in_force_path,
			     sizeof(o->in_force_path),
			     "the policy now in force with --policy FILE");
	if (rc)
		return rc;
	o->c.policy = o->in_force_path;
	o->in_force = true;
	return OQ_EXIT_OK;
}

/* NEW (in in) on the fabric, then OLD (in old) sharing its fabric and
 * partitions. */
static int load(struct plan_opts *o, struct oq_cli_inputs *in,
		struct oq_cli_inputs *old, struct oq_live_fabric *lf)
{
	struct oq_cli_common c = o->c;
	int rc;

	c.policy = o->new_policy;
	if (o->live) {
		struct oq_smp_port smp;

		memset(in, 0, sizeof(*in));
		oq_diags_init(&in->diags);
		if ((c.partitions &&
		     oq_cli_need_file(CMD, "partitions file", c.partitions,
				      OQ_FILE_MAX_BYTES)) ||
		    oq_cli_need_file(CMD, "policy", c.policy,
				     OQ_POLICY_MAX_BYTES))
			return OQ_EXIT_USAGE;
		rc = drift_discover(CMD, &c, &smp, lf, in);
		if (smp.u.agent >= 0)
			oq_smp_close(&smp);
		if (rc) {
			oq_cli_inputs_free(in);
			return rc;
		}
		rc = oq_cli_load_on(CMD, &c, in);
	} else {
		rc = oq_cli_load(CMD, &c, in);
	}
	if (rc) {
		memset(in, 0, sizeof(*in)); /* freed by the loader */
		if (rc == OQ_EXIT_FAIL)
			fprintf(stderr,
				"osmqos plan: the plugin would refuse '%s' and "
				"keep the policy in force: nothing would "
				"change; fix the errors above\n",
				o->new_policy);
		return OQ_EXIT_USAGE;
	}
	/* OLD: its own policy and binding on the same fabric. */
	memset(old, 0, sizeof(*old));
	oq_diags_init(&old->diags);
	old->fabric = in->fabric;
	old->parts = in->parts;
	old->have_parts = in->have_parts;
	if (oq_cli_need_file(CMD, "policy", o->c.policy, OQ_POLICY_MAX_BYTES) ||
	    oq_cli_read_policy(CMD, o->c.policy, &old->diags, &old->policy))
		return OQ_EXIT_USAGE;
	if (!old->policy)
		return oq_usage_error(CMD, "out of memory reading '%s'",
				      o->c.policy);
	if (!oq_diags_has_errors(&old->diags))
		oq_policy_validate(old->policy, &old->diags);
	if (!oq_diags_has_errors(&old->diags))
		old->binding = oq_bind(old->policy, old->fabric, &old->parts,
				       &old->diags);
	if (oq_diags_has_errors(&old->diags) || !old->binding) {
		oq_diags_sort(&old->diags);
		oq_diags_print(&old->diags, stderr);
		return oq_usage_error(CMD,
				      "the policy it replaces, '%s', is "
				      "invalid on this fabric; give the policy "
				      "in force with --policy",
				      o->c.policy);
	}
	oq_diags_clear(&old->diags);
	return OQ_EXIT_OK;
}

static void free_old(struct oq_cli_inputs *old)
{
	old->fabric = NULL;
	old->have_parts = false;
	memset(&old->parts, 0, sizeof(old->parts));
	oq_cli_inputs_free(old);
}

/* ---- tables ---- */

const char *plan_role_of(const struct oq_port *p)
{
	if (p->node->type != OQ_NODE_SWITCH)
		return p->node->type == OQ_NODE_ROUTER ? "router port"
						       : "CA port";
	return p->num ? "switch external port" : "switch port 0";
}

static void vlarb_text(const struct oq_vlarb_table *t, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < t->n && n < len; i++)
		if (t->e[i].weight)
			n += (size_t)snprintf(buf + n, len - n, "%s%u:%u",
					      n ? "," : "", t->e[i].vl,
					      t->e[i].weight);
	if (!n)
		snprintf(buf, len, "(empty)");
}

/* What changes on a port, as text: its class key. */
static void change_text(const struct oq_port_tables *a,
			const struct oq_port_tables *b, char *buf, size_t len)
{
	char x[320], y[320];
	size_t n = 0;
	unsigned int in, rows = 0;

	n += (size_t)snprintf(buf + n, len - n, "%s;", plan_role_of(b->port));
	if (a->has_vlarb && b->has_vlarb) {
		vlarb_text(&a->vlarb_high, x, sizeof(x));
		vlarb_text(&b->vlarb_high, y, sizeof(y));
		if (strcmp(x, y) && n < len)
			n += (size_t)snprintf(buf + n, len - n,
					      " vlarb-high %s -> %s;", x, y);
		vlarb_text(&a->vlarb_low, x, sizeof(x));
		vlarb_text(&b->vlarb_low, y, sizeof(y));
		if (strcmp(x, y) && n < len)
			n += (size_t)snprintf(buf + n, len - n,
					      " vlarb-low %s -> %s;", x, y);
		if (a->vl_high_limit != b->vl_high_limit && n < len)
			n += (size_t)snprintf(
				buf + n, len - n, " vl-high-limit %u -> %u;",
				a->vl_high_limit, b->vl_high_limit);
	}
	if (a->has_sl2vl && b->has_sl2vl && a->sl2vl && b->sl2vl)
		for (in = 0; in < b->n_sl2vl && in < a->n_sl2vl; in++)
			if (memcmp(a->sl2vl[in], b->sl2vl[in], 16)) {
				unsigned int s;

				if (rows++ || n >= len)
					continue;
				n += (size_t)snprintf(buf + n, len - n,
						      " sl2vl ");
				for (s = 0; s < 16 && n < len; s++)
					n += (size_t)snprintf(
						buf + n, len - n, "%s%u",
						s ? "," : "", a->sl2vl[in][s]);
				if (n < len)
					n += (size_t)snprintf(buf + n, len - n,
							      " -> ");
				for (s = 0; s < 16 && n < len; s++)
					n += (size_t)snprintf(
						buf + n, len - n, "%s%u",
						s ? "," : "", b->sl2vl[in][s]);
			}
	if (rows && n < len)
		snprintf(buf + n, len - n, " (%u input table%s);", rows,
			 rows == 1 ? "" : "s");
}



static int diff_tables(struct plan *pl)
{
	size_t i, j;
	char key[2048];

	pl->pp = calloc(pl->b->n + 1, sizeof(*pl->pp));
	pl->cl = calloc(pl->b->n + 1, sizeof(*pl->cl));
	if (!pl->pp || !pl->cl)
		return -1;
	for (i = 0; i < pl->b->n; i++) {
		const struct oq_port_tables *a = &pl->a->ports[i],
					    *b = &pl->b->ports[i];
		struct plan_port *pp = &pl->pp[i];

		if (!b->has_sl2vl && !b->has_vlarb)
			continue;
		pl->programmed++;
		plan_port_sets(a, b, pp);
		if (!pp->sl2vl_sets && !pp->vlarb_sets && !pp->vl_high_limit)
			continue;
		pl->changed++;
		pl->sl2vl_sets += pp->sl2vl_sets;
		pl->vlarb_sets += pp->vlarb_sets;
		pl->vlhl += pp->vl_high_limit;
		change_text(a, b, key, sizeof(key));
		/* Classes: linear in the (few) distinct changes. */
		for (j = 0; j < pl->n_cl; j++)
			if (!strcmp(pl->cl[j].key, key))
				break;
		if (j == pl->n_cl) {
			pl->cl[j].key = strdup(key);
			if (!pl->cl[j].key)
				return -1;
			pl->cl[j].example = i;
			pl->n_cl++;
		}
		pl->cl[j].ports++;
		pl->cl[j].sl2vl_sets += pp->sl2vl_sets;
		pl->cl[j].vlarb_sets += pp->vlarb_sets;
		pl->cl[j].vlhl += pp->vl_high_limit;
	}
	return 0;
}

/* Per-SL predicted share of a port's tables (as `predict`: all SLs
 * backlogged, a VL's share split equally among its SLs). */
int plan_shares(const struct oq_fabric *f, const struct oq_port_tables *t,
		double out[16])
{
	struct oq_predict_opts po;
	struct oq_port_pred pr;
	unsigned int s;

	oq_predict_opts_init(&po);
	if (oq_predict_port(f, t, -1, &po, &pr))
		return -1;
	for (s = 0; s < 16; s++)
		out[s] = oq_frac_double(pr.sl[s].share);
	return 0;
}

/* ---- rules and pairs ---- */

static int level_sl(const struct oq_policy *p, int level)
{
	return level >= 0 && (size_t)level < p->n_levels ? p->levels[level].sl
							 : -1;
}

/* The query components the rules of p start a range with. */
struct probes {
	uint64_t sid[32];
	uint16_t cls[32], pkey[32];
	size_t n_sid, n_cls, n_pkey;
};

static void add_u64(uint64_t *v, size_t *n, uint64_t x)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (v[i] == x)
			return;
	if (*n < 32)
		v[(*n)++] = x;
}

static void add_u16(uint16_t *v, size_t *n, uint64_t x)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (v[i] == x)
			return;
	if (*n < 32)
		v[(*n)++] = (uint16_t)x;
}

static void probes_of(struct probes *pr, const struct oq_policy *p)
{
	size_t i, j;

	for (i = 0; i < p->n_rules; i++) {
		const struct oq_match_rule *r = &p->rules[i];

		for (j = 0; j < r->service_ids.n; j++)
			add_u64(pr->sid, &pr->n_sid, r->service_ids.v[j].lo);
		for (j = 0; j < r->qos_classes.n; j++)
			add_u16(pr->cls, &pr->n_cls,
				r->qos_classes.v[j].lo & 0xfff);
		for (j = 0; j < r->pkeys.n; j++)
			add_u16(pr->pkey, &pr->n_pkey,
				r->pkeys.v[j].lo & 0x7fff);
	}
}

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}


static void decide(const struct oq_matcher *m, const struct oq_policy *p,
		   const struct oq_query *q, int *sl)
{
	struct oq_decision d;

	oq_match(m, q, &d);
	*sl = level_sl(p, d.level);
}

static int pairs_diff(struct plan *pl, const struct plan_opts *o,
		      const struct oq_cli_inputs *a,
		      const struct oq_cli_inputs *b, struct pair_example **ex,
		      size_t *n_ex)
{
	const struct oq_fabric *f = b->fabric;
	const struct oq_port **cas;
	struct oq_matcher *ma = oq_matcher_compile(a->binding);
	struct oq_matcher *mb = oq_matcher_compile(b->binding);
	struct probes pr = {0};
	size_t n = 0, i, total, want = o->pairs.given ? o->pairs.v : 65536;
	size_t cap_ex = o->c.all ? 100000 : 10;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	int rc = -1;

	*ex = NULL;
	*n_ex = 0;
	cas = malloc((f->n_ports + 1) * sizeof(*cas));
	if (!ma || !mb || !cas)
		goto out;
	for (i = 0; i < f->n_ports; i++)
		if (f->ports[i]->present &&
		    f->ports[i]->node->type != OQ_NODE_SWITCH)
			cas[n++] = f->ports[i];
	probes_of(&pr, a->policy);
	probes_of(&pr, b->policy);
	*ex = calloc(cap_ex, sizeof(**ex));
	if (!*ex)
		goto out;
	total = n > 1 ? n * (n - 1) : 0;
	pl->sampled = total > want;
	pl->pairs = pl->sampled ? want : total;
	for (i = 0; i < pl->pairs; i++) {
		size_t si, di, k, nq = 1 + pr.n_sid + pr.n_cls + pr.n_pkey;

		if (pl->sampled) {
			si = (size_t)(next_rand(&seed) % n);
			di = (size_t)(next_rand(&seed) % (n - 1));
			di += di >= si;
		} else {
			si = i / (n - 1);
			di = i % (n - 1);
			di += di >= si;
		}
		for (k = 0; k < nq; k++) {
			struct oq_query q = {0};
			int sa, sb;

			q.src = cas[si];
			q.dst = cas[di];
			if (k && k <= pr.n_sid) {
				q.has_sid = true;
				q.sid = pr.sid[k - 1];
			} else if (k > pr.n_sid && k <= pr.n_sid + pr.n_cls) {
				q.has_qos_class = true;
				q.qos_class = pr.cls[k - 1 - pr.n_sid];
			} else if (k > pr.n_sid + pr.n_cls) {
				q.has_pkey = true;
				q.pkey = pr.pkey[k - 1 - pr.n_sid - pr.n_cls];
			}
			decide(ma, a->policy, &q, &sa);
			decide(mb, b->policy, &q, &sb);
			pl->queries++;
			if (sa == sb)
				continue;
			pl->q_changed++;
			pl->by_sl[sa < 0 ? 16 : sa][sb < 0 ? 16 : sb]++;
			if (*n_ex < cap_ex) {
				struct pair_example *e = &(*ex)[(*n_ex)++];

				e->src = q.src;
				e->dst = q.dst;
				e->q = q;
				e->old_sl = sa;
				e->new_sl = sb;
			}
		}
	}
	rc = 0;
out:
	free(cas);
	oq_matcher_free(ma);
	oq_matcher_free(mb);
	return rc;
}

static int run(int argc, char **argv)
{
	struct oq_fabric_tables ta = {0}, tb = {0};
	struct oq_cli_inputs in, old;
	struct oq_live_fabric lf;
	struct pair_example *ex = NULL;
	struct plan_opts o = {0};
	struct oq_templates t;
	struct plan pl;
	size_t n_ex = 0, i;
	char given[64];
	int rc, n;

	o.c.timeout.v = 1000;
	rc = oq_cli_parse(&oq_spec_plan, argc, argv, &o);
	if (rc != OQ_CLI_RUN)
		return rc;
	if (o.live && o.c.fabric)
		return oq_usage_error(CMD, "--live and --fabric name two "
					   "fabrics; give one");
	if (!o.live && !o.c.fabric)
		return oq_usage_error(CMD, "give the fabric: --fabric TOPO "
					   "(ibnetdiscover output) or --live");
	if (!o.live && (n = oq_cli_local_port_opts(&o.c, given, sizeof(given))))
		return oq_usage_error(CMD,
				      "%s %s with --live, which sends SMPs; "
				      "--fabric reads TOPO and sends nothing: "
				      "drop %s",
				      given, n > 1 ? "go" : "goes",
				      n > 1 ? "them" : "it");
	rc = oq_pub_live_inputs(CMD, &o.c, &o.sm);
	if (!rc)
		rc = old_path(&o);
	if (rc) {
		oq_pub_live_free(&o.sm);
		return rc;
	}
	memset(&lf, 0, sizeof(lf));
	memset(&pl, 0, sizeof(pl));
	memset(&old, 0, sizeof(old));
	rc = load(&o, &in, &old, &lf);
	if (rc) {
		free_old(&old);
		oq_cli_inputs_free(&in);
		oq_live_free(&lf);
		oq_pub_live_free(&o.sm);
		return OQ_EXIT_USAGE;
	}
	if (oq_cli_compile_tables(CMD, &old, o.c.opensm_conf, &t, &ta) ||
	    oq_cli_compile_tables(CMD, &in, o.c.opensm_conf, &t, &tb)) {
		rc = OQ_EXIT_USAGE;
		goto out;
	}
	pl.a = &ta;
	pl.b = &tb;
	if (ta.n != tb.n || diff_tables(&pl) ||
	    plan_rules_diff(&pl.rules, old.policy, in.policy) ||
	    pairs_diff(&pl, &o, &old, &in, &ex, &n_ex)) {
		rc = oq_usage_error(CMD, "out of memory planning; free memory");
		goto out;
	}
	/* What it took of the SM's opensm.conf, once there is a plan. */
	if (*o.sm.note)
		fprintf(stderr, "osmqos plan: note: %s\n", o.sm.note);
	if (o.c.json)
		plan_print_json(&pl, &o, &old, &in, ex, n_ex);
	else
		plan_print_text(&pl, &o, &old, &in, ex, n_ex);
	rc = plan_changes(&pl) ? OQ_EXIT_FAIL : OQ_EXIT_OK;
out:
	for (i = 0; i < pl.n_cl; i++)
		free(pl.cl[i].key);
	free(pl.cl);
	free(pl.pp);
	plan_rules_free(&pl.rules);
	free(ex);
	oq_fabric_tables_free(&ta);
	oq_fabric_tables_free(&tb);
	free_old(&old);
	oq_cli_inputs_free(&in);
	oq_live_free(&lf);
	oq_pub_live_free(&o.sm);
	return rc;
}
