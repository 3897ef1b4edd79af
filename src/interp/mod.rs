//! The evaluator: the session state (workspaces, globals, functions, format, random stream),
//! statement execution, expression evaluation, assignment, calls.

mod append;
pub mod assign;
mod bins;
pub mod call;
pub mod complex;
mod complex_fns;
mod complex_inverse;
mod complex_order;
mod complex_power;
mod complex_prod;
mod convolve;
mod deletion;
mod device_loss;
mod dispersion;
pub mod error;
pub mod eval;
pub mod exec;
pub mod fill;
mod fourier;
pub mod function;
mod gathers;
pub mod host_held;
pub mod interrupt;
mod joins;
pub mod loops;
pub mod lower;
mod masked;
pub mod objects;
pub mod output;
mod outputs;
mod part_read;
pub mod product;
mod put;
mod put_empty;
mod put_fused;
mod put_subs;
pub use put::planning as put_planning;
pub mod scalar;
mod scans;
mod settle;
mod slice_read;
mod slices;
mod sorts;
pub mod spread;
pub mod views;
pub mod warning;

use crate::display::Format;
use crate::syntax::SyntaxError;
use crate::syntax::ast::{FunctionDef, Name};
use crate::syntax::resolve::{self, Layout};
use crate::syntax::span::Source;
use crate::values::rng::RngState;
use crate::values::value::Value;
use error::{MError, MResult};
use eval::EndCtx;
use function::{CodeUnit, Frame};
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

pub struct Interp {
    /// The base workspace.
    pub base: Frame,
    pub globals: HashMap<Name, Value>,
    pub persistents: HashMap<(usize, Name), Value>,
    /// Functions defined at the prompt or in piped input.
    pub session_functions: HashMap<Name, (Rc<FunctionDef>, Rc<CodeUnit>)>,
    /// Parsed path files by name (None: no such file), with the file's modification time so
    /// an edited file is re-read; kept across prompts so persistent variables survive.
    pub path_cache: HashMap<String, Option<call::Loaded>>,
    pub path_stamps: HashMap<String, (std::path::PathBuf, Option<std::time::SystemTime>)>,
    /// Why a file on the path named like a called function could not be loaded.
    pub path_errors: HashMap<String, error::MError>,
    pub search_path: Vec<PathBuf>,
    pub format: Format,
    pub rng: RngState,
    pub end_stack: Vec<EndCtx>,
    pub depth: usize,
    /// Set by Ctrl-C; checked by loops and long operations.
    pub interrupt: Arc<AtomicBool>,
    pub last_error: Option<MError>,
    pub tic: Option<Instant>,
    /// Output width for wrapping wide matrices (columns of the terminal, 80 otherwise).
    pub term_width: usize,
    /// Command-line arguments after the script's name (`argv`).
    pub script_args: Vec<String>,
    /// Files opened with fopen, by identifier.
    pub files: crate::io::files::FileTable,
    /// Figures and the other graphics objects; shown after each top-level statement.
    pub graphics: crate::graphics::SceneRef,
}

/// Turns a syntax error into a MATLAB error located in `source`.
pub fn syntax_error(e: SyntaxError, source: &Rc<Source>) -> MError {
    let mut err = MError::new(e.identifier, e.message);
    err = err.at(e.span, source);
    err
}

impl Default for Interp {
    fn default() -> Self {
        Interp::new()
    }
}

impl Interp {
    pub fn new() -> Interp {
        let unit = CodeUnit::new(Source::new("", "", false));
        Interp {
            base: Frame::new(Rc::new(Layout::default()), unit),
            globals: HashMap::new(),
            persistents: HashMap::new(),
            session_functions: HashMap::new(),
            path_cache: HashMap::new(),
            path_stamps: HashMap::new(),
            path_errors: HashMap::new(),
            search_path: Vec::new(),
            format: Format::default(),
            rng: RngState::default(),
            end_stack: Vec::new(),
            depth: 0,
            interrupt: Arc::new(AtomicBool::new(false)),
            last_error: None,
            tic: None,
            term_width: 80,
            script_args: Vec::new(),
            files: Default::default(),
            graphics: crate::graphics::new_scene(),
        }
    }

    /// Parses and runs `text` in the base workspace. Function definitions in it become
    /// available to the whole session (a script file's own local functions stay with it).
    /// Returns the first error; statements before it have run.
    pub fn run_source(&mut self, source: Rc<Source>) -> MResult<()> {
        crate::gpu::stats::next_input();
        interrupt::watch(&self.interrupt);
        self.report_device_loss();
        self.refresh_path_cache();
        let base = &self.base;
        let globals = &self.globals;
        let is_var = |name: &str| match base.layout.get(name) {
            Some(s) => match &base.vars[s as usize] {
                function::Slot::Val(_) => true,
                function::Slot::Global => globals.contains_key(name),
                _ => false,
            },
            None => false,
        };
        let prog = crate::syntax::parse(&source.text, &is_var)
            .and_then(|p| {
                if source.is_file {
                    crate::syntax::check_script_layout(&p)?;
                }
                Ok(p)
            })
            .map_err(|e| syntax_error(e, &source))?;
        let mut unit = CodeUnit {
            source: source.clone(),
            functions: HashMap::new(),
            path: None,
        };
        for def in &prog.functions {
            unit.functions.insert(def.name.clone(), def.clone());
        }
        let unit = Rc::new(unit);
        if !source.is_file {
            for def in &prog.functions {
                self.session_functions
                    .insert(def.name.clone(), (def.clone(), unit.clone()));
            }
        }
        let mut base = std::mem::replace(
            &mut self.base,
            Frame::new(Rc::new(Layout::default()), unit.clone()),
        );
        resolve::stmts(&prog.stmts, base.layout_mut());
        base.sync();
        base.unit = unit;
        // A panic is a bug in matfuse, never the user's fault: report it as an error and keep
        // the session and its workspace alive.
        let r = interrupt::catching(|| self.exec_block(&mut base, &prog.stmts))
            .unwrap_or_else(|payload| Err(interrupt::error_of(payload)));
        self.base = base;
        self.end_stack.clear();
        self.depth = 0;
        self.report_device_loss();
        self.settle_workspace();
        // figures changed by this input are shown once, after it (drawnow shows them sooner)
        self.present_figures();
        // The GPU works on what this input recorded while the user types the next.
        crate::gpu::batch::flush();
        r.map(|_| ())
    }

    /// Shows the figures changed since the last call (`drawnow`, and after each top-level
    /// statement).
    pub fn present_figures(&mut self) {
        if let Ok(mut scene) = self.graphics.try_borrow_mut() {
            crate::graphics::output::present(&mut scene);
        }
    }

    /// Runs a string of code (for `-e`, tests, and embedding).
    pub fn run_str(&mut self, code: &str) -> MResult<()> {
        self.run_source(Source::new("", code, false))
    }

    /// Prints a named value as the Command Window does.
    pub fn display(&mut self, name: &str, v: &Value) {
        let text = crate::display::display_named(name, v, &self.format, self.term_width);
        output::write_str(&text);
    }

    /// Current value of a base-workspace variable.
    pub fn var(&self, name: &str) -> Option<Value> {
        self.lookup_var(&self.base, name)
    }
}
