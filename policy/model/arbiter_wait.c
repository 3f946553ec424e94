// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The worst wait of one VL's packet at an output port, computed on the
 * arbiter automaton of docs/model.md (section "Latency"), not estimated.
 *
 * Every other VL of the backlog set always has a packet; the VL under
 * study may be idle or busy at any decision (a packet may arrive at any
 * time).  A packet of the VL that becomes the head of its queue right
 * after a decision waits for the packet that decision put on the wire,
 * then for everything the arbiter sends before it picks the VL.  The
 * automaton is stepped one packet at a time; every state reachable under
 * every idle/busy pattern of the VL is visited (a hash set of states),
 * and the wait from each state is the sum of the bytes sent until the
 * VL is picked with a packet waiting, memoised along the deterministic
 * chain of busy decisions.  The worst over all reachable states is
 * exact for the model: no state is sampled, none is left out.
 *
 * Entries move on as soon as they end ("eager"): an entry whose VL has no
 * packet when the previous one ends is passed over, the reading of IBA
 * 7.6.9 that gives the longer wait.
 */
#include <stdlib.h>
#include <string.h>

#include <osmqos/htab.h>
#include <osmqos/model.h>

#define CREDIT	   64u
#define LIMIT_UNIT 4096u
#define NO_VAL	   UINT64_MAX
#define IN_WORK	   (UINT64_MAX - 1)

struct lane {
	uint8_t vl[OQ_VLARB_MAX];
	uint8_t w[OQ_VLARB_MAX];
	unsigned int n;
};

struct wctx {
	struct lane hi, lo;
	uint16_t others; /* always backlogged */
	unsigned int vl; /* the VL under study */
	uint32_t bytes[OQ_MAX_VLS], credits[OQ_MAX_VLS];
	bool unlimited;
	uint32_t limit_bytes;
	/* A table with no entry for the VL, when every packet has the same
	 * size: where it stands changes nothing but what it sends, which is
	 * never the VL, so its position is left out of the state (uniform:
	 * the size). */
	bool flat_hi, flat_lo;
	uint32_t uniform;
	/* A flat high table that always has a packet, under a limit: the
	 * bytes of its run between two low packets (0: not the case). */
	uint32_t burst;
	/* The state set: packed states, numbered in the order they were
	 * found (idx: state -> number), and per state the wait from it with
	 * the VL busy (NO_VAL: not computed yet). */
	struct oq_htab idx;
	uint64_t *key, *val;
	size_t cap, n, max_states;
	bool oom, capped;
};

struct wstate {
	uint8_t hi_idx, lo_idx;
	int16_t hi_rem, lo_rem;
	uint32_t cnt;
};

static uint64_t pack(const struct wstate *s)
{
	return (uint64_t)s->hi_idx | (uint64_t)s->lo_idx << 6 |
	       (uint64_t)(uint16_t)s->hi_rem << 12 |
	       (uint64_t)(uint16_t)s->lo_rem << 28 | (uint64_t)s->cnt << 44;
}

static void unpack(uint64_t k, struct wstate *s)
{
	s->hi_idx = k & 63;
	s->lo_idx = (k >> 6) & 63;
	s->hi_rem = (int16_t)(uint16_t)(k >> 12);
	s->lo_rem = (int16_t)(uint16_t)(k >> 28);
	s->cnt = (uint32_t)(k >> 44);
}

static bool usable(const struct lane *l, unsigned int i, uint16_t busy)
{
	return l->w[i] && l->vl[i] < OQ_MAX_VLS && (busy & (1u << l->vl[i]));
}

static bool lane_any(const struct lane *l, uint16_t busy)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (usable(l, i, busy))
			return true;
	return false;
}

/* Move to the next usable entry with its full weight (the caller knows
 * one exists). */
static void advance(const struct lane *l, uint16_t busy, uint8_t *idx,
		    int16_t *rem)
{
	do {
		*idx = (uint8_t)((*idx + 1) % l->n);
		*rem = l->w[*idx];
	} while (!usable(l, *idx, busy));
}

