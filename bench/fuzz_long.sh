#!/bin/sh
# The long fuzz campaign of issue 26 (not part of cargo test): FUZZ_INPUTS inputs (default
# 1e6) from FUZZ_SEED (default 2026), single-threaded and at low priority; prints the counts
# (crashes, hangs, internal errors, workspace losses, bad exits) and the slowest input.
set -e
cd "$(dirname "$0")/.."
CARGO_PROFILE_RELEASE_INCREMENTAL=true flock /tmp/cargo.lock cargo test --release --test fuzz --no-run
exec nice -n 19 cargo test --release --test fuzz fuzz_long -- --ignored --nocapture --test-threads=1
