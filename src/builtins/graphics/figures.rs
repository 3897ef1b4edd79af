//! Figures and axes: `figure`, `gcf`, `gca`, `clf`, `cla`, `close`, `hold`, `ishold`,
//! `subplot`, `tiledlayout`, `nexttile`, `axes`, `get`, `set`, `delete`, `drawnow`,
//! `ishandle`, `isgraphics`, `isvalid`.

use super::{A, R, apply_pairs, bad, borrow, handles_out, scene_of};
use crate::builtins::{Builtin, b};
use crate::graphics::handle::{self, ids_of};
use crate::graphics::model::{Id, Kind};
use crate::graphics::{layout, props};
use crate::interp::Interp;
use crate::interp::error::MError;
use crate::interp::function::Frame;
use crate::values::containers::StructArray;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("figure", 0, -1, 1, "figure, figure(n), figure(h), figure('Name', v, ...): makes a new figure (or makes figure n current, creating it) and returns its handle.", figure),
        b("gcf", 0, 0, 1, "gcf: the current figure (made if there is none).", gcf),
        b("gca", 0, 0, 1, "gca: the current axes (made, in a new figure if need be, if there is none).", gca),
        b("clf", 0, 2, 1, "clf, clf(f), clf reset: deletes the figure's axes.", clf),
        b("cla", 0, 2, 1, "cla, cla(ax), cla reset: deletes the axes' plots.", cla),
        b("close", 0, -1, 1, "close, close(n), close(h), close all: closes figures.", close),
        b("hold", 0, 2, 0, "hold on, hold off, hold(ax, 'on'), hold: whether plotting adds to the axes or replaces what is there.", hold),
        b("ishold", 0, 1, 1, "ishold, ishold(ax): whether hold is on.", ishold),
        b("subplot", 1, -1, 1, "subplot(m, n, k), subplot(mnk): makes (or selects) axes k of an m-by-n grid in the current figure.", subplot),
        b("tiledlayout", 0, -1, 1, "tiledlayout(m, n): divides the current figure into an m-by-n grid of tiles for nexttile.", tiledlayout),
        b("nexttile", 0, 2, 1, "nexttile, nexttile(k): axes in the next (or k-th) tile of the layout.", nexttile),
        b("axes", 0, -1, 1, "axes, axes('Position', p, ...), axes(ax): makes axes in the current figure (or makes ax current).", axes),
        b("get", 1, 2, 1, "get(h, 'Name'): a graphics property (names can be abbreviated: get(1, 'pos')); get(h): all of them as a struct.", get),
        b("set", 1, -1, 0, "set(h, 'Name', value, ...): sets graphics properties.", set),
        b("delete", 1, 1, 0, "delete(h): deletes graphics objects.", delete),
        b("drawnow", 0, -1, 0, "drawnow: shows the figures changed so far now, instead of after the statement.", drawnow),
        b("refresh", 0, 1, 0, "refresh: redraws the current figure.", drawnow),
        b("ishandle", 1, 1, 1, "ishandle(h): true where h is a graphics handle (or figure number) of a live object.", ishandle),
        b("isgraphics", 1, 2, 1, "isgraphics(h), isgraphics(h, type): true where h is a live graphics object (of that type).", isgraphics),
        b("ishghandle", 1, 1, 1, "ishghandle(h): true where h is a graphics handle (or figure number) of a live object.", ishandle),
        b("isvalid", 1, 1, 1, "isvalid(h): true where the handle's object has not been deleted.", ishandle),
    ]
}

