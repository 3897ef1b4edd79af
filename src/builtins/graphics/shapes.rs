//! Bars, bins and shapes: `bar`, `barh`, `histogram`, `hist`, `fill`, `patch`, `text`.
//! Each returns handles to what it made.

use super::plotting::{pair_columns, take_flag, vector};
use super::{
    A, R, apply_pairs, bad, borrow, handles_out, leading_axes, matrix, plot_axes, scene_of,
};
use crate::builtins::{Builtin, b};
use crate::graphics::model::Kind;
use crate::graphics::plots::histogram;
use crate::graphics::spec;
use crate::interp::Interp;
use crate::interp::function::Frame;
use crate::values::value::Value;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("bar", 1, -1, 1, "bar(y), bar(x, y), bar(..., width), bar(..., color), bar(..., 'stacked'): vertical bars (a matrix gives groups, or stacks).", bar),
        b("barh", 1, -1, 1, "barh(y), barh(x, y): horizontal bars.", barh),
        b("histogram", 1, -1, 1, "histogram(X), histogram(X, nbins), histogram(X, edges), 'Normalization', 'probability'|'pdf'|'cdf'|...: a histogram.", histogram_fn),
        b("hist", 1, 2, 2, "hist(y), hist(y, n): a histogram; [counts, centers] = hist(...) returns the counts instead.", hist),
        b("fill", 2, -1, 1, "fill(x, y, c): filled polygons (columns of matrices are separate polygons).", fill),
        b("patch", 2, -1, 1, "patch(x, y, c): filled polygons, added without clearing the axes.", patch),
        b("text", 3, -1, 1, "text(x, y, str, ...): text at data coordinates.", text),
    ]
}

fn bars(i: &mut Interp, mut a: A, nargout: usize, horizontal: bool) -> R {
    let fname = if horizontal { "barh" } else { "bar" };
    let stacked = take_flag(&mut a, "stacked");
    take_flag(&mut a, "grouped");
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    let nums = a.iter().take_while(|v| !v.is_text()).count();
    let (x, y, width) = match nums {
        1 => (None, matrix(&a[0], fname)?, None),
        2 if a[1].numel() == 1 && a[0].numel() > 1 => {
            (None, matrix(&a[0], fname)?, Some(a[1].scalar_f64()?))
        }
        2 => (Some(matrix(&a[0], fname)?), matrix(&a[1], fname)?, None),
        3 => (
            Some(matrix(&a[0], fname)?),
            matrix(&a[1], fname)?,
            Some(a[2].scalar_f64()?),
        ),
        _ => return Err(bad(fname, "Use bar(y), bar(x, y) or bar(x, y, width).")),
    };
    // a matrix: one series per column, grouped at each row's x
    let (yr, yc, yd) = y;
    let series: Vec<Vec<f64>> = if yr == 1 || yc == 1 {
        vec![yd]
    } else {
        (0..yc).map(|j| yd[j * yr..(j + 1) * yr].to_vec()).collect()
    };
    let n = series.first().map_or(0, |v| v.len());
    let xs = match x {
        Some((_, _, xd)) if xd.len() == n => xd,
        Some(_) => return Err(bad(fname, "X must have one value per bar.")),
        None => (1..=n).map(|k| k as f64).collect(),
    };
    let mut rest = a[nums..].to_vec();
    let color = match rest
        .first()
        .and_then(|v| v.text().ok())
        .and_then(|t| spec::named_color(&t))
    {
        Some(c) if rest.len() % 2 == 1 => {
            rest.remove(0);
            Some(c)
        }
        _ => None,
    };
    let ax = plot_axes(&mut scene, given);
    let count = if stacked { 1 } else { series.len() };
    // stacked: each series' bar tops, positives on positives and negatives on negatives
    let mut ups = vec![0.0; n];
    let mut downs = vec![0.0; n];
    let ends: Vec<Vec<f64>> = series
        .iter()
        .map(|yv| {
            yv.iter()
                .enumerate()
                .map(|(i, v)| {
                    let acc = if *v < 0.0 { &mut downs[i] } else { &mut ups[i] };
                    *acc += if v.is_finite() { *v } else { 0.0 };
                    *acc
                })
                .collect()
        })
        .collect();
    let mut ids = Vec::new();
    for (k, yv) in series.into_iter().enumerate() {
        let c = match color {
            Some(c) => c,
            None => scene.next_color(ax),
        };
        let id = scene.add(Kind::Bar, Some(ax));
        let o = scene.obj_mut(id)?;
        o.put("FaceColor", spec::color_value(c));
        o.put("XData", Value::row(xs.clone()));
        o.put("YData", Value::row(yv));
        o.grid = Some((if stacked { 0 } else { k }, count, 0));
        if stacked {
            o.put("BarLayout", Value::str("stacked"));
        }
        let end = if stacked { ends.get(k).cloned() } else { None };
        o.put(
            "YEndPoints",
            end.map_or_else(
                || o.get("YData").cloned().unwrap_or_else(Value::empty),
                Value::row,
            ),
        );
        if horizontal {
            o.put("Horizontal", Value::str("on"));
        }
        if let Some(w) = width {
            o.put("BarWidth", Value::Num(w));
        }
        ids.push(id);
    }
    apply_pairs(&mut scene, &ids, &rest)?;
    handles_out(&scene, ids, nargout)
}

