//! `x.^k` of doubles for whole exponents |k| <= 32 without the C library's `pow`: glibc's
//! scalar pow cost about 12 ns an element (`x.^3` of 1e6 doubles was 3.9x NumPy's vector
//! pow). The mantissa of |x| (in [1, 2)) is raised by repeated squaring in double-double
//! arithmetic (each product exact through an FMA, the error of the chain about 2^-100 of the
//! value), rounded once and scaled by 2^(e k) in two exact steps: results are correctly
//! rounded except within 2^-100 of a halfway case, and where they are subnormal (rounded
//! twice: within 1 ulp). glibc's pow is itself within 0.52 ulp, so the two agree except in
//! rare last bits. Written on lanes of eight so that the loops vectorise.

/// Exponents taken here: |k| up to this (the chain grows by one squaring a doubling).
const MOST: f64 = 32.0;

/// `y` as a whole exponent this path takes.
#[inline(always)]
pub fn small_whole(y: f64) -> Option<i32> {
    if y == y.trunc() && y.abs() <= MOST {
        Some(y as i32)
    } else {
        None
    }
}

/// `x^y` as the engine computes it (scalars, arrays, fused groups alike): whole exponents
/// up to 32 by `whole_power`, others by the C library's pow.
#[inline(always)]
pub fn real_pow(x: f64, y: f64) -> f64 {
    match small_whole(y) {
        Some(k) => whole_power(x, k),
        None => x.powf(y),
    }
}

/// `x^k` for one value (the FMA instruction where the processor has it; the C library's
/// `fma` otherwise, which is exact too).
pub fn whole_power(x: f64, k: i32) -> f64 {
    let mut out = [0.0];
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the processor has the features the function is compiled for.
        unsafe { powers_fma::<1>(&[x], k, &mut out) };
        return out[0];
    }
    powers::<1>(&[x], k, &mut out);
    out[0]
}

/// `x^k` of every element of `x` into `out` (as many), in the widest vectors the processor
/// has (the build's baseline, SSE2, has no FMA instruction).
pub fn whole_powers_wide(x: &[f64], k: i32, out: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::plan::cpu::vmath::has_avx512() {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { powers_avx512(x, k, out) };
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: as above.
            return unsafe { powers_fma::<LANES>(x, k, out) };
        }
    }
    powers::<LANES>(x, k, out)
}

