//! Numbers as text: num2str int2str mat2str.

use super::{Builtin, b, bad_arg, one};
use crate::display::printf;
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("num2str", 1, 2, 1, "num2str(X), num2str(X, precision), num2str(X, format): numbers as text.", num2str),
        b("mat2str", 1, 2, 1, "mat2str(A, precision): MATLAB syntax that recreates A.", mat2str),
        b("int2str", 1, 1, 1, "int2str(X): rounded numbers as text.", int2str),
    ]
}

/// Rows of text printed with one format per row (the format repeated per column), trimmed
/// of the blank columns common to all rows, as num2str lays out a matrix.
fn rows_with_format(t: &Tensor, fmt: &str, repeat: bool) -> MResult<Vec<String>> {
    let (r, c) = (t.shape.rows(), t.shape.cols());
    let row_fmt = if repeat {
        format!("{}", fmt.repeat(c).trim_end())
    } else {
        fmt.to_string()
    };
    let mut rows = Vec::with_capacity(r);
    for i in 0..r {
        let vals: Vec<Value> = (0..c)
            .map(|j| match &t.data {
                Data::I64(v) => {
                    Value::from(Tensor::new(Shape::scalar(), Data::I64(vec![v[i + j * r]])))
                }
                Data::U64(v) => {
                    Value::from(Tensor::new(Shape::scalar(), Data::U64(vec![v[i + j * r]])))
                }
                _ => Value::Num(t.get_f64(i + j * r)),
            })
            .collect();
        rows.push(printf::sprintf(&row_fmt, &vals)?);
    }
    Ok(trim_common(rows))
}

/// Removes the leading blank columns common to all rows, and trailing blanks (strtrim of a
/// char matrix).
fn trim_common(rows: Vec<String>) -> Vec<String> {
    let rows: Vec<String> = rows.into_iter().map(|s| s.trim_end().to_string()).collect();
    let lead = rows
        .iter()
        .filter(|s| !s.is_empty())
        .map(|s| s.len() - s.trim_start().len())
        .min()
        .unwrap_or(0);
    rows.into_iter()
        .map(|s| s.get(lead..).unwrap_or("").to_string())
        .collect()
}

/// The format num2str picks for a real array: integers as `%Nd` sized by the largest
/// magnitude, other values as `%N.Pg` with at least 5 significant digits.
fn num2str_format(t: &Tensor) -> String {
    let x = t.to_f64();
    let finite: Vec<f64> = x.iter().copied().filter(|v| v.is_finite()).collect();
    let max = finite.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let mut ndgt = if max == 0.0 {
        0
    } else {
        max.log10().floor() as i64
    };
    let integral = finite.iter().all(|v| v.fract() == 0.0);
    if ndgt > 15 || !integral {
        ndgt = (ndgt + 5).clamp(5, 16);
        format!("%{}.{}g", ndgt + 7, ndgt)
    } else {
        ndgt += 3;
        if finite.len() < x.len() {
            ndgt = ndgt.max(5);
        }
        if t.class().is_float() {
            format!("%{ndgt}.0f")
        } else {
            format!("%{ndgt}d")
        }
    }
}

