//! Drawing the 2-D series: lines, stairs, stems, error bars, scatter, bars, histograms,
//! areas, patches, images and contours, each clipped to the plot box.

use super::axes::rgb_of;
use super::geometry::{self, Frame};
use super::pen::{Dash, Pen};
use crate::graphics::colormap::Map;
use crate::graphics::limits::x_or_index;
use crate::graphics::model::{GObj, Kind};
use plotters::prelude::DrawingBackend;

pub fn draw<DB: DrawingBackend>(o: &GObj, pen: &Pen<DB>, f: &Frame, cmap: &Map, clim: (f64, f64)) {
    match o.kind {
        Kind::Line => {
            let y = o.nums("YData");
            let x = x_or_index(o, y.len());
            line_with_markers(o, pen, f, &x, &y);
        }
        Kind::Stair => {
            let y = o.nums("YData");
            let x = x_or_index(o, y.len());
            let mut sx = Vec::with_capacity(2 * x.len());
            let mut sy = Vec::with_capacity(2 * x.len());
            for i in 0..x.len() {
                if i > 0 {
                    sx.push(x[i]);
                    sy.push(y[i - 1]);
                }
                sx.push(x[i]);
                sy.push(y[i]);
            }
            stroke(o, pen, f, &sx, &sy, "Color");
            markers(o, pen, f, &x, &y);
        }
        Kind::Stem => {
            let y = o.nums("YData");
            let x = x_or_index(o, y.len());
            let base = o.num("BaseValue", 0.0);
            let c = rgb_of(o, "Color").unwrap_or([0.0; 3]);
            let w = pen.width(o.num("LineWidth", 0.5));
            let dash = Dash::of(&o.text("LineStyle"));
            for (xi, yi) in x.iter().zip(y.iter()) {
                if let Some(d) = dash {
                    for run in geometry::clip_polyline(f, &[f.pt(*xi, base), f.pt(*xi, *yi)]) {
                        pen.path(&run, c, w, d);
                    }
                }
            }
            if let (Some(a), Some(b)) = (
                x.iter().copied().filter(|v| v.is_finite()).reduce(f64::min),
                x.iter().copied().filter(|v| v.is_finite()).reduce(f64::max),
            ) {
                for run in geometry::clip_polyline(f, &[f.pt(a, base), f.pt(b, base)]) {
                    pen.path(&run, [0.0; 3], w, Dash::Solid);
                }
            }
            markers(o, pen, f, &x, &y);
        }
        Kind::ErrorBar => {
            let y = o.nums("YData");
            let x = x_or_index(o, y.len());
            let c = rgb_of(o, "Color").unwrap_or([0.0; 3]);
            let w = pen.width(o.num("LineWidth", 0.5));
            let cap = o.num("CapSize", 6.0) * pen.s / 2.0;
            let (neg, pos) = (o.nums("YNegativeDelta"), o.nums("YPositiveDelta"));
            let (xn, xp) = (o.nums("XNegativeDelta"), o.nums("XPositiveDelta"));
            for i in 0..y.len().min(x.len()) {
                let (lo, hi) = (neg.get(i).copied(), pos.get(i).copied());
                if lo.is_some() || hi.is_some() {
                    let a = f.pt(x[i], y[i] - lo.unwrap_or(0.0));
                    let b = f.pt(x[i], y[i] + hi.unwrap_or(0.0));
                    for run in geometry::clip_polyline(f, &[a, b]) {
                        pen.path(&run, c, w, Dash::Solid);
                    }
                    for p in [a, b] {
                        if f.inside(p) {
                            pen.line((p.0 - cap, p.1), (p.0 + cap, p.1), c, w);
                        }
                    }
                }
                let (l, r) = (xn.get(i).copied(), xp.get(i).copied());
                if l.is_some() || r.is_some() {
                    let a = f.pt(x[i] - l.unwrap_or(0.0), y[i]);
                    let b = f.pt(x[i] + r.unwrap_or(0.0), y[i]);
                    for run in geometry::clip_polyline(f, &[a, b]) {
                        pen.path(&run, c, w, Dash::Solid);
                    }
                    for p in [a, b] {
                        if f.inside(p) {
                            pen.line((p.0, p.1 - cap), (p.0, p.1 + cap), c, w);
                        }
                    }
                }
            }
            line_with_markers(o, pen, f, &x, &y);
        }
        Kind::Scatter => scatter(o, pen, f, cmap, clim),
        Kind::Bar => bars(o, pen, f),
        Kind::Histogram => {
            let e = o.nums("BinEdges");
            let v = o.nums("Values");
            let face = face_color(o).unwrap_or([0.0, 0.447, 0.741]);
            let alpha = o.num("FaceAlpha", 0.6);
            let edge = rgb_of(o, "EdgeColor");
            let w = pen.width(0.5);
            for (i, h) in v.iter().enumerate() {
                let (Some(a), Some(b)) = (e.get(i), e.get(i + 1)) else {
                    break;
                };
                let quad = [f.pt(*a, 0.0), f.pt(*b, 0.0), f.pt(*b, *h), f.pt(*a, *h)];
                fill_outline(pen, f, &quad, Some(face), alpha, edge, w);
            }
        }
        Kind::Area => {
            let y = o.nums("YData");
            let x = x_or_index(o, y.len());
            let base = o.num("BaseValue", 0.0);
            let mut poly: Vec<(f64, f64)> =
                x.iter().zip(y.iter()).map(|(a, b)| f.pt(*a, *b)).collect();
            if let (Some(a), Some(b)) = (x.first(), x.last()) {
                poly.push(f.pt(*b, base));
                poly.push(f.pt(*a, base));
            }
            let w = pen.width(o.num("LineWidth", 0.5));
            fill_outline(
                pen,
                f,
                &poly,
                face_color(o),
                o.num("FaceAlpha", 1.0),
                rgb_of(o, "EdgeColor"),
                w,
            );
        }
        Kind::Patch => {
            let y = o.nums("YData");
            let x = x_or_index(o, y.len());
            let poly: Vec<(f64, f64)> = x.iter().zip(y.iter()).map(|(a, b)| f.pt(*a, *b)).collect();
            let w = pen.width(o.num("LineWidth", 0.5));
            let edge = if o.text("LineStyle") == "none" {
                None
            } else {
                rgb_of(o, "EdgeColor")
            };
            fill_outline(
                pen,
                f,
                &poly,
                face_color(o),
                o.num("FaceAlpha", 1.0),
                edge,
                w,
            );
        }
        Kind::Quiver => {
            let Some(dash) = Dash::of(&o.text("LineStyle")) else {
                return;
            };
            let c = rgb_of(o, "Color").unwrap_or([0.0; 3]);
            let w = pen.width(o.num("LineWidth", 0.5));
            for a in crate::graphics::plots::quiver::arrows(o) {
                let shaft = [
                    f.pt(a.shaft[0].0, a.shaft[0].1),
                    f.pt(a.shaft[1].0, a.shaft[1].1),
                ];
                for run in geometry::clip_polyline(f, &shaft) {
                    pen.path(&run, c, w, dash);
                }
                if let Some(h) = a.head {
                    let barbs: Vec<(f64, f64)> = h.iter().map(|p| f.pt(p.0, p.1)).collect();
                    for run in geometry::clip_polyline(f, &barbs) {
                        pen.path(&run, c, w, Dash::Solid);
                    }
                }
            }
        }
        Kind::Image => image(o, pen, f, cmap, clim),
        Kind::Contour => super::three::contour_2d(o, pen, f, cmap, clim),
        Kind::Surface => {
            // a surface seen from above (view(2)): its faces as an image of colours
            super::three::surface_flat(o, pen, f, cmap, clim);
        }
        _ => {}
    }
}

