// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz target: the SA engine's request decoding and answers
 * (oq_sa_path_record(), oq_sa_multipath_record()) on a fixed small fabric
 * and policy, built once.  Input:
 *
 *   byte 0    flags: bit 0 MultiPathRecord, 1 RMPP Active, 2 no requester,
 *             3 qos off, 4 path-bits off, 5 allow_both_pkeys, 6 no policy,
 *             7 a routing engine path_sl()
 *   byte 1    method
 *   byte 2    requester (index into the fabric's ports)
 *   byte 3    refuse the record with this number (0: never)
 *   bytes 4-11  comp mask (big-endian)
 *   byte 12   MultiPathRecord length (mod 201)
 *   then      the payload, zero-padded to 200 bytes
 *
 * The request is copied into a buffer of exactly its length so ASan sees
 * any read past it.  Every record must be a sane PathRecord of known
 * ports; outcomes, statuses and counts must be consistent.  Violations
 * abort.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/fabric.h>
#include <osmqos/htab.h>
#include <osmqos/match.h>
#include <osmqos/policy.h>
#include <osmqos/sa_path.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PREFIX 0xfec0000000001234ull
#define HDR    13

static const char policy_text[] =
	"port-groups\n"
	"  port-group\n    name: GA\n    port-guid: 0xa01\n  end-port-group\n"
	"  port-group\n    name: GC\n    port-guid: 0xc01\n  end-port-group\n"
	"end-port-groups\n"
	"qos-levels\n"
	"  qos-level\n    name: DEFAULT\n    sl: 0\n  end-qos-level\n"
	"  qos-level\n    name: svc\n    sl: 1\n    mtu-limit: 3\n"
	"    rate-limit: 3\n    packet-life: 10\n  end-qos-level\n"
	"  qos-level\n    name: grp\n    sl: 4\n    pkey: 0x0002\n"
	"    path-bits: 1,3\n  end-qos-level\n"
	"  qos-level\n    name: pk\n    sl: 3\n    pkey: 0x0001-0x0003\n"
	"  end-qos-level\n"
	"  qos-level\n    name: vl15\n    sl: 7\n  end-qos-level\n"
	"end-qos-levels\n"
	"qos-match-rules\n"
	"  qos-match-rule\n    service-id: 0x100-0x1ff\n"
	"    qos-level-name: svc\n  end-qos-match-rule\n"
	"  qos-match-rule\n    qos-class: 5\n    qos-level-name: vl15\n"
	"  end-qos-match-rule\n"
	"  qos-match-rule\n    pkey: 0x0001\n    qos-level-name: pk\n"
	"  end-qos-match-rule\n"
	"  qos-match-rule\n    source: GA\n    destination: GC\n"
	"    qos-level-name: grp\n  end-qos-match-rule\n"
	"end-qos-match-rules\n";

static struct oq_sa_view view;
static struct oq_alias aliases[7];
static struct oq_alias_index alias_ix;
static struct oq_partition pv[3];
static struct oq_partitions parts;
static struct oq_fabric_tables tables;
static const struct oq_policy *policy;
static const struct oq_matcher *matcher;

static void need(bool ok)
{
	if (!ok)
		abort();
}

static struct oq_node *node(struct oq_fabric *f, enum oq_node_type t,
			    uint64_t guid, uint16_t lid, uint8_t lmc)
{
	struct oq_node *n = oq_fabric_add_node(f, t, guid, "n",
					       t == OQ_NODE_SWITCH ? 4 : 1);
	unsigned int i;

	need(n);
	for (i = 0; i <= n->n_ports; i++)
		n->ports[i].mtu_cap = 5;
	if (t == OQ_NODE_SWITCH) {
		n->ports[0].lid = lid;
		n->ports[0].width = 4;
		n->ports[0].speed = OQ_SPEED_SDR;
	} else {
		n->ports[1].guid = guid + 1;
		n->ports[1].lid = lid;
		n->ports[1].lmc = lmc;
	}
	return n;
}

static void wire(struct oq_port *x, struct oq_port *y, enum oq_speed s)
{
	oq_fabric_link(x, y);
	x->width = y->width = 4;
	x->speed = y->speed = s;
}

static void keys(struct oq_port *p, const uint16_t *k, size_t n)
{
	need(!oq_port_set_pkeys(p, k, n));
}

/* The unit tests' fabric (tests/lib/sa_test_fixture.c), with c on LMC 2
 * and CapabilityMask2 bits for the rate fixups. */
static struct oq_fabric *build_fabric(void)
{
	static const uint16_t lids[] = {1, 2, 10, 11, 20, 21, 22, 23, 30};
	static const uint8_t r1[] = {0, 3, 1, 2, 3, 3, 3, 3, 3};
	static const uint8_t r2[] = {3, 0, 3, 3, 1, 1, 1, 1, 2};
	static const uint16_t k_sw[] = {0xffff};
	static const uint16_t k_a[] = {0xffff, 0x8001, 0x8002};
	static const uint16_t k_b[] = {0xffff, 0x8001};
	static const uint16_t k_c[] = {0xffff, 0x0001, 0x8002};
	static const uint16_t k_d[] = {0xffff, 0x0001};
	struct oq_fabric *f = oq_fabric_new();
	struct oq_node *s1, *s2, *a, *b, *c, *d;
	size_t i;

	need(f);
	s1 = node(f, OQ_NODE_SWITCH, 0x1000, 1, 0);
	s2 = node(f, OQ_NODE_SWITCH, 0x2000, 2, 0);
	a = node(f, OQ_NODE_CA, 0xa00, 10, 0);
	b = node(f, OQ_NODE_CA, 0xb00, 11, 0);
	c = node(f, OQ_NODE_CA, 0xc00, 20, 2);
	d = node(f, OQ_NODE_CA, 0xd00, 30, 0);
	wire(&a->ports[1], &s1->ports[1], OQ_SPEED_QDR);
	wire(&b->ports[1], &s1->ports[2], OQ_SPEED_EDR);
	wire(&s1->ports[3], &s2->ports[3], OQ_SPEED_HDR);
	wire(&c->ports[1], &s2->ports[1], OQ_SPEED_HDR);
	wire(&d->ports[1], &s2->ports[2], OQ_SPEED_DDR);
	d->ports[1].mtu_cap = 4;
	a->ports[1].cap_mask = 0x8000;
	a->ports[1].cap_mask2 = 0x0010;
	b->ports[1].cap_mask = 0x4000;
	c->ports[1].cap_mask = 0xc000;
	c->ports[1].cap_mask2 = 0x0020;
	need(!oq_fabric_finalize(f, NULL));
	for (i = 0; i < sizeof(lids) / sizeof(lids[0]); i++) {
		need(!oq_node_set_lft_entry(s1, lids[i], r1[i]));
		need(!oq_node_set_lft_entry(s2, lids[i], r2[i]));
	}
	keys(&s1->ports[0], k_sw, 1);
	keys(&s2->ports[0], k_sw, 1);
	keys(&a->ports[1], k_a, 3);
	keys(&b->ports[1], k_b, 2);
	keys(&c->ports[1], k_c, 3);
	keys(&d->ports[1], k_d, 2);

	aliases[0] = (struct oq_alias){0x1000, &s1->ports[0]};
	aliases[1] = (struct oq_alias){0x2000, &s2->ports[0]};
	aliases[2] = (struct oq_alias){0xa01, &a->ports[1]};
	aliases[3] = (struct oq_alias){0xb01, &b->ports[1]};
	aliases[4] = (struct oq_alias){0xc01, &c->ports[1]};
	aliases[5] = (struct oq_alias){0xd01, &d->ports[1]};
	aliases[6] = (struct oq_alias){0xd02, &d->ports[1]};
	oq_alias_sort(aliases, 7);
	need(!oq_alias_index_build(f, &alias_ix, aliases, 7, f->n_ports));
	return f;
}

/* All SLs on VL0, except SL 7 towards d and SL 6 towards a from the
 * inter-switch link. */
static void build_tables(const struct oq_fabric *f)
{
	size_t i;

	tables.n = f->n_ports;
	tables.ports = calloc(tables.n, sizeof(*tables.ports));
	need(tables.ports);
	for (i = 0; i < tables.n; i++) {
		const struct oq_port *p = f->ports[i];
		struct oq_port_tables *pt = &tables.ports[i];
		const struct oq_port *peer = oq_port_peer(f, p);
		bool swe = p->node->type == OQ_NODE_SWITCH && p->num;

		pt->port = p;
		pt->has_sl2vl = true;
		pt->n_sl2vl = swe ? (uint8_t)(p->node->n_ports + 1) : 1;
		pt->sl2vl = calloc(pt->n_sl2vl, sizeof(*pt->sl2vl));
		need(pt->sl2vl);
		if (swe && peer && peer->node->type == OQ_NODE_CA &&
		    peer->guid == 0xd01)
			pt->sl2vl[3][7] = OQ_VL_DROP;
		if (swe && peer && peer->node->type == OQ_NODE_CA &&
		    peer->guid == 0xa01)
			pt->sl2vl[3][6] = OQ_VL_DROP;
	}
}

static uint8_t engine_sl(void *ctx, uint8_t hint, uint16_t slid, uint16_t dlid)
{
	(void)ctx;
	return (slid ^ dlid) & 1 ? (uint8_t)((hint + 1) & 0xf) : hint;
}

static void init(void)
{
	struct oq_fabric *f = build_fabric();
	struct oq_diags d;
	struct oq_policy *p;
	struct oq_binding *b;

	build_tables(f);
	pv[0] = (struct oq_partition){
		.name = "Default", .pkey = 0x7fff, .sl = -1};
	pv[1] = (struct oq_partition){.name = "P1", .pkey = 0x0001, .sl = 3};
	pv[2] = (struct oq_partition){.name = "P2", .pkey = 0x0002, .sl = 5};
	parts.v = pv;
	parts.n = 3;
	oq_diags_init(&d);
	p = oq_policy_parse("fuzz.conf", policy_text, strlen(policy_text), &d);
	need(p);
	oq_policy_validate(p, &d);
	need(!d.n_errors);
	b = oq_bind(p, f, &parts, &d);
	need(b);
	matcher = oq_matcher_compile(b);
	need(matcher);
	policy = p;
	oq_diags_free(&d);

	view.fabric = f;
	view.sl2vl = &tables;
	view.parts = &parts;
	view.aliases = aliases;
	view.n_aliases = 7;
	view.subnet_prefix = PREFIX;
	view.subnet_timeout = 18;
	view.lmc = 2;
}

/* ---- the sink ------------------------------------------------------------ */

struct count {
	unsigned int records, calls, refuse_at, pairs, pair_records;
	uint64_t hash; /* of the records, in order */
};

static bool known_guid(uint64_t guid)
{
	return oq_alias_find(aliases, 7, guid) != NULL;
}

/* A record must be a PathRecord we could have built. */
static int on_record(void *ctx, const uint8_t *r)
{
	struct count *c = ctx;
	const struct oq_port *s, *d;
	size_t i;

	c->calls++;
	if (c->refuse_at && c->calls >= c->refuse_at)
		return -1;
	c->records++;
	c->hash = oq_fnv1a_add(c->hash, r, OQ_PR_REC_SIZE);
	need(oq_get64(r) == 0);		 /* ServiceID not echoed */
	need(oq_get64(r + 8) == PREFIX); /* DGID built */
	need(known_guid(oq_get64(r + 16)));
	need(known_guid(oq_get64(r + 32))); /* SGID: maybe echoed */
	s = oq_fabric_port_by_lid(view.fabric, oq_get16(r + 42));
	d = oq_fabric_port_by_lid(view.fabric, oq_get16(r + 40));
	need(s && d);
	need(oq_alias_find(aliases, 7, oq_get64(r + 32))->port ==
	     (s->node->type == OQ_NODE_SWITCH ? &s->node->ports[0] : s));
	need(oq_alias_find(aliases, 7, oq_get64(r + 16))->port ==
	     (d->node->type == OQ_NODE_SWITCH ? &d->node->ports[0] : d));
	need(oq_get32(r + 44) == 0 && r[48] == 0); /* no HopLimit, TClass */
	need(r[49] == 0 || r[49] == 0x80);	   /* Reversible only */
	need(r[52] == 0 && r[53] < 16);		   /* QoSClass 0 */
	need((r[54] & 0xc0) == 0x80 && (r[54] & 0x3f) >= 1 &&
	     (r[54] & 0x3f) <= 5);
	need((r[55] & 0xc0) == 0x80 && (r[55] & 0x3f) >= 2 &&
	     (r[55] & 0x3f) <= 22);
	need((r[56] & 0xc0) == 0x80);
	need(r[57] == 0 || r[57] == 2);
	for (i = 58; i < OQ_PR_REC_SIZE; i++)
		need(r[i] == 0);
	return 0;
}

static void on_pair(void *ctx, const struct oq_pr_pair *p)
{
	struct count *c = ctx;

	c->pairs++;
	c->pair_records += p->records;
	need(!p->path ||
	     (p->records && p->path->status == OQ_PATH_OK &&
	      p->path->src == p->src->port && p->path->dlid == p->dlid));
	need(p->src && p->dst && p->src->port && p->dst->port);
	if (view.matcher && view.qos)
		need(p->d.level >= 0 &&
		     (size_t)p->d.level < view.policy->n_levels);
	else
		need(p->d.level == -1 && p->d.rule == -1);
	if (p->records) {
		need(p->slid && p->dlid && p->sl < 16);
		need(p->mtu >= 1 && p->mtu <= 5);
		need(p->rate >= 2 && p->rate <= 22);
	} else {
		need(p->reason != OQ_PR_OK);
		need(oq_pr_reason_name(p->reason) != NULL);
	}
}

/* The same request with the ports' aliases found by scanning them all
 * instead of from the index: the same outcome, records and pairs. */
static void same_without_index(uint8_t method, uint64_t cm, const uint8_t *req,
			       const struct oq_port *requester,
			       const struct count *want,
			       enum oq_pr_outcome want_out, uint16_t want_st)
{
	struct count c = {.refuse_at = want->refuse_at};
	struct oq_pr_sink sink = {on_record, on_pair, &c};
	enum oq_pr_outcome out;
	uint16_t status = 0xbeef;

	view.alias_index = NULL;
	out = oq_sa_path_record(&view, method, cm, req, requester, &sink,
				&status);
	view.alias_index = &alias_ix;
	need(out == want_out && status == want_st);
	need(c.records == want->records && c.calls == want->calls &&
	     c.pairs == want->pairs && c.pair_records == want->pair_records &&
	     c.hash == want->hash);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	uint8_t payload[OQ_SA_DATA_LEN] = {0}, *req;
	struct count c = {0};
	struct oq_pr_sink sink = {on_record, on_pair, &c};
	const struct oq_port *requester;
	enum oq_pr_outcome out;
	uint64_t cm = 0;
	uint16_t status = 0xbeef;
	uint8_t flags, method;
	size_t len, i;

	if (!ready) {
		init();
		ready = true;
	}
	if (size < HDR)
		return 0;
	flags = data[0];
	method = data[1];
	requester = view.fabric->ports[data[2] % view.fabric->n_ports];
	if (!oq_port_is_endport(requester))
		requester = &requester->node->ports[0];
	if (flags & 4)
		requester = NULL;
	c.refuse_at = data[3];
	for (i = 0; i < 8; i++)
		cm = cm << 8 | data[4 + i];
	len = data[12] % (OQ_SA_DATA_LEN + 1);
	memcpy(payload, data + HDR,
	       size - HDR < sizeof(payload) ? size - HDR : sizeof(payload));

	view.qos = !(flags & 8);
	view.apply_path_bits = !(flags & 16);
	view.allow_both_pkeys = flags & 32;
	view.policy = flags & 64 ? NULL : policy;
	view.matcher = flags & 64 ? NULL : matcher;
	view.path_sl = flags & 128 ? engine_sl : NULL;
	view.alias_index = &alias_ix;

	if (flags & 1) {
		req = malloc(len ? len : 1);
		need(req);
		memcpy(req, payload, len);
		out = oq_sa_multipath_record(&view, method, flags & 2, cm, req,
					     len, requester, &sink, &status);
		/* NumbPath bounds the answer (the APM case gives 2). */
		need(c.records <= 127);
		if (out == OQ_PR_RESPOND && (cm & (1ull << 6)))
			need(c.records <= (req[5] & 0x7fu));
		need(out != OQ_PR_DELEGATE);
	} else {
		req = malloc(OQ_PR_REC_SIZE);
		need(req);
		memcpy(req, payload, OQ_PR_REC_SIZE);
		out = oq_sa_path_record(&view, method, cm, req, requester,
					&sink, &status);
		same_without_index(method, cm, req, requester, &c, out, status);
		/* NumbPath per pair (Get: 1 per pair). */
		if (out == OQ_PR_RESPOND && (cm & (1ull << 12)) &&
		    method == OQ_SA_GET_TABLE)
			need(c.records <= c.pairs * (req[49] & 0x7fu));
		if (method == OQ_SA_GET)
			need(c.records <= c.pairs);
	}
	free(req);

	switch (out) {
	case OQ_PR_RESPOND:
		need(status == 0);
		need(requester != NULL);
		break;
	case OQ_PR_ERROR:
		need(status != 0 && c.calls == 0 && c.pairs == 0);
		break;
	case OQ_PR_DELEGATE:
	case OQ_PR_DROP:
		need(c.calls == 0 && c.pairs == 0);
		need(out != OQ_PR_DROP || requester == NULL);
		break;
	default:
		abort();
	}
	/* Every record was counted by exactly one pair.  (A record the
	 * sink refused in the APM case is still counted by its pair.) */
	if (!c.refuse_at)
		need(c.pair_records == c.records);
	return 0;
}
