// log2, log10, log1p and x^y in double precision, from log(x) in double-double: the same
// reduction as m_log (x = 2^k (1 + f), s = f/(2 + f)), with s's rounding error and the
// series kept apart from 2s, so the logarithm is good to about 2^-60 relative. Powers of
// two and ten come out exact (log2(8) == 3, log10(1000) == 3), as floor(log10(x)) needs.

// 1/ln 2 and 1/ln 10 in two parts.
const INVLN2_HI: f64 = 1.4426950408889634;
const INVLN2_LO: f64 = 2.0355273740931033e-17;
const INVLN10_HI: f64 = 0.4342944819032518;
const INVLN10_LO: f64 = 1.098319650216765e-17;

// log(x) as hi + lo, for finite x > 0.
fn log_dd(x: f64) -> vec2<f64> {
    var bits = bitcast<u64>(x);
    var k = 0;
    if (bits < 0x0010000000000000lu) {
        bits = bitcast<u64>(x * 18014398509481984.0);
        k = -54;
    }
    k = k + i32(bits >> 52u) - 1023;
    var m = bitcast<f64>((bits & 0x000ffffffffffffflu) | 0x3ff0000000000000lu);
    if (m > 1.4142135623730951) {
        m = m * 0.5;
        k = k + 1;
    }
    let f = m - 1.0;
    // s = f / (2 + f) and its rounding error sl (the divisor is a two-sum).
    let d = two_sum(2.0, f);
    let s = f / d.x;
    let p = two_prod(s, d.x);
    let sl = (((f - p.x) - p.y) - s * d.y) / d.x;
    // log(1 + f) = 2 atanh(s) = 2 s + s r, r the series in z = s^2.
    let z = s * s;
    let r = z * (0.6666666666666666 + z * (0.4 + z * (0.2857142857142857 + z * (0.2222222222222222
        + z * (0.18181818181818182 + z * (0.15384615384615385 + z * (0.13333333333333333
        + z * (0.11764705882352941 + z * (0.10526315789473684 + z * (0.09523809523809523
        + z * (0.08695652173913043 + z * 0.08)))))))))));
    let dk = f64(k);
    let h = two_sum(dk * LN2_HI, 2.0 * s);
    let lo = h.y + (dk * LN2_LO + (2.0 * sl * (1.0 + z) + s * r));
    let hi = keep(h.x + lo);
    return vec2<f64>(hi, lo - keep(hi - h.x));
}

// The special values log2, log10 and log share; NaN when x is not one of them.
fn log_special(x: f64) -> f64 {
    if (m_isnan(x) || m_isinf(x) && x > 0.0) {
        return x;
    }
    if (x == 0.0) {
        return bitcast<f64>(0xfff0000000000000lu);
    }
    return m_nan();
}

// (hi + lo) * (c_hi + c_lo), rounded once at the end.
fn dd_scale(l: vec2<f64>, c_hi: f64, c_lo: f64) -> f64 {
    let p = two_prod(l.x, c_hi);
    return p.x + (p.y + (l.x * c_lo + l.y * c_hi));
}

fn m_log2(x: f64) -> f64 {
    if (!(x > 0.0) || m_isinf(x)) {
        return log_special(x);
    }
    return dd_scale(log_dd(x), INVLN2_HI, INVLN2_LO);
}

fn m_log10(x: f64) -> f64 {
    if (!(x > 0.0) || m_isinf(x)) {
        return log_special(x);
    }
    return dd_scale(log_dd(x), INVLN10_HI, INVLN10_LO);
}

// log1p: u + c == 1 + x exactly; log(1 + x) = log(u) + c/u to first order (c/u < 2^-52).
fn m_log1p(x: f64) -> f64 {
    if (m_isnan(x) || m_isinf(x) && x > 0.0) {
        return x;
    }
    if (x == -1.0) {
        return bitcast<f64>(0xfff0000000000000lu);
    }
    if (x < -1.0) {
        return m_nan();
    }
    if (abs(x) < 1.1102230246251565e-16) {
        return x;
    }
    let u = two_sum(1.0, x);
    return m_log(u.x) + u.y / u.x;
}

// x^y for x >= 0 (or -0) and any y: exp(y log x) with the product in double-double and
// exp's argument corrected to first order. (m_power in common.wgsl takes small integer
// exponents by repeated squaring first; negative bases with other exponents are complex
// in MATLAB, so the graph never sends them.)
fn m_pow(x: f64, y: f64) -> f64 {
    if (x == 1.0 || y == 0.0) {
        return 1.0;
    }
    if (m_isnan(x) || m_isnan(y)) {
        return x + y;
    }
    let inf = bitcast<f64>(0x7ff0000000000000lu);
    if (m_isinf(y)) {
        return select(select(inf, 0.0, y > 0.0), select(0.0, inf, y > 0.0), x > 1.0);
    }
    if (x == 0.0) {
        return select(inf, 0.0, y > 0.0);
    }
    if (m_isinf(x)) {
        return select(0.0, inf, y > 0.0);
    }
    let l = log_dd(x);
    let p = two_prod(y, l.x);
    let a = two_sum(p.x, p.y + y * l.y);
    let t = a.x;
    let tl = a.y;
    if (t > 709.782712893384) {
        return inf;
    }
    if (t < -745.1332191019412) {
        return 0.0;
    }
    let e = m_exp(t);
    return e + e * tl;
}
