// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Per-port-type QoS templates, read as OpenSM 3.3.23 reads them:
 *
 *  - opensm.conf holds qos_max_vls, qos_high_limit, qos_vlarb_high,
 *    qos_vlarb_low, qos_sl2vl, and the same five with the prefixes qos_ca_,
 *    qos_swe_, qos_sw0_, qos_rtr_ (osm_subnet.c opt_tbl);
 *  - a per-type value that is unset ("(null)" for strings, 0 or out of
 *    range for max_vls, negative or > 255 for high_limit) falls back to
 *    the generic qos_ one, and that to the compiled-in default
 *    (osm_qos.c qos_build_config(), osm_base.h OSM_DEFAULT_QOS_*);
 *  - table strings are read leniently, entry by entry, exactly as
 *    osm_qos.c parse_vlarb_entry()/parse_sl2vl_entry() do, and checked
 *    with the warnings of osm_subnet.c subn_verify_*().
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/match.h>
#include <osmqos/tables.h>
#include <osmqos/file.h>
#include <osmqos/opensm_conf.h>

#define DEFAULT_MAX_VLS 15
#define DEFAULT_HIGH_LIMIT 0
#define DEFAULT_VLARB_HIGH \
	"0:4,1:0,2:0,3:0,4:0,5:0,6:0,7:0,8:0,9:0,10:0,11:0,12:0,13:0,14:0"
#define DEFAULT_VLARB_LOW \
	"0:0,1:4,2:4,3:4,4:4,5:4,6:4,7:4,8:4,9:4,10:4,11:4,12:4,13:4,14:4"
#define DEFAULT_SL2VL "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7"
/* osm_base.h OSM_DEFAULT_MAX_OP_VLS: VL0-14. */
#define DEFAULT_MAX_OP_VLS 5

/* One option set as OpenSM stores it (osm_qos_options_t). */
struct qos_opts {
	unsigned int max_vls; /* 0 = unset */
	int high_limit;	      /* -1 = unset */
	char *vlarb_high, *vlarb_low, *sl2vl; /* NULL = unset */
};

enum { SET_GENERIC = OQ_KIND_MAX, N_SETS };

static const char *const set_prefix[N_SETS] = {
	[OQ_KIND_CA] = "qos_ca",   [OQ_KIND_SWE] = "qos_swe",
	[OQ_KIND_SW0] = "qos_sw0", [OQ_KIND_RTR] = "qos_rtr",
	[SET_GENERIC] = "qos",
};

/* osm_qos.c parse_one_unsigned(): strtoul, then skip one delimiter. */
static const char *one_unsigned(const char *p, unsigned int *val)
{
	char *end;

	*val = (unsigned int)strtoul(p, &end, 0);
	if (*end)
		end++;
	return end;
}

static void build_vlarb(struct oq_vlarb_table *tbl, const char *p)
{
	unsigned int i, v;

	memset(tbl, 0, sizeof(*tbl));
	for (i = 0; i < OQ_VLARB_MAX; i++) {
		if (*p)
			tbl->n = (uint8_t)(i + 1);
		p = one_unsigned(p, &v);
		tbl->e[i].vl = (uint8_t)(v % 15);
		p = one_unsigned(p, &v);
		tbl->e[i].weight = (uint8_t)v;
	}
}

static void build_sl2vl(uint8_t sl2vl[16], const char *p)
{
	unsigned int i, v;

	for (i = 0; i < 16; i++) {
		p = one_unsigned(p, &v);
		sl2vl[i] = (uint8_t)(v & 0xf);
	}
}

/* osm_qos.c qos_build_config(): the type's option, else the generic
 * one, else the compiled-in default. */
