// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * sa_storm: a tight SA client for the SA cost benchmark
 * (tests/bench/sa-storm.sh).  It keeps a window of Gets outstanding on one
 * libibumad agent -- PathRecord Gets by LID cycling over the given pairs,
 * or trivial ClassPortInfo Gets (the floor) -- matches the answers by
 * transaction ID, retries the ones that time out, and prints one line of
 * figures.  The PathRecord questions are the given pairs in turn (--pr),
 * or every ordered pair of the given LIDs in turn (--all-pairs), each
 * with --sids Service-IDs: a storm of a few repeated questions, or of
 * thousands of distinct ones.  One process and one agent for the whole storm, so the SM's
 * cost per query is not drowned in client start-up (saquery per query
 * would be).
 *
 * Under ibsim (LD_PRELOAD=libumad2sim.so) there is no RMPP, every read
 * returns one MAD, and send timeouts are not enforced, so timeouts are
 * tracked here; on a real port the kernel also reports them (status
 * ETIMEDOUT on a returned send), which is handled the same way.
 */
#include <config.h>

#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/umad.h>
#include <infiniband/umad_types.h>

#define SA_CLASS	 0x03
#define SA_CLASS_VERSION 2
#define METHOD_GET	 0x01
#define METHOD_GET_RESP	 0x81
#define ATTR_CPI	 0x0001
#define ATTR_PATH_REC	 0x0035
#define MAD_SIZE	 256
#define SA_DATA_OFF	 56 /* MAD + RMPP + SA headers */
#define PR_SIZE		 64

/* PathRecord component mask bits (IBA 15.2.5.16, IB_PR_COMPMASK_*). */
#define PR_CM_SERVICEID_MSB (1ull << 0)
#define PR_CM_SERVICEID_LSB (1ull << 1)
#define PR_CM_DLID	    (1ull << 4)
#define PR_CM_SLID	    (1ull << 5)

/* umad2sim keeps bits 32-47 of the TID for its agent id, and the kernel
 * owns the upper 32 bits: ours are the low 32. */
#define TID_MASK 0xffffffffull

#define MAX_PAIRS  4096
#define MAX_LIDS   65536
#define MAX_WINDOW 1024

struct lid_pair {
	uint16_t slid, dlid;
};

struct opts {
	unsigned long count;
	unsigned int window;
	unsigned int timeout_ms;
	unsigned int retries;
	bool cpi;
	bool have_sid;
	uint64_t sid;
	struct lid_pair *pairs;
	unsigned int npairs;
	/* --all-pairs: every ordered pair of these LIDs (source-major). */
	uint16_t *lids;
	unsigned int nlids;
	/* --sids: the Service-ID of a question is sid + k, k < nsids, the
	 * next k after every pair was asked once. */
	unsigned long nsids;
	const char *ca;
	int port;
};

/* One outstanding query. */
struct slot {
	bool busy;
	uint32_t tid;	    /* of the latest send */
	unsigned long idx;  /* query number, picks the LID pair */
	unsigned int tries; /* sends so far */
	uint64_t first_ns;  /* first send: latency includes retries */
	uint64_t deadline_ns;
};

struct stats {
	unsigned long sent;	/* MADs, retries included */
	unsigned long answered; /* queries with a response */
	unsigned long bad_status;
	unsigned long timeouts; /* timeout events (each may retry) */
	unsigned long failed;	/* queries given up after the retries */
	unsigned long stale;	/* answers to a send already retried */
	uint16_t first_bad;	/* the first status != 0 seen */
	uint64_t *lat_ns;	/* one per answered query */
};

struct storm {
	struct opts o;
	int portid, agent;
	uint16_t sm_lid;
	uint8_t sm_sl;
	uint32_t next_tid;
	unsigned long next_query;
	struct slot *slots;
	struct stats st;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: sa_storm [--count N] [--window W] [--timeout-ms MS]\n"
		"                [--retries R] [-C ca] [-P port]\n"
		"                (--pr SLID:DLID[,SLID:DLID...] | --all-pairs "
		"LID,LID[,...] |\n"
		"                 --cpi) [--sid 0xID [--sids K]]\n"
		"Sends N SA Gets (default 50000), W outstanding (default 16):\n"
		"PathRecord Gets by LID cycling over the pairs, or over every\n"
		"ordered pair of the LIDs (--sid adds a ServiceID to the\n"
		"component mask; --sids K asks every pair with Service-IDs\n"
		"sid..sid+K-1 in turn), or ClassPortInfo Gets.\n"
		"Prints one line of figures; exit 0 when every query was\n"
		"answered, 1 otherwise, 2 on bad usage.  Under ibsim run it\n"
		"with LD_PRELOAD=libumad2sim.so.\n");
}

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "sa_storm: %s%s%s; see sa_storm --help\n", what,
		arg ? ": " : "", arg ? arg : "");
	return 2;
}

