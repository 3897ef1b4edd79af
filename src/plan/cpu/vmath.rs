//! sin, cos, exp and log over slices in forms the compiler vectorises: no branch and no call
//! per element on the common path, then a second look that gives the few arguments outside it
//! (NaN, infinities, huge sines, exp near overflow, logs of non-positive and subnormal
//! numbers) to the host evaluator's own functions.
//!
//! The algorithms are fdlibm's (Sun's freely distributable libm, as musl carries it): each is
//! within 1 ulp of the exact result, so within 1 ulp of the host evaluator's (glibc, itself
//! within about half an ulp); `tests` checks that bound against `f64::sin` and company over
//! millions of arguments. Singles are computed in double and rounded, which gives the host's
//! single result except where the double lands by a rounding boundary (within 1 ulp).
//! No multiply-add is fused (Rust never contracts), so every instruction set gives the same
//! bits.

/// Rounds to the nearest integer by adding and subtracting 1.5 2^52; the sum's low bits hold
/// that integer.
pub(super) const SHIFT: f64 = 6755399441055744.0;
pub(super) const SHIFT_BITS: u64 = 0x4338_0000_0000_0000;

/// Sines and cosines of |x| below this reduce with three parts of pi/2 (fdlibm's medium
/// case: n times each part is exact up to 2^20 quadrants).
const TRIG_LIMIT: f64 = 524288.0;
/// exp of |x| below this is a normal number (not subnormal, not infinite).
const EXP_LIMIT: f64 = 708.0;

pub(super) const INVPIO2: f64 = 6.36619772367581382433e-01;
const PIO2_1: f64 = 1.57079632673412561417e+00;
const PIO2_2: f64 = 6.07710050630396597660e-11;
const PIO2_3: f64 = 2.02226624871116645580e-21;
const PIO2_3T: f64 = 8.47842766036889956997e-32;

const S1: f64 = -1.66666666666666324348e-01;
const S2: f64 = 8.33333333332248946124e-03;
const S3: f64 = -1.98412698298579493134e-04;
const S4: f64 = 2.75573137070700676789e-06;
const S5: f64 = -2.50507602534068634195e-08;
const S6: f64 = 1.58969099521155010221e-10;

const C1: f64 = 4.16666666666666019037e-02;
const C2: f64 = -1.38888888888741095749e-03;
const C3: f64 = 2.48015872894767294178e-05;
const C4: f64 = -2.75573143513906633035e-07;
const C5: f64 = 2.08757232129817482790e-09;
const C6: f64 = -1.13596475577881948265e-11;

/// x - n pi/2 as y0 + y1 (|y0| <= pi/4 about) and n mod 4, for |x| < TRIG_LIMIT: fdlibm's
/// three parts of pi/2, always all three, keeping what each subtraction rounds off.
#[inline(always)]
fn reduce(x: f64) -> (f64, f64, u64) {
    let t = x * INVPIO2 + SHIFT;
    let n = t - SHIFT;
    let q = t.to_bits().wrapping_sub(SHIFT_BITS) & 3;
    // exact: n times each leading part is exact, x less the first by Sterbenz's lemma
    let r1 = x - n * PIO2_1;
    let a = n * PIO2_2;
    let r2 = r1 - a;
    let e2 = (r1 - r2) - a;
    let b = n * PIO2_3;
    let r3 = r2 - b;
    let e3 = (r2 - r3) - b;
    // x - n pi/2 = r3 + e3 + e2 - n PIO2_3T (PIO2_2T = PIO2_3 + PIO2_3T)
    let w = n * PIO2_3T - (e2 + e3);
    let y0 = r3 - w;
    let y1 = (r3 - y0) - w;
    (y0, y1, q)
}

/// sin(x + y) for |x + y| <= pi/4 (fdlibm's __kernel_sin).
#[inline(always)]
fn k_sin(x: f64, y: f64) -> f64 {
    let z = x * x;
    let w = z * z;
    let r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    let v = z * x;
    x - ((z * (0.5 * y - v * r) - y) - v * S1)
}

/// cos(x + y) for |x + y| <= pi/4 (fdlibm's __kernel_cos).
#[inline(always)]
fn k_cos(x: f64, y: f64) -> f64 {
    let z = x * x;
    let w = z * z;
    let r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    w + (((1.0 - w) - hz) + (z * r - x * y))
}

