// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The CLI's option table: the shared options' one definition and the
 * parser every subcommand uses (cli_opts.h; --help: cli_usage.c).
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <osmqos/file.h>

#include "cli.h"
#include "output_file.h"
#include "cli_opts.h"
#include "cli_opts_int.h"
#include "inputs.h"

#define CO(field) offsetof(struct oq_cli_common, field)

static const char *const profile_words[] = {"iba", "cx2-2k", NULL};

/* --node-name-map's help; its default depends on --opensm-conf. */
#define NODE_NAME_MAP_HELP                                                     \
	"name nodes as OpenSM does with this node-name map (GUID \"name\" "    \
	"lines), for the policy's port-names and PORT arguments"

/* Indexed by enum oq_common_opt. */
static const struct oq_opt common_opts[OQ_CO_COUNT] = {
	[OQ_CO_POLICY] = OQ_OPT("policy", 'p', OQ_OPT_INPUT, "FILE",
				"the QoS policy (qos-policy.conf)", CO(policy)),
	[OQ_CO_FABRIC] =
		OQ_OPT("fabric", 'f', OQ_OPT_INPUT, "TOPO",
		       "the fabric: ibnetdiscover output or ibsim net file",
		       CO(fabric)),
	[OQ_CO_PARTITIONS] =
		OQ_OPT("partitions", 'k', OQ_OPT_INPUT, "FILE",
		       "OpenSM's partitions.conf, for 'partition:' and pkey "
		       "groups (default: the one --opensm-conf names, as the "
		       "SM reads it, or " OQ_OSM_PARTITIONS_FILE " if it names "
		       "none; drift and plan without --opensm-conf take the "
		       "one opensm runs with, as the plugin publishes it; "
		       "without one, the Default partition only, every end "
		       "port a full member)",
		       CO(partitions)),
	[OQ_CO_OPENSM_CONF] =
		OQ_OPT("opensm-conf", 'c', OQ_OPT_INPUT, "FILE",
		       "an opensm.conf: its qos_* templates and routing_engine "
		       "(default: OpenSM's compiled-in values)",
		       CO(opensm_conf)),
	[OQ_CO_PORT] =
		OQ_OPT("port", 0, OQ_OPT_PORT, "PORT",
		       "only this port: a GUID (0x...), lid:N or "
		       "\"NodeDescription/P<n>\"; a switch named by its GUID "
		       "or LID means all its ports, /P<n> one of them",
		       CO(port)),
	[OQ_CO_JSON] = OQ_OPT("json", 'j', OQ_OPT_FLAG, NULL,
			      "one JSON object instead of text (docs/json.md)",
			      CO(json)),
	[OQ_CO_SID] =
		OQ_OPT("sid", 0, OQ_OPT_NUM, "N", "the ServiceID", CO(sid),
		       .max = UINT64_MAX, .alias = "service-id,service_id"),
	[OQ_CO_QOS_CLASS] = OQ_OPT("qos-class", 'Q', OQ_OPT_NUM, "N",
				   "the QoS class (0-4095)", CO(qos_class),
				   .max = 0xfff, .alias = "qos_class"),
	[OQ_CO_PKEY] = OQ_OPT("pkey", 0, OQ_OPT_NUM, "N",
			      "the P_Key (membership bit ignored)", CO(pkey),
			      .max = 0xffff),
	[OQ_CO_SL] = OQ_OPT("sl", 0, OQ_OPT_NUM, "N",
			    "the service level (0-15)", CO(sl), .max = 15),
	[OQ_CO_MTU_BYTES] =
		OQ_OPT("mtu", 'M', OQ_OPT_NUM, "BYTES", "packet size in bytes",
		       CO(mtu), .min = 1, .max = OQ_ARB_MAX_PKT),
	[OQ_CO_PROFILE] =
		OQ_OPT("profile", 0, OQ_OPT_WORD, "iba|cx2-2k",
		       "the arbiter: iba as the IBA specifies it (default), or "
		       "cx2-2k (ConnectX-2, MTU 2048, one high and one low VL; "
		       "reconstructed, see docs/model.md)",
		       CO(profile), .words = profile_words),
	[OQ_CO_SVG] = OQ_OPT("svg", 0, OQ_OPT_OUTPUT, "FILE",
			     "also draw the result as SVG into FILE (-: "
			     "standard output, the text then on standard "
			     "error)",
			     CO(svg)),
	[OQ_CO_CA] =
		OQ_OPT("ca", 'C', OQ_OPT_TEXT, "NAME",
		       "local CA (default: the first active port)", CO(ca)),
	/* No --port alias: --port is a port of the fabric (OQ_CO_PORT). */
	[OQ_CO_CA_PORT] = OQ_OPT("ca-port", 'P', OQ_OPT_NUM, "N",
				 "local port number of the CA", CO(ca_port),
				 .max = OQ_CA_PORT_MAX),
	[OQ_CO_TIMEOUT] =
		OQ_OPT("timeout", 't', OQ_OPT_NUM, "MS",
		       "how long to wait for each answer, in ms (default 1000)",
		       CO(timeout), .min = 1, .max = OQ_TIMEOUT_MS_MAX),
	[OQ_CO_NODE_NAME_MAP] =
		OQ_OPT("node-name-map", 0, OQ_OPT_INPUT, "FILE",
		       NODE_NAME_MAP_HELP " (default: the map "
					  "node_name_map_name in "
					  "--opensm-conf names; drift and plan "
					  "without --opensm-conf: in the one "
					  "opensm runs with)",
		       CO(node_name_map)),
	[OQ_CO_PUBLISH_DIR] =
		OQ_OPT("publish-dir", 'd', OQ_OPT_TEXT, "DIR",
		       "where the plugin publishes (its publish_dir=; default: "
		       "the publish_dir= of --opensm-conf where the command "
		       "takes one, else OpenSM's cache directory, "
		       "$OSM_CACHE_DIR or /var/cache/opensm)",
		       CO(publish_dir)),
	[OQ_CO_ALL] = OQ_OPT("all", 0, OQ_OPT_FLAG, NULL,
			     "every item instead of a summary", CO(all)),
};

