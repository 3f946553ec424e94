// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Where opensm's dlopen() finds the plugin.  OpenSM opens
 * "lib" NAME ".so" by its bare name, so the loader searches
 * LD_LIBRARY_PATH, the ld.so cache and then its system directories: a
 * library copied into /usr/lib/<triplet> with no ldconfig run since is
 * not in the cache, and is loaded all the same.
 */
#include <config.h>

#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doctor_dlopen.h"

static bool in_dir(const char *dir, const char *name, char *out, size_t len)
{
	int n = snprintf(out, len, "%s/%s", dir, name);

	return *dir && n > 0 && (size_t)n < len && !access(out, R_OK);
}

static bool in_ld_library_path(const char *name, char *out, size_t len)
{
	const char *ldp = getenv("LD_LIBRARY_PATH");
	char *dirs, *save = NULL, *d;
	bool found = false;

	if (!ldp || !*ldp)
		return false;
	dirs = strdup(ldp);
	for (d = dirs ? strtok_r(dirs, ":", &save) : NULL; d && !found;
	     d = strtok_r(NULL, ":", &save))
		found = in_dir(d, name, out, len);
	free(dirs);
	return found;
}

/* `ldconfig -p`: "\tNAME (libc6,x86-64) => PATH". */
static bool in_cache(const char *name, char *out, size_t len)
{
	size_t n = strlen(name);
	char line[4096];
	bool found = false;
	FILE *p = popen("/sbin/ldconfig -p 2>/dev/null", "r");

	if (!p)
		return false;
	while (!found && fgets(line, sizeof(line), p)) {
		char *arrow = strstr(line, "=> ");

		if (line[0] != '\t' || strncmp(line + 1, name, n) ||
		    line[1 + n] != ' ' || !arrow)
			continue;
		arrow += 3;
		arrow[strcspn(arrow, "\n")] = '\0';
		found = snprintf(out, len, "%s", arrow) < (int)len;
	}
	pclose(p);
	return found;
}

/* The program interpreter of this very program: opensm is linked by the
 * same toolchain, so it runs under the same loader. */
static int interp_of(struct dl_phdr_info *info, size_t size, void *data)
{
	const char **interp = data;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_INTERP) {
			*interp = (const char *)(info->dlpi_addr +
						 info->dlpi_phdr[i].p_vaddr);
			return 1;
		}
	return 1; /* the first object is the program */
}

/* The loader's system directories, as `ld.so --help` lists them (glibc
 * 2.33 on): "  /usr/lib/x86_64-linux-gnu (system search path)". */
static bool in_system_dirs(const char *name, char *out, size_t len)
{
	static const char *const fallback[] = {"/lib64", "/usr/lib64", "/lib",
					       "/usr/lib"};
	static const char tag[] = " (system search path)";
	const char *interp = NULL;
	char cmd[4200], line[4096];
	bool listed = false, found = false;
	size_t i;
	FILE *p = NULL;

	dl_iterate_phdr(interp_of, &interp);
	if (interp && !strchr(interp, '\'') &&
	    snprintf(cmd, sizeof(cmd), "'%s' --help 2>/dev/null", interp) <
		    (int)sizeof(cmd))
		p = popen(cmd, "r");
	while (p && !found && fgets(line, sizeof(line), p)) {
		char *end = strstr(line, tag), *dir = line;

		if (!end)
			continue;
		listed = true;
		*end = '\0';
		dir += strspn(dir, " \t");
		found = in_dir(dir, name, out, len);
	}
	if (p)
		pclose(p);
	/* An older loader lists nothing: glibc's own defaults. */
	for (i = 0;
	     !listed && !found && i < sizeof(fallback) / sizeof(*fallback); i++)
		found = in_dir(fallback[i], name, out, len);
	return found;
}

bool doctor_find_library(const char *name, char *out, size_t len,
			 const char **where)
{
	*where = "LD_LIBRARY_PATH";
	if (in_ld_library_path(name, out, len))
		return true;
	*where = "the ld.so cache";
	if (in_cache(name, out, len))
		return true;
	*where = "the loader's system directories, not in the ld.so cache";
	return in_system_dirs(name, out, len);
}