fn face_color(o: &GObj) -> Option<[f64; 3]> {
    rgb_of(o, "FaceColor")
}

/// Fills a polygon (clipped to the box) and draws its outline.
pub fn fill_outline<DB: DrawingBackend>(
    pen: &Pen<DB>,
    f: &Frame,
    poly: &[(f64, f64)],
    face: Option<[f64; 3]>,
    alpha: f64,
    edge: Option<[f64; 3]>,
    w: u32,
) {
    if let Some(c) = face {
        let clipped = geometry::clip_polygon(f, poly);
        pen.polygon(&clipped, c, alpha);
    }
    if let Some(c) = edge {
        let mut closed: Vec<(f64, f64)> = poly.to_vec();
        if let Some(first) = poly.first() {
            closed.push(*first);
        }
        for run in geometry::clip_polyline(f, &closed) {
            pen.path(&run, c, w, Dash::Solid);
        }
    }
}

/// The decimated, clipped line of a series in its colour and style.
fn stroke<DB: DrawingBackend>(
    o: &GObj,
    pen: &Pen<DB>,
    f: &Frame,
    x: &[f64],
    y: &[f64],
    color: &str,
) {
    let Some(dash) = Dash::of(&o.text("LineStyle")) else {
        return;
    };
    let Some(c) = rgb_of(o, color) else { return };
    let w = pen.width(o.num("LineWidth", 0.5));
    for run in geometry::pixel_runs(f, x, y) {
        for piece in geometry::clip_polyline(f, &run) {
            pen.path(&piece, c, w, dash);
        }
    }
}

