//! Warnings: printed as `Warning: message`, switchable by identifier (`warning off id`,
//! `warning('off','all')`), remembered for `lastwarn`.

use std::cell::RefCell;
use std::collections::HashSet;

#[derive(Default)]
struct WarningState {
    all_off: bool,
    off: HashSet<String>,
    on: HashSet<String>,
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
    STATE.with(|s| s.borrow_mut().last = (message.to_string(), id.to_string()));
    if enabled(id) {
        super::output::write_err(&format!("Warning: {message}\n"));
    }
}

pub fn set(id: &str, on: bool) {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if id == "all" {
            s.all_off = !on;
            s.off.clear();
            s.on.clear();
        } else if on {
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
