#!/usr/bin/env bash
# The coverage workloads of issue 25 on the GPU machine: matfuse on the device, matfuse's CPU
# path (MATFUSE_DEVICE=cpu, 3 runs) and PyTorch eager and torch.compile, RESULT lines to
# standard output. From the checkout with the prepared .gl and the release binary:
#   source .gl/setup.sh; bash bench/coverage/run.sh [v1 v2 ...]
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${MATFUSE_BIN:-./target/release/matfuse}
only=${*:-v1 v2 v3 v4 v5}
for s in bench/coverage/v*.m; do
  tag=$(basename "$s" | cut -d_ -f1)
  case " $only " in *" $tag "*) ;; *) continue ;; esac
  "$bin" "$s"
  [ -z "${NO_CPU:-}" ] && BENCH_RUNS=3 MATFUSE_DEVICE=cpu "$bin" "$s" | sed 's/^RESULT \(\S*\) \(\S*\)/RESULT \1 \2-cpu/'
done
[ -z "${NO_TORCH:-}" ] && python3 bench/coverage/torch_coverage.py
