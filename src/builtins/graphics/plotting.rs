//! Line-like plots: `plot`, `plot3`, `line`, `semilogx`, `semilogy`, `loglog`, `stairs`,
//! `stem`, `errorbar`, `area`, `scatter`. Each returns handles to what it made.

use super::{
    A, R, apply_pairs, bad, borrow, handles_out, leading_axes, matrix, plot_axes, scene_of,
};
use crate::builtins::{Builtin, b};
use crate::graphics::Scene;
use crate::graphics::model::{Id, Kind};
use crate::graphics::spec::{self, LineSpec};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::value::Value;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("plot", 0, -1, 1, "plot(Y), plot(X, Y), plot(X, Y, 'r--o', X2, Y2, ...), plot(..., 'LineWidth', 2): lines (a matrix gives one per column); returns their handles.", plot),
        b("plot3", 1, -1, 1, "plot3(X, Y, Z, spec): lines in 3-D.", plot3),
        b("line", 0, -1, 1, "line(X, Y, ...): adds lines to the current axes without clearing it.", line),
        b("semilogx", 1, -1, 1, "semilogx(...): plot with a logarithmic x axis.", semilogx),
        b("semilogy", 1, -1, 1, "semilogy(...): plot with a logarithmic y axis.", semilogy),
        b("loglog", 1, -1, 1, "loglog(...): plot with logarithmic axes.", loglog),
        b("stairs", 1, -1, 1, "stairs(Y), stairs(X, Y, spec): a staircase plot.", stairs),
        b("stem", 1, -1, 1, "stem(Y), stem(X, Y, spec, 'filled'): stems from the baseline.", stem),
        b("errorbar", 2, -1, 1, "errorbar(y, err), errorbar(x, y, err), errorbar(x, y, neg, pos), errorbar(x, y, yneg, ypos, xneg, xpos), spec: error bars.", errorbar),
        b("area", 1, -1, 1, "area(Y), area(X, Y), area(..., basevalue): filled areas.", area),
        b("scatter", 2, -1, 1, "scatter(x, y), scatter(x, y, sz, c), 'filled', marker: a scatter plot.", scatter),
        b("scatter3", 3, -1, 1, "scatter3(x, y, z), scatter3(x, y, z, sz, c), 'filled', marker: a scatter plot in 3-D.", scatter3),
    ]
}

/// One line's data and look.
pub(super) struct LineData {
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    pub z: Vec<f64>,
    pub spec: LineSpec,
}

/// Splits `plot`-style arguments into lines (x/y pairs, matrices as columns, line specs)
/// and trailing name-value pairs.
pub(super) fn parse_lines(
    a: &[Value],
    fname: &str,
    with_z: bool,
) -> MResult<(Vec<LineData>, Vec<Value>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < a.len() {
        if a[i].is_text() {
            break;
        }
        let group: Vec<&Value> = a[i..]
            .iter()
            .take_while(|v| !v.is_text())
            .take(if with_z { 3 } else { 2 })
            .collect();
        i += group.len();
        let spec = match a
            .get(i)
            .and_then(|v| v.text().ok())
            .and_then(|t| spec::line_spec(&t))
        {
            Some(s) => {
                i += 1;
                s
            }
            None => LineSpec::default(),
        };
        let mut lines = if with_z {
            if group.len() < 3 {
                return Err(bad(fname, "plot3 needs X, Y and Z."));
            }
            let (x, y, z) = (
                matrix(group[0], fname)?,
                matrix(group[1], fname)?,
                matrix(group[2], fname)?,
            );
            columns3(x, y, z)
        } else if group.len() == 1 {
            let v = group[0].clone().host()?;
            if v.is_complex() {
                let t = v.tensor()?;
                let c = t.to_c64();
                vec![(
                    c.iter().map(|z| z.re).collect(),
                    c.iter().map(|z| z.im).collect(),
                    vec![],
                )]
            } else {
                let (r, c, d) = matrix(&v, fname)?;
                pair_columns(None, (r, c, d), fname)?
            }
        } else {
            pair_columns(
                Some(matrix(group[0], fname)?),
                matrix(group[1], fname)?,
                fname,
            )?
        };
        out.extend(lines.drain(..).map(|(x, y, z)| LineData {
            x,
            y,
            z,
            spec: spec.clone(),
        }));
    }
    let rest = &a[i..];
    if rest.len() % 2 == 1 {
        // an odd tail: text where data belongs, a line spec that is not one, or a property
        // without its value
        let t = rest[0].text().unwrap_or_default();
        return Err(if out.is_empty() {
            MError::new(
                format!("MATLAB:{fname}:invalidData"),
                format!("Data inputs to {fname} must be numeric or logical, not text ('{t}')."),
            )
        } else if rest.len() == 1 {
            bad(
                fname,
                format!("'{t}' is not a line specification (such as 'r--o') and has no value."),
            )
        } else {
            MError::new(
                "MATLAB:hg:set:OddNumberOfArguments",
                "Name-value arguments must come in pairs.",
            )
        });
    }
    Ok((out, rest.to_vec()))
}

