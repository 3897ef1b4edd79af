//! Complex gpuArray operations beyond plain arithmetic, lowered to real device work on the
//! parts (`interp::complex` has the parts and arithmetic): matrix products as four real
//! products (`gpu::matmul`, full precision as MATLAB's: no 3-product trick, whose
//! cancellation loses digits), `dot`, comparisons, and elementwise functions written with the
//! host's formulas (num-complex's, which the host path uses) so that branch cuts, signed
//! zeros, Inf and NaN come out as the host's; special cases are `Select` nodes in the same
//! fused kernel.

use super::complex::{Split, arith, bin, join, neg, split, spread};
use super::error::MResult;
use super::lower;
use crate::graph::{self, Op};
use crate::values::class::Class;
use crate::values::ops::Bin;
use crate::values::ops::Un;
use crate::values::value::Value;

/// `a * b` (neither a scalar) with a complex operand: the real products of the parts on
/// the device; None where the real product has no device form (N-D, empty, integers).
pub fn mtimes(a: &Value, b: &Value) -> Option<MResult<Value>> {
    use Split::{Complex, Real};
    let mm = |x: &Value, y: &Value| -> Option<Value> {
        match super::product::mtimes(x, y)? {
            Ok(v) => Some(v),
            Err(_) => None,
        }
    };
    let (re, im) = match (split(a)?, split(b)?) {
        (Real(_), Real(_)) => return None,
        (Complex(ar, ai), Complex(br, bi)) => (
            bin(Bin::Sub, &mm(&ar, &br)?, &mm(&ai, &bi)?)?,
            bin(Bin::Add, &mm(&ar, &bi)?, &mm(&ai, &br)?)?,
        ),
        (Complex(ar, ai), Real(r)) => (mm(&ar, &r)?, mm(&ai, &r)?),
        (Real(r), Complex(br, bi)) => (mm(&r, &br)?, mm(&r, &bi)?),
    };
    Some(join(re, im))
}

/// A comparison with a complex operand: `==` and `~=` compare both parts, the orderings
/// compare real parts (MATLAB's rule, and the host's).
pub fn compare(op: Bin, a: &Value, b: &Value) -> Option<Value> {
    use Split::{Complex, Real};
    let parts = |s: Split| match s {
        Complex(r, i) => (r, Some(i)),
        Real(r) => (r, None),
    };
    let ((ar, ai), (br, bi)) = (parts(split(a)?), parts(split(b)?));
    let zero = Value::Num(0.0);
    let graph = |v: &Option<Value>| v.clone().unwrap_or_else(|| zero.clone());
    match op {
        Bin::Eq | Bin::Ne => {
            let r = bin(op, &ar, &br)?;
            let i = bin(op, &graph(&ai), &graph(&bi))?;
            let join = if op == Bin::Eq { Bin::And } else { Bin::Or };
            lower::binary(join, &r, &i)
        }
        Bin::Lt | Bin::Le | Bin::Gt | Bin::Ge => lower::binary(op, &ar, &br),
        _ => None,
    }
}

/// `mask ? x : y` element by element, over the mask's shape and the class of `x`.
pub(super) fn select(mask: &Value, x: &Value, y: &Value, class: Class) -> Option<Value> {
    let m = lower::node_of(mask)?;
    let shape = m.shape.clone();
    let x = lower::node_of(&spread(x.clone(), &shape, class)?)?;
    let y = lower::node_of(&spread(y.clone(), &shape, class)?)?;
    let n = graph::intern(Op::Select, vec![m, x, y], shape, class);
    Some(lower::pending(n, true))
}

fn un(op: Un, x: &Value) -> Option<Value> {
    lower::unary(op, x)
}

