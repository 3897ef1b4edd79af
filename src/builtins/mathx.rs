//! More elementwise math: trigonometry in degrees, reciprocal and hyperbolic variants,
//! real-only functions, integer division, bit fields, and a few special functions.

use super::{Builtin, b, bad_arg, one};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::ops::elementwise::map2;
use crate::values::ops::{Un, more_real, unary::real_un};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

/// Applies a real function elementwise, keeping single precision and computing integers,
/// logicals and chars as double.
fn map_real(v: &Value, name: &str, f: impl Fn(f64) -> f64) -> MResult<Value> {
    if !v.is_numeric_like() {
        return Err(bad_arg(
            name,
            format!("Input must be numeric, not {}.", v.class_name()),
        ));
    }
    let t = v.tensor()?;
    if t.is_complex() {
        return Err(bad_arg(name, "Complex inputs are not supported."));
    }
    let cls = if t.class() == Class::Single {
        Class::Single
    } else {
        Class::Double
    };
    Ok(Value::from(Tensor::new(
        t.shape.clone(),
        Data::from_f64(cls, t.to_f64().iter().map(|&x| f(x)).collect()),
    )))
}

macro_rules! real_fns {
    ($($fname:ident, $name:expr, $help:expr, $f:expr;)*) => {
        $(fn $fname(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
            one(map_real(&a[0], $name, $f)?)
        })*
        fn real_table() -> Vec<Builtin> {
            vec![$(b($name, 1, 1, 1, $help, $fname)),*]
        }
    };
}

real_fns! {
    sind, "sind", "sind(X): sine of an angle in degrees.", |x| real_un(Un::Sind, x);
    cosd, "cosd", "cosd(X): cosine of an angle in degrees.", |x| real_un(Un::Cosd, x);
    tand, "tand", "tand(X): tangent of an angle in degrees.", |x| real_un(Un::Tand, x);
    asind, "asind", "asind(X): inverse sine in degrees.", |x| real_un(Un::Asind, x);
    acosd, "acosd", "acosd(X): inverse cosine in degrees.", |x| real_un(Un::Acosd, x);
    atand, "atand", "atand(X): inverse tangent in degrees.", |x| real_un(Un::Atand, x);
    secd, "secd", "secd(X): secant of an angle in degrees.", |x| real_un(Un::Secd, x);
    cscd, "cscd", "cscd(X): cosecant of an angle in degrees.", |x| real_un(Un::Cscd, x);
    cotd, "cotd", "cotd(X): cotangent of an angle in degrees.", |x| real_un(Un::Cotd, x);
    asec, "asec", "asec(X): inverse secant.", |x| real_un(Un::Asec, x);
    acsc, "acsc", "acsc(X): inverse cosecant.", |x| real_un(Un::Acsc, x);
    acot, "acot", "acot(X): inverse cotangent.", |x| real_un(Un::Acot, x);
    sech, "sech", "sech(X): hyperbolic secant.", |x| real_un(Un::Sech, x);
    csch, "csch", "csch(X): hyperbolic cosecant.", |x| real_un(Un::Csch, x);
    coth, "coth", "coth(X): hyperbolic cotangent.", |x| real_un(Un::Coth, x);
    asech, "asech", "asech(X): inverse hyperbolic secant.", |x| real_un(Un::Asech, x);
    acsch, "acsch", "acsch(X): inverse hyperbolic cosecant.", |x| real_un(Un::Acsch, x);
    acoth, "acoth", "acoth(X): inverse hyperbolic cotangent.", |x| real_un(Un::Acoth, x);
    deg2rad, "deg2rad", "deg2rad(X): degrees to radians.", |x| real_un(Un::Deg2rad, x);
    rad2deg, "rad2deg", "rad2deg(X): radians to degrees.", |x| real_un(Un::Rad2deg, x);
    erfinv, "erfinv", "erfinv(X): inverse error function.", |x| real_un(Un::Erfinv, x);
    erfcinv, "erfcinv", "erfcinv(X): inverse complementary error function.", |x| real_un(Un::Erfcinv, x);
    nextpow2, "nextpow2", "nextpow2(X): smallest p with 2^p >= abs(X).", |x| real_un(Un::Nextpow2, x);
    signbit, "signbit", "signbit(X): true where the sign bit is set.", |x| real_un(Un::Signbit, x);
}

