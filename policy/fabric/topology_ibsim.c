// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibsim's meaning of a topology file (ibsim/sim_net.c, ibsim 0.10 as in
 * Debian 12), so that `osmqos tables` on a net file predicts the fabric
 * the simulator builds from it:
 *
 *  - a port line's "w=", "s=", "e=" options and its trailing
 *    "lid N <width>x<speed>" annotation set the port's *enabled* width and
 *    speeds; a link runs at the best width/speed both ends enable (so an
 *    annotation on one end only leaves the link at 4xSDR);
 *  - every link must be listed at both ends, each naming the other;
 *  - ports take ibsim's PortInfo defaults (docs/fabric-model.md).
 */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/fabric.h>

#include "topology_int.h"

#define IBSIM_MAX_NODES 2048
#define IBSIM_MAX_SWITCHES 256

/* PortInfo that ibsim reports before OpenSM touches a port. */
#define SIM_VL_CAP 8	      /* VLCap VL0-7 */
#define SIM_VLARB_CAP 8	      /* VLArbitrationHigh/LowCap */
#define SIM_MTU_CAP 4	      /* 2048 on CA and switch external ports */
#define SIM_MTU_CAP_PORT0 3   /* 1024 on switch port 0 */
#define DEFAULT_SUBNET_PREFIX 0xfe80000000000000ULL /* OpenSM's */

void topo_port_defaults(const struct topo *t, struct topo_port *p)
{
	p->w_ena = t->netwidth;
	p->s_ena = t->netspeed;
	p->e_ena = t->netspeedext;
	p->m_ena = 0;
}

/*
 * The error for the option at opt whose value ends at end, quoted as
 * written up to the next blank: the reader clamps the value it takes, and
 * "w=x" reads as 0, so the number it holds is no text of the file.
 */
static int bad_option(struct topo *t, const char *line, const char *opt,
		      const char *end, unsigned int lineno)
{
	const char *e = end;

	while (*e && !isspace((unsigned char)*e))
		e++;
	oq_diag_hint(
		oq_error(t->d,
			 topo_loc(t, lineno, (unsigned int)(opt - line) + 1),
			 "bad port option '%.*s'",
			 (int)(e - opt > 64 ? 64 : e - opt), opt),
		"w= is a LinkWidthEnabled mask 1..31, s= a "
		"LinkSpeedEnabled mask 0..7, e= a LinkSpeedExtEnabled "
		"mask 0..15");
	return -1;
}

/*
 * "w=N", "s=N", "e=N" anywhere after the remote id: ibsim looks at every
 * '=' and takes the nearest letter before it as the option name; other
 * letters are ignored.
 */
int topo_port_options(struct topo *t, struct topo_port *p, const char *line,
		      const char *after_id, unsigned int lineno)
{
	const char *s = after_id;

	while (*s && (s = strchr(s + 1, '='))) {
		const char *opt = s;
		unsigned long v;
		char *end;

		while (opt > line && !isalpha((unsigned char)*opt))
			opt--;
		v = strtoul(s + 1, &end, 0);
		if (v > INT_MAX)
			v = 0xff; /* out of every range below */
		switch (*opt) {
		case 'w':
			if (v < 1 || v > 31)
				return bad_option(t, line, opt, end, lineno);
			p->w_ena = (uint8_t)v;
			break;
		case 's':
			if (v > 7)
				return bad_option(t, line, opt, end, lineno);
			p->s_ena = (uint8_t)(v ? v : TS_QDR);
			break;
		case 'e':
			if (v > 15)
				return bad_option(t, line, opt, end, lineno);
			p->e_ena = (uint8_t)v;
			break;
		default:
			break;
		}
	}
	return 0;
}

/* scanf("%d") */
static bool scan_int(const char **p, long *out)
{
	char *end;

	*out = strtol(*p, &end, 10);
	if (end == *p)
		return false;
	*p = end;
	return true;
}

static bool speed_is(const char *tok, const char *name)
{
	/* ibsim: strncmp(tok, name, strlen(tok)), i.e. tok is a prefix. */
	return !strncmp(tok, name, strlen(tok));
}

