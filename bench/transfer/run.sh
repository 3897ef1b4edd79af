#!/usr/bin/env bash
# Transfer speeds on the GPU machine (issue 25: at least 10 GB/s), from the checkout with
# the prepared .gl and the release binary:  source .gl/setup.sh; bash bench/transfer/run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${MATFUSE_BIN:-./target/release/matfuse}
for n in 1e7 1e8; do BENCH_N=$n "$bin" bench/transfer/t1_speeds.m; done
python3 - <<'PY'
import time, torch
for dt, name in [(torch.float32, "single"), (torch.float64, "double")]:
    for n in [10**7, 10**8]:
        x = torch.rand(n, dtype=dt); up = []; down = []
        for _ in range(6):
            t = time.perf_counter(); g = x.cuda(); torch.cuda.synchronize(); up.append(time.perf_counter() - t)
            t = time.perf_counter(); h = g.cpu(); down.append(time.perf_counter() - t)
        up.sort(); down.sort(); b = n * x.element_size()
        print(f"torch {name} n={n} up_ms={up[3]*1e3:.2f} up_GBs={b/up[3]/1e9:.2f} down_ms={down[3]*1e3:.2f} down_GBs={b/down[3]/1e9:.2f}")
PY
