// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Isolation property test of the SA engine: over random
 * fabrics (trees of switches and CAs, LFTs routed by BFS, LMC 0-2, random
 * partition tables), random policies (text parsed by the real parser,
 * bound and compiled) and random PathRecord/MultiPathRecord requests,
 * every record oq_sa_path_record()/oq_sa_multipath_record() returns must
 *   - join ports that share its P_Key (same 15 bits, one full member);
 *   - carry a P_Key of the pair's QoS level's list when it has one,
 *     whatever P_Key, SL or wildcard was asked for;
 *   - carry the level's SL when it has one (and the requested SL when
 *     one was asked for);
 *   - join ends the requester can see (osm_physp_share_pkey());
 *   - use only LIDs the level's path-bits allow on ends with LMC > 0;
 * and an APM MultiPathRecord whose cells are each hidden from the
 * requester or answered alone must have records when one cell is
 * answered (check_apm_complete).
 * The checks use their own partition logic, not policy/path_pkey.c, and
 * the reference matcher (oq_match_naive), not the compiled one.
 *
 * One exemption is OpenSM 3.3.23's behaviour, kept because raw packets
 * carry no P_Key at all: RawTraffic records have P_Key 0 and skip the
 * level's P_Key list (osm_sa_path_record.c:617-619, 833-835); they are
 * counted, not failed.  OpenSM's MultiPathRecord APM branch (2 x 2 GIDs,
 * NumbPath 2) also skips the requester's visibility checks; osmqos does
 * not (policy/sa_multipath.c), and this test holds it to that.
 *
 * OQ_ISO_SEED and OQ_ISO_FABRICS override the seed and the fabric count;
 * a failure prints the seed, the fabric number, the policy and the
 * request that broke the property.  OQ_ISO_STRICT=1 fails on the
 * exemptions too, to print counterexamples of them.
 */
#include "sa_isolation_world.h"
#include "sa_wire_bits.h"

#define POLICIES 3  /* per fabric */
#define REQUESTS 60 /* per policy */

static struct {
	unsigned long fabrics, policies, rejected, requests, records;
	unsigned long pkey_level_records, sl_level_records, bits_records;
	unsigned long raw_records, raw_level_pkey, apm_records;
	/* APM requests whose visible cells all have paths, and those of
	 * them with a hidden cell (check_apm_complete). */
	unsigned long apm_complete_checked, apm_complete_hidden;
	uint64_t seed;
	unsigned long fabric_no;
} st;

/* ---- the properties, with their own partition logic ----------------- */

/* Best membership of a key's 15 bits in a port's table: 0, 1 limited,
 * 2 full. */
static int membership(const struct oq_fabric *f, const struct oq_port *p,
		      uint16_t key)
{
	int best = 0;
	size_t i, n;
	const uint16_t *pk = oq_port_pkeys(f, p, &n);

	for (i = 0; i < n; i++)
		if ((pk[i] & OQ_PKEY_MASK) == (key & OQ_PKEY_MASK) &&
		    (pk[i] & OQ_PKEY_MASK)) {
			int m = pk[i] & OQ_PKEY_FULL ? 2 : 1;

			if (m > best)
				best = m;
		}
	return best;
}

static bool share(const struct oq_fabric *f, const struct oq_port *a,
		  const struct oq_port *b, uint16_t key)
{
	int x = membership(f, a, key), y = membership(f, b, key);

	return x && y && (x == 2 || y == 2);
}

static bool has_table(const struct oq_fabric *f, const struct oq_port *p)
{
	size_t i, n;
	const uint16_t *pk = oq_port_pkeys(f, p, &n);

	for (i = 0; i < n; i++)
		if (pk[i] & OQ_PKEY_MASK)
			return true;
	return false;
}

