#!/usr/bin/env bash
# Reading and writing a 1e6-line text file of numbers: fscanf, textscan, readmatrix, fgetl in
# a loop, writematrix; beside NumPy's loadtxt/savetxt and GNU Octave where they are installed.
# Usage: bash bench/file_io.sh [lines]   (run from the repository root after a release build)
set -euo pipefail
N=${1:-1000000}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
python3 - "$DIR" "$N" <<'PY'
import random, sys
d, n = sys.argv[1], int(sys.argv[2])
random.seed(1)
with open(f"{d}/big.txt", "w") as f:
    for i in range(n):
        f.write("%d %.6f %d\n" % (i, random.random(), random.randint(0, 1000)))
with open(f"{d}/big.csv", "w") as f:
    f.write("a,b,c\n")
    for i in range(n):
        f.write("%d,%.6f,%d\n" % (i, random.random(), random.randint(0, 1000)))
PY
cat > "$DIR/bench.m" <<'M_END'
tic; fid = fopen('big.txt'); A = fscanf(fid, '%f', [3 Inf]); fclose(fid); fprintf('fscanf      %.3f s\n', toc);
tic; fid = fopen('big.txt'); C = textscan(fid, '%d %f %d'); fclose(fid); fprintf('textscan    %.3f s\n', toc);
tic; M = readmatrix('big.csv'); fprintf('readmatrix  %.3f s\n', toc);
tic; n = 0; fid = fopen('big.txt'); l = fgetl(fid); while ischar(l), n = n + 1; l = fgetl(fid); end; fclose(fid); fprintf('fgetl loop  %.3f s\n', toc);
tic; writematrix(M, 'out.csv'); fprintf('writematrix %.3f s\n', toc);
M_END
echo "matfuse ($N lines):"
(cd "$DIR" && "$OLDPWD/target/release/matfuse" bench.m)
if python3 -c 'import numpy' 2>/dev/null; then
    echo "NumPy:"
    (cd "$DIR" && python3 - <<'PY'
import time, numpy as np
t = time.time(); A = np.loadtxt('big.txt'); print('loadtxt     %.3f s' % (time.time() - t))
t = time.time(); M = np.loadtxt('big.csv', delimiter=',', skiprows=1); print('loadtxt csv %.3f s' % (time.time() - t))
t = time.time(); np.savetxt('out_np.csv', M, delimiter=',', fmt='%.15g'); print('savetxt     %.3f s' % (time.time() - t))
PY
)
fi
if command -v octave-cli >/dev/null; then
    echo "GNU Octave:"
    (cd "$DIR" && octave-cli -q --eval "tic; fid = fopen('big.txt'); A = fscanf(fid, '%f', [3 Inf]); fclose(fid); fprintf('fscanf      %.3f s\n', toc); tic; fid = fopen('big.txt'); C = textscan(fid, '%d %f %d'); fclose(fid); fprintf('textscan    %.3f s\n', toc); tic; M = dlmread('big.csv', ',', 1, 0); fprintf('dlmread     %.3f s\n', toc);")
fi
