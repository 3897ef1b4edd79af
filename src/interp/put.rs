//! Indexed assignment into device values that ranges and single-valued masks do not cover
//! (those are pending embeds and selects, `slices`): index vectors with many values
//! (`x(idx) = vals`, `A(rows, cols) = V`, host or device subscripts, repeated positions
//! resolved as MATLAB does, the last write winning), masks with a value per true element
//! (`x(mask) = vals`), and assignments that grow the array (`x(end+1) = v`, `x(n+5) = v`
//! zero-filled, `A(end+1, :) = row`). Each runs as kernels over the written elements (a copy
//! of the old array first, unless nothing else can see it: then it is written in place, and
//! a growing vector keeps its buffer while the buffer's spare capacity lasts, so appending in
//! a loop is not quadratic). Nothing is read back but a device mask's count and one value
//! checking device indices. Forms not taken (and every wrong subscript, size or class) are
//! given back for the general path, which reports MATLAB's error and keeps the workspace.

pub(super) use super::put_subs::{Sub, Subscripts, resolve, resolve_growing};
use crate::gpu::buffers::DeviceBuffer;
use crate::gpu::put::{self as gput, Values};
use crate::graph::{self, Data, folded_sizes};
use crate::values::class::Class;
use crate::values::device::DeviceValue;
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::rc::Rc;

/// What an assignment on the device came to.
pub enum Outcome {
    Done(Value),
    /// Not a form taken here: the operands back, untouched.
    Declined(Rc<DeviceValue>, Value),
    /// The device failed after the assignment began (the old value is given back where it
    /// still exists).
    Failed(super::error::MError, Option<Value>),
}

/// The device buffer holding a computed node's data.
pub(super) fn buffer_of(n: &graph::Node) -> Option<Rc<DeviceBuffer>> {
    match &*n.data.borrow() {
        Some(Data::Device(b)) => Some(b.clone()),
        _ => None,
    }
}

/// `target`'s data computed on the device, or None (no device, data on the host, too large).
pub(super) fn device_data(target: &DeviceValue) -> Option<(Rc<graph::Node>, Rc<DeviceBuffer>)> {
    crate::gpu::device::ready()?;
    let n = graph::memory::settled(&target.node);
    if n.numel() == 0 || n.numel() > u32::MAX as usize / 2 {
        return None;
    }
    crate::plan::realise(&n).ok()?;
    let n = graph::memory::settled(&n);
    let b = buffer_of(&n)?;
    Some((n, b))
}

/// Whether the buffer under `target` is seen by nothing but `target` (so it may be written
/// in place): the value, its node and the buffer are each held once (`held` more references
/// to the buffer are the caller's).
pub(super) fn private(target: &Rc<DeviceValue>, held: usize) -> bool {
    let node = &target.node;
    let Some(b) = buffer_of(node) else {
        return false;
    };
    Rc::strong_count(target) == 1
        && Rc::strong_count(node) == 1
        && node.settled_leaf.borrow().upgrade().is_none()
        && b.parent.is_none()
        && b.offset == 0
        // this function's `b`, the node's data, and the caller's
        && Rc::strong_count(&b) == 2 + held
}

/// A device value over a computed buffer.
pub(super) fn value_of(buf: Rc<DeviceBuffer>, shape: Shape, class: Class, explicit: bool) -> Value {
    let node = graph::leaf(Data::Device(buf), shape, class);
    Value::Device(Rc::new(DeviceValue { node, explicit }))
}

/// The shape an assignment with `k` subscripts of `needs` extents grows an array of `shape`
/// to, or None when it does not grow it; `Some(None)` when it would grow it in a way not taken
/// here (the general path grows it or reports MATLAB's error).
pub(super) fn grown(shape: &Shape, needs: &[usize]) -> Option<Option<Shape>> {
    let k = needs.len();
    let sizes = folded_sizes(shape, k);
    if needs.iter().zip(&sizes).all(|(n, s)| n <= s) {
        return None;
    }
    if k == 1 {
        let need = needs[0];
        if shape.ndims() != 2 || !(shape.dim(0) == 1 || shape.dim(1) == 1) {
            return Some(None);
        }
        return Some(Some(if shape.dim(0) == 1 {
            Shape::row(need)
        } else {
            Shape::col(need)
        }));
    }
    if k < shape.ndims() {
        return Some(None);
    }
    let dims: Vec<usize> = (0..k).map(|d| shape.dim(d).max(needs[d])).collect();
    Some(Some(Shape::new(&dims)))
}

