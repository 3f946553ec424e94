// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A port named on the command line (--port, --src, --dst, --path), in
 * the forms an operator types: the name OpenSM gives the node (its
 * node-name map's, else its NodeDescription) with or without /P<n>, the
 * node's host name (the name's first word: "cn01/P1", or "cn01" for a
 * node with one port), a port or node GUID, lid:N.  A miss names the
 * closest names, or, for the NodeDescription of a node the node-name map
 * renames, the node and its name; lid:N on a fabric without LIDs (an
 * ibsim net file) says so.  See inputs.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <osmqos/node_name_map.h>
#include <osmqos/text.h>

#include "cli.h"
#include "inputs.h"

#define SUGGESTIONS 3
#define LISTED	    4

/* How the argument names a node: exactly, by host name, or ignoring
 * case. */
struct found {
	const struct oq_node *node;
	size_t n; /* nodes that fit: more than one is ambiguous */
	const struct oq_node *list[LISTED];
};

static void found_add(struct found *fd, const struct oq_node *n)
{
	if (fd->n < LISTED)
		fd->list[fd->n] = n;
	if (!fd->n)
		fd->node = n;
	fd->n++;
}

/* The length of a name's first word, its host name by convention
 * ("cn01 HCA-1", "cn01 mlx5_0"). */
static size_t host_len(const char *name)
{
	return strcspn(name, " \t");
}

static void find_node(const struct oq_fabric *f, const char *s, size_t len,
		      struct found *fd)
{
	const struct oq_node *n;
	size_t i, same;
	int pass;

	memset(fd, 0, sizeof(*fd));
	n = oq_fabric_node_by_name(f, s, len, &same);
	if (n) {
		for (; n; n = oq_fabric_node_next_same_name(f, n))
			found_add(fd, n);
		fd->n = same;
		return;
	}
	/* The host name part, then the whole name or the host name in any
	 * case: the first pass that finds something decides. */
	for (pass = 0; pass < 2 && !fd->n; pass++)
		for (i = 0; i < f->n_nodes; i++) {
			const char *name = oq_node_name(f->nodes[i]);
			size_t h = host_len(name);

			if (pass == 0 ? h == len && h < strlen(name) &&
						!strncmp(name, s, len)
				      : (h == len || strlen(name) == len) &&
						!strncasecmp(name, s, len))
				found_add(fd, f->nodes[i]);
		}
}

/* "port 1", "ports 1, 2 and 3": the present ports of a node. */
static void port_list(const struct oq_node *n, char *buf, size_t len)
{
	size_t k = 0, cnt = 0, i, at = 0;

	for (i = n->type == OQ_NODE_SWITCH ? 0 : 1; i <= n->n_ports; i++)
		cnt += n->ports[i].present;
	at = (size_t)snprintf(buf, len, "port%s", cnt == 1 ? "" : "s");
	for (i = n->type == OQ_NODE_SWITCH ? 0 : 1; i <= n->n_ports; i++) {
		if (!n->ports[i].present)
			continue;
		k++;
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%zu",
					       k == 1	  ? " "
					       : k == cnt ? " and "
							  : ", ",
					       i);
	}
	if (!cnt)
		snprintf(buf, len, "no ports");
}

static void guid_list(const struct found *fd, char *buf, size_t len)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < fd->n && i < LISTED && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s'%s' 0x%016llx",
				       i ? ", " : "", oq_node_name(fd->list[i]),
				       (unsigned long long)fd->list[i]->guid);
	if (fd->n > LISTED && at < len)
		snprintf(buf + at, len - at, " and %zu more", fd->n - LISTED);
}

