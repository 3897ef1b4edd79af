//! Text functions for char arrays, cell arrays of char, and string arrays.

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::containers::{CellArray, StrArray};
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("upper", 1, 1, 1, "upper(S): convert text to upper case.", upper),
        b("lower", 1, 1, 1, "lower(S): convert text to lower case.", lower),
        b("strtrim", 1, 1, 1, "strtrim(S): remove leading and trailing whitespace.", strtrim),
        b("deblank", 1, 1, 1, "deblank(S): remove trailing whitespace.", deblank),
        b("blanks", 1, 1, 1, "blanks(n): a row of n spaces.", blanks),
        b("newline", 0, 0, 1, "newline: the newline character.", newline),
        b("strcat", 1, -1, 1, "strcat(s1, s2, ...): concatenate text (trailing spaces of char arguments are removed).", strcat),
        b("strvcat", 1, -1, 1, "strvcat(s1, s2, ...): stack text as rows of a char matrix (empty strings skipped).", strvcat),
        b("strfind", 2, 4, 1, "strfind(text, pattern), strfind(..., 'ForceCellOutput', tf): starting indices of occurrences.", strfind),
        b("strrep", 3, 3, 1, "strrep(text, old, new): replace all occurrences.", strrep),
        b("contains", 2, 4, 1, "contains(text, pattern): true if the pattern occurs.", contains),
        b("startsWith", 2, 4, 1, "startsWith(text, pattern): true if the text starts with the pattern.", starts_with),
        b("endsWith", 2, 4, 1, "endsWith(text, pattern): true if the text ends with the pattern.", ends_with),
        b("count", 2, 4, 1, "count(text, pattern): number of occurrences.", count),
        b("replace", 3, 3, 1, "replace(text, old, new): replace all occurrences.", replace),
        b("validatestring", 2, -1, 1, "validatestring(str, options): the option that str unambiguously matches.", validatestring),
        b("pad", 1, 4, 1, "pad(text, n, side, char): pad to n characters on the 'right' (default), 'left' or 'both' sides.", pad_fn),
        b("reverse", 1, 1, 1, "reverse(text): reverse the characters.", reverse),
        b("strlength", 1, 1, 1, "strlength(text): number of characters.", strlength),
    ]
}

/// Applies `f` to each text of a char row, a cell of texts, or a string array, keeping the kind.
pub(super) fn map_text(v: &Value, name: &str, f: &dyn Fn(&str) -> String) -> MResult<Value> {
    match v {
        Value::Tensor(t) if t.class() == Class::Char => {
            if t.shape.rows() <= 1 {
                let out = f(&t.to_text());
                if out.is_empty() && t.shape.dims() == [0, 0] {
                    // '' stays 0x0
                    return Ok(v.clone());
                }
                Ok(Value::str(&out))
            } else {
                let rows: Vec<String> = super::types::char_rows(t).iter().map(|r| f(r)).collect();
                Ok(super::types::char_matrix(&rows))
            }
        }
        Value::Cell(c) => {
            let data = c
                .data
                .iter()
                .map(|e| match e {
                    e if e.is_char() || e.is_string() => {
                        crate::interp::interrupt::poll();
                        map_text(e, name, f)
                    }
                    _ => Err(MError::new(
                        format!("MATLAB:{name}:InputClass"),
                        "Cell elements must be character vectors.",
                    )),
                })
                .collect::<MResult<_>>()?;
            Ok(Value::from(CellArray::new(c.shape.clone(), data)))
        }
        Value::Str(s) => Ok(Value::from(StrArray::new(
            s.shape.clone(),
            s.data
                .iter()
                .map(|x| {
                    crate::interp::interrupt::poll();
                    f(x)
                })
                .collect(),
        ))),
        _ => Err(MError::new(
            format!("MATLAB:{name}:InputClass"),
            "Input should be a string, character array, or cell array of character arrays.",
        )),
    }
}

/// `map_text` for functions that give back numbers unchanged (upper, lower).
fn map_text_or_number(v: &Value, name: &str, f: &dyn Fn(&str) -> String) -> MResult<Value> {
    if v.is_numeric_like() && !v.is_char() {
        return Ok(v.clone());
    }
    map_text(v, name, f)
}

