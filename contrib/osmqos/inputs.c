// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The offline subcommands' inputs: see inputs.h. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <osmqos/file.h>
#include <osmqos/model.h>
#include <osmqos/node_name_map.h>
#include <osmqos/opensm_conf.h>

#include "cli.h"
#include "inputs.h"

static void print_diags(struct oq_cli_inputs *in)
{
	oq_cli_print_diags(&in->diags, in->all, in->show_all);
	oq_diags_clear(&in->diags);
}

static bool is_stdin(const char *path)
{
	return !strcmp(path, "-");
}

/* A file over its limit: that is all there is to say (the path is
 * fine, and no option is at fault). */
static int too_big(const char *cmd, const char *what, const char *path,
		   size_t max)
{
	fprintf(stderr,
		"osmqos %s: %s '%s' is larger than the %zu MiB limit%s; "
		"shorten it (is it the right file?)\n",
		cmd, what, path, max >> 20,
		max == OQ_POLICY_MAX_BYTES ? " (the plugin's too)" : "");
	return OQ_EXIT_USAGE;
}

/* What to look at when a file cannot be read. */
static const char *what_to_check(int err)
{
	return err == EACCES || err == EPERM
		       ? "check its permissions (run as its owner, or root)"
		       : "check the path (a regular file)";
}

int oq_cli_need_file(const char *cmd, const char *what, const char *path,
		     size_t max)
{
	int err = is_stdin(path) ? 0 : oq_file_probe(path, max);
	char why[64];

	if (err == EFBIG)
		return too_big(cmd, what, path, max);
	if (err)
		return oq_usage_error(cmd, "cannot read %s '%s': %s; %s", what,
				      path,
				      oq_file_error(err, max, why, sizeof(why)),
				      what_to_check(err));
	return OQ_EXIT_OK;
}

