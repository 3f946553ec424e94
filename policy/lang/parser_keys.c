// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Keys of port groups, QoS levels and match rules.  Values are checked
 * here, where their line and column are known: the tree keeps only what
 * passed.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <osmqos/osm_release.h>

#include "parser_int.h"

static const char *const item_names[OQ_B_COUNT] = {
	[OQ_B_PORT_GROUP] = "port-group",
	[OQ_B_LEVEL] = "qos-level",
	[OQ_B_RULE] = "qos-match-rule",
};

static bool once(struct oq_pstate *ps, unsigned int bit, const char *key,
		 struct oq_loc loc)
{
	if (ps->seen & bit) {
		oq_diag_hint(oq_error(ps->d, loc, "duplicate '%s'", key),
			     "'%s' may appear once in a %s", key,
			     item_names[oq_ps_blk(ps)]);
		return false;
	}
	ps->seen |= bit;
	return true;
}

static int read_name(struct oq_pstate *ps, char **out, const char *what)
{
	char *s = oq_lx_string(&ps->lx, ',', what, &ps->oom);

	if (!s)
		return -1;
	if (oq_lx_peek(&ps->lx) == ',') {
		oq_diag_hint(oq_error(ps->d, oq_lx_loc(&ps->lx),
				      "a %s is a single value", what),
			     "quote the name if it contains ','");
		free(s);
		return -1;
	}
	free(*out);
	*out = s;
	return 0;
}

static int read_use(struct oq_pstate *ps, char **out)
{
	char *s = oq_lx_rest(&ps->lx, &ps->oom);

	if (!s)
		return -1;
	free(*out);
	*out = s;
	return 0;
}

/* The port number, read as OpenSM reads it: what OpenSM refuses is an
 * error, what it reads otherwise than it looks a warning. */
static int check_port_name(struct oq_pstate *ps, const char *s,
			   struct oq_loc loc)
{
	struct oq_pname pn;
	struct oq_diag *dg;
	int n;

	if (oq_port_name_parse(s, &pn) && pn.port <= 254) {
		n = (int)pn.number_len;
		if (pn.junk)
			oq_diag_hint(oq_warning(ps->d, loc,
						"port-name '%s': OpenSM reads "
						"port %u and ignores '%s'",
						s, pn.port, pn.junk),
				     "write '%.*sP%u'", (int)pn.node_len + 1, s,
				     pn.port);
		else if (pn.octal)
			oq_diag_hint(oq_warning(ps->d, loc,
						"port-name '%s': '%.*s' has a "
						"leading zero and is read as "
						"octal %u, as OpenSM does",
						s, n, pn.number, pn.port),
				     "write '%.*sP%u' for port %u",
				     (int)pn.node_len + 1, s, pn.port, pn.port);
		return 0;
	}
	if (!pn.well_formed) {
		dg = oq_error(ps->d, loc, "illegal port name '%s'", s);
		oq_diag_hint(dg, "write NodeDescription/P<port 1-254>, e.g. "
				 "'vs1 HCA-1/P1'");
	} else if (pn.octal && !pn.port) {
		dg = oq_error(ps->d, loc,
			      "illegal port name '%s': invalid octal number "
			      "'%s'",
			      s, pn.number);
		oq_diag_hint(dg,
			     "OpenSM reads a number with a leading 0 as octal "
			     "and refuses the file; write '%.*sP%s'",
			     (int)pn.node_len + 1, s,
			     pn.number + strspn(pn.number, "0"));
	} else {
		dg = oq_error(ps->d, loc, "illegal port name '%s'", s);
		oq_diag_hint(dg,
			     "%s; write NodeDescription/P<port 1-254>, e.g. "
			     "'vs1 HCA-1/P1' (0x hex works too)",
			     pn.port ? "the port number is above 254"
				     : "OpenSM reads port number 0 here and "
				       "refuses the file");
	}
	return -1;
}

