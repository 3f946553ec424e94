// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* event_plugin_options parsing: see options.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/file.h>

#include "options.h"

struct opt_key {
	const char *name;
	size_t off;
};

#define OPT(n) { #n, offsetof(struct oq_plugin_options, n) }
static const struct opt_key opt_keys[] = {
	OPT(policy),
	OPT(audit),
	OPT(publish_dir),
	OPT(opensm_policy),
};

static void report(oq_opt_error_fn err, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void report(oq_opt_error_fn err, void *ctx, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err(ctx, msg);
}

static int set_key(struct oq_plugin_options *o, const char *key, size_t klen,
		   const char *val, size_t vlen, oq_opt_error_fn err, void *ctx)
{
	size_t i;

	if (klen > 7 && !strncmp(key, "osmqos.", 7)) {
		key += 7;
		klen -= 7;
	} else if (memchr(key, '.', klen)) {
		return 0; /* another plugin's key */
	}
	for (i = 0; i < sizeof(opt_keys) / sizeof(opt_keys[0]); i++) {
		char **slot;

		if (strlen(opt_keys[i].name) != klen ||
		    strncmp(opt_keys[i].name, key, klen))
			continue;
		if (!vlen) {
			report(err, ctx,
			       "event_plugin_options: '%.*s' needs a value "
			       "(key=value)",
			       (int)klen, key);
			return 1;
		}
		slot = (char **)((char *)o + opt_keys[i].off);
		free(*slot);
		*slot = strndup(val, vlen);
		return *slot ? 0 : 1;
	}
	report(err, ctx,
	       "event_plugin_options: unknown key '%.*s' (known: policy, "
	       "audit, publish_dir, opensm_policy; prefix another plugin's "
	       "keys with its name and a dot)",
	       (int)klen, key);
	return 1;
}

int oq_plugin_options_parse(struct oq_plugin_options *o, const char *text,
			    oq_opt_error_fn err, void *ctx)
{
	const char *p = text;
	int errors = 0;

	memset(o, 0, sizeof(*o));
	if (!p)
		return 0;
	while (*p) {
		const char *tok, *eq;
		size_t len;

		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (!*p)
			break;
		tok = p;
		while (*p && *p != ' ' && *p != '\t' && *p != ',')
			p++;
		len = (size_t)(p - tok);
		eq = memchr(tok, '=', len);
		if (!eq || eq == tok) {
			report(err, ctx,
			       "event_plugin_options: '%.*s' is not key=value",
			       (int)len, tok);
			errors++;
			continue;
		}
		errors += set_key(o, tok, (size_t)(eq - tok), eq + 1,
				  len - (size_t)(eq - tok) - 1, err, ctx);
	}
	return errors;
}

void oq_plugin_options_free(struct oq_plugin_options *o)
{
	free(o->policy);
	free(o->audit);
	free(o->publish_dir);
	free(o->opensm_policy);
	memset(o, 0, sizeof(*o));
}

int oq_plugin_options_format(const struct oq_plugin_options *o, char *buf,
			     size_t len)
{
	return snprintf(buf, len,
			"policy=%s audit=%s publish_dir=%s opensm_policy=%s",
			o->policy ? o->policy : "(qos_policy_file)",
			o->audit ? o->audit : "(default)",
			o->publish_dir ? o->publish_dir : "(default)",
			o->opensm_policy ? o->opensm_policy : "copy");
}

const char *oq_plugin_publish_dir(const struct oq_plugin_options *o)
{
	if (o->publish_dir && *o->publish_dir)
		return o->publish_dir;
	return oq_cache_dir();
}
