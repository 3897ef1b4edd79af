//! The polar grid of axes made by `polarplot`: rings at the radius ticks (labelled along
//! 80°), spokes every 30° labelled in degrees outside the outer ring, as MATLAB's polar
//! axes shows them. The lines themselves are ordinary lines in x-y units.

use super::geometry::Frame;
use super::pen::{Align, Dash, Pen};
use crate::graphics::model::GObj;
use crate::graphics::ticks;
use plotters::prelude::DrawingBackend;

const GRID: [f64; 3] = [0.85, 0.85, 0.85];
const TEXT: [f64; 3] = [0.15, 0.15, 0.15];

pub fn grid<DB: DrawingBackend>(a: &GObj, pen: &Pen<DB>, f: &Frame, outer: f64) {
    let thin = pen.width(0.5);
    let fs = a.num("FontSize", 10.0) * 0.9;
    let ring = |r: f64, c: [f64; 3]| {
        let pts: Vec<(f64, f64)> = (0..=120)
            .map(|k| {
                let t = k as f64 * std::f64::consts::PI / 60.0;
                f.pt(r * t.cos(), r * t.sin())
            })
            .collect();
        pen.path(&pts, c, thin, Dash::Solid);
    };
    let step = ticks::nice_step(0.0, outer, 160.0);
    let mut k = 1.0;
    while k * step <= outer * (1.0 + 1e-9) {
        let r = k * step;
        ring(r, if r < outer * (1.0 - 1e-9) { GRID } else { TEXT });
        let t = 80f64.to_radians();
        pen.text(
            &ticks::short(r, 4),
            f.pt(r * t.cos(), r * t.sin()),
            fs,
            TEXT,
            Align::Start,
            Align::End,
            false,
            false,
        );
        k += 1.0;
    }
    for d in (0..360).step_by(30) {
        let t = (d as f64).to_radians();
        let (c, s) = (t.cos(), t.sin());
        pen.line(f.pt(0.0, 0.0), f.pt(outer * c, outer * s), GRID, thin);
        let h = if c > 0.3 {
            Align::Start
        } else if c < -0.3 {
            Align::End
        } else {
            Align::Center
        };
        let v = if s > 0.3 {
            Align::End
        } else if s < -0.3 {
            Align::Start
        } else {
            Align::Center
        };
        pen.text(
            &format!("{d}°"),
            f.pt(1.05 * outer * c, 1.05 * outer * s),
            fs,
            TEXT,
            h,
            v,
            false,
            false,
        );
    }
}