pub fn table() -> Vec<Builtin> {
    let mut t = real_table();
    t.extend([
        b("realsqrt", 1, 1, 1, "realsqrt(X): square root, an error for negative X.", realsqrt),
        b("reallog", 1, 1, 1, "reallog(X): natural logarithm, an error for negative X.", reallog),
        b("realpow", 2, 2, 1, "realpow(X, Y): power, an error when the result would be complex.", realpow),
        b("pow2", 1, 2, 1, "pow2(Y) = 2.^Y; pow2(F, E) = F.*2.^E.", pow2),
        b("beta", 2, 2, 1, "beta(Z, W): the beta function.", beta),
        b("idivide", 2, 3, 1, "idivide(A, B, 'fix'|'round'|'floor'|'ceil'): integer division with the chosen rounding.", idivide),
        b("bitcmp", 1, 2, 1, "bitcmp(A): bitwise complement within the integer class.", bitcmp),
        b("bitget", 2, 2, 1, "bitget(A, bit): the bit at a position (1 = least significant).", bitget),
        b("bitset", 2, 3, 1, "bitset(A, bit, v): set a bit to v (default 1).", bitset),
    ]);
    t
}

fn realsqrt(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a[0].tensor()?.to_f64().iter().any(|&x| x < 0.0) {
        return Err(MError::new(
            "MATLAB:realsqrt:complexResult",
            "Realsqrt produced complex result.",
        ));
    }
    one(map_real(&a[0], "realsqrt", f64::sqrt)?)
}
fn reallog(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a[0].tensor()?.to_f64().iter().any(|&x| x < 0.0) {
        return Err(MError::new(
            "MATLAB:reallog:complexResult",
            "Reallog produced complex result.",
        ));
    }
    one(map_real(&a[0], "reallog", f64::ln)?)
}
fn pairwise(a: &A, name: &str, f: impl Fn(f64, f64) -> MResult<f64>) -> MResult<Value> {
    let (x, y) = (a[0].tensor()?, a[1].tensor()?);
    let out = Shape::broadcast_checked(&x.shape, &y.shape)?;
    let r = map2(&x.to_f64(), &x.shape, &y.to_f64(), &y.shape, &out, &f);
    let r: Vec<f64> = r.into_iter().collect::<MResult<_>>()?;
    let _ = name;
    let cls = if x.class() == Class::Single || y.class() == Class::Single {
        Class::Single
    } else {
        Class::Double
    };
    Ok(Value::from(Tensor::new(out, Data::from_f64(cls, r))))
}
fn realpow(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(pairwise(&a, "realpow", |x, y| {
        if x < 0.0 && y.fract() != 0.0 {
            Err(MError::new(
                "MATLAB:realpow:complexResult",
                "Realpow produced complex result.",
            ))
        } else {
            Ok(crate::values::ops::whole_power::real_pow(x, y))
        }
    })?)
}
fn pow2(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a.len() == 1 {
        return one(map_real(&a[0], "pow2", |x| real_un(Un::Pow2, x))?);
    }
    one(pairwise(&a, "pow2", |f, e| Ok(more_real::pow2f(f, e)))?)
}
fn beta(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(pairwise(&a, "beta", |z, w| Ok(more_real::beta(z, w)))?)
}

fn idivide(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (x, y) = (a[0].tensor()?, a[1].tensor()?);
    let cls = if x.class().is_int() {
        x.class()
    } else if y.class().is_int() {
        y.class()
    } else {
        return Err(bad_arg("idivide", "At least one input must be an integer."));
    };
    if x.class().is_int() && y.class().is_int() && x.class() != y.class() {
        return Err(bad_arg(
            "idivide",
            "Integer inputs must have the same class.",
        ));
    }
    let mode = match a.get(2) {
        Some(v) => v.text()?.to_lowercase(),
        None => "fix".into(),
    };
    let (xv, yv) = (x.to_f64(), y.to_f64());
    let out = Shape::broadcast_checked(&x.shape, &y.shape)?;
    let (lo, hi) = cls.int_range();
    let r = map2(&xv, &x.shape, &yv, &y.shape, &out, |p, q| {
        let (p, q) = (p.round(), q.round());
        let v = if q == 0.0 {
            if p == 0.0 {
                0.0
            } else if p > 0.0 {
                hi as f64
            } else {
                lo as f64
            }
        } else {
            let d = p / q;
            match mode.as_str() {
                "round" => d.round(),
                "floor" => d.floor(),
                "ceil" => d.ceil(),
                _ => d.trunc(),
            }
        };
        v
    });
    one(Tensor::new(out, Data::from_f64(cls, r)))
}

