# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The scale benchmark's table (tests/bench/scale.sh) from its raw
# "size=S mode=M key=value ..." lines: per fabric size one row per mode
# (in the order they ran), each plugin row with its overhead over stock's
# (CPU of the resweep with nothing changed, of the sweep after a port went
# down, of the one after it came back and of one after a policy edit,
# page faults and RSS), then what
# each mode's port changes were (the same port, opensm's sweeps, their
# trigger), then the paired runs (scale-paired.sh: the median of
# per-sweep ratios of the two SMs sweeping side by side, and their
# difference by thread: the state manager thread, the plugin's threads,
# the rest; medians do not add up, so neither do those), and per plugin
# mode what it published and its own time per phase in the last
# no-change, the port-down, the port-up and the policy-edit sweep.

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

# Median over the runs of figure f ("cpu_s", "faults", "sweeps") of port
# change w ("down", "up") of key k; "" when there is none.
function cmed(k, w, f,    i, m, v)
{
	m = nc[k, w]
	for (i = 1; i <= m; i++)
		v[i] = cv[k, w, f, i]
	return m ? med(v, m) : ""
}

function pct(a, b)
{
	return a != "" && b > 0 ? sprintf("%+.1f", (a / b - 1) * 100) : "-"
}

function s3(x)
{
	return x == "" ? "-" : sprintf("%.3f", x)
}

# "trap (5)" or "trap (4), hup (1)": what started the sweeps of change w
# of k, in how many runs; "0x... (5)": the port GUIDs opensm named.
function tally(a, k, w,    key, parts, out)
{
	out = ""
	for (key in a) {
		split(key, parts, SUBSEP)
		if (parts[1] SUBSEP parts[2] == k && parts[3] == w)
			out = out (out == "" ? "" : ", ") parts[4] " (" a[key] ")"
	}
	return out == "" ? "-" : out
}

