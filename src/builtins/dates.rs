//! Serial date numbers and date vectors: datenum datestr datevec now clock date (weekday,
//! eomday, calendar and the rest in `calendar`). The calendar arithmetic is in `crate::dates`.

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::dates::format::{DATESTR_FORMATS, datestr_text, datestr_tokens};
use crate::dates::{Kind, civil, parse, time_of};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::shape::{BroadcastIter, Shape};
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("datenum", 1, 6, 1, "datenum(V), datenum(Y,M,D,H,MI,S), datenum(text, format, pivot), datenum(t): serial date numbers (days from 0-Jan-0000).", datenum),
        b("datestr", 1, 3, 1, "datestr(D), datestr(D, format): dates as text (format codes 0-31 or symbols yyyy mmm dd HH:MM:SS FFF PM).", datestr),
        b("datevec", 1, 3, 6, "datevec(D), datevec(text, format), [y,m,d,h,mi,s] = datevec(...): date vectors.", datevec),
        b("now", 0, 0, 1, "now: the current local date and time as a serial date number.", now),
        b("clock", 0, 0, 1, "clock: [year month day hour minute seconds], local time now.", clock),
        b("date", 0, 0, 1, "date: today as 'dd-mmm-yyyy'.", date),
    ]
}

pub(super) fn nums(v: &Value, name: &str) -> MResult<Tensor> {
    if !v.is_numeric_like() || v.is_char() {
        return Err(bad_arg(name, "Expected numeric input."));
    }
    let t = v.tensor()?.into_owned();
    if t.is_complex() {
        return Err(bad_arg(name, "Expected real numeric input."));
    }
    Ok(t.cast(crate::values::class::Class::Double))
}

fn is_text_input(v: &Value) -> bool {
    v.is_char() || matches!(v, Value::Cell(_) | Value::Str(_))
}

/// A text format argument or a pivot year after text: (format, pivot).
fn text_options(name: &str, rest: &[Value]) -> MResult<(Option<String>, f64)> {
    let mut fmt = None;
    let mut pivot = parse::current_year() - 50.0;
    for v in rest {
        if v.is_text() {
            fmt = Some(text_arg(v, name)?);
        } else if v.is_numeric_like() && v.numel() == 1 {
            pivot = v.scalar_f64()?;
        } else if !(v.is_numeric_like() && v.is_empty()) {
            return Err(bad_arg(
                name,
                "Expected a format and a pivot year after the text.",
            ));
        }
    }
    Ok((fmt, pivot))
}

/// Date vectors of text (shape of the result, one vector per text).
fn parse_texts(
    name: &str,
    v: &Value,
    fmt: Option<&str>,
    pivot: f64,
) -> MResult<(Shape, Vec<[f64; 6]>)> {
    let (shape, texts) = crate::dates::array::texts_of(v)?;
    let mut out = Vec::with_capacity(texts.len());
    for s in &texts {
        let p = match fmt {
            Some(f) => parse::parse_datestr(s, f, pivot),
            None => parse::parse_auto(s, pivot),
        };
        match p {
            Some(p) => out.push(p.vec),
            None => {
                return Err(MError::new(
                    format!("MATLAB:{name}:ConvertDateString"),
                    match fmt {
                        Some(f) => format!(
                            "Unable to convert the text '{s}' to a date vector using the format '{f}'."
                        ),
                        None => format!(
                            "Unable to convert the text '{s}' to a date vector: its format is not recognised. Specify a format."
                        ),
                    },
                ));
            }
        }
    }
    Ok((shape, out))
}

/// Whether an m×3 or m×6 numeric array looks like date vectors rather than date numbers.
fn looks_like_datevecs(t: &Tensor) -> bool {
    let c = t.shape.cols();
    if t.shape.ndims() != 2 || !(c == 3 || c == 6) || t.numel() == 0 {
        return false;
    }
    let r = t.shape.rows();
    // months of 1-12 (or carried past them) and years that are not serial dates
    (0..r).all(|i| {
        let y = t.get_f64(i);
        let m = t.get_f64(i + r);
        y.abs() < 10_000.0 && m.is_finite() && m.fract() == 0.0
    })
}

pub(super) fn datevec_rows(t: &Tensor) -> Vec<[f64; 6]> {
    let (r, c) = (t.shape.rows(), t.shape.cols());
    (0..r)
        .map(|i| {
            let mut v = [0.0; 6];
            for (k, x) in v.iter_mut().enumerate().take(c.min(6)) {
                *x = t.get_f64(i + k * r);
            }
            v
        })
        .collect()
}

