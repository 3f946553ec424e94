/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Minimal SVG charts for the CLI: line charts (osmqos model --svg) and
 * per-port stacked bars (osmqos predict --svg, svg_predict.c). */
#ifndef OSMQOS_SVG_H
#define OSMQOS_SVG_H

#include <stddef.h>
#include <stdio.h>

struct oq_svg_series {
	const char *label;
	const char *color; /* CSS colour, e.g. "#1f77b4" */
	const double *x, *y;
	size_t n;
};

struct oq_svg_chart {
	const char *title;
	const char *x_label, *y_label;
	const struct oq_svg_series *series;
	size_t n_series;
};

/* Write a complete SVG document; returns 0, or -1 on I/O error or no
 * data. */
int oq_svg_line_chart(FILE *out, const struct oq_svg_chart *c);

/* Primitives shared by the charts. */
/* A tick step of 1, 2 or 5 times a power of ten giving about n ticks. */
double oq_svg_nice_step(double span, int n);
/* s with <, >, & and " escaped for XML text and attribute values; a
 * byte that is no valid UTF-8 and a character XML 1.0 forbids (C0
 * controls but tab, LF and CR; U+FFFE, U+FFFF) become U+FFFD. */
void oq_svg_text(FILE *out, const char *s);

struct oq_fabric;
struct oq_fabric_tables;
struct oq_port;
struct oq_port_pred;

/*
 * osmqos predict --svg: one horizontal bar per port (ports[i] with its
 * prediction preds[i], as the text output lists them), stacked by SL,
 * length in Gb/s, behind it an outline of the link's rate; a legend of
 * the SLs that get bandwidth somewhere.  Returns the number of bars drawn
 * (0: n is 0, nothing written), or -1 on an I/O error.
 */
int oq_svg_predict_bars(FILE *out, const char *title,
			const struct oq_port *const *ports,
			const struct oq_port_pred *preds, size_t n);

#endif /* OSMQOS_SVG_H */
