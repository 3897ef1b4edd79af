//! Complex gpuArrays (`values::complex_device`): a complex value is its real and imaginary
//! parts, two real graph nodes, and complex arithmetic lowers to real nodes on them through
//! the ordinary real lowering (`lower::binary`, `lower::unary`, reductions, views), so it
//! fuses as real work does. What lowers (no read-back, no fallback):
//! - arithmetic: `+ - .* ./ .\` with real or complex operands (complex constants as two
//!   scalar constants), `*` `/` `\` by a scalar, unary minus, `'` and `.'`;
//! - matrix products `A*B`, `A'*B`, `A.'*B`, `A*v`, `v'*A`, outer products, real times
//!   complex (`complex_fns::mtimes`: four real device products, full precision), `dot`, and
//!   `sum(a .* conj(b))` as written;
//! - powers `z .^ p` for a scalar `p`, real or complex (whole `p` up to 64 by repeated
//!   squaring, as the host's `cpow`; others `exp(p * log(z))`);
//! - elementwise functions by the host's (num-complex) formulas, special cases (branch
//!   cuts, signed zeros, `0 .^ p`) as `Select` nodes: `sqrt log log2 log10 exp sin cos tan
//!   sinh cosh tanh sign abs angle conj real imag round floor ceil fix isnan isinf isfinite`,
//!   `1 ./ z`;
//! - comparisons `== ~=` (both parts) and `< <= > >=` (real parts, MATLAB's rule);
//! - `complex(a, b)`, indexing, concatenation, and builtins that act on each part alone
//!   (`sum mean cumsum diff reshape flip circshift permute repmat fftshift ...`, PARTWISE);
//! - `fft ifft fft2 ifft2` (`interp::fourier`);
//! - `asin acos atan asinh acosh atanh` (`complex_inverse`), `x .^ y` with exponent arrays
//!   (`complex_power`, the host's `cpow` per element), `prod` and `cumprod` along a dimension
//!   (`complex_prod`, products of whole slices), `sort` of vectors and matrices with indices
//!   and `max`/`min` with indices (`complex_order`, MATLAB's magnitude-then-angle order).
//! Everything else is an honest fallback: the value is read back as a host complex array,
//! the host computes (MATLAB's results and errors), the result is a gpuArray again, and
//! `MATFUSE_DEBUG` names complex values as the reason (a fallback in gpuStats). Still on the
//! host (tests/suite/gpu_complex_device.rs lists them): matrix division `A \ B`, `A / B` (the
//! device has no factorizations; real ones are solved on the host too), `max(a, b)` of two
//! arrays, 'omitnan' reductions and 'reverse' scans of complex values.

use super::Interp;
use super::error::{MError, MResult};
use super::function::Frame;
use super::lower;
use crate::builtins::Builtin;
use crate::graph::{self, Node, Op};
use crate::syntax::ast::{BinOp, UnOp};
use crate::values::class::Class;
use crate::values::complex_device::ComplexDevice;
use crate::values::device::DeviceValue;
use crate::values::ops::{Bin, Un, elementwise};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use num_complex::Complex64;
use std::rc::Rc;

/// A part as an explicit real gpuArray, for the real lowering.
pub(super) fn part(n: &Rc<Node>) -> Value {
    Value::Device(Rc::new(DeviceValue {
        node: n.clone(),
        explicit: true,
    }))
}

/// A complex value of two computed device buffers' nodes.
pub(super) fn of_nodes(re: Rc<Node>, im: Rc<Node>) -> Value {
    Value::DeviceComplex(Rc::new(ComplexDevice { re, im }))
}

/// Whether an operation on these values involves complex gpuArrays: one of them is, or a
/// complex host value meets a gpuArray.
pub fn involved(vals: &[&Value]) -> bool {
    vals.iter().any(|v| matches!(v, Value::DeviceComplex(_)))
        || (vals
            .iter()
            .any(|v| matches!(v, Value::Tensor(t) if t.is_complex()))
            && lower::explicit(vals))
}

/// Says (under MATFUSE_DEBUG) that `what` of a complex gpuArray runs on the host, and counts
/// the fallback.
pub fn note_fallback(what: &str) {
    crate::gpu::stats::add_fallback();
    if std::env::var_os("MATFUSE_DEBUG").is_some() {
        eprintln!(
            "matfuse: {what} fell back to the host: complex gpuArray (no device form for complex values)"
        );
    }
}

