//! Quiver arrows: MATLAB's automatic scaling (the longest arrow 0.9 of the average grid
//! spacing, times AutoScaleFactor / 0.9) and its arrowheads (two barbs a third of the arrow
//! long), as segments in data units.

use crate::graphics::model::GObj;

/// One arrow: its shaft and, when heads are shown, the two barbs.
pub struct Arrow {
    pub shaft: [(f64, f64); 2],
    pub head: Option<[(f64, f64); 3]>,
}

/// The arrows of a quiver object, scaled as MATLAB's quiver scales them.
pub fn arrows(o: &GObj) -> Vec<Arrow> {
    let (x, y) = (o.nums("XData"), o.nums("YData"));
    let (u, v) = (o.nums("UData"), o.nums("VData"));
    let n = x.len().min(y.len()).min(u.len()).min(v.len());
    let scale = if o.on("AutoScale") {
        let (rows, cols, _) = o.matrix("XData");
        let grid = if rows > 1 && cols > 1 {
            (rows as f64, cols as f64)
        } else {
            let side = (n as f64).sqrt().max(1.0);
            (side, side)
        };
        auto_scale(&x[..n], &y[..n], &u[..n], &v[..n], grid) * o.num("AutoScaleFactor", 0.9) / 0.9
    } else {
        1.0
    };
    let heads = o.on("ShowArrowHead");
    let (alpha, beta) = (0.33, 0.33);
    (0..n)
        .filter(|&i| [x[i], y[i], u[i], v[i]].iter().all(|q| q.is_finite()))
        .map(|i| {
            let (us, vs) = (u[i] * scale, v[i] * scale);
            let tip = (x[i] + us, y[i] + vs);
            let head = heads.then(|| {
                [
                    (
                        tip.0 - alpha * (us + beta * vs),
                        tip.1 - alpha * (vs - beta * us),
                    ),
                    tip,
                    (
                        tip.0 - alpha * (us - beta * vs),
                        tip.1 - alpha * (vs + beta * us),
                    ),
                ]
            });
            Arrow {
                shaft: [(x[i], y[i]), tip],
                head,
            }
        })
        .collect()
}

/// MATLAB's factor: 0.9 over the longest arrow measured in average grid spacings.
fn auto_scale(x: &[f64], y: &[f64], u: &[f64], v: &[f64], (m, n): (f64, f64)) -> f64 {
    let span = |d: &[f64]| {
        let f = d.iter().copied().filter(|q| q.is_finite());
        f.clone().fold(f64::NEG_INFINITY, f64::max) - f.fold(f64::INFINITY, f64::min)
    };
    let (dx, dy) = (span(x) / n, span(y) / m);
    let del = dx * dx + dy * dy;
    let longest = if del > 0.0 && del.is_finite() {
        u.iter()
            .zip(v)
            .map(|(a, b)| ((a * a + b * b) / del).sqrt())
            .filter(|l| l.is_finite())
            .fold(0.0, f64::max)
    } else {
        0.0
    };
    if longest > 0.0 { 0.9 / longest } else { 0.9 }
}
