//! Workspace and session: clear who whos exist isvarname iskeyword nargin nargout
//! narginchk feval func2str str2func eval evalc assignin evalin rng pwd cd addpath rmpath
//! path which help exit version.

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::{Frame, FuncHandle, Slot};
use crate::interp::output;
use crate::syntax::ast::ExprKind;
use crate::syntax::resolve;
use crate::syntax::span::Source;
use crate::syntax::token::Kw;
use crate::values::containers::{CellArray, StructArray};
use crate::values::rng::RngState;
use crate::values::value::Value;
use std::rc::Rc;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("clear", 0, -1, 0, "clear, clear x y, clear a*, clear -regexp pat, clear all|functions|global: remove variables.", clear),
        b("clearvars", 0, -1, 0, "clearvars, clearvars x y, clearvars -except keep1 keep2: remove variables.", clearvars),
        b("who", 0, -1, 1, "who: list variable names (c = who returns them in a cell).", who),
        b("whos", 0, -1, 1, "whos: list variables with their size, bytes and class.", whos),
        b("exist", 1, 2, 1, "exist(name), exist(name, 'var'|'builtin'|'file'|'dir'): 1 variable, 2 file, 5 builtin, 7 folder, 0 none.", exist),
        b("isvarname", 1, 1, 1, "isvarname(s): true for a valid variable name.", isvarname),
        b("iskeyword", 0, 1, 1, "iskeyword(s): true for a reserved word.", iskeyword),
        b("nargin", 0, 1, 1, "nargin: number of arguments the current function received; nargin(f): how many f declares.", nargin),
        b("nargout", 0, 1, 1, "nargout: number of outputs the current function was asked for.", nargout),
        b("narginchk", 2, 2, 0, "narginchk(min, max): error when the current function's argument count is out of range.", narginchk),
        b("nargoutchk", 2, 2, 0, "nargoutchk(min, max): error when the output count is out of range.", nargoutchk),
        b("feval", 1, -1, 64, "feval(f, args...): call a function given by handle or name.", feval),
        b("func2str", 1, 1, 1, "func2str(h): the text of a function handle.", func2str),
        b("str2func", 1, 1, 1, "str2func(s): a function handle from a name or '@(x) ...' text.", str2func),
        b("eval", 1, 2, 64, "eval(code), eval(try, catch): run text as code in the current workspace.", eval),
        b("evalc", 1, 2, 1, "evalc(code): run code and return what it printed.", evalc),
        b("evalin", 2, 3, 64, "evalin('base'|'caller', code): run code in another workspace.", evalin),
        b("assignin", 3, 3, 0, "assignin('base'|'caller', name, value): assign a variable in another workspace.", assignin),
        b("rng", 0, 2, 1, "rng(seed), rng('default'), rng('shuffle'), s = rng, rng(s): control the random stream (Philox4x32-10).", rng),
        b("pwd", 0, 0, 1, "pwd: the current folder.", pwd),
        b("cd", 0, 1, 1, "cd(folder): change the current folder.", cd),
        b("addpath", 1, -1, 1, "addpath(folder, ...): add folders to the search path.", addpath),
        b("rmpath", 1, -1, 1, "rmpath(folder): remove a folder from the search path.", rmpath),
        b("path", 0, 2, 1, "path: show the search path.", path),
        b("which", 1, 2, 1, "which name: where a function or variable comes from.", which),
        b("help", 0, 1, 1, "help name: one paragraph of help for a function.", help),
        b("exit", 0, 1, 0, "exit, exit(code): leave matfuse.", exit),
        b("quit", 0, 1, 0, "quit, quit(code): leave matfuse.", exit),
        b("version", 0, 1, 1, "version: matfuse's version.", version),
        b("isdeployed", 0, 0, 1, "isdeployed: false.", false_fn),
        b("ispc", 0, 0, 1, "ispc: false.", false_fn),
        b("ismac", 0, 0, 1, "ismac: true on macOS.", ismac),
        b("isunix", 0, 0, 1, "isunix: true on Unix-like systems.", isunix),
        b("getenv", 1, 1, 1, "getenv(name): an environment variable's value.", getenv),
        b("setenv", 1, 2, 0, "setenv(name, value): set an environment variable.", setenv),
        b("inputname", 1, 1, 1, "inputname(k): not available; returns ''.", inputname),
    ]
}

