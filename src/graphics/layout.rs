//! Where the axes of a grid go: `subplot(m, n, k)` and `tiledlayout`/`nexttile` positions,
//! spaced as MATLAB spaces them inside the default axes area.

use super::defaults::AXES_POSITION;

/// How a tiled layout's grid is chosen: fixed by `tiledlayout(m, n)`, or growing with each
/// `nexttile` (`'flow'`: a near-square grid; `'vertical'`: one column; `'horizontal'`: one
/// row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrangement {
    Fixed,
    Flow,
    Vertical,
    Horizontal,
}

impl Arrangement {
    /// Rows and columns for `count` tiles (a fixed layout keeps `fixed`).
    pub fn grid(self, count: usize, fixed: (usize, usize)) -> (usize, usize) {
        let count = count.max(1);
        match self {
            Arrangement::Fixed => fixed,
            Arrangement::Vertical => (count, 1),
            Arrangement::Horizontal => (1, count),
            Arrangement::Flow => {
                // as many columns as rows or one more (a 4:3 figure is wider than tall)
                let n = (count as f64).sqrt().ceil() as usize;
                (count.div_ceil(n), n)
            }
        }
    }
}

/// The normalised position of cell `k` (1-based, row by row) of an m×n grid, or of the
/// rectangle spanning cells `k` to `k2`.
pub fn cell(m: usize, n: usize, k: usize, k2: usize) -> [f64; 4] {
    let (m, n) = (m.max(1) as f64, n.max(1) as f64);
    let [l, b, w, h] = AXES_POSITION;
    // gaps between cells as fractions of a cell (MATLAB's subplot spacing)
    let cw = w / (n + (n - 1.0) * 0.3155);
    let ch = h / (m + (m - 1.0) * 0.3886);
    let gx = cw * 0.3155;
    let gy = ch * 0.3886;
    let at = |k: usize| {
        let k = k.max(1) - 1;
        let (row, col) = ((k as f64 / n).floor(), (k as f64) % n);
        (row, col)
    };
    let (r1, c1) = at(k);
    let (r2, c2) = at(k2.max(k));
    let (rlo, rhi) = (r1.min(r2), r1.max(r2));
    let (clo, chi) = (c1.min(c2), c1.max(c2));
    let left = l + clo * (cw + gx);
    let right = l + chi * (cw + gx) + cw;
    let top = b + h - rlo * (ch + gy);
    let bottom = b + h - rhi * (ch + gy) - ch;
    [left, bottom, right - left, top - bottom]
}
