//! Labels and axis settings: `title`, `xlabel`, `ylabel`, `zlabel`, `legend`, `grid`,
//! `box`, `axis`, `xlim`, `ylim`, `zlim`, `xticks`, `yticks`, `zticks`, `xticklabels`,
//! `yticklabels`.

use super::{A, R, apply_pairs, bad, borrow, handles_out, leading_axes, scene_of};
use crate::builtins::{Builtin, b};
use crate::graphics::model::{FigureText, Id, Kind};
use crate::graphics::{Scene, limits, props};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::values::containers::CellArray;
use crate::values::value::Value;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("title", 1, -1, 1, "title(str), title(ax, str), title(..., 'FontSize', n): the axes' title.", title),
        b("xlabel", 1, -1, 1, "xlabel(str): the x axis label.", xlabel),
        b("ylabel", 1, -1, 1, "ylabel(str): the y axis label.", ylabel),
        b("zlabel", 1, -1, 1, "zlabel(str): the z axis label.", zlabel),
        b("legend", 0, -1, 1, "legend('a', 'b', ...), legend({...}), legend(..., 'Location', loc), legend off, legend show: names of the plotted series.", legend),
        b("grid", 0, 2, 0, "grid on, grid off, grid: grid lines at the ticks.", grid),
        b("box", 0, 2, 0, "box on, box off: the outline of the axes.", box_fn),
        b("axis", 0, -1, 1, "axis([xmin xmax ymin ymax]), axis equal|image|tight|square|normal|auto|ij|xy|on|off, lims = axis: axis limits and shape.", axis),
        b("xlim", 0, 2, 1, "xlim([lo hi]), xlim('auto'), lims = xlim: the x limits.", xlim),
        b("ylim", 0, 2, 1, "ylim([lo hi]), ylim('auto'), lims = ylim: the y limits.", ylim),
        b("zlim", 0, 2, 1, "zlim([lo hi]), zlim('auto'), lims = zlim: the z limits.", zlim),
        b("xticks", 0, 2, 1, "xticks(v), xticks('auto'), t = xticks: the x tick positions.", xticks),
        b("yticks", 0, 2, 1, "yticks(v), yticks('auto'), t = yticks: the y tick positions.", yticks),
        b("zticks", 0, 2, 1, "zticks(v), zticks('auto'), t = zticks: the z tick positions.", zticks),
        b("xticklabels", 0, 2, 1, "xticklabels(labels), xticklabels('auto'): the x tick labels.", xticklabels),
        b("yticklabels", 0, 2, 1, "yticklabels(labels), yticklabels('auto'): the y tick labels.", yticklabels),
    ]
}

fn target(scene: &mut Scene, a: &mut A) -> Id {
    match leading_axes(scene, a) {
        Some(ax) => ax,
        None => scene.current_axes(),
    }
}

fn label(i: &mut Interp, mut a: A, nargout: usize, which: &str) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    // title(t, ...), xlabel(t, ...), ylabel(t, ...) of a tiled layout (which the figure
    // stands for): the layout's own title and shared labels
    let role = match which {
        "Title" => Some(FigureText::Title),
        "XLabel" => Some(FigureText::XLabel),
        "YLabel" => Some(FigureText::YLabel),
        _ => None,
    };
    if let (Some(role), true) = (role, a.len() >= 2) {
        if let Some(fig) = crate::graphics::handle::one_of(&scene, &a[0], Kind::Figure) {
            let t = super::charts::figure_text(&mut scene, fig, role, &a[1], &a[2..])?;
            return handles_out(&scene, vec![t], nargout);
        }
    }
    let ax = target(&mut scene, &mut a);
    let Some(text) = a.first().cloned() else {
        return Err(bad(which, "The text is missing."));
    };
    let Some(t) = scene.linked(ax, which) else {
        return Ok(vec![]);
    };
    props::set(&mut scene, t, "String", &text)?;
    if which == "Title" {
        scene.obj_mut(t)?.put("FontWeight", Value::str("bold"));
    }
    apply_pairs(&mut scene, &[t], &a[1..])?;
    scene.touch(ax);
    handles_out(&scene, vec![t], nargout)
}

fn title(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    label(i, a, n, "Title")
}
fn xlabel(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    label(i, a, n, "XLabel")
}
fn ylabel(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    label(i, a, n, "YLabel")
}
fn zlabel(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    label(i, a, n, "ZLabel")
}

