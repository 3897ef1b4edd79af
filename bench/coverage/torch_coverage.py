"""The coverage workloads (bench/coverage/*.m) in PyTorch, eager and torch.compile, timed as
the .m scripts time themselves: median of BENCH_RUNS (10) after two warm-up runs, from the
statements to the value on the host. Prints RESULT lines like the scripts'."""
import math
import os
import statistics
import sys
import time

import torch

DEV = "cuda"
RUNS = int(os.environ.get("BENCH_RUNS", "10"))
F64 = torch.float64


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


def pattern(count, div=1000003, shift=0.0):
    k = torch.arange(1, count + 1, dtype=F64, device=DEV)
    return torch.remainder(k * 7919, 1000003) / div - shift


def options(S):
    K, r, sig, T = 100.0, 0.03, 0.25, 1.5
    d1 = (torch.log(S / K) + (r + sig**2 / 2) * T) / (sig * math.sqrt(T))
    d2 = d1 - sig * math.sqrt(T)
    C = S * 0.5 * torch.erfc(-d1 / math.sqrt(2)) - K * math.exp(-r * T) * 0.5 * torch.erfc(-d2 / math.sqrt(2))
    return C.mean()


def softmax(X, w):
    E = torch.exp(X - X.amax(0, keepdim=True))
    P = E / E.sum(0, keepdim=True)
    return (P * w).sum()


def zscore(X):
    Z = (X - X.mean(0, keepdim=True)) / X.std(0, keepdim=True)
    return Z.abs().sum()


def logreg(X, y, steps):
    n, d = X.shape
    w = torch.zeros(d, 1, device=DEV)
    for _ in range(steps):
        p = 1 / (1 + torch.exp(-(X @ w)))
        w = w - 0.5 * (X.T @ (p - y)) / n
    return w.sum()


def cg(A, b, steps):
    x = torch.zeros_like(b)
    r = b
    p = r
    rr = r.T @ r
    for _ in range(steps):
        Ap = A @ p
        alpha = rr / (p.T @ Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        rr1 = r.T @ r
        p = r + (rr1 / rr) * p
        rr = rr1
    return x.sum()


def main():
    torch.backends.cuda.matmul.allow_tf32 = False
    n1 = int(float(os.environ.get("BENCH_N", "2e7")))
    S = (80 + 40 * pattern(n1)).float().reshape(-1, 1)
    m, c = 1000, 20000
    Xs = (pattern(m * c, 100003)).float().reshape(c, m).T.contiguous()
    ws = (torch.arange(1, m + 1, dtype=F64, device=DEV) / m).float().reshape(m, 1)
    zm, zc = int(2e6), 32
    Xz = (pattern(zm * zc).reshape(zc, zm).T * torch.arange(1, zc + 1, dtype=F64, device=DEV)).float().contiguous()
    lm = int(1e6)
    Xl = pattern(lm * 32, shift=0.5).float().reshape(32, lm).T.contiguous()
    yl = (torch.remainder(torch.arange(1, lm + 1, device=DEV), 3) == 0).float().reshape(-1, 1)
    cn = 4096
    B = pattern(cn * cn, shift=0.5).float().reshape(cn, cn).T.contiguous()
    A = B.T @ B / cn + torch.eye(cn, device=DEV)
    b = (torch.remainder(torch.arange(1, cn + 1, device=DEV), 7) / 7).float().reshape(-1, 1)
    cases = [
        ("v1", "options", lambda f: f(S), options),
        ("v2", "softmax", lambda f: f(Xs, ws), softmax),
        ("v3", "zscore", lambda f: f(Xz), zscore),
        ("v4", "logreg", lambda f: f(Xl, yl, 20), logreg),
        ("v5", "cg", lambda f: f(A, b, 50), cg),
    ]
    for name, what, call, fn in cases:
        for mode in ["eager", "compile"]:
            f = fn if mode == "eager" else torch.compile(fn)
            try:
                med, mn, v = timed(lambda: call(f).item())
                print(f"RESULT {name} {what}-{mode} ms_median={med:.4f} ms_min={mn:.4f} value={v:.10g}")
            except Exception as e:  # a compile failure is reported, not fatal
                print(f"RESULT {name} {what}-{mode} failed={type(e).__name__}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
