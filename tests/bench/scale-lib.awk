# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# What scale-table.awk and scale-svg.awk share: reading the scale
# benchmark's raw "size=S mode=M key=value ..." lines and the median of a
# mode's resweeps (res[k, 1..nres[k]], k = size SUBSEP mode).  Load first:
#   awk -f scale-lib.awk -f scale-table.awk RAW

# The value of key in line, "" when absent.
function val(line, key,    n, f, i, p)
{
	n = split(line, f, " ")
	for (i = 1; i <= n; i++) {
		p = index(f[i], "=")
		if (p && substr(f[i], 1, p - 1) == key)
			return substr(f[i], p + 1)
	}
	return ""
}

# Median (the lower one of an even count) of the resweep CPU figures of
# key k.
function median(k,    i, j, t, m, v)
{
	m = nres[k]
	for (i = 1; i <= m; i++)
		v[i] = res[k, i]
	return med(v, m)
}

# Median (the lower one of an even count) of v[1..m], numerically.
function med(v, m,    i, j, t)
{
	for (i = 2; i <= m; i++)
		for (j = i; j > 1 && v[j] + 0 < v[j - 1] + 0; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	return m ? v[int((m + 1) / 2)] : 0
}
