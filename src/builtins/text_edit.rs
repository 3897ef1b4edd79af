//! Editing text by position or pattern: extractBefore/After, insertBefore/After, erase,
//! strip, splitlines, strjust, regexptranslate, cellstr, conversions between strings and
//! characters, ismissing, dec2base/base2dec.

use super::strings::{map_text, texts};
use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::containers::{CellArray, StrArray};
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("extractBefore", 2, 2, 1, "extractBefore(str, pat|pos): the text before the first occurrence of pat (or before position pos).", extract_before),
        b("extractAfter", 2, 2, 1, "extractAfter(str, pat|pos): the text after the first occurrence of pat (or after position pos).", extract_after),
        b("eraseBetween", 3, 3, 1, "eraseBetween(str, start, end): remove the text between two markers or positions.", erase_between),
        b("extractBetween", 3, 3, 1, "extractBetween(str, start, end): the text between two patterns or positions.", extract_between),
        b("insertBefore", 3, 3, 1, "insertBefore(str, pat|pos, new): inserts new before each occurrence of pat (or position pos).", insert_before),
        b("insertAfter", 3, 3, 1, "insertAfter(str, pat|pos, new): inserts new after each occurrence of pat (or position pos).", insert_after),
        b("erase", 2, 2, 1, "erase(str, pat): deletes every occurrence of pat.", erase),
        b("strip", 1, 3, 1, "strip(str, side, char): removes leading and trailing whitespace (or char); side is 'both', 'left' or 'right'.", strip),
        b("splitlines", 1, 1, 1, "splitlines(str): splits text at newlines into a column.", splitlines),
        b("strjust", 1, 2, 1, "strjust(s, 'right'|'left'|'center'): justify character rows.", strjust),
        b("regexptranslate", 2, 2, 1, "regexptranslate('escape'|'wildcard', s): text turned into a regular expression.", regexptranslate),
        b("cellstr", 1, 1, 1, "cellstr(A): a cell array of character vectors (rows of a char matrix, elements of a string array).", cellstr),
        b("isStringScalar", 1, 1, 1, "isStringScalar(x): true for a 1-by-1 string array.", is_string_scalar),
        b("convertStringsToChars", 1, -1, 64, "convertStringsToChars(A, ...): strings become character vectors (string arrays become cells).", convert_strings_to_chars),
        b("convertCharsToStrings", 1, -1, 64, "convertCharsToStrings(A, ...): character vectors (and cells of them) become strings.", convert_chars_to_strings),
        b("ismissing", 1, 1, 1, "ismissing(A): true where A holds a missing value (NaN, blank char, empty cell text).", ismissing),
        b("dec2base", 2, 3, 1, "dec2base(d, base, n): nonnegative integers as text in the given base.", dec2base),
        b("base2dec", 2, 2, 1, "base2dec(s, base): text in the given base as numbers.", base2dec),
    ]
}

/// Where a position-or-pattern argument matches in `s`: (start, end) char offsets of the
/// first match, or a position given as a number.
enum Anchor {
    Pattern(Vec<String>),
    Position(usize),
}

fn anchor(v: &Value, name: &str) -> MResult<Anchor> {
    if v.is_text() || matches!(v, Value::Cell(_)) {
        Ok(Anchor::Pattern(texts(v, name)?.0))
    } else {
        let p = v.scalar_f64()?;
        if p < 0.0 || p.fract() != 0.0 {
            return Err(bad_arg(name, "Position must be a nonnegative integer."));
        }
        Ok(Anchor::Position(p as usize))
    }
}

/// First match of any of the patterns: (start, end) in chars.
fn first_match(s: &[char], pats: &[String]) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    for p in pats {
        let p: Vec<char> = p.chars().collect();
        if p.is_empty() {
            continue;
        }
        if let Some(i) = (0..=s.len().saturating_sub(p.len())).find(|&i| s[i..].starts_with(&p)) {
            if best.is_none_or(|(b, _)| i < b) {
                best = Some((i, i + p.len()));
            }
        }
    }
    best
}

fn check_position(p: usize, len: usize, name: &str) -> MResult<()> {
    if p > len {
        return Err(MError::new(
            "MATLAB:string:PositionOutOfRange",
            format!("Error using {name}: position exceeds the text length."),
        ));
    }
    Ok(())
}

