// Single sqrt through f64 (math_f32_via_f64.wgsl), correctly rounded.
fn m_sqrt(x: f32) -> f32 {
    return s_sqrt_wide(x);
}
