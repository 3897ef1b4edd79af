//! Text functions for char arrays, cell arrays of char, and string arrays.

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::containers::{CellArray, StrArray, StructArray};
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;
use fancy_regex::Regex;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

pub fn table() -> Vec<Builtin> {
    vec![
        b(
            "upper",
            1,
            1,
            1,
            "upper(S): convert text to upper case.",
            upper,
        ),
        b(
            "lower",
            1,
            1,
            1,
            "lower(S): convert text to lower case.",
            lower,
        ),
        b(
            "strtrim",
            1,
            1,
            1,
            "strtrim(S): remove leading and trailing whitespace.",
            strtrim,
        ),
        b(
            "deblank",
            1,
            1,
            1,
            "deblank(S): remove trailing whitespace.",
            deblank,
        ),
        b("blanks", 1, 1, 1, "blanks(n): a row of n spaces.", blanks),
        b(
            "newline",
            0,
            0,
            1,
            "newline: the newline character.",
            newline,
        ),
        b(
            "strcat",
            1,
            -1,
            1,
            "strcat(s1, s2, ...): concatenate text (trailing spaces of char arguments are removed).",
            strcat,
        ),
        b(
            "strvcat",
            1,
            -1,
            1,
            "strvcat(s1, s2, ...): stack text as rows of a char matrix (empty strings skipped).",
            strvcat,
        ),
        b(
            "strcmp",
            2,
            2,
            1,
            "strcmp(a, b): true if the texts are identical (elementwise over cells).",
            strcmp,
        ),
        b(
            "strcmpi",
            2,
            2,
            1,
            "strcmpi(a, b): strcmp ignoring case.",
            strcmpi,
        ),
        b(
            "strncmp",
            3,
            3,
            1,
            "strncmp(a, b, n): compare the first n characters.",
            strncmp,
        ),
        b(
            "strncmpi",
            3,
            3,
            1,
            "strncmpi(a, b, n): strncmp ignoring case.",
            strncmpi,
        ),
        b(
            "strfind",
            2,
            2,
            1,
            "strfind(text, pattern): starting indices of occurrences.",
            strfind,
        ),
        b(
            "strrep",
            3,
            3,
            1,
            "strrep(text, old, new): replace all occurrences.",
            strrep,
        ),
        b(
            "strsplit",
            1,
            2,
            1,
            "strsplit(text, delimiter): split text into a cell array (default delimiter: whitespace).",
            strsplit,
        ),
        b(
            "strjoin",
            1,
            2,
            1,
            "strjoin(C, delimiter): join a cell array of text (default delimiter: space).",
            strjoin,
        ),
        b(
            "strtok",
            1,
            2,
            2,
            "[token, rest] = strtok(text, delimiters): first token.",
            strtok,
        ),
        b(
            "contains",
            2,
            4,
            1,
            "contains(text, pattern): true if the pattern occurs.",
            contains,
        ),
        b(
            "startsWith",
            2,
            4,
            1,
            "startsWith(text, pattern): true if the text starts with the pattern.",
            starts_with,
        ),
        b(
            "endsWith",
            2,
            4,
            1,
            "endsWith(text, pattern): true if the text ends with the pattern.",
            ends_with,
        ),
        b(
            "count",
            2,
            4,
            1,
            "count(text, pattern): number of occurrences.",
            count,
        ),
        b(
            "replace",
            3,
            3,
            1,
            "replace(text, old, new): replace all occurrences.",
            replace,
        ),
        b(
            "split",
            1,
            2,
            1,
            "split(text, delimiter): split a string into a string array.",
            split,
        ),
        b(
            "join",
            1,
            2,
            1,
            "join(strs, delimiter): join a string array.",
            join,
        ),
        b(
            "regexp",
            2,
            -1,
            6,
            "regexp(text, pattern, options...): regular expression match ('match', 'tokens', 'names', 'once', 'split', 'start').",
            regexp,
        ),
        b(
            "regexpi",
            2,
            -1,
            6,
            "regexpi(text, pattern, ...): case-insensitive regexp.",
            regexpi,
        ),
        b(
            "regexprep",
            3,
            -1,
            1,
            "regexprep(text, pattern, replacement, 'once'|'ignorecase'): replace regular expression matches ($1 refers to tokens).",
            regexprep,
        ),
        b(
            "str2num",
            1,
            1,
            2,
            "str2num(text): evaluate text as a numeric expression.",
            str2num,
        ),
        b(
            "str2double",
            1,
            1,
            1,
            "str2double(text): text to a double (NaN when it is not a number).",
            str2double,
        ),
        b(
            "isspace",
            1,
            1,
            1,
            "isspace(S): true for whitespace characters.",
            isspace,
        ),
        b(
            "isletter",
            1,
            1,
            1,
            "isletter(S): true for letters.",
            isletter,
        ),
        b(
            "isstrprop",
            2,
            2,
            1,
            "isstrprop(S, category): character categories ('alpha', 'digit', 'alphanum', 'upper', 'lower', 'wspace', 'punct').",
            isstrprop,
        ),
        b(
            "iscellstr",
            1,
            1,
            1,
            "iscellstr(C): true for a cell array of character vectors.",
            iscellstr,
        ),
        b(
            "string",
            0,
            1,
            1,
            "string(X): convert to a string array.",
            string,
        ),
        b(
            "strings",
            0,
            -1,
            1,
            "strings(m, n): a string array of empty strings.",
            strings,
        ),
        b(
            "dec2bin",
            1,
            2,
            1,
            "dec2bin(d, n): binary text of nonnegative integers.",
            dec2bin,
        ),
        b(
            "bin2dec",
            1,
            1,
            1,
            "bin2dec(text): the integer a binary text represents.",
            bin2dec,
        ),
        b(
            "dec2hex",
            1,
            2,
            1,
            "dec2hex(d, n): hexadecimal text of nonnegative integers.",
            dec2hex,
        ),
        b(
            "hex2dec",
            1,
            1,
            1,
            "hex2dec(text): the integer a hexadecimal text represents.",
            hex2dec,
        ),
        b(
            "validatestring",
            2,
            -1,
            1,
            "validatestring(str, options): the option that str unambiguously matches.",
            validatestring,
        ),
        b(
            "compose",
            1,
            -1,
            1,
            "compose(format, A, ...): formatted text as a string array, one element per data row.",
            compose,
        ),
        b(
            "pad",
            1,
            3,
            1,
            "pad(text, n): pad with spaces to n characters.",
            pad_fn,
        ),
        b(
            "reverse",
            1,
            1,
            1,
            "reverse(text): reverse the characters.",
            reverse,
        ),
        b(
            "strlength",
            1,
            1,
            1,
            "strlength(text): number of characters.",
            strlength,
        ),
    ]
}

