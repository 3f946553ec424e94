// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `osmqos doctor`'s checks of the plugin library and the opensm binary:
 * where opensm's dlopen() finds libosmqos.so, and whether it was built
 * for this opensm's version and build options.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <osmqos/file.h>

#include "doctor.h"
#include "doctor_dlopen.h"
#include "doctor_elf.h"

/* The one NUL-terminated "OpenSM N.N.N" string in a binary file: what
 * OSM_VERSION compiled to.  false when there is none. */
static bool version_of(const char *path, char *out, size_t len)
{
	size_t n = 0, i;
	char *b = oq_file_read(path, 256u << 20, &n);
	bool found = false;

	if (!b)
		return false;
	for (i = 0; i + 7 < n && !found; i++) {
		size_t j = i + 7;

		if (memcmp(b + i, "OpenSM ", 7) || (i && b[i - 1]))
			continue;
		while (j < n && (isdigit((unsigned char)b[j]) || b[j] == '.'))
			j++;
		if (j < n && !b[j] && j > i + 7 && j - i < len) {
			memcpy(out, b + i, j - i);
			out[j - i] = '\0';
			found = true;
		}
	}
	free(b);
	return found;
}

/* The rest of the one NUL-terminated string in a binary file that starts
 * with tag.  false when there is none. */
static bool tag_of(const char *path, const char *tag, char *out, size_t len)
{
	size_t n = 0, i, t = strlen(tag);
	char *b = oq_file_read(path, 256u << 20, &n);
	bool found = false;

	if (!b)
		return false;
	for (i = 0; i + t < n && !found; i++) {
		if (memcmp(b + i, tag, t) || (i && b[i - 1]))
			continue;
		found = strnlen(b + i + t, n - i - t) < len &&
			strnlen(b + i + t, n - i - t) < n - i - t;
		if (found)
			strcpy(out, b + i + t);
	}
	free(b);
	return found;
}

/* How to rebuild the plugin for the opensm binary bin: against its
 * distribution's headers package when it is the system's, else against
 * the prefix it was installed under (PREFIX/sbin/opensm). */
static const char *rebuild_fix(const char *bin, char *fix, size_t len)
{
	char *abs = realpath(bin, NULL);
	const char *p = abs ? abs : bin, *slash = strrchr(p, '/');
	int n = slash && *p == '/' ? (int)(slash - p) : 0;

	if (!strncmp(p, "/usr/", 5) && strncmp(p, "/usr/local/", 11)) {
		snprintf(fix, len,
			 "rebuild the plugin against this opensm's headers "
			 "(%s) and reinstall it",
			 OQ_OSM_HEADERS_PACKAGE);
		free(abs);
		return fix;
	}
	if (n >= 5 && !strncmp(p + n - 5, "/sbin", 5))
		n -= 5;
	else if (n >= 4 && !strncmp(p + n - 4, "/bin", 4))
		n -= 4;
	snprintf(fix, len,
		 "rebuild the plugin against this opensm's headers and "
		 "reinstall it: ./configure --with-opensm=%.*s (the prefix "
		 "opensm was installed under), make, make install",
		 n ? n : 6, n ? p : "PREFIX");
	free(abs);
	return fix;
}

static bool find_opensm(char *out, size_t len)
{
	const char *path = getenv("PATH");
	char *dirs = strdup(path ? path : ""), *save = NULL, *d;

	for (d = dirs ? strtok_r(dirs, ":", &save) : NULL; d;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/opensm", d);
		if (!access(out, X_OK)) {
			free(dirs);
			return true;
		}
	}
	free(dirs);
	snprintf(out, len, "/usr/sbin/opensm");
	return !access(out, X_OK);
}

void doctor_binaries(struct doctor_report *r, const char *plugin,
		     const char *opensm)
{
	char lib[4096], bin[4096], lv[64], bv[64], tag[8], fix[4200];
	const char *where = "--plugin";
	int pm;

	if (plugin)
		snprintf(lib, sizeof(lib), "%s", plugin);
	if (plugin ? access(lib, R_OK) != 0
		   : !doctor_find_library("libosmqos.so", lib, sizeof(lib),
					  &where)) {
		doctor_check(
			r, DOCTOR_ERR, "plugin-library",
			"install the package, or `make install` (this build "
			"puts libosmqos.so in " OQ_LIBDIR "; configure "
			"--libdir to one the ld.so cache searches), then run "
			"ldconfig",
			"%s not found where opensm's dlopen() looks "
			"(LD_LIBRARY_PATH, the ld.so cache, the loader's "
			"system "
			"directories): opensm would run without the plugin",
			plugin ? plugin : "libosmqos.so");
		return;
	}
	doctor_check(r, DOCTOR_OK, "plugin-library", NULL,
		     "%s, where opensm loads it (%s)", lib, where);
	if (opensm)
		snprintf(bin, sizeof(bin), "%s", opensm);
	if (opensm ? access(bin, R_OK) != 0 : !find_opensm(bin, sizeof(bin))) {
		doctor_check(r, DOCTOR_WARN, "plugin-version",
			     "give the opensm binary with --opensm",
			     "no opensm binary found to compare the plugin's "
			     "version with");
		return;
	}
	if (!version_of(lib, lv, sizeof(lv)) ||
	    !version_of(bin, bv, sizeof(bv))) {
		doctor_check(
			r, DOCTOR_ERR, "plugin-version",
			rebuild_fix(bin, fix, sizeof(fix)),
			"cannot read the OpenSM version %s was built for, or "
			"%s's own",
			lib, bin);
		return;
	}
	if (strcmp(lv, bv)) {
		doctor_check(r, DOCTOR_ERR, "plugin-version",
			     rebuild_fix(bin, fix, sizeof(fix)),
			     "%s was built for %s, %s is %s: opensm refuses a "
			     "plugin "
			     "built for another version",
			     lib, lv, bin, bv);
		return;
	}
	/* The same version with another perf-manager setting has another
	 * osm_opensm_t: the plugin refuses to load (build_options.c). */
	pm = doctor_elf_exports(bin, "osm_perfmgr_init");
	if (pm >= 0 &&
	    tag_of(lib, "osmqos-osm-build: perf-mgr=", tag, sizeof(tag)) &&
	    pm != !strcmp(tag, "yes")) {
		doctor_check(
			r, DOCTOR_ERR, "plugin-version",
			rebuild_fix(bin, fix, sizeof(fix)),
			"%s was built for %s %s the performance manager, %s is "
			"built %s it: their osm_opensm_t differ and the plugin "
			"does not load",
			lib, lv, pm ? "without" : "with", bin,
			pm ? "with" : "without");
		return;
	}
	doctor_check(r, DOCTOR_OK, "plugin-version", NULL,
		     "built for %s, as %s", lv, bin);
}
