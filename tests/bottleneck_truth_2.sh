#!/bin/sh
# Intel's Bottleneck metrics against truth on Granite Rapids (its PEBS
# retire latencies n/a), Alder Lake's P-cores, Ice Lake-SP and Tiger Lake:
# bottleneck_truth.sh's second part (its header says how the truth is
# worked out), run beside the first by make check.
TRUTH_PART=2
. "$top_srcdir/tests/bottleneck_truth.sh"
