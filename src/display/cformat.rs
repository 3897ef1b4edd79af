//! C's `%g` and `%e` number conversions, exactly as printf writes them (MATLAB's display and
//! sprintf both build on these).

/// C's `%g` with `prec` significant digits (trailing zeros removed unless `alt`).
pub fn format_g(x: f64, prec: usize, alt: bool) -> String {
    format_g_case(x, prec, alt, false)
}

pub(super) fn special(x: f64) -> Option<String> {
    if x.is_nan() {
        Some("NaN".into())
    } else if x.is_infinite() {
        Some(if x > 0.0 { "Inf".into() } else { "-Inf".into() })
    } else {
        None
    }
}

/// Precision beyond what a double can show is clamped (digits past ~767 are all zero).
pub(super) const MAX_PREC: usize = 800;
/// Field widths are clamped too (a wider field is never useful output).
pub(super) const MAX_WIDTH: usize = 1 << 20;

pub(super) fn format_g_case(x: f64, prec: usize, alt: bool, upper: bool) -> String {
    if let Some(s) = special(x) {
        return s;
    }
    let prec = prec.min(MAX_PREC);
    let p = if prec == 0 { 1 } else { prec };
    if x == 0.0 {
        let mut s = if x.is_sign_negative() {
            "-0".to_string()
        } else {
            "0".to_string()
        };
        if alt && p > 1 {
            s.push('.');
            s.push_str(&"0".repeat(p - 1));
        }
        return s;
    }
    // exponent after rounding to p significant digits
    let e_repr = format!("{:.*e}", p - 1, x);
    let exp: i32 = e_repr
        .rsplit('e')
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut s = if exp < -4 || exp >= p as i32 {
        format_e(x, p - 1, upper)
    } else {
        format!("{:.*}", (p as i32 - 1 - exp).max(0) as usize, x)
    };
    if !alt {
        s = strip_zeros(&s);
    }
    s
}

fn strip_zeros(s: &str) -> String {
    let (mant, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    if mant.contains('.') {
        let m = mant.trim_end_matches('0').trim_end_matches('.');
        format!("{m}{exp}")
    } else {
        s.to_string()
    }
}

/// C's `%e`: mantissa with `prec` decimals, exponent with sign and at least two digits.
pub fn format_e(x: f64, prec: usize, upper: bool) -> String {
    if let Some(s) = special(x) {
        return s;
    }
    let prec = prec.min(MAX_PREC);
    let r = format!("{:.*e}", prec, x);
    let (mant, exp) = r.split_once('e').unwrap_or((&r, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    let sign = if e < 0 { '-' } else { '+' };
    format!(
        "{mant}{}{sign}{:02}",
        if upper { 'E' } else { 'e' },
        e.abs()
    )
}
