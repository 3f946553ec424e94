// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A job's traffic class: see job_class.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "job_class.h"

static const char *const kind_names[] = {
	[OQ_JC_NONE] = "none", [OQ_JC_PLAIN] = "plain",
	[OQ_JC_SID] = "sid",   [OQ_JC_QOS_CLASS] = "qos-class",
	[OQ_JC_PKEY] = "pkey", [OQ_JC_LEVEL] = "level",
};

#define N_KINDS (sizeof(kind_names) / sizeof(kind_names[0]))

/* A level name as the policy language allows one: no blanks, quotes,
 * commas or control bytes, and at most OQ_JOB_LEVEL_NAME_MAX bytes. */
static int level_name_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (!n || n > OQ_JOB_LEVEL_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch <= ' ' || ch == 0x7f || ch == '"' || ch == ',' ||
		    ch == '#' || ch == ':' || ch >= 0x80)
			return 0;
	}
	return 1;
}

int oq_job_class_parse(const char *kind, const char *value,
		       struct oq_job_class *c, char *err, size_t errlen)
{
	unsigned long long v, max = 0;
	size_t k;

	memset(c, 0, sizeof(*c));
	for (k = 0; k < N_KINDS; k++)
		if (!strcmp(kind, kind_names[k]))
			break;
	if (k == N_KINDS) {
		snprintf(err, errlen,
			 "'%s' is no class; give sid N, qos-class N, pkey N, "
			 "level NAME, plain or none",
			 kind);
		return -1;
	}
	c->kind = (enum oq_job_class_kind)k;
	if (c->kind == OQ_JC_NONE || c->kind == OQ_JC_PLAIN) {
		if (value) {
			snprintf(err, errlen, "'%s' takes no value ('%s')",
				 kind, value);
			return -1;
		}
		return 0;
	}
	if (!value || !*value) {
		snprintf(err, errlen, "'%s' needs a value", kind);
		return -1;
	}
	if (c->kind == OQ_JC_LEVEL) {
		if (!level_name_ok(value)) {
			snprintf(err, errlen,
				 "'%.80s' is no level name (1 to %d bytes of "
				 "ASCII, no blanks, quotes, commas, '#' or "
				 "':')",
				 value, OQ_JOB_LEVEL_NAME_MAX);
			return -1;
		}
		strcpy(c->level, value);
		return 0;
	}
	switch (c->kind) {
	case OQ_JC_SID:
		max = UINT64_MAX;
		break;
	case OQ_JC_QOS_CLASS:
		max = 0xfff;
		break;
	default: /* OQ_JC_PKEY */
		max = 0xffff;
		break;
	}
	if (oq_parse_u64(value, &v) || v > max) {
		snprintf(err, errlen,
			 "%s '%.80s' is not a number in 0..%llu (decimal or "
			 "0x hex, no leading 0)",
			 kind, value, max);
		return -1;
	}
	if (c->kind == OQ_JC_PKEY && oq_job_pkey_check(v, err, errlen))
		return -1;
	c->value = c->kind == OQ_JC_PKEY ? (v & 0x7fff) : v;
	return 0;
}

int oq_job_pkey_check(uint64_t v, char *err, size_t errlen)
{
	if (v > 0xffff) {
		snprintf(err, errlen,
			 "pkey 0x%llx is no P_Key (16 bits); give one of "
			 "0x0001..0x7fff as partitions.conf defines it",
			 (unsigned long long)v);
		return -1;
	}
	/* IBA: 0x0000 and 0x8000 are the invalid P_Key; no partition has
	 * it, so a job given it could only be refused. */
	if (!(v & 0x7fff)) {
		snprintf(err, errlen,
			 "pkey 0x%04llx is the invalid P_Key (0x0000, or "
			 "0x8000 with the membership bit), which no partition "
			 "has; give one of 0x0001..0x7fff as partitions.conf "
			 "defines it (the membership bit is ignored)",
			 (unsigned long long)v);
		return -1;
	}
	return 0;
}

int oq_job_class_parse_word(const char *word, struct oq_job_class *c, char *err,
			    size_t errlen)
{
	const char *colon = strchr(word, ':');
	char kind[16];
	size_t n;

	if (!colon)
		return oq_job_class_parse(word, NULL, c, err, errlen);
	n = (size_t)(colon - word);
	if (n >= sizeof(kind)) {
		snprintf(err, errlen,
			 "'%.80s' is no class; give sid:N, qos-class:N, "
			 "pkey:N, level:NAME, plain or none",
			 word);
		return -1;
	}
	memcpy(kind, word, n);
	kind[n] = '\0';
	return oq_job_class_parse(kind, colon + 1, c, err, errlen);
}

int oq_job_class_format(const struct oq_job_class *c, char *buf, size_t len)
{
	switch (c->kind) {
	case OQ_JC_SID:
		return snprintf(buf, len, "sid 0x%016" PRIx64, c->value);
	case OQ_JC_QOS_CLASS:
		return snprintf(buf, len, "qos-class %" PRIu64, c->value);
	case OQ_JC_PKEY:
		return snprintf(buf, len, "pkey 0x%04" PRIx64, c->value);
	case OQ_JC_LEVEL:
		return snprintf(buf, len, "level %s", c->level);
	case OQ_JC_PLAIN:
		return snprintf(buf, len, "plain");
	default:
		return snprintf(buf, len, "none");
	}
}
