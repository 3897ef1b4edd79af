//! Axis limits: the extent of an axes' data and MATLAB's automatic limits (rounded out to
//! tick steps, tight for images, contours and bar positions).

use super::Scene;
use super::model::{GObj, Id, Kind};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    pub x: (f64, f64),
    pub y: (f64, f64),
    pub z: (f64, f64),
    pub c: (f64, f64),
}

/// A running min/max.
#[derive(Clone, Copy, Debug, Default)]
pub struct Span {
    pub lo: f64,
    pub hi: f64,
    pub any: bool,
    /// Some data wants limits exactly at its extent.
    pub tight: bool,
}

impl Span {
    pub fn add(&mut self, v: f64, log: bool) {
        if !v.is_finite() || (log && v <= 0.0) {
            return;
        }
        if !self.any {
            self.lo = v;
            self.hi = v;
            self.any = true;
        } else {
            self.lo = self.lo.min(v);
            self.hi = self.hi.max(v);
        }
    }
    fn add_all(&mut self, vs: &[f64], log: bool) {
        for v in vs {
            self.add(*v, log);
        }
    }
}

/// The x values of a series: XData, or 1..n when it is empty.
pub fn x_or_index(o: &GObj, n: usize) -> std::borrow::Cow<'_, [f64]> {
    let x = o.nums("XData");
    if x.len() == n {
        x
    } else {
        std::borrow::Cow::Owned((1..=n).map(|i| i as f64).collect())
    }
}

/// The data extents of an axes' children along x, y, z and colour.
pub fn extents(scene: &Scene, ax: Id) -> [Span; 4] {
    let mut s = [Span::default(); 4];
    let Some(a) = scene.objs.get(&ax) else {
        return s;
    };
    let (lx, ly) = (a.text("XScale") == "log", a.text("YScale") == "log");
    for c in &a.children {
        let Some(o) = scene.objs.get(c) else { continue };
        if !o.kind.is_series() || o.text("Visible") == "off" {
            continue;
        }
        let y = o.nums("YData");
        match o.kind {
            Kind::Line | Kind::Stair | Kind::Scatter | Kind::Patch => {
                s[0].add_all(&x_or_index(o, y.len()), lx);
                s[1].add_all(&y, ly);
                let z = o.nums("ZData");
                s[2].add_all(&z, false);
                // scatter colours given as one value per point are colormapped
                let c = o.nums("CData");
                if o.kind == Kind::Scatter && c.len() == y.len() && y.len() != 3 {
                    s[3].add_all(&c, false);
                }
            }
            Kind::Stem | Kind::Area => {
                s[0].add_all(&x_or_index(o, y.len()), lx);
                s[1].add_all(&y, ly);
                s[1].add(o.num("BaseValue", 0.0), ly);
                if o.kind == Kind::Area {
                    s[0].tight = true;
                }
            }
            Kind::ErrorBar => {
                let x = x_or_index(o, y.len());
                let (neg, pos) = (o.nums("YNegativeDelta"), o.nums("YPositiveDelta"));
                let (xn, xp) = (o.nums("XNegativeDelta"), o.nums("XPositiveDelta"));
                for i in 0..y.len() {
                    s[1].add(y[i] - neg.get(i).copied().unwrap_or(0.0), ly);
                    s[1].add(y[i] + pos.get(i).copied().unwrap_or(0.0), ly);
                    s[0].add(x[i] - xn.get(i).copied().unwrap_or(0.0), lx);
                    s[0].add(x[i] + xp.get(i).copied().unwrap_or(0.0), lx);
                }
                // MATLAB pads errorbar x limits by a bar's width beyond the ends
                if s[0].any && x.len() > 1 {
                    let pad = (s[0].hi - s[0].lo) / (x.len() as f64 - 1.0) * 0.5;
                    s[0].lo -= pad;
                    s[0].hi += pad;
                    s[0].tight = true;
                }
            }
            Kind::Bar => {
                let x = x_or_index(o, y.len());
                let horizontal = o.on("Horizontal");
                let (pos, val) = if horizontal { (1, 0) } else { (0, 1) };
                let log_pos = if horizontal { ly } else { lx };
                let log_val = if horizontal { lx } else { ly };
                let step = min_step(&x);
                let ends = o.nums("YEndPoints");
                let stacked = o.text("BarLayout") == "stacked" && ends.len() == y.len();
                for (i, xi) in x.iter().enumerate() {
                    s[pos].add(xi - 0.6 * step, log_pos);
                    s[pos].add(xi + 0.6 * step, log_pos);
                    if let Some(v) = y.get(i) {
                        s[val].add(*v, log_val);
                        if stacked {
                            s[val].add(ends[i], log_val);
                        }
                    }
                }
                s[val].add(o.num("BaseValue", 0.0), log_val);
                s[pos].tight = true;
            }
            Kind::Quiver => {
                for a in super::plots::quiver::arrows(o) {
                    for p in a.shaft {
                        s[0].add(p.0, lx);
                        s[1].add(p.1, ly);
                    }
                }
            }
            Kind::Histogram => {
                let e = o.nums("BinEdges");
                s[0].add_all(&e, lx);
                s[1].add_all(&o.nums("Values"), ly);
                s[1].add(0.0, ly);
            }
            Kind::Image => {
                let (rows, cols, _) = o.matrix("CData");
                let (xs, ys) = (o.nums("XData"), o.nums("YData"));
                let [sx, sy, ..] = &mut s;
                for (span, d, n) in [(sx, xs, cols), (sy, ys, rows)] {
                    let (a, b) = (
                        d.first().copied().unwrap_or(1.0),
                        d.last().copied().unwrap_or(n as f64),
                    );
                    let half = if n > 1 {
                        (b - a) / (n as f64 - 1.0) / 2.0
                    } else {
                        0.5
                    };
                    span.add(a - half, false);
                    span.add(b + half, false);
                    span.tight = true;
                }
                if o.text("CDataMapping") == "scaled" {
                    s[3].add_all(&o.nums("CData"), false);
                }
            }
            Kind::Surface | Kind::Contour => {
                s[0].add_all(&o.nums("XData"), lx);
                s[1].add_all(&o.nums("YData"), ly);
                let z = o.nums("ZData");
                if o.kind == Kind::Surface {
                    s[2].add_all(&z, false);
                    let c = o.nums("CData");
                    s[3].add_all(if c.is_empty() { &z } else { &c }, false);
                } else {
                    s[0].tight = true;
                    s[1].tight = true;
                    s[3].add_all(&z, false);
                }
            }
            _ => {}
        }
    }
    s
}

