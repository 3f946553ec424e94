// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Test-only: change one port's VLArb table behind the SM's back, so the
 * end-to-end test can check that `osmqos drift` notices.
 *
 *	smp_set_vlarb DRPATH PORT low|high VL:W[,VL:W...]
 *
 * DRPATH is a directed route ("0,1" = out of local port 1), PORT the
 * switch port whose table changes (0 on a CA).  The first block of the
 * chosen table is read, its first entries replaced, and written back with
 * a SubnSet(VLArbitrationTable).  Exit 0 when the node accepted it.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smp_transport.h"

static int usage(void)
{
	fprintf(stderr, "usage: smp_set_vlarb DRPATH PORT low|high "
			"VL:W[,VL:W...]\n");
	return 2;
}

/* "VL:W,..." into the block's first entries; the number set, or -1. */
static int parse_entries(const char *s, uint8_t *block)
{
	char *copy = strdup(s), *tok, *save = NULL;
	int n = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned int vl, w;

		if (n == 32 || sscanf(tok, "%u:%u", &vl, &w) != 2 || vl > 15 ||
		    w > 255) {
			free(copy);
			return -1;
		}
		block[2 * n] = (uint8_t)vl;
		block[2 * n + 1] = (uint8_t)w;
		n++;
	}
	free(copy);
	return n;
}

int main(int argc, char **argv)
{
	struct oq_smp_port p;
	struct oq_dr_path path;
	uint8_t block[OQ_SMP_DATA_SIZE];
	unsigned long port;
	uint32_t mod;
	char err[512];
	int rc;

	if (argc != 5 || oq_dr_path_parse(argv[1], &path))
		return usage();
	port = strtoul(argv[2], NULL, 0);
	if (port > 254 || (strcmp(argv[3], "low") && strcmp(argv[3], "high")))
		return usage();
	/* Block 1: low entries 0-31; block 3: high entries 0-31. */
	mod = (uint32_t)(strcmp(argv[3], "low") ? 3 : 1) << 16 | port;
	if (oq_smp_open(NULL, 0, &p, err, sizeof(err))) {
		fprintf(stderr, "smp_set_vlarb: %s\n", err);
		return 1;
	}
	rc = oq_smp_query(&p, OQ_SMP_METHOD_GET, &path, OQ_SMP_ATTR_VLARB, mod,
			  block, err, sizeof(err));
	if (!rc && parse_entries(argv[4], block) < 0) {
		oq_smp_close(&p);
		return usage();
	}
	if (!rc)
		rc = oq_smp_query(&p, OQ_SMP_METHOD_SET, &path,
				  OQ_SMP_ATTR_VLARB, mod, block, err,
				  sizeof(err));
	oq_smp_close(&p);
	if (rc) {
		if (rc > 0)
			snprintf(err, sizeof(err), "status 0x%04x", rc);
		fprintf(stderr, "smp_set_vlarb: %s\n", err);
		return 1;
	}
	printf("VLArb %s of port %lu along %s set to %s\n", argv[3], port,
	       argv[1], argv[4]);
	return 0;
}
