// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos model: the raw VL arbiter of one port.  Given the high and low
 * VLArb tables, VLHighLimit and MTU, print each backlogged VL's exact byte
 * share over one period of the arbiter; or sweep the low weight and draw
 * the high/low ratio curve (reference 000's Figure 7) as SVG.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/model.h>

#include "cli.h"
#include "output_file.h"
#include "svg.h"

#define CMD "model"

struct table_opt {
	struct oq_vlarb_table t;
	bool given;
};

struct sweep_opt {
	unsigned int from, to;
	bool given;
};

struct model_opts {
	struct oq_cli_common c;
	struct table_opt high, low;
	struct oq_num limit, steps;
	struct oq_mask active;
	uint32_t pkt[OQ_MAX_VLS];
	struct sweep_opt sweep;
};
OQ_OPTS_STRUCT(struct model_opts);

static int parse_table(void *value, const char *s, const struct oq_opt *o);
static int parse_pkt(void *value, const char *s, const struct oq_opt *o);
static int parse_sweep(void *value, const char *s, const struct oq_opt *o);

#define OFF(field) offsetof(struct model_opts, field)

static const struct oq_opt model_opts[] = {
	OQ_OPT("high", 0, OQ_OPT_CUSTOM, "VL:W,...",
	       "the high-priority VLArb table: VL (0-14) : weight (0-255, "
	       "64-byte credits); '-' for an empty table",
	       OFF(high), .parse = parse_table),
	OQ_OPT("low", 0, OQ_OPT_CUSTOM, "VL:W,...",
	       "the low-priority VLArb table, the same way", OFF(low),
	       .parse = parse_table),
	OQ_OPT("limit", 0, OQ_OPT_NUM, "N",
	       "VLHighLimit in 4 KiB units (0-255, 255 = unbounded); required "
	       "with a high table, else 0",
	       OFF(limit), .max = 255),
	OQ_USE_H(OQ_CO_MTU_BYTES, OQ_OPT_REQUIRED,
		 "packet size (the default packet of every VL)"),
	OQ_OPT("active", 0, OQ_OPT_VLS, "VLS",
	       "backlogged VLs, e.g. 0-3,7 (default: every VL in a table)",
	       OFF(active)),
	OQ_OPT("pkt", 0, OQ_OPT_CUSTOM, "VL:BYTES,...", "packet size of one VL",
	       OFF(pkt), .parse = parse_pkt, .flags = OQ_OPT_REPEATABLE),
	OQ_USE(OQ_CO_PROFILE),
	OQ_OPT("max-steps", 0, OQ_OPT_NUM, "N",
	       "arbiter bursts before falling back to an average", OFF(steps),
	       .min = 1, .max = UINT64_MAX),
	OQ_OPT("sweep-low", 0, OQ_OPT_CUSTOM, "A..B",
	       "set every low entry's weight to L = A..B and print the "
	       "high/low byte ratio; --svg FILE draws it",
	       OFF(sweep), .parse = parse_sweep),
	OQ_USE_H(OQ_CO_SVG, 0,
		 "with --sweep-low: draw the ratio curve into FILE (-: "
		 "standard output, the table then on standard error)"),
	OQ_USE_H(OQ_CO_JSON, 0,
		 "one JSON object: vl_shares (numbers), vl_shares_exact "
		 "(\"n/d\" strings), cycle_bytes, ..."),
	OQ_OPT_END,
};

static const char *const model_forms[] = {
	"--high VL:W,... --low VL:W,... --limit N --mtu BYTES [OPTIONS]",
	"... --sweep-low FROM..TO [--svg FILE]",
	NULL,
};

static int run(int argc, char **argv);

const struct oq_cmd_spec oq_spec_model = {
	.name = CMD,
	.summary = "the raw VL arbiter of one port",
	.about = "The VL arbiter of one port (IBA 1.2.1 7.6.9) run until its "
		 "state repeats; prints each VL's exact share of the link's "
		 "bytes over that period.",
	.forms = model_forms,
	.opts = model_opts,
	.exit_status = "0 ok, 2 usage error.",
	.run = run,
};

#define NUM_FORM "(decimal or 0x hex, no leading 0)"

/*
 * The len bytes at part as a number lo..hi (oq_parse_u64, the shared
 * conventions: a leading 0 refused).  0, or -1 after saying what was
 * wrong: "OPT 'ARG': NAME 'PART' is not a number in LO..HI".
 */
static int part_num(const char *opt, const char *arg, const char *name,
		    const char *part, size_t len, unsigned long long lo,
		    unsigned long long hi, unsigned long long *v)
{
	char *t = strndup(part, len);
	int bad;

	if (!t)
		return oq_usage_error(CMD, "out of memory");
	bad = oq_parse_u64(t, v) || *v < lo || *v > hi;
	if (bad)
		oq_usage_error(CMD,
			       "%s '%s': %s '%s' is not a number in "
			       "%llu..%llu " NUM_FORM,
			       opt, arg, name, t, lo, hi);
	free(t);
	return bad ? -1 : 0;
}

/*
 * One VL:N entry tok (the whole of it named in the errors) into *vl and
 * *v, N called name and within lo..hi.  0, or -1 after saying why.
 */
static int parse_entry(const char *opt, const char *tok, const char *form,
		       const char *name, unsigned long long lo,
		       unsigned long long hi, unsigned long long *vl,
		       unsigned long long *v)
{
	const char *colon = strchr(tok, ':');

	if (!colon)
		return oq_usage_error(CMD, "%s: '%s' is not %s", opt, tok,
				      form);
	if (part_num(opt, tok, "VL", tok, (size_t)(colon - tok), 0, 14, vl))
		return -1;
	return part_num(opt, tok, name, colon + 1, strlen(colon + 1), lo, hi,
			v);
}

/* "VL:W,VL:W" -> table.  A VL may come back: the table is a sequence
 * of entries, and a VL in several of them is served in several turns. */
static int parse_table(void *value, const char *s, const struct oq_opt *o)
{
	struct table_opt *to = value;
	struct oq_vlarb_table *t = &to->t;
	char *dup, *tok, *save = NULL, what[32];
	int rc = 0;

	snprintf(what, sizeof(what), "--%s", o->name);
	memset(t, 0, sizeof(*t));
	to->given = true;
	if (!strcmp(s, "-"))
		return 0;
	if (!*s)
		return oq_usage_error(CMD, "%s: empty; give VL:WEIGHT,... "
				      "or - for no table", what);
	dup = strdup(s);
	if (!dup)
		return oq_usage_error(CMD, "out of memory");
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long long vl, w;

		if (parse_entry(what, tok, "VL:WEIGHT (e.g. 0:32)", "weight", 0,
				255, &vl, &w)) {
			rc = OQ_EXIT_USAGE;
			break;
		}
		if (t->n == OQ_VLARB_MAX) {
			rc = oq_usage_error(CMD, "%s: more than 64 entries",
					    what);
			break;
		}
		t->e[t->n].vl = (uint8_t)vl;
		t->e[t->n].weight = (uint8_t)w;
		t->n++;
	}
	free(dup);
	if (!rc && !t->n)
		rc = oq_usage_error(CMD, "%s: '%s' has no VL:WEIGHT entry; "
				    "give VL:WEIGHT,... or - for no table",
				    what, s);
	return rc;
}

