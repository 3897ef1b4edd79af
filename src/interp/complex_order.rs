//! MATLAB's order of complex numbers on the device: by magnitude, then by angle
//! (`elementwise::cmp_complex`, the host's rule), for complex gpuArrays.
//! - `sort(z)`, `sort(z, dim)`, `'ascend'`/`'descend'`, with the indices, of vectors and
//!   matrices: two stable device sorts carrying places (`gpu::sort` through the real `sort`),
//!   by angle first and then by magnitude (least significant key first, as a radix sort
//!   does), each lane's elements taken along `dim` by linear indices made on the device.
//! - `max(z)`, `min(z)`, `max(z, [], dim)`, with the index: reductions of real keys. Elements
//!   with a NaN part are skipped (the host's rule); the magnitude's extreme, then the angle's
//!   extreme among the elements of that magnitude, then the first place holding both; the
//!   value is read at that place by a masked reduction (exact: one element survives). A lane
//!   of NaNs gives `NaN + 0i` at place 1, as the host's.

use super::Interp;
use super::complex::{join, part};
use super::complex_fns::select;
use super::complex_inverse::as_class;
use super::error::MResult;
use super::function::Frame;
use super::lower;
use crate::graph::{self, Op};
use crate::values::class::Class;
use crate::values::complex_device::ComplexDevice;
use crate::values::ops::{Bin, Red, Un};
use crate::values::shape::Shape;
use crate::values::value::Value;

/// The device form of `sort`, `max` or `min` of a complex gpuArray, or None (the host).
pub fn builtin(
    i: &mut Interp,
    f: &mut Frame,
    name: &str,
    z: &ComplexDevice,
    args: &[Value],
    nargout: usize,
) -> Option<MResult<Vec<Value>>> {
    match name {
        "sort" if nargout <= 2 => sort(i, f, z, args, nargout),
        "max" | "min" if nargout <= 2 => extreme(name == "max", z, args, nargout),
        _ => None,
    }
}

/// A dimension argument (1-based, a whole number within `ndims`) as 0-based.
fn dim_arg(v: &Value, shape: &Shape) -> Option<usize> {
    let k = v.scalar_f64().ok()?;
    if v.is_text() || k.fract() != 0.0 || k < 1.0 || k as usize > shape.ndims() {
        return None;
    }
    Some(k as usize - 1)
}

/// Each element's 1-based subscript along `dim`, in `class`.
fn iota(shape: &Shape, dim: usize, class: Class) -> Value {
    lower::pending(
        graph::intern(Op::Iota(Some(dim)), vec![], shape.clone(), class),
        true,
    )
}

/// The linear indices that take, in each lane along `dim` of a 2-D array of `shape`, the
/// elements at the subscripts `p` (an array of that shape).
fn along(p: &Value, shape: &Shape, dim: usize) -> Option<Value> {
    let rows = Value::Num(shape.dim(0) as f64);
    let one = Value::Num(1.0);
    let b = |op, x: &Value, y: &Value| lower::binary(op, x, y);
    if dim == 0 {
        // p + rows * (column - 1)
        let col = iota(shape, 1, Class::Double);
        b(Bin::Add, p, &b(Bin::Mul, &rows, &b(Bin::Sub, &col, &one)?)?)
    } else {
        // row + rows * (p - 1)
        let row = iota(shape, 0, Class::Double);
        b(Bin::Add, &row, &b(Bin::Mul, &rows, &b(Bin::Sub, p, &one)?)?)
    }
}

/// `x(idx)` with device positions that lie within `x` by construction (made from a sort's
/// places): the index is computed and remembered as checked, so the gather reads nothing
/// back.
fn take(i: &mut Interp, x: &Value, idx: Value) -> MResult<Value> {
    if let Value::Device(d) = &idx {
        if crate::plan::realise(&d.node).is_ok() {
            crate::plan::gathers::remember(&graph::memory::settled(&d.node), x.numel());
        }
    }
    i.index_value(x, &[idx])
}

fn sort(
    i: &mut Interp,
    f: &mut Frame,
    z: &ComplexDevice,
    args: &[Value],
    nargout: usize,
) -> Option<MResult<Vec<Value>>> {
    let shape = z.shape();
    if shape.ndims() != 2 || shape.numel() < 2 {
        return None;
    }
    let mut dim = crate::values::ops::reduce::default_dim(&shape);
    let mut descend = false;
    for (k, a) in args.iter().enumerate().skip(1) {
        if a.is_text() {
            match a.text().ok()?.to_ascii_lowercase().as_str() {
                "ascend" => descend = false,
                "descend" => descend = true,
                _ => return None,
            }
        } else if k == 1 {
            dim = dim_arg(a, &shape)?;
        } else {
            return None;
        }
    }
    if dim > 1 || shape.dim(dim) < 2 {
        return None;
    }
    let sort = crate::builtins::lookup("sort")?;
    let (re, im) = key_parts(z)?;
    // the places that sort `key` along dim (stable)
    let mut places = |i: &mut Interp, key: Value| -> Option<MResult<Value>> {
        let mut call = vec![key, Value::Num(dim as f64 + 1.0)];
        if descend {
            call.push(Value::str("descend"));
        }
        Some(match i.call_builtin(f, sort, call, 2) {
            Ok(mut r) if r.len() == 2 => Ok(r.swap_remove(1)),
            Ok(_) => return None,
            Err(e) => Err(e),
        })
    };
    macro_rules! take {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                Err(e) => return Some(Err(e)),
            }
        };
    }
    let angle = lower::binary(Bin::Atan2, &im, &re)?;
    let by_angle = take!(places(i, angle)?);
    let size = lower::binary(Bin::Hypot, &re, &im)?;
    let size = take!(take(i, &size, along(&by_angle, &shape, dim)?));
    let by_size = take!(places(i, size)?);
    let order = take!(take(i, &by_angle, along(&by_size, &shape, dim)?));
    if !matches!(order, Value::Device(_)) {
        return None;
    }
    let at = along(&order, &shape, dim)?;
    let sorted = take!(take(
        i,
        &Value::DeviceComplex(std::rc::Rc::new(z.clone())),
        at
    ));
    let mut out = vec![sorted];
    if nargout == 2 {
        out.push(order);
    }
    Some(Ok(out))
}

