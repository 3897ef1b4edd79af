//! MATLAB errors as values: an identifier, a message, where it happened. Every fallible step
//! returns `Result<_, MError>`; nothing a user types may panic.

use crate::syntax::span::{Source, Span};
use std::fmt;
use std::rc::Rc;

#[derive(Clone)]
pub struct MError(Box<ErrorData>);

#[derive(Clone, Debug)]
pub struct ErrorData {
    pub identifier: String,
    pub message: String,
    pub span: Option<Span>,
    pub source: Option<Rc<Source>>,
    /// The function the error was raised in (`Error using NAME`), if any.
    pub function: Option<String>,
    /// Call stack at the point of error: (function or script name, line).
    pub stack: Vec<(String, usize)>,
    /// Ctrl-C: not catchable by try/catch.
    pub interrupt: bool,
}

thread_local! {
    static PANIC_AT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Replaces the default panic printout: the location is kept for the internal error report
/// instead of being written over the user's session.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let at = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()));
        PANIC_AT.with(|p| *p.borrow_mut() = at);
    }));
}

/// Identifier of errors that are matfuse bugs rather than user mistakes.
pub const INTERNAL_ID: &str = "matfuse:internal";

impl MError {
    /// An internal failure (a caught panic), reported with a stable identifier.
    pub fn internal(payload: &(dyn std::any::Any + Send)) -> MError {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown failure".into());
        let at = PANIC_AT.with(|p| p.borrow_mut().take());
        let what = match at {
            Some(at) => format!("{what} at {at}"),
            None => what,
        };
        MError::new(
            INTERNAL_ID,
            format!(
                "Internal error in matfuse ({what}). The workspace is intact; please report this."
            ),
        )
    }
    pub fn is_internal(&self) -> bool {
        self.identifier() == INTERNAL_ID
    }
    pub fn new(identifier: impl Into<String>, message: impl Into<String>) -> MError {
        MError(Box::new(ErrorData {
            identifier: identifier.into(),
            message: message.into(),
            span: None,
            source: None,
            function: None,
            stack: Vec::new(),
            interrupt: false,
        }))
    }
    /// An error with a message and no identifier (as `error('text')` makes).
    pub fn msg(message: impl Into<String>) -> MError {
        MError::new("", message)
    }
    pub fn interrupted() -> MError {
        let mut e = MError::new("MATLAB:interrupted", "Operation terminated by user");
        e.0.interrupt = true;
        e
    }
    pub fn data(&self) -> &ErrorData {
        &self.0
    }
    pub fn data_mut(&mut self) -> &mut ErrorData {
        &mut self.0
    }
    pub fn identifier(&self) -> &str {
        &self.0.identifier
    }
    pub fn message(&self) -> &str {
        &self.0.message
    }
    pub fn is_interrupt(&self) -> bool {
        self.0.interrupt
    }
    /// Attaches a span (and its source) unless a more precise one is already there.
    pub fn at(mut self, span: Span, source: &Rc<Source>) -> MError {
        if self.0.span.is_none() {
            self.0.span = Some(span);
            self.0.source = Some(source.clone());
        }
        self
    }
    pub fn in_function(mut self, name: &str) -> MError {
        if self.0.function.is_none() {
            self.0.function = Some(name.to_string());
        }
        self
    }

    /// The report printed for an uncaught error: location, message, identifier, and the
    /// source line with a caret under the offending span.
    /// `[where: ]Error[ using f]: message [identifier]`, the source line with a caret under
    /// the span, and the functions the error passed through. `where` is `file:line:col` for
    /// files and piped input (the prompt shows the line itself instead).
    pub fn report(&self) -> String {
        let d = &self.0;
        if d.interrupt {
            return format!("{}\n", d.message);
        }
        let mut out = String::new();
        if let (Some(span), Some(src)) = (&d.span, &d.source) {
            if !src.name.is_empty() {
                let (line, col) = src.line_col(span.start as usize);
                out.push_str(&format!("{}:{line}:{col}: ", src.name));
            }
        }
        out.push_str("Error");
        if let Some(f) = &d.function {
            out.push_str(&format!(" using {f}"));
        }
        out.push_str(": ");
        out.push_str(&d.message);
        if !d.identifier.is_empty() {
            out.push_str(&format!(" [{}]", d.identifier));
        }
        out.push('\n');
        if let (Some(span), Some(src)) = (&d.span, &d.source) {
            for l in src.caret(*span).lines() {
                out.push_str("    ");
                out.push_str(l);
                out.push('\n');
            }
        }
        // Deep recursion repeats one frame hundreds of times: show each run of identical
        // frames once.
        let mut k = 0;
        while k < d.stack.len() {
            let (name, line) = &d.stack[k];
            let run = d.stack[k..]
                .iter()
                .take_while(|x| *x == &d.stack[k])
                .count();
            out.push_str(&format!("Error in {name} (line {line})\n"));
            if run > 1 {
                out.push_str(&format!("    (the same call {} more times)\n", run - 1));
            }
            k += run;
        }
        out
    }
}

impl fmt::Debug for MError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MError({:?}: {:?})", self.0.identifier, self.0.message)
    }
}

impl fmt::Display for MError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

pub type MResult<T> = Result<T, MError>;

/// Shorthand for building an error with an identifier and a formatted message.
#[macro_export]
macro_rules! merr {
    ($id:expr, $($fmt:tt)*) => {
        $crate::interp::error::MError::new($id, format!($($fmt)*))
    };
}

/// Common errors with MATLAB's identifiers and wording.
pub mod errors {
    use super::MError;
    pub fn undefined(name: &str) -> MError {
        MError::new(
            "MATLAB:UndefinedFunction",
            format!("Unrecognized function or variable '{name}'."),
        )
    }
    pub fn too_many_inputs(name: &str) -> MError {
        MError::new("MATLAB:TooManyInputs", "Too many input arguments.").in_function(name)
    }
    pub fn not_enough_inputs(name: &str) -> MError {
        MError::new("MATLAB:minrhs", "Not enough input arguments.").in_function(name)
    }
    pub fn too_many_outputs(name: &str) -> MError {
        MError::new("MATLAB:TooManyOutputs", "Too many output arguments.").in_function(name)
    }
    pub fn bad_index() -> MError {
        MError::new(
            "MATLAB:badsubscript",
            "Index in position 1 is invalid. Array indices must be positive integers or logical values.",
        )
    }
}
