// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Fixture of the SA engine's unit tests (sa_test_fixture.h). */
#include "sa_test_fixture.h"
#include "osm_release_test.h"

static const char policy_text[] =
	"port-groups\n"
	"  port-group\n    name: GA\n    port-guid: 0xa01\n  end-port-group\n"
	"  port-group\n    name: GC\n    port-guid: 0xc01\n  end-port-group\n"
	"end-port-groups\n"
	"qos-levels\n"
	"  qos-level\n    name: DEFAULT\n    sl: 0\n  end-qos-level\n"
	"  qos-level\n    name: svc\n    sl: 1\n    mtu-limit: 3\n"
	"    rate-limit: 3\n    packet-life: 10\n  end-qos-level\n"
	"  qos-level\n    name: cls\n    sl: 2\n  end-qos-level\n"
	"  qos-level\n    name: grp\n    sl: 4\n    pkey: 0x0002\n"
	"  end-qos-level\n"
	"  qos-level\n    name: pk\n    sl: 3\n    pkey: 0x0001\n"
	"  end-qos-level\n"
	"  qos-level\n    name: vl15\n    sl: 7\n  end-qos-level\n"
	"  qos-level\n    name: bits\n    sl: 0\n    path-bits: 1\n"
	"  end-qos-level\n"
	"  qos-level\n    name: bits2\n    sl: 0\n    path-bits: 2\n"
	"  end-qos-level\n"
	"  qos-level\n    name: rev\n    sl: 6\n  end-qos-level\n"
	"end-qos-levels\n"
	"qos-match-rules\n"
	"  qos-match-rule\n    service-id: 0x100\n    qos-level-name: svc\n"
	"  end-qos-match-rule\n"
	"  qos-match-rule\n    qos-class: 5\n    qos-level-name: cls\n"
	"  end-qos-match-rule\n"
	"  qos-match-rule\n    service-id: 0x300\n    qos-level-name: pk\n"
	"  end-qos-match-rule\n"
	"  qos-match-rule\n    service-id: 0x400\n    qos-level-name: vl15\n"
	"  end-qos-match-rule\n"
	"  qos-match-rule\n    service-id: 0x500\n    qos-level-name: bits\n"
	"  end-qos-match-rule\n"
	"  qos-match-rule\n    service-id: 0x600\n"
	"    qos-level-name: bits2\n  end-qos-match-rule\n"
	"  qos-match-rule\n    service-id: 0x700\n    qos-level-name: rev\n"
	"  end-qos-match-rule\n"
	"  qos-match-rule\n    source: GA\n    destination: GC\n"
	"    qos-level-name: grp\n  end-qos-match-rule\n"
	"end-qos-match-rules\n";

int got_record(void *ctx, const uint8_t *rec)
{
	struct got *g = ctx;

	g->calls++;
	if (g->refuse_at && g->calls >= g->refuse_at)
		return -1;
	assert_true(g->n < MAX_REC);
	memcpy(g->rec[g->n++], rec, OQ_PR_REC_SIZE);
	return 0;
}

void got_pair(void *ctx, const struct oq_pr_pair *p)
{
	struct got *g = ctx;
	unsigned int i;

	assert_true(g->np < MAX_REC);
	/* A pair with a record brings the walk of its first record's LIDs
	 * (the MultiPathRecord APM branch keeps none); one without brings
	 * none. */
	if (p->path) {
		assert_true(p->records > 0);
		assert_int_equal(p->path->status, OQ_PATH_OK);
		assert_ptr_equal(p->path->src, p->src->port);
		assert_int_equal(p->path->dlid, p->dlid);
		assert_true(p->path->n_hop <= PATH_KEPT);
		g->n_hop[g->np] = p->path->n_hop;
		for (i = 0; i < p->path->n_hop; i++)
			g->hop[g->np][i] = p->path->hop[i];
	}
	g->pair[g->np++] = *p;
}

static void link_ports(struct oq_port *x, struct oq_port *y, enum oq_speed s)
{
	oq_fabric_link(x, y);
	x->width = y->width = 4;
	x->speed = y->speed = s;
}

static struct oq_node *add_ca(struct oq_fabric *f, uint64_t guid,
			      const char *desc, uint16_t lid, uint8_t lmc)
{
	struct oq_node *n = oq_fabric_add_node(f, OQ_NODE_CA, guid, desc, 1);

	assert_non_null(n);
	n->ports[1].guid = guid + 1;
	n->ports[1].lid = lid;
	n->ports[1].lmc = lmc;
	return n;
}

