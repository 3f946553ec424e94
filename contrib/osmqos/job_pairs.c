// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A job's ports and the pairs job-env asks about: see job_pairs.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <osmqos/policy.h>

#include "job_pairs.h"

/* A node by the first word of its NodeDescription (the host name
 * rdma-ndd writes there), or by the whole name a node-name map gives it:
 * job-env prints the node by that name, so it is taken back too. */
struct named {
	const char *word;
	size_t len;
	const struct oq_node *node;
	size_t order; /* position in the fabric */
};

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = strncasecmp(x->word, y->word, n);

	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The first named entry whose word is name[0..len), or NULL. */
static const struct named *find(const struct named *v, size_t n,
				const char *name, size_t len)
{
	struct named key = {name, len, NULL, 0};
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_named(&v[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && v[lo].len == len && !strncasecmp(v[lo].word, name, len))
		return &v[lo];
	return NULL;
}

static int add_port(struct oq_job_plan *pl, size_t *cap,
		    const struct oq_port *p, uint32_t host)
{
	if (pl->n_ports == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		struct oq_job_port *v = realloc(pl->ports, c * sizeof(*v));

		if (!v)
			return -1;
		pl->ports = v;
		*cap = c;
	}
	pl->ports[pl->n_ports].port = p;
	pl->ports[pl->n_ports].host = host;
	pl->ports[pl->n_ports++].cls = 0;
	return 0;
}

int oq_job_plan_ports(struct oq_job_plan *pl, const struct oq_fabric *f,
		      const char *const *hosts, size_t n, char *err,
		      size_t errlen)
{
	struct named *v =
		malloc((f->n_nodes ? 2 * f->n_nodes : 1) * sizeof(*v));
	size_t nv = 0, i, cap = 0, missing = 0, first_missing = 0;
	char *used = calloc(f->n_nodes ? f->n_nodes : 1, 1);

	memset(pl, 0, sizeof(*pl));
	pl->hosts = hosts;
	pl->n_hosts = n;
	if (!v || !used)
		goto nomem;
	for (i = 0; i < f->n_nodes; i++) {
		const struct oq_node *node = f->nodes[i];

		if (node->type == OQ_NODE_SWITCH)
			continue;
		v[nv].word = node->desc;
		v[nv].len = strcspn(node->desc, " \t");
		v[nv].node = node;
		v[nv++].order = i;
		if (node->name && strcmp(node->name, node->desc)) {
			v[nv].word = node->name;
			v[nv].len = strlen(node->name);
			v[nv].node = node;
			v[nv++].order = i;
		}
	}
	qsort(v, nv, sizeof(*v), cmp_named);
	for (i = 0; i < n; i++) {
		const char *h = hosts[i];
		size_t len = strlen(h), before = pl->n_ports;
		const struct named *e = find(v, nv, h, len);

		if (!e && strchr(h, '.')) { /* rdma-ndd's %h has no domain */
			len = strcspn(h, ".");
			e = find(v, nv, h, len);
		}
		for (; e && e < v + nv && e->len == len &&
		       !strncasecmp(e->word, h, len);
		     e++) {
			const struct oq_node *node = e->node;
			unsigned int p;

			if (used[e->order])
				continue;
			used[e->order] = 1;
			for (p = 1; p <= node->n_ports; p++)
				if (node->ports[p].present &&
				    add_port(pl, &cap, &node->ports[p],
					     (uint32_t)i))
					goto nomem;
		}
		if (pl->n_ports == before && !missing++)
			first_missing = i;
	}
	free(v);
	free(used);
	if (missing) {
		snprintf(err, errlen,
			 "%zu of the %zu hosts match no HCA of the fabric, "
			 "the first '%s'; a host is the first word of its "
			 "HCAs' NodeDescription (rdma-ndd's \"%%h %%d\") or "
			 "an HCA's name in the node-name map: refresh the "
			 "fabric file (ibnetdiscover) or check the host "
			 "names",
			 missing, n, hosts[first_missing]);
		oq_job_plan_free(pl);
		return -1;
	}
	return 0;
nomem:
	free(v);
	free(used);
	oq_job_plan_free(pl);
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* A port's signature: its groups (bits over the referenced groups) and
 * its P_Key table, both of which decide the SA's answer. */
struct sig {
	const uint8_t *bits;
	size_t nbytes;
	const struct oq_port *port;
	const struct oq_fabric *f; /* the fabric port's table is read in */
	size_t i;		   /* port index */
};

static int cmp_sig(const void *a, const void *b)
{
	const struct sig *x = a, *y = b;
	size_t np, nq, i;
	const uint16_t *pk = oq_port_pkeys(x->f, x->port, &np);
	const uint16_t *qk = oq_port_pkeys(y->f, y->port, &nq);
	int c = memcmp(x->bits, y->bits, x->nbytes);

	if (c)
		return c;
	if (np != nq)
		return np < nq ? -1 : 1;
	for (i = 0; i < np; i++)
		if (pk[i] != qk[i])
			return pk[i] < qk[i] ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int same_class(const struct sig *x, const struct sig *y)
{
	size_t np, nq;
	const uint16_t *pk = oq_port_pkeys(x->f, x->port, &np);
	const uint16_t *qk = oq_port_pkeys(y->f, y->port, &nq);

	return !memcmp(x->bits, y->bits, x->nbytes) && np == nq &&
	       (!np || !memcmp(pk, qk, np * sizeof(*pk)));
}

/* The groups rules name as source or destination, each once. */
static int *referenced_groups(const struct oq_policy *pol, size_t *n)
{
	char *seen = calloc(pol->n_groups ? pol->n_groups : 1, 1);
	int *out = malloc((pol->n_groups ? pol->n_groups : 1) * sizeof(*out));
	size_t r, j;

	*n = 0;
	if (!seen || !out) {
		free(seen);
		free(out);
		return NULL;
	}
	for (r = 0; r < pol->n_rules; r++) {
		const struct oq_match_rule *rule = &pol->rules[r];
		const struct oq_refs *sets[2] = {&rule->sources,
						 &rule->destinations};
		int s;

		for (s = 0; s < 2; s++)
			for (j = 0; j < sets[s]->n; j++) {
				int g = sets[s]->v[j].idx;

				if (g >= 0 && (size_t)g < pol->n_groups &&
				    !seen[g]) {
					seen[g] = 1;
					out[(*n)++] = g;
				}
			}
	}
	free(seen);
	return out;
}

/* Classes of the ports (pl->n_classes).  P_Key tables compare in table
 * order: ports of the same partitions get them in the same order (from
 * partitions.conf), and a needless split costs a question, not a wrong
 * answer. */
static int classify(struct oq_job_plan *pl, const struct oq_binding *b)
{
	const struct oq_policy *pol = oq_binding_policy(b);
	size_t ng = 0, nbytes, i, k;
	int *groups = referenced_groups(pol, &ng);
	uint8_t *bits;
	struct sig *s;

	if (!groups)
		return -1;
	nbytes = (ng + 7) / 8;
	bits = calloc(pl->n_ports * (nbytes ? nbytes : 1), 1);
	s = malloc(pl->n_ports * sizeof(*s));
	if (!bits || !s) {
		free(groups);
		free(bits);
		free(s);
		return -1;
	}
	for (i = 0; i < pl->n_ports; i++) {
		uint8_t *mine = bits + i * (nbytes ? nbytes : 1);

		for (k = 0; k < ng; k++)
			if (oq_group_has_port(b, groups[k], pl->ports[i].port))
				mine[k / 8] |= (uint8_t)(1u << (k % 8));
		s[i].bits = mine;
		s[i].nbytes = nbytes;
		s[i].port = pl->ports[i].port;
		s[i].f = oq_binding_fabric(b);
		s[i].i = i;
	}
	qsort(s, pl->n_ports, sizeof(*s), cmp_sig);
	pl->n_classes = 0;
	for (i = 0; i < pl->n_ports; i++) {
		if (i && !same_class(&s[i - 1], &s[i]))
			pl->n_classes++;
		pl->ports[s[i].i].cls = (uint32_t)pl->n_classes;
	}
	if (pl->n_ports)
		pl->n_classes++;
	free(groups);
	free(bits);
	free(s);
	return 0;
}

static int push_pair(struct oq_job_plan *pl, size_t *cap, uint32_t src,
		     uint32_t dst, uint64_t weight)
{
	if (pl->n_pairs == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		struct oq_job_pair *v = realloc(pl->pairs, c * sizeof(*v));

		if (!v)
			return -1;
		pl->pairs = v;
		*cap = c;
	}
	pl->pairs[pl->n_pairs].src = src;
	pl->pairs[pl->n_pairs].dst = dst;
	pl->pairs[pl->n_pairs++].weight = weight;
	return 0;
}

/* Σ over hosts of (ports of the host)^2: the same-host ordered pairs. */
static uint64_t same_host_pairs(const struct oq_job_plan *pl)
{
	uint64_t sum = 0;
	size_t i = 0;

	while (i < pl->n_ports) {
		size_t j = i;

		while (j < pl->n_ports &&
		       pl->ports[j].host == pl->ports[i].host)
			j++;
		sum += (uint64_t)(j - i) * (j - i);
		i = j;
	}
	return sum;
}

static int every_pair(struct oq_job_plan *pl, size_t *cap)
{
	uint32_t x, y;

	for (x = 0; x < pl->n_ports; x++)
		for (y = 0; y < pl->n_ports; y++)
			if (pl->ports[x].host != pl->ports[y].host &&
			    push_pair(pl, cap, x, y, 1))
				return -1;
	return 0;
}

/* One pair per class pair, weighted by the port pairs it stands for:
 * |a| |b| minus the pairs inside one host. */
static int class_pairs(struct oq_job_plan *pl, size_t *cap)
{
	size_t k = pl->n_classes, i, a, b;
	uint64_t *size = calloc(k, sizeof(*size));
	uint64_t *same = calloc(k * k, sizeof(*same));
	uint32_t *first = malloc(k * sizeof(*first));
	uint32_t *second = malloc(k * sizeof(*second));
	int rc = -1;

	if (!size || !same || !first || !second)
		goto out;
	for (a = 0; a < k; a++)
		first[a] = second[a] = UINT32_MAX;
	for (i = 0; i < pl->n_ports; i++) {
		uint32_t c = pl->ports[i].cls;

		size[c]++;
		if (first[c] == UINT32_MAX)
			first[c] = (uint32_t)i;
		else if (second[c] == UINT32_MAX &&
			 pl->ports[i].host != pl->ports[first[c]].host)
			second[c] = (uint32_t)i;
	}
	/* Same-host pairs per class pair, host by host. */
	i = 0;
	while (i < pl->n_ports) {
		size_t j = i, x, y;

		while (j < pl->n_ports &&
		       pl->ports[j].host == pl->ports[i].host)
			j++;
		for (x = i; x < j; x++)
			for (y = i; y < j; y++)
				same[pl->ports[x].cls * k + pl->ports[y].cls]++;
		i = j;
	}
	for (a = 0; a < k; a++) {
		for (b = 0; b < k; b++) {
			uint64_t w = size[a] * size[b] - same[a * k + b];
			uint32_t x = first[a], y;

			if (!w)
				continue;
			/* A port of b on another host than x: b's first, or
			 * else b's first on another host than its first;
			 * when b lies on x's host alone, a's port on another
			 * host (w > 0: there is one). */
			if (pl->ports[first[b]].host != pl->ports[x].host)
				y = first[b];
			else if (second[b] != UINT32_MAX)
				y = second[b];
			else {
				x = second[a];
				y = first[b];
			}
			if (push_pair(pl, cap, x, y, w))
				goto out;
		}
	}
	rc = 0;
out:
	free(size);
	free(same);
	free(first);
	free(second);
	return rc;
}

int oq_job_plan_pairs(struct oq_job_plan *pl, const struct oq_binding *b,
		      bool all_pairs, size_t max_pairs, char *err,
		      size_t errlen)
{
	size_t cap = 0;

	free(pl->pairs);
	pl->pairs = NULL;
	pl->n_pairs = 0;
	pl->all_pairs = all_pairs || !b;
	pl->grouped = !pl->all_pairs;
	pl->loopback = pl->n_hosts == 1;
	if (!pl->n_ports) {
		snprintf(err, errlen, "the job has no host");
		return -1;
	}
	if (pl->n_hosts == 1) {
		/* No pair between hosts: the loopback path of the host. */
		pl->port_pairs = 1;
		pl->n_classes = 1;
		if (push_pair(pl, &cap, 0, 0, 1))
			goto nomem;
		return 0;
	}
	pl->port_pairs =
		(uint64_t)pl->n_ports * pl->n_ports - same_host_pairs(pl);
	if (pl->all_pairs) {
		if (pl->port_pairs > max_pairs) {
			snprintf(
				err, errlen,
				"asking every pair of the job's %zu ports (%s) "
				"is %llu questions, more than %zu",
				pl->n_ports,
				b ? "--all-pairs; port classes from the "
				    "policy's groups need far fewer"
				  : "without --policy; port classes from its "
				    "groups need far fewer",
				(unsigned long long)pl->port_pairs, max_pairs);
			return -1;
		}
		pl->n_classes = pl->n_ports;
		if (every_pair(pl, &cap))
			goto nomem;
		return 0;
	}
	if (classify(pl, b))
		goto nomem;
	if (pl->n_classes > max_pairs / pl->n_classes) {
		snprintf(err, errlen,
			 "the job's %zu ports fall into %zu port classes (the "
			 "policy's groups and P_Keys): up to %zu questions, "
			 "more than %zu",
			 pl->n_ports, pl->n_classes,
			 pl->n_classes * pl->n_classes, max_pairs);
		return -1;
	}
	if (class_pairs(pl, &cap))
		goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	return -1;
}

void oq_job_plan_free(struct oq_job_plan *pl)
{
	free(pl->ports);
	free(pl->pairs);
	memset(pl, 0, sizeof(*pl));
}

void oq_job_port_name(const struct oq_job_plan *pl, uint32_t i, char *buf,
		      size_t len)
{
	oq_port_name(pl->ports[i].port, buf, len);
}