/* Up to SUGGESTIONS names close to s, as port arguments. */
static void suggest(const struct oq_fabric *f, const char *s, size_t len,
		    const char *port, char *buf, size_t blen)
{
	const struct oq_node *best[SUGGESTIONS] = {NULL};
	unsigned int bd[SUGGESTIONS], limit;
	char key[OQ_TEXT_DISTANCE_MAX + 1], host[OQ_TEXT_DISTANCE_MAX + 1];
	size_t i, k, at = 0, shown = 0;

	buf[0] = '\0';
	if (len >= sizeof(key))
		return;
	memcpy(key, s, len);
	key[len] = '\0';
	limit = (unsigned int)len / 3 + 2;
	for (k = 0; k < SUGGESTIONS; k++)
		bd[k] = limit;
	for (i = 0; i < f->n_nodes; i++) {
		const char *name = oq_node_name(f->nodes[i]);
		size_t h = host_len(name);
		unsigned int d = oq_text_distance(key, name, limit);

		if (h < sizeof(host) && h < strlen(name)) {
			unsigned int dh;

			memcpy(host, name, h);
			host[h] = '\0';
			dh = oq_text_distance(key, host, limit);
			if (dh < d)
				d = dh;
		}
		/* Insert into the sorted few; ties keep fabric order. */
		for (k = 0; k < SUGGESTIONS && d >= bd[k]; k++)
			;
		if (k == SUGGESTIONS)
			continue;
		memmove(&best[k + 1], &best[k],
			(SUGGESTIONS - 1 - k) * sizeof(best[0]));
		memmove(&bd[k + 1], &bd[k],
			(SUGGESTIONS - 1 - k) * sizeof(bd[0]));
		best[k] = f->nodes[i];
		bd[k] = d;
	}
	for (k = 0; k < SUGGESTIONS && best[k]; k++)
		shown++;
	for (k = 0; k < shown && at < blen; k++) {
		const struct oq_node *n = best[k];
		char p[16] = "";

		if (port)
			snprintf(p, sizeof(p), "/%s", port);
		else if (n->type != OQ_NODE_SWITCH)
			snprintf(p, sizeof(p), "/P%u", n->n_ports ? 1 : 0);
		at += (size_t)snprintf(buf + at, blen - at, "%s'%s%s'",
				       k == 0		? ""
				       : k + 1 == shown ? " or "
							: ", ",
				       oq_node_name(n), p);
	}
}

static bool fabric_has_lids(const struct oq_fabric *f)
{
	size_t i;

	for (i = 0; i < f->n_ports; i++)
		if (f->ports[i]->lid)
			return true;
	return false;
}

static const struct oq_port *by_lid(const char *cmd, const struct oq_fabric *f,
				    const char *opt, const char *spec)
{
	unsigned long long v;
	const struct oq_port *p;

	if (oq_parse_u64(spec + 4, &v) || !v || v > 0xbfff) {
		oq_usage_error(cmd,
			       "%s '%s': a unicast LID is 1 to 0xbfff "
			       "(decimal or 0x hex, no leading 0)",
			       opt, spec);
		return NULL;
	}
	if (!fabric_has_lids(f)) {
		oq_usage_error(cmd,
			       "%s '%s': this fabric carries no LIDs (an "
			       "ibsim net file has none; OpenSM assigns them "
			       "when it sweeps); name the port, or give the "
			       "running fabric's ibnetdiscover output as "
			       "--fabric",
			       opt, spec);
		return NULL;
	}
	p = oq_fabric_port_by_lid(f, (uint16_t)v);
	if (!p)
		oq_usage_error(cmd,
			       "%s '%s': no port of the fabric has LID "
			       "%llu",
			       opt, spec, v);
	return p;
}

static const struct oq_port *by_guid(const char *cmd, const struct oq_fabric *f,
				     const char *opt, const char *spec)
{
	unsigned long long v;
	const struct oq_port *p;
	const struct oq_node *n;
	struct found fd = {0};
	char list[64];
	unsigned int i;

	if (oq_parse_u64(spec, &v)) {
		oq_usage_error(cmd,
			       "%s '%s' is not a GUID (0x and up to 16 "
			       "hex digits)",
			       opt, spec);
		return NULL;
	}
	p = oq_fabric_port_by_guid(f, v);
	if (p)
		return p;
	n = oq_fabric_node_by_guid(f, v);
	if (!n) {
		oq_usage_error(cmd,
			       "%s '%s': no port or node of the fabric "
			       "has this GUID",
			       opt, spec);
		return NULL;
	}
	if (n->type == OQ_NODE_SWITCH)
		return &n->ports[0];
	for (i = 1; i <= n->n_ports; i++)
		if (n->ports[i].present) {
			p = &n->ports[i];
			found_add(&fd, n);
		}
	if (fd.n == 1)
		return p;
	port_list(n, list, sizeof(list));
	oq_usage_error(cmd,
		       "%s '%s' is the node GUID of '%s', which has %s; give "
		       "a port GUID or '%s/P<n>'",
		       opt, spec, oq_node_name(n), list, oq_node_name(n));
	return NULL;
}

