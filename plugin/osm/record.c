// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A byte record of what a state was built from, compared as it is
 * rewritten: a sweep whose inputs are what the state in force was built
 * from reads the record and writes nothing, so deciding "nothing changed"
 * costs a pass over the inputs and no allocation.  Exact, not a hash: a
 * collision would keep stale tables on the wire.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "osm.h"

void oq_record_begin(struct oq_record *r)
{
	r->pos = 0;
	r->differs = r->invalid;
	r->invalid = false;
	r->n_marks = 0;
	r->marks_lost = false;
}

void oq_record_mark(struct oq_record *r)
{
	if (r->n_marks == r->cap_marks) {
		size_t cap = r->cap_marks ? r->cap_marks * 2 : 1024;
		uint32_t *v = realloc(r->marks, cap * sizeof(*v));

		if (!v) {
			r->marks_lost = true;
			return;
		}
		r->marks = v;
		r->cap_marks = cap;
	}
	/* A record past 4 GiB has no marks: nothing is derived from it. */
	if (r->pos > UINT32_MAX)
		r->marks_lost = true;
	r->marks[r->n_marks++] = (uint32_t)r->pos;
}

void oq_record_put(struct oq_record *r, const void *v, size_t n)
{
	size_t need = r->pos + n;

	if (r->invalid)
		return;
	if (!r->differs && need <= r->len && !memcmp(r->buf + r->pos, v, n)) {
		r->pos = need;
		return;
	}
	r->differs = true;
	if (need > r->cap) {
		size_t cap = r->cap ? r->cap : 4096;
		uint8_t *b;

		while (cap < need)
			cap *= 2;
		b = realloc(r->buf, cap);
		if (!b) {
			/* No record: this sweep's state cannot be built
			 * from it (the one in force stays), and the next
			 * sweep writes it whole again. */
			r->invalid = true;
			return;
		}
		r->buf = b;
		r->cap = cap;
	}
	memcpy(r->buf + r->pos, v, n);
	r->pos = need;
}

void oq_record_put_str(struct oq_record *r, const char *s)
{
	/* The length first, so "ab" "c" and "a" "bc" differ; the NUL too,
	 * so a record read back hands out the string in place. */
	uint32_t n = s ? (uint32_t)strlen(s) : UINT32_MAX;

	oq_record_put(r, &n, sizeof(n));
	if (s)
		oq_record_put(r, s, (size_t)n + 1);
}

bool oq_record_end(struct oq_record *r)
{
	bool differs = r->differs || r->pos != r->len || r->invalid;

	r->len = r->invalid ? 0 : r->pos;
	return differs;
}

void oq_record_forget(struct oq_record *r)
{
	r->invalid = true;
}

void oq_record_free(struct oq_record *r)
{
	free(r->buf);
	free(r->marks);
	memset(r, 0, sizeof(*r));
}
