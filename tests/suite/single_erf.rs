//! The single erf and erfc of shaders/erf_f32.wgsl, mirrored on the host with the shaders'
//! own constants (read from their text: erf_ratio32, erfc_tail32 and math_f32_fast.wgsl's
//! exp_split) and with their multiply-adds fused and split, as a driver may do either:
//! erfc within 4 ulp of the host's single erfc (libm's f64 erfc rounded once) with fused
//! multiply-adds and 5 with split ones, erf within 1 either way. The arguments the shaders
//! send to the f64 functions (NaN, erfc from 9.1 on, erf's zeros and subnormals) are left
//! out. The default tests sweep every 61st single and the neighbourhoods of the pieces'
//! edges and of the worst places; `cargo test --release --test suite single_erf --
//! --ignored` sweeps every single (15 minutes on one core).

const ERF_F32: &str = include_str!("../../shaders/erf_f32.wgsl");
const MATH_F32_FAST: &str = include_str!("../../shaders/math_f32_fast.wgsl");

use crate::common::shader_literals as literals;

struct Constants {
    /// erf(a)/a - 1's polynomial, highest first.
    ratio: Vec<f32>,
    /// 3, 3, then erfcx's polynomial in t, highest first.
    tail: Vec<f32>,
    /// 1/ln2, 1.5 2^23 twice, ln2's low and high parts, the polynomial (highest first), 1.
    exp: Vec<f32>,
}

fn constants() -> Constants {
    let k = Constants {
        ratio: literals(ERF_F32, "erf_ratio32"),
        tail: literals(ERF_F32, "erfc_tail32"),
        exp: literals(MATH_F32_FAST, "exp_split"),
    };
    assert_eq!(k.ratio.len(), 7, "erf_ratio32's literals: {:?}", k.ratio);
    assert_eq!(k.tail.len(), 13, "erfc_tail32's literals: {:?}", k.tail);
    assert_eq!(k.exp.len(), 12, "exp_split's literals: {:?}", k.exp);
    k
}

fn fma(fused: bool, a: f32, b: f32, c: f32) -> f32 {
    if fused { a.mul_add(b, c) } else { a * b + c }
}

fn horner(fused: bool, coefficients: &[f32], v: f32) -> f32 {
    let mut p = fma(fused, coefficients[0], v, coefficients[1]);
    for &c in &coefficients[2..] {
        p = fma(fused, p, v, c);
    }
    p
}

fn exp_split(x: f32, tail: f32, k: &[f32], fused: bool) -> f32 {
    let t = fma(fused, x, k[0], k[1]);
    let n = t - k[2];
    let r = fma(fused, -n, k[3], x - n * k[4]) - tail;
    let p = horner(fused, &k[5..11], r);
    let e = fma(fused, p * r, r, r) + k[11];
    let scale = t
        .to_bits()
        .wrapping_sub(0x4b40_0000)
        .wrapping_add(127)
        .wrapping_shl(23);
    e * f32::from_bits(scale)
}

fn ratio(z: f32, k: &Constants, fused: bool) -> f32 {
    horner(fused, &k.ratio, z)
}

fn erfc_tail(a: f32, k: &Constants, fused: bool) -> f32 {
    let t = (a - k.tail[0]) / (a + k.tail[1]);
    let p = horner(fused, &k.tail[2..], t);
    let ah = f32::from_bits(a.to_bits() & 0xffff_f000);
    let al = a - ah;
    exp_split(-(ah * ah), al * (a + ah), &k.exp, fused) * p
}

/// `m_erfc` where it stays in f32 (None where it calls the f64 function).
fn mirror_erfc(x: f32, k: &Constants, fused: bool) -> Option<f32> {
    if x.is_nan() || x >= 9.1 {
        return None;
    }
    let a = x.abs().min(9.1);
    let r = if a < 0.84375 {
        let y = a * ratio(a * a, k, fused);
        let h = if a < 0.25 { 1.0 } else { 0.5 };
        h - ((a - (1.0 - h)) + y)
    } else {
        erfc_tail(a, k, fused)
    };
    Some(if x < 0.0 { 2.0 - r } else { r })
}