/* Where the command takes no --opensm-conf, there is no default map. */
static const char node_name_map_no_conf[] = NODE_NAME_MAP_HELP
	" (default: none, nodes keep their NodeDescriptions)";

static bool has_common(const struct oq_cmd_spec *s, enum oq_common_opt id)
{
	size_t k;

	for (k = 0; !oq_opt_is_end(&s->opts[k]); k++)
		if (s->opts[k].common == id)
			return true;
	return false;
}

const struct oq_opt *oq_cli_common_opt(enum oq_common_opt id)
{
	if (id <= OQ_CO_NONE || id >= OQ_CO_COUNT)
		return NULL;
	return &common_opts[id];
}

struct oq_opt *oq_cli_opts_resolve(const struct oq_cmd_spec *s, size_t *n)
{
	struct oq_opt *v;
	size_t i, k;

	for (k = 0; !oq_opt_is_end(&s->opts[k]); k++)
		;
	v = calloc(k + 1, sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < k; i++) {
		const struct oq_opt *e = &s->opts[i];

		v[i] = *e;
		if (!e->common)
			continue;
		v[i] = common_opts[e->common];
		v[i].common = e->common;
		v[i].flags |= e->flags;
		if (e->help)
			v[i].help = e->help;
		else if (e->common == OQ_CO_NODE_NAME_MAP &&
			 !has_common(s, OQ_CO_OPENSM_CONF))
			v[i].help = node_name_map_no_conf;
	}
	*n = k;
	return v;
}

/* Quoted text longer than this in an error is an argument, not prose:
 * cut to its first CLIP_KEEP bytes (a 1 MB argument, a one-line error). */
#define CLIP_OVER 200
#define CLIP_KEEP 60

static void put_clipped(const char *msg, FILE *out)
{
	const char *p = msg, *q, *end;

	while ((q = strchr(p, '\'')) && (end = strchr(q + 1, '\''))) {
		if (end - q - 1 <= CLIP_OVER) {
			fwrite(p, 1, (size_t)(end - p), out);
			p = end;
			continue;
		}
		fwrite(p, 1, (size_t)(q + 1 - p) + CLIP_KEEP, out);
		fputs("...", out);
		p = end;
	}
	fputs(p, out);
}

int oq_usage_error(const char *cmd, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "osmqos %s: ", cmd);
	put_clipped(n >= 0 ? msg : fmt, stderr);
	fprintf(stderr, "\nTry 'osmqos %s --help' for the options.\n", cmd);
	if (n >= 0)
		free(msg);
	return OQ_EXIT_USAGE;
}