fn figure(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let (fig, pairs) = match a.first() {
        Some(v) if !v.is_text() => {
            let fig = if handle::is_handle_value(v) {
                match ids_of(&scene, v)?.as_slice() {
                    [f] if scene.kind(*f) == Some(Kind::Figure) => *f,
                    _ => {
                        return Err(bad(
                            "figure",
                            "The argument must be a figure handle or number.",
                        ));
                    }
                }
            } else {
                let n = v.scalar_f64()?;
                if !(n >= 1.0) || n.fract() != 0.0 || n > 1e9 {
                    return Err(bad("figure", "Figure numbers must be positive integers."));
                }
                match scene.figure_by_number(n) {
                    Some(f) => f,
                    None => scene.new_figure(Some(n as u64)),
                }
            };
            scene.current_figure = Some(fig);
            (fig, &a[1..])
        }
        _ => (scene.new_figure(None), &a[..]),
    };
    apply_pairs(&mut scene, &[fig], pairs)?;
    handles_out(&scene, vec![fig], nargout)
}

fn gcf(i: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let f = scene.current_figure();
    Ok(vec![scene.handle(f)])
}

fn gca(i: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let ax = scene.current_axes();
    Ok(vec![scene.handle(ax)])
}

/// The figures (or axes) a call names, or the current one.
fn targets(
    scene: &mut crate::graphics::Scene,
    a: &A,
    kind: Kind,
) -> crate::interp::error::MResult<Vec<Id>> {
    match a.iter().find(|v| !v.is_text()) {
        Some(v) => {
            let ids = ids_of(scene, v)?;
            if ids.iter().any(|i| scene.kind(*i) != Some(kind)) {
                return Err(bad(
                    "graphics",
                    format!("Expected {} handles.", kind.type_name()),
                ));
            }
            Ok(ids)
        }
        None => Ok(vec![match kind {
            Kind::Figure => scene.current_figure(),
            _ => scene.current_axes(),
        }]),
    }
}

fn clf(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let figs = targets(&mut scene, &a, Kind::Figure)?;
    for f in &figs {
        let children = scene.obj(*f)?.children.clone();
        for c in children {
            scene.delete(c);
        }
        if let Ok(o) = scene.obj_mut(*f) {
            o.grid = None;
            o.arrangement = layout::Arrangement::Fixed;
            o.put("CurrentAxes", Value::empty());
        }
        scene.touch(*f);
    }
    handles_out(&scene, figs, nargout)
}

fn cla(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let reset = a
        .iter()
        .any(|v| v.text().is_ok_and(|t| t.eq_ignore_ascii_case("reset")));
    let axes = targets(&mut scene, &a, Kind::Axes)?;
    for ax in &axes {
        if reset {
            scene.reset_axes(*ax);
        } else {
            let children = scene.obj(*ax)?.children.clone();
            for c in children {
                scene.delete(c);
            }
            for name in ["Legend", "Colorbar"] {
                if let Some(l) = scene.linked(*ax, name) {
                    scene.delete(l);
                }
            }
            if let Ok(o) = scene.obj_mut(*ax) {
                o.put("ColorOrderIndex", Value::Num(1.0));
            }
            scene.touch(*ax);
        }
    }
    handles_out(&scene, axes, nargout)
}

fn close_figure(scene: &mut crate::graphics::Scene, f: Id) {
    if let Some(n) = scene.objs.get(&f).map(|o| o.num("Number", 0.0) as u64) {
        scene.announced.remove(&n);
    }
    scene.delete(f);
}

fn close(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    match a.first() {
        None => {
            if let Some(f) = scene.current_figure {
                close_figure(&mut scene, f);
            }
        }
        Some(v) if v.is_text() => {
            let t = v.text()?;
            if t.eq_ignore_ascii_case("all") {
                for f in scene.figures.clone() {
                    close_figure(&mut scene, f);
                }
            } else {
                let found: Vec<Id> = scene
                    .figures
                    .iter()
                    .copied()
                    .filter(|f| scene.objs.get(f).is_some_and(|o| o.text("Name") == t))
                    .collect();
                for f in found {
                    close_figure(&mut scene, f);
                }
            }
        }
        Some(v) => {
            let ids = ids_of(&scene, v)?;
            for f in ids {
                if scene.kind(f) != Some(Kind::Figure) {
                    return Err(bad("close", "close takes figure handles or numbers."));
                }
                close_figure(&mut scene, f);
            }
        }
    }
    Ok(if nargout > 0 {
        vec![Value::Bool(true)]
    } else {
        vec![]
    })
}