/*
 * Capability words after the annotation, for the offline commands only
 * (ibsim reads "lid %d %dx%9s" and nothing after it): "mtu 4096",
 * "vls 4", "vlarb 16" set the port's MTUCap, VLCap and VLArb
 * high/low capacities, so a topology file can describe hardware ibsim
 * cannot simulate (docs/fabric-model.md).
 */
static void port_cap_words(struct topo *t, struct topo_port *p,
			   const char *line, const char *q, unsigned int lineno)
{
	static const unsigned int vls_ok[] = {1, 2, 4, 8, 15};

	for (;;) {
		const char *w;
		long v;
		size_t i;

		while (isspace((unsigned char)*q))
			q++;
		if (!*q || *q == '#')
			return;
		w = q;
		while (*q && !isspace((unsigned char)*q))
			q++;
		if ((q - w == 3 && !strncmp(w, "mtu", 3)) ||
		    (q - w == 3 && !strncmp(w, "vls", 3)) ||
		    (q - w == 5 && !strncmp(w, "vlarb", 5))) {
			if (!scan_int(&q, &v)) {
				/* Skip the value word, whatever it is. */
				while (isspace((unsigned char)*q))
					q++;
				while (*q && !isspace((unsigned char)*q))
					q++;
				goto bad;
			}
		} else {
			oq_warning(t->d,
				   topo_loc(t, lineno,
					    (unsigned int)(w - line) + 1),
				   "unknown word after the link annotation; "
				   "ignored (known: mtu N, vls N, vlarb N)");
			return;
		}
		if (*w == 'm') {
			for (i = 1; i <= 5 && (256u << (i - 1)) != v; i++)
				;
			if (i > 5)
				goto bad;
			p->cap_mtu = (uint8_t)i;
		} else if (w[2] == 's') {
			for (i = 0; i < 5 && vls_ok[i] != v; i++)
				;
			if (i == 5)
				goto bad;
			p->cap_vls = (uint8_t)v;
		} else {
			if (v < 0 || v > OQ_VLARB_MAX)
				goto bad;
			p->cap_vlarb = (uint8_t)(v + 1);
		}
		continue;
	bad:
		/* That word keeps its default; the words after it count. */
		oq_diag_hint(oq_warning(t->d,
					topo_loc(t, lineno,
						 (unsigned int)(w - line) + 1),
					"bad capability value; ignored"),
			     "mtu 256|512|1024|2048|4096, vls 1|2|4|8|15, "
			     "vlarb 0-64");
	}
}

/*
 * ibsim's parse_port_connection_data(): the annotation starts at the
 * first "lid" that no '"' follows, and reads as "lid %d %dx%9s".  A CA
 * port line's first "lid " (after the remote id) is the port's own LID.
 */