fn bar(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    bars(i, a, n, false)
}
fn barh(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    bars(i, a, n, true)
}

fn histogram_fn(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    let Some(first) = a.first() else {
        return Err(bad("histogram", "The data is missing."));
    };
    let data = vector(first, "histogram")?;
    let mut k = 1;
    let mut bins: Option<Value> = None;
    if let Some(v) = a.get(1).filter(|v| !v.is_text()) {
        bins = Some(v.clone().host()?);
        k = 2;
    }
    let ax = plot_axes(&mut scene, given);
    let c = scene.next_color(ax);
    let id = scene.add(Kind::Histogram, Some(ax));
    {
        let o = scene.obj_mut(id)?;
        o.put("FaceColor", spec::color_value(c));
        o.put("Data", Value::row(data));
    }
    histogram::rebin(&mut scene, id, "Data")?;
    match bins {
        Some(b) if b.numel() == 1 => crate::graphics::props::set(&mut scene, id, "NumBins", &b)?,
        Some(b) => crate::graphics::props::set(&mut scene, id, "BinEdges", &b)?,
        None => {}
    }
    // BinWidth is not stored: it sets the edges
    let mut rest = Vec::new();
    for p in a[k..].chunks(2) {
        if p.len() == 2
            && p[0]
                .text()
                .is_ok_and(|t| t.eq_ignore_ascii_case("BinWidth"))
        {
            let w = p[1].scalar_f64()?;
            let d = scene.obj(id)?.nums("Data");
            let (lo, hi) = d
                .iter()
                .filter(|v| v.is_finite())
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                    (a.min(*v), b.max(*v))
                });
            if !(w > 0.0) || !lo.is_finite() || (hi - lo) / w > histogram::MAX_BINS as f64 {
                return Err(bad(
                    "histogram",
                    "BinWidth must be a positive number that gives at most 2^20 bins.",
                ));
            }
            let a0 = (lo / w).floor() * w;
            let nb = (((hi - a0) / w).floor() as usize + 1).max(1);
            let edges: Vec<f64> = (0..=nb).map(|j| a0 + j as f64 * w).collect();
            crate::graphics::props::set(&mut scene, id, "BinEdges", &Value::row(edges))?;
        } else {
            rest.extend(p.iter().cloned());
        }
    }
    apply_pairs(&mut scene, &[id], &rest)?;
    handles_out(&scene, vec![id], nargout)
}