fn hold(i: &mut Interp, _: &mut Frame, mut a: A, _: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let ax = match super::leading_axes(&scene, &mut a) {
        Some(ax) => ax,
        None => scene.current_axes(),
    };
    let now = scene.obj(ax)?.text("NextPlot") == "add";
    let on = match a.first() {
        None => !now,
        Some(v) => match v.text().map(|t| t.to_ascii_lowercase()).as_deref() {
            Ok("on") | Ok("all") => true,
            Ok("off") => false,
            _ => return Err(bad("hold", "Use hold on or hold off.")),
        },
    };
    scene
        .obj_mut(ax)?
        .put("NextPlot", Value::str(if on { "add" } else { "replace" }));
    Ok(vec![])
}

fn ishold(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = scene_of(i);
    let scene = borrow(&s)?;
    let ax = match a.first() {
        Some(v) => handle::one_of(&scene, v, Kind::Axes),
        None => scene.current_figure.and_then(|f| scene.figure_axes(f)),
    };
    let on = ax
        .and_then(|a| scene.objs.get(&a))
        .is_some_and(|o| o.text("NextPlot") == "add");
    Ok(vec![Value::Bool(on)])
}

/// An existing axes of the figure at exactly this grid slot, else new axes there.
fn grid_axes(
    scene: &mut crate::graphics::Scene,
    fig: Id,
    slot: (usize, usize, usize),
    span: usize,
) -> Id {
    let existing = scene
        .obj(fig)
        .map(|o| o.children.clone())
        .unwrap_or_default();
    for c in existing {
        if scene
            .objs
            .get(&c)
            .is_some_and(|o| o.kind == Kind::Axes && o.grid == Some(slot))
        {
            scene.set_current_axes(c);
            return c;
        }
    }
    let pos = layout::cell(slot.0, slot.1, slot.2, span);
    // axes this one overlaps are deleted, as subplot does
    let overlapping: Vec<Id> = scene
        .obj(fig)
        .map(|o| o.children.clone())
        .unwrap_or_default()
        .into_iter()
        .filter(|c| {
            scene.objs.get(c).is_some_and(|o| {
                o.kind == Kind::Axes && {
                    let p = o.nums("Position");
                    p.len() == 4
                        && p[0] < pos[0] + pos[2] - 1e-6
                        && pos[0] < p[0] + p[2] - 1e-6
                        && p[1] < pos[1] + pos[3] - 1e-6
                        && pos[1] < p[1] + p[3] - 1e-6
                }
            })
        })
        .collect();
    for c in overlapping {
        scene.delete(c);
    }
    let ax = scene.new_axes(fig, pos);
    if let Ok(o) = scene.obj_mut(ax) {
        o.grid = Some(slot);
    }
    ax
}

fn grid_count(v: &Value, what: &str) -> crate::interp::error::MResult<usize> {
    let x = v.scalar_f64()?;
    if !(x >= 1.0) || x.fract() != 0.0 || x > 100.0 {
        return Err(bad(
            "subplot",
            format!("{what} must be a positive integer up to 100."),
        ));
    }
    Ok(x as usize)
}