/// `m_erf` where it stays in f32.
fn mirror_erf(x: f32, k: &Constants, fused: bool) -> Option<f32> {
    if x.is_nan() || x.abs() < f32::MIN_POSITIVE {
        return None;
    }
    let a = x.abs().min(9.1);
    let r = if a < 0.84375 {
        fma(fused, a, ratio(a * a, k, fused), a)
    } else {
        1.0 - erfc_tail(a, k, fused)
    };
    Some(if x < 0.0 { -r } else { r })
}

/// The worst ulps from the host's over `xs`, with the place: erfc with fused multiply-adds,
/// erfc with split ones, erf (either way).
fn worst(xs: impl Iterator<Item = f32>) -> [(f64, f32); 3] {
    let k = constants();
    let mut worst = [(0.0f64, 0.0f32); 3];
    let ulps = |got: f32, host: f32| {
        let eps = (f32::from_bits(host.abs().to_bits() + 1) - host.abs()) as f64;
        (got as f64 - host as f64).abs() / eps
    };
    let mut note = |w: usize, u: f64, x: f32| {
        if u > worst[w].0 || u.is_nan() {
            worst[w] = (u, x);
        }
    };
    for x in xs {
        let (erfc, erf) = (libm::erfc(x as f64) as f32, libm::erf(x as f64) as f32);
        for fused in [true, false] {
            if let Some(g) = mirror_erfc(x, &k, fused) {
                note(usize::from(!fused), ulps(g, erfc), x);
            }
            if let Some(g) = mirror_erf(x, &k, fused) {
                note(2, ulps(g, erf), x);
            }
        }
    }
    worst
}

/// erfc within 4 ulp where multiply-adds are fused (NVIDIA's), 5 where a driver splits
/// them (lavapipe); erf within 1 either way.
fn check(w: [(f64, f32); 3]) {
    assert!(
        w[0].0 <= 4.0,
        "fused erfc {} ulp off at {:e}",
        w[0].0,
        w[0].1
    );
    assert!(
        w[1].0 <= 5.0,
        "split erfc {} ulp off at {:e}",
        w[1].0,
        w[1].1
    );
    assert!(
        w[2].0 <= 1.0,
        "single erf {} ulp off at {:e}",
        w[2].0,
        w[2].1
    );
}

#[test]
fn the_literals_are_the_expected_ones() {
    let k = constants();
    assert_eq!(&k.tail[..2], &[3.0, 3.0]);
    assert_eq!(k.ratio[6], 0.128_379_17);
    assert_eq!(k.exp[1], 12_582_912.0);
    assert_eq!(k.exp[4], 0.693_359_375);
    // ln2's first part has 9 bits, so n times it is exact for every n of a normal result.
    assert_eq!(k.exp[4].to_bits() & 0x3fff, 0);
}

#[test]
fn single_erf_and_erfc_stay_within_their_bounds_on_a_sweep() {
    let sweep = (0..u32::MAX).step_by(61).map(f32::from_bits);
    // (9.045488 and 8.376255: the worst places of the split and the fused erfc)
    let edges = [0.25f32, 0.84375, 3.0, 9.1, 1e-30, 4.0, 9.045_488, 8.376_255]
        .into_iter()
        .flat_map(|c| [c, -c])
        .flat_map(|c| (0..20001u32).map(move |i| f32::from_bits(c.to_bits() - 10000 + i)));
    check(worst(sweep.chain(edges)));
}

#[test]
#[ignore = "every single: a few minutes"]
fn single_erf_and_erfc_stay_within_their_bounds_for_every_single() {
    check(worst((0..=u32::MAX).map(f32::from_bits)));
}
