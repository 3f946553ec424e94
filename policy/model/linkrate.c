// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Link data rates: lane speed x width after line encoding, and the
 * PathRecord rate encoding both ways, and the PortInfo field decodings
 * (VL count, lane count, speed) the model's inputs come from.
 */
#include <stdio.h>

#include <osmqos/model.h>
#include <osmqos/osm_release.h>

/*
 * Per-lane data rate.  8b/10b for SDR/DDR/QDR, 64b/66b for FDR10/FDR/EDR.
 * HDR and NDR: PAM4 at 53.125/106.25 GBd with RS-FEC; we take the nominal
 * 50/100 Gb/s per lane data rate (what the 64b/66b + FEC framing is sized
 * to carry), as vendors quote it.
 */
double oq_lane_data_gbps(enum oq_speed s)
{
	switch (s) {
	case OQ_SPEED_SDR:
		return 2.5 * 8 / 10;
	case OQ_SPEED_DDR:
		return 5.0 * 8 / 10;
	case OQ_SPEED_QDR:
		return 10.0 * 8 / 10;
	case OQ_SPEED_FDR10:
		return 10.3125 * 64 / 66;
	case OQ_SPEED_FDR:
		return 14.0625 * 64 / 66;
	case OQ_SPEED_EDR:
		return 25.78125 * 64 / 66;
	case OQ_SPEED_HDR:
		return 50.0;
	case OQ_SPEED_NDR:
		return 100.0;
	case OQ_SPEED_UNKNOWN:
		break;
	}
	return 0.0;
}

static bool width_valid(uint8_t w)
{
	return w == 1 || w == 2 || w == 4 || w == 8 || w == 12;
}

double oq_link_data_gbps(uint8_t width, enum oq_speed s)
{
	if (!width_valid(width))
		return 0.0;
	return width * oq_lane_data_gbps(s);
}

double oq_port_data_gbps(const struct oq_port *p)
{
	return p ? oq_link_data_gbps(p->width, p->speed) : 0.0;
}

/* Rate enums by width index (1x, 2x, 4x, 8x, 12x), as OpenSM's
 * ib_port_info_compute_rate() assigns them; NDR 8x/12x (800/1200 Gb/s)
 * only where the release knows rates 23 and 24. */
static const uint8_t rate_tab[][5] = {
	[OQ_SPEED_SDR] = {2, 5, 3, 6, 4},
	[OQ_SPEED_DDR] = {5, 3, 6, 7, 8},
	[OQ_SPEED_QDR] = {3, 6, 7, 9, 10},
	[OQ_SPEED_FDR10] = {3, 6, 7, 9, 10},
	[OQ_SPEED_FDR] = {11, 19, 12, 13, 14},
	[OQ_SPEED_EDR] = {15, 20, 16, 17, 18},
	[OQ_SPEED_HDR] = {20, 16, 17, 21, 22},
	[OQ_SPEED_NDR] = {16, 17, 21, 23, 24},
};

static int width_index(uint8_t w)
{
	switch (w) {
	case 1:
		return 0;
	case 2:
		return 1;
	case 4:
		return 2;
	case 8:
		return 3;
	case 12:
		return 4;
	}
	return -1;
}

uint8_t oq_rate_enum(uint8_t width, enum oq_speed s)
{
	int wi = width_index(width);

	if (wi < 0 || s <= OQ_SPEED_UNKNOWN || s > OQ_SPEED_NDR ||
	    rate_tab[s][wi] > oq_osm_release()->rate_max)
		return 0;
	return rate_tab[s][wi];
}

/* Nominal Gb/s x 10 of each encoding 2..24 (IBA 1.5 names 23 and 24,
 * whichever OpenSM answers). */
static const unsigned int rate_dgbps[OQ_RATE_MAX + 1] = {
	[2] = 25,    [3] = 100,	  [4] = 300,	[5] = 50,    [6] = 200,
	[7] = 400,   [8] = 600,	  [9] = 800,	[10] = 1200, [11] = 140,
	[12] = 560,  [13] = 1120, [14] = 1680,	[15] = 250,  [16] = 1000,
	[17] = 2000, [18] = 3000, [19] = 280,	[20] = 500,  [21] = 4000,
	[22] = 6000, [23] = 8000, [24] = 12000,
};

double oq_rate_enum_gbps(uint8_t rate)
{
	if (rate < OQ_RATE_MIN || rate > OQ_RATE_MAX)
		return 0.0;
	return rate_dgbps[rate] / 10.0;
}

unsigned int oq_mtu_bytes(uint8_t mtu_enum)
{
	if (mtu_enum < 1 || mtu_enum > 5)
		return 0;
	return 128u << mtu_enum;
}

uint8_t oq_vls_from_enc(uint8_t enc)
{
	static const uint8_t vls[] = {0, 1, 2, 4, 8, 15};

	return enc < sizeof(vls) ? vls[enc] : 0;
}

uint8_t oq_lanes_from_width(uint8_t width)
{
	switch (width) {
	case 1:
		return 1;
	case 2:
		return 4;
	case 4:
		return 8;
	case 8:
		return 12;
	case 16:
		return 2;
	default:
		return 0;
	}
}

enum oq_speed oq_speed_from_ib(uint8_t speed_active, uint8_t speed_ext_active,
			       bool ext, bool fdr10)
{
	if (ext) {
		switch (speed_ext_active) {
		case 1:
			return OQ_SPEED_FDR;
		case 2:
			return OQ_SPEED_EDR;
		case 4:
			return OQ_SPEED_HDR;
		case 8: /* unknown to 3.3.23: LinkSpeedActive decides */
			if (oq_osm_release()->speed_ndr)
				return OQ_SPEED_NDR;
			break;
		default:
			break;
		}
	}
	if (fdr10)
		return OQ_SPEED_FDR10;
	switch (speed_active) {
	case 1:
		return OQ_SPEED_SDR;
	case 2:
		return OQ_SPEED_DDR;
	case 4:
		return OQ_SPEED_QDR;
	default:
		return OQ_SPEED_UNKNOWN;
	}
}

void oq_fabric_cap_oper_vls(struct oq_fabric *f, uint8_t max_op_vls)
{
	uint8_t cap = oq_vls_from_enc(max_op_vls);
	size_t i;

	/* 0: OpenSM's OperVLs 0 is no link the model can say anything of;
	 * above 5 the encoding caps nothing. */
	if (!cap)
		return;
	for (i = 0; i < f->n_ports; i++) {
		struct oq_port *p = f->ports[i];
		uint8_t vls = p->oper_vls ? p->oper_vls : p->vl_cap;

		if (oq_port_peer(f, p) && vls > cap)
			p->oper_vls = cap;
	}
}
