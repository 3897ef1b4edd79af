//! Numeric display: the field widths, decimals, common scale factors and column blocks of
//! MATLAB's Command Window (`../design/DISPLAY.md` in the shared notes has the sourced rules).

use super::{Format, NumFormat};
use num_complex::Complex64;

fn special(x: f64) -> Option<&'static str> {
    if x.is_nan() {
        Some("NaN")
    } else if x == f64::INFINITY {
        Some("Inf")
    } else if x == f64::NEG_INFINITY {
        Some("-Inf")
    } else {
        None
    }
}

fn e_text(x: f64, decimals: usize) -> String {
    super::printf::format_e(x, decimals, false)
}

fn int_text(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    if x.abs() < 1e18 {
        format!("{}", x as i64)
    } else {
        format!("{x:.0}")
    }
}

fn rjust(s: &str, w: usize) -> String {
    let n = s.chars().count();
    if n >= w {
        s.to_string()
    } else {
        format!("{}{s}", " ".repeat(w - n))
    }
}

/// Integer-valued doubles print as integers below this magnitude.
const INT_LIMIT: f64 = 1e9;

/// The text of one real double/single scalar, with its leading spaces (the display body).
pub fn real_scalar(x: f64, fmt: &Format, single: bool) -> String {
    if let Some(s) = special(x) {
        return rjust(s, 6);
    }
    let integral = x.fract() == 0.0;
    let a = x.abs();
    match fmt.num {
        NumFormat::Short | NumFormat::Long | NumFormat::ShortG | NumFormat::LongG
            if integral && a < INT_LIMIT =>
        {
            rjust(&int_text(x), if a >= 1000.0 { 12 } else { 6 })
        }
        NumFormat::Short => {
            if (0.001..1000.0).contains(&a) {
                rjust(&format!("{x:.4}"), 10)
            } else {
                rjust(&e_text(x, 4), 13)
            }
        }
        NumFormat::Long => {
            let d = if single { 7 } else { 15 };
            if (0.001..100.0).contains(&a) {
                rjust(&format!("{x:.d$}"), if single { 12 } else { 20 })
            } else {
                rjust(&e_text(x, d), if single { 17 } else { 26 })
            }
        }
        NumFormat::ShortE => rjust(&e_text(x, 4), 13),
        NumFormat::LongE => rjust(
            &e_text(x, if single { 7 } else { 15 }),
            if single { 17 } else { 26 },
        ),
        NumFormat::ShortG => rjust(&super::printf::format_g(x, 5, false), 13),
        NumFormat::LongG => rjust(
            &super::printf::format_g(x, if single { 7 } else { 15 }, false),
            26,
        ),
        NumFormat::Bank => rjust(&format!("{x:.2}"), 14),
        NumFormat::Rat => rat_field(x),
        NumFormat::Hex => format!("   {}", hex_text(x, single)),
        NumFormat::Plus => plus_text(x).to_string(),
    }
}

fn plus_text(x: f64) -> &'static str {
    if x > 0.0 {
        "+"
    } else if x < 0.0 {
        "-"
    } else {
        " "
    }
}

fn hex_text(x: f64, single: bool) -> String {
    if single {
        format!("{:08x}", (x as f32).to_bits())
    } else {
        format!("{:016x}", x.to_bits())
    }
}

/// Continued-fraction approximation as `format rat` prints it (within 1e-6 relative).
pub fn rat_text(x: f64) -> String {
    if let Some(s) = special(x) {
        return s.to_string();
    }
    if x.fract() == 0.0 {
        return int_text(x);
    }
    let tol = 1e-6 * x.abs();
    let (mut n0, mut d0, mut n1, mut d1) = (1.0f64, 0.0f64, x.floor(), 1.0f64);
    let mut frac = x - x.floor();
    for _ in 0..20 {
        if (n1 / d1 - x).abs() <= tol || frac == 0.0 {
            break;
        }
        let inv = 1.0 / frac;
        let a = inv.floor();
        frac = inv - a;
        let (n2, d2) = (a * n1 + n0, a * d1 + d0);
        n0 = n1;
        d0 = d1;
        n1 = n2;
        d1 = d2;
    }
    if d1 < 0.0 {
        n1 = -n1;
        d1 = -d1;
    }
    if d1 == 1.0 {
        int_text(n1)
    } else {
        format!("{}/{}", int_text(n1), int_text(d1))
    }
}

