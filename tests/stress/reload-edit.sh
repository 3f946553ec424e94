# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# (bash; sourced by tests/stress/reload.sh after its helpers.)
# One edit of the policy path, what the plugin must make of it, and the
# per-sweep checks of the reload torture test.

# choose_kind: KIND for edit REL_EDIT, drawn by weight or, with
# REL_ORDER=cycle, valid and each other kind in turn.
choose_kind() {
	local k total=0 others=()

	for k in "${KINDS[@]}"; do
		total=$((total + ${WEIGHT[$k]:-1}))
		[ "$k" = valid ] || others+=("$k")
	done
	if [ "$REL_ORDER" = cycle ] && ((${#others[@]})); then
		if ((REL_EDIT % 2)) && [[ " ${KINDS[*]} " == *" valid "* ]]; then
			KIND=valid
		else
			KIND=${others[(REL_EDIT / 2) % ${#others[@]}]}
		fi
		return
	fi
	rnd "$total"
	for k in "${KINDS[@]}"; do
		REPLY=$((REPLY - ${WEIGHT[$k]:-1}))
		if ((REPLY < 0)); then
			KIND=$k
			return
		fi
	done
}

# restore_path: a plain file again where the last edit left a link, a
# directory or a mode 000 file (never a sweep in between).
restore_path() {
	if [ -L "$pol" ] || [ -d "$pol" ]; then
		rm -rf -- "$pol"
	elif [ -f "$pol" ]; then
		chmod 644 "$pol"
	fi
}

# put_content: the candidate in place, written over the old file (as an
# editor saving in place does) or renamed over it (as an atomic save).
put_content() {
	rnd 2
	if ((REPLY)) && [ -f "$pol" ] && [ ! -L "$pol" ]; then
		cat "$cand" >"$pol"
		rm -f "$cand" # no 100 MB left behind in kept artifacts
	else
		mv -f "$cand" "$pol"
	fi
}

# The parameters of the good policy, around an invalid edit's draw.
GEN_VARS="P_ST_HIGH P_ST_LOW P_ST_HLIM P_SW_HIGH P_SW_LOW P_SW_HLIM
	P_CA_MEMBERS P_CA_SL2VL P_SW_SL2VL P_SL_DEFAULT P_SL_STORAGE P_SL_BULK
	P_RULE_SID P_RULE_CA"
gen_save() {
	local v

	for v in $GEN_VARS; do
		eval "SAVED_$v=\$$v"
	done
}
gen_restore() {
	local v

	for v in $GEN_VARS; do
		eval "$v=\$SAVED_$v"
	done
}

# make_edit: apply an edit of kind KIND; sets EXPECT (valid|invalid),
# SIG (what the plugin sees: content hash or read failure), READFAIL (the
# strerror text a read failure must log, empty for parse failures).
make_edit() {
	local what

	restore_path
	GEN_WHAT=
	READFAIL=
	gen_save
	case $KIND in
	valid)
		gen_mutate
		gen_policy >"$cand"
		put_content
		;;
	syntax | truncate | junk | big | unreadable)
		gen_mutate
		what=$GEN_WHAT
		gen_policy >"$base"
		gen_restore
		case $KIND in
		syntax) gen_syntax_error "$base" "$cand" ;;
		truncate) gen_truncate "$base" "$cand" ;;
		junk) gen_junk "$base" "$cand" ;;
		big) gen_big "$base" "$cand" ;;
		unreadable)
			cp "$base" "$cand"
			GEN_WHAT="valid policy ($what), mode 000"
			;;
		esac
		put_content
		[ "$KIND" = unreadable ] && chmod 000 "$pol"
		;;
	removed)
		rm -f -- "$pol"
		GEN_WHAT="file removed"
		;;
	zero)
		rm -f -- "$pol"
		ln -s /dev/zero "$pol"
		GEN_WHAT="symlink to /dev/zero"
		;;
	fifo)
		rm -f -- "$pol"
		[ -p "$fifo" ] || mkfifo "$fifo"
		ln -s "$fifo" "$pol"
		GEN_WHAT="symlink to a FIFO"
		;;
	dir)
		rm -f -- "$pol"
		mkdir "$pol"
		GEN_WHAT="a directory"
		;;
	esac
	case $KIND in
	valid | syntax | truncate | junk)
		SIG=content:$(sha1sum <"$pol" | cut -c1-40)
		if e2e_osmqos check "$pol" >/dev/null 2>&1; then
			EXPECT=valid
		else
			EXPECT=invalid
		fi
		# A valid draw that osmqos check refuses is the generator's
		# fault: note it, and do not build on it.
		if [ "$KIND" = valid ] && [ "$EXPECT" = invalid ]; then
			e2e_log "note: generated policy rejected by osmqos check ($GEN_WHAT)"
			gen_restore
		fi
		;;
	big) EXPECT=invalid READFAIL="larger than the 16 MiB limit" SIG=read:big ;;
	unreadable) EXPECT=invalid READFAIL="Permission denied" SIG=read:eacces ;;
	removed) EXPECT=invalid READFAIL="No such file" SIG=read:enoent ;;
	zero | fifo | dir) EXPECT=invalid READFAIL="not a regular file" SIG=read:$KIND ;;
	esac
}

