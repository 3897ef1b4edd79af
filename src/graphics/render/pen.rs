//! What the renderer draws with: plotters elements (paths, dashed paths, polygons, circles,
//! text in the bundled DejaVu Sans) on any plotters backend, in pixel coordinates, with
//! colours as RGB triplets.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::sync::Once;

static FONTS: Once = Once::new();

/// Registers the bundled font (DejaVu Sans, from the `dejavu` crate) with plotters: nothing
/// depends on the system's fonts.
pub fn register_fonts() {
    FONTS.call_once(|| {
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            dejavu::sans::regular(),
        );
        let _ = plotters::style::register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold());
    });
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Dash {
    Solid,
    Dashed,
    Dotted,
    DashDot,
}

impl Dash {
    pub fn of(style: &str) -> Option<Dash> {
        match style {
            "-" => Some(Dash::Solid),
            "--" => Some(Dash::Dashed),
            ":" => Some(Dash::Dotted),
            "-." => Some(Dash::DashDot),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Align {
    Start,
    Center,
    End,
}

pub fn rgb(c: [f64; 3]) -> RGBColor {
    let q = |x: f64| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    RGBColor(q(c[0]), q(c[1]), q(c[2]))
}

/// A drawing surface with a scale: `s` pixels per screen pixel (96 dpi).
pub struct Pen<'a, DB: DrawingBackend> {
    pub area: &'a DrawingArea<DB, Shift>,
    pub s: f64,
}

/// Pixel coordinates, clamped so that far-off points cannot overflow.
fn p(x: f64, y: f64) -> (i32, i32) {
    (
        x.clamp(-1e6, 1e6).round() as i32,
        y.clamp(-1e6, 1e6).round() as i32,
    )
}

/// A path's runs between turns sharper than a right angle (each run shares its first point
/// with the previous run's last).
fn sharp_runs(pts: &[(i32, i32)]) -> Vec<Vec<(i32, i32)>> {
    let mut runs = Vec::new();
    let mut run = vec![pts[0]];
    for k in 1..pts.len() {
        run.push(pts[k]);
        if let Some(next) = pts.get(k + 1) {
            let (a, b) = (pts[k - 1], pts[k]);
            let u = ((b.0 - a.0) as i64, (b.1 - a.1) as i64);
            let v = ((next.0 - b.0) as i64, (next.1 - b.1) as i64);
            if u.0 * v.0 + u.1 * v.1 < 0 {
                runs.push(std::mem::replace(&mut run, vec![b]));
            }
        }
    }
    if run.len() >= 2 {
        runs.push(run);
    }
    runs
}

impl<DB: DrawingBackend> Pen<'_, DB> {
    /// A line width in points as pixels (at least one).
    pub fn width(&self, points: f64) -> u32 {
        ((points * 96.0 / 72.0 * self.s)
            .round()
            .max(self.s.floor())
            .max(1.0))
        .min(200.0) as u32
    }

    pub fn fill(&self, c: [f64; 3]) {
        let _ = self.area.fill(&rgb(c));
    }

    pub fn path(&self, pts: &[(f64, f64)], c: [f64; 3], width: u32, dash: Dash) {
        if pts.len() < 2 {
            return;
        }
        let style = ShapeStyle {
            color: rgb(c).to_rgba(),
            filled: false,
            stroke_width: width,
        };
        let mut pts: Vec<(i32, i32)> = pts.iter().map(|(x, y)| p(*x, *y)).collect();
        pts.dedup();
        let w = width as f64;
        let (on, off) = match dash {
            Dash::Solid => {
                // plotters widens a path with mitred joins; at a turn sharper than a right
                // angle the inner mitre lies far off and draws a spike (a surface's thin
                // faces, a decimated noisy line), so the path is drawn in runs split there,
                // with a round join
                // (a one-pixel path is drawn as is: plotters does not widen it)
                let runs = if width > 1 {
                    sharp_runs(&pts)
                } else {
                    vec![pts]
                };
                for run in &runs {
                    let _ = self.area.draw(&PathElement::new(run.clone(), style));
                }
                if width > 1 && runs.len() > 1 {
                    let r = (w / 2.0).floor().max(1.0) as i32;
                    for run in &runs[1..] {
                        let _ =
                            self.area
                                .draw(&Circle::new(run[0], r, style.filled().stroke_width(0)));
                    }
                }
                return;
            }
            Dash::Dashed => (6.0 * self.s + 2.0 * w, 4.0 * self.s + w),
            Dash::Dotted => (1.0 * self.s + w * 0.5, 2.5 * self.s + w),
            Dash::DashDot => (6.0 * self.s + 2.0 * w, 3.0 * self.s + w),
        };
        let _ = self.area.draw(&DashedPathElement::new(
            pts.into_iter(),
            on.round().max(1.0) as i32,
            off.round().max(1.0) as i32,
            style,
        ));
    }

    pub fn line(&self, a: (f64, f64), b: (f64, f64), c: [f64; 3], width: u32) {
        self.path(&[a, b], c, width, Dash::Solid);
    }

    pub fn polygon(&self, pts: &[(f64, f64)], c: [f64; 3], alpha: f64) {
        if pts.len() < 3 {
            return;
        }
        let color = rgb(c).mix(alpha.clamp(0.0, 1.0));
        let pts: Vec<(i32, i32)> = pts.iter().map(|(x, y)| p(*x, *y)).collect();
        let _ = self.area.draw(&Polygon::new(pts, color.filled()));
    }

    /// A filled rectangle between two corners.
    pub fn rect(&self, a: (f64, f64), b: (f64, f64), c: [f64; 3], alpha: f64) {
        let color = rgb(c).mix(alpha.clamp(0.0, 1.0));
        let _ = self
            .area
            .draw(&Rectangle::new([p(a.0, a.1), p(b.0, b.1)], color.filled()));
    }

    /// A rectangle's outline.
    pub fn frame(&self, a: (f64, f64), b: (f64, f64), c: [f64; 3], width: u32) {
        self.path(&[a, (b.0, a.1), b, (a.0, b.1), a], c, width, Dash::Solid);
    }

    pub fn circle(&self, at: (f64, f64), r: f64, c: [f64; 3], filled: bool, width: u32) {
        let style = ShapeStyle {
            color: rgb(c).to_rgba(),
            filled,
            stroke_width: width,
        };
        let r = r.clamp(0.0, 1e4).round().max(1.0) as i32;
        let _ = self.area.draw(&Circle::new(p(at.0, at.1), r, style));
    }

    fn font(&self, size_pt: f64, bold: bool) -> FontDesc<'static> {
        let px = size_pt * 96.0 / 72.0 * self.s * 1.24;
        // (FontDesc::style keeps the regular face's data: ask for the face directly)
        let style = if bold {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        };
        FontDesc::new(FontFamily::SansSerif, px, style)
    }

