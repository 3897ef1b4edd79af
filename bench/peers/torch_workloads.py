"""The benchmark workloads written for PyTorch (eager and torch.compile), the peer matfuse is
measured against on the GPU machine. Same data as the .m workloads (whole-number arithmetic
in double, one rounding), timed the same way: from the statements to the value on the host,
median of `runs` after a warm-up."""
import math
import statistics
import time

import torch

DEV = "cuda"


def data(n, mult, mod, scale=4.0, shift=-2.0, dtype=torch.float32):
    """mod((1:n)' * mult, mod) / mod * scale + shift, made in double, rounded once."""
    k = torch.arange(1, n + 1, dtype=torch.float64, device=DEV)
    v = torch.remainder(k * mult, mod) / mod * scale + shift
    return v.to(dtype)


def timed(fn, runs, warm_s=1.5):
    """Median and min seconds of fn() (which returns a host value), after warm_s of warm-up."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < warm_s:
        fn()
    t = []
    v = None
    for _ in range(runs):
        torch.cuda.synchronize()
        s = time.perf_counter()
        v = fn()
        t.append(time.perf_counter() - s)
    return statistics.median(t), min(t), v


# GPU times (ms, medians of CUDA events around the work, not the copy to the host) of the
# compiled runs of workloads 1, 2 and 6 since the harness last took them, per workload.
GPU_MS = {}


def events_ms(fn, runs):
    """Median milliseconds between CUDA events recorded before and after fn() (which only
    queues work): the GPU's time for it, without the host's launch and read-back."""
    for _ in range(5):
        fn()
    ts = []
    for _ in range(runs):
        torch.cuda.synchronize()
        e0 = torch.cuda.Event(enable_timing=True)
        e1 = torch.cuda.Event(enable_timing=True)
        e0.record()
        fn()
        e1.record()
        e1.synchronize()
        ts.append(e0.elapsed_time(e1))
    return statistics.median(ts)


def copy_bandwidth(nbytes=1 << 30, runs=20):
    """Device copy bandwidth (bytes read + written per second) of a 1 GiB tensor copy,
    timed with CUDA events: the ceiling for memory-bound work."""
    a = torch.empty(nbytes // 4, dtype=torch.float32, device=DEV)
    b = torch.empty_like(a)
    return 2 * nbytes / (events_ms(lambda: b.copy_(a), runs) / 1e3)


def w1(n, dtype, runs, compiled):
    x = data(n, 7919, 10007, dtype=dtype)

    def f(x):
        return (torch.sin(x) * x + 0.5).mean()

    g = torch.compile(f) if compiled else f
    got = timed(lambda: g(x).item(), runs)
    if compiled:
        GPU_MS.setdefault(f"w1 {dtype}", []).append(events_ms(lambda: g(x), runs))
    return got


def chain(a, b, c):
    return (torch.maximum(torch.exp(-a.abs()), torch.sqrt(b.abs())) ** 2 * torch.cos(c) + a) * b - c


def w2(n, runs, compiled):
    a = data(n, 7919, 10007)
    b = data(n, 104729, 10009)
    c = data(n, 1299709, 10037)
    g = torch.compile(chain) if compiled else chain
    out = {}

    def run():
        out["r"] = g(a, b, c)
        return out["r"][0].item()

    med, mn, _ = timed(run, runs)
    if compiled:
        GPU_MS.setdefault("w2", []).append(events_ms(lambda: g(a, b, c), runs))
    return med, mn, out["r"].double().sum().item()


def w4(n, steps, runs, compiled):
    S0, K, mu, sigma, T = 100.0, 105.0, 0.05, 0.2, 1.0
    dt = T / steps
    drift = (mu - 0.5 * sigma**2) * dt
    vol = sigma * math.sqrt(dt)

    def step(S, z):
        return S * torch.exp(drift + vol * z)

    st = torch.compile(step) if compiled else step

    def run():
        S = torch.full((n,), S0, dtype=torch.float32, device=DEV)
        for _ in range(steps):
            S = st(S, torch.randn(n, dtype=torch.float32, device=DEV))
        return torch.clamp(S - K, min=0).mean().item()

    return timed(run, runs, warm_s=0.5)


def w5(n, steps, runs):
    a = 0.05
    X = torch.rand(steps, n, dtype=torch.float32, device=DEV)  # X[t] is a column of the .m's X

    def run():
        y = torch.zeros(n, dtype=torch.float32, device=DEV)
        for t in range(steps):
            y = a * X[t] + (1 - a) * y
        return y[0].item()

    return timed(run, runs, warm_s=0.5)


def normalise(X, gain, bias):
    mu = X.mean(dim=(1, 2), keepdim=True)
    sd = X.std(dim=(1, 2), keepdim=True)
    return (X - mu) / sd * gain + bias


def w6(h, w, m, runs, compiled):
    # Image j of the .m's h x w x m array (column-major) is row-major w x h here: the same
    # values in the same memory order.
    X = data(h * w * m, 7919, 10007, scale=1.0, shift=0.0).reshape(m, w, h)
    g = torch.compile(normalise) if compiled else normalise
    out = {}

    def run():
        out["Y"] = g(X, 1.5, 0.25)
        return out["Y"][0, 0, 0].item()

    med, mn, _ = timed(run, runs)
    if compiled:
        GPU_MS.setdefault("w6", []).append(events_ms(lambda: g(X, 1.5, 0.25), runs))
    k = torch.arange(1, h * w * m + 1, dtype=torch.float64, device=DEV)
    v = (out["Y"].reshape(-1).double() * torch.remainder(k, 7)).sum().item()
    return med, mn, v


def w7(n, dtype, runs, compiled):
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    # The .m's column-major n x n A is row-major A' here: C' = B' A' gives the same C.
    At = data(n * n, 7919, 10007, scale=1.0, shift=-0.5, dtype=dtype).reshape(n, n)
    Bt = data(n * n, 104729, 10009, scale=1.0, shift=-0.5, dtype=dtype).reshape(n, n)
    k = torch.arange(1, n + 1, dtype=torch.float64, device=DEV)
    bias = (torch.remainder(k * 31, 101) / 101 - 0.5).to(dtype).reshape(n, 1)

    def f(At, Bt, bias):
        return torch.clamp(Bt @ At * 0.5 + bias, min=0)

    g = torch.compile(f) if compiled else f
    out = {}

    def run():
        out["C"] = g(At, Bt, bias)
        return out["C"][0, 0].item()

    med, mn, _ = timed(run, runs, warm_s=0.5)
    return med, mn, out["C"].double().sum().item()


def w8(n, p, runs):
    X = data(n * p, 7919, 10007, scale=1.0, shift=0.0).reshape(p, n).t()

    def run():
        Xc = X - X.mean(dim=0)
        C = Xc.t() @ Xc / (n - 1)
        run.C = C
        return C[0, 0].item()

    med, mn, _ = timed(run, runs, warm_s=0.5)
    return med, mn, run.C.double().sum().item()


def w9(m, runs):
    t = []
    v = None
    for j in range(runs + 2):
        g = torch.ones(1, dtype=torch.float64, device=DEV)
        torch.cuda.synchronize()
        s = time.perf_counter()
        for _ in range(m):
            g = g + 1
        v = g.item()
        if j >= 2:
            t.append(time.perf_counter() - s)
    return statistics.median(t), min(t), v