/// The smallest gap between sorted positions (1 for one position).
pub fn min_step(x: &[f64]) -> f64 {
    let mut v: Vec<f64> = x.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(|a, b| a.total_cmp(b));
    let d = v
        .windows(2)
        .map(|w| w[1] - w[0])
        .filter(|d| *d > 0.0)
        .fold(f64::INFINITY, f64::min);
    if d.is_finite() { d } else { 1.0 }
}

/// Automatic limits of one axis from its data span.
pub fn auto_limits(span: &Span, log: bool, pixels: f64) -> (f64, f64) {
    if !span.any {
        return if log { (0.1, 1.0) } else { (0.0, 1.0) };
    }
    let (lo, hi) = (span.lo, span.hi);
    if log {
        let (a, b) = (lo.log10().floor(), hi.log10().ceil());
        let b = if b <= a { a + 1.0 } else { b };
        if span.tight {
            return if hi > lo {
                (lo, hi)
            } else {
                (10f64.powf(a), 10f64.powf(b))
            };
        }
        return (10f64.powf(a), 10f64.powf(b));
    }
    if hi <= lo {
        return (lo - 1.0, hi + 1.0);
    }
    if span.tight {
        return (lo, hi);
    }
    let step = super::ticks::nice_step(lo, hi, pixels);
    let a = (lo / step).floor() * step;
    let b = (hi / step).ceil() * step;
    // keep the exact data end when rounding would only add float noise
    let a = if (lo - a).abs() < step * 1e-9 { lo } else { a };
    let b = if (b - hi).abs() < step * 1e-9 { hi } else { b };
    (a, b)
}

/// The limits an axes shows: manual ones as set, automatic ones from its data.
pub fn axes_limits(scene: &Scene, ax: Id) -> Limits {
    let ext = extents(scene, ax);
    let Some(a) = scene.objs.get(&ax) else {
        return Limits {
            x: (0.0, 1.0),
            y: (0.0, 1.0),
            z: (0.0, 1.0),
            c: (0.0, 1.0),
        };
    };
    let (w, h) = axes_pixels(scene, ax);
    let pick = |name: &str, span: &Span, log: bool, px: f64| -> (f64, f64) {
        let manual = a.text(&format!("{name}Mode")) == "manual";
        let v = a.nums(name);
        if manual && v.len() == 2 {
            (v[0], v[1])
        } else {
            auto_limits(span, log, px)
        }
    };
    let x = pick("XLim", &ext[0], a.text("XScale") == "log", w);
    let y = pick("YLim", &ext[1], a.text("YScale") == "log", h);
    let z = pick("ZLim", &ext[2], false, h);
    let c = {
        let v = a.nums("CLim");
        if a.text("CLimMode") == "manual" && v.len() == 2 {
            (v[0], v[1])
        } else if ext[3].any && ext[3].hi > ext[3].lo {
            (ext[3].lo, ext[3].hi)
        } else if ext[3].any {
            (ext[3].lo - 0.5, ext[3].hi + 0.5)
        } else {
            (0.0, 1.0)
        }
    };
    Limits { x, y, z, c }
}

/// An axes' plot box in figure pixels (at screen resolution): its automatic ticks depend on
/// it.
pub fn axes_pixels(scene: &Scene, ax: Id) -> (f64, f64) {
    let fig = scene
        .figure_of(ax)
        .and_then(|f| scene.objs.get(&f))
        .map(|f| f.nums("Position"))
        .unwrap_or_default();
    let (fw, fh) = match &*fig {
        [_, _, w, h] => (*w, *h),
        _ => (560.0, 420.0),
    };
    let pos = scene
        .objs
        .get(&ax)
        .map(|a| a.nums("Position"))
        .unwrap_or_default();
    match &*pos {
        [_, _, w, h] => (w * fw, h * fh),
        _ => (0.775 * fw, 0.815 * fh),
    }
}
