//! Calling things: finding a function by name (local functions, functions defined in the
//! session, files on the path, builtins), binding arguments, collecting outputs.

use super::Interp;
use super::error::{MError, MResult, errors};
use super::exec::Flow;
use super::function::{CodeUnit, Frame, FuncHandle, Slot};
use crate::builtins::{self, Builtin};
use crate::syntax::ast::{FunctionDef, Program};
use crate::syntax::resolve;
use crate::syntax::span::Source;
use crate::values::containers::CellArray;
use crate::values::value::Value;
use std::path::PathBuf;
use std::rc::Rc;

pub const RECURSION_LIMIT: usize = 500;

/// Native stack a nested call must find left: below it, the call is MATLAB's recursion-limit
/// error instead of a stack overflow that would abort the process (deep nesting through
/// builtins that call back, such as cellfun or regexprep's `${...}`, counts no levels).
const STACK_RESERVE: usize = 256 * 1024;

/// A file found on the path, parsed.
#[derive(Clone)]
pub enum Loaded {
    Function(Rc<FunctionDef>, Rc<CodeUnit>),
    Script(Rc<Program>, Rc<CodeUnit>),
}

/// What a name resolves to when called.
pub enum Callee {
    User(Rc<FunctionDef>, Rc<CodeUnit>),
    Script(Rc<Program>, Rc<CodeUnit>),
    Builtin(&'static Builtin),
}

impl Interp {
    /// Finds the file `name.m` in the current folder or on the path, parsed and cached.
    pub fn load_path_file(&mut self, name: &str) -> Option<Loaded> {
        if let Some(hit) = self.path_cache.get(name) {
            return hit.clone();
        }
        let file = self.find_file(&format!("{name}.m"));
        let loaded = file.and_then(|p| {
            let stamp = std::fs::metadata(&p).and_then(|m| m.modified()).ok();
            // A file that does not parse is reported as such when its name is called, not
            // as an unknown name.
            match self.load_file(&p, name) {
                Ok(l) => {
                    self.path_errors.remove(name);
                    self.path_stamps.insert(name.to_string(), (p, stamp));
                    Some(l)
                }
                Err(e) => {
                    self.path_errors.insert(name.to_string(), e);
                    None
                }
            }
        });
        self.path_cache.insert(name.to_string(), loaded.clone());
        loaded
    }

    /// Before each top-level run: forget misses (a file may have been created) and files
    /// that changed or vanished since they were read.
    pub fn refresh_path_cache(&mut self) {
        self.path_errors.clear();
        let stamps = &self.path_stamps;
        self.path_cache.retain(|name, hit| {
            hit.is_some()
                && stamps.get(name).is_some_and(|(p, t)| {
                    std::fs::metadata(p).and_then(|m| m.modified()).ok() == *t
                })
        });
        let cache = &self.path_cache;
        self.path_stamps.retain(|name, _| cache.contains_key(name));
    }

    /// `clear name`: forgets a function's parsed file and its persistent variables.
    pub fn clear_function(&mut self, f: &Frame, name: &str) {
        let mut defs: Vec<usize> = Vec::new();
        if let Some(d) = f.unit.functions.get(name) {
            defs.push(Rc::as_ptr(d) as usize);
        }
        if let Some((d, _)) = self.session_functions.get(name) {
            defs.push(Rc::as_ptr(d) as usize);
        }
        if let Some(Some(Loaded::Function(d, u))) = self.path_cache.get(name) {
            defs.push(Rc::as_ptr(d) as usize);
            defs.extend(u.functions.values().map(|d| Rc::as_ptr(d) as usize));
        }
        self.persistents.retain(|(id, _), _| !defs.contains(id));
        self.path_cache.remove(name);
        self.path_stamps.remove(name);
    }

    pub fn find_file(&self, file: &str) -> Option<PathBuf> {
        if name_is_path_safe(file) {
            let here = std::env::current_dir().ok()?.join(file);
            if here.is_file() {
                return Some(here);
            }
            for dir in &self.search_path {
                let p = dir.join(file);
                if p.is_file() {
                    return Some(p);
                }
            }
        }
        None
    }