/* "VL:BYTES,..." into pkt[VL], over every --pkt given: one size per VL,
 * so a VL given again is refused rather than the first size dropped. */
static int parse_pkt(void *value, const char *s, const struct oq_opt *o)
{
	uint32_t *pkt = value;
	char *dup = strdup(s), *tok, *save = NULL;
	bool any = false;
	int rc = 0;

	(void)o;
	if (!dup)
		return oq_usage_error(CMD, "out of memory");
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long long v, b;

		if (parse_entry("--pkt", tok, "VL:BYTES (e.g. 2:256)", "bytes",
				1, OQ_ARB_MAX_PKT, &v, &b)) {
			rc = OQ_EXIT_USAGE;
			break;
		}
		/* 0 is no size: BYTES is 1 or more. */
		if (pkt[v]) {
			rc = oq_usage_error(CMD,
					    "--pkt: VL %llu given twice (%u "
					    "bytes, then '%s'); give each VL "
					    "one packet size",
					    v, pkt[v], tok);
			break;
		}
		pkt[v] = (uint32_t)b;
		any = true;
	}
	free(dup);
	if (!rc && !any)
		rc = oq_usage_error(CMD,
				    "--pkt: '%s' has no VL:BYTES entry; "
				    "give VL:BYTES,... (e.g. 2:256)",
				    s);
	return rc;
}