static struct oq_node *add_sw(struct oq_fabric *f, uint64_t guid,
			      const char *desc, uint16_t lid)
{
	struct oq_node *n =
		oq_fabric_add_node(f, OQ_NODE_SWITCH, guid, desc, 4);

	assert_non_null(n);
	n->ports[0].lid = lid;
	n->ports[0].width = 4; /* port 0 as ibsim reports it */
	n->ports[0].speed = OQ_SPEED_SDR;
	return n;
}

void set_pkeys(struct oq_port *p, const uint16_t *v, size_t n)
{
	assert_int_equal(oq_port_set_pkeys(p, v, n), 0);
}

static void routes(struct oq_node *sw, const uint8_t *ports)
{
	static const uint16_t lids[] = {1, 2, 10, 11, 20, 21, 30};
	size_t i;

	for (i = 0; i < sizeof(lids) / sizeof(lids[0]); i++)
		assert_int_equal(oq_node_set_lft_entry(sw, lids[i], ports[i]),
				 0);
}

static void sl2vl_tables(struct world *w)
{
	struct oq_fabric_tables *t = &w->t;
	size_t i;

	t->n = w->f->n_ports;
	t->ports = calloc(t->n, sizeof(*t->ports));
	assert_non_null(t->ports);
	for (i = 0; i < t->n; i++) {
		const struct oq_port *p = w->f->ports[i];
		struct oq_port_tables *pt = &t->ports[i];
		union oq_sl2vl_scratch sc;
		unsigned int n = p->node->type == OQ_NODE_SWITCH && p->num
					 ? p->node->n_ports + 1u
					 : 1;

		memset(&sc, 0, sizeof(sc));
		if (p == &w->sw2->ports[2])
			sc.row[3][7] = OQ_VL_DROP;
		if (p == &w->sw1->ports[1])
			sc.row[3][6] = OQ_VL_DROP;
		pt->port = p;
		pt->has_sl2vl = true;
		assert_int_equal(
			oq_port_tables_set_sl2vl(
				t, pt, (const uint8_t(*)[16])sc.row, n),
			0);
	}
}

static void fabric_build(struct world *w)
{
	static const uint16_t sw_keys[] = {0xffff};
	static const uint16_t a_keys[] = {0xffff, 0x8001, 0x8002};
	static const uint16_t b_keys[] = {0xffff, 0x8001};
	static const uint16_t c_keys[] = {0xffff, 0x0001, 0x8002};
	static const uint16_t d_keys[] = {0xffff, 0x0001};
	/* LFT ports for LIDs 1, 2, 10, 11, 20, 21, 30. */
	static const uint8_t r1[] = {0, 3, 1, 2, 3, 3, 3};
	static const uint8_t r2[] = {3, 0, 3, 3, 1, 1, 2};
	struct oq_fabric *f;
	size_t i;

	f = w->f = oq_fabric_new();
	assert_non_null(f);
	w->sw1 = add_sw(f, 0x1000, "sw1", 1);
	w->sw2 = add_sw(f, 0x2000, "sw2", 2);
	w->na = add_ca(f, 0xa00, "a", 10, 0);
	w->nb = add_ca(f, 0xb00, "b", 11, 0);
	w->nc = add_ca(f, 0xc00, "c", 20, 1);
	w->nd = add_ca(f, 0xd00, "d", 30, 0);
	link_ports(&w->na->ports[1], &w->sw1->ports[1], OQ_SPEED_QDR);
	link_ports(&w->nb->ports[1], &w->sw1->ports[2], OQ_SPEED_QDR);
	link_ports(&w->sw1->ports[3], &w->sw2->ports[3], OQ_SPEED_QDR);
	link_ports(&w->nc->ports[1], &w->sw2->ports[1], OQ_SPEED_QDR);
	link_ports(&w->nd->ports[1], &w->sw2->ports[2], OQ_SPEED_DDR);
	for (i = 0; i <= 4; i++) {
		w->sw1->ports[i].mtu_cap = 5;
		w->sw2->ports[i].mtu_cap = 5;
	}
	w->na->ports[1].mtu_cap = 5;
	w->nb->ports[1].mtu_cap = 5;
	w->nc->ports[1].mtu_cap = 5;
	w->nd->ports[1].mtu_cap = 4;
	assert_int_equal(oq_fabric_finalize(f, NULL), 0);
	w->s1 = &w->sw1->ports[0];
	w->s2 = &w->sw2->ports[0];
	w->a = &w->na->ports[1];
	w->b = &w->nb->ports[1];
	w->c = &w->nc->ports[1];
	w->d = &w->nd->ports[1];
	routes(w->sw1, r1);
	routes(w->sw2, r2);
	set_pkeys(w->s1, sw_keys, 1);
	set_pkeys(w->s2, sw_keys, 1);
	set_pkeys(w->a, a_keys, 3);
	set_pkeys(w->b, b_keys, 2);
	set_pkeys(w->c, c_keys, 3);
	set_pkeys(w->d, d_keys, 2);
	sl2vl_tables(w);
	/* As the plugin's copy of OpenSM's SL2VL: with the drop summary. */
	assert_int_equal(oq_fabric_tables_index_drops(&w->t), 0);

	w->pv[0] = (struct oq_partition){
		.name = "Default", .pkey = 0x7fff, .sl = -1};
	w->pv[1] = (struct oq_partition){.name = "P1", .pkey = 0x0001, .sl = 3};
	w->pv[2] = (struct oq_partition){.name = "P2", .pkey = 0x0002, .sl = 5};
	w->parts.v = w->pv;
	w->parts.n = 3;

	/* Deliberately unsorted: oq_alias_sort() puts them in map order. */
	w->al[0] = (struct oq_alias){0xd02, w->d};
	w->al[1] = (struct oq_alias){0xc01, w->c};
	w->al[2] = (struct oq_alias){0xa01, w->a};
	w->al[3] = (struct oq_alias){0x2000, w->s2};
	w->al[4] = (struct oq_alias){0xd01, w->d};
	w->al[5] = (struct oq_alias){0x1000, w->s1};
	w->al[6] = (struct oq_alias){0xb01, w->b};
	oq_alias_sort(w->al, 7);
}

