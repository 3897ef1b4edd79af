//! Conjugate symmetry of device transforms, as the host path has it (`builtins::fourier`):
//! `ifft` and `ifft2` of a conjugate-symmetric gpuArray (exactly: each element the conjugate
//! of its partner at minus its index) give a real result, as MATLAB's do without
//! 'symmetric'; and `fft` of a real gpuArray is made exactly conjugate symmetric (the
//! device computes an element and its partner along different paths, which round
//! differently), so `ifft(fft(x) .* H)` with a symmetric `H` is real on both sides. The
//! check reduces on the device to one logical that is read back (a few bytes, one sync):
//! the result's class depends on it.

use super::Interp;
use super::complex::{join, neg, part};
use super::error::MResult;
use super::lower;
use crate::graph::{self, Op};
use crate::values::class::Class;
use crate::values::ops::Bin;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use std::rc::Rc;

/// `v` with each element at minus its index (mod the size) along each of `dims`, gathered
/// on the device.
fn reflected(i: &mut Interp, v: &Value, dims: &[usize]) -> Option<Value> {
    let shape = v.shape();
    let args: Vec<Value> = (0..shape.ndims())
        .map(|d| {
            let n = shape.dim(d);
            if !dims.contains(&d) || n <= 1 {
                return Value::str(":");
            }
            let idx: Vec<f64> = std::iter::once(1.0)
                .chain((2..=n).rev().map(|k| k as f64))
                .collect();
            Value::Tensor(Rc::new(Tensor::new(Shape::new(&[1, n]), Data::F64(idx))))
        })
        .collect();
    i.index_value(v, &args).ok()
}

/// Whether the gpuArray `x` (real or complex) is exactly conjugate symmetric along `dims`:
/// computed on the device, one logical read back. None: not decidable here.
fn conjugate_symmetric(i: &mut Interp, x: &Value, dims: &[usize]) -> Option<bool> {
    let (re, im) = match x {
        Value::DeviceComplex(z) => (part(&z.re), Some(part(&z.im))),
        Value::Device(_) => (x.clone(), None),
        _ => return None,
    };
    let mut same = lower::binary(Bin::Eq, &re, &reflected(i, &re, dims)?)?;
    if let Some(im) = im {
        let partner = neg(&reflected(i, &im, dims)?)?;
        same = lower::binary(Bin::And, &same, &lower::binary(Bin::Eq, &im, &partner)?)?;
    }
    let all = lower::reduction("all", &[same, Value::str("all")])?;
    all.host().ok()?.scalar_f64().ok().map(|v| v != 0.0)
}

/// The dimensions `ifft`/`ifft2`/`fft` of `args` transform, when the lengths are the
/// input's own (the host checks symmetry after padding; such calls keep a complex result).
fn plain_dims(name: &str, args: &[Value]) -> Option<Vec<usize>> {
    let x = args.first()?;
    let shape = x.shape();
    if name.ends_with('2') {
        return (args.len() == 1 && shape.ndims() == 2).then(|| vec![0, 1]);
    }
    if args.len() > 3 {
        return None;
    }
    if let Some(n) = args.get(1) {
        let same = matches!(n, Value::Tensor(t) if t.numel() == 0 && !n.is_text());
        if !same {
            return None;
        }
    }
    let d = match args.get(2) {
        Some(v) => super::scans::dim_of(v)?,
        None => shape.first_nonsingleton(),
    };
    (d < shape.ndims()).then(|| vec![d])
}

/// `ifft(X)` / `ifft2(X)` of a conjugate-symmetric gpuArray: the real part of the device
/// transform, a real gpuArray. None: not symmetric (or not decidable), the transform as is.
pub fn real_inverse(i: &mut Interp, name: &str, args: &[Value]) -> Option<MResult<Value>> {
    if !matches!(name, "ifft" | "ifft2") || args.iter().skip(1).any(Value::is_text) {
        return None;
    }
    let x = args.first()?;
    if x.numel() == 0 || !matches!(x, Value::Device(_) | Value::DeviceComplex(_)) {
        return None;
    }
    let dims = plain_dims(name, args)?;
    if !conjugate_symmetric(i, x, &dims)? {
        return None;
    }
    let r = super::fourier::builtin(name, args)?;
    Some(r.map(|v| match v {
        Value::DeviceComplex(z) => part(&z.re),
        v => v,
    }))
}

/// `fft(x)` of a real gpuArray along one dimension, made exactly conjugate symmetric as the
/// host's (`make_hermitian`): the second half of each lane the conjugate of the first,
/// reflected, and the imaginary parts at index 0 and n/2 zero.
pub fn hermitian_forward(i: &mut Interp, args: &[Value], y: Value) -> MResult<Value> {
    let Some(x) = args.first() else {
        return Ok(y);
    };
    let Value::DeviceComplex(z) = &y else {
        return Ok(y);
    };
    if !matches!(x, Value::Device(_)) || args.iter().skip(1).any(Value::is_text) {
        return Ok(y);
    }
    let made = (|| {
        let d = match args.get(2) {
            Some(v) => super::scans::dim_of(v)?,
            None => x.shape().first_nonsingleton(),
        };
        let shape = z.re.shape.clone();
        let n = shape.dim(d);
        let class = z.re.class;
        if n <= 1 || d >= shape.ndims() {
            return None;
        }
        let (re, im) = (part(&z.re), part(&z.im));
        let (re_r, im_r) = (reflected(i, &re, &[d])?, reflected(i, &im, &[d])?);
        // 0-based index along d, as a double
        let k = lower::pending(
            graph::intern(Op::Iota(Some(d)), vec![], shape.clone(), Class::Double),
            true,
        );
        let k = lower::binary(Bin::Sub, &k, &Value::Num(1.0))?;
        let upper = lower::binary(Bin::Gt, &k, &Value::Num((n / 2) as f64))?;
        let self_partner = lower::binary(
            Bin::Or,
            &lower::binary(Bin::Eq, &k, &Value::Num(0.0))?,
            &lower::binary(
                Bin::Eq,
                &k,
                &Value::Num(if n % 2 == 0 { (n / 2) as f64 } else { -1.0 }),
            )?,
        )?;
        let select = |m: &Value, a: &Value, b: &Value| -> Option<Value> {
            let m = lower::node_of(m)?;
            let a = lower::node_of(&super::complex::spread(a.clone(), &shape, class)?)?;
            let b = lower::node_of(&super::complex::spread(b.clone(), &shape, class)?)?;
            Some(lower::pending(
                graph::intern(Op::Select, vec![m, a, b], shape.clone(), class),
                true,
            ))
        };
        let re2 = select(&upper, &re_r, &re)?;
        let im2 = select(
            &upper,
            &neg(&im_r)?,
            &select(&self_partner, &Value::Num(0.0), &im)?,
        )?;
        join(re2, im2).ok()
    })();
    Ok(made.unwrap_or(y))
}