    /// Width and height in pixels of a text.
    pub fn measure(&self, text: &str, size_pt: f64, bold: bool) -> (f64, f64) {
        let f = self.font(size_pt, bold);
        match self.area.estimate_text_size(text, &TextStyle::from(f)) {
            Ok((w, h)) => (w as f64, h as f64),
            Err(_) => (text.chars().count() as f64 * size_pt * 0.7, size_pt * 1.3),
        }
    }

    /// Text anchored at `at` by the given horizontal and vertical alignment; `vertical`
    /// turns it to read bottom-up.
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &self,
        text: &str,
        at: (f64, f64),
        size_pt: f64,
        c: [f64; 3],
        h: Align,
        v: Align,
        bold: bool,
        vertical: bool,
    ) {
        if text.is_empty() {
            return;
        }
        let hp = match h {
            Align::Start => HPos::Left,
            Align::Center => HPos::Center,
            Align::End => HPos::Right,
        };
        let vp = match v {
            Align::Start => VPos::Top,
            Align::Center => VPos::Center,
            Align::End => VPos::Bottom,
        };
        let color = rgb(c);
        let mut style = TextStyle::from(self.font(size_pt, bold))
            .color(&color)
            .pos(Pos::new(hp, vp));
        if vertical {
            style = style.transform(FontTransform::Rotate270);
        }
        let _ = self
            .area
            .draw(&Text::new(text.to_string(), p(at.0, at.1), style));
    }
}
