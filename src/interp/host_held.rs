//! gpuArrays larger than one device buffer, held on the host. The driver caps one buffer
//! (gpuDevice's MaxBufferSize: 2 GiB on lavapipe, 4 GiB on the NVIDIA cards we measure on)
//! far below the card's memory, and a gpuArray is one buffer. Past the cap the array keeps
//! its class (gpuArray, `isgpuarray`, `existsOnGPU` true: the data exists and is usable, it
//! was not lost to a reset) while its data lives on the host: a `DeviceValue` whose node is,
//! or will be, `graph::Data::Host`. Nothing new is stored to say so; the size says it.
//!
//! Every operation with such an input runs on the host. Elementwise chains, reductions,
//! views, concatenation and gathers still go into the lazy graph, and the planner runs a
//! group whose result or input passes the cap on the host executor (fused, on all cores:
//! `plan::host_reason`); every other builtin reads the host data (`lower::host_args`, no
//! copy) and its results are gpuArrays again (`lower::rewrap`), held on the host when they
//! are past the cap too and ordinary gpuArrays (uploaded when a kernel first reads them)
//! when they fit. Constructors and uploads past the cap make one instead of failing, and
//! the first one in a session warns (`ID`), naming the cap: it runs at host speed.

use crate::graph::{Data, Node, Precision};
use crate::values::class::Class;
use crate::values::value::Value;
use std::cell::Cell;

/// The warning's identifier.
pub const ID: &str = "parallel:gpu:array:HostHeld";

/// The largest buffer of a device that takes arrays (none: no device, or offload off).
fn limit() -> Option<u64> {
    let dev = crate::gpu::device::ready()?;
    crate::gpu::offload_allowed().then_some(dev.info.max_buffer_size)
}

/// Whether an array of `numel` elements of `class` is past one device buffer on a device that
/// would otherwise hold it (so it is held on the host instead).
pub fn exceeds(numel: usize, class: Class) -> bool {
    let Some(dev) = crate::gpu::device::ready() else {
        return false;
    };
    let bytes = numel as u128 * Precision::of(class).bytes() as u128;
    super::lower::device_takes(dev, class, numel) && bytes > dev.info.max_buffer_size as u128
}

/// Whether a graph node is (or, pending, will be) held on the host by its size.
pub fn node(n: &Node) -> bool {
    !matches!(&*n.data.borrow(), Some(Data::Device(_))) && exceeds(n.numel(), n.class)
}

/// Whether a value is a gpuArray held on the host.
pub fn is(v: &Value) -> bool {
    match v {
        Value::Device(d) => d.explicit && node(&d.node),
        // a complex gpuArray is two real arrays, each its own buffer
        Value::DeviceComplex(z) => node(&z.re) || node(&z.im),
        _ => false,
    }
}

/// Whether any of `args` is one.
pub fn any(args: &[Value]) -> bool {
    args.iter().any(is)
}

/// Why a group runs on the host when its result or an input is past one buffer (for
/// `plan::host_reason`, and so `explain`).
pub fn group_reason(out_bytes: u64, leaf_bytes: impl Iterator<Item = u64>) -> Option<String> {
    let limit = limit()?;
    let mut all = std::iter::once(out_bytes).chain(leaf_bytes);
    all.any(|b| b > limit).then(|| {
        format!(
            "an array in it is larger than one device buffer (MaxBufferSize, {limit} bytes): \
             it is held on the host"
        )
    })
}

thread_local! {
    static WARNED: Cell<bool> = const { Cell::new(false) };
}

/// Notes that a gpuArray of `numel` elements of `class` is being made on the host: the
/// first one in a session prints the warning.
pub fn made(numel: usize, class: Class) {
    if !exceeds(numel, class) || WARNED.with(|w| w.replace(true)) {
        return;
    }
    let Some(limit) = limit() else {
        return;
    };
    let bytes = numel as u128 * Precision::of(class).bytes() as u128;
    super::warning::emit(
        ID,
        &format!(
            "A gpuArray of {numel} elements ({bytes} bytes) is larger than the largest buffer \
             this device allows (MaxBufferSize in gpuDevice: {limit} bytes). It is held in host \
             memory and operations on it run on the host; it is still a gpuArray. (Shown once \
             per session.)"
        ),
    );
}
