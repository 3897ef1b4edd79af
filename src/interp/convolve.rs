//! `conv` and FIR `filter` of gpuArrays on the device (`gpu::conv`): the result stays a
//! gpuArray. Taps given on the host go up (they are short); a gpuArray signal never comes
//! down. Forms the kernel does not take (complex or integer values, IIR filters, initial or
//! final conditions, empty inputs) return None and the host computes them.

use super::scans::{device_input, result};
use crate::gpu::buffers::DeviceBuffer;
use crate::gpu::conv::ConvShape;
use crate::gpu::device::Gpu;
use crate::graph::Precision;
use crate::interp::error::MResult;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;
use std::rc::Rc;

/// Taps (or a short operand) uploaded at most this long; longer host operands leave the
/// call to the host.
const SHORT_UPLOAD: usize = 1 << 22;

pub fn builtin(name: &str, args: &[Value], nargout: usize) -> Option<MResult<Vec<Value>>> {
    if nargout > 1 {
        return None;
    }
    let v = match name {
        "conv" => conv(args)?,
        "filter" => filter(args)?,
        _ => return None,
    };
    Some(v.map(|v| vec![v]))
}

/// Whether a value is a real single or double array the device takes.
fn real_float(v: &Value) -> Option<Class> {
    let class = v.num_class()?;
    if !matches!(class, Class::Single | Class::Double) || v.is_complex() {
        return None;
    }
    Some(class)
}

fn precision_for(g: &Gpu, single: bool) -> Option<Precision> {
    if single {
        Some(Precision::F32)
    } else if g.info.supports_double && g.info.supports_int64 {
        Some(Precision::F64)
    } else {
        None
    }
}

/// `v`'s values in a device buffer of precision `p`, times `scale`: a gpuArray of that
/// precision as it is stored (scale 1), anything short through the host.
fn operand(g: &Gpu, v: &Value, p: Precision, scale: f64) -> Option<Rc<DeviceBuffer>> {
    if scale == 1.0 {
        if let Some(x) = device_input(g, v) {
            if x.precision == p {
                return Some(x.buffer);
            }
        }
    }
    if v.numel() > SHORT_UPLOAD {
        return None;
    }
    let t = v.tensor().ok()?;
    let t = if scale == 1.0 {
        t
    } else {
        let scaled: Vec<f64> = t.to_f64().iter().map(|x| x * scale).collect();
        std::borrow::Cow::Owned(Tensor::f64(t.shape.clone(), scaled))
    };
    crate::gpu::buffers::upload_tensor(g, &t, p)
        .ok()
        .map(Rc::new)
}

fn explicit(args: &[Value]) -> bool {
    args.iter()
        .any(|v| matches!(v, Value::Device(d) if d.explicit))
}

/// conv(u, v) and conv(u, v, shape) of real vectors.
fn conv(args: &[Value]) -> Option<MResult<Value>> {
    if !(2..=3).contains(&args.len()) || !explicit(&args[..2]) {
        return None;
    }
    let (u, v) = (&args[0], &args[1]);
    let (cu, cv) = (real_float(u)?, real_float(v)?);
    let (su, sv) = (u.shape(), v.shape());
    if su.numel() == 0 || sv.numel() == 0 || !su.is_vector() || !sv.is_vector() {
        return None;
    }
    let part = match args.get(2) {
        None => "full".to_string(),
        Some(w) => super::scans::word(w)?,
    };
    let (na, nb) = (su.numel(), sv.numel());
    let (start, len) = match part.as_str() {
        "full" => (0, na + nb - 1),
        "same" => (nb / 2, na),
        "valid" => (nb - 1, (na + 1).saturating_sub(nb)),
        _ => return None,
    };
    let g = crate::gpu::device::ready()?;
    let single = cu == Class::Single || cv == Class::Single;
    let p = precision_for(g, single)?;
    let shape = ConvShape {
        inner: 1,
        outer: 1,
        na,
        nb,
        n_out: len,
        start,
        filter: false,
    };
    if len == 0 || !crate::gpu::conv::fits(g, &shape, p.bytes()) {
        return None;
    }
    let x = operand(g, u, p, 1.0)?;
    let h = operand(g, v, p, 1.0)?;
    // Orientation as the host's conv: the full result follows the longer input (v on a tie),
    // the parts follow u; a row stays a row, anything else gives a column.
    let row = match part.as_str() {
        "full" if na > nb => su.rows() == 1,
        "full" => sv.rows() == 1,
        _ => su.rows() == 1,
    };
    let out = if row {
        Shape::row(len)
    } else {
        Shape::col(len)
    };
    let class = if single { Class::Single } else { Class::Double };
    Some(crate::gpu::conv::run(g, &x, &h, &shape).map(|b| result(b, out, class, true)))
}

/// filter(b, a, x) and filter(b, a, x, [], dim) where `a` is a scalar or zero past its
/// first element (a FIR filter).
fn filter(args: &[Value]) -> Option<MResult<Value>> {
    if !(3..=5).contains(&args.len()) || !explicit(&args[..3]) {
        return None;
    }
    let (b, a, x) = (&args[0], &args[1], &args[2]);
    if let Some(zi) = args.get(3) {
        if !zi.is_empty() {
            return None;
        }
    }
    let cx = real_float(x)?;
    let (cb, ca) = (real_float(b)?, real_float(a)?);
    if !b.shape().is_vector() || !a.shape().is_vector() || b.numel() == 0 || a.numel() > 64 {
        return None;
    }
    let den = a.tensor().ok()?;
    let den = den.to_f64();
    let a0 = *den.first()?;
    if a0 == 0.0 || !a0.is_finite() || den[1..].iter().any(|&c| c != 0.0) {
        return None;
    }
    let shape = x.shape();
    if shape.numel() == 0 {
        return None;
    }
    let d = match args.get(4) {
        Some(v) => super::scans::dim_of(v)?,
        None => crate::values::ops::reduce::default_dim(&shape),
    };
    let dims = shape.ndims().max(d + 1);
    let inner: usize = (0..d).map(|k| shape.dim(k)).product();
    let len = shape.dim(d);
    let outer: usize = (d + 1..dims).map(|k| shape.dim(k)).product();
    let g = crate::gpu::device::ready()?;
    let single = [cx, cb, ca].contains(&Class::Single);
    let p = precision_for(g, single)?;
    let conv = ConvShape {
        inner,
        outer,
        na: len,
        nb: b.numel(),
        n_out: len,
        start: 0,
        filter: true,
    };
    if !crate::gpu::conv::fits(g, &conv, p.bytes()) {
        return None;
    }
    let xs = operand(g, x, p, 1.0)?;
    let h = operand(g, b, p, 1.0 / a0)?;
    let class = if single { Class::Single } else { Class::Double };
    Some(crate::gpu::conv::run(g, &xs, &h, &conv).map(|buf| result(buf, shape, class, true)))
}
