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

fn m_log2(x: f32) -> f32 {
    return log2(x);
}

fn m_log10(x: f32) -> f32 {
    return log2(x) * 0.30102999566398120;
}

// log1p without cancellation: log(u) x / (u - 1) with u = 1 + x (Goldberg's trick).
fn m_log1p(x: f32) -> f32 {
    let u = 1.0 + x;
    if (u == 1.0 || m_isnan(x) || m_isinf(x)) {
        return x;
    }
    return log(u) * x / (u - 1.0);
}

// x.^y with IEEE's special cases (drivers compute exp2(y log2 x), so of |x|, negated for
// a negative base and an odd integer y).
fn m_power(x: f32, y: f32) -> f32 {
    if (x == 1.0 || y == 0.0) {
        return 1.0;
    }
    let odd = y == trunc(y) && abs(y) < 16777216.0 && 0.5 * y != trunc(0.5 * y);
    let p = pow(abs(x), y);
    return select(p, -p, odd && x < 0.0);
}

// Exact fmod, as in remainder_f64.wgsl: subtract the largest |y| 2^j not above the rest.
fn m_fmod(x: f32, y: f32) -> f32 {
    let ay = abs(y);
    var r = abs(x);
    let ey = frexp(ay).exp;
    loop {
        if (r < ay) {
            break;
        }
        var t = ldexp(ay, frexp(r).exp - ey);
        if (t > r) {
            t = t * 0.5;
        }
        r = r - t;
    }
    return select(r, -r, x < 0.0 || (x == 0.0 && 1.0 / x < 0.0));
}

// mod and rem with the host's rules (src/values/ops/elementwise.rs), in single here.
fn m_rem(x: f32, y: f32) -> f32 {
    if (y == 0.0 || m_isinf(x) || m_isnan(x) || m_isnan(y)) {
        return bitcast<f32>(0x7fc00000u);
    }
    if (m_isinf(y)) {
        return x;
    }
    return m_fmod(x, y);
}

fn m_mod(x: f32, y: f32) -> f32 {
    if (y == 0.0) {
        return x;
    }
    if (m_isinf(x) || m_isnan(y) || m_isnan(x)) {
        return bitcast<f32>(0x7fc00000u);
    }
    if (m_isinf(y)) {
        return select(y, x, x == 0.0 || (x < 0.0) == (y < 0.0));
    }
    let r = m_fmod(x, y);
    if (r != 0.0 && (r < 0.0) != (y < 0.0)) {
        return r + y;
    }
    return select(r, 0.0, r == 0.0);
}
