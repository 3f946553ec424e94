// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: topology loader (ibsim net files, ibnetdiscover output). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <osmqos/model.h>

#include <osmqos/fabric.h>

#include "cmd_output.h"

#ifndef OQ_SRCDIR
#define OQ_SRCDIR "."
#endif
#ifndef OQ_BUILDDIR
#define OQ_BUILDDIR "."
#endif
#define NET_EXAMPLES "/usr/share/doc/ibsim-utils/net-examples"

static struct oq_fabric *parse(const char *text, struct oq_diags *d)
{
	return oq_topology_parse("t.net", text, strlen(text), d);
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

static struct oq_port *port(struct oq_fabric *f, const char *name)
{
	struct oq_port *p = oq_fabric_port_by_name(f, name);

	assert_non_null(p);
	return p;
}

/* Capability words after a link annotation (offline commands only). */
static void test_capability_words(void **state)
{
	static const char text[] =
		"Switch 4 \"sw\"\n"
		"[1] \"a\"[1] # lid 0 4xEDR mtu 4096 vls 4 vlarb 16\n"
		"[2] \"b\"[1] # lid 0 4xEDR\n"
		"[3] \"c\"[1] # lid 0 4xEDR mtu 3000 vls 2\n"
		"[4] \"d\"[1] # lid 0 4xEDR colour blue\n"
		"\n"
		"Hca 1 \"a\" # \"a HCA\"\n"
		"[1] \"sw\"[1] # lid 0 4xEDR mtu 1024 vls 2 vlarb 0\n"
		"Hca 1 \"b\" # \"b HCA\"\n"
		"[1] \"sw\"[2] # lid 0 4xEDR\n"
		"Hca 1 \"c\" # \"c HCA\"\n"
		"[1] \"sw\"[3] # lid 0 4xEDR\n"
		"Hca 1 \"d\" # \"d HCA\"\n"
		"[1] \"sw\"[4] # lid 0 4xEDR\n";
	struct oq_diags d;
	struct oq_fabric *f;
	struct oq_port *p;

	(void)state;
	oq_diags_init(&d);
	f = parse(text, &d);
	assert_non_null(f);
	assert_int_equal(d.n_errors, 0);
	p = port(f, "sw/P1");
	assert_int_equal(p->mtu_cap, 5);
	assert_int_equal(p->vl_cap, 4);
	/* OperVLs: the smaller VLCap of the link's ends (a HCA has 2). */
	assert_int_equal(p->oper_vls, 2);
	assert_int_equal(p->vlarb_high_cap, 16);
	assert_int_equal(p->vlarb_low_cap, 16);
	/* The link's MTU is the smaller end's. */
	assert_int_equal(oq_port_mtu_bytes(f, p), 1024);
	p = port(f, "a HCA/P1");
	assert_int_equal(p->vl_cap, 2);
	assert_int_equal(p->oper_vls, 2);
	assert_int_equal(p->vlarb_low_cap, 0);
	p = port(f, "sw/P2"); /* ibsim's defaults */
	assert_int_equal(p->mtu_cap, 4);
	assert_int_equal(p->vl_cap, 8);
	assert_int_equal(p->oper_vls, 8);
	assert_int_equal(p->vlarb_low_cap, 8);
	assert_true(has_diag(&d, OQ_SEV_WARNING, 4, 0, "bad capability value"));
	assert_int_equal(port(f, "sw/P3")->mtu_cap, 4);
	/* A bad word leaves its default; the words after it still count. */
	assert_int_equal(port(f, "sw/P3")->vl_cap, 2);
	assert_true(has_diag(&d, OQ_SEV_WARNING, 5, 0, "unknown word after"));
	oq_fabric_free(f);
	oq_diags_free(&d);
}

/* GUIDs as ibsim assigned them to this file under a real ibsim run. */
static void test_ibsim_example_guids(void **state)
{
	const char *path = NET_EXAMPLES "/net.2sw2path4hca";
	struct oq_diags d;
	struct oq_fabric *f;

	if (access(path, R_OK))
		skip();
	oq_diags_init(&d);
	f = oq_topology_load(path, &d);
	assert_non_null(f);
	assert_int_equal(d.n_errors, 0);
	assert_int_equal(f->n_nodes, 6);
	assert_int_equal(port(f, "Switch1/P0")->guid, 0x200000);
	assert_int_equal(port(f, "Switch2/P0")->guid, 0x200001);
	assert_int_equal(port(f, "Hca1/P1")->guid, 0x100001);
	assert_int_equal(port(f, "Hca1/P1")->node->guid, 0x100000);
	assert_int_equal(port(f, "Hca2/P1")->guid, 0x100004);
	assert_int_equal(port(f, "Hca3/P1")->guid, 0x100007);
	assert_int_equal(port(f, "Hca4/P1")->guid, 0x10000a);
	assert_int_equal(f->sm_port_guid, 0x200000);
	assert_ptr_equal(oq_port_peer(f, port(f, "Switch1/P3")),
			 port(f, "Switch2/P3"));
	assert_ptr_equal(oq_port_peer(f, port(f, "Hca4/P1")),
			 port(f, "Switch2/P2"));
	assert_int_equal(port(f, "Hca4/P1")->speed, OQ_SPEED_SDR);
	assert_int_equal(port(f, "Hca4/P1")->width, 4);
	/* Unconnected ports are absent. */
	assert_null(oq_fabric_port_by_name(f, "Hca1/P2"));
	assert_null(oq_fabric_port_by_name(f, "Switch1/P4"));
	/* ibsim's PortInfo defaults. */
	assert_int_equal(port(f, "Hca1/P1")->vl_cap, 8);
	assert_int_equal(port(f, "Hca1/P1")->mtu_cap, 4);
	assert_int_equal(port(f, "Switch1/P0")->mtu_cap, 3);
	assert_int_equal(port(f, "Switch1/P1")->vlarb_high_cap, 8);
	assert_true(port(f, "Hca1/P1")->sl2vl_cap);
	assert_false(port(f, "Switch1/P0")->node->enhanced_port0);
	oq_fabric_free(f);
	oq_diags_free(&d);
}

static void test_all_ibsim_examples(void **state)
{
	static const char *const files[] = { "net", "net.1", "net.2sw2path",
					     "net.2sw2path4hca",
					     "net.2sw2path4hca2port" };
	size_t i;
	char path[256];

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct oq_diags d;
		struct oq_fabric *f;

		snprintf(path, sizeof(path), NET_EXAMPLES "/%s", files[i]);
		if (access(path, R_OK))
			skip();
		oq_diags_init(&d);
		f = oq_topology_load(path, &d);
		assert_non_null(f);
		assert_int_equal(d.n_errors, 0);
		assert_true(f->n_nodes >= 3);
		oq_fabric_free(f);
		oq_diags_free(&d);
	}
}

