/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Which symbols an ELF file exports, for `osmqos doctor`. */
#ifndef OSMQOS_CLI_DOCTOR_ELF_H
#define OSMQOS_CLI_DOCTOR_ELF_H

/*
 * 1 when the dynamic symbol table of the ELF file at path defines name
 * (as `nm -D --defined-only` lists it), 0 when it does not, -1 when the
 * file cannot be read or is not an ELF file of this machine's class.
 */
int doctor_elf_exports(const char *path, const char *name);

#endif /* OSMQOS_CLI_DOCTOR_ELF_H */