/// `op(x)` (`sqrt`, `log`) of a part that holds no negatives by construction (an `abs` or a
/// `hypot`), interned without the real lowering's domain check: a budget may have computed
/// `x` already, and a computed value's sign would be checked by reading a value back.
fn of_nonneg(op: Un, x: &Value) -> Option<Value> {
    let n = lower::node_of(x)?;
    if crate::codegen::has_unary(op)
        && !crate::codegen::functions_available(n.class == Class::Single)
    {
        return None;
    }
    let class = graph::ops::unary_class(op, n.class);
    let shape = n.shape.clone();
    Some(lower::pending(
        graph::intern(Op::Unary(op), vec![n], shape, class),
        true,
    ))
}

fn num(x: f64) -> Value {
    Value::Num(x)
}

/// `(re, im)` of an elementwise function of `re + i*im` (device parts of one shape and
/// class), by the host's formula; None: no device form.
pub fn elementwise(name: &str, re: &Value, im: &Value) -> Option<(Value, Value)> {
    let class = re.num_class()?;
    let mul = |a: &Value, b: &Value| bin(Bin::Mul, a, b);
    let twice = |a: &Value| bin(Bin::Add, a, a);
    Some(match name {
        "sqrt" => {
            // num-complex: a real argument (im == 0) gives the real square root, or i times
            // it for a negative real part (sign of im kept); a pure imaginary one gives
            // sqrt(|im|/2) (1 +- i); else sqrt(r) e^(i theta/2).
            let r = lower::binary(Bin::Hypot, re, im)?;
            let t = bin(Bin::Mul, &lower::binary(Bin::Atan2, im, re)?, &num(0.5))?;
            let s = of_nonneg(Un::Sqrt, &un(Un::Abs, &r)?)?;
            let (gr, gi) = (mul(&s, &un(Un::Cos, &t)?)?, mul(&s, &un(Un::Sin, &t)?)?);
            let im0 = lower::binary(Bin::Eq, im, &num(0.0))?;
            let re_neg = lower::binary(Bin::Lt, re, &num(0.0))?;
            let re0 = lower::binary(Bin::Eq, re, &num(0.0))?;
            let x = of_nonneg(Un::Sqrt, &un(Un::Abs, &mul(im, &num(0.5))?)?)?;
            let im_neg = lower::binary(Bin::Lt, im, &num(0.0))?;
            // sqrt(|re|): +0 at -0, as the host's (the real lowering takes sqrt only of values
            // it knows are >= 0)
            let real_root = of_nonneg(Un::Sqrt, &un(Un::Abs, re)?)?;
            let on_axis_re = select(&re_neg, &num(0.0), &real_root, class)?;
            // on the negative real axis: +-sqrt(-re), the sign of im's zero (which gi has:
            // sin(+-pi/2)), exactly
            let axis_root = of_nonneg(Un::Sqrt, &un(Un::Abs, re)?)?;
            let below = lower::binary(Bin::Lt, &gi, &num(0.0))?;
            let signed_root = select(&below, &neg(&axis_root)?, &axis_root, class)?;
            let on_axis_im = select(&re_neg, &signed_root, im, class)?;
            let pure_im = select(&im_neg, &neg(&x)?, &x, class)?;
            let out_re = select(&im0, &on_axis_re, &select(&re0, &x, &gr, class)?, class)?;
            let out_im = select(
                &im0,
                &on_axis_im,
                &select(&re0, &pure_im, &gi, class)?,
                class,
            )?;
            (out_re, out_im)
        }
        "log" | "log2" | "log10" => {
            // ln|z| + i arg z; log2 and log10 divide both parts, as the host does
            let r = of_nonneg(Un::Log, &lower::binary(Bin::Hypot, re, im)?)?;
            let t = lower::binary(Bin::Atan2, im, re)?;
            let scale = match name {
                "log2" => std::f64::consts::LN_2,
                "log10" => std::f64::consts::LN_10,
                _ => return Some((r, t)),
            };
            (
                bin(Bin::Div, &r, &num(scale))?,
                bin(Bin::Div, &t, &num(scale))?,
            )
        }
        "exp" => {
            // e^re (cos im + i sin im), and num-complex's corner cases: +Inf with a zero or
            // non-finite im is (Inf, im) (NaN for an infinite im), -Inf with a non-finite im
            // is 0, NaN with a zero im is itself
            let e = un(Un::Exp, re)?;
            let (gr, gi) = (mul(&e, &un(Un::Cos, im)?)?, mul(&e, &un(Un::Sin, im)?)?);
            let im_bad = lower::binary(Bin::Eq, &un(Un::IsFinite, im)?, &num(0.0))?;
            let im0 = lower::binary(Bin::Eq, im, &num(0.0))?;
            let pinf = lower::binary(Bin::Eq, re, &num(f64::INFINITY))?;
            let ninf = lower::binary(Bin::Eq, re, &num(f64::NEG_INFINITY))?;
            let case_p = lower::binary(Bin::And, &pinf, &lower::binary(Bin::Or, &im0, &im_bad)?)?;
            let case_n = lower::binary(Bin::And, &ninf, &im_bad)?;
            let case_nan = lower::binary(Bin::And, &un(Un::IsNan, re)?, &im0)?;
            let nan_if_inf = select(&un(Un::IsInf, im)?, &bin(Bin::Sub, im, im)?, im, class)?;
            let keep_re = lower::binary(Bin::Or, &case_p, &case_nan)?;
            let out_re = select(
                &keep_re,
                re,
                &select(&case_n, &num(0.0), &gr, class)?,
                class,
            )?;
            let out_im = select(
                &case_p,
                &nan_if_inf,
                &select(
                    &case_n,
                    &num(0.0),
                    &select(&case_nan, im, &gi, class)?,
                    class,
                )?,
                class,
            )?;
            (out_re, out_im)
        }
        "sin" => (
            mul(&un(Un::Sin, re)?, &un(Un::Cosh, im)?)?,
            mul(&un(Un::Cos, re)?, &un(Un::Sinh, im)?)?,
        ),
        "cos" => (
            mul(&un(Un::Cos, re)?, &un(Un::Cosh, im)?)?,
            mul(&neg(&un(Un::Sin, re)?)?, &un(Un::Sinh, im)?)?,
        ),
        "sinh" => (
            mul(&un(Un::Sinh, re)?, &un(Un::Cos, im)?)?,
            mul(&un(Un::Cosh, re)?, &un(Un::Sin, im)?)?,
        ),
        "cosh" => (
            mul(&un(Un::Cosh, re)?, &un(Un::Cos, im)?)?,
            mul(&un(Un::Sinh, re)?, &un(Un::Sin, im)?)?,
        ),
        "tan" => {
            // (sin 2a + i sinh 2b) / (cos 2a + cosh 2b)
            let (a2, b2) = (twice(re)?, twice(im)?);
            let d = bin(Bin::Add, &un(Un::Cos, &a2)?, &un(Un::Cosh, &b2)?)?;
            (
                bin(Bin::Div, &un(Un::Sin, &a2)?, &d)?,
                bin(Bin::Div, &un(Un::Sinh, &b2)?, &d)?,
            )
        }
        "tanh" => {
            // (sinh 2a + i sin 2b) / (cosh 2a + cos 2b)
            let (a2, b2) = (twice(re)?, twice(im)?);
            let d = bin(Bin::Add, &un(Un::Cosh, &a2)?, &un(Un::Cos, &b2)?)?;
            (
                bin(Bin::Div, &un(Un::Sinh, &a2)?, &d)?,
                bin(Bin::Div, &un(Un::Sin, &b2)?, &d)?,
            )
        }
        "sign" => {
            // z / |z|, and z itself where |z| is 0
            let n = lower::binary(Bin::Hypot, re, im)?;
            let zero = lower::binary(Bin::Eq, &n, &num(0.0))?;
            (
                select(&zero, re, &bin(Bin::Div, re, &n)?, class)?,
                select(&zero, im, &bin(Bin::Div, im, &n)?, class)?,
            )
        }
        // each part rounded alone, as the host's
        "round" => (un(Un::Round, re)?, un(Un::Round, im)?),
        "floor" => (un(Un::Floor, re)?, un(Un::Floor, im)?),
        "ceil" => (un(Un::Ceil, re)?, un(Un::Ceil, im)?),
        "fix" => (un(Un::Fix, re)?, un(Un::Fix, im)?),
        "isnan" | "isinf" => {
            let op = if name == "isnan" {
                Un::IsNan
            } else {
                Un::IsInf
            };
            let t = lower::binary(Bin::Or, &un(op, re)?, &un(op, im)?)?;
            return Some((t, Value::Num(0.0)));
        }
        "isfinite" => {
            let t = lower::binary(Bin::And, &un(Un::IsFinite, re)?, &un(Un::IsFinite, im)?)?;
            return Some((t, Value::Num(0.0)));
        }
        _ => return super::complex_inverse::function(name, re, im),
    })
}