/* "010" is 8 to strtoull and in the policy language (OpenSM's octal) but
 * 10 to most readers: refused, so neither reading is taken silently. */
static bool leading_zero(const char *s)
{
	return s[0] == '0' && isdigit((unsigned char)s[1]);
}

int oq_parse_u64(const char *s, unsigned long long *out)
{
	char *end;

	if (!s || !isdigit((unsigned char)*s) || leading_zero(s))
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return (errno || *end) ? -1 : 0;
}

/* ---- lists of numbers -------------------------------------------------- */

/* A number at *p: decimal or 0x hex, no leading 0 (oq_parse_u64). */
static bool list_number(const char **p, unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char)**p) || leading_zero(*p))
		return false;
	errno = 0;
	*v = strtoull(*p, &end, 0);
	if (errno)
		return false;
	*p = end;
	return true;
}

static void skip_blank(const char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
}

static int list_item(const char *item, size_t len, unsigned int max,
		     uint16_t *bits)
{
	char buf[64];
	const char *p = buf;
	unsigned long long lo, hi, v;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, item, len);
	buf[len] = '\0';
	skip_blank(&p);
	if (!list_number(&p, &lo))
		return -1;
	hi = lo;
	skip_blank(&p);
	if (*p == '-') {
		p++;
		skip_blank(&p);
		if (!list_number(&p, &hi))
			return -1;
		skip_blank(&p);
	}
	if (*p || lo > max || hi > max)
		return -1;
	if (lo > hi) {
		v = lo;
		lo = hi;
		hi = v;
	}
	for (v = lo; v <= hi; v++)
		*bits |= (uint16_t)(1u << v);
	return 0;
}