fn datenum(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if let Some(t) = time_of(&a[0]) {
        if t.kind != Kind::DateTime {
            return Err(bad_arg("datenum", "Expected a datetime array."));
        }
        return one(Tensor::f64(t.shape.clone(), t.datenums()));
    }
    if is_text_input(&a[0]) {
        let (fmt, pivot) = text_options("datenum", &a[1..])?;
        let (shape, vecs) = parse_texts("datenum", &a[0], fmt.as_deref(), pivot)?;
        let v = vecs
            .iter()
            .map(|v| civil::datenum(v[0], v[1], v[2], v[3], v[4], v[5]))
            .collect();
        return one(Tensor::f64(shape, v));
    }
    if a.len() == 1 {
        let t = nums(&a[0], "datenum")?;
        if looks_like_datevecs(&t) {
            let v: Vec<f64> = datevec_rows(&t)
                .iter()
                .map(|v| civil::datenum(v[0], v[1], v[2], v[3], v[4], v[5]))
                .collect();
            return one(Tensor::f64(Shape::col(v.len()), v));
        }
        // serial date numbers are returned as they are
        return one(t);
    }
    if a.len() == 2 {
        return Err(bad_arg(
            "datenum",
            "Expected datenum(Y, M, D) with at least three numeric arguments.",
        ));
    }
    let parts: Vec<Tensor> = a
        .iter()
        .map(|v| nums(v, "datenum"))
        .collect::<MResult<_>>()?;
    let (shape, vals) = broadcast_all(&parts)?;
    let v = vals
        .iter()
        .map(|c| {
            let g = |k: usize| c.get(k).copied().unwrap_or(0.0);
            civil::datenum(g(0), g(1), g(2), g(3), g(4), g(5))
        })
        .collect();
    one(Tensor::f64(shape, v))
}

/// Elementwise tuples of several arrays of one size (scalars expand).
pub fn broadcast_all(parts: &[Tensor]) -> MResult<(Shape, Vec<Vec<f64>>)> {
    let mut shape = Shape::scalar();
    for p in parts {
        shape = Shape::broadcast_checked(&shape, &p.shape)?;
    }
    let n = shape.numel();
    let mut out = vec![Vec::with_capacity(parts.len()); n];
    for p in parts {
        let vals = p.to_f64();
        for (k, (_, j)) in BroadcastIter::new(&shape, &shape, &p.shape).enumerate() {
            out[k].push(vals.get(j).copied().unwrap_or(f64::NAN));
        }
    }
    Ok((shape, out))
}

/// Date vectors of a datestr/datevec input: numbers, date vectors, text or datetimes.
fn vectors_of(
    name: &str,
    v: &Value,
    fmt: Option<&str>,
    pivot: f64,
) -> MResult<(Shape, Vec<[f64; 6]>)> {
    if let Some(t) = time_of(v) {
        if t.kind != Kind::DateTime {
            return Err(bad_arg(name, "Expected a datetime array."));
        }
        let vecs =
            t.ms.iter()
                .map(|&m| crate::dates::ms_to_components(m))
                .collect();
        return Ok((t.shape.clone(), vecs));
    }
    if is_text_input(v) {
        return parse_texts(name, v, fmt, pivot);
    }
    let t = nums(v, name)?;
    if name == "datestr" && looks_like_datevecs(&t) {
        let rows = datevec_rows(&t);
        // a date vector with values out of range is normalised through datenum
        let rows = rows
            .into_iter()
            .map(|v| {
                let limits = [f64::INFINITY, 12.0, 31.0, 23.0, 59.0, 60.0];
                let odd = v.iter().zip(limits).any(|(x, l)| *x > l || *x < 0.0)
                    || v[..5].iter().any(|x| x.fract() != 0.0)
                    || v[1] < 1.0
                    || v[2] < 1.0;
                if odd {
                    civil::datevec(civil::datenum(v[0], v[1], v[2], v[3], v[4], v[5]))
                } else {
                    v
                }
            })
            .collect::<Vec<_>>();
        return Ok((Shape::col(rows.len()), rows));
    }
    let vals = t.to_f64();
    Ok((
        t.shape.clone(),
        vals.iter().map(|&n| civil::datevec(n)).collect(),
    ))
}

pub(super) fn char_matrix(rows: &[String]) -> Value {
    let w = rows
        .iter()
        .map(|r| r.encode_utf16().count())
        .max()
        .unwrap_or(0);
    let n = rows.len();
    let mut data = vec![b' ' as u16; n * w];
    for (i, r) in rows.iter().enumerate() {
        for (j, c) in r.encode_utf16().enumerate() {
            data[i + j * n] = c;
        }
    }
    let shape = if n == 0 {
        Shape::matrix(0, 0)
    } else {
        Shape::matrix(n, w)
    };
    Value::from(Tensor::new(shape, Data::Char(data)))
}