/* osm_physp_share_pkey(): what a requester may see. */
static bool visible(const struct oq_fabric *f, const struct oq_port *a,
		    const struct oq_port *b)
{
	size_t i, n;
	const uint16_t *pk;

	if (a == b || !has_table(f, a) || !has_table(f, b))
		return true;
	pk = oq_port_pkeys(f, a, &n);
	for (i = 0; i < n; i++)
		if (share(f, a, b, pk[i]))
			return true;
	return false;
}

/* One request as the checks need it. */
struct req {
	bool mpr, apm;
	uint8_t method;
	uint64_t cm; /* PathRecord bits (MPR translated) */
	bool raw;
	uint16_t pkey, qos_class;
	uint8_t sl;
	uint64_t sid;
	const struct oq_port *requester;
	uint8_t data[OQ_SA_DATA_LEN]; /* as sent, for the report */
	uint64_t wire_cm;
	const struct oq_alias *gid[6]; /* MPR: SGIDs then DGIDs */
};

struct collect {
	uint8_t (*rec)[OQ_PR_REC_SIZE];
	unsigned int n, cap;
};

static int collect_record(void *ctx, const uint8_t *rec)
{
	struct collect *c = ctx;

	if (c->n == c->cap) {
		unsigned int cap = c->cap ? 2 * c->cap : 256;
		void *v = realloc(c->rec, (size_t)cap * OQ_PR_REC_SIZE);

		if (!v)
			return -1;
		c->rec = v;
		c->cap = cap;
	}
	memcpy(c->rec[c->n++], rec, OQ_PR_REC_SIZE);
	return 0;
}

static void dump(const struct world *w, const struct req *q, const uint8_t *rec,
		 const char *what)
{
	unsigned int i;

	fprintf(stderr,
		"ISOLATION COUNTEREXAMPLE: %s\nseed 0x%llx fabric #%lu "
		"(OQ_ISO_SEED=0x%llx OQ_ISO_FABRICS=1 reproduces it)\n",
		what, (unsigned long long)st.seed, st.fabric_no,
		(unsigned long long)(st.seed + st.fabric_no));
	for (i = 0; i < w->n_ends; i++) {
		const struct oq_port *p = w->ends[i];
		size_t k, n;
		const uint16_t *pk = oq_port_pkeys(w->f, p, &n);

		fprintf(stderr, "  end %s guid 0x%llx lid %u lmc %u pkeys",
			p->node->desc, (unsigned long long)p->guid, p->lid,
			p->lmc);
		for (k = 0; k < n; k++)
			fprintf(stderr, " 0x%04x", pk[k]);
		fprintf(stderr, "\n");
	}
	fprintf(stderr, "  allow_both_pkeys %d\n--- policy\n%s---\n",
		w->allow_both, w->text);
	fprintf(stderr,
		"request: %s method 0x%x comp_mask 0x%llx requester 0x%llx\n",
		q->mpr ? "MultiPathRecord" : "PathRecord", q->method,
		(unsigned long long)q->wire_cm,
		(unsigned long long)q->requester->guid);
	for (i = 0; i < (q->mpr ? OQ_SA_DATA_LEN : OQ_PR_REC_SIZE); i++)
		fprintf(stderr, "%02x%s", q->data[i], i % 16 == 15 ? "\n" : "");
	fprintf(stderr, "\nrecord:\n");
	for (i = 0; i < OQ_PR_REC_SIZE; i++)
		fprintf(stderr, "%02x%s", rec[i], i % 16 == 15 ? "\n" : "");
}

#define CHECK(cond, what)                                                      \
	do {                                                                   \
		if (!(cond)) {                                                 \
			dump(w, q, rec, what);                                 \
			fail_msg("property broken: %s", what);                 \
		}                                                              \
	} while (0)

/* OQ_ISO_STRICT=1: the stock-OpenSM exemptions fail too (to find and
 * print counterexamples of them). */
static bool strict;

