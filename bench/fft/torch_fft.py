"""The FFT workloads (bench/fft/*.m) in PyTorch, eager and torch.compile, timed as the .m
scripts time themselves: median of `runs` after two warm-up runs, from the statements to the
value on the host. Prints RESULT lines like the scripts'."""
import math
import os
import statistics
import time

import torch
import torch.nn.functional as F

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
        v = fn().item()
        t.append(time.perf_counter() - s)
    return statistics.median(t) * 1e3, min(t) * 1e3, v


def lowpass(X, H):
    Y = torch.fft.ifft(torch.fft.fft(X, dim=0) * H, dim=0).real
    return Y.sum()


def fir(x, b):
    # conv(x, b, 'same') and filter(b, 1, x) of a column
    m = b.numel()
    w = torch.flip(b, [0]).view(1, 1, m)
    full = F.conv1d(x.view(1, 1, -1), w, padding=m - 1).view(-1)
    same = full[m // 2 : m // 2 + x.numel()]
    causal = full[: x.numel()]
    return same.sum() + causal.sum()


def report(name, what, fn, *args):
    med, mn, v = timed(lambda: fn(*args))
    print(f"RESULT {name} {what}-eager ms_median={med:.4f} ms_min={mn:.4f} value={v:.10g}")
    try:
        c = torch.compile(fn)
        med, mn, v = timed(lambda: c(*args))
        print(f"RESULT {name} {what}-compile ms_median={med:.4f} ms_min={mn:.4f} value={v:.10g}")
    except Exception as e:  # compile may be unavailable for complex ops
        print(f"RESULT {name} {what}-compile failed: {type(e).__name__}")


def main():
    n = int(float(os.environ.get("F1_N", str(2**18))))
    cols = int(os.environ.get("F1_COLS", "16"))
    t = torch.arange(n, dtype=torch.float64, device=DEV).view(-1, 1) / n
    X = (torch.sin(2 * math.pi * 50 * t) + 0.5 * torch.sin(2 * math.pi * 3000 * t)
         + 0.01 * torch.arange(1, cols + 1, dtype=torch.float64, device=DEV)).float()
    f = torch.cat([torch.arange(0, n // 2 + 1), torch.arange(-n // 2 + 1, 0)]).to(DEV).view(-1, 1)
    H = (f.abs() <= 200).float()
    report("f1", "lowpass", lowpass, X, H)

    n2 = int(float(os.environ.get("F2_N", "1e7")))
    k = torch.arange(1, n2 + 1, dtype=torch.float64, device=DEV)
    x = (torch.sin(k * 0.001) + 0.1 * torch.remainder(k * 7919, 1000) / 1000).float()
    m = 31
    j = torch.arange(1, m + 1, dtype=torch.float64, device=DEV)
    b = 0.5 - 0.5 * torch.cos(2 * math.pi * j / (m + 1))
    b = (b / b.sum()).float()
    report("f2", "fir", fir, x, b)


if __name__ == "__main__":
    main()
