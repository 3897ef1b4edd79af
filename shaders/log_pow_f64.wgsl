// log2, log10, log1p and x^y in double precision, from log(x) in double-double: the same
// reduction as m_log (log_reduce: x = 2^k (1 + f), s = f/(2 + f)), with s's rounding error
// and the series kept apart from 2s, so the logarithm is good to about 2^-68 relative.
// Powers of two and ten come out exact (log2(8) == 3, log10(1000) == 3), as floor(log10(x))
// needs.

// 1/ln 2 and 1/ln 10 in two parts.
const INVLN2_HI: f64 = 1.4426950408889634;
const INVLN2_LO: f64 = 2.0355273740931033e-17;
const INVLN10_HI: f64 = 0.4342944819032518;
const INVLN10_LO: f64 = 1.098319650216765e-17;

// log(x) as hi + lo, for finite x > 0.
fn log_dd(x: f64) -> vec2<f64> {
    let mk = log_reduce(x);
    let f = keep(mk.x - 1.0);
    // s = f / (2 + f) and its rounding error sl (the divisor is a two-sum). Each step of
    // the residual is kept: NVIDIA's compiler otherwise rearranged it, and sl came out
    // 2e-17 off (x.^700.3 was 232 ulp off on an H200; 0 pairs over 2 ulp with this).
    let d = two_sum(2.0, f);
    let s = keep(f / d.x);
    let p = two_prod(s, d.x);
    let n1 = keep(f - p.x);
    let n2 = keep(n1 - keep(p.y));
    let sl = keep(n2 - keep(s * keep(d.y))) / d.x;
    // log(1 + f) = 2 atanh(s) = 2 s + (2/3) s^3 + s z^2 r, z = s^2, r the rest of the
    // series; the s^3 term is formed in double-double (it is up to 1/100 of the result), so
    // the logarithm is good to about 2^-68 relative, enough for exp(y log x) near overflow.
    let zz = two_prod(s, s);
    let z = zz.x;
    let c = two_prod(s, z);
    let cube_lo = c.y + s * zz.y;
    let t = two_prod(0.6666666666666666, c.x);
    let t_lo = t.y + (0.6666666666666666 * cube_lo + 3.700743415417188e-17 * c.x);
    let r = 0.4 + z * (0.2857142857142857 + z * (0.2222222222222222
        + z * (0.18181818181818182 + z * (0.15384615384615385 + z * (0.13333333333333333
        + z * (0.11764705882352941 + z * (0.10526315789473684 + z * (0.09523809523809523
        + z * (0.08695652173913043 + z * 0.08)))))))));
    let dk = mk.y;
    let h = two_sum(dk * LN2_HI, 2.0 * s);
    let h2 = two_sum(h.x, t.x);
    let lo = h.y + h2.y + (dk * LN2_LO + (t_lo + (2.0 * sl * (1.0 + z) + s * z * z * r)));
    let hi = keep(h2.x + lo);
    return vec2<f64>(hi, lo - keep(hi - h2.x));
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

// (a.x + a.y) (b.x + b.y) as a double-double.
fn dd_mul(a: vec2<f64>, b: vec2<f64>) -> vec2<f64> {
    let p = two_prod(a.x, b.x);
    return two_sum(p.x, p.y + (a.x * b.y + a.y * b.x));
}

// x.^y as MATLAB computes it. A whole y up to 1024 multiplies in double-double (squaring
// and multiplying: about 2^-100 relative, so results that are representable come out
// exact, 2^10 == 1024 and (-2)^3 == -8), then one division for a negative y. Results
// outside the normal range, other y, and zero, infinite or NaN bases go through m_pow of
// |x|, negated for a negative base and an odd y. (A negative base with a fractional y is
// complex in MATLAB: the graph never sends one.)
fn m_power(x: f64, y: f64) -> f64 {
    let whole = y == trunc64(y);
    let odd = whole && abs(y) < 9007199254740992.0 && 0.5 * y != trunc64(0.5 * y);
    let negate = odd && m_signbit(x);
    if (whole && abs(y) <= 1024.0 && x != 0.0 && !m_isinf(x) && !m_isnan(x)) {
        var n = u32(abs(y));
        var base = vec2<f64>(abs(x), 0.0);
        var acc = vec2<f64>(1.0, 0.0);
        loop {
            if (n == 0u) {
                break;
            }
            if ((n & 1u) == 1u) {
                acc = dd_mul(acc, base);
            }
            n = n >> 1u;
            if (n > 0u) {
                base = dd_mul(base, base);
            }
        }
        var r = acc.x + acc.y;
        if (y < 0.0) {
            // 1/(hi + lo) with the quotient's residual added back.
            let q = 1.0 / acc.x;
            let e = two_prod(q, acc.x);
            r = q + q * ((1.0 - e.x - e.y) - q * acc.y);
        }
        let a = abs(r);
        if (a >= 2.2250738585072014e-308 && !m_isinf(r) && !m_isinf(acc.x)) {
            return select(r, -r, negate);
        }
    }
    let p = m_pow(abs(x), y);
    return select(p, -p, negate);
}

// x^y for x >= 0 (or -0) and any y: exp(y log x) with the product in double-double and
// exp's argument corrected to first order.
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