    /// Parses a .m file: a function file (its first function is the one the file is named
    /// for; the rest are subfunctions) or a script.
    pub fn load_file(&mut self, path: &PathBuf, name: &str) -> MResult<Loaded> {
        let text = crate::syntax::decode::read_source(path).map_err(|e| {
            MError::new(
                "MATLAB:fileNotReadable",
                format!("Unable to read file '{}': {e}", path.display()),
            )
        })?;
        let source = Source::new(path.display().to_string(), text, true);
        let prog = crate::syntax::parse(&source.text, &|_| false)
            .and_then(|p| crate::syntax::check_script_layout(&p).map(|_| p))
            .map_err(|e| super::syntax_error(e, &source))?;
        let mut unit = CodeUnit {
            source: source.clone(),
            functions: Default::default(),
            path: Some(path.clone()),
        };
        for def in &prog.functions {
            unit.functions.insert(def.name.clone(), def.clone());
        }
        let has_stmts = !prog.stmts.is_empty();
        if !has_stmts {
            if let Some(first) = prog.functions.first() {
                unit.functions.insert(name.into(), first.clone());
                let first = first.clone();
                return Ok(Loaded::Function(first, Rc::new(unit)));
            }
        }
        Ok(Loaded::Script(Rc::new(prog), Rc::new(unit)))
    }

    fn find_callee(&mut self, f: &Frame, name: &str) -> Option<Callee> {
        if let Some(def) = f.unit.functions.get(name) {
            return Some(Callee::User(def.clone(), f.unit.clone()));
        }
        // functions typed at the prompt are visible from the prompt and scripts, not files
        if f.unit.path.is_none() || !f.unit.source.is_file {
            if let Some((def, unit)) = self.session_functions.get(name) {
                return Some(Callee::User(def.clone(), unit.clone()));
            }
        }
        if let Some(l) = self.load_path_file(name) {
            return Some(match l {
                Loaded::Function(d, u) => Callee::User(d, u),
                Loaded::Script(p, u) => Callee::Script(p, u),
            });
        }
        builtins::lookup(name).map(Callee::Builtin)
    }

    /// Whether `name` called from `f` is a builtin (no function of the user's shadows it).
    pub fn is_builtin(&mut self, f: &Frame, name: &str) -> bool {
        matches!(self.find_callee(f, name), Some(Callee::Builtin(_)))
    }

    pub fn function_exists(&self, f: &Frame, name: &str) -> bool {
        f.unit.functions.contains_key(name)
            || self.session_functions.contains_key(name)
            || builtins::lookup(name).is_some()
            || self.find_file(&format!("{name}.m")).is_some()
    }

    /// Calls the function `name` (not a variable) with evaluated arguments.
    pub fn call_named(
        &mut self,
        f: &mut Frame,
        name: &str,
        args: Vec<Value>,
        nargout: usize,
    ) -> MResult<Vec<Value>> {
        match self.find_callee(f, name) {
            Some(Callee::Builtin(b)) => self.call_builtin(f, b, args, nargout),
            Some(Callee::User(def, unit)) => self.call_user(&def, &unit, args, nargout),
            Some(Callee::Script(prog, unit)) => {
                if !args.is_empty() {
                    return Err(MError::new(
                        "MATLAB:scriptNotAFunction",
                        format!("Attempt to execute SCRIPT {name} as a function."),
                    ));
                }
                self.run_script_in(f, &prog, &unit)?;
                Ok(vec![])
            }
            None => Err(match self.path_errors.get(name) {
                Some(e) => e.clone(),
                None => errors::undefined(name),
            }),
        }
    }

