// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * path_tool: the path engine on a topology file plus an LFT dump, for the
 * cross-check against a real OpenSM (tests/e2e/path-check.sh).
 *
 *   path_tool TOPOLOGY LFTS [SUBNET_TIMEOUT] < pairs
 *
 * LFTS holds lines "LFT <switch-lid> <dlid> <port>" ('#' comments).  Each
 * stdin line "<slid> <dlid>" prints
 *   "<slid> <dlid> <status> <mtu> <rate> <pkt_life> <hops>"
 * with status "ok" or the failure, the enums as PathRecord carries them.
 * Exit 0, or 2 on bad input (with a diagnostic saying what is wrong).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/fabric.h>
#include <osmqos/path.h>

static int parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoul(s, &end, 0);
	return errno || *end || *v > max ? -1 : 0;
}

static int load_lfts(struct oq_fabric *f, const char *path)
{
	char line[256], *tok[5];
	unsigned long lineno = 0, v[3];
	FILE *fp = fopen(path, "r");
	int n, i;

	if (!fp) {
		fprintf(stderr, "path_tool: cannot open %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		struct oq_port *sw;
		char *save = NULL, *s = line;

		lineno++;
		for (n = 0; n < 5 && (tok[n] = strtok_r(s, " \t\r\n", &save));
		     n++)
			s = NULL;
		if (!n || tok[0][0] == '#')
			continue;
		if (n != 4 || strcmp(tok[0], "LFT"))
			goto bad;
		for (i = 0; i < 3; i++)
			if (parse_uint(tok[i + 1], i == 2 ? 255 : 0xffff,
				       &v[i]))
				goto bad;
		sw = oq_fabric_port_by_lid(f, (uint16_t)v[0]);
		if (!sw || sw->node->type != OQ_NODE_SWITCH) {
			fprintf(stderr,
				"%s:%lu: LID %lu is not a switch of the "
				"topology; dump the LFTs of the same fabric\n",
				path, lineno, v[0]);
			fclose(fp);
			return -1;
		}
		if (oq_node_set_lft_entry(sw->node, (uint16_t)v[1],
					  (uint8_t)v[2])) {
			fprintf(stderr, "path_tool: out of memory\n");
			fclose(fp);
			return -1;
		}
	}
	fclose(fp);
	return 0;
bad:
	fprintf(stderr, "%s:%lu: expected \"LFT <switch-lid> <dlid> <port>\"\n",
		path, lineno);
	fclose(fp);
	return -1;
}

int main(int argc, char **argv)
{
	struct oq_path_opts opts = {OQ_SUBNET_TIMEOUT_DEFAULT};
	struct oq_fabric *f;
	struct oq_diags d;
	char line[128];
	unsigned long t;
	int rc = 0;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: path_tool TOPOLOGY LFTS "
				"[SUBNET_TIMEOUT] < pairs\n");
		return 2;
	}
	if (argc == 4) {
		if (parse_uint(argv[3], 31, &t)) {
			fprintf(stderr,
				"path_tool: SUBNET_TIMEOUT must be 0..31\n");
			return 2;
		}
		opts.subnet_timeout = (uint8_t)t;
	}
	oq_diags_init(&d);
	f = oq_topology_load(argv[1], &d);
	if (!f || d.n_errors) {
		oq_diags_print(&d, stderr);
		fprintf(stderr, "path_tool: cannot load topology %s\n",
			argv[1]);
		oq_diags_free(&d);
		oq_fabric_free(f);
		return 2;
	}
	oq_diags_free(&d);
	if (load_lfts(f, argv[2])) {
		oq_fabric_free(f);
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		unsigned long slid, dlid;
		struct oq_port *src;
		struct oq_path p;
		char *a, *b, *save = NULL;

		a = strtok_r(line, " \t\r\n", &save);
		if (!a || *a == '#')
			continue;
		b = strtok_r(NULL, " \t\r\n", &save);
		if (parse_uint(a, 0xffff, &slid) ||
		    parse_uint(b, 0xffff, &dlid)) {
			fprintf(stderr, "path_tool: expected \"<slid> <dlid>\" "
					"on stdin\n");
			rc = 2;
			break;
		}
		src = oq_fabric_port_by_lid(f, (uint16_t)slid);
		if (src && src->node->type == OQ_NODE_SWITCH)
			src = &src->node->ports[0];
		oq_path_resolve(f, NULL, src, (uint16_t)dlid, &opts, &p);
		printf("%lu %lu %s %u %u %u %u\n", slid, dlid,
		       p.status ? "fail" : "ok", p.mtu, p.rate, p.pkt_life,
		       p.hops);
		if (p.status)
			fprintf(stderr, "path_tool: %lu -> %lu: %s\n", slid,
				dlid, oq_path_status_name(p.status));
	}
	oq_fabric_free(f);
	return rc;
}
