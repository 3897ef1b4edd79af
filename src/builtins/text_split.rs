//! Splitting and joining text: strsplit, strjoin, strtok, split, join.

use super::strings::texts;
use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::containers::{CellArray, StrArray};
use crate::values::shape::Shape;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("strsplit", 1, -1, 2, "strsplit(text, delimiter): split text into a cell array (default delimiter: whitespace).", strsplit),
        b("strjoin", 1, 2, 1, "strjoin(C, delimiter): join a cell array of text (default delimiter: space).", strjoin),
        b("strtok", 1, 2, 2, "[token, rest] = strtok(text, delimiters): first token.", strtok),
        b("split", 1, 2, 1, "split(text, delimiter): split a string into a string array.", split),
        b("join", 1, 2, 1, "join(strs, delimiter): join a string array.", join),
    ]
}

fn strsplit(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let s = text_arg(&a[0], "strsplit")?;
    let (delims, opts) = if a.len() % 2 == 0 {
        (Some(&a[1]), &a[2..])
    } else {
        (None, &a[1..])
    };
    let (mut collapse, mut regex) = (true, false);
    for pair in opts.chunks(2) {
        let key = text_arg(&pair[0], "strsplit")?.to_ascii_lowercase();
        match key.as_str() {
            "collapsedelimiters" => collapse = pair[1].scalar_f64()? != 0.0,
            "delimitertype" => {
                regex = text_arg(&pair[1], "strsplit")?.eq_ignore_ascii_case("regularexpression")
            }
            _ => {
                return Err(bad_arg(
                    "strsplit",
                    format!("Invalid parameter name '{key}'."),
                ));
            }
        }
    }
    let alternatives: Vec<String> = match delims {
        None => vec![r"\s".to_string()],
        Some(d) => {
            let (list, _, _) = texts(d, "strsplit")?;
            let mut list: Vec<String> = if regex {
                list
            } else {
                list.iter()
                    .map(|d| fancy_regex::escape(&crate::display::printf::unescape(d)).into_owned())
                    .collect()
            };
            // longest delimiter first, so "ab" wins over "a"
            list.sort_by_key(|d| std::cmp::Reverse(d.len()));
            list
        }
    };
    let mut pattern = format!("(?:{})", alternatives.join("|"));
    if collapse {
        pattern.push('+');
    }
    let re = fancy_regex::Regex::new(&pattern)
        .map_err(|e| bad_arg("strsplit", format!("Invalid delimiter: {e}")))?;
    let (mut parts, mut matches) = (Vec::new(), Vec::new());
    let mut last = 0;
    for m in re.find_iter(&s) {
        crate::interp::interrupt::poll();
        let m = m.map_err(|e| bad_arg("strsplit", e.to_string()))?;
        if m.end() == m.start() {
            continue;
        }
        parts.push(Value::str(&s[last..m.start()]));
        matches.push(Value::str(m.as_str()));
        last = m.end();
    }
    parts.push(Value::str(&s[last..]));
    let mut out = vec![Value::from(CellArray::row(parts))];
    if nargout > 1 {
        out.push(Value::from(CellArray::row(matches)));
    }
    Ok(out)
}

fn split_multi(s: &str, delims: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut rest = s;
    'outer: while !rest.is_empty() {
        crate::interp::interrupt::poll();
        // longest delimiter first
        let mut ds: Vec<&String> = delims.iter().filter(|d| !d.is_empty()).collect();
        ds.sort_by_key(|d| std::cmp::Reverse(d.len()));
        for d in ds {
            if let Some(r) = rest.strip_prefix(d.as_str()) {
                out.push(std::mem::take(&mut cur));
                rest = r;
                continue 'outer;
            }
        }
        let ch = rest.chars().next().unwrap_or(' ');
        cur.push(ch);
        rest = &rest[ch.len_utf8()..];
    }
    out.push(cur);
    out
}

fn strjoin(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if !matches!(a[0], Value::Cell(_) | Value::Str(_)) {
        return Err(MError::new(
            "MATLAB:strjoin:InvalidCellType",
            "First input must be a string array or cell array of character vectors.",
        ));
    }
    let (parts, _, _) = texts(&a[0], "strjoin")?;
    let s = match a.get(1) {
        // a cell of delimiters goes between successive pairs
        Some(Value::Cell(c)) => {
            let (delims, _, _) = texts(&Value::Cell(c.clone()), "strjoin")?;
            if delims.len() + 1 != parts.len().max(1) {
                return Err(MError::new(
                    "MATLAB:strjoin:WrongNumberOfDelimiterElements",
                    "The number of delimiters must be one less than the number of elements to join.",
                ));
            }
            let mut s = String::new();
            for (k, p) in parts.iter().enumerate() {
                if k > 0 {
                    s.push_str(&delims[k - 1]);
                }
                s.push_str(p);
            }
            s
        }
        Some(v) => parts.join(&crate::display::printf::unescape(&text_arg(v, "strjoin")?)),
        None => parts.join(" "),
    };
    if a[0].is_string() {
        one(Value::string(&s))
    } else {
        one(Value::str(&s))
    }
}