fn upper(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(map_text_or_number(&a[0], "upper", &|s| s.to_uppercase())?)
}
fn lower(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(map_text_or_number(&a[0], "lower", &|s| s.to_lowercase())?)
}
fn is_ws(c: char) -> bool {
    c.is_whitespace() || c == '\0'
}
fn strtrim(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if let Value::Tensor(t) = &a[0] {
        if t.class() == Class::Char && t.shape.rows() > 1 {
            // trim the columns that are blank in every row
            let rows = super::types::char_rows(t);
            let lead = rows
                .iter()
                .map(|r| r.len() - r.trim_start_matches(is_ws).len())
                .min()
                .unwrap_or(0);
            let trail = rows
                .iter()
                .map(|r| r.len() - r.trim_end_matches(is_ws).len())
                .min()
                .unwrap_or(0);
            let out: Vec<String> = rows
                .iter()
                .map(|r| r[lead..r.len() - trail].to_string())
                .collect();
            return one(super::types::char_matrix(&out));
        }
    }
    one(map_text(&a[0], "strtrim", &|s| {
        s.trim_matches(is_ws).to_string()
    })?)
}
fn deblank(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(map_text(&a[0], "deblank", &|s| {
        s.trim_end_matches(is_ws).to_string()
    })?)
}
fn blanks(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = a[0].scalar_f64()?.max(0.0) as usize;
    crate::values::limits::check_count(n, 2)?;
    one(Value::str(&" ".repeat(n)))
}
fn newline(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::str("\n"))
}

/// Texts of a char row / cell of char / string array argument, with the shape of the list.
pub fn texts(v: &Value, name: &str) -> MResult<(Vec<String>, Shape, bool)> {
    match v {
        Value::Tensor(t) if t.class() == Class::Char => {
            if t.shape.rows() <= 1 {
                Ok((vec![t.to_text()], Shape::scalar(), false))
            } else {
                let rows = super::types::char_rows(t);
                let n = rows.len();
                Ok((rows, Shape::col(n), false))
            }
        }
        Value::Cell(c) => {
            let mut out = Vec::with_capacity(c.data.len());
            for e in &c.data {
                crate::interp::interrupt::poll();
                out.push(e.text().map_err(|_| {
                    bad_arg(
                        name,
                        "Cell elements must be character vectors or string scalars.",
                    )
                })?);
            }
            Ok((out, c.shape.clone(), true))
        }
        Value::Str(s) => Ok((
            s.data
                .iter()
                .inspect(|_| crate::interp::interrupt::poll())
                .cloned()
                .collect(),
            s.shape.clone(),
            true,
        )),
        other => Err(bad_arg(
            name,
            format!("Expected text, got {}.", other.class_name()),
        )),
    }
}

fn strcat(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let any_cell = a.iter().any(|v| matches!(v, Value::Cell(_)));
    let any_string = a.iter().any(|v| v.is_string());
    if any_cell || any_string {
        let lists: Vec<(Vec<String>, Shape, bool)> = a
            .iter()
            .map(|v| texts(v, "strcat"))
            .collect::<MResult<_>>()?;
        let n = lists.iter().map(|l| l.0.len()).max().unwrap_or(1);
        // non-scalar cell and string arguments must agree in size
        if lists
            .iter()
            .any(|l| l.2 && l.0.len() != 1 && l.0.len() != n)
        {
            return Err(MError::new(
                "MATLAB:strcat:InvalidInputSize",
                "All the inputs must be the same size or any of them can be a scalar.",
            ));
        }
        let shape = lists
            .iter()
            .find(|l| l.0.len() == n && l.2)
            .map(|l| l.1.clone())
            .unwrap_or(Shape::scalar());
        let mut out = vec![String::new(); n];
        for (l, _, _) in &lists {
            for (k, o) in out.iter_mut().enumerate() {
                crate::interp::interrupt::poll();
                o.push_str(if l.len() == 1 {
                    &l[0]
                } else {
                    l.get(k).map(|s| s.as_str()).unwrap_or("")
                });
            }
        }
        if any_string {
            return one(StrArray::new(shape, out));
        }
        return one(CellArray::new(
            shape,
            out.iter()
                .map(|s| {
                    crate::interp::interrupt::poll();
                    Value::str(s)
                })
                .collect(),
        ));
    }
    // character arrays: trailing blank columns go, rows join side by side, and a one-row
    // argument is repeated for every row
    let mut blocks: Vec<Vec<String>> = Vec::new();
    for v in &a {
        let t = if v.is_char() {
            v.tensor()?.into_owned()
        } else {
            v.tensor()?.cast(Class::Char)
        };
        let mut rows = super::types::char_rows(&t);
        if v.is_char() {
            let keep = rows
                .iter()
                .map(|r| {
                    r.trim_end_matches([' ', '\t', '\n', '\0', '\x0B', '\x0C', '\r'])
                        .chars()
                        .count()
                })
                .max()
                .unwrap_or(0);
            for r in rows.iter_mut() {
                *r = r.chars().take(keep).collect();
            }
        }
        if t.numel() > 0 || t.shape.rows() > 0 {
            blocks.push(rows);
        }
    }
    let nrows = blocks.iter().map(|b| b.len()).max().unwrap_or(1);
    if blocks.iter().any(|b| b.len() != nrows && b.len() != 1) {
        return Err(MError::new(
            "MATLAB:strcat:InvalidInputSize",
            "All the input arguments must have the same number of rows, or be single rows.",
        ));
    }
    let rows: Vec<String> = (0..nrows)
        .map(|r| {
            blocks
                .iter()
                .map(|b| {
                    if b.len() == 1 {
                        b[0].as_str()
                    } else {
                        b[r].as_str()
                    }
                })
                .collect()
        })
        .collect();
    if nrows == 1 {
        return one(Value::str(&rows[0]));
    }
    one(super::types::char_matrix(&rows))
}