/// `target(args) = rhs` on the device, or the operands back.
pub fn assign(target: Rc<DeviceValue>, args: &[Value], rhs: Value) -> Outcome {
    // (the statement's subscripts and right-hand side, evaluated)
    crate::gpu::trace("assignment: operands");
    if args.is_empty() || !takes_rhs(&rhs) {
        return Outcome::Declined(target, rhs);
    }
    if target.node.numel() == 0 {
        return super::put_empty::assign(target, args, rhs);
    }
    write(target, Subscripts::Values(args), rhs)
}

/// `target(region) = rhs` on the device where the region's ranges reach past the array's
/// end (`x(end+1:end+m) = w`), its subscripts known as progressions: no index array is made
/// or checked element by element (that was most of an append of 1e5 values).
pub fn assign_ranges(target: Rc<DeviceValue>, region: &graph::Region, rhs: Value) -> Outcome {
    crate::gpu::trace("assignment: operands");
    if region.dims.is_empty() || !takes_rhs(&rhs) || target.node.numel() == 0 {
        return Outcome::Declined(target, rhs);
    }
    write(target, Subscripts::Ranges(&region.dims), rhs)
}

/// The assignment itself, its operands checked as far as their kind goes.
fn write(target: Rc<DeviceValue>, subscripts: Subscripts<'_>, rhs: Value) -> Outcome {
    let Some((n, old)) = device_data(&target) else {
        return Outcome::Declined(target, rhs);
    };
    crate::gpu::trace("assignment: target's data");
    let class = n.class;
    let Some(rhs_class) = rhs.num_class() else {
        return Outcome::Declined(target, rhs);
    };
    if super::slices::assigned_class(class, rhs_class) != Some(class) {
        return Outcome::Declined(target, rhs);
    }
    let k = subscripts.len();
    let sizes = folded_sizes(&n.shape, k);
    let Some((subs, needs)) = subscripts.resolve(&sizes) else {
        return Outcome::Declined(target, rhs);
    };
    crate::gpu::trace("assignment: subscripts resolved");
    let counts: Vec<usize> = subs.iter().map(Sub::count).collect();
    let total: usize = counts.iter().product();
    // More than two index subscripts are written through one linear index of host positions
    // (`linearised`); with one of them on the device, the general path does it.
    let indices = subs
        .iter()
        .filter(|s| !matches!(s, Sub::Range { .. }))
        .count();
    let device_index = subs.iter().any(|s| matches!(s, Sub::Device(..)));
    if indices > 2 && (device_index || total > MAX_LINEAR) {
        return Outcome::Declined(target, rhs);
    }
    if total == 0 && rhs.numel() <= 1 {
        // Nothing assigned: the array as it is.
        drop(n);
        return Outcome::Done(Value::Device(target));
    }
    if total == 0 || !super::slices::fills(&rhs.shape(), &counts, k == 1) {
        return Outcome::Declined(target, rhs);
    }
    let new_shape = match grown(&n.shape, &needs) {
        None => n.shape.clone(),
        Some(Some(s)) => s,
        Some(None) => return Outcome::Declined(target, rhs),
    };
    // grown past one device buffer: the host writes it and it is held there (`host_held`)
    if super::host_held::exceeds(new_shape.numel(), class) {
        return Outcome::Declined(target, rhs);
    }
    if plan_only() {
        let how = if new_shape != n.shape {
            "grows the array"
        } else {
            "writes the assigned elements"
        };
        let marked = rhs.numel() != 1 && subs.iter().any(Sub::marked);
        let marks = if marked {
            "; a first kernel marks repeated positions, so the last write wins"
        } else if indices > 0 {
            "; positions known to be distinct, or one value for all: no marks"
        } else {
            ""
        };
        let copy = if new_shape != n.shape {
            "; the old array copied into the larger one on the GPU, or kept in its buffer"
        } else {
            ""
        };
        note(&format!(
            "indexed assignment by index: {} kernel(s) over {total} element(s) {how} on the GPU \
             ({}{marks}{copy}), in place when no other value holds the array",
            if marked { 2 } else { 1 },
            if device_index {
                "positions on the device, checked there: one value read back"
            } else {
                "positions given by the host"
            },
        ));
        drop(n);
        return Outcome::Done(Value::Device(target));
    }
    // A pending right-hand side that reads the array only where it writes it, written as it
    // is computed (one kernel, in place).
    if new_shape == n.shape {
        match super::put_fused::write(&target, &n, &old, &subs, &rhs) {
            Some(Ok(())) => {
                let (shape, explicit) = (n.shape.clone(), target.explicit);
                drop(rhs);
                // Nothing can read the old value now; its buffer moves to the new one.
                n.data.borrow_mut().take();
                drop(n);
                drop(target);
                return Outcome::Done(value_of(old, shape, class, explicit));
            }
            Some(Err(e)) => return Outcome::Failed(e, Some(Value::Device(target))),
            None => {}
        }
    }
    // The values, computed (a pending right-hand side is one kernel of its own).
    crate::gpu::trace("assignment: planned");
    let values = match values_of(&rhs) {
        Some(v) => v,
        None => return Outcome::Declined(target, rhs),
    };
    // The right-hand side may read the array (`x(idx) = x(idx) + v`): once its values are
    // computed it holds the array no longer, so the write may be in place.
    drop(rhs);
    let explicit = target.explicit;
    let new_sizes = folded_sizes(&new_shape, k);
    let old_sizes = folded_sizes(&n.shape, k);
    drop(n);
    // Where the values and subscripts are the array itself, it is not written in place.
    let aliased = subs.iter().any(|s| match s {
        Sub::Device(b, ..) => gput::shares(b, &old),
        _ => false,
    }) || matches!(&values, Held::Device(b) if gput::shares(b, &old));
    let in_place = !aliased && private(&target, 1);
    crate::gpu::trace("assignment: values");
    let out = match output(&target, old, in_place, &new_shape, &old_sizes, &new_sizes) {
        Ok(b) => b,
        Err(e) => {
            return Outcome::Failed(e, Some(Value::Device(target)));
        }
    };
    crate::gpu::trace("assignment: output");
    drop(target);
    // One put takes two index subscripts; more are one linear index over the new array.
    let (subs, put_sizes) = match linearised(&subs, &new_sizes) {
        Some(lin) => (vec![lin], vec![new_shape.numel()]),
        None => (subs, new_sizes),
    };
    let put_subs: Vec<gput::Sub<'_>> = subs.iter().map(Sub::as_put).collect();
    let v = match &values {
        Held::Device(b) => Values::Device(b),
        Held::Host(v) => Values::Host(v.clone()),
    };
    match gput::put(&out, &put_sizes, &put_subs, v) {
        Ok(count) => Sub::remember(&subs, &put_subs, count),
        Err(e) => return Outcome::Failed(e, None),
    }
    Outcome::Done(value_of(out, new_shape, class, explicit))
}

