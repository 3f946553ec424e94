// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the seams between the plugin's rooms, on a bare OpenSM
 * instance (its log only).  The policy file room shares the policy in
 * force by reference: a state keeps the policy it was built with across
 * a reload, and a bad edit keeps the last good one.  The sweep room
 * publishes one state at a time, tells whoever built on the old one
 * (the SA) when a new one is in force, and frees a state with its last
 * reference, whichever holder drops it.  The policy in force as
 * written is left alone by the sweep that puts a policy in force and
 * written by the publication after it; a write that fails removes the
 * older copy (a restart must not put it back) and the next tick writes
 * it.  The osm room's snapshot of a
 * hand-built subnet is what OpenSM's link manager and SA would make of
 * it.  A state that cannot be built says which step failed and why, "out
 * of memory" only when it was.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <osmqos/file.h>
#include <osmqos/htab.h>
#include <osmqos/model.h>

#include "policyfile/policy_file.h"
#include "sweep/sweep.h"

struct fixture {
	osm_opensm_t *osm;
	struct oq_plugin_options opts;
	struct oq_policy_file pf;
	char dir[64];
	char path[96];
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static const char good_a[] = "qos-ulps\n    default : 1\nend-qos-ulps\n";
static const char good_b[] = "qos-ulps\n    default : 2\nend-qos-ulps\n";
static const char bad[] = "qos-ulps\n    default : \nend-qos-ulps\n";

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->osm = calloc(1, sizeof(*f->osm));
	if (!f->osm)
		return -1;
	osm_log_construct(&f->osm->log);
	if (osm_log_init_v2(&f->osm->log, TRUE, OSM_LOG_ERROR | OSM_LOG_INFO,
			    "/dev/null", 0, FALSE))
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/oq-rooms-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/qos-policy.conf", f->dir);
	f->opts.policy = f->path;
	f->opts.publish_dir = f->dir;
	oq_policy_file_init(&f->pf, f->osm, &f->opts);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char copy[128];

	oq_policy_file_fini(&f->pf);
	snprintf(copy, sizeof(copy), "%s/%s", f->dir, OQ_POLICY_COPY_NAME);
	unlink(copy);
	snprintf(copy, sizeof(copy), "%s/%s", f->dir, OQ_PUB_IN_FORCE);
	unlink(copy);
	snprintf(copy, sizeof(copy), "%s/%s", f->dir, OQ_POLICY_SOURCE_NAME);
	unlink(copy);
	unlink(f->path);
	rmdir(f->dir);
	osm_log_destroy(&f->osm->log);
	free(f->osm);
	free(f);
	return 0;
}

/* A reload replaces the policy in force; a state's reference keeps the
 * old one whole until it is dropped; a bad edit changes nothing. */
static void test_policy_reference_outlives_reload(void **state)
{
	struct fixture *f = *state;
	struct oq_policy_ref *held, *now;

	assert_null(oq_policy_ref_get(&f->pf));
	write_file(f->path, good_a);
	assert_int_equal(oq_policy_file_refresh(&f->pf), 1);
	held = oq_policy_ref_get(&f->pf);
	assert_non_null(held);
	assert_int_equal(held->refs, 2); /* the file's and ours */
	assert_int_equal(oq_policy_file_refresh(&f->pf), 0); /* unchanged */

	write_file(f->path, good_b);
	assert_int_equal(oq_policy_file_refresh(&f->pf), 1);
	now = oq_policy_ref_get(&f->pf);
	assert_ptr_not_equal(now, held);
	assert_int_equal(now->p->ulp_default_sl, 2);
	assert_int_equal(held->refs, 1);	      /* ours alone */
	assert_int_equal(held->p->ulp_default_sl, 1); /* still whole */
	oq_policy_ref_put(held);

	write_file(f->path, bad);
	assert_int_equal(oq_policy_file_refresh(&f->pf), 0);
	oq_policy_in_force_write(&f->pf, true); /* the publication's */
	held = oq_policy_ref_get(&f->pf);
	assert_ptr_equal(held, now); /* the last good one stays */
	assert_int_equal(f->pf.loads_ok, 2);
	assert_int_equal(f->pf.loads_failed, 1);
	/* The rejection, as published: the path, its first error, a hash
	 * other than the policy in force's. */
	assert_true(f->pf.rejected);
	assert_string_equal(f->pf.rej_path, f->path);
	assert_non_null(strstr(f->pf.rej_error, "qos-policy.conf:2:"));
	assert_non_null(strstr(f->pf.rej_error, ": error: "));
	assert_true(f->pf.bad_hash != held->hash);
	assert_true(held->hash == oq_fnv1a(good_b, strlen(good_b)));
	assert_true(held->loaded_at > 0);
	/* The policy in force as written stays good_b, byte for byte. */
	{
		char copy[160], *text;
		size_t len = 0;

		snprintf(copy, sizeof(copy), "%s/%s", f->dir, OQ_PUB_IN_FORCE);
		text = oq_file_read(copy, 4096, &len);
		assert_non_null(text);
		assert_int_equal(len, strlen(good_b));
		assert_memory_equal(text, good_b, len);
		free(text);
	}
	oq_policy_ref_put(held);
	oq_policy_ref_put(now);
	assert_int_equal(now->refs, 1);
}

