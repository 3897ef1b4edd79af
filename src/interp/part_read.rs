//! Reading part of a computed device array: `x(k)` and `X(i, j, ...)` with scalar
//! subscripts of a value the planner placed on the device read back only that element
//! (of a gpuArray they are views, `slices::view`), and a column `X(:, k)` stays on the device, a view
//! of the array's storage where it starts on 256 bytes (elsewhere `slices::view` makes it a
//! view node), so a loop over columns moves nothing to the host. Other forms read
//! the array back and index on the host.

use crate::graph::Data;
use crate::interp::error::MResult;
use crate::values::device::DeviceValue;
use crate::values::shape::Shape;
use crate::values::value::Value;

/// A whole positive subscript, or None.
fn subscript(v: &Value) -> Option<usize> {
    if !matches!(v, Value::Num(_)) {
        return None;
    }
    let k = v.scalar_f64().ok()?;
    (k >= 1.0 && k.fract() == 0.0 && k < 9.0e15).then_some(k as usize)
}

/// The elements `args` select from an array of `shape`, when they are one contiguous range
/// within bounds: (first element, count, result shape). None otherwise (out-of-range
/// subscripts included: the general path reports them).
fn range_of(shape: &Shape, args: &[Value]) -> Option<(usize, usize, Shape)> {
    let dims = shape.dims();
    let is_colon = |v: &Value| v.is_char() && v.text().is_ok_and(|t| t == ":");
    match args {
        [k] => {
            let k = subscript(k)?;
            (k <= shape.numel()).then(|| (k - 1, 1, Shape::scalar()))
        }
        [c, k] if is_colon(c) => {
            // Columns of the array with its trailing dimensions folded into the second.
            let rows = dims[0];
            let k = subscript(k)?;
            (k <= shape.numel() / rows.max(1)).then(|| ((k - 1) * rows, rows, Shape::col(rows)))
        }
        _ if args.len() >= 2 => {
            // Scalar subscripts, one per dimension (the last folds the dimensions after it).
            let mut at = 0;
            let mut stride = 1;
            for (d, a) in args.iter().enumerate() {
                let extent = if d + 1 == args.len() {
                    dims[d.min(dims.len())..].iter().product::<usize>().max(1)
                } else {
                    dims.get(d).copied().unwrap_or(1)
                };
                let k = subscript(a)?;
                if k > extent {
                    return None;
                }
                at += (k - 1) * stride;
                stride *= extent;
            }
            Some((at, 1, Shape::scalar()))
        }
        _ => None,
    }
}

/// `d(args)` read from the device in part, or None when the form (or where the data lives)
/// does not allow it.
pub fn read(d: &DeviceValue, args: &[Value]) -> Option<MResult<Value>> {
    let n = &d.node;
    let (start, len, shape) = range_of(&n.shape, args)?;
    if len == 1 && d.explicit {
        // An element of a gpuArray is a gpuArray (as in MATLAB): a view node, so that
        // `acc = acc + s(k)` in a loop waits for nothing. A value the planner placed on the
        // device keeps its host class, and host code reads such elements: one comes back.
        return None;
    }
    if let Err(e) = crate::plan::realise(n) {
        return Some(Err(e));
    }
    let buf = match &*n.data.borrow() {
        Some(Data::Device(b)) => b.clone(),
        _ => return None,
    };
    if len > 1 {
        // A column stays on the device: a view of the array's storage where it starts on a
        // 256-byte boundary (a leaf of its own); elsewhere a view node that kernels read in
        // place (`slices::view`), not a copy.
        let view = crate::gpu::buffers::view(&buf, start, len)?;
        let node = crate::graph::leaf(Data::Device(std::rc::Rc::new(view)), shape, n.class);
        return Some(Ok(Value::Device(std::rc::Rc::new(DeviceValue {
            node,
            explicit: d.explicit,
        }))));
    }
    let values = match crate::gpu::buffers::download_range(&buf, start, len) {
        Ok(v) => v,
        Err(e) => return Some(Err(e)),
    };
    let t = crate::plan::cpu::tensor_of(values, shape, n.class);
    let v = Value::from_tensor(t);
    Some(Ok(if d.explicit {
        super::lower::rewrap_value(v)
    } else {
        v
    }))
}