type Cols = Vec<(Vec<f64>, Vec<f64>, Vec<f64>)>;

/// MATLAB's pairing of x and y: vectors match by length; a matrix gives one line per column
/// (or per row when its rows match the vector's length).
pub(super) fn pair_columns(
    x: Option<(usize, usize, Vec<f64>)>,
    (yr, yc, y): (usize, usize, Vec<f64>),
    fname: &str,
) -> MResult<Cols> {
    let y_vec = yr == 1 || yc == 1;
    let lines_of = |r: usize, c: usize, d: &[f64], by_rows: bool| -> Vec<Vec<f64>> {
        if by_rows {
            (0..r)
                .map(|i| (0..c).map(|j| d[j * r + i]).collect())
                .collect()
        } else {
            (0..c).map(|j| d[j * r..(j + 1) * r].to_vec()).collect()
        }
    };
    let Some((xr, xc, x)) = x else {
        if y_vec {
            let n = y.len();
            return Ok(vec![((1..=n).map(|i| i as f64).collect(), y, vec![])]);
        }
        let idx: Vec<f64> = (1..=yr).map(|i| i as f64).collect();
        return Ok(lines_of(yr, yc, &y, false)
            .into_iter()
            .map(|c| (idx.clone(), c, vec![]))
            .collect());
    };
    let x_vec = xr == 1 || xc == 1;
    let mismatch = || bad(fname, "Vectors must be the same length.");
    match (x_vec, y_vec) {
        (true, true) => {
            if x.len() != y.len() {
                return Err(mismatch());
            }
            Ok(vec![(x, y, vec![])])
        }
        (true, false) => {
            let by_rows = yr != x.len() && yc == x.len();
            if yr != x.len() && yc != x.len() {
                return Err(mismatch());
            }
            Ok(lines_of(yr, yc, &y, by_rows)
                .into_iter()
                .map(|c| (x.clone(), c, vec![]))
                .collect())
        }
        (false, true) => {
            let by_rows = xr != y.len() && xc == y.len();
            if xr != y.len() && xc != y.len() {
                return Err(mismatch());
            }
            Ok(lines_of(xr, xc, &x, by_rows)
                .into_iter()
                .map(|c| (c, y.clone(), vec![]))
                .collect())
        }
        (false, false) => {
            if xr != yr || xc != yc {
                return Err(mismatch());
            }
            Ok(lines_of(xr, xc, &x, false)
                .into_iter()
                .zip(lines_of(yr, yc, &y, false))
                .map(|(a, b)| (a, b, vec![]))
                .collect())
        }
    }
}

fn columns3(
    x: (usize, usize, Vec<f64>),
    y: (usize, usize, Vec<f64>),
    z: (usize, usize, Vec<f64>),
) -> Cols {
    let n = x.2.len().min(y.2.len()).min(z.2.len());
    vec![(x.2[..n].to_vec(), y.2[..n].to_vec(), z.2[..n].to_vec())]
}

