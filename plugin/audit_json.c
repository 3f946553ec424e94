// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Audit record -> one JSON line.  See docs/audit.md for the keys.  Every
 * string is escaped and made valid UTF-8 (NodeDescription is raw bytes
 * from the fabric), so each line parses on its own.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "audit.h"

/* Bounded append buffer: once something does not fit, everything after is
 * ignored and the result is reported as not fitting. */
struct jbuf {
	char *p;
	size_t len, pos;
	bool overflow;
};

static void put(struct jbuf *b, const char *s, size_t n)
{
	if (b->overflow || n > b->len - b->pos) {
		b->overflow = true;
		return;
	}
	memcpy(b->p + b->pos, s, n);
	b->pos += n;
}

static void puts_(struct jbuf *b, const char *s)
{
	put(b, s, strlen(s));
}

static void putf(struct jbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void putf(struct jbuf *b, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(tmp)) {
		b->overflow = true;
		return;
	}
	put(b, tmp, (size_t)n);
}

/* Length of a valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	size_t need, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (need > n)
		return 0;
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong, surrogates, beyond U+10FFFF */
	if ((need == 3 && cp < 0x800) || (need == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return need;
}

/* "text" from at most max bytes of s (stops at a NUL). */
static void put_str(struct jbuf *b, const char *s, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strnlen(s, max), i = 0;

	put(b, "\"", 1);
	while (i < n) {
		unsigned char c = u[i];
		size_t k;

		switch (c) {
		case '"':
			put(b, "\\\"", 2);
			i++;
			continue;
		case '\\':
			put(b, "\\\\", 2);
			i++;
			continue;
		case '\n':
			put(b, "\\n", 2);
			i++;
			continue;
		case '\r':
			put(b, "\\r", 2);
			i++;
			continue;
		case '\t':
			put(b, "\\t", 2);
			i++;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			putf(b, "\\u%04x", c);
			i++;
			continue;
		}
		k = utf8_seq(u + i, n - i);
		if (!k) {
			/* invalid byte: U+FFFD keeps the line valid JSON */
			put(b, "\\ufffd", 6);
			i++;
			continue;
		}
		put(b, s + i, k);
		i += k;
	}
	put(b, "\"", 1);
}

/* A string field, or null when empty. */
static void put_str_or_null(struct jbuf *b, const char *s, size_t max)
{
	if (!strnlen(s, max))
		puts_(b, "null");
	else
		put_str(b, s, max);
}

static void put_time(struct jbuf *b, const struct timespec *ts)
{
	struct tm tm;
	time_t t = ts->tv_sec;
	long us = ts->tv_nsec / 1000;
	char tmp[48];

	if (us < 0 || us > 999999)
		us = 0;
	if (!gmtime_r(&t, &tm) ||
	    !strftime(tmp, sizeof(tmp), "%Y-%m-%dT%H:%M:%S", &tm)) {
		puts_(b, "null");
		return;
	}
	putf(b, "\"%s.%06ldZ\"", tmp, us);
}

static void put_port(struct jbuf *b, const char *key,
		     const struct oq_audit_port *p)
{
	putf(b, ",\"%s\":{\"guid\":\"0x%016" PRIx64 "\",\"port\":%u,\"node\":",
	     key, p->guid, p->port);
	put_str(b, p->desc, sizeof(p->desc));
	puts_(b, "}");
}

static void put_gbps(struct jbuf *b, double v)
{
	/* %g: short for the usual values, bounded for absurd ones */
	if (isfinite(v))
		putf(b, "%.6g", v);
	else
		puts_(b, "null");
}

unsigned int oq_audit_mtu_bytes(uint8_t code)
{
	return code >= 1 && code <= 5 ? 128u << code : 0;
}

double oq_audit_rate_gbps(uint8_t code)
{
	/* IBTA rate encoding (PathRecord Rate, PortInfo rates). */
	static const double gbps[] = {
		[2] = 2.5,  [3] = 10,	[4] = 30,   [5] = 5,	[6] = 20,
		[7] = 40,   [8] = 60,	[9] = 80,   [10] = 120, [11] = 14,
		[12] = 56,  [13] = 112, [14] = 168, [15] = 25,	[16] = 100,
		[17] = 200, [18] = 300, [19] = 28,  [20] = 50,	[21] = 400,
		[22] = 600,
	};

	return code < sizeof(gbps) / sizeof(gbps[0]) ? gbps[code] : 0;
}

size_t oq_audit_format(const struct oq_audit_record *r, char *buf, size_t len)
{
	struct jbuf b = {buf, len, 0, false};

	puts_(&b, "{\"time\":");
	put_time(&b, &r->time);
	putf(&b, ",\"requester\":{\"guid\":\"0x%016" PRIx64 "\",\"lid\":%u}",
	     r->requester_guid, r->requester_lid);
	putf(&b, ",\"method\":\"%s\",\"attr\":\"%s\"",
	     r->method == OQ_AUDIT_GETTABLE ? "GetTable" : "Get",
	     r->attr == OQ_AUDIT_MULTIPATH_RECORD ? "MultiPathRecord"
						  : "PathRecord");

	putf(&b, ",\"query\":{\"comp_mask\":%" PRIu64, r->comp_mask);
	if (r->has_sid)
		putf(&b, ",\"service_id\":\"0x%016" PRIx64 "\"", r->sid);
	else
		puts_(&b, ",\"service_id\":null");
	if (r->has_qos_class)
		putf(&b, ",\"qos_class\":%u", r->qos_class);
	else
		puts_(&b, ",\"qos_class\":null");
	if (r->has_pkey)
		putf(&b, ",\"pkey\":%u", r->pkey);
	else
		puts_(&b, ",\"pkey\":null");
	if (r->has_sl)
		putf(&b, ",\"sl\":%u}", r->sl);
	else
		puts_(&b, ",\"sl\":null}");

	put_port(&b, "src", &r->src);
	put_port(&b, "dst", &r->dst);

	if (r->rule >= 0)
		putf(&b, ",\"rule\":%d", r->rule);
	else
		puts_(&b, ",\"rule\":null");
	puts_(&b, ",\"use\":");
	put_str_or_null(&b, r->use, sizeof(r->use));
	puts_(&b, ",\"level\":");
	put_str_or_null(&b, r->level, sizeof(r->level));

	if (r->granted) {
		unsigned int mtu = oq_audit_mtu_bytes(r->g_mtu);
		double rate = oq_audit_rate_gbps(r->g_rate);

		putf(&b, ",\"granted\":{\"sl\":%u,\"mtu\":", r->g_sl);
		if (mtu)
			putf(&b, "%u", mtu);
		else
			puts_(&b, "null");
		putf(&b, ",\"mtu_code\":%u,\"rate_gbps\":", r->g_mtu);
		if (rate > 0)
			put_gbps(&b, rate);
		else
			puts_(&b, "null");
		putf(&b, ",\"rate_code\":%u,\"packet_life\":%u,\"pkey\":%u",
		     r->g_rate, r->g_pkt_life, r->g_pkey);
		putf(&b, ",\"slid\":%u,\"dlid\":%u,\"records\":%u}", r->g_slid,
		     r->g_dlid, r->g_records);
	} else {
		puts_(&b, ",\"granted\":null");
	}
	putf(&b, ",\"sa_status\":%u", r->sa_status);
	if (!r->granted) {
		puts_(&b, ",\"reason\":");
		put_str_or_null(&b, r->reason, sizeof(r->reason));
	}

	if (r->granted && r->has_prediction) {
		puts_(&b, ",\"predicted\":{\"gbps\":");
		put_gbps(&b, r->predicted_gbps);
		puts_(&b, ",\"bottleneck\":");
		put_str_or_null(&b, r->bottleneck, sizeof(r->bottleneck));
		puts_(&b, "}");
	} else {
		puts_(&b, ",\"predicted\":null");
	}
	puts_(&b, "}\n");
	return b.overflow ? 0 : b.pos;
}