fn line_with_markers<DB: DrawingBackend>(o: &GObj, pen: &Pen<DB>, f: &Frame, x: &[f64], y: &[f64]) {
    stroke(o, pen, f, x, y, "Color");
    markers(o, pen, f, x, y);
}

/// The markers of a line-like series (at most one per pixel for very long series).
fn markers<DB: DrawingBackend>(o: &GObj, pen: &Pen<DB>, f: &Frame, x: &[f64], y: &[f64]) {
    let m = o.text("Marker");
    if m == "none" || m.is_empty() {
        return;
    }
    let line = rgb_of(o, "Color").unwrap_or([0.0; 3]);
    // (an RGB property reads as no text: look for the triplet first)
    let edge = match (
        rgb_of(o, "MarkerEdgeColor"),
        o.text("MarkerEdgeColor").as_str(),
    ) {
        (Some(c), _) => Some(c),
        (None, "none") => None,
        _ => Some(line),
    };
    let face = match (
        rgb_of(o, "MarkerFaceColor"),
        o.text("MarkerFaceColor").as_str(),
    ) {
        (Some(c), _) => Some(c),
        (None, "auto") => Some(line),
        _ => None,
    };
    let size = o.num("MarkerSize", 6.0);
    let w = pen.width(o.num("LineWidth", 0.5));
    let mut last: Option<(i64, i64)> = None;
    for (xi, yi) in x.iter().zip(y) {
        let p = f.pt(*xi, *yi);
        if !p.0.is_finite() || !p.1.is_finite() || !f.inside(p) {
            continue;
        }
        let key = (p.0 as i64, p.1 as i64);
        if last == Some(key) {
            continue;
        }
        last = Some(key);
        marker(pen, &m, p, size, edge, face, w);
    }
}

/// One marker: `size` in points (MATLAB's MarkerSize).
pub fn marker<DB: DrawingBackend>(
    pen: &Pen<DB>,
    m: &str,
    p: (f64, f64),
    size: f64,
    edge: Option<[f64; 3]>,
    face: Option<[f64; 3]>,
    w: u32,
) {
    let r = size * 96.0 / 72.0 * pen.s / 2.0;
    match m {
        "." => {
            if let Some(c) = edge {
                pen.circle(p, (r / 3.0).max(1.0), c, true, 1);
            }
        }
        "+" | "x" | "*" | "_" | "|" => {
            let Some(c) = edge else { return };
            let (h, d) = (r, r * std::f64::consts::FRAC_1_SQRT_2);
            if matches!(m, "+" | "*" | "_") {
                pen.line((p.0 - h, p.1), (p.0 + h, p.1), c, w);
            }
            if matches!(m, "+" | "*" | "|") {
                pen.line((p.0, p.1 - h), (p.0, p.1 + h), c, w);
            }
            if matches!(m, "x" | "*") {
                pen.line((p.0 - d, p.1 - d), (p.0 + d, p.1 + d), c, w);
                pen.line((p.0 - d, p.1 + d), (p.0 + d, p.1 - d), c, w);
            }
        }
        _ => match geometry::marker_shape(m, r) {
            Some(shape) => {
                let pts: Vec<(f64, f64)> =
                    shape.iter().map(|(dx, dy)| (p.0 + dx, p.1 + dy)).collect();
                if let Some(c) = face {
                    pen.polygon(&pts, c, 1.0);
                }
                if let Some(c) = edge {
                    let mut closed = pts.clone();
                    closed.push(pts[0]);
                    pen.path(&closed, c, w, Dash::Solid);
                }
            }
            None => {
                if let Some(c) = face {
                    pen.circle(p, r, c, true, 1);
                }
                if let Some(c) = edge {
                    pen.circle(p, r, c, false, w);
                }
            }
        },
    }
}

