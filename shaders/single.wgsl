// What every single-precision kernel has, whichever functions it uses (math_f32.wgsl or
// math_f32_exact.wgsl): NaN and infinity read from the bits, since drivers may fold x != x,
// and the host's random singles (24 bits centred in their interval).

fn m_isnan(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u;
}

fn m_isinf(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7fffffffu) == 0x7f800000u;
}

fn m_uniform(w: vec4<u32>) -> f32 {
    return (f32(w.x >> 8u) + 0.5) * 5.9604644775390625e-08;
}
