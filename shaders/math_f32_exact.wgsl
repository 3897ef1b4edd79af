// Single precision through the f64 functions (math_f64.wgsl, included with its m_ names
// made d_): each result is the double result rounded once, as the host computes single
// values, so both sides agree. The drivers' own f32 functions can be millions of ulp off
// (NVIDIA's sin past a few periods, lavapipe's exp near overflow: bench/accuracy.m). Used
// where the device has f64; math_f32.wgsl otherwise.

fn m_exp(x: f32) -> f32 {
    return f32(d_exp(f64(x)));
}

fn m_expm1(x: f32) -> f32 {
    return f32(d_expm1(f64(x)));
}

fn m_cosh(x: f32) -> f32 {
    return f32(d_cosh(f64(x)));
}

fn m_sinh(x: f32) -> f32 {
    return f32(d_sinh(f64(x)));
}

fn m_tanh(x: f32) -> f32 {
    return f32(d_tanh(f64(x)));
}

fn m_sin(x: f32) -> f32 {
    return f32(d_sin(f64(x)));
}

fn m_cos(x: f32) -> f32 {
    return f32(d_cos(f64(x)));
}

fn m_tan(x: f32) -> f32 {
    return f32(d_tan(f64(x)));
}

fn m_log(x: f32) -> f32 {
    return f32(d_log(f64(x)));
}

fn m_atan(x: f32) -> f32 {
    return f32(d_atan(f64(x)));
}

fn m_atan2(y: f32, x: f32) -> f32 {
    return f32(d_atan2(f64(y), f64(x)));
}

// The host makes single normals in double, then rounds: so does this.
fn m_normal(w: vec4<u32>) -> f32 {
    return f32(d_normal(w));
}

// Rounding the f64 square root to f32 gives the correctly rounded f32 one.
fn m_sqrt(x: f32) -> f32 {
    return f32(sqrt(f64(x)));
}