fn legend(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let ax = target(&mut scene, &mut a);
    let word = a
        .first()
        .and_then(|v| v.text().ok())
        .map(|t| t.to_ascii_lowercase());
    if matches!(
        word.as_deref(),
        Some("off" | "hide" | "boxoff" | "boxon" | "show" | "toggle")
    ) && a.len() == 1
    {
        let w = word.unwrap_or_default();
        if w == "off" {
            if let Some(l) = scene.linked(ax, "Legend") {
                scene.delete(l);
                scene.obj_mut(ax)?.put("Legend", Value::empty());
            }
            scene.touch(ax);
            return Ok(vec![]);
        }
        let l = ensure_legend(&mut scene, ax)?;
        let o = scene.obj_mut(l)?;
        match w.as_str() {
            "hide" => o.put("Visible", Value::str("off")),
            "boxoff" => o.put("Box", Value::str("off")),
            "boxon" => o.put("Box", Value::str("on")),
            "toggle" => {
                let v = if o.text("Visible") == "off" {
                    "on"
                } else {
                    "off"
                };
                o.put("Visible", Value::str(v));
            }
            _ => o.put("Visible", Value::str("on")),
        }
        scene.touch(ax);
        return handles_out(&scene, vec![l], nargout);
    }
    // names: a cell, a string array, or leading texts (up to the first property name)
    let mut names: Vec<String> = Vec::new();
    let mut k = 0;
    match a.first() {
        Some(Value::Cell(c)) => {
            names = c.data.iter().map(|v| v.text()).collect::<MResult<_>>()?;
            k = 1;
        }
        Some(Value::Str(s)) if s.data.len() > 1 => {
            names = s.data.clone();
            k = 1;
        }
        _ => {
            while let Some(v) = a.get(k) {
                let Ok(t) = v.text() else { break };
                if is_legend_property(&t) && a.len() > k + 1 && (a.len() - k) % 2 == 0 {
                    break;
                }
                names.push(t);
                k += 1;
            }
        }
    }
    let series: Vec<Id> = scene
        .obj(ax)?
        .children
        .iter()
        .copied()
        .filter(|c| {
            scene
                .kind(*c)
                .is_some_and(|kd| kd.is_series() && kd != Kind::Image)
        })
        .collect();
    for (j, id) in series.iter().enumerate() {
        let o = scene.obj_mut(*id)?;
        match names.get(j) {
            Some(n) => o.put("DisplayName", Value::str(n)),
            None if names.is_empty() && o.text("DisplayName").is_empty() => {
                o.put("DisplayName", Value::str(&format!("data{}", j + 1)))
            }
            None => {}
        }
    }
    let l = ensure_legend(&mut scene, ax)?;
    let listed: Vec<Value> = crate::graphics::render::legend::entries(&scene, ax)
        .into_iter()
        .map(|(_, t)| Value::str(&t))
        .collect();
    scene
        .obj_mut(l)?
        .put("String", Value::from(CellArray::row(listed)));
    apply_pairs(&mut scene, &[l], &a[k..])?;
    scene.touch(ax);
    handles_out(&scene, vec![l], nargout)
}

fn is_legend_property(t: &str) -> bool {
    let t = t.to_ascii_lowercase();
    [
        "location",
        "orientation",
        "fontsize",
        "box",
        "visible",
        "string",
        "autoupdate",
        "textcolor",
        "interpreter",
        "numcolumns",
    ]
    .contains(&t.as_str())
}

fn ensure_legend(scene: &mut Scene, ax: Id) -> MResult<Id> {
    if let Some(l) = scene.linked(ax, "Legend") {
        return Ok(l);
    }
    let l = scene.add(Kind::Legend, Some(ax));
    let o = scene.obj_mut(ax)?;
    o.children.retain(|c| *c != l);
    o.put("Legend", Value::Num(l as f64));
    Ok(l)
}

/// `on`/`off` from a command-style argument, or a toggle of `now` when absent.
fn switch(a: &A, now: bool, fname: &str) -> MResult<bool> {
    match a.first() {
        None => Ok(!now),
        Some(v) => match v.text()?.to_ascii_lowercase().as_str() {
            "on" => Ok(true),
            "off" => Ok(false),
            _ => Err(bad(fname, format!("Use {fname} on or {fname} off."))),
        },
    }
}

