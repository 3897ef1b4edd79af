//! One 2-D axes: plot box, grid, series, box and ticks (inward, mirrored when the box is on),
//! tick labels, axis labels, title, text objects, legend and colorbar.

use super::geometry::{AxisMap, Frame};
use super::pen::{Align, Dash, Pen};
use super::tex;
use crate::graphics::Scene;
use crate::graphics::limits;
use crate::graphics::model::{GObj, Id, Kind};
use crate::graphics::ticks;
use plotters::prelude::DrawingBackend;

const GRID: [f64; 3] = [0.87, 0.87, 0.87];
// MATLAB draws the minor grid dotted
const MINOR_GRID: [f64; 3] = [0.82, 0.82, 0.82];
const TEXT: [f64; 3] = [0.15, 0.15, 0.15];

pub fn rgb_of(o: &GObj, name: &str) -> Option<[f64; 3]> {
    match &*o.nums(name) {
        [r, g, b] => Some([*r, *g, *b]),
        _ => None,
    }
}

/// The axes' plot box in pixels, `[left, top, right, bottom]`, before any aspect fitting.
pub fn box_px(a: &GObj, fw: f64, fh: f64) -> (f64, f64, f64, f64) {
    let p = a.nums("Position");
    let [l, b, w, h] = match &*p {
        [l, b, w, h] => [*l, *b, *w, *h],
        _ => crate::graphics::defaults::AXES_POSITION,
    };
    (l * fw, fh - (b + h) * fh, (l + w) * fw, fh - b * fh)
}

/// Whether the axes shows a 3-D view.
pub fn is_3d(scene: &Scene, ax: Id) -> bool {
    let Some(a) = scene.objs.get(&ax) else {
        return false;
    };
    let v = a.nums("View");
    v.get(1).is_some_and(|el| *el != 90.0)
}