int setup(void **state)
{
	struct world *w = calloc(1, sizeof(*w));

	assert_non_null(w);
	oq_osm_release_use(&osm_3_3_23);
	fabric_build(w);
	oq_diags_init(&w->diags);
	w->pol = oq_policy_parse("sa.conf", policy_text, strlen(policy_text),
				 &w->diags);
	assert_non_null(w->pol);
	oq_policy_validate(w->pol, &w->diags);
	if (w->diags.n_errors)
		oq_diags_print(&w->diags, stderr);
	assert_int_equal(w->diags.n_errors, 0);
	w->bind = oq_bind(w->pol, w->f, &w->parts, &w->diags);
	assert_non_null(w->bind);
	w->m = oq_matcher_compile(w->bind);
	assert_non_null(w->m);

	w->v.fabric = w->f;
	w->v.sl2vl = &w->t;
	w->v.policy = w->pol;
	w->v.matcher = w->m;
	w->v.parts = &w->parts;
	w->v.aliases = w->al;
	w->v.n_aliases = 7;
	assert_int_equal(oq_alias_index_build(w->f, &w->alias_ix, w->al, 7,
					      w->f->n_ports),
			 0);
	w->v.alias_index = &w->alias_ix;
	w->v.subnet_prefix = PREFIX;
	w->v.subnet_timeout = TIMEOUT;
	w->v.qos = true;
	w->v.apply_path_bits = true;
	w->v.lmc = 0;
	*state = w;
	return 0;
}

int teardown(void **state)
{
	struct world *w = *state;

	oq_osm_release_use(NULL);
	oq_alias_index_free(&w->alias_ix);
	oq_matcher_free(w->m);
	oq_binding_free(w->bind);
	oq_policy_free(w->pol);
	oq_diags_free(&w->diags);
	oq_fabric_tables_free(&w->t);
	oq_fabric_free(w->f);
	free(w);
	return 0;
}

int level(struct world *w, const char *name)
{
	int l = oq_policy_find_level(w->pol, name);

	assert_true(l >= 0);
	return l;
}

void put_gid(uint8_t *p, uint64_t prefix, uint64_t guid)
{
	oq_put64(p, prefix);
	oq_put64(p + 8, guid);
}

enum oq_pr_outcome pr(struct world *w, uint8_t method, uint64_t cm,
		      const uint8_t *rec, const struct oq_port *requester,
		      struct got *g, uint16_t *status)
{
	struct oq_pr_sink sink = {got_record, got_pair, g};

