// Single-precision functions through the f64 ones (math_f64.wgsl, included with its m_
// names made d_) wherever the device has f64: each result is the double result rounded once,
// as the host computes single values, so both sides agree. The drivers' own f32 functions
// can be millions of ulp off (NVIDIA's sin past a few periods, lavapipe's exp near overflow:
// bench/accuracy.m). exp, log, sin and cos come after this, from math_f32_fast.wgsl (the
// default) or math_f32_exact.wgsl (MATFUSE_SINGLE_MATH=exact).
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

fn m_tan(x: f32) -> f32 {
    return f32(d_tan(wide(x)));
}

fn m_atan(x: f32) -> f32 {
    return f32(d_atan(wide(x)));
}

fn m_atan2(y: f32, x: f32) -> f32 {
    return f32(d_atan2(wide(y), wide(x)));
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

// Rounding the f64 square root to f32 gives the correctly rounded f32 one. m_sqrt is this
// (sqrt_f32_wide.wgsl) or, on devices that pass the check at start-up, sqrt_f32_fma.wgsl.
fn s_sqrt_wide(x: f32) -> f32 {
    return f32(sqrt(wide(x)));
}

