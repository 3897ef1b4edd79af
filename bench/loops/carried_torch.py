# PyTorch eager for bench/loops/carried.m: the EMA with a running sum and maximum.
import time, torch
n, steps, runs = 10**6, 512, 7
X = torch.rand(steps, n, device="cuda")  # rows: PyTorch reads X[t] contiguously
a = 0.05
def run():
    y = torch.zeros(n, device="cuda"); acc = torch.zeros((), device="cuda"); m = torch.full((), -float("inf"), device="cuda")
    for t in range(steps):
        y = a * X[t] + (1 - a) * y
        acc = acc + y.sum(); m = torch.maximum(m, y.max())
    return acc.item(), m.item()
tm = []
for j in range(runs + 2):
    torch.cuda.synchronize(); t0 = time.perf_counter(); v = run(); tm.append(time.perf_counter() - t0)
tm = sorted(tm[2:])
print(f"RESULT carried-eager ema_sum_max ms_median={tm[len(tm)//2]*1e3:.3f} acc={v[0]:.6g} max={v[1]:.6g}")
