// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: atomic replacement of published files (oq_publish_replace
 * over policy/util/file_replace.c): mode 0644 whatever the umask, a
 * symlink at the target replaced and its target untouched, a failed write
 * leaves the old file and no temp file, errors come back as errno with a
 * reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "documents/documents.h"

struct dir {
	char path[256];
};

static int setup(void **state)
{
	struct dir *d = calloc(1, sizeof(*d));
	const char *tmp = getenv("TMPDIR");

	assert_non_null(d);
	snprintf(d->path, sizeof(d->path), "%s/oq-publish-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(d->path));
	*state = d;
	return 0;
}

static void rm_tree(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *e;
	char sub[512];
	struct stat st;

	if (!dir) {
		unlink(path);
		return;
	}
	while ((e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (!lstat(sub, &st) && S_ISDIR(st.st_mode))
			rm_tree(sub);
		else
			unlink(sub);
	}
	closedir(dir);
	rmdir(path);
}

static int teardown(void **state)
{
	struct dir *d = *state;

	rm_tree(d->path);
	free(d);
	return 0;
}

static int write_text(FILE *out, const void *ctx)
{
	fputs(ctx, out);
	return ferror(out) ? -1 : 0;
}

static int write_fails(FILE *out, const void *ctx)
{
	(void)ctx;
	fputs("partial", out);
	errno = ENOSPC;
	return -1;
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static size_t entries(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(dir);
	while ((e = readdir(dir)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(dir);
	return n;
}

static void in(const struct dir *d, const char *name, char *out, size_t len)
{
	snprintf(out, len, "%s/%s", d->path, name);
}

/* What a replacement left when its process died before the rename goes;
 * other names, files not of this temp pattern, and a fresh one (another
 * process writing it) stay. */
static void test_clean_leftovers(void **state)
{
	struct dir *d = *state;
	static const char *const left[] = {".out.json.ab12cd",
					   ".out.json.zz9900"};
	static const char *const kept[] = {
		".out.json.AB12CD", ".out.json.ab12c", ".other.json.ab12cd",
		"out.json", ".out.json.ab12cd.x"};
	char p[512];
	size_t i;

	/* Written two minutes ago: what a dead process left. */
	struct timespec old[2] = {{time(NULL) - 120, 0}, {time(NULL) - 120, 0}};
	int fd;

	for (i = 0; i < 2; i++) {
		in(d, left[i], p, sizeof(p));
		fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);
		assert_int_equal(futimens(fd, old), 0);
		close(fd);
	}
	for (i = 0; i < 5; i++) {
		in(d, kept[i], p, sizeof(p));
		fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);
		assert_int_equal(futimens(fd, old), 0);
		close(fd);
	}
	/* One being written now by another process: left alone. */
	in(d, ".out.json.new123", p, sizeof(p));
	close(open(p, O_WRONLY | O_CREAT | O_EXCL, 0600));
	assert_int_equal(oq_file_replace_clean(d->path, "out.json"), 2);
	assert_int_equal(entries(d->path), 6);
	assert_int_equal(oq_file_replace_clean(d->path, "out.json"), 0);
}

static void test_creates_with_mode_0644(void **state)
{
	struct dir *d = *state;
	char why[256], path[512];
	struct stat st;
	mode_t old = umask(077);

	assert_int_equal(oq_publish_replace(d->path, "osmqos.prom", write_text,
					    "one\n", why, sizeof(why)),
			 0);
	umask(old);
	in(d, "osmqos.prom", path, sizeof(path));
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_string_equal(slurp(path), "one\n");
	/* Replace: new content, still one file (no temp left). */
	assert_int_equal(oq_publish_replace(d->path, "osmqos.prom", write_text,
					    "two\n", why, sizeof(why)),
			 0);
	assert_string_equal(slurp(path), "two\n");
	assert_int_equal(entries(d->path), 1);
}

static void test_symlink_replaced_not_followed(void **state)
{
	struct dir *d = *state;
	char why[256], path[512], victim[512];
	struct stat st;
	FILE *f;

	in(d, "victim", victim, sizeof(victim));
	f = fopen(victim, "w");
	assert_non_null(f);
	fputs("precious\n", f);
	fclose(f);
	chmod(victim, 0600);
	in(d, "osmqos-bandwidth.json", path, sizeof(path));
	assert_int_equal(symlink(victim, path), 0);

	assert_int_equal(oq_publish_replace(d->path, "osmqos-bandwidth.json",
					    write_text, "{}\n", why,
					    sizeof(why)),
			 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_string_equal(slurp(path), "{}\n");
	assert_string_equal(slurp(victim), "precious\n");
	assert_int_equal(stat(victim, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	/* A dangling symlink is replaced the same way. */
	unlink(path);
	assert_int_equal(symlink("/nonexistent/osmqos-x", path), 0);
	assert_int_equal(oq_publish_replace(d->path, "osmqos-bandwidth.json",
					    write_text, "[]\n", why,
					    sizeof(why)),
			 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(entries(d->path), 2);
}

static void test_failed_write_keeps_old_file(void **state)
{
	struct dir *d = *state;
	char why[256], path[512];

	assert_int_equal(oq_publish_replace(d->path, "osmqos.prom", write_text,
					    "old\n", why, sizeof(why)),
			 0);
	why[0] = '\0';
	assert_int_equal(oq_publish_replace(d->path, "osmqos.prom", write_fails,
					    NULL, why, sizeof(why)),
			 ENOSPC);
	assert_non_null(strstr(why, "free space"));
	in(d, "osmqos.prom", path, sizeof(path));
	assert_string_equal(slurp(path), "old\n");
	assert_int_equal(entries(d->path), 1);
}

static void test_target_is_a_directory(void **state)
{
	struct dir *d = *state;
	char why[256], path[512];

	in(d, "osmqos.prom", path, sizeof(path));
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(oq_publish_replace(d->path, "osmqos.prom", write_text,
					    "x\n", why, sizeof(why)),
			 EISDIR);
	assert_non_null(strstr(why, "rename"));
	assert_int_equal(entries(d->path), 1);
}

static void test_missing_directory(void **state)
{
	struct dir *d = *state;
	char why[256], path[512];

	in(d, "nope", path, sizeof(path));
	assert_int_equal(oq_publish_replace(path, "osmqos.prom", write_text,
					    "x\n", why, sizeof(why)),
			 ENOENT);
	assert_non_null(strstr(why, "publish_dir="));
	/* A file where the directory should be. */
	in(d, "file", path, sizeof(path));
	fclose(fopen(path, "w"));
	assert_int_equal(oq_publish_replace(path, "osmqos.prom", write_text,
					    "x\n", why, sizeof(why)),
			 ENOTDIR);
	assert_int_equal(oq_publish_replace(d->path, "a/b", write_text, "x\n",
					    why, sizeof(why)),
			 EINVAL);
	assert_int_equal(oq_publish_replace("", "osmqos.prom", write_text,
					    "x\n", why, sizeof(why)),
			 EINVAL);
}

/* publish_dir= naming a symlink to a directory is followed (the
 * operator's own configuration). */
static void test_directory_symlink_followed(void **state)
{
	struct dir *d = *state;
	char why[256], real[512], link[512], path[600];

	in(d, "real", real, sizeof(real));
	in(d, "link", link, sizeof(link));
	assert_int_equal(mkdir(real, 0755), 0);
	assert_int_equal(symlink(real, link), 0);
	assert_int_equal(oq_publish_replace(link, "osmqos.prom", write_text,
					    "via link\n", why, sizeof(why)),
			 0);
	snprintf(path, sizeof(path), "%s/osmqos.prom", real);
	assert_string_equal(slurp(path), "via link\n");
}

static void test_unwritable_directory(void **state)
{
	struct dir *d = *state;
	char why[256];

	if (geteuid() == 0)
		skip(); /* root writes anyway */
	chmod(d->path, 0555);
	assert_int_equal(oq_publish_replace(d->path, "osmqos.prom", write_text,
					    "x\n", why, sizeof(why)),
			 EACCES);
	chmod(d->path, 0755);
	assert_non_null(strstr(why, "writable"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clean_leftovers, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_creates_with_mode_0644,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_symlink_replaced_not_followed, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_failed_write_keeps_old_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_target_is_a_directory,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_directory, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_directory_symlink_followed,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_unwritable_directory,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