static int cmp_port_guid(const void *a, const void *b)
{
	const struct oq_port *x = *(struct oq_port *const *)a;
	const struct oq_port *y = *(struct oq_port *const *)b;

	if (x->node->guid != y->node->guid)
		return x->node->guid < y->node->guid ? -1 : 1;
	return x->num - y->num;
}

/* The net file and the ibnetdiscover capture of it running under ibsim
 * and OpenSM describe the same fabric. */
static void test_net_equals_ibnetdiscover(void **state)
{
	struct oq_diags d;
	struct oq_fabric *a, *b;
	size_t i, speeds[16] = { 0 };

	oq_diags_init(&d);
	a = oq_topology_load(OQ_SRCDIR "/contrib/fabrics/fat-tree-16.net", &d);
	b = oq_topology_load(OQ_SRCDIR "/tests/data/fat-tree-16.ibnd", &d);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(d.n_errors + d.n_warnings, 0);
	assert_int_equal(a->n_nodes, 22);
	assert_int_equal(b->n_nodes, 22);
	assert_int_equal(a->n_ports, b->n_ports);
	qsort(a->ports, a->n_ports, sizeof(*a->ports), cmp_port_guid);
	qsort(b->ports, b->n_ports, sizeof(*b->ports), cmp_port_guid);
	for (i = 0; i < a->n_ports; i++) {
		struct oq_port *p = a->ports[i], *q = b->ports[i];
		struct oq_port *pp = oq_port_peer(a, p),
			       *qp = oq_port_peer(b, q);

		assert_int_equal(p->node->guid, q->node->guid);
		assert_int_equal(p->num, q->num);
		assert_int_equal(p->guid, q->guid);
		assert_int_equal(p->node->type, q->node->type);
		assert_string_equal(p->node->desc, q->node->desc);
		assert_int_equal(p->width, q->width);
		assert_int_equal(p->speed, q->speed);
		assert_int_equal(!pp, !qp);
		if (pp) {
			assert_int_equal(pp->node->guid, qp->node->guid);
			assert_int_equal(pp->num, qp->num);
		}
		/* OpenSM had assigned LIDs in the capture. */
		assert_int_equal(p->lid, 0);
		if (oq_port_is_endport(q))
			assert_true(q->lid > 0);
		speeds[p->speed]++;
	}
	/* Mixed speeds: QDR compute, FDR storage, EDR core. */
	assert_int_equal(speeds[OQ_SPEED_QDR], 2 * 12);
	assert_int_equal(speeds[OQ_SPEED_FDR], 2 * 4);
	assert_int_equal(speeds[OQ_SPEED_EDR], 2 * 8);
	assert_int_equal(b->sm_port_guid, 0x200000);
	assert_int_equal(port(b, "stor1 HCA-1/P1")->speed, OQ_SPEED_FDR);
	assert_int_equal(port(b, "leaf01/P5")->speed, OQ_SPEED_EDR);
	assert_int_equal(port(a, "cn01 HCA-1/P1")->speed, OQ_SPEED_QDR);
	assert_int_equal(port(a, "cn01 HCA-1/P1")->guid, 0x100003);
	/* (ports[] is re-sorted now: only name lookups were used since.) */
	oq_fabric_free(a);
	oq_fabric_free(b);
	oq_diags_free(&d);
}