int oq_cli_parse_list(const char *s, unsigned int max, uint16_t *bits,
		      char *bad, size_t badlen)
{
	const char *p = s;
	uint16_t m = 0;

	if (max > 15)
		max = 15;
	for (;;) {
		size_t len = strcspn(p, ",");

		if (list_item(p, len, max, &m)) {
			snprintf(bad, badlen, "%.*s", (int)len, p);
			return -1;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	*bits = m;
	return 0;
}

int oq_cli_local_port_opts(const struct oq_cli_common *c, char *buf, size_t len)
{
	const char *given[3];
	int n = 0, i;
	size_t at = 0;

	if (c->ca)
		given[n++] = "-C/--ca";
	if (c->ca_port.given)
		given[n++] = "-P/--ca-port";
	if (c->timeout.given)
		given[n++] = "-t/--timeout";
	if (len)
		*buf = '\0';
	for (i = 0; i < n && at < len; i++) {
		const char *sep = !i ? "" : i == n - 1 ? " and " : ", ";
		int k = snprintf(buf + at, len - at, "%s%s", sep, given[i]);

		if (k < 0)
			break;
		at += (size_t)k;
	}
	return n;
}

/* ---- the parser --------------------------------------------------------- */

struct parser {
	const struct oq_cmd_spec *s;
	struct oq_opt *v; /* resolved entries, headings included */
	size_t n;
	unsigned int *count;
	const char **as; /* how each option was first given */
	struct option *lo;
	char **names; /* alias names, owned */
	size_t n_names;
	int argc;
	char **argv;
	void *opts;
};

#define LONG_VAL 1000

static void parser_free(struct parser *p)
{
	size_t i;

	for (i = 0; p->as && i < p->n; i++)
		free((char *)p->as[i]);
	for (i = 0; i < p->n_names; i++)
		free(p->names[i]);
	free(p->names);
	free(p->lo);
	free(p->as);
	free(p->count);
	free(p->v);
}

/* getopt_long's tables: every name and alias, then help and version. */
static int parser_init(struct parser *p, char *shorts, size_t shorts_len)
{
	size_t i, k = 0, sl = 0, n_alias = 0;
	const char *a;

	p->v = oq_cli_opts_resolve(p->s, &p->n);
	if (!p->v)
		return -1;
	for (i = 0; i < p->n; i++) {
		a = p->v[i].alias;
		if (a && *a)
			n_alias++;
		for (; a && *a; a++)
			n_alias += *a == ',';
	}
	p->count = calloc(p->n + 1, sizeof(*p->count));
	p->as = calloc(p->n + 1, sizeof(*p->as));
	p->lo = calloc(p->n + n_alias + 3, sizeof(*p->lo));
	p->names = calloc(n_alias + 1, sizeof(*p->names));
	if (!p->count || !p->as || !p->lo || !p->names)
		return -1;
	shorts[sl++] = ':';
	for (i = 0; i < p->n; i++) {
		const struct oq_opt *o = &p->v[i];
		int has = oq_opt_takes_arg(o) ? required_argument : no_argument;

		if (!o->name)
			continue;
		p->lo[k++] =
			(struct option){o->name, has, NULL, LONG_VAL + (int)i};
		for (a = o->alias; a && *a;) {
			size_t len = strcspn(a, ",");
			char *name = strndup(a, len);

			if (!name)
				return -1;
			p->names[p->n_names++] = name;
			p->lo[k++] = (struct option){name, has, NULL,
						     LONG_VAL + (int)i};
			a += len + (a[len] == ',');
		}
		if (o->letter && sl + 3 < shorts_len) {
			shorts[sl++] = (char)o->letter;
			if (oq_opt_takes_arg(o))
				shorts[sl++] = ':';
		}
	}
	p->lo[k++] = (struct option){"help", no_argument, NULL, 'h'};
	p->lo[k++] = (struct option){"version", no_argument, NULL, 'V'};
	if (sl + 3 > shorts_len)
		return -1;
	memcpy(shorts + sl, "hV", 3);
	return 0;
}

static int by_letter(const struct parser *p, int c)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (p->v[i].name && p->v[i].letter == c)
			return (int)i;
	return -1;
}

/* The usage error for what getopt_long returned as c ('?' or ':'). */
static int getopt_error(const struct parser *p, int c)
{
	const char *cmd = p->s->name;
	const char *arg =
		optind > 0 && optind <= p->argc ? p->argv[optind - 1] : "?";
	char list[256] = "";
	size_t i, len, matches = 0;

	if (c == ':')
		return oq_usage_error(cmd, "option '%s' needs an argument",
				      arg);
	if (!strncmp(arg, "--", 2) &&
	    (optopt >= LONG_VAL || optopt == 'h' || optopt == 'V'))
		return oq_usage_error(cmd, "option '%.*s' takes no argument",
				      (int)strcspn(arg, "="), arg);
	if (strncmp(arg, "--", 2) || optopt)
		return oq_usage_error(cmd, "unknown option '-%c'",
				      optopt ? optopt : '?');
	/* A prefix of several long names: say which. */
	len = strcspn(arg + 2, "=");
	for (i = 0; p->lo[i].name; i++) {
		if (strncmp(p->lo[i].name, arg + 2, len))
			continue;
		matches++;
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s--%s", matches > 1 ? ", " : "", p->lo[i].name);
	}
	if (matches > 1)
		return oq_usage_error(cmd,
				      "option '%.*s' is ambiguous: %s; give "
				      "more of the name",
				      (int)len + 2, arg, list);
	return oq_usage_error(cmd, "unknown option '%.*s'", (int)len + 2, arg);
}

static int store_num(const struct parser *p, const struct oq_opt *o,
		     const char *as, const char *arg, void *field)
{
	struct oq_num *n = field;
	unsigned long long v;

	if (oq_parse_u64(arg, &v) || v < o->min || v > o->max)
		return oq_usage_error(p->s->name,
				      "%s '%s' is not a number in %llu..%llu "
				      "(decimal or 0x hex, no leading 0)",
				      as, arg, o->min, o->max);
	n->v = v;
	n->given = true;
	return 0;
}

static int store_list(const struct parser *p, const struct oq_opt *o,
		      const char *as, const char *arg, void *field)
{
	struct oq_mask *m = field;
	bool sls = o->kind == OQ_OPT_SLS;
	char bad[64];

	if (oq_cli_parse_list(arg, sls ? 15 : 14, &m->bits, bad, sizeof(bad))) {
		if (!*bad)
			return oq_usage_error(p->s->name,
					      "%s '%s' has an empty item; give "
					      "%s and ranges such as %s",
					      as, arg, sls ? "SLs" : "VLs",
					      sls ? "0-3,7" : "0-3,7");
		return oq_usage_error(p->s->name,
				      "%s '%s': '%s' is not %s or a range of "
				      "them; give %s and ranges such as 0-3,7",
				      as, arg, bad,
				      sls ? "an SL (0-15)" : "a data VL (0-14)",
				      sls ? "SLs" : "VLs");
	}
	m->given = true;
	return 0;
}

static int store_word(const struct parser *p, const struct oq_opt *o,
		      const char *as, const char *arg, int *field)
{
	char list[128] = "";
	size_t i;

	for (i = 0; o->words[i]; i++)
		if (!strcmp(arg, o->words[i])) {
			*field = (int)i;
			return 0;
		}
	for (i = 0; o->words[i]; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", i ? (o->words[i + 1] ? ", " : " or ") : "",
			 o->words[i]);
	return oq_usage_error(p->s->name, "%s: unknown '%s' (use %s)", as, arg,
			      list);
}

/* One occurrence of option i, given as `as`, into the options struct. */
static int store(struct parser *p, size_t i, const char *as, char *arg)
{
	const struct oq_opt *o = &p->v[i];
	void *field = (char *)p->opts + o->off;
	const char **pair = field;

	switch (o->kind) {
	case OQ_OPT_FLAG:
		*(bool *)field = true;
		return 0;
	case OQ_OPT_INPUT:
	case OQ_OPT_OUTPUT:
	case OQ_OPT_PORT:
		if (!*arg)
			return oq_usage_error(p->s->name,
					      "%s needs %s, not an empty "
					      "argument",
					      as,
					      o->kind == OQ_OPT_PORT
						      ? "a port name"
						      : "a file name");
		/* fall through */
	case OQ_OPT_TEXT:
		*(const char **)field = arg;
		return 0;
	case OQ_OPT_PAIR:
		if (optind >= p->argc || p->argv[optind][0] == '-')
			return oq_usage_error(p->s->name,
					      "%s needs two arguments: %s %s",
					      as, as, oq_cli_opt_arg_text(o));
		pair[0] = arg;
		pair[1] = p->argv[optind++];
		return 0;
	case OQ_OPT_NUM:
		return store_num(p, o, as, arg, field);
	case OQ_OPT_SLS:
	case OQ_OPT_VLS:
		return store_list(p, o, as, arg, field);
	case OQ_OPT_WORD:
		return store_word(p, o, as, arg, field);
	case OQ_OPT_CUSTOM:
		return o->parse(field, arg, o);
	}
	return OQ_EXIT_USAGE;
}

static const char *spelled(const struct parser *p, int c, int li, char *buf,
			   size_t len)
{
	if (c >= LONG_VAL && li >= 0)
		snprintf(buf, len, "--%s", p->lo[li].name);
	else
		snprintf(buf, len, "-%c", c);
	return buf;
}

/* The option as first given, kept for "given twice" messages. */
static int note(struct parser *p, size_t i, const char *as)
{
	const struct oq_opt *o = &p->v[i];

	if (p->count[i]++ == 0) {
		p->as[i] = strdup(as);
		return p->as[i] ? 0
				: oq_usage_error(p->s->name, "out of memory");
	}
	if (o->kind == OQ_OPT_FLAG || (o->flags & OQ_OPT_REPEATABLE))
		return 0;
	if (strcmp(p->as[i], as))
		return oq_usage_error(p->s->name,
				      "%s given twice (also as %s); give it "
				      "once",
				      as, p->as[i]);
	return oq_usage_error(p->s->name, "%s given twice; give it once", as);
}

/* Does the subcommand take the option stored at off? */
static bool takes(const struct parser *p, size_t off)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (p->v[i].name && p->v[i].off == off)
			return true;
	return false;
}

