// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A port-name value, "NodeDescription/P<n>", read exactly as OpenSM's
 * parser reads it (osm_qos_parser_y.y, the port-name action), so that the
 * parser's checks and the binder agree with each other and with OpenSM:
 * the last '/' separates the node, then 'P' or 'p' and at least one more
 * character, then the number strtoul(, 0) reads (hex after 0x, octal
 * after a leading 0, anything after the number ignored), kept in an
 * unsigned int as OpenSM keeps it.  A number of 0 is refused.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/policy.h>

bool oq_port_name_parse(const char *name, struct oq_pname *out)
{
	const char *slash = strrchr(name, '/'), *num, *end;

	memset(out, 0, sizeof(*out));
	if (!slash || strlen(slash) < 3 || (slash[1] != 'p' && slash[1] != 'P'))
		return false;
	out->well_formed = true;
	out->node_len = (size_t)(slash - name);
	num = slash + 2;
	out->port = (unsigned int)strtoul(num, (char **)&end, 0);
	out->number = num;
	out->number_len = (size_t)(end - num);
	out->junk = *end ? end : NULL;
	out->octal = num[0] == '0' && isdigit((unsigned char)num[1]);
	return out->port != 0;
}
