# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The SA storm table (tests/bench/sa-storm.sh): one row per rule count and
# mode from the raw "key=value ..." lines, one line per measured storm.
# With several storms per mode (STORM_REPEAT) a row shows the run with the
# median opensm CPU per query, and the lowest and highest of all its runs,
# so the spread a shared machine causes is in plain sight.  x_floor is the
# median CPU per query over the floor's (ClassPortInfo) at the same rule
# count, x_stock over stock's on the same workload (a mode "M:all" is the
# "all" workload's, against "stock:all").  Modes are shown in the order
# they first ran.

function val(line, key,    n, f, i, kv)
{
	n = split(line, f, " ")
	for (i = 1; i <= n; i++) {
		split(f[i], kv, "=")
		if (kv[1] == key)
			return kv[2]
	}
	return ""
}

# The cpu figure of run line l: us/query from the threads' on-CPU
# nanoseconds (schedstat), or from the tick counts when those are
# missing.  A storm is about half a second, so ticks (10 ms) would give
# the ratios a 2% grain; schedstat is exact.
function perq(l)
{
	if (val(l, "opensm_ns") > 0)
		return val(l, "opensm_ns") / 1e3 / val(l, "queries")
	return val(l, "opensm_ticks") / val(l, "clk_tck") * 1e6 / val(l, "queries")
}

# The same from the tick counts (utime + stime), the cross-check.
function perq_ticks(l)
{
	return val(l, "opensm_ticks") / val(l, "clk_tck") * 1e6 / val(l, "queries")
}

/^rules=.* kind=/ {
	k = val($0, "rules") SUBSEP val($0, "kind")
	runs[k, ++nrun[k]] = $0
	if (!(val($0, "rules") in seen)) {
		seen[val($0, "rules")] = 1
		order[n++] = val($0, "rules")
	}
	if (!(val($0, "kind") in kseen)) {
		kseen[val($0, "kind")] = 1
		kinds[nk++] = val($0, "kind")
	}
	next
}
/_counters=/ { note = note "# " $0 "\n" }

# Index of the median run of key k (the lower one of an even count).
function median(k,    i, j, t, idx, m)
{
	m = nrun[k]
	for (i = 1; i <= m; i++)
		idx[i] = i
	for (i = 2; i <= m; i++)
		for (j = i; j > 1 && perq(runs[k, idx[j]]) < perq(runs[k, idx[j - 1]]); j--) {
			t = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = t
		}
	lo[k] = perq(runs[k, idx[1]])
	hi[k] = perq(runs[k, idx[m]])
	return idx[int((m + 1) / 2)]
}

END {
	printf "%-6s %-12s %4s %7s %9s %15s %8s %8s %10s %7s %9s %8s %10s %6s\n",
	       "rules", "mode", "runs", "CPU_s", "us_CPU/q", "(min-max)",
	       "x_floor", "x_stock", "ticks_us/q", "wall_s", "answers/s",
	       "p99_us", "ibsim_us/q", "steal"
	for (i = 0; i < n; i++) {
		r = order[i]
		fk = r SUBSEP "floor"
		f = (fk in nrun) ? perq(runs[fk, median(fk)]) : 0
		# The plugin against the floor of its own opensm (pfloor), stock
		# against stock's: like with like, each process's transport.
		pk = r SUBSEP "pfloor"
		pf = (pk in nrun) ? perq(runs[pk, median(pk)]) : f
		for (j = 0; j < nk; j++) {
			k = r SUBSEP kinds[j]
			ref = kinds[j] ~ /^p/ ? pf : f
			if (!(k in nrun))
				continue
			w = kinds[j]
			sub(/^[^:]*/, "stock", w)
			sk = r SUBSEP w
			st = (sk in nrun) ? perq(runs[sk, median(sk)]) : 0
			l = runs[k, median(k)]
			q = val(l, "queries")
			printf "%-6s %-12s %4d %7.2f %9.2f %15s %8s %8s %10.2f %7.2f %9d %8.1f %10.2f %6d\n",
			       r, kinds[j], nrun[k],
			       val(l, "opensm_ns") / 1e9, perq(l),
			       sprintf("(%.2f-%.2f)", lo[k], hi[k]),
			       (ref > 0 ? sprintf("%.3f", perq(l) / ref) : "n/a"),
			       (st > 0 ? sprintf("%.3f", perq(l) / st) : "n/a"),
			       perq_ticks(l), val(l, "wall_s"),
			       val(l, "answers_per_s"), val(l, "p99_us"),
			       val(l, "ibsim_ticks") / val(l, "clk_tck") * 1e6 / q,
			       val(l, "steal_ticks")
		}
	}
	printf "%s", note
}