fn subplot(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    // command syntax: subplot 211
    if let Some(n) = a
        .first()
        .and_then(|v| v.text().ok())
        .and_then(|t| t.trim().parse::<f64>().ok())
    {
        a[0] = Value::Num(n);
    }
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let (m, n, ks, rest) = if a.len() >= 3 && !a[0].is_text() {
        let k = super::matrix(&a[2], "subplot")?.2;
        (
            grid_count(&a[0], "Rows")?,
            grid_count(&a[1], "Columns")?,
            k,
            &a[3..],
        )
    } else if let Some(v) = a.first().filter(|v| !v.is_text()) {
        let d = v.scalar_f64()?;
        if !(111.0..=999.0).contains(&d) || d.fract() != 0.0 {
            return Err(bad("subplot", "Use subplot(m, n, k) or a three-digit mnk."));
        }
        let d = d as usize;
        (d / 100, d / 10 % 10, vec![(d % 10) as f64], &a[1..])
    } else {
        return Err(bad("subplot", "Use subplot(m, n, k)."));
    };
    let k = ks.iter().copied().fold(f64::INFINITY, f64::min);
    let k2 = ks.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(k >= 1.0) || k2 > (m * n) as f64 || k.fract() != 0.0 || k2.fract() != 0.0 {
        return Err(MError::new(
            "MATLAB:subplot:IndexOutOfRange",
            "Index exceeds number of subplots.",
        ));
    }
    let fig = scene.current_figure();
    let ax = grid_axes(&mut scene, fig, (m, n, k as usize), k2 as usize);
    apply_pairs(&mut scene, &[ax], rest)?;
    handles_out(&scene, vec![ax], nargout)
}

fn tiledlayout(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    use crate::graphics::layout::Arrangement;
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let (m, n, arrangement, rest) = match (
        a.first().filter(|v| !v.is_text()),
        a.get(1).filter(|v| !v.is_text()),
    ) {
        (Some(r), Some(c)) => (
            grid_count(r, "Rows")?,
            grid_count(c, "Columns")?,
            Arrangement::Fixed,
            &a[2..],
        ),
        (Some(_), None) => {
            return Err(bad(
                "tiledlayout",
                "Use tiledlayout(m, n) or tiledlayout('flow').",
            ));
        }
        _ => {
            let word = a.first().map(|v| v.text()).transpose()?;
            let arr = match word.as_deref().map(str::to_ascii_lowercase).as_deref() {
                None => Some(Arrangement::Flow),
                Some("flow") => Some(Arrangement::Flow),
                Some("vertical") => Some(Arrangement::Vertical),
                Some("horizontal") => Some(Arrangement::Horizontal),
                Some(_) => None,
            };
            match arr {
                Some(arr) => (0, 0, arr, a.get(1..).unwrap_or(&[])),
                // tiledlayout('TileSpacing', ...) alone: a flow layout with options
                None => (0, 0, Arrangement::Flow, &a[..]),
            }
        }
    };
    layout_options(rest)?;
    let fig = scene.current_figure();
    let children = scene.obj(fig)?.children.clone();
    for c in children {
        scene.delete(c);
    }
    let o = scene.obj_mut(fig)?;
    o.grid = Some((m, n, 0));
    o.arrangement = arrangement;
    o.put("CurrentAxes", Value::empty());
    scene.touch(fig);
    // the layout itself has no object here: the figure stands for it
    handles_out(&scene, vec![fig], nargout)
}

/// tiledlayout's name-value options: checked, and drawn with the default spacing.
fn layout_options(rest: &[Value]) -> crate::interp::error::MResult<()> {
    if rest.len() % 2 != 0 {
        return Err(MError::new(
            "MATLAB:tiledlayout:InvalidNameValue",
            "Name-value arguments must come in pairs.",
        ));
    }
    for p in rest.chunks(2) {
        let name = p[0]
            .text()
            .map_err(|_| bad("tiledlayout", "Option names must be text."))?;
        let value = p[1].text().map(|t| t.to_ascii_lowercase());
        let ok = match name.to_ascii_lowercase().as_str() {
            "tilespacing" => matches!(value.as_deref(), Ok("loose" | "compact" | "tight" | "none")),
            "padding" => matches!(value.as_deref(), Ok("loose" | "compact" | "tight")),
            "tileindexing" => matches!(value.as_deref(), Ok("rowmajor" | "columnmajor")),
            _ => {
                return Err(MError::new(
                    "MATLAB:tiledlayout:InvalidNameValue",
                    format!("'{name}' is not a recognized parameter."),
                ));
            }
        };
        if !ok {
            return Err(MError::new(
                "MATLAB:tiledlayout:InvalidNameValue",
                format!("Invalid value for '{name}'."),
            ));
        }
    }
    Ok(())
}

