//! Deletion from device values: `x(idx) = []`, `x(mask) = []`, `A(:, cols) = []`,
//! `A(rows, :) = []`, with host or device subscripts. A contiguous block deleted along the
//! last dimension (`x(end) = []`, `x(1) = []`, `A(:, 3:5) = []`) is one or two copies of
//! what remains (no kernel, nothing waited for; `x(end) = []` on an array nothing else holds
//! only shortens it). Anything else marks the kept positions on the device (ones, then zeros
//! where the subscripts point) and counts them (the only thing read back); the result is a
//! gather at the marks' pending positions, which a linear deletion computes as one
//! compaction of the kept values (`plan::compacted_values`) and other deletions as the
//! positions (`gpu::compact`) read inside whatever kernel consumes the gather. Bad subscripts
//! go the general way, which reports MATLAB's error.

use super::put::{Outcome, Sub, device_data, plan_only, private, resolve, value_of};
use crate::gpu::put::{self as gput, Values};
use crate::graph::{self, Data, Op, Pick, folded_sizes};
use crate::values::class::Class;
use crate::values::device::DeviceValue;
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::rc::Rc;

/// `target(args) = []` on the device, or the value back (`Declined` carries an empty rhs).
pub fn delete(target: Rc<DeviceValue>, args: &[Value]) -> Outcome {
    let declined = |t: Rc<DeviceValue>| Outcome::Declined(t, Value::empty());
    let Some((n, old)) = device_data(&target) else {
        return declined(target);
    };
    let k = args.len();
    let sizes = folded_sizes(&n.shape, k);
    let is_colon = |a: &Value| a.is_char() && a.text().ok().is_some_and(|t| t == ":");
    // The one subscript that is not a colon (MATLAB allows only one), and its dimension.
    let open: Vec<usize> = (0..k).filter(|&d| !is_colon(&args[d])).collect();
    let d = match open.as_slice() {
        [d] => *d,
        // `x(:) = []` (one subscript): every element.
        [] if k == 1 => 0,
        _ => return declined(target),
    };
    let extent = sizes[d];
    // A device mask of the whole extent: its complement is the kept positions' marks (one
    // compaction, not one for the mask and one for the marks).
    let complement = match &args[d] {
        Value::Device(m) if m.class() == Class::Logical && m.node.numel() == extent => {
            kept_marks(m)
        }
        _ => None,
    };
    crate::gpu::trace("deletion: marks");
    let resolved = match complement {
        Some(_) => Some((
            Sub::Range {
                start: 0,
                step: 1,
                count: 0,
            },
            extent,
        )),
        None => resolve(&args[d], extent, false),
    };
    let Some((sub, _)) = resolved else {
        return declined(target);
    };
    let source_shape = n.shape.clone();
    let shape_with = |kept: usize| -> Shape {
        if k == 1 {
            let s = &source_shape;
            if kept == 0 && is_colon(&args[0]) {
                Shape::new(&[0, 0])
            } else if s.ndims() == 2 && s.dim(1) == 1 && s.dim(0) != 1 {
                Shape::col(kept)
            } else {
                Shape::row(kept)
            }
        } else {
            let mut dims = sizes.clone();
            dims[d] = kept;
            Shape::new(&dims)
        }
    };
    let class = n.class;
    let explicit = target.explicit;
    // A contiguous block of the last dimension: copies of what is before and after it.
    let block = match &sub {
        Sub::Range { start, step, count }
            if *count > 0 && (*step == 1 || *step == -1 || *count == 1) =>
        {
            let lo = if *step < 0 {
                start - (*count as i64 - 1)
            } else {
                *start
            };
            Some((lo.max(0) as usize, *count))
        }
        _ => None,
    };
    if plan_only() {
        super::put::note(match block {
            Some(_) if d + 1 == k => {
                "deletion of a block: copies of what remains on the GPU, no kernel"
            }
            _ => {
                "deletion: the kept positions marked and compacted on the GPU (the kept count read back), then gathered"
            }
        });
        drop(n);
        return Outcome::Done(Value::Device(target));
    }
    if sub.count() == 0 && complement.is_none() {
        // Nothing deleted (`X(:, :, []) = []`): the array as it is, nothing counted.
        drop(n);
        return Outcome::Done(Value::Device(target));
    }
    if sub.count() == extent && matches!(sub, Sub::Range { step, .. } if step.abs() == 1) {
        // Every position: an empty array.
        drop(n);
        return Outcome::Done(empty(shape_with(0), class, explicit));
    }
    if let Some((lo, count)) = block.filter(|_| d + 1 == k) {
        let below: usize = sizes[..d].iter().product();
        let kept = extent - count;
        if kept == extent {
            drop(n);
            return Outcome::Done(Value::Device(target));
        }
        let shape = shape_with(kept);
        let (head, cut, total) = (lo * below, count * below, n.numel());
        drop(n);
        // The tail removed from an array nothing else holds: the same buffer, shorter.
        if head + cut == total && private(&target, 1) {
            drop(old);
            let taken = target.node.data.borrow_mut().take();
            if let Some(Data::Device(b)) = taken {
                match Rc::try_unwrap(b) {
                    Ok(mut owned) => {
                        crate::plan::gathers::forget(&owned);
                        owned.len = head.max(1);
                        return Outcome::Done(value_of(Rc::new(owned), shape, class, explicit));
                    }
                    Err(b) => {
                        *target.node.data.borrow_mut() = Some(Data::Device(b));
                        return declined(target);
                    }
                }
            }
            return declined(target);
        }
        let copied = (|| {
            let out = crate::gpu::buffers::allocate(
                crate::gpu::device::ready().ok_or_else(no_gpu)?,
                total - cut,
                old.precision,
            )?;
            gput::copy_part(&old, 0, &out, 0, head)?;
            gput::copy_part(&old, head + cut, &out, head, total - head - cut)?;
            Ok(out)
        })();
        return match copied {
            Ok(out) => Outcome::Done(value_of(Rc::new(out), shape, class, explicit)),
            Err(e) => Outcome::Failed(e, Some(Value::Device(target))),
        };
    }
    // Kept positions along dimension `d`: marked, then compacted.
    let kept = (|| -> super::error::MResult<(Option<Rc<graph::Node>>, usize)> {
        let g = crate::gpu::device::ready().ok_or_else(no_gpu)?;
        let marks = match &complement {
            Some(m) => m.clone(),
            None => {
                let marks = crate::gpu::buffers::allocate(g, extent, graph::Precision::F32)?;
                let all = [gput::Sub::Range {
                    start: 0,
                    step: 1,
                    count: extent,
                }];
                gput::put(&marks, &[extent], &all, Values::Host(vec![1.0]))?;
                gput::put(&marks, &[extent], &[sub.as_put()], Values::Host(vec![0.0]))?;
                Rc::new(marks)
            }
        };
        // The kept count (read back: it is the result's size), by the compaction's own
        // count and offsets passes, which it keeps; the positions stay pending, so a linear
        // deletion compacts the kept values in one more pass.
        let counted = crate::gpu::compact::count(&marks, extent);
        let marks = graph::leaf(Data::Device(marks), Shape::col(extent), Class::Logical);
        let count = match counted {
            Ok(count) => count,
            Err(_) => kept_count(&marks)?,
        };
        let found = (count > 0)
            .then(|| graph::intern(Op::Positions, vec![marks], Shape::col(count), Class::Double));
        Ok((found, count))
    })();
    crate::gpu::trace("deletion: compacted");
    let (found, count) = match kept {
        Ok(x) => x,
        Err(e) => {
            drop(n);
            return Outcome::Failed(e, Some(Value::Device(target)));
        }
    };
    if count == extent {
        drop(n);
        return Outcome::Done(Value::Device(target));
    }
    let shape = shape_with(count);
    let Some(positions) = found else {
        return Outcome::Done(empty(shape, class, explicit));
    };
    // The gather: every position along the other dimensions, the kept ones along `d`.
    let along = if k == 1 {
        shape.clone()
    } else {
        let mut dims = vec![1usize; d + 1];
        dims[d] = count;
        Shape::new(&dims)
    };
    let idx = if positions.shape == along {
        positions
    } else {
        graph::intern(Op::Reshape, vec![positions], along, Class::Double)
    };
    let picks: Vec<Pick> = (0..k)
        .map(|e| {
            if e == d {
                Pick::Index
            } else {
                Pick::Range { start: 0, step: 1 }
            }
        })
        .collect();
    let node = graph::intern(Op::Gather(picks), vec![n, idx], shape, class);
    drop(target);
    Outcome::Done(super::lower::pending(node, explicit))
}