/* "NAME/P<n>" splits at the last "/P" or "/p" followed by digits only. */
static const char *port_suffix(const char *spec)
{
	const char *p, *split = NULL;

	for (p = strchr(spec, '/'); p; p = strchr(p + 1, '/')) {
		const char *q = p + 1;

		if (*q != 'P' && *q != 'p')
			continue;
		q++;
		if (*q < '0' || *q > '9')
			continue;
		q += strspn(q, "0123456789");
		if (!*q)
			split = p;
	}
	return split;
}

static const struct oq_port *by_name(const char *cmd, const struct oq_fabric *f,
				     const char *opt, const char *spec,
				     bool *whole)
{
	const char *split = port_suffix(spec);
	size_t len = split ? (size_t)(split - spec) : strlen(spec);
	const struct oq_node *n;
	struct found fd;
	unsigned long num = 0;
	char list[320], sugg[400];
	unsigned int i, cnt = 0;

	find_node(f, spec, len, &fd);
	if (!fd.n)
		n = oq_fabric_node_renamed(f, spec, len, true);
	if (!fd.n && n) {
		/* Other nodes' names would mislead: this is the node meant,
		 * known by another name. */
		oq_usage_error(cmd,
			       "%s '%s': '%.*s' is the NodeDescription of "
			       "0x%016llx, which the node-name map names "
			       "'%s': use that name or the GUID",
			       opt, spec, (int)len, spec,
			       (unsigned long long)n->guid, oq_node_name(n));
		return NULL;
	}
	if (!fd.n) {
		suggest(f, spec, len, split ? split + 1 : NULL, sugg,
			sizeof(sugg));
		if (*sugg)
			oq_usage_error(cmd,
				       "%s '%s': no node named '%.*s' in the "
				       "fabric; did you mean %s?",
				       opt, spec, (int)len, spec, sugg);
		else
			oq_usage_error(cmd,
				       "%s '%s': no node named '%.*s' in the "
				       "fabric; give a node's name or host "
				       "name (cn01/P1), a GUID (0x...) or "
				       "lid:N",
				       opt, spec, (int)len, spec);
		return NULL;
	}
	if (fd.n > 1) {
		guid_list(&fd, list, sizeof(list));
		oq_usage_error(cmd,
			       "%s '%s': %zu nodes fit: %s; give a port GUID "
			       "(0x...) or the whole name",
			       opt, spec, fd.n, list);
		return NULL;
	}
	n = fd.node;
	if (split) {
		errno = 0;
		num = strtoul(split + 2, NULL, 10);
		if (errno || num > n->n_ports || !n->ports[num].present ||
		    (num == 0 && n->type != OQ_NODE_SWITCH)) {
			port_list(n, list, sizeof(list));
			oq_usage_error(cmd,
				       "%s '%s': '%s' has no port %s (it "
				       "has %s)",
				       opt, spec, oq_node_name(n), split + 2,
				       list);
			return NULL;
		}
		if (whole)
			*whole = false;
		return &n->ports[num];
	}
	/* No port number: a switch as a whole, a node with one port. */
	if (n->type == OQ_NODE_SWITCH) {
		if (whole)
			*whole = true;
		return &n->ports[0];
	}
	for (i = 1; i <= n->n_ports; i++)
		if (n->ports[i].present) {
			num = i;
			cnt++;
		}
	if (cnt == 1) {
		if (whole)
			*whole = false;
		return &n->ports[num];
	}
	port_list(n, list, sizeof(list));
	oq_usage_error(cmd, "%s '%s': '%s' has %s; add /P<n>", opt, spec,
		       oq_node_name(n), list);
	return NULL;
}

const struct oq_port *oq_cli_port(const char *cmd, const struct oq_fabric *f,
				  const char *opt, const char *spec,
				  bool *whole)
{
	const struct oq_port *p;

	if (whole)
		*whole = false;
	if (!strncmp(spec, "lid:", 4) || !strncmp(spec, "LID:", 4))
		p = by_lid(cmd, f, opt, spec);
	else if (spec[0] == '0' && (spec[1] == 'x' || spec[1] == 'X'))
		p = by_guid(cmd, f, opt, spec);
	else
		return by_name(cmd, f, opt, spec, whole);
	/* A switch by its GUID or LID: all its ports. */
	if (p && whole)
		*whole = p->node->type == OQ_NODE_SWITCH && p->num == 0;
	return p;
}
