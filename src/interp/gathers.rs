//! Index vectors and masks into graph values as gathers: `x(idx)`, `A(:, [3 1 2])`,
//! `A(rows, cols)`, `x(mask)`, with host or device subscripts. A `Gather` node reads the
//! computed array at the places the subscripts give, inside whatever kernel consumes it, so
//! nothing goes to the host. Subscripts are checked first (positive whole numbers within the
//! array): on the host for host subscripts; on the device for device ones, reading back one
//! value. A subscript that fails goes the general way, which reports MATLAB's error.
//! Large host arrays read by large host index vectors go the same way when there is no
//! device (`host_read`).

use super::lower;
use crate::graph::{self, Op, Pick, folded_sizes};
use crate::values::class::Class;
use crate::values::device::DeviceValue;
use crate::values::ops::{Bin, Un};
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;
use std::rc::Rc;

/// One subscript as the gather reads it.
enum Sub {
    /// Positions `start + k * step` (0-based), `count` of them.
    Range(i64, i64, usize),
    /// 1-based positions in an index node (host or device), `count` of them.
    Index(Rc<graph::Node>, usize),
}

impl Sub {
    fn count(&self) -> usize {
        match self {
            Sub::Range(_, _, c) | Sub::Index(_, c) => *c,
        }
    }
}

/// `d(args)` as a gather, or None for the general path (which also raises the errors).
pub fn read(d: &DeviceValue, args: &[Value]) -> Option<Value> {
    let n = graph::memory::settled(&d.node);
    if n.numel() == 0 || n.numel() > u32::MAX as usize || args.is_empty() {
        return None;
    }
    let sizes = folded_sizes(&n.shape, args.len());
    let mut subs = Vec::with_capacity(args.len());
    for (a, &extent) in args.iter().zip(&sizes) {
        subs.push(subscript(a, extent)?);
    }
    let shape = if let [only] = &subs[..] {
        linear_shape(&n.shape, args.first()?, only)
    } else {
        Shape::new(&subs.iter().map(Sub::count).collect::<Vec<_>>())
    };
    // An empty result needs no kernel: from a device mask it is an empty gpuArray (its
    // size is all that was read back); empty host subscripts go the general way.
    // With two or more subscripts (every one checked above) the result's size is theirs:
    // `G(:, :, [])` is an empty gpuArray too.
    if shape.numel() == 0 {
        if args.len() < 2 && !args.iter().any(|a| matches!(a, Value::Device(_))) {
            return None;
        }
        return Some(empty(shape, n.class, d.explicit));
    }
    let k = subs.len();
    let mut picks = Vec::with_capacity(k);
    let mut inputs = vec![n.clone()];
    for (d, s) in subs.into_iter().enumerate() {
        match s {
            Sub::Range(start, step, _) => picks.push(Pick::Range { start, step }),
            Sub::Index(idx, count) => {
                picks.push(Pick::Index);
                // Along the result's dimension `d` (one subscript: the result's own shape).
                let along = if k == 1 {
                    shape.clone()
                } else {
                    let mut dims = vec![1usize; d + 1];
                    dims[d] = count;
                    Shape::new(&dims)
                };
                let idx = if idx.shape == along {
                    idx
                } else {
                    graph::intern(Op::Reshape, vec![idx.clone()], along, idx.class)
                };
                inputs.push(idx);
            }
        }
    }
    // (read through the source's pending elementwise work where that reads less)
    let node = graph::sink::gather(&n, &picks, &inputs[1..], &shape);
    Some(lower::pending(node, d.explicit))
}

/// `x0(idx)` of a plain host array by one large numeric host index, when there is no device:
/// a gather that the consuming fused group reads in its blocks, as for a gpuArray source
/// (`y = x0(idx) .* w + y` reads x0 at the indices and writes y once, where reading
/// `x0(idx)` first wrote and read again an array of the index's size). Only real double and
/// single sources of two dimensions and two or more elements (their result shape is the
/// same by `linear_shape` as by the host's `linear_read_shape`; other classes and shapes keep
/// the host's read); an index by size as other host arrays enter the graph
/// (`lower::offloads`). None for everything else, and for any index that is not a whole
/// number within the array: the host's read gives MATLAB's error.
pub fn host_read(v: &Value, args: &[Value]) -> Option<Value> {
    let (Value::Tensor(t), [Value::Tensor(idx)]) = (v, args) else {
        return None;
    };
    let source = matches!(t.class(), Class::Double | Class::Single) && !t.is_complex();
    let index = !matches!(idx.class(), Class::Logical | Class::Char) && !idx.is_complex();
    if !source || !index || t.numel() < 2 || t.shape.ndims() != 2 {
        return None;
    }
    if !lower::host_array_without_device(v) || !lower::offloads(idx.numel()) {
        return None;
    }
    let d = DeviceValue {
        node: graph::memory::host_leaf(t),
        explicit: false,
    };
    let g = read(&d, args)?;
    let expected = crate::values::ops::index::linear_read_shape(&t.shape, &idx.shape, idx.numel());
    match &g {
        Value::Device(r) if r.node.shape == expected => Some(g),
        _ => None,
    }
}