pub fn draw<DB: DrawingBackend>(scene: &Scene, ax: Id, pen: &Pen<DB>, (fw, fh): (f64, f64)) {
    let Some(a) = scene.objs.get(&ax) else {
        return;
    };
    let (mut x0, mut y0, mut x1, mut y1) = box_px(a, fw, fh);
    let colorbar = scene.linked(ax, "Colorbar").filter(|c| {
        scene
            .objs
            .get(c)
            .is_some_and(|o| o.text("Visible") != "off")
    });
    if colorbar.is_some() {
        x1 -= 0.09 * fw;
    }
    if is_3d(scene, ax) {
        super::three::draw(scene, ax, pen, (x0, y0, x1, y1));
        draw_title(scene, ax, pen, (x0, y0, x1, y1), 0.0);
        if let Some(cb) = colorbar {
            super::legend::draw_colorbar(scene, ax, cb, pen, (x1, y0, y1), fw);
        }
        return;
    }
    let lim = limits::axes_limits(scene, ax);
    let visible = a.text("Visible") != "off";
    if a.text("DataAspectRatioMode") == "manual" {
        // equal data units on both axes: shrink the longer side about its centre
        let r = a.nums("DataAspectRatio");
        let ratio = |k: usize| r.get(k).copied().filter(|v| *v > 0.0).unwrap_or(1.0);
        let (dx, dy) = (
            (lim.x.1 - lim.x.0) / ratio(0),
            (lim.y.1 - lim.y.0) / ratio(1),
        );
        let (w, h) = (x1 - x0, y1 - y0);
        if dx > 0.0 && dy > 0.0 && w > 0.0 && h > 0.0 {
            let unit = (w / dx).min(h / dy);
            let (nw, nh) = (unit * dx, unit * dy);
            let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
            (x0, x1, y0, y1) = (cx - nw / 2.0, cx + nw / 2.0, cy - nh / 2.0, cy + nh / 2.0);
        }
    }
    if a.text("PlotBoxAspectRatioMode") == "manual" {
        // axis square (PlotBoxAspectRatio [1 1 1]) or a set ratio: the largest box of that
        // shape, about its centre
        let r = a.nums("PlotBoxAspectRatio");
        let ratio = match (r.first(), r.get(1)) {
            (Some(w), Some(h)) if *w > 0.0 && *h > 0.0 => w / h,
            _ => 1.0,
        };
        let (w, h) = (x1 - x0, y1 - y0);
        let (nw, nh) = if w / h > ratio {
            (h * ratio, h)
        } else {
            (w, w / ratio)
        };
        let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        (x0, x1, y0, y1) = (cx - nw / 2.0, cx + nw / 2.0, cy - nh / 2.0, cy + nh / 2.0);
    }
    let xrev = a.text("XDir") == "reverse";
    let yrev = a.text("YDir") == "reverse";
    let frame = Frame {
        x0,
        y0,
        x1,
        y1,
        x: AxisMap {
            lo: lim.x.0,
            hi: lim.x.1,
            p0: if xrev { x1 } else { x0 },
            p1: if xrev { x0 } else { x1 },
            log: a.text("XScale") == "log",
        },
        y: AxisMap {
            lo: lim.y.0,
            hi: lim.y.1,
            p0: if yrev { y0 } else { y1 },
            p1: if yrev { y1 } else { y0 },
            log: a.text("YScale") == "log",
        },
    };
    // polarplot's axes: a polar grid instead of the box, ticks and labels
    let polar = a
        .nums("RLim")
        .get(1)
        .copied()
        .filter(|r| *r > 0.0 && r.is_finite());
    if let Some(outer) = polar.filter(|_| visible) {
        super::polar::grid(a, pen, &frame, outer);
    }
    let visible = visible && polar.is_none();
    if visible {
        if let Some(c) = rgb_of(a, "Color") {
            pen.rect((x0, y0), (x1, y1), c, 1.0);
        }
    }
    let xt = ticks::axes_ticks(scene, ax, b'X');
    let yt = ticks::axes_ticks(scene, ax, b'Y');
    let thin = pen.width(0.5);
    // grid minor: dotted lines between the ticks (fifths of a linear step, 2..9 of a decade)
    if visible && a.on("XMinorGrid") {
        for t in ticks::minor(&xt, (lim.x.0, lim.x.1), frame.x.log) {
            let x = frame.x.px(t);
            if x.is_finite() {
                pen.path(&[(x, y0), (x, y1)], MINOR_GRID, thin, Dash::Dotted);
            }
        }
    }
    if visible && a.on("YMinorGrid") {
        for t in ticks::minor(&yt, (lim.y.0, lim.y.1), frame.y.log) {
            let y = frame.y.px(t);
            if y.is_finite() {
                pen.path(&[(x0, y), (x1, y)], MINOR_GRID, thin, Dash::Dotted);
            }
        }
    }
    if visible && a.on("XGrid") {
        for t in &xt {
            let x = frame.x.px(*t);
            if x.is_finite() {
                pen.line((x, y0), (x, y1), GRID, thin);
            }
        }
    }
    if visible && a.on("YGrid") {
        for t in &yt {
            let y = frame.y.px(*t);
            if y.is_finite() {
                pen.line((x0, y), (x1, y), GRID, thin);
            }
        }
    }
    let clim = lim.c;
    let cmap = scene.colormap_of(ax);
    for c in &a.children {
        if let Some(o) = scene.objs.get(c) {
            if o.kind.is_series() && o.text("Visible") != "off" {
                super::series::draw(o, pen, &frame, &cmap, clim);
            }
        }
    }
    let mut below = 0.0;
    let mut left_w = 0.0;
    if visible {
        (below, left_w) = draw_frame(a, pen, &frame, &xt, &yt);
    }
    for c in &a.children {
        if let Some(o) = scene.objs.get(c) {
            if o.kind == Kind::Text && o.text("Visible") != "off" {
                draw_text_object(o, pen, &frame);
            }
        }
    }
    let fs = a.num("FontSize", 10.0) * 1.1;
    let gap = 4.0 * pen.s;
    if visible {
        if let Some(t) = scene.linked(ax, "XLabel").and_then(|t| scene.objs.get(&t)) {
            let s = label_text(t);
            pen.text(
                &s,
                ((x0 + x1) / 2.0, y1 + below + gap),
                fs,
                TEXT,
                Align::Center,
                Align::Start,
                false,
                false,
            );
        }
        if let Some(t) = scene.linked(ax, "YLabel").and_then(|t| scene.objs.get(&t)) {
            let s = label_text(t);
            let (_, hgt) = pen.measure(&s, fs, false);
            let x = x0 - left_w - gap - hgt;
            pen.text(
                &s,
                (x, (y0 + y1) / 2.0),
                fs,
                TEXT,
                Align::Center,
                Align::Center,
                false,
                true,
            );
        }
    }
    draw_title(scene, ax, pen, (x0, y0, x1, y1), 0.0);
    if let Some(l) = scene.linked(ax, "Legend") {
        super::legend::draw_legend(scene, ax, l, pen, &frame);
    }
    if let Some(cb) = colorbar {
        super::legend::draw_colorbar(scene, ax, cb, pen, (x1, y0, y1), fw);
    }
}

