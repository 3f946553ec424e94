// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A tiny JSON validator and a sample audit record (audit_test_util.h). */
#include <stdio.h>
#include <string.h>

#include "audit/audit.h"
#include "audit_test_util.h"

/* ---- a tiny JSON validator ---- */

static const char *js_value(const char *p, int depth);

static const char *js_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return p;
}

static const char *js_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20)
			return NULL; /* raw control char */
		if (c == '\\') {
			p++;
			if (*p == 'u') {
				int i;

				for (i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF",
						    p[i]) ||
					    !p[i])
						return NULL;
				p += 5;
				continue;
			}
			if (!*p || !strchr("\"\\/bfnrt", *p))
				return NULL;
		}
		p++;
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *js_number(const char *p)
{
	const char *s = p;

	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return NULL;
	while ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' ||
	       *p == 'E' || *p == '+' || *p == '-')
		p++;
	return p > s ? p : NULL;
}

static const char *js_container(const char *p, int depth, char close, bool keys)
{
	p = js_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (keys) {
			p = js_string(js_ws(p));
			if (!p)
				return NULL;
			p = js_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = js_value(p, depth + 1);
		if (!p)
			return NULL;
		p = js_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *js_value(const char *p, int depth)
{
	if (depth > 16)
		return NULL;
	p = js_ws(p);
	switch (*p) {
	case '{':
		return js_container(p, depth, '}', true);
	case '[':
		return js_container(p, depth, ']', false);
	case '"':
		return js_string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return js_number(p);
	}
}

bool json_line_ok(const char *line)
{
	const char *end;

	if (*line != '{')
		return false;
	end = js_value(line, 0);
	return end && !*js_ws(end);
}

void fill_record(struct oq_audit_record *r, unsigned int n)
{
	memset(r, 0, sizeof(*r));
	r->time.tv_sec = 1700000000;
	r->time.tv_nsec = 123456789;
	r->requester_guid = 0x0002c90300001234ULL;
	r->requester_lid = (uint16_t)n;
	r->method = OQ_AUDIT_GETTABLE;
	r->attr = OQ_AUDIT_PATH_RECORD;
	r->comp_mask = 0x1234;
	r->has_sid = true;
	r->sid = 0x1000000000000001ULL;
	r->has_qos_class = true;
	r->qos_class = 7;
	r->src.guid = 0x0002c90300000001ULL;
	r->src.port = 1;
	snprintf(r->src.desc, sizeof(r->src.desc), "hca-a mlx4_0");
	/* The ports by a node-name map's names, as the bottleneck below. */
	snprintf(r->src.name, sizeof(r->src.name), "hca-a/P1");
	r->dst.guid = 0x0002c90300000002ULL;
	r->dst.port = 2;
	snprintf(r->dst.desc, sizeof(r->dst.desc), "hca-b mlx4_0");
	snprintf(r->dst.name, sizeof(r->dst.name), "hca-b/P2");
	r->policy_hash = 0xdeadbeef;
	r->rule = 3;
	snprintf(r->use, sizeof(r->use), "storage traffic");
	snprintf(r->level, sizeof(r->level), "gold");
	r->granted = true;
	r->g_sl = 2;
	r->g_mtu = 5;
	r->g_rate = 7;
	r->g_pkt_life = 18;
	r->g_pkey = 0xffff;
	r->has_prediction = true;
	r->predicted_gbps = 12.5;
	r->ceiling_gbps = 40;
	r->latency_us = 1.25;
	snprintf(r->bottleneck, sizeof(r->bottleneck), "sw1/P3 -> hca-b/P2");
}