/* The policy in force as written, read back (NULL: none there). */
static char *in_force_text(struct fixture *f, const char *name)
{
	char path[160];
	size_t len = 0;
	char *text;

	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	text = oq_file_read(path, 4096, &len);
	return text;
}

/* The SM thread only posts the policy in force as written; the
 * publication writes it.  A write that fails (here a file size limit,
 * EFBIG) leaves no older copy behind, and the next tick writes it. */
static void test_in_force_written_by_publisher(void **state)
{
	struct fixture *f = *state;
	struct rlimit old, tiny = {.rlim_cur = 8};
	sigset_t xfsz;
	char *text;

	write_file(f->path, good_a);
	assert_int_equal(oq_policy_file_refresh(&f->pf), 1);
	text = in_force_text(f, OQ_PUB_IN_FORCE);
	assert_null(text); /* the sweep wrote nothing */
	oq_policy_in_force_write(&f->pf, false);
	assert_null(in_force_text(f, OQ_PUB_IN_FORCE)); /* a tick neither */
	oq_policy_in_force_write(&f->pf, true);
	text = in_force_text(f, OQ_PUB_IN_FORCE);
	assert_non_null(text);
	assert_string_equal(text, good_a);
	free(text);
	text = in_force_text(f, OQ_POLICY_SOURCE_NAME);
	assert_non_null(text);
	assert_non_null(strstr(text, f->path));
	free(text);

	/* good_b put in force while the storage takes no more bytes. */
	write_file(f->path, good_b);
	assert_int_equal(oq_policy_file_refresh(&f->pf), 1);
	sigemptyset(&xfsz);
	sigaddset(&xfsz, SIGXFSZ);
	sigprocmask(SIG_BLOCK, &xfsz, NULL);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	tiny.rlim_max = old.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &tiny), 0);
	oq_policy_in_force_write(&f->pf, true);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(f->pf.in_force_errno, EFBIG);
	/* good_a, no longer in force, is not left to be put back. */
	assert_null(in_force_text(f, OQ_PUB_IN_FORCE));
	assert_null(in_force_text(f, OQ_POLICY_SOURCE_NAME));

	/* The next tick writes it. */
	oq_policy_in_force_write(&f->pf, false);
	assert_int_equal(f->pf.in_force_errno, 0);
	text = in_force_text(f, OQ_PUB_IN_FORCE);
	assert_non_null(text);
	assert_string_equal(text, good_b);
	free(text);

	/* Removed by someone (a cache cleaner): written again at a tick. */
	{
		char path[160];

		snprintf(path, sizeof(path), "%s/%s", f->dir, OQ_PUB_IN_FORCE);
		assert_int_equal(unlink(path), 0);
	}
	oq_policy_in_force_write(&f->pf, false);
	text = in_force_text(f, OQ_PUB_IN_FORCE);
	assert_non_null(text);
	assert_string_equal(text, good_b);
	free(text);
}

static unsigned int published_calls;

static void on_published(void *ctx)
{
	(void)ctx;
	published_calls++;
}