static const char ibnd_text[] =
	"#\n# Topology file: generated on today\n#\n"
	"# Initiated from node 0000000000200000 port 00000000000a0001\n"
	"\nvendid=0x2c9\ndevid=0xc738\nsysimgguid=0x200000\n"
	"switchguid=0x200000(200000)\n"
	"Switch\t8 \"S-0000000000200000\"\t\t# \"sw/rack 2\" enhanced port 0 "
	"lid 3 lmc 0\n"
	"[1]\t\"H-00000000000a0000\"[1](a0001) \t\t# \"h1 HCA-1\" lid 4 "
	"4xEDR\n"
	"[2]\t\"H-00000000000b0000\"[2](b0002) \t\t# \"h2 HCA-1\" lid 6 "
	"4xNDR\n"
	"\nvendid=0x2c9\ndevid=0x1017\nsysimgguid=0xa0000\n"
	"caguid=0xa0000\n"
	"Ca\t1 \"H-00000000000a0000\"\t\t# \"h1 HCA-1\"\n"
	"[1](a0001) \t\"S-0000000000200000\"[1]\t\t# lid 4 lmc 1 "
	"\"sw/rack 2\" lid 3 4xEDR\n"
	"\ncaguid=0xb0000\n"
	"Ca\t2 \"H-00000000000b0000\"\t\t# \"h2 HCA-1\"\n"
	"[2](b0002) \t\"S-0000000000200000\"[2]\t\t# lid 6 lmc 0 "
	"\"sw/rack 2\" lid 3 4xNDR\n";

static void test_ibnetdiscover_text(void **state)
{
	struct oq_diags d;
	struct oq_fabric *f;
	struct oq_port *h1, *h2;

	oq_diags_init(&d);
	f = parse(ibnd_text, &d);
	assert_non_null(f);
	assert_int_equal(d.n_errors + d.n_warnings, 0);
	h1 = port(f, "h1 HCA-1/P1");
	h2 = port(f, "h2 HCA-1/P2");
	assert_int_equal(h1->guid, 0xa0001);
	assert_int_equal(h1->node->guid, 0xa0000);
	assert_int_equal(h2->guid, 0xb0002);
	assert_int_equal(h1->lid, 4);
	assert_int_equal(h1->lmc, 1);
	assert_ptr_equal(oq_fabric_port_by_lid(f, 5), h1);
	assert_int_equal(h1->speed, OQ_SPEED_EDR);
	/* Real ibnetdiscover output keeps NDR. */
	assert_int_equal(h2->speed, OQ_SPEED_NDR);
	assert_int_equal(port(f, "sw/rack 2/P0")->lid, 3);
	assert_true(port(f, "sw/rack 2/P0")->node->enhanced_port0);
	assert_int_equal(f->sm_port_guid, 0xa0001);
	assert_ptr_equal(oq_fabric_parse_port(f, "lid:6"), h2);
	oq_fabric_free(f);
	oq_diags_free(&d);
}

/* ibnd_text with every "from" replaced by "to"; free() it. */
static char *ibnd_with(const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to), n = 0;
	const char *s = ibnd_text, *hit;
	char *out, *o;

	for (hit = s; (hit = strstr(hit, from)); hit += fl)
		n++;
	out = malloc(sizeof(ibnd_text) + n * tl);
	assert_non_null(out);
	o = out;
	while ((hit = strstr(s, from))) {
		memcpy(o, s, (size_t)(hit - s));
		o += hit - s;
		memcpy(o, to, tl);
		o += tl;
		s = hit + fl;
	}
	strcpy(o, s);
	return out;
}

/* ibnetdiscover on real hardware reads Mellanox's FDR10 extension, as
 * OpenSM does: a link both ends report as FDR10 runs at FDR10, not QDR
 * (a net file's FDR10 stays QDR, as ibsim runs it). */
