//! Legends (a boxed list of samples and names, in a corner of the plot box) and colorbars
//! (the colormap as a strip beside the axes, with ticks over the colour limits).

use super::axes::{label_text, rgb_of};
use super::geometry::Frame;
use super::pen::{Align, Dash, Pen};
use super::series::marker;
use crate::graphics::Scene;
use crate::graphics::model::{Id, Kind};
use crate::graphics::{limits, ticks};
use plotters::prelude::DrawingBackend;

/// The series a legend lists, with their names.
pub fn entries(scene: &Scene, ax: Id) -> Vec<(Id, String)> {
    let Some(a) = scene.objs.get(&ax) else {
        return Vec::new();
    };
    a.children
        .iter()
        .filter_map(|c| {
            let o = scene.objs.get(c)?;
            if !o.kind.is_series() || o.kind == Kind::Image {
                return None;
            }
            let name = o.text("DisplayName");
            (!name.is_empty()).then(|| (*c, name))
        })
        .collect()
}

pub fn draw_legend<DB: DrawingBackend>(
    scene: &Scene,
    ax: Id,
    legend: Id,
    pen: &Pen<DB>,
    f: &Frame,
) {
    let Some(l) = scene.objs.get(&legend) else {
        return;
    };
    if l.text("Visible") == "off" {
        return;
    }
    let items = entries(scene, ax);
    if items.is_empty() {
        return;
    }
    let fs = l.num("FontSize", 9.0);
    let s = pen.s;
    let sample = 30.0 * s;
    let pad = 5.0 * s;
    let texts: Vec<String> = items.iter().map(|(_, t)| super::tex::plain(t)).collect();
    let row_h = texts
        .iter()
        .map(|t| pen.measure(t, fs, false).1)
        .fold(fs * 1.2 * s, f64::max)
        + 3.0 * s;
    let text_w = texts
        .iter()
        .map(|t| pen.measure(t, fs, false).0)
        .fold(0.0, f64::max);
    let w = pad * 3.0 + sample + text_w;
    let h = pad * 2.0 + row_h * items.len() as f64;
    let loc = l.text("Location").to_ascii_lowercase();
    let margin = 8.0 * s;
    let x = if loc.contains("west") {
        f.x0 + margin
    } else if loc == "north" || loc == "south" {
        (f.x0 + f.x1 - w) / 2.0
    } else if loc.ends_with("outside") && loc.contains("east") {
        f.x1 + margin
    } else {
        f.x1 - margin - w
    };
    let y = if loc.starts_with("south") {
        f.y1 - margin - h
    } else if loc == "east" || loc == "west" {
        (f.y0 + f.y1 - h) / 2.0
    } else {
        f.y0 + margin
    };
    pen.rect((x, y), (x + w, y + h), [1.0; 3], 1.0);
    if l.on("Box") {
        pen.frame((x, y), (x + w, y + h), [0.15; 3], pen.width(0.5));
    }
    for (i, ((id, _), text)) in items.iter().zip(&texts).enumerate() {
        let Some(o) = scene.objs.get(id) else {
            continue;
        };
        let cy = y + pad + row_h * (i as f64 + 0.5);
        let (sx0, sx1) = (x + pad, x + pad + sample);
        match o.kind {
            Kind::Line
            | Kind::Stair
            | Kind::ErrorBar
            | Kind::Stem
            | Kind::Contour
            | Kind::Quiver => {
                let c = rgb_of(o, "Color")
                    .or_else(|| rgb_of(o, "LineColor"))
                    .unwrap_or([0.0; 3]);
                if let Some(d) = Dash::of(&o.text("LineStyle")) {
                    pen.path(
                        &[(sx0, cy), (sx1, cy)],
                        c,
                        pen.width(o.num("LineWidth", 0.5)),
                        d,
                    );
                }
                let m = o.text("Marker");
                if m != "none" && !m.is_empty() {
                    let face = match (
                        rgb_of(o, "MarkerFaceColor"),
                        o.text("MarkerFaceColor").as_str(),
                    ) {
                        (Some(f), _) => Some(f),
                        (None, "auto") => Some(c),
                        _ => None,
                    };
                    marker(
                        pen,
                        &m,
                        ((sx0 + sx1) / 2.0, cy),
                        o.num("MarkerSize", 6.0),
                        Some(c),
                        face,
                        1,
                    );
                }
            }
            Kind::Scatter => {
                let c = rgb_of(o, "CData").unwrap_or([0.0, 0.447, 0.741]);
                let face = match (
                    rgb_of(o, "MarkerFaceColor"),
                    o.text("MarkerFaceColor").as_str(),
                ) {
                    (Some(f), _) => Some(f),
                    (None, "flat" | "auto") => Some(c),
                    _ => None,
                };
                marker(
                    pen,
                    &o.text("Marker"),
                    ((sx0 + sx1) / 2.0, cy),
                    6.0,
                    Some(c),
                    face,
                    1,
                );
            }
            _ => {
                let c = rgb_of(o, "FaceColor").unwrap_or([0.0, 0.447, 0.741]);
                let alpha = o.num("FaceAlpha", 1.0);
                let hh = row_h * 0.35;
                pen.rect((sx0 + 4.0 * s, cy - hh), (sx1 - 4.0 * s, cy + hh), c, alpha);
                if let Some(e) = rgb_of(o, "EdgeColor") {
                    pen.frame((sx0 + 4.0 * s, cy - hh), (sx1 - 4.0 * s, cy + hh), e, 1);
                }
            }
        }
        pen.text(
            text,
            (sx1 + pad, cy),
            fs,
            [0.0; 3],
            Align::Start,
            Align::Center,
            false,
            false,
        );
    }
}

/// A vertical colorbar right of the plot box (whose right edge is `x`).
pub fn draw_colorbar<DB: DrawingBackend>(
    scene: &Scene,
    ax: Id,
    cb: Id,
    pen: &Pen<DB>,
    (x, y0, y1): (f64, f64, f64),
    fw: f64,
) {
    let Some(o) = scene.objs.get(&cb) else { return };
    let cmap = scene.colormap_of(ax);
    let lim = limits::axes_limits(scene, ax).c;
    let bx0 = x + 0.025 * fw;
    let bx1 = bx0 + 0.03 * fw;
    let n = cmap.0.len().max(1);
    let h = y1 - y0;
    for (i, c) in cmap.0.iter().enumerate() {
        // row i from the bottom
        let top = y1 - h * (i + 1) as f64 / n as f64;
        let bottom = y1 - h * i as f64 / n as f64;
        pen.rect((bx0, top), (bx1, bottom.max(top + 1.0)), *c, 1.0);
    }
    let w = pen.width(0.5);
    pen.frame((bx0, y0), (bx1, y1), [0.15; 3], w);
    let t = ticks::auto_ticks(lim.0, lim.1, 1.6 * h / pen.s, false);
    let (labels, _) = ticks::labels(&t, false);
    let fs = o.num("FontSize", 9.0);
    let len = 0.25 * (bx1 - bx0);
    for (v, s) in t.iter().zip(&labels) {
        if lim.1 <= lim.0 {
            break;
        }
        let y = y1 - (v - lim.0) / (lim.1 - lim.0) * h;
        pen.line((bx1, y), (bx1 - len, y), [0.15; 3], w);
        pen.text(
            s,
            (bx1 + 3.0 * pen.s, y),
            fs,
            [0.15; 3],
            Align::Start,
            Align::Center,
            false,
            false,
        );
    }
    let _ = label_text;
}
