// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SA half of `osmqos drift`: for a sample of CA pairs, one PathRecord
 * Get by SLID/DLID (an answer that fits one MAD, which umad2sim needs),
 * judged with the same matcher `osmqos query --policy` and `osmqos match`
 * use.  The SL must be the level's; MTU and rate may not exceed the
 * level's limits; packet life must be the level's when it sets one; the
 * P_Key must be one of the level's when it lists any.
 */
#include <config.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/json.h>
#include <osmqos/model.h>
#include <osmqos/path.h>

#include "cmd_drift.h"
#include "mad/sa_client.h"

#define MAX_CANDIDATES 4096

struct cand {
	const struct oq_port *src, *dst;
	struct oq_decision d;
	bool taken;
};

/* xorshift64: a fixed, portable sequence, so two drift checks of one fabric ask
 * the same pairs. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static size_t list_cas(const struct oq_fabric *f, const struct oq_port ***out)
{
	const struct oq_port **v;
	size_t i, n = 0;

	v = calloc(f->n_ports ? f->n_ports : 1, sizeof(*v));
	if (!v)
		return 0;
	for (i = 0; i < f->n_ports; i++) {
		const struct oq_port *p = f->ports[i];

		if (p->node->type == OQ_NODE_CA && p->num && p->lid)
			v[n++] = p;
	}
	*out = v;
	return n;
}

/* Every ordered pair when there are few, else MAX_CANDIDATES random ones;
 * shuffled either way. */
static size_t candidates(const struct oq_port **cas, size_t n,
			 struct cand **out)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	size_t total = n * (n - 1), want, i, j, k = 0;
	struct cand *c;

	want = total <= MAX_CANDIDATES ? total : MAX_CANDIDATES;
	c = calloc(want ? want : 1, sizeof(*c));
	if (!c)
		return 0;
	if (total <= MAX_CANDIDATES) {
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				if (i != j) {
					c[k].src = cas[i];
					c[k++].dst = cas[j];
				}
		for (i = k; i > 1; i--) {
			struct cand t;

			j = (size_t)(next_rand(&seed) % i);
			t = c[i - 1];
			c[i - 1] = c[j];
			c[j] = t;
		}
	} else {
		while (k < want) {
			i = (size_t)(next_rand(&seed) % n);
			j = (size_t)(next_rand(&seed) % n);
			if (i == j)
				continue;
			c[k].src = cas[i];
			c[k++].dst = cas[j];
		}
	}
	*out = c;
	return k;
}

/* Mark up to sample candidates: one per QoS level first, then in order. */
static unsigned int pick(struct cand *c, size_t n, unsigned int sample,
			 const struct oq_policy *pol, unsigned int *levels)
{
	bool *seen = calloc(pol->n_levels + 1, sizeof(*seen));
	unsigned int taken = 0;
	size_t i;

	*levels = 0;
	for (i = 0; seen && i < n && taken < sample; i++) {
		size_t l = (size_t)(c[i].d.level + 1);

		if (l > pol->n_levels || seen[l])
			continue;
		seen[l] = true;
		c[i].taken = true;
		taken++;
		(*levels)++;
	}
	for (i = 0; i < n && taken < sample; i++) {
		if (!c[i].taken) {
			c[i].taken = true;
			taken++;
		}
	}
	free(seen);
	return taken;
}

static struct drift *pair_drift(struct drift_list *out,
				      const char *kind, const struct cand *c)
{
	struct drift *d = drift_add(out, kind);

	if (!d)
		return NULL;
	d->src = c->src;
	d->dst = c->dst;
	d->rule = c->d.rule;
	d->level = c->d.level;
	return d;
}

static int num_drift(struct drift_list *out, const char *kind,
		     const struct cand *c, const char *op, unsigned int want,
		     unsigned int got)
{
	struct drift *d = pair_drift(out, kind, c);

	if (!d)
		return -1;
	snprintf(d->exp_text, sizeof(d->exp_text), "%s%u", op, want);
	snprintf(d->got_text, sizeof(d->got_text), "%u", got);
	if (*op)
		snprintf(d->exp_json, sizeof(d->exp_json), "\"%s%u\"", op,
			 want);
	else
		snprintf(d->exp_json, sizeof(d->exp_json), "%u", want);
	snprintf(d->got_json, sizeof(d->got_json), "%u", got);
	return 0;
}

/* A bounded string buffer: a piece that does not fit ends it (an escape
 * or a UTF-8 sequence is never cut), room for the closing quote kept. */
struct qbuf {
	char *p;
	size_t len, n;
	bool full;
};

static void qbuf_put(void *ctx, const char *s, size_t k)
{
	struct qbuf *b = ctx;
	size_t i;

	if (b->full)
		return;
	if (b->n + k + 8 >= b->len) {
		/* Plain ASCII may be cut anywhere; anything else is whole. */
		for (i = 0; i < k && b->n + 8 < b->len; i++) {
			if ((unsigned char)s[i] >= 0x80 || s[i] == '\\')
				break;
			b->p[b->n++] = s[i];
		}
		b->full = true;
		return;
	}
	memcpy(b->p + b->n, s, k);
	b->n += k;
}

/* prefix and s as one JSON string into buf (escaped; cut short, still
 * valid). */
static void json_quote(char *buf, size_t len, const char *prefix, const char *s)
{
	struct qbuf b = {.p = buf, .len = len, .n = 0};

	if (len < 3)
		return;
	buf[b.n++] = '"';
	oq_json_escape(prefix, SIZE_MAX, qbuf_put, &b);
	oq_json_escape(s, SIZE_MAX, qbuf_put, &b);
	buf[b.n++] = '"';
	buf[b.n] = '\0';
}