static void test_ibnetdiscover_fdr10(void **state)
{
	char *text = ibnd_with("4xNDR", "4xFDR10");
	struct oq_diags d;
	struct oq_fabric *f;

	oq_diags_init(&d);
	f = parse(text, &d);
	assert_non_null(f);
	assert_int_equal(d.n_errors + d.n_warnings, 0);
	assert_int_equal(port(f, "h2 HCA-1/P2")->speed, OQ_SPEED_FDR10);
	assert_int_equal(port(f, "sw/rack 2/P2")->speed, OQ_SPEED_FDR10);
	assert_int_equal(port(f, "h1 HCA-1/P1")->speed, OQ_SPEED_EDR);
	oq_fabric_free(f);
	oq_diags_free(&d);
	free(text);

	/* An end with an extended speed and one with FDR10 only share no
	 * extended speed: FDR10 too. */
	text = ibnd_with("lid 3 4xNDR", "lid 3 4xFDR10");
	oq_diags_init(&d);
	f = parse(text, &d);
	assert_non_null(f);
	assert_int_equal(port(f, "h2 HCA-1/P2")->speed, OQ_SPEED_FDR10);
	oq_fabric_free(f);
	oq_diags_free(&d);
	free(text);

	/* QDR at one end: QDR. */
	text = ibnd_with("lid 3 4xNDR", "lid 3 4xQDR");
	oq_diags_init(&d);
	f = parse(text, &d);
	assert_non_null(f);
	assert_int_equal(port(f, "h2 HCA-1/P2")->speed, OQ_SPEED_QDR);
	oq_fabric_free(f);
	oq_diags_free(&d);
	free(text);
}

/* The column of the first "key" in line n (from 1) of text, plus skip. */
static unsigned int col_in_line(const char *text, unsigned int n,
				const char *key, size_t skip)
{
	const char *l = text, *k;

	while (--n)
		l = strchr(l, '\n') + 1;
	k = strstr(l, key);
	assert_non_null(k);
	return (unsigned int)(k - l + 1 + skip);
}

/* OpenSM gives unicast LIDs (1..0xBFFF) and LMCs 0..7 only: anything
 * else in the trailers is a warning at the number, and the port gets no
 * LID (0) or LMC 0, never a LID lid:N would find it by. */
static void test_ibnetdiscover_lid_range(void **state)
{
	static const struct {
		const char *from, *to, *frag;
		unsigned int line;
	} cases[] = {
		{"lid 3 lmc 0", "lid 70000 lmc 0",
		 "LID 70000 is wider than 16 bits, not a unicast LID", 10},
		{"lid 3 lmc 0", "lid 0xc000 lmc 0",
		 "LID 0xc000 is a multicast LID", 10},
		{"lid 3 lmc 0", "lid 65535 lmc 0",
		 "LID 65535 is the permissive LID", 10},
		{"lid 4 lmc 1", "lid 0xBFFF0 lmc 1", "LID 0xBFFF0 is wider",
		 19},
		{"lid 4 lmc 1", "lid 4 lmc 9",
		 "LMC 9 is above 7; the port is taken to have LMC 0", 19},
	};
	struct oq_diags d;
	struct oq_fabric *f;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = ibnd_with(cases[i].from, cases[i].to);
		const char *key =
			strstr(cases[i].frag, "LMC") ? "lmc " : "lid ";
		unsigned int col =
			col_in_line(text, cases[i].line, cases[i].to,
				    strstr(cases[i].to, key) - cases[i].to + 4);
		struct oq_port *p;

		oq_diags_init(&d);
		f = parse(text, &d);
		assert_non_null(f);
		assert_int_equal(d.n_errors, 0);
		assert_int_equal(d.n_warnings, 1);
		assert_true(has_diag(&d, OQ_SEV_WARNING, cases[i].line, col,
				     cases[i].frag));
		p = port(f,
			 cases[i].line == 10 ? "sw/rack 2/P0" : "h1 HCA-1/P1");
		if (key[1] == 'i') {
			assert_int_equal(p->lid, 0);
			assert_null(oq_fabric_port_by_lid(f, 0xc000));
		} else {
			assert_int_equal(p->lid, 4);
			assert_int_equal(p->lmc, 0);
		}
		oq_fabric_free(f);
		oq_diags_free(&d);
		free(text);
	}
	/* The edges: 0xBFFF and LMC 7 stand. */
	{
		char *text = ibnd_with("lid 4 lmc 1", "lid 0xBFFF lmc 7");

		oq_diags_init(&d);
		f = parse(text, &d);
		assert_non_null(f);
		assert_int_equal(d.n_errors + d.n_warnings, 0);
		assert_int_equal(port(f, "h1 HCA-1/P1")->lid, 0xbfff);
		assert_int_equal(port(f, "h1 HCA-1/P1")->lmc, 7);
		oq_fabric_free(f);
		oq_diags_free(&d);
		free(text);
	}
}