static int read_port_names(struct oq_pstate *ps, struct oq_port_group *g)
{
	struct oq_lx *lx = &ps->lx;

	for (;;) {
		struct oq_port_name *v;
		struct oq_loc loc;
		char *s;

		oq_lx_skip_blank(lx);
		loc = oq_lx_loc(lx);
		s = oq_lx_string(lx, ',', "port name", &ps->oom);
		if (!s)
			return -1;
		if (check_port_name(ps, s, loc)) {
			free(s);
		} else {
			v = oq_ps_grow(ps, g->port_names, &g->n_port_names,
				       sizeof(*v));
			if (!v) {
				free(s);
				return -1;
			}
			g->port_names = v;
			v[g->n_port_names - 1].name = s;
			v[g->n_port_names - 1].loc = loc;
		}
		oq_lx_skip_blank(lx);
		if (oq_lx_peek(lx) != ',')
			return oq_ps_expect_eol(ps, "port name");
		oq_lx_adv(lx);
		if (!oq_ps_list_next(ps))
			return -1;
	}
}

static int read_node_types(struct oq_pstate *ps, struct oq_port_group *g)
{
	static const struct {
		const char *name;
		unsigned int bits;
	} types[] = { { "CA", OQ_NT_CA },	  { "SWITCH", OQ_NT_SWITCH },
		      { "ROUTER", OQ_NT_ROUTER }, { "ALL", OQ_NT_ALL },
		      { "SELF", OQ_NT_SELF } };
	struct oq_lx *lx = &ps->lx;

	for (;;) {
		struct oq_loc loc;
		struct oq_diag *dg;
		size_t i;
		char *s;

		oq_lx_skip_blank(lx);
		loc = oq_lx_loc(lx);
		s = oq_lx_string(lx, ',', "node type", &ps->oom);
		if (!s)
			return -1;
		for (i = 0; i < 5; i++)
			if (!strcasecmp(s, types[i].name))
				break;
		if (i == 5) {
			dg = oq_error(ps->d, loc, "unknown node type '%s'", s);
			oq_diag_hint(dg, "node types are CA, SWITCH, ROUTER, "
					 "ALL and SELF");
			free(s);
			return -1;
		}
		g->node_types |= types[i].bits;
		free(s);
		oq_lx_skip_blank(lx);
		if (oq_lx_peek(lx) != ',')
			return oq_ps_expect_eol(ps, "node type");
		oq_lx_adv(lx);
		if (!oq_ps_list_next(ps))
			return -1;
	}
}

static int group_key(struct oq_pstate *ps, const char *key, struct oq_loc loc)
{
	struct oq_port_group *g = &ps->p->groups[ps->p->n_groups - 1];

	if (!strcmp(key, "name"))
		return once(ps, OQ_SEEN_NAME, key, loc) ?
			       read_name(ps, &g->name, "port group name") :
			       -1;
	if (!strcmp(key, "use"))
		return once(ps, OQ_SEEN_USE, key, loc) ? read_use(ps, &g->use) :
							 -1;
	if (!strcmp(key, "port-guid")) {
		if (!g->guids_loc.line)
			g->guids_loc = loc;
		return oq_ps_ranges(ps, &g->guids, "port GUID", UINT64_MAX, 0);
	}
	if (!strcmp(key, "port-name"))
		return read_port_names(ps, g);
	if (!strcmp(key, "pkey")) {
		if (!g->pkeys_loc.line)
			g->pkeys_loc = loc;
		return oq_ps_pkeys(ps, &g->pkeys, 0);
	}
	if (!strcmp(key, "partition"))
		return oq_ps_refs(ps, &g->partitions, "partition name");
	if (!g->node_types_loc.line)
		g->node_types_loc = loc;
	return read_node_types(ps, g);
}

/* Remember the line of an extension key (the cursor is on it): OpenSM's
 * copy of the policy has it commented out. */
