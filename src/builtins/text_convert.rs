//! Text to numbers and back: str2double, str2num, dec2bin/hex and back, string construction, compose, character predicates.

use super::strings::texts;
use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::values::containers::StrArray;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use num_complex::Complex64;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("str2num", 1, 1, 2, "str2num(text): evaluate text as a numeric expression.", str2num),
        b("str2double", 1, 1, 1, "str2double(text): text to a double (NaN when it is not a number).", str2double),
        b("isspace", 1, 1, 1, "isspace(S): true for whitespace characters.", isspace),
        b("isletter", 1, 1, 1, "isletter(S): true for letters.", isletter),
        b("isstrprop", 2, 2, 1, "isstrprop(S, category): character categories ('alpha', 'digit', 'alphanum', 'upper', 'lower', 'wspace', 'punct').", isstrprop),
        b("iscellstr", 1, 1, 1, "iscellstr(C): true for a cell array of character vectors.", iscellstr),
        b("string", 0, 1, 1, "string(X): convert to a string array.", string),
        b("strings", 0, -1, 1, "strings(m, n): a string array of empty strings.", strings),
        b("dec2bin", 1, 2, 1, "dec2bin(d, n): binary text of nonnegative integers.", dec2bin),
        b("bin2dec", 1, 1, 1, "bin2dec(text): the integer a binary text represents.", bin2dec),
        b("dec2hex", 1, 2, 1, "dec2hex(d, n): hexadecimal text of nonnegative integers.", dec2hex),
        b("hex2dec", 1, 1, 1, "hex2dec(text): the integer a hexadecimal text represents.", hex2dec),
        b("compose", 1, -1, 1, "compose(format, A, ...): formatted text as a string array, one element per data row.", compose),
    ]
}

/// Parses a number as str2double does (NaN when the text is not a number).
pub fn parse_double(s: &str) -> f64 {
    let t = s.trim().replace(',', "");
    let lower = t.to_lowercase();
    match lower.as_str() {
        "inf" | "+inf" => return f64::INFINITY,
        "-inf" => return f64::NEG_INFINITY,
        "nan" | "+nan" | "-nan" => return f64::NAN,
        _ => {}
    }
    if t.is_empty()
        || t.contains(|c: char| c.is_ascii_alphabetic() && !matches!(c, 'e' | 'E' | 'd' | 'D'))
    {
        return f64::NAN;
    }
    t.replace(['d', 'D'], "e").parse().unwrap_or(f64::NAN)
}

/// str2double of one text: real numbers, or complex ones like `1+2i`, `-3.5e2j`, `2i`.
pub fn parse_complex(s: &str) -> Complex64 {
    // spaces may surround the sign between the parts (`1 + 2i`), nowhere else (`1 2` is NaN)
    let chars: Vec<char> = s.trim().chars().filter(|c| *c != ',').collect();
    let mut t = String::with_capacity(chars.len());
    for (k, &c) in chars.iter().enumerate() {
        if c.is_whitespace() {
            let prev = chars[..k].iter().rev().find(|c| !c.is_whitespace());
            let next = chars[k + 1..].iter().find(|c| !c.is_whitespace());
            let by_sign = |c: Option<&char>| matches!(c, Some('+' | '-'));
            if !(by_sign(prev) || by_sign(next)) {
                return Complex64::new(f64::NAN, 0.0);
            }
            continue;
        }
        t.push(c);
    }
    let re = parse_double(&t);
    if !re.is_nan() || t.eq_ignore_ascii_case("nan") {
        return Complex64::new(re, 0.0);
    }
    let nan = Complex64::new(f64::NAN, 0.0);
    let Some(body) = t.strip_suffix(['i', 'j']) else {
        return nan;
    };
    // split before the sign that starts the imaginary part (not one after an exponent)
    let b = body.as_bytes();
    let split = (1..b.len())
        .rev()
        .find(|&k| matches!(b[k], b'+' | b'-') && !matches!(b[k - 1], b'e' | b'E' | b'd' | b'D'));
    let (re_text, im_text) = match split {
        Some(k) => (&body[..k], &body[k..]),
        None => ("0", body),
    };
    let im = match im_text {
        "" | "+" => 1.0,
        "-" => -1.0,
        x => parse_double(x),
    };
    let re = parse_double(re_text);
    if re.is_nan() || im.is_nan() {
        return nan;
    }
    Complex64::new(re, im)
}

