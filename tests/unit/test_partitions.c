// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: partitions.conf loader and membership. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/fabric.h>

#ifndef OQ_SRCDIR
#define OQ_SRCDIR "."
#endif

/* sw (GUID 0x200000, the SM port), h1..h3 (ports 0x100001, 0x100004,
 * 0x100007), router r1 (port 0x000001). */
static const char fabric_text[] =
	"Switch 8 \"sw\"\n"
	"[1] \"h1\"[1]\n[2] \"h2\"[1]\n[3] \"h3\"[1]\n[4] \"r1\"[1]\n\n"
	"Hca 2 \"h1\"\n[1] \"sw\"[1]\n\n"
	"Hca 2 \"h2\"\n[1] \"sw\"[2]\n\n"
	"Hca 2 \"h3\"\n[1] \"sw\"[3]\n\n"
	"rtguid=0x0\nRt 1 \"r1\"\n[1] \"sw\"[4]\n";

struct env {
	struct oq_fabric *f;
	struct oq_diags d;
	struct oq_partitions parts;
};

static int setup(void **state)
{
	static struct env e;

	oq_diags_init(&e.d);
	e.f = oq_topology_parse("f.net", fabric_text, strlen(fabric_text),
				&e.d);
	if (!e.f)
		return -1;
	oq_diags_clear(&e.d);
	*state = &e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	oq_partitions_free(&e->parts);
	oq_fabric_free(e->f);
	oq_diags_free(&e->d);
	return 0;
}

static int run(struct env *e, const char *text)
{
	return oq_partitions_parse(&e->parts, "p.conf", text, strlen(text),
				   e->f, &e->d);
}

static int member(struct env *e, uint64_t guid, uint16_t pkey)
{
	struct oq_port *p = oq_fabric_port_by_guid(e->f, guid);

	assert_non_null(p);
	return oq_port_pkey_membership(e->f, p, pkey);
}

/* Entries in a port's partition table. */
static size_t table_size(struct env *e, const struct oq_port *p)
{
	size_t n;

	oq_port_pkeys(e->f, p, &n);
	return n;
}

static bool has_diag(const struct oq_diags *d, enum oq_severity sev,
		     unsigned int line, unsigned int col, const char *frag)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].sev == sev && d->v[i].loc.line == line &&
		    (!col || d->v[i].loc.col == col) &&
		    strstr(d->v[i].msg, frag))
			return true;
	return false;
}

/* A file without a definition: osm_prtn_config_parse_file() fails it and
 * OpenSM falls back to "Default=0x7fff: ALL=full;" (OpenSM 3.3.23 under
 * ibsim gave h1 of contrib/fabrics/two-switch.net P_Key 0xffff with a
 * comment-only file, and logged "Partition configuration in error"). */
static void test_no_definition_falls_back(void **state)
{
	struct env *e = *state;

	assert_int_equal(run(e, "# nothing\n\n"), 0);
	assert_true(has_diag(&e->d, OQ_SEV_WARNING, 0, 0,
			     "no partition definition"));
	assert_int_equal(e->parts.n, 1);
	assert_string_equal(e->parts.v[0].name, "Default");
	assert_int_equal(e->parts.v[0].pkey, 0x7fff);
	/* Everybody full. */
	assert_int_equal(member(e, 0x100001, 0x7fff), 2);
	assert_int_equal(member(e, 0x000001, 0x7fff), 2);
	assert_int_equal(member(e, 0x200000, 0x7fff), 2);
	/* Switch external ports are left alone. */
	assert_int_equal(table_size(e, &e->f->nodes[0]->ports[1]), 0);
}

/* A Default line without membership: every end port limited, the SM's
 * port full (prtn_make_default(); OpenSM 3.3.23 under ibsim gave h1 of
 * two-switch.net P_Key 0x7fff with this file). */
