#!/usr/bin/env python3
"""Runs the benchmark workloads on matfuse and on the peers side by side and writes
bench/RESULTS.md. `--gpu` (the GPU machine): matfuse's workloads on the device beside
PyTorch eager and torch.compile, with the device's copy bandwidth as the ceiling. `--cpu`
(any machine): workload 1 on matfuse's CPU path beside NumPy, and the interpreter beside
GNU Octave. Every result is checked; a wrong answer fails the benchmark (exit status 1).
`--quick` shrinks the sizes to try the harness out."""
import argparse
import datetime
import math
import os
import platform
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "peers"))


def matfuse(binary, script, env):
    """Runs one workload script; returns {name: {key: value}} from its RESULT lines."""
    e = dict(os.environ)
    e.update({k: str(v) for k, v in env.items()})
    p = subprocess.run([binary, os.path.join(HERE, "workloads", script)], env=e,
                       capture_output=True, text=True, timeout=600)
    out = {}
    for line in p.stdout.splitlines():
        m = re.match(r"RESULT (\S+) (\S+) (.*)", line)
        if m:
            kv = dict(x.split("=", 1) for x in m.group(3).split())
            out[(m.group(1), m.group(2))] = {k: float(v) for k, v in kv.items()}
    if not out:
        sys.stderr.write(f"{script} printed no result:\n{p.stdout}\n{p.stderr}\n")
    return out


def norm_cdf(x):
    return 0.5 * math.erfc(-x / math.sqrt(2))


def black_scholes_forward(S0, K, r, sigma, T):
    """Undiscounted expected call payoff of geometric Brownian motion with drift r."""
    d1 = (math.log(S0 / K) + (r + 0.5 * sigma**2) * T) / (sigma * math.sqrt(T))
    d2 = d1 - sigma * math.sqrt(T)
    return S0 * math.exp(r * T) * norm_cdf(d1) - K * norm_cdf(d2)


class Table:
    def __init__(self):
        self.rows = []
        self.failures = []
        self.notes = []

    def check(self, name, ok, what):
        if not ok:
            self.failures.append(f"{name}: {what}")
        return "ok" if ok else f"WRONG ({what})"


def rel(a, b):
    return abs(a - b) / max(abs(b), 1e-300)