    pub fn call_builtin(
        &mut self,
        f: &mut Frame,
        b: &'static Builtin,
        args: Vec<Value>,
        nargout: usize,
    ) -> MResult<Vec<Value>> {
        // datetime/duration arrays take their own forms of generic functions
        if args.iter().any(|v| matches!(v, Value::Object(_))) {
            if let Some(r) = crate::builtins::time_methods::call(self, f, b.name, &args, nargout) {
                return r.map_err(|e| e.in_function(b.name));
            }
        }
        if args.len() < b.min_in {
            return Err(errors::not_enough_inputs(b.name));
        }
        self.check_depth()?;
        if let Some(max) = b.max_in {
            if args.len() > max {
                return Err(errors::too_many_inputs(b.name));
            }
        }
        // errors a program raises on purpose belong to the calling function, not the builtin
        let raiser = matches!(
            b.name,
            "error" | "rethrow" | "throw" | "throwAsCaller" | "assert" | "narginchk" | "nargoutchk"
        );
        // `v = error(...)` raises the error itself, not a complaint about outputs
        if nargout > b.max_out && !raiser {
            return Err(errors::too_many_outputs(b.name));
        }
        // Complex gpuArrays (and transforms of any gpuArray): their device forms, else host
        // data from here on (the result is a gpuArray again).
        let complex_arg = args.iter().any(|v| matches!(v, Value::DeviceComplex(_)));
        if complex_arg || matches!(b.name, "fft" | "ifft" | "fft2" | "ifft2" | "complex") {
            if let Some(r) = super::complex::builtin(self, f, b, &args, nargout) {
                return r.map_err(|e| e.in_function(b.name));
            }
        }
        let hosted_complex = complex_arg && !super::lower::reads_metadata_only(b.name);
        let args = if hosted_complex {
            super::complex::host_args(b.name, args)?
        } else {
            args
        };
        // Graph values: elementwise builtins append nodes; builtins that read only size and
        // class see them as they are; everything else gets host data (and gives gpuArray back
        // when it was handed one).
        let graph_arg = args
            .iter()
            .any(|v| matches!(v, Value::Device(_) | Value::Tensor(_)));
        if graph_arg && nargout <= 1 {
            let lazy = super::lower::reduction(b.name, &args)
                .or_else(|| super::dispersion::dispersion(b.name, &args))
                .or_else(|| super::views::view_builtin(b.name, &args))
                .or_else(|| super::joins::builtin(b.name, &args))
                .or_else(|| super::gathers::find_builtin(b.name, &args))
                .or_else(|| match args.as_slice() {
                    [x] => super::lower::unary_builtin(b.name)
                        .and_then(|op| super::lower::unary(op, x)),
                    [x, y] => super::lower::binary_builtin(b.name)
                        .and_then(|op| super::lower::binary(op, x, y)),
                    _ => None,
                });
            if let Some(v) = lazy {
                return Ok(vec![v]);
            }
        }
        if graph_arg && nargout == 2 {
            if let Some(v) = super::lower::reduction_with_index(b.name, &args) {
                return Ok(v);
            }
        }
        // Scans, sorts and sets of gpuArrays on the device (interp::scans); not of those
        // held on the host (`host_held`), which the host computes.
        if !super::host_held::any(&args) {
            if let Some(r) = super::scans::builtin(b.name, &args, nargout) {
                return r.map_err(|e| e.in_function(b.name));
            }
        }
        // (Word checks compare lengths first: no text is built for ordinary arguments.)
        let word = |v: &Value, w: &str| {
            v.is_text() && (v.is_string() || v.numel() == w.len()) && v.text().is_ok_and(|t| t == w)
        };
        // (`isa(g, 'gpuArray')` names the class; it constructs nothing.)
        let constructs_on_gpu = !super::lower::reads_metadata_only(b.name)
            && args.iter().enumerate().any(|(k, v)| {
                word(v, "gpuArray")
                    || (word(v, "like")
                        && args
                            .get(k + 1)
                            .is_some_and(|p| super::lower::explicit(&[p])))
            });
        if matches!(b.name, "rand" | "randn" | "randi") {
            let made =
                crate::builtins::random::device_random(self, b.name, &args, constructs_on_gpu)?;
            if let Some(v) = made {
                return Ok(vec![v]);
            }
        }
        let mut explicit = hosted_complex;
        let args = if args.iter().any(|v| matches!(v, Value::Device(_)))
            && !super::lower::reads_metadata_only(b.name)
        {
            explicit = super::lower::explicit(&args.iter().collect::<Vec<_>>());
            super::lower::host_args(args)?
        } else {
            args
        };
        // results computed in double take the class of the inputs, as MATLAB's rules say
        let classes = crate::builtins::result_class::ResultClass::for_call(b.name, &args);
        let r =
            super::interrupt::abortable(|| (b.f)(self, f, args, nargout)).map(|v| classes.apply(v));
        let r = if explicit && !super::lower::answers_on_host(b.name) {
            r.map(super::lower::rewrap)
        } else {
            r
        };
        // Constructors asked for device data: zeros(n, 'gpuArray'), rand(n, 'like', g).
        let r = if constructs_on_gpu {
            r.and_then(|v| v.into_iter().map(super::lower::to_device).collect())
        } else {
            r
        };
        match (r, raiser) {
            (Ok(v), _) => Ok(v),
            (Err(e), false) => Err(e.in_function(b.name)),
            (Err(e), true) => Err(match f.function_name() {
                Some(n) => e.in_function(n),
                None => e,
            }),
        }
    }

