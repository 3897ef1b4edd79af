//! Charts built from simpler objects or with their own geometry: `pie` (patches and
//! percentage labels), `quiver` (arrows), `polarplot` (lines on a polar grid), `heatmap`
//! (a scaled image with cell labels and a colorbar) and `sgtitle` (a figure's title).

use super::plotting::{add_lines, parse_lines, vector};
use super::{
    A, R, apply_pairs, bad, borrow, handles_out, leading_axes, matrix, plot_axes, scene_of,
};
use crate::builtins::{Builtin, b};
use crate::graphics::model::{FigureText, Id, Kind};
use crate::graphics::plots::pie;
use crate::graphics::{Scene, handle, props, spec, ticks};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::values::containers::CellArray;
use crate::values::shape::Shape;
use crate::values::value::Value;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("pie", 1, -1, 1, "pie(X), pie(X, explode), pie(X, labels), pie(X, explode, labels): a pie chart (values summing below 1 give a partial pie); returns the wedges' patches and labels' texts, alternating.", pie_fn),
        b("quiver", 2, -1, 1, "quiver(U, V), quiver(X, Y, U, V), quiver(..., scale), quiver(..., spec): arrows, scaled to the grid unless scale is 0 or 'off'.", quiver),
        b("polarplot", 1, -1, 1, "polarplot(theta, rho), polarplot(rho), polarplot(..., spec, name, value): lines in polar coordinates (radians), drawn on a polar grid in ordinary axes with equal units.", polarplot),
        b("heatmap", 1, -1, 1, "heatmap(C), heatmap(xvalues, yvalues, C), heatmap(..., 'Title', t, ...): the matrix as coloured cells with their values and a colorbar; returns the axes (so h.Title, h.XLabel and h.Colormap work), not a HeatmapChart.", heatmap),
        b("sgtitle", 1, -1, 1, "sgtitle(str), sgtitle(fig, str), sgtitle(..., name, value): a title over all the figure's axes.", sgtitle),
    ]
}

fn text_list(v: &Value) -> Vec<String> {
    match v {
        Value::Cell(c) => c
            .data
            .iter()
            .map(|x| x.text().unwrap_or_default())
            .collect(),
        Value::Str(s) => s.data.clone(),
        v if v.is_text() => vec![v.text().unwrap_or_default()],
        v => v
            .tensor()
            .map(|t| t.to_f64().iter().map(|x| ticks::short(*x, 5)).collect())
            .unwrap_or_default(),
    }
}

fn pie_fn(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    let Some(first) = a.first() else {
        return Err(bad("pie", "The data is missing."));
    };
    let x = vector(first, "pie")?;
    if x.iter().any(|v| *v < 0.0) {
        return Err(bad("pie", "Data must be nonnegative."));
    }
    let mut explode = vec![false; x.len()];
    let mut labels: Option<Vec<String>> = None;
    for v in &a[1..] {
        if matches!(v, Value::Cell(_) | Value::Str(_)) || v.is_text() {
            labels = Some(text_list(v));
        } else {
            let e = vector(v, "pie")?;
            if e.len() != x.len() {
                return Err(bad("pie", "Explode must have one element per slice."));
            }
            explode = e.iter().map(|q| *q != 0.0).collect();
        }
    }
    let ax = plot_axes(&mut scene, given);
    let cmap = scene.colormap_of(ax);
    let wedges = pie::wedges(&x, &explode);
    let n = wedges.len();
    let mut ids = Vec::new();
    for (k, w) in wedges.into_iter().enumerate() {
        let t = if n > 1 {
            k as f64 / (n - 1) as f64
        } else {
            0.0
        };
        let color = cmap.scaled(t, 0.0, 1.0).unwrap_or([0.0, 0.447, 0.741]);
        let p = scene.add(Kind::Patch, Some(ax));
        {
            let o = scene.obj_mut(p)?;
            o.put("XData", Value::col(w.x));
            o.put("YData", Value::col(w.y));
            o.put("FaceColor", spec::color_value(color));
        }
        let label = match &labels {
            Some(l) => l.get(k).cloned().unwrap_or_default(),
            None => pie::percent_label(w.fraction),
        };
        let t = add_text(&mut scene, ax, w.label_at, &label)?;
        ids.extend([p, t]);
    }
    let o = scene.obj_mut(ax)?;
    o.put("DataAspectRatioMode", Value::str("manual"));
    o.put("Visible", Value::str("off"));
    for name in ["XLim", "YLim"] {
        props::set(&mut scene, ax, name, &Value::row(vec![-1.25, 1.25]))?;
    }
    scene.touch(ax);
    handles_out(&scene, ids, nargout)
}

