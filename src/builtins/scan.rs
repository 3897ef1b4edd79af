//! Formatted reading from text: sscanf. The format is applied repeatedly until the text or a
//! match runs out, as C's scanf family does with MATLAB's extensions (`%*d` skips, a size
//! argument shapes the result, text-only formats give char).

use super::{Builtin, b, bad_arg, text_arg};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("sscanf", 2, 3, 4, "[A, count, errmsg, next] = sscanf(text, format, size): read formatted data from text.", sscanf),
    ]
}

#[derive(Debug)]
enum Piece {
    /// whitespace in the format matches any run of whitespace (also none)
    Space,
    Lit(char),
    Conv {
        skip: bool,
        width: Option<usize>,
        kind: char,
    },
}

fn parse_format(fmt: &str) -> Vec<Piece> {
    let fmt = crate::display::printf::unescape(fmt);
    let cs: Vec<char> = fmt.chars().collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k < cs.len() {
        let c = cs[k];
        if c.is_whitespace() {
            while k < cs.len() && cs[k].is_whitespace() {
                k += 1;
            }
            out.push(Piece::Space);
            continue;
        }
        if c == '%' && k + 1 < cs.len() {
            if cs[k + 1] == '%' {
                out.push(Piece::Lit('%'));
                k += 2;
                continue;
            }
            let mut j = k + 1;
            let skip = cs[j] == '*';
            if skip {
                j += 1;
            }
            let digits: String = cs[j..].iter().take_while(|c| c.is_ascii_digit()).collect();
            j += digits.len();
            // length modifiers (l, h) change nothing here
            while j < cs.len() && matches!(cs[j], 'l' | 'h' | 'L') {
                j += 1;
            }
            if j < cs.len() {
                out.push(Piece::Conv {
                    skip,
                    width: digits.parse().ok(),
                    kind: cs[j],
                });
                k = j + 1;
                continue;
            }
        }
        out.push(Piece::Lit(c));
        k += 1;
    }
    out
}

/// Reads a number of `kind` at `pos`, at most `width` characters; None when none is there.
fn read_number(s: &[char], pos: usize, width: Option<usize>, kind: char) -> Option<(f64, usize)> {
    let end = width.map_or(s.len(), |w| (pos + w).min(s.len()));
    let t: String = s[pos..end].iter().collect();
    let b = t.as_bytes();
    let mut k = 0;
    if k < b.len() && matches!(b[k], b'+' | b'-') {
        k += 1;
    }
    let neg = b.first() == Some(&b'-');
    let digits_from = |k: usize, ok: &dyn Fn(u8) -> bool| -> usize {
        let mut j = k;
        while j < b.len() && ok(b[j]) {
            j += 1;
        }
        j
    };
    match kind {
        'd' | 'u' => {
            let j = digits_from(k, &|c| c.is_ascii_digit());
            (j > k).then(|| (t[..j].parse::<f64>().unwrap_or(f64::NAN), j))
        }
        'i' => {
            // C's %i reads 0x hex and leading-0 octal too
            if t[k..].starts_with("0x") || t[k..].starts_with("0X") {
                let j = digits_from(k + 2, &|c| c.is_ascii_hexdigit());
                let v = u64::from_str_radix(&t[k + 2..j], 16).ok()? as f64;
                return Some((if neg { -v } else { v }, j));
            }
            let j = digits_from(k, &|c| c.is_ascii_digit());
            (j > k).then(|| (t[..j].parse::<f64>().unwrap_or(f64::NAN), j))
        }
        'x' | 'X' => {
            let k = if t[k..].starts_with("0x") || t[k..].starts_with("0X") {
                k + 2
            } else {
                k
            };
            let j = digits_from(k, &|c| c.is_ascii_hexdigit());
            let v = u64::from_str_radix(&t[k..j], 16).ok()? as f64;
            Some((if neg { -v } else { v }, j))
        }
        'o' => {
            let j = digits_from(k, &|c| (b'0'..=b'7').contains(&c));
            let v = u64::from_str_radix(&t[k..j], 8).ok()? as f64;
            Some((if neg { -v } else { v }, j))
        }
        _ => {
            // %f %e %g: decimal with optional exponent, or Inf / NaN
            let lower = t[k..].to_ascii_lowercase();
            for (word, v) in [("inf", f64::INFINITY), ("nan", f64::NAN)] {
                if lower.starts_with(word) {
                    let v = if neg { -v } else { v };
                    return Some((v, k + 3));
                }
            }
            let int_end = digits_from(k, &|c| c.is_ascii_digit());
            let mut j = int_end;
            let mut any = j > k;
            if j < b.len() && b[j] == b'.' {
                let frac_end = digits_from(j + 1, &|c| c.is_ascii_digit());
                any |= frac_end > j + 1;
                j = frac_end;
            }
            if !any {
                return None;
            }
            if j < b.len() && matches!(b[j], b'e' | b'E' | b'd' | b'D') {
                let mut e = j + 1;
                if e < b.len() && matches!(b[e], b'+' | b'-') {
                    e += 1;
                }
                let exp_end = digits_from(e, &|c| c.is_ascii_digit());
                if exp_end > e {
                    j = exp_end;
                }
            }
            let text = t[..j].replace(['d', 'D'], "e");
            text.parse::<f64>().ok().map(|v| (v, j))
        }
    }
}

