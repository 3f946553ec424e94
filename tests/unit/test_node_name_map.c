// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the node-name map read as OpenSM's complib reads it, the
 * names it gives a fabric's nodes, and the node OpenSM picks among nodes
 * that share a name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/fabric.h>
#include <osmqos/node_name_map.h>
#include <osmqos/opensm_conf.h>

static struct oq_node_name_map *parse(const char *text, size_t len,
				      struct oq_diags *d)
{
	int oom = 0;
	struct oq_node_name_map *m =
		oq_node_name_map_parse("map", text, len, d, &oom);

	assert_int_equal(oom, 0);
	return m;
}

static struct oq_node_name_map *parse_str(const char *text, struct oq_diags *d)
{
	return parse(text, strlen(text), d);
}

static void test_format(void **state)
{
	struct oq_diags d;
	struct oq_node_name_map *m;

	(void)state;
	oq_diags_init(&d);
	m = parse_str("# generated\n"
		      "\n"
		      "   0x0002c90300000100 \"cn01\"   # rack 1\n"
		      "0x0002c90300000200\t\"cn02 HCA-1\"\n"
		      "0X0002C90300000300 \"upper case\"\n"
		      "12345 \"decimal\"\n"
		      "010 \"octal eight\"\n"
		      "0x400 unquoted\n"
		      "0x500\n"
		      "0x600 \"\"\n"
		      "0x700 \"na#me\"\n"
		      "0x800 \"\"x\"\"\n",
		      &d);
	assert_non_null(m);
	/* Only the '#' inside quotes is news (test_cut_names). */
	assert_int_equal(d.n, 1);
	assert_string_equal(oq_node_name_map_get(m, 0x0002c90300000100ull),
			    "cn01");
	assert_string_equal(oq_node_name_map_get(m, 0x0002c90300000200ull),
			    "cn02 HCA-1");
	assert_string_equal(oq_node_name_map_get(m, 0x0002c90300000300ull),
			    "upper case");
	assert_string_equal(oq_node_name_map_get(m, 12345), "decimal");
	assert_string_equal(oq_node_name_map_get(m, 8), "octal eight");
	assert_string_equal(oq_node_name_map_get(m, 0x400), "unquoted");
	/* No name, or an empty one: no entry, as map_name() adds none. */
	assert_null(oq_node_name_map_get(m, 0x500));
	assert_null(oq_node_name_map_get(m, 0x600));
	/* strtok(p, "\"#"): the first run without '"' or '#'. */
	assert_string_equal(oq_node_name_map_get(m, 0x700), "na");
	assert_string_equal(oq_node_name_map_get(m, 0x800), "x");
	assert_null(oq_node_name_map_get(m, 0x900));
	assert_int_equal(oq_node_name_map_size(m), 8);
	oq_node_name_map_free(m);
	oq_diags_free(&d);
}

static void test_empty(void **state)
{
	struct oq_diags d;
	struct oq_node_name_map *m;

	(void)state;
	oq_diags_init(&d);
	m = parse("", 0, &d);
	assert_non_null(m);
	assert_int_equal(oq_node_name_map_size(m), 0);
	oq_node_name_map_free(m);
	m = parse_str("# only comments\n\n   \n", &d);
	assert_non_null(m);
	assert_int_equal(oq_node_name_map_size(m), 0);
	assert_int_equal(d.n, 0);
	oq_node_name_map_free(m);
	oq_diags_free(&d);
}

/* One line OpenSM cannot parse and it ignores the whole map. */
static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"0x100 \"ok\"\ncn01 \"no guid\"\n",
		"0x100\"glued\"\n",
		"0x10g \"bad digit\"\n",
		"0x \"no digits\"\n",
		"\"name first\" 0x100\n",
	};
	struct oq_diags d;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		oq_diags_init(&d);
		assert_null(parse_str(bad[i], &d));
		assert_int_equal(d.n_errors, 1);
		assert_non_null(strstr(d.v[0].hint, "ignores the whole map"));
		oq_diags_free(&d);
	}
	oq_diags_init(&d);
	assert_null(parse_str("0x100 \"ok\"\ncn01 \"no guid\"\n", &d));
	assert_int_equal(d.v[0].loc.line, 2);
	assert_int_equal(d.v[0].loc.col, 1);
	assert_string_equal(d.v[0].msg, "expected a node GUID, found 'cn01'");
	oq_diags_free(&d);
}

