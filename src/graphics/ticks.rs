//! Tick positions (steps of 1, 2 or 5 times a power of ten, as many as fit) and their labels
//! (common decimals; a ×10^n multiplier for large or tiny values, as MATLAB shows it).

use super::Scene;
use super::model::Id;

/// How many ticks an axis of this many pixels takes at most.
fn max_ticks(pixels: f64) -> f64 {
    (pixels / 28.0).clamp(3.0, 11.0).floor()
}

/// Ticks of this step inside `[lo, hi]`.
fn count(lo: f64, hi: f64, step: f64) -> f64 {
    (hi / step + 1e-9).floor() - (lo / step - 1e-9).ceil() + 1.0
}

/// The step between ticks for data from `lo` to `hi` on an axis `pixels` long.
pub fn nice_step(lo: f64, hi: f64, pixels: f64) -> f64 {
    let span = hi - lo;
    if !(span > 0.0) || !span.is_finite() {
        return 1.0;
    }
    let most = max_ticks(pixels);
    let mut p = 10f64.powf((span / most).log10().floor() - 1.0);
    for _ in 0..40 {
        for m in [1.0, 2.0, 5.0] {
            let step = m * p;
            if count(lo, hi, step) <= most {
                return step;
            }
        }
        p *= 10.0;
    }
    span
}

/// Rounds away the noise of `k * step`.
fn clean(x: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    let mag = 10f64.powf(x.abs().log10().floor() - 11.0);
    (x / mag).round() * mag
}

/// Automatic tick positions inside `[lo, hi]`.
pub fn auto_ticks(lo: f64, hi: f64, pixels: f64, log: bool) -> Vec<f64> {
    if !(hi > lo) || !lo.is_finite() || !hi.is_finite() {
        return Vec::new();
    }
    if log && lo > 0.0 {
        let (a, b) = (lo.log10().ceil() as i64, hi.log10().floor() as i64);
        if b < a {
            return vec![lo, hi];
        }
        let n = (b - a + 1) as f64;
        let every = (n / max_ticks(pixels)).ceil().max(1.0) as i64;
        return (a..=b)
            .filter(|k| (k - a) % every == 0)
            .map(|k| 10f64.powi(k as i32))
            .collect();
    }
    let step = nice_step(lo, hi, pixels);
    let (a, b) = (
        (lo / step - 1e-9).ceil() as i64,
        (hi / step + 1e-9).floor() as i64,
    );
    if b - a > 1000 {
        return Vec::new();
    }
    (a..=b).map(|k| clean(k as f64 * step)).collect()
}

/// Minor positions for `grid minor` inside `lim`: a linear step's fifths (its halves for a
/// step of 2 or 20 ...), or 2..9 times each decade on a log axis.
pub fn minor(major: &[f64], lim: (f64, f64), log: bool) -> Vec<f64> {
    let inside = |v: &f64| *v >= lim.0 && *v <= lim.1;
    if log {
        if !(lim.0 > 0.0) || !(lim.1 > lim.0) {
            return Vec::new();
        }
        let (a, b) = (lim.0.log10().floor() as i64, lim.1.log10().ceil() as i64);
        if b - a > 300 {
            return Vec::new();
        }
        return (a..b)
            .flat_map(|k| (2..10).map(move |m| m as f64 * 10f64.powi(k as i32)))
            .filter(inside)
            .collect();
    }
    let [t0, t1, ..] = major else {
        return Vec::new();
    };
    let step = t1 - t0;
    if !(step > 0.0) || !step.is_finite() {
        return Vec::new();
    }
    let lead = step / 10f64.powf(step.log10().floor());
    let parts = if (lead - 2.0).abs() < 1e-6 { 4.0 } else { 5.0 };
    let fine = step / parts;
    let (a, b) = ((lim.0 / fine).ceil() as i64, (lim.1 / fine).floor() as i64);
    if b - a > 5000 {
        return Vec::new();
    }
    (a..=b)
        .map(|k| clean(k as f64 * fine))
        .filter(|v| inside(v) && !major.iter().any(|m| (m - v).abs() < fine * 1e-6))
        .collect()
}

