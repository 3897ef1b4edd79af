#!/usr/bin/env bash
# Issue 4's first GPU-machine measurement, in one command on the GPU machine (from the
# checkout shipped there with the prepared .gl and the release binary):
#   source .gl/setup.sh; bash bench/headline-gpu.sh
# The NVIDIA Vulkan driver also needs the GL dispatch libraries beside the loader in .gl
# (without them: "Could not get vkCreateInstance ... libGLX_nvidia.so.0"); fetch once, here:
#   (cd .gl && apt-get -oAPT::Architecture=amd64 download libglvnd0 libglx0 libegl1 libgl1)
# Prints the device, the calibration (device copy bandwidth: the ceiling), the headline
# y = sin(x).*x + 0.5; m = mean(y) over 1e8 singles, and the accuracy of the device functions.
set -euo pipefail
bin=${MATFUSE_BIN:-./target/release/matfuse}
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/matfuse-cache}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || true
"$bin" -e "gpuCalibrate"
"$bin" bench/headline.m
# Without a calibration host arrays below 2^20 elements stay on the host, so the reference
# values in accuracy.m are the host evaluator's.
XDG_CACHE_HOME=$(mktemp -d) "$bin" bench/accuracy.m
