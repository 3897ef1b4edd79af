// Single-precision functions where the device has no f64 (after single.wgsl): the drivers'
// f32 functions as they are.

fn m_exp(x: f32) -> f32 {
    return exp(x);
}

// expm1 without cancellation: (u - 1) x / log(u) with u = exp(x) (Kahan's trick).
fn m_expm1(x: f32) -> f32 {
    let u = exp(x);
    if (u == 1.0 || m_isnan(x)) {
        return x;
    }
    let um = u - 1.0;
    if (um == -1.0 || m_isinf(u)) {
        return um;
    }
    return um * x / log(u);
}

fn m_cosh(x: f32) -> f32 {
    return cosh(x);
}

fn m_sin(x: f32) -> f32 {
    return sin(x);
}

fn m_cos(x: f32) -> f32 {
    return cos(x);
}

fn m_tan(x: f32) -> f32 {
    return tan(x);
}

fn m_sinh(x: f32) -> f32 {
    return sinh(x);
}

fn m_tanh(x: f32) -> f32 {
    return tanh(x);
}

fn m_log(x: f32) -> f32 {
    return log(x);
}

// Normal values are computed in single here from the host's 53-bit uniforms (rounded to
// single), so they differ from the host's (computed in double, then rounded) by a few ulp.
fn m_u53_single(w0: u32, w1: u32) -> f32 {
    return f32(w0) * 2.3283064365386963e-10 + (f32(w1 >> 11u) + 0.5) * 1.1102230246251565e-16;
}

fn m_normal(w: vec4<u32>) -> f32 {
    let u1 = m_u53_single(w.x, w.y);
    let u2 = m_u53_single(w.z, w.w);
    return sqrt(-2.0 * log(u1)) * cos(6.2831855 * u2);
}

// atan and atan2 with IEEE's answers at infinities (drivers' may be NaN there).
fn m_atan(x: f32) -> f32 {
    let a = select(atan(x), sign(x) * 1.5707963267948966, m_isinf(x));
    return select(a, x, m_isnan(x));
}

fn m_atan2(y: f32, x: f32) -> f32 {
    let pi = 3.141592653589793;
    if (m_isnan(x) || m_isnan(y)) {
        return x + y;
    }
    if (m_isinf(y)) {
        let ang = select(0.5, select(0.25, 0.75, x < 0.0), m_isinf(x));
        return sign(y) * pi * ang;
    }
    if (m_isinf(x)) {
        // y / x is a zero with the right sign for x = +Inf; pi with y's sign for x = -Inf.
        return select(y / x, select(pi, -pi, y < 0.0 || (y == 0.0 && 1.0 / y < 0.0)), x < 0.0);
    }
    return atan2(y, x);
}

fn m_sqrt(x: f32) -> f32 {
    return sqrt(x);
}