/// A host complex array (or scalar) as a complex gpuArray, its parts uploaded now.
pub fn to_device(t: &Tensor) -> MResult<Value> {
    let z = ComplexDevice::from_host(t);
    let up = |n: &Rc<Node>| -> MResult<Rc<Node>> {
        match lower::to_device(part(n))? {
            Value::Device(d) => Ok(d.node.clone()),
            _ => Ok(n.clone()),
        }
    };
    Ok(of_nodes(up(&z.re)?, up(&z.im)?))
}

/// A host result made a complex gpuArray again (its parts stay on the host until a kernel
/// reads them).
pub fn rewrap(t: &Tensor) -> Value {
    Value::DeviceComplex(Rc::new(ComplexDevice::from_host(t)))
}

/// An operand: real, or complex as (real part, imaginary part).
pub(super) enum Split {
    Real(Value),
    Complex(Value, Value),
}

fn single_scalar(x: f64) -> Value {
    Value::Tensor(Rc::new(Tensor::new(
        Shape::scalar(),
        Data::F32(vec![x as f32]),
    )))
}

pub(super) fn split(v: &Value) -> Option<Split> {
    match v {
        Value::DeviceComplex(z) => Some(Split::Complex(part(&z.re), part(&z.im))),
        Value::Tensor(t) if t.is_complex() && t.numel() == 1 => {
            let z = *t.to_c64().first()?;
            Some(if t.class() == Class::Single {
                Split::Complex(single_scalar(z.re), single_scalar(z.im))
            } else {
                Split::Complex(Value::Num(z.re), Value::Num(z.im))
            })
        }
        Value::Tensor(t) if t.is_complex() && t.numel() > 0 => {
            let z = ComplexDevice::from_host(t);
            Some(Split::Complex(part(&z.re), part(&z.im)))
        }
        Value::Device(_) | Value::Num(_) | Value::Bool(_) => Some(Split::Real(v.clone())),
        Value::Tensor(t)
            if matches!(t.class(), Class::Double | Class::Single | Class::Logical)
                && t.numel() > 0 =>
        {
            Some(Split::Real(v.clone()))
        }
        _ => None,
    }
}

fn is_graph(v: &Value) -> bool {
    matches!(v, Value::Device(_))
}

/// `a op b` on real parts: in the graph, or (two host scalars) on the host.
pub(super) fn bin(op: Bin, a: &Value, b: &Value) -> Option<Value> {
    if !is_graph(a) && !is_graph(b) {
        return elementwise::binary(op, a, b).ok();
    }
    lower::binary(op, a, b)
}

pub(super) fn neg(a: &Value) -> Option<Value> {
    if !is_graph(a) {
        return elementwise::unary(Un::Neg, a).ok();
    }
    lower::unary(Un::Neg, a)
}

/// `v` over `shape` in `class`: as it is when it already is, else times a fill of ones (which
/// broadcasts and converts, keeping -0, NaN and Inf).
pub(super) fn spread(v: Value, shape: &Shape, class: Class) -> Option<Value> {
    if v.shape() == *shape && v.num_class() == Some(class) {
        return Some(v);
    }
    if let Value::Device(d) = &v {
        if d.shape() == shape {
            return Some(super::views::cast(d, class));
        }
    }
    let ones = graph::intern(
        Op::Binary(Bin::Mul),
        vec![lower::constant(1.0, class), lower::constant(1.0, class)],
        shape.clone(),
        class,
    );
    let ones = lower::pending(ones, true);
    let r = lower::binary(Bin::Mul, &v, &ones)?;
    match &r {
        Value::Device(d) if d.class() != class => Some(super::views::cast(d, class)),
        _ => Some(r),
    }
}

