"""NumPy's side of bench/cpu/rows.m: the same rows on the same data, timed the same way."""
import os
import time
import numpy as np


def run(n, cls, runs, want):
    dt = np.float32 if cls == "single" else np.float64
    x = np.mod(np.arange(n) * 0.6180339887498949, 1).astype(dt)
    m = round(np.sqrt(n))
    c = np.mod(np.arange(m) * 0.3819660112501051, 1).astype(dt).reshape(m, 1)
    r = np.mod(np.arange(m) * 0.7548776662466927, 1).astype(dt).reshape(1, m)
    a = np.mod(np.arange(n, dtype=np.int64) * 7919, n).astype(np.int32)
    b = np.mod(np.arange(n, dtype=np.int64) * 104729 + 17, 2 * n).astype(np.int32)
    ix = np.mod(np.arange(n, dtype=np.int64) * 7919, n)
    p = x[: min(n, 16000)].astype(np.float64)
    h = len(p) // 2
    q = np.concatenate([p[:h], np.mod(np.arange(len(p) - h) * 0.123456789, 1)])
    A = np.mod(np.arange(m * m) * 0.6180339887498949, 1).reshape(m, m, order="F").astype(dt)
    B = A.T.copy()
    k = n // m
    Am = x[: m * k].reshape((m, k), order="F")
    bb = x[:m].reshape(m, 1)

    def first_last(y):
        return float(y.flat[-1]) + float(y.flat[0])

    def find():
        y = np.flatnonzero(x > dt(0.5))
        return len(y) + int(y[-1]) + 1

    def mincols():
        return float(Am.min(axis=0).sum()) + int((Am.argmin(axis=0) + 1).sum())

    def grow():
        g = []
        for i in range(1, n + 1):
            g.append(float(i))
        return float(np.sum(np.array(g)))

    def strcat():
        s = ""
        for _ in range(n):
            s += "ab"
        return len(s)

    def stencil():
        u = x.copy()
        for _ in range(5):
            u[1:-1] = u[1:-1] + dt(0.25) * (u[:-2] - 2 * u[1:-1] + u[2:])
        return float(u[-2]) + float(u[1]) + float(u[len(u) // 2 - 1])

    rows = {
        "sum": lambda: float(x.sum()),
        "maxi": lambda: float(x.max()) + int(x.argmax()) + 1,
        "any": lambda: float((x > 0.999999).any()),
        "std": lambda: float(x.std(ddof=1)),
        "sinx": lambda: (lambda y: float(y[-1]) + float(y[0]))(np.sin(x) * x + dt(0.5)),
        "chain": lambda: (lambda y: float(y[-1]) + float(y[0]))(((x * 2 + 1) * x - dt(0.5)) / (x + 1) * 3 - x * x + dt(0.25)),
        "sumchain": lambda: float(np.sum(np.sin(x) * x + dt(0.5))),
        "expchain": lambda: (lambda y: float(y[-1]) + float(y[0]))(np.exp(-x * x) * np.cos(3 * x) + np.log(x + 1)),
        "stencil": stencil,
        "bcast": lambda: (lambda y: float(y[-1, -1]) + float(y[0, 0]))(c + r),
        "diff": lambda: (lambda y: float(y[-1]) + float(y[0]))(x[1:] - x[:-1]),
        "sort": lambda: (lambda y: float(y[-1]) + float(y[0]) + float(y[len(y) // 2 - 1]))(np.sort(x, kind="stable")),
        "ismember": lambda: float(np.isin(a, b).sum()),
        "intersect": lambda: (lambda y: len(y) + float(y.sum()))(np.intersect1d(p, q)),
        "unique": lambda: len(np.unique(a)),
        "grow": grow,
        "strcat": strcat,
        "iadd": lambda: (lambda y: float(y[-1]) + float(y[0]) + float(y[len(y) // 2 - 1]))(a + b),
        "iscale": lambda: (lambda y: float(y[-1]) + float(y[0]) + float(y[len(y) // 2 - 1]))(a * 3),
        "icmp": lambda: float(np.count_nonzero(a > 5000)),
        "cumsum": lambda: (lambda y: float(y[-1]) + float(y[len(y) // 2 - 1]))(np.cumsum(x)),
        "cumprod": lambda: (lambda y: float(y[999]) + float(y[1]))(np.cumprod(1 + x / dt(n))),
        "absqrt": lambda: first_last(np.sqrt(np.abs(x - dt(0.5))) + np.abs(x)),
        "explog": lambda: first_last(np.log(np.exp(x) + 1)),
        "meanrows": lambda: float(Am.mean(axis=1).sum()),
        "varrows": lambda: float(Am.var(axis=1, ddof=1).sum()),
        "gather": lambda: (lambda y: float(y[-1]) + float(y[0]) + float(y[len(y) // 2 - 1]))(x[ix]),
        "mask": lambda: (lambda y: len(y) + float(y[-1]))(x[x > dt(0.5)]),
        "find": find,
        "mincols": mincols,
        "maxrows": lambda: float(Am.max(axis=1).sum()),
        "matvec": lambda: float((Am.T @ bb).sum()),
        "pow3": lambda: first_last(x**3),
        "modfloor": lambda: float(np.mod(np.floor(x * dt(1000)), 7).sum(dtype=np.float64)),
        "ieq": lambda: float(np.count_nonzero(a == b)),
        "repmat": lambda: (lambda y: first_last(y) + y.size)(np.tile(r, (m, 1))),
        "sumcols": lambda: float(Am.sum(axis=0).sum()),
        "matmul": lambda: (lambda C: float(C[-1, -1]) + float(C[0, 0]))(A @ B),
    }
    out = {}
    for name, f in rows.items():
        if want != "all" and name not in want.split(","):
            continue
        ts = []
        for rep in range(runs + 1):
            t0 = time.perf_counter()
            v = f()
            if rep > 0:
                ts.append((time.perf_counter() - t0) * 1e3)
        out[name] = (float(np.median(ts)), v)
    return out