/* A lane whose entry cannot send now (its VL went idle) moves on. */
static void settle(const struct lane *l, uint16_t busy, uint8_t *idx,
		   int16_t *rem)
{
	if (l->n && lane_any(l, busy) && (*rem <= 0 || !usable(l, *idx, busy)))
		advance(l, busy, idx, rem);
}

/* What a lane sends next: its entry's VL and bytes (a flat lane: some
 * other VL, the uniform size). */
static unsigned int lane_vl(const struct lane *l, bool flat, uint8_t idx)
{
	return flat ? OQ_MAX_VLS : l->vl[idx];
}

/* Charge the lane's entry for one packet; an entry that ends moves on. */
static void charge(const struct wctx *x, const struct lane *l, bool flat,
		   uint16_t busy, unsigned int vl, uint8_t *idx, int16_t *rem)
{
	if (flat)
		return;
	*rem = (int16_t)(*rem - (int)x->credits[vl]);
	if (*rem <= 0)
		advance(l, busy, idx, rem);
}

/* What one step sent: the packet that ends it (vl, bytes: the packet put
 * on the wire) and the high burst before it (pre). */
struct sent {
	unsigned int vl;
	uint32_t bytes, pre;
};

/* One decision with the VL busy or idle: the state after it and what it
 * sent.  With a flat high table whose run is bounded (burst) a step is
 * the whole run of high packets and the low packet after it: the run is
 * H packets of one size whatever the high table's position, so the state
 * needs neither the position nor the byte counter; idle_in_run: the VL
 * was idle at some decision of the run (only then).  Returns false when
 * nothing can be sent. */
static bool decide(const struct wctx *x, struct wstate *s, bool busy_vl,
		   bool idle_in_run, struct sent *out)
{
	uint16_t busy = x->others | (busy_vl ? (uint16_t)(1u << x->vl) : 0);
	bool hi = lane_any(&x->hi, busy), lo = lane_any(&x->lo, busy);
	bool limited = !x->unlimited && lo;
	unsigned int v;
	uint32_t b;

	out->pre = 0;
	if (!x->flat_hi)
		settle(&x->hi, busy, &s->hi_idx, &s->hi_rem);
	/* A VL idle at some decision of the run lets its entry go even
	 * if it has a packet again by the low decision. */
	if (!x->flat_lo)
		settle(&x->lo, idle_in_run ? x->others : busy, &s->lo_idx,
		       &s->lo_rem);
	if (hi && x->burst && limited) {
		out->pre = x->burst;
	} else if (hi) {
		v = lane_vl(&x->hi, x->flat_hi, s->hi_idx);
		b = v < OQ_MAX_VLS ? x->bytes[v] : x->uniform;
		if (!limited || s->cnt == 0 ||
		    (uint64_t)s->cnt + b <= x->limit_bytes) {
			s->cnt = limited ? s->cnt + b : 0;
			charge(x, &x->hi, x->flat_hi, busy, v, &s->hi_idx,
			       &s->hi_rem);
			out->vl = v;
			out->bytes = b;
			return true;
		}
	}
	if (!lo)
		return false;
	v = lane_vl(&x->lo, x->flat_lo, s->lo_idx);
	b = v < OQ_MAX_VLS ? x->bytes[v] : x->uniform;
	charge(x, &x->lo, x->flat_lo, busy, v, &s->lo_idx, &s->lo_rem);
	s->cnt = 0;
	out->vl = v;
	out->bytes = b;
	return true;
}

/* The index of state k; added (value NO_VAL) when new, and *added says
 * so.  SIZE_MAX when out of memory or past the state cap. */