fn scatter<DB: DrawingBackend>(o: &GObj, pen: &Pen<DB>, f: &Frame, cmap: &Map, clim: (f64, f64)) {
    let y = o.nums("YData");
    let x = x_or_index(o, y.len());
    let pts: Vec<Option<(f64, f64)>> = (0..x.len().min(y.len()))
        .map(|i| {
            let p = f.pt(x[i], y[i]);
            (p.0.is_finite() && p.1.is_finite() && f.inside(p)).then_some(p)
        })
        .collect();
    scatter_markers(o, pen, &pts, cmap, clim);
}

/// A scatter object's markers at pixel positions (None: not drawn), coloured by CData.
pub fn scatter_markers<DB: DrawingBackend>(
    o: &GObj,
    pen: &Pen<DB>,
    pts: &[Option<(f64, f64)>],
    cmap: &Map,
    clim: (f64, f64),
) {
    let n = pts.len();
    let sizes = o.nums("SizeData");
    let (rows, cols, c) = o.matrix("CData");
    let m = o.text("Marker");
    let w = pen.width(o.num("LineWidth", 0.5));
    for (i, p) in pts.iter().enumerate() {
        let Some(p) = *p else { continue };
        // CData: one colour, one RGB row per point, or one value per point (colormapped)
        let color = if c.len() == 3 && rows * cols == 3 {
            [c[0], c[1], c[2]]
        } else if cols == 3 && rows == n {
            [c[i], c[rows + i], c[2 * rows + i]]
        } else if c.len() == n {
            match cmap.scaled(c[i], clim.0, clim.1) {
                Some(v) => v,
                None => continue,
            }
        } else {
            [0.0, 0.447, 0.741]
        };
        let area = if sizes.len() == n {
            sizes[i]
        } else {
            sizes.first().copied().unwrap_or(36.0)
        };
        let size = area.max(0.0).sqrt();
        let edge = match (
            rgb_of(o, "MarkerEdgeColor"),
            o.text("MarkerEdgeColor").as_str(),
        ) {
            (Some(c), _) => Some(c),
            (None, "none") => None,
            _ => Some(color),
        };
        let face = match (
            rgb_of(o, "MarkerFaceColor"),
            o.text("MarkerFaceColor").as_str(),
        ) {
            (Some(c), _) => Some(c),
            (None, "flat" | "auto") => Some(color),
            _ => None,
        };
        marker(pen, &m, p, size, edge, face, w);
    }
}

fn bars<DB: DrawingBackend>(o: &GObj, pen: &Pen<DB>, f: &Frame) {
    let y = o.nums("YData");
    let x = x_or_index(o, y.len());
    let (k, groups) = match o.grid {
        Some((k, n, _)) if n > 0 => (k, n),
        _ => (0, 1),
    };
    let step = crate::graphics::limits::min_step(&x);
    let group_width = if groups > 1 {
        0.8 * step.min(1.0).max(step)
    } else {
        step
    };
    let width = o.num("BarWidth", 0.8) * group_width / groups as f64;
    let offset = if groups > 1 {
        (k as f64 - (groups as f64 - 1.0) / 2.0) * group_width / groups as f64
    } else {
        0.0
    };
    let base = o.num("BaseValue", 0.0);
    let face = face_color(o);
    let edge = rgb_of(o, "EdgeColor");
    let w = pen.width(o.num("LineWidth", 0.5));
    let horizontal = o.on("Horizontal");
    let ends = o.nums("YEndPoints");
    let stacked = o.text("BarLayout") == "stacked" && ends.len() == y.len();
    for (i, (xi, yi)) in x.iter().zip(y.iter()).enumerate() {
        let (a, b) = (xi + offset - width / 2.0, xi + offset + width / 2.0);
        let (lo, hi) = if stacked {
            (ends[i] - yi, ends[i])
        } else {
            (base, *yi)
        };
        let quad = if horizontal {
            [f.pt(lo, a), f.pt(hi, a), f.pt(hi, b), f.pt(lo, b)]
        } else {
            [f.pt(a, lo), f.pt(a, hi), f.pt(b, hi), f.pt(b, lo)]
        };
        fill_outline(pen, f, &quad, face, 1.0, edge, w);
    }
}

