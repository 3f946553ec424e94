/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A job's traffic class for `osmqos job-env`: what its PathRecord queries
 * would carry (a Service ID, a QoS class, a P_Key, nothing) or a QoS level
 * of the policy named directly; or "none" (export nothing).  The same words
 * on the command line, in the mapping file and in a job's own request.
 */
#ifndef OSMQOS_JOB_CLASS_H
#define OSMQOS_JOB_CLASS_H

#include <stddef.h>
#include <stdint.h>

enum oq_job_class_kind {
	OQ_JC_NONE,	 /* export nothing: the stacks keep their defaults */
	OQ_JC_PLAIN,	 /* a PathRecord with no class component */
	OQ_JC_SID,	 /* ServiceID */
	OQ_JC_QOS_CLASS, /* QoS class, 12 bits */
	OQ_JC_PKEY,	 /* P_Key (membership bit ignored) */
	OQ_JC_LEVEL,	 /* a qos-level of the policy, by name */
};

#define OQ_JOB_LEVEL_NAME_MAX 63

struct oq_job_class {
	enum oq_job_class_kind kind;
	uint64_t value; /* SID, QoS class or P_Key */
	char level[OQ_JOB_LEVEL_NAME_MAX + 1];
};

/*
 * kind is "none", "plain", "sid", "qos-class", "pkey" or "level"; value
 * the number (decimal or 0x hex) or level name, NULL for none and plain.
 * Returns 0, or -1 with a sentence in err (what is wrong, what is valid).
 */
int oq_job_class_parse(const char *kind, const char *value,
		       struct oq_job_class *c, char *err, size_t errlen);
/* "kind:value" (a job's request, "qos-class:5") or a lone "none"/"plain". */
int oq_job_class_parse_word(const char *word, struct oq_job_class *c, char *err,
			    size_t errlen);
/* A P_Key a job can use (not 0x0000 or 0x8000, the invalid P_Key, and
 * at most 0xffff): 0, or -1 with a sentence in err. */
int oq_job_pkey_check(uint64_t v, char *err, size_t errlen);
/* "sid 0x0000000000010001", "qos-class 5", "pkey 0x0003", "level gold",
 * "plain", "none"; returns what snprintf returns. */
int oq_job_class_format(const struct oq_job_class *c, char *buf, size_t len);

#endif /* OSMQOS_JOB_CLASS_H */