static size_t find(struct wctx *x, uint64_t k, bool *added)
{
	int64_t i = oq_htab_get(&x->idx, k);

	*added = false;
	if (i >= 0)
		return (size_t)i;
	if (x->n >= x->max_states) {
		x->capped = true;
		return SIZE_MAX;
	}
	if (x->n == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 512;
		uint64_t *key = realloc(x->key, cap * sizeof(*key));
		uint64_t *val;

		if (key)
			x->key = key;
		val = key ? realloc(x->val, cap * sizeof(*val)) : NULL;
		if (!val) {
			x->oom = true;
			return SIZE_MAX;
		}
		x->val = val;
		x->cap = cap;
	}
	if (oq_htab_put(&x->idx, k, (uint32_t)x->n, NULL) < 0) {
		x->oom = true;
		return SIZE_MAX;
	}
	x->key[x->n] = k;
	x->val[x->n] = NO_VAL;
	*added = true;
	return x->n++;
}

/* The wait from state k with the VL busy: bytes sent before it is
 * picked.  Follows the chain of busy decisions until a state whose wait
 * is known; UINT64_MAX when the chain loops without picking the VL. */
static uint64_t wait_from(struct wctx *x, uint64_t k0)
{
	size_t depth = 0, cap = 64, i, j;
	struct {
		size_t slot;
		uint32_t bytes;
	} *chain = malloc(cap * sizeof(*chain));
	uint64_t k = k0, w;
	bool added;

	if (!chain) {
		x->oom = true;
		return UINT64_MAX;
	}
	for (;;) {
		struct wstate s;
		struct sent st;
		uint32_t b;

		j = find(x, k, &added);
		if (j == SIZE_MAX) {
			w = UINT64_MAX;
			break;
		}
		if (x->val[j] == IN_WORK) { /* a loop that never picks vl */
			w = UINT64_MAX;
			break;
		}
		if (x->val[j] != NO_VAL) {
			w = x->val[j];
			break;
		}
		unpack(k, &s);
		if (!decide(x, &s, true, false, &st)) {
			x->val[j] = 0;
			w = 0;
			break;
		}
		if (st.vl == x->vl) {
			x->val[j] = st.pre;
			w = st.pre;
			break;
		}
		b = st.pre + st.bytes;
		if (depth == cap) {
			void *nc = realloc(chain, 2 * cap * sizeof(*chain));

			if (!nc) {
				x->oom = true;
				w = UINT64_MAX;
				break;
			}
			chain = nc;
			cap *= 2;
		}
		x->val[j] = IN_WORK;
		chain[depth].slot = j;
		chain[depth++].bytes = b;
		k = pack(&s);
	}
	/* Back along the chain: each state's wait is its packet's bytes
	 * plus the wait of the state after it.  The slots stay valid: every
	 * state of a chain is reachable, so the search added it already
	 * and the table has not grown since. */
	for (i = depth; i-- > 0;) {
		if (w != UINT64_MAX)
			w += chain[i].bytes;
		x->val[chain[i].slot] = w;
	}
	free(chain);
	return w;
}

static void load(struct lane *l, const struct oq_vlarb_table *t)
{
	unsigned int i;

	memset(l, 0, sizeof(*l));
	if (!t)
		return;
	l->n = t->n > OQ_VLARB_MAX ? OQ_VLARB_MAX : t->n;
	for (i = 0; i < l->n; i++) {
		l->vl[i] = t->e[i].vl;
		l->w[i] = t->e[i].weight;
	}
}

static void start(const struct lane *l, uint16_t busy, uint8_t *idx,
		  int16_t *rem)
{
	*idx = 0;
	*rem = l->n ? l->w[0] : 0;
	if (l->n && lane_any(l, busy) && !usable(l, 0, busy))
		advance(l, busy, idx, rem);
}

static int exact_wait(const struct oq_arb_config *c, unsigned int vl,
		      size_t max_states, struct oq_wait_result *out);

/* The config with vl's entries of one table handed to a VL that is
 * always busy (u): vl is then served by the other table only. */
static void without_table(const struct oq_arb_config *c, unsigned int vl,
			  unsigned int u, bool high, struct oq_vlarb_table *t,
			  struct oq_arb_config *out)
{
	unsigned int i;

