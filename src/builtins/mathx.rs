//! More elementwise math: trigonometry in degrees, reciprocal and hyperbolic variants,
//! real-only functions, integer division, bit fields, and a few special functions.

use super::{Builtin, b, bad_arg, one};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::ops::elementwise::map2;
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

/// sin of an angle in degrees, exact at multiples of 90.
fn sind_f(x: f64) -> f64 {
    let r = x.rem_euclid(360.0);
    if r % 90.0 == 0.0 {
        return [0.0, 1.0, 0.0, -1.0][(r / 90.0) as usize % 4]
            * if x.is_finite() { 1.0 } else { f64::NAN };
    }
    (x.to_radians()).sin()
}
fn cosd_f(x: f64) -> f64 {
    sind_f(x + 90.0)
}

real_fns! {
    sind, "sind", "sind(X): sine of an angle in degrees.", sind_f;
    cosd, "cosd", "cosd(X): cosine of an angle in degrees.", cosd_f;
    tand, "tand", "tand(X): tangent of an angle in degrees.", |x: f64| {
        let r = x.rem_euclid(180.0);
        if r == 0.0 { 0.0 } else if r == 90.0 { f64::INFINITY } else if r == 45.0 { 1.0 } else if r == 135.0 { -1.0 } else { x.to_radians().tan() }
    };
    asind, "asind", "asind(X): inverse sine in degrees.", |x: f64| x.asin().to_degrees();
    acosd, "acosd", "acosd(X): inverse cosine in degrees.", |x: f64| x.acos().to_degrees();
    atand, "atand", "atand(X): inverse tangent in degrees.", |x: f64| x.atan().to_degrees();
    secd, "secd", "secd(X): secant of an angle in degrees.", |x: f64| 1.0 / cosd_f(x);
    cscd, "cscd", "cscd(X): cosecant of an angle in degrees.", |x: f64| 1.0 / sind_f(x);
    cotd, "cotd", "cotd(X): cotangent of an angle in degrees.", |x: f64| cosd_f(x) / sind_f(x);
    asec, "asec", "asec(X): inverse secant.", |x: f64| (1.0 / x).acos();
    acsc, "acsc", "acsc(X): inverse cosecant.", |x: f64| (1.0 / x).asin();
    acot, "acot", "acot(X): inverse cotangent.", |x: f64| (1.0 / x).atan();
    sech, "sech", "sech(X): hyperbolic secant.", |x: f64| 1.0 / x.cosh();
    csch, "csch", "csch(X): hyperbolic cosecant.", |x: f64| 1.0 / x.sinh();
    coth, "coth", "coth(X): hyperbolic cotangent.", |x: f64| 1.0 / x.tanh();
    asech, "asech", "asech(X): inverse hyperbolic secant.", |x: f64| (1.0 / x).acosh();
    acsch, "acsch", "acsch(X): inverse hyperbolic cosecant.", |x: f64| (1.0 / x).asinh();
    acoth, "acoth", "acoth(X): inverse hyperbolic cotangent.", |x: f64| (1.0 / x).atanh();
    deg2rad, "deg2rad", "deg2rad(X): degrees to radians.", |x: f64| x.to_radians();
    rad2deg, "rad2deg", "rad2deg(X): radians to degrees.", |x: f64| x.to_degrees();
    erfinv, "erfinv", "erfinv(X): inverse error function.", erfinv_f;
    erfcinv, "erfcinv", "erfcinv(X): inverse complementary error function.", |x: f64| erfinv_f(1.0 - x);
    nextpow2, "nextpow2", "nextpow2(X): smallest p with 2^p >= abs(X).", |x: f64| if x == 0.0 { 0.0 } else { x.abs().log2().ceil() };
    signbit, "signbit", "signbit(X): true where the sign bit is set.", |x: f64| x.is_sign_negative() as u8 as f64;
}

/// Inverse error function by a rational start and two Newton steps.
fn erfinv_f(y: f64) -> f64 {
    if y.is_nan() || y.abs() > 1.0 {
        return f64::NAN;
    }
    if y == 1.0 {
        return f64::INFINITY;
    }
    if y == -1.0 {
        return f64::NEG_INFINITY;
    }
    // Giles' approximation, then Newton polishing
    let w = -((1.0 - y) * (1.0 + y)).ln();
    let mut x = if w < 6.25 {
        let w = w - 3.125;
        let mut p = -3.6444120640178196996e-21;
        for c in [
            -1.685059138182016589e-19,
            1.2858480715256400167e-18,
            1.115787767802518096e-17,
            -1.333171662854620906e-16,
            2.0972767875968561637e-17,
            6.6376381343583238325e-15,
            -4.0545662729752068639e-14,
            -8.1519341976054721522e-14,
            2.6335093153082322977e-12,
            -1.2975133253453532498e-11,
            -5.4154120542946279317e-11,
            1.051212273321532285e-09,
            -4.1126339803469836976e-09,
            -2.9070369957882005086e-08,
            4.2347877827932403518e-07,
            -1.3654692000834678645e-06,
            -1.3882523362786468719e-05,
            0.0001867342080340571352,
            -0.00074070253416626697512,
            -0.0060336708714301490533,
            0.24015818242558961693,
            1.6536545626831027356,
        ] {
            p = c + p * w;
        }
        p * y
    } else {
        let w = w.sqrt() - 3.0;
        let mut p = 2.2137376921775787049e-9;
        for c in [
            9.0756561938885390979e-08,
            -2.7517406297064545428e-07,
            1.8239629214389227755e-08,
            1.5027403968909827627e-06,
            -4.013867526981545969e-06,
            2.9234449089955446044e-06,
            1.2475304481671778723e-05,
            -4.7318229009055733981e-05,
            6.8284851459573175448e-05,
            2.4031110387097893999e-05,
            -0.0003550375203628474796,
            0.00095328937973738049703,
            -0.0016882755560235047313,
            0.0024914420961078508066,
            -0.0037512085075692412107,
            0.005370914553590063617,
            1.0052589676941592334,
            3.0838856104922207635,
        ] {
            p = c + p * w;
        }
        p * y
    };
    for _ in 0..2 {
        let err = libm::erf(x) - y;
        x -= err / (2.0 / std::f64::consts::PI.sqrt() * (-x * x).exp());
    }
    x
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
            Ok(x.powf(y))
        }
    })?)
}
fn pow2(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a.len() == 1 {
        return one(map_real(&a[0], "pow2", f64::exp2)?);
    }
    one(pairwise(&a, "pow2", |f, e| Ok(f * e.exp2()))?)
}
fn beta(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(pairwise(&a, "beta", |z, w| {
        Ok((libm::lgamma(z) + libm::lgamma(w) - libm::lgamma(z + w)).exp())
    })?)
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