static void check_record(const struct world *w, const struct req *q,
			 const uint8_t *rec)
{
	const struct oq_alias *sa, *da;
	const struct oq_port *s, *d, *ps, *pd;
	const struct oq_qos_level *l = NULL;
	struct oq_query mq = {0};
	struct oq_decision dec;
	uint16_t pkey = oq_get16(rec + PR_PKEY);
	uint16_t slid = oq_get16(rec + PR_SLID), dlid = oq_get16(rec + PR_DLID);
	uint8_t sl = rec[PR_QOS_SL + 1] & 0xf;

	st.records++;
	sa = oq_alias_find(w->al, w->n_al, oq_get64(rec + PR_SGID + 8));
	da = oq_alias_find(w->al, w->n_al, oq_get64(rec + PR_DGID + 8));
	CHECK(sa && da, "record names a GID the SA does not know");
	s = sa->port;
	d = da->port;
	ps = oq_fabric_port_by_lid(w->f, slid);
	pd = oq_fabric_port_by_lid(w->f, dlid);
	CHECK(ps && pd, "record has a LID no port owns");
	if (ps->node->type == OQ_NODE_SWITCH)
		ps = &ps->node->ports[0];
	if (pd->node->type == OQ_NODE_SWITCH)
		pd = &pd->node->ports[0];
	CHECK(ps == s && pd == d, "record's LIDs are not its GIDs' ports");

	/* The pair's level, by the reference matcher. */
	mq.src = s;
	mq.dst = d;
	mq.has_sid = (q->cm & CM_SID) == CM_SID;
	mq.sid = q->sid;
	mq.has_qos_class = !!(q->cm & CM_QOSCLASS);
	mq.qos_class = q->qos_class;
	mq.has_pkey = !!(q->cm & CM_PKEY);
	mq.pkey = q->pkey;
	oq_match_naive(w->bind, &mq, &dec);
	if (dec.level >= 0 && (size_t)dec.level < w->pol->n_levels)
		l = &w->pol->levels[dec.level];

	/* Partitions. */
	if (q->raw) {
		st.raw_records++;
		CHECK(pkey == 0, "RawTraffic record with a P_Key");
		if (l && l->pkeys.n)
			st.raw_level_pkey++;
		CHECK(!strict || !l || !l->pkeys.n,
		      "RawTraffic record (P_Key 0) under a level with a P_Key "
		      "list");
		/* Every pair, APM included, passed osm_physp_share_pkey(). */
		CHECK(visible(w->f, s, d),
		      "RawTraffic record joins ports that cannot see each "
		      "other");
	} else {
		CHECK(pkey & OQ_PKEY_MASK, "record without a P_Key");
		CHECK(share(w->f, s, d, pkey),
		      "record joins ports that do not share its P_Key (or two "
		      "limited members)");
		if (l && l->pkeys.n) {
			st.pkey_level_records++;
			CHECK(oq_ranges_contains(&l->pkeys,
						 pkey & OQ_PKEY_MASK),
			      "record's P_Key is not in its QoS level's list");
		}
		if (q->cm & CM_PKEY)
			CHECK((pkey & OQ_PKEY_MASK) == (q->pkey & OQ_PKEY_MASK),
			      "record's P_Key is not the requested one");
	}

	/* SL. */
	if (l && l->sl >= 0) {
		st.sl_level_records++;
		CHECK(sl == l->sl, "record's SL is not its QoS level's");
	}
	if (q->cm & CM_SL)
		CHECK(sl == q->sl, "record's SL is not the requested one");

	/* What the requester may see. */
	if (q->apm)
		st.apm_records++;
	CHECK(visible(w->f, q->requester, s) && visible(w->f, q->requester, d),
	      "requester sees an end it shares no P_Key with");

	/* Path-bits. */
	if (l && l->path_bits.n && (s->lmc || d->lmc)) {
		st.bits_records++;
		if (s->lmc)
			CHECK(oq_ranges_contains(&l->path_bits,
						 (uint64_t)(slid - s->lid)),
			      "SLID outside the level's path-bits");
		if (d->lmc)
			CHECK(oq_ranges_contains(&l->path_bits,
						 (uint64_t)(dlid - d->lid)),
			      "DLID outside the level's path-bits");
	}
}

