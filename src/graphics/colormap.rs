//! Colormaps by name (`parula`, `viridis`, `jet`, `gray`, ...) as n×3 matrices, and colour
//! lookup in a map.

use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

/// The names `colormap` accepts (each is also a function `name(n)`).
pub const NAMES: [&str; 17] = [
    "parula", "viridis", "turbo", "jet", "hsv", "hot", "cool", "spring", "summer", "autumn",
    "winter", "gray", "bone", "copper", "pink", "lines", "white",
];

/// Control points (position, r, g, b) of maps given by interpolation.
const PARULA: [[f64; 4]; 11] = [
    [0.0, 0.2422, 0.1504, 0.6603],
    [0.1, 0.2780, 0.3150, 0.9420],
    [0.2, 0.1840, 0.5050, 0.9800],
    [0.3, 0.1050, 0.6350, 0.8690],
    [0.4, 0.0400, 0.7260, 0.7460],
    [0.5, 0.2000, 0.7850, 0.6000],
    [0.6, 0.4300, 0.8060, 0.4160],
    [0.7, 0.6700, 0.7800, 0.2400],
    [0.8, 0.8800, 0.7350, 0.2100],
    [0.9, 0.9900, 0.8000, 0.2000],
    [1.0, 0.9769, 0.9839, 0.0805],
];
const VIRIDIS: [[f64; 4]; 9] = [
    [0.0, 0.267, 0.005, 0.329],
    [0.125, 0.283, 0.141, 0.458],
    [0.25, 0.254, 0.265, 0.530],
    [0.375, 0.207, 0.372, 0.553],
    [0.5, 0.164, 0.471, 0.558],
    [0.625, 0.128, 0.567, 0.551],
    [0.75, 0.135, 0.659, 0.518],
    [0.875, 0.478, 0.821, 0.318],
    [1.0, 0.993, 0.906, 0.144],
];
const TURBO: [[f64; 4]; 9] = [
    [0.0, 0.190, 0.072, 0.232],
    [0.125, 0.275, 0.397, 0.867],
    [0.25, 0.161, 0.713, 0.949],
    [0.375, 0.145, 0.922, 0.640],
    [0.5, 0.645, 0.990, 0.234],
    [0.625, 0.951, 0.825, 0.225],
    [0.75, 0.992, 0.540, 0.126],
    [0.875, 0.812, 0.213, 0.018],
    [1.0, 0.480, 0.016, 0.011],
];

fn interp(points: &[[f64; 4]], t: f64) -> [f64; 3] {
    let t = t.clamp(0.0, 1.0);
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        if t <= b[0] {
            let f = if b[0] > a[0] {
                (t - a[0]) / (b[0] - a[0])
            } else {
                0.0
            };
            return [
                a[1] + f * (b[1] - a[1]),
                a[2] + f * (b[2] - a[2]),
                a[3] + f * (b[3] - a[3]),
            ];
        }
    }
    let l = points[points.len() - 1];
    [l[1], l[2], l[3]]
}

fn hsv_to_rgb(h: f64, s: f64, v: f64) -> [f64; 3] {
    let h6 = (h.rem_euclid(1.0)) * 6.0;
    let k = h6.floor();
    let f = h6 - k;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f)));
    match k as i32 {
        0 => [v, t, p],
        1 => [q, v, p],
        2 => [p, v, t],
        3 => [p, q, v],
        4 => [t, p, v],
        _ => [v, p, q],
    }
}

/// Row `i` (0-based) of MATLAB's `jet(m)`: ramps u = [(1:q)/q, ones(1, q-1), (q:-1:1)/q] with
/// q = ceil(m/4), green's starting at row ceil(q/2) - (mod(m,4) == 1) + 1, red's q rows later,
/// blue's q rows earlier (its ramp's tail), so that jet(256) starts at [0 0 0.5156] as there.
fn jet_row(i: usize, m: usize) -> [f64; 3] {
    let q = m.div_ceil(4).max(1) as i64;
    let len = 3 * q - 1;
    let u = |k: i64| -> f64 {
        // k is 1-based into u
        if k < 1 || k > len {
            0.0
        } else if k <= q {
            k as f64 / q as f64
        } else if k < 2 * q {
            1.0
        } else {
            (len - k + 1) as f64 / q as f64
        }
    };
    let row = i as i64 + 1;
    let g0 = (q + 1) / 2 - i64::from(m % 4 == 1);
    // green covers rows g0+1 .. g0+len (clipped to m), with u(1..)
    let green = u(row - g0);
    let red = u(row - g0 - q);
    // blue: rows g0-q+1 .. g0-q+len (those below 1 dropped, the rest keeping u's tail)
    let blue = u(row - (g0 - q));
    [red, green, blue]
}