    /// MATLAB's recursion-limit error when one more level of calls (a function, `eval` of
    /// text, a script) would pass RECURSION_LIMIT or the native stack is nearly used up.
    pub fn check_depth(&self) -> MResult<()> {
        let low_stack = stacker::remaining_stack().is_some_and(|left| left < STACK_RESERVE);
        if self.depth >= RECURSION_LIMIT || low_stack {
            return Err(MError::new(
                "MATLAB:recursionLimit",
                format!("Maximum recursion limit of {RECURSION_LIMIT} reached."),
            ));
        }
        Ok(())
    }

    /// Runs `body` one level deeper (eval of text, a script): such levels count toward the
    /// recursion limit as function calls do, so `s = 'eval(s)'; eval(s)` is an error.
    pub fn nested<T>(&mut self, body: impl FnOnce(&mut Self) -> MResult<T>) -> MResult<T> {
        self.check_depth()?;
        self.depth += 1;
        let r = body(self);
        self.depth -= 1;
        r
    }

    /// Runs a script's statements in the caller's workspace.
    pub fn run_script_in(
        &mut self,
        f: &mut Frame,
        prog: &Rc<Program>,
        unit: &Rc<CodeUnit>,
    ) -> MResult<()> {
        resolve::stmts(&prog.stmts, f.layout_mut());
        f.sync();
        let saved = std::mem::replace(&mut f.unit, unit.clone());
        let r = self.nested(|i| i.exec_block(f, &prog.stmts));
        f.unit = saved;
        r.map(|_| ())
    }

    /// Calls a user-defined function.
    pub fn call_user(
        &mut self,
        def: &Rc<FunctionDef>,
        unit: &Rc<CodeUnit>,
        args: Vec<Value>,
        nargout: usize,
    ) -> MResult<Vec<Value>> {
        let np = def.params.len();
        let varargin = def.params.last().is_some_and(|p| &**p == "varargin");
        if args.len() > np && !varargin {
            return Err(errors::too_many_inputs(&def.name));
        }
        let varargout = def.outputs.last().is_some_and(|p| &**p == "varargout");
        let fixed_outs = if varargout {
            def.outputs.len() - 1
        } else {
            def.outputs.len()
        };
        if nargout > fixed_outs && !varargout {
            return Err(errors::too_many_outputs(&def.name));
        }
        self.check_depth()?;
        let layout = resolve::function_layout(def);
        let mut fr = Frame::new(layout, unit.clone());
        fr.function = Some(def.clone());
        fr.nargin = args.len();
        fr.nargout = nargout;
        fr.nparams = np;
        let mut args = args.into_iter();
        for (i, p) in def.params.iter().enumerate() {
            if varargin && i == np - 1 {
                let rest: Vec<Value> = args.by_ref().collect();
                fr.vars[i] = Slot::Val(Value::from(CellArray::row(rest)));
                break;
            }
            match args.next() {
                Some(v) if &**p != "~" => fr.vars[i] = Slot::Val(v),
                Some(_) => {}
                None => break,
            }
        }
        if varargin && fr.nargin < np {
            // varargin exists (empty) even when no extra arguments were passed
            fr.vars[np - 1] = Slot::Val(Value::from(CellArray::new(
                crate::values::shape::Shape::matrix(1, 0),
                vec![],
            )));
        }
        self.depth += 1;
        let r = self.exec_block(&mut fr, &def.body);
        self.depth -= 1;
        match r {
            Ok(Flow::Normal | Flow::Return | Flow::Break | Flow::Continue) => {}
            Err(mut e) => {
                let line = e.data().span.and_then(|s| {
                    e.data()
                        .source
                        .as_ref()
                        .map(|src| src.line_col(s.start as usize).0)
                });
                e.data_mut()
                    .stack
                    .push((def.name.to_string(), line.unwrap_or(0)));
                return Err(e);
            }
        }
        let mut outs = Vec::with_capacity(nargout.max(1));
        let want = nargout.max(1);
        for k in 0..want.min(fixed_outs) {
            match self.read_slot(&fr, np_slot(&fr, &def.outputs[k])) {
                Some(v) => outs.push(v),
                None => {
                    if k < nargout || (nargout == 0 && k == 0 && false) {
                        return Err(MError::new(
                            "MATLAB:unassignedOutputs",
                            format!(
                                "Output argument \"{}\" (and possibly others) not assigned a value in the execution with \"{}\" function.",
                                def.outputs[k], def.name
                            ),
                        ));
                    }
                    break;
                }
            }
        }
        if varargout && want > fixed_outs && outs.len() == fixed_outs {
            if let Some(Value::Cell(c)) = self.read_slot(&fr, np_slot(&fr, "varargout")) {
                for v in c.data.iter().take(want - fixed_outs) {
                    outs.push(v.clone());
                }
            }
            if outs.len() < nargout {
                return Err(MError::new(
                    "MATLAB:unassignedOutputs",
                    format!(
                        "Output argument \"varargout{{{}}}\" not assigned a value in the execution with \"{}\" function.",
                        outs.len() - fixed_outs + 1,
                        def.name
                    ),
                ));
            }
        }
        Ok(outs)
    }