void topo_port_connection(struct topo *t, struct topo_port *p,
			  enum oq_node_type type, const char *line,
			  const char *after_id, unsigned int lineno)
{
	const char *start = strrchr(after_id, '"'), *m, *q;
	long rlid, width;
	char tok[10];
	size_t n = 0;

	if (type == OQ_NODE_ROUTER)
		return;
	start = start ? start + 1 : after_id;
	m = strstr(start, "lid");
	if (!m)
		return;
	if (type == OQ_NODE_CA) {
		const char *l = strstr(after_id, "lid ");

		if (l)
			p->lid = topo_lid(t, line, l + 4, lineno);
		l = strstr(after_id, "lmc ");
		if (l)
			p->lmc = topo_lmc(t, line, l + 4, lineno);
	}
	q = m + 3;
	if (!scan_int(&q, &rlid) || !scan_int(&q, &width) || *q != 'x')
		goto unreadable;
	q++;
	while (isspace((unsigned char)*q))
		q++;
	while (q[n] && !isspace((unsigned char)q[n]) && n < sizeof(tok) - 1) {
		tok[n] = q[n];
		n++;
	}
	tok[n] = '\0';
	if (!n)
		goto unreadable;
	p->annotated = true;
	snprintf(p->ann, sizeof(p->ann), "%ldx%s", width, tok);
	switch (width) {
	case 12:
		p->w_ena = TW_1X | TW_4X | TW_12X;
		break;
	case 8:
		p->w_ena = TW_8X;
		break;
	case 4:
		p->w_ena = TW_1X | TW_4X;
		break;
	case 1:
		p->w_ena = TW_1X;
		break;
	case 2:
		p->w_ena = TW_2X;
		break;
	default:
		oq_warning(t->d,
			   topo_loc(t, lineno, (unsigned int)(m - line) + 1),
			   "link width %ldx is not 1x, 2x, 4x, 8x or 12x; "
			   "ignored",
			   width);
		break;
	}
	if (speed_is(tok, "SDR")) {
		p->s_ena = TS_SDR;
	} else if (speed_is(tok, "DDR")) {
		p->s_ena = TS_SDR | TS_DDR;
	} else if (speed_is(tok, "QDR")) {
		p->s_ena = TS_SDR | TS_DDR | TS_QDR;
	} else if (speed_is(tok, "FDR")) {
		p->s_ena = TS_SDR | TS_DDR | TS_QDR;
		p->e_ena = TE_FDR;
		p->m_ena = 1;
	} else if (speed_is(tok, "EDR")) {
		p->s_ena = TS_SDR | TS_DDR | TS_QDR;
		p->e_ena = TE_FDR | TE_EDR;
		p->m_ena = 1;
	} else if (speed_is(tok, "HDR")) {
		p->s_ena = TS_SDR | TS_DDR | TS_QDR;
		p->e_ena = TE_FDR | TE_EDR | TE_HDR;
		p->m_ena = 1;
	} else if (speed_is(tok, "NDR") && !t->ibnd) {
		/* Debian 12's ibsim 0.10 predates NDR: it warns and leaves
		 * the port at its defaults.  Real ibnetdiscover output
		 * (t->ibnd) keeps NDR. */
		oq_warning(t->d,
			   topo_loc(t, lineno, (unsigned int)(q - line) + 1),
			   "ibsim 0.10 does not know NDR; it leaves this port "
			   "at its default speed");
	} else if (speed_is(tok, "NDR")) {
		p->s_ena = TS_SDR | TS_DDR | TS_QDR;
		p->e_ena = TE_FDR | TE_EDR | TE_HDR | TE_NDR;
		p->m_ena = 1;
	} else if (speed_is(tok, "FDR10")) {
		p->s_ena = TS_SDR | TS_DDR | TS_QDR;
		p->m_ena = 1;
	} else {
		oq_warning(t->d,
			   topo_loc(t, lineno, (unsigned int)(q - line) + 1),
			   "unknown link speed '%s'; ignored", tok);
	}
	port_cap_words(t, p, line, q + n, lineno);
	return;
unreadable:
	oq_diag_hint(oq_warning(t->d,
				topo_loc(t, lineno,
					 (unsigned int)(m - line) + 1),
				"cannot read a link width and speed here"),
		     "write it as ibnetdiscover does: lid 0 4xQDR");
}

