// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Fuzz target: topology loader (ibnetdiscover output / ibsim net files),
 * then every lookup on whatever fabric comes out. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <osmqos/fabric.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct oq_diags d;
	struct oq_fabric *f;
	size_t i;
	char name[96];

	oq_diags_init(&d);
	f = oq_topology_parse("fuzz.net", (const char *)data, size, &d);
	for (i = 0; f && i < f->n_ports; i++) {
		struct oq_port *p = f->ports[i];

		oq_port_name(p, name, sizeof(name));
		if (oq_fabric_port_by_name(f, name) == NULL &&
		    p->node->desc[0] == '\0')
			continue;
		oq_fabric_port_by_guid(f, p->guid);
		oq_fabric_port_by_lid(f, p->lid);
		oq_fabric_parse_port(f, name);
		snprintf(name, sizeof(name), "0x%llx",
			 (unsigned long long)p->node->guid);
		oq_fabric_parse_port(f, name);
	}
	oq_fabric_free(f);
	oq_diags_free(&d);
	return 0;
}