static int parse_sweep(void *value, const char *s, const struct oq_opt *o)
{
	struct sweep_opt *sw = value;
	const char *dots = strstr(s, "..");
	unsigned long long from, to;

	(void)o;
	if (!dots)
		return oq_usage_error(CMD,
				      "--sweep-low '%s' is not FROM..TO "
				      "(e.g. 1..64)",
				      s);
	if (part_num("--sweep-low", s, "FROM", s, (size_t)(dots - s), 1, 255,
		     &from) ||
	    part_num("--sweep-low", s, "TO", dots + 2, strlen(dots + 2), 1, 255,
		     &to))
		return OQ_EXIT_USAGE;
	if (from > to)
		return oq_usage_error(CMD,
				      "--sweep-low '%s': FROM %llu is above "
				      "TO %llu; give the lower weight first",
				      s, from, to);
	sw->from = (unsigned int)from;
	sw->to = (unsigned int)to;
	sw->given = true;
	return 0;
}

static int run_one(const struct oq_arb_config *c, enum oq_profile prof,
		   struct oq_arb_result *r, bool *applied)
{
	*applied = false;
	if (prof == OQ_PROFILE_CX2_2K && oq_cx2_apply(c, r) == 0) {
		*applied = true;
		return 0;
	}
	return oq_arb_run(c, r);
}

static const char *table_of(uint16_t vl, const struct oq_arb_config *c)
{
	bool h = oq_vlarb_vls(c->high) & (1u << vl);
	bool l = oq_vlarb_vls(c->low) & (1u << vl);

	return h && l ? "both" : h ? "high" : l ? "low" : "none";
}

static int print_shares(const struct oq_arb_config *c, enum oq_profile prof,
			bool json)
{
	struct oq_arb_result r;
	bool applied, first = true;
	char buf[64];
	unsigned int v;

	if (run_one(c, prof, &r, &applied))
		return oq_usage_error(CMD, "the arbiter rejected the "
					   "configuration (packet size 0 or "
					   "above 65535?)");
	if (prof == OQ_PROFILE_CX2_2K && !applied)
		fprintf(stderr,
			"osmqos model: warning: cx2-2k needs MTU 2048 and one "
			"high and one low VL with one entry each; used the IBA "
			"model\n");
	if (json) {
		printf("{\"vl_shares\": {");
		for (v = 0; v < OQ_MAX_VLS; v++) {
			if (!(c->backlog & (1u << v)))
				continue;
			printf("%s\"%u\": %.12g", first ? "" : ", ", v,
			       oq_frac_double(r.share[v]));
			first = false;
		}
		printf("}, \"vl_shares_exact\": {");
		first = true;
		for (v = 0; v < OQ_MAX_VLS; v++) {
			if (!(c->backlog & (1u << v)))
				continue;
			oq_frac_format(r.share[v], buf, sizeof(buf));
			printf("%s\"%u\": \"%s\"", first ? "" : ", ", v, buf);
			first = false;
		}
		printf("}, \"vl_bytes\": {");
		first = true;
		for (v = 0; v < OQ_MAX_VLS; v++) {
			if (!(c->backlog & (1u << v)))
				continue;
			printf("%s\"%u\": %llu", first ? "" : ", ", v,
			       (unsigned long long)r.vl_bytes[v]);
			first = false;
		}
		printf("}, \"cycle_bytes\": %llu, \"cycle_packets\": %llu, "
		       "\"cycle_steps\": %llu, \"exact\": %s, \"idle\": %s, "
		       "\"profile\": \"%s\"}\n",
		       (unsigned long long)r.cycle_bytes,
		       (unsigned long long)r.cycle_packets,
		       (unsigned long long)r.cycle_steps,
		       r.approx ? "false" : "true", r.idle ? "true" : "false",
		       applied ? "cx2-2k" : "iba");
		return OQ_EXIT_OK;
	}
	printf("VL  table  share         exact\n");
	for (v = 0; v < OQ_MAX_VLS; v++) {
		if (!(c->backlog & (1u << v)))
			continue;
		oq_frac_format(r.share[v], buf, sizeof(buf));
		printf("%-3u %-6s %-13.9f %s%s\n", v, table_of((uint16_t)v, c),
		       oq_frac_double(r.share[v]), buf,
		       r.vl_bytes[v] || r.idle ? ""
					       : "  (starved or in no table)");
	}
	if (r.idle)
		printf("idle: no backlogged VL has a positive-weight entry\n");
	else if (applied)
		printf("profile cx2-2k: %llu high : %llu low 2 KiB packets\n",
		       (unsigned long long)(r.vl_bytes[__builtin_ctz(
						    r.high_vls)] /
					    2048),
		       (unsigned long long)((r.cycle_bytes -
					     r.vl_bytes[__builtin_ctz(
						     r.high_vls)]) /
					    2048));
	else
		printf("period: %llu bytes, %llu packets, %llu bursts%s\n",
		       (unsigned long long)r.cycle_bytes,
		       (unsigned long long)r.cycle_packets,
		       (unsigned long long)r.cycle_steps,
		       r.approx ? " (step cap reached: long-run average, "
				  "not exact; raise --max-steps)"
				: "");
	return OQ_EXIT_OK;
}

