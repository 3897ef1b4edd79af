fn m_normal(w: vec4<u32>) -> f32 {
    return sqrt(-2.0 * log(f32(d_u53(w.x, w.y)))) * cos(6.2831855 * f32(d_u53(w.z, w.w)));
}
