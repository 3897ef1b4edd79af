//! Contours of gridded data: levels, iso-lines and filled bands by marching triangles (each
//! grid cell split in two, values linear on each triangle).

use super::model::GObj;

/// A grid: z values at (x, y) points, m rows by n columns, column-major.
pub struct Grid {
    pub m: usize,
    pub n: usize,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    pub z: Vec<f64>,
}

impl Grid {
    /// From an object's XData/YData (vectors or matrices) and ZData.
    pub fn of(o: &GObj) -> Option<Grid> {
        let (m, n, z) = o.matrix("ZData");
        if m < 2 || n < 2 || z.len() != m * n {
            return None;
        }
        let (xr, xc, xd) = o.matrix("XData");
        let (yr, yc, yd) = o.matrix("YData");
        let x = if xr * xc == m * n && xr == m {
            xd
        } else if xd.len() == n {
            (0..m * n).map(|k| xd[k / m]).collect()
        } else {
            (0..m * n).map(|k| (k / m + 1) as f64).collect()
        };
        let y = if yr * yc == m * n && yr == m {
            yd
        } else if yd.len() == m {
            (0..m * n).map(|k| yd[k % m]).collect()
        } else {
            (0..m * n).map(|k| (k % m + 1) as f64).collect()
        };
        Some(Grid { m, n, x, y, z })
    }
    fn at(&self, i: usize, j: usize) -> (f64, f64, f64) {
        let k = j * self.m + i;
        (self.x[k], self.y[k], self.z[k])
    }
    /// The triangles of the grid, as corner points (x, y, z).
    pub fn triangles(&self) -> impl Iterator<Item = [(f64, f64, f64); 3]> + '_ {
        (0..self.m - 1).flat_map(move |i| {
            (0..self.n - 1).flat_map(move |j| {
                let (a, b, c, d) = (
                    self.at(i, j),
                    self.at(i + 1, j),
                    self.at(i + 1, j + 1),
                    self.at(i, j + 1),
                );
                [[a, b, c], [a, c, d]]
            })
        })
    }
}

/// Automatic levels: round steps strictly inside the data's range.
pub fn auto_levels(z: &[f64], count: Option<usize>) -> Vec<f64> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in z.iter().filter(|v| v.is_finite()) {
        lo = lo.min(*v);
        hi = hi.max(*v);
    }
    if !(hi > lo) {
        return if lo.is_finite() { vec![lo] } else { Vec::new() };
    }
    if let Some(n) = count {
        let n = n.clamp(1, 1000);
        return (1..=n)
            .map(|k| lo + (hi - lo) * k as f64 / (n + 1) as f64)
            .collect();
    }
    super::ticks::auto_ticks(lo, hi, 300.0, false)
        .into_iter()
        .filter(|v| *v > lo && *v < hi)
        .collect()
}

fn lerp(a: (f64, f64, f64), b: (f64, f64, f64), level: f64) -> (f64, f64) {
    let t = if b.2 != a.2 {
        (level - a.2) / (b.2 - a.2)
    } else {
        0.5
    };
    (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
}

/// Segments where the grid crosses `level`.
pub fn segments(g: &Grid, level: f64) -> Vec<((f64, f64), (f64, f64))> {
    let mut out = Vec::new();
    for tri in g.triangles() {
        if tri.iter().any(|p| !p.2.is_finite()) {
            continue;
        }
        let above: Vec<bool> = tri.iter().map(|p| p.2 >= level).collect();
        let n_above = above.iter().filter(|a| **a).count();
        if n_above == 0 || n_above == 3 {
            continue;
        }
        // the odd one out, and the two edges from it
        let odd = (0..3).find(|k| above[*k] == (n_above == 1)).unwrap_or(0);
        let (p, q, r) = (tri[odd], tri[(odd + 1) % 3], tri[(odd + 2) % 3]);
        out.push((lerp(p, q, level), lerp(p, r, level)));
    }
    out
}

/// Clips a triangle (values linear on it) to `lo <= z <= hi`; the polygon in (x, y).
fn band_polygon(tri: &[(f64, f64, f64); 3], lo: f64, hi: f64) -> Vec<(f64, f64)> {
    let mut poly: Vec<(f64, f64, f64)> = tri.to_vec();
    for (bound, keep_above) in [(lo, true), (hi, false)] {
        let inside = |p: &(f64, f64, f64)| {
            if keep_above {
                p.2 >= bound
            } else {
                p.2 <= bound
            }
        };
        let mut next = Vec::with_capacity(poly.len() + 2);
        for i in 0..poly.len() {
            let a = poly[i];
            let b = poly[(i + 1) % poly.len()];
            if inside(&a) {
                next.push(a);
            }
            if inside(&a) != inside(&b) {
                let (x, y) = lerp(a, b, bound);
                next.push((x, y, bound));
            }
        }
        poly = next;
        if poly.is_empty() {
            break;
        }
    }
    poly.into_iter().map(|(x, y, _)| (x, y)).collect()
}

/// The filled regions between consecutive levels: (band's lower level, polygons).
pub fn bands(g: &Grid, levels: &[f64]) -> Vec<(f64, Vec<Vec<(f64, f64)>>)> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in g.z.iter().filter(|v| v.is_finite()) {
        lo = lo.min(*v);
        hi = hi.max(*v);
    }
    let mut edges: Vec<f64> = vec![lo];
    edges.extend(levels.iter().copied().filter(|l| *l > lo && *l < hi));
    edges.push(hi);
    let mut out = Vec::new();
    for w in edges.windows(2) {
        let mut polys = Vec::new();
        for tri in g.triangles() {
            if tri.iter().any(|p| !p.2.is_finite()) {
                continue;
            }
            let p = band_polygon(&tri, w[0], w[1]);
            if p.len() >= 3 {
                polys.push(p);
            }
        }
        out.push((w[0], polys));
    }
    out
}

