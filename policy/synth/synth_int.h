/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Private to the synthesizer (policy/synth/). */
#ifndef OSMQOS_SYNTH_INT_H
#define OSMQOS_SYNTH_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/synth.h>

/* What one SL-to-VL layout asks of each VL of a class. */
struct oq_vl_need {
	uint8_t row[16]; /* the SL2VL (a layout the synthesizer chose) */
	uint16_t used;	 /* VLs some SL reaches */
	uint16_t high;	 /* VLs of high-priority intent SLs */
	uint16_t vl_sls[OQ_MAX_VLS]; /* SLs that reach each VL */
	uint32_t bp[OQ_MAX_VLS];  /* share the VL must get: its intents added */
	uint64_t lat[OQ_MAX_VLS]; /* the longest wait allowed, bytes; 0 none */
	/* The low VL that takes what the intents leave and fills the high
	 * table: best effort's, else the least demanding low VL; -1 when
	 * there is no low VL. */
	int be;
};

/* Packet counts per VL of both tables for one VLHighLimit. */
struct oq_counts {
	uint8_t limit;
	/* High packets per low opportunity with the longest full packet
	 * (the fewest; 0: no high table) and with MTU-size packets (Hs, the
	 * most): a high VL's share is the least at H, a low VL's at Hs. */
	uint32_t H, Hs;
	bool flat;  /* one table only (all VLs high, or all low) */
	uint32_t hp[OQ_MAX_VLS], lp[OQ_MAX_VLS];
	uint32_t th, tl;
	struct oq_frac score; /* what best effort's VL gets */
};

/* Per-VL minimum packet counts (more turns for a latency intent). */
struct oq_count_mins {
	uint32_t hp[OQ_MAX_VLS], lp[OQ_MAX_VLS];
	/* The high table's filler as small as the entries allow, not as
	 * large (fewer packets ahead of a high VL). */
	bool least_filler;
	/* The high table's filler at most filler_max packets (a high VL's
	 * latency: fewer packets between its turns, no more of its share
	 * than the wait needs). */
	bool filler_capped;
	uint32_t filler_max;
	/* Which runs to try: 0 every one; 1 up to the first that meets
	 * the needs (is there any?); n > 1 until n runs in a row bring best
	 * effort no thousandth of the link more. */
	unsigned int runs;
};

/*
 * Packets per entry.  The synthesizer's promises hold for full packets,
 * MTU + OQ_FULL_PKT_HDR_MIN to MTU + OQ_FULL_PKT_HDR_MAX bytes on the wire
 * (model.h: MTU/64 + 1 or + 2 credits), and for the model's packet of
 * MTU bytes (MTU/64 credits) that osmqos predict and the published
 * figures take.  An entry of p packets has weight p MTU/64 (255 at most),
 * and p is kept small enough that every one of those packets sends p
 * times from it: ceil(w / c) = p for c from MTU/64 to MTU/64 + 2, i.e.
 * (MTU/64 + 2) (p - 1) < w.  That is at most 2 packets at MTU 256, 4 at
 * 512, 8 at 1024 and 2048, 4 at 4096.
 */
static inline unsigned int oq_synth_credits(uint32_t mtu)
{
	return (mtu + 63) / 64;
}

static inline unsigned int oq_synth_pmax(uint32_t mtu)
{
	unsigned int c = oq_synth_credits(mtu),
		     hi = (mtu + OQ_FULL_PKT_HDR_MAX + 63) / 64, p = 1;

	while (hi * p < (c * (p + 1) < 255 ? c * (p + 1) : 255))
		p++;
	return p;
}

/* High packets per low opportunity under VLHighLimit q with packets of
 * `bytes` (the arbiter starts a high packet only where it fits under the
 * limit, one at least). */
static inline uint32_t oq_synth_high_run(unsigned int q, uint32_t bytes)
{
	uint32_t h = (uint32_t)((uint64_t)q * 4096u / bytes);

	return h ? h : 1;
}

/* synth_counts.c: for each VLHighLimit that gives another run length,
 * the packet counts that meet every VL's need with the most left for
 * best effort; best first.  Returns how many (0: none meets them). */
size_t oq_synth_counts(const struct oq_synth_port *in,
		       const struct oq_vl_need *n,
		       const struct oq_count_mins *mins, struct oq_counts *out,
		       size_t max_out);
/* The counts for one run length H only (H with the longest full packet;
 * Hs follows from limit; as oq_synth_counts; H 0: best
 * effort, the only low VL, in the high table alone, the low table empty);
 * false when none meets the needs. */
bool oq_synth_counts_at(const struct oq_synth_port *in,
			const struct oq_vl_need *n,
			const struct oq_count_mins *mins, uint32_t H,
			uint8_t limit, struct oq_counts *out);

/* synth_eval.c: the worst wait of vl on c's tables and limit (the
 * backlog as c's, not its mtu_bytes) over every packet length the
 * synthesizer promises for at this MTU (synth_eval.c): the most bytes;
 * capped when one computation is. */
int oq_synth_full_wait(const struct oq_arb_config *c, uint32_t mtu,
		       unsigned int vl, size_t states,
		       struct oq_wait_result *out);

/* synth_arrange.c: entries for packet counts, each VL's entries spread
 * evenly over the table; VLs in `fine` in entries of one packet where
 * the table has room, the others in entries of at most `size` packets.
 * Returns -1 when they do not fit in cap entries. */
int oq_synth_arrange(const uint32_t cnt[OQ_MAX_VLS], uint16_t first,
		     uint16_t fine, unsigned int size, unsigned int cap,
		     uint32_t mtu, struct oq_vlarb_table *t);

/* synth_layout.c: the SL-to-VL layouts of a class, in the order they are
 * tried (kept SL2VL: the one layout its rows give).  Returns how many,
 * or -1 with *bad_sl and why set when no scale of the intents can help
 * (a kept SL2VL drops an intent SL, or mixes priorities on a VL). */
int oq_synth_layouts(const struct oq_synth_port *in,
		     const struct oq_sl_intents *it, struct oq_vl_need *out,
		     size_t max_out, int *bad_sl, char *why, size_t why_len);

#endif /* OSMQOS_SYNTH_INT_H */