fn extract(a: &A, name: &str, before: bool) -> MResult<Value> {
    let at = anchor(&a[1], name)?;
    let err = std::cell::RefCell::new(None);
    let out = map_text(&a[0], name, &|s| {
        let c: Vec<char> = s.chars().collect();
        match &at {
            Anchor::Position(p) => {
                if let Err(e) = check_position(*p, c.len(), name) {
                    *err.borrow_mut() = Some(e);
                    return String::new();
                }
                if before {
                    c[..p.saturating_sub(1)].iter().collect()
                } else {
                    c[(*p).min(c.len())..].iter().collect()
                }
            }
            Anchor::Pattern(pats) => match first_match(&c, pats) {
                Some((i, j)) => {
                    if before {
                        c[..i].iter().collect()
                    } else {
                        c[j..].iter().collect()
                    }
                }
                None => String::new(),
            },
        }
    })?;
    match err.into_inner() {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

fn extract_before(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(extract(&a, "extractBefore", true)?)
}
fn extract_after(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(extract(&a, "extractAfter", false)?)
}

/// Where the text between two anchors lies (character positions, end exclusive).
fn between_span(c: &[char], from: &Anchor, to: &Anchor) -> Option<(usize, usize)> {
    let start = match from {
        Anchor::Position(p) => p.saturating_sub(1),
        Anchor::Pattern(pats) => first_match(c, pats)?.1,
    };
    let end = match to {
        Anchor::Position(p) => (*p).min(c.len()),
        Anchor::Pattern(pats) => start + first_match(&c[start.min(c.len())..], pats)?.0,
    };
    Some((start.min(end), end))
}

fn extract_between(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (from, to) = (
        anchor(&a[1], "extractBetween")?,
        anchor(&a[2], "extractBetween")?,
    );
    let out = map_text(&a[0], "extractBetween", &|s| {
        let c: Vec<char> = s.chars().collect();
        match between_span(&c, &from, &to) {
            Some((p, q)) => c[p..q].iter().collect(),
            None => String::new(),
        }
    })?;
    // char input gives a cell array of character vectors
    if out.is_char() {
        return one(CellArray::new(Shape::scalar(), vec![out]));
    }
    one(out)
}

fn erase_between(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (from, to) = (
        anchor(&a[1], "eraseBetween")?,
        anchor(&a[2], "eraseBetween")?,
    );
    one(map_text(&a[0], "eraseBetween", &|s| {
        let c: Vec<char> = s.chars().collect();
        match between_span(&c, &from, &to) {
            Some((p, q)) => c[..p].iter().chain(&c[q..]).collect(),
            None => s.to_string(),
        }
    })?)
}

fn insert(a: &A, name: &str, before: bool) -> MResult<Value> {
    let at = anchor(&a[1], name)?;
    let new = text_arg(&a[2], name)?;
    map_text(&a[0], name, &|s| {
        let c: Vec<char> = s.chars().collect();
        match &at {
            Anchor::Position(p) => {
                let k = if before { p.saturating_sub(1) } else { *p }.min(c.len());
                let mut out: String = c[..k].iter().collect();
                out.push_str(&new);
                out.extend(c[k..].iter());
                out
            }
            Anchor::Pattern(pats) => {
                // every occurrence, scanning left to right
                let mut out = String::new();
                let mut i = 0;
                while i < c.len() {
                    match first_match(&c[i..], pats) {
                        Some((m0, m1)) => {
                            out.extend(c[i..i + m0].iter());
                            if before {
                                out.push_str(&new);
                            }
                            out.extend(c[i + m0..i + m1].iter());
                            if !before {
                                out.push_str(&new);
                            }
                            i += m1;
                        }
                        None => {
                            out.extend(c[i..].iter());
                            break;
                        }
                    }
                }
                out
            }
        }
    })
}

fn insert_before(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(insert(&a, "insertBefore", true)?)
}
fn insert_after(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(insert(&a, "insertAfter", false)?)
}

fn erase(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mut pats = texts(&a[1], "erase")?.0;
    // longer patterns first, so overlapping ones erase the most
    pats.sort_by_key(|p| std::cmp::Reverse(p.chars().count()));
    one(map_text(&a[0], "erase", &|s| {
        let c: Vec<char> = s.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while i < c.len() {
            match pats
                .iter()
                .map(|p| p.chars().collect::<Vec<_>>())
                .find(|p| !p.is_empty() && c[i..].starts_with(p))
            {
                Some(p) => i += p.len(),
                None => {
                    out.push(c[i]);
                    i += 1;
                }
            }
        }
        out
    })?)
}

fn strip(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mut side = "both".to_string();
    let mut ch: Option<char> = None;
    for v in &a[1..] {
        let t = text_arg(v, "strip")?;
        match t.to_lowercase().as_str() {
            s @ ("both" | "left" | "right") => side = s.to_string(),
            _ if t.chars().count() == 1 => ch = t.chars().next(),
            _ => return Err(bad_arg("strip", "Side must be 'both', 'left' or 'right'.")),
        }
    }
    let is_strip = |c: char| match ch {
        Some(x) => c == x,
        None => c.is_whitespace(),
    };
    one(map_text(&a[0], "strip", &|s| {
        let s = if side != "right" {
            s.trim_start_matches(is_strip)
        } else {
            s
        };
        let s = if side != "left" {
            s.trim_end_matches(is_strip)
        } else {
            s
        };
        s.to_string()
    })?)
}

fn splitlines(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = text_arg(&a[0], "splitlines")?;
    let normalized = s.replace("\r\n", "\n").replace('\r', "\n");
    let parts: Vec<String> = normalized.split('\n').map(String::from).collect();
    let n = parts.len();
    if a[0].is_string() {
        return one(StrArray::new(Shape::col(n), parts));
    }
    one(CellArray::new(
        Shape::col(n),
        parts.iter().map(|p| Value::str(p)).collect(),
    ))
}

fn strjust(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let how = match a.get(1) {
        Some(v) => text_arg(v, "strjust")?.to_lowercase(),
        None => "right".into(),
    };
    one(map_text(&a[0], "strjust", &|s| {
        let c: Vec<char> = s.chars().collect();
        let width = c.len();
        let body: String = s.trim_matches(' ').to_string();
        let n = body.chars().count();
        let pad = width - n;
        let (l, r) = match how.as_str() {
            "left" => (0, pad),
            "center" => (pad / 2, pad - pad / 2),
            _ => (pad, 0),
        };
        format!("{}{body}{}", " ".repeat(l), " ".repeat(r))
    })?)
}

fn regexptranslate(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let how = text_arg(&a[0], "regexptranslate")?.to_lowercase();
    let f: Box<dyn Fn(&str) -> String> = match how.as_str() {
        "escape" => Box::new(|s: &str| {
            let mut out = String::new();
            for c in s.chars() {
                if "\\^$.|?*+()[]{}".contains(c) {
                    out.push('\\');
                }
                out.push(c);
            }
            out
        }),
        "wildcard" => Box::new(|s: &str| {
            let mut out = String::new();
            for c in s.chars() {
                match c {
                    '*' => out.push_str(".*"),
                    '?' => out.push('.'),
                    '.' => out.push_str("\\."),
                    c => out.push(c),
                }
            }
            out
        }),
        "flexible" => Box::new(|s: &str| s.to_string()),
        _ => {
            return Err(bad_arg(
                "regexptranslate",
                "The first input must be 'escape', 'wildcard' or 'flexible'.",
            ));
        }
    };
    one(map_text(&a[1], "regexptranslate", &f)?)
}

fn cellstr(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    match &a[0] {
        Value::Cell(c) => {
            if c.data.iter().all(|v| v.is_char() && v.shape().rows() <= 1) {
                return one(a[0].clone());
            }
            Err(MError::new(
                "MATLAB:cellstr:MustContainText",
                "Cell array must contain only character vectors.",
            ))
        }
        Value::Str(s) => one(CellArray::new(
            s.shape.clone(),
            s.data.iter().map(|x| Value::str(x)).collect(),
        )),
        v if v.is_char() => {
            let t = v.tensor()?;
            let rows = super::types::char_rows(&t);
            let rows: Vec<Value> = if t.numel() == 0 {
                vec![Value::str("")]
            } else {
                rows.iter().map(|r| Value::str(r.trim_end())).collect()
            };
            let n = rows.len();
            one(CellArray::new(Shape::col(n), rows))
        }
        _ => Err(MError::new(
            "MATLAB:cellstr:InputClass",
            "Input must be a string, a character array or a cell array of character vectors.",
        )),
    }
}

fn is_string_scalar(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(a[0].is_string() && a[0].numel() == 1))
}

fn convert_strings_to_chars(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    Ok(a.iter()
        .take(nargout.max(1))
        .map(|v| match v {
            Value::Str(s) if s.data.len() == 1 => Value::str(&s.data[0]),
            Value::Str(s) => Value::from(CellArray::new(
                s.shape.clone(),
                s.data.iter().map(|x| Value::str(x)).collect(),
            )),
            other => other.clone(),
        })
        .collect())
}

fn convert_chars_to_strings(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    a.iter()
        .take(nargout.max(1))
        .map(|v| match v {
            v if v.is_char() && v.shape().rows() <= 1 => Ok(Value::string(&v.text()?)),
            Value::Cell(c) if c.data.iter().all(|e| e.is_text()) => {
                let (list, shape, _) = texts(v, "convertCharsToStrings")?;
                let _ = c;
                Ok(Value::from(StrArray::new(shape, list)))
            }
            other => Ok(other.clone()),
        })
        .collect()
}

fn ismissing(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let v = &a[0];
    let shape = v.shape();
    let flags: Vec<bool> = match v {
        Value::Cell(c) => c
            .data
            .iter()
            .map(|e| e.is_char() && e.numel() == 0)
            .collect(),
        Value::Str(_) => vec![false; shape.numel()],
        // One flag per UTF-16 unit, as the shape counts them ('😀' is 1x2).
        v if v.is_char() => v.tensor()?.to_f64().iter().map(|&x| x == 32.0).collect(),
        v if v.is_numeric_like() => {
            let t = v.tensor()?;
            if t.is_complex() {
                t.to_c64()
                    .iter()
                    .map(|z| z.re.is_nan() || z.im.is_nan())
                    .collect()
            } else {
                t.to_f64().iter().map(|x| x.is_nan()).collect()
            }
        }
        _ => vec![false; shape.numel()],
    };
    one(Tensor::bools(shape, flags))
}

fn radix_base(v: &Value, name: &str) -> MResult<u32> {
    let b = v.scalar_f64()?;
    if !(2.0..=36.0).contains(&b) || b.fract() != 0.0 {
        return Err(bad_arg(name, "Base must be an integer between 2 and 36."));
    }
    Ok(b as u32)
}

fn dec2base(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let base = radix_base(&a[1], "dec2base")?;
    let vals = a[0].tensor()?.to_f64().into_owned();
    let min_len = match a.get(2) {
        Some(v) => super::count_arg(v, "dec2base", "Minimum length")?,
        None => 0,
    };
    let mut rows = Vec::with_capacity(vals.len());
    for &x in &vals {
        if x < 0.0 || x.fract() != 0.0 || !x.is_finite() {
            return Err(bad_arg("dec2base", "D must be a nonnegative integer."));
        }
        let mut n = x as u128;
        let mut digits = Vec::new();
        loop {
            let d = (n % base as u128) as u32;
            digits.push(
                std::char::from_digit(d, base)
                    .unwrap_or('0')
                    .to_ascii_uppercase(),
            );
            n /= base as u128;
            if n == 0 {
                break;
            }
        }
        digits.reverse();
        rows.push(digits.into_iter().collect::<String>());
    }
    // rows right-aligned with zeros to a common width
    let width = rows.iter().map(|r| r.len()).max().unwrap_or(0).max(min_len);
    let rows: Vec<String> = rows.iter().map(|r| format!("{r:0>width$}")).collect();
    if rows.len() == 1 {
        return one(Value::str(&rows[0]));
    }
    one(super::types::char_matrix(&rows))
}

fn base2dec(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let base = radix_base(&a[1], "base2dec")?;
    one(super::text_convert::parse_radix(
        &a[0], base, "base2dec", None,
    )?)
}