	*out = *c;
	*t = high ? *c->high : *c->low;
	for (i = 0; i < t->n; i++)
		if (t->e[i].vl == vl)
			t->e[i].vl = (uint8_t)u;
	if (high)
		out->high = t;
	else
		out->low = t;
	out->backlog |= (uint16_t)(1u << u);
	out->pkt_bytes[u] = c->pkt_bytes[vl];
}

/*
 * A VL served from both tables, with every packet one size, can take
 * too many states for the exact search (both tables' positions matter).
 * A bound then: hand its entries of one table to an always-busy stand-in.
 * Until the real arbiter first picks the VL it behaves as that one
 * (where the VL is idle the real one passes its entries, but with one
 * packet size neither the other table's position nor the run between
 * low packets changes), and where the real one picks the VL the stand-in
 * sends another packet first: the stand-in's wait is never shorter.  The
 * smaller of the two tables' bounds is kept.
 */
static int bound_wait(const struct oq_arb_config *c, unsigned int vl,
		      size_t max_states, struct oq_wait_result *out)
{
	struct oq_vlarb_table t;
	struct oq_arb_config b;
	struct oq_wait_result w;
	unsigned int u, pass;

	for (u = 0; u < OQ_MAX_VLS; u++)
		if (!(c->backlog & (1u << u)) && u != vl)
			break;
	if (u == OQ_MAX_VLS || !c->high || !c->low)
		return 1;
	out->bytes = OQ_WAIT_UNBOUNDED;
	out->capped = true;
	for (pass = 0; pass < 2; pass++) {
		without_table(c, vl, u, pass == 0, &t, &b);
		if (exact_wait(&b, vl, max_states, &w))
			return -1;
		out->states += w.states;
		if (w.capped)
			continue;
		out->capped = false;
		out->bound = true;
		if (w.bytes < out->bytes)
			out->bytes = w.bytes;
	}
	return 0;
}

int oq_arb_worst_wait(const struct oq_arb_config *c, unsigned int vl,
		      size_t max_states, struct oq_wait_result *out)
{
	struct oq_wait_result b;
	size_t first;
	int rc;

	if (vl >= OQ_MAX_VLS)
		return -1;
	max_states = max_states ? max_states : OQ_WAIT_DEFAULT_STATES;
	/* Both tables: a first try of the exact search in a sixteenth of
	 * the states, then the bound, then the rest of the states. */
	first = max_states / 16 ? max_states / 16 : 1;
	if (!(oq_vlarb_vls(c->high) & oq_vlarb_vls(c->low) & (1u << vl)))
		return exact_wait(c, vl, max_states, out);
	rc = exact_wait(c, vl, first, out);
	if (rc || !out->capped)
		return rc;
	memset(&b, 0, sizeof(b));
	rc = bound_wait(c, vl, max_states, &b);
	if (rc < 0)
		return rc;
	if (!rc && !b.capped) {
		*out = b;
		return 0;
	}
	return exact_wait(c, vl, max_states, out);
}

