#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# sa-corpus.sh IBNETDISCOVER_FILE [reduced|full]: a deterministic corpus of
# `osmqos query` argument lines (one query a line) for the SA differential
# test (tests/e2e/sa-diff.sh), built from the fabric's LIDs and port GUIDs.
#
# Each query names one source and one destination (by LID, by GID, or as a
# 1x1 MultiPathRecord), so that the answer fits in one MAD (umad2sim has
# no RMPP): at most 2 records.  The constraint sets ("variants") cover
# ServiceIDs (SDP, RDS, iSER, SRP-range and policy ones), QoS classes,
# P_Keys (0x7fff, 0xffff, absent ones), SLs, MTU/rate/lifetime selectors,
# NumbPath, Reversible, Get against GetTable, and some combinations.
#
# reduced: each variant in each form on a few pairs picked in rotation;
# full: each variant in each form on every pair.  No randomness.
set -e
ibnd=$1
mode=${2:-reduced}
[ -r "$ibnd" ] || {
	echo "usage: sa-corpus.sh IBNETDISCOVER_FILE [reduced|full]" >&2
	exit 2
}

# Constraint sets.  'G' in the first column: Get/GetTable only (no MPR).
variants() {
	cat <<'EOF'
-
G --get
- --reversible
- --numb-path 1
- --numb-path 2
G --get --numb-path 1
- --reversible --numb-path 1
- --sid 0x0000000000011389
- --sid 0x0000000000017530
- --sid 0x0000000000013a98
- --sid 0x0000000000010000
- --sid 0x00000000010648ca
- --sid 0x0000000001060cbc
- --sid 0x0000000001060384
- --sid 0x1000000000000005
- --sid 0x1000000000000010
- --sid 0x0000000000006234
- --sid 0x0000000000001234
- --sid 0x0000000000010001
- --sid 0x0000000000000001
- --sid 0x0000000000001000 --qos-class 7
- --sid 0x00000000010648ca --sl 3
- --sid 0x0000000000011389 --pkey 0xffff
- --qos-class 7
- --qos-class 11
- --qos-class 3
- --qos-class 4
- --qos-class 1
- --qos-class 3 --pkey 0x7fff
- --pkey 0xffff
- --pkey 0x7fff
- --pkey 0x1234
- --pkey 0x0abc
- --pkey 0x0001
- --pkey 0x0000
- --pkey 0x8000
- --sl 0
- --sl 1
- --sl 3
- --sl 15
- --sl 2 --qos-class 7
- --mtu <4
- --mtu >4
- --mtu =4
- --mtu =2
- --mtu >1
- --mtu 2
- --rate =7
- --rate <7
- --rate >3
- --rate =3
- --rate =12
- --rate <16
- --pkt-life <19
- --pkt-life >0
- --pkt-life =18
- --pkt-life =16
- --hop-limit 0
- --tclass 0
- --flow-label 0
- --raw-traffic
G --get --sid 0x00000000010648ca --reversible
- --pkey 0xffff --sl 0 --reversible --numb-path 1
- --sid 0x0000000001060cbc --mtu <5 --rate >2
EOF
}

# "lid guid" per port: switches' port 0 and every CA port, by LID.
ports() {
	awk '
		/^switchguid=/ {
			if (match($0, /\([0-9a-f]+\)/))
				sw = substr($0, RSTART + 1, RLENGTH - 2)
			next
		}
		/^Switch/ && match($0, /base port 0 lid [0-9]+/) {
			split(substr($0, RSTART, RLENGTH), f, " ")
			print f[5], sw, "S", 0
			next
		}
		/^\[[0-9]+\]\([0-9a-f]+\)/ && match($0, /# lid [0-9]+ lmc [0-9]+/) {
			split(substr($0, RSTART, RLENGTH), f, " ")
			match($0, /\([0-9a-f]+\)/)
			print f[3], substr($0, RSTART + 1, RLENGTH - 2), "C", f[5]
		}' "$ibnd" | sort -n -k1,1 -u
}

