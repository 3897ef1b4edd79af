#!/usr/bin/env bash
# GPU time beside wall time for bench scripts that reset gpuStats after two warm-up runs:
#   bash bench/gputime.sh bench/scans/c2_cumsum.m ...  (BENCH_RUNS=5: 6 runs counted)
for s in "$@"; do
  out=$(MATFUSE_GPU_TIMING=1 BENCH_RUNS=5 ./target/release/matfuse -e "run('$s'); st2 = gpuStats; fprintf('GPUTIME %.4f ms/run\n', st2.Session.GPUTime / 6 * 1e3);" 2>&1 | grep -E "RESULT|GPUTIME|rror")
  echo "$out"
done