/// Applies `f` to each text of a char row, a cell of texts, or a string array, keeping the kind.
fn map_text(v: &Value, name: &str, f: &dyn Fn(&str) -> String) -> MResult<Value> {
    match v {
        Value::Tensor(t) if t.class() == Class::Char => {
            if t.shape.rows() <= 1 {
                Ok(Value::str(&f(&t.to_text())))
            } else {
                let rows: Vec<String> = super::types::char_rows(t).iter().map(|r| f(r)).collect();
                Ok(super::types::char_matrix(&rows))
            }
        }
        Value::Cell(c) => {
            let data = c
                .data
                .iter()
                .map(|e| map_text(e, name, f))
                .collect::<MResult<_>>()?;
            Ok(Value::from(CellArray::new(c.shape.clone(), data)))
        }
        Value::Str(s) => Ok(Value::from(StrArray::new(
            s.shape.clone(),
            s.data.iter().map(|x| f(x)).collect(),
        ))),
        v if v.is_numeric_like() => Ok(v.clone()),
        other => Err(bad_arg(
            name,
            format!("Input must be text, not {}.", other.class_name()),
        )),
    }
}

fn upper(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(map_text(&a[0], "upper", &|s| s.to_uppercase())?)
}
fn lower(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(map_text(&a[0], "lower", &|s| s.to_lowercase())?)
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
                out.push(e.text().map_err(|_| {
                    bad_arg(
                        name,
                        "Cell elements must be character vectors or string scalars.",
                    )
                })?);
            }
            Ok((out, c.shape.clone(), true))
        }
        Value::Str(s) => Ok((s.data.clone(), s.shape.clone(), true)),
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
        let shape = lists
            .iter()
            .find(|l| l.0.len() == n && l.2)
            .map(|l| l.1.clone())
            .unwrap_or(Shape::scalar());
        let mut out = vec![String::new(); n];
        for (l, _, _) in &lists {
            for (k, o) in out.iter_mut().enumerate() {
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
            out.iter().map(|s| Value::str(s)).collect(),
        ));
    }
    let mut s = String::new();
    for v in &a {
        if v.is_char() {
            s.push_str(v.text()?.trim_end_matches([' ', '\t', '\n', '\0']));
        } else if v.is_numeric_like() {
            s.push_str(&v.tensor()?.cast(Class::Char).to_text());
        }
    }
    one(Value::str(&s))
}