	return oq_sa_path_record(&w->v, method, cm, rec, requester, &sink,
				 status);
}

unsigned int table(struct world *w, uint64_t cm, const uint8_t *rec,
		   struct got *g)
{
	uint16_t st = 0xdead;

	memset(g, 0, sizeof(*g));
	assert_int_equal(pr(w, OQ_SA_GET_TABLE, cm, rec, w->a, g, &st),
			 OQ_PR_RESPOND);
	assert_int_equal(st, 0);
	return g->n;
}

void req_gids(uint8_t *rec, uint64_t sguid, uint64_t dguid)
{
	memset(rec, 0, OQ_PR_REC_SIZE);
	put_gid(rec + PR_SGID, PREFIX, sguid);
	put_gid(rec + PR_DGID, PREFIX, dguid);
}

void set_sid(uint8_t *rec, uint64_t sid)
{
	oq_put64(rec + PR_SID, sid);
}

void check_rec(const uint8_t *r, uint64_t sguid, uint64_t dguid, uint16_t slid,
	       uint16_t dlid, uint16_t pkey, uint8_t sl, uint8_t mtu,
	       uint8_t rate, uint8_t life)
{
	assert_int_equal(oq_get64(r + PR_SGID), PREFIX);
	assert_int_equal(oq_get64(r + PR_SGID + 8), sguid);
	assert_int_equal(oq_get64(r + PR_DGID), PREFIX);
	assert_int_equal(oq_get64(r + PR_DGID + 8), dguid);
	assert_int_equal(oq_get16(r + PR_SLID), slid);
	assert_int_equal(oq_get16(r + PR_DLID), dlid);
	assert_int_equal(oq_get16(r + PR_PKEY), pkey);
	assert_int_equal(oq_get16(r + PR_QOS_SL), sl); /* QoSClass 0 */
	assert_int_equal(r[PR_MTU], 0x80 | mtu);
	assert_int_equal(r[PR_RATE], 0x80 | rate);
	assert_int_equal(r[PR_LIFE], 0x80 | life);
	assert_int_equal(oq_get32(r + PR_HFR), 0); /* no router: no HopLimit */
	assert_int_equal(oq_get64(r + PR_SID), 0); /* ServiceID not echoed */
}

void mpr_build(uint8_t *m, const uint64_t *sg, unsigned int ns,
	       const uint64_t *dg, unsigned int nd)
{
	unsigned int i;

	memset(m, 0, OQ_SA_DATA_LEN);
	m[MPR_SGIDCOUNT] = (uint8_t)ns;
	m[MPR_DGIDCOUNT] = (uint8_t)nd;
	for (i = 0; i < ns; i++)
		put_gid(m + MPR_GIDS + 16 * i, PREFIX, sg[i]);
	for (i = 0; i < nd; i++)
		put_gid(m + MPR_GIDS + 16 * (ns + i), PREFIX, dg[i]);
}

enum oq_pr_outcome mpr(struct world *w, uint8_t method, bool rmpp, uint64_t cm,
		       const uint8_t *m, size_t len, struct got *g,
		       uint16_t *st)
{
	struct oq_pr_sink sink = {got_record, got_pair, g};

	memset(g, 0, sizeof(*g));
	*st = 0xdead;
	return oq_sa_multipath_record(&w->v, method, rmpp, cm, m, len, w->a,
				      &sink, st);
}

void expect_mpr_error(struct world *w, uint8_t method, bool rmpp, uint64_t cm,
		      const uint8_t *m, size_t len, uint16_t status)
{
	struct got g;
	uint16_t st;

	assert_int_equal(mpr(w, method, rmpp, cm, m, len, &g, &st),
			 OQ_PR_ERROR);
	assert_int_equal(st, status);
	assert_int_equal(g.n, 0);
}

unsigned int mpr_ok(struct world *w, uint64_t cm, const uint8_t *m,
		    struct got *g)
{
	uint16_t st;

	assert_int_equal(
		mpr(w, OQ_SA_GET_MULTI, true, cm, m, OQ_SA_DATA_LEN, g, &st),
		OQ_PR_RESPOND);
	assert_int_equal(st, 0);
	return g->n;
}

bool known_diff(bool differs, const char *what)
{
	if (differs)
		fprintf(stderr, "KNOWN DIFFERENCE WITH OPENSM: %s\n", what);
	return differs;
}
