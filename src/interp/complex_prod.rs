//! `prod` and `cumprod` of complex gpuArrays along a dimension. A complex product is not a
//! part-wise reduction (the device's reductions and scans carry one real value), so it runs
//! as complex products of whole slices, each one fused elementwise device work:
//! - `prod`: the lane halved `ceil(log2 n)` times, slice `k` times slice `k + h` (an odd
//!   lane keeps its last slice for the next round);
//! - `cumprod`: Hillis-Steele, `ceil(log2 n)` rounds of `y(k) = y(k) * y(k - s)` for
//!   `s = 1, 2, 4, ...`.
//!
//! Singles multiply in double and are rounded once (the host computes them in f64). Both
//! multiply in another order than the host's left-to-right loop, so finite results
//! agree to rounding (about `log2(n)` products' worth, relative to the magnitudes
//! multiplied), and Inf/NaN come out as the host's where a lane holds at most one
//! non-finite element.

use super::Interp;
use super::complex::{join, part};
use super::complex_inverse::{Parts, as_class, cmul};
use super::error::MResult;
use super::lower;
use crate::graph::{self, Op};
use crate::values::class::Class;
use crate::values::complex_device::ComplexDevice;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use std::rc::Rc;

/// The device form of `prod(z)`, `prod(z, dim)`, `cumprod(z)`, `cumprod(z, dim)`, or None.
pub fn builtin(
    i: &mut Interp,
    name: &str,
    z: &ComplexDevice,
    args: &[Value],
) -> Option<MResult<Value>> {
    let shape = z.shape();
    let dim = match args.get(1..).unwrap_or(&[]) {
        [] => crate::values::ops::reduce::default_dim(&shape),
        [d] if !d.is_text() => {
            let k = d.scalar_f64().ok()?;
            if k.fract() != 0.0 || k < 1.0 || k as usize > shape.ndims() {
                return None;
            }
            k as usize - 1
        }
        _ => return None,
    };
    let n = shape.dim(dim);
    if n < 2 {
        return None;
    }
    // the array as [inner, n, outer], the lane along the middle dimension
    let dims = shape.dims();
    let inner: usize = dims.get(..dim)?.iter().product();
    let outer: usize = dims.get(dim + 1..)?.iter().product();
    let lanes = Shape::new(&[inner, n, outer]);
    // singles multiply in double where the device has it, rounded once as the host's are
    let class = z.class();
    let wide = if class == Class::Single && has_double() {
        Class::Double
    } else {
        class
    };
    let x = (
        as_class(&reshape(&part(&z.re), &lanes)?, wide)?,
        as_class(&reshape(&part(&z.im), &lanes)?, wide)?,
    );
    let r = match name {
        "prod" => halve(i, x, n),
        "cumprod" => scan(i, x, n),
        _ => return None,
    };
    let (re, im) = match r? {
        Ok(p) => p,
        Err(e) => return Some(Err(e)),
    };
    let mut out = dims.to_vec();
    if name == "prod" {
        *out.get_mut(dim)? = 1;
    }
    let out = Shape::new(&out);
    Some(join(
        as_class(&reshape(&re, &out)?, class)?,
        as_class(&reshape(&im, &out)?, class)?,
    ))
}

/// Whether the device computes in double.
pub(super) fn has_double() -> bool {
    crate::gpu::device::ready().is_some_and(|g| g.info.supports_double)
}

fn reshape(v: &Value, shape: &Shape) -> Option<Value> {
    let n = lower::node_of(v)?;
    if n.numel() != shape.numel() {
        return None;
    }
    let class = n.class;
    Some(lower::pending(
        graph::intern(Op::Reshape, vec![n], shape.clone(), class),
        true,
    ))
}

/// Slices `from..=to` (1-based) along the middle dimension of each part.
fn slices(i: &mut Interp, x: &Parts, from: usize, to: usize) -> Option<MResult<Parts>> {
    let k: Vec<f64> = (from..=to).map(|v| v as f64).collect();
    let range = Value::Tensor(Rc::new(Tensor::new(
        Shape::new(&[1, k.len()]),
        Data::F64(k),
    )));
    let args = [Value::str(":"), range, Value::str(":")];
    let re = match i.index_value(&x.0, &args) {
        Ok(v) => v,
        Err(e) => return Some(Err(e)),
    };
    let im = match i.index_value(&x.1, &args) {
        Ok(v) => v,
        Err(e) => return Some(Err(e)),
    };
    Some(Ok((re, im)))
}

/// Both parts of `a` and `b` joined along the middle dimension (device embeds).
fn cat(a: Parts, b: Parts) -> Option<Parts> {
    let two = Value::Num(2.0);
    Some((
        super::joins::builtin("cat", &[two.clone(), a.0, b.0])?,
        super::joins::builtin("cat", &[two, a.1, b.1])?,
    ))
}

macro_rules! take {
    ($e:expr) => {
        match $e? {
            Ok(v) => v,
            Err(e) => return Some(Err(e)),
        }
    };
}

/// The product of each lane of `x` ([inner, n, outer]).
fn halve(i: &mut Interp, mut x: Parts, mut n: usize) -> Option<MResult<Parts>> {
    while n > 1 {
        let h = n / 2;
        let a = take!(slices(i, &x, 1, h));
        let b = take!(slices(i, &x, h + 1, 2 * h));
        let mut c = cmul(&a, &b)?;
        if n % 2 == 1 {
            c = cat(c, take!(slices(i, &x, n, n)))?;
        }
        x = c;
        n = h + n % 2;
    }
    Some(Ok(x))
}

/// The running products of each lane of `x` ([inner, n, outer]).
fn scan(i: &mut Interp, mut x: Parts, n: usize) -> Option<MResult<Parts>> {
    let mut s = 1;
    while s < n {
        let head = take!(slices(i, &x, 1, s));
        let later = take!(slices(i, &x, s + 1, n));
        let before = take!(slices(i, &x, 1, n - s));
        x = cat(head, cmul(&later, &before)?)?;
        s *= 2;
    }
    Some(Ok(x))
}
