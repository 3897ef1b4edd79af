//! `fft`, `ifft`, `fft2` and `ifft2` of gpuArrays (real or complex, single or double) on the
//! device (`gpu::fft`): the result is a complex gpuArray whose parts never leave the device
//! (`ifft(..., 'symmetric')` gives the real part, a real gpuArray). Any length: powers of two
//! by radix-2 passes, others by Bluestein's algorithm. `fft(x, n)` pads or truncates, `dim`
//! picks the dimension. Unlike the host, a device `ifft` does not look for conjugate symmetry
//! (that would read the values back): its result is complex unless 'symmetric' is given.
//! Forms it does not take (other classes, empty arrays or lengths, bad arguments, whose
//! errors the host reports, 'symmetric' in 2-D) return None and the host computes them.

use super::complex::of_nodes;
use super::scans::device_input;
use crate::gpu::buffers::DeviceBuffer;
use crate::gpu::fft::{Job, Lanes};
use crate::graph::{self, Data, Precision};
use crate::interp::error::MResult;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::rc::Rc;

/// A length argument: `[]` (Some(None)) or a positive whole number; None for anything else.
fn length(v: &Value) -> Option<Option<usize>> {
    if matches!(v, Value::Tensor(t) if t.numel() == 0 && t.class() != Class::Char) {
        return Some(None);
    }
    if v.numel() != 1 || v.is_text() {
        return None;
    }
    let n = v.scalar_f64().ok()?;
    (n >= 1.0 && n.fract() == 0.0 && n < (1u64 << 31) as f64).then_some(Some(n as usize))
}

pub fn builtin(name: &str, args: &[Value]) -> Option<MResult<Value>> {
    let x = args.first()?;
    let explicit = match x {
        Value::DeviceComplex(_) => true,
        Value::Device(d) => d.explicit,
        _ => false,
    };
    if !explicit || !crate::gpu::offload_allowed() {
        return None;
    }
    let g = crate::gpu::device::ready()?;
    let (class, p) = match x.num_class()? {
        Class::Single => (Class::Single, Precision::F32),
        Class::Double if g.info.supports_double => (Class::Double, Precision::F64),
        _ => return None,
    };
    let inverse = name.starts_with('i');
    let two = name.ends_with('2');
    let mut args: Vec<Value> = args.to_vec();
    let mut symmetric = false;
    if inverse && args.len() > 1 && args.last().is_some_and(Value::is_text) {
        let flag = args.pop()?.text().ok()?.to_ascii_lowercase();
        symmetric = match flag.as_str() {
            "symmetric" => true,
            "nonsymmetric" => false,
            _ => return None,
        };
    }
    let shape = x.shape();
    if shape.numel() == 0 {
        return None;
    }
    let dims: Vec<(usize, usize)> = if two {
        if args.len() == 2 || args.len() > 3 || symmetric {
            return None;
        }
        let m = match args.get(1) {
            Some(v) => length(v)?,
            None => None,
        };
        let n = match args.get(2) {
            Some(v) => length(v)?,
            None => None,
        };
        vec![
            (0, m.unwrap_or(shape.dim(0))),
            (1, n.unwrap_or(shape.dim(1))),
        ]
    } else {
        if args.len() > 3 {
            return None;
        }
        let d = match args.get(2) {
            Some(v) => super::scans::dim_of(v)?,
            None => shape.first_nonsingleton(),
        };
        let n = match args.get(1) {
            Some(v) => length(v)?,
            None => None,
        };
        vec![(d, n.unwrap_or(shape.dim(d)))]
    };
    let buffer = |v: &Value| -> Option<Rc<DeviceBuffer>> {
        let input = device_input(g, v)?;
        (input.precision == p).then_some(input.buffer)
    };
    let (mut re, mut im) = match x {
        Value::DeviceComplex(z) => (
            buffer(&super::complex::part(&z.re))?,
            Some(buffer(&super::complex::part(&z.im))?),
        ),
        _ => (buffer(x)?, None),
    };
    let mut shape = shape;
    // every transform must fit before any runs
    let mut check = shape.clone();
    for &(d, n) in &dims {
        let lanes = lanes_of(&check, d);
        if n == 0 || !crate::gpu::fft::fits(g, lanes, n, p) {
            return None;
        }
        check = check.with_dim(d, n);
    }
    for &(d, n) in &dims {
        let job = Job {
            re: &re,
            im: im.as_deref(),
            lanes: lanes_of(&shape, d),
            n,
            inverse,
            symmetric,
        };
        let (yr, yi) = match crate::gpu::fft::transform(g, &job) {
            Ok(r) => r,
            Err(e) => return Some(Err(e)),
        };
        re = Rc::new(yr);
        im = Some(Rc::new(yi));
        shape = shape.with_dim(d, n);
    }
    let leaf = |b: Rc<DeviceBuffer>| graph::leaf(Data::Device(b), shape.clone(), class);
    if symmetric {
        return Some(Ok(super::complex::part(&leaf(re))));
    }
    let im = im?;
    Some(Ok(of_nodes(leaf(re), leaf(im))))
}

fn lanes_of(shape: &Shape, d: usize) -> Lanes {
    let dims = shape.dims();
    Lanes {
        inner: dims.iter().take(d).product(),
        len: shape.dim(d),
        outer: dims.iter().skip(d + 1).product::<usize>().max(1),
    }
}