/* A state the test builds by hand: only what state_free() frees. */
static struct oq_sweep_state *bare_state(struct oq_policy_ref *pol)
{
	struct oq_sweep_state *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	s->refs = 1;
	s->pol = pol;
	return s;
}

/* One state in force at a time; `published` for each new one (not for
 * none); a state is freed with its last reference, observed through the
 * policy reference it holds. */
static void test_sweep_publication(void **state)
{
	struct fixture *f = *state;
	struct oq_sweep sw = {0};
	struct oq_sweep_state *a, *b, *got;
	struct oq_policy_ref *pol;

	write_file(f->path, good_a);
	assert_int_equal(oq_policy_file_refresh(&f->pf), 1);
	pol = oq_policy_ref_get(&f->pf); /* refs 2 */
	oq_sweep_init(&sw, f->osm, &f->pf);
	sw.published = on_published;
	published_calls = 0;
	assert_null(oq_sweep_get(&sw));

	a = bare_state(oq_policy_ref_get(&f->pf)); /* refs 3 */
	oq_sweep_publish(&sw, a);
	assert_int_equal(published_calls, 1);
	got = oq_sweep_get(&sw);
	assert_ptr_equal(got, a);
	assert_int_equal(a->refs, 2);

	b = bare_state(NULL);
	oq_sweep_publish(&sw, b);
	assert_int_equal(published_calls, 2);
	/* a is out of force but ours still: its policy is held. */
	assert_int_equal(a->refs, 1);
	assert_int_equal(pol->refs, 3);
	oq_sweep_put(got); /* the last reference to a: freed */
	assert_int_equal(pol->refs, 2);

	oq_sweep_publish(&sw, NULL);
	assert_int_equal(published_calls, 2);
	assert_null(oq_sweep_get(&sw));
	oq_sweep_fini(&sw);
	oq_policy_ref_put(pol);
	assert_int_equal(pol->refs, 1);
}

/* The SA builds on the routed state in force, built or kept in the
 * current routing run, only. */
static void test_sweep_state_current(void **state)
{
	struct oq_sweep_state s = {.routed = true, .routing_gen = 3};
	struct oq_sweep sw = {.routing_runs = 3, .cur = &s, .cur_gen = 3};
	struct oq_sweep_state other = s;

	(void)state;
	assert_true(oq_sweep_state_current(&sw, &s));
	assert_false(oq_sweep_state_current(&sw, &other)); /* not in force */
	s.routed = false; /* built before routing (optimized SL2VL) */
	assert_false(oq_sweep_state_current(&sw, &s));
	s.routed = true;
	sw.routing_runs = 4; /* routing ran again since */
	assert_false(oq_sweep_state_current(&sw, &s));
	sw.cur_gen = 4; /* ... and kept it */
	assert_true(oq_sweep_state_current(&sw, &s));
	assert_false(oq_sweep_state_current(&sw, NULL));
}

/* A record differs from the last one by any byte, by its length, after
 * oq_record_forget(), and the first time; else it is the same, however
 * it was cut into pieces. */
static void test_record(void **state)
{
	struct oq_record r = {0};
	char big[10000];

	(void)state;
	memset(big, 'x', sizeof(big));
	oq_record_begin(&r);
	oq_record_put(&r, "abc", 3);
	oq_record_put_str(&r, "de");
	assert_true(oq_record_end(&r)); /* nothing to compare with */
	oq_record_begin(&r);
	oq_record_put(&r, "abc", 3);
	oq_record_put_str(&r, "de");
	assert_false(oq_record_end(&r));
	oq_record_begin(&r); /* one byte changed */
	oq_record_put(&r, "abd", 3);
	oq_record_put_str(&r, "de");
	assert_true(oq_record_end(&r));
	oq_record_begin(&r); /* ... and back */
	oq_record_put(&r, "abc", 3);
	oq_record_put_str(&r, "de");
	assert_true(oq_record_end(&r));
	oq_record_begin(&r); /* a prefix of the last one */
	oq_record_put(&r, "abc", 3);
	assert_true(oq_record_end(&r));
	oq_record_begin(&r); /* longer, past the first buffer */
	oq_record_put(&r, "abc", 3);
	oq_record_put(&r, big, sizeof(big));
	assert_true(oq_record_end(&r));
	oq_record_begin(&r);
	oq_record_put(&r, "abc", 3);
	oq_record_put(&r, big, sizeof(big));
	assert_false(oq_record_end(&r));
	oq_record_forget(&r); /* the state built from it failed */
	oq_record_begin(&r);
	oq_record_put(&r, "abc", 3);
	oq_record_put(&r, big, sizeof(big));
	assert_true(oq_record_end(&r));
	oq_record_begin(&r); /* NULL is not "" */
	oq_record_put_str(&r, NULL);
	assert_true(oq_record_end(&r));
	oq_record_begin(&r);
	oq_record_put_str(&r, "");
	assert_true(oq_record_end(&r));
	oq_record_free(&r);
}