static void test_default_without_rule(void **state)
{
	struct env *e = *state;

	assert_int_equal(run(e, "Default=0x7fff: ;\n"), 0);
	assert_int_equal(e->d.n_warnings, 0);
	assert_int_equal(e->parts.n, 1);
	assert_int_equal(member(e, 0x100001, 0x7fff), 1);
	assert_int_equal(member(e, 0x000001, 0x7fff), 1);
	assert_int_equal(member(e, 0x200000, 0x7fff), 2);
	assert_int_equal(table_size(e, &e->f->nodes[0]->ports[1]), 0);
}

static void test_membership_rules(void **state)
{
	struct env *e = *state;
	static const char text[] =
		"Default=0x7fff : ALL=full ;\n"
		"storage = 0x10, ipoib, sl=3, mtu=4 : 0x100001=full, "
		"0x100004 = limited , 0x100007=both;\n"
		"# a definition over several lines\n"
		"compute=0x20,defmember=full:\n"
		"\tmgid=ff12:401b::0707,sl=1 # a multicast group\n"
		"\tALL_CAS, 0x100004=lim;\n"
		"sw=0x30: ALL_SWITCHES=full, ALL_ROUTERS; ShareIO=0x30: SELF=f\n"
		";\n"
		"noname: ALL_CAS=full;\n"
		"0x40 : NONE;\n";

	assert_int_equal(run(e, text), 0);
	assert_int_equal(e->d.n_errors, 0);
	assert_int_equal(member(e, 0x100001, 0x7fff), 2);
	assert_int_equal(member(e, 0x100001, 0x10), 2);
	assert_int_equal(member(e, 0x100004, 0x10), 1);
	assert_int_equal(member(e, 0x100007, 0x10), 2); /* both = full */
	assert_int_equal(member(e, 0x000001, 0x10), 0);
	assert_int_equal(member(e, 0x100001, 0x20), 2); /* defmember */
	assert_int_equal(member(e, 0x100004, 0x20), 1); /* last wins */
	assert_int_equal(member(e, 0x200000, 0x20), 0);
	assert_int_equal(member(e, 0x200000, 0x30), 2);
	assert_int_equal(member(e, 0x000001, 0x30), 1);
	assert_int_equal(member(e, 0x100001, 0x30), 0);
	assert_int_equal(oq_partition_by_name(&e->parts, "storage")->sl, 3);
	assert_int_equal(oq_partition_by_name(&e->parts, "compute")->sl, -1);
	/* Same P_Key merges under the first name. */
	assert_null(oq_partition_by_name(&e->parts, "ShareIO"));
	assert_int_equal(oq_partition_by_name(&e->parts, "sw")->pkey, 0x30);
	/* No P_Key: OpenSM generates the first free one. */
	assert_int_equal(oq_partition_by_name(&e->parts, "noname")->pkey, 1);
	assert_int_equal(member(e, 0x100007, 0x1), 2);
	/* Unnamed partitions are named by their P_Key. */
	assert_non_null(oq_partition_by_name(&e->parts, "0040"));
	assert_int_equal(oq_partition_by_name(&e->parts, "storage")->loc.line,
			 2);
}

static void test_prefix_keywords(void **state)
{
	struct env *e = *state;

	/* OpenSM compares keywords by prefix: "A" is ALL, "f" is full. */
	assert_int_equal(run(e, "p=0x50,defm=f: A, 0x100001=l;\n"), 0);
	assert_int_equal(member(e, 0x100004, 0x50), 2);
	assert_int_equal(member(e, 0x100001, 0x50), 1);
}

static void test_error_falls_back(void **state)
{
	struct env *e = *state;
	static const char text[] = "good=0x10: ALL;\n"
				   "bad=0x20: 0x100001, zork;\n"
				   "late=0x30: ALL;\n";

	assert_int_equal(run(e, text), -EBADMSG);
	assert_true(has_diag(&e->d, OQ_SEV_ERROR, 2, 21, "bad port GUID"));
	/* OpenSM's fallback: Default with everybody full, nothing else. */
	assert_int_equal(e->parts.n, 1);
	assert_int_equal(member(e, 0x100001, 0x7fff), 2);
	assert_int_equal(member(e, 0x100001, 0x10), 0);
	assert_int_equal(member(e, 0x100001, 0x30), 0);
}

