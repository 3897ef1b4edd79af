//! Concatenation and rearrangement of graph values without a host round trip.
//!
//! `[a, b]`, `[a; b]`, `cat(dim, ...)`, `horzcat`, `vertcat` and `repmat` of gpuArrays are
//! embeds of each piece into its block of the result (one kernel writes the result, reading
//! each piece at its place; scalars and host pieces take part too); `circshift` is the two
//! blocks of views it is made of. `flip`, `fliplr`, `flipud`, `rot90` and `permute` are views:
//! affine reads of the computed input, never copies. Forms these do not take (other classes,
//! complex values, mismatched sizes: the host reports MATLAB's errors) go the general way.

use crate::graph::{self, Affine, Op, Progression, Region};
use crate::values::class::Class;
use crate::values::device::DeviceValue;
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::rc::Rc;

/// The graph node of a piece, with its shape (None: a class or kind the graph does not join).
fn piece(v: &Value) -> Option<Rc<graph::Node>> {
    match v {
        Value::Device(d)
            if !matches!(d.class(), Class::Double | Class::Single | Class::Logical) =>
        {
            None
        }
        Value::Tensor(t) if t.numel() == 0 => None,
        _ => super::lower::node_of(v),
    }
}

/// MATLAB's class of a concatenation of these classes, where the graph holds it.
fn joined_class(classes: &[Class]) -> Option<Class> {
    if classes.iter().all(|&c| c == Class::Logical) {
        return Some(Class::Logical);
    }
    if classes.contains(&Class::Single) {
        return Some(Class::Single);
    }
    classes
        .iter()
        .all(|&c| matches!(c, Class::Double | Class::Logical))
        .then_some(Class::Double)
}

/// Whether an operand takes part in a join: 0×0 empties are skipped, as MATLAB skips them.
fn skipped(v: &Value) -> bool {
    v.shape().dims().iter().all(|&d| d == 0) || (v.numel() == 0 && v.shape().ndims() == 2)
}

/// `cat(dim, vals...)` (0-based `dim`) of values at least one of which is a graph value, as
/// nested embeds; None when the host must do it.
pub fn cat(dim: usize, vals: &[Value], explicit: bool) -> Option<Value> {
    let nodes: Vec<Rc<graph::Node>> = vals
        .iter()
        .filter(|v| !skipped(v))
        .map(piece)
        .collect::<Option<_>>()?;
    let first = nodes.first()?;
    // Every piece has the first's size but along `dim`.
    let rank = nodes.iter().map(|n| n.shape.ndims()).max()?.max(dim + 1);
    let mut along = 0usize;
    for n in &nodes {
        for d in 0..rank {
            if d != dim && n.shape.dim(d) != first.shape.dim(d) {
                return None;
            }
        }
        along += n.shape.dim(dim);
    }
    let mut dims: Vec<usize> = (0..rank).map(|d| first.shape.dim(d)).collect();
    dims[dim] = along;
    let shape = Shape::new(&dims);
    if shape.numel() == 0 || shape.numel() > u32::MAX as usize {
        return None;
    }
    let class = joined_class(&nodes.iter().map(|n| n.class).collect::<Vec<_>>())?;
    if nodes.len() == 1 && first.class == class {
        return Some(wrap(first.clone(), explicit));
    }
    // Each piece is written into its block of the result (the blocks cover it).
    let mut acc = super::lower::constant(0.0, class);
    let mut start = 0usize;
    for n in nodes {
        let count = n.shape.dim(dim);
        let region = Region {
            dims: (0..rank)
                .map(|d| Progression {
                    start: if d == dim { start as i64 } else { 0 },
                    step: 1,
                    count: if d == dim { count } else { dims[d] },
                })
                .collect(),
        };
        start += count;
        if count == 0 {
            continue;
        }
        let values = if n.class == class {
            n
        } else {
            let s = n.shape.clone();
            graph::intern(Op::Cast, vec![n], s, class)
        };
        acc = graph::intern(Op::Embed(region), vec![acc, values], shape.clone(), class);
    }
    Some(super::lower::pending(acc, explicit))
}

fn wrap(node: Rc<graph::Node>, explicit: bool) -> Value {
    super::lower::pending(node, explicit)
}

/// A matrix literal `[a, b; c, d]` with a graph value in it: each row joined along the
/// second dimension, then the rows along the first.
pub fn matrix_literal(rows: &[Vec<Value>]) -> Option<Value> {
    let all = rows.iter().flatten().collect::<Vec<_>>();
    if !all.iter().any(|v| matches!(v, Value::Device(_))) {
        return None;
    }
    let explicit = super::lower::explicit(&all);
    let mut joined = Vec::with_capacity(rows.len());
    for row in rows {
        if row.iter().all(skipped) {
            continue;
        }
        joined.push(cat(1, row, explicit)?);
    }
    match joined.len() {
        0 => None,
        1 => joined.pop(),
        _ => cat(0, &joined, explicit),
    }
}

/// An affine view of the computed value `d` with the given shape.
fn view(d: &DeviceValue, offset: i64, strides: Vec<i64>, shape: Shape) -> Value {
    let n = graph::memory::settled(&d.node);
    let node = graph::intern(
        Op::View(Affine { offset, strides }),
        vec![n.clone()],
        shape,
        n.class,
    );
    super::lower::pending(node, d.explicit)
}

/// `Shape::strides` as the signed steps a view takes.
fn element_strides(shape: &Shape) -> Vec<i64> {
    shape.strides().iter().map(|&s| s as i64).collect()
}

