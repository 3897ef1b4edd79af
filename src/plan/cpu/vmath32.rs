//! sin, cos, exp and log of singles computed in single (as MATLAB computes them), over
//! slices in forms the compiler vectorises sixteen lanes to an AVX-512 register (eight with
//! AVX2): no branch and no call per element on the common path, then a second look that
//! gives the few arguments outside it (NaN, infinities, |x| >= 2^19 for sines, exp near
//! overflow and underflow, logs of non-positive and subnormal numbers) to the exact path:
//! the double function of the argument, rounded to single.
//!
//! Accuracy (the `tests` below check it against the double functions rounded to single,
//! that is the correctly rounded single result but for rare double-rounding ties, over
//! millions of arguments spread over every scale, and the special values): sin, cos, exp and
//! log within 1 ulp. Each is the classic single algorithm:
//! - sin and cos: the argument is reduced to y = x - n pi/2 in double (two parts of pi/2,
//!   the first 33 bits, so n times it is exact below 2^19; y is within 2^-50 of the exact
//!   reduction), y is split into a single head and tail, and the quadrant's polynomial (the
//!   Cephes minimax forms of sinf and cosf on [-pi/4, pi/4]) runs in single with the tail
//!   as fdlibm's kernels take it.
//! - exp: x = k ln2 + r with ln2 in two parts (the first 9 bits, so k ln2_hi and x less it
//!   are exact), Cephes' expf polynomial for e^r, 2^k put in the exponent bits.
//! - log: x = 2^k (1 + f) with 1 + f in [sqrt(2)/2, sqrt(2)), log(1 + f) from s = f/(2 + f)
//!   (fdlibm's logf, as musl carries it).
//!
//! No multiply-add is fused (Rust never contracts), so every instruction set gives the same
//! bits, and the executor's blocks and the eager kernels (both call these) agree.

/// Rounding to an integer as `vmath::SHIFT` does, for singles: 1.5 2^23.
const SHIFT_F: f32 = 12582912.0;
const SHIFT_F_BITS: u32 = 0x4b40_0000;

/// Sines and cosines of |x| below this take the vector path (n pi/2 exact in two parts).
const TRIG_LIMIT: f32 = 524288.0;

/// Cephes sinf: sin(y) = y + y^3 (S1 + z S2 + z^2 S3), z = y^2, |y| <= pi/4.
const S1: f32 = -1.666_665_5e-1;
const S2: f32 = 8.332_161e-3;
const S3: f32 = -1.951_529_6e-4;
/// Cephes cosf: cos(y) = 1 - z/2 + z^2 (C1 + z C2 + z^2 C3).
const C1: f32 = 4.166_664_6e-2;
const C2: f32 = -1.388_731_6e-3;
const C3: f32 = 2.443_315_7e-5;

/// sin (shift 0) or cos (shift 1) of x, |x| < TRIG_LIMIT.
#[inline(always)]
fn sin_cos(x: f32, shift: u64) -> f32 {
    let xd = x as f64;
    let t = xd * INVPIO2 + SHIFT;
    let n = t - SHIFT;
    let q = (t.to_bits().wrapping_sub(SHIFT_BITS).wrapping_add(shift)) & 3;
    let y = (xd - n * PIO2_1F) - n * PIO2_1FT;
    let hi = y as f32;
    let lo = (y - hi as f64) as f32;
    let z = hi * hi;
    // sin(hi + lo) = hi + (lo + hi z P(z)) - lo z/2 (cos(hi) = 1 - z/2 to the order needed)
    let v = z * hi;
    let s = hi + ((lo - 0.5 * z * lo) + v * (S1 + z * (S2 + z * S3)));
    // sin(-0) is -0 (-0 plus +0 would give +0): a blend, not a branch
    let s = if z == 0.0 { hi } else { s };
    // cos(hi + lo) = cos(hi) - lo hi; 1 - z/2 first keeps its rounding small
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    let c = w + ((((1.0 - w) - hz) + z * z * (C1 + z * (C2 + z * C3))) - hi * lo);
    let v = if q & 1 == 0 { s } else { c };
    if q & 2 == 0 { v } else { -v }
}

/// exp of |x| up to this is a normal single (not subnormal, not infinite).
const EXP_LIMIT: f32 = 87.0;
const INVLN2: f32 = std::f32::consts::LOG2_E;
/// ln 2 as its first 9 bits (k times it is exact) and the rest (Cephes' C1 and C2).
const LN2_HI: f32 = 0.693_359_4;
const LN2_LO: f32 = -2.121_944_4e-4;
const E0: f32 = 1.987_569_1e-4;
const E1: f32 = 1.398_199_9e-3;
const E2: f32 = 8.333_452e-3;
const E3: f32 = 4.166_579_6e-2;
const E4: f32 = 1.666_666_5e-1;
const E5: f32 = 5.000_000_1e-1;