/// sin (shift 0) or cos (shift 1) of x, for |x| < TRIG_LIMIT.
#[inline(always)]
fn sin_cos(x: f64, shift: u64) -> f64 {
    let (y0, y1, q) = reduce(x);
    let q = (q + shift) & 3;
    let s = k_sin(y0, y1);
    let c = k_cos(y0, y1);
    let v = if q & 1 == 0 { s } else { c };
    if q & 2 == 0 { v } else { -v }
}

const LN2_HI: f64 = 6.93147180369123816490e-01;
const LN2_LO: f64 = 1.90821492927058770002e-10;
const INVLN2: f64 = 1.44269504088896338700e+00;
const P1: f64 = 1.66666666666666019037e-01;
const P2: f64 = -2.77777777770155933842e-03;
const P3: f64 = 6.61375632143793436117e-05;
const P4: f64 = -1.65339022054652515390e-06;
const P5: f64 = 4.13813679705723846039e-08;

/// exp(x) for |x| < EXP_LIMIT (fdlibm's e_exp: x = k ln2 + r, a rational form for e^r,
/// times 2^k built in the exponent bits).
#[inline(always)]
fn exp_finite(x: f64) -> f64 {
    let t = x * INVLN2 + SHIFT;
    let k = t - SHIFT;
    let hi = x - k * LN2_HI;
    let lo = k * LN2_LO;
    let r = hi - lo;
    let z = r * r;
    let c = r - z * (P1 + z * (P2 + z * (P3 + z * (P4 + z * P5))));
    let y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
    let kbits = t.to_bits().wrapping_sub(SHIFT_BITS).wrapping_add(1023) << 52;
    y * f64::from_bits(kbits)
}

const LG1: f64 = 6.666666666666735130e-01;
const LG2: f64 = 3.999999999940941908e-01;
const LG3: f64 = 2.857142874366239149e-01;
const LG4: f64 = 2.222219843214978396e-01;
const LG5: f64 = 1.818357216161805012e-01;
const LG6: f64 = 1.531383769920937332e-01;
const LG7: f64 = 1.479819860511658591e-01;

/// log(x) for positive normal finite x (fdlibm's e_log, as musl writes it: x = 2^k (1 + f)
/// with 1 + f in [sqrt(2)/2, sqrt(2)), log(1 + f) from s = f / (2 + f)).
#[inline(always)]
fn log_normal(x: f64) -> f64 {
    let bits = x.to_bits();
    let hx = (bits >> 32).wrapping_add(0x3ff0_0000 - 0x3fe6_a09e);
    // k + 1023 from the biased exponent, as a double without an integer conversion
    let kb = (hx >> 20) & 0x7ff;
    let dk = f64::from_bits(0x4330_0000_0000_0000 | kb) - (4503599627370496.0 + 1023.0);
    let m = (((hx & 0x000f_ffff) + 0x3fe6_a09e) << 32) | (bits & 0xffff_ffff);
    let f = f64::from_bits(m) - 1.0;
    let hfsq = 0.5 * f * f;
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (LG2 + w * (LG4 + w * LG6));
    let t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    let r = t2 + t1;
    s * (hfsq + r) + dk * LN2_LO - hfsq + f + dk * LN2_HI
}

/// Whether any element fails `ok` (a straight loop, vectorised).
#[inline(always)]
fn any_outside(x: &[f64], ok: impl Fn(f64) -> bool) -> bool {
    x.iter().fold(false, |a, &v| a | !ok(v))
}

/// `dst[i] = fast(x[i])` where `ok`, else `slow(x[i])`.
#[inline(always)]
fn apply(
    x: &[f64],
    dst: &mut [f64],
    ok: impl Fn(f64) -> bool + Copy,
    fast: impl Fn(f64) -> f64,
    slow: impl Fn(f64) -> f64,
) {
    for (d, &v) in dst.iter_mut().zip(x) {
        *d = fast(v);
    }
    if any_outside(x, ok) {
        for (d, &v) in dst.iter_mut().zip(x) {
            if !ok(v) {
                *d = slow(v);
            }
        }
    }
}

#[inline(always)]
fn trig_ok(v: f64) -> bool {
    v.abs() < TRIG_LIMIT
}

#[inline(always)]
fn exp_ok(v: f64) -> bool {
    v.abs() < EXP_LIMIT
}

#[inline(always)]
fn log_ok(v: f64) -> bool {
    v >= f64::MIN_POSITIVE && v <= f64::MAX
}

