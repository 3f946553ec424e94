# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# A three-level fat tree as an ibsim net file, for the scale benchmark:
#   awk -v P=PODS -v E=EDGES -v H=HOSTS -f gen-fattree3.awk
# P pods of E edge and E aggregation switches each, E x E core switches.
# Every edge switch links to every aggregation switch of its pod (ports
# H+1..H+E) and holds H HCAs (ports 1..H; the first is a storage node,
# "storN HCA-1", the others "cnN HCA-1", as gen-fattree names them);
# aggregation switch a of every pod links to cores a*E .. a*E+E-1.  All
# links 4x QDR, annotated on both ends as ibsim requires.
function link(a, ap, b, bp)
{
	printf "[%d]\t\"%s\"[%d]\t\t# lid 0 4xQDR\n", ap, b, bp
}

BEGIN {
	if (P < 1 || E < 1 || H < 1) {
		print "gen-fattree3.awk: set -v P=PODS -v E=EDGES -v H=HOSTS" > "/dev/stderr"
		exit 1
	}
	printf "# Three-level fat tree: %d pods of %d edge and %d aggregation switches,\n", P, E, E
	printf "# %d cores, %d HCAs per edge switch (%d nodes).  gen-fattree3.awk.\n\n",
		E * E, H, P * E * (H + 2) + E * E
	for (c = 0; c < E * E; c++) {
		printf "Switch\t%d \"core%04d\"\n", P, c + 1
		a = int(c / E)
		for (p = 0; p < P; p++)
			link("", p + 1, sprintf("agg%03d-%02d", p + 1, a + 1), E + c % E + 1)
		print ""
	}
	for (p = 0; p < P; p++)
		for (a = 0; a < E; a++) {
			printf "Switch\t%d \"agg%03d-%02d\"\n", 2 * E, p + 1, a + 1
			for (e = 0; e < E; e++)
				link("", e + 1, sprintf("edge%03d-%02d", p + 1, e + 1), H + a + 1)
			for (k = 0; k < E; k++)
				link("", E + k + 1, sprintf("core%04d", a * E + k + 1), p + 1)
			print ""
		}
	n = 0
	for (p = 0; p < P; p++)
		for (e = 0; e < E; e++) {
			printf "Switch\t%d \"edge%03d-%02d\"\n", H + E, p + 1, e + 1
			for (h = 0; h < H; h++) {
				host[p, e, h] = h == 0 ? sprintf("stor%d", p * E + e + 1) \
						       : sprintf("cn%d", ++n)
				link("", h + 1, host[p, e, h], 1)
			}
			for (a = 0; a < E; a++)
				link("", H + a + 1, sprintf("agg%03d-%02d", p + 1, a + 1), e + 1)
			print ""
		}
	for (p = 0; p < P; p++)
		for (e = 0; e < E; e++)
			for (h = 0; h < H; h++) {
				printf "Hca\t1 \"%s\"\t# \"%s HCA-1\"\n", host[p, e, h], host[p, e, h]
				link("", 1, sprintf("edge%03d-%02d", p + 1, e + 1), h + 1)
				print ""
			}
}
