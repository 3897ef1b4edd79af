#!/usr/bin/env bash
# The scan workloads on the GPU machine: matfuse on the device, matfuse's CPU path
# (MATFUSE_DEVICE=cpu, smaller runs) and PyTorch eager and torch.compile, RESULT lines to
# standard output. From the checkout with the prepared .gl and the release binary:
#   source .gl/setup.sh; bash bench/scans/run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${MATFUSE_BIN:-./target/release/matfuse}
for s in bench/scans/c*.m; do
  "$bin" "$s"
  BENCH_RUNS=3 MATFUSE_DEVICE=cpu "$bin" "$s" | sed 's/^RESULT \(\S*\) \(\S*\)/RESULT \1 \2-cpu/'
done
python3 bench/scans/torch_scans.py