/// A centred text object at data coordinates.
fn add_text(scene: &mut Scene, ax: Id, at: (f64, f64), s: &str) -> MResult<Id> {
    let t = scene.add(Kind::Text, Some(ax));
    props::set(scene, t, "String", &Value::str(s))?;
    let o = scene.obj_mut(t)?;
    o.put("Position", Value::row(vec![at.0, at.1, 0.0]));
    o.put("HorizontalAlignment", Value::str("center"));
    Ok(t)
}

fn quiver(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    let nums = a.iter().take_while(|v| !v.is_text()).count();
    let (x, y, u, v, scale) = match nums {
        2 | 3 => {
            let (rows, cols, u) = matrix(&a[0], "quiver")?;
            let v = vector(&a[1], "quiver")?;
            let x: Vec<f64> = (0..rows * cols)
                .map(|k| (k / rows.max(1) + 1) as f64)
                .collect();
            let y: Vec<f64> = (0..rows * cols)
                .map(|k| (k % rows.max(1) + 1) as f64)
                .collect();
            let sc = a.get(2).filter(|_| nums == 3);
            ((rows, cols, x), y, u, v, sc.cloned())
        }
        4 | 5 => {
            let (rows, cols, mut x) = matrix(&a[0], "quiver")?;
            let mut y = vector(&a[1], "quiver")?;
            let (ur, uc, u) = matrix(&a[2], "quiver")?;
            let v = vector(&a[3], "quiver")?;
            // vectors x (columns) and y (rows) with a matrix U: the grid they span
            if x.len() != u.len() && x.len() == uc && y.len() == ur {
                let (gx, gy) = (x.clone(), y.clone());
                x = (0..ur * uc).map(|k| gx[k / ur]).collect();
                y = (0..ur * uc).map(|k| gy[k % ur]).collect();
                let sc = a.get(4).filter(|_| nums == 5).cloned();
                ((ur, uc, x), y, u, v, sc)
            } else {
                let sc = a.get(4).filter(|_| nums == 5).cloned();
                ((rows, cols, x), y, u, v, sc)
            }
        }
        _ => return Err(bad("quiver", "Use quiver(U, V) or quiver(X, Y, U, V).")),
    };
    let (rows, cols, x) = x;
    if [y.len(), u.len(), v.len()].iter().any(|n| *n != x.len()) {
        return Err(bad("quiver", "X, Y, U and V must be the same size."));
    }
    let mut rest = a[nums..].to_vec();
    let mut off = false;
    if rest
        .first()
        .is_some_and(|v| v.text().is_ok_and(|t| t == "off"))
    {
        rest.remove(0);
        off = true;
    }
    let line = match rest
        .first()
        .and_then(|v| v.text().ok())
        .and_then(|t| spec::line_spec(&t))
    {
        Some(sp) if rest.len() % 2 == 1 => {
            rest.remove(0);
            Some(sp)
        }
        _ => None,
    };
    let ax = plot_axes(&mut scene, given);
    let color = match line.as_ref().and_then(|l| l.color) {
        Some(c) => c,
        None => scene.next_color(ax),
    };
    let id = scene.add(Kind::Quiver, Some(ax));
    {
        let shape = Shape::matrix(rows, cols);
        let grid = |d: Vec<f64>| Value::from(crate::values::tensor::Tensor::f64(shape.clone(), d));
        let o = scene.obj_mut(id)?;
        o.put("Color", spec::color_value(color));
        o.put("XData", grid(x));
        o.put("YData", grid(y));
        o.put("UData", grid(u));
        o.put("VData", grid(v));
        if let Some(st) = line.as_ref().and_then(|l| l.style) {
            o.put("LineStyle", Value::str(st));
        }
    }
    match scale {
        Some(sc) => {
            let k = sc.scalar_f64()?;
            if k == 0.0 {
                off = true;
            } else {
                props::set(&mut scene, id, "AutoScaleFactor", &Value::Num(k * 0.9))?;
            }
        }
        None => {}
    }
    if off {
        scene.obj_mut(id)?.put("AutoScale", Value::str("off"));
    }
    apply_pairs(&mut scene, &[id], &rest)?;
    scene.touch(ax);
    handles_out(&scene, vec![id], nargout)
}