/// MATLAB's shape of `x(idx)` with one subscript: a vector indexed by a vector keeps its
/// orientation; otherwise the index's shape (a mask's positions are a column, or a row for
/// a row mask).
fn linear_shape(source: &Shape, arg: &Value, sub: &Sub) -> Shape {
    let count = sub.count();
    // A scalar mask that is false picks nothing of any shape: 0x0, as a false `true`/`false`
    // index does on the host (and in MATLAB and Octave).
    let mask_shape = |s: &Shape| {
        if s.numel() == 1 && count == 0 {
            Shape::matrix(0, 0)
        } else {
            positions_shape(s, count)
        }
    };
    let index_shape = match arg {
        Value::Tensor(t) if t.class() == Class::Logical => mask_shape(&t.shape),
        Value::Tensor(t) => t.shape.clone(),
        Value::Device(x) if x.class() == Class::Logical => mask_shape(&x.node.shape),
        Value::Device(x) => x.node.shape.clone(),
        _ => Shape::scalar(),
    };
    let vector = |s: &Shape| s.ndims() == 2 && (s.dim(0) == 1 || s.dim(1) == 1);
    if vector(source) && vector(&index_shape) {
        positions_shape(source, count)
    } else {
        index_shape
    }
}

/// `count` positions taken from an array of `shape` (a mask's, or a vector's): a row for a
/// row vector, a column otherwise (as `find` gives them).
fn positions_shape(shape: &Shape, count: usize) -> Shape {
    if shape.ndims() == 2 && shape.dim(0) == 1 {
        Shape::row(count)
    } else {
        Shape::col(count)
    }
}

/// One subscript over `extent` positions; None for forms the gather does not take or
/// positions outside (the general path reports them).
fn subscript(a: &Value, extent: usize) -> Option<Sub> {
    let whole = |x: f64| x >= 1.0 && x <= extent as f64 && x.fract() == 0.0;
    match a {
        _ if a.is_char() => {
            let colon = a.text().ok().is_some_and(|t| t == ":");
            colon.then_some(Sub::Range(0, 1, extent))
        }
        Value::Num(x) => whole(*x).then(|| Sub::Range(*x as i64 - 1, 0, 1)),
        Value::Tensor(t) if t.is_complex() || t.class() == Class::Char => None,
        Value::Tensor(t) if t.class() == Class::Logical => {
            // A mask's true positions; a mask longer than the array is an error unless the
            // extra elements are false.
            let values = t.to_f64();
            let mut positions = Vec::new();
            for (k, &b) in values.iter().enumerate() {
                if b != 0.0 {
                    if k >= extent {
                        return None;
                    }
                    positions.push((k + 1) as f64);
                }
            }
            host_index(positions)
        }
        Value::Tensor(t) => {
            let values = t.to_f64();
            if !all_positions(&values, extent) {
                return None;
            }
            if let Some(r) = progression(&values) {
                return Some(r);
            }
            let node = graph::leaf(graph::Data::Host(t.clone()), t.shape.clone(), Class::Double);
            let node = if t.class() == Class::Double {
                node
            } else {
                host_node(values.into_owned(), t.shape.clone())
            };
            Some(Sub::Index(node, t.numel()))
        }
        Value::Device(x) => device_index(x, extent),
        _ => None,
    }
}

/// A numeric device subscript's positions over `extent` once checked on the device (see
/// `device_index`), with their count; None when some position is not a whole number within.
pub(super) fn checked_index(
    x: &Rc<DeviceValue>,
    extent: usize,
) -> Option<(Rc<graph::Node>, usize)> {
    if x.class() == Class::Logical {
        return None;
    }
    match device_index(x, extent)? {
        Sub::Index(node, count) => Some((node, count)),
        Sub::Range(..) => None,
    }
}

