# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Plot of the scale benchmark (tests/bench/scale.sh): opensm CPU for one
# heavy resweep (median) against fabric size, stock OpenSM and OpenSM +
# osmqos on the same axes, and the plugin's overhead (the difference) as a
# third line.  Reads the raw "size=S mode=M ..." lines; writes SVG.

function px(x) { return L + (W - L - R) * x / xmax }
function py(y) { return H - B - (H - B - T) * (y - ymin) / (ymax - ymin) }

function line(xs, ys, cnt, color, label, ly,    i, pts)
{
	pts = ""
	for (i = 0; i < cnt; i++)
		pts = pts sprintf("%.1f,%.1f ", px(xs[i]), py(ys[i]))
	printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n", color, pts
	for (i = 0; i < cnt; i++)
		printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>%s: %d nodes, %.3f s</title></circle>\n",
			px(xs[i]), py(ys[i]), color, label, xs[i], ys[i]
	printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>", L + 10, ly, L + 30, ly, color
	printf "<text x=\"%d\" y=\"%d\">%s</text>\n", L + 36, ly + 4, label
}

/ nodes=/ { s = val($0, "size"); order[n++] = s; nodes[s] = val($0, "nodes"); next }
/ resweep=/ { k = val($0, "size") SUBSEP val($0, "mode"); res[k, ++nres[k]] = val($0, "cpu_s") }
END {
	W = 640; H = 400; L = 64; R = 24; T = 40; B = 48
	xmax = 0; ymax = 0; ymin = 0
	for (i = 0; i < n; i++) {
		s = order[i]
		x[i] = nodes[s] + 0
		st[i] = median(s SUBSEP "stock")
		pl[i] = median(s SUBSEP "plugin")
		ov[i] = pl[i] - st[i]
		if (x[i] > xmax) xmax = x[i]
		if (st[i] > ymax) ymax = st[i]
		if (pl[i] > ymax) ymax = pl[i]
		if (ov[i] < ymin) ymin = ov[i]
	}
	xmax = xmax ? xmax * 1.1 : 1
	ymax = ymax ? ymax * 1.15 : 1
	ymin = ymin < 0 ? ymin * 1.5 : 0
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H
	printf "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H
	printf "<text x=\"%d\" y=\"22\" font-size=\"14\">opensm CPU per heavy resweep with nothing changed (median) against fabric size</text>\n", L
	printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\"/>\n", L, py(0), W - R, py(0)
	printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, T, L, H - B
	for (i = 0; i <= 4; i++) {
		yv = ymin + (ymax - ymin) * i / 4
		printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>", L, py(yv), W - R, py(yv)
		printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n", L - 6, py(yv) + 4, yv
		xv = xmax * i / 4
		printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", px(xv), H - B + 16, xv
	}
	printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">nodes (generated fat trees on ibsim)</text>\n", (L + W - R) / 2, H - 10
	printf "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">CPU seconds</text>\n", (T + H - B) / 2, (T + H - B) / 2
	line(x, st, n, "#1f77b4", "stock OpenSM", T + 14)
	line(x, pl, n, "#d62728", "OpenSM + osmqos", T + 32)
	line(x, ov, n, "#2ca02c", "osmqos overhead (difference)", T + 50)
	print "</svg>"
}