#[inline(always)]
fn exp_finite(x: f32) -> f32 {
    let t = x * INVLN2 + SHIFT_F;
    let k = t - SHIFT_F;
    let r = (x - k * LN2_HI) - k * LN2_LO;
    let z = r * r;
    let p = ((((E0 * r + E1) * r + E2) * r + E3) * r + E4) * r + E5;
    let y = (p * z + r) + 1.0;
    let kb = t.to_bits().wrapping_sub(SHIFT_F_BITS).wrapping_add(127) << 23;
    y * f32::from_bits(kb)
}

/// ln 2 in two parts (the first 16 bits, so k times it is exact) and fdlibm's logf
/// coefficients (musl's, in hexadecimal there).
const LN2_HI_L: f32 = 6.931_381_2e-1;
const LN2_LO_L: f32 = 9.058_000_6e-6;
const LG1: f32 = 0.666_666_6;
const LG2: f32 = 0.400_009_72;
const LG3: f32 = 0.284_987_87;
const LG4: f32 = 0.242_790_79;

/// log(x) for positive normal finite x.
#[inline(always)]
fn log_normal(x: f32) -> f32 {
    let ix = x.to_bits().wrapping_add(0x3f80_0000 - 0x3f35_04f3);
    let k = ((ix >> 23) as i32) - 127;
    let m = (ix & 0x007f_ffff) + 0x3f35_04f3;
    let f = f32::from_bits(m) - 1.0;
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (LG2 + w * LG4);
    let t2 = z * (LG1 + w * LG3);
    let r = t2 + t1;
    let hfsq = 0.5 * f * f;
    let dk = k as f32;
    s * (hfsq + r) + dk * LN2_LO_L - hfsq + f + dk * LN2_HI_L
}

/// `dst[i] = fast(x[i])` where `ok`, else `slow(x[i])`.
#[inline(always)]
fn apply(
    x: &[f32],
    dst: &mut [f32],
    ok: impl Fn(f32) -> bool + Copy,
    fast: impl Fn(f32) -> f32,
    slow: impl Fn(f64) -> f64,
) {
    for (d, &v) in dst.iter_mut().zip(x) {
        *d = fast(v);
    }
    if x.iter().fold(false, |a, &v| a | !ok(v)) {
        for (d, &v) in dst.iter_mut().zip(x) {
            if !ok(v) {
                *d = slow(v as f64) as f32;
            }
        }
    }
}

#[inline(always)]
fn trig_ok(v: f32) -> bool {
    v.abs() < TRIG_LIMIT
}

#[inline(always)]
fn exp_ok(v: f32) -> bool {
    v.abs() <= EXP_LIMIT
}

#[inline(always)]
fn log_ok(v: f32) -> bool {
    v >= f32::MIN_POSITIVE && v <= f32::MAX
}

use super::vmath::{Fun, INVPIO2, PIO2_1F, PIO2_1FT, SHIFT, SHIFT_BITS};

/// Whether singles' sin, cos, exp and log are computed here in single: not under
/// `MATFUSE_SINGLE_MATH=exact`, and not while a device runs. A device's single functions are
/// checked against the host's double forms rounded once (math_f32_exact.wgsl bit for bit,
/// its f32 ones within 1 ulp, its other functions through f64), so where one runs the host
/// keeps those forms and a statement's host and device paths agree; without a device (the
/// host engine's case: every machine without a GPU) singles are computed in single, as
/// MATLAB computes them, sixteen lanes a vector instead of eight.
pub fn in_single() -> bool {
    static EXACT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let exact = *EXACT.get_or_init(|| {
        std::env::var("MATFUSE_SINGLE_MATH").is_ok_and(|v| v.eq_ignore_ascii_case("exact"))
    });
    !exact && crate::gpu::device::current().is_none()
}