/* CRLF: a quoted name loses the CR (it follows the quote), an unquoted
 * one keeps it, as OpenSM does, with a warning. */
static void test_crlf(void **state)
{
	struct oq_diags d;
	struct oq_node_name_map *m;

	(void)state;
	oq_diags_init(&d);
	m = parse_str("0x100 \"quoted\"\r\n0x200 bare\r\n# c\r\n", &d);
	assert_non_null(m);
	assert_string_equal(oq_node_name_map_get(m, 0x100), "quoted");
	assert_string_equal(oq_node_name_map_get(m, 0x200), "bare\r");
	assert_int_equal(d.n_warnings, 1);
	assert_int_equal(d.v[0].loc.line, 2);
	oq_node_name_map_free(m);
	oq_diags_free(&d);
}

/* The first line of a GUID wins (cl_qmap_insert keeps what is there). */
static void test_duplicate_guids(void **state)
{
	struct oq_diags d;
	struct oq_node_name_map *m;

	(void)state;
	oq_diags_init(&d);
	m = parse_str("0x200 \"b\"\n0x100 \"first\"\n0x100 \"second\"\n"
		      "0x100 \"third\"\n",
		      &d);
	assert_non_null(m);
	assert_string_equal(oq_node_name_map_get(m, 0x100), "first");
	assert_string_equal(oq_node_name_map_get(m, 0x200), "b");
	assert_int_equal(oq_node_name_map_size(m), 2);
	assert_int_equal(d.n_warnings, 2);
	oq_diags_sort(&d);
	assert_int_equal(d.v[0].loc.line, 3);
	assert_non_null(strstr(d.v[0].msg, "keeps the name of line 2"));
	oq_node_name_map_free(m);
	oq_diags_free(&d);
}

/* Bytes are names: invalid UTF-8 is kept as it is, a NUL ends the
 * line's text as it ends fgets()'s string. */
static void test_bytes(void **state)
{
	static const char text[] = "0x100 \"n\xff\xfe\"\n0x200 \"a\0b\"\n"
				   "0x300 \"c\"\n";
	struct oq_diags d;
	struct oq_node_name_map *m;

	(void)state;
	oq_diags_init(&d);
	m = parse(text, sizeof(text) - 1, &d);
	assert_non_null(m);
	assert_string_equal(oq_node_name_map_get(m, 0x100), "n\xff\xfe");
	assert_string_equal(oq_node_name_map_get(m, 0x200), "a");
	assert_string_equal(oq_node_name_map_get(m, 0x300), "c");
	/* The NUL that cuts "a\0b" is warned about (test_cut_names). */
	assert_int_equal(d.n_warnings, 1);
	oq_node_name_map_free(m);
	oq_diags_free(&d);
}

/* A '#' inside quotes and a NUL byte end a name where OpenSM's C string
 * functions stop; each such cut is a warning at its column that gives
 * the name OpenSM uses, which is kept.  A '#' after the name is a
 * comment and no news. */
static void test_cut_names(void **state)
{
	static const char text[] = "0x100 \"rack#3 node-11\"\n"
				   "0x200 \"a\0b\"\n"
				   "0x300 \"c\" # c#1\n"
				   "0x400 d # e#2\n";
	struct oq_diags d;
	struct oq_node_name_map *m;

	(void)state;
	oq_diags_init(&d);
	m = parse(text, sizeof(text) - 1, &d);
	assert_non_null(m);
	assert_string_equal(oq_node_name_map_get(m, 0x100), "rack");
	assert_string_equal(oq_node_name_map_get(m, 0x200), "a");
	assert_string_equal(oq_node_name_map_get(m, 0x300), "c");
	assert_string_equal(oq_node_name_map_get(m, 0x400), "d ");
	assert_int_equal(d.n_errors, 0);
	assert_true(d.n >= 2);
	assert_int_equal(d.v[0].loc.line, 1);
	assert_int_equal(d.v[0].loc.col, 12);
	assert_string_equal(d.v[0].msg,
			    "OpenSM ends the name of GUID 0x0000000000000100 "
			    "at '#': the node is named 'rack'");
	assert_non_null(strstr(d.v[0].hint, "remove the '#'"));
	assert_int_equal(d.v[1].loc.line, 2);
	assert_int_equal(d.v[1].loc.col, 9);
	assert_string_equal(d.v[1].msg,
			    "OpenSM ends the name of GUID 0x0000000000000200 "
			    "at a NUL byte: the node is named 'a'");
	/* The rest: line 4's trailing blank, not its '#'. */
	assert_int_equal(d.n, 3);
	assert_int_equal(d.v[2].loc.line, 4);
	oq_node_name_map_free(m);
	oq_diags_free(&d);
}