/*
 * An output of "-" is standard output: one at most, and not with --json,
 * which prints there too (a report is moved to standard error instead,
 * oq_cli_claim_stdout).
 */
static int stdout_output(struct parser *p)
{
	const struct oq_cli_common *c = p->opts;
	const char *cmd = p->s->name, *by = NULL;
	size_t i;

	for (i = 0; i < p->n; i++) {
		const char *val;

		if (p->v[i].kind != OQ_OPT_OUTPUT || !p->count[i])
			continue;
		val = *(const char **)((char *)p->opts + p->v[i].off);
		if (strcmp(val, "-"))
			continue;
		if (by)
			return oq_usage_error(cmd,
					      "%s and %s both write standard "
					      "output ('-'); give one of them "
					      "a file",
					      by, p->as[i]);
		by = p->as[i];
	}
	if (!by)
		return OQ_CLI_RUN;
	if (c->json)
		return oq_usage_error(cmd,
				      "%s - and --json both write standard "
				      "output; give %s a file, or leave "
				      "--json out",
				      by, by);
	return oq_cli_claim_stdout(cmd) ? OQ_EXIT_USAGE : OQ_CLI_RUN;
}

/* Each file to write can be written (oq_cli_output_ok): said before the
 * command runs, not after it has printed its whole result. */
