//! Raising and inspecting errors and warnings: error warning MException rethrow throw
//! getReport lasterr lastwarn assert.

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::display::printf;
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::interp::{objects, warning};
use crate::values::containers::{ExceptionData, Object, StructArray};
use crate::values::value::Value;
use std::rc::Rc;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("error", 1, -1, 0, "error(msg), error(fmt, args...), error(id, fmt, args...): raise an error.", error),
        b("warning", 0, -1, 1, "warning(msg), warning(id, fmt, ...), warning('off'|'on', id): issue or control warnings.", warning_fn),
        b("MException", 2, -1, 1, "MException(id, fmt, args...): an exception object (raise it with throw).", mexception),
        b("rethrow", 1, 1, 0, "rethrow(err): raise a caught error again.", rethrow),
        b("throw", 1, 1, 0, "throw(err): raise an MException.", rethrow),
        b("throwAsCaller", 1, 1, 0, "throwAsCaller(err): raise an MException as if from the caller.", rethrow),
        b("getReport", 1, -1, 1, "getReport(err): the error message as text.", get_report),
        b("lasterr", 0, 2, 2, "lasterr: the message of the last error.", lasterr),
        b("lastwarn", 0, 2, 2, "lastwarn: the message of the last warning.", lastwarn),
        b("assert", 1, -1, 0, "assert(cond, msg, ...): raise an error when cond is false.", assert),
    ]
}

fn is_identifier(s: &str) -> bool {
    s.contains(':')
        && !s.contains(char::is_whitespace)
        && s.split(':').all(|p| {
            !p.is_empty()
                && p.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        })
}

/// (identifier, message) from error-style arguments.
fn id_and_message(a: &[Value]) -> MResult<(String, String)> {
    let first = text_arg(&a[0], "error")?;
    if a.len() >= 2 && is_identifier(&first) {
        let fmt = printf::unescape(&text_arg(&a[1], "error")?);
        return Ok((first, printf::sprintf(&fmt, &a[2..])?));
    }
    if a.len() == 1 {
        return Ok((String::new(), first));
    }
    Ok((
        String::new(),
        printf::sprintf(&printf::unescape(&first), &a[1..])?,
    ))
}

/// The identifier and message of an error struct (missing fields are empty).
fn struct_error(s: &StructArray) -> (String, String) {
    let field = |name: &str| {
        s.get(0, name)
            .and_then(|v| v.text().ok())
            .unwrap_or_default()
    };
    (field("identifier"), field("message"))
}

fn error(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if let Value::Struct(s) = &a[0] {
        let (id, msg) = struct_error(s);
        if msg.is_empty() {
            return Ok(vec![]);
        }
        return Err(MError::new(id, msg));
    }
    if a[0].is_empty() && a.len() == 1 {
        return Ok(vec![]);
    }
    let (id, msg) = id_and_message(&a)?;
    let mut e = MError::new(id, msg);
    e.data_mut().function = None;
    Err(e)
}

fn warning_states(nargout: usize) -> R {
    let states = warning::states();
    if nargout > 0 {
        let mut s = crate::values::containers::StructArray::empty_with(
            vec!["identifier".into(), "state".into()],
            crate::values::shape::Shape::col(states.len()),
        );
        for (k, (id, st)) in states.iter().enumerate() {
            s.elems[k] = vec![Value::str(id), Value::str(st)];
        }
        return one(s);
    }
    let mut out = format!("All warnings have the state '{}'.\n", states[0].1);
    for (id, st) in &states[1..] {
        out.push_str(&format!("Warning '{id}' has the state '{st}'.\n"));
    }
    crate::interp::output::write_str(&out);
    Ok(vec![])
}