fn int_bits(t: &Tensor) -> MResult<(Class, u32, Vec<i128>)> {
    let cls = t.class();
    if cls.is_int() {
        return Ok((
            cls,
            (cls.elem_bytes() * 8) as u32,
            t.data.as_i128().unwrap_or_default(),
        ));
    }
    let v = t.to_f64();
    if v.iter().any(|x| *x < 0.0 || x.fract() != 0.0) {
        return Err(bad_arg(
            "bitget",
            "Double inputs must be nonnegative integers.",
        ));
    }
    Ok((Class::Double, 53, v.iter().map(|&x| x as i128).collect()))
}

fn bitcmp(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    let (cls, bits, v) = int_bits(&t)?;
    let (bits, signed) = match a.get(1) {
        // bitcmp(x, 'uint8'): the value is taken as that integer type
        Some(n) if n.is_text() => {
            let name = n.text()?;
            match Class::from_name(&name).filter(|c| c.is_int()) {
                Some(c) => {
                    let (lo, hi) = c.int_range();
                    ((hi - lo + 1).ilog2(), c.is_signed_int())
                }
                None => return Err(bad_arg("bitcmp", format!("Invalid assumed type '{name}'."))),
            }
        }
        Some(n) => (
            (n.scalar_f64()?.clamp(1.0, 64.0)) as u32,
            cls.is_signed_int(),
        ),
        None => (bits, cls.is_signed_int()),
    };
    let mask: u128 = (1u128 << bits) - 1;
    let r = v.into_iter().map(|x| {
        let c = !(x as u128) & mask;
        if signed && c >> (bits - 1) & 1 == 1 {
            c as i128 - (1i128 << bits)
        } else {
            c as i128
        }
    });
    one(Tensor::new(t.shape.clone(), Data::from_i128(cls, r)))
}

fn bitget(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    let (cls, bits, v) = int_bits(&t)?;
    let k = a[1].tensor()?;
    let kv: Vec<i128> = k.to_f64().iter().map(|&x| x as i128).collect();
    if kv.iter().any(|&b| b < 1 || b > bits as i128) {
        return Err(bad_arg(
            "bitget",
            format!("Bit positions must be between 1 and {bits}."),
        ));
    }
    let out = Shape::broadcast_checked(&t.shape, &k.shape)?;
    let r = map2(&v, &t.shape, &kv, &k.shape, &out, |x, b| {
        ((x as u128) >> (b - 1)) as i128 & 1
    });
    one(Tensor::new(out, Data::from_i128(cls, r.into_iter())))
}

fn bitset(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    let (cls, bits, v) = int_bits(&t)?;
    let k = a[1].tensor()?;
    let on = match a.get(2) {
        Some(x) => x.truthy()?,
        None => true,
    };
    let kv: Vec<i128> = k.to_f64().iter().map(|&x| x as i128).collect();
    if kv.iter().any(|&b| b < 1 || b > bits as i128) {
        return Err(bad_arg(
            "bitset",
            format!("Bit positions must be between 1 and {bits}."),
        ));
    }
    let out = Shape::broadcast_checked(&t.shape, &k.shape)?;
    let mask: u128 = (1u128 << bits) - 1;
    let signed = cls.is_signed_int();
    let r = map2(&v, &t.shape, &kv, &k.shape, &out, |x, b| {
        let m = 1u128 << (b - 1);
        let u = if on {
            (x as u128 | m) & mask
        } else {
            (x as u128 & !m) & mask
        };
        if signed && u >> (bits - 1) & 1 == 1 {
            u as i128 - (1i128 << bits)
        } else {
            u as i128
        }
    });
    one(Tensor::new(out, Data::from_i128(cls, r.into_iter())))
}