/* Packed rows: two SLs a byte, the even one high; masked as OpenSM masks
 * each VL (VL & mask, VL15 kept), checked against that rule VL by VL for
 * every VL value at every position and every mask OperVLs gives. */
static void test_sl2vl_packed(void **state)
{
	static const unsigned int masks[] = {0, 1, 3, 7, 15};
	uint8_t row[16], raw[8];
	unsigned int m, pos, vl, sl;
	uint64_t v, got;

	(void)state;
	for (sl = 0; sl < 16; sl++)
		row[sl] = (uint8_t)sl;
	v = oq_sl2vl_pack(row);
	memcpy(raw, &v, sizeof(raw));
	assert_int_equal(raw[0], 0x01);
	assert_int_equal(raw[7], 0xef);
	for (m = 0; m < sizeof(masks) / sizeof(masks[0]); m++)
		for (pos = 0; pos < 16; pos++)
			for (vl = 0; vl < 16; vl++) {
				for (sl = 0; sl < 16; sl++)
					row[sl] =
						(uint8_t)((sl * 7 + pos) & 15);
				row[pos] = (uint8_t)vl;
				got = oq_sl2vl_mask_packed(oq_sl2vl_pack(row),
							   masks[m]);
				for (sl = 0; sl < 16; sl++)
					if (row[sl] != 15)
						row[sl] &= masks[m];
				assert_int_equal(got, oq_sl2vl_pack(row));
			}
}

/* The ports SL2VL Sets went to: each once for a run of calls on one port
 * (OpenSM asks input by input), in order, past any first allocation;
 * "every port" holds until cleared and takes no more ports, and is what
 * a list past its bound becomes. */
static void test_sl2vl_dirty(void **state)
{
	struct oq_sl2vl_dirty d = {0};
	static char ports[200];
	size_t i;

	(void)state;
	for (i = 0; i < 200; i++) {
		oq_sl2vl_dirty_add(&d, &ports[i]);
		oq_sl2vl_dirty_add(&d, &ports[i]);
	}
	oq_sl2vl_dirty_add(&d, &ports[0]);
	assert_int_equal(d.n, 201);
	assert_false(d.all);
	for (i = 0; i < 200; i++)
		assert_ptr_equal(d.physp[i], &ports[i]);
	assert_ptr_equal(d.physp[200], &ports[0]);
	oq_sl2vl_dirty_all(&d);
	assert_true(d.all);
	assert_int_equal(d.n, 0);
	oq_sl2vl_dirty_add(&d, &ports[1]);
	assert_int_equal(d.n, 0);
	oq_sl2vl_dirty_clear(&d);
	assert_false(d.all);
	oq_sl2vl_dirty_add(&d, &ports[1]);
	assert_int_equal(d.n, 1);
	assert_ptr_equal(d.physp[0], &ports[1]);
	/* Past OQ_SL2VL_DIRTY_MAX ports: every port. */
	for (i = 0; i <= OQ_SL2VL_DIRTY_MAX; i++)
		oq_sl2vl_dirty_add(&d, (const void *)(uintptr_t)(i + 1));
	assert_true(d.all);
	assert_int_equal(d.n, 0);
	oq_sl2vl_dirty_free(&d);
	assert_null(d.physp);
	assert_int_equal(d.n, 0);
}

