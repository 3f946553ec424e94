// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * promcheck FILE...: the strict Prometheus text-format checker as a
 * command, for tests/e2e/publish.sh.  Exit 0 when every file passes,
 * 1 when one does not, 2 when one cannot be read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "publish_promcheck.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *nb;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (cap - n < 65536) {
			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	int i, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: promcheck FILE...\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		char err[512];
		size_t len = 0;
		char *text = slurp(argv[i], &len);
		long n;

		if (!text) {
			fprintf(stderr, "promcheck: cannot read %s: %s\n",
				argv[i], strerror(errno));
			return 2;
		}
		n = oq_promcheck(text, len, err, sizeof(err));
		free(text);
		if (n < 0) {
			fprintf(stderr, "%s: %s\n", argv[i], err);
			rc = 1;
		} else {
			printf("%s: ok, %ld samples\n", argv[i], n);
		}
	}
	return rc;
}
