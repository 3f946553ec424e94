// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Test-only: assign or remove an alias GUID through the SA, as a host
 * stack does with a GuidInfoRecord Set or Delete (IBA 15.2.5.18): the
 * port of LID, block 0, index 1.
 *
 *	sa_guidinfo_set set|delete LID GUID
 *
 * Sent to the SM's LID on the local port; exit 0 when the SA answered
 * with status 0, 1 with another status, 2 on a usage or transport error.
 */
#include <config.h>

#include <endian.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/umad.h>

#define SA_CLASS	  3
#define SA_VERSION	  2
#define METHOD_SET	  0x02
#define METHOD_DELETE	  0x15
#define ATTR_GUIDINFO_REC 0x0030
#define QKEY		  0x80010000
#define MAD_SIZE	  256
/* GuidInfoRecord components: LID, BlockNum, GID1 (index 1). */
#define COMP_LID_BLOCK_GID1 0x23ull

static int usage(void)
{
	fprintf(stderr, "usage: sa_guidinfo_set set|delete LID GUID\n");
	return 2;
}

int main(int argc, char **argv)
{
	uint8_t *mad, method;
	uint64_t guid, tid, cm;
	uint16_t lid, v16;
	umad_port_t port;
	void *umad;
	int fd, agent, len;

	if (argc != 4)
		return usage();
	if (!strcmp(argv[1], "set"))
		method = METHOD_SET;
	else if (!strcmp(argv[1], "delete"))
		method = METHOD_DELETE;
	else
		return usage();
	lid = (uint16_t)strtoul(argv[2], NULL, 0);
	guid = strtoull(argv[3], NULL, 0);
	if (umad_init() < 0 || umad_get_port(NULL, 0, &port) < 0) {
		fprintf(stderr, "sa_guidinfo_set: no local port\n");
		return 2;
	}
	fd = umad_open_port(port.ca_name, port.portnum);
	agent = fd < 0 ? -1 : umad_register(fd, SA_CLASS, SA_VERSION, 1, NULL);
	umad = calloc(1, umad_size() + MAD_SIZE);
	if (agent < 0 || !umad) {
		fprintf(stderr, "sa_guidinfo_set: cannot open the port\n");
		return 2;
	}
	mad = umad_get_mad(umad);
	mad[0] = 1; /* base version */
	mad[1] = SA_CLASS;
	mad[2] = SA_VERSION;
	mad[3] = method;
	tid = htobe64((uint64_t)getpid());
	memcpy(mad + 8, &tid, 8);
	v16 = htobe16(ATTR_GUIDINFO_REC);
	memcpy(mad + 16, &v16, 2);
	cm = htobe64(COMP_LID_BLOCK_GID1);
	memcpy(mad + 48, &cm, 8);
	/* The record at offset 56: LID, BlockNum, reserved; 8 GUIDs. */
	v16 = htobe16(lid);
	memcpy(mad + 56, &v16, 2);
	guid = htobe64(guid);
	memcpy(mad + 56 + 8 + 8, &guid, 8);
	umad_set_addr(umad, port.sm_lid, 1, port.sm_sl, QKEY);
	if (umad_send(fd, agent, umad, MAD_SIZE, 2000, 0) < 0) {
		fprintf(stderr, "sa_guidinfo_set: send failed\n");
		return 2;
	}
	for (;;) {
		len = MAD_SIZE;
		if (umad_recv(fd, umad, &len, 5000) < 0 || umad_status(umad)) {
			fprintf(stderr, "sa_guidinfo_set: no answer\n");
			return 2;
		}
		/* The low 32 bits of the TID are ours (the kernel owns the
		 * high ones). */
		if (memcmp(mad + 12, (const uint8_t *)&tid + 4, 4))
			continue;
		memcpy(&v16, mad + 4, 2);
		v16 = be16toh(v16);
		printf("status 0x%04x\n", v16);
		return v16 ? 1 : 0;
	}
}