/* A sweep whose inputs are the state's keeps it (the same object, no new
 * state); a changed input, policy or a forgotten record builds anew; a
 * routed sweep does not keep a state built before routing. */
static void test_sweep_renew(void **state)
{
	struct fixture *f = *state;
	struct oq_sweep sw = {0};
	struct oq_sweep_state *a, *b;
	bool kept;

	cl_qmap_init(&f->osm->subn.node_guid_tbl);
	cl_qmap_init(&f->osm->subn.prtn_pkey_tbl);
	write_file(f->path, good_a);
	assert_int_equal(oq_policy_file_refresh(&f->pf), 1);
	oq_sweep_init(&sw, f->osm, &f->pf);

	a = oq_sweep_state_renew(&sw, false, &kept);
	assert_non_null(a);
	assert_false(kept);
	oq_sweep_publish(&sw, a);
	b = oq_sweep_state_renew(&sw, false, &kept);
	assert_true(kept);
	assert_ptr_equal(b, a);
	oq_sweep_put(b);
	/* Routed now: the state before routing has no routes. */
	b = oq_sweep_state_renew(&sw, true, &kept);
	assert_false(kept);
	assert_ptr_not_equal(b, a);
	oq_sweep_publish(&sw, b);
	a = oq_sweep_state_renew(&sw, true, &kept);
	assert_true(kept);
	assert_ptr_equal(a, b);
	assert_int_equal(sw.cur_sweep, sw.sweeps);
	assert_true(oq_sweep_state_current(&sw, a));
	oq_sweep_put(a);
	/* A routed state serves a sweep before routing too. */
	a = oq_sweep_state_renew(&sw, false, &kept);
	assert_true(kept);
	oq_sweep_put(a);

	/* A subnet input: the SM's port GUID. */
	f->osm->subn.sm_port_guid = 0x1234;
	a = oq_sweep_state_renew(&sw, true, &kept);
	assert_false(kept);
	oq_sweep_publish(&sw, a);
	/* A template: OpenSM's qos_sl2vl. */
	f->osm->subn.opt.qos_options.sl2vl = "0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7";
	a = oq_sweep_state_renew(&sw, true, &kept);
	assert_false(kept);
	oq_sweep_publish(&sw, a);
	f->osm->subn.opt.qos_options.sl2vl = NULL;
	a = oq_sweep_state_renew(&sw, true, &kept);
	assert_false(kept);
	oq_sweep_publish(&sw, a);
	/* The policy. */
	write_file(f->path, good_b);
	assert_int_equal(oq_policy_file_refresh(&f->pf), 1);
	a = oq_sweep_state_renew(&sw, true, &kept);
	assert_false(kept);
	assert_ptr_equal(a->pol, sw.pf->cur);
	oq_sweep_publish(&sw, a);
	a = oq_sweep_state_renew(&sw, true, &kept);
	assert_true(kept);
	oq_sweep_put(a);
	/* Whatever was built from the record is gone. */
	oq_record_forget(&sw.inputs);
	a = oq_sweep_state_renew(&sw, true, &kept);
	assert_false(kept);
	oq_sweep_publish(&sw, a);
	/* No state in force: nothing to keep. */
	oq_sweep_publish(&sw, NULL);
	a = oq_sweep_state_renew(&sw, true, &kept);
	assert_false(kept);
	oq_sweep_put(a);
	oq_sweep_fini(&sw);
}

/* A bare OpenSM node: n_physp ports, port 0 included, none valid yet. */
static osm_node_t *node_new(uint8_t type, uint64_t guid, uint32_t n_physp,
			    const char *desc)
{
	osm_node_t *n = calloc(1, sizeof(*n) + n_physp * sizeof(osm_physp_t));
	uint32_t i;

	assert_non_null(n);
	n->node_info.node_type = type;
	n->node_info.node_guid = cl_hton64(guid);
	n->physp_tbl_size = n_physp;
	n->discovery_count = 1;
	strncpy((char *)n->node_desc.description, desc,
		IB_NODE_DESCRIPTION_SIZE);
	for (i = 0; i < n_physp; i++) {
		n->physp_table[i].p_node = n;
		n->physp_table[i].port_num = (uint8_t)i;
	}
	return n;
}

