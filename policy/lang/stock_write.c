// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The policy as stock OpenSM must be given it to read what osmqos reads
 * (`osmqos export`, and the plugin's copy for OpenSM when the file as
 * written would be rejected or misread: stock_copy.c):
 * written again from osmqos's reading, in the one form of each construct
 * that OpenSM's scanner and grammar take as meant (stock.h): one key per
 * line, every name and port name quoted (an unquoted name loses its
 * blanks), LF line ends, numbers in hex or decimal without a leading 0,
 * the qos-ulps lines from their rules.  The osmqos keys (bandwidth:,
 * priority:, ...) become comments; `osmqos export` appends the tables
 * synthesized for them as qos-setup scopes (synth_lower.c) and checks the
 * result with the stock model before writing it.
 *
 * The sections come in the file's order.  OpenSM keeps the port groups
 * qos-ulps lines generate (_SRP_Targets_, ...) in its one list of groups,
 * where the line is, and a name finds the first group so named: a
 * port-group called _SRP_Targets_ written after the qos-ulps section is
 * not the one a rule naming _SRP_Targets_ gets, written before it is.  So
 * port-groups and qos-ulps sections alternate as the file's port-groups
 * and qos-ulps lines do; the other sections, whose order decides nothing,
 * come where their first item was.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <osmqos/stock.h>

static void ranges(FILE *out, const struct oq_ranges *r, bool hex)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		const char *sep = i ? ", " : "";

		if (hex && r->v[i].lo == r->v[i].hi)
			fprintf(out, "%s0x%" PRIx64, sep, r->v[i].lo);
		else if (hex)
			fprintf(out, "%s0x%" PRIx64 "-0x%" PRIx64, sep,
				r->v[i].lo, r->v[i].hi);
		else if (r->v[i].lo == r->v[i].hi)
			fprintf(out, "%s%" PRIu64, sep, r->v[i].lo);
		else
			fprintf(out, "%s%" PRIu64 "-%" PRIu64, sep, r->v[i].lo,
				r->v[i].hi);
	}
}

static void key_ranges(FILE *out, const char *ind, const char *key,
		       const struct oq_ranges *r, bool hex)
{
	if (!r->n)
		return;
	fprintf(out, "%s%s: ", ind, key);
	ranges(out, r, hex);
	fputc('\n', out);
}

/* Names of the groups refs points at, quoted, as one list key. */
static void key_groups(FILE *out, const char *ind, const char *key,
		       const struct oq_policy *p, const struct oq_refs *refs)
{
	size_t i;

	if (!refs->n)
		return;
	fprintf(out, "%s%s: ", ind, key);
	for (i = 0; i < refs->n; i++) {
		int g = refs->v[i].idx;

		fprintf(out, "%s\"%s\"", i ? ", " : "",
			g >= 0 ? p->groups[g].name : refs->v[i].name);
	}
	fputc('\n', out);
}

/* The osmqos keys of lines [from, to) of the file, as comments. */
static void ext_comments(FILE *out, const struct oq_policy *p,
			 unsigned int from, unsigned int to)
{
	unsigned int line = 1;
	size_t i, at = 0;

	for (i = 0; i < p->n_ext_lines; i++) {
		size_t s = p->ext_lines[i].start, e = p->ext_lines[i].end;

		for (; at < s && at < p->text_len; at++)
			line += p->text[at] == '\n';
		if (line < from || line >= to)
			continue;
		while (s < e && (p->text[s] == ' ' || p->text[s] == '\t'))
			s++;
		fprintf(out, "        # %.*s   (an osmqos key)\n", (int)(e - s),
			p->text + s);
	}
}

