//! Where datetimes fall in the calendar and between each other: `week`, `isweekend`,
//! `isbetween` and `caldiff` (successive calendar differences, as `between` measures them).

use super::datetimes::datetime_arg;
use super::{Builtin, b, bad_arg, one, text_arg};
use crate::dates::{self, TimeArray, civil};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::values::shape::{BroadcastIter, Shape};
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

const DAY: f64 = 86_400_000.0;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("week", 1, 2, 1, "week(t), week(t, 'weekofyear'|'weekofmonth'): the week number of each datetime (weeks start on Sunday; week 1 holds the 1st of January, or of the month).", week),
        b("isweekend", 1, 1, 1, "isweekend(t): true where a datetime falls on a Saturday or Sunday.", isweekend),
        b("isbetween", 3, 5, 1, "isbetween(t, lower, upper), isbetween(..., 'closed'|'open'|'openleft'|'openright'): true where lower <= t <= upper (bounds as the interval type says).", isbetween),
        b("caldiff", 1, 2, 1, "caldiff(t): the calendar durations between successive datetimes of a vector (along the first non-singleton dimension of a matrix).", caldiff),
    ]
}

/// Day of the week, 1 = Sunday (NaN for NaT).
fn weekday(ms: f64) -> f64 {
    if !ms.is_finite() {
        return f64::NAN;
    }
    civil::weekday((ms / DAY).floor() + civil::UNIX_DATENUM)
}

fn week(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = datetime_arg(&a[0], "week")?;
    let of_month = match a.get(1) {
        None => false,
        Some(v) => match text_arg(v, "week")?.to_ascii_lowercase().as_str() {
            "weekofyear" => false,
            "weekofmonth" => true,
            other => return Err(bad_arg("week", format!("Unknown week type '{other}'."))),
        },
    };
    let v =
        t.ms.iter()
            .map(|&m| {
                if !m.is_finite() {
                    return f64::NAN;
                }
                let c = dates::ms_to_components(m);
                let first =
                    civil::days_from_civil(c[0] as i64, if of_month { c[1] as i64 } else { 1 }, 1)
                        as f64;
                let day = (m / DAY).floor();
                let first_wd = weekday(first * DAY);
                ((day - first + first_wd - 1.0) / 7.0).floor() + 1.0
            })
            .collect();
    one(Tensor::f64(t.shape.clone(), v))
}

fn isweekend(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = datetime_arg(&a[0], "isweekend")?;
    let v =
        t.ms.iter()
            .map(|&m| matches!(weekday(m) as i64, 1 | 7) && m.is_finite())
            .collect();
    one(Tensor::bools(t.shape.clone(), v))
}

/// A bound given as a datetime, or as text a datetime reads.
fn bound(v: &Value) -> MResult<TimeArray> {
    if v.is_text() || matches!(v, Value::Cell(_) | Value::Str(_)) {
        return crate::dates::array::datetimes_from_text(v, None);
    }
    Ok(datetime_arg(v, "isbetween")?.clone())
}

fn isbetween(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = datetime_arg(&a[0], "isbetween")?;
    let (lo, hi) = (bound(&a[1])?, bound(&a[2])?);
    let kind = match a.len() {
        3 => "closed".to_string(),
        4 => text_arg(&a[3], "isbetween")?.to_ascii_lowercase(),
        _ => {
            let name = text_arg(&a[3], "isbetween")?;
            if !name.eq_ignore_ascii_case("intervaltype") {
                return Err(bad_arg("isbetween", format!("Unknown option '{name}'.")));
            }
            text_arg(&a[4], "isbetween")?.to_ascii_lowercase()
        }
    };
    let (open_lo, open_hi) = match kind.as_str() {
        "closed" => (false, false),
        "open" => (true, true),
        "openleft" => (true, false),
        "openright" => (false, true),
        other => {
            return Err(bad_arg(
                "isbetween",
                format!(
                    "The interval type must be 'closed', 'open', 'openleft' or 'openright', not '{other}'."
                ),
            ));
        }
    };
    let both = Shape::broadcast_checked(&lo.shape, &hi.shape)?;
    let out = Shape::broadcast_checked(&t.shape, &both)?;
    let bounds: Vec<(f64, f64)> = BroadcastIter::new(&both, &lo.shape, &hi.shape)
        .map(|(i, j)| (lo.ms[i], hi.ms[j]))
        .collect();
    let v = BroadcastIter::new(&out, &t.shape, &both)
        .map(|(i, j)| {
            let (x, (l, h)) = (t.ms[i], bounds[j]);
            let above = if open_lo { x > l } else { x >= l };
            let below = if open_hi { x < h } else { x <= h };
            above && below
        })
        .collect();
    one(Tensor::bools(out, v))
}

fn caldiff(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = datetime_arg(&a[0], "caldiff")?;
    if a.len() > 1 {
        let units = a[1].clone();
        if !(units.is_text() || matches!(units, Value::Cell(_))) {
            return Err(bad_arg("caldiff", "Components must be text."));
        }
        return Err(bad_arg(
            "caldiff",
            "Choosing components is not supported: caldiff(t) gives months, days and time.",
        ));
    }
    let dims = t.shape.dims().to_vec();
    let dim = dims.iter().position(|d| *d != 1).unwrap_or(0);
    let n = dims.get(dim).copied().unwrap_or(1);
    let inner: usize = dims[..dim].iter().product();
    let outer = t.numel() / (inner * n).max(1);
    let mut out_dims = dims.clone();
    if let Some(d) = out_dims.get_mut(dim) {
        *d = n.saturating_sub(1);
    }
    let (mut mo, mut dd, mut tt) = (Vec::new(), Vec::new(), Vec::new());
    // pushed in column-major order of the result: inner fastest, then k, then outer
    for o in 0..outer {
        for k in 1..n {
            for i in 0..inner {
                let at = |kk: usize| t.ms[o * n * inner + kk * inner + i];
                let [m, d, s] = super::time_parts::calendar_gap(at(k - 1), at(k));
                mo.push(m);
                dd.push(d);
                tt.push(s);
            }
        }
    }
    one(TimeArray::caldurations(Shape::new(&out_dims), mo, dd, tt).into_value())
}
