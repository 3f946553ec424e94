// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Minimal SVG line charts: axes with "nice" ticks, one polyline per
 * series, a legend.  No dependencies, so the CLI can draw the arbiter's
 * curves anywhere. */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <osmqos/json.h>

#include "svg.h"

#define W  900.0
#define H  520.0
#define ML 70.0 /* margins */
#define MR 170.0
#define MT 40.0
#define MB 60.0

double oq_svg_nice_step(double span, int n)
{
	double raw = span / n, p, f;

	if (raw <= 0)
		return 1;
	p = pow(10, floor(log10(raw)));
	f = raw / p;
	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

/* A character XML 1.0 cannot carry, even as a reference: a C0 control
 * other than tab, LF and CR, or U+FFFE/U+FFFF (k the UTF-8 length). */
static bool not_xml_char(const unsigned char *u, size_t k)
{
	if (k == 1)
		return *u < 0x20 && *u != '\t' && *u != '\n' && *u != '\r';
	return k == 3 && u[0] == 0xef && u[1] == 0xbf &&
	       (u[2] == 0xbe || u[2] == 0xbf);
}

void oq_svg_text(FILE *out, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = s ? strlen(s) : 0, i = 0, k;

	/* Names come from the fabric (NodeDescriptions, a node-name map)
	 * in any bytes: the document stays well-formed UTF-8 whatever they
	 * hold, bad ones shown as U+FFFD as in the JSON outputs. */
	while (i < n) {
		k = oq_utf8_seq(u + i, n - i);
		if (!k || not_xml_char(u + i, k)) {
			fputs(OQ_UTF8_REPLACEMENT, out);
			i += k ? k : 1;
			continue;
		}
		if (k > 1) {
			fwrite(u + i, 1, k, out);
			i += k;
			continue;
		}
		switch (u[i++]) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fputc(u[i - 1], out);
		}
	}
}

int oq_svg_line_chart(FILE *out, const struct oq_svg_chart *c)
{
	double x0 = INFINITY, x1 = -INFINITY, y0 = 0, y1 = -INFINITY;
	double sx, sy, step, t;
	size_t i, k;

	for (k = 0; k < c->n_series; k++)
		for (i = 0; i < c->series[k].n; i++) {
			double x = c->series[k].x[i], y = c->series[k].y[i];

			if (!isfinite(x) || !isfinite(y))
				continue;
			x0 = fmin(x0, x);
			x1 = fmax(x1, x);
			y0 = fmin(y0, y);
			y1 = fmax(y1, y);
		}
	if (!(x1 >= x0) || !(y1 >= y0))
		return -1;
	if (x1 == x0)
		x1 = x0 + 1;
	step = oq_svg_nice_step(y1 - y0, 8);
	y1 = ceil(y1 * 1.04 / step) * step; /* headroom above the top */
	if (y1 == y0)
		y1 = y0 + 1;
	sx = (W - ML - MR) / (x1 - x0);
	sy = (H - MT - MB) / (y1 - y0);
#define PX(x) (ML + ((x)-x0) * sx)
#define PY(y) (H - MB - ((y)-y0) * sy)

	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		W, H, W, H);
	fprintf(out, "<text x=\"%.1f\" y=\"24\" font-size=\"15\">", ML);
	oq_svg_text(out, c->title);
	fputs("</text>\n", out);
	/* Grid and y ticks. */
	for (t = y0; t <= y1 + step / 2; t += step) {
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>\n"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g"
			"</text>\n",
			ML, PY(t), W - MR, PY(t), ML - 6, PY(t) + 4, t);
	}
	step = oq_svg_nice_step(x1 - x0, 10);
	for (t = ceil(x0 / step) * step; t <= x1 + 1e-9; t += step)
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#eee\"/>\n"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g"
			"</text>\n",
			PX(t), MT, PX(t), H - MB, PX(t), H - MB + 16, t);
	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"none\" stroke=\"black\"/>\n",
		ML, MT, W - ML - MR, H - MT - MB);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		ML + (W - ML - MR) / 2, H - 18);
	oq_svg_text(out, c->x_label);
	fprintf(out,
		"</text>\n<text transform=\"translate(18 %.1f) rotate(-90)\" "
		"text-anchor=\"middle\">",
		MT + (H - MT - MB) / 2);
	oq_svg_text(out, c->y_label);
	fputs("</text>\n", out);

	for (k = 0; k < c->n_series; k++) {
		const struct oq_svg_series *s = &c->series[k];
		const char *col = s->color ? s->color : "black";

		fprintf(out,
			"<polyline fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"1.5\" points=\"",
			col);
		for (i = 0; i < s->n; i++)
			if (isfinite(s->x[i]) && isfinite(s->y[i]))
				fprintf(out, "%.2f,%.2f ", PX(s->x[i]),
					PY(s->y[i]));
		fputs("\"/>\n", out);
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\" stroke-width=\"3\"/>\n"
			"<text x=\"%.1f\" y=\"%.1f\">",
			W - MR + 12, MT + 14 + 18.0 * k, W - MR + 36,
			MT + 14 + 18.0 * k, col, W - MR + 42,
			MT + 18 + 18.0 * k);
		oq_svg_text(out, s->label);
		fputs("</text>\n", out);
	}
	fputs("</svg>\n", out);
#undef PX
#undef PY
	return ferror(out) ? -1 : 0;
}
