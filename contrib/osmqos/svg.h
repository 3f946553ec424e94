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
/* s with <, >, & and " escaped for XML text and attribute values. */
void oq_svg_text(FILE *out, const char *s);

struct oq_fabric;
struct oq_fabric_tables;
struct oq_port;
struct oq_predict_opts;

/*
 * osmqos predict --svg: one horizontal bar per port (every linked port,
 * or only `only`), stacked by SL, length in Gb/s, behind it an outline of
 * the link's rate; a legend of the SLs that get bandwidth somewhere.
 * Ports are predicted with o, as the text output does.  Returns the
 * number of bars drawn (0: no port to draw, nothing written), or -1 on
 * I/O error or a port that cannot be predicted.
 */
int oq_svg_predict_bars(FILE *out, const char *title, const struct oq_fabric *f,
			const struct oq_fabric_tables *t,
			const struct oq_port *only,
			const struct oq_predict_opts *o);

#endif /* OSMQOS_SVG_H */