static int exact_wait(const struct oq_arb_config *c, unsigned int vl,
		      size_t max_states, struct oq_wait_result *out)
{
	struct wctx x;
	struct wstate s0;
	uint64_t *stack = NULL, worst = 0;
	size_t sp = 0, scap = 0, j;
	unsigned int v;
	bool added;

	memset(out, 0, sizeof(*out));
	if (vl >= OQ_MAX_VLS || (c->high && c->high->n > OQ_VLARB_MAX) ||
	    (c->low && c->low->n > OQ_VLARB_MAX))
		return -1;
	memset(&x, 0, sizeof(x));
	x.vl = vl;
	x.others =
		(uint16_t)(c->backlog & ((1u << OQ_MAX_VLS) - 1) & ~(1u << vl));
	for (v = 0; v < OQ_MAX_VLS; v++) {
		uint32_t b = c->pkt_bytes[v] ? c->pkt_bytes[v] : c->mtu_bytes;

		if (b == 0 || b > OQ_ARB_MAX_PKT)
			return -1;
		x.bytes[v] = b;
		x.credits[v] = (b + CREDIT - 1) / CREDIT;
	}
	load(&x.hi, c->high);
	load(&x.lo, c->low);
	x.unlimited = c->high_limit == OQ_ARB_UNLIMITED;
	x.limit_bytes = (uint32_t)c->high_limit * LIMIT_UNIT;
	x.uniform = x.bytes[vl];
	for (v = 0; v < OQ_MAX_VLS; v++)
		if (((x.others | (1u << vl)) & (1u << v)) &&
		    x.bytes[v] != x.uniform)
			x.uniform = 0;
	x.flat_hi = x.uniform && !lane_any(&x.hi, (uint16_t)(1u << vl));
	x.flat_lo = x.uniform && !lane_any(&x.lo, (uint16_t)(1u << vl));
	if (x.flat_hi && !x.unlimited && lane_any(&x.hi, x.others)) {
		uint32_t h = x.limit_bytes / x.uniform;

		x.burst = (h ? h : 1) * x.uniform;
	}
	x.max_states = max_states ? max_states : OQ_WAIT_DEFAULT_STATES;
	if (!lane_any(&x.hi, (uint16_t)(1u << vl)) &&
	    !lane_any(&x.lo, (uint16_t)(1u << vl))) {
		/* No entry ever serves the VL. */
		out->bytes = OQ_WAIT_UNBOUNDED;
		return 0;
	}
	memset(&s0, 0, sizeof(s0));
	if (!x.flat_hi)
		start(&x.hi, x.others, &s0.hi_idx, &s0.hi_rem);
	if (!x.flat_lo)
		start(&x.lo, x.others, &s0.lo_idx, &s0.lo_rem);

	/* Every state reachable under any idle/busy pattern of the VL. */
	if (find(&x, pack(&s0), &added) == SIZE_MAX)
		goto done;
	scap = 1024;
	stack = malloc(scap * sizeof(*stack));
	if (!stack) {
		x.oom = true;
		goto done;
	}
	stack[sp++] = pack(&s0);
	while (sp) {
		uint64_t k = stack[--sp];
		int busy;

		/* Idle, busy, and (runs) idle then busy again. */
		for (busy = 0; busy < (x.burst ? 3 : 2); busy++) {
			struct wstate s;
			struct sent st;

			unpack(k, &s);
			if (!decide(&x, &s, busy != 0, busy == 2, &st))
				continue;
			j = find(&x, pack(&s), &added);
			if (j == SIZE_MAX)
				goto done;
			if (!added)
				continue;
			if (sp == scap) {
				uint64_t *ns =
					realloc(stack, 2 * scap * sizeof(*ns));

				if (!ns) {
					x.oom = true;
					goto done;
				}
				stack = ns;
				scap *= 2;
			}
			stack[sp++] = pack(&s);
		}
	}
	out->states = x.n;

	/* The worst wait: a packet that becomes the head right after any
	 * decision of any reachable state, idle (the wire carries another
	 * VL's packet) or busy (the VL's own previous packet). */
	for (j = 0; j < x.n; j++) {
		uint64_t k = x.key[j], w;
		int busy;

		for (busy = 0; busy < 2; busy++) {
			struct wstate s;
			struct sent st;

			unpack(k, &s);
			if (!decide(&x, &s, busy, false, &st) ||
			    (busy && st.vl != vl))
				continue;
			w = wait_from(&x, pack(&s));
			if (x.oom || x.capped)
				goto done;
			if (w == UINT64_MAX) {
				worst = OQ_WAIT_UNBOUNDED;
				goto done;
			}
			/* The packet on the wire, then the wait. */
			if (w + st.bytes > worst)
				worst = w + st.bytes;
		}
	}
done:
	free(stack);
	oq_htab_free(&x.idx);
	free(x.key);
	free(x.val);
	out->states = x.n;
	if (x.oom)
		return -1;
	out->capped = x.capped;
	out->bytes = x.capped ? OQ_WAIT_UNBOUNDED : worst;
	return 0;
}