/// A crossing point's grid edge: the two grid points' indices, smaller first.
type EdgeKey = (usize, usize);

/// The crossings of `level` as segments between grid edges (each end keyed by its edge, so
/// that neighbouring segments join exactly).
fn keyed_segments(g: &Grid, level: f64) -> Vec<[(EdgeKey, (f64, f64)); 2]> {
    let mut out = Vec::new();
    for i in 0..g.m.saturating_sub(1) {
        for j in 0..g.n.saturating_sub(1) {
            let k = |i: usize, j: usize| j * g.m + i;
            let (a, b, c, d) = (k(i, j), k(i + 1, j), k(i + 1, j + 1), k(i, j + 1));
            for tri in [[a, b, c], [a, c, d]] {
                let p = tri.map(|q| (g.x[q], g.y[q], g.z[q]));
                if p.iter().any(|q| !q.2.is_finite()) {
                    continue;
                }
                let above: Vec<bool> = p.iter().map(|q| q.2 >= level).collect();
                let n_above = above.iter().filter(|a| **a).count();
                if n_above == 0 || n_above == 3 {
                    continue;
                }
                let odd = (0..3).find(|k| above[*k] == (n_above == 1)).unwrap_or(0);
                let (o, q, r) = (odd, (odd + 1) % 3, (odd + 2) % 3);
                // the point from the edge's grid points in key order, so that the two
                // triangles sharing an edge compute the same point to the bit
                let end = |u: usize, v: usize| {
                    let key = (tri[u].min(tri[v]), tri[u].max(tri[v]));
                    let at = |q: usize| (g.x[q], g.y[q], g.z[q]);
                    (key, lerp(at(key.0), at(key.1), level))
                };
                out.push([end(o, q), end(o, r)]);
            }
        }
    }
    out
}

/// The contour lines of one level, segments joined end to end into polylines.
pub fn lines(g: &Grid, level: f64) -> Vec<Vec<(f64, f64)>> {
    let segs = keyed_segments(g, level);
    let mut at: std::collections::HashMap<EdgeKey, Vec<usize>> = Default::default();
    for (s, seg) in segs.iter().enumerate() {
        for end in seg {
            at.entry(end.0).or_default().push(s);
        }
    }
    let mut used = vec![false; segs.len()];
    // the unused segment at edge `key` other than `from`, and its far end
    let next = |used: &[bool], key: EdgeKey, from: usize| -> Option<(usize, usize)> {
        let s = *at.get(&key)?.iter().find(|s| **s != from && !used[**s])?;
        let far = if segs[s][0].0 == key { 1 } else { 0 };
        Some((s, far))
    };
    let mut out = Vec::new();
    for start in 0..segs.len() {
        if used[start] {
            continue;
        }
        used[start] = true;
        // walk forward from end 1, then backward from end 0
        let mut fwd = vec![segs[start][0].1, segs[start][1].1];
        let (mut key, mut from) = (segs[start][1].0, start);
        while let Some((s, far)) = next(&used, key, from) {
            used[s] = true;
            fwd.push(segs[s][far].1);
            key = segs[s][far].0;
            from = s;
        }
        let mut back = Vec::new();
        let (mut key, mut from) = (segs[start][0].0, start);
        while let Some((s, far)) = next(&used, key, from) {
            used[s] = true;
            back.push(segs[s][far].1);
            key = segs[s][far].0;
            from = s;
        }
        back.reverse();
        back.extend(fwd);
        out.push(back);
    }
    out
}

/// MATLAB's contour matrix: for each line a column `[level; count]` then its points'
/// columns, levels in the order given; the values column-major (2 rows).
pub fn contour_matrix(g: &Grid, levels: &[f64]) -> Vec<f64> {
    let mut m = Vec::new();
    for l in levels {
        for line in lines(g, *l) {
            m.push(*l);
            m.push(line.len() as f64);
            for (x, y) in line {
                m.push(x);
                m.push(y);
            }
        }
    }
    m
}
