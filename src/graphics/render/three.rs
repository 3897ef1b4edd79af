//! Gridded data: contours in a 2-D axes, and surfaces and meshes in a static 3-D view
//! (MATLAB's default azimuth -37.5°, elevation 30°), faces painted back to front.

use super::axes::rgb_of;
use super::geometry::{self, Frame};
use super::pen::{Align, Dash, Pen};
use crate::graphics::Scene;
use crate::graphics::colormap::Map;
use crate::graphics::contour::{self, Grid};
use crate::graphics::model::{GObj, Id, Kind};
use crate::graphics::{limits, ticks};
use plotters::prelude::DrawingBackend;

fn levels_of(o: &GObj, g: &Grid) -> Vec<f64> {
    let set = o.nums("LevelList");
    if !set.is_empty() {
        set.into_owned()
    } else {
        contour::auto_levels(&g.z, None)
    }
}

pub fn contour_2d<DB: DrawingBackend>(
    o: &GObj,
    pen: &Pen<DB>,
    f: &Frame,
    cmap: &Map,
    clim: (f64, f64),
) {
    let Some(g) = Grid::of(o) else { return };
    let levels = levels_of(o, &g);
    if o.on("Fill") {
        for (lo, polys) in contour::bands(&g, &levels) {
            let Some(c) = cmap.scaled(lo, clim.0, clim.1) else {
                continue;
            };
            for p in polys {
                let px: Vec<(f64, f64)> = p.iter().map(|(x, y)| f.pt(*x, *y)).collect();
                let clipped = geometry::clip_polygon(f, &px);
                pen.polygon(&clipped, c, 1.0);
            }
        }
    }
    let Some(dash) = Dash::of(&o.text("LineStyle")) else {
        return;
    };
    let w = pen.width(o.num("LineWidth", 0.5));
    let fixed = rgb_of(o, "LineColor");
    if o.text("LineColor") == "none" {
        return;
    }
    for l in &levels {
        let c = match fixed {
            Some(c) => c,
            None => match cmap.scaled(*l, clim.0, clim.1) {
                Some(c) => c,
                None => continue,
            },
        };
        for (a, b) in contour::segments(&g, *l) {
            for run in geometry::clip_polyline(f, &[f.pt(a.0, a.1), f.pt(b.0, b.1)]) {
                pen.path(&run, c, w, dash);
            }
        }
    }
}

/// A surface seen from straight above: each face filled with its colour.
pub fn surface_flat<DB: DrawingBackend>(
    o: &GObj,
    pen: &Pen<DB>,
    f: &Frame,
    cmap: &Map,
    clim: (f64, f64),
) {
    let Some(g) = Grid::of(o) else { return };
    let c = color_data(o, &g);
    for i in 0..g.m - 1 {
        for j in 0..g.n - 1 {
            let k = |i: usize, j: usize| j * g.m + i;
            let quad: Vec<(f64, f64)> = [k(i, j), k(i + 1, j), k(i + 1, j + 1), k(i, j + 1)]
                .iter()
                .map(|q| f.pt(g.x[*q], g.y[*q]))
                .collect();
            if let Some(col) = face_color(o, cmap, clim, c[k(i, j)]) {
                pen.polygon(&geometry::clip_polygon(f, &quad), col, 1.0);
            }
        }
    }
}

fn color_data(o: &GObj, g: &Grid) -> Vec<f64> {
    let c = o.nums("CData");
    if c.len() == g.z.len() {
        c.into_owned()
    } else {
        g.z.clone()
    }
}

fn face_color(o: &GObj, cmap: &Map, clim: (f64, f64), v: f64) -> Option<[f64; 3]> {
    match o.text("FaceColor").as_str() {
        "none" => None,
        "flat" | "interp" => cmap.scaled(v, clim.0, clim.1),
        _ => rgb_of(o, "FaceColor"),
    }
}

/// The 3-D view's projection of normalised coordinates (each axis mapped to [-0.5, 0.5]).
struct View {
    az: f64,
    el: f64,
}

impl View {
    /// Screen x, screen y (up), depth (toward the viewer).
    fn project(&self, p: [f64; 3]) -> (f64, f64, f64) {
        let (sa, ca) = self.az.to_radians().sin_cos();
        let (se, ce) = self.el.to_radians().sin_cos();
        let sx = ca * p[0] + sa * p[1];
        let sy = -se * sa * p[0] + se * ca * p[1] + ce * p[2];
        let d = ce * sa * p[0] - ce * ca * p[1] + se * p[2];
        (sx, sy, d)
    }
}