static uint8_t best_width(uint8_t w)
{
	static const uint8_t order[][2] = {
		{ TW_12X, 12 }, { TW_8X, 8 }, { TW_4X, 4 },
		{ TW_2X, 2 },	{ TW_1X, 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (w & order[i][0])
			return order[i][1];
	return 0;
}

/*
 * The speed both ends run at.  ibsim reports LinkSpeedExtActive when one
 * is negotiated; the Mellanox FDR10 extension is only visible through a
 * vendor MAD that OpenSM and ibnetdiscover send to Mellanox vendor IDs,
 * which simulated nodes do not have, so in a net file FDR10 shows (and
 * runs) as QDR.  ibnetdiscover output (ibnd) comes from real hardware,
 * where ibnetdiscover read that MAD and OpenSM reads it too: there FDR10
 * is what both ends run when neither has an extended speed in common.
 */
static enum oq_speed link_speed(const struct topo_port *a,
				const struct topo_port *b, bool ibnd)
{
	uint8_t e = a->e_ena & b->e_ena, s = a->s_ena & b->s_ena;

	if (ibnd && !e && a->m_ena && b->m_ena && (s & TS_QDR))
		return OQ_SPEED_FDR10;
	if (e & TE_NDR)
		return OQ_SPEED_NDR;
	if (e & TE_HDR)
		return OQ_SPEED_HDR;
	if (e & TE_EDR)
		return OQ_SPEED_EDR;
	if (e & TE_FDR)
		return OQ_SPEED_FDR;
	if (s & TS_QDR)
		return OQ_SPEED_QDR;
	if (s & TS_DDR)
		return OQ_SPEED_DDR;
	if (s & TS_SDR)
		return OQ_SPEED_SDR;
	return OQ_SPEED_UNKNOWN;
}

static const char *id_of(const struct topo *t, const struct topo_node *n)
{
	return topo_str(t, n->id);
}

/* Both ends listed, naming each other: ibsim's connect_ports() check. */
static struct topo_port *check_link(struct topo *t, struct topo_node *n,
				    unsigned int j, struct topo_node **rn_out)
{
	struct topo_port *p = &n->ports[j], *rp;
	const char *rid = topo_str(t, p->remote);
	struct topo_node *rn = topo_find(t, p->remote);
	struct oq_loc loc = topo_loc(t, p->line, p->col);

	if (!rn) {
		oq_diag_hint(oq_error(t->d, loc, "no node \"%s\" in this file",
				      rid),
			     "every remote id must be the quoted id of a "
			     "Switch/Hca/Ca/Rt line");
		return NULL;
	}
	if (p->remote_port > rn->n_ports) {
		oq_error(t->d, loc, "\"%s\" has no port %u (it has %u)", rid,
			 p->remote_port, rn->n_ports);
		return NULL;
	}
	rp = &rn->ports[p->remote_port];
	if (rp == p) {
		oq_error(t->d, loc, "a port cannot be linked to itself");
		return NULL;
	}
	if (!rp->listed) {
		oq_diag_hint(oq_error(t->d, loc,
				      "\"%s\"[%u] does not list the other "
				      "end of this link",
				      rid, p->remote_port),
			     "ibsim needs each link at both ends: add [%u] "
			     "\"%s\"[%u] to \"%s\"",
			     p->remote_port, id_of(t, n), j, rid);
		return NULL;
	}
	if (rp->remote_port != j || rp->remote != n->id) {
		oq_error(t->d, loc,
			 "\"%s\"[%u] is connected to \"%s\"[%u] (line %u), "
			 "not to \"%s\"[%u]",
			 rid, p->remote_port, topo_str(t, rp->remote),
			 rp->remote_port, rp->line, id_of(t, n), j);
		return NULL;
	}
	*rn_out = rn;
	return rp;
}

static void warn_annotations(struct topo *t, const struct topo_node *n,
			     const struct topo_port *a,
			     const struct topo_node *rn,
			     const struct topo_port *b, uint8_t width,
			     enum oq_speed speed)
{
	struct oq_diag *dg;

	if (a->annotated && b->annotated && !strcmp(a->ann, b->ann))
		return;
	if (!a->annotated && !b->annotated)
		return;
	if (a->annotated && b->annotated) {
		oq_warning(t->d, topo_loc(t, a->line, a->col),
			   "the ends of this link say %s and %s (\"%s\" line "
			   "%u); ibsim runs it at %ux%s",
			   a->ann, b->ann, id_of(t, rn), b->line, width,
			   oq_speed_name(speed));
		return;
	}
	if (!a->annotated) {
		const struct topo_port *x = a;

		a = b;
		b = x;
		n = rn;
	}
	dg = oq_warning(t->d, topo_loc(t, a->line, a->col),
			"only this end of the link says %s; ibsim runs it at "
			"%ux%s",
			a->ann, width, oq_speed_name(speed));
	oq_diag_hint(dg, "annotate the other end (line %u) the same way",
		     b->line);
	(void)n;
}

/* A checked link and what its ends negotiated. */
struct link {
	uint32_t a_node, b_node;
	uint8_t a_port, b_port;
	uint8_t width;
	enum oq_speed speed;
};

static int resolve_links(struct topo *t, struct link **out, size_t *n_out)
{
	size_t i, n = 0, cap = 0;
	struct link *v = NULL;
	unsigned int j;
	uint8_t *done;
	size_t *base, total = 0;

	base = malloc((t->n + 1) * sizeof(*base));
	if (!base)
		return -1;
	for (i = 0; i < t->n; i++) {
		base[i] = total;
		total += (size_t)t->nodes[i].n_ports + 1;
	}
	done = calloc(total ? total : 1, 1);
	if (!done) {
		free(base);
		return -1;
	}
	for (i = 0; i < t->n; i++) {
		struct topo_node *nd = &t->nodes[i];

		for (j = 1; j <= nd->n_ports; j++) {
			struct topo_port *a = &nd->ports[j], *b;
			struct topo_node *rn = NULL;
			uint8_t w;
			enum oq_speed s;
			size_t ri;

			if (!a->listed || done[base[i] + j])
				continue;
			b = check_link(t, nd, j, &rn);
			if (!b)
				continue;
			ri = (size_t)(rn - t->nodes);
			done[base[i] + j] = 1;
			done[base[ri] + a->remote_port] = 1;
			w = best_width(a->w_ena & b->w_ena);
			s = link_speed(a, b, t->ibnd);
			if (!w || s == OQ_SPEED_UNKNOWN) {
				oq_error(t->d, topo_loc(t, a->line, a->col),
					 "the ends of this link enable no "
					 "common %s (ibsim refuses it)",
					 !w ? "width" : "speed");
				continue;
			}
			warn_annotations(t, nd, a, rn, b, w, s);
			if (n == cap) {
				struct link *nv;

				cap = cap ? cap * 2 : 256;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv)
					goto nomem;
				v = nv;
			}
			v[n].a_node = (uint32_t)i;
			v[n].a_port = (uint8_t)j;
			v[n].b_node = (uint32_t)ri;
			v[n].b_port = (uint8_t)a->remote_port;
			v[n].width = w;
			v[n].speed = s;
			n++;
		}
	}
	free(done);
	free(base);
	*out = v;
	*n_out = n;
	return 0;
nomem:
	free(done);
	free(base);
	free(v);
	return -1;
}

static void port_caps(struct oq_port *p, bool port0, const struct topo_port *tp)
{
	p->mtu_cap = port0 ? SIM_MTU_CAP_PORT0 : SIM_MTU_CAP;
	p->vl_cap = SIM_VL_CAP;
	p->oper_vls = SIM_VL_CAP;
	p->vlarb_high_cap = SIM_VLARB_CAP;
	p->vlarb_low_cap = SIM_VLARB_CAP;
	p->sl2vl_cap = true; /* IsSLMappingSupported on every end port */
	if (!tp)
		return;
	if (tp->cap_mtu)
		p->mtu_cap = tp->cap_mtu;
	if (tp->cap_vls)
		p->vl_cap = p->oper_vls = tp->cap_vls;
	if (tp->cap_vlarb)
		p->vlarb_high_cap = p->vlarb_low_cap =
			(uint8_t)(tp->cap_vlarb - 1);
}

static struct oq_fabric *build_nodes(struct topo *t)
{
	struct oq_fabric *f = oq_fabric_new();
	size_t i;
	unsigned int j;

	if (!f)
		return NULL;
	f->subnet_prefix = DEFAULT_SUBNET_PREFIX;
	for (i = 0; i < t->n; i++) {
		struct topo_node *tn = &t->nodes[i];
		struct oq_node *n = oq_fabric_add_node(f, tn->type, tn->guid,
						       tn->desc, tn->n_ports);

		if (!n) {
			oq_fabric_free(f);
			return NULL;
		}
		n->enhanced_port0 = tn->type == OQ_NODE_SWITCH && tn->enh0;
		n->loc = topo_loc(t, tn->line, 1);
		if (tn->type == OQ_NODE_SWITCH) {
			struct oq_port *p0 = &n->ports[0];

			p0->loc = n->loc;
			p0->guid = tn->guid;
			p0->lid = tn->lid0;
			p0->lmc = tn->lmc0;
			p0->width = 4; /* as ibsim's SMA port reports */
			p0->speed = OQ_SPEED_SDR;
			port_caps(p0, true, NULL);
		}
		for (j = 1; j <= tn->n_ports; j++) {
			struct oq_port *p = &n->ports[j];
			struct topo_port *tp = &tn->ports[j];

			if (tn->type == OQ_NODE_SWITCH) {
				p->guid = tn->guid;
				p->lid = tn->lid0;
				p->lmc = tn->lmc0;
			} else {
				p->guid = tp->guid ? tp->guid : tn->guid + j;
				p->lid = tp->lid;
				p->lmc = tp->lmc;
				p->loc = tp->line ? topo_loc(t, tp->line, 1)
						  : n->loc;
			}
			port_caps(p, false, tp);
		}
	}
	return f;
}

static uint64_t default_sm_port(const struct topo *t,
				const struct oq_fabric *f)
{
	const struct oq_node *n;

	/* ibnetdiscover names the port it ran from; ibsim attaches clients
	 * without SIM_HOST (the SM included) to the first node's first
	 * port: a switch's port 0 or a CA's port 1. */
	if (t->from_port)
		return t->from_port;
	if (!f->n_nodes)
		return 0;
	n = f->nodes[0];
	return n->type == OQ_NODE_SWITCH ? n->ports[0].guid
					 : n->ports[1].guid;
}

static void limits_note(struct topo *t)
{
	size_t i, sw = 0;

	for (i = 0; i < t->n; i++)
		sw += t->nodes[i].type == OQ_NODE_SWITCH;
	if (t->n > IBSIM_MAX_NODES || sw > IBSIM_MAX_SWITCHES)
		oq_diag_add(t->d, OQ_SEV_NOTE, topo_loc(t, 0, 0),
			    "%zu nodes, %zu switches: beyond what ibsim "
			    "simulates (%d nodes, %d switches); fine offline",
			    t->n, sw, IBSIM_MAX_NODES, IBSIM_MAX_SWITCHES);
	for (i = 0; i < t->n; i++) {
		if (t->nodes[i].type == OQ_NODE_ROUTER &&
		    t->nodes[i].guid == 0) {
			oq_diag_hint(oq_warning(t->d,
						topo_loc(t, t->nodes[i].line,
							 1),
						"this router gets node GUID 0 "
						"(ibsim numbers routers from "
						"0)"),
				     "put an rtguid=0x... line before it");
			break;
		}
	}
}

struct oq_fabric *topo_build(struct topo *t)
{
	struct link *links = NULL;
	size_t n_links = 0, i, errors = t->d->n_errors;
	struct oq_fabric *f;

	if (resolve_links(t, &links, &n_links)) {
		oq_error(t->d, topo_loc(t, 0, 0), "out of memory");
		return NULL;
	}
	if (t->d->n_errors != errors) {
		free(links);
		return NULL;
	}
	limits_note(t);
	f = build_nodes(t);
	if (!f) {
		free(links);
		oq_error(t->d, topo_loc(t, 0, 0), "out of memory");
		return NULL;
	}
	for (i = 0; i < n_links; i++) {
		struct oq_port *a =
			&f->nodes[links[i].a_node]->ports[links[i].a_port];
		struct oq_port *b =
			&f->nodes[links[i].b_node]->ports[links[i].b_port];

		oq_fabric_link(a, b);
		a->width = b->width = links[i].width;
		a->speed = b->speed = links[i].speed;
		/* The link runs the VLs both ends have: OpenSM's link
		 * manager sets OperVLs to the smaller VLCap
		 * (osm_physp_calc_link_op_vls()), and the SL2VL tables it
		 * writes name no VL beyond them. */
		a->oper_vls = b->oper_vls =
			a->vl_cap < b->vl_cap ? a->vl_cap : b->vl_cap;
	}
	free(links);
	f->sm_port_guid = default_sm_port(t, f);
	if (oq_fabric_finalize(f, t->d) || t->d->n_errors != errors) {
		oq_fabric_free(f);
		return NULL;
	}
	return f;
}