static void build(struct oq_qos_template *t, const struct qos_opts *o,
		  const struct qos_opts *g)
{
	const char *s;

	t->max_vls = (uint8_t)(o->max_vls ? o->max_vls
				: g->max_vls ? g->max_vls
					     : DEFAULT_MAX_VLS);
	t->high_limit = (uint8_t)(o->high_limit >= 0 ? o->high_limit
				  : g->high_limit >= 0 ? g->high_limit
						       : DEFAULT_HIGH_LIMIT);
	s = o->vlarb_high ? o->vlarb_high
	    : g->vlarb_high ? g->vlarb_high : DEFAULT_VLARB_HIGH;
	build_vlarb(&t->vlarb_high, s);
	s = o->vlarb_low ? o->vlarb_low
	    : g->vlarb_low ? g->vlarb_low : DEFAULT_VLARB_LOW;
	build_vlarb(&t->vlarb_low, s);
	s = o->sl2vl ? o->sl2vl : g->sl2vl ? g->sl2vl : DEFAULT_SL2VL;
	build_sl2vl(t->sl2vl, s);
}

static void build_all(struct oq_templates *t, const struct qos_opts *sets)
{
	int k;

	for (k = 0; k < OQ_KIND_MAX; k++)
		build(&t->t[k], &sets[k], &sets[SET_GENERIC]);
}

static void opts_init(struct qos_opts *sets)
{
	int k;

	for (k = 0; k < N_SETS; k++) {
		memset(&sets[k], 0, sizeof(sets[k]));
		sets[k].high_limit = -1;
	}
}

static void opts_free(struct qos_opts *sets)
{
	int k;

	for (k = 0; k < N_SETS; k++) {
		free(sets[k].vlarb_high);
		free(sets[k].vlarb_low);
		free(sets[k].sl2vl);
	}
}

void oq_templates_default(struct oq_templates *t)
{
	struct qos_opts sets[N_SETS];

	memset(t->routing_engine, 0, sizeof(t->routing_engine));
	t->max_op_vls = DEFAULT_MAX_OP_VLS;
	opts_init(sets);
	build_all(t, sets);
}

enum oq_port_kind oq_port_kind(const struct oq_port *p)
{
	switch (p->node->type) {
	case OQ_NODE_SWITCH:
		return p->num ? OQ_KIND_SWE : OQ_KIND_SW0;
	case OQ_NODE_ROUTER:
		return OQ_KIND_RTR;
	case OQ_NODE_CA:
		break;
	}
	return OQ_KIND_CA;
}

struct ctx {
	const char *file;
	unsigned int line;
	struct oq_diags *d;
	char *engine; /* routing_engine's first entry goes here */
};

static struct oq_loc at(const struct ctx *c, unsigned int col)
{
	struct oq_loc l = { c->file, c->line, col };

	return l;
}

/* osm_subnet.c subn_verify_vlarb(): warnings only, OpenSM keeps going. */
static void verify_vlarb(const struct ctx *c, unsigned int col,
			 const char *key, const char *val)
{
	char *str = strdup(val), *tok, *save = NULL, *end;
	int count = 0;

	if (!str)
		return;
	for (tok = strtok_r(str, ",\n", &save); tok;
	     tok = strtok_r(NULL, ",\n", &save), count++) {
		char *w = strchr(tok, ':');
		long vl, weight;

		if (!w) {
			oq_warning(c->d, at(c, col),
				   "%s: '%s' is not VL:WEIGHT", key, tok);
			continue;
		}
		*w++ = '\0';
		vl = strtol(tok, &end, 0);
		if (*end)
			oq_warning(c->d, at(c, col),
				   "%s: VL '%s' is not a number", key, tok);
		else if (vl < 0 || vl > 14)
			oq_warning(c->d, at(c, col),
				   "%s: VL %ld is out of range 0..14", key, vl);
		weight = strtol(w, &end, 0);
		if (*end)
			oq_warning(c->d, at(c, col),
				   "%s: weight '%s' is not a number", key, w);
		else if (weight < 0 || weight > 255)
			oq_warning(c->d, at(c, col),
				   "%s: weight %ld is out of range 0..255", key,
				   weight);
	}
	if (count > OQ_VLARB_MAX)
		oq_warning(c->d, at(c, col),
			   "%s: more than 64 entries; OpenSM drops the rest",
			   key);
	free(str);
}

