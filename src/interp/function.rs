//! Callable things: function handles, code units (a file or an input with its local
//! functions), and the frame a call runs in.

use crate::syntax::ast::{AnonDef, FunctionDef, Name};
use crate::syntax::resolve::Layout;
use crate::syntax::span::Source;
use crate::values::value::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

/// A unit of code: its source text and the functions defined in it (a function file's
/// subfunctions, or a script's local functions).
#[derive(Debug)]
pub struct CodeUnit {
    pub source: Rc<Source>,
    pub functions: HashMap<Name, Rc<FunctionDef>>,
    pub path: Option<PathBuf>,
}

impl CodeUnit {
    pub fn new(source: Rc<Source>) -> Rc<CodeUnit> {
        Rc::new(CodeUnit {
            source,
            functions: HashMap::new(),
            path: None,
        })
    }
}

#[derive(Debug)]
pub enum FuncHandle {
    /// `@name`: a builtin, a function on the path, or a local function of `unit`.
    Named {
        name: Name,
        unit: Option<Rc<CodeUnit>>,
    },
    /// `@(x) body`, with the values it captured when it was made (one per slot of its scope
    /// past the parameters; `None` where the name was not a variable then).
    Anon {
        def: Rc<AnonDef>,
        captures: Vec<Option<Value>>,
        unit: Rc<CodeUnit>,
    },
}

impl FuncHandle {
    /// The text `func2str` returns and display shows after `@` (named) or in full (anonymous).
    pub fn text(&self) -> String {
        match self {
            FuncHandle::Named { name, .. } => name.to_string(),
            FuncHandle::Anon { def, .. } => def.text.clone(),
        }
    }
    pub fn display_text(&self) -> String {
        match self {
            FuncHandle::Named { name, .. } => format!("@{name}"),
            FuncHandle::Anon { def, .. } => def.text.clone(),
        }
    }
}

/// What a variable slot holds.
#[derive(Debug, Clone, Default)]
pub enum Slot {
    #[default]
    Empty,
    Val(Value),
    /// Declared `global` in this scope: the value lives in the interpreter's global table.
    Global,
    /// Declared `persistent`: the value lives in the function's persistent table.
    Persistent,
}

/// One workspace: the base workspace, a function call's, or an anonymous function's.
#[derive(Debug)]
pub struct Frame {
    pub layout: Rc<Layout>,
    pub vars: Vec<Slot>,
    pub unit: Rc<CodeUnit>,
    /// The running function (None for the base workspace).
    pub function: Option<Rc<FunctionDef>>,
    pub nargin: usize,
    pub nargout: usize,
    /// How many leading slots are parameters (a missing one is "Not enough input arguments").
    pub nparams: usize,
    /// Byte offset of the statement running in this frame (for warnings' `> In f (line N)`).
    pub at: u32,
}

impl Frame {
    pub fn new(layout: Rc<Layout>, unit: Rc<CodeUnit>) -> Frame {
        let n = layout.len();
        Frame {
            layout,
            vars: vec![Slot::Empty; n],
            unit,
            function: None,
            nargin: 0,
            nargout: 0,
            nparams: 0,
            at: 0,
        }
    }
    /// Makes sure every name of the layout has a slot (after the layout grew).
    pub fn sync(&mut self) {
        if self.vars.len() < self.layout.len() {
            self.vars.resize(self.layout.len(), Slot::Empty);
        }
    }
    /// The layout, for adding names (copy-on-write when shared with a function definition).
    pub fn layout_mut(&mut self) -> &mut Layout {
        Rc::make_mut(&mut self.layout)
    }
    pub fn slot_of(&mut self, name: &str) -> usize {
        let name: Name = name.into();
        let s = self.layout_mut().slot(&name) as usize;
        self.sync();
        s
    }
    pub fn name_of(&self, slot: usize) -> &Name {
        &self.layout.names[slot]
    }
    pub fn function_name(&self) -> Option<&str> {
        self.function.as_ref().map(|f| &*f.name)
    }
}