/// How many of `marks` (a computed logical column) are set: a reduction, one value read back.
fn kept_count(marks: &Rc<graph::Node>) -> super::error::MResult<usize> {
    let failed = || super::error::MError::new("matfuse:gpu:compact", "The kept count failed.");
    let value = Value::Device(Rc::new(DeviceValue {
        node: marks.clone(),
        explicit: true,
    }));
    let total = super::lower::reduction("sum", &[value])
        .ok_or_else(failed)?
        .host()?
        .scalar_f64()?;
    if total >= 0.0 && total.fract() == 0.0 && total <= marks.numel() as f64 {
        Ok(total as usize)
    } else {
        Err(failed())
    }
}

fn no_gpu() -> super::error::MError {
    super::error::MError::new("matfuse:gpu:none", "No GPU.")
}

/// An empty graph value of `shape`.
fn empty(shape: Shape, class: Class, explicit: bool) -> Value {
    let t = crate::plan::cpu::tensor_of(Vec::new(), shape.clone(), class);
    let node = graph::leaf(Data::Host(Rc::new(t)), shape, class);
    Value::Device(Rc::new(DeviceValue { node, explicit }))
}

/// The computed complement of device mask `m` (nonzero where `m` keeps an element).
fn kept_marks(m: &Rc<DeviceValue>) -> Option<Rc<crate::gpu::buffers::DeviceBuffer>> {
    let not = super::lower::unary(crate::values::ops::Un::Not, &Value::Device(m.clone()))?;
    let Value::Device(d) = not else {
        return None;
    };
    let n = graph::memory::settled(&d.node);
    crate::plan::realise(&n).ok()?;
    super::put::buffer_of(&graph::memory::settled(&n))
}
