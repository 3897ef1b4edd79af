//! Graphics builtins: they parse MATLAB's argument forms and call into `crate::graphics`,
//! which holds the figures and draws them. Families: figures and axes (`figures`), line-like
//! plots (`plotting`), bars, bins and shapes (`shapes`), pies, arrows, polar lines, heatmaps and figure titles (`charts`), gridded data and colour (`grids`),
//! labels and axis settings (`decor`), files (`export`), and the names not drawn yet
//! (`stubs`).

mod charts;
mod decor;
mod export;
mod figures;
mod grids;
mod plotting;
mod shapes;
mod stubs;

use super::Builtin;
use crate::graphics::SceneRef;
use crate::graphics::handle;
use crate::graphics::model::{Id, Kind};
use crate::graphics::{Scene, props};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

pub fn table() -> Vec<Builtin> {
    let mut t = Vec::new();
    t.extend(figures::table());
    t.extend(plotting::table());
    t.extend(shapes::table());
    t.extend(charts::table());
    t.extend(grids::table());
    t.extend(decor::table());
    t.extend(export::table());
    let have: std::collections::HashSet<&str> = t.iter().map(|b| b.name).collect();
    t.extend(
        stubs::table()
            .into_iter()
            .filter(|b| !have.contains(b.name)),
    );
    t
}

/// delete(h) for graphics handles (the file builtin `delete` hands them here).
pub(super) fn delete_handles(
    i: &mut Interp,
    f: &mut crate::interp::function::Frame,
    a: A,
    n: usize,
) -> R {
    figures::delete(i, f, a, n)
}

pub(super) fn scene_of(i: &Interp) -> SceneRef {
    i.graphics.clone()
}

/// The scene, borrowed for a builtin's work (a reentrant borrow is an error, not a panic).
pub(super) fn borrow(s: &SceneRef) -> MResult<std::cell::RefMut<'_, Scene>> {
    s.try_borrow_mut()
        .map_err(|_| MError::new("MATLAB:graphics:Busy", "The graphics objects are in use."))
}

/// An axes handle given as the first argument (`plot(ax, ...)`), taken off the list.
pub(super) fn leading_axes(scene: &Scene, a: &mut A) -> Option<Id> {
    let ax = a
        .first()
        .and_then(|v| handle::one_of(scene, v, Kind::Axes))?;
    a.remove(0);
    Some(ax)
}

/// The axes a plotting call draws into, cleared unless hold is on.
pub(super) fn plot_axes(scene: &mut Scene, given: Option<Id>) -> Id {
    let ax = match given {
        Some(a) => {
            scene.set_current_axes(a);
            a
        }
        None => scene.current_axes(),
    };
    scene.prepare_axes(ax);
    ax
}

/// Real values of a numeric argument, gathered from the device once, with its rows and
/// columns.
pub(super) fn matrix(v: &Value, fname: &str) -> MResult<(usize, usize, Vec<f64>)> {
    if !v.is_numeric_like() || v.is_char() {
        return Err(MError::new(
            format!("MATLAB:{fname}:invalidData"),
            format!("Data inputs to {fname} must be numeric or logical."),
        ));
    }
    let v = v.clone().host()?;
    let t = v.tensor()?;
    let s = &t.shape;
    let rows = s.rows();
    let cols = if rows == 0 {
        s.numel()
    } else {
        s.numel() / rows
    };
    // a copy of 3e7 doubles is a fifth of a second: made a chunk at a time, watching Ctrl-C
    let data = match t.to_f64() {
        std::borrow::Cow::Borrowed(v) => crate::interp::interrupt::copied(v),
        std::borrow::Cow::Owned(v) => v,
    };
    Ok((rows, cols, data))
}

/// Applies name-value pairs to objects.
pub(super) fn apply_pairs(scene: &mut Scene, ids: &[Id], pairs: &[Value]) -> MResult<()> {
    if pairs.len() % 2 != 0 {
        return Err(MError::new(
            "MATLAB:hg:set:OddNumberOfArguments",
            "Name-value arguments must come in pairs.",
        ));
    }
    for p in pairs.chunks(2) {
        let name = p[0].text().map_err(|_| {
            MError::new(
                "MATLAB:hg:set:InvalidPropertyName",
                "Property names must be text.",
            )
        })?;
        for id in ids {
            props::set(scene, *id, &name, &p[1])?;
        }
    }
    Ok(())
}

/// The handles a call returns: none unless asked for.
pub(super) fn handles_out(scene: &Scene, ids: Vec<Id>, nargout: usize) -> R {
    if nargout == 0 {
        return Ok(vec![]);
    }
    Ok(vec![scene.handles(ids)])
}

pub(super) fn bad(fname: &str, msg: impl Into<String>) -> MError {
    MError::new(format!("MATLAB:{fname}:invalidInput"), msg.into())
}