fn nexttile(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    use crate::graphics::layout::Arrangement;
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let fig = scene.current_figure();
    if scene.obj(fig)?.grid.is_none() {
        // nexttile without tiledlayout: a flow layout
        let o = scene.obj_mut(fig)?;
        o.grid = Some((0, 0, 0));
        o.arrangement = Arrangement::Flow;
    }
    let (fm, fn_, next) = scene.obj(fig)?.grid.unwrap_or((1, 1, 0));
    let arrangement = scene.obj(fig)?.arrangement;
    // nexttile, nexttile(k), nexttile(span), nexttile(k, span)
    let (k_arg, span_arg) = match (a.first(), a.get(1)) {
        (Some(v), None) if v.numel() == 2 => (None, Some(v)),
        (Some(v), s) => (Some(v), s),
        (None, _) => (None, None),
    };
    let span = match span_arg {
        Some(v) => {
            let d = super::matrix(v, "nexttile")?.2;
            if d.len() != 2
                || d.iter()
                    .any(|x| !(*x >= 1.0) || x.fract() != 0.0 || *x > 100.0)
            {
                return Err(bad(
                    "nexttile",
                    "The span must be [rows columns] of positive integers.",
                ));
            }
            (d[0] as usize, d[1] as usize)
        }
        None => (1, 1),
    };
    let grows = arrangement != Arrangement::Fixed;
    let (m, n) = if grows {
        let count = match k_arg {
            Some(v) => v.scalar_f64().unwrap_or(0.0).max(next as f64) as usize,
            None => next + 1,
        };
        arrangement.grid(count, (fm, fn_))
    } else {
        (fm, fn_)
    };
    let k = match k_arg {
        Some(v) => {
            let k = v.scalar_f64()?;
            if !(k >= 1.0) || k.fract() != 0.0 || k > (m * n) as f64 {
                return Err(bad("nexttile", "Tile number out of range."));
            }
            k as usize
        }
        None => {
            if next >= m * n {
                return Err(bad("nexttile", "There are no more tiles in the layout."));
            }
            next + 1
        }
    };
    let (row, col) = ((k - 1) / n, (k - 1) % n);
    if row + span.0 > m || col + span.1 > n {
        return Err(bad(
            "nexttile",
            "The tile's span does not fit in the layout.",
        ));
    }
    let k2 = k + (span.0 - 1) * n + (span.1 - 1);
    if grows && (m, n) != (fm, fn_) {
        // the grid grew: the tiles there are move to their places in the new grid
        let kids = scene.obj(fig)?.children.clone();
        for c in kids {
            if let Some(o) = scene.objs.get_mut(&c) {
                if let (Kind::Axes, Some((_, _, t))) = (o.kind, o.grid) {
                    o.grid = Some((m, n, t));
                    o.put("Position", Value::row(layout::cell(m, n, t, t).to_vec()));
                }
            }
        }
    }
    scene.obj_mut(fig)?.grid = Some((m, n, k2.max(next)));
    let ax = grid_axes(&mut scene, fig, (m, n, k), k2);
    handles_out(&scene, vec![ax], nargout)
}

fn axes(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    if let Some(ax) = a
        .first()
        .and_then(|v| handle::one_of(&scene, v, Kind::Axes))
    {
        scene.set_current_axes(ax);
        return handles_out(&scene, vec![ax], nargout);
    }
    let fig = scene.current_figure();
    let ax = scene.new_axes(fig, crate::graphics::defaults::AXES_POSITION);
    apply_pairs(&mut scene, &[ax], &a)?;
    handles_out(&scene, vec![ax], nargout)
}