/* Port i of n made valid: its GUID, LID and VLCap (encoded). */
static osm_physp_t *port_set(osm_node_t *n, uint8_t i, uint64_t guid,
			     uint16_t lid, uint8_t vl_cap)
{
	osm_physp_t *p = &n->physp_table[i];

	p->port_guid = cl_hton64(guid);
	p->port_info.base_lid = cl_hton16(lid);
	p->port_info.vl_cap = (uint8_t)(vl_cap << 4);
	p->port_info.link_width_active = IB_LINK_WIDTH_ACTIVE_4X;
	return p;
}

static const struct oq_port *snap_port(const struct oq_sweep_state *s,
				       uint64_t node_guid, uint8_t num)
{
	const struct oq_node *n = oq_fabric_node_by_guid(s->fabric, node_guid);

	assert_non_null(n);
	assert_true(num <= n->n_ports);
	return &n->ports[num];
}

/* A state renewed now: rebuilt (want_kept false) or kept. */
static struct oq_sweep_state *renew(struct oq_sweep *sw, bool routed,
				    bool want_kept)
{
	struct oq_sweep_state *s;
	bool kept;

	s = oq_sweep_state_renew(sw, routed, &kept);
	assert_non_null(s);
	assert_int_equal(kept, want_kept);
	if (!kept) {
		oq_sweep_publish(sw, s);
		s = oq_sweep_get(sw);
	}
	oq_sweep_put(s); /* the state in force holds it */
	return s;
}

/*
 * The snapshot OpenSM's subnet becomes: a switch's external ports take
 * port 0's GUID, LID and extended-speed capability; a link runs the
 * OperVLs OpenSM's link manager will set (the lower VLCap, at least VL0,
 * capped by max_op_vls), an unlinked port the OperVLs it reports; the
 * LFTs once routed; P_Keys from the ports' blocks while OpenSM has no
 * partitions; and a field the snapshot does not read changes nothing.
 */