/// Most places a put through one linear index (`linearised`) writes.
const MAX_LINEAR: usize = 1 << 24;

/// Subscripts with more index subscripts than one put takes (two), all given by the host, as
/// one linear index of 1-based positions over an array of `sizes`: each place's position,
/// column-major over the subscripts, so repeated places keep MATLAB's order (the last write
/// wins). None where two or fewer are index subscripts, or one is on the device.
fn linearised(subs: &[Sub], sizes: &[usize]) -> Option<Sub> {
    let indices = subs
        .iter()
        .filter(|s| !matches!(s, Sub::Range { .. }))
        .count();
    if indices <= 2 {
        return None;
    }
    // Each subscript's 0-based positions, scaled by its dimension's stride.
    let mut stride = 1u64;
    let mut parts: Vec<Vec<u64>> = Vec::with_capacity(subs.len());
    for (s, &size) in subs.iter().zip(sizes) {
        let positions: Vec<u64> = match s {
            Sub::Range { start, step, count } => (0..*count)
                .map(|k| (*start + k as i64 * *step).max(0) as u64)
                .collect(),
            Sub::Host(p) => p.iter().map(|&x| u64::from(x.max(1)) - 1).collect(),
            Sub::Device(..) => return None,
        };
        parts.push(positions.into_iter().map(|x| x * stride).collect());
        stride = stride.saturating_mul(size as u64);
    }
    if stride > u64::from(u32::MAX) {
        return None;
    }
    // Column-major: the first subscript varies fastest.
    let mut linear: Vec<u64> = vec![0];
    for part in &parts {
        let mut next = Vec::with_capacity(linear.len() * part.len());
        for &p in part {
            next.extend(linear.iter().map(|&l| l + p));
        }
        linear = next;
    }
    Some(Sub::Host(
        linear.into_iter().map(|x| x as u32 + 1).collect(),
    ))
}

/// Whether the right-hand side is one this path writes (numbers and logicals, real).
pub(super) fn takes_rhs(rhs: &Value) -> bool {
    match rhs {
        Value::Num(_) | Value::Bool(_) => true,
        Value::Tensor(t) => {
            !t.is_complex() && matches!(t.class(), Class::Double | Class::Single | Class::Logical)
        }
        Value::Device(d) => matches!(d.class(), Class::Double | Class::Single | Class::Logical),
        _ => false,
    }
}

/// Values held for a put.
pub(super) enum Held {
    Device(Rc<DeviceBuffer>),
    Host(Vec<f64>),
}