/* High/low byte ratio of one run; false when low gets nothing. */
static bool hl_ratio(const struct oq_arb_config *c, enum oq_profile prof,
		     struct oq_frac *ratio, double *x)
{
	uint16_t hv = oq_vlarb_vls(c->high), lv = oq_vlarb_vls(c->low);
	struct oq_arb_result r;
	uint64_t h = 0, l = 0;
	bool applied;
	unsigned int v;

	if (run_one(c, prof, &r, &applied))
		return false;
	for (v = 0; v < OQ_MAX_VLS; v++) {
		if (hv & (1u << v))
			h += r.vl_bytes[v];
		else if (lv & (1u << v))
			l += r.vl_bytes[v];
	}
	if (!l)
		return false;
	*ratio = oq_frac_make(h, l);
	*x = (double)h / (double)l;
	return true;
}

static int sweep(struct oq_arb_config *c, struct oq_vlarb_table *lo,
		 enum oq_profile prof, unsigned int from, unsigned int to,
		 const char *svg, bool json)
{
	double xs[256], ys[256], xi[256], yi[256];
	size_t n = 0, ni = 0, i;
	unsigned int l;
	char buf[64], *doc = NULL;
	size_t doc_len = 0;
	FILE *f;
	int rc;

	if (!lo->n)
		return oq_usage_error(CMD, "--sweep-low needs a --low table "
					   "to sweep");
	if (oq_vlarb_vls(c->high) & oq_vlarb_vls(lo))
		return oq_usage_error(CMD,
				      "--sweep-low: a VL is in both tables, "
				      "so the high/low ratio is undefined; "
				      "list each VL in one table");
	if (json)
		printf("{\"profile\": \"%s\", \"sweep\": [",
		       prof == OQ_PROFILE_CX2_2K ? "cx2-2k" : "iba");
	else
		printf("L    high/low\n");
	for (l = from; l <= to; l++) {
		struct oq_frac r;
		double x, xr;

		for (i = 0; i < lo->n; i++)
			lo->e[i].weight = (uint8_t)l;
		if (prof == OQ_PROFILE_CX2_2K &&
		    hl_ratio(c, OQ_PROFILE_IBA, &r, &xr)) {
			xi[ni] = l;
			yi[ni++] = xr;
		}
		if (!hl_ratio(c, prof, &r, &x)) {
			if (json)
				printf("%s{\"low_weight\": %u, \"ratio\": "
				       "null}",
				       l == from ? "" : ", ", l);
			else
				printf("%-4u inf (low starves)\n", l);
			continue;
		}
		oq_frac_format(r, buf, sizeof(buf));
		if (json)
			printf("%s{\"low_weight\": %u, \"ratio\": %.12g, "
			       "\"ratio_exact\": \"%s\"}",
			       l == from ? "" : ", ", l, x, buf);
		else
			printf("%-4u %-12.6f %s\n", l, x, buf);
		xs[n] = l;
		ys[n++] = x;
	}
	if (json)
		printf("]}\n");
	if (!svg)
		return OQ_EXIT_OK;
	if (!n)
		return oq_usage_error(CMD, "nothing to draw: the low VLs "
					   "starve for every L");
	/* Drawn whole in memory first: a failure leaves FILE as it was. */
	f = open_memstream(&doc, &doc_len);
	if (!f)
		return oq_usage_error(CMD, "out of memory");
	{
		char title[160];
		/* IBA first so the profile's curve is drawn on top. */
		struct oq_svg_series s[2] = {
			{"IBA model", "#1f77b4", xi, yi, ni},
			{"cx2-2k profile", "#d62728", xs, ys, n},
		};
		struct oq_svg_chart ch = {
			title,
			"low-priority weight L (64-byte credits)",
			"bandwidth ratio high / low",
			s,
			2,
		};

		if (prof != OQ_PROFILE_CX2_2K) {
			s[0].x = xs;
			s[0].y = ys;
			s[0].n = n;
			ch.n_series = 1;
		}

		snprintf(title, sizeof(title),
			 "High/low VL bandwidth ratio vs L (H=%u, limit Q=%u, "
			 "MTU %u)",
			 c->high && c->high->n ? c->high->e[0].weight : 0,
			 c->high_limit, c->mtu_bytes);
		rc = oq_svg_line_chart(f, &ch);
		if (fclose(f) || rc) {
			free(doc);
			return oq_usage_error(CMD, "out of memory drawing "
						   "--svg");
		}
	}
	rc = oq_cli_write_file(CMD, "--svg", svg, doc, doc_len);
	free(doc);
	if (rc)
		return rc;
	if (!json)
		fprintf(stderr, "wrote %s\n", oq_cli_output_name(svg));
	return OQ_EXIT_OK;
}