static bool parse_ul(const char *s, unsigned long max, unsigned long *v)
{
	char *end;
	unsigned long long x;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *end || x > max)
		return false;
	*v = (unsigned long)x;
	return true;
}

/* "1:2,3:4": LID pairs, decimal or 0x hex, unicast LIDs only. */
static int parse_pairs(const char *s, struct opts *o)
{
	char *copy = strdup(s), *save = NULL, *tok, *colon;
	unsigned long a, b;
	int rc = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		colon = strchr(tok, ':');
		if (!colon) {
			rc = -1;
			break;
		}
		*colon = '\0';
		if (!parse_ul(tok, 0xbfff, &a) ||
		    !parse_ul(colon + 1, 0xbfff, &b) || !a || !b ||
		    o->npairs == MAX_PAIRS) {
			rc = -1;
			break;
		}
		o->pairs[o->npairs].slid = (uint16_t)a;
		o->pairs[o->npairs].dlid = (uint16_t)b;
		o->npairs++;
	}
	free(copy);
	return rc || !o->npairs ? -1 : 0;
}

/* "1,2,3": two or more distinct unicast LIDs for --all-pairs. */
static int parse_lids(const char *s, struct opts *o)
{
	char *copy = strdup(s), *save = NULL, *tok;
	unsigned long a;
	unsigned int i;
	int rc = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!parse_ul(tok, 0xbfff, &a) || !a || o->nlids == MAX_LIDS) {
			rc = -1;
			break;
		}
		for (i = 0; i < o->nlids; i++)
			if (o->lids[i] == a)
				rc = -1;
		o->lids[o->nlids++] = (uint16_t)a;
	}
	free(copy);
	return rc || o->nlids < 2 ? -1 : 0;
}