/* ibnetdiscover quotes a NodeDescription without escaping inner quotes;
 * the description is all of it, as OpenSM (and the plugin) hold it. */
static void test_ibnetdiscover_inner_quotes(void **state)
{
	static const char from[] = "\"h1 HCA-1\"\n";
	static const char to[] = "\"my \"big\" hca\"\n";
	char *text = malloc(sizeof(ibnd_text) + 64), *at;
	struct oq_diags d;
	struct oq_fabric *f;

	assert_non_null(text);
	strcpy(text, ibnd_text);
	at = strstr(text, "Ca\t1 \"H-00000000000a0000\"\t\t# ");
	assert_non_null(at);
	at = strstr(at, from);
	memmove(at + strlen(to), at + strlen(from),
		strlen(at + strlen(from)) + 1);
	memcpy(at, to, strlen(to));
	oq_diags_init(&d);
	f = parse(text, &d);
	assert_non_null(f);
	assert_int_equal(port(f, "my \"big\" hca/P1")->guid, 0xa0001);
	oq_fabric_free(f);
	oq_diags_free(&d);

	/* Words of the trailer inside the description do not end it; the
	 * switch's own trailer still gives its LID. */
	strcpy(text, ibnd_text);
	at = strstr(text, "# \"sw/rack 2\" enhanced");
	assert_non_null(at);
	memmove(at + 15, at + 13, strlen(at + 13) + 1);
	memcpy(at, "# \"a \"b\" lid c\"", 15);
	oq_diags_init(&d);
	f = parse(text, &d);
	assert_non_null(f);
	assert_int_equal(port(f, "a \"b\" lid c/P0")->lid, 3);
	oq_fabric_free(f);
	oq_diags_free(&d);
	free(text);
}

/* Files that are no topology are refused with the reason, not read as an
 * empty fabric. */
static void test_not_a_topology(void **state)
{
	static const char elf[] = "\177ELF\2\1\1\0\0\0\0\0";
	static const char *const texts[] = {
		"", "\n\n", "# only a comment\n",
		"qos-ulps\n    default : 0\nend-qos-ulps\n",
	};
	struct oq_diags d;
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		oq_diags_init(&d);
		assert_null(oq_topology_parse("x", texts[i], strlen(texts[i]),
					      &d));
		assert_true(has_diag(&d, OQ_SEV_ERROR, 0, 0, "no node"));
		oq_diags_free(&d);
	}
	oq_diags_init(&d);
	assert_null(oq_topology_parse("x", elf, sizeof(elf) - 1, &d));
	assert_true(has_diag(&d, OQ_SEV_ERROR, 0, 0, "a binary file"));
	assert_int_equal(d.n, 1);
	oq_diags_free(&d);
}

static void test_speed_negotiation(void **state)
{
	static const char text[] =
		"Switch 6 \"sw\"\n"
		"[1] \"a\"[1] # lid 0 4xQDR\n" /* only this end: SDR */
		"[2] \"b\"[1] # lid 0 4xEDR\n" /* EDR vs FDR: FDR */
		"[3] \"c\"[1] # lid 0 12xDDR\n" /* 12x vs 4x: 4x */
		"[4] \"d\"[1] w=1\n"		  /* 1x, both ends */
		"[5] \"e\"[1] # lid 0 4xFDR10\n" /* FDR10 shows as QDR */
		"[6] \"g\"[1] # lid 0 4xNDR\n"	  /* ibsim 0.10: no NDR */
		"\n"
		"Hca 1 \"a\"\n[1] \"sw\"[1]\n\n"
		"Hca 1 \"b\"\n[1] \"sw\"[2] # lid 0 4xFDR\n\n"
		"Hca 1 \"c\"\n[1] \"sw\"[3] # lid 0 4xDDR\n\n"
		"Hca 1 \"d\"\n[1] \"sw\"[4] w=1\n\n"
		"Hca 1 \"e\"\n[1] \"sw\"[5] # lid 0 4xFDR10\n\n"
		"Hca 1 \"g\"\n[1] \"sw\"[6] # lid 0 4xNDR\n";
	struct oq_diags d;
	struct oq_fabric *f;

	oq_diags_init(&d);
	f = parse(text, &d);
	assert_non_null(f);
	assert_int_equal(d.n_errors, 0);
	assert_int_equal(port(f, "a/P1")->speed, OQ_SPEED_SDR);
	assert_true(has_diag(&d, OQ_SEV_WARNING, 2, 1, "only this end"));
	assert_int_equal(port(f, "b/P1")->speed, OQ_SPEED_FDR);
	assert_true(has_diag(&d, OQ_SEV_WARNING, 3, 1, "4xEDR and 4xFDR"));
	assert_int_equal(port(f, "c/P1")->speed, OQ_SPEED_DDR);
	assert_int_equal(port(f, "c/P1")->width, 4);
	assert_int_equal(port(f, "d/P1")->width, 1);
	assert_int_equal(port(f, "e/P1")->speed, OQ_SPEED_QDR);
	assert_int_equal(port(f, "g/P1")->speed, OQ_SPEED_SDR);
	assert_true(has_diag(&d, OQ_SEV_WARNING, 7, 0, "NDR"));
	oq_fabric_free(f);
	oq_diags_free(&d);
}

