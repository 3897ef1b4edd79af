fn m_normal(w: vec4<u32>) -> f32 {
    return f32(d_u53(w.x, w.y)) - f32(d_u53(w.z, w.w));
}
