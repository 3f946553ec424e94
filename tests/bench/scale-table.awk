# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The scale benchmark's table (tests/bench/scale.sh) from its raw
# "size=S mode=M key=value ..." lines: per fabric size one row per mode
# (in the order they ran), each plugin row with its overhead over stock's
# (resweep CPU, page faults and RSS), then per plugin mode what it
# published and its own time per phase.

# Median over the runs of figure f of key k (one value per run).
function dmed(k, f,    i, m, v)
{
	m = nd[k, f]
	for (i = 1; i <= m; i++)
		v[i] = dv[k, f, i]
	return m ? med(v, m) : ""
}

# Median page faults per resweep of key k.
function fmed(k,    i, v)
{
	for (i = 1; i <= nflt[k]; i++)
		v[i] = flt[k, i]
	return med(v, nflt[k])
}

function pct(a, b)
{
	return b > 0 ? sprintf("%+.1f", (a / b - 1) * 100) : "-"
}

/ nodes=/ {
	s = val($0, "size")
	order[n++] = s
	nodes[s] = val($0, "nodes")
	linked[s] = val($0, "linked_ports")
	next
}
{
	m = val($0, "mode")
	if (m != "" && !(m in mseen)) {
		mseen[m] = 1
		modes[nm++] = m
	}
	k = val($0, "size") SUBSEP m
}
/ resweep=/ {
	res[k, ++nres[k]] = val($0, "cpu_s")
	if (val($0, "faults") != "")
		flt[k, ++nflt[k]] = val($0, "faults")
	next
}
/ phases=/ {
	p = $0
	sub(/.*phases="/, "", p)
	sub(/"$/, "", p)
	phases[k] = p
	next
}
/ promtool=/ {
	p = $0
	sub(/.*promtool=/, "", p)
	prom[k] = p
	next
}
{
	for (f = 3; f <= NF; f++) {
		split($f, kv, "=")
		d[k, kv[1]] = kv[2]
		dv[k, kv[1], ++nd[k, kv[1]]] = kv[2]
	}
}
END {
	printf "%-10s %6s %7s %-7s %7s %8s %10s %8s %8s %8s %9s %8s %8s %8s\n",
		"fabric", "nodes", "ports", "mode", "up_s", "cpu_up_s",
		"resweep_s", "faults", "rss_MiB", "hwm_MiB", "resweep+%",
		"faults+%", "rss+%", "hwm+%"
	for (i = 0; i < n; i++) {
		s = order[i]
		sk = s SUBSEP "stock"
		st = median(sk)
		sf = fmed(sk)
		sr = dmed(sk, "rss_kb") / 1024
		sh = dmed(sk, "hwm_kb") / 1024
		for (j = 0; j < nm; j++) {
			mode = modes[j]
			k = s SUBSEP mode
			if (!nres[k])
				continue
			r = median(k)
			fl = fmed(k)
			rss = dmed(k, "rss_kb") / 1024
			hwm = dmed(k, "hwm_kb") / 1024
			oh = ohf = ohr = ohh = "-"
			if (mode != "stock") {
				oh = pct(r, st)
				ohf = pct(fl, sf)
				ohr = pct(rss, sr)
				ohh = pct(hwm, sh)
			}
			printf "%-10s %6s %7s %-7s %7s %8s %10.3f %8s %8.1f %8.1f %9s %8s %8s %8s\n",
				s, nodes[s], linked[s], mode, dmed(k, "up_s"),
				dmed(k, "cpu_up_s"), r, fl, rss, hwm, oh, ohf,
				ohr, ohh
		}
		for (j = 0; j < nm; j++) {
			mode = modes[j]
			k = s SUBSEP mode
			if (mode == "stock" || !nres[k])
				continue
			printf "%-10s %s published %s bytes (JSON %s), %s Prometheus series, written in %s; promtool: %s\n",
				s, mode, d[k, "published_bytes"],
				d[k, "json_bytes"], d[k, "series"],
				d[k, "publish_ms"], prom[k]
			printf "%-10s %s phases (last sweep): %s\n", s, mode,
				phases[k]
		}
	}
}
