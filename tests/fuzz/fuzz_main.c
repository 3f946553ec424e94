// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Plain driver for libFuzzer targets, so `make check` can replay the seed
 * corpus without clang: every argument is a file or a directory of files,
 * each fed once to LLVMFuzzerTestOneInput().  With no argument (as `make
 * check` runs it) it replays its own corpus: for fuzz_NAME the directory
 * $top_srcdir/tests/fuzz/corpus/NAME, then the directories the build gave
 * it in OQ_FUZZ_ALSO (colon-separated, relative to $top_srcdir).
 */
#define _GNU_SOURCE /* asprintf */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return 1;
	}
	do {
		if (len == cap) {
			uint8_t *nb;

			cap = cap ? cap * 2 : 4096;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return 1;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

#ifndef OQ_FUZZ_ALSO
#define OQ_FUZZ_ALSO ""
#endif

/* argv for the corpus of the program called prog; NULL on failure. */
static char **own_corpus(const char *prog, int *argc)
{
	const char *top = getenv("top_srcdir"), *base, *also = OQ_FUZZ_ALSO;
	char **v = calloc(2 + strlen(also), sizeof(*v));
	int n = 1;

	base = strrchr(prog, '/');
	base = base ? base + 1 : prog;
	if (!v || strncmp(base, "fuzz_", 5)) {
		fprintf(stderr, "%s: name it fuzz_NAME or give inputs\n", prog);
		free(v);
		return NULL;
	}
	if (!top || !*top)
		top = ".";
	v[0] = (char *)prog;
	if (asprintf(&v[n++], "%s/tests/fuzz/corpus/%s", top, base + 5) < 0)
		return NULL;
	while (*also) {
		size_t k = strcspn(also, ":");

		if (k && asprintf(&v[n++], "%s/%.*s", top, (int)k, also) < 0)
			return NULL;
		also += k + (also[k] == ':');
	}
	*argc = n;
	return v;
}

int main(int argc, char **argv)
{
	char **own = NULL;
	int i, files = 0, errs = 0, rc;

	if (argc == 1) {
		own = argv = own_corpus(argv[0], &argc);
		if (!argv)
			return 1;
	}

	for (i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *e;

		if (stat(argv[i], &st)) {
			perror(argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			errs += run_file(argv[i]);
			files++;
			continue;
		}
		d = opendir(argv[i]);
		if (!d) {
			perror(argv[i]);
			return 1;
		}
		while ((e = readdir(d))) {
			char p[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s", argv[i], e->d_name);
			errs += run_file(p);
			files++;
		}
		closedir(d);
	}
	printf("%s: %d inputs replayed\n", argv[0], files);
	rc = errs ? 1 : 0;
	for (i = 1; own && i < argc; i++)
		free(own[i]);
	free(own);
	return rc;
}