/// Whether every value is a whole number in `1..=extent`: in chunks across the cores, each
/// chunk without branches (`all` stops at each element so the loop does not vectorise, and
/// `f64::fract` is a libm call on baseline x86-64: the check cost about as much as the read).
fn all_positions(values: &[f64], extent: usize) -> bool {
    use rayon::prelude::*;
    let top = extent as f64;
    // NaN fails every comparison; the i64 conversion saturates, and only whole numbers
    // convert back to themselves.
    let chunk = |c: &[f64]| {
        c.iter().fold(true, |ok, &x| {
            ok & (x >= 1.0) & (x <= top) & ((x as i64) as f64 == x)
        })
    };
    if values.len() < 1 << 16 {
        return chunk(values);
    }
    values.par_chunks(1 << 16).all(chunk)
}

/// Positions in arithmetic progression as a range (no index array to upload).
fn progression(values: &[f64]) -> Option<Sub> {
    let &first = values.first()?;
    let step = values.get(1).map_or(1.0, |&x| x - first);
    let exact = values
        .iter()
        .enumerate()
        .all(|(k, &x)| x == first + k as f64 * step);
    exact.then(|| Sub::Range(first as i64 - 1, step as i64, values.len()))
}

/// A host array of 1-based positions as an index (or a range when they progress).
fn host_index(positions: Vec<f64>) -> Option<Sub> {
    if let Some(r) = progression(&positions) {
        return Some(r);
    }
    let count = positions.len();
    Some(Sub::Index(host_node(positions, Shape::col(count)), count))
}

fn host_node(values: Vec<f64>, shape: Shape) -> Rc<graph::Node> {
    let t = Tensor::f64(shape.clone(), values);
    graph::leaf(graph::Data::Host(Rc::new(t)), shape, Class::Double)
}

/// A numeric device subscript, checked on the device: one value read back says whether
/// every position is a whole number in `1..=extent`.
fn device_index(x: &Rc<DeviceValue>, extent: usize) -> Option<Sub> {
    let class = x.class();
    if x.node.numel() == 0 {
        return None;
    }
    if class == Class::Logical {
        // A mask's positions, compacted on the device; one longer than the array goes the
        // general way (an error unless its extra elements are false).
        if x.node.numel() > extent {
            return None;
        }
        let (positions, count) = positions(x)?;
        return Some(match positions {
            Some(p) => Sub::Index(p, count),
            None => Sub::Range(0, 1, 0),
        });
    }
    let v = Value::Device(x.clone());
    // An index array checked before (a loop gathering by the same indices) is not checked
    // again: its values cannot have changed. (A pending one is computed first, so that its
    // check is kept with its data: reading elements of it, `idx(1)`, no longer computes it.)
    let settled = super::views::computed(graph::memory::settled(&x.node));
    if crate::plan::gathers::checked(&settled, extent) {
        return Some(Sub::Index(settled, x.node.numel()));
    }
    let col = super::views::reshaped(x, Shape::col(x.node.numel()));
    let low = lower::binary(Bin::Lt, &col, &Value::Num(1.0))?;
    let high = lower::binary(Bin::Gt, &col, &Value::Num(extent as f64))?;
    let floor = lower::unary(Un::Floor, &col)?;
    let frac = lower::binary(Bin::Ne, &col, &floor)?;
    let bad = lower::binary(Bin::Or, &low, &high)?;
    let bad = lower::binary(Bin::Or, &bad, &frac)?;
    let any = lower::reduction("any", &[bad])?;
    let any = any.host().ok()?;
    if any.truthy().unwrap_or(true) {
        return None;
    }
    crate::plan::gathers::remember(&settled, extent);
    let Value::Device(d) = v else {
        return None;
    };
    Some(Sub::Index(graph::memory::settled(&d.node), d.node.numel()))
}

