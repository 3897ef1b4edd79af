// Single precision through the f64 functions (math_f64.wgsl, included with its m_ names
// made d_): each result is the double result rounded once, as the host computes single
// values, so both sides agree. The drivers' own f32 functions can be millions of ulp off
// (NVIDIA's sin past a few periods, lavapipe's exp near overflow: bench/accuracy.m). Used
// where the device has f64; math_f32.wgsl otherwise.

// x as an f64, exactly, subnormals included: NVIDIA flushes f32 subnormals to zero when it
// converts them (sqrt and log of 1e-40 came out as 0 and -Inf), so those are widened from
// their bits (the mantissa times 2^-149).
fn wide(x: f32) -> f64 {
    let bits = bitcast<u32>(x);
    if ((bits & 0x7f800000u) != 0u) {
        return f64(x);
    }
    let m = f64(bits & 0x007fffffu) * 1.401298464324817e-45;
    return select(m, -m, (bits & 0x80000000u) != 0u);
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

fn m_expm1(x: f32) -> f32 {
    return f32(d_expm1(wide(x)));
}

fn m_cosh(x: f32) -> f32 {
    return f32(d_cosh(wide(x)));
}

fn m_sinh(x: f32) -> f32 {
    return f32(d_sinh(wide(x)));
}

fn m_tanh(x: f32) -> f32 {
    return f32(d_tanh(wide(x)));
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
    let r = ((xd - n * 1.5707963267341256) - n * 6.077100506303966e-11) - n * 2.0222662487111665e-21;
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

fn m_tan(x: f32) -> f32 {
    return f32(d_tan(wide(x)));
}

fn m_log(x: f32) -> f32 {
    return f32(d_log(wide(x)));
}

fn m_atan(x: f32) -> f32 {
    return f32(d_atan(wide(x)));
}

fn m_atan2(y: f32, x: f32) -> f32 {
    return f32(d_atan2(wide(y), wide(x)));
}

// The host makes single normals in double, then rounds: so does this.
fn m_normal(w: vec4<u32>) -> f32 {
    return f32(d_normal(w));
}

// Rounding the f64 square root to f32 gives the correctly rounded f32 one.
fn m_sqrt(x: f32) -> f32 {
    return f32(sqrt(wide(x)));
}

fn m_log2(x: f32) -> f32 {
    return f32(d_log2(wide(x)));
}

fn m_log10(x: f32) -> f32 {
    return f32(d_log10(wide(x)));
}

fn m_log1p(x: f32) -> f32 {
    return f32(d_log1p(wide(x)));
}

fn m_power(x: f32, y: f32) -> f32 {
    return f32(d_power(wide(x), wide(y)));
}

fn m_mod(x: f32, y: f32) -> f32 {
    return f32(d_mod(wide(x), wide(y)));
}

fn m_rem(x: f32, y: f32) -> f32 {
    return f32(d_rem(wide(x), wide(y)));
}
