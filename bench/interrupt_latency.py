#!/usr/bin/env python3
"""Ctrl-C latency of long statements (issue 26: Ctrl-C must stop anything within 100 ms).

Usage: python3 bench/interrupt_latency.py bench/interrupt_cases.txt
Each line of the case file is `setup ;; statement` (`RAW:` before a statement runs it as
written instead of as `y = statement;`). matfuse reads the script from standard input on a
pseudo-terminal; SIGINT comes DELAYS seconds (comma-separated, default 0.3) after the
statement starts, and the time from the signal to MATLAB's "Operation terminated by user" is
printed per delay. A delay of -1 runs the statement to its end and prints how long it ran.
BIN picks the binary (default target/release/matfuse); MATFUSE_DEVICE=cpu keeps the work on
the host."""
import os, sys, time, signal, subprocess, select, pty
BIN = os.environ.get("BIN", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "matfuse"))
DELAY = float(os.environ.get("DELAY", "0.3"))

def measure(setup, stmt, timeout=60):
    global DELAY
    body = stmt[4:] if stmt.startswith("RAW:") else f"y = {stmt};"
    script = f"{setup}\nfprintf(2, 'GO\\n');\n{body}\nfprintf(2, 'DONE%d\\n', exist('y'));\n"
    master, slave = pty.openpty()
    p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=slave, stderr=slave, env=os.environ)
    os.close(slave)
    p.stdin.write(script.encode()); p.stdin.close()
    buf = b""; t_sig = None; t_go = None; result = None
    t0 = time.time()
    while True:
        if time.time() - t0 > timeout:
            result = "TIMEOUT"; break
        wait = 0.005
        r, _, _ = select.select([master], [], [], wait)
        if r:
            try:
                d = os.read(master, 65536)
            except OSError:
                d = b""
            if not d:
                result = "FINISHED-BEFORE-SIGNAL" if t_sig is None and b"DONE" in buf else "EOF"; break
            buf += d
        if t_go is None and b"GO\n" in buf.replace(b"\r", b""):
            t_go = time.time()
        if t_go and b"Error" in buf.split(b"GO", 1)[-1] and b"terminated" not in buf:
            line = [l for l in buf.decode(errors="replace").splitlines() if "Error" in l][-1:]
            result = f"ERROR {line[0].strip()[:60] if line else ''}"; break
        if t_go and DELAY < 0 and b"DONE" in buf:
            result = f"ran {(time.time() - t_go) * 1000:.0f} ms"; break
        if t_go and t_sig is None and DELAY >= 0 and time.time() - t_go >= DELAY:
            if b"DONE" in buf:
                result = "FINISHED-BEFORE-SIGNAL"; break
            p.send_signal(signal.SIGINT); t_sig = time.time()
        if t_sig and b"terminated" in buf:
            result = f"{(time.time() - t_sig) * 1000:.0f} ms"; break
        if t_sig and b"DONE" in buf:
            result = f"NOT-INTERRUPTED done {(time.time() - t_sig) * 1000:.0f} ms after signal"; break
    try:
        p.kill()
    except Exception:
        pass
    p.wait()
    os.close(master)
    return result, buf.decode(errors="replace")[-300:]

cases = [l.split(" ;; ") for l in open(sys.argv[1]).read().splitlines() if l.strip() and not l.startswith("#")]
delays = [float(d) for d in os.environ.get("DELAYS", "0.3").split(",")]
for setup, stmt in cases:
    rs = []
    for d in delays:
        DELAY = d
        r, tail = measure(setup, stmt)
        rs.append(r)
        if os.environ.get("V"): print(tail)
    print(f"{' | '.join(rs):>40}  {stmt}   [{setup[:40]}]", flush=True)