/// `flip(x, dim)` (0-based `dim`) as a view.
fn flipped(d: &DeviceValue, dim: usize) -> Value {
    let shape = d.shape().clone();
    let mut strides = element_strides(&shape);
    if dim >= strides.len() || shape.dim(dim) <= 1 {
        return Value::Device(Rc::new(d.clone()));
    }
    let offset = (shape.dim(dim) as i64 - 1) * strides[dim];
    strides[dim] = -strides[dim];
    view(d, offset, strides, shape)
}

/// A whole number argument, or None.
fn whole(v: &Value) -> Option<i64> {
    let x = v.scalar_f64().ok()?;
    (x.fract() == 0.0 && x.abs() < 1e15).then_some(x as i64)
}

/// The builtins that join or rearrange, applied to graph values; None when the call is not
/// one of them or needs the host (which reports any error).
pub fn builtin(name: &str, args: &[Value]) -> Option<Value> {
    if !args.iter().any(|a| matches!(a, Value::Device(_))) {
        return None;
    }
    let explicit = super::lower::explicit(&args.iter().collect::<Vec<_>>());
    let device = match args.first() {
        Some(Value::Device(d))
            if matches!(d.class(), Class::Double | Class::Single | Class::Logical) =>
        {
            Some(d)
        }
        _ => None,
    };
    match (name, args.len()) {
        ("horzcat", _) => cat(1, args, explicit),
        ("vertcat", _) => cat(0, args, explicit),
        ("cat", k) if k >= 2 => {
            let dim = whole(&args[0]).filter(|&d| d >= 1 && d <= 64)? as usize - 1;
            cat(dim, &args[1..], explicit)
        }
        ("fliplr", 1) => Some(flipped(device?, 1)),
        ("flipud", 1) => Some(flipped(device?, 0)),
        ("flip", 1) => {
            let d = device?;
            let dim = d.shape().dims().iter().position(|&n| n != 1).unwrap_or(0);
            Some(flipped(d, dim))
        }
        ("flip", 2) => {
            let dim = whole(&args[1]).filter(|&d| d >= 1 && d <= 64)? as usize - 1;
            Some(flipped(device?, dim))
        }
        ("rot90", 1 | 2) => {
            let d = device?;
            let shape = d.shape();
            if shape.ndims() > 2 {
                return None;
            }
            let k = if args.len() == 2 { whole(&args[1])? } else { 1 };
            let (m, n) = (shape.dim(0) as i64, shape.dim(1) as i64);
            // Result element (i, j) reads the input at offset + i * s0 + j * s1.
            let (offset, s0, s1, rows, cols) = match k.rem_euclid(4) {
                0 => return Some(Value::Device(d.clone())),
                1 => ((n - 1) * m, -m, 1, n, m),
                2 => (m * n - 1, -1, -m, m, n),
                _ => (m - 1, m, -1, n, m),
            };
            Some(view(
                d,
                offset,
                vec![s0, s1],
                Shape::matrix(rows as usize, cols as usize),
            ))
        }
        ("permute", 2) => {
            let d = device?;
            let order: Vec<usize> = args[1]
                .tensor()
                .ok()?
                .to_f64()
                .iter()
                .map(|&x| (x >= 1.0 && x.fract() == 0.0 && x <= 64.0).then_some(x as usize - 1))
                .collect::<Option<_>>()?;
            let mut seen = order.clone();
            seen.sort_unstable();
            seen.dedup();
            if seen.len() != order.len() || order.len() < d.shape().ndims() {
                return None;
            }
            let strides = element_strides(d.shape());
            let dims: Vec<usize> = order.iter().map(|&k| d.shape().dim(k)).collect();
            let strides = order
                .iter()
                .map(|&k| strides.get(k).copied().unwrap_or(0))
                .collect();
            Some(view(d, 0, strides, Shape::new(&dims)))
        }
        ("circshift", 2 | 3) => {
            let d = device?;
            let shape = d.shape().clone();
            let k = whole(&args[1])?;
            let dim = match args.get(2) {
                Some(v) => whole(v).filter(|&d| d >= 1 && d <= 64)? as usize - 1,
                None => shape.dims().iter().position(|&n| n != 1).unwrap_or(0),
            };
            let len = shape.dim(dim) as i64;
            if args[1].numel() != 1 || len == 0 {
                return None;
            }
            let shift = k.rem_euclid(len.max(1));
            if shift == 0 {
                return Some(Value::Device(d.clone()));
            }
            // The last `shift` positions along `dim`, then the rest.
            let strides = element_strides(&shape);
            let part = |from: i64, count: i64| {
                let mut dims = shape.dims().to_vec();
                dims[dim] = count as usize;
                view(d, from * strides[dim], strides.clone(), Shape::new(&dims))
            };
            let pieces = [part(len - shift, shift), part(0, len - shift)];
            cat(dim, &pieces, d.explicit)
        }
        ("repmat", 2 | 3) => {
            let d = device?;
            let counts: Vec<i64> = if args.len() == 3 {
                vec![whole(&args[1])?, whole(&args[2])?]
            } else {
                let t = args[1].tensor().ok()?;
                let v = t.to_f64();
                match v.len() {
                    1 => vec![v[0] as i64, v[0] as i64],
                    2 => vec![v[0] as i64, v[1] as i64],
                    _ => return None,
                }
            };
            let (m, n) = (counts[0], counts[1]);
            // A few copies are embeds in one kernel; many go the general way.
            if m < 1 || n < 1 || m * n > 8 {
                return None;
            }
            let me = Value::Device(d.clone());
            let column = cat(0, &vec![me; m as usize], explicit)?;
            cat(1, &vec![column; n as usize], explicit)
        }
        _ => None,
    }
}