/// MATLAB wildcard pattern (`*`, `?`) match.
fn wildcard(pat: &str, s: &str) -> bool {
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

fn words(a: &[Value]) -> MResult<Vec<String>> {
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

/// Bytes a value occupies, as whos reports it.
pub fn value_bytes(v: &Value) -> usize {
    match v {
        Value::Num(_) => 8,
        Value::Bool(_) => 1,
        Value::Tensor(t) => t.numel() * t.class().elem_bytes() * if t.is_complex() { 2 } else { 1 },
        Value::Str(s) => s.data.iter().map(|x| 2 * x.len() + 16).sum::<usize>() + 100,
        Value::Cell(c) => c.data.iter().map(|e| value_bytes(e) + 104).sum(),
        Value::Struct(s) => {
            s.elems
                .iter()
                .flat_map(|e| e.iter())
                .map(|e| value_bytes(e) + 104)
                .sum::<usize>()
                + 64 * s.fields.len()
        }
        Value::Func(_) => 32,
        Value::Object(_) => 8,
    }
}

fn whos(i: &mut Interp, f: &mut Frame, a: A, nargout: usize) -> R {
    let pats = words(&a)?;
    let names: Vec<String> = var_names(i, f)
        .into_iter()
        .filter(|n| pats.is_empty() || pats.iter().any(|p| wildcard(p, n)))
        .collect();
    let rows: Vec<(String, String, usize, String, String)> = names
        .iter()
        .filter_map(|n| {
            let v = i.lookup_var(f, n)?;
            let mut attrs = Vec::new();
            if v.is_complex() {
                attrs.push("complex");
            }
            if f.layout
                .get(n)
                .is_some_and(|k| matches!(f.vars[k as usize], Slot::Global))
            {
                attrs.push("global");
            }
            if f.layout
                .get(n)
                .is_some_and(|k| matches!(f.vars[k as usize], Slot::Persistent))
            {
                attrs.push("persistent");
            }
            Some((
                n.clone(),
                v.shape().size_text().replace('×', "x"),
                value_bytes(&v),
                v.class_name(),
                attrs.join(", "),
            ))
        })
        .collect();
    if nargout > 0 {
        let mut s = StructArray::empty_with(
            vec![
                "name".into(),
                "size".into(),
                "bytes".into(),
                "class".into(),
                "global".into(),
                "complex".into(),
            ],
            crate::values::shape::Shape::col(rows.len()),
        );
        for (k, r) in rows.iter().enumerate() {
            let v = i.lookup_var(f, &r.0).unwrap_or_else(Value::empty);
            s.elems[k] = vec![
                Value::str(&r.0),
                Value::row(v.shape().dims().iter().map(|&d| d as f64).collect()),
                Value::Num(r.2 as f64),
                Value::str(&r.3),
                Value::Bool(r.4.contains("global")),
                Value::Bool(v.is_complex()),
            ];
        }
        return one(s);
    }
    if rows.is_empty() {
        return Ok(vec![]);
    }
    let nw = rows.iter().map(|r| r.0.len()).max().unwrap_or(4).max(4);
    let sw = rows.iter().map(|r| r.1.len()).max().unwrap_or(4).max(4);
    let bw = rows
        .iter()
        .map(|r| r.2.to_string().len())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut out = format!(
        "  {:<nw$}      {:<sw$}            {:>bw$}  Class     Attributes\n\n",
        "Name", "Size", "Bytes"
    );
    for (n, s, bytes, c, attr) in &rows {
        out.push_str(
            &format!("  {n:<nw$}      {s:<sw$}            {bytes:>bw$}  {c:<10}{attr}")
                .trim_end()
                .to_string(),
        );
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
    if i.find_file(&format!("{name}.m")).is_some()
        || (name.contains('.') && std::path::Path::new(name).is_file())
    {
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

/// nargin(fn) / nargout(fn): the declared count, negative when the last is varargin/varargout.
fn declared_count(i: &mut Interp, f: &Frame, v: &Value, outputs: bool) -> R {
    let who = if outputs { "nargout" } else { "nargin" };
    let signed = |names: &[crate::syntax::ast::Name], var: &str| {
        let n = names.len() as f64;
        Value::Num(if names.last().is_some_and(|p| &**p == var) {
            -n
        } else {
            n
        })
    };
    let name = match v {
        Value::Func(h) => match h.as_ref() {
            FuncHandle::Anon { def, .. } => {
                return one(if outputs {
                    Value::Num(1.0)
                } else {
                    signed(&def.params, "varargin")
                });
            }
            FuncHandle::Named { name, .. } => name.to_string(),
        },
        v => text_arg(v, who)?,
    };
    let found = f
        .unit
        .functions
        .get(name.as_str())
        .cloned()
        .or_else(|| i.session_functions.get(name.as_str()).map(|x| x.0.clone()))
        .or_else(|| match i.load_path_file(&name) {
            Some(crate::interp::call::Loaded::Function(d, _)) => Some(d),
            _ => None,
        });
    match found {
        Some(d) if outputs => one(signed(&d.outputs, "varargout")),
        Some(d) => one(signed(&d.params, "varargin")),
        None if super::lookup(&name).is_some() => one(Value::Num(-1.0)),
        None => Err(MError::new(
            "MATLAB:narginout:functionDoesNotExist",
            format!("Function \"{name}\" does not exist."),
        )),
    }
}

fn nargin(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    if let Some(v) = a.first() {
        return declared_count(i, f, v, false);
    }
    if f.function.is_none() && f.nparams == 0 {
        return Err(MError::new(
            "MATLAB:nargin:isScript",
            "You can only call nargin/nargout from within a MATLAB function.",
        ));
    }
    one(Value::Num(f.nargin as f64))
}

fn nargout(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    if let Some(v) = a.first() {
        return declared_count(i, f, v, true);
    }
    if f.function.is_none() && f.nparams == 0 {
        return Err(MError::new(
            "MATLAB:nargout:isScript",
            "You can only call nargin/nargout from within a MATLAB function.",
        ));
    }
    one(Value::Num(f.nargout as f64))
}

fn narginchk(_: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let (lo, hi) = (a[0].scalar_f64()?, a[1].scalar_f64()?);
    let n = f.nargin as f64;
    if n < lo {
        return Err(MError::new(
            "MATLAB:narginchk:notEnoughInputs",
            "Not enough input arguments.",
        ));
    }
    if n > hi {
        return Err(MError::new(
            "MATLAB:narginchk:tooManyInputs",
            "Too many input arguments.",
        ));
    }
    Ok(vec![])
}

fn nargoutchk(_: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let (lo, hi) = (a[0].scalar_f64()?, a[1].scalar_f64()?);
    let n = f.nargout as f64;
    if n < lo {
        return Err(MError::new(
            "MATLAB:nargoutchk:notEnoughOutputs",
            "Not enough output arguments.",
        ));
    }
    if n > hi {
        return Err(MError::new(
            "MATLAB:nargoutchk:tooManyOutputs",
            "Too many output arguments.",
        ));
    }
    Ok(vec![])
}

fn feval(i: &mut Interp, f: &mut Frame, a: A, nargout: usize) -> R {
    let mut a = a;
    let fv = a.remove(0);
    i.call_value(f, &fv, a, nargout)
}

fn func2str(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    match &a[0] {
        Value::Func(h) => one(Value::str(&h.text())),
        _ => Err(bad_arg("func2str", "Input must be a function handle.")),
    }
}

fn str2func(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let s = text_arg(&a[0], "str2func")?;
    let s = s.trim();
    if s.starts_with('@') {
        // an anonymous function made from text captures nothing from the caller
        let prog = crate::syntax::parse(s, &|_| false)
            .map_err(|e| MError::new(e.identifier, e.message))?;
        if let Some(crate::syntax::ast::Stmt {
            kind: crate::syntax::ast::StmtKind::Expr(e),
            ..
        }) = prog.stmts.first()
        {
            if let ExprKind::AnonFunc(def) = &e.kind {
                resolve::anon(def);
                let n = def
                    .scope
                    .get()
                    .map(|l| l.len())
                    .unwrap_or(0)
                    .saturating_sub(def.params.len());
                let unit = crate::interp::function::CodeUnit::new(Source::new("", s, false));
                return one(Value::Func(Rc::new(FuncHandle::Anon {
                    def: def.clone(),
                    captures: vec![None; n],
                    unit,
                })));
            }
        }
        return Err(bad_arg("str2func", format!("Invalid function text '{s}'.")));
    }
    let _ = i;
    let unit = if f.unit.functions.contains_key(s) {
        Some(f.unit.clone())
    } else {
        None
    };
    one(Value::Func(Rc::new(FuncHandle::Named {
        name: s.into(),
        unit,
    })))
}

/// Runs `code` in frame `f` (parsed with f's variables known).
pub fn eval_in(i: &mut Interp, f: &mut Frame, code: &str, nargout: usize) -> R {
    let source = Source::new("eval", code, false);
    let is_var = |n: &str| {
        f.layout
            .get(n)
            .is_some_and(|k| !matches!(f.vars[k as usize], Slot::Empty))
    };
    let prog =
        crate::syntax::parse(code, &is_var).map_err(|e| crate::interp::syntax_error(e, &source))?;
    resolve::stmts(&prog.stmts, f.layout_mut());
    f.sync();
    let unit = Rc::new(crate::interp::function::CodeUnit {
        source: source.clone(),
        functions: f.unit.functions.clone(),
        path: f.unit.path.clone(),
    });
    let saved = std::mem::replace(&mut f.unit, unit);
    let r = if nargout > 0 {
        match prog.stmts.as_slice() {
            [
                crate::syntax::ast::Stmt {
                    kind: crate::syntax::ast::StmtKind::Expr(e),
                    ..
                },
            ] => i.eval_outputs(f, e, nargout),
            _ => Err(MError::new(
                "MATLAB:eval:noOutput",
                "eval with outputs needs a single expression.",
            )),
        }
    } else {
        i.exec_block(f, &prog.stmts).map(|_| vec![])
    };
    f.unit = saved;
    r
}

fn eval(i: &mut Interp, f: &mut Frame, a: A, nargout: usize) -> R {
    let code = text_arg(&a[0], "eval")?;
    match eval_in(i, f, &code, nargout) {
        Ok(v) => Ok(v),
        Err(e) if a.len() > 1 && !e.is_interrupt() => {
            i.last_error = Some(e);
            let c = text_arg(&a[1], "eval")?;
            eval_in(i, f, &c, nargout)
        }
        Err(e) => Err(e),
    }
}

fn evalc(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let code = text_arg(&a[0], "evalc")?;
    output::begin_capture();
    let r = eval_in(i, f, &code, 0);
    let text = output::end_capture();
    r?;
    one(Value::str(&text))
}

fn workspace_arg(v: &Value) -> MResult<String> {
    let w = text_arg(v, "evalin")?;
    if w != "base" && w != "caller" {
        return Err(bad_arg(
            "evalin",
            "The workspace must be 'base' or 'caller'.",
        ));
    }
    Ok(w)
}

fn evalin(i: &mut Interp, f: &mut Frame, a: A, nargout: usize) -> R {
    workspace_arg(&a[0])?;
    let code = text_arg(&a[1], "evalin")?;
    // only the current (base or script) workspace is reachable from here
    eval_in(i, f, &code, nargout)
}

fn assignin(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    workspace_arg(&a[0])?;
    let name = text_arg(&a[1], "assignin")?;
    if !super::structs::is_valid_name(&name) {
        return Err(bad_arg(
            "assignin",
            format!("Invalid variable name '{name}'."),
        ));
    }
    let slot = f.slot_of(&name);
    i.store(f, slot, a[2].clone());
    Ok(vec![])
}

fn rng_struct(s: &RngState) -> Value {
    let mut st = StructArray::scalar();
    st.set(0, "Type", Value::str("philox"));
    st.set(0, "Seed", Value::Num(s.seed as f64));
    st.set(0, "State", Value::Num(s.offset as f64));
    Value::from(st)
}

fn rng(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let before = rng_struct(&i.rng);
    if let Some(v) = a.first() {
        match v {
            Value::Struct(s) => {
                let seed = s
                    .get(0, "Seed")
                    .map(|x| x.scalar_f64())
                    .transpose()?
                    .unwrap_or(0.0);
                let off = s
                    .get(0, "State")
                    .map(|x| x.scalar_f64())
                    .transpose()?
                    .unwrap_or(0.0);
                i.rng = RngState {
                    seed: seed as u64,
                    offset: off as u64,
                };
            }
            v if v.is_text() => match text_arg(v, "rng")?.as_str() {
                "default" => i.rng = RngState::default(),
                "shuffle" => {
                    let t = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map(|d| d.as_nanos() as u64)
                        .unwrap_or(1);
                    i.rng = RngState { seed: t, offset: 0 };
                }
                other => return Err(bad_arg("rng", format!("Unknown option '{other}'."))),
            },
            v => {
                let seed = v.scalar_f64()?;
                if seed < 0.0 || seed.fract() != 0.0 {
                    return Err(bad_arg("rng", "The seed must be a nonnegative integer."));
                }
                i.rng = RngState {
                    seed: seed as u64,
                    offset: 0,
                };
            }
        }
    }
    if nargout > 0 || a.is_empty() {
        one(before)
    } else {
        Ok(vec![])
    }
}

fn pwd(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    let d = std::env::current_dir().map_err(|e| MError::new("MATLAB:pwd:failed", e.to_string()))?;
    one(Value::str(&d.display().to_string()))
}

fn cd(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    if let Some(v) = a.first() {
        let d = text_arg(v, "cd")?;
        let d = if d == "~" {
            std::env::var("HOME").unwrap_or(d)
        } else {
            d
        };
        std::env::set_current_dir(&d).map_err(|_| {
            MError::new(
                "MATLAB:cd:NonExistentFolder",
                format!("Cannot CD to {d} (Name is nonexistent or not a folder)."),
            )
        })?;
        i.path_cache.clear();
        return Ok(vec![]);
    }
    let d = std::env::current_dir().map_err(|e| MError::new("MATLAB:cd:failed", e.to_string()))?;
    if nargout > 0 {
        return one(Value::str(&d.display().to_string()));
    }
    output::write_str(&format!("{}\n", d.display()));
    Ok(vec![])
}

fn path_list(v: &Value) -> MResult<Vec<std::path::PathBuf>> {
    let s = text_arg(v, "addpath")?;
    Ok(s.split(':')
        .filter(|p| !p.is_empty())
        .map(std::path::PathBuf::from)
        .collect())
}

fn addpath(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let at_end = a.iter().any(|v| v.text().ok().as_deref() == Some("-end"));
    let mut dirs = Vec::new();
    for v in a
        .iter()
        .filter(|v| !matches!(v.text().ok().as_deref(), Some("-end" | "-begin")))
    {
        for d in path_list(v)? {
            let d = std::fs::canonicalize(&d).unwrap_or(d);
            if !d.is_dir() {
                crate::interp::warning::emit(
                    "MATLAB:mpath:nameNonexistentOrNotADirectory",
                    &format!("Name is nonexistent or not a directory: {}", d.display()),
                );
                continue;
            }
            dirs.push(d);
        }
    }
    i.search_path.retain(|p| !dirs.contains(p));
    if at_end {
        i.search_path.extend(dirs);
    } else {
        let mut new = dirs;
        new.append(&mut i.search_path);
        i.search_path = new;
    }
    i.path_cache.clear();
    Ok(vec![])
}

fn rmpath(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    for v in &a {
        for d in path_list(v)? {
            let d = std::fs::canonicalize(&d).unwrap_or(d);
            i.search_path.retain(|p| *p != d);
        }
    }
    i.path_cache.clear();
    Ok(vec![])
}

fn path(i: &mut Interp, _: &mut Frame, _: A, nargout: usize) -> R {
    let text = i
        .search_path
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(":");
    if nargout > 0 {
        return one(Value::str(&text));
    }
    let mut out = String::from("\n\t\tMATLABPATH\n\n");
    for p in &i.search_path {
        out.push_str(&format!("\t{}\n", p.display()));
    }
    out.push('\n');
    output::write_str(&out);
    Ok(vec![])
}

fn which(i: &mut Interp, f: &mut Frame, a: A, nargout: usize) -> R {
    let name = text_arg(&a[0], "which")?;
    let text = if i.lookup_var(f, &name).is_some() {
        format!("{name} is a variable.")
    } else if f.unit.functions.contains_key(name.as_str()) {
        format!("{name} is a local function.")
    } else if i.session_functions.contains_key(name.as_str()) {
        format!("{name} is a function defined in this session.")
    } else if let Some(p) = i.find_file(&format!("{name}.m")) {
        p.display().to_string()
    } else if super::lookup(&name).is_some() {
        format!("built-in ({name})")
    } else {
        format!("'{name}' not found.")
    };
    if nargout > 0 {
        return one(Value::str(&text));
    }
    output::write_str(&format!("{text}\n"));
    Ok(vec![])
}

/// Leading comment block of a function file (its help text).
fn file_help(path: &std::path::Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut lines = Vec::new();
    let mut started = false;
    for l in text.lines() {
        let t = l.trim();
        if let Some(c) = t.strip_prefix('%') {
            started = true;
            lines.push(format!("  {}", c.trim_start_matches('%').trim_end()));
        } else if started || (!t.is_empty() && !t.starts_with("function")) {
            break;
        }
    }
    if lines.is_empty() {
        None
    } else {
        Some(lines.join("\n"))
    }
}

fn help(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let text = match a.first() {
        None => format!(
            "matfuse: MATLAB syntax with a GPU-resident workspace.\nType 'help name' for help on a function. {} builtins are available:\n{}",
            super::names().len(),
            super::names().join(" ")
        ),
        Some(v) => {
            let name = text_arg(v, "help")?;
            if let Some(p) = i.find_file(&format!("{name}.m")) {
                file_help(&p).unwrap_or_else(|| format!("No help found for {name}."))
            } else if let Some(b) = super::lookup(&name) {
                format!("  {}", b.help)
            } else {
                format!("{name} not found.")
            }
        }
    };
    if nargout > 0 {
        return one(Value::str(&text));
    }
    output::write_str(&format!("{text}\n"));
    Ok(vec![])
}

fn exit(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let code = match a.first() {
        Some(v) if !v.is_text() => v.scalar_f64()? as i32,
        _ => 0,
    };
    output::flush();
    std::process::exit(code);
}

fn version(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::str(&format!(
        "{} (matfuse)",
        env!("CARGO_PKG_VERSION")
    )))
}

fn false_fn(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::Bool(false))
}
fn ismac(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::Bool(cfg!(target_os = "macos")))
}
fn isunix(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::Bool(cfg!(unix)))
}
fn getenv(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::str(
        &std::env::var(text_arg(&a[0], "getenv")?).unwrap_or_default(),
    ))
}
fn setenv(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let name = text_arg(&a[0], "setenv")?;
    let value = match a.get(1) {
        Some(v) => text_arg(v, "setenv")?,
        None => String::new(),
    };
    // SAFETY-free: set_var is unsafe only for multithreaded use; the interpreter thread owns env access here
    unsafe { std::env::set_var(name, value) };
    Ok(vec![])
}
fn inputname(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::str(""))
}