/* ---- random requests ----------------------------------------------- */

static const struct oq_alias *random_alias(const struct world *w)
{
	return &w->al[world_rnd(w->n_al)];
}

static uint16_t random_lid(const struct world *w)
{
	return world_chance(95) ? w->lids[world_rnd(w->n_lids)]
				: (uint16_t)world_rnd(80);
}

static void random_fields(const struct world *w, struct req *q)
{
	unsigned int r = world_rnd(100);

	q->sl = (uint8_t)world_rnd(16);
	q->qos_class = (uint16_t)world_rnd(5);
	q->sid = 0x100 + world_rnd(6);
	if (r < 55)
		q->pkey = (uint16_t)(w->pool[world_rnd(w->n_pool)] |
				     (world_chance(50) ? 0x8000 : 0));
	else if (r < 80)
		q->pkey = world_chance(50) ? 0xffff : 0x7fff;
	else
		q->pkey = (uint16_t)world_rnd(0x10000);
}

static void random_pr(const struct world *w, struct req *q)
{
	static const uint64_t bits[] = {
		CM_SGID,     CM_DGID, CM_SLID, CM_DLID,	    CM_SID,
		CM_QOSCLASS, CM_PKEY, CM_SL,   CM_NUMBPATH, CM_REVERS};
	uint8_t *pr = q->data;
	size_t i;

	random_fields(w, q);
	q->method = world_chance(30) ? OQ_SA_GET : OQ_SA_GET_TABLE;
	q->cm = 0;
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (world_chance(35))
			q->cm |= bits[i];
	if (world_chance(10))
		q->cm |= CM_RAW;
	oq_put64(pr, q->sid);
	oq_put64(pr + PR_SGID,
		 world_chance(90) ? PREFIX : 0xfe80000000000000ull);
	oq_put64(pr + PR_SGID + 8,
		 world_chance(95) ? random_alias(w)->guid : world_rnd64());
	oq_put64(pr + PR_DGID,
		 world_chance(90) ? PREFIX : 0xfe80000000000000ull);
	oq_put64(pr + PR_DGID + 8,
		 world_chance(95) ? random_alias(w)->guid : world_rnd64());
	oq_put16(pr + PR_SLID, random_lid(w));
	oq_put16(pr + PR_DLID, random_lid(w));
	if (world_chance(50))
		pr[PR_HFR] = 0x80;
	pr[PR_NUMPATH] =
		(uint8_t)((world_chance(50) ? 0x80 : 0) | world_rnd(5));
	oq_put16(pr + PR_PKEY, q->pkey);
	oq_put16(pr + PR_QOS_SL, (uint16_t)(q->qos_class << 4 | q->sl));
	q->wire_cm = q->cm;
	q->raw = (q->cm & CM_RAW) && (pr[PR_HFR] & 0x80);
}