fn get(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = scene_of(i);
    let scene = borrow(&s)?;
    let ids = ids_of(&scene, &a[0])?;
    match a.get(1) {
        Some(name) => {
            let names: Vec<String> = match name {
                Value::Cell(c) => c.data.iter().map(|v| v.text()).collect::<Result<_, _>>()?,
                v => vec![
                    v.text()
                        .map_err(|_| bad("get", "Property names must be text."))?,
                ],
            };
            if ids.len() == 1 && names.len() == 1 {
                return Ok(vec![props::get(&scene, ids[0], &names[0])?]);
            }
            let mut vals = Vec::new();
            for id in &ids {
                for n in &names {
                    vals.push(props::get(&scene, *id, n)?);
                }
            }
            let shape = crate::values::shape::Shape::matrix(ids.len(), names.len());
            // row-major (object, name) to column-major
            let mut cm = vec![Value::empty(); vals.len()];
            for (k, v) in vals.into_iter().enumerate() {
                let (r, c) = (k / names.len(), k % names.len());
                cm[c * ids.len() + r] = v;
            }
            Ok(vec![Value::from(
                crate::values::containers::CellArray::new(shape, cm),
            )])
        }
        None => {
            let Some(id) = ids.first() else {
                return Ok(vec![Value::empty()]);
            };
            let mut st = StructArray::scalar();
            for (n, v) in props::all(&scene, *id)? {
                st.set(0, n, v);
            }
            Ok(vec![Value::from(st)])
        }
    }
}

fn set(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let ids = ids_of(&scene, &a[0])?;
    if let Some(Value::Struct(st)) = a.get(1) {
        let mut pairs = Vec::new();
        for (k, f) in st.fields.iter().enumerate() {
            if let Some(v) = st.elems.first().and_then(|e| e.get(k)) {
                pairs.push(Value::str(f));
                pairs.push(v.clone());
            }
        }
        apply_pairs(&mut scene, &ids, &pairs)?;
        return Ok(vec![]);
    }
    apply_pairs(&mut scene, &ids, &a[1..])?;
    Ok(vec![])
}

pub(super) fn delete(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    if !handle::is_handle_value(&a[0]) {
        return Err(bad(
            "delete",
            "delete takes graphics handles here (files: use delete on a file name).",
        ));
    }
    for id in ids_of(&scene, &a[0])? {
        if scene.kind(id) == Some(Kind::Figure) {
            close_figure(&mut scene, id);
        } else {
            scene.delete(id);
        }
    }
    Ok(vec![])
}

fn drawnow(i: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    i.present_figures();
    Ok(vec![])
}

fn ishandle(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = scene_of(i);
    let scene = borrow(&s)?;
    let mask = handle::valid_mask(&scene, &a[0]);
    let shape = a[0].shape();
    if mask.len() != shape.numel() {
        return Ok(vec![Value::Bool(false)]);
    }
    Ok(vec![Tensor::bools(shape, mask).into()])
}

fn isgraphics(i: &mut Interp, f: &mut Frame, a: A, n: usize) -> R {
    let Some(t) = a.get(1) else {
        return ishandle(i, f, a, n);
    };
    let want = t.text()?.to_ascii_lowercase();
    let s = scene_of(i);
    let scene = borrow(&s)?;
    let mask = handle::valid_mask(&scene, &a[0]);
    let ids = ids_of(&scene, &a[0]).unwrap_or_default();
    let shape = a[0].shape();
    let typed: Vec<bool> = mask
        .iter()
        .enumerate()
        .map(|(k, ok)| {
            *ok && ids
                .get(k)
                .and_then(|i| scene.kind(*i))
                .is_some_and(|kd| kd.type_name() == want)
        })
        .collect();
    if typed.len() != shape.numel() {
        return Ok(vec![Value::Bool(false)]);
    }
    Ok(vec![Tensor::bools(shape, typed).into()])
}
