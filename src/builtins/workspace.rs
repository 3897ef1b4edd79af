//! Workspace: clear clearvars who whos exist isvarname iskeyword.

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::{Frame, Slot};
use crate::interp::output;
use crate::syntax::token::Kw;
use crate::values::containers::CellArray;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("clear", 0, -1, 0, "clear, clear x y, clear a*, clear -regexp pat, clear all|functions|global: remove variables.", clear),
        b("clearvars", 0, -1, 0, "clearvars, clearvars x y, clearvars -except keep1 keep2: remove variables.", clearvars),
        b("who", 0, -1, 1, "who: list variable names (c = who returns them in a cell).", who),
        b("exist", 1, 2, 1, "exist(name), exist(name, 'var'|'builtin'|'file'|'dir'): 1 variable, 2 file, 5 builtin, 7 folder, 0 none.", exist),
        b("isvarname", 1, 1, 1, "isvarname(s): true for a valid variable name.", isvarname),
        b("iskeyword", 0, 1, 1, "iskeyword(s): true for a reserved word.", iskeyword),
    ]
}

/// MATLAB wildcard pattern (`*`, `?`) match.
pub(super) fn wildcard(pat: &str, s: &str) -> bool {
    fn go(p: &[char], s: &[char]) -> bool {
        match (p.first(), s.first()) {
            (None, None) => true,
            (Some('*'), _) => go(&p[1..], s) || (!s.is_empty() && go(p, &s[1..])),
            (Some('?'), Some(_)) => go(&p[1..], &s[1..]),
            (Some(a), Some(b)) if a == b => go(&p[1..], &s[1..]),
            _ => false,
        }
    }
    let p: Vec<char> = pat.chars().collect();
    let t: Vec<char> = s.chars().collect();
    go(&p, &t)
}

/// Names of the variables defined in a frame, sorted.
pub fn var_names(i: &Interp, f: &Frame) -> Vec<String> {
    let mut names: Vec<String> = (0..f.vars.len())
        .filter(|&k| match &f.vars[k] {
            Slot::Val(_) => true,
            Slot::Global | Slot::Persistent => i.read_slot(f, k).is_some(),
            Slot::Empty => false,
        })
        .map(|k| f.name_of(k).to_string())
        .collect();
    names.sort();
    names
}

fn clear_slot(f: &mut Frame, k: usize) {
    f.vars[k] = Slot::Empty;
}

pub(super) fn words(a: &[Value]) -> MResult<Vec<String>> {
    a.iter().map(|v| text_arg(v, "clear")).collect()
}

fn clear(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let w = words(&a)?;
    if w.is_empty()
        || matches!(
            w[0].as_str(),
            "all" | "-all" | "variables" | "-variables" | "-v"
        )
    {
        for k in 0..f.vars.len() {
            clear_slot(f, k);
        }
        if w.first().is_some_and(|x| x.contains("all")) {
            i.globals.clear();
            i.persistents.clear();
            i.path_cache.clear();
        }
        return Ok(vec![]);
    }
    match w[0].as_str() {
        "functions" | "-functions" | "-f" => {
            i.path_cache.clear();
            i.persistents.clear();
            return Ok(vec![]);
        }
        "global" | "-global" | "-g" => {
            let names: Vec<String> = if w.len() > 1 {
                w[1..].to_vec()
            } else {
                i.globals.keys().map(|k| k.to_string()).collect()
            };
            for n in names {
                i.globals.remove(n.as_str());
                if let Some(k) = f.layout.get(&n) {
                    clear_slot(f, k as usize);
                }
            }
            return Ok(vec![]);
        }
        "-regexp" => {
            let pats: Vec<fancy_regex::Regex> = w[1..]
                .iter()
                .map(|p| {
                    fancy_regex::Regex::new(p)
                        .map_err(|e| bad_arg("clear", format!("Invalid pattern: {e}")))
                })
                .collect::<MResult<_>>()?;
            for k in 0..f.vars.len() {
                let n = f.name_of(k).to_string();
                if pats.iter().any(|p| p.is_match(&n).unwrap_or(false)) {
                    clear_slot(f, k);
                }
            }
            return Ok(vec![]);
        }
        _ => {}
    }
    for pat in &w {
        for k in 0..f.vars.len() {
            if wildcard(pat, f.name_of(k)) {
                clear_slot(f, k);
            }
        }
        if !pat.contains('*') {
            i.clear_function(f, pat);
        }
    }
    Ok(vec![])
}

