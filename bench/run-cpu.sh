#!/usr/bin/env bash
# The CPU half of the benchmarks: the host engine's rows (bench/cpu/rows.m) on matfuse's CPU
# path (MATFUSE_DEVICE=cpu) beside NumPy and GNU Octave (when installed), at 1e5, 1e6 and 1e7,
# single and double, checked; then doubling runs for the order of growth.
#   bash bench/run-cpu.sh [--runs N] [--sizes 1e5,1e6] [--no-octave]
#   (pip install numpy; apt-get install octave). Workload 1 beside NumPy: bench/harness.py --cpu
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${MATFUSE_BIN:-./target/release/matfuse}
python3 bench/cpu/compare.py --bin "$bin" --out "${BENCH_OUT:-bench/RESULTS-cpu.md}" "$@"
