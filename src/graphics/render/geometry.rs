//! Geometry in pixel space: data-to-pixel transforms, decimation of long lines to the pixel
//! grid, clipping of polylines and polygons to the plot box.

/// One axis's map from data to pixels.
#[derive(Clone, Copy, Debug)]
pub struct AxisMap {
    pub lo: f64,
    pub hi: f64,
    pub p0: f64,
    pub p1: f64,
    pub log: bool,
}

impl AxisMap {
    /// Pixel position of `v` (NaN for what cannot be shown: NaN, or ≤ 0 on a log axis).
    pub fn px(&self, v: f64) -> f64 {
        let (a, b, x) = if self.log {
            if !(v > 0.0) {
                return f64::NAN;
            }
            (
                self.lo.max(f64::MIN_POSITIVE).log10(),
                self.hi.max(f64::MIN_POSITIVE).log10(),
                v.log10(),
            )
        } else {
            (self.lo, self.hi, v)
        };
        if !(b > a) {
            return (self.p0 + self.p1) / 2.0;
        }
        self.p0 + (x - a) / (b - a) * (self.p1 - self.p0)
    }
}

/// The plot box in pixels and its two axis maps.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
    pub x: AxisMap,
    pub y: AxisMap,
}

impl Frame {
    pub fn pt(&self, x: f64, y: f64) -> (f64, f64) {
        (self.x.px(x), self.y.px(y))
    }
    pub fn inside(&self, p: (f64, f64)) -> bool {
        p.0 >= self.x0 - 0.5 && p.0 <= self.x1 + 0.5 && p.1 >= self.y0 - 0.5 && p.1 <= self.y1 + 0.5
    }
}

/// Polylines (runs without NaN) of a series in pixels, decimated: consecutive points in the
/// same pixel column become at most four (first, lowest, highest, last), so 1e7 points draw
/// as a few thousand.
pub fn pixel_runs(f: &Frame, x: &[f64], y: &[f64]) -> Vec<Vec<(f64, f64)>> {
    let mut runs = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    // the column being folded: its first, min, max and last points
    let mut col: Option<(i64, [(f64, f64); 4], [usize; 4])> = None;
    let flush = |col: &mut Option<(i64, [(f64, f64); 4], [usize; 4])>,
                 cur: &mut Vec<(f64, f64)>| {
        if let Some((_, pts, order)) = col.take() {
            let mut idx: Vec<(usize, (f64, f64))> =
                order.iter().copied().zip(pts.iter().copied()).collect();
            idx.sort_by_key(|(i, _)| *i);
            idx.dedup_by_key(|(i, _)| *i);
            cur.extend(idx.into_iter().map(|(_, p)| p));
        }
    };
    for i in 0..x.len().min(y.len()) {
        let p = f.pt(x[i], y[i]);
        if !p.0.is_finite() || !p.1.is_finite() {
            flush(&mut col, &mut cur);
            if !cur.is_empty() {
                runs.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let c = p.0.floor() as i64;
        match &mut col {
            Some((cc, pts, order)) if *cc == c => {
                if p.1 < pts[1].1 {
                    pts[1] = p;
                    order[1] = i;
                }
                if p.1 > pts[2].1 {
                    pts[2] = p;
                    order[2] = i;
                }
                pts[3] = p;
                order[3] = i;
            }
            _ => {
                flush(&mut col, &mut cur);
                col = Some((c, [p; 4], [i; 4]));
            }
        }
    }
    flush(&mut col, &mut cur);
    if !cur.is_empty() {
        runs.push(cur);
    }
    runs
}

/// Clips a segment to the box (Liang-Barsky); None when it lies outside.
fn clip_segment(f: &Frame, a: (f64, f64), b: (f64, f64)) -> Option<((f64, f64), (f64, f64))> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let mut t0: f64 = 0.0;
    let mut t1: f64 = 1.0;
    for (p, q) in [
        (-dx, a.0 - f.x0),
        (dx, f.x1 - a.0),
        (-dy, a.1 - f.y0),
        (dy, f.y1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    if t0 > t1 {
        return None;
    }
    Some((
        (a.0 + t0 * dx, a.1 + t0 * dy),
        (a.0 + t1 * dx, a.1 + t1 * dy),
    ))
}

/// A polyline cut to the parts inside the box.
pub fn clip_polyline(f: &Frame, pts: &[(f64, f64)]) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    for w in pts.windows(2) {
        match clip_segment(f, w[0], w[1]) {
            Some((a, b)) => {
                let joined = cur
                    .last()
                    .is_some_and(|l| (l.0 - a.0).abs() < 1e-9 && (l.1 - a.1).abs() < 1e-9);
                if !joined {
                    if cur.len() > 1 {
                        out.push(std::mem::take(&mut cur));
                    }
                    cur.clear();
                    cur.push(a);
                }
                cur.push(b);
            }
            None => {
                if cur.len() > 1 {
                    out.push(std::mem::take(&mut cur));
                }
                cur.clear();
            }
        }
    }
    if cur.len() > 1 {
        out.push(cur);
    }
    out
}

/// A polygon clipped to the box (Sutherland-Hodgman).
pub fn clip_polygon(f: &Frame, pts: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut poly: Vec<(f64, f64)> = pts
        .iter()
        .copied()
        .filter(|p| p.0.is_finite() && p.1.is_finite())
        .collect();
    let edges: [(usize, f64, bool); 4] = [
        (0, f.x0, true),
        (0, f.x1, false),
        (1, f.y0, true),
        (1, f.y1, false),
    ];
    for (axis, bound, keep_above) in edges {
        if poly.is_empty() {
            break;
        }
        let inside = |p: &(f64, f64)| {
            let v = if axis == 0 { p.0 } else { p.1 };
            if keep_above { v >= bound } else { v <= bound }
        };
        let mut next = Vec::with_capacity(poly.len() + 4);
        for i in 0..poly.len() {
            let a = poly[i];
            let b = poly[(i + 1) % poly.len()];
            let (ia, ib) = (inside(&a), inside(&b));
            if ia {
                next.push(a);
            }
            if ia != ib {
                let (va, vb) = if axis == 0 { (a.0, b.0) } else { (a.1, b.1) };
                let t = (bound - va) / (vb - va);
                next.push((a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1)));
            }
        }
        poly = next;
    }
    poly
}

/// The outline of a marker centred at the origin, radius `r` (None: drawn as a circle).
pub fn marker_shape(m: &str, r: f64) -> Option<Vec<(f64, f64)>> {
    let star = |n: usize, inner: f64| -> Vec<(f64, f64)> {
        (0..2 * n)
            .map(|k| {
                let a = std::f64::consts::PI * k as f64 / n as f64 - std::f64::consts::FRAC_PI_2;
                let rr = if k % 2 == 0 { r } else { r * inner };
                (rr * a.cos(), rr * a.sin())
            })
            .collect()
    };
    Some(match m {
        "s" => vec![(-r, -r), (r, -r), (r, r), (-r, r)],
        "d" => vec![(0.0, -r * 1.3), (r, 0.0), (0.0, r * 1.3), (-r, 0.0)],
        "^" => vec![(0.0, -r * 1.2), (r, r * 0.8), (-r, r * 0.8)],
        "v" => vec![(0.0, r * 1.2), (r, -r * 0.8), (-r, -r * 0.8)],
        ">" => vec![(r * 1.2, 0.0), (-r * 0.8, r), (-r * 0.8, -r)],
        "<" => vec![(-r * 1.2, 0.0), (r * 0.8, r), (r * 0.8, -r)],
        "p" => star(5, 0.45),
        "h" => star(6, 0.6),
        _ => return None,
    })
}
