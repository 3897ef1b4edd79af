//! Exact 64-bit integer arithmetic: int64/uint64 values do not fit a double, so their
//! operations run on i128 with MATLAB's saturation and round-half-away division.

use super::Bin;
use crate::values::class::Class;

/// `x / 2^k` rounded half away from zero.
fn shift_round(v: i128, k: u32) -> i128 {
    if k == 0 {
        return v;
    }
    if k >= 126 {
        return 0;
    }
    let a = v.unsigned_abs();
    let q = a >> k;
    let rem = a & ((1u128 << k) - 1);
    let q = if rem >= 1u128 << (k - 1) { q + 1 } else { q };
    if v < 0 { -(q as i128) } else { q as i128 }
}

/// `p op y` (or `y op p` when `int_left` is false) for a 64-bit integer p and a double y,
/// computed exactly from y's binary representation and rounded once. None when the double
/// is not finite or the exact value would not fit.
pub(super) fn mixed_int_op(op: Bin, p: i128, y: f64, int_left: bool, rc: Class) -> Option<i128> {
    if !y.is_finite() {
        return None;
    }
    let (lo, hi) = rc.int_range();
    if y == 0.0 {
        return match op {
            Bin::Add | Bin::Sub if int_left => Some(p),
            Bin::Sub => Some((-p).clamp(lo, hi)),
            Bin::Add => Some(p),
            Bin::Mul => Some(0),
            _ => None,
        };
    }
    // y = m * 2^e with m an integer below 2^53
    let bits = y.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = (bits & ((1u64 << 52) - 1)) as i128;
    let (mut m, mut e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), exp - 1075)
    };
    while m & 1 == 0 && e < 0 {
        m >>= 1;
        e += 1;
    }
    let m = if y < 0.0 { -m } else { m };
    if e >= 0 {
        return None; // an integer double: the exact integer path handles it
    }
    let k = (-e) as u32;
    let r = match op {
        Bin::Mul => shift_round(p.checked_mul(m)?, k),
        Bin::Add | Bin::Sub => {
            if k > 60 {
                // |y| < 2^-7: adding it cannot change the rounded result
                if int_left || op == Bin::Add { p } else { -p }
            } else {
                let scaled = p.checked_mul(1i128 << k)?;
                let v = match (op, int_left) {
                    (Bin::Add, _) => scaled + m,
                    (Bin::Sub, true) => scaled - m,
                    _ => m - scaled,
                };
                shift_round(v, k)
            }
        }
        Bin::Div if int_left && k <= 60 => {
            // p / (m 2^-k) = p 2^k / m, rounded half away from zero
            let num = p.checked_mul(1i128 << k)?;
            let (q, rem) = (num / m, num % m);
            if 2 * rem.abs() >= m.abs() {
                q + if (num < 0) == (m < 0) { 1 } else { -1 }
            } else {
                q
            }
        }
        _ => return None,
    };
    Some(r.clamp(lo, hi))
}

/// Exact integer arithmetic for int64/uint64 (saturating; division rounds half away).
pub(super) fn int_op(op: Bin, p: i128, q: i128, rc: Class) -> i128 {
    let (lo, hi) = rc.int_range();
    let r = match op {
        Bin::Add => p + q,
        Bin::Sub => p - q,
        Bin::Mul => p.saturating_mul(q),
        Bin::Div => {
            if q == 0 {
                if p == 0 {
                    0
                } else if p > 0 {
                    hi
                } else {
                    lo
                }
            } else {
                let (d, r) = (p / q, p % q);
                if 2 * r.abs() >= q.abs() {
                    d + if (p < 0) == (q < 0) { 1 } else { -1 }
                } else {
                    d
                }
            }
        }
        Bin::Max => p.max(q),
        Bin::Min => p.min(q),
        Bin::Mod => {
            if q == 0 {
                p
            } else {
                p.rem_euclid(q) + if q < 0 && p.rem_euclid(q) != 0 { q } else { 0 }
            }
        }
        Bin::Rem => {
            if q == 0 {
                p
            } else {
                p % q
            }
        }
        _ => 0,
    };
    r.clamp(lo, hi)
}