/// Adds line-like objects of `kind` for each line, coloured from the colour order unless
/// the spec names a colour.
pub(super) fn add_lines(scene: &mut Scene, ax: Id, kind: Kind, lines: Vec<LineData>) -> Vec<Id> {
    let mut ids = Vec::new();
    for l in lines {
        let color = match l.spec.color {
            Some(c) => c,
            None => scene.next_color(ax),
        };
        let id = scene.add(kind, Some(ax));
        if let Ok(o) = scene.obj_mut(id) {
            o.put("Color", spec::color_value(color));
            o.put("XData", Value::row(l.x));
            o.put("YData", Value::row(l.y));
            if !l.z.is_empty() {
                o.put("ZData", Value::row(l.z));
            }
            match (l.spec.style, l.spec.marker) {
                (Some(s), _) => o.put("LineStyle", Value::str(s)),
                (None, Some(_)) if kind == Kind::Line => o.put("LineStyle", Value::str("none")),
                _ => {}
            }
            if let Some(m) = l.spec.marker {
                o.put("Marker", Value::str(m));
            }
        }
        ids.push(id);
    }
    ids
}

fn line_plot(
    i: &mut Interp,
    mut a: A,
    nargout: usize,
    kind: Kind,
    scales: (bool, bool),
    fname: &str,
    hold: bool,
) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    let (lines, pairs) = parse_lines(&a, fname, false)?;
    let ax = if hold {
        given.unwrap_or_else(|| scene.current_axes())
    } else {
        plot_axes(&mut scene, given)
    };
    let ids = add_lines(&mut scene, ax, kind, lines);
    apply_pairs(&mut scene, &ids, &pairs)?;
    if let Ok(o) = scene.obj_mut(ax) {
        if scales.0 {
            o.put("XScale", Value::str("log"));
        }
        if scales.1 {
            o.put("YScale", Value::str("log"));
        }
    }
    scene.touch(ax);
    handles_out(&scene, ids, nargout)
}

fn plot(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    line_plot(i, a, n, Kind::Line, (false, false), "plot", false)
}
fn semilogx(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    line_plot(i, a, n, Kind::Line, (true, false), "semilogx", false)
}
fn semilogy(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    line_plot(i, a, n, Kind::Line, (false, true), "semilogy", false)
}
fn loglog(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    line_plot(i, a, n, Kind::Line, (true, true), "loglog", false)
}
fn stairs(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    line_plot(i, a, n, Kind::Stair, (false, false), "stairs", false)
}

fn line(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    if a.first().is_none_or(|v| v.is_text()) {
        // line('XData', x, 'YData', y, ...)
        let s = scene_of(i);
        let mut scene = borrow(&s)?;
        let ax = scene.current_axes();
        let color = scene.next_color(ax);
        let id = scene.add(Kind::Line, Some(ax));
        scene.obj_mut(id)?.put("Color", spec::color_value(color));
        apply_pairs(&mut scene, &[id], &a)?;
        return handles_out(&scene, vec![id], nargout);
    }
    line_plot(i, a, nargout, Kind::Line, (false, false), "line", true)
}

fn plot3(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    let (lines, pairs) = parse_lines(&a, "plot3", true)?;
    let ax = plot_axes(&mut scene, given);
    let ids = add_lines(&mut scene, ax, Kind::Line, lines);
    apply_pairs(&mut scene, &ids, &pairs)?;
    scene
        .obj_mut(ax)?
        .put("View", Value::row(vec![-37.5, 30.0]));
    scene.touch(ax);
    handles_out(&scene, ids, nargout)
}