static void test_snapshot(void **state)
{
	struct fixture *f = *state;
	osm_node_t *sw_node = node_new(IB_NODE_TYPE_SWITCH, 0x10, 4, "sw1");
	osm_node_t *ca = node_new(IB_NODE_TYPE_CA, 0x20, 2, "cn01 HCA-1");
	/* Not seen by this sweep's discovery: about to be dropped. */
	osm_node_t *gone = node_new(IB_NODE_TYPE_CA, 0x30, 2, "cn02 HCA-1");
	osm_switch_t *osw = calloc(1, sizeof(*osw));
	uint8_t lft[64] = {0xff, 0, 2, 1};
	ib_pkey_table_t blk;
	osm_physp_t *p0, *s1, *s2, *c1;
	const struct oq_port *p;
	const uint16_t *pk;
	size_t n_pk;
	struct oq_sweep sw = {0};
	struct oq_sweep_state *s;
	char name[] = "cn01";

	assert_non_null(osw);
	cl_qmap_init(&f->osm->subn.node_guid_tbl);
	cl_qmap_init(&f->osm->subn.prtn_pkey_tbl);
	f->osm->subn.opt.max_op_vls = 5;
	write_file(f->path, good_a);
	assert_int_equal(oq_policy_file_refresh(&f->pf), 1);
	oq_sweep_init(&sw, f->osm, &f->pf);

	p0 = port_set(sw_node, 0, 0x11, 7, 4);
	p0->port_info.capability_mask =
		IB_PORT_CAP_HAS_EXT_SPEEDS | IB_PORT_CAP_HAS_SL_MAP;
	p0->port_info.mkey_lmc = 2;
	/* External ports' own GUIDs are not theirs to use. */
	s1 = port_set(sw_node, 1, 0x12, 0, 4);
	/* QDR, and FDR among the extended speeds. */
	s1->port_info.link_speed = 4 << 4;
	s1->port_info.link_speed_ext = 1 << 4;
	s2 = port_set(sw_node, 2, 0x12, 0, 4);
	ib_port_info_set_op_vls(&s2->port_info, 3);
	/* Port 3 stays invalid (no GUID). */
	osw->switch_info.flags = 0x08; /* enhanced port 0 */
	osw->new_lft = lft;
	osw->lft_size = sizeof(lft);
	osw->max_lid_ho = 9;
	sw_node->sw = osw;
	c1 = port_set(ca, 1, 0x21, 9, 3);
	c1->port_info.mkey_lmc = 1;
	c1->port_info.capability_mask = IB_PORT_CAP_HAS_SL_MAP;
	ca->print_desc = name;
	s1->p_remote_physp = c1;
	c1->p_remote_physp = s1;
	memset(&blk, 0, sizeof(blk));
	blk.pkey_entry[0] = cl_hton16(0xffff);
	blk.pkey_entry[1] = cl_hton16(0x8001);
	cl_ptr_vector_construct(&c1->pkeys.blocks);
	assert_int_equal(cl_ptr_vector_init(&c1->pkeys.blocks, 1, 1),
			 CL_SUCCESS);
	assert_int_equal(cl_ptr_vector_set(&c1->pkeys.blocks, 0, &blk),
			 CL_SUCCESS);
	cl_qmap_insert(&f->osm->subn.node_guid_tbl,
		       sw_node->node_info.node_guid, &sw_node->map_item);
	cl_qmap_insert(&f->osm->subn.node_guid_tbl, ca->node_info.node_guid,
		       &ca->map_item);
	port_set(gone, 1, 0x31, 11, 4);
	gone->discovery_count = 0;
	cl_qmap_insert(&f->osm->subn.node_guid_tbl, gone->node_info.node_guid,
		       &gone->map_item);

	/* Before routing: no LFTs. */
	s = renew(&sw, false, false);
	assert_int_equal(
		oq_node_lft_port(s->fabric,
				 oq_fabric_node_by_guid(s->fabric, 0x10), 3),
		OQ_LFT_NONE);
	s = renew(&sw, true, false);
	assert_int_equal(s->fabric->n_nodes, 2);
	assert_true(oq_fabric_node_by_guid(s->fabric, 0x10)->enhanced_port0);
	/* Routes up to max_lid_ho, none beyond. */
	assert_int_equal(
		oq_node_lft_port(s->fabric,
				 oq_fabric_node_by_guid(s->fabric, 0x10), 3),
		1);
	assert_int_equal(
		oq_node_lft_port(s->fabric,
				 oq_fabric_node_by_guid(s->fabric, 0x10), 9),
		0);
	assert_int_equal(
		oq_node_lft_port(s->fabric,
				 oq_fabric_node_by_guid(s->fabric, 0x10), 10),
		OQ_LFT_NONE);
	assert_string_equal(
		oq_node_name(oq_fabric_node_by_guid(s->fabric, 0x20)), "cn01");
	p = snap_port(s, 0x10, 1);
	assert_true(p->present);
	assert_int_equal(p->guid, 0x11);
	assert_int_equal(p->lid, 7);
	assert_int_equal(p->lmc, 2);
	assert_ptr_equal(p->user, s1);
	assert_ptr_equal(oq_port_peer(s->fabric, p), snap_port(s, 0x20, 1));
	assert_int_equal(p->oper_vls, 4); /* VLCap VL0-7 and VL0-3: VL0-3 */
	assert_true(p->sl2vl_cap); /* a switch's, whatever its mask says */
	assert_int_not_equal(oq_speed_from_ib(4, 1, true, false),
			     oq_speed_from_ib(4, 1, false, false));
	assert_int_equal(p->speed, oq_speed_from_ib(4, 1, true, false));
	p = snap_port(s, 0x10, 2);
	assert_true(p->present);
	assert_null(oq_port_peer(s->fabric, p));
	assert_int_equal(p->oper_vls, 4); /* as it reports: VL0-3 */
	assert_false(snap_port(s, 0x10, 3)->present);
	assert_true(snap_port(s, 0x10, 0)->present);
	assert_false(snap_port(s, 0x20, 0)->present);
	p = snap_port(s, 0x20, 1);
	assert_int_equal(p->guid, 0x21);
	assert_int_equal(p->lid, 9);
	assert_int_equal(p->lmc, 1);
	assert_int_equal(p->oper_vls, 4);
	assert_true(p->sl2vl_cap);
	pk = oq_port_pkeys(s->fabric, p, &n_pk);
	assert_int_equal(n_pk, 2);
	assert_int_equal(pk[0], 0xffff);
	assert_int_equal(pk[1], 0x8001);

	/* max_op_vls caps a link, not a port without one. */
	f->osm->subn.opt.max_op_vls = 2;
	s = renew(&sw, true, false);
	assert_int_equal(snap_port(s, 0x10, 1)->oper_vls, 2);
	assert_int_equal(snap_port(s, 0x20, 1)->oper_vls, 2);
	assert_int_equal(snap_port(s, 0x10, 2)->oper_vls, 4);

	/* No VLCap at either end: VL0 all the same. */
	s1->port_info.vl_cap = 0;
	c1->port_info.vl_cap = 0;
	s = renew(&sw, true, false);
	assert_int_equal(snap_port(s, 0x10, 1)->oper_vls, 1);

	/* The port state is not read; the partner's VLCap is: with no cap,
	 * the switch's VLCap back to VL0-7 and the CA's to VL0-1 make a
	 * VL0-1 link, so the switch port's record carries the CA's VLCap. */
	ib_port_info_set_port_state(&s2->port_info, IB_LINK_ACTIVE);
	renew(&sw, true, true);
	f->osm->subn.opt.max_op_vls = 5;
	s1->port_info.vl_cap = 4 << 4;
	s = renew(&sw, true, false);
	assert_int_equal(snap_port(s, 0x10, 1)->oper_vls, 1);
	c1->port_info.vl_cap = 2 << 4;
	s = renew(&sw, true, false);
	assert_int_equal(snap_port(s, 0x10, 1)->oper_vls, 2);
	assert_int_equal(snap_port(s, 0x20, 1)->oper_vls, 2);

	oq_sweep_fini(&sw);
	cl_ptr_vector_destroy(&c1->pkeys.blocks);
	free(osw);
	free(sw_node);
	free(ca);
	free(gone);
}