fn grid(i: &mut Interp, _: &mut Frame, mut a: A, _: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let ax = target(&mut scene, &mut a);
    // grid minor: the minor grid lines (and the major ones, as MATLAB draws both)
    if let Some(w) = a.first().and_then(|v| v.text().ok()) {
        if w.eq_ignore_ascii_case("minor") {
            let now = scene.obj(ax)?.on("XMinorGrid");
            let v = Value::str(if now { "off" } else { "on" });
            let o = scene.obj_mut(ax)?;
            for n in ["XMinorGrid", "YMinorGrid", "ZMinorGrid"] {
                o.put(n, v.clone());
            }
            scene.touch(ax);
            return Ok(vec![]);
        }
    }
    let now = scene.obj(ax)?.on("XGrid");
    let on = Value::str(if switch(&a, now, "grid")? {
        "on"
    } else {
        "off"
    });
    let off = on.text()? == "off";
    let o = scene.obj_mut(ax)?;
    for n in ["XGrid", "YGrid", "ZGrid"] {
        o.put(n, on.clone());
    }
    // grid off removes the minor lines too
    if off {
        for n in ["XMinorGrid", "YMinorGrid", "ZMinorGrid"] {
            o.put(n, on.clone());
        }
    }
    scene.touch(ax);
    Ok(vec![])
}

fn box_fn(i: &mut Interp, _: &mut Frame, mut a: A, _: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let ax = target(&mut scene, &mut a);
    let now = scene.obj(ax)?.on("Box");
    let on = switch(&a, now, "box")?;
    scene
        .obj_mut(ax)?
        .put("Box", Value::str(if on { "on" } else { "off" }));
    scene.touch(ax);
    Ok(vec![])
}

/// Sets limits given with ±Inf for "keep the automatic end".
fn set_limits(scene: &mut Scene, ax: Id, name: &str, v: &Value) -> MResult<()> {
    if !v.is_numeric_like() || v.numel() != 2 {
        return Err(bad(
            &name.to_ascii_lowercase(),
            "Limits must be a 2-element vector.",
        ));
    }
    let mut d = v.tensor()?.to_f64().into_owned();
    if d.iter().any(|x| x.is_infinite()) {
        let o = scene.obj_mut(ax)?;
        o.put(&format!("{name}Mode"), Value::str("auto"));
        let l = limits::axes_limits(scene, ax);
        let auto = match name {
            "XLim" => l.x,
            "YLim" => l.y,
            _ => l.z,
        };
        if d[0] == f64::NEG_INFINITY {
            d[0] = auto.0;
        }
        if d[1] == f64::INFINITY {
            d[1] = auto.1;
        }
    }
    props::set(scene, ax, name, &Value::row(d))
}

fn lim(i: &mut Interp, mut a: A, name: &str) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let ax = target(&mut scene, &mut a);
    match a.first() {
        None => Ok(vec![props::get(&scene, ax, name)?]),
        Some(v) if v.is_text() => {
            let t = v.text()?.to_ascii_lowercase();
            let mode = format!("{name}Mode");
            match t.as_str() {
                "auto" | "manual" => {
                    if t == "manual" {
                        let cur = props::get(&scene, ax, name)?;
                        props::set(&mut scene, ax, name, &cur)?;
                    } else {
                        scene.obj_mut(ax)?.put(&mode, Value::str("auto"));
                    }
                    scene.touch(ax);
                    Ok(vec![])
                }
                "mode" => Ok(vec![Value::str(&scene.obj(ax)?.text(&mode))]),
                _ => Err(bad(
                    &name.to_ascii_lowercase(),
                    "Use [lo hi], 'auto' or 'manual'.",
                )),
            }
        }
        Some(v) => {
            let v = v.clone();
            set_limits(&mut scene, ax, name, &v)?;
            Ok(vec![])
        }
    }
}

fn xlim(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    lim(i, a, "XLim")
}
fn ylim(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    lim(i, a, "YLim")
}
fn zlim(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    lim(i, a, "ZLim")
}

fn ticks(i: &mut Interp, mut a: A, name: &str) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let ax = target(&mut scene, &mut a);
    match a.first() {
        None => Ok(vec![props::get(&scene, ax, name)?]),
        Some(v) if v.text().is_ok_and(|t| t.eq_ignore_ascii_case("auto")) => {
            scene
                .obj_mut(ax)?
                .put(&format!("{name}Mode"), Value::str("auto"));
            scene.touch(ax);
            Ok(vec![])
        }
        Some(v) => {
            let v = v.clone().host()?;
            let d = super::matrix(&v, &name.to_ascii_lowercase())?.2;
            if d.windows(2).any(|w| !(w[1] > w[0])) || d.iter().any(|x| !x.is_finite()) {
                return Err(bad(
                    &name.to_ascii_lowercase(),
                    "Tick values must be increasing and finite.",
                ));
            }
            props::set(&mut scene, ax, name, &Value::row(d))?;
            Ok(vec![])
        }
    }
}

fn xticks(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    ticks(i, a, "XTick")
}
fn yticks(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    ticks(i, a, "YTick")
}
fn zticks(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    ticks(i, a, "ZTick")
}