fn stem(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let filled = take_flag(&mut a, "filled");
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    let (lines, pairs) = parse_lines(&a, "stem", false)?;
    let ax = plot_axes(&mut scene, given);
    let ids = add_lines(&mut scene, ax, Kind::Stem, lines);
    if filled {
        for id in &ids {
            scene
                .obj_mut(*id)?
                .put("MarkerFaceColor", Value::str("auto"));
        }
    }
    apply_pairs(&mut scene, &ids, &pairs)?;
    handles_out(&scene, ids, nargout)
}

/// Removes a keyword argument (`'filled'`, `'stacked'`) wherever it is; says whether it was there.
pub(super) fn take_flag(a: &mut A, flag: &str) -> bool {
    let before = a.len();
    a.retain(|v| !v.text().is_ok_and(|t| t.eq_ignore_ascii_case(flag)));
    a.len() != before
}

pub(super) fn vector(v: &Value, fname: &str) -> MResult<Vec<f64>> {
    Ok(matrix(v, fname)?.2)
}

fn errorbar(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    let nums = a.iter().take_while(|v| !v.is_text()).count();
    let data: Vec<Vec<f64>> = a[..nums]
        .iter()
        .map(|v| vector(v, "errorbar"))
        .collect::<MResult<_>>()?;
    let mut rest = a[nums..].to_vec();
    let spec = match rest
        .first()
        .and_then(|v| v.text().ok())
        .and_then(|t| spec::line_spec(&t))
    {
        Some(sp) => {
            rest.remove(0);
            sp
        }
        None => LineSpec::default(),
    };
    let (x, y, yn, yp, xn, xp) = match data.as_slice() {
        [y, e] => (None, y.clone(), e.clone(), e.clone(), vec![], vec![]),
        [x, y, e] => (
            Some(x.clone()),
            y.clone(),
            e.clone(),
            e.clone(),
            vec![],
            vec![],
        ),
        [x, y, n, p] => (
            Some(x.clone()),
            y.clone(),
            n.clone(),
            p.clone(),
            vec![],
            vec![],
        ),
        [x, y, n, p, xn, xp] => (
            Some(x.clone()),
            y.clone(),
            n.clone(),
            p.clone(),
            xn.clone(),
            xp.clone(),
        ),
        _ => {
            return Err(bad(
                "errorbar",
                "Use errorbar(y, err), errorbar(x, y, err) or errorbar(x, y, neg, pos).",
            ));
        }
    };
    let n = y.len();
    let x = x.unwrap_or_else(|| (1..=n).map(|k| k as f64).collect());
    if x.len() != n
        || yn.len() != n
        || yp.len() != n
        || (!xn.is_empty() && (xn.len() != n || xp.len() != n))
    {
        return Err(bad(
            "errorbar",
            "Data and errors must have the same length.",
        ));
    }
    let ax = plot_axes(&mut scene, given);
    let ids = add_lines(
        &mut scene,
        ax,
        Kind::ErrorBar,
        vec![LineData {
            x,
            y,
            z: vec![],
            spec,
        }],
    );
    if let Some(o) = ids.first().and_then(|id| scene.objs.get_mut(id)) {
        o.put("YNegativeDelta", Value::row(yn));
        o.put("YPositiveDelta", Value::row(yp));
        if !xn.is_empty() {
            o.put("XNegativeDelta", Value::row(xn));
            o.put("XPositiveDelta", Value::row(xp));
        }
    }
    apply_pairs(&mut scene, &ids, &rest)?;
    handles_out(&scene, ids, nargout)
}