fn strtok(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let delims: Vec<char> = match a.get(1) {
        Some(v) => text_arg(v, "strtok")?.chars().collect(),
        None => vec![' ', '\t', '\n', '\r', '\u{b}', '\u{c}', '\0'],
    };
    let token = |text: &str| -> (String, String) {
        let s: Vec<char> = text.chars().collect();
        let start = s
            .iter()
            .position(|c| !delims.contains(c))
            .unwrap_or(s.len());
        let end = s[start..]
            .iter()
            .position(|c| delims.contains(c))
            .map(|p| start + p)
            .unwrap_or(s.len());
        (s[start..end].iter().collect(), s[end..].iter().collect())
    };
    // cell arrays and string arrays are tokenised element by element
    if matches!(&a[0], Value::Cell(_)) || (a[0].is_string() && a[0].numel() != 1) {
        let (list, shape, _) = texts(&a[0], "strtok")?;
        let (toks, rests): (Vec<String>, Vec<String>) = list.iter().map(|t| token(t)).unzip();
        let wrap = |v: Vec<String>| -> Value {
            if a[0].is_string() {
                Value::from(crate::values::containers::StrArray::new(shape.clone(), v))
            } else {
                Value::from(CellArray::new(
                    shape.clone(),
                    v.iter().map(|t| Value::str(t)).collect(),
                ))
            }
        };
        let mut out = vec![wrap(toks)];
        if nargout > 1 {
            out.push(wrap(rests));
        }
        return Ok(out);
    }
    let (tok, rest) = token(&text_arg(&a[0], "strtok")?);
    let mk = |t: &str| {
        if a[0].is_string() {
            Value::string(t)
        } else {
            Value::str(t)
        }
    };
    let mut out = vec![mk(&tok)];
    if nargout > 1 {
        out.push(mk(&rest));
    }
    Ok(out)
}

/// Text values of the same kind as the input: string arrays stay strings, char and cell
/// input give cells of char vectors.
fn texts_like(as_string: bool, shape: Shape, parts: Vec<String>) -> Value {
    if as_string {
        Value::from(StrArray::new(shape, parts))
    } else {
        Value::from(CellArray::new(
            shape,
            parts.iter().map(|p| Value::str(p)).collect(),
        ))
    }
}

/// split(str, delims): each element's pieces along the first trailing dimension of size 1
/// (a scalar gives a column); every element must split into the same number of pieces.
fn split(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (items, shape, _) = texts(&a[0], "split")?;
    let delims = match a.get(1) {
        Some(d) => Some(texts(d, "split")?.0),
        None => None,
    };
    let pieces: Vec<Vec<String>> = items
        .iter()
        .map(|s| match &delims {
            None => s.split_whitespace().map(String::from).collect(),
            Some(d) => split_multi(s, d),
        })
        .collect();
    let n = pieces.first().map_or(0, |p| p.len());
    if pieces.iter().any(|p| p.len() != n) {
        return Err(MError::new(
            "MATLAB:string:MustHaveSameNumberOf",
            "Each element of the input must split into the same number of pieces.",
        ));
    }
    let as_string = a[0].is_string();
    if items.len() == 1 && shape.numel() <= 1 {
        return one(texts_like(as_string, Shape::col(n), pieces.concat()));
    }
    // The pieces go along the first dimension of size 1 (columns for a column input).
    let mut dims = shape.dims().to_vec();
    let at = dims.iter().position(|&d| d == 1).unwrap_or(dims.len());
    if at == dims.len() {
        dims.push(1);
    }
    dims[at] = n;
    let out_shape = Shape::new(&dims);
    let stride: usize = shape.dims()[..at].iter().product();
    let mut data = vec![String::new(); items.len() * n];
    for (k, p) in pieces.into_iter().enumerate() {
        let (lo, hi) = (k % stride.max(1), k / stride.max(1));
        for (j, piece) in p.into_iter().enumerate() {
            data[lo + stride * (j + n * hi)] = piece;
        }
    }
    one(texts_like(as_string, out_shape, data))
}

/// join(str, delim): joins along the last dimension whose size is not 1; the result has the
/// input's kind (string or cell).
fn join(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (items, shape, _) = texts(&a[0], "join")?;
    let d = match a.get(1) {
        Some(v) => text_arg(v, "join")?,
        None => " ".into(),
    };
    let dims = shape.dims().to_vec();
    let Some(at) = dims.iter().rposition(|&x| x != 1) else {
        return one(texts_like(
            a[0].is_string() || a[0].is_char(),
            Shape::scalar(),
            items,
        ));
    };
    let stride: usize = dims[..at].iter().product();
    let len = dims[at];
    let outer = items.len() / (stride * len).max(1);
    let mut out = Vec::with_capacity(stride * outer);
    for o in 0..outer {
        for lo in 0..stride {
            let row: Vec<&str> = (0..len)
                .map(|j| items[lo + stride * (j + len * o)].as_str())
                .collect();
            out.push(row.join(&d));
        }
    }
    let mut odims = dims.clone();
    odims[at] = 1;
    one(texts_like(
        !matches!(a[0], Value::Cell(_)),
        Shape::new(&odims),
        out,
    ))
}
