#!/usr/bin/env bash
# Which kernels a bench script's GPU time goes to: each script runs with
# MATFUSE_GPU_TIMING=kernels (every kernel in a compute pass of its own, stamped at its start
# and end) and the kernels with the most time are printed, summed over the whole run
# (warm-up runs included). Passes of their own add a little per kernel: use the totals to
# rank kernels, bench/gputime.sh for a workload's GPU time.
#   bash bench/kernelprofile.sh bench/scans/c1_sort.m ...   (TOP=12 rows, BENCH_RUNS=3)
for s in "$@"; do
  echo "== $s"
  MATFUSE_GPU_TIMING=kernels BENCH_RUNS=${BENCH_RUNS:-3} ./target/release/matfuse "$s" 2>&1 \
    | grep -E "RESULT|launches|rror|^ +[0-9]+ +[0-9.]+ +[0-9.]+  " | head -$((${TOP:-12} + 2))
done