static void verify_sl2vl(const struct ctx *c, unsigned int col,
			 const char *key, const char *val)
{
	char *str = strdup(val), *tok, *save = NULL, *end;
	int count = 0;

	if (!str)
		return;
	for (tok = strtok_r(str, ",\n", &save); tok;
	     tok = strtok_r(NULL, ",\n", &save), count++) {
		long vl = strtol(tok, &end, 0);

		if (*end)
			oq_warning(c->d, at(c, col),
				   "%s: VL '%s' is not a number", key, tok);
		else if (vl < 0 || vl > 15)
			oq_warning(c->d, at(c, col),
				   "%s: VL %ld is out of range 0..15", key, vl);
	}
	if (count != 16)
		oq_warning(c->d, at(c, col),
			   "%s: %d VLs listed, OpenSM expects 16 (one per SL)",
			   key, count);
	free(str);
}

static int set_string(char **slot, const char *val)
{
	char *s = NULL;

	/* osm_subnet.c opts_parse_charp(): "(null)" means unset. */
	if (strcmp(val, "(null)")) {
		s = strdup(val);
		if (!s)
			return -1;
	}
	free(*slot);
	*slot = s;
	return 0;
}

static int set_option(const struct ctx *c, struct qos_opts *o,
		      const char *key, const char *field, const char *val,
		      unsigned int col)
{
	if (!strcmp(field, "max_vls")) {
		unsigned long v;
		char *end;

		errno = 0;
		v = strtoul(val, &end, 0);
		if (!*val || *end || errno || v > UINT_MAX) {
			oq_error(c->d, at(c, col),
				 "%s: expected a number, not '%s'", key, val);
			return -1;
		}
		if (v > 15)
			oq_warning(c->d, at(c, col),
				   "%s=%lu is invalid (1..15); OpenSM uses "
				   "the default",
				   key, v);
		o->max_vls = v > 15 ? 0 : (unsigned int)v;
	} else if (!strcmp(field, "high_limit")) {
		long v = strtol(val, NULL, 0);
		int iv = (int)v;

		if (iv > 255)
			oq_warning(c->d, at(c, col),
				   "%s=%d is invalid (0..255); OpenSM uses "
				   "the default",
				   key, iv);
		o->high_limit = iv < 0 || iv > 255 ? -1 : iv;
	} else if (!strcmp(field, "vlarb_high") ||
		   !strcmp(field, "vlarb_low")) {
		if (set_string(field[6] == 'h' ? &o->vlarb_high
					       : &o->vlarb_low,
			       val))
			return -1;
		if (strcmp(val, "(null)"))
			verify_vlarb(c, col, key, val);
	} else if (!strcmp(field, "sl2vl")) {
		if (set_string(&o->sl2vl, val))
			return -1;
		if (strcmp(val, "(null)"))
			verify_sl2vl(c, col, key, val);
	} else {
		return 1;
	}
	return 0;
}

/* routing_engine: OpenSM splits the list on ", \t\n", sets up each name
 * it knows (no_fallback is a flag, an unknown name is logged and
 * skipped) and routes with the first that works.  The tables follow the
 * first it knows, the one it uses on a fabric that engine can route. */
static void routing_engine(const struct ctx *c, char *val, unsigned int col)
{
	char *save = NULL, *name;
	struct oq_engine e;

	c->engine[0] = '\0';
	for (name = strtok_r(val, ", \t\n", &save); name;
	     name = strtok_r(NULL, ", \t\n", &save)) {
		if (!strcmp(name, "no_fallback") || !strcmp(name, "(null)"))
			continue;
		if (!oq_engine_by_name(&e, name)) {
			snprintf(c->engine, sizeof(e.name), "%s", name);
			return;
		}
		oq_diag_hint(oq_warning(c->d,
					at(c, col + (unsigned int)(name - val)),
					"unknown routing engine '%s'; OpenSM "
					"skips it",
					name),
			     "OpenSM 3.3.23 knows minhop, updn, dnup, file, "
			     "ftree, lash, dor, torus-2QoS, nue, dfsssp and "
			     "sssp (names are case-sensitive)");
	}
}

/* max_op_vls as osm_subnet.c's opts_parse_uint8() takes it: strtoul()
 * base 0, the whole value, at most 255; anything else OpenSM reports and
 * ignores. */