/// Two real parts as one complex gpuArray: broadcast to one shape and one class (single if
/// either is).
pub(super) fn join(re: Value, im: Value) -> MResult<Value> {
    let joined = (|| {
        let shape = graph::broadcast(&re.shape(), &im.shape())?;
        let single = re.num_class() == Some(Class::Single) || im.num_class() == Some(Class::Single);
        let class = if single { Class::Single } else { Class::Double };
        let r = spread(re.clone(), &shape, class)?;
        let i = spread(im.clone(), &shape, class)?;
        match (r, i) {
            (Value::Device(a), Value::Device(b)) => Some(of_nodes(a.node.clone(), b.node.clone())),
            _ => None,
        }
    })();
    if let Some(v) = joined {
        return Ok(v);
    }
    // Parts the graph did not take: combined on the host.
    let (r, i) = (re.host()?.into_tensor()?, im.host()?.into_tensor()?);
    if r.shape != i.shape {
        return Err(MError::new(
            "matfuse:internal",
            "The parts of a complex value differ in size.",
        ));
    }
    let single = r.class() == Class::Single || i.class() == Class::Single;
    let z: Vec<Complex64> = r
        .to_f64()
        .iter()
        .zip(i.to_f64().iter())
        .map(|(&a, &b)| Complex64::new(a, b))
        .collect();
    let class = if single { Class::Single } else { Class::Double };
    Ok(rewrap(&Tensor::new(
        r.shape.clone(),
        Data::from_c64(class, z),
    )))
}

/// The parts of `a op b` for the operations complex arithmetic lowers (None: the host).
pub(super) fn arith(op: Bin, a: &Value, b: &Value) -> Option<(Value, Value)> {
    use Split::{Complex, Real};
    let (x, y) = (split(a)?, split(b)?);
    Some(match (op, x, y) {
        (_, Real(_), Real(_)) => return None,
        (Bin::Add | Bin::Sub, Complex(ar, ai), Complex(br, bi)) => {
            (bin(op, &ar, &br)?, bin(op, &ai, &bi)?)
        }
        (Bin::Add | Bin::Sub, Complex(ar, ai), Real(r)) => (bin(op, &ar, &r)?, ai),
        (Bin::Add, Real(r), Complex(br, bi)) => (bin(op, &r, &br)?, bi),
        (Bin::Sub, Real(r), Complex(br, bi)) => (bin(op, &r, &br)?, neg(&bi)?),
        (Bin::Mul, Complex(ar, ai), Complex(br, bi)) => (
            bin(
                Bin::Sub,
                &bin(Bin::Mul, &ar, &br)?,
                &bin(Bin::Mul, &ai, &bi)?,
            )?,
            bin(
                Bin::Add,
                &bin(Bin::Mul, &ar, &bi)?,
                &bin(Bin::Mul, &ai, &br)?,
            )?,
        ),
        (Bin::Mul, Complex(ar, ai), Real(r)) => (bin(Bin::Mul, &ar, &r)?, bin(Bin::Mul, &ai, &r)?),
        (Bin::Mul, Real(r), Complex(br, bi)) => (bin(Bin::Mul, &r, &br)?, bin(Bin::Mul, &r, &bi)?),
        (Bin::Div, Complex(ar, ai), Real(r)) => (bin(Bin::Div, &ar, &r)?, bin(Bin::Div, &ai, &r)?),
        (Bin::Div, x, Complex(br, bi)) => {
            // (a + bi) / (c + di) = ((ac + bd) + (bc - ad) i) / (c^2 + d^2), as the host's
            let den = bin(
                Bin::Add,
                &bin(Bin::Mul, &br, &br)?,
                &bin(Bin::Mul, &bi, &bi)?,
            )?;
            let (re, im) = match x {
                Complex(ar, ai) => (
                    bin(
                        Bin::Add,
                        &bin(Bin::Mul, &ar, &br)?,
                        &bin(Bin::Mul, &ai, &bi)?,
                    )?,
                    bin(
                        Bin::Sub,
                        &bin(Bin::Mul, &ai, &br)?,
                        &bin(Bin::Mul, &ar, &bi)?,
                    )?,
                ),
                Real(r) => (bin(Bin::Mul, &r, &br)?, neg(&bin(Bin::Mul, &r, &bi)?)?),
            };
            (bin(Bin::Div, &re, &den)?, bin(Bin::Div, &im, &den)?)
        }
        _ => return None,
    })
}