fn complex_or_real(shape: Shape, vals: Vec<Complex64>) -> Value {
    if vals.iter().any(|z| z.im != 0.0) {
        Value::from(Tensor::new(shape, Data::C64(vals)))
    } else {
        Value::from(Tensor::f64(shape, vals.iter().map(|z| z.re).collect()))
    }
}

fn str2double(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let nan = Complex64::new(f64::NAN, 0.0);
    match &a[0] {
        Value::Cell(c) => one(complex_or_real(
            c.shape.clone(),
            c.data
                .iter()
                .map(|e| {
                    crate::interp::interrupt::poll();
                    e
                })
                .map(|e| match e {
                    e if e.is_char() && e.shape().rows() <= 1 || e.is_string() => {
                        e.text().map(|s| parse_complex(&s)).unwrap_or(nan)
                    }
                    _ => nan,
                })
                .collect(),
        )),
        Value::Str(s) => one(complex_or_real(
            s.shape.clone(),
            s.data
                .iter()
                .map(|x| {
                    crate::interp::interrupt::poll();
                    parse_complex(x)
                })
                .collect(),
        )),
        v if v.is_char() => {
            let t = v.tensor()?;
            if t.shape.rows() > 1 {
                let rows: Vec<Complex64> = super::types::char_rows(&t)
                    .iter()
                    .map(|r| parse_complex(r))
                    .collect();
                return one(complex_or_real(Shape::col(rows.len()), rows));
            }
            one(complex_or_real(
                Shape::scalar(),
                vec![parse_complex(&t.to_text())],
            ))
        }
        _ => one(Value::Num(f64::NAN)),
    }
}

fn str2num(interp: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let s = text_arg(&a[0], "str2num")?;
    let code = format!("str2num_result_ = [{s}];");
    let mut scratch = Interp::new();
    scratch.format = interp.format;
    let ok = scratch.run_str(&code).is_ok();
    let v = if ok {
        scratch.var("str2num_result_").unwrap_or_else(Value::empty)
    } else {
        Value::empty()
    };
    let mut out = vec![v];
    if nargout > 1 {
        out.push(Value::Bool(ok));
    }
    Ok(out)
}

fn char_pred(a: &A, f: &dyn Fn(char) -> bool) -> MResult<Value> {
    match &a[0] {
        v if v.is_char() => {
            let t = v.tensor()?;
            Ok(Value::from(Tensor::bools(
                t.shape.clone(),
                // one answer per UTF-16 unit: each half of a surrogate pair is no letter
                t.to_f64()
                    .iter()
                    .map(|&u| char::from_u32(u as u32).is_some_and(f))
                    .collect(),
            )))
        }
        Value::Str(s) if s.data.len() == 1 => {
            let c: Vec<bool> = s.data[0].chars().map(f).collect();
            let n = c.len();
            Ok(Value::from(Tensor::bools(Shape::row(n), c)))
        }
        v => Ok(Value::from(Tensor::bools(
            v.shape(),
            vec![false; v.numel()],
        ))),
    }
}

fn isspace(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(char_pred(&a, &|c| c.is_whitespace())?)
}

fn isletter(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(char_pred(&a, &|c| c.is_alphabetic())?)
}

fn isstrprop(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let cat = text_arg(&a[1], "isstrprop")?;
    let f: fn(char) -> bool = match cat.as_str() {
        "alpha" => |c| c.is_alphabetic(),
        "digit" => |c| c.is_ascii_digit(),
        "alphanum" => |c| c.is_alphanumeric(),
        "upper" => |c| c.is_uppercase(),
        "lower" => |c| c.is_lowercase(),
        "wspace" => |c| c.is_whitespace(),
        "punct" => |c| c.is_ascii_punctuation(),
        "cntrl" => |c| c.is_control(),
        "xdigit" => |c| c.is_ascii_hexdigit(),
        "print" => |c| !c.is_control(),
        "graphic" | "graph" => |c| !c.is_control() && !c.is_whitespace(),
        "ascii" => |c| c.is_ascii(),
        _ => return Err(bad_arg("isstrprop", format!("Unknown category '{cat}'."))),
    };
    // a cell array gives a cell of results, one per element
    if let Value::Cell(c) = &a[0] {
        let data = c
            .data
            .iter()
            .map(|v| char_pred(&vec![v.clone()], &f))
            .collect::<MResult<_>>()?;
        return one(Value::from(crate::values::containers::CellArray::new(
            c.shape.clone(),
            data,
        )));
    }
    one(char_pred(&a, &f)?)
}