def gpu(args):
    import torch
    import torch_workloads as tw

    q = args.quick
    t = Table()
    ceiling = tw.copy_bandwidth(1 << 28 if q else 1 << 30)
    env_runs = {"BENCH_RUNS": args.runs}
    bin_ = args.bin
    res = {}
    N1 = 1e6 if q else 1e8
    N2 = 1e6 if q else 5e7
    rounds = {}
    # GPU time alone (no host launch or read-back): matfuse's from a run with
    # MATFUSE_GPU_TIMING=1, torch.compile's from CUDA events, lowest of the rounds.
    kernel_ms = {}

    def kernel_time(name, script, env, key, peer):
        mine = matfuse(bin_, script, {**env, "MATFUSE_GPU_TIMING": 1}).get(key, {}).get("gpu_ms", math.nan)
        kernel_ms[name] = (mine, min(tw.GPU_MS.pop(peer, [math.nan])))

    def best(name, runs_of):
        """Alternates matfuse and torch.compile args.rounds times (runs_of() gives one round's
        matfuse results and peer timing); keeps each side's round with the lowest median, the
        same for both, and every round's medians for the spread."""
        got = [runs_of() for _ in range(max(1, args.rounds))]
        rounds[name] = ([r.get("ms_median", math.nan) for r, _ in got], [c[0] * 1e3 for _, c in got])
        return (min((r for r, _ in got), key=lambda r: r.get("ms_median", math.inf)),
                min((c for _, c in got), key=lambda c: c[0]))

    # workload 1
    for cls, dt, tol in (("single", torch.float32, 1e-4), ("double", torch.float64, 1e-9)):
        name = f"1 sin.*x+0.5, mean ({cls}, {N1:g})"
        env1 = {**env_runs, "BENCH_N": N1, "BENCH_CLASS": cls}
        r, c = best(name, lambda: (
            matfuse(bin_, "w1_sin_mean.m", env1).get(("w1", cls), {}),
            tw.w1(int(N1), dt, args.runs, True)))
        kernel_time(name, "w1_sin_mean.m", env1, ("w1", cls), f"w1 {dt}")
        e = tw.w1(int(N1), dt, args.runs, False)
        eb = (4 if cls == "single" else 8) * N1
        res[name] = (r, e, c, eb, rel(r.get("value", math.nan), c[2]) < tol, f"rel. tol. {tol:g} vs torch")
    # workloads 2 and 3
    e = tw.w2(int(N2), args.runs, False)
    for w, script, label in (("w2", "w2_chain.m", "2 12-op chain, one statement"),
                             ("w3", "w3_chain_statements.m", "3 12-op chain, six statements")):
        name = f"{label} (single, 3x{N2:g})"
        env2 = {**env_runs, "BENCH_N": N2}
        r, c = best(name, lambda: (
            matfuse(bin_, script, env2).get((w, "single"), {}),
            tw.w2(int(N2), args.runs, True)))
        kernel_time(name, script, env2, (w, "single"), "w2")
        res[name] = (r, e, c, 16 * N2, rel(r.get("value", math.nan), c[2]) < 1e-5, "checksum rel. tol. 1e-5 vs torch")
    # workload 4
    n4, s4 = (1e5, 32) if q else (1e6, 256)
    m = matfuse(bin_, "w4_gbm.m", {**env_runs, "BENCH_N": n4, "BENCH_STEPS": s4})
    r = m.get(("w4", "single"), {})
    e = tw.w4(int(n4), s4, args.runs, False)
    c = tw.w4(int(n4), s4, args.runs, True)
    bs = black_scholes_forward(100, 105, 0.05, 0.2, 1.0)
    res[f"4 GBM Monte Carlo ({n4:g} paths x {s4})"] = (r, e, c, 8 * n4 * s4, rel(r.get("value", math.nan), bs) < 0.01, f"1% of Black-Scholes {bs:.4f}")
    # workload 5
    n5, s5 = (1e5, 64) if q else (1e6, 512)
    m = matfuse(bin_, "w5_ema.m", {**env_runs, "BENCH_N": n5, "BENCH_STEPS": s5})
    r = m.get(("w5", "single"), {})
    e = tw.w5(int(n5), s5, args.runs)
    res[f"5 EMA ({n5:g} channels x {s5})"] = (r, e, None, 4 * n5 * s5, r.get("check_rel_err", math.inf) < 1e-5, "first 64 channels rel. tol. 1e-5 vs host")
    # workload 6
    h, w_, k6 = (108, 192, 16) if q else (1080, 1920, 16)
    name6 = f"6 image normalisation ({k6}x{h}x{w_})"
    env6 = {**env_runs, "BENCH_H": h, "BENCH_W": w_, "BENCH_IMAGES": k6}
    r, c = best(name6, lambda: (
        matfuse(bin_, "w6_normalise.m", env6).get(("w6", "single"), {}),
        tw.w6(h, w_, k6, args.runs, True)))
    kernel_time(name6, "w6_normalise.m", env6, ("w6", "single"), "w6")
    e = tw.w6(h, w_, k6, args.runs, False)
    res[name6] = (r, e, c, 3 * 4 * h * w_ * k6, rel(r.get("value", math.nan), c[2]) < 1e-5, "weighted checksum rel. tol. 1e-5 vs torch")
    # workload 7
    n7 = 512 if q else 4096
    for cls, dt, tol in (("single", torch.float32, 1e-4), ("double", torch.float64, 1e-10)):
        m = matfuse(bin_, "w7_matmul.m", {**env_runs, "BENCH_N": n7, "BENCH_CLASS": cls})
        r = m.get(("w7", cls), {})
        e = tw.w7(n7, dt, args.runs, False)
        c = tw.w7(n7, dt, args.runs, True)
        res[f"7 max(A*B*0.5+bias,0) ({cls}, {n7})"] = (r, e, c, -2 * n7**3, rel(r.get("value", math.nan), e[2]) < tol, f"checksum rel. tol. {tol:g} vs torch")
    # workload 8
    n8 = 1e5 if q else 1e6
    m = matfuse(bin_, "w8_cov.m", {**env_runs, "BENCH_N": n8, "BENCH_P": 64})
    r = m.get(("w8", "single"), {})
    e = tw.w8(int(n8), 64, args.runs)
    res[f"8 covariance ({n8:g} x 64, single)"] = (r, e, None, -2 * n8 * 64 * 64, rel(r.get("value", math.nan), e[2]) < 1e-4, "checksum rel. tol. 1e-4 vs torch")
    # workload 9
    m = matfuse(bin_, "w9_latency.m", {**env_runs, "BENCH_STATEMENTS": 1000})
    rd = m.get(("w9_device", "double"), {})
    rh = m.get(("w9_host", "double"), {})
    e = tw.w9(1000, args.runs)
    lat = {"device": rd, "host": rh, "torch": e}
    ok9 = rd.get("value") == 1001 and rh.get("value") == 1e6
    return write_gpu(args, t, res, lat, ok9, ceiling, torch, rounds, kernel_ms)