static int note_ext_line(struct oq_pstate *ps)
{
	const char *text = ps->p->text, *s = ps->lx.p, *e = ps->lx.p;
	struct oq_text_span *v;

	while (s > text && s[-1] != '\n')
		s--;
	while (e < ps->lx.end && *e != '\n')
		e++;
	v = oq_ps_grow(ps, ps->p->ext_lines, &ps->p->n_ext_lines, sizeof(*v));
	if (!v)
		return -1;
	ps->p->ext_lines = v;
	v[ps->p->n_ext_lines - 1].start = (size_t)(s - text);
	v[ps->p->n_ext_lines - 1].end = (size_t)(e - text);
	return 0;
}

/* A number that is not N% as written: a blank before the '%', a third
 * decimal, no '%'.  Each says what to write. */
static int bandwidth_form(struct oq_pstate *ps, struct oq_loc loc, int digits,
			  int decimals)
{
	struct oq_lx *lx = &ps->lx;
	const char *num = lx->p - digits - (decimals > 0);
	struct oq_diag *d;
	int n = digits + (decimals > 0);

	if (decimals > 2) {
		d = oq_error(ps->d, loc,
			     "bandwidth %.*s%%: at most two decimals, a share "
			     "of 0.01%% or more",
			     n, num);
		oq_diag_set_code(d, "bandwidth-decimals");
		oq_diag_hint(d, "round it to hundredths of a percent (the "
				"smallest share is 0.01%%)");
		return -1;
	}
	oq_lx_skip_blank(lx);
	if (oq_lx_peek(lx) == '%') {
		d = oq_error(ps->d, loc,
			     "bandwidth %.*s %%: a blank between the number "
			     "and '%%'",
			     n, num);
		oq_diag_set_code(d, "bandwidth-blank");
		oq_diag_hint(d, "write 'bandwidth: %.*s%%'", n, num);
		return -1;
	}
	d = oq_error(ps->d, loc, "bandwidth %.*s needs a '%%'", n, num);
	oq_diag_set_code(d, "bandwidth-percent");
	oq_diag_hint(d,
		     "a share of the link in percent: write 'bandwidth: "
		     "%.*s%%'",
		     n, num);
	return -1;
}

/* `bandwidth: N%`: a share of the link, 0.01% to 100%, at most two
 * decimals, kept in hundredths of a percent. */
static int read_bandwidth(struct oq_pstate *ps, struct oq_qos_level *l)
{
	struct oq_lx *lx = &ps->lx;
	struct oq_loc loc;
	unsigned long bp = 0;
	int digits = 0, decimals = -1;
	struct oq_diag *d;

	oq_lx_skip_blank(lx);
	loc = oq_lx_loc(lx);
	for (;;) {
		int c = oq_lx_peek(lx);

		if (c >= '0' && c <= '9') {
			if (digits > 6)
				goto bad;
			if (decimals >= 2) {
				/* A third decimal: the number as written,
				 * for the message. */
				decimals++;
				digits++;
				oq_lx_adv(lx);
				continue;
			}
			bp = bp * 10 + (unsigned long)(c - '0');
			digits++;
			if (decimals >= 0)
				decimals++;
		} else if (c == '.' && decimals < 0 && digits) {
			decimals = 0;
		} else {
			break;
		}
		oq_lx_adv(lx);
	}
	if (digits &&
	    (decimals > 2 || (decimals != 0 && oq_lx_peek(lx) != '%')))
		return bandwidth_form(ps, loc, digits, decimals);
	if (!digits || decimals == 0)
		goto bad;
	oq_lx_adv(lx);
	if (decimals < 0)
		decimals = 0;
	for (; decimals < 2; decimals++)
		bp *= 10;
	if (bp < 1 || bp > 10000) {
		d = oq_error(ps->d, loc,
			     "bandwidth %lu.%02lu%% is out of range", bp / 100,
			     bp % 100);
		oq_diag_hint(d, "a guaranteed share is 0.01%% to 100%% of the "
				"link");
		return -1;
	}
	l->bandwidth_bp = (int)bp;
	l->bandwidth_loc = loc;
	return oq_ps_expect_eol(ps, "bandwidth");
bad:
	d = oq_error(ps->d, loc, "bandwidth must be a percentage");
	oq_diag_hint(d, "write the guaranteed share of the link, e.g. "
			"'bandwidth: 40%%' or 'bandwidth: 12.5%%'");
	return -1;
}