static int outputs_writable(const struct parser *p)
{
	const char *out;
	size_t i;

	for (i = 0; i < p->n; i++) {
		if (p->v[i].kind != OQ_OPT_OUTPUT || !p->count[i])
			continue;
		out = *(const char **)((char *)p->opts + p->v[i].off);
		if (out && oq_cli_output_ok(p->s->name, p->as[i], out))
			return OQ_EXIT_USAGE;
	}
	return OQ_CLI_RUN;
}

/* Do two paths name one file: by device and inode, following symbolic
 * links (the writer follows them), or by their resolved names when the
 * output does not exist yet. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	return oq_file_same(a, b);
}

/* The value of input i ("-": standard input), or the operand for
 * i == p->n; NULL when not given. */
static const char *input_at(const struct parser *p, size_t i, bool operand,
			    const char **by)
{
	const char *val;

	if (i == p->n) {
		if (!operand)
			return NULL;
		val = *(const char **)((char *)p->opts + p->s->operand_off);
		*by = p->s->operand;
	} else {
		if (p->v[i].kind != OQ_OPT_INPUT || !p->count[i])
			return NULL;
		val = *(const char **)((char *)p->opts + p->v[i].off);
		*by = p->as[i];
	}
	return val;
}

/* Is the output the input in: for "-", the file standard input was
 * redirected from (-p - -o p.conf < p.conf), by device and inode. */
static bool output_is_input(const char *out, const char *in)
{
	struct stat so, si;

	if (strcmp(in, "-"))
		return same_file(out, in);
	return !fstat(STDIN_FILENO, &si) && S_ISREG(si.st_mode) &&
	       !stat(out, &so) && so.st_dev == si.st_dev &&
	       so.st_ino == si.st_ino;
}

/*
 * An output file that is one of the command's inputs would be replaced
 * by what was made from it (export -p int.conf -o int.conf: the intents
 * commented out, the file lost): refused before anything is read.
 */
static int output_not_input(const struct parser *p, bool operand)
{
	const char *cmd = p->s->name, *out, *in, *by = NULL, *base, *dot;
	const char *named;
	char beside[256];
	bool stdin_in;
	size_t i, j;

	for (i = 0; i < p->n; i++) {
		if (p->v[i].kind != OQ_OPT_OUTPUT || !p->count[i])
			continue;
		out = *(const char **)((char *)p->opts + p->v[i].off);
		if (!out || !strcmp(out, "-"))
			continue;
		for (j = 0; j <= p->n; j++) {
			in = input_at(p, j, operand, &by);
			if (!in || !output_is_input(out, in))
				continue;
			stdin_in = !strcmp(in, "-");
			/* The name beside: the input's, or for standard
			 * input the output's own (the same file). */
			named = stdin_in ? out : in;
			base = strrchr(named, '/');
			base = base ? base + 1 : named;
			dot = strrchr(base, '.');
			if (!dot || dot == base || strcmp(dot, ".conf"))
				dot = base + strlen(base);
			snprintf(beside, sizeof(beside), "%.*s.%s%s",
				 (int)(dot - base), base,
				 p->s->output_suffix ? p->s->output_suffix
						     : "out",
				 *dot ? dot : "");
			return oq_usage_error(
				cmd,
				"%s '%s' is the file %s reads%s: it would be "
				"replaced by what is made from it; write %s "
				"beside it (e.g. %s)",
				p->as[i], out, by,
				stdin_in ? " from standard input" : "",
				p->s->output_what ? p->s->output_what
						  : "the output",
				beside);
		}
	}
	return OQ_CLI_RUN;
}

