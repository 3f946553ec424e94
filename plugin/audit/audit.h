/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Audit log writer: one JSON line per answered PathRecord/MultiPathRecord.
 *
 * The SA thread fills a struct oq_audit_record and calls oq_audit_submit(),
 * which copies it into a bounded ring under a short mutex (no I/O, no
 * allocation, no waiting): when the ring is full the record is dropped and
 * counted.  A background thread formats the records as JSON and appends
 * them with write(2) in batches; identical answers within one batch (the
 * records gathered over at most about 20 ms, the same requester, query,
 * pair and decision) become one line with their count, so a PathRecord
 * storm costs a line per distinct answer, not per query.  Disk errors (ENOSPC,
 * EIO) are counted and logged; the records of a failed batch are dropped, and
 * writing resumes by itself once the disk accepts data again.  The SA thread is
 * never held up by the disk.  docs/audit.md describes the file format.
 *
 * Pure C with no OpenSM headers, so it is unit-tested on its own.
 */
#ifndef OSMQOS_PLUGIN_AUDIT_H
#define OSMQOS_PLUGIN_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

/* File name under OpenSM's cache dir when audit= is not given. */
#define OQ_AUDIT_DEFAULT_NAME "osmqos-audit.log"
/* Ring size when oq_audit_create() gets 0 (about 10 MiB of records). */
#define OQ_AUDIT_DEFAULT_CAPACITY 16384
/* The file is created with exactly this mode (umask does not apply). */
#define OQ_AUDIT_FILE_MODE 0640

/* Fixed string sizes (including the NUL) so a record is copied by value.
 * Longer text is cut by the caller's snprintf; the writer never reads past
 * the array even when the NUL is missing (a raw 64-byte NodeDescription). */
#define OQ_AUDIT_DESC_LEN  65 /* IB NodeDescription is 64 bytes */
/* The port as OpenSM names it, NAME/P<n>: NAME its print_desc (at most 63
 * bytes, or a node-name map's name, cut here to fit) and "/P255". */
#define OQ_AUDIT_NAME_LEN  72
#define OQ_AUDIT_USE_LEN   128
#define OQ_AUDIT_LEVEL_LEN 64
#define OQ_AUDIT_HOP_LEN   160
/* Longest JSON line one record can produce, newline included. */
#define OQ_AUDIT_LINE_MAX 8192

enum oq_audit_method {
	OQ_AUDIT_GET = 0,
	OQ_AUDIT_GETTABLE = 1,
	OQ_AUDIT_GETMULTI = 2, /* MultiPathRecord */
};

enum oq_audit_attr {
	OQ_AUDIT_PATH_RECORD = 0,
	OQ_AUDIT_MULTIPATH_RECORD = 1,
};

struct oq_audit_port {
	uint64_t guid;		      /* port GUID, host order */
	uint8_t port;		      /* port number on its node */
	char desc[OQ_AUDIT_DESC_LEN]; /* node description */
	/* The port as OpenSM names it (oq_port_name(): a node-name map's
	 * name), as policies, plans and the bottleneck name it. */
	char name[OQ_AUDIT_NAME_LEN];
};

struct oq_audit_record {
	/* Time of the answer; left zero, oq_audit_submit() stamps it. */
	struct timespec time;

	uint64_t requester_guid;
	uint16_t requester_lid;
	enum oq_audit_method method;
	enum oq_audit_attr attr;

	/* The query: comp mask as received, and what it asked for. */
	uint64_t comp_mask;
	bool has_sid, has_qos_class, has_pkey, has_sl;
	uint64_t sid;
	uint16_t qos_class;
	uint16_t pkey;
	uint8_t sl;

	struct oq_audit_port src, dst;

	/* The policy that decided: FNV-1a of its file's bytes, as the
	 * published files and `osmqos status` give it; 0: no policy in
	 * force (rule and level then say nothing). */
	uint64_t policy_hash;
	/* Decision: rule index in the combined rule list, -1 for DEFAULT. */
	int rule;
	char use[OQ_AUDIT_USE_LEN];	/* the rule's use text, "" if none */
	char level[OQ_AUDIT_LEVEL_LEN]; /* QoS level name, "" if none */

	/* What was granted; when !granted only sa_status is meaningful. */
	bool granted;
	uint16_t sa_status; /* SA MAD status (0 when granted) */
	uint8_t g_sl;
	uint8_t g_mtu;	    /* IB MTU code (1=256 .. 5=4096) */
	uint8_t g_rate;	    /* IB rate code (IBTA enum, 3=10 Gb/s ...) */
	uint8_t g_pkt_life; /* IB packet lifetime code */
	uint16_t g_pkey;
	uint16_t g_slid, g_dlid; /* the pair's first record */
	unsigned int g_records;	 /* records granted for this pair */
	/* Why nothing was granted (when !granted), NULL if unknown.  A
	 * static string (oq_pr_reason_name()): it outlives the record. */
	const char *reason;

