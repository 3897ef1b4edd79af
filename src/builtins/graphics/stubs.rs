//! Graphics functions not drawn yet: each prints one notice per session and the script goes
//! on; calls that return a handle get a placeholder struct.

use crate::builtins::{Builtin, b};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::interp::output;
use crate::values::containers::StructArray;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

const HELP: &str =
    "Graphics are not available yet: the call prints a notice once and the script continues.";

/// Graphics functions (a returned handle is a placeholder struct).
const GRAPHICS: &[&str] = &[
    "uifigure",
    "yyaxis",
    "polaraxes",
    "fplot",
    "bar3",
    "histogram2",
    "pie3",
    "boxplot",
    "surfc",
    "meshc",
    "contour3",
    "quiver3",
    "fill3",
    "rectangle",
    "annotation",
    "subtitle",
    "xtickangle",
    "ytickangle",
    "xtickformat",
    "ytickformat",
    "daspect",
    "pbaspect",
    "lighting",
    "camlight",
    "light",
    "material",
    "alpha",
    "linkaxes",
    "zoom",
    "rotate3d",
    "pan",
    "datetick",
    "savefig",
    "colororder",
    "ginput",
    "waitbar",
];

pub fn table() -> Vec<Builtin> {
    GRAPHICS
        .iter()
        .map(|name| b(name, 0, -1, 1, HELP, notice))
        .collect()
}

thread_local! {
    static NOTICES: std::cell::RefCell<std::collections::HashSet<String>> = Default::default();
}

fn notice(_: &mut Interp, _: &mut Frame, _: A, nargout: usize) -> R {
    if NOTICES.with(|n| n.borrow_mut().insert(String::new())) {
        output::write_err(
            "Note: some graphics functions are not available yet; those calls are ignored.\n",
        );
    }
    if nargout == 0 {
        return Ok(vec![]);
    }
    let mut s = StructArray::scalar();
    s.set(0, "Type", Value::str("graphics placeholder"));
    Ok((0..nargout).map(|_| Value::from(s.clone())).collect())
}