fn area(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    let nums = a.iter().take_while(|v| !v.is_text()).count();
    let (x, y, base) = match nums {
        1 => (None, matrix(&a[0], "area")?, None),
        2 if a[1].numel() == 1 && a[0].numel() != 1 => {
            (None, matrix(&a[0], "area")?, Some(a[1].scalar_f64()?))
        }
        2 => (Some(matrix(&a[0], "area")?), matrix(&a[1], "area")?, None),
        3 => (
            Some(matrix(&a[0], "area")?),
            matrix(&a[1], "area")?,
            Some(a[2].scalar_f64()?),
        ),
        _ => {
            return Err(bad(
                "area",
                "Use area(Y), area(X, Y) or area(X, Y, basevalue).",
            ));
        }
    };
    let lines = pair_columns(x, y, "area")?;
    let ax = plot_axes(&mut scene, given);
    let mut ids = Vec::new();
    for (x, y, _) in lines {
        let c = scene.next_color(ax);
        let id = scene.add(Kind::Area, Some(ax));
        let o = scene.obj_mut(id)?;
        o.put("FaceColor", spec::color_value(c));
        o.put("XData", Value::row(x));
        o.put("YData", Value::row(y));
        if let Some(b) = base {
            o.put("BaseValue", Value::Num(b));
        }
        ids.push(id);
    }
    apply_pairs(&mut scene, &ids, &a[nums..])?;
    handles_out(&scene, ids, nargout)
}

fn scatter(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    scatter_plot(i, a, nargout, false)
}
fn scatter3(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    scatter_plot(i, a, nargout, true)
}

/// scatter(x, y, ...) and scatter3(x, y, z, ...): one Scatter object (3-D when `with_z`).
fn scatter_plot(i: &mut Interp, mut a: A, nargout: usize, with_z: bool) -> R {
    let fname = if with_z { "scatter3" } else { "scatter" };
    let filled = take_flag(&mut a, "filled");
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    let need = if with_z { 3 } else { 2 };
    if a.len() < need {
        return Err(bad(
            fname,
            format!("Use {fname}(x, y{}).", if with_z { ", z" } else { "" }),
        ));
    }
    let x = vector(&a[0], fname)?;
    let y = vector(&a[1], fname)?;
    let z = if with_z {
        vector(&a[2], fname)?
    } else {
        vec![]
    };
    if x.len() != y.len() || (with_z && z.len() != x.len()) {
        return Err(bad(
            fname,
            "X, Y (and Z) must be vectors of the same length.",
        ));
    }
    let mut k = need;
    let mut size = None;
    let mut color: Option<Value> = None;
    if let Some(v) = a.get(k).filter(|v| !v.is_text()) {
        if !v.is_empty() {
            size = Some(v.clone().host()?);
        }
        k += 1;
        if let Some(c) = a.get(k) {
            if !c.is_text()
                || spec::named_color(&c.text().unwrap_or_default()).is_some()
                    && spec::marker(&c.text().unwrap_or_default()).is_none()
            {
                color = Some(c.clone().host()?);
                k += 1;
            }
        }
    }
    let marker = match a
        .get(k)
        .and_then(|v| v.text().ok())
        .and_then(|t| spec::line_spec(&t))
    {
        Some(sp) if sp.style.is_none() => {
            k += 1;
            if let Some(c) = sp.color {
                color = Some(spec::color_value(c));
            }
            sp.marker
        }
        _ => None,
    };
    let ax = plot_axes(&mut scene, given);
    let c = scene.next_color(ax);
    let id = scene.add(Kind::Scatter, Some(ax));
    {
        let o = scene.obj_mut(id)?;
        o.put("XData", Value::row(x));
        o.put("YData", Value::row(y));
        if with_z {
            o.put("ZData", Value::row(z));
        }
        o.put("CData", spec::color_value(c));
        if let Some(m) = marker {
            o.put("Marker", Value::str(m));
        }
        if filled {
            o.put("MarkerFaceColor", Value::str("flat"));
        }
    }
    if let Some(sz) = size {
        crate::graphics::props::set(&mut scene, id, "SizeData", &sz)?;
    }
    if let Some(cv) = color {
        let stored = if cv.is_text() {
            spec::color_value(spec::color(&cv)?)
        } else {
            cv
        };
        crate::graphics::props::set(&mut scene, id, "CData", &stored)?;
    }
    apply_pairs(&mut scene, &[id], &a[k..])?;
    if with_z {
        scene
            .obj_mut(ax)?
            .put("View", Value::row(vec![-37.5, 30.0]));
    }
    handles_out(&scene, vec![id], nargout)
}