/// Draws a 3-D axes: back planes' box edges and grid, faces back to front, tick labels.
pub fn draw<DB: DrawingBackend>(
    scene: &Scene,
    ax: Id,
    pen: &Pen<DB>,
    (x0, y0, x1, y1): (f64, f64, f64, f64),
) {
    let Some(a) = scene.objs.get(&ax) else { return };
    let lim = limits::axes_limits(scene, ax);
    let v = a.nums("View");
    let view = View {
        az: v.first().copied().unwrap_or(-37.5),
        el: v.get(1).copied().unwrap_or(30.0),
    };
    let norm = |x: f64, l: (f64, f64)| {
        if l.1 > l.0 {
            (x - l.0) / (l.1 - l.0) - 0.5
        } else {
            0.0
        }
    };
    let corners: Vec<[f64; 3]> = (0..8)
        .map(|k| {
            [
                (k & 1) as f64 - 0.5,
                ((k >> 1) & 1) as f64 - 0.5,
                ((k >> 2) & 1) as f64 - 0.5,
            ]
        })
        .collect();
    let proj: Vec<(f64, f64, f64)> = corners.iter().map(|c| view.project(*c)).collect();
    let (mut lx, mut hx, mut ly, mut hy) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for p in &proj {
        lx = lx.min(p.0);
        hx = hx.max(p.0);
        ly = ly.min(p.1);
        hy = hy.max(p.1);
    }
    let scale = ((x1 - x0) / (hx - lx)).min((y1 - y0) / (hy - ly));
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let (mx, my) = ((lx + hx) / 2.0, (ly + hy) / 2.0);
    let to_px = |p: (f64, f64, f64)| (cx + (p.0 - mx) * scale, cy - (p.1 - my) * scale);
    let point = |x: f64, y: f64, z: f64| {
        let p = view.project([norm(x, lim.x), norm(y, lim.y), norm(z, lim.z)]);
        (to_px(p), p.2)
    };
    let grey = [0.15; 3];
    let thin = pen.width(0.5);
    // the three back planes: for each axis, the side facing away from the viewer
    let back = |axis: usize| -> f64 {
        let mut p = [0.0; 3];
        p[axis] = 0.5;
        if view.project(p).2 > 0.0 { -0.5 } else { 0.5 }
    };
    let (bx, by, bz) = (back(0), back(1), -0.5);
    let c3 = |x: f64, y: f64, z: f64| to_px(view.project([x, y, z]));
    let xt = ticks::auto_ticks(lim.x.0, lim.x.1, (x1 - x0) / pen.s * 0.6, false);
    let yt = ticks::auto_ticks(lim.y.0, lim.y.1, (x1 - x0) / pen.s * 0.6, false);
    let zt = ticks::auto_ticks(lim.z.0, lim.z.1, (y1 - y0) / pen.s * 0.6, false);
    let grid_on = a.on("XGrid") || a.on("YGrid") || a.on("ZGrid");
    let gridc = if grid_on { [0.8; 3] } else { [0.92; 3] };
    for t in &xt {
        let u = norm(*t, lim.x);
        pen.line(c3(u, -0.5, bz), c3(u, 0.5, bz), gridc, thin);
        pen.line(c3(u, by, -0.5), c3(u, by, 0.5), gridc, thin);
    }
    for t in &yt {
        let u = norm(*t, lim.y);
        pen.line(c3(-0.5, u, bz), c3(0.5, u, bz), gridc, thin);
        pen.line(c3(bx, u, -0.5), c3(bx, u, 0.5), gridc, thin);
    }
    for t in &zt {
        let u = norm(*t, lim.z);
        pen.line(c3(bx, -0.5, u), c3(bx, 0.5, u), gridc, thin);
        pen.line(c3(-0.5, by, u), c3(0.5, by, u), gridc, thin);
    }
    // back edges of the box
    for (p, q) in [
        ((bx, -0.5, bz), (bx, 0.5, bz)),
        ((-0.5, by, bz), (0.5, by, bz)),
        ((bx, by, -0.5), (bx, by, 0.5)),
        ((-bx, -0.5, bz), (-bx, 0.5, bz)),
        ((-0.5, -by, bz), (0.5, -by, bz)),
    ] {
        pen.line(c3(p.0, p.1, p.2), c3(q.0, q.1, q.2), grey, thin);
    }
    let cmap = scene.colormap_of(ax);
    for c in &a.children {
        let Some(o) = scene.objs.get(c) else { continue };
        match o.kind {
            Kind::Surface => surface_3d(o, pen, &point, &cmap, lim.c),
            Kind::Line => {
                let (x, y, z) = (o.nums("XData"), o.nums("YData"), o.nums("ZData"));
                let col = rgb_of(o, "Color").unwrap_or(grey);
                let pts: Vec<(f64, f64)> = (0..x.len().min(y.len()))
                    .map(|i| point(x[i], y[i], z.get(i).copied().unwrap_or(0.0)).0)
                    .collect();
                pen.path(&pts, col, pen.width(o.num("LineWidth", 0.5)), Dash::Solid);
            }
            Kind::Scatter => {
                let (x, y, z) = (o.nums("XData"), o.nums("YData"), o.nums("ZData"));
                let pts: Vec<Option<(f64, f64)>> = (0..x.len().min(y.len()))
                    .map(|i| {
                        let p = point(x[i], y[i], z.get(i).copied().unwrap_or(0.0)).0;
                        (p.0.is_finite() && p.1.is_finite()).then_some(p)
                    })
                    .collect();
                super::series::scatter_markers(o, pen, &pts, &cmap, lim.c);
            }
            _ => {}
        }
    }
    // tick labels along the front-bottom x and y edges and the left vertical edge
    let fs = a.num("FontSize", 10.0);
    let (fx, fy) = (-bx, -by);
    for (ts, l) in [
        (&xt, ticks::labels(&xt, false).0),
        (&yt, ticks::labels(&yt, false).0),
    ]
    .iter()
    .enumerate()
    .map(|(k, (t, l))| ((k, *t), l.clone()))
    {
        let (k, t) = ts;
        for (v, s) in t.iter().zip(&l) {
            let (p, outward) = if k == 0 {
                let u = norm(*v, lim.x);
                (c3(u, fy, -0.5), c3(u, fy * 1.15, -0.5))
            } else {
                let u = norm(*v, lim.y);
                (c3(fx, u, -0.5), c3(fx * 1.15, u, -0.5))
            };
            let h = if outward.0 < p.0 - 0.5 {
                Align::End
            } else if outward.0 > p.0 + 0.5 {
                Align::Start
            } else {
                Align::Center
            };
            pen.text(
                s,
                (outward.0, outward.1),
                fs,
                grey,
                h,
                Align::Start,
                false,
                false,
            );
        }
    }
    let (zl, _) = ticks::labels(&zt, false);
    // the vertical edge furthest left on screen
    let left_corner = [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)]
        .into_iter()
        .min_by(|a, b| c3(a.0, a.1, 0.0).0.total_cmp(&c3(b.0, b.1, 0.0).0))
        .unwrap_or((-0.5, -0.5));
    for (v, s) in zt.iter().zip(&zl) {
        let u = norm(*v, lim.z);
        let p = c3(left_corner.0, left_corner.1, u);
        pen.line(p, (p.0 + 4.0 * pen.s, p.1), grey, thin);
        pen.text(
            s,
            (p.0 - 4.0 * pen.s, p.1),
            fs,
            grey,
            Align::End,
            Align::Center,
            false,
            false,
        );
    }
    for (name, at) in [
        ("XLabel", c3(0.0, fy * 1.45, -0.5)),
        ("YLabel", c3(fx * 1.45, 0.0, -0.5)),
    ] {
        if let Some(t) = scene.linked(ax, name).and_then(|t| scene.objs.get(&t)) {
            let s = super::axes::label_text(t);
            pen.text(
                &s,
                at,
                fs * 1.1,
                grey,
                Align::Center,
                Align::Start,
                false,
                false,
            );
        }
    }
    if let Some(t) = scene.linked(ax, "ZLabel").and_then(|t| scene.objs.get(&t)) {
        let s = super::axes::label_text(t);
        let p = c3(left_corner.0, left_corner.1, 0.0);
        pen.text(
            &s,
            (p.0 - 40.0 * pen.s, p.1),
            fs * 1.1,
            grey,
            Align::Center,
            Align::Center,
            false,
            true,
        );
    }
}

