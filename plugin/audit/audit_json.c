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

#include <osmqos/json.h>

#include "audit.h"

/* Bounded append buffer: once something does not fit, everything after is
 * ignored and the result is reported as not fitting. */
struct jbuf {
	char *p;
	size_t len, pos;
	bool overflow;
};

static inline void put(struct jbuf *b, const char *s, size_t n)
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

/* A string literal: its length is known at compile time. */
#define PUTL(b, lit) put((b), "" lit, sizeof(lit) - 1)

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

/*
 * The writer formats every answered pair: hand-rolled number formatting
 * keeps a line near a microsecond (vsnprintf per field cost ~5 us).
 */
static void put_u64(struct jbuf *b, uint64_t v)
{
	char tmp[20];
	size_t n = 0;

	do {
		tmp[sizeof(tmp) - ++n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put(b, tmp + sizeof(tmp) - n, n);
}

#define put_key_u(b, key, v)                                                   \
	do {                                                                   \
		PUTL(b, key);                                                  \
		put_u64(b, v);                                                 \
	} while (0)

/* "0x%016" PRIx64, quoted. */
static void put_guid(struct jbuf *b, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[20];
	int i;

	tmp[0] = '"';
	tmp[1] = '0';
	tmp[2] = 'x';
	for (i = 0; i < 16; i++)
		tmp[3 + i] = hex[(v >> (60 - 4 * i)) & 0xf];
	tmp[19] = '"';
	put(b, tmp, sizeof(tmp));
}

static void put_cb(void *ctx, const char *s, size_t n)
{
	put(ctx, s, n);
}

/* "text" from at most max bytes of s (stops at a NUL). */
static void put_str(struct jbuf *b, const char *s, size_t max)
{
	put(b, "\"", 1);
	oq_json_escape(s, max, put_cb, b);
	put(b, "\"", 1);
}

/* A string field, or null when empty. */
static void put_str_or_null(struct jbuf *b, const char *s, size_t max)
{
	if (!strnlen(s, max))
		PUTL(b, "null");
	else
		put_str(b, s, max);
}

static void put_time(struct jbuf *b, const struct timespec *ts)
{
	/* The date part changes once a second: keep it per thread. */
	static __thread time_t last = -1;
	static __thread char date[32];
	static __thread size_t date_len;
	time_t t = ts->tv_sec;
	long us = ts->tv_nsec / 1000;
	char frac[10];
	struct tm tm;
	int i;

	if (us < 0 || us > 999999)
		us = 0;
	if (t != last) {
		if (!gmtime_r(&t, &tm) ||
		    !(date_len = strftime(date, sizeof(date),
					  "\"%Y-%m-%dT%H:%M:%S", &tm))) {
			last = -1;
			PUTL(b, "null");
			return;
		}
		last = t;
	}
	put(b, date, date_len);
	frac[0] = '.';
	for (i = 6; i >= 1; i--, us /= 10)
		frac[i] = (char)('0' + us % 10);
	frac[7] = 'Z';
	frac[8] = '"';
	put(b, frac, 9);
}

static void put_port(struct jbuf *b, const char *key,
		     const struct oq_audit_port *p)
{
	PUTL(b, ",\"");
	puts_(b, key);
	PUTL(b, "\":{\"guid\":");
	put_guid(b, p->guid);
	PUTL(b, ",\"port\":");
	put_u64(b, p->port);
	PUTL(b, ",\"node\":");
	put_str(b, p->desc, sizeof(p->desc));
	PUTL(b, ",\"name\":");
	put_str(b, p->name, sizeof(p->name));
	PUTL(b, "}");
}

/* Gb/s to the Mb/s (3 decimals, trailing zeros dropped) without printf;
 * absurd values with %g, bounded. */
static void put_gbps(struct jbuf *b, double v)
{
	uint64_t m, frac;
	double t;
	char tmp[4];
	int n = 3, i;

	if (!isfinite(v)) {
		PUTL(b, "null");
		return;
	}
	if (v < 0 || v >= 1e12) {
		putf(b, "%.6g", v);
		return;
	}
	/* Rounded half away from zero, as llround() (not linked: libm
	 * would be one more library mapped into opensm for one call). */
	t = v * 1000.0;
	m = (uint64_t)t;
	if (t - (double)m >= 0.5)
		m++;
	put_u64(b, m / 1000);
	frac = m % 1000;
	if (!frac)
		return;
	while (frac % 10 == 0) {
		frac /= 10;
		n--;
	}
	tmp[0] = '.';
	for (i = n; i >= 1; i--, frac /= 10)
		tmp[i] = (char)('0' + frac % 10);
	put(b, tmp, (size_t)n + 1);
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
	return oq_audit_format_n(r, 1, NULL, buf, len);
}

size_t oq_audit_format_n(const struct oq_audit_record *r, uint64_t count,
			 const struct timespec *last, char *buf, size_t len)
{
	struct jbuf b = {buf, len, 0, false};

	PUTL(&b, "{\"time\":");
	put_time(&b, &r->time);
	PUTL(&b, ",\"requester\":{\"guid\":");
	put_guid(&b, r->requester_guid);
	PUTL(&b, ",\"lid\":");
	put_u64(&b, r->requester_lid);
	puts_(&b, r->method == OQ_AUDIT_GETTABLE   ? "},\"method\":\"GetTable\""
		  : r->method == OQ_AUDIT_GETMULTI ? "},\"method\":\"GetMulti\""
						   : "},\"method\":\"Get\"");
	puts_(&b, r->attr == OQ_AUDIT_MULTIPATH_RECORD
			  ? ",\"attr\":\"MultiPathRecord\""
			  : ",\"attr\":\"PathRecord\"");

	PUTL(&b, ",\"query\":{\"comp_mask\":");
	put_u64(&b, r->comp_mask);
	PUTL(&b, ",\"service_id\":");
	if (r->has_sid)
		put_guid(&b, r->sid);
	else
		PUTL(&b, "null");
	PUTL(&b, ",\"qos_class\":");
	if (r->has_qos_class)
		put_u64(&b, r->qos_class);
	else
		PUTL(&b, "null");
	PUTL(&b, ",\"pkey\":");
	if (r->has_pkey)
		put_u64(&b, r->pkey);
	else
		PUTL(&b, "null");
	PUTL(&b, ",\"sl\":");
	if (r->has_sl)
		put_u64(&b, r->sl);
	else
		PUTL(&b, "null");
	PUTL(&b, "}");

	put_port(&b, "src", &r->src);
	put_port(&b, "dst", &r->dst);

	PUTL(&b, ",\"policy_hash\":");
	if (r->policy_hash)
		put_guid(&b, r->policy_hash);
	else
		PUTL(&b, "null");
	if (r->rule >= 0)
		put_key_u(&b, ",\"rule\":", (uint64_t)r->rule);
	else
		PUTL(&b, ",\"rule\":null");
	PUTL(&b, ",\"use\":");
	put_str_or_null(&b, r->use, sizeof(r->use));
	PUTL(&b, ",\"level\":");
	put_str_or_null(&b, r->level, sizeof(r->level));

	if (r->granted) {
		unsigned int mtu = oq_audit_mtu_bytes(r->g_mtu);
		double rate = oq_audit_rate_gbps(r->g_rate);

		put_key_u(&b, ",\"granted\":{\"sl\":", r->g_sl);
		if (mtu)
			put_key_u(&b, ",\"mtu\":", mtu);
		else
			PUTL(&b, ",\"mtu\":null");
		put_key_u(&b, ",\"mtu_code\":", r->g_mtu);
		PUTL(&b, ",\"rate_gbps\":");
		if (rate > 0)
			put_gbps(&b, rate);
		else
			PUTL(&b, "null");
		put_key_u(&b, ",\"rate_code\":", r->g_rate);
		put_key_u(&b, ",\"packet_life\":", r->g_pkt_life);
		put_key_u(&b, ",\"pkey\":", r->g_pkey);
		put_key_u(&b, ",\"slid\":", r->g_slid);
		put_key_u(&b, ",\"dlid\":", r->g_dlid);
		put_key_u(&b, ",\"records\":", r->g_records);
		PUTL(&b, "}");
	} else {
		PUTL(&b, ",\"granted\":null");
	}
	put_key_u(&b, ",\"sa_status\":", r->sa_status);
	if (!r->granted) {
		PUTL(&b, ",\"reason\":");
		if (r->reason)
			put_str_or_null(&b, r->reason, OQ_AUDIT_LEVEL_LEN);
		else
			PUTL(&b, "null");
	}

	if (r->granted && r->has_prediction) {
		PUTL(&b, ",\"predicted\":{\"gbps\":");
		put_gbps(&b, r->predicted_gbps);
		/* Which figure gbps is: the SL's own where it is alone on
		 * its VL at every hop, else its VL group's. */
		if (r->predicted_shared)
			PUTL(&b, ",\"basis\":\"vl-group\"");
		else
			PUTL(&b, ",\"basis\":\"sl\"");
		PUTL(&b, ",\"ceiling_gbps\":");
		put_gbps(&b, r->ceiling_gbps);
		PUTL(&b, ",\"latency_us\":");
		if (r->latency_us >= 0)
			put_gbps(&b, r->latency_us);
		else
			PUTL(&b, "null");
		if (r->latency_bound)
			PUTL(&b, ",\"latency_is_bound\":true");
		PUTL(&b, ",\"bottleneck\":");
		put_str_or_null(&b, r->bottleneck, sizeof(r->bottleneck));
		if (r->intent_bp > 0 || r->intent_lat_ns) {
			PUTL(&b, ",\"intent\":{");
			if (r->intent_bp > 0) {
				PUTL(&b, "\"pct\":");
				put_gbps(&b, r->intent_bp / 100.0);
				PUTL(&b, ",\"gbps\":");
				put_gbps(&b, r->intent_gbps);
			}
			if (r->intent_lat_ns) {
				if (r->intent_bp > 0)
					PUTL(&b, ",");
				PUTL(&b, "\"latency_us_per_hop\":");
				put_gbps(&b, (double)r->intent_lat_ns / 1000.0);
			}
			PUTL(&b, "}");
		}
		PUTL(&b, "}");
	} else {
		PUTL(&b, ",\"predicted\":null");
	}
	put_key_u(&b, ",\"count\":", count);
	if (count > 1 && last) {
		PUTL(&b, ",\"time_last\":");
		put_time(&b, last);
	}
	PUTL(&b, "}\n");
	return b.overflow ? 0 : b.pos;
}