fn strvcat(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mut rows = Vec::new();
    for v in &a {
        let (t, _, _) = texts(v, "strvcat")?;
        rows.extend(t.into_iter().filter(|s| !s.is_empty()));
    }
    one(super::types::char_matrix(&rows))
}

fn compare(a: &Value, b: &Value, f: &dyn Fn(&str, &str) -> bool, whole: bool) -> Value {
    let as_text = |v: &Value| -> Option<String> {
        match v {
            Value::Tensor(t) if t.class() == Class::Char && t.shape.rows() <= 1 => {
                Some(t.to_text())
            }
            Value::Str(s) if s.data.len() == 1 => Some(s.data[0].clone()),
            _ => None,
        }
    };
    let list = |v: &Value| -> Option<(Vec<Option<String>>, Shape)> {
        match v {
            Value::Cell(c) => Some((
                c.data
                    .iter()
                    .map(|e| {
                        if e.is_char() || e.is_string() {
                            e.text().ok()
                        } else {
                            None
                        }
                    })
                    .collect(),
                c.shape.clone(),
            )),
            Value::Str(s) if s.data.len() != 1 => {
                Some((s.data.iter().cloned().map(Some).collect(), s.shape.clone()))
            }
            _ => None,
        }
    };
    match (list(a), list(b)) {
        (Some((la, sa)), Some((lb, sb))) => {
            if la.len() == lb.len() {
                Value::from(Tensor::bools(
                    sa,
                    la.iter()
                        .zip(&lb)
                        .map(|(x, y)| matches!((x, y), (Some(x), Some(y)) if f(x, y)))
                        .collect(),
                ))
            } else if lb.len() == 1 {
                Value::from(Tensor::bools(
                    sa,
                    la.iter()
                        .map(|x| matches!((x, &lb[0]), (Some(x), Some(y)) if f(x, y)))
                        .collect(),
                ))
            } else if la.len() == 1 {
                Value::from(Tensor::bools(
                    sb,
                    lb.iter()
                        .map(|y| matches!((&la[0], y), (Some(x), Some(y)) if f(x, y)))
                        .collect(),
                ))
            } else {
                Value::Bool(false)
            }
        }
        (Some((la, sa)), None) => {
            let y = as_text(b);
            Value::from(Tensor::bools(
                sa,
                la.iter()
                    .map(|x| matches!((x, &y), (Some(x), Some(y)) if f(x, y)))
                    .collect(),
            ))
        }
        (None, Some((lb, sb))) => {
            let x = as_text(a);
            Value::from(Tensor::bools(
                sb,
                lb.iter()
                    .map(|y| matches!((&x, y), (Some(x), Some(y)) if f(x, y)))
                    .collect(),
            ))
        }
        (None, None) => {
            // char matrices compare whole (same size and contents)
            if whole
                && a.is_char()
                && b.is_char()
                && a.shape() != b.shape()
                && !(a.is_empty() && b.is_empty())
            {
                return Value::Bool(false);
            }
            match (as_text(a), as_text(b)) {
                (Some(x), Some(y)) => Value::Bool(f(&x, &y)),
                _ => {
                    if a.is_char() && b.is_char() {
                        Value::Bool(
                            a.tensor().ok().map(|t| t.to_text())
                                == b.tensor().ok().map(|t| t.to_text()),
                        )
                    } else {
                        Value::Bool(false)
                    }
                }
            }
        }
    }
}

