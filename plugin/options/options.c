// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* event_plugin_options parsing: see options.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <osmqos/file.h>

#include "options.h"

struct opt_key {
	const char *name;
	size_t off;
};

#define OPT(n) { #n, offsetof(struct oq_plugin_options, n) }
/* One key per line: tests/man-pages.sh reads them from here. */
/* clang-format off */
static const struct opt_key opt_keys[] = {
	OPT(policy),
	OPT(audit),
	OPT(publish_dir),
	OPT(opensm_policy),
	OPT(publish_detail),
	OPT(publish_interval),
	OPT(malloc_trim),
};
/* clang-format on */

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

/* Does opensm load a plugin named w (n bytes) from event_plugin_name's
 * value names?  As its load_plugins() splits it: the first name ends at a
 * comma or a blank, the others at a blank only. */
static bool names_word(const char *names, const char *w, size_t n)
{
	char *copy = strdup(names), *p, *name;
	bool found = false;

	if (!copy)
		return true; /* out of memory: left to the others, as before */
	for (name = strtok_r(copy, ", \t\n", &p); name && *name && !found;
	     name = strtok_r(NULL, " \t\n", &p))
		found = strlen(name) == n && !strncmp(name, w, n);
	free(copy);
	return found;
}

/* Stores the value; *slot_out is the slot set (NULL for another
 * plugin's key).  Returns the number of errors (0 or 1). */
static int set_key(struct oq_plugin_options *o, const char *key, size_t klen,
		   const char *val, size_t vlen, const char *plugins,
		   char ***slot_out, unsigned int *said, oq_opt_error_fn err,
		   void *ctx)
{
	const char *dot;
	size_t i;

	*slot_out = NULL;
	if (klen >= 7 && !strncmp(key, "osmqos.", 7)) {
		key += 7;
		klen -= 7;
		if (!klen) {
			report(err, ctx,
			       "event_plugin_options: 'osmqos.=%.*s' has no "
			       "key after 'osmqos.' (osmqos.key=value)",
			       (int)vlen, val);
			return 1;
		}
	} else if ((dot = memchr(key, '.', klen))) {
		/* Another plugin's key, when opensm loads that plugin: a
		 * typo (publish.dir) must not pass for one. */
		if (!plugins || names_word(plugins, key, (size_t)(dot - key)))
			return 0;
		report(err, ctx,
		       "event_plugin_options: unknown key '%.*s': no plugin "
		       "'%.*s' is named in event_plugin_name (%s); osmqos's "
		       "keys have no prefix (or osmqos.), another plugin's "
		       "its name",
		       (int)klen, key, (int)(dot - key), key, plugins);
		return 1;
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
		/* Said once, however often it is given again. */
		if (*slot && !(*said & 1u << i))
			report(err, ctx,
			       "event_plugin_options: '%.*s' is given more "
			       "than once; the last value (%.*s) is used",
			       (int)klen, key, (int)vlen, val);
		if (*slot)
			*said |= 1u << i;
		free(*slot);
		*slot = strndup(val, vlen);
		*slot_out = slot;
		return *slot ? 0 : 1;
	}
	report(err, ctx,
	       "event_plugin_options: unknown key '%.*s' (known: policy, "
	       "audit, publish_dir, opensm_policy, publish_detail, "
	       "publish_interval, malloc_trim; prefix another plugin's keys "
	       "with its name and a dot)",
	       (int)klen, key);
	return 1;
}

static bool is_sep(char c)
{
	return c == ' ' || c == '\t' || c == ',';
}

/* The end of the token at p: up to a separator outside quotes.  Sets
 * *open when a quote is not closed. */
static const char *token_end(const char *p, bool *open)
{
	char q = 0;

	*open = false;
	for (; *p; p++) {
		if (q) {
			if (*p == q)
				q = 0;
		} else if (*p == '"' || *p == '\'') {
			q = *p;
		} else if (is_sep(*p)) {
			break;
		}
	}
	*open = q != 0;
	return p;
}

/* A value "..." or '...' loses its quotes; quotes elsewhere in it are an
 * error (there is no escape). */
static bool unquote(const char **val, size_t *vlen)
{
	const char *v = *val;
	size_t n = *vlen;

	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0] &&
	    !memchr(v + 1, v[0], n - 2)) {
		*val = v + 1;
		*vlen = n - 2;
		return true;
	}
	return !memchr(v, '"', n) && !memchr(v, '\'', n);
}

