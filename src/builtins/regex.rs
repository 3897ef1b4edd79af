//! Regular expressions: regexp and regexpi (fancy-regex with MATLAB's syntax differences);
//! regexprep is in `regex_replace`.

use super::{Builtin, b, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::containers::{CellArray, StrArray, StructArray};
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;
use fancy_regex::Regex;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("regexp", 2, -1, 7, "regexp(text, pattern, options...): regular expression match ('match', 'tokens', 'names', 'once', 'split', 'start').", regexp),
        b("regexpi", 2, -1, 7, "regexpi(text, pattern, ...): case-insensitive regexp.", regexpi),
    ]
}

/// The matching options regexp, regexpi and regexprep share.
pub(super) struct RegexOpts {
    ignore_case: bool,
    /// `.` matches a newline (MATLAB's default 'dotall').
    dot_all: bool,
    line_anchors: bool,
    free_spacing: bool,
    pub(super) empty_match: bool,
    pub(super) once: bool,
}

impl RegexOpts {
    pub(super) fn parse(flags: &[String], ignore_case: bool) -> RegexOpts {
        let mut o = RegexOpts {
            ignore_case,
            dot_all: true,
            line_anchors: false,
            free_spacing: false,
            empty_match: false,
            once: false,
        };
        for f in flags {
            match f.as_str() {
                "ignorecase" => o.ignore_case = true,
                "matchcase" => o.ignore_case = false,
                "dotall" => o.dot_all = true,
                "dotexceptnewline" => o.dot_all = false,
                "lineanchors" => o.line_anchors = true,
                "stringanchors" => o.line_anchors = false,
                "freespacing" => o.free_spacing = true,
                "literalspacing" => o.free_spacing = false,
                "emptymatch" => o.empty_match = true,
                "noemptymatch" => o.empty_match = false,
                "once" => o.once = true,
                _ => {}
            }
        }
        o
    }
}

/// Translates MATLAB regular expression syntax to the engine's: `(?<name>` is accepted by
/// both; MATLAB's `\<` and `\>` word anchors become `\b`.
pub(super) fn compile(pat: &str, o: &RegexOpts) -> MResult<Regex> {
    let p = pat.replace("\\<", "\\b").replace("\\>", "\\b");
    let mut flags = String::new();
    for (on, c) in [
        (o.ignore_case, 'i'),
        (o.dot_all, 's'),
        (o.line_anchors, 'm'),
        (o.free_spacing, 'x'),
    ] {
        if on {
            flags.push(c);
        }
    }
    let p = if flags.is_empty() {
        p
    } else {
        format!("(?{flags}){p}")
    };
    Regex::new(&p).map_err(|e| {
        MError::new(
            "MATLAB:regexp:invalidPattern",
            format!("Invalid regular expression: {e}"),
        )
    })
}

/// For each byte offset of `s` (at character boundaries), the MATLAB index there: UTF-16 units
/// before it. Made once per subject, so a regexp with many matches stays linear (counting from
/// the start for each match made it quadratic).
fn unit_offsets(s: &str) -> Vec<u32> {
    let mut at = vec![0u32; s.len() + 1];
    let mut units = 0u32;
    for (b, c) in s.char_indices() {
        at[b] = units;
        units = units.saturating_add(c.len_utf16() as u32);
    }
    at[s.len()] = units;
    at
}

fn regexp_impl(a: A, nargout: usize, ignore_case: bool) -> R {
    let pat = text_arg(&a[1], "regexp")?;
    let mut opts: Vec<String> = Vec::new();
    for v in &a[2..] {
        opts.push(text_arg(v, "regexp")?.to_lowercase());
    }
    let ro = RegexOpts::parse(&opts, ignore_case);
    let once = ro.once;
    let re = compile(&pat, &ro)?;
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
    let offsets = unit_offsets(&s);
    let char_index = |byte: usize| offsets.get(byte).copied().unwrap_or(0) as usize;
    let mut matches = Vec::new();
    for m in re.captures_iter(s.as_str()) {
        crate::interp::interrupt::poll();
        let m = m.map_err(|e| {
            MError::new(
                "MATLAB:regexp:failed",
                format!("Regular expression failed: {e}"),
            )
        })?;
        if !ro.empty_match && m.get(0).is_some_and(|x| x.start() == x.end()) {
            continue;
        }
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
        .map(|m| (char_index(m.start()) + 1) as f64)
        .collect();
    let end: Vec<f64> = matches
        .iter()
        .filter_map(|m| m.get(0))
        .map(|m| char_index(m.end()) as f64)
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
            .unwrap_or_else(|| {
                Value::from(Tensor::new(
                    Shape::empty(),
                    crate::values::tensor::Data::Char(vec![]),
                ))
            })
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
        if matches.is_empty() && !once {
            // no match: a 0x0 struct that still has the fields
            st = StructArray::empty_with(names.clone(), Shape::empty());
        }
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
            .unwrap_or_else(Value::empty)
    } else if start.is_empty() {
        empty_row()
    } else {
        Value::row(start.clone())
    };
    let end_v = if once {
        end.first()
            .map(|&x| Value::Num(x))
            .unwrap_or_else(Value::empty)
    } else if end.is_empty() {
        empty_row()
    } else {
        Value::row(end.clone())
    };
    results.push(("start".into(), start_v));
    results.push(("end".into(), end_v));
    let extents_of = |m: &fancy_regex::Captures<str>| -> Value {
        let groups: Vec<(f64, f64)> = if m.len() > 1 {
            (1..m.len())
                .map(|k| match m.get(k) {
                    Some(x) => (
                        (char_index(x.start()) + 1) as f64,
                        char_index(x.end()) as f64,
                    ),
                    None => (0.0, -1.0),
                })
                .collect()
        } else {
            m.get(0)
                .map(|x| {
                    vec![(
                        (char_index(x.start()) + 1) as f64,
                        char_index(x.end()) as f64,
                    )]
                })
                .unwrap_or_default()
        };
        let n = groups.len();
        let mut data: Vec<f64> = groups.iter().map(|g| g.0).collect();
        data.extend(groups.iter().map(|g| g.1));
        Value::from(Tensor::f64(Shape::matrix(n, 2), data))
    };
    let extents_v = if once {
        matches.first().map(extents_of).unwrap_or_else(Value::empty)
    } else {
        Value::from(CellArray::row(matches.iter().map(extents_of).collect()))
    };
    results.push(("tokenextents".into(), extents_v));
    // Text comes back as the input's kind: string input gives string arrays.
    let kind = |v: Value| if a[0].is_string() { as_strings(v) } else { v };
    results.push(("match".into(), kind(match_v)));
    results.push(("tokens".into(), kind(tokens_v)));
    results.push(("names".into(), names_v));
    results.push(("split".into(), kind(split_v)));
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

/// Char vectors become string scalars and cells of them string arrays (cells of cells keep
/// their outer cell).
fn as_strings(v: Value) -> Value {
    match v {
        Value::Cell(c) if c.data.iter().all(|e| e.is_char()) => Value::from(StrArray::new(
            c.shape.clone(),
            c.data
                .iter()
                .map(|e| e.text().unwrap_or_default())
                .collect(),
        )),
        Value::Cell(c) => Value::from(CellArray::new(
            c.shape.clone(),
            c.data.iter().cloned().map(as_strings).collect(),
        )),
        v if v.is_char() => Value::string(&v.text().unwrap_or_default()),
        v => v,
    }
}

fn regexp(_: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    regexp_impl(a, n, false)
}

fn regexpi(_: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    regexp_impl(a, n, true)
}
