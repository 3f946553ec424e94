#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# gen-scale-policy.sh LEAVES STORAGE_PER_LEAF: the scale benchmark's policy
# for a gen-fattree fabric with that many leaves and storage HCAs per leaf
# (named "storN HCA-1"): contrib/policies/fat-tree-16.conf's shape -- a
# storage level on its own VL, high priority toward the storage ports, a
# scavenger VL for the compute hosts' SLs 8-15, a monitoring level by
# Service ID -- in OpenSM's grammar, so stock OpenSM loads the same file.
set -eu
leaves=$1
spl=$2
n=$((leaves * spl))
[ "$n" -ge 1 ] || { echo "gen-scale-policy: no storage HCA" >&2; exit 1; }

cat <<'EOF'
# Scale benchmark policy (tests/bench/gen-scale-policy.sh).
port-groups
    port-group
        name: storage
EOF
for ((i = 1; i <= n; i++)); do
	printf '        port-name: "stor%u HCA-1/P1"\n' "$i"
done
cat <<'EOF'
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
            vlarb-high: 1:64
            vlarb-low: 0:64, 7:16
            vl-high-limit: 8
        end-vlarb-scope
        vlarb-scope
            group: switches
            group: hosts
            vlarb-high: 1:32
            vlarb-low: 0:64, 7:16
            vl-high-limit: 2
        end-vlarb-scope
    end-vlarb-tables
    sl2vl-tables
        sl2vl-scope
            group: hosts
            sl2vl-table: 0,1,2,3,4,5,6,7,7,7,7,7,7,7,7,7
        end-sl2vl-scope
        sl2vl-scope
            group: switches
            from: *
            to: *
            sl2vl-table: 0,1,2,3,4,5,6,7,7,7,7,7,7,7,7,7
        end-sl2vl-scope
    end-sl2vl-tables
end-qos-setup

qos-levels
    qos-level
        name: DEFAULT
        sl: 0
    end-qos-level
    qos-level
        name: storage
        use: I/O to the storage servers
        sl: 1
    end-qos-level
    qos-level
        name: monitoring
        use: telemetry, small and latency-bound
        sl: 7
        mtu-limit: 3
    end-qos-level
end-qos-levels

qos-match-rules
    qos-match-rule
        use: anything to storage
        destination: storage
        qos-level-name: storage
    end-qos-match-rule
    qos-match-rule
        use: monitoring agents (by Service ID)
        service-id: 0x1000000000000d00-0x1000000000000dff
        qos-level-name: monitoring
    end-qos-match-rule
end-qos-match-rules
EOF