/// The ticks an axes shows along `which` (b'X', b'Y' or b'Z').
pub fn axes_ticks(scene: &Scene, ax: Id, which: u8) -> Vec<f64> {
    let Some(a) = scene.objs.get(&ax) else {
        return Vec::new();
    };
    let c = which as char;
    if a.text(&format!("{c}TickMode")) == "manual" {
        return a.nums(&format!("{c}Tick")).into_owned();
    }
    if let Some(t) = bar_ticks(scene, ax, which) {
        return t;
    }
    let l = super::limits::axes_limits(scene, ax);
    let (w, h) = super::limits::axes_pixels(scene, ax);
    let (range, px, log) = match which {
        b'X' => (l.x, w, a.text("XScale") == "log"),
        b'Y' => (l.y, h, a.text("YScale") == "log"),
        _ => (l.z, h, false),
    };
    auto_ticks(range.0, range.1, px, log)
}

/// Labels for tick values, and the power of ten they are divided by (0 for none).
pub fn labels(ticks: &[f64], log: bool) -> (Vec<String>, i32) {
    if log {
        return (
            ticks
                .iter()
                .map(|t| {
                    let e = t.log10();
                    if (e - e.round()).abs() < 1e-9 {
                        format!("10^{{{}}}", e.round() as i64)
                    } else {
                        short(*t, 4)
                    }
                })
                .collect(),
            0,
        );
    }
    let big = ticks.iter().fold(0.0f64, |m, t| m.max(t.abs()));
    let exp = if big >= 1e5 || (big > 0.0 && big < 1e-3) {
        big.log10().floor() as i32
    } else {
        0
    };
    let scale = 10f64.powi(exp);
    let scaled: Vec<f64> = ticks.iter().map(|t| t / scale).collect();
    let step = scaled
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(f64::INFINITY, f64::min);
    let decimals = if step.is_finite() && step > 0.0 {
        let mut d = 0;
        while d < 10 && ((step * 10f64.powi(d)).round() - step * 10f64.powi(d)).abs() > 1e-6 {
            d += 1;
        }
        d as usize
    } else {
        scaled
            .first()
            .map(|x| {
                let s = short(*x, 4);
                s.split('.').nth(1).map_or(0, |f| f.len())
            })
            .unwrap_or(0)
    };
    let text = scaled
        .iter()
        .map(|x| {
            let mut s = format!("{:.*}", decimals, x);
            if s.contains('.') {
                s = s.trim_end_matches('0').trim_end_matches('.').to_string();
            }
            if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
                s[1..].to_string()
            } else {
                s
            }
        })
        .collect();
    (text, exp)
}

/// `%g`-style text with up to `digits` significant digits.
pub fn short(x: f64, digits: usize) -> String {
    if x == 0.0 || !x.is_finite() {
        return if x.is_nan() {
            "NaN".into()
        } else if x == 0.0 {
            "0".into()
        } else if x > 0.0 {
            "Inf".into()
        } else {
            "-Inf".into()
        };
    }
    let e = x.abs().log10().floor() as i32;
    if !(-5..(digits as i32)).contains(&e) {
        let s = format!("{:.*e}", digits.saturating_sub(1), x);
        // 1.500e3 -> 1.5e+03
        if let Some((m, ex)) = s.split_once('e') {
            let m = if m.contains('.') {
                m.trim_end_matches('0').trim_end_matches('.')
            } else {
                m
            };
            let ex: i32 = ex.parse().unwrap_or(0);
            return format!("{m}e{}{:02}", if ex < 0 { '-' } else { '+' }, ex.abs());
        }
        return s;
    }
    let dec = (digits as i32 - 1 - e).max(0) as usize;
    let s = format!("{:.*}", dec, x);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Bars alone in an axes get a tick under each bar (up to a dozen integer positions).
fn bar_ticks(scene: &Scene, ax: Id, which: u8) -> Option<Vec<f64>> {
    let a = scene.objs.get(&ax)?;
    let mut pos: Option<Vec<f64>> = None;
    for c in &a.children {
        let o = scene.objs.get(c)?;
        if o.kind != super::model::Kind::Bar {
            return None;
        }
        let along = if o.on("Horizontal") { b'Y' } else { b'X' };
        if along != which {
            return None;
        }
        let y = o.nums("YData");
        let x = super::limits::x_or_index(o, y.len()).into_owned();
        pos.get_or_insert(x);
    }
    let p = pos?;
    let ok = !p.is_empty()
        && p.len() <= 12
        && p.iter().all(|v| v.fract() == 0.0)
        && p.windows(2).all(|w| w[1] > w[0]);
    ok.then_some(p)
}
