// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The parts of the published files that depend on the sweep state alone
 * (the JSON's predictions, the Prometheus fabric families) are most of
 * their bytes and of the time it takes to write them.  They are rendered
 * once per sweep state and kept: a sweep that kept its state writes
 * osmqos.prom again (new sweep number, time, counters, policy status)
 * around the parts it already has, and the JSON only when something it
 * says besides the sweep numbers and the time changed, or its file did.
 * The JSON's nodes list, the largest part, is kept per node across
 * states (oq_pred_nodes_keep): a new state renders only the entries of
 * the nodes whose ports or classes changed.
 */
#include <config.h>

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "publish.h"

/* One part into a new buffer; NULL when it could not be rendered. */
static char *render(void (*fn)(FILE *, const struct oq_publish_doc *),
		    const struct oq_publish_doc *d, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	int bad = !f;

	if (f) {
		fn(f, d);
		bad = ferror(f);
		bad |= fclose(f);
	}
	if (bad) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The levels of d as bytes: each one's name, SL and intents, all the
 * parts read of them before the predictions are added. */
static void levels_key(FILE *f, const struct oq_publish_doc *d)
{
	size_t i;

	for (i = 0; i < d->n_levels; i++) {
		const struct oq_publish_level *l = &d->levels[i];

		fprintf(f, "%s%c%u %d %d %" PRIu32 " %" PRIu64 "\n", l->name, 0,
			l->sl, l->intent_bp, l->high, l->sl_need_bp,
			l->latency_ns);
	}
}

bool oq_publish_parts_kept(struct oq_publish_parts *pp, uint64_t state_id,
			   uint64_t classes_id, const struct oq_publish_doc *d)
{
	size_t len = 0;
	char *key;
	bool same;

	if (!pp->state_id || pp->detail_ports != d->detail_ports)
		return false;
	if (pp->state_id == state_id)
		return true;
	if (!classes_id || pp->classes_id != classes_id || !pp->levels_key)
		return false;
	key = render(levels_key, d, &len);
	same = key && len == pp->levels_len &&
	       !memcmp(key, pp->levels_key, len);
	free(key);
	if (same)
		pp->state_id = state_id;
	return same;
}

void oq_publish_parts_use(const struct oq_publish_parts *pp,
			  struct oq_publish_doc *d)
{
	d->json_predictions = pp->json;
	d->json_predictions_len = pp->json_len;
	d->prom_fabric = pp->prom;
	d->prom_fabric_len = pp->prom_len;
	d->intent_ports_missed = pp->ports_missed;
	d->intent_ports_unchecked = pp->ports_unchecked;
	d->json_nodes = pp->nodes_ok ? &pp->nodes : NULL;
}

/* Everything but the nodes list, which the next render starts from. */
static void parts_clear(struct oq_publish_parts *pp)
{
	struct oq_pred_nodes_kept nodes = pp->nodes;

	free(pp->json);
	free(pp->prom);
	free(pp->levels_key);
	memset(pp, 0, sizeof(*pp));
	pp->nodes = nodes;
}

void oq_publish_parts_free(struct oq_publish_parts *pp)
{
	parts_clear(pp);
	oq_pred_nodes_kept_free(&pp->nodes);
}

static void json_part(FILE *out, const struct oq_publish_doc *d)
{
	oq_publish_write_json_predictions(out, d);
}

void oq_publish_parts_render(struct oq_publish_parts *pp, uint64_t state_id,
			     uint64_t classes_id, struct oq_publish_doc *d)
{
	parts_clear(pp);
	pp->json = render(json_part, d, &pp->json_len);
	pp->prom = render(oq_publish_prom_fabric, d, &pp->prom_len);
	/* Without its levels' key the parts serve their own state only. */
	pp->levels_key =
		classes_id ? render(levels_key, d, &pp->levels_len) : NULL;
	pp->nodes_ok = d->classes && d->fabric && d->tables &&
		       !oq_pred_nodes_keep(&pp->nodes, d->fabric, d->classes);
	/* Kept parts carry their nodes list: a later publication of the
	 * same state may have no classes at hand to render it from. */
	if (!pp->json || !pp->prom || !pp->nodes_ok) {
		/* Out of memory: d renders its parts itself, and the next
		 * publication tries again. */
		parts_clear(pp);
		return;
	}
	pp->state_id = state_id;
	pp->classes_id = classes_id;
	pp->detail_ports = d->detail_ports;
	pp->ports_missed = d->intent_ports_missed;
	pp->ports_unchecked = d->intent_ports_unchecked;
	pp->n_classified = d->classes ? d->classes->n_classified : 0;
	pp->n_classes = d->classes ? d->classes->n : 0;
	oq_publish_parts_use(pp, d);
}

char *oq_publish_json_key(const struct oq_publish_doc *d, size_t *len)
{
	struct oq_publish_doc d0 = *d;
	char *buf = NULL;
	FILE *f;
	int bad;

	d0.sweep = 0;
	d0.sweeps = 0;
	memset(&d0.now, 0, sizeof(d0.now));
	f = open_memstream(&buf, len);
	if (!f)
		return NULL;
	bad = oq_publish_write_json_head(f, &d0);
	bad |= fclose(f);
	if (bad) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int stat_file(const char *dir, const char *name, struct stat *st)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path))
		return -1;
	return lstat(path, st);
}

bool oq_publish_json_unchanged(const struct oq_publish_json_last *jl,
			       const char *dir, const char *name,
			       const char *key, size_t key_len,
			       uint64_t state_id)
{
	struct stat st;

	if (!jl->state_id || jl->state_id != state_id || !key || !jl->key ||
	    jl->key_len != key_len || memcmp(jl->key, key, key_len))
		return false;
	return !stat_file(dir, name, &st) && S_ISREG(st.st_mode) &&
	       st.st_dev == jl->dev && st.st_ino == jl->ino &&
	       st.st_size == jl->size &&
	       st.st_mtim.tv_sec == jl->mtime.tv_sec &&
	       st.st_mtim.tv_nsec == jl->mtime.tv_nsec &&
	       st.st_ctim.tv_sec == jl->ctime.tv_sec &&
	       st.st_ctim.tv_nsec == jl->ctime.tv_nsec;
}

void oq_publish_json_written(struct oq_publish_json_last *jl, const char *dir,
			     const char *name, char *key, size_t key_len,
			     uint64_t state_id, unsigned long sweep)
{
	struct stat st;

	oq_publish_json_forget(jl);
	if (!key || !state_id || stat_file(dir, name, &st)) {
		free(key);
		return;
	}
	jl->key = key;
	jl->key_len = key_len;
	jl->state_id = state_id;
	jl->sweep = sweep;
	jl->dev = st.st_dev;
	jl->ino = st.st_ino;
	jl->size = st.st_size;
	jl->mtime = st.st_mtim;
	jl->ctime = st.st_ctim;
}

void oq_publish_json_forget(struct oq_publish_json_last *jl)
{
	free(jl->key);
	memset(jl, 0, sizeof(*jl));
}