/* After the options: the operand, what is required, standard input. */
static int finish(struct parser *p)
{
	const char *cmd = p->s->name, *stdin_by = NULL;
	bool operand = false;
	size_t i;

	if (p->s->operand && optind < p->argc) {
		for (i = 0; i < p->n; i++)
			if (p->v[i].name && p->count[i] &&
			    p->v[i].off == p->s->operand_off)
				return oq_usage_error(
					cmd,
					"%s given twice: as '%s' and as %s; "
					"give it once",
					p->s->operand, p->argv[optind],
					p->as[i]);
		*(const char **)((char *)p->opts + p->s->operand_off) =
			p->argv[optind++];
		operand = true;
	}
	if (optind < p->argc)
		return oq_usage_error(cmd, "unexpected argument '%s'",
				      p->argv[optind]);
	for (i = 0; i < p->n; i++) {
		const struct oq_opt *o = &p->v[i];
		bool is_operand = p->s->operand && o->off == p->s->operand_off;

		if (!o->name || !(o->flags & OQ_OPT_REQUIRED) || p->count[i] ||
		    (operand && is_operand))
			continue;
		if (is_operand)
			return oq_usage_error(cmd,
					      "no %s given; osmqos %s %s "
					      "[OPTIONS]",
					      p->s->operand, cmd,
					      p->s->operand);
		return oq_usage_error(
			cmd, "--%s%s%s is required: %s", o->name,
			oq_opt_takes_arg(o) ? " " : "",
			oq_opt_takes_arg(o) ? oq_cli_opt_arg_text(o) : "",
			o->help);
	}
	for (i = 0; i <= p->n; i++) {
		const char *val, *by;

		if (i == p->n) {
			if (!operand)
				break;
			val = *(const char **)((char *)p->opts +
					       p->s->operand_off);
			by = p->s->operand;
		} else {
			if (p->v[i].kind != OQ_OPT_INPUT || !p->count[i])
				continue;
			val = *(const char **)((char *)p->opts + p->v[i].off);
			by = p->as[i];
		}
		if (strcmp(val, "-"))
			continue;
		if (stdin_by)
			return oq_usage_error(cmd,
					      "%s and %s both read standard "
					      "input ('-'); give one of them "
					      "a file",
					      stdin_by, by);
		stdin_by = by;
	}
	if (outputs_writable(p) != OQ_CLI_RUN ||
	    output_not_input(p, operand) != OQ_CLI_RUN)
		return OQ_EXIT_USAGE;
	return stdout_output(p);
}

int oq_cli_parse(const struct oq_cmd_spec *s, int argc, char **argv, void *opts)
{
	struct parser p = {.s = s, .argc = argc, .argv = argv, .opts = opts};
	char shorts[128], as[80];
	int c, li, rc = OQ_CLI_RUN;

	if (parser_init(&p, shorts, sizeof(shorts))) {
		parser_free(&p);
		return oq_usage_error(s->name, "out of memory");
	}
	/* 0, not 1: glibc then starts afresh (a second parse in one
	 * process, as the unit tests do). */
	optind = 0;
	opterr = 0;
	while (rc == OQ_CLI_RUN &&
	       (li = -1, c = getopt_long(argc, argv, shorts, p.lo, &li)) !=
		       -1) {
		int i;

		if (c == 'h') {
			oq_cli_usage(s, stdout);
			rc = OQ_EXIT_OK;
		} else if (c == 'V') {
			oq_cli_version(stdout);
			rc = OQ_EXIT_OK;
		} else if (c == ':' || c == '?') {
			rc = getopt_error(&p, c);
		} else {
			i = c >= LONG_VAL ? c - LONG_VAL : by_letter(&p, c);
			if (i < 0) {
				rc = getopt_error(&p, '?');
				break;
			}
			spelled(&p, c, li, as, sizeof(as));
			rc = note(&p, (size_t)i, as);
			if (!rc)
				rc = store(&p, (size_t)i, as, optarg);
			if (!rc)
				rc = OQ_CLI_RUN;
		}
	}
	if (rc == OQ_CLI_RUN)
		rc = finish(&p);
	/* --partitions defaults to the file the SM reads, which
	 * --opensm-conf names. */
	if (rc == OQ_CLI_RUN && takes(&p, CO(partitions)) &&
	    takes(&p, CO(opensm_conf)) &&
	    oq_cli_default_partitions(s->name, opts))
		rc = OQ_EXIT_USAGE;
	parser_free(&p);
	return rc;
}