/// Names `elementwise` gives a logical (real) result for.
pub fn logical_result(name: &str) -> bool {
    matches!(name, "isnan" | "isinf" | "isfinite")
}

/// `dot(a, b)` with a complex operand: `sum(conj(a) .* b)` on the parts (vectors of one
/// length in any orientation, or arrays of one size, along the first non-singleton
/// dimension or the one given).
pub fn dot(
    i: &mut super::Interp,
    f: &mut super::function::Frame,
    args: &[Value],
) -> Option<MResult<Value>> {
    let (a, b) = (args.first()?, args.get(1)?);
    if args.len() > 3 || !(a.is_complex() || b.is_complex()) {
        return None;
    }
    let vector =
        |v: &Value| v.shape().ndims() == 2 && (v.shape().dim(0) == 1 || v.shape().dim(1) == 1);
    let column = |v: &Value| -> Option<Value> {
        match split(v)? {
            Split::Complex(r, im) => {
                let n = v.numel();
                let shape = crate::values::shape::Shape::new(&[n, 1]);
                let re = reshape(&r, &shape)?;
                let im = reshape(&im, &shape)?;
                join(re, im).ok()
            }
            Split::Real(r) => reshape(&r, &crate::values::shape::Shape::new(&[v.numel(), 1])),
        }
    };
    let (a, b) = if a.shape() == b.shape() {
        (a.clone(), b.clone())
    } else if args.len() == 2 && vector(a) && vector(b) && a.numel() == b.numel() {
        (column(a)?, column(b)?)
    } else {
        return None;
    };
    if a.numel() == 0 {
        return None;
    }
    let conj_a = match split(&a)? {
        Split::Complex(r, im) => join(r, neg(&im)?).ok()?,
        Split::Real(r) => r,
    };
    let (re, im) = arith(Bin::Mul, &conj_a, &b)?;
    let prod = match join(re, im) {
        Ok(v) => v,
        Err(e) => return Some(Err(e)),
    };
    let sum = crate::builtins::lookup("sum")?;
    let mut call = vec![prod];
    call.extend(args.get(2).cloned());
    Some(i.call_builtin(f, sum, call, 1).map(|mut r| {
        if r.is_empty() {
            Value::Num(0.0)
        } else {
            r.swap_remove(0)
        }
    }))
}