static void random_mpr(const struct world *w, struct req *q)
{
	static const struct {
		uint64_t mpr, pr;
	} bits[] = {{MCM_REVERS, CM_REVERS}, {MCM_NUMBPATH, CM_NUMBPATH},
		    {MCM_PKEY, CM_PKEY},     {MCM_QOSCLASS, CM_QOSCLASS},
		    {MCM_SL, CM_SL},	     {MCM_SID, CM_SID}};
	uint8_t *m = q->data;
	unsigned int ns, nd, i;

	random_fields(w, q);
	q->mpr = true;
	q->method = OQ_SA_GET_MULTI;
	q->wire_cm = MCM_COUNTS;
	q->cm = 0;
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (world_chance(35)) {
			q->wire_cm |= bits[i].mpr;
			q->cm |= bits[i].pr;
		}
	if (world_chance(10)) {
		q->wire_cm |= MCM_RAW;
		q->cm |= CM_RAW;
		m[0] = world_chance(50) ? 0x80 : 0;
	}
	q->raw = (q->cm & CM_RAW) && (m[0] & 0x80);
	if (world_chance(30)) { /* the APM case */
		ns = nd = 2;
		m[MPR_NUMPATH] = (uint8_t)((world_chance(50) ? 0x80 : 0) | 2);
	} else {
		ns = 1 + world_rnd(3);
		nd = 1 + world_rnd(3);
		m[MPR_NUMPATH] =
			(uint8_t)((world_chance(50) ? 0x80 : 0) | world_rnd(8));
	}
	q->apm = ns == 2 && nd == 2 && (m[MPR_NUMPATH] & 0x7f) == 2;
	oq_put16(m + MPR_PKEY, q->pkey);
	oq_put16(m + MPR_QOS_SL, (uint16_t)(q->qos_class << 4 | q->sl));
	m[MPR_SID_MSB] = (uint8_t)(q->sid >> 56);
	for (i = 0; i < 7; i++)
		m[MPR_SID_LSB + i] = (uint8_t)(q->sid >> (48 - 8 * i));
	m[MPR_SGIDCOUNT] = (uint8_t)ns;
	m[MPR_DGIDCOUNT] = (uint8_t)nd;
	for (i = 0; i < ns + nd; i++) {
		q->gid[i] = random_alias(w);
		oq_put64(m + MPR_GIDS + 16 * i, PREFIX);
		oq_put64(m + MPR_GIDS + 16 * i + 8, q->gid[i]->guid);
	}
}

/*
 * APM completeness: an empty APM answer must not come from the requester's
 * visibility alone.  When every cell (source i, destination j) is either
 * hidden from the requester or answered as a 1x1 MultiPathRecord (two
 * ports with no common P_Key are no path, not hidden), and one
 * is answered, the APM answer has records: a diagonal that only hidden
 * cells emptied never wins over a visible path (OpenSM's "min hops 0"
 * choice would pick it).  Ends with LMC 0 only, where the APM branch and
 * the 1x1 request try the same LID pair.
 */
static void check_apm_complete(struct world *w, const struct req *q,
			       unsigned int answered)
{
	struct collect one = {0};
	struct oq_pr_sink sink = {collect_record, NULL, &one};
	unsigned int i, j, ok = 0, hidden = 0;
	uint16_t status;

	if (!q->apm)
		return;
	for (i = 0; i < 4; i++)
		if (q->gid[i]->port->lmc)
			return;
	for (i = 0; i < 2; i++)
		for (j = 2; j < 4; j++) {
			const struct oq_port *s = q->gid[i]->port;
			const struct oq_port *d = q->gid[j]->port;
			uint8_t m[OQ_SA_DATA_LEN];

			if (!visible(w->f, q->requester, s) ||
			    !visible(w->f, q->requester, d)) {
				hidden++;
				continue;
			}
			/* No common P_Key: no path, as OpenSM finds it
			 * (its diagonal may win, empty, as in OpenSM). */
			if (!visible(w->f, s, d)) {
				free(one.rec);
				return;
			}
			memcpy(m, q->data, sizeof(m));
			m[MPR_SGIDCOUNT] = m[MPR_DGIDCOUNT] = 1;
			memcpy(m + MPR_GIDS, q->data + MPR_GIDS + 16 * i, 16);
			memcpy(m + MPR_GIDS + 16, q->data + MPR_GIDS + 16 * j,
			       16);
			one.n = 0;
			oq_sa_multipath_record(&w->v, q->method, true,
					       q->wire_cm, m, OQ_SA_DATA_LEN,
					       q->requester, &sink, &status);
			if (!one.n) {
				free(one.rec);
				return; /* a visible cell without a path */
			}
			ok++;
		}
	free(one.rec);
	if (!ok)
		return;
	st.apm_complete_checked++;
	if (hidden)
		st.apm_complete_hidden++;
	if (!answered) {
		dump(w, q, q->data,
		     "APM answer empty while its visible cells have paths");
		fail_msg("property broken: APM completeness");
	}
}

