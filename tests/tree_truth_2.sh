#!/bin/sh
# Every node of the vendor's tree to level 3, and levels 4-5, against truth
# on Sapphire and Granite Rapids and Skylake-SP (224 to 384 CPUs):
# tree_truth.sh's second part (its header says how the truth is worked
# out), run beside the first by make check.
TRUTH_PART=2
. "$top_srcdir/tests/tree_truth.sh"
