// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The SL environment of a job: see job_env_out.h and docs/jobs.md. */
#include <stdio.h>
#include <string.h>

#include "job_env_out.h"

enum what {
	W_SL,
	W_PKEY,	      /* the P_Key value, 15 bits, hex */
	W_PKEY_INDEX, /* its index in the local port's P_Key table */
};

/* Each stack's own variable (docs/jobs.md has the source of each). */
static const struct {
	const char *name;
	enum what what;
	const char *stack;
} vars[] = {
	{"OSMQOS_SL", W_SL, "osmqos (for scripts)"},
	{"UCX_IB_SL", W_SL, "UCX (Open MPI, MPICH, UCC)"},
	{"NCCL_IB_SL", W_SL, "NCCL"},
	{"NVSHMEM_IB_SL", W_SL, "NVSHMEM"},
	{"MV2_DEFAULT_SERVICE_LEVEL", W_SL, "MVAPICH2"},
	{"OMPI_MCA_btl_openib_ib_service_level", W_SL, "Open MPI openib BTL"},
	{"OSMQOS_PKEY", W_PKEY, "osmqos (for scripts)"},
	{"UCX_IB_PKEY", W_PKEY, "UCX"},
	{"MV2_DEFAULT_PKEY", W_PKEY, "MVAPICH2"},
	{"OMPI_MCA_btl_openib_pkey", W_PKEY, "Open MPI openib BTL"},
	{"NCCL_IB_PKEY", W_PKEY_INDEX, "NCCL"},
};

size_t oq_job_env_vars(const struct oq_job_env *e, struct oq_env_var *out,
		       size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]) && n < max; i++) {
		struct oq_env_var *v = &out[n];

		if (vars[i].what != W_SL && e->pkey < 0)
			continue;
		if (vars[i].what == W_PKEY_INDEX && e->pkey_index < 0)
			continue;
		v->name = vars[i].name;
		v->stack = vars[i].stack;
		switch (vars[i].what) {
		case W_SL:
			snprintf(v->value, sizeof(v->value), "%d", e->sl & 0xf);
			break;
		case W_PKEY:
			snprintf(v->value, sizeof(v->value), "0x%04x",
				 e->pkey & 0x7fff);
			break;
		default:
			snprintf(v->value, sizeof(v->value), "%d",
				 e->pkey_index);
			break;
		}
		n++;
	}
	return n;
}

void oq_job_env_write_exports(FILE *out, const struct oq_env_var *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(out, "export %s=%s\n", v[i].name, v[i].value);
}

void oq_job_env_write_json(FILE *out, const struct oq_env_var *v, size_t n)
{
	size_t i;

	fputc('{', out);
	for (i = 0; i < n; i++)
		fprintf(out, "%s\"%s\": \"%s\"", i ? ", " : "", v[i].name,
			v[i].value);
	fputc('}', out);
}
