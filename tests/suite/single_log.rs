//! The single log of shaders/math_f32_fast.wgsl (`m_log` and `m_log_fast`, both
//! `log_normal32` for positive normals), mirrored on the host with the
//! shader's own constants (read from its text) and with its multiply-adds fused and split,
//! as a driver may do either: within 1 ulp of the host's single log (f64, rounded once).
//! The default test sweeps every 61st positive normal single and the neighbourhoods of 1 and
//! sqrt(2) powers; `cargo test --release --test suite single_log -- --ignored` sweeps them
//! all (a minute).

const MATH_F32_FAST: &str = include_str!("../../shaders/math_f32_fast.wgsl");

/// The decimal literals of `log_normal32`'s body, in order: 1, the polynomial's eight coefficients
/// (highest first), -1/2, then ln2's low and high parts.
fn constants() -> Vec<f32> {
    crate::common::shader_literals(MATH_F32_FAST, "log_normal32")
}

/// `log_normal32` for a positive normal single, its multiply-adds fused or not.
fn mirror(x: f32, k: &[f32], fused: bool) -> f32 {
    let fma = |a: f32, b: f32, c: f32| if fused { a.mul_add(b, c) } else { a * b + c };
    let shifted = x.to_bits().wrapping_sub(0x3f35_04f3);
    let e = ((shifted as i32) >> 23) as f32;
    let f = f32::from_bits((shifted & 0x007f_ffff) + 0x3f35_04f3) - k[0];
    let mut p = fma(k[1], f, k[2]);
    for &c in &k[3..9] {
        p = fma(p, f, c);
    }
    let tail = (f * f) * fma(f, p, k[9]);
    let t = f + fma(e, k[10], tail);
    fma(e, k[11], t)
}

/// The worst ulps from the host's single log over `xs`, both ways of multiply-adding.
fn worst(xs: impl Iterator<Item = f32>) -> (f64, f32) {
    let k = constants();
    assert_eq!(k.len(), 12, "log_normal32's literals: {k:?}");
    let (mut worst, mut at) = (0.0f64, 0.0f32);
    for x in xs {
        let h = (x as f64).ln() as f32;
        let eps = (f32::from_bits(h.abs().to_bits() + 1) - h.abs()) as f64;
        for fused in [false, true] {
            let u = (mirror(x, &k, fused) as f64 - h as f64).abs() / eps;
            if u > worst {
                (worst, at) = (u, x);
            }
        }
    }
    (worst, at)
}

#[test]
fn the_literals_are_the_expected_ones() {
    let k = constants();
    assert_eq!(k[0], 1.0);
    assert_eq!(k[9], -0.5);
    assert_eq!(k[11], 0.693_145_75);
    // ln2's first part has 15 bits, so e times it is exact for every exponent.
    assert_eq!(k[11].to_bits() & 0x1ff, 0);
}

#[test]
fn single_log_stays_within_one_ulp_on_a_sweep() {
    let sweep = (0x0080_0000u32..0x7f80_0000)
        .step_by(61)
        .map(f32::from_bits);
    let near = [
        1.0f32,
        std::f32::consts::SQRT_2,
        std::f32::consts::FRAC_1_SQRT_2,
        2.0,
        0.5,
    ]
    .into_iter()
    .flat_map(|c| (0..20001u32).map(move |i| f32::from_bits(c.to_bits() - 10000 + i)));
    let (u, at) = worst(sweep.chain(near));
    assert!(u <= 1.0, "single log {u} ulp off at {at}");
}

#[test]
#[ignore = "every positive normal single: a minute"]
fn single_log_stays_within_one_ulp_for_every_normal_single() {
    let (u, at) = worst((0x0080_0000u32..0x7f80_0000).map(f32::from_bits));
    assert!(u <= 1.0, "single log {u} ulp off at {at}");
}
