#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The quick policy reload test for make check: 18 edits, valid ones
# alternating with each kind of invalid edit in turn (tests/stress/reload.sh
# has the checks; make stress runs the 200-edit one).  Every edit kind
# comes up, the FIFO and the directory too: OpenSM's own parse reads the
# plugin's copy of the last good policy, so neither stalls nor kills it.
: "${top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
export REL_EDITS=${REL_EDITS:-18} REL_ORDER=${REL_ORDER:-cycle}
export REL_NAME=${REL_NAME:-reload-quick} REL_STALL=${REL_STALL:-2}
export REL_KNOWN=${REL_KNOWN-}
exec bash "$top_srcdir/tests/stress/reload.sh"