/// A binary operator with a complex gpuArray operand (or a complex host value and a
/// gpuArray); None when none is involved.
pub fn binary_op(op: BinOp, a: &Value, b: &Value) -> Option<MResult<Value>> {
    if !involved(&[a, b]) {
        return None;
    }
    let scalar = |v: &Value| v.numel() == 1;
    let lazy = match op {
        BinOp::Add => arith(Bin::Add, a, b),
        BinOp::Sub => arith(Bin::Sub, a, b),
        BinOp::ElemMul => arith(Bin::Mul, a, b),
        BinOp::Mul if scalar(a) || scalar(b) => arith(Bin::Mul, a, b),
        BinOp::Mul => {
            if let Some(r) = super::complex_fns::mtimes(a, b) {
                return Some(r);
            }
            None
        }
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            let cmp = match op {
                BinOp::Eq => Bin::Eq,
                BinOp::Ne => Bin::Ne,
                BinOp::Lt => Bin::Lt,
                BinOp::Le => Bin::Le,
                BinOp::Gt => Bin::Gt,
                _ => Bin::Ge,
            };
            if let Some(v) = super::complex_fns::compare(cmp, a, b) {
                return Some(Ok(v));
            }
            None
        }
        BinOp::ElemDiv => arith(Bin::Div, a, b),
        BinOp::Div if scalar(b) => arith(Bin::Div, a, b),
        BinOp::ElemLeftDiv => arith(Bin::Div, b, a),
        BinOp::LeftDiv if scalar(a) => arith(Bin::Div, b, a),
        BinOp::ElemPow if matches!(b, Value::Num(k) if *k == 2.0) => arith(Bin::Mul, a, a),
        BinOp::ElemPow => {
            super::complex_fns::power(a, b).or_else(|| super::complex_power::array_power(a, b))
        }
        _ => None,
    };
    Some(match lazy {
        Some((re, im)) => join(re, im),
        None => {
            note_fallback(&format!("operator {op:?}"));
            lower::on_host(&[a, b], |h| super::eval::binary_op(op, &h[0], &h[1]))
        }
    })
}

/// A unary operator on a complex gpuArray; None for other values.
pub fn unary_op(op: UnOp, a: &Value) -> Option<MResult<Value>> {
    let Value::DeviceComplex(z) = a else {
        return None;
    };
    let (re, im) = (part(&z.re), part(&z.im));
    let transposed = |v: &Value| match v {
        Value::Device(d) => super::views::transposed(d),
        _ => None,
    };
    let lazy = match op {
        UnOp::Plus => Some((re, im)),
        UnOp::Neg => neg(&re).zip(neg(&im)),
        UnOp::Transpose => transposed(&re).zip(transposed(&im)),
        UnOp::CTranspose => transposed(&re).zip(transposed(&im).and_then(|i| neg(&i))),
        UnOp::Not => None,
    };
    Some(match lazy {
        Some((re, im)) => join(re, im),
        None => {
            note_fallback(&format!("operator {op:?}"));
            lower::on_host(&[a], |h| super::eval::unary_op(op, &h[0]))
        }
    })
}

/// `z(args)` of a complex gpuArray: each part indexed as a real one (views, gathers).
pub fn index(i: &mut Interp, z: &ComplexDevice, args: &[Value]) -> MResult<Value> {
    let re = i.index_value(&part(&z.re), args)?;
    let im = i.index_value(&part(&z.im), args)?;
    join(re, im)
}

/// Builtins that act on each part alone (linear, elementwise in the parts' positions): the
/// complex result is the builtin of each part.
const PARTWISE: &[&str] = &[
    "sum",
    "mean",
    "reshape",
    "transpose",
    "ctranspose",
    "flip",
    "fliplr",
    "flipud",
    "circshift",
    "permute",
    "squeeze",
    "rot90",
    "repmat",
    "diff",
    "cumsum",
    "fftshift",
    "ifftshift",
    "single",
    "double",
];

/// Options a part-wise builtin may take and still act on each part alone ('omitnan' does
/// not: an element is missing when either part is NaN).
fn partwise_option(v: &Value) -> bool {
    !v.is_text()
        || v.text().is_ok_and(|t| {
            matches!(
                t.to_ascii_lowercase().as_str(),
                "all" | "double" | "native" | "default" | "includenan" | "reverse" | "forward"
            )
        })
}