/* `latency: N us`: the longest wait at one output port, 0.001 us to one
 * second, at most three decimals, kept in nanoseconds. */
static int read_latency(struct oq_pstate *ps, struct oq_qos_level *l)
{
	struct oq_lx *lx = &ps->lx;
	struct oq_loc loc;
	uint64_t ns = 0;
	int digits = 0, decimals = -1;
	struct oq_diag *d;

	oq_lx_skip_blank(lx);
	loc = oq_lx_loc(lx);
	for (;;) {
		int c = oq_lx_peek(lx);

		if (c >= '0' && c <= '9') {
			if (decimals >= 3 || digits > 9)
				goto bad;
			ns = ns * 10 + (uint64_t)(c - '0');
			digits++;
			if (decimals >= 0)
				decimals++;
		} else if (c == '.' && decimals < 0 && digits) {
			decimals = 0;
		} else {
			break;
		}
		oq_lx_adv(lx);
	}
	if (!digits || decimals == 0)
		goto bad;
	while (oq_lx_peek(lx) == ' ' || oq_lx_peek(lx) == '\t')
		oq_lx_adv(lx);
	if (oq_lx_peek(lx) != 'u')
		goto bad;
	oq_lx_adv(lx);
	if (oq_lx_peek(lx) != 's')
		goto bad;
	oq_lx_adv(lx);
	if (decimals < 0)
		decimals = 0;
	for (; decimals < 3; decimals++)
		ns *= 10;
	if (ns < 1 || ns > 1000000000ull) {
		d = oq_error(ps->d, loc, "latency %llu.%03llu us is out of range",
			     (unsigned long long)(ns / 1000),
			     (unsigned long long)(ns % 1000));
		oq_diag_hint(d, "a latency intent is 0.001 us to 1000000 us (one "
				"second) at each output port");
		return -1;
	}
	l->latency_ns = ns;
	l->latency_loc = loc;
	return oq_ps_expect_eol(ps, "latency");
bad:
	d = oq_error(ps->d, loc, "latency must be microseconds");
	oq_diag_hint(d, "write the longest wait at one output port with its "
			"unit, e.g. 'latency: 5us' or 'latency: 2.5 us'");
	return -1;
}

/* `priority: high | low`. */
static int read_priority(struct oq_pstate *ps, struct oq_qos_level *l,
			 struct oq_loc key_loc)
{
	struct oq_loc loc;
	char *s;

	oq_lx_skip_blank(&ps->lx);
	loc = oq_lx_loc(&ps->lx);
	s = oq_lx_string(&ps->lx, 0, "priority", &ps->oom);
	if (!s)
		return -1;
	if (strcasecmp(s, "high") && strcasecmp(s, "low")) {
		oq_diag_hint(oq_error(ps->d, loc, "unknown priority '%s'", s),
			     "priority is 'high' (served from the high-"
			     "priority table, capped) or 'low' (the default)");
		free(s);
		return -1;
	}
	l->prio_high = !strcasecmp(s, "high");
	l->priority_loc = key_loc;
	free(s);
	return 0;
}