fn image<DB: DrawingBackend>(o: &GObj, pen: &Pen<DB>, f: &Frame, cmap: &Map, clim: (f64, f64)) {
    let Some(cdata) = o.get("CData") else { return };
    let dims = cdata.shape().dims().to_vec();
    let (rows, cols) = (
        dims.first().copied().unwrap_or(0),
        dims.get(1).copied().unwrap_or(0),
    );
    let truecolor = dims.len() == 3 && dims[2] == 3;
    let d = o.nums("CData");
    if rows == 0 || cols == 0 || d.len() < rows * cols {
        return;
    }
    let integer = cdata
        .num_class()
        .is_some_and(|c| c.name().starts_with("uint"));
    let scaled = o.text("CDataMapping") == "scaled";
    let color = |r: usize, c: usize| -> Option<[f64; 3]> {
        let i = c * rows + r;
        if truecolor {
            let n = rows * cols;
            let k = if integer { 255.0 } else { 1.0 };
            Some([
                (d.get(i)? / k).clamp(0.0, 1.0),
                (d.get(n + i)? / k).clamp(0.0, 1.0),
                (d.get(2 * n + i)? / k).clamp(0.0, 1.0),
            ])
        } else if scaled {
            cmap.scaled(d[i], clim.0, clim.1)
        } else {
            cmap.direct(if integer { d[i] + 1.0 } else { d[i] })
        }
    };
    let (xs, ys) = (o.nums("XData"), o.nums("YData"));
    let (xa, xb) = (
        xs.first().copied().unwrap_or(1.0),
        xs.last().copied().unwrap_or(cols as f64),
    );
    let (ya, yb) = (
        ys.first().copied().unwrap_or(1.0),
        ys.last().copied().unwrap_or(rows as f64),
    );
    let dx = if cols > 1 {
        (xb - xa) / (cols as f64 - 1.0)
    } else {
        1.0
    };
    let dy = if rows > 1 {
        (yb - ya) / (rows as f64 - 1.0)
    } else {
        1.0
    };
    // cell edges in pixels
    let xe: Vec<f64> = (0..=cols)
        .map(|c| f.x.px(xa + (c as f64 - 0.5) * dx))
        .collect();
    let ye: Vec<f64> = (0..=rows)
        .map(|r| f.y.px(ya + (r as f64 - 0.5) * dy))
        .collect();
    // more cells than pixels: draw one rectangle per pixel, from the cell under its centre
    let (wpx, hpx) = ((f.x1 - f.x0).abs().max(1.0), (f.y1 - f.y0).abs().max(1.0));
    let (cstep, rstep) = (
        ((cols as f64 / wpx).floor() as usize).max(1),
        ((rows as f64 / hpx).floor() as usize).max(1),
    );
    let mut r = 0;
    while r < rows {
        let r2 = (r + rstep).min(rows);
        let mut c = 0;
        while c < cols {
            let c2 = (c + cstep).min(cols);
            if let Some(col) = color(r, c) {
                let quad = [
                    (xe[c], ye[r]),
                    (xe[c2], ye[r]),
                    (xe[c2], ye[r2]),
                    (xe[c], ye[r2]),
                ];
                let clipped = geometry::clip_polygon(f, &quad);
                if clipped.len() >= 3 {
                    let (mut lx, mut ly, mut hx, mut hy) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
                    for p in &clipped {
                        lx = lx.min(p.0);
                        ly = ly.min(p.1);
                        hx = hx.max(p.0);
                        hy = hy.max(p.1);
                    }
                    pen.rect((lx, ly), (hx, hy), col, 1.0);
                }
            }
            c = c2;
        }
        r = r2;
    }
}
