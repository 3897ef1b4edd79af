//! The single sine and cosine reductions of shaders/sin_reduce_fma.wgsl and
//! math_f32_fast.wgsl's `reduce_medium32`, followed by `sin_cos_of`, mirrored on the host
//! with the multiply-adds a device performs: within 1 ulp of the correctly rounded result.
//! The fused reduction only runs on devices whose fma is fused (lavapipe's is not), so this
//! mirror is what checks it in CI; the constants are checked to be the shaders' own. The
//! default test sweeps every 61st single below 1024 and the neighbourhood of every multiple
//! of pi/2 there; `cargo test --release --test suite sin_reduction -- --ignored` sweeps them all
//! (minutes).

const MATH_F32_FAST: &str = include_str!("../../shaders/math_f32_fast.wgsl");
const SIN_REDUCE_FMA: &str = include_str!("../../shaders/sin_reduce_fma.wgsl");

fn fma(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}

fn pick(odd_value: f32, even_value: f32, odd: bool) -> f32 {
    if odd { odd_value } else { even_value }
}

/// `sin_cos_of`, with its fma calls fused.
fn sin_cos_of(x: f32, r: f32, r_lo: f32, quadrant: u32, cosine: bool) -> f32 {
    let q = (quadrant + u32::from(cosine)) & 3;
    let odd = q & 1 == 1;
    let z = r * r;
    let p = fma(
        fma(
            pick(2.443315711809948e-5, -1.9515295891e-4, odd),
            z,
            pick(-1.388731625493765e-3, 8.3321608736e-3, odd),
        ),
        z,
        pick(4.166664568298827e-2, -1.6666654611e-1, odd),
    );
    let m = pick(z * z, r * z, odd);
    let tail = pick(fma(-r, r_lo, -0.5 * z), r_lo, odd);
    let v = pick(1.0, r, odd) + fma(m, p, tail);
    let s = if q >= 2 { -v } else { v };
    if !cosine && x.abs() < 2.44140625e-4 {
        x
    } else {
        s
    }
}

/// n = round(x 2/pi) from adding 1.5 2^23, with the multiply and add fused or not.
fn rounded_quotient(x: f32, fused: bool) -> f32 {
    if fused {
        fma(x, 0.636_619_75, 12582912.0)
    } else {
        x * 0.636_619_75 + 12582912.0
    }
}

/// `reduce_fast32` of sin_reduce_fma.wgsl: (r, r_lo, quadrant bits).
fn reduce_fma(x: f32, fused_rounding: bool) -> (f32, f32, u32) {
    let t = rounded_quotient(x, fused_rounding);
    let n = t - 12582912.0;
    let r_hi = fma(-n, 1.570_796_4, x);
    let c2 = n * -4.371_031_5e-8;
    let r = r_hi - c2;
    let r_lo = fma(-n, -1.074_634_6e-12, (r_hi - r) - c2);
    (r, r_lo, t.to_bits())
}

/// `reduce_medium32` of math_f32_fast.wgsl, with `x - n C1` fused (as drivers may).
fn reduce_split(x: f32, fused_rounding: bool) -> (f32, f32, u32) {
    let t = rounded_quotient(x, fused_rounding);
    let n = t - 12582912.0;
    let r1 = fma(-n, 1.570_800_8, x);
    let b = -n * -4.454_516e-6;
    let r = r1 + b;
    let bb = r - r1;
    let r_lo = fma(-n, 6.077_100_6e-11, (r1 - (r - bb)) + (b - bb));
    (r, r_lo, t.to_bits())
}

/// Ulps between `r` and the host's single sin or cos of `x` (f64, rounded once).
fn ulps(x: f32, r: f32, cosine: bool) -> f64 {
    let h = if cosine {
        (x as f64).cos() as f32
    } else {
        (x as f64).sin() as f32
    };
    let eps = (f32::from_bits(h.abs().to_bits() + 1) - h.abs()) as f64;
    (r as f64 - h as f64).abs() / eps
}

/// The worst ulps of both reductions over `xs` and their negatives, sines and cosines, with
/// the quotient's rounding fused and not.
fn worst(xs: impl Iterator<Item = f32>) -> (f64, f64, f32) {
    let (mut fma_worst, mut split_worst, mut at) = (0.0f64, 0.0f64, 0.0f32);
    for xp in xs {
        for x in [xp, -xp] {
            for cosine in [false, true] {
                for fused in [false, true] {
                    let (r, r_lo, q) = reduce_fma(x, fused);
                    let u = ulps(x, sin_cos_of(x, r, r_lo, q, cosine), cosine);
                    if u > fma_worst {
                        (fma_worst, at) = (u, x);
                    }
                    let (r, r_lo, q) = reduce_split(x, fused);
                    split_worst =
                        split_worst.max(ulps(x, sin_cos_of(x, r, r_lo, q, cosine), cosine));
                }
            }
        }
    }
    (fma_worst, split_worst, at)
}

/// The singles near the multiples of pi/2 below 1024, where the reductions cancel most.
fn near_multiples() -> impl Iterator<Item = f32> {
    (1..=652u32).flat_map(|n| {
        let centre = (n as f64 * std::f64::consts::FRAC_PI_2) as f32;
        (0..4001u32).map(move |k| f32::from_bits(centre.to_bits() - 2000 + k))
    })
}

#[test]
fn constants_are_the_shaders() {
    for c in [
        "1.5707963705062866",
        "-4.371031536720693e-08",
        "-1.074634630414406e-12",
        "0.6366197466850281",
    ] {
        assert!(SIN_REDUCE_FMA.contains(c), "sin_reduce_fma.wgsl lacks {c}");
    }
    for c in [
        "1.57080078125",
        "-4.454515874385834e-06",
        "6.07710062827671e-11",
    ] {
        assert!(MATH_F32_FAST.contains(c), "math_f32_fast.wgsl lacks {c}");
    }
    // The mirror's literals are those numbers as singles.
    assert_eq!(1.570_796_4f32, 1.5707963705062866f64 as f32);
    assert_eq!(-4.371_031_5e-8f32, -4.371031536720693e-08f64 as f32);
    assert_eq!(-1.074_634_6e-12f32, -1.074634630414406e-12f64 as f32);
    assert_eq!(6.077_100_6e-11f32, 6.07710062827671e-11f64 as f32);
    assert_eq!(-4.454_516e-6f32, -4.454515874385834e-06f64 as f32);
}

#[test]
fn both_reductions_stay_within_one_ulp_on_a_sweep() {
    let top = 1024.0f32.to_bits();
    let sweep = (2.44140625e-4f32.to_bits()..top)
        .step_by(61)
        .map(f32::from_bits);
    let (fused, split, at) = worst(sweep.chain(near_multiples()));
    assert!(fused <= 1.0, "fused reduction {fused} ulp off at {at}");
    assert!(split <= 1.0, "split reduction {split} ulp off");
}

#[test]
#[ignore = "every single below 1024: minutes"]
fn both_reductions_stay_within_one_ulp_for_every_single_below_1024() {
    let (fused, split, at) = worst((0..1024.0f32.to_bits()).map(f32::from_bits));
    assert!(fused <= 1.0, "fused reduction {fused} ulp off at {at}");
    assert!(split <= 1.0, "split reduction {split} ulp off");
}