fn polarplot(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    // polarplot(rho): evenly spaced angles from 0 to 2*pi
    if a.len() == 1 || a.get(1).is_some_and(|v| v.is_text()) {
        let n = a[0].numel();
        let theta: Vec<f64> = (0..n)
            .map(|k| 2.0 * std::f64::consts::PI * k as f64 / (n.max(2) - 1) as f64)
            .collect();
        a.insert(0, Value::row(theta));
    }
    let (mut lines, pairs) = parse_lines(&a, "polarplot", false)?;
    for l in &mut lines {
        let (t, r) = (std::mem::take(&mut l.x), std::mem::take(&mut l.y));
        l.x = t.iter().zip(&r).map(|(t, r)| r * t.cos()).collect();
        l.y = t.iter().zip(&r).map(|(t, r)| r * t.sin()).collect();
    }
    let ax = plot_axes(&mut scene, given);
    let ids = add_lines(&mut scene, ax, Kind::Line, lines);
    apply_pairs(&mut scene, &ids, &pairs)?;
    // the radius of the outer circle: a tick step above the data (held lines included)
    let rmax = scene
        .obj(ax)?
        .children
        .iter()
        .filter_map(|c| scene.objs.get(c))
        .filter(|o| o.kind == Kind::Line)
        .flat_map(|o| {
            let (x, y) = (o.nums("XData"), o.nums("YData"));
            x.iter()
                .zip(y.iter())
                .map(|(a, b)| a.hypot(*b))
                .collect::<Vec<_>>()
        })
        .filter(|r| r.is_finite())
        .fold(0.0, f64::max);
    let rmax = if rmax > 0.0 { rmax } else { 1.0 };
    let step = ticks::nice_step(0.0, rmax, 160.0);
    let outer = (rmax / step - 1e-9).ceil().max(1.0) * step;
    let o = scene.obj_mut(ax)?;
    o.put("RLim", Value::row(vec![0.0, outer]));
    o.put("DataAspectRatioMode", Value::str("manual"));
    for name in ["XLim", "YLim"] {
        props::set(
            &mut scene,
            ax,
            name,
            &Value::row(vec![-1.15 * outer, 1.15 * outer]),
        )?;
    }
    scene.touch(ax);
    handles_out(&scene, ids, nargout)
}