/// A `format rat` field: 15 wide, the `/` in column 9.
fn rat_field(x: f64) -> String {
    let t = rat_text(x);
    match t.split_once('/') {
        Some((n, d)) => format!("{}/{:<6}", rjust(n, 8), d),
        None => format!("{}{}", rjust(&t, 8), " ".repeat(7)),
    }
}

/// Formatted elements of a real page plus the common scale-factor line, if any.
pub struct RealLayout {
    pub scale: Option<String>,
    pub width: usize,
    pub cells: Vec<String>,
}

/// Lays out a real matrix (column-major values) for display.
pub fn real_layout(vals: &[f64], fmt: &Format, single: bool) -> RealLayout {
    let finite: Vec<f64> = vals.iter().copied().filter(|v| v.is_finite()).collect();
    let all_int = finite.iter().all(|v| v.fract() == 0.0);
    let max = finite.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    // each cell looks at Ctrl-C now and then (x of 3e6 elements is seconds of text)
    let cell = |s: String, w: usize| {
        crate::interp::interrupt::poll();
        rjust(&s, w)
    };
    let (decimals, fixed_w) = match fmt.num {
        NumFormat::Long => (if single { 7 } else { 15 }, if single { 12 } else { 20 }),
        _ => (4, 10),
    };
    match fmt.num {
        NumFormat::Short | NumFormat::Long | NumFormat::ShortG | NumFormat::LongG
            if all_int && max < INT_LIMIT =>
        {
            let w = if max >= 1000.0 { 12 } else { 6 };
            let w = w.max(
                vals.iter()
                    .map(|v| int_text(*v).len() + 2)
                    .max()
                    .unwrap_or(0),
            );
            RealLayout {
                scale: None,
                width: w,
                cells: vals
                    .iter()
                    .map(|&v| {
                        cell(
                            special(v).map(String::from).unwrap_or_else(|| int_text(v)),
                            w,
                        )
                    })
                    .collect(),
            }
        }
        NumFormat::Short | NumFormat::Long => {
            let upper = if fmt.num == NumFormat::Long {
                100.0
            } else {
                1000.0
            };
            let scale_exp = if max == 0.0 || (0.001..upper).contains(&max) {
                None
            } else if max >= upper {
                Some(max.log10().floor() as i32)
            } else {
                Some(max.log10().floor() as i32 + 1)
            };
            let f = 10f64.powi(scale_exp.unwrap_or(0));
            let cells = vals
                .iter()
                .map(|&v| {
                    let s = match special(v) {
                        Some(s) => s.to_string(),
                        None if v == 0.0 => "0".to_string(),
                        None => format!("{:.*}", decimals, v / f),
                    };
                    cell(s, fixed_w)
                })
                .collect();
            RealLayout {
                scale: scale_exp
                    .map(|e| format!("   1.0e{}{:02} *", if e < 0 { '-' } else { '+' }, e.abs())),
                width: fixed_w,
                cells,
            }
        }
        NumFormat::ShortG | NumFormat::LongG => {
            let (p, w) = if fmt.num == NumFormat::ShortG {
                (5, 13)
            } else {
                (if single { 7 } else { 15 }, 26)
            };
            RealLayout {
                scale: None,
                width: w,
                cells: vals
                    .iter()
                    .map(|&v| {
                        cell(
                            if v == 0.0 {
                                "0".into()
                            } else {
                                super::printf::format_g(v, p, false)
                            },
                            w,
                        )
                    })
                    .collect(),
            }
        }
        NumFormat::ShortE | NumFormat::LongE => {
            let (d, w) = if fmt.num == NumFormat::ShortE {
                (4, 13)
            } else {
                (15, 26)
            };
            RealLayout {
                scale: None,
                width: w,
                cells: vals
                    .iter()
                    .map(|&v| cell(if v == 0.0 { "0".into() } else { e_text(v, d) }, w))
                    .collect(),
            }
        }
        NumFormat::Bank => RealLayout {
            scale: None,
            width: 14,
            cells: vals.iter().map(|&v| cell(format!("{v:.2}"), 14)).collect(),
        },
        NumFormat::Rat => RealLayout {
            scale: None,
            width: 15,
            cells: vals.iter().map(|&v| rat_field(v)).collect(),
        },
        NumFormat::Hex => {
            let w = if single { 11 } else { 19 };
            RealLayout {
                scale: None,
                width: w,
                cells: vals.iter().map(|&v| cell(hex_text(v, single), w)).collect(),
            }
        }
        NumFormat::Plus => RealLayout {
            scale: None,
            width: 1,
            cells: vals.iter().map(|&v| plus_text(v).to_string()).collect(),
        },
    }
}