#[inline(always)]
fn powers<const L: usize>(x: &[f64], k: i32, out: &mut [f64]) {
    whole_powers_in::<L, f64, f64>(x, k, out, |v| v, |v| v)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn powers_fma<const L: usize>(x: &[f64], k: i32, out: &mut [f64]) {
    powers::<L>(x, k, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn powers_avx512(x: &[f64], k: i32, out: &mut [f64]) {
    powers::<LANES>(x, k, out)
}

const LANES: usize = 8;
const FRAC: u64 = (1 << 52) - 1;
const ONE: u64 = 1023 << 52;
const SIGN: u64 = 1 << 63;
/// 2^64, which lifts a subnormal into the normal range exactly.
const LIFT: f64 = 18446744073709551616.0;

/// `put(x^k)` for `get` of each element of `x` into `dst` (as many as `x` holds), eight
/// lanes at a time; inlined into the caller's vector code (the host executor's blocks are
/// compiled for AVX-512 or AVX2 with FMA where the processor has them).
#[inline(always)]
pub fn whole_powers<T: Copy, R>(
    x: &[T],
    k: i32,
    dst: &mut [R],
    get: impl Fn(T) -> f64,
    put: impl Fn(f64) -> R,
) {
    whole_powers_in::<LANES, T, R>(x, k, dst, get, put)
}

/// `whole_powers` on lanes of `L`.
#[inline(always)]
fn whole_powers_in<const L: usize, T: Copy, R>(
    x: &[T],
    k: i32,
    dst: &mut [R],
    get: impl Fn(T) -> f64,
    put: impl Fn(f64) -> R,
) {
    // the cases one operation gives exactly as pow does (correctly rounded)
    match k {
        0 => {
            // pow(x, 0) is 1 for every x, NaN included
            for d in dst.iter_mut() {
                *d = put(1.0);
            }
            return;
        }
        1 => {
            for (d, &v) in dst.iter_mut().zip(x) {
                *d = put(get(v));
            }
            return;
        }
        2 => {
            for (d, &v) in dst.iter_mut().zip(x) {
                let v = get(v);
                *d = put(v * v);
            }
            return;
        }
        -1 => {
            for (d, &v) in dst.iter_mut().zip(x) {
                *d = put(1.0 / get(v));
            }
            return;
        }
        _ => {}
    }
    let n = k.unsigned_abs();
    let top = 31 - n.leading_zeros();
    let odd = if n & 1 == 1 { SIGN } else { 0 };
    // what a zero and an infinity give (the sign is applied after, for odd k)
    let (at_zero, at_inf) = if k > 0 {
        (0.0, f64::INFINITY)
    } else {
        (f64::INFINITY, 0.0)
    };
    for (xs, ds) in x.chunks(L).zip(dst.chunks_mut(L)) {
        let mut v = [1.0f64; L];
        for (v, &s) in v.iter_mut().zip(xs) {
            *v = get(s);
        }
        let mut m = [0.0f64; L];
        let mut e = [0i32; L];
        for j in 0..L {
            let a = v[j].abs();
            let sub = a < f64::MIN_POSITIVE;
            let b = if sub { a * LIFT } else { a }.to_bits();
            e[j] = ((b >> 52) as i32 & 0x7ff) - 1023 - if sub { 64 } else { 0 };
            m[j] = f64::from_bits((b & FRAC) | ONE);
        }
        // m^n as h + l, from the top bit of n down: square, then times m where the bit is set
        let (mut h, mut l) = (m, [0.0f64; L]);
        for bit in (0..top).rev() {
            for j in 0..L {
                let p = h[j] * h[j];
                let t = h[j].mul_add(h[j], -p);
                let t = (2.0 * h[j]).mul_add(l[j], t);
                h[j] = p + t;
                l[j] = t - (h[j] - p);
            }
            if n >> bit & 1 == 1 {
                for j in 0..L {
                    let p = h[j] * m[j];
                    let t = h[j].mul_add(m[j], -p);
                    let t = l[j].mul_add(m[j], t);
                    h[j] = p + t;
                    l[j] = t - (h[j] - p);
                }
            }
        }
        if k < 0 {
            // 1 / (h + l): the rounded reciprocal and its residual, exact through an FMA
            for j in 0..L {
                let r = 1.0 / h[j];
                let t = (-r).mul_add(h[j], 1.0);
                let t = (-r).mul_add(l[j], t);
                h[j] = r;
                l[j] = r * t;
            }
        }
        let mut out = [0.0f64; L];
        for j in 0..L {
            // m^k is within (2^-32, 2^32): past these bounds of e k the result is Inf or 0
            let big = (e[j] * k).clamp(-1200, 1100);
            let half = big >> 1;
            let scale1 = f64::from_bits(((half + 1023) as u64) << 52);
            let scale2 = f64::from_bits(((big - half + 1023) as u64) << 52);
            let a = v[j].abs();
            // the specials as selects, not branches (a chain of branches kept this loop
            // scalar: `x.^3` of 1e6 doubles 5.9 ms, not vectorised)
            let s = (h[j] + l[j]) * scale1 * scale2;
            let s = if a == 0.0 { at_zero } else { s };
            let s = if a == f64::INFINITY { at_inf } else { s };
            let s = if a.is_nan() { a } else { s };
            out[j] = f64::from_bits(s.to_bits() | (v[j].to_bits() & odd));
        }
        for (d, &o) in ds.iter_mut().zip(&out) {
            *d = put(o);
        }
    }
}
