#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The quick policy reload test for make check: 16 edits, valid ones
# alternating with each kind of invalid edit in turn (tests/stress/reload.sh
# has the checks; make stress runs the 200-edit one).  REL_KNOWN lists the
# stock OpenSM limits that this run tolerates (they are still
# printed as "known (TAG)"):
#   fifo-opensm         OpenSM's own parse of qos_policy_file fopen()s it
#                       too, under the exclusive lock: a FIFO at the path
#                       stalls stock OpenSM's sweep (the plugin opens it
#                       non-blocking and refuses it)
: "${top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
export REL_EDITS=${REL_EDITS:-16} REL_ORDER=${REL_ORDER:-cycle}
export REL_NAME=${REL_NAME:-reload-quick} REL_STALL=${REL_STALL:-2}
known="fifo-opensm"
export REL_KNOWN=${REL_KNOWN-$known}
exec bash "$top_srcdir/tests/stress/reload.sh"