/* The record against the level; -1 only when out of memory. */
static int judge(const struct cand *c, const struct oq_policy *pol,
		 const struct oq_path_rec *r, struct drift_list *out)
{
	const struct oq_qos_level *l;
	int rc = 0;

	if (c->d.level < 0 || (size_t)c->d.level >= pol->n_levels)
		return 0; /* no level: OpenSM's defaults, nothing to hold */
	l = &pol->levels[c->d.level];
	if (l->sl >= 0 && r->sl != l->sl)
		rc |= num_drift(out, "sa_sl", c, "", (unsigned int)l->sl,
				r->sl);
	if (l->mtu_limit >= 0 && r->mtu > l->mtu_limit)
		rc |= num_drift(out, "sa_mtu", c,
				"<=", (unsigned int)l->mtu_limit, r->mtu);
	if (l->rate_limit >= 0 &&
	    oq_path_rate_cmp(r->rate, (uint8_t)l->rate_limit) > 0)
		rc |= num_drift(out, "sa_rate", c,
				"<=", (unsigned int)l->rate_limit, r->rate);
	if (l->packet_life >= 0 && r->pkt_life != l->packet_life)
		rc |= num_drift(out, "sa_pkt_life", c, "",
				(unsigned int)l->packet_life, r->pkt_life);
	if (l->pkeys.n && !oq_ranges_contains(&l->pkeys, r->pkey & 0x7fff)) {
		struct drift *d = pair_drift(out, "sa_pkey", c);

		if (!d)
			return -1;
		snprintf(d->exp_text, sizeof(d->exp_text),
			 "a P_Key of level %s", l->name ? l->name : "?");
		json_quote(d->exp_json, sizeof(d->exp_json), "level ",
			   l->name ? l->name : "?");
		snprintf(d->got_text, sizeof(d->got_text), "0x%04x", r->pkey);
		snprintf(d->got_json, sizeof(d->got_json), "%u", r->pkey);
	}
	return rc;
}

/* An error answer: drift only when the pair shares a partition, i.e.
 * OpenSM would have a path to give. */
static int refused(const struct oq_fabric *f, const struct cand *c,
		   uint16_t status, struct drift_list *out)
{
	struct drift *d;

	if (!oq_ports_share_pkey(f, c->src, c->dst, 0, NULL))
		return 0;
	d = pair_drift(out, "sa_status", c);
	if (!d)
		return -1;
	snprintf(d->exp_text, sizeof(d->exp_text), "a PathRecord");
	snprintf(d->exp_json, sizeof(d->exp_json), "\"PathRecord\"");
	snprintf(d->got_text, sizeof(d->got_text), "%s (0x%04x): %s",
		 status ? oq_sa_status_name(status) : "no records", status,
		 oq_sa_status_hint(status ? status : 0x0300));
	snprintf(d->got_json, sizeof(d->got_json), "\"%s\"",
		 status ? oq_sa_status_name(status) : "ERR_NO_RECORDS");
	return 0;
}

static int ask(const struct oq_fabric *f, struct oq_sa_port *sp,
	       const struct cand *c, int timeout_ms,
	       const struct oq_policy *pol, struct drift_list *out, char *err,
	       size_t errlen)
{
	struct oq_sa_req req;
	struct oq_sa_resp resp;
	int rc;

	memset(&req, 0, sizeof(req));
	req.method = OQ_SA_METHOD_GET;
	req.fields = OQ_SAF_SLID | OQ_SAF_DLID;
	req.pr.slid = c->src->lid;
	req.pr.dlid = c->dst->lid;
	if (oq_sa_query(sp, &req, timeout_ms, &resp, err, errlen))
		return -1;
	if (resp.status || !resp.n)
		rc = refused(f, c, resp.status, out);
	else
		rc = judge(c, pol, &resp.recs[0], out);
	oq_sa_resp_free(&resp);
	if (rc)
		snprintf(err, errlen, "out of memory");
	return rc;
}

int drift_sa_check(const struct oq_fabric *f, const struct oq_policy *pol,
		   const struct oq_matcher *m, const char *ca, int port,
		   int timeout_ms, unsigned int sample,
		   struct drift_list *out, struct drift_sa_stats *st,
		   char *err, size_t errlen)
{
	const struct oq_port **cas = NULL;
	struct cand *c = NULL;
	struct oq_sa_port sp;
	size_t n_cas, n, i;
	int rc = 0;

	memset(st, 0, sizeof(*st));
	if (!sample)
		return 0;
	n_cas = list_cas(f, &cas);
	n = n_cas >= 2 ? candidates(cas, n_cas, &c) : 0;
	for (i = 0; i < n; i++) {
		struct oq_query q;

		memset(&q, 0, sizeof(q));
		q.src = c[i].src;
		q.dst = c[i].dst;
		oq_match(m, &q, &c[i].d);
	}
	if (!n || !pick(c, n, sample, pol, &st->levels))
		goto done;
	if (oq_sa_open(ca, port, &sp, err, errlen)) {
		rc = -1;
		goto done;
	}
	for (i = 0; i < n && !rc; i++) {
		if (!c[i].taken)
			continue;
		rc = ask(f, &sp, &c[i], timeout_ms, pol, out, err, errlen);
		st->pairs += !rc;
	}
	oq_sa_close(&sp);
done:
	free(c);
	free(cas);
	return rc;
}