static void test_global_settings_and_guid_bases(void **state)
{
	static const char text[] =
		"width=1\nspeed=4\n"
		"caguid=0x500000\nswitchguid=0x700000\n"
		"Hca 3 \"h1\"\n[2] \"s\"[1]\n\n"
		"Hca 1 \"h2\"\n[1] \"s\"[2]\n\n"
		"Switch 2 \"s\" # \"big switch\" base port 0 lid 9 lmc 1\n"
		"[1] \"h1\"[2]\n[2] \"h2\"[1]\n\n"
		"rtguid=0x900000\n"
		"Rt 1 \"r\"\n";
	struct oq_diags d;
	struct oq_fabric *f;

	oq_diags_init(&d);
	f = parse(text, &d);
	assert_non_null(f);
	assert_int_equal(d.n_errors, 0);
	assert_int_equal(port(f, "h1/P2")->guid, 0x500002);
	/* Three ports reserve four GUIDs. */
	assert_int_equal(port(f, "h2/P1")->guid, 0x500005);
	assert_int_equal(port(f, "big switch/P0")->guid, 0x700000);
	assert_int_equal(port(f, "big switch/P0")->lid, 9);
	assert_int_equal(port(f, "big switch/P0")->lmc, 1);
	assert_int_equal(port(f, "h2/P1")->width, 1);
	assert_int_equal(port(f, "h2/P1")->speed, OQ_SPEED_QDR);
	assert_int_equal(oq_fabric_node_by_guid(f, 0x900000)->type,
			 OQ_NODE_ROUTER);
	/* The first node's first port is ibsim's default (SM) port. */
	assert_int_equal(f->sm_port_guid, 0x500001);
	oq_fabric_free(f);
	oq_diags_free(&d);
}

