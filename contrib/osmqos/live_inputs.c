// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The running SM's inputs for the commands that compare with it (drift,
 * plan, status).  Without --opensm-conf they would compile with OpenSM's
 * compiled-in templates and no node-name map, and on an SM whose
 * opensm.conf sets either report drift that is not there and miss what
 * a change does; so the opensm.conf opensm runs with, which the plugin
 * publishes, is the default.  Without --publish-dir, the publish_dir= of
 * the opensm.conf given says where that is.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <osmqos/file.h>
#include <osmqos/json.h>

#include "cli.h"
#include "doctor_conf.h"
#include "inputs.h"
#include "options/options.h"
#include "published.h"

static void ignore_error(void *ctx, const char *msg)
{
	(void)ctx;
	(void)msg;
}

/* publish_dir= of the event_plugin_options in opensm.conf path (OpenSM's
 * cache directory when it sets none), into l->dir. */
static int dir_of_conf(const char *cmd, const char *path, struct oq_pub_live *l)
{
	struct oq_plugin_options po;
	struct oq_conf conf;
	const char *name;
	size_t len;
	char *text;
	int rc;

	if (oq_cli_read_input(cmd, "opensm.conf", path, OQ_FILE_MAX_BYTES,
			      &text, &len, &name))
		return OQ_EXIT_USAGE;
	rc = oq_conf_parse(text, len, &conf);
	free(text);
	if (rc)
		return oq_usage_error(cmd,
				      "out of memory reading opensm.conf '%s'; "
				      "free memory and retry",
				      name);
	/* Errors in the options are doctor's to say; the plugin uses the
	 * publish_dir= it could read, as here. */
	oq_plugin_options_parse_for(
		&po, oq_conf_get(&conf, "event_plugin_options"),
		oq_conf_get(&conf, "event_plugin_name"), ignore_error, NULL);
	l->dir = strdup(oq_plugin_publish_dir(&po));
	oq_plugin_options_free(&po);
	oq_conf_free(&conf);
	if (!l->dir)
		return oq_usage_error(cmd, "out of memory; free memory and "
					   "retry");
	return OQ_EXIT_OK;
}

/* The opensm.conf the plugin in dir says opensm runs with, into l->conf;
 * false when it says none. */
static bool published_conf(const char *dir, struct oq_pub_live *l)
{
	const struct oq_prom_sample *x;
	struct oq_prom prom;
	char path[4096];
	const char *conf;
	size_t bad;
	bool ok = false;

	if (!oq_pub_path(dir, OQ_PUB_PROM, path, sizeof(path)) ||
	    oq_prom_load(path, &prom, &bad))
		return false;
	x = oq_prom_find(&prom, "osmqos_opensm_config_info", NULL, NULL);
	conf = x ? oq_prom_label(x, "path") : NULL;
	/* A relative path is opensm's working directory's, and one with
	 * U+FFFD names another file than opensm's: neither is read here. */
	if (conf && (*conf != '/' || strstr(conf, OQ_UTF8_REPLACEMENT)))
		snprintf(l->note, sizeof(l->note),
			 "the opensm.conf the running opensm uses, '%s' (as "
			 "its osmqos publishes), is %s, so it is not read here",
			 conf,
			 *conf != '/' ? "a relative path (opensm's working "
					"directory's)"
				      : "a name that is not UTF-8");
	else if (conf && *conf && strlen(conf) < sizeof(l->conf)) {
		strcpy(l->conf, conf);
		ok = true;
	}
	oq_prom_free(&prom);
	return ok;
}

int oq_pub_live_dir(const char *cmd, struct oq_cli_common *c,
		    struct oq_pub_live *l)
{
	int rc;

	if (c->publish_dir || !c->opensm_conf)
		return OQ_EXIT_OK;
	/* Standard input is read once, by the command's compile. */
	if (!strcmp(c->opensm_conf, "-")) {
		snprintf(l->note, sizeof(l->note),
			 "the publish_dir= of an opensm.conf on standard input "
			 "is not read: the publish directory is %s; give "
			 "--publish-dir DIR for another",
			 oq_pub_dir(NULL));
		return OQ_EXIT_OK;
	}
	rc = dir_of_conf(cmd, c->opensm_conf, l);
	if (!rc)
		c->publish_dir = l->dir;
	return rc;
}

int oq_pub_live_inputs(const char *cmd, struct oq_cli_common *c,
		       struct oq_pub_live *l)
{
	const char *dir;
	int rc;

	rc = oq_pub_live_dir(cmd, c, l);
	if (rc || c->opensm_conf)
		return rc;
	dir = oq_pub_dir(c->publish_dir);
	if (!published_conf(dir, l)) {
		size_t n;

		/* Why there is none (published_conf() may say), then what
		 * the command assumes instead. */
		if (!*l->note)
			snprintf(l->note, sizeof(l->note),
				 "no --opensm-conf, and no opensm.conf "
				 "published in %s",
				 dir);
		n = strlen(l->note);
		snprintf(l->note + n, sizeof(l->note) - n,
			 ": compiled with OpenSM's built-in QoS templates "
			 "and routing engine and no node-name map; give "
			 "--opensm-conf FILE (the SM's opensm.conf)");
		return OQ_EXIT_OK;
	}
	if (access(l->conf, R_OK))
		return oq_usage_error(
			cmd,
			"cannot read %s, the opensm.conf the running opensm "
			"uses (as its osmqos publishes in %s): %s; %s",
			l->conf, dir, strerror(errno),
			errno == EACCES || errno == EPERM
				? "run as a user who can (root, opensm's), or "
				  "give --opensm-conf FILE"
				: "give --opensm-conf FILE (the file opensm "
				  "started with is gone)");
	c->opensm_conf = l->conf;
	/* As for an --opensm-conf given: the partitions file it names. */
	rc = oq_cli_default_partitions(cmd, c);
	if (rc)
		return rc;
	snprintf(l->note, sizeof(l->note),
		 "opensm.conf: %s, the running opensm's (as its osmqos "
		 "publishes); --opensm-conf gives another",
		 l->conf);
	return OQ_EXIT_OK;
}

void oq_pub_live_free(struct oq_pub_live *l)
{
	free(l->dir);
	l->dir = NULL;
}