/* The explicit port groups [from, to) as one section. */
static void port_groups(FILE *out, const struct oq_policy *p, size_t from,
			size_t to)
{
	size_t i, j;

	fputs("port-groups\n", out);
	for (i = from; i < to; i++) {
		const struct oq_port_group *g = &p->groups[i];
		static const struct {
			unsigned int bit;
			const char *name;
		} nt[] = {{OQ_NT_CA, "CA"},
			  {OQ_NT_SWITCH, "SWITCH"},
			  {OQ_NT_ROUTER, "ROUTER"},
			  {OQ_NT_SELF, "SELF"}};
		bool first = true;

		fprintf(out, "    port-group\n        name: \"%s\"\n", g->name);
		if (g->use && *g->use)
			fprintf(out, "        use: \"%s\"\n", g->use);
		key_ranges(out, "        ", "port-guid", &g->guids, true);
		for (j = 0; j < g->n_port_names; j++)
			fprintf(out, "        port-name: \"%s\"\n",
				g->port_names[j].name);
		key_ranges(out, "        ", "pkey", &g->pkeys, true);
		for (j = 0; j < g->partitions.n; j++)
			fprintf(out, "        partition: \"%s\"\n",
				g->partitions.v[j].name);
		for (j = 0; j < sizeof(nt) / sizeof(nt[0]); j++) {
			if (!(g->node_types & nt[j].bit))
				continue;
			fprintf(out, "%s%s",
				first ? "        node-type: " : ", ",
				nt[j].name);
			first = false;
		}
		if (!first)
			fputc('\n', out);
		fputs("    end-port-group\n", out);
	}
	fputs("end-port-groups\n\n", out);
}

static void vlarb_entries(FILE *out, const char *key,
			  const struct oq_vlarb_entry *e, size_t n, bool has)
{
	size_t i;

	if (!has)
		return;
	fprintf(out, "            %s: ", key);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%u:%u", i ? "," : "", e[i].vl, e[i].weight);
	fputs(n ? "\n" : "0:0\n", out);
}

static void portsel(FILE *out, const char *key, const struct oq_portsel *s)
{
	unsigned int b, lo = 0;
	bool in = false, first = true;

	if (!s->given)
		return;
	fprintf(out, "            %s: ", key);
	if (s->all) {
		fputs("*\n", out);
		return;
	}
	for (b = 0; b <= 256; b++) {
		bool set = b < 256 && (s->bits[b / 64] >> (b % 64) & 1);

		if (set && !in) {
			lo = b;
			in = true;
		} else if (!set && in) {
			fprintf(out, first ? "" : ",");
			if (lo == b - 1)
				fprintf(out, "%u", lo);
			else
				fprintf(out, "%u-%u", lo, b - 1);
			first = false;
			in = false;
		}
	}
	fputc('\n', out);
}

static void qos_setup(FILE *out, const struct oq_policy *p)
{
	size_t i, s;

	fputs("qos-setup\n", out);
	if (p->n_vlarb) {
		fputs("    vlarb-tables\n", out);
		for (i = 0; i < p->n_vlarb; i++) {
			const struct oq_vlarb_scope *v = &p->vlarb[i];

			fputs("        vlarb-scope\n", out);
			key_groups(out, "            ", "group", p, &v->groups);
			key_groups(out, "            ", "across", p,
				   &v->across);
			vlarb_entries(out, "vlarb-high", v->high, v->n_high,
				      v->has_high);
			vlarb_entries(out, "vlarb-low", v->low, v->n_low,
				      v->has_low);
			if (v->vl_high_limit >= 0)
				fprintf(out, "            vl-high-limit: %d\n",
					v->vl_high_limit);
			fputs("        end-vlarb-scope\n", out);
		}
		fputs("    end-vlarb-tables\n", out);
	}
	if (p->n_sl2vl) {
		fputs("    sl2vl-tables\n", out);
		for (i = 0; i < p->n_sl2vl; i++) {
			const struct oq_sl2vl_scope *v = &p->sl2vl[i];

			fputs("        sl2vl-scope\n", out);
			key_groups(out, "            ", "group", p, &v->groups);
			key_groups(out, "            ", "across", p,
				   &v->across);
			key_groups(out, "            ", "across-from", p,
				   &v->across_from);
			key_groups(out, "            ", "across-to", p,
				   &v->across_to);
			portsel(out, "from", &v->from);
			portsel(out, "to", &v->to);
			fputs("            sl2vl-table: ", out);
			for (s = 0; s < 16; s++)
				fprintf(out, "%s%u", s ? "," : "", v->sl2vl[s]);
			fputs("\n        end-sl2vl-scope\n", out);
		}
		fputs("    end-sl2vl-tables\n", out);
	}
	fputs("end-qos-setup\n\n", out);
}