/* Read the log file back: does it hold want? */
static bool logged(const char *path, const char *want)
{
	char line[1024];
	bool hit = false;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while (!hit && fgets(line, sizeof(line), f))
		hit = strstr(line, want) != NULL;
	fclose(f);
	return hit;
}

/* The cause of a failed step: a -errno return, else errno, else ENOMEM;
 * the log line says what failed and why. */
static void test_build_failure_cause(void **state)
{
	char path[] = "/tmp/oq-rooms-log-XXXXXX";
	osm_opensm_t osm;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	memset(&osm, 0, sizeof(osm));
	osm_log_construct(&osm.log);
	assert_int_equal(
		osm_log_init_v2(&osm.log, TRUE, OSM_LOG_ERROR, path, 0, FALSE),
		0);
	assert_int_equal(oq_failure_errno(-EINVAL), EINVAL);
	errno = 0;
	assert_int_equal(oq_failure_errno(-1), ENOMEM);
	errno = EMFILE;
	assert_int_equal(oq_failure_errno(-1), EMFILE);

	OQ_LOG_BUILD_FAILED(&osm, "the sweep state", "binding the policy",
			    ENOMEM, "keeping the previous one");
	OQ_LOG_BUILD_FAILED(&osm, "the sweep state", "reading templates",
			    EMFILE, "keeping the previous one");
	osm_log_destroy(&osm.log);
	assert_true(logged(path, "osmqos: out of memory building the sweep "
				 "state: binding the policy; keeping the "
				 "previous one"));
	assert_true(logged(path, "osmqos: cannot build the sweep state: "
				 "reading templates: Too many open files; "
				 "keeping the previous one"));
	assert_false(logged(path, "out of memory building the sweep state: "
				  "reading"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_policy_reference_outlives_reload, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_in_force_written_by_publisher, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweep_publication, setup,
						teardown),
		cmocka_unit_test(test_sweep_state_current),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_sl2vl_packed),
		cmocka_unit_test(test_sl2vl_dirty),
		cmocka_unit_test_setup_teardown(test_sweep_renew, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_snapshot, setup, teardown),
		cmocka_unit_test(test_build_failure_cause),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
