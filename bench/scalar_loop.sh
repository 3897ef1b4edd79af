#!/usr/bin/env bash
# Runs the scalar-loop benchmark on matfuse and on GNU Octave (if installed) in the same run,
# best of 3 each, and prints the per-iteration ratio.
#   bench/scalar_loop.sh [path/to/matfuse]
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../target/release/matfuse}
best() { # best ns/iter of three runs of "$@"
    for _ in 1 2 3; do "$@" 2>/dev/null | grep -o '^[0-9.]* ns/iter' | cut -d' ' -f1; done | sort -g | head -1
}
mf=$(N=10000000 best "$bin" scalar_loop.m)
echo "matfuse: $mf ns/iter (1e7 iterations)"
if command -v octave-cli >/dev/null; then
    oc=$(N=1000000 best octave-cli --no-gui -q scalar_loop.m)
    echo "octave:  $oc ns/iter (1e6 iterations, $(octave-cli --version | head -1))"
    echo "ratio:   $(python3 -c "print(f'{$oc/$mf:.1f}x faster per iteration')")"
else
    echo "octave not installed: apt-get install -y octave to compare"
fi