pub fn is_cellstr(v: &Value) -> bool {
    match v {
        Value::Cell(c) => c
            .data
            .iter()
            .all(|e| e.is_char() && (e.shape().rows() <= 1)),
        _ => false,
    }
}

fn iscellstr(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(is_cellstr(&a[0])))
}

fn string(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    match a.first() {
        None => one(Value::string("")),
        Some(v) => one(crate::values::strings::to_string_array(v)?),
    }
}

fn strings(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let sa = super::size_args(&a)?;
    let n = sa.shape.numel();
    one(StrArray::new(
        if a.is_empty() {
            Shape::scalar()
        } else {
            sa.shape
        },
        vec![String::new(); n],
    ))
}

/// A nonnegative integral double as m * 2^e with m < 2^64 (e = 0 when it fits in 64 bits).
fn split_f64(x: f64) -> (u64, u32) {
    if x < 2f64.powi(64) {
        return (x as u64, 0);
    }
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32 - 1075;
    let mant = (bits & ((1u64 << 52) - 1)) | (1u64 << 52);
    (mant, exp.max(0) as u32)
}

/// Digits of v in base 2 or 16, followed by `zeros` zero digits.
fn radix_digits(v: u128, zeros: u32, radix: u32) -> String {
    let mut s = match radix {
        2 => format!("{v:b}"),
        _ => format!("{v:X}"),
    };
    s.push_str(&"0".repeat(zeros as usize));
    s
}

fn radix_text(a: &A, radix: u32, name: &str) -> MResult<Value> {
    let t = a[0].tensor()?;
    let min_len = match a.get(1) {
        Some(v) => super::count_arg(v, name, "Minimum length")?,
        None => 0,
    };
    let vals: Vec<f64> = t.to_f64().into_owned();
    if vals.iter().any(|x| x.fract() != 0.0 || x.is_nan()) {
        return Err(bad_arg(name, "Input must be integers."));
    }
    // negative values are written in two's complement, in the narrowest of 8, 16, 32 or 64
    // bits that holds every input
    let lowest = vals.iter().copied().fold(0.0, f64::min);
    let bits = [8u32, 16, 32, 64]
        .into_iter()
        .find(|&b| lowest >= -(2f64.powi(b as i32 - 1)))
        .unwrap_or(64);
    if lowest < -(2f64.powi(63)) {
        return Err(bad_arg(
            name,
            "Negative input must be at least intmin('int64').",
        ));
    }
    let mut rows = Vec::new();
    for &x in &vals {
        crate::interp::interrupt::poll();
        let s = if x < 0.0 {
            let v = (x as i128 + (1i128 << bits)) as u128;
            radix_digits(v, 0, radix)
        } else {
            // x = m * 2^e exactly; large values keep every digit
            let (m, e) = split_f64(x);
            let shift = if radix == 16 { e % 4 } else { 0 };
            let zeros = if radix == 16 { e / 4 } else { e };
            radix_digits((m as u128) << shift, zeros, radix)
        };
        rows.push(s);
    }
    let w = rows.iter().map(|r| r.len()).max().unwrap_or(0).max(min_len);
    // each row as text, then as UTF-16 chars
    crate::values::limits::check_dims(&[rows.len(), w], 3)?;
    let rows: Vec<String> = rows
        .iter()
        .map(|r| {
            crate::interp::interrupt::poll();
            format!("{}{r}", "0".repeat(w - r.len()))
        })
        .collect();
    Ok(super::types::char_matrix(&rows))
}

fn dec2bin(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(radix_text(&a, 2, "dec2bin")?)
}

fn dec2hex(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(radix_text(&a, 16, "dec2hex")?)
}