/* Distinct PathRecord questions before the storm asks one again. */
static unsigned long questions(const struct opts *o)
{
	unsigned long pairs = o->nlids
				      ? (unsigned long)o->nlids * (o->nlids - 1)
				      : o->npairs;

	return pairs * o->nsids;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{"count", required_argument, NULL, 'n'},
		{"window", required_argument, NULL, 'w'},
		{"timeout-ms", required_argument, NULL, 't'},
		{"retries", required_argument, NULL, 'r'},
		{"pr", required_argument, NULL, 'p'},
		{"sid", required_argument, NULL, 's'},
		{"all-pairs", required_argument, NULL, 'a'},
		{"sids", required_argument, NULL, 'S'},
		{"cpi", no_argument, NULL, 'c'},
		{"ca", required_argument, NULL, 'C'},
		{"port", required_argument, NULL, 'P'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	unsigned long v;
	int c;

	while ((c = getopt_long(argc, argv, "C:P:h", lo, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (!parse_ul(optarg, 100000000, &v) || !v)
				return usage_error("--count wants 1..100000000",
						   optarg);
			o->count = v;
			break;
		case 'w':
			if (!parse_ul(optarg, MAX_WINDOW, &v) || !v)
				return usage_error("--window wants 1..1024",
						   optarg);
			o->window = (unsigned int)v;
			break;
		case 't':
			if (!parse_ul(optarg, 600000, &v) || !v)
				return usage_error(
					"--timeout-ms wants 1..600000", optarg);
			o->timeout_ms = (unsigned int)v;
			break;
		case 'r':
			if (!parse_ul(optarg, 100, &v))
				return usage_error("--retries wants 0..100",
						   optarg);
			o->retries = (unsigned int)v;
			break;
		case 'p':
			if (parse_pairs(optarg, o))
				return usage_error("--pr wants SLID:DLID[,...] "
						   "with unicast LIDs "
						   "(1..0xbfff, at most 4096 "
						   "pairs)",
						   optarg);
			break;
		case 's':
			if (!parse_ul(optarg, ~0ul, &v))
				return usage_error(
					"--sid wants a 64-bit number "
					"such as 0x1000000000000001",
					optarg);
			o->sid = v;
			o->have_sid = true;
			break;
		case 'a':
			if (parse_lids(optarg, o))
				return usage_error("--all-pairs wants two or "
						   "more distinct unicast "
						   "LIDs (1..0xbfff), "
						   "comma-separated",
						   optarg);
			break;
		case 'S':
			if (!parse_ul(optarg, 65536, &v) || !v)
				return usage_error("--sids wants 1..65536",
						   optarg);
			o->nsids = v;
			break;
		case 'c':
			o->cpi = true;
			break;
		case 'C':
			o->ca = optarg;
			break;
		case 'P':
			if (!parse_ul(optarg, 254, &v) || !v)
				return usage_error("--port wants 1..254",
						   optarg);
			o->port = (int)v;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			return usage_error("unknown option", NULL);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument", argv[optind]);
	if (o->cpi + (o->npairs > 0) + (o->nlids > 0) != 1)
		return usage_error("give exactly one of --pr, --all-pairs and "
				   "--cpi",
				   NULL);
	if (o->cpi && (o->have_sid || o->nsids))
		return usage_error("--sid and --sids only go with --pr or "
				   "--all-pairs",
				   NULL);
	if (o->nsids > 1 && !o->have_sid)
		return usage_error("--sids needs --sid (the first Service-ID)",
				   NULL);
	if (!o->nsids)
		o->nsids = 1;
	return 0;
}

static int open_sa(struct storm *s)
{
	umad_port_t up;

	if (umad_init() < 0) {
		fprintf(stderr, "sa_storm: libibumad initialisation failed; "
				"load ib_umad, or under ibsim set LD_PRELOAD "
				"to libumad2sim.so\n");
		return -1;
	}
	if (umad_get_port(s->o.ca, s->o.port, &up) < 0) {
		fprintf(stderr, "sa_storm: no usable port; pass -C ca -P port "
				"(see ibstat)\n");
		return -1;
	}
	s->sm_lid = (uint16_t)up.sm_lid;
	s->sm_sl = (uint8_t)up.sm_sl;
	s->portid = umad_open_port(up.ca_name, up.portnum);
	umad_release_port(&up);
	if (!s->sm_lid) {
		fprintf(stderr, "sa_storm: the port knows no SM (SM LID 0); "
				"wait for SUBNET UP and retry\n");
		return -1;
	}
	if (s->portid < 0) {
		fprintf(stderr, "sa_storm: cannot open the port for MADs; run "
				"as root or check /dev/infiniband/umad*\n");
		return -1;
	}
	s->agent =
		umad_register(s->portid, SA_CLASS, SA_CLASS_VERSION, 0, NULL);
	if (s->agent < 0) {
		fprintf(stderr, "sa_storm: cannot register an SA agent; check "
				"that nothing holds the port exclusively\n");
		return -1;
	}
	return 0;
}

static void put_be16(uint8_t *p, uint16_t v)
{
	v = htobe16(v);
	memcpy(p, &v, sizeof(v));
}

static void put_be64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, sizeof(v));
}

/* The LID pair of question q (q < the pairs' count). */
static struct lid_pair pair_of(const struct opts *o, unsigned long q)
{
	struct lid_pair lp;
	unsigned long s, d;

	if (!o->nlids)
		return o->pairs[q];
	s = q / (o->nlids - 1);
	d = q % (o->nlids - 1);
	if (d >= s)
		d++; /* never a LID to itself */
	lp.slid = o->lids[s];
	lp.dlid = o->lids[d];
	return lp;
}

/* The request MAD of query idx with transaction ID tid. */
static void encode(const struct opts *o, unsigned long idx, uint32_t tid,
		   uint8_t *mad)
{
	unsigned long pairs = questions(o) / o->nsids;
	struct lid_pair lp;
	uint64_t cm;

	memset(mad, 0, MAD_SIZE);
	mad[0] = 1; /* base version */
	mad[1] = SA_CLASS;
	mad[2] = SA_CLASS_VERSION;
	mad[3] = METHOD_GET;
	put_be64(mad + 8, tid);
	if (o->cpi) {
		put_be16(mad + 16, ATTR_CPI);
		return;
	}
	put_be16(mad + 16, ATTR_PATH_REC);
	put_be16(mad + 44, PR_SIZE / 8); /* attribute offset, 8-byte units */
	idx %= questions(o);
	lp = pair_of(o, idx % pairs);
	cm = PR_CM_SLID | PR_CM_DLID;
	if (o->have_sid) {
		cm |= PR_CM_SERVICEID_MSB | PR_CM_SERVICEID_LSB;
		put_be64(mad + SA_DATA_OFF, o->sid + idx / pairs);
	}
	put_be64(mad + 48, cm);
	put_be16(mad + SA_DATA_OFF + 40, lp.dlid);
	put_be16(mad + SA_DATA_OFF + 42, lp.slid);
}

static int send_slot(struct storm *s, struct slot *sl, void *umad)
{
	s->next_tid = (s->next_tid + 1) & TID_MASK;
	if (!s->next_tid)
		s->next_tid = 1;
	sl->tid = s->next_tid;
	encode(&s->o, sl->idx, sl->tid, umad_get_mad(umad));
	umad_set_addr(umad, s->sm_lid, 1, s->sm_sl, UMAD_QKEY);
	/* timeout 0 retries 0 would make a real kernel drop the answer as
	 * unsolicited: let it track the send, retries stay ours. */
	if (umad_send(s->portid, s->agent, umad, MAD_SIZE, (int)s->o.timeout_ms,
		      0) < 0) {
		fprintf(stderr,
			"sa_storm: send failed (%s); check the port "
			"with ibstat\n",
			strerror(errno));
		return -1;
	}
	sl->tries++;
	sl->deadline_ns = now_ns() + (uint64_t)s->o.timeout_ms * 1000000ull;
	s->st.sent++;
	return 0;
}

static struct slot *find_slot(struct storm *s, uint32_t tid)
{
	unsigned int i;

	for (i = 0; i < s->o.window; i++)
		if (s->slots[i].busy && s->slots[i].tid == tid)
			return &s->slots[i];
	return NULL;
}

/* A send timed out: resend with a new TID, or give the query up. */
static int timed_out(struct storm *s, struct slot *sl, void *umad)
{
	s->st.timeouts++;
	if (sl->tries > s->o.retries) {
		s->st.failed++;
		sl->busy = false;
		return 0;
	}
	return send_slot(s, sl, umad);
}

static int fill_window(struct storm *s, void *umad)
{
	unsigned int i;

	for (i = 0; i < s->o.window && s->next_query < s->o.count; i++) {
		struct slot *sl = &s->slots[i];

		if (sl->busy)
			continue;
		memset(sl, 0, sizeof(*sl));
		sl->busy = true;
		sl->idx = s->next_query++;
		sl->first_ns = now_ns();
		if (send_slot(s, sl, umad))
			return -1;
	}
	return 0;
}

/* Expire overdue slots; returns ms until the next deadline (>= 1). */
static int check_deadlines(struct storm *s, void *umad, int *wait_ms)
{
	uint64_t now = now_ns(), next = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < s->o.window; i++) {
		struct slot *sl = &s->slots[i];

		if (!sl->busy)
			continue;
		if (sl->deadline_ns <= now && timed_out(s, sl, umad))
			return -1;
		if (sl->busy && sl->deadline_ns < next)
			next = sl->deadline_ns;
	}
	*wait_ms =
		next == UINT64_MAX ? 1 : (int)((next - now) / 1000000ull) + 1;
	return 0;
}

static bool busy_any(const struct storm *s)
{
	unsigned int i;

	for (i = 0; i < s->o.window; i++)
		if (s->slots[i].busy)
			return true;
	return false;
}

/* One received MAD: an answer, a kernel-reported timeout, or noise. */
static int on_recv(struct storm *s, void *rbuf, int len, void *sbuf)
{
	const uint8_t *mad = umad_get_mad(rbuf);
	uint64_t tid64;
	struct slot *sl;
	uint16_t status;

	if (len < 24)
		return 0;
	memcpy(&tid64, mad + 8, sizeof(tid64));
	sl = find_slot(s, (uint32_t)(be64toh(tid64) & TID_MASK));
	if (umad_status(rbuf) == ETIMEDOUT) {
		/* the kernel returned our send unanswered */
		return sl ? timed_out(s, sl, sbuf) : 0;
	}
	if (mad[1] != SA_CLASS || mad[3] != METHOD_GET_RESP)
		return 0;
	if (!sl) {
		s->st.stale++;
		return 0;
	}
	memcpy(&status, mad + 4, sizeof(status));
	if (be16toh(status) && !s->st.bad_status++)
		s->st.first_bad = be16toh(status);
	s->st.lat_ns[s->st.answered++] = now_ns() - sl->first_ns;
	sl->busy = false;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double pct_us(const uint64_t *v, unsigned long n, double p)
{
	unsigned long i;

	if (!n)
		return 0;
	i = (unsigned long)(p * (double)(n - 1) + 0.5);
	return (double)v[i] / 1000.0;
}

static int run(struct storm *s)
{
	size_t cap = umad_size() + MAD_SIZE;
	void *sbuf = calloc(1, cap), *rbuf = calloc(1, cap);
	int wait_ms, len, rc = -1;

	if (!sbuf || !rbuf) {
		fprintf(stderr, "sa_storm: out of memory\n");
		goto out;
	}
	for (;;) {
		if (fill_window(s, sbuf))
			goto out;
		if (!busy_any(s))
			break;
		if (check_deadlines(s, sbuf, &wait_ms))
			goto out;
		if (!busy_any(s))
			continue;
		len = MAD_SIZE;
		if (umad_recv(s->portid, rbuf, &len, wait_ms) < 0) {
			if (errno == ETIMEDOUT || errno == EWOULDBLOCK ||
			    errno == EINTR)
				continue;
			fprintf(stderr,
				"sa_storm: receive failed (%s); check "
				"the port with ibstat\n",
				strerror(errno));
			goto out;
		}
		if (on_recv(s, rbuf, len, sbuf))
			goto out;
	}
	rc = 0;
out:
	free(sbuf);
	free(rbuf);
	return rc;
}

static void report(const struct storm *s, double wall)
{
	const struct stats *st = &s->st;

	qsort(st->lat_ns, st->answered, sizeof(*st->lat_ns), cmp_u64);
	printf("mode=%s queries=%lu distinct=%lu sent=%lu answered=%lu "
	       "status_nonzero=%lu timeouts=%lu failed=%lu stale=%lu window=%u "
	       "wall_s=%.3f answers_per_s=%.0f p50_us=%.1f p99_us=%.1f "
	       "first_status=0x%04x\n",
	       s->o.cpi ? "cpi" : "pr", s->o.count,
	       s->o.cpi ? 1 : questions(&s->o), st->sent, st->answered,
	       st->bad_status, st->timeouts, st->failed, st->stale, s->o.window,
	       wall, wall > 0 ? (double)st->answered / wall : 0.0,
	       pct_us(st->lat_ns, st->answered, 0.50),
	       pct_us(st->lat_ns, st->answered, 0.99), st->first_bad);
}

int main(int argc, char **argv)
{
	struct storm s = {
		.o = {.count = 50000,
		      .window = 16,
		      .timeout_ms = 1000,
		      .retries = 3},
		.portid = -1,
		.agent = -1,
	};
	uint64_t t0;
	int rc;

	s.o.pairs = calloc(MAX_PAIRS, sizeof(*s.o.pairs));
	s.o.lids = calloc(MAX_LIDS, sizeof(*s.o.lids));
	if (!s.o.pairs || !s.o.lids) {
		fprintf(stderr, "sa_storm: out of memory\n");
		return 1;
	}
	rc = parse_args(argc, argv, &s.o);
	if (rc)
		goto out;
	s.slots = calloc(s.o.window, sizeof(*s.slots));
	s.st.lat_ns = calloc(s.o.count, sizeof(*s.st.lat_ns));
	if (!s.slots || !s.st.lat_ns) {
		fprintf(stderr, "sa_storm: out of memory for --count %lu\n",
			s.o.count);
		rc = 1;
		goto out;
	}
	rc = 1;
	if (open_sa(&s))
		goto out;
	s.next_tid = ((uint32_t)getpid() << 16) & TID_MASK;
	t0 = now_ns();
	if (run(&s))
		goto out;
	report(&s, (double)(now_ns() - t0) / 1e9);
	rc = s.st.answered == s.o.count ? 0 : 1;
out:
	if (s.agent >= 0)
		umad_unregister(s.portid, s.agent);
	if (s.portid >= 0)
		umad_close_port(s.portid);
	free(s.slots);
	free(s.st.lat_ns);
	free(s.o.pairs);
	free(s.o.lids);
	return rc;
}