/// Row `i` of `n` of the named map.
fn entry(name: &str, i: usize, n: usize) -> Option<[f64; 3]> {
    let t = if n > 1 {
        i as f64 / (n - 1) as f64
    } else {
        0.0
    };
    let c = match name {
        "parula" => interp(&PARULA, t),
        "viridis" => interp(&VIRIDIS, t),
        "turbo" => interp(&TURBO, t),
        "jet" => jet_row(i, n),
        "hsv" => hsv_to_rgb(if n > 0 { i as f64 / n as f64 } else { 0.0 }, 1.0, 1.0),
        "hot" => [
            (t * 8.0 / 3.0).min(1.0),
            (t * 8.0 / 3.0 - 1.0).clamp(0.0, 1.0),
            (t * 4.0 - 3.0).clamp(0.0, 1.0),
        ],
        "cool" => [t, 1.0 - t, 1.0],
        "spring" => [1.0, t, 1.0 - t],
        "summer" => [t, 0.5 + t / 2.0, 0.4],
        "autumn" => [1.0, t, 0.0],
        "winter" => [0.0, t, 1.0 - t / 2.0],
        "gray" => [t, t, t],
        "white" => [1.0, 1.0, 1.0],
        "bone" => {
            let h = [
                (t * 8.0 / 3.0).min(1.0),
                (t * 8.0 / 3.0 - 1.0).clamp(0.0, 1.0),
                (t * 4.0 - 3.0).clamp(0.0, 1.0),
            ];
            [
                (7.0 * t + h[2]) / 8.0,
                (7.0 * t + h[1]) / 8.0,
                (7.0 * t + h[0]) / 8.0,
            ]
        }
        "copper" => [(1.25 * t).min(1.0), 0.7812 * t, 0.4975 * t],
        "pink" => {
            let h = [
                (t * 8.0 / 3.0).min(1.0),
                (t * 8.0 / 3.0 - 1.0).clamp(0.0, 1.0),
                (t * 4.0 - 3.0).clamp(0.0, 1.0),
            ];
            [
                ((2.0 * t + h[0]) / 3.0).sqrt(),
                ((2.0 * t + h[1]) / 3.0).sqrt(),
                ((2.0 * t + h[2]) / 3.0).sqrt(),
            ]
        }
        "lines" => super::defaults::COLOR_ORDER[i % 7],
        _ => return None,
    };
    Some(c)
}

/// The named map with `n` rows, as an n×3 double matrix.
pub fn named(name: &str, n: usize) -> Option<Value> {
    let name = name.to_ascii_lowercase();
    entry(&name, 0, 2)?;
    let mut data = vec![0.0; n * 3];
    for i in 0..n {
        let c = entry(&name, i, n)?;
        for k in 0..3 {
            data[k * n + i] = (c[k] * 1e4).round() / 1e4;
        }
    }
    Some(Value::from(Tensor::f64(Shape::matrix(n, 3), data)))
}

/// A colormap held as rows of RGB.
#[derive(Clone, Debug)]
pub struct Map(pub Vec<[f64; 3]>);

impl Map {
    /// From an n×3 matrix value (rows outside [0, 1] are clamped).
    pub fn from_value(v: &Value) -> Map {
        let Ok(t) = v.tensor() else {
            return Map::parula();
        };
        let rows = t.shape.rows();
        if t.shape.numel() != rows * 3 || rows == 0 {
            return Map::parula();
        }
        let d = t.to_f64();
        Map((0..rows)
            .map(|i| {
                [
                    d[i].clamp(0.0, 1.0),
                    d[rows + i].clamp(0.0, 1.0),
                    d[2 * rows + i].clamp(0.0, 1.0),
                ]
            })
            .collect())
    }
    pub fn parula() -> Map {
        Map((0..256)
            .map(|i| interp(&PARULA, i as f64 / 255.0))
            .collect())
    }
    /// The colour of `x` scaled from `[lo, hi]` onto the map (MATLAB's 'scaled' mapping).
    pub fn scaled(&self, x: f64, lo: f64, hi: f64) -> Option<[f64; 3]> {
        if !x.is_finite() {
            return None;
        }
        let n = self.0.len();
        let t = if hi > lo { (x - lo) / (hi - lo) } else { 0.5 };
        let i = ((t * n as f64).floor().max(0.0) as usize).min(n - 1);
        Some(self.0[i])
    }
    /// The colour of row `x` (1-based, clamped: MATLAB's 'direct' mapping).
    pub fn direct(&self, x: f64) -> Option<[f64; 3]> {
        if !x.is_finite() {
            return None;
        }
        let n = self.0.len();
        let i = (x.floor().max(1.0) as usize).min(n) - 1;
        Some(self.0[i])
    }
}