static int run(int argc, char **argv)
{
	struct model_opts o = {0};
	struct oq_arb_config c;
	int rc = oq_cli_parse(&oq_spec_model, argc, argv, &o);

	if (rc != OQ_CLI_RUN)
		return rc;
	if (!o.high.given && !o.low.given)
		return oq_usage_error(CMD, "give at least one of --high and "
					   "--low (e.g. --high 0:32 --low "
					   "1:64)");
	/* VLHighLimit only bounds the high table: without one it does
	 * not matter, and 0 is what OpenSM programs then. */
	if (!o.limit.given && o.high.t.n)
		return oq_usage_error(CMD, "--limit is required with a high "
					   "table (0-255; 255 = unbounded)");
	if (o.c.svg && !o.sweep.given)
		return oq_usage_error(CMD, "--svg draws a sweep; add "
					   "--sweep-low FROM..TO");
	oq_arb_config_init(&c, &o.high.t, &o.low.t, (uint8_t)o.limit.v,
			   (uint32_t)o.c.mtu.v);
	memcpy(c.pkt_bytes, o.pkt, sizeof(o.pkt));
	c.max_steps = o.steps.v;
	if (o.active.given) {
		c.backlog = o.active.bits;
	} else {
		unsigned int i;

		for (i = 0; i < o.high.t.n; i++)
			if (o.high.t.e[i].vl < OQ_MAX_VLS)
				c.backlog |= (uint16_t)(1u << o.high.t.e[i].vl);
		for (i = 0; i < o.low.t.n; i++)
			if (o.low.t.e[i].vl < OQ_MAX_VLS)
				c.backlog |= (uint16_t)(1u << o.low.t.e[i].vl);
	}
	if (o.sweep.given)
		return sweep(&c, &o.low.t, (enum oq_profile)o.c.profile,
			     o.sweep.from, o.sweep.to, o.c.svg, o.c.json);
	return print_shares(&c, (enum oq_profile)o.c.profile, o.c.json);
}