/* complib reads 255 bytes at a time: the rest of a longer line is a line
 * of its own, which here is not a GUID line, so OpenSM drops the map. */
static void test_long_line(void **state)
{
	char text[600];
	struct oq_diags d;
	struct oq_node_name_map *m;

	(void)state;
	memset(text, 'x', sizeof(text));
	memcpy(text, "0x100 \"", 7);
	memcpy(text + 400, "\"\n", 3);
	oq_diags_init(&d);
	assert_null(parse(text, 402, &d));
	assert_int_equal(d.n_warnings, 1);
	assert_int_equal(d.n_errors, 1);
	/* The error follows from the length, which the report says first. */
	assert_int_equal(d.v[1].cause, d.v[0].id);
	assert_non_null(strstr(d.v[0].msg, "longer than 255 bytes"));
	oq_diags_free(&d);
	/* 255 bytes and a newline: the newline is a piece of its own,
	 * blank, and the line is whole. */
	memset(text, 'y', sizeof(text));
	memcpy(text, "0x100 \"", 7);
	text[253] = '"';
	text[254] = ' ';
	text[255] = '\n';
	oq_diags_init(&d);
	m = parse(text, 256, &d);
	assert_non_null(m);
	assert_int_equal(d.n, 0);
	assert_int_equal(strlen(oq_node_name_map_get(m, 0x100)), 253 - 7);
	oq_node_name_map_free(m);
	oq_diags_free(&d);
}

/* strtoull's edges: a sign, an overflow. */
static void test_guid_edges(void **state)
{
	struct oq_diags d;
	struct oq_node_name_map *m;

	(void)state;
	oq_diags_init(&d);
	m = parse_str("-1 \"minus one\"\n"
		      "0x1ffffffffffffffff \"too big\"\n"
		      "0x100 # \"commented\"\n",
		      &d);
	assert_non_null(m);
	/* strtoull("-1") is 2^64 - 1, and so is an overflow: the first
	 * line wins. */
	assert_string_equal(oq_node_name_map_get(m, UINT64_MAX), "minus one");
	/* "# ..." after a GUID: strtok skips the '#' and the name is the
	 * text up to the quote, a blank. */
	assert_string_equal(oq_node_name_map_get(m, 0x100), " ");
	assert_int_equal(d.n_warnings, 2);
	oq_node_name_map_free(m);
	oq_diags_free(&d);
}

/* The paths opensm.conf names: the last line of the key wins, comments
 * and quotes as OpenSM reads them, "(null)" names none. */
static void test_opensm_conf(void **state)
{
	static const char conf[] =
		"# node_name_map_name /etc/commented\n"
		"node_name_map_name /etc/first\n"
		"  node_name_map_name   \"/etc/opensm/my map\"  # why\n"
		"node_name_map_names /etc/other\n"
		"partition_config_file '/etc/opensm/parts.conf'\r\n";
	char *path = NULL;

	(void)state;
	assert_int_equal(oq_opensm_conf_path(conf, strlen(conf),
					     "node_name_map_name", &path),
			 0);
	assert_string_equal(path, "/etc/opensm/my map");
	free(path);
	assert_int_equal(oq_opensm_conf_path(conf, strlen(conf),
					     "partition_config_file", &path),
			 0);
	assert_string_equal(path, "/etc/opensm/parts.conf");
	free(path);
	assert_int_equal(oq_opensm_conf_path("node_name_map_name (null)\n", 26,
					     "node_name_map_name", &path),
			 0);
	assert_null(path);
	assert_int_equal(
		oq_opensm_conf_path(conf, strlen(conf), "node_name_map", &path),
		0);
	assert_null(path);
	assert_int_equal(
		oq_opensm_conf_path("", 0, "partition_config_file", &path), 0);
	assert_null(path);
}

