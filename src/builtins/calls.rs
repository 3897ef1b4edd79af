//! Calling and evaluating: nargin nargout narginchk nargoutchk feval func2str str2func eval evalc evalin assignin inputname.

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::{Frame, FuncHandle, Slot};
use crate::interp::output;
use crate::syntax::ast::ExprKind;
use crate::syntax::resolve;
use crate::syntax::span::Source;
use crate::values::value::Value;
use std::rc::Rc;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("nargin", 0, 1, 1, "nargin: number of arguments the current function received; nargin(f): how many f declares.", nargin),
        b("nargout", 0, 1, 1, "nargout: number of outputs the current function was asked for.", nargout),
        b("narginchk", 2, 2, 0, "narginchk(min, max): error when the current function's argument count is out of range.", narginchk),
        b("nargoutchk", 2, 2, 0, "nargoutchk(min, max): error when the output count is out of range.", nargoutchk),
        b("feval", 1, -1, 64, "feval(f, args...): call a function given by handle or name.", feval),
        b("bsxfun", 3, 3, 1, "bsxfun(f, A, B): apply a binary function with implicit expansion.", bsxfun),
        b("builtin", 1, -1, 64, "builtin(name, args...): call the builtin function name, even where a user function shadows it.", builtin_fn),
        b("nthargout", 2, -1, 1, "nthargout(n, f, args...): the n-th output of f(args...).", nthargout),
        b("run", 1, 1, 0, "run(script): run a script file given by name or path.", run),
        b("functions", 1, 1, 1, "functions(h): information about a function handle (function, type, file).", functions),
        b("func2str", 1, 1, 1, "func2str(h): the text of a function handle.", func2str),
        b("str2func", 1, 1, 1, "str2func(s): a function handle from a name or '@(x) ...' text.", str2func),
        b("eval", 1, 2, 64, "eval(code), eval(try, catch): run text as code in the current workspace.", eval),
        b("evalc", 1, 2, 1, "evalc(code): run code and return what it printed.", evalc),
        b("evalin", 2, 3, 64, "evalin('base'|'caller', code): run code in another workspace.", evalin),
        b("assignin", 3, 3, 0, "assignin('base'|'caller', name, value): assign a variable in another workspace.", assignin),
        b("inputname", 1, 1, 1, "inputname(k): not available; returns ''.", inputname),
    ]
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

fn bsxfun(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let mut a = a;
    let fv = a.remove(0);
    // every elementwise builtin expands singleton dimensions itself
    Ok(vec![i.call_value1(f, &fv, a)?])
}

fn builtin_fn(i: &mut Interp, f: &mut Frame, a: A, nargout: usize) -> R {
    let name = text_arg(&a[0], "builtin")?;
    let Some(b) = super::lookup(&name) else {
        return Err(MError::new(
            "MATLAB:builtin:NotBuiltin",
            format!("'{name}' is not a builtin function."),
        ));
    };
    i.call_builtin(f, b, a[1..].to_vec(), nargout)
}

fn nthargout(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let n = super::count_arg(&a[0], "nthargout", "N")?;
    if n == 0 {
        return Err(bad_arg("nthargout", "N must be a positive integer."));
    }
    let mut out = i.call_value(f, &a[1], a[2..].to_vec(), n)?;
    if out.len() < n {
        return Err(MError::new(
            "MATLAB:TooManyOutputs",
            "Too many output arguments.",
        ));
    }
    Ok(vec![out.swap_remove(n - 1)])
}

fn run(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let given = text_arg(&a[0], "run")?;
    let mut path = std::path::PathBuf::from(&given);
    if path.extension().is_none() {
        path.set_extension("m");
    }
    if !path.is_file() {
        return Err(MError::new(
            "MATLAB:run:FileNotFound",
            format!("{given} not found."),
        ));
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    // like MATLAB, run from the script's own folder, then come back
    let back = std::env::current_dir().ok();
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(|d| d.to_path_buf());
    let file = path
        .file_name()
        .map(std::path::PathBuf::from)
        .unwrap_or(path.clone());
    if let Some(d) = &dir {
        std::env::set_current_dir(d)
            .map_err(|e| MError::new("MATLAB:run:FileNotFound", e.to_string()))?;
        i.path_cache.clear();
    }
    let r = match i.load_file(&file.canonicalize().unwrap_or(file.clone()), &stem) {
        Ok(crate::interp::call::Loaded::Script(prog, unit)) => i.run_script_in(f, &prog, &unit),
        Ok(crate::interp::call::Loaded::Function(..)) => {
            i.call_named(f, &stem, vec![], 0).map(|_| ())
        }
        Err(e) => Err(e),
    };
    if let (Some(_), Some(b)) = (&dir, back) {
        let _ = std::env::set_current_dir(b);
        i.path_cache.clear();
    }
    r.map(|_| vec![])
}

fn functions(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let Value::Func(h) = &a[0] else {
        return Err(bad_arg("functions", "Input must be a function handle."));
    };
    let text = h.text();
    let anon = matches!(h.as_ref(), FuncHandle::Anon { .. });
    let mut s = crate::values::containers::StructArray::scalar();
    s.set(
        0,
        "function",
        Value::str(text.strip_prefix('@').filter(|_| !anon).unwrap_or(&text)),
    );
    s.set(
        0,
        "type",
        Value::str(if anon { "anonymous" } else { "simple" }),
    );
    s.set(0, "file", Value::str(""));
    one(s)
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
    let r = i.nested(|i| {
        if nargout > 0 {
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
        }
    });
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

fn inputname(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::str(""))
}