pub fn num2str_value(v: &Value, arg: Option<&Value>) -> MResult<Value> {
    if v.is_char() {
        return Ok(v.clone());
    }
    if !v.is_numeric_like() {
        return Err(MError::new(
            "MATLAB:num2str:nonNumericInput",
            "Input must be numeric, logical or char.",
        ));
    }
    let t = v.tensor()?;
    if t.numel() == 0 {
        // num2str([]) is the 0x0 ''
        return Ok(Value::from(
            crate::values::tensor::Tensor::char_row("").reshaped(Shape::empty()),
        ));
    }
    let t = if t.shape.ndims() > 2 {
        // N-d arrays print their pages side by side
        let (r, c) = (t.shape.rows(), t.shape.cols());
        Tensor::new(Shape::matrix(r, c), t.data.clone())
    } else {
        t.into_owned()
    };
    if t.is_complex() {
        let z = t.to_c64();
        let (r, c) = (t.shape.rows(), t.shape.cols());
        let prec = match arg {
            Some(a) if !a.is_text() => Some(a.scalar_f64()? as usize),
            _ => None,
        };
        let rows: Vec<String> = (0..r)
            .map(|i| {
                (0..c)
                    .map(|j| {
                        crate::interp::interrupt::poll();
                        let w = z[i + j * r];
                        let part = |x: f64| match prec {
                            Some(p) => printf::format_g(x, p, false),
                            None => scalar_text(x),
                        };
                        let im = part(w.im.abs());
                        format!(
                            "{}{}{im}i",
                            part(w.re),
                            if w.im < 0.0 || (w.im == 0.0 && w.im.is_sign_negative()) {
                                "-"
                            } else {
                                "+"
                            }
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("  ")
            })
            .collect();
        return Ok(super::types::char_matrix(&rows));
    }
    let rows = match arg {
        Some(a) if a.is_text() => rows_with_format(&t, &printf::unescape(&a.text()?), false)?,
        Some(a) => {
            let p = a.scalar_f64()?;
            if p < 0.0 || p.fract() != 0.0 {
                return Err(MError::new(
                    "MATLAB:num2str:invalidPrecision",
                    "Precision must be a scalar integer >= 0.",
                ));
            }
            let p = (p as usize).min(340);
            let fmt = if t.class().is_float() {
                format!("%{}.{}g", p + 7, p)
            } else {
                format!("%{p}d")
            };
            rows_with_format(&t, &fmt, true)?
        }
        None => {
            if t.numel() == 1 && t.class().is_int() {
                vec![match &t.data {
                    Data::I64(v) => v[0].to_string(),
                    Data::U64(v) => v[0].to_string(),
                    _ => format!("{}", t.get_f64(0) as i64),
                }]
            } else {
                rows_with_format(&t, &num2str_format(&t), true)?
            }
        }
    };
    if rows.len() == 1 {
        return Ok(Value::str(&rows[0]));
    }
    Ok(super::types::char_matrix(&rows))
}

/// num2str of one real number.
pub fn scalar_text(x: f64) -> String {
    if !x.is_finite() {
        return printf::format_g(x, 5, false);
    }
    if x.fract() == 0.0 && x.abs() < 1e15 {
        return format!("{}", x as i64);
    }
    let ndgt = if x == 0.0 {
        0
    } else {
        x.abs().log10().floor() as i64
    };
    let p = (ndgt + 5).clamp(5, 16) as usize;
    printf::format_g(x, p, false)
}

fn num2str(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(num2str_value(&a[0], a.get(1))?)
}

fn int2str(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let r = crate::values::ops::elementwise::unary(crate::values::ops::Un::Round, &a[0])?;
    // a large whole number prints every digit (num2str would switch to %g)
    if r.numel() == 1 && !r.is_char() {
        if let Ok(t) = r.tensor() {
            let x = t.get_f64(0);
            if !t.is_complex() && !t.class().is_int() && x.is_finite() && x.abs() >= 1e15 {
                return one(Value::str(&format!("{x:.0}")));
            }
        }
    }
    one(num2str_value(&r, None)?)
}

fn mat2str_num(x: f64, prec: usize) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 { "Inf".into() } else { "-Inf".into() }
    } else {
        printf::format_g(x, prec, false)
    }
}

fn mat2str(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (mut prec, mut with_class) = (15, false);
    for v in &a[1..] {
        if v.is_text() {
            if !v.text()?.eq_ignore_ascii_case("class") {
                return Err(bad_arg("mat2str", "The option must be 'class'."));
            }
            with_class = true;
        } else {
            prec = super::count_arg(v, "mat2str", "Precision")?.clamp(1, 800);
        }
    }
    let v = &a[0];
    if v.is_char() {
        let t = v.tensor()?;
        let rows = super::types::char_rows(&t);
        let q: Vec<String> = rows
            .iter()
            .map(|r| format!("'{}'", r.replace('\'', "''")))
            .collect();
        return one(Value::str(&if q.len() == 1 {
            q[0].clone()
        } else {
            format!("[{}]", q.join(";"))
        }));
    }
    let t = v.tensor()?;
    if t.shape.ndims() > 2 {
        return Err(bad_arg("mat2str", "Input matrix must be 2-D."));
    }
    let ints = if t.class().is_int() {
        t.data.as_i128()
    } else {
        None
    };
    let elem = |i: usize| -> String {
        crate::interp::interrupt::poll();
        if t.class() == Class::Logical {
            return if t.nonzero(i) {
                "true".into()
            } else {
                "false".into()
            };
        }
        if t.is_complex() {
            let z = t.get_c64(i);
            let im = mat2str_num(z.im, prec);
            let sign = if im.starts_with('-') { "" } else { "+" };
            return format!("{}{sign}{im}i", mat2str_num(z.re, prec));
        }
        if let Some(ints) = &ints {
            // integers print exactly, 64-bit ones too
            return ints[i].to_string();
        }
        mat2str_num(t.get_f64(i), prec)
    };
    let (r, c) = (t.shape.rows(), t.shape.cols());
    let text = if t.numel() == 1 {
        elem(0)
    } else {
        let rows: Vec<String> = (0..r)
            .map(|i| {
                (0..c)
                    .map(|j| elem(i + j * r))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        if t.numel() == 0 {
            format!("zeros({r},{c})")
        } else {
            format!("[{}]", rows.join(";"))
        }
    };
    // the class is named only when asked for ('class'), and never for double
    let text = if with_class && t.class() != Class::Double && t.numel() > 0 {
        format!("{}({text})", t.class().name())
    } else {
        text
    };
    one(Value::str(&text))
}
