#!/usr/bin/env python3
"""bench/run-cpu.sh: the host engine's rows (bench/cpu/rows.m) on matfuse (MATFUSE_DEVICE=cpu),
NumPy and GNU Octave, at 1e5, 1e6 and 1e7 elements, single and double, the three alternating
size by size in one run; medians of --runs timed runs after a warm-up; every checksum compared
with NumPy's. Then the doubling rows (n, 2n, 4n, 8n) for the order of growth. Writes
bench/RESULTS-cpu.md."""
import argparse
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rows as np_rows  # noqa: E402

ELEMENTWISE = "sum,maxi,any,std,sinx,chain,sumchain,expchain,stencil,bcast,diff,sort,ismember,unique,iadd,iscale,icmp"
NEW = "cumsum,cumprod,absqrt,explog,meanrows,varrows,mask,find,mincols,maxrows,matvec,pow3,modfloor,ieq,repmat,sumcols,gather"
LABEL = {
    "cumsum": "cumsum(x)", "cumprod": "cumprod(1 + x/n)", "absqrt": "sqrt(abs(x - 0.5)) + abs(x)", "explog": "log(exp(x) + 1)",
    "meanrows": "mean(A, 2) (sqrt(n) rows)", "varrows": "var(A, 0, 2)", "mask": "x(x > 0.5)", "find": "find(x > 0.5)",
    "mincols": "[m, i] = min(A, [], 1)", "maxrows": "max(A, [], 2)", "matvec": "A' * b (sqrt(n) rows)", "pow3": "x.^3",
    "modfloor": "mod(floor(x*1000), 7)", "ieq": "a == b int32", "repmat": "repmat(r, sqrt(n), 1)", "sumcols": "sum(A, 1)", "gather": "x(idx), idx a permutation",
    "sum": "sum(x)", "maxi": "[m, i] = max(x)", "any": "any(x > t)", "std": "std(x)",
    "sinx": "y = sin(x).*x + 0.5", "chain": "11-op chain", "sumchain": "sum(sin(x).*x + 0.5)",
    "expchain": "exp(-x.*x).*cos(3*x) + log(x + 1)", "stencil": "5 steps u(2:end-1) = u(2:end-1) + r*(u(1:end-2) - 2u(2:end-1) + u(3:end))", "bcast": "column + row broadcast (sqrt(n) each)",
    "diff": "x(2:end) - x(1:end-1)", "sort": "sort(x)", "ismember": "ismember(a, b) int32",
    "intersect": "intersect(a, b) (16,000 double)", "unique": "unique(a) int32",
    "grow": "x(end+1) = i, n times", "iadd": "a + b int32", "iscale": "a * 3 int32", "icmp": "a > k int32", "strcat": "s = [s 'ab'], n times", "matmul": "A*B (sqrt(n) square)",
}