fn strvcat(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mut rows = Vec::new();
    for v in &a {
        let (t, _, _) = texts(v, "strvcat")?;
        rows.extend(t.into_iter().filter(|s| !s.is_empty()));
    }
    one(super::types::char_matrix(&rows))
}

fn find_all(hay: &str, needle: &str) -> Vec<f64> {
    // Ctrl-C is looked at every so many characters (a subject of 4e7 is a second)
    let mut tick = crate::interp::interrupt::Ticker::new();
    let h: Vec<char> = hay.chars().inspect(|_| tick.tick()).collect();
    let n: Vec<char> = needle.chars().collect();
    let Some(&first) = n.first() else {
        return vec![];
    };
    if n.len() > h.len() {
        return vec![];
    }
    let mut found = Vec::new();
    for i in 0..=h.len() - n.len() {
        tick.tick();
        if h[i] == first && h[i..i + n.len()] == n[..] {
            found.push((i + 1) as f64);
        }
    }
    found
}

fn strfind(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let pat = text_arg(&a[1], "strfind")?;
    let force_cell = match (a.get(2), a.get(3)) {
        (Some(k), Some(v)) if text_arg(k, "strfind")?.eq_ignore_ascii_case("forcecelloutput") => {
            v.truthy()?
        }
        (Some(_), _) => {
            return Err(bad_arg(
                "strfind",
                "Expected 'ForceCellOutput' and a value.",
            ));
        }
        _ => false,
    };
    if force_cell && !matches!(a[0], Value::Cell(_)) {
        let cell = Value::from(CellArray::new(Shape::scalar(), vec![a[0].clone()]));
        return strfind_impl(&cell, &pat);
    }
    strfind_impl(&a[0], &pat)
}

fn strfind_impl(text: &Value, pat: &str) -> R {
    let pat = pat.to_string();
    match text {
        Value::Cell(c) => {
            let data = c
                .data
                .iter()
                .map(|e| {
                    crate::interp::interrupt::poll();
                    let idx = find_all(&e.text()?, &pat);
                    Ok(if idx.is_empty() {
                        Value::from(Tensor::f64(Shape::matrix(1, 0), vec![]))
                    } else {
                        Value::row(idx)
                    })
                })
                .collect::<MResult<_>>()?;
            one(CellArray::new(c.shape.clone(), data))
        }
        v => {
            let idx = find_all(&text_arg(v, "strfind")?, &pat);
            if idx.is_empty() {
                return one(Tensor::f64(Shape::matrix(1, 0), vec![]));
            }
            one(Value::row(idx))
        }
    }
}

fn strrep(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (old, new) = (text_arg(&a[1], "strrep")?, text_arg(&a[2], "strrep")?);
    if old.is_empty() {
        return one(a[0].clone());
    }
    one(map_text(&a[0], "strrep", &|s| {
        replace_overlapping(s, &old, &new)
    })?)
}

/// strrep replaces every match, overlapping ones included: each match start emits the
/// replacement and characters covered by any match are dropped ('aaa' with 'aa' -> 'xx').
fn replace_overlapping(s: &str, old: &str, new: &str) -> String {
    let (s, old): (Vec<char>, Vec<char>) = (s.chars().collect(), old.chars().collect());
    let mut covered_until = 0;
    let mut out = String::with_capacity(s.len());
    let mut tick = crate::interp::interrupt::Ticker::new();
    for i in 0..s.len() {
        tick.tick();
        if s[i..].starts_with(&old) {
            out.push_str(new);
            covered_until = i + old.len();
        } else if i >= covered_until {
            out.push(s[i]);
        }
    }
    out
}

fn replace(i: &mut Interp, f: &mut Frame, a: A, n: usize) -> R {
    strrep(i, f, a, n)
}

