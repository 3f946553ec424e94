// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Fuzz target: partitions.conf loader, applied to a small fixed fabric. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <osmqos/fabric.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fabric_text[] =
	"Switch 8 \"sw\"\n[1] \"h1\"[1]\n[2] \"h2\"[1]\n[3] \"r1\"[1]\n\n"
	"Hca 2 \"h1\"\n[1] \"sw\"[1]\n\nHca 1 \"h2\"\n[1] \"sw\"[2]\n\n"
	"rtguid=0x300000\nRt 1 \"r1\"\n[1] \"sw\"[3]\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct oq_fabric *f;
	struct oq_partitions parts;
	struct oq_diags d;
	size_t i;

	if (!f)
		f = oq_topology_parse("f.net", fabric_text,
				      strlen(fabric_text), NULL);
	oq_diags_init(&d);
	oq_partitions_parse(&parts, "fuzz.conf", (const char *)data, size, f,
			    &d);
	for (i = 0; i < parts.n; i++)
		oq_partition_by_name(&parts, parts.v[i].name);
	for (i = 0; f && i < f->n_ports; i++)
		oq_port_pkey_membership(f, f->ports[i], 0x7fff);
	oq_partitions_free(&parts);
	oq_diags_free(&d);
	return 0;
}