/// pi/2 in two parts for arguments that are singles (musl's __rem_pio2f): the first 33
/// bits, so that n times it is exact for the quadrant counts below TRIG_LIMIT, and the rest.
pub(super) const PIO2_1F: f64 = 1.57079631090164184570e+00;
pub(super) const PIO2_1FT: f64 = 1.58932547735281966916e-08;

/// sin on [-pi/4, pi/4] within 2^-37.5 relative, and cos there within 2^-34.1 (musl's
/// __sindf and __cosdf): enough for a result rounded to single.
const SF1: f64 = -0.166666666416265235595;
const SF2: f64 = 0.0083333293858894631756;
const SF3: f64 = -0.000198393348360966317347;
const SF4: f64 = 0.0000027183114939898219064;
const CF0: f64 = -0.499999997251031003120;
const CF1: f64 = 0.0416666233237390631894;
const CF2: f64 = -0.00138867637746099294692;
const CF3: f64 = 0.0000243904487962774090654;

/// sin (shift 0) or cos (shift 1) of a single x (held as a double), |x| < TRIG_LIMIT, to be
/// rounded to single: musl's sinf/cosf in double, the two-part reduction and the short
/// kernels (half the operations of `sin_cos`).
#[inline(always)]
fn sin_cos_single(x: f64, shift: u64) -> f64 {
    let t = x * INVPIO2 + SHIFT;
    let n = t - SHIFT;
    let q = (t.to_bits().wrapping_sub(SHIFT_BITS).wrapping_add(shift)) & 3;
    let y = (x - n * PIO2_1F) - n * PIO2_1FT;
    let z = y * y;
    let w = z * z;
    let sz = z * y;
    let s = (y + sz * (SF1 + z * SF2)) + sz * w * (SF3 + z * SF4);
    // sin(-0) is -0 (-0 + 0 above would make it +0): a blend, not a branch.
    let s = if z == 0.0 { y } else { s };
    let c = ((1.0 + z * CF0) + w * CF1) + (w * z) * (CF2 + z * CF3);
    let v = if q & 1 == 0 { s } else { c };
    if q & 2 == 0 { v } else { -v }
}

/// `dst = f(x)` for arguments that are singles and results that will be rounded to single:
/// sin and cos by the shorter single forms, exp and log as `eval`.
#[inline(always)]
pub fn eval_single(f: Fun, x: &[f64], dst: &mut [f64]) {
    match f {
        Fun::Sin => apply(x, dst, trig_ok, |v| sin_cos_single(v, 0), f64::sin),
        Fun::Cos => apply(x, dst, trig_ok, |v| sin_cos_single(v, 1), f64::cos),
        _ => eval(f, x, dst),
    }
}

/// The functions this module computes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fun {
    Sin,
    Cos,
    Exp,
    Log,
}

/// `dst = f(x)` elementwise (equal lengths).
#[inline(always)]
pub fn eval(f: Fun, x: &[f64], dst: &mut [f64]) {
    match f {
        Fun::Sin => apply(x, dst, trig_ok, |v| sin_cos(v, 0), f64::sin),
        Fun::Cos => apply(x, dst, trig_ok, |v| sin_cos(v, 1), f64::cos),
        Fun::Exp => apply(x, dst, exp_ok, exp_finite, f64::exp),
        Fun::Log => apply(x, dst, log_ok, log_normal, f64::ln),
    }
}

/// Whether the processor has the AVX-512 subsets the vector builds are compiled for.
#[cfg(target_arch = "x86_64")]
pub fn has_avx512() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512dq")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512bw")
}