static int level_key(struct oq_pstate *ps, const char *key, struct oq_loc loc)
{
	struct oq_qos_level *l = &ps->p->levels[ps->p->n_levels - 1];
	uint64_t v;

	if (!strcmp(key, "name"))
		return once(ps, OQ_SEEN_NAME, key, loc) ?
			       read_name(ps, &l->name, "qos-level name") :
			       -1;
	if (!strcmp(key, "use"))
		return once(ps, OQ_SEEN_USE, key, loc) ? read_use(ps, &l->use) :
							 -1;
	if (!strcmp(key, "sl")) {
		if (!once(ps, OQ_SEEN_SL, key, loc) ||
		    oq_ps_single(ps, &v, "SL", 0, 15))
			return -1;
		l->sl = (int)v;
		return 0;
	}
	if (!strcmp(key, "mtu-limit")) {
		if (!once(ps, OQ_SEEN_MTU, key, loc) ||
		    oq_ps_single(ps, &v, "mtu-limit", 1, 5))
			return -1;
		l->mtu_limit = (int)v;
		return 0;
	}
	if (!strcmp(key, "rate-limit")) {
		if (!once(ps, OQ_SEEN_RATE, key, loc) ||
		    oq_ps_single(ps, &v, "rate-limit", 2,
				 oq_osm_release()->rate_max))
			return -1;
		l->rate_limit = (int)v;
		return 0;
	}
	if (!strcmp(key, "packet-life")) {
		if (!once(ps, OQ_SEEN_LIFE, key, loc) ||
		    oq_ps_single(ps, &v, "packet-life", 0, 63))
			return -1;
		l->packet_life = (int)v;
		return 0;
	}
	if (!strcmp(key, "path-bits"))
		return oq_ps_ranges(ps, &l->path_bits, "path-bits", 127, 0);
	if (!strcmp(key, "bandwidth"))
		return !once(ps, OQ_SEEN_BANDWIDTH, key, loc) ||
				       note_ext_line(ps)
			       ? -1
			       : read_bandwidth(ps, l);
	if (!strcmp(key, "latency"))
		return !once(ps, OQ_SEEN_LATENCY, key, loc) ||
				       note_ext_line(ps)
			       ? -1
			       : read_latency(ps, l);
	if (!strcmp(key, "priority"))
		return !once(ps, OQ_SEEN_PRIORITY, key, loc) ||
				       note_ext_line(ps)
			       ? -1
			       : read_priority(ps, l, loc);
	return oq_ps_pkeys(ps, &l->pkeys, 0);
}

static int rule_key(struct oq_pstate *ps, const char *key, struct oq_loc loc)
{
	struct oq_match_rule *r = &ps->p->rules[ps->p->n_rules - 1];

	if (!strcmp(key, "use"))
		return once(ps, OQ_SEEN_USE, key, loc) ? read_use(ps, &r->use) :
							 -1;
	if (!strcmp(key, "source"))
		return oq_ps_refs(ps, &r->sources, "port group name");
	if (!strcmp(key, "destination"))
		return oq_ps_refs(ps, &r->destinations, "port group name");
	if (!strcmp(key, "service-id"))
		return oq_ps_ranges(ps, &r->service_ids, "service-id",
				    UINT64_MAX, 0);
	if (!strcmp(key, "qos-class"))
		return oq_ps_ranges(ps, &r->qos_classes, "qos-class", 0xfff, 0);
	if (!strcmp(key, "pkey"))
		return oq_ps_pkeys(ps, &r->pkeys, 0);
	if (!once(ps, OQ_SEEN_LEVEL_NAME, key, loc))
		return -1;
	oq_lx_skip_blank(&ps->lx);
	r->level.loc = oq_lx_loc(&ps->lx);
	return read_name(ps, &r->level.name, "qos-level name");
}

int oq_parse_item_key(struct oq_pstate *ps, const char *key,
		      struct oq_loc loc)
{
	switch (oq_ps_blk(ps)) {
	case OQ_B_PORT_GROUP:
		return ps->p->n_groups ? group_key(ps, key, loc) : -1;
	case OQ_B_LEVEL:
		return ps->p->n_levels ? level_key(ps, key, loc) : -1;
	case OQ_B_RULE:
		return ps->p->n_rules ? rule_key(ps, key, loc) : -1;
	default:
		return -1;
	}
}
