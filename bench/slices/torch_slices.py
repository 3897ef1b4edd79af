"""The slice workloads (bench/slices/*.m) in PyTorch, eager and torch.compile, timed as the
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


def stencil(u0, steps):
    u = u0.clone()
    r = 0.25
    for _ in range(steps):
        u[1:-1] = u[1:-1] + r * (u[:-2] - 2 * u[1:-1] + u[2:])
    return u.sum()


def rows(A0, steps):
    A = A0.clone()
    for i in range(steps):
        A[i, :] = A[i, :] * 0.5 + (i + 1)
    return A[steps - 1, -1]


def concat(X, steps):
    acc = torch.zeros(8, device=DEV)
    for k in range(1, steps + 1):
        Z = torch.cat([X, torch.flip(X, [0])], 1)
        acc = acc + (torch.roll(Z, k, 0) * Z).sum(0)
    return acc.sum()


def masked(x0, steps):
    x = x0.clone()
    for _ in range(steps):
        x[x > 0.9] = 0
        x = x + 0.05
    return x.sum()


def gather(x0, w, idx, steps):
    x = x0
    y = torch.zeros_like(x0)
    for _ in range(steps):
        y = x[idx] * w + y
        x = x * 0.999
    return y.sum()


def compact(x, steps):
    s = torch.zeros((), device=DEV)
    for k in range(1, steps + 1):
        v = x[x > k / 10]
        s = s + v.sum()
    return s


def scatter(x0, w, idx, steps):
    x = x0.clone()
    for _ in range(steps):
        x[idx] = x[idx] * 0.5 + w
    return x.sum()


def delete_append(x0, w, steps):
    x = x0.clone()
    for k in range(1, steps + 1):
        x = x[~(x > 1 - k / 100)]
        x = torch.cat([x, w])
    return x.sum() + x.numel()


def main():
    n1 = int(float(os.environ.get("S1_N", "1e7")))
    k = torch.arange(1, n1 + 1, dtype=torch.float64, device=DEV)
    u0 = (torch.remainder(k * 7919, 1000) / 1000).to(torch.float32)
    n2 = int(os.environ.get("S2_N", "2048"))
    k = torch.arange(1, n2 * n2 + 1, dtype=torch.float64, device=DEV)
    A0 = torch.remainder(k * 31, 97).to(torch.float32).reshape(n2, n2).t().contiguous()
    n3 = int(float(os.environ.get("S3_N", "1e6")))
    k = torch.arange(1, 4 * n3 + 1, dtype=torch.float64, device=DEV)
    X = (torch.remainder(k * 13, 101) / 101).to(torch.float32).reshape(4, n3).t().contiguous()
    k = torch.arange(1, n1 + 1, dtype=torch.float64, device=DEV)
    w = (torch.remainder(k * 31, 97) / 97).to(torch.float32)
    idx = torch.remainder(torch.arange(0, n1, dtype=torch.int64, device=DEV) * 7919, n1)
    m7 = int(float(os.environ.get("S7_M", "1e6")))
    k = torch.arange(1, m7 + 1, dtype=torch.float64, device=DEV)
    w7 = (torch.remainder(k * 31, 97) / 97).to(torch.float32)
    idx7 = torch.remainder(torch.arange(0, m7, dtype=torch.int64, device=DEV) * 7919, n1)
    m8 = int(float(os.environ.get("S8_M", "1e5")))
    k = torch.arange(1, m8 + 1, dtype=torch.float64, device=DEV)
    w8 = (torch.remainder(k * 31, 97) / 97).to(torch.float32)
    cases = [
        ("s1", "stencil", lambda f: f(u0, 20), stencil),
        ("s2", "rows", lambda f: f(A0, 64), rows),
        ("s3", "concat", lambda f: f(X, 8), concat),
        ("s4", "masked", lambda f: f(u0, 20), masked),
        ("s5", "gather", lambda f: f(u0, w, idx, 20), gather),
        ("s6", "compact", lambda f: f(u0, 8), compact),
        ("s7", "scatter", lambda f: f(u0, w7, idx7, 20), scatter),
        ("s8", "delete_append", lambda f: f(u0, w8, 10), delete_append),
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
