// exp, log, sin and cos of singles rounded once from double results, as the host's are
// (MATFUSE_SINGLE_MATH=exact): identical to the host bit for bit, at up to three times the
// GPU time of math_f32_fast.wgsl's f32 versions. After math_f32_via_f64.wgsl.

fn m_log(x: f32) -> f32 {
    return f32(d_log(wide(x)));
}

// exp of a single below 103 in magnitude by the same reasoning as s_sin_cos: k ln2 off in
// two exact-product steps (ln2's first part has 32 bits, |k| < 150), Taylor to r^12 in
// double (2^-52 for |r| <= ln2/2), 2^k from its bits; the f64 function (with its division
// and two ldexps) for overflow, underflow and NaN.
fn m_exp(x: f32) -> f32 {
    if (!(abs(x) < 103.0)) {
        return f32(d_exp(wide(x)));
    }
    let xd = f64(x);
    let k = floor(xd * 1.4426950408889634 + 0.5);
    let r = (xd - k * 6.93147180369123816490e-01) - k * 1.90821492927058770002e-10;
    let p = 1.0 + r * (1.0 + r * (0.5 + r * (0.16666666666666666 + r * (0.041666666666666664
        + r * (0.008333333333333333 + r * (0.001388888888888889 + r * (0.0001984126984126984
        + r * (2.48015873015873e-05 + r * (2.7557319223985893e-06 + r * (2.755731922398589e-07
        + r * (2.505210838544172e-08 + r * 2.08767569878681e-09)))))))))));
    let scale = bitcast<f64>(u64(i32(k) + 1023) << 52u);
    return f32(p * scale);
}

// A single's sine or cosine needs its double result only to about 2^-50 to round as the
// host's does (a correctly rounded double, rounded again) but for ties too rare to meet. So
// for 2^-27 <= |x| < 2^17 they reduce by pi/2 in plain steps (n RP1 and n RP2 are exact:
// the constants have 33 bits and n < 2^17) and use plain double polynomials: a fraction of
// the f64 functions' double-double work, which stays for other x (on the H200 sin(x) of 1e8
// singles took 0.67 ms of GPU time that way, against 0.3 for x + 1).
fn s_sin_cos(x: f32, cosine: bool) -> f32 {
    let a = abs(x);
    if (!(a < 131072.0) || a < 7.450580596923828e-09) {
        // (Branches, not select: select would run both.)
        if (cosine) {
            return f32(d_cos(wide(x)));
        }
        return f32(d_sin(wide(x)));
    }
    let xd = f64(x);
    let n = floor(xd * 0.6366197723675814 + 0.5);
    // Each exact step kept apart: NVIDIA's compiler otherwise factors n out of the products,
    // and n (RP1 + RP2) rounded put sines near multiples of pi/2 25 ulp off on an H100.
    let r = (keep(xd - n * 1.5707963267341256) - keep(n * 6.077100506303966e-11))
        - n * 2.0222662487111665e-21;
    let z = r * r;
    let sin_r = r + r * z * (-0.16666666666666666 + z * (0.008333333333333333
        + z * (-0.0001984126984126984 + z * (2.7557319223985893e-06
        + z * (-2.505210838544172e-08 + z * 1.6059043836821613e-10)))));
    let cos_r = (1.0 - 0.5 * z) + z * z * (0.041666666666666664 + z * (-0.001388888888888889
        + z * (2.48015873015873e-05 + z * (-2.755731922398589e-07 + z * (2.08767569878681e-09
        + z * -1.1470745597729725e-11)))));
    // The quadrant, one further for the cosine.
    let q = (bitcast<u32>(i32(n)) + select(0u, 1u, cosine)) & 3u;
    let v = select(sin_r, cos_r, (q & 1u) == 1u);
    return f32(select(v, -v, q >= 2u));
}

fn m_sin(x: f32) -> f32 {
    return s_sin_cos(x, false);
}

fn m_cos(x: f32) -> f32 {
    return s_sin_cos(x, true);
}

// The host makes single normals in double, then rounds: so does this.
fn m_normal(w: vec4<u32>) -> f32 {
    return f32(d_normal(w));
}