/// The text a label object shows (several lines joined for a cell).
pub fn label_text(t: &GObj) -> String {
    let v = t.get("String");
    let raw = match v {
        Some(crate::values::value::Value::Cell(c)) => c
            .data
            .iter()
            .filter_map(|x| x.text().ok())
            .collect::<Vec<_>>()
            .join(" "),
        Some(v) => v.text().unwrap_or_default(),
        None => String::new(),
    };
    if t.text("Interpreter") == "none" {
        raw
    } else {
        tex::plain(&raw)
    }
}

fn draw_title<DB: DrawingBackend>(
    scene: &Scene,
    ax: Id,
    pen: &Pen<DB>,
    (x0, y0, x1, _): (f64, f64, f64, f64),
    _: f64,
) {
    let Some(a) = scene.objs.get(&ax) else { return };
    if let Some(t) = scene.linked(ax, "Title").and_then(|t| scene.objs.get(&t)) {
        let s = label_text(t);
        let fs = a.num("FontSize", 10.0) * 1.1;
        let c = rgb_of(t, "Color").unwrap_or([0.0; 3]);
        pen.text(
            &s,
            ((x0 + x1) / 2.0, y0 - 5.0 * pen.s),
            fs,
            c,
            Align::Center,
            Align::End,
            true,
            false,
        );
    }
}

/// Box (or left and bottom axis lines), inward ticks, tick labels. Returns the height of the
/// x tick labels and the width of the y tick labels.
fn draw_frame<DB: DrawingBackend>(
    a: &GObj,
    pen: &Pen<DB>,
    f: &Frame,
    xt: &[f64],
    yt: &[f64],
) -> (f64, f64) {
    let xc = rgb_of(a, "XColor").unwrap_or(TEXT);
    let yc = rgb_of(a, "YColor").unwrap_or(TEXT);
    let lw = pen.width(a.num("LineWidth", 0.5));
    let (x0, y0, x1, y1) = (f.x0, f.y0, f.x1, f.y1);
    let boxed = a.on("Box");
    pen.line((x0, y1), (x1, y1), xc, lw);
    pen.line((x0, y0), (x0, y1), yc, lw);
    if boxed {
        pen.line((x0, y0), (x1, y0), xc, lw);
        pen.line((x1, y0), (x1, y1), yc, lw);
    }
    let len = 0.01 * (x1 - x0).max(y1 - y0);
    let fs = a.num("FontSize", 10.0);
    let gap = 3.0 * pen.s;
    let xlog = a.text("XScale") == "log";
    let ylog = a.text("YScale") == "log";
    let (xl, xexp) = tick_labels(a, "XTickLabel", xt, xlog);
    let (yl, yexp) = tick_labels(a, "YTickLabel", yt, ylog);
    let mut below: f64 = 0.0;
    for (i, t) in xt.iter().enumerate() {
        let x = f.x.px(*t);
        if !x.is_finite() || x < x0 - 0.5 || x > x1 + 0.5 {
            continue;
        }
        pen.line((x, y1), (x, y1 - len), xc, lw);
        if boxed {
            pen.line((x, y0), (x, y0 + len), xc, lw);
        }
        if let Some(s) = xl.get(i) {
            pen.text(
                s,
                (x, y1 + gap),
                fs,
                xc,
                Align::Center,
                Align::Start,
                false,
                false,
            );
            below = below.max(pen.measure(s, fs, false).1);
        }
    }
    let mut left: f64 = 0.0;
    for (i, t) in yt.iter().enumerate() {
        let y = f.y.px(*t);
        if !y.is_finite() || y < y0 - 0.5 || y > y1 + 0.5 {
            continue;
        }
        pen.line((x0, y), (x0 + len, y), yc, lw);
        if boxed {
            pen.line((x1, y), (x1 - len, y), yc, lw);
        }
        if let Some(s) = yl.get(i) {
            pen.text(
                s,
                (x0 - gap, y),
                fs,
                yc,
                Align::End,
                Align::Center,
                false,
                false,
            );
            left = left.max(pen.measure(s, fs, false).0);
        }
    }
    if xexp != 0 {
        let s = format!("×10{}", tex::plain(&format!("^{{{xexp}}}")));
        pen.text(
            &s,
            (x1, y1 + gap + below + 2.0 * pen.s),
            fs,
            xc,
            Align::End,
            Align::Start,
            false,
            false,
        );
        below += pen.measure(&s, fs, false).1 + 2.0 * pen.s;
    }
    if yexp != 0 {
        let s = format!("×10{}", tex::plain(&format!("^{{{yexp}}}")));
        pen.text(
            &s,
            (x0, y0 - 3.0 * pen.s),
            fs,
            yc,
            Align::Start,
            Align::End,
            false,
            false,
        );
    }
    (below + gap, left + gap)
}