    /// Calls a function handle.
    pub fn call_handle(
        &mut self,
        f: &mut Frame,
        h: &FuncHandle,
        args: Vec<Value>,
        nargout: usize,
    ) -> MResult<Vec<Value>> {
        match h {
            FuncHandle::Named { name, unit } => {
                if let Some(u) = unit {
                    if let Some(def) = u.functions.get(name) {
                        let (def, u) = (def.clone(), u.clone());
                        return self.call_user(&def, &u, args, nargout);
                    }
                }
                self.call_named(f, name, args, nargout)
            }
            FuncHandle::Anon {
                def,
                captures,
                unit,
            } => {
                let np = def.params.len();
                let varargs = def.params.last().is_some_and(|p| &**p == "varargin");
                if args.len() > np && !varargs {
                    return Err(errors::too_many_inputs(&def.text));
                }
                self.check_depth()?;
                let layout = def.scope.get().cloned().unwrap_or_default();
                let mut fr = Frame::new(layout, unit.clone());
                fr.nparams = def.params.len();
                fr.nargin = args.len();
                fr.nargout = nargout;
                let mut args = args;
                if varargs {
                    let rest = if args.len() >= np {
                        args.split_off(np - 1)
                    } else {
                        vec![]
                    };
                    let mut pos = args;
                    pos.resize_with(np - 1, || Value::Num(0.0));
                    let given = pos.len().min(fr.nargin);
                    for (i, v) in pos.into_iter().enumerate().take(given) {
                        fr.vars[i] = Slot::Val(v);
                    }
                    fr.vars[np - 1] =
                        Slot::Val(Value::from(crate::values::containers::CellArray::row(rest)));
                } else {
                    for (i, v) in args.into_iter().enumerate() {
                        fr.vars[i] = Slot::Val(v);
                    }
                }
                for (k, c) in captures.iter().enumerate() {
                    if let Some(v) = c {
                        fr.vars[def.params.len() + k] = Slot::Val(v.clone());
                    }
                }
                self.depth += 1;
                let r = if nargout == 1 {
                    self.eval(&mut fr, &def.body).map(|v| vec![v])
                } else {
                    self.eval_outputs(&mut fr, &def.body, nargout)
                };
                self.depth -= 1;
                r
            }
        }
    }

    /// Calls something given as a function handle or a function name (feval, cellfun...).
    pub fn call_value(
        &mut self,
        f: &mut Frame,
        fv: &Value,
        args: Vec<Value>,
        nargout: usize,
    ) -> MResult<Vec<Value>> {
        match fv {
            Value::Func(h) => {
                let h = h.clone();
                self.call_handle(f, &h, args, nargout)
            }
            v if v.is_text() => {
                let name = v.text()?;
                self.call_named(f, &name, args, nargout)
            }
            other => Err(MError::new(
                "MATLAB:feval:invalidInput",
                format!(
                    "Argument must contain a character vector or function handle, not a {}.",
                    other.class_name()
                ),
            )),
        }
    }

    /// Calls for exactly one output.
    pub fn call_value1(&mut self, f: &mut Frame, fv: &Value, args: Vec<Value>) -> MResult<Value> {
        let mut out = self.call_value(f, fv, args, 1)?;
        if out.is_empty() {
            return Err(MError::new(
                "MATLAB:TooManyOutputs",
                "Too many output arguments.",
            ));
        }
        Ok(out.swap_remove(0))
    }
}

fn np_slot(f: &Frame, name: &str) -> usize {
    f.layout.get(name).map(|s| s as usize).unwrap_or(usize::MAX)
}

fn name_is_path_safe(file: &str) -> bool {
    !file.contains('/') && !file.contains('\\') && !file.starts_with('.')
}