/// A device part (or host real array) under another shape of the same element count.
fn reshape(v: &Value, shape: &crate::values::shape::Shape) -> Option<Value> {
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

/// `z .^ q` of a complex gpuArray `z` and a scalar exponent `q` (real or complex), as the
/// host's `cpow`: integer exponents up to 64 by repeated squaring (exact results such as
/// `(1+2i)^2`, and `1 ./ r` for negative ones), others as `exp(q * log(z))` with `0 .^ q`
/// 0 or Inf. None: another exponent (arrays: the host decides per element).
pub fn power(z: &Value, q: &Value) -> Option<(Value, Value)> {
    let Split::Complex(re, im) = split(z)? else {
        return None;
    };
    if !matches!(z, Value::DeviceComplex(_)) || q.numel() != 1 {
        return None;
    }
    let q = match q {
        Value::Num(x) => num_complex::Complex64::new(*x, 0.0),
        Value::Bool(b) => num_complex::Complex64::new(*b as u8 as f64, 0.0),
        Value::Tensor(t) if matches!(t.class(), Class::Double | Class::Single) => {
            *t.to_c64().first()?
        }
        _ => return None,
    };
    let class = re.num_class()?;
    if q.im == 0.0 && q.re.fract() == 0.0 && q.re.abs() <= 64.0 {
        let n = q.re as i32;
        let mut r: Option<(Value, Value)> = None;
        let mut base = (re, im);
        let mut k = n.unsigned_abs();
        while k > 0 {
            if k & 1 == 1 {
                r = Some(match r {
                    // the host starts from 1 + 0i: 0 * Inf makes its NaN parts
                    None => arith(
                        Bin::Mul,
                        &complex_scalar(num_complex::Complex64::new(1.0, 0.0)),
                        &join(base.0.clone(), base.1.clone()).ok()?,
                    )?,
                    Some((a, b)) => arith(
                        Bin::Mul,
                        &join(a, b).ok()?,
                        &join(base.0.clone(), base.1.clone()).ok()?,
                    )?,
                });
            }
            k >>= 1;
            if k > 0 {
                let b = join(base.0.clone(), base.1.clone()).ok()?;
                base = arith(Bin::Mul, &b, &b)?;
            }
        }
        let shape = z.shape();
        let one = || spread(Value::Num(1.0), &shape, class);
        let (a, b) = match r {
            Some(r) => r,
            // z .^ 0 is 1 everywhere (NaN included), as the host's
            None => (one()?, spread(Value::Num(0.0), &shape, class)?),
        };
        if n >= 0 {
            return Some((a, b));
        }
        // the host's cdiv: by the real part alone where the imaginary part is 0
        let (fr, fi) = arith(
            Bin::Div,
            &Value::Num(1.0),
            &join(a.clone(), b.clone()).ok()?,
        )?;
        let real = lower::binary(Bin::Eq, &b, &num(0.0))?;
        return Some((
            select(&real, &bin(Bin::Div, &num(1.0), &a)?, &fr, class)?,
            select(&real, &bin(Bin::Div, &num(0.0), &a)?, &fi, class)?,
        ));
    }
    // exp(q * log(z)), q as a complex constant so that 0 * Inf is the host's NaN
    let (lr, li) = elementwise("log", &split_parts(z)?.0, &split_parts(z)?.1)?;
    let qc = complex_scalar(q);
    let (wr, wi) = arith(Bin::Mul, &qc, &join(lr, li).ok()?)?;
    let (gr, gi) = elementwise("exp", &wr, &wi)?;
    let (pr, pi) = split_parts(z)?;
    let zero = lower::binary(
        Bin::And,
        &lower::binary(Bin::Eq, &pr, &num(0.0))?,
        &lower::binary(Bin::Eq, &pi, &num(0.0))?,
    )?;
    let at_zero = if q.re > 0.0 { 0.0 } else { f64::INFINITY };
    Some((
        select(&zero, &num(at_zero), &gr, class)?,
        select(&zero, &num(0.0), &gi, class)?,
    ))
}

fn split_parts(z: &Value) -> Option<(Value, Value)> {
    match split(z)? {
        Split::Complex(r, i) => Some((r, i)),
        Split::Real(_) => None,
    }
}

/// A complex double scalar constant (split into two scalar constants by `split`).
pub(super) fn complex_scalar(z: num_complex::Complex64) -> Value {
    Value::Tensor(std::rc::Rc::new(crate::values::tensor::Tensor::new(
        crate::values::shape::Shape::scalar(),
        crate::values::tensor::Data::from_c64(Class::Double, vec![z]),
    )))
}
