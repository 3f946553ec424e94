# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# (bash; sourced by tests/stress/reload.sh.)
# Seeded generator of policy edits for the reload torture test: a policy
# built from a handful of parameters (VLArb weights, SL2VL rows, SLs of
# levels, optional extra rules, group members) that valid edits mutate, and
# producers of broken files (syntax errors, truncation, binary junk, 100 MB
# files, special files).  All randomness comes from bash's $RANDOM, seeded
# once by the caller, and every draw happens in the calling shell (never in
# a $(...) subshell) so a seed replays the same edits.

# rnd N: REPLY = a number in 0..N-1 (N <= 2^30).
rnd() {
	REPLY=$((((RANDOM << 15) | RANDOM) % $1))
}

# pick WORD...: REPLY = one of the words.
pick() {
	local a=("$@")

	rnd ${#a[@]}
	REPLY=${a[$REPLY]}
}

# gen_vlarb: REPLY = "vl:w, vl:w" with 1..4 distinct VLs of 0..7.
gen_vlarb() {
	local n vl w used=() out=

	rnd 4
	n=$((REPLY + 1))
	while ((n > 0)); do
		rnd 8
		vl=$REPLY
		[ -n "${used[$vl]:-}" ] && continue
		used[$vl]=1
		rnd 256
		w=$REPLY
		out="${out:+$out, }$vl:$w"
		n=$((n - 1))
	done
	REPLY=$out
}

# gen_sl2vl: REPLY = 16 VLs of 0..7.
gen_sl2vl() {
	local i out=

	for ((i = 0; i < 16; i++)); do
		rnd 8
		out="${out:+$out,}$REPLY"
	done
	REPLY=$out
}

# gen_members: REPLY = 1..4 of cn01..cn04 as quoted port names.
gen_members() {
	local i out=

	rnd 15
	for ((i = 0; i < 4; i++)); do
		(((REPLY + 1) >> i & 1)) || continue
		out="${out:+$out, }cn0$((i + 1)) HCA-1/P1"
	done
	REPLY=$out
}

# The parameters of the current policy (the starting values are those of
# tests/e2e/data/program-policy.conf plus a 'bulk' level).
gen_reset() {
	P_ST_HIGH="0:255, 1:32"
	P_ST_LOW="2:64, 3:32, 4:16"
	P_ST_HLIM=10
	P_SW_HIGH="0:64"
	P_SW_LOW="1:32, 2:32, 3:32"
	P_SW_HLIM=4
	P_CA_MEMBERS="cn01 HCA-1/P1, cn02 HCA-1/P1, cn03 HCA-1/P1"
	P_CA_SL2VL="0,1,2,3,4,5,6,7,7,7,7,7,7,7,7,7"
	P_SW_SL2VL="0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7"
	P_SL_DEFAULT=0
	P_SL_STORAGE=1
	P_SL_BULK=2
	P_RULE_SID=0   # service-id 0x1000-0x1fff -> bulk
	P_RULE_CA=0    # compute-a -> storage at DEFAULT's level
}

# gen_mutate: change 1..3 parameters (a valid edit).  GEN_WHAT says which.
gen_mutate() {
	local n

	rnd 3
	n=$((REPLY + 1))
	GEN_WHAT=
	while ((n-- > 0)); do
		pick st_high st_low st_hlim sw_high sw_low sw_hlim members \
			ca_sl2vl sw_sl2vl sl_default sl_storage sl_bulk \
			rule_sid rule_ca
		GEN_WHAT="${GEN_WHAT:+$GEN_WHAT,}$REPLY"
		case $REPLY in
		st_high) gen_vlarb; P_ST_HIGH=$REPLY ;;
		st_low) gen_vlarb; P_ST_LOW=$REPLY ;;
		st_hlim) rnd 256; P_ST_HLIM=$REPLY ;;
		sw_high) gen_vlarb; P_SW_HIGH=$REPLY ;;
		sw_low) gen_vlarb; P_SW_LOW=$REPLY ;;
		sw_hlim) rnd 256; P_SW_HLIM=$REPLY ;;
		members) gen_members; P_CA_MEMBERS=$REPLY ;;
		ca_sl2vl) gen_sl2vl; P_CA_SL2VL=$REPLY ;;
		sw_sl2vl) gen_sl2vl; P_SW_SL2VL=$REPLY ;;
		sl_default) rnd 16; P_SL_DEFAULT=$REPLY ;;
		sl_storage) rnd 16; P_SL_STORAGE=$REPLY ;;
		sl_bulk) rnd 16; P_SL_BULK=$REPLY ;;
		rule_sid) P_RULE_SID=$((!P_RULE_SID)) ;;
		rule_ca) P_RULE_CA=$((!P_RULE_CA)) ;;
		esac
	done
}