fn clearvars(_: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let w = words(&a)?;
    let (clear_pats, keep): (Vec<String>, Vec<String>) = match w.iter().position(|x| x == "-except")
    {
        Some(p) => (w[..p].to_vec(), w[p + 1..].to_vec()),
        None => (w.clone(), vec![]),
    };
    for k in 0..f.vars.len() {
        let n = f.name_of(k).to_string();
        let selected = clear_pats.is_empty() || clear_pats.iter().any(|p| wildcard(p, &n));
        if selected && !keep.iter().any(|p| wildcard(p, &n)) {
            clear_slot(f, k);
        }
    }
    Ok(vec![])
}

fn who(i: &mut Interp, f: &mut Frame, a: A, nargout: usize) -> R {
    let pats = words(&a)?;
    let names: Vec<String> = var_names(i, f)
        .into_iter()
        .filter(|n| pats.is_empty() || pats.iter().any(|p| wildcard(p, n)))
        .collect();
    if nargout > 0 {
        return one(CellArray::col(
            names.iter().map(|n| Value::str(n)).collect(),
        ));
    }
    if names.is_empty() {
        return Ok(vec![]);
    }
    let w = names.iter().map(|n| n.len()).max().unwrap_or(0) + 2;
    let per = (i.term_width / w).max(1);
    let mut out = String::from("\nYour variables are:\n\n");
    for chunk in names.chunks(per) {
        for n in chunk {
            out.push_str(&format!("{n:<w$}"));
        }
        out = out.trim_end().to_string();
        out.push('\n');
    }
    out.push('\n');
    output::write_str(&out);
    Ok(vec![])
}

fn exist(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let name = text_arg(&a[0], "exist")?;
    let kind = match a.get(1) {
        Some(v) => text_arg(v, "exist")?,
        None => String::new(),
    };
    let is_var = i.lookup_var(f, &name).is_some();
    let r = match kind.as_str() {
        "var" => is_var as u8 as f64,
        "builtin" => {
            if super::lookup(&name).is_some() {
                5.0
            } else {
                0.0
            }
        }
        "file" => file_kind(i, f, &name),
        "dir" => {
            if std::path::Path::new(&name).is_dir() {
                7.0
            } else {
                0.0
            }
        }
        "" => {
            if is_var {
                1.0
            } else {
                let fk = file_kind(i, f, &name);
                if fk > 0.0 {
                    fk
                } else if super::lookup(&name).is_some() {
                    5.0
                } else if std::path::Path::new(&name).is_dir() {
                    7.0
                } else {
                    0.0
                }
            }
        }
        other => return Err(bad_arg("exist", format!("Unknown search type '{other}'."))),
    };
    one(Value::Num(r))
}

fn file_kind(i: &Interp, f: &Frame, name: &str) -> f64 {
    if f.unit.functions.contains_key(name) || i.session_functions.contains_key(name) {
        return 2.0;
    }
    // any existing file counts, with or without an extension, as in MATLAB
    if i.find_file(&format!("{name}.m")).is_some() || std::path::Path::new(name).is_file() {
        return 2.0;
    }
    if std::path::Path::new(name).is_dir() {
        return 7.0;
    }
    0.0
}

fn isvarname(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let ok = a[0]
        .text()
        .map(|s| super::structs::is_valid_name(&s) && !Kw::WORDS.contains(&s.as_str()))
        .unwrap_or(false);
    one(Value::Bool(ok))
}

fn iskeyword(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    match a.first() {
        Some(v) => one(Value::Bool(
            v.text()
                .map(|s| Kw::WORDS.contains(&s.as_str()))
                .unwrap_or(false),
        )),
        None => one(CellArray::col(
            Kw::WORDS.iter().map(|w| Value::str(w)).collect(),
        )),
    }
}
