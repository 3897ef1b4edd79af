#!/usr/bin/env bash
# The CPU half of the benchmarks, on the development machine: workload 1 at 1e7 on matfuse's
# CPU path (MATFUSE_DEVICE=cpu) beside NumPy and GNU Octave (when installed), checked.
#   bash bench/run-cpu.sh [--quick] [--runs N]     (pip install numpy; apt-get install octave)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${MATFUSE_BIN:-./target/release/matfuse}
python3 bench/harness.py --cpu --bin "$bin" --out "${BENCH_OUT:-bench/RESULTS-cpu.md}" "$@"