/// Tick labels: set ones (cycled over the ticks), else formatted values.
fn tick_labels(a: &GObj, name: &str, t: &[f64], log: bool) -> (Vec<String>, i32) {
    if a.text(&format!("{name}Mode")) == "manual" {
        let labels: Vec<String> = match a.get(name) {
            Some(crate::values::value::Value::Cell(c)) => c
                .data
                .iter()
                .map(|v| {
                    v.text().unwrap_or_else(|_| {
                        v.scalar_f64()
                            .map(|x| ticks::short(x, 4))
                            .unwrap_or_default()
                    })
                })
                .collect(),
            Some(v) if v.is_char() => vec![v.text().unwrap_or_default()],
            Some(v) if v.is_numeric_like() => v
                .tensor()
                .map(|t| t.to_f64().iter().map(|x| ticks::short(*x, 4)).collect())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        if labels.is_empty() {
            return (vec![String::new(); t.len()], 0);
        }
        return (
            (0..t.len())
                .map(|i| tex::plain(&labels[i % labels.len()]))
                .collect(),
            0,
        );
    }
    let (l, e) = ticks::labels(t, log);
    (l.iter().map(|s| tex::plain(s)).collect(), e)
}

fn draw_text_object<DB: DrawingBackend>(o: &GObj, pen: &Pen<DB>, f: &Frame) {
    let p = o.nums("Position");
    let (Some(x), Some(y)) = (p.first(), p.get(1)) else {
        return;
    };
    let at = f.pt(*x, *y);
    if !at.0.is_finite() || !at.1.is_finite() {
        return;
    }
    let h = match o.text("HorizontalAlignment").as_str() {
        "center" => Align::Center,
        "right" => Align::End,
        _ => Align::Start,
    };
    let v = match o.text("VerticalAlignment").as_str() {
        "top" | "cap" => Align::Start,
        "bottom" | "baseline" => Align::End,
        _ => Align::Center,
    };
    let c = rgb_of(o, "Color").unwrap_or([0.0; 3]);
    let bold = o.text("FontWeight") == "bold";
    let vertical = (o.num("Rotation", 0.0) - 90.0).abs() < 1e-9;
    pen.text(
        &label_text(o),
        at,
        o.num("FontSize", 10.0),
        c,
        h,
        v,
        bold,
        vertical,
    );
}

/// Marks a dashed outline in a legend sample etc.
pub fn dash_of(o: &GObj) -> Option<Dash> {
    Dash::of(&o.text("LineStyle"))
}