/// The parts the order's keys (magnitude, angle) are computed from: singles in double where
/// the device has it, as the host compares them (in f64), so that ties are the host's.
fn key_parts(z: &ComplexDevice) -> Option<(Value, Value)> {
    let (re, im) = (part(&z.re), part(&z.im));
    if z.class() != Class::Single || !super::complex_prod::has_double() {
        return Some((re, im));
    }
    Some((as_class(&re, Class::Double)?, as_class(&im, Class::Double)?))
}

/// A reduction node (NaN omitted) of `v` along `dim` (or of every element).
fn reduce(op: Red, v: &Value, dim: usize, all: bool) -> Option<Value> {
    let n = lower::node_of(v)?;
    let shape = if all {
        Shape::scalar()
    } else {
        let mut dims = n.shape.dims().to_vec();
        *dims.get_mut(dim)? = 1;
        Shape::new(&dims)
    };
    let class = crate::values::ops::reduce::out_class(op, n.class);
    let node = graph::intern(
        Op::Reduce {
            op,
            dim,
            all,
            omitnan: true,
        },
        vec![n],
        shape,
        class,
    );
    Some(lower::pending(node, true))
}

fn extreme(
    is_max: bool,
    z: &ComplexDevice,
    args: &[Value],
    nargout: usize,
) -> Option<MResult<Vec<Value>>> {
    let shape = z.shape();
    if shape.numel() == 0 {
        return None;
    }
    let (dim, all) = match args.get(1..).unwrap_or(&[]) {
        [] => (crate::values::ops::reduce::default_dim(&shape), false),
        [e, d] if e.is_empty_double_literal() => match d.text().ok() {
            Some(t) if t.eq_ignore_ascii_case("all") => (0, true),
            Some(_) => return None,
            None => (dim_arg(d, &shape)?, false),
        },
        _ => return None,
    };
    let (re, im) = (part(&z.re), part(&z.im));
    let class = re.num_class()?;
    let (kr, ki) = key_parts(z)?;
    let kclass = kr.num_class()?;
    let op = if is_max { Red::Max } else { Red::Min };
    let b = |op, x: &Value, y: &Value| lower::binary(op, x, y);
    let nan = Value::Num(f64::NAN);
    let missing = b(
        Bin::Or,
        &lower::unary(Un::IsNan, &re)?,
        &lower::unary(Un::IsNan, &im)?,
    )?;
    let valid = lower::unary(Un::Not, &missing)?;
    // the extreme magnitude, then the extreme angle among the elements of that magnitude
    let size = b(Bin::Hypot, &kr, &ki)?;
    let m = reduce(op, &select(&valid, &size, &nan, kclass)?, dim, all)?;
    let on_top = b(Bin::And, &valid, &b(Bin::Eq, &size, &m)?)?;
    let angle = b(Bin::Atan2, &ki, &kr)?;
    let a = reduce(op, &select(&on_top, &angle, &nan, kclass)?, dim, all)?;
    let hit = b(Bin::And, &on_top, &b(Bin::Eq, &angle, &a)?)?;
    // the first place holding both (subscripts are exact in single up to 2^24)
    let lane = if all { shape.numel() } else { shape.dim(dim) };
    let iclass = if class == Class::Single && lane <= 1 << 24 {
        Class::Single
    } else {
        Class::Double
    };
    let places = if all {
        lower::pending(
            graph::intern(Op::Iota(None), vec![], shape.clone(), iclass),
            true,
        )
    } else {
        iota(&shape, dim, iclass)
    };
    let first = reduce(Red::Min, &b(Bin::Div, &places, &hit)?, dim, all)?;
    let none = lower::unary(Un::IsNan, &m)?;
    let first = select(&none, &Value::Num(1.0), &first, iclass)?;
    // the value at that place: the one element a masked reduction keeps
    let at = b(Bin::Eq, &places, &first)?;
    let pick = |p: &Value| reduce(Red::Max, &select(&at, p, &nan, class)?, dim, all);
    let (vr, vi) = (pick(&re)?, pick(&im)?);
    let vr = select(&none, &nan, &vr, class)?;
    let vi = select(&none, &Value::Num(0.0), &vi, class)?;
    let value = match join(vr, vi) {
        Ok(v) => v,
        Err(e) => return Some(Err(e)),
    };
    let mut out = vec![value];
    if nargout == 2 {
        out.push(match &first {
            Value::Device(d) if d.class() != Class::Double => super::views::cast(d, Class::Double),
            _ => first,
        });
    }
    Some(Ok(out))
}
