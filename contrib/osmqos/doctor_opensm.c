// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `osmqos doctor`: what the running plugin publishes of OpenSM's own
 * parse of the policy file it reads (osmqos_policy_opensm_refused in
 * osmqos.prom).  An edit of partitions.conf that drops a partition a
 * qos-ulps ipoib line names leaves OpenSM refusing the copy of the
 * policy in force at every sweep while the plugin applies it: every file
 * doctor reads itself can look right then.  Nothing published (opensm
 * not started yet, or a plugin that does not say): no line.  A
 * publication the master no longer rewrites (published.h's rule, as
 * `osmqos status` applies it) speaks for an opensm that has stopped or
 * is not master: a warning, not a word on the running one.
 */
#include <config.h>

#include <stdio.h>
#include <time.h>

#include <osmqos/advice.h>
#include <osmqos/file.h>

#include "doctor.h"
#include "published.h"

void doctor_opensm_parse(struct doctor_report *r, const char *dir)
{
	const struct oq_prom_sample *x;
	const char *path;
	struct oq_prom prom;
	char file[4096], at[32] = "";
	double since, age;
	time_t t;
	struct tm tm;
	size_t bad;

	if (!oq_pub_path(dir, OQ_PUB_PROM, file, sizeof(file)) ||
	    oq_prom_load(file, &prom, &bad))
		return;
	x = oq_prom_find(&prom, "osmqos_policy_opensm_refused", NULL, NULL);
	path = x ? oq_prom_label(x, "path") : NULL;
	if (x && oq_prom_stale(&prom, (double)time(NULL), &age)) {
		doctor_check(r, DOCTOR_WARN, "opensm-policy",
			     OQ_PUB_STALE_FIX
			     ", then run doctor again (osmqos status says the "
			     "same)",
			     "%s: last published by an opensm that is no "
			     "longer running or not master (%.0f s ago); that "
			     "OpenSM's own parser %s %s then says nothing of "
			     "an opensm running now",
			     file, age, x->value > 0 ? "refused" : "held",
			     path ? path : "the policy file it reads");
	} else if (x && x->value > 0) {
		since = 0;
		x = oq_prom_find(
			&prom, "osmqos_policy_opensm_refused_timestamp_seconds",
			NULL, NULL);
		if (x)
			since = x->value;
		t = (time_t)since;
		if (since > 0 && gmtime_r(&t, &tm))
			strftime(at, sizeof(at), " since %Y-%m-%dT%H:%M:%SZ",
				 &tm);
		doctor_check(r, DOCTOR_WARN, "opensm-policy",
			     "opensm's log says why (ERR AC0x), and so does "
			     "the partitions check above: "
			     OQ_ADVICE_OPENSM_REFUSED,
			     "the running opensm's own parser refuses %s%s "
			     "(published in %s): OpenSM runs without a policy "
			     "of its own while osmqos applies it",
			     path ? path : "the policy file it reads", at,
			     file);
	} else if (x) {
		doctor_check(r, DOCTOR_OK, "opensm-policy", NULL,
			     "the running opensm's own parser holds %s (as "
			     "published in %s)",
			     path ? path : "the policy file it reads", file);
	}
	oq_prom_free(&prom);
}