/* Standard input to its end, at most max bytes; NULL with errno set. */
static char *read_stdin(size_t max, size_t *len)
{
	size_t cap = 0, n = 0;
	char *buf = NULL, *nb;

	for (;;) {
		ssize_t r;

		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			if (cap > max + 1)
				cap = max + 1;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		r = read(STDIN_FILENO, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno;

			free(buf);
			errno = err;
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			free(buf);
			errno = EFBIG;
			return NULL;
		}
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/*
 * Standard input read once, copies handed out: the one input given as '-'
 * may have several readers (an opensm.conf's templates, the node-name map
 * and the partitions file it names), and a second read would find it
 * empty.  NULL with errno set.
 */
static char *stdin_copy(size_t max, size_t *len)
{
	static char *text;
	static size_t text_len;
	static int err;
	char *b;

	if (!text && !err) {
		text = read_stdin(max, &text_len);
		err = text ? 0 : errno;
	}
	if (err || text_len > max) {
		errno = err ? err : EFBIG;
		return NULL;
	}
	b = malloc(text_len + 1);
	if (!b) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(b, text, text_len + 1);
	*len = text_len;
	return b;
}

/* A file's text, or standard input's for '-'; NULL with errno set. */
static char *read_input(const char *path, size_t max, size_t *len)
{
	return is_stdin(path) ? stdin_copy(max, len)
			      : oq_file_read(path, max, len);
}

struct text {
	const char *name;
	char *buf;
	size_t len;
};

static int read_text(const char *cmd, const char *what, const char *path,
		     size_t max, struct text *t)
{
	char why[64];

	t->name = is_stdin(path) ? OQ_CLI_STDIN_NAME : path;
	t->buf = read_input(path, max, &t->len);
	if (t->buf)
		return OQ_EXIT_OK;
	if (errno == EFBIG)
		return too_big(cmd, what, t->name, max);
	if (is_stdin(path))
		return oq_usage_error(cmd,
				      "cannot read %s from standard input: "
				      "%s; give it as a file",
				      what,
				      oq_file_error(errno, max, why,
						    sizeof(why)));
	return oq_usage_error(cmd, "cannot read %s '%s': %s; %s", what, path,
			      oq_file_error(errno, max, why, sizeof(why)),
			      what_to_check(errno));
}

int oq_cli_read_input(const char *cmd, const char *what, const char *path,
		      size_t max, char **buf, size_t *len, const char **name)
{
	struct text t;

	*buf = NULL;
	*len = 0;
	*name = is_stdin(path) ? OQ_CLI_STDIN_NAME : path;
	if (oq_cli_need_file(cmd, what, path, max) ||
	    read_text(cmd, what, path, max, &t))
		return OQ_EXIT_USAGE;
	*buf = t.buf;
	*len = t.len;
	return OQ_EXIT_OK;
}

static void out_of_memory(struct oq_diags *d, const char *name)
{
	oq_error(d, (struct oq_loc){name, 0, 0}, "out of memory");
}

int oq_cli_read_policy(const char *cmd, const char *path, struct oq_diags *d,
		       struct oq_policy **out)
{
	struct text t;

	*out = NULL;
	if (read_text(cmd, "policy", path, OQ_POLICY_MAX_BYTES, &t))
		return OQ_EXIT_USAGE;
	*out = oq_policy_parse(t.name, t.buf, t.len, d);
	free(t.buf);
	if (!*out)
		out_of_memory(d, t.name);
	return OQ_EXIT_OK;
}

int oq_cli_read_fabric(const char *cmd, const char *path, struct oq_diags *d,
		       struct oq_fabric **out)
{
	struct text t;

	*out = NULL;
	if (read_text(cmd, "fabric", path, OQ_FILE_MAX_BYTES, &t))
		return OQ_EXIT_USAGE;
	*out = oq_topology_parse(t.name, t.buf, t.len, d);
	free(t.buf);
	return OQ_EXIT_OK;
}

int oq_cli_read_partitions(const char *cmd, const char *path,
			   struct oq_fabric *f, struct oq_diags *d,
			   struct oq_partitions *out)
{
	struct text t;
	int rc;

	memset(out, 0, sizeof(*out));
	if (read_text(cmd, "partitions file", path, OQ_FILE_MAX_BYTES, &t))
		return OQ_EXIT_USAGE;
	rc = oq_partitions_parse(out, t.name, t.buf, t.len, f, d);
	free(t.buf);
	return rc;
}

int oq_cli_read_templates(const char *cmd, const char *path,
			  struct oq_diags *d, struct oq_templates *t)
{
	struct text tx;
	int rc;

	oq_templates_default(t);
	if (read_text(cmd, "opensm.conf", path, OQ_FILE_MAX_BYTES, &tx))
		return OQ_EXIT_USAGE;
	rc = oq_templates_parse_opensm_conf(t, tx.name, tx.buf, tx.len, d);
	free(tx.buf);
	return rc;
}

/* The map opensm.conf names (or OpenSM's default one, if it exists):
 * *path malloc'd, NULL for none.  OQ_EXIT_USAGE when the file cannot be
 * read. */
static int conf_map(const char *cmd, const char *conf, char **path, bool *dflt)
{
	struct text t;
	int rc;

	*path = NULL;
	*dflt = false;
	if (read_text(cmd, "opensm.conf", conf, OQ_FILE_MAX_BYTES, &t))
		return OQ_EXIT_USAGE;
	rc = oq_opensm_conf_path(t.buf, t.len, "node_name_map_name", path);
	free(t.buf);
	if (rc)
		return oq_usage_error(cmd, "out of memory reading '%s'", conf);
	/* "(null)" too: OpenSM then opens its default map, if it was
	 * built with one. */
	if (!*path && *OQ_OSM_NODE_NAME_MAP &&
	    !access(OQ_OSM_NODE_NAME_MAP, F_OK)) {
		*path = strdup(OQ_OSM_NODE_NAME_MAP);
		*dflt = true;
		if (!*path)
			return oq_usage_error(cmd, "out of memory");
	}
	return OQ_EXIT_OK;
}

/* The partitions file opensm.conf names, for the rest of the process. */
static char *conf_partitions;

int oq_cli_default_partitions(const char *cmd, struct oq_cli_common *c)
{
	char *path = NULL, *text, why[64];
	size_t len;
	bool named;
	int err;

	if (c->partitions || !c->opensm_conf)
		return OQ_EXIT_OK;
	/* One the command cannot read is its own input error, said when
	 * the command reads it. */
	text = read_input(c->opensm_conf, OQ_FILE_MAX_BYTES, &len);
	if (!text)
		return OQ_EXIT_OK;
	err = oq_opensm_conf_path(text, len, "partition_config_file", &path);
	free(text);
	/* No line, or "(null)": OpenSM opens its default file. */
	named = path != NULL;
	if (!err && !path)
		path = strdup(OQ_OSM_PARTITIONS_FILE);
	if (err || !path)
		return oq_usage_error(cmd, "out of memory reading '%s'",
				      c->opensm_conf);
	err = oq_file_probe(path, OQ_FILE_MAX_BYTES);
	if (err && err != ENOENT) {
		/* OpenSM, as root, may read what this user cannot, and
		 * blocks on a FIFO: no guess at what it has. */
		oq_usage_error(cmd,
			       "cannot read the partitions file '%s' (%s %s): "
			       "%s; make it readable, or give --partitions "
			       "FILE",
			       path, c->opensm_conf,
			       named ? "names it" : "names none",
			       oq_file_error(err, OQ_FILE_MAX_BYTES, why,
					     sizeof(why)));
		free(path);
		return OQ_EXIT_USAGE;
	}
	/* A missing file leaves OpenSM its Default partition, every end
	 * port a full member.  Most installations have none at the
	 * default path, which opensm -c writes into opensm.conf: that is
	 * no news. */
	if (err) {
		free(conf_partitions);
		conf_partitions = path;
		c->absent_partitions = path;
		c->absent_partitions_news =
			strcmp(path, OQ_OSM_PARTITIONS_FILE);
		if (c->absent_partitions_news && !c->partitions_own_warning)
			fprintf(stderr,
				"osmqos %s: warning: the partitions file '%s' "
				"that %s names does not exist; OpenSM then has "
				"only its Default partition, and so does this "
				"run (give --partitions FILE to read "
				"another)\n",
				cmd, path, c->opensm_conf);
		return OQ_EXIT_OK;
	}
	if (!named)
		fprintf(stderr,
			"osmqos %s: partitions from %s, OpenSM's default "
			"partitions file (%s names none)\n",
			cmd, path, c->opensm_conf);
	free(conf_partitions);
	conf_partitions = path;
	c->partitions = path;
	return OQ_EXIT_OK;
}

int oq_cli_node_names(const char *cmd, const struct oq_cli_common *c,
		      struct oq_fabric *f, struct oq_diags *into)
{
	struct oq_node_name_map *m = NULL;
	const char *path = c->node_name_map, *kind;
	char *conf_path = NULL, why[64], *show;
	bool dflt = false, by_conf = false;
	struct oq_diags d, *to = &d;
	struct text t;
	int oom = 0, rc = OQ_EXIT_OK;

	if (!path && c->opensm_conf) {
		if (conf_map(cmd, c->opensm_conf, &conf_path, &dflt))
			return OQ_EXIT_USAGE;
		path = conf_path;
		by_conf = true;
	}
	if (!path)
		return OQ_EXIT_OK;
	oq_diags_init(&d);
	kind = by_conf ? oq_file_endless(path) : NULL;
	if (kind) {
		/* complib fopen()s the map and reads it to its end before
		 * the first sweep: no fallback, the subnet never comes up. */
		rc = oq_usage_error(
			cmd,
			"the node-name map '%s' that %s names is a "
			"%s: opensm would block or spin reading it "
			"at startup and never bring the subnet up; "
			"point node_name_map_name at a regular file",
			path, c->opensm_conf, kind);
		goto out;
	}
	if (by_conf) {
		/* OpenSM opens the map itself: one it cannot read leaves the
		 * nodes their NodeDescriptions, and so it does here. */
		t.name = path;
		t.buf = oq_file_read(path, OQ_FILE_MAX_BYTES, &t.len);
		if (!t.buf) {
			fprintf(stderr,
				"osmqos %s: warning: cannot read the node-name "
				"map '%s' that %s names: %s; OpenSM then names "
				"nodes by their NodeDescriptions, and so does "
				"this run\n",
				cmd, path, c->opensm_conf,
				oq_file_error(errno, OQ_FILE_MAX_BYTES, why,
					      sizeof(why)));
			goto out;
		}
	} else if (read_text(cmd, "node-name map", path, OQ_FILE_MAX_BYTES,
			     &t)) {
		rc = OQ_EXIT_USAGE;
		goto out;
	}
	if (into && !by_conf)
		to = into;
	m = oq_node_name_map_parse(t.name, t.buf, t.len, to, &oom);
	free(t.buf);
	show = oq_cli_show_all(c);
	oq_cli_print_diags(&d, c->all, show);
	free(show);
	if (!m && oom) {
		rc = oq_usage_error(cmd, "out of memory reading '%s'", path);
		goto out;
	}
	if (!m && !by_conf) {
		/* Into the caller's diagnostics, the caller reports them
		 * and why it stops. */
		if (to != into)
			fprintf(stderr,
				"osmqos %s: the node-name map '%s' has an "
				"error above; fix it (GUID \"name\" lines, "
				"node-name-map(5))\n",
				cmd, path);
		rc = OQ_EXIT_USAGE;
		goto out;
	}
	if (!m) {
		fprintf(stderr,
			"osmqos %s: warning: OpenSM ignores the node-name map "
			"'%s' that %s names (the error above); nodes keep "
			"their NodeDescriptions here too\n",
			cmd, path, c->opensm_conf);
		goto out;
	}
	if (dflt)
		fprintf(stderr,
			"osmqos %s: nodes are named by %s, OpenSM's default "
			"node-name map (%s names none)\n",
			cmd, path, c->opensm_conf);
	if (oq_fabric_apply_node_names(f, m))
		rc = oq_usage_error(cmd, "out of memory naming the nodes");
out:
	oq_node_name_map_free(m);
	oq_diags_free(&d);
	free(conf_path);
	return rc;
}

void oq_cli_inputs_free(struct oq_cli_inputs *in)
{
	oq_synth_plan_free(&in->synth);
	oq_binding_free(in->binding);
	oq_policy_free(in->policy);
	if (in->have_parts)
		oq_partitions_free(&in->parts);
	oq_fabric_free(in->fabric);
	oq_diags_free(&in->diags);
	free(in->show_all);
	memset(in, 0, sizeof(*in));
}

static int load_partitions(const char *cmd, const char *partitions,
			   struct oq_cli_inputs *in)
{
	in->have_parts = true;
	if (!partitions) {
		/* Without partitions.conf OpenSM still has its Default
		 * partition (0x7fff, every end port a full member): pkey
		 * groups see it. */
		if (oq_partitions_no_file(&in->parts, in->fabric, &in->diags)) {
			print_diags(in);
			return OQ_EXIT_USAGE;
		}
		return OQ_EXIT_OK;
	}
	switch (oq_cli_read_partitions(cmd, partitions, in->fabric,
				       &in->diags, &in->parts)) {
	case OQ_EXIT_USAGE:
		return OQ_EXIT_USAGE;
	case 0:
		if (!oq_diags_has_errors(&in->diags))
			return OQ_EXIT_OK;
	}
	print_diags(in);
	fprintf(stderr,
		"osmqos %s: the partitions file '%s' has errors; fix them "
		"(OpenSM partitions.conf syntax; OpenSM itself uses only its "
		"Default partition until they are fixed)\n",
		cmd, partitions);
	return OQ_EXIT_USAGE;
}

static int load_policy(const char *cmd, const struct oq_cli_common *c,
		       struct oq_cli_inputs *in)
{
	if (oq_cli_read_policy(cmd, c->policy, &in->diags, &in->policy))
		return OQ_EXIT_USAGE;
	if (!in->policy) {
		print_diags(in);
		fprintf(stderr, "osmqos %s: could not load '%s'; free memory "
				"and retry\n",
			cmd, c->policy);
		return OQ_EXIT_USAGE;
	}
	if (!oq_diags_has_errors(&in->diags))
		oq_policy_validate(in->policy, &in->diags);
	if (!oq_diags_has_errors(&in->diags)) {
		in->binding = oq_bind(in->policy, in->fabric, &in->parts,
				      &in->diags);
		if (!in->binding) {
			fprintf(stderr, "osmqos %s: out of memory binding "
					"the policy; free memory or try a "
					"smaller fabric\n",
				cmd);
			return OQ_EXIT_USAGE;
		}
	}
	if (oq_diags_has_errors(&in->diags)) {
		print_diags(in);
		fprintf(stderr,
			"osmqos %s: the policy '%s' is invalid; fix the errors "
			"above (osmqos check --fabric %s %s shows them too)\n",
			cmd, c->policy, c->fabric ? c->fabric : "TOPO",
			c->policy);
		return OQ_EXIT_FAIL;
	}
	return OQ_EXIT_OK;
}

/* The inputs' diagnostics reported as c asks. */
static int report_as(const char *cmd, const struct oq_cli_common *c,
		     struct oq_cli_inputs *in)
{
	in->all = c->all;
	if (!in->show_all)
		in->show_all = oq_cli_show_all(c);
	return in->show_all ? OQ_EXIT_OK
			    : oq_usage_error(cmd, "out of memory; free memory "
						  "and retry");
}

int oq_cli_load_on(const char *cmd, const struct oq_cli_common *c,
		   struct oq_cli_inputs *in)
{
	int rc = report_as(cmd, c, in);

	if (!rc)
		rc = oq_cli_node_names(cmd, c, in->fabric, NULL);

	if (!rc)
		rc = load_partitions(cmd, c->partitions, in);
	if (!rc && c->policy)
		rc = load_policy(cmd, c, in);
	if (rc) {
		oq_cli_inputs_free(in);
		return rc;
	}
	print_diags(in);
	return OQ_EXIT_OK;
}

int oq_cli_load(const char *cmd, const struct oq_cli_common *c,
		struct oq_cli_inputs *in)
{
	int rc;

	memset(in, 0, sizeof(*in));
	oq_diags_init(&in->diags);
	if ((rc = oq_cli_need_file(cmd, "fabric", c->fabric,
				   OQ_FILE_MAX_BYTES)) ||
	    (c->partitions &&
	     (rc = oq_cli_need_file(cmd, "partitions file", c->partitions,
				    OQ_FILE_MAX_BYTES))) ||
	    (c->opensm_conf &&
	     (rc = oq_cli_need_file(cmd, "opensm.conf", c->opensm_conf,
				    OQ_FILE_MAX_BYTES))) ||
	    (c->node_name_map &&
	     (rc = oq_cli_need_file(cmd, "node-name map", c->node_name_map,
				    OQ_FILE_MAX_BYTES))) ||
	    (c->policy && (rc = oq_cli_need_file(cmd, "policy", c->policy,
						 OQ_POLICY_MAX_BYTES))))
		goto fail;

	rc = report_as(cmd, c, in);
	if (!rc)
		rc = oq_cli_read_fabric(cmd, c->fabric, &in->diags,
					&in->fabric);
	if (rc)
		goto fail;
	if (!in->fabric || oq_diags_has_errors(&in->diags)) {
		print_diags(in);
		fprintf(stderr,
			"osmqos %s: the fabric '%s' could not be loaded; fix "
			"the errors above (an ibnetdiscover output or ibsim "
			"net file is expected)\n",
			cmd, c->fabric);
		rc = OQ_EXIT_USAGE;
		goto fail;
	}
	rc = oq_cli_load_on(cmd, c, in);
	if (rc)
		return rc;
	return OQ_EXIT_OK;
fail:
	oq_cli_inputs_free(in);
	return rc;
}

int oq_cli_compile_tables(const char *cmd, struct oq_cli_inputs *in,
			  const char *opensm_conf, struct oq_templates *t,
			  struct oq_fabric_tables *out)
{
	struct oq_engine engine;
	int rc;

	oq_templates_default(t);
	if (opensm_conf) {
		rc = oq_cli_read_templates(cmd, opensm_conf, &in->diags, t);
		if (rc == OQ_EXIT_USAGE)
			return rc;
		if (rc || oq_diags_has_errors(&in->diags)) {
			print_diags(in);
			fprintf(stderr,
				"osmqos %s: cannot use the templates of '%s'; "
				"check the path and its qos_* lines\n",
				cmd, opensm_conf);
			return OQ_EXIT_USAGE;
		}
	}
	/* The SM's links run at most max_op_vls's VLs. */
	oq_fabric_cap_oper_vls(in->fabric, t->max_op_vls);
	/* An unknown name was a warning of the opensm.conf parse. */
	oq_engine_by_name(&engine, t->routing_engine);
	if (oq_tables_compile_engine(in->binding, in->fabric, t, &engine, out,
				     &in->diags)) {
		fprintf(stderr, "osmqos %s: out of memory compiling the "
				"tables; free memory or try a smaller "
				"fabric\n",
			cmd);
		return OQ_EXIT_USAGE;
	}
	/* Bandwidth intents replace what the templates would give. */
	oq_synth_plan_free(&in->synth);
	if (in->policy && oq_synth_apply(in->policy, in->fabric, &engine, out,
					 &in->synth, &in->diags)) {
		oq_fabric_tables_free(out);
		fprintf(stderr, "osmqos %s: out of memory synthesizing the "
				"intents; free memory or try a smaller "
				"fabric\n",
			cmd);
		return OQ_EXIT_USAGE;
	}
	print_diags(in);
	return OQ_EXIT_OK;
}

const char *oq_cli_level_name(const struct oq_policy *p, int level)
{
	if (!p || level < 0 || (size_t)level >= p->n_levels)
		return NULL;
	return p->levels[level].name;
}