static void test_errors_have_locations(void **state)
{
	static const struct {
		const char *text;
		unsigned int line, col;
		const char *frag;
	} cases[] = {
		{ "Switch x \"s\"\n", 1, 8, "number of ports" },
		{ "Switch 300 \"s\"\n", 1, 8, "1 to 254" },
		{ "Hca 1 s\n", 1, 7, "quoted node id" },
		{ "Hca 1 \"a#b\"\n", 1, 8, "bad node id" },
		{ "Hca 1 \"a\"\n\nHca 1 \"a\"\n", 3, 8, "already used" },
		{ "Hca 1 \"a\"\n[2] \"b\"[1]\n", 2, 2, "out of range" },
		{ "Hca 1 \"a\"\n[x] \"b\"[1]\n", 2, 2, "port number" },
		{ "Hca 1 \"a\"\n[1] b\n", 2, 5, "quoted id" },
		{ "Hca 1 \"a\"\n[1] \"b\"[0]\n", 2, 8, "remote port" },
		{ "Hca 1 \"a\"\n@[1] \"b\"[1]\n", 2, 1, "aliases" },
		{ "Hca 1 \"a\"\n[1] \"b\"[1] w=99\n", 2, 12, "bad port option" },
		{ "Hca 1 \"a\"\n[1] \"nobody\"[1]\n", 2, 1, "no node" },
		{ "Hca 1 \"a\"\n[1] \"b\"[1]\n\nHca 1 \"b\"\n", 2, 1,
		  "does not list" },
		{ "Hca 2 \"a\"\n[1] \"b\"[1]\n[2] \"b\"[1]\n\n"
		  "Hca 1 \"b\"\n[1] \"a\"[1]\n",
		  3, 1, "not to" },
		{ "Hca 1 \"a\"\n[1] \"b\"[3]\n\nHca 1 \"b\"\n", 2, 1,
		  "has no port 3" },
		{ "Hca 1 \"a\"\n[1] \"b\"[1] w=4\n\n"
		  "Hca 1 \"b\"\n[1] \"a\"[1] w=2\n",
		  2, 1, "no common width" },
		{ "speed=9\n", 1, 7, "out of range" },
		{ "switchguid 5\n", 1, 1, "'=' or '+'" },
		{ "Hca 2 \"a\"\n[1] \"a\"[1]\n", 2, 1, "itself" },
		/* One GUID or LID twice: at the second, naming the first's
		 * line. */
		{ "caguid=0x10\nHca 1 \"a\"\n[1] \"b\"[1]\n\n"
		  "caguid=0x10\nHca 1 \"b\"\n[1] \"a\"[1]\n",
		  6, 1, "node GUID 0x0000000000000010 of \"b\" is also that "
			"of \"a\", first on line 2" },
		{ "caguid=0x10\nHca 1 \"a\"\n[1] \"b\"[1]\n\n"
		  "caguid=0x10\nHca 1 \"b\"\n[1] \"a\"[1]\n",
		  7, 1, "port GUID 0x0000000000000011 of b/P1 is also that "
			"of a/P1, first on line 3" },
		{ "Hca 1 \"a\"\n[1] \"b\"[1] # lid 5 lmc 0 \"b\" lid 5 4xSDR\n\n"
		  "Hca 1 \"b\"\n[1] \"a\"[1] # lid 5 lmc 0 \"a\" lid 5 4xSDR\n",
		  5, 1, "LID 5 of b/P1 is also that of a/P1, first on line 2" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct oq_diags d;
		struct oq_fabric *f;

		oq_diags_init(&d);
		f = parse(cases[i].text, &d);
		if (!has_diag(&d, OQ_SEV_ERROR, cases[i].line, cases[i].col,
			      cases[i].frag)) {
			print_error("case %zu: no error '%s' at %u:%u\n", i,
				    cases[i].frag, cases[i].line, cases[i].col);
			oq_diags_print(&d, stderr);
			fail();
		}
		assert_null(f);
		oq_diags_free(&d);
	}
}

/* A bad port option is quoted as the file writes it, never as the value
 * the reader took from it. */
static void test_bad_port_option_as_written(void **state)
{
	static const char *const opts[] = {
		"w=-1", "w=99", "s=0x10", "e=99999999999", "w=x",
	};
	char text[128], want[64];
	struct oq_diags d;
	size_t i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		snprintf(text, sizeof(text),
			 "Hca 1 \"a\"\n[1] \"b\"[1] %s # lid 0 4xQDR\n",
			 opts[i]);
		snprintf(want, sizeof(want), "bad port option '%s'", opts[i]);
		oq_diags_init(&d);
		assert_null(parse(text, &d));
		if (!has_diag(&d, OQ_SEV_ERROR, 2, 12, want)) {
			print_error("no \"%s\"\n", want);
			oq_diags_print(&d, stderr);
			fail();
		}
		oq_diags_free(&d);
	}
}

static void test_quirks(void **state)
{
	static const char text[] =
		"# comment\n"
		"include \"other.net\"\n"
		"do link stuff\n"
		"Hca 1 \"a\" # \"desc with /P7 inside\"\n"
		"# comment inside a record\n"
		"[1] \"s\"[1]\n"
		"[2] \"s\"[2]\n" /* beyond the node's ports: ignored */
		"Hca 2 \"b\"\n"
		"[1] \"s\"[2]\n"
		"Switch 2 \"s\"\n" /* ibsim would skip this line */
		"[1] \"a\"[1]\n"
		"[2] \"b\"[1]\r\n";
	struct oq_diags d;
	struct oq_fabric *f;

	oq_diags_init(&d);
	f = parse(text, &d);
	assert_non_null(f);
	assert_int_equal(d.n_errors, 0);
	assert_true(has_diag(&d, OQ_SEV_WARNING, 2, 1, "include"));
	assert_true(has_diag(&d, OQ_SEV_WARNING, 7, 1, "ibsim ignores"));
	assert_true(has_diag(&d, OQ_SEV_WARNING, 10, 1, "ibsim skips"));
	assert_non_null(oq_port_peer(f, port(f, "desc with /P7 inside/P1")));
	oq_fabric_free(f);
	oq_diags_free(&d);
}