static void max_op_vls(const struct ctx *c, uint8_t *out, const char *val,
		       unsigned int col)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(val, &end, 0);
	if (!*val || *end || v > UINT8_MAX || errno) {
		oq_diag_hint(oq_warning(c->d, at(c, col),
					"max_op_vls '%s' is not a number from "
					"0 to 255; OpenSM ignores it and "
					"keeps VL0-14",
					val),
			     "write 1 (VL0), 2 (VL0-1), 3 (VL0-3), 4 (VL0-7) "
			     "or 5 (VL0-14)");
		return;
	}
	if (!v)
		oq_diag_hint(oq_warning(c->d, at(c, col),
					"max_op_vls 0 leaves every link "
					"without a data VL; osmqos keeps "
					"VL0-14"),
			     "write 1 (VL0) to 5 (VL0-14)");
	*out = (uint8_t)v;
}

struct conf_pass {
	struct ctx *c;
	struct qos_opts *sets;
	uint8_t max_op_vls;
	int errs;
};

static int parse_line(char *line, unsigned int n, void *arg)
{
	struct conf_pass *cp = arg;
	const struct ctx *c = cp->c;
	struct qos_opts *sets = cp->sets;
	char *key, *val;
	int k;

	cp->c->line = n;
	if (!oq_opensm_conf_split(line, &key, &val))
		return 0;
	if (!strcmp(key, "routing_engine")) {
		routing_engine(c, val, (unsigned int)(val - line) + 1);
		return 0;
	}
	if (!strcmp(key, "max_op_vls")) {
		max_op_vls(c, &cp->max_op_vls, val,
			   (unsigned int)(val - line) + 1);
		return 0;
	}
	if (strncmp(key, "qos_", 4) || !strcmp(key, "qos_policy_file"))
		return 0;
	for (k = 0; k < N_SETS; k++) {
		size_t plen = strlen(set_prefix[k]);
		int r;

		if (strncmp(key, set_prefix[k], plen) || key[plen] != '_')
			continue;
		r = set_option(c, &sets[k], key, key + plen + 1, val,
			       (unsigned int)(val - line) + 1);
		if (r < 0)
			cp->errs++;
		if (r <= 0)
			return 0;
	}
	oq_diag_hint(oq_warning(c->d, at(c, (unsigned int)(key - line) + 1),
				"unknown QoS option '%s'", key),
		     "OpenSM knows qos_{,ca_,swe_,sw0_,rtr_}{max_vls,"
		     "high_limit,vlarb_high,vlarb_low,sl2vl}");
	return 0;
}

int oq_templates_parse_opensm_conf(struct oq_templates *t, const char *file,
				   const char *text, size_t len,
				   struct oq_diags *diags)
{
	struct qos_opts sets[N_SETS];
	struct oq_diags local;
	char engine[sizeof(t->routing_engine)] = "";
	struct ctx c = {file, 0, diags, engine};
	struct conf_pass cp = {&c, sets, DEFAULT_MAX_OP_VLS, 0};
	int rc = 0;

	if (!diags) {
		oq_diags_init(&local);
		c.d = &local;
	}
	opts_init(sets);
	if (oq_opensm_conf_lines(text, len, parse_line, &cp))
		rc = -ENOMEM;
	build_all(t, sets);
	memcpy(t->routing_engine, engine, sizeof(engine));
	t->max_op_vls = cp.max_op_vls;
	opts_free(sets);
	if (!diags)
		oq_diags_free(&local);
	return rc ? rc : cp.errs ? -EBADMSG : 0;
}

int oq_templates_load_opensm_conf(struct oq_templates *t, const char *path,
				  struct oq_diags *diags)
{
	size_t len = 0;
	char *buf = oq_file_read(path, OQ_FILE_MAX_BYTES, &len), why[64];
	int r, err = buf ? 0 : errno;

	oq_templates_default(t);
	if (!buf) {
		if (diags)
			oq_diag_hint(
				oq_error(diags, (struct oq_loc){path, 0, 0},
					 "cannot read opensm.conf: %s",
					 oq_file_error(err, OQ_FILE_MAX_BYTES,
						       why, sizeof(why))),
				"give the opensm.conf OpenSM runs with "
				"(opensm -c FILE writes one)");
		return -err;
	}
	r = oq_templates_parse_opensm_conf(t, path, buf, len, diags);
	free(buf);
	return r;
}