pub(super) fn values_of(rhs: &Value) -> Option<Held> {
    match rhs {
        Value::Num(x) => Some(Held::Host(vec![*x])),
        Value::Bool(b) => Some(Held::Host(vec![f64::from(u8::from(*b))])),
        Value::Tensor(t) => Some(Held::Host(t.to_f64().into_owned())),
        Value::Device(d) => {
            let n = graph::memory::settled(&d.node);
            crate::plan::realise(&n).ok()?;
            let n = graph::memory::settled(&n);
            let data = n.data.borrow().clone();
            match data {
                Some(Data::Device(b)) => Some(Held::Device(b)),
                Some(Data::Host(t)) => Some(Held::Host(t.to_f64().into_owned())),
                None => None,
            }
        }
        _ => None,
    }
}

/// The buffer the assignment writes: the old one (in place), a copy, or a larger one holding
/// the old elements where they sit in the new shape (zeros elsewhere).
fn output(
    target: &Rc<DeviceValue>,
    old: Rc<DeviceBuffer>,
    in_place: bool,
    new_shape: &Shape,
    old_sizes: &[usize],
    new_sizes: &[usize],
) -> super::error::MResult<Rc<DeviceBuffer>> {
    let old_len = old.len;
    let new_len = new_shape.numel();
    let precision = old.precision;
    // The old elements come first in the new array when only the last subscript grows.
    let k = new_sizes.len();
    let prefix = old_sizes[..k - 1] == new_sizes[..k - 1];
    if in_place {
        crate::plan::gathers::forget(&old);
        if new_len == old_len {
            return Ok(old);
        }
        let capacity = old.raw()?.size() / precision.bytes() as u64;
        if prefix && new_len as u64 <= capacity {
            // The buffer's spare capacity takes the growth: it moves out of the old value.
            drop(old);
            let taken = target.node.data.borrow_mut().take();
            if let Some(Data::Device(b)) = taken {
                match Rc::try_unwrap(b) {
                    Ok(mut owned) => {
                        owned.len = new_len;
                        let g = crate::gpu::device::ready().ok_or_else(|| {
                            super::error::MError::new("matfuse:gpu:none", "No GPU.")
                        })?;
                        gput::clear(g, &owned, old_len, new_len - old_len)?;
                        return Ok(Rc::new(owned));
                    }
                    Err(b) => {
                        *target.node.data.borrow_mut() = Some(Data::Device(b.clone()));
                        return grown_copy(&b, prefix, new_len, old_sizes, new_sizes);
                    }
                }
            }
            return Err(super::error::MError::new(
                "matfuse:internal",
                "An array lost its data.",
            ));
        }
    }
    if new_len == old_len {
        let out = crate::gpu::buffers::copy_range(&old, 0, old_len)?;
        return Ok(Rc::new(out));
    }
    grown_copy(&old, prefix, new_len, old_sizes, new_sizes)
}

/// A new array of `new_len` zeros with `old`'s elements where they sit in it.
fn grown_copy(
    old: &DeviceBuffer,
    prefix: bool,
    new_len: usize,
    old_sizes: &[usize],
    new_sizes: &[usize],
) -> super::error::MResult<Rc<DeviceBuffer>> {
    // Allocated by size class (powers of two): the spare capacity takes the next appends.
    let out = gput::zeros(new_len, old.precision)?;
    if prefix {
        gput::copy_part(old, 0, &out, 0, old.len)?;
    } else {
        let subs: Vec<gput::Sub<'_>> = old_sizes
            .iter()
            .map(|&c| gput::Sub::Range {
                start: 0,
                step: 1,
                count: c,
            })
            .collect();
        gput::put(&out, new_sizes, &subs, Values::Device(old))?;
    }
    Ok(Rc::new(out))
}

thread_local! {
    /// Notes of what device assignments would do, while `explain` plans one (None otherwise).
    static PLAN: std::cell::RefCell<Option<Vec<String>>> = const { std::cell::RefCell::new(None) };
}

/// Whether assignments are being planned, not run (`explain`).
pub(super) fn plan_only() -> bool {
    PLAN.with(|p| p.borrow().is_some())
}

pub(super) fn note(text: &str) {
    PLAN.with(|p| {
        if let Some(v) = p.borrow_mut().as_mut() {
            v.push(text.to_string());
        }
    });
}

/// Runs `f` with device assignments planned, not run; returns what they noted.
pub fn planning<R>(f: impl FnOnce() -> R) -> (R, Vec<String>) {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            PLAN.with(|p| *p.borrow_mut() = None);
        }
    }
    PLAN.with(|p| *p.borrow_mut() = Some(Vec::new()));
    let reset = Reset;
    let r = f();
    let notes = PLAN.with(|p| p.borrow_mut().take().unwrap_or_default());
    drop(reset);
    (r, notes)
}
