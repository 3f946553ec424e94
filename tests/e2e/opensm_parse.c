// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Test-only OpenSM event plugin (event_plugin_name "oqparse"): feeds policy
 * files, byte for byte as the operator wrote them, to OpenSM's own QoS
 * policy parser and validator (osm_qos_parse_policy_file, exported by the
 * opensm binary) and sets what it did against the core's model of that
 * parser (oq_stock_read, include/osmqos/stock.h) and against osmqos's own
 * reading.  For each file of OQ_PARSE_LIST (one path per line) one line
 * goes to OQ_PARSE_OUT:
 *
 *	begin PATH                     (flushed first: a hang names its file)
 *	result REAL MODEL OSMQOS COPY VERDICT agree|DISAGREE[:why] PATH
 *
 * REAL is what OpenSM did: ok, rejected, aborted (a signal) or timeout
 * (still parsing after OQ_PARSE_TIMEOUT seconds, default 5; a file the
 * model takes is below 2^24 steps of its loops, a second at most, and one
 * it says stalls is above 2^32, minutes).  MODEL is
 * the model's outcome (takes, rejects, aborts, stalls), OSMQOS valid or
 * invalid, COPY what OpenSM did with the copy the plugin hands it when
 * osmqos calls the file valid (ok must; - otherwise), VERDICT what
 * `osmqos check` prints (as-written, differently, taken, rejected, ...).
 * The line says agree when REAL is MODEL, when the policy OpenSM built
 * and the model's reading are the same on this fabric (stock_dump.h: one
 * canonical text each, written to OQ_PARSE_DIR/N.{opensm,model,osmqos}),
 * when a file read "as written" gives osmqos's reading the same text too,
 * and when the copy of a valid file is taken.
 *
 * Each parse runs in a child process forked from the sweeper thread at the
 * first SUBNET UP: the parser's globals (its lexer's line flags and
 * buffer, left behind by a failed parse) start clean for every file, an
 * abort or an endless loop costs only the child, and OpenSM itself never
 * gets the policy (qos is off in the test's opensm.conf).  The child gets
 * a log of its own (OQ_PARSE_DIR/N.log) with a fresh lock.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <opensm/osm_event_plugin.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_version.h>
/* OpenSM's header declares some functions without prototypes. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <opensm/osm_qos_policy.h>
#pragma GCC diagnostic pop

#include <osmqos/file.h>
#include <osmqos/match.h>
#include <osmqos/policy.h>
#include <osmqos/stock.h>

#include "stock_dump.h"

/* What the core knows of the fabric OpenSM runs. */
struct core {
	struct oq_fabric *f;
	struct oq_partitions parts;
	struct oq_stock_env env;
	struct oq_stock_fabric sf;
};

/* ---- OpenSM's result, written by the child ---- */

static bool osm_in_group(const osm_qos_port_group_t *g, osm_physp_t *physp)
{
	uint64_t guid = cl_ntoh64(osm_physp_get_port_guid(physp));
	osm_node_t *n = osm_physp_get_node_ptr(physp);

	if (g->node_types & (((uint8_t)1) << osm_node_get_type(n)))
		return true;
	return cl_qmap_get(&g->port_map, guid) != cl_qmap_end(&g->port_map);
}

/* The end ports in any group of the list (of osm_qos_port_group_t *). */
static void osm_set(FILE *out, osm_subn_t *subn, cl_list_t *groups)
{
	size_t n = cl_qmap_count(&subn->port_guid_tbl), k = 0;
	uint64_t *g = malloc((n + 1) * sizeof(*g));
	cl_map_item_t *it;

	if (!cl_list_count(groups)) {
		fputs("any", out);
		free(g);
		return;
	}
	for (it = cl_qmap_head(&subn->port_guid_tbl);
	     g && it != cl_qmap_end(&subn->port_guid_tbl);
	     it = cl_qmap_next(it)) {
		osm_port_t *port = (osm_port_t *)it;
		cl_list_iterator_t li;

		for (li = cl_list_head(groups); li != cl_list_end(groups);
		     li = cl_list_next(li))
			if (osm_in_group(cl_list_obj(li), port->p_physp)) {
				g[k++] = cl_ntoh64(port->guid);
				break;
			}
	}
	sd_guids(out, g, k);
	free(g);
}

static void osm_ranges(FILE *out, uint64_t **arr, unsigned int len)
{
	struct oq_ranges r = {0};
	unsigned int i;

	for (i = 0; i < len; i++)
		oq_ranges_add(&r, arr[i][0], arr[i][1]);
	sd_ranges(out, &r);
	oq_ranges_free(&r);
}

static void osm_level(FILE *out, const osm_qos_level_t *l)
{
	struct oq_ranges bits = {0}, pkeys = {0};
	unsigned int i;

	for (i = 0; i < l->path_bits_range_len; i++)
		oq_ranges_add(&bits, l->path_bits_range_arr[i][0],
			      l->path_bits_range_arr[i][1]);
	for (i = 0; i < l->pkey_range_len; i++)
		oq_ranges_add(&pkeys, l->pkey_range_arr[i][0],
			      l->pkey_range_arr[i][1]);
	sd_level(out, l->sl, l->mtu_limit_set ? l->mtu_limit : -1,
		 l->rate_limit_set ? l->rate_limit : -1,
		 l->pkt_life_set ? l->pkt_life : -1, &bits, &pkeys);
	oq_ranges_free(&bits);
	oq_ranges_free(&pkeys);
}

/* A scope's group names, each resolved as OpenSM resolves rule names. */
static void osm_scope_sets(FILE *out, osm_subn_t *subn, cl_list_t *names)
{
	size_t n = cl_list_count(names), i = 0;
	char **sets = calloc(n + 1, sizeof(*sets));
	cl_list_iterator_t li;

	for (li = cl_list_head(names); sets && li != cl_list_end(names);
	     li = cl_list_next(li), i++) {
		const char *name = cl_list_obj(li);
		osm_qos_policy_t *pol = subn->p_qos_policy;
		osm_qos_port_group_t *g = NULL;
		cl_list_iterator_t gi;
		size_t len = 0;
		FILE *m = open_memstream(&sets[i], &len);

		for (gi = cl_list_head(&pol->port_groups);
		     gi != cl_list_end(&pol->port_groups);
		     gi = cl_list_next(gi)) {
			osm_qos_port_group_t *x = cl_list_obj(gi);

			if (!strcasecmp(name, x->name)) {
				g = x;
				break;
			}
		}
		if (!g) {
			fprintf(m, "?%s", name);
		} else {
			cl_list_t one;

			cl_list_construct(&one);
			cl_list_init(&one, 1);
			cl_list_insert_tail(&one, g);
			osm_set(m, subn, &one);
			cl_list_destroy(&one);
		}
		fclose(m);
	}
	if (sets)
		sd_sets(out, sets, n);
	for (i = 0; sets && i < n; i++)
		free(sets[i]);
	free(sets);
}

static void osm_pairs(FILE *out, cl_list_t *l)
{
	cl_list_iterator_t li;
	bool first = true;

	for (li = cl_list_head(l); li != cl_list_end(l);
	     li = cl_list_next(li)) {
		uint64_t *pair = cl_list_obj(li);

		fprintf(out, "%s%llu:%llu", first ? "" : ",",
			(unsigned long long)pair[0],
			(unsigned long long)pair[1]);
		first = false;
	}
}

static void osm_bits(FILE *out, const boolean_t *b)
{
	uint8_t bits[16] = {0};
	unsigned int i;

	for (i = 0; i < OSM_QOS_POLICY_MAX_PORTS_ON_SWITCH; i++)
		if (b[i])
			bits[i / 8] |= (uint8_t)(1u << (i % 8));
	sd_bits128(out, bits);
}

static void osm_dump(FILE *out, osm_subn_t *subn)
{
	osm_qos_policy_t *pol = subn->p_qos_policy;
	cl_list_iterator_t li;
	unsigned int i = 0;

	fputs("default ", out);
	osm_level(out, pol->p_default_qos_level);
	fputc('\n', out);
	for (li = cl_list_head(&pol->qos_match_rules);
	     li != cl_list_end(&pol->qos_match_rules);
	     li = cl_list_next(li), i++) {
		osm_qos_match_rule_t *r = cl_list_obj(li);

		fprintf(out, "rule %u src ", i);
		osm_set(out, subn, &r->source_group_list);
		fputs(" dst ", out);
		osm_set(out, subn, &r->destination_group_list);
		fputs(" sid ", out);
		osm_ranges(out, r->service_id_range_arr,
			   r->service_id_range_len);
		fputs(" class ", out);
		osm_ranges(out, r->qos_class_range_arr, r->qos_class_range_len);
		fputs(" pkey ", out);
		osm_ranges(out, r->pkey_range_arr, r->pkey_range_len);
		fputs(" level ", out);
		osm_level(out, r->p_qos_level);
		fputc('\n', out);
	}
	i = 0;
	for (li = cl_list_head(&pol->vlarb_tables);
	     li != cl_list_end(&pol->vlarb_tables); li = cl_list_next(li)) {
		osm_qos_vlarb_scope_t *v = cl_list_obj(li);

		fprintf(out, "vlarb %u group ", i++);
		osm_scope_sets(out, subn, &v->group_list);
		fputs(" across ", out);
		osm_scope_sets(out, subn, &v->across_list);
		fputs(" high ", out);
		osm_pairs(out, &v->vlarb_high_list);
		fputs(" low ", out);
		osm_pairs(out, &v->vlarb_low_list);
		if (v->vl_high_limit_set)
			fprintf(out, " limit %u\n", v->vl_high_limit);
		else
			fputs(" limit -1\n", out);
	}
	i = 0;
	for (li = cl_list_head(&pol->sl2vl_tables);
	     li != cl_list_end(&pol->sl2vl_tables); li = cl_list_next(li)) {
		osm_qos_sl2vl_scope_t *v = cl_list_obj(li);
		unsigned int j;

		fprintf(out, "sl2vl %u group ", i++);
		osm_scope_sets(out, subn, &v->group_list);
		fputs(" from-groups ", out);
		osm_scope_sets(out, subn, &v->across_from_list);
		fputs(" to-groups ", out);
		osm_scope_sets(out, subn, &v->across_to_list);
		fputs(" from ", out);
		osm_bits(out, v->from);
		fputs(" to ", out);
		osm_bits(out, v->to);
		fputs(" table ", out);
		for (j = 0; j < 16; j++)
			fprintf(out, "%s%u", j ? "," : "", v->sl2vl_table[j]);
		fputc('\n', out);
	}
}

/* In the child: parse, then write "ok" or "rejected" and, when ok, the
 * dump.  The log gets a file and a lock of its own: another thread may
 * have held the parent's at fork time. */
static void child(osm_opensm_t *osm, char *path, const char *res,
		  const char *log)
{
	FILE *out, *lf = fopen(log, "w");
	int r;

	if (lf) {
		cl_spinlock_construct(&osm->log.lock);
		cl_spinlock_init(&osm->log.lock);
		osm->log.out_port = lf;
		stderr = lf; /* yyerror() writes there too */
	}
	osm->subn.opt.qos_policy_file = path;
	r = osm_qos_parse_policy_file(&osm->subn);
	out = fopen(res, "w");
	if (!out)
		_exit(3);
	fprintf(out, "%s\n", r ? "rejected" : "ok");
	if (!r)
		osm_dump(out, &osm->subn);
	if (lf)
		fflush(lf);
	_exit(fclose(out) ? 3 : 0);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What OpenSM's parser does with path: "ok", "rejected", "aborted",
 * "timeout" or "error"; its dump in *dump when ok. */
static const char *real_parse(osm_opensm_t *osm, const char *path,
			      const char *res, const char *log, double limit,
			      char **dump)
{
	double start = now();
	size_t len = 0;
	pid_t pid;
	int st;

	*dump = NULL;
	unlink(res);
	pid = fork();
	if (pid < 0)
		return "error";
	if (!pid)
		child(osm, (char *)path, res, log);
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return "error";
		if (now() - start > limit) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return "timeout";
		}
		usleep(2000);
	}
	if (WIFSIGNALED(st))
		return "aborted";
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return "error";
	*dump = oq_file_read(res, 1u << 28, &len);
	if (!*dump)
		return "error";
	if (!strncmp(*dump, "ok\n", 3)) {
		memmove(*dump, *dump + 3, len - 2);
		return "ok";
	}
	if (!strcmp(*dump, "rejected\n")) {
		free(*dump);
		*dump = NULL;
		return "rejected";
	}
	free(*dump);
	*dump = NULL;
	return "error";
}