# log_says LINE TEXT: a line with LINE since the sweep began also says TEXT.
log_says() {
	tail -n +"$((MARK + 1))" "$E2E_OSM_LOG" | grep -aF -- "$1" |
		grep -aqF -- "$2"
}

# The plugin's log lines about the file since the sweep began.
log_counts() {
	LOADED=$(new_log "osmqos: policy $pol loaded:")
	REJECTED=$(new_log "osmqos: policy $pol rejected")
	CANNOT=$(new_log "osmqos: cannot read policy $pol:")
}

check_valid() {
	local changed msg

	log_counts
	check "valid policy logged as loaded once (got $LOADED)" \
		test "$LOADED" -eq 1
	msg="valid policy: errors logged (rejected $REJECTED,"
	check "$msg cannot read $CANNOT)" test $((REJECTED + CANNOT)) -eq 0
	check "policy in force after a valid edit" test "$IN_FORCE" -eq 1
	cp "$pol" "$good"
	cp "$E2E_DIR/expect.json.lines" "$E2E_DIR/prev.lines"
	predict "$E2E_DIR/expect.json"
	changed=$(diff "$E2E_DIR/prev.lines" "$E2E_DIR/expect.json.lines" |
		grep -c '^>')
	check "QoS Sets ($SETS) = changed blocks ($changed)" \
		test "${SETS:-x}" = "$changed"
	check_fabric new
	PREV_SIG=$SIG
	PREV_KIND=$KIND
	GOOD_SIG=$SIG
}

check_invalid() {
	local want=0 diag msg

	[ "$SIG" != "$PREV_SIG" ] && want=1
	log_counts
	check "invalid edit took effect (policy loaded logged)" \
		test "$LOADED" -eq 0
	check "invalid edit sent $SETS QoS Sets" test "${SETS:-x}" = 0
	check "no policy in force after an invalid edit" test "$IN_FORCE" -eq 1
	if [ -n "$READFAIL" ]; then
		# The plugin reports one read failure per run of them.
		local tag=
		[[ $PREV_SIG == read:* ]] && tag=read-fail-unlogged
		msg="read failure logged $CANNOT times, want $want"
		msg+=" (rejected $REJECTED; previous edit: $PREV_KIND)"
		TAG=$tag check "$msg" test "$CANNOT" -eq "$want" -a "$REJECTED" -eq 0
		if ((want && CANNOT)); then
			check "read failure message lacks '$READFAIL'" \
				log_says "osmqos: cannot read policy $pol:" \
				"$READFAIL"
		fi
	else
		check "rejection logged $REJECTED times, want $want (cannot read $CANNOT)" \
			test "$REJECTED" -eq "$want" -a "$CANNOT" -eq 0
		if ((want)); then
			diag=$(tail -n +"$((MARK + 1))" "$E2E_OSM_LOG" |
				grep -aF "osmqos: $pol:" |
				grep -aEc ':[0-9]+:[0-9]+: error: ')
			check "no FILE:LINE:COL error line for the parse failure" \
				test "$diag" -gt 0
		fi
	fi
	msg="the plugin copied control bytes from the file into the log"
	TAG=log-ctl-bytes check "$msg" log_clean
	check_fabric
	PREV_SIG=$SIG
	PREV_KIND=$KIND
}

# log_clean: the plugin's lines since the sweep began hold no control bytes
# (junk from the file must reach the log escaped, not as raw bytes that a
# terminal or a log parser would act on).
log_clean() {
	! tail -n +"$((MARK + 1))" "$E2E_OSM_LOG" | grep -aF "osmqos:" |
		LC_ALL=C grep -aqP '[\x00-\x08\x0b-\x1f\x7f]'
}

# check_repeat: the second sweep over the same bad file.
check_repeat() {
	local msg

	log_counts
	msg="unchanged bad file logged again (rejected $REJECTED,"
	check "$msg cannot read $CANNOT)" test $((REJECTED + CANNOT)) -eq 0
	check "unchanged bad file: loaded $LOADED times" test "$LOADED" -eq 0
	check "unchanged bad file: $SETS QoS Sets" test "${SETS:-x}" = 0
	check "no policy in force on the repeat sweep" test "$IN_FORCE" -eq 1
}

print_figures() {
	local k v=0 i=0 per= med

	for k in "${!N_KIND[@]}"; do
		v=$((v + ${N_VALID[$k]:-0}))
		i=$((i + ${N_INVALID[$k]:-0}))
		per="$per $k=${N_KIND[$k]}(${N_VALID[$k]:-0} valid)"
	done
	med=$(tr ' ' '\n' <<<"$SWEEP_MS_ALL" | grep . | sort -n |
		awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	e2e_log "figures: seed $REL_SEED; $((v + i)) edits: $v valid, $i invalid"
	e2e_log "figures: by kind:$per"
	e2e_log "figures: $SWEEPS sweeps in $((T_END - T_START)) s;" \
		"checks: $CHECKS_OK passed, $CHECKS_BAD failed," \
		"$CHECKS_KNOWN known defects tolerated" \
		"(REL_KNOWN: ${REL_KNOWN:-none})"
	e2e_log "figures: sweep time median $med ms," \
		"max $MAX_SWEEP_MS ms ($MAX_SWEEP_WHAT)"
	e2e_log "figures: 100 MB files (first sweep, ms):${BIG_LIST:- none}"
	e2e_log "figures: sweeps stuck on the FIFO: $STALLS"
}
