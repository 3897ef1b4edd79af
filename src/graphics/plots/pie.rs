//! Pie wedges as MATLAB's pie draws them: from 12 o'clock counterclockwise, each a polygon
//! from the centre along its arc, a label 1.2 radii out at its middle angle, and exploded
//! wedges moved 0.1 out along that angle. Values summing to less than 1 draw a partial pie.

use std::f64::consts::PI;

pub struct Wedge {
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    pub label_at: (f64, f64),
    /// The wedge's share of the whole circle.
    pub fraction: f64,
}

/// The shares of the circle the values take (NaN for a negative or non-finite value).
pub fn fractions(values: &[f64]) -> Vec<f64> {
    let total: f64 = values.iter().filter(|v| v.is_finite() && **v > 0.0).sum();
    let scale = if total > 1.0 { total } else { 1.0 };
    values
        .iter()
        .map(|v| {
            if v.is_finite() && *v >= 0.0 {
                v / scale
            } else {
                f64::NAN
            }
        })
        .collect()
}

pub fn wedges(values: &[f64], explode: &[bool]) -> Vec<Wedge> {
    let mut start = PI / 2.0;
    let mut out = Vec::new();
    for (i, f) in fractions(values).into_iter().enumerate() {
        if !(f > 0.0) {
            continue;
        }
        let sweep = 2.0 * PI * f;
        let mid = start + sweep / 2.0;
        let (ox, oy) = if explode.get(i).copied().unwrap_or(false) {
            (0.1 * mid.cos(), 0.1 * mid.sin())
        } else {
            (0.0, 0.0)
        };
        let steps = ((100.0 * f).ceil() as usize).max(1);
        let mut x = vec![ox];
        let mut y = vec![oy];
        for k in 0..=steps {
            let t = start + sweep * k as f64 / steps as f64;
            x.push(ox + t.cos());
            y.push(oy + t.sin());
        }
        out.push(Wedge {
            x,
            y,
            label_at: (ox + 1.2 * mid.cos(), oy + 1.2 * mid.sin()),
            fraction: f,
        });
        start += sweep;
    }
    out
}

/// MATLAB's percentage label: a whole percent, or "< 1%".
pub fn percent_label(fraction: f64) -> String {
    let p = (fraction * 100.0).round();
    if p < 1.0 {
        "< 1%".to_string()
    } else {
        format!("{p}%")
    }
}
