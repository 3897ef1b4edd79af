//! regexprep: replacement text with MATLAB's `$1`, `$<name>`, `${expr}`, case preservation and
//! the N-th occurrence.

use super::regex::{RegexOpts, compile};
use super::strings::texts;
use super::{Builtin, b, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::containers::{CellArray, StrArray};
use crate::values::value::Value;
use fancy_regex::Regex;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("regexprep", 3, -1, 1, "regexprep(text, pattern, replacement, 'once'|'ignorecase'): replace regular expression matches ($1 refers to tokens).", regexprep),
    ]
}

/// One piece of MATLAB replacement text.
enum RepPart {
    Lit(String),
    /// `$N` (`$0` is the whole match)
    Group(usize),
    /// `$<name>`
    Named(String),
    /// `${expr}`: MATLAB code evaluated per match, with `$N` standing for the tokens
    Dynamic(String),
}

fn parse_replacement(r: &str) -> Vec<RepPart> {
    let mut parts = Vec::new();
    let mut lit = String::new();
    let chars: Vec<char> = r.chars().collect();
    let mut k = 0;
    let flush = |lit: &mut String, parts: &mut Vec<RepPart>| {
        if !lit.is_empty() {
            parts.push(RepPart::Lit(std::mem::take(lit)));
        }
    };
    while k < chars.len() {
        let c = chars[k];
        if c == '$' {
            let rest: String = chars[k + 1..].iter().collect();
            let digits: String = rest.chars().take_while(|d| d.is_ascii_digit()).collect();
            if !digits.is_empty() {
                flush(&mut lit, &mut parts);
                parts.push(RepPart::Group(digits.parse().unwrap_or(0)));
                k += 1 + digits.len();
                continue;
            }
            if let Some(body) = rest.strip_prefix('<') {
                if let Some(end) = body.find('>') {
                    flush(&mut lit, &mut parts);
                    parts.push(RepPart::Named(body[..end].to_string()));
                    k += 2 + body[..end].chars().count() + 1;
                    continue;
                }
            }
            if let Some(body) = rest.strip_prefix('{') {
                // the expression runs to the matching brace
                let mut depth = 1;
                let mut len = 0;
                for ch in body.chars() {
                    match ch {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                    len += 1;
                }
                if depth == 0 {
                    flush(&mut lit, &mut parts);
                    let expr: String = body.chars().take(len).collect();
                    parts.push(RepPart::Dynamic(expr));
                    k += 2 + len + 1;
                    continue;
                }
            }
            lit.push('$');
        } else if c == '\\' && k + 1 < chars.len() {
            k += 1;
            match chars[k] {
                'n' => lit.push('\n'),
                't' => lit.push('\t'),
                'r' => lit.push('\r'),
                x => lit.push(x),
            }
        } else {
            lit.push(c);
        }
        k += 1;
    }
    flush(&mut lit, &mut parts);
    parts
}

/// `replacement` with the case pattern of `matched`, letter by letter (the last letter's
/// case carries on past the end of the match).
fn preserve_case(matched: &str, replacement: &str) -> String {
    let cases: Vec<Option<bool>> = matched
        .chars()
        .map(|c| {
            if c.is_uppercase() {
                Some(true)
            } else if c.is_lowercase() {
                Some(false)
            } else {
                None
            }
        })
        .collect();
    let last = cases.iter().rev().flatten().next().copied();
    replacement
        .chars()
        .enumerate()
        .map(|(k, c)| match cases.get(k).copied().flatten().or(last) {
            Some(true) => c.to_uppercase().collect::<String>(),
            Some(false) => c.to_lowercase().collect::<String>(),
            None => c.to_string(),
        })
        .collect()
}

/// Replacement options of regexprep beyond the shared matching flags.
struct RepOpts {
    once: bool,
    /// replace only the N-th match
    nth: Option<usize>,
    preserve_case: bool,
    empty_match: bool,
}

fn expand(
    i: &mut Interp,
    fr: &mut Frame,
    parts: &[RepPart],
    m: &fancy_regex::Captures<str>,
) -> MResult<String> {
    let group = |k: usize| m.get(k).map(|x| x.as_str().to_string()).unwrap_or_default();
    let mut out = String::new();
    for p in parts {
        match p {
            RepPart::Lit(t) => out.push_str(t),
            RepPart::Group(k) => out.push_str(&group(*k)),
            RepPart::Named(n) => out.push_str(m.name(n).map(|x| x.as_str()).unwrap_or("")),
            RepPart::Dynamic(code) => {
                // tokens become quoted text inside the expression
                let mut expr = String::new();
                let cs: Vec<char> = code.chars().collect();
                let mut k = 0;
                while k < cs.len() {
                    if cs[k] == '$' && k + 1 < cs.len() && cs[k + 1].is_ascii_digit() {
                        let d: String = cs[k + 1..]
                            .iter()
                            .take_while(|c| c.is_ascii_digit())
                            .collect();
                        let text = group(d.parse().unwrap_or(0));
                        expr.push_str(&format!("'{}'", text.replace('\'', "''")));
                        k += 1 + d.len();
                    } else {
                        expr.push(cs[k]);
                        k += 1;
                    }
                }
                let v = super::calls::eval_in(i, fr, &expr, 1)?;
                let v = v.into_iter().next().unwrap_or_else(Value::empty);
                let text = if v.is_text() {
                    v.text()?
                } else {
                    crate::display::printf::sprintf("%g", &[v])?
                };
                out.push_str(&text);
            }
        }
    }
    Ok(out)
}

fn replace_text(
    i: &mut Interp,
    fr: &mut Frame,
    text: &str,
    rules: &[(Regex, Vec<RepPart>)],
    o: &RepOpts,
) -> MResult<String> {
    crate::interp::interrupt::poll();
    let mut cur = text.to_string();
    for (re, parts) in rules {
        let mut out = String::new();
        let mut last = 0;
        let mut count = 0;
        for m in re.captures_iter(cur.as_str()) {
            crate::interp::interrupt::poll();
            let m = m.map_err(|e| MError::new("MATLAB:regexprep:engine", e.to_string()))?;
            let Some(whole) = m.get(0) else { continue };
            if whole.start() == whole.end() && !o.empty_match {
                continue;
            }
            count += 1;
            if o.nth.is_some_and(|n| n != count) {
                continue;
            }
            let mut rep = expand(i, fr, parts, &m)?;
            if o.preserve_case {
                rep = preserve_case(whole.as_str(), &rep);
            }
            out.push_str(&cur[last..whole.start()]);
            out.push_str(&rep);
            last = whole.end();
            if o.once || o.nth.is_some() {
                break;
            }
        }
        out.push_str(&cur[last..]);
        cur = out;
    }
    Ok(cur)
}

fn regexprep(i: &mut Interp, fr: &mut Frame, a: A, _: usize) -> R {
    let (pats, _, _) = texts(&a[1], "regexprep")?;
    let (reps, _, _) = texts(&a[2], "regexprep")?;
    let mut flags = Vec::new();
    let mut nth = None;
    for v in &a[3..] {
        if v.is_text() {
            flags.push(v.text()?.to_lowercase());
        } else {
            nth = Some(super::count_arg(v, "regexprep", "The occurrence")?.max(1));
        }
    }
    let ro = RegexOpts::parse(&flags, false);
    if reps.len() != 1 && reps.len() != pats.len() {
        return Err(MError::new(
            "MATLAB:regexprep:RepCellSizeMismatch",
            "The number of replacement strings must be one, or match the number of expressions.",
        ));
    }
    let mut rules = Vec::new();
    for (p, rep) in pats.iter().zip(reps.iter().cycle()) {
        rules.push((compile(p, &ro)?, parse_replacement(rep)));
    }
    let o = RepOpts {
        once: ro.once,
        nth,
        preserve_case: flags.iter().any(|f| f == "preservecase"),
        empty_match: ro.empty_match,
    };
    match &a[0] {
        Value::Cell(c) => {
            let mut data = Vec::with_capacity(c.data.len());
            for e in &c.data {
                let t = text_arg(e, "regexprep")?;
                data.push(Value::str(&replace_text(i, fr, &t, &rules, &o)?));
            }
            one(CellArray::new(c.shape.clone(), data))
        }
        Value::Str(s) => {
            let mut data = Vec::with_capacity(s.data.len());
            for t in &s.data {
                data.push(replace_text(i, fr, t, &rules, &o)?);
            }
            one(StrArray::new(s.shape.clone(), data))
        }
        v if v.is_char() => {
            let t = v.tensor()?;
            if t.shape.rows() > 1 {
                let mut rows = Vec::new();
                for r in super::types::char_rows(&t) {
                    rows.push(replace_text(i, fr, &r, &rules, &o)?);
                }
                return one(super::types::char_matrix(&rows));
            }
            let out = replace_text(i, fr, &t.to_text(), &rules, &o)?;
            if out.is_empty() && t.shape.dims() == [0, 0] {
                return one(v.clone());
            }
            one(Value::str(&out))
        }
        _ => Err(MError::new(
            "MATLAB:regexprep:InputClass",
            "Input should be a string, character array, or cell array of character arrays.",
        )),
    }
}