ports >"${TMPDIR:-/tmp}/sa-corpus.$$"
trap 'rm -f "${TMPDIR:-/tmp}/sa-corpus.$$"' EXIT
variants | awk -v mode="$mode" -v portsf="${TMPDIR:-/tmp}/sa-corpus.$$" '
	function grp(s) {
		sub(/^0+/, "", s)
		return s == "" ? "0" : s
	}
	# fe80::<port GUID> with each 16-bit group written without zeros
	# in front (plain awk: no strtonum).
	function gid(g,   h) {
		h = substr("0000000000000000" g, length(g) + 1)
		return "fe80::" grp(substr(h, 1, 4)) ":" grp(substr(h, 5, 4)) \
			":" grp(substr(h, 9, 4)) ":" grp(substr(h, 13, 4))
	}
	BEGIN {
		nca = nsw = np = 0
		while ((getline line < portsf) > 0) {
			split(line, f, " ")
			if (f[3] == "C") {
				ca[nca] = f[1]; cag[nca] = f[2]; lmc[nca] = f[4]
				nca++
			} else {
				sw[nsw] = f[1]; swg[nsw] = f[2]; nsw++
			}
		}
		if (nca < 2) {
			print "sa-corpus: fewer than 2 CA ports found" > "/dev/stderr"
			exit 2
		}
		# Pairs: each CA to a CA five places on, a CA to itself, and
		# pairs with switch port 0 on either side.  With LMC > 0 the
		# LID forms also use the last LID of the destination range.
		for (i = 0; i < nca; i++) {
			j = (i * 5 + 3) % nca
			if (j == i)
				j = (i + 1) % nca
			sl[np] = ca[i]; dl[np] = ca[j]
			sg[np] = cag[i]; dg[np] = cag[j]
			dl2[np] = ca[j] + (2 ^ lmc[j]) - 1
			multi[np] = lmc[i] + lmc[j]
			np++
		}
		sl[np] = ca[0]; dl[np] = ca[0]; sg[np] = cag[0]; dg[np] = cag[0]
		dl2[np] = ca[0]; multi[np] = lmc[0]; np++
		for (k = 0; k < nsw && k < 2; k++) {
			i = (k * 3 + 1) % nca
			sl[np] = sw[k]; dl[np] = ca[i]; sg[np] = swg[k]; dg[np] = cag[i]
			dl2[np] = ca[i] + (2 ^ lmc[i]) - 1; multi[np] = lmc[i]; np++
			sl[np] = ca[i]; dl[np] = sw[k]; sg[np] = cag[i]; dg[np] = swg[k]
			dl2[np] = sw[k]; multi[np] = lmc[i]; np++
		}
	}
	function emit(form, p, opts,   d) {
		# With LMC > 0 a GID pair has several LID pairs, one record
		# each: NumbPath keeps the answer to 2 records (one MAD).
		if (form > 0 && multi[p] > 0 && opts !~ /--numb-path/)
			opts = opts " --numb-path 2"
		if (form == 0) {
			# Alternate the base LID and the top LID of an LMC range.
			d = (p % 2) ? dl2[p] : dl[p]
			printf "--slid %d --dlid %d%s\n", sl[p], d, opts
		} else if (form == 1) {
			printf "--sgid %s --dgid %s%s\n", gid(sg[p]), gid(dg[p]), opts
		} else {
			printf "--mpr --sgids 0x%s --dgids %s%s\n", sg[p],
				gid(dg[p]), opts
		}
	}
	{
		kind = $1
		opts = substr($0, length(kind) + 1)
		for (form = 0; form < 3; form++) {
			if (form == 2 && kind == "G")
				continue
			if (mode == "full") {
				for (p = 0; p < np; p++)
					emit(form, p, opts)
			} else {
				for (k = 0; k < 2; k++)
					emit(form, (NR * 3 + form * 5 + k * 7) % np, opts)
			}
		}
	}
	# Fixed extras on the first CAs: malformed requests (each must get
	# the status OpenSM gives), delegated ones (multicast, off subnet) and
	# MultiPathRecord APM (2x2, NumbPath 2) and GID-list cases.
	END {
		if (nca < 4)
			exit
		a = ca[0]; b = ca[1]
		A = gid(cag[0]); B = gid(cag[1]); C = gid(cag[2]); D = gid(cag[3])
		t = "--slid " a " --dlid " b
		print t " --comp-mask 0x31"
		print t " --comp-mask 0x32"
		# Wildcards, as Get (one record: the first in OpenSM order).
		print t " --get --comp-mask 0x0"
		print t " --get --comp-mask 0x20"
		print t " --get --comp-mask 0x10"
		print t " --mtu =7"
		print t " --mtu 7"
		print t " --mtu <1"
		print t " --rate =1"
		print t " --rate =23"
		# 800 and 1200 Gb/s: invalid to OpenSM 3.3.23, rates to 3.3.24.
		print t " --rate <23"
		print t " --rate >23"
		print t " --rate <24"
		print t " --rate =24"
		print t " --rate <25"
		print t " --rate <2"
		print t " --pkt-life <1"
		print t " --method 0x02"
		print t " --method 0x14"
		print "--slid " a " --dlid 60000"
		print "--sgid fe80::dead:beef --dgid " B
		print "--sgid " A " --slid " b " --dgid " B
		print "--sgid " A " --dgid " B " --dlid " a
		print "--sgid fec0::" substr(A, 7) " --dgid " B
		print "--slid " a " --dgid ff12:401b::1"
		print "--slid " a " --dgid fec0::" substr(B, 7)
		m = "--mpr --sgids " A " --dgids " B
		print m " --comp-mask 0x80000"
		print m " --comp-mask 0x100000"
		print m " --gid-counts 200,200"
		print m " --gid-counts 1,0"
		print m " --gid-counts 0,1"
		print m " --gid-counts 1,1 --method 0x12"
		print m " --comp-mask 0x190000"
		print "--mpr --sgids ff02::1 --dgids " B
		print "--mpr --sgids fe80::dead:beef --dgids " B
		print "--mpr --sgids " A " --dgids fec0::" substr(B, 7)
		print m "," C " --numb-path 1"
		print "--mpr --sgids " A "," C " --dgids " B "," D " --numb-path 2"
		print "--mpr --sgids " C "," A " --dgids " D "," B " --numb-path 2"
		print "--mpr --sgids " A "," C " --dgids " B "," D " --numb-path 2 --reversible"
		print "--mpr --sgids " A "," B " --dgids " C "," D " --numb-path 2 --sid 0x0000000000011389"
		print m " --rate <24"
		print m " --rate =23"
		print "--mpr --sgids " A "," C " --dgids " B " --numb-path 2"
	}'