int oq_plugin_options_parse(struct oq_plugin_options *o, const char *text,
			    oq_opt_error_fn err, void *ctx)
{
	return oq_plugin_options_parse_for(o, text, NULL, err, ctx);
}

int oq_plugin_options_parse_for(struct oq_plugin_options *o, const char *text,
				const char *plugins, oq_opt_error_fn err,
				void *ctx)
{
	const char *p = text, *last_tok = NULL;
	char **last_slot = NULL;
	size_t last_len = 0;
	unsigned int said = 0; /* keys said to be given more than once */
	int errors = 0;

	memset(o, 0, sizeof(*o));
	if (!p)
		return 0;
	while (*p) {
		const char *tok, *eq, *val;
		bool blank_before = false, open;
		char **slot = NULL;
		size_t len, vlen;
		int bad;

		while (is_sep(*p)) {
			blank_before |= *p != ',';
			p++;
		}
		if (!*p)
			break;
		tok = p;
		p = token_end(p, &open);
		len = (size_t)(p - tok);
		eq = memchr(tok, '=', len);
		val = eq ? eq + 1 : NULL;
		vlen = eq ? len - (size_t)(eq - tok) - 1 : 0;
		if (!eq || eq == tok) {
			report(err, ctx,
			       "event_plugin_options: '%.*s' is not key=value",
			       (int)len, tok);
			bad = 1;
		} else if (open || !unquote(&val, &vlen)) {
			report(err, ctx,
			       "event_plugin_options: '%.*s': %s; not applied",
			       (int)len, tok,
			       open ? "a quote is not closed"
				    : "quotes must enclose the whole value");
			bad = 1;
		} else {
			bad = set_key(o, tok, (size_t)(eq - tok), val, vlen,
				      plugins, &slot, &said, err, ctx);
		}
		/* "audit=/a b/c", "policy=/x,y.conf": a word after a
		 * separator that is no key=value is the rest of the
		 * previous value, so that value is not applied either.  (A
		 * key=value word cannot be told from a new option.) */
		if (bad && !eq && last_slot) {
			report(err, ctx,
			       "event_plugin_options: '%.*s%c%.*s': a value "
			       "with a blank or a comma must be quoted "
			       "(key=\"a b\"); '%.*s' is not applied",
			       (int)last_len, last_tok,
			       blank_before ? ' ' : ',', (int)len, tok,
			       (int)last_len, last_tok);
			free(*last_slot);
			*last_slot = NULL;
			bad++;
		}
		errors += bad;
		last_slot = bad ? NULL : slot;
		last_tok = tok;
		last_len = len;
	}
	return errors;
}

void oq_plugin_options_free(struct oq_plugin_options *o)
{
	free(o->policy);
	free(o->audit);
	free(o->publish_dir);
	free(o->opensm_policy);
	free(o->publish_detail);
	free(o->publish_interval);
	free(o->malloc_trim);
	memset(o, 0, sizeof(*o));
}

bool oq_plugin_options_cut(const char *text)
{
	/* Blanks after the key, or at the cut (clean_val() drops them),
	 * leave a cut value shorter: then it goes unnoticed here. */
	return text && strlen(text) >= OQ_PLUGIN_OPTIONS_CUT;
}

int oq_plugin_options_format(const struct oq_plugin_options *o, char *buf,
			     size_t len)
{
	return snprintf(
		buf, len,
		"policy=%s audit=%s publish_dir=%s opensm_policy=%s "
		"publish_detail=%s publish_interval=%s malloc_trim=%s",
		o->policy ? o->policy : "(qos_policy_file)",
		o->audit ? o->audit : "(default)",
		o->publish_dir ? o->publish_dir : "(default)",
		o->opensm_policy ? o->opensm_policy : "copy",
		o->publish_detail ? o->publish_detail : "classes",
		o->publish_interval ? o->publish_interval
				    : OQ_STR(OQ_PUBLISH_INTERVAL_DEFAULT),
		o->malloc_trim ? o->malloc_trim : "0");
}

bool oq_plugin_audit_off(const char *v)
{
	return v && (!strcasecmp(v, "off") || !strcasecmp(v, "none"));
}

int oq_plugin_option_number(const char *v, unsigned long max, unsigned long *n)
{
	unsigned long x;
	char *end;

	if (!v || *v < '0' || *v > '9')
		return -1;
	errno = 0;
	x = strtoul(v, &end, 10);
	if (*end || errno || x > max)
		return -1;
	*n = x;
	return 0;
}