static void qos_levels(FILE *out, const struct oq_policy *p)
{
	size_t i;

	fputs("qos-levels\n", out);
	for (i = 0; i < p->n_explicit_levels; i++) {
		const struct oq_qos_level *l = &p->levels[i];
		unsigned int next = i + 1 < p->n_explicit_levels
					    ? p->levels[i + 1].loc.line
					    : (unsigned int)-1;

		fprintf(out, "    qos-level\n        name: \"%s\"\n", l->name);
		if (l->use && *l->use)
			fprintf(out, "        use: \"%s\"\n", l->use);
		fprintf(out, "        sl: %d\n", l->sl);
		if (l->mtu_limit >= 0)
			fprintf(out, "        mtu-limit: %d\n", l->mtu_limit);
		if (l->rate_limit >= 0)
			fprintf(out, "        rate-limit: %d\n", l->rate_limit);
		if (l->packet_life >= 0)
			fprintf(out, "        packet-life: %d\n",
				l->packet_life);
		key_ranges(out, "        ", "path-bits", &l->path_bits, false);
		key_ranges(out, "        ", "pkey", &l->pkeys, true);
		ext_comments(out, p, l->loc.line, next);
		fputs("    end-qos-level\n", out);
	}
	fputs("end-qos-levels\n\n", out);
}

static void match_rules(FILE *out, const struct oq_policy *p)
{
	size_t i;

	fputs("qos-match-rules\n", out);
	for (i = 0; i < p->n_explicit_rules; i++) {
		const struct oq_match_rule *r = &p->rules[i];

		fputs("    qos-match-rule\n", out);
		if (r->use && *r->use)
			fprintf(out, "        use: \"%s\"\n", r->use);
		key_ranges(out, "        ", "qos-class", &r->qos_classes,
			   false);
		key_groups(out, "        ", "source", p, &r->sources);
		key_groups(out, "        ", "destination", p, &r->destinations);
		key_ranges(out, "        ", "service-id", &r->service_ids,
			   true);
		key_ranges(out, "        ", "pkey", &r->pkeys, true);
		fprintf(out, "        qos-level-name: \"%s\"\n",
			p->levels[r->level.idx].name);
		fputs("    end-qos-match-rule\n", out);
	}
	fputs("end-qos-match-rules\n\n", out);
}

/* The port numbers of service IDs base + port. */
static void ulp_ports(FILE *out, const struct oq_ranges *sids, uint64_t base)
{
	struct oq_range one;
	struct oq_ranges r = {&one, 1};
	size_t i;

	for (i = 0; i < sids->n; i++) {
		one.lo = sids->v[i].lo - base;
		one.hi = sids->v[i].hi - base;
		fputs(i ? ", " : "", out);
		ranges(out, &r, false);
	}
}

/* A qos-ulps rule's line, from the ULP its text names and its values. */
static int ulp_line(FILE *out, const struct oq_policy *p,
		    const struct oq_match_rule *r)
{
	const char *t = r->use ? r->use : "";
	const char *comma = strchr(t, ',');
	char ulp[8] = "", qual[32] = "";
	int sl = p->levels[r->level.idx].sl;
	const struct oq_refs *gr;

	sscanf(t, "%7[A-Za-z]", ulp);
	if (comma)
		sscanf(comma + 1, " %31[a-z-]", qual);
	fputs("    ", out);
	if (!strcasecmp(ulp, "sdp") || !strcasecmp(ulp, "rds") ||
	    !strcasecmp(ulp, "iser")) {
		uint64_t base = !strcasecmp(ulp, "sdp") ? OQ_ULP_SDP_SERVICE_ID
				: !strcasecmp(ulp, "rds")
					? OQ_ULP_RDS_SERVICE_ID
					: OQ_ULP_ISER_SERVICE_ID;

		fprintf(out, "%s",
			!strcasecmp(ulp, "sdp")	  ? "sdp"
			: !strcasecmp(ulp, "rds") ? "rds"
						  : "iser");
		if (comma) {
			fputs(", port-num ", out);
			ulp_ports(out, &r->service_ids, base);
		}
	} else if (!strcasecmp(ulp, "ipoib")) {
		fputs("ipoib", out);
		if (comma) {
			fputs(", pkey ", out);
			ranges(out, &r->pkeys, true);
		}
	} else if (!strcasecmp(ulp, "srp") || !strcasecmp(ulp, "any")) {
		fprintf(out, "%s, %s ", !strcasecmp(ulp, "srp") ? "srp" : "any",
			qual);
		if (!strcmp(qual, "service-id")) {
			ranges(out, &r->service_ids, true);
		} else if (!strcmp(qual, "pkey")) {
			ranges(out, &r->pkeys, true);
		} else {
			gr = !strcmp(qual, "target-port-guid")
				     ? &r->destinations
				     : &r->sources;
			if (!gr->n || gr->v[0].idx < 0)
				return -1;
			ranges(out, &p->groups[gr->v[0].idx].guids, true);
		}
	} else {
		return -1;
	}
	fprintf(out, " : %d\n", sl);
	return 0;
}