static void test_garbage_never_crashes(void **state)
{
	static const char *const texts[] = {
		"", "\n\n", "Switch", "Switch 1", "Switch 1 \"", "Hca 1 \"a\"\n[",
		"Hca 1 \"a\"\n[1", "Hca 1 \"a\"\n[1] \"", "Ca 1 \"a\" #",
		"Ca 1 \"a\" # \"unterminated",
		"Hca 1 \"a\"\n[1] \"a\"[1] # lid", "Hca 1 \"a\"\n[1] \"b\"[1] =",
		"Hca 1 \"a\"\n[1](zz \"b\"[1] # lid 1 4x",
		"Rt 1 \"r\"\n[1] \"r\"[1] lid 3 4xQDR",
		"Switch 1 \"s\" # lid 99999999999 lmc 99\n",
	};
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct oq_diags d;

		oq_diags_init(&d);
		oq_fabric_free(parse(texts[i], &d));
		oq_diags_free(&d);
	}
	/* Embedded NUL bytes and no final newline. */
	{
		static const char bin[] = "Hca 1 \"a\0b\"\n[1]\0\"x\"";
		struct oq_diags d;

		oq_diags_init(&d);
		oq_fabric_free(oq_topology_parse("bin", bin, sizeof(bin) - 1,
						 &d));
		oq_diags_free(&d);
	}
	oq_fabric_free(oq_topology_parse("x", "Hca 1 \"a\"\n", 10, NULL));
}

static char *run_gen(const char *args, size_t *len)
{
	char cmd[512], *buf;

	snprintf(cmd, sizeof(cmd), OQ_BUILDDIR "/contrib/fabrics/gen-fattree %s",
		 args);
	buf = fx_cmd_output(cmd, len);
	assert_non_null(buf);
	return buf;
}

/* gen-fattree: 20264 nodes, both formats, the same fabric. */
static void test_generated_scale(void **state)
{
	static const char args[] =
		"--spines 64 --leaves 200 --hcas-per-leaf 100 "
		"--storage-per-leaf 1 --speed-edge EDR --speed-core HDR";
	char a2[sizeof(args) + 32], *t1, *t2;
	size_t l1, l2, i;
	struct oq_diags d;
	struct oq_fabric *f1, *f2;

	if (access(OQ_BUILDDIR "/contrib/fabrics/gen-fattree", X_OK))
		skip();
	snprintf(a2, sizeof(a2), "%s --format ibnetdiscover", args);
	t1 = run_gen(args, &l1);
	t2 = run_gen(a2, &l2);
	oq_diags_init(&d);
	f1 = oq_topology_parse("gen.net", t1, l1, &d);
	f2 = oq_topology_parse("gen.ibnd", t2, l2, &d);
	assert_non_null(f1);
	assert_non_null(f2);
	assert_int_equal(d.n_errors + d.n_warnings, 0);
	assert_int_equal(f1->n_nodes, 64 + 200 + 200 * 100);
	assert_int_equal(f2->n_nodes, f1->n_nodes);
	assert_int_equal(f2->n_ports, f1->n_ports);
	for (i = 0; i < f1->n_ports; i += 97) {
		struct oq_port *p = f1->ports[i], *q;
		char name[96];

		oq_port_name(p, name, sizeof(name));
		q = oq_fabric_port_by_name(f2, name);
		assert_non_null(q);
		assert_int_equal(p->guid, q->guid);
		assert_int_equal(p->speed, q->speed);
		if (oq_port_is_endport(q))
			assert_ptr_equal(oq_fabric_port_by_lid(f2, q->lid), q);
	}
	assert_int_equal(port(f1, "stor7 HCA-1/P1")->speed, OQ_SPEED_EDR);
	assert_int_equal(port(f1, "spine64/P200")->speed, OQ_SPEED_HDR);
	oq_fabric_free(f1);
	oq_fabric_free(f2);
	free(t1);
	free(t2);
	oq_diags_free(&d);
}

static void test_missing_file(void **state)
{
	struct oq_diags d;

	oq_diags_init(&d);
	assert_null(oq_topology_load("/nonexistent/fabric.net", &d));
	assert_int_equal(d.n_errors, 1);
	assert_non_null(d.v[0].hint);
	oq_diags_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capability_words),
		cmocka_unit_test(test_ibsim_example_guids),
		cmocka_unit_test(test_all_ibsim_examples),
		cmocka_unit_test(test_net_equals_ibnetdiscover),
		cmocka_unit_test(test_ibnetdiscover_text),
		cmocka_unit_test(test_ibnetdiscover_fdr10),
		cmocka_unit_test(test_ibnetdiscover_lid_range),
		cmocka_unit_test(test_speed_negotiation),
		cmocka_unit_test(test_global_settings_and_guid_bases),
		cmocka_unit_test(test_errors_have_locations),
		cmocka_unit_test(test_bad_port_option_as_written),
		cmocka_unit_test(test_quirks),
		cmocka_unit_test(test_garbage_never_crashes),
		cmocka_unit_test(test_generated_scale),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_ibnetdiscover_inner_quotes),
		cmocka_unit_test(test_not_a_topology),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