fn warning_fn(_: &mut Interp, f: &mut Frame, a: A, nargout: usize) -> R {
    if a.is_empty() {
        return warning_states(nargout);
    }
    // warning(state): restores states saved from an earlier call
    if let Value::Struct(st) = &a[0] {
        for k in 0..st.numel() {
            let id = st.get(k, "identifier").and_then(|v| v.text().ok());
            let state = st.get(k, "state").and_then(|v| v.text().ok());
            if let (Some(id), Some(state)) = (id, state) {
                warning::set(&id, state.eq_ignore_ascii_case("on"));
            }
        }
        return Ok(vec![]);
    }
    let first = text_arg(&a[0], "warning")?;
    match first.to_lowercase().as_str() {
        "off" | "on" => {
            let id = match a.get(1) {
                Some(v) => text_arg(v, "warning")?,
                None => "all".into(),
            };
            let before = if warning::enabled(if id == "all" { "" } else { &id }) {
                "on"
            } else {
                "off"
            };
            warning::set(&id, first.eq_ignore_ascii_case("on"));
            if nargout > 0 {
                let mut s = crate::values::containers::StructArray::scalar();
                s.set(0, "identifier", Value::str(&id));
                s.set(0, "state", Value::str(before));
                return one(s);
            }
            return Ok(vec![]);
        }
        "error" => {
            if let Some(v) = a.get(1) {
                warning::set_error(&text_arg(v, "warning")?, true);
            }
            return Ok(vec![]);
        }
        "query" if a.len() == 1 => return warning_states(nargout),
        "query" => {
            let id = match a.get(1) {
                Some(v) => text_arg(v, "warning")?,
                None => "all".into(),
            };
            let state = if warning::enabled(&id) { "on" } else { "off" };
            if nargout > 0 {
                let mut s = crate::values::containers::StructArray::scalar();
                s.set(0, "identifier", Value::str(&id));
                s.set(0, "state", Value::str(state));
                return one(s);
            }
            crate::interp::output::write_str(&format!(
                "The state of warning '{id}' is '{state}'.\n"
            ));
            return Ok(vec![]);
        }
        _ => {}
    }
    let (id, msg) = id_and_message(&a)?;
    if warning::is_error(&id) {
        return Err(MError::new(id, msg));
    }
    let location = f.function.as_ref().map(|d| {
        let line = f.unit.source.line_col(f.at as usize).0;
        (d.name.to_string(), line)
    });
    warning::emit_from(&id, &msg, location);
    Ok(vec![])
}

fn mexception(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let id = text_arg(&a[0], "MException")?;
    let fmt = printf::unescape(&text_arg(&a[1], "MException")?);
    let msg = printf::sprintf(&fmt, &a[2..])?;
    one(Value::Object(Rc::new(Object::MException(ExceptionData {
        identifier: id,
        message: msg,
        stack: vec![],
    }))))
}

fn rethrow(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    match &a[0] {
        Value::Object(o) => match o.as_ref() {
            Object::MException(x) => Err(objects::to_error(x)),
            _ => Err(bad_arg("rethrow", "Input must be an MException object.")),
        },
        Value::Struct(s) => {
            let (id, msg) = struct_error(s);
            Err(MError::new(id, msg))
        }
        _ => Err(bad_arg(
            "rethrow",
            "Input must be an MException object or an error struct.",
        )),
    }
}

fn get_report(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    match &a[0] {
        Value::Object(o) => match o.as_ref() {
            Object::MException(x) => one(Value::str(&format!("Error: {}", x.message))),
            _ => Err(bad_arg("getReport", "Input must be an MException object.")),
        },
        _ => Err(bad_arg("getReport", "Input must be an MException object.")),
    }
}

fn lasterr(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let (msg, id) = match &i.last_error {
        Some(e) => (e.message().to_string(), e.identifier().to_string()),
        None => (String::new(), String::new()),
    };
    // lasterr(msg, id) sets the record (after returning the previous one)
    if let Some(m) = a.first() {
        let m = text_arg(m, "lasterr")?;
        let new_id = match a.get(1) {
            Some(v) => text_arg(v, "lasterr")?,
            None => String::new(),
        };
        i.last_error = (!m.is_empty() || !new_id.is_empty()).then(|| MError::new(new_id, m));
    }
    let mut out = vec![Value::str(&msg)];
    if nargout > 1 {
        out.push(Value::str(&id));
    }
    Ok(out)
}

fn lastwarn(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let (msg, id) = warning::last();
    if let Some(m) = a.first() {
        let new_id = match a.get(1) {
            Some(v) => text_arg(v, "lastwarn")?,
            None => String::new(),
        };
        warning::set_last(&text_arg(m, "lastwarn")?, &new_id);
    }
    let mut out = vec![Value::str(&msg)];
    if nargout > 1 {
        out.push(Value::str(&id));
    }
    Ok(out)
}

fn assert(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if !a[0].is_numeric_like() || a[0].is_char() || a[0].numel() != 1 {
        return Err(MError::new(
            "MATLAB:assertion:LogicalScalar",
            "The condition input argument must be a scalar logical value.",
        ));
    }
    let ok = a[0].truthy().unwrap_or(false);
    if ok {
        return Ok(vec![]);
    }
    if a.len() == 1 {
        return Err(MError::new("MATLAB:assertion:failed", "Assertion failed."));
    }
    let (id, msg) = id_and_message(&a[1..])?;
    Err(MError::new(
        if id.is_empty() {
            "MATLAB:assertion:failed".to_string()
        } else {
            id
        },
        msg,
    ))
}