int oq_plugin_option_switch(const char *v, bool *on)
{
	unsigned long n = 0;
	int rc = v ? oq_plugin_option_number(v, 1, &n) : 0;

	*on = !rc && n == 1;
	return rc;
}

unsigned int oq_plugin_opt_interval(const struct oq_plugin_options *o,
				    char *why, size_t len)
{
	unsigned long n;

	*why = '\0';
	if (!o->publish_interval)
		return OQ_PUBLISH_INTERVAL_DEFAULT;
	if (!oq_plugin_option_number(o->publish_interval,
				     OQ_PUBLISH_INTERVAL_MAX, &n))
		return (unsigned int)n;
	snprintf(why, len,
		 "publish_interval=%s is not a number of seconds from 0 to "
		 "%d; using %d",
		 o->publish_interval, OQ_PUBLISH_INTERVAL_MAX,
		 OQ_PUBLISH_INTERVAL_DEFAULT);
	return OQ_PUBLISH_INTERVAL_DEFAULT;
}

/* A key with two words, the first its default: 0 for it (or no value),
 * 1 for the second; anything else is the default, said in why. */
static int one_of_two(const char *key, const char *v, const char *first,
		      const char *second, const char *fallback, char *why,
		      size_t len)
{
	*why = '\0';
	if (!v || !strcmp(v, first))
		return 0;
	if (!strcmp(v, second))
		return 1;
	snprintf(why, len, "%s=%s is neither '%s' nor '%s'; %s", key, v, first,
		 second, fallback);
	return 0;
}

bool oq_plugin_opt_detail_ports(const struct oq_plugin_options *o, char *why,
				size_t len)
{
	return one_of_two("publish_detail", o->publish_detail, "classes",
			  "ports", "publishing classes", why, len);
}

bool oq_plugin_opt_trim(const struct oq_plugin_options *o, char *why,
			size_t len)
{
	bool on;

	*why = '\0';
	if (oq_plugin_option_switch(o->malloc_trim, &on))
		snprintf(why, len, "malloc_trim=%s is neither 0 nor 1; using 0",
			 o->malloc_trim);
	return on;
}

bool oq_plugin_opt_copy(const struct oq_plugin_options *o, char *why,
			size_t len)
{
	return !one_of_two("opensm_policy", o->opensm_policy, "copy", "direct",
			   "using copy", why, len);
}

int oq_plugin_options_check(const struct oq_plugin_options *o,
			    oq_opt_error_fn err, void *ctx)
{
	char why[4][320];
	int i, n = 0;

	oq_plugin_opt_interval(o, why[0], sizeof(why[0]));
	oq_plugin_opt_detail_ports(o, why[1], sizeof(why[1]));
	oq_plugin_opt_trim(o, why[2], sizeof(why[2]));
	oq_plugin_opt_copy(o, why[3], sizeof(why[3]));
	for (i = 0; i < 4; i++)
		if (why[i][0]) {
			n++;
			if (err)
				err(ctx, why[i]);
		}
	return n;
}

char *oq_plugin_path_absolute(const char *path)
{
	char *cwd, *abs;
	size_t n;

	if (path[0] == '/')
		return strdup(path);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return NULL;
	n = strlen(cwd) + strlen(path) + 2;
	abs = malloc(n);
	if (abs)
		snprintf(abs, n, "%s%s%s", cwd,
			 cwd[strlen(cwd) - 1] == '/' ? "" : "/", path);
	free(cwd);
	return abs;
}

int oq_plugin_options_absolute(struct oq_plugin_options *o)
{
	char **slots[] = {&o->policy, &o->publish_dir, &o->audit};
	int n = 0;
	size_t i;

	for (i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
		char *abs;

		if (!*slots[i] || !**slots[i] || **slots[i] == '/' ||
		    (slots[i] == &o->audit && oq_plugin_audit_off(o->audit)))
			continue;
		abs = oq_plugin_path_absolute(*slots[i]);
		if (!abs)
			return -1;
		free(*slots[i]);
		*slots[i] = abs;
		n++;
	}
	return n;
}

const char *oq_plugin_publish_dir(const struct oq_plugin_options *o)
{
	if (o->publish_dir && *o->publish_dir)
		return o->publish_dir;
	return oq_cache_dir();
}
