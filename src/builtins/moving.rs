//! Moving-window reductions: movmean movsum movmax movmin movmedian.

use super::stats::{lanes_map, median_of};
use super::{Builtin, b, bad_arg, dim_arg, one, split_flags};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::values::ops::reduce::default_dim;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("movmean", 2, 4, 1, "movmean(A, k, dim): moving mean over windows of k elements.", movmean),
        b("movmax", 2, 4, 1, "movmax(A, k, dim): moving maximum.", movmax),
        b("movmin", 2, 4, 1, "movmin(A, k, dim): moving minimum.", movmin),
        b("movmedian", 2, 4, 1, "movmedian(A, k, dim): moving median.", movmedian),
        b("movsum", 2, 4, 1, "movsum(A, k, dim): moving sum.", movsum),
    ]
}

#[derive(Clone, Copy)]
enum Mov {
    Mean,
    Sum,
    Max,
    Min,
    Median,
}

fn moving(a: A, kind: Mov) -> MResult<Value> {
    let (pos, flags) = split_flags(a);
    if pos.len() < 2 {
        return Err(bad_arg("movmean", "Expected an array and a window length."));
    }
    let t = pos[0].tensor()?;
    let kt = pos[1].tensor()?;
    let (before, after) = match kt.numel() {
        1 => {
            let k = kt.get_f64(0);
            if k < 1.0 {
                return Err(bad_arg(
                    "movmean",
                    "The window length must be a positive scalar.",
                ));
            }
            if k.fract() == 0.0 && (k as usize) % 2 == 0 {
                ((k as usize) / 2, (k as usize) / 2 - 1)
            } else {
                let h = ((k - 1.0) / 2.0).floor() as usize;
                (h, h)
            }
        }
        2 => (kt.get_f64(0) as usize, kt.get_f64(1) as usize),
        _ => {
            return Err(bad_arg(
                "movmean",
                "The window must be a scalar or a two-element vector.",
            ));
        }
    };
    let omitnan = flags.iter().any(|f| f == "omitnan");
    let dim = match pos.get(2) {
        Some(v) => Some(dim_arg(v)?),
        None => None,
    };
    let d = dim.unwrap_or_else(|| default_dim(&t.shape));
    let len = t.shape.dim(d);
    let out = lanes_map(&t, Some(d), len, |lane| {
        // a window per element (each copied): Ctrl-C is looked at as they go
        let mut tick = crate::interp::interrupt::Ticker::new();
        (0..lane.len())
            .map(|k| {
                let lo = k.saturating_sub(before);
                let hi = k.saturating_add(after).min(lane.len() - 1);
                tick.add(hi + 1 - lo.min(hi));
                let mut w: Vec<f64> = lane[lo..=hi].to_vec();
                if omitnan {
                    w.retain(|x| !x.is_nan());
                }
                match kind {
                    Mov::Mean => w.iter().sum::<f64>() / w.len() as f64,
                    Mov::Sum => w.iter().sum::<f64>(),
                    Mov::Max => w
                        .iter()
                        .copied()
                        .fold(f64::NAN, |a, b| if a.is_nan() || b > a { b } else { a }),
                    Mov::Min => w
                        .iter()
                        .copied()
                        .fold(f64::NAN, |a, b| if a.is_nan() || b < a { b } else { a }),
                    Mov::Median => median_of(&mut w),
                }
            })
            .collect()
    });
    Ok(Value::from(out))
}

fn movmean(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(moving(a, Mov::Mean)?)
}
fn movsum(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(moving(a, Mov::Sum)?)
}
fn movmax(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(moving(a, Mov::Max)?)
}
fn movmin(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(moving(a, Mov::Min)?)
}
fn movmedian(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(moving(a, Mov::Median)?)
}
