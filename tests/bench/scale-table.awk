# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The scale benchmark's table (tests/bench/scale.sh) from its raw
# "size=S mode=M key=value ..." lines: per fabric size one row per mode,
# the plugin's row with its overhead over stock's (resweep CPU and RSS),
# then what the plugin published and its own time per phase.

# Median over the runs of figure f of key k (one value per run).
function dmed(k, f,    i, j, t, m, v)
{
	m = nd[k, f]
	for (i = 1; i <= m; i++)
		v[i] = dv[k, f, i]
	for (i = 2; i <= m; i++)
		for (j = i; j > 1 && v[j] + 0 < v[j - 1] + 0; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	return m ? v[int((m + 1) / 2)] : ""
}

/ nodes=/ {
	s = val($0, "size")
	order[n++] = s
	nodes[s] = val($0, "nodes")
	linked[s] = val($0, "linked_ports")
	next
}
/ resweep=/ {
	k = val($0, "size") SUBSEP val($0, "mode")
	res[k, ++nres[k]] = val($0, "cpu_s")
	next
}
/ phases=/ {
	p = $0
	sub(/.*phases="/, "", p)
	sub(/"$/, "", p)
	phases[val($0, "size")] = p
	next
}
/ promtool=/ {
	p = $0
	sub(/.*promtool=/, "", p)
	prom[val($0, "size")] = p
	next
}
{
	k = val($0, "size") SUBSEP val($0, "mode")
	for (f = 3; f <= NF; f++) {
		split($f, kv, "=")
		d[k, kv[1]] = kv[2]
		dv[k, kv[1], ++nd[k, kv[1]]] = kv[2]
	}
}
END {
	printf "%-10s %6s %7s %-6s %7s %8s %10s %8s %8s %9s %8s %8s\n",
		"fabric", "nodes", "ports", "mode", "up_s", "cpu_up_s",
		"resweep_s", "rss_MiB", "hwm_MiB", "resweep+%", "rss+%",
		"hwm+%"
	for (i = 0; i < n; i++) {
		s = order[i]
		for (m = 0; m < 2; m++) {
			mode = m ? "plugin" : "stock"
			k = s SUBSEP mode
			r = median(k)
			rss = dmed(k, "rss_kb") / 1024
			hwm = dmed(k, "hwm_kb") / 1024
			oh = ohr = ohh = "-"
			if (m) {
				st = median(s SUBSEP "stock")
				sr = dmed(s SUBSEP "stock", "rss_kb") / 1024
				sh = dmed(s SUBSEP "stock", "hwm_kb") / 1024
				if (st > 0)
					oh = sprintf("%+.1f", (r / st - 1) * 100)
				if (sr > 0)
					ohr = sprintf("%+.1f", (rss / sr - 1) * 100)
				if (sh > 0)
					ohh = sprintf("%+.1f", (hwm / sh - 1) * 100)
			}
			printf "%-10s %6s %7s %-6s %7s %8s %10.3f %8.1f %8.1f %9s %8s %8s\n",
				s, nodes[s], linked[s], mode, dmed(k, "up_s"),
				dmed(k, "cpu_up_s"), r, rss, hwm, oh, ohr, ohh
		}
		k = s SUBSEP "plugin"
		printf "%-10s published %s bytes (JSON %s), %s Prometheus series, written in %s; promtool: %s\n",
			s, d[k, "published_bytes"], d[k, "json_bytes"],
			d[k, "series"], d[k, "publish_ms"], prom[s]
		printf "%-10s plugin phases (last sweep): %s\n", s, phases[s]
	}
}
