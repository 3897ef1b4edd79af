#!/usr/bin/env bash
# The GPU half of the benchmarks, in one command on the GPU machine, from the checkout shipped
# there with the prepared .gl and the release binary:
#   source .gl/setup.sh; bash bench/run-gpu.sh [--quick] [--runs N] [--rounds R]
# Runs every workload on matfuse (bench/workloads/*.m) beside PyTorch eager and torch.compile
# (bench/peers/torch_workloads.py), checks every answer, and writes bench/RESULTS.md (or
# $BENCH_OUT). MATFUSE_BIN picks the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${MATFUSE_BIN:-./target/release/matfuse}
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/matfuse-cache}
"$bin" -e "gpuCalibrate" >/dev/null
python3 bench/harness.py --gpu --bin "$bin" --out "${BENCH_OUT:-bench/RESULTS.md}" "$@"