#[allow(clippy::type_complexity)]
fn surface_3d<DB: DrawingBackend>(
    o: &GObj,
    pen: &Pen<DB>,
    point: &dyn Fn(f64, f64, f64) -> ((f64, f64), f64),
    cmap: &Map,
    clim: (f64, f64),
) {
    let Some(g) = Grid::of(o) else { return };
    let c = color_data(o, &g);
    let mut faces: Vec<(f64, Vec<(f64, f64)>, f64)> = Vec::with_capacity((g.m - 1) * (g.n - 1));
    for i in 0..g.m - 1 {
        for j in 0..g.n - 1 {
            let k = |i: usize, j: usize| j * g.m + i;
            let ks = [k(i, j), k(i + 1, j), k(i + 1, j + 1), k(i, j + 1)];
            if ks.iter().any(|q| !g.z[*q].is_finite()) {
                continue;
            }
            let mut depth = 0.0;
            let pts: Vec<(f64, f64)> = ks
                .iter()
                .map(|q| {
                    let (p, d) = point(g.x[*q], g.y[*q], g.z[*q]);
                    depth += d;
                    p
                })
                .collect();
            faces.push((depth, pts, c[k(i, j)]));
        }
    }
    faces.sort_by(|a, b| a.0.total_cmp(&b.0));
    let edge_flat = o.text("EdgeColor") == "flat" || o.text("EdgeColor") == "interp";
    let edge = rgb_of(o, "EdgeColor");
    let w = pen.width(o.num("LineWidth", 0.5));
    let show_edges = o.text("LineStyle") != "none" && o.text("EdgeColor") != "none";
    for (_, pts, v) in faces {
        if let Some(col) = face_color(o, cmap, clim, v) {
            pen.polygon(&pts, col, 1.0);
        }
        if show_edges {
            let col = if edge_flat {
                cmap.scaled(v, clim.0, clim.1)
            } else {
                edge
            };
            if let Some(col) = col {
                let mut closed = pts.clone();
                closed.push(pts[0]);
                pen.path(&closed, col, w, Dash::Solid);
            }
        }
    }
}