/// `re ± imi` parts for complex display: the real text, the sign, the imaginary magnitude.
fn complex_parts(
    z: Complex64,
    decimals: usize,
    scale: f64,
    e_form: bool,
) -> (String, char, String) {
    let part = |x: f64| -> String {
        match special(x) {
            Some(s) => s.to_string(),
            None if e_form => e_text(x, decimals),
            None => format!("{:.*}", decimals, x / scale),
        }
    };
    let sign = if z.im < 0.0 || (z.im == 0.0 && z.im.is_sign_negative()) {
        '-'
    } else {
        '+'
    };
    (part(z.re), sign, part(z.im.abs()))
}

/// A complex scalar as displayed (with leading spaces).
pub fn complex_scalar(z: Complex64, fmt: &Format) -> String {
    let decimals = if fmt.num == NumFormat::Long { 15 } else { 4 };
    let m = z.re.abs().max(z.im.abs());
    let e_form = m.is_finite() && (m >= 100.0 || (m < 0.001 && m > 0.0))
        || matches!(fmt.num, NumFormat::ShortE | NumFormat::LongE);
    let (re, sign, im) = complex_parts(z, decimals, 1.0, e_form);
    let rw = if e_form {
        re.len() + 3
    } else {
        (re.len() + 2).max(decimals + 5)
    };
    let iw = if e_form {
        im.len()
    } else {
        im.len().max(decimals + 3)
    };
    format!("{} {sign}{}i", rjust(&re, rw), rjust(&im, iw))
}

/// The compact text of a complex number (for cells, structs, `num2str`).
pub fn complex_text(z: Complex64) -> String {
    let (re, sign, im) = complex_parts(z, 4, 1.0, false);
    format!("{re} {sign} {im}i")
}

pub struct ComplexLayout {
    pub scale: Option<String>,
    pub width: usize,
    pub cells: Vec<String>,
}

pub fn complex_layout(vals: &[Complex64], fmt: &Format) -> ComplexLayout {
    let decimals = if fmt.num == NumFormat::Long { 15 } else { 4 };
    let max = vals
        .iter()
        .flat_map(|z| [z.re, z.im])
        .filter(|v| v.is_finite())
        .fold(0.0f64, |m, v| m.max(v.abs()));
    let scale_exp = if max == 0.0 || (0.001..100.0).contains(&max) {
        None
    } else if max >= 100.0 {
        Some(max.log10().floor() as i32)
    } else {
        Some(max.log10().floor() as i32 + 1)
    };
    let f = 10f64.powi(scale_exp.unwrap_or(0));
    let parts: Vec<(String, char, String)> = vals
        .iter()
        .map(|&z| complex_parts(z, decimals, f, false))
        .collect();
    let rw = parts
        .iter()
        .map(|p| p.0.len() + 2)
        .max()
        .unwrap_or(0)
        .max(decimals + 5);
    let iw = parts
        .iter()
        .map(|p| p.2.len())
        .max()
        .unwrap_or(0)
        .max(decimals + 3);
    let cells: Vec<String> = parts
        .iter()
        .map(|(r, s, i)| format!("{} {s}{}i", rjust(r, rw), rjust(i, iw)))
        .collect();
    ComplexLayout {
        scale: scale_exp
            .map(|e| format!("   1.0e{}{:02} *", if e < 0 { '-' } else { '+' }, e.abs())),
        width: rw + iw + 3,
        cells,
    }
}

/// Rows of a page, split into column blocks that fit the width, with MATLAB's
/// `Columns A through B` headers.
pub fn column_blocks(
    cells: &[String],
    rows: usize,
    cols: usize,
    width: usize,
    term_width: usize,
    compact: bool,
) -> Vec<String> {
    let per = if width * cols <= term_width {
        cols.max(1)
    } else {
        (term_width / width.max(1)).max(1)
    };
    let mut out = Vec::new();
    let blocks = cols.div_ceil(per).max(1);
    for b in 0..blocks {
        let c0 = b * per;
        let c1 = ((b + 1) * per).min(cols);
        if blocks > 1 {
            if b > 0 && !compact {
                out.push(String::new());
            }
            out.push(if c1 - c0 == 1 {
                format!("  Column {}", c0 + 1)
            } else {
                format!("  Columns {} through {}", c0 + 1, c1)
            });
            if !compact {
                out.push(String::new());
            }
        }
        for r in 0..rows {
            crate::interp::interrupt::poll();
            let mut line = String::new();
            for c in c0..c1 {
                line.push_str(&cells[r + c * rows]);
            }
            out.push(line);
        }
    }
    out
}