/// Whether the processor has AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
pub fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in units in the last place (same-sign finite values).
    fn ulps(a: f64, b: f64) -> u64 {
        if a == b || (a.is_nan() && b.is_nan()) {
            return 0;
        }
        let key = |x: f64| {
            let b = x.to_bits() as i64;
            if b < 0 { i64::MIN - b } else { b }
        };
        key(a).abs_diff(key(b))
    }

    fn worst(f: Fun, xs: &[f64], reference: fn(f64) -> f64) -> (u64, f64) {
        let mut out = vec![0.0; xs.len()];
        eval(f, xs, &mut out);
        xs.iter()
            .zip(&out)
            .map(|(&x, &y)| (ulps(y, reference(x)), x))
            .max_by_key(|p| p.0)
            .unwrap_or((0, 0.0))
    }

    /// Arguments spread over many scales: a simple LCG over mantissas and exponents.
    fn arguments(n: usize, lo_exp: i32, hi_exp: i32, negative: bool) -> Vec<f64> {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let m = 1.0 + (s >> 11) as f64 / (1u64 << 53) as f64;
                let e = lo_exp + ((s >> 3) % (hi_exp - lo_exp + 1) as u64) as i32;
                let v = m * 2f64.powi(e);
                if negative && s & 4 != 0 { -v } else { v }
            })
            .collect()
    }

    #[test]
    fn sines_and_cosines_are_within_one_ulp_of_the_host() {
        let mut xs = arguments(400_000, -30, 19, true);
        xs.extend((0..20_000).map(|k| k as f64 * std::f64::consts::FRAC_PI_2));
        xs.extend((0..20_000).map(|k| (k as f64 * 0.001) - 10.0));
        xs.extend([
            0.0,
            -0.0,
            5e-324,
            1e-300,
            f64::NAN,
            f64::INFINITY,
            -f64::INFINITY,
            1e6,
            1e300,
            524287.9,
            -524288.0,
        ]);
        let (u, x) = worst(Fun::Sin, &xs, f64::sin);
        assert!(u <= 1, "sin({x:e}) is {u} ulp off");
        let (u, x) = worst(Fun::Cos, &xs, f64::cos);
        assert!(u <= 1, "cos({x:e}) is {u} ulp off");
    }

    #[test]
    fn exp_and_log_are_within_one_ulp_of_the_host() {
        let mut xs = arguments(400_000, -40, 9, true);
        xs.extend((0..20_000).map(|k| (k as f64 * 0.0709) - 709.0));
        xs.extend([
            0.0,
            -0.0,
            707.99,
            -707.99,
            709.7,
            -745.0,
            f64::NAN,
            f64::INFINITY,
        ]);
        let (u, x) = worst(Fun::Exp, &xs, f64::exp);
        assert!(u <= 1, "exp({x:e}) is {u} ulp off");
        let mut ys = arguments(400_000, -1022, 1023, false);
        ys.extend((0..20_000).map(|k| 0.5 + k as f64 * 1e-4));
        ys.extend([
            1.0,
            0.0,
            -0.0,
            -1.0,
            5e-324,
            2.2e-308,
            f64::MAX,
            f64::INFINITY,
            f64::NAN,
        ]);
        let (u, x) = worst(Fun::Log, &ys, f64::ln);
        assert!(u <= 1, "log({x:e}) is {u} ulp off");
    }

    #[test]
    fn single_forms_round_to_the_host_single_within_one_ulp() {
        let mut xs: Vec<f64> = arguments(400_000, -30, 19, true)
            .into_iter()
            .map(|v| v as f32 as f64)
            .collect();
        // singles nearest the multiples of pi/2
        xs.extend((1..20_000).map(|k| (k as f64 * std::f64::consts::FRAC_PI_2) as f32 as f64));
        xs.extend([
            0.0,
            -0.0,
            1e-30,
            f64::NAN,
            f64::INFINITY,
            524287.0,
            -524288.0,
            1e7,
        ]);
        for (f, reference) in [(Fun::Sin, f64::sin as fn(f64) -> f64), (Fun::Cos, f64::cos)] {
            let mut out = vec![0.0; xs.len()];
            eval_single(f, &xs, &mut out);
            for (&x, &y) in xs.iter().zip(&out) {
                let (a, b) = (y as f32, reference(x) as f32);
                let d = a.to_bits().abs_diff(b.to_bits());
                assert!(
                    d <= 1 || (a.is_nan() && b.is_nan()),
                    "{f:?}({x:e}): {a} vs {b}"
                );
            }
        }
    }

    #[test]
    fn singles_round_to_the_host_single_within_one_ulp() {
        let xs: Vec<f64> = arguments(200_000, -20, 12, true)
            .into_iter()
            .map(|v| v as f32 as f64)
            .collect();
        for (f, reference) in [
            (Fun::Sin, f64::sin as fn(f64) -> f64),
            (Fun::Cos, f64::cos),
            (Fun::Exp, f64::exp),
        ] {
            let mut out = vec![0.0; xs.len()];
            eval(f, &xs, &mut out);
            for (&x, &y) in xs.iter().zip(&out) {
                let (a, b) = (y as f32, reference(x) as f32);
                let d = a.to_bits().abs_diff(b.to_bits());
                assert!(
                    d <= 1 || (a.is_nan() && b.is_nan()),
                    "{f:?}({x:e}): {a} vs {b}"
                );
            }
        }
    }
}