def run_m(cmd, n, cls, runs, want, env_extra):
    env = dict(os.environ)
    env.update({"BENCH_N": str(int(n)), "BENCH_CLASS": cls, "BENCH_RUNS": str(runs), "BENCH_ROWS": want})
    env.update(env_extra)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=3600)
    out = {}
    for line in p.stdout.splitlines():
        m = re.match(r"ROW (\S+) (\S+) (\S+)", line)
        if m:
            out[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    if not out:
        sys.stderr.write(f"{cmd[0]} printed no rows:\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}\n")
    return out


def close(a, b, cls):
    tol = 2e-3 if cls == "single" else 1e-7
    return abs(a - b) <= tol * max(abs(b), 1.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="./target/release/matfuse")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", default="bench/RESULTS-cpu.md")
    ap.add_argument("--sizes", default="1e5,1e6,1e7")
    ap.add_argument("--no-octave", action="store_true")
    ap.add_argument("--no-doubling", action="store_true")
    ap.add_argument("--rows", default=None, help="comma-separated rows (default: all) and no doubling runs")
    args = ap.parse_args()
    script = os.path.join(HERE, "rows.m")
    octave = None if args.no_octave else shutil.which("octave")
    tools = [("matfuse", lambda n, c, w: run_m([args.bin, script], n, c, args.runs, w, {"MATFUSE_DEVICE": "cpu"}))]
    tools.append(("numpy", lambda n, c, w: np_rows.run(int(n), c, args.runs, w)))
    if octave:
        tools.append(("octave", lambda n, c, w: run_m([octave, "--no-gui", "--quiet", "--no-window-system", script], n, c, args.runs, w, {})))
    results = []  # (row, n, cls, {tool: (ms, checksum)})
    for n in [float(s) for s in args.sizes.split(",")]:
        want = ELEMENTWISE + "," + NEW + (",matmul" if n <= 1e6 else "") + (",grow,strcat,intersect" if n <= 1e5 else "")
        if args.rows:
            want = args.rows
        for cls in ("single", "double"):
            got = {name: f(n, cls, want) for name, f in tools}
            for row in want.split(","):
                results.append((row, n, cls, {t: got[t].get(row) for t, _ in tools}))
            print(f"done n={n:g} {cls}", file=sys.stderr)
    # doubling: the order of growth, matfuse and NumPy
    dbl = {}
    for row, base in () if args.rows or args.no_doubling else (("grow", 25000), ("strcat", 25000), ("sort", 250000), ("ismember", 250000), ("unique", 250000), ("intersect", 2000)):
        for k in range(4):
            n = base * 2**k
            if row == "intersect":
                # intersect's sets are capped at 16,000 in rows.m; scale the cap with n
                pass
            m = run_m([args.bin, script], n, "double", args.runs, row, {"MATFUSE_DEVICE": "cpu"}).get(row)
            dbl.setdefault(row, []).append((n, m[0] if m else float("nan")))
    write(args, results, dbl, [t for t, _ in tools])


def write(args, results, dbl, tools):
    import numpy
    ver = subprocess.run([args.bin, "--version"], capture_output=True, text=True).stdout.strip()
    lines = [
        "# CPU half: the host engine",
        "",
        f"- date: {datetime.date.today().isoformat()}",
        f"- machine: {platform.machine()}, {os.cpu_count()} cores (shared with other builds: medians, not minima); numpy {numpy.__version__}"
        + ("; " + subprocess.run(["octave", "--version"], capture_output=True, text=True).stdout.splitlines()[0] if "octave" in tools else ""),
        f"- matfuse: `{args.bin}` ({ver}), MATFUSE_DEVICE=cpu",
        f"- method: bench/cpu/rows.m (matfuse and Octave run the same file) and bench/cpu/rows.py (NumPy), the three alternating size by size; median of {args.runs} timed runs after one warm-up, ms; every checksum compared with NumPy's (rel. 2e-3 single, 1e-7 double). ratio = matfuse / peer (below 1: matfuse faster).",
        "",
        "| operation | n | class | matfuse | NumPy | vs NumPy | Octave | vs Octave | check |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    bad = 0
    for row, n, cls, r in results:
        mf, npy, oc = r.get("matfuse"), r.get("numpy"), r.get("octave")
        def cell(x):
            return (f"{x[0]:.3f}" if x[0] < 1 else f"{x[0]:.2f}") if x else "-"
        def ratio(a, b):
            return f"{a[0] / b[0]:.2f}x" if a and b and b[0] > 0 else "-"
        ok = bool(mf and npy and close(mf[1], npy[1], cls))
        if oc and mf and not close(mf[1], oc[1], cls):
            ok = False
        bad += not ok
        lines.append(f"| {LABEL[row]} | {n:g} | {cls} | {cell(mf)} | {cell(npy)} | {ratio(mf, npy)} | {cell(oc)} | {ratio(mf, oc)} | {'ok' if ok else 'WRONG'} |")
    lines += ["", "## Doubling n (matfuse, double): time per doubling (2.0 = linear, ~2.1 = n log n, 4 = quadratic)", "",
              "| row | n | ms | x per doubling |", "|---|---|---|---|"]
    for row, pts in dbl.items():
        prev = None
        for n, ms in pts:
            lines.append(f"| {LABEL[row]} | {n:g} | {ms:.2f} | {ms / prev:.2f} |" if prev else f"| {LABEL[row]} | {n:g} | {ms:.2f} | - |")
            prev = ms
    with open(args.out, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    if bad:
        print(f"{bad} rows with a wrong or missing result", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