fn heatmap(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    let nums = a.iter().take_while(|v| !v.is_text()).count().min(3);
    let (xlabels, ylabels, c) = match nums {
        1 => (None, None, &a[0]),
        3 => (Some(text_list(&a[0])), Some(text_list(&a[1])), &a[2]),
        _ => {
            return Err(bad(
                "heatmap",
                "Use heatmap(C) or heatmap(xvalues, yvalues, C).",
            ));
        }
    };
    let (rows, cols, data) = matrix(c, "heatmap")?;
    let xl = xlabels.unwrap_or_else(|| (1..=cols).map(|k| k.to_string()).collect());
    let yl = ylabels.unwrap_or_else(|| (1..=rows).map(|k| k.to_string()).collect());
    if xl.len() != cols || yl.len() != rows {
        return Err(bad(
            "heatmap",
            "There must be one x value per column and one y value per row of C.",
        ));
    }
    let ax = plot_axes(&mut scene, given);
    let img = scene.add(Kind::Image, Some(ax));
    {
        let o = scene.obj_mut(img)?;
        o.put(
            "CData",
            Value::from(crate::values::tensor::Tensor::f64(
                Shape::matrix(rows, cols),
                data.clone(),
            )),
        );
        o.put("CDataMapping", Value::str("scaled"));
        o.put("XData", Value::row(vec![1.0, cols as f64]));
        o.put("YData", Value::row(vec![1.0, rows as f64]));
    }
    // each cell's value, dark text on light cells and light text on dark ones
    let finite = data.iter().copied().filter(|v| v.is_finite());
    let (lo, hi) = (
        finite.clone().fold(f64::INFINITY, f64::min),
        finite.fold(f64::NEG_INFINITY, f64::max),
    );
    let cmap = scene.colormap_of(ax);
    if rows * cols <= 400 {
        for r in 0..rows {
            for k in 0..cols {
                let v = data[k * rows + r];
                let t = add_text(
                    &mut scene,
                    ax,
                    ((k + 1) as f64, (r + 1) as f64),
                    &ticks::short(v, 4),
                )?;
                let light = cmap
                    .scaled(v, lo, if hi > lo { hi } else { lo + 1.0 })
                    .is_some_and(|c| 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] > 0.5);
                let col = if light { [0.0; 3] } else { [1.0; 3] };
                scene.obj_mut(t)?.put("Color", spec::color_value(col));
            }
        }
    }
    let labels = |l: Vec<String>| {
        let n = l.len();
        Value::from(CellArray::new(
            Shape::col(n),
            l.into_iter().map(|s| Value::str(&s)).collect(),
        ))
    };
    props::set(
        &mut scene,
        ax,
        "XTick",
        &Value::row((1..=cols).map(|k| k as f64).collect()),
    )?;
    props::set(
        &mut scene,
        ax,
        "YTick",
        &Value::row((1..=rows).map(|k| k as f64).collect()),
    )?;
    props::set(&mut scene, ax, "XTickLabel", &labels(xl))?;
    props::set(&mut scene, ax, "YTickLabel", &labels(yl))?;
    scene.obj_mut(ax)?.put("YDir", Value::str("reverse"));
    super::grids::attach_colorbar(&mut scene, ax);
    apply_pairs(&mut scene, &[ax], &a[nums..])?;
    scene.touch(ax);
    handles_out(&scene, vec![ax], nargout)
}

/// The figure's title text object, made on first use.
pub(super) fn figure_title(
    scene: &mut Scene,
    fig: Id,
    text: &Value,
    pairs: &[Value],
) -> MResult<Id> {
    figure_text(scene, fig, FigureText::Title, text, pairs)
}

/// One of the figure's own texts (its title, or a tiled layout's shared x or y label), made
/// on first use.
pub(super) fn figure_text(
    scene: &mut Scene,
    fig: Id,
    role: FigureText,
    text: &Value,
    pairs: &[Value],
) -> MResult<Id> {
    let existing = scene.obj(fig)?.children.iter().copied().find(|c| {
        scene
            .objs
            .get(c)
            .is_some_and(|o| o.kind == Kind::Text && o.role == role)
    });
    let t = match existing {
        Some(t) => t,
        None => {
            let t = scene.add(Kind::Text, Some(fig));
            let o = scene.obj_mut(t)?;
            o.role = role;
            o.put("HorizontalAlignment", Value::str("center"));
            o.put("FontSize", Value::Num(11.0));
            if role == FigureText::YLabel {
                o.put("Rotation", Value::Num(90.0));
            }
            t
        }
    };
    props::set(scene, t, "String", text)?;
    apply_pairs(scene, &[t], pairs)?;
    scene.touch(fig);
    Ok(t)
}

fn sgtitle(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let fig = match a
        .first()
        .and_then(|v| handle::one_of(&scene, v, Kind::Figure))
    {
        Some(f) => {
            a.remove(0);
            f
        }
        None => scene.current_figure(),
    };
    let Some(text) = a.first().cloned() else {
        return Err(bad("sgtitle", "The text is missing."));
    };
    let t = figure_title(&mut scene, fig, &text, &a[1..])?;
    handles_out(&scene, vec![t], nargout)
}