/// The device form of a builtin with a complex gpuArray argument (and `fft` and friends of
/// any gpuArray); None: the caller reads complex values back and the host computes.
pub fn builtin(
    i: &mut Interp,
    f: &mut Frame,
    b: &'static Builtin,
    args: &[Value],
    nargout: usize,
) -> Option<MResult<Vec<Value>>> {
    if let (true, Some(Value::DeviceComplex(z))) =
        (matches!(b.name, "sort" | "max" | "min"), args.first())
    {
        if let Some(r) = super::complex_order::builtin(i, f, b.name, z, args, nargout) {
            return Some(r);
        }
    }
    if nargout > 1 {
        return None;
    }
    if matches!(b.name, "fft" | "ifft" | "fft2" | "ifft2") {
        if let Some(r) = super::fourier::builtin(b.name, args) {
            return Some(r.map(|v| vec![v]));
        }
    }
    if b.name == "complex" && args.len() == 2 && lower::explicit(&args.iter().collect::<Vec<_>>()) {
        let ok = args.iter().all(|v| {
            matches!(v.num_class(), Some(Class::Single | Class::Double)) && !v.is_complex()
        });
        if ok && args[0].numel() > 0 && args[1].numel() > 0 {
            return Some(join(args[0].clone(), args[1].clone()).map(|v| vec![v]));
        }
        return None;
    }
    if b.name == "dot" {
        return super::complex_fns::dot(i, f, args).map(|r| r.map(|v| vec![v]));
    }
    let Some(Value::DeviceComplex(z)) = args.first() else {
        return None;
    };
    if matches!(b.name, "prod" | "cumprod") {
        if let Some(r) = super::complex_prod::builtin(i, b.name, z, args) {
            return Some(r.map(|v| vec![v]));
        }
    }
    let (re, im) = (part(&z.re), part(&z.im));
    if args.len() == 1 {
        if let Some((r, im)) = super::complex_fns::elementwise(b.name, &re, &im) {
            if super::complex_fns::logical_result(b.name) {
                return Some(Ok(vec![r]));
            }
            return Some(join(r, im).map(|v| vec![v]));
        }
    }
    let one = |v: Option<Value>| v.map(|v| Ok(vec![v]));
    match (b.name, args.len()) {
        ("real", 1) => return one(Some(re)),
        ("imag", 1) => return one(Some(im)),
        ("conj", 1) => return neg(&im).map(|im| join(re, im).map(|v| vec![v])),
        ("abs", 1) => return one(lower::binary(Bin::Hypot, &re, &im)),
        ("angle", 1) => return one(lower::binary(Bin::Atan2, &im, &re)),
        ("exp", 1) => {
            // exp(x + iy) = e^x (cos y + i sin y)
            let e = lower::unary(Un::Exp, &re)?;
            let c = lower::unary(Un::Cos, &im)?;
            let s = lower::unary(Un::Sin, &im)?;
            let (r, i) = (bin(Bin::Mul, &e, &c)?, bin(Bin::Mul, &e, &s)?);
            return Some(join(r, i).map(|v| vec![v]));
        }
        _ => {}
    }
    let rest = args.get(1..).unwrap_or(&[]);
    if !PARTWISE.contains(&b.name) || rest.iter().any(|v| v.is_complex() || !partwise_option(v)) {
        return None;
    }
    let mut call = |p: Value| -> MResult<Value> {
        let mut a = vec![p];
        a.extend(rest.iter().cloned());
        let mut r = i.call_builtin(f, b, a, 1)?;
        if r.is_empty() {
            return Err(MError::new("matfuse:internal", "A builtin gave no result."));
        }
        Ok(r.swap_remove(0))
    };
    let r = (|| {
        let re = call(re)?;
        let mut im = call(im)?;
        if b.name == "ctranspose" {
            im = match neg(&im) {
                Some(v) => v,
                None => elementwise::unary(Un::Neg, &im.host()?)?,
            };
        }
        join(re, im)
    })();
    Some(r.map(|v| vec![v]))
}

/// A call's arguments with complex gpuArrays (and every other gpuArray) read back, for the
/// host's form of `name`.
pub fn host_args(name: &str, args: Vec<Value>) -> MResult<Vec<Value>> {
    note_fallback(name);
    lower::host_args(args)
}
