"""The scan workloads (bench/scans/*.m) in PyTorch, eager and torch.compile, timed as the
.m scripts time themselves: median of `runs` after two warm-up runs, from the statements to
the value on the host. Prints RESULT lines like the scripts'."""
import os
import statistics
import sys
import time

import torch

DEV = "cuda"
RUNS = int(os.environ.get("BENCH_RUNS", "10"))


def timed(fn):
    for _ in range(2):
        fn()
    t = []
    v = None
    for _ in range(RUNS):
        torch.cuda.synchronize()
        s = time.perf_counter()
        v = fn()
        t.append(time.perf_counter() - s)
    return statistics.median(t) * 1e3, min(t) * 1e3, v


def sorts(x, steps):
    n = x.numel()
    acc = torch.zeros((), device=DEV)
    for k in range(1, steps + 1):
        s, i = torch.sort(x + k / 8, stable=True)
        acc = acc + s[n // 2 - 1] + (i[0] + 1).float()
    return acc


def cumsums(x, steps):
    acc = torch.zeros((), device=DEV)
    for k in range(1, steps + 1):
        c = torch.cumsum(x * k, 0)
        r = torch.flip(torch.cumsum(torch.flip(x, [0]), 0), [0])
        acc = acc + c[-1] + r[0] + torch.diff(c).sum()
    return acc


def main():
    n = int(float(os.environ.get("BENCH_N", "1e7")))
    k = torch.arange(1, n + 1, dtype=torch.float64, device=DEV)
    x1 = (torch.remainder(k * 7919, 1000003) / 1000003).to(torch.float32)
    x2 = (torch.remainder(k * 7919, 1000) / 1000 - 0.5).to(torch.float32)
    x3 = torch.remainder(k * 7919, 1000003)
    cases = [
        ("c1", "sort", lambda f: f(x1, 4), sorts),
        ("c2", "cumsum", lambda f: f(x2, 8), cumsums),
        ("c3", "sort-double", lambda f: f(x3, 4), sorts),
    ]
    for name, what, call, fn in cases:
        for mode in ["eager", "compile"]:
            f = fn if mode == "eager" else torch.compile(fn)
            try:
                med, mn, v = timed(lambda: call(f).item())
                print(f"RESULT {name} {what}-{mode} ms_median={med:.4f} ms_min={mn:.4f} value={v:.10g}")
            except Exception as e:  # a compile failure is reported, not fatal
                print(f"RESULT {name} {what}-{mode} failed={type(e).__name__}", file=sys.stdout)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
