#!/usr/bin/env bash
# Loop kernels (issue 28) on the GPU machine, in one command:
#   source .gl/setup.sh; bash bench/loops/run.sh
# Workloads 4 (GBM Monte Carlo, 1e6 paths x 256 steps) and 5 (EMA, 1e6 channels x 512 steps)
# with loop kernels and with MATFUSE_LOOPS=off (iteration by iteration), beside PyTorch eager
# and torch.compile (bench/peers/torch_workloads.py), medians of BENCH_RUNS runs in ms.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${MATFUSE_BIN:-./target/release/matfuse}
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/matfuse-cache}
export BENCH_RUNS=${BENCH_RUNS:-10}
"$bin" -e "gpuCalibrate" >/dev/null
for mode in on off; do
  for w in w4_gbm w5_ema; do
    echo "matfuse loops=$mode $(MATFUSE_LOOPS=$mode "$bin" bench/workloads/$w.m | grep RESULT)"
  done
done
python3 - <<'PY'
import sys
sys.path.insert(0, "bench/peers")
import torch_workloads as tw
runs = 10
for name, f in [("w4 eager", lambda: tw.w4(1000000, 256, runs, False)),
                ("w4 compile", lambda: tw.w4(1000000, 256, runs, True)),
                ("w5 eager", lambda: tw.w5(1000000, 512, runs))]:
    r = f()
    print(f"torch {name}: median {r[0] * 1e3:.3f} ms, min {r[1] * 1e3:.3f} ms")
PY