/// Texts of digits in `radix` as numbers (NaN for invalid text); spaces are ignored and an
/// optional `prefix` (0x, 0b) is allowed.
pub(super) fn parse_radix(
    v: &Value,
    radix: u32,
    name: &str,
    prefix: Option<&str>,
) -> MResult<Value> {
    let (list, _, _) = texts(v, name)?;
    let vals: Vec<f64> = list
        .iter()
        .map(|s| {
            let digits: String = s.chars().filter(|c| !c.is_whitespace()).collect();
            let lower = digits.to_ascii_lowercase();
            let digits = match prefix {
                Some(p) => lower.strip_prefix(p).unwrap_or(&lower),
                None => &lower,
            };
            if digits.is_empty() {
                return f64::NAN;
            }
            digits
                .chars()
                .try_fold(0.0f64, |acc, c| {
                    c.to_digit(radix).map(|d| acc * radix as f64 + d as f64)
                })
                .unwrap_or(f64::NAN)
        })
        .collect();
    if vals.len() == 1 {
        Ok(Value::Num(vals[0]))
    } else {
        Ok(Value::col(vals))
    }
}

fn bin2dec(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(parse_radix(&a[0], 2, "bin2dec", Some("0b"))?)
}

fn hex2dec(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(parse_radix(&a[0], 16, "hex2dec", Some("0x"))?)
}

/// Number of conversion operators in a format (`%%` is a literal percent).
fn count_operators(fmt: &str) -> usize {
    let b = fmt.as_bytes();
    let (mut n, mut k) = (0, 0);
    while k < b.len() {
        if b[k] == b'%' {
            if b.get(k + 1) == Some(&b'%') {
                k += 2;
                continue;
            }
            n += 1;
        }
        k += 1;
    }
    n
}

/// The elements of a compose data argument as rows of scalar values.
fn compose_rows(v: &Value) -> MResult<(usize, usize, Vec<Value>)> {
    let shape = v.shape();
    let (r, c) = (shape.rows(), shape.numel() / shape.rows().max(1));
    let elems: Vec<Value> = match v {
        Value::Str(s) => s.data.iter().map(|x| Value::str(x)).collect(),
        Value::Cell(c) => c.data.clone(),
        v if v.is_char() => vec![v.clone()],
        v => {
            let t = v.tensor()?;
            (0..t.numel())
                .map(|k| crate::values::ops::shape_ops::gather_value(v, &[k], Shape::scalar()))
                .collect::<MResult<_>>()?
        }
    };
    if v.is_char() {
        return Ok((1, 1, elems));
    }
    Ok((r, c, elems))
}

fn compose(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let as_string = a[0].is_string();
    let fmt = crate::display::printf::unescape(&text_arg(&a[0], "compose")?);
    let wrap = |rows: usize, cols: usize, texts: Vec<String>| -> Value {
        if as_string {
            Value::from(StrArray::new(Shape::matrix(rows, cols), texts))
        } else {
            Value::from(crate::values::containers::CellArray::new(
                Shape::matrix(rows, cols),
                texts.iter().map(|t| Value::str(t)).collect(),
            ))
        }
    };
    if a.len() == 1 {
        return one(wrap(
            1,
            1,
            vec![crate::display::printf::sprintf(&fmt, &[])?],
        ));
    }
    // the data arguments side by side: row r of the result formats row r of every argument
    let mut rows = None;
    let mut table: Vec<(usize, Vec<Value>)> = Vec::new();
    for v in &a[1..] {
        let (r, c, elems) = compose_rows(v)?;
        if elems.is_empty() {
            return one(wrap(0, 0, vec![]));
        }
        match rows {
            None => rows = Some(r),
            Some(r0) if r0 != r => {
                return Err(bad_arg("compose", "Dimensions of arguments must agree."));
            }
            _ => {}
        }
        table.push((c, elems));
    }
    let nrows = rows.unwrap_or(1);
    let ncols: usize = table.iter().map(|(c, _)| c).sum();
    let nops = count_operators(&fmt).max(1);
    let out_cols = ncols.div_ceil(nops).max(1);
    let mut texts = vec![String::new(); nrows * out_cols];
    for r in 0..nrows {
        let line: Vec<Value> = table
            .iter()
            .flat_map(|(c, elems)| (0..*c).map(move |j| elems[r + j * nrows].clone()))
            .collect();
        for (j, chunk) in line.chunks(nops).enumerate() {
            texts[r + j * nrows] = crate::display::printf::sprintf(&fmt, chunk)?;
        }
    }
    one(wrap(nrows, out_cols, texts))
}