fn hist(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let y = vector(&a[0], "hist")?;
    let mut tick = crate::interp::interrupt::Ticker::new();
    let (lo, hi) = y
        .iter()
        .inspect(|_| tick.tick())
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        });
    let (lo, hi) = if lo.is_finite() {
        if hi > lo {
            (lo, hi)
        } else {
            (lo - 0.5, lo + 0.5)
        }
    } else {
        (0.0, 1.0)
    };
    let centers: Vec<f64> = match a.get(1) {
        Some(v) if v.numel() > 1 => vector(v, "hist")?,
        Some(v) => {
            let n = v.scalar_f64()?;
            if !(n >= 1.0) || n.fract() != 0.0 || n > histogram::MAX_BINS as f64 {
                return Err(bad(
                    "hist",
                    "The number of bins must be a positive integer.",
                ));
            }
            let n = n as usize;
            let w = (hi - lo) / n as f64;
            (0..n).map(|k| lo + w * (k as f64 + 0.5)).collect()
        }
        None => {
            let w = (hi - lo) / 10.0;
            (0..10).map(|k| lo + w * (k as f64 + 0.5)).collect()
        }
    };
    // edges halfway between centres; the outer bins take everything beyond
    let mut edges = vec![f64::NEG_INFINITY];
    edges.extend(centers.windows(2).map(|w| (w[0] + w[1]) / 2.0));
    edges.push(f64::INFINITY);
    let counts = histogram::counts(&y, &edges);
    if nargout > 0 {
        return Ok(vec![Value::row(counts), Value::row(centers)]);
    }
    let mut args = vec![Value::row(centers), Value::row(counts), Value::Num(1.0)];
    args.truncate(3);
    bars(i, args, 0, false)
}

fn polygons(i: &mut Interp, mut a: A, nargout: usize, clear: bool, fname: &str) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    if a.len() < 2 {
        return Err(bad(fname, "Use fill(x, y, c)."));
    }
    let x = matrix(&a[0], fname)?;
    let y = matrix(&a[1], fname)?;
    let cols = pair_columns(Some(x), y, fname)?;
    let color = match a.get(2) {
        Some(v) if v.is_text() && spec::named_color(&v.text()?).is_some() => Some(spec::color(v)?),
        Some(v) if !v.is_text() && v.numel() == 3 => Some(spec::color(v)?),
        Some(v) if !v.is_text() => None,
        _ => None,
    };
    let k = if a.get(2).is_some_and(|v| !v.is_text() || color.is_some()) {
        3
    } else {
        2
    };
    let ax = if clear {
        plot_axes(&mut scene, given)
    } else {
        given.unwrap_or_else(|| scene.current_axes())
    };
    let mut ids = Vec::new();
    for (x, y, _) in cols {
        let c = match color {
            Some(c) => c,
            None => scene.next_color(ax),
        };
        let id = scene.add(Kind::Patch, Some(ax));
        let o = scene.obj_mut(id)?;
        o.put("FaceColor", spec::color_value(c));
        o.put("XData", Value::row(x));
        o.put("YData", Value::row(y));
        ids.push(id);
    }
    apply_pairs(&mut scene, &ids, &a[k..])?;
    handles_out(&scene, ids, nargout)
}

fn fill(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    polygons(i, a, n, true, "fill")
}
fn patch(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    polygons(i, a, n, false, "patch")
}

fn text(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    if a.len() < 3 {
        return Err(bad("text", "Use text(x, y, str)."));
    }
    let x = vector(&a[0], "text")?;
    let y = vector(&a[1], "text")?;
    let (k, z) = if a.len() >= 4 && !a[2].is_text() && !matches!(a[2], Value::Cell(_)) {
        (3, vector(&a[2], "text")?)
    } else {
        (2, vec![])
    };
    let strings: Vec<Value> = match &a[k] {
        Value::Cell(c) => c.data.clone(),
        v => vec![v.clone()],
    };
    if x.len() != y.len() {
        return Err(bad("text", "X and Y must have the same length."));
    }
    let ax = given.unwrap_or_else(|| scene.current_axes());
    let mut ids = Vec::new();
    for j in 0..x.len() {
        let id = scene.add(Kind::Text, Some(ax));
        let str_v = strings
            .get(j)
            .or(strings.first())
            .cloned()
            .unwrap_or_else(|| Value::str(""));
        crate::graphics::props::set(&mut scene, id, "String", &str_v)?;
        scene.obj_mut(id)?.put(
            "Position",
            Value::row(vec![x[j], y[j], z.get(j).copied().unwrap_or(0.0)]),
        );
        ids.push(id);
    }
    apply_pairs(&mut scene, &ids, &a[k + 1..])?;
    handles_out(&scene, ids, nargout)
}