def rate(nbytes, seconds, ceiling):
    """Effective GB/s of moving nbytes in seconds, and its share of the copy ceiling."""
    return f"{nbytes / seconds / 1e9:.0f} ({100 * nbytes / seconds / ceiling:.0f}%)"


def fmt_ms(s):
    return f"{s * 1e3:.3f}" if s is not None else "-"


def write_gpu(args, t, res, lat, ok9, ceiling, torch, rounds, kernel_ms):
    dev = torch.cuda.get_device_name(0)
    try:
        drv = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True).stdout.strip()
    except OSError:
        drv = "?"
    lines = [
        "# Benchmark results",
        "",
        f"- date: {datetime.date.today().isoformat()}",
        f"- device: {dev}, driver {drv}; torch {torch.__version__}",
        f"- matfuse: `{args.bin}` (" + subprocess.run([args.bin, "--version"], capture_output=True, text=True).stdout.strip() + ")",
        f"- ceiling: device copy bandwidth {ceiling / 1e9:.0f} GB/s (1 GiB tensor copy, read + write, CUDA events)",
        f"- method: statements to the value on the host, median of {args.runs} runs after warm-up; eff. GB/s = minimum bytes the workload must move / median time. Times in ms. Workloads 1-3 and 6 alternate matfuse and torch.compile {args.rounds} times and keep each side's lowest median (every round's medians are listed below the table: the machine is shared and both sides vary from round to round).",
        "",
        "| workload | matfuse | torch eager | torch.compile | vs compile | vs eager | matfuse GB/s (% ceiling) | kernels/run | host<->device B/run | check |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, (r, e, c, nbytes, ok, what) in res.items():
        ms = r.get("ms_median", math.nan) / 1e3
        status = t.check(name, ok and bool(r), what)
        vs_c = f"{ms / c[0]:.2f}x" if c else "-"
        vs_e = f"{ms / e[0]:.2f}x"
        if nbytes > 0:
            speed = rate(nbytes, ms, ceiling)
        else:
            speed = f"{-nbytes / ms / 1e12:.2f} TFLOP/s"
        moved = f"{r.get('up', 0):.3g} / {r.get('down', 0):.3g}"
        lines.append(f"| {name} | {fmt_ms(ms)} | {fmt_ms(e[0])} | {fmt_ms(c[0]) if c else '-'} | {vs_c} | {vs_e} | {speed} | {r.get('kernels', math.nan):g} | {moved} | {status} |")
    d, h, e = lat["device"], lat["host"], lat["torch"]
    status = t.check("9 latency", ok9, "wrong sums")
    lines += [
        "",
        "| 9 latency | matfuse | torch eager |",
        "|---|---|---|",
        f"| statement on a 1x1 device value (1000 x `g = g + 1`, one gather) | {d.get('us_per_statement', math.nan):.2f} us ({d.get('kernels', math.nan):g} kernels) | {e[0] / 1000 * 1e6:.2f} us |",
        f"| host scalar statement (`s = s + 1`) | {h.get('us_per_statement', math.nan) * 1e3:.1f} ns | - |",
        f"| check | {status} | |",
        "",
        "| rounds: medians in ms | matfuse | torch.compile |",
        "|---|---|---|",
    ]
    for name, (mine, peer) in rounds.items():
        lines.append(f"| {name} | {', '.join(f'{v:.3f}' for v in mine)} | {', '.join(f'{v:.3f}' for v in peer)} |")
    lines += [
        "",
        "| GPU time alone in ms (matfuse: kernel timestamps; torch.compile: CUDA events; no launch or read-back) | matfuse | torch.compile | vs compile | matfuse GB/s (% ceiling) |",
        "|---|---|---|---|---|",
    ]
    for name, (mine, peer) in kernel_ms.items():
        nbytes = res[name][3]
        lines.append(f"| {name} | {mine:.3f} | {peer:.3f} | {mine / peer:.2f}x | {rate(nbytes, mine / 1e3, ceiling)} |")
    lines.append("")
    emit(args, t, lines)


def cpu(args):
    import numpy as np
    import time
    import statistics

    t = Table()
    n = int(1e6 if args.quick else 1e7)
    lines = ["# CPU half", "", f"- date: {datetime.date.today().isoformat()}",
             f"- machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; numpy {np.__version__}", "",
             "| workload | matfuse (CPU path) | NumPy | ratio | Octave | check |", "|---|---|---|---|---|---|"]
    for cls, dt, tol in (("single", np.float32, 1e-4), ("double", np.float64, 1e-9)):
        m = matfuse(args.bin, "cpu_w1.m", {"BENCH_RUNS": args.runs, "BENCH_N": n, "BENCH_CLASS": cls, "MATFUSE_DEVICE": "cpu"})
        r = m.get(("cpu_w1", cls), {})
        k = np.arange(1, n + 1, dtype=np.float64)
        x = (np.remainder(k * 7919, 10007) / 10007 * 4 - 2).astype(dt)
        ts = []
        for j in range(args.runs + 2):
            s = time.perf_counter()
            v = float((np.sin(x) * x + dt(0.5)).mean())
            if j >= 2:
                ts.append(time.perf_counter() - s)
        npt = statistics.median(ts)
        oc = "-"
        if shutil.which("octave-cli"):
            e = dict(os.environ, BENCH_RUNS=str(args.runs), BENCH_N=str(n), BENCH_CLASS=cls)
            p = subprocess.run(["octave-cli", "--no-gui", "-q", os.path.join(HERE, "workloads", "cpu_w1.m")],
                               env=e, capture_output=True, text=True)
            mo = re.search(r"ms_median=(\S+)", p.stdout)
            oc = f"{float(mo.group(1)):.2f} ms" if mo else "failed"
        ms = r.get("ms_median", math.nan)
        status = t.check(f"cpu w1 {cls}", rel(r.get("value", math.nan), v) < tol, f"rel. tol. {tol:g} vs NumPy")
        lines.append(f"| 1 sin.*x+0.5, mean ({cls}, {n:g}) | {ms:.2f} ms | {npt * 1e3:.2f} ms | {ms / 1e3 / npt:.2f}x | {oc} | {status} |")
    lines.append("")
    emit(args, t, lines)


def emit(args, t, lines):
    if t.failures:
        lines += ["**Failed checks:**", ""] + [f"- {f}" for f in t.failures] + [""]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    sys.exit(1 if t.failures else 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpu", action="store_true")
    ap.add_argument("--cpu", action="store_true")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "target", "release", "matfuse"))
    ap.add_argument("--out")
    args = ap.parse_args()
    args.bin = os.path.abspath(args.bin)
    if args.gpu:
        gpu(args)
    else:
        cpu(args)


if __name__ == "__main__":
    main()
