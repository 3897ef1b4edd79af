//! Large arrays of one value on the device (`zeros(n, 1, 'gpuArray')`, `5 * ones(..., 'like',
//! g)`) as pending fills: `v .* 1` over the array's shape, two constants and no input, made
//! where they are used (fused into the kernel that reads them) instead of uploaded. -0 and
//! NaN keep their bits.

use super::lower::{constant, device_takes, pending};
use crate::graph::{self, Op};
use crate::values::class::Class;
use crate::values::ops::Bin;
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

/// Elements an array needs to become a fill (smaller ones are uploaded as they are).
const MIN_ELEMENTS: usize = 4096;

/// `value` over `shape` as a pending fill.
fn node(value: f64, shape: Shape, class: Class) -> Value {
    let node = graph::intern(
        Op::Binary(Bin::Mul),
        vec![constant(value, class), constant(1.0, class)],
        shape,
        class,
    );
    pending(node, true)
}

/// A host array as a fill, when it is large and every element is the same.
pub fn uniform(t: &Tensor) -> Option<Value> {
    use crate::values::tensor::Data as T;
    if t.numel() < MIN_ELEMENTS || t.is_complex() {
        return None;
    }
    // Compared as stored: a fill is known before any value is converted or copied (zeros
    // of a million singles took 6 to 14 ms through a double copy of them).
    let first = t.get_f64(0);
    let uniform = match &t.data {
        T::F64(v) => v.iter().all(|x| x.to_bits() == v[0].to_bits()),
        T::F32(v) => v.iter().all(|x| x.to_bits() == v[0].to_bits()),
        T::Bool(v) => v.iter().all(|&x| x == v[0]),
        _ => t.to_f64().iter().all(|x| x.to_bits() == first.to_bits()),
    };
    uniform.then(|| node(first, t.shape.clone(), t.class()))
}

/// An array asked for on the device that is larger than one device buffer may be is held
/// on the host (`interp::host_held`): the first such array in a session warns.
pub fn check_fits(numel: usize, class: Class) {
    super::host_held::made(numel, class);
}

/// A constructor's array of one value asked for on the device as a fill, made without a host
/// copy of its values; None where `to_device` would not make it one (small, no device, a
/// precision the device lacks, offload off).
pub fn on_device(value: f64, shape: &Shape, class: Class) -> Option<Value> {
    let dev = crate::gpu::device::ready()?;
    let takes = shape.numel() >= MIN_ELEMENTS && device_takes(dev, class, shape.numel());
    takes.then(|| node(value, shape.clone(), class))
}