# Lines that are not about one fabric (the run's own settings).
!/^size=/ { next }
# The paired runs (scale-paired.sh): per size and kind of sweep the CPU
# of both SMs and their ratio, one per sweep.
/ mode=paired / {
	k = val($0, "size") SUBSEP val($0, "sweep")
	i = ++npr[k]
	prs[k, i] = val($0, "stock_s")
	prp[k, i] = val($0, "plugin_s")
	prr[k, i] = val($0, "ratio")
	# The ratios again by the SM started first (raw files from before
	# the runs took turns have none: stock).
	o = val($0, "started") == "plugin" ? "plugin" : "stock"
	pro[k, o, ++npo[k, o]] = prr[k, i]
	# By thread (raw files from before have none; "-": the state
	# manager thread was not found): plugin minus stock, ms, in the
	# state manager thread, the plugin's threads and the rest.
	if (val($0, "stock_sm_s") !~ /^(|-)$/ &&
	    val($0, "plugin_sm_s") !~ /^(|-)$/) {
		j = ++npt[k, o]
		ptd[k, o, "sm", j] = (val($0, "plugin_sm_s") - \
				      val($0, "stock_sm_s")) * 1000
		ptd[k, o, "own", j] = (val($0, "plugin_own_s") - \
				       val($0, "stock_own_s")) * 1000
		ptd[k, o, "all", j] = (prp[k, i] - prs[k, i]) * 1000
		ptd[k, o, "rest", j] = ptd[k, o, "all", j] - \
			ptd[k, o, "sm", j] - ptd[k, o, "own", j]
		pts[k, ++npts[k]] = val($0, "stock_sm_s") * 1000
	}
	prf[k, val($0, "first")]++
	if (val($0, "trigger_stock") != val($0, "trigger_plugin"))
		prx[k]++
	next
}
/ change_port=/ {
	s = val($0, "size")
	chg[s] = val($0, "change_port")
	peer[s] = val($0, "peer")
	next
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
/ change=/ {
	w = val($0, "change")
	i = ++nc[k, w]
	cv[k, w, "cpu_s", i] = val($0, "cpu_s")
	cv[k, w, "faults", i] = val($0, "faults")
	cv[k, w, "sweeps", i] = val($0, "sweeps")
	trig[k, w, val($0, "trigger")]++
	guid[k, w, val($0, "port_guid")]++
	next
}
/ phases=/ {
	p = $0
	sub(/.*phases="/, "", p)
	sub(/"$/, "", p)
	# Raw files from before the port changes name no sweep.
	w = val($0, "sweep")
	phases[k, w == "" ? "nochange" : w] = p
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
# The median of the i-th figures a[k, 1..npr[k]].
function pmed(a, k,    i, v)
{
	for (i = 1; i <= npr[k]; i++)
		v[i] = a[k, i]
	return med(v, npr[k])
}

# The median ratio of k over the runs that started o first; "" if none.
function omed(k, o,    i, v)
{
	for (i = 1; i <= npo[k, o]; i++)
		v[i] = pro[k, o, i]
	return npo[k, o] ? med(v, npo[k, o]) : ""
}

function opct(r)
{
	return r == "" ? "-" : sprintf("%+.1f", (r - 1) * 100)
}

# Thread part t of k: plugin minus stock, ms a sweep, the mean of the
# medians of the two kinds of run (one kind only: its median); "" if none.
function tmed(k, t,    o, os, i, v, n, sum)
{
	split("stock plugin", os, " ")
	n = sum = 0
	for (o = 1; o <= 2; o++) {
		if (!npt[k, os[o]])
			continue
		for (i = 1; i <= npt[k, os[o]]; i++)
			v[i] = ptd[k, os[o], t, i]
		sum += med(v, npt[k, os[o]])
		n++
	}
	return n ? sum / n : ""
}

# "+1.23 (+0.1%)": ms of thread part t of k and its share of stock's
# median sweep.
function tcell(k, t,    d)
{
	d = tmed(k, t)
	if (d == "" || pmed(prs, k) <= 0)
		return "-"
	return sprintf("%+.2f (%+.2f%%)", d, d / (pmed(prs, k) * 10))
}

# The paired runs of k (size s, sweep w) by thread, where opensm's CPU
# differed: a row of the threads table; "" when there is none.
function thread_row(k, s, w,    m, v)
{
	if (!npts[k])
		return ""
	for (m = 1; m <= npts[k]; m++)
		v[m] = pts[k, m]
	return sprintf("%-10s %6s %-9s %9.1f %17s %17s %17s %17s\n",
		s, nodes[s], w, med(v, npts[k]), tcell(k, "sm"),
		tcell(k, "own"), tcell(k, "rest"), tcell(k, "all"))
}

# The lowest and highest ratio of k, "min..max".
function prange(k,    i, lo, hi)
{
	lo = hi = prr[k, 1]
	for (i = 2; i <= npr[k]; i++) {
		if (prr[k, i] + 0 < lo + 0)
			lo = prr[k, i]
		if (prr[k, i] + 0 > hi + 0)
			hi = prr[k, i]
	}
	return sprintf("%+.1f..%+.1f", (lo - 1) * 100, (hi - 1) * 100)
}

# Per size, the paired runs: median CPU of each SM over the same sweeps
# and the median of the per-sweep ratios; under them, by thread.
function paired_table(    i, j, s, k, w, ws, printed, rs, rp, r, threads)
{
	split("nochange down up", ws, " ")
	for (i = 0; i < n; i++) {
		s = order[i]
		for (j = 1; j <= 3; j++) {
			k = s SUBSEP ws[j]
			if (!npr[k])
				continue
			if (!printed++)
				printf "%-10s %6s %-9s %6s %9s %9s %8s %9s %9s %13s %11s %s\n",
					"paired", "nodes", "sweep", "sweeps",
					"stock_s", "osmqos_s", "ratio+%",
					"stock1st+%", "other1st+%", "range+%",
					"first s/p", "triggers differ"
			# Both places: the geometric mean of their
			# medians; one only: its median.
			rs = omed(k, "stock")
			rp = omed(k, "plugin")
			r = rs != "" && rp != "" ? sqrt(rs * rp) \
				: rs != "" ? rs : rp
			printf "%-10s %6s %-9s %6d %9.4f %9.4f %8s %9s %9s %13s %11s %d\n",
				s, nodes[s], ws[j], npr[k], pmed(prs, k),
				pmed(prp, k), opct(r), opct(rs), opct(rp),
				prange(k),
				(prf[k, "stock"] + 0) "/" (prf[k, "plugin"] + 0),
				prx[k]
			threads = threads thread_row(k, s, ws[j])
		}
	}
	if (threads != "")
		printf "%-10s %6s %-9s %9s %17s %17s %17s %17s\n%s",
			"threads", "nodes", "sweep", "stock_sm", "sm_ms",
			"osmqos_ms", "rest_ms", "all_ms", threads
}

END {
	printf "%-10s %6s %7s %-7s %7s %8s %10s %10s %9s %7s %8s %8s %8s %9s %10s %9s %7s %8s %8s %8s\n",
		"fabric", "nodes", "ports", "mode", "up_s", "cpu_up_s",
		"resweep_s", "portdown_s", "portup_s", "edit_s", "faults",
		"rss_MiB", "hwm_MiB", "resweep+%", "portdown+%", "portup+%",
		"edit+%", "faults+%", "rss+%", "hwm+%"
	for (i = 0; i < n; i++) {
		s = order[i]
		sk = s SUBSEP "stock"
		st = median(sk)
		sd = cmed(sk, "down", "cpu_s")
		su = cmed(sk, "up", "cpu_s")
		se = cmed(sk, "edit", "cpu_s")
		sf = fmed(sk)
		sr = dmed(sk, "rss_kb") / 1024
		sh = dmed(sk, "hwm_kb") / 1024
		for (j = 0; j < nm; j++) {
			mode = modes[j]
			k = s SUBSEP mode
			if (!nres[k])
				continue
			r = median(k)
			dn = cmed(k, "down", "cpu_s")
			up = cmed(k, "up", "cpu_s")
			ed = cmed(k, "edit", "cpu_s")
			fl = fmed(k)
			rss = dmed(k, "rss_kb") / 1024
			hwm = dmed(k, "hwm_kb") / 1024
			oh = ohd = ohu = ohe = ohf = ohr = ohh = "-"
			if (mode != "stock") {
				oh = pct(r, st)
				ohd = pct(dn, sd)
				ohu = pct(up, su)
				ohe = pct(ed, se)
				ohf = pct(fl, sf)
				ohr = pct(rss, sr)
				ohh = pct(hwm, sh)
			}
			printf "%-10s %6s %7s %-7s %7s %8s %10.3f %10s %9s %7s %8s %8.1f %8.1f %9s %10s %9s %7s %8s %8s %8s\n",
				s, nodes[s], linked[s], mode, dmed(k, "up_s"),
				dmed(k, "cpu_up_s"), r, s3(dn), s3(up), s3(ed), fl,
				rss, hwm, oh, ohd, ohu, ohe, ohf, ohr, ohh
		}
	}
	paired_table()
	for (i = 0; i < n; i++) {
		s = order[i]
		if (s in chg)
			printf "%-10s port changed: %s (to %s), down by ibsim Unlink, up by ReLink\n",
				s, chg[s], peer[s]
		for (j = 0; j < nm; j++) {
			mode = modes[j]
			k = s SUBSEP mode
			if (!nc[k, "down"] && !nc[k, "up"])
				continue
			printf "%-10s %-7s port down: %s run(s), %s SUBNET UP(s), %s faults (medians), trigger %s, port GUID %s\n",
				s, mode, nc[k, "down"], cmed(k, "down", "sweeps"),
				cmed(k, "down", "faults"), tally(trig, k, "down"),
				tally(guid, k, "down")
			printf "%-10s %-7s port up:   %s run(s), %s SUBNET UP(s), %s faults (medians), trigger %s, port GUID %s\n",
				s, mode, nc[k, "up"], cmed(k, "up", "sweeps"),
				cmed(k, "up", "faults"), tally(trig, k, "up"),
				tally(guid, k, "up")
		}
		for (j = 0; j < nm; j++) {
			mode = modes[j]
			k = s SUBSEP mode
			if (mode == "stock" || !nres[k])
				continue
			printf "%-10s %s published %s bytes (JSON %s), %s Prometheus series, written in %s ms; promtool: %s\n",
				s, mode, d[k, "published_bytes"],
				d[k, "json_bytes"], d[k, "series"],
				d[k, "publish_ms"], prom[k]
			printf "%-10s %s phases (last no-change sweep): %s\n", s,
				mode, phases[k, "nochange"]
			if ((k, "down") in phases)
				printf "%-10s %s phases (port-down sweep):      %s\n",
					s, mode, phases[k, "down"]
			if ((k, "up") in phases)
				printf "%-10s %s phases (port-up sweep):        %s\n",
					s, mode, phases[k, "up"]
			if ((k, "edit") in phases)
				printf "%-10s %s phases (policy-edit sweep):    %s\n",
					s, mode, phases[k, "edit"]
		}
	}
}