# gen_policy: the policy text of the current parameters, on stdout.
gen_policy() {
	cat <<EOF
# reload torture test policy (tests/stress/reload.sh), edit $REL_EDIT
port-groups
    port-group
        name: storage
        port-name: stor1 HCA-1/P1, stor2 HCA-1/P1
        port-name: stor3 HCA-1/P1, stor4 HCA-1/P1
    end-port-group
    port-group
        name: compute-a
        port-name: $P_CA_MEMBERS
    end-port-group
    port-group
        name: switches
        node-type: SWITCH
    end-port-group
    port-group
        name: hosts
        node-type: CA
    end-port-group
end-port-groups

qos-setup
    vlarb-tables
        vlarb-scope
            across: storage
            vlarb-high: $P_ST_HIGH
            vlarb-low: $P_ST_LOW
            vl-high-limit: $P_ST_HLIM
        end-vlarb-scope
        vlarb-scope
            group: switches
            group: hosts
            vlarb-high: $P_SW_HIGH
            vlarb-low: $P_SW_LOW
            vl-high-limit: $P_SW_HLIM
        end-vlarb-scope
    end-vlarb-tables
    sl2vl-tables
        sl2vl-scope
            group: compute-a
            sl2vl-table: $P_CA_SL2VL
        end-sl2vl-scope
        sl2vl-scope
            group: switches
            from: *
            to: *
            sl2vl-table: $P_SW_SL2VL
        end-sl2vl-scope
    end-sl2vl-tables
end-qos-setup

qos-levels
    qos-level
        name: DEFAULT
        sl: $P_SL_DEFAULT
    end-qos-level
    qos-level
        name: storage
        sl: $P_SL_STORAGE
    end-qos-level
    qos-level
        name: bulk
        sl: $P_SL_BULK
    end-qos-level
end-qos-levels

qos-match-rules
EOF
	if ((P_RULE_SID)); then
		cat <<EOF
    qos-match-rule
        service-id: 0x1000-0x1fff
        qos-level-name: bulk
    end-qos-match-rule
EOF
	fi
	if ((P_RULE_CA)); then
		cat <<EOF
    qos-match-rule
        source: compute-a
        destination: storage
        qos-level-name: DEFAULT
    end-qos-match-rule
EOF
	fi
	cat <<EOF
    qos-match-rule
        destination: storage
        qos-level-name: storage
    end-qos-match-rule
end-qos-match-rules
EOF
}

# gen_syntax_error IN OUT: a copy of the valid policy IN with one error
# the parser or validator must catch.  GEN_WHAT says which.
gen_syntax_error() {
	local in=$1 out=$2 lines line

	lines=$(wc -l <"$in")
	rnd "$lines"
	line=$((REPLY + 1))
	pick sl-range weight-range hlim-range sl2vl-range keyword \
		unclosed junk-line no-level dup-level
	GEN_WHAT=$REPLY
	case $GEN_WHAT in
	sl-range) sed 's/^\( *sl: \)[0-9]*$/\116/' "$in" ;;
	weight-range) sed 's/\(vlarb-low: [0-9]*:\)[0-9]*/\1256/' "$in" ;;
	hlim-range) sed 's/vl-high-limit: [0-9]*/vl-high-limit: 300/' "$in" ;;
	sl2vl-range) sed 's/\(sl2vl-table: [0-9]*,\)[0-9]*/\116/' "$in" ;;
	keyword)
		# Misspell the first keyword at or after a random line.
		awk -v l="$line" 'NR >= l && !done && /^ *[a-z-]+/ {
			sub(/[a-z]-?[a-z]/, "&x"); done = 1 } 1' "$in" ;;
	unclosed)
		awk -v l="$line" 'NR >= l && !done && /^ *end-/ {
			done = 1; next } 1' "$in" ;;
	junk-line)
		awk -v l="$line" 'NR == l { print "    %% not a policy line ~" } 1' "$in" ;;
	no-level) sed 's/qos-level-name: storage/qos-level-name: nosuch/' "$in" ;;
	dup-level) sed 's/name: bulk/name: storage/' "$in" ;;
	esac >"$out"
}

# gen_truncate IN OUT: IN cut at a random byte (0 = empty file).
gen_truncate() {
	local size

	size=$(stat -c %s "$1")
	rnd "$size"
	GEN_WHAT="cut at byte $REPLY of $size"
	head -c "$REPLY" "$1" >"$2"
}

# gen_bytes N SEED: N pseudo-random bytes, reproducible from SEED.
gen_bytes() {
	openssl enc -aes-128-ctr -nosalt -pass "pass:osmqos-reload-$2" \
		-pbkdf2 -iter 1 </dev/zero 2>/dev/null | head -c "$1"
}

# gen_junk IN OUT: binary junk, alone or spliced into the valid IN.
gen_junk() {
	local n at size

	rnd 65536
	n=$((REPLY + 1))
	rnd 1000000
	local seed=$REPLY
	rnd 2
	if ((REPLY)); then
		GEN_WHAT="$n junk bytes"
		gen_bytes "$n" "$seed" >"$2"
	else
		size=$(stat -c %s "$1")
		rnd "$size"
		at=$REPLY
		rnd 64
		n=$((REPLY + 1))
		GEN_WHAT="$n junk bytes spliced at byte $at"
		{
			head -c "$at" "$1"
			gen_bytes "$n" "$seed"
			tail -c +"$((at + 1))" "$1"
		} >"$2"
	fi
}

# gen_big IN OUT: a 100 MB file: junk, or the valid IN padded with
# comment lines (valid to a parser without a size cap).
gen_big() {
	local bytes=$((100 * 1000 * 1000))

	rnd 2
	if ((REPLY)); then
		rnd 1000000
		GEN_WHAT="100 MB junk"
		gen_bytes "$bytes" "$REPLY" >"$2"
	else
		GEN_WHAT="valid policy + 100 MB of comments"
		{
			cat "$1"
			yes '# padding padding padding padding padding padding' |
				head -c "$bytes"
			echo
		} >"$2"
	fi
}