fn ticklabels(i: &mut Interp, mut a: A, name: &str) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let ax = target(&mut scene, &mut a);
    match a.first() {
        None => Ok(vec![props::get(&scene, ax, name)?]),
        Some(v) if v.is_text() && v.text().is_ok_and(|t| t.eq_ignore_ascii_case("auto")) => {
            scene
                .obj_mut(ax)?
                .put(&format!("{name}Mode"), Value::str("auto"));
            scene.touch(ax);
            Ok(vec![])
        }
        Some(v) => {
            let v = v.clone();
            props::set(&mut scene, ax, name, &v)?;
            Ok(vec![])
        }
    }
}

fn xticklabels(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    ticklabels(i, a, "XTickLabel")
}
fn yticklabels(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    ticklabels(i, a, "YTickLabel")
}

fn axis(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let ax = target(&mut scene, &mut a);
    if a.is_empty() {
        let l = limits::axes_limits(&scene, ax);
        return Ok(vec![Value::row(vec![l.x.0, l.x.1, l.y.0, l.y.1])]);
    }
    for v in &a {
        if !v.is_text() {
            let d = super::matrix(v, "axis")?.2;
            if d.len() != 4 && d.len() != 6 {
                return Err(bad(
                    "axis",
                    "Limits must be [xmin xmax ymin ymax] (or with zmin zmax).",
                ));
            }
            set_limits(&mut scene, ax, "XLim", &Value::row(d[0..2].to_vec()))?;
            set_limits(&mut scene, ax, "YLim", &Value::row(d[2..4].to_vec()))?;
            if d.len() == 6 {
                set_limits(&mut scene, ax, "ZLim", &Value::row(d[4..6].to_vec()))?;
            }
            continue;
        }
        let word = v.text()?.to_ascii_lowercase();
        let tight = |scene: &mut Scene| -> MResult<()> {
            let e = limits::extents(scene, ax);
            for (span, name) in e.iter().take(2).zip(["XLim", "YLim"]) {
                if span.any && span.hi > span.lo {
                    props::set(scene, ax, name, &Value::row(vec![span.lo, span.hi]))?;
                }
            }
            Ok(())
        };
        match word.as_str() {
            "equal" => {
                let o = scene.obj_mut(ax)?;
                o.put("DataAspectRatio", Value::row(vec![1.0, 1.0, 1.0]));
                o.put("DataAspectRatioMode", Value::str("manual"));
            }
            "image" => {
                let o = scene.obj_mut(ax)?;
                o.put("DataAspectRatio", Value::row(vec![1.0, 1.0, 1.0]));
                o.put("DataAspectRatioMode", Value::str("manual"));
                tight(&mut scene)?;
            }
            "tight" => tight(&mut scene)?,
            "square" => {
                let o = scene.obj_mut(ax)?;
                o.put("PlotBoxAspectRatio", Value::row(vec![1.0, 1.0, 1.0]));
                o.put("PlotBoxAspectRatioMode", Value::str("manual"));
                o.put("DataAspectRatioMode", Value::str("auto"));
            }
            "normal" | "fill" | "vis3d" => {
                let o = scene.obj_mut(ax)?;
                o.put("DataAspectRatioMode", Value::str("auto"));
                o.put("PlotBoxAspectRatioMode", Value::str("auto"));
            }
            "auto" => {
                let o = scene.obj_mut(ax)?;
                for n in ["XLimMode", "YLimMode", "ZLimMode"] {
                    o.put(n, Value::str("auto"));
                }
            }
            "manual" => {
                let l = limits::axes_limits(&scene, ax);
                props::set(&mut scene, ax, "XLim", &Value::row(vec![l.x.0, l.x.1]))?;
                props::set(&mut scene, ax, "YLim", &Value::row(vec![l.y.0, l.y.1]))?;
            }
            "ij" => scene.obj_mut(ax)?.put("YDir", Value::str("reverse")),
            "xy" => scene.obj_mut(ax)?.put("YDir", Value::str("normal")),
            "on" => scene.obj_mut(ax)?.put("Visible", Value::str("on")),
            "off" => scene.obj_mut(ax)?.put("Visible", Value::str("off")),
            _ => return Err(bad("axis", format!("Unknown axis option '{word}'."))),
        }
    }
    scene.touch(ax);
    if nargout > 0 {
        let l = limits::axes_limits(&scene, ax);
        return Ok(vec![Value::row(vec![l.x.0, l.x.1, l.y.0, l.y.1])]);
    }
    Ok(vec![])
}
