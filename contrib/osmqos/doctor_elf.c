// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An opensm binary's exported symbols tell some of its build options
 * (the perf manager's functions are there only when it is built in), and
 * doctor reads them without running or loading that binary: the section
 * headers name .dynsym and its string table.
 */
#include <config.h>

#include <elf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/file.h>

#include "doctor_elf.h"

/* What the running CLI is: opensm is built by the same toolchain. */
#define EHDR ElfW(Ehdr)
#define SHDR ElfW(Shdr)
#define SYM  ElfW(Sym)

static bool inside(size_t n, size_t off, size_t len)
{
	return off <= n && len <= n - off;
}

static int exports(const char *b, size_t n, const char *name)
{
	const EHDR *eh = (const void *)b;
	const SHDR *sh, *strtab;
	size_t i, k;

	if (!inside(n, 0, sizeof(*eh)) ||
	    memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] !=
		    (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
	    eh->e_shentsize != sizeof(SHDR) ||
	    !inside(n, eh->e_shoff, (size_t)eh->e_shnum * sizeof(SHDR)))
		return -1;
	sh = (const void *)(b + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_DYNSYM ||
		    sh[i].sh_link >= eh->e_shnum ||
		    sh[i].sh_entsize != sizeof(SYM) ||
		    !inside(n, sh[i].sh_offset, sh[i].sh_size))
			continue;
		strtab = &sh[sh[i].sh_link];
		if (!inside(n, strtab->sh_offset, strtab->sh_size))
			return -1;
		for (k = 1; k < sh[i].sh_size / sizeof(SYM); k++) {
			const SYM *s = (const void *)(b + sh[i].sh_offset +
						      k * sizeof(SYM));
			const char *sn = b + strtab->sh_offset + s->st_name;

			if (s->st_shndx == SHN_UNDEF ||
			    s->st_name >= strtab->sh_size ||
			    strnlen(sn, strtab->sh_size - s->st_name) ==
				    strtab->sh_size - s->st_name)
				continue;
			if (!strcmp(sn, name))
				return 1;
		}
		return 0;
	}
	return 0;
}

int doctor_elf_exports(const char *path, const char *name)
{
	size_t n = 0;
	char *b = oq_file_read(path, 256u << 20, &n);
	int rc;

	if (!b)
		return -1;
	rc = exports(b, n, name);
	free(b);
	return rc;
}