struct Scan {
    values: Vec<f64>,
    /// every conversion that produced data was %s or %c
    all_text: bool,
    count: usize,
    next: usize,
    error: String,
}

fn scan(text: &str, fmt: &str, limit: Option<usize>) -> Scan {
    let s: Vec<char> = text.chars().collect();
    let pieces = parse_format(fmt);
    let mut out = Scan {
        values: Vec::new(),
        all_text: true,
        count: 0,
        next: 0,
        error: String::new(),
    };
    let mut pos = 0;
    let full = |out: &Scan| limit.is_some_and(|n| out.values.len() >= n);
    let skip_ws = |pos: &mut usize| {
        while *pos < s.len() && s[*pos].is_whitespace() {
            *pos += 1;
        }
    };
    'passes: loop {
        let start = pos;
        let mut converted = false;
        for p in &pieces {
            if full(&out) {
                break 'passes;
            }
            match p {
                Piece::Space => skip_ws(&mut pos),
                Piece::Lit(c) => {
                    if pos < s.len() && s[pos] == *c {
                        pos += 1;
                    } else {
                        break 'passes;
                    }
                }
                Piece::Conv { skip, width, kind } => match kind {
                    's' => {
                        skip_ws(&mut pos);
                        let from = pos;
                        while pos < s.len()
                            && !s[pos].is_whitespace()
                            && width.is_none_or(|w| pos - from < w)
                        {
                            pos += 1;
                        }
                        if pos == from {
                            break 'passes;
                        }
                        if !skip {
                            out.values
                                .extend(s[from..pos].iter().map(|c| *c as u32 as f64));
                            out.count += 1;
                            converted = true;
                        }
                    }
                    'c' => {
                        let n = width.unwrap_or(1);
                        if pos + n > s.len() {
                            break 'passes;
                        }
                        if !skip {
                            out.values
                                .extend(s[pos..pos + n].iter().map(|c| *c as u32 as f64));
                            out.count += 1;
                            converted = true;
                        }
                        pos += n;
                    }
                    _ => {
                        skip_ws(&mut pos);
                        match read_number(&s, pos, *width, *kind) {
                            Some((v, used)) => {
                                pos += used;
                                if !skip {
                                    out.values.push(v);
                                    out.all_text = false;
                                    out.count += 1;
                                    converted = true;
                                }
                            }
                            None => {
                                if pos < s.len() {
                                    out.error = "Matching failure in format.".into();
                                }
                                break 'passes;
                            }
                        }
                    }
                },
            }
        }
        // a pass that reads nothing, or a format with no conversions, ends the scan
        if pos == start || !converted || pos >= s.len() {
            break;
        }
    }
    out.next = pos + 1;
    out
}

fn sscanf(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let text = text_arg(&a[0], "sscanf")?;
    let fmt = text_arg(&a[1], "sscanf")?;
    // the size argument: n, Inf, [m n] or [m Inf]
    let dims: Option<(usize, Option<usize>)> = match a.get(2) {
        None => None,
        Some(v) => {
            let d = v.tensor()?.to_f64().into_owned();
            let as_count = |x: f64| (x.is_finite() && x >= 0.0).then_some(x as usize);
            match d.as_slice() {
                [n] => Some((as_count(*n).unwrap_or(usize::MAX), None)),
                [m, n] => {
                    let m = as_count(*m).ok_or_else(|| bad_arg("sscanf", "Invalid size."))?;
                    Some((m, Some(as_count(*n).unwrap_or(usize::MAX))))
                }
                _ => {
                    return Err(bad_arg(
                        "sscanf",
                        "Size must be a scalar or a 2-element vector.",
                    ));
                }
            }
        }
    };
    let limit = dims.map(|(m, n)| match n {
        Some(n) => m.saturating_mul(n),
        None => m,
    });
    let r = scan(&text, &fmt, limit);
    let n = r.values.len();
    let shape = match dims {
        Some((m, Some(_))) if m > 0 => Shape::matrix(m, n.div_ceil(m)),
        _ if r.all_text && n > 0 => Shape::row(n),
        _ => Shape::col(n),
    };
    let mut vals = r.values;
    vals.resize(shape.numel(), 0.0);
    let data = if r.all_text && n > 0 {
        let text: String = vals
            .iter()
            .map(|&c| char::from_u32(c as u32).unwrap_or('?'))
            .collect();
        Value::str(&text)
    } else {
        Value::from(Tensor::f64(shape, vals))
    };
    let mut out = vec![
        data,
        Value::Num(r.count as f64),
        Value::str(&r.error),
        Value::Num(r.next as f64),
    ];
    out.truncate(nargout.clamp(1, 4));
    Ok(out)
}
