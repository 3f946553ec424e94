// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the operator's job map (contrib/osmqos/job_map.c): every
 * key (job-env's options among them, with their ranges; all of them in
 * the unknown keyword's hint), first-match resolution, the job's own
 * request honoured only where the map allows it (class none only where
 * opting out is), and undone when the policy cannot give it; and bad input:
 * malformed lines and relative paths named FILE:LINE:COL, an empty file, CRLF,
 * invalid UTF-8 and control bytes, an overlong line and an oversized file, a
 * directory and a FIFO (refused, not waited on).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "job_map.h"

static const char full[] =
	"# the site's job map\n"
	"fabric     /var/lib/osmqos/fabric.ibnd\n"
	"policy     /etc/opensm/qos-policy.conf   # the plugin's\n"
	"partitions /etc/opensm/partitions.conf\n"
	"osmqos     /usr/bin/osmqos\n"
	"spool      /run/osmqos/slurm\n"
	"default    level DEFAULT\n"
	"prefer     most\n"
	"allow-opt-out  yes\n"
	"allow-override no\n"
	"\n"
	"map partition=storage            sid 0x1000000000000001\n"
	"map qos=mpi                      qos-class 5\n"
	"map account=tenant-a             pkey 0x8003\n"
	"map partition=gpu qos=high       level gold\n"
	"map partition=debug              none\n"
	"\tmap\taccount=plain\tplain\n";

struct fx {
	struct oq_job_map m;
	struct oq_diags d;
	char text[512];
};

static int parse(struct fx *f, const char *text, size_t len)
{
	oq_diags_init(&f->d);
	return oq_job_map_parse(&f->m, "jobs.map", text, len, &f->d);
}

static void done(struct fx *f)
{
	oq_job_map_free(&f->m);
	oq_diags_free(&f->d);
}

/* The first diagnostic, formatted. */
static const char *first(struct fx *f)
{
	static char buf[1024];

	assert_true(f->d.n > 0);
	oq_diag_format(&f->d.v[0], buf, sizeof(buf));
	return buf;
}

static void resolve(const struct oq_job_map *m, const char *part,
		    const char *qos, const char *acct, const char *req,
		    struct oq_job_map_result *r)
{
	const char *attr[OQ_JA_N] = {part, qos, acct};

	oq_job_map_resolve(m, attr, req, r);
}

static void test_full_file(void **state)
{
	struct fx f;
	struct oq_job_map_result r;

	(void)state;
	assert_int_equal(parse(&f, full, strlen(full)), 0);
	assert_int_equal(f.d.n, 0);
	assert_string_equal(f.m.fabric, "/var/lib/osmqos/fabric.ibnd");
	assert_string_equal(f.m.policy, "/etc/opensm/qos-policy.conf");
	assert_string_equal(f.m.partitions, "/etc/opensm/partitions.conf");
	assert_string_equal(f.m.osmqos, "/usr/bin/osmqos");
	assert_string_equal(f.m.spool, "/run/osmqos/slurm");
	assert_int_equal(f.m.dflt.kind, OQ_JC_LEVEL);
	assert_string_equal(f.m.dflt.level, "DEFAULT");
	assert_true(f.m.has_prefer);
	assert_int_equal(f.m.prefer.mode, OQ_PREFER_MOST);
	assert_true(f.m.allow_opt_out);
	assert_false(f.m.allow_override);
	assert_int_equal(f.m.n_rules, 6);
	/* A P_Key's membership bit is dropped. */
	assert_int_equal(f.m.rules[2].cls.kind, OQ_JC_PKEY);
	assert_int_equal(f.m.rules[2].cls.value, 3);

	resolve(&f.m, "storage", NULL, NULL, NULL, &r);
	assert_int_equal(r.cls.kind, OQ_JC_SID);
	assert_true(r.cls.value == 0x1000000000000001ull);
	assert_string_equal(r.why, "jobs.map:12 (partition=storage)");
	resolve(&f.m, "batch", "mpi", "x", NULL, &r);
	assert_int_equal(r.cls.kind, OQ_JC_QOS_CLASS);
	assert_int_equal(r.cls.value, 5);
	/* Both attributes of a line must match; the first line wins. */
	resolve(&f.m, "gpu", "low", NULL, NULL, &r);
	assert_int_equal(r.cls.kind, OQ_JC_LEVEL);
	assert_string_equal(r.cls.level, "DEFAULT");
	assert_string_equal(r.why, "jobs.map:7 (default: no map line matches)");
	resolve(&f.m, "gpu", "high", NULL, NULL, &r);
	assert_string_equal(r.cls.level, "gold");
	assert_string_equal(r.why, "jobs.map:15 (partition=gpu qos=high)");
	resolve(&f.m, "storage", "mpi", NULL, NULL, &r);
	assert_int_equal(r.cls.kind, OQ_JC_SID);
	resolve(&f.m, "debug", NULL, NULL, NULL, &r);
	assert_int_equal(r.cls.kind, OQ_JC_NONE);
	resolve(&f.m, NULL, NULL, "plain", NULL, &r);
	assert_int_equal(r.cls.kind, OQ_JC_PLAIN);
	/* Values compare exactly. */
	resolve(&f.m, "Storage", NULL, NULL, NULL, &r);
	assert_int_equal(r.cls.kind, OQ_JC_LEVEL);
	done(&f);
}

static void test_requests(void **state)
{
	static const char allow[] = "default plain\nallow-opt-out yes\n"
				    "allow-override yes\n"
				    "map partition=p qos-class 1\n";
	static const char deny[] =
		"default plain\nmap partition=p qos-class 1\n";
	struct oq_job_map_result r;
	struct fx f;

	(void)state;
	assert_int_equal(parse(&f, allow, strlen(allow)), 0);
	resolve(&f.m, "p", NULL, NULL, "run osmqos=off please", &r);
	assert_int_equal(r.cls.kind, OQ_JC_NONE);
	assert_string_equal(r.note, "");
	resolve(&f.m, "p", NULL, NULL, "x;osmqos=sid:0x42,y", &r);
	assert_int_equal(r.cls.kind, OQ_JC_SID);
	assert_int_equal(r.cls.value, 0x42);
	assert_string_equal(r.why, "the job's request osmqos=sid:0x42");
	resolve(&f.m, "p", NULL, NULL, "osmqos=level:gold", &r);
	assert_string_equal(r.cls.level, "gold");
	resolve(&f.m, "p", NULL, NULL, "osmqos=qos-class:9999", &r);
	assert_int_equal(r.cls.kind, OQ_JC_QOS_CLASS);
	assert_int_equal(r.cls.value, 1); /* kept */
	assert_non_null(strstr(r.note, "is no class"));
	resolve(&f.m, "p", NULL, NULL, "osmqos=off osmqos=plain", &r);
	assert_int_equal(r.cls.kind, OQ_JC_QOS_CLASS);
	assert_non_null(strstr(r.note, "more than once"));
	/* A word longer than 80 bytes is no class, not its first 80 bytes
	 * read as one (here sid 0). */
	resolve(&f.m, "p", NULL, NULL,
		"osmqos=sid:0x0000000000000000000000000000000000000000000000"
		"00000000000000000000000000001000001",
		&r);
	assert_int_equal(r.cls.kind, OQ_JC_QOS_CLASS);
	assert_int_equal(r.cls.value, 1); /* kept */
	assert_non_null(strstr(r.note, "is no class (too long)"));
	/* A request's bytes are quoted safely. */
	resolve(&f.m, "p", NULL, NULL, "osmqos=\x01\xff", &r);
	assert_non_null(strstr(r.note, "osmqos=??"));
	resolve(&f.m, "p", NULL, NULL, "nothing for osmqos here", &r);
	assert_int_equal(r.cls.kind, OQ_JC_QOS_CLASS);
	assert_string_equal(r.note, "");
	done(&f);

	assert_int_equal(parse(&f, deny, strlen(deny)), 0);
	resolve(&f.m, "p", NULL, NULL, "osmqos=off", &r);
	assert_int_equal(r.cls.kind, OQ_JC_QOS_CLASS);
	assert_non_null(strstr(r.note, "allow-opt-out no"));
	resolve(&f.m, "p", NULL, NULL, "osmqos=sid:1", &r);
	assert_int_equal(r.cls.kind, OQ_JC_QOS_CLASS);
	assert_non_null(strstr(r.note, "allow-override no"));
	assert_non_null(strstr(r.note, "keeps qos-class 1"));
	resolve(&f.m, "other", NULL, NULL, NULL, &r);
	assert_int_equal(r.cls.kind, OQ_JC_PLAIN);
	done(&f);
}

/* Class none exports nothing, as osmqos=off does: a map that forbids
 * opting out but lets jobs choose their class refuses both. */
static void test_request_none_is_opt_out(void **state)
{
	static const char no_opt_out[] = "default level Bulk\n"
					 "allow-override yes\n"
					 "allow-opt-out no\n";
	static const char opt_out[] = "default level Bulk\n"
				      "allow-override yes\n"
				      "allow-opt-out yes\n";
	struct oq_job_map_result r;
	struct fx f;

	(void)state;
	assert_int_equal(parse(&f, no_opt_out, strlen(no_opt_out)), 0);
	resolve(&f.m, NULL, NULL, NULL, "osmqos=none", &r);
	assert_int_equal(r.cls.kind, OQ_JC_LEVEL);
	assert_string_equal(r.cls.level, "Bulk");
	assert_false(r.requested);
	assert_string_equal(r.note,
			    "the job asked for osmqos=none, but the map does "
			    "not allow opting out (allow-opt-out no): it keeps "
			    "level Bulk");
	resolve(&f.m, NULL, NULL, NULL, "osmqos=off", &r);
	assert_int_equal(r.cls.kind, OQ_JC_LEVEL);
	/* Any other class is an override, allowed here. */
	resolve(&f.m, NULL, NULL, NULL, "osmqos=plain", &r);
	assert_int_equal(r.cls.kind, OQ_JC_PLAIN);
	assert_true(r.requested);
	done(&f);

	assert_int_equal(parse(&f, opt_out, strlen(opt_out)), 0);
	resolve(&f.m, NULL, NULL, NULL, "osmqos=none", &r);
	assert_int_equal(r.cls.kind, OQ_JC_NONE);
	assert_string_equal(r.why, "the job opted out (osmqos=none)");
	assert_string_equal(r.note, "");
	done(&f);
}

/* A request the policy cannot give goes back to the map's class, its
 * reason kept; a class the map gave is never undone. */
static void test_unrequest(void **state)
{
	static const char map[] = "default plain\nallow-override yes\n"
				  "map partition=p level Bulk\n";
	struct oq_job_map_result r;
	struct fx f;

	(void)state;
	assert_int_equal(parse(&f, map, strlen(map)), 0);
	resolve(&f.m, "p", NULL, NULL, "osmqos=level:nosuch", &r);
	assert_true(r.requested);
	assert_string_equal(r.cls.level, "nosuch");
	oq_job_map_unrequest(&r, "the policy has no qos-level named 'nosuch'");
	assert_false(r.requested);
	assert_int_equal(r.cls.kind, OQ_JC_LEVEL);
	assert_string_equal(r.cls.level, "Bulk");
	assert_string_equal(r.why, "jobs.map:3 (partition=p)");
	assert_string_equal(r.note,
			    "the job asked for osmqos=level:nosuch, but the "
			    "policy has no qos-level named 'nosuch': it keeps "
			    "level Bulk");
	/* The map's own class: nothing to go back to. */
	resolve(&f.m, "p", NULL, NULL, NULL, &r);
	oq_job_map_unrequest(&r, "whatever");
	assert_string_equal(r.cls.level, "Bulk");
	assert_string_equal(r.note, "");
	done(&f);
}

/* text is refused with want (FILE:LINE:COL: error: ...) first. */
static void bad(const char *text, size_t len, const char *want)
{
	struct fx f;

	if (!parse(&f, text, len))
		fail_msg("taken: %s", text);
	if (!strstr(first(&f), want))
		fail_msg("want '%s', got '%s'", want, first(&f));
	done(&f);
}

static void test_malformed_lines(void **state)
{
	(void)state;
	bad("defualt plain\n", 14,
	    "jobs.map:1:1: error: unknown keyword "
	    "'defualt'");
	bad("\n\nmap plain\n", 11,
	    "jobs.map:3:5: error: a map line needs at "
	    "least one job attribute");
	bad("map partition=a\n", 16,
	    "jobs.map:1:5: error: 'map' needs a "
	    "class");
	bad("map user=bob plain\n", 19,
	    "jobs.map:1:5: error: unknown job "
	    "attribute 'user'");
	bad("map partition= plain\n", 21,
	    "jobs.map:1:5: error: "
	    "'partition=' needs a value");
	bad("map qos=a qos=b plain\n", 22,
	    "jobs.map:1:11: error: 'qos=' "
	    "given twice");
	bad("map qos=a sid\n", 14,
	    "jobs.map:1:11: error: 'sid' needs a "
	    "value");
	bad("map qos=a sid 12x\n", 18,
	    "jobs.map:1:11: error: sid '12x' is "
	    "not a number");
	bad("map qos=a qos-class 4096\n", 25,
	    "qos-class '4096' is not a "
	    "number in 0..4095");
	bad("map qos=a pkey 0x10000\n", 23, "is not a number in 0..65535");
	bad("map qos=a level bad\"name\n", 25, "is no level name");
	bad("map qos=a gold\n", 15, "'gold' is no class");
	bad("map qos=a none extra\n", 21, "'none' takes no value");
	bad("map qos=a sid 1 2\n", 18, "jobs.map:1:17: error: unexpected '2'");
	bad("default plain\ndefault none\n", 27,
	    "jobs.map:2:1: error: 'default' is set twice (first on line 1)");
	bad("prefer maybe\n", 13,
	    "jobs.map:1:8: error: 'maybe' is no "
	    "preference");
	bad("prefer 16\n", 10, "'16' is no preference");
	bad("allow-opt-out true\n", 19, "'allow-opt-out' takes yes or no");
	bad("fabric /a /b\n", 13,
	    "jobs.map:1:11: error: 'fabric' takes one "
	    "path");
	bad("policy\n", 7, "'policy' takes one path");
	/* Relative to whatever directory slurmd runs the scripts in. */
	bad("spool run/osmqos/%n\n", 20,
	    "jobs.map:1:7: error: 'spool' is given the relative path "
	    "'run/osmqos/%n': give an absolute path");
	bad("default plain\n  fabric fabric.ibnd\n", 34,
	    "jobs.map:2:10: error: 'fabric' is given the relative path");
	bad("policy ./qos-policy.conf\n", 25, "give an absolute path");
	bad("partitions ../partitions.conf\n", 30, "give an absolute path");
	bad("node-name-map ~/map\n", 20, "give an absolute path");
	bad("osmqos osmqos\n", 14, "give an absolute path");
	bad("map a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9 j=10 k=11 l=12 m=13 n=14 "
	    "o=15 p=16\n",
	    71, "more than 16 words");
}

/* w is a word of text: blanks, a comma or the end around it. */
static bool has_word(const char *text, const char *w)
{
	size_t n = strlen(w);
	const char *p;

	for (p = strstr(text, w); p; p = strstr(p + 1, w))
		if ((p == text || p[-1] == ' ') &&
		    (!p[n] || p[n] == ' ' || p[n] == ','))
			return true;
	return false;
}

/* job-env's deciding and transport options as map settings, with the
 * command line's ranges; and every keyword named in the hint. */
static void test_job_env_settings(void **state)
{
	static const char text[] = "all-pairs   yes\n"
				   "max-queries 0x100\n"
				   "ca          mlx5_1\n"
				   "ca-port     2\n"
				   "timeout     2500\n"
				   "default     plain\n";
	static const char *const keywords[] = {
		"map",
		"default",
		"prefer",
		"allow-opt-out",
		"allow-override",
		"fabric",
		"policy",
		"partitions",
		"node-name-map",
		"osmqos",
		"spool",
		"all-pairs",
		"max-queries",
		"ca",
		"ca-port",
		"timeout",
	};
	struct fx f;
	size_t i;

	(void)state;
	assert_int_equal(parse(&f, text, strlen(text)), 0);
	assert_int_equal(f.d.n, 0);
	assert_true(f.m.has_all_pairs && f.m.all_pairs);
	assert_true(f.m.has_max_queries);
	assert_int_equal(f.m.max_queries, 256);
	assert_string_equal(f.m.ca, "mlx5_1");
	assert_true(f.m.has_ca_port);
	assert_int_equal(f.m.ca_port, 2);
	assert_true(f.m.has_timeout);
	assert_int_equal(f.m.timeout, 2500);
	done(&f);
	/* Not set: job-env's own defaults stand. */
	assert_int_equal(parse(&f, "default plain\n", 14), 0);
	assert_false(f.m.has_all_pairs || f.m.has_max_queries ||
		     f.m.has_ca_port || f.m.has_timeout);
	assert_null(f.m.ca);
	done(&f);
	assert_int_equal(parse(&f, "all-pairs no\nca-port 0\n", 23), 0);
	assert_true(f.m.has_all_pairs && !f.m.all_pairs);
	assert_int_equal(f.m.ca_port, 0);
	done(&f);

	bad("all-pairs maybe\n", 16,
	    "jobs.map:1:11: error: 'all-pairs' takes yes or no");
	bad("timeout 0\n", 10,
	    "jobs.map:1:9: error: timeout '0' is not a number in 1..600000");
	bad("timeout 600001\n", 15, "not a number in 1..600000");
	bad("timeout 1s\n", 11, "timeout '1s' is not a number");
	bad("max-queries 0\n", 14,
	    "jobs.map:1:13: error: max-queries '0' is not a number in "
	    "1..100000000");
	bad("max-queries 012\n", 16, "no leading 0");
	bad("ca-port 255\n", 12,
	    "jobs.map:1:9: error: ca-port '255' is not a number in 0..254");
	bad("ca-port\n", 8, "jobs.map:1:1: error: 'ca-port' takes one number");
	bad("timeout 1 2\n", 12, "jobs.map:1:11: error: 'timeout' takes one");
	bad("ca mlx5_0 mlx5_1\n", 17,
	    "jobs.map:1:11: error: 'ca' takes one CA name");
	bad("ca\n", 3, "jobs.map:1:1: error: 'ca' takes one CA name");
	bad("timeout 100\ntimeout 200\n", 24,
	    "jobs.map:2:1: error: 'timeout' is set twice (first on line 1)");

	/* The unknown-keyword hint names every keyword the parser takes. */
	assert_int_equal(parse(&f, "port 1\n", 7), -1);
	assert_non_null(f.d.v[0].hint);
	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (!has_word(f.d.v[0].hint, keywords[i]))
			fail_msg("the hint omits '%s': %s", keywords[i],
				 f.d.v[0].hint);
	done(&f);
}

static void test_bytes(void **state)
{
	static const char nul[] = "default plain\nmap qos=a\0 plain\n";
	static const char ctl[] = "default\x1b[31m plain\n";
	static const char utf8[] = "map partition=caf\xc3\xa9 plain\n"
				   "map partition=caf\xe9 plain\n";
	static const char bom[] = "\xef\xbb\xbf"
				  "default plain\r\n"
				  "map qos=mpi qos-class 5\r\n";
	static const char bom_late[] = "default plain\n"
				       "\xef\xbb\xbfmap qos=mpi plain\n";
	static const char bom_bad[] = "\xef\xbb\xbf"
				      "default gold\n";
	static const char crlf[] = "default plain\r\nmap qos=mpi "
				   "qos-class 5\r\n\r\n# end\r\n";
	char *big;
	struct fx f;

	(void)state;
	bad(nul, sizeof(nul) - 1, "jobs.map:2:10: error: byte 0x00");
	bad(ctl, sizeof(ctl) - 1, "jobs.map:1:8: error: byte 0x1b");
	/* Valid UTF-8 is text; an invalid byte is named with its column. */
	bad(utf8, sizeof(utf8) - 1,
	    "jobs.map:2:18: error: byte 0xe9: the "
	    "file must be UTF-8");
	/* A UTF-8 byte order mark starts the file, not its first word;
	 * columns count from after it.  Elsewhere it is a word's byte. */
	assert_int_equal(parse(&f, bom, strlen(bom)), 0);
	assert_int_equal(f.m.n_rules, 1);
	assert_int_equal(f.m.dflt.kind, OQ_JC_PLAIN);
	done(&f);
	bad(bom_late, sizeof(bom_late) - 1,
	    "jobs.map:2:1: error: unknown keyword '\xef\xbb\xbfmap'");
	bad(bom_bad, sizeof(bom_bad) - 1,
	    "jobs.map:1:9: error: 'gold' is no class");
	/* CRLF line ends are line ends. */
	assert_int_equal(parse(&f, crlf, strlen(crlf)), 0);
	assert_int_equal(f.m.n_rules, 1);
	assert_string_equal(f.m.rules[0].attr[OQ_JA_QOS], "mpi");
	assert_int_equal(f.m.rules[0].cls.value, 5);
	done(&f);
	/* A line over the limit is refused, the lines after it still read. */
	big = malloc(3 * OQ_JOB_MAP_LINE_MAX);
	assert_non_null(big);
	memcpy(big, "map qos=a plain #", 17);
	memset(big + 17, 'x', 2 * OQ_JOB_MAP_LINE_MAX);
	strcpy(big + 17 + 2 * OQ_JOB_MAP_LINE_MAX, "\nbogus\n");
	assert_int_equal(parse(&f, big, strlen(big)), -1);
	assert_non_null(strstr(first(&f), "jobs.map:1:4097: error: line "
					  "longer than 4096 bytes"));
	assert_int_equal(f.d.n_errors, 2); /* and 'bogus' on line 2 */
	done(&f);
	free(big);
}

static void test_empty(void **state)
{
	struct oq_job_map_result r;
	struct fx f;

	(void)state;
	assert_int_equal(parse(&f, "", 0), 0);
	assert_int_equal(f.d.n_errors, 0);
	assert_int_equal(f.d.n_warnings, 1);
	assert_non_null(strstr(first(&f), "no job gets an SL"));
	resolve(&f.m, "any", NULL, NULL, NULL, &r);
	assert_int_equal(r.cls.kind, OQ_JC_NONE);
	done(&f);
	assert_int_equal(parse(&f, "# only\n\n   \n", 12), 0);
	assert_int_equal(f.d.n_warnings, 1);
	done(&f);
	/* "default none" said on purpose: no warning. */
	assert_int_equal(parse(&f, "default none\n", 13), 0);
	assert_int_equal(f.d.n, 0);
	done(&f);
}

/* The example map contrib/slurm/ ships parses as it is. */
static void test_example_file(void **state)
{
	struct oq_job_map_result r;
	struct fx f;

	(void)state;
	oq_diags_init(&f.d);
	assert_int_equal(
		oq_job_map_load(
			&f.m, OQ_SRCDIR "/contrib/slurm/slurm-jobs.conf", &f.d),
		0);
	assert_int_equal(f.d.n, 0);
	assert_string_equal(f.m.spool, "/run/osmqos/slurm");
	resolve(&f.m, "anything", NULL, NULL, NULL, &r);
	assert_int_equal(r.cls.kind, OQ_JC_LEVEL);
	assert_string_equal(r.cls.level, "DEFAULT");
	done(&f);
}

static void test_files(void **state)
{
	char dir[] = "/tmp/oq-jobmap-XXXXXX", path[128];
	struct fx f;
	FILE *fp;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* A directory. */
	oq_diags_init(&f.d);
	assert_int_equal(oq_job_map_load(&f.m, dir, &f.d), -1);
	assert_non_null(strstr(first(&f), "not a regular file"));
	done(&f);
	/* A FIFO: refused at once, no writer needed. */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	oq_diags_init(&f.d);
	assert_int_equal(oq_job_map_load(&f.m, path, &f.d), -1);
	assert_non_null(strstr(first(&f), "not a regular file"));
	done(&f);
	unlink(path);
	/* Missing. */
	oq_diags_init(&f.d);
	assert_int_equal(oq_job_map_load(&f.m, path, &f.d), -1);
	assert_non_null(strstr(first(&f), "No such file"));
	done(&f);
	/* Over the size limit: refused before it is read. */
	snprintf(path, sizeof(path), "%s/big.map", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	for (i = 0; ftell(fp) <= (long)OQ_JOB_MAP_MAX_BYTES; i++)
		fputs("# padding padding padding pad\n", fp);
	fclose(fp);
	oq_diags_init(&f.d);
	assert_int_equal(oq_job_map_load(&f.m, path, &f.d), -1);
	assert_non_null(strstr(first(&f), "larger than"));
	done(&f);
	/* A good file loads, and names itself in diagnostics. */
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("default plain\nmap qos=x sid 1 2\n", fp);
	fclose(fp);
	oq_diags_init(&f.d);
	assert_int_equal(oq_job_map_load(&f.m, path, &f.d), -1);
	assert_non_null(strstr(first(&f), "big.map:2:17: error"));
	done(&f);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_file),
		cmocka_unit_test(test_requests),
		cmocka_unit_test(test_request_none_is_opt_out),
		cmocka_unit_test(test_unrequest),
		cmocka_unit_test(test_malformed_lines),
		cmocka_unit_test(test_job_env_settings),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_example_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