static void test_print_desc(void **state)
{
	char out[64], desc[65];

	(void)state;
	oq_node_print_desc("cn01 HCA-1", out);
	assert_string_equal(out, "cn01 HCA-1");
	oq_node_print_desc("tab\there\x01\x7f\xc3\xa9", out);
	assert_string_equal(out, "tab here    ");
	memset(desc, 'd', 64);
	desc[64] = '\0';
	oq_node_print_desc(desc, out);
	assert_int_equal(strlen(out), 63);
}

/* Names from a map, from the NodeDescription otherwise; nodes that share
 * a name are found in OpenSM's node table order. */
static void test_apply(void **state)
{
	struct oq_fabric *f = oq_fabric_new();
	struct oq_node *a, *b, *c, *n;
	struct oq_node_name_map *m;
	struct oq_diags d;
	size_t same;
	char desc[65];

	(void)state;
	oq_diags_init(&d);
	a = oq_fabric_add_node(f, OQ_NODE_CA, 0x0002c90300000002ull,
			       "dup HCA-1", 1);
	b = oq_fabric_add_node(f, OQ_NODE_CA, 0x0002c90300000100ull,
			       "dup HCA-1", 1);
	c = oq_fabric_add_node(f, OQ_NODE_CA, 0x0002c90300000200ull,
			       "c01 HCA-1", 1);
	memset(desc, 'L', 64);
	desc[64] = '\0';
	n = oq_fabric_add_node(f, OQ_NODE_CA, 0x0002c90300000300ull, desc, 1);
	a->ports[1].present = b->ports[1].present = c->ports[1].present = true;
	n->ports[1].present = true;
	assert_int_equal(oq_fabric_finalize(f, &d), 0);
	/* A 64-byte NodeDescription is named by its first 63 bytes. */
	assert_int_equal(strlen(oq_node_name(n)), 63);
	assert_ptr_equal(oq_fabric_node_by_name(f, desc, 63, NULL), n);
	assert_null(oq_fabric_node_by_name(f, desc, 64, NULL));
	/* 0x...0100 is 00 02 c9 03 00 00 01 00 in network order, which as a
	 * little-endian key is below 00 .. 00 02's: on such a host OpenSM
	 * picks the numerically higher GUID. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	assert_true(oq_node_guid_table_cmp(b->guid, a->guid) < 0);
	n = b;
#else
	assert_true(oq_node_guid_table_cmp(a->guid, b->guid) < 0);
	n = a;
#endif
	assert_ptr_equal(oq_fabric_node_by_name(f, "dup HCA-1", 9, &same), n);
	assert_int_equal(same, 2);
	assert_ptr_equal(oq_fabric_node_next_same_name(f, n), n == a ? b : a);
	assert_null(oq_fabric_node_next_same_name(f, n == a ? b : a));

	m = parse_str("0x0002c90300000200 \"node-a\"\n"
		      "0x0002c90300000002 \"dup HCA-1 renamed\"\n",
		      &d);
	assert_non_null(m);
	assert_int_equal(oq_fabric_apply_node_names(f, m), 0);
	assert_string_equal(oq_node_name(c), "node-a");
	assert_string_equal(c->desc, "c01 HCA-1");
	assert_ptr_equal(oq_fabric_node_by_name(f, "node-a", 6, &same), c);
	assert_int_equal(same, 1);
	assert_null(oq_fabric_node_by_name(f, "c01 HCA-1", 9, NULL));
	assert_ptr_equal(oq_fabric_port_by_name(f, "node-a/P1"), &c->ports[1]);
	assert_ptr_equal(oq_fabric_node_by_name(f, "dup HCA-1", 9, &same), b);
	assert_int_equal(same, 1);
	/* Without a map, the NodeDescriptions again. */
	assert_int_equal(oq_fabric_apply_node_names(f, NULL), 0);
	assert_ptr_equal(oq_fabric_node_by_name(f, "c01 HCA-1", 9, NULL), c);
	assert_ptr_equal(c->name, c->desc);
	oq_node_name_map_free(m);
	oq_fabric_free(f);
	oq_diags_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_cut_names),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_duplicate_guids),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_guid_edges),
		cmocka_unit_test(test_opensm_conf),
		cmocka_unit_test(test_print_desc),
		cmocka_unit_test(test_apply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