/// `dst = f(x)` elementwise (equal lengths), inlined into the caller (the executor's
/// blocks, compiled for the processor's vectors).
#[inline(always)]
pub fn eval(f: Fun, x: &[f32], dst: &mut [f32]) {
    match f {
        Fun::Sin => apply(x, dst, trig_ok, |v| sin_cos(v, 0), f64::sin),
        Fun::Cos => apply(x, dst, trig_ok, |v| sin_cos(v, 1), f64::cos),
        Fun::Exp => apply(x, dst, exp_ok, exp_finite, f64::exp),
        Fun::Log => apply(x, dst, log_ok, log_normal, f64::ln),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn eval_avx512(f: Fun, x: &[f32], dst: &mut [f32]) {
    eval(f, x, dst)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn eval_avx2(f: Fun, x: &[f32], dst: &mut [f32]) {
    eval(f, x, dst)
}

/// `eval` for callers not compiled for the processor's vectors (the eager kernels): picks
/// the AVX-512 or AVX2 build where the processor has it (same bits: nothing is fused).
pub fn eval_dispatch(f: Fun, x: &[f32], dst: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    {
        if super::vmath::has_avx512() {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { eval_avx512(f, x, dst) };
        }
        if super::vmath::has_avx2() {
            // SAFETY: as above.
            return unsafe { eval_avx2(f, x, dst) };
        }
    }
    eval(f, x, dst)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in units in the last place between two singles (NaN equals NaN).
    fn ulps(a: f32, b: f32) -> u32 {
        if a == b || (a.is_nan() && b.is_nan()) {
            return 0;
        }
        let key = |x: f32| {
            let b = x.to_bits() as i32;
            if b < 0 { i32::MIN.wrapping_sub(b) } else { b }
        };
        key(a).abs_diff(key(b))
    }

    /// Singles spread over the exponents lo..=hi (an LCG over mantissas and exponents).
    fn arguments(n: usize, lo: i32, hi: i32, negative: bool) -> Vec<f32> {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let m = 1.0 + (s >> 40) as f64 / (1u64 << 24) as f64;
                let e = lo + ((s >> 3) % (hi - lo + 1) as u64) as i32;
                let v = (m * 2f64.powi(e)) as f32;
                if negative && s & 4 != 0 { -v } else { v }
            })
            .collect()
    }

    const SPECIAL: [f32; 16] = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        f32::MIN_POSITIVE,
        1e-45,
        -1e-45,
        1e-30,
        f32::MAX,
        -f32::MAX,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        524287.97,
        524288.0,
        1e30,
    ];

    /// The worst distance of `f` from the double reference rounded to single, over `xs`,
    /// through both entries (inlined and dispatched); also checks that the two agree.
    fn worst(f: Fun, xs: &[f32], reference: fn(f64) -> f64) -> (u32, f32) {
        let mut a = vec![0.0f32; xs.len()];
        let mut b = vec![0.0f32; xs.len()];
        eval(f, xs, &mut a);
        eval_dispatch(f, xs, &mut b);
        let mut w = (0, 0.0);
        for ((&x, &y), &z) in xs.iter().zip(&a).zip(&b) {
            assert!(
                y.to_bits() == z.to_bits() || (y.is_nan() && z.is_nan()),
                "{f:?}({x:e}): {y} vs {z} by instruction set"
            );
            let r = reference(x as f64) as f32;
            let u = ulps(y, r);
            // signs of zeros must match (sin(-0) = -0)
            let u = if y == 0.0 && r == 0.0 && y.to_bits() != r.to_bits() {
                u32::MAX
            } else {
                u
            };
            if u > w.0 {
                w = (u, x);
            }
        }
        w
    }

    #[test]
    fn single_sines_and_cosines_are_within_one_ulp() {
        let mut xs = arguments(1_000_000, -40, 21, true);
        // singles nearest the multiples of pi/2 (the hardest reductions) and a dense range
        xs.extend((1..100_000).map(|k| (k as f64 * std::f64::consts::FRAC_PI_2) as f32));
        xs.extend((1..100_000).map(|k| {
            f32::from_bits(((k as f64 * std::f64::consts::FRAC_PI_2) as f32).to_bits() + 1)
        }));
        xs.extend((0..200_000).map(|k| k as f32 * 1e-4 - 10.0));
        xs.extend(SPECIAL);
        for (f, reference) in [(Fun::Sin, f64::sin as fn(f64) -> f64), (Fun::Cos, f64::cos)] {
            let (u, x) = worst(f, &xs, reference);
            assert!(u <= 1, "{f:?}({x:e}) is {u} ulp off");
        }
    }

    #[test]
    fn single_exp_and_log_are_within_one_ulp() {
        let mut xs = arguments(1_000_000, -30, 7, true);
        xs.extend((0..400_000).map(|k| k as f32 * 5e-4 - 104.0));
        xs.extend([
            87.0, -87.0, 87.1, -87.1, 88.72, 88.73, -103.9, -104.0, -200.0,
        ]);
        xs.extend(SPECIAL);
        let (u, x) = worst(Fun::Exp, &xs, f64::exp);
        assert!(u <= 1, "exp({x:e}) is {u} ulp off");
        let mut ys = arguments(1_000_000, -149, 127, false);
        ys.extend((0..400_000).map(|k| 0.5 + k as f32 * 4e-6));
        ys.extend((1..100_000).map(f32::from_bits));
        ys.extend(SPECIAL);
        ys.extend([-1.0, -f32::MIN_POSITIVE]);
        let (u, x) = worst(Fun::Log, &ys, f64::ln);
        assert!(u <= 1, "log({x:e}) is {u} ulp off");
    }
}