	/* Model prediction for the granted path (has_prediction false when
	 * the model could not say). */
	bool has_prediction;
	/* The least, over the path's hops, of the granted SL's VL's share
	 * with every VL busy, in Gb/s; shared: at some hop other SLs the
	 * policy grants are on that VL too (the figure is the VL group's).
	 * The ceiling: the slowest hop's rate (the SL alone). */
	double predicted_gbps;
	bool predicted_shared;
	double ceiling_gbps;
	/* The path's latency bound: the hops' worst waits added up, in
	 * microseconds (< 0 unknown); bound: some hop's is an upper bound. */
	double latency_us;
	bool latency_bound;
	/* The bandwidth intent on the granted SL (hundredths of a %: the
	 * intents of the levels on it added up; 0: none) and what it
	 * promises along the path: that times the slowest hop's rate; its
	 * latency intent (per hop, ns; 0 none). */
	int intent_bp;
	double intent_gbps;
	uint64_t intent_lat_ns;
	char bottleneck[OQ_AUDIT_HOP_LEN]; /* e.g. "sw1/P3 -> hca2/P1" */
};

enum oq_audit_log_level {
	OQ_AUDIT_LOG_ERROR = 0,
	OQ_AUDIT_LOG_INFO = 1,
};

/* Log sink: msg is a complete sentence without a newline.  Called from
 * oq_audit_create() in the caller's thread and afterwards from the writer
 * thread only (osm_log is thread-safe). */
typedef void (*oq_audit_log_fn)(void *ctx, enum oq_audit_log_level level,
				const char *msg);

struct oq_audit_stats {
	uint64_t submitted;    /* oq_audit_submit() calls */
	uint64_t written;      /* records fully written (in lines) */
	uint64_t lines;	       /* lines written (a line may hold several
				  identical records, "count") */
	uint64_t dropped;      /* records never written (all causes) */
	uint64_t dropped_full; /* ... of which: ring full at submit */
	uint64_t write_errors; /* failed write(2) calls */
	uint64_t reopens;      /* successful reopens */
	uint64_t cpu_ns;       /* CPU the writer thread used so far */
};

struct oq_audit;

/*
 * Open path (O_APPEND|O_NOFOLLOW, created with mode 0640, must be a regular
 * file) and start the writer.  capacity is the ring size in records (0 for
 * the default).  On failure the reason goes to log_fn, errno is set and
 * NULL is returned.
 */
struct oq_audit *oq_audit_create(const char *path, size_t capacity,
				 oq_audit_log_fn log_fn, void *ctx);

/* Write everything still queued, stop the writer, close the file. */
void oq_audit_destroy(struct oq_audit *w);
/* The same, and the final counts (everything queued included) in *st. */
void oq_audit_close(struct oq_audit *w, struct oq_audit_stats *st);

/* Copy rec into the ring; never blocks on I/O and never waits for the
 * writer.  Returns 0, or -1 when the record was dropped (ring full). */
int oq_audit_submit(struct oq_audit *w, const struct oq_audit_record *rec);

/* Wait up to timeout_ms until everything submitted so far has been written
 * or dropped.  Returns 0, or -1 on timeout.  Not for the SA thread. */
int oq_audit_flush(struct oq_audit *w, int timeout_ms);

void oq_audit_get_stats(struct oq_audit *w, struct oq_audit_stats *st);

/*
 * Format one record as a JSON line ending in '\n' (no NUL).  Returns the
 * length, or 0 if it does not fit in len (never with OQ_AUDIT_LINE_MAX).
 * oq_audit_format_n: the line stands for count identical answers, the
 * last one at *last ("count", and "time_last" when count > 1);
 * oq_audit_format is count 1.
 */
size_t oq_audit_format(const struct oq_audit_record *rec, char *buf,
		       size_t len);
size_t oq_audit_format_n(const struct oq_audit_record *rec, uint64_t count,
			 const struct timespec *last, char *buf, size_t len);

/*
 * What audit= may name (audit_path.c), in the words the writer logs and
 * `osmqos doctor` repeats.  oq_audit_why_not_file: the refusal of a path
 * of type mode (a symbolic link, a directory, a FIFO or socket, a
 * device: anything but a regular file) into why.  oq_audit_file_fits:
 * whether the regular file sb at path may take the trail appended by
 * the user uid (its owner uid or root, and empty or starting like a
 * trail), false with the refusal in why.
 */
void oq_audit_why_not_file(const char *path, mode_t mode, char *why,
			   size_t len);
/* The length of path without its trailing slashes (a directory audit=
 * names, for DIR/osmqos-audit.log). */
int oq_audit_dir_len(const char *path);
bool oq_audit_file_fits(const char *path, const struct stat *sb, uid_t uid,
			char *why, size_t len);

/* IB codes to units for the JSON line (0 for an unknown code). */
unsigned int oq_audit_mtu_bytes(uint8_t code);
double oq_audit_rate_gbps(uint8_t code);

#endif /* OSMQOS_PLUGIN_AUDIT_H */
