//! Warnings: printed as `Warning: message`, switchable by identifier (`warning off id`,
//! `warning('off','all')`), remembered for `lastwarn`.

use std::cell::RefCell;
use std::collections::HashSet;

#[derive(Default)]
struct WarningState {
    all_off: bool,
    off: HashSet<String>,
    on: HashSet<String>,
    /// Identifiers turned into errors (`warning('error', id)`).
    errors: HashSet<String>,
    last: (String, String),
}

thread_local! {
    static STATE: RefCell<WarningState> = RefCell::new(WarningState::default());
}

pub fn enabled(id: &str) -> bool {
    STATE.with(|s| {
        let s = s.borrow();
        if !id.is_empty() && s.off.contains(id) {
            return false;
        }
        if s.all_off {
            return !id.is_empty() && s.on.contains(id);
        }
        true
    })
}

/// Issues a warning (unless it is switched off).
pub fn emit(id: &str, message: &str) {
    emit_from(id, message, None);
}

/// Issues a warning raised inside a function, adding MATLAB's `> In f (line N)` trailer.
pub fn emit_from(id: &str, message: &str, location: Option<(String, usize)>) {
    STATE.with(|s| s.borrow_mut().last = (message.to_string(), id.to_string()));
    if enabled(id) {
        let trailer = location
            .map(|(f, line)| format!("> In {f} (line {line})\n"))
            .unwrap_or_default();
        super::output::write_err(&format!("Warning: {message}\n{trailer}"));
    }
}

/// Whether warnings with this identifier are raised as errors.
pub fn is_error(id: &str) -> bool {
    !id.is_empty() && STATE.with(|s| s.borrow().errors.contains(id))
}

/// Makes warnings with this identifier errors (or warnings again).
pub fn set_error(id: &str, error: bool) {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if error {
            s.errors.insert(id.to_string());
        } else {
            s.errors.remove(id);
        }
    })
}

/// Every state that differs from the default: ("all", on/off) first, then each identifier.
pub fn states() -> Vec<(String, &'static str)> {
    STATE.with(|s| {
        let s = s.borrow();
        let mut out = vec![("all".to_string(), if s.all_off { "off" } else { "on" })];
        let mut ids: Vec<(String, &'static str)> = s
            .off
            .iter()
            .map(|i| (i.clone(), "off"))
            .chain(s.on.iter().map(|i| (i.clone(), "on")))
            .chain(s.errors.iter().map(|i| (i.clone(), "error")))
            .collect();
        ids.sort();
        out.extend(ids);
        out
    })
}

pub fn set(id: &str, on: bool) {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if id == "all" {
            s.all_off = !on;
            s.off.clear();
            s.on.clear();
        } else if on {
            s.errors.remove(id);
            s.off.remove(id);
            s.on.insert(id.to_string());
        } else {
            s.on.remove(id);
            s.off.insert(id.to_string());
        }
    })
}

/// (message, identifier) of the last warning.
pub fn last() -> (String, String) {
    STATE.with(|s| s.borrow().last.clone())
}

pub fn set_last(msg: &str, id: &str) {
    STATE.with(|s| s.borrow_mut().last = (msg.to_string(), id.to_string()));
}