fn strcmp(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(compare(&a[0], &a[1], &|x, y| x == y, true))
}
fn strcmpi(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(compare(
        &a[0],
        &a[1],
        &|x, y| x.to_lowercase() == y.to_lowercase(),
        true,
    ))
}
fn prefix_eq(x: &str, y: &str, n: usize, fold: bool) -> bool {
    let xs: Vec<char> = x.chars().collect();
    let ys: Vec<char> = y.chars().collect();
    if xs.len() < n || ys.len() < n {
        return false;
    }
    (0..n).all(|i| {
        if fold {
            xs[i].to_lowercase().eq(ys[i].to_lowercase())
        } else {
            xs[i] == ys[i]
        }
    })
}
fn strncmp(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = a[2].scalar_f64()?.max(0.0) as usize;
    one(compare(
        &a[0],
        &a[1],
        &|x, y| prefix_eq(x, y, n, false),
        false,
    ))
}
fn strncmpi(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = a[2].scalar_f64()?.max(0.0) as usize;
    one(compare(
        &a[0],
        &a[1],
        &|x, y| prefix_eq(x, y, n, true),
        false,
    ))
}

fn find_all(hay: &str, needle: &str) -> Vec<f64> {
    let h: Vec<char> = hay.chars().collect();
    let n: Vec<char> = needle.chars().collect();
    if n.is_empty() || n.len() > h.len() {
        return vec![];
    }
    (0..=h.len() - n.len())
        .filter(|&i| h[i..i + n.len()] == n[..])
        .map(|i| (i + 1) as f64)
        .collect()
}