/* The qos-ulps rules [from, to) as one section, with the default line
 * when asked. */
static int qos_ulps(FILE *out, const struct oq_policy *p, size_t from,
		    size_t to, bool with_default)
{
	size_t i;

	fputs("qos-ulps\n", out);
	if (with_default)
		fprintf(out, "    default : %d\n", p->ulp_default_sl);
	for (i = from; i < to; i++)
		if (ulp_line(out, p, &p->rules[i]))
			return -1;
	fputs("end-qos-ulps\n\n", out);
	return 0;
}

static const struct oq_loc nowhere = {NULL, (unsigned int)-1, (unsigned int)-1};

static bool before(struct oq_loc a, struct oq_loc b)
{
	return a.line < b.line || (a.line == b.line && a.col < b.col);
}

/* The sections, by where each starts in the file. */
enum section { S_GROUPS, S_ULPS, S_SETUP, S_LEVELS, S_RULES, S_N };

/* A default line alone: where the level it makes is (after the rest when
 * a DEFAULT level overrides it). */
static struct oq_loc default_at(const struct oq_policy *p)
{
	if (p->default_level >= 0 && p->levels[p->default_level].from_ulp)
		return p->levels[p->default_level].loc;
	return (struct oq_loc){NULL, (unsigned int)-1, 0};
}

int oq_stock_write(FILE *out, const struct oq_policy *p, const char *header)
{
	size_t g = 0, ng = p->n_explicit_groups, end;
	size_t u = p->n_explicit_rules, nu = p->n_rules;
	bool with_default = p->ulp_default_sl >= 0;
	struct oq_loc at[S_N];
	enum section next;
	int k;

	fprintf(out, "%s", header);
	at[S_SETUP] = at[S_LEVELS] = at[S_RULES] = nowhere;
	if (p->n_vlarb)
		at[S_SETUP] = p->vlarb[0].loc;
	if (p->n_sl2vl && before(p->sl2vl[0].loc, at[S_SETUP]))
		at[S_SETUP] = p->sl2vl[0].loc;
	if (p->n_explicit_levels)
		at[S_LEVELS] = p->levels[0].loc;
	if (p->n_explicit_rules)
		at[S_RULES] = p->rules[0].loc;
	for (;;) {
		at[S_GROUPS] = g < ng ? p->groups[g].loc : nowhere;
		at[S_ULPS] = u < nu	    ? p->rules[u].loc
			     : with_default ? default_at(p)
					    : nowhere;
		next = S_GROUPS;
		for (k = S_ULPS; k < S_N; k++)
			if (before(at[k], at[next]))
				next = (enum section)k;
		if (!before(at[next], nowhere))
			break;
		switch (next) {
		case S_GROUPS: /* up to the next qos-ulps line */
			for (end = g + 1; end < ng; end++)
				if (u < nu &&
				    before(p->rules[u].loc, p->groups[end].loc))
					break;
			port_groups(out, p, g, end);
			g = end;
			break;
		case S_ULPS: /* up to the next port group */
			for (end = u; end < nu; end++)
				if (end > u && g < ng &&
				    before(p->groups[g].loc, p->rules[end].loc))
					break;
			if (qos_ulps(out, p, u, end, with_default))
				return -1;
			with_default = false;
			u = end;
			break;
		case S_SETUP:
			qos_setup(out, p);
			break;
		case S_LEVELS:
			qos_levels(out, p);
			break;
		case S_RULES:
			match_rules(out, p);
			break;
		case S_N:
			break;
		}
		if (next >= S_SETUP)
			at[next] = nowhere;
	}
	return ferror(out) ? -1 : 0;
}