fn text_pred(a: &A, name: &str, f: &dyn Fn(&str, &str) -> bool) -> MResult<Value> {
    let (pats, _, _) = texts(&a[1], name)?;
    let fold = a.len() >= 4
        && a[2]
            .text()
            .map(|s| s.eq_ignore_ascii_case("IgnoreCase"))
            .unwrap_or(false)
        && a[3].truthy().unwrap_or(false);
    let test = |s: &str| {
        pats.iter().any(|p| {
            if fold {
                f(&s.to_lowercase(), &p.to_lowercase())
            } else {
                f(s, p)
            }
        })
    };
    match &a[0] {
        Value::Cell(_) | Value::Str(_) => {
            let (list, shape, _) = texts(&a[0], name)?;
            Ok(Value::from(Tensor::bools(
                shape,
                list.iter()
                    .map(|s| {
                        crate::interp::interrupt::poll();
                        test(s)
                    })
                    .collect(),
            )))
        }
        v => Ok(Value::Bool(test(&text_arg(v, name)?))),
    }
}

fn contains(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(text_pred(&a, "contains", &|s, p| s.contains(p))?)
}
fn starts_with(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(text_pred(&a, "startsWith", &|s, p| s.starts_with(p))?)
}
fn ends_with(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(text_pred(&a, "endsWith", &|s, p| s.ends_with(p))?)
}

fn count(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (pats, _, _) = texts(&a[1], "count")?;
    let n = |s: &str| {
        pats.iter()
            .map(|p| {
                if p.is_empty() {
                    0
                } else {
                    s.matches(p.as_str()).count()
                }
            })
            .sum::<usize>() as f64
    };
    match &a[0] {
        Value::Cell(_) | Value::Str(_) => {
            let (list, shape, _) = texts(&a[0], "count")?;
            one(Tensor::f64(shape, list.iter().map(|s| n(s)).collect()))
        }
        v => one(Value::Num(n(&text_arg(v, "count")?))),
    }
}

fn validatestring(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = text_arg(&a[0], "validatestring")?;
    let (opts, _, _) = texts(&a[1], "validatestring")?;
    if let Some(exact) = opts.iter().find(|o| o.eq_ignore_ascii_case(&s)) {
        return one(Value::str(exact));
    }
    let lower = s.to_lowercase();
    let hits: Vec<&String> = if s.is_empty() {
        Vec::new()
    } else {
        opts.iter()
            .filter(|o| o.to_lowercase().starts_with(&lower))
            .collect()
    };
    // Several matches are still one answer when the shortest is a prefix of all the others.
    let shortest = hits.iter().min_by_key(|h| h.len()).copied();
    if let Some(short) = shortest {
        let sl = short.to_lowercase();
        if hits.iter().all(|h| h.to_lowercase().starts_with(&sl)) {
            return one(Value::str(short));
        }
    }
    let listed = format!(
        "Expected input to match one of these values:\n\n'{}'\n\nThe input, '{s}', ",
        opts.join("', '")
    );
    Err(if hits.is_empty() {
        MError::new(
            "MATLAB:unrecognizedStringChoice",
            format!("{listed}did not match any of the valid values."),
        )
    } else {
        MError::new(
            "MATLAB:ambiguousStringChoice",
            format!("{listed}matched more than one valid value."),
        )
    })
}

/// pad(str, n, side, char): pads to n characters (default: the longest element).
fn pad_fn(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mut n = None;
    let (mut side, mut fill) = ("right".to_string(), ' ');
    for v in &a[1..] {
        if v.is_text() {
            let t = v.text()?;
            match t.to_ascii_lowercase().as_str() {
                s @ ("left" | "right" | "both") => side = s.to_string(),
                _ if t.chars().count() == 1 => fill = t.chars().next().unwrap_or(' '),
                _ => return Err(bad_arg("pad", "Side must be 'left', 'right' or 'both'.")),
            }
        } else {
            n = Some(super::count_arg(v, "pad", "Number of characters")?);
        }
    }
    let n = match n {
        Some(n) => n,
        None => texts(&a[0], "pad")?
            .0
            .iter()
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(0),
    };
    one(map_text(&a[0], "pad", &|s| {
        let len = s.chars().count();
        let extra = n.saturating_sub(len);
        let (l, r) = match side.as_str() {
            "left" => (extra, 0),
            "both" => (extra / 2, extra - extra / 2),
            _ => (0, extra),
        };
        let f = fill.to_string();
        format!("{}{s}{}", f.repeat(l), f.repeat(r))
    })?)
}
fn reverse(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(map_text(&a[0], "reverse", &|s| s.chars().rev().collect())?)
}
fn strlength(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (list, shape, _) = texts(&a[0], "strlength")?;
    one(Tensor::f64(
        shape,
        list.iter()
            .map(|s| s.encode_utf16().count() as f64)
            .collect(),
    ))
}