fn strfind(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let pat = text_arg(&a[1], "strfind")?;
    match &a[0] {
        Value::Cell(c) => {
            let data = c
                .data
                .iter()
                .map(|e| {
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
    one(map_text(&a[0], "strrep", &|s| s.replace(&old, &new))?)
}

fn replace(i: &mut Interp, f: &mut Frame, a: A, n: usize) -> R {
    strrep(i, f, a, n)
}

fn strsplit(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = text_arg(&a[0], "strsplit")?;
    let parts: Vec<String> = match a.get(1) {
        None => s
            .split(|c: char| c.is_whitespace())
            .map(String::from)
            .collect(),
        Some(d) => {
            let (delims, _, _) = texts(d, "strsplit")?;
            let delims: Vec<String> = delims
                .iter()
                .map(|d| crate::display::printf::unescape(d))
                .collect();
            split_multi(&s, &delims)
        }
    };
    let parts = if a.get(1).is_none() {
        // consecutive whitespace collapses by default
        let mut out: Vec<String> = Vec::new();
        let mut prev_empty = false;
        for (k, p) in parts.into_iter().enumerate() {
            if p.is_empty() && k > 0 && prev_empty {
                continue;
            }
            prev_empty = p.is_empty();
            out.push(p);
        }
        out
    } else {
        parts
    };
    one(CellArray::row(
        parts.iter().map(|p| Value::str(p)).collect(),
    ))
}

fn split_multi(s: &str, delims: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut rest = s;
    'outer: while !rest.is_empty() {
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
    let (parts, _, _) = texts(&a[0], "strjoin")?;
    let d = match a.get(1) {
        Some(v) => crate::display::printf::unescape(&text_arg(v, "strjoin")?),
        None => " ".to_string(),
    };
    let s = parts.join(&d);
    if a[0].is_string() {
        one(Value::string(&s))
    } else {
        one(Value::str(&s))
    }
}

fn strtok(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let s: Vec<char> = text_arg(&a[0], "strtok")?.chars().collect();
    let delims: Vec<char> = match a.get(1) {
        Some(v) => text_arg(v, "strtok")?.chars().collect(),
        None => vec![' ', '\t', '\n', '\r', '\u{b}', '\u{c}', '\0'],
    };
    let start = s
        .iter()
        .position(|c| !delims.contains(c))
        .unwrap_or(s.len());
    let end = s[start..]
        .iter()
        .position(|c| delims.contains(c))
        .map(|p| start + p)
        .unwrap_or(s.len());
    let tok: String = s[start..end].iter().collect();
    let rest: String = s[end..].iter().collect();
    let mut out = vec![Value::str(&tok)];
    if nargout > 1 {
        out.push(Value::str(&rest));
    }
    Ok(out)
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
                list.iter().map(|s| test(s)).collect(),
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

fn split(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = text_arg(&a[0], "split")?;
    let parts: Vec<String> = match a.get(1) {
        None => s.split_whitespace().map(String::from).collect(),
        Some(d) => split_multi(&s, &texts(d, "split")?.0),
    };
    let n = parts.len();
    one(StrArray::new(Shape::col(n), parts))
}

fn join(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (parts, _, _) = texts(&a[0], "join")?;
    let d = match a.get(1) {
        Some(v) => text_arg(v, "join")?,
        None => " ".into(),
    };
    one(Value::string(&parts.join(&d)))
}

/// Translates MATLAB regular expression syntax to the engine's: `(?<name>` is accepted by
/// both; MATLAB's `\<` and `\>` word anchors become `\b`.
fn compile(pat: &str, ignore_case: bool) -> MResult<Regex> {
    let p = pat.replace("\\<", "\\b").replace("\\>", "\\b");
    let p = if ignore_case { format!("(?i){p}") } else { p };
    Regex::new(&p).map_err(|e| {
        MError::new(
            "MATLAB:regexp:invalidPattern",
            format!("Invalid regular expression: {e}"),
        )
    })
}

fn char_index(s: &str, byte: usize) -> usize {
    s[..byte].chars().count()
}

fn regexp_impl(a: A, nargout: usize, ignore_case: bool) -> R {
    let pat = text_arg(&a[1], "regexp")?;
    let mut opts: Vec<String> = Vec::new();
    for v in &a[2..] {
        opts.push(text_arg(v, "regexp")?.to_lowercase());
    }
    let once = opts.iter().any(|o| o == "once");
    let ic = ignore_case || opts.iter().any(|o| o == "ignorecase");
    let re = compile(&pat, ic)?;
    if let Value::Cell(c) = &a[0] {
        // each element separately, results in cells
        let mut outs: Vec<Vec<Value>> = vec![Vec::new(); nargout.max(1)];
        for e in &c.data {
            let mut args = vec![e.clone(), a[1].clone()];
            args.extend(a[2..].iter().cloned());
            let r = regexp_impl(args, nargout.max(1), ignore_case)?;
            for (k, v) in r.into_iter().enumerate() {
                if k < outs.len() {
                    outs[k].push(v);
                }
            }
        }
        return Ok(outs
            .into_iter()
            .map(|v| Value::from(CellArray::new(c.shape.clone(), v)))
            .collect());
    }
    let s = text_arg(&a[0], "regexp")?;
    let mut matches = Vec::new();
    for m in re.captures_iter(s.as_str()) {
        let m = m.map_err(|e| {
            MError::new(
                "MATLAB:regexp:failed",
                format!("Regular expression failed: {e}"),
            )
        })?;
        matches.push(m);
        if once {
            break;
        }
    }
    let names: Vec<String> = re.capture_names().flatten().map(String::from).collect();
    let empty_row = || Value::from(Tensor::f64(Shape::matrix(1, 0), vec![]));
    let mut results: Vec<(String, Value)> = Vec::new();
    let start: Vec<f64> = matches
        .iter()
        .filter_map(|m| m.get(0))
        .map(|m| (char_index(&s, m.start()) + 1) as f64)
        .collect();
    let end: Vec<f64> = matches
        .iter()
        .filter_map(|m| m.get(0))
        .map(|m| char_index(&s, m.end()) as f64)
        .collect();
    let text_of = |m: &fancy_regex::Captures<str>| {
        m.get(0).map(|x| x.as_str().to_string()).unwrap_or_default()
    };
    let tokens_of = |m: &fancy_regex::Captures<str>| -> Value {
        let toks: Vec<Value> = if m.len() > 1 {
            (1..m.len())
                .map(|k| Value::str(m.get(k).map(|x| x.as_str()).unwrap_or("")))
                .collect()
        } else {
            vec![Value::str(&text_of(m))]
        };
        Value::from(CellArray::row(toks))
    };
    let match_v = if once {
        matches
            .first()
            .map(|m| Value::str(&text_of(m)))
            .unwrap_or_else(|| Value::str(""))
    } else {
        Value::from(CellArray::row(
            matches.iter().map(|m| Value::str(&text_of(m))).collect(),
        ))
    };
    let tokens_v = if once {
        matches
            .first()
            .map(tokens_of)
            .unwrap_or_else(|| Value::from(CellArray::new(Shape::matrix(1, 0), vec![])))
    } else {
        Value::from(CellArray::row(matches.iter().map(tokens_of).collect()))
    };
    let names_v = {
        let mut st = StructArray::empty_with(names.clone(), Shape::scalar());
        if let Some(m) = matches.first() {
            for n in &names {
                st.set(
                    0,
                    n,
                    Value::str(m.name(n).map(|x| x.as_str()).unwrap_or("")),
                );
            }
        }
        if matches.len() > 1 && !once {
            st = StructArray::empty_with(names.clone(), Shape::row(matches.len()));
            for (i, m) in matches.iter().enumerate() {
                for n in &names {
                    st.set(
                        i,
                        n,
                        Value::str(m.name(n).map(|x| x.as_str()).unwrap_or("")),
                    );
                }
            }
        }
        Value::from(st)
    };
    let split_v = {
        let mut pieces = Vec::new();
        let mut last = 0;
        for m in &matches {
            if let Some(x) = m.get(0) {
                pieces.push(Value::str(&s[last..x.start()]));
                last = x.end();
            }
        }
        pieces.push(Value::str(&s[last..]));
        Value::from(CellArray::row(pieces))
    };
    let start_v = if once {
        start
            .first()
            .map(|&x| Value::Num(x))
            .unwrap_or_else(empty_row)
    } else if start.is_empty() {
        empty_row()
    } else {
        Value::row(start.clone())
    };
    let end_v = if once {
        end.first()
            .map(|&x| Value::Num(x))
            .unwrap_or_else(empty_row)
    } else if end.is_empty() {
        empty_row()
    } else {
        Value::row(end.clone())
    };
    results.push(("start".into(), start_v));
    results.push(("end".into(), end_v));
    results.push((
        "tokenextents".into(),
        Value::from(CellArray::new(Shape::matrix(1, 0), vec![])),
    ));
    results.push(("match".into(), match_v));
    results.push(("tokens".into(), tokens_v));
    results.push(("names".into(), names_v));
    results.push(("split".into(), split_v));
    let selected: Vec<&String> = opts
        .iter()
        .filter(|o| results.iter().any(|(n, _)| n == *o))
        .collect();
    let order: Vec<String> = if selected.is_empty() {
        results.iter().map(|(n, _)| n.clone()).collect()
    } else {
        selected.into_iter().cloned().collect()
    };
    Ok(order
        .iter()
        .take(nargout.max(1))
        .map(|n| {
            results
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(Value::empty)
        })
        .collect())
}

fn regexp(_: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    regexp_impl(a, n, false)
}
fn regexpi(_: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    regexp_impl(a, n, true)
}

/// MATLAB replacement text: `$N` refers to token N; `$0` to the whole match.
fn translate_replacement(r: &str) -> String {
    let mut out = String::new();
    let mut chars = r.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' {
            let mut num = String::new();
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                num.push(*d);
                chars.next();
            }
            if num.is_empty() {
                out.push_str("$$");
            } else {
                out.push_str(&format!("${{{num}}}"));
            }
        } else if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('$') => out.push_str("$$"),
                Some(x) => out.push(x),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn regexprep(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (pats, _, _) = texts(&a[1], "regexprep")?;
    let (reps, _, _) = texts(&a[2], "regexprep")?;
    let flags: Vec<String> = a[3..]
        .iter()
        .filter_map(|v| v.text().ok())
        .map(|s| s.to_lowercase())
        .collect();
    let once = flags.iter().any(|f| f == "once");
    let ic = flags.iter().any(|f| f == "ignorecase");
    let mut res = Vec::new();
    for (k, p) in pats.iter().enumerate() {
        let rep = if reps.len() == 1 {
            &reps[0]
        } else {
            reps.get(k).unwrap_or(&reps[0])
        };
        res.push((compile(p, ic)?, translate_replacement(rep)));
    }
    let f = |s: &str| -> String {
        let mut cur = s.to_string();
        for (re, rep) in &res {
            cur = if once {
                re.replacen(&cur, 1, rep.as_str()).into_owned()
            } else {
                re.replace_all(&cur, rep.as_str()).into_owned()
            };
        }
        cur
    };
    one(map_text(&a[0], "regexprep", &f)?)
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

fn str2double(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    match &a[0] {
        Value::Cell(c) => one(Tensor::f64(
            c.shape.clone(),
            c.data
                .iter()
                .map(|e| e.text().map(|s| parse_double(&s)).unwrap_or(f64::NAN))
                .collect(),
        )),
        Value::Str(s) => one(Tensor::f64(
            s.shape.clone(),
            s.data.iter().map(|x| parse_double(x)).collect(),
        )),
        v if v.is_char() => {
            let t = v.tensor()?;
            if t.shape.rows() > 1 {
                return one(Value::col(
                    super::types::char_rows(&t)
                        .iter()
                        .map(|r| parse_double(r))
                        .collect(),
                ));
            }
            one(Value::Num(parse_double(&t.to_text())))
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
                t.to_text().chars().map(f).collect(),
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

fn radix_text(a: &A, radix: u32, name: &str) -> MResult<Value> {
    let t = a[0].tensor()?;
    let min_len = match a.get(1) {
        Some(v) => v.scalar_f64()? as usize,
        None => 0,
    };
    let mut rows = Vec::new();
    for &x in t.to_f64().iter() {
        if x < 0.0 || x.fract() != 0.0 {
            return Err(bad_arg(name, "Input must be nonnegative integers."));
        }
        let v = x as u64;
        let s = match radix {
            2 => format!("{v:b}"),
            _ => format!("{v:X}"),
        };
        rows.push(s);
    }
    let w = rows.iter().map(|r| r.len()).max().unwrap_or(0).max(min_len);
    let rows: Vec<String> = rows
        .iter()
        .map(|r| format!("{}{r}", "0".repeat(w - r.len())))
        .collect();
    Ok(super::types::char_matrix(&rows))
}

fn dec2bin(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(radix_text(&a, 2, "dec2bin")?)
}
fn dec2hex(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(radix_text(&a, 16, "dec2hex")?)
}
fn parse_radix(a: &A, radix: u32, name: &str) -> MResult<Value> {
    let (list, _, _) = texts(&a[0], name)?;
    let vals: Vec<f64> = list
        .iter()
        .map(|s| {
            u64::from_str_radix(s.trim(), radix)
                .map(|v| v as f64)
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
    one(parse_radix(&a, 2, "bin2dec")?)
}
fn hex2dec(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(parse_radix(&a, 16, "hex2dec")?)
}

fn validatestring(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = text_arg(&a[0], "validatestring")?;
    let (opts, _, _) = texts(&a[1], "validatestring")?;
    let hits: Vec<&String> = opts
        .iter()
        .filter(|o| o.to_lowercase().starts_with(&s.to_lowercase()))
        .collect();
    match hits.as_slice() {
        [one_hit] => one(Value::str(one_hit)),
        _ => {
            if let Some(exact) = opts.iter().find(|o| o.eq_ignore_ascii_case(&s)) {
                return one(Value::str(exact));
            }
            Err(MError::new(
                "MATLAB:unrecognizedStringChoice",
                format!(
                    "Expected input to match one of these values:\n\n'{}'\n\nThe input, '{s}', did not match any of the valid values.",
                    opts.join("', '")
                ),
            ))
        }
    }
}

fn compose(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let fmt = crate::display::printf::unescape(&text_arg(&a[0], "compose")?);
    if a.len() == 1 {
        return one(Value::string(&crate::display::printf::sprintf(&fmt, &[])?));
    }
    let cols: Vec<Tensor> = a[1..]
        .iter()
        .map(|v| v.tensor().map(|t| t.into_owned()))
        .collect::<MResult<_>>()?;
    let n = if cols.iter().any(|t| t.numel() == 0) {
        0
    } else {
        cols.iter().map(|t| t.numel()).max().unwrap_or(0)
    };
    if cols.iter().any(|t| t.numel() != 1 && t.numel() != n) {
        return Err(bad_arg("compose", "Dimensions of arguments must agree."));
    }
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let args: Vec<Value> = cols
            .iter()
            .map(|t| Value::Num(t.get_f64(if t.numel() == 1 { 0 } else { i })))
            .collect();
        out.push(crate::display::printf::sprintf(&fmt, &args)?);
    }
    one(StrArray::new(Shape::col(n), out))
}

fn pad_fn(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = match a.get(1) {
        Some(v) => v.scalar_f64()? as usize,
        None => 0,
    };
    one(map_text(&a[0], "pad", &|s| format!("{s:<n$}"))?)
}
fn reverse(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(map_text(&a[0], "reverse", &|s| s.chars().rev().collect())?)
}
fn strlength(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (list, shape, _) = texts(&a[0], "strlength")?;
    one(Tensor::f64(
        shape,
        list.iter().map(|s| s.chars().count() as f64).collect(),
    ))
}
