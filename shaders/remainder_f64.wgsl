// MATLAB's mod and rem in double precision, from an exact fmod (the host's `%`), with the
// host's rules for zero and infinite divisors and for quotients within rounding of a whole
// number (src/values/ops/elementwise.rs), so both sides give the same bits.

// The binary exponent of a finite nonzero x (subnormals included).
fn exponent_of(x: f64) -> i32 {
    let b = bitcast<u64>(abs(x));
    if (b < 0x0010000000000000lu) {
        return i32(bitcast<u64>(abs(x) * 18014398509481984.0) >> 52u) - 1023 - 54;
    }
    return i32(b >> 52u) - 1023;
}

// fmod(x, y) for finite x and finite nonzero y, exactly: subtract from |x| the largest
// |y| 2^j not above it until less than |y| remains; each subtraction is exact (Sterbenz)
// and at least halves the remainder, so this takes at most the exponents' difference.
fn m_fmod(x: f64, y: f64) -> f64 {
    let ay = abs(y);
    var r = abs(x);
    let ey = exponent_of(ay);
    loop {
        if (r < ay) {
            break;
        }
        var t = ldexp(ay, exponent_of(r) - ey);
        if (t > r) {
            t = t * 0.5;
        }
        r = keep(r - t);
    }
    return select(r, -r, m_signbit(x));
}

// Rust's round (halves away from zero), for the quotient test.
fn round_away(q: f64) -> f64 {
    let t = trunc64(q);
    return select(t, t + sign(q), abs(q - t) >= 0.5);
}

// Whether x/y is within rounding of a nonzero whole number (and y is not whole).
fn near_whole_quotient(x: f64, y: f64) -> bool {
    if (y == trunc64(y)) {
        return false;
    }
    let q = x / y;
    let r = round_away(q);
    return r != 0.0 && abs((q - r) / r) < 2.220446049250313e-16;
}

fn m_rem(x: f64, y: f64) -> f64 {
    if (y == 0.0 || m_isinf(x) || m_isnan(x) || m_isnan(y)) {
        return m_nan();
    }
    if (m_isinf(y)) {
        return x;
    }
    if (near_whole_quotient(x, y)) {
        return select(0.0, bitcast<f64>(0x8000000000000000lu), m_signbit(x));
    }
    return m_fmod(x, y);
}

fn m_mod(x: f64, y: f64) -> f64 {
    if (y == 0.0) {
        return x;
    }
    if (m_isinf(x) || m_isnan(y) || m_isnan(x)) {
        return m_nan();
    }
    if (m_isinf(y)) {
        return select(y, x, x == 0.0 || (x < 0.0) == (y < 0.0));
    }
    if (near_whole_quotient(x, y)) {
        return 0.0;
    }
    let r = m_fmod(x, y);
    if (r != 0.0 && (r < 0.0) != (y < 0.0)) {
        return r + y;
    }
    return select(r, 0.0, r == 0.0);
}
