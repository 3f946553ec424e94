/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Minimal SVG line charts for the CLI (osmqos model --svg). */
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

#endif /* OSMQOS_SVG_H */