static int write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	if (text && fwrite(text, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

static const char *const model_word[] = {
	[OQ_STOCK_TAKES] = "takes",
	[OQ_STOCK_REJECTS] = "rejects",
	[OQ_STOCK_ABORTS] = "aborts",
	[OQ_STOCK_STALLS] = "stalls",
};
static const char *const real_word[] = {
	[OQ_STOCK_TAKES] = "ok",
	[OQ_STOCK_REJECTS] = "rejected",
	[OQ_STOCK_ABORTS] = "aborted",
	[OQ_STOCK_STALLS] = "timeout",
};
static const char *const verdict_word[] = {
	[OQ_STOCK_AS_WRITTEN] = "as-written",
	[OQ_STOCK_DIFFERENTLY] = "differently",
	[OQ_STOCK_TAKEN] = "taken",
	[OQ_STOCK_REJECTED] = "rejected",
	[OQ_STOCK_ABORTED] = "aborted",
	[OQ_STOCK_STALLED] = "stalled",
};

/* A dump of one of the core's readings into memory. */
static char *dump_core(const struct core *c, const struct oq_stock *s,
		       const struct oq_policy *p, const struct oq_binding *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	if (s)
		sd_stock(m, s, c->f, &c->parts);
	else
		sd_osmqos(m, p, b, c->f);
	fclose(m);
	return buf;
}

struct one {
	unsigned int n;
	const char *dir;
	double limit;
};

static void check_one(osm_opensm_t *osm, const struct core *c, FILE *out,
		      const struct one *o, const char *path)
{
	char res[4096], log[4096], name[4096];
	char *text, *real_dump = NULL, *model_dump = NULL, *own_dump = NULL;
	const char *real, *copy = "-", *why = NULL;
	struct oq_policy *p = NULL;
	struct oq_binding *b = NULL;
	struct oq_stock *s = NULL;
	struct oq_diags d;
	size_t len = 0;
	bool valid;
	int verdict = -1;

	fprintf(out, "begin %s\n", path);
	fflush(out);
	text = oq_file_read(path, OQ_POLICY_MAX_BYTES, &len);
	if (!text) {
		fprintf(out,
			"result unreadable - - - - DISAGREE:unreadable %s\n",
			path);
		return;
	}
	snprintf(res, sizeof(res), "%s/%u.res", o->dir, o->n);
	snprintf(log, sizeof(log), "%s/%u.log", o->dir, o->n);
	real = real_parse(osm, path, res, log, o->limit, &real_dump);

	oq_diags_init(&d);
	s = oq_stock_read(path, text, len, &c->env);
	p = oq_policy_parse(path, text, len, &d);
	if (p && !oq_diags_has_errors(&d))
		oq_policy_validate(p, &d);
	valid = p && !oq_diags_has_errors(&d);
	if (valid) {
		b = oq_bind(p, c->f, &c->parts, &d);
		valid = b && !oq_diags_has_errors(&d);
	}
	if (s)
		verdict = oq_stock_verdict(s, valid ? p : NULL, &d);
	if (valid) {
		/* The copy the plugin hands OpenSM must be taken, and read
		 * as osmqos reads the file. */
		enum oq_stock_copy_form form;
		size_t clen = 0;
		char finding[384], *cdump = NULL;
		char *cp = oq_stock_copy(p, &clen, &form, finding,
					 sizeof(finding));

		snprintf(name, sizeof(name), "%s/%u.copy", o->dir, o->n);
		if (!cp)
			copy = *finding ? "none" : "unwritable";
		else if (write_file(name, cp, clen))
			copy = "unwritable";
		else
			copy = real_parse(osm, name, res, log, o->limit,
					  &cdump);
		if (cdump) {
			own_dump = dump_core(c, NULL, p, b);
			if (!own_dump || strcmp(own_dump, cdump))
				copy = "misread";
		}
		if (cp && form == OQ_COPY_REWRITTEN && !strcmp(copy, "ok"))
			copy = "ok-rewritten";
		free(cp);
		free(cdump);
	}

	if (!s || verdict < 0)
		why = "model out of memory";
	else if (strcmp(real, real_word[s->outcome]))
		why = "outcome";
	else if (s->outcome == OQ_STOCK_TAKES && s->walked >= (1ULL << 24))
		/* Too slow to tell from a stall by a time limit. */
		why = "grey zone";
	if (!why && real_dump) {
		model_dump = dump_core(c, s, NULL, NULL);
		if (!model_dump || strcmp(model_dump, real_dump))
			why = "model reading";
	}
	if (!why && verdict == OQ_STOCK_AS_WRITTEN) {
		if (!own_dump)
			own_dump = dump_core(c, NULL, p, b);
		if (!own_dump || strcmp(own_dump, real_dump))
			why = "as-written reading";
	}
	if (!why && valid && strcmp(copy, "ok") && strcmp(copy, "ok-rewritten"))
		why = "copy";
	if (why || real_dump) {
		snprintf(name, sizeof(name), "%s/%u.opensm", o->dir, o->n);
		write_file(name, real_dump, real_dump ? strlen(real_dump) : 0);
		if (!model_dump && s && s->outcome == OQ_STOCK_TAKES)
			model_dump = dump_core(c, s, NULL, NULL);
		snprintf(name, sizeof(name), "%s/%u.model", o->dir, o->n);
		write_file(name, model_dump,
			   model_dump ? strlen(model_dump) : 0);
		if (!own_dump && valid)
			own_dump = dump_core(c, NULL, p, b);
		snprintf(name, sizeof(name), "%s/%u.osmqos", o->dir, o->n);
		write_file(name, own_dump, own_dump ? strlen(own_dump) : 0);
	}
	fprintf(out, "result %s %s %s %s %s %s%s %s\n", real,
		s ? model_word[s->outcome] : "-", valid ? "valid" : "invalid",
		copy, verdict >= 0 ? verdict_word[verdict] : "-",
		why ? "DISAGREE:" : "agree", why ? why : "", path);
	if (s && s->outcome != OQ_STOCK_TAKES)
		fprintf(out, "why %u %s:%u:%u %s\n", o->n, path, s->where.line,
			s->where.col, s->why);
	fflush(out);
	oq_diags_free(&d);
	oq_binding_free(b);
	oq_policy_free(p);
	oq_stock_free(s);
	free(text);
	free(real_dump);
	free(model_dump);
	free(own_dump);
}

static int core_load(osm_opensm_t *osm, struct core *c)
{
	const char *net = getenv("OQ_PARSE_FABRIC");
	const char *parts = getenv("OQ_PARSE_PARTITIONS");
	struct oq_diags d;
	int rc = -1;

	memset(c, 0, sizeof(*c));
	oq_diags_init(&d);
	if (!net || !parts)
		goto out;
	c->f = oq_topology_load(net, &d);
	if (!c->f || oq_diags_has_errors(&d))
		goto out;
	c->f->sm_port_guid = cl_ntoh64(osm->subn.sm_port_guid);
	if (oq_partitions_load(&c->parts, parts, c->f, &d) ||
	    oq_diags_has_errors(&d))
		goto out;
	rc = oq_stock_env_fabric(&c->env, &c->sf, c->f, &c->parts);
out:
	oq_diags_print(&d, stderr);
	oq_diags_free(&d);
	return rc;
}

static void core_free(struct core *c)
{
	oq_stock_fabric_free(&c->sf);
	oq_partitions_free(&c->parts);
	oq_fabric_free(c->f);
}

/* create() must return non-NULL for OpenSM to keep the plugin. */
static int loaded;

static void run(osm_opensm_t *osm)
{
	const char *list = getenv("OQ_PARSE_LIST");
	const char *outp = getenv("OQ_PARSE_OUT");
	const char *dir = getenv("OQ_PARSE_DIR");
	const char *lim = getenv("OQ_PARSE_TIMEOUT");
	char *line = NULL;
	struct one o = {0, dir, lim ? atof(lim) : 5.0};
	struct core c;
	size_t cap = 0;
	ssize_t n;
	FILE *in, *out;

	if (!list || !outp || !dir)
		return;
	out = fopen(outp, "w");
	if (!out)
		return;
	in = fopen(list, "r");
	if (!in || core_load(osm, &c)) {
		fprintf(out, "setup failed: OQ_PARSE_LIST, OQ_PARSE_FABRIC, "
			     "OQ_PARSE_PARTITIONS\n");
		goto done;
	}
	while ((n = getline(&line, &cap, in)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (*line) {
			check_one(osm, &c, out, &o, line);
			o.n++;
		}
	}
	fprintf(out, "done\n");
	core_free(&c);
done:
	free(line);
	if (in)
		fclose(in);
	fclose(out);
}

static osm_opensm_t *the_osm;

static void *oqparse_create(osm_opensm_t *osm)
{
	the_osm = osm;
	return &loaded;
}

static void oqparse_delete(void *ctx)
{
	(void)ctx;
}

/* At the first SUBNET UP: the partition manager has run, so OpenSM's
 * parser finds the partitions pkey groups and ipoib lines name. */
static void oqparse_report(void *ctx, osm_epi_event_id_t id, void *data)
{
	static bool done;

	(void)ctx;
	(void)data;
	if (id != OSM_EVENT_ID_SUBNET_UP || done)
		return;
	done = true;
	run(the_osm);
}

osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = oqparse_create,
	.delete = oqparse_delete,
	.report = oqparse_report,
};
