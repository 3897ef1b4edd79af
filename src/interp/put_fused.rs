//! `x(idx) = f(x(idx), ...)` with a pending right-hand side as one kernel: each thread
//! computes its value (reading `x` at its own position through the gather) and writes it
//! at that position, in place (`gpu::scatter::run_by_index`). Where the right-hand side
//! would otherwise be computed into an array of its own and then put, this reads the
//! positions once and writes no temporary.
//!
//! Taken only where that is the same as computing first and writing after: one device
//! index subscript whose positions are known to be distinct (no thread reads what another
//! writes), values of the array's class, one per position, reading the array only through
//! gathers at those same positions, and nothing else able to see the array or the pending
//! values (so no one reads the old array after it is written).

use super::put::Sub;
use crate::gpu::buffers::DeviceBuffer;
use crate::gpu::put::{self as gput, Repeats};
use crate::graph::{self, Data, Node, Pick, Precision};
use crate::plan::{Access, Group, Step};
use crate::values::class::Class;
use crate::values::device::DeviceValue;
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::rc::Rc;

/// Writes `rhs` into `old` (the data of `target`'s node `n`, a leaf) through `subs` in one
/// kernel where that is allowed: Some(Ok) when written (the caller then drops the old node's
/// data), Some(Err) when the device failed after choosing it, None to go the general way
/// (nothing was changed).
pub(super) fn write(
    target: &Rc<DeviceValue>,
    n: &Rc<Node>,
    old: &Rc<DeviceBuffer>,
    subs: &[Sub],
    rhs: &Value,
) -> Option<crate::interp::error::MResult<()>> {
    let [Sub::Device(positions, count, _)] = subs else {
        return None;
    };
    if !matches!(subs[0].as_put(), gput::Sub::Index(_, Repeats::None)) {
        return None;
    }
    let Value::Device(values) = rhs else {
        return None;
    };
    let root = &values.node;
    // Pending values of the array's class, one per position, held by nothing but `rhs`.
    if root.is_realised()
        || !matches!(n.class, Class::Double | Class::Single)
        || root.class != n.class
        || root.numel() != *count
        || *count < 2
        || Rc::strong_count(values) != 1
        || Rc::strong_count(root) != 1
    {
        return None;
    }
    // The array: a leaf's whole buffer, held by its node and `old` alone, and not the
    // positions' own.
    if !n.inputs.is_empty()
        || !Rc::ptr_eq(&target.node, n)
        || Rc::strong_count(target) != 1
        || old.parent.is_some()
        || old.offset != 0
        || Rc::strong_count(old) != 2
        || gput::shares(positions, old)
    {
        return None;
    }
    // One scatter binds the array and the values' inputs whole.
    let device = crate::gpu::device::ready()?;
    let window = crate::gpu::kernels::window_elements(device);
    if *count > window || old.len > window {
        return None;
    }
    let mut g = crate::plan::group(root);
    g.precision = Precision::of(n.class);
    if g.error.is_some() || !g.regions.is_empty() || !crate::plan::gpu_can_run(&g) {
        return None;
    }
    let index = match reads_only_at(&g, old, positions)? {
        Some(k) => k,
        // Values that do not read the array bind the positions as one more input.
        None => {
            let class = match positions.precision {
                Precision::F64 => Class::Double,
                Precision::F32 => Class::Single,
            };
            let leaf = graph::leaf(Data::Device(positions.clone()), Shape::col(*count), class);
            g.leaves.push(leaf);
            g.inputs.push(Access::Same);
            g.bindings.push(positions.precision);
            g.leaves.len() - 1
        }
    };
    // Nothing but the pending values may see the array: `target`, the caller's `n` and the
    // group's leaves are the other references to its node.
    let held = 2 + g.leaves.iter().filter(|l| Rc::ptr_eq(l, n)).count();
    if !crate::plan::in_place::unseen(root, n, held) {
        return None;
    }
    crate::plan::gathers::forget(old);
    match crate::gpu::scatter::run_by_index(&g, old, index) {
        Ok(()) => Some(Ok(())),
        Err(e) if e.identifier() == crate::gpu::buffers::OOM => Some(Err(e)),
        // Nothing was written: the general way.
        Err(_) => None,
    }
}

/// Where every read of `array` in `g` is a gather at `positions` (one index subscript, read
/// element for element) and `array` is read no other way: the input holding the positions
/// (Some(None) when `g` does not read them). None otherwise.
fn reads_only_at(
    g: &Group,
    array: &DeviceBuffer,
    positions: &Rc<DeviceBuffer>,
) -> Option<Option<usize>> {
    let data_of = |k: usize| match &*g.leaves.get(k)?.data.borrow() {
        Some(Data::Device(b)) => Some(b.clone()),
        _ => None,
    };
    let is_array = |k: usize| data_of(k).is_some_and(|b| std::ptr::eq(&*b, array));
    // Another view of the array's buffer would be bound beside the output.
    if (0..g.leaves.len())
        .any(|k| data_of(k).is_some_and(|b| !std::ptr::eq(&*b, array) && gput::shares(&b, array)))
    {
        return None;
    }
    if g.steps
        .iter()
        .any(|s| matches!(s, Step::Input(k) if is_array(*k)))
    {
        return None;
    }
    let mut index = None;
    for plan in &g.gathers {
        if !is_array(plan.source) {
            continue;
        }
        let [sub] = plan.subs.as_slice() else {
            return None;
        };
        let k = sub.input?;
        let at_positions = data_of(k).is_some_and(|b| Rc::ptr_eq(&b, positions));
        if !matches!(sub.pick, Pick::Index)
            || sub.stride != 1
            || !at_positions
            || g.inputs[k] != Access::Same
        {
            return None;
        }
        index = Some(k);
    }
    Some(index.or_else(|| {
        (0..g.leaves.len()).find(|&k| {
            g.inputs[k] == Access::Same && data_of(k).is_some_and(|b| Rc::ptr_eq(&b, positions))
        })
    }))
}
