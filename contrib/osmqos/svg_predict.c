// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos predict --svg: the whole fabric's predicted bandwidth on one
 * page.  One horizontal bar per port, one segment per SL (its predicted
 * Gb/s with the chosen traffic scenario), drawn over an outline of the
 * link's data rate so that capacity no SL gets (SLs on a VL without
 * VLArb weight) shows as a gap.  The x axis is Gb/s rather than share so
 * that fast and slow links compare at a glance; the share is in each
 * segment's tooltip.
 *
 * Each bar is a <g class="port"> (tests/predict-svg.sh counts them).
 */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <osmqos/fabric.h>
#include <osmqos/match.h>
#include <osmqos/model.h>

#include "svg.h"

#define LABEL_W	 200.0 /* port names, right-aligned */
#define PLOT_W	 620.0
#define LEGEND_W 150.0
#define MT	 56.0
#define MB	 50.0
#define ROW_H	 16.0
#define BAR_H	 11.0

/* 16 distinguishable colours (Tableau 20, dark shades first); SL n gets
 * colour n so a picture of another fabric uses the same key. */
static const char *const sl_color[16] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#aec7e8", "#ffbb78",
	"#98df8a", "#ff9896", "#c5b0d5", "#c49c94",
};

static void vl_text(const struct oq_sl_pred *sp, char *buf, size_t n)
{
	if (sp->vl == OQ_VL_NONE)
		snprintf(buf, n, "dropped");
	else if (sp->vl == OQ_VL_MIXED)
		snprintf(buf, n, "mixed VLs");
	else
		snprintf(buf, n, "VL%d", sp->vl);
}

/* One port's bar: outline of the link rate, then the SL segments. */
static void draw_bar(FILE *out, const struct oq_port *p,
		     const struct oq_port_pred *pp, double y, double sx)
{
	double x = LABEL_W, yb = y + (ROW_H - BAR_H) / 2;
	char name[96], vb[16], fb[48];
	bool starve = false;
	unsigned int s;

	oq_port_name(p, name, sizeof(name));
	fputs("<g class=\"port\" data-port=\"", out);
	oq_svg_text(out, name);
	fputs("\">\n<text class=\"label\" ", out);
	fprintf(out, "x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", LABEL_W - 6,
		yb + BAR_H - 1.5);
	oq_svg_text(out, name);
	fputs("</text>\n", out);
	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" "
		"height=\"%.1f\" fill=\"#f0f0f0\"/>\n",
		x, yb, pp->rate_gbps * sx, BAR_H);
	for (s = 0; s < 16; s++) {
		const struct oq_sl_pred *sp = &pp->sl[s];
		double w = sp->gbps * sx;

		if (!sp->active)
			continue;
		starve |= sp->starve;
		if (!(w > 0.0))
			continue;
		vl_text(sp, vb, sizeof(vb));
		oq_frac_format(sp->share, fb, sizeof(fb));
		fprintf(out,
			"<rect class=\"sl\" data-sl=\"%u\" x=\"%.2f\" "
			"y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
			"fill=\"%s\"><title>",
			s, x, yb, w, BAR_H, sl_color[s]);
		oq_svg_text(out, name);
		fprintf(out,
			" SL%u %s %s: %.2f Gb/s, %.2f%% (%s)</title></rect>\n",
			s, vb, oq_prio_name(sp->prio), sp->gbps,
			oq_frac_double(sp->share) * 100, fb);
		x += w;
	}
	/* The link outline goes on top so it shows on full bars too. */
	fprintf(out,
		"<rect class=\"link\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" "
		"height=\"%.1f\" fill=\"none\" stroke=\"#333\" "
		"stroke-width=\"0.6\"><title>",
		LABEL_W, yb, pp->rate_gbps * sx, BAR_H);
	oq_svg_text(out, name);
	fprintf(out, ": link %.2f Gb/s, MTU %u</title></rect>\n", pp->rate_gbps,
		pp->mtu_bytes);
	if (starve)
		fprintf(out,
			"<text x=\"%.1f\" y=\"%.1f\" fill=\"#d62728\">"
			"low VLs starve</text>\n",
			LABEL_W + pp->rate_gbps * sx + 4, yb + BAR_H - 1.5);
	fputs("</g>\n", out);
}

int oq_svg_predict_bars(FILE *out, const char *title,
			const struct oq_port *const *ports,
			const struct oq_port_pred *preds, size_t n)
{
	const struct oq_node *last = NULL;
	double max_rate = 0, sx, step, tick, w, h, y;
	unsigned int used = 0, s;
	size_t i;
	int k;

	/* Scale (fastest link) and the SLs that get bandwidth. */
	for (i = 0; i < n; i++) {
		max_rate = fmax(max_rate, preds[i].rate_gbps);
		for (s = 0; s < 16; s++)
			if (preds[i].sl[s].active && preds[i].sl[s].gbps > 0)
				used |= 1u << s;
	}
	if (!n)
		return 0; /* nothing written: the caller says why */
	if (!(max_rate > 0))
		max_rate = 1;
	step = oq_svg_nice_step(max_rate, 8);
	max_rate = ceil(max_rate / step) * step;
	sx = PLOT_W / max_rate;
	w = LABEL_W + PLOT_W + LEGEND_W;
	h = MT + ROW_H * (double)n + MB;
	if (h < MT + 18.0 * 17 + MB)
		h = MT + 18.0 * 17 + MB; /* room for the legend */

	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"10\" y=\"22\" font-size=\"15\">",
		w, h, w, h);
	oq_svg_text(out, title);
	fputs("</text>\n", out);
	/* Gb/s grid, ticks above and below the bars. */
	for (tick = 0; tick <= max_rate + step / 2; tick += step) {
		double x = LABEL_W + tick * sx;

		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#e4e4e4\"/>\n"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g"
			"</text>\n"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g"
			"</text>\n",
			x, MT - 4, x, h - MB + 4, x, MT - 8, tick, x,
			h - MB + 16, tick);
	}
	fprintf(out,
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
		"predicted Gb/s per SL (outline: link data rate)</text>\n",
		LABEL_W + PLOT_W / 2, h - MB + 34);

	/* The bars, a faint rule between nodes. */
	y = MT;
	for (i = 0; i < n; i++) {
		const struct oq_port *p = ports[i];

		if (i && last != p->node)
			fprintf(out,
				"<line x1=\"10\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\" stroke=\"#ccc\" "
				"stroke-dasharray=\"2 2\"/>\n",
				y, LABEL_W + PLOT_W, y);
		draw_bar(out, p, &preds[i], y, sx);
		last = p->node;
		y += ROW_H;
	}

	/* Legend: the SLs that get bandwidth on some port. */
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">service level</text>\n",
		LABEL_W + PLOT_W + 20, MT + 8);
	for (s = 0, k = 0; s < 16; s++) {
		double ly = MT + 18 + 18.0 * k;

		if (!(used & (1u << s)))
			continue;
		fprintf(out,
			"<rect class=\"legend\" x=\"%.1f\" y=\"%.1f\" "
			"width=\"14\" height=\"11\" fill=\"%s\"/>\n"
			"<text x=\"%.1f\" y=\"%.1f\">SL %u</text>\n",
			LABEL_W + PLOT_W + 20, ly, sl_color[s],
			LABEL_W + PLOT_W + 40, ly + 10, s);
		k++;
	}
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : (int)n;
}
