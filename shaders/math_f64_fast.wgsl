// Speculative forms of the double sine, cosine and exponential, for reductions that fold a
// thread's values with them first and again with the general functions when FAST_OK has
// turned false (src/codegen/vector.rs; math_f32_fast.wgsl has the singles'). No branch:
// each returns what the general function does wherever FAST_OK stays true, and clears it
// where the general function would take another path (NaN, infinities, |x| >= 1e5, x within
// 1e-9 of a multiple of pi/2; exp past +-708).
var<private> FAST_OK: bool;

fn f_sin_cos_fast(x: f64, offset: u32, tiny_value: f64) -> f64 {
    let ax = abs(x);
    let tiny = ax < 7.450580596923828e-09;
    let near = sin_cos_near(x, offset);
    FAST_OK = FAST_OK && (tiny || ax < 100000.0 && near.y == 1.0);
    return select(near.x, tiny_value, tiny);
}

fn m_sin_fast(x: f64) -> f64 {
    return f_sin_cos_fast(x, 0u, x);
}

fn m_cos_fast(x: f64) -> f64 {
    return f_sin_cos_fast(x, 1u, f64(1.0));
}

fn m_exp_fast(x: f64) -> f64 {
    FAST_OK = FAST_OK && abs(x) < 708.0;
    return exp_of_finite(x);
}