static void test_errors_and_warnings(void **state)
{
	static const struct {
		const char *text;
		enum oq_severity sev;
		unsigned int line, col;
		const char *frag;
	} cases[] = {
		{ "p=0x10 ALL;\n", OQ_SEV_ERROR, 1, 1, "no partition" },
		{ "p=zz: ALL;\n", OQ_SEV_ERROR, 1, 3, "bad P_Key" },
		{ "p=0x10,\n: ALL;\n", OQ_SEV_ERROR, 1, 1, "no partition" },
		{ "p=0x10: 0;\n", OQ_SEV_ERROR, 1, 9, "bad port GUID" },
		{ "p=0x10: 0x100001=sometimes;\n", OQ_SEV_WARNING, 1, 18,
		  "unknown membership" },
		{ "p=0x10,sl=99: ALL;\n", OQ_SEV_WARNING, 1, 8, "sl" },
		{ "p=0x10,frob: ALL;\n", OQ_SEV_WARNING, 1, 8,
		  "unknown partition flag" },
		{ "p=0x10,defmember=x: ALL;\n", OQ_SEV_WARNING, 1, 8,
		  "defmember" },
		{ "p=0x10: 0x1234;\n", OQ_SEV_WARNING, 1, 9, "not an end port" },
		{ "p=0x10: ALL\n", OQ_SEV_WARNING, 1, 0, "no ';'" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct env e;

		oq_diags_init(&e.d);
		e.f = oq_topology_parse("f.net", fabric_text,
					strlen(fabric_text), NULL);
		assert_non_null(e.f);
		run(&e, cases[i].text);
		if (!has_diag(&e.d, cases[i].sev, cases[i].line, cases[i].col,
			      cases[i].frag)) {
			print_error("case %zu: no '%s' at %u:%u\n", i,
				    cases[i].frag, cases[i].line, cases[i].col);
			oq_diags_print(&e.d, stderr);
			fail();
		}
		oq_partitions_free(&e.parts);
		oq_fabric_free(e.f);
		oq_diags_free(&e.d);
	}
}

/* The one diagnostic of e->d, a warning at 1:9. */
static const struct oq_diag *only_warning(const struct env *e)
{
	assert_int_equal(e->d.n, 1);
	assert_int_equal(e->d.v[0].sev, OQ_SEV_WARNING);
	assert_int_equal(e->d.v[0].loc.line, 1);
	assert_int_equal(e->d.v[0].loc.col, 9);
	return &e->d.v[0];
}

/* A GUID the fabric lacks: a file may be out of date (the GUID live), so
 * nothing is said of what OpenSM does with it; a fabric discovered from
 * the subnet (osmqos drift) lacks it because the subnet does, and OpenSM
 * ignores it. */
static void test_unknown_guid_by_origin(void **state)
{
	static const char text[] = "p=0x10: 0x1234;\n";
	const struct oq_diag *w;
	struct env *e = *state;

	assert_false(e->f->live);
	assert_int_equal(run(e, text), 0);
	w = only_warning(e);
	assert_non_null(strstr(w->msg, "port GUID 0x0000000000001234 is not "
				       "an end port in the fabric file"));
	assert_null(strstr(w->msg, "OpenSM ignores it"));
	assert_non_null(w->hint);
	assert_non_null(strstr(w->hint, "the fabric file is stale: refresh "
					"it (ibnetdiscover)"));
	oq_partitions_free(&e->parts);
	oq_diags_clear(&e->d);

	e->f->live = true;
	assert_int_equal(run(e, text), 0);
	e->f->live = false;
	w = only_warning(e);
	assert_string_equal(w->msg, "port GUID 0x0000000000001234 is not an "
				    "end port of the subnet; OpenSM ignores "
				    "it");
	assert_null(w->hint);
}

static void test_without_fabric(void **state)
{
	struct oq_partitions parts;
	struct oq_diags d;
	static const char text[] = "a=0x1: ALL; b=0x2, sl=2: SELF, 0x99;";

	oq_diags_init(&d);
	assert_int_equal(oq_partitions_parse(&parts, "p", text, strlen(text),
					     NULL, &d),
			 0);
	assert_int_equal(parts.n, 3);
	assert_int_equal(oq_partition_by_name(&parts, "b")->sl, 2);
	assert_null(oq_partition_by_name(&parts, "c"));
	oq_partitions_free(&parts);
	assert_int_equal(
		oq_partitions_load(&parts, "/nonexistent/p.conf", NULL, &d),
		-ENOENT);
	assert_int_equal(d.n_errors, 1);
	oq_partitions_free(&parts);
	/* Not a regular file: oq_file_read's EINVAL, one error. */
	assert_int_equal(oq_partitions_load(&parts, "/", NULL, &d), -EINVAL);
	assert_int_equal(d.n_errors, 2);
	oq_partitions_free(&parts);
	oq_diags_free(&d);
}

/*
 * What OpenSM 3.3.23 programmed under ibsim on contrib/fabrics/two-switch.net
 * with this file (read back with smpquery pkeys): h1 0x7fff 0x8010 0x0020,
 * h2 0x7fff 0x0010 0x0020, sw1 port 0 (the SM's) 0xffff 0x0020, sw2 port 0
 * 0x7fff 0x0020.
 */
static void test_matches_opensm(void **state)
{
	static const char text[] =
		"Default=0x7fff: ALL, SELF=full;\n"
		"storage=0x10, sl=2: 0x100001=full, 0x100004 ;\n"
		"all_sw=0x20: ALL_SWITCHES=full, A=lim;\n";
	struct env e;

	memset(&e, 0, sizeof(e));
	oq_diags_init(&e.d);
	e.f = oq_topology_load(OQ_SRCDIR "/contrib/fabrics/two-switch.net",
			       &e.d);
	assert_non_null(e.f);
	assert_int_equal(run(&e, text), 0);
	assert_int_equal(e.d.n_errors + e.d.n_warnings, 0);
	assert_int_equal(member(&e, 0x100001, 0x7fff), 1);
	assert_int_equal(member(&e, 0x100001, 0x10), 2);
	assert_int_equal(member(&e, 0x100001, 0x20), 1);
	assert_int_equal(member(&e, 0x100004, 0x7fff), 1);
	assert_int_equal(member(&e, 0x100004, 0x10), 1);
	assert_int_equal(member(&e, 0x100004, 0x20), 1);
	assert_int_equal(member(&e, 0x200000, 0x7fff), 2);
	assert_int_equal(member(&e, 0x200000, 0x10), 0);
	assert_int_equal(member(&e, 0x200000, 0x20), 1);
	assert_int_equal(member(&e, 0x200001, 0x7fff), 1);
	assert_int_equal(member(&e, 0x200001, 0x20), 1);
	assert_int_equal(member(&e, 0x100007, 0x10), 0);
	assert_int_equal(oq_partition_by_name(&e.parts, "storage")->sl, 2);
	oq_partitions_free(&e.parts);
	oq_fabric_free(e.f);
	oq_diags_free(&e.d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_definition_falls_back,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_default_without_rule,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_membership_rules, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_prefix_keywords, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_error_falls_back, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_unknown_guid_by_origin,
						setup, teardown),
		cmocka_unit_test(test_errors_and_warnings),
		cmocka_unit_test(test_without_fabric),
		cmocka_unit_test(test_matches_opensm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