fn datestr(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mut fmt_arg: Option<&Value> = None;
    let mut text_fmt: Option<String> = None;
    let mut pivot = parse::current_year() - 50.0;
    for v in &a[1..] {
        if v.is_text() && v.text().is_ok_and(|t| t.eq_ignore_ascii_case("local")) {
            continue;
        }
        if fmt_arg.is_none() {
            fmt_arg = Some(v);
        } else if v.is_numeric_like() && v.numel() == 1 {
            pivot = v.scalar_f64()?;
        }
    }
    let fmt: Option<String> = match fmt_arg {
        None => None,
        Some(v) if v.is_text() => Some(text_arg(v, "datestr")?),
        Some(v) if v.is_numeric_like() && v.is_empty() => None,
        Some(v) if v.is_numeric_like() => {
            let k = v.scalar_f64()?;
            if !(0.0..=31.0).contains(&k) || k.fract() != 0.0 {
                return Err(MError::new(
                    "MATLAB:datestr:DateNumber",
                    "The format number must be an integer from 0 to 31.",
                ));
            }
            Some(DATESTR_FORMATS[k as usize].to_string())
        }
        Some(_) => {
            return Err(bad_arg(
                "datestr",
                "The format must be text or a format number.",
            ));
        }
    };
    if is_text_input(&a[0]) {
        text_fmt = None;
    }
    let (_, vecs) = vectors_of("datestr", &a[0], text_fmt.as_deref(), pivot)?;
    if vecs.iter().any(|v| v.iter().any(|x| !x.is_finite())) {
        return Err(MError::new(
            "MATLAB:datestr:ConvertToDateNumber",
            "Date values must be finite.",
        ));
    }
    let vecs: Vec<[f64; 6]> = vecs
        .into_iter()
        .map(crate::dates::format::round_seconds)
        .collect();
    let fmt = fmt.unwrap_or_else(|| {
        let midnight = vecs
            .iter()
            .all(|v| v[3] == 0.0 && v[4] == 0.0 && v[5] == 0.0);
        DATESTR_FORMATS[if midnight { 1 } else { 0 }].to_string()
    });
    let toks = datestr_tokens(&fmt);
    let rows: Vec<String> = vecs.iter().map(|v| datestr_text(*v, &toks)).collect();
    if rows.len() == 1 {
        return one(Value::str(&rows[0]));
    }
    one(char_matrix(&rows))
}

fn datevec(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let (fmt, pivot) = if is_text_input(&a[0]) {
        text_options("datevec", &a[1..])?
    } else {
        (None, 0.0)
    };
    let (shape, vecs) = vectors_of("datevec", &a[0], fmt.as_deref(), pivot)?;
    if nargout <= 1 {
        let n = vecs.len();
        let mut data = vec![0.0; n * 6];
        for (i, v) in vecs.iter().enumerate() {
            for k in 0..6 {
                data[i + k * n] = v[k];
            }
        }
        return one(Tensor::f64(Shape::matrix(n, 6), data));
    }
    let shape = if is_text_input(&a[0]) {
        Shape::col(vecs.len())
    } else {
        shape
    };
    Ok((0..nargout.min(6))
        .map(|k| {
            Value::from(Tensor::f64(
                shape.clone(),
                vecs.iter().map(|v| v[k]).collect(),
            ))
        })
        .collect())
}

fn now(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    let v = civil::local_now();
    one(civil::datenum(v[0], v[1], v[2], v[3], v[4], v[5]))
}

fn clock(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::row(civil::local_now().to_vec()))
}

fn date(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    let v = civil::local_now();
    one(Value::str(&datestr_text(v, &datestr_tokens("dd-mmm-yyyy"))))
}

/// Serial date numbers of a weekday/calendar/addtodate input, with their shape.
pub(super) fn serials(name: &str, v: &Value) -> MResult<(Shape, Vec<f64>)> {
    if let Some(t) = time_of(v) {
        if t.kind == Kind::DateTime {
            return Ok((t.shape.clone(), t.datenums()));
        }
    }
    if is_text_input(v) {
        let (shape, vecs) = parse_texts(name, v, None, parse::current_year() - 50.0)?;
        let n = vecs
            .iter()
            .map(|v| civil::datenum(v[0], v[1], v[2], v[3], v[4], v[5]))
            .collect();
        return Ok((shape, n));
    }
    let t = nums(v, name)?;
    Ok((t.shape.clone(), t.to_f64().into_owned()))
}