static void one_request(struct world *w, struct collect *c)
{
	struct oq_pr_sink sink = {collect_record, NULL, c};
	struct req q;
	uint16_t status;
	unsigned int i;

	memset(&q, 0, sizeof(q));
	q.requester = w->ends[world_rnd(w->n_ends)];
	c->n = 0;
	if (world_chance(30)) {
		random_mpr(w, &q);
		oq_sa_multipath_record(&w->v, q.method, true, q.wire_cm, q.data,
				       OQ_SA_DATA_LEN, q.requester, &sink,
				       &status);
		check_apm_complete(w, &q, c->n);
	} else {
		random_pr(w, &q);
		oq_sa_path_record(&w->v, q.method, q.cm, q.data, q.requester,
				  &sink, &status);
	}
	st.requests++;
	for (i = 0; i < c->n; i++)
		check_record(w, &q, c->rec[i]);
}

static unsigned long env_ulong(const char *name, unsigned long def)
{
	const char *s = getenv(name);

	return s && *s ? strtoul(s, NULL, 0) : def;
}

static void test_isolation(void **state)
{
	unsigned long n_fabrics = env_ulong("OQ_ISO_FABRICS", 600), i;
	struct collect c = {0};

	(void)state;
	st.seed = env_ulong("OQ_ISO_SEED", 0x15013710);
	strict = env_ulong("OQ_ISO_STRICT", 0) != 0;
	for (i = 0; i < n_fabrics; i++) {
		struct world w;
		unsigned int p, r;

		/* One seed per fabric: a failure reproduces on its own. */
		st.fabric_no = i;
		world_rng = (st.seed + i) * 0x9e3779b97f4a7c15ull | 1;
		memset(&w, 0, sizeof(w));
		world_fabric_build(&w);
		st.fabrics++;
		for (p = 0; p < POLICIES; p++) {
			if (!world_policy_build(&w)) {
				st.rejected++;
				continue;
			}
			st.policies++;
			for (r = 0; r < REQUESTS; r++)
				one_request(&w, &c);
			world_policy_free(&w);
		}
		oq_fabric_free(w.f);
	}
	free(c.rec);
	printf("isolation: seed 0x%llx: %lu fabrics, %lu policies (%lu "
	       "drawn policies rejected by the validator), %lu requests, "
	       "%lu records checked\n",
	       (unsigned long long)st.seed, st.fabrics, st.policies,
	       st.rejected, st.requests, st.records);
	printf("isolation: %lu records under a level P_Key list, %lu under "
	       "a level SL, %lu under path-bits with LMC > 0\n",
	       st.pkey_level_records, st.sl_level_records, st.bits_records);
	printf("isolation: stock-OpenSM exemption: %lu RawTraffic records "
	       "(P_Key 0; %lu of them under a level P_Key list); %lu APM "
	       "MultiPathRecord records, all visible to their requester\n",
	       st.raw_records, st.raw_level_pkey, st.apm_records);
	printf("isolation: APM completeness: %lu requests whose visible "
	       "cells all have paths (%lu with a hidden cell) answered\n",
	       st.apm_complete_checked, st.apm_complete_hidden);
	/* The generator must exercise what it claims to. */
	assert_true(st.policies > n_fabrics);
	assert_true(st.records > 1000 || n_fabrics < 50);
	assert_true(st.apm_complete_hidden > 0 || n_fabrics < 50);
	assert_true(st.pkey_level_records > 0 || n_fabrics < 50);
	assert_true(st.bits_records > 0 || n_fabrics < 50);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isolation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
