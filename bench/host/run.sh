#!/usr/bin/env bash
# The host engine beside NumPy and GNU Octave (issue 23): every row of bench/cpu/rows.m
# (elementwise chains, reductions, stencil, slices, sorts, sets, growth, products, integer
# arithmetic) on matfuse's CPU path (MATFUSE_DEVICE=cpu), NumPy and Octave alternating size
# by size in one sitting, medians after a warm-up, checksums compared; then the doubling rows.
#   bash bench/host/run.sh [--runs N] [--sizes 1e5,1e6,1e7] [--rows a,b] [--no-octave]
# Writes bench/host/table.md (the notes and the recorded run are in bench/host/RESULTS.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 -c "import numpy" 2>/dev/null || pip install numpy
bin=${MATFUSE_BIN:-./target/release/matfuse}
python3 bench/cpu/compare.py --bin "$bin" --out "${BENCH_OUT:-bench/host/table.md}" "$@"