/// A numeric device subscript of an assignment, which may grow the array (`x(idx) = v` with
/// positions past `extent`): checked on the device as `device_index` does, but one value read
/// back is the largest position, with a bad one (not a positive whole number) counted as
/// past every limit. The positions, their count and the largest; None when some is bad or
/// past `limit`.
pub(super) fn checked_growth(
    x: &Rc<DeviceValue>,
    extent: usize,
    limit: usize,
) -> Option<(Rc<graph::Node>, usize, usize)> {
    let count = x.node.numel();
    if x.class() == Class::Logical || count == 0 {
        return None;
    }
    let settled = super::views::computed(graph::memory::settled(&x.node));
    if crate::plan::gathers::checked(&settled, extent) {
        return Some((settled, count, extent));
    }
    let col = super::views::reshaped(x, Shape::col(count));
    let low = lower::binary(Bin::Lt, &col, &Value::Num(1.0))?;
    let floor = lower::unary(Un::Floor, &col)?;
    let frac = lower::binary(Bin::Ne, &col, &floor)?;
    let bad = lower::binary(Bin::Or, &low, &frac)?;
    // max(NaN, 1e300) is 1e300, so a NaN position is bad too (Inf in a single).
    let bad = lower::binary(Bin::Mul, &bad, &Value::Num(1e300))?;
    let key = lower::binary(Bin::Max, &col, &bad)?;
    let largest = lower::reduction("max", &[key])?;
    let largest = largest.host().ok()?.scalar_f64().ok()?;
    if !(largest >= 1.0 && largest <= limit as f64) {
        return None;
    }
    let largest = largest as usize;
    crate::plan::gathers::remember(&settled, largest);
    Some((graph::memory::settled(&x.node), count, largest))
}

/// The positions of `x`'s nonzero elements as a pending `Positions` node (None when there
/// are none) and their count. Only the count is computed now, a reduction fused with
/// whatever computes `x` (one value read back, the mask itself never stored); the positions
/// are compacted on the device when something reads them, and never when a reduction of the
/// gathered values reduces the masked values instead (`lower::masked_reduction`).
pub(super) fn positions(x: &DeviceValue) -> Option<(Option<Rc<graph::Node>>, usize)> {
    let n = x.node.numel();
    let count = if crate::gpu::device::ready().is_none() {
        // The host engine computes the mask once and counts it: the fused count below and
        // the positions' own pass computed `x > 0.5` twice (`find(x > 0.5)` 1.4-2.2x
        // NumPy's time); the mask's bytes are counted a block at a time again by the
        // positions' pass, which costs a small part of computing them.
        let values = crate::plan::to_host(&x.node).ok()?;
        crate::builtins::locate::nonzero_count(&values)
    } else {
        let col = super::views::reshaped(x, Shape::col(n));
        // NaN is nonzero, as find says (logical values are 0 or 1 already).
        let flags = if x.class() == Class::Logical {
            col
        } else {
            lower::binary(Bin::Ne, &col, &Value::Num(0.0))?
        };
        let total = lower::reduction("sum", &[flags])?
            .host()
            .ok()?
            .scalar_f64()
            .ok()?;
        if !(total >= 0.0 && total <= n as f64 && total.fract() == 0.0) {
            return None;
        }
        total as usize
    };
    if count == 0 {
        return Some((None, 0));
    }
    let mask = graph::memory::settled(&x.node);
    let node = graph::intern(Op::Positions, vec![mask], Shape::col(count), Class::Double);
    Some((Some(node), count))
}

/// An empty graph value of `shape`.
fn empty(shape: Shape, class: Class, explicit: bool) -> Value {
    let t = crate::plan::cpu::tensor_of(Vec::new(), shape.clone(), class);
    let node = graph::leaf(graph::Data::Host(Rc::new(t)), shape, class);
    lower::pending(node, explicit)
}

/// `find(x)` of a graph value on the device (one output, no count or direction): the
/// positions as a gpuArray, a row for a row vector and a column otherwise.
pub fn find_builtin(name: &str, args: &[Value]) -> Option<Value> {
    let [Value::Device(x)] = args else {
        return None;
    };
    if name != "find" || x.node.numel() == 0 || x.node.numel() > u32::MAX as usize / 2 {
        return None;
    }
    let (found, count) = positions(x)?;
    let shape = positions_shape(&x.node.shape, count);
    Some(match found {
        Some(leaf) => {
            let node = if leaf.shape == shape {
                leaf
            } else {
                graph::intern(Op::Reshape, vec![leaf], shape, Class::Double)
            };
            lower::pending(node, x.explicit)
        }
        None => empty(shape, Class::Double, x.explicit),
    })
}
