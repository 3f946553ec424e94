// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the parts of plan, drift, status and doctor that decide
 * something on their own: the QoS Sets a table change costs
 * (plan_diff.c, as osm_qos.c decides them), drift's classes
 * (cmd_drift_out.c), the Prometheus file reader (published.c) and the
 * opensm.conf reader (doctor_conf.c, opensm_conf.c), and which file
 * systems doctor calls network or user-space storage (doctor_storage.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <osmqos/opensm_conf.h>

#include "cmd_drift.h"
#include "cmd_drift_out.h"
#include "doctor.h"
#include "doctor_conf.h"
#include "plan_diff.h"
#include "published.h"

/* A switch with 2 ports and a CA, ports with 8 operational VLs and
 * VLArb caps of 8 (low) and 40 (high, two blocks). */
struct fab {
	struct oq_fabric *f;
	struct oq_node *sw, *ca;
};

static void fab_init(struct fab *m)
{
	unsigned int i;

	m->f = oq_fabric_new();
	m->sw = oq_fabric_add_node(m->f, OQ_NODE_SWITCH, 0x100, "sw1", 2);
	m->ca = oq_fabric_add_node(m->f, OQ_NODE_CA, 0x200, "h1 HCA-1", 1);
	assert_non_null(m->sw);
	assert_non_null(m->ca);
	m->sw->ports[0].present = true;
	oq_fabric_link(&m->sw->ports[1], &m->ca->ports[1]);
	for (i = 0; i <= 2; i++) {
		struct oq_port *p = &m->sw->ports[i];

		p->guid = 0x100;
		p->oper_vls = p->vl_cap = 8;
		p->vlarb_low_cap = 8;
		p->vlarb_high_cap = 40;
	}
	m->ca->ports[1].guid = 0x201;
	m->ca->ports[1].oper_vls = m->ca->ports[1].vl_cap = 4;
	m->ca->ports[1].vlarb_low_cap = m->ca->ports[1].vlarb_high_cap = 8;
	assert_int_equal(oq_fabric_finalize(m->f, NULL), 0);
}

static void tables(struct oq_port_tables *t, const struct oq_port *p,
		   uint8_t (*rows)[16], uint8_t n)
{
	memset(t, 0, sizeof(*t));
	t->port = p;
	t->sl2vl = rows;
	t->n_sl2vl = n;
	t->has_sl2vl = true;
	t->has_vlarb = true;
}

/* One changed input table of a switch port is one SL2VL Set; a change
 * the port's operational VLs mask away is none; VL15 stays VL15. */
static void test_sl2vl_sets(void **state)
{
	uint8_t a[3][16] = {{0}}, b[3][16] = {{0}};
	struct oq_port_tables ta, tb;
	struct plan_port pp;
	struct fab m;

	(void)state;
	fab_init(&m);
	tables(&ta, &m.sw->ports[1], a, 3);
	tables(&tb, &m.sw->ports[1], b, 3);
	assert_int_equal(plan_port_sets(&ta, &tb, &pp), 0);
	b[2][5] = 3;
	assert_int_equal(plan_port_sets(&ta, &tb, &pp), 1);
	assert_int_equal(pp.sl2vl_sets, 1);
	/* VL 8 on a port with 8 operational VLs: masked to 0, no Set. */
	b[2][5] = 8;
	assert_int_equal(plan_port_sets(&ta, &tb, &pp), 0);
	/* VL15 (drop) is not masked. */
	b[0][1] = 15;
	b[1][1] = 15;
	assert_int_equal(plan_port_sets(&ta, &tb, &pp), 2);
	/* A CA port: one table. */
	{
		uint8_t c[1][16] = {{0}}, d[1][16] = {{0}};

		tables(&ta, &m.ca->ports[1], c, 1);
		tables(&tb, &m.ca->ports[1], d, 1);
		d[0][0] = 3;
		assert_int_equal(plan_port_sets(&ta, &tb, &pp), 1);
		/* 4 VLs: VL 4 masks to 0. */
		d[0][0] = 4;
		assert_int_equal(plan_port_sets(&ta, &tb, &pp), 0);
	}
	oq_fabric_free(m.f);
}

/* VLArb: one Set per changed block, blocks as the caps give them. */
static void test_vlarb_sets(void **state)
{
	uint8_t r[3][16] = {{0}};
	struct oq_port_tables ta, tb;
	struct plan_port pp;
	struct fab m;

	(void)state;
	fab_init(&m);
	tables(&ta, &m.sw->ports[2], r, 3);
	tables(&tb, &m.sw->ports[2], r, 3);
	ta.vlarb_low.n = tb.vlarb_low.n = 2;
	ta.vlarb_low.e[0].vl = tb.vlarb_low.e[0].vl = 1;
	ta.vlarb_low.e[0].weight = tb.vlarb_low.e[0].weight = 32;
	tb.vlarb_low.e[1].weight = 4;
	assert_int_equal(plan_port_sets(&ta, &tb, &pp), 1);
	assert_int_equal(pp.vlarb_sets, 1);
	assert_false(pp.vl_high_limit);
	/* An entry past the low cap (8) is not written: no Set. */
	tb.vlarb_low.e[1].weight = 0;
	tb.vlarb_low.n = 10;
	tb.vlarb_low.e[9].weight = 7;
	assert_int_equal(plan_port_sets(&ta, &tb, &pp), 0);
	/* The high table's second block (entries 32-39) is its own Set. */
	tb.vlarb_high.n = 34;
	tb.vlarb_high.e[33].weight = 1;
	assert_int_equal(plan_port_sets(&ta, &tb, &pp), 1);
	tb.vlarb_high.e[0].weight = 1;
	assert_int_equal(plan_port_sets(&ta, &tb, &pp), 2);
	/* VLHighLimit is counted apart. */
	tb.vl_high_limit = 4;
	plan_port_sets(&ta, &tb, &pp);
	assert_true(pp.vl_high_limit);
	oq_fabric_free(m.f);
}

/* drift's classes: the same kind, role, expected and found on several
 * ports is one class counting them; another found value another. */
static void test_drift_classes(void **state)
{
	struct drift_list dl = {0};
	struct drift_classes cl;
	struct fab m;
	struct drift *d;
	unsigned int in;

	(void)state;
	fab_init(&m);
	for (in = 0; in < 3; in++) { /* 3 tables of switch port 1 */
		d = drift_add(&dl, "sl2vl");
		d->port = &m.sw->ports[1];
		d->in_port = (int)in;
		strcpy(d->exp_text, "0,1");
		strcpy(d->got_text, "1,0");
	}
	d = drift_add(&dl, "sl2vl"); /* and one of port 2 */
	d->port = &m.sw->ports[2];
	strcpy(d->exp_text, "0,1");
	strcpy(d->got_text, "1,0");
	d = drift_add(&dl, "sl2vl"); /* another found value */
	d->port = &m.sw->ports[2];
	strcpy(d->exp_text, "0,1");
	strcpy(d->got_text, "7,7");
	d = drift_add(&dl, "vlarb_low"); /* a CA port */
	d->port = &m.ca->ports[1];
	strcpy(d->exp_text, "0:1");
	strcpy(d->got_text, "0:2");
	assert_int_equal(drift_classes(&dl, NULL, &cl), 0);
	assert_int_equal(cl.n, 3);
	assert_int_equal(cl.v[0].entries, 4);
	assert_int_equal(cl.v[0].ports, 2);
	assert_int_equal(cl.v[0].example, 0);
	assert_int_equal(cl.v[1].entries, 1);
	assert_int_equal(cl.v[1].example, 4);
	assert_string_equal(dl.v[cl.v[2].example].kind, "vlarb_low");
	drift_classes_free(&cl);
	drift_list_free(&dl);
	oq_fabric_free(m.f);
}

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/oq-cli-parts.XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/* The Prometheus reader: labels unescaped, comments skipped, a broken
 * line refused with its number. */
static void test_prom(void **state)
{
	char *good =
		write_tmp("# HELP osmqos_policy_info x\n"
			  "osmqos_policy_info{path=\"/a "
			  "\\\"b\\\"\\\\c\",hash=\"0x1\"} 1\n"
			  "osmqos_sa_pr_answered_total{level=\"(none)\"} 0\n"
			  "osmqos_sa_pr_answered_total{level=\"x\\ny\"} 12\n"
			  "osmqos_sweep 7\n");
	char *bad = write_tmp("osmqos_sweep 7\nosmqos_sweep{x=\"1} 2\n");
	const struct oq_prom_sample *s;
	struct oq_prom p;
	size_t line;

	(void)state;
	assert_int_equal(oq_prom_load(good, &p, &line), 0);
	assert_int_equal(p.n, 4);
	s = oq_prom_find(&p, "osmqos_policy_info", NULL, NULL);
	assert_non_null(s);
	assert_string_equal(oq_prom_label(s, "path"), "/a \"b\"\\c");
	s = oq_prom_find(&p, "osmqos_sa_pr_answered_total", "level", "x\ny");
	assert_non_null(s);
	assert_true(s->value == 12);
	assert_null(oq_prom_find(&p, "osmqos_sa_pr_answered_total", "level",
				 "nope"));
	s = oq_prom_find(&p, "osmqos_sweep", NULL, NULL);
	assert_true(s && s->value == 7);
	oq_prom_free(&p);
	assert_int_equal(oq_prom_load(bad, &p, &line), -1);
	assert_int_equal(line, 2);
	unlink(good);
	unlink(bad);
	free(good);
	free(bad);
}

/* opensm.conf: the rest of the line is the value, the last line wins,
 * "(null)" is unset. */
static void test_conf(void **state)
{
	static const char text[] =
		"# comment\n"
		"qos FALSE\n"
		"event_plugin_name osmqos other  \n"
		"qos TRUE\n"
		"routing_engine (null)\n"
		"  event_plugin_options policy=/x audit=/y\n";
	struct oq_conf c;

	(void)state;
	assert_int_equal(oq_conf_parse(text, sizeof(text) - 1, &c), 0);
	assert_string_equal(oq_conf_get(&c, "qos"), "TRUE");
	assert_string_equal(oq_conf_get(&c, "event_plugin_name"),
			    "osmqos other");
	assert_string_equal(oq_conf_get(&c, "event_plugin_options"),
			    "policy=/x audit=/y");
	assert_null(oq_conf_get(&c, "routing_engine"));
	assert_null(oq_conf_get(&c, "qos_policy_file"));
	oq_conf_free(&c);
}

/* A line longer than OpenSM reads at once is cut where OpenSM cuts it:
 * the value is what OpenSM keeps, the rest is another line; a line of
 * exactly the limit is whole. */
static void test_conf_long_line(void **state)
{
	static const char key[] = "event_plugin_options ";
	size_t keep = OQ_OPENSM_CONF_LINE_MAX - (sizeof(key) - 1);
	size_t len = 0, line_len;
	char text[3000], name[32];
	unsigned int n;
	struct oq_conf c;
	size_t i;

	(void)state;
	len += (size_t)sprintf(text + len, "qos TRUE\n");
	/* Exactly OQ_OPENSM_CONF_LINE_MAX characters: whole. */
	len += (size_t)sprintf(text + len, "%s", key);
	for (i = 0; i < keep; i++)
		text[len++] = 'a';
	text[len++] = '\n';
	assert_int_equal(oq_opensm_conf_long_line(text, len, &n, &line_len,
						  name, sizeof(name)),
			 0);
	assert_int_equal(oq_conf_parse(text, len, &c), 0);
	assert_int_equal(strlen(oq_conf_get(&c, "event_plugin_options")), keep);
	oq_conf_free(&c);
	/* Three characters more: cut after the limit, the rest a key. */
	len--;
	len += (size_t)sprintf(text + len, "bcd qos FALSE\n");
	assert_int_equal(oq_opensm_conf_long_line(text, len, &n, &line_len,
						  name, sizeof(name)),
			 1);
	assert_int_equal(n, 2);
	assert_int_equal(line_len, OQ_OPENSM_CONF_LINE_MAX + 13);
	assert_string_equal(name, "event_plugin_options");
	assert_int_equal(oq_conf_parse(text, len, &c), 0);
	assert_int_equal(strlen(oq_conf_get(&c, "event_plugin_options")), keep);
	assert_string_equal(oq_conf_get(&c, "bcd"), "qos FALSE");
	assert_string_equal(oq_conf_get(&c, "qos"), "TRUE");
	oq_conf_free(&c);
}

/* statfs(2) f_types: NFS, SMB, FUSE (sshfs, fuse-overlayfs) are storage
 * whose server can stop answering; ext4, xfs, tmpfs and overlayfs are
 * local. */
static void test_remote_fs(void **state)
{
	(void)state;
	assert_string_equal(doctor_remote_fs(0x6969), "NFS");
	assert_string_equal(doctor_remote_fs(0xFF534D42), "CIFS");
	assert_string_equal(doctor_remote_fs(0xFE534D42), "SMB2");
	assert_string_equal(doctor_remote_fs(0x65735546), "FUSE");
	assert_null(doctor_remote_fs(0xEF53));	   /* ext2/3/4 */
	assert_null(doctor_remote_fs(0x58465342)); /* xfs */
	assert_null(doctor_remote_fs(0x01021994)); /* tmpfs */
	assert_null(doctor_remote_fs(0x794C7630)); /* overlayfs */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sl2vl_sets),
		cmocka_unit_test(test_vlarb_sets),
		cmocka_unit_test(test_drift_classes),
		cmocka_unit_test(test_remote_fs),
		cmocka_unit_test(test_prom),
		cmocka_unit_test(test_conf),
		cmocka_unit_test(test_conf_long_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
